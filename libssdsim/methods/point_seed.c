/* point_seed.c: the seed of a sweep point (ssdsim_point_seed), derived from the base seed and
 * the point's parameters by hashing their text, so that a point has the same seed however the
 * grid around it is ordered or cut, and on whichever machine it runs. */
#include "methods/point.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FNV_PRIME UINT64_C(0x100000001b3)

uint64_t ssdsim__fnv1a64(uint64_t h, const char *s)
{
    for (; *s; s++) {
        h ^= (unsigned char)*s;
        h *= FNV_PRIME;
    }
    return h;
}

/* Order of "KEY=VALUE" texts by key (the bytes before '='), as strcmp orders the keys alone. */
static int cmp_key(const void *a, const void *b)
{
    const char *x = *(const char *const *)a, *y = *(const char *const *)b;
    size_t nx = strcspn(x, "="), ny = strcspn(y, "=");
    int c = memcmp(x, y, nx < ny ? nx : ny);
    return c ? c : (nx > ny) - (nx < ny);
}

/* FNV alone spreads a change in the last bytes to few of the high bits (neighbouring points
 * would get similar-looking seeds); the splitmix64 finalizer mixes every bit. */
int ssdsim_point_seed(uint64_t base, const char *const *kv, size_t n, uint64_t *out)
{
    if (!out || (n && !kv))
        return SSDSIM_EINVAL;
    for (size_t i = 0; i < n; i++)
        if (!kv[i] || !strchr(kv[i], '='))
            return SSDSIM_EINVAL;
    const char **order = malloc((n ? n : 1) * sizeof *order);
    if (!order)
        return SSDSIM_ENOMEM;
    if (n)
        memcpy(order, kv, n * sizeof *order);
    qsort(order, n, sizeof *order, cmp_key);
    char head[48];
    snprintf(head, sizeof head, "seed=%" PRIu64 ";", base);
    uint64_t h = ssdsim__fnv1a64(SSDSIM__FNV_OFFSET, head);
    for (size_t i = 0; i < n; i++) {
        /* "KEY=VALUE" hashes as KEY, "=", VALUE in turn: FNV-1a is byte by byte. */
        h = ssdsim__fnv1a64(h, order[i]);
        h = ssdsim__fnv1a64(h, ";");
    }
    free(order);
    h = (h ^ (h >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
    h = (h ^ (h >> 27)) * UINT64_C(0x94d049bb133111eb);
    h ^= h >> 31;
    *out = h >> 11;
    return 0;
}
