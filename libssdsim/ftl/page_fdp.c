/* page_fdp.c: Flexible Data Placement in the page FTL (NVMe TP4146, model keys fdp.*). Each
 * placement handle (a reclaim unit handle) has its own host write frontier on every plane, so
 * the reclaim units it fills (here: the open block of that frontier on each plane, one erase
 * block) hold only its data: handle 0 writes to the host frontier, handle h > 0 to a frontier
 * of its own after the fixed ones (page.h; the arrays are sized at set-up, nothing is
 * allocated or searched per write). A write's placement comes with it
 * (ssdsim_ftl_env.placement: group x handles + handle, config/fdp_pid.h, set by the device from
 * the command's placement id, or by the write buffer from the unit's); a write that waits (a
 * stall, a read-modify-write) keeps the frontier and group it was given.
 *
 * Reclaim groups (fdp.reclaim_groups): group g is the dies at places g x D/G .. of the
 * striping order; a host write goes to a plane of its group's dies (page_place.c's
 * choose_in_group), a handle's frontier on those planes being its reclaim units in the group.
 * When none can take it and no plane of the group can collect a victim, it goes to another
 * group (Media Reallocated, counted per group). Per group the library counts host units, units
 * programmed, blocks erased and units reallocated; the host's Reclaim Unit Handle Update ends a
 * handle's reclaim units in a group (Reclaim Unit Not Fully Written events).
 *
 * Garbage collection picks its victims over all blocks (the model's GC policy), and where the
 * copies go is the handle's isolation: "initial" (initially isolated) copies every handle's data
 * to the one GC frontier, mixing handles there, as the specification allows; "persistent"
 * (persistently isolated) copies a handle's data to that handle's own GC frontier (or its host
 * frontier with gc.separate off), so a reclaim unit never holds another handle's data. The
 * handle of each logical unit is what its last host program named (one byte per unit), set
 * when the program is placed, so that the valid copy and its handle always agree.
 *
 * Persistent isolation is also checked: every block records the handle whose frontier opened
 * it, and a program of another handle's data into it is counted (ssdsim__page_fdp_check fails
 * on any). It cannot happen with units of a whole page: the GC reserve holds (page_place.c: a
 * victim holds one handle's data, so its copies go to one frontier). With smaller units,
 * padded pages can leave a frontier short of room; a host write then waits for another plane
 * or for GC, and a GC copy goes to its handle's other frontier first (ssdsim__page_fdp_mate).
 * RAIN parity pages, which belong to no handle, go to a frontier of their own (FR_HOT, which
 * hot/cold separation would use; the model refuses the two together).
 *
 * The statistics the specification defines per handle: Host Bytes with Metadata Written (host
 * units) and Media Bytes with Metadata Written (units programmed for the handle's data: its
 * host units and every GC, wear-leveling or rebuild copy of them), as library counters
 * (SSDSIM__CNT_FDP_HOST + h, SSDSIM__CNT_FDP_MEDIA + h), so each run reports its own. Both are
 * counted where the program is placed; host units the write buffer absorbed (overwritten in
 * DRAM before their flush) are counted there (dev/buffer.c), as their host pages are.
 */
#include "ftl/page_int.h"
#include "plugin.h"

#include <stdio.h>
#include <stdlib.h>

struct ssdsim__fdp {
    uint32_t handles;
    bool persistent;
    /* reclaim groups (all 1 group, and unused but for counting, without fdp.reclaim_groups) */
    uint32_t groups, dpg;  /* groups, dies per group */
    uint8_t *die_group;    /* per die: its group */
    uint32_t *group_dies;  /* the dies of group g at [g x dpg, (g+1) x dpg), in striping order */
    uint32_t *cursor;      /* per group: the index in its dies where the next search starts */
    uint32_t named;        /* the group the program being placed was meant for (NONE: GC's) */
    uint8_t *handle_of; /* per logical unit: the handle of its last host program */
    uint8_t *owner;     /* per block: the handle whose frontier opened it (FDP_NO_HANDLE) */
    uint64_t mixed;     /* programs of a handle's data into a block of another (persistent) */
    uint32_t mixed_block, mixed_handle, mixed_owner; /* the first of them */
};

int ssdsim__page_fdp_setup(struct ssdsim__ftl *f)
{
    const struct ssdsim_model *m = f->env->model;
    if (!m || !m->fdp.handles || f->dftl)
        return 0;
    struct ssdsim__fdp *p = calloc(1, sizeof *p);
    if (!p)
        return SSDSIM_ENOMEM;
    f->fdp = p;
    p->handles = m->fdp.handles;
    p->persistent = m->fdp.isolation == SSDSIM__FDP_PERSISTENT;
    p->handle_of = calloc(f->n_lpn ? f->n_lpn : 1, 1);
    /* blocks installed by fast preconditioning hold handle 0's data (handle_of 0) */
    p->owner = calloc(f->geo->n_blocks ? f->geo->n_blocks : 1, 1);
    p->groups = m->fdp.reclaim_groups > 1 ? m->fdp.reclaim_groups : 1;
    p->named = NONE;
    uint32_t n = f->n_dies ? f->n_dies : 1;
    p->dpg = n / p->groups;
    p->die_group = calloc(n, 1);
    p->group_dies = calloc(n, sizeof *p->group_dies);
    p->cursor = calloc(p->groups, sizeof *p->cursor);
    if (!p->handle_of || !p->owner || !p->die_group || !p->group_dies || !p->cursor)
        return SSDSIM_ENOMEM;
    /* group g: the dies at places g x dpg .. of the striping order (every channel in turn, then
     * the next die of each: page_place.c's stripe_die), so that a group of as many dies as
     * channels has one on each */
    uint32_t nch = f->n_channels ? f->n_channels : 1;
    for (uint32_t k = 0; k < f->n_dies; k++) {
        uint32_t die = (k % nch) * (f->n_dies / nch) + k / nch;
        p->group_dies[k] = die;
        p->die_group[die] = (uint8_t)(k / p->dpg);
    }
    return 0;
}

void ssdsim__page_fdp_free(struct ssdsim__ftl *f)
{
    if (!f->fdp)
        return;
    free(f->fdp->handle_of);
    free(f->fdp->owner);
    free(f->fdp->die_group);
    free(f->fdp->group_dies);
    free(f->fdp->cursor);
    free(f->fdp);
    f->fdp = NULL;
}

/* The host frontier of the environment's current placement (group x handles + handle,
 * config/fdp_pid.h), and its reclaim group. */
int ssdsim__page_fdp_host_frontier(const struct ssdsim__ftl *f)
{
    const struct ssdsim__fdp *p = f->fdp;
    uint32_t pl = f->env->placement;
    return ssdsim__fdp_host_fr(pl < p->handles * p->groups ? pl % p->handles : 0);
}

uint32_t ssdsim__page_fdp_host_group(const struct ssdsim__ftl *f)
{
    const struct ssdsim__fdp *p = f->fdp;
    uint32_t pl = f->env->placement;
    return pl < p->handles * p->groups ? pl / p->handles : 0;
}

uint32_t ssdsim__page_fdp_groups(const struct ssdsim__ftl *f)
{
    return f->fdp->groups;
}

/* Group g's dies (dpg of them, in striping order) and its search cursor. */
const uint32_t *ssdsim__page_fdp_group_dies(const struct ssdsim__ftl *f, uint32_t g,
                                            uint32_t *n, uint32_t **cursor)
{
    struct ssdsim__fdp *p = f->fdp;
    *n = p->dpg;
    *cursor = &p->cursor[g];
    return p->group_dies + (size_t)g * p->dpg;
}

uint32_t ssdsim__page_fdp_plane_group(const struct ssdsim__ftl *f, uint32_t plane)
{
    return f->fdp->die_group[plane / f->ppd];
}

/* The next program placed is a host (or rebuilt) page meant for group g. */
void ssdsim__page_fdp_name_group(struct ssdsim__ftl *f, uint32_t g)
{
    f->fdp->named = g;
}

/* Can garbage collection make room in group g for host pages that find none now? Only while a
 * plane of it collects a victim: GC is started where a plane is below its low watermark and
 * has none (the data that made garbage there may have been overwritten in another group since,
 * with nothing programmed on the plane to start it). A group whose planes have no victim with
 * garbage cannot: its pages go to another group (page_place.c). A loop over the group's planes,
 * made only when a host page finds no room in its group. */
bool ssdsim__page_fdp_group_can_reclaim(struct ssdsim__ftl *f, uint32_t g)
{
    const struct ssdsim__fdp *p = f->fdp;
    const uint32_t *dies = p->group_dies + (size_t)g * p->dpg;
    for (uint32_t i = 0; i < p->dpg; i++) {
        for (uint32_t j = 0; j < f->ppd; j++) {
            uint32_t plane = dies[i] * f->ppd + j;
            struct ssdsim__plane *pl = &f->planes[plane];
            if (f->df && ssdsim__diefail_plane_dead(f, plane))
                continue;
            if (pl->victim == NONE && pl->n_free < f->gc_min)
                ssdsim__page_gc_start(f, plane, SSDSIM__RECLAIM_FG);
            if (pl->victim != NONE)
                return true;
        }
    }
    return false;
}

/* Block b was erased (Media Bytes Erased, per group). */
void ssdsim__page_fdp_erased(struct ssdsim__ftl *f, uint32_t b)
{
    ssdsim__env_count(f->env, SSDSIM__CNT_FDP_RG_ERASED + (int)f->fdp->die_group[b / f->bpp / f->ppd],
                      1);
}

/* Reclaim Unit Handle Update (I/O Management Send) of `placement` (group x handles + handle):
 * the handle's reclaim units in the group, the open blocks of its host frontier on the group's
 * planes, are ended (closed as they are: GC candidates with their unwritten pages), so that its
 * next writes start new ones. Each one ended before it was full is a Reclaim Unit Not Fully
 * Written event. Returns the reclaim units ended. */
uint32_t ssdsim__page_fdp_ruh_update(struct ssdsim__ftl *f, uint32_t placement)
{
    const struct ssdsim__fdp *p = f->fdp;
    uint32_t g = placement / p->handles, fr = (uint32_t)ssdsim__fdp_host_fr(placement % p->handles);
    const uint32_t *dies = p->group_dies + (size_t)g * p->dpg;
    uint32_t ended = 0;
    for (uint32_t i = 0; i < p->dpg; i++) {
        for (uint32_t j = 0; j < f->ppd; j++) {
            struct ssdsim__plane *pl = &f->planes[dies[i] * f->ppd + j];
            if (pl->ptr[fr] >= f->ppb || pl->blk[fr] == NONE)
                continue;
            close_block(f, pl->blk[fr]);
            pl->ptr[fr] = f->ppb;
            ended++;
        }
    }
    ssdsim__env_count(f->env, SSDSIM__CNT_FDP_RUH_UPDATES, 1);
    ssdsim__env_count(f->env, SSDSIM__CNT_FDP_EV_RUNFW, ended);
    return ended;
}

/* Where a GC (or wear-leveling) copy of `lpn` goes, by the isolation. */
int ssdsim__page_fdp_gc_frontier(const struct ssdsim__ftl *f, uint32_t lpn)
{
    const struct ssdsim__fdp *p = f->fdp;
    if (!p->persistent)
        return f->separate ? SSDSIM__FR_GC : SSDSIM__FR_HOST;
    uint32_t h = lpn < f->n_lpn ? p->handle_of[lpn] : 0;
    return f->separate ? ssdsim__fdp_gc_fr(h) : ssdsim__fdp_host_fr(h);
}

/* Where a page rebuilt off a failed die goes (rel/diefail.c: under the rule of a host page):
 * its handle's host frontier. */
int ssdsim__page_fdp_rebuild_frontier(const struct ssdsim__ftl *f, uint32_t lpn)
{
    return ssdsim__fdp_host_fr(lpn < f->n_lpn ? f->fdp->handle_of[lpn] : 0);
}

/* Do GC copies go to frontier `fr` with gc.separate off? FR_HOST's (initial isolation), every
 * handle's host frontier (persistent). */
bool ssdsim__page_fdp_gc_shares(const struct ssdsim__ftl *f, int fr)
{
    if (fr == SSDSIM__FR_HOST)
        return true;
    return f->fdp->persistent && fr >= FR_FDP && (fr - FR_FDP) % 2 == 0;
}

/* The same handle's other frontier of a handle's host or GC frontier `fr` (-1 for the others,
 * and with initial isolation, where GC's frontier is every handle's): where a page of `fr`
 * goes first when `fr` is full and its plane has no free block (page_place.c). */
int ssdsim__page_fdp_mate(const struct ssdsim__ftl *f, int fr)
{
    uint32_t h = ssdsim__fdp_fr_handle(fr);
    if (!f->fdp->persistent || h == FDP_NO_HANDLE)
        return -1;
    return fr == ssdsim__fdp_host_fr(h) ? ssdsim__fdp_gc_fr(h) : ssdsim__fdp_host_fr(h);
}

/* Frontier `fr` opened block b: a reclaim unit of its handle. */
void ssdsim__page_fdp_opened(struct ssdsim__ftl *f, uint32_t b, int fr)
{
    f->fdp->owner[b] = (uint8_t)ssdsim__fdp_fr_handle(fr);
}

/* `lpn` was just mapped to `ppn` through frontier `fr` (why: a host program, or a GC, WL or
 * rebuild copy): count it for its handle, and check the reclaim unit's isolation. */
void ssdsim__page_fdp_programmed(struct ssdsim__ftl *f, int fr, uint32_t lpn, uint32_t ppn,
                                 ssdsim_flash_purpose why)
{
    struct ssdsim__fdp *p = f->fdp;
    uint32_t named = p->named;
    p->named = NONE;
    if (lpn >= f->n_lpn)
        return;
    uint32_t h;
    uint32_t b = ppn / f->ppb, g = p->die_group[b / f->bpp / f->ppd];
    if (why == SSDSIM_FOR_HOST) {
        h = ssdsim__fdp_fr_handle(fr);
        if (h >= p->handles)
            h = 0; /* (a host program goes to a handle's frontier) */
        p->handle_of[lpn] = (uint8_t)h;
        ssdsim__env_count(f->env, SSDSIM__CNT_FDP_HOST + (int)h, 1);
        ssdsim__env_count(f->env, SSDSIM__CNT_FDP_RG_HOST + (int)(named < p->groups ? named : g), 1);
    } else {
        h = p->handle_of[lpn];
    }
    ssdsim__env_count(f->env, SSDSIM__CNT_FDP_MEDIA + (int)h, 1);
    ssdsim__env_count(f->env, SSDSIM__CNT_FDP_RG_MEDIA + (int)g, 1);
    if (named < p->groups && named != g) /* written outside the group it was meant for */
        ssdsim__env_count(f->env, SSDSIM__CNT_FDP_RG_REALLOC + (int)named, 1);
    if (p->persistent && p->owner[b] != h) {
        if (!p->mixed++) {
            p->mixed_block = b;
            p->mixed_handle = h;
            p->mixed_owner = p->owner[b];
        }
    }
}

/* Persistent isolation: no program ever put a handle's data into another handle's reclaim
 * unit, and every valid page lies in a block of its handle. */
int ssdsim__page_fdp_check(const struct ssdsim__ftl *f, char *why, size_t len)
{
    const struct ssdsim__fdp *p = f->fdp;
    if (!p || !p->persistent)
        return 0;
    if (p->mixed) {
        if (why)
            snprintf(why, len,
                     "FDP: %llu programs put a handle's data in another handle's reclaim unit "
                     "(first: handle %u into block %u of handle %u)",
                     (unsigned long long)p->mixed, p->mixed_handle, p->mixed_block,
                     p->mixed_owner);
        return SSDSIM_ESTATE;
    }
    for (uint64_t ppn = 0; ppn < f->n_ppn; ppn++) {
        uint32_t lpn = p2l_get(f, ppn);
        if (lpn == NONE || lpn >= f->n_lpn)
            continue;
        uint32_t b = (uint32_t)(ppn / f->ppb);
        if (p->handle_of[lpn] != p->owner[b]) {
            if (why)
                snprintf(why, len,
                         "FDP: block %u, a reclaim unit of handle %u, holds logical unit %u of "
                         "handle %u",
                         b, p->owner[b], lpn, p->handle_of[lpn]);
            return SSDSIM_ESTATE;
        }
    }
    return 0;
}

/* The library's Reclaim Unit Handle Update on the FTL behind `env` (fdp_api.c): 0, or
 * SSDSIM_EINVAL with why where it is not modelled. */
int ssdsim__page_fdp_ruh_update_env(ssdsim_ftl_env *env, uint32_t placement, char *why,
                                    size_t len)
{
    struct ssdsim__ftl *f = env->ops == &ssdsim__ftl_page_ops ? env->state : NULL;
    if (!f || !f->fdp) {
        snprintf(why, len, "the drive's FTL has no placement handles");
        return SSDSIM_EINVAL;
    }
    if (f->sb || f->spp > 1) {
        snprintf(why, len, "ending reclaim units is not modelled %s",
                 f->sb ? "with RAIN superblocks (ftl.parity_group)"
                       : "with mapping units smaller than the page (ftl.mapping_unit)");
        return SSDSIM_EINVAL;
    }
    ssdsim__page_fdp_ruh_update(f, placement);
    return 0;
}
