/* suite_snia.c: `ssdsim suite snia`, the SNIA Solid State Storage Performance Test
 * Specification, Enterprise (PTS-E): the IOPS test, the throughput test and the latency test,
 * each run by the library (ssdsim_snia_run, ssdsim/suite.h: purge, workload-independent
 * preconditioning, rounds until the tracking variable is steady by the SNIA rule, the fast
 * workload-dependent preconditioning after round 1, the averages of the measurement window).
 * This file holds the reports: JSON, CSV, Markdown tables and plots, and the progress lines.
 */
#include <inttypes.h>
#include <math.h>
#include <string.h>

#include "suite.h"

/* A block size as the specification labels it: 1024K ... 0.5K. */
static const char *bs_label(char *buf, size_t len, uint32_t bytes)
{
    if (bytes % 1024)
        snprintf(buf, len, "%gK", bytes / 1024.0);
    else
        snprintf(buf, len, "%" PRIu32 "K", bytes / 1024);
    return buf;
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
    if (!r->steady && r->why_not[0])
        cJSON_AddStringToObject(o, "why_not", r->why_not);
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
                 "rounds (%zu to %zu), excursion %.1f%%, least-squares excursion %.1f%%%s%s.\n\n",
                 what, n_rounds, first, last, 100 * r->excursion, 100 * r->slope_excursion,
                 r->why_not[0] ? ": " : "", r->why_not);
}

/* The callbacks of a test: the re-run bullet of every cell, the progress line of a round
 * (with the tracked value), the bullets of the preconditioning after
 * round 1 (`what`). */
struct run_ctx {
    struct suite *s;
    ssdsim_snia_test test;
    const char *what;
};

static int on_cell(size_t round, size_t cell, const ssdsim_measurement *f, void *ud)
{
    struct run_ctx *x = ud;
    (void)round, (void)cell;
    suite_window_notes(x->s, f, SSDSIM_SNIA_GC_CYCLES, 0);
    return 0;
}

static int on_round(size_t k, const double *track, void *ud)
{
    struct run_ctx *x = ud;
    if (x->test == SSDSIM_SNIA_IOPS)
        suite_say(x->s, "  round %zu: 4K random write %.0f IOPS", k + 1, track[k]);
    else if (x->test == SSDSIM_SNIA_LATENCY)
        suite_say(x->s, "  round %zu: 4K random write mean latency %.1f us", k + 1, track[k]);
    return 0;
}

static void on_steady(ssdsim_steady_method how, const char *bssplit, void *ud)
{
    struct run_ctx *x = ud;
    ssdsim_suite_wl w = WL("randwrite", NULL, bssplit, -1, 4, 32);
    suite_steady_notes(x->s, &w, how, x->what);
}

/* Run `test` (ssdsim_snia_run) with the suite's options; NULL after printing the error. */
static ssdsim_snia_result *run_test(struct suite *s, ssdsim *sim, ssdsim_snia_test test,
                                    const char *name, const char *what)
{
    struct run_ctx x = {s, test, what};
    ssdsim_curve_opts co = suite_curve_opts(s);
    ssdsim_snia_opts o = SSDSIM_SNIA_OPTS_INIT;
    o.cell_ns = s->opt->snia_window_ns;
    o.max_rounds = s->opt->rounds;
    o.rounds_per_drive_write = co.rounds_per_drive_write;
    o.max_drive_writes = co.max_drive_writes;
    o.on_cell = on_cell;
    o.on_round = on_round;
    o.on_steady = on_steady;
    o.userdata = &x;
    ssdsim_snia_result *r = NULL;
    if (ssdsim_snia_run(&r, sim, test, &o))
        cli_error("%s: %s", name, ssdsim_errmsg(sim));
    return r;
}

/* ------------------------------------------------------------------------------------------ */
/* IOPS test                                                                                   */

static int iops_test(struct suite *s, ssdsim *sim, ssdsim_device_stats *dev)
{
    size_t nm, nb;
    ssdsim_snia_shape(SSDSIM_SNIA_IOPS, &nm, &nb);
    ssdsim_suite_wl w0;
    ssdsim_snia_cell(SSDSIM_SNIA_IOPS, 0, &w0, NULL, NULL);
    suite_say(s,
              "IOPS test (%zu mixes x %zu block sizes per round, %" PRIu32 "T/%" PRIu32 "Q):", nm,
              nb, w0.threads, w0.qd);
    cJSON *o = cJSON_AddObjectToObject(s->json, "iops_test");
    ssdsim_snia_result *res =
        run_test(s, sim, SSDSIM_SNIA_IOPS, "IOPS test", "the IOPS test's random-write mix");
    if (!res)
        return -1;
    ssdsim_snia_summary sum;
    ssdsim_snia_get_summary(res, &sum);
    const ssdsim_steady_result st = sum.steady;
    size_t n = sum.n_rounds, last = sum.last, first = sum.first;
    const char *mix = sum.bssplit;
    int mix_pct[8];
    char bsl[8][16];
    uint32_t bs_bytes[8];
    for (size_t b = 0; b < nb; b++) {
        ssdsim_snia_cell(SSDSIM_SNIA_IOPS, b, &w0, NULL, &bs_bytes[b]);
        bs_label(bsl[b], sizeof bsl[b], bs_bytes[b]);
    }
    for (size_t m = 0; m < nm; m++)
        ssdsim_snia_cell(SSDSIM_SNIA_IOPS, m * nb, &w0, &mix_pct[m], NULL);
    /* The tracked cell: 4K random writes (0/100). */
    const size_t mix_w = nm - 1, bs_4k = nb - 2;
    double avg[7][8];
    for (size_t c = 0; c < nm * nb; c++) {
        ssdsim_snia_average a;
        ssdsim_snia_get_average(res, c, &a);
        avg[c / nb][c % nb] = a.iops;
    }
    cJSON_AddStringToObject(o, "preconditioning_mix", mix);
    suite_json_u64(o, "threads", w0.threads);
    suite_json_u64(o, "qd", w0.qd);
    suite_json_u64(o, "cell_ns", s->opt->snia_window_ns);
    cJSON_AddStringToObject(o, "tracking", "4K random write IOPS (0/100)");
    steady_json(cJSON_AddObjectToObject(o, "steady_state"), &st, n);
    cJSON *tab = cJSON_AddArrayToObject(o, "window_average");
    GString *csv = g_string_new("read_write");
    for (size_t b = 0; b < nb; b++)
        g_string_append_printf(csv, ",%s", bsl[b]);
    g_string_append_c(csv, '\n');
    suite_md(s,
             "\n## IOPS test\n\n%d threads x %d queue depth; cells of %.3g s (after a ramp of "
             "a tenth); rounds of %d read/write mixes x %d block sizes. Purge, 2 sequential "
             "fills, round 1, fast preconditioning with the random writes of round 1 (`%s`), "
             "then rounds until steady.\n\n",
             (int)w0.threads, (int)w0.qd, (double)s->opt->snia_window_ns / 1e9, (int)nm, (int)nb,
             mix);
    steady_md(s, "4K random write IOPS", &st, n, "IOPS");
    /* The cells whose window, at its longest, was too short for their requests' latency in a
     * round of the measurement window: their averages are too low (too_few), marked in the
     * table as well as listed with the shortcuts. */
    bool few[7 * 8] = {false}, any_few = false;
    for (size_t c = 0; c < nm * nb; c++) {
        for (size_t k = first; k <= last && k < n; k++) {
            ssdsim_measurement f;
            ssdsim_snia_get_cell(res, k, c, &f);
            few[c] = few[c] || f.too_few;
        }
        any_few |= few[c];
    }
    suite_md(s, "IOPS, averages of the measurement window:\n\n| read/write |");
    for (size_t b = 0; b < nb; b++)
        suite_md(s, " %s |", bsl[b]);
    suite_md(s, "\n|---|");
    for (size_t b = 0; b < nb; b++)
        suite_md(s, "---:|");
    suite_md(s, "\n");
    for (size_t m = 0; m < nm; m++) {
        cJSON *row = cJSON_CreateObject();
        char label[16];
        snprintf(label, sizeof label, "%d/%d", mix_pct[m], 100 - mix_pct[m]);
        cJSON_AddStringToObject(row, "read_write", label);
        g_string_append(csv, label);
        suite_md(s, "| %s |", label);
        for (size_t b = 0; b < nb; b++) {
            suite_json_num(row, bsl[b], avg[m][b]);
            g_string_append_c(csv, ',');
            suite_csv_num(csv, avg[m][b], false);
            csv->str[--csv->len] = '\0'; /* suite_csv_num added a separator */
            suite_md(s, " %.0f%s |", avg[m][b], few[m * nb + b] ? " \\*" : "");
        }
        g_string_append_c(csv, '\n');
        suite_md(s, "\n");
        cJSON_AddItemToArray(tab, row);
    }
    if (any_few)
        suite_md(s, "\n\\* Too few requests completed in the cell's window (listed under the "
                    "shortcuts): its figure is too low.\n");
    suite_csv(s, "snia-iops.csv", g_string_free(csv, FALSE));
    cJSON *tf = cJSON_AddArrayToObject(o, "too_few_cells");
    GString *tfl = g_string_new(NULL);
    for (size_t c = 0; c < nm * nb; c++) {
        if (!few[c])
            continue;
        char label[40];
        snprintf(label, sizeof label, "%d/%d %s", mix_pct[c / nb], 100 - mix_pct[c / nb],
                 bsl[c % nb]);
        cJSON_AddItemToArray(tf, cJSON_CreateString(label));
        g_string_append_printf(tfl, "%s%s", tfl->len ? ", " : "", label);
    }
    if (tfl->len)
        suite_shortcut(s,
                       "IOPS test: the cells %s took longer a request than their ramp, or "
                       "completed fewer than were outstanding, even at their longest window "
                       "(64 x --window): their figures are too low by about the share of their "
                       "requests still outstanding; a longer --window measures them",
                       tfl->str);
    g_string_free(tfl, TRUE);
    cJSON *ra = cJSON_AddArrayToObject(o, "rounds");
    GString *conv = g_string_new("round");
    for (size_t b = 0; b < nb; b++)
        g_string_append_printf(conv, ",write_%s", bsl[b]);
    g_string_append(conv, ",tracking\n");
    GString *wcsv = g_string_new("round,host_bytes_written,drive_writes,waf\n");
    uint64_t host_bytes = 0;
    for (size_t k = 0; k < n; k++) {
        ssdsim_snia_round r;
        ssdsim_snia_get_round(res, k, &r);
        double iops[7][8];
        for (size_t c = 0; c < nm * nb; c++) {
            ssdsim_measurement f;
            ssdsim_snia_get_cell(res, k, c, &f);
            iops[c / nb][c % nb] = f.iops;
        }
        cJSON *ro = cJSON_CreateObject();
        suite_json_u64(ro, "round", k + 1);
        cJSON *cells = cJSON_AddArrayToObject(ro, "iops");
        for (size_t m = 0; m < nm; m++) {
            cJSON *row = cJSON_CreateArray();
            for (size_t b = 0; b < nb; b++)
                cJSON_AddItemToArray(row, cJSON_CreateNumber(suite_round6(iops[m][b])));
            cJSON_AddItemToArray(cells, row);
        }
        suite_json_num(ro, "waf", r.waf);
        suite_json_u64(ro, "host_bytes_written", r.host_bytes_written);
        cJSON_AddItemToArray(ra, ro);
        g_string_append_printf(conv, "%zu", k + 1);
        for (size_t b = 0; b < nb; b++) {
            g_string_append_c(conv, ',');
            suite_csv_num(conv, iops[mix_w][b], true);
            conv->str[--conv->len] = '\0';
        }
        g_string_append_c(conv, ',');
        suite_csv_num(conv, iops[mix_w][bs_4k], true);
        host_bytes += r.host_bytes_written;
        g_string_append_printf(wcsv, "%zu,%" PRIu64 ",", k + 1, host_bytes);
        suite_csv_num(wcsv, (double)host_bytes / (double)dev->logical_bytes, false);
        suite_csv_num(wcsv, r.waf, true);
    }
    cJSON *lab = cJSON_AddArrayToObject(o, "block_sizes");
    for (size_t b = 0; b < nb; b++)
        cJSON_AddItemToArray(lab, cJSON_CreateString(bsl[b]));
    cJSON *mixes = cJSON_AddArrayToObject(o, "read_percent");
    for (size_t m = 0; m < nm; m++)
        cJSON_AddItemToArray(mixes, cJSON_CreateNumber(mix_pct[m]));
    suite_csv(s, "snia-iops-convergence.csv", g_string_free(conv, FALSE));
    suite_csv(s, "snia-waf.csv", g_string_free(wcsv, FALSE));
    /* a hard disk (or an array of them) writes no flash: no WAF to plot */
    bool flash = ssdsim_model_get_device_kind(s->model) != SSDSIM_MODEL_HDD;
    suite_md(s, "\n![Convergence](snia-iops-convergence.png)\n\n![Measurement window]"
                "(snia-iops-window.png)\n\n![IOPS by block size](snia-iops.png)\n%s",
             flash ? "\n![Write amplification per round](snia-waf.png)\n" : "");

    /* Plots: the convergence of the 0/100 cells, the window of the tracking variable, IOPS by
     * block size (one line per mix), WAF per round against data written. */
    GString *g = g_string_new("set title 'IOPS test: steady-state convergence, 100% writes'\n"
                              "set xlabel 'round'\nset ylabel 'IOPS'\nset logscale y\n"
                              "set key outside right\nplot ");
    for (size_t b = 0; b < nb; b++)
        g_string_append_printf(g,
                               "%s'snia-iops-convergence.csv' skip 1 using 1:%d with linespoints "
                               "title '%s'",
                               b ? ", " : "", (int)b + 2, bsl[b]);
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
                           first + 1, first + 1, last + 1, last + 1, (int)nb + 2, first + 1,
                           last + 1, a, first + 1, last + 1, 1.1 * a, first + 1, last + 1, 0.9 * a,
                           first + 1, last + 1, st.intercept, st.slope, first + 1);
    suite_plot(s, "snia-iops-window.png", g->str);
    g_string_truncate(g, 0);
    g_string_append(g, "set title 'IOPS test: IOPS by block size (window averages)'\n"
                       "set xlabel 'block size (bytes)'\nset ylabel 'IOPS'\nset logscale xy\n"
                       "set key outside right\nplot ");
    for (size_t m = 0; m < nm; m++) {
        g_string_append_printf(g, "%s'-' using 1:2 with linespoints title '%d/%d'", m ? ", " : "",
                               mix_pct[m], 100 - mix_pct[m]);
    }
    g_string_append_c(g, '\n');
    for (size_t m = 0; m < nm; m++) {
        for (size_t b = 0; b < nb; b++)
            g_string_append_printf(g, "%.0f,%.6g\n", (double)bs_bytes[b], avg[m][b]);
        g_string_append(g, "e\n");
    }
    suite_plot(s, "snia-iops.png", g->str);
    g_string_truncate(g, 0);
    g_string_append(g, "set title 'IOPS test: write amplification per round'\n"
                       "set xlabel 'host data written (drive writes)'\nset ylabel 'WAF'\n"
                       "set yrange [0:*]\nset key off\n"
                       "plot 'snia-waf.csv' skip 1 using 3:4 with linespoints\n");
    if (flash)
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
    ssdsim_snia_free(res);
    return 0;
}

/* ------------------------------------------------------------------------------------------ */
/* Throughput test                                                                             */

static int throughput_test(struct suite *s, ssdsim *sim)
{
    static const ssdsim_snia_test test[2] = {SSDSIM_SNIA_THROUGHPUT_1024K,
                                             SSDSIM_SNIA_THROUGHPUT_128K};
    char label[2][16];
    ssdsim_suite_wl w;
    for (int k = 0; k < 2; k++) {
        uint32_t bytes;
        ssdsim_snia_cell(test[k], 0, &w, NULL, &bytes);
        bs_label(label[k], sizeof label[k], bytes);
    }
    suite_say(s, "Throughput test (sequential, %" PRIu32 "T/%" PRIu32 "Q):", w.threads, w.qd);
    cJSON *o = cJSON_AddObjectToObject(s->json, "throughput_test");
    suite_json_u64(o, "threads", w.threads);
    suite_json_u64(o, "qd", w.qd);
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
        ssdsim_snia_result *res = run_test(s, sim, test[k], "throughput test", NULL);
        if (!res) {
            g_string_free(csv, TRUE);
            g_string_free(tab, TRUE);
            return -1;
        }
        ssdsim_snia_summary sum;
        ssdsim_snia_get_summary(res, &sum);
        size_t last = sum.last, first = sum.first, n = sum.n_rounds;
        ssdsim_snia_average aw, ar;
        ssdsim_snia_get_average(res, 0, &aw);
        ssdsim_snia_get_average(res, 1, &ar);
        cJSON *e = cJSON_CreateObject();
        cJSON_AddStringToObject(e, "block_size", label[k]);
        steady_json(cJSON_AddObjectToObject(e, "steady_state"), &sum.steady, n);
        suite_json_num(e, "write_mb_s", aw.bw_mb_s);
        suite_json_num(e, "read_mb_s", ar.bw_mb_s);
        cJSON *rw = cJSON_AddArrayToObject(e, "rounds_write_mb_s");
        cJSON *rr = cJSON_AddArrayToObject(e, "rounds_read_mb_s");
        for (size_t i = 0; i < n; i++) {
            ssdsim_measurement fw, fr;
            ssdsim_snia_get_cell(res, i, 0, &fw);
            ssdsim_snia_get_cell(res, i, 1, &fr);
            cJSON_AddItemToArray(rw, cJSON_CreateNumber(suite_round6(fw.bw_bytes / 1e6)));
            cJSON_AddItemToArray(rr, cJSON_CreateNumber(suite_round6(fr.bw_bytes / 1e6)));
            g_string_append_printf(csv, "%s,%zu,", label[k], i + 1);
            suite_csv_num(csv, fw.bw_bytes / 1e6, false);
            suite_csv_num(csv, fr.bw_bytes / 1e6, true);
        }
        cJSON_AddItemToArray(arr, e);
        char at[32] = "not steady";
        if (sum.steady.steady)
            snprintf(at, sizeof at, "%zu", last + 1);
        g_string_append_printf(tab, "| %s | %.1f | %.1f | %s | %zu to %zu |\n", label[k],
                               aw.bw_mb_s, ar.bw_mb_s, at, first + 1, last + 1);
        suite_say(s, "  %s: write %.1f MB/s, read %.1f MB/s (%s, %u rounds)", label[k], aw.bw_mb_s,
                  ar.bw_mb_s, sum.steady.steady ? "steady" : "not steady", (unsigned)n);
        ssdsim_snia_free(res);
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

static int latency_test(struct suite *s, ssdsim *sim)
{
    suite_say(s, "Latency test (1T/1Q):");
    cJSON *o = cJSON_AddObjectToObject(s->json, "latency_test");
    suite_json_u64(o, "threads", 1);
    suite_json_u64(o, "qd", 1);
    ssdsim_snia_result *res = run_test(s, sim, SSDSIM_SNIA_LATENCY, "latency test",
                                       "the latency test's random-write mix");
    if (!res)
        return -1;
    ssdsim_snia_summary sum;
    ssdsim_snia_get_summary(res, &sum);
    const ssdsim_steady_result st = sum.steady;
    size_t n = sum.n_rounds, last = sum.last;
    size_t nm, nb;
    ssdsim_snia_shape(SSDSIM_SNIA_LATENCY, &nm, &nb);
    cJSON_AddStringToObject(o, "preconditioning_mix", sum.bssplit);
    steady_json(cJSON_AddObjectToObject(o, "steady_state"), &st, n);
    cJSON_AddStringToObject(o, "tracking", "4K random write mean latency (us, 0/100)");
    suite_md(s,
             "\n## Latency test\n\n1 thread x 1 queue depth; purge, 2 sequential fills, round "
             "1, fast preconditioning with the random writes of round 1 (`%s`), then rounds "
             "of 3 read/write mixes x 3 block sizes, cells of %.3g s.\n\n",
             sum.bssplit, (double)s->opt->snia_window_ns / 1e9);
    steady_md(s, "4K random write mean latency", &st, n, "us");
    suite_md(s, "| read/write | block size | mean (us) | p99 (us) | p99.99 (us) | max (us) |\n"
                "|---|---|---:|---:|---:|---:|\n");
    GString *csv = g_string_new("read_write,block_size,lat_mean_us,lat_p99_us,lat_p99_99_us,"
                                "lat_max_us\n");
    cJSON *tab = cJSON_AddArrayToObject(o, "window_average");
    size_t cell_r4 = 0, cell_w4 = 0; /* the 4K random read and write cells */
    for (size_t c = 0; c < nm * nb; c++) {
        ssdsim_suite_wl w;
        int rp;
        uint32_t bytes;
        ssdsim_snia_cell(SSDSIM_SNIA_LATENCY, c, &w, &rp, &bytes);
        if (bytes == 4096 && rp == 100)
            cell_r4 = c;
        if (bytes == 4096 && rp == 0)
            cell_w4 = c;
        ssdsim_snia_average a;
        ssdsim_snia_get_average(res, c, &a);
        char mixl[16], bsl[16];
        snprintf(mixl, sizeof mixl, "%d/%d", rp, 100 - rp);
        bs_label(bsl, sizeof bsl, bytes);
        double v[4] = {a.lat_mean_ns / 1e3, a.lat_p99_ns / 1e3, a.lat_p99_99_ns / 1e3,
                       (double)a.lat_max_ns / 1e3};
        cJSON *e = cJSON_CreateObject();
        cJSON_AddStringToObject(e, "read_write", mixl);
        cJSON_AddStringToObject(e, "block_size", bsl);
        static const char *const key[4] = {"lat_mean_us", "lat_p99_us", "lat_p99_99_us",
                                           "lat_max_us"};
        g_string_append_printf(csv, "%s,%s,", mixl, bsl);
        for (int k = 0; k < 4; k++) {
            suite_json_num(e, key[k], v[k]);
            suite_csv_num(csv, v[k], k == 3);
        }
        /* the spread and the requests behind it (the report's note on latencies that hardly
         * spread counts these cells as it counts the other suites' points) */
        suite_json_num(e, "lat_stddev_us", a.lat_stddev_ns / 1e3);
        suite_json_num(e, "iops", a.iops);
        suite_json_u64(e, "requests", a.n_ios);
        cJSON_AddItemToArray(tab, e);
        suite_md(s, "| %s | %s | %.1f | %.1f | %.1f | %.1f |\n", mixl, bsl, v[0], v[1], v[2], v[3]);
    }
    suite_csv(s, "snia-latency.csv", g_string_free(csv, FALSE));
    GString *cdf = g_string_new("series,lat_us,cdf\n");
    cJSON *co = cJSON_AddObjectToObject(o, "latency_cdf");
    suite_sum_cdf(ssdsim_snia_window_latency(res, cell_r4), "4K random read QD1", cdf, co,
                  "4k-random-read");
    suite_sum_cdf(ssdsim_snia_window_latency(res, cell_w4), "4K random write QD1", cdf, co,
                  "4k-random-write");
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
    ssdsim_snia_free(res);
    return 0;
}

/* The three tests, each on a simulation of its own (each purges the drive first anyway). */
static int snia_part(struct suite *s, size_t k, void *ctx)
{
    (void)ctx;
    ssdsim *sim = suite_sim_new(s, s->model);
    if (!sim)
        return -1;
    ssdsim_device_stats d;
    ssdsim_get_device_stats(sim, &d);
    int rc = k == 0 ? iops_test(s, sim, &d) : k == 1 ? throughput_test(s, sim) : latency_test(s, sim);
    ssdsim_free(sim);
    return rc ? -1 : 0;
}

/* The IOPS test's 56 cells a round cost most, the latency test's QD1 cells least. */
static double snia_cost(void *ctx, size_t k)
{
    (void)ctx;
    return k == 0 ? 3 : k == 1 ? 2 : 1;
}

int suite_snia(struct suite *s)
{
    struct suite parts[3];
    memset(parts, 0, sizeof parts);
    struct suite_parts def = {.n = 3, .run = snia_part, .cost = snia_cost};
    int rc = suite_parts_run(s, &def, parts);
    if (rc == 0) {
        suite_md(s, "SNIA Solid State Storage Performance Test Specification, Enterprise (PTS-E): "
                    "each test purges the drive (secure erase), preconditions it "
                    "(workload-independent: the user capacity written twice with 128 KiB "
                    "sequential writes), then runs rounds until its tracking variable is steady: "
                    "over a measurement window of 5 rounds, the excursion (max - min) within 20%% "
                    "of the window's average and the excursion of the least-squares line within "
                    "10%%. Figures are averages over the window.\n");
        for (size_t k = 0; k < 3; k++) {
            suite_json_move(s->json, parts[k].json);
            g_string_append(s->md, parts[k].md->str);
            suite_part_merge(s, &parts[k]);
        }
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
    for (size_t k = 0; k < 3; k++)
        suite_part_free(&parts[k]);
    return rc;
}
