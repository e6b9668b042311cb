/* engine.c: the radix-heap event queue and the run loop (see engine.h for the structure). */
#include "engine/engine.h"

#include <stdlib.h>
#include <string.h>

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
    return 0;
}

void ssdsim__engine_fini(struct ssdsim__engine *e)
{
    if (!e)
        return;
    for (int i = 0; i < SSDSIM__EV_BUCKETS; i++)
        free(e->b[i].v);
    free(e->recs);
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
    int i = bucket_of(ev->time, e->last);
    struct ssdsim__ev_bucket *b = &e->b[i];
    if (SSDSIM__UNLIKELY(b->n == b->cap) && !bucket_grow(b)) {
        e->oom = e->stopped = true;
        return SSDSIM_ENOMEM;
    }
    b->v[b->n++] = *ev;
    if (i) {
        e->mask[(i - 1) >> 6] |= 1ULL << ((i - 1) & 63);
        e->levels |= 1u << ((i - 1) >> 6);
    }
    return 0;
}

int ssdsim__engine_schedule_grow(struct ssdsim__engine *e, int i, uint64_t time,
                                 ssdsim__event_fn fn, void *ctx, uint32_t arg)
{
    (void)i; /* push finds the same bucket */
    struct ssdsim__event ev = {time, fn, ctx, arg, 0};
    int rc = push(e, &ev);
    if (rc == 0)
        e->n_live++;
    return rc;
}

#define REC_LINK offsetof(struct ssdsim__ev_rec, next_free)

ssdsim__event_id ssdsim__engine_schedule_cancellable(struct ssdsim__engine *e, uint64_t time,
                                                     ssdsim__event_fn fn, void *ctx,
                                                     uint32_t arg)
{
    assert(time >= e->now && time >= e->last && "an event cannot be scheduled in the past");
    if (ssdsim__ipool_empty(&e->rec_pool)) {
        struct ssdsim__ev_rec *p = ssdsim__ipool_grow(&e->rec_pool, e->recs, sizeof *p, REC_LINK, 16);
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
    if (push(e, &ev)) {
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
    if (min > t_end)
        return 0;
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

static inline int run_loop(struct ssdsim__engine *e, uint64_t max_events, bool bounded,
                           uint64_t t_end)
{
    uint64_t n = 0;
    struct ssdsim__ev_bucket *b0 = &e->b[0];
    bool outer = e->running;
    e->running = true;
    e->stopped = false;
    while (!e->stopped) {
        struct ssdsim__event ev;
        if (b0->head < b0->n) {
            ev = b0->v[b0->head];
            if (bounded && ev.time > t_end)
                break;
            b0->head++;
        } else {
            b0->head = b0->n = 0;
            /* nothing pending, or the earliest after t_end, or a push failed */
            if (!e->levels || !refill(e, bounded ? t_end : UINT64_MAX, &ev) || e->oom)
                break;
        }
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
        if (max_events && ++n >= max_events)
            break;
    }
    if (b0->head == b0->n)
        b0->head = b0->n = 0;
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
