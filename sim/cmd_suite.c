/* cmd_suite.c: `ssdsim suite review|snia|quick-matrix|endurance|tenants|fdp`, the command line
 * and what the procedures share: workloads of fio options built from a few fields, measured windows,
 * preconditioning curves (on a scaled copy of the model when the model is large, see
 * doc/suites.md), and the output folder (suite.json with every figure, one CSV per chart,
 * report.md, suite.gp and, with gnuplot, the PNG plots).
 *
 * The procedures themselves are in suite_review.c, suite_snia.c and suite_quick.c. Everything a
 * suite writes is built in memory and written at the end; nothing in it depends on the wall
 * clock, which is read only for the progress lines on stdout.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <time.h>

#include "suite.h"

#define MS_NS UINT64_C(1000000)
#define S_NS UINT64_C(1000000000)

/* ------------------------------------------------------------------------------------------ */
/* Output pieces                                                                               */

void suite_say(struct suite *s, const char *fmt, ...)
{
    if (s->opt->o.quiet)
        return;
    va_list ap;
    va_start(ap, fmt);
    if (s->say) {
        g_ptr_array_add(s->say, g_strdup_vprintf(fmt, ap));
        va_end(ap);
        return;
    }
    vprintf(fmt, ap);
    va_end(ap);
    putchar('\n');
    fflush(stdout);
}

void suite_shortcut(struct suite *s, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *text = g_strdup_vprintf(fmt, ap);
    va_end(ap);
    for (guint i = 0; i < s->shortcuts->len; i++) {
        if (!strcmp(s->shortcuts->pdata[i], text)) {
            g_free(text);
            return;
        }
    }
    g_ptr_array_add(s->shortcuts, text);
}

void suite_md(struct suite *s, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    g_string_append_vprintf(s->md, fmt, ap);
    va_end(ap);
}

void suite_csv(struct suite *s, const char *name, char *text)
{
    g_ptr_array_add(s->csv_names, g_strdup(name));
    g_ptr_array_add(s->csv_texts, text);
}

void suite_plot(struct suite *s, const char *png, const char *commands)
{
    g_string_append_printf(s->gp, "\n# %s\nreset\nset datafile separator comma\nset grid\n", png);
    g_autofree char *q = cli_gnuplot_quote(png);
    g_string_append_printf(s->gp, "set output %s\n%s", q, commands);
    if (commands[0] && commands[strlen(commands) - 1] != '\n')
        g_string_append_c(s->gp, '\n');
    g_string_append(s->gp, "unset output\n");
    g_ptr_array_add(s->plots, g_strdup(png));
}

double suite_round6(double v)
{
    if (!isfinite(v) || v == 0)
        return v == 0 ? 0.0 : v;
    char buf[32];
    snprintf(buf, sizeof buf, "%.6g", v);
    return strtod(buf, NULL);
}

void suite_json_num(cJSON *obj, const char *key, double v)
{
    if (isfinite(v))
        cJSON_AddNumberToObject(obj, key, suite_round6(v));
    else
        cJSON_AddNullToObject(obj, key);
}

void suite_json_u64(cJSON *obj, const char *key, uint64_t v)
{
    /* Every integer a suite writes is far below 2^53, where doubles are exact. */
    cJSON_AddNumberToObject(obj, key, (double)v);
}

void suite_json_move(cJSON *to, cJSON *from)
{
    cJSON *it;
    while (from && (it = from->child) != NULL) {
        cJSON_DetachItemViaPointer(from, it);
        if (cJSON_IsArray(to))
            cJSON_AddItemToArray(to, it);
        else
            cJSON_AddItemToObject(to, it->string, it);
    }
}

void suite_csv_num(GString *row, double v, bool last)
{
    if (isfinite(v))
        g_string_append_printf(row, "%.6g", v == 0 ? 0.0 : v);
    g_string_append_c(row, last ? '\n' : ',');
}

const char *suite_fmt_bytes(char *buf, size_t len, double bytes)
{
    static const char *const unit[] = {"B", "KiB", "MiB", "GiB", "TiB"};
    int u = 0;
    while (bytes >= 1024 && u < 4) {
        bytes /= 1024;
        u++;
    }
    snprintf(buf, len, u ? "%.2f %s" : "%.0f %s", bytes, unit[u]);
    return buf;
}

/* ------------------------------------------------------------------------------------------ */
/* Workloads                                                                                   */

char *suite_wl_json(const ssdsim_suite_wl *w)
{
    GString *j = g_string_new("{");
    const char *key;
    char val[256];
    bool str;
    for (size_t i = 0; ssdsim_suite_wl_option(w, i, &key, val, sizeof val, &str) == 0; i++)
        g_string_append_printf(j, str ? "%s\"%s\": \"%s\"" : "%s\"%s\": %s", i ? ", " : "", key,
                               val);
    g_string_append_c(j, '}');
    return g_string_free(j, FALSE);
}

ssdsim_workload *suite_wl_new(const ssdsim_suite_wl *w)
{
    ssdsim_workload *wl = NULL;
    ssdsim_error err;
    if (ssdsim_suite_wl_workload(&wl, w, &err)) {
        g_autofree char *wj = suite_wl_json(w);
        cli_error("%s (workload %s)", err.message, wj);
        return NULL;
    }
    return wl;
}

/* Print the last failure on `sim` with `what` before it and the workload after it; -1. */
static int wl_fail(const ssdsim *sim, const char *what, const ssdsim_suite_wl *w)
{
    g_autofree char *wj = suite_wl_json(w);
    cli_error("%s%s (workload %s)", what, ssdsim_errmsg(sim), wj);
    return -1;
}

/* ------------------------------------------------------------------------------------------ */
/* Simulations                                                                                 */

ssdsim *suite_sim_new(struct suite *s, const ssdsim_model *model)
{
    ssdsim *sim = NULL;
    ssdsim_error err;
    if (ssdsim_new(&sim, model, s->seed, &err)) {
        cli_error("%s", err.message);
        return NULL;
    }
    /* SIGINT and SIGTERM cancel the run under way at its next progress check (interrupt.c). */
    ssdsim_set_progress(sim, cli_interrupt_cb, NULL);
    return sim;
}

ssdsim_model *suite_model_copy(const ssdsim_model *model)
{
    ssdsim_model *m = NULL;
    if (ssdsim_model_copy(&m, model)) {
        cli_error("out of memory");
        return NULL;
    }
    return m;
}

int suite_erase(ssdsim *sim)
{
    if (ssdsim_secure_erase(sim)) {
        cli_error("secure erase: %s", ssdsim_errmsg(sim));
        return -1;
    }
    return 0;
}

void suite_window_notes(struct suite *s, const ssdsim_measurement *f, unsigned gc_cycles,
                        double up_to_s)
{
    if (f->gc_wait_ns)
        suite_shortcut(s, "A workload that writes nothing, measured after writes, first ran "
                          "while the garbage collection those writes left running went on "
                          "(`gc_wait_ns` in the JSON), not counted: a lab's test of minutes "
                          "barely feels that tail, a window of seconds would be mostly tail.");
    if (f->short_of_gc)
        suite_shortcut(s,
                       "Some windows of workloads that write held fewer than %u blocks per "
                       "plane of host writes even at their longest (`short_of_gc` in the "
                       "JSON): their figures average over fewer periods of garbage collection "
                       "than asked, and may carry the phase of collection they fell in.",
                       gc_cycles);
    if (f->n_runs <= 1)
        return;
    char bound[64];
    if (up_to_s > 0)
        snprintf(bound, sizeof bound, "the test's %.3g s", up_to_s);
    else
        snprintf(bound, sizeof bound, "%d times", SUITE_MAX_STRETCH);
    if (gc_cycles)
        suite_shortcut(s,
                       "A window that held fewer than %d requests, fewer than %d per "
                       "outstanding request, or, for workloads that write, less than %u "
                       "blocks per plane of host writes (periods of garbage collection), "
                       "was run again, longer (up to %s), so that slow points are "
                       "measured over enough requests; `window_ns` in the JSON is the window "
                       "that counted.",
                       SUITE_MIN_IOS, SUITE_MIN_CYCLES, gc_cycles, bound);
    else
        suite_shortcut(s,
                       "A window that held fewer than %d requests or fewer than %d per "
                       "outstanding request was run again, longer (up to %s), so that "
                       "slow points are measured over enough requests; `window_ns` in the "
                       "JSON is the window that counted.",
                       SUITE_MIN_IOS, SUITE_MIN_CYCLES, bound);
}

void suite_settle_note(struct suite *s)
{
    suite_shortcut(s,
                   "After fast preconditioning, each workload wrote more before the "
                   "measurements, one block per plane at a time (at most %.2g drive writes), "
                   "until garbage collection had come down from the free blocks fast "
                   "preconditioning leaves to the level it holds against a saturating host.",
                   SSDSIM_SETTLE_DRIVE_WRITES);
}

int suite_measure(struct suite *s, ssdsim *sim, const ssdsim_suite_wl *w, uint64_t window_ns,
                  bool until_steady, unsigned gc_cycles, ssdsim_measurement *f)
{
    ssdsim_workload *wl = suite_wl_new(w);
    if (!wl)
        return -1;
    ssdsim_measure_opts mo = SSDSIM_MEASURE_OPTS_INIT;
    mo.window_ns = window_ns;
    mo.until_steady = until_steady;
    mo.gc_cycles = gc_cycles;
    mo.min_ios = SUITE_MIN_IOS;
    mo.min_ios_per_slot = SUITE_MIN_CYCLES;
    mo.max_stretch = SUITE_MAX_STRETCH;
    int rc = ssdsim_measure(sim, wl, &mo, f);
    ssdsim_workload_free(wl);
    if (rc)
        return wl_fail(sim, "", w);
    suite_window_notes(s, f, gc_cycles, 0);
    return 0;
}

void suite_fig_json(cJSON *o, const ssdsim_measurement *f)
{
    suite_json_num(o, "iops", f->iops);
    suite_json_num(o, "bw_bytes", f->bw_bytes);
    suite_json_num(o, "lat_mean_ns", f->lat_mean_ns);
    suite_json_u64(o, "lat_max_ns", f->lat_max_ns);
    suite_json_num(o, "lat_stddev_ns", f->lat_stddev_ns);
    suite_json_u64(o, "lat_p99_ns", f->lat_p99_ns);
    suite_json_u64(o, "lat_p99_99_ns", f->lat_p99_99_ns);
    suite_json_num(o, "read_iops", f->read_iops);
    suite_json_num(o, "write_iops", f->write_iops);
    suite_json_num(o, "read_lat_mean_ns", f->read_lat_mean_ns);
    suite_json_num(o, "write_lat_mean_ns", f->write_lat_mean_ns);
    suite_json_u64(o, "read_lat_max_ns", f->read_lat_max_ns);
    suite_json_u64(o, "write_lat_max_ns", f->write_lat_max_ns);
    suite_json_num(o, "waf", f->waf);
    suite_json_u64(o, "window_ns", f->window_ns);
    suite_json_u64(o, "run_ns", f->run_ns);
    suite_json_u64(o, "ramp_ns", f->ramp_ns);
    suite_json_u64(o, "gc_wait_ns", f->gc_wait_ns);
    suite_json_u64(o, "rounds", f->n_rounds);
    cJSON_AddBoolToObject(o, "converged", f->steady);
    if (f->short_of_gc) /* only when so: the figures of every other window read as before */
        cJSON_AddBoolToObject(o, "short_of_gc", true);
}

void suite_sum_cdf(const ssdsim_latency_sum *h, const char *series, GString *csv, cJSON *obj,
                   const char *json_key)
{
    cJSON *arr = cJSON_AddArrayToObject(obj, json_key);
    size_t n = ssdsim_latency_sum_cdf(h, NULL, NULL, 0);
    uint64_t *lat = g_new(uint64_t, n + 1);
    double *cdf = g_new(double, n + 1);
    n = ssdsim_latency_sum_cdf(h, lat, cdf, n);
    for (size_t i = 0; i < n; i++) {
        if (i == 0 && csv) {
            /* The CDF rises from 0 at the first bucket: a step, not a line from nowhere. */
            g_string_append_printf(csv, "%s,", series);
            suite_csv_num(csv, (double)lat[0] / 1e3, false);
            suite_csv_num(csv, 0, true);
        }
        if (csv) {
            g_string_append_printf(csv, "%s,", series);
            suite_csv_num(csv, (double)lat[i] / 1e3, false);
            suite_csv_num(csv, cdf[i], true);
        }
        cJSON *pt = cJSON_CreateArray();
        cJSON_AddItemToArray(pt, cJSON_CreateNumber((double)lat[i]));
        cJSON_AddItemToArray(pt, cJSON_CreateNumber(suite_round6(cdf[i])));
        cJSON_AddItemToArray(arr, pt);
    }
    g_free(lat);
    g_free(cdf);
}

void suite_cdf(const ssdsim *sim, enum ssdsim_op op, const char *series, GString *csv, cJSON *obj,
               const char *json_key)
{
    ssdsim_latency_sum *h = NULL;
    ssdsim_latency_sum_new(&h);
    ssdsim_latency_sum_add_run(h, sim, op);
    suite_sum_cdf(h, series, csv, obj, json_key);
    ssdsim_latency_sum_free(h);
}

/* ------------------------------------------------------------------------------------------ */
/* Preconditioning curves                                                                      */

ssdsim_curve_opts suite_curve_opts(const struct suite *s)
{
    ssdsim_curve_opts o = SSDSIM_CURVE_OPTS_INIT;
    o.rounds_per_drive_write = s->opt->quick ? 10 : 20;
    o.max_drive_writes = s->opt->max_dw;
    return o;
}

static char *curve_csv(const ssdsim_curve *c)
{
    GString *t = g_string_new("t_s,t_copy_s,drive_writes,iops,lat_mean_us,lat_max_us,"
                              "lat_stddev_us,lat_p99_us,waf,waf_cumulative,free_blocks_pct\n");
    for (size_t i = 0; i < ssdsim_curve_n_rows(c); i++) {
        ssdsim_curve_row x;
        ssdsim_curve_get_row(c, i, &x);
        const double v[] = {x.t_s,         x.t_copy_s,       x.drive_writes,   x.iops,
                            x.lat_mean_us, x.lat_max_us,     x.lat_stddev_us,  x.lat_p99_us,
                            x.waf,         x.waf_cumulative, x.free_blocks_pct};
        for (size_t k = 0; k < G_N_ELEMENTS(v); k++)
            suite_csv_num(t, v[k], k + 1 == G_N_ELEMENTS(v));
    }
    return g_string_free(t, FALSE);
}

static void curve_json(cJSON *o, const ssdsim_curve_summary *c, const ssdsim_curve *curve,
                       uint32_t rounds)
{
    cJSON_AddStringToObject(o, "ran_on", c->scaled ? "scaled copy" : "model");
    if (c->scaled)
        suite_json_u64(o, "copy_blocks_per_plane", c->copy_blocks_per_plane);
    suite_json_num(o, "time_scale", c->time_scale);
    suite_json_u64(o, "rounds_per_drive_write", rounds);
    suite_json_num(o, "min_drive_writes", c->min_drive_writes);
    suite_json_num(o, "max_drive_writes", c->max_drive_writes);
    cJSON *b = cJSON_AddObjectToObject(o, "burst");
    suite_json_num(b, "iops", c->burst_iops);
    suite_json_num(b, "cliff_t_s", c->cliff_t_s);
    cJSON *st = cJSON_AddObjectToObject(o, "steady");
    cJSON_AddBoolToObject(st, "reached", c->steady);
    suite_json_num(st, "drive_writes", c->steady_drive_writes);
    suite_json_num(st, "t_s", c->steady_t_s);
    suite_json_num(st, "iops", c->steady_iops);
    suite_json_num(st, "lat_mean_us", c->steady_lat_mean_us);
    suite_json_num(st, "lat_max_us", c->steady_lat_max_us);
    suite_json_num(st, "waf", c->steady_waf);
    cJSON *arr = cJSON_AddArrayToObject(o, "intervals");
    for (size_t i = 0; i < ssdsim_curve_n_rows(curve); i++) {
        ssdsim_curve_row x;
        ssdsim_curve_get_row(curve, i, &x);
        cJSON *e = cJSON_CreateObject();
        suite_json_num(e, "t_s", x.t_s);
        suite_json_num(e, "t_copy_s", x.t_copy_s);
        suite_json_num(e, "drive_writes", x.drive_writes);
        suite_json_num(e, "iops", x.iops);
        suite_json_num(e, "lat_mean_us", x.lat_mean_us);
        suite_json_num(e, "lat_max_us", x.lat_max_us);
        suite_json_num(e, "lat_stddev_us", x.lat_stddev_us);
        suite_json_num(e, "lat_p99_us", x.lat_p99_us);
        suite_json_num(e, "waf", x.waf);
        suite_json_num(e, "waf_cumulative", x.waf_cumulative);
        suite_json_num(e, "free_blocks_pct", x.free_blocks_pct);
        cJSON_AddItemToArray(arr, e);
    }
}

void suite_curve_plot(struct suite *s, const struct suite_curve *c, const char *title)
{
    g_autofree char *csv = g_strdup_printf("precondition-%s.csv", c->id);
    g_autofree char *png = g_strdup_printf("precondition-%s.png", c->id);
    g_autofree char *qcsv = cli_gnuplot_quote(csv);
    g_autofree char *qt = cli_gnuplot_quote(title);
    static const char *const panel[4][3] = {{"4", "IOPS", "IOPS"},
                                            {"($5/1000)", "mean latency", "ms"},
                                            {"($6/1000)", "max latency", "ms"},
                                            {"($7/1000)", "latency stddev", "ms"}};
    GString *g = g_string_new(NULL);
    g_string_append_printf(g, "set multiplot layout 2,2 title %s\nset key off\n", qt);
    g_string_append_printf(g, "set xlabel 'time (s%s)'\n",
                           c->sum.scaled ? ", scaled to the model" : "");
    for (int k = 0; k < 4; k++) {
        g_string_append_printf(g,
                               "set title '%s'\nset ylabel '%s'\nset yrange [0:*]\n"
                               "plot %s skip 1 using 1:%s with lines lw 1.5\n",
                               panel[k][1], panel[k][2], qcsv, panel[k][0]);
    }
    g_string_append(g, "unset multiplot\n");
    suite_plot(s, png, g->str);
    g_string_free(g, TRUE);
}

/* The bytes of the model's RAID card's battery-backed write-back cache (0: none), when `w`
 * writes (else 0). */
static int64_t card_cache_for(const struct suite *s, const ssdsim_suite_wl *w)
{
    int64_t card = 0;
    bool bbu = false;
    ssdsim_model_get_int(s->model, "system.cache", &card, NULL);
    ssdsim_model_get_bool(s->model, "system.cache_bbu", &bbu, NULL);
    return card > 0 && bbu && ssdsim_suite_wl_write_share(w) > 0 ? card : 0;
}

int suite_fill_card_cache(struct suite *s, ssdsim *sim, const ssdsim_suite_wl *w)
{
    if (!card_cache_for(s, w))
        return 0;
    ssdsim_workload *wl = suite_wl_new(w);
    if (!wl)
        return -1;
    int rc = ssdsim_fill_card_cache(sim, wl);
    ssdsim_workload_free(wl);
    if (rc)
        return wl_fail(sim, "filling the card's cache: ", w);
    suite_card_cache_note(s, w);
    return 0;
}

void suite_card_cache_note(struct suite *s, const ssdsim_suite_wl *w)
{
    int64_t card = card_cache_for(s, w);
    if (!card)
        return;
    char b[32];
    suite_shortcut(s,
                   "The RAID card's battery-backed write-back cache (system.cache, %s) was "
                   "filled by each workload that writes before its measurements, in rounds of "
                   "an eighth of it until a round added less than a quarter of a round to what it "
                   "held (ssdsim_fill_card_cache), as hours of writes leave it: a window of "
                   "seconds on an empty cache would measure the card's DRAM.",
                   suite_fmt_bytes(b, sizeof b, (double)card));
}

/* The "Shortcuts taken" bullets of how a drive reached steady state, and the progress line of
 * the long way. */
void suite_steady_notes(struct suite *s, const ssdsim_suite_wl *w, ssdsim_steady_method how,
                        const char *what)
{
    suite_card_cache_note(s, w);
    if (how == SSDSIM_STEADY_BY_NOTHING) {
        suite_shortcut(s, "The model is a hard disk or an array of them: it keeps no state "
                          "that writes change (no flash to fill, no garbage collection; a "
                          "disk's own write cache fills in seconds), so it was not "
                          "preconditioned and no preconditioning curve was run; the "
                          "measurements ran on the disks as they are.");
    } else if (how == SSDSIM_STEADY_BY_FAST) {
        suite_shortcut(s, "The drive was put at steady state by fast preconditioning "
                          "(ssdsim_precondition_fast: the state of a scaled copy run to steady "
                          "state, installed on the model) instead of hours of writes.");
        if (ssdsim_suite_wl_write_share(w) > 0)
            suite_settle_note(s);
    } else if (how == SSDSIM_STEADY_BY_COPY) {
        suite_shortcut(s, "The drive was put at steady state with the state its preconditioning "
                          "curve's scaled copy reached, installed on the model as fast "
                          "preconditioning installs a copy's (ssdsim_precondition_fast would run "
                          "a copy to that state again), instead of hours of writes.");
        if (ssdsim_suite_wl_write_share(w) > 0)
            suite_settle_note(s);
    } else {
        suite_shortcut(s, "Fast preconditioning is not available for this FTL (ftl.type): the "
                          "drive was brought to each workload's steady state by running the "
                          "workload itself (the two runs of a preconditioning curve, not "
                          "recorded).");
        suite_say(s, "  (this FTL has no fast preconditioning: running %s to steady state)", what);
    }
}

int suite_steady_state(struct suite *s, ssdsim *sim, const ssdsim_suite_wl *w, const char *what)
{
    ssdsim_workload *wl = suite_wl_new(w);
    if (!wl)
        return -1;
    ssdsim_curve_opts o = suite_curve_opts(s);
    ssdsim_steady_method how;
    int rc = ssdsim_reach_steady(sim, wl, &o, &how);
    ssdsim_workload_free(wl);
    if (rc) {
        g_autofree char *pre = g_strdup_printf("steady state (%s): ", what);
        return wl_fail(sim, pre, w);
    }
    suite_steady_notes(s, w, how, what);
    return 0;
}

int suite_precondition(struct suite *s, ssdsim *full, ssdsim *copy, const ssdsim_suite_wl *w,
                       const char *id, const char *title, cJSON *obj, struct suite_curve *c)
{
    memset(c, 0, sizeof *c);
    c->id = id;
    uint32_t rounds = s->opt->quick ? 10 : 20;
    if (ssdsim_model_get_device_kind(s->model) == SSDSIM_MODEL_HDD) {
        /* the disks as they are; a RAID card's write-back cache filled (ssdsim_reach_steady) */
        if (suite_steady_state(s, full, w, id))
            return -1;
        suite_say(s, "  no preconditioning curve: a hard disk");
        c->sum.scaled = copy != NULL;
        curve_json(obj, &c->sum, NULL, rounds);
        return 0;
    }
    ssdsim_workload *wl = suite_wl_new(w);
    if (!wl)
        return -1;
    ssdsim_curve_opts o = suite_curve_opts(s);
    ssdsim_curve *curve = NULL;
    int rc = ssdsim_curve_run(&curve, full, copy, wl, &o);
    ssdsim_workload_free(wl);
    if (rc)
        return wl_fail(full, "preconditioning: ", w);
    ssdsim_curve_get_summary(curve, &c->sum);
    c->n_rows = ssdsim_curve_n_rows(curve);
    const ssdsim_curve_summary *cs = &c->sum;
    char b1[32], b2[32];
    if (cs->steady)
        suite_say(s, "  preconditioning curve on %s: burst %.0f IOPS, steady %.0f IOPS after %.2f "
                  "drive writes", cs->scaled ? "the scaled copy" : "the model", cs->burst_iops,
                  cs->steady_iops, cs->steady_drive_writes);
    else
        suite_say(s, "  preconditioning curve on %s: burst %.0f IOPS, not steady: %.0f IOPS over "
                  "the last drive write when it stopped at its limit, %.2f drive writes",
                  cs->scaled ? "the scaled copy" : "the model", cs->burst_iops, cs->steady_iops,
                  cs->steady_drive_writes);
    if (cs->scaled) {
        ssdsim_device_stats dm, dc;
        ssdsim_get_device_stats(full, &dm);
        ssdsim_get_device_stats(copy, &dc);
        suite_shortcut(s,
                       "Preconditioning curves ran on a scaled copy of the model "
                       "(ssdsim_model_scaled_copy): the same geometry, timing and FTL with %" PRIu32
                       " blocks per plane instead of the model's, and over-provisioning set so "
                       "that the space garbage collection works with is used in the model's "
                       "proportion, so the same parallelism and about the same steady-state IOPS "
                       "and latency, on %s instead of %s; the burst lasts in proportion to "
                       "capacity, so the curves' time axis is the copy's simulated time "
                       "multiplied by the capacity ratio (%.4g). Maximum latencies per interval "
                       "come from fewer requests than the model's intervals would hold, so they "
                       "may read a little lower.",
                       cs->copy_blocks_per_plane,
                       suite_fmt_bytes(b1, sizeof b1, (double)dc.logical_bytes),
                       suite_fmt_bytes(b2, sizeof b2, (double)dm.logical_bytes), cs->time_scale);
        /* The model itself was then put at the steady state of the same workload. */
        g_autofree char *what = g_strdup_printf("the %s preconditioning", id);
        suite_steady_notes(s, w, cs->brought_by, what);
    }
    suite_shortcut(s,
                   "Preconditioning curves stop once the IOPS of the last drive write are steady "
                   "(least-squares line across it within 3%% of its mean, spread within 20%%) "
                   "or after %.3g drive writes, instead of running for a fixed 6 to 12 hours.",
                   s->opt->max_dw);
    curve_json(obj, cs, curve, rounds);
    g_autofree char *csv_name = g_strdup_printf("precondition-%s.csv", id);
    suite_csv(s, csv_name, curve_csv(curve));
    suite_curve_plot(s, c, title);
    ssdsim_curve_free(curve);
    return 0;
}

/* ------------------------------------------------------------------------------------------ */
/* The command line                                                                            */

static void suite_help(FILE *f)
{
    fputs("usage: ssdsim suite review|snia|quick-matrix|endurance|tenants|fdp|scaling|apps\n"
          "       [--model FILE|NAME] [OPTIONS]\n"
          "\n"
          "Run a measurement procedure on a device model and write into --out DIR: suite.json\n"
          "(every figure), one CSV per chart, report.md (tables, plots, the shortcuts taken),\n"
          "suite.gp and, when gnuplot is installed, the PNG plots. See doc/suites.md.\n"
          "SIGINT or SIGTERM stops the suite within a moment: it writes nothing (the folder is\n"
          "written only when every test has run), says so in one line and exits 130 or 143.\n"
          "\n"
          "Suites:\n"
          "  review        the review labs' enterprise synthetic workload analysis: per profile\n"
          "                (4K random write, 8K 70/30, file server, web server) a preconditioning\n"
          "                curve from a secure-erased drive at 16 threads x 16 queue depth, then\n"
          "                the 2T/2Q ... 16T/16Q matrix; 128K sequential read and write; 4K read\n"
          "                and write at 16T/16Q; with --compare-op, the same drive with more\n"
          "                over-provisioning\n"
          "  snia          SNIA PTS-E: the IOPS test (7 read/write mixes x 8 block sizes per\n"
          "                round until steady state), the throughput test and the latency test\n"
          "  quick-matrix  the hosting-company fio matrix: 60 s tests with 30 s idle between,\n"
          "                1, 4 and 64 jobs, sequential and random, whole device,\n"
          "                first 10%, first and last 5 GiB; fresh against written full\n"
          "  endurance     errors and latency against wear, with bit errors modelled (the\n"
          "                model's reliability section, or its cell type's defaults): RBER,\n"
          "                retries per read, read mean and p99, WAF at 0 to twice the rated\n"
          "                P/E cycles, each a fresh drive written once, worn at once and\n"
          "                aged --age-days, then the workload\n"
          "  tenants       two tenants on separate NVMe queues (4K random writes on queue 1,\n"
          "                4K random reads on queue 0, each at a queue depth of\n"
          "                max(32, controller.queue_depth)), together and alone, with\n"
          "                round robin and weighted round robin (reads high, weight 4):\n"
          "                per-tenant IOPS, mean and p99 latency, slowdown, fairness index\n"
          "  fdp           FDP on and off at the model's over-provisioning: 4K random writes,\n"
          "                90% to 10% of the space, with two placement handles (hot 1, cold\n"
          "                0) and without; device WAF and WAF per handle\n"
          "  scaling       several drives in one host (a system model: RAID or JBOD), with 1\n"
          "                to all of its devices, each array written full: 4K random reads\n"
          "                and 128K sequential reads at QD 1 to 32, IOPS, latency and MB/s\n"
          "                against one device; with --writes, also the review's 4K random\n"
          "                write and read at 16T/16Q at steady state on each array\n"
          "  apps          the labs' application benchmarks as a block trace's replay\n"
          "                (--trace, recorded under the application) on the model\n"
          "                written full: as recorded, mean latency per interval (a NoSQL\n"
          "                node); closed loop at 2 to 32 threads (SysBench OLTP): IOPS,\n"
          "                mean and p99 latency; with --compare-model, the drives ranked\n"
          "\n"
          "Options:\n"
          "  --model FILE|NAME      device model (default: the built-in generic MLC model)\n"
          "  --set KEY=VALUE        override a model key (repeatable), as for ssdsim run\n"
          "  --plugin FILE.so       load a plugin module (repeatable; doc/plugins.md)\n"
          "  --seed N               seed of every random stream (default 1)\n"
          "  --precondition-method functional|timed\n"
          "                         sequential fills and fast preconditioning by functional\n"
          "                         fast-forward (default) or as timed runs and a scaled copy\n"
          "  --out DIR              results directory, created if missing (default:\n"
          "                         suite-NAME in the current directory)\n"
          "  --quick                small settings (short windows, few rounds), for tests\n"
          "  --window DURATION      simulated time of one measured point, 1ms to 3600s\n"
          "                         (default 2s, --quick 200ms; quick-matrix: at most\n"
          "                         --test-time); it stops earlier once its IOPS converge and\n"
          "                         runs again longer when it held too few requests\n"
          "  --curve-bpp N|full     blocks per plane of the scaled copy the preconditioning\n"
          "                         curves run on, fewer than the model's (default: the\n"
          "                         library's, as for fast preconditioning, if that is 4\n"
          "                         times smaller than the model, else the model itself);\n"
          "                         full: on the model itself\n"
          "  --max-dw X             most drive writes of a preconditioning curve (default 10,\n"
          "                         --quick 4); fdp: drive writes of warm-up before the\n"
          "                         measured one (default 4, --quick 2)\n"
          "  --compare-op X         review: also measure the drive formatted with X more\n"
          "                         over-provisioning (ftl.op + X; 0.2 = 20% more)\n"
          "  --writes               scaling: also bring each array to the steady state of 4K\n"
          "                         random writes at 16T/16Q (16 jobs per device on a JBOD)\n"
          "                         and measure them and 4K random reads at that load\n"
          "  --cell DURATION        snia: simulated time of one cell of a round, 1ms to\n"
          "                         3600s (default 500ms, --quick 100ms)\n"
          "  --rounds N             snia: most rounds per test (default 25, --quick 6)\n"
          "  --idle DURATION        quick-matrix: idle time between tests, 0 to 3600s\n"
          "                         (default 30s)\n"
          "  --full-state random|seq[:N]\n"
          "                         quick-matrix: the written-full state, the steady state of\n"
          "                         4K random writes over the drive (random, the default) or\n"
          "                         N sequential fills of it (seq: 2)\n"
          "  --test-time DURATION   quick-matrix: length of a test, 1ms to 3600s (default 60s,\n"
          "                         --quick 2s); a test that writes runs it whole on the\n"
          "                         written-full drive, and on the fresh drive when its window\n"
          "                         says its writes could reach garbage collection by then\n"
          "  --workload FILE        endurance: the workload of each point (default 4 KiB\n"
          "                         random reads at queue depth 32, 20000; --quick 5000)\n"
          "  --age-days N           endurance: retention age of the data at each point\n"
          "                         (default 0)\n"
          "  --target-uber X        endurance: the UBER of the end-of-life projection (default\n"
          "                         1e-15, client; 1e-16 enterprise)\n"
          "  --life-years N         endurance: service life the projection's drive writes per\n"
          "                         day are spread over (default 5)\n"
          "  --accel-check PE       endurance: also measure the acceleration's error: a drive\n"
          "                         worn by timed 4 KiB random writes to PE/4, PE/2, 3PE/4\n"
          "                         and PE mean P/E cycles against drives worn at once (slow:\n"
          "                         use a small model, e.g. --set geometry.blocks_per_plane=)\n"
          "  --trace FILE           apps: the block trace (formats of ssdsim run --trace;\n"
          "                         --trace-format, --time-unit, --read-flag,\n"
          "                         --blkparse-events and --device as there)\n"
          "  --intervals N          apps: intervals of the replay as recorded (default 24)\n"
          "  --time-scale X         apps: replay as recorded X times as fast (default 1)\n"
          "  --passes N             apps: the closed-loop points read the trace N times\n"
          "                         (default 1)\n"
          "  --wrap                 apps: addresses beyond a model's capacity wrap around\n"
          "                         (else a request beyond it is an error)\n"
          "  --compare-model FILE|NAME\n"
          "                         apps: also replay on this model (repeatable, up to 8;\n"
          "                         --set applies to --model only) and rank the drives\n"
          "  --jobs N               review and snia: their parts (review: each profile, the\n"
          "                         128K points, the second formatting mode; snia: each test),\n"
          "                         each on a drive of its own, run in N worker processes at a\n"
          "                         time (default: the processors, fewer when memory holds\n"
          "                         fewer drives); the files are the same for any N\n"
          "  --no-plot              do not run gnuplot (suite.gp is still written)\n"
          "  --quiet                print nothing but errors\n"
          "  --help                 this help\n",
          f);
}

/* The shortest --window and --cell: a measured window runs in 10 rounds of the time series
 * (ssdsim_measure), and a round shorter than 100 us (about one flash operation) holds hardly a
 * completed request, while the run's drain after the window (a request behind garbage
 * collection: up to a tenth of a second) fills the time series' rows (at most a million) in
 * rounds of a few nanoseconds: the methods failed at the end, naming options the command line
 * does not have. */
#define SUITE_MIN_WINDOW_NS MS_NS

/* A window's duration option (--window, --cell): SUITE_MIN_WINDOW_NS to an hour. The units
 * named are the ones ssdsim_parse_time_ns takes (it has no h). */
static bool parse_duration(const char *cmd, const char *name, const char *val, uint64_t *out)
{
    if (!cli_parse_time_ns(val, out) || *out < SUITE_MIN_WINDOW_NS || *out > 3600 * S_NS) {
        cli_error("%s: %s expects a duration such as 500ms or 2s, from 1ms (10 rounds of the time "
                  "series of 100us) to 3600s, got '%s'",
                  cmd, name, val);
        return false;
    }
    return true;
}

static bool parse_double(const char *val, double lo, double hi, double *out)
{
    char *end;
    errno = 0;
    double v = strtod(val, &end);
    if (end == val || *end || errno || !(v >= lo && v <= hi))
        return false;
    *out = v;
    return true;
}

/* The suites that measure windows of their own (--window), and those that write a number of
 * drive writes (--max-dw): their parsing refuses the options elsewhere, and suite.json and
 * report.md record them only for these. */
static bool suite_windowed(const char *name)
{
    return !strcmp(name, "review") || !strcmp(name, "quick-matrix") ||
           !strcmp(name, "tenants") || !strcmp(name, "scaling");
}

static bool suite_drive_writes(const char *name)
{
    return !strcmp(name, "review") || !strcmp(name, "fdp");
}

/* Keep in `first` the first option `opt` of a kind (an empty `first`: none yet). */
static void keep_first(char *first, size_t len, const char *opt)
{
    if (!first[0])
        snprintf(first, len, "%s", opt);
}

/* Returns -1 to continue, or an exit code. */
static int suite_parse(int argc, char **argv, struct suite_opts *so)
{
    memset(so, 0, sizeof *so);
    so->o.seed = 1;
    if (argc < 2) {
        cli_error("suite: give a suite: review, snia, quick-matrix, endurance, tenants, fdp, "
                  "scaling or apps (see ssdsim suite --help)");
        return CLI_EXIT_USAGE;
    }
    const char *name = argv[1];
    if (!strcmp(name, "--help") || !strcmp(name, "-h") || !strcmp(name, "help")) {
        suite_help(stdout);
        return 0;
    }
    if (strcmp(name, "review") && strcmp(name, "snia") && strcmp(name, "quick-matrix") &&
        strcmp(name, "endurance") && strcmp(name, "tenants") && strcmp(name, "fdp") &&
        strcmp(name, "scaling") && strcmp(name, "apps")) {
        cli_error("suite: unknown suite '%s' (suites: review, snia, quick-matrix, endurance, "
                  "tenants, fdp, scaling, apps)",
                  name);
        return CLI_EXIT_USAGE;
    }
    so->suite = name;
    bool window = false, cell = false, rounds = false, max_dw = false, idle = false;
    bool full_state = false, test_time = false;
    /* The first option only the apps suite takes, copied: `opt` is overwritten by the next
     * argument. */
    char apps_opt[64] = "";
    bool curve_bpp = false, jobs = false;
    const char *cmd = "suite";
    struct cli_seen seen = {.n = 0};
    for (int i = 2; i < argc; i++) {
        const char *a = argv[i];
        const char *val;
        char opt[64];
        cli_split_option(a, opt, sizeof opt, &val);
        if (!strcmp(opt, "--help") || !strcmp(opt, "-h")) {
            suite_help(stdout);
            return 0;
        }
        if (!strcmp(opt, "--quiet") || !strcmp(opt, "-q")) {
            so->o.quiet = true;
            cli_quiet_notes();
            continue;
        }
        if (!strcmp(opt, "--quick")) {
            so->quick = true;
            continue;
        }
        if (!strcmp(opt, "--no-plot")) {
            so->no_plot = true;
            continue;
        }
        if (!strcmp(opt, "--writes")) {
            so->writes = true;
            continue;
        }
        if (!strcmp(opt, "--wrap")) {
            so->wrap = true;
            keep_first(apps_opt, sizeof apps_opt, "--wrap");
            continue;
        }
        if (cli_is_trace_reader_option(opt)) {
            if (cli_option_value("suite", opt, argc, argv, &i, &val))
                return CLI_EXIT_USAGE;
            if (strcmp(opt, "--device") && cli_once(cmd, opt, &seen))
                return CLI_EXIT_USAGE;
            int trc = cli_trace_reader_option(cmd, opt, val, &so->trace, so->trace_devices,
                                              &so->trace_given);
            if (trc)
                return trc;
            keep_first(apps_opt, sizeof apps_opt, opt);
            continue;
        }
        static const char *const valued[] = {"--model",  "--set",        "--seed",   "--out",
                                             "--window", "--curve-bpp",  "--max-dw", "--cell",
                                             "--rounds", "--compare-op", "--idle", "--plugin",
                                             "--test-time", "--full-state", "--precondition-method", "--workload",
                                             "--age-days", "--target-uber", "--life-years",
                                             "--accel-check", "--jobs", "--trace",
                                             "--intervals", "--time-scale", "--passes",
                                             "--compare-model"};
        bool known = false;
        for (size_t k = 0; k < G_N_ELEMENTS(valued); k++)
            known = known || !strcmp(opt, valued[k]);
        if (!known) {
            cli_error("suite: unknown option '%s' (see ssdsim suite --help)", a);
            return CLI_EXIT_USAGE;
        }
        if (cli_option_value("suite", opt, argc, argv, &i, &val))
            return CLI_EXIT_USAGE;
        if (strcmp(opt, "--set") && strcmp(opt, "--plugin") && strcmp(opt, "--compare-model") &&
            cli_once(cmd, opt, &seen))
            return CLI_EXIT_USAGE; /* --set, --plugin and --compare-model add to a list */
        if (!strcmp(opt, "--model") || !strcmp(opt, "--seed") || !strcmp(opt, "--set") ||
            !strcmp(opt, "--plugin") || !strcmp(opt, "--precondition-method")) {
            if (!strcmp(opt, "--set") && !strncmp(val, "workload.", 9)) {
                cli_error("suite: --set %s: a suite's workloads are fixed; --set takes model keys",
                          val);
                return CLI_EXIT_USAGE;
            }
            int rc = cli_common_option(cmd, opt, val, &so->o);
            if (rc)
                return rc;
        } else if (!strcmp(opt, "--workload")) {
            so->o.workload_path = val;
        } else if (!strcmp(opt, "--trace")) {
            if (!*val) {
                cli_error("suite: --trace expects a trace file");
                return CLI_EXIT_USAGE;
            }
            so->trace_path = val;
        } else if (!strcmp(opt, "--compare-model")) {
            if (so->n_compare == G_N_ELEMENTS(so->compare_models)) {
                cli_error("suite: --compare-model: at most %zu models to compare",
                          G_N_ELEMENTS(so->compare_models));
                return CLI_EXIT_USAGE;
            }
            so->compare_models[so->n_compare++] = val;
            keep_first(apps_opt, sizeof apps_opt, "--compare-model");
        } else if (!strcmp(opt, "--intervals") || !strcmp(opt, "--passes")) {
            uint64_t v;
            bool iv = !strcmp(opt, "--intervals");
            if (!cli_parse_u64(val, &v) || v < 1 || v > (iv ? 10000 : 100000)) {
                cli_error("suite: %s expects a whole number from 1 to %s, got '%s'", opt,
                          iv ? "10000" : "100000", val);
                return CLI_EXIT_USAGE;
            }
            if (iv)
                so->intervals = (uint32_t)v;
            else
                so->passes = (uint32_t)v;
            keep_first(apps_opt, sizeof apps_opt, opt);
        } else if (!strcmp(opt, "--time-scale")) {
            if (!parse_double(val, 1e-6, 1e6, &so->time_scale)) {
                /* the bounds stated as run states them: "above 0" hid a minimum of 1e-6 */
                cli_error(
                    "suite: --time-scale expects a factor in [1e-6, 1e6] (2 = twice as fast), "
                    "got '%s'",
                    val);
                return CLI_EXIT_USAGE;
            }
            keep_first(apps_opt, sizeof apps_opt, opt);
        } else if (!strcmp(opt, "--jobs")) {
            if (!cli_parse_u64(val, &so->jobs) || so->jobs == 0 || so->jobs > 4096) {
                cli_error("suite: --jobs expects a number of worker processes from 1 to 4096, "
                          "got '%s'",
                          val);
                return CLI_EXIT_USAGE;
            }
            jobs = true;
        } else if (!strcmp(opt, "--age-days")) {
            if (!parse_double(val, 0, 1e6, &so->age_days)) {
                cli_error("suite: --age-days expects a number of days from 0 to 1000000, got "
                          "'%s'",
                          val);
                return CLI_EXIT_USAGE;
            }
        } else if (!strcmp(opt, "--target-uber")) {
            if (!parse_double(val, 1e-30, 1e-3, &so->target_uber)) {
                cli_error("suite: --target-uber expects an UBER above 0 and at most 1e-3 (e.g. "
                          "1e-15), got '%s'",
                          val);
                return CLI_EXIT_USAGE;
            }
        } else if (!strcmp(opt, "--accel-check")) {
            double v;
            if (!parse_double(val, 4, 100000, &v) || v != floor(v)) {
                cli_error("suite: --accel-check expects whole P/E cycles from 4 to 100000, got "
                          "'%s'",
                          val);
                return CLI_EXIT_USAGE;
            }
            so->accel_pe = (uint32_t)v;
        } else if (!strcmp(opt, "--life-years")) {
            if (!parse_double(val, 0.01, 100, &so->life_years)) {
                cli_error("suite: --life-years expects years from 0.01 to 100, got '%s'", val);
                return CLI_EXIT_USAGE;
            }
        } else if (!strcmp(opt, "--out")) {
            if (!*val) {
                cli_error("suite: --out expects a directory");
                return CLI_EXIT_USAGE;
            }
            so->out_dir = val;
        } else if (!strcmp(opt, "--window")) {
            if (!parse_duration(cmd, opt, val, &so->window_ns))
                return CLI_EXIT_USAGE;
            window = true;
        } else if (!strcmp(opt, "--cell")) {
            if (!parse_duration(cmd, opt, val, &so->snia_window_ns))
                return CLI_EXIT_USAGE;
            cell = true;
        } else if (!strcmp(opt, "--idle")) {
            if (!cli_parse_time_ns(val, &so->idle_ns) || so->idle_ns > 3600 * S_NS) {
                cli_error("suite: --idle expects a duration such as 30s, from 0 to 3600s, got '%s'",
                          val);
                return CLI_EXIT_USAGE;
            }
            idle = true;
        } else if (!strcmp(opt, "--full-state")) {
            uint64_t n = 2;
            if (!strcmp(val, "random")) {
                n = 0;
            } else if (strncmp(val, "seq", 3) ||
                       (val[3] && (val[3] != ':' || !cli_parse_u64(val + 4, &n) || n < 1 ||
                                   n > 100))) {
                cli_error("suite: --full-state expects random, seq or seq:N (N sequential "
                          "fills, 1 to 100), got '%s'",
                          val);
                return CLI_EXIT_USAGE;
            }
            so->full_fills = (uint32_t)n;
            full_state = true;
        } else if (!strcmp(opt, "--test-time")) {
            test_time = true;
            if (!cli_parse_time_ns(val, &so->test_ns) || so->test_ns < MS_NS ||
                so->test_ns > 3600 * S_NS) {
                cli_error("suite: --test-time expects a duration such as 60s, from 1ms to 3600s, "
                          "got '%s'",
                          val);
                return CLI_EXIT_USAGE;
            }
        } else if (!strcmp(opt, "--curve-bpp")) {
            uint64_t v;
            if (!strcmp(val, "full")) {
                so->curve_full = true;
            } else if (!cli_parse_u64(val, &v) || v < 4 || v > 1048576) {
                cli_error("suite: --curve-bpp expects 'full' or blocks per plane from 4 to "
                          "1048576, got '%s'",
                          val);
                return CLI_EXIT_USAGE;
            } else {
                so->curve_bpp = (uint32_t)v;
                so->curve_full = false;
            }
            curve_bpp = true;
        } else if (!strcmp(opt, "--max-dw")) {
            if (!parse_double(val, 1, 1000, &so->max_dw)) {
                cli_error("suite: --max-dw expects a number of drive writes from 1 to 1000, got "
                          "'%s'",
                          val);
                return CLI_EXIT_USAGE;
            }
            max_dw = true;
        } else if (!strcmp(opt, "--rounds")) {
            uint64_t v;
            if (!cli_parse_u64(val, &v) || v < 5 || v > 1000) {
                cli_error("suite: --rounds expects an integer from 5 to 1000 (steady state "
                          "needs a window of 5 rounds), got '%s'",
                          val);
                return CLI_EXIT_USAGE;
            }
            so->rounds = (uint32_t)v;
            rounds = true;
        } else if (!strcmp(opt, "--compare-op")) {
            if (!parse_double(val, 0.001, 10, &so->compare_op)) {
                cli_error("suite: --compare-op expects over-provisioning to add, from 0.001 to "
                          "10 (0.2 = 20%% more), got '%s'",
                          val);
                return CLI_EXIT_USAGE;
            }
        }
    }
    bool review = !strcmp(name, "review"), snia = !strcmp(name, "snia");
    bool quick_matrix = !strcmp(name, "quick-matrix");
    if (so->compare_op > 0 && !review) {
        cli_error("suite: --compare-op belongs to the review suite");
        return CLI_EXIT_USAGE;
    }
    if (so->writes && strcmp(name, "scaling")) {
        cli_error("suite: --writes belongs to the scaling suite");
        return CLI_EXIT_USAGE;
    }
    if ((cell || rounds) && !snia) {
        cli_error("suite: --%s belongs to the snia suite", cell ? "cell" : "rounds");
        return CLI_EXIT_USAGE;
    }
    if ((so->o.workload_path || so->age_days > 0 || so->target_uber > 0 ||
         so->life_years > 0 || so->accel_pe) &&
        strcmp(name, "endurance")) {
        cli_error("suite: --%s belongs to the endurance suite",
                  so->o.workload_path     ? "workload"
                  : so->age_days > 0      ? "age-days"
                  : so->target_uber > 0   ? "target-uber"
                  : so->life_years > 0    ? "life-years"
                                          : "accel-check");
        return CLI_EXIT_USAGE;
    }
    if ((idle || so->test_ns || full_state) && !quick_matrix) {
        cli_error("suite: --%s belongs to the quick-matrix suite",
                  idle ? "idle" : so->test_ns ? "test-time" : "full-state");
        return CLI_EXIT_USAGE;
    }
    /* Options that shape only some suites' measurements: elsewhere they would be ignored
     * and still recorded in suite.json as if used. */
    if (window && !suite_windowed(name)) {
        cli_error("suite: --window belongs to the review, quick-matrix, tenants and scaling "
                  "suites (%s measures no window of its own)",
                  name);
        return CLI_EXIT_USAGE;
    }
    if (curve_bpp && !review) {
        cli_error("suite: --curve-bpp belongs to the review suite (the only one with "
                  "preconditioning curves)");
        return CLI_EXIT_USAGE;
    }
    if (max_dw && !suite_drive_writes(name)) {
        cli_error("suite: --max-dw belongs to the review and fdp suites");
        return CLI_EXIT_USAGE;
    }
    if (jobs && !review && !snia) {
        cli_error("suite: --jobs belongs to the review and snia suites (the others run their "
                  "tests in one process)");
        return CLI_EXIT_USAGE;
    }
    bool apps = !strcmp(name, "apps");
    if (apps_opt[0] && !apps) {
        cli_error("suite: %s belongs to the apps suite", apps_opt);
        return CLI_EXIT_USAGE;
    }
    if (apps && !so->trace_path) {
        cli_error("suite apps: --trace FILE is required (a block trace recorded under the "
                  "application; see doc/traces.md)");
        return CLI_EXIT_USAGE;
    }
    if (so->trace_path && !apps) {
        cli_error("suite: --trace belongs to the apps suite");
        return CLI_EXIT_USAGE;
    }
    if (apps) {
        int trc = cli_trace_check_file("suite apps", so->trace_path, &so->trace, &so->trace_given);
        if (trc)
            return trc;
    }
    if (!window)
        so->window_ns = so->quick ? 200 * MS_NS : 2 * S_NS;
    if (!cell)
        so->snia_window_ns = so->quick ? 100 * MS_NS : 500 * MS_NS;
    if (!rounds)
        so->rounds = so->quick ? 6 : 25;
    if (!max_dw)
        so->max_dw = !strcmp(name, "fdp") ? (so->quick ? 2 : 4) : so->quick ? 4 : 10;
    if (!idle && quick_matrix)
        so->idle_ns = 30 * S_NS; /* --idle 0: none */
    if (!so->test_ns && quick_matrix)
        so->test_ns = so->quick ? 2 * S_NS : 60 * S_NS;
    /* The matrix measures a window within its test (ssdsim_quick_run takes the test's length
     * for a longer one): the report said "windows of 5 s, tests of 2 s" when they were 2 s. */
    if (quick_matrix && window && so->window_ns > so->test_ns) {
        cli_error("suite quick-matrix: --window (%.3g s) is longer than a test (--test-time, "
                  "%.3g s%s): a window is measured within its test; give one no longer",
                  (double)so->window_ns / 1e9, (double)so->test_ns / 1e9,
                  so->quick && !test_time ? " with --quick" : "");
        return CLI_EXIT_USAGE;
    }
    if (!so->jobs)
        so->jobs = g_get_num_processors();
    return -1;
}

/* ------------------------------------------------------------------------------------------ */
/* Writing the folder                                                                          */

/* Count, in the suite's JSON under `o`, the measured points and curve intervals whose latencies
 * spread by less than 1% of their mean (*flat) among those with latencies (*all). A point needs
 * 100 requests or more (`requests`, else its IOPS over its run). */
static void count_flat(const cJSON *o, unsigned *flat, unsigned *all)
{
    if (cJSON_IsObject(o)) {
        const cJSON *mean = cJSON_GetObjectItemCaseSensitive(o, "lat_mean_ns");
        const cJSON *sd = cJSON_GetObjectItemCaseSensitive(o, "lat_stddev_ns");
        if (!mean) {
            mean = cJSON_GetObjectItemCaseSensitive(o, "lat_mean_us");
            sd = cJSON_GetObjectItemCaseSensitive(o, "lat_stddev_us");
        }
        const cJSON *iops = cJSON_GetObjectItemCaseSensitive(o, "iops");
        const cJSON *run = cJSON_GetObjectItemCaseSensitive(o, "run_ns");
        const cJSON *reqs = cJSON_GetObjectItemCaseSensitive(o, "requests");
        if (cJSON_IsNumber(mean) && cJSON_IsNumber(sd) && cJSON_IsNumber(iops) &&
            mean->valuedouble > 0 &&
            (cJSON_IsNumber(reqs) ? reqs->valuedouble >= 100
                                  : !cJSON_IsNumber(run) ||
                                        iops->valuedouble * run->valuedouble / 1e9 >= 100)) {
            (*all)++;
            *flat += cli_latency_flat(mean->valuedouble, sd->valuedouble);
        }
    }
    for (const cJSON *c = o ? o->child : NULL; c; c = c->next)
        count_flat(c, flat, all);
}

static char *report_text(struct suite *s)
{
    GString *r = g_string_new(NULL);
    ssdsim_model *m = s->model;
    char name[256];
    const char *mname = ssdsim_model_get_string(m, "name", name, sizeof name, NULL) ? NULL : name;
    g_string_append_printf(r, "# ssdsim suite %s: %s\n\n", s->opt->suite,
                           mname ? mname : s->model_label);
    cJSON *model = cJSON_GetObjectItemCaseSensitive(s->json, "model");
    cJSON *opts = cJSON_GetObjectItemCaseSensitive(s->json, "options");
    char b1[32], b2[32];
    double logical = cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(model, "logical_bytes"));
    double physical =
        cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(model, "physical_bytes"));
    double op = cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(model, "op"));
    const cJSON *held = cJSON_GetObjectItemCaseSensitive(model, "devices_logical_bytes");
    g_string_append_printf(r, "| | |\n|---|---|\n| model | `%s`", s->model_label);
    if (mname)
        g_string_append_printf(r, " (%s)", mname);
    g_string_append_printf(r, " |\n| capacity | %s logical", suite_fmt_bytes(b1, sizeof b1, logical));
    if (cJSON_IsNumber(held)) /* op is the devices' own: of what they hold */
        g_string_append_printf(r, " (%s on the devices with the parity or mirror copies)",
                               suite_fmt_bytes(b1, sizeof b1, cJSON_GetNumberValue(held)));
    if (ssdsim_model_get_device_kind(s->model) == SSDSIM_MODEL_HDD) /* no flash, no spare */
        g_string_append_printf(r, " (hard disk%s: no flash, no over-provisioning)",
                               ssdsim_model_get_kind(s->model) == SSDSIM_MODEL_HDD ? "" : "s");
    else
        g_string_append_printf(r, ", %s physical, over-provisioning %.1f%%",
                               suite_fmt_bytes(b2, sizeof b2, physical), 100 * op);
    g_string_append_printf(r, " |\n| seed | %" PRIu64 " |\n| ssdsim | %s |\n", s->seed,
                           ssdsim_version());
    if (s->opt->o.n_sets) {
        g_string_append(r, "| overrides |");
        for (int i = 0; i < s->opt->o.n_sets; i++)
            g_string_append_printf(r, " `--set %s`", s->opt->o.sets[i]);
        g_string_append(r, " |\n");
    }
    g_string_append_printf(r, "| options | %s |\n\n",
                           cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(opts, "summary")));
    g_string_append(r, s->md->str);
    /* What the model says of itself: its sources, estimates and, for the models checked
     * against lab measurements, how far they are from them (a reader of the figures above
     * should know when a model's steady state is an upper bound) */
    enum { DESC_MAX = 64 * 1024 };
    char *desc = g_malloc(DESC_MAX);
    int drc = ssdsim_model_get_string(m, "description", desc, DESC_MAX, NULL);
    if (drc == 0 && desc[0])
        g_string_append_printf(r, "\n## The model\n\n%s\n", desc);
    else if (drc == SSDSIM_ERANGE)
        g_string_append(r, "\n## The model\n\nIts description is longer than 64 KiB: read it "
                           "in the model file.\n");
    g_free(desc);
    char caveat[4096];
    if (ssdsim_model_get_string(m, "caveat", caveat, sizeof caveat, NULL) == 0 && caveat[0])
        g_string_append_printf(r, "\n**Caveat.** %s\n", caveat);
    unsigned flat = 0, all = 0;
    count_flat(s->json, &flat, &all);
    if (flat)
        g_string_append_printf(
            r,
            "\n## What the model leaves out\n\nIn %u of the %u measured points and curve "
            "intervals above that give latencies, they spread by less than 1%% of their mean "
            "(the maximum near the mean): their requests met the same work and the same queue "
            "at the model's fixed times per operation (firmware, flash, link), which a real drive's are not. "
            "Their IOPS and mean latencies are predictions; their spread and maximum are not "
            "(doc/models.md, \"What constant times leave out\").\n",
            flat, all);
    g_string_append(r, "\n## Shortcuts taken\n\nReal drives need hours for these procedures; "
                       "the simulator takes these shortcuts to finish in minutes:\n\n");
    for (guint i = 0; i < s->shortcuts->len; i++)
        g_string_append_printf(r, "- %s\n", (char *)s->shortcuts->pdata[i]);
    g_string_append(r, "\n## Files\n\n`suite.json` holds every figure; ");
    for (guint i = 0; i < s->csv_names->len; i++)
        g_string_append_printf(r, "%s`%s`", i ? ", " : "", (char *)s->csv_names->pdata[i]);
    g_string_append_printf(r,
                           " %s the charts' data; `suite.gp` makes the plots (`gnuplot "
                           "suite.gp`).\n",
                           s->csv_names->len == 1 ? "holds" : "hold");
    return g_string_free(r, FALSE);
}

static int write_folder(struct suite *s, const char *dir)
{
    if (g_mkdir_with_parents(dir, 0777) != 0) {
        cli_error("%s: cannot create directory: %s", dir, strerror(errno));
        return -1;
    }
    cJSON *sc = cJSON_AddArrayToObject(s->json, "shortcuts");
    for (guint i = 0; i < s->shortcuts->len; i++)
        cJSON_AddItemToArray(sc, cJSON_CreateString(s->shortcuts->pdata[i]));
    cJSON *files = cJSON_AddArrayToObject(s->json, "csv");
    for (guint i = 0; i < s->csv_names->len; i++)
        cJSON_AddItemToArray(files, cJSON_CreateString(s->csv_names->pdata[i]));
    cJSON *plots = cJSON_AddArrayToObject(s->json, "plots");
    for (guint i = 0; i < s->plots->len; i++)
        cJSON_AddItemToArray(plots, cJSON_CreateString(s->plots->pdata[i]));
    char *json = cJSON_Print(s->json);
    if (!json) {
        cli_error("out of memory");
        return -1;
    }
    g_autofree char *path = g_build_filename(dir, "suite.json", NULL);
    int rc = cli_write_file(path, json);
    cJSON_free(json);
    for (guint i = 0; rc == 0 && i < s->csv_names->len; i++) {
        g_autofree char *p = g_build_filename(dir, s->csv_names->pdata[i], NULL);
        char *text = s->csv_texts->pdata[i];
        size_t n = strlen(text);
        if (n && text[n - 1] == '\n')
            text[n - 1] = '\0'; /* cli_write_file ends the file with a newline */
        rc = cli_write_file(p, text);
    }
    if (rc)
        return -1;
    g_autofree char *gp_preamble = cli_gnuplot_preamble(1000, 700);
    g_autofree char *gp = g_strdup_printf("# suite.gp: the plots of `ssdsim suite %s`, from the "
                                          "CSV files beside it.\n# Run it in this directory: "
                                          "gnuplot suite.gp\n%s%s",
                                          s->opt->suite, gp_preamble, s->gp->str);
    g_autofree char *gp_path = g_build_filename(dir, "suite.gp", NULL);
    gp[strlen(gp) - 1] = '\0';
    if (cli_write_file(gp_path, gp))
        return -1;
    g_autofree char *report = report_text(s);
    g_autofree char *rp = g_build_filename(dir, "report.md", NULL);
    report[strlen(report) - 1] = '\0';
    if (cli_write_file(rp, report))
        return -1;
    return 0;
}

/* At most `jobs`, and no more worker processes than the machine's memory holds simulations of
 * `model` (each part holds the model and a scaled copy of at most a quarter of it). */
static uint64_t suite_jobs_for_memory(const ssdsim_model *model, uint64_t jobs)
{
    long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
    uint64_t need = ssdsim_model_memory_bytes(model);
    if (jobs <= 1 || pages <= 0 || page <= 0 || need == 0)
        return jobs;
    need += need / 4 + (UINT64_C(64) << 20);
    uint64_t fit = (uint64_t)pages * (uint64_t)page / need;
    return fit < 1 ? 1 : fit < jobs ? fit : jobs;
}

/* The files suite `name` may write into its folder (write_folder, and the names its
 * suite_csv and suite_plot calls give: the CSV files and gnuplot's PNG files), as glob
 * patterns in out[] (at most max; the count returned): checked against the inputs before
 * anything runs. */
static size_t suite_outputs(const char *name, const char **out, size_t max)
{
    static const struct {
        const char *suite;
        const char *names[8];
    } own[] = {
        {"quick-matrix",
         {"quick-matrix.csv", "latency-cdf.csv", "quick-*.png", "latency-cdf.png"}},
        {"review",
         {"matrix-*.csv", "matrix-*.png", "fixed.csv", "latency-cdf.csv", "latency-cdf.png",
          "waf.png"}},
        {"snia", {"snia-*.csv", "snia-*.png", "latency-cdf.csv", "latency-cdf.png"}},
        {"endurance", {"projection.csv", "accel_check.csv", "endurance.csv", "endurance.png"}},
        {"fdp", {"fdp.csv", "fdp.png"}},
        {"scaling", {"scaling.csv", "scaling-*.png"}},
        {"tenants", {"tenants.csv", "tenants.png"}},
        {"apps", {"apps-*.csv", "apps-*.png"}},
    };
    static const char *const common[] = {"suite.json", "report.md", "suite.gp",
                                         "precondition-*.csv", "precondition-*.png"};
    size_t n = 0;
    for (size_t i = 0; i < sizeof common / sizeof *common && n < max; i++)
        out[n++] = common[i];
    for (size_t i = 0; i < sizeof own / sizeof *own; i++)
        for (size_t k = 0; !strcmp(own[i].suite, name) && own[i].names[k] && n < max; k++)
            out[n++] = own[i].names[k];
    return n;
}

/* --compare-op X formats review's second drive with ftl.op = the op the drive reports + X, to
 * 6 significant digits (ssdsim_review_drive_new). A sum the model refuses is this option's
 * error, found here before anything runs: the library's message, after the first mode had run,
 * named --set (the label of a key set on a loaded model) and the run exited 1. The same copy,
 * set and built here, says whether that drive can be made. 0, or an exit code after one line. */
static int compare_op_check(struct suite *s, double add)
{
    ssdsim *probe = suite_sim_new(s, s->model);
    if (!probe)
        return CLI_EXIT_FAIL;
    ssdsim_device_stats d;
    ssdsim_get_device_stats(probe, &d);
    ssdsim_free(probe);
    char op[32];
    snprintf(op, sizeof op, "%.6g", d.op + add);
    ssdsim_model *m = suite_model_copy(s->model);
    if (!m)
        return CLI_EXIT_FAIL;
    ssdsim_error err = {0};
    ssdsim *sim = NULL;
    int rc = ssdsim_model_set_double(m, "ftl.op", strtod(op, NULL), &err);
    if (rc == 0)
        rc = ssdsim_new(&sim, m, s->seed, &err);
    ssdsim_free(sim);
    ssdsim_model_free(m);
    if (rc == 0)
        return 0;
    /* the message without its label ("--set: "): no --set of the command line is at fault */
    const char *why = err.message;
    size_t n = strlen(err.file);
    if (n && !strncmp(why, err.file, n) && !strncmp(why + n, ": ", 2))
        why += n + 2;
    cli_error("suite review: --compare-op %g: the second drive's ftl.op would be %s (the drive's "
              "%.6g + %g), which the model refuses: %s",
              add, op, d.op, add, why);
    return CLI_EXIT_USAGE;
}

int cli_suite(int argc, char **argv)
{
    struct suite_opts so;
    int rc = suite_parse(argc, argv, &so);
    if (rc >= 0)
        return rc;
    double t0 = cli_wall_s();
    struct suite s = {.opt = &so, .seed = so.o.seed};
    if (cli_load(&so.o, &s.model, NULL))
        return CLI_EXIT_FAIL;
    s.model_label = so.o.model_path ? so.o.model_path : "built-in generic-mlc";
    if (so.curve_bpp && !ssdsim_suite_curve_blocks_per_plane(s.model, so.curve_bpp)) {
        /* The library runs the curves on the model itself then: a report of a copy of that
         * size would describe a drive that never ran. */
        const ssdsim_model *f = ssdsim_model_member(s.model);
        int64_t bpp = 0;
        if (ssdsim_model_get_device_kind(s.model) != SSDSIM_MODEL_SSD ||
            ssdsim_model_get_int(f ? f : s.model, "geometry.blocks_per_plane", &bpp, NULL))
            cli_error("suite review: --curve-bpp %" PRIu32 ": the model's devices are hard "
                      "disks, with no flash to scale; leave --curve-bpp out",
                      so.curve_bpp);
        else
            cli_error("suite review: --curve-bpp %" PRIu32 ": the model has %" PRId64 " blocks "
                      "per plane, and the curves' scaled copy must have fewer; give fewer, or "
                      "--curve-bpp full to run the curves on the model itself",
                      so.curve_bpp, bpp);
        ssdsim_model_free(s.model);
        return CLI_EXIT_USAGE;
    }
    if (so.compare_op > 0 && (rc = compare_op_check(&s, so.compare_op)) != 0) {
        ssdsim_model_free(s.model);
        return rc;
    }
    so.jobs = suite_jobs_for_memory(s.model, so.jobs);
    g_autofree char *default_dir = g_strdup_printf("suite-%s", so.suite);
    const char *dir = so.out_dir ? so.out_dir : default_dir;
    /* Every file the suite reads (the model and the plugins are registered as they load): no
     * output may be written over one. Each is set only for the suites whose parsing takes it:
     * endurance's workload, apps's trace and the models it compares (loaded after the check,
     * so registered here by the file their names resolve to). */
    cli_input_add(so.o.workload_path);
    cli_input_add(so.trace_path);
    for (size_t i = 0; i < so.n_compare; i++)
        cli_model_input_add(so.compare_models[i]);
    g_autofree char *cmd = g_strdup_printf("suite %s", so.suite);
    const char *outs[16];
    size_t n_outs = suite_outputs(so.suite, outs, sizeof outs / sizeof *outs);
    int bad = cli_dir_check(dir) ? CLI_EXIT_FAIL /* not after minutes of measurements */
                                 : cli_dir_outputs_check(dir, outs, n_outs, cmd);
    if (bad) {
        ssdsim_model_free(s.model);
        return bad;
    }
    s.json = cJSON_CreateObject();
    s.md = g_string_new(NULL);
    s.shortcuts = g_ptr_array_new_with_free_func(g_free);
    s.gp = g_string_new(NULL);
    s.plots = g_ptr_array_new_with_free_func(g_free);
    s.csv_names = g_ptr_array_new_with_free_func(g_free);
    s.csv_texts = g_ptr_array_new_with_free_func(g_free);

    cJSON_AddStringToObject(s.json, "suite", so.suite);
    cJSON_AddStringToObject(s.json, "ssdsim_version", ssdsim_version());
    cJSON *model = cJSON_AddObjectToObject(s.json, "model");
    cJSON_AddStringToObject(model, "label", s.model_label);
    {
        ssdsim *probe = suite_sim_new(&s, s.model);
        if (!probe) {
            rc = CLI_EXIT_FAIL;
            goto out;
        }
        ssdsim_device_stats d;
        ssdsim_get_device_stats(probe, &d);
        suite_json_u64(model, "logical_bytes", d.logical_bytes);
        suite_json_u64(model, "physical_bytes", d.physical_bytes);
        if (d.devices_logical_bytes > d.logical_bytes) /* a RAID-5's parity, a mirror's copies */
            suite_json_u64(model, "devices_logical_bytes", d.devices_logical_bytes);
        suite_json_num(model, "op", d.op);
        ssdsim_free(probe);
        cJSON *canon = cli_model_tree(s.model);
        if (canon)
            cJSON_AddItemToObject(model, "json", canon);
    }
    suite_json_u64(s.json, "seed", s.seed);
    cJSON *opts = cJSON_AddObjectToObject(s.json, "options");
    cJSON_AddBoolToObject(opts, "quick", so.quick);
    /* only the options the suite uses (the ones its parsing accepts) */
    bool review = !strcmp(so.suite, "review"), fdp = !strcmp(so.suite, "fdp");
    bool windowed = suite_windowed(so.suite);
    if (windowed)
        suite_json_u64(opts, "window_ns", so.window_ns);
    if (suite_drive_writes(so.suite))
        suite_json_num(opts, "max_drive_writes", so.max_dw);
    if (review && so.curve_full)
        cJSON_AddStringToObject(opts, "curve_blocks_per_plane", "full");
    else if (review)
        suite_json_u64(opts, "curve_blocks_per_plane", so.curve_bpp);
    GString *ot = g_string_new(NULL);
    if (!strcmp(so.suite, "snia")) {
        suite_json_u64(opts, "cell_ns", so.snia_window_ns);
        suite_json_u64(opts, "max_rounds", so.rounds);
        g_string_append_printf(ot, "cells %.3g s, at most %" PRIu32 " rounds",
                               (double)so.snia_window_ns / 1e9, so.rounds);
    } else if (!strcmp(so.suite, "apps")) {
        g_string_append_printf(ot, "trace %s, %" PRIu32 " intervals as recorded", so.trace_path,
                               so.intervals ? so.intervals : SSDSIM_APPS_INTERVALS);
        if (so.time_scale > 0 && so.time_scale != 1)
            g_string_append_printf(ot, " at %.3gx", so.time_scale);
        if (so.passes > 1)
            g_string_append_printf(ot, ", %" PRIu32 " passes closed loop", so.passes);
        if (so.wrap)
            g_string_append(ot, ", addresses wrapped");
        for (size_t i = 0; i < so.n_compare; i++)
            g_string_append_printf(ot, "%s%s", i ? ", " : ", compared with ", so.compare_models[i]);
    } else if (windowed) {
        g_string_append_printf(ot, "windows of %.3g s", (double)so.window_ns / 1e9);
    }
    if (fdp)
        g_string_append_printf(ot, "%.3g drive writes of warm-up", so.max_dw);
    if (review) {
        g_string_append_printf(ot, ", curves up to %.3g drive writes", so.max_dw);
        if (so.curve_full)
            g_string_append(ot, " on the model itself");
        else if (so.curve_bpp)
            g_string_append_printf(ot, " on a copy of %" PRIu32 " blocks per plane", so.curve_bpp);
    }
    if (!strcmp(so.suite, "endurance")) {
        suite_json_num(opts, "age_days", so.age_days);
        suite_json_num(opts, "target_uber", so.target_uber > 0 ? so.target_uber : 1e-15);
        suite_json_num(opts, "life_years", so.life_years > 0 ? so.life_years : 5);
        if (so.accel_pe)
            suite_json_u64(opts, "accel_check_pe", so.accel_pe);
        if (so.o.workload_path)
            cJSON_AddStringToObject(opts, "workload", so.o.workload_path);
        g_string_append_printf(ot, "data aged %.3g days, workload %s", so.age_days,
                               so.o.workload_path ? so.o.workload_path
                                                  : "4K random 70% read 30% write QD32 (built in)");
    }
    if (!strcmp(so.suite, "quick-matrix")) {
        suite_json_u64(opts, "idle_ns", so.idle_ns);
        suite_json_u64(opts, "test_ns", so.test_ns);
        suite_json_u64(opts, "full_fills", so.full_fills);
        g_string_append_printf(ot, ", tests of %.3g s, %.3g s idle between them",
                               (double)so.test_ns / 1e9, (double)so.idle_ns / 1e9);
        if (so.full_fills)
            g_string_append_printf(ot, ", written full by %u sequential fills", so.full_fills);
    }
    if (so.writes) {
        cJSON_AddBoolToObject(opts, "writes", true);
        g_string_append(ot, ", with the 4K points at steady state (--writes)");
    }
    if (so.compare_op > 0) {
        suite_json_num(opts, "compare_op", so.compare_op);
        g_string_append_printf(ot, ", second mode ftl.op + %.3g", so.compare_op);
    }
    if (so.quick)
        g_string_append(ot, ", --quick");
    cJSON_AddStringToObject(opts, "summary", ot->str);
    g_string_free(ot, TRUE);

    if (!so.o.quiet)
        printf("suite %s: model %s, results in %s\n", so.suite, s.model_label, dir);
    /* SIGINT and SIGTERM stop the suite at the next progress check of the run under way; the
     * failures the cancelled run reports on its way out are not shown. A suite cut short
     * writes nothing: its report and figures would be a procedure's first steps, shown as if
     * they were the results. */
    cli_interrupt_install(false);
    cli_interrupt_mute(true);
    if (!strcmp(so.suite, "review"))
        rc = suite_review(&s);
    else if (!strcmp(so.suite, "snia"))
        rc = suite_snia(&s);
    else if (!strcmp(so.suite, "endurance"))
        rc = suite_endurance(&s);
    else if (!strcmp(so.suite, "tenants"))
        rc = suite_tenants(&s);
    else if (!strcmp(so.suite, "fdp"))
        rc = suite_fdp(&s);
    else if (!strcmp(so.suite, "scaling"))
        rc = suite_scaling(&s);
    else if (!strcmp(so.suite, "apps"))
        rc = suite_apps(&s);
    else
        rc = suite_quick_matrix(&s);
    cli_interrupt_default();
    cli_interrupt_mute(false);
    if (cli_interrupted) {
        fflush(stdout);
        cli_error("suite %s: interrupted by %s after %.1f s: nothing written (a suite writes its "
                  "results only when every test has run)",
                  so.suite, cli_interrupt_name(), cli_wall_s() - t0);
        rc = cli_interrupt_status();
        goto out;
    }
    if (rc) {
        rc = CLI_EXIT_FAIL;
        goto out;
    }
    if (write_folder(&s, dir)) {
        rc = CLI_EXIT_FAIL;
        goto out;
    }
    if (!so.no_plot && s.plots->len) {
        if (cli_gnuplot_run(dir, "suite.gp", so.o.quiet) == 0 && !so.o.quiet)
            printf("plots: %u PNG files in %s\n", s.plots->len, dir);
    }
    if (!so.o.quiet)
        printf("report: %s/report.md (%.1f s wall time)\n", dir, cli_wall_s() - t0);
    rc = 0;
out:
    cJSON_Delete(s.json);
    g_string_free(s.md, TRUE);
    g_ptr_array_unref(s.shortcuts);
    g_string_free(s.gp, TRUE);
    g_ptr_array_unref(s.plots);
    g_ptr_array_unref(s.csv_names);
    g_ptr_array_unref(s.csv_texts);
    ssdsim_model_free(s.model);
    return rc;
}
