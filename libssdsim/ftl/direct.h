/* direct.h: the direct (in-place) FTL for media without erase (ftl/direct.c): its state, shared
 * with the tests, the fixed placement of logical units, and its consistency check.
 *
 * Memory, all flat arrays: one bit per logical unit (written or not), 4 bytes per block (units
 * it holds, for block_valid and the free-block figures), 8 bytes per plane (its place in the
 * stripe, its blocks that hold nothing). Under 0.19 bytes per logical unit on a device of 64-page
 * blocks (1/8 + 4/64), against about 9.5 for the page FTL: there is no mapping table, because the
 * place of a unit is computed, not looked up.
 */
#ifndef SSDSIM_FTL_DIRECT_H
#define SSDSIM_FTL_DIRECT_H

#include "common.h"
#include "ftl/env.h"
#include "ftl/ftlutil.h"

struct ssdsim__direct {
    ssdsim_ftl_env *env;
    uint64_t n_lpn;           /* logical units (env geometry logical_pages) */
    uint64_t n_ppn;           /* physical pages */
    uint64_t pages_per_plane; /* blocks_per_plane * pages_per_block */
    uint32_t n_planes, bpp, ppb, page_size;
    uint32_t *stripe;     /* per stripe index u % n_planes: the plane (channels first, then
                             chips, dies, planes), so consecutive units use different dies */
    uint64_t *written;    /* bitmap per logical unit: written and not trimmed since */
    uint32_t *valid;      /* per block: written units it holds */
    uint32_t *plane_free; /* per plane: its blocks that hold no written unit */
    uint64_t n_free_blocks;
    struct ssdsim__pending_pool rmw; /* read-modify-write reads in flight */
};

/* The physical page of logical unit `lpn` (< n_lpn): page lpn / n_planes of the plane that
 * stripe index lpn % n_planes names. Fixed for the life of the device. */
static inline uint32_t ssdsim__direct_ppn(const struct ssdsim__direct *f, uint64_t lpn)
{
    uint64_t plane = f->stripe[lpn % f->n_planes];
    return (uint32_t)(plane * f->pages_per_plane + lpn / f->n_planes);
}

static inline bool ssdsim__direct_written(const struct ssdsim__direct *f, uint64_t lpn)
{
    return (f->written[lpn >> 6] >> (lpn & 63)) & 1;
}

/* Consistency check (tests): the stripe is a permutation of the planes, every unit has a page
 * of its own inside the device, the per-block counts equal the written units each block holds,
 * and the free-block counts agree with them. Returns 0, or a negative number naming the first
 * broken rule (see direct.c). O(logical units + pages). */
int ssdsim__direct_check(const void *state);

extern const ssdsim_ftl_ops ssdsim__ftl_direct_ops;

#endif /* SSDSIM_FTL_DIRECT_H */
