/* ipool.h: the index pool, the free list of slots in a growable array that the engine's event
 * records and ring nodes, the flash operations, the host's requests, the array's commands, the
 * FTLs' waiting writes and the DFTL's requests waiting on a mapping load are kept in.
 *
 * The caller owns the array (a typed pointer, so that its elements are read as they are) and
 * gives each element a uint32_t link field; the pool keeps the array's capacity and the first
 * free slot, the free slots chained through their link fields (UINT32_MAX ends the chain).
 * Slots are taken last-freed first, new ones in ascending order; indices stay valid when the
 * array grows. Taking and putting back a slot are a few inline instructions with no allocation:
 * in a steady state the pool has reached its peak and never grows again.
 *
 *     if (ssdsim__ipool_empty(&pool)) {
 *         struct item *v = ssdsim__ipool_grow(&pool, items, sizeof *v, offsetof(struct item, next), 64);
 *         if (!v) return UINT32_MAX;
 *         items = v;
 *     }
 *     uint32_t i = ssdsim__ipool_take(&pool, items, sizeof *items, offsetof(struct item, next));
 *     ...
 *     ssdsim__ipool_put(&pool, items, sizeof *items, offsetof(struct item, next), i);
 */
#ifndef SSDSIM_IPOOL_H
#define SSDSIM_IPOOL_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "common.h"

struct ssdsim__ipool {
    uint32_t cap; /* slots in the array */
    uint32_t free; /* the first free slot, UINT32_MAX for none */
};

static inline void ssdsim__ipool_init(struct ssdsim__ipool *p)
{
    p->cap = 0;
    p->free = UINT32_MAX;
}

static inline bool ssdsim__ipool_empty(const struct ssdsim__ipool *p)
{
    return p->free == UINT32_MAX;
}

/* Grow array `v` (elements of `size` bytes, the link field `link` bytes into each) to twice its
 * slots, or to `first` slots when it has none, the new slots zeroed and chained free. Returns the
 * new array, or NULL when out of memory (`v` and the pool are then unchanged). */
void *ssdsim__ipool_grow(struct ssdsim__ipool *p, void *v, size_t size, size_t link,
                         uint32_t first);

/* A free slot of array `v`, which must have one (!ssdsim__ipool_empty). */
static inline uint32_t ssdsim__ipool_take(struct ssdsim__ipool *p, const void *v, size_t size,
                                          size_t link)
{
    uint32_t i = p->free;
    assert(i < p->cap);
    memcpy(&p->free, (const char *)v + (size_t)i * size + link, sizeof p->free);
    return i;
}

/* Slot `i` of array `v` is free again. */
static inline void ssdsim__ipool_put(struct ssdsim__ipool *p, void *v, size_t size, size_t link,
                                     uint32_t i)
{
    assert(i < p->cap);
    memcpy((char *)v + (size_t)i * size + link, &p->free, sizeof p->free);
    p->free = i;
}

#endif
