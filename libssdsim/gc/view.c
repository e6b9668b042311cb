/* view.c: the read-only block view (ssdsim/sys/gc.h) that GC and wear-leveling policies see,
 * over the state of the page-mapped FTL. Each function is a field read or a list step, but for
 * the valid-count questions on the blocks of RAIN superblocks, which keep no lists (gc/gc.h)
 * and are answered by a scan of the plane. A NULL view gets a neutral answer (0, or
 * SSDSIM_NO_BLOCK for a block), as the header says: a plugin's slip must not crash the run. */
#include "ftl/page.h"

#define F(v) ((const struct ssdsim__ftl *)(v))

uint64_t ssdsim__page_view_random(const struct ssdsim__ftl *f);

uint32_t ssdsim_view_pages_per_block(const ssdsim_view *v)
{
    if (!v)
        return 0;
    return F(v)->ppb;
}

uint32_t ssdsim_view_n_planes(const ssdsim_view *v)
{
    if (!v)
        return 0;
    return F(v)->n_planes;
}

uint32_t ssdsim_view_blocks_per_plane(const ssdsim_view *v)
{
    if (!v)
        return 0;
    return F(v)->bpp;
}

uint32_t ssdsim_view_n_candidates(const ssdsim_view *v, uint32_t plane)
{
    if (!v)
        return 0;
    return plane < F(v)->n_planes ? ssdsim__cands_count(&F(v)->cands, plane) : 0;
}

uint32_t ssdsim_view_candidate(const ssdsim_view *v, uint32_t plane, uint32_t i)
{
    if (!v)
        return SSDSIM_NO_BLOCK;
    if (plane >= F(v)->n_planes || i >= ssdsim__cands_count(&F(v)->cands, plane))
        return SSDSIM_NO_BLOCK;
    return ssdsim__cands_at(&F(v)->cands, plane, i);
}

/* A block's valid pages, whichever width the FTL keeps them in. */
static inline uint32_t valid_of(const struct ssdsim__ftl *f, uint32_t block)
{
    return f->valid32 ? f->valid32[block] : f->valid[block];
}

/* Candidates without valid-count lists (gc/gc.h: the blocks of RAIN superblocks, whose GC
 * chooses superblocks): the plane's candidate with `valid` valid pages (any count when `any`),
 * fewest first, then the one that reached its count first (modified_at, which every loss of a
 * page stamps, as the lists are ordered), then the lowest number. A scan of the plane; no
 * built-in policy asks it of such a view. */
static uint32_t scan_least_recent(const struct ssdsim__ftl *f, uint32_t plane, uint32_t valid,
                                  bool any)
{
    const struct ssdsim__cands *c = &f->cands;
    uint32_t best = SSDSIM_NO_BLOCK, n = ssdsim__cands_count(c, plane);
    for (uint32_t i = 0; i < n; i++) {
        uint32_t b = ssdsim__cands_at(c, plane, i);
        uint32_t vb = valid_of(f, b);
        if (!any && vb != valid)
            continue;
        if (best != SSDSIM_NO_BLOCK) {
            uint32_t vbest = valid_of(f, best);
            if (vb > vbest || (vb == vbest && (f->modified_at[b] > f->modified_at[best] ||
                                               (f->modified_at[b] == f->modified_at[best] &&
                                                b > best))))
                continue;
        }
        best = b;
    }
    return best;
}

uint32_t ssdsim_view_fewest_valid(const ssdsim_view *v, uint32_t plane)
{
    if (!v)
        return SSDSIM_NO_BLOCK;
    if (plane >= F(v)->n_planes)
        return SSDSIM_NO_BLOCK;
    if (F(v)->cands.no_buckets)
        return scan_least_recent(F(v), plane, 0, true);
    /* The hint inside the buckets moves: the view is logically const, the cache is not. */
    return ssdsim__cands_fewest_valid((struct ssdsim__cands *)&F(v)->cands, plane);
}

uint32_t ssdsim_view_least_recent(const ssdsim_view *v, uint32_t plane, uint32_t valid)
{
    if (!v)
        return SSDSIM_NO_BLOCK;
    if (plane >= F(v)->n_planes)
        return SSDSIM_NO_BLOCK;
    if (F(v)->cands.no_buckets)
        return valid <= F(v)->ppb ? scan_least_recent(F(v), plane, valid, false) : SSDSIM_NO_BLOCK;
    return ssdsim__cands_least_recent(&F(v)->cands, plane, valid);
}

uint32_t ssdsim_view_oldest(const ssdsim_view *v, uint32_t plane)
{
    if (!v)
        return SSDSIM_NO_BLOCK;
    return plane < F(v)->n_planes ? ssdsim__cands_oldest(&F(v)->cands, plane) : SSDSIM_NO_BLOCK;
}

uint32_t ssdsim_view_newer(const ssdsim_view *v, uint32_t block)
{
    if (!v)
        return SSDSIM_NO_BLOCK;
    if (block >= F(v)->geo->n_blocks || F(v)->state[block] != SSDSIM__BLK_CLOSED)
        return SSDSIM_NO_BLOCK;
    return ssdsim__cands_newer(&F(v)->cands, block);
}

uint32_t ssdsim_view_valid(const ssdsim_view *v, uint32_t block)
{
    if (!v)
        return 0;
    if (block >= F(v)->geo->n_blocks)
        return 0;
    return valid_of(F(v), block);
}

uint64_t ssdsim_view_closed_at(const ssdsim_view *v, uint32_t block)
{
    if (!v)
        return 0;
    return block < F(v)->geo->n_blocks ? F(v)->closed_at[block] : 0;
}

uint64_t ssdsim_view_modified_at(const ssdsim_view *v, uint32_t block)
{
    if (!v)
        return 0;
    return block < F(v)->geo->n_blocks ? F(v)->modified_at[block] : 0;
}

uint64_t ssdsim_view_clock(const ssdsim_view *v)
{
    if (!v)
        return 0;
    return F(v)->env->programs_total;
}

uint32_t ssdsim_view_erase_count(const ssdsim_view *v, uint32_t block)
{
    if (!v)
        return 0;
    return ssdsim_ftl_erase_count(F(v)->env, block);
}

uint32_t ssdsim_view_min_erase_count(const ssdsim_view *v)
{
    if (!v)
        return 0;
    return F(v)->env->ec_min;
}

uint32_t ssdsim_view_max_erase_count(const ssdsim_view *v)
{
    if (!v)
        return 0;
    return F(v)->env->ec_max;
}

uint32_t ssdsim_view_first_free(const ssdsim_view *v, uint32_t plane)
{
    if (!v)
        return SSDSIM_NO_BLOCK;
    return plane < F(v)->n_planes ? F(v)->planes[plane].free_head : SSDSIM_NO_BLOCK;
}

uint32_t ssdsim_view_next_free(const ssdsim_view *v, uint32_t block)
{
    if (!v)
        return SSDSIM_NO_BLOCK;
    if (block >= F(v)->geo->n_blocks || F(v)->state[block] != SSDSIM__BLK_FREE)
        return SSDSIM_NO_BLOCK;
    return F(v)->free_next[block];
}

uint64_t ssdsim_view_random(const ssdsim_view *v)
{
    if (!v)
        return 0;
    return ssdsim__page_view_random(F(v));
}
