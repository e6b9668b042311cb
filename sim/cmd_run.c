/* cmd_run.c: `ssdsim run` and `ssdsim demo`: load a model and a workload, optionally
 * precondition, run, print the summary, write JSON and CSV. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"

#define MAX_SETS 128

struct run_opts {
    const char *model_path;
    const char *workload_path;
    const char *sets[MAX_SETS];
    int n_sets;
    uint64_t seed;
    const char *json_out;
    const char *csv_out;
    uint64_t interval_ns;
    uint64_t interval_ios;
    bool precondition_seq;
    bool quiet;
};

static void run_help(FILE *f, bool demo)
{
    if (demo)
        fputs("usage: ssdsim demo [OPTIONS]\n"
              "\n"
              "Run the built-in default: the generic MLC model (models/generic-mlc.json),\n"
              "secure-erased, under 4 KiB uniform random writes at 16 jobs x 16 queue depth\n"
              "until six times its logical capacity is written (fresh to steady state).\n"
              "Prints a summary and the preconditioning curve (30 intervals).\n\n",
              f);
    else
        fputs("usage: ssdsim run [--model FILE] --workload FILE [OPTIONS]\n"
              "\n"
              "Run a workload (a JSON object of fio options) on a device model (JSON).\n"
              "Without --model, the built-in generic MLC model is used.\n\n",
              f);
    fputs("Options:\n", f);
    if (!demo)
        fputs("  --model FILE|NAME      device model (JSON; see doc/models.md), or the name of an\n"
              "                         installed model (generic-slc, generic-mlc, generic-tlc)\n"
              "  --workload FILE        workload (JSON object of fio options: rw, bs, bssplit,\n"
              "                         rwmixread, iodepth, numjobs, size, offset, number_ios,\n"
              "                         runtime, randseed)\n"
              "  --precondition seq     write the whole logical space once sequentially\n"
              "                         (128 KiB, QD32) before the measured workload\n",
              f);
    fputs("  --set KEY=VALUE        override a model key by its dotted path, checked like the\n"
          "                         file (--set ftl.op=0.25 --set geometry.pages_per_block=64)\n"
          "  --seed N               seed of every random stream (default 1)\n"
          "  --json OUT             write the results as JSON (doc/results.md)\n"
          "  --timeseries OUT.csv   write the time series as CSV\n"
          "  --interval DURATION    time-series interval in simulated time (\"100ms\", \"1s\")\n"
          "  --interval-ios N       time-series interval in completed I/Os\n"
          "  --quiet                print nothing but errors\n"
          "  --help                 this help\n",
          f);
}

static bool parse_u64(const char *s, uint64_t *out)
{
    if (!s || !*s || *s == '-')
        return false;
    char *end;
    errno = 0;
    unsigned long long v = strtoull(s, &end, 10);
    if (errno || *end)
        return false;
    *out = v;
    return true;
}

/* Parse options shared by run and demo. Returns -1 to continue, or an exit code. */
static int parse_opts(int argc, char **argv, bool demo, struct run_opts *o)
{
    const char *cmd = demo ? "demo" : "run";
    memset(o, 0, sizeof *o);
    o->seed = 1;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *val = NULL;
        char name[64];
        const char *eq = strchr(a, '=');
        if (!strncmp(a, "--", 2) && eq && (size_t)(eq - a) < sizeof name) {
            memcpy(name, a, (size_t)(eq - a));
            name[eq - a] = 0;
            val = eq + 1;
        } else {
            snprintf(name, sizeof name, "%s", a);
        }
        bool takes = !strcmp(name, "--model") || !strcmp(name, "--workload") ||
                     !strcmp(name, "--set") || !strcmp(name, "--seed") ||
                     !strcmp(name, "--json") || !strcmp(name, "--timeseries") ||
                     !strcmp(name, "--interval") || !strcmp(name, "--interval-ios") ||
                     !strcmp(name, "--precondition");
        if (demo && (!strcmp(name, "--model") || !strcmp(name, "--workload") ||
                     !strcmp(name, "--precondition")))
            takes = false; /* the demo's model and workload are fixed: use `run` instead */
        if (!strcmp(name, "--help") || !strcmp(name, "-h")) {
            run_help(stdout, demo);
            return 0;
        }
        if (!strcmp(name, "--quiet") || !strcmp(name, "-q")) {
            o->quiet = true;
            continue;
        }
        if (!takes) {
            cli_error("%s: unknown option '%s' (see ssdsim %s --help)", cmd, a, cmd);
            return CLI_EXIT_USAGE;
        }
        if (!val) {
            if (i + 1 >= argc) {
                cli_error("%s: option '%s' needs a value", cmd, name);
                return CLI_EXIT_USAGE;
            }
            val = argv[++i];
        }
        if (!strcmp(name, "--model")) {
            o->model_path = val;
        } else if (!strcmp(name, "--workload")) {
            o->workload_path = val;
        } else if (!strcmp(name, "--set")) {
            if (!strchr(val, '=')) {
                cli_error("%s: --set expects KEY=VALUE, got '%s'", cmd, val);
                return CLI_EXIT_USAGE;
            }
            if (o->n_sets == MAX_SETS) {
                cli_error("%s: more than %d --set options", cmd, MAX_SETS);
                return CLI_EXIT_USAGE;
            }
            o->sets[o->n_sets++] = val;
        } else if (!strcmp(name, "--seed")) {
            if (!parse_u64(val, &o->seed)) {
                cli_error("%s: --seed expects a non-negative integer, got '%s'", cmd, val);
                return CLI_EXIT_USAGE;
            }
        } else if (!strcmp(name, "--json")) {
            o->json_out = val;
        } else if (!strcmp(name, "--timeseries")) {
            o->csv_out = val;
        } else if (!strcmp(name, "--interval")) {
            if (ssdsim_parse_time_ns(val, &o->interval_ns) || o->interval_ns == 0) {
                cli_error("%s: --interval expects a duration such as 100ms or 1s, got '%s'",
                          cmd, val);
                return CLI_EXIT_USAGE;
            }
        } else if (!strcmp(name, "--interval-ios")) {
            if (!parse_u64(val, &o->interval_ios) || o->interval_ios == 0) {
                cli_error("%s: --interval-ios expects a positive integer, got '%s'", cmd, val);
                return CLI_EXIT_USAGE;
            }
        } else if (!strcmp(name, "--precondition")) {
            if (strcmp(val, "seq") != 0) {
                cli_error("%s: --precondition expects 'seq', got '%s'", cmd, val);
                return CLI_EXIT_USAGE;
            }
            o->precondition_seq = true;
        }
    }
    if (o->interval_ns && o->interval_ios) {
        cli_error("%s: give --interval or --interval-ios, not both", cmd);
        return CLI_EXIT_USAGE;
    }
    if (o->csv_out && !o->interval_ns && !o->interval_ios && !demo) {
        cli_error("%s: --timeseries needs --interval or --interval-ios", cmd);
        return CLI_EXIT_USAGE;
    }
    if (!demo && !o->workload_path) {
        cli_error("run: --workload FILE is required (see ssdsim run --help)");
        return CLI_EXIT_USAGE;
    }
    return -1;
}

static int write_text(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    if (!f) {
        cli_error("%s: cannot write: %s", path, strerror(errno));
        return -1;
    }
    fputs(text, f);
    fputc('\n', f);
    if (fclose(f) != 0) {
        cli_error("%s: write failed: %s", path, strerror(errno));
        return -1;
    }
    return 0;
}

/* A model is a file path, or the name of an installed model ("generic-tlc"), looked up in
 * $SSDSIM_MODELS_DIR, then in the directory `make install` put the models in. */
static const char *model_path(const char *arg, char *buf, size_t len)
{
    if (access(arg, F_OK) == 0 || strchr(arg, '/'))
        return arg;
    const char *dirs[2] = {getenv("SSDSIM_MODELS_DIR"), SSDSIM_MODELS_DIR};
    const char *ext = strstr(arg, ".json") ? "" : ".json";
    for (int i = 0; i < 2; i++) {
        if (!dirs[i] || !*dirs[i])
            continue;
        snprintf(buf, len, "%s/%s%s", dirs[i], arg, ext);
        if (access(buf, F_OK) == 0)
            return buf;
    }
    return arg; /* the loader reports that it does not exist */
}

static int load_model(const struct run_opts *o, ssdsim_model **model)
{
    ssdsim_error err;
    char buf[4096];
    int rc = o->model_path
                 ? ssdsim_model_load_file(model, model_path(o->model_path, buf, sizeof buf), &err)
                 : ssdsim_model_default(model, &err);
    if (rc) {
        cli_error("%s", err.message);
        return -1;
    }
    for (int i = 0; i < o->n_sets; i++) {
        char key[256];
        const char *eq = strchr(o->sets[i], '=');
        size_t n = (size_t)(eq - o->sets[i]);
        if (n >= sizeof key)
            n = sizeof key - 1;
        memcpy(key, o->sets[i], n);
        key[n] = 0;
        if (ssdsim_model_set(*model, key, eq + 1, &err)) {
            cli_error("%s", err.message);
            ssdsim_model_free(*model);
            *model = NULL;
            return -1;
        }
    }
    return 0;
}

static int execute(const struct run_opts *o, ssdsim_model *model, ssdsim_workload *wl,
                   const char *wl_desc)
{
    ssdsim_error err;
    ssdsim *sim = NULL;
    int status = CLI_EXIT_FAIL;
    if (ssdsim_new(&sim, model, o->seed, &err)) {
        cli_error("%s", err.message);
        return CLI_EXIT_FAIL;
    }
    struct cli_progress *prog = NULL;
    if (!o->quiet) {
        prog = cli_progress_new(o->precondition_seq ? "preconditioning" : "running");
        ssdsim_set_progress(sim, cli_progress_cb, prog);
    }
    if (o->precondition_seq) {
        int rc = ssdsim_precondition_seq(sim);
        cli_progress_done(prog);
        prog = NULL;
        if (rc) {
            cli_error("precondition: %s", ssdsim_errmsg(sim));
            goto out;
        }
        prog = o->quiet ? NULL : cli_progress_new("running");
        ssdsim_set_progress(sim, prog ? cli_progress_cb : NULL, prog);
    }
    ssdsim_run_opts ro = {.interval_ns = o->interval_ns, .interval_ios = o->interval_ios};
    int rc = ssdsim_run(sim, wl, &ro);
    cli_progress_done(prog);
    prog = NULL;
    if (rc) {
        cli_error("%s", ssdsim_errmsg(sim));
        goto out;
    }
    if (!o->quiet)
        cli_report(stdout, sim, model, wl_desc);
    if (o->json_out) {
        char *json = ssdsim_results_json(sim);
        if (!json) {
            cli_error("out of memory writing JSON");
            goto out;
        }
        int w = write_text(o->json_out, json);
        free(json);
        if (w)
            goto out;
    }
    if (o->csv_out && ssdsim_write_timeseries_csv(sim, o->csv_out)) {
        cli_error("%s", ssdsim_errmsg(sim));
        goto out;
    }
    status = 0;
out:
    cli_progress_done(prog);
    ssdsim_free(sim);
    return status;
}

int cli_run(int argc, char **argv)
{
    struct run_opts o;
    int rc = parse_opts(argc, argv, false, &o);
    if (rc >= 0)
        return rc;
    ssdsim_model *model = NULL;
    ssdsim_workload *wl = NULL;
    ssdsim_error err;
    if (load_model(&o, &model))
        return CLI_EXIT_FAIL;
    if (ssdsim_workload_load_file(&wl, o.workload_path, &err)) {
        cli_error("%s", err.message);
        ssdsim_model_free(model);
        return CLI_EXIT_FAIL;
    }
    rc = execute(&o, model, wl, o.workload_path);
    ssdsim_workload_free(wl);
    ssdsim_model_free(model);
    return rc;
}

int cli_demo(int argc, char **argv)
{
    struct run_opts o;
    int rc = parse_opts(argc, argv, true, &o);
    if (rc >= 0)
        return rc;
    ssdsim_model *model = NULL;
    if (load_model(&o, &model))
        return CLI_EXIT_FAIL;
    /* Six times the logical capacity in 4 KiB random writes, spread over 16 jobs: enough
     * to go from a fresh drive through the GC cliff to steady state. */
    const uint64_t jobs = 16, depth = 16, bs = 4096;
    uint64_t total = 6 * (ssdsim_model_logical_bytes(model) / bs);
    uint64_t per_job = total / jobs;
    char json[256];
    snprintf(json, sizeof json,
             "{\"rw\": \"randwrite\", \"bs\": \"4k\", \"numjobs\": %" PRIu64
             ", \"iodepth\": %" PRIu64 ", \"number_ios\": %" PRIu64 "}",
             jobs, depth, per_job);
    ssdsim_workload *wl = NULL;
    ssdsim_error err;
    if (ssdsim_workload_load_string(&wl, json, "demo workload", &err)) {
        cli_error("%s", err.message);
        ssdsim_model_free(model);
        return CLI_EXIT_FAIL;
    }
    if (!o.interval_ns && !o.interval_ios)
        o.interval_ios = (per_job * jobs + 29) / 30;
    rc = execute(&o, model, wl,
                 "4 KiB uniform random writes, 16 jobs x 16 queue depth, 6 x capacity");
    ssdsim_workload_free(wl);
    ssdsim_model_free(model);
    return rc;
}
