/* rng.h: deterministic random streams (xoshiro256**), one per component, each seeded from the
 * run seed and the component's name through splitmix64, so adding a component never shifts the
 * numbers another component draws. */
#ifndef SSDSIM_RNG_H
#define SSDSIM_RNG_H

#include "common.h"

struct ssdsim__rng {
    uint64_t s[4];
};

/* Seed from a 64-bit seed and a stream name (and an index, for per-job streams). */
void ssdsim__rng_seed(struct ssdsim__rng *r, uint64_t seed, const char *name, uint64_t index);

static inline uint64_t ssdsim__rng_rotl(uint64_t x, int k)
{
    return (x << k) | (x >> (64 - k));
}

static inline uint64_t ssdsim__rng_next(struct ssdsim__rng *r)
{
    uint64_t *s = r->s;
    uint64_t result = ssdsim__rng_rotl(s[1] * 5, 7) * 9;
    uint64_t t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = ssdsim__rng_rotl(s[3], 45);
    return result;
}

/* Uniform integer in [0, n) without modulo bias (Lemire's multiply-shift with rejection). */
static inline uint64_t ssdsim__rng_below(struct ssdsim__rng *r, uint64_t n)
{
    if (n <= 1)
        return 0;
    unsigned __int128 m = (unsigned __int128)ssdsim__rng_next(r) * n;
    uint64_t lo = (uint64_t)m;
    if (lo < n) {
        uint64_t thresh = -n % n;
        while (lo < thresh) {
            m = (unsigned __int128)ssdsim__rng_next(r) * n;
            lo = (uint64_t)m;
        }
    }
    return (uint64_t)(m >> 64);
}

/* Uniform double in [0, 1) with 53 random bits. */
static inline double ssdsim__rng_double(struct ssdsim__rng *r)
{
    return (double)(ssdsim__rng_next(r) >> 11) * 0x1.0p-53;
}

#endif /* SSDSIM_RNG_H */
