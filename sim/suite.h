/* suite.h: private interface between the parts of `ssdsim suite` (cmd_suite.c: command line,
 * measurements, preconditioning curves, output files; suite_review.c, suite_snia.c,
 * suite_quick.c: the three procedures). Not installed; only the sim/ sources include it.
 *
 * A suite builds everything in memory while it runs (the JSON tree, the CSV texts, the Markdown
 * report, the gnuplot script) and writes the files at the end, so a failed suite leaves no
 * half-written report. Nothing that reaches those texts reads the wall clock: the same model,
 * options and seed give the same bytes.
 */
#ifndef SSDSIM_SIM_SUITE_H
#define SSDSIM_SIM_SUITE_H

#include <stdbool.h>
#include <stdint.h>

#include <cJSON.h>
#include <glib.h>

#include "cli.h"
#include "ssdsim/measure.h"
#include "ssdsim/suite.h"

/* ------------------------------------------------------------------------------------------ */
/* Options                                                                                     */

struct suite_opts {
    const char *suite;       /* "review", "snia", "quick-matrix", ... (cmd_suite.c) */
    struct cli_run_opts o;   /* model_path, sets, seed, quiet (the rest unused) */
    const char *out_dir;     /* results directory */
    bool quick;              /* the small settings of the tests */
    uint32_t curve_bpp;      /* blocks per plane of the curve's scaled copy; 0 = automatic */
    bool curve_full;         /* --curve-bpp full: run the curve on the model itself */
    uint64_t window_ns;      /* measurement window of one point (most it runs) */
    uint64_t snia_window_ns; /* one cell of a SNIA round */
    uint32_t rounds;         /* SNIA: most rounds per test */
    double max_dw;           /* preconditioning curve: most drive writes */
    double compare_op;       /* review: ftl.op added for the second formatting mode; 0 = none */
    bool writes;             /* scaling: also the review's 4K points at steady state */
    uint64_t idle_ns;        /* quick-matrix: idle time between tests */
    uint64_t test_ns;        /* quick-matrix: length of a test (ssdsim_quick_opts.test_ns) */
    uint32_t full_fills;     /* quick-matrix: written full by this many sequential fills; 0 =
                                the steady state of 4K random writes */
    double age_days;         /* endurance: retention age of the data at each point */
    double target_uber;      /* endurance: the projection's UBER; 0 = the library's 1e-15 */
    double life_years;       /* endurance: the projection's service life; 0 = 5 */
    uint32_t accel_pe;       /* endurance: --accel-check's largest point; 0 = no check */
    bool no_plot;
    uint64_t jobs;           /* worker processes for the suite's independent parts */
    /* apps: the trace, how it is read and replayed, and the models it is also replayed on */
    const char *trace_path;
    ssdsim_trace_opts trace;
    uint32_t trace_devices[CLI_MAX_TRACE_DEVICES];
    struct cli_trace_given trace_given;
    uint32_t intervals;  /* 0: the library's 24 */
    double time_scale;   /* 0: as recorded */
    uint32_t passes;     /* 0: once */
    bool wrap;
    const char *compare_models[8];
    size_t n_compare;
};

/* ------------------------------------------------------------------------------------------ */
/* One suite run: the model and what will be written                                           */

struct suite {
    const struct suite_opts *opt;
    ssdsim_model *model; /* the model with --set applied */
    const char *model_label;
    uint64_t seed;
    cJSON *json;          /* suite.json */
    GString *md;          /* report.md after its header */
    GPtrArray *shortcuts; /* char *: the "Shortcuts taken" bullets, in order */
    GString *gp;          /* suite.gp after its preamble */
    GPtrArray *plots;     /* char *: PNG files suite.gp makes, in order */
    GPtrArray *csv_names; /* char *: CSV file names, in order */
    GPtrArray *csv_texts; /* char *: their contents */
    GPtrArray *say;       /* char *: progress lines kept for the parent (a part in a worker
                           * process), or NULL: printed as they come */
};

/* Print a progress line on stdout (unless --quiet). */
void suite_say(struct suite *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Add a "Shortcuts taken" bullet (Markdown), once: the same text twice is kept once. */
void suite_shortcut(struct suite *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Append to report.md. */
void suite_md(struct suite *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Register a CSV file (name without directory; the text is taken over, g_free'd later). */
void suite_csv(struct suite *s, const char *name, char *text);

/* Register a plot: its PNG name and the gnuplot commands that make it (set output is added). */
void suite_plot(struct suite *s, const char *png, const char *commands);

/* Doubles in JSON and CSV are rounded to 6 significant digits (as the library's results), so
 * that the files are short and read the same everywhere. NaN and infinities become null (JSON)
 * or an empty field (CSV). */
double suite_round6(double v);
void suite_json_num(cJSON *obj, const char *key, double v);
void suite_json_u64(cJSON *obj, const char *key, uint64_t v);
void suite_csv_num(GString *row, double v, bool last);

/* Move every item of `from` (an array or an object; NULL: none) to the end of `to`, keeping
 * their order and, into an object, their keys: how a part's JSON joins the suite's. */
void suite_json_move(cJSON *to, cJSON *from);

/* ------------------------------------------------------------------------------------------ */
/* Workloads                                                                                   */

/* A suite's workloads are ssdsim_suite_wl (ssdsim/suite.h): a fio pattern at threads x qd,
 * over a region. */
#define WL(rw, bs, bssplit, mix, t, q)                                                             \
    {SSDSIM_SUITE_WL_VERSION, (rw), (bs), (bssplit), (mix), (t), (q), 0, 0, false}

/* The fio options of `w` as a JSON object text (no run length), for reports and the JSON. */
char *suite_wl_json(const ssdsim_suite_wl *w);

/* `w` built with the workload builder (no run length: the methods set it). NULL after printing
 * the error. */
ssdsim_workload *suite_wl_new(const ssdsim_suite_wl *w);

/* ------------------------------------------------------------------------------------------ */
/* Simulations                                                                                 */

/* A new simulation of `model` with the suite's seed; NULL after printing the error. */
ssdsim *suite_sim_new(struct suite *s, const ssdsim_model *model);

/* A copy of `model` (ssdsim_model_copy); NULL after printing the error. */
ssdsim_model *suite_model_copy(const ssdsim_model *model);

/* Secure erase, failing with a message. 0 or -1. */
int suite_erase(ssdsim *sim);

/* Measure `w` on `sim` (ssdsim_measure): at most `window_ns` of simulated time after a ramp
 * of a tenth of it, stopping once the IOPS converge with `until_steady`; a window that held too
 * few requests, or for a workload that writes less than `gc_cycles` blocks per plane of host
 * writes, is run again longer, and a "Shortcuts taken" bullet says so. 0, or -1 after printing
 * the error. */
int suite_measure(struct suite *s, ssdsim *sim, const ssdsim_suite_wl *w, uint64_t window_ns,
                  bool until_steady, unsigned gc_cycles, ssdsim_measurement *f);

/* The "Shortcuts taken" bullets of a measured window: run again longer (when f->n_runs > 1: up
 * to SUITE_MAX_STRETCH times its length, or, when up_to_s > 0, up to a test of that many
 * seconds), and started only once the garbage collection earlier writes left running had ended
 * (f->gc_wait_ns). */
void suite_window_notes(struct suite *s, const ssdsim_measurement *f, unsigned gc_cycles,
                      double up_to_s);
void suite_settle_note(struct suite *s);

/* What a measured window must hold (ssdsim_measure_opts): requests, requests per outstanding
 * request, and the longest re-run in windows. */
#define SUITE_MIN_IOS 5000
#define SUITE_MIN_CYCLES 20
#define SUITE_MAX_STRETCH 64

/* GC periods a measured point spans at least (a review or quick-matrix point); a cell of a
 * SNIA round spans SSDSIM_SNIA_GC_CYCLES (averaged over the 5 rounds of the window). */
#define SUITE_GC_CYCLES 20

/* `f` as a JSON object (into `obj`). */
void suite_fig_json(cJSON *obj, const ssdsim_measurement *f);

/* The latency distribution of the last run for `op` as CDF rows "series,lat_us,cdf" appended to
 * `csv`, and as [[lat_ns, cdf], ...] into `json_key` of `obj`. At most ~200 points (buckets
 * merged) so that the files stay small. */
void suite_cdf(const ssdsim *sim, enum ssdsim_op op, const char *series, GString *csv, cJSON *obj,
               const char *json_key);

/* As suite_cdf, from a sum of runs. */
void suite_sum_cdf(const ssdsim_latency_sum *h, const char *series, GString *csv, cJSON *obj,
                   const char *json_key);

/* ------------------------------------------------------------------------------------------ */
/* Preconditioning curves                                                                      */

/* A preconditioning curve as the suites report it (the rows went into the JSON and CSV). */
struct suite_curve {
    const char *id; /* file-name part: precondition-<id>.csv */
    size_t n_rows;  /* 0: none was run (a hard disk) */
    ssdsim_curve_summary sum;
};

/* Run the preconditioning curve of `w` (ssdsim_curve_run) from a secure-erased drive until its
 * IOPS are steady, on `copy`, a simulation of a scaled copy of the model, or on `full` itself
 * when `copy` is NULL; `full` is left at that steady state. Records the curve (JSON under `obj`,
 * CSV, plot) as `id`. 0 or -1 after printing the error. */
int suite_precondition(struct suite *s, ssdsim *full, ssdsim *copy, const ssdsim_suite_wl *w,
                       const char *id, const char *title, cJSON *obj, struct suite_curve *curve);

/* Bring `sim` (secure-erased first) to the steady state of `w` without recording a curve
 * (ssdsim_reach_steady), with the "Shortcuts taken" bullets of how. 0 or -1. */
int suite_steady_state(struct suite *s, ssdsim *sim, const ssdsim_suite_wl *w, const char *what);

/* The curve options of the suite: rounds per drive write (the steady rule looks at one drive
 * write) and the most drive writes. */
ssdsim_curve_opts suite_curve_opts(const struct suite *s);

/* The "Shortcuts taken" bullet of a RAID card's write-back cache filled before measuring writes
 * (ssdsim_fill_card_cache), when the model has a battery-backed one and `w` writes. */
void suite_card_cache_note(struct suite *s, const ssdsim_suite_wl *w);
/* ssdsim_fill_card_cache with `w` on `sim` where the model has such a cache, and its note:
 * 0, or -1 after one error line. */
int suite_fill_card_cache(struct suite *s, ssdsim *sim, const ssdsim_suite_wl *w);
/* The "Shortcuts taken" bullets of how a drive reached the steady state of `w` (`what`, for the
 * progress line of the long way), the card's cache's among them. */
void suite_steady_notes(struct suite *s, const ssdsim_suite_wl *w, ssdsim_steady_method how,
                        const char *what);

/* The 2x2 plot of one curve (IOPS, mean, maximum and standard deviation of latency against
 * time), precondition-ID.png; plots over several curves are the caller's. */
void suite_curve_plot(struct suite *s, const struct suite_curve *c, const char *title);

/* ------------------------------------------------------------------------------------------ */
/* Independent parts (suite_parts.c)                                                           */

/* A suite's independent parts: part i (0..n-1) runs `run` on a struct suite of its own (from
 * its own drive: nothing it measures may depend on another part), in a worker process when
 * --jobs allows, longest `cost` first. */
struct suite_parts {
    size_t n;
    int (*run)(struct suite *part, size_t i, void *ctx); /* 0, or -1 after printing the error */
    double (*cost)(void *ctx, size_t i);                 /* NULL: all alike */
    void *ctx;
};

/* Run every part into parts[0..n-1] (the caller's array, each then initialised: free each with
 * suite_part_free). With --jobs above 1 they run in worker processes and the parts' progress
 * lines are printed in part order, each part's once it and those before it have finished; else
 * one after the other, printing as they go. 0, or -1
 * when a part failed or the suite was interrupted (the error was printed). */
int suite_parts_run(struct suite *s, const struct suite_parts *def, struct suite *parts);

/* A part's struct suite: the suite's options, model and seed, empty outputs; `capture` keeps
 * its progress lines instead of printing them. */
void suite_part_init(struct suite *part, const struct suite *s, bool capture);
void suite_part_free(struct suite *part);

/* Add a part's shortcuts (once each), plots and CSV files to the suite, after what it has. The
 * part's JSON and Markdown are the procedure's to place. */
void suite_part_merge(struct suite *s, const struct suite *part);

/* ------------------------------------------------------------------------------------------ */
/* The procedures                                                                              */

int suite_review(struct suite *s);
int suite_snia(struct suite *s);
int suite_quick_matrix(struct suite *s);
int suite_endurance(struct suite *s);
int suite_tenants(struct suite *s); /* suite_tenants.c */
int suite_fdp(struct suite *s);     /* suite_fdp.c */
int suite_scaling(struct suite *s); /* suite_scaling.c */
int suite_apps(struct suite *s);    /* suite_apps.c */

/* `bytes` in binary units for reports ("12.50 GiB") into buf, which is returned. */
const char *suite_fmt_bytes(char *buf, size_t len, double bytes);

#endif /* SSDSIM_SIM_SUITE_H */
