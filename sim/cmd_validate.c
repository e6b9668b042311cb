/* cmd_validate.c: `ssdsim validate waf`: the simulator's steady-state write amplification against
 * the analytic models (doc/validation.md). The procedure is the library's (ssdsim/validate.h:
 * the point grids, how a point's device is built, run and measured, the models it is compared
 * with and the verdict); this file is the command around it: the command line, the worker
 * processes, the tables, the Markdown and the JSON.
 *
 * Points run in worker processes (fork, at most --jobs alive, longest first) that send their
 * result struct back through a pipe. A point's seed derives from the base seed and its label, so
 * its result depends neither on the rest of the grid nor on --jobs, and the JSON and Markdown
 * outputs are byte-identical from run to run (wall-clock times go to the terminal only).
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include <cJSON.h>
#include <glib.h>

#include "cli.h"
#include "ssdsim/validate.h"
#include "table.h"

#define MAX_LIST 32

/* One point of the grid and, once it has run, its result. */
struct vpoint {
    ssdsim_validate_point pt;
    ssdsim_validate_result r;
};

struct validate {
    ssdsim_validate_opts opts; /* the grids and run lengths, as the library takes them */
    char *policies[MAX_LIST];  /* the storage of opts' lists */
    double sfs[MAX_LIST];
    uint32_t ppbs[MAX_LIST];
    bool quiet;
    bool sections[SSDSIM_VALIDATE_N_SECTIONS];
    uint64_t jobs;
    const char *json_out, *md_out;
    GArray *points;      /* struct vpoint */
    size_t done, failed; /* points ended, and failed, so far */
};

static void validate_help(FILE *f)
{
    fprintf(f,
            "usage: ssdsim validate waf [OPTIONS]\n"
            "\n"
            "Compare the simulated steady-state write amplification under uniform random\n"
            "single-page writes with the analytic models (doc/validation.md): greedy, FIFO,\n"
            "random, d-choices and windowed GC across spare factors and block sizes; hot/cold\n"
            "traffic against Desnoyers' model; and set-ups that break the models' assumptions.\n"
            "SIGINT or SIGTERM stops the worker processes at once: validate prints and writes\n"
            "nothing, says so in one line and exits 130 or 143.\n"
            "\n"
            "Options:\n"
            "  --quick                8 points at b = 64, sf = 0.2 (a few seconds); what the\n"
            "                         tests run\n"
            "  --section S            uniform, hotcold or deviation (repeatable or a comma list;\n"
            "                         default: all three, or uniform only with --policy)\n"
            "  --policy P             GC policy of the uniform section (repeatable or a comma\n"
            "                         list): greedy, fifo, random, d-choices (d = 2 and 10),\n"
            "                         d-choices:D, windowed (window = 1/8 of the blocks),\n"
            "                         windowed:W (W blocks), cost-benefit (no model)\n"
            "  --sf LIST              spare factors, (physical - logical) / physical, in (0, 1)\n"
            "                         (default 0.05,0.1,0.2,0.3,0.5; quick: 0.2)\n"
            "  --ppb LIST             pages per block (default 32,64,128,256; quick: 64)\n"
            "  --blocks N             blocks of the device (default 4096)\n"
            "  --json OUT             write every point as JSON\n"
            "  --markdown OUT         write the tables as Markdown\n"
            "  --seed N               base seed (default 1); each point's seed derives from it\n"
            "  --jobs N               worker processes (default: the online CPUs, here %u)\n"
            "  --quiet                no progress lines or library notes on standard error\n"
            "  --help                 this help\n",
            g_get_num_processors());
}

/* ------------------------------------------------------------------------------------------ */
/* Options                                                                                     */

/* Whether the library takes the options as they now are. Each value is checked as soon as it
 * is given (every earlier one was taken), so that the error names its option. */
static bool lib_accepts(const ssdsim_validate_opts *o)
{
    size_t n;
    return ssdsim_validate_grid_count(SSDSIM_VALIDATE_UNIFORM, o, &n, NULL) == 0;
}

/* Split a comma list; each item is passed to `item`, which returns false to reject it. */
static bool for_each_item(const char *list, bool (*item)(struct validate *, const char *),
                          struct validate *v)
{
    g_auto(GStrv) parts = g_strsplit(list, ",", -1);
    if (!parts[0])
        return false;
    for (int i = 0; parts[i]; i++) {
        g_strstrip(parts[i]);
        if (!*parts[i] || !item(v, parts[i]))
            return false;
    }
    return true;
}

static bool add_sf(struct validate *v, const char *s)
{
    ssdsim_validate_opts *o = &v->opts;
    char *end;
    if (o->n_spare_factors == MAX_LIST)
        return false;
    errno = 0;
    double x = strtod(s, &end);
    if (end == s || *end || errno || !isfinite(x))
        return false;
    v->sfs[o->n_spare_factors++] = x;
    o->spare_factors = v->sfs;
    return lib_accepts(o);
}

static bool add_ppb(struct validate *v, const char *s)
{
    ssdsim_validate_opts *o = &v->opts;
    uint64_t x;
    if (o->n_pages_per_block == MAX_LIST || !cli_parse_u64(s, &x) || x > UINT32_MAX)
        return false;
    v->ppbs[o->n_pages_per_block++] = (uint32_t)x;
    o->pages_per_block = v->ppbs;
    return lib_accepts(o);
}

static bool add_section(struct validate *v, const char *s)
{
    for (int i = 0; i < SSDSIM_VALIDATE_N_SECTIONS; i++)
        if (!strcmp(s, ssdsim_validate_section_name((ssdsim_validate_section)i)))
            return v->sections[i] = true;
    return false;
}

/* A policy spec: NAME, or NAME:PARAM for d-choices (d) and windowed (blocks). */
static bool add_policy(struct validate *v, const char *s)
{
    ssdsim_validate_opts *o = &v->opts;
    if (o->n_policies == MAX_LIST)
        return false;
    v->policies[o->n_policies++] = g_strdup(s);
    o->policies = (const char *const *)v->policies;
    return lib_accepts(o);
}

/* Returns -1 to go on, or an exit status. */
static int validate_parse(int argc, char **argv, struct validate *v)
{
    memset(v, 0, sizeof *v);
    ssdsim_validate_opts *o = &v->opts;
    ssdsim_validate_opts_init(o, 0);
    o->seed = 1;
    o->n_blocks = SSDSIM_VALIDATE_DEFAULT_BLOCKS;
    /* quick differs in its points, not in their precision */
    o->warmup_trips = SSDSIM_VALIDATE_DEFAULT_WARMUP_TRIPS;
    o->n_batches = SSDSIM_VALIDATE_DEFAULT_BATCHES;
    v->jobs = g_get_num_processors();
    if (argc >= 2 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
        validate_help(stdout);
        return 0;
    }
    if (argc < 2 || strcmp(argv[1], "waf")) {
        cli_error("validate: expected 'waf' (usage: ssdsim validate waf [OPTIONS]; see "
                  "ssdsim validate --help)");
        return CLI_EXIT_USAGE;
    }
    bool any_section = false;
    const char *uniform_only = NULL; /* the first of --policy, --sf, --ppb given */
    struct cli_seen seen = {.n = 0};
    for (int i = 2; i < argc; i++) {
        const char *val;
        char name[64];
        cli_split_option(argv[i], name, sizeof name, &val);
        if (!strcmp(name, "--help") || !strcmp(name, "-h")) {
            validate_help(stdout);
            return 0;
        }
        if (!strcmp(name, "--quick")) {
            o->quick = true;
            continue;
        }
        if (!strcmp(name, "--quiet") || !strcmp(name, "-q")) {
            v->quiet = true;
            cli_quiet_notes(); /* as --quiet does elsewhere: the workers inherit it */
            continue;
        }
        static const char *const with_value[] = {"--section",  "--policy", "--sf",
                                                 "--ppb",      "--blocks", "--json",
                                                 "--markdown", "--seed",   "--jobs"};
        bool known = false;
        for (size_t k = 0; k < G_N_ELEMENTS(with_value); k++)
            known = known || !strcmp(name, with_value[k]);
        if (!known) {
            cli_error("validate: unknown option '%s' (see ssdsim validate --help)", argv[i]);
            return CLI_EXIT_USAGE;
        }
        if (cli_option_value("validate", name, argc, argv, &i, &val))
            return CLI_EXIT_USAGE;
        /* The comma lists (--section, --policy, --sf, --ppb) add up when repeated. */
        static const char *const single[] = {"--blocks", "--json", "--markdown", "--seed",
                                             "--jobs"};
        for (size_t k = 0; k < G_N_ELEMENTS(single); k++)
            if (!strcmp(name, single[k]) && cli_once("validate", name, &seen))
                return CLI_EXIT_USAGE;
        const char *why = NULL;
        uint64_t x;
        static const char *const uniform_opts[] = {"--policy", "--sf", "--ppb"};
        for (size_t k = 0; k < G_N_ELEMENTS(uniform_opts) && !uniform_only; k++)
            if (!strcmp(name, uniform_opts[k]))
                uniform_only = uniform_opts[k]; /* `name` is this turn's buffer */
        if (!strcmp(name, "--section")) {
            any_section = true;
            if (!for_each_item(val, add_section, v))
                why = "a comma list of uniform, hotcold, deviation";
        } else if (!strcmp(name, "--policy")) {
            if (!for_each_item(val, add_policy, v))
                why = "greedy, fifo, random, d-choices[:D], windowed[:W] or cost-benefit "
                      "(a comma list)";
        } else if (!strcmp(name, "--sf")) {
            if (!for_each_item(val, add_sf, v))
                why = "a comma list of spare factors in (0, 1)";
        } else if (!strcmp(name, "--ppb")) {
            if (!for_each_item(val, add_ppb, v))
                why = "a comma list of pages per block from 2 to 4096";
        } else if (!strcmp(name, "--blocks")) {
            /* 0 would be the library's default: the command asks for a number. */
            if (!cli_parse_u64(val, &x) || x == 0 || x > UINT32_MAX ||
                !lib_accepts((o->n_blocks = (uint32_t)x, o)))
                why = "an integer from 64 to 1048576";
        } else if (!strcmp(name, "--json")) {
            v->json_out = val;
        } else if (!strcmp(name, "--markdown")) {
            v->md_out = val;
        } else if (!strcmp(name, "--seed")) {
            if (!cli_parse_u64(val, &o->seed) || !lib_accepts(o))
                why = "an integer below 2^53";
        } else if (!strcmp(name, "--jobs")) {
            if (!cli_parse_u64(val, &v->jobs) || v->jobs == 0 || v->jobs > 4096)
                why = "an integer from 1 to 4096";
        }
        if (why) {
            cli_error("validate: %s expects %s, got '%s'", name, why, val);
            return CLI_EXIT_USAGE;
        }
    }
    if (!any_section)
        for (int s = 0; s < SSDSIM_VALIDATE_N_SECTIONS; s++)
            v->sections[s] = o->n_policies == 0 || s == SSDSIM_VALIDATE_UNIFORM;
    /* --policy, --sf and --ppb set the uniform section's grid alone: without that section
     * they would change nothing */
    if (uniform_only && !v->sections[SSDSIM_VALIDATE_UNIFORM]) {
        cli_error("validate: %s applies to the uniform section only, which --section leaves "
                  "out",
                  uniform_only);
        return CLI_EXIT_USAGE;
    }
    return -1;
}

/* ------------------------------------------------------------------------------------------ */
/* The grid                                                                                    */

/* The points of the sections asked for. 0, or CLI_EXIT_FAIL after printing the error. */
static int grid_build(struct validate *v)
{
    v->points = g_array_new(FALSE, TRUE, sizeof(struct vpoint));
    for (int s = 0; s < SSDSIM_VALIDATE_N_SECTIONS; s++) {
        ssdsim_error err;
        size_t n = 0;
        if (!v->sections[s])
            continue;
        int rc = ssdsim_validate_grid_count((ssdsim_validate_section)s, &v->opts, &n, &err);
        for (size_t i = 0; rc == 0 && i < n; i++) {
            struct vpoint p;
            memset(&p, 0, sizeof p);
            p.pt.version = SSDSIM_VALIDATE_POINT_VERSION;
            rc = ssdsim_validate_grid_get(&p.pt, (ssdsim_validate_section)s, &v->opts, i, &err);
            if (rc == 0)
                g_array_append_val(v->points, p);
        }
        if (rc) {
            cli_error("validate: %s", err.message);
            return CLI_EXIT_FAIL;
        }
    }
    return 0;
}

/* ------------------------------------------------------------------------------------------ */
/* Worker processes                                                                            */

/* A point that the command could not run (no worker, no result): its error, and the models
 * named as for any failed point. */
static void point_failed(struct vpoint *p, const char *fmt, ...) G_GNUC_PRINTF(2, 3);

static void point_failed(struct vpoint *p, const char *fmt, ...)
{
    memset(&p->r, 0, sizeof p->r);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(p->r.error, sizeof p->r.error, fmt, ap);
    va_end(ap);
    p->r.status = SSDSIM_EIO;
    ssdsim_validate_point_compare(&p->pt, &p->r);
}

static struct vpoint *point_at(const struct validate *v, size_t i)
{
    return &g_array_index(v->points, struct vpoint, i);
}

/* Expected flash programs: the longest points start first. */
static double pool_cost(void *ctx, size_t i)
{
    struct validate *v = ctx;
    double cost = 0.0;
    ssdsim_validate_point_cost(&point_at(v, i)->pt, &v->opts, &cost);
    return cost;
}

static int pool_child(void *ctx, size_t i, int fd)
{
    struct validate *v = ctx;
    /* The library's point run has no progress check: a worker ends at the signal the command
     * passes on (or the terminal sends) as if nothing caught it. One that came between fork
     * and here was caught by the inherited handler: act on it now. */
    signal(SIGINT, SIG_DFL);
    signal(SIGTERM, SIG_DFL);
    if (cli_interrupted)
        raise(cli_interrupted);
    ssdsim_validate_result r;
    ssdsim_validate_point_run(&point_at(v, i)->pt, &v->opts, &r);
    return cli_pipe_write(fd, &r, sizeof r) ? 0 : CLI_EXIT_FAIL;
}

static bool pool_start_failed(void *ctx, size_t i, const char *why)
{
    struct validate *v = ctx;
    point_failed(point_at(v, i), "%s", why);
    v->done++, v->failed++;
    return true;
}

static void pool_done(void *ctx, size_t i, int ws, int fd, double wall_s)
{
    struct validate *v = ctx;
    struct vpoint *p = point_at(v, i);
    if (!cli_pipe_read(fd, &p->r, sizeof p->r)) {
        if (WIFSIGNALED(ws))
            point_failed(p, "worker killed by signal %d", WTERMSIG(ws));
        else
            point_failed(p, "worker ended without a result");
    }
    v->done++;
    if (p->r.status) {
        v->failed++;
        cli_error("validate: %s: %s", p->pt.label, p->r.error);
    } else if (!v->quiet) { /* a progress line (a failed point had its error line) */
        fprintf(stderr, "[%zu/%u] %s: WAF %.4f (%.1f s)\n", v->done, v->points->len, p->pt.label,
                p->r.waf, wall_s);
    }
}

/* Run every point in worker processes (workers.c), at most v->jobs at a time, longest first,
 * each sending its result back through a pipe. Returns the failed count. */
static size_t run_points(struct validate *v)
{
    struct cli_workers w = {.what = "validate",
                            .n = v->points->len,
                            .jobs = (size_t)v->jobs,
                            .pipe = true,
                            .forward = true,
                            .ctx = v,
                            .child = pool_child,
                            .done = pool_done,
                            .start_failed = pool_start_failed,
                            .cost = pool_cost};
    cli_workers_run(&w);
    return v->failed;
}

/* ------------------------------------------------------------------------------------------ */
/* Tables                                                                                      */

static const char *const verdicts[] = {"no model", "yes", "NO", "FAILED"};

static void tables_build(const struct validate *v, struct cli_table *t)
{
    cli_table_init(&t[SSDSIM_VALIDATE_UNIFORM],
                   "Uniform random single-page writes (1 plane, one write frontier)");
    cli_table_init(&t[SSDSIM_VALIDATE_HOTCOLD], "Hot/cold traffic (b = 64)");
    cli_table_init(&t[SSDSIM_VALIDATE_DEVIATION],
                   "Set-ups that break an assumption (greedy, b = 64)");
    g_autofree char *within = g_strdup_printf("within %g%%", SSDSIM_VALIDATE_TOLERANCE_PCT);
    cli_table_row(&t[SSDSIM_VALIDATE_UNIFORM], 9, "policy", "b", "sf", "WAF sim", "± SE",
                  "WAF model", "diff %", "drift %", within);
    cli_table_row(&t[SSDSIM_VALIDATE_HOTCOLD], 9, "traffic", "set-up", "sf", "WAF sim", "± SE",
                  "Desnoyers optimal", "diff %", "uniform-traffic model", "diff %");
    cli_table_row(&t[SSDSIM_VALIDATE_DEVIATION], 10, "set-up", "blocks", "sf", "WAF sim",
                  "WAF model", "diff %", "unused blocks", "sf_eff", "model at sf_eff", "diff %");
    for (guint i = 0; i < v->points->len; i++) {
        const struct vpoint *p = &g_array_index(v->points, struct vpoint, i);
        const ssdsim_validate_point *pt = &p->pt;
        const ssdsim_validate_result *r = &p->r;
        char pol[48], b[16], sf[16], traffic[16], blocks[16];
        ssdsim_validate_policy_label(pt->policy, pt->param, pol, sizeof pol);
        snprintf(b, sizeof b, "%u", pt->pages_per_block);
        snprintf(sf, sizeof sf, "%g", pt->spare_factor);
        snprintf(traffic, sizeof traffic, "%u/%u", pt->hot_write_pct, pt->hot_space_pct);
        snprintf(blocks, sizeof blocks, "%u", pt->n_blocks);
        /* The library leaves every figure of a failed point NaN ("-"). */
        g_autofree char *waf = r->status ? g_strdup("FAILED") : cli_table_num("%.4f", r->waf);
        g_autofree char *se = cli_table_num("%.4f", r->waf_stderr);
        g_autofree char *th = cli_table_num("%.4f", r->waf_model);
        g_autofree char *d = cli_table_num("%+.2f", r->diff_pct);
        g_autofree char *drift = cli_table_num("%+.2f", r->drift_pct);
        switch (pt->section) {
        case SSDSIM_VALIDATE_UNIFORM:
            cli_table_row(&t[pt->section], 9, pol, b, sf, waf, se, th, d, drift,
                          verdicts[r->verdict]);
            break;
        case SSDSIM_VALIDATE_HOTCOLD: {
            g_autofree char *ref = cli_table_num("%.4f", r->waf_reference);
            g_autofree char *dref = cli_table_num("%+.2f", r->diff_reference_pct);
            cli_table_row(&t[pt->section], 9, traffic, pt->setup, sf, waf, se, th, d, ref, dref);
            break;
        }
        case SSDSIM_VALIDATE_DEVIATION: {
            g_autofree char *unused = cli_table_num("%.2f", r->unused_blocks);
            g_autofree char *sfe = cli_table_num("%.5f", r->spare_factor_eff);
            g_autofree char *the = cli_table_num("%.4f", r->waf_model_eff);
            g_autofree char *de = cli_table_num("%+.2f", r->diff_eff_pct);
            cli_table_row(&t[pt->section], 10, pt->setup, blocks, sf, waf, th, d, unused, sfe, the,
                          de);
            break;
        }
        default:
            break;
        }
    }
}

static char *tables_text(const struct validate *v, bool markdown)
{
    struct cli_table t[SSDSIM_VALIDATE_N_SECTIONS];
    tables_build(v, t);
    GString *out = g_string_new(NULL);
    for (int s = 0; s < SSDSIM_VALIDATE_N_SECTIONS; s++) {
        cli_table_print(out, &t[s], markdown);
        cli_table_clear(&t[s]);
    }
    return g_string_free(out, FALSE);
}

/* ------------------------------------------------------------------------------------------ */
/* JSON                                                                                        */

static void add_num(cJSON *o, const char *key, double x)
{
    if (isfinite(x))
        cJSON_AddNumberToObject(o, key, x);
    else
        cJSON_AddNullToObject(o, key);
}

/* A string, or null when it is empty. */
static void add_str(cJSON *o, const char *key, const char *s)
{
    if (s && *s)
        cJSON_AddStringToObject(o, key, s);
    else
        cJSON_AddNullToObject(o, key);
}

static char *results_json(const struct validate *v)
{
    cJSON *root = cJSON_CreateObject();
    cJSON_AddStringToObject(root, "command", "validate waf");
    cJSON_AddStringToObject(root, "version", ssdsim_version());
    cJSON_AddNumberToObject(root, "seed", (double)v->opts.seed);
    cJSON_AddBoolToObject(root, "quick", v->opts.quick);
    cJSON_AddNumberToObject(root, "tolerance_pct", SSDSIM_VALIDATE_TOLERANCE_PCT);
    cJSON_AddNumberToObject(root, "warmup_trips", v->opts.warmup_trips);
    cJSON_AddNumberToObject(root, "batches", v->opts.n_batches);
    cJSON_AddNumberToObject(root, "iodepth", SSDSIM_VALIDATE_IODEPTH);
    cJSON *arr = cJSON_AddArrayToObject(root, "points");
    for (guint i = 0; i < v->points->len; i++) {
        const struct vpoint *vp = &g_array_index(v->points, struct vpoint, i);
        const ssdsim_validate_point *p = &vp->pt;
        const ssdsim_validate_result *r = &vp->r;
        cJSON *o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "section", ssdsim_validate_section_name(p->section));
        cJSON_AddStringToObject(o, "label", p->label);
        cJSON_AddStringToObject(o, "setup", p->setup);
        cJSON_AddStringToObject(o, "policy", p->policy);
        add_num(o, "param", p->param > 0 ? p->param : NAN);
        cJSON_AddNumberToObject(o, "pages_per_block", p->pages_per_block);
        cJSON_AddNumberToObject(o, "spare_factor_requested", p->spare_factor);
        add_num(o, "spare_factor", r->spare_factor);
        add_num(o, "op", r->op);
        cJSON_AddNumberToObject(o, "blocks", p->n_blocks);
        cJSON_AddNumberToObject(o, "planes", p->n_planes);
        cJSON_AddNumberToObject(o, "free_blocks_min", p->free_blocks_min);
        cJSON_AddBoolToObject(o, "gc_separate", p->gc_separate);
        cJSON_AddBoolToObject(o, "hot_cold", p->hot_cold);
        add_num(o, "hot_window", p->hot_cold ? p->hot_window : NAN);
        add_num(o, "hot_write_fraction", p->hot_write_pct ? p->hot_write_pct / 100.0 : NAN);
        add_num(o, "hot_space_fraction", p->hot_write_pct ? p->hot_space_pct / 100.0 : NAN);
        cJSON_AddNumberToObject(o, "seed", (double)p->seed);
        cJSON_AddNumberToObject(o, "logical_pages", (double)r->logical_pages);
        cJSON_AddNumberToObject(o, "warmup_host_pages", (double)r->warmup_host_pages);
        cJSON_AddNumberToObject(o, "batch_host_pages", (double)r->batch_host_pages);
        cJSON_AddNumberToObject(o, "host_pages", (double)r->host_pages);
        cJSON_AddNumberToObject(o, "flash_pages", (double)r->flash_pages);
        add_num(o, "waf_sim", r->waf);
        add_num(o, "waf_sim_stderr", r->waf_stderr);
        add_num(o, "drift_pct", r->drift_pct);
        add_num(o, "free_blocks_mean", r->free_blocks_mean);
        add_num(o, "unused_blocks", r->unused_blocks);
        add_num(o, "spare_factor_eff", r->spare_factor_eff);
        add_str(o, "model", r->model);
        add_num(o, "waf_model", r->waf_model);
        add_num(o, "diff_pct", r->diff_pct);
        add_num(o, "waf_model_eff", r->waf_model_eff);
        add_num(o, "diff_eff_pct", r->diff_eff_pct);
        add_num(o, "hot_spare_share", r->hot_spare_share);
        add_str(o, "reference", r->reference);
        add_num(o, "waf_reference", r->waf_reference);
        add_num(o, "diff_reference_pct", r->diff_reference_pct);
        if (r->verdict == SSDSIM_VALIDATE_WITHIN || r->verdict == SSDSIM_VALIDATE_OUTSIDE)
            cJSON_AddBoolToObject(o, "within_tolerance", r->verdict == SSDSIM_VALIDATE_WITHIN);
        else
            cJSON_AddNullToObject(o, "within_tolerance");
        add_str(o, "error", r->status ? r->error : NULL);
        cJSON_AddItemToArray(arr, o);
    }
    char *text = cJSON_Print(root);
    cJSON_Delete(root);
    return text;
}

/* ------------------------------------------------------------------------------------------ */
/* The command                                                                                 */

/* Build the grid, run it, print and write the results. */
static int validate_run(struct validate *v)
{
    int rc = grid_build(v);
    if (rc)
        return rc;
    gint64 t0 = g_get_monotonic_time();
    if (!v->quiet)
        fprintf(stderr, "validate waf: %u points, %u worker processes, seed %" PRIu64 "\n",
                v->points->len, (unsigned)MIN(v->jobs, (uint64_t)v->points->len), v->opts.seed);
    /* SIGINT and SIGTERM are passed on to the workers, which end at once, and no more start;
     * the failures of the points they were running are not shown. Interrupted, validate
     * prints and writes nothing: tables and a verdict over part of the grid would read as the
     * whole. */
    cli_interrupt_install(false);
    cli_interrupt_mute(true);
    size_t failed = run_points(v);
    cli_interrupt_default();
    cli_interrupt_mute(false);
    if (cli_interrupted) {
        cli_error("validate: interrupted by %s after %zu of %u points: nothing written",
                  cli_interrupt_name(), v->done - v->failed, v->points->len);
        return cli_interrupt_status();
    }
    g_autofree char *text = tables_text(v, false);
    fputs(text, stdout);
    printf("%u points, %zu failed, %.1f s wall time\n", v->points->len, failed,
           (g_get_monotonic_time() - t0) / 1e6);
    fflush(stdout);
    rc = failed ? CLI_EXIT_FAIL : 0;
    if (v->md_out) {
        g_autofree char *md = tables_text(v, true);
        size_t len = strlen(md);
        if (len && md[len - 1] == '\n')
            md[len - 1] = 0; /* cli_write_file ends the text with a newline */
        if (cli_write_file(v->md_out, md))
            rc = CLI_EXIT_FAIL;
    }
    if (v->json_out) {
        char *json = results_json(v);
        if (!json || cli_write_file(v->json_out, json))
            rc = CLI_EXIT_FAIL;
        free(json);
    }
    if (failed)
        cli_error("validate: %zu of %u points failed", failed, v->points->len);
    return rc;
}

int cli_validate(int argc, char **argv)
{
    struct validate v;
    int rc = validate_parse(argc, argv, &v);
    /* outputs checked before the points run, not after */
    int bad = rc < 0 && v.json_out ? cli_output_check(v.json_out) : 0;
    if (!bad && rc < 0 && v.md_out)
        bad = cli_output_check(v.md_out);
    if (bad)
        rc = bad;
    const char *names[] = {"--json", "--markdown"}, *paths[] = {v.json_out, v.md_out};
    if (rc < 0 && cli_outputs_distinct(names, paths, 2))
        rc = CLI_EXIT_USAGE;
    if (rc < 0)
        rc = validate_run(&v);
    for (size_t i = 0; i < v.opts.n_policies; i++)
        g_free(v.policies[i]);
    if (v.points)
        g_array_unref(v.points);
    return rc;
}
