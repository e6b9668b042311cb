/* cands.c: GC candidate structures (valid-count buckets, close order, sampling array). */
#include "gc/gc.h"

#include <stdlib.h>
#include <string.h>

#define NONE UINT32_MAX

int ssdsim__cands_init(struct ssdsim__cands *c, uint32_t n_planes, uint32_t blocks_per_plane,
                       uint32_t pages_per_block)
{
    memset(c, 0, sizeof *c);
    size_t nb = (size_t)n_planes * blocks_per_plane;
    c->n_planes = n_planes;
    c->blocks_per_plane = blocks_per_plane;
    ssdsim__udiv_init(&c->div_bpp, blocks_per_plane);
    c->n_counts = pages_per_block + 1;
    size_t nh = (size_t)n_planes * c->n_counts;
    c->b_head = malloc(sizeof *c->b_head * nh);
    c->b_tail = malloc(sizeof *c->b_tail * nh);
    c->b_next = malloc(sizeof *c->b_next * nb);
    c->b_prev = malloc(sizeof *c->b_prev * nb);
    c->min_hint = calloc(n_planes, sizeof *c->min_hint);
    c->f_head = malloc(sizeof *c->f_head * n_planes);
    c->f_tail = malloc(sizeof *c->f_tail * n_planes);
    c->f_next = malloc(sizeof *c->f_next * nb);
    c->f_prev = malloc(sizeof *c->f_prev * nb);
    c->arr = malloc(sizeof *c->arr * nb);
    c->n_arr = calloc(n_planes, sizeof *c->n_arr);
    c->idx = malloc(sizeof *c->idx * nb);
    if (!c->b_head || !c->b_tail || !c->b_next || !c->b_prev || !c->min_hint || !c->f_head ||
        !c->f_tail || !c->f_next || !c->f_prev || !c->arr || !c->n_arr || !c->idx) {
        ssdsim__cands_fini(c);
        return SSDSIM_ENOMEM;
    }
    memset(c->b_head, 0xff, sizeof *c->b_head * nh);
    memset(c->b_tail, 0xff, sizeof *c->b_tail * nh);
    memset(c->f_head, 0xff, sizeof *c->f_head * n_planes);
    memset(c->f_tail, 0xff, sizeof *c->f_tail * n_planes);
    /* per-block links resident now (every one is written before it is read): the memory of a
     * run stays flat (memest.h) */
    memset(c->b_next, 0xff, sizeof *c->b_next * nb);
    memset(c->b_prev, 0xff, sizeof *c->b_prev * nb);
    memset(c->f_next, 0xff, sizeof *c->f_next * nb);
    memset(c->f_prev, 0xff, sizeof *c->f_prev * nb);
    memset(c->arr, 0xff, sizeof *c->arr * nb);
    memset(c->idx, 0xff, sizeof *c->idx * nb);
    return 0;
}

void ssdsim__cands_fini(struct ssdsim__cands *c)
{
    free(c->b_head);
    free(c->b_tail);
    free(c->b_next);
    free(c->b_prev);
    free(c->min_hint);
    free(c->f_head);
    free(c->f_tail);
    free(c->f_next);
    free(c->f_prev);
    free(c->arr);
    free(c->n_arr);
    free(c->idx);
    memset(c, 0, sizeof *c);
}

static inline uint32_t plane_of(const struct ssdsim__cands *c, uint32_t block)
{
    return ssdsim__udiv_q(&c->div_bpp, block);
}

/* The bucket of `plane`'s candidates with `valid` valid pages: an index of b_head / b_tail. */
static inline size_t bucket(const struct ssdsim__cands *c, uint32_t plane, uint32_t valid)
{
    return (size_t)plane * c->n_counts + valid;
}

/* Append `block` of `plane` to its bucket of `valid` valid pages. */
static inline void bucket_append(struct ssdsim__cands *c, uint32_t block, uint32_t plane,
                                 uint32_t valid)
{
    size_t h = bucket(c, plane, valid);
    c->b_next[block] = NONE;
    c->b_prev[block] = c->b_tail[h];
    if (c->b_tail[h] != NONE)
        c->b_next[c->b_tail[h]] = block;
    else
        c->b_head[h] = block;
    c->b_tail[h] = block;
    if (valid < c->min_hint[plane])
        c->min_hint[plane] = valid;
}

/* Take `block` of `plane` out of its bucket of `valid` valid pages. */
static inline void bucket_unlink(struct ssdsim__cands *c, uint32_t block, uint32_t plane,
                                 uint32_t valid)
{
    size_t h = bucket(c, plane, valid);
    uint32_t n = c->b_next[block], p = c->b_prev[block];
    if (p != NONE)
        c->b_next[p] = n;
    else
        c->b_head[h] = n;
    if (n != NONE)
        c->b_prev[n] = p;
    else
        c->b_tail[h] = p;
}

void ssdsim__cands_insert(struct ssdsim__cands *c, uint32_t block, uint32_t valid)
{
    uint32_t plane = plane_of(c, block);
    if (!c->no_buckets)
        bucket_append(c, block, plane, valid);
    /* close order */
    c->f_next[block] = NONE;
    c->f_prev[block] = c->f_tail[plane];
    if (c->f_tail[plane] != NONE)
        c->f_next[c->f_tail[plane]] = block;
    else
        c->f_head[plane] = block;
    c->f_tail[plane] = block;
    /* sampling array */
    uint32_t i = c->n_arr[plane]++;
    c->arr[(size_t)plane * c->blocks_per_plane + i] = block;
    c->idx[block] = i;
}

void ssdsim__cands_remove(struct ssdsim__cands *c, uint32_t block, uint32_t valid)
{
    uint32_t plane = plane_of(c, block);
    if (!c->no_buckets)
        bucket_unlink(c, block, plane, valid);
    uint32_t n = c->f_next[block], p = c->f_prev[block];
    if (p != NONE)
        c->f_next[p] = n;
    else
        c->f_head[plane] = n;
    if (n != NONE)
        c->f_prev[n] = p;
    else
        c->f_tail[plane] = p;
    uint32_t *base = &c->arr[(size_t)plane * c->blocks_per_plane];
    uint32_t i = c->idx[block], last = base[--c->n_arr[plane]];
    base[i] = last;
    c->idx[last] = i;
}

void ssdsim__cands_move_down(struct ssdsim__cands *c, uint32_t block, uint32_t valid)
{
    uint32_t plane = plane_of(c, block);
    bucket_unlink(c, block, plane, valid + 1);
    bucket_append(c, block, plane, valid);
}

uint32_t ssdsim__cands_fewest_valid(struct ssdsim__cands *c, uint32_t plane)
{
    if (c->no_buckets)
        return NONE;
    const uint32_t *heads = &c->b_head[bucket(c, plane, 0)];
    for (uint32_t v = c->min_hint[plane]; v < c->n_counts; v++) {
        if (heads[v] != NONE) {
            c->min_hint[plane] = v;
            return heads[v];
        }
    }
    c->min_hint[plane] = c->n_counts;
    return NONE;
}
