/* test_fiojson.c: ssdsim_results_fio_json (libssdsim/results_fio.c), the results in the layout
 * of fio's JSON output.
 *
 * Small simulations run through the public API; an observer counts every request on its own,
 * and the document is parsed with cJSON and checked against those counts and against the
 * per-job figures of ssdsim_get_job_op_stats: I/O counts and bytes, runtime, rates, latency
 * statistics, percentiles (monotonic, inside [min, max], present among the json+ bins), fio's
 * latency classes (against the latencies the observer saw), job options, reporting groups and
 * the steady-state object. tests/test_fiojson.sh then feeds the command's output to fio's own
 * tools.
 */
#include <cjson/cJSON.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "simtest.h"
#include "ssdsim/ssdsim.h"
#include "testutil.h"

/* ------------------------------------------------------------------------------------------ */
/* Helpers                                                                                     */

/* What the observer saw, per job clone and op; every latency is kept (the runs are small). */
#define MAX_CLONES 8
#define MAX_LATS 65536
struct seen {
    uint64_t ios[MAX_CLONES][3], bytes[MAX_CLONES][3];
    uint64_t lat[MAX_LATS];
    size_t n_lat;
};

static void seen_complete(const ssdsim_completion *c, void *ud)
{
    struct seen *s = ud;
    ck_assert_uint_lt(c->job, MAX_CLONES);
    s->ios[c->job][c->op]++;
    s->bytes[c->job][c->op] += c->length;
    ck_assert_uint_lt(s->n_lat, MAX_LATS);
    s->lat[s->n_lat++] = c->complete_ns - c->submit_ns;
}

static ssdsim_model *small_model(void)
{
    return st_model("generic-mlc", "geometry.blocks_per_plane=64", NULL);
}

/* Run `wl` on a fresh small device with an observer; returns the simulation. */
static ssdsim *run_observed(const ssdsim_workload *wl, struct seen *s, const ssdsim_run_opts *ro)
{
    ssdsim_model *m = small_model();
    ssdsim *sim = st_sim(m, 7);
    ssdsim_model_free(m);
    memset(s, 0, sizeof *s);
    ssdsim_observer obs = {.on_complete = seen_complete, .userdata = s};
    ssdsim_set_observer(sim, &obs);
    int rc = ssdsim_run(sim, wl, ro);
    ck_assert_msg(rc == 0, "run failed: %s", ssdsim_errmsg(sim));
    ssdsim_set_observer(sim, NULL);
    return sim;
}

static cJSON *fio_json(const ssdsim *sim, const ssdsim_workload *wl)
{
    char *text = ssdsim_results_fio_json(sim, wl);
    ck_assert_ptr_nonnull(text);
    cJSON *root = cJSON_Parse(text);
    ck_assert_msg(root != NULL, "not JSON: %.300s", text);
    free(text);
    return root;
}

static const cJSON *get(const cJSON *o, const char *key)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
    ck_assert_msg(v != NULL, "key '%s' missing", key);
    return v;
}

static double num(const cJSON *o, const char *key)
{
    const cJSON *v = get(o, key);
    ck_assert_msg(cJSON_IsNumber(v), "'%s' is not a number", key);
    return v->valuedouble;
}

/* An integer figure, checked to be printed as one (no fraction, no exponent). */
static uint64_t u64(const cJSON *o, const char *key)
{
    double v = num(o, key);
    ck_assert_msg(v >= 0 && v == floor(v) && v < 9007199254740992.0, "'%s' = %f", key, v);
    return (uint64_t)v;
}

static const char *str(const cJSON *o, const char *key)
{
    const cJSON *v = get(o, key);
    ck_assert_msg(cJSON_IsString(v), "'%s' is not a string", key);
    return v->valuestring;
}

static void assert_close(double got, double want, double tol, const char *what)
{
    ck_assert_msg(fabs(got - want) <= tol, "%s: %.9g, want %.9g (+-%g)", what, got, want, tol);
}

static const char *const dirs[3] = {"read", "write", "trim"};

static const char *const pct_keys[17] = {
    "1.000000",  "5.000000",  "10.000000", "20.000000", "30.000000", "40.000000",
    "50.000000", "60.000000", "70.000000", "80.000000", "90.000000", "95.000000",
    "99.000000", "99.500000", "99.900000", "99.950000", "99.990000"};

/* Every per-direction figure of job entry `job` against reported job `i` of the simulation. */
static void check_direction(const ssdsim *sim, size_t i, const cJSON *job, int d)
{
    ssdsim_op_stats st;
    ssdsim_job_info ji;
    ck_assert_int_eq(ssdsim_get_job_op_stats(sim, i, (enum ssdsim_op)d, &st), 0);
    ck_assert_int_eq(ssdsim_get_job(sim, i, &ji), 0);
    const cJSON *o = get(job, dirs[d]);
    uint64_t ios = u64(o, "total_ios");
    ck_assert_uint_eq(ios, st.count);
    ck_assert_uint_eq(u64(o, "io_bytes"), st.bytes);
    ck_assert_uint_eq(u64(o, "io_kbytes"), st.bytes / 1024);
    ck_assert_uint_eq(u64(o, "short_ios"), 0);
    ck_assert_uint_eq(u64(o, "drop_ios"), 0);
    uint64_t runtime_ns = ji.end_ns - (ji.start_ns + ji.ramp_ns);
    uint64_t runtime_ms = u64(o, "runtime");
    if (ios == 0) {
        ck_assert_uint_eq(runtime_ms, 0);
        ck_assert_uint_eq(u64(o, "bw_bytes"), 0);
        ck_assert(num(o, "iops") == 0);
        ck_assert_msg(!cJSON_GetObjectItem(get(o, "clat_ns"), "percentile"),
                      "percentiles without samples");
        ck_assert_uint_eq(u64(get(o, "clat_ns"), "N"), 0);
        return;
    }
    /* Runtime: the job's, in whole ms (rounded); the rates come from the exact runtime. */
    ck_assert_uint_eq(runtime_ms, (runtime_ns + 500000) / 1000000);
    ck_assert_uint_eq(u64(job, "job_runtime"), runtime_ms);
    double t = (double)runtime_ns / 1e9;
    assert_close(num(o, "iops"), (double)ios / t, 1e-6 * ios / t + 1e-6, "iops");
    /* ... so iops = total_ios / runtime within the rounding of runtime to ms. */
    double from_ms = (double)ios / ((double)runtime_ms / 1000.0);
    assert_close(num(o, "iops"), from_ms, from_ms * 0.5 / ((double)runtime_ms - 0.5) + 1e-6,
                 "iops from runtime (ms)");
    uint64_t bw_bytes = u64(o, "bw_bytes");
    assert_close((double)bw_bytes, (double)st.bytes / t, 1.0, "bw_bytes");
    ck_assert_uint_eq(u64(o, "bw"), bw_bytes / 1024);

    /* The simulated host has no submission latency. */
    const cJSON *slat = get(o, "slat_ns");
    ck_assert_uint_eq(u64(slat, "N"), 0);
    ck_assert(num(slat, "mean") == 0 && num(slat, "max") == 0);

    const cJSON *clat = get(o, "clat_ns"), *lat = get(o, "lat_ns");
    for (int k = 0; k < 2; k++) {
        const cJSON *l = k ? lat : clat;
        ck_assert_uint_eq(u64(l, "N"), ios);
        ck_assert_uint_eq(u64(l, "min"), st.lat_min_ns);
        ck_assert_uint_eq(u64(l, "max"), st.lat_max_ns);
        assert_close(num(l, "mean"), st.lat_mean_ns, 1e-6 + 1e-12 * st.lat_mean_ns, "lat mean");
        /* fio's standard deviation is the sample one (n - 1). */
        double n = (double)ios;
        double sd = ios > 1 ? st.lat_stddev_ns * sqrt(n / (n - 1)) : 0;
        assert_close(num(l, "stddev"), sd, 1e-6 + 1e-9 * sd, "lat stddev");
    }
    ck_assert_msg(!cJSON_GetObjectItem(lat, "percentile"), "lat_ns has percentiles (fio: clat)");

    /* Percentiles: fio's 17 defaults, monotonic, inside [min, max], each one a bin key; the
     * bins hold every sample, and p50 agrees with ssdsim_get_job_op_stats. */
    const cJSON *pc = get(clat, "percentile");
    ck_assert_int_eq(cJSON_GetArraySize(pc), 17);
    const cJSON *bins = get(clat, "bins");
    uint64_t prev = 0, mn = u64(clat, "min"), mx = u64(clat, "max");
    for (int k = 0; k < 17; k++) {
        uint64_t v = u64(pc, pct_keys[k]);
        ck_assert_msg(v >= prev && v >= mn && v <= mx,
                      "percentile %s = %llu (prev %llu, "
                      "[%llu, %llu])",
                      pct_keys[k], (unsigned long long)v, (unsigned long long)prev,
                      (unsigned long long)mn, (unsigned long long)mx);
        char key[32];
        snprintf(key, sizeof key, "%llu", (unsigned long long)v);
        ck_assert_msg(cJSON_GetObjectItemCaseSensitive(bins, key), "no bin %s", key);
        prev = v;
    }
    ck_assert_uint_eq(u64(pc, "50.000000"), st.lat_p50_ns);
    ck_assert_uint_eq(u64(pc, "90.000000"), st.lat_p90_ns);
    ck_assert_uint_eq(u64(pc, "99.000000"), st.lat_p99_ns);
    uint64_t in_bins = 0;
    const cJSON *b;
    cJSON_ArrayForEach(b, bins)
    {
        char *end;
        unsigned long long key = strtoull(b->string, &end, 10);
        ck_assert_msg(*end == 0 && key >= mn && key <= mx, "bin key '%s'", b->string);
        in_bins += (uint64_t)b->valuedouble;
    }
    ck_assert_uint_eq(in_bins, ios);

    /* Rate samples: none, or the time series' (only with one job and one direction). */
    uint64_t samples = u64(o, "bw_samples");
    ck_assert_uint_eq(u64(o, "iops_samples"), samples);
    ck_assert_uint_le(u64(o, "bw_min"), u64(o, "bw_max"));
    ck_assert(num(o, "bw_mean") >= (double)u64(o, "bw_min") - 1e-6);
    ck_assert(num(o, "bw_mean") <= (double)u64(o, "bw_max") + 1);
    ck_assert(num(o, "iops_mean") >= (double)u64(o, "iops_min") - 1e-6);
    ck_assert(num(o, "iops_mean") <= (double)u64(o, "iops_max") + 1);
    ck_assert(num(o, "bw_agg") > 0 && num(o, "bw_agg") <= 100);
    if (samples == 0) {
        ck_assert_uint_eq(u64(o, "bw_min"), u64(o, "bw"));
        ck_assert(num(o, "bw_dev") == 0 && num(o, "iops_stddev") == 0);
        assert_close(num(o, "iops_mean"), num(o, "iops"), 1e-6, "iops_mean");
    }
}

/* fio's latency classes, in ns: class c holds [edge[c], edge[c + 1]). */
/* clang-format off */
static const uint64_t edges[33] = {
    0, 2, 4, 10, 20, 50, 100, 250, 500, 750,
    1000, 2000, 4000, 10000, 20000, 50000, 100000, 250000, 500000, 750000,
    1000000, 2000000, 4000000, 10000000, 20000000, 50000000, 100000000, 250000000, 500000000,
    750000000, 1000000000, 2000000000, UINT64_MAX};
/* clang-format on */

/* latency_ns / _us / _ms against the observer's latencies (a single-job run). Samples within
 * a histogram bucket (< 1/128) of a class edge may be split between the two classes. */
static void check_lat_classes(const cJSON *job, const struct seen *s)
{
    double exact[32] = {0}, near[32] = {0};
    for (size_t i = 0; i < s->n_lat; i++) {
        uint64_t v = s->lat[i];
        int c = 0;
        while (v >= edges[c + 1])
            c++;
        exact[c]++;
        for (int e = 1; e < 32; e++) {
            double E = (double)edges[e];
            if (fabs((double)v - E) <= E / 64.0 + 1) {
                near[e - 1]++;
                near[e]++;
            }
        }
    }
    const char *groups[3] = {"latency_ns", "latency_us", "latency_ms"};
    double total = 0;
    int c = 0;
    for (int g = 0; g < 3; g++) {
        const cJSON *o = get(job, groups[g]);
        ck_assert_int_eq(cJSON_GetArraySize(o), g == 2 ? 12 : 10);
        const cJSON *item;
        cJSON_ArrayForEach(item, o)
        {
            double want = 100.0 * exact[c] / (double)s->n_lat;
            double tol = 100.0 * near[c] / (double)s->n_lat + 0.011;
            assert_close(item->valuedouble, want, tol, item->string);
            total += item->valuedouble;
            c++;
        }
    }
    ck_assert_int_eq(c, 32);
    assert_close(total, 100.0, 0.35, "latency classes add up");
}

static void check_top(const cJSON *root, size_t n_jobs)
{
    const char *v = str(root, "fio version");
    ck_assert_msg(strncmp(v, "ssdsim-", 7) == 0, "fio version '%s'", v);
    ck_assert_str_eq(v + 7, ssdsim_version());
    ck_assert_uint_eq(u64(root, "timestamp"), 0);
    ck_assert_uint_eq(u64(root, "timestamp_ms"), 0);
    str(root, "time");
    ck_assert(cJSON_IsObject(get(root, "global options")));
    ck_assert(cJSON_IsArray(get(root, "disk_util")));
    const cJSON *jobs = get(root, "jobs");
    ck_assert(cJSON_IsArray(jobs));
    ck_assert_int_eq(cJSON_GetArraySize(jobs), (int)n_jobs);
}

/* The keys fio 3.33 writes for every job, in its order. */
static void check_job_keys(const cJSON *job)
{
    /* clang-format off */
    static const char *const keys[] = {
        "jobname", "groupid", "error", "eta", "elapsed", "job options", "read", "write", "trim",
        "sync", "job_runtime", "usr_cpu", "sys_cpu", "ctx", "majf", "minf", "iodepth_level",
        "iodepth_submit", "iodepth_complete", "latency_ns", "latency_us", "latency_ms",
        "latency_depth", "latency_target", "latency_percentile", "latency_window"};
    /* clang-format on */
    const cJSON *item = job->child;
    for (size_t k = 0; k < sizeof keys / sizeof keys[0]; k++, item = item->next) {
        ck_assert_msg(item != NULL, "job ends before '%s'", keys[k]);
        ck_assert_str_eq(item->string, keys[k]);
    }
    ck_assert_uint_eq(u64(job, "error"), 0);
    ck_assert_uint_eq(u64(get(job, "sync"), "total_ios"), 0);
}

/* ------------------------------------------------------------------------------------------ */
/* Tests                                                                                       */

START_TEST(test_fiojson_one_job)
{
    ssdsim_workload *wl =
        st_workload("{\"rw\":\"randwrite\",\"bs\":\"4k\",\"iodepth\":4,\"number_ios\":600}");
    static struct seen s; /* large: not on the stack */
    ssdsim *sim = run_observed(wl, &s, NULL);
    cJSON *root = fio_json(sim, wl);
    check_top(root, 1);
    const cJSON *job = cJSON_GetArrayItem(get(root, "jobs"), 0);
    check_job_keys(job);
    ck_assert_str_eq(str(job, "jobname"), "job");
    ck_assert_uint_eq(u64(job, "groupid"), 0);
    /* The I/O count from the workload (number_ios x numjobs) and from the observer. */
    const cJSON *w = get(job, "write");
    ck_assert_uint_eq(u64(w, "total_ios"), 600);
    ck_assert_uint_eq(s.ios[0][SSDSIM_OP_WRITE], 600);
    ck_assert_uint_eq(u64(w, "io_bytes"), 600 * 4096);
    ck_assert_uint_eq(s.bytes[0][SSDSIM_OP_WRITE], 600 * 4096);
    for (int d = 0; d < 3; d++)
        check_direction(sim, 0, job, d);
    check_lat_classes(job, &s);
    /* job options: the workload's options as written. */
    const cJSON *jo = get(job, "job options");
    ck_assert_str_eq(str(jo, "rw"), "randwrite");
    ck_assert_str_eq(str(jo, "bs"), "4k");
    ck_assert_str_eq(str(jo, "iodepth"), "4");
    ck_assert_str_eq(str(jo, "number_ios"), "600");
    ck_assert_uint_eq(u64(job, "latency_depth"), 4);
    ck_assert_uint_eq(u64(job, "elapsed"), (ssdsim_sim_time_ns(sim) + 999999999) / 1000000000);
    ck_assert_ptr_null(cJSON_GetObjectItem(job, "steadystate"));
    /* The same simulation gives the same text; without the workload, no job options. */
    char *a = ssdsim_results_fio_json(sim, wl), *b = ssdsim_results_fio_json(sim, wl);
    ck_assert_str_eq(a, b);
    free(a);
    free(b);
    cJSON *bare = fio_json(sim, NULL);
    ck_assert_int_eq(
        cJSON_GetArraySize(get(cJSON_GetArrayItem(get(bare, "jobs"), 0), "job options")), 0);
    cJSON_Delete(bare);
    cJSON_Delete(root);
    ssdsim_free(sim);
    ssdsim_workload_free(wl);
}
END_TEST

/* With one job of one direction and a time series, the rate samples are the series rows. */
START_TEST(test_fiojson_samples_from_series)
{
    ssdsim_workload *wl =
        st_workload("{\"rw\":\"randwrite\",\"bs\":\"4k\",\"iodepth\":8,\"number_ios\":2000}");
    static struct seen s; /* large: not on the stack */
    ssdsim_run_opts ro = {.interval_ns = 20000000};
    ssdsim *sim = run_observed(wl, &s, &ro);
    size_t n = ssdsim_n_intervals(sim);
    ck_assert_uint_ge(n, 3);
    cJSON *root = fio_json(sim, wl);
    const cJSON *job = cJSON_GetArrayItem(get(root, "jobs"), 0);
    const cJSON *w = get(job, "write");
    /* The last row is shorter than 20 ms unless the run ended on a boundary. */
    ssdsim_interval last, before;
    ssdsim_get_interval(sim, n - 1, &last);
    ssdsim_get_interval(sim, n - 2, &before);
    size_t want = last.t_ns - before.t_ns < ro.interval_ns ? n - 1 : n;
    ck_assert_uint_eq(u64(w, "bw_samples"), want);
    double mn = INFINITY, mx = 0, sum = 0;
    for (size_t i = 0; i < want; i++) {
        ssdsim_interval iv;
        ssdsim_get_interval(sim, i, &iv);
        mn = fmin(mn, iv.iops);
        mx = fmax(mx, iv.iops);
        sum += iv.iops;
    }
    ck_assert_uint_eq(u64(w, "iops_min"), (uint64_t)mn);
    ck_assert_uint_eq(u64(w, "iops_max"), (uint64_t)mx);
    assert_close(num(w, "iops_mean"), sum / (double)want, 1e-5, "iops_mean");
    check_direction(sim, 0, job, SSDSIM_OP_WRITE);
    cJSON_Delete(root);
    ssdsim_free(sim);
    ssdsim_workload_free(wl);
}
END_TEST

/* numjobs clones are reported one by one, named after their section, each with its own
 * figures; a mixed workload fills read and write. */
START_TEST(test_fiojson_clones)
{
    ssdsim_workload *wl = st_workload("{\"rw\":\"randrw\",\"rwmixread\":30,\"bs\":\"8k\","
                                      "\"iodepth\":2,\"numjobs\":3,\"number_ios\":300}");
    static struct seen s; /* large: not on the stack */
    ssdsim *sim = run_observed(wl, &s, NULL);
    cJSON *root = fio_json(sim, wl);
    check_top(root, 3);
    ck_assert_uint_eq(ssdsim_n_jobs(sim), 3);
    for (int i = 0; i < 3; i++) {
        const cJSON *job = cJSON_GetArrayItem(get(root, "jobs"), i);
        check_job_keys(job);
        ck_assert_str_eq(str(job, "jobname"), "job");
        uint64_t total = 0;
        for (int d = 0; d < 3; d++) {
            check_direction(sim, (size_t)i, job, d);
            const cJSON *o = get(job, dirs[d]);
            ck_assert_uint_eq(u64(o, "total_ios"), s.ios[i][d]);
            ck_assert_uint_eq(u64(o, "io_bytes"), s.ios[i][d] * 8192);
            total += u64(o, "total_ios");
        }
        ck_assert_uint_eq(total, 300);
        ck_assert_uint_gt(u64(get(job, "read"), "total_ios"), 0);
        ck_assert_uint_gt(u64(get(job, "write"), "total_ios"), 0);
        ck_assert_str_eq(str(get(job, "job options"), "numjobs"), "3");
    }
    cJSON_Delete(root);
    ssdsim_free(sim);
    ssdsim_workload_free(wl);
}
END_TEST

/* A fio job file: two sections, globals, an alias, a stonewall (a new reporting group) and
 * group_reporting. */
START_TEST(test_fiojson_jobfile)
{
    char path[1024];
    mkdir(BUILDDIR "/tests", 0777);
    mkdir(BUILDDIR "/tests/out", 0777);
    snprintf(path, sizeof path, "%s/tests/out/fiojson-two.fio", BUILDDIR);
    FILE *f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    fputs("; two jobs, the second after the first\n"
          "[global]\n"
          "ioengine=libaio\n"
          "bs=4k\n"
          "iodepth=2\n"
          "size=64m\n"
          "\n"
          "[writers]\n"
          "readwrite=randwrite\n"
          "number_ios=200\n"
          "numjobs=2\n"
          "\n"
          "[readers]\n"
          "stonewall\n"
          "rw=randread\n"
          "number_ios=100\n"
          "numjobs=2\n"
          "group_reporting\n",
          f);
    ck_assert_int_eq(fclose(f), 0);
    ssdsim_workload *wl = NULL;
    ssdsim_error err;
    int rc = ssdsim_workload_load_file(&wl, path, &err);
    ck_assert_msg(rc == 0, "%s", err.message);
    static struct seen s; /* large: not on the stack */
    ssdsim *sim = run_observed(wl, &s, NULL);
    cJSON *root = fio_json(sim, wl);
    /* writers: two clones; readers: one group_reporting entry for both. */
    check_top(root, 3);
    const char *names[3] = {"writers", "writers", "readers"};
    for (int i = 0; i < 3; i++) {
        const cJSON *job = cJSON_GetArrayItem(get(root, "jobs"), i);
        check_job_keys(job);
        ck_assert_str_eq(str(job, "jobname"), names[i]);
        ck_assert_uint_eq(u64(job, "groupid"), i < 2 ? 0 : 1);
        for (int d = 0; d < 3; d++)
            check_direction(sim, (size_t)i, job, d);
        const cJSON *jo = get(job, "job options");
        ck_assert_str_eq(str(jo, "bs"), "4k");                             /* from [global] */
        ck_assert_str_eq(str(jo, "rw"), i < 2 ? "randwrite" : "randread"); /* readwrite= */
        ck_assert_ptr_null(cJSON_GetObjectItem(jo, "readwrite"));
        ck_assert_ptr_null(cJSON_GetObjectItem(jo, "stonewall")); /* no value: left out */
    }
    const cJSON *w0 = get(cJSON_GetArrayItem(get(root, "jobs"), 0), "write");
    ck_assert_uint_eq(u64(w0, "total_ios"), 200);
    ck_assert_uint_eq(s.ios[0][SSDSIM_OP_WRITE] + s.ios[1][SSDSIM_OP_WRITE], 400);
    const cJSON *r = get(cJSON_GetArrayItem(get(root, "jobs"), 2), "read");
    ck_assert_uint_eq(u64(r, "total_ios"), 200); /* 2 x 100, reported together */
    ck_assert_uint_eq(u64(r, "io_bytes"), 200 * 4096);
    cJSON_Delete(root);
    ssdsim_free(sim);
    ssdsim_workload_free(wl);
}
END_TEST

/* ss=: fio's steadystate object, with the window's samples. */
START_TEST(test_fiojson_steadystate)
{
    ssdsim_workload *wl = st_workload(
        "{\"rw\":\"randread\",\"bs\":\"4k\",\"iodepth\":4,\"time_based\":\"1\",\"runtime\":\"30\","
        "\"rate_iops\":\"1000\",\"ss\":\"iops:50%\",\"ss_dur\":\"3\"}");
    static struct seen s; /* large: not on the stack */
    ssdsim *sim = run_observed(wl, &s, NULL);
    ssdsim_job_info ji;
    ck_assert_int_eq(ssdsim_get_job(sim, 0, &ji), 0);
    ck_assert(ji.ss_set);
    cJSON *root = fio_json(sim, wl);
    const cJSON *job = cJSON_GetArrayItem(get(root, "jobs"), 0);
    const cJSON *ss = get(job, "steadystate");
    ck_assert_str_eq(str(ss, "ss"), "iops:50.000000%");
    ck_assert_uint_eq(u64(ss, "duration"), 3);
    ck_assert_uint_eq(u64(ss, "attained"), ji.ss_attained ? 1 : 0);
    ck_assert(ji.ss_attained); /* reads of an empty drive are steady at once */
    char want[64];
    snprintf(want, sizeof want, "%f%%", (float)ji.ss_value);
    ck_assert_str_eq(str(ss, "criterion"), want);
    ck_assert(num(ss, "slope") == 0);
    const cJSON *data = get(ss, "data");
    const cJSON *iops = get(data, "iops"), *bw = get(data, "bw");
    ck_assert_int_eq(cJSON_GetArraySize(iops), 3);
    ck_assert_int_eq(cJSON_GetArraySize(bw), 3);
    double sum = 0;
    for (int k = 0; k < 3; k++) {
        double v = cJSON_GetArrayItem(iops, k)->valuedouble;
        ck_assert(v > 0);
        assert_close(cJSON_GetArrayItem(bw, k)->valuedouble, v * 4096, 0.5, "ss bw");
        sum += v;
    }
    ck_assert_uint_eq(u64(data, "iops_mean"), (uint64_t)(sum / 3));
    ck_assert_str_eq(str(get(job, "job options"), "steadystate"), "iops:50%"); /* ss= */
    cJSON_Delete(root);
    ssdsim_free(sim);
    ssdsim_workload_free(wl);
}
END_TEST

/* Bogus input: no simulation; a simulation that has not run. */
START_TEST(test_fiojson_bogus)
{
    ck_assert_ptr_null(ssdsim_results_fio_json(NULL, NULL));
    ssdsim_model *m = small_model();
    ssdsim *sim = st_sim(m, 1);
    ssdsim_model_free(m);
    cJSON *root = fio_json(sim, NULL);
    check_top(root, 0);
    cJSON_Delete(root);
    /* A workload that is not the one that ran gives no job options, not wrong ones. */
    ssdsim_workload *ran = st_workload("{\"rw\":\"randwrite\",\"number_ios\":10,\"numjobs\":2}");
    ssdsim_workload *other = st_workload("{\"rw\":\"randread\",\"number_ios\":10}");
    ck_assert_int_eq(ssdsim_run(sim, ran, NULL), 0);
    root = fio_json(sim, other);
    check_top(root, 2);
    ck_assert_int_eq(
        cJSON_GetArraySize(get(cJSON_GetArrayItem(get(root, "jobs"), 0), "job options")), 0);
    cJSON_Delete(root);
    ssdsim_workload_free(ran);
    ssdsim_workload_free(other);
    ssdsim_free(sim);
}
END_TEST

static Suite *fiojson_suite(void)
{
    Suite *s = suite_create("fiojson");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_fiojson_one_job);
    tcase_add_test(tc, test_fiojson_samples_from_series);
    tcase_add_test(tc, test_fiojson_clones);
    tcase_add_test(tc, test_fiojson_jobfile);
    tcase_add_test(tc, test_fiojson_steadystate);
    tcase_add_test(tc, test_fiojson_bogus);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return test_run_suite(fiojson_suite());
}
