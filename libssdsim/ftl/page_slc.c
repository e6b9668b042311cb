/* page_slc.c: the SLC cache of the page FTL and DFTL, as consumer TLC and QLC drives have it
 * (Samsung's TurboWrite, the dynamic SLC of Intel and Micron drives). Host writes are
 * programmed in SLC mode (one bit per cell: a block holds pages_per_block / bits per cell
 * pages, each programmed and read at the slc section's times) while the cache has room; when
 * it has none they go to native blocks as before: the write cliff. When the device has been
 * idle for slc.fold_idle_us, each plane folds its full SLC blocks, oldest first: the valid pages
 * are read and programmed to the plane's host frontier in native mode (GC-class operations,
 * counted as folds, so they show in the WAF), then the block is erased and returned. Under
 * sustained writes, when foreground GC must free blocks on a plane that holds full dynamic
 * SLC blocks, it folds the oldest of them first (its copies to the GC frontier, as a victim's):
 * a dynamic block holds a third of what the native block it borrowed would (TLC), so folding
 * it frees most of a block, and without it the blocks the cache borrowed while the drive was
 * empty would never come back while the host keeps writing.
 *
 * Where the blocks come from: the static region (slc.static) is reserved per plane out of the
 * spare when the FTL is created and stays in SLC mode; the dynamic region borrows free blocks
 * (slc.dynamic at most) as long as the capacity holding no valid data covers them: a block in
 * SLC mode takes a whole native block, so with V valid pages in native blocks at most
 * (logical pages - V) / pages_per_block dynamic blocks may be in SLC mode at once. The cache
 * therefore shrinks as the drive fills, as on real drives, down to the static region.
 *
 * The hooks elsewhere are small: page_place.c asks ssdsim__page_slc_write before placing a
 * host write natively, and choose_plane asks ssdsim__page_slc_accepts (page_int.h) for the
 * FR_SLC pseudo-frontier; page.c dispatches the TAG_SLC_* completions here; the environment
 * tells us when the device has been idle long enough (env->fold_idle); the hardware reads each
 * block's mode from hw->slc_block (1 static, 2 dynamic) to time its pages.
 */
#include "ftl/page_int.h"
#include "ftl/reserve.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { SLC_STATIC = 1, SLC_DYNAMIC = 2 };

static void fold_next(struct ssdsim__ftl *f, uint32_t plane);

/* Bytes a fold read moves to the controller: none with copyback, as GC's copies (page_gc.c). */
static uint32_t fold_read_bytes(const struct ssdsim__ftl *f)
{
    return f->env->model->flash.copyback ? 0 : f->page_size;
}

/* Dynamic blocks the free capacity allows now: min(cap, (logical - valid native) / ppb). */
static uint64_t dyn_limit(const struct ssdsim__ftl *f)
{
    const struct ssdsim__slc *s = f->slc;
    uint64_t native = f->n_valid - s->valid;
    uint64_t room = native < f->n_lpn ? (f->n_lpn - native) / f->ppb : 0;
    return SSDSIM__MIN(s->dyn_max, room);
}

static void list_push(struct ssdsim__ftl *f, uint32_t *head, uint32_t *tail, uint32_t b)
{
    f->free_next[b] = NONE;
    if (*head == NONE)
        *head = b;
    else
        f->free_next[*tail] = b;
    *tail = b;
}

static void fold_idle(void *state, int idle)
{
    struct ssdsim__ftl *f = state;
    f->slc->idle = idle != 0;
    if (!idle)
        return;
    for (uint32_t p = 0; p < f->n_planes; p++)
        fold_next(f, p);
}

int ssdsim__page_slc_setup(struct ssdsim__ftl *f, char *errbuf, size_t errlen)
{
    const struct ssdsim_model *m = f->env->model;
    struct ssdsim__slc_geom g;
    ssdsim__slc_geometry(m, &g);
    struct ssdsim__hw *hw = f->env->hw;
    if (!g.pages || !hw->slc_block) {
        snprintf(errbuf, errlen, "slc: no SLC mode on this flash (flash.cell)");
        return SSDSIM_ECONFIG;
    }
    struct ssdsim__slc *s = calloc(1, sizeof *s);
    if (!s || !(s->pl = calloc(f->n_planes, sizeof *s->pl))) {
        free(s);
        return SSDSIM_ENOMEM;
    }
    f->slc = s;
    s->pages = g.pages;
    s->n_static = g.static_per_plane;
    s->dyn_max = g.dyn_max_blocks;
    memset(hw->slc_block, 0, hw->n_blocks);
    for (uint32_t p = 0; p < f->n_planes; p++) {
        struct ssdsim__slc_plane *sp = &s->pl[p];
        sp->blk = sp->st_free = sp->full_head = sp->full_tail = sp->victim = NONE;
        /* model.c checked that the spare holds the region beside the GC watermark and the
         * open blocks; check again against what this FTL keeps (DFTL's translation pages) */
        if (f->planes[p].n_free < (uint64_t)s->n_static + f->gc_target + f->open + 1) {
            snprintf(errbuf, errlen,
                     "slc.static: %u blocks per plane in SLC mode leave plane %u too few free "
                     "blocks for the GC watermark (%u) and %u open blocks",
                     s->n_static, p, f->gc_target, f->open);
            return SSDSIM_ECONFIG;
        }
        for (uint32_t i = 0; i < s->n_static; i++) {
            uint32_t b = ssdsim__page_take_free_block(f, p);
            f->state[b] = SSDSIM__BLK_SLC;
            hw->slc_block[b] = SLC_STATIC;
            f->free_next[b] = sp->st_free;
            sp->st_free = b;
            sp->n_st_free++;
        }
    }
    f->env->fold_idle_ns = m->slc.fold_idle_ns;
    f->env->fold_idle = fold_idle;
    return 0;
}

void ssdsim__page_slc_free(struct ssdsim__ftl *f)
{
    if (!f->slc)
        return;
    free(f->slc->pl);
    free(f->slc);
    f->slc = NULL;
}

/* A host page programmed natively with the cache on (page_place.c): the cache had no room for
 * it when it was placed, so a cliff episode starts, or goes on. Every host page is counted
 * once, here or as written in SLC mode (ssdsim__page_slc_write), when it is placed: a write
 * that waited for a free block may have found the cache with room by then. */
void ssdsim__page_slc_bypassed(struct ssdsim__ftl *f)
{
    struct ssdsim__slc *s = f->slc;
    uint64_t now = ssdsim_ftl_now(f->env);
    if (!s->full) {
        s->full = true;
        ssdsim__env_count(f->env, SSDSIM__CNT_SLC_FULL, 1);
    } else {
        ssdsim__env_count(f->env, SSDSIM__CNT_SLC_FULL_NS, now - s->full_last_ns);
    }
    s->full_last_ns = now;
    ssdsim__env_count(f->env, SSDSIM__CNT_SLC_BYPASS, 1);
}

/* A measurement starts (stats.c, at the start of a run or after the ramp time): an episode
 * going on ends here, so that the next write that finds the cache full starts one of the new
 * measurement; its counters then describe it alone, not a cache filled before it (by
 * preconditioning). */
void ssdsim__page_slc_measure(const ssdsim_ftl_env *env)
{
    if (!ssdsim__page_runs(env))
        return;
    struct ssdsim__ftl *f = env->state;
    if (f->slc)
        f->slc->full = false;
}

/* The next page of plane's open SLC block, opening a static block (first) or a dynamic one. */
static uint32_t slc_page(struct ssdsim__ftl *f, uint32_t plane)
{
    struct ssdsim__slc *s = f->slc;
    struct ssdsim__slc_plane *sp = &s->pl[plane];
    if (sp->blk == NONE) {
        uint32_t b;
        if (sp->n_st_free) {
            b = sp->st_free;
            sp->st_free = f->free_next[b];
            sp->n_st_free--;
        } else {
            b = ssdsim__page_take_free_block(f, plane);
            f->env->hw->slc_block[b] = SLC_DYNAMIC;
            s->dyn_blocks++;
        }
        f->state[b] = SSDSIM__BLK_SLC;
        sp->blk = b;
        sp->ptr = 0;
    }
    uint32_t ppn = sp->blk * f->ppb + sp->ptr++;
    if (sp->ptr == s->pages) {
        list_push(f, &sp->full_head, &sp->full_tail, sp->blk);
        sp->n_full++;
        sp->blk = NONE;
    }
    return ppn;
}

uint32_t ssdsim__page_slc_plane(struct ssdsim__ftl *f, uint32_t lpn)
{
    struct ssdsim__slc *s = f->slc;
    s->dyn_ok = s->dyn_blocks < dyn_limit(f);
    return ssdsim__page_choose_plane(f, FR_SLC, lpn);
}

void ssdsim__page_slc_program(struct ssdsim__ftl *f, uint32_t io, uint32_t lpn, uint32_t plane)
{
    struct ssdsim__slc *s = f->slc;
    s->full = false;
    uint32_t ppn = slc_page(f, plane);
    uint32_t b = ppn / f->ppb;
    bool last = f->slc->pl[plane].blk == NONE;
    map(f, lpn, ppn, NONE);
    s->valid++;
    ssdsim_ftl_count(f->env, SSDSIM_CNT_HOST_PAGES, 1);
    ssdsim__env_count(f->env, SSDSIM__CNT_SLC_WRITES, 1);
    ssdsim_ftl_submit(f->env, SSDSIM_FLASH_PROGRAM, ppn, f->page_size, SSDSIM_FOR_HOST,
                      cookie(TAG_HOST_PROG, 0, io));
    if (f->dftl)
        ssdsim__page_dftl_mapped(f, lpn, NONE);
    if (last && s->idle)
        fold_next(f, b / f->bpp);
}

bool ssdsim__page_slc_write(struct ssdsim__ftl *f, uint32_t io, uint32_t lpn)
{
    uint32_t plane = ssdsim__page_slc_plane(f, lpn);
    if (plane == NONE)
        return false;
    ssdsim__page_slc_program(f, io, lpn, plane);
    return true;
}

/* Start folding full SLC block b (taken off its plane's full list); fg: for foreground GC. */
static void fold_start(struct ssdsim__ftl *f, uint32_t plane, uint32_t b, bool fg)
{
    struct ssdsim__slc *s = f->slc;
    struct ssdsim__slc_plane *sp = &s->pl[plane];
    sp->victim_pages = s->pages;
    sp->fg = fg;
    sp->victim = b;
    sp->reads = 0;
    uint32_t first = b * f->ppb, valid = f->valid[b];
    for (uint32_t i = 0; i < sp->victim_pages && sp->reads < valid; i++) {
        if (p2l_get(f, first + i) == NONE)
            continue;
        sp->reads++;
        ssdsim_ftl_submit(f->env, SSDSIM_FLASH_READ, first + i, fold_read_bytes(f), SSDSIM_FOR_GC,
                          cookie(TAG_SLC_READ, 0, first + i));
    }
    if (sp->reads == 0)
        ssdsim_ftl_submit(f->env, SSDSIM_FLASH_ERASE, b, 0, SSDSIM_FOR_GC,
                          cookie(TAG_SLC_ERASE, 0, plane));
}

/* Fold the plane's oldest full SLC block if the device is idle and the plane is not folding
 * one. The open block is not folded: it takes the next host writes in SLC mode (folding it
 * would erase a block for every few pages a lightly loaded drive writes between idle periods).
 * Needs a free block beyond the GC reserve for the native frontier the copies may open. */
static void fold_next(struct ssdsim__ftl *f, uint32_t plane)
{
    struct ssdsim__slc *s = f->slc;
    struct ssdsim__slc_plane *sp = &s->pl[plane];
    if (!s->idle || sp->victim != NONE || f->planes[plane].n_free <= gc_reserve(f) ||
        sp->full_head == NONE)
        return;
    uint32_t b = sp->full_head;
    sp->full_head = f->free_next[b];
    if (sp->full_head == NONE)
        sp->full_tail = NONE;
    sp->n_full--;
    fold_start(f, plane, b, false);
}

/* Foreground GC on `plane`: true when the plane is folding an SLC block for it (started now or
 * before), so that GC waits for that block; false when it holds no full dynamic SLC block. */
bool ssdsim__page_slc_fold_fg(struct ssdsim__ftl *f, uint32_t plane)
{
    struct ssdsim__slc *s = f->slc;
    struct ssdsim__slc_plane *sp = &s->pl[plane];
    if (sp->victim != NONE)
        return sp->fg;
    uint32_t prev = NONE, b = sp->full_head;
    while (b != NONE && f->env->hw->slc_block[b] != SLC_DYNAMIC) {
        prev = b;
        b = f->free_next[b];
    }
    if (b == NONE)
        return false;
    /* off the full list (oldest dynamic one first) */
    if (prev == NONE)
        sp->full_head = f->free_next[b];
    else
        f->free_next[prev] = f->free_next[b];
    if (sp->full_tail == b)
        sp->full_tail = prev;
    sp->n_full--;
    ssdsim__env_count(f->env, SSDSIM__CNT_SLC_FG_FOLDS, 1);
    fold_start(f, plane, b, true);
    return true;
}

static void fold_read_done(struct ssdsim__ftl *f, uint32_t old)
{
    uint32_t plane = old / f->ppb / f->bpp;
    struct ssdsim__slc_plane *sp = &f->slc->pl[plane];
    uint32_t lpn = p2l_get(f, old);
    if (lpn != NONE) {
        /* still valid: program it natively (map() moves it out of the SLC block's count) */
        ssdsim__env_count(f->env, SSDSIM__CNT_SLC_FOLDS, 1);
        ssdsim__page_program(f, plane, sp->fg ? ssdsim__page_gc_frontier(f, lpn) : SSDSIM__FR_HOST,
                             lpn, old, SSDSIM_FOR_GC, cookie(TAG_SLC_PROG, 0, plane));
        if (f->dftl && lpn < f->n_lpn)
            ssdsim__page_dftl_mapped(f, lpn, NONE); /* as a host write's: no GC batch */
    }
    if (--sp->reads == 0) {
        assert(f->valid[sp->victim] == 0);
        ssdsim_ftl_submit(f->env, SSDSIM_FLASH_ERASE, sp->victim, 0, SSDSIM_FOR_GC,
                          cookie(TAG_SLC_ERASE, 0, plane));
    }
}

/* The folded block is erased: a static one is ready for the cache again, a dynamic one goes
 * back to the plane's free blocks in native mode. */
static void fold_erase_done(struct ssdsim__ftl *f, uint32_t plane)
{
    struct ssdsim__slc *s = f->slc;
    struct ssdsim__slc_plane *sp = &s->pl[plane];
    uint32_t b = sp->victim;
    bool fg = sp->fg;
    sp->victim = NONE;
    sp->fg = false;
    if (f->parity)
        ssdsim__page_parity_erased(f, b);
    uint8_t *mode = &f->env->hw->slc_block[b];
    if (*mode == SLC_STATIC) {
        f->free_next[b] = sp->st_free;
        sp->st_free = b;
        sp->n_st_free++;
    } else {
        *mode = 0;
        s->dyn_blocks--;
        if (!ssdsim__page_retire(f, b))
            put_free_block(f, b);
        ssdsim__page_unstall(f);
    }
    /* a foreground fold goes on as foreground GC does: more below the low watermark, and up to
     * the high one once started (page_gc.c) */
    struct ssdsim__plane *pl = &f->planes[plane];
    if (fg && pl->victim == NONE && pl->n_free < f->gc_target)
        ssdsim__page_gc_start(f, plane, SSDSIM__RECLAIM_FG);
    fold_next(f, plane);
}

void ssdsim__page_slc_done(struct ssdsim__ftl *f, enum op_tag tag, uint32_t low)
{
    if (tag == TAG_SLC_READ)
        fold_read_done(f, low);
    else if (tag == TAG_SLC_ERASE)
        fold_erase_done(f, low);
}

/* Pages of SLC block b that may hold data (page_check.c). */
uint32_t ssdsim__page_slc_written(const struct ssdsim__ftl *f, uint32_t b)
{
    const struct ssdsim__slc_plane *sp = &f->slc->pl[b / f->bpp];
    if (b == sp->blk)
        return sp->ptr;
    if (b == sp->victim)
        return sp->victim_pages;
    for (uint32_t k = sp->full_head; k != NONE; k = f->free_next[k])
        if (k == b)
            return f->slc->pages;
    return 0; /* a static block ready: erased */
}

bool ssdsim__page_slc_usage(const ssdsim_ftl_env *env, uint64_t *used, uint64_t *capacity)
{
    if (!ssdsim__page_runs(env))
        return false;
    const struct ssdsim__ftl *f = env->state;
    const struct ssdsim__slc *s = f->slc;
    if (!s)
        return false;
    uint64_t u = 0;
    for (uint32_t p = 0; p < f->n_planes; p++) {
        const struct ssdsim__slc_plane *sp = &s->pl[p];
        u += (uint64_t)sp->n_full * s->pages + (sp->blk != NONE ? sp->ptr : 0) +
             (sp->victim != NONE ? sp->victim_pages : 0);
    }
    *used = u;
    uint64_t dyn = SSDSIM__MAX(s->dyn_blocks, dyn_limit(f));
    *capacity = ((uint64_t)s->n_static * f->n_planes + dyn) * s->pages;
    return true;
}

#define FAIL(...)                                                                                  \
    do {                                                                                           \
        snprintf(why, len, __VA_ARGS__);                                                           \
        return SSDSIM_ESTATE;                                                                      \
    } while (0)

/* The SLC cache's structures against the blocks' states and modes (page_check.c): every block
 * in SLC mode is in exactly one place (open, full list, victim, static ready list), the static
 * ones are n_static per plane, the dynamic ones add up to dyn_blocks, and the valid pages of
 * SLC blocks to s->valid. */
int ssdsim__page_slc_check(const struct ssdsim__ftl *f, char *why, size_t len)
{
    const struct ssdsim__slc *s = f->slc;
    const uint8_t *mode = f->env->hw->slc_block;
    uint64_t dyn = 0, valid = 0;
    for (uint32_t p = 0; p < f->n_planes; p++) {
        const struct ssdsim__slc_plane *sp = &s->pl[p];
        uint32_t first = p * f->bpp, n_static = 0, places = 0, n = 0;
        for (uint32_t b = first; b < first + f->bpp; b++) {
            bool slc = f->state[b] == SSDSIM__BLK_SLC;
            if (slc != (mode[b] != 0))
                FAIL("block %u is %sin SLC mode but its state is %u", b, mode[b] ? "" : "not ",
                     f->state[b]);
            if (!slc)
                continue;
            n_static += mode[b] == SLC_STATIC;
            dyn += mode[b] == SLC_DYNAMIC;
            valid += f->valid[b];
        }
        if (n_static != s->n_static)
            FAIL("plane %u has %u static SLC blocks; the region has %u", p, n_static, s->n_static);
        places += (sp->blk != NONE) + (sp->victim != NONE);
        for (uint32_t b = sp->full_head; b != NONE && n <= f->bpp; b = f->free_next[b], n++)
            if (f->state[b] != SSDSIM__BLK_SLC)
                FAIL("plane %u's full SLC list holds block %u, not in SLC mode", p, b);
        if (n != sp->n_full)
            FAIL("plane %u: %u blocks on its full SLC list; its count says %u", p, n, sp->n_full);
        places += n;
        n = 0;
        for (uint32_t b = sp->st_free; b != NONE && n <= f->bpp; b = f->free_next[b], n++)
            if (mode[b] != SLC_STATIC || f->valid[b])
                FAIL("plane %u's ready static list holds block %u (mode %u, %u valid)", p, b,
                     mode[b], f->valid[b]);
        if (n != sp->n_st_free)
            FAIL("plane %u: %u ready static blocks listed; its count says %u", p, n,
                 sp->n_st_free);
        places += n;
        uint32_t in_slc = 0;
        for (uint32_t b = first; b < first + f->bpp; b++)
            in_slc += mode[b] != 0;
        if (places != in_slc)
            FAIL("plane %u has %u blocks in SLC mode; its open, full, folded and ready ones are "
                 "%u",
                 p, in_slc, places);
    }
    if (dyn != s->dyn_blocks)
        FAIL("%llu dynamic SLC blocks; the count says %llu", (unsigned long long)dyn,
             (unsigned long long)s->dyn_blocks);
    if (valid != s->valid)
        FAIL("SLC blocks hold %llu valid pages; the count says %llu", (unsigned long long)valid,
             (unsigned long long)s->valid);
    return 0;
}
