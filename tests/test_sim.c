/* test_sim.c: whole runs: determinism (same model, workload and seed give byte-identical
 * JSON), the time series adds up to the run, closed-loop queueing obeys Little's law, and the
 * preconditioning curve of a fresh drive shows the burst, then GC. */
#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include "sim.h"
#include "workload/workload.h"
#include "simtest.h"

static ssdsim_model *small(void)
{
    return st_model("generic-mlc", "geometry.blocks_per_plane=64", NULL);
}

static const char *mixed =
    "{\"rw\":\"randrw\",\"rwmixread\":40,\"bssplit\":\"4k/60:8k/20:64k/20\",\"iodepth\":8,"
    "\"numjobs\":4,\"number_ios\":20000}";

static char *run_json(uint64_t seed, const ssdsim_run_opts *opts)
{
    ssdsim_model *m = small();
    ssdsim *sim = st_sim(m, seed);
    ck_assert_int_eq(ssdsim_precondition_seq(sim), 0);
    st_run(sim, mixed, opts);
    return st_results_json(sim, m);
}

START_TEST(test_sim_same_seed_gives_identical_json)
{
    ssdsim_run_opts o = {.interval_ios = 1000};
    st_assert_seeded(run_json(5, &o), run_json(5, &o), run_json(6, &o));
}
END_TEST

/* A time series keeps at most SSDSIM__SERIES_MAX_ROWS rows: a run known to need more is refused
 * before it starts, and one that reaches the limit fails with SSDSIM_ERANGE (here the limit is
 * lowered to 5 rows to reach it quickly). */
START_TEST(test_sim_timeseries_row_limit)
{
    ck_assert_uint_eq(SSDSIM__SERIES_MAX_ROWS, 1000000);
    ssdsim_model *m = small();
    ssdsim *sim = st_sim(m, 2);
    ssdsim_workload *wl =
        st_workload("{\"rw\":\"randwrite\",\"time_based\":\"1\",\"runtime\":\"2s\"}");
    ssdsim_run_opts o = {.interval_ns = 1000}; /* 2 s / 1 us: 2,000,000 rows */
    ck_assert_int_eq(ssdsim_run(sim, wl, &o), SSDSIM_ERANGE);
    ck_assert_str_eq(ssdsim_errmsg(sim),
                     "run options: the time series would have at least 2000000 rows (a "
                     "time-based job runs 2000000000 ns, at an interval of 1000 ns), more than "
                     "its limit of 1000000 (doc/results.md): ask for a longer interval");
    ssdsim_workload_free(wl);
    wl = st_workload("{\"rw\":\"randwrite\",\"number_ios\":600000,\"numjobs\":4}");
    o = (ssdsim_run_opts){.interval_ios = 2};
    ck_assert_int_eq(ssdsim_run(sim, wl, &o), SSDSIM_ERANGE);
    ck_assert_str_eq(ssdsim_errmsg(sim),
                     "run options: the time series would have at least 1200000 rows (the jobs "
                     "complete 2400000 requests, at an interval of 2), more than its limit of "
                     "1000000 (doc/results.md): ask for a longer interval");
    ssdsim_workload_free(wl);
    /* With a runtime the number of rows is not known before: not refused (a refused run
     * leaves the simulation usable), but stopped at the limit. */
    sim->stats.max_rows = 5;
    wl = st_workload("{\"rw\":\"randwrite\",\"number_ios\":100,\"runtime\":\"10s\"}");
    o = (ssdsim_run_opts){.interval_ios = 10};
    ck_assert_int_eq(ssdsim_run(sim, wl, &o), SSDSIM_ERANGE);
    ck_assert_str_eq(ssdsim_errmsg(sim), "the time series reached its limit of 5 rows "
                                         "(doc/results.md): ask for a longer interval");
    ck_assert_uint_eq(ssdsim_n_intervals(sim), 5);
    ssdsim_workload_free(wl);
    ssdsim_free(sim);
    ssdsim_model_free(m);
}
END_TEST

#ifdef SSDSIM_DEBUG
/* Debug builds: a handle that is not one the library gave out (here a zeroed struct of the right
 * size: magic 0) makes the public functions abort with a message instead of going on. */
START_TEST(test_sim_foreign_handle_aborts)
{
    if (_i == 0) {
        struct ssdsim *fake = calloc(1, sizeof *fake);
        ssdsim_errmsg(fake);
    } else if (_i == 1) {
        struct ssdsim_model *fake = calloc(1, sizeof *fake);
        ssdsim_model_free(fake);
    } else {
        struct ssdsim_workload *fake = calloc(1, sizeof *fake);
        ssdsim_workload_free(fake);
    }
    ck_abort_msg("handle %d was not refused", _i);
}
END_TEST
#endif

START_TEST(test_sim_timeseries_adds_up)
{
    ssdsim_model *m = small();
    ssdsim *sim = st_sim(m, 2);
    ssdsim_run_opts o = {.interval_ns = 20 * 1000 * 1000};
    st_run(sim, mixed, &o);
    ssdsim_op_stats all;
    ssdsim_device_stats d;
    ssdsim_get_op_stats(sim, SSDSIM_OP_ALL, &all);
    ssdsim_get_device_stats(sim, &d);
    size_t n = ssdsim_n_intervals(sim);
    ck_assert_uint_gt(n, 3);
    uint64_t ios = 0, prev_t = 0, prev_host = 0;
    for (size_t i = 0; i < n; i++) {
        ssdsim_interval iv;
        ck_assert_int_eq(ssdsim_get_interval(sim, i, &iv), 0);
        ios += iv.n_ios;
        ck_assert_uint_gt(iv.t_ns, prev_t);
        if (i + 1 < n)
            ck_assert_uint_eq(iv.t_ns, (i + 1) * 20ULL * 1000 * 1000);
        /* iops is n_ios over the interval's own length */
        double dur = (double)(iv.t_ns - prev_t) / 1e9;
        ck_assert_double_eq_tol(iv.iops * dur, (double)iv.n_ios, 1e-6 * (double)iv.n_ios + 1e-9);
        ck_assert_uint_ge(iv.host_pages_written, prev_host);
        ck_assert_uint_ge(iv.lat_ns_max, (uint64_t)iv.lat_ns_mean);
        prev_t = iv.t_ns;
        prev_host = iv.host_pages_written;
    }
    ck_assert_uint_eq(ios, all.count);
    ck_assert_uint_eq(all.count, 80000);
    ck_assert_uint_eq(prev_t, ssdsim_sim_time_ns(sim));
    /* Write requests were all issued and completed, so the last cumulative count is final. */
    ck_assert_uint_eq(prev_host, d.host_pages_written);
    ssdsim_interval iv;
    ck_assert_int_eq(ssdsim_get_interval(sim, n, &iv), SSDSIM_EINVAL);
    ssdsim_free(sim);
    ssdsim_model_free(m);
}
END_TEST

START_TEST(test_sim_closed_loop_obeys_littles_law)
{
    /* In a closed loop with N requests always outstanding, mean latency x throughput = N
     * (up to the ramp at the start and drain at the end of the run). */
    ssdsim_model *m = small();
    ssdsim *sim = st_sim(m, 4);
    ck_assert_int_eq(ssdsim_precondition_seq(sim), 0);
    st_run(sim, "{\"rw\":\"randread\",\"bs\":\"4k\",\"iodepth\":16,\"numjobs\":4,"
                "\"number_ios\":50000}",
           NULL);
    ssdsim_op_stats s;
    ssdsim_get_op_stats(sim, SSDSIM_OP_READ, &s);
    double n = s.iops * s.lat_mean_ns / 1e9;
    ck_assert_msg(n > 64 * 0.98 && n <= 64 * 1.0001, "outstanding %.3f, expected 64", n);
    ssdsim_free(sim);
    ssdsim_model_free(m);
}
END_TEST

START_TEST(test_sim_fresh_drive_shows_burst_then_gc)
{
    ssdsim_model *m = small();
    ssdsim *sim = st_sim(m, 1);
    uint64_t pages = ssdsim_model_logical_bytes(m) / 4096;
    char wl[256];
    snprintf(wl, sizeof wl,
             "{\"rw\":\"randwrite\",\"bs\":\"4k\",\"iodepth\":16,\"numjobs\":16,"
             "\"number_ios\":%llu}",
             (unsigned long long)(4 * pages / 16));
    ssdsim_run_opts o = {.interval_ios = pages / 4};
    st_run(sim, wl, &o);
    size_t n = ssdsim_n_intervals(sim);
    ck_assert_uint_ge(n, 15);
    ssdsim_interval first, last;
    ssdsim_get_interval(sim, 0, &first);
    ssdsim_get_interval(sim, n - 1, &last);
    /* Burst: no GC while free blocks last; then GC costs write amplification and IOPS. */
    ck_assert_double_eq(first.waf, 1.0);
    ck_assert_double_gt(last.waf, 1.3);
    ck_assert_double_lt(last.iops, first.iops * 0.8);
    ck_assert_uint_gt(first.free_blocks, last.free_blocks);
    ck_assert_uint_gt(last.lat_ns_max, first.lat_ns_max);
    ssdsim_free(sim);
    ssdsim_model_free(m);
}
END_TEST

START_TEST(test_sim_precondition_is_not_measured)
{
    ssdsim_model *m = small();
    ssdsim *sim = st_sim(m, 1);
    ck_assert_int_eq(ssdsim_precondition_seq(sim), 0);
    ssdsim_device_stats d;
    ssdsim_get_device_stats(sim, &d);
    ck_assert_uint_eq(d.host_pages_written, 0);
    st_run(sim, "{\"rw\":\"randread\",\"bs\":\"4k\",\"iodepth\":4,\"number_ios\":1000}", NULL);
    ssdsim_op_stats r, w;
    ssdsim_get_op_stats(sim, SSDSIM_OP_READ, &r);
    ssdsim_get_op_stats(sim, SSDSIM_OP_WRITE, &w);
    ck_assert_uint_eq(r.count, 1000);
    ck_assert_uint_eq(w.count, 0);
    /* The drive was written: reads go to flash. */
    struct ssdsim *s = sim;
    ck_assert_uint_eq(s->sys.devs[0].env.n.c[SSDSIM_CNT_UNMAPPED_READS], 0);
    ssdsim_free(sim);
    ssdsim_model_free(m);
}
END_TEST

START_TEST(test_sim_runtime_limits_a_run)
{
    ssdsim_model *m = small();
    ssdsim *sim = st_sim(m, 1);
    st_run(sim, "{\"rw\":\"randwrite\",\"bs\":\"4k\",\"iodepth\":4,\"runtime\":\"50ms\"}", NULL);
    /* No request is issued after 50 ms; those in flight finish within a few ms. */
    uint64_t t = ssdsim_sim_time_ns(sim);
    ck_assert_uint_ge(t, 50 * 1000 * 1000);
    ck_assert_uint_lt(t, 60 * 1000 * 1000);
    ssdsim_free(sim);
    ssdsim_model_free(m);
}
END_TEST

static int cancel_now(double fraction, void *ud)
{
    (void)fraction;
    (*(int *)ud)++;
    return 1;
}

START_TEST(test_sim_cancel_stops_and_poisons)
{
    ssdsim_model *m = small();
    ssdsim *sim = st_sim(m, 1);
    int calls = 0;
    ssdsim_set_progress(sim, cancel_now, &calls);
    ssdsim_workload *wl = st_workload(
        "{\"rw\":\"randwrite\",\"bs\":\"4k\",\"iodepth\":16,\"numjobs\":4,\"number_ios\":200000}");
    ck_assert_int_eq(ssdsim_run(sim, wl, NULL), SSDSIM_ECANCELLED);
    ck_assert_int_eq(calls, 1);
    ck_assert_int_eq(ssdsim_run(sim, wl, NULL), SSDSIM_ESTATE);
    ck_assert_str_ne(ssdsim_errmsg(sim), "");
    ssdsim_workload_free(wl);
    ssdsim_free(sim);
    ssdsim_model_free(m);
}
END_TEST

static int cancel_at_third(double fraction, void *ud)
{
    (void)fraction;
    return ++*(int *)ud >= 3;
}

static void count_completion(const ssdsim_completion *c, void *ud)
{
    (void)c;
    (*(uint64_t *)ud)++;
}

/* A cancelled run keeps its statistics: they count exactly the requests that completed before
 * it stopped (counted here by the observer, apart from the statistics), and the results say the
 * run was interrupted; a complete run says nothing of the kind. */
START_TEST(test_sim_cancelled_run_keeps_results_marked)
{
    ssdsim_model *m = small();
    ssdsim *sim = st_sim(m, 1);
    int calls = 0;
    uint64_t completed = 0;
    ssdsim_set_progress(sim, cancel_at_third, &calls);
    ssdsim_observer obs = {.on_complete = count_completion, .userdata = &completed};
    ssdsim_set_observer(sim, &obs);
    ssdsim_workload *wl = st_workload(
        "{\"rw\":\"randwrite\",\"bs\":\"4k\",\"iodepth\":16,\"numjobs\":4,\"number_ios\":200000}");
    ck_assert_int_eq(ssdsim_run(sim, wl, NULL), SSDSIM_ECANCELLED);
    ck_assert_int_eq(ssdsim_interrupted(sim), 1);
    ssdsim_op_stats all;
    ck_assert_int_eq(ssdsim_get_op_stats(sim, SSDSIM_OP_ALL, &all), 0);
    ck_assert_uint_gt(all.count, 0);
    ck_assert_uint_lt(all.count, 4 * 200000);
    ck_assert_uint_eq(all.count, completed);
    ck_assert_uint_gt(ssdsim_sim_time_ns(sim), 0);
    char *json = ssdsim_results_json(sim);
    ck_assert_ptr_nonnull(json);
    ck_assert_ptr_nonnull(strstr(json, "\"interrupted\":\ttrue"));
    free(json);
    json = ssdsim_results_fio_json(sim, wl);
    ck_assert_ptr_nonnull(json);
    ck_assert_ptr_nonnull(strstr(json, "\"interrupted\":\ttrue"));
    free(json);
    ssdsim_workload_free(wl);
    ssdsim_free(sim);

    sim = st_sim(m, 1);
    st_run(sim, "{\"rw\":\"randwrite\",\"bs\":\"4k\",\"iodepth\":4,\"number_ios\":1000}", NULL);
    ck_assert_int_eq(ssdsim_interrupted(sim), 0);
    ck_assert_int_eq(ssdsim_interrupted(NULL), 0);
    json = ssdsim_results_json(sim);
    ck_assert_ptr_nonnull(json);
    ck_assert_ptr_null(strstr(json, "interrupted"));
    free(json);
    ssdsim_free(sim);
    ssdsim_model_free(m);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("sim");
    TCase *tc = tcase_create("runs");
    tcase_set_timeout(tc, 600);
    tcase_add_test(tc, test_sim_same_seed_gives_identical_json);
    tcase_add_test(tc, test_sim_timeseries_adds_up);
    tcase_add_test(tc, test_sim_timeseries_row_limit);
#ifdef SSDSIM_DEBUG
    tcase_add_loop_test_raise_signal(tc, test_sim_foreign_handle_aborts, SIGABRT, 0, 3);
#endif
    tcase_add_test(tc, test_sim_closed_loop_obeys_littles_law);
    tcase_add_test(tc, test_sim_fresh_drive_shows_burst_then_gc);
    tcase_add_test(tc, test_sim_precondition_is_not_measured);
    tcase_add_test(tc, test_sim_runtime_limits_a_run);
    tcase_add_test(tc, test_sim_cancel_stops_and_poisons);
    tcase_add_test(tc, test_sim_cancelled_run_keeps_results_marked);
    suite_add_tcase(s, tc);
    return test_run_suite(s);
}
