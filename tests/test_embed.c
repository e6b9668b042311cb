/* test_embed.c: the embedding API through the public header only, as a program that links the
 * library sees it: requests submitted by the program with a completion callback whose latency
 * breakdown adds up to hand-computed parts, stepping and running to a time, statistics reset,
 * interval callbacks, inspection of device state, and two simulations side by side. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ssdsim/ssdsim.h"
#include "testutil.h"

static ssdsim_model *load(const char *name, const char *const *sets)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/models/%s.json", SRCDIR, name);
    ssdsim_model *m = NULL;
    ssdsim_error err;
    ck_assert_msg(ssdsim_model_load_file(&m, path, &err) == 0, "%s", err.message);
    for (; sets && *sets; sets += 2)
        ck_assert_msg(ssdsim_model_set(m, sets[0], sets[1], &err) == 0, "%s", err.message);
    return m;
}

/* One die, round numbers (as in test_hw): host 3 us, firmware 5 us, bus 100 MB/s (4 KiB in
 * 40,960 ns), link 400 MB/s (4 KiB in 10,240 ns), tR 40/60 us, tPROG 300/900 us. */
static const char *const one_die[] = {
    "geometry.channels", "1", "geometry.chips_per_channel", "1", "geometry.dies_per_chip", "1",
    "geometry.planes_per_die", "1", "geometry.blocks_per_plane", "64",
    "geometry.pages_per_block", "32", "flash.read_us", "[40, 60]", "flash.program_us",
    "[300, 900]", "flash.bus_mts", "100", "host.link_bw", "\"400MB/s\"",
    "host.cmd_overhead_us", "3", "controller.cmd_overhead_us", "5", "controller.cores", "1",
    NULL};

enum { HOST = 3000, FW = 5000, BUS = 40960, LINK = 10240 };

struct log {
    ssdsim_completion c[64];
    int n;
};

static void keep(const ssdsim_completion *c, void *ud)
{
    struct log *l = ud;
    ck_assert_int_lt(l->n, 64);
    l->c[l->n++] = *c;
}

static void assert_parts_add_up(const ssdsim_completion *c)
{
    ck_assert_uint_eq(c->complete_ns - c->submit_ns,
                      c->queue_ns + c->frontend_ns + c->flash_ns + c->transfer_ns);
}

START_TEST(test_embed_breakdown_matches_hand_computed_parts)
{
    ssdsim_model *m = load("generic-mlc", one_die);
    ssdsim *sim = NULL;
    ssdsim_error err;
    ck_assert_int_eq(ssdsim_new(&sim, m, 1, &err), 0);
    struct log l = {.n = 0};
    ck_assert_int_eq(ssdsim_submit(sim, SSDSIM_OP_WRITE, 0, 4096, 1000, 7, keep, &l), 0);
    ck_assert_int_eq(ssdsim_drain(sim), 0);
    ck_assert_int_eq(l.n, 1);
    const ssdsim_completion *w = &l.c[0];
    ck_assert_uint_eq(w->id, 7);
    ck_assert_int_eq(w->op, SSDSIM_OP_WRITE);
    ck_assert_uint_eq(w->submit_ns, 1000);
    ck_assert_uint_eq(w->queue_ns, 0);
    ck_assert_uint_eq(w->frontend_ns, HOST + FW + LINK);
    ck_assert_uint_eq(w->flash_ns, BUS + 300000); /* page 0: LSB */
    ck_assert_uint_eq(w->transfer_ns, 0);
    ck_assert_uint_eq(w->gc_wait_ns, 0);
    assert_parts_add_up(w);

    /* A read of it later: array read, data out on the bus, then across the link. */
    uint64_t t = ssdsim_now(sim) + 5000;
    ck_assert_int_eq(ssdsim_submit(sim, SSDSIM_OP_READ, 0, 4096, t, 8, keep, &l), 0);
    ck_assert_int_eq(ssdsim_drain(sim), 0);
    const ssdsim_completion *r = &l.c[1];
    ck_assert_uint_eq(r->submit_ns, t);
    ck_assert_uint_eq(r->frontend_ns, HOST + FW);
    ck_assert_uint_eq(r->flash_ns, 40000 + BUS);
    ck_assert_uint_eq(r->transfer_ns, LINK);
    assert_parts_add_up(r);

    /* A never-written unit: no flash at all. */
    ck_assert_int_eq(ssdsim_submit(sim, SSDSIM_OP_READ, 65536, 4096, ssdsim_now(sim), 9, keep,
                                   &l),
                     0);
    ck_assert_int_eq(ssdsim_drain(sim), 0);
    ck_assert_uint_eq(l.c[2].flash_ns, 0);
    ck_assert_uint_eq(l.c[2].transfer_ns, LINK);

    ssdsim_op_stats s;
    ssdsim_get_op_stats(sim, SSDSIM_OP_ALL, &s);
    ck_assert_uint_eq(s.count, 3);
    ssdsim_free(sim);
    ssdsim_model_free(m);
}
END_TEST

START_TEST(test_embed_queue_depth_shows_as_queueing)
{
    static const char *const sets[] = {"controller.queue_depth", "1", NULL};
    ssdsim_model *m = load("generic-slc", sets);
    ssdsim *sim = NULL;
    ssdsim_error err;
    ck_assert_int_eq(ssdsim_new(&sim, m, 1, &err), 0);
    struct log l = {.n = 0};
    for (uint64_t i = 0; i < 3; i++)
        ck_assert_int_eq(ssdsim_submit(sim, SSDSIM_OP_WRITE, i * 4096, 4096, 0, i, keep, &l), 0);
    ck_assert_int_eq(ssdsim_drain(sim), 0);
    ck_assert_int_eq(l.n, 3);
    /* One command in the device at a time: each waits for those before it. */
    ck_assert_uint_eq(l.c[0].queue_ns, 0);
    ck_assert_uint_eq(l.c[1].queue_ns, l.c[0].complete_ns);
    ck_assert_uint_eq(l.c[2].queue_ns, l.c[1].complete_ns);
    for (int i = 0; i < 3; i++)
        assert_parts_add_up(&l.c[i]);
    ssdsim_free(sim);
    ssdsim_model_free(m);
}
END_TEST

START_TEST(test_embed_step_and_run_until)
{
    ssdsim_model *m = load("generic-mlc", one_die);
    ssdsim *sim = NULL;
    ssdsim_error err;
    ck_assert_int_eq(ssdsim_new(&sim, m, 1, &err), 0);
    ck_assert_int_eq(ssdsim_step(sim), 0); /* nothing pending */
    struct log l = {.n = 0};
    ck_assert_int_eq(ssdsim_submit(sim, SSDSIM_OP_WRITE, 0, 4096, 100, 1, keep, &l), 0);
    /* Run to just before the write can have finished: it is not done. */
    ck_assert_int_eq(ssdsim_run_until(sim, 100 + HOST + FW + LINK + BUS), 0);
    ck_assert_uint_eq(ssdsim_now(sim), 100 + HOST + FW + LINK + BUS);
    ck_assert_int_eq(l.n, 0);
    int steps = 0, rc;
    while ((rc = ssdsim_step(sim)) == 1)
        steps++;
    ck_assert_int_eq(rc, 0);
    ck_assert_int_ge(steps, 1);
    ck_assert_int_eq(l.n, 1);
    ck_assert_uint_eq(ssdsim_now(sim), l.c[0].complete_ns);
    /* the past is not for submitting */
    ck_assert_int_eq(ssdsim_submit(sim, SSDSIM_OP_WRITE, 0, 4096, 0, 2, keep, &l), SSDSIM_EINVAL);
    ck_assert_int_eq(ssdsim_run_until(sim, 0), SSDSIM_EINVAL);
    ssdsim_free(sim);
    ssdsim_model_free(m);
}
END_TEST

/* A closed loop written by the caller: each completion submits the next request. */
struct loop {
    ssdsim *sim;
    uint64_t left, done, logical;
    uint64_t x;
};

static void next(const ssdsim_completion *c, void *ud)
{
    struct loop *lp = ud;
    lp->done++;
    if (lp->left == 0)
        return;
    lp->left--;
    lp->x = lp->x * 6364136223846793005ULL + 1442695040888963407ULL;
    uint64_t off = (lp->x >> 33) % (lp->logical / 4096) * 4096;
    ck_assert_int_eq(ssdsim_submit(lp->sim, SSDSIM_OP_WRITE, off, 4096, c->complete_ns, lp->done,
                                   next, lp),
                     0);
}

static char *closed_loop_json(uint64_t seed)
{
    static const char *const sets[] = {"geometry.blocks_per_plane", "64", NULL};
    ssdsim_model *m = load("generic-mlc", sets);
    ssdsim *sim = NULL;
    ssdsim_error err;
    ck_assert_int_eq(ssdsim_new(&sim, m, seed, &err), 0);
    ck_assert_int_eq(ssdsim_precondition_seq(sim), 0);
    struct loop lp = {.sim = sim, .left = 30000, .logical = ssdsim_model_logical_bytes(m), .x = 3};
    for (int i = 0; i < 32; i++)
        ck_assert_int_eq(ssdsim_submit(sim, SSDSIM_OP_WRITE, (uint64_t)i * 4096, 4096,
                                       ssdsim_now(sim), 0, next, &lp),
                         0);
    ck_assert_int_eq(ssdsim_drain(sim), 0);
    ck_assert_uint_eq(lp.done, 30032);
    ssdsim_op_stats s;
    ssdsim_get_op_stats(sim, SSDSIM_OP_WRITE, &s);
    ck_assert_uint_eq(s.count, 30032);
    char *json = ssdsim_results_json(sim);
    ssdsim_free(sim);
    ssdsim_model_free(m);
    return json;
}

START_TEST(test_embed_caller_loop_is_deterministic)
{
    char *a = closed_loop_json(4), *b = closed_loop_json(4);
    ck_assert_str_eq(a, b);
    free(a);
    free(b);
}
END_TEST

static void count_interval(const struct ssdsim_interval *iv, void *ud)
{
    uint64_t *prev = ud;
    ck_assert_uint_gt(iv->t_ns, prev[0]);
    prev[0] = iv->t_ns;
    prev[1]++;
}

START_TEST(test_embed_reset_stats_intervals_and_inspection)
{
    static const char *const sets[] = {"geometry.blocks_per_plane", "64", NULL};
    ssdsim_model *m = load("generic-mlc", sets);
    ssdsim *sim = NULL;
    ssdsim_error err;
    ck_assert_int_eq(ssdsim_new(&sim, m, 1, &err), 0);
    uint32_t planes, ppb, page;
    uint64_t blocks, lpages;
    ck_assert_int_eq(ssdsim_device_shape(sim, &planes, &blocks, &ppb, &page, &lpages), 0);
    ck_assert_uint_eq(planes, 64);
    ck_assert_uint_eq(blocks, 64u * 64u);
    ck_assert_uint_eq(ppb, 128);
    ck_assert_uint_eq(page, 4096);
    ck_assert_uint_eq(lpages * page, ssdsim_model_logical_bytes(m));
    ck_assert_uint_eq(ssdsim_plane_free_blocks(sim, 0), 64);
    ck_assert_uint_eq(ssdsim_lookup(sim, 5), UINT64_MAX);

    struct log l = {.n = 0};
    ck_assert_int_eq(ssdsim_submit(sim, SSDSIM_OP_WRITE, 5 * 4096, 4096, 0, 1, keep, &l), 0);
    ck_assert_int_eq(ssdsim_drain(sim), 0);
    uint64_t ppn = ssdsim_lookup(sim, 5);
    ck_assert_uint_ne(ppn, UINT64_MAX);
    uint32_t valid = 0, erases = 99;
    ck_assert_int_eq(ssdsim_block_state(sim, ppn / ppb, &valid, &erases), 0);
    ck_assert_uint_eq(valid, 1);
    ck_assert_uint_eq(erases, 0);
    ck_assert_int_eq(ssdsim_block_state(sim, blocks, &valid, &erases), SSDSIM_EINVAL);

    /* After a reset only what follows counts; intervals reach the callback in order. */
    ssdsim_reset_stats(sim);
    uint64_t seen[2] = {0, 0};
    ck_assert_int_eq(ssdsim_set_interval_callback(sim, 1000000, count_interval, seen), 0);
    uint64_t t = ssdsim_now(sim);
    for (uint64_t i = 0; i < 20; i++)
        ck_assert_int_eq(ssdsim_submit(sim, SSDSIM_OP_WRITE, i * 4096, 4096, t + i * 400000, i,
                                       NULL, NULL),
                         0);
    ck_assert_int_eq(ssdsim_drain(sim), 0);
    ssdsim_op_stats s;
    ssdsim_get_op_stats(sim, SSDSIM_OP_WRITE, &s);
    ck_assert_uint_eq(s.count, 20);
    ck_assert_uint_ge(seen[1], 5);
    ck_assert_uint_eq(ssdsim_n_intervals(sim), seen[1]);
    ssdsim_free(sim);
    ssdsim_model_free(m);
}
END_TEST

/* Counts intervals; t_ns restarts at each statistics reset, so order is not checked here. */
static void count_only(const struct ssdsim_interval *iv, void *ud)
{
    (void)iv;
    ((uint64_t *)ud)[1]++;
}

START_TEST(test_embed_intervals_survive_runs_and_silence)
{
    static const char *const sets[] = {"geometry.blocks_per_plane", "64", NULL};
    ssdsim_model *m = load("generic-mlc", sets);
    ssdsim *sim = NULL;
    ssdsim_error err;
    ck_assert_int_eq(ssdsim_new(&sim, m, 1, &err), 0);
    uint64_t seen[2] = {0, 0};
    ck_assert_int_eq(ssdsim_set_interval_callback(sim, 1000000, count_only, seen), 0);
    /* A workload run and a precondition with the callback installed finish (they once spun). */
    ssdsim_workload *wl = NULL;
    ck_assert_int_eq(ssdsim_workload_load_string(
                         &wl, "{\"rw\":\"randwrite\",\"iodepth\":4,\"number_ios\":500}", NULL,
                         &err),
                     0);
    ck_assert_int_eq(ssdsim_run(sim, wl, NULL), 0);
    ck_assert_int_eq(ssdsim_precondition_seq(sim), 0);
    ssdsim_workload_free(wl);
    /* After a silence longer than an interval, submitted requests get intervals again. */
    ck_assert_int_eq(ssdsim_run_until(sim, ssdsim_now(sim) + 50000000), 0);
    ssdsim_reset_stats(sim);
    uint64_t before = seen[1], t = ssdsim_now(sim);
    struct log l = {.n = 0};
    for (uint64_t i = 0; i < 10; i++)
        ck_assert_int_eq(ssdsim_submit(sim, SSDSIM_OP_WRITE, i * 4096, 4096, t + i * 500000, i,
                                       keep, &l),
                         0);
    ck_assert_int_eq(ssdsim_drain(sim), 0);
    ck_assert_uint_ge(seen[1] - before, 3);
    /* drain stops at the last completion */
    ck_assert_uint_eq(ssdsim_now(sim), l.c[l.n - 1].complete_ns);
    ssdsim_free(sim);
    ssdsim_model_free(m);
}
END_TEST

static void capture_log(enum ssdsim_log_level level, const char *message, void *ud)
{
    char *buf = ud;
    if (level == SSDSIM_LOG_WARNING && !buf[0])
        snprintf(buf, 256, "%s", message);
}

START_TEST(test_embed_log_handler_hears_adjustments)
{
    static const char *const sets[] = {"geometry.blocks_per_plane", "64", "gc.free_blocks_min",
                                       "1", NULL};
    ssdsim_model *m = load("generic-mlc", sets);
    char heard[256] = "";
    ssdsim_set_log_handler(capture_log, heard);
    ssdsim *sim = NULL;
    ssdsim_error err;
    ck_assert_int_eq(ssdsim_new(&sim, m, 1, &err), 0);
    ssdsim_set_log_handler(NULL, NULL);
    ck_assert_msg(strstr(heard, "gc.free_blocks_min 1 raised to 2") != NULL, "heard: '%s'",
                  heard);
    ssdsim_free(sim);
    /* with no handler nothing is printed and nothing breaks */
    ck_assert_int_eq(ssdsim_new(&sim, m, 1, &err), 0);
    ssdsim_free(sim);
    ssdsim_model_free(m);
}
END_TEST

START_TEST(test_embed_bogus_input)
{
    ck_assert_int_eq(ssdsim_submit(NULL, SSDSIM_OP_READ, 0, 4096, 0, 0, NULL, NULL),
                     SSDSIM_EINVAL);
    ck_assert_int_eq(ssdsim_run_until(NULL, 1), SSDSIM_EINVAL);
    ck_assert_int_eq(ssdsim_step(NULL), SSDSIM_EINVAL);
    ck_assert_int_eq(ssdsim_drain(NULL), SSDSIM_EINVAL);
    ck_assert_uint_eq(ssdsim_now(NULL), 0);
    ssdsim_reset_stats(NULL);
    ck_assert_int_eq(ssdsim_set_interval_callback(NULL, 1, NULL, NULL), SSDSIM_EINVAL);
    ck_assert_int_eq(ssdsim_device_shape(NULL, NULL, NULL, NULL, NULL, NULL), SSDSIM_EINVAL);
    ck_assert_uint_eq(ssdsim_plane_free_blocks(NULL, 0), 0);
    ck_assert_int_eq(ssdsim_block_state(NULL, 0, NULL, NULL), SSDSIM_EINVAL);
    ck_assert_uint_eq(ssdsim_lookup(NULL, 0), UINT64_MAX);

    ssdsim_model *m = load("generic-mlc", one_die);
    ssdsim *sim = NULL;
    ssdsim_error err;
    ck_assert_int_eq(ssdsim_new(&sim, m, 1, &err), 0);
    uint64_t cap = ssdsim_model_logical_bytes(m);
    ck_assert_int_eq(ssdsim_submit(sim, SSDSIM_OP_READ, cap, 4096, 0, 0, NULL, NULL),
                     SSDSIM_EINVAL);
    ck_assert_int_eq(ssdsim_submit(sim, SSDSIM_OP_READ, cap - 512, 4096, 0, 0, NULL, NULL),
                     SSDSIM_EINVAL);
    ck_assert_int_eq(ssdsim_submit(sim, SSDSIM_OP_READ, 0, 0, 0, 0, NULL, NULL), SSDSIM_EINVAL);
    ck_assert_int_eq(ssdsim_submit(sim, SSDSIM_OP_ALL, 0, 4096, 0, 0, NULL, NULL),
                     SSDSIM_EINVAL);
    ck_assert_str_ne(ssdsim_errmsg(sim), "");
    /* a submitted request still in flight: no workload run on top of it */
    ck_assert_int_eq(ssdsim_submit(sim, SSDSIM_OP_WRITE, 0, 4096, 0, 0, NULL, NULL), 0);
    ssdsim_workload *wl = NULL;
    ck_assert_int_eq(ssdsim_workload_load_string(&wl, "{\"rw\":\"write\",\"number_ios\":1}", NULL,
                                                 &err),
                     0);
    ck_assert_int_eq(ssdsim_run(sim, wl, NULL), SSDSIM_ESTATE);
    ck_assert_int_eq(ssdsim_drain(sim), 0);
    ck_assert_int_eq(ssdsim_run(sim, wl, NULL), 0);
    ssdsim_workload_free(wl);
    ssdsim_free(sim);
    ssdsim_model_free(m);
}
END_TEST

static void track_wait(const ssdsim_completion *c, void *ud)
{
    uint64_t *max = ud;
    assert_parts_add_up(c);
    ck_assert_uint_le(c->gc_wait_ns, c->flash_ns);
    if (c->gc_wait_ns > *max)
        *max = c->gc_wait_ns;
}

START_TEST(test_embed_gc_wait_shows_in_completions)
{
    static const char *const sets[] = {"geometry.channels", "1", "geometry.chips_per_channel", "1",
                                       "geometry.dies_per_chip", "1", "geometry.planes_per_die", "1",
                                       "geometry.blocks_per_plane", "64", NULL};
    ssdsim_model *m = load("generic-mlc", sets);
    ssdsim *sim = NULL;
    ssdsim_error err;
    ck_assert_int_eq(ssdsim_new(&sim, m, 1, &err), 0);
    ck_assert_int_eq(ssdsim_precondition_seq(sim), 0);
    /* A burst of random overwrites on a full one-plane drive: some writes must wait for GC. */
    uint64_t max_wait = 0;
    uint64_t logical = ssdsim_model_logical_bytes(m), x = 7, t = ssdsim_now(sim);
    for (int i = 0; i < 4000; i++) {
        x = x * 6364136223846793005ULL + 1442695040888963407ULL;
        uint64_t off = (x >> 33) % (logical / 4096) * 4096;
        ck_assert_int_eq(
            ssdsim_submit(sim, SSDSIM_OP_WRITE, off, 4096, t, (uint64_t)i, track_wait, &max_wait),
            0);
    }
    ck_assert_int_eq(ssdsim_drain(sim), 0);
    ssdsim_device_stats d;
    ssdsim_get_device_stats(sim, &d);
    ck_assert_uint_gt(d.gc_pages_copied, 0);
    ck_assert_uint_gt(max_wait, 0);
    ssdsim_free(sim);
    ssdsim_model_free(m);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("embed");
    TCase *tc = tcase_create("embed");
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, test_embed_breakdown_matches_hand_computed_parts);
    tcase_add_test(tc, test_embed_queue_depth_shows_as_queueing);
    tcase_add_test(tc, test_embed_step_and_run_until);
    tcase_add_test(tc, test_embed_caller_loop_is_deterministic);
    tcase_add_test(tc, test_embed_reset_stats_intervals_and_inspection);
    tcase_add_test(tc, test_embed_intervals_survive_runs_and_silence);
    tcase_add_test(tc, test_embed_log_handler_hears_adjustments);
    tcase_add_test(tc, test_embed_bogus_input);
    tcase_add_test(tc, test_embed_gc_wait_shows_in_completions);
    suite_add_tcase(s, tc);
    return test_run_suite(s);
}
