/* page.c: the page-mapped FTL ("page"): mapping updates, write allocation over dies and planes,
 * garbage collection with a pluggable victim policy (foreground below a low watermark, up to a
 * high one; background when the device is idle), pluggable wear leveling, TRIM, read-modify-write
 * of partial units, optional hot/cold separation of host writes.
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
#include "ftl/page.h"
#include "ftl/reserve.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NONE SSDSIM__NONE32

enum op_tag {
    TAG_HOST_READ = SSDSIM__PTAG_HOST_READ,
    TAG_HOST_PROG = SSDSIM__PTAG_HOST_PROG,
    TAG_RMW_READ = SSDSIM__PTAG_RMW_READ,
    TAG_GC_READ = SSDSIM__PTAG_GC_READ,
    TAG_GC_PROG = SSDSIM__PTAG_GC_PROG,
    TAG_GC_ERASE = SSDSIM__PTAG_GC_ERASE,
    TAG_MAP_READ = SSDSIM__PTAG_MAP_READ,
    TAG_MAP_PROG = SSDSIM__PTAG_MAP_PROG,
};

static inline uint64_t cookie(enum op_tag tag, uint32_t mid, uint32_t low)
{
    return ssdsim__cookie(tag, mid, low);
}

static void gc_start(struct ssdsim__ftl *f, uint32_t plane, enum ssdsim__reclaim why);
static bool dftl_ready(struct ssdsim__ftl *f, uint32_t io, uint32_t lpn, uint32_t bytes,
                       bool write);
static void dftl_mapped(struct ssdsim__ftl *f, uint32_t lpn, uint32_t gc_plane);
static void dftl_writeback(struct ssdsim__ftl *f, uint32_t t);
static void dftl_map_read_done(struct ssdsim__ftl *f, uint32_t t, bool writeback);
static void dftl_map_prog(struct ssdsim__ftl *f, uint32_t t, uint32_t plane);

/* ---------------------------------------------------------------- blocks and mapping */

static inline uint32_t block_plane(const struct ssdsim__ftl *f, uint32_t b)
{
    return b / f->bpp;
}

static uint32_t take_free_block(struct ssdsim__ftl *f, uint32_t plane)
{
    struct ssdsim__plane *pl = &f->planes[plane];
    uint32_t b = NONE;
    if (f->wl && f->wl->pick_free) {
        b = f->wl->pick_free(f->wl_state, ssdsim__page_view(f), plane);
        if (b != NONE && (b >= f->geo->n_blocks || b / f->bpp != plane ||
                          f->state[b] != SSDSIM__BLK_FREE)) {
            char msg[160];
            snprintf(msg, sizeof msg,
                     "wear leveler '%s' picked block %u, which is not a free block of plane %u",
                     f->wl->name, b, plane);
            ssdsim_ftl_fail(f->env, SSDSIM_ESTATE, msg);
            b = NONE; /* go on with the default until the run stops */
        }
    }
    if (b == NONE)
        b = pl->free_head;
    assert(b != NONE);
    /* unlink b from the singly linked free list (the head in the common case) */
    if (b == pl->free_head) {
        pl->free_head = f->free_next[b];
        if (pl->free_head == NONE)
            pl->free_tail = NONE;
    } else {
        uint32_t p = pl->free_head;
        while (f->free_next[p] != b)
            p = f->free_next[p];
        f->free_next[p] = f->free_next[b];
        if (pl->free_tail == b)
            pl->free_tail = p;
    }
    pl->n_free--;
    f->n_free_blocks--;
    f->state[b] = SSDSIM__BLK_OPEN;
    return b;
}

static void put_free_block(struct ssdsim__ftl *f, uint32_t b)
{
    struct ssdsim__plane *pl = &f->planes[block_plane(f, b)];
    f->free_next[b] = NONE;
    if (pl->free_tail == NONE)
        pl->free_head = b;
    else
        f->free_next[pl->free_tail] = b;
    pl->free_tail = b;
    pl->n_free++;
    f->n_free_blocks++;
    f->state[b] = SSDSIM__BLK_FREE;
}

/* A frontier block got its last page: it becomes a GC candidate. */
static void close_block(struct ssdsim__ftl *f, uint32_t b)
{
    f->state[b] = SSDSIM__BLK_CLOSED;
    f->closed_at[b] = f->modified_at[b] = f->env->programs_total;
    ssdsim__cands_insert(&f->cands, b, f->valid[b]);
}

static void invalidate(struct ssdsim__ftl *f, uint32_t ppn)
{
    uint32_t b = ppn / f->ppb;
    f->p2l[ppn] = NONE;
    f->valid[b]--;
    if (f->state[b] == SSDSIM__BLK_CLOSED) {
        f->modified_at[b] = f->env->programs_total;
        ssdsim__cands_dec(&f->cands, b, f->valid[b]);
    }
}

/* Map lpn to ppn. `old` is the current location when the caller knows it (a GC copy, checked
 * through p2l), which spares a load from l2p: that array is far larger than the caches, and the
 * load was the single most expensive instruction of a GC copy. NONE means "look it up". */
static void map(struct ssdsim__ftl *f, uint32_t lpn, uint32_t ppn, uint32_t old)
{
    if (old == NONE)
        old = f->l2p[lpn];
    if (old != NONE)
        invalidate(f, old);
    f->l2p[lpn] = ppn;
    f->p2l[ppn] = lpn;
    f->valid[ppn / f->ppb]++;
}

/* Stall entries whose io is NONE are translation-page writes (DFTL), not host writes. */
#define STALL_MAP NONE

/* Free blocks a plane keeps back for GC: one per frontier GC copies may open (with hot/cold
 * separation, copies go to two). */
static inline uint32_t gc_reserve(const struct ssdsim__ftl *f)
{
    return f->gc_reserve;
}

/* Does GC copy into frontier `fr` (which host writes then share)? */
static inline bool gc_writes_to(const struct ssdsim__ftl *f, int fr)
{
    return !f->separate && (fr == SSDSIM__FR_HOST || (f->hot_cold && fr == SSDSIM__FR_HOT));
}

/* Can `plane` take a host page in frontier `fr` now? Not into the last reserved blocks; and,
 * while the plane collects a victim and is down to its reserve, not into a frontier GC shares
 * (gc.separate off): the room left there belongs to the copies.
 *
 * Why GC can then always finish its victim: a victim starts with at least one free block (host
 * writes never take the reserve, and an erase has just freed one), it holds less than a block of
 * valid data, and nothing else writes where its copies go, so the copies fit in the room of the
 * GC frontiers plus one block (frontier_page spills between GC frontiers when the free blocks
 * are gone). */
static inline bool plane_accepts(const struct ssdsim__ftl *f, uint32_t plane, int fr)
{
    const struct ssdsim__plane *pl = &f->planes[plane];
    if (pl->n_free > gc_reserve(f))
        return true;
    if (pl->victim != NONE && gc_writes_to(f, fr))
        return false;
    return pl->ptr[fr] < f->ppb;
}

/* Take the next page of a plane's frontier, opening a free block when it is full. With no free
 * block left (GC copying into two frontiers can need two blocks for one victim), the page goes
 * to another open frontier of the plane that has room, GC frontiers first. */
static uint32_t frontier_page(struct ssdsim__ftl *f, uint32_t plane, int fr)
{
    struct ssdsim__plane *pl = &f->planes[plane];
    if (pl->ptr[fr] >= f->ppb && pl->n_free == 0) {
        static const int order[] = {SSDSIM__FR_GC, SSDSIM__FR_GC_HOT, SSDSIM__FR_HOST,
                                    SSDSIM__FR_HOT, SSDSIM__FR_MAP};
        for (size_t i = 0; i < SSDSIM__ARRAY_LEN(order); i++) {
            if (pl->ptr[order[i]] < f->ppb) {
                fr = order[i];
                break;
            }
        }
    }
    if (pl->ptr[fr] >= f->ppb) {
        pl->blk[fr] = take_free_block(f, plane);
        pl->ptr[fr] = 0;
    }
    return pl->blk[fr] * f->ppb + pl->ptr[fr]++;
}

static uint32_t try_die(struct ssdsim__ftl *f, uint32_t die, int fr)
{
    uint32_t ppd = f->ppd;
    for (uint32_t j = 0; j < ppd; j++) {
        uint32_t p = die * ppd + (f->die_plane_cursor[die] + j) % ppd;
        if (plane_accepts(f, p, fr)) {
            f->die_plane_cursor[die] = (p % ppd + 1) % ppd;
            f->die_cursor = (die + 1) % f->n_dies;
            return p;
        }
    }
    return NONE;
}

/* Choose a plane for a host page: an idle die first (in turn from the cursor), else the next
 * die in turn that has a plane with room; planes of a die in turn. NONE when no plane can take
 * it now. Finding idle dies is a bitmap scan, not a walk over all dies. */
static uint32_t choose_plane(struct ssdsim__ftl *f, int fr)
{
    struct ssdsim__hw *hw = f->env->hw;
    uint32_t n = f->n_dies, start = f->die_cursor;
    uint32_t d = ssdsim__hw_next_idle_die(hw, start);
    uint32_t dist = d == NONE ? 0 : (d + n - start) % n;
    while (d != NONE) {
        uint32_t p = try_die(f, d, fr);
        if (p != NONE)
            return p;
        uint32_t nd = ssdsim__hw_next_idle_die(hw, (d + 1) % n);
        uint32_t ndist = nd == NONE ? 0 : (nd + n - start) % n;
        if (nd == NONE || ndist <= dist)
            break; /* wrapped around */
        d = nd;
        dist = ndist;
    }
    for (uint32_t k = 0; k < n; k++) {
        uint32_t p = try_die(f, (start + k) % n, fr);
        if (p != NONE)
            return p;
    }
    return NONE;
}

/* Allocate a page in frontier `fr` of `plane` for `lpn` (whose valid copy is `old`, or NONE
 * to look it up), map it, and submit the program. */
static void program(struct ssdsim__ftl *f, uint32_t plane, int fr, uint32_t lpn, uint32_t old,
                    ssdsim_flash_purpose why, uint64_t ck)
{
    uint32_t ppn = frontier_page(f, plane, fr);
    map(f, lpn, ppn, old);
    /* Close the block only after its last page is mapped, so it enters the bucket of its
     * true valid count. */
    if (ppn % f->ppb == f->ppb - 1)
        close_block(f, ppn / f->ppb);
    ssdsim_ftl_submit(f->env, SSDSIM_FLASH_PROGRAM, ppn, f->page_size, why, ck);
    struct ssdsim__plane *pl = &f->planes[plane];
    if (pl->n_free < f->gc_min && pl->victim == NONE)
        gc_start(f, plane, SSDSIM__RECLAIM_FG);
}

/* Hot/cold separation: a host write is hot when the host last wrote the same logical page less
 * than hot_window_pages host writes ago. The time of the last host write is kept per page (the
 * time a page's block was closed would not do: GC copies close blocks too, and cold data that
 * GC just moved would look hot). The clock is 32 bits and compared modulo 2^32. */
static int host_frontier(struct ssdsim__ftl *f, uint32_t lpn)
{
    if (!f->hot_cold || lpn >= f->n_lpn)
        return SSDSIM__FR_HOST;
    uint32_t now = (uint32_t)f->env->n.c[SSDSIM_CNT_HOST_PAGES];
    uint32_t last = f->host_written_at[lpn];
    f->host_written_at[lpn] = now | 1; /* 0 means "never written" */
    if (last == 0)
        return SSDSIM__FR_HOST;
    return (uint32_t)(now - last) < f->hot_window_pages ? SSDSIM__FR_HOT : SSDSIM__FR_HOST;
}

/* Where a GC copy goes: with hot/cold separation, among data of its own class (hot data that
 * survived its block to a hot GC frontier), so that GC does not mix the classes again; to the
 * GC frontiers, or with the host's writes when gc.separate is off. */
static int gc_frontier(const struct ssdsim__ftl *f, uint32_t lpn)
{
    bool hot = false;
    if (f->hot_cold && lpn < f->n_lpn && f->host_written_at[lpn] != 0) {
        uint32_t now = (uint32_t)f->env->n.c[SSDSIM_CNT_HOST_PAGES];
        hot = (uint32_t)(now - f->host_written_at[lpn]) < f->hot_window_pages;
    }
    if (f->separate)
        return hot ? SSDSIM__FR_GC_HOT : SSDSIM__FR_GC;
    return hot ? SSDSIM__FR_HOT : SSDSIM__FR_HOST;
}

static bool stall_push(struct ssdsim__ftl *f, uint32_t io, uint32_t lpn, uint8_t fr)
{
    struct ssdsim__pending w = {.io = io, .lpn = lpn, .fr = fr, .since = ssdsim_ftl_now(f->env)};
    return ssdsim__pending_fifo_push(&f->stall, w, 256);
}

/* Place a host program, or park it until GC frees a block. */
static int host_program(struct ssdsim__ftl *f, uint32_t io, uint32_t lpn)
{
    int fr = host_frontier(f, lpn);
    uint32_t plane = f->stall.n ? NONE : choose_plane(f, fr);
    /* (a stalled translation write keeps host writes behind it: order is kept) */
    if (plane == NONE) {
        if (!stall_push(f, io, lpn, (uint8_t)fr)) {
            ssdsim_ftl_fail(f->env, SSDSIM_ENOMEM, "out of memory queueing writes");
            return SSDSIM_ENOMEM;
        }
        return 0;
    }
    ssdsim_ftl_count(f->env, SSDSIM_CNT_HOST_PAGES, 1);
    program(f, plane, fr, lpn, NONE, SSDSIM_FOR_HOST, cookie(TAG_HOST_PROG, 0, io));
    if (f->dftl)
        dftl_mapped(f, lpn, NONE);
    return 0;
}

static void unstall(struct ssdsim__ftl *f)
{
    while (f->stall.n) {
        struct ssdsim__pending w = ssdsim__pending_fifo_front(&f->stall);
        /* the class was decided when the write arrived: a stalled hot write stays hot */
        int fr = w.io == STALL_MAP ? SSDSIM__FR_MAP : w.fr;
        uint32_t plane = choose_plane(f, fr);
        if (plane == NONE)
            return;
        ssdsim__pending_fifo_pop(&f->stall);
        if (w.io == STALL_MAP) {
            dftl_map_prog(f, w.lpn, plane);
            continue;
        }
        ssdsim_ftl_unit_waited(f->env, w.io, ssdsim_ftl_now(f->env) - w.since);
        ssdsim_ftl_count(f->env, SSDSIM_CNT_HOST_PAGES, 1);
        program(f, plane, fr, w.lpn, NONE, SSDSIM_FOR_HOST, cookie(TAG_HOST_PROG, 0, w.io));
        if (f->dftl)
            dftl_mapped(f, w.lpn, NONE);
    }
}

static int do_read(struct ssdsim__ftl *f, uint32_t io, uint32_t lpn, uint32_t bytes)
{
    return ssdsim__ftl_host_read(f->env, f->l2p[lpn], io, bytes, cookie(TAG_HOST_READ, bytes, io));
}

static int page_read(void *state, uint32_t io, uint64_t lpn, uint32_t bytes)
{
    struct ssdsim__ftl *f = state;
    if (f->dftl && !dftl_ready(f, io, (uint32_t)lpn, bytes, false))
        return 0; /* continues when its translation page is read */
    return do_read(f, io, (uint32_t)lpn, bytes);
}

static int do_write(struct ssdsim__ftl *f, uint32_t io, uint32_t lpn, uint32_t bytes)
{
    uint32_t ppn = f->l2p[lpn];
    if (bytes < f->page_size && ppn != NONE) {
        /* The rest of the unit must be read before the whole unit is programmed again. */
        uint32_t slot =
            ssdsim__pending_pool_add(&f->rmw, (struct ssdsim__pending){.io = io, .lpn = lpn});
        if (slot == NONE)
            return SSDSIM_ENOMEM;
        return ssdsim_ftl_submit(f->env, SSDSIM_FLASH_READ, ppn, f->page_size,
                                 SSDSIM_FOR_HOST_RMW, cookie(TAG_RMW_READ, 0, slot));
    }
    return host_program(f, io, lpn);
}

static int page_write(void *state, uint32_t io, uint64_t lpn, uint32_t bytes)
{
    struct ssdsim__ftl *f = state;
    if (f->dftl && !dftl_ready(f, io, (uint32_t)lpn, bytes, true))
        return 0;
    return do_write(f, io, (uint32_t)lpn, bytes);
}

static void page_trim(void *state, uint64_t lpn)
{
    struct ssdsim__ftl *f = state;
    uint32_t ppn = f->l2p[lpn];
    if (ppn != NONE) {
        invalidate(f, ppn);
        f->l2p[lpn] = NONE;
        if (f->dftl)
            dftl_mapped(f, (uint32_t)lpn, NONE);
    }
}

/* ---------------------------------------------------------------- garbage collection */

static void gc_erase(struct ssdsim__ftl *f, uint32_t plane)
{
    struct ssdsim__plane *pl = &f->planes[plane];
    ssdsim_ftl_submit(f->env, SSDSIM_FLASH_ERASE, pl->victim,
                      0, pl->reclaim == SSDSIM__RECLAIM_WL ? SSDSIM_FOR_WL : SSDSIM_FOR_GC,
                      cookie(TAG_GC_ERASE, 0, plane));
}

/* Bytes a GC read moves to the controller: none with copyback (flash.copyback), where the page
 * waits in its plane's register for the copy's program (hw/hw.c), else the page. */
static uint32_t gc_read_bytes(const struct ssdsim__ftl *f)
{
    return f->env->model->flash.copyback ? 0 : f->page_size;
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
    pl->gc_reads = 0;
    pl->serial = ++f->cmt.gc_serial ? f->cmt.gc_serial : ++f->cmt.gc_serial;
    if (why == SSDSIM__RECLAIM_FG)
        ssdsim_ftl_count(f->env, SSDSIM_CNT_GC_VICTIMS, 1);
    else if (why == SSDSIM__RECLAIM_BG)
        ssdsim_ftl_count(f->env, SSDSIM_CNT_GC_BG_VICTIMS, 1);
    ssdsim_flash_purpose purpose = why == SSDSIM__RECLAIM_WL ? SSDSIM_FOR_WL : SSDSIM_FOR_GC;
    uint32_t first = b * f->ppb;
    for (uint32_t i = 0; i < f->ppb && pl->gc_reads < valid; i++) {
        uint32_t lpn = f->p2l[first + i];
        if (lpn == NONE)
            continue;
        pl->gc_reads++;
        if (lpn < f->n_map)
            __builtin_prefetch(&f->l2p[lpn], 1, 3); /* used when the read completes */
        ssdsim_ftl_submit(f->env, SSDSIM_FLASH_READ, first + i, gc_read_bytes(f), purpose,
                          cookie(TAG_GC_READ, 0, first + i));
    }
    if (pl->gc_reads == 0)
        gc_erase(f, plane);
}

static void gc_start(struct ssdsim__ftl *f, uint32_t plane, enum ssdsim__reclaim why)
{
    if (f->planes[plane].victim != NONE)
        return; /* one victim at a time per plane */
    uint32_t b = f->gc->select_victim(f->gc_state, ssdsim__page_view(f), plane);
    if (b == NONE)
        return;
    if (b >= f->geo->n_blocks || block_plane(f, b) != plane ||
        f->state[b] != SSDSIM__BLK_CLOSED) {
        char msg[160];
        snprintf(msg, sizeof msg,
                 "GC policy '%s' chose block %u, which is not a candidate of plane %u",
                 f->gc->name, b, plane);
        ssdsim_ftl_fail(f->env, SSDSIM_ESTATE, msg);
        return;
    }
    if (f->valid[b] >= f->ppb) {
        /* The chosen block frees nothing, but collecting it moves the policy on (the next
         * FIFO tail, another random draw): policies are collected as chosen, which is what the
         * analytic models assume. Only when no candidate of the plane has garbage is there
         * nothing to do. */
        uint32_t g = ssdsim__cands_fewest_valid(&f->cands, plane);
        if (g == NONE || f->valid[g] >= f->ppb)
            return;
    }
    reclaim(f, plane, b, why);
}

static void gc_read_done(struct ssdsim__ftl *f, uint32_t old)
{
    uint32_t b = old / f->ppb;
    uint32_t plane = block_plane(f, b);
    struct ssdsim__plane *pl = &f->planes[plane];
    uint32_t lpn = f->p2l[old];
    if (lpn != NONE) {
        /* Still valid: write it to the GC frontier of the same plane. */
        bool wl = pl->reclaim == SSDSIM__RECLAIM_WL;
        ssdsim_ftl_count(f->env, wl ? SSDSIM_CNT_WL_COPIES : SSDSIM_CNT_GC_COPIES, 1);
        if (pl->reclaim == SSDSIM__RECLAIM_BG)
            ssdsim_ftl_count(f->env, SSDSIM_CNT_GC_BG_COPIES, 1);
        program(f, plane, gc_frontier(f, lpn), lpn, old, wl ? SSDSIM_FOR_WL : SSDSIM_FOR_GC,
                cookie(TAG_GC_PROG, 0, plane));
        if (f->dftl && lpn < f->n_lpn)
            dftl_mapped(f, lpn, plane);
    }
    if (--pl->gc_reads == 0) {
        assert(f->valid[pl->victim] == 0);
        /* DFTL: the translation pages of the moved entries that are not cached are written
         * back now that the victim's pages are all where they stay (one write per page per
         * victim, DFTL's batch update after a block's relocation). */
        for (uint32_t i = 0; i < pl->n_gc_tps; i++)
            dftl_writeback(f, f->cmt.gc_tps[(size_t)plane * f->ppb + i]);
        pl->n_gc_tps = 0;
        gc_erase(f, plane);
    }
}

/* Start the relocation wear leveling asked for on `plane`, if the plane is not busy. */
static bool wl_start(struct ssdsim__ftl *f, uint32_t plane)
{
    struct ssdsim__plane *pl = &f->planes[plane];
    uint32_t w = pl->wl_pending;
    if (w == NONE || pl->victim != NONE)
        return false;
    pl->wl_pending = NONE;
    if (f->state[w] != SSDSIM__BLK_CLOSED || pl->n_free == 0)
        return false;
    reclaim(f, plane, w, SSDSIM__RECLAIM_WL);
    return true;
}

static void gc_erase_done(struct ssdsim__ftl *f, uint32_t plane)
{
    struct ssdsim__plane *pl = &f->planes[plane];
    uint32_t b = pl->victim;
    enum ssdsim__reclaim why = pl->reclaim;
    put_free_block(f, b);
    pl->victim = NONE;
    if (f->wl && f->wl->after_erase) {
        uint32_t w = f->wl->after_erase(f->wl_state, ssdsim__page_view(f), b);
        if (w != NONE && w >= f->geo->n_blocks) {
            char msg[160];
            snprintf(msg, sizeof msg, "wear leveler '%s' asked to move block %u, which does "
                                      "not exist", f->wl->name, w);
            ssdsim_ftl_fail(f->env, SSDSIM_ESTATE, msg);
        } else if (w != NONE && f->state[w] == SSDSIM__BLK_CLOSED) {
            uint32_t wp = block_plane(f, w);
            f->planes[wp].wl_pending = w;
            if (wp != plane)
                wl_start(f, wp);
        }
    }
    unstall(f);
    if (wl_start(f, plane))
        return;
    /* Foreground GC goes on below the low watermark, and up to the high one once started;
     * background GC goes on up to the high watermark while the device stays idle. */
    if (pl->n_free < f->gc_min)
        gc_start(f, plane, SSDSIM__RECLAIM_FG);
    else if (pl->n_free < f->gc_target && (why == SSDSIM__RECLAIM_FG || f->idle))
        gc_start(f, plane, f->idle && why != SSDSIM__RECLAIM_FG ? SSDSIM__RECLAIM_BG
                                                                 : SSDSIM__RECLAIM_FG);
}

static void page_flash_done(void *state, uint64_t ck)
{
    struct ssdsim__ftl *f = state;
    uint32_t low = ssdsim__cookie_low(ck);
    switch ((enum op_tag)ssdsim__cookie_tag(ck)) {
    case TAG_HOST_READ:
        ssdsim_ftl_unit_done(f->env, low, ssdsim__cookie_mid(ck));
        break;
    case TAG_HOST_PROG:
        ssdsim_ftl_unit_done(f->env, low, 0);
        break;
    case TAG_RMW_READ: {
        struct ssdsim__pending w = ssdsim__pending_pool_take(&f->rmw, low);
        host_program(f, w.io, w.lpn);
        break;
    }
    case TAG_GC_READ:
        gc_read_done(f, low);
        break;
    case TAG_GC_PROG:
        break;
    case TAG_GC_ERASE:
        gc_erase_done(f, low);
        break;
    case TAG_MAP_READ:
        dftl_map_read_done(f, low, ssdsim__cookie_mid(ck) != 0);
        break;
    case TAG_MAP_PROG:
        break;
    default:
        ssdsim_ftl_fail(f->env, SSDSIM_ESTATE, "page FTL: unknown flash operation completed");
    }
}

static void page_idle(void *state, int idle)
{
    struct ssdsim__ftl *f = state;
    f->idle = idle != 0;
    if (!f->idle)
        return;
    for (uint32_t p = 0; p < f->n_planes; p++)
        if (f->planes[p].victim == NONE && f->planes[p].n_free < f->gc_target)
            gc_start(f, p, SSDSIM__RECLAIM_BG);
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

/* A request for `lpn` will reach the FTL soon: start loading its mapping entry. The l2p array
 * is far larger than the caches and random workloads miss on it every time. */
static void page_prefetch(void *state, uint64_t lpn)
{
    struct ssdsim__ftl *f = state;
    __builtin_prefetch(&f->l2p[lpn], 1, 3);
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

/* ---------------------------------------------------------------- installing a state */

/* Uniform integer in [0, n), n >= 1, from the FTL's stream (Lemire, with rejection). */
static uint64_t random_below(struct ssdsim__ftl *f, uint64_t n)
{
    unsigned __int128 m = (unsigned __int128)ssdsim_ftl_random(f->env) * n;
    uint64_t low = (uint64_t)m;
    if (low < n) {
        uint64_t t = -n % n;
        while (low < t) {
            m = (unsigned __int128)ssdsim_ftl_random(f->env) * n;
            low = (uint64_t)m;
        }
    }
    return (uint64_t)(m >> 64);
}

struct age_key {
    uint64_t order;
    uint32_t block;
};

static int age_cmp(const void *a, const void *b)
{
    const struct age_key *x = a, *y = b;
    if (x->order != y->order)
        return x->order < y->order ? -1 : 1;
    return x->block < y->block ? -1 : x->block > y->block;
}

/* Fast preconditioning (ssdsim_ftl_ops.install), on a state create has just set up (every block
 * free). Every block the image does not call free becomes a closed block whose first `valid`
 * pages hold data and whose other pages are invalid; the logical pages are dealt to those valid
 * slots in a uniformly random order (a Fisher-Yates shuffle done in l2p, which is then rebuilt
 * from p2l: no memory beyond the tables). Frontiers stay closed: the first write of each one
 * opens a free block, as after a secure erase.
 *
 * The page FTL has no fixed share of logical pages per plane (a host write goes to whichever
 * plane choose_plane picks), so the image may split them between planes as it likes, provided
 * the whole device maps every logical page once and each plane keeps room to work in: more free
 * blocks than its GC reserve, and, free or invalid, at least the GC watermark plus the open
 * blocks in pages (the condition create checks for the whole device).
 *
 * Ages: the write clock (programs since the device was new; the environment has moved it past
 * what the image implies) dates the blocks. Blocks close about one per pages_per_block programs
 * on the device, so the k-th newest is dated k x pages_per_block programs before now, in the
 * image's close order. modified_at is set to the close time: the last invalidation of each block
 * is not in the image, and cost-benefit's ages settle as the blocks lose pages (blocks that are
 * candidates, with few valid pages, lose them slowly: see doc/design.md, "Fast
 * preconditioning").
 *
 * With hot/cold separation every logical page starts "never written" (host_written_at 0), so
 * its next write is cold and the hot class forms again over one hot window of host writes. */
static int page_install(void *state, const ssdsim_ftl_image *img, char *errbuf, size_t errlen)
{
    struct ssdsim__ftl *f = state;
    const uint64_t nb = f->geo->n_blocks;
    const uint32_t ppb = f->ppb;
    if (f->n_free_blocks != nb || f->dftl) {
        snprintf(errbuf, errlen, "page FTL: install needs a secure-erased device%s",
                 f->dftl ? " and the page FTL (not dftl)" : "");
        return SSDSIM_EINVAL;
    }
    /* Check everything before changing anything. */
    uint32_t open = f->open;
    uint64_t total = 0, n_closed = 0;
    for (uint32_t p = 0; p < f->n_planes; p++) {
        uint64_t valid = 0;
        uint32_t n_free = 0;
        for (uint64_t b = (uint64_t)p * f->bpp; b < (uint64_t)(p + 1) * f->bpp; b++) {
            uint32_t v = img->valid[b];
            if (v == SSDSIM_IMAGE_FREE) {
                n_free++;
                continue;
            }
            if (v > ppb) {
                snprintf(errbuf, errlen,
                         "page FTL: block %llu holds %u valid pages; a block has %u pages",
                         (unsigned long long)b, v, ppb);
                return SSDSIM_EINVAL;
            }
            valid += v;
            n_closed++;
        }
        if (n_free <= gc_reserve(f)) {
            snprintf(errbuf, errlen,
                     "page FTL: plane %u has %u free blocks; host writes need more than the GC "
                     "reserve (%u)",
                     p, n_free, gc_reserve(f));
            return SSDSIM_EINVAL;
        }
        uint64_t room = ((uint64_t)f->bpp - f->gc_target - open) * ppb;
        if (valid > room) {
            snprintf(errbuf, errlen,
                     "page FTL: plane %u holds %llu valid pages; at most %llu fit with the GC "
                     "watermark (%u blocks) and %u open blocks kept free or invalid",
                     p, (unsigned long long)valid, (unsigned long long)room, f->gc_target, open);
            return SSDSIM_EINVAL;
        }
        total += valid;
    }
    if (total != f->n_lpn) {
        snprintf(errbuf, errlen,
                 "page FTL: the image holds %llu valid pages in all; the device maps %llu "
                 "logical pages, each exactly once",
                 (unsigned long long)total, (unsigned long long)f->n_lpn);
        return SSDSIM_EINVAL;
    }
    uint64_t clock = f->env->programs_total;
    if (clock < n_closed * ppb) {
        snprintf(errbuf, errlen, "page FTL: the write clock (%llu) is behind the image",
                 (unsigned long long)clock);
        return SSDSIM_EINVAL;
    }
    struct age_key *ages = NULL;
    if (img->closed_order && n_closed) {
        ages = malloc(sizeof *ages * n_closed);
        if (!ages) {
            snprintf(errbuf, errlen, "out of memory");
            return SSDSIM_ENOMEM;
        }
        uint64_t k = 0;
        for (uint64_t b = 0; b < nb; b++)
            if (img->valid[b] != SSDSIM_IMAGE_FREE)
                ages[k++] = (struct age_key){img->closed_order[b], (uint32_t)b};
        qsort(ages, n_closed, sizeof *ages, age_cmp);
    }

    /* Blocks: free lists in block order, closed blocks into the candidate structures oldest
     * first, so that the close-order list and each valid-count list are in age order. */
    for (uint32_t p = 0; p < f->n_planes; p++) {
        struct ssdsim__plane *pl = &f->planes[p];
        pl->free_head = pl->free_tail = NONE;
        pl->n_free = 0;
    }
    f->n_free_blocks = 0;
    for (uint64_t b = 0; b < nb; b++) {
        if (img->valid[b] == SSDSIM_IMAGE_FREE)
            put_free_block(f, (uint32_t)b);
    }
    for (uint64_t r = 0, b = 0; r < n_closed; r++, b++) {
        if (ages) {
            b = ages[r].block;
        } else {
            while (img->valid[b] == SSDSIM_IMAGE_FREE)
                b++;
        }
        f->state[b] = SSDSIM__BLK_CLOSED;
        f->valid[b] = (uint16_t)img->valid[b];
        f->closed_at[b] = f->modified_at[b] = clock - (n_closed - 1 - r) * ppb;
        ssdsim__cands_insert(&f->cands, (uint32_t)b, f->valid[b]);
    }
    free(ages);

    /* Logical pages: a uniformly random permutation, built in l2p, dealt to the valid slots in
     * block order; then l2p is rebuilt from p2l. */
    for (uint64_t i = 0; i < f->n_lpn; i++)
        f->l2p[i] = (uint32_t)i;
    for (uint64_t i = f->n_lpn; i > 1; i--) {
        uint64_t j = random_below(f, i);
        uint32_t t = f->l2p[i - 1];
        f->l2p[i - 1] = f->l2p[j];
        f->l2p[j] = t;
    }
    uint64_t k = 0;
    for (uint64_t b = 0; b < nb; b++) {
        if (img->valid[b] == SSDSIM_IMAGE_FREE)
            continue;
        for (uint32_t i = 0; i < img->valid[b]; i++)
            f->p2l[b * ppb + i] = f->l2p[k++];
    }
    memset(f->l2p, 0xff, sizeof *f->l2p * f->n_map);
    for (uint64_t b = 0; b < nb; b++) {
        if (img->valid[b] == SSDSIM_IMAGE_FREE)
            continue;
        for (uint32_t i = 0; i < img->valid[b]; i++) {
            uint32_t ppn = (uint32_t)(b * ppb + i);
            f->l2p[f->p2l[ppn]] = ppn;
        }
    }
    return 0;
}

/* ---------------------------------------------------------------- DFTL */

static inline uint32_t tpage_of(const struct ssdsim__ftl *f, uint32_t lpn)
{
    return lpn / f->cmt.epp;
}

static void lru_unlink(struct ssdsim__cmt *c, uint32_t s)
{
    if (c->prev[s] != NONE)
        c->next[c->prev[s]] = c->next[s];
    else
        c->head = c->next[s];
    if (c->next[s] != NONE)
        c->prev[c->next[s]] = c->prev[s];
    else
        c->tail = c->prev[s];
}

static void lru_push_front(struct ssdsim__cmt *c, uint32_t s)
{
    c->prev[s] = NONE;
    c->next[s] = c->head;
    if (c->head != NONE)
        c->prev[c->head] = s;
    else
        c->tail = s;
    c->head = s;
}

static void tp_unlink(struct ssdsim__cmt *c, uint32_t s, uint32_t t)
{
    if (c->tp_prev[s] != NONE)
        c->tp_next[c->tp_prev[s]] = c->tp_next[s];
    else
        c->tp_slots[t] = c->tp_next[s];
    if (c->tp_next[s] != NONE)
        c->tp_prev[c->tp_next[s]] = c->tp_prev[s];
}

/* Write translation page t back: read its current version (when it has one), then program the
 * new one. A write-back of t that is already on its way (its read in flight, or its program
 * waiting for a free page) takes this update too: the page is programmed with the table as it is
 * when the program is issued, so one program serves every update made before it. Without this,
 * GC copying into a plane at its reserve queued a program of the same translation page for every
 * victim, the queue outgrew what the victims freed, and the device never wrote again (issue 12). */
static void dftl_writeback(struct ssdsim__ftl *f, uint32_t t)
{
    struct ssdsim__cmt *c = &f->cmt;
    if (c->tp_pending[t])
        return;
    c->tp_pending[t] = 1;
    uint32_t where = f->l2p[f->n_lpn + t];
    if (where != NONE) {
        ssdsim_ftl_count(f->env, SSDSIM_CNT_MAP_READS, 1);
        ssdsim_ftl_submit(f->env, SSDSIM_FLASH_READ, where, f->page_size, SSDSIM_FOR_MAPPING,
                          cookie(TAG_MAP_READ, 1, t));
    } else {
        dftl_map_read_done(f, t, true);
    }
}

/* Program translation page t on `plane` (its GTD entry moves there). Every cached entry of the
 * page is clean afterwards: they are written together (DFTL's batch update). */
static void dftl_map_prog(struct ssdsim__ftl *f, uint32_t t, uint32_t plane)
{
    struct ssdsim__cmt *c = &f->cmt;
    for (uint32_t s = c->tp_slots[t]; s != NONE; s = c->tp_next[s])
        c->dirty[s] = 0;
    c->tp_pending[t] = 0;
    if (c->shadow) {
        uint64_t first = (uint64_t)t * c->epp, n = SSDSIM__MIN((uint64_t)c->epp, f->n_lpn - first);
        memcpy(&c->shadow[first], &f->l2p[first], sizeof *c->shadow * n);
    }
    ssdsim_ftl_count(f->env, SSDSIM_CNT_MAP_WRITES, 1);
    program(f, plane, SSDSIM__FR_MAP, (uint32_t)(f->n_lpn + t), NONE, SSDSIM_FOR_MAPPING,
            cookie(TAG_MAP_PROG, 0, t));
}

/* Make room for one entry: evict the least recently used, writing its page back if dirty. */
static uint32_t cmt_slot(struct ssdsim__ftl *f)
{
    struct ssdsim__cmt *c = &f->cmt;
    if (c->n < c->cap)
        return c->n++;
    uint32_t s = c->tail;
    uint32_t t = tpage_of(f, c->lpn[s]);
    if (c->dirty[s])
        dftl_writeback(f, t);
    lru_unlink(c, s);
    tp_unlink(c, s, t);
    c->slot_of[c->lpn[s]] = NONE;
    return s;
}

static void cmt_insert(struct ssdsim__ftl *f, uint32_t lpn)
{
    struct ssdsim__cmt *c = &f->cmt;
    if (c->slot_of[lpn] != NONE)
        return;
    uint32_t s = cmt_slot(f), t = tpage_of(f, lpn);
    c->lpn[s] = lpn;
    c->dirty[s] = 0;
    c->slot_of[lpn] = s;
    lru_push_front(c, s);
    c->tp_prev[s] = NONE;
    c->tp_next[s] = c->tp_slots[t];
    if (c->tp_slots[t] != NONE)
        c->tp_prev[c->tp_slots[t]] = s;
    c->tp_slots[t] = s;
}

/* Is the entry of `lpn` cached? If not, park the request until its translation page is read
 * (one read per page however many requests wait for it). */
static bool dftl_ready(struct ssdsim__ftl *f, uint32_t io, uint32_t lpn, uint32_t bytes,
                       bool write)
{
    struct ssdsim__cmt *c = &f->cmt;
    uint32_t s = c->slot_of[lpn];
    if (s != NONE) {
        if (c->head != s) {
            lru_unlink(c, s);
            lru_push_front(c, s);
        }
        return true;
    }
    uint32_t t = tpage_of(f, lpn);
    uint32_t where = f->l2p[f->n_lpn + t];
    if (where == NONE) {
        /* The page was never written: every entry in it is "unmapped", known without a read. */
        cmt_insert(f, lpn);
        return true;
    }
    if (c->wait_free == NONE) {
        uint32_t ncap = c->wait_cap ? c->wait_cap * 2 : 256;
        struct ssdsim__dftl_wait *p = realloc(c->wait, sizeof *p * ncap);
        if (!p) {
            ssdsim_ftl_fail(f->env, SSDSIM_ENOMEM, "out of memory queueing DFTL misses");
            return false;
        }
        for (uint32_t i = c->wait_cap; i < ncap; i++)
            p[i].next = i + 1 < ncap ? i + 1 : NONE;
        c->wait = p;
        c->wait_free = c->wait_cap;
        c->wait_cap = ncap;
    }
    uint32_t w = c->wait_free;
    c->wait_free = c->wait[w].next;
    bool first = c->tp_waiters[t] == NONE;
    c->wait[w] = (struct ssdsim__dftl_wait){io, lpn, bytes, c->tp_waiters[t], write};
    c->tp_waiters[t] = w;
    if (first) {
        ssdsim_ftl_count(f->env, SSDSIM_CNT_MAP_READS, 1);
        ssdsim_ftl_submit(f->env, SSDSIM_FLASH_READ, where, f->page_size, SSDSIM_FOR_MAPPING,
                          cookie(TAG_MAP_READ, 0, t));
    }
    return false;
}

/* A translation page read ended: either a load (the waiting requests go on) or the first half
 * of a write-back (the new version is programmed now). */
static void dftl_map_read_done(struct ssdsim__ftl *f, uint32_t t, bool writeback)
{
    struct ssdsim__cmt *c = &f->cmt;
    if (writeback) {
        uint32_t plane = f->stall.n ? NONE : choose_plane(f, SSDSIM__FR_MAP);
        if (plane == NONE) {
            if (!stall_push(f, STALL_MAP, t, SSDSIM__FR_MAP))
                ssdsim_ftl_fail(f->env, SSDSIM_ENOMEM, "out of memory queueing writes");
            return;
        }
        dftl_map_prog(f, t, plane);
        return;
    }
    /* Requests were pushed on the front: serve them in arrival order. */
    uint32_t w = c->tp_waiters[t], rev = NONE;
    c->tp_waiters[t] = NONE;
    while (w != NONE) {
        uint32_t n = c->wait[w].next;
        c->wait[w].next = rev;
        rev = w;
        w = n;
    }
    for (w = rev; w != NONE;) {
        struct ssdsim__dftl_wait x = c->wait[w];
        uint32_t n = x.next;
        c->wait[w].next = c->wait_free;
        c->wait_free = w;
        cmt_insert(f, x.lpn);
        int rc = x.write ? do_write(f, x.io, x.lpn, x.bytes) : do_read(f, x.io, x.lpn, x.bytes);
        if (rc)
            ssdsim_ftl_fail(f->env, rc, "out of memory serving a DFTL miss");
        w = n;
    }
}

/* The mapping of data page `lpn` changed. Cached: the entry is dirty. Not cached: its
 * translation page must be updated in flash: at once for the host (a trim, a write whose entry
 * was evicted while it waited), and for a GC move (`gc_plane` the plane whose victim it left,
 * else NONE) once per victim, when the victim's last copy is done (the page joins the plane's
 * list once, stamped with the victim's serial). Writing it back at the first move of a victim,
 * as this did, left the page in flash without the victim's later moves, for good (the
 * consistency check's "not cached, and its translation page in flash says" failure). */
static void dftl_mapped(struct ssdsim__ftl *f, uint32_t lpn, uint32_t gc_plane)
{
    struct ssdsim__cmt *c = &f->cmt;
    uint32_t s = c->slot_of[lpn];
    if (s != NONE) {
        c->dirty[s] = 1;
        return;
    }
    uint32_t t = tpage_of(f, lpn);
    if (gc_plane == NONE) {
        dftl_writeback(f, t);
        return;
    }
    struct ssdsim__plane *pl = &f->planes[gc_plane];
    if (c->tp_stamp[t] == pl->serial)
        return;
    c->tp_stamp[t] = pl->serial;
    /* (at most one entry per copy of the victim: ppb entries a plane) */
    c->gc_tps[(size_t)gc_plane * f->ppb + pl->n_gc_tps++] = t;
}

static int dftl_setup(struct ssdsim__ftl *f, uint32_t cmt_entries)
{
    struct ssdsim__cmt *c = &f->cmt;
    c->epp = f->page_size / 4;
    c->n_tpages = (f->n_lpn + c->epp - 1) / c->epp;
    c->cap = cmt_entries < f->n_lpn ? cmt_entries : (uint32_t)f->n_lpn;
    c->head = c->tail = NONE;
    c->wait_free = NONE;
    c->slot_of = malloc(sizeof *c->slot_of * f->n_lpn);
    c->lpn = malloc(sizeof *c->lpn * c->cap);
    c->prev = malloc(sizeof *c->prev * c->cap);
    c->next = malloc(sizeof *c->next * c->cap);
    c->tp_prev = malloc(sizeof *c->tp_prev * c->cap);
    c->tp_next = malloc(sizeof *c->tp_next * c->cap);
    c->dirty = calloc(c->cap, 1);
    c->tp_slots = malloc(sizeof *c->tp_slots * c->n_tpages);
    c->tp_waiters = malloc(sizeof *c->tp_waiters * c->n_tpages);
    c->tp_stamp = calloc(c->n_tpages, sizeof *c->tp_stamp);
    c->tp_pending = calloc(c->n_tpages, 1);
    c->gc_tps = malloc(sizeof *c->gc_tps * f->n_planes * f->ppb);
    if (!c->gc_tps || !c->slot_of || !c->lpn || !c->prev || !c->next || !c->tp_prev || !c->tp_next ||
        !c->dirty || !c->tp_slots || !c->tp_waiters || !c->tp_stamp || !c->tp_pending)
        return SSDSIM_ENOMEM;
    memset(c->slot_of, 0xff, sizeof *c->slot_of * f->n_lpn);
    memset(c->tp_slots, 0xff, sizeof *c->tp_slots * c->n_tpages);
    memset(c->tp_waiters, 0xff, sizeof *c->tp_waiters * c->n_tpages);
    return 0;
}

static void dftl_free(struct ssdsim__cmt *c)
{
    free(c->slot_of);
    free(c->lpn);
    free(c->prev);
    free(c->next);
    free(c->tp_prev);
    free(c->tp_next);
    free(c->dirty);
    free(c->tp_slots);
    free(c->tp_waiters);
    free(c->tp_stamp);
    free(c->gc_tps);
    free(c->tp_pending);
    free(c->shadow);
    free(c->wait);
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
    free(f->valid);
    free(f->state);
    free(f->free_next);
    free(f->closed_at);
    free(f->modified_at);
    free(f->planes);
    free(f->die_plane_cursor);
    ssdsim__pending_fifo_fini(&f->stall);
    ssdsim__pending_pool_fini(&f->rmw);
    free(f->host_written_at);
    dftl_free(&f->cmt);
    ssdsim__cands_fini(&f->cands);
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
    f->bpp = g->blocks_per_plane;
    f->n_planes = g->n_planes;
    f->ppd = g->planes_per_die;
    f->n_dies = g->n_dies;
    f->page_size = g->page_size;
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
    struct ssdsim__page_reserve res;
    ssdsim__page_reserve(pol->free_blocks_min, pol->free_blocks_target, pol->hot_cold != 0,
                         pol->gc_separate != 0, dftl, &res);
    uint32_t open = res.open;
    uint64_t spare = (f->n_ppn - f->n_lpn - extra_pages) / f->ppb / f->n_planes;
    uint32_t target = SSDSIM__MAX(pol->free_blocks_target, pol->free_blocks_min);
    if (spare < (uint64_t)target + open) {
        snprintf(errbuf, errlen,
                 "over-provisioning (ftl.op) leaves %llu spare blocks per plane%s; the GC "
                 "watermark (%u) and %u open blocks need %u",
                 (unsigned long long)spare, dftl ? " after the translation pages" : "", target,
                 open, target + open);
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
    f->open = res.open - (dftl ? 1 : 0);
    f->hot_window_pages = (uint64_t)(pol->hot_window * (double)f->n_lpn);
    if (f->hot_window_pages > UINT32_MAX / 2)
        f->hot_window_pages = UINT32_MAX / 2; /* the 32-bit clock's horizon */
    ssdsim__pending_pool_init(&f->rmw);
    ssdsim__rng_seed(&f->policy_rng, (uint64_t)ssdsim_ftl_random(env), pol->gc_policy, 0);

    uint64_t nb = g->n_blocks;
    f->l2p = malloc(sizeof *f->l2p * f->n_map);
    f->p2l = malloc(sizeof *f->p2l * f->n_ppn);
    f->valid = calloc(nb, sizeof *f->valid);
    f->state = calloc(nb, sizeof *f->state);
    f->free_next = malloc(sizeof *f->free_next * nb);
    f->closed_at = calloc(nb, sizeof *f->closed_at);
    f->modified_at = calloc(nb, sizeof *f->modified_at);
    f->planes = calloc(f->n_planes, sizeof *f->planes);
    f->die_plane_cursor = calloc(f->n_dies, sizeof *f->die_plane_cursor);
    if (!f->l2p || !f->p2l || !f->valid || !f->state || !f->free_next || !f->closed_at ||
        !f->modified_at || !f->planes || !f->die_plane_cursor ||
        ssdsim__cands_init(&f->cands, f->n_planes, f->bpp, f->ppb))
        return SSDSIM_ENOMEM;
    memset(f->l2p, 0xff, sizeof *f->l2p * f->n_map);
    memset(f->p2l, 0xff, sizeof *f->p2l * f->n_ppn);

    /* Secure-erased: every block free, in address order on its plane's free list. */
    for (uint32_t p = 0; p < f->n_planes; p++) {
        struct ssdsim__plane *pl = &f->planes[p];
        uint32_t first = p * f->bpp;
        for (uint32_t b = 0; b < f->bpp; b++)
            f->free_next[first + b] = b + 1 < f->bpp ? first + b + 1 : NONE;
        pl->free_head = first;
        pl->free_tail = first + f->bpp - 1;
        pl->n_free = f->bpp;
        for (int fr = 0; fr < SSDSIM__N_FRONTIERS; fr++) {
            pl->blk[fr] = NONE;
            pl->ptr[fr] = f->ppb;
        }
        pl->victim = pl->wl_pending = NONE;
    }
    f->n_free_blocks = nb;

    if (dftl && dftl_setup(f, cmt_entries))
        return SSDSIM_ENOMEM;
    if (f->hot_cold && !(f->host_written_at = calloc(f->n_lpn, sizeof *f->host_written_at)))
        return SSDSIM_ENOMEM;
    int rc = start_policy(f, SSDSIM_PLUGIN_GC, pol->gc_policy, pol->gc_params, errbuf, errlen);
    if (rc == 0)
        rc = start_policy(f, SSDSIM_PLUGIN_WL, pol->wl_policy, pol->wl_params, errbuf, errlen);
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
    .flash_done = page_flash_done, .idle = page_idle, .free_blocks = page_free_blocks,             \
    .lookup = page_lookup, .prefetch = page_prefetch,                                              \
    .plane_free_blocks = page_plane_free_blocks, .block_valid = page_block_valid,                  \
    .block_closed = page_block_closed, .check = ssdsim__page_check_method,

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
    .install = page_install,
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
