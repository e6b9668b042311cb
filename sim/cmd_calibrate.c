/* cmd_calibrate.c: `ssdsim calibrate --model M`: run the workload behind each vendor figure of a
 * model's `spec` block and print the simulated figure beside the vendor's, with the ratio.
 *
 * The method is the library's (ssdsim_calibrate_figure in ssdsim/measure.h: a new simulation per
 * figure, brought into the figure's state, its workload measured as a suite point is); this file
 * is the command line, the figure list, the text and Markdown tables and the JSON.
 *
 * The figures are independent: with --jobs N they run in up to N worker processes (workers.c),
 * each sending its ssdsim_calibration back through a pipe, the steady-state write figures
 * (the longest) first. The table, the Markdown and the JSON depend only on the model, the
 * options and the seed, never on --jobs; the wall time goes to the text table's last line only.
 */
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include <cJSON.h>
#include <glib.h>

#include "cli.h"
#include "suite.h"

/* Share of the spec figure a simulated one may miss by and still count as a match. */
#define TOLERANCE 0.10

struct cal_opts {
    struct suite_opts so; /* so.o: model_path, sets, seed, quiet */
    const char *json_out;
    const char *figure;
    bool markdown;
    bool list; /* list the figures and their workloads, run nothing */
    uint64_t jobs; /* worker processes */
};

/* One measured figure. */
struct cal_row {
    ssdsim_calibration c; /* c.spec: the figure */
    char workload[64];    /* "randread 4k QD32 x4" */
    char *wl_json;        /* the fio options as JSON (g_free) */
    char *note;           /* the figure's note and what the run adds (g_free) */
};

static const char *const state_name[] = {"fresh", "full", "steady", "steady (seq fill)"};

static void calibrate_help(FILE *f)
{
    fputs("usage: ssdsim calibrate --model FILE|NAME [OPTIONS]\n"
          "\n"
          "Run the workload behind every figure of the model's `spec` block (vendor IOPS, MB/s\n"
          "or latency at the vendor's block size, queue depth and jobs, in the drive state the\n"
          "figure names) and print the simulated figure beside the vendor's, with the ratio\n"
          "simulated / spec and whether it is within 10% (a figure the vendor gives as a limit,\n"
          "\"< 50 us\", is met anywhere within the limit). The exit status is 0 whether or not\n"
          "the figures match; see doc/models.md. SIGINT or SIGTERM stops it within a moment:\n"
          "it prints and writes nothing, says so in one line and exits 130 or 143.\n"
          "\n"
          "Options:\n"
          "  --model FILE|NAME      device or system model with a spec block (required)\n"
          "  --figure NAME          run only the figure with this name (or its number, from 1)\n"
          "  --list                 list the model and its figures with their workloads and\n"
          "                         states, without simulating (exit status 0 also when the\n"
          "                         model has no spec block)\n"
          "  --set KEY=VALUE        override a model key (repeatable), as for ssdsim run\n"
          "  --plugin FILE.so       load a plugin module (repeatable; doc/plugins.md)\n"
          "  --seed N               seed of every random stream (default 1)\n"
          "  --jobs N               figures run in N worker processes at a time (default: the\n"
          "                         online CPUs); the outputs do not depend on it\n"
          "  --precondition-method functional|timed\n"
          "                         how the full and steady states are reached: functional\n"
          "                         fast-forward (default) or timed fills and the scaled copy\n"
          "  --json OUT             write every figure, its workload and measurement as JSON\n"
          "  --markdown             print the table in Markdown (as doc/models.md shows it)\n"
          "  --quiet                print nothing but errors\n"
          "  --help                 this help\n",
          f);
}

/* Returns -1 to continue, or an exit code. */
static int calibrate_parse(int argc, char **argv, struct cal_opts *c)
{
    memset(c, 0, sizeof *c);
    c->so.o.seed = 1;
    c->so.suite = "calibrate";
    c->jobs = g_get_num_processors();
    struct cli_seen seen = {.n = 0};
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *val;
        char name[64];
        cli_split_option(a, name, sizeof name, &val);
        if (!strcmp(name, "--help") || !strcmp(name, "-h")) {
            calibrate_help(stdout);
            return 0;
        }
        if (!strcmp(name, "--quiet") || !strcmp(name, "-q")) {
            c->so.o.quiet = true;
            cli_quiet_notes();
            continue;
        }
        if (!strcmp(name, "--markdown")) {
            c->markdown = true;
            continue;
        }
        if (!strcmp(name, "--list")) {
            c->list = true;
            continue;
        }
        bool takes = !strcmp(name, "--model") || !strcmp(name, "--set") ||
                     !strcmp(name, "--seed") || !strcmp(name, "--json") ||
                     !strcmp(name, "--figure") || !strcmp(name, "--plugin") ||
                     !strcmp(name, "--jobs") || !strcmp(name, "--precondition-method");
        if (!takes) {
            cli_error("calibrate: unknown option '%s' (see ssdsim calibrate --help)", a);
            return CLI_EXIT_USAGE;
        }
        if (cli_option_value("calibrate", name, argc, argv, &i, &val))
            return CLI_EXIT_USAGE;
        if (strcmp(name, "--set") && strcmp(name, "--plugin") && cli_once("calibrate", name, &seen))
            return CLI_EXIT_USAGE; /* --set and --plugin add to a list */
        if (!strcmp(name, "--json")) {
            c->json_out = val;
        } else if (!strcmp(name, "--jobs")) {
            if (!cli_parse_u64(val, &c->jobs) || c->jobs == 0 || c->jobs > 4096) {
                cli_error("calibrate: --jobs: expected a number of worker processes from 1 to "
                          "4096, got '%s'",
                          val);
                return CLI_EXIT_USAGE;
            }
        } else if (!strcmp(name, "--figure")) {
            c->figure = val;
        } else {
            if (!strcmp(name, "--set") && !strncmp(val, "workload.", 9)) {
                cli_error("calibrate: --set %s: the workloads are the spec figures'; only model "
                          "keys can be set",
                          val);
                return CLI_EXIT_USAGE;
            }
            int rc = cli_common_option("calibrate", name, val, &c->so.o);
            if (rc)
                return rc;
        }
    }
    if (!c->so.o.model_path) {
        cli_error("calibrate: --model FILE is required (see ssdsim calibrate --help)");
        return CLI_EXIT_USAGE;
    }
    /* --list runs nothing: what chooses or writes a run's figures would be ignored */
    const char *idle = c->figure ? "--figure" : c->json_out ? "--json" : c->markdown ? "--markdown"
                                                                                    : NULL;
    if (c->list && idle) {
        cli_error("calibrate: %s does not go with --list, which lists every figure and runs "
                  "none",
                  idle);
        return CLI_EXIT_USAGE;
    }
    return -1;
}

/* A block size as fio writes it: "512", "4k", "128k", "1m". */
static void fmt_bs(char *buf, size_t len, uint32_t bs)
{
    if (bs % (1024 * 1024) == 0)
        snprintf(buf, len, "%" PRIu32 "m", bs / (1024 * 1024));
    else if (bs % 1024 == 0)
        snprintf(buf, len, "%" PRIu32 "k", bs / 1024);
    else
        snprintf(buf, len, "%" PRIu32, bs);
}

/* The figure's workload: its rw, bs (written into `bs`), jobs and depth, over the whole device. */
static ssdsim_suite_wl figure_wl(const ssdsim_spec_figure *f, char *bs, size_t len)
{
    fmt_bs(bs, len, f->bs);
    return (ssdsim_suite_wl){.version = SSDSIM_SUITE_WL_VERSION,
                             .rw = f->rw,
                             .bs = bs,
                             .rwmixread = -1,
                             .threads = f->numjobs,
                             .qd = f->iodepth};
}

static bool is_latency(const ssdsim_spec_figure *f)
{
    return !strcmp(ssdsim_spec_figure_unit(f), "us");
}

/* The figure's workload in `row`: its one-line description and its fio options as JSON. */
static void describe_workload(struct cal_row *row)
{
    const ssdsim_spec_figure *f = &row->c.spec;
    char bs[16];
    ssdsim_suite_wl w = figure_wl(f, bs, sizeof bs);
    if (f->numjobs > 1)
        snprintf(row->workload, sizeof row->workload, "%s %s QD%" PRIu32 " x%" PRIu32, f->rw, bs,
                 f->iodepth, f->numjobs);
    else
        snprintf(row->workload, sizeof row->workload, "%s %s QD%" PRIu32, f->rw, bs, f->iodepth);
    row->wl_json = suite_wl_json(&w);
}

/* The row's note: the figure's, then what the run adds. */
static void row_note(struct cal_row *row)
{
    const ssdsim_spec_figure *f = &row->c.spec;
    GString *note = g_string_new(f->note ? f->note : "");
    if (row->c.note[0]) {
        if (note->len)
            g_string_append(note, note->str[note->len - 1] == '.' ? " " : ". ");
        g_string_append(note, row->c.note);
    }
    row->note = g_string_free(note, FALSE);
}

/* Run one figure into `row`. 0 or -1 after printing the error. */
static int run_figure(const struct cal_opts *c, const ssdsim_model *model, struct cal_row *row,
                      size_t k, const char *progress)
{
    describe_workload(row);
    struct cli_progress *prog = c->so.o.quiet ? NULL : cli_progress_new(progress, false);
    ssdsim_calibrate_opts co = SSDSIM_CALIBRATE_OPTS_INIT;
    co.tolerance = TOLERANCE;
    co.progress = cli_interrupt_cb; /* SIGINT and SIGTERM cancel the run (interrupt.c) */
    co.progress_userdata = prog;
    ssdsim_error err;
    int rc = ssdsim_calibrate_figure(model, k, c->so.o.seed, &co, &row->c, &err);
    cli_progress_done(prog);
    if (rc) {
        cli_error("%s", err.message);
        return -1;
    }
    row_note(row);
    return 0;
}

/* A value in its metric's unit: latencies with one decimal, rates whole. */
static void fmt_value(char *buf, size_t len, const ssdsim_spec_figure *f, double v)
{
    if (is_latency(f))
        snprintf(buf, len, "%.1f us", v);
    else
        snprintf(buf, len, "%.0f %s", v, ssdsim_spec_figure_unit(f));
}

/* The spec value as the vendor states it: "< 50.0 us" for an upper bound, "> ..." a lower. */
static void fmt_spec(char *buf, size_t len, const ssdsim_calibration *c)
{
    char v[40];
    fmt_value(v, sizeof v, &c->spec, c->spec.value);
    const char *b = c->bound ? c->bound : "typical";
    snprintf(buf, len, "%s%s", !strcmp(b, "upper") ? "< " : !strcmp(b, "lower") ? "> " : "", v);
}

static bool within(const struct cal_row *r)
{
    return r->c.within_tolerance;
}

/* The verdict column: a figure a parameter was derived from is met by construction, so it
 * says "fitted" rather than a yes that would read as a check. */
static const char *verdict(const struct cal_row *r)
{
    return r->c.fitted ? "fitted" : within(r) ? "yes" : "no";
}

/* The counts the summary line and the JSON give: figures within the tolerance, fitted ones,
 * and the fitted ones within it (within by construction). */
struct cal_counts {
    size_t within, fitted, fitted_within;
};

static struct cal_counts count_rows(const struct cal_row *rows, size_t n)
{
    struct cal_counts k = {0, 0, 0};
    for (size_t i = 0; i < n; i++) {
        k.within += within(&rows[i]);
        k.fitted += rows[i].c.fitted != NULL;
        k.fitted_within += rows[i].c.fitted && within(&rows[i]);
    }
    return k;
}

/* Markdown cell text: '|' would end the cell. */
static void md_cell(GString *out, const char *text)
{
    for (const char *p = text; *p; p++) {
        if (*p == '|')
            g_string_append(out, "\\|");
        else if (*p == '\n')
            g_string_append_c(out, ' ');
        else
            g_string_append_c(out, *p);
    }
}

static void print_markdown(FILE *out, const struct cal_opts *c, const char *name,
                           const struct cal_row *rows, size_t n)
{
    GString *t = g_string_new(NULL);
    g_string_append_printf(t, "Generated by `ssdsim calibrate --model %s", c->so.o.model_path);
    for (int i = 0; i < c->so.o.n_sets; i++)
        g_string_append_printf(t, " --set %s", c->so.o.sets[i]);
    if (c->so.o.seed != 1)
        g_string_append_printf(t, " --seed %" PRIu64, c->so.o.seed);
    if (c->figure)
        g_string_append_printf(t, " --figure '%s'", c->figure);
    g_string_append_printf(t, " --markdown` (%s):\n\n", name);
    g_string_append(t, "| Figure | Workload | State | Spec | Simulated | Sim/spec | Within 10% "
                       "| Note |\n");
    g_string_append(t, "|---|---|---|---:|---:|---:|---|---|\n");
    for (size_t i = 0; i < n; i++) {
        const struct cal_row *r = &rows[i];
        char spec[48], sim[40];
        fmt_spec(spec, sizeof spec, &r->c);
        fmt_value(sim, sizeof sim, &r->c.spec, r->c.simulated);
        g_string_append(t, "| ");
        md_cell(t, r->c.spec.name);
        g_string_append_printf(t, " | %s | %s | %s | %s | %.2f | %s | ", r->workload,
                               state_name[r->c.state], spec, sim, r->c.ratio,
                               verdict(r));
        md_cell(t, r->note);
        g_string_append(t, " |\n");
    }
    if (c->so.o.n_sets)
        g_string_append(t, "\nThe notes describe the model file: the `--set` overrides change "
                           "it, so what a note derives (and a figure it calls fitted) may not "
                           "hold for the figures above.\n");
    fputs(t->str, out);
    g_string_free(t, TRUE);
}

static void print_text(FILE *out, const struct cal_opts *c, const char *name, const char *source,
                       const struct cal_row *rows, size_t n, double wall)
{
    fprintf(out, "model: %s\n", name);
    if (source)
        fprintf(out, "spec source: %s\n", source);
    if (c->so.o.n_sets) {
        fputs("overrides:", out);
        for (int i = 0; i < c->so.o.n_sets; i++)
            fprintf(out, " --set %s", c->so.o.sets[i]);
        fputs(" (the notes describe the model file without them: what a note derives, and a "
              "figure it calls fitted, may not hold here)\n",
              out);
    }
    fputc('\n', out);
    int wname = 6, wwl = 8, wst = 5;
    for (size_t i = 0; i < n; i++) {
        wname = (int)fmax(wname, strlen(rows[i].c.spec.name));
        wwl = (int)fmax(wwl, strlen(rows[i].workload));
        wst = (int)fmax(wst, strlen(state_name[rows[i].c.state]));
    }
    fprintf(out, "%-*s  %-*s  %-*s  %14s  %14s  %8s  %-6s  %s\n", wname, "figure", wwl, "workload",
            wst, "state", "spec", "simulated", "sim/spec", "within", "note");
    for (size_t i = 0; i < n; i++) {
        const struct cal_row *r = &rows[i];
        char spec[48], sim[40];
        fmt_spec(spec, sizeof spec, &r->c);
        fmt_value(sim, sizeof sim, &r->c.spec, r->c.simulated);
        fprintf(out, "%-*s  %-*s  %-*s  %14s  %14s  %8.2f  %-6s  %s\n", wname, r->c.spec.name, wwl,
                r->workload, wst, state_name[r->c.state], spec, sim, r->c.ratio,
                verdict(r), r->note);
    }
    struct cal_counts k = count_rows(rows, n);
    if (k.fitted)
        fprintf(out,
                "\n%zu of %zu independent figures within 10%% of the spec, and %zu fitted "
                "figure%s (a model parameter was set from %s, so %s nothing) (%.1f s wall "
                "time)\n",
                k.within - k.fitted_within, n - k.fitted, k.fitted, k.fitted > 1 ? "s" : "",
                k.fitted > 1 ? "each" : "it", k.fitted > 1 ? "they check" : "it checks", wall);
    else
        fprintf(out, "\n%zu of %zu figures within 10%% of the spec (%.1f s wall time)\n",
                k.within, n, wall);
}

static int write_json(const struct cal_opts *c, const char *name, const char *source,
                      const struct cal_row *rows, size_t n, const GPtrArray *method)
{
    cJSON *root = cJSON_CreateObject();
    cJSON_AddStringToObject(root, "ssdsim_version", ssdsim_version());
    cJSON_AddStringToObject(root, "model", c->so.o.model_path);
    cJSON_AddStringToObject(root, "name", name);
    if (source)
        cJSON_AddStringToObject(root, "source", source);
    else
        cJSON_AddNullToObject(root, "source");
    cJSON *sets = cJSON_AddArrayToObject(root, "sets");
    for (int i = 0; i < c->so.o.n_sets; i++)
        cJSON_AddItemToArray(sets, cJSON_CreateString(c->so.o.sets[i]));
    suite_json_u64(root, "seed", c->so.o.seed);
    suite_json_num(root, "tolerance", TOLERANCE);
    cJSON *figs = cJSON_AddArrayToObject(root, "figures");
    for (size_t i = 0; i < n; i++) {
        const struct cal_row *r = &rows[i];
        const ssdsim_spec_figure *f = &r->c.spec;
        cJSON *o = cJSON_CreateObject();
        cJSON_AddItemToArray(figs, o);
        cJSON_AddStringToObject(o, "name", f->name);
        cJSON_AddStringToObject(o, "metric", f->metric);
        cJSON_AddStringToObject(o, "unit", ssdsim_spec_figure_unit(f));
        cJSON_AddStringToObject(o, "rw", f->rw);
        suite_json_u64(o, "bs", f->bs);
        suite_json_u64(o, "iodepth", f->iodepth);
        suite_json_u64(o, "numjobs", f->numjobs);
        cJSON_AddStringToObject(o, "state", f->state);
        cJSON_AddStringToObject(o, "prepared", state_name[r->c.state]);
        cJSON *wl = cJSON_Parse(r->wl_json);
        if (wl)
            cJSON_AddItemToObject(o, "workload", wl);
        suite_json_num(o, "spec", f->value);
        if (r->c.bound && strcmp(r->c.bound, "typical"))
            cJSON_AddStringToObject(o, "bound", r->c.bound);
        suite_json_num(o, "simulated", r->c.simulated);
        suite_json_num(o, "ratio", r->c.ratio);
        cJSON_AddBoolToObject(o, "within_tolerance", within(r));
        if (r->c.fitted)
            cJSON_AddStringToObject(o, "fitted", r->c.fitted);
        else
            cJSON_AddNullToObject(o, "fitted");
        if (r->note[0])
            cJSON_AddStringToObject(o, "note", r->note);
        else
            cJSON_AddNullToObject(o, "note");
        suite_json_u64(o, "unmapped_reads", r->c.unmapped_reads);
        suite_fig_json(cJSON_AddObjectToObject(o, "measurement"), &r->c.measurement);
    }
    suite_json_u64(root, "n_figures", n);
    struct cal_counts k = count_rows(rows, n);
    suite_json_u64(root, "n_within_tolerance", k.within);
    suite_json_u64(root, "n_fitted", k.fitted);
    suite_json_u64(root, "n_independent_within_tolerance", k.within - k.fitted_within);
    cJSON *m = cJSON_AddArrayToObject(root, "method");
    for (guint i = 0; i < method->len; i++)
        cJSON_AddItemToArray(m, cJSON_CreateString(method->pdata[i]));
    char *text = cJSON_Print(root);
    cJSON_Delete(root);
    if (!text) {
        cli_error("out of memory writing JSON");
        return -1;
    }
    int rc = cli_write_file(c->json_out, text);
    free(text);
    return rc;
}

/* The model's `name`, or `fallback` when it has none (g_free). */
static char *model_name(const ssdsim_model *m, const char *fallback)
{
    char name[256];
    if (ssdsim_model_get_string(m, "name", name, sizeof name, NULL) == 0 && name[0])
        return g_strdup(name);
    return g_strdup(fallback);
}

/* --list: what the model is and what each figure would run. */
static void print_list(FILE *out, const ssdsim_model *m, const char *name)
{
    static const char *const kinds[] = {"solid-state device", "hard disk", "system"};
    ssdsim_model_kind kind = ssdsim_model_get_kind(m);
    fprintf(out, "model: %s (%s", name, kinds[kind]);
    if (kind == SSDSIM_MODEL_SYSTEM)
        fprintf(out, " of %" PRIu32 " devices, %" PRIu32 " volume%s", ssdsim_model_n_devices(m),
                ssdsim_model_n_volumes(m), ssdsim_model_n_volumes(m) == 1 ? "" : "s");
    fprintf(out, "; %.2f GB logical%s)\n", (double)ssdsim_model_logical_bytes(m) / 1e9,
            ssdsim_model_n_volumes(m) > 1 ? " per volume" : "");
    size_t n = ssdsim_model_spec_count(m);
    if (n == 0) {
        fputs("no spec figures\n", out);
        return;
    }
    const char *source = ssdsim_model_spec_source(m);
    if (source)
        fprintf(out, "spec source: %s\n", source);
    for (size_t i = 0; i < n; i++) {
        ssdsim_spec_figure f;
        ssdsim_model_spec_get(m, i, &f);
        char bs[16], v[40];
        ssdsim_suite_wl w = figure_wl(&f, bs, sizeof bs);
        fmt_value(v, sizeof v, &f, f.value);
        g_autofree char *wj = suite_wl_json(&w);
        const char *fit = ssdsim_model_spec_fitted(m, i);
        fprintf(out, "%2zu. %s: %s %s, state %s, workload %s%s%s\n", i + 1, f.name, f.metric, v,
                f.state, wj, fit ? ", fitted: " : "", fit ? fit : "");
    }
}

/* Which figures --figure selects (ssdsim_model_spec_find): SIZE_MAX for all; the count when
 * none matches. */
static size_t select_figure(const ssdsim_model *m, const char *sel)
{
    size_t k;
    if (!sel)
        return SIZE_MAX;
    return ssdsim_model_spec_find(m, sel, &k) ? ssdsim_model_spec_count(m) : k;
}

/* ------------------------------------------------------------------------------------------ */
/* Worker processes                                                                            */

struct cal_pool {
    const struct cal_opts *c;
    const ssdsim_model *model;
    struct cal_row *rows;
    size_t n, n_spec, only, n_done;
    bool failed;
};

static size_t pool_figure(const struct cal_pool *p, size_t i)
{
    return p->only == SIZE_MAX ? i : p->only;
}

/* Longest first: writes to a steady drive, then to a written one, then the rest. */
static double pool_cost(void *ctx, size_t i)
{
    return ssdsim_calibrate_figure_cost(&((const struct cal_pool *)ctx)->rows[i].c.spec);
}

/* The result a worker sends: its figure's calibration, or a failure (the worker printed it). */
struct cal_msg {
    int ok;
    ssdsim_calibration c;
};

static int pool_child(void *ctx, size_t i, int fd)
{
    struct cal_pool *p = ctx;
    /* a signal that came between fork and here was caught by the inherited handler: the
     * figure's progress check cancels it */
    struct cal_row *row = &p->rows[i];
    g_autofree char *what = g_strdup_printf("figure %zu/%zu (%s)", pool_figure(p, i) + 1,
                                            p->n_spec, row->c.spec.name);
    struct cal_msg m;
    memset(&m, 0, sizeof m);
    m.ok = run_figure(p->c, p->model, row, pool_figure(p, i), what) == 0;
    m.c = row->c;
    return cli_pipe_write(fd, &m, sizeof m) && m.ok ? 0 : CLI_EXIT_FAIL;
}

static bool pool_start_failed(void *ctx, size_t i, const char *why)
{
    struct cal_pool *p = ctx;
    cli_error("calibrate: figure %zu: %s", pool_figure(p, i) + 1, why);
    p->failed = true;
    return false;
}

static void pool_done(void *ctx, size_t i, int ws, int fd, double wall_s)
{
    struct cal_pool *p = ctx;
    struct cal_row *row = &p->rows[i];
    (void)wall_s;
    struct cal_msg m;
    if (!cli_pipe_read(fd, &m, sizeof m) || !m.ok) {
        if (!cli_interrupted && WIFSIGNALED(ws))
            cli_error("calibrate: figure %zu: worker killed by signal %d", pool_figure(p, i) + 1,
                      WTERMSIG(ws));
        p->failed = true;
        return;
    }
    /* the figure's strings belong to the model, which the worker shares with us */
    row->c = m.c;
    describe_workload(row);
    row_note(row);
    p->n_done++;
}

/* One failed figure fails the calibration, which prints and writes nothing: the figures still
 * running are ended. */
static bool pool_halt(void *ctx)
{
    return ((const struct cal_pool *)ctx)->failed;
}

int cli_calibrate(int argc, char **argv)
{
    struct cal_opts c;
    int rc = calibrate_parse(argc, argv, &c);
    if (rc >= 0)
        return rc;
    double t0 = cli_wall_s();
    struct suite s = {.opt = &c.so, .seed = c.so.o.seed};
    if (cli_load(&c.so.o, &s.model, NULL))
        return CLI_EXIT_FAIL;
    int bad = c.json_out ? cli_output_check(c.json_out) : 0; /* before the figures run */
    if (bad) {
        ssdsim_model_free(s.model);
        return bad;
    }
    s.model_label = c.so.o.model_path;
    size_t n_spec = ssdsim_model_spec_count(s.model);
    g_autofree char *name = model_name(s.model, c.so.o.model_path);
    if (c.list) {
        if (!c.so.o.quiet)
            print_list(stdout, s.model, name);
        ssdsim_model_free(s.model);
        return 0;
    }
    if (n_spec == 0) {
        cli_error("calibrate: %s has no spec figures to compare against (a `spec` block with "
                  "`figures`; see doc/models.md)",
                  c.so.o.model_path);
        ssdsim_model_free(s.model);
        return CLI_EXIT_FAIL;
    }
    size_t only = select_figure(s.model, c.figure);
    if (only == n_spec) {
        GString *names = g_string_new(NULL);
        for (size_t i = 0; i < n_spec; i++) {
            ssdsim_spec_figure f;
            ssdsim_model_spec_get(s.model, i, &f);
            g_string_append_printf(names, "%s'%s'", i ? ", " : "", f.name);
        }
        cli_error("calibrate: --figure '%s': no such figure (the model has %s)", c.figure,
                  names->str);
        g_string_free(names, TRUE);
        ssdsim_model_free(s.model);
        return CLI_EXIT_USAGE;
    }
    s.shortcuts = g_ptr_array_new_with_free_func(g_free);

    size_t n = only == SIZE_MAX ? n_spec : 1;
    struct cal_row *rows = g_new0(struct cal_row, n);
    rc = 0;
    /* SIGINT and SIGTERM stop the figure under way at its next progress check; the failure
     * it reports on its way out is not shown. Interrupted, calibrate prints and writes
     * nothing: "N of M figures within 10%" over the figures it had would read as a verdict. */
    cli_interrupt_install(false);
    cli_interrupt_mute(true);
    if (c.jobs > 1 && n > 1) {
        for (size_t i = 0; i < n; i++)
            ssdsim_model_spec_get(s.model, only == SIZE_MAX ? i : only, &rows[i].c.spec);
        ssdsim_model_warn(s.model); /* once, here, not from every worker */
        struct cal_pool p = {
            .c = &c, .model = s.model, .rows = rows, .n = n, .n_spec = n_spec, .only = only};
        /* the workers' progress lines would interleave: they show none */
        struct cal_opts quiet = c;
        quiet.so.o.quiet = true;
        p.c = &quiet;
        struct cli_workers w = {.what = "calibrate",
                                .n = n,
                                .jobs = (size_t)c.jobs,
                                .pipe = true,
                                .forward = true,
                                .ctx = &p,
                                .child = pool_child,
                                .done = pool_done,
                                .start_failed = pool_start_failed,
                                .cost = pool_cost,
                                .halt = pool_halt};
        cli_workers_run(&w);
        if (p.failed || p.n_done < n)
            rc = CLI_EXIT_FAIL;
    }
    for (size_t i = 0; i < n && rc == 0 && !cli_interrupted; i++) {
        size_t k = only == SIZE_MAX ? i : only;
        if (!rows[i].note) { /* not run by a worker */
            ssdsim_model_spec_get(s.model, k, &rows[i].c.spec);
            g_autofree char *what =
                g_strdup_printf("figure %zu/%zu (%s)", k + 1, n_spec, rows[i].c.spec.name);
            if (run_figure(&c, s.model, &rows[i], k, what)) {
                rc = CLI_EXIT_FAIL;
                break;
            }
        }
        /* The method's notes, as the suites word them: settling after fast preconditioning,
         * a window run again longer (writes to a drive that is not fresh span GC periods). */
        if (rc == 0 && rows[i].c.state == SSDSIM_DRIVE_STEADY)
            suite_settle_note(&s);
        if (rc == 0)
            suite_window_notes(&s, &rows[i].c.measurement, rows[i].c.gc_cycles, 0);
    }
    cli_interrupt_default();
    cli_interrupt_mute(false);
    if (cli_interrupted) {
        size_t n_done = 0;
        for (size_t i = 0; i < n; i++)
            n_done += rows[i].note != NULL; /* set when a figure completes */
        cli_error("calibrate: interrupted by %s after %zu of %zu figures: nothing written",
                  cli_interrupt_name(), n_done, n);
        rc = cli_interrupt_status();
    }
    if (rc == 0) {
        const char *source = ssdsim_model_spec_source(s.model);
        if (!c.so.o.quiet && c.markdown)
            print_markdown(stdout, &c, name, rows, n);
        else if (!c.so.o.quiet)
            print_text(stdout, &c, name, source, rows, n, cli_wall_s() - t0);
        if (c.json_out && write_json(&c, name, source, rows, n, s.shortcuts))
            rc = CLI_EXIT_FAIL;
    }
    for (size_t i = 0; i < n; i++) {
        g_free(rows[i].wl_json);
        g_free(rows[i].note);
    }
    g_free(rows);
    g_ptr_array_unref(s.shortcuts);
    ssdsim_model_free(s.model);
    return rc;
}
