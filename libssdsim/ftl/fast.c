/* fast.c: the FAST hybrid log-block FTL ("fast"), after Lee et al., "A log buffer-based flash
 * translation layer using fully-associative sector translation", ACM TECS 6(3), 2007.
 *
 * Data blocks are block-mapped: logical block L = lpn / pages_per_block has one data block and
 * page k of L can only live at page k of it. Writes go to log blocks, which are page-mapped:
 *   - a write at offset 0 opens a sequential (SW) log for L, retiring the current one first;
 *     a write that continues an SW log's sequence is appended to it;
 *   - any other write is appended to the newest random-write (RW) log block, which takes pages
 *     of any logical block (fully associative).
 * Merges give a logical block a new data block:
 *   - switch merge: an SW log that reached its last page becomes the data block; the old data
 *     block is erased, nothing is copied;
 *   - partial merge: a retired SW log that is not complete gets the pages it lacks copied from
 *     the data block (those whose newest copy is there), then switches;
 *   - full merge: when every RW log block is full, the oldest is reclaimed: for each logical
 *     block with a valid page in it, a free block receives the newest copy of each of its pages
 *     (data block, RW logs or SW log) at their own offsets, and the old data block (and an SW
 *     log of that logical block) is erased; the victim, whose pages are all invalid by then, is
 *     erased last.
 * SSDSIM_CNT_MERGES counts each time a logical block gets a new data block: every switch,
 * partial and full merge (a logical block's first data block included). A retired SW log none
 * of whose pages is newest any more is only erased, and is not counted. The reclaim of one RW
 * victim counts one full merge per logical block merged, not one in all.
 *
 * Planes: each plane runs FAST on its own share of the logical blocks (consecutive logical blocks
 * go to different channels, then chips, dies and planes), with its own RW logs (log_blocks of
 * them), SW logs (seq_log_blocks), free blocks and merge queue. Every block of a logical block is
 * then on one plane, so merges of different planes run on different dies at once, and the free
 * blocks a plane needs can be counted exactly: its logical blocks' data blocks, its log blocks,
 * and one more that a full merge fills before the old data block is erased. That is the
 * over-provisioning create() demands, and with it no merge can wait for ever. The price against
 * the paper's single log pool is that a hot plane cannot borrow another plane's log blocks.
 *
 * Merges of a plane run one at a time (the paper's merges are synchronous); an SW merge goes
 * before the next logical block of an RW reclaim. A merge's copies are real flash reads and
 * programs, submitted with SSDSIM_FOR_GC: every read is submitted at the start, and the programs
 * go out in page order as the reads return (NAND programs a block's pages in order). A host
 * write that needs what a merge will free (a log page when every RW log is full, an SW log slot
 * while the old SW log is merged, a free block), or that would open an SW log for a logical
 * block whose merge is running or queued, waits in its plane's FIFO, behind which every later
 * write of the plane waits too, so writes to one page keep their order.
 *
 * As in the page FTL, the mapping changes when a page is allocated, not when its program ends,
 * and a merge checks, when a copy's read returns, that the page is still the newest copy: data
 * the host overwrote meanwhile is not copied (its offset in the new block stays empty). A real
 * FAST controller keeps only the block map and the log blocks' page map and searches the latter;
 * here a flat per-page index of the newest copy (l2p, 4 B per logical page) stands in for that
 * search, which changes no flash traffic.
 *
 * Cookies (ftl/ftlutil.h): top byte the tag, low 32 bits an index (request, plane or block),
 * bits 32-55 a small value (bytes of a host read, page offset of a merge copy).
 */
#include "ftl/fast.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NONE UINT32_MAX

enum op_tag {
    TAG_HOST_READ = 1, /* low: io, mid: bytes */
    TAG_HOST_PROG,     /* low: io */
    TAG_RMW_READ,      /* low: rmw pool index */
    TAG_GC_READ,       /* low: plane, mid: page offset */
    TAG_GC_PROG,       /* low: plane */
    TAG_ERASE,         /* low: block */
};

/* Copy state of one page offset of the merge in progress. */
enum { CP_NONE = 0, CP_READING, CP_READY };

static inline uint64_t cookie(enum op_tag tag, uint32_t mid, uint32_t low)
{
    return ssdsim__cookie(tag, mid, low);
}

static void kick(struct ssdsim__fast *f, uint32_t p);
static void unstall(struct ssdsim__fast *f, uint32_t p);

/* ---------------------------------------------------------------- blocks and pages */

static inline uint32_t block_plane(const struct ssdsim__fast *f, uint32_t b)
{
    return b / f->bpp;
}

static uint32_t take_free(struct ssdsim__fast *f, uint32_t p)
{
    struct ssdsim__fast_plane *pl = &f->planes[p];
    uint32_t b = pl->free_head;
    assert(b != NONE && f->role[b] == SSDSIM__FAST_FREE && f->valid[b] == 0);
    pl->free_head = f->free_next[b];
    if (pl->free_head == NONE)
        pl->free_tail = NONE;
    pl->n_free--;
    f->n_free_blocks--;
    f->wptr[b] = 0;
    return b;
}

static void put_free(struct ssdsim__fast *f, uint32_t b)
{
    struct ssdsim__fast_plane *pl = &f->planes[block_plane(f, b)];
    f->role[b] = SSDSIM__FAST_FREE;
    f->owner[b] = NONE;
    f->wptr[b] = 0;
    f->free_next[b] = NONE;
    if (pl->free_tail == NONE)
        pl->free_head = b;
    else
        f->free_next[pl->free_tail] = b;
    pl->free_tail = b;
    pl->n_free++;
    f->n_free_blocks++;
}

/* Erase a block none of whose pages is a newest copy; it is free when the erase ends. */
static void erase_block(struct ssdsim__fast *f, uint32_t b)
{
    assert(f->valid[b] == 0);
    f->role[b] = SSDSIM__FAST_ERASING;
    f->owner[b] = NONE;
    f->planes[block_plane(f, b)].n_erasing++;
    ssdsim_ftl_submit(f->env, SSDSIM_FLASH_ERASE, b, 0, SSDSIM_FOR_GC, cookie(TAG_ERASE, 0, b));
}

/* `ppn` becomes the newest copy of `lpn`. */
static void map(struct ssdsim__fast *f, uint32_t lpn, uint32_t ppn)
{
    uint32_t old = f->l2p[lpn];
    if (old != NONE) {
        f->p2l[old] = NONE;
        f->valid[old / f->ppb]--;
    }
    f->l2p[lpn] = ppn;
    f->p2l[ppn] = lpn;
    f->valid[ppn / f->ppb]++;
}

/* Program page k of block b with lpn. Pages of a block are programmed in increasing order. */
static void program(struct ssdsim__fast *f, uint32_t b, uint32_t k, uint32_t lpn,
                    ssdsim_flash_purpose why, uint64_t ck)
{
    assert(k >= f->wptr[b] && k < f->ppb);
    f->wptr[b] = k + 1;
    uint32_t ppn = b * f->ppb + k;
    map(f, lpn, ppn);
    ssdsim_ftl_submit(f->env, SSDSIM_FLASH_PROGRAM, ppn, f->page_size, why, ck);
}

static void host_program(struct ssdsim__fast *f, uint32_t b, uint32_t k, uint32_t lpn, uint32_t io)
{
    ssdsim_ftl_count(f->env, SSDSIM_CNT_HOST_PAGES, 1);
    program(f, b, k, lpn, SSDSIM_FOR_HOST, cookie(TAG_HOST_PROG, 0, io));
}

/* Logical block `lbn` gets data block `b` (a merge ends); the old one is erased. */
static void install(struct ssdsim__fast *f, uint32_t lbn, uint32_t b)
{
    uint32_t old = f->dmap[lbn];
    assert(old != b);
    f->dmap[lbn] = b;
    f->role[b] = SSDSIM__FAST_DATA;
    f->owner[b] = lbn;
    if (old != NONE)
        erase_block(f, old);
    ssdsim_ftl_count(f->env, SSDSIM_CNT_MERGES, 1);
}

/* ---------------------------------------------------------------- log blocks */

static inline uint32_t *sw_slots(struct ssdsim__fast *f, uint32_t p)
{
    return &f->sw_open[(size_t)p * f->sw_max];
}

/* Slot of the open SW log of `lbn` on plane p, or -1. */
static int sw_find(struct ssdsim__fast *f, uint32_t p, uint32_t lbn)
{
    const uint32_t *slots = sw_slots(f, p);
    for (uint32_t i = 0; i < f->sw_max; i++)
        if (slots[i] != NONE && f->owner[slots[i]] == lbn)
            return (int)i;
    return -1;
}

/* Take an open SW log out of service: it waits for its partial merge. */
static void sw_retire(struct ssdsim__fast *f, uint32_t p, uint32_t slot)
{
    struct ssdsim__fast_plane *pl = &f->planes[p];
    uint32_t *slots = sw_slots(f, p);
    uint32_t b = slots[slot];
    slots[slot] = NONE;
    f->role[b] = SSDSIM__FAST_SW_MERGE;
    f->swq[(size_t)p * f->sw_max + (pl->swq_head + pl->swq_n) % f->sw_max] = b;
    pl->swq_n++;
}

/* The SW log in `slot` holds every page of its logical block: switch merge. */
static void switch_merge(struct ssdsim__fast *f, uint32_t p, uint32_t slot)
{
    uint32_t *slots = sw_slots(f, p);
    uint32_t b = slots[slot];
    slots[slot] = NONE;
    f->planes[p].n_sw_blocks--;
    f->n_switch++;
    install(f, f->owner[b], b);
}

/* Is a merge of `lbn` running or queued on plane p? Its SW log cannot be reopened meanwhile:
 * the merge decides what its data block is. */
static bool lbn_busy(const struct ssdsim__fast *f, uint32_t p, uint32_t lbn)
{
    const struct ssdsim__fast_plane *pl = &f->planes[p];
    if (pl->m_kind != SSDSIM__FAST_NO_MERGE && pl->m_lbn == lbn)
        return true;
    for (uint32_t i = 0; i < pl->swq_n; i++)
        if (f->owner[f->swq[(size_t)p * f->sw_max + (pl->swq_head + i) % f->sw_max]] == lbn)
            return true;
    return false;
}

/* Place a host write of `lpn` (plane p) now, or return false if it must wait for a merge or an
 * erase. Whatever it starts that could free what it needs at once is retried here, so no wakeup
 * is lost: every later change (a merge ends, an erase ends, a victim is erased) calls unstall. */
static bool try_place(struct ssdsim__fast *f, uint32_t p, uint32_t io, uint32_t lpn)
{
    struct ssdsim__fast_plane *pl = &f->planes[p];
    uint32_t lbn = lpn / f->ppb, k = lpn % f->ppb;
    uint32_t *slots = sw_slots(f, p);
    for (;;) {
        int i = sw_find(f, p, lbn);
        if (i >= 0 && f->wptr[slots[i]] == k) {
            /* continues the sequence of its SW log */
            host_program(f, slots[i], k, lpn, io);
            if (k + 1 == f->ppb)
                switch_merge(f, p, (uint32_t)i);
            return true;
        }
        if (k == 0) {
            /* a new SW log for lbn, after the merge of its current one */
            if (lbn_busy(f, p, lbn))
                return false;
            if (i >= 0) {
                sw_retire(f, p, (uint32_t)i);
                kick(f, p);
                continue;
            }
            if (pl->n_sw_blocks >= f->sw_max) {
                int oldest = -1;
                for (uint32_t s = 0; s < f->sw_max; s++)
                    if (slots[s] != NONE &&
                        (oldest < 0 || f->sw_opened[(size_t)p * f->sw_max + s] <
                                           f->sw_opened[(size_t)p * f->sw_max + oldest]))
                        oldest = (int)s;
                if (oldest < 0)
                    return false; /* every SW log is being merged */
                sw_retire(f, p, (uint32_t)oldest);
                kick(f, p);
                continue;
            }
            if (pl->n_free == 0)
                return false;
            uint32_t s = 0;
            while (slots[s] != NONE)
                s++;
            uint32_t b = take_free(f, p);
            f->role[b] = SSDSIM__FAST_SW;
            f->owner[b] = lbn;
            slots[s] = b;
            f->sw_opened[(size_t)p * f->sw_max + s] = f->sw_clock++;
            pl->n_sw_blocks++;
            host_program(f, b, 0, lpn, io);
            if (f->ppb == 1)
                switch_merge(f, p, s);
            return true;
        }
        /* the newest RW log block */
        uint32_t *ring = &f->rw_ring[(size_t)p * f->rw_max];
        if (pl->rw_n > 0) {
            uint32_t cur = ring[(pl->rw_head + pl->rw_n - 1) % f->rw_max];
            if (f->wptr[cur] < f->ppb) {
                host_program(f, cur, f->wptr[cur], lpn, io);
                return true;
            }
        }
        if (pl->rw_n + (pl->victim != NONE) < f->rw_max) {
            if (pl->n_free == 0)
                return false;
            uint32_t b = take_free(f, p);
            f->role[b] = SSDSIM__FAST_RW;
            f->owner[b] = NONE;
            ring[(pl->rw_head + pl->rw_n) % f->rw_max] = b;
            pl->rw_n++;
            host_program(f, b, 0, lpn, io);
            return true;
        }
        if (pl->victim != NONE)
            return false; /* the reclaim of the oldest is under way */
        /* every RW log block is full: reclaim the oldest */
        pl->victim = ring[pl->rw_head];
        pl->victim_cursor = 0;
        pl->rw_head = (pl->rw_head + 1) % f->rw_max;
        pl->rw_n--;
        kick(f, p);
    }
}

/* A host unit write, its old data read if it was partial: place it, or queue it behind the
 * writes of its plane that wait already. */
static int host_place(struct ssdsim__fast *f, uint32_t io, uint32_t lpn)
{
    uint32_t p = ssdsim__fast_lbn_plane(f, lpn / f->ppb);
    struct ssdsim__fast_plane *pl = &f->planes[p];
    if (pl->stall.n == 0 && try_place(f, p, io, lpn))
        return 0;
    if (!ssdsim__pending_fifo_push(&pl->stall, (struct ssdsim__pending){.io = io, .lpn = lpn},
                                   64)) {
        ssdsim_ftl_fail(f->env, SSDSIM_ENOMEM, "out of memory queueing writes");
        return SSDSIM_ENOMEM;
    }
    return 0;
}

/* Place the waiting writes of plane p that can go now, in order. A call made while this runs
 * (a merge ended inside try_place) makes it look again. */
static void unstall(struct ssdsim__fast *f, uint32_t p)
{
    struct ssdsim__fast_plane *pl = &f->planes[p];
    if (pl->unstalling) {
        pl->unstall_again = true;
        return;
    }
    pl->unstalling = true;
    do {
        pl->unstall_again = false;
        while (pl->stall.n) {
            struct ssdsim__pending w = ssdsim__pending_fifo_front(&pl->stall);
            if (!try_place(f, p, w.io, w.lpn))
                break;
            ssdsim__pending_fifo_pop(&pl->stall);
        }
    } while (pl->unstall_again && pl->stall.n);
    pl->unstalling = false;
}

/* ---------------------------------------------------------------- merges */

/* The merge of plane p has placed its last copy: the destination becomes the data block. */
static void merge_finish(struct ssdsim__fast *f, uint32_t p)
{
    struct ssdsim__fast_plane *pl = &f->planes[p];
    uint32_t lbn = pl->m_lbn, dst = pl->m_dst, held = pl->m_held;
    if (pl->m_kind == SSDSIM__FAST_PARTIAL) {
        pl->n_sw_blocks--;
        f->n_partial++;
    } else {
        f->n_full++;
    }
    pl->m_kind = SSDSIM__FAST_NO_MERGE;
    pl->m_held = NONE;
    install(f, lbn, dst);
    if (held != NONE) {
        pl->n_sw_blocks--;
        erase_block(f, held);
    }
    unstall(f, p);
}

/* Program the copies of plane p's merge whose reads have returned, in page order. */
static void merge_advance(struct ssdsim__fast *f, uint32_t p)
{
    struct ssdsim__fast_plane *pl = &f->planes[p];
    const uint32_t *src = &f->m_src[(size_t)p * f->ppb];
    const uint8_t *st = &f->m_st[(size_t)p * f->ppb];
    bool full = pl->m_kind == SSDSIM__FAST_FULL;
    for (; pl->m_next < f->ppb; pl->m_next++) {
        uint32_t k = pl->m_next;
        if (st[k] == CP_READING)
            return;
        uint32_t lpn = pl->m_lbn * f->ppb + k;
        if (st[k] == CP_READY && f->p2l[src[k]] == lpn) {
            program(f, pl->m_dst, k, lpn, SSDSIM_FOR_GC, cookie(TAG_GC_PROG, 0, p));
            ssdsim_ftl_count(f->env, SSDSIM_CNT_GC_COPIES, 1);
            if (full)
                f->copies_full++;
            else
                f->copies_partial++;
        }
    }
    merge_finish(f, p);
}

/* Read the page at offset k of the merge in progress from `src`. */
static void merge_read(struct ssdsim__fast *f, uint32_t p, uint32_t k, uint32_t src)
{
    f->m_src[(size_t)p * f->ppb + k] = src;
    f->m_st[(size_t)p * f->ppb + k] = CP_READING;
    ssdsim_ftl_submit(f->env, SSDSIM_FLASH_READ, src, f->page_size, SSDSIM_FOR_GC,
                      cookie(TAG_GC_READ, k, p));
}

/* Partial merge of the retired SW log b: the pages it lacks whose newest copy is in the data
 * block are copied into it (a newer copy in an RW log stays there). */
static void partial_start(struct ssdsim__fast *f, uint32_t p, uint32_t b)
{
    struct ssdsim__fast_plane *pl = &f->planes[p];
    uint32_t lbn = f->owner[b], data = f->dmap[lbn];
    pl->m_kind = SSDSIM__FAST_PARTIAL;
    pl->m_lbn = lbn;
    pl->m_dst = b;
    pl->m_held = NONE;
    pl->m_next = f->wptr[b];
    uint8_t *st = &f->m_st[(size_t)p * f->ppb];
    for (uint32_t k = pl->m_next; k < f->ppb; k++) {
        st[k] = CP_NONE;
        uint64_t lpn = (uint64_t)lbn * f->ppb + k;
        uint32_t src = lpn < f->n_lpn ? f->l2p[lpn] : NONE;
        if (data != NONE && src != NONE && src / f->ppb == data)
            merge_read(f, p, k, src);
    }
    merge_advance(f, p);
}

/* Full merge of `lbn` into a free block: every page's newest copy, wherever it is. An open SW
 * log of lbn is one of the sources and is erased with the old data block. */
static void full_start(struct ssdsim__fast *f, uint32_t p, uint32_t lbn)
{
    struct ssdsim__fast_plane *pl = &f->planes[p];
    uint32_t dst = take_free(f, p);
    f->role[dst] = SSDSIM__FAST_DST;
    f->owner[dst] = lbn;
    pl->m_kind = SSDSIM__FAST_FULL;
    pl->m_lbn = lbn;
    pl->m_dst = dst;
    pl->m_held = NONE;
    pl->m_next = 0;
    int i = sw_find(f, p, lbn);
    if (i >= 0) {
        uint32_t *slots = sw_slots(f, p);
        pl->m_held = slots[i];
        slots[i] = NONE;
        f->role[pl->m_held] = SSDSIM__FAST_SW_MERGE;
    }
    uint8_t *st = &f->m_st[(size_t)p * f->ppb];
    for (uint32_t k = 0; k < f->ppb; k++) {
        st[k] = CP_NONE;
        uint64_t lpn = (uint64_t)lbn * f->ppb + k;
        uint32_t src = lpn < f->n_lpn ? f->l2p[lpn] : NONE;
        if (src != NONE)
            merge_read(f, p, k, src);
    }
    merge_advance(f, p);
}

/* Start plane p's next piece of merge work, if it has one and can: SW merges first, then the
 * next logical block of the RW victim, then the victim's erase. Returns whether it did
 * anything. */
static bool merge_next(struct ssdsim__fast *f, uint32_t p)
{
    struct ssdsim__fast_plane *pl = &f->planes[p];
    if (pl->swq_n) {
        uint32_t b = f->swq[(size_t)p * f->sw_max + pl->swq_head];
        pl->swq_head = (pl->swq_head + 1) % f->sw_max;
        pl->swq_n--;
        if (f->valid[b] == 0) {
            /* every page it holds was rewritten since: nothing to merge */
            pl->n_sw_blocks--;
            erase_block(f, b);
            unstall(f, p);
        } else {
            partial_start(f, p, b);
        }
        return true;
    }
    uint32_t v = pl->victim;
    if (v == NONE)
        return false;
    const uint32_t *pages = &f->p2l[(size_t)v * f->ppb];
    while (pl->victim_cursor < f->ppb && pages[pl->victim_cursor] == NONE)
        pl->victim_cursor++;
    if (pl->victim_cursor == f->ppb) {
        /* Every logical block it held a page of is merged: its pages are all invalid. Pages
         * before the cursor cannot become valid again (a full log is never written), so the
         * scan never goes back. */
        pl->victim = NONE;
        erase_block(f, v);
        unstall(f, p);
        return true;
    }
    if (pl->n_free == 0) {
        /* create() made sure that blocks being erased cover this */
        if (pl->n_erasing == 0) {
            char msg[128];
            snprintf(msg, sizeof msg, "FAST: plane %u has no free block for a full merge", p);
            ssdsim_ftl_fail(f->env, SSDSIM_ESTATE, msg);
        }
        return false; /* the end of an erase calls again */
    }
    full_start(f, p, pages[pl->victim_cursor] / f->ppb);
    return true;
}

/* Run plane p's merge work until it waits for flash. A call made while this runs (from inside
 * a merge that ended at once) makes it look again. */
static void kick(struct ssdsim__fast *f, uint32_t p)
{
    struct ssdsim__fast_plane *pl = &f->planes[p];
    if (pl->kicking) {
        pl->kick_again = true;
        return;
    }
    pl->kicking = true;
    do {
        pl->kick_again = false;
        while (pl->m_kind == SSDSIM__FAST_NO_MERGE && merge_next(f, p))
            ;
    } while (pl->kick_again);
    pl->kicking = false;
}

static void merge_read_done(struct ssdsim__fast *f, uint32_t p, uint32_t k)
{
    assert(f->planes[p].m_kind != SSDSIM__FAST_NO_MERGE);
    f->m_st[(size_t)p * f->ppb + k] = CP_READY;
    merge_advance(f, p);
    kick(f, p);
}

static void erase_done(struct ssdsim__fast *f, uint32_t b)
{
    uint32_t p = block_plane(f, b);
    f->planes[p].n_erasing--;
    put_free(f, b);
    kick(f, p); /* merges first: they free blocks */
    unstall(f, p);
}

/* ---------------------------------------------------------------- host requests */

static int fast_read(void *state, uint32_t io, uint64_t lpn, uint32_t bytes)
{
    struct ssdsim__fast *f = state;
    return ssdsim__ftl_host_read(f->env, f->l2p[lpn], io, bytes, cookie(TAG_HOST_READ, bytes, io));
}

static int fast_write(void *state, uint32_t io, uint64_t lpn, uint32_t bytes)
{
    struct ssdsim__fast *f = state;
    uint32_t ppn = f->l2p[lpn];
    if (bytes < f->page_size && ppn != NONE) {
        /* The rest of the unit must be read before the whole unit is programmed again. */
        uint32_t slot = ssdsim__pending_pool_add(
            &f->rmw, (struct ssdsim__pending){.io = io, .lpn = (uint32_t)lpn});
        if (slot == NONE)
            return SSDSIM_ENOMEM;
        return ssdsim_ftl_submit(f->env, SSDSIM_FLASH_READ, ppn, f->page_size, SSDSIM_FOR_HOST_RMW,
                                 cookie(TAG_RMW_READ, 0, slot));
    }
    return host_place(f, io, (uint32_t)lpn);
}

static void fast_trim(void *state, uint64_t lpn)
{
    struct ssdsim__fast *f = state;
    uint32_t ppn = f->l2p[lpn];
    if (ppn != NONE) {
        f->p2l[ppn] = NONE;
        f->valid[ppn / f->ppb]--;
        f->l2p[lpn] = NONE;
    }
}

static void fast_flash_done(void *state, uint64_t ck)
{
    struct ssdsim__fast *f = state;
    uint32_t low = ssdsim__cookie_low(ck), mid = ssdsim__cookie_mid(ck);
    switch ((enum op_tag)ssdsim__cookie_tag(ck)) {
    case TAG_HOST_READ:
    case TAG_HOST_PROG:
        ssdsim__ftl_host_done(f->env, ck);
        break;
    case TAG_RMW_READ: {
        struct ssdsim__pending w = ssdsim__pending_pool_take(&f->rmw, low);
        host_place(f, w.io, w.lpn);
        break;
    }
    case TAG_GC_READ:
        merge_read_done(f, low, mid);
        break;
    case TAG_GC_PROG:
        break;
    case TAG_ERASE:
        erase_done(f, low);
        break;
    default:
        ssdsim_ftl_fail(f->env, SSDSIM_ESTATE, "FAST FTL: unknown flash operation completed");
    }
}

static uint64_t fast_free_blocks(void *state)
{
    return ((struct ssdsim__fast *)state)->n_free_blocks;
}

static uint64_t fast_lookup(void *state, uint64_t lpn)
{
    struct ssdsim__fast *f = state;
    return lpn < f->n_lpn && f->l2p[lpn] != NONE ? f->l2p[lpn] : UINT64_MAX;
}

static void fast_prefetch(void *state, uint64_t lpn)
{
    struct ssdsim__fast *f = state;
    __builtin_prefetch(&f->l2p[lpn], 1, 3);
}

/* ---------------------------------------------------------------- set-up */

static void fast_destroy(void *state)
{
    struct ssdsim__fast *f = state;
    for (uint32_t p = 0; f->planes && p < f->n_planes; p++)
        ssdsim__pending_fifo_fini(&f->planes[p].stall);
    free(f->planes);
    free(f->stripe);
    free(f->l2p);
    free(f->p2l);
    free(f->dmap);
    free(f->role);
    free(f->owner);
    free(f->wptr);
    free(f->valid);
    free(f->free_next);
    free(f->rw_ring);
    free(f->sw_open);
    free(f->sw_opened);
    free(f->swq);
    free(f->m_src);
    free(f->m_st);
    ssdsim__pending_pool_fini(&f->rmw);
}

static int fast_create(void *state, ssdsim_ftl_env *env, const double *params, char *errbuf,
                       size_t errlen)
{
    struct ssdsim__fast *f = state;
    const ssdsim_geometry *g = ssdsim_ftl_geometry(env);
    f->env = env;
    f->ppb = g->pages_per_block;
    f->bpp = g->blocks_per_plane;
    f->n_planes = g->n_planes;
    f->page_size = g->page_size;
    f->n_blocks = g->n_blocks;
    f->n_ppn = g->n_pages;
    f->n_lpn = g->logical_pages;
    ssdsim__pending_pool_init(&f->rmw);
    /* The host addresses logical_pages units; a last logical block that they cover only in
     * part is a whole logical block all the same (its tail is never written). */
    f->n_lbn = (uint32_t)((f->n_lpn + f->ppb - 1) / f->ppb);
    f->sw_max = (uint32_t)params[1];

    /* Blocks a plane needs: a data block for each of its logical blocks, its RW and SW logs,
     * and the block a full merge fills before the old data block is erased (fast.c's header
     * comment counts them). */
    uint32_t lbn_max = (f->n_lbn + f->n_planes - 1) / f->n_planes;
    int64_t spare = (int64_t)f->bpp - lbn_max;
    int64_t rw = params[0] > 0 ? (int64_t)params[0] : spare - f->sw_max - 1;
    if (rw < 1 || (int64_t)lbn_max + rw + f->sw_max + 1 > (int64_t)f->bpp) {
        bool all = params[0] == 0;
        if (all)
            rw = 1;
        snprintf(errbuf, errlen,
                 "ftl.op %g leaves %lld spare blocks per plane (%u blocks, %u logical blocks on "
                 "the fullest plane); FAST needs %s%lld random-write log block%s "
                 "(ftl.log_blocks%s) + %u sequential log block%s (ftl.seq_log_blocks) + 1 for "
                 "merges = %lld",
                 g->op, (long long)spare, f->bpp, lbn_max, all ? "at least " : "", (long long)rw,
                 rw == 1 ? "" : "s", all ? " = 0 takes all there is" : "", f->sw_max,
                 f->sw_max == 1 ? "" : "s", (long long)(rw + f->sw_max + 1));
        return SSDSIM_ECONFIG;
    }
    f->rw_max = (uint32_t)rw;

    uint64_t nb = f->n_blocks, np = f->n_planes;
    f->stripe = malloc(sizeof *f->stripe * np);
    f->l2p = malloc(sizeof *f->l2p * f->n_lpn);
    f->p2l = malloc(sizeof *f->p2l * f->n_ppn);
    f->dmap = malloc(sizeof *f->dmap * f->n_lbn);
    f->role = calloc(nb, sizeof *f->role);
    f->owner = malloc(sizeof *f->owner * nb);
    f->wptr = calloc(nb, sizeof *f->wptr);
    f->valid = calloc(nb, sizeof *f->valid);
    f->free_next = malloc(sizeof *f->free_next * nb);
    f->rw_ring = malloc(sizeof *f->rw_ring * np * f->rw_max);
    f->sw_open = malloc(sizeof *f->sw_open * np * f->sw_max);
    f->sw_opened = calloc(np * f->sw_max, sizeof *f->sw_opened);
    f->swq = malloc(sizeof *f->swq * np * f->sw_max);
    f->m_src = malloc(sizeof *f->m_src * np * f->ppb);
    f->m_st = calloc(np * f->ppb, sizeof *f->m_st);
    f->planes = calloc(np, sizeof *f->planes);
    if (!f->stripe || !f->l2p || !f->p2l || !f->dmap || !f->role || !f->owner || !f->wptr ||
        !f->valid || !f->free_next || !f->rw_ring || !f->sw_open || !f->sw_opened || !f->swq ||
        !f->m_src || !f->m_st || !f->planes)
        return SSDSIM_ENOMEM;
    memset(f->l2p, 0xff, sizeof *f->l2p * f->n_lpn);
    memset(f->p2l, 0xff, sizeof *f->p2l * f->n_ppn);
    memset(f->dmap, 0xff, sizeof *f->dmap * f->n_lbn);
    memset(f->owner, 0xff, sizeof *f->owner * nb);
    memset(f->sw_open, 0xff, sizeof *f->sw_open * np * f->sw_max);

    /* Stripe index i -> plane: channel i % channels first, then chip, die, plane. */
    for (uint32_t i = 0; i < f->n_planes; i++)
        f->stripe[i] = ssdsim__ftl_stripe_plane(g, i);

    /* Secure-erased: every block free, in address order on its plane's free list. */
    for (uint32_t p = 0; p < f->n_planes; p++) {
        struct ssdsim__fast_plane *pl = &f->planes[p];
        uint32_t first = p * f->bpp;
        for (uint32_t b = 0; b < f->bpp; b++)
            f->free_next[first + b] = b + 1 < f->bpp ? first + b + 1 : NONE;
        pl->free_head = first;
        pl->free_tail = first + f->bpp - 1;
        pl->n_free = f->bpp;
        pl->victim = pl->m_lbn = pl->m_dst = pl->m_held = NONE;
    }
    f->n_free_blocks = nb;
    return 0;
}

/* ---------------------------------------------------------------- inspection */

static int fast_fail(char *why, size_t len, const char *fmt, ...) SSDSIM__PRINTF(3, 4);
static int fast_fail(char *why, size_t len, const char *fmt, ...)
{
    if (why && len) {
        int n = snprintf(why, len, "FAST check: ");
        va_list ap;
        va_start(ap, fmt);
        if (n >= 0 && (size_t)n < len)
            vsnprintf(why + n, len - (size_t)n, fmt, ap);
        va_end(ap);
    }
    return SSDSIM_ESTATE;
}

#define FAIL(...) return fast_fail(why, len, __VA_ARGS__)

int ssdsim__fast_check_why(const void *state, char *why, size_t len)
{
    const struct ssdsim__fast *f = state;
    /* Each mapped logical page: its newest copy points back at it, on its plane, below the
     * block's write pointer, in a place FAST allows. */
    for (uint64_t lpn = 0; lpn < f->n_lpn; lpn++) {
        uint32_t ppn = f->l2p[lpn];
        if (ppn == NONE)
            continue;
        if (ppn >= f->n_ppn || f->p2l[ppn] != lpn)
            FAIL("l2p[%llu] = page %u, whose p2l is %u", (unsigned long long)lpn, ppn,
                 ppn < f->n_ppn ? f->p2l[ppn] : NONE);
        uint32_t b = ppn / f->ppb, k = ppn % f->ppb, lbn = (uint32_t)(lpn / f->ppb);
        if (block_plane(f, b) != ssdsim__fast_lbn_plane(f, lbn))
            FAIL("logical page %llu is in block %u of plane %u; its logical block %u is on "
                 "plane %u",
                 (unsigned long long)lpn, b, block_plane(f, b), lbn,
                 ssdsim__fast_lbn_plane(f, lbn));
        if (k >= f->wptr[b] || f->wptr[b] > f->ppb)
            FAIL("logical page %llu is at page %u of block %u, whose write pointer is %u",
                 (unsigned long long)lpn, k, b, f->wptr[b]);
        switch (f->role[b]) {
        case SSDSIM__FAST_DATA:
            if (f->dmap[lbn] != b)
                FAIL("logical page %llu is in data block %u; logical block %u's data block is "
                     "%u",
                     (unsigned long long)lpn, b, lbn, f->dmap[lbn]);
            /* fall through */
        case SSDSIM__FAST_SW:
        case SSDSIM__FAST_SW_MERGE:
        case SSDSIM__FAST_DST:
            if (f->owner[b] != lbn || k != lpn % f->ppb)
                FAIL("logical page %llu is at offset %u of block %u (role %u) owned by logical "
                     "block %u",
                     (unsigned long long)lpn, k, b, f->role[b], f->owner[b]);
            break;
        case SSDSIM__FAST_RW:
            break;
        default:
            FAIL("logical page %llu is in block %u, which is free or being erased",
                 (unsigned long long)lpn, b);
        }
    }
    /* Each valid physical page is the newest copy of its logical page: so every newest copy is
     * found exactly once. Valid counts add up. */
    for (uint64_t b = 0; b < f->n_blocks; b++) {
        uint32_t v = 0;
        for (uint32_t i = 0; i < f->ppb; i++) {
            uint32_t lpn = f->p2l[b * f->ppb + i];
            if (lpn == NONE)
                continue;
            if (lpn >= f->n_lpn || f->l2p[lpn] != b * f->ppb + i)
                FAIL("p2l of block %llu page %u is %u, whose l2p is %u", (unsigned long long)b,
                     i, lpn, lpn < f->n_lpn ? f->l2p[lpn] : NONE);
            v++;
        }
        if (v != f->valid[b])
            FAIL("block %llu holds %u newest copies; its valid count says %u",
                 (unsigned long long)b, v, f->valid[b]);
    }
    /* The block map and the data blocks agree. */
    for (uint32_t lbn = 0; lbn < f->n_lbn; lbn++) {
        uint32_t b = f->dmap[lbn];
        if (b != NONE &&
            (b >= f->n_blocks || f->role[b] != SSDSIM__FAST_DATA || f->owner[b] != lbn ||
             block_plane(f, b) != ssdsim__fast_lbn_plane(f, lbn)))
            FAIL("logical block %u's data block is %u (role %u, owner %u)", lbn, b,
                 b < f->n_blocks ? f->role[b] : 0, b < f->n_blocks ? f->owner[b] : NONE);
    }
    /* Per plane: blocks by role against the plane's lists, counters and limits. */
    uint64_t n_free_all = 0;
    for (uint32_t p = 0; p < f->n_planes; p++) {
        const struct ssdsim__fast_plane *pl = &f->planes[p];
        uint32_t n[SSDSIM__FAST_ERASING + 1] = {0};
        for (uint32_t i = 0; i < f->bpp; i++) {
            uint32_t b = p * f->bpp + i;
            if (f->role[b] > SSDSIM__FAST_ERASING)
                FAIL("block %u has role %u", b, f->role[b]);
            n[f->role[b]]++;
            if (f->role[b] == SSDSIM__FAST_DATA &&
                (f->owner[b] >= f->n_lbn || f->dmap[f->owner[b]] != b))
                FAIL("data block %u's owner %u maps to another block", b, f->owner[b]);
            if ((f->role[b] == SSDSIM__FAST_FREE || f->role[b] == SSDSIM__FAST_ERASING) &&
                f->valid[b] != 0)
                FAIL("block %u is %s and holds %u newest copies", b,
                     f->role[b] == SSDSIM__FAST_FREE ? "free" : "being erased", f->valid[b]);
        }
        uint32_t listed = 0, last = NONE;
        for (uint32_t b = pl->free_head; b != NONE; b = f->free_next[b]) {
            if (b / f->bpp != p || f->role[b] != SSDSIM__FAST_FREE || ++listed > f->bpp)
                FAIL("plane %u's free list holds block %u (role %u) or has a cycle", p, b,
                     b < f->n_blocks ? f->role[b] : 0);
            last = b;
        }
        if (listed != pl->n_free || n[SSDSIM__FAST_FREE] != pl->n_free || last != pl->free_tail)
            FAIL("plane %u: %u blocks on its free list (tail %u), %u free, n_free %u (tail %u)",
                 p, listed, last, n[SSDSIM__FAST_FREE], pl->n_free, pl->free_tail);
        if (n[SSDSIM__FAST_ERASING] != pl->n_erasing)
            FAIL("plane %u: %u blocks being erased; its count says %u", p,
                 n[SSDSIM__FAST_ERASING], pl->n_erasing);
        if (n[SSDSIM__FAST_RW] != pl->rw_n + (pl->victim != NONE) ||
            n[SSDSIM__FAST_RW] > f->rw_max)
            FAIL("plane %u: %u RW log blocks; its ring holds %u, victim %u, at most %u", p,
                 n[SSDSIM__FAST_RW], pl->rw_n, pl->victim, f->rw_max);
        for (uint32_t i = 0; i < pl->rw_n; i++) {
            uint32_t b = f->rw_ring[(size_t)p * f->rw_max + (pl->rw_head + i) % f->rw_max];
            if (b / f->bpp != p || f->role[b] != SSDSIM__FAST_RW || b == pl->victim)
                FAIL("plane %u's RW ring holds block %u (role %u)", p, b,
                     b < f->n_blocks ? f->role[b] : 0);
        }
        if (pl->victim != NONE && (pl->victim / f->bpp != p || f->role[pl->victim] != SSDSIM__FAST_RW))
            FAIL("plane %u's RW victim is block %u (role %u)", p, pl->victim,
                 pl->victim < f->n_blocks ? f->role[pl->victim] : 0);
        if (n[SSDSIM__FAST_SW] + n[SSDSIM__FAST_SW_MERGE] != pl->n_sw_blocks ||
            pl->n_sw_blocks > f->sw_max)
            FAIL("plane %u: %u SW and %u retired SW log blocks; its count says %u, at most %u",
                 p, n[SSDSIM__FAST_SW], n[SSDSIM__FAST_SW_MERGE], pl->n_sw_blocks, f->sw_max);
        uint32_t open_sw = 0;
        for (uint32_t i = 0; i < f->sw_max; i++) {
            uint32_t b = f->sw_open[(size_t)p * f->sw_max + i];
            if (b == NONE)
                continue;
            if (b / f->bpp != p || f->role[b] != SSDSIM__FAST_SW)
                FAIL("plane %u's SW slot %u holds block %u (role %u)", p, i, b,
                     b < f->n_blocks ? f->role[b] : 0);
            open_sw++;
        }
        if (open_sw != n[SSDSIM__FAST_SW])
            FAIL("plane %u: %u SW log blocks, %u in its slots", p, n[SSDSIM__FAST_SW], open_sw);
        for (uint32_t i = 0; i < pl->swq_n; i++) {
            uint32_t b = f->swq[(size_t)p * f->sw_max + (pl->swq_head + i) % f->sw_max];
            if (b / f->bpp != p || f->role[b] != SSDSIM__FAST_SW_MERGE)
                FAIL("plane %u's partial-merge queue holds block %u (role %u)", p, b,
                     b < f->n_blocks ? f->role[b] : 0);
        }
        if (n[SSDSIM__FAST_DST] != (pl->m_kind == SSDSIM__FAST_FULL))
            FAIL("plane %u: %u blocks receive a full merge; merge kind %u", p,
                 n[SSDSIM__FAST_DST], pl->m_kind);
        if (pl->m_kind == SSDSIM__FAST_FULL &&
            (pl->m_dst >= f->n_blocks || f->role[pl->m_dst] != SSDSIM__FAST_DST))
            FAIL("plane %u's full merge fills block %u (role %u)", p, pl->m_dst,
                 pl->m_dst < f->n_blocks ? f->role[pl->m_dst] : 0);
        n_free_all += pl->n_free;
    }
    if (n_free_all != f->n_free_blocks)
        FAIL("%llu free blocks on the planes; the device count says %llu",
             (unsigned long long)n_free_all, (unsigned long long)f->n_free_blocks);
    return 0;
}

#undef FAIL

int ssdsim__fast_check(const void *state)
{
    return ssdsim__fast_check_why(state, NULL, 0);
}

static int fast_check_method(void *state, char *why, size_t len)
{
    return ssdsim__fast_check_why(state, why, len);
}

static const ssdsim_param fast_params[] = {
    {"log_blocks", SSDSIM_PARAM_INT, 0, 0, 1e6,
     "random-write log blocks per plane; 0: all the over-provisioning leaves"},
    {"seq_log_blocks", SSDSIM_PARAM_INT, 1, 1, 16, "sequential-write log blocks per plane"},
    {NULL, 0, 0, 0, 0, NULL},
};

const ssdsim_ftl_ops ssdsim__ftl_fast_ops = {
    .abi_version = SSDSIM_PLUGIN_ABI_VERSION,
    .struct_size = sizeof(ssdsim_ftl_ops),
    .name = "fast",
    .summary = "hybrid log-block mapping (FAST): block-mapped data blocks, sequential and "
               "fully associative random-write log blocks, switch, partial and full merges",
    .state_size = sizeof(struct ssdsim__fast),
    .params = fast_params,
    .create = fast_create,
    .destroy = fast_destroy,
    .read = fast_read,
    .write = fast_write,
    .trim = fast_trim,
    .flash_done = fast_flash_done,
    .idle = NULL,
    .free_blocks = fast_free_blocks,
    .lookup = fast_lookup,
    .prefetch = fast_prefetch,
    .check = fast_check_method,
};
