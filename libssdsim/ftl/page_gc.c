/* page_gc.c: garbage collection of the page FTL. Per plane, one victim at a time: the GC
 * policy names it (gc_start), its valid pages are read (reclaim) and programmed to the plane's GC
 * frontier as the reads return (gc_read_done), then it is erased (gc_erase) and what comes next
 * is decided (gc_erase_done: wear-leveling relocation, more foreground GC down to the high
 * watermark, or background GC while idle). GC reads and erases are submitted here; the copies'
 * programs through ssdsim__page_program (page_place.c). With RAIN parity, superblocks are
 * collected instead, whole (page_super.c): each entry point here hands over to it.
 *
 * Pacing. Without firmware time on GC copies, every copy read of a victim is submitted at once
 * (the flash alone sets GC's pace). When each copy costs the firmware time
 * (controller.fw_gc_page_us), a plane's GC reads its victim one valid page at a time: the next
 * read is issued when the firmware has processed the previous copy (its task ends on the
 * controller's cores, in turn with the host commands'), as a firmware loop that relocates a
 * block page by page does. So GC runs at the pace the firmware allows, and the firmware's GC
 * backlog is at most one copy per plane: a host command waits behind that backlog, not behind
 * every copy of every victim of the drive (which, booked at once, stalled host I/O for seconds
 * on a drive with 128 planes and one core while its flash ran ahead).
 */
#include "ftl/page_int.h"

#include <stdio.h>

static void gc_erase(struct ssdsim__ftl *f, uint32_t plane)
{
    struct ssdsim__plane *pl = &f->planes[plane];
    ssdsim__env_submit_ftl(f->env, SSDSIM_FLASH_ERASE, pl->victim, 0,
                           pl->reclaim == SSDSIM__RECLAIM_WL ? SSDSIM_FOR_WL : SSDSIM_FOR_GC,
                           cookie(TAG_GC_ERASE, 0, plane));
}

/* Every page of the victim is where it stays: erase it. */
static void gc_finish(struct ssdsim__ftl *f, uint32_t plane)
{
    struct ssdsim__plane *pl = &f->planes[plane];
    assert(f->valid[pl->victim] == 0);
    /* DFTL: the translation pages of the moved entries that are not cached are written back now
     * that the victim's pages are all where they stay (one write per page per victim, DFTL's
     * batch update after a block's relocation). */
    for (uint32_t i = 0; i < pl->n_gc_tps; i++)
        ssdsim__page_dftl_writeback(f, f->cmt.gc_tps[(size_t)plane * f->ppb + i]);
    pl->n_gc_tps = 0;
    gc_erase(f, plane);
}

/* How far ahead paced GC loads the mapping entries of the pages it will copy. */
#define GC_AHEAD 8

bool ssdsim__page_gc_read_next(struct ssdsim__ftl *f, uint32_t plane)
{
    struct ssdsim__plane *pl = &f->planes[plane];
    uint32_t b = pl->victim, first = b * f->ppb;
    while (pl->gc_scan < f->ppb && f->valid[b] > 0) {
        uint32_t i = pl->gc_scan++;
        uint32_t lpn = p2l_get(f, first + i);
        if (lpn == NONE)
            continue;
        pl->gc_reads++;
        if (lpn < f->n_map)
            __builtin_prefetch(&f->l2p[lpn], 1, 3); /* used when the read completes */
        /* and the entry of the page GC_AHEAD slots on, which a read GC_AHEAD copies from now
         * will need: copies follow each other closely when the firmware is fast, and at once
         * during fast-forward, so an entry loaded only now would arrive too late for its own */
        if (i + GC_AHEAD < f->ppb) {
            uint32_t ahead = p2l_get(f, first + i + GC_AHEAD);
            if (ahead < f->n_map)
                __builtin_prefetch(&f->l2p[ahead], 1, 3);
        }
        ssdsim__env_submit_ftl(f->env, SSDSIM_FLASH_READ, first + i,
                               ssdsim__page_gc_read_bytes(f),
                               pl->reclaim == SSDSIM__RECLAIM_WL ? SSDSIM_FOR_WL : SSDSIM_FOR_GC,
                               cookie(TAG_GC_READ, 0, first + i));
        return true;
    }
    pl->gc_scan = f->ppb;
    return false;
}

/* Paced GC: submit the read of the victim's next valid page (none in flight), or, when none is
 * left, its erase. */
static void gc_issue(struct ssdsim__ftl *f, uint32_t plane)
{
    struct ssdsim__plane *pl = &f->planes[plane];
    if (ssdsim__page_bg_yields(f, pl, pl->n_free)) {
        pl->gc_paused = 1;
        return;
    }
    if (!ssdsim__page_gc_read_next(f, plane))
        gc_finish(f, plane);
}

void ssdsim__page_gc_resume(struct ssdsim__ftl *f, uint32_t plane, bool fg)
{
    struct ssdsim__plane *pl = &f->planes[plane];
    if (!pl->gc_paused)
        return;
    pl->gc_paused = 0;
    if (fg)
        pl->reclaim = SSDSIM__RECLAIM_FG; /* foreground GC's now: it no longer yields */
    if (f->sb)
        ssdsim__page_sb_issue(f, plane);
    else
        gc_issue(f, plane);
}

/* Collect `b` (a candidate of `plane`): read its valid pages, which are programmed to the GC
 * frontier as the reads return, then erase it. */
static void reclaim(struct ssdsim__ftl *f, uint32_t plane, uint32_t b, enum ssdsim__reclaim why)
{
    struct ssdsim__plane *pl = &f->planes[plane];
    uint32_t valid = f->valid[b];
    ssdsim__cands_remove(&f->cands, b, valid);
    f->state[b] = SSDSIM__BLK_VICTIM;
    pl->victim = b;
    pl->reclaim = (uint8_t)why;
    if (pl->gc_starved) {
        pl->gc_starved = 0;
        f->n_starved--;
    }
    pl->gc_reads = 0;
    pl->gc_scan = 0;
    pl->gc_paused = 0;
    pl->serial = ++f->cmt.gc_serial ? f->cmt.gc_serial : ++f->cmt.gc_serial;
    /* units smaller than the page: the copies' partial page waits for the next copies instead
     * of being padded whenever the die runs empty between two of them (hw/unit.c) */
    ssdsim__unit_gc_keep(f->env->hw, plane, true);
    /* gc.throttle: each host unit the plane takes while this foreground victim is collected
     * owes the copies that free its room: v / (units per block - v) */
    pl->gc_ratio = f->throttle && why == SSDSIM__RECLAIM_FG && valid < f->ppb
                       ? (double)valid / (double)(f->ppb - valid)
                       : 0;
    if (why == SSDSIM__RECLAIM_FG) {
        ssdsim_ftl_count(f->env, SSDSIM_CNT_GC_VICTIMS, 1);
    } else if (why == SSDSIM__RECLAIM_BG) {
        pl->bg_victims++;
        ssdsim_ftl_count(f->env, SSDSIM_CNT_GC_BG_VICTIMS, 1);
    }
    if (f->gc_paced) {
        gc_issue(f, plane);
        return;
    }
    ssdsim_flash_purpose purpose = why == SSDSIM__RECLAIM_WL ? SSDSIM_FOR_WL : SSDSIM_FOR_GC;
    uint32_t first = b * f->ppb;
    /* the victim's slice of p2l is cold (the block was last written long ago): ask for all of
     * its lines at once rather than one miss after another as the scan reaches them */
    for (uint32_t i = 0; i < f->ppb; i += 64 / sizeof *f->p2l)
        __builtin_prefetch(&f->p2l[first + i], 0, 3);
    __builtin_prefetch(&f->p2l[first + f->ppb - 1], 0, 3); /* a slice may start mid-line */
    /* Fast-forward: the reads would be queued back to back and end one after another, each
     * copying its page when it is still valid (ssdsim__page_gc_read_done): they are queued as
     * one operation, which does the same (ssdsim__page_gc_batch_done). */
    bool batch = f->env->ff_direct != NULL;
    for (uint32_t i = 0; i < f->ppb && pl->gc_reads < valid; i++) {
        uint32_t lpn = p2l_get(f, first + i);
        if (lpn == NONE)
            continue;
        pl->gc_reads++;
        if (lpn < f->n_map)
            __builtin_prefetch(&f->l2p[lpn], 1, 3); /* used when the read completes */
        if (!batch)
            ssdsim__env_submit_ftl(f->env, SSDSIM_FLASH_READ, first + i,
                                   ssdsim__page_gc_read_bytes(f), purpose,
                                   cookie(TAG_GC_READ, 0, first + i));
    }
    pl->gc_scan = f->ppb;
    if (pl->gc_reads == 0)
        gc_erase(f, plane);
    else if (batch)
        ssdsim__env_ff_reads(f->env, pl->gc_reads, first, purpose, cookie(TAG_GC_BATCH, 0, plane));
}

void ssdsim__page_gc_batch_done(struct ssdsim__ftl *f, uint32_t plane)
{
    struct ssdsim__plane *pl = &f->planes[plane];
    /* The reads of pages overwritten since they were queued would only have counted themselves
     * done; the others copy their pages in page order (ssdsim__page_gc_copy_victim), and the last
     * read to end, after every copy, finishes the victim. */
    ssdsim__page_gc_copy_victim(f, plane);
    pl->gc_reads = 0;
    gc_finish(f, plane);
}

/* The paced engine event: the firmware has processed the plane's last copy. An event left
 * from before the plane's state was installed again (its time is not the one awaited) does
 * nothing. */
static void gc_issue_event(void *ctx, uint32_t plane)
{
    struct ssdsim__ftl *f = ctx;
    struct ssdsim__plane *pl = &f->planes[plane];
    if (pl->gc_wait_ns != ssdsim__engine_now(f->env->engine) || pl->victim == NONE)
        return;
    pl->gc_wait_ns = 0;
    if (f->sb)
        ssdsim__page_sb_issue(f, plane);
    else
        gc_issue(f, plane);
}

/* After a copy read of the paced GC returned (its copy, if any, booked on the firmware until
 * `fw_end`): issue the next read when the firmware is done with the copy. */
void ssdsim__page_gc_next(struct ssdsim__ftl *f, uint32_t plane, uint64_t fw_end)
{
    struct ssdsim__plane *pl = &f->planes[plane];
    uint64_t now = ssdsim__engine_now(f->env->engine);
    if (fw_end <= now) {
        if (f->sb)
            ssdsim__page_sb_issue(f, plane);
        else
            gc_issue(f, plane);
        return;
    }
    pl->gc_wait_ns = fw_end;
    if (ssdsim__engine_schedule(f->env->engine, fw_end, gc_issue_event, f, plane))
        ssdsim_ftl_fail(f->env, SSDSIM_ENOMEM, "out of memory for a GC event");
}

/* Foreground GC found nothing to collect on a plane below its low watermark: no candidate has
 * garbage yet. Nothing on the plane itself will start it again (its programs wait for the free
 * block it lacks, and a write that stalls for it may be the only one outstanding), so the plane
 * is marked, and the next page invalidated anywhere starts it once a candidate has garbage
 * (ssdsim__page_gc_kick_starved). Without it, a drive at low queue depth whose planes had all
 * run down this way stopped with its writes waiting, while overwrites had long given the planes
 * garbage. */
static void starve(struct ssdsim__ftl *f, uint32_t plane, enum ssdsim__reclaim why)
{
    struct ssdsim__plane *pl = &f->planes[plane];
    if (why != SSDSIM__RECLAIM_FG || pl->n_free >= f->gc_min || pl->gc_starved)
        return;
    pl->gc_starved = 1;
    f->n_starved++;
}

void ssdsim__page_gc_start(struct ssdsim__ftl *f, uint32_t plane, enum ssdsim__reclaim why)
{
    if (f->sb) { /* RAIN: superblocks are collected whole (page_super.c) */
        ssdsim__page_sb_gc_start(f, why);
        return;
    }
    if (f->planes[plane].victim != NONE) {
        /* one victim at a time per plane; a background one that yielded to the host goes on
         * when foreground GC is needed (gc.bg_preempt) */
        if (why == SSDSIM__RECLAIM_FG)
            ssdsim__page_gc_resume(f, plane, true);
        return;
    }
    if (f->df && ssdsim__diefail_plane_dead(f, plane))
        return; /* a failed die is never written again */
    /* an SLC cache: foreground GC folds the plane's full dynamic SLC blocks first
     * (page_slc.c) */
    if (why == SSDSIM__RECLAIM_FG && f->slc && ssdsim__page_slc_fold_fg(f, plane))
        return;
    uint32_t b = f->gc->select_victim(f->gc_state, ssdsim__page_view(f), plane);
    if (b == NONE) {
        starve(f, plane, why);
        return;
    }
    if (b >= f->geo->n_blocks || block_plane(f, b) != plane || f->state[b] != SSDSIM__BLK_CLOSED) {
        char msg[160];
        snprintf(msg, sizeof msg,
                 "GC policy '%s' chose block %u, which is not a candidate of plane %u", f->gc->name,
                 b, plane);
        ssdsim_ftl_fail(f->env, SSDSIM_ESTATE, msg);
        return;
    }
    if (f->valid[b] >= f->ppb) {
        /* The chosen block frees nothing, but collecting it moves the policy on (the next
         * FIFO tail, another random draw): policies are collected as chosen, which is what the
         * analytic models assume. Only when no candidate of the plane has garbage is there
         * nothing to do. */
        uint32_t g = ssdsim__cands_fewest_valid(&f->cands, plane);
        if (g == NONE || f->valid[g] >= f->ppb) {
            starve(f, plane, why);
            return;
        }
    }
    reclaim(f, plane, b, why);
}

void ssdsim__page_gc_kick_starved(struct ssdsim__ftl *f)
{
    for (uint32_t p = 0; p < f->n_planes && f->n_starved; p++) {
        struct ssdsim__plane *pl = &f->planes[p];
        if (!pl->gc_starved)
            continue;
        if (pl->n_free >= f->gc_min || pl->victim != NONE) {
            pl->gc_starved = 0; /* it has its blocks, or a collection, by now */
            f->n_starved--;
            continue;
        }
        uint32_t g = ssdsim__cands_fewest_valid(&f->cands, p);
        if (g != NONE && f->valid[g] < f->ppb)
            ssdsim__page_gc_start(f, p, SSDSIM__RECLAIM_FG); /* clears gc_starved */
    }
}

void ssdsim__page_gc_read_done(struct ssdsim__ftl *f, uint32_t old)
{
    if (f->sb) {
        ssdsim__page_sb_read_done(f, old);
        return;
    }
    uint32_t b = ssdsim__udiv_q(&f->div_ppb, old);
    uint32_t plane = block_plane(f, b);
    struct ssdsim__plane *pl = &f->planes[plane];
    uint32_t lpn = p2l_get(f, old);
    uint64_t fw_end = 0;
    if (lpn != NONE) {
        /* Still valid: write it to the GC frontier of the same plane. */
        bool wl = pl->reclaim == SSDSIM__RECLAIM_WL;
        fw_end = ssdsim__env_count_end(f->env, wl ? SSDSIM_CNT_WL_COPIES : SSDSIM_CNT_GC_COPIES, 1);
        ssdsim__page_gc_copy(f, plane, lpn, old);
    }
    --pl->gc_reads;
    if (pl->gc_scan < f->ppb) {
        ssdsim__page_gc_next(f, plane, fw_end); /* paced: the next page, or the erase */
        return;
    }
    (void)fw_end;
    if (pl->gc_reads == 0)
        gc_finish(f, plane);
}

/* Start the relocation wear leveling asked for on `plane`, if the plane is not busy. */
/* Should background GC start a victim on plane `pl` (the device being idle)? Below its high
 * watermark (gc.free_blocks_target, or gc.bg_high_watermark of the blocks when that is more),
 * within its budget of victims per idle period (gc.bg_max_blocks). */
static inline bool bg_wanted(const struct ssdsim__ftl *f, const struct ssdsim__plane *pl)
{
    return pl->n_free < f->bg_target && (!f->bg_max || pl->bg_victims < f->bg_max);
}

static bool wl_start(struct ssdsim__ftl *f, uint32_t plane)
{
    struct ssdsim__plane *pl = &f->planes[plane];
    uint32_t w = pl->wl_pending;
    if (w == NONE || pl->victim != NONE || (f->df && ssdsim__diefail_plane_dead(f, plane)))
        return false;
    pl->wl_pending = NONE;
    if (f->state[w] != SSDSIM__BLK_CLOSED || pl->n_free == 0)
        return false;
    reclaim(f, plane, w, SSDSIM__RECLAIM_WL);
    return true;
}

/* Start the read reclaim asked for on `plane`, if the plane is not busy. */
static bool rr_start(struct ssdsim__ftl *f, uint32_t plane)
{
    struct ssdsim__plane *pl = &f->planes[plane];
    uint32_t b = pl->rr_pending;
    if (b == NONE || pl->victim != NONE)
        return false;
    pl->rr_pending = NONE;
    if (f->state[b] != SSDSIM__BLK_CLOSED || pl->n_free == 0)
        return false;
    if (f->env->hw->rel)
        ssdsim__rel_reclaim_started(f->env->hw->rel);
    reclaim(f, plane, b, SSDSIM__RECLAIM_READ);
    return true;
}

/* rel's hook: move block b (a closed block) next on its plane; refused (nonzero) while the
 * plane already has a block waiting for read reclaim, or b holds no closed data. */
static int read_reclaim(void *state, uint32_t b)
{
    struct ssdsim__ftl *f = state;
    if (b >= f->geo->n_blocks || f->state[b] != SSDSIM__BLK_CLOSED)
        return SSDSIM_EINVAL;
    if (f->sb)
        return ssdsim__page_sb_read_reclaim(f, b);
    uint32_t plane = block_plane(f, b);
    struct ssdsim__plane *pl = &f->planes[plane];
    if (pl->rr_pending != NONE)
        return SSDSIM_EINVAL;
    pl->rr_pending = b;
    rr_start(f, plane);
    return 0;
}

void ssdsim__page_rel_hook(ssdsim_ftl_env *env)
{
    struct ssdsim__rel *r = env->hw->rel;
    if (!r || !ssdsim__page_runs(env))
        return;
    r->reclaim = read_reclaim;
    r->ftl_state = &env->state;
}

uint32_t ssdsim__page_block_erased(struct ssdsim__ftl *f, uint32_t b)
{
    if (f->fdp)
        ssdsim__page_fdp_erased(f, b);
    bool retired = ssdsim__page_retire(f, b);
    if (!retired)
        put_free_block(f, b);
    if (retired || !f->wl || !f->wl->after_erase)
        return NONE;
    uint32_t w = f->wl->after_erase(f->wl_state, ssdsim__page_view(f), b);
    if (w != NONE && w >= f->geo->n_blocks) {
        char msg[160];
        snprintf(msg, sizeof msg, "wear leveler '%s' asked to move block %u, which does not exist",
                 f->wl->name, w);
        ssdsim_ftl_fail(f->env, SSDSIM_ESTATE, msg);
        return NONE;
    }
    return w != NONE && f->state[w] == SSDSIM__BLK_CLOSED ? w : NONE;
}

void ssdsim__page_gc_erase_done(struct ssdsim__ftl *f, uint32_t plane)
{
    if (f->sb) {
        ssdsim__page_sb_erase_done(f, plane);
        return;
    }
    struct ssdsim__plane *pl = &f->planes[plane];
    uint32_t b = pl->victim;
    enum ssdsim__reclaim why = pl->reclaim;
    pl->victim = NONE;
    uint32_t w = ssdsim__page_block_erased(f, b);
    if (w != NONE) {
        uint32_t wp = block_plane(f, w);
        f->planes[wp].wl_pending = w;
        if (wp != plane)
            wl_start(f, wp);
    }
    if (!f->throttle)
        ssdsim__page_unstall(f);
    if (!wl_start(f, plane) && !rr_start(f, plane)) {
        /* Foreground GC goes on below the low watermark, and up to the high one once started;
         * background GC goes on up to the high watermark while the device stays idle. */
        if (pl->n_free < f->gc_min)
            ssdsim__page_gc_start(f, plane, SSDSIM__RECLAIM_FG);
        else if (pl->n_free < f->gc_target && why == SSDSIM__RECLAIM_FG)
            ssdsim__page_gc_start(f, plane, SSDSIM__RECLAIM_FG);
        else if (f->idle && bg_wanted(f, pl))
            ssdsim__page_gc_start(f, plane, SSDSIM__RECLAIM_BG);
    }
    if (pl->victim == NONE) /* the plane's collection has ended: its copies may be padded */
        ssdsim__unit_gc_keep(f->env->hw, plane, false);
    if (f->throttle) {
        /* gc.throttle: stalled host writes go on once the next victim (if any) is chosen, so
         * that the block just freed is shared with its copies; with no collection left to pay
         * it, the plane's debt is void */
        if (pl->victim == NONE)
            ssdsim__page_set_debt(f, plane, 0);
        ssdsim__page_unstall(f);
    }
}

bool ssdsim__page_gc_running(const ssdsim_ftl_env *env)
{
    if (!ssdsim__page_runs(env))
        return false;
    const struct ssdsim__ftl *f = env->state;
    for (uint32_t p = 0; p < f->n_planes; p++) {
        const struct ssdsim__plane *pl = &f->planes[p];
        if (pl->victim != NONE && !pl->gc_paused &&
            (pl->reclaim == SSDSIM__RECLAIM_FG || pl->reclaim == SSDSIM__RECLAIM_BG))
            return true;
    }
    return false;
}

void ssdsim__page_idle(void *state, int idle)
{
    struct ssdsim__ftl *f = state;
    f->idle = idle != 0;
    if (!f->idle)
        return;
    if (f->sb) {
        ssdsim__page_sb_idle(f);
        return;
    }
    for (uint32_t p = 0; p < f->n_planes; p++) {
        f->planes[p].bg_victims = 0; /* a new idle period, a new budget */
        ssdsim__page_gc_resume(f, p, false); /* a background victim that yielded */
        if (f->planes[p].victim == NONE && bg_wanted(f, &f->planes[p]))
            ssdsim__page_gc_start(f, p, SSDSIM__RECLAIM_BG);
    }
}
