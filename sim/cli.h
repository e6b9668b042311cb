/* cli.h: shared pieces of the ssdsim command (subcommands, the options of one run, report,
 * progress line). */
#ifndef SSDSIM_CLI_H
#define SSDSIM_CLI_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#include "ssdsim/point.h"
#include "ssdsim/ssdsim.h"
#include "ssdsim/suite.h"
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

/* Write `len` bytes of `text` to stderr with write(2), after flushing stdio's stderr, going on
 * after EINTR and short writes: a line of a few hundred bytes goes in one call, so that the
 * lines of processes sharing stderr do not interleave (cli_error and the progress lines). */
void cli_stderr_put(const char *text, size_t len);

/* Text put after "ssdsim: " in every later error line ("point 3 (ftl.op=0.1): "), or NULL. The
 * string is not copied. */
void cli_set_error_context(const char *context);

/* --quiet: the library's warnings and notes, which go to stderr otherwise, are not shown. */
void cli_quiet_notes(void);

/* The reader options of one input format that were given (NULL: none): --time-unit or
 * --read-flag (DiskSim ASCII), --blkparse-events (blkparse). */
struct cli_trace_given {
    const char *disksim, *blkparse;
};

/* The options of one simulation run: `ssdsim run`, `ssdsim demo`, and each point of a sweep. */
struct cli_run_opts {
    const char *model_path;    /* file or installed model name; NULL: the built-in model */
    const char *model_option;  /* names it in messages; NULL: "--model" */
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
    bool progress;          /* --progress: a progress line per whole percent on stderr */
    const char *json_out;   /* results JSON file, or NULL */
    const char *json_point; /* a JSON object put first in the results as "point", or NULL */
    const char *csv_out;    /* time-series CSV file, or NULL */
    /* Trace replay instead of the workload (`run --trace`) */
    const char *trace_path;
    /* --trace given again: more traces replayed at once, one flow (job, queue) each */
    const char *more_traces[15];
    size_t n_more_traces;
    ssdsim_trace_opts trace;
    uint32_t trace_devices[CLI_MAX_TRACE_DEVICES];
    struct cli_trace_given trace_given;
    ssdsim_replay_opts replay;
    bool lenient;              /* fio job files: skip unknown options */
    bool fairness;             /* --fairness: each job alone too, slowdowns (fairness.c) */
    double age_days;           /* --age-days: retention aging before the measured run */
    uint32_t wear_pe;          /* --wear-pe: P/E cycles added to every block before it */
    bool fio_json;             /* --output-format fio-json: json_out in fio's layout */
    const char *record_path;   /* write every issued request as a trace */
    ssdsim_trace_format record_format;
    const char *latency_log;   /* per-request CSV */
    uint64_t check_period;     /* --check[=N]: consistency check every N events; 0 none */
    const char *source_spec;   /* --source NAME[:ARGS]: a plugin module's request source */
    uint64_t power_loss_ns;    /* --power-loss-at (0: none) */
    uint64_t power_loss_after; /* --power-loss-after (0: none) */
    bool fail_die;             /* --fail die:CH/CHIP/DIE@TIME */
    uint32_t fail_addr[4]; /* channel, chip, die, plane (UINT32_MAX: the whole die) */
    uint64_t fail_at_ns;
};

/* The point `o` describes (ssdsim/point.h): its overrides (pointing into `o`), seed (given),
 * preconditioning and run options. */
void cli_point_opts(const struct cli_run_opts *o, ssdsim_point_opts *pt);
/* The drive state `o` asks for after preconditioning (--wear-pe, --age-days, --power-loss-*,
 * --fail): the shared run's and, with --fairness, each flow's alone. */
void cli_point_state(const struct cli_run_opts *o, ssdsim_point_state *st);

/* --fairness (fairness.c): each job section of `wl` run alone after the shared run `shared`;
 * slowdowns and the fairness index. 0, or -1 after printing the error. */
struct cli_fair {
    size_t n;
    const ssdsim_workload *wl; /* names the flows */
    ssdsim_flow *flows;
    double *tail; /* each flow's drain tail in the shared run (ssdsim_flows_tail) */
    double index; /* min slowdown / max slowdown */
};
int cli_fairness_run(const struct cli_run_opts *o, const ssdsim_model *model,
                     const ssdsim_workload *wl, const ssdsim *shared, struct cli_fair *f);
void cli_fairness_print(FILE *out, const struct cli_fair *f);
/* The results JSON text with "fairness" added (malloc'ed), or NULL. */
char *cli_fairness_json(const char *json, const struct cli_fair *f);
void cli_fairness_free(struct cli_fair *f);

/* Split "--name=value" into name and value (*val NULL when the argument has no '='). */
void cli_split_option(const char *arg, char *name, size_t name_len, const char **val);

/* The value of option `name`, argv[*i]: *val when the argument gave one ("--name=value"), else
 * the next argument (*i moves on to it). 0, or CLI_EXIT_USAGE after printing "CMD: option 'NAME'
 * needs a value" when there is none. */
int cli_option_value(const char *cmd, const char *name, int argc, char **argv, int *i,
                     const char **val);

/* The options run and sweep share (--model, --workload, --set, --seed, --precondition,
 * --interval, --interval-ios). cli_common_option_takes_value() says whether `name` is one;
 * cli_common_option() stores its value in `o` and returns 0, or prints the error and returns
 * CLI_EXIT_USAGE. `cmd` names the command in messages. */
bool cli_common_option_takes_value(const char *name);
int cli_common_option(const char *cmd, const char *name, const char *val, struct cli_run_opts *o);

/* Parse a --precondition value ("seq", "seq:N", "fast") into `o`. 0, or CLI_EXIT_USAGE after
 * printing the error; `cmd` names the command in messages. */
int cli_parse_precondition(const char *cmd, const char *val, struct cli_run_opts *o);

/* The options of one command line that take a single value, as seen so far: one given twice is
 * an error (the last one silently winning hides a typo or a script's mistake). */
struct cli_seen {
    char names[48][32];
    size_t n;
};

/* Note option `name` (which takes one value) of command `cmd`. 0, or CLI_EXIT_USAGE after
 * printing "CMD: NAME given twice (it takes one value)". */
int cli_once(const char *cmd, const char *name, struct cli_seen *seen);

/* A non-negative decimal integer that fits in 64 bits. */
bool cli_parse_u64(const char *s, uint64_t *out);

/* A duration option's value (ssdsim_parse_time_ns: "30s", "500ms"), or a bare zero ("0",
 * "0.0"), which is none in any unit: every duration option reads it so, and refuses it where
 * its range starts above 0. */
bool cli_parse_time_ns(const char *s, uint64_t *out);

/* Load the model of `o` and apply its model overrides; load its workload (when `wl` is not NULL
 * and o->workload_path is set) and apply its workload.* overrides. 0, or -1 after printing the
 * error; nothing is left allocated on failure. */
int cli_load(const struct cli_run_opts *o, ssdsim_model **model, ssdsim_workload **wl);

/* Build the simulation, precondition, run, report and write the outputs of `o`.
 * Returns 0 or CLI_EXIT_FAIL (after printing the error). */
int cli_execute(const struct cli_run_opts *o, const ssdsim_model *model, const ssdsim_workload *wl,
                const char *wl_desc);

/* Output files (outfile.c). Every command opens its outputs through these: an output that is
 * the same file (st_dev, st_ino) as an input of the run is refused, and an output is written
 * under a temporary name in its directory (".NAME.tmp.PID"), then flushed, fsync'ed and renamed
 * over NAME, so that a reader sees the old file or the whole new one, never a part. An output
 * that is not a regular file (/dev/null, a FIFO) is written in place; a symbolic link is kept
 * and the file it points to replaced.
 *
 * cli_input_add(): register a file the run reads (ignored when it does not exist);
 * cli_inputs_clear() forgets them all. cli_output_check(): after printing the error,
 * CLI_EXIT_USAGE when `path` is a registered input (a bad command line, as two outputs at one
 * file), CLI_EXIT_FAIL when it is a directory or a file whose directory is missing or not
 * writable (a file that cannot be written); else 0. Commands call it on their outputs before
 * they run, so that a mistake is not found after the run. */
void cli_input_add(const char *path);
/* cli_model_input_add(): register the file a model argument (a path or an installed model's
 * name, as --model takes) names, before the command loads it: a command that checks its
 * outputs before it runs must know every input by then. A name that names no file: nothing. */
void cli_model_input_add(const char *arg);
void cli_inputs_clear(void);
int cli_output_check(const char *path);
/* The n outputs of one command, paths[i] given by the option names[i] (a NULL path: not
 * written): -1 after one line naming the path and both options when two are the same file
 * (the same path, a link to it, or a path naming it through another directory), else 0. A
 * device or a pipe may take several. */
int cli_outputs_distinct(const char *const *names, const char *const *paths, size_t n);

/* Before a command that writes files named `names` (glob patterns: "precondition-*.csv") into
 * `dir` runs: CLI_EXIT_USAGE after one line naming the file, `cmd` ("suite tenants") and the
 * input when a file of `dir` that one of the names matches is a registered input (the same
 * file: a link counts), else 0. A `dir` that does not exist yet holds no input. */
int cli_dir_outputs_check(const char *dir, const char *const *names, size_t n, const char *cmd);

/* Before a command that writes a folder at its end runs for minutes: can `dir` be created (or
 * written in, if it exists)? The nearest part of it that exists must be a directory the command
 * may write in. 0, or -1 after printing the error. */
int cli_dir_check(const char *dir);

/* One output being written. cli_out_begin(): check `path` and choose the temporary name `tmp`
 * for a writer of its own (the library's) to create; cli_out_open(): the same, and open `f` on
 * it. Both return 0, or -1 after printing the error (nothing left over). cli_out_commit(): flush
 * and fsync the temporary file, close `f` when open, and rename it to `path`;
 * cli_out_commit_as(): to `path` followed by `suffix` (".partial"). 0, or -1 after printing the
 * error with the temporary file removed. cli_out_abort(): close and remove the temporary file.
 * After any of the three, `o` holds nothing. */
struct cli_out {
    char *path; /* the final name */
    char *tmp;  /* the temporary name in the same directory */
    FILE *f;    /* open on tmp (cli_out_open), or NULL */
    bool direct; /* not a regular file (a device, a FIFO): tmp is path, written in place */
};
int cli_out_begin(struct cli_out *o, const char *path);
int cli_out_open(struct cli_out *o, const char *path);
int cli_out_commit(struct cli_out *o);
int cli_out_commit_as(struct cli_out *o, const char *suffix);
void cli_out_abort(struct cli_out *o);

/* Write `text` and a newline to `path` through cli_out_open and cli_out_commit. 0, or -1 after
 * printing the error. */
int cli_write_file(const char *path, const char *text);

/* Flush standard output: 0, or -1 after printing "standard output: write failed" (a full disk,
 * a closed pipe: the command then exits non-zero). */
int cli_stdout_check(void);

/* SIGINT and SIGTERM (interrupt.c). cli_interrupt_install() catches both: once (a second one
 * acts as if not caught), or with `repeat` every time (a sweep's worker, which may get the
 * signal from the terminal and from the sweep), and then later calls without `repeat` change
 * nothing; the handler stores the signal number in cli_interrupted and passes it
 * on to the processes of cli_interrupt_forward() (a sweep's workers; pid 0 entries skipped; NULL
 * for none). cli_interrupt_cb(): the progress callback of every run, which cancels the run once
 * a signal came and otherwise calls cli_progress_cb(fraction, progress) when `progress` is not
 * NULL. cli_interrupt_status(): the exit status after an interruption, 128 + the signal (130
 * for SIGINT, 143 for SIGTERM); cli_interrupt_name(): "SIGINT" or "SIGTERM". */
extern volatile sig_atomic_t cli_interrupted;
void cli_interrupt_install(bool repeat);
void cli_interrupt_forward(volatile pid_t *pids, size_t n);
int cli_interrupt_cb(double fraction, void *progress);
int cli_interrupt_status(void);
const char *cli_interrupt_name(void);
/* cli_interrupt_mute(true): once a signal has come, cli_error() drops its lines (the failures a
 * cancelled measurement reports on its way out), so that the command's one line saying it was
 * interrupted is the only one; cli_interrupt_mute(false) ends that. For commands that stop at
 * the signal and write nothing (suite, calibrate, validate). */
void cli_interrupt_mute(bool mute);
/* SIGINT and SIGTERM back to their default action (end the process at once), for a command
 * that catches them only while it measures: one that comes while it writes its outputs leaves
 * at most hidden temporary files (outfile.c), never a part of an output under its name. */
void cli_interrupt_default(void);
bool cli_interrupt_muted(void);

/* The worker-process pool of sweep and validate (workers.c). Tasks 0..n-1 not skipped (skip
 * may be NULL) each run child(ctx, i, fd) in a forked process, at most `jobs` alive, whose
 * return value is the exit status; fd is the write end of a pipe when `pipe` is set, else -1.
 * Each ended worker goes to done(ctx, i, wait status, read end of its pipe or -1, wall-clock
 * seconds); the pool closes the pipe after. When no worker is alive and one cannot be started,
 * start_failed(ctx, i, why) gets "cannot create a pipe: ..." or "cannot start a worker
 * process: ..." and returns true to go on with the next task, false to start no more. With
 * `forward`, SIGINT and SIGTERM are passed on to the workers and no more start after one.
 * `what` ("sweep") begins the error line of a failed waitpid. With `cost` (may be NULL), tasks
 * start in decreasing cost(ctx, i), equal costs in index order, so that the last worker alive
 * is not left with a long task; the order changes when a task runs, never what it computes.
 * With `halt` (may be NULL), called after each done(): when it returns true no further worker
 * starts and those alive are killed (SIGKILL), for a command whose output needs every task, so
 * that one failed task ends it at once. A worker the pool killed goes to halted(ctx, i) (may be
 * NULL: nothing to clean up) instead of done(), so done() sees only workers that ended on their
 * own or by a signal from elsewhere. */
struct cli_workers {
    const char *what;
    size_t n, jobs;
    bool pipe, forward;
    void *ctx;
    bool (*skip)(void *ctx, size_t i);
    int (*child)(void *ctx, size_t i, int fd);
    void (*done)(void *ctx, size_t i, int status, int fd, double wall_s);
    bool (*start_failed)(void *ctx, size_t i, const char *why);
    double (*cost)(void *ctx, size_t i);
    bool (*halt)(void *ctx);
    void (*halted)(void *ctx, size_t i);
};
void cli_workers_run(const struct cli_workers *w);

/* Write or read all `len` bytes of a result through a worker's pipe, going on after EINTR and
 * short transfers: true when all of them went (a read fails at end of file). A result well
 * under the pipe's capacity is written without blocking on a parent that waits for the worker
 * to exit. */
bool cli_pipe_write(int fd, const void *buf, size_t len);
bool cli_pipe_read(int fd, void *buf, size_t len);

/* `ssdsim run --manifest FILE --index K`: run line K of a sweep manifest exactly as the sweep
 * does. `json_out` (when not NULL) replaces the line's output path; `csv_out` may be NULL.
 * Without either, a point whose complete results are at the line's output path already is
 * skipped (as a sweep run again skips it) unless `force`. */
int cli_manifest_run(const char *manifest, uint64_t index, const char *json_out,
                     const char *csv_out, bool quiet, bool force);

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
    /* --record: requests its format cannot hold, left out (reported at close): flushes in CSV
     * and DiskSim ASCII, zone commands in any */
    uint64_t record_flushes_left, record_zone_left;
    ssdsim_trace_format record_format;
};

/* Open the outputs `o` and `wl` (may be NULL) ask for and install the observer on `sim` (none
 * when nothing is asked). 0, or -1 after printing the error (nothing left open). */
int cli_watch_open(struct cli_watch *w, const struct cli_run_opts *o, const ssdsim_workload *wl,
                   ssdsim *sim);

/* Remove the observer, flush and close everything: CLI_WATCH_COMMIT after a complete run
 * (each file renamed to its name), CLI_WATCH_PARTIAL after an interrupted or failed one (each
 * renamed to NAME.partial, holding what the run did until it stopped), CLI_WATCH_DISCARD when
 * the run did not start (removed). 0, or -1 after printing the error. */
enum cli_watch_end { CLI_WATCH_COMMIT, CLI_WATCH_PARTIAL, CLI_WATCH_DISCARD };
int cli_watch_close(struct cli_watch *w, enum cli_watch_end how);

/* The trace-reader options `trace`, `run --trace` and `suite apps` share (cmd_trace.c):
 * --trace-format, --time-unit, --read-flag, --blkparse-events, --device.
 * cli_trace_reader_option() returns 1 when `name` is not one of them, 0 when it stored the value
 * in `opts` (--device values go into `devices`, room for CLI_MAX_TRACE_DEVICES, which
 * opts->devices then points to) and noted a format's option in `given`, or CLI_EXIT_USAGE after
 * printing the error; `cmd` names the command in messages. */
bool cli_is_trace_reader_option(const char *name);
int cli_trace_reader_option(const char *cmd, const char *name, const char *val,
                            ssdsim_trace_opts *opts, uint32_t *devices,
                            struct cli_trace_given *given);

/* A reader option of another format than `in`, the format of the trace `path`, has no effect:
 * refused naming both. 0, or CLI_EXIT_USAGE after printing the error. */
int cli_trace_check_given(const char *cmd, const char *path, ssdsim_trace_format in,
                          const struct cli_trace_given *given);

/* The same for a trace not yet read: its format is opts->format, or what ssdsim_trace_probe
 * finds (0 when it finds none: opening the trace reports that). */
int cli_trace_check_file(const char *cmd, const char *path, const ssdsim_trace_opts *opts,
                         const struct cli_trace_given *given);

/* What `run --trace` says about the trace it replayed (trace_replay.c). */
struct cli_trace_outcome {
    ssdsim_trace_stats stats;
    ssdsim_trace_format format;
    uint64_t replayed;  /* requests the run completed */
    char **warnings;    /* n_warnings lines, without "ssdsim: warning: " */
    size_t n_warnings;
    char *empty;        /* nothing was replayed: the error line, else NULL */
    char *json;         /* the "trace" member of the results JSON */
    ssdsim_job_info job; /* the replay's job: its mode, wraps and span */
};
/* Before the run: the note (stderr) naming the time unit assumed for a format that does not
 * say its own (DiskSim ASCII without --time-unit), and how to change it. */
void cli_trace_note_unit(const char *path, const ssdsim_trace *t);
/* "PATH: N bytes after the end of the gzip stream ignored (trailing garbage)", in a static
 * buffer. */
const char *cli_trace_gzip_garbage(const char *path, uint64_t bytes);
/* After the run: what the reader met. `timed`: an open-loop replay (times matter). */
void cli_trace_outcome(struct cli_trace_outcome *out, const char *path, const ssdsim_trace *t,
                       const ssdsim_trace_opts *opts, bool timed, uint64_t replayed);
void cli_trace_warn(const struct cli_trace_outcome *out);             /* stderr */
void cli_trace_summary(FILE *f, const struct cli_trace_outcome *out); /* one line */
/* `json` (the results) with the "trace" member first; NULL when out of memory. */
char *cli_trace_results_json(const char *json, const struct cli_trace_outcome *out);
void cli_trace_outcome_free(struct cli_trace_outcome *out);

/* Human-readable summary, the time series and, when there is one, the steady-state verdict for
 * `steady_var`. `state` says what the drive went through before the run ("a sequential fill",
 * ...), NULL when it started fresh: the series is then the preconditioning curve. */
void cli_report(FILE *out, const ssdsim *sim, const ssdsim_model *model, const char *wl_desc,
                ssdsim_steady_var steady_var, const char *state);

/* Latencies whose standard deviation is under 1% of their mean hardly spread: what the model's
 * fixed times per operation give requests that meet the same work and queue, not a prediction
 * (doc/models.md, "What constant times leave out"). The run's report and the suites' reports
 * say so where it shows. */
static inline bool cli_latency_flat(double mean, double stddev)
{
    return stddev < 0.01 * mean;
}

/* gnuplot (plot.c), shared by sweep, collect and suite. cli_gnuplot_preamble(): the lines that
 * pick the PNG terminal (pngcairo when gnuplot has it, else png) at width x height pixels.
 * cli_gnuplot_quote(): `v` as a gnuplot string between single quotes (a quote doubled). Both
 * return a string the caller frees with g_free(). cli_gnuplot_run(): run `script` in `dir`
 * when gnuplot is on PATH; 0 when it ran, 1 when gnuplot is not installed (said on stdout
 * unless quiet), -1 when it failed (a warning line on stderr). */
char *cli_gnuplot_preamble(unsigned width, unsigned height);
char *cli_gnuplot_quote(const char *v);
int cli_gnuplot_run(const char *dir, const char *script, bool quiet);

/* The results JSON text `json` (as the library prints it) with `member` (a JSON text as cJSON
 * prints it) inserted as its first member `key`, indented one level like the rest (report.c).
 * The results are not re-parsed and re-printed: the library writes exact integers that a round
 * trip through doubles could alter. malloc'ed; NULL when `json` has no object. */
char *cli_json_insert_first(const char *json, const char *key, const char *member);

/* The model's canonical JSON (ssdsim_model_to_json) as a cJSON tree the caller frees with
 * cJSON_Delete; NULL when out of memory (report.c). */
struct cJSON *cli_model_tree(const ssdsim_model *m);

/* Seconds on the monotonic wall clock (progress.c), for the wall times commands print; never
 * for anything that reaches a result. */
double cli_wall_s(void);

/* Progress on stderr (the callback for ssdsim_set_progress): redrawn in place on a terminal,
 * a plain line every few seconds otherwise, a plain line per whole percent with `every`
 * (--progress); SSDSIM_PROGRESS=0 turns off all but the last (progress.c). */
struct cli_progress;
struct cli_progress *cli_progress_new(const char *what, bool every);
int cli_progress_cb(double fraction, void *userdata);
void cli_progress_done(struct cli_progress *p);

#endif /* SSDSIM_CLI_H */
