/* suite_quick.c: `ssdsim suite quick-matrix`, the hosting companies' simple fio test matrix
 * (shared/reference/methodology.md, section 2; doc/suites.md).
 *
 * Every test runs at most 60 s with idle time between tests (30 s by default, simulated; it
 * matters when the model collects garbage in the background): a test that writes runs its whole
 * length where that length decides its figure (the written-full drive, whose writes may use up
 * what idle garbage collection freed; a fresh drive whose writes could reach garbage collection
 * within it), the others a shorter window (the suite's), at 1, 4
 * and 64 jobs of one outstanding request each: IOPS (4 KiB) sequential and random, read and
 * write, over the whole device and over its first 10%; bandwidth (128 KiB) sequential and
 * random, read and write, over the first 5 GiB, the last 5 GiB and the whole device. Two drive
 * states: fresh (secure-erased before every test that follows a write) and written full (the
 * steady state of 4 KiB random writes over the whole drive, the worst case; a hard disk has
 * one state, which writing does not change: measured once, reported once). Write cache on/off:
 * when the model's write buffer (a disk's cache) is volatile, the 4 KiB random write test runs
 * with its cache on and off (buffer.write_cache, hdd.write_cache); a power-loss protected
 * buffer acknowledges from DRAM whatever the setting, and without a buffer every write completes
 * when programmed, so there is nothing to compare (the report says which). The library runs the matrix (ssdsim_quick_run,
 * ssdsim/suite.h); this file holds its reports: JSON, CSV, Markdown tables, plots and progress.
 */
#include <inttypes.h>
#include <math.h>
#include <string.h>

#include "suite.h"

static const char *const region_id[] = {"whole", "first10", "first5g", "last5g"};
static const char *const region_label[] = {"whole device", "first 10%", "first 5 GiB",
                                           "last 5 GiB"};
static const char *const wbuf_name[] = {"none", "plp", "volatile"};
static const char *const state_id[2] = {"fresh", "full"};
static const char *const state_label[2] = {"fresh (secure-erased)", "written full"};

static char *test_id(const ssdsim_quick_test *t)
{
    return g_strdup_printf("%s-%s-%s-%s", t->iops ? "iops" : "mbs", t->seq ? "seq" : "rand",
                           t->write ? "write" : "read", region_id[t->region]);
}

static char *test_label(const ssdsim_quick_test *t)
{
    return g_strdup_printf("%s %s %s, %s", t->seq ? "sequential" : "random",
                           t->write ? "write" : "read", t->iops ? "4K" : "128K",
                           region_label[t->region]);
}

/* The progress lines and "Shortcuts taken" bullets while the matrix runs. */
struct run_ctx {
    struct suite *s;
    ssdsim *sim;    /* the matrix's drive (fresh and written full) */
    bool one_state; /* a hard disk: one state (ssdsim_quick_summary.one_state) */
    /* [state][test][jobs] of the fresh and written-full cells, read from the device's figures
     * of the cell's run: reads answered without flash, and garbage collection while the host
     * was active (victims, units copied) */
    uint64_t unmapped[2][20][SSDSIM_QUICK_N_JOBS], fg_victims[2][20][SSDSIM_QUICK_N_JOBS];
    uint64_t fg_copied[2][20][SSDSIM_QUICK_N_JOBS];
    ssdsim_measurement f[SSDSIM_QUICK_N_JOBS]; /* the cells of the test under way */
};

static void on_state(ssdsim_quick_state st, void *ud)
{
    struct run_ctx *x = ud;
    if (st == SSDSIM_QUICK_CACHE_ON)
        suite_say(x->s, "write cache on / off (4K random write, whole device):");
    else if (st < SSDSIM_QUICK_CACHE_ON && x->one_state)
        suite_say(x->s, "the disk (writing changes no state of it: fresh and written full are "
                        "one state, measured once):");
    else if (st < SSDSIM_QUICK_CACHE_ON)
        suite_say(x->s, "%s:", state_label[st]);
}

static void on_steady(ssdsim_steady_method how, const char *bssplit, void *ud)
{
    struct run_ctx *x = ud;
    ssdsim_suite_wl pre = WL("randwrite", "4k", NULL, -1, 16, 16);
    (void)bssplit;
    suite_steady_notes(x->s, &pre, how,
                       how == SSDSIM_STEADY_BY_RUN
                           ? "a sequential fill, then 4K random writes over the whole drive,"
                           : "4K random writes over the whole drive");
    if (how == SSDSIM_STEADY_BY_RUN)
        suite_shortcut(x->s, "Written full: a sequential fill of the whole drive came before "
                              "the 4K random writes, so that every logical unit is written "
                              "(uniform random writes alone leave about e^-k of them unwritten "
                              "after k drive writes, and a read of one returns without "
                              "touching flash).");
}

static int on_cell(ssdsim_quick_state st, size_t ti, size_t j, const ssdsim_measurement *m,
                   void *ud)
{
    struct run_ctx *x = ud;
    suite_window_notes(x->s, m, x->one_state ? 0 : SUITE_GC_CYCLES,
                       (double)x->s->opt->test_ns / 1e9);
    ssdsim_device_stats d;
    if (st < SSDSIM_QUICK_CACHE_ON && ti < 20 && ssdsim_get_device_stats(x->sim, &d) == 0) {
        x->unmapped[st][ti][j] = d.unmapped_reads;
        x->fg_victims[st][ti][j] = d.gc_fg_victims;
        x->fg_copied[st][ti][j] = d.gc_pages_copied - d.gc_bg_pages_copied;
    }
    x->f[j] = *m;
    if (j + 1 < SSDSIM_QUICK_N_JOBS)
        return 0;
    const ssdsim_measurement *f = x->f;
    ssdsim_quick_test t;
    ssdsim_quick_get_test(ti, &t);
    g_autofree char *label = test_label(&t);
    if (st >= SSDSIM_QUICK_CACHE_ON)
        suite_say(x->s,
                  "  cache %s, %s: %.0f / %.0f / %.0f IOPS, mean %.1f / %.1f / %.1f us at 1 / "
                  "4 / 64 jobs",
                  st == SSDSIM_QUICK_CACHE_ON || st == SSDSIM_QUICK_CACHE_ON_FULL ? "on" : "off",
                  st >= SSDSIM_QUICK_CACHE_ON_FULL ? "written full"
                  : x->one_state                   ? "the disk"
                                                   : "fresh",
                  f[0].iops,
                  f[1].iops, f[2].iops,
                  f[0].lat_mean_ns / 1e3, f[1].lat_mean_ns / 1e3, f[2].lat_mean_ns / 1e3);
    else if (t.iops)
        suite_say(x->s, "  %s: %.0f / %.0f / %.0f IOPS at 1 / 4 / 64 jobs", label, f[0].iops,
                  f[1].iops, f[2].iops);
    else
        suite_say(x->s, "  %s: %.1f / %.1f / %.1f MB/s at 1 / 4 / 64 jobs", label,
                  f[0].bw_bytes / 1e6, f[1].bw_bytes / 1e6, f[2].bw_bytes / 1e6);
    return 0;
}

int suite_quick_matrix(struct suite *s)
{
    ssdsim *sim = suite_sim_new(s, s->model);
    if (!sim)
        return -1;
    struct run_ctx x = {.s = s,
                        .sim = sim,
                        .one_state = ssdsim_model_get_kind(s->model) == SSDSIM_MODEL_HDD};
    ssdsim_curve_opts co = suite_curve_opts(s);
    ssdsim_quick_opts o = SSDSIM_QUICK_OPTS_INIT;
    o.window_ns = s->opt->window_ns;
    o.idle_ns = s->opt->idle_ns;
    o.test_ns = s->opt->test_ns;
    o.full_fills = s->opt->full_fills;
    o.rounds_per_drive_write = co.rounds_per_drive_write;
    o.max_drive_writes = co.max_drive_writes;
    o.seed = s->seed;
    o.progress = cli_interrupt_cb; /* SIGINT and SIGTERM cancel the run (interrupt.c) */
    o.on_state = on_state;
    o.on_steady = on_steady;
    o.on_cell = on_cell;
    o.userdata = &x;
    ssdsim_quick_result *res = NULL;
    if (ssdsim_quick_run(&res, sim, s->model, &o)) {
        cli_error("quick-matrix: %s", ssdsim_errmsg(sim));
        ssdsim_free(sim);
        return -1;
    }
    ssdsim_free(sim);
    ssdsim_quick_summary sum;
    ssdsim_quick_get_summary(res, &sum);
    const bool disk = sum.one_state; /* a hard disk: one state, measured once */
    const int n_st = disk ? 1 : 2;   /* the states reported: a disk's cells once */
    size_t n_short = 0; /* cells that held fewer than SUITE_MIN_IOS requests */
    /* Written-full write cells with no garbage collection while the host wrote: the test ended
     * before it reached the host (a drive that collects garbage: not a disk, nor media
     * written in place) */
    char cell_media[16] = "";
    ssdsim_model_get_string(s->model, "flash.cell", cell_media, sizeof cell_media, NULL);
    const bool collects = !disk &&
                          ssdsim_model_get_device_kind(s->model) == SSDSIM_MODEL_SSD &&
                          strcmp(cell_media, "xpoint") != 0;
    bool no_gc[20][SSDSIM_QUICK_N_JOBS] = {{false}};
    size_t n_no_gc = 0, n_full_writes = 0;
    uint64_t least_ios = UINT64_MAX;
    uint64_t logical = sum.logical_bytes, window = sum.window_ns, test = sum.test_ns;
    size_t n_whole[2] = {0, 0}, n_cells[2] = {0, 0}; /* cells measured over the whole test */
    uint64_t full_unmapped = 0; /* reads of never-written units on the written-full drive */
    size_t n_tests = ssdsim_quick_n_tests();
    /* fig[state][test][jobs] */
    ssdsim_measurement *fig = g_new0(ssdsim_measurement, 2 * n_tests * 3);
#define FIG(st, t, j) fig[((st)*n_tests + (t)) * 3 + (j)]
    ssdsim_quick_test *tests = g_new(ssdsim_quick_test, n_tests);
    GString *csv = g_string_new("state,test,pattern,direction,region,block_size,jobs,iops,mb_s,"
                                "lat_mean_us,lat_max_us,lat_p99_us,converged,whole_test\n");
    GString *cdf = g_string_new("series,lat_us,cdf\n");
    cJSON *cdf_obj = cJSON_AddObjectToObject(s->json, "latency_cdf");
    cJSON *results = cJSON_AddArrayToObject(s->json, "tests");
    for (int st = 0; st < n_st; st++) {
        for (size_t ti = 0; ti < n_tests; ti++) {
            const ssdsim_quick_test *t = &tests[ti];
            ssdsim_quick_get_test(ti, &tests[ti]);
            g_autofree char *id = test_id(t);
            for (size_t ji = 0; ji < 3; ji++) {
                ssdsim_measurement *f = &FIG(st, ti, ji);
                ssdsim_quick_get_cell(res, (ssdsim_quick_state)st, ti, ji, f);
                ssdsim_suite_wl w;
                ssdsim_quick_cell(ti, ji, logical, &w);
                const ssdsim_latency_sum *lat =
                    ssdsim_quick_latency(res, (ssdsim_quick_state)st, ti);
                if (lat && ji == 2) {
                    g_autofree char *series = g_strdup_printf(
                        "4K random %s, 64 jobs, %s", t->write ? "write" : "read", state_id[st]);
                    g_autofree char *key = g_strdup_printf("%s-%s-64", state_id[st], id);
                    suite_sum_cdf(lat, series, cdf, cdf_obj, key);
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
                suite_json_u64(e, "jobs", w.threads);
                suite_json_u64(e, "iodepth", 1);
                suite_fig_json(e, f);
                suite_json_u64(e, "unmapped_reads", x.unmapped[st][ti][ji]);
                suite_json_u64(e, "gc_fg_victims", x.fg_victims[st][ti][ji]);
                suite_json_u64(e, "gc_fg_pages_copied", x.fg_copied[st][ti][ji]);
                if (st == 1 && !t->write)
                    full_unmapped += x.unmapped[st][ti][ji];
                /* a fixed-length test has no ramp (ssdsim_quick_summary.test_ns) */
                bool whole = f->ramp_ns == 0;
                cJSON_AddBoolToObject(e, "whole_test", whole);
                n_whole[st] += whole;
                n_cells[st]++;
                if (st == 1 && t->write && collects) {
                    n_full_writes++;
                    no_gc[ti][ji] = !x.fg_victims[st][ti][ji] && !x.fg_copied[st][ti][ji];
                    n_no_gc += no_gc[ti][ji];
                }
                if (f->n_ios < SUITE_MIN_IOS && f->window_ns >= test) {
                    n_short++;
                    least_ios = f->n_ios < least_ios ? f->n_ios : least_ios;
                }
                cJSON_AddItemToArray(results, e);
                g_string_append_printf(csv, "%s,%s,%s,%s,%s,%s,%" PRIu32 ",", state_id[st], id,
                                       t->seq ? "sequential" : "random",
                                       t->write ? "write" : "read", region_id[t->region],
                                       t->iops ? "4K" : "128K", w.threads);
                const double v[] = {f->iops, f->bw_bytes / 1e6, f->lat_mean_ns / 1e3,
                                    (double)f->lat_max_ns / 1e3, (double)f->lat_p99_ns / 1e3};
                for (size_t k = 0; k < G_N_ELEMENTS(v); k++)
                    suite_csv_num(csv, v[k], false);
                g_string_append_printf(csv, "%d,%d\n", f->steady ? 1 : 0, whole ? 1 : 0);
            }
        }
    }
    /* Write cache on and off: the model's write buffer decides whether there is anything to
     * compare. */
    if (disk) /* the "fresh" cells are the written-full ones too */
        cJSON_AddBoolToObject(s->json, "full_is_fresh", true);
    cJSON *wc = cJSON_AddObjectToObject(s->json, "write_cache");
    ssdsim_write_buffer buffer = sum.buffer;
    cJSON_AddStringToObject(wc, "buffer", wbuf_name[buffer]);
    const char *wc_key = ssdsim_model_write_cache_key(s->model);
    if (wc_key && buffer == SSDSIM_WRITE_BUFFER_VOLATILE)
        cJSON_AddStringToObject(wc, "key", wc_key);
    ssdsim_measurement wcfig[2][2][3] = {{{{0}}}}; /* [full][on][jobs] */
    bool compared = sum.cache_compared;
    cJSON_AddBoolToObject(wc, "compared", compared);
    if (compared) {
        cJSON *arr = cJSON_AddArrayToObject(wc, "tests");
        for (int full = 0; full < (disk ? 1 : 2); full++)
            for (int on = 1; on >= 0; on--) {
                ssdsim_quick_state st = full ? (on ? SSDSIM_QUICK_CACHE_ON_FULL
                                                   : SSDSIM_QUICK_CACHE_OFF_FULL)
                                             : (on ? SSDSIM_QUICK_CACHE_ON
                                                   : SSDSIM_QUICK_CACHE_OFF);
                for (size_t ji = 0; ji < 3; ji++) {
                    ssdsim_measurement *f = &wcfig[full][on][ji];
                    ssdsim_quick_get_cell(res, st, sum.cache_test, ji, f);
                    cJSON *e = cJSON_CreateObject();
                    cJSON_AddStringToObject(e, "state", state_id[full]);
                    cJSON_AddStringToObject(e, "cache", on ? "on" : "off");
                    suite_json_u64(e, "jobs", ssdsim_quick_jobs(ji));
                    suite_fig_json(e, f);
                    cJSON_AddBoolToObject(e, "whole_test", f->ramp_ns == 0);
                    cJSON_AddItemToArray(arr, e);
                }
            }
    }
    ssdsim_quick_free(res);

    /* A system of devices: what acknowledges its writes (the suite switches the write cache
     * of a single solid-state device only) */
    const ssdsim_model *member = ssdsim_model_member(s->model);
    g_autofree char *system_cache = NULL;
    int64_t card = 0; /* the card's cache: battery-backed, it acknowledges writes and flushes */
    bool bbu = false;
    if (member) {
        ssdsim_model_get_int(s->model, "system.cache", &card, NULL);
        ssdsim_model_get_bool(s->model, "system.cache_bbu", &bbu, NULL);
        bool on = false;
        ssdsim_write_buffer mb = ssdsim_model_write_buffer(member);
        const char *key = ssdsim_model_write_cache_key(member);
        if (key)
            ssdsim_model_get_bool(member, key, &on, NULL);
        g_autofree char *vol = g_strdup_printf("each device acknowledges the writes it is given "
                                               "from its volatile write cache, on as its model "
                                               "sets it (%s)",
                                               key ? key : "");
        const char *how =
            card > 0 && bbu ? "the card's battery-backed write-back cache (system.cache) "
                              "acknowledges every write from its memory"
            : mb == SSDSIM_WRITE_BUFFER_PLP
                ? "each device acknowledges the writes it is given from its power-loss "
                  "protected buffer"
            : mb == SSDSIM_WRITE_BUFFER_VOLATILE && on ? vol
            : ssdsim_model_get_kind(member) == SSDSIM_MODEL_HDD
                ? "a write completes when the disks have it on their platters"
                : "a write completes when the devices have programmed it";
        system_cache = g_strdup_printf("**Write cache on/off**: the suite compares the setting "
                                       "on a single solid-state device; this model is a system "
                                       "of devices, and %s%s.",
                                       how,
                                       card > 0 && !bbu ? " (its card has a cache without "
                                                          "battery: it writes through)"
                                                        : "");
    }

    /* The report: IOPS and bandwidth tables, fresh against written full, by jobs. */
    char b1[32];
    g_autofree char *full_text =
        sum.full_fills ? g_strdup_printf("secure-erased, then written full by %u sequential "
                                         "fill%s of 128 KiB writes, `--full-state seq:%u`: its "
                                         "layout sequential, its free blocks the spare",
                                         sum.full_fills, sum.full_fills == 1 ? "" : "s",
                                         sum.full_fills)
                       : g_strdup("the steady state of 4 KiB random writes over the whole "
                                  "drive: the worst case for random writes, its layout "
                                  "scattered; `--full-state seq` writes it full sequentially "
                                  "instead");
    double disk_cache = 0;
    if (disk)
        ssdsim_model_get_double(s->model, "hdd.cache", &disk_cache, NULL);
    g_autofree char *disk_wc =
        disk ? g_strdup_printf("**Write cache on/off**: the disk's %s cache (hdd.cache) is "
                               "volatile; the table below compares the 4K random write test "
                               "(whole device) with its write cache on (hdd.write_cache true: "
                               "a write is acknowledged once it is in the cache, which destages "
                               "it later) and off (acknowledged once on the platter).",
                               suite_fmt_bytes(b1, sizeof b1, disk_cache))
             : NULL;
    g_autofree char *states =
        disk ? g_strdup("Drive states: a hard disk keeps no state that writing changes (no "
                        "flash, no mapping, no garbage collection): fresh and written full "
                        "are one state, so the matrix ran once, each test on the disk with "
                        "its cache emptied (a secure erase) before each test that follows a "
                        "write, and every test was measured the same way; the tables show "
                        "those figures once")
             : g_strdup_printf("Drive states: **fresh** (secure-erased before each test that "
                               "follows a write; reads of never-written data return without "
                               "touching flash, as on a real fresh drive) and **written full** "
                               "(%s)",
                               full_text);
    suite_md(s,
             "Procedure: tests of %.3g s with %.3g s of idle time between them, each "
             "at 1, 4 and 64 jobs of one outstanding request (effective queue depth 1, 4, 64); "
             "sequential jobs each stream "
             "through their own part of the region. %s %s of this %s %s. %s.\n\n",
             (double)test / 1e9, (double)s->opt->idle_ns / 1e9,
             disk && buffer == SSDSIM_WRITE_BUFFER_VOLATILE ? disk_wc
             : disk ? "**Write cache on/off**: the disk has no cache (hdd.cache 0): every "
                      "write completes once on the platter whatever the setting: there is "
                      "nothing to compare."
             : buffer == SSDSIM_WRITE_BUFFER_VOLATILE
                 ? "**Write cache on/off**: the model's write buffer is volatile; the table "
                   "below compares the 4K random write test (whole device, fresh and written "
                   "full) with its "
                   "write cache on (writes acknowledged from DRAM) and off (acknowledged once "
                   "programmed)."
             : buffer == SSDSIM_WRITE_BUFFER_PLP
                 ? "**Write cache on/off**: the model's write buffer is power-loss protected, "
                   "so it acknowledges writes from DRAM whatever the host's write cache "
                   "setting: there is nothing to compare, every test ran with it."
             : system_cache ? system_cache
                 : "**Write cache on/off**: the model has no write buffer (or is not a single "
                   "solid-state device), so every write completes when it is programmed "
                   "whatever the setting: there is nothing to compare.",
             sum.regions_5gib ? "The 5 GiB regions are the first and last 5 GiB"
                              : "The \"5 GiB\" regions are the first and last half (smaller "
                                "than 10 GiB)",
             suite_fmt_bytes(b1, sizeof b1, (double)logical), disk ? "disk" : "drive", states);
    if (s->opt->idle_ns && disk) {
        suite_md(s, "A disk collects no garbage: the idle time between tests lets the cache "
                    "write the dirty data a test left to the platters, and what a test left "
                    "queued end.\n\n");
    } else if (s->opt->idle_ns && !member) {
        double bg = 0;
        ssdsim_model_get_double(s->model, "gc.bg_idle_us", &bg, NULL);
        if (!(bg > 0))
            suite_md(s, "This model collects no garbage in idle time (gc.bg_idle_us 0): the "
                        "idle time between tests only lets what a test left running end (a "
                        "write buffer's flush, a collection under way), so each test starts on "
                        "the blocks the one before left.\n\n");
        else
            suite_md(s,
                     "Background garbage collection starts after %.0f us idle "
                     "(gc.bg_idle_us): the idle time between tests lets it free blocks.\n\n",
                     bg);
    } else if (s->opt->idle_ns) {
        /* a system: its devices' garbage collection, and its card's cache flushes */
        double bg = 0;
        ssdsim_model_get_double(member, "gc.bg_idle_us", &bg, NULL);
        int64_t card_idle = 0;
        ssdsim_model_get_int(s->model, "system.cache_idle_us", &card_idle, NULL);
        bool flushes = card > 0 && bbu;
        if (bg > 0)
            suite_md(s, "The devices' background garbage collection starts after %.0f us idle "
                        "(their gc.bg_idle_us)", bg);
        else
            suite_md(s, "The devices have no background garbage collection (their "
                        "gc.bg_idle_us 0)");
        if (flushes)
            suite_md(s, "; the card writes its cache's dirty data to them after %" PRId64
                        " us idle (system.cache_idle_us)",
                     card_idle);
        suite_md(s, ": the idle time between tests %s.\n\n",
                 bg > 0 && flushes ? "lets them free blocks and drains the cache, as fast as "
                                     "the devices take its data (small random writes slowly: "
                                     "a cache full of them can outlast the pauses)"
                 : bg > 0          ? "lets them free blocks"
                 : flushes         ? "drains the cache, as fast as the devices take its data "
                                     "(small random writes slowly: a cache full of them can "
                                     "outlast the pauses)"
                                   : "only lets what a test left running end");
    }
    const char *cols = disk ? "| test | 1 job | 4 jobs | 64 jobs |\n|---|---:|---:|---:|\n"
                            : "| test | fresh, 1 job | 4 jobs | 64 jobs | written full, 1 job "
                              "| 4 jobs | 64 jobs |\n|---|---:|---:|---:|---:|---:|---:|\n";
    for (int kind = 0; kind < 2; kind++) {
        suite_md(s, "\n## %s\n\n%s", kind == 0 ? "IOPS (4 KiB)" : "Bandwidth, MB/s (128 KiB)",
                 cols);
        bool marked = false; /* a cell of this table is marked (no_gc) */
        for (size_t ti = 0; ti < n_tests; ti++) {
            const ssdsim_quick_test *t = &tests[ti];
            if (t->iops != (kind == 0))
                continue;
            g_autofree char *label = test_label(t);
            suite_md(s, "| %s |", label);
            for (int st = 0; st < n_st; st++)
                for (int ji = 0; ji < 3; ji++) {
                    const ssdsim_measurement *f = &FIG(st, ti, ji);
                    const char *mark = st == 1 && no_gc[ti][ji] ? " \\*" : "";
                    marked = marked || *mark;
                    if (kind == 0)
                        suite_md(s, " %.0f%s |", f->iops, mark);
                    else
                        suite_md(s, " %.1f%s |", f->bw_bytes / 1e6, mark);
                }
            suite_md(s, "\n");
        }
        if (marked)
            suite_md(s, "\n\\* written full, but no garbage collection ran while the host "
                        "wrote in that test (`gc_fg_victims` 0 in the JSON): it ended before "
                        "garbage collection reached the host, so the figure is the speed of "
                        "the free blocks the state and the idle time left, not the "
                        "written-full drive's sustained rate (see the notes).\n");
        suite_md(s, "\n![%s](quick-%s.png)\n", kind == 0 ? "IOPS" : "Bandwidth",
                 kind == 0 ? "iops" : "mbs");
    }
    suite_md(s, "\n## Mean latency (ms), 4 KiB tests\n\n%s", cols);
    for (size_t ti = 0; ti < n_tests; ti++) {
        const ssdsim_quick_test *t = &tests[ti];
        if (!t->iops)
            continue;
        g_autofree char *label = test_label(t);
        suite_md(s, "| %s |", label);
        for (int st = 0; st < n_st; st++)
            for (int ji = 0; ji < 3; ji++)
                suite_md(s, " %.3f |", FIG(st, ti, ji).lat_mean_ns / 1e6);
        suite_md(s, "\n");
    }
    if (full_unmapped)
        suite_md(s, "\n**Not fully written**: %" PRIu64 " reads of the written-full drive "
                    "found units never written (`unmapped_reads` in the JSON) and returned "
                    "without touching flash: its read figures flatter it.\n",
                 full_unmapped);
    suite_md(s, "\n![Latency CDF](latency-cdf.png)\n");
    suite_csv(s, "quick-matrix.csv", g_string_free(csv, FALSE));
    suite_csv(s, "latency-cdf.csv", g_string_free(cdf, FALSE));

    /* Plots: IOPS and MB/s against jobs (= effective queue depth), fresh and full side by side,
     * one line per test; the latency CDF. */
    for (int kind = 0; kind < 2; kind++) {
        GString *g = g_string_new(NULL);
        g_string_append_printf(g,
                               "set multiplot layout 1,%d title '%s against jobs (1 outstanding "
                               "request each)'\nset logscale xy\nset xrange [0.8:80]\n"
                               "set xtics (1, 4, 64)\nset xlabel 'jobs (effective queue depth)'\n"
                               "set ylabel '%s'\nset key top left font ',8'\n",
                               n_st, kind == 0 ? "IOPS (4 KiB)" : "Bandwidth (128 KiB)",
                               kind == 0 ? "IOPS" : "MB/s");
        for (int st = 0; st < n_st; st++) {
            g_string_append_printf(g, "set title '%s'\nplot ",
                                   disk ? "the disk (fresh = written full)" : state_label[st]);
            bool first = true;
            for (size_t ti = 0; ti < n_tests; ti++) {
                const ssdsim_quick_test *t = &tests[ti];
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
    for (int st = 0; st < n_st; st++)
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
    if (window < test && disk)
        suite_shortcut(s,
                       "Every test ran a window of %.3g s of simulated time (longer when it "
                       "held too few requests, up to the test's %.3g s; after a ramp of a "
                       "tenth, not counted) instead of the test's length: a disk's rate does "
                       "not change as a test goes on, but for the fraction of a second its "
                       "cache takes to fill, whose writes are acknowledged at the link's rate "
                       "and which a rate over the whole test would count as sustained: the "
                       "ramp leaves it out when the fill is shorter than the ramp.",
                       (double)window / 1e9, (double)test / 1e9);
    else if (window < test)
        suite_shortcut(
            s,
            "Tests whose figure does not depend on how long they run ran windows of %.3g s of "
            "simulated time (longer when they held too few requests; after a ramp of a tenth, "
            "not counted) instead of the test's %.3g s, stopping early once the IOPS of 5 "
            "rounds of a tenth met the SNIA steady-state rule (`converged`; on the "
            "written-full drive only: the rule judges only a preconditioned drive, so the "
            "fresh drive's tests ran their whole window): the reads, and the fresh drive's "
            "writes that at their window's rate would write less than half its free flash (and "
            "of its SLC cache, and of a RAID card's write-back cache) in the whole test, so "
            "that they stay clear of garbage collection (and of a full cache). The others ran "
            "the whole test from its first request (`whole_test` in the JSON and CSV: %zu of %zu fresh cells, %zu of %zu written-full ones): the "
            "fresh drive's other writes, and every write on the written-full drive, which may "
            "use up the blocks background garbage collection freed in the idle time before it "
            "and carries into the next test (a short window on those free blocks would show a "
            "written-full drive as fast as a fresh one). The idle time between tests is "
            "simulated in full.",
            (double)window / 1e9, (double)test / 1e9, n_whole[0], n_cells[0], n_whole[1],
            n_cells[1]);
    if (n_short)
        suite_shortcut(s,
                       "%zu of the %zu measured cells held fewer than %d requests even run to "
                       "the test's length (%.3g s caps a window; the least held %" PRIu64
                       "): slow points (%s), their figures rest on fewer requests than the "
                       "suite asks for; longer tests (`--test-time`, the procedure's 60 s) "
                       "hold more.",
                       n_short, n_cells[0] + n_cells[1], SUITE_MIN_IOS,
                       (double)test / 1e9, least_ios,
                       disk ? "a disk's random requests and its many-job streams that seek "
                              "between each other"
                            : "the writes of a drive collecting garbage, or requests slow "
                              "to serve");
    if (n_no_gc)
        suite_shortcut(s,
                       "In %zu of the %zu written-full write cells (marked \\* in the tables) "
                       "no garbage collection ran while the host wrote: the %.3g s test ended "
                       "before it reached the host, and the figure is no written-full "
                       "steady state (it can equal the fresh drive's). Longer tests "
                       "(`--test-time`, the procedure's 60 s) let it reach the host.",
                       n_no_gc, n_full_writes, (double)test / 1e9);
    if (disk)
        suite_shortcut(s, "Written full: a hard disk keeps no state that writes change, so "
                          "its written-full figures are its fresh ones, not measured again "
                          "(the JSON and CSV hold them once, as `fresh`, and the JSON says "
                          "`full_is_fresh`).");
    else if (!sum.full_fills &&
             ssdsim_model_get_device_kind(s->model) == SSDSIM_MODEL_HDD)
        suite_shortcut(s, "Written full: hard disks keep no state that writes change, so the "
                          "written-full tests ran on the disks as the fresh ones left them%s; "
                          "the tests then ran in order, as in the labs, so the writes of one "
                          "test carry into the next.",
                       card > 0 && bbu ? ", with the card's cache filled by 4 KiB random "
                                         "writes over the whole volume (the steady state of "
                                         "those writes)"
                                       : "");
    else if (!sum.full_fills)
        suite_shortcut(s, "Written full: the drive was fast-preconditioned to the steady state "
                          "of 4 KiB random writes over its whole capacity instead of being "
                          "written full several times; the tests then ran in order on that "
                          "drive, as in the labs, so the writes of one test carry into the "
                          "next.");
    else
        suite_shortcut(s, "Written full: the sequential fills ran by functional fast-forward where "
                          "the device allows it "
                          "(unless --precondition-method timed): the same pages in the same "
                          "order, without timing; the tests then ran in order on that drive, "
                          "as in the labs, so the writes of one test carry into the next.");
    if (compared) {
        suite_md(s, "\n## Write cache on and off (4K random write, whole device)\n\n%s\n\n",
                 disk ? "Each on a disk of its own (a copy of the model with hdd.write_cache "
                        "on, then off), its cache emptied before each job count; written "
                        "full is the same state, not run again."
                      : "Each on a drive of its own: fresh (secure-erased before each job "
                        "count), then written full as above, its job counts in order with "
                        "the idle time between.");
        suite_md(s, "| Write cache | drive | 1 job IOPS | 4 jobs IOPS | 64 jobs IOPS | 1 job "
                    "mean us |\n|---|---|---:|---:|---:|---:|\n");
        for (int full = 0; full < n_st; full++)
            for (int on = 1; on >= 0; on--) {
                const ssdsim_measurement *f = wcfig[full][on];
                suite_md(s, "| %s | %s | %.0f | %.0f | %.0f | %.1f |\n", on ? "on" : "off",
                         disk ? "the disk" : state_label[full], f[0].iops, f[1].iops, f[2].iops,
                         f[0].lat_mean_ns / 1e3);
            }
        suite_md(s, "\n");
    }
#undef FIG
    g_free(fig);
    g_free(tests);
    return 0;
}
