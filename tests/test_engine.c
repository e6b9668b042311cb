/* test_engine.c: the event queue orders by (time, sequence), cancels in O(1), runs until a
 * time, stops, and every run ends with no event left behind (each test is a leak test). */
#include <stdlib.h>
#include <string.h>

#include "engine/engine.h"
#include "engine/rng.h"
#include "testutil.h"

struct trace {
    uint64_t times[4096];
    uint64_t args[4096];
    int n;
    struct ssdsim__engine *e;
};

static void record(void *ctx, uint32_t arg)
{
    struct trace *t = ctx;
    t->times[t->n] = ssdsim__engine_now(t->e);
    t->args[t->n] = arg;
    t->n++;
}

START_TEST(test_engine_orders_by_time_then_sequence)
{
    struct ssdsim__engine e;
    struct trace t = {.n = 0, .e = &e};
    ck_assert_int_eq(ssdsim__engine_init(&e, 4), 0);
    /* Same times scheduled out of order, and several at one time: FIFO among equal times. */
    ssdsim__engine_schedule(&e, 30, record, &t, 1);
    ssdsim__engine_schedule(&e, 10, record, &t, 2);
    ssdsim__engine_schedule(&e, 30, record, &t, 3);
    ssdsim__engine_schedule(&e, 10, record, &t, 4);
    ssdsim__engine_schedule(&e, 20, record, &t, 5);
    ck_assert_int_eq(ssdsim__engine_run(&e, 0), 0);
    uint64_t want_t[] = {10, 10, 20, 30, 30}, want_a[] = {2, 4, 5, 1, 3};
    ck_assert_int_eq(t.n, 5);
    for (int i = 0; i < 5; i++) {
        ck_assert_uint_eq(t.times[i], want_t[i]);
        ck_assert_uint_eq(t.args[i], want_a[i]);
    }
    ck_assert_uint_eq(ssdsim__engine_pending(&e), 0);
    ssdsim__engine_fini(&e);
}
END_TEST

START_TEST(test_engine_random_schedule_matches_sorted_order)
{
    /* 4000 events at random times (many ties) through a growing heap: the run order must be
     * the stable sort of (time, schedule order). */
    struct ssdsim__engine e;
    static struct trace t;
    t.n = 0;
    t.e = &e;
    ck_assert_int_eq(ssdsim__engine_init(&e, 1), 0);
    struct ssdsim__rng r;
    ssdsim__rng_seed(&r, 42, "test", 0);
    uint64_t times[4000];
    for (int i = 0; i < 4000; i++) {
        times[i] = ssdsim__rng_below(&r, 500);
        ssdsim__engine_schedule(&e, times[i], record, &t, (uint64_t)i);
    }
    ck_assert_int_eq(ssdsim__engine_run(&e, 0), 0);
    ck_assert_int_eq(t.n, 4000);
    for (int i = 1; i < 4000; i++) {
        ck_assert(t.times[i - 1] <= t.times[i]);
        if (t.times[i - 1] == t.times[i])
            ck_assert(t.args[i - 1] < t.args[i]);
        ck_assert_uint_eq(times[t.args[i]], t.times[i]);
    }
    ssdsim__engine_fini(&e);
}
END_TEST

START_TEST(test_engine_cancel_is_exact)
{
    struct ssdsim__engine e;
    struct trace t = {.n = 0, .e = &e};
    ck_assert_int_eq(ssdsim__engine_init(&e, 8), 0);
    ssdsim__event_id a = ssdsim__engine_schedule_cancellable(&e, 5, record, &t, 1);
    ssdsim__event_id b = ssdsim__engine_schedule_cancellable(&e, 6, record, &t, 2);
    ck_assert_uint_ne(a, 0);
    ssdsim__engine_cancel(&e, a);
    ssdsim__engine_cancel(&e, a); /* twice: harmless */
    ssdsim__engine_cancel(&e, 0); /* no event: harmless */
    ck_assert_uint_eq(ssdsim__engine_pending(&e), 1);
    ck_assert_int_eq(ssdsim__engine_run(&e, 0), 0);
    ck_assert_int_eq(t.n, 1);
    ck_assert_uint_eq(t.args[0], 2);
    /* A stale handle (event already ran) must not cancel the event that reuses its record. */
    ssdsim__event_id c = ssdsim__engine_schedule_cancellable(&e, 7, record, &t, 3);
    ssdsim__engine_cancel(&e, b);
    ck_assert_uint_ne(b, c);
    ck_assert_int_eq(ssdsim__engine_run(&e, 0), 0);
    ck_assert_int_eq(t.n, 2);
    ck_assert_uint_eq(t.args[1], 3);
    ssdsim__engine_fini(&e);
}
END_TEST

START_TEST(test_engine_run_until_and_max_events)
{
    struct ssdsim__engine e;
    struct trace t = {.n = 0, .e = &e};
    ck_assert_int_eq(ssdsim__engine_init(&e, 8), 0);
    for (uint64_t i = 1; i <= 10; i++)
        ssdsim__engine_schedule(&e, i * 100, record, &t, i);
    ck_assert_int_eq(ssdsim__engine_run_until(&e, 350), 0);
    ck_assert_int_eq(t.n, 3);
    ck_assert_uint_eq(ssdsim__engine_now(&e), 350);
    ck_assert_int_eq(ssdsim__engine_run(&e, 2), 0);
    ck_assert_int_eq(t.n, 5);
    ck_assert_uint_eq(ssdsim__engine_now(&e), 500);
    ck_assert_int_eq(ssdsim__engine_run(&e, 0), 0);
    ck_assert_int_eq(t.n, 10);
    ck_assert_uint_eq(ssdsim__engine_pending(&e), 0);
    ssdsim__engine_fini(&e);
}
END_TEST

static void stopper(void *ctx, uint32_t arg)
{
    struct trace *t = ctx;
    record(ctx, arg);
    ssdsim__engine_stop(t->e);
}

static void chain(void *ctx, uint32_t arg)
{
    struct trace *t = ctx;
    record(ctx, arg);
    if (arg < 100)
        ssdsim__engine_schedule(t->e, ssdsim__engine_now(t->e) + 3, chain, ctx, arg + 1);
}

START_TEST(test_engine_stop_and_chained_events)
{
    struct ssdsim__engine e;
    static struct trace t;
    t.n = 0;
    t.e = &e;
    ck_assert_int_eq(ssdsim__engine_init(&e, 2), 0);
    ssdsim__engine_schedule(&e, 10, stopper, &t, 7);
    ssdsim__engine_schedule(&e, 20, record, &t, 8);
    ck_assert_int_eq(ssdsim__engine_run(&e, 0), 0);
    ck_assert_int_eq(t.n, 1);
    ck_assert_int_eq(ssdsim__engine_run(&e, 0), 0);
    ck_assert_int_eq(t.n, 2);
    /* An event that schedules its successor: 101 events, 3 ns apart. */
    ssdsim__engine_schedule(&e, 20, chain, &t, 0);
    ck_assert_int_eq(ssdsim__engine_run(&e, 0), 0);
    ck_assert_int_eq(t.n, 103);
    ck_assert_uint_eq(ssdsim__engine_now(&e), 20 + 300);
    ssdsim__engine_fini(&e);
}
END_TEST

/* The ring and the radix heap behind it (engine.h): events scheduled from callbacks at
 * delays from 0 to past the ring's window, run_until stops, cancellations, and a burst of
 * pending events past SSDSIM__EV_RING_MAX (the ring turns off, then on again): every event runs
 * once, in (time, schedule order), and no cancelled one runs. */
struct mix {
    struct ssdsim__engine *e;
    struct ssdsim__rng r;
    uint32_t seq;        /* the next event's schedule number */
    uint64_t last_time;  /* of the last event run */
    uint32_t last_seq;
    uint32_t ran, to_spawn, cancelled_ran;
    uint8_t *cancelled; /* by schedule number */
    ssdsim__event_id *ids;
    uint32_t cap;
};

static void mix_event(void *ctx, uint32_t arg);

static void mix_spawn(struct mix *m)
{
    uint64_t now = ssdsim__engine_now(m->e), d;
    uint32_t kind = (uint32_t)ssdsim__rng_below(&m->r, 10);
    if (kind == 0)
        d = 0;
    else if (kind < 7)
        d = ssdsim__rng_below(&m->r, 50000); /* within a few buckets */
    else if (kind < 9)
        d = ssdsim__rng_below(&m->r, 4000000); /* across the window */
    else
        d = 4000000 + ssdsim__rng_below(&m->r, 30000000); /* past it */
    uint32_t s = m->seq++;
    ck_assert_uint_lt(s, m->cap);
    if (ssdsim__rng_below(&m->r, 8) == 0)
        m->ids[s] = ssdsim__engine_schedule_cancellable(m->e, now + d, mix_event, m, s);
    else
        ck_assert_int_eq(ssdsim__engine_schedule(m->e, now + d, mix_event, m, s), 0);
}

static void mix_event(void *ctx, uint32_t arg)
{
    struct mix *m = ctx;
    uint64_t now = ssdsim__engine_now(m->e);
    if (m->ran)
        ck_assert(now > m->last_time || (now == m->last_time && arg > m->last_seq));
    m->last_time = now;
    m->last_seq = arg;
    m->ran++;
    if (m->cancelled[arg])
        m->cancelled_ran++;
    for (int k = 0; k < 2 && m->to_spawn; k++, m->to_spawn--)
        mix_spawn(m);
    if (ssdsim__rng_below(&m->r, 16) == 0 && arg > 0) { /* cancel an earlier one at random */
        uint32_t v = (uint32_t)ssdsim__rng_below(&m->r, m->seq);
        if (m->ids[v] && !m->cancelled[v]) {
            uint32_t before = ssdsim__engine_pending(m->e);
            ssdsim__engine_cancel(m->e, m->ids[v]);
            if (ssdsim__engine_pending(m->e) < before)
                m->cancelled[v] = 1;
        }
    }
}

START_TEST(test_engine_ring_and_heap_keep_order)
{
    struct ssdsim__engine e;
    static struct mix m;
    memset(&m, 0, sizeof m);
    m.e = &e;
    m.cap = 200000;
    m.cancelled = calloc(m.cap, 1);
    m.ids = calloc(m.cap, sizeof *m.ids);
    ck_assert_ptr_nonnull(m.cancelled);
    ck_assert_ptr_nonnull(m.ids);
    ssdsim__rng_seed(&m.r, 9, "ring", 0);
    ck_assert_int_eq(ssdsim__engine_init(&e, 4), 0);
    /* a few at a time, then a burst of 20,000 pending (the ring turns off), then a few again */
    for (int i = 0; i < 50; i++)
        mix_spawn(&m);
    m.to_spawn = 60000;
    ck_assert_int_eq(ssdsim__engine_run_until(&e, 3000000), 0);
    for (int i = 0; i < 20000; i++)
        mix_spawn(&m);
    m.to_spawn += 60000;
    for (uint64_t t = 5000000; ssdsim__engine_pending(&e); t += 7777777)
        ck_assert_int_eq(ssdsim__engine_run_until(&e, t), 0);
    uint32_t cancelled = 0;
    for (uint32_t i = 0; i < m.seq; i++)
        cancelled += m.cancelled[i];
    ck_assert_uint_eq(m.cancelled_ran, 0);
    ck_assert_uint_eq(m.ran + cancelled, m.seq);
    ck_assert_uint_gt(cancelled, 0);
    ssdsim__engine_fini(&e);
    free(m.cancelled);
    free(m.ids);
}
END_TEST

START_TEST(test_engine_rng_streams_are_deterministic_and_independent)
{
    struct ssdsim__rng a, b, c;
    ssdsim__rng_seed(&a, 7, "job", 0);
    ssdsim__rng_seed(&b, 7, "job", 0);
    ssdsim__rng_seed(&c, 7, "job", 1);
    int same = 0;
    for (int i = 0; i < 1000; i++) {
        uint64_t x = ssdsim__rng_next(&a), y = ssdsim__rng_next(&b), z = ssdsim__rng_next(&c);
        ck_assert_uint_eq(x, y);
        same += x == z;
    }
    ck_assert_int_eq(same, 0);
    /* rng_below stays in range and is roughly uniform (chi-square-free sanity: every bucket
     * within 10% of its expectation over 100k draws). */
    uint64_t counts[10] = {0};
    for (int i = 0; i < 100000; i++) {
        uint64_t v = ssdsim__rng_below(&a, 10);
        ck_assert_uint_lt(v, 10);
        counts[v]++;
    }
    for (int i = 0; i < 10; i++)
        ck_assert(counts[i] > 9000 && counts[i] < 11000);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("engine");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, test_engine_orders_by_time_then_sequence);
    tcase_add_test(tc, test_engine_random_schedule_matches_sorted_order);
    tcase_add_test(tc, test_engine_cancel_is_exact);
    tcase_add_test(tc, test_engine_run_until_and_max_events);
    tcase_add_test(tc, test_engine_stop_and_chained_events);
    tcase_add_test(tc, test_engine_ring_and_heap_keep_order);
    tcase_add_test(tc, test_engine_rng_streams_are_deterministic_and_independent);
    suite_add_tcase(s, tc);
    return test_run_suite(s);
}
