/* ipool.c: growing an index pool's array (ipool.h). */
#include "ipool.h"

#include <stdlib.h>

void *ssdsim__ipool_grow(struct ssdsim__ipool *p, void *v, size_t size, size_t link,
                         uint32_t first)
{
    if (p->cap >= UINT32_MAX / 2)
        return NULL; /* indices are 32-bit, UINT32_MAX ending the chain */
    uint32_t ncap = p->cap ? p->cap * 2 : (first ? first : 1);
    char *nv = realloc(v, size * ncap);
    if (!nv)
        return NULL;
    memset(nv + size * p->cap, 0, size * (ncap - p->cap));
    for (uint32_t k = p->cap; k < ncap; k++) {
        uint32_t next = k + 1 < ncap ? k + 1 : p->free;
        memcpy(nv + (size_t)k * size + link, &next, sizeof next);
    }
    p->free = p->cap;
    p->cap = ncap;
    return nv;
}
