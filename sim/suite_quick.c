/* suite_quick.c: `ssdsim suite quick-matrix`, the hosting companies' simple fio test matrix
 * (shared/reference/methodology.md, section 2; doc/suites.md).
 *
 * Every test runs at most 60 s (here the suite's window) with idle time between tests (30 s by
 * default, simulated; it matters when the model collects garbage in the background), at 1, 4
 * and 64 jobs of one outstanding request each: IOPS (4 KiB) sequential and random, read and
 * write, over the whole device and over its first 10%; bandwidth (128 KiB) sequential and
 * random, read and write, over the first 5 GiB, the last 5 GiB and the whole device. Two drive
 * states: fresh (secure-erased before every test that follows a write) and written full (the
 * steady state of 4 KiB random writes over the whole drive, the worst case). Write cache
 * on/off: when the model's write buffer is volatile, the 4 KiB random write test runs fresh
 * with its cache on and off; a power-loss protected buffer acknowledges from DRAM whatever the
 * setting, and without a buffer every write completes when programmed, so there is nothing to
 * compare (the report says which).
 */
#include <inttypes.h>
#include <math.h>
#include <string.h>

#include "suite.h"

#define GIB5 (UINT64_C(5) << 30)

enum region { WHOLE, FIRST10, FIRST5G, LAST5G };
static const char *const region_id[] = {"whole", "first10", "first5g", "last5g"};
static const char *const region_label[] = {"whole device", "first 10%", "first 5 GiB",
                                           "last 5 GiB"};

struct qtest {
    bool iops;  /* 4 KiB IOPS test, else 128 KiB bandwidth test */
    bool seq;   /* sequential, else random */
    bool write; /* write, else read */
    enum region region;
};

static const uint32_t jobs[3] = {1, 4, 64};

static void region_of(enum region r, uint64_t logical, uint64_t *off, uint64_t *size)
{
    uint64_t five = GIB5 < logical / 2 ? GIB5 : logical / 2 / 4096 * 4096;
    switch (r) {
    case WHOLE:
        *off = 0, *size = logical;
        break;
    case FIRST10:
        *off = 0, *size = logical / 10 / 4096 * 4096;
        break;
    case FIRST5G:
        *off = 0, *size = five;
        break;
    case LAST5G:
        *size = five;
        *off = (logical - five) / 4096 * 4096;
        break;
    }
}

static char *test_id(const struct qtest *t)
{
    return g_strdup_printf("%s-%s-%s-%s", t->iops ? "iops" : "mbs", t->seq ? "seq" : "rand",
                           t->write ? "write" : "read", region_id[t->region]);
}

static char *test_label(const struct qtest *t)
{
    return g_strdup_printf("%s %s %s, %s", t->seq ? "sequential" : "random",
                           t->write ? "write" : "read", t->iops ? "4K" : "128K",
                           region_label[t->region]);
}

/* The model's write buffer (a system's is not compared). */
enum wbuf { WBUF_NONE, WBUF_PLP, WBUF_VOLATILE };
static const char *const wbuf_name[] = {"none", "plp", "volatile"};

static enum wbuf write_buffer_kind(const ssdsim_model *model)
{
    if (ssdsim_model_get_kind(model) != SSDSIM_MODEL_SSD)
        return WBUF_NONE;
    double size = 0;
    bool plp = false;
    ssdsim_model_get_double(model, "buffer.size", &size, NULL);
    if (!(size > 0))
        return WBUF_NONE;
    ssdsim_model_get_bool(model, "buffer.plp", &plp, NULL);
    return plp ? WBUF_PLP : WBUF_VOLATILE;
}

int suite_quick_matrix(struct suite *s)
{
    GArray *tests = g_array_new(FALSE, FALSE, sizeof(struct qtest));
    for (int kind = 0; kind < 2; kind++) {
        for (int seq = 1; seq >= 0; seq--) {
            for (int wr = 0; wr < 2; wr++) {
                if (kind == 0) {
                    for (int r = WHOLE; r <= FIRST10; r++) {
                        struct qtest t = {true, seq, wr, (enum region)r};
                        g_array_append_val(tests, t);
                    }
                } else {
                    static const enum region rs[3] = {FIRST5G, LAST5G, WHOLE};
                    for (int r = 0; r < 3; r++) {
                        struct qtest t = {false, seq, wr, rs[r]};
                        g_array_append_val(tests, t);
                    }
                }
            }
        }
    }
    ssdsim *sim = suite_sim_new(s, s->model);
    if (!sim) {
        g_array_unref(tests);
        return -1;
    }
    uint64_t logical = ssdsim_model_logical_bytes(s->model); /* one volume: the tests' regions */
    uint64_t window =
        s->opt->window_ns < UINT64_C(60000000000) ? s->opt->window_ns : UINT64_C(60000000000);
    int rc = -1;
    static const char *const state_id[2] = {"fresh", "full"};
    static const char *const state_label[2] = {"fresh (secure-erased)", "written full"};
    /* fig[state][test][jobs] */
    ssdsim_measurement *fig = g_new0(ssdsim_measurement, 2 * tests->len * 3);
#define FIG(st, t, j) fig[((st)*tests->len + (t)) * 3 + (j)]
    GString *csv = g_string_new("state,test,pattern,direction,region,block_size,jobs,iops,mb_s,"
                                "lat_mean_us,lat_max_us,lat_p99_us,converged\n");
    GString *cdf = g_string_new("series,lat_us,cdf\n");
    cJSON *cdf_obj = cJSON_AddObjectToObject(s->json, "latency_cdf");
    cJSON *results = cJSON_AddArrayToObject(s->json, "tests");
    for (int st = 0; st < 2; st++) {
        suite_say(s, "%s:", state_label[st]);
        bool dirty = true; /* written since the last secure erase */
        if (st == 1) {
            ssdsim_suite_wl pre = WL("randwrite", "4k", NULL, -1, 16, 16);
            if (suite_steady_state(s, sim, &pre, "4K random writes over the whole drive"))
                goto out;
        }
        for (guint ti = 0; ti < tests->len; ti++) {
            const struct qtest *t = &g_array_index(tests, struct qtest, ti);
            g_autofree char *id = test_id(t);
            for (int ji = 0; ji < 3; ji++) {
                if (st == 0 && dirty) {
                    if (suite_erase(sim))
                        goto out;
                    dirty = false;
                }
                ssdsim_suite_wl w = {SSDSIM_SUITE_WL_VERSION,
                                     t->seq ? (t->write ? "write" : "read")
                                            : (t->write ? "randwrite" : "randread"),
                                     t->iops ? "4k" : "128k",
                                     NULL,
                                     -1,
                                     jobs[ji],
                                     1,
                                     0,
                                     0,
                                     t->seq};
                region_of(t->region, logical, &w.region_offset, &w.region_size);
                if (!t->seq && t->region == WHOLE)
                    w.region_size = 0;
                ssdsim_measurement *f = &FIG(st, ti, ji);
                if (suite_measure(s, sim, &w, window, true, SUITE_GC_CYCLES, f))
                    goto out;
                if (t->write)
                    dirty = true;
                if (s->opt->idle_ns && ssdsim_idle(sim, s->opt->idle_ns)) {
                    cli_error("idle: %s", ssdsim_errmsg(sim));
                    goto out;
                }
                /* ssdsim_idle keeps the run's statistics: the CDF is read after it. */
                if (t->iops && !t->seq && t->region == WHOLE && ji == 2) {
                    g_autofree char *series = g_strdup_printf(
                        "4K random %s, 64 jobs, %s", t->write ? "write" : "read", state_id[st]);
                    g_autofree char *key = g_strdup_printf("%s-%s-64", state_id[st], id);
                    suite_cdf(sim, SSDSIM_OP_ALL, series, cdf, cdf_obj, key);
                }
                cJSON *e = cJSON_CreateObject();
                cJSON_AddStringToObject(e, "state", state_id[st]);
                cJSON_AddStringToObject(e, "test", id);
                cJSON_AddStringToObject(e, "pattern", t->seq ? "sequential" : "random");
                cJSON_AddStringToObject(e, "direction", t->write ? "write" : "read");
                cJSON_AddStringToObject(e, "region", region_id[t->region]);
                suite_json_u64(e, "region_offset", w.region_offset);
                suite_json_u64(e, "region_size", w.region_size ? w.region_size : logical);
                suite_json_u64(e, "block_size", t->iops ? 4096 : 131072);
                suite_json_u64(e, "jobs", jobs[ji]);
                suite_json_u64(e, "iodepth", 1);
                suite_fig_json(e, f);
                cJSON_AddItemToArray(results, e);
                g_string_append_printf(csv, "%s,%s,%s,%s,%s,%s,%" PRIu32 ",", state_id[st], id,
                                       t->seq ? "sequential" : "random",
                                       t->write ? "write" : "read", region_id[t->region],
                                       t->iops ? "4K" : "128K", jobs[ji]);
                const double v[] = {f->iops, f->bw_bytes / 1e6, f->lat_mean_ns / 1e3,
                                    (double)f->lat_max_ns / 1e3, (double)f->lat_p99_ns / 1e3};
                for (size_t k = 0; k < G_N_ELEMENTS(v); k++)
                    suite_csv_num(csv, v[k], false);
                g_string_append_printf(csv, "%d\n", f->steady ? 1 : 0);
            }
            const ssdsim_measurement *f64 = &FIG(st, ti, 2);
            g_autofree char *label = test_label(t);
            if (t->iops)
                suite_say(s, "  %s: %.0f / %.0f / %.0f IOPS at 1 / 4 / 64 jobs", label,
                          FIG(st, ti, 0).iops, FIG(st, ti, 1).iops, f64->iops);
            else
                suite_say(s, "  %s: %.1f / %.1f / %.1f MB/s at 1 / 4 / 64 jobs", label,
                          FIG(st, ti, 0).bw_bytes / 1e6, FIG(st, ti, 1).bw_bytes / 1e6,
                          f64->bw_bytes / 1e6);
        }
    }
    /* Write cache on and off: the model's write buffer decides whether there is anything to
     * compare. */
    cJSON *wc = cJSON_AddObjectToObject(s->json, "write_cache");
    enum wbuf buffer = write_buffer_kind(s->model);
    cJSON_AddStringToObject(wc, "buffer", wbuf_name[buffer]);
    ssdsim_measurement wcfig[2][3] = {{{0}}};
    bool compared = buffer == WBUF_VOLATILE;
    cJSON_AddBoolToObject(wc, "compared", compared);
    if (compared) {
        suite_say(s, "write cache on / off (fresh, 4K random write, whole device):");
        cJSON *arr = cJSON_AddArrayToObject(wc, "tests");
        for (int on = 1; on >= 0; on--) {
            ssdsim_model *m2 = suite_model_copy(s->model);
            ssdsim_error err;
            ssdsim *s2 = NULL;
            if (m2 && ssdsim_model_set_bool(m2, "buffer.write_cache", on, &err))
                cli_error("%s", err.message);
            else if (m2)
                s2 = suite_sim_new(s, m2);
            ssdsim_model_free(m2);
            if (!s2)
                goto out;
            for (int ji = 0; ji < 3; ji++) {
                ssdsim_suite_wl w = WL("randwrite", "4k", NULL, -1, jobs[ji], 1);
                if (suite_erase(s2) ||
                    suite_measure(s, s2, &w, window, true, SUITE_GC_CYCLES, &wcfig[on][ji])) {
                    ssdsim_free(s2);
                    goto out;
                }
                cJSON *e = cJSON_CreateObject();
                cJSON_AddStringToObject(e, "cache", on ? "on" : "off");
                suite_json_u64(e, "jobs", jobs[ji]);
                suite_fig_json(e, &wcfig[on][ji]);
                cJSON_AddItemToArray(arr, e);
            }
            ssdsim_free(s2);
            suite_say(s, "  cache %s: %.0f / %.0f / %.0f IOPS, mean %.1f / %.1f / %.1f us at 1 / "
                         "4 / 64 jobs",
                      on ? "on" : "off", wcfig[on][0].iops, wcfig[on][1].iops, wcfig[on][2].iops,
                      wcfig[on][0].lat_mean_ns / 1e3, wcfig[on][1].lat_mean_ns / 1e3,
                      wcfig[on][2].lat_mean_ns / 1e3);
        }
    }

    /* The report: IOPS and bandwidth tables, fresh against written full, by jobs. */
    char b1[32];
    suite_md(s,
             "Procedure: tests of at most 60 s (here windows of %.3g s of simulated time after a "
             "ramp of a tenth, longer for slow tests) with %.3g s of idle time between them, each "
             "at 1, 4 and 64 jobs of one outstanding request (effective queue depth 1, 4, 64); "
             "sequential jobs each stream "
             "through their own part of the region. %s on this %s drive. "
             "Drive states: **fresh** (secure-erased before each test that follows a write; "
             "reads of never-written data return without touching flash, as on a real "
             "fresh drive) and **written full** (the steady state of 4 KiB random writes over "
             "the whole drive: the worst case).\n\n"
             "%s\n\n",
             (double)window / 1e9, (double)s->opt->idle_ns / 1e9,
             buffer == WBUF_VOLATILE
                 ? "**Write cache on/off**: the model's write buffer is volatile; the table "
                   "below compares the 4K random write test (fresh, whole device) with its "
                   "write cache on (writes acknowledged from DRAM) and off (acknowledged once "
                   "programmed)."
             : buffer == WBUF_PLP
                 ? "**Write cache on/off**: the model's write buffer is power-loss protected, "
                   "so it acknowledges writes from DRAM whatever the host's write cache "
                   "setting: there is nothing to compare, every test ran with it."
                 : "**Write cache on/off**: the model has no write buffer (or is not a single "
                   "solid-state device), so every write completes when it is programmed "
                   "whatever the setting: there is nothing to compare.",
             GIB5 < logical / 2 ? "The 5 GiB regions are the first and last 5 GiB"
                                : "The \"5 GiB\" regions are the first and last half (smaller "
                                  "than 10 GiB)",
             suite_fmt_bytes(b1, sizeof b1, (double)logical));
    if (s->opt->idle_ns) {
        double bg = 0;
        ssdsim_model_get_double(s->model, "gc.bg_idle_us", &bg, NULL);
        if (!(bg > 0))
            suite_md(s, "This model has no background garbage collection (gc.bg_idle_us 0): "
                        "the idle time between tests changes nothing.\n\n");
        else
            suite_md(s,
                     "Background garbage collection starts after %.0f us idle "
                     "(gc.bg_idle_us): the idle time between tests lets it free blocks.\n\n",
                     bg);
    }
    for (int kind = 0; kind < 2; kind++) {
        suite_md(s,
                 "\n## %s\n\n| test | fresh, 1 job | 4 jobs | 64 jobs | written full, 1 job "
                 "| 4 jobs | 64 jobs |\n|---|---:|---:|---:|---:|---:|---:|\n",
                 kind == 0 ? "IOPS (4 KiB)" : "Bandwidth, MB/s (128 KiB)");
        for (guint ti = 0; ti < tests->len; ti++) {
            const struct qtest *t = &g_array_index(tests, struct qtest, ti);
            if (t->iops != (kind == 0))
                continue;
            g_autofree char *label = test_label(t);
            suite_md(s, "| %s |", label);
            for (int st = 0; st < 2; st++)
                for (int ji = 0; ji < 3; ji++) {
                    const ssdsim_measurement *f = &FIG(st, ti, ji);
                    if (kind == 0)
                        suite_md(s, " %.0f |", f->iops);
                    else
                        suite_md(s, " %.1f |", f->bw_bytes / 1e6);
                }
            suite_md(s, "\n");
        }
        suite_md(s, "\n![%s](quick-%s.png)\n", kind == 0 ? "IOPS" : "Bandwidth",
                 kind == 0 ? "iops" : "mbs");
    }
    suite_md(s,
             "\n## Mean latency (ms), 4 KiB tests\n\n| test | fresh, 1 job | 4 jobs | 64 jobs "
             "| written full, 1 job | 4 jobs | 64 jobs |\n|---|---:|---:|---:|---:|---:|---:|\n");
    for (guint ti = 0; ti < tests->len; ti++) {
        const struct qtest *t = &g_array_index(tests, struct qtest, ti);
        if (!t->iops)
            continue;
        g_autofree char *label = test_label(t);
        suite_md(s, "| %s |", label);
        for (int st = 0; st < 2; st++)
            for (int ji = 0; ji < 3; ji++)
                suite_md(s, " %.3f |", FIG(st, ti, ji).lat_mean_ns / 1e6);
        suite_md(s, "\n");
    }
    suite_md(s, "\n![Latency CDF](latency-cdf.png)\n");
    suite_csv(s, "quick-matrix.csv", g_string_free(csv, FALSE));
    csv = NULL;
    suite_csv(s, "latency-cdf.csv", g_string_free(cdf, FALSE));
    cdf = NULL;

    /* Plots: IOPS and MB/s against jobs (= effective queue depth), fresh and full side by side,
     * one line per test; the latency CDF. */
    for (int kind = 0; kind < 2; kind++) {
        GString *g = g_string_new(NULL);
        g_string_append_printf(g,
                               "set multiplot layout 1,2 title '%s against jobs (1 outstanding "
                               "request each)'\nset logscale xy\nset xrange [0.8:80]\n"
                               "set xtics (1, 4, 64)\nset xlabel 'jobs (effective queue depth)'\n"
                               "set ylabel '%s'\nset key top left font ',8'\n",
                               kind == 0 ? "IOPS (4 KiB)" : "Bandwidth (128 KiB)",
                               kind == 0 ? "IOPS" : "MB/s");
        for (int st = 0; st < 2; st++) {
            g_string_append_printf(g, "set title '%s'\nplot ", state_label[st]);
            bool first = true;
            for (guint ti = 0; ti < tests->len; ti++) {
                const struct qtest *t = &g_array_index(tests, struct qtest, ti);
                if (t->iops != (kind == 0))
                    continue;
                g_autofree char *id = test_id(t);
                g_autofree char *label = test_label(t);
                g_autofree char *ql = cli_gnuplot_quote(label);
                g_string_append_printf(g,
                                       "%s'quick-matrix.csv' skip 1 using 7:(strcol(1) eq '%s' "
                                       "&& strcol(2) eq '%s' ? $%d : 1/0) with linespoints "
                                       "title %s",
                                       first ? "" : ", \\\n     ", state_id[st], id,
                                       kind == 0 ? 8 : 9, ql);
                first = false;
            }
            g_string_append_c(g, '\n');
        }
        g_string_append(g, "unset multiplot\n");
        suite_plot(s, kind == 0 ? "quick-iops.png" : "quick-mbs.png", g->str);
        g_string_free(g, TRUE);
    }
    GString *g = g_string_new("set title 'Latency CDF, 4K random, 64 jobs'\n"
                              "set xlabel 'latency (us)'\nset ylabel 'fraction of requests'\n"
                              "set logscale x\nset yrange [0:1]\nset key bottom right\nplot ");
    int k = 0;
    for (int st = 0; st < 2; st++)
        for (int wr = 0; wr < 2; wr++) {
            g_autofree char *series =
                g_strdup_printf("4K random %s, 64 jobs, %s", wr ? "write" : "read", state_id[st]);
            g_autofree char *q = cli_gnuplot_quote(series);
            g_string_append_printf(g,
                                   "%s'latency-cdf.csv' skip 1 using 2:(strcol(1) eq %s ? $3 : "
                                   "1/0) with lines lw 1.5 title %s",
                                   k++ ? ", \\\n     " : "", q, q);
        }
    g_string_append_c(g, '\n');
    suite_plot(s, "latency-cdf.png", g->str);
    g_string_free(g, TRUE);
    suite_shortcut(s,
                   "Tests ran windows of %.3g s of simulated time (longer when they held too "
                   "few requests; after a ramp of a tenth, not counted) instead of 60 s, "
                   "stopping early once the IOPS of 5 rounds of a tenth met the SNIA "
                   "steady-state rule (`converged`; on the written-full drive only: the rule "
                   "judges only a preconditioned drive, so the fresh drive's tests ran their "
                   "whole window); the idle time between tests is simulated in full.",
                   (double)window / 1e9);
    suite_shortcut(s, "Written full: the drive was fast-preconditioned to the steady state of 4 "
                      "KiB random writes over its whole capacity instead of being written full "
                      "several times; the tests then ran in order on that drive, as in the "
                      "labs, so the writes of one test carry into the next.");
    if (compared) {
        suite_md(s, "| Write cache | 1 job IOPS | 4 jobs IOPS | 64 jobs IOPS | 1 job mean us |\n"
                    "|---|---|---|---|---|\n");
        for (int on = 1; on >= 0; on--)
            suite_md(s, "| %s | %.0f | %.0f | %.0f | %.1f |\n", on ? "on" : "off",
                     wcfig[on][0].iops, wcfig[on][1].iops, wcfig[on][2].iops,
                     wcfig[on][0].lat_mean_ns / 1e3);
        suite_md(s, "\n");
    }
    rc = 0;
out:
#undef FIG
    if (csv)
        g_string_free(csv, TRUE);
    if (cdf)
        g_string_free(cdf, TRUE);
    g_free(fig);
    g_array_unref(tests);
    ssdsim_free(sim);
    return rc;
}
