/* suite_snia.c: `ssdsim suite snia`, the SNIA Solid State Storage Performance Test
 * Specification, Enterprise (PTS-E): the IOPS test, the throughput test and the latency test,
 * each run in rounds until its tracking variable is steady by the SNIA rule (the library's
 * ssdsim_rounds_run with ssdsim_steady_check: 5 rounds, excursion within 20% of the average,
 * least-squares line within 10%), then reported as the averages of the 5 rounds of the
 * measurement window. This file holds the cells, the reports and the preconditioning between
 * rounds.
 *
 * Preconditioning follows the specification (purge = secure erase, workload-independent
 * preconditioning = 2 sequential fills of 128 KiB) with one shortcut for the IOPS test, whose
 * rounds would need hundreds of drive writes of simulation: after a first round on the filled
 * drive, the drive is fast-preconditioned with random writes in the block-size mix that round
 * wrote, and the rounds go on from there (doc/suites.md).
 */
#include <inttypes.h>
#include <math.h>
#include <string.h>

#include "suite.h"

#define N_MIX 7
#define N_BS 8
static const int iops_mix[N_MIX] = {100, 95, 65, 50, 35, 5, 0}; /* percent reads */
static const char *const iops_bs[N_BS] = {"1m", "128k", "64k", "32k", "16k", "8k", "4k", "512"};
static const char *const iops_bs_label[N_BS] = {"1024K", "128K", "64K", "32K",
                                                "16K",   "8K",   "4K",  "0.5K"};
#define BS_4K 6
#define MIX_W 6 /* 0/100: all writes */
#define IOPS_T 4
#define IOPS_Q 32

#define N_LMIX 3
#define N_LBS 3
static const int lat_mix[N_LMIX] = {100, 65, 0};
static const char *const lat_bs[N_LBS] = {"512", "4k", "8k"};
static const char *const lat_bs_label[N_LBS] = {"0.5K", "4K", "8K"};

static struct suite_wl cell_wl(int read_pct, const char *bs, uint32_t t, uint32_t q)
{
    struct suite_wl w = {read_pct == 100 ? "randread"
                         : read_pct == 0 ? "randwrite"
                                         : "randrw",
                         bs,
                         NULL,
                         read_pct == 100 || read_pct == 0 ? -1 : read_pct,
                         t,
                         q,
                         0,
                         0,
                         false};
    return w;
}

static void steady_json(cJSON *o, const ssdsim_steady_result *r, size_t n_rounds)
{
    cJSON_AddBoolToObject(o, "steady", r->steady);
    suite_json_u64(o, "rounds_run", n_rounds);
    /* 1-based rounds, as the specification counts them. */
    size_t last = r->round + 1, first = last >= r->window ? last - r->window + 1 : 1;
    suite_json_u64(o, "steady_round", r->steady ? last : 0);
    cJSON *win = cJSON_AddArrayToObject(o, "window_rounds");
    cJSON_AddItemToArray(win, cJSON_CreateNumber((double)first));
    cJSON_AddItemToArray(win, cJSON_CreateNumber((double)last));
    suite_json_num(o, "average", r->average);
    suite_json_num(o, "min", r->min);
    suite_json_num(o, "max", r->max);
    suite_json_num(o, "slope", r->slope);
    suite_json_num(o, "intercept", r->intercept);
    suite_json_num(o, "excursion", r->excursion);
    suite_json_num(o, "slope_excursion", r->slope_excursion);
}

static void steady_md(struct suite *s, const char *what, const ssdsim_steady_result *r,
                      size_t n_rounds, const char *unit)
{
    size_t last = r->round + 1, first = last >= r->window ? last - r->window + 1 : 1;
    if (r->steady)
        suite_md(s,
                 "Steady state (%s): reached at round %zu; measurement window rounds %zu to %zu; "
                 "average %.6g %s, excursion %.1f%% (limit 20%%), least-squares excursion %.1f%% "
                 "(limit 10%%).\n\n",
                 what, last, first, last, r->average, unit, 100 * r->excursion,
                 100 * r->slope_excursion);
    else
        suite_md(s,
                 "Steady state (%s): **not reached** in %zu rounds; the figures are the last 5 "
                 "rounds (%zu to %zu), excursion %.1f%%, least-squares excursion %.1f%%.\n\n",
                 what, n_rounds, first, last, 100 * r->excursion, 100 * r->slope_excursion);
}

/* Rounds of cells (ssdsim_rounds_run): the workloads of `w`, measured in turn each round; the
 * test's callbacks get `ud`, and every cell adds the re-run bullet when its window was run
 * again. Callbacks return 1 after printing an error. 0, or -1 after printing the error. */
struct rounds_ctx {
    struct suite *s;
    int (*cell)(size_t round, size_t cell, const ssdsim_measurement *f, void *ud);
    int (*round)(size_t round, const double *track, void *ud);
    void *ud;
};

static int rounds_cell(size_t round, size_t cell, const ssdsim_measurement *f, void *ud)
{
    struct rounds_ctx *x = ud;
    suite_rerun_note(x->s, f, SUITE_SNIA_GC_CYCLES);
    return x->cell ? x->cell(round, cell, f, x->ud) : 0;
}

static int rounds_round(size_t round, const double *track, void *ud)
{
    struct rounds_ctx *x = ud;
    return x->round ? x->round(round, track, x->ud) : 0;
}

static int run_rounds(struct suite *s, ssdsim *sim, const struct suite_wl *w, size_t n_cells,
                      ssdsim_rounds_opts *o, struct rounds_ctx *x, ssdsim_steady_result *st,
                      size_t *n_rounds, const char *what)
{
    ssdsim_workload **cells = g_new0(ssdsim_workload *, n_cells);
    int rc = 0;
    for (size_t c = 0; c < n_cells && rc == 0; c++)
        rc = (cells[c] = suite_wl_new(&w[c])) ? 0 : 1;
    o->cell_ns = s->opt->snia_window_ns;
    o->gc_cycles = SUITE_SNIA_GC_CYCLES;
    o->on_cell = rounds_cell;
    o->on_round = rounds_round;
    x->s = s;
    o->userdata = x;
    if (rc == 0)
        rc = ssdsim_rounds_run(sim, cells, n_cells, o, st, n_rounds);
    if (rc < 0)
        cli_error("%s: %s", what, ssdsim_errmsg(sim));
    for (size_t c = 0; c < n_cells; c++)
        ssdsim_workload_free(cells[c]);
    g_free(cells);
    return rc ? -1 : 0;
}

/* ------------------------------------------------------------------------------------------ */
/* IOPS test                                                                                   */

struct iops_round {
    double iops[N_MIX][N_BS];
    uint64_t writes[N_BS]; /* write requests per block size in the round */
    uint64_t host_pages, flash_pages, host_bytes;
};

/* The random-write mix by request count of a round (writes[b] requests of size bs[b]), as a
 * fio bssplit; what rounding leaves goes to the most frequent size. */
static char *round_bssplit(const uint64_t *writes, const char *const *bs, int n)
{
    uint64_t total = 0;
    for (int b = 0; b < n; b++)
        total += writes[b];
    GString *g = g_string_new(NULL);
    int left = 100, big = 0;
    int pct[N_BS] = {0};
    for (int b = 0; b < n; b++) {
        pct[b] = total ? (int)floor(100.0 * (double)writes[b] / (double)total) : 0;
        if (pct[b] == 0 && writes[b])
            pct[b] = 1;
        left -= pct[b];
        if (writes[b] > writes[big])
            big = b;
    }
    pct[big] += left;
    for (int b = 0; b < n; b++)
        if (pct[b] > 0)
            g_string_append_printf(g, "%s%s/%d", g->len ? ":" : "", bs[b], pct[b]);
    if (!g->len)
        g_string_append(g, "4k/100");
    return g_string_free(g, FALSE);
}

/* Workload-dependent preconditioning, fast: after round 1 on the sequentially filled drive,
 * put the drive at the steady state of random writes in the block-size mix that round wrote,
 * which is where the rounds would take it after many drive writes. Returns the mix (g_free) or
 * NULL after printing the error. */
static char *fast_wdpc(struct suite *s, ssdsim *sim, const uint64_t *writes, const char *const *bs,
                       int n, const char *what)
{
    char *mix = round_bssplit(writes, bs, n);
    struct suite_wl w = {"randwrite", NULL, mix, -1, IOPS_T, IOPS_Q, 0, 0, false};
    if (suite_steady_state(s, sim, &w, what)) {
        g_free(mix);
        return NULL;
    }
    return mix;
}

struct iops_ctx {
    struct suite *s;
    ssdsim *sim;
    GArray *rounds;        /* struct iops_round */
    struct iops_round cur; /* the round being measured */
    char *mix;             /* the preconditioning mix (g_free) */
};

static int iops_cell(size_t round, size_t cell, const ssdsim_measurement *f, void *ud)
{
    struct iops_ctx *x = ud;
    (void)round;
    if (cell == 0)
        memset(&x->cur, 0, sizeof x->cur);
    x->cur.iops[cell / N_BS][cell % N_BS] = f->iops;
    x->cur.writes[cell % N_BS] += f->n_writes;
    x->cur.host_pages += f->host_pages_written;
    x->cur.flash_pages += f->flash_pages_programmed;
    x->cur.host_bytes += f->host_bytes_written;
    return 0;
}

static int iops_round_done(size_t k, const double *track, void *ud)
{
    struct iops_ctx *x = ud;
    g_array_append_val(x->rounds, x->cur);
    suite_say(x->s, "  round %zu: 4K random write %.0f IOPS", k + 1, track[k]);
    if (k > 0)
        return 0;
    /* Round 1 ran on the sequentially filled drive; jump to the steady state of the rounds'
     * random writes instead of writing hundreds of drive capacities. */
    x->mix =
        fast_wdpc(x->s, x->sim, x->cur.writes, iops_bs, N_BS, "the IOPS test's random-write mix");
    return x->mix ? 0 : 1;
}

static int iops_test(struct suite *s, ssdsim *sim, ssdsim_device_stats *dev)
{
    suite_say(s, "IOPS test (%d mixes x %d block sizes per round, %dT/%dQ):", N_MIX, N_BS, IOPS_T,
              IOPS_Q);
    cJSON *o = cJSON_AddObjectToObject(s->json, "iops_test");
    if (suite_erase(sim) || ssdsim_precondition_seq_fills(sim, 2)) {
        cli_error("IOPS test: preconditioning: %s", ssdsim_errmsg(sim));
        return -1;
    }
    struct iops_ctx x = {.s = s, .sim = sim};
    x.rounds = g_array_new(FALSE, TRUE, sizeof(struct iops_round));
    GArray *rounds = x.rounds;
    struct suite_wl w[N_MIX * N_BS];
    for (int m = 0; m < N_MIX; m++)
        for (int b = 0; b < N_BS; b++)
            w[m * N_BS + b] = cell_wl(iops_mix[m], iops_bs[b], IOPS_T, IOPS_Q);
    /* Round 1 comes on top of --rounds, and is left out of the judgement: it measured the
     * filled drive, not the preconditioned one. The 4K random-write IOPS are tracked. */
    ssdsim_rounds_opts rop = SSDSIM_ROUNDS_OPTS_INIT;
    rop.max_rounds = s->opt->rounds;
    rop.unjudged_rounds = 1;
    rop.track_cell = MIX_W * N_BS + BS_4K;
    rop.track_var = SSDSIM_ROUNDS_IOPS;
    struct rounds_ctx rx = {.cell = iops_cell, .round = iops_round_done, .ud = &x};
    ssdsim_steady_result st;
    size_t n;
    int rc = run_rounds(s, sim, w, N_MIX * N_BS, &rop, &rx, &st, &n, "IOPS test");
    g_autofree char *mix = x.mix;
    if (rc)
        goto out;
    rc = -1;
    if (n < 2) {
        cli_error("IOPS test: needs at least 2 rounds");
        goto out;
    }
    size_t last = st.round, first = last + 1 >= st.window ? last + 1 - st.window : 0;
    cJSON_AddStringToObject(o, "preconditioning_mix", mix);
    suite_json_u64(o, "threads", IOPS_T);
    suite_json_u64(o, "qd", IOPS_Q);
    suite_json_u64(o, "cell_ns", s->opt->snia_window_ns);
    cJSON_AddStringToObject(o, "tracking", "4K random write IOPS (0/100)");
    steady_json(cJSON_AddObjectToObject(o, "steady_state"), &st, n);
    /* Averages over the window, and every round. */
    double avg[N_MIX][N_BS] = {{0}};
    for (size_t k = first; k <= last; k++)
        for (int m = 0; m < N_MIX; m++)
            for (int b = 0; b < N_BS; b++)
                avg[m][b] += g_array_index(rounds, struct iops_round, k).iops[m][b] /
                             (double)(last - first + 1);
    cJSON *tab = cJSON_AddArrayToObject(o, "window_average");
    GString *csv = g_string_new("read_write");
    for (int b = 0; b < N_BS; b++)
        g_string_append_printf(csv, ",%s", iops_bs_label[b]);
    g_string_append_c(csv, '\n');
    suite_md(s,
             "\n## IOPS test\n\n%d threads x %d queue depth; cells of %.3g s (after a ramp of "
             "a tenth); rounds of %d read/write mixes x %d block sizes. Purge, 2 sequential "
             "fills, round 1, fast preconditioning with the random writes of round 1 (`%s`), "
             "then rounds until steady.\n\n",
             IOPS_T, IOPS_Q, (double)s->opt->snia_window_ns / 1e9, N_MIX, N_BS, mix);
    steady_md(s, "4K random write IOPS", &st, n, "IOPS");
    suite_md(s, "IOPS, averages of the measurement window:\n\n| read/write |");
    for (int b = 0; b < N_BS; b++)
        suite_md(s, " %s |", iops_bs_label[b]);
    suite_md(s, "\n|---|");
    for (int b = 0; b < N_BS; b++)
        suite_md(s, "---:|");
    suite_md(s, "\n");
    for (int m = 0; m < N_MIX; m++) {
        cJSON *row = cJSON_CreateObject();
        char label[16];
        snprintf(label, sizeof label, "%d/%d", iops_mix[m], 100 - iops_mix[m]);
        cJSON_AddStringToObject(row, "read_write", label);
        g_string_append(csv, label);
        suite_md(s, "| %s |", label);
        for (int b = 0; b < N_BS; b++) {
            suite_json_num(row, iops_bs_label[b], avg[m][b]);
            g_string_append_c(csv, ',');
            suite_csv_num(csv, avg[m][b], false);
            csv->str[--csv->len] = '\0'; /* suite_csv_num added a separator */
            suite_md(s, " %.0f |", avg[m][b]);
        }
        g_string_append_c(csv, '\n');
        suite_md(s, "\n");
        cJSON_AddItemToArray(tab, row);
    }
    suite_csv(s, "snia-iops.csv", g_string_free(csv, FALSE));
    cJSON *ra = cJSON_AddArrayToObject(o, "rounds");
    GString *conv = g_string_new("round");
    for (int b = 0; b < N_BS; b++)
        g_string_append_printf(conv, ",write_%s", iops_bs_label[b]);
    g_string_append(conv, ",tracking\n");
    GString *wcsv = g_string_new("round,host_bytes_written,drive_writes,waf\n");
    uint64_t host_bytes = 0;
    for (size_t k = 0; k < n; k++) {
        const struct iops_round *r = &g_array_index(rounds, struct iops_round, k);
        cJSON *ro = cJSON_CreateObject();
        suite_json_u64(ro, "round", k + 1);
        cJSON *cells = cJSON_AddArrayToObject(ro, "iops");
        for (int m = 0; m < N_MIX; m++) {
            cJSON *row = cJSON_CreateArray();
            for (int b = 0; b < N_BS; b++)
                cJSON_AddItemToArray(row, cJSON_CreateNumber(suite_round6(r->iops[m][b])));
            cJSON_AddItemToArray(cells, row);
        }
        double waf = r->host_pages ? (double)r->flash_pages / (double)r->host_pages : NAN;
        suite_json_num(ro, "waf", waf);
        suite_json_u64(ro, "host_bytes_written", r->host_bytes);
        cJSON_AddItemToArray(ra, ro);
        g_string_append_printf(conv, "%zu", k + 1);
        for (int b = 0; b < N_BS; b++) {
            g_string_append_c(conv, ',');
            suite_csv_num(conv, r->iops[MIX_W][b], true);
            conv->str[--conv->len] = '\0';
        }
        g_string_append_c(conv, ',');
        suite_csv_num(conv, r->iops[MIX_W][BS_4K], true);
        host_bytes += r->host_bytes;
        g_string_append_printf(wcsv, "%zu,%" PRIu64 ",", k + 1, host_bytes);
        suite_csv_num(wcsv, (double)host_bytes / (double)dev->logical_bytes, false);
        suite_csv_num(wcsv, waf, true);
    }
    cJSON *lab = cJSON_AddArrayToObject(o, "block_sizes");
    for (int b = 0; b < N_BS; b++)
        cJSON_AddItemToArray(lab, cJSON_CreateString(iops_bs_label[b]));
    cJSON *mixes = cJSON_AddArrayToObject(o, "read_percent");
    for (int m = 0; m < N_MIX; m++)
        cJSON_AddItemToArray(mixes, cJSON_CreateNumber(iops_mix[m]));
    suite_csv(s, "snia-iops-convergence.csv", g_string_free(conv, FALSE));
    suite_csv(s, "snia-waf.csv", g_string_free(wcsv, FALSE));
    suite_md(s, "\n![Convergence](snia-iops-convergence.png)\n\n![Measurement window]"
                "(snia-iops-window.png)\n\n![IOPS by block size](snia-iops.png)\n\n"
                "![Write amplification per round](snia-waf.png)\n");

    /* Plots: the convergence of the 0/100 cells, the window of the tracking variable, IOPS by
     * block size (one line per mix), WAF per round against data written. */
    GString *g = g_string_new("set title 'IOPS test: steady-state convergence, 100% writes'\n"
                              "set xlabel 'round'\nset ylabel 'IOPS'\nset logscale y\n"
                              "set key outside right\nplot ");
    for (int b = 0; b < N_BS; b++)
        g_string_append_printf(g,
                               "%s'snia-iops-convergence.csv' skip 1 using 1:%d with linespoints "
                               "title '%s'",
                               b ? ", " : "", b + 2, iops_bs_label[b]);
    g_string_append_c(g, '\n');
    suite_plot(s, "snia-iops-convergence.png", g->str);
    g_string_truncate(g, 0);
    double a = st.average;
    g_string_append_printf(g,
                           "set title 'IOPS test: measurement window (4K random write)'\n"
                           "set xlabel 'round'\nset ylabel 'IOPS'\nset key outside right\n"
                           "set yrange [0:*]\nset arrow from %zu, graph 0 to %zu, graph 1 nohead "
                           "dt 2\nset arrow from %zu, graph 0 to %zu, graph 1 nohead dt 2\n"
                           "plot 'snia-iops-convergence.csv' skip 1 using 1:%d with linespoints "
                           "title 'tracking variable', (x >= %zu && x <= %zu) ? %.6g : 1/0 "
                           "title 'average', (x >= %zu && x <= %zu) ? %.6g : 1/0 title '+10%%', "
                           "(x >= %zu && x <= %zu) ? %.6g : 1/0 title '-10%%', "
                           "(x >= %zu && x <= %zu) ? %.6g + %.6g * (x - %zu) : 1/0 title "
                           "'least-squares line'\n",
                           first + 1, first + 1, last + 1, last + 1, N_BS + 2, first + 1, last + 1,
                           a, first + 1, last + 1, 1.1 * a, first + 1, last + 1, 0.9 * a, first + 1,
                           last + 1, st.intercept, st.slope, first + 1);
    suite_plot(s, "snia-iops-window.png", g->str);
    g_string_truncate(g, 0);
    g_string_append(g, "set title 'IOPS test: IOPS by block size (window averages)'\n"
                       "set xlabel 'block size (bytes)'\nset ylabel 'IOPS'\nset logscale xy\n"
                       "set key outside right\nplot ");
    static const double bs_bytes[N_BS] = {1048576, 131072, 65536, 32768, 16384, 8192, 4096, 512};
    for (int m = 0; m < N_MIX; m++) {
        g_string_append_printf(g, "%s'-' using 1:2 with linespoints title '%d/%d'", m ? ", " : "",
                               iops_mix[m], 100 - iops_mix[m]);
    }
    g_string_append_c(g, '\n');
    for (int m = 0; m < N_MIX; m++) {
        for (int b = 0; b < N_BS; b++)
            g_string_append_printf(g, "%.0f,%.6g\n", bs_bytes[b], avg[m][b]);
        g_string_append(g, "e\n");
    }
    suite_plot(s, "snia-iops.png", g->str);
    g_string_truncate(g, 0);
    g_string_append(g, "set title 'IOPS test: write amplification per round'\n"
                       "set xlabel 'host data written (drive writes)'\nset ylabel 'WAF'\n"
                       "set yrange [0:*]\nset key off\n"
                       "plot 'snia-waf.csv' skip 1 using 3:4 with linespoints\n");
    suite_plot(s, "snia-waf.png", g->str);
    g_string_free(g, TRUE);
    suite_say(s, "  steady: %s at round %zu, 4K random write %.0f IOPS", st.steady ? "yes" : "no",
              last + 1, st.average);
    suite_shortcut(s, "IOPS and latency tests: round 1 ran on the drive after purge and "
                      "workload-independent preconditioning (2 sequential fills); the drive was "
                      "then fast-preconditioned with random writes in the block-size mix round 1 "
                      "wrote, standing in for the many rounds a real drive runs before it settles "
                      "(its rounds write drive capacities; the simulator's short cells write "
                      "little); rounds 2 on were judged by the SNIA rule.");
    rc = 0;
out:
    g_array_unref(rounds);
    return rc;
}

/* ------------------------------------------------------------------------------------------ */
/* Throughput test                                                                             */

struct tp_ctx {
    const char *label;
    GArray *wr, *rd; /* double: MB/s of the write and read cells, per round */
    GString *csv;
};

static int tp_cell(size_t round, size_t cell, const ssdsim_measurement *f, void *ud)
{
    struct tp_ctx *x = ud;
    double v = f->bw_bytes / 1e6;
    g_array_append_val(cell ? x->rd : x->wr, v);
    if (cell == 1) {
        g_string_append_printf(x->csv, "%s,%zu,", x->label, round + 1);
        suite_csv_num(x->csv, g_array_index(x->wr, double, round), false);
        suite_csv_num(x->csv, v, true);
    }
    return 0;
}

static int throughput_test(struct suite *s, ssdsim *sim)
{
    static const char *const bs[2] = {"1m", "128k"};
    static const char *const label[2] = {"1024K", "128K"};
    suite_say(s, "Throughput test (sequential, 1T/32Q):");
    cJSON *o = cJSON_AddObjectToObject(s->json, "throughput_test");
    suite_json_u64(o, "threads", 1);
    suite_json_u64(o, "qd", 32);
    cJSON *arr = cJSON_AddArrayToObject(o, "block_sizes");
    GString *csv = g_string_new("block_size,round,write_mb_s,read_mb_s\n");
    suite_md(s,
             "\n## Throughput test\n\nSequential, 1 thread x 32 queue depth, per block size: "
             "purge, 2 sequential fills, then rounds of one write and one read cell of "
             "%.3g s each, until the write bandwidth is steady.\n\n",
             (double)s->opt->snia_window_ns / 1e9);
    GString *tab = g_string_new("| block size | write MB/s | read MB/s | steady at round | "
                                "window |\n|---|---:|---:|---:|---|\n");
    for (int k = 0; k < 2; k++) {
        if (suite_erase(sim) || ssdsim_precondition_seq_fills(sim, 2)) {
            cli_error("throughput test: preconditioning: %s", ssdsim_errmsg(sim));
            g_string_free(csv, TRUE);
            g_string_free(tab, TRUE);
            return -1;
        }
        struct tp_ctx x = {.label = label[k], .csv = csv};
        x.wr = g_array_new(FALSE, FALSE, sizeof(double));
        x.rd = g_array_new(FALSE, FALSE, sizeof(double));
        GArray *wr = x.wr, *rd = x.rd;
        struct suite_wl w[2] = {{"write", bs[k], NULL, -1, 1, 32, 0, 0, false},
                                {"read", bs[k], NULL, -1, 1, 32, 0, 0, false}};
        ssdsim_rounds_opts rop = SSDSIM_ROUNDS_OPTS_INIT; /* the write bandwidth is tracked */
        rop.max_rounds = s->opt->rounds;
        rop.track_cell = 0;
        rop.track_var = SSDSIM_ROUNDS_BW_MB_S;
        struct rounds_ctx rx = {.cell = tp_cell, .ud = &x};
        ssdsim_steady_result st;
        if (run_rounds(s, sim, w, 2, &rop, &rx, &st, NULL, "throughput test")) {
            g_array_unref(wr);
            g_array_unref(rd);
            g_string_free(csv, TRUE);
            g_string_free(tab, TRUE);
            return -1;
        }
        size_t last = st.round, first = last + 1 >= st.window ? last + 1 - st.window : 0;
        double aw = 0, ar = 0;
        for (size_t i = first; i <= last; i++) {
            aw += g_array_index(wr, double, i) / (double)(last - first + 1);
            ar += g_array_index(rd, double, i) / (double)(last - first + 1);
        }
        cJSON *e = cJSON_CreateObject();
        cJSON_AddStringToObject(e, "block_size", label[k]);
        steady_json(cJSON_AddObjectToObject(e, "steady_state"), &st, wr->len);
        suite_json_num(e, "write_mb_s", aw);
        suite_json_num(e, "read_mb_s", ar);
        cJSON *rw = cJSON_AddArrayToObject(e, "rounds_write_mb_s");
        cJSON *rr2 = cJSON_AddArrayToObject(e, "rounds_read_mb_s");
        for (guint i = 0; i < wr->len; i++) {
            cJSON_AddItemToArray(rw,
                                 cJSON_CreateNumber(suite_round6(g_array_index(wr, double, i))));
            cJSON_AddItemToArray(rr2,
                                 cJSON_CreateNumber(suite_round6(g_array_index(rd, double, i))));
        }
        cJSON_AddItemToArray(arr, e);
        char at[32] = "not steady";
        if (st.steady)
            snprintf(at, sizeof at, "%zu", last + 1);
        g_string_append_printf(tab, "| %s | %.1f | %.1f | %s | %zu to %zu |\n", label[k], aw, ar,
                               at, first + 1, last + 1);
        suite_say(s, "  %s: write %.1f MB/s, read %.1f MB/s (%s, %u rounds)", label[k], aw, ar,
                  st.steady ? "steady" : "not steady", wr->len);
        g_array_unref(wr);
        g_array_unref(rd);
    }
    suite_md(s, "%s\n![Throughput per round](snia-throughput.png)\n", tab->str);
    g_string_free(tab, TRUE);
    suite_csv(s, "snia-throughput.csv", g_string_free(csv, FALSE));
    GString *g = g_string_new("set title 'Throughput test: bandwidth per round'\n"
                              "set xlabel 'round'\nset ylabel 'MB/s'\nset yrange [0:*]\n"
                              "set key outside right\nplot ");
    for (int k = 0; k < 2; k++)
        g_string_append_printf(g,
                               "%s'snia-throughput.csv' skip 1 using 2:(strcol(1) eq '%s' ? $3 : "
                               "1/0) with linespoints title '%s write', 'snia-throughput.csv' "
                               "skip 1 using 2:(strcol(1) eq '%s' ? $4 : 1/0) with linespoints "
                               "title '%s read'",
                               k ? ", " : "", label[k], label[k], label[k], label[k]);
    g_string_append_c(g, '\n');
    suite_plot(s, "snia-throughput.png", g->str);
    g_string_free(g, TRUE);
    return 0;
}

/* ------------------------------------------------------------------------------------------ */
/* Latency test                                                                                */

struct lat_cell {
    double mean_ns, p99_ns, p99_99_ns;
    uint64_t max_ns, n;
};

struct lat_ctx {
    struct suite *s;
    ssdsim *sim;
    GArray *cells;                       /* struct lat_cell[N_LMIX * N_LBS] per round */
    GPtrArray *hr, *hw;                  /* struct suite_hist *: 4K read and write, per round */
    struct lat_cell row[N_LMIX * N_LBS]; /* the round being measured */
    uint64_t writes[N_LBS];
    char *mix; /* the preconditioning mix (g_free) */
};

static int lat_cell_done(size_t round, size_t cell, const ssdsim_measurement *f, void *ud)
{
    struct lat_ctx *x = ud;
    (void)round;
    int m = (int)(cell / N_LBS), b = (int)(cell % N_LBS);
    if (cell == 0) {
        memset(x->writes, 0, sizeof x->writes);
        g_ptr_array_add(x->hr, g_new0(struct suite_hist, 1));
        g_ptr_array_add(x->hw, g_new0(struct suite_hist, 1));
    }
    struct lat_cell c = {f->lat_mean_ns, (double)f->lat_p99_ns, (double)f->lat_p99_99_ns,
                         f->lat_max_ns, f->n_ios};
    x->row[cell] = c;
    x->writes[b] += f->n_writes;
    if (b == 1 && lat_mix[m] == 100)
        suite_hist_add(x->hr->pdata[x->hr->len - 1], x->sim, SSDSIM_OP_ALL);
    if (b == 1 && lat_mix[m] == 0)
        suite_hist_add(x->hw->pdata[x->hw->len - 1], x->sim, SSDSIM_OP_ALL);
    return 0;
}

static int lat_round_done(size_t k, const double *track, void *ud)
{
    struct lat_ctx *x = ud;
    g_array_append_vals(x->cells, x->row, 1);
    suite_say(x->s, "  round %zu: 4K random write mean latency %.1f us", k + 1, track[k]);
    if (k > 0)
        return 0;
    x->mix =
        fast_wdpc(x->s, x->sim, x->writes, lat_bs, N_LBS, "the latency test's random-write mix");
    return x->mix ? 0 : 1;
}

static int latency_test(struct suite *s, ssdsim *sim)
{
    suite_say(s, "Latency test (1T/1Q):");
    cJSON *o = cJSON_AddObjectToObject(s->json, "latency_test");
    suite_json_u64(o, "threads", 1);
    suite_json_u64(o, "qd", 1);
    if (suite_erase(sim) || ssdsim_precondition_seq_fills(sim, 2)) {
        cli_error("latency test: preconditioning: %s", ssdsim_errmsg(sim));
        return -1;
    }
    struct lat_ctx x = {.s = s, .sim = sim};
    x.cells = g_array_new(FALSE, TRUE, sizeof(struct lat_cell) * N_LMIX * N_LBS);
    /* The CDFs of the 4K read and write cells, one histogram per round. */
    x.hr = g_ptr_array_new();
    x.hw = g_ptr_array_new();
    GArray *cells = x.cells;
    GPtrArray *hr = x.hr, *hw = x.hw;
    struct suite_wl w[N_LMIX * N_LBS];
    for (int m = 0; m < N_LMIX; m++)
        for (int b = 0; b < N_LBS; b++)
            w[m * N_LBS + b] = cell_wl(lat_mix[m], lat_bs[b], 1, 1);
    /* Round 1 comes on top of --rounds and is not judged (as in the IOPS test); the mean
     * latency of 4K random writes (0/100) is tracked. */
    ssdsim_rounds_opts rop = SSDSIM_ROUNDS_OPTS_INIT;
    rop.max_rounds = s->opt->rounds;
    rop.unjudged_rounds = 1;
    rop.track_cell = 2 * N_LBS + 1;
    rop.track_var = SSDSIM_ROUNDS_LAT_MEAN_US;
    struct rounds_ctx rx = {.cell = lat_cell_done, .round = lat_round_done, .ud = &x};
    ssdsim_steady_result st;
    size_t n;
    int rc = run_rounds(s, sim, w, N_LMIX * N_LBS, &rop, &rx, &st, &n, "latency test");
    g_autofree char *mix = x.mix;
    if (rc)
        goto out;
    rc = -1;
    if (n < 2) {
        cli_error("latency test: needs at least 2 rounds");
        goto out;
    }
    cJSON_AddStringToObject(o, "preconditioning_mix", mix);
    size_t last = st.round, first = last + 1 >= st.window ? last + 1 - st.window : 0;
    steady_json(cJSON_AddObjectToObject(o, "steady_state"), &st, n);
    cJSON_AddStringToObject(o, "tracking", "4K random write mean latency (us, 0/100)");
    suite_md(s,
             "\n## Latency test\n\n1 thread x 1 queue depth; purge, 2 sequential fills, round "
             "1, fast preconditioning with the random writes of round 1 (`%s`), then rounds "
             "of 3 read/write mixes x 3 block sizes, cells of %.3g s.\n\n",
             mix, (double)s->opt->snia_window_ns / 1e9);
    steady_md(s, "4K random write mean latency", &st, n, "us");
    suite_md(s, "| read/write | block size | mean (us) | p99 (us) | p99.99 (us) | max (us) |\n"
                "|---|---|---:|---:|---:|---:|\n");
    GString *csv = g_string_new("read_write,block_size,lat_mean_us,lat_p99_us,lat_p99_99_us,"
                                "lat_max_us\n");
    cJSON *tab = cJSON_AddArrayToObject(o, "window_average");
    for (int m = 0; m < N_LMIX; m++) {
        for (int b = 0; b < N_LBS; b++) {
            /* Mean weighted by requests; percentiles averaged over the rounds; the maximum of
             * the window. */
            double sum = 0, cnt = 0, p99 = 0, p9999 = 0;
            uint64_t mx = 0;
            for (size_t k = first; k <= last; k++) {
                const struct lat_cell *c =
                    &((const struct lat_cell *)(void *)
                          cells->data)[k * N_LMIX * N_LBS + (size_t)(m * N_LBS + b)];
                sum += c->mean_ns * (double)c->n;
                cnt += (double)c->n;
                p99 += c->p99_ns / (double)(last - first + 1);
                p9999 += c->p99_99_ns / (double)(last - first + 1);
                if (c->max_ns > mx)
                    mx = c->max_ns;
            }
            double mean = cnt > 0 ? sum / cnt : NAN;
            char mixl[16];
            snprintf(mixl, sizeof mixl, "%d/%d", lat_mix[m], 100 - lat_mix[m]);
            cJSON *e = cJSON_CreateObject();
            cJSON_AddStringToObject(e, "read_write", mixl);
            cJSON_AddStringToObject(e, "block_size", lat_bs_label[b]);
            suite_json_num(e, "lat_mean_us", mean / 1e3);
            suite_json_num(e, "lat_p99_us", p99 / 1e3);
            suite_json_num(e, "lat_p99_99_us", p9999 / 1e3);
            suite_json_num(e, "lat_max_us", (double)mx / 1e3);
            cJSON_AddItemToArray(tab, e);
            g_string_append_printf(csv, "%s,%s,", mixl, lat_bs_label[b]);
            suite_csv_num(csv, mean / 1e3, false);
            suite_csv_num(csv, p99 / 1e3, false);
            suite_csv_num(csv, p9999 / 1e3, false);
            suite_csv_num(csv, (double)mx / 1e3, true);
            suite_md(s, "| %s | %s | %.1f | %.1f | %.1f | %.1f |\n", mixl, lat_bs_label[b],
                     mean / 1e3, p99 / 1e3, p9999 / 1e3, (double)mx / 1e3);
        }
    }
    suite_csv(s, "snia-latency.csv", g_string_free(csv, FALSE));
    struct suite_hist r4 = {0}, w4 = {0};
    for (size_t k = first; k <= last; k++) {
        const struct suite_hist *a = hr->pdata[k], *b = hw->pdata[k];
        /* Add the round's buckets into the window's. */
        suite_hist_merge(&r4, a);
        suite_hist_merge(&w4, b);
    }
    GString *cdf = g_string_new("series,lat_us,cdf\n");
    cJSON *co = cJSON_AddObjectToObject(o, "latency_cdf");
    suite_hist_cdf(&r4, "4K random read QD1", cdf, co, "4k-random-read");
    suite_hist_cdf(&w4, "4K random write QD1", cdf, co, "4k-random-write");
    suite_hist_free(&r4);
    suite_hist_free(&w4);
    suite_csv(s, "latency-cdf.csv", g_string_free(cdf, FALSE));
    suite_md(s, "\n![Latency by block size](snia-latency.png)\n\n![Latency CDF, 4K at QD1, "
                "measurement window](latency-cdf.png)\n");
    GString *g = g_string_new("set title 'Latency test: mean and maximum latency (window)'\n"
                              "set ylabel 'latency (us)'\nset logscale y\nset style data "
                              "histograms\nset style fill solid 0.6 border -1\n"
                              "set key outside right\nset xtics rotate by -30\n"
                              "plot 'snia-latency.csv' skip 1 using 3:xticlabels(sprintf('%s "
                              "%s', strcol(1), strcol(2))) title 'mean', '' skip 1 using 6 "
                              "title 'max'\n");
    suite_plot(s, "snia-latency.png", g->str);
    g_string_truncate(g, 0);
    g_string_append(g, "set title 'Latency CDF, 4K at QD1 (measurement window)'\n"
                       "set xlabel 'latency (us)'\nset ylabel 'fraction of requests'\n"
                       "set logscale x\nset yrange [0:1]\nset key bottom right\n"
                       "plot 'latency-cdf.csv' skip 1 using 2:(strcol(1) eq '4K random read "
                       "QD1' ? $3 : 1/0) with lines lw 1.5 title '4K random read', "
                       "'latency-cdf.csv' skip 1 using 2:(strcol(1) eq '4K random write QD1' ? "
                       "$3 : 1/0) with lines lw 1.5 title '4K random write'\n");
    suite_plot(s, "latency-cdf.png", g->str);
    g_string_free(g, TRUE);
    suite_say(s, "  steady: %s at round %zu, 4K random write mean %.1f us",
              st.steady ? "yes" : "no", last + 1, st.average);
    rc = 0;
out:
    for (guint i = 0; i < hr->len; i++) {
        suite_hist_free(hr->pdata[i]);
        suite_hist_free(hw->pdata[i]);
        g_free(hr->pdata[i]);
        g_free(hw->pdata[i]);
    }
    g_ptr_array_unref(hr);
    g_ptr_array_unref(hw);
    g_array_unref(cells);
    return rc;
}

int suite_snia(struct suite *s)
{
    ssdsim *sim = suite_sim_new(s, s->model);
    if (!sim)
        return -1;
    ssdsim_device_stats d;
    ssdsim_get_device_stats(sim, &d);
    suite_md(s, "SNIA Solid State Storage Performance Test Specification, Enterprise (PTS-E): "
                "each test purges the drive (secure erase), preconditions it "
                "(workload-independent: the user capacity written twice with 128 KiB "
                "sequential writes), then runs rounds until its tracking variable is steady: "
                "over a measurement window of 5 rounds, the excursion (max - min) within 20%% "
                "of the window's average and the excursion of the least-squares line within "
                "10%%. Figures are averages over the window.\n");
    int rc = iops_test(s, sim, &d) || throughput_test(s, sim) || latency_test(s, sim) ? -1 : 0;
    ssdsim_free(sim);
    if (rc == 0) {
        suite_shortcut(s,
                       "Each cell of a round ran %.3g s of simulated time after a ramp of a tenth "
                       "of that (not counted), instead of the specification's 1 minute; rounds "
                       "stop at steady state or after %" PRIu32 " rounds (the specification's "
                       "limit is 25).",
                       (double)s->opt->snia_window_ns / 1e9, s->opt->rounds);
        suite_shortcut(s, "Thread count and queue depth of the IOPS test, which the "
                          "specification leaves to the tester: 4 threads x 32 (128 "
                          "outstanding); throughput test 1 x 32; latency test 1 x 1.");
    }
    return rc;
}
