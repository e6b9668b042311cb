/* test_suite_lib.c: the suites' procedures of ssdsim/suite.h, called from C through the public
 * headers: workload descriptions and their fio options, latency sums and their CDF points, the
 * scaled-copy rule of the suites' curves, the SNIA PTS-E tests (cells, rounds until steady,
 * window averages, the preconditioning mix after round 1), the quick matrix (tests, regions,
 * drive states, the write-cache comparison), the review (profiles, matrix, formatting-mode
 * drives), the end-of-life projection and the endurance points, with bogus arguments and option
 * structs of an unknown version for each.
 *
 * Figures are checked against values derived by hand on the small SLC model of test_measure.c
 * (and tests/test_golden.sh): a QD1 4 KiB random read takes 1 (link) + 2 (firmware) + 20 (tR)
 * + 40.96 (4 KiB on the flash bus) + 40.96 (4 KiB on the link) = 104.92 us, and sequential
 * reads are bound by the 100 MB/s link. The SNIA test sequence is then run as `ssdsim suite
 * snia --quick` runs it (one simulation, the same seed and options) and its figures compared
 * with the command's suite.json: the command reports what the library computes.
 */
#include <cJSON.h>
#include <check.h>
#include <glib.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cmdtest.h"
#include "ssdsim/point.h"
#include "ssdsim/ssdsim.h"
#include "ssdsim/suite.h"
#include "ssdsim/trace.h"
#include "testutil.h"

static const char small_json[] =
    "{\"name\": \"suite-lib-small\","
    " \"geometry\": {\"channels\": 2, \"chips_per_channel\": 1, \"dies_per_chip\": 2,"
    "  \"planes_per_die\": 1, \"blocks_per_plane\": 64, \"pages_per_block\": 64,"
    "  \"page_size\": \"4KiB\"},"
    " \"flash\": {\"cell\": \"slc\", \"read_us\": 20, \"program_us\": 200, \"erase_us\": 1000,"
    "  \"bus_mts\": 100, \"bus_width\": 8},"
    " \"controller\": {\"cmd_overhead_us\": 2, \"cores\": 1, \"queue_depth\": 32},"
    " \"host\": {\"interface\": \"custom\", \"link_bw\": \"100MB/s\", \"cmd_overhead_us\": 1},"
    " \"ftl\": {\"type\": \"page\", \"op\": 0.28}}";

#define LAT_QD1_US 104.92

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

static bool near(double v, double want, double rel)
{
    return fabs(v - want) <= rel * fabs(want);
}

/* The options of `w` as "key=value ..." (strings in quotes). */
static void options_text(const ssdsim_suite_wl *w, char *buf, size_t len)
{
    buf[0] = 0;
    const char *key;
    char val[128];
    bool str;
    for (size_t i = 0; ssdsim_suite_wl_option(w, i, &key, val, sizeof val, &str) == 0; i++) {
        size_t n = strlen(buf);
        snprintf(buf + n, len - n, str ? "%s%s='%s'" : "%s%s=%s", i ? " " : "", key, val);
    }
}

START_TEST(test_suite_lib_wl_options)
{
    char text[512];
    ssdsim_suite_wl w = SSDSIM_SUITE_WL_INIT;
    w.rw = "randrw";
    w.bssplit = "4k/50:8k/50";
    w.rwmixread = 70;
    w.threads = 16;
    w.qd = 16;
    options_text(&w, text, sizeof text);
    ck_assert_str_eq(text, "rw='randrw' bssplit='4k/50:8k/50' rwmixread=70 numjobs=16 "
                           "iodepth=16 norandommap=true");
    /* Each of 4 jobs streams through its own part: 10^7 / 4 = 2,500,000 bytes, rounded down to
     * 4 KiB: 610 x 4096 = 2,498,560. */
    ssdsim_suite_wl s = SSDSIM_SUITE_WL_INIT;
    s.rw = "write";
    s.bs = "128k";
    s.rwmixread = -1;
    s.threads = 4;
    s.qd = 1;
    s.region_offset = 8192;
    s.region_size = 10000000;
    s.split_region = true;
    options_text(&s, text, sizeof text);
    ck_assert_str_eq(text, "rw='write' bs='128k' numjobs=4 iodepth=1 offset=8192 size=2498560 "
                           "offset_increment=2498560");
    s.split_region = false;
    s.bs = NULL;
    options_text(&s, text, sizeof text);
    ck_assert_str_eq(text, "rw='write' bs='4k' numjobs=4 iodepth=1 offset=8192 size=10000000");

    const char *key;
    char small[4];
    ck_assert_int_eq(ssdsim_suite_wl_option(&w, 1, &key, small, sizeof small, NULL), SSDSIM_ERANGE);
    ck_assert_int_eq(ssdsim_suite_wl_option(&w, 6, &key, text, sizeof text, NULL),
                     SSDSIM_ENOTFOUND);
    ck_assert_int_eq(ssdsim_suite_wl_option(NULL, 0, &key, text, sizeof text, NULL), SSDSIM_EINVAL);
    ssdsim_suite_wl none = SSDSIM_SUITE_WL_INIT; /* no rw */
    ck_assert_int_eq(ssdsim_suite_wl_option(&none, 0, &key, text, sizeof text, NULL),
                     SSDSIM_EINVAL);
    w.version = 99;
    ck_assert_int_eq(ssdsim_suite_wl_option(&w, 0, &key, text, sizeof text, NULL), SSDSIM_EINVAL);
    ck_assert_int_eq(ssdsim_suite_wl_init(&w, 99), SSDSIM_EINVAL);
    ck_assert_int_eq(ssdsim_suite_wl_init(NULL, 0), SSDSIM_EINVAL);
    ck_assert_int_eq(ssdsim_suite_wl_init(&w, 0), 0);
    ck_assert_uint_eq(w.version, SSDSIM_SUITE_WL_VERSION);
    ck_assert_ptr_null(w.rw);

    /* Write shares: 1 for writes, 1 - 70% for a 70/30 mix, 0 for reads and NULL. */
    w.rw = "randrw";
    w.rwmixread = 70;
    ck_assert(near(ssdsim_suite_wl_write_share(&w), 0.3, 1e-12));
    w.rw = "randwrite";
    w.rwmixread = -1;
    ck_assert(ssdsim_suite_wl_write_share(&w) == 1.0);
    w.rw = "read";
    ck_assert(ssdsim_suite_wl_write_share(&w) == 0.0);
    ck_assert(ssdsim_suite_wl_write_share(NULL) == 0.0);
}
END_TEST

START_TEST(test_suite_lib_wl_workload)
{
    ssdsim_suite_wl w = SSDSIM_SUITE_WL_INIT;
    w.rw = "randread";
    w.bs = "4k";
    w.rwmixread = -1;
    w.threads = 1;
    w.qd = 1;
    ssdsim_workload *wl = NULL;
    ssdsim_error err;
    ck_assert_msg(ssdsim_suite_wl_workload(&wl, &w, &err) == 0, "%s", err.message);
    /* Measured on a sequentially filled drive: the hand-derived QD1 latency. */
    ssdsim_model *m = small_model();
    ssdsim *sim = small_sim(m);
    ck_assert_int_eq(ssdsim_precondition_seq(sim), 0);
    ssdsim_measure_opts mo = SSDSIM_MEASURE_OPTS_INIT;
    mo.window_ns = 100000000;
    ssdsim_measurement f;
    ck_assert_msg(ssdsim_measure(sim, wl, &mo, &f) == 0, "%s", ssdsim_errmsg(sim));
    ck_assert(near(f.lat_mean_ns / 1e3, LAT_QD1_US, 0.001));
    ck_assert_uint_eq(f.n_writes, 0);

    /* Latency sums: the run's histogram, once and twice. */
    ssdsim_latency_sum *one = NULL, *two = NULL;
    ck_assert_int_eq(ssdsim_latency_sum_new(&one), 0);
    ck_assert_int_eq(ssdsim_latency_sum_new(&two), 0);
    ck_assert_uint_eq(ssdsim_latency_sum_cdf(one, NULL, NULL, 0), 0); /* empty */
    ck_assert_int_eq(ssdsim_latency_sum_add_run(one, sim, SSDSIM_OP_READ), 0);
    ck_assert_int_eq(ssdsim_latency_sum_merge(two, one), 0);
    ck_assert_int_eq(ssdsim_latency_sum_merge(two, one), 0);
    size_t nb = ssdsim_latency_sum_buckets(one, NULL, NULL, 0);
    ck_assert_uint_gt(nb, 0);
    ck_assert_uint_eq(ssdsim_latency_sum_buckets(two, NULL, NULL, 0), nb);
    uint64_t *up = calloc(nb, 8), *cnt = calloc(nb, 8), *up2 = calloc(nb, 8), *cnt2 = calloc(nb, 8);
    ssdsim_latency_sum_buckets(one, up, cnt, nb);
    ssdsim_latency_sum_buckets(two, up2, cnt2, nb);
    uint64_t total = 0;
    for (size_t i = 0; i < nb; i++) {
        ck_assert_uint_eq(up2[i], up[i]);
        ck_assert_uint_eq(cnt2[i], 2 * cnt[i]);
        ck_assert(i == 0 || up[i] > up[i - 1]);
        total += cnt[i];
    }
    /* Every request of the run (the ramp's too) took 104.92 us: the buckets that hold any
     * have that latency within their bounds. */
    ck_assert_uint_ge(total, f.n_ios);
    for (size_t i = 0; i < nb; i++)
        if (cnt[i])
            ck_assert(up[i] >= 104920 && (i == 0 || up[i - 1] < 104920));
    /* The CDF points: the first and last buckets kept, each share the running count over the
     * total, ending at 1. */
    size_t np = ssdsim_latency_sum_cdf(one, NULL, NULL, 0);
    ck_assert(np >= 1 && np <= nb);
    uint64_t *lat = calloc(np, 8);
    double *cdf = calloc(np, sizeof *cdf);
    ck_assert_uint_eq(ssdsim_latency_sum_cdf(one, lat, cdf, np), np);
    /* a point's latency is its bucket's upper edge, but never past the largest latency (the
     * last bucket's edge may be) */
    ssdsim_op_stats rs;
    ck_assert_int_eq(ssdsim_get_op_stats(sim, SSDSIM_OP_READ, &rs), 0);
    uint64_t mx = rs.lat_max_ns;
    ck_assert_uint_eq(mx, 104920);
#define CLAMPED(u) ((u) > mx ? mx : (u))
    ck_assert_uint_eq(lat[0], CLAMPED(up[0]));
    ck_assert_uint_eq(lat[np - 1], CLAMPED(up[nb - 1]));
    ck_assert_uint_eq(lat[np - 1], mx);
    ck_assert(cdf[np - 1] == 1.0);
    size_t j = 0;
    uint64_t acc = 0;
    for (size_t i = 0; i < nb && j < np; i++) {
        acc += cnt[i];
        if (CLAMPED(up[i]) == lat[j]) {
            ck_assert(cdf[j] == (double)acc / (double)total);
            j++;
        }
    }
    ck_assert_uint_eq(j, np);
#undef CLAMPED
    ck_assert_int_eq(ssdsim_latency_sum_add_run(NULL, sim, SSDSIM_OP_READ), SSDSIM_EINVAL);
    ck_assert_int_eq(ssdsim_latency_sum_merge(one, NULL), SSDSIM_EINVAL);
    ck_assert_int_eq(ssdsim_latency_sum_new(NULL), SSDSIM_EINVAL);
    ck_assert_uint_eq(ssdsim_latency_sum_cdf(NULL, NULL, NULL, 0), 0);
    ssdsim_latency_sum_free(NULL);
    free(up), free(cnt), free(up2), free(cnt2), free(lat), free(cdf);
    ssdsim_latency_sum_free(one);
    ssdsim_latency_sum_free(two);
    ssdsim_workload_free(wl);

    /* A bad value is refused by the builder, with its message. */
    w.bs = "4q";
    ck_assert_int_ne(ssdsim_suite_wl_workload(&wl, &w, &err), 0);
    ck_assert_ptr_null(wl);
    ck_assert(strstr(err.message, "4q") != NULL);
    w.rw = NULL;
    ck_assert_int_eq(ssdsim_suite_wl_workload(&wl, &w, &err), SSDSIM_EINVAL);
    ck_assert_int_eq(ssdsim_suite_wl_workload(NULL, &w, NULL), SSDSIM_EINVAL);
    ssdsim_free(sim);
    ssdsim_model_free(m);
}
END_TEST

START_TEST(test_suite_lib_curve_blocks_per_plane)
{
    /* 64 blocks per plane: the library's copy (at least 256 blocks, at most the model's) is not
     * 4 times smaller, so the curves run on the model; a given size is taken when smaller. */
    ssdsim_model *m = small_model();
    ck_assert_uint_eq(ssdsim_suite_curve_blocks_per_plane(m, 0), 0);
    ck_assert_uint_eq(ssdsim_suite_curve_blocks_per_plane(m, 16), 16);
    ck_assert_uint_eq(ssdsim_suite_curve_blocks_per_plane(m, 64), 0);
    ck_assert_uint_eq(ssdsim_suite_curve_blocks_per_plane(m, 128), 0);
    ssdsim_model_free(m);
    /* The built-in generic MLC model grown to 8192 blocks per plane: the library's copy, at most a
     * quarter of that. */
    ssdsim_error err;
    ck_assert_msg(ssdsim_model_default(&m, &err) == 0, "%s", err.message);
    ck_assert_int_eq(ssdsim_model_set_int(m, "geometry.blocks_per_plane", 8192, &err), 0);
    uint32_t lib = ssdsim_model_scaled_blocks_per_plane(m);
    ck_assert(lib >= 256 && lib * 4 <= 8192);
    ck_assert_uint_eq(ssdsim_suite_curve_blocks_per_plane(m, 0), lib);
    ssdsim_model_free(m);
    /* A hard disk has no flash to copy. */
    char path[1024];
    ck_assert_msg(ssdsim_model_load_file(
                      &m, test_src_path(path, sizeof path, "models/wd5002abys.json"), &err) == 0,
                  "%s", err.message);
    ck_assert_uint_eq(ssdsim_suite_curve_blocks_per_plane(m, 0), 0);
    ck_assert_uint_eq(ssdsim_suite_curve_blocks_per_plane(m, 16), 0);
    ssdsim_model_free(m);
    ck_assert_uint_eq(ssdsim_suite_curve_blocks_per_plane(NULL, 0), 0);
}
END_TEST

START_TEST(test_suite_lib_snia_cells)
{
    size_t nm, nb;
    ssdsim_suite_wl w;
    int rp;
    uint32_t bytes;
    ck_assert_int_eq(ssdsim_snia_shape(SSDSIM_SNIA_IOPS, &nm, &nb), 0);
    ck_assert_uint_eq(nm * nb, 56);
    /* The tracked cell of the IOPS test, 4K 0/100: mix 6 (the last), block size 6. */
    ck_assert_int_eq(ssdsim_snia_cell(SSDSIM_SNIA_IOPS, 6 * 8 + 6, &w, &rp, &bytes), 0);
    ck_assert_str_eq(w.rw, "randwrite");
    ck_assert_int_eq(rp, 0);
    ck_assert_uint_eq(bytes, 4096);
    ck_assert(w.threads == 4 && w.qd == 32 && w.rwmixread == -1);
    ck_assert_int_eq(ssdsim_snia_cell(SSDSIM_SNIA_IOPS, 2 * 8 + 7, &w, &rp, &bytes), 0);
    ck_assert(!strcmp(w.rw, "randrw") && w.rwmixread == 65 && rp == 65 && bytes == 512);
    ck_assert_int_eq(ssdsim_snia_cell(SSDSIM_SNIA_IOPS, 56, &w, &rp, &bytes), SSDSIM_EINVAL);
    ck_assert_int_eq(ssdsim_snia_shape(SSDSIM_SNIA_THROUGHPUT_128K, &nm, &nb), 0);
    ck_assert(nm == 2 && nb == 1);
    ck_assert_int_eq(ssdsim_snia_cell(SSDSIM_SNIA_THROUGHPUT_128K, 1, &w, &rp, &bytes), 0);
    ck_assert(!strcmp(w.rw, "read") && rp == 100 && bytes == 131072 && w.threads == 1 &&
              w.qd == 32);
    ck_assert_int_eq(ssdsim_snia_cell(SSDSIM_SNIA_THROUGHPUT_1024K, 0, &w, &rp, &bytes), 0);
    ck_assert(!strcmp(w.rw, "write") && rp == 0 && bytes == 1048576);
    ck_assert_int_eq(ssdsim_snia_shape(SSDSIM_SNIA_LATENCY, &nm, &nb), 0);
    ck_assert(nm == 3 && nb == 3);
    ck_assert_int_eq(ssdsim_snia_cell(SSDSIM_SNIA_LATENCY, 7, &w, &rp, &bytes), 0);
    ck_assert(!strcmp(w.rw, "randwrite") && rp == 0 && bytes == 4096 && w.threads == 1 &&
              w.qd == 1);
    ck_assert_int_eq(ssdsim_snia_shape((ssdsim_snia_test)9, &nm, &nb), SSDSIM_EINVAL);
    ck_assert_int_eq(ssdsim_snia_cell(SSDSIM_SNIA_LATENCY, 0, NULL, &rp, &bytes), SSDSIM_EINVAL);
}
END_TEST

/* What the callbacks saw. */
struct seen {
    size_t cells, rounds, steadies;
    char bssplit[128];
};

static int seen_cell(size_t round, size_t cell, const ssdsim_measurement *m, void *ud)
{
    struct seen *x = ud;
    (void)round, (void)cell;
    ck_assert(m->n_ios > 0);
    x->cells++;
    return 0;
}

static int seen_round(size_t round, const double *track, void *ud)
{
    struct seen *x = ud;
    ck_assert(track[round] > 0);
    x->rounds++;
    return 0;
}

static void seen_steady(ssdsim_steady_method how, const char *bssplit, void *ud)
{
    struct seen *x = ud;
    ck_assert_int_eq(how, SSDSIM_STEADY_BY_FAST);
    snprintf(x->bssplit, sizeof x->bssplit, "%s", bssplit);
    x->steadies++;
}

/* The random-write mix of round 1 derived from its cells' write counts: each block size's share
 * of the requests, rounded down (at least 1% when it wrote), the rest to the most frequent. */
static void expected_mix(const ssdsim_snia_result *r, ssdsim_snia_test test, char *buf, size_t len)
{
    size_t nm, nb;
    ssdsim_snia_shape(test, &nm, &nb);
    uint64_t writes[8] = {0}, total = 0;
    for (size_t c = 0; c < nm * nb; c++) {
        ssdsim_measurement f;
        ck_assert_int_eq(ssdsim_snia_get_cell(r, 0, c, &f), 0);
        writes[c % nb] += f.n_writes;
        total += f.n_writes;
    }
    ck_assert_uint_gt(total, 0);
    int pct[8], left = 100;
    size_t big = 0;
    for (size_t b = 0; b < nb; b++) {
        pct[b] = (int)(100 * writes[b] / total);
        if (pct[b] == 0 && writes[b])
            pct[b] = 1;
        left -= pct[b];
        if (writes[b] > writes[big])
            big = b;
    }
    pct[big] += left;
    buf[0] = 0;
    for (size_t b = 0; b < nb; b++) {
        if (!pct[b])
            continue;
        ssdsim_suite_wl w;
        ssdsim_snia_cell(test, b, &w, NULL, NULL);
        size_t n = strlen(buf);
        snprintf(buf + n, len - n, "%s%s/%d", n ? ":" : "", w.bs, pct[b]);
    }
}

/* The window's figures of `r` against its cells and rounds: averages over rounds first .. last
 * (a mean latency weighted by requests), the verdict of the SNIA rule on the judged rounds'
 * tracked values, the rounds' write totals. */
static void check_window(const ssdsim_snia_result *r, size_t unjudged)
{
    ssdsim_snia_summary sum;
    ck_assert_int_eq(ssdsim_snia_get_summary(r, &sum), 0);
    size_t nm, nb, nw = sum.last - sum.first + 1;
    ssdsim_snia_shape(sum.test, &nm, &nb);
    ck_assert_uint_eq(nw, 5);
    ck_assert_uint_ge(sum.n_rounds, 5 + unjudged);
    ck_assert_uint_eq(sum.last, sum.n_rounds - 1);
    double track[64];
    ck_assert_uint_le(sum.n_rounds, 64);
    for (size_t k = 0; k < sum.n_rounds; k++) {
        ssdsim_snia_round rd;
        ck_assert_int_eq(ssdsim_snia_get_round(r, k, &rd), 0);
        track[k] = rd.track;
        uint64_t host = 0, pages = 0, flash = 0;
        for (size_t c = 0; c < nm * nb; c++) {
            ssdsim_measurement f;
            ssdsim_snia_get_cell(r, k, c, &f);
            host += f.host_bytes_written;
            pages += f.host_pages_written;
            flash += f.flash_pages_programmed;
        }
        ck_assert_uint_eq(rd.host_bytes_written, host);
        ck_assert(pages ? near(rd.waf, (double)flash / (double)pages, 1e-12) : isnan(rd.waf));
    }
    /* The verdict: SNIA's rule on the judged rounds, steady at the last round run. */
    ssdsim_steady_result v;
    ck_assert_int_eq(ssdsim_steady_check(track + unjudged, sum.n_rounds - unjudged, NULL, &v), 0);
    ck_assert_int_eq(v.steady, sum.steady.steady);
    if (v.steady) {
        ck_assert_uint_eq(v.round + unjudged, sum.last);
        ck_assert(near(sum.steady.average, v.average, 1e-12));
        double avg = 0;
        for (size_t k = sum.first; k <= sum.last; k++)
            avg += track[k] / 5;
        ck_assert(near(sum.steady.average, avg, 1e-9));
    }
    for (size_t c = 0; c < nm * nb; c++) {
        double iops = 0, bw = 0, sum_lat = 0, n = 0;
        uint64_t mx = 0;
        for (size_t k = sum.first; k <= sum.last; k++) {
            ssdsim_measurement f;
            ssdsim_snia_get_cell(r, k, c, &f);
            iops += f.iops, bw += f.bw_bytes / 1e6;
            sum_lat += f.lat_mean_ns * (double)f.n_ios, n += (double)f.n_ios;
            mx = f.lat_max_ns > mx ? f.lat_max_ns : mx;
        }
        ssdsim_snia_average a;
        ck_assert_int_eq(ssdsim_snia_get_average(r, c, &a), 0);
        ck_assert(near(a.iops, iops / (double)nw, 1e-9));
        ck_assert(near(a.bw_mb_s, bw / (double)nw, 1e-9));
        ck_assert(near(a.lat_mean_ns, sum_lat / n, 1e-9));
        ck_assert_uint_eq(a.lat_max_ns, mx);
    }
}

/* The figure at `key` of the JSON object `o`. */
static double jnum(const cJSON *o, const char *key)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
    ck_assert_msg(cJSON_IsNumber(v), "%s is not a number", key);
    return v->valuedouble;
}

START_TEST(test_suite_lib_snia_sequence_and_the_command)
{
    /* The four tests on one drive, as `ssdsim suite snia --quick` runs them: cells of 100 ms,
     * at most 6 judged rounds, preconditioning curves of 10 rounds per drive write, 4 drive
     * writes at most. */
    ssdsim_model *m = small_model();
    ssdsim *sim = small_sim(m);
    struct seen seen = {0};
    ssdsim_snia_opts o = SSDSIM_SNIA_OPTS_INIT;
    o.cell_ns = 100000000;
    o.max_rounds = 6;
    o.rounds_per_drive_write = 10;
    o.max_drive_writes = 4;
    o.on_cell = seen_cell;
    o.on_round = seen_round;
    o.on_steady = seen_steady;
    o.userdata = &seen;
    static const ssdsim_snia_test tests[4] = {SSDSIM_SNIA_IOPS, SSDSIM_SNIA_THROUGHPUT_1024K,
                                              SSDSIM_SNIA_THROUGHPUT_128K, SSDSIM_SNIA_LATENCY};
    ssdsim_snia_result *r[4] = {NULL};
    for (int t = 0; t < 4; t++) {
        seen = (struct seen){0};
        ck_assert_msg(ssdsim_snia_run(&r[t], sim, tests[t], &o) == 0, "%s", ssdsim_errmsg(sim));
        ssdsim_snia_summary sum;
        ssdsim_snia_get_summary(r[t], &sum);
        size_t nm, nb;
        ssdsim_snia_shape(tests[t], &nm, &nb);
        ck_assert_uint_eq(seen.rounds, sum.n_rounds);
        ck_assert_uint_eq(seen.cells, sum.n_rounds * nm * nb);
        bool wdpc = tests[t] == SSDSIM_SNIA_IOPS || tests[t] == SSDSIM_SNIA_LATENCY;
        ck_assert_uint_eq(seen.steadies, wdpc ? 1 : 0);
        check_window(r[t], wdpc ? 1 : 0);
        if (wdpc) {
            char mix[128];
            expected_mix(r[t], tests[t], mix, sizeof mix);
            ck_assert_str_eq(sum.bssplit, mix);
            ck_assert_str_eq(seen.bssplit, mix);
        } else {
            ck_assert_str_eq(sum.bssplit, "");
            /* Sequential reads, bound by the 100 MB/s link. */
            ssdsim_snia_average rd;
            ssdsim_snia_get_average(r[t], 1, &rd);
            ck_assert_msg(rd.bw_mb_s > 90 && rd.bw_mb_s <= 100.5, "%g MB/s", rd.bw_mb_s);
        }
        /* Latency sums over the window: the latency test's cells only. */
        if (tests[t] == SSDSIM_SNIA_LATENCY)
            ck_assert_ptr_nonnull(ssdsim_snia_window_latency(r[t], 8));
        else
            ck_assert_ptr_null(ssdsim_snia_window_latency(r[t], 0));
    }
    /* The latency test's 4K random reads at QD1 (cell 1: 100/0, 4K): 104.92 us each. */
    ssdsim_snia_average a;
    ssdsim_snia_get_average(r[3], 1, &a);
    ck_assert(near(a.lat_mean_ns / 1e3, LAT_QD1_US, 0.001));
    ck_assert(near((double)a.lat_max_ns / 1e3, LAT_QD1_US, 0.001));

    /* The command, on the same model with the same seed and options, reports these figures. */
    char model[1024], dir[1024];
    write_file(out_path(model, sizeof model, "suite-lib-small.json"), small_json);
    out_path(dir, sizeof dir, "suite-lib-snia");
    struct cmd c;
    RUN(&c, "suite", "snia", "--model", model, "--quick", "--out", dir, "--no-plot", "--quiet");
    ck_assert_msg(c.status == 0, "%s", c.err);
    cmd_free(&c);
    char path[1100];
    char *text = read_file(dir_file(path, sizeof path, dir, "suite.json"), NULL);
    ck_assert_ptr_nonnull(text);
    cJSON *root = cJSON_Parse(text);
    free(text);
    ck_assert_ptr_nonnull(root);
    ssdsim_snia_summary sum;
    ssdsim_snia_get_summary(r[0], &sum);
    const cJSON *iops = cJSON_GetObjectItemCaseSensitive(root, "iops_test");
    ck_assert_str_eq(cJSON_GetObjectItemCaseSensitive(iops, "preconditioning_mix")->valuestring,
                     sum.bssplit);
    const cJSON *st = cJSON_GetObjectItemCaseSensitive(iops, "steady_state");
    ck_assert(near(jnum(st, "average"), sum.steady.average, 1e-5));
    ck_assert_uint_eq((size_t)jnum(st, "rounds_run"), sum.n_rounds);
    const cJSON *row =
        cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(iops, "window_average"), 6); /* 0/100 */
    ssdsim_snia_get_average(r[0], 6 * 8 + 6, &a);
    ck_assert(near(jnum(row, "4K"), a.iops, 1e-5));
    const cJSON *tp = cJSON_GetObjectItemCaseSensitive(
        cJSON_GetObjectItemCaseSensitive(root, "throughput_test"), "block_sizes");
    for (int k = 0; k < 2; k++) {
        ssdsim_snia_average w, rd;
        ssdsim_snia_get_average(r[1 + k], 0, &w);
        ssdsim_snia_get_average(r[1 + k], 1, &rd);
        ck_assert(near(jnum(cJSON_GetArrayItem(tp, k), "write_mb_s"), w.bw_mb_s, 1e-5));
        ck_assert(near(jnum(cJSON_GetArrayItem(tp, k), "read_mb_s"), rd.bw_mb_s, 1e-5));
    }
    const cJSON *lat = cJSON_GetObjectItemCaseSensitive(root, "latency_test");
    for (int cell = 0; cell < 9; cell++) {
        ssdsim_snia_get_average(r[3], (size_t)cell, &a);
        row = cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(lat, "window_average"), cell);
        ck_assert(near(jnum(row, "lat_mean_us"), a.lat_mean_ns / 1e3, 1e-5));
        ck_assert(near(jnum(row, "lat_max_us"), (double)a.lat_max_ns / 1e3, 1e-5));
    }
    cJSON_Delete(root);

    /* Getters out of range, bogus arguments. */
    ssdsim_measurement f;
    ssdsim_snia_round rd;
    ck_assert_int_eq(ssdsim_snia_get_cell(r[1], sum.n_rounds + 50, 0, &f), SSDSIM_EINVAL);
    ck_assert_int_eq(ssdsim_snia_get_cell(r[1], 0, 2, &f), SSDSIM_EINVAL);
    ck_assert_int_eq(ssdsim_snia_get_round(r[1], 1000, &rd), SSDSIM_EINVAL);
    ck_assert_int_eq(ssdsim_snia_get_average(r[1], 2, &a), SSDSIM_EINVAL);
    ck_assert_int_eq(ssdsim_snia_get_summary(NULL, &sum), SSDSIM_EINVAL);
    ck_assert_ptr_null(ssdsim_snia_window_latency(NULL, 0));
    for (int t = 0; t < 4; t++)
        ssdsim_snia_free(r[t]);
    ssdsim_snia_free(NULL);
    ssdsim_snia_result *none = NULL;
    ck_assert_int_eq(ssdsim_snia_run(&none, sim, (ssdsim_snia_test)9, &o), SSDSIM_EINVAL);
    ck_assert_ptr_null(none);
    ck_assert_int_eq(ssdsim_snia_run(NULL, sim, SSDSIM_SNIA_IOPS, &o), SSDSIM_EINVAL);
    ck_assert_int_eq(ssdsim_snia_run(&none, NULL, SSDSIM_SNIA_IOPS, &o), SSDSIM_EINVAL);
    o.version = 99;
    ck_assert_int_eq(ssdsim_snia_run(&none, sim, SSDSIM_SNIA_IOPS, &o), SSDSIM_EINVAL);
    ck_assert(strstr(ssdsim_errmsg(sim), "ssdsim_snia_opts") != NULL);
    ck_assert_int_eq(ssdsim_snia_opts_init(&o, 99), SSDSIM_EINVAL);
    ck_assert_int_eq(ssdsim_snia_opts_init(&o, 0), 0);
    ck_assert_uint_eq(o.version, SSDSIM_SNIA_OPTS_VERSION);
    ssdsim_free(sim);
    ssdsim_model_free(m);
}
END_TEST

/* A callback's non-zero return stops the test and is returned. */
static int stop_round(size_t round, const double *track, void *ud)
{
    (void)track, (void)ud;
    return round == 1 ? 5 : 0;
}

START_TEST(test_suite_lib_snia_stopped_by_a_callback)
{
    ssdsim_model *m = small_model();
    ssdsim *sim = small_sim(m);
    ssdsim_snia_opts o = SSDSIM_SNIA_OPTS_INIT;
    o.cell_ns = 20000000;
    o.on_round = stop_round;
    ssdsim_snia_result *r = NULL;
    ck_assert_int_eq(ssdsim_snia_run(&r, sim, SSDSIM_SNIA_THROUGHPUT_128K, &o), 5);
    ck_assert_ptr_null(r);
    ssdsim_free(sim);
    ssdsim_model_free(m);
}
END_TEST

START_TEST(test_suite_lib_quick_tests_and_cells)
{
    ck_assert_uint_eq(ssdsim_quick_n_tests(), 20);
    /* IOPS: sequential read whole, first 10%, write whole, first 10%; random the same; then
     * bandwidth: sequential read first 5 GiB, last 5 GiB, whole, write ..., random ... */
    static const struct {
        size_t i;
        bool iops, seq, write;
        ssdsim_quick_region region;
    } want[] = {{0, true, true, false, SSDSIM_QUICK_WHOLE},
                {1, true, true, false, SSDSIM_QUICK_FIRST10},
                {2, true, true, true, SSDSIM_QUICK_WHOLE},
                {6, true, false, true, SSDSIM_QUICK_WHOLE},
                {8, false, true, false, SSDSIM_QUICK_FIRST5G},
                {9, false, true, false, SSDSIM_QUICK_LAST5G},
                {13, false, true, true, SSDSIM_QUICK_WHOLE},
                {19, false, false, true, SSDSIM_QUICK_WHOLE}};
    for (size_t k = 0; k < sizeof want / sizeof want[0]; k++) {
        ssdsim_quick_test t;
        ck_assert_int_eq(ssdsim_quick_get_test(want[k].i, &t), 0);
        ck_assert_msg(t.iops == want[k].iops && t.seq == want[k].seq && t.write == want[k].write &&
                          t.region == want[k].region,
                      "test %zu", want[k].i);
    }
    ssdsim_quick_test t;
    ck_assert_int_eq(ssdsim_quick_get_test(20, &t), SSDSIM_EINVAL);
    ck_assert(ssdsim_quick_jobs(0) == 1 && ssdsim_quick_jobs(1) == 4 && ssdsim_quick_jobs(2) == 64);
    ck_assert_uint_eq(ssdsim_quick_jobs(3), 0);
    /* Regions of a 100 MiB volume: the first 10% is 10,485,760 bytes = 2560 x 4 KiB; the
     * "5 GiB" regions are halves, 52,428,800 bytes; the last starts at 52,428,800. */
    uint64_t vol = UINT64_C(100) << 20;
    ssdsim_suite_wl w;
    ck_assert_int_eq(ssdsim_quick_cell(1, 0, vol, &w), 0);
    ck_assert(!strcmp(w.rw, "read") && !strcmp(w.bs, "4k") && w.threads == 1 && w.qd == 1);
    ck_assert(w.region_offset == 0 && w.region_size == 10485760 && w.split_region);
    ck_assert_int_eq(ssdsim_quick_cell(9, 2, vol, &w), 0);
    ck_assert(!strcmp(w.bs, "128k") && w.threads == 64);
    ck_assert(w.region_offset == 52428800 && w.region_size == 52428800);
    ck_assert_int_eq(ssdsim_quick_cell(6, 1, vol, &w), 0); /* random over all: no region */
    ck_assert(!strcmp(w.rw, "randwrite") && w.region_size == 0 && !w.split_region);
    ck_assert_int_eq(ssdsim_quick_cell(0, 0, vol, &w), 0); /* sequential: each its own part */
    ck_assert_uint_eq(w.region_size, vol);
    /* On a 1 TiB volume the regions are 5 GiB: the last starts 5 GiB before the end. */
    uint64_t tib = UINT64_C(1) << 40;
    ck_assert_int_eq(ssdsim_quick_cell(9, 0, tib, &w), 0);
    ck_assert(w.region_size == UINT64_C(5) << 30 && w.region_offset == tib - (UINT64_C(5) << 30));
    ck_assert_int_eq(ssdsim_quick_cell(20, 0, vol, &w), SSDSIM_EINVAL);
    ck_assert_int_eq(ssdsim_quick_cell(0, 3, vol, &w), SSDSIM_EINVAL);

    ssdsim_model *m = small_model();
    ck_assert_int_eq(ssdsim_model_write_buffer(m), SSDSIM_WRITE_BUFFER_NONE);
    ck_assert_int_eq(ssdsim_model_set(m, "buffer.size", "256KiB", NULL), 0);
    ck_assert_int_eq(ssdsim_model_write_buffer(m), SSDSIM_WRITE_BUFFER_VOLATILE);
    ck_assert_int_eq(ssdsim_model_set_bool(m, "buffer.plp", true, NULL), 0);
    ck_assert_int_eq(ssdsim_model_write_buffer(m), SSDSIM_WRITE_BUFFER_PLP);
    ck_assert_int_eq(ssdsim_model_write_buffer(NULL), SSDSIM_WRITE_BUFFER_NONE);
    ck_assert_str_eq(ssdsim_model_write_cache_key(m), "buffer.write_cache");
    ck_assert_ptr_null(ssdsim_model_write_cache_key(NULL));
    ssdsim_model_free(m);
    /* A hard disk's cache (hdd.cache, 16 MiB by default) is volatile, whatever
     * hdd.write_cache says (the setting compared); without a cache there is nothing. */
    ssdsim_error err;
    ck_assert_msg(ssdsim_model_load_string(
                      &m,
                      "{\"name\": \"disk\", \"hdd\": {\"capacity\": \"100GB\", \"rpm\": 7200, "
                      "\"outer_rate\": \"120MB/s\", \"inner_rate\": \"60MB/s\", "
                      "\"seek_track_us\": 500, \"seek_avg_us\": 8500, \"seek_full_us\": 18000, "
                      "\"write_cache\": false}}",
                      "disk", &err) == 0,
                  "%s", err.message);
    ck_assert_int_eq(ssdsim_model_write_buffer(m), SSDSIM_WRITE_BUFFER_VOLATILE);
    ck_assert_str_eq(ssdsim_model_write_cache_key(m), "hdd.write_cache");
    ck_assert_int_eq(ssdsim_model_set(m, "hdd.cache", "0", NULL), 0);
    ck_assert_int_eq(ssdsim_model_write_buffer(m), SSDSIM_WRITE_BUFFER_NONE);
    ssdsim_model_free(m);
}
END_TEST

struct quick_seen {
    size_t cells, states[6], steadies;
};

static void quick_state(ssdsim_quick_state st, void *ud)
{
    ((struct quick_seen *)ud)->states[st]++;
}

static void quick_steady(ssdsim_steady_method how, const char *bssplit, void *ud)
{
    ck_assert_int_eq(how, SSDSIM_STEADY_BY_FAST);
    ck_assert_ptr_null(bssplit);
    ((struct quick_seen *)ud)->steadies++;
}

static int quick_cell(ssdsim_quick_state st, size_t test, size_t j, const ssdsim_measurement *m,
                      void *ud)
{
    (void)st, (void)test, (void)j;
    ck_assert(m->n_ios > 0);
    ((struct quick_seen *)ud)->cells++;
    return 0;
}

/* The written-full state of an FTL without fast preconditioning (direct: no GC, writes in
 * place), reached by running 4 KiB random writes: uniform random writes leave about e^-k of the
 * units unwritten after k drive writes, and a read of one is answered without flash. The state
 * has a sequential fill first, so no read of the written-full drive finds a unit unmapped, and
 * every random 4 KiB read at 1 job takes the flash read: 1 (link) + 2 (firmware) + 20 (tR) +
 * 40.96 (flash bus) + 40.96 (link) = 104.92 us, as on the page FTL (LAT_QD1_US). */
struct quick_unmapped {
    ssdsim *sim;
    uint64_t full, fresh, full_reads;
    ssdsim_steady_method how;
};

static int quick_unmapped_cell(ssdsim_quick_state st, size_t test, size_t j,
                               const ssdsim_measurement *m, void *ud)
{
    struct quick_unmapped *u = ud;
    ssdsim_quick_test t;
    ck_assert_int_eq(ssdsim_quick_get_test(test, &t), 0);
    ssdsim_device_stats d;
    (void)j, (void)m;
    if (t.write || st > SSDSIM_QUICK_FULL)
        return 0;
    ck_assert_int_eq(ssdsim_get_device_stats(u->sim, &d), 0);
    if (st == SSDSIM_QUICK_FULL) {
        u->full += d.unmapped_reads;
        u->full_reads++;
    } else {
        u->fresh += d.unmapped_reads;
    }
    return 0;
}

static void quick_unmapped_steady(ssdsim_steady_method how, const char *bssplit, void *ud)
{
    (void)bssplit;
    ((struct quick_unmapped *)ud)->how = how;
}

static const char small_xpoint_json[] = TEST_SMALL_XPOINT_JSON("suite-lib-xpoint");

START_TEST(test_suite_lib_quick_full_leaves_nothing_unmapped)
{
    ssdsim_model *m = NULL;
    ssdsim_error err;
    ck_assert_msg(ssdsim_model_load_string(&m, small_xpoint_json, "xpoint", &err) == 0, "%s",
                  err.message);
    ssdsim *sim = small_sim(m);
    struct quick_unmapped u = {.sim = sim};
    ssdsim_quick_opts o = SSDSIM_QUICK_OPTS_INIT;
    o.window_ns = 50000000;
    o.test_ns = 200000000;
    o.idle_ns = 0;
    o.max_drive_writes = 2; /* e^-2: 13.5% of the units unwritten by the random writes alone */
    o.seed = 1;
    o.on_cell = quick_unmapped_cell;
    o.on_steady = quick_unmapped_steady;
    o.userdata = &u;
    ssdsim_quick_result *r = NULL;
    ck_assert_msg(ssdsim_quick_run(&r, sim, m, &o) == 0, "%s", ssdsim_errmsg(sim));
    ck_assert_int_eq(u.how, SSDSIM_STEADY_BY_RUN);
    ck_assert_uint_eq(u.full_reads, 10 * 3);
    ck_assert_uint_gt(u.fresh, 0); /* the fresh drive's reads: nothing written */
    ck_assert_msg(u.full == 0, "%llu reads of unwritten units, written full",
                  (unsigned long long)u.full);
    ssdsim_measurement f;
    ck_assert_int_eq(ssdsim_quick_get_cell(r, SSDSIM_QUICK_FULL, 4, 0, &f), 0);
    ck_assert_msg(near(f.lat_mean_ns / 1e3, LAT_QD1_US, 0.001), "%g", f.lat_mean_ns);
    ssdsim_quick_free(r);
    ssdsim_free(sim);
    ssdsim_model_free(m);
}
END_TEST

START_TEST(test_suite_lib_quick_run)
{
    /* With a volatile write buffer, so that the write cache is compared. */
    ssdsim_model *m = small_model();
    ck_assert_int_eq(ssdsim_model_set(m, "buffer.size", "256KiB", NULL), 0);
    ssdsim *sim = small_sim(m);
    struct quick_seen seen = {0};
    ssdsim_quick_opts o = SSDSIM_QUICK_OPTS_INIT;
    o.window_ns = 50000000;
    o.test_ns = 1000000000;
    o.seed = 1;
    o.on_state = quick_state;
    o.on_steady = quick_steady;
    o.on_cell = quick_cell;
    o.userdata = &seen;
    ssdsim_quick_result *r = NULL;
    ck_assert_msg(ssdsim_quick_run(&r, sim, m, &o) == 0, "%s", ssdsim_errmsg(sim));
    ck_assert_uint_eq(seen.cells, 2 * 20 * 3 + 4 * 3);
    for (int st = 0; st < 6; st++)
        ck_assert_int_eq(seen.states[st], 1);
    ck_assert_uint_eq(seen.steadies, 1);
    ssdsim_quick_summary sum;
    ck_assert_int_eq(ssdsim_quick_get_summary(r, &sum), 0);
    ck_assert_uint_eq(sum.window_ns, 50000000);
    ck_assert_uint_eq(sum.test_ns, 1000000000);
    ck_assert_uint_eq(sum.logical_bytes, ssdsim_model_logical_bytes(m));
    ck_assert(!sum.regions_5gib && sum.cache_compared && sum.cache_test == 6);
    ck_assert_int_eq(sum.buffer, SSDSIM_WRITE_BUFFER_VOLATILE);
    /* Random 4 KiB reads at 1 job (test 4): written full, 104.92 us; fresh, the data was never
     * written and the read is answered without flash: 1 (link) + 2 (firmware) + 40.96 (4 KiB on
     * the link) = 43.96 us. */
    ssdsim_measurement f;
    ck_assert_int_eq(ssdsim_quick_get_cell(r, SSDSIM_QUICK_FULL, 4, 0, &f), 0);
    ck_assert(near(f.lat_mean_ns / 1e3, LAT_QD1_US, 0.001));
    ck_assert_int_eq(ssdsim_quick_get_cell(r, SSDSIM_QUICK_FRESH, 4, 0, &f), 0);
    ck_assert(near(f.lat_mean_ns / 1e3, 43.96, 0.001));
    /* Random 4 KiB writes at 1 job with the write cache off: each programmed before it
     * completes, 1 + 2 + 40.96 (link) + 40.96 (flash bus) + 200 (tPROG) = 284.92 us; with it
     * on, acknowledged from DRAM, much sooner. */
    ssdsim_measurement on;
    ck_assert_int_eq(ssdsim_quick_get_cell(r, SSDSIM_QUICK_CACHE_OFF, 6, 0, &f), 0);
    ck_assert(near(f.lat_mean_ns / 1e3, 284.92, 0.001));
    /* a window (of 50 ms, run again up to the test's 1 s for requests enough), with a ramp:
     * its rate, 3,510 writes/s of 4 KiB (14.4 MB/s), over the 1 s test writes less than half
     * the 64 MiB of free flash */
    ck_assert(f.ramp_ns > 0 && f.window_ns <= 1000000000);
    ck_assert_int_eq(ssdsim_quick_get_cell(r, SSDSIM_QUICK_CACHE_ON, 6, 0, &on), 0);
    ck_assert(on.lat_mean_ns < f.lat_mean_ns / 2);
    /* Which cells ran the whole test (no ramp, window_ns the test's 1 s): on the written-full
     * drive every test that writes (2 to 3 and 6 to 7 of IOPS, 11 to 13 and 17 to 19 of
     * bandwidth) and none that reads; on the fresh drive the writes at 64 jobs, which the 4
     * dies program at about 4 / (200 + 40.96 us) = 16,600 writes/s of 4 KiB (68 MB/s, or
     * 128 KiB ones at the same bytes): over 1 s more than half the free flash. */
    for (size_t t = 0; t < ssdsim_quick_n_tests(); t++) {
        ssdsim_quick_test qt;
        ck_assert_int_eq(ssdsim_quick_get_test(t, &qt), 0);
        for (size_t j = 0; j < SSDSIM_QUICK_N_JOBS; j++) {
            ck_assert_int_eq(ssdsim_quick_get_cell(r, SSDSIM_QUICK_FULL, t, j, &f), 0);
            ck_assert_msg((f.ramp_ns == 0) == qt.write, "full, test %zu, jobs %zu", t, j);
            if (qt.write)
                ck_assert_uint_eq(f.window_ns, 1000000000);
        }
        ck_assert_int_eq(ssdsim_quick_get_cell(r, SSDSIM_QUICK_FRESH, t, 2, &f), 0);
        ck_assert_msg((f.ramp_ns == 0) == qt.write, "fresh, test %zu, 64 jobs", t);
    }
    ck_assert_int_eq(ssdsim_quick_get_cell(r, SSDSIM_QUICK_CACHE_ON, 5, 0, &f), SSDSIM_EINVAL);
    ck_assert_int_eq(ssdsim_quick_get_cell(r, SSDSIM_QUICK_FRESH, 20, 0, &f), SSDSIM_EINVAL);
    ck_assert_int_eq(ssdsim_quick_get_cell(r, (ssdsim_quick_state)6, 0, 0, &f), SSDSIM_EINVAL);
    /* With the cache off on the written-full drive each write waits for its program and for
     * the garbage collection that frees its page: slower than fresh (284.92 us), the whole
     * test run (written full); with it on, acknowledged from DRAM until the buffer fills. */
    ssdsim_measurement off_full;
    ck_assert_int_eq(ssdsim_quick_get_cell(r, SSDSIM_QUICK_CACHE_OFF_FULL, 6, 0, &off_full), 0);
    ck_assert_msg(off_full.lat_mean_ns / 1e3 > 284.92 * 1.05, "%g", off_full.lat_mean_ns);
    ck_assert_uint_eq(off_full.ramp_ns, 0);
    ck_assert_int_eq(ssdsim_quick_get_cell(r, SSDSIM_QUICK_CACHE_ON_FULL, 6, 2, &f), 0);
    ck_assert(f.iops > 0);
    /* Latency sums: the random 4 KiB whole-device tests (4: reads, 6: writes) at 64 jobs. */
    ck_assert_ptr_nonnull(ssdsim_quick_latency(r, SSDSIM_QUICK_FRESH, 4));
    ck_assert_ptr_nonnull(ssdsim_quick_latency(r, SSDSIM_QUICK_FULL, 6));
    ck_assert_ptr_null(ssdsim_quick_latency(r, SSDSIM_QUICK_FULL, 0));
    ck_assert_ptr_null(ssdsim_quick_latency(r, SSDSIM_QUICK_CACHE_ON, 6));
    ssdsim_quick_free(r);
    ssdsim_quick_free(NULL);

    /* Written full by two sequential fills instead of the random-write steady state: no
     * steady state reached (on_steady not called), the same QD1 read of a written page. */
    memset(&seen, 0, sizeof seen);
    o.full_fills = 2;
    o.test_ns = 200000000;
    ck_assert_msg(ssdsim_quick_run(&r, sim, m, &o) == 0, "%s", ssdsim_errmsg(sim));
    ck_assert_uint_eq(seen.steadies, 0);
    ck_assert_int_eq(ssdsim_quick_get_summary(r, &sum), 0);
    ck_assert_uint_eq(sum.full_fills, 2);
    ck_assert_int_eq(ssdsim_quick_get_cell(r, SSDSIM_QUICK_FULL, 4, 0, &f), 0);
    ck_assert(near(f.lat_mean_ns / 1e3, LAT_QD1_US, 0.001));
    ssdsim_quick_free(r);
    o.full_fills = 0;
    ck_assert_int_eq(ssdsim_quick_run(&r, sim, NULL, &o), SSDSIM_EINVAL);
    ck_assert_ptr_null(r);
    o.version = 99;
    ck_assert_int_eq(ssdsim_quick_run(&r, sim, m, &o), SSDSIM_EINVAL);
    ck_assert_int_eq(ssdsim_quick_opts_init(&o, 99), SSDSIM_EINVAL);
    ck_assert_int_eq(ssdsim_quick_opts_init(&o, 0), 0);
    ck_assert_uint_eq(o.version, SSDSIM_QUICK_OPTS_VERSION);
    ssdsim_free(sim);
    ssdsim_model_free(m);
}
END_TEST

static int review_point_seen(size_t i, const ssdsim_measurement *m, void *ud)
{
    size_t *n = ud;
    ck_assert_uint_eq(i, *n);
    ck_assert(m->n_ios > 0);
    (*n)++;
    return 0;
}

START_TEST(test_suite_lib_review)
{
    const char *id, *title;
    ssdsim_suite_wl pre, meas;
    ck_assert_int_eq(ssdsim_review_profile(3, &id, &title, &pre, &meas), 0);
    ck_assert_str_eq(id, "web-server");
    ck_assert_str_eq(title, "Web server");
    /* the web server reads; its curve writes its size mix */
    ck_assert(!strcmp(pre.rw, "randwrite") && !strcmp(meas.rw, "randread"));
    ck_assert_str_eq(pre.bssplit, meas.bssplit);
    ck_assert(pre.threads == 16 && pre.qd == 16);
    ck_assert_int_eq(ssdsim_review_profile(1, &id, NULL, NULL, &meas), 0);
    ck_assert(!strcmp(id, "8k-70-30") && meas.rwmixread == 70 && !strcmp(meas.bs, "8k"));
    ck_assert_int_eq(ssdsim_review_profile(4, &id, NULL, NULL, NULL), SSDSIM_EINVAL);
    uint32_t t, q;
    ck_assert(ssdsim_review_point(0, &t, &q) == 0 && t == 2 && q == 2);
    ck_assert(ssdsim_review_point(1, &t, &q) == 0 && t == 2 && q == 4);
    ck_assert(ssdsim_review_point(6, &t, &q) == 0 && t == 4 && q == 8);
    ck_assert(ssdsim_review_point(15, &t, &q) == 0 && t == 16 && q == 16);
    ck_assert_int_eq(ssdsim_review_point(16, &t, &q), SSDSIM_EINVAL);

    /* A drive with 0.1 more over-provisioning: ftl.op is what the drive reports plus 0.1. */
    ssdsim_model *m = small_model();
    ssdsim *probe = small_sim(m);
    ssdsim_device_stats d;
    ssdsim_get_device_stats(probe, &d);
    ssdsim_free(probe);
    ssdsim_review_drive_opts o = SSDSIM_REVIEW_DRIVE_OPTS_INIT;
    o.add_op = 0.1;
    o.seed = 1;
    ssdsim_review_drive *drive = NULL;
    ssdsim_error err;
    ck_assert_msg(ssdsim_review_drive_new(&drive, m, &o, &err) == 0, "%s", err.message);
    double op = 0;
    ck_assert_int_eq(ssdsim_model_get_double(ssdsim_review_drive_model(drive), "ftl.op", &op, NULL),
                     0);
    ck_assert(near(op, d.op + 0.1, 1e-5));
    ck_assert_ptr_null(ssdsim_review_drive_copy(drive)); /* 64 blocks per plane: no copy */
    ssdsim *sim = ssdsim_review_drive_sim(drive);
    ck_assert_ptr_nonnull(sim);
    /* The matrix of 4 KiB random reads on a filled drive: at 16T/16Q bound by the link, one
     * request per 1 + 40.96 us: 10^6 / 41.96 = 23,832 IOPS (within 2%: the window has edges). */
    ck_assert_int_eq(ssdsim_precondition_seq(sim), 0);
    ssdsim_suite_wl rd = SSDSIM_SUITE_WL_INIT;
    rd.rw = "randread", rd.bs = "4k", rd.rwmixread = -1;
    ssdsim_measurement fig[SSDSIM_REVIEW_N_POINTS];
    size_t n = 0;
    ck_assert_msg(ssdsim_review_matrix(sim, &rd, 200000000, fig, review_point_seen, &n) == 0, "%s",
                  ssdsim_errmsg(sim));
    ck_assert_uint_eq(n, 16);
    ck_assert_msg(near(fig[15].iops, 1e6 / 41.96, 0.02), "%g IOPS", fig[15].iops);
    ck_assert_int_eq(ssdsim_review_matrix(sim, NULL, 50000000, fig, NULL, NULL), SSDSIM_EINVAL);
    ssdsim_review_drive_free(drive);
    ssdsim_review_drive_free(NULL);

    /* 256 blocks per plane, curves on a copy of 48: the copy's simulation has 48 per plane. */
    ck_assert_int_eq(ssdsim_model_set_int(m, "geometry.blocks_per_plane", 256, NULL), 0);
    o.add_op = 0;
    o.curve_blocks_per_plane = 48;
    ck_assert_msg(ssdsim_review_drive_new(&drive, m, &o, &err) == 0, "%s", err.message);
    ssdsim *copy = ssdsim_review_drive_copy(drive);
    ck_assert_ptr_nonnull(copy);
    uint32_t n_planes, ppb, page;
    uint64_t n_blocks, lpages;
    ck_assert_int_eq(ssdsim_device_shape(copy, &n_planes, &n_blocks, &ppb, &page, &lpages), 0);
    ck_assert_uint_eq(n_blocks / n_planes, 48);
    ssdsim_review_drive_free(drive);
    o.curve_full = true;
    ck_assert_int_eq(ssdsim_review_drive_new(&drive, m, &o, &err), 0);
    ck_assert_ptr_null(ssdsim_review_drive_copy(drive));
    ssdsim_review_drive_free(drive);
    o.add_op = -1;
    ck_assert_int_eq(ssdsim_review_drive_new(&drive, m, &o, &err), SSDSIM_EINVAL);
    ck_assert_ptr_null(drive);
    ck_assert(strstr(err.message, "add_op") != NULL);
    o.add_op = 0;
    o.version = 99;
    ck_assert_int_eq(ssdsim_review_drive_new(&drive, m, &o, &err), SSDSIM_EINVAL);
    ck_assert_int_eq(ssdsim_review_drive_new(&drive, NULL, NULL, &err), SSDSIM_EINVAL);
    ck_assert_int_eq(ssdsim_review_drive_opts_init(&o, 99), SSDSIM_EINVAL);
    ck_assert_int_eq(ssdsim_review_drive_opts_init(&o, 0), 0);
    ck_assert_uint_eq(o.version, SSDSIM_REVIEW_DRIVE_OPTS_VERSION);
    ck_assert_ptr_null(ssdsim_review_drive_sim(NULL));
    ssdsim_model_free(m);
}
END_TEST


/* ------------------------------------------------------------------------------------------ */
/* End-of-life projection (ssdsim_eol_project)                                                 */

/* The small model with bit errors from wear only (no retention, disturb or variation), a
 * 512-byte codeword correcting 8 bits, 2 retries halving the RBER each, no soft decoding, and
 * grown bad blocks. */
static ssdsim_model *eol_model(void)
{
    ssdsim_model *m = small_model();
    static const char *const sets[][2] = {
        {"flash.rated_pe_cycles", "3000"},
        {"reliability.rber_model", "\"slc\""},
        {"reliability.rber_base", "1e-4"},
        {"reliability.rber_wear", "1e-3"},
        {"reliability.rber_wear_exp", "2"},
        {"reliability.rber_retention", "0"},
        {"reliability.rber_disturb", "0"},
        {"reliability.rber_variation", "0"},
        {"reliability.ecc_codeword", "512"},
        {"reliability.ecc_t", "8"},
        {"reliability.retry_max", "2"},
        {"reliability.retry_factor", "0.5"},
        {"reliability.soft_reads", "0"},
        {"reliability.grown_prob_rated", "0.001"},
        {"reliability.grown_exponent", "2"},
    };
    ssdsim_error err;
    for (size_t i = 0; i < sizeof sets / sizeof sets[0]; i++)
        ck_assert_msg(ssdsim_model_set(m, sets[i][0], sets[i][1], &err) == 0, "%s: %s",
                      sets[i][0], err.message);
    return m;
}

/* P(X > 8), X ~ Binomial(4096, p): the upper terms summed one by one from their logs. */
static double tail8(double p)
{
    double sum = 0;
    for (int j = 9; j <= 400; j++)
        sum += exp(lgamma(4097.0) - lgamma(j + 1.0) - lgamma(4097.0 - j) + j * log(p) +
                   (4096 - j) * log(1 - p));
    return sum;
}

/* The model's UBER at pe cycles, by hand: RBER 1e-4 + 1e-3 (pe/1000)^2, twice halved by the
 * retries, a codeword of 4096 bits failing with more than 8 errors. */
static double eol_uber_hand(double pe)
{
    double k = pe / 1000;
    return tail8((1e-4 + 1e-3 * k * k) * 0.25) / 4096;
}

START_TEST(test_suite_lib_eol_projection)
{
    ssdsim_model *m = eol_model();
    ssdsim *sim = small_sim(m);
    ssdsim_eol_opts o = SSDSIM_EOL_OPTS_INIT;
    o.waf = 2.5;
    o.target_uber = 1e-15;
    o.life_years = 5;
    ssdsim_eol e;
    ssdsim_error err;
    ck_assert_msg(ssdsim_eol_project(sim, &o, &e, &err) == 0, "%s", err.message);
    /* 4 planes x 64 blocks x 64 pages x 4 KiB */
    double phys = 4.0 * 64 * 64 * 4096;
    ck_assert_uint_eq(e.physical_bytes, (uint64_t)phys);
    ck_assert(near(e.rated_pe, 3000, 1e-12));
    ck_assert(near(e.rated_host_bytes, 3000 * phys / 2.5, 1e-12));
    ck_assert(near(e.rated_dwpd, 3000 * phys / 2.5 / (double)e.logical_bytes / 365.25 / 5, 1e-12));
    /* the P/E count where the hand UBER reaches 1e-15, by bisection */
    ck_assert(eol_uber_hand(0) < 1e-15 && eol_uber_hand(20000) > 1e-15);
    double lo = 0, hi = 20000;
    for (int i = 0; i < 100; i++) {
        double mid = (lo + hi) / 2;
        if (eol_uber_hand(mid) >= 1e-15)
            hi = mid;
        else
            lo = mid;
    }
    ck_assert(e.uber_reached);
    ck_assert_msg(near(e.uber_pe, hi, 1e-4), "uber_pe %g, by hand %g", e.uber_pe, hi);
    ck_assert(near(e.uber_host_bytes, e.uber_pe * phys / 2.5, 1e-12));
    ck_assert(near(e.uber_rber, 1e-4 + 1e-3 * (hi / 1000) * (hi / 1000), 1e-3));
    ck_assert(near(e.uber_at_rated, eol_uber_hand(3000), 1e-6));
    ck_assert(near(ssdsim_eol_uber(sim, 5000, 0), eol_uber_hand(5000), 1e-6));
    /* read-only: S(n) = prod (1 - 0.001 (i/3000)^2) of the 256 blocks (no factory bad ones)
     * falls below the FTL's need, which lies in (256 - spare - 1, 256 - spare] */
    ck_assert(e.ro_modelled && e.ro_reached);
    double surv = 1, erases = 0, s_prev = 1;
    for (uint32_t n = 1; n <= (uint32_t)e.ro_pe; n++) {
        erases += surv * 256;
        s_prev = surv;
        double p = 0.001 * ((double)n / 3000) * ((double)n / 3000);
        surv *= 1 - (p < 1 ? p : 1);
    }
    double spare = (double)e.ro_spare_blocks;
    ck_assert_msg(surv * 256 < 256 - spare && s_prev * 256 >= 256 - spare - 1,
                  "read-only at %g: survivors %g, before %g, spare %g", e.ro_pe, surv * 256,
                  s_prev * 256, spare);
    ck_assert(near(e.ro_host_bytes, erases * (phys / 256) / 2.5, 1e-9));
    ck_assert(near(e.ro_dwpd, e.ro_host_bytes / (double)e.logical_bytes / 365.25 / 5, 1e-12));
    /* a stricter target ends earlier */
    o.target_uber = 1e-16;
    ssdsim_eol e2;
    ck_assert_int_eq(ssdsim_eol_project(sim, &o, &e2, NULL), 0);
    ck_assert(e2.uber_pe < e.uber_pe);
    ssdsim_free(sim);
    ssdsim_model_free(m);
}
END_TEST

/* The endurance points: fractions of the rated cycles, the acceleration check's quarters, the
 * projection's WAF; a point's RBER is the model's formula at its wear (1e-4 + 1e-3 (PE/1000)^2
 * on eol_model: no variation, no retention loss, reads only so no block is erased again), and
 * its figures are those of the same steps done by hand. */
START_TEST(test_suite_lib_endurance)
{
    const double *f;
    ck_assert_uint_eq(ssdsim_endurance_points(true, &f), 3);
    ck_assert(f[0] == 0 && f[1] == 1 && f[2] == 2);
    ck_assert_uint_eq(ssdsim_endurance_points(false, &f), 9);
    ck_assert(f[1] == 0.25 && f[8] == 2);
    uint32_t pe[4];
    static const uint32_t tops[][5] = {{8, 2, 4, 6, 8}, {4, 1, 2, 3, 4}, {6, 1, 3, 4, 6},
                                       {5, 1, 2, 3, 5}, {1000, 250, 500, 750, 1000}};
    for (size_t i = 0; i < sizeof tops / sizeof tops[0]; i++) {
        ck_assert_int_eq(ssdsim_endurance_accel_points(tops[i][0], pe), 0);
        for (int k = 0; k < 4; k++)
            ck_assert_msg(pe[k] == tops[i][k + 1], "top %u: pe[%d] %u", tops[i][0], k, pe[k]);
    }
    ck_assert_int_eq(ssdsim_endurance_accel_points(3, pe), SSDSIM_EINVAL);
    ssdsim_endurance_point pts[3];
    memset(pts, 0, sizeof pts);
    pts[1].device.waf = 2;
    pts[2].device.waf = 4;
    ssdsim_endurance_waf_from from;
    ck_assert_double_eq(ssdsim_endurance_waf(pts, 3, 0, &from), 3);
    ck_assert_int_eq(from, SSDSIM_ENDURANCE_WAF_POINTS);
    ck_assert_double_eq(ssdsim_endurance_waf(pts, 3, 5, &from), 5);
    ck_assert_int_eq(from, SSDSIM_ENDURANCE_WAF_TIMED);
    ck_assert_double_eq(ssdsim_endurance_waf(pts, 1, 0, &from), 1);
    ck_assert_int_eq(from, SSDSIM_ENDURANCE_WAF_ASSUMED);
    /* a point's wear per host byte when it has one (an SLC cache's pages: 3.5 for WAF 1.5) */
    pts[2].device.wear_factor = 7;
    ck_assert_double_eq(ssdsim_endurance_waf(pts, 3, 0, &from), (2 + 7) / 2.0);

    /* the model: bit errors turned on when off, kept when on */
    ssdsim_model *plain = small_model(), *m = NULL;
    ssdsim_error err;
    bool defaults = false;
    ck_assert_int_eq(ssdsim_endurance_model(&m, plain, &defaults, &err), 0);
    ck_assert(defaults);
    char cur[32];
    ck_assert_int_eq(ssdsim_model_get_string(m, "reliability.rber_model", cur, sizeof cur, NULL),
                     0);
    ck_assert_str_eq(cur, "cell");
    ssdsim_model_free(m);
    ssdsim_model *em = eol_model();
    ck_assert_int_eq(ssdsim_endurance_model(&m, em, &defaults, &err), 0);
    ck_assert(!defaults);

    ssdsim_workload *wl = NULL;
    ck_assert_int_eq(ssdsim_workload_load_string(
                         &wl, "{\"rw\":\"randread\",\"bs\":\"4k\",\"iodepth\":8,\"number_ios\":2000}",
                         "reads", &err),
                     0);
    ssdsim_endurance_opts eo = SSDSIM_ENDURANCE_OPTS_INIT;
    eo.seed = 4;
    for (uint32_t p = 0; p <= 3000; p += 3000) {
        ssdsim_endurance_point pt;
        ck_assert_msg(ssdsim_endurance_point_run(m, p, wl, &eo, &pt, &err) == 0, "%s",
                      err.message);
        ck_assert_uint_eq(pt.pe, p);
        ck_assert_uint_eq(pt.read.count, 2000);
        double want = 1e-4 + 1e-3 * (p / 1000.0) * (p / 1000.0);
        ck_assert_msg(near(pt.rel.rber_mean, want, 1e-3), "%u: RBER %g, formula %g", p,
                      pt.rel.rber_mean, want);
        /* by hand */
        ssdsim *sim = NULL;
        ck_assert_int_eq(ssdsim_new(&sim, m, 4, &err), 0);
        ck_assert_int_eq(ssdsim_precondition_seq(sim), 0);
        if (p)
            ck_assert_int_eq(ssdsim_wear(sim, p), 0);
        ck_assert_int_eq(ssdsim_run(sim, wl, NULL), 0);
        ssdsim_device_stats d;
        ssdsim_op_stats all;
        ssdsim_get_device_stats(sim, &d);
        ssdsim_get_op_stats(sim, SSDSIM_OP_ALL, &all);
        ck_assert(memcmp(&d, &pt.device, sizeof d) == 0);
        ck_assert(memcmp(&all, &pt.all, sizeof all) == 0);
        ssdsim_free(sim);
    }
    ssdsim_endurance_point pt;
    eo.age_days = -1;
    ck_assert_int_eq(ssdsim_endurance_point_run(m, 0, wl, &eo, &pt, &err), SSDSIM_EINVAL);
    ck_assert_ptr_nonnull(strstr(err.message, "age_days"));
    eo.age_days = 0;
    eo.version = 99;
    ck_assert_int_eq(ssdsim_endurance_point_run(m, 0, wl, &eo, &pt, &err), SSDSIM_EINVAL);
    ck_assert_int_eq(ssdsim_endurance_point_run(NULL, 0, wl, NULL, &pt, &err), SSDSIM_EINVAL);
    ck_assert_int_eq(ssdsim_endurance_model(NULL, em, NULL, &err), SSDSIM_EINVAL);
    ssdsim_workload_free(wl);
    ssdsim_model_free(m);
    ssdsim_model_free(em);
    ssdsim_model_free(plain);
}
END_TEST

START_TEST(test_suite_lib_eol_bad_options)
{
    ssdsim_model *m = eol_model();
    ssdsim *sim = small_sim(m);
    ssdsim_eol e;
    ssdsim_error err;
    ssdsim_eol_opts o = SSDSIM_EOL_OPTS_INIT;
    ck_assert_int_eq(ssdsim_eol_project(sim, &o, &e, &err), SSDSIM_EINVAL); /* no WAF */
    ck_assert_msg(strstr(err.message, "waf") && !strchr(err.message, '\n'), "%s", err.message);
    o.waf = 2;
    o.target_uber = 0.5;
    ck_assert_int_eq(ssdsim_eol_project(sim, &o, &e, &err), SSDSIM_EINVAL);
    ck_assert_msg(strstr(err.message, "target_uber"), "%s", err.message);
    o.target_uber = 0;
    o.life_years = -1;
    ck_assert_int_eq(ssdsim_eol_project(sim, &o, &e, &err), SSDSIM_EINVAL);
    ck_assert_msg(strstr(err.message, "life_years"), "%s", err.message);
    o.life_years = 0;
    o.retention_days = NAN;
    ck_assert_int_eq(ssdsim_eol_project(sim, &o, &e, &err), SSDSIM_EINVAL);
    o.retention_days = 0;
    o.version = 99;
    ck_assert_int_eq(ssdsim_eol_project(sim, &o, &e, &err), SSDSIM_EINVAL);
    ck_assert_int_eq(ssdsim_eol_opts_init(&o, 99), SSDSIM_EINVAL);
    ck_assert_int_eq(ssdsim_eol_opts_init(&o, 0), 0);
    o.waf = 2;
    ck_assert_int_eq(ssdsim_eol_project(NULL, &o, &e, &err), SSDSIM_EINVAL);
    ck_assert_int_eq(ssdsim_eol_project(sim, NULL, &e, &err), SSDSIM_EINVAL);
    ck_assert(isnan(ssdsim_eol_uber(NULL, 0, 0)));
    /* the acceleration check's options */
    ssdsim_eol_accel_opts ao = SSDSIM_EOL_ACCEL_OPTS_INIT;
    ssdsim_eol_accel_point pt[2];
    ck_assert_int_eq(ssdsim_eol_accel_check(m, 1, &ao, pt, &err), SSDSIM_EINVAL);
    ck_assert_msg(strstr(err.message, "n_pe"), "%s", err.message);
    const uint32_t down[2] = {10, 5};
    ao.pe = down;
    ao.n_pe = 2;
    ck_assert_int_eq(ssdsim_eol_accel_check(m, 1, &ao, pt, &err), SSDSIM_EINVAL);
    ck_assert_msg(strstr(err.message, "pe[1]") && strstr(err.message, "rising"), "%s",
                  err.message);
    const uint32_t up[2] = {5, 10};
    ao.pe = up;
    ck_assert_int_eq(ssdsim_eol_accel_check(m, 1, &ao, pt, &err), SSDSIM_EINVAL);
    ck_assert_msg(strstr(err.message, "measure"), "%s", err.message);
    ck_assert_int_eq(ssdsim_eol_accel_check(NULL, 1, &ao, pt, &err), SSDSIM_EINVAL);
    ssdsim_free(sim);
    /* no bit errors */
    ssdsim_model *plain = small_model();
    sim = small_sim(plain);
    ck_assert_int_eq(ssdsim_eol_project(sim, &o, &e, &err), SSDSIM_EINVAL);
    ck_assert_msg(strstr(err.message, "rber_model"), "%s", err.message);
    ssdsim_free(sim);
    ssdsim_model_free(plain);
    ssdsim_model_free(m);
}
END_TEST

/* ------------------------------------------------------------------------------------------ */
/* scaling                                                                                     */

struct scaling_seen {
    ssdsim_measurement fig[3][SSDSIM_SCALING_N_ALL_TESTS][SSDSIM_SCALING_N_QD];
    uint32_t devices[3];
    size_t n;
    unsigned n_steady;               /* on_steady calls */
    ssdsim_steady_method steady_how; /* the last one's */
};

static void scaling_steady(uint32_t devices, ssdsim_steady_method how, void *ud)
{
    struct scaling_seen *x = ud;
    (void)devices;
    x->n_steady++;
    x->steady_how = how;
}

static int scaling_point(uint32_t devices, ssdsim_scaling_test t, size_t k,
                         const ssdsim_measurement *m, void *ud)
{
    struct scaling_seen *x = ud;
    if (x->n == 0 || x->devices[x->n - 1] != devices) {
        ck_assert_uint_lt(x->n, 3);
        x->devices[x->n++] = devices;
    }
    x->fig[x->n - 1][t][k] = *m;
    return 0;
}

static int scaling_stop(uint32_t devices, ssdsim_scaling_test t, size_t k,
                        const ssdsim_measurement *m, void *ud)
{
    (void)devices, (void)t, (void)k, (void)m, (void)ud;
    return 7;
}

/* The system model `json` (its member "scaling-member.json", the small model), written with
 * the member under tests/out as `file` and loaded. */
static ssdsim_model *small_system(const char *file, const char *json)
{
    char member[4096], path[4096];
    out_path(member, sizeof member, "scaling-member.json");
    out_path(path, sizeof path, file);
    write_file(member, small_json);
    write_file(path, json);
    ssdsim_model *m = NULL;
    ssdsim_error err;
    ck_assert_msg(ssdsim_model_load_file(&m, path, &err) == 0, "%s", err.message);
    return m;
}

/* A RAID-0 of 2 small drives (3 us of RAID layer per request, 64 KiB strips): each array is
 * written full, so a QD1 4 KiB random read takes the member's 104.92 us + 3 = 107.92 us with 1
 * device and with 2; the drives sit on links of their own (a controller each), so what binds
 * them at depth, the 100 MB/s link, doubles: 128 KiB sequential reads at QD32 run 100 MB/s on
 * one device and 200 on two, 4 KiB random reads 10^8 / 4096 = 24,414 IOPS on one and up to
 * 48,828 on two (below). */
START_TEST(test_suite_lib_scaling)
{
    ssdsim_model *m = small_system("scaling-raid0.json",
                                   "{\"name\": \"scaling-raid0\", \"system\": {\"member\": "
                                   "\"scaling-member.json\", \"count\": 2, \"layout\": "
                                   "\"raid0\", \"stripe\": \"64KiB\", \"raid_us\": 3}}");
    ssdsim_model *j = small_system("scaling-jbod.json",
                                   "{\"name\": \"scaling-jbod\", \"system\": {\"member\": "
                                   "\"scaling-member.json\", \"count\": 4, \"layout\": "
                                   "\"jbod\", \"controllers\": 2}}");
    ssdsim_error err;
    /* the counts: 1 and 2; a JBOD of 4 on 2 controllers (2 each): 1, 2 (one controller), 4 */
    uint32_t counts[8];
    ck_assert_uint_eq(ssdsim_scaling_counts(m, counts, 8), 2);
    ck_assert(counts[0] == 1 && counts[1] == 2);
    ck_assert_uint_eq(ssdsim_scaling_counts(j, counts, 8), 3);
    ck_assert(counts[0] == 1 && counts[1] == 2 && counts[2] == 4);
    ck_assert_uint_eq(ssdsim_scaling_counts(j, NULL, 0), 3);
    ssdsim_model *dev = small_model();
    ck_assert_uint_eq(ssdsim_scaling_counts(dev, counts, 8), 0);
    ck_assert_uint_eq(ssdsim_scaling_qd(0), 1);
    ck_assert_uint_eq(ssdsim_scaling_qd(SSDSIM_SCALING_N_QD - 1), 32);
    ck_assert_uint_eq(ssdsim_scaling_qd(SSDSIM_SCALING_N_QD), 0);

    struct scaling_seen x = {.n = 0};
    ssdsim_scaling_opts o = SSDSIM_SCALING_OPTS_INIT;
    o.window_ns = 200000000;
    o.seed = 1;
    o.on_point = scaling_point;
    o.userdata = &x;
    ck_assert_msg(ssdsim_scaling_run(m, &o, &err) == 0, "%s", err.message);
    ck_assert_uint_eq(x.n, 2);
    ck_assert(x.devices[0] == 1 && x.devices[1] == 2);
    for (size_t a = 0; a < 2; a++) {
        const ssdsim_measurement *r = x.fig[a][SSDSIM_SCALING_RANDREAD];
        const ssdsim_measurement *q = x.fig[a][SSDSIM_SCALING_SEQREAD];
        ck_assert_msg(near(r[0].lat_mean_ns / 1e3, LAT_QD1_US + 3, 0.001), "%zu: %g", a,
                      r[0].lat_mean_ns);
        /* one device: its link; two: at most twice that, less the time one of them waits
         * with none of the 32 requests, scattered at random over the two (in a closed network
         * of M exponential servers and N requests a server is idle (M-1)/(N+M-1) of the time:
         * 1/33; the device's stages are not exponential, so about that) */
        double link = 1e8 / 4096 * (double)(a + 1);
        ck_assert_msg(r[5].iops <= link * 1.005 && r[5].iops >= link * (a ? 32.0 / 33 - 0.01 : 0.99),
                      "%zu: %g IOPS", a, r[5].iops);
        ck_assert_msg(near(q[5].bw_bytes, 1e8 * (a + 1), 0.01), "%zu: %g B/s", a, q[5].bw_bytes);
        for (size_t k = 1; k < SSDSIM_SCALING_N_QD; k++) /* deeper never slower */
            ck_assert(r[k].iops >= r[k - 1].iops * 0.99);
    }

    /* a callback stops it with its code; bad arguments */
    o.on_point = scaling_stop;
    ck_assert_int_eq(ssdsim_scaling_run(m, &o, &err), 7);
    ck_assert_int_eq(ssdsim_scaling_run(dev, &o, &err), SSDSIM_EINVAL);
    ck_assert_msg(strstr(err.message, "single device"), "%s", err.message);
    ck_assert_int_eq(ssdsim_scaling_run(NULL, &o, &err), SSDSIM_EINVAL);
    o.window_ns = 0;
    ck_assert_int_eq(ssdsim_scaling_run(m, &o, &err), SSDSIM_EINVAL);
    ck_assert_msg(strstr(err.message, "window_ns"), "%s", err.message);
    o.version = 99;
    ck_assert_int_eq(ssdsim_scaling_run(m, &o, &err), SSDSIM_EINVAL);
    ck_assert_int_eq(ssdsim_scaling_opts_init(&o, 99), SSDSIM_EINVAL);
    ck_assert_int_eq(ssdsim_scaling_opts_init(&o, 0), 0);
    ck_assert_uint_eq(o.version, SSDSIM_SCALING_OPTS_VERSION);
    ssdsim_model_free(dev);
    ssdsim_model_free(j);
    ssdsim_model_free(m);
}
END_TEST

/* With steady_writes, each array goes on to the review's heavy 4K points at steady state
 * (methodology section 1, item 6). A JBOD of 4 small drives on 2 controllers: 1 device, 2 (on
 * one controller, sharing its 100 MB/s link) and 4 (two per controller). Each device is its own
 * volume with 16 jobs of 16 deep, so the devices are alike and independent: the array's steady
 * writes are n times one device's (within 3%; they write 4640 IOPS each, 19 MB/s, well under the
 * link they share) at the same WAF (within 2%), and that WAF is garbage collection's (above
 * 2). The reads after them are bound by the links: 10^8 / 4096 = 24,414 IOPS per controller,
 * so 2 devices on one controller read no faster than 1, and 4 on two read twice as fast. */
START_TEST(test_suite_lib_scaling_steady_writes)
{
    ssdsim_model *j = small_system("scaling-jbod.json",
                                   "{\"name\": \"scaling-jbod\", \"system\": {\"member\": "
                                   "\"scaling-member.json\", \"count\": 4, \"layout\": "
                                   "\"jbod\", \"controllers\": 2}}");
    ssdsim_error err;
    struct scaling_seen x = {.n = 0};
    ssdsim_scaling_opts o = SSDSIM_SCALING_OPTS_INIT;
    o.window_ns = 200000000;
    o.seed = 1;
    o.on_point = scaling_point;
    o.on_steady = scaling_steady;
    o.userdata = &x;
    o.steady_writes = true;
    ck_assert_msg(ssdsim_scaling_run(j, &o, &err) == 0, "%s", err.message);
    ck_assert_uint_eq(x.n, 3);
    ck_assert_uint_eq(x.n_steady, 3);
    ck_assert_int_eq(x.steady_how, SSDSIM_STEADY_BY_FAST);
    const size_t k = SSDSIM_SCALING_STEADY_K;
    ck_assert_uint_eq(ssdsim_scaling_qd(k), 16);
    const ssdsim_measurement *w1 = &x.fig[0][SSDSIM_SCALING_RANDWRITE_STEADY][k];
    ck_assert_double_gt(w1->waf, 2.0);
    const double link = 1e8 / 4096;
    for (size_t a = 0; a < 3; a++) {
        const ssdsim_measurement *w = &x.fig[a][SSDSIM_SCALING_RANDWRITE_STEADY][k];
        const ssdsim_measurement *r = &x.fig[a][SSDSIM_SCALING_RANDREAD_STEADY][k];
        ck_assert_msg(near(w->iops, w1->iops * x.devices[a], 0.03), "%u devices: %g IOPS",
                      x.devices[a], w->iops);
        ck_assert_msg(near(w->waf, w1->waf, 0.02), "%u devices: WAF %g", x.devices[a], w->waf);
        ck_assert_uint_eq(w->n_ios, w->n_writes);
        ck_assert_uint_eq(r->n_writes, 0);
        double links = x.devices[a] == 4 ? 2 : 1; /* controllers in use */
        ck_assert_msg(r->iops <= link * links * 1.005 && r->iops >= link * links * 0.9,
                      "%u devices: %g read IOPS", x.devices[a], r->iops);
    }
    /* without steady_writes (and for a caller of version 1) no steady point */
    struct scaling_seen y = {.n = 0};
    o.userdata = &y;
    o.steady_writes = false;
    o.version = 1;
    ck_assert_msg(ssdsim_scaling_run(j, &o, &err) == 0, "%s", err.message);
    ck_assert_uint_eq(y.n_steady, 0);
    ck_assert_uint_eq(y.fig[0][SSDSIM_SCALING_RANDWRITE_STEADY][k].n_ios, 0);
    ssdsim_model_free(j);
}
END_TEST

/* A window's garbage-collection periods are counted on every device of a system: on a RAID-0
 * of 2 small drives (4 planes of 64-page blocks each), a window of 4 KiB random writes asked for
 * 30 blocks per plane holds at least 30 x 4 x 64 = 7,680 host pages per device, 15,360 in
 * all (each device gets half of them), not 7,680 in all (device 0's shape alone). */
START_TEST(test_suite_lib_window_gc_cycles_every_device)
{
    ssdsim_model *m = small_system("scaling-raid0.json",
                                   "{\"name\": \"scaling-raid0\", \"system\": {\"member\": "
                                   "\"scaling-member.json\", \"count\": 2, \"layout\": "
                                   "\"raid0\", \"stripe\": \"64KiB\", \"raid_us\": 3}}");
    ssdsim *sim = small_sim(m);
    ck_assert_int_eq(ssdsim_precondition_seq(sim), 0);
    ssdsim_workload *wl = NULL;
    ck_assert_int_eq(ssdsim_workload_new(&wl, "w", NULL), 0);
    ck_assert_int_eq(ssdsim_workload_set(wl, "rw", "randwrite", NULL), 0);
    ck_assert_int_eq(ssdsim_workload_set_int(wl, "bs", 4096, NULL), 0);
    ck_assert_int_eq(ssdsim_workload_set_int(wl, "iodepth", 32, NULL), 0);
    ssdsim_measure_opts mo = SSDSIM_MEASURE_OPTS_INIT;
    mo.window_ns = 10000000;
    mo.gc_cycles = 30;
    mo.min_ios = 1;
    mo.min_ios_per_slot = 1;
    mo.max_stretch = 1000; /* up to 10 s: the periods, not the cap, end it */
    ssdsim_measurement f;
    ck_assert_msg(ssdsim_measure(sim, wl, &mo, &f) == 0, "%s", ssdsim_errmsg(sim));
    ck_assert_msg(f.host_pages_written >= 30 * 4 * 64 * 2, "%llu host pages",
                  (unsigned long long)f.host_pages_written);
    ssdsim_workload_free(wl);
    ssdsim_free(sim);
    ssdsim_model_free(m);
}
END_TEST

/* A system behind a RAID card with a battery-backed write-back cache (the lab's RAID-5 of four
 * 15K disks, 512 MB cache) reaches the steady state of 4 KiB random writes with its cache filled
 * (ssdsim_fill_card_cache at the end of ssdsim_reach_steady, hard disks included): the writes
 * measured after it run at the disks' pace, not the cache's. Each host write puts two writes on
 * the disks (data and parity), and a disk moving its head takes at least its track-to-track seek
 * and write settle per write (200 + 500 us), so at most 4 / 0.7 ms / 2 = 2,857 IOPS. Before, the
 * empty cache took a 0.2 s window's writes at DRAM speed (487,005 IOPS). */
START_TEST(test_suite_lib_steady_state_fills_card_cache)
{
    char path[4096];
    ssdsim_model *m = NULL;
    ssdsim_error err;
    test_src_path(path, sizeof path, "models/ultrastar-15k600-x4-raid5-3ware.json");
    ck_assert_msg(ssdsim_model_load_file(&m, path, &err) == 0, "%s", err.message);
    ssdsim *sim = small_sim(m);
    ssdsim_suite_wl w;
    ssdsim_suite_wl_init(&w, 0);
    w.rw = "randwrite";
    w.bs = "4k";
    w.threads = 16;
    w.qd = 16;
    ssdsim_workload *wl = NULL;
    ck_assert_int_eq(ssdsim_suite_wl_workload(&wl, &w, &err), 0);
    ssdsim_steady_method how;
    ck_assert_msg(ssdsim_reach_steady(sim, wl, NULL, &how) == 0, "%s", ssdsim_errmsg(sim));
    ck_assert_int_eq(how, SSDSIM_STEADY_BY_NOTHING);
    ssdsim_measure_opts mo = SSDSIM_MEASURE_OPTS_INIT;
    mo.window_ns = 200000000;
    ssdsim_measurement f;
    ck_assert_msg(ssdsim_measure(sim, wl, &mo, &f) == 0, "%s", ssdsim_errmsg(sim));
    ck_assert_msg(f.iops > 0 && f.iops < 4 / 0.7e-3 / 2, "%g IOPS", f.iops);
    /* filling again: the cache is at its level, so the first rounds already hold it */
    ck_assert_int_eq(ssdsim_fill_card_cache(sim, wl), 0);
    ck_assert_int_eq(ssdsim_fill_card_cache(NULL, wl), SSDSIM_EINVAL);
    ck_assert_int_eq(ssdsim_fill_card_cache(sim, NULL), SSDSIM_EINVAL);
    ssdsim_workload_free(wl);
    ssdsim_free(sim);
    ssdsim_model_free(m);
}
END_TEST

/* The quick matrix on the lab's 3ware RAID-5 (512 MB write-back cache in front of four 15K
 * disks) as `--quick` runs it (0.2 s windows, 2 s tests, 30 s idle). 128 KiB random writes over
 * the first 5 GiB (test 17) fill the cache in their first 0.4 s: the fresh array's test runs
 * whole from its first request, as the written-full array's does (the idle time before it
 * drained the cache), and both give about 320 MB/s. Before, the fresh cell's 0.2 s window held
 * too few requests and ran again longer on the array its first run had filled: 60 MB/s, the
 * disks' rate, judged by the window's rate as staying clear of the cache, and `converged`,
 * which no fresh cell may be (hard disks count as preconditioned; 29 fresh cells had it). */
START_TEST(test_suite_lib_quick_card_cache_fresh)
{
    char path[4096];
    ssdsim_model *m = NULL;
    ssdsim_error err;
    test_src_path(path, sizeof path, "models/ultrastar-15k600-x4-raid5-3ware.json");
    ck_assert_msg(ssdsim_model_load_file(&m, path, &err) == 0, "%s", err.message);
    ssdsim *sim = small_sim(m);
    ssdsim_quick_opts o = SSDSIM_QUICK_OPTS_INIT;
    o.window_ns = 200000000;
    o.test_ns = 2000000000;
    o.idle_ns = UINT64_C(30000000000);
    o.seed = 1;
    ssdsim_quick_result *r = NULL;
    ck_assert_msg(ssdsim_quick_run(&r, sim, m, &o) == 0, "%s", ssdsim_errmsg(sim));
    ssdsim_measurement fresh, full;
    for (size_t j = 0; j < SSDSIM_QUICK_N_JOBS; j++) {
        ck_assert_int_eq(ssdsim_quick_get_cell(r, SSDSIM_QUICK_FRESH, 17, j, &fresh), 0);
        ck_assert_int_eq(ssdsim_quick_get_cell(r, SSDSIM_QUICK_FULL, 17, j, &full), 0);
        ck_assert_msg(fresh.ramp_ns == 0 && fresh.window_ns == o.test_ns, "ramp %llu window %llu",
                      (unsigned long long)fresh.ramp_ns, (unsigned long long)fresh.window_ns);
        ck_assert_msg(fresh.bw_bytes > 250e6 && near(fresh.bw_bytes, full.bw_bytes, 0.1),
                      "fresh %g, full %g B/s", fresh.bw_bytes, full.bw_bytes);
    }
    for (size_t i = 0; i < 20; i++)
        for (size_t j = 0; j < SSDSIM_QUICK_N_JOBS; j++) {
            ck_assert_int_eq(ssdsim_quick_get_cell(r, SSDSIM_QUICK_FRESH, i, j, &fresh), 0);
            ck_assert_msg(!fresh.steady, "fresh test %zu at job count %zu converged", i, j);
        }
    ssdsim_quick_free(r);
    ssdsim_free(sim);
    ssdsim_model_free(m);
}
END_TEST

/* A sweep point's fast preconditioning (ssdsim_point_precondition, as `ssdsim run --precondition
 * fast`) fills a RAID card's write-back cache too: a RAID-0 of 2 small drives behind a 32 MiB
 * card cache (1 GB/s into it). Each drive programs at most 4 dies / 200 us = 20,000 pages a
 * second, so at WAF 1 or more the array takes at most 40,000 4 KiB writes a second once the
 * cache is full. An empty cache would have taken 32 MiB more (8,192 writes) in a 50 ms window:
 * 160,000 IOPS more. */
START_TEST(test_suite_lib_point_precondition_fills_card_cache)
{
    ssdsim_model *m = small_system("scaling-card.json",
                                   "{\"name\": \"scaling-card\", \"system\": {\"member\": "
                                   "\"scaling-member.json\", \"count\": 2, \"layout\": "
                                   "\"raid0\", \"stripe\": \"64KiB\", \"cache\": \"32MiB\", "
                                   "\"cache_bw\": \"1GB/s\"}}");
    ssdsim *sim = small_sim(m);
    ssdsim_workload *wl = NULL;
    ck_assert_int_eq(ssdsim_workload_new(&wl, "w", NULL), 0);
    ck_assert_int_eq(ssdsim_workload_set(wl, "rw", "randwrite", NULL), 0);
    ck_assert_int_eq(ssdsim_workload_set_int(wl, "bs", 4096, NULL), 0);
    ck_assert_int_eq(ssdsim_workload_set_int(wl, "iodepth", 16, NULL), 0);
    ck_assert_int_eq(ssdsim_workload_set_int(wl, "numjobs", 16, NULL), 0);
    ssdsim_point_opts po = SSDSIM_POINT_OPTS_INIT;
    po.precondition = SSDSIM_PRECONDITION_FAST;
    ck_assert_msg(ssdsim_point_precondition(sim, wl, &po) == 0, "%s", ssdsim_errmsg(sim));
    ssdsim_measure_opts mo = SSDSIM_MEASURE_OPTS_INIT;
    mo.window_ns = 50000000;
    mo.max_stretch = 1;
    ssdsim_measurement f;
    ck_assert_msg(ssdsim_measure(sim, wl, &mo, &f) == 0, "%s", ssdsim_errmsg(sim));
    ck_assert_msg(f.iops > 0 && f.iops <= 40000, "%g IOPS", f.iops);
    ssdsim_workload_free(wl);
    ssdsim_free(sim);
    ssdsim_model_free(m);
}
END_TEST

/* ------------------------------------------------------------------------------------------ */
/* apps                                                                                        */

struct apps_seen {
    ssdsim_measurement pt[1 + SSDSIM_APPS_N_THREADS];
    bool seen[1 + SSDSIM_APPS_N_THREADS];
    ssdsim_interval iv[64];
    size_t n_iv;
    size_t order[8]; /* points in the order they came: 0 as recorded, k + 1 for threads k */
    size_t n_order;
};

static int apps_point(uint32_t threads, const ssdsim_measurement *m, void *ud)
{
    struct apps_seen *x = ud;
    ck_assert_uint_lt(x->n_order, 8);
    size_t k = 0;
    if (threads) {
        while (k < SSDSIM_APPS_N_THREADS && ssdsim_apps_threads(k) != threads)
            k++;
        ck_assert_uint_lt(k, SSDSIM_APPS_N_THREADS);
        k++;
    }
    x->pt[k] = *m;
    x->seen[k] = true;
    x->order[x->n_order++] = k;
    return 0;
}

static int apps_interval(size_t i, const ssdsim_interval *iv, void *ud)
{
    struct apps_seen *x = ud;
    ck_assert_uint_eq(i, x->n_iv);
    ck_assert_uint_lt(i, 64);
    x->iv[x->n_iv++] = *iv;
    return 0;
}

static int apps_stop(uint32_t threads, const ssdsim_measurement *m, void *ud)
{
    (void)threads, (void)m, (void)ud;
    return 9;
}

/* A CSV trace of `n` 4 KiB reads of units 0 .. n-1 in order, `gap_ns` apart, at `base` bytes. */
static void apps_trace(const char *path, unsigned n, uint64_t gap_ns, uint64_t base)
{
    GString *t = g_string_new("time_ns,device,op,offset,length\n");
    for (unsigned i = 0; i < n; i++)
        g_string_append_printf(t, "%" PRIu64 ",0,read,%" PRIu64 ",4096\n", i * gap_ns,
                               base + (uint64_t)i * 4096);
    write_file(path, t->str);
    g_string_free(t, TRUE);
}

/* The application suite on the small drive, written full. As recorded: 49 reads 1 ms apart
 * (span 48 ms), each alone on the drive, so each takes the QD1 read's 104.92 us; 24 intervals of
 * 2 ms hold 2 reads each (those at 2i and 2i + 1 ms, done 0.105 ms later), and a 25th, partial,
 * the read at 48 ms. Closed loop, the times ignored: every point completes the 49 reads `passes`
 * (3) times; 2 threads run at most twice one read's rate, 2 / 104.92 us = 19,062 IOPS, and more
 * than one thread's (9,531); 32 threads are bound by the 100 MB/s link, 10^8 / 4096 = 24,414
 * IOPS, less the first read's 104.92 us before the link is busy and the drain of the last 31
 * (147 reads take at least 147 x 40.96 us = 6.02 ms). Deeper is never slower. */
START_TEST(test_suite_lib_apps)
{
    char tr[4096], flat[4096], far[4096], empty[4096];
    out_path(tr, sizeof tr, "apps-trace.csv");
    out_path(flat, sizeof flat, "apps-flat.csv");
    out_path(far, sizeof far, "apps-far.csv");
    out_path(empty, sizeof empty, "apps-empty.csv");
    apps_trace(tr, 49, 1000000, 0);
    apps_trace(flat, 49, 0, 0);
    apps_trace(far, 4, 1000000, UINT64_C(1) << 40);
    write_file(empty, "time_ns,device,op,offset,length\n");
    ssdsim_model *m = small_model();
    ssdsim_error err;
    ck_assert_uint_eq(ssdsim_apps_threads(0), 2);
    ck_assert_uint_eq(ssdsim_apps_threads(SSDSIM_APPS_N_THREADS - 1), 32);
    ck_assert_uint_eq(ssdsim_apps_threads(SSDSIM_APPS_N_THREADS), 0);

    struct apps_seen x;
    memset(&x, 0, sizeof x);
    ssdsim_apps_opts o = SSDSIM_APPS_OPTS_INIT;
    o.trace_path = tr;
    o.passes = 3;
    o.seed = 1;
    o.on_point = apps_point;
    o.on_interval = apps_interval;
    o.userdata = &x;
    ck_assert_msg(ssdsim_apps_run(m, &o, &err) == 0, "%s", err.message);
    ck_assert_uint_eq(x.n_order, 1 + SSDSIM_APPS_N_THREADS);
    for (size_t k = 0; k <= SSDSIM_APPS_N_THREADS; k++)
        ck_assert_uint_eq(x.order[k], k); /* as recorded first, then 2 .. 32 threads */
    const ssdsim_measurement *r = &x.pt[0];
    ck_assert_uint_eq(r->n_ios, 49);
    ck_assert_msg(near(r->lat_mean_ns / 1e3, LAT_QD1_US, 1e-6), "%g", r->lat_mean_ns);
    ck_assert_uint_eq(r->lat_max_ns, (uint64_t)(LAT_QD1_US * 1000 + 0.5));
    ck_assert_uint_eq(x.n_iv, 25);
    uint64_t sum = 0;
    for (size_t i = 0; i < x.n_iv; i++) {
        sum += x.iv[i].n_ios;
        ck_assert_uint_eq(x.iv[i].n_ios, i < 24 ? 2 : 1);
        ck_assert_int_eq(x.iv[i].partial, i == 24);
        ck_assert_msg(near(x.iv[i].lat_ns_mean / 1e3, LAT_QD1_US, 1e-6), "%zu: %g", i,
                      x.iv[i].lat_ns_mean);
        if (i < 24)
            ck_assert_uint_eq(x.iv[i].t_ns, (i + 1) * 2000000);
    }
    ck_assert_uint_eq(sum, 49);
    for (size_t k = 1; k <= SSDSIM_APPS_N_THREADS; k++) {
        ck_assert_uint_eq(x.pt[k].n_ios, 3 * 49);
        if (k > 1)
            ck_assert_msg(x.pt[k].iops >= x.pt[k - 1].iops * 0.99, "%zu: %g < %g", k,
                          x.pt[k].iops, x.pt[k - 1].iops);
    }
    double one = 1e6 / LAT_QD1_US, link = 1e8 / 4096;
    ck_assert_msg(x.pt[1].iops <= 2 * one * 1.0001 && x.pt[1].iops > one, "%g", x.pt[1].iops);
    double t32 = LAT_QD1_US * 1e-6 + 147 * 4096 / 1e8;
    ck_assert_msg(x.pt[5].iops <= link * 1.0001 && x.pt[5].iops >= 147 / (t32 + 31 * LAT_QD1_US * 1e-6),
                  "%g", x.pt[5].iops);

    /* Same options, same figures. */
    struct apps_seen y;
    memset(&y, 0, sizeof y);
    o.userdata = &y;
    ck_assert_int_eq(ssdsim_apps_run(m, &o, &err), 0);
    for (size_t k = 0; k <= SSDSIM_APPS_N_THREADS; k++)
        ck_assert(x.pt[k].iops == y.pt[k].iops && x.pt[k].lat_mean_ns == y.pt[k].lat_mean_ns);

    /* A trace without times: no replay as recorded; fewer intervals asked: fewer given. */
    memset(&x, 0, sizeof x);
    o.userdata = &x;
    o.trace_path = flat;
    ck_assert_int_eq(ssdsim_apps_run(m, &o, &err), 0);
    ck_assert(!x.seen[0] && x.n_iv == 0 && x.n_order == SSDSIM_APPS_N_THREADS);
    memset(&x, 0, sizeof x);
    o.trace_path = tr;
    o.intervals = 4; /* of 12 ms: 12 reads each, then the last alone */
    o.passes = 1;
    ck_assert_int_eq(ssdsim_apps_run(m, &o, &err), 0);
    ck_assert_uint_eq(x.n_iv, 5);
    ck_assert(x.iv[0].n_ios == 12 && x.iv[3].n_ios == 12 && x.iv[4].n_ios == 1);

    /* Beyond the drive: an error naming the trace, or wrapped with wrap. */
    memset(&x, 0, sizeof x);
    o.on_interval = NULL;
    o.trace_path = far;
    ck_assert_int_lt(ssdsim_apps_run(m, &o, &err), 0);
    ck_assert_msg(strstr(err.message, "as recorded"), "%s", err.message);
    o.wrap = true;
    ck_assert_msg(ssdsim_apps_run(m, &o, &err) == 0, "%s", err.message);

    /* A JBOD of 2 small drives, a controller (and link) each: one node per drive, the trace
     * replayed on both at once, so 98 reads as recorded, each still alone on its drive
     * (104.92 us), and every closed-loop point completes 2 x 49 reads. */
    char member[4096], jbod[4096];
    out_path(member, sizeof member, "apps-member.json");
    out_path(jbod, sizeof jbod, "apps-jbod.json");
    write_file(member, small_json);
    write_file(jbod, "{\"name\": \"apps-jbod\", \"system\": {\"member\": \"apps-member.json\", "
                     "\"count\": 2, \"layout\": \"jbod\", \"controllers\": 2}}");
    ssdsim_model *jm = NULL;
    ck_assert_msg(ssdsim_model_load_file(&jm, jbod, &err) == 0, "%s", err.message);
    memset(&x, 0, sizeof x);
    o.on_point = apps_point;
    o.userdata = &x;
    o.trace_path = tr;
    o.wrap = false;
    ck_assert_msg(ssdsim_apps_run(jm, &o, &err) == 0, "%s", err.message);
    ck_assert_uint_eq(x.pt[0].n_ios, 98);
    ck_assert_msg(near(x.pt[0].lat_mean_ns / 1e3, LAT_QD1_US, 1e-6), "%g", x.pt[0].lat_mean_ns);
    for (size_t k = 1; k <= SSDSIM_APPS_N_THREADS; k++)
        ck_assert_uint_eq(x.pt[k].n_ios, 98);
    /* a source sent to a volume the model does not have is refused, naming it */
    {
        ssdsim *js = small_sim(jm);
        ssdsim_trace *t = NULL;
        ck_assert_int_eq(ssdsim_trace_open(&t, tr, NULL, &err), 0);
        ssdsim_source src;
        ssdsim_trace_as_source(t, &src);
        ssdsim_replay_opts rp = SSDSIM_REPLAY_OPTS_INIT;
        rp.volume = 2;
        ck_assert_int_eq(ssdsim_run_source(js, &src, &rp, NULL), SSDSIM_ECONFIG);
        ck_assert_msg(strstr(ssdsim_errmsg(js), "volume: 2 is beyond the model's volumes (2: 0 "
                                                "to 1)"),
                      "%s", ssdsim_errmsg(js));
        /* refused before the run starts: the simulation stays usable (a run that failed once
         * started would end it) */
        rp.volume = 1;
        ck_assert_int_eq(ssdsim_trace_rewind(t, &err), 0);
        ck_assert_msg(ssdsim_run_source(js, &src, &rp, NULL) == 0, "%s", ssdsim_errmsg(js));
        ssdsim_trace_close(t);
        ssdsim_free(js);
    }
    ssdsim_model_free(jm);

    /* A callback stops it with its code; bad arguments. */
    o.on_point = apps_stop;
    o.trace_path = tr;
    ck_assert_int_eq(ssdsim_apps_run(m, &o, &err), 9);
    o.trace_path = empty;
    ck_assert_int_eq(ssdsim_apps_run(m, &o, &err), SSDSIM_EINVAL);
    ck_assert_msg(strstr(err.message, "no request"), "%s", err.message);
    o.trace_path = "/nonexistent/apps.csv";
    ck_assert_int_eq(ssdsim_apps_run(m, &o, &err), SSDSIM_EIO);
    ck_assert_msg(strstr(err.message, "/nonexistent/apps.csv"), "%s", err.message);
    o.trace_path = NULL;
    ck_assert_int_eq(ssdsim_apps_run(m, &o, &err), SSDSIM_EINVAL);
    ck_assert_msg(strstr(err.message, "trace_path"), "%s", err.message);
    o.trace_path = tr;
    o.intervals = 10001;
    ck_assert_int_eq(ssdsim_apps_run(m, &o, &err), SSDSIM_EINVAL);
    ck_assert_msg(strstr(err.message, "intervals"), "%s", err.message);
    o.intervals = 0;
    o.time_scale = -1;
    ck_assert_int_eq(ssdsim_apps_run(m, &o, &err), SSDSIM_EINVAL);
    o.time_scale = 0;
    ck_assert_int_eq(ssdsim_apps_run(NULL, &o, &err), SSDSIM_EINVAL);
    ck_assert_int_eq(ssdsim_apps_run(m, NULL, &err), SSDSIM_EINVAL);
    o.version = 99;
    ck_assert_int_eq(ssdsim_apps_run(m, &o, &err), SSDSIM_EINVAL);
    ck_assert_int_eq(ssdsim_apps_opts_init(&o, 99), SSDSIM_EINVAL);
    ck_assert_int_eq(ssdsim_apps_opts_init(&o, 0), 0);
    ck_assert_uint_eq(o.version, SSDSIM_APPS_OPTS_VERSION);
    ssdsim_model_free(m);
}
END_TEST

static Suite *suite_lib_suite(void)
{
    Suite *s = suite_create("suite_lib");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 600);
    tcase_add_test(tc, test_suite_lib_wl_options);
    tcase_add_test(tc, test_suite_lib_wl_workload);
    tcase_add_test(tc, test_suite_lib_curve_blocks_per_plane);
    tcase_add_test(tc, test_suite_lib_snia_cells);
    tcase_add_test(tc, test_suite_lib_snia_sequence_and_the_command);
    tcase_add_test(tc, test_suite_lib_snia_stopped_by_a_callback);
    tcase_add_test(tc, test_suite_lib_quick_tests_and_cells);
    tcase_add_test(tc, test_suite_lib_quick_run);
    tcase_add_test(tc, test_suite_lib_quick_full_leaves_nothing_unmapped);
    tcase_add_test(tc, test_suite_lib_review);
    tcase_add_test(tc, test_suite_lib_eol_projection);
    tcase_add_test(tc, test_suite_lib_eol_bad_options);
    tcase_add_test(tc, test_suite_lib_endurance);
    tcase_add_test(tc, test_suite_lib_scaling);
    tcase_add_test(tc, test_suite_lib_scaling_steady_writes);
    tcase_add_test(tc, test_suite_lib_window_gc_cycles_every_device);
    tcase_add_test(tc, test_suite_lib_steady_state_fills_card_cache);
    tcase_add_test(tc, test_suite_lib_quick_card_cache_fresh);
    tcase_add_test(tc, test_suite_lib_point_precondition_fills_card_cache);
    tcase_add_test(tc, test_suite_lib_apps);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return test_run_suite(suite_lib_suite());
}
