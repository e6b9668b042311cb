/* gc.h: victim selection for garbage collection.
 *
 * Greedy needs the closed block with the fewest valid pages in a plane, in O(1): each plane
 * keeps one intrusive doubly-linked list per valid count (0 .. pages_per_block), and a hint to
 * the lowest count that may be non-empty. A page invalidation moves its block one bucket down
 * (O(1)) and lowers the hint; selection walks up from the hint, which is amortised O(1) because
 * the hint only rises past buckets that were found empty. Memory: two uint32 links per block and
 * (pages_per_block + 1) heads per plane.
 */
#ifndef SSDSIM_GC_H
#define SSDSIM_GC_H

#include "common.h"

struct ssdsim__gc_buckets {
    uint32_t n_planes;
    uint32_t n_counts; /* pages_per_block + 1 */
    uint32_t blocks_per_plane;
    uint32_t *head;    /* [plane * n_counts + valid] -> first block, or UINT32_MAX */
    uint32_t *next, *prev; /* per global block */
    uint32_t *min_hint;    /* per plane */
};

int ssdsim__gc_buckets_init(struct ssdsim__gc_buckets *b, uint32_t n_planes,
                            uint32_t blocks_per_plane, uint32_t pages_per_block);
void ssdsim__gc_buckets_fini(struct ssdsim__gc_buckets *b);
void ssdsim__gc_buckets_insert(struct ssdsim__gc_buckets *b, uint32_t block, uint32_t valid);
void ssdsim__gc_buckets_remove(struct ssdsim__gc_buckets *b, uint32_t block, uint32_t valid);
/* The block lost one valid page: move it from bucket `valid + 1` to `valid`. */
void ssdsim__gc_buckets_dec(struct ssdsim__gc_buckets *b, uint32_t block, uint32_t valid);
/* The closed block of `plane` with the fewest valid pages (greedy), or UINT32_MAX when the
 * plane has no closed block. *valid receives its count. */
uint32_t ssdsim__gc_greedy_victim(struct ssdsim__gc_buckets *b, uint32_t plane, uint32_t *valid);

#endif /* SSDSIM_GC_H */
