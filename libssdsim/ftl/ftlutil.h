/* ftlutil.h: what the built-in FTLs (ftl/page.c, ftl/fast.c, ftl/direct.c, ftl/zoned.c) have in
 * common (never installed): the layout of their flash-operation cookies, the host read of a
 * mapped or unmapped unit and the completion of a host unit's flash operation, the order in
 * which units or logical blocks are striped over the planes, and the two containers of host
 * unit writes that wait: a pool for writes whose read-modify-write read is in flight, and a
 * FIFO for writes that wait for a page (stalled).
 *
 * Both containers are flat arrays that grow by doubling when full and never shrink, so after
 * the peak number of waiting writes has been reached nothing is allocated any more: the hot path
 * stays allocation-free in steady state. The cost is that the peak's memory (12 bytes a write)
 * is kept until the FTL is destroyed.
 */
#ifndef SSDSIM_FTL_FTLUTIL_H
#define SSDSIM_FTL_FTLUTIL_H

#include "common.h"
#include "ftl/env.h"
#include "ipool.h"

#include <stdlib.h>

/* ---------------------------------------------------------------- cookies */

/* A flash operation's cookie: the top byte a tag saying what the operation is for (each FTL has
 * its own tags), bits 32-55 a small value (`mid`: bytes of a read, a page offset), the low 32
 * bits an index (request, page, plane or block). */
static inline uint64_t ssdsim__cookie(unsigned tag, uint32_t mid, uint32_t low)
{
    return ((uint64_t)tag << 56) | ((uint64_t)(mid & 0xffffffu) << 32) | low;
}

static inline unsigned ssdsim__cookie_tag(uint64_t ck)
{
    return (unsigned)(ck >> 56);
}

static inline uint32_t ssdsim__cookie_mid(uint64_t ck)
{
    return (uint32_t)(ck >> 32) & 0xffffffu;
}

static inline uint32_t ssdsim__cookie_low(uint64_t ck)
{
    return (uint32_t)ck;
}

/* ---------------------------------------------------------------- host reads */

/* A host read of one unit whose newest copy is at `ppn`. A page never written (or trimmed),
 * `ppn` UINT32_MAX, is answered with zeros at once without touching flash, as a controller
 * does; otherwise the page is read with cookie `ck`, and the FTL's flash_done completes the unit.
 * Returns 0 or what ssdsim_ftl_submit returns (the same submission, without the checks a
 * plugin's gets). */
static inline int ssdsim__ftl_host_read(ssdsim_ftl_env *env, uint32_t ppn, uint32_t io,
                                        uint32_t bytes, uint64_t ck)
{
    if (ppn == UINT32_MAX) {
        ssdsim_ftl_count(env, SSDSIM_CNT_UNMAPPED_READS, 1);
        ssdsim_ftl_unit_done(env, io, bytes);
        return 0;
    }
    /* (ssdsim_ftl_submit without its checks: a mapped page and a unit's bytes are right) */
    return ssdsim__env_submit_ftl(env, SSDSIM_FLASH_READ, ppn, bytes, SSDSIM_FOR_HOST, ck);
}

/* A host unit's flash read or program is done: the host is told, with the request in the low
 * bits of its cookie and the bytes read in `mid` (0 for a program: every built-in FTL writes
 * its host programs' cookies so). */
static inline void ssdsim__ftl_host_done(ssdsim_ftl_env *env, uint64_t ck)
{
    /* (ssdsim_ftl_unit_done, without its call) */
    env->unit_done(env->unit_done_ctx, ssdsim__cookie_low(ck), ssdsim__cookie_mid(ck));
}

/* ---------------------------------------------------------------- plane stripe */

/* The plane of stripe index i (< g->n_planes) when the indexes walk channels first, then chips,
 * dies and planes, so that consecutive indexes are on different channels while there are
 * channels left and on different dies while there are dies left: the places of the direct and
 * zoned FTLs' units and of FAST's logical blocks. */
static inline uint32_t ssdsim__ftl_stripe_plane(const ssdsim_geometry *g, uint32_t i)
{
    uint32_t r = i;
    uint32_t ch = r % g->channels;
    r /= g->channels;
    uint32_t chip = r % g->chips_per_channel;
    r /= g->chips_per_channel;
    uint32_t die = r % g->dies_per_chip;
    r /= g->dies_per_chip;
    return ((ch * g->chips_per_channel + chip) * g->dies_per_chip + die) * g->planes_per_die + r;
}

/* ---------------------------------------------------------------- waiting writes */

/* A host unit write waiting for a page (stalled) or for its read-modify-write read. */
struct ssdsim__pending {
    uint32_t io;
    uint32_t lpn;
    uint64_t since; /* page FTL: when a stalled write started waiting */
    uint8_t fr; /* page FTL: frontier of a stalled write (FAST leaves it 0) */
    uint8_t group; /* page FTL with FDP: the reclaim group it is meant for */
};

/* Writes whose read-modify-write read is in flight, each in a slot of an index pool (ipool.h)
 * whose index goes in the read's cookie; free slots are chained through their `io` field. */
struct ssdsim__pending_pool {
    struct ssdsim__pending *v;
    struct ssdsim__ipool ip;
};

#define SSDSIM__PENDING_LINK offsetof(struct ssdsim__pending, io)

static inline void ssdsim__pending_pool_init(struct ssdsim__pending_pool *p)
{
    p->v = NULL;
    ssdsim__ipool_init(&p->ip);
}

static inline void ssdsim__pending_pool_fini(struct ssdsim__pending_pool *p)
{
    free(p->v);
    ssdsim__pending_pool_init(p);
}

/* Store `w` in a free slot, doubling the pool (first to 64 slots) when none is left. Returns the
 * slot, or UINT32_MAX when out of memory (the pool is then unchanged). */
static inline uint32_t ssdsim__pending_pool_add(struct ssdsim__pending_pool *p,
                                                struct ssdsim__pending w)
{
    if (ssdsim__ipool_empty(&p->ip)) {
        struct ssdsim__pending *v =
            ssdsim__ipool_grow(&p->ip, p->v, sizeof *v, SSDSIM__PENDING_LINK, 64);
        if (!v)
            return UINT32_MAX;
        p->v = v;
    }
    uint32_t slot = ssdsim__ipool_take(&p->ip, p->v, sizeof *p->v, SSDSIM__PENDING_LINK);
    p->v[slot] = w;
    return slot;
}

/* The write in `slot`, whose slot becomes free. */
static inline struct ssdsim__pending ssdsim__pending_pool_take(struct ssdsim__pending_pool *p,
                                                               uint32_t slot)
{
    struct ssdsim__pending w = p->v[slot];
    ssdsim__ipool_put(&p->ip, p->v, sizeof *p->v, SSDSIM__PENDING_LINK, slot);
    return w;
}

/* Stalled writes, oldest first: a ring of `cap` entries from `head`. All zero is an empty queue
 * (FTL state is allocated zeroed). */
struct ssdsim__pending_fifo {
    struct ssdsim__pending *v;
    uint32_t cap, head, n;
};

static inline void ssdsim__pending_fifo_fini(struct ssdsim__pending_fifo *q)
{
    free(q->v);
    *q = (struct ssdsim__pending_fifo){0};
}

/* Append `w`. A full ring is copied, oldest first, into one of twice its size (`first_cap`
 * entries the first time). Returns false when out of memory (the queue is then unchanged). */
static inline bool ssdsim__pending_fifo_push(struct ssdsim__pending_fifo *q,
                                             struct ssdsim__pending w, uint32_t first_cap)
{
    if (q->n == q->cap) {
        uint32_t ncap = q->cap ? q->cap * 2 : first_cap;
        struct ssdsim__pending *v = malloc(sizeof *v * ncap);
        if (!v)
            return false;
        for (uint32_t i = 0; i < q->n; i++)
            v[i] = q->v[(q->head + i) % q->cap];
        free(q->v);
        q->v = v;
        q->cap = ncap;
        q->head = 0;
    }
    q->v[(q->head + q->n++) % q->cap] = w;
    return true;
}

/* The oldest write (the queue must not be empty); it stays queued until popped. */
static inline struct ssdsim__pending
ssdsim__pending_fifo_front(const struct ssdsim__pending_fifo *q)
{
    assert(q->n > 0);
    return q->v[q->head];
}

static inline void ssdsim__pending_fifo_pop(struct ssdsim__pending_fifo *q)
{
    assert(q->n > 0);
    q->head = (q->head + 1) % q->cap;
    q->n--;
}

#endif /* SSDSIM_FTL_FTLUTIL_H */
