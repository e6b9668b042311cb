/* page_check.c: the consistency check of the page FTL and DFTL (ssdsim_check, tests): every
 * structure of ftl/page.h against the others, and against the flash operations in flight.
 *
 *   mapping      l2p and p2l are inverse (both ways); each block's valid count is the number of
 *                p2l entries set in it; a free block, and the pages of an open block beyond its
 *                frontier's pointer, hold nothing;
 *   blocks       the free lists hold exactly the free blocks of their plane (counts, tails,
 *                no cycle); the open blocks are exactly the frontier blocks with room; the
 *                victims are exactly the planes' victims; the closed blocks are exactly the GC
 *                candidates: the sampling array and its index, the close-order list (oldest
 *                first), each valid-count bucket (its blocks have that count) and the hint
 *                below which buckets are empty;
 *   in flight    a victim has one copy read in flight per page still valid in it (at least),
 *                and an erase only when it has none; each translation page whose write-back is
 *                pending has exactly one: its read in flight or its program stalled; each one
 *                whose requests wait has exactly one load read in flight;
 *   DFTL's CMT   slot_of and lpn are inverse; the LRU list and the per-translation-page lists
 *                hold every cached slot once; an entry that is not dirty in the CMT (clean or
 *                not cached) equals its translation page in flash unless that page's write-back
 *                is pending or waits for the end of a victim whose moves updated it
 *                (this needs the shadow of the translation pages, which a check starts when no
 *                translation page was ever written: a check enabled at the start of a run);
 *                the GTD (l2p beyond the data pages) points at the valid page of each written
 *                translation page (the mapping check), and the wait pool's free list and the
 *                waiting requests account for every entry.
 * O(pages + blocks + CMT + operations in flight) time; allocates small per-plane and
 * per-translation-page counters.
 */
#include "ftl/page_int.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int ssdsim__page_check_fail(char *why, size_t len, const char *fmt, ...)
{
    if (why && len) {
        int n = snprintf(why, len, "%s", "page FTL check: ");
        va_list ap;
        va_start(ap, fmt);
        if (n >= 0 && (size_t)n < len)
            vsnprintf(why + n, len - (size_t)n, fmt, ap);
        va_end(ap);
    }
    return SSDSIM_ESTATE;
}

#define FAIL(...) return ssdsim__page_check_fail(why, len, __VA_ARGS__)

static const char *const state_names[] = {"free", "open", "closed", "victim", "slc", "bad"};

static const char *state_name(uint8_t s)
{
    return s < 6 ? state_names[s] : "unknown";
}

/* ---------------------------------------------------------------- mapping and blocks */

static int check_mapping(const struct ssdsim__ftl *f, char *why, size_t len)
{
    uint64_t total = 0;
    for (uint64_t lpn = 0; lpn < f->n_map; lpn++) {
        uint32_t ppn = f->l2p[lpn];
        if (ppn == NONE)
            continue;
        if (ppn >= f->n_ppn)
            FAIL("l2p[%llu] = %u is beyond the %llu pages", (unsigned long long)lpn, ppn,
                 (unsigned long long)f->n_ppn);
        if (p2l_get(f, ppn) != lpn)
            FAIL("l2p[%llu] = page %u, whose p2l is %u%s", (unsigned long long)lpn, ppn,
                 f->p2l[ppn], p2l_get(f, ppn) == NONE ? ", marked not valid" : "");
    }
    for (uint64_t b = 0; b < f->geo->n_blocks; b++) {
        uint32_t v = 0, plane = (uint32_t)(b / f->bpp);
        uint32_t written = f->ppb; /* pages that may hold data */
        if (f->state[b] == SSDSIM__BLK_FREE || f->state[b] == SSDSIM__BLK_BAD)
            written = 0;
        else if (f->state[b] == SSDSIM__BLK_SLC && f->slc)
            written = ssdsim__page_slc_written(f, (uint32_t)b);
        for (uint32_t fr = 0; f->state[b] == SSDSIM__BLK_OPEN && fr < f->n_fr; fr++)
            if (f->planes[plane].blk[fr] == b && f->planes[plane].ptr[fr] < f->ppb)
                written = f->planes[plane].ptr[fr];
        for (uint32_t i = 0; i < f->ppb; i++) {
            uint64_t ppn = b * f->ppb + i;
            uint32_t lpn = p2l_get(f, ppn);
            if (lpn == NONE)
                continue;
            if (lpn >= f->n_map || f->l2p[lpn] != ppn)
                FAIL("p2l[%llu] = %u (block %llu page %u), whose l2p is %u",
                     (unsigned long long)ppn, lpn, (unsigned long long)b, i,
                     lpn < f->n_map ? f->l2p[lpn] : NONE);
            if (i >= written)
                FAIL("block %llu (%s) holds logical page %u at page %u, beyond its %u written "
                     "pages",
                     (unsigned long long)b, state_name(f->state[b]), lpn, i, written);
            v++;
        }
        if (v != f->valid[b])
            FAIL("block %llu has %u valid pages; its valid count says %u", (unsigned long long)b,
                 v, f->valid[b]);
        total += v;
    }
    if (total != f->n_valid)
        FAIL("%llu valid pages on the device; its count says %llu", (unsigned long long)total,
             (unsigned long long)f->n_valid);
    return 0;
}

static int check_planes(const struct ssdsim__ftl *f, char *why, size_t len)
{
    uint64_t n_free = 0;
    uint32_t starved = 0;
    for (uint32_t p = 0; p < f->n_planes; p++) {
        const struct ssdsim__plane *pl = &f->planes[p];
        starved += pl->gc_starved;
        /* a starved plane waits for garbage: one with a victim, or with garbage already (GC
         * would have started at the invalidation that made it), is not starved */
        if (pl->gc_starved && pl->victim == NONE && pl->n_free < f->gc_min) {
            /* (the lookup moves only the lists' search hint to the true minimum) */
            uint32_t g = ssdsim__cands_fewest_valid((struct ssdsim__cands *)&f->cands, p);
            if (g != NONE && f->valid[g] < f->ppb)
                FAIL("plane %u is below its low watermark with garbage in block %u and no "
                     "collection: it waits for garbage it has",
                     p, g);
        }
        uint32_t first = p * f->bpp, n = 0, last = NONE;
        for (uint32_t b = pl->free_head; b != NONE; b = f->free_next[b]) {
            if (b < first || b >= first + f->bpp)
                FAIL("plane %u's free list holds block %u of another plane", p, b);
            if (f->state[b] != SSDSIM__BLK_FREE)
                FAIL("plane %u's free list holds block %u, which is %s", p, b,
                     state_name(f->state[b]));
            if (++n > f->bpp)
                FAIL("plane %u's free list has a cycle", p);
            last = b;
        }
        if (last != pl->free_tail)
            FAIL("plane %u's free list ends at block %u; its tail says %u", p, last,
                 pl->free_tail);
        /* linked both ways with flash.multiplane_same_block (page_place.c) */
        for (uint32_t b = pl->free_head, prev = NONE; f->free_prev && b != NONE;
             prev = b, b = f->free_next[b])
            if (f->free_prev[b] != prev)
                FAIL("plane %u's free list: block %u follows %u, but its back link says %u", p, b,
                     prev, f->free_prev[b]);
        uint32_t states[6] = {0}, open_seen = 0;
        for (uint32_t b = first; b < first + f->bpp; b++) {
            if (f->state[b] == SSDSIM__BLK_BAD) {
                if (!ssdsim__fault_is_bad(f->env->fault, b))
                    FAIL("block %u is retired but not bad", b);
                states[SSDSIM__BLK_BAD]++;
                continue;
            }
            if (f->state[b] > (f->slc ? SSDSIM__BLK_SLC : SSDSIM__BLK_VICTIM))
                FAIL("block %u has state %u", b, f->state[b]);
            if (ssdsim__fault_is_bad(f->env->fault, b))
                FAIL("block %u is bad but %s", b, state_name(f->state[b]));
            states[f->state[b]]++;
        }
        if (n != pl->n_free || n != states[SSDSIM__BLK_FREE])
            FAIL("plane %u: %u blocks on its free list, %u free blocks, n_free %u", p, n,
                 states[SSDSIM__BLK_FREE], pl->n_free);
        n_free += n;
        for (uint32_t fr = 0; fr < f->n_fr; fr++) {
            if (pl->ptr[fr] > f->ppb)
                FAIL("plane %u frontier %u points at page %u of %u", p, fr, pl->ptr[fr], f->ppb);
            if (pl->ptr[fr] == f->ppb)
                continue;
            uint32_t b = pl->blk[fr];
            if (b < first || b >= first + f->bpp)
                FAIL("plane %u frontier %u is open on block %u, not of the plane", p, fr, b);
            if (f->state[b] != SSDSIM__BLK_OPEN)
                FAIL("plane %u frontier %u is open on block %u, which is %s", p, fr, b,
                     state_name(f->state[b]));
            for (uint32_t g = 0; g < fr; g++)
                if (pl->ptr[g] < f->ppb && pl->blk[g] == b)
                    FAIL("plane %u: frontiers %u and %u share block %u", p, g, fr, b);
            open_seen++;
        }
        if (!f->sb && open_seen != states[SSDSIM__BLK_OPEN]) /* superblocks: sb_check */
            FAIL("plane %u has %u open blocks; its frontiers have %u", p,
                 states[SSDSIM__BLK_OPEN], open_seen);
        uint32_t victims = pl->victim != NONE;
        if (pl->victim != NONE &&
            (pl->victim < first || pl->victim >= first + f->bpp ||
             f->state[pl->victim] != SSDSIM__BLK_VICTIM))
            FAIL("plane %u's victim is block %u (%s)", p, pl->victim,
                 pl->victim < f->geo->n_blocks ? state_name(f->state[pl->victim]) : "none");
        if (victims != states[SSDSIM__BLK_VICTIM])
            FAIL("plane %u has %u blocks in collection; its victim is %u", p,
                 states[SSDSIM__BLK_VICTIM], pl->victim);
        if (pl->wl_pending != NONE && (pl->wl_pending < first || pl->wl_pending >= first + f->bpp))
            FAIL("plane %u's wear-leveling move is block %u, not of the plane", p,
                 pl->wl_pending);
        if (ssdsim__cands_count(&f->cands, p) != states[SSDSIM__BLK_CLOSED])
            FAIL("plane %u has %u closed blocks and %u GC candidates", p,
                 states[SSDSIM__BLK_CLOSED], ssdsim__cands_count(&f->cands, p));
    }
    if (n_free != f->n_free_blocks)
        FAIL("%llu free blocks on the planes' lists; the device count says %llu",
             (unsigned long long)n_free, (unsigned long long)f->n_free_blocks);
    if (starved != f->n_starved)
        FAIL("%u planes wait for garbage; the count says %u", starved, f->n_starved);
    /* choose_stripe's summary of the dies whose planes owe no GC copies (page_place.c) */
    for (uint32_t d = 0; f->die_nodebt && d < f->n_dies; d++) {
        uint32_t owing_not = 0;
        for (uint32_t p = d * f->ppd; p < (d + 1) * f->ppd; p++)
            owing_not += !(f->planes[p].gc_debt > 0);
        uint32_t k = ssdsim__page_stripe_index(f, d);
        bool marked = (f->stripe_nodebt[k >> 6] >> (k & 63)) & 1;
        if (owing_not != f->die_nodebt[d] || marked != (owing_not > 0))
            FAIL("die %u has %u planes that owe no GC copies; its count says %u, its mark %d", d,
                 owing_not, f->die_nodebt[d], marked);
    }
    return 0;
}

/* The candidate structures (gc/gc.h) of every plane against the blocks' states and counts. */
static int check_cands(const struct ssdsim__ftl *f, char *why, size_t len)
{
    const struct ssdsim__cands *c = &f->cands;
    for (uint32_t p = 0; p < f->n_planes; p++) {
        uint32_t n = ssdsim__cands_count(c, p);
        for (uint32_t i = 0; i < n; i++) {
            uint32_t b = ssdsim__cands_at(c, p, i);
            if (b / f->bpp != p || f->state[b] != SSDSIM__BLK_CLOSED)
                FAIL("plane %u's candidate array holds block %u (%s)", p, b,
                     b < f->geo->n_blocks ? state_name(f->state[b]) : "out of range");
            if (c->idx[b] != i)
                FAIL("candidate block %u is at %u of plane %u's array; its index says %u", b, i,
                     p, c->idx[b]);
        }
        uint32_t k = 0, prev = NONE;
        for (uint32_t b = c->f_head[p]; b != NONE; b = c->f_next[b]) {
            if (b / f->bpp != p || f->state[b] != SSDSIM__BLK_CLOSED)
                FAIL("plane %u's close-order list holds block %u", p, b);
            if (c->f_prev[b] != prev)
                FAIL("close-order list of plane %u: block %u's predecessor is %u, not %u", p, b,
                     c->f_prev[b], prev);
            if (prev != NONE && f->closed_at[prev] > f->closed_at[b])
                FAIL("close-order list of plane %u: block %u (closed at %llu) before block %u "
                     "(closed at %llu)",
                     p, prev, (unsigned long long)f->closed_at[prev], b,
                     (unsigned long long)f->closed_at[b]);
            if (++k > n)
                FAIL("plane %u's close-order list is longer than its %u candidates", p, n);
            prev = b;
        }
        if (k != n || c->f_tail[p] != prev)
            FAIL("plane %u's close-order list has %u blocks ending at %u; %u candidates, tail %u",
                 p, k, prev, n, c->f_tail[p]);
        if (c->no_buckets) { /* RAIN superblocks (gc/gc.h): the lists are empty */
            for (size_t h = (size_t)p * c->n_counts; h < (size_t)(p + 1) * c->n_counts; h++)
                if (c->b_head[h] != NONE || c->b_tail[h] != NONE)
                    FAIL("plane %u keeps no valid-count lists, yet list %zu holds block %u", p,
                         h % c->n_counts, c->b_head[h] != NONE ? c->b_head[h] : c->b_tail[h]);
            continue;
        }
        k = 0;
        for (uint32_t v = 0; v < c->n_counts; v++) {
            size_t h = (size_t)p * c->n_counts + v;
            prev = NONE;
            for (uint32_t b = c->b_head[h]; b != NONE; b = c->b_next[b]) {
                if (b / f->bpp != p || f->state[b] != SSDSIM__BLK_CLOSED || f->valid[b] != v)
                    FAIL("plane %u's bucket of %u valid pages holds block %u (%s, %u valid)", p,
                         v, b, state_name(f->state[b]), f->valid[b]);
                if (c->b_prev[b] != prev)
                    FAIL("bucket %u of plane %u: block %u's predecessor is %u, not %u", v, p, b,
                         c->b_prev[b], prev);
                if (v < c->min_hint[p])
                    FAIL("plane %u's bucket of %u valid pages holds block %u below the hint %u",
                         p, v, b, c->min_hint[p]);
                if (++k > n)
                    FAIL("plane %u's buckets hold more than its %u candidates", p, n);
                prev = b;
            }
            if (c->b_tail[h] != prev)
                FAIL("bucket %u of plane %u ends at block %u; its tail says %u", v, p, prev,
                     c->b_tail[h]);
        }
        if (k != n)
            FAIL("plane %u's buckets hold %u blocks; it has %u candidates", p, k, n);
    }
    return 0;
}

/* ---------------------------------------------------------------- operations in flight */

struct inflight {
    const struct ssdsim__ftl *f;
    uint32_t *gc_reads;    /* per plane: copy reads of its victim's pages */
    uint32_t *erases;      /* per plane */
    uint8_t *wb_reads;     /* per translation page: write-back reads */
    uint8_t *load_reads;   /* per translation page: load reads */
    uint32_t stray;        /* an operation that names nothing it may name */
    uint64_t stray_cookie;
};

static void count_op(void *ctx, const struct ssdsim__flash_op *op)
{
    struct inflight *x = ctx;
    const struct ssdsim__ftl *f = x->f;
    uint32_t low = ssdsim__cookie_low(op->cookie);
    switch (ssdsim__cookie_tag(op->cookie)) {
    case SSDSIM__PTAG_GC_READ: {
        uint32_t p = low / f->ppb / f->bpp;
        if (low < f->n_ppn && f->planes[p].victim == low / f->ppb) {
            x->gc_reads[p]++;
            return;
        }
        break;
    }
    case SSDSIM__PTAG_GC_ERASE:
        if (low < f->n_planes && op->addr == f->planes[low].victim) {
            x->erases[low]++;
            return;
        }
        break;
    case SSDSIM__PTAG_MAP_READ:
        if (f->dftl && low < f->cmt.n_tpages) {
            if (ssdsim__cookie_mid(op->cookie))
                x->wb_reads[low] = (uint8_t)SSDSIM__MIN(x->wb_reads[low] + 1, 255);
            else
                x->load_reads[low] = (uint8_t)SSDSIM__MIN(x->load_reads[low] + 1, 255);
            return;
        }
        break;
    default:
        return;
    }
    if (!x->stray++)
        x->stray_cookie = op->cookie;
}

static int check_inflight(const struct ssdsim__ftl *f, const struct inflight *x, char *why,
                          size_t len)
{
    if (x->stray)
        FAIL("%u flash operations in flight name no victim or translation page (the first's "
             "cookie %#llx)",
             x->stray, (unsigned long long)x->stray_cookie);
    for (uint32_t p = 0; p < f->n_planes; p++) {
        const struct ssdsim__plane *pl = &f->planes[p];
        if (pl->victim == NONE)
            continue;
        if (x->gc_reads[p] != pl->gc_reads)
            FAIL("plane %u: %u copy reads of victim %u in flight; its count says %u", p,
                 x->gc_reads[p], pl->victim, pl->gc_reads);
        /* Paced GC (page_gc.c) has not yet looked at the victim's pages from gc_scan on;
         * superblocks (page_super.c) are read all at once. */
        uint32_t unscanned = 0;
        for (uint32_t i = pl->gc_scan; i < f->ppb; i++)
            unscanned += p2l_get(f, (size_t)pl->victim * f->ppb + i) != NONE;
        if (f->valid[pl->victim] > pl->gc_reads + unscanned)
            FAIL("plane %u: victim %u has %u valid pages, %u copy reads in flight and %u valid "
                 "pages not yet read",
                 p, pl->victim, f->valid[pl->victim], pl->gc_reads, unscanned);
        bool erasing = f->sb ? ssdsim__page_sb_erasing(f)
                             : pl->gc_reads == 0 &&
                                   (pl->gc_scan >= f->ppb || f->valid[pl->victim] == 0) &&
                                   !pl->gc_wait_ns;
        if (x->erases[p] != erasing)
            FAIL("plane %u: %u erases of victim %u in flight with %u copy reads", p, x->erases[p],
                 pl->victim, pl->gc_reads);
    }
    return 0;
}

/* ---------------------------------------------------------------- DFTL */

static int check_cmt(struct ssdsim__ftl *f, const struct inflight *x, char *why, size_t len)
{
    struct ssdsim__cmt *c = &f->cmt;
    if (c->n > c->cap)
        FAIL("CMT holds %u entries; its capacity is %u", c->n, c->cap);
    for (uint32_t s = 0; s < c->n; s++) {
        if (c->lpn[s] >= f->n_lpn || c->slot_of[c->lpn[s]] != s)
            FAIL("CMT slot %u holds logical page %u, whose slot is %u", s, c->lpn[s],
                 c->lpn[s] < f->n_lpn ? c->slot_of[c->lpn[s]] : NONE);
        if (c->dirty[s] > 1)
            FAIL("CMT slot %u: dirty flag %u", s, c->dirty[s]);
    }
    uint64_t cached = 0;
    for (uint64_t lpn = 0; lpn < f->n_lpn; lpn++) {
        uint32_t s = c->slot_of[lpn];
        if (s == NONE)
            continue;
        if (s >= c->n || c->lpn[s] != lpn)
            FAIL("logical page %llu is cached in slot %u, which holds %u",
                 (unsigned long long)lpn, s, s < c->n ? c->lpn[s] : NONE);
        cached++;
    }
    if (cached != c->n)
        FAIL("%llu logical pages are cached; the CMT holds %u", (unsigned long long)cached, c->n);
    /* LRU list */
    uint32_t k = 0, prev = NONE;
    for (uint32_t s = c->head; s != NONE; s = c->next[s]) {
        if (s >= c->n || c->prev[s] != prev)
            FAIL("CMT LRU list: slot %u (predecessor %u, expected %u)", s,
                 s < c->n ? c->prev[s] : NONE, prev);
        if (++k > c->n)
            FAIL("CMT LRU list is longer than its %u entries", c->n);
        prev = s;
    }
    if (k != c->n || c->tail != prev)
        FAIL("CMT LRU list has %u slots ending at %u; the CMT holds %u, tail %u", k, prev, c->n,
             c->tail);
    /* per translation page lists, pending write-backs, loads */
    uint32_t stalled_maps = 0;
    uint8_t *stalled = calloc(c->n_tpages ? c->n_tpages : 1, 1);
    if (!stalled)
        FAIL("out of memory");
    for (uint32_t i = 0; i < f->stall.n; i++) {
        const struct ssdsim__pending *w = &f->stall.v[(f->stall.head + i) % f->stall.cap];
        if (w->io != NONE)
            continue;
        if (w->lpn >= c->n_tpages) {
            free(stalled);
            FAIL("a stalled translation write names page %u of %llu", w->lpn,
                 (unsigned long long)c->n_tpages);
        }
        stalled[w->lpn]++;
        stalled_maps++;
    }
    k = 0;
    int rc = 0;
    uint32_t waiting = 0;
    for (uint64_t t = 0; t < c->n_tpages && !rc; t++) {
        prev = NONE;
        for (uint32_t s = c->tp_slots[t]; s != NONE && !rc; s = c->tp_next[s]) {
            if (s >= c->n || c->lpn[s] / c->epp != t || c->tp_prev[s] != prev)
                rc = ssdsim__page_check_fail(why, len, "translation page %llu's list holds slot %u (page %u, "
                          "predecessor %u, expected %u)",
                          (unsigned long long)t, s, s < c->n ? c->lpn[s] : NONE,
                          s < c->n ? c->tp_prev[s] : NONE, prev);
            else if (++k > c->n)
                rc = ssdsim__page_check_fail(why, len, "the translation pages' lists hold more than %u slots", c->n);
            prev = s;
        }
        if (rc)
            break;
        uint32_t ways = x->wb_reads[t] + stalled[t];
        if (c->tp_pending[t] > 1 || ways != c->tp_pending[t])
            rc = ssdsim__page_check_fail(why, len, "translation page %llu: pending flag %u with %u write-back reads "
                      "in flight and %u stalled programs",
                      (unsigned long long)t, c->tp_pending[t], x->wb_reads[t], stalled[t]);
        uint32_t nw = 0;
        for (uint32_t w = c->tp_waiters[t]; w != NONE && !rc; w = c->wait[w].next) {
            if (w >= c->wait_pool.cap || c->wait[w].lpn / c->epp != t)
                rc = ssdsim__page_check_fail(why, len, "translation page %llu's waiters hold entry %u",
                          (unsigned long long)t, w);
            else if (++nw > c->wait_pool.cap)
                rc = ssdsim__page_check_fail(why, len, "translation page %llu's waiters have a cycle",
                          (unsigned long long)t);
        }
        waiting += nw;
        if (!rc && x->load_reads[t] != (nw ? 1 : 0))
            rc = ssdsim__page_check_fail(why, len, "translation page %llu: %u requests wait and %u loads are in "
                      "flight",
                      (unsigned long long)t, nw, x->load_reads[t]);
    }
    free(stalled);
    if (rc)
        return rc;
    if (k != c->n)
        FAIL("the translation pages' lists hold %u slots; the CMT holds %u", k, c->n);
    uint32_t nfree = 0;
    for (uint32_t w = c->wait_pool.free; w != NONE; w = c->wait[w].next)
        if (w >= c->wait_pool.cap || ++nfree > c->wait_pool.cap)
            FAIL("DFTL wait pool: free list broken at entry %u", w);
    if (nfree + waiting != c->wait_pool.cap)
        FAIL("DFTL wait pool: %u free and %u waiting of %u entries", nfree, waiting,
             c->wait_pool.cap);

    /* Entries against the flash copy of their translation page. */
    if (!c->shadow) {
        for (uint64_t t = 0; t < c->n_tpages; t++)
            if (f->l2p[f->n_lpn + t] != NONE || c->tp_pending[t])
                return 0; /* started late: the flash copies are unknown */
        c->shadow = malloc(sizeof *c->shadow * f->n_lpn);
        if (!c->shadow)
            FAIL("out of memory");
        memset(c->shadow, 0xff, sizeof *c->shadow * f->n_lpn);
    }
    /* translation pages a victim's moves updated, written back when its copies are done */
    uint8_t *deferred = calloc(c->n_tpages ? c->n_tpages : 1, 1);
    if (!deferred)
        FAIL("out of memory");
    for (uint32_t p = 0; p < f->n_planes; p++) {
        const struct ssdsim__plane *pl = &f->planes[p];
        if (pl->n_gc_tps > f->ppb || (pl->n_gc_tps && pl->victim == NONE)) {
            free(deferred);
            FAIL("plane %u has %u translation pages to write back after victim %u", p,
                 pl->n_gc_tps, pl->victim);
        }
        for (uint32_t i = 0; i < pl->n_gc_tps; i++)
            if (c->gc_tps[(size_t)p * f->ppb + i] < c->n_tpages)
                deferred[c->gc_tps[(size_t)p * f->ppb + i]] = 1;
    }
    for (uint64_t lpn = 0; lpn < f->n_lpn; lpn++) {
        if (f->l2p[lpn] == c->shadow[lpn] || deferred[lpn / c->epp] ||
            c->tp_pending[lpn / c->epp])
            continue; /* (a pending or deferred write-back programs the table as it is then) */
        uint32_t s = c->slot_of[lpn];
        uint64_t t = lpn / c->epp;
        if (s != NONE && !c->dirty[s]) {
            free(deferred);
            FAIL("logical page %llu is cached clean at page %u; its translation page %llu in "
                 "flash says %u",
                 (unsigned long long)lpn, f->l2p[lpn], (unsigned long long)t, c->shadow[lpn]);
        }
        if (s == NONE) {
            free(deferred);
            FAIL("logical page %llu is at page %u, not cached, and its translation page %llu in "
                 "flash says %u with no write-back pending",
                 (unsigned long long)lpn, f->l2p[lpn], (unsigned long long)t, c->shadow[lpn]);
        }
    }
    free(deferred);
    return 0;
}

/* ---------------------------------------------------------------- entry points */

int ssdsim__page_check_why(struct ssdsim__ftl *f, char *why, size_t len)
{
    int rc = check_mapping(f, why, len);
    if (!rc)
        rc = check_planes(f, why, len);
    if (!rc && f->slc)
        rc = ssdsim__page_slc_check(f, why, len);
    if (!rc)
        rc = check_cands(f, why, len);
    if (!rc && f->fdp)
        rc = ssdsim__page_fdp_check(f, why, len);
    if (!rc && f->sb)
        rc = ssdsim__page_sb_check(f, why, len);
    if (rc)
        return rc;
    struct inflight x = {.f = f};
    x.gc_reads = calloc(f->n_planes, sizeof *x.gc_reads);
    x.erases = calloc(f->n_planes, sizeof *x.erases);
    uint64_t nt = f->dftl ? f->cmt.n_tpages : 0;
    x.wb_reads = calloc(nt ? nt : 1, 1);
    x.load_reads = calloc(nt ? nt : 1, 1);
    if (!x.gc_reads || !x.erases || !x.wb_reads || !x.load_reads ||
        ssdsim__hw_each_op(f->env->hw, count_op, &x))
        rc = ssdsim__page_check_fail(why, len, "out of memory");
    if (!rc)
        rc = check_inflight(f, &x, why, len);
    if (!rc && f->dftl)
        rc = check_cmt(f, &x, why, len);
    free(x.gc_reads);
    free(x.erases);
    free(x.wb_reads);
    free(x.load_reads);
    return rc;
}

int ssdsim__page_check_method(void *state, char *why, size_t len)
{
    return ssdsim__page_check_why(state, why, len);
}
