/* test_steady.c: the SNIA steady-state rule (libssdsim/stats/steady.c), the time series'
 * per-interval figures (stats/stats.c: p99, cumulative WAF, GC copies and erases, host bytes,
 * byte intervals), runs that stop at steady state (until_steady, max_rounds; sim.c), their
 * results (ssdsim_get_steady, the JSON's steady_state, the CSV) and the command-line options
 * (--interval-bytes, --until-steady, --steady-var, --max-rounds).
 *
 * The rule's cases are series whose answer is worked out by hand in the comments; the runs are
 * checked against the rule applied independently to their own series, and against figures
 * derived from the requests an observer saw. */
#include <check.h>
#include <cjson/cJSON.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "simtest.h"
#include "stats/hist.h"
#include "testutil.h"

#include "cmdtest.h"

/* ------------------------------------------------------------------------------------------ */
/* The rule on series known by hand                                                             */

static ssdsim_steady_result check(const double *x, size_t n, const ssdsim_steady_opts *o)
{
    ssdsim_steady_result r;
    int rc = ssdsim_steady_check(x, n, o, &r);
    ck_assert_int_eq(rc, 0);
    return r;
}

START_TEST(test_steady_constant_series_steady_at_round_4)
{
    /* Every window of equal values is steady; the first ends at round 4 (0-based). */
    double x[12];
    for (size_t i = 0; i < 12; i++)
        x[i] = 1234.5;
    ssdsim_steady_result r = check(x, 12, NULL);
    ck_assert_int_eq(r.steady, 1);
    ck_assert_uint_eq(r.round, 4);
    ck_assert_uint_eq(r.window, 5);
    ck_assert(r.average == 1234.5 && r.min == 1234.5 && r.max == 1234.5);
    ck_assert(r.slope == 0 && r.intercept == 1234.5);
    ck_assert(r.excursion == 0 && r.slope_excursion == 0);
    /* exactly one window's worth */
    r = check(x, 5, NULL);
    ck_assert(r.steady && r.round == 4);
}
END_TEST

START_TEST(test_steady_decaying_exponential)
{
    /* y_k = 100 + 400 / 2^k: 500, 300, 200, 150, 125, 112.5, ... flattening towards 100.
     * The window starting at round i holds 100 + a {1, 1/2, 1/4, 1/8, 1/16}, a = 400 / 2^i:
     *   average = 100 + a (31/16) / 5 = 100 + 0.3875 a
     *   max - min = a (15/16) = 0.9375 a
     *   slope: sum (k - 2)(y_k - avg) / sum (k - 2)^2 = a (-2 - 1/2 + 1/8 + 2/16) / 10 = -0.225 a,
     *          so the line's excursion is 4 x 0.225 a = 0.9 a.
     * Data: 0.9375 a <= 0.2 (100 + 0.3875 a)  <=>  a <= 23.26 (i >= 5).
     * Slope: 0.9 a <= 0.1 (100 + 0.3875 a)    <=>  a <= 11.61 (i >= 6).
     * i = 5 (a = 12.5) fails the slope limit: 11.25 / 104.84375 = 10.7%. The first steady
     * window is i = 6 (a = 6.25, rounds 6..10): round 10, average 102.421875, excursion
     * 5.859375 / 102.421875, slope -1.40625, slope excursion 5.625 / 102.421875. */
    double x[16];
    for (int k = 0; k < 16; k++)
        x[k] = 100 + 400 / ldexp(1, k);
    ssdsim_steady_result r = check(x, 16, NULL);
    ck_assert_int_eq(r.steady, 1);
    ck_assert_uint_eq(r.round, 10);
    ck_assert_double_eq_tol(r.average, 102.421875, 1e-12);
    ck_assert(r.min == 100 + 400 / ldexp(1, 10) && r.max == 106.25);
    ck_assert_double_eq_tol(r.slope, -1.40625, 1e-12);
    ck_assert_double_eq_tol(r.intercept, 102.421875 + 2 * 1.40625, 1e-12);
    ck_assert_double_eq_tol(r.excursion, 5.859375 / 102.421875, 1e-14);
    ck_assert_double_eq_tol(r.slope_excursion, 5.625 / 102.421875, 1e-14);
    /* Up to round 9 nothing is steady; the last window examined is rounds 5..9. */
    r = check(x, 10, NULL);
    ck_assert_int_eq(r.steady, 0);
    ck_assert_uint_eq(r.round, 9);
    ck_assert_double_eq_tol(r.slope_excursion, 11.25 / 104.84375, 1e-14);
    ck_assert(r.excursion <= 0.2);
}
END_TEST

START_TEST(test_steady_sawtooth_25_percent_never)
{
    /* 100, 112.5, 87.5 repeated: every window of 5 holds all three, so max - min = 25 against
     * an average between 97.5 and 102.5: at least 24.4% > 20%. (The line's excursion is
     * 5 / 102.5, 5 / 97.5 or, for 112.5 87.5 100 112.5 87.5, slope -2.5: 10 / 100.) */
    double x[30];
    static const double tooth[3] = {100, 112.5, 87.5};
    for (int k = 0; k < 30; k++)
        x[k] = tooth[k % 3];
    ssdsim_steady_result r = check(x, 30, NULL);
    ck_assert_int_eq(r.steady, 0);
    ck_assert_uint_eq(r.round, 29);
    ck_assert(r.max - r.min == 25);
    ck_assert(r.excursion == 0.25 && r.slope == -2.5 && r.slope_excursion == 0.1);
}
END_TEST

START_TEST(test_steady_linear_ramp_fails_on_slope)
{
    /* y_k = 100 + 3k, k = 0..7. A window starting at i has average 106 + 3i, max - min = 12 and
     * slope exactly 3, so both excursions are 12 / (106 + 3i): 11.3%, 10.9%, 10.5%, 10.4% for
     * i = 0..3, within the 20% data limit but over the 10% slope limit: never steady. */
    double x[8];
    for (int k = 0; k < 8; k++)
        x[k] = 100 + 3 * k;
    ssdsim_steady_result r = check(x, 8, NULL);
    ck_assert_int_eq(r.steady, 0);
    ck_assert_uint_eq(r.round, 7);
    ck_assert(r.slope == 3 && r.average == 115);
    ck_assert_double_eq_tol(r.intercept, 109, 1e-12);
    ck_assert_double_eq_tol(r.excursion, 12.0 / 115, 1e-15);
    ck_assert_double_eq_tol(r.slope_excursion, 12.0 / 115, 1e-15);
}
END_TEST

START_TEST(test_steady_limits_at_the_boundary)
{
    /* Both limits include their bound. Values are exact in binary, so the ratios are the
     * correctly rounded 0.2 and 0.1, equal to the limits. */
    /* max - min = 20 = 20% of 100; slope (sum (k-2)(y-100) = 20 - 10 = 10) / 10 = 1: 4% */
    const double data_edge[5] = {90, 110, 100, 100, 100};
    ssdsim_steady_result r = check(data_edge, 5, NULL);
    ck_assert(r.steady && r.round == 4 && r.excursion == 0.2 && r.slope == 1);
    /* 21% */
    const double data_over[5] = {89, 110, 100, 100, 101};
    r = check(data_over, 5, NULL);
    ck_assert(!r.steady && r.excursion == 0.21);
    /* slope 2.5 (sum (k-2)(y-100) = 10 + 2.5 + 2.5 + 10 = 25): line excursion 10 = 10% */
    const double slope_edge[5] = {95, 97.5, 100, 102.5, 105};
    r = check(slope_edge, 5, NULL);
    ck_assert(r.steady && r.slope == 2.5 && r.slope_excursion == 0.1 && r.excursion == 0.1);
    /* slope 2.75: 11% */
    const double slope_over[5] = {94.5, 97.25, 100, 102.75, 105.5};
    r = check(slope_over, 5, NULL);
    ck_assert(!r.steady && r.slope == 2.75 && r.slope_excursion == 0.11);
}
END_TEST

START_TEST(test_steady_fewer_values_than_window)
{
    const double x[4] = {7, 7, 7, 7};
    ssdsim_steady_result r = check(x, 4, NULL);
    ck_assert(!r.steady && r.round == 3 && r.window == 5);
    ck_assert(r.average == 0 && r.excursion == 0);
    r = check(NULL, 0, NULL);
    ck_assert(!r.steady && r.round == 0 && r.window == 5);
}
END_TEST

START_TEST(test_steady_nan_makes_its_windows_unsteady)
{
    /* The windows holding round 2 (ending at rounds 4, 5, 6) are not steady; rounds 3..7 are. */
    double x[8] = {100, 100, NAN, 100, 100, 100, 100, 100};
    ssdsim_steady_result r = check(x, 8, NULL);
    ck_assert(r.steady && r.round == 7 && r.average == 100);
    r = check(x, 7, NULL);
    ck_assert(!r.steady && r.round == 6);
    ck_assert(isnan(r.average) && isnan(r.excursion) && isnan(r.slope_excursion));
    x[2] = INFINITY;
    r = check(x, 8, NULL);
    ck_assert(r.steady && r.round == 7);
}
END_TEST

START_TEST(test_steady_zero_and_negative_averages)
{
    /* All zeros: max == min, steady with excursions 0 (documented choice). */
    const double zeros[5] = {0, 0, 0, 0, 0};
    ssdsim_steady_result r = check(zeros, 5, NULL);
    ck_assert(r.steady && r.round == 4 && r.average == 0 && r.excursion == 0);
    /* Average 0 with a spread: no relative excursion exists, not steady. */
    const double around0[5] = {-1, 1, -1, 1, 0};
    r = check(around0, 5, NULL);
    ck_assert(!r.steady && r.average == 0 && isinf(r.excursion));
    /* Negative values are judged against |average|: the mirror of data_edge above. */
    const double neg[5] = {-90, -110, -100, -100, -100};
    r = check(neg, 5, NULL);
    ck_assert(r.steady && r.excursion == 0.2 && r.slope == -1 && r.slope_excursion == 0.04);
}
END_TEST

START_TEST(test_steady_custom_window_and_limits)
{
    /* window 3, 5% and 2%. Windows: {100,110,100} 9.7% no; {110,100,104} 9.4% no;
     * {100,104,102}: average 102, excursion 4/102 = 3.9%, slope (2 + 0)/2 = 1, line excursion
     * 2/102 = 1.96%: steady, rounds 2..4. */
    const double x[6] = {100, 110, 100, 104, 102, 103};
    ssdsim_steady_opts o = {.window = 3, .max_excursion = 0.05, .max_slope_excursion = 0.02};
    ssdsim_steady_result r = check(x, 6, &o);
    ck_assert(r.steady && r.round == 4 && r.window == 3 && r.average == 102 && r.slope == 1);
    ck_assert_double_eq_tol(r.slope_excursion, 2.0 / 102, 1e-15);
    /* a limit of 1.9% on the line refuses that window and the next ({104,102,103}: slope
     * -0.5, line excursion 1/103 = 0.97%, excursion 2/103 = 1.9%: steady at round 5) */
    o.max_slope_excursion = 0.019;
    r = check(x, 6, &o);
    ck_assert(r.steady && r.round == 5);
    /* window 2: the line's excursion is the data excursion */
    ssdsim_steady_opts o2 = {.window = 2};
    const double y[3] = {100, 130, 131};
    r = check(y, 3, &o2);
    ck_assert(r.steady && r.round == 2 && r.window == 2);
}
END_TEST

START_TEST(test_steady_check_bogus_input)
{
    const double x[5] = {1, 1, 1, 1, 1};
    ssdsim_steady_result r;
    ck_assert_int_eq(ssdsim_steady_check(x, 5, NULL, NULL), SSDSIM_EINVAL);
    ck_assert_int_eq(ssdsim_steady_check(NULL, 5, NULL, &r), SSDSIM_EINVAL);
    ck_assert_str_eq(r.why_not, "no values: x is NULL with n 5");
    /* each refusal says what was refused in why_not (a future version left it empty) */
    struct {
        ssdsim_steady_opts o;
        const char *why;
    } bad[] = {
        {{.window = 1}, "window 1: expected 0 (SNIA's 5 rounds) or at least 2"},
        {{.max_excursion = -0.1}, "max_excursion -0.1: expected 0 (SNIA's 0.2) or a positive"},
        {{.max_slope_excursion = -1}, "max_slope_excursion -1: expected 0 (SNIA's 0.1) or a"},
        {{.max_excursion = NAN}, "max_excursion nan: expected"},
        {{.version = SSDSIM_STEADY_OPTS_VERSION + 1}, "ssdsim_steady_opts version"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        ck_assert_int_eq(ssdsim_steady_check(x, 5, &bad[i].o, &r), SSDSIM_EINVAL);
        ck_assert_msg(strstr(r.why_not, bad[i].why), "%zu: %s", i, r.why_not);
    }
    ck_assert_int_eq(ssdsim_get_steady(NULL, &r), SSDSIM_EINVAL);
}
END_TEST

/* ------------------------------------------------------------------------------------------ */
/* Runs                                                                                        */

#define SMALL_MODEL "generic-mlc", "geometry.blocks_per_plane=64"
#define LONG_RANDWRITE                                                                             \
    "{\"rw\":\"randwrite\",\"bs\":\"4k\",\"numjobs\":4,\"iodepth\":16,\"time_based\":1,"           \
    "\"runtime\":\"1000s\"}"

static ssdsim *small_sim(void)
{
    ssdsim_model *m = st_model(SMALL_MODEL, NULL);
    ssdsim *sim = st_sim(m, 1);
    ssdsim_model_free(m);
    return sim;
}

/* The series' values of one variable. */
static double *series_of(ssdsim *sim, ssdsim_steady_var var, size_t *n)
{
    *n = ssdsim_n_intervals(sim);
    double *x = calloc(*n ? *n : 1, sizeof *x);
    ck_assert_ptr_nonnull(x);
    for (size_t i = 0; i < *n; i++) {
        ssdsim_interval iv;
        ck_assert_int_eq(ssdsim_get_interval(sim, i, &iv), 0);
        x[i] = var == SSDSIM_STEADY_IOPS  ? iv.iops
               : var == SSDSIM_STEADY_BW  ? iv.bw_bytes
               : var == SSDSIM_STEADY_WAF ? iv.waf
                                          : iv.lat_ns_mean;
    }
    return x;
}

static cJSON *results(ssdsim *sim)
{
    char *text = ssdsim_results_json(sim);
    ck_assert_ptr_nonnull(text);
    cJSON *root = cJSON_Parse(text);
    ck_assert_ptr_nonnull(root);
    free(text);
    return root;
}

/* Per-interval GC copies and erases add up to the run's totals, and the last row's cumulative
 * WAF is the device's. */
static void assert_conservation(ssdsim *sim)
{
    ssdsim_device_stats d;
    ck_assert_int_eq(ssdsim_get_device_stats(sim, &d), 0);
    size_t n = ssdsim_n_intervals(sim);
    ck_assert_uint_gt(n, 0);
    uint64_t gc = 0, erased = 0;
    ssdsim_interval iv;
    for (size_t i = 0; i < n; i++) {
        ssdsim_get_interval(sim, i, &iv);
        gc += iv.gc_pages_copied;
        erased += iv.blocks_erased;
    }
    ck_assert_uint_eq(gc, d.gc_pages_copied);
    ck_assert_uint_eq(erased, d.blocks_erased);
    ck_assert(iv.waf_cumulative == d.waf);
    ck_assert_uint_eq(iv.host_pages_written, d.host_pages_written);
    ssdsim_op_stats w;
    ssdsim_get_op_stats(sim, SSDSIM_OP_WRITE, &w);
    ck_assert_uint_eq(iv.host_bytes_written, w.bytes);
}

START_TEST(test_steady_run_stops_at_steady_state)
{
    /* After a sequential fill, 4 jobs x QD16 of 4 KiB random writes: a burst on the
     * over-provisioned free blocks, the GC cliff, then a plateau. One-second rounds, judged
     * once another capacity is written (SNIA's preconditioning writes it twice). */
    ssdsim *sim = small_sim();
    ck_assert_int_eq(ssdsim_precondition_seq(sim), 0);
    const uint64_t iv_ns = 1000000000;
    ssdsim_run_opts o = {.interval_ns = iv_ns, .until_steady = 1};
    st_run(sim, LONG_RANDWRITE, &o);
    ssdsim_steady_result r;
    ck_assert_int_eq(ssdsim_get_steady(sim, &r), 0);
    ck_assert_int_eq(r.steady, 1);
    ck_assert_uint_ge(r.round, 4);
    /* The rounds judged begin once twice the logical capacity was written since the drive was
     * new (the fill wrote it once) and a block was erased: from the series itself. */
    uint32_t n_planes, ppb, page;
    uint64_t n_blocks, lpages;
    ck_assert_int_eq(ssdsim_device_shape(sim, &n_planes, &n_blocks, &ppb, &page, &lpages), 0);
    size_t n;
    double *x = series_of(sim, SSDSIM_STEADY_IOPS, &n);
    size_t f = SIZE_MAX;
    uint64_t erased = 0;
    for (size_t i = 0; i < n && f == SIZE_MAX; i++) {
        ssdsim_interval iv;
        ssdsim_get_interval(sim, i, &iv);
        erased += iv.blocks_erased;
        if (erased > 0 && lpages + iv.host_pages_written >= 2 * lpages)
            f = i + 1;
    }
    ck_assert_uint_eq(r.first_round, f);
    /* The rule applied independently to the IOPS of those rounds of the returned series (the
     * partial last row included) finds the same round and the same figures. */
    ssdsim_steady_result mine = check(x + f, n - f, NULL);
    ck_assert(mine.steady && f + mine.round == r.round);
    ck_assert(mine.average == r.average && mine.excursion == r.excursion &&
              mine.slope_excursion == r.slope_excursion);
    /* ... and no earlier prefix of them is steady, so the run did not stop late */
    ssdsim_steady_result before = check(x + f, r.round - f, NULL);
    ck_assert_int_eq(before.steady, 0);
    free(x);
    /* It stopped within one interval of that round: that round's row, then only the partial
     * row of the requests in flight; the run ends less than one interval after the round, far
     * before its 1000 s. */
    ck_assert_uint_le(n, r.round + 2);
    ssdsim_interval last_round;
    ssdsim_get_interval(sim, r.round, &last_round);
    ck_assert_uint_eq(last_round.t_ns, (r.round + 1) * iv_ns);
    ck_assert_uint_lt(ssdsim_sim_time_ns(sim), last_round.t_ns + iv_ns);
    assert_conservation(sim);

    cJSON *root = results(sim);
    const cJSON *ss = cJSON_GetObjectItemCaseSensitive(root, "steady_state");
    ck_assert(cJSON_IsObject(ss));
    ck_assert_str_eq(cJSON_GetObjectItemCaseSensitive(ss, "variable")->valuestring, "iops");
    ck_assert(cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(ss, "steady")));
    ck_assert(cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(ss, "stopped_run")));
    ck_assert_int_eq(cJSON_GetObjectItemCaseSensitive(ss, "round")->valueint, (int)r.round);
    ck_assert_int_eq(cJSON_GetObjectItemCaseSensitive(ss, "window")->valueint, 5);
    static const char *const keys[] = {"average", "min",       "max",
                                       "slope",   "excursion", "slope_excursion"};
    for (size_t k = 0; k < sizeof keys / sizeof keys[0]; k++)
        ck_assert_msg(cJSON_IsNumber(cJSON_GetObjectItemCaseSensitive(ss, keys[k])), "%s", keys[k]);
    cJSON_Delete(root);
    ssdsim_free(sim);
}
END_TEST

START_TEST(test_steady_run_is_deterministic)
{
    char *text[2];
    for (int t = 0; t < 2; t++) {
        ssdsim *sim = small_sim();
        ck_assert_int_eq(ssdsim_precondition_seq(sim), 0);
        ssdsim_run_opts o = {
            .interval_bytes = 64 << 20, .until_steady = 1, .steady_var = SSDSIM_STEADY_WAF};
        st_run(sim, LONG_RANDWRITE, &o);
        text[t] = ssdsim_results_json(sim);
        ck_assert_ptr_nonnull(text[t]);
        ssdsim_free(sim);
    }
    ck_assert_str_eq(text[0], text[1]);
    free(text[0]);
    free(text[1]);
}
END_TEST

START_TEST(test_steady_max_rounds_stops_the_run)
{
    /* Limits no series meets: the run stops after max_rounds rounds instead. */
    ssdsim *sim = small_sim();
    /* (the mean latency, which no two rounds share exactly: equal values would be steady) */
    ssdsim_run_opts o = {.interval_ns = 100000000,
                         .until_steady = 1,
                         .steady_var = SSDSIM_STEADY_LAT_MEAN,
                         .max_rounds = 7,
                         .steady = {.max_excursion = 1e-12, .max_slope_excursion = 1e-12}};
    st_run(sim, LONG_RANDWRITE, &o);
    ck_assert_uint_le(ssdsim_n_intervals(sim), 8);
    ck_assert_uint_lt(ssdsim_sim_time_ns(sim), 800000000);
    ssdsim_interval iv;
    ssdsim_get_interval(sim, 6, &iv);
    ck_assert_uint_eq(iv.t_ns, 700000000);
    ssdsim_steady_result r;
    ssdsim_get_steady(sim, &r);
    ck_assert(!r.steady && r.round == 6);
    cJSON *root = results(sim);
    const cJSON *ss = cJSON_GetObjectItemCaseSensitive(root, "steady_state");
    ck_assert(cJSON_IsFalse(cJSON_GetObjectItemCaseSensitive(ss, "steady")));
    ck_assert(cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(ss, "stopped_run")));
    cJSON_Delete(root);
    /* max_rounds alone (no until_steady) stops the run too */
    ssdsim_run_opts o2 = {.interval_ios = 1000, .max_rounds = 3};
    st_run(sim, LONG_RANDWRITE, &o2);
    ck_assert_uint_le(ssdsim_n_intervals(sim), 4);
    ssdsim_get_interval(sim, 2, &iv);
    ck_assert_uint_eq(iv.n_ios, 1000);
    ssdsim_free(sim);
}
END_TEST

START_TEST(test_steady_stop_wakes_no_sleeping_job)
{
    /* A job that thinks 10 s after every request: with 100 ms rounds and max_rounds 3 the run
     * stops at 0.3 s, not when the job would wake. */
    ssdsim *sim = small_sim();
    ssdsim_run_opts o = {.interval_ns = 100000000, .max_rounds = 3};
    st_run(sim,
           "{\"rw\":\"randwrite\",\"bs\":\"4k\",\"thinktime\":\"10s\",\"time_based\":1,"
           "\"runtime\":\"100s\"}",
           &o);
    ck_assert_uint_eq(ssdsim_sim_time_ns(sim), 300000000);
    ck_assert_uint_eq(ssdsim_n_intervals(sim), 3);
    ssdsim_job_info ji;
    ck_assert_int_eq(ssdsim_get_job(sim, 0, &ji), 0);
    ck_assert_uint_eq(ji.end_ns, 300000000);
    /* the simulation goes on normally */
    st_run(sim, "{\"rw\":\"randread\",\"bs\":\"4k\",\"number_ios\":100}", NULL);
    ssdsim_free(sim);
}
END_TEST

START_TEST(test_steady_get_without_until_steady)
{
    ssdsim *sim = small_sim();
    ssdsim_steady_result r;
    /* no run, no series */
    ck_assert_int_eq(ssdsim_get_steady(sim, &r), 0);
    ck_assert(!r.steady && r.round == 0 && r.window == 5);
    st_run(sim, "{\"rw\":\"randwrite\",\"bs\":\"4k\",\"number_ios\":2000}", NULL);
    ck_assert_int_eq(ssdsim_get_steady(sim, &r), 0);
    ck_assert(!r.steady && r.round == 0);
    cJSON *root = results(sim);
    ck_assert_ptr_null(cJSON_GetObjectItemCaseSensitive(root, "steady_state"));
    cJSON_Delete(root);
    /* SNIA's workload-independent preconditioning: two sequential fills (the second overwrites
     * everything, so garbage collection starts). */
    ck_assert_int_eq(ssdsim_precondition_seq_fills(sim, 2), 0);
    /* With a series the rule is applied to its whole rounds, by the run's variable: 20 rows of
     * 1000 I/Os and a partial one of 500. */
    ssdsim_run_opts o = {.interval_ios = 1000, .steady_var = SSDSIM_STEADY_LAT_MEAN};
    st_run(sim, "{\"rw\":\"randwrite\",\"bs\":\"4k\",\"iodepth\":8,\"number_ios\":20500}", &o);
    size_t n;
    double *x = series_of(sim, SSDSIM_STEADY_LAT_MEAN, &n);
    ck_assert_uint_eq(n, 21);
    ssdsim_steady_result mine = check(x, n - 1, NULL);
    free(x);
    ck_assert_int_eq(ssdsim_get_steady(sim, &r), 0);
    ck_assert(r.steady == mine.steady && r.round == mine.round && r.average == mine.average);
    ck_assert_uint_eq(r.first_round, 0);
    root = results(sim);
    const cJSON *ss = cJSON_GetObjectItemCaseSensitive(root, "steady_state");
    ck_assert_str_eq(cJSON_GetObjectItemCaseSensitive(ss, "variable")->valuestring, "lat_ns_mean");
    ck_assert(cJSON_IsFalse(cJSON_GetObjectItemCaseSensitive(ss, "stopped_run")));
    ck_assert(cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(ss, "preconditioned")));
    ck_assert_int_eq(cJSON_GetObjectItemCaseSensitive(ss, "first_round")->valueint, 0);
    cJSON_Delete(root);
    assert_conservation(sim);
    ssdsim_free(sim);
}
END_TEST

/* Whether the text has the needle; the text in the failure message. */
#define ASSERT_HAS(text, needle) ck_assert_msg(strstr((text), (needle)), "%s", (text))

START_TEST(test_steady_fresh_drive_not_judged)
{
    /* A fresh drive: 20 rounds of 1000 writes (80 MB of 1.6 GB) are the burst on free blocks;
     * the rule does not judge them, whatever their figures. */
    ssdsim *sim = small_sim();
    uint32_t n_planes, ppb, page;
    uint64_t n_blocks, lpages;
    ck_assert_int_eq(ssdsim_device_shape(sim, &n_planes, &n_blocks, &ppb, &page, &lpages), 0);
    ssdsim_run_opts o = {.interval_ios = 1000};
    const char *wl = "{\"rw\":\"randwrite\",\"bs\":\"4k\",\"iodepth\":8,\"number_ios\":20500}";
    st_run(sim, wl, &o);
    ck_assert_uint_eq(ssdsim_n_intervals(sim), 21);
    ssdsim_steady_result r;
    ck_assert_int_eq(ssdsim_get_steady(sim, &r), 0);
    ck_assert_int_eq(r.steady, 0);
    ck_assert_uint_eq(r.first_round, 20); /* none of the 20 whole rounds */
    ck_assert_uint_eq(r.round, 19);
    /* 20500 units written of the lpages the host addresses (page-sized units) */
    char want[256];
    snprintf(want, sizeof want,
             "not preconditioned: the host has written %.2f times the logical capacity since the "
             "last secure erase, not 2",
             20500.0 / (double)lpages);
    ck_assert_str_eq(r.why_not, want);
    cJSON *root = results(sim);
    const cJSON *ss = cJSON_GetObjectItemCaseSensitive(root, "steady_state");
    ck_assert(cJSON_IsFalse(cJSON_GetObjectItemCaseSensitive(ss, "steady")));
    ck_assert(cJSON_IsFalse(cJSON_GetObjectItemCaseSensitive(ss, "preconditioned")));
    ck_assert_str_eq(cJSON_GetObjectItemCaseSensitive(ss, "why_not")->valuestring, want);
    cJSON_Delete(root);
    /* One sequential fill is half of SNIA's workload-independent preconditioning. */
    ck_assert_int_eq(ssdsim_precondition_seq(sim), 0);
    st_run(sim, wl, &o);
    ck_assert_int_eq(ssdsim_get_steady(sim, &r), 0);
    ck_assert_int_eq(r.steady, 0);
    ck_assert_uint_eq(r.first_round, 20);
    snprintf(want, sizeof want, "the host has written %.2f times",
             (double)(20500 + 20500 + lpages) / (double)lpages);
    ASSERT_HAS(r.why_not, want);
    /* A secure erase makes the drive fresh again, whatever it went through. */
    ck_assert_int_eq(ssdsim_precondition_seq_fills(sim, 2), 0);
    ck_assert_int_eq(ssdsim_secure_erase(sim), 0);
    st_run(sim, wl, &o);
    ck_assert_int_eq(ssdsim_get_steady(sim, &r), 0);
    ck_assert_uint_eq(r.first_round, 20);
    snprintf(want, sizeof want, "the host has written %.2f times", 20500.0 / (double)lpages);
    ASSERT_HAS(r.why_not, want);
    ssdsim_free(sim);

    /* With 150% over-provisioning two fills (2 x logical < physical) leave free blocks:
     * garbage collection has not started. */
    ssdsim_model *m = st_model(SMALL_MODEL, "ftl.op=1.5", NULL);
    sim = st_sim(m, 1);
    ssdsim_model_free(m);
    ck_assert_int_eq(ssdsim_precondition_seq_fills(sim, 2), 0);
    st_run(sim, wl, &o);
    ck_assert_int_eq(ssdsim_get_steady(sim, &r), 0);
    ck_assert_int_eq(r.steady, 0);
    ASSERT_HAS(r.why_not, "not preconditioned: garbage collection has not started (no block erased "
                          "since the last secure erase; ");
    ssdsim_free(sim);
}
END_TEST

/* Logical units the FTL maps now (ssdsim_lookup over every unit). */
static uint64_t mapped_units(const ssdsim *sim, uint64_t lpages)
{
    uint64_t n = 0;
    for (uint64_t u = 0; u < lpages; u++)
        n += ssdsim_lookup(sim, u) != UINT64_MAX;
    return n;
}

/* A fresh small drive after `rounds` rounds of 64 MiB of LONG_RANDWRITE (the same seed: the
 * same requests as a longer run's first rounds). */
static ssdsim *small_after_rounds(uint32_t rounds)
{
    ssdsim *sim = small_sim();
    ssdsim_run_opts o = {.interval_bytes = 64 << 20, .max_rounds = rounds};
    st_run(sim, LONG_RANDWRITE, &o);
    ck_assert_uint_ge(ssdsim_n_intervals(sim), rounds);
    return sim;
}

START_TEST(test_steady_run_that_leaves_its_window_is_judged_again)
{
    /* A preconditioned drive (two fills) runs 4 KiB random reads for 30 s, then random writes
     * for 60 s, in 1 s rounds. The reads meet the rule at once, at several times the writes'
     * IOPS, and the run ends on the writes: the last rounds are far from the first steady
     * window, which the run left. The verdict is the first window that the last rounds (as
     * many as the window holds) still agree with within the excursion limit, among the
     * writes. */
    ssdsim *sim = small_sim();
    ck_assert_int_eq(ssdsim_precondition_seq_fills(sim, 2), 0);
    ssdsim_run_opts o = {.interval_ns = 1000000000};
    st_run(sim,
           "[global]\nioengine=libaio\n"
           "[reads]\nrw=randread\nbs=4k\niodepth=16\nnumjobs=4\ntime_based=1\nruntime=30s\n"
           "[writes]\nstonewall\nrw=randwrite\nbs=4k\niodepth=16\nnumjobs=4\ntime_based=1\n"
           "runtime=60s\n",
           &o);
    size_t n;
    double *x = series_of(sim, SSDSIM_STEADY_IOPS, &n);
    ssdsim_interval iv;
    ck_assert_int_eq(ssdsim_get_interval(sim, n - 1, &iv), 0);
    if (iv.partial)
        n--; /* whole rounds */
    ck_assert_uint_ge(n, 89);
    ssdsim_steady_result r, first = check(x, n, NULL);
    ck_assert_int_eq(ssdsim_get_steady(sim, &r), 0);
    ck_assert_uint_eq(r.first_round, 0);
    /* the reads' window comes first, and the writes' IOPS are far below it */
    ck_assert(first.steady && first.round < 30);
    double tail = (x[n - 1] + x[n - 2] + x[n - 3] + x[n - 4] + x[n - 5]) / 5;
    ck_assert_double_lt(tail, 0.5 * first.average);
    /* the verdict: a window of the writes, which the tail agrees with */
    ck_assert(r.steady);
    ck_assert_uint_ge(r.round, 30 + 4);
    ck_assert_double_le(fabs(tail - r.average), 0.2 * r.average);
    /* and the first such: every window that ends before it is either not steady or left */
    for (size_t e = 4; e < r.round; e++) {
        ssdsim_steady_result w = check(x + e - 4, 5, NULL);
        ck_assert_msg(!w.steady || fabs(tail - w.average) > 0.2 * w.average,
                      "rounds %zu-%zu: steady at %g, tail %g", e - 4, e, w.average, tail);
    }
    ssdsim_steady_result mine = check(x + r.round - 4, 5, NULL);
    ck_assert(mine.steady && mine.average == r.average);
    free(x);
    ssdsim_free(sim);
}
END_TEST

START_TEST(test_steady_fresh_drive_until_steady_goes_past_the_plateau)
{
    /* A fresh drive under random writes with until_steady, a round per 64 MiB: the burst on
     * free blocks is flat (its first five rounds alone meet the rule), but the run goes on
     * through the GC cliff and is judged from the first round that began once twice the
     * logical capacity was written, garbage collection had started and the units never
     * written were 1% of the spare space at most (random writes leave some unwritten for long
     * after twice the capacity, spare space to the FTL while they are). */
    ssdsim *sim = small_sim();
    uint32_t n_planes, ppb, page;
    uint64_t n_blocks, lpages;
    ck_assert_int_eq(ssdsim_device_shape(sim, &n_planes, &n_blocks, &ppb, &page, &lpages), 0);
    const uint64_t iv_bytes = 64 << 20;
    ssdsim_run_opts o = {.interval_bytes = iv_bytes, .until_steady = 1};
    st_run(sim, LONG_RANDWRITE, &o);
    ssdsim_steady_result r;
    ck_assert_int_eq(ssdsim_get_steady(sim, &r), 0);
    ck_assert_int_eq(r.steady, 1);
    ck_assert_str_eq(r.why_not, "");
    size_t n;
    double *x = series_of(sim, SSDSIM_STEADY_IOPS, &n);
    /* From the series (a fresh drive: its cumulative figures count since the secure erase):
     * the first round to erase a block, and the first round that began after it with twice
     * the logical units written. */
    size_t first_erase = SIZE_MAX, f = SIZE_MAX;
    ssdsim_interval iv;
    for (size_t i = 0; i < n && f == SIZE_MAX; i++) {
        ck_assert_int_eq(ssdsim_get_interval(sim, i, &iv), 0);
        if (first_erase == SIZE_MAX && iv.blocks_erased > 0) {
            first_erase = i;
            /* From the model: before GC every programmed page is a host page and GC starts on
             * a plane when its free blocks fall below free_blocks_min (2); with the writes
             * striped over the planes, the host has written all but 2 blocks of each plane,
             * less the blocks open for writing (one per plane; one more as slack). */
            ck_assert_uint_ge(iv.host_pages_written, n_blocks * ppb - (uint64_t)n_planes * 4 * ppb);
        }
        if (first_erase != SIZE_MAX && iv.host_pages_written >= 2 * lpages)
            f = i + 1;
    }
    ck_assert_uint_ge(first_erase, 5);
    /* The units never written: the same requests run again to the end of the round before
     * the first judged and to the end of the one before that, the mapped units counted unit by
     * unit. 4 jobs, each with its own random map (a permutation of the units, fio's default),
     * have written W / 4 units each after W: a unit none of them wrote is left with probability
     * (1 - W / (4 L))^4, about e^-2 = 0.135 at W = 2 L, 0 at W = 4 L. The requests still in
     * flight when a run stops (64) complete too. */
    const double spare = 0.28 * (double)lpages; /* generic-mlc's ftl.op */
    size_t g = r.first_round;
    ck_assert_uint_gt(g, f); /* twice the capacity written is not enough here */
    for (size_t k = g - 1; k <= g; k++) {
        ssdsim *again = small_after_rounds((uint32_t)k);
        uint64_t unmapped = lpages - mapped_units(again, lpages);
        ssdsim_interval last;
        ck_assert_int_eq(ssdsim_get_interval(again, k - 1, &last), 0);
        double w = (double)last.host_pages_written / (4.0 * (double)lpages);
        double expect = (double)lpages * pow(1 - fmin(w, 1), 4);
        ck_assert_msg(fabs((double)unmapped - expect) <= 0.1 * expect + 100,
                      "after round %zu: %llu units unwritten, %.0f expected", k,
                      (unsigned long long)unmapped, expect);
        if (k < g) /* the gate not yet met: more than 1% of the spare space */
            ck_assert_double_gt((double)unmapped, 0.01 * spare);
        else
            ck_assert_double_le((double)unmapped, 0.01 * spare);
        ssdsim_free(again);
    }
    f = g;
    ck_assert_uint_eq(r.first_round, f);
    /* The rule alone would have stopped on the plateau, at round 4. */
    ssdsim_steady_result plateau = check(x, first_erase, NULL);
    ck_assert(plateau.steady && plateau.round == 4);
    /* The run stopped at the first window of rounds from f on that the rule finds steady. */
    ssdsim_steady_result mine = check(x + f, r.round + 1 - f, NULL);
    ck_assert(mine.steady && f + mine.round == r.round);
    ck_assert(mine.average == r.average && mine.excursion == r.excursion);
    ck_assert(!check(x + f, r.round - f, NULL).steady);
    ck_assert_uint_ge(r.round, f + 4);
    ck_assert_uint_le(n, r.round + 2);
    /* The steady IOPS are those well after the cliff, far below the burst's. */
    ck_assert(r.average < 0.5 * plateau.average);
    free(x);
    ssdsim_free(sim);
}
END_TEST

static int no_requests(void *ud, ssdsim_request *req, char *msg, size_t len)
{
    (void)ud, (void)req, (void)msg, (void)len;
    return 0;
}

START_TEST(test_steady_bad_run_options)
{
    ssdsim *sim = small_sim();
    ssdsim_workload *wl = st_workload("{\"rw\":\"randwrite\",\"bs\":\"4k\",\"number_ios\":100}");
    struct {
        ssdsim_run_opts o;
        const char *needle;
    } bad[] = {
        {{.interval_ns = 1000000, .interval_ios = 10}, "one kind of time-series interval"},
        {{.interval_ios = 10, .interval_bytes = 4096}, "one kind of time-series interval"},
        {{.interval_ns = 1, .interval_ios = 1, .interval_bytes = 1}, "not 3"},
        {{.until_steady = 1}, "until_steady needs a time-series interval"},
        {{.max_rounds = 3}, "max_rounds needs"},
        {{.interval_ios = 10, .steady_var = (ssdsim_steady_var)7}, "steady_var"},
        {{.interval_ios = 10, .steady = {.window = 1}}, "window"},
        {{.interval_ios = 10, .steady = {.max_excursion = -1}}, "max_excursion -1"},
        /* a future nested version is named, not taken for bad window values */
        {{.interval_ios = 10, .steady = {.version = SSDSIM_STEADY_OPTS_VERSION + 1}},
         "run options: steady: ssdsim_steady_opts version"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        ck_assert_int_eq(ssdsim_run(sim, wl, &bad[i].o), SSDSIM_EINVAL);
        ck_assert_msg(strstr(ssdsim_errmsg(sim), bad[i].needle), "%zu: %s", i, ssdsim_errmsg(sim));
        ssdsim_source src = {.next = no_requests};
        ck_assert_int_eq(ssdsim_run_source(sim, &src, NULL, &bad[i].o), SSDSIM_EINVAL);
    }
    /* the simulation is still usable */
    ck_assert_int_eq(ssdsim_run(sim, wl, NULL), 0);
    ssdsim_workload_free(wl);
    ssdsim_free(sim);
}
END_TEST

/* ------------------------------------------------------------------------------------------ */
/* Per-interval figures                                                                        */

/* Latencies the observer saw, in completion order. */
struct lats {
    uint64_t *v;
    size_t n, cap;
};

static void on_complete(const ssdsim_completion *c, void *ud)
{
    struct lats *l = ud;
    if (l->n == l->cap) {
        l->cap = l->cap ? 2 * l->cap : 4096;
        l->v = realloc(l->v, l->cap * sizeof *l->v);
        ck_assert_ptr_nonnull(l->v);
    }
    l->v[l->n++] = c->complete_ns - c->submit_ns;
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* The reported p99 of samples v[0..n): the histogram bucket's upper edge of the ceil(0.99 n)-th
 * smallest, clamped to [min, max] (doc/results.md, "Percentiles"). */
static uint64_t hand_p99(uint64_t *v, size_t n)
{
    qsort(v, n, sizeof *v, cmp_u64);
    size_t rank = (size_t)ceil(0.99 * (double)n - 1e-9);
    if (rank < 1)
        rank = 1;
    uint64_t lo, hi;
    ssdsim__hist_bucket_range(ssdsim__hist_index(v[rank - 1]), &lo, &hi);
    ck_assert(lo <= v[rank - 1] && v[rank - 1] <= hi);
    return SSDSIM__MIN(SSDSIM__MAX(hi, v[0]), v[n - 1]);
}

START_TEST(test_steady_interval_p99_known_latency)
{
    /* QD1 reads of never-written pages all take 8048 ns on generic-mlc (doc/design.md: 2 us
     * host, 4 us core, 2.048 us link); 8048 lies in the bucket [8032, 8063], clamped to the max:
     * every interval's p99 is 8048. */
    ssdsim *sim = small_sim();
    ssdsim_run_opts o = {.interval_ios = 100};
    st_run(sim, "{\"rw\":\"read\",\"bs\":\"4k\",\"iodepth\":1,\"number_ios\":1000}", &o);
    ck_assert_uint_eq(ssdsim_n_intervals(sim), 10);
    for (size_t i = 0; i < 10; i++) {
        ssdsim_interval iv;
        ssdsim_get_interval(sim, i, &iv);
        ck_assert_uint_eq(iv.n_ios, 100);
        ck_assert_uint_eq(iv.lat_ns_p99, 8048);
        ck_assert_uint_eq(iv.lat_ns_max, 8048);
        ck_assert(iv.lat_ns_mean == 8048 && iv.lat_ns_stddev == 0);
        ck_assert_uint_eq(iv.t_ns, (i + 1) * 100 * 8048);
        /* the host wrote nothing */
        ck_assert(isnan(iv.waf) && isnan(iv.waf_cumulative));
        ck_assert_uint_eq(iv.host_bytes_written, 0);
    }
    ssdsim_free(sim);
}
END_TEST

START_TEST(test_steady_interval_p99_matches_the_requests)
{
    /* Random writes at QD 16 through the GC cliff: each interval's p99 is the quantile of the
     * latencies the observer saw in it, computed here from the sorted samples. */
    ssdsim *sim = small_sim();
    ck_assert_int_eq(ssdsim_precondition_seq(sim), 0);
    struct lats l = {0};
    ssdsim_observer obs = {.on_complete = on_complete, .userdata = &l};
    ssdsim_set_observer(sim, &obs);
    const uint64_t per = 997;
    ssdsim_run_opts o = {.interval_ios = per};
    st_run(sim,
           "{\"rw\":\"randwrite\",\"bs\":\"4k\",\"iodepth\":16,\"numjobs\":2,"
           "\"number_ios\":60000}",
           &o);
    size_t n = ssdsim_n_intervals(sim);
    ck_assert_uint_eq(l.n, 120000);
    ck_assert_uint_eq(n, (120000 + per - 1) / per);
    size_t first = 0;
    for (size_t i = 0; i < n; i++) {
        ssdsim_interval iv;
        ssdsim_get_interval(sim, i, &iv);
        size_t k = SSDSIM__MIN(per, l.n - first);
        ck_assert_uint_eq(iv.n_ios, k);
        ck_assert_uint_eq(iv.lat_ns_p99, hand_p99(l.v + first, k));
        ck_assert_uint_eq(iv.lat_ns_max, l.v[first + k - 1]); /* sorted by hand_p99 */
        first += k;
    }
    ssdsim_set_observer(sim, NULL);
    assert_conservation(sim);
    free(l.v);
    ssdsim_free(sim);
}
END_TEST

START_TEST(test_steady_interval_bytes_rows)
{
    /* 4 KiB writes, a row per 4 MiB written: 1024 writes per row; 10000 writes make 9 rows of
     * 1024 and a partial one of 784. Each row's device figures add up to the run's. */
    ssdsim *sim = small_sim();
    ssdsim_run_opts o = {.interval_bytes = 4 << 20};
    st_run(sim, "{\"rw\":\"randwrite\",\"bs\":\"4k\",\"iodepth\":4,\"number_ios\":10000}", &o);
    size_t n = ssdsim_n_intervals(sim);
    ck_assert_uint_eq(n, 10);
    for (size_t i = 0; i < n; i++) {
        ssdsim_interval iv;
        ssdsim_get_interval(sim, i, &iv);
        ck_assert_uint_eq(iv.n_ios, i < 9 ? 1024 : 784);
        ck_assert_uint_eq(iv.host_bytes_written, i < 9 ? (i + 1) * (4 << 20) : 10000 * 4096);
        /* (pages are counted when allocated, so the writes in flight are in; not at the end) */
        ck_assert_uint_ge(iv.host_pages_written, iv.host_bytes_written / 4096);
        if (i == 9)
            ck_assert_uint_eq(iv.host_pages_written, 10000);
        /* the last row, cut short by the end of the run, is marked */
        ck_assert_int_eq(iv.partial, i == 9);
    }
    assert_conservation(sim);
    /* Reads do not count: a 50/50 mix closes a row per 4 MiB of its writes only. */
    st_run(sim,
           "{\"rw\":\"randrw\",\"rwmixread\":50,\"bs\":\"4k\",\"iodepth\":4,\"number_ios\":6000}",
           &o);
    ssdsim_op_stats w;
    ssdsim_get_op_stats(sim, SSDSIM_OP_WRITE, &w);
    size_t full = (size_t)(w.bytes / (4 << 20));
    n = ssdsim_n_intervals(sim);
    ck_assert_uint_ge(n, full);
    ck_assert_uint_le(n, full + 1);
    if (w.bytes % (4 << 20))
        ck_assert_uint_eq(n, full + 1);
    for (size_t i = 0; i < full; i++) {
        ssdsim_interval iv;
        ssdsim_get_interval(sim, i, &iv);
        ck_assert_uint_eq(iv.host_bytes_written, (i + 1) * (4 << 20));
    }
    ssdsim_free(sim);
}
END_TEST

START_TEST(test_steady_csv_columns)
{
    ssdsim *sim = small_sim();
    ssdsim_run_opts o = {.interval_ios = 500};
    st_run(sim, "{\"rw\":\"randwrite\",\"bs\":\"4k\",\"number_ios\":1200}", &o);
    char path[4096];
    out_path(path, sizeof path, "steady-timeseries.csv");
    ck_assert_int_eq(ssdsim_write_timeseries_csv(sim, path), 0);
    char *text = read_file(path, NULL);
    ck_assert_ptr_nonnull(text);
    const char *header = "t_ns,n_ios,iops,bw_bytes,lat_ns_mean,lat_ns_max,lat_ns_stddev,waf,"
                         "host_pages_written,flash_pages_programmed,free_blocks,lat_ns_p99,"
                         "waf_cumulative,gc_pages_copied,blocks_erased,host_bytes_written,"
                         "partial\n";
    ck_assert_msg(!strncmp(text, header, strlen(header)), "%s", text);
    /* three rows of 17 fields each: two whole rounds of 500 I/Os, then the partial row of 200
     * (its last field 1) */
    int lines = 0;
    for (const char *p = text + strlen(header); *p; p++) {
        const char *eol = strchr(p, '\n');
        ck_assert_ptr_nonnull(eol);
        int commas = 0;
        for (const char *q = p; q < eol; q++)
            commas += *q == ',';
        ck_assert_int_eq(commas, 16);
        ck_assert_int_eq(eol[-2], ',');
        ck_assert_int_eq(eol[-1], lines == 2 ? '1' : '0');
        lines++;
        p = eol;
    }
    ck_assert_int_eq(lines, 3);
    free(text);
    /* the JSON rows carry the same keys */
    cJSON *root = results(sim);
    const cJSON *row = cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(root, "timeseries"), 0);
    static const char *const keys[] = {"lat_ns_p99", "waf_cumulative", "gc_pages_copied",
                                       "blocks_erased", "host_bytes_written"};
    for (size_t k = 0; k < sizeof keys / sizeof keys[0]; k++)
        ck_assert_msg(cJSON_IsNumber(cJSON_GetObjectItemCaseSensitive(row, keys[k])), "%s",
                      keys[k]);
    const cJSON *ts = cJSON_GetObjectItemCaseSensitive(root, "timeseries");
    for (int i = 0; i < 3; i++) {
        const cJSON *p = cJSON_GetObjectItemCaseSensitive(cJSON_GetArrayItem(ts, i), "partial");
        ck_assert(i == 2 ? cJSON_IsTrue(p) : cJSON_IsFalse(p));
    }
    cJSON_Delete(root);
    ssdsim_free(sim);
}
END_TEST

/* ------------------------------------------------------------------------------------------ */
/* The command line                                                                            */

static const char *cli_workload(char *buf, size_t len)
{
    out_path(buf, len, "steady-randwrite.json");
    write_file(buf, "{\"rw\": \"randwrite\", \"bs\": \"4k\", \"iodepth\": 16, \"numjobs\": 4,\n"
                    " \"time_based\": 1, \"runtime\": \"1000s\"}\n");
    return buf;
}

START_TEST(test_steady_cli_usage_errors)
{
    char wl[4096];
    cli_workload(wl, sizeof wl);
    struct cmd c;
    RUN(&c, "run", "--workload", wl, "--until-steady");
    assert_one_error(&c, 2, "--until-steady needs --interval, --interval-ios or --interval-bytes");
    cmd_free(&c);
    RUN(&c, "run", "--workload", wl, "--max-rounds", "5");
    assert_one_error(&c, 2, "--max-rounds needs --interval");
    cmd_free(&c);
    RUN(&c, "run", "--workload", wl, "--interval-bytes", "1g", "--interval-ios", "100");
    assert_one_error(&c, 2, "--interval-ios and --interval-bytes: give one kind of interval");
    cmd_free(&c);
    static const char *const bad_sizes[] = {"0", "lots", "-1m"};
    for (size_t i = 0; i < sizeof bad_sizes / sizeof bad_sizes[0]; i++) {
        RUN(&c, "run", "--workload", wl, "--interval-bytes", bad_sizes[i]);
        assert_one_error(&c, 2, "--interval-bytes");
        cmd_free(&c);
    }
    RUN(&c, "run", "--workload", wl, "--interval", "1s", "--steady-var", "latency");
    assert_one_error(&c, 2, "iops, bw, lat or waf");
    cmd_free(&c);
    RUN(&c, "run", "--workload", wl, "--interval", "1s", "--max-rounds", "0");
    assert_one_error(&c, 2, "--max-rounds");
    cmd_free(&c);
}
END_TEST

START_TEST(test_steady_cli_until_steady)
{
    char wl[4096], json[4096], csv[4096];
    cli_workload(wl, sizeof wl);
    out_path(json, sizeof json, "steady-run.json");
    out_path(csv, sizeof csv, "steady-run.csv");
    struct cmd c;
    RUN(&c, "run", "--workload", wl, "--set", "geometry.blocks_per_plane=64", "--precondition",
        "seq", "--interval-bytes", "400m", "--until-steady", "--steady-var", "waf", "--json", json,
        "--timeseries", csv);
    ck_assert_msg(c.status == 0, "exit %d: %s", c.status, c.err);
    ck_assert_msg(strstr(c.out, "p99_us") && strstr(c.out, "WAF_cum"), "%s", c.out);
    ck_assert_msg(strstr(c.out, "steady state (SNIA, WAF): reached at round "), "%s", c.out);
    cmd_free(&c);
    char *text = read_file(json, NULL);
    ck_assert_ptr_nonnull(text);
    cJSON *root = cJSON_Parse(text);
    free(text);
    const cJSON *ss = cJSON_GetObjectItemCaseSensitive(root, "steady_state");
    ck_assert_str_eq(cJSON_GetObjectItemCaseSensitive(ss, "variable")->valuestring, "waf");
    ck_assert(cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(ss, "steady")));
    ck_assert(cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(ss, "stopped_run")));
    cJSON_Delete(root);
    ck_assert(file_exists(csv));

    /* not reached: the verdict says in how many rounds */
    RUN(&c, "run", "--workload", wl, "--set", "geometry.blocks_per_plane=64", "--precondition",
        "seq:2", "--interval", "100ms", "--max-rounds", "3", "--steady-var", "bw");
    ck_assert_msg(c.status == 0, "exit %d: %s", c.status, c.err);
    ck_assert_msg(strstr(c.out, "steady state (SNIA, bandwidth): not reached in 3 rounds"), "%s",
                  c.out);
    cmd_free(&c);
    /* a run shorter than one interval has only its partial row, which is no round of the rule:
     * no round was judged (it used to say "not reached in 1 rounds", as with one whole round) */
    char few[4096];
    out_path(few, sizeof few, "steady-20000-writes.json");
    write_file(few, "{\"rw\": \"randwrite\", \"bs\": \"4k\", \"iodepth\": 16, "
                    "\"number_ios\": 20000}\n");
    RUN(&c, "run", "--workload", few, "--set", "geometry.blocks_per_plane=64", "--precondition",
        "seq:2", "--interval", "10s", "--steady-var", "bw");
    ck_assert_msg(c.status == 0, "exit %d: %s", c.status, c.err);
    ck_assert_msg(strstr(c.out, "steady state (SNIA, bandwidth): not judged: no whole round "
                                "(window 5)"),
                  "%s", c.out);
    cmd_free(&c);
    /* on a fresh drive: not judged, and why; the partial last row is marked */
    RUN(&c, "run", "--workload", wl, "--set", "geometry.blocks_per_plane=64", "--interval", "100ms",
        "--max-rounds", "3", "--steady-var", "bw");
    ck_assert_msg(c.status == 0, "exit %d: %s", c.status, c.err);
    ck_assert_msg(strstr(c.out, "steady state (SNIA, bandwidth): not judged in 3 rounds: not "
                                "preconditioned: the host has written "),
                  "%s", c.out);
    ck_assert_msg(strstr(c.out, "  (partial)\n(partial: the run ended inside this interval"), "%s",
                  c.out);
    cmd_free(&c);
}
END_TEST

static Suite *steady_suite(void)
{
    Suite *s = suite_create("steady");
    TCase *rule = tcase_create("rule");
    tcase_add_test(rule, test_steady_constant_series_steady_at_round_4);
    tcase_add_test(rule, test_steady_decaying_exponential);
    tcase_add_test(rule, test_steady_sawtooth_25_percent_never);
    tcase_add_test(rule, test_steady_linear_ramp_fails_on_slope);
    tcase_add_test(rule, test_steady_limits_at_the_boundary);
    tcase_add_test(rule, test_steady_fewer_values_than_window);
    tcase_add_test(rule, test_steady_nan_makes_its_windows_unsteady);
    tcase_add_test(rule, test_steady_zero_and_negative_averages);
    tcase_add_test(rule, test_steady_custom_window_and_limits);
    tcase_add_test(rule, test_steady_check_bogus_input);
    suite_add_tcase(s, rule);
    TCase *run = tcase_create("run");
    tcase_add_test(run, test_steady_run_stops_at_steady_state);
    tcase_add_test(run, test_steady_run_is_deterministic);
    tcase_add_test(run, test_steady_max_rounds_stops_the_run);
    tcase_add_test(run, test_steady_stop_wakes_no_sleeping_job);
    tcase_add_test(run, test_steady_get_without_until_steady);
    tcase_add_test(run, test_steady_fresh_drive_not_judged);
    tcase_add_test(run, test_steady_fresh_drive_until_steady_goes_past_the_plateau);
    tcase_add_test(run, test_steady_run_that_leaves_its_window_is_judged_again);
    tcase_add_test(run, test_steady_bad_run_options);
    suite_add_tcase(s, run);
    TCase *iv = tcase_create("intervals");
    tcase_add_test(iv, test_steady_interval_p99_known_latency);
    tcase_add_test(iv, test_steady_interval_p99_matches_the_requests);
    tcase_add_test(iv, test_steady_interval_bytes_rows);
    tcase_add_test(iv, test_steady_csv_columns);
    suite_add_tcase(s, iv);
    TCase *cli = tcase_create("cli");
    tcase_add_test(cli, test_steady_cli_usage_errors);
    tcase_add_test(cli, test_steady_cli_until_steady);
    suite_add_tcase(s, cli);
    return s;
}

int main(void)
{
    return test_run_suite(steady_suite());
}
