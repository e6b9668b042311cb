/* ssdsim/sys/gc.h: garbage-collection victim policies.
 *
 * When a plane is short of free blocks (or the device is idle and background GC is on), the
 * FTL asks the plane's policy for a victim among its candidates: the closed blocks of the plane
 * (fully written, not an open write frontier, not being collected). The FTL keeps, per plane and
 * at no cost to the policy, the structures that make the classic policies O(1):
 *   - candidates in an array (uniform sampling: random, d-choices);
 *   - candidates in the order they were closed (FIFO, windowed greedy);
 *   - candidates bucketed by valid-page count, each bucket ordered by the time its blocks last
 *     lost a valid page (greedy: fewest valid; cost-benefit: the least recently modified block
 *     of each count is the oldest one, so the best score is among pages_per_block + 1 blocks).
 * A policy reads them through the ssdsim_view functions below, keeps any state of its own in
 * the state the library allocates, and returns a candidate. Returning a block that is not a
 * candidate stops the run with an error naming the policy.
 *
 * Times used for ages are on the write clock: pages programmed so far on the device, which is
 * what the analytic models use and what makes results independent of the timing model.
 */
#ifndef SSDSIM_SYS_GC_H
#define SSDSIM_SYS_GC_H

#include "ssdsim/sys/plugin.h"
#include "ssdsim/theory.h" /* ssdsim_theory_waf lived here before 1.0 */

#ifdef __cplusplus
extern "C" {
#endif

/** Read-only view of the device's blocks, given to GC and wear-leveling policies. Every
 * ssdsim_view_ function given a NULL view answers 0 (SSDSIM_NO_BLOCK for one that names a
 * block) instead of crashing. */
typedef struct ssdsim_view ssdsim_view;

/** Pages per erase block. */
SSDSIM_API uint32_t ssdsim_view_pages_per_block(const ssdsim_view *v);
/** Number of planes, and erase blocks per plane (block numbers are global:
 * plane * blocks_per_plane + block within the plane). */
SSDSIM_API uint32_t ssdsim_view_n_planes(const ssdsim_view *v);
SSDSIM_API uint32_t ssdsim_view_blocks_per_plane(const ssdsim_view *v);

/** Candidates of a plane: how many, and the i-th in an arbitrary order (O(1)). */
SSDSIM_API uint32_t ssdsim_view_n_candidates(const ssdsim_view *v, uint32_t plane);
SSDSIM_API uint32_t ssdsim_view_candidate(const ssdsim_view *v, uint32_t plane, uint32_t i);

/** The candidate with the fewest valid pages, the least recently modified among equals (O(1)
 * amortised); SSDSIM_NO_BLOCK when the plane has none. On a drive with RAIN parity
 * (ftl.parity_group), whose GC policy chooses among superblocks, the view of the blocks that a
 * wear leveler is given answers this and ssdsim_view_least_recent by scanning the plane's
 * candidates (O(candidates); equals by modification time, then block number). */
SSDSIM_API uint32_t ssdsim_view_fewest_valid(const ssdsim_view *v, uint32_t plane);

/** The least recently modified candidate with exactly `valid` valid pages, or SSDSIM_NO_BLOCK. */
SSDSIM_API uint32_t ssdsim_view_least_recent(const ssdsim_view *v, uint32_t plane,
                                             uint32_t valid);

/** The candidate closed first (FIFO order), and the next one closed after `block`
 * (SSDSIM_NO_BLOCK at the end). */
SSDSIM_API uint32_t ssdsim_view_oldest(const ssdsim_view *v, uint32_t plane);
SSDSIM_API uint32_t ssdsim_view_newer(const ssdsim_view *v, uint32_t block);

/** Valid pages of a block. */
SSDSIM_API uint32_t ssdsim_view_valid(const ssdsim_view *v, uint32_t block);
/** Write clock when the block was closed, and when it last lost a valid page (its close time if
 * it never did). */
SSDSIM_API uint64_t ssdsim_view_closed_at(const ssdsim_view *v, uint32_t block);
SSDSIM_API uint64_t ssdsim_view_modified_at(const ssdsim_view *v, uint32_t block);
/** The write clock now: pages programmed on the device since it was new. */
SSDSIM_API uint64_t ssdsim_view_clock(const ssdsim_view *v);

/** Erase count of a block, and the lowest and highest over the device (since new). */
SSDSIM_API uint32_t ssdsim_view_erase_count(const ssdsim_view *v, uint32_t block);
SSDSIM_API uint32_t ssdsim_view_min_erase_count(const ssdsim_view *v);
SSDSIM_API uint32_t ssdsim_view_max_erase_count(const ssdsim_view *v);

/** Free blocks of a plane: the first on its free list and the one after `block`
 * (SSDSIM_NO_BLOCK at the end). */
SSDSIM_API uint32_t ssdsim_view_first_free(const ssdsim_view *v, uint32_t plane);
SSDSIM_API uint32_t ssdsim_view_next_free(const ssdsim_view *v, uint32_t block);

/** A uniform random 64-bit number from the simulation's policy stream (one per simulation,
 * shared by its GC policy and wear leveler, seeded from the simulation's seed and the GC
 * policy's name: reproducible; the same code registered under two names draws two streams, so
 * compare a policy that draws numbers with itself under one name). */
SSDSIM_API uint64_t ssdsim_view_random(const ssdsim_view *v);

/** A GC victim policy. */
typedef struct ssdsim_gc_ops {
    SSDSIM_PLUGIN_HEADER;
    /** Optional. `params` holds one value per declared parameter, in order (defaults filled
     * in, ranges checked). Return 0, or a negative SSDSIM_E* code with a reason in errbuf. */
    int (*init)(void *state, const ssdsim_view *view, const double *params, char *errbuf,
                size_t errlen);
    /** Optional; called exactly once, even when init failed. */
    void (*fini)(void *state);
    /** Required: a candidate of `plane` to collect, or SSDSIM_NO_BLOCK to collect nothing now.
     * Must not allocate. */
    uint32_t (*select_victim)(void *state, const ssdsim_view *view, uint32_t plane);
} ssdsim_gc_ops;

/** Register a GC policy (the table is kept, not copied: it must outlive the library's use).
 * @return 0; SSDSIM_EABI (abi_version newer than SSDSIM_PLUGIN_ABI_VERSION, or struct_size too
 *         small); SSDSIM_EINVAL (bad name, missing select_victim, bad parameter list, or a name
 *         already registered). `err` (may be NULL) says why. */
SSDSIM_API int ssdsim_gc_register(const ssdsim_gc_ops *ops, ssdsim_error *err);

#ifdef __cplusplus
}
#endif

#endif /* SSDSIM_SYS_GC_H */
