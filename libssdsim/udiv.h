/* udiv.h: division of 32-bit unsigned values by a divisor fixed when a structure is set up (a
 * geometry figure: pages per block, blocks per plane, planes per die, page types). The hot path
 * divides by these on every flash operation; a hardware divide costs tens of cycles of latency,
 * a shift one. When the divisor is a power of two (as in every model in models/) the quotient
 * is a shift and the remainder a mask; otherwise it is the divide. The results are the same
 * either way: this changes the cost, never a figure. */
#ifndef SSDSIM_UDIV_H
#define SSDSIM_UDIV_H

#include <stdbool.h>
#include <stdint.h>

struct ssdsim__udiv {
    uint32_t d;     /* the divisor (> 0) */
    uint32_t mask;  /* d - 1 when a power of two */
    uint8_t shift;  /* log2(d) when a power of two */
    bool pow2;
};

static inline void ssdsim__udiv_init(struct ssdsim__udiv *u, uint32_t d)
{
    u->d = d ? d : 1;
    u->pow2 = (u->d & (u->d - 1)) == 0;
    u->mask = u->d - 1;
    u->shift = 0;
    while (u->pow2 && (1u << u->shift) < u->d)
        u->shift++;
}

static inline uint32_t ssdsim__udiv_q(const struct ssdsim__udiv *u, uint32_t n)
{
    return u->pow2 ? n >> u->shift : n / u->d;
}

static inline uint32_t ssdsim__udiv_r(const struct ssdsim__udiv *u, uint32_t n)
{
    return u->pow2 ? n & u->mask : n % u->d;
}

/* The quotient of a 64-bit value (a byte offset by the mapping unit). */
static inline uint64_t ssdsim__udiv_q64(const struct ssdsim__udiv *u, uint64_t n)
{
    return u->pow2 ? n >> u->shift : n / u->d;
}

#endif /* SSDSIM_UDIV_H */
