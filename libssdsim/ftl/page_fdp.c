/* page_fdp.c: Flexible Data Placement in the page FTL (NVMe TP4146, model keys fdp.*). Each
 * placement handle (a reclaim unit handle) has its own host write frontier on every plane, so
 * the reclaim units it fills (here: the open block of that frontier on each plane, one erase
 * block) hold only its data: handle 0 writes to the host frontier, handle h > 0 to a frontier
 * of its own after the fixed ones (page.h; the arrays are sized at set-up, nothing is
 * allocated or searched per write). The device is one reclaim group. A write's handle comes
 * with it (ssdsim_ftl_env.placement, set by the device from the command's placement id, or by
 * the write buffer from the unit's); a write that waits (a stall, a read-modify-write) keeps
 * the frontier it was given.
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

#include <stdio.h>
#include <stdlib.h>

struct ssdsim__fdp {
    uint32_t handles;
    bool persistent;
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
    return p->handle_of && p->owner ? 0 : SSDSIM_ENOMEM;
}

void ssdsim__page_fdp_free(struct ssdsim__ftl *f)
{
    if (!f->fdp)
        return;
    free(f->fdp->handle_of);
    free(f->fdp->owner);
    free(f->fdp);
    f->fdp = NULL;
}

/* The host frontier of the environment's current placement handle. */
int ssdsim__page_fdp_host_frontier(const struct ssdsim__ftl *f)
{
    uint32_t h = f->env->placement < f->fdp->handles ? f->env->placement : 0;
    return ssdsim__fdp_host_fr(h);
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
    if (lpn >= f->n_lpn)
        return;
    uint32_t h;
    if (why == SSDSIM_FOR_HOST) {
        h = ssdsim__fdp_fr_handle(fr);
        if (h >= p->handles)
            h = 0; /* (a host program goes to a handle's frontier) */
        p->handle_of[lpn] = (uint8_t)h;
        ssdsim__env_count(f->env, SSDSIM__CNT_FDP_HOST + (int)h, 1);
    } else {
        h = p->handle_of[lpn];
    }
    ssdsim__env_count(f->env, SSDSIM__CNT_FDP_MEDIA + (int)h, 1);
    uint32_t b = ppn / f->ppb;
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
        uint32_t lpn = f->p2l[ppn];
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
