/* cmd_calibrate.c: `ssdsim calibrate --model M`: run the workload behind each vendor figure of a
 * model's `spec` block and print the simulated figure beside the vendor's, with the ratio.
 *
 * Each figure gets a new simulation (same model, same seed), brought into the figure's state:
 *   fresh   as built (secure-erased);
 *   full    one sequential fill (128 KiB writes at QD32 over the whole capacity);
 *   steady  for uniform random writes, fast preconditioning with the figure's own workload and a
 *           tenth of a drive write of it more (suite_settle); when the model cannot install a
 *           state (a hard disk, media written in place) or the workload is not random writes,
 *           one sequential fill, and the State column says so.
 * The figure's workload (fio options rw, bs, iodepth, numjobs, over the whole device) is then
 * measured as the suites measure a point (suite_measure): a time-based window after a ramp of a
 * tenth of it, rates over the rounds in which requests were issued, and the window run again
 * longer when it held fewer than 5000 requests or 20 per outstanding request (and, for writes to
 * a drive that is not fresh, 20 blocks per plane of host writes: garbage collection periods).
 * The first window is sized from the figure's own value (an expected request rate, never a
 * result): long enough for twice those requests at the vendor's rate, and for its ramp to fill
 * the model's write buffer or disk cache four times over. Its value only sets how long the run
 * is, so a model far from the figure is measured as long as it needs.
 *
 * The table, the Markdown and the JSON depend only on the model, the options and the seed; the
 * wall time goes to the text table's last line only.
 */
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cJSON.h>
#include <glib.h>

#include "cli.h"
#include "suite.h"

#define S_NS 1e9
/* Share of the spec figure a simulated one may miss by and still count as a match. */
#define TOLERANCE 0.10
/* Requests the first window is sized for, at the vendor's rate (suite_measure asks for at least
 * 5000 and 20 per outstanding request; twice that avoids most re-runs). */
#define WINDOW_IOS 10000.0
#define WINDOW_PER_SLOT 40.0
/* Bounds of the first window, simulated seconds. */
#define WINDOW_MIN_S 0.005
#define WINDOW_MAX_S 120.0
/* The ramp (a tenth of the window) fills the buffer this many times at the vendor's rate. */
#define BUFFER_FILLS 4.0

struct cal_opts {
    struct suite_opts so; /* so.o: model_path, sets, seed, quiet */
    const char *json_out;
    const char *figure;
    bool markdown;
    bool list; /* list the figures and their workloads, run nothing */
};

/* One measured figure. */
struct cal_row {
    ssdsim_spec_figure f;
    char workload[64]; /* "randread 4k QD32 x4" */
    char state[32];    /* what was done: "fresh", "full", "steady", "steady (seq fill)" */
    char *wl_json;     /* the fio options as JSON (g_free) */
    char *note;        /* the figure's note and what the run adds (g_free) */
    double simulated;  /* in the metric's unit */
    double ratio;      /* simulated / spec */
    struct suite_fig fig;
    uint64_t unmapped_reads;
};

static void calibrate_help(FILE *f)
{
    fputs("usage: ssdsim calibrate --model FILE|NAME [OPTIONS]\n"
          "\n"
          "Run the workload behind every figure of the model's `spec` block (vendor IOPS, MB/s\n"
          "or latency at the vendor's block size, queue depth and jobs, in the drive state the\n"
          "figure names) and print the simulated figure beside the vendor's, with the ratio\n"
          "simulated / spec and whether it is within 10%. The exit status is 0 whether or not\n"
          "the figures match; see doc/models.md.\n"
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
                     !strcmp(name, "--figure") || !strcmp(name, "--plugin");
        if (!takes) {
            cli_error("calibrate: unknown option '%s' (see ssdsim calibrate --help)", a);
            return CLI_EXIT_USAGE;
        }
        if (!val) {
            if (i + 1 >= argc) {
                cli_error("calibrate: option '%s' needs a value", name);
                return CLI_EXIT_USAGE;
            }
            val = argv[++i];
        }
        if (strcmp(name, "--set") && strcmp(name, "--plugin") && cli_once("calibrate", name, &seen))
            return CLI_EXIT_USAGE; /* --set and --plugin add to a list */
        if (!strcmp(name, "--json")) {
            c->json_out = val;
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
static struct suite_wl figure_wl(const ssdsim_spec_figure *f, char *bs, size_t len)
{
    fmt_bs(bs, len, f->bs);
    return (struct suite_wl){
        .rw = f->rw, .bs = bs, .rwmixread = -1, .threads = f->numjobs, .qd = f->iodepth};
}

static bool is_latency(const ssdsim_spec_figure *f)
{
    return strstr(f->metric, "_lat_us") != NULL;
}

static bool is_read(const ssdsim_spec_figure *f)
{
    return !strncmp(f->metric, "read_", 5);
}

static const char *metric_unit(const ssdsim_spec_figure *f)
{
    return is_latency(f) ? "us" : strstr(f->metric, "_mbps") ? "MB/s" : "IOPS";
}

/* Requests per second the figure stands for, at the vendor's value. */
static double spec_rate(const ssdsim_spec_figure *f)
{
    if (is_latency(f))
        return (double)f->iodepth * f->numjobs / (f->value * 1e-6);
    if (strstr(f->metric, "_mbps"))
        return f->value * 1e6 / f->bs;
    return f->value;
}

/* Bytes the write buffer (SSD) or the disk cache (hard disk) of a device model holds, from the
 * canonical JSON; 0 when it has none. */
static double device_buffer_bytes(const cJSON *root)
{
    const cJSON *b = cJSON_GetObjectItemCaseSensitive(root, "buffer");
    const cJSON *size = b ? cJSON_GetObjectItemCaseSensitive(b, "size") : NULL;
    if (!size) {
        const cJSON *h = cJSON_GetObjectItemCaseSensitive(root, "hdd");
        size = h ? cJSON_GetObjectItemCaseSensitive(h, "cache") : NULL;
    }
    return cJSON_IsNumber(size) ? size->valuedouble : 0;
}

/* Bytes of write buffer or disk cache in the whole model: a system's is its member's times the
 * devices (the canonical JSON names the member file as the loader opened it). Only sizes the
 * ramp, so a member that cannot be read counts as none. */
static double model_buffer_bytes(const ssdsim_model *m)
{
    cJSON *root = cli_model_tree(m);
    double bytes = 0;
    const cJSON *sys = root ? cJSON_GetObjectItemCaseSensitive(root, "system") : NULL;
    const cJSON *mem = sys ? cJSON_GetObjectItemCaseSensitive(sys, "member") : NULL;
    if (!sys) {
        bytes = root ? device_buffer_bytes(root) : 0;
    } else if (cJSON_IsString(mem)) {
        ssdsim_model *member = NULL;
        ssdsim_error err;
        if (ssdsim_model_load_file(&member, mem->valuestring, &err) == 0) {
            cJSON *mr = cli_model_tree(member);
            if (mr)
                bytes = device_buffer_bytes(mr) * ssdsim_model_n_devices(m);
            cJSON_Delete(mr);
            ssdsim_model_free(member);
        }
    }
    cJSON_Delete(root);
    return bytes;
}

/* The first window, ns (see the top of the file). */
static uint64_t first_window_ns(const ssdsim_spec_figure *f, double buffer_bytes)
{
    double rate = spec_rate(f);
    double slots = (double)f->iodepth * f->numjobs;
    double ios = fmax(WINDOW_IOS, WINDOW_PER_SLOT * slots);
    double s = ios / rate;
    if (!is_read(f) && buffer_bytes > 0)
        s = fmax(s, 10.0 * BUFFER_FILLS * buffer_bytes / (rate * f->bs));
    s = fmin(fmax(s, WINDOW_MIN_S), WINDOW_MAX_S);
    return (uint64_t)(s * S_NS);
}

/* Append a sentence to a figure's note, after a full stop. */
static void add_note(GString *note, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void add_note(GString *note, const char *fmt, ...)
{
    if (note->len)
        g_string_append(note, note->str[note->len - 1] == '.' ? " " : ". ");
    va_list ap;
    va_start(ap, fmt);
    g_string_append_vprintf(note, fmt, ap);
    va_end(ap);
}

/* Bring a new simulation into the figure's state; `state` says what was done. 0 or -1. */
static int bring_to_state(struct suite *s, ssdsim *sim, const struct suite_wl *w,
                          const ssdsim_spec_figure *f, char *state, size_t len, GString *note)
{
    if (!strcmp(f->state, "fresh")) {
        snprintf(state, len, "fresh");
        return 0;
    }
    bool random_writes = !strcmp(f->rw, "randwrite");
    if (!strcmp(f->state, "steady") && random_writes) {
        ssdsim_workload *wl = suite_wl_load(w, NULL);
        if (!wl)
            return -1;
        int rc = ssdsim_precondition_fast(sim, wl, NULL);
        ssdsim_workload_free(wl);
        if (rc == 0) {
            snprintf(state, len, "steady");
            return suite_settle(s, sim, w);
        }
        if (rc != SSDSIM_ENOTFOUND && rc != SSDSIM_ECONFIG) {
            cli_error("%s: fast preconditioning: %s", f->name, ssdsim_errmsg(sim));
            return -1;
        }
        /* A hard disk, or media written in place, has no state to install: their steady
         * state is that of a written device. */
        add_note(note, "No fast preconditioning (%s): a sequential fill instead.",
                 ssdsim_errmsg(sim));
        snprintf(state, len, "steady (seq fill)");
    } else if (!strcmp(f->state, "steady")) {
        snprintf(state, len, "steady (seq fill)");
    } else {
        snprintf(state, len, "full");
    }
    if (ssdsim_precondition_seq(sim)) {
        cli_error("%s: sequential fill: %s", f->name, ssdsim_errmsg(sim));
        return -1;
    }
    return 0;
}

/* Run one figure into `row`. 0 or -1 after printing the error. */
static int run_figure(struct suite *s, const ssdsim_model *model, double buffer_bytes,
                      struct cal_row *row, const char *progress)
{
    const ssdsim_spec_figure *f = &row->f;
    char bs[16];
    struct suite_wl w = figure_wl(f, bs, sizeof bs);
    if (f->numjobs > 1)
        snprintf(row->workload, sizeof row->workload, "%s %s QD%" PRIu32 " x%" PRIu32, f->rw, bs,
                 f->iodepth, f->numjobs);
    else
        snprintf(row->workload, sizeof row->workload, "%s %s QD%" PRIu32, f->rw, bs, f->iodepth);
    row->wl_json = suite_wl_json(&w);
    GString *note = g_string_new(f->note ? f->note : "");
    ssdsim *sim = suite_sim_new(s, model);
    if (!sim) {
        g_string_free(note, TRUE);
        return -1;
    }
    struct cli_progress *prog = s->opt->o.quiet ? NULL : cli_progress_new(progress, false);
    ssdsim_set_progress(sim, prog ? cli_progress_cb : NULL, prog);
    int rc = bring_to_state(s, sim, &w, f, row->state, sizeof row->state, note);
    if (rc == 0) {
        uint64_t window = first_window_ns(f, buffer_bytes);
        unsigned gc_cycles = !is_read(f) && strcmp(f->state, "fresh") ? SUITE_GC_CYCLES : 0;
        rc = suite_measure(s, sim, &w, window, false, gc_cycles, &row->fig);
    }
    cli_progress_done(prog);
    if (rc == 0) {
        const struct suite_fig *g = &row->fig;
        bool rd = is_read(f);
        if (is_latency(f))
            row->simulated = (rd ? g->read_lat_mean_ns : g->write_lat_mean_ns) / 1e3;
        else if (strstr(f->metric, "_mbps"))
            row->simulated = g->bw_bytes / 1e6;
        else
            row->simulated = rd ? g->read_iops : g->write_iops;
        row->ratio = row->simulated / f->value;
        ssdsim_device_stats d;
        ssdsim_get_device_stats(sim, &d);
        row->unmapped_reads = d.unmapped_reads;
        if (rd && d.unmapped_reads > 0)
            add_note(note, "%" PRIu64 " reads of never-written data answered without flash.",
                     d.unmapped_reads);
    }
    row->note = g_string_free(note, FALSE);
    ssdsim_free(sim);
    return rc;
}

/* A value in its metric's unit: latencies with one decimal, rates whole. */
static void fmt_value(char *buf, size_t len, const ssdsim_spec_figure *f, double v)
{
    if (is_latency(f))
        snprintf(buf, len, "%.1f us", v);
    else
        snprintf(buf, len, "%.0f %s", v, metric_unit(f));
}

static bool within(const struct cal_row *r)
{
    return fabs(r->ratio - 1.0) <= TOLERANCE + 1e-12;
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
        char spec[40], sim[40];
        fmt_value(spec, sizeof spec, &r->f, r->f.value);
        fmt_value(sim, sizeof sim, &r->f, r->simulated);
        g_string_append(t, "| ");
        md_cell(t, r->f.name);
        g_string_append_printf(t, " | %s | %s | %s | %s | %.2f | %s | ", r->workload, r->state,
                               spec, sim, r->ratio, within(r) ? "yes" : "no");
        md_cell(t, r->note);
        g_string_append(t, " |\n");
    }
    fputs(t->str, out);
    g_string_free(t, TRUE);
}

static void print_text(FILE *out, const char *name, const char *source, const struct cal_row *rows,
                       size_t n, double wall)
{
    fprintf(out, "model: %s\n", name);
    if (source)
        fprintf(out, "spec source: %s\n", source);
    fputc('\n', out);
    int wname = 6, wwl = 8, wst = 5;
    for (size_t i = 0; i < n; i++) {
        wname = (int)fmax(wname, strlen(rows[i].f.name));
        wwl = (int)fmax(wwl, strlen(rows[i].workload));
        wst = (int)fmax(wst, strlen(rows[i].state));
    }
    fprintf(out, "%-*s  %-*s  %-*s  %14s  %14s  %8s  %-6s  %s\n", wname, "figure", wwl, "workload",
            wst, "state", "spec", "simulated", "sim/spec", "within", "note");
    size_t n_ok = 0;
    for (size_t i = 0; i < n; i++) {
        const struct cal_row *r = &rows[i];
        char spec[40], sim[40];
        fmt_value(spec, sizeof spec, &r->f, r->f.value);
        fmt_value(sim, sizeof sim, &r->f, r->simulated);
        n_ok += within(r);
        fprintf(out, "%-*s  %-*s  %-*s  %14s  %14s  %8.2f  %-6s  %s\n", wname, r->f.name, wwl,
                r->workload, wst, r->state, spec, sim, r->ratio, within(r) ? "yes" : "no", r->note);
    }
    fprintf(out, "\n%zu of %zu figures within 10%% of the spec (%.1f s wall time)\n", n_ok, n,
            wall);
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
    size_t n_ok = 0;
    cJSON *figs = cJSON_AddArrayToObject(root, "figures");
    for (size_t i = 0; i < n; i++) {
        const struct cal_row *r = &rows[i];
        const ssdsim_spec_figure *f = &r->f;
        n_ok += within(r);
        cJSON *o = cJSON_CreateObject();
        cJSON_AddItemToArray(figs, o);
        cJSON_AddStringToObject(o, "name", f->name);
        cJSON_AddStringToObject(o, "metric", f->metric);
        cJSON_AddStringToObject(o, "unit", metric_unit(f));
        cJSON_AddStringToObject(o, "rw", f->rw);
        suite_json_u64(o, "bs", f->bs);
        suite_json_u64(o, "iodepth", f->iodepth);
        suite_json_u64(o, "numjobs", f->numjobs);
        cJSON_AddStringToObject(o, "state", f->state);
        cJSON_AddStringToObject(o, "prepared", r->state);
        cJSON *wl = cJSON_Parse(r->wl_json);
        if (wl)
            cJSON_AddItemToObject(o, "workload", wl);
        suite_json_num(o, "spec", f->value);
        suite_json_num(o, "simulated", r->simulated);
        suite_json_num(o, "ratio", r->ratio);
        cJSON_AddBoolToObject(o, "within_tolerance", within(r));
        if (r->note[0])
            cJSON_AddStringToObject(o, "note", r->note);
        else
            cJSON_AddNullToObject(o, "note");
        suite_json_u64(o, "unmapped_reads", r->unmapped_reads);
        suite_fig_json(cJSON_AddObjectToObject(o, "measurement"), &r->fig);
    }
    suite_json_u64(root, "n_figures", n);
    suite_json_u64(root, "n_within_tolerance", n_ok);
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
    cJSON *root = cli_model_tree(m);
    const cJSON *n = root ? cJSON_GetObjectItemCaseSensitive(root, "name") : NULL;
    char *name = g_strdup(cJSON_IsString(n) && n->valuestring[0] ? n->valuestring : fallback);
    cJSON_Delete(root);
    return name;
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
        struct suite_wl w = figure_wl(&f, bs, sizeof bs);
        fmt_value(v, sizeof v, &f, f.value);
        g_autofree char *wj = suite_wl_json(&w);
        fprintf(out, "%2zu. %s: %s %s, state %s, workload %s\n", i + 1, f.name, f.metric, v,
                f.state, wj);
    }
}

/* Which figures --figure selects: its name, or its number from 1. SIZE_MAX for all; `n` when
 * none matches. */
static size_t select_figure(const ssdsim_model *m, const char *sel)
{
    size_t n = ssdsim_model_spec_count(m);
    if (!sel)
        return SIZE_MAX;
    for (size_t i = 0; i < n; i++) {
        ssdsim_spec_figure f;
        if (ssdsim_model_spec_get(m, i, &f) == 0 && !strcmp(f.name, sel))
            return i;
    }
    uint64_t k;
    if (cli_parse_u64(sel, &k) && k >= 1 && k <= n)
        return (size_t)(k - 1);
    return n;
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
    double buffer_bytes = model_buffer_bytes(s.model);

    size_t n = only == SIZE_MAX ? n_spec : 1;
    struct cal_row *rows = g_new0(struct cal_row, n);
    rc = 0;
    for (size_t i = 0; i < n && rc == 0; i++) {
        size_t k = only == SIZE_MAX ? i : only;
        ssdsim_model_spec_get(s.model, k, &rows[i].f);
        g_autofree char *what =
            g_strdup_printf("figure %zu/%zu (%s)", k + 1, n_spec, rows[i].f.name);
        if (run_figure(&s, s.model, buffer_bytes, &rows[i], what))
            rc = CLI_EXIT_FAIL;
    }
    if (rc == 0) {
        const char *source = ssdsim_model_spec_source(s.model);
        if (!c.so.o.quiet && c.markdown)
            print_markdown(stdout, &c, name, rows, n);
        else if (!c.so.o.quiet)
            print_text(stdout, name, source, rows, n, cli_wall_s() - t0);
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
