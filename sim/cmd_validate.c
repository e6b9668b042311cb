/* cmd_validate.c: `ssdsim validate waf`: the simulator's steady-state write amplification against
 * the analytic models of ssdsim/sys/gc.h (ssdsim_theory_waf, ssdsim_theory_hotcold_waf).
 *
 * Each point builds a device that meets the models' assumptions as closely as the simulator
 * allows: one plane of thousands of blocks, the smallest free-block reserve, GC copies written
 * with the host's data so that there is one write frontier. It fills the device sequentially,
 * warms it up with uniform random 4 KiB writes for a number of "trips" (a trip programs every
 * physical page once: the time in which the block population renews itself, whatever the WAF),
 * then measures a further run split into batches. The WAF is programmed / host-written pages over
 * all batches; the batches' spread gives a standard error and the change from the first half to
 * the second a drift check (is it steady?). Three sections:
 *   uniform    the models' own setting, where agreement within 2% is expected;
 *   hotcold    80/20 and 90/10 traffic ("zoned" random distribution) against Desnoyers'
 *              segregated-pool model, with and without the FTL's hot/cold separation;
 *   deviation  setups that break one assumption on purpose (a separate GC frontier, a large
 *              free-block reserve, many planes, few blocks). There the model is also evaluated
 *              at the effective spare factor, after the blocks the simulator keeps empty.
 *
 * Points run in worker processes (fork, at most --jobs alive) that send their figures back
 * through a pipe. A point's seed derives from the base seed and the point's label, so its result
 * depends neither on the rest of the grid nor on --jobs, and the JSON and Markdown outputs are
 * byte-identical from run to run (wall-clock times go to the terminal only).
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cJSON.h>
#include <glib.h>

#include "cli.h"
#include "ssdsim/sys/gc.h"

/* Agreement expected where the models' assumptions hold, in percent. */
#define TOLERANCE_PCT 2.0
/* Seeds stay below 2^53 so that every JSON reader reads them exactly. */
#define SEED_LIMIT (UINT64_C(1) << 53)
#define PAGE_BYTES 4096u
#define MAX_LIST 32
#define MAX_BATCHES 16
/* Host writes the jobs keep outstanding. The WAF does not depend on it: mappings change when a
 * write is placed, not when its program completes. */
#define IODEPTH 8

enum section { SEC_UNIFORM, SEC_HOTCOLD, SEC_DEVIATION, N_SECTIONS };
static const char *const section_names[N_SECTIONS] = {"uniform", "hotcold", "deviation"};

/* Run lengths, in trips (see the top of the file). */
struct plan {
    uint32_t warm_trips;
    uint32_t batches; /* measured batches of one trip each (hot/cold: longer, see point_run) */
};

/* What a worker sends back: plain data, written in one write(2) to a pipe (well under the
 * pipe's capacity, so a worker never blocks on a parent that waits for it to exit). */
struct vresult {
    int status; /* 0, or the negative SSDSIM_E* code of the failure */
    char error[240];
    double sf; /* the device's spare factor, (physical - logical) / physical */
    double op; /* the device's over-provisioning, (physical - logical) / logical */
    uint64_t logical_pages, host_pages, flash_pages, warm_host_pages, batch_host_pages;
    double waf, waf_se, drift_pct, free_mean;
};

/* One point of the grid: its set-up, its result and the models' figures. */
struct vpoint {
    enum section section;
    char label[112]; /* unique; also seeds the point */
    char setup[48];  /* what the point changes, for the tables ("" in the uniform section) */
    char policy[24]; /* gc.policy */
    double param;    /* d-choices: d; windowed: the window in blocks; otherwise 0 */
    uint32_t ppb, planes, blocks; /* blocks: over all planes */
    double sf;                    /* requested spare factor */
    uint32_t reserve;             /* gc.free_blocks_min */
    bool separate, hot_cold;
    double hot_window;
    uint32_t f_pct, h_pct; /* hot/cold traffic: f% of the writes to h% of the space; 0 = uniform */
    uint64_t seed;
    double est_waf; /* for sizing the runs only */
    struct vresult r;
    /* The model the point is judged against (NULL: none), at the device's spare factor and at
     * the effective one; the reference is the same policy's uniform-traffic model. */
    const char *model;
    double theory, theory_eff, sf_eff, unused_blocks, hot_share;
    const char *reference;
    double theory_ref;
};

struct validate {
    bool quick, quiet;
    bool sections[N_SECTIONS];
    char *policies[MAX_LIST];
    int n_policies;
    double sfs[MAX_LIST];
    int n_sfs;
    uint32_t ppbs[MAX_LIST];
    int n_ppbs;
    uint64_t blocks, seed, jobs;
    const char *json_out, *md_out;
    struct plan plan;
    GArray *points; /* struct vpoint */
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
            "  --quiet                no progress lines on standard error\n"
            "  --help                 this help\n",
            g_get_num_processors());
}

/* ------------------------------------------------------------------------------------------ */
/* Options                                                                                     */

static bool parse_double(const char *s, double *out)
{
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (end == s || *end || errno || !isfinite(v))
        return false;
    *out = v;
    return true;
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
    double x;
    if (v->n_sfs == MAX_LIST || !parse_double(s, &x) || !(x > 0.0 && x < 1.0))
        return false;
    v->sfs[v->n_sfs++] = x;
    return true;
}

static bool add_ppb(struct validate *v, const char *s)
{
    uint64_t x;
    if (v->n_ppbs == MAX_LIST || !cli_parse_u64(s, &x) || x < 2 || x > 4096)
        return false;
    v->ppbs[v->n_ppbs++] = (uint32_t)x;
    return true;
}

static bool add_section(struct validate *v, const char *s)
{
    for (int i = 0; i < N_SECTIONS; i++) {
        if (!strcmp(s, section_names[i])) {
            v->sections[i] = true;
            return true;
        }
    }
    return false;
}

/* A policy spec: NAME, or NAME:PARAM for d-choices (d) and windowed (blocks). */
static bool add_policy(struct validate *v, const char *s)
{
    static const char *const known[] = {"greedy",    "fifo",     "random",
                                        "d-choices", "windowed", "cost-benefit"};
    const char *colon = strchr(s, ':');
    size_t n = colon ? (size_t)(colon - s) : strlen(s);
    bool ok = false, takes_param = false;
    for (size_t i = 0; i < G_N_ELEMENTS(known); i++) {
        if (strlen(known[i]) == n && !strncmp(s, known[i], n)) {
            ok = true;
            takes_param = i == 3 || i == 4;
        }
    }
    uint64_t x;
    if (!ok || v->n_policies == MAX_LIST ||
        (colon && (!takes_param || !cli_parse_u64(colon + 1, &x) || x < 1 || x > 1048576)))
        return false;
    v->policies[v->n_policies++] = g_strdup(s);
    return true;
}

/* Returns -1 to go on, or an exit status. */
static int validate_parse(int argc, char **argv, struct validate *v)
{
    memset(v, 0, sizeof *v);
    v->seed = 1;
    v->blocks = 4096;
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
            v->quick = true;
            continue;
        }
        if (!strcmp(name, "--quiet") || !strcmp(name, "-q")) {
            v->quiet = true;
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
        if (!val) {
            if (i + 1 >= argc) {
                cli_error("validate: option '%s' needs a value", name);
                return CLI_EXIT_USAGE;
            }
            val = argv[++i];
        }
        /* The comma lists (--section, --policy, --sf, --ppb) add up when repeated. */
        static const char *const single[] = {"--blocks", "--json", "--markdown", "--seed",
                                             "--jobs"};
        for (size_t k = 0; k < G_N_ELEMENTS(single); k++)
            if (!strcmp(name, single[k]) && cli_once("validate", name, &seen))
                return CLI_EXIT_USAGE;
        const char *why = NULL;
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
            if (!cli_parse_u64(val, &v->blocks) || v->blocks < 64 || v->blocks > 1048576)
                why = "an integer from 64 to 1048576";
        } else if (!strcmp(name, "--json")) {
            v->json_out = val;
        } else if (!strcmp(name, "--markdown")) {
            v->md_out = val;
        } else if (!strcmp(name, "--seed")) {
            if (!cli_parse_u64(val, &v->seed) || v->seed >= SEED_LIMIT)
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
        for (int s = 0; s < N_SECTIONS; s++)
            v->sections[s] = v->n_policies == 0 || s == SEC_UNIFORM;
    return -1;
}

/* ------------------------------------------------------------------------------------------ */
/* The grid                                                                                    */

#define FNV_OFFSET UINT64_C(0xcbf29ce484222325)
#define FNV_PRIME UINT64_C(0x100000001b3)

static uint64_t point_seed(uint64_t base, const char *label)
{
    uint64_t h = FNV_OFFSET;
    for (int i = 0; i < 8; i++) {
        h ^= (base >> (8 * i)) & 0xff;
        h *= FNV_PRIME;
    }
    for (const char *s = label; *s; s++) {
        h ^= (unsigned char)*s;
        h *= FNV_PRIME;
    }
    return h % SEED_LIMIT;
}

/* A point with the defaults of the models' setting. */
static struct vpoint base_point(enum section sec, const char *policy, uint32_t ppb, double sf,
                                uint32_t blocks)
{
    struct vpoint p;
    memset(&p, 0, sizeof p);
    p.section = sec;
    snprintf(p.policy, sizeof p.policy, "%s", policy);
    p.ppb = ppb;
    p.sf = sf;
    p.blocks = blocks;
    p.planes = 1;
    /* The smallest reserve the configuration takes; the FTL raises it to what keeps GC able to
     * run (the reserve it holds back for GC copies, plus one). */
    p.reserve = 1;
    p.hot_window = 1.0;
    return p;
}

static void add_point(struct validate *v, struct vpoint *p)
{
    p->seed = point_seed(v->seed, p->label);
    g_array_append_val(v->points, *p);
}

/* "d-choices:2" -> policy and parameter; "windowed" -> 1/8 of the plane's blocks. */
static void policy_of(const char *spec, uint32_t blocks_per_plane, char *name, size_t len,
                      double *param)
{
    const char *colon = strchr(spec, ':');
    snprintf(name, len, "%.*s", colon ? (int)(colon - spec) : (int)strlen(spec), spec);
    *param = colon ? strtod(colon + 1, NULL) : 0.0;
    if (!colon && !strcmp(name, "windowed"))
        *param = floor(blocks_per_plane / 8.0 + 0.5);
    if (!colon && !strcmp(name, "d-choices"))
        *param = 2.0; /* the caller expands plain d-choices into d = 2 and d = 10 */
}

static void policy_label(char *buf, size_t len, const char *name, double param)
{
    if (!strcmp(name, "d-choices"))
        snprintf(buf, len, "d-choices d=%g", param);
    else if (!strcmp(name, "windowed"))
        snprintf(buf, len, "windowed w=%g", param);
    else
        snprintf(buf, len, "%s", name);
}

static void grid_uniform(struct validate *v)
{
    static const char *const def_full[] = {"greedy",       "fifo",     "random",      "d-choices:2",
                                           "d-choices:10", "windowed", "cost-benefit"};
    static const char *const def_quick[] = {"greedy",      "fifo",         "random",
                                            "d-choices:2", "d-choices:10", "windowed"};
    GPtrArray *specs = g_ptr_array_new_with_free_func(g_free);
    if (v->n_policies) {
        for (int i = 0; i < v->n_policies; i++) {
            if (!strcmp(v->policies[i], "d-choices")) {
                g_ptr_array_add(specs, g_strdup("d-choices:2"));
                g_ptr_array_add(specs, g_strdup("d-choices:10"));
            } else {
                g_ptr_array_add(specs, g_strdup(v->policies[i]));
            }
        }
    } else if (v->quick) {
        for (size_t i = 0; i < G_N_ELEMENTS(def_quick); i++)
            g_ptr_array_add(specs, g_strdup(def_quick[i]));
    } else {
        for (size_t i = 0; i < G_N_ELEMENTS(def_full); i++)
            g_ptr_array_add(specs, g_strdup(def_full[i]));
    }
    for (guint i = 0; i < specs->len; i++) {
        for (int b = 0; b < v->n_ppbs; b++) {
            for (int s = 0; s < v->n_sfs; s++) {
                struct vpoint p =
                    base_point(SEC_UNIFORM, "", v->ppbs[b], v->sfs[s], (uint32_t)v->blocks);
                policy_of(specs->pdata[i], p.blocks, p.policy, sizeof p.policy, &p.param);
                char pl[48];
                policy_label(pl, sizeof pl, p.policy, p.param);
                snprintf(p.label, sizeof p.label, "uniform %s b=%u sf=%g", pl, p.ppb, p.sf);
                add_point(v, &p);
            }
        }
    }
    g_ptr_array_unref(specs);
}

/* Hot/cold: f% of the writes to h% of the space. "separated" is the FTL's hot/cold separation
 * (ftl.hot_cold, two host frontiers; GC copies go back to their own class) with greedy and with
 * cost-benefit; "mixed" is one pool without it. */
static void grid_hotcold(struct validate *v)
{
    static const uint32_t traffic_full[][2] = {{80, 20}, {90, 10}};
    static const double sf_full[] = {0.1, 0.2, 0.3};
    static const double windows[] = {0.25, 0.5, 2.0, 4.0};
    static const struct {
        const char *policy, *setup;
        bool hot_cold;
    } variants[] = {
        {"greedy", "separated", true},
        {"cost-benefit", "separated", true},
        {"greedy", "mixed", false},
        {"fifo", "mixed", false},
    };
    uint32_t ppb = 64;
    size_t n_traffic = v->quick ? 1 : G_N_ELEMENTS(traffic_full);
    size_t n_sf = v->quick ? 1 : G_N_ELEMENTS(sf_full);
    size_t n_var = v->quick ? 1 : G_N_ELEMENTS(variants);
    for (size_t t = 0; t < n_traffic; t++) {
        for (size_t k = 0; k < n_var; k++) {
            for (size_t s = 0; s < n_sf; s++) {
                double sf = v->quick ? 0.2 : sf_full[s];
                struct vpoint p =
                    base_point(SEC_HOTCOLD, variants[k].policy, ppb, sf, (uint32_t)v->blocks);
                p.f_pct = traffic_full[t][0];
                p.h_pct = traffic_full[t][1];
                p.hot_cold = variants[k].hot_cold;
                snprintf(p.setup, sizeof p.setup, "%s, %s", variants[k].policy, variants[k].setup);
                snprintf(p.label, sizeof p.label, "hotcold %u/%u %s b=%u sf=%g", p.f_pct, p.h_pct,
                         p.setup, ppb, sf);
                add_point(v, &p);
            }
        }
    }
    if (v->quick)
        return;
    /* How much the choice of ftl.hot_window matters (1.0, the default here, is above). */
    for (size_t i = 0; i < G_N_ELEMENTS(windows); i++) {
        struct vpoint p = base_point(SEC_HOTCOLD, "greedy", ppb, 0.2, (uint32_t)v->blocks);
        p.f_pct = 80;
        p.h_pct = 20;
        p.hot_cold = true;
        p.hot_window = windows[i];
        snprintf(p.setup, sizeof p.setup, "greedy, separated, hot_window %g", windows[i]);
        snprintf(p.label, sizeof p.label, "hotcold 80/20 %s b=%u sf=0.2", p.setup, ppb);
        add_point(v, &p);
    }
}

/* Set-ups that break one assumption each, with greedy at b = 64. */
static void grid_deviation(struct validate *v)
{
    static const double sf_full[] = {0.1, 0.2};
    uint32_t ppb = 64, n = (uint32_t)v->blocks;
    size_t n_sf = v->quick ? 1 : G_N_ELEMENTS(sf_full);
    for (size_t s = 0; s < n_sf; s++) {
        double sf = v->quick ? 0.2 : sf_full[s];
        struct vpoint list[8];
        int k = 0;
        list[k] = base_point(SEC_DEVIATION, "greedy", ppb, sf, n);
        list[k].separate = true;
        snprintf(list[k++].setup, sizeof list[0].setup, "GC frontier (gc.separate)");
        if (!v->quick) {
            uint32_t reserves[] = {16, 64};
            for (int i = 0; i < 2; i++) {
                list[k] = base_point(SEC_DEVIATION, "greedy", ppb, sf, n);
                list[k].reserve = reserves[i];
                snprintf(list[k++].setup, sizeof list[0].setup, "reserve %u blocks", reserves[i]);
            }
            uint32_t planes[] = {8, 64};
            for (int i = 0; i < 2; i++) {
                if (n / planes[i] < 16)
                    continue;
                list[k] = base_point(SEC_DEVIATION, "greedy", ppb, sf, n / planes[i] * planes[i]);
                list[k].planes = planes[i];
                snprintf(list[k++].setup, sizeof list[0].setup, "%u planes x %u blocks", planes[i],
                         n / planes[i]);
            }
            uint32_t small[] = {256, 1024};
            for (int i = 0; i < 2; i++) {
                list[k] = base_point(SEC_DEVIATION, "greedy", ppb, sf, small[i]);
                snprintf(list[k++].setup, sizeof list[0].setup, "%u blocks", small[i]);
            }
        }
        for (int i = 0; i < k; i++) {
            snprintf(list[i].label, sizeof list[i].label, "deviation %s %s b=%u sf=%g",
                     list[i].setup, list[i].policy, ppb, sf);
            add_point(v, &list[i]);
        }
    }
}

/* ------------------------------------------------------------------------------------------ */
/* Models                                                                                      */

static const char *model_name(const struct vpoint *p)
{
    if (p->section == SEC_HOTCOLD)
        return p->hot_cold ? "Desnoyers hot/cold, optimal spare split, greedy pools" : NULL;
    if (!strcmp(p->policy, "greedy"))
        return "greedy mean field (Bux-Iliadis, Van Houdt)";
    if (!strcmp(p->policy, "fifo"))
        return "FIFO (Desnoyers; Xiang-Kurkoski)";
    if (!strcmp(p->policy, "random"))
        return "random: 1 / spare factor";
    if (!strcmp(p->policy, "d-choices"))
        return "d-choices mean field (Van Houdt)";
    if (!strcmp(p->policy, "windowed"))
        return "windowed greedy mean field (ssdsim's derivation)";
    return NULL;
}

/* The point's model at spare factor `sf`: 0, or a negative code (no model). */
static int model_waf(const struct vpoint *p, double sf, double *waf, double *hot_share)
{
    if (!model_name(p))
        return SSDSIM_ENOTFOUND;
    if (p->section == SEC_HOTCOLD)
        return ssdsim_theory_hotcold_waf(sf, p->f_pct / 100.0, p->h_pct / 100.0, p->ppb, waf,
                                         hot_share);
    double param = p->param;
    if (!strcmp(p->policy, "windowed"))
        param = MIN(1.0, p->param / (double)(p->blocks / p->planes)); /* the model takes w/N */
    return ssdsim_theory_waf(p->policy, p->ppb, sf, param, waf);
}

/* The same policy's model under uniform traffic (cost-benefit has none: greedy stands in). */
static int reference_waf(const struct vpoint *p, double sf, double *waf, const char **name)
{
    const char *pol = !strcmp(p->policy, "cost-benefit") ? "greedy" : p->policy;
    *name = !strcmp(pol, "greedy") ? "uniform-traffic greedy"
            : !strcmp(pol, "fifo") ? "uniform-traffic FIFO"
                                   : "uniform-traffic model";
    return ssdsim_theory_waf(pol, p->ppb, sf, 0.0, waf);
}

/* Before running: the model at the requested spare factor, used to size the runs. */
static void point_prepare(struct vpoint *p)
{
    double w = NAN;
    const char *name;
    if (model_waf(p, p->sf, &w, NULL) != 0 && reference_waf(p, p->sf, &w, &name) != 0)
        w = 1.0 / p->sf;
    p->est_waf = isfinite(w) && w >= 1.0 ? w : 1.0 / p->sf;
}

/* Write frontiers of a plane (host; hot when separating; GC's own when gc.separate). */
static uint32_t frontiers(const struct vpoint *p)
{
    return p->planes * (1u + (p->hot_cold ? 1u : 0u) + (p->separate ? 1u : 0u));
}

/* After running: the models at the device's spare factor and at the effective one. The model
 * has one write frontier and no free block; the simulator also keeps the reserve free (its mean
 * is measured) and every further frontier is half empty on average. */
static void point_models(struct vpoint *p)
{
    p->model = model_name(p);
    p->theory = p->theory_eff = p->theory_ref = p->hot_share = NAN;
    p->unused_blocks = p->r.free_mean + 0.5 * (frontiers(p) - 1.0);
    p->sf_eff = p->r.sf - p->unused_blocks / p->blocks;
    if (p->r.status != 0)
        return;
    if (p->model && model_waf(p, p->r.sf, &p->theory, &p->hot_share) != 0)
        p->theory = NAN;
    if (p->model && (!(p->sf_eff > 0.0) || model_waf(p, p->sf_eff, &p->theory_eff, NULL) != 0))
        p->theory_eff = NAN;
    if (p->section == SEC_HOTCOLD && reference_waf(p, p->r.sf, &p->theory_ref, &p->reference))
        p->theory_ref = NAN;
}

static double diff_pct(double sim, double model)
{
    return isfinite(model) && model > 0.0 ? 100.0 * (sim / model - 1.0) : NAN;
}

/* ------------------------------------------------------------------------------------------ */
/* One point (in a worker process)                                                             */

static void fail(struct vresult *r, int code, const char *fmt, ...) G_GNUC_PRINTF(3, 4);

static void fail(struct vresult *r, int code, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(r->error, sizeof r->error, fmt, ap);
    va_end(ap);
    r->status = code < 0 ? code : SSDSIM_EINVAL;
}

/* A generic SLC-like device (timing hardly changes the WAF) with the point's geometry: planes
 * as channels of one die each, so that every plane is a GC pool of its own. */
static char *model_json(const struct vpoint *p)
{
    GString *s = g_string_new(NULL);
    g_string_append_printf(
        s,
        "{\"name\": \"validate\", \"geometry\": {\"channels\": %u, \"chips_per_channel\": 1, "
        "\"dies_per_chip\": 1, \"planes_per_die\": 1, \"blocks_per_plane\": %u, "
        "\"pages_per_block\": %u, \"page_size\": %u}, "
        "\"flash\": {\"cell\": \"slc\", \"read_us\": 25, \"program_us\": 250, \"erase_us\": 2000, "
        "\"bus_mts\": 200, \"bus_width\": 8}, "
        "\"controller\": {\"cmd_overhead_us\": 4, \"cores\": 4, \"queue_depth\": 256}, "
        "\"host\": {\"link_bw\": \"2000MB/s\", \"cmd_overhead_us\": 2}, "
        "\"ftl\": {\"type\": \"page\", \"op\": %.17g, \"hot_cold\": %s, \"hot_window\": %.17g}, "
        "\"gc\": {\"policy\": \"%s\", \"free_blocks_min\": %u, \"separate\": %s",
        p->planes, p->blocks / p->planes, p->ppb, PAGE_BYTES, p->sf / (1.0 - p->sf),
        p->hot_cold ? "true" : "false", p->hot_window, p->policy, p->reserve,
        p->separate ? "true" : "false");
    if (!strcmp(p->policy, "d-choices"))
        g_string_append_printf(s, ", \"d\": %.0f", p->param);
    else if (!strcmp(p->policy, "windowed"))
        g_string_append_printf(s, ", \"window\": %.0f", p->param);
    g_string_append(s, "}}");
    return g_string_free(s, FALSE);
}

/* Run `n` uniform random (or zoned) 4 KiB writes; 0 or the failure code. */
static int write_run(ssdsim *sim, const struct vpoint *p, uint64_t n, uint64_t interval_ios,
                     struct vresult *r)
{
    char dist[64] = "random";
    if (p->f_pct)
        snprintf(dist, sizeof dist, "zoned:%u/%u:%u/%u", p->f_pct, p->h_pct, 100 - p->f_pct,
                 100 - p->h_pct);
    ssdsim_workload *wl = NULL;
    ssdsim_error err;
    int rc = ssdsim_workload_new(&wl, "validate", &err);
    if (!rc)
        rc = ssdsim_workload_set(wl, "rw", "randwrite", &err);
    if (!rc)
        rc = ssdsim_workload_set_bool(wl, "norandommap", true, &err);
    if (!rc)
        rc = ssdsim_workload_set(wl, "bs", "4k", &err);
    if (!rc)
        rc = ssdsim_workload_set_int(wl, "iodepth", IODEPTH, &err);
    if (!rc)
        rc = ssdsim_workload_set_int(wl, "numjobs", 1, &err);
    if (!rc)
        rc = ssdsim_workload_set_int(wl, "number_ios", (int64_t)(n ? n : 1), &err);
    if (!rc)
        rc = ssdsim_workload_set(wl, "random_distribution", dist, &err);
    if (rc) {
        ssdsim_workload_free(wl);
        fail(r, rc, "workload: %s", err.message);
        return rc;
    }
    ssdsim_run_opts opts = {.interval_ios = interval_ios};
    rc = ssdsim_run(sim, wl, &opts);
    if (rc)
        fail(r, rc, "%s", ssdsim_errmsg(sim));
    ssdsim_workload_free(wl);
    return rc;
}

/* Host writes of the warm-up and of each measured batch. A trip, in host writes, is the
 * physical pages over the expected WAF. Hot/cold traffic renews its cold data more slowly: a
 * cold page is rewritten every (1 - h) / (1 - f) logical capacities, so the warm-up covers three
 * such periods and each batch a quarter of one. */
static void run_sizes(const struct vpoint *p, const struct plan *plan, uint64_t logical,
                      uint64_t *warm, uint64_t *batch)
{
    uint64_t trip = (uint64_t)ceil((double)p->blocks * p->ppb / p->est_waf);
    *warm = plan->warm_trips * trip;
    *batch = trip;
    if (p->f_pct) {
        double cold = (100.0 - p->h_pct) / (100.0 - p->f_pct) * (double)logical;
        *warm = MAX(*warm, (uint64_t)ceil(3.0 * cold));
        *batch = MAX(*batch, (uint64_t)ceil(cold / 4.0));
    }
}

/* Expected flash programs of a point, to start the longest points first. */
static double point_cost(const struct vpoint *p, const struct plan *plan)
{
    uint64_t warm, batch;
    run_sizes(p, plan, (uint64_t)((double)p->blocks * p->ppb * (1.0 - p->sf)), &warm, &batch);
    return (double)(warm + plan->batches * batch) * p->est_waf;
}

struct run_order {
    double cost;
    size_t index;
};

/* Longest first; grid order among equals, so the order is deterministic. */
static int cmp_run_order(const void *a, const void *b)
{
    const struct run_order *x = a, *y = b;
    if (x->cost != y->cost)
        return x->cost > y->cost ? -1 : 1;
    return (x->index > y->index) - (x->index < y->index);
}

static void point_run(const struct vpoint *p, const struct plan *plan, struct vresult *r)
{
    memset(r, 0, sizeof *r);
    ssdsim_model *m = NULL;
    ssdsim *sim = NULL;
    ssdsim_error err;
    char *json = model_json(p);
    int rc = ssdsim_model_load_string(&m, json, "validate", &err);
    g_free(json);
    if (rc) {
        fail(r, rc, "%s", err.message);
        goto out;
    }
    rc = ssdsim_new(&sim, m, p->seed, &err);
    if (rc) {
        fail(r, rc, "%s", err.message);
        goto out;
    }
    uint64_t logical = ssdsim_model_logical_bytes(m) / PAGE_BYTES, warm, batch;
    r->logical_pages = logical;
    run_sizes(p, plan, logical, &warm, &batch);
    r->warm_host_pages = warm;
    r->batch_host_pages = batch;
    if ((rc = ssdsim_precondition_seq(sim)) != 0) {
        fail(r, rc, "precondition: %s", ssdsim_errmsg(sim));
        goto out;
    }
    if (write_run(sim, p, warm, 0, r))
        goto out;
    double wafs[MAX_BATCHES], free_sum = 0.0;
    uint64_t n_free_samples = 0;
    uint32_t nb = MIN(plan->batches, MAX_BATCHES);
    for (uint32_t i = 0; i < nb; i++) {
        if (write_run(sim, p, batch, MAX(batch / 16, 1), r))
            goto out;
        ssdsim_device_stats d;
        ssdsim_get_device_stats(sim, &d);
        r->host_pages += d.host_pages_written;
        r->flash_pages += d.flash_pages_programmed;
        wafs[i] = d.waf;
        r->sf = d.spare_factor;
        r->op = d.op;
        for (size_t k = 0; k < ssdsim_n_intervals(sim); k++) {
            ssdsim_interval iv;
            if (ssdsim_get_interval(sim, k, &iv) == 0) {
                free_sum += (double)iv.free_blocks;
                n_free_samples++;
            }
        }
    }
    r->waf = r->host_pages ? (double)r->flash_pages / (double)r->host_pages : 0.0;
    r->free_mean = n_free_samples ? free_sum / (double)n_free_samples : 0.0;
    /* Batch means: the standard error of the mean of the batches' WAFs, and the relative change
     * from the first half of the batches to the second. */
    double mean = 0.0, var = 0.0, first = 0.0, second = 0.0;
    for (uint32_t i = 0; i < nb; i++)
        mean += wafs[i] / nb;
    for (uint32_t i = 0; i < nb; i++) {
        var += (wafs[i] - mean) * (wafs[i] - mean) / (nb > 1 ? nb - 1 : 1);
        if (i < nb / 2)
            first += wafs[i] / (nb / 2);
        else if (i >= nb - nb / 2)
            second += wafs[i] / (nb / 2);
    }
    r->waf_se = nb > 1 ? sqrt(var / nb) : NAN;
    r->drift_pct = nb > 1 && mean > 0.0 ? 100.0 * (second - first) / mean : NAN;
out:
    ssdsim_free(sim);
    ssdsim_model_free(m);
}

/* ------------------------------------------------------------------------------------------ */
/* Worker processes                                                                            */

static bool write_all(int fd, const void *buf, size_t len)
{
    const char *p = buf;
    while (len > 0) {
        ssize_t w = write(fd, p, len);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return false;
        p += w;
        len -= (size_t)w;
    }
    return true;
}

static bool read_all(int fd, void *buf, size_t len)
{
    char *p = buf;
    while (len > 0) {
        ssize_t n = read(fd, p, len);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return false;
        p += n;
        len -= (size_t)n;
    }
    return true;
}

static void progress_line(const struct validate *v, size_t done, const struct vpoint *p,
                          double wall_s)
{
    /* A failed point has had its error line already. */
    if (!v->quiet && p->r.status == 0)
        fprintf(stderr, "[%zu/%u] %s: WAF %.4f (%.1f s)\n", done, v->points->len, p->label,
                p->r.waf, wall_s);
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/* The pool's view of a validation (run_points): task i is point order[i].index. */
struct validate_run {
    struct validate *v;
    const struct run_order *order;
    size_t done, failed;
};

static struct vpoint *run_point(const struct validate_run *run, size_t i)
{
    return &g_array_index(run->v->points, struct vpoint, run->order[i].index);
}

static int pool_child(void *ctx, size_t i, int fd)
{
    struct validate_run *run = ctx;
    struct vresult r;
    point_run(run_point(run, i), &run->v->plan, &r);
    return write_all(fd, &r, sizeof r) ? 0 : CLI_EXIT_FAIL;
}

static bool pool_start_failed(void *ctx, size_t i, const char *why)
{
    struct validate_run *run = ctx;
    fail(&run_point(run, i)->r, SSDSIM_EIO, "%s", why);
    run->done++, run->failed++;
    return true;
}

static void pool_done(void *ctx, size_t i, int ws, int fd, double wall_s)
{
    struct validate_run *run = ctx;
    struct vpoint *p = run_point(run, i);
    if (!read_all(fd, &p->r, sizeof p->r)) {
        memset(&p->r, 0, sizeof p->r);
        if (WIFSIGNALED(ws))
            fail(&p->r, SSDSIM_EIO, "worker killed by signal %d", WTERMSIG(ws));
        else
            fail(&p->r, SSDSIM_EIO, "worker ended without a result");
    }
    run->done++;
    if (p->r.status) {
        run->failed++;
        cli_error("validate: %s: %s", p->label, p->r.error);
    }
    progress_line(run->v, run->done, p, wall_s);
}

/* Run every point in worker processes (workers.c), at most v->jobs at a time, each sending its
 * figures back through a pipe. Returns the failed count. */
static size_t run_points(struct validate *v)
{
    size_t n = v->points->len;
    /* Longest first, so that the last worker alive is not left with a long point: the order
     * changes when a point runs, never what it computes. */
    struct run_order *order = g_new(struct run_order, n ? n : 1);
    for (size_t i = 0; i < n; i++)
        order[i] = (struct run_order){
            point_cost(&g_array_index(v->points, struct vpoint, i), &v->plan), i};
    qsort(order, n, sizeof *order, cmp_run_order);
    struct validate_run run = {v, order, 0, 0};
    struct cli_workers w = {.what = "validate",
                            .n = n,
                            .jobs = (size_t)v->jobs,
                            .pipe = true,
                            .ctx = &run,
                            .child = pool_child,
                            .done = pool_done,
                            .start_failed = pool_start_failed};
    cli_workers_run(&w);
    g_free(order);
    return run.failed;
}

/* ------------------------------------------------------------------------------------------ */
/* Tables                                                                                      */

/* A table as rows of cells, printed aligned for the terminal or as Markdown. */
struct table {
    const char *title;
    GPtrArray *rows; /* GPtrArray of char * (row 0: the header) */
};

static void row_add(struct table *t, int n, ...)
{
    GPtrArray *row = g_ptr_array_new_with_free_func(g_free);
    va_list ap;
    va_start(ap, n);
    for (int i = 0; i < n; i++)
        g_ptr_array_add(row, g_strdup(va_arg(ap, const char *)));
    va_end(ap);
    g_ptr_array_add(t->rows, row);
}

static char *fmt(const char *f, double x)
{
    return isfinite(x) ? g_strdup_printf(f, x) : g_strdup("-");
}

/* A cell that reads as a number (or stands for a missing one) is right-aligned. */
static bool numeric_cell(const char *s)
{
    char *end;
    if (!strcmp(s, "-") || !strcmp(s, "FAILED"))
        return true;
    strtod(s, &end);
    return end != s && *end == 0;
}

static void table_print(GString *out, const struct table *t, bool markdown)
{
    if (t->rows->len < 2)
        return;
    GPtrArray *head = t->rows->pdata[0];
    guint nc = head->len;
    size_t *w = g_new0(size_t, nc);
    bool *right = g_new0(bool, nc);
    for (guint c = 0; c < nc; c++)
        right[c] = true;
    for (guint r = 0; r < t->rows->len; r++) {
        GPtrArray *row = t->rows->pdata[r];
        for (guint c = 0; c < nc; c++) {
            w[c] = MAX(w[c], (size_t)g_utf8_strlen(row->pdata[c], -1));
            if (r > 0 && !numeric_cell(row->pdata[c]))
                right[c] = false;
        }
    }
    g_string_append_printf(out, markdown ? "### %s\n\n" : "%s\n", t->title);
    for (guint r = 0; r < t->rows->len; r++) {
        GPtrArray *row = t->rows->pdata[r];
        for (guint c = 0; c < nc; c++) {
            const char *cell = row->pdata[c];
            if (markdown) {
                g_string_append_printf(out, "| %s ", cell);
                continue;
            }
            /* Pad by characters, not bytes: headers hold a "±". */
            size_t pad = w[c] - (size_t)g_utf8_strlen(cell, -1);
            if (right[c])
                g_string_append_printf(out, "%*s", (int)pad, "");
            g_string_append(out, cell);
            if (!right[c])
                g_string_append_printf(out, "%*s", (int)pad, "");
            g_string_append(out, "  ");
        }
        if (markdown)
            g_string_append(out, "|");
        while (!markdown && out->len && out->str[out->len - 1] == ' ')
            g_string_truncate(out, out->len - 1);
        g_string_append_c(out, '\n');
        if (markdown && r == 0) {
            for (guint c = 0; c < nc; c++)
                g_string_append(out, right[c] ? "|---:" : "|---");
            g_string_append(out, "|\n");
        }
    }
    g_string_append_c(out, '\n');
    g_free(w);
    g_free(right);
}

static const char *verdict(const struct vpoint *p)
{
    if (p->r.status)
        return "FAILED";
    double d = diff_pct(p->r.waf, p->theory);
    if (!isfinite(d))
        return "no model";
    return fabs(d) <= TOLERANCE_PCT ? "yes" : "NO";
}

static void policy_cell(const struct vpoint *p, char *buf, size_t len)
{
    policy_label(buf, len, p->policy, p->param);
}

static void tables_build(const struct validate *v, struct table *t)
{
    for (int s = 0; s < N_SECTIONS; s++)
        t[s].rows = g_ptr_array_new_with_free_func((GDestroyNotify)g_ptr_array_unref);
    t[SEC_UNIFORM].title = "Uniform random single-page writes (1 plane, one write frontier)";
    t[SEC_HOTCOLD].title = "Hot/cold traffic (b = 64)";
    t[SEC_DEVIATION].title = "Set-ups that break an assumption (greedy, b = 64)";
    row_add(&t[SEC_UNIFORM], 9, "policy", "b", "sf", "WAF sim", "± SE", "WAF model", "diff %",
            "drift %", "within 2%");
    row_add(&t[SEC_HOTCOLD], 9, "traffic", "set-up", "sf", "WAF sim", "± SE", "Desnoyers optimal",
            "diff %", "uniform-traffic model", "diff %");
    row_add(&t[SEC_DEVIATION], 10, "set-up", "blocks", "sf", "WAF sim", "WAF model", "diff %",
            "unused blocks", "sf_eff", "model at sf_eff", "diff %");
    for (guint i = 0; i < v->points->len; i++) {
        const struct vpoint *p = &g_array_index(v->points, struct vpoint, i);
        char pol[48], b[16], sf[16], traffic[16], blocks[16];
        policy_cell(p, pol, sizeof pol);
        snprintf(b, sizeof b, "%u", p->ppb);
        snprintf(sf, sizeof sf, "%g", p->sf);
        snprintf(traffic, sizeof traffic, "%u/%u", p->f_pct, p->h_pct);
        snprintf(blocks, sizeof blocks, "%u", p->blocks);
        bool ok = p->r.status == 0;
        g_autofree char *waf = ok ? fmt("%.4f", p->r.waf) : g_strdup("FAILED");
        g_autofree char *se = ok ? fmt("%.4f", p->r.waf_se) : g_strdup("-");
        g_autofree char *th = fmt("%.4f", p->theory);
        g_autofree char *d = fmt("%+.2f", ok ? diff_pct(p->r.waf, p->theory) : NAN);
        g_autofree char *drift = ok ? fmt("%+.2f", p->r.drift_pct) : g_strdup("-");
        switch (p->section) {
        case SEC_UNIFORM:
            row_add(&t[SEC_UNIFORM], 9, pol, b, sf, waf, se, th, d, drift, verdict(p));
            break;
        case SEC_HOTCOLD: {
            g_autofree char *ref = fmt("%.4f", p->theory_ref);
            g_autofree char *dref = fmt("%+.2f", ok ? diff_pct(p->r.waf, p->theory_ref) : NAN);
            row_add(&t[SEC_HOTCOLD], 9, traffic, p->setup, sf, waf, se, th, d, ref, dref);
            break;
        }
        case SEC_DEVIATION: {
            g_autofree char *unused = ok ? fmt("%.2f", p->unused_blocks) : g_strdup("-");
            g_autofree char *sfe = ok ? fmt("%.5f", p->sf_eff) : g_strdup("-");
            g_autofree char *the = fmt("%.4f", p->theory_eff);
            g_autofree char *de = fmt("%+.2f", ok ? diff_pct(p->r.waf, p->theory_eff) : NAN);
            row_add(&t[SEC_DEVIATION], 10, p->setup, blocks, sf, waf, th, d, unused, sfe, the, de);
            break;
        }
        default:
            break;
        }
    }
}

static char *tables_text(const struct validate *v, bool markdown)
{
    struct table t[N_SECTIONS];
    tables_build(v, t);
    GString *out = g_string_new(NULL);
    for (int s = 0; s < N_SECTIONS; s++) {
        table_print(out, &t[s], markdown);
        g_ptr_array_unref(t[s].rows);
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

static void add_str(cJSON *o, const char *key, const char *s)
{
    if (s)
        cJSON_AddStringToObject(o, key, s);
    else
        cJSON_AddNullToObject(o, key);
}

static char *results_json(const struct validate *v)
{
    cJSON *root = cJSON_CreateObject();
    cJSON_AddStringToObject(root, "command", "validate waf");
    cJSON_AddStringToObject(root, "version", ssdsim_version());
    cJSON_AddNumberToObject(root, "seed", (double)v->seed);
    cJSON_AddBoolToObject(root, "quick", v->quick);
    cJSON_AddNumberToObject(root, "tolerance_pct", TOLERANCE_PCT);
    cJSON_AddNumberToObject(root, "warmup_trips", v->plan.warm_trips);
    cJSON_AddNumberToObject(root, "batches", v->plan.batches);
    cJSON_AddNumberToObject(root, "iodepth", IODEPTH);
    cJSON *arr = cJSON_AddArrayToObject(root, "points");
    for (guint i = 0; i < v->points->len; i++) {
        const struct vpoint *p = &g_array_index(v->points, struct vpoint, i);
        bool ok = p->r.status == 0;
        cJSON *o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "section", section_names[p->section]);
        cJSON_AddStringToObject(o, "label", p->label);
        cJSON_AddStringToObject(o, "setup", p->setup);
        cJSON_AddStringToObject(o, "policy", p->policy);
        add_num(o, "param", p->param > 0 ? p->param : NAN);
        cJSON_AddNumberToObject(o, "pages_per_block", p->ppb);
        cJSON_AddNumberToObject(o, "spare_factor_requested", p->sf);
        add_num(o, "spare_factor", ok ? p->r.sf : NAN);
        add_num(o, "op", ok ? p->r.op : NAN);
        cJSON_AddNumberToObject(o, "blocks", p->blocks);
        cJSON_AddNumberToObject(o, "planes", p->planes);
        cJSON_AddNumberToObject(o, "free_blocks_min", p->reserve);
        cJSON_AddBoolToObject(o, "gc_separate", p->separate);
        cJSON_AddBoolToObject(o, "hot_cold", p->hot_cold);
        add_num(o, "hot_window", p->hot_cold ? p->hot_window : NAN);
        add_num(o, "hot_write_fraction", p->f_pct ? p->f_pct / 100.0 : NAN);
        add_num(o, "hot_space_fraction", p->f_pct ? p->h_pct / 100.0 : NAN);
        cJSON_AddNumberToObject(o, "seed", (double)p->seed);
        cJSON_AddNumberToObject(o, "logical_pages", (double)p->r.logical_pages);
        cJSON_AddNumberToObject(o, "warmup_host_pages", (double)p->r.warm_host_pages);
        cJSON_AddNumberToObject(o, "batch_host_pages", (double)p->r.batch_host_pages);
        cJSON_AddNumberToObject(o, "host_pages", (double)p->r.host_pages);
        cJSON_AddNumberToObject(o, "flash_pages", (double)p->r.flash_pages);
        add_num(o, "waf_sim", ok ? p->r.waf : NAN);
        add_num(o, "waf_sim_stderr", ok ? p->r.waf_se : NAN);
        add_num(o, "drift_pct", ok ? p->r.drift_pct : NAN);
        add_num(o, "free_blocks_mean", ok ? p->r.free_mean : NAN);
        add_num(o, "unused_blocks", ok ? p->unused_blocks : NAN);
        add_num(o, "spare_factor_eff", ok ? p->sf_eff : NAN);
        add_str(o, "model", p->model);
        add_num(o, "waf_model", p->theory);
        add_num(o, "diff_pct", ok ? diff_pct(p->r.waf, p->theory) : NAN);
        add_num(o, "waf_model_eff", p->theory_eff);
        add_num(o, "diff_eff_pct", ok ? diff_pct(p->r.waf, p->theory_eff) : NAN);
        add_num(o, "hot_spare_share", p->hot_share);
        add_str(o, "reference", p->section == SEC_HOTCOLD ? p->reference : NULL);
        add_num(o, "waf_reference", p->theory_ref);
        add_num(o, "diff_reference_pct", ok ? diff_pct(p->r.waf, p->theory_ref) : NAN);
        double d = ok ? diff_pct(p->r.waf, p->theory) : NAN;
        if (isfinite(d))
            cJSON_AddBoolToObject(o, "within_tolerance", fabs(d) <= TOLERANCE_PCT);
        else
            cJSON_AddNullToObject(o, "within_tolerance");
        add_str(o, "error", ok ? NULL : p->r.error);
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
    if (v->n_sfs == 0) {
        static const double full[] = {0.05, 0.1, 0.2, 0.3, 0.5};
        if (v->quick)
            v->sfs[v->n_sfs++] = 0.2;
        else
            for (size_t i = 0; i < G_N_ELEMENTS(full); i++)
                v->sfs[v->n_sfs++] = full[i];
    }
    if (v->n_ppbs == 0) {
        static const uint32_t full[] = {32, 64, 128, 256};
        if (v->quick)
            v->ppbs[v->n_ppbs++] = 64;
        else
            for (size_t i = 0; i < G_N_ELEMENTS(full); i++)
                v->ppbs[v->n_ppbs++] = full[i];
    }
    v->plan = (struct plan){8, 8}; /* quick differs in its points, not in their precision */
    v->points = g_array_new(FALSE, TRUE, sizeof(struct vpoint));
    if (v->sections[SEC_UNIFORM])
        grid_uniform(v);
    if (v->sections[SEC_HOTCOLD])
        grid_hotcold(v);
    if (v->sections[SEC_DEVIATION])
        grid_deviation(v);
    for (guint i = 0; i < v->points->len; i++)
        point_prepare(&g_array_index(v->points, struct vpoint, i));
    double t0 = now_s();
    if (!v->quiet)
        fprintf(stderr, "validate waf: %u points, %u worker processes, seed %" PRIu64 "\n",
                v->points->len, (unsigned)MIN(v->jobs, (uint64_t)v->points->len), v->seed);
    size_t failed = run_points(v);
    for (guint i = 0; i < v->points->len; i++)
        point_models(&g_array_index(v->points, struct vpoint, i));
    g_autofree char *text = tables_text(v, false);
    fputs(text, stdout);
    printf("%u points, %zu failed, %.1f s wall time\n", v->points->len, failed, now_s() - t0);
    fflush(stdout);
    int rc = failed ? CLI_EXIT_FAIL : 0;
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
    if (rc < 0)
        rc = validate_run(&v);
    for (int i = 0; i < v.n_policies; i++)
        g_free(v.policies[i]);
    if (v.points)
        g_array_unref(v.points);
    return rc;
}
