/* engine.c: the event queue (a ring of FIFO buckets in front of a radix heap) and the run loop
 * (see engine.h for the structure). */
#include "engine/engine.h"

#include <stdlib.h>
#include <string.h>

#define NODE_LINK offsetof(struct ssdsim__ev_node, next)

int ssdsim__engine_init(struct ssdsim__engine *e, uint32_t initial_capacity)
{
    memset(e, 0, sizeof *e);
    ssdsim__ipool_init(&e->rec_pool);
    /* Bucket 0 takes a burst of same-time events; start it at the caller's estimate. The
     * others get memory when first used (most levels never are: delays span a few digits). */
    uint32_t cap = initial_capacity < 16 ? 16 : initial_capacity;
    e->b[0].v = malloc(sizeof *e->b[0].v * cap);
    if (!e->b[0].v)
        return SSDSIM_ENOMEM;
    e->b[0].cap = cap;
    e->ring_n = SSDSIM__EV_RING_N;
    ssdsim__ipool_init(&e->node_pool);
    e->rnext = UINT64_MAX;
    for (int k = 0; k < SSDSIM__EV_RING_N; k++)
        e->rhead[k] = e->rtail[k] = SSDSIM__EV_NONE;
    return 0;
}

void ssdsim__engine_fini(struct ssdsim__engine *e)
{
    if (!e)
        return;
    for (int i = 0; i < SSDSIM__EV_BUCKETS; i++)
        free(e->b[i].v);
    free(e->recs);
    free(e->nodes);
    memset(e, 0, sizeof *e);
    ssdsim__ipool_init(&e->rec_pool);
}

static inline int bucket_of(uint64_t time, uint64_t last)
{
    uint64_t x = time ^ last;
    if (x == 0)
        return 0;
    int level = (63 - __builtin_clzll(x)) / SSDSIM__EV_DIGIT;
    return 1 + level * SSDSIM__EV_RADIX +
           (int)((time >> (level * SSDSIM__EV_DIGIT)) & (SSDSIM__EV_RADIX - 1));
}

static bool bucket_grow(struct ssdsim__ev_bucket *b)
{
    uint32_t ncap = b->cap ? b->cap * 2 : 16;
    struct ssdsim__event *p = realloc(b->v, sizeof *p * ncap);
    if (!p)
        return false;
    b->v = p;
    b->cap = ncap;
    return true;
}

static inline int push(struct ssdsim__engine *e, const struct ssdsim__event *ev)
{
    assert(ev->time >= e->last && "the radix heap takes no event before its reference");
    int i = bucket_of(ev->time, e->last);
    struct ssdsim__ev_bucket *b = &e->b[i];
    if (SSDSIM__UNLIKELY(b->n == b->cap) && !bucket_grow(b)) {
        e->oom = e->stopped = true;
        return SSDSIM_ENOMEM;
    }
    b->v[b->n++] = *ev;
    if (ev->time < e->rnext)
        e->rnext = ev->time;
    if (i) {
        e->mask[(i - 1) >> 6] |= 1ULL << ((i - 1) & 63);
        e->levels |= 1u << ((i - 1) >> 6);
    }
    return 0;
}

/* Append ev to its ring bucket (its time within the window), growing the nodes when none is
 * free. */
static int ring_put(struct ssdsim__engine *e, const struct ssdsim__event *ev)
{
    if (ssdsim__ipool_empty(&e->node_pool)) {
        struct ssdsim__ev_node *p =
            ssdsim__ipool_grow(&e->node_pool, e->nodes, sizeof *p, NODE_LINK, 64);
        if (!p) {
            e->oom = e->stopped = true;
            return SSDSIM_ENOMEM;
        }
        e->nodes = p;
    }
    uint32_t n = ssdsim__ipool_take(&e->node_pool, e->nodes, sizeof *e->nodes, NODE_LINK);
    struct ssdsim__ev_node *nd = &e->nodes[n];
    *nd = (struct ssdsim__ev_node){ev->time, ev->fn, ev->ctx, ev->arg, ev->rec, SSDSIM__EV_NONE};
    uint64_t idx = ev->time >> SSDSIM__EV_RING_SHIFT;
    ssdsim__engine_ring_link(e, n, (uint32_t)idx & (SSDSIM__EV_RING_N - 1));
    return 0;
}

/* The radix heap's earliest event into *ev when it is at most t_end: 1, else 0 (nothing
 * moves; rnext then says how early its next event can be). */
static inline int refill(struct ssdsim__engine *e, uint64_t t_end, struct ssdsim__event *ev);
static inline int radix_pop(struct ssdsim__engine *e, uint64_t t_end, struct ssdsim__event *ev)
{
    struct ssdsim__ev_bucket *b0 = &e->b[0];
    if (b0->head < b0->n) {
        if (b0->v[b0->head].time > t_end) {
            e->rnext = b0->v[b0->head].time;
            return 0;
        }
        *ev = b0->v[b0->head++];
        return 1;
    }
    b0->head = b0->n = 0;
    if (!e->levels) {
        e->rnext = UINT64_MAX;
        return 0;
    }
    return refill(e, t_end, ev);
}

/* The window moved on (cur, or the ring turned on): the radix heap's events within it go to
 * the ring, earliest first, so that each bucket keeps its events in scheduling order (every
 * event moved was scheduled before any event of its time that the ring took directly). */
static SSDSIM__NOINLINE bool migrate_some(struct ssdsim__engine *e, uint64_t end)
{
    struct ssdsim__event ev;
    while (radix_pop(e, end - 1, &ev))
        if (ring_put(e, &ev))
            return false;
    return !e->oom; /* (a refill's push may have failed) */
}

/* False when out of memory. */
static SSDSIM__INLINE bool migrate(struct ssdsim__engine *e)
{
    uint64_t end = (e->cur + e->ring_n) << SSDSIM__EV_RING_SHIFT;
    return end <= e->rnext || migrate_some(e, end);
}

/* Too many events for the ring: all go to the radix heap, rebuilt from now, the ring's first
 * (in bucket order from cur, each bucket in its order), then the heap's (in their order). */
static void ring_off(struct ssdsim__engine *e)
{
    /* the ring's events counted here, where it is rare, rather than kept per event */
    uint32_t total = 0;
    for (uint32_t b = 0; b < SSDSIM__EV_RING_N; b++)
        for (uint32_t n = e->rhead[b]; n != SSDSIM__EV_NONE; n = e->nodes[n].next)
            total++;
    for (int i = 0; i < SSDSIM__EV_BUCKETS; i++)
        total += e->b[i].n - (i == 0 ? e->b[0].head : 0);
    struct ssdsim__event *all = malloc(sizeof *all * (total ? total : 1));
    if (!all) {
        e->oom = e->stopped = true;
        return;
    }
    uint32_t k = 0;
    for (uint32_t j = 0; j < SSDSIM__EV_RING_N; j++) {
        uint32_t b = (uint32_t)(e->cur + j) & (SSDSIM__EV_RING_N - 1);
        for (uint32_t n = e->rhead[b]; n != SSDSIM__EV_NONE;) {
            struct ssdsim__ev_node *nd = &e->nodes[n];
            all[k++] = (struct ssdsim__event){nd->time, nd->fn, nd->ctx, nd->arg, nd->rec};
            uint32_t nx = nd->next;
            ssdsim__ipool_put(&e->node_pool, e->nodes, sizeof *e->nodes, NODE_LINK, n);
            n = nx;
        }
        e->rhead[b] = e->rtail[b] = SSDSIM__EV_NONE;
    }
    memset(e->occ, 0, sizeof e->occ);
    e->occ_sum = 0;
    while (radix_pop(e, UINT64_MAX, &all[k]))
        k++;
    for (int i = 0; i < SSDSIM__EV_BUCKETS; i++)
        e->b[i].n = e->b[i].head = 0;
    memset(e->mask, 0, sizeof e->mask);
    e->levels = 0;
    e->last = e->now;
    e->rnext = UINT64_MAX;
    e->ring_n = 0;
    for (uint32_t j = 0; j < k; j++)
        if (push(e, &all[j]))
            break;
    free(all);
}

/* Queue ev: in the ring when its time is within the window, else in the radix heap (the
 * ring turned off first when it is full). */
static int enqueue(struct ssdsim__engine *e, const struct ssdsim__event *ev)
{
    if ((ev->time >> SSDSIM__EV_RING_SHIFT) - e->cur < e->ring_n) {
        if (!ssdsim__ipool_empty(&e->node_pool) || e->node_pool.cap < SSDSIM__EV_RING_MAX)
            return ring_put(e, ev);
        ring_off(e);
        if (e->oom)
            return SSDSIM_ENOMEM;
    }
    return push(e, ev);
}

int ssdsim__engine_schedule_slow(struct ssdsim__engine *e, uint64_t time, ssdsim__event_fn fn,
                                 void *ctx, uint32_t arg)
{
    struct ssdsim__event ev = {time, fn, ctx, arg, 0};
    int rc = enqueue(e, &ev);
    if (rc == 0)
        e->n_live++;
    return rc;
}

#define REC_LINK offsetof(struct ssdsim__ev_rec, next_free)

ssdsim__event_id ssdsim__engine_schedule_cancellable(struct ssdsim__engine *e, uint64_t time,
                                                     ssdsim__event_fn fn, void *ctx,
                                                     uint32_t arg)
{
    assert(time >= e->now && "an event cannot be scheduled in the past");
    if (ssdsim__ipool_empty(&e->rec_pool)) {
        struct ssdsim__ev_rec *p =
            ssdsim__ipool_grow(&e->rec_pool, e->recs, sizeof *p, REC_LINK, 16);
        if (!p) {
            e->oom = e->stopped = true;
            return 0;
        }
        e->recs = p;
    }
    uint32_t r = ssdsim__ipool_take(&e->rec_pool, e->recs, sizeof *e->recs, REC_LINK);
    e->recs[r].gen++;
    e->recs[r].cancelled = false;
    struct ssdsim__event ev = {time, fn, ctx, arg, r + 1};
    if (enqueue(e, &ev)) {
        ssdsim__ipool_put(&e->rec_pool, e->recs, sizeof *e->recs, REC_LINK, r);
        return 0;
    }
    e->n_live++;
    return ((uint64_t)e->recs[r].gen << 32) | (uint64_t)(r + 1);
}

void ssdsim__engine_cancel(struct ssdsim__engine *e, ssdsim__event_id id)
{
    if (id == 0)
        return;
    uint32_t r = (uint32_t)(id & 0xffffffffu) - 1;
    uint32_t gen = (uint32_t)(id >> 32);
    if (r >= e->rec_pool.cap || e->recs[r].gen != gen || e->recs[r].cancelled)
        return;
    e->recs[r].cancelled = true;
    e->n_live--;
}

/* Take the lowest non-empty bucket's events out and the earliest of them into *ev. Requires a
 * non-empty bucket other than 0 and bucket 0 empty. The earliest (the first of the bucket's
 * events with the least time, so the first scheduled of them) becomes `last` and is taken out as
 * it is: it never goes through bucket 0, which is empty, so events its callback schedules at its
 * time go there after the others of that time. The others move to lower buckets (those of the
 * same time to bucket 0, in their order). One event alone (four refills in five in
 * tests/bench_sim) is just taken. Returns 1, or 0 when the earliest event is later than `t_end`:
 * then nothing moves, as `last` must not pass a time the caller may still schedule at after
 * run_until(t_end). */
static inline int refill(struct ssdsim__engine *e, uint64_t t_end, struct ssdsim__event *ev)
{
    int w = __builtin_ctz(e->levels);
    int i = w * 64 + __builtin_ctzll(e->mask[w]) + 1;
    struct ssdsim__ev_bucket *src = &e->b[i];
    uint32_t n = src->n, at = 0;
    uint64_t min = src->v[0].time;
    for (uint32_t k = 1; k < n; k++)
        if (src->v[k].time < min) {
            min = src->v[k].time;
            at = k;
        }
    if (min > t_end) {
        e->rnext = min;
        return 0;
    }
    e->last = min;
    src->n = 0;
    e->mask[w] &= ~(1ULL << ((i - 1) & 63));
    if (e->mask[w] == 0)
        e->levels &= ~(1u << w);
    *ev = src->v[at];
    if (n == 1)
        return 1;
    /* Every other event lands in a bucket below i; none lands in i itself, so reading src while
     * pushing is safe. Order within a bucket is preserved. */
    for (uint32_t k = 0; k < n; k++)
        if (k != at)
            push(e, &src->v[k]);
    return 1;
}

/* The earliest event into *ev when it is at most t_end: 1, else 0 (nothing moves), and 0 when
 * a move ran out of memory (the oom flag set; the event is not run). The ring's
 * first non-empty bucket from cur holds it (scanned for the first of its least time), unless
 * the ring is empty (or off): then the radix heap does. */
static SSDSIM__INLINE int pop(struct ssdsim__engine *e, uint64_t t_end, struct ssdsim__event *ev)
{
    if (e->occ_sum) {
        uint32_t s0 = (uint32_t)e->cur & (SSDSIM__EV_RING_N - 1), w = s0 >> 6, b;
        uint64_t word = e->occ[w] & (~0ULL << (s0 & 63));
        if (word) {
            b = (w << 6) + (uint32_t)__builtin_ctzll(word);
        } else {
            uint64_t above = w == 63 ? 0 : e->occ_sum & (~0ULL << (w + 1));
            uint32_t w2 = (uint32_t)__builtin_ctzll(above ? above : e->occ_sum);
            b = (w2 << 6) + (uint32_t)__builtin_ctzll(e->occ[w2]);
        }
        struct ssdsim__ev_node *nodes = e->nodes;
        uint32_t best = e->rhead[b];
        struct ssdsim__ev_node *nd = &nodes[best];
        uint64_t bt = nd->time;
        if (SSDSIM__LIKELY(nd->next == SSDSIM__EV_NONE)) { /* alone in its bucket (most) */
            if (bt > t_end)
                return 0;
            e->rhead[b] = SSDSIM__EV_NONE;
            uint64_t left = e->occ[b >> 6] & ~(1ULL << (b & 63));
            e->occ[b >> 6] = left;
            if (!left)
                e->occ_sum &= ~(1ULL << (b >> 6));
        } else {
            uint32_t bprev = SSDSIM__EV_NONE;
            for (uint32_t p = best, q = nd->next; q != SSDSIM__EV_NONE;
                 p = q, q = nodes[q].next)
                if (nodes[q].time < bt) {
                    bt = nodes[q].time;
                    best = q;
                    bprev = p;
                }
            if (bt > t_end)
                return 0;
            nd = &nodes[best];
            uint32_t nx = nd->next;
            if (bprev == SSDSIM__EV_NONE)
                e->rhead[b] = nx;
            else
                nodes[bprev].next = nx;
            if (nx == SSDSIM__EV_NONE)
                e->rtail[b] = bprev;
        }
        *ev = (struct ssdsim__event){bt, nd->fn, nd->ctx, nd->arg, nd->rec};
        ssdsim__ipool_put(&e->node_pool, nodes, sizeof *nodes, NODE_LINK, best);
        uint64_t idx = bt >> SSDSIM__EV_RING_SHIFT;
        if (idx != e->cur) {
            e->cur = idx;
            if (SSDSIM__UNLIKELY(!migrate(e)))
                return 0;
        }
        return 1;
    }
    if (!radix_pop(e, t_end, ev) || SSDSIM__UNLIKELY(e->oom))
        return 0;
    if (e->ring_n || e->n_live < SSDSIM__EV_RING_LO) {
        /* the ring is empty: its window moves to this event (or the ring turns on again) */
        e->cur = ev->time >> SSDSIM__EV_RING_SHIFT;
        e->ring_n = SSDSIM__EV_RING_N;
        if (SSDSIM__UNLIKELY(!migrate(e)))
            return 0;
    }
    return 1;
}

/* Inline in run and run_until, so that run's copy has no bound to compare each event with
 * (bench_sim's timed writes: 6 instructions fewer per host write). */
static SSDSIM__INLINE int run_loop(struct ssdsim__engine *e, uint64_t max_events, bool bounded,
                                   uint64_t t_end)
{
    uint64_t left = max_events ? max_events : UINT64_MAX; /* events still to run */
    bool outer = e->running;
    e->running = true;
    e->stopped = false;
    while (!e->stopped) {
        struct ssdsim__event ev;
        /* nothing pending, or the earliest after t_end, or a push failed (pop says 0: no test
         * of the oom flag per event) */
        if (!pop(e, bounded ? t_end : UINT64_MAX, &ev))
            break;
        if (ev.rec) {
            struct ssdsim__ev_rec *r = &e->recs[ev.rec - 1];
            bool cancelled = r->cancelled;
            r->gen++; /* the handle is now stale */
            r->cancelled = false;
            ssdsim__ipool_put(&e->rec_pool, e->recs, sizeof *e->recs, REC_LINK, ev.rec - 1);
            if (cancelled)
                continue;
        }
        assert(ev.time >= e->now && "simulated time went backwards");
        e->now = ev.time;
        e->n_live--;
        e->n_executed++;
        ev.fn(ev.ctx, ev.arg);
        if (--left == 0)
            break;
    }
    e->running = outer;
    return e->oom ? SSDSIM_ENOMEM : 0;
}

int ssdsim__engine_run(struct ssdsim__engine *e, uint64_t max_events)
{
    return run_loop(e, max_events, false, 0);
}

int ssdsim__engine_run_until(struct ssdsim__engine *e, uint64_t t)
{
    int rc = run_loop(e, 0, true, t);
    if (rc == 0 && !e->stopped && t > e->now)
        e->now = t;
    return rc;
}
