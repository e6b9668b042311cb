/* gc.h: the per-plane structures that hold GC candidates (closed blocks) and make the classic
 * victim policies cheap, kept by FTLs that collect garbage block by block (page, dftl):
 *
 *   buckets    one list per valid-page count (0 .. pages_per_block) per plane, each in the order
 *              its blocks last lost a valid page (a block that loses one moves to the tail of the
 *              next lower list): greedy takes the head of the lowest non-empty list in O(1)
 *              amortised (a hint remembers the lowest count that may be non-empty), and the head
 *              of each list is its least recently modified block (cost-benefit in O(ppb));
 *   fifo       candidates in the order they were closed (FIFO, windowed greedy);
 *   array      candidates in an array with each block's index (uniform sampling in O(1):
 *              random, d-choices; removal by swapping with the last).
 * Memory: six uint32 per block, plus (pages_per_block + 1) x 2 heads per plane.
 *
 * Without buckets (ssdsim__cands_drop_buckets): the page FTL on RAIN superblocks (ftl/page_super.c)
 * collects superblocks, whose own structures its GC policy sees; its blocks stay candidates
 * (close order and array, for wear leveling and the plane view) but no block moves between
 * valid-count lists when it loses a page, which was the costliest step of every overwrite there
 * (fast-forward on the P320h, 256 blocks per plane: cands_dec 15% of the time). The plane
 * view's valid-count queries then scan the plane's candidates (gc/view.c).
 *
 * Tried and dropped: buckets as arrays of (block, stamp) entries, a block that leaves one
 * leaving its entry behind to be skipped later (no list neighbours to touch when a block loses a
 * page): fast-forward on generic-mlc 6.0 against 7.2 M host writes per CPU-second, because the
 * old bucket's count and the new bucket's end are cache misses of their own, and compacting a
 * bucket reads the stamp of every block it holds.
 */
#ifndef SSDSIM_GC_H
#define SSDSIM_GC_H

#include "common.h"
#include "udiv.h"

struct ssdsim__cands {
    uint32_t n_planes, blocks_per_plane, n_counts;
    struct ssdsim__udiv div_bpp; /* block / blocks_per_plane: its plane */
    uint32_t *b_head, *b_tail; /* [plane * n_counts + valid] */
    uint32_t *b_next, *b_prev; /* per block */
    uint32_t *min_hint;        /* per plane */
    uint32_t *f_head, *f_tail; /* per plane */
    uint32_t *f_next, *f_prev; /* per block */
    uint32_t *arr;             /* [plane * blocks_per_plane + i] */
    uint32_t *n_arr;           /* per plane */
    uint32_t *idx;             /* per block: position in arr */
    bool no_buckets;           /* the valid-count lists are not kept (see above) */
};

int ssdsim__cands_init(struct ssdsim__cands *c, uint32_t n_planes, uint32_t blocks_per_plane,
                       uint32_t pages_per_block);
void ssdsim__cands_fini(struct ssdsim__cands *c);
/* A block was closed with `valid` valid pages: it becomes a candidate. */
void ssdsim__cands_insert(struct ssdsim__cands *c, uint32_t block, uint32_t valid);
/* The candidate (with `valid` valid pages) stops being one. */
void ssdsim__cands_remove(struct ssdsim__cands *c, uint32_t block, uint32_t valid);
/* The candidate lost a valid page; `valid` is its new count. */
void ssdsim__cands_move_down(struct ssdsim__cands *c, uint32_t block, uint32_t valid);
static inline void ssdsim__cands_dec(struct ssdsim__cands *c, uint32_t block, uint32_t valid)
{
    if (!c->no_buckets)
        ssdsim__cands_move_down(c, block, valid);
}
/* Keep no valid-count lists from now on (before the first insert): fewest_valid and
 * least_recent then answer nothing (NONE); callers that need them scan (gc/view.c). */
static inline void ssdsim__cands_drop_buckets(struct ssdsim__cands *c)
{
    c->no_buckets = true;
}

uint32_t ssdsim__cands_fewest_valid(struct ssdsim__cands *c, uint32_t plane);
static inline uint32_t ssdsim__cands_least_recent(const struct ssdsim__cands *c, uint32_t plane,
                                                  uint32_t valid)
{
    return valid < c->n_counts ? c->b_head[(size_t)plane * c->n_counts + valid] : UINT32_MAX;
}
static inline uint32_t ssdsim__cands_oldest(const struct ssdsim__cands *c, uint32_t plane)
{
    return c->f_head[plane];
}
static inline uint32_t ssdsim__cands_newer(const struct ssdsim__cands *c, uint32_t block)
{
    return c->f_next[block];
}
static inline uint32_t ssdsim__cands_count(const struct ssdsim__cands *c, uint32_t plane)
{
    return c->n_arr[plane];
}
static inline uint32_t ssdsim__cands_at(const struct ssdsim__cands *c, uint32_t plane, uint32_t i)
{
    return c->arr[(size_t)plane * c->blocks_per_plane + i];
}

#endif /* SSDSIM_GC_H */
