/* greedy.c: per-plane valid-count buckets and the greedy victim policy (fewest valid pages). */
#include "gc/gc.h"

#include <stdlib.h>
#include <string.h>

#define NONE UINT32_MAX

int ssdsim__gc_buckets_init(struct ssdsim__gc_buckets *b, uint32_t n_planes,
                            uint32_t blocks_per_plane, uint32_t pages_per_block)
{
    memset(b, 0, sizeof *b);
    uint64_t n_blocks = (uint64_t)n_planes * blocks_per_plane;
    b->n_planes = n_planes;
    b->n_counts = pages_per_block + 1;
    b->blocks_per_plane = blocks_per_plane;
    b->head = malloc(sizeof *b->head * (size_t)n_planes * b->n_counts);
    b->next = malloc(sizeof *b->next * n_blocks);
    b->prev = malloc(sizeof *b->prev * n_blocks);
    b->min_hint = calloc(n_planes, sizeof *b->min_hint);
    if (!b->head || !b->next || !b->prev || !b->min_hint) {
        ssdsim__gc_buckets_fini(b);
        return SSDSIM_ENOMEM;
    }
    memset(b->head, 0xff, sizeof *b->head * (size_t)n_planes * b->n_counts);
    memset(b->next, 0xff, sizeof *b->next * n_blocks);
    memset(b->prev, 0xff, sizeof *b->prev * n_blocks);
    return 0;
}

void ssdsim__gc_buckets_fini(struct ssdsim__gc_buckets *b)
{
    free(b->head);
    free(b->next);
    free(b->prev);
    free(b->min_hint);
    memset(b, 0, sizeof *b);
}

static inline uint32_t *head_of(struct ssdsim__gc_buckets *b, uint32_t block, uint32_t valid)
{
    uint32_t plane = block / b->blocks_per_plane;
    return &b->head[(size_t)plane * b->n_counts + valid];
}

void ssdsim__gc_buckets_insert(struct ssdsim__gc_buckets *b, uint32_t block, uint32_t valid)
{
    uint32_t *h = head_of(b, block, valid);
    b->prev[block] = NONE;
    b->next[block] = *h;
    if (*h != NONE)
        b->prev[*h] = block;
    *h = block;
    uint32_t plane = block / b->blocks_per_plane;
    if (valid < b->min_hint[plane])
        b->min_hint[plane] = valid;
}

void ssdsim__gc_buckets_remove(struct ssdsim__gc_buckets *b, uint32_t block, uint32_t valid)
{
    uint32_t n = b->next[block], p = b->prev[block];
    if (p != NONE)
        b->next[p] = n;
    else
        *head_of(b, block, valid) = n;
    if (n != NONE)
        b->prev[n] = p;
    b->next[block] = b->prev[block] = NONE;
}

void ssdsim__gc_buckets_dec(struct ssdsim__gc_buckets *b, uint32_t block, uint32_t valid)
{
    ssdsim__gc_buckets_remove(b, block, valid + 1);
    ssdsim__gc_buckets_insert(b, block, valid);
}

uint32_t ssdsim__gc_greedy_victim(struct ssdsim__gc_buckets *b, uint32_t plane, uint32_t *valid)
{
    uint32_t *heads = &b->head[(size_t)plane * b->n_counts];
    for (uint32_t v = b->min_hint[plane]; v < b->n_counts; v++) {
        if (heads[v] != NONE) {
            b->min_hint[plane] = v;
            *valid = v;
            return heads[v];
        }
    }
    b->min_hint[plane] = b->n_counts;
    return NONE;
}
