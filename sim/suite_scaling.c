/* suite_scaling.c: `ssdsim suite scaling`, several drives in one host as the NVMe RAID platform
 * reviews measure them (shared/reference/methodology.md, section 3; section 1, item 6 for a
 * JBOD): the measurement is the library's (ssdsim_scaling_run, libssdsim/methods/scaling.c):
 * the system model run with 1 to `count` of its devices, each array written full, then 4 KiB
 * random reads and 128 KiB sequential reads at queue depths 1 to 32 and, with --writes, the
 * review's 4K random write and read at 16T/16Q at steady state (section 1, item 6). This file
 * writes its JSON, CSV, Markdown tables (IOPS, latency, MB/s against depth and devices, the
 * scaling against one device) and plots.
 */
#include <inttypes.h>
#include <math.h>
#include <string.h>

#include "suite.h"

#define MAX_COUNTS 64

static const char *const test_label[SSDSIM_SCALING_N_ALL_TESTS] = {
    "4K random read", "128K sequential read", "4K random write at steady state",
    "4K random read at steady state"};
static const char *const test_id[SSDSIM_SCALING_N_ALL_TESTS] = {
    "randread-4k", "seqread-128k", "randwrite-4k-steady", "randread-4k-steady"};

struct scaling_ctx {
    struct suite *s;
    bool jbod; /* each device its own volume, one job each at the depth */
    uint32_t counts[MAX_COUNTS];
    size_t n_counts;
    /* fig[count index][test][depth index]; the steady tests at SSDSIM_SCALING_STEADY_K */
    ssdsim_measurement fig[MAX_COUNTS][SSDSIM_SCALING_N_ALL_TESTS][SSDSIM_SCALING_N_QD];
    bool steady_seen;                /* on_steady came */
    ssdsim_steady_method steady_how; /* how the first array reached steady state */
};

static size_t count_index(const struct scaling_ctx *x, uint32_t devices)
{
    for (size_t i = 0; i < x->n_counts; i++)
        if (x->counts[i] == devices)
            return i;
    return 0;
}

static int on_point(uint32_t devices, ssdsim_scaling_test t, size_t k, const ssdsim_measurement *m,
                    void *ud)
{
    struct scaling_ctx *x = ud;
    size_t c = count_index(x, devices);
    x->fig[c][t][k] = *m;
    if (t == SSDSIM_SCALING_RANDREAD_STEADY) {
        const ssdsim_measurement *w = &x->fig[c][SSDSIM_SCALING_RANDWRITE_STEADY][k];
        char waf[32] = ""; /* hard disks have none */
        if (isfinite(w->waf))
            snprintf(waf, sizeof waf, "WAF %.3f, ", w->waf);
        suite_say(x->s,
                  "  %" PRIu32 " device%s at the steady state of 4K random writes, 16T/16Q%s: "
                  "writes %.0f IOPS (%smean latency %.1f us), reads %.0f IOPS",
                  devices, devices == 1 ? "" : "s", x->jbod ? " per device" : "", w->iops, waf,
                  w->lat_mean_ns / 1e3, m->iops);
        return 0;
    }
    if (t == SSDSIM_SCALING_RANDWRITE_STEADY || k + 1 < SSDSIM_SCALING_N_QD)
        return 0;
    const ssdsim_measurement *f = x->fig[c][t];
    if (t == SSDSIM_SCALING_RANDREAD)
        suite_say(x->s,
                  "  %" PRIu32 " device%s, %s: %.0f / %.0f / %.0f / %.0f / %.0f / %.0f IOPS at "
                  "QD 1 / 2 / 4 / 8 / 16 / 32",
                  devices, devices == 1 ? "" : "s", test_label[t], f[0].iops, f[1].iops,
                  f[2].iops, f[3].iops, f[4].iops, f[5].iops);
    else
        suite_say(x->s,
                  "  %" PRIu32 " device%s, %s: %.1f / %.1f / %.1f / %.1f / %.1f / %.1f MB/s at "
                  "QD 1 / 2 / 4 / 8 / 16 / 32",
                  devices, devices == 1 ? "" : "s", test_label[t], f[0].bw_bytes / 1e6,
                  f[1].bw_bytes / 1e6, f[2].bw_bytes / 1e6, f[3].bw_bytes / 1e6,
                  f[4].bw_bytes / 1e6, f[5].bw_bytes / 1e6);
    return 0;
}

static void on_steady(uint32_t devices, ssdsim_steady_method how, void *ud)
{
    struct scaling_ctx *x = ud;
    (void)devices;
    if (!x->steady_seen)
        x->steady_how = how;
    x->steady_seen = true;
}

/* A table's header after its first cell (already printed): a column per device count, then the
 * separator line, whose first column is `first` ("---:" or "---"). */
static void table_head(struct suite *s, const struct scaling_ctx *x, const char *first)
{
    for (size_t c = 0; c < x->n_counts; c++)
        suite_md(s, " %" PRIu32 " device%s |", x->counts[c], x->counts[c] == 1 ? "" : "s");
    suite_md(s, "\n|%s|", first);
    for (size_t c = 0; c < x->n_counts; c++)
        suite_md(s, "---:|");
    suite_md(s, "\n");
}

/* A row `label` of `get` of test `t` at depth index `k` against the smallest array's, beside
 * linear scaling, the ratio of the device counts (the ideal on a JBOD). */
static void scaling_row(struct suite *s, const struct scaling_ctx *x, const char *label,
                        ssdsim_scaling_test t, size_t k,
                        double (*get)(const ssdsim_measurement *))
{
    suite_md(s, "| %s |", label);
    double base = get(&x->fig[0][t][k]);
    for (size_t c = 0; c < x->n_counts; c++)
        suite_md(s, " %.2fx (%s %.2gx) |", base > 0 ? get(&x->fig[c][t][k]) / base : NAN,
                 x->jbod ? "ideal" : "linear", (double)x->counts[c] / x->counts[0]);
    suite_md(s, "\n");
}

/* A Markdown table of one figure: a row per queue depth, a column per device count. */
static void table(struct suite *s, const struct scaling_ctx *x, ssdsim_scaling_test t,
                  const char *title, double (*get)(const ssdsim_measurement *), const char *fmt,
                  bool scaling)
{
    suite_md(s, "\n### %s\n\n| QD |", title);
    table_head(s, x, "---:");
    for (size_t k = 0; k < SSDSIM_SCALING_N_QD; k++) {
        suite_md(s, "| %" PRIu32 " |", ssdsim_scaling_qd(k));
        for (size_t c = 0; c < x->n_counts; c++) {
            char b[32];
            snprintf(b, sizeof b, fmt, get(&x->fig[c][t][k]));
            suite_md(s, " %s |", b);
        }
        suite_md(s, "\n");
    }
    if (!scaling)
        return;
    const size_t top = SSDSIM_SCALING_N_QD - 1;
    char label[32];
    snprintf(label, sizeof label, "scaling at QD %" PRIu32, ssdsim_scaling_qd(top));
    scaling_row(s, x, label, t, top, get);
    double base = get(&x->fig[0][t][top]);
    if (x->jbod)
        return; /* each device ran at the depth: linear is the ideal */
    /* One job at a total depth on a volume leaves each of n devices about 1/n of it, so linear
     * scaling would need n times the depth. What striping can give at this depth: the first
     * array's figure at the depth its devices then see, times the ratio of the device counts,
     * where that depth was measured. */
    suite_md(s, "| its devices at 1/n of QD %" PRIu32 " each |", ssdsim_scaling_qd(top));
    for (size_t c = 0; c < x->n_counts; c++) {
        uint64_t num = (uint64_t)ssdsim_scaling_qd(top) * x->counts[0];
        size_t k = SSDSIM_SCALING_N_QD;
        if (num % x->counts[c] == 0)
            for (size_t i = 0; i < SSDSIM_SCALING_N_QD; i++)
                if (ssdsim_scaling_qd(i) == num / x->counts[c])
                    k = i;
        if (k == SSDSIM_SCALING_N_QD || !(base > 0))
            suite_md(s, " - |");
        else
            suite_md(s, " %.2fx |",
                     get(&x->fig[0][t][k]) * x->counts[c] / x->counts[0] / base);
    }
    suite_md(s, "\n");
}

static double get_iops(const ssdsim_measurement *m)
{
    return m->iops;
}
static double get_mbs(const ssdsim_measurement *m)
{
    return m->bw_bytes / 1e6;
}
static double get_lat_us(const ssdsim_measurement *m)
{
    return m->lat_mean_ns / 1e3;
}
static double get_p99_us(const ssdsim_measurement *m)
{
    return (double)m->lat_p99_ns / 1e3;
}

/* One row of the steady-state table: `label`, then `get` of test `t` per device count. */
static void steady_row(struct suite *s, const struct scaling_ctx *x, ssdsim_scaling_test t,
                       const char *label, double (*get)(const ssdsim_measurement *),
                       const char *fmt)
{
    suite_md(s, "| %s |", label);
    for (size_t c = 0; c < x->n_counts; c++) {
        char b[32] = "-"; /* a figure a hard disk has not (WAF) */
        double v = get(&x->fig[c][t][SSDSIM_SCALING_STEADY_K]);
        if (isfinite(v))
            snprintf(b, sizeof b, fmt, v);
        suite_md(s, " %s |", b);
    }
    suite_md(s, "\n");
}


static double get_lat_max_us(const ssdsim_measurement *m)
{
    return (double)m->lat_max_ns / 1e3;
}
static double get_waf(const ssdsim_measurement *m)
{
    return m->waf;
}

/* --writes: the review's 4K points at steady state on each array, a column per array. */
static void steady_section(struct suite *s, const struct scaling_ctx *x)
{
    suite_md(s,
             "\n## 4 KiB random writes and reads at steady state, 16T/16Q\n\n"
             "The review labs' heavy 4K point on each array (methodology section 1, items 4 and "
             "6): after its read tests, the array was brought to the steady state of 4 KiB "
             "random writes at 16 jobs of 16 outstanding requests (%s), then those writes and "
             "4 KiB random reads at the same load were measured on that state, each window of "
             "writes holding at least %d blocks per plane of host writes on every device "
             "(periods of garbage collection). %s The host's CPUs are in the model only as a "
             "host-based FTL's threads (`host.ftl_threads`); the kernel's time per request is a "
             "fixed latency (`host.cmd_overhead_us`), not a shared resource, so a limit a real "
             "server's CPUs would set is not shown.\n\n| |",
             x->jbod ? "on each device, its own volume, as one database node per drive: 16 jobs "
                       "per device, the figures their sum"
                     : "on the volume",
             SUITE_GC_CYCLES,
             x->jbod ? "Ideal scaling is linear in the devices until a shared link or the host "
                       "binds."
                     : "The volume's 256 outstanding requests spread over its devices, each "
                       "still 256/n deep: deep enough for a drive's steady writes, so linear "
                       "scaling is the mark until a shared link or the host binds.");
    table_head(s, x, "---");
    const ssdsim_scaling_test w = SSDSIM_SCALING_RANDWRITE_STEADY;
    const ssdsim_scaling_test r = SSDSIM_SCALING_RANDREAD_STEADY;
    steady_row(s, x, w, "4K random write, IOPS", get_iops, "%.0f");
    scaling_row(s, x, "scaling", w, SSDSIM_SCALING_STEADY_K, get_iops);
    steady_row(s, x, w, "mean latency, us", get_lat_us, "%.1f");
    steady_row(s, x, w, "max latency, us", get_lat_max_us, "%.1f");
    steady_row(s, x, w, "WAF", get_waf, "%.3f");
    steady_row(s, x, r, "4K random read, IOPS", get_iops, "%.0f");
    scaling_row(s, x, "scaling", r, SSDSIM_SCALING_STEADY_K, get_iops);
    steady_row(s, x, r, "mean latency, us", get_lat_us, "%.1f");
    steady_row(s, x, r, "p99 latency, us", get_p99_us, "%.1f");
}

int suite_scaling(struct suite *s)
{
    const struct suite_opts *o = s->opt;
    struct scaling_ctx *x = g_new0(struct scaling_ctx, 1);
    x->s = s;
    x->n_counts = ssdsim_scaling_counts(s->model, x->counts, MAX_COUNTS);
    if (x->n_counts == 0) {
        cli_error("suite scaling: the model is a single device; the suite needs a system model "
                  "of several (system.member, count and layout), e.g. "
                  "models/samsung-960pro-x4-raid0-vroc.json");
        g_free(x);
        return -1;
    }
    char layout[16] = "", stripe[32] = "";
    double raid_us = 0, path_us = 0;
    ssdsim_model_get_string(s->model, "system.layout", layout, sizeof layout, NULL);
    ssdsim_model_get_double(s->model, "system.raid_us", &raid_us, NULL);
    ssdsim_model_get_double(s->model, "system.path_us", &path_us, NULL);
    int64_t stripe_b = 0;
    if (ssdsim_model_get_int(s->model, "system.stripe", &stripe_b, NULL) == 0)
        snprintf(stripe, sizeof stripe, ", %" PRId64 " KiB strips", stripe_b / 1024);
    bool jbod = !strcmp(layout, "jbod");
    x->jbod = jbod;
    ssdsim_scaling_opts so = SSDSIM_SCALING_OPTS_INIT;
    so.window_ns = o->window_ns;
    so.seed = s->seed;
    so.progress = cli_interrupt_cb; /* SIGINT and SIGTERM cancel the run under way */
    so.on_point = on_point;
    so.userdata = x;
    so.steady_writes = o->writes;
    so.steady = suite_curve_opts(s);
    so.on_steady = on_steady;
    ssdsim_error err;
    suite_say(s, "scaling: %s, %zu array sizes", layout, x->n_counts);
    if (ssdsim_scaling_run(s->model, &so, &err)) {
        cli_error("suite scaling: %s", err.message);
        g_free(x);
        return -1;
    }

    cJSON *sc = cJSON_AddObjectToObject(s->json, "scaling");
    cJSON_AddStringToObject(sc, "layout", layout);
    suite_json_num(sc, "raid_us", raid_us);
    suite_json_num(sc, "path_us", path_us);
    cJSON *counts = cJSON_AddArrayToObject(sc, "devices");
    for (size_t c = 0; c < x->n_counts; c++)
        cJSON_AddItemToArray(counts, cJSON_CreateNumber(x->counts[c]));
    cJSON *points = cJSON_AddArrayToObject(sc, "points");
    GString *csv = g_string_new("devices,test,qd,iops,mb_s,lat_mean_us,lat_p99_us,lat_max_us\n");
    int n_tests = o->writes ? SSDSIM_SCALING_N_ALL_TESTS : SSDSIM_SCALING_N_TESTS;
    for (size_t c = 0; c < x->n_counts; c++)
        for (int t = 0; t < n_tests; t++)
            for (size_t k = 0; k < SSDSIM_SCALING_N_QD; k++) {
                bool steady = t >= SSDSIM_SCALING_N_TESTS;
                if (steady && k != SSDSIM_SCALING_STEADY_K)
                    continue;
                const ssdsim_measurement *f = &x->fig[c][t][k];
                cJSON *e = cJSON_CreateObject();
                suite_json_u64(e, "devices", x->counts[c]);
                cJSON_AddStringToObject(e, "test", test_id[t]);
                suite_json_u64(e, "qd", ssdsim_scaling_qd(k));
                uint64_t jobs = steady ? SSDSIM_SCALING_STEADY_JOBS : 1;
                suite_json_u64(e, "jobs", jbod ? jobs * x->counts[c] : jobs);
                suite_fig_json(e, f);
                cJSON_AddItemToArray(points, e);
                g_string_append_printf(csv, "%" PRIu32 ",%s,%" PRIu32 ",", x->counts[c],
                                       test_id[t], ssdsim_scaling_qd(k));
                const double v[] = {f->iops, f->bw_bytes / 1e6, f->lat_mean_ns / 1e3,
                                    (double)f->lat_p99_ns / 1e3};
                for (size_t i = 0; i < G_N_ELEMENTS(v); i++)
                    suite_csv_num(csv, v[i], false);
                suite_csv_num(csv, (double)f->lat_max_ns / 1e3, true);
            }

    suite_md(s,
             "Procedure: the system's %s (%s%s; %.3g us of RAID layer and %.3g us of platform "
             "path per request, `system.raid_us`, `system.path_us`) with 1 to %" PRIu32
             " of its devices, each array written full sequentially first (a never-written SSD "
             "answers reads without touching flash, which would flatter them), then 4 KiB "
             "random reads and 128 KiB sequential reads (the Linux block layer splits larger "
             "requests into 128 KiB) at queue depths 1 to 32, %s. Each point is a window of "
             "%.3g s of simulated time. %s\n",
             jbod ? "devices, each its own volume" : "volume", layout, stripe, raid_us, path_us,
             x->counts[x->n_counts - 1],
             jbod ? "one job per device at that depth (the figures are the sum)"
                  : "one job at that depth on the volume",
             (double)o->window_ns / 1e9,
             jbod ? "Ideal scaling is linear in the devices until a shared link (a card's or the "
                    "chipset's uplink) or the host binds."
                  : "The requests of one depth spread over the volume's devices, so each of n "
                    "devices is about 1/n as deep and scaling linear in the devices needs n "
                    "times the depth; below each scaling row, what striping can give at that "
                    "depth: the smallest array's figure at the depth each device then sees, "
                    "times the ratio of the device counts (where that depth was measured), until "
                    "a shared link (a card's or the chipset's uplink) or the host binds.");
    suite_md(s, "\n## 4 KiB random reads\n");
    table(s, x, SSDSIM_SCALING_RANDREAD, "IOPS", get_iops, "%.0f", true);
    table(s, x, SSDSIM_SCALING_RANDREAD, "Mean latency, us", get_lat_us, "%.1f", false);
    table(s, x, SSDSIM_SCALING_RANDREAD, "p99 latency, us", get_p99_us, "%.1f", false);
    suite_md(s, "\n![4K random reads](scaling-iops.png)\n\n## 128 KiB sequential reads\n");
    table(s, x, SSDSIM_SCALING_SEQREAD, "MB/s", get_mbs, "%.1f", true);
    suite_md(s, "\n![128K sequential reads](scaling-mbs.png)\n");
    if (o->writes)
        steady_section(s, x);
    suite_csv(s, "scaling.csv", g_string_free(csv, FALSE));
    for (int t = 0; t < SSDSIM_SCALING_N_TESTS; t++) {
        GString *g = g_string_new(NULL);
        g_string_append_printf(g,
                               "set title '%s against queue depth'\nset logscale x 2\n"
                               "set xlabel 'queue depth%s'\nset ylabel '%s'\nset key top left\n"
                               "plot ",
                               test_label[t], jbod ? " per device" : "",
                               t == SSDSIM_SCALING_RANDREAD ? "IOPS" : "MB/s");
        for (size_t c = 0; c < x->n_counts; c++)
            g_string_append_printf(g,
                                   "%s'scaling.csv' skip 1 using 3:(($1 == %" PRIu32
                                   " && strcol(2) eq '%s') ? $%d : 1/0) with linespoints "
                                   "title '%" PRIu32 " device%s'",
                                   c ? ", \\\n     " : "", x->counts[c], test_id[t],
                                   t == SSDSIM_SCALING_RANDREAD ? 4 : 5, x->counts[c],
                                   x->counts[c] == 1 ? "" : "s");
        g_string_append_c(g, '\n');
        suite_plot(s, t == SSDSIM_SCALING_RANDREAD ? "scaling-iops.png" : "scaling-mbs.png",
                   g->str);
        g_string_free(g, TRUE);
    }
    suite_shortcut(s,
                   "Each array was filled by one sequential write of its capacity "
                   "(ssdsim_precondition_seq: by functional fast-forward unless "
                   "--precondition-method timed), not by a timed fill.");
    suite_shortcut(s,
                   "Points ran windows of %.3g s of simulated time after a ramp of a tenth, run "
                   "again longer (up to 64 times) when they held fewer than %d requests or "
                   "fewer than %d per outstanding request%s.",
                   (double)o->window_ns / 1e9, SUITE_MIN_IOS, SUITE_MIN_CYCLES,
                   o->writes ? " (the steady writes also when they held fewer than 20 blocks "
                               "per plane of host writes)"
                             : "");
    if (o->writes && x->steady_seen) {
        ssdsim_suite_wl w;
        ssdsim_suite_wl_init(&w, 0);
        w.rw = "randwrite";
        w.bs = "4k";
        suite_steady_notes(s, &w, x->steady_how, "4K random writes");
    }
    g_free(x);
    return 0;
}
