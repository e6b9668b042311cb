/* page.c: the page-mapped FTL ("page") and DFTL ("dftl"): their plugin tables, the host's read,
 * write and trim entry points, the dispatch of completed flash operations, the inspection
 * methods, and set-up. The page FTL does mapping updates, write allocation over dies and planes
 * (page_place.c), garbage collection with a pluggable victim policy (foreground below a low
 * watermark, up to a high one; background when the device is idle) and pluggable wear leveling
 * (page_gc.c), TRIM, read-modify-write of partial units, optional hot/cold separation of host
 * writes; DFTL adds a cached mapping table (page_dftl.c). ftl/page_int.h lists the files.
 *
 * The mapping changes when a write is allocated, not when its program completes: a read that
 * arrives in between is served from the new location's die, which is where a controller with
 * the data still in its buffers would find it first. GC checks, when each copy's read returns,
 * that the page is still valid, so data overwritten meanwhile is not copied.
 *
 * Flash operations carry a 64-bit cookie (ftl/ftlutil.h): the top byte says what the operation
 * is for, the low 32 bits an index (request, page or plane), bits 32-55 a small value (bytes of
 * a read).
 */
#include "bigmem.h"
#include "ftl/page_int.h"
#include "ftl/reserve.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Is a plane of `die` collecting a foreground GC victim? */
static bool die_in_fg_gc(const struct ssdsim__ftl *f, uint32_t die)
{
    for (uint32_t p = die * f->ppd; p < (die + 1) * f->ppd; p++)
        if (f->planes[p].victim != NONE && f->planes[p].reclaim == SSDSIM__RECLAIM_FG)
            return true;
    return false;
}

int ssdsim__page_do_read(struct ssdsim__ftl *f, uint32_t io, uint32_t lpn, uint32_t bytes)
{
    uint32_t ppn = f->l2p[lpn];
    if (ppn != NONE && ssdsim__page_on_dead_die(f, ppn))
        return ssdsim__diefail_read(f, io, ppn, bytes);
    /* gc.fg_blocks_die: while the die collects a foreground victim, a host read waits behind
     * the GC reads, programs and erase queued on it, as on a die without read priority. */
    if (f->fg_blocks_die && ppn != NONE && die_in_fg_gc(f, ppn / f->ppb / f->bpp / f->ppd))
        return ssdsim__env_submit(f->env, SSDSIM_FLASH_READ, ppn, bytes, SSDSIM_FOR_HOST,
                                  cookie(TAG_HOST_READ, bytes, io), true);
    return ssdsim__ftl_host_read(f->env, ppn, io, bytes, cookie(TAG_HOST_READ, bytes, io));
}

/* page_read with DFTL: the translation page first. */
static SSDSIM__NOINLINE int read_dftl(struct ssdsim__ftl *f, uint32_t io, uint64_t lpn,
                                      uint32_t bytes)
{
    if (!ssdsim__page_dftl_ready(f, io, (uint32_t)lpn, bytes, false))
        return 0; /* continues when its translation page is read */
    return ssdsim__page_do_read(f, io, (uint32_t)lpn, bytes);
}

/* Without DFTL, a tail call that saves no register (DFTL's call inline saved four). */
static int page_read(void *state, uint32_t io, uint64_t lpn, uint32_t bytes)
{
    struct ssdsim__ftl *f = state;
    if (SSDSIM__UNLIKELY(f->dftl))
        return read_dftl(f, io, lpn, bytes);
    return ssdsim__page_do_read(f, io, (uint32_t)lpn, bytes);
}

/* ssdsim__page_do_write, inline in page_write. */
static inline int do_write(struct ssdsim__ftl *f, uint32_t io, uint32_t lpn, uint32_t bytes)
{
    uint32_t ppn = f->l2p[lpn];
    if (bytes < f->page_size && ppn != NONE) {
        /* The rest of the unit must be read before the whole unit is programmed again. With
         * FDP the write's handle (its frontier) goes with it: the placement the environment
         * holds then will be another write's. */
        struct ssdsim__pending w = {.io = io, .lpn = lpn};
        if (f->fdp) {
            w.fr = (uint8_t)ssdsim__page_fdp_host_frontier(f);
            w.group = (uint8_t)ssdsim__page_fdp_host_group(f);
        }
        uint32_t slot = ssdsim__pending_pool_add(&f->rmw, w);
        if (slot == NONE)
            return SSDSIM_ENOMEM;
        return ssdsim_ftl_submit(f->env, SSDSIM_FLASH_READ, ppn, f->page_size,
                                 SSDSIM_FOR_HOST_RMW, cookie(TAG_RMW_READ, 0, slot));
    }
    return ssdsim__page_host_program(f, io, lpn);
}

int ssdsim__page_do_write(struct ssdsim__ftl *f, uint32_t io, uint32_t lpn, uint32_t bytes)
{
    return do_write(f, io, lpn, bytes);
}

/* page_write with DFTL or of part of a mapped unit (a read first). */
static SSDSIM__NOINLINE int write_full(struct ssdsim__ftl *f, uint32_t io, uint64_t lpn,
                                       uint32_t bytes)
{
    if (f->dftl && !ssdsim__page_dftl_ready(f, io, (uint32_t)lpn, bytes, true))
        return 0;
    return do_write(f, io, (uint32_t)lpn, bytes);
}

/* A whole unit without DFTL is its program, a tail call: the other cases out of line, so that
 * this saves no register (it saved six, 18 of its 30 instructions per write). */
static int page_write(void *state, uint32_t io, uint64_t lpn, uint32_t bytes)
{
    struct ssdsim__ftl *f = state;
    if (SSDSIM__UNLIKELY(f->dftl || (bytes < f->page_size && f->l2p[lpn] != NONE)))
        return write_full(f, io, lpn, bytes);
    return ssdsim__page_host_program(f, io, (uint32_t)lpn);
}

static void page_trim(void *state, uint64_t lpn)
{
    struct ssdsim__ftl *f = state;
    uint32_t ppn = f->l2p[lpn];
    if (ppn != NONE) {
        invalidate(f, ppn);
        f->l2p[lpn] = NONE;
        if (f->dftl)
            ssdsim__page_dftl_mapped(f, (uint32_t)lpn, NONE);
        if (f->n_starved)
            ssdsim__page_gc_kick_starved(f);
    }
}

static void page_flash_done(void *state, uint64_t ck)
{
    struct ssdsim__ftl *f = state;
    uint32_t low = ssdsim__cookie_low(ck);
    switch ((enum op_tag)ssdsim__cookie_tag(ck)) {
    case TAG_HOST_READ:
    case TAG_HOST_PROG:
        ssdsim__ftl_host_done(f->env, ck);
        break;
    case TAG_RMW_READ: {
        struct ssdsim__pending w = ssdsim__pending_pool_take(&f->rmw, low);
        if (f->fdp)
            ssdsim__page_host_program_fr(f, w.io, w.lpn, w.fr, w.group);
        else
            ssdsim__page_host_program(f, w.io, w.lpn);
        break;
    }
    case TAG_GC_READ:
        ssdsim__page_gc_read_done(f, low);
        break;
    case TAG_GC_BATCH:
        ssdsim__page_gc_batch_done(f, low);
        break;
    case TAG_GC_PROG:
        break;
    case TAG_GC_ERASE:
        ssdsim__page_gc_erase_done(f, low);
        break;
    case TAG_MAP_READ:
        ssdsim__page_dftl_map_read_done(f, low, ssdsim__cookie_mid(ck) != 0);
        break;
    case TAG_MAP_PROG:
    case TAG_PARITY_PROG:
        break;
    case TAG_RECON_READ:
    case TAG_REBUILD_PROG:
        ssdsim__diefail_flash_done(f, (enum op_tag)ssdsim__cookie_tag(ck), low);
        break;
    case TAG_SLC_READ:
    case TAG_SLC_PROG:
    case TAG_SLC_ERASE:
        ssdsim__page_slc_done(f, (enum op_tag)ssdsim__cookie_tag(ck), low);
        break;
    default:
        ssdsim_ftl_fail(f->env, SSDSIM_ESTATE, "page FTL: unknown flash operation completed");
    }
}

static uint64_t page_free_blocks(void *state)
{
    return ((struct ssdsim__ftl *)state)->n_free_blocks;
}

static uint64_t page_plane_free_blocks(void *state, uint32_t plane)
{
    return ((struct ssdsim__ftl *)state)->planes[plane].n_free;
}

static uint32_t page_block_valid(void *state, uint64_t block)
{
    return ((struct ssdsim__ftl *)state)->valid[block];
}

static uint64_t page_mapped_units(void *state)
{
    return ((struct ssdsim__ftl *)state)->n_valid;
}

/* A request for `lpn` will reach the FTL soon: start loading its mapping entry. The l2p array
 * is far larger than the caches and random workloads miss on it every time. The page given last
 * time has had its entry loaded since: start loading the `live` word of its slot, whose bit its
 * overwrite clears (the bitmap mostly stays in the caches, but on large drives does not). The
 * write buffer's flush gives pages two ahead of the one it writes (dev/buffer.c), so that both
 * are in cache by then. */
static void page_prefetch(void *state, uint64_t lpn)
{
    struct ssdsim__ftl *f = state;
    /* The second stage reads the l2p entry an earlier hint loaded. A timed run that hints a
     * request as it is issued gives it to the FTL soon after, so the hint before is the one
     * whose entry has arrived and whose write is still to come; fast-forward, and the jobs of a
     * timed run that draw their requests ahead (env->hints_lead, host/host.h), hint requests
     * far ahead and close together, so there the entry of the hint before may still be on its
     * way, and the one SSDSIM__PF_HIST back has arrived. */
    uint32_t back = f->env->ff || f->env->hints_lead ? SSDSIM__PF_HIST : 1;
    uint64_t prev = f->pf_hist[(f->pf_n - back) % SSDSIM__PF_HIST];
    if (prev < f->n_lpn) {
        uint32_t ppn = f->l2p[prev];
        if (ppn != NONE) {
            /* and what the overwrite will change of the old page's block */
            uint32_t b = ssdsim__udiv_q(&f->div_ppb, ppn);
            __builtin_prefetch(&f->live[ppn >> 6], 1, 3);
            __builtin_prefetch(&f->valid[b], 1, 3);
            __builtin_prefetch(&f->modified_at[b], 1, 3);
            if (f->cands.b_next) {
                __builtin_prefetch(&f->cands.b_next[b], 1, 3);
                __builtin_prefetch(&f->cands.b_prev[b], 1, 3);
            }
        }
    }
    __builtin_prefetch(&f->l2p[lpn], 1, 3);
    /* a read's hint is kept with its top bit set, beyond n_lpn, so that its turn in the second
     * stage (above) loads nothing: a read changes neither its page's block nor its live bit */
    f->pf_hist[f->pf_n++ % SSDSIM__PF_HIST] = f->env->pf_read ? lpn | 1ULL << 63 : lpn;
}

static uint64_t page_lookup(void *state, uint64_t lpn)
{
    struct ssdsim__ftl *f = state;
    return lpn < f->n_lpn && f->l2p[lpn] != NONE ? f->l2p[lpn] : UINT64_MAX;
}

static int page_block_closed(void *state, uint64_t block, uint64_t *closed_order)
{
    struct ssdsim__ftl *f = state;
    if (block >= f->geo->n_blocks || f->state[block] != SSDSIM__BLK_CLOSED)
        return 0;
    if (closed_order)
        *closed_order = f->closed_at[block];
    return 1;
}

/* ---------------------------------------------------------------- set-up */

static void page_destroy(void *state)
{
    struct ssdsim__ftl *f = state;
    if (f->gc && f->gc->fini && f->gc_state)
        f->gc->fini(f->gc_state);
    if (f->wl && f->wl->fini && f->wl_state)
        f->wl->fini(f->wl_state);
    free(f->gc_state);
    free(f->wl_state);
    free(f->l2p);
    free(f->p2l);
    free(f->live);
    free(f->valid);
    free(f->state);
    free(f->free_next);
    free(f->free_prev);
    free(f->pair_next);
    free(f->pair_head);
    free(f->pair_tail);
    free(f->closed_at);
    free(f->modified_at);
    free(f->planes);
    free(f->die_plane_cursor);
    free(f->die_nodebt);
    free(f->stripe_nodebt);
    free(f->fr_mem);
    ssdsim__pending_fifo_fini(&f->stall);
    ssdsim__pending_pool_fini(&f->rmw);
    free(f->host_written_at);
    ssdsim__page_fdp_free(f);
    ssdsim__page_dftl_free(&f->cmt);
    ssdsim__cands_fini(&f->cands);
    ssdsim__page_slc_free(f);
    ssdsim__page_parity_free(f);
    ssdsim__page_sb_free(f);
    ssdsim__diefail_free(f);
}

/* Look up and start a GC or WL policy; its state is allocated here (zeroed). */
static int start_policy(struct ssdsim__ftl *f, ssdsim_plugin_kind kind, const char *name,
                        const double *params, char *errbuf, size_t errlen)
{
    const struct ssdsim__plugin_header *p = ssdsim__plugin_find(kind, name);
    if (!p) {
        snprintf(errbuf, errlen, "no %s named '%s' is registered", ssdsim__plugin_kind_name(kind),
                 name);
        return SSDSIM_ECONFIG;
    }
    void *st = calloc(1, p->state_size ? p->state_size : 1);
    if (!st)
        return SSDSIM_ENOMEM;
    char why[200] = "";
    int rc = 0;
    if (kind == SSDSIM_PLUGIN_GC) {
        f->gc = (const ssdsim_gc_ops *)p;
        f->gc_state = st;
        if (f->gc->init)
            rc = f->gc->init(st, ssdsim__page_view(f), params, why, sizeof why);
    } else {
        f->wl = (const ssdsim_wl_ops *)p;
        f->wl_state = st;
        if (f->wl->init)
            rc = f->wl->init(st, ssdsim__page_view(f), params, why, sizeof why);
    }
    if (rc) {
        snprintf(errbuf, errlen, "%s '%s': %s", ssdsim__plugin_kind_name(kind), name,
                 why[0] ? why : ssdsim_strerror(rc));
        return rc < 0 ? rc : SSDSIM_ECONFIG;
    }
    return 0;
}

static int page_setup(struct ssdsim__ftl *f, ssdsim_ftl_env *env, bool dftl,
                      uint32_t cmt_entries, char *errbuf, size_t errlen)
{
    const ssdsim_geometry *g = ssdsim_ftl_geometry(env);
    const ssdsim_ftl_policies *pol = ssdsim_ftl_policy_settings(env);
    f->env = env;
    f->geo = g;
    f->dftl = dftl;
    f->ppb = g->pages_per_block;
    ssdsim__udiv_init(&f->div_ppb, f->ppb);
    f->bpp = g->blocks_per_plane;
    ssdsim__udiv_init(&f->div_bpp, f->bpp);
    f->n_planes = g->n_planes;
    f->ppd = g->planes_per_die;
    f->n_dies = g->n_dies;
    f->page_size = g->page_size;
    f->gc_read_bytes = env->model->flash.copyback ? 0 : f->page_size;
    f->spp = env->hw->spp;
    f->n_ppn = g->n_pages;
    f->n_lpn = g->logical_pages;
    f->n_map = f->n_lpn;
    uint64_t extra_pages = 0;
    if (dftl) {
        uint64_t epp = f->page_size / 4;
        extra_pages = (f->n_lpn + epp - 1) / epp; /* translation pages */
        f->n_map += extra_pages;
    }
    /* Open blocks per plane, and the spare they and the GC reserve need (ftl/reserve.c). */
    const struct ssdsim__fdp_cfg *fdp = &env->model->fdp;
    uint32_t handles = dftl ? 0 : fdp->handles; /* (the model refuses FDP on DFTL) */
    struct ssdsim__page_reserve res;
    ssdsim__page_reserve(pol->free_blocks_min, pol->free_blocks_target, pol->hot_cold != 0,
                         pol->gc_separate != 0, dftl, handles,
                         fdp->isolation == SSDSIM__FDP_PERSISTENT,
                         env->model->ftl.parity_group > 1, &res);
    uint32_t open = res.open;
    /* RAIN parity (page_parity.c): one page in parity_group is parity, out of the spare. */
    uint32_t parity_group = env->model->ftl.parity_group;
    if (parity_group > 1)
        extra_pages += f->n_ppn / parity_group;
    /* Bad blocks (rel/badblock.c) are not there to spare. */
    struct ssdsim__fault *fault = env->fault;
    uint64_t good = fault ? ssdsim__fault_good_pages(fault) : f->n_ppn;
    uint64_t spare = good >= f->n_lpn + extra_pages
                         ? (good - f->n_lpn - extra_pages) / f->ppb / f->n_planes
                         : 0;
    uint32_t target = SSDSIM__MAX(pol->free_blocks_target, pol->free_blocks_min);
    if (fault) {
        fault->need_good_pages =
            f->n_lpn + extra_pages + (uint64_t)f->ppb * f->n_planes * ((uint64_t)target + open);
        fault->read_only = false; /* a secure erase: the bad blocks are as they were */
        if (spare < (uint64_t)target + open) {
            snprintf(errbuf, errlen,
                     "reliability.bad_fraction: the factory bad blocks leave %llu spare blocks "
                     "per plane; the GC watermark (%u) and %u open blocks need %u",
                     (unsigned long long)spare, target, open, target + open);
            return SSDSIM_ECONFIG;
        }
    }
    if (spare < (uint64_t)target + open) {
        snprintf(errbuf, errlen,
                 "over-provisioning (ftl.op) leaves %llu spare blocks per plane%s; the GC "
                 "watermark (%u) and %u open blocks need %u",
                 (unsigned long long)spare,
                 dftl               ? " after the translation pages"
                 : parity_group > 1 ? " after the parity pages"
                                    : "",
                 target, open, target + open);
        return SSDSIM_ECONFIG;
    }
    f->gc_min = pol->free_blocks_min;
    f->gc_target = SSDSIM__MAX(pol->free_blocks_target, pol->free_blocks_min);
    f->hot_cold = pol->hot_cold != 0;
    f->separate = pol->gc_separate != 0;
    f->gc_reserve = res.gc_reserve;
    /* GC must start while host writes can still be placed: below the reserve plus one. */
    if (f->gc_min < gc_reserve(f) + 1)
        ssdsim__log(SSDSIM_LOG_WARNING,
                    "gc.free_blocks_min %u raised to %u: the GC reserve (%u free blocks per plane) "
                    "plus one",
                    f->gc_min, gc_reserve(f) + 1, gc_reserve(f));
    f->gc_min = res.gc_min;
    f->gc_target = res.gc_target;
    /* Background GC's own high watermark (gc.bg_high_watermark), a fraction of the plane's
     * blocks; it must leave the open blocks room in the spare, as the GC watermark does. */
    f->bg_target = f->gc_target;
    const struct ssdsim__gc_cfg *gcm = &env->model->gc;
    f->bg_max = gcm->bg_max_blocks;
    if (gcm->bg_high_watermark > 0) {
        double want = gcm->bg_high_watermark * (double)f->bpp;
        uint32_t bg = (uint32_t)(want + 0.999999);
        if ((uint64_t)bg + open > spare) {
            snprintf(errbuf, errlen,
                     "gc.bg_high_watermark %g asks for %u free blocks per plane; the %llu spare "
                     "blocks per plane%s leave room for at most %llu with %u open blocks",
                     gcm->bg_high_watermark, bg, (unsigned long long)spare,
                     dftl ? " after the translation pages" : "",
                     (unsigned long long)(spare - open), open);
            return SSDSIM_ECONFIG;
        }
        if (bg > f->bg_target)
            f->bg_target = bg;
    }
    f->placement = env->model->ftl.placement;
    f->fg_blocks_die = gcm->fg_blocks_die != 0;
    f->throttle = gcm->throttle != 0;
    /* page_gc.c: GC copies cost firmware (or host FTL thread) time */
    f->gc_paced = ssdsim__model_gc_paced(env->model);
    f->bg_preempt = gcm->bg_preempt && f->gc_paced; /* the model refuses it unpaced */
    f->n_channels = g->channels;
    f->open = res.open - (dftl ? 1 : 0);
    f->hot_window_pages = (uint64_t)(pol->hot_window * (double)f->n_lpn);
    if (f->hot_window_pages > UINT32_MAX / 2)
        f->hot_window_pages = UINT32_MAX / 2; /* the 32-bit clock's horizon */
    ssdsim__pending_pool_init(&f->rmw);
    ssdsim__rng_seed(&f->policy_rng, (uint64_t)ssdsim_ftl_random(env), pol->gc_policy, 0);

    uint64_t nb = g->n_blocks;
    /* the arrays every write touches at random: on huge pages (bigmem.h) */
    f->l2p = ssdsim__big_alloc(sizeof *f->l2p * f->n_map);
    f->p2l = ssdsim__big_alloc(sizeof *f->p2l * f->n_ppn);
    f->live = ssdsim__big_alloc(sizeof *f->live * ((f->n_ppn + 63) / 64));
    for (int k = 0; k < SSDSIM__PF_HIST; k++)
        f->pf_hist[k] = UINT64_MAX;
    f->valid = calloc(nb, sizeof *f->valid);
    f->state = calloc(nb, sizeof *f->state);
    f->free_next = malloc(sizeof *f->free_next * nb);
    f->closed_at = calloc(nb, sizeof *f->closed_at);
    f->modified_at = calloc(nb, sizeof *f->modified_at);
    f->planes = calloc(f->n_planes, sizeof *f->planes);
    f->die_plane_cursor = calloc(f->n_dies, sizeof *f->die_plane_cursor);
    if (f->throttle && f->placement == SSDSIM__PLACE_STRIPE && f->spp == 1 &&
        f->ppd <= UINT16_MAX) {
        /* no plane owes GC copies yet: every die marked (page_place.c; with units smaller than
         * the page, a plane that owes may still finish a page begun, so the walk stays whole) */
        f->die_nodebt = malloc(sizeof *f->die_nodebt * f->n_dies);
        f->stripe_nodebt = calloc((f->n_dies + 63) / 64, sizeof *f->stripe_nodebt);
        if (!f->die_nodebt || !f->stripe_nodebt)
            return SSDSIM_ENOMEM;
        for (uint32_t d = 0; d < f->n_dies; d++) {
            f->die_nodebt[d] = (uint16_t)f->ppd;
            f->stripe_nodebt[d >> 6] |= 1ULL << (d & 63);
        }
    }
    /* every plane's frontiers (FDP: two more per placement handle beyond the first, page.h),
     * and the plane each frontier last wrote */
    f->n_fr = SSDSIM__N_FRONTIERS + (handles ? 2 * (handles - 1) : 0);
    f->fr_mem = calloc((size_t)f->n_fr * (2 * (size_t)f->n_planes + 1), sizeof *f->fr_mem);
    if (!f->l2p || !f->p2l || !f->live || !f->valid || !f->state || !f->free_next ||
        !f->closed_at || !f->modified_at || !f->planes || !f->die_plane_cursor || !f->fr_mem ||
        ssdsim__cands_init(&f->cands, f->n_planes, f->bpp, f->ppb))
        return SSDSIM_ENOMEM;
    memset(f->l2p, 0xff, sizeof *f->l2p * f->n_map);
    memset(f->p2l, 0xff, sizeof *f->p2l * f->n_ppn);
    memset(f->live, 0, sizeof *f->live * ((f->n_ppn + 63) / 64));
    /* The per-block arrays made resident now, not as blocks are first used, so the memory of
     * a run is flat from its start (memest.h counts them). */
    memset(f->valid, 0, sizeof *f->valid * nb);
    memset(f->state, 0, sizeof *f->state * nb);
    memset(f->closed_at, 0, sizeof *f->closed_at * nb);
    memset(f->modified_at, 0, sizeof *f->modified_at * nb);

    /* Secure-erased: every block free, in address order on its plane's free list. */
    for (uint32_t p = 0; p < f->n_planes; p++) {
        struct ssdsim__plane *pl = &f->planes[p];
        uint32_t first = p * f->bpp;
        for (uint32_t b = 0; b < f->bpp; b++)
            f->free_next[first + b] = b + 1 < f->bpp ? first + b + 1 : NONE;
        pl->free_head = first;
        pl->free_tail = first + f->bpp - 1;
        pl->n_free = f->bpp;
        pl->blk = f->fr_mem + (size_t)p * 2 * f->n_fr;
        pl->ptr = pl->blk + f->n_fr;
        for (uint32_t fr = 0; fr < f->n_fr; fr++) {
            pl->blk[fr] = NONE;
            pl->ptr[fr] = f->ppb;
        }
        pl->victim = pl->wl_pending = pl->rr_pending = NONE;
    }
    f->unit_plane = f->fr_mem + (size_t)f->n_planes * 2 * f->n_fr;
    f->n_free_blocks = nb;
    if (fault) {
        /* Bad blocks are left out of the free lists, for good. */
        for (uint32_t p = 0; p < f->n_planes; p++) {
            struct ssdsim__plane *pl = &f->planes[p];
            pl->free_head = pl->free_tail = NONE;
            pl->n_free = 0;
        }
        f->n_free_blocks = 0;
        for (uint64_t b = 0; b < nb; b++) {
            if (ssdsim__fault_is_bad(fault, b))
                f->state[b] = SSDSIM__BLK_BAD;
            else
                put_free_block(f, (uint32_t)b);
        }
    }

    if (dftl && ssdsim__page_dftl_setup(f, cmt_entries))
        return SSDSIM_ENOMEM;
    if (parity_group > 1 &&
        (ssdsim__page_parity_setup(f, parity_group) || ssdsim__page_sb_setup(f)))
        return SSDSIM_ENOMEM;
    if (handles && ssdsim__page_fdp_setup(f))
        return SSDSIM_ENOMEM;
    if (f->hot_cold && !f->fdp &&
        !(f->host_written_at = calloc(f->n_lpn, sizeof *f->host_written_at)))
        return SSDSIM_ENOMEM;
    int rc = start_policy(f, SSDSIM_PLUGIN_GC, pol->gc_policy, pol->gc_params, errbuf, errlen);
    if (rc == 0)
        rc = start_policy(f, SSDSIM_PLUGIN_WL, pol->wl_policy, pol->wl_params, errbuf, errlen);
    if (rc == 0 && ssdsim__slc_on(&env->model->slc))
        rc = ssdsim__page_slc_setup(f, errbuf, errlen);
    /* Multi-plane operations only on the same block of each plane: the planes of a die open
     * blocks of one index where they can (page_place.c), which takes a free block by its index:
     * the free lists are linked both ways. RAIN's superblocks are such pairs already. */
    if (rc == 0 && env->model->flash.multiplane && env->model->flash.multiplane_same_block &&
        f->ppd > 1 && !f->sb) {
        uint64_t n_idx = (uint64_t)f->n_dies * f->bpp;
        f->free_prev = malloc(sizeof *f->free_prev * nb);
        f->pair_next = malloc(sizeof *f->pair_next * n_idx);
        f->pair_head = malloc(sizeof *f->pair_head * f->n_dies);
        f->pair_tail = malloc(sizeof *f->pair_tail * f->n_dies);
        if (!f->free_prev || !f->pair_next || !f->pair_head || !f->pair_tail)
            return SSDSIM_ENOMEM;
        for (uint32_t p = 0; p < f->n_planes; p++)
            for (uint32_t b = f->planes[p].free_head, prev = NONE; b != NONE;
                 prev = b, b = f->free_next[b])
                f->free_prev[b] = prev;
        for (uint64_t x = 0; x < n_idx; x++)
            f->pair_next[x] = SSDSIM__PAIR_OFF;
        for (uint32_t d = 0; d < f->n_dies; d++)
            f->pair_head[d] = f->pair_tail[d] = NONE;
        for (uint32_t p = 0; p < f->n_planes; p += f->ppd)
            for (uint32_t i = 0; i < f->bpp; i++)
                ssdsim__page_pair_freed(f, p * f->bpp + i);
    }
    f->plain = !f->dftl && !f->slc && !f->fdp && !f->sb && !f->parity && !f->hot_cold &&
               !f->throttle && f->spp == 1 && f->placement == SSDSIM__PLACE_IDLE;
    return rc;
}

static int page_create(void *state, ssdsim_ftl_env *env, const double *params, char *errbuf,
                       size_t errlen)
{
    return page_setup(state, env, false, 0, errbuf, errlen);
}

static int dftl_create(void *state, ssdsim_ftl_env *env, const double *params, char *errbuf,
                       size_t errlen)
{
    return page_setup(state, env, true, (uint32_t)params[0], errbuf, errlen);
}

uint64_t ssdsim__page_view_random(const struct ssdsim__ftl *f);
uint64_t ssdsim__page_view_random(const struct ssdsim__ftl *f)
{
    return ssdsim__rng_next((struct ssdsim__rng *)&f->policy_rng);
}

/* ---------------------------------------------------------------- inspection */

/* The page FTL and DFTL are one implementation: their tables differ in name, parameters and
 * set-up only. */
#define PAGE_METHODS                                                                               \
    .destroy = page_destroy, .read = page_read, .write = page_write, .trim = page_trim,           \
    .flash_done = page_flash_done, .idle = ssdsim__page_idle,                                      \
    .free_blocks = page_free_blocks, .lookup = page_lookup, .prefetch = page_prefetch,             \
    .plane_free_blocks = page_plane_free_blocks, .block_valid = page_block_valid,                  \
    .block_closed = page_block_closed, .check = ssdsim__page_check_method,                        \
    .mapped_units = page_mapped_units,

const ssdsim_ftl_ops ssdsim__ftl_page_ops = {
    .abi_version = SSDSIM_PLUGIN_ABI_VERSION,
    .struct_size = sizeof(ssdsim_ftl_ops),
    .name = "page",
    .summary = "page-level mapping in DRAM (flat arrays); GC and wear leveling by policy",
    .state_size = sizeof(struct ssdsim__ftl),
    .params = NULL,
    .create = page_create,
    PAGE_METHODS
    /* DFTL would have to place the translation pages and decide what its CMT holds: fast
     * preconditioning is the page FTL's only (ssdsim_precondition_fast says ENOTFOUND). */
    .install = ssdsim__page_install,
};

static const ssdsim_param dftl_params[] = {
    {"cmt_entries", SSDSIM_PARAM_INT, 16384, 16, 1e9,
     "mapping entries cached in DRAM (the CMT), least recently used evicted"},
    {NULL, 0, 0, 0, 0, NULL},
};

const ssdsim_ftl_ops ssdsim__ftl_dftl_ops = {
    .abi_version = SSDSIM_PLUGIN_ABI_VERSION,
    .struct_size = sizeof(ssdsim_ftl_ops),
    .name = "dftl",
    .summary = "page mapping demand-loaded from translation pages in flash, with a cached "
               "mapping table (DFTL)",
    .state_size = sizeof(struct ssdsim__ftl),
    .params = dftl_params,
    .create = dftl_create,
    PAGE_METHODS
};

bool ssdsim__page_runs(const ssdsim_ftl_env *env)
{
    return env->ops == &ssdsim__ftl_page_ops || env->ops == &ssdsim__ftl_dftl_ops;
}
