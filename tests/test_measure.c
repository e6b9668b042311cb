/* test_measure.c: the measurement methods of ssdsim/measure.h, called from C through the public
 * headers only: the measured window, settling, reaching steady state, preconditioning curves,
 * rounds until steady, scaled copies and calibration against spec figures, with bogus arguments and
 * option structs of an unknown version for each.
 *
 * The figures are checked against values derived by hand from the small SLC model below (that
 * of tests/test_calibrate.sh): one SLC die per chip enable on 2 channels of a 100 MT/s x8 bus, a
 * bare 100 MB/s link with 1 us per command, 2 us of firmware per command. Written full
 * sequentially, a QD1 4 KiB random read takes
 *     1 (link, per command) + 2 (firmware) + 20 (tR) + 40.96 (4 KiB on the flash bus)
 *     + 40.96 (4 KiB on the link) = 104.92 us,
 * so 10^6 / 104.92 = 9,531 IOPS; 128 KiB sequential reads at QD32 are bound by the link, 100 MB/s
 * (the flash could give 4 dies x 4 KiB / 60.96 us = 269 MB/s, the two buses 200 MB/s).
 */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ssdsim/measure.h"
#include "ssdsim/suite.h"
#include "ssdsim/ssdsim.h"
#include "testutil.h"

static const char small_json[] =
    "{\"name\": \"measure-small\","
    " \"geometry\": {\"channels\": 2, \"chips_per_channel\": 1, \"dies_per_chip\": 2,"
    "  \"planes_per_die\": 1, \"blocks_per_plane\": 64, \"pages_per_block\": 64,"
    "  \"page_size\": \"4KiB\"},"
    " \"flash\": {\"cell\": \"slc\", \"read_us\": 20, \"program_us\": 200, \"erase_us\": 1000,"
    "  \"bus_mts\": 100, \"bus_width\": 8},"
    " \"controller\": {\"cmd_overhead_us\": 2, \"cores\": 1, \"queue_depth\": 32},"
    " \"host\": {\"interface\": \"custom\", \"link_bw\": \"100MB/s\", \"cmd_overhead_us\": 1},"
    " \"ftl\": {\"type\": \"page\", \"op\": 0.28},"
    " \"spec\": {\"source\": \"test_measure.c\", \"figures\": ["
    "  {\"name\": \"QD1 read latency\", \"metric\": \"read_lat_us\", \"value\": 104.92,"
    "   \"rw\": \"randread\", \"bs\": \"4KiB\", \"iodepth\": 1, \"numjobs\": 1,"
    "   \"state\": \"full\"},"
    "  {\"name\": \"sequential read\", \"metric\": \"read_mbps\", \"value\": 100, \"rw\": \"read\","
    "   \"bs\": \"128KiB\", \"iodepth\": 32, \"numjobs\": 1, \"state\": \"full\"},"
    "  {\"name\": \"random write\", \"metric\": \"write_iops\", \"value\": 5000,"
    "   \"rw\": \"randwrite\", \"bs\": \"4KiB\", \"iodepth\": 32, \"numjobs\": 1,"
    "   \"state\": \"steady\"}]}}";

#define LAT_QD1_US 104.92
#define LINK_BYTES_S 1e8

static ssdsim_model *small_model(void)
{
    ssdsim_model *m = NULL;
    ssdsim_error err;
    ck_assert_msg(ssdsim_model_load_string(&m, small_json, "small", &err) == 0, "%s", err.message);
    return m;
}

static ssdsim *small_sim(const ssdsim_model *m)
{
    ssdsim *sim = NULL;
    ssdsim_error err;
    ck_assert_msg(ssdsim_new(&sim, m, 1, &err) == 0, "%s", err.message);
    return sim;
}

/* A workload of one job from the builder. */
static ssdsim_workload *wl_new(const char *rw, int64_t bs, int64_t iodepth)
{
    ssdsim_workload *wl = NULL;
    ck_assert_int_eq(ssdsim_workload_new(&wl, "test", NULL), 0);
    ck_assert_int_eq(ssdsim_workload_set(wl, "rw", rw, NULL), 0);
    ck_assert_int_eq(ssdsim_workload_set_int(wl, "bs", bs, NULL), 0);
    ck_assert_int_eq(ssdsim_workload_set_int(wl, "iodepth", iodepth, NULL), 0);
    if (!strncmp(rw, "rand", 4))
        ck_assert_int_eq(ssdsim_workload_set_bool(wl, "norandommap", true, NULL), 0);
    return wl;
}

static bool near(double v, double want, double rel)
{
    return fabs(v - want) <= rel * fabs(want);
}

/* ------------------------------------------------------------------------------------------ */

START_TEST(test_measure_opts_init_and_versions)
{
    ssdsim_measure_opts mo;
    ssdsim_curve_opts co;
    ssdsim_calibrate_opts ko;
    ck_assert_int_eq(ssdsim_measure_opts_init(&mo, 0), 0);
    ck_assert_uint_eq(mo.version, SSDSIM_MEASURE_OPTS_VERSION);
    ck_assert_uint_eq(mo.window_ns, 0);
    ck_assert_int_eq(ssdsim_curve_opts_init(&co, 1), 0);
    ck_assert_uint_eq(co.version, 1);
    ck_assert_int_eq(ssdsim_calibrate_opts_init(&ko, 0), 0);
    ck_assert_uint_eq(ko.version, SSDSIM_CALIBRATE_OPTS_VERSION);
    ck_assert_int_eq(ssdsim_measure_opts_init(NULL, 0), SSDSIM_EINVAL);
    ck_assert_int_eq(ssdsim_measure_opts_init(&mo, SSDSIM_MEASURE_OPTS_VERSION + 1), SSDSIM_EINVAL);
    ck_assert_int_eq(ssdsim_curve_opts_init(&co, SSDSIM_CURVE_OPTS_VERSION + 1), SSDSIM_EINVAL);
    ck_assert_int_eq(ssdsim_calibrate_opts_init(&ko, 99), SSDSIM_EINVAL);

    /* A struct of an unknown (newer) version is refused by every method, with a message. */
    ssdsim_model *m = small_model();
    ssdsim *sim = small_sim(m);
    ssdsim_workload *wl = wl_new("randwrite", 4096, 8);
    ssdsim_measure_opts bad_mo = SSDSIM_MEASURE_OPTS_INIT;
    bad_mo.version = 99;
    ssdsim_measurement f;
    ck_assert_int_eq(ssdsim_measure(sim, wl, &bad_mo, &f), SSDSIM_EINVAL);
    ck_assert_ptr_nonnull(strstr(ssdsim_errmsg(sim), "newer"));
    ssdsim_curve_opts bad_co = SSDSIM_CURVE_OPTS_INIT;
    bad_co.version = 99;
    ssdsim_curve *c = (ssdsim_curve *)&f;
    ck_assert_int_eq(ssdsim_curve_run(&c, sim, NULL, wl, &bad_co), SSDSIM_EINVAL);
    ck_assert_ptr_null(c);
    ssdsim_steady_method how;
    ck_assert_int_eq(ssdsim_reach_steady(sim, wl, &bad_co, &how), SSDSIM_EINVAL);
    ssdsim_calibrate_opts bad_ko = SSDSIM_CALIBRATE_OPTS_INIT;
    bad_ko.version = 99;
    ssdsim_calibration r;
    ssdsim_error err;
    ck_assert_int_eq(ssdsim_calibrate_figure(m, 0, 1, &bad_ko, &r, &err), SSDSIM_EINVAL);
    ck_assert_ptr_nonnull(strstr(err.message, "newer"));
    ssdsim_workload_free(wl);
    ssdsim_free(sim);
    ssdsim_model_free(m);
}
END_TEST

START_TEST(test_measure_bogus_arguments)
{
    ssdsim_model *m = small_model();
    ssdsim *sim = small_sim(m);
    ssdsim_workload *wl = wl_new("randread", 4096, 1);
    ssdsim_measurement f;
    ck_assert_int_eq(ssdsim_measure(NULL, wl, NULL, &f), SSDSIM_EINVAL);
    ck_assert_int_eq(ssdsim_measure(sim, NULL, NULL, &f), SSDSIM_EINVAL);
    ck_assert_int_eq(ssdsim_measure_sized(sim, wl, NULL, NULL, 0), SSDSIM_EINVAL);
    double written = 7;
    ck_assert_int_eq(ssdsim_settle(NULL, wl, 0.1, &written), SSDSIM_EINVAL);
    ck_assert(written == 0);
    ck_assert_int_eq(ssdsim_settle(sim, NULL, 0.1, NULL), SSDSIM_EINVAL);
    ck_assert_int_eq(ssdsim_settle(sim, wl, -1, NULL), SSDSIM_EINVAL);
    ck_assert_int_eq(ssdsim_settle(sim, wl, NAN, NULL), SSDSIM_EINVAL);
    /* 1e12 drive writes wrapped in 64 bits to a fraction of one, and the call reported 1e12 */
    written = 7;
    ck_assert_int_eq(ssdsim_settle(sim, wl, 1e12, &written), SSDSIM_EINVAL);
    ck_assert(written == 0);
    ck_assert_ptr_nonnull(strstr(ssdsim_errmsg(sim), "drive_writes: expected drive writes from "
                                                     "0 to 1e+06, got 1e+12"));
    ck_assert_int_eq(ssdsim_settle_adaptive(sim, wl, 2e6, NULL), SSDSIM_EINVAL);
    ck_assert_int_eq(ssdsim_reach_steady(NULL, wl, NULL, NULL), SSDSIM_EINVAL);
    ck_assert_int_eq(ssdsim_reach_steady(sim, NULL, NULL, NULL), SSDSIM_EINVAL);
    ssdsim_curve *c = NULL;
    ck_assert_int_eq(ssdsim_curve_run(NULL, sim, NULL, wl, NULL), SSDSIM_EINVAL);
    ck_assert_int_eq(ssdsim_curve_run(&c, NULL, NULL, wl, NULL), SSDSIM_EINVAL);
    ck_assert_int_eq(ssdsim_curve_run(&c, sim, NULL, NULL, NULL), SSDSIM_EINVAL);
    /* A curve needs writes. */
    ck_assert_int_eq(ssdsim_curve_run(&c, sim, NULL, wl, NULL), SSDSIM_ECONFIG);
    ck_assert_ptr_null(c);
    ck_assert_uint_eq(ssdsim_curve_n_rows(NULL), 0);
    ssdsim_curve_row row;
    ssdsim_curve_summary sum;
    ck_assert_int_eq(ssdsim_curve_get_row(NULL, 0, &row), SSDSIM_EINVAL);
    ck_assert_int_eq(ssdsim_curve_get_summary(NULL, &sum), SSDSIM_EINVAL);
    ssdsim_curve_free(NULL);
    ssdsim_model *copy = (ssdsim_model *)&row;
    ck_assert_int_eq(ssdsim_model_scaled_copy(&copy, NULL, 0, NULL), SSDSIM_EINVAL);
    ck_assert_ptr_null(copy);
    ck_assert_int_eq(ssdsim_model_scaled_copy(NULL, m, 0, NULL), SSDSIM_EINVAL);
    ssdsim_error err;
    ck_assert_int_eq(ssdsim_model_scaled_copy(&copy, m, 65, &err), SSDSIM_ECONFIG);
    ck_assert_ptr_nonnull(strstr(err.message, "not smaller"));
    ck_assert_uint_eq(ssdsim_model_scaled_blocks_per_plane(NULL), 0);
    ssdsim_calibration r;
    ck_assert_int_eq(ssdsim_calibrate_figure(NULL, 0, 1, NULL, &r, NULL), SSDSIM_EINVAL);
    ck_assert_int_eq(ssdsim_calibrate_figure(m, 3, 1, NULL, &r, &err), SSDSIM_EINVAL);
    ck_assert_int_eq(ssdsim_calibrate_figure_sized(m, 0, 1, NULL, NULL, 0, NULL), SSDSIM_EINVAL);
    ssdsim_calibration rs[2];
    ck_assert_int_eq(ssdsim_calibrate_model(m, 1, NULL, rs, 2, &err), SSDSIM_ERANGE);
    ck_assert_int_eq(ssdsim_calibrate_model(NULL, 1, NULL, rs, 2, &err), SSDSIM_EINVAL);
    ssdsim_model *plain = NULL;
    ck_assert_int_eq(ssdsim_model_default(&plain, NULL), 0);
    ck_assert_int_eq(ssdsim_calibrate_model(plain, 1, NULL, rs, 2, &err), SSDSIM_ENOTFOUND);
    /* Values that cannot be meant are refused, naming the field, before anything runs: a NaN
     * settle ran for ever, infinity settled one drive write, a negative or NaN maximum became
     * the default 10, a tolerance out of range became 0.10 (or matched everything), a window
     * past the simulated clock measured nothing and said rc 0. */
    ssdsim_workload *ww = wl_new("randwrite", 4096, 4);
    const double bad_settle[] = {NAN, INFINITY, 1e300};
    for (size_t k = 0; k < 3; k++) {
        ssdsim_curve_opts co = SSDSIM_CURVE_OPTS_INIT;
        co.settle_drive_writes = bad_settle[k];
        ck_assert_int_eq(ssdsim_reach_steady(sim, ww, &co, NULL), SSDSIM_EINVAL);
        ck_assert_ptr_nonnull(strstr(ssdsim_errmsg(sim), "settle_drive_writes"));
    }
    const double bad_max[] = {-1, NAN, INFINITY};
    for (size_t k = 0; k < 3; k++) {
        ssdsim_curve_opts co = SSDSIM_CURVE_OPTS_INIT;
        co.max_drive_writes = bad_max[k];
        ck_assert_int_eq(ssdsim_curve_run(&c, sim, NULL, ww, &co), SSDSIM_EINVAL);
        ck_assert_ptr_nonnull(strstr(ssdsim_errmsg(sim), "max_drive_writes"));
    }
    ssdsim_curve_opts co = SSDSIM_CURVE_OPTS_INIT;
    co.rounds_per_drive_write = 4000000000u;
    ck_assert_int_eq(ssdsim_curve_run(&c, sim, NULL, ww, &co), SSDSIM_EINVAL);
    ck_assert_ptr_nonnull(strstr(ssdsim_errmsg(sim), "rounds_per_drive_write"));
    ssdsim_workload_free(ww);
    const double bad_tol[] = {-0.5, NAN, INFINITY};
    for (size_t k = 0; k < 3; k++) {
        ssdsim_calibrate_opts ko = SSDSIM_CALIBRATE_OPTS_INIT;
        ko.tolerance = bad_tol[k];
        ck_assert_int_eq(ssdsim_calibrate_figure(m, 0, 1, &ko, &r, &err), SSDSIM_EINVAL);
        ck_assert_ptr_nonnull(strstr(err.message, "tolerance"));
    }
    ssdsim_measure_opts mo = SSDSIM_MEASURE_OPTS_INIT;
    mo.window_ns = UINT64_MAX;
    ck_assert_int_eq(ssdsim_measure(sim, wl, &mo, &f), SSDSIM_EINVAL);
    mo.window_ns = (UINT64_C(1) << 62) - 1;
    mo.max_stretch = 1;
    ck_assert_int_eq(ssdsim_measure(sim, wl, &mo, &f), SSDSIM_EINVAL);
    ck_assert_ptr_nonnull(strstr(ssdsim_errmsg(sim), "window_ns"));
    ssdsim_workload *fw = (ssdsim_workload *)&row;
    ck_assert_int_eq(ssdsim_spec_figure_workload(&fw, NULL, NULL), SSDSIM_EINVAL);
    ck_assert_ptr_null(fw);
    ssdsim_model_free(plain);
    ssdsim_workload_free(wl);
    ssdsim_free(sim);
    ssdsim_model_free(m);
}
END_TEST

/* QD1 4 KiB random reads on a full drive: 104.92 us each, 9,531 IOPS (see the top). A window of
 * 0.1 s holds about 953 of them, fewer than the 5000 asked: it is run again, as long as the
 * first run says is needed with a 25% margin (0.1 s x 5000 / 953 x 1.25 = 0.66 s, about 6,250
 * requests), and that one is enough: two runs. */
START_TEST(test_measure_window_qd1_latency)
{
    ssdsim_model *m = small_model();
    ssdsim *sim = small_sim(m);
    ck_assert_int_eq(ssdsim_precondition_seq(sim), 0);
    ssdsim_workload *wl = wl_new("randread", 4096, 1);
    ssdsim_measure_opts mo = SSDSIM_MEASURE_OPTS_INIT;
    mo.window_ns = 100000000;
    ssdsim_measurement f;
    ck_assert_msg(ssdsim_measure(sim, wl, &mo, &f) == 0, "%s", ssdsim_errmsg(sim));
    ck_assert_msg(near(f.lat_mean_ns, LAT_QD1_US * 1e3, 0.001), "mean %g ns", f.lat_mean_ns);
    ck_assert_msg(near(f.read_lat_mean_ns, LAT_QD1_US * 1e3, 0.001), "read %g", f.read_lat_mean_ns);
    ck_assert_msg(near(f.iops, 1e6 / LAT_QD1_US, 0.01), "iops %g", f.iops);
    ck_assert(f.write_iops == 0 && f.n_writes == 0);
    ck_assert(isnan(f.waf)); /* nothing written */
    ck_assert_uint_eq(f.n_runs, 2);
    ck_assert_uint_ge(f.n_ios, 5000);
    ck_assert(!f.too_few);
    ck_assert_uint_ge(f.window_ns, 600000000);
    ck_assert_uint_le(f.window_ns, 700000000);
    ck_assert_uint_eq(f.ramp_ns, f.window_ns / 10);

    /* max_stretch 1: never run again, the short window stands. */
    mo.max_stretch = 1;
    ck_assert_int_eq(ssdsim_measure(sim, wl, &mo, &f), 0);
    ck_assert_uint_eq(f.n_runs, 1);
    ck_assert_uint_lt(f.n_ios, 1000);
    ck_assert_uint_eq(f.window_ns, 100000000);
    ck_assert(!f.too_few); /* short of 5000, yet a flow: far more than the one outstanding */
    /* a window shorter than one read (104.92 us) completes none: only its first wave */
    mo.window_ns = 50000;
    ck_assert_int_eq(ssdsim_measure(sim, wl, &mo, &f), 0);
    ck_assert_uint_eq(f.n_ios, 0);
    ck_assert(f.too_few);
    mo.window_ns = 100000000;

    /* fixed_length: the window from its first request, no ramp, not run again although it
     * holds fewer than 5000 requests (nor stopped early: until_steady is not used). The first
     * read starts at 0 and they follow one another: 0.1 s / 104.92 us = 953.1, so 953 complete
     * within the window and the 954th, issued in it, after it (rates count the rounds). */
    mo.max_stretch = 0;
    mo.until_steady = true;
    mo.fixed_length = true;
    ck_assert_int_eq(ssdsim_measure(sim, wl, &mo, &f), 0);
    ck_assert_uint_eq(f.n_runs, 1);
    ck_assert_uint_eq(f.ramp_ns, 0);
    ck_assert_uint_eq(f.window_ns, 100000000);
    ck_assert(!f.steady);
    ck_assert_uint_eq(f.n_ios, 954);
    ck_assert_msg(near(f.iops, 953 / 0.1, 0.001), "iops %g", f.iops);
    ck_assert_msg(near(f.lat_mean_ns, LAT_QD1_US * 1e3, 0.001), "mean %g ns", f.lat_mean_ns);
    ssdsim_workload_free(wl);
    ssdsim_free(sim);
    ssdsim_model_free(m);
}
END_TEST

/* A window of writes must hold gc_cycles blocks per plane of host writes (periods of GC); one
 * that holds fewer even at its longest says so (short_of_gc). The small drive written full has
 * 4 planes of 64-page blocks: 2 blocks per plane are 512 host units. Over a 10 ms window the
 * 100 MB/s link carries at most 10 ms x 10^8 B/s / 4096 B = 244 of them, so with max_stretch 1
 * the window is short of its GC periods; allowed 64 windows (640 ms, room for 15,625 units on
 * the link and far more than 512 at any rate the flash gives), it is run again until it holds
 * them. Without gc_cycles, and for reads, nothing is asked, so nothing is short. */
START_TEST(test_measure_window_short_of_gc)
{
    ssdsim_model *m = small_model();
    ssdsim *sim = small_sim(m);
    ck_assert_int_eq(ssdsim_precondition_seq(sim), 0);
    ssdsim_workload *ww = wl_new("randwrite", 4096, 32);
    ssdsim_measure_opts mo = SSDSIM_MEASURE_OPTS_INIT;
    mo.window_ns = 10000000;
    mo.gc_cycles = 2;
    mo.min_ios = 1;
    mo.min_ios_per_slot = 1;
    mo.max_stretch = 1;
    ssdsim_measurement f;
    ck_assert_msg(ssdsim_measure(sim, ww, &mo, &f) == 0, "%s", ssdsim_errmsg(sim));
    ck_assert_uint_eq(f.n_runs, 1);
    ck_assert_uint_le(f.host_pages_written, 244);
    ck_assert(f.short_of_gc);

    mo.max_stretch = 64;
    ck_assert_msg(ssdsim_measure(sim, ww, &mo, &f) == 0, "%s", ssdsim_errmsg(sim));
    ck_assert_uint_gt(f.n_runs, 1);
    ck_assert_uint_ge(f.host_pages_written, 512);
    ck_assert(!f.short_of_gc);

    mo.max_stretch = 1;
    mo.gc_cycles = 0;
    ck_assert_msg(ssdsim_measure(sim, ww, &mo, &f) == 0, "%s", ssdsim_errmsg(sim));
    ck_assert(!f.short_of_gc);

    ssdsim_workload *wr = wl_new("randread", 4096, 32);
    mo.gc_cycles = 2;
    ck_assert_msg(ssdsim_measure(sim, wr, &mo, &f) == 0, "%s", ssdsim_errmsg(sim));
    ck_assert_uint_eq(f.host_pages_written, 0);
    ck_assert(!f.short_of_gc);
    ssdsim_workload_free(wr);
    ssdsim_workload_free(ww);
    ssdsim_free(sim);
    ssdsim_model_free(m);
}
END_TEST

/* Reads measured right after random writes wait for the garbage collection those writes left
 * running: the small drive written full, then 20,000 random 4 KiB writes at QD32 (GC runs all
 * along, and a victim is being collected when they end: its reads, programs and erase are queued
 * on its die), then QD1 random reads measured over 0.1 s. The rounds while GC goes on are ramp
 * (ramp_ns beyond the window's tenth), so every measured read finds the drive idle and takes
 * exactly 104.92 us: the mean and the longest alike (a read behind a GC program would wait up
 * to 200 us more). */
START_TEST(test_measure_reads_after_gc)
{
    ssdsim_model *m = small_model();
    ssdsim *sim = small_sim(m);
    ck_assert_int_eq(ssdsim_precondition_seq(sim), 0);
    ssdsim_workload *ww = wl_new("randwrite", 4096, 32);
    ck_assert_int_eq(ssdsim_workload_set_int(ww, "number_ios", 20000, NULL), 0);
    ck_assert_msg(ssdsim_run(sim, ww, NULL) == 0, "%s", ssdsim_errmsg(sim));
    ssdsim_device_stats d;
    ck_assert_int_eq(ssdsim_get_device_stats(sim, &d), 0);
    ck_assert_uint_gt(d.gc_pages_copied, 0);
    ssdsim_workload *wl = wl_new("randread", 4096, 1);
    ssdsim_measure_opts mo = SSDSIM_MEASURE_OPTS_INIT;
    mo.window_ns = 100000000;
    mo.max_stretch = 1;
    ssdsim_measurement f;
    ck_assert_msg(ssdsim_measure(sim, wl, &mo, &f) == 0, "%s", ssdsim_errmsg(sim));
    ck_assert_uint_gt(f.ramp_ns, mo.window_ns / 10);
    ck_assert_msg(near(f.lat_mean_ns, LAT_QD1_US * 1e3, 0.001), "mean %g ns", f.lat_mean_ns);
    ck_assert_msg(near((double)f.lat_max_ns, LAT_QD1_US * 1e3, 0.001), "max %llu ns",
                  (unsigned long long)f.lat_max_ns);
    /* Nothing left running: the next window has its plain ramp. */
    ck_assert_int_eq(ssdsim_measure(sim, wl, &mo, &f), 0);
    ck_assert_uint_eq(f.ramp_ns, mo.window_ns / 10);
    ssdsim_workload_free(wl);
    ssdsim_workload_free(ww);
    ssdsim_free(sim);
    ssdsim_model_free(m);
}
END_TEST

/* 128 KiB sequential reads at QD32 on a full drive: the 100 MB/s link. Same seed, same model:
 * the same figures, byte for byte. */
START_TEST(test_measure_window_link_bound_and_deterministic)
{
    ssdsim_model *m = small_model();
    ssdsim_measurement f[2];
    for (int k = 0; k < 2; k++) {
        ssdsim *sim = small_sim(m);
        ck_assert_int_eq(ssdsim_precondition_seq(sim), 0);
        ssdsim_workload *wl = wl_new("read", 131072, 32);
        ssdsim_measure_opts mo = SSDSIM_MEASURE_OPTS_INIT;
        mo.window_ns = 200000000;
        mo.until_steady = true;
        ck_assert_int_eq(ssdsim_measure(sim, wl, &mo, &f[k]), 0);
        ssdsim_workload_free(wl);
        ssdsim_free(sim);
    }
    ck_assert_msg(near(f[0].bw_bytes, LINK_BYTES_S, 0.02), "bw %g B/s", f[0].bw_bytes);
    ck_assert(memcmp(&f[0], &f[1], sizeof f[0]) == 0);
    ssdsim_model_free(m);
}
END_TEST

/* Settling writes a tenth of a drive write of a writing workload (the io_size of the clone is
 * that, rounded up to 4 KiB), nothing of a reading one. */
START_TEST(test_measure_settle)
{
    ssdsim_model *m = small_model();
    ssdsim *sim = small_sim(m);
    ssdsim_workload *w = wl_new("randwrite", 4096, 8);
    ssdsim_workload *r = wl_new("randread", 4096, 8);
    double written = -1;
    ck_assert_int_eq(ssdsim_settle(sim, r, 0.1, &written), 0);
    ck_assert(written == 0);
    ck_assert_int_eq(ssdsim_settle(sim, w, 0, &written), 0);
    ck_assert(written == 0);
    ck_assert_int_eq(ssdsim_settle(sim, w, SSDSIM_SETTLE_DRIVE_WRITES, &written), 0);
    ck_assert(written == SSDSIM_SETTLE_DRIVE_WRITES);
    ssdsim_op_stats os;
    ssdsim_device_stats d;
    ssdsim_get_op_stats(sim, SSDSIM_OP_WRITE, &os);
    ssdsim_get_device_stats(sim, &d);
    uint64_t want = ((uint64_t)(0.1 * (double)d.logical_bytes) + 4095) / 4096 * 4096;
    ck_assert_uint_eq(os.bytes, want);
    ssdsim_workload_free(w);
    ssdsim_workload_free(r);
    ssdsim_free(sim);
    ssdsim_model_free(m);
}
END_TEST

/* IOPS of the next `ios` requests of `wl` on `sim` (one run of that many). */
static double next_iops(ssdsim *sim, const ssdsim_workload *wl, int64_t ios)
{
    ssdsim_workload *w = NULL;
    ck_assert_int_eq(ssdsim_workload_copy(&w, wl), 0);
    ck_assert_int_eq(ssdsim_workload_set_int(w, "number_ios", ios, NULL), 0);
    ck_assert_int_eq(ssdsim_run(sim, w, NULL), 0);
    ssdsim_op_stats os;
    ssdsim_get_op_stats(sim, SSDSIM_OP_WRITE, &os);
    ssdsim_workload_free(w);
    return os.iops;
}

/* The adaptive settle after fast preconditioning: the installed state has the free blocks GC
 * without timing leaves (each plane collected to its target), so the first writes run faster
 * than steady state; settling, in rounds of one block per plane (4 x 64 pages of 4 KiB = 1 MiB
 * here), stops once a round no longer takes from the free blocks: at least 2 rounds, far less
 * than the fixed tenth of a drive write, and what follows runs as after that fixed amount
 * (within 5%; the next 1,024 writes, 4 rounds), while unsettled they run more than 5% faster.
 * A RAIN drive settles by the same rule, more than 2 rounds and less than the bound, and its
 * next 4,096 writes run as after the fixed amount (within 5%). */
START_TEST(test_measure_settle_adaptive)
{
    ssdsim_model *m = small_model();
    ssdsim_workload *w = wl_new("randwrite", 4096, 32);
    ssdsim_workload *r = wl_new("randread", 4096, 8);
    double iops[3], written = -1;
    for (int k = 0; k < 3; k++) { /* unsettled, adaptive, fixed 0.1 drive writes */
        ssdsim *sim = small_sim(m);
        ck_assert_int_eq(ssdsim_precondition_fast(sim, w, NULL), 0);
        if (k == 1) {
            ck_assert_int_eq(ssdsim_settle_adaptive(sim, r, 0.1, &written), 0);
            ck_assert(written == 0); /* a workload that does not write: nothing */
            ck_assert_int_eq(ssdsim_settle_adaptive(sim, w, 0, &written), 0);
            ck_assert(written == 0);
            ck_assert_int_eq(ssdsim_settle_adaptive(sim, w, SSDSIM_SETTLE_DRIVE_WRITES, &written),
                             0);
            ssdsim_device_stats d;
            ssdsim_get_device_stats(sim, &d);
            double round = 4.0 * 64 * 4096 / (double)d.logical_bytes;
            ck_assert_msg(written >= 2 * round && written <= SSDSIM_SETTLE_DRIVE_WRITES / 2,
                          "settled %g drive writes (a round is %g)", written, round);
        } else if (k == 2) {
            ck_assert_int_eq(ssdsim_settle(sim, w, SSDSIM_SETTLE_DRIVE_WRITES, NULL), 0);
        }
        iops[k] = next_iops(sim, w, 1024);
        ssdsim_free(sim);
    }
    ck_assert_msg(near(iops[1], iops[2], 0.05), "adaptive %g, fixed %g IOPS", iops[1], iops[2]);
    ck_assert_msg(iops[0] > 1.05 * iops[2], "unsettled %g, settled %g IOPS", iops[0], iops[2]);
    /* RAIN: a superblock is one frontier over every plane, collected whole, so a timed run's
     * GC is in step as the install is, and the same rule settles it in a few rounds; what
     * follows runs as after the fixed amount. */
    ssdsim_model *rain = small_model();
    ck_assert_int_eq(ssdsim_model_set_double(rain, "ftl.op", 0.7, NULL), 0); /* room for it */
    ck_assert_int_eq(ssdsim_model_set_int(rain, "ftl.parity_group", 4, NULL), 0);
    double riops[2];
    for (int k = 0; k < 2; k++) { /* adaptive, fixed */
        ssdsim *rs = small_sim(rain);
        ck_assert_int_eq(ssdsim_precondition_fast(rs, w, NULL), 0);
        if (k == 0) {
            ck_assert_int_eq(ssdsim_settle_adaptive(rs, w, SSDSIM_SETTLE_DRIVE_WRITES, &written),
                             0);
            ssdsim_device_stats d;
            ssdsim_get_device_stats(rs, &d);
            double round = 4.0 * 64 * 4096 / (double)d.logical_bytes;
            ck_assert_msg(written >= 2 * round && written < SSDSIM_SETTLE_DRIVE_WRITES,
                          "RAIN settled %g drive writes (a round is %g)", written, round);
        } else {
            ck_assert_int_eq(ssdsim_settle(rs, w, SSDSIM_SETTLE_DRIVE_WRITES, NULL), 0);
        }
        riops[k] = next_iops(rs, w, 4096);
        ssdsim_free(rs);
    }
    ck_assert_msg(near(riops[0], riops[1], 0.05), "RAIN adaptive %g, fixed %g IOPS", riops[0],
                  riops[1]);
    ssdsim_model_free(rain);
    ck_assert_int_eq(ssdsim_settle_adaptive(NULL, w, 0.1, NULL), SSDSIM_EINVAL);
    ssdsim *sim = small_sim(m);
    ck_assert_int_eq(ssdsim_settle_adaptive(sim, NULL, 0.1, NULL), SSDSIM_EINVAL);
    ck_assert_int_eq(ssdsim_settle_adaptive(sim, w, -1, NULL), SSDSIM_EINVAL);
    ck_assert_int_eq(ssdsim_settle_adaptive(sim, w, INFINITY, NULL), SSDSIM_EINVAL);
    ssdsim_free(sim);
    ssdsim_workload_free(w);
    ssdsim_workload_free(r);
    ssdsim_model_free(m);
}
END_TEST

/* A curve from the fresh drive: its first run covers 1 + op + 0.5 drive writes, so the steady
 * verdict never comes before the drive was written over (preconditioned); drive writes grow row
 * by row; the fresh drive's burst is faster than its steady state; the drive is left at that
 * steady state. */
START_TEST(test_measure_curve_on_the_drive)
{
    ssdsim_model *m = small_model();
    ssdsim *sim = small_sim(m);
    ssdsim_workload *wl = wl_new("randwrite", 4096, 32);
    ssdsim_curve_opts co = SSDSIM_CURVE_OPTS_INIT;
    co.rounds_per_drive_write = 10;
    co.max_drive_writes = 6;
    ssdsim_curve *c = NULL;
    ck_assert_msg(ssdsim_curve_run(&c, sim, NULL, wl, &co) == 0, "%s", ssdsim_errmsg(sim));
    ssdsim_curve_summary s;
    ck_assert_int_eq(ssdsim_curve_get_summary(c, &s), 0);
    ssdsim_device_stats d;
    ssdsim_get_device_stats(sim, &d);
    ck_assert(!s.scaled && s.time_scale == 1.0 && s.copy_blocks_per_plane == 0);
    ck_assert_uint_eq(s.rounds_per_drive_write, 10);
    ck_assert(near(s.min_drive_writes, 1 + d.op + 0.5, 1e-12));
    ck_assert(s.max_drive_writes == 6);
    ck_assert_msg(s.steady_drive_writes >= 1 + d.op, "steady at %g drive writes",
                  s.steady_drive_writes);
    ck_assert(s.steady_drive_writes <= 6 + 0.2);
    size_t n = ssdsim_curve_n_rows(c);
    ck_assert_uint_ge(n, 10);
    double last = 0;
    for (size_t i = 0; i < n; i++) {
        ssdsim_curve_row row;
        ck_assert_int_eq(ssdsim_curve_get_row(c, i, &row), 0);
        ck_assert(row.drive_writes > last);
        ck_assert(row.t_s == row.t_copy_s);
        last = row.drive_writes;
    }
    ssdsim_curve_row row;
    ck_assert_int_eq(ssdsim_curve_get_row(c, n, &row), SSDSIM_EINVAL);
    ck_assert_msg(s.burst_iops > s.steady_iops, "burst %g, steady %g", s.burst_iops,
                  s.steady_iops);
    ck_assert(s.steady_waf >= 1.0);
    ck_assert(isnan(s.cliff_t_s) || s.cliff_t_s > 0);
    ck_assert_int_eq(s.brought_by, SSDSIM_STEADY_BY_RUN);
    ssdsim_curve_free(c);
    ssdsim_workload_free(wl);
    ssdsim_free(sim);
    ssdsim_model_free(m);
}
END_TEST

/* Scaled copies: generic-mlc (512 blocks per plane, GC watermarks 2 and 2, 28% over-provisioning)
 * keeps 2 + 2 = 4 blocks per plane free or open; a quarter of the spare (21.9% of the blocks)
 * must hold them: 4 x 4 / 0.219 = 74 blocks, less than the floor of 256. The copy has more
 * over-provisioning than the model: the fixed blocks are a larger share of its spare. A curve
 * run on it reports its time axis scaled by the capacity ratio, and the drive is then given the
 * state the copy reached. */
START_TEST(test_measure_scaled_copy_and_curve_on_it)
{
    ssdsim_model *g = NULL;
    ck_assert_int_eq(ssdsim_model_default(&g, NULL), 0);
    ck_assert_uint_eq(ssdsim_model_scaled_blocks_per_plane(g), 256);
    ssdsim_model *m = small_model();
    ck_assert_uint_eq(ssdsim_model_scaled_blocks_per_plane(m), 64); /* never more than it has */
    ssdsim_model *cm = NULL;
    ssdsim_error err;
    ck_assert_msg(ssdsim_model_scaled_copy(&cm, m, 32, &err) == 0, "%s", err.message);
    int64_t bpp = 0;
    double op = 0;
    ck_assert_int_eq(ssdsim_model_get_int(cm, "geometry.blocks_per_plane", &bpp, NULL), 0);
    ck_assert_int_eq(bpp, 32);
    ck_assert_int_eq(ssdsim_model_get_double(cm, "ftl.op", &op, NULL), 0);
    ck_assert_msg(op > 0.28, "copy op %g", op);

    ssdsim *sim = small_sim(m), *copy = small_sim(cm);
    ssdsim_workload *wl = wl_new("randwrite", 4096, 32);
    ssdsim_curve_opts co = SSDSIM_CURVE_OPTS_INIT;
    co.rounds_per_drive_write = 10;
    co.max_drive_writes = 5;
    ssdsim_curve *c = NULL;
    ck_assert_msg(ssdsim_curve_run(&c, sim, copy, wl, &co) == 0, "%s", ssdsim_errmsg(sim));
    ssdsim_curve_summary s;
    ck_assert_int_eq(ssdsim_curve_get_summary(c, &s), 0);
    ssdsim_device_stats dm, dc;
    ssdsim_get_device_stats(sim, &dm);
    ssdsim_get_device_stats(copy, &dc);
    ck_assert(s.scaled);
    ck_assert_uint_eq(s.copy_blocks_per_plane, 32);
    ck_assert(near(s.time_scale, (double)dm.logical_bytes / (double)dc.logical_bytes, 1e-12));
    ssdsim_curve_row row;
    ck_assert_int_eq(ssdsim_curve_get_row(c, 0, &row), 0);
    ck_assert(near(row.t_s, row.t_copy_s * s.time_scale, 1e-12));
    /* the model was given the state the copy reached, then settled: it runs on near the copy's
     * steady WAF (a copy of half the model's blocks per plane, with the model's proportion of
     * working space, reaches a steady WAF some percent below the model's own; test_precond
     * checks the installed state itself) */
    ck_assert_int_eq(s.brought_by, SSDSIM_STEADY_BY_COPY);
    ssdsim_reset_stats(sim);
    ssdsim_workload *more = wl_new("randwrite", 4096, 32);
    ck_assert_msg(ssdsim_run(sim, more, NULL) == 0, "%s", ssdsim_errmsg(sim));
    ssdsim_get_device_stats(sim, &dm);
    double waf = (double)dm.flash_pages_programmed / (double)dm.host_pages_written;
    ck_assert_msg(fabs(waf / s.steady_waf - 1) < 0.10, "model WAF %.3f, copy's steady WAF %.3f",
                  waf, s.steady_waf);
    ssdsim_workload_free(more);
    ssdsim_curve_free(c);
    ssdsim_workload_free(wl);
    ssdsim_free(sim);
    ssdsim_free(copy);
    ssdsim_model_free(cm);
    ssdsim_model_free(m);
    ssdsim_model_free(g);

    /* A system of SSDs (the X25-M RAID-5 behind the 3ware card, 256 KiB strips): its scaled copy
     * is the same system over the member's scaled copy, so its volume shrinks as the member does
     * (3 data members' whole strips); the suites' curves run on it (a 2048-block member: more
     * than 4 times larger). */
    char path[1024];
    ssdsim_model *arr = NULL, *mem = NULL, *ca = NULL, *cmem = NULL;
    ck_assert_msg(ssdsim_model_load_file(&arr, test_src_path(path, sizeof path,
                                                             "models/x25m-g2-160-x4-raid5-3ware.json"),
                                         &err) == 0,
                  "%s", err.message);
    ck_assert_msg(ssdsim_model_load_file(&mem, test_src_path(path, sizeof path,
                                                             "models/x25m-g2-160.json"),
                                         &err) == 0,
                  "%s", err.message);
    uint32_t want = ssdsim_model_scaled_blocks_per_plane(mem);
    ck_assert_uint_gt(want, 0);
    ck_assert_uint_eq(ssdsim_model_scaled_blocks_per_plane(arr), want);
    ck_assert_uint_eq(ssdsim_suite_curve_blocks_per_plane(arr, 0), want);
    ck_assert_msg(ssdsim_model_scaled_copy(&ca, arr, 0, &err) == 0, "%s", err.message);
    ck_assert_msg(ssdsim_model_scaled_copy(&cmem, mem, 0, &err) == 0, "%s", err.message);
    ck_assert_int_eq(ssdsim_model_get_kind(ca), SSDSIM_MODEL_SYSTEM);
    ck_assert_uint_eq(ssdsim_model_n_devices(ca), 4);
    const uint64_t strip = 262144; /* the volume holds each member's whole strips */
    ck_assert_uint_eq(ssdsim_model_logical_bytes(ca),
                      3 * (ssdsim_model_logical_bytes(cmem) / strip * strip));
    ck_assert_uint_eq(ssdsim_model_logical_bytes(arr),
                      3 * (ssdsim_model_logical_bytes(mem) / strip * strip));
    ck_assert_int_eq(ssdsim_model_scaled_copy(&cm, arr, 4096, &err), SSDSIM_ECONFIG);
    ssdsim_model_free(ca);
    ssdsim_model_free(cmem);
    ssdsim_model_free(mem);
    ssdsim_model_free(arr);
}
END_TEST

/* Reaching steady state: the page FTL installs it (fast preconditioning); a hard disk has no
 * state that writes change, and has no curve. */
START_TEST(test_measure_reach_steady)
{
    ssdsim_model *m = small_model();
    ssdsim *sim = small_sim(m);
    ssdsim_workload *wl = wl_new("randwrite", 4096, 32);
    ssdsim_steady_method how = SSDSIM_STEADY_BY_RUN;
    ck_assert_msg(ssdsim_reach_steady(sim, wl, NULL, &how) == 0, "%s", ssdsim_errmsg(sim));
    ck_assert_int_eq(how, SSDSIM_STEADY_BY_FAST);
    ssdsim_free(sim);
    ssdsim_model_free(m);

    char path[1024];
    ssdsim_model *hdd = NULL;
    ssdsim_error err;
    ck_assert_msg(ssdsim_model_load_file(&hdd, test_src_path(path, sizeof path,
                                                             "models/wd5002abys.json"),
                                         &err) == 0,
                  "%s", err.message);
    ck_assert_uint_eq(ssdsim_model_scaled_blocks_per_plane(hdd), 0);
    ssdsim_model *cm = NULL;
    ck_assert_int_eq(ssdsim_model_scaled_copy(&cm, hdd, 0, NULL), SSDSIM_EINVAL);
    sim = small_sim(hdd);
    ck_assert_int_eq(ssdsim_reach_steady(sim, wl, NULL, &how), 0);
    ck_assert_int_eq(how, SSDSIM_STEADY_BY_NOTHING);
    ssdsim_curve *c = NULL;
    ck_assert_int_eq(ssdsim_curve_run(&c, sim, NULL, wl, NULL), SSDSIM_ENOTFOUND);
    ck_assert_ptr_nonnull(strstr(ssdsim_errmsg(sim), "hard disk"));
    ssdsim_free(sim);
    ck_assert_int_eq(ssdsim_model_get_device_kind(hdd), SSDSIM_MODEL_HDD);

    /* An array of hard disks behind a RAID card with a write-back cache: the same (before, its
     * curve wrote 4 drive writes of 1.7 TB at a few hundred IOPS: the review never ended). */
    ssdsim_model *arr = NULL;
    ck_assert_msg(ssdsim_model_load_file(&arr, test_src_path(path, sizeof path,
                                                             "models/wd5002abys-x4-raid5-3ware.json"),
                                         &err) == 0,
                  "%s", err.message);
    ck_assert_int_eq(ssdsim_model_get_kind(arr), SSDSIM_MODEL_SYSTEM);
    ck_assert_int_eq(ssdsim_model_get_device_kind(arr), SSDSIM_MODEL_HDD);
    ck_assert_int_eq(ssdsim_model_get_device_kind(m = small_model()), SSDSIM_MODEL_SSD);
    ck_assert_int_eq(ssdsim_model_get_device_kind(NULL), SSDSIM_MODEL_SSD);
    ssdsim_model_free(m);
    sim = small_sim(arr);
    how = SSDSIM_STEADY_BY_RUN;
    ck_assert_int_eq(ssdsim_reach_steady(sim, wl, NULL, &how), 0);
    ck_assert_int_eq(how, SSDSIM_STEADY_BY_NOTHING);
    ck_assert_int_eq(ssdsim_curve_run(&c, sim, NULL, wl, NULL), SSDSIM_ENOTFOUND);
    ck_assert_ptr_nonnull(strstr(ssdsim_errmsg(sim), "array of them"));
    ssdsim_free(sim);
    ssdsim_model_free(arr);
    ssdsim_model_free(hdd);
    ssdsim_workload_free(wl);
}
END_TEST

/* An FTL that cannot install a state (the direct FTL of a 3D XPoint drive) is brought to
 * steady state by running the workload, after a sequential fill of the whole drive: a read of
 * every unit then finds none unwritten. Without the fill, uniform random writes for at most 2
 * drive writes leave at least e^-2 = 13.5% of the units unwritten. */
START_TEST(test_measure_reach_steady_writes_every_unit)
{
    static const char xpoint[] = TEST_SMALL_XPOINT_JSON("measure-xpoint");
    ssdsim_model *m = NULL;
    ssdsim_error err;
    ck_assert_msg(ssdsim_model_load_string(&m, xpoint, "xpoint", &err) == 0, "%s", err.message);
    ssdsim *sim = small_sim(m);
    ssdsim_workload *ww = wl_new("randwrite", 4096, 8);
    ssdsim_curve_opts co = SSDSIM_CURVE_OPTS_INIT;
    co.max_drive_writes = 2;
    ssdsim_steady_method how = SSDSIM_STEADY_BY_NOTHING;
    ck_assert_msg(ssdsim_reach_steady(sim, ww, &co, &how) == 0, "%s", ssdsim_errmsg(sim));
    ck_assert_int_eq(how, SSDSIM_STEADY_BY_RUN);
    ssdsim_workload *wr = wl_new("read", 65536, 4);
    ck_assert_msg(ssdsim_run(sim, wr, NULL) == 0, "%s", ssdsim_errmsg(sim));
    ssdsim_device_stats d;
    ck_assert_int_eq(ssdsim_get_device_stats(sim, &d), 0);
    ssdsim_op_stats r;
    ck_assert_int_eq(ssdsim_get_op_stats(sim, SSDSIM_OP_READ, &r), 0);
    ck_assert_uint_eq(r.bytes, ssdsim_model_logical_bytes(m));
    ck_assert_msg(d.unmapped_reads == 0, "%llu units unwritten",
                  (unsigned long long)d.unmapped_reads);
    ssdsim_workload_free(wr);
    ssdsim_workload_free(ww);
    ssdsim_free(sim);
    ssdsim_model_free(m);
}
END_TEST

/* A steady write figure's first window holds, at the vendor's rate, the 20 blocks per plane of
 * host writes a window asks for (ssdsim_measure_opts.gc_cycles): on the small model with
 * 256-page blocks, 20 x 4 planes x 256 pages = 20,480 host pages, at 5,000 IOPS of 4 KiB
 * 4.096 s, longer than the 2 s its 10,000 requests would take. Sized without them, the window
 * of a large drive stopped at 64 times a first window, half the blocks short (the P320h). */
START_TEST(test_measure_calibrate_window_holds_gc_cycles)
{
    const char *key = "\"pages_per_block\": 64";
    const char *at = strstr(small_json, key);
    ck_assert_ptr_nonnull(at);
    char big[sizeof small_json + 8];
    snprintf(big, sizeof big, "%.*s\"pages_per_block\": 256%s", (int)(at - small_json),
             small_json, at + strlen(key));
    ssdsim_model *m = NULL;
    ssdsim_error err;
    ck_assert_msg(ssdsim_model_load_string(&m, big, "small-256", &err) == 0, "%s", err.message);
    ssdsim_calibration r;
    ck_assert_msg(ssdsim_calibrate_figure(m, 2, 1, NULL, &r, &err) == 0, "%s", err.message);
    ck_assert_uint_eq(r.gc_cycles, 20);
    ck_assert_uint_eq(r.first_window_ns, UINT64_C(4096000000));
    ck_assert_uint_ge(r.measurement.host_pages_written, 20 * 4 * 256);
    ck_assert(!r.measurement.short_of_gc);
    ck_assert_ptr_null(strstr(r.note, "Short of its GC periods"));
    ssdsim_model_free(m);

    /* A vendor's rate far above what the drive can do gives a first window of the 5 ms floor,
     * and 64 of them (320 ms) carry at most 320 ms x 10^8 B/s / 4096 B = 7,813 host units over
     * the link, short of the 20,480: the figure says so. */
    char fast[sizeof big];
    memcpy(fast, big, sizeof big);
    char *v = strstr(fast, "\"value\": 5000,");
    ck_assert_ptr_nonnull(v);
    memcpy(v + strlen("\"value\": "), "9e+9", 4);
    ck_assert_msg(ssdsim_model_load_string(&m, fast, "small-256-fast", &err) == 0, "%s",
                  err.message);
    ck_assert_msg(ssdsim_calibrate_figure(m, 2, 1, NULL, &r, &err) == 0, "%s", err.message);
    ck_assert_uint_eq(r.first_window_ns, 5000000);
    ck_assert_uint_le(r.measurement.host_pages_written, 7813);
    ck_assert(r.measurement.short_of_gc);
    ck_assert_ptr_nonnull(strstr(r.note, "Short of its GC periods"));
    ssdsim_model_free(m);
}
END_TEST

/* Calibration: the QD1 latency and the link-bound sequential read match their hand-derived
 * spec values (ratio 1 within 1%), on a drive written full; the random-write figure is measured
 * at steady state (fast preconditioning). The whole model gives the same rows, in order. */
START_TEST(test_measure_calibrate)
{
    ssdsim_model *m = small_model();
    ssdsim_calibration r[3];
    ssdsim_error err;
    ck_assert_msg(ssdsim_calibrate_model(m, 1, NULL, r, 3, &err) == 0, "%s", err.message);
    ck_assert_uint_eq(r[0].figure, 0);
    ck_assert_str_eq(r[0].spec.name, "QD1 read latency");
    ck_assert_int_eq(r[0].state, SSDSIM_DRIVE_FULL);
    ck_assert_msg(near(r[0].simulated, LAT_QD1_US, 0.01), "QD1 latency %g us", r[0].simulated);
    ck_assert(r[0].within_tolerance);
    ck_assert(r[0].ratio == r[0].simulated / r[0].spec.value);
    ck_assert_uint_eq(r[0].unmapped_reads, 0);
    ck_assert_int_eq(r[1].state, SSDSIM_DRIVE_FULL);
    ck_assert_msg(near(r[1].simulated, LINK_BYTES_S / 1e6, 0.02), "seq read %g MB/s",
                  r[1].simulated);
    ck_assert_int_eq(r[2].state, SSDSIM_DRIVE_STEADY);
    ck_assert(r[2].simulated > 0);
    /* only the write figure on a written drive spans periods of GC; it costs most */
    ck_assert_uint_eq(r[0].gc_cycles, 0);
    ck_assert_uint_eq(r[1].gc_cycles, 0);
    ck_assert_uint_eq(r[2].gc_cycles, 20);
    ck_assert(ssdsim_calibrate_figure_cost(&r[0].spec) == 1);
    ck_assert(ssdsim_calibrate_figure_cost(&r[1].spec) == 1);
    ck_assert(ssdsim_calibrate_figure_cost(&r[2].spec) == 3);
    ssdsim_spec_figure f = r[2].spec;
    f.state = "full";
    ck_assert(ssdsim_calibrate_figure_cost(&f) == 2);
    f.state = "fresh";
    ck_assert(ssdsim_calibrate_figure_cost(&f) == 0);
    f.metric = "read_iops";
    ck_assert(ssdsim_calibrate_figure_cost(&f) == 0);
    ck_assert(ssdsim_calibrate_figure_cost(NULL) == -1);
    ck_assert(r[2].within_tolerance == (fabs(r[2].ratio - 1) <= 0.10 + 1e-12));

    ssdsim_calibration one;
    ssdsim_calibrate_opts ko = SSDSIM_CALIBRATE_OPTS_INIT;
    ko.tolerance = 1e-9; /* nothing is that close */
    ck_assert_int_eq(ssdsim_calibrate_figure(m, 1, 1, &ko, &one, &err), 0);
    ck_assert(one.simulated == r[1].simulated); /* same seed, same figure */
    ck_assert(!one.within_tolerance || one.ratio == 1.0);

    /* A bound: the same latency against "< 150 us" is met though 30% below it (ratio 0.70),
     * against "> 150 us" missed; a typical figure says "typical". */
    ck_assert_str_eq(r[0].bound, "typical");
    ck_assert_str_eq(ssdsim_model_spec_bound(m, 0), "typical");
    ck_assert_ptr_null(ssdsim_model_spec_bound(m, 3));
    const char *bounds[2] = {"upper", "lower"};
    for (int b = 0; b < 2; b++) {
        /* small_json with the first figure's value replaced */
        const char *at = strstr(small_json, "\"value\": 104.92,");
        ck_assert_ptr_nonnull(at);
        char js[sizeof small_json + 64];
        snprintf(js, sizeof js, "%.*s\"value\": 150, \"bound\": \"%s\",%s",
                 (int)(at - small_json), small_json, bounds[b], at + strlen("\"value\": 104.92,"));
        ssdsim_model *bm = NULL;
        ck_assert_msg(ssdsim_model_load_string(&bm, js, "bound", &err) == 0, "%s", err.message);
        ck_assert_str_eq(ssdsim_model_spec_bound(bm, 0), bounds[b]);
        ssdsim_calibration bc;
        ck_assert_msg(ssdsim_calibrate_figure(bm, 0, 1, NULL, &bc, &err) == 0, "%s", err.message);
        ck_assert_msg(near(bc.simulated, LAT_QD1_US, 0.01), "%g us", bc.simulated);
        ck_assert_str_eq(bc.bound, bounds[b]);
        ck_assert(bc.within_tolerance == (b == 0));
        ssdsim_model_free(bm);
    }

    /* A figure a parameter was derived from says which (the result's `fitted`); the others say
     * NULL. Its verdict is computed as any other's: only the command sets it apart. */
    ck_assert_ptr_null(r[0].fitted);
    {
        const char *at = strstr(small_json, "\"value\": 104.92,");
        ck_assert_ptr_nonnull(at);
        char js[sizeof small_json + 64];
        snprintf(js, sizeof js, "%.*s\"value\": 104.92, \"fitted\": \"flash.read_us\",%s",
                 (int)(at - small_json), small_json, at + strlen("\"value\": 104.92,"));
        ssdsim_model *fm = NULL;
        ck_assert_msg(ssdsim_model_load_string(&fm, js, "fitted", &err) == 0, "%s", err.message);
        ssdsim_calibration fc;
        ck_assert_msg(ssdsim_calibrate_figure(fm, 0, 1, NULL, &fc, &err) == 0, "%s", err.message);
        ck_assert_str_eq(fc.fitted, "flash.read_us");
        ck_assert(fc.within_tolerance);
        ssdsim_model_free(fm);
    }

    ssdsim_workload *fw = NULL;
    ck_assert_int_eq(ssdsim_spec_figure_workload(&fw, &r[1].spec, &err), 0);
    ck_assert_uint_eq(ssdsim_workload_n_jobs(fw), 1);
    ssdsim_workload_free(fw);

    /* units of the metrics, and figures found by name or number from 1 */
    ck_assert_str_eq(ssdsim_spec_figure_unit(&r[0].spec), "us");
    ck_assert_str_eq(ssdsim_spec_figure_unit(&r[1].spec), "MB/s");
    ck_assert_str_eq(ssdsim_spec_figure_unit(&r[2].spec), "IOPS");
    ck_assert_ptr_null(ssdsim_spec_figure_unit(NULL));
    size_t k = 99;
    ck_assert_int_eq(ssdsim_model_spec_find(m, "random write", &k), 0);
    ck_assert_uint_eq(k, 2);
    ck_assert_int_eq(ssdsim_model_spec_find(m, "2", &k), 0);
    ck_assert_uint_eq(k, 1);
    static const char *const none[] = {"0", "4", "-1", "2x", "", "Random write"};
    for (size_t i = 0; i < sizeof none / sizeof none[0]; i++)
        ck_assert_int_eq(ssdsim_model_spec_find(m, none[i], &k), SSDSIM_ENOTFOUND);
    ck_assert_int_eq(ssdsim_model_spec_find(m, NULL, &k), SSDSIM_EINVAL);
    ssdsim_model_free(m);
}
END_TEST

/* Rounds until steady: QD1 4 KiB reads on a full drive take 104.92 us whatever the round, so
 * the tracked mean latency is the same every round and the first judged window of 5 rounds is
 * steady: with one round left out of the judgement, 6 rounds run and the verdict's round is the
 * 6th (index 5), its average 104.92 us. The callbacks see every cell and round; a callback's
 * non-zero return stops the rounds and comes back. */
struct rounds_seen {
    size_t cells, rounds;
    int stop_at; /* stop with 7 at this round (-1: never) */
};

static int seen_cell(size_t round, size_t cell, const ssdsim_measurement *m, void *ud)
{
    struct rounds_seen *x = ud;
    (void)round;
    (void)cell;
    ck_assert(m->n_ios > 0);
    x->cells++;
    return 0;
}

static int seen_round(size_t round, const double *track, void *ud)
{
    struct rounds_seen *x = ud;
    ck_assert(near(track[round], LAT_QD1_US, 0.001));
    x->rounds++;
    return (int)round == x->stop_at ? 7 : 0;
}

START_TEST(test_measure_rounds_until_steady)
{
    ssdsim_model *m = small_model();
    ssdsim *sim = small_sim(m);
    ck_assert_int_eq(ssdsim_precondition_seq(sim), 0);
    ssdsim_workload *cells[2] = {wl_new("read", 131072, 4), wl_new("randread", 4096, 1)};
    struct rounds_seen seen = {0, 0, -1};
    ssdsim_rounds_opts ro = SSDSIM_ROUNDS_OPTS_INIT;
    ro.cell_ns = 100000000;
    ro.unjudged_rounds = 1;
    ro.track_cell = 1;
    ro.track_var = SSDSIM_ROUNDS_LAT_MEAN_US;
    ro.on_cell = seen_cell;
    ro.on_round = seen_round;
    ro.userdata = &seen;
    ssdsim_steady_result st;
    size_t n = 0;
    ck_assert_msg(ssdsim_rounds_run(sim, cells, 2, &ro, &st, &n) == 0, "%s", ssdsim_errmsg(sim));
    ck_assert(st.steady);
    ck_assert_uint_eq(n, 6);
    ck_assert_uint_eq(st.round, 5);
    ck_assert_uint_eq(st.window, 5);
    ck_assert(near(st.average, LAT_QD1_US, 0.001));
    ck_assert_uint_eq(seen.rounds, 6);
    ck_assert_uint_eq(seen.cells, 12);

    seen = (struct rounds_seen){0, 0, 2};
    ck_assert_int_eq(ssdsim_rounds_run(sim, cells, 2, &ro, &st, &n), 7);
    ck_assert_uint_eq(n, 3);

    ck_assert_int_eq(ssdsim_rounds_run(sim, cells, 0, &ro, &st, &n), SSDSIM_EINVAL);
    ck_assert_int_eq(ssdsim_rounds_run(NULL, cells, 2, &ro, &st, &n), SSDSIM_EINVAL);
    ck_assert_int_eq(ssdsim_rounds_run(sim, cells, 2, &ro, NULL, &n), SSDSIM_EINVAL);
    ro.track_cell = 2;
    ck_assert_int_eq(ssdsim_rounds_run(sim, cells, 2, &ro, &st, &n), SSDSIM_EINVAL);
    /* an impossible rule is refused before any round runs (it ran every round, with the
     * refusal only in why_not) */
    ro.track_cell = 1;
    ro.max_rounds = 8;
    ro.steady.window = 1;
    uint64_t t0 = ssdsim_now(sim);
    ck_assert_int_eq(ssdsim_rounds_run(sim, cells, 2, &ro, &st, &n), SSDSIM_EINVAL);
    ck_assert_ptr_nonnull(strstr(ssdsim_errmsg(sim), "window 1"));
    ck_assert_uint_eq(n, 0);
    ck_assert_uint_eq(ssdsim_now(sim), t0);
    ro.steady.window = 0;
    ro.steady.max_excursion = -1;
    ck_assert_int_eq(ssdsim_rounds_run(sim, cells, 2, &ro, &st, &n), SSDSIM_EINVAL);
    ro.version = 99;
    ck_assert_int_eq(ssdsim_rounds_run(sim, cells, 2, &ro, &st, &n), SSDSIM_EINVAL);
    ck_assert_int_eq(ssdsim_rounds_opts_init(&ro, 99), SSDSIM_EINVAL);
    ck_assert_int_eq(ssdsim_rounds_opts_init(&ro, 0), 0);
    ck_assert_uint_eq(ro.version, SSDSIM_ROUNDS_OPTS_VERSION);
    ssdsim_workload_free(cells[0]);
    ssdsim_workload_free(cells[1]);
    ssdsim_free(sim);
    ssdsim_model_free(m);
}
END_TEST

static Suite *measure_suite(void)
{
    Suite *s = suite_create("measure");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 600);
    tcase_add_test(tc, test_measure_opts_init_and_versions);
    tcase_add_test(tc, test_measure_bogus_arguments);
    tcase_add_test(tc, test_measure_window_qd1_latency);
    tcase_add_test(tc, test_measure_window_short_of_gc);
    tcase_add_test(tc, test_measure_window_link_bound_and_deterministic);
    tcase_add_test(tc, test_measure_reads_after_gc);
    tcase_add_test(tc, test_measure_settle);
    tcase_add_test(tc, test_measure_settle_adaptive);
    tcase_add_test(tc, test_measure_curve_on_the_drive);
    tcase_add_test(tc, test_measure_scaled_copy_and_curve_on_it);
    tcase_add_test(tc, test_measure_reach_steady);
    tcase_add_test(tc, test_measure_reach_steady_writes_every_unit);
    tcase_add_test(tc, test_measure_calibrate);
    tcase_add_test(tc, test_measure_calibrate_window_holds_gc_cycles);
    tcase_add_test(tc, test_measure_rounds_until_steady);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return test_run_suite(measure_suite());
}
