/* cmd_sweep.c: `ssdsim sweep`, `ssdsim collect` and `ssdsim run --manifest FILE --index K`.
 *
 * A sweep is the cartesian product of its --vary options, the first varying slowest. Each point
 * is described by one manifest line: a JSON object holding everything needed to run it alone
 * (model and workload paths, fixed and varied overrides, the seed derived from the base seed and
 * the point's parameters, options, output path). The in-process sweep generates those very
 * lines and runs each, parsed back, in a worker process (fork, at most --jobs alive), through the
 * same function as `ssdsim run --manifest`; so a point run anywhere gives byte-identical JSON.
 * The table (summary.csv) is built from the JSON files alone, in grid order, by the same code as
 * `ssdsim collect`, so a sweep spread over many machines collects to the same bytes. Plots are a
 * gnuplot script (summary.gp) run when gnuplot is installed.
 *
 * The whole grid is never held in memory: line K is generated when needed from K's mixed-radix
 * digits, so a million-point grid costs its names (kept to catch collisions) and nothing else.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cJSON.h>
#include <glib.h>

#include "cli.h"
#include "plugin_load.h"
#include "table.h"

/* Seeds and other integers in manifests and results stay below 2^53, so that every JSON reader
 * (cJSON, jq, JavaScript, which hold numbers as doubles) reads them exactly. */
#define SEED_LIMIT (UINT64_C(1) << 53)
#define MAX_POINTS 1000000
/* Largest point results file collect reads: a time series at its most (a million rows) stays
 * well below it. */
#define RESULT_MAX_BYTES (INT64_C(1) << 30)
#define RESULT_MAX_TEXT "1 GiB (a point's results, time series included, are far smaller)"

/* ------------------------------------------------------------------------------------------ */
/* The sweep's command line                                                                    */

struct sweep {
    struct cli_run_opts o; /* model, workload, --set, seed, precondition, intervals, quiet */
    ssdsim_point_grid *grid; /* the --vary keys and values (ssdsim/point.h) */
    int n_varies;
    uint64_t n_points;
    uint64_t jobs;
    const char *out_dir;
    const char *emit;
    bool no_plot;
    bool force; /* --force: run points whose complete results are there already */
    /* Filled once the command line is checked: */
    char *model_abs;    /* absolute model path, or the name as given, or NULL (built-in) */
    char *workload_abs; /* absolute workload path */
    char *dir_abs;      /* absolute results directory */
};

static void sweep_free(struct sweep *s)
{
    ssdsim_point_grid_free(s->grid);
    g_free(s->model_abs);
    g_free(s->workload_abs);
    g_free(s->dir_abs);
}

static void sweep_help(FILE *f)
{
    fprintf(f,
            "usage: ssdsim sweep [--model FILE] --workload FILE --vary KEY=V1,V2,... [--vary ...]\n"
            "                    --out DIR [OPTIONS]\n"
            "\n"
            "Run every combination of the --vary values (the first --vary varies slowest), each\n"
            "point in its own worker process, and write into DIR:\n"
            "  NAME.json     one per point: the results of `ssdsim run --json` with a \"point\"\n"
            "                object first (index, name, parameters, base seed, manifest\n"
            "                hash); NAME is the parameters made file-safe, KEY-VALUE\n"
            "                joined by __\n"
            "                (ftl.op-0.07__workload.iodepth-32.json)\n"
            "  summary.csv   one row per point in grid order: the varied parameters, seed, waf,\n"
            "                all_iops, write_iops, read_iops, all_lat_mean_ns, all_lat_p99_ns,\n"
            "                all_lat_max_ns, gc_pages_copied, blocks_erased, op, spare_factor,\n"
            "                logical_bytes\n"
            "  summary.gp    a gnuplot script; when gnuplot is installed it is run and makes\n"
            "                waf.png and iops.png (against the first numeric varied key, one line\n"
            "                per value of the others)\n"
            "Each point's seed derives from --seed and the point's parameters, so a point run\n"
            "alone (ssdsim run --manifest) gives the same bytes. Run again, a sweep skips the\n"
            "points whose complete results are in DIR (--force); SIGINT or SIGTERM stops the\n"
            "workers, which write their results so far marked \"interrupted\". See\n"
            "doc/guide.md, \"Sweeps\". An option that takes one value may be given once; --vary,\n"
            "--set and --plugin may repeat.\n"
            "\n"
            "Options:\n"
            "  --vary KEY=V1,V2,...   the values of one model key (a dotted path, as --set) or,\n"
            "                         with the prefix workload., of a workload option\n"
            "                         (--vary ftl.op=0.07,0.28 --vary workload.iodepth=1,32);\n"
            "                         a value may be JSON with commas inside [] or {}\n"
            "  --model FILE|NAME      device model (default: the built-in generic MLC model)\n"
            "  --plugin FILE.so       load a plugin module (repeatable; doc/plugins.md); the\n"
            "                         manifest names it, so every point loads it too\n"
            "  --workload FILE        workload (JSON object of fio options); required\n"
            "  --set KEY=VALUE        a fixed override for every point, as for `ssdsim run`\n"
            "                         (workload.OPTION=VALUE for a workload option)\n"
            "  --seed N               base seed, an integer below 2^53 (default 1)\n"
            "  --precondition MODE    seq, seq:N or fast before each point's workload (see\n"
            "                         ssdsim run --help)\n"
            "  --precondition-method functional|timed\n"
            "                         how (see ssdsim run --help; default functional)\n"
            "  --interval DURATION    time series in each point's JSON, by simulated time\n"
            "  --interval-ios N       time series in each point's JSON, by completed I/Os\n"
            "  --out DIR              results directory, created if missing; required\n"
            "  --jobs N               worker processes (default: the online CPUs, here %u)\n"
            "  --emit FILE            write the manifest, one JSON line per point (- for\n"
            "                         standard output), and run nothing; then run point K with\n"
            "                         `ssdsim run --manifest FILE --index K` (by hand, GNU\n"
            "                         parallel, a Slurm job array) and build the table with\n"
            "                         `ssdsim collect DIR`\n"
            "  --no-plot              do not run gnuplot (summary.gp is still written)\n"
            "  --force                run every point, also those whose complete results are\n"
            "                         in DIR already (by default, a sweep run again skips them:\n"
            "                         same manifest line, not interrupted)\n"
            "  --quiet                print nothing but errors\n"
            "  --help                 this help\n",
            g_get_num_processors());
}

/* The key of "KEY=VALUE" (up to the '='), as a new string. */
static char *key_of(const char *kv)
{
    const char *eq = strchr(kv, '=');
    return g_strndup(kv, eq ? (gsize)(eq - kv) : strlen(kv));
}

static int add_vary(struct sweep *s, const char *arg)
{
    const char *eq = strchr(arg, '=');
    if (!eq || eq == arg || !eq[1]) {
        cli_error("sweep: --vary expects KEY=V1,V2,..., got '%s'", arg);
        return CLI_EXIT_USAGE;
    }
    if (s->n_varies == CLI_MAX_SETS) {
        cli_error("sweep: more than %d --vary options", CLI_MAX_SETS);
        return CLI_EXIT_USAGE;
    }
    g_autofree char *key = g_strndup(arg, (gsize)(eq - arg));
    ssdsim_error err;
    int rc = ssdsim_point_grid_add(s->grid, key, eq + 1, &err);
    if (rc == SSDSIM_ESTATE)
        cli_error("sweep: --vary %s is given twice (list all its values in one --vary)", key);
    else if (rc == SSDSIM_ERANGE)
        cli_error("sweep: the grid has more than %d points", MAX_POINTS);
    else if (rc)
        cli_error("sweep: --vary %s", err.message);
    if (rc)
        return CLI_EXIT_USAGE;
    s->n_varies++;
    return 0;
}

/* Returns -1 to continue, or an exit code. */
static int sweep_parse(int argc, char **argv, struct sweep *s)
{
    memset(s, 0, sizeof *s);
    if (ssdsim_point_grid_new(&s->grid)) {
        cli_error("out of memory");
        return CLI_EXIT_FAIL;
    }
    s->o.seed = 1;
    s->jobs = g_get_num_processors();
    struct cli_seen seen = {0};
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *val;
        char name[64];
        cli_split_option(a, name, sizeof name, &val);
        if (!strcmp(name, "--help") || !strcmp(name, "-h")) {
            sweep_help(stdout);
            return 0;
        }
        if (!strcmp(name, "--quiet") || !strcmp(name, "-q")) {
            s->o.quiet = true;
            cli_quiet_notes(); /* as --quiet does elsewhere: the workers inherit it */
            continue;
        }
        if (!strcmp(name, "--no-plot")) {
            s->no_plot = true;
            continue;
        }
        if (!strcmp(name, "--force")) {
            s->force = true;
            continue;
        }
        bool common = cli_common_option_takes_value(name);
        if (!common && strcmp(name, "--vary") && strcmp(name, "--jobs") && strcmp(name, "--out") &&
            strcmp(name, "--emit")) {
            cli_error("sweep: unknown option '%s' (see ssdsim sweep --help)", a);
            return CLI_EXIT_USAGE;
        }
        if (cli_option_value("sweep", name, argc, argv, &i, &val))
            return CLI_EXIT_USAGE;
        /* --set, --vary and --plugin add to a list; every other option takes one value. */
        if (strcmp(name, "--set") && strcmp(name, "--vary") && strcmp(name, "--plugin") &&
            cli_once("sweep", name, &seen))
            return CLI_EXIT_USAGE;
        int rc = 0;
        if (common) {
            rc = cli_common_option("sweep", name, val, &s->o);
        } else if (!strcmp(name, "--vary")) {
            rc = add_vary(s, val);
        } else if (!strcmp(name, "--jobs")) {
            if (!cli_parse_u64(val, &s->jobs) || s->jobs == 0 || s->jobs > 4096) {
                cli_error("sweep: --jobs expects an integer from 1 to 4096, got '%s'", val);
                rc = CLI_EXIT_USAGE;
            }
        } else if (!strcmp(name, "--out")) {
            s->out_dir = val;
        } else if (!strcmp(name, "--emit")) {
            s->emit = val;
        }
        if (rc)
            return rc;
    }
    if (s->o.interval_ns && s->o.interval_ios) {
        cli_error("sweep: give --interval or --interval-ios, not both");
        return CLI_EXIT_USAGE;
    }
    if (s->o.interval_ns >= SEED_LIMIT || s->o.interval_ios >= SEED_LIMIT) {
        cli_error("sweep: the time-series interval must be below 2^53 (ns or I/Os)");
        return CLI_EXIT_USAGE;
    }
    if (s->o.seed >= SEED_LIMIT) {
        cli_error("sweep: --seed must be below 2^53 (9007199254740992), got %" PRIu64, s->o.seed);
        return CLI_EXIT_USAGE;
    }
    if (!s->o.workload_path) {
        cli_error("sweep: --workload FILE is required (see ssdsim sweep --help)");
        return CLI_EXIT_USAGE;
    }
    if (!s->out_dir || !*s->out_dir) {
        cli_error("sweep: --out DIR is required (see ssdsim sweep --help)");
        return CLI_EXIT_USAGE;
    }
    if (s->n_varies == 0) {
        cli_error("sweep: give at least one --vary KEY=V1,V2,... (see ssdsim sweep --help)");
        return CLI_EXIT_USAGE;
    }
    for (int i = 0; i < s->o.n_sets; i++) {
        g_autofree char *key = key_of(s->o.sets[i]);
        for (int j = 0; j < s->n_varies; j++) {
            if (!strcmp(key, ssdsim_point_grid_key(s->grid, (size_t)j))) {
                cli_error("sweep: %s is given both as --set and as --vary", key);
                return CLI_EXIT_USAGE;
            }
        }
    }
    s->n_points = ssdsim_point_grid_n_points(s->grid);
    if (s->n_points > MAX_POINTS) {
        cli_error("sweep: the grid has more than %d points", MAX_POINTS);
        return CLI_EXIT_USAGE;
    }
    return -1;
}

/* ------------------------------------------------------------------------------------------ */
/* Points and manifest lines (the format is the library's: ssdsim_point_line_*)              */

static int cmp_str_ptr(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Read an integer field of a results file in [0, 2^53]. */
static bool get_u64(const cJSON *o, const char *key, uint64_t *out)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
    *out = 0;
    if (!cJSON_IsNumber(v) || !(v->valuedouble >= 0) || v->valuedouble > (double)SEED_LIMIT ||
        v->valuedouble != floor(v->valuedouble))
        return false;
    *out = (uint64_t)v->valuedouble;
    return true;
}

static void out_of_memory(void)
{
    fputs("ssdsim: out of memory\n", stderr);
    exit(CLI_EXIT_FAIL);
}

/* The preconditioning method the sweep's points take: --precondition-method sets it in the
 * environment (cli_parse_run_option), where a user may have set it too; NULL: functional. */
static const char *sweep_method(void)
{
    const char *m = getenv("SSDSIM_PRECONDITION_METHOD");
    return m && !strcmp(m, "timed") ? m : NULL;
}

/* Manifest line K of the sweep (one line of JSON, no newline; free() it). */
static char *sweep_line(const struct sweep *s, uint64_t index)
{
    const char *keys[CLI_MAX_SETS], *values[CLI_MAX_SETS];
    char *kvs[CLI_MAX_SETS];
    ssdsim_point_grid_values(s->grid, index, values);
    for (int i = 0; i < s->n_varies; i++) {
        keys[i] = ssdsim_point_grid_key(s->grid, (size_t)i);
        kvs[i] = g_strconcat(keys[i], "=", values[i], NULL);
    }
    ssdsim_point_line_spec sp = SSDSIM_POINT_LINE_SPEC_INIT;
    ssdsim_point_seed(s->o.seed, (const char *const *)kvs, (size_t)s->n_varies, &sp.seed);
    for (int i = 0; i < s->n_varies; i++)
        g_free(kvs[i]);
    char *name = ssdsim_point_name(keys, values, (size_t)s->n_varies);
    if (!name)
        out_of_memory();
    g_autofree char *out = g_strdup_printf("%s/%s.json", s->dir_abs, name);
    sp.index = index;
    sp.n_points = s->n_points;
    sp.name = name;
    sp.model = s->model_abs;
    sp.workload = s->workload_abs;
    sp.set = s->o.sets;
    sp.n_set = (size_t)s->o.n_sets;
    sp.vary_keys = keys;
    sp.vary_values = values;
    sp.n_vary = (size_t)s->n_varies;
    sp.base_seed = s->o.seed;
    sp.precondition = s->o.precondition;
    sp.precondition_method = sweep_method();
    sp.interval_ns = s->o.interval_ns;
    sp.interval_ios = s->o.interval_ios;
    sp.plugins = cli_plugin_given(&sp.n_plugins); /* every point loads them */
    sp.out = out;
    char *text = NULL;
    int rc = ssdsim_point_line_format(&text, &sp);
    free(name);
    if (rc)
        out_of_memory();
    return text;
}

/* Line K of the sweep, parsed back: what its worker runs. NULL after printing the error. */
static ssdsim_point_line *sweep_point(const struct sweep *s, uint64_t k)
{
    char *line = sweep_line(s, k);
    ssdsim_point_line *p = NULL;
    ssdsim_error err;
    if (ssdsim_point_line_parse(&p, line, &err))
        cli_error("<sweep>:%" PRIu64 ": %s", k + 1, err.message);
    free(line);
    return p;
}

/* What the line of `p` says. */
static ssdsim_point_line_spec point_spec(const ssdsim_point_line *p)
{
    ssdsim_point_line_spec sp = SSDSIM_POINT_LINE_SPEC_INIT;
    ssdsim_point_line_get(p, &sp);
    return sp;
}

/* Run point `p`: what a sweep's worker and `ssdsim run --manifest` do. Returns an exit code. */
static int point_run(const ssdsim_point_line *p, const char *json_out, const char *csv_out,
                     bool quiet)
{
    ssdsim_point_line_spec sp = point_spec(p);
    const char *label = ssdsim_point_line_label(p);
    g_autofree char *context = g_strdup_printf("point %" PRIu64 " (%s): ", sp.index, label);
    cli_set_error_context(context);
    /* the options of the run: the line's, its "point" object first in the results */
    ssdsim_point_opts pt;
    ssdsim_point_line_opts(p, &pt);
    struct cli_run_opts o;
    memset(&o, 0, sizeof o);
    o.model_path = sp.model;
    o.workload_path = sp.workload;
    for (size_t i = 0; i < pt.n_set; i++)
        o.sets[o.n_sets++] = pt.set[i];
    for (size_t i = 0; i < pt.n_vary; i++)
        o.varies[o.n_varies++] = pt.vary[i];
    o.seed = sp.seed;
    o.seed_given = true;
    if (sp.precondition)
        cli_parse_precondition("manifest", sp.precondition, &o);
    /* The line's method, whatever the environment says (ssdsim_new reads it there): `run
     * --manifest` runs a point as its sweep did. */
    const char *method = sp.precondition_method ? sp.precondition_method : "functional";
    const char *env = getenv("SSDSIM_PRECONDITION_METHOD");
    if (strcmp(env && *env ? env : "functional", method))
        setenv("SSDSIM_PRECONDITION_METHOD", method, 1);
    o.interval_ns = sp.interval_ns;
    o.interval_ios = sp.interval_ios;
    char *member = ssdsim_point_line_results_member(p);
    o.json_point = member;
    o.json_out = json_out ? json_out : sp.out;
    o.quiet = quiet;
    o.csv_out = csv_out;
    int rc = CLI_EXIT_FAIL;
    g_autofree char *dir = g_path_get_dirname(sp.out);
    if (!member) {
        cli_error("out of memory");
    } else if (!json_out && g_mkdir_with_parents(dir, 0777) != 0) {
        cli_error("%s: cannot create directory: %s", dir, strerror(errno));
    } else {
        ssdsim_model *model;
        ssdsim_workload *wl;
        if (cli_load(&o, &model, &wl) == 0) {
            g_autofree char *desc = g_strdup_printf("%s (point %" PRIu64 " of %" PRIu64 ": %s)",
                                                    sp.workload, sp.index, sp.n_points, label);
            rc = cli_execute(&o, model, wl, desc);
            ssdsim_workload_free(wl);
            ssdsim_model_free(model);
        }
    }
    free(member);
    cli_set_error_context(NULL);
    return rc;
}

/* Read a point's results file into *text (NUL-terminated, the caller's to g_free). Returns NULL,
 * or why not. Only a regular file of at most RESULT_MAX_BYTES is read: a FIFO named NAME.json
 * (opened without blocking) or a link to /dev/zero in a results directory would otherwise block
 * collect for ever or fill the memory. */
static const char *read_result(const char *path, char **text)
{
    static char why[160];
    *text = NULL;
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    struct stat st;
    if (fd < 0 || fstat(fd, &st)) {
        snprintf(why, sizeof why, "%s", strerror(errno));
        if (fd >= 0)
            close(fd);
        return why;
    }
    if (!S_ISREG(st.st_mode) || st.st_size > RESULT_MAX_BYTES) {
        close(fd);
        return !S_ISREG(st.st_mode) ? "not a regular file (a point's results are a JSON file)"
                                    : "larger than " RESULT_MAX_TEXT;
    }
    /* One byte more than the size says, to see a file that grew meanwhile. */
    size_t cap = (size_t)st.st_size + 2, n = 0;
    char *buf = g_malloc(cap);
    ssize_t got;
    while (n < cap - 1 && (got = read(fd, buf + n, cap - 1 - n)) != 0) {
        if (got < 0 && errno == EINTR)
            continue;
        if (got < 0) {
            snprintf(why, sizeof why, "%s", strerror(errno));
            close(fd);
            g_free(buf);
            return why;
        }
        n += (size_t)got;
    }
    close(fd);
    if (n > RESULT_MAX_BYTES) {
        g_free(buf);
        return "larger than " RESULT_MAX_TEXT;
    }
    buf[n] = '\0';
    *text = buf;
    return NULL;
}

/* Whether the point's output holds its complete results (ssdsim_point_line_complete). A
 * resumed sweep (and `run --manifest` without --json) skips such a point unless --force. */
static bool point_complete(const ssdsim_point_line *p)
{
    g_autofree char *text = NULL;
    return !read_result(point_spec(p).out, &text) && ssdsim_point_line_complete(p, text);
}

int cli_manifest_run(const char *manifest, uint64_t index, const char *json_out,
                     const char *csv_out, bool quiet, bool force)
{
    cli_input_add(manifest);
    ssdsim_point_line *p = NULL;
    ssdsim_error err;
    if (ssdsim_point_line_read(&p, manifest, index, &err)) {
        cli_error("%s", err.message);
        return CLI_EXIT_FAIL;
    }
    ssdsim_point_line_spec sp = point_spec(p);
    int rc = 0;
    /* a module the line names that cannot be loaded is named with the line: MANIFEST:LINE: */
    g_autofree char *where = g_strdup_printf("%s:%" PRIu64 ": ", manifest, index + 1);
    cli_set_error_context(where);
    for (size_t i = 0; i < sp.n_plugins && rc == 0; i++)
        if (cli_plugin_load(sp.plugins[i], 1))
            rc = CLI_EXIT_FAIL;
    cli_set_error_context(NULL);
    if (rc) {
        /* the plugin loader said why */
    } else if (csv_out && !sp.interval_ns && !sp.interval_ios) {
        cli_error("run: --timeseries needs a time series: the manifest was made without "
                  "--interval or --interval-ios");
        rc = CLI_EXIT_USAGE;
    } else if (!json_out && !csv_out && !force && point_complete(p)) {
        /* As a sweep run again does: a job array resubmitted after a cancel redoes only the
         * points without complete results. */
        if (!quiet)
            printf("point %" PRIu64 " (%s): complete results in %s already: skipped (--force "
                   "runs it again)\n",
                   sp.index, ssdsim_point_line_label(p), sp.out);
    } else {
        rc = point_run(p, json_out, csv_out, quiet);
    }
    ssdsim_point_line_free(p);
    return rc;
}

/* ------------------------------------------------------------------------------------------ */
/* The table: summary.csv and summary.gp from the points' JSON                                */

/* The columns after the parameters, with where each comes from in the results JSON. */
static const struct figure {
    const char *column;
    const char *path[5];
} figures[] = {
    {"seed", {"seed"}},
    {"waf", {"device", "waf"}},
    {"all_iops", {"ops", "all", "iops"}},
    {"write_iops", {"ops", "write", "iops"}},
    {"read_iops", {"ops", "read", "iops"}},
    {"all_lat_mean_ns", {"ops", "all", "lat_ns", "mean"}},
    {"all_lat_p99_ns", {"ops", "all", "lat_ns", "p99"}},
    {"all_lat_max_ns", {"ops", "all", "lat_ns", "max"}},
    {"gc_pages_copied", {"device", "gc_pages_copied"}},
    {"blocks_erased", {"device", "blocks_erased"}},
    {"op", {"device", "op"}},
    {"spare_factor", {"device", "spare_factor"}},
    {"logical_bytes", {"device", "logical_bytes"}},
};
#define N_FIGURES (sizeof figures / sizeof figures[0])
enum { FIG_WAF = 1, FIG_IOPS = 2 };

/* One point's line of the table. */
struct row {
    uint64_t index, n_points, base_seed;
    char *file; /* base name, for messages */
    GPtrArray *keys, *values;
    bool has[N_FIGURES];
    double fig[N_FIGURES];
};

static void row_free(void *data)
{
    struct row *r = data;
    if (!r)
        return;
    g_free(r->file);
    if (r->keys)
        g_ptr_array_unref(r->keys);
    if (r->values)
        g_ptr_array_unref(r->values);
    g_free(r);
}

/* Read a point's results file. Returns 0 with *out set, 0 with *out NULL when the file is JSON
 * but not a sweep point (no "point" object: skipped by collect), 1 with *out NULL after saying
 * so when it holds the partial results of an interrupted run (left out of the table), or -1
 * after printing the error. */
static int row_read(const char *path, struct row **out)
{
    *out = NULL;
    g_autofree char *text = NULL;
    const char *why = read_result(path, &text);
    if (why) {
        cli_error("%s: cannot read: %s", path, why);
        return -1;
    }
    cJSON *root = cJSON_Parse(text);
    if (!root) {
        cli_error("%s: not valid JSON", path);
        return -1;
    }
    const cJSON *pt = cJSON_GetObjectItemCaseSensitive(root, "point");
    if (!cJSON_IsObject(pt)) {
        cJSON_Delete(root);
        return 0;
    }
    if (cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(root, "interrupted"))) {
        cli_error("%s: the partial results of an interrupted run (\"interrupted\": true), left "
                  "out of the table: run the point again",
                  path);
        cJSON_Delete(root);
        return 1;
    }
    struct row *r = g_new0(struct row, 1);
    r->file = g_path_get_basename(path);
    r->keys = g_ptr_array_new_with_free_func(g_free);
    r->values = g_ptr_array_new_with_free_func(g_free);
    const cJSON *params = cJSON_GetObjectItemCaseSensitive(pt, "params");
    bool ok = get_u64(pt, "index", &r->index) && get_u64(pt, "n_points", &r->n_points) &&
              r->index < r->n_points && get_u64(pt, "base_seed", &r->base_seed) &&
              cJSON_IsObject(params) && cJSON_GetArraySize(params) > 0;
    const cJSON *e;
    if (ok) {
        cJSON_ArrayForEach(e, params)
        {
            if (!cJSON_IsString(e)) {
                ok = false;
                break;
            }
            g_ptr_array_add(r->keys, g_strdup(e->string));
            g_ptr_array_add(r->values, g_strdup(e->valuestring));
        }
    }
    if (!ok) {
        cli_error("%s: its \"point\" object is not one ssdsim sweep writes", path);
        cJSON_Delete(root);
        row_free(r);
        return -1;
    }
    for (size_t i = 0; i < N_FIGURES; i++) {
        const cJSON *v = root;
        for (int k = 0; figures[i].path[k] && v; k++)
            v = cJSON_GetObjectItemCaseSensitive(v, figures[i].path[k]);
        if (cJSON_IsNumber(v)) {
            r->has[i] = true;
            r->fig[i] = v->valuedouble;
        }
    }
    cJSON_Delete(root);
    *out = r;
    return 0;
}

/* A number as the shortest text that reads back as the same double: integers (below 2^53) in
 * full, others with 15 significant digits when that round-trips, else 17. */
static void fmt_num(char *buf, size_t len, double v)
{
    if (v == floor(v) && fabs(v) < 9007199254740992.0) {
        snprintf(buf, len, "%.0f", v == 0 ? 0.0 : v);
        return;
    }
    snprintf(buf, len, "%.15g", v);
    if (strtod(buf, NULL) != v)
        snprintf(buf, len, "%.17g", v);
}

static char *table_csv(const GPtrArray *rows)
{
    const struct row *first = rows->pdata[0];
    GString *s = g_string_new(NULL);
    for (guint k = 0; k < first->keys->len; k++) {
        cli_csv_field(s, first->keys->pdata[k]);
        g_string_append_c(s, ',');
    }
    for (size_t i = 0; i < N_FIGURES; i++)
        g_string_append_printf(s, "%s%s", figures[i].column, i + 1 < N_FIGURES ? "," : "\n");
    for (guint j = 0; j < rows->len; j++) {
        const struct row *r = rows->pdata[j];
        for (guint k = 0; k < r->values->len; k++) {
            cli_csv_field(s, r->values->pdata[k]);
            g_string_append_c(s, ',');
        }
        for (size_t i = 0; i < N_FIGURES; i++) {
            char num[40] = "";
            if (r->has[i])
                fmt_num(num, sizeof num, r->fig[i]);
            g_string_append_printf(s, "%s%s", num, i + 1 < N_FIGURES ? "," : "\n");
        }
    }
    return g_string_free(s, FALSE);
}

static bool is_number(const char *v, double *out)
{
    char *end;
    errno = 0;
    double d = strtod(v, &end);
    if (end == v || *end || errno || !isfinite(d))
        return false;
    *out = d;
    return true;
}

/* A string for gnuplot between single quotes (cli_gnuplot_quote, plot.c). */
static void gp_string(GString *s, const char *v)
{
    g_autofree char *q = cli_gnuplot_quote(v);
    g_string_append(s, q);
}

struct plot_pt {
    double x;
    uint64_t index;
    const struct row *r;
    const char *xlabel;
};

static int cmp_plot_pt(const void *a, const void *b)
{
    const struct plot_pt *p = a, *q = b;
    if (p->x != q->x)
        return p->x < q->x ? -1 : 1;
    return p->index < q->index ? -1 : p->index > q->index;
}

/* The gnuplot script: WAF and IOPS against the first varied key whose values are all numbers
 * (or, when none is, against the first key's values as categories), one line per combination
 * of the other keys, the data inline so the script stands alone. */
static char *table_plot(const GPtrArray *rows)
{
    const struct row *first = rows->pdata[0];
    guint n_keys = first->keys->len;
    guint xk = 0;
    bool numeric = false;
    for (guint k = 0; k < n_keys && !numeric; k++) {
        numeric = true;
        for (guint j = 0; j < rows->len && numeric; j++) {
            double d;
            numeric = is_number(((const struct row *)rows->pdata[j])->values->pdata[k], &d);
        }
        if (numeric)
            xk = k;
    }
    /* Group the rows by the values of the other keys, in order of first appearance. Hash
     * lookups only; the output follows the groups array. */
    GPtrArray *labels = g_ptr_array_new_with_free_func(g_free);
    GPtrArray *groups = g_ptr_array_new_with_free_func((GDestroyNotify)g_array_unref);
    GHashTable *by_label = g_hash_table_new(g_str_hash, g_str_equal);
    GPtrArray *categories = g_ptr_array_new(); /* numeric == false: distinct x values */
    for (guint j = 0; j < rows->len; j++) {
        const struct row *r = rows->pdata[j];
        GString *l = g_string_new(NULL);
        for (guint k = 0; k < n_keys; k++)
            if (k != xk)
                g_string_append_printf(l, "%s%s=%s", l->len ? ", " : "", (char *)r->keys->pdata[k],
                                       (char *)r->values->pdata[k]);
        gpointer gi;
        GArray *g;
        if (g_hash_table_lookup_extended(by_label, l->str, NULL, &gi)) {
            g = groups->pdata[GPOINTER_TO_UINT(gi)];
            g_string_free(l, TRUE);
        } else {
            g = g_array_new(FALSE, FALSE, sizeof(struct plot_pt));
            g_hash_table_insert(by_label, l->str, GUINT_TO_POINTER(groups->len));
            g_ptr_array_add(groups, g);
            g_ptr_array_add(labels, g_string_free(l, FALSE));
        }
        struct plot_pt pt = {.index = r->index, .r = r, .xlabel = r->values->pdata[xk]};
        if (numeric) {
            is_number(pt.xlabel, &pt.x);
        } else {
            guint c = 0;
            while (c < categories->len && strcmp(categories->pdata[c], pt.xlabel))
                c++;
            if (c == categories->len)
                g_ptr_array_add(categories, (gpointer)pt.xlabel);
            pt.x = c;
        }
        g_array_append_val(g, pt);
    }

    GString *s = g_string_new(NULL);
    g_string_append(s, "# summary.gp: plots of an ssdsim sweep, written by `ssdsim sweep` and "
                       "`ssdsim collect`\n# with summary.csv. Run it in this directory: "
                       "gnuplot summary.gp (writes waf.png and iops.png).\n");
    g_autofree char *preamble = cli_gnuplot_preamble(900, 600);
    g_string_append(s, preamble);
    g_string_append(s, "set datafile missing '?'\n"
                       "set grid\n"
                       "set key outside right top\n");
    for (guint gi = 0; gi < groups->len; gi++) {
        GArray *g = groups->pdata[gi];
        qsort(g->data, g->len, sizeof(struct plot_pt), cmp_plot_pt);
        g_string_append_printf(s, "$d%u << EOD\n", gi);
        for (guint i = 0; i < g->len; i++) {
            const struct plot_pt *pt = &g_array_index(g, struct plot_pt, i);
            char x[40], waf[40] = "?", iops[40] = "?";
            fmt_num(x, sizeof x, pt->x);
            if (pt->r->has[FIG_WAF])
                fmt_num(waf, sizeof waf, pt->r->fig[FIG_WAF]);
            if (pt->r->has[FIG_IOPS])
                fmt_num(iops, sizeof iops, pt->r->fig[FIG_IOPS]);
            g_string_append_printf(s, "%s %s %s", x, waf, iops);
            if (!numeric) {
                g_string_append(s, " \"");
                for (const char *c = pt->xlabel; *c; c++)
                    g_string_append_c(s, *c == '"' ? '\'' : *c);
                g_string_append_c(s, '"');
            }
            g_string_append_c(s, '\n');
        }
        g_string_append(s, "EOD\n");
    }
    g_string_append(s, "set xlabel ");
    gp_string(s, first->keys->pdata[xk]);
    g_string_append_c(s, '\n');
    /* Room around the outer points, which would otherwise sit on the frame. */
    g_string_append(s, numeric ? "set offsets graph 0.05, graph 0.05, graph 0.05, graph 0.05\n"
                               : "set offsets 0.5, 0.5, graph 0.05, graph 0.05\n");
    static const char *const what[2][4] = {
        {"waf.png", "Write amplification", "write amplification (device.waf)", "2"},
        {"iops.png", "IOPS", "IOPS (ops.all.iops, whole measured run)", "3"}};
    for (int w = 0; w < 2; w++) {
        g_string_append_printf(s, "set output '%s'\nset title ", what[w][0]);
        g_autofree char *title =
            g_strdup_printf("%s by %s", what[w][1], (char *)first->keys->pdata[xk]);
        gp_string(s, title);
        g_string_append(s, "\nset ylabel ");
        gp_string(s, what[w][2]);
        g_string_append(s, "\nplot ");
        for (guint gi = 0; gi < groups->len; gi++) {
            g_string_append_printf(s, "%s$d%u using 1:%s%s with linespoints ",
                                   gi ? ", \\\n     " : "", gi, what[w][3],
                                   numeric ? "" : ":xtic(4)");
            const char *label = labels->pdata[gi];
            if (*label) {
                g_string_append(s, "title ");
                gp_string(s, label);
            } else {
                g_string_append(s, "notitle");
            }
        }
        g_string_append_c(s, '\n');
    }
    g_string_append(s, "unset output\n");
    g_hash_table_destroy(by_label);
    g_ptr_array_unref(groups);
    g_ptr_array_unref(labels);
    g_ptr_array_unref(categories);
    return g_string_free(s, FALSE);
}

/* Run summary.gp in `dir` when gnuplot is on PATH (cli_gnuplot_run, plot.c). Says what
 * happened unless quiet; a gnuplot failure is a warning (the table, the point of the sweep, is
 * already written). */
static void run_gnuplot(const char *dir, bool quiet)
{
    if (cli_gnuplot_run(dir, "summary.gp", quiet) == 0 && !quiet)
        printf("plots: %s/waf.png, %s/iops.png\n", dir, dir);
}

/* Write DIR/summary.csv and DIR/summary.gp from `rows` (in grid order, at least one) and run
 * gnuplot. Every row must have the same parameters. Returns 0, or CLI_EXIT_FAIL after printing
 * the error. */
/* ------------------------------------------------------------------------------------------ */
/* Whether points come from one grid                                                          */

/* Points of two sweeps over the same keys and number of points (--vary ftl.op=0.2,0.3 --vary
 * workload.iodepth=1,4, and 0.25,0.35 with 2,8) have the same keys and distinct indices, yet
 * mixed they make a table of no sweep. A point's JSON does not hold the grid, but its index
 * does: in a grid of radices r_1..r_m (the first key slowest) key k's value is the digit
 * (index / stride_k) mod r_k, one value per digit and, as a --vary list has no value twice, one
 * digit per value. The points fit one grid when some radices whose product is n_points make
 * every key's values match its digits that way. The search tries the divisors of what is left
 * of n_points for each key, from the fastest (stride 1) to the slowest (which takes the rest),
 * and remembers the (key, stride) pairs that led nowhere, so it costs at most keys x divisors^2
 * passes over the points (240 divisors at most below a million points), and far fewer as a
 * wrong radix shows within a few points; past GRID_BUDGET visits of a point it stops and lets
 * the points be rather than search for minutes. */
#define GRID_BUDGET (UINT64_C(1) << 28)

struct grid_search {
    const GPtrArray *rows; /* struct row *, sorted by index */
    guint n;               /* the first n rows are looked at */
    uint64_t n_points;
    GArray *divisors;   /* of n_points (uint64_t), ascending */
    GHashTable *failed; /* (key, stride) pairs, as key * (n_points + 1) + stride */
    GHashTable *by_digit, *by_value;
    uint64_t visits;
};

/* Whether key k's values match its digits at stride `stride` and radix `r`. */
static bool grid_key_fits(struct grid_search *g, guint k, uint64_t stride, uint64_t r)
{
    g_hash_table_remove_all(g->by_digit);
    g_hash_table_remove_all(g->by_value);
    for (guint j = 0; j < g->n; j++) {
        const struct row *row = g->rows->pdata[j];
        g->visits++;
        uint64_t digit = row->index / stride % r;
        const char *v = row->values->pdata[k];
        gpointer dk = GSIZE_TO_POINTER((gsize)digit + 1), seen;
        if ((seen = g_hash_table_lookup(g->by_digit, dk)) && strcmp(seen, v))
            return false;
        if ((seen = g_hash_table_lookup(g->by_value, v)) && seen != dk)
            return false;
        g_hash_table_insert(g->by_digit, dk, (gpointer)v);
        g_hash_table_insert(g->by_value, (gpointer)v, dk);
    }
    return true;
}

/* Whether keys 0..k fit with key k at `stride` (the keys after k took n_points / left). */
static bool grid_fits_from(struct grid_search *g, guint k, uint64_t stride)
{
    uint64_t left = g->n_points / stride;
    if (k == 0)
        return grid_key_fits(g, 0, stride, left);
    gint64 memo = (gint64)(k * (g->n_points + 1) + stride);
    if (g_hash_table_contains(g->failed, &memo))
        return false;
    for (guint i = 0; i < g->divisors->len && g->visits < GRID_BUDGET; i++) {
        uint64_t r = g_array_index(g->divisors, uint64_t, i);
        if (r > left)
            break;
        if (left % r || !grid_key_fits(g, k, stride, r))
            continue;
        if (grid_fits_from(g, k - 1, stride * r))
            return true;
    }
    if (g->visits >= GRID_BUDGET)
        return true; /* too long a search: the points are let be */
    gint64 *key = g_new(gint64, 1);
    *key = memo;
    g_hash_table_add(g->failed, key);
    return false;
}

/* Whether rows[0..n) (same keys, same n_points, distinct indices) fit one grid. */
static bool grid_fits(const GPtrArray *rows, guint n)
{
    const struct row *first = rows->pdata[0];
    struct grid_search g = {
        .rows = rows,
        .n = n,
        .n_points = first->n_points,
        .failed = g_hash_table_new_full(g_int64_hash, g_int64_equal, g_free, NULL),
        .by_digit = g_hash_table_new(g_direct_hash, g_direct_equal),
        .by_value = g_hash_table_new(g_str_hash, g_str_equal),
        .divisors = g_array_new(FALSE, FALSE, sizeof(uint64_t)),
    };
    GArray *high = g_array_new(FALSE, FALSE, sizeof(uint64_t));
    for (uint64_t d = 1; d * d <= g.n_points; d++) {
        if (g.n_points % d)
            continue;
        g_array_append_val(g.divisors, d);
        uint64_t q = g.n_points / d;
        if (q != d)
            g_array_prepend_val(high, q);
    }
    g_array_append_vals(g.divisors, high->data, high->len);
    g_array_unref(high);
    bool ok = first->keys->len == 0 || grid_fits_from(&g, first->keys->len - 1, 1);
    g_hash_table_destroy(g.failed);
    g_hash_table_destroy(g.by_digit);
    g_hash_table_destroy(g.by_value);
    g_array_unref(g.divisors);
    return ok;
}

/* When the rows do not fit one grid, two that do not: the first row j whose addition makes the
 * rows before it misfit (found by bisection: a subset of points that fit fits), and the first
 * row of the 1000 before it that misfits with j alone, else the first row. Returns false when all
 * fit. */
static bool grid_conflict(const GPtrArray *rows, guint *a, guint *b)
{
    if (rows->len < 2 || grid_fits(rows, rows->len))
        return false;
    guint lo = 1, hi = rows->len; /* rows[0..lo) fit, rows[0..hi) do not */
    while (hi - lo > 1) {
        guint mid = lo + (hi - lo) / 2;
        if (grid_fits(rows, mid))
            lo = mid;
        else
            hi = mid;
    }
    *b = hi - 1;
    *a = 0;
    GPtrArray *pair = g_ptr_array_sized_new(2);
    for (guint i = 0; i < *b && i < 1000; i++) {
        g_ptr_array_set_size(pair, 0);
        g_ptr_array_add(pair, rows->pdata[i]);
        g_ptr_array_add(pair, rows->pdata[*b]);
        if (!grid_fits(pair, 2)) {
            *a = i;
            break;
        }
    }
    g_ptr_array_unref(pair);
    return true;
}

static int table_write(const char *dir, const GPtrArray *rows, bool plot, bool quiet)
{
    const struct row *first = rows->pdata[0];
    for (guint j = 1; j < rows->len; j++) {
        const struct row *r = rows->pdata[j];
        bool same = r->keys->len == first->keys->len && r->n_points == first->n_points;
        for (guint k = 0; same && k < r->keys->len; k++)
            same = !strcmp(r->keys->pdata[k], first->keys->pdata[k]);
        if (!same) {
            cli_error("%s: %s and %s come from different sweeps (other parameters or number "
                      "of points): give each sweep its own directory",
                      dir, first->file, r->file);
            return CLI_EXIT_FAIL;
        }
        if (r->index == ((const struct row *)rows->pdata[j - 1])->index) {
            cli_error("%s: %s and %s are both point %" PRIu64
                      " (two sweeps in one directory?): give each sweep its own directory",
                      dir, ((const struct row *)rows->pdata[j - 1])->file, r->file, r->index);
            return CLI_EXIT_FAIL;
        }
        if (r->base_seed != first->base_seed) {
            cli_error("%s: %s and %s come from different sweeps (base seeds %" PRIu64
                      " and %" PRIu64 "): give each sweep its own directory",
                      dir, first->file, r->file, first->base_seed, r->base_seed);
            return CLI_EXIT_FAIL;
        }
    }
    guint a, b;
    if (grid_conflict(rows, &a, &b)) {
        const struct row *ra = rows->pdata[a], *rb = rows->pdata[b];
        cli_error("%s: %s (point %" PRIu64 ") and %s (point %" PRIu64
                  ") come from different sweeps (their varied values do not fit one grid of "
                  "%" PRIu64 " points): give each sweep its own directory",
                  dir, ra->file, ra->index, rb->file, rb->index, first->n_points);
        return CLI_EXIT_FAIL;
    }
    g_autofree char *csv = table_csv(rows);
    g_autofree char *gp = table_plot(rows);
    g_autofree char *csv_path = g_build_filename(dir, "summary.csv", NULL);
    g_autofree char *gp_path = g_build_filename(dir, "summary.gp", NULL);
    /* Both texts end in a newline already; cli_write_file adds one, so drop it here. */
    csv[strlen(csv) - 1] = '\0';
    gp[strlen(gp) - 1] = '\0';
    if (cli_write_file(csv_path, csv) || cli_write_file(gp_path, gp))
        return CLI_EXIT_FAIL;
    if (!quiet)
        printf("table: %s (%u point%s)\n", csv_path, rows->len, rows->len == 1 ? "" : "s");
    if (plot)
        run_gnuplot(dir, quiet);
    return 0;
}

static int cmp_row_index(const void *a, const void *b)
{
    const struct row *p = *(struct row *const *)a, *q = *(struct row *const *)b;
    if (p->index != q->index)
        return p->index < q->index ? -1 : 1;
    return strcmp(p->file, q->file);
}

/* ------------------------------------------------------------------------------------------ */
/* ssdsim sweep                                                                                */

/* Resolve the paths every manifest line holds, so that a point runs from any working
 * directory (another host on a shared file system, a Slurm job). A model that is not a file
 * stays as given: it is an installed model's name, looked up where the point runs. */
/* `path` made absolute against the working directory, with "." and ".." components and
 * repeated slashes removed lexically (as `realpath -s` does; symbolic links are kept). */
static char *abs_path(const char *path)
{
    g_autofree char *cwd = g_get_current_dir();
    g_autofree char *joined =
        g_path_is_absolute(path) ? g_strdup(path) : g_build_filename(cwd, path, NULL);
    gchar **parts = g_strsplit(joined, "/", -1);
    GPtrArray *kept = g_ptr_array_new();
    for (gchar **c = parts; *c; c++) {
        if (!**c || !strcmp(*c, "."))
            continue;
        if (!strcmp(*c, "..")) {
            if (kept->len)
                g_ptr_array_remove_index(kept, kept->len - 1);
            continue;
        }
        g_ptr_array_add(kept, *c);
    }
    GString *s = g_string_new(NULL);
    for (guint i = 0; i < kept->len; i++)
        g_string_append_printf(s, "/%s", (char *)kept->pdata[i]);
    if (!s->len)
        g_string_append_c(s, '/');
    g_ptr_array_unref(kept);
    g_strfreev(parts);
    return g_string_free(s, FALSE);
}

static void sweep_resolve(struct sweep *s)
{
    /* The model and workload were loaded already, so their files exist. */
    if (s->o.model_path)
        s->model_abs = g_file_test(s->o.model_path, G_FILE_TEST_EXISTS) ? abs_path(s->o.model_path)
                                                                        : g_strdup(s->o.model_path);
    s->workload_abs = abs_path(s->o.workload_path);
    s->dir_abs = abs_path(s->out_dir);
}

/* Point k's label ("KEY1=VALUE1,KEY2=VALUE2") and file name, as its manifest line says them
 * (g_free both). */
static void point_label(const struct sweep *s, uint64_t k, char **label, char **name)
{
    ssdsim_point_line *p = sweep_point(s, k);
    *label = g_strdup(p ? ssdsim_point_line_label(p) : "?");
    *name = g_strdup(p ? point_spec(p).name : "?");
    ssdsim_point_line_free(p);
}

/* The library's notes while point k is checked begin "point LABEL: " (k UINT64_MAX: none). */
struct check_ctx {
    const struct sweep *s;
    char *context;
};

static void check_on_point(uint64_t k, void *ud)
{
    struct check_ctx *x = ud;
    g_free(x->context);
    x->context = NULL;
    if (k != UINT64_MAX) {
        g_autofree char *label = NULL, *name = NULL;
        point_label(x->s, k, &label, &name);
        x->context = g_strdup_printf("point %s: ", label);
    }
    cli_set_error_context(x->context);
}

/* Check every point before running any: the model, the workload and the fixed overrides once,
 * then each point's values and names (ssdsim_point_grid_check). */
static int sweep_check(struct sweep *s)
{
    struct cli_run_opts base = s->o;
    base.n_varies = 0;
    ssdsim_model *model;
    ssdsim_workload *wl;
    if (cli_load(&base, &model, &wl))
        return -1;
    sweep_resolve(s);
    struct check_ctx x = {s, NULL};
    ssdsim_point_check_opts co = SSDSIM_POINT_CHECK_OPTS_INIT;
    co.on_point = check_on_point;
    co.userdata = &x;
    uint64_t k, other;
    ssdsim_error err;
    int rc = ssdsim_point_grid_check(s->grid, model, wl, &co, &k, &other, &err);
    g_autofree char *label = NULL, *name = NULL, *first = NULL, *unused = NULL;
    if (rc && other != UINT64_MAX) {
        point_label(s, k, &label, &name);
        point_label(s, other, &first, &unused);
        cli_error("sweep: points %s and %s have the same file name %s.json: make the values "
                  "differ in letters, digits or . _ + -",
                  first, label, name);
    } else if (rc && k != UINT64_MAX) {
        point_label(s, k, &label, &name);
        cli_error("point %s: --vary: %s", label, err.message);
    } else if (rc) {
        cli_error("%s", err.message);
    }
    ssdsim_workload_free(wl);
    ssdsim_model_free(model);
    return rc ? -1 : 0;
}

static int sweep_emit(const struct sweep *s)
{
    GString *text = g_string_new(NULL);
    for (uint64_t k = 0; k < s->n_points; k++) {
        char *line = sweep_line(s, k);
        g_string_append(text, line);
        if (k + 1 < s->n_points)
            g_string_append_c(text, '\n');
        free(line);
    }
    int rc = 0;
    if (!strcmp(s->emit, "-")) {
        puts(text->str);
        if (fflush(stdout) != 0) {
            cli_error("standard output: write failed: %s", strerror(errno));
            rc = CLI_EXIT_FAIL;
        }
    } else if (cli_write_file(s->emit, text->str)) {
        rc = CLI_EXIT_FAIL;
    } else if (!s->o.quiet) {
        printf("manifest: %s (%" PRIu64 " points, 0 to %" PRIu64 "); run each with\n"
               "  ssdsim run --manifest %s --index K\nthen: ssdsim collect %s\n",
               s->emit, s->n_points, s->n_points - 1, s->emit, s->dir_abs);
    }
    g_string_free(text, TRUE);
    return rc;
}

/* In a worker process: run point k and return its exit status. */
static int sweep_worker(const struct sweep *s, uint64_t k)
{
    /* The signal may come twice (from the terminal and from the sweep): keep catching it. */
    cli_interrupt_forward(NULL, 0);
    cli_interrupt_install(true);
    ssdsim_point_line *p = sweep_point(s, k);
    int rc = p ? point_run(p, NULL, NULL, true) : CLI_EXIT_FAIL;
    ssdsim_point_line_free(p);
    return rc;
}

/* The point's file name and its readable label (for progress and errors). */
static void point_names(const struct sweep *s, uint64_t k, char **path, char **label)
{
    ssdsim_point_line *p = sweep_point(s, k);
    *path = p ? g_strdup(point_spec(p).out) : NULL;
    *label = g_strdup(p ? ssdsim_point_line_label(p) : "?");
    ssdsim_point_line_free(p);
}

/* The pool's view of a sweep (sweep_pool). */
struct sweep_run {
    const struct sweep *s;
    bool *ok;
    uint64_t done, failed;
};

static bool pool_skip(void *ctx, size_t k)
{
    return ((struct sweep_run *)ctx)->ok[k];
}

static int pool_child(void *ctx, size_t k, int fd)
{
    return sweep_worker(((struct sweep_run *)ctx)->s, k);
}

static bool pool_start_failed(void *ctx, size_t k, const char *why)
{
    struct sweep_run *pool = ctx;
    cli_error("sweep: %s", why);
    for (; k < pool->s->n_points; k++)
        if (!pool->ok[k])
            pool->failed++, pool->done++;
    return false;
}

static void pool_done(void *ctx, size_t k, int ws, int fd, double wall_s)
{
    struct sweep_run *pool = ctx;
    const struct sweep *s = pool->s;
    bool *ok = pool->ok;
    pool->done++;
    g_autofree char *path = NULL, *label = NULL;
    point_names(s, k, &path, &label);
    if (WIFEXITED(ws) && WEXITSTATUS(ws) == 0) {
        ok[k] = true;
        if (!s->o.quiet) {
            struct row *r = NULL;
            if (path && row_read(path, &r) == 0 && r) {
                char waf[40] = "?", iops[40] = "?";
                if (r->has[FIG_WAF])
                    snprintf(waf, sizeof waf, "%.3f", r->fig[FIG_WAF]);
                if (r->has[FIG_IOPS])
                    snprintf(iops, sizeof iops, "%.0f", r->fig[FIG_IOPS]);
                printf("[%" PRIu64 "/%" PRIu64 "] %s: WAF %s, %s IOPS\n", pool->done, s->n_points,
                       label, waf, iops);
            }
            row_free(r);
        }
    } else {
        pool->failed++;
        bool stopped = cli_interrupted && WIFEXITED(ws) && WEXITSTATUS(ws) > 128;
        if (WIFSIGNALED(ws))
            cli_error("point %" PRIu64 " (%s): worker killed by signal %d", (uint64_t)k, label,
                      WTERMSIG(ws));
        if (!s->o.quiet)
            printf("[%" PRIu64 "/%" PRIu64 "] %s: %s\n", pool->done, s->n_points, label,
                   stopped ? "INTERRUPTED (partial results)" : "FAILED");
    }
    fflush(stdout);
}

/* Run every point not yet ok (ok[k] true: skipped, complete already) in worker processes
 * (workers.c), at most s->jobs at a time; ok[k] tells whether point k succeeded. SIGINT and
 * SIGTERM are passed on to the workers (which write their results so far, marked interrupted)
 * and no further worker starts. Returns the number of failed (or interrupted) points. */
static uint64_t sweep_pool(const struct sweep *s, bool *ok, uint64_t n_skipped)
{
    struct sweep_run pool = {s, ok, n_skipped, 0};
    struct cli_workers w = {.what = "sweep",
                            .n = s->n_points,
                            .jobs = s->jobs,
                            .forward = true,
                            .ctx = &pool,
                            .skip = pool_skip,
                            .child = pool_child,
                            .done = pool_done,
                            .start_failed = pool_start_failed};
    cli_workers_run(&w);
    return pool.failed;
}

/* The files the sweep writes into its directory (each point's JSON, the table, its script and
 * the plots) checked against its inputs before any point runs: 0, or CLI_EXIT_USAGE after the
 * error. */
static int sweep_check_outputs(const struct sweep *s)
{
    GPtrArray *names = g_ptr_array_new_with_free_func(g_free);
    static const char *const table[] = {"summary.csv", "summary.gp", "waf.png", "iops.png"};
    for (size_t i = 0; i < sizeof table / sizeof *table; i++)
        g_ptr_array_add(names, g_strdup(table[i]));
    for (uint64_t k = 0; k < s->n_points; k++) {
        g_autofree char *path = NULL, *label = NULL;
        point_names(s, k, &path, &label);
        if (path)
            g_ptr_array_add(names, g_path_get_basename(path));
    }
    int rc = cli_dir_outputs_check(s->out_dir ? s->out_dir : s->dir_abs,
                                   (const char *const *)names->pdata, names->len, "sweep");
    g_ptr_array_free(names, TRUE);
    return rc;
}

int cli_sweep(int argc, char **argv)
{
    struct sweep s;
    int rc = sweep_parse(argc, argv, &s);
    if (rc >= 0) {
        sweep_free(&s);
        return rc;
    }
    int bad = sweep_check(&s) ? CLI_EXIT_FAIL : sweep_check_outputs(&s);
    if (bad) {
        sweep_free(&s);
        return bad;
    }
    if (s.emit) {
        rc = sweep_emit(&s);
        sweep_free(&s);
        return rc;
    }
    if (g_mkdir_with_parents(s.dir_abs, 0777) != 0) {
        cli_error("%s: cannot create directory: %s", s.out_dir, strerror(errno));
        sweep_free(&s);
        return CLI_EXIT_FAIL;
    }
    if (!s.o.quiet) {
        printf("sweep: %" PRIu64 " points (", s.n_points);
        for (int i = 0; i < s.n_varies; i++)
            printf("%s%zu %s", i ? " x " : "", ssdsim_point_grid_n_values(s.grid, (size_t)i),
                   ssdsim_point_grid_key(s.grid, (size_t)i));
        printf("), %" PRIu64 " worker processes, results in %s\n",
               s.jobs < s.n_points ? s.jobs : s.n_points, s.dir_abs);
    }
    /* Run again, a sweep skips the points whose complete results are there (an interrupted
     * sweep resumes); --force runs them all. */
    bool *ok = g_new0(bool, s.n_points);
    uint64_t n_skipped = 0;
    for (uint64_t k = 0; k < s.n_points && !s.force; k++) {
        ssdsim_point_line *p = sweep_point(&s, k);
        if (p && point_complete(p)) {
            ok[k] = true;
            n_skipped++;
        }
        ssdsim_point_line_free(p);
    }
    if (n_skipped && !s.o.quiet)
        printf("sweep: %" PRIu64 " of %" PRIu64 " points have complete results in %s already: "
               "skipped (--force runs them again)\n",
               n_skipped, s.n_points, s.dir_abs);
    cli_interrupt_install(false);
    uint64_t failed = sweep_pool(&s, ok, n_skipped);
    GPtrArray *rows = g_ptr_array_new_with_free_func(row_free);
    rc = 0;
    for (uint64_t k = 0; k < s.n_points && rc == 0; k++) {
        if (!ok[k])
            continue;
        g_autofree char *path = NULL, *label = NULL;
        point_names(&s, k, &path, &label);
        struct row *r = NULL;
        if (!path || row_read(path, &r) || !r) {
            if (path && !r)
                cli_error("%s: the point's results have no \"point\" object", path);
            rc = CLI_EXIT_FAIL;
        } else {
            g_ptr_array_add(rows, r);
        }
    }
    if (rc == 0 && rows->len > 0)
        rc = table_write(s.dir_abs, rows, !s.no_plot, s.o.quiet);
    if (cli_interrupted) {
        cli_error("sweep: interrupted by %s: %u of %" PRIu64 " points complete%s; run the same "
                  "command again to run the others",
                  cli_interrupt_name(), rows->len, s.n_points,
                  rows->len ? " (in summary.csv)" : "");
        rc = cli_interrupt_status();
    } else if (failed) {
        cli_error("sweep: %" PRIu64 " of %" PRIu64 " points failed%s", failed, s.n_points,
                  rows->len ? "; summary.csv holds the others" : "");
        rc = CLI_EXIT_FAIL;
    }
    g_ptr_array_unref(rows);
    g_free(ok);
    sweep_free(&s);
    return rc;
}

/* ------------------------------------------------------------------------------------------ */
/* ssdsim collect                                                                              */

static void collect_help(FILE *f)
{
    fputs("usage: ssdsim collect DIR [--no-plot] [--quiet]\n"
          "\n"
          "Build DIR/summary.csv and DIR/summary.gp (and, with gnuplot installed, waf.png and\n"
          "iops.png) from the point results (*.json with a \"point\" object) in DIR, exactly as\n"
          "`ssdsim sweep` does: use it after running a manifest's points elsewhere (ssdsim run\n"
          "--manifest FILE --index K). Rows are in grid order. Points missing from DIR are\n"
          "listed and make the exit status 1; the table then holds the others. Points of\n"
          "different sweeps (other keys, number of points or base seed, or values that do\n"
          "not fit one grid) are refused, naming two of them.\n"
          "\n"
          "Options:\n"
          "  --no-plot              do not run gnuplot (summary.gp is still written)\n"
          "  --quiet                print nothing but errors\n"
          "  --help                 this help\n",
          f);
}

int cli_collect(int argc, char **argv)
{
    const char *dir = NULL;
    bool quiet = false, plot = true;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            collect_help(stdout);
            return 0;
        } else if (!strcmp(a, "--quiet") || !strcmp(a, "-q")) {
            quiet = true;
        } else if (!strcmp(a, "--no-plot")) {
            plot = false;
        } else if (a[0] == '-' && a[1]) {
            cli_error("collect: unknown option '%s' (see ssdsim collect --help)", a);
            return CLI_EXIT_USAGE;
        } else if (dir) {
            cli_error("collect: one directory only, got '%s' and '%s'", dir, a);
            return CLI_EXIT_USAGE;
        } else {
            dir = a;
        }
    }
    if (!dir) {
        cli_error("collect: give the sweep's directory (see ssdsim collect --help)");
        return CLI_EXIT_USAGE;
    }
    DIR *d = opendir(dir);
    if (!d) {
        cli_error("collect: %s: cannot open: %s", dir, strerror(errno));
        return CLI_EXIT_FAIL;
    }
    /* File names are sorted so that any message about them does not depend on the order the
     * file system lists them in. */
    GPtrArray *names = g_ptr_array_new_with_free_func(g_free);
    const struct dirent *ent;
    while ((ent = readdir(d)))
        if (ent->d_name[0] != '.' && g_str_has_suffix(ent->d_name, ".json"))
            g_ptr_array_add(names, g_strdup(ent->d_name));
    closedir(d);
    g_ptr_array_sort(names, cmp_str_ptr);
    GPtrArray *rows = g_ptr_array_new_with_free_func(row_free);
    int rc = 0;
    for (guint i = 0; i < names->len && rc == 0; i++) {
        g_autofree char *path = g_build_filename(dir, names->pdata[i], NULL);
        struct row *r;
        if (row_read(path, &r) < 0)
            rc = CLI_EXIT_FAIL;
        else if (r)
            g_ptr_array_add(rows, r);
    }
    g_ptr_array_unref(names);
    if (rc == 0 && rows->len == 0) {
        cli_error("collect: %s holds no sweep results (NAME.json files with a \"point\" object)",
                  dir);
        rc = CLI_EXIT_FAIL;
    }
    if (rc == 0) {
        g_ptr_array_sort(rows, cmp_row_index);
        rc = table_write(dir, rows, plot, quiet);
    }
    if (rc == 0) {
        /* Rows are sorted, distinct and all of one sweep: list the indices not there. */
        uint64_t n_points = ((struct row *)rows->pdata[0])->n_points;
        if (rows->len < n_points) {
            GString *miss = g_string_new(NULL);
            uint64_t n_missing = 0;
            guint j = 0;
            for (uint64_t k = 0; k < n_points; k++) {
                if (j < rows->len && ((struct row *)rows->pdata[j])->index == k) {
                    j++;
                    continue;
                }
                if (n_missing++ < 10)
                    g_string_append_printf(miss, "%s%" PRIu64, miss->len ? ", " : "", k);
            }
            cli_error("collect: %" PRIu64 " of %" PRIu64 " points are missing: %s%s; "
                      "summary.csv holds the other %u",
                      n_missing, n_points, miss->str, n_missing > 10 ? ", ..." : "", rows->len);
            g_string_free(miss, TRUE);
            rc = CLI_EXIT_FAIL;
        }
    }
    g_ptr_array_unref(rows);
    return rc;
}
