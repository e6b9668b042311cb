/* cli.h: shared pieces of the ssdsim command (subcommands, the options of one run, report,
 * progress line). */
#ifndef SSDSIM_CLI_H
#define SSDSIM_CLI_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "ssdsim/ssdsim.h"
#include "ssdsim/trace.h"

/* Exit codes: 0 success, 1 the simulation or its input failed, 2 bad command line. */
#define CLI_EXIT_FAIL 1
#define CLI_EXIT_USAGE 2

/* Most devices --device may select. */
#define CLI_MAX_TRACE_DEVICES 256

/* Most --set (and, for a sweep, --vary) options one command line may give. */
#define CLI_MAX_SETS 128

int cli_run(int argc, char **argv);
int cli_demo(int argc, char **argv);
int cli_sweep(int argc, char **argv);
int cli_collect(int argc, char **argv);
int cli_list(int argc, char **argv);
/* `ssdsim validate waf`: simulated write amplification against the analytic models
 * (cmd_validate.c, doc/validation.md). argv[0] is "validate". */
int cli_validate(int argc, char **argv);
/* `ssdsim trace info|convert`: summarise or convert a block I/O trace (cmd_trace.c,
 * doc/traces.md). argv[0] is "trace". */
int cli_trace(int argc, char **argv);
/* `ssdsim suite review|snia|quick-matrix`: the measurement procedures of the review labs and
 * SNIA's PTS-E on a model, with a JSON of every figure, CSVs, a Markdown report and plots
 * (cmd_suite.c, doc/suites.md). argv[0] is "suite". */
int cli_suite(int argc, char **argv);
/* `ssdsim calibrate --model M`: the workloads behind the vendor figures of a model's spec
 * block, simulated against the figures (cmd_calibrate.c, doc/models.md). argv[0] is
 * "calibrate". */
int cli_calibrate(int argc, char **argv);

/* Print one error line "ssdsim: ..." to stderr, written with one call so that the lines of
 * several processes sharing stderr do not interleave. */
void cli_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Text put after "ssdsim: " in every later error line ("point 3 (ftl.op=0.1): "), or NULL. The
 * string is not copied. */
void cli_set_error_context(const char *context);

/* The options of one simulation run: `ssdsim run`, `ssdsim demo`, and each point of a sweep. */
struct cli_run_opts {
    const char *model_path;    /* file or installed model name; NULL: the built-in model */
    const char *workload_path; /* NULL only for the demo */
    /* Overrides "KEY=VALUE", applied in order: `sets` (named --set in messages), then `varies`
     * (named --vary). A key "workload.X" sets the workload option X, any other a model key. */
    const char *sets[CLI_MAX_SETS];
    int n_sets;
    const char *varies[CLI_MAX_SETS];
    int n_varies;
    uint64_t seed;
    bool seed_given;
    uint64_t interval_ns;
    uint64_t interval_ios;
    uint64_t interval_bytes; /* --interval-bytes (run and demo only) */
    /* Steady state (run and demo only): --until-steady stops the run when the SNIA rule holds
     * for --steady-var over the rounds (intervals); --max-rounds stops it after N rounds. */
    bool until_steady;
    ssdsim_steady_var steady_var;
    uint32_t max_rounds;
    bool precondition_seq;      /* --precondition seq[:N]: N sequential fills first */
    uint32_t precondition_fills; /* N (1 for "seq") */
    bool precondition_fast;     /* --precondition fast: the workload's steady state, installed */
    const char *precondition;   /* the value as given, or NULL */
    bool quiet;
    const char *json_out;   /* results JSON file, or NULL */
    bool json_atomic;       /* write json_out through a temporary file and rename(2) */
    const char *json_point; /* a JSON object put first in the results as "point", or NULL */
    const char *csv_out;    /* time-series CSV file, or NULL */
    /* Trace replay instead of the workload (`run --trace`) */
    const char *trace_path;
    ssdsim_trace_opts trace;
    uint32_t trace_devices[CLI_MAX_TRACE_DEVICES];
    ssdsim_replay_opts replay;
    bool lenient;              /* fio job files: skip unknown options */
    bool fio_json;             /* --output-format fio-json: json_out in fio's layout */
    const char *record_path;   /* write every issued request as a trace */
    ssdsim_trace_format record_format;
    const char *latency_log;   /* per-request CSV */
    uint64_t check_period;     /* --check[=N]: consistency check every N events; 0 none */
};

/* Split "--name=value" into name and value (*val NULL when the argument has no '='). */
void cli_split_option(const char *arg, char *name, size_t name_len, const char **val);

/* The options run and sweep share (--model, --workload, --set, --seed, --precondition,
 * --interval, --interval-ios). cli_common_option_takes_value() says whether `name` is one;
 * cli_common_option() stores its value in `o` and returns 0, or prints the error and returns
 * CLI_EXIT_USAGE. `cmd` names the command in messages. */
bool cli_common_option_takes_value(const char *name);
int cli_common_option(const char *cmd, const char *name, const char *val, struct cli_run_opts *o);

/* Parse a --precondition value ("seq", "seq:N", "fast") into `o`. 0, or CLI_EXIT_USAGE after
 * printing the error; `cmd` names the command in messages. */
int cli_parse_precondition(const char *cmd, const char *val, struct cli_run_opts *o);

/* A non-negative decimal integer that fits in 64 bits. */
bool cli_parse_u64(const char *s, uint64_t *out);

/* Load the model of `o` and apply its model overrides; load its workload (when `wl` is not NULL
 * and o->workload_path is set) and apply its workload.* overrides. 0, or -1 after printing the
 * error; nothing is left allocated on failure. */
int cli_load(const struct cli_run_opts *o, ssdsim_model **model, ssdsim_workload **wl);

/* Build the simulation, precondition, run, report and write the outputs of `o`.
 * Returns 0 or CLI_EXIT_FAIL (after printing the error). */
int cli_execute(const struct cli_run_opts *o, const ssdsim_model *model, const ssdsim_workload *wl,
                const char *wl_desc);

/* Write `text` and a newline to `path`; with `atomic`, into a temporary file in the same
 * directory that is then renamed over `path`, so that a reader sees the old file or the whole
 * new one. 0, or -1 after printing the error. */
int cli_write_file(const char *path, const char *text, bool atomic);

/* `ssdsim run --manifest FILE --index K`: run line K of a sweep manifest exactly as the sweep
 * does. `json_out` (when not NULL) replaces the line's output path; `csv_out` may be NULL. */
int cli_manifest_run(const char *manifest, uint64_t index, const char *json_out,
                     const char *csv_out, bool quiet);

/* What watches a run's requests through the library's observer (watch.c): --record (every
 * issued request into a trace), --latency-log (one CSV row per completed request), and the
 * per-job logs a fio job file asks for (write_iops_log, write_lat_log, write_bw_log,
 * log_avg_msec) in fio's log format. */
struct cli_watch {
    ssdsim *sim;
    uint64_t t0_ns; /* simulated time the run started */
    ssdsim_trace_writer *record;
    FILE *latlog;
    void *fio_logs; /* private state of the fio logs (watch.c) */
    int failed;     /* a write failed during the run (reported at close) */
    char failmsg[512];
};

/* Open the outputs `o` and `wl` (may be NULL) ask for and install the observer on `sim` (none
 * when nothing is asked). 0, or -1 after printing the error (nothing left open). */
int cli_watch_open(struct cli_watch *w, const struct cli_run_opts *o, const ssdsim_workload *wl,
                   ssdsim *sim);

/* Remove the observer, flush and close everything. `ok`: the run succeeded (otherwise files
 * are closed as they are). 0, or -1 after printing the error. */
int cli_watch_close(struct cli_watch *w, bool ok);

/* The trace-reader options `trace` and `run --trace` share (cmd_trace.c): --trace-format,
 * --time-unit, --read-flag, --blkparse-events, --device. cli_trace_reader_option() returns 1
 * when `name` is not one of them, 0 when it stored the value in `opts` (--device values go into
 * `devices`, room for CLI_MAX_TRACE_DEVICES, which opts->devices then points to), or
 * CLI_EXIT_USAGE after printing the error; `cmd` names the command in messages. */
bool cli_is_trace_reader_option(const char *name);
int cli_trace_reader_option(const char *cmd, const char *name, const char *val,
                            ssdsim_trace_opts *opts, uint32_t *devices);

/* Human-readable summary, the preconditioning table and, when there is a time series, the
 * steady-state verdict for `steady_var`. */
void cli_report(FILE *out, const ssdsim *sim, const ssdsim_model *model, const char *wl_desc,
                ssdsim_steady_var steady_var);

/* gnuplot (plot.c), shared by sweep, collect and suite. cli_gnuplot_preamble(): the lines that
 * pick the PNG terminal (pngcairo when gnuplot has it, else png) at width x height pixels.
 * cli_gnuplot_quote(): `v` as a gnuplot string between single quotes (a quote doubled). Both
 * return a string the caller frees with g_free(). cli_gnuplot_run(): run `script` in `dir`
 * when gnuplot is on PATH; 0 when it ran, 1 when gnuplot is not installed (said on stdout
 * unless quiet), -1 when it failed (a warning line on stderr). */
char *cli_gnuplot_preamble(unsigned width, unsigned height);
char *cli_gnuplot_quote(const char *v);
int cli_gnuplot_run(const char *dir, const char *script, bool quiet);

/* The model's canonical JSON (ssdsim_model_to_json) as a cJSON tree the caller frees with
 * cJSON_Delete; NULL when out of memory (report.c). */
struct cJSON *cli_model_tree(const ssdsim_model *m);

/* Seconds on the monotonic wall clock (progress.c), for the wall times commands print; never
 * for anything that reaches a result. */
double cli_wall_s(void);

/* Progress line on stderr, only when it is a terminal (the callback for ssdsim_set_progress). */
struct cli_progress;
struct cli_progress *cli_progress_new(const char *what);
int cli_progress_cb(double fraction, void *userdata);
void cli_progress_done(struct cli_progress *p);

#endif /* SSDSIM_CLI_H */
