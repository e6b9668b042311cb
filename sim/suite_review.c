/* suite_review.c: `ssdsim suite review`, the review labs' enterprise synthetic workload
 * analysis (shared/reference/methodology.md, section 1; doc/suites.md).
 *
 * Per profile (4K random write, 8K 70/30, file server, web server): secure erase, a
 * preconditioning curve at 16 threads x 16 queue depth from the fresh drive to steady state
 * (the web server is preconditioned with its size mix as writes), then the thread/queue matrix
 * 2T/2Q ... 16T/16Q at steady state. Then 4K random read and write at 16T/16Q, 128K sequential
 * read and write on a sequentially filled drive, and, with --compare-op, the 4K random-write
 * figures of the same drive formatted with more over-provisioning.
 */
#include <inttypes.h>
#include <math.h>
#include <string.h>

#include "suite.h"

struct profile {
    const char *id, *title;
    ssdsim_suite_wl pre;  /* preconditioning, at 16T/16Q */
    ssdsim_suite_wl meas; /* the matrix workload (threads and qd set per point) */
};

/* What one drive (formatting mode) gives. */
struct mode {
    const char *name;   /* "stock", "op+0.2" */
    const char *suffix; /* file-name suffix: "" or "-op" */
    ssdsim_review_drive *drive;
    const ssdsim_model *model;
    ssdsim *full, *copy;
    uint64_t logical_bytes;
    double op;
};

/* `curves`: the drive will run preconditioning curves, so it gets the curves' scaled copy
 * (the 128K points run none). */
static int mode_open(struct suite *s, struct mode *m, const ssdsim_model *model, double add_op,
                     bool curves)
{
    ssdsim_review_drive_opts o = SSDSIM_REVIEW_DRIVE_OPTS_INIT;
    o.add_op = add_op;
    o.curve_blocks_per_plane = s->opt->curve_bpp;
    o.curve_full = s->opt->curve_full || !curves;
    o.seed = s->seed;
    o.progress = cli_interrupt_cb; /* SIGINT and SIGTERM cancel the run (interrupt.c) */
    ssdsim_error err;
    if (ssdsim_review_drive_new(&m->drive, model, &o, &err)) {
        cli_error("%s", err.message);
        return -1;
    }
    m->model = ssdsim_review_drive_model(m->drive);
    m->full = ssdsim_review_drive_sim(m->drive);
    m->copy = ssdsim_review_drive_copy(m->drive);
    ssdsim_device_stats d;
    ssdsim_get_device_stats(m->full, &d);
    m->logical_bytes = d.logical_bytes;
    m->op = d.op;
    return 0;
}

static void fig_ms(char *buf, size_t len, double ns)
{
    if (!isfinite(ns))
        snprintf(buf, len, "-");
    else
        snprintf(buf, len, "%.3f", ns / 1e6);
}

/* After each matrix point: its re-run bullet, and the latency CDF of 16T/16Q. */
struct matrix_ctx {
    struct suite *s;
    const ssdsim *sim;
    GString *cdf_csv;
    cJSON *cdf_obj;
    const char *cdf_series, *id;
};

static int matrix_point(size_t i, const ssdsim_measurement *f, void *ud)
{
    struct matrix_ctx *x = ud;
    suite_window_notes(x->s, f, SUITE_GC_CYCLES, 0);
    if (i + 1 == SSDSIM_REVIEW_N_POINTS && x->cdf_csv)
        suite_cdf(x->sim, SSDSIM_OP_ALL, x->cdf_series, x->cdf_csv, x->cdf_obj, x->id);
    return 0;
}

/* The matrix of one profile: 16 points, in the labs' order 2T/2Q, 2T/4Q, ... 16T/16Q. */
static int run_matrix(struct suite *s, struct mode *m, const struct profile *p, const char *id,
                      cJSON *pobj, GString *cdf_csv, cJSON *cdf_obj, const char *cdf_series)
{
    cJSON *arr = cJSON_AddArrayToObject(pobj, "matrix");
    GString *csv = g_string_new("threads,qd,eff_qd,iops,mb_s,lat_mean_us,lat_max_us,"
                                "lat_stddev_us,lat_p99_us,read_iops,write_iops,waf,window_s,"
                                "converged\n");
    suite_md(s, "\n#### Thread/queue matrix\n\n"
                "| T/Q | effective QD | IOPS | MB/s | mean latency (ms) | max latency (ms) | "
                "latency stddev (ms) | converged |\n|---|---:|---:|---:|---:|---:|---:|---|\n");
    struct matrix_ctx x = {s, m->full, cdf_csv, cdf_obj, cdf_series, id};
    ssdsim_measurement fig[SSDSIM_REVIEW_N_POINTS];
    if (ssdsim_review_matrix(m->full, &p->meas, s->opt->window_ns, fig, matrix_point, &x)) {
        g_autofree char *wj = suite_wl_json(&p->meas);
        cli_error("%s (workload %s)", ssdsim_errmsg(m->full), wj);
        g_string_free(csv, TRUE);
        return -1;
    }
    for (size_t i = 0; i < SSDSIM_REVIEW_N_POINTS; i++) {
        const ssdsim_measurement f = fig[i];
        ssdsim_suite_wl w = p->meas;
        ssdsim_review_point(i, &w.threads, &w.qd);
        cJSON *pt = cJSON_CreateObject();
        suite_json_u64(pt, "threads", w.threads);
        suite_json_u64(pt, "qd", w.qd);
        suite_json_u64(pt, "eff_qd", (uint64_t)w.threads * w.qd);
        suite_fig_json(pt, &f);
        cJSON_AddItemToArray(arr, pt);
        g_string_append_printf(csv, "%" PRIu32 ",%" PRIu32 ",%" PRIu32 ",", w.threads, w.qd,
                               w.threads * w.qd);
        const double v[] = {f.iops,
                            f.bw_bytes / 1e6,
                            f.lat_mean_ns / 1e3,
                            (double)f.lat_max_ns / 1e3,
                            f.lat_stddev_ns / 1e3,
                            (double)f.lat_p99_ns / 1e3,
                            f.read_iops,
                            f.write_iops,
                            f.waf,
                            (double)f.window_ns / 1e9};
        for (size_t k = 0; k < G_N_ELEMENTS(v); k++)
            suite_csv_num(csv, v[k], false);
        g_string_append_printf(csv, "%d\n", f.steady ? 1 : 0);
        char a[32], b[32], c[32];
        fig_ms(a, sizeof a, f.lat_mean_ns);
        fig_ms(b, sizeof b, (double)f.lat_max_ns);
        fig_ms(c, sizeof c, f.lat_stddev_ns);
        suite_md(s,
                 "| %" PRIu32 "T/%" PRIu32 "Q | %" PRIu32 " | %.0f | %.1f | %s | %s | %s | %s |\n",
                 w.threads, w.qd, w.threads * w.qd, f.iops, f.bw_bytes / 1e6, a, b, c,
                 f.steady ? "yes" : "no");
    }
    g_autofree char *name = g_strdup_printf("matrix-%s.csv", id);
    suite_csv(s, name, g_string_free(csv, FALSE));
    /* IOPS and mean latency against effective queue depth, one line per thread count. */
    g_autofree char *png = g_strdup_printf("matrix-%s.png", id);
    g_autofree char *qcsv = cli_gnuplot_quote(name);
    g_autofree char *title = g_strdup_printf("%s%s: thread/queue matrix at steady state", p->title,
                                             m->suffix[0] ? " (more over-provisioning)" : "");
    g_autofree char *qt = cli_gnuplot_quote(title);
    GString *g = g_string_new(NULL);
    g_string_append_printf(g,
                           "set multiplot layout 1,2 title %s\nset logscale x 2\n"
                           "set xlabel 'effective queue depth (threads x queue depth)'\n"
                           "set key top left\n",
                           qt);
    static const char *const panel[2][3] = {{"$4", "IOPS", "IOPS"},
                                            {"($6/1000)", "mean latency", "ms"}};
    for (int k = 0; k < 2; k++) {
        g_string_append_printf(g, "set title '%s'\nset ylabel '%s'\nset yrange [0:*]\nplot ",
                               panel[k][1], panel[k][2]);
        for (int ti = 0; ti < 4; ti++) {
            uint32_t threads, qd;
            ssdsim_review_point((size_t)ti * 4, &threads, &qd);
            g_string_append_printf(g,
                                   "%s%s skip 1 using 3:($1==%" PRIu32 " ? %s : 1/0) with "
                                   "linespoints title '%" PRIu32 " threads'",
                                   ti ? ", " : "", qcsv, threads, panel[k][0], threads);
        }
        g_string_append_c(g, '\n');
    }
    g_string_append(g, "unset multiplot\n");
    suite_plot(s, png, g->str);
    g_string_free(g, TRUE);
    return 0;
}

static void curve_md(struct suite *s, const struct suite_curve *c, const char *title)
{
    if (c->n_rows == 0) {
        suite_md(s, "\n#### Preconditioning curve\n\nNone: the model is a hard disk or an "
                    "array of them, which keeps no state that writes change.\n");
        return;
    }
    char cliff[48] = "none";
    if (isfinite(c->sum.cliff_t_s))
        snprintf(cliff, sizeof cliff, "%.0f s", c->sum.cliff_t_s);
    suite_md(s,
             "\n#### Preconditioning curve\n\n![%s preconditioning](precondition-%s.png)\n\n"
             "| burst IOPS | IOPS below 90%% of the burst from | steady IOPS | steady mean "
             "latency (ms) | steady max latency (ms) | steady WAF | steady at |\n"
             "|---:|---:|---:|---:|---:|---:|---|\n"
             "| %.0f | %s | %.0f | %.3f | %.3f | %.2f | %s%.2f drive writes, %.0f s%s |\n",
             title, c->id, c->sum.burst_iops, cliff, c->sum.steady_iops,
             c->sum.steady_lat_mean_us / 1e3, c->sum.steady_lat_max_us / 1e3, c->sum.steady_waf,
             c->sum.steady ? "" : "not steady after ", c->sum.steady_drive_writes,
             c->sum.steady_t_s, c->sum.scaled ? " (model time)" : "");
}

static int run_profile(struct suite *s, struct mode *m, const struct profile *p, cJSON *parr,
                       GString *cdf_csv, cJSON *cdf_obj, struct suite_curve *keep, GString *summary)
{
    g_autofree char *id = g_strdup_printf("%s%s", p->id, m->suffix);
    g_autofree char *title =
        g_strdup_printf("%s%s", p->title, m->suffix[0] ? " (more over-provisioning)" : "");
    suite_say(s, "%s:", title);
    cJSON *pobj = cJSON_CreateObject();
    cJSON_AddItemToArray(parr, pobj);
    cJSON_AddStringToObject(pobj, "id", id);
    cJSON_AddStringToObject(pobj, "title", title);
    cJSON_AddStringToObject(pobj, "mode", m->name);
    g_autofree char *pre = suite_wl_json(&p->pre);
    g_autofree char *meas = suite_wl_json(&p->meas);
    cJSON_AddItemToObject(pobj, "precondition_workload", cJSON_Parse(pre));
    cJSON_AddItemToObject(pobj, "workload", cJSON_Parse(meas));
    suite_md(s,
             "\n### %s\n\nPreconditioning: `%s`; measured: `%s` (threads and queue depth "
             "as in the matrix).\n",
             title, pre, meas);
    cJSON *cobj = cJSON_AddObjectToObject(pobj, "precondition");
    struct suite_curve c;
    int rc = suite_precondition(s, m->full, m->copy, &p->pre, id, title, cobj, &c);
    if (rc == 0) {
        curve_md(s, &c, title);
        suite_md(s, "\n![%s matrix](matrix-%s.png)\n", title, id);
        g_autofree char *series = g_strdup_printf("%s 16T/16Q", title);
        rc = run_matrix(s, m, p, id, pobj, cdf_csv, cdf_obj, series);
    }
    if (rc == 0) {
        const cJSON *last =
            cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(pobj, "matrix"), 15);
        double iops = cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(last, "iops"));
        suite_say(s, "  matrix: 16 points, 16T/16Q %.0f IOPS", iops);
        char burst[32] = "-", steady[32] = "-", waf[32] = "-";
        if (c.n_rows > 0) {
            snprintf(burst, sizeof burst, "%.0f", c.sum.burst_iops);
            snprintf(steady, sizeof steady, "%.0f%s", c.sum.steady_iops,
                     c.sum.steady ? "" : " (not steady)");
            snprintf(waf, sizeof waf, "%.2f", c.sum.steady_waf);
        }
        g_string_append_printf(
            summary, "| %s | %s | %s | %s | %.0f | %.3f | %.3f |\n", title, burst, steady, waf,
            iops, cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(last, "lat_mean_ns")) / 1e6,
            cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(last, "lat_max_ns")) / 1e6);
    }
    if (keep && rc == 0)
        *keep = c;
    return rc;
}

/* One fixed heavy point, measured for the whole window: into `fixed` (JSON), a row of the
 * table `tab` and of `csv`, and, when `cdf_series` is set, a line of the latency CDF. */
static int fixed_point(struct suite *s, struct mode *m, const ssdsim_suite_wl *w, const char *key,
                       const char *label, cJSON *fixed, GString *tab, GString *csv,
                       const char *cdf_series, GString *cdf_csv, cJSON *cdf_obj)
{
    ssdsim_measurement f;
    if (suite_measure(s, m->full, w, s->opt->window_ns, false, SUITE_GC_CYCLES, &f))
        return -1;
    g_autofree char *k = g_strdup_printf("%s%s", key, m->suffix);
    g_autofree char *l =
        g_strdup_printf("%s%s", label, m->suffix[0] ? " (more over-provisioning)" : "");
    cJSON *o = cJSON_AddObjectToObject(fixed, k);
    cJSON_AddStringToObject(o, "title", l);
    cJSON_AddStringToObject(o, "mode", m->name);
    g_autofree char *wj = suite_wl_json(w);
    cJSON_AddItemToObject(o, "workload", cJSON_Parse(wj));
    suite_fig_json(o, &f);
    g_string_append_printf(csv, "%s,%s,", k, m->name);
    const double v[] = {f.iops,
                        f.bw_bytes / 1e6,
                        f.lat_mean_ns / 1e3,
                        (double)f.lat_max_ns / 1e3,
                        f.lat_stddev_ns / 1e3,
                        (double)f.lat_p99_ns / 1e3};
    for (size_t i = 0; i < G_N_ELEMENTS(v); i++)
        suite_csv_num(csv, v[i], i + 1 == G_N_ELEMENTS(v));
    char a[32], b[32], c[32];
    fig_ms(a, sizeof a, f.lat_mean_ns);
    fig_ms(b, sizeof b, (double)f.lat_max_ns);
    fig_ms(c, sizeof c, f.lat_stddev_ns);
    g_string_append_printf(tab, "| %s | %.0f | %.1f | %s | %s | %s |\n", l, f.iops,
                           f.bw_bytes / 1e6, a, b, c);
    suite_say(s, "  %s: %.0f IOPS, %.1f MB/s, mean latency %.3f ms", l, f.iops, f.bw_bytes / 1e6,
              f.lat_mean_ns / 1e6);
    if (cdf_series)
        suite_cdf(m->full, SSDSIM_OP_ALL, cdf_series, cdf_csv, cdf_obj, k);
    return 0;
}

/* The 4K points at 16T/16Q, run right after the 4K matrix at the same steady state. */
static int fixed_4k(struct suite *s, struct mode *m, cJSON *fixed, GString *tab, GString *csv,
                    GString *cdf_csv, cJSON *cdf_obj, GPtrArray *series)
{
    ssdsim_suite_wl w4w = WL("randwrite", "4k", NULL, -1, 16, 16);
    ssdsim_suite_wl w4r = WL("randread", "4k", NULL, -1, 16, 16);
    g_autofree char *rs = g_strdup_printf("4K random read 16T/16Q%s",
                                          m->suffix[0] ? " (more over-provisioning)" : "");
    if (fixed_point(s, m, &w4w, "4k-random-write-16t16q", "4K random write 16T/16Q", fixed, tab,
                    csv, NULL, NULL, NULL) ||
        fixed_point(s, m, &w4r, "4k-random-read-16t16q", "4K random read 16T/16Q", fixed, tab, csv,
                    rs, cdf_csv, cdf_obj))
        return -1;
    g_ptr_array_add(series, g_strdup(rs));
    return 0;
}

/* 128K sequential write and read at 16T/16Q on a sequentially filled drive, each thread
 * streaming through its own sixteenth of the logical space (a RAID card's write-back cache
 * filled by those writes first). */
static int fixed_seq(struct suite *s, struct mode *m, cJSON *fixed, GString *tab, GString *csv)
{
    if (suite_erase(m->full))
        return -1;
    if (ssdsim_precondition_seq(m->full)) {
        cli_error("sequential fill: %s", ssdsim_errmsg(m->full));
        return -1;
    }
    /* the region one job addresses: the volume (a JBOD's device) */
    uint64_t vol = ssdsim_model_logical_bytes(m->model);
    ssdsim_suite_wl sw = {SSDSIM_SUITE_WL_VERSION, "write", "128k", NULL, -1, 16, 16, 0, vol, true};
    ssdsim_suite_wl sr = {SSDSIM_SUITE_WL_VERSION, "read", "128k", NULL, -1, 16, 16, 0, vol, true};
    if (suite_fill_card_cache(s, m->full, &sw))
        return -1;
    return fixed_point(s, m, &sw, "128k-seq-write-16t16q", "128K sequential write 16T/16Q", fixed,
                       tab, csv, NULL, NULL, NULL) ||
                   fixed_point(s, m, &sr, "128k-seq-read-16t16q", "128K sequential read 16T/16Q",
                               fixed, tab, csv, NULL, NULL, NULL)
               ? -1
               : 0;
}

static void overlay_plot(struct suite *s, const char *png, const char *title, const char *ylabel,
                         const char *xcol, const char *xlabel, const char *ycol,
                         const GPtrArray *ids, const GPtrArray *titles, const char *key)
{
    GString *g = g_string_new(NULL);
    g_autofree char *qt = cli_gnuplot_quote(title);
    g_string_append_printf(g,
                           "set title %s\nset xlabel '%s'\nset ylabel '%s'\nset key %s\n"
                           "set yrange [0:*]\nplot ",
                           qt, xlabel, ylabel, key);
    for (guint i = 0; i < ids->len; i++) {
        g_autofree char *csv = g_strdup_printf("precondition-%s.csv", (char *)ids->pdata[i]);
        g_autofree char *qc = cli_gnuplot_quote(csv);
        g_autofree char *ql = cli_gnuplot_quote(titles->pdata[i]);
        g_string_append_printf(g, "%s%s skip 1 using %s:%s with lines lw 1.5 title %s",
                               i ? ", \\\n     " : "", qc, xcol, ycol, ql);
    }
    g_string_append_c(g, '\n');
    suite_plot(s, png, g->str);
    g_string_free(g, TRUE);
}

static void cdf_plot(struct suite *s, const GPtrArray *series)
{
    GString *g = g_string_new("set title 'Latency CDF at steady state, 16T/16Q'\n"
                              "set xlabel 'latency (us)'\nset ylabel 'fraction of requests'\n"
                              "set logscale x\nset yrange [0:1]\nset key bottom right\nplot ");
    for (guint i = 0; i < series->len; i++) {
        g_autofree char *q = cli_gnuplot_quote(series->pdata[i]);
        g_string_append_printf(g,
                               "%s'latency-cdf.csv' skip 1 using 2:(strcol(1) eq %s ? $3 : 1/0) "
                               "with lines lw 1.5 title %s",
                               i ? ", \\\n     " : "", q, q);
    }
    g_string_append_c(g, '\n');
    suite_plot(s, "latency-cdf.png", g->str);
    g_string_free(g, TRUE);
}

/* The review's parts, each on a drive of its own: the four profiles (the first with the 4K
 * points at 16T/16Q, measured at its steady state), the 128K sequential points, and with
 * --compare-op the 4K random-write profile and points of the second formatting mode. */
enum { PART_SEQ = SSDSIM_REVIEW_N_PROFILES, PART_OP, N_PARTS };

struct review {
    struct profile profiles[SSDSIM_REVIEW_N_PROFILES];
    size_t n_parts;
};

/* What a part gives besides its Markdown and files: in its JSON under "profiles", "fixed" and
 * "latency_cdf" as in suite.json, and the rows of the shared tables under "part". */
static int review_part(struct suite *s, size_t k, void *ctx)
{
    const struct review *r = ctx;
    struct mode m = {.name = "stock", .suffix = ""};
    g_autofree char *op_name = NULL;
    double add_op = 0;
    if (k == PART_OP) {
        op_name = g_strdup_printf("op+%.3g", s->opt->compare_op);
        m.name = op_name;
        m.suffix = "-op";
        add_op = s->opt->compare_op;
    }
    cJSON *parr = cJSON_AddArrayToObject(s->json, "profiles");
    cJSON *fixed = cJSON_AddObjectToObject(s->json, "fixed");
    cJSON *cdf_obj = cJSON_AddObjectToObject(s->json, "latency_cdf");
    GString *cdf_csv = g_string_new(NULL), *fcsv = g_string_new(NULL);
    GString *ftab = g_string_new(NULL), *summary = g_string_new(NULL);
    GPtrArray *series = g_ptr_array_new_with_free_func(g_free);
    struct suite_curve c4k = {0};
    int rc = -1;
    if (mode_open(s, &m, s->model, add_op, k != PART_SEQ))
        goto out;
    if (k == PART_SEQ) {
        suite_say(s, "128K sequential:");
        if (fixed_seq(s, &m, fixed, ftab, fcsv))
            goto out;
    } else {
        const struct profile *p = &r->profiles[k == PART_OP ? 0 : k];
        if (run_profile(s, &m, p, parr, cdf_csv, cdf_obj, &c4k, summary))
            goto out;
        if (k == PART_OP)
            g_ptr_array_add(series, g_strdup("4K random write (more over-provisioning) 16T/16Q"));
        else
            g_ptr_array_add(series, g_strdup_printf("%s 16T/16Q", p->title));
        if ((k == 0 || k == PART_OP) &&
            fixed_4k(s, &m, fixed, ftab, fcsv, cdf_csv, cdf_obj, series))
            goto out;
    }
    cJSON *part = cJSON_AddObjectToObject(s->json, "part");
    cJSON_AddStringToObject(part, "cdf_csv", cdf_csv->str);
    cJSON_AddStringToObject(part, "fixed_csv", fcsv->str);
    cJSON_AddStringToObject(part, "fixed_md", ftab->str);
    cJSON_AddStringToObject(part, "summary_md", summary->str);
    cJSON *sa = cJSON_AddArrayToObject(part, "cdf_series");
    for (guint i = 0; i < series->len; i++)
        cJSON_AddItemToArray(sa, cJSON_CreateString(series->pdata[i]));
    cJSON *c = cJSON_AddObjectToObject(part, "steady");
    cJSON_AddNumberToObject(c, "iops", c4k.sum.steady_iops);
    cJSON_AddNumberToObject(c, "lat_mean_us", c4k.sum.steady_lat_mean_us);
    cJSON_AddNumberToObject(c, "lat_max_us", c4k.sum.steady_lat_max_us);
    cJSON_AddNumberToObject(c, "waf", c4k.sum.steady_waf);
    cJSON_AddBoolToObject(c, "reached", c4k.sum.steady);
    cJSON_AddNumberToObject(c, "drive_writes", c4k.sum.steady_drive_writes);
    cJSON_AddNumberToObject(part, "logical_bytes", (double)m.logical_bytes);
    cJSON_AddNumberToObject(part, "op", m.op);
    rc = 0;
out:
    g_string_free(cdf_csv, TRUE);
    g_string_free(fcsv, TRUE);
    g_string_free(ftab, TRUE);
    g_string_free(summary, TRUE);
    g_ptr_array_unref(series);
    ssdsim_review_drive_free(m.drive);
    return rc;
}

/* The profiles' curves and matrices cost several times the 128K points. */
/* What a part costs, to start the dearest first (the workers take them in that order): a
 * profile's cost is mostly its preconditioning curve, which runs to some drive writes, and a
 * profile whose requests write a share w of the time issues 1/w requests per request that
 * writes (8K 70/30 and the file server cost more than 4K random writes; on the 960 PRO 366 and
 * 445 CPU-s against 321). The 128K sequential points cost little. */
static double review_cost(void *ctx, size_t k)
{
    const struct review *r = ctx;
    if (k == PART_SEQ)
        return 1;
    double w = ssdsim_suite_wl_write_share(&r->profiles[k == PART_OP ? 0 : k].pre);
    return w > 0 ? 4 / w : 4;
}

static const char *part_str(const cJSON *part, const char *key)
{
    const char *v = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(part, key));
    return v ? v : "";
}

static double part_num(const cJSON *part, const char *key)
{
    return cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(part, key));
}

int suite_review(struct suite *s)
{
    struct review r = {.n_parts = s->opt->compare_op > 0 ? N_PARTS : PART_OP};
    for (size_t i = 0; i < SSDSIM_REVIEW_N_PROFILES; i++)
        ssdsim_review_profile(i, &r.profiles[i].id, &r.profiles[i].title, &r.profiles[i].pre,
                              &r.profiles[i].meas);
    struct suite parts[N_PARTS];
    memset(parts, 0, sizeof parts);
    struct suite_parts def = {.n = r.n_parts, .run = review_part, .cost = review_cost, .ctx = &r};
    int rc = -1;
    if (suite_parts_run(s, &def, parts))
        goto out;

    cJSON *parr = cJSON_AddArrayToObject(s->json, "profiles");
    cJSON *fixed = cJSON_AddObjectToObject(s->json, "fixed");
    cJSON *cdf_obj = cJSON_AddObjectToObject(s->json, "latency_cdf");
    GString *cdf_csv = g_string_new("series,lat_us,cdf\n");
    GString *fcsv = g_string_new("test,mode,iops,mb_s,lat_mean_us,lat_max_us,lat_stddev_us,"
                                 "lat_p99_us\n");
    GString *ftab = g_string_new("| test | IOPS | MB/s | mean latency (ms) | max latency (ms) | "
                                 "latency stddev (ms) |\n|---|---:|---:|---:|---:|---:|\n");
    GString *summary = g_string_new(NULL), *prof_md = g_string_new(NULL);
    GPtrArray *ids = g_ptr_array_new_with_free_func(g_free);
    GPtrArray *titles = g_ptr_array_new_with_free_func(g_free);
    GPtrArray *series = g_ptr_array_new_with_free_func(g_free);
    /* in part order: the files do not depend on the order the parts finished in */
    for (size_t k = 0; k < r.n_parts; k++) {
        struct suite *p = &parts[k];
        const cJSON *part = cJSON_GetObjectItemCaseSensitive(p->json, "part");
        suite_json_move(parr, cJSON_GetObjectItemCaseSensitive(p->json, "profiles"));
        suite_json_move(fixed, cJSON_GetObjectItemCaseSensitive(p->json, "fixed"));
        suite_json_move(cdf_obj, cJSON_GetObjectItemCaseSensitive(p->json, "latency_cdf"));
        g_string_append(cdf_csv, part_str(part, "cdf_csv"));
        g_string_append(fcsv, part_str(part, "fixed_csv"));
        g_string_append(ftab, part_str(part, "fixed_md"));
        if (k < SSDSIM_REVIEW_N_PROFILES) /* the summary table is of the stock drive */
            g_string_append(summary, part_str(part, "summary_md"));
        const cJSON *it;
        cJSON_ArrayForEach(it, cJSON_GetObjectItemCaseSensitive(part, "cdf_series"))
            g_ptr_array_add(series, g_strdup(cJSON_GetStringValue(it)));
        if (k < SSDSIM_REVIEW_N_PROFILES) {
            g_string_append(prof_md, p->md->str);
            g_ptr_array_add(ids, g_strdup(r.profiles[k].id));
            g_ptr_array_add(titles, g_strdup(r.profiles[k].title));
        } else if (k == PART_OP) {
            g_ptr_array_add(ids, g_strdup("4k-random-write-op"));
            g_ptr_array_add(titles, g_strdup_printf("4K random write (op+%.3g)",
                                                    s->opt->compare_op));
        }
        suite_part_merge(s, p);
    }

    suite_md(s, "Procedure: per profile, secure erase, a preconditioning curve at 16 threads x "
                "16 queue depth from the fresh drive to steady state, then the thread/queue "
                "matrix 2T/2Q ... 16T/16Q at steady state; 4K random write and read at 16T/16Q "
                "right after the 4K matrix; 128K sequential write and read at 16T/16Q (each "
                "thread streaming through its own sixteenth of the drive) after a secure erase "
                "and one sequential fill. Each profile, the 128K points and the second "
                "formatting mode start from a drive of their own.");
    uint32_t volumes = ssdsim_model_n_volumes(s->model);
    if (volumes > 1) /* a JBOD: job k addresses device k mod n */
        suite_md(s, " The model is a JBOD of %" PRIu32 " devices, each its own volume: job k "
                    "addresses device k mod %" PRIu32 ", so the threads of each point spread "
                    "over the devices (16T/16Q puts %.3g threads of 16 on each; a point with "
                    "fewer threads than devices leaves some idle) and the figures are their "
                    "sum; `ssdsim suite scaling --writes` runs 16T/16Q on every device.",
                 volumes, volumes, 16.0 / volumes);
    suite_md(s, "\n\n");
    /* hard disks have no preconditioning curves to plot (nor their CSV files) */
    bool curves = ssdsim_model_get_device_kind(s->model) != SSDSIM_MODEL_HDD;
    if (curves)
        suite_md(s, "![IOPS during preconditioning](precondition-iops.png)\n\n"
                    "![Write amplification against data written](waf.png)\n\n");
    suite_md(s, "![Latency CDF](latency-cdf.png)\n");
    suite_md(s,
             "\n## Summary\n\nPreconditioning at 16T/16Q from a fresh drive (burst: the first "
             "tenth of a drive write; steady: the last drive write of the curve) and the "
             "heaviest matrix point.\n\n| profile | burst IOPS | steady IOPS | steady WAF | "
             "16T/16Q IOPS | 16T/16Q mean latency (ms) | 16T/16Q max latency (ms) |\n"
             "|---|---:|---:|---:|---:|---:|---:|\n%s\n## Profiles\n%s",
             summary->str, prof_md->str);
    suite_md(s, "\n## 4K and 128K at 16T/16Q\n\n%s", ftab->str);
    if (r.n_parts == N_PARTS) {
        const cJSON *pm[2] = {cJSON_GetObjectItemCaseSensitive(parts[0].json, "part"),
                              cJSON_GetObjectItemCaseSensitive(parts[PART_OP].json, "part")};
        const cJSON *st[2] = {cJSON_GetObjectItemCaseSensitive(pm[0], "steady"),
                              cJSON_GetObjectItemCaseSensitive(pm[1], "steady")};
        g_autofree char *op_name = g_strdup_printf("op+%.3g", s->opt->compare_op);
        const char *names[2] = {"stock", op_name};
        cJSON *cmp = cJSON_AddObjectToObject(s->json, "compare_op");
        suite_json_num(cmp, "added_op", s->opt->compare_op);
        for (int mi = 0; mi < 2; mi++) {
            cJSON *o = cJSON_AddObjectToObject(cmp, names[mi]);
            suite_json_u64(o, "logical_bytes", (uint64_t)part_num(pm[mi], "logical_bytes"));
            suite_json_num(o, "op", part_num(pm[mi], "op"));
            suite_json_num(o, "steady_iops", part_num(st[mi], "iops"));
            suite_json_num(o, "steady_lat_mean_us", part_num(st[mi], "lat_mean_us"));
            suite_json_num(o, "steady_lat_max_us", part_num(st[mi], "lat_max_us"));
            suite_json_num(o, "steady_waf", part_num(st[mi], "waf"));
            cJSON_AddBoolToObject(o, "steady_reached",
                                  cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(st[mi],
                                                                                "reached")));
            suite_json_num(o, "steady_drive_writes", part_num(st[mi], "drive_writes"));
        }
        /* a curve that stopped at its limit is not steady: its figures say where it stopped */
        char b1[32], b2[32], iops[2][96];
        for (int mi = 0; mi < 2; mi++) {
            if (cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(st[mi], "reached")))
                snprintf(iops[mi], sizeof iops[mi], "%.0f", part_num(st[mi], "iops"));
            else
                snprintf(iops[mi], sizeof iops[mi], "%.0f, not steady (stopped at %.2f drive "
                         "writes)", part_num(st[mi], "iops"), part_num(st[mi], "drive_writes"));
        }
        suite_md(s,
                 "\n## Formatting modes: stock against %s\n\nThe same drive formatted with "
                 "%.3g more over-provisioning (ftl.op %.3g instead of %.3g): less logical "
                 "capacity, more spare blocks for garbage collection.\n\n"
                 "| | stock | %s |\n|---|---:|---:|\n| logical capacity | %s | %s |\n"
                 "| over-provisioning | %.1f%% | %.1f%% |\n"
                 "| 4K random write IOPS (16T/16Q) | %s | %s |\n"
                 "| mean latency (ms) | %.3f | %.3f |\n| max latency (ms) | %.3f | %.3f |\n"
                 "| WAF | %.2f | %.2f |\n\nThe figures are the last drive write of each "
                 "preconditioning curve: its steady state, or where it stopped, not steady, at "
                 "its limit.\n",
                 op_name, s->opt->compare_op, part_num(pm[1], "op"), part_num(pm[0], "op"),
                 op_name,
                 suite_fmt_bytes(b1, sizeof b1, part_num(pm[0], "logical_bytes")),
                 suite_fmt_bytes(b2, sizeof b2, part_num(pm[1], "logical_bytes")),
                 100 * part_num(pm[0], "op"), 100 * part_num(pm[1], "op"),
                 iops[0], iops[1], part_num(st[0], "lat_mean_us") / 1e3,
                 part_num(st[1], "lat_mean_us") / 1e3,
                 part_num(st[0], "lat_max_us") / 1e3, part_num(st[1], "lat_max_us") / 1e3,
                 part_num(st[0], "waf"), part_num(st[1], "waf"));
        suite_md(s, "%s", parts[PART_OP].md->str);
    }

    suite_csv(s, "fixed.csv", g_string_free(fcsv, FALSE));
    suite_csv(s, "latency-cdf.csv", g_string_free(cdf_csv, FALSE));
    if (curves) {
        overlay_plot(s, "precondition-iops.png", "IOPS during preconditioning (16T/16Q)", "IOPS",
                     "1", "time (s)", "4", ids, titles, "top right");
        overlay_plot(s, "waf.png", "Write amplification against data written",
                     "WAF per interval", "3", "host data written (drive writes)", "9", ids,
                     titles, "bottom right");
    }
    cdf_plot(s, series);
    suite_shortcut(s,
                   "Each matrix point ran a window of %.3g s of simulated time (longer when it "
                   "held too few requests) after a ramp of a tenth of that (not counted), in "
                   "rounds of a tenth, and stopped early once the IOPS of 5 rounds met the SNIA "
                   "steady-state rule (`converged` in the tables and the JSON); the labs measure "
                   "each point for minutes. Maximum latencies of short windows are lower than "
                   "those of long ones.",
                   (double)s->opt->window_ns / 1e9);
    suite_shortcut(s,
                   "The fixed 4K and 128K points ran windows of %.3g s (longer when they held "
                   "too few requests) after their ramp.",
                   (double)s->opt->window_ns / 1e9);
    g_string_free(ftab, TRUE);
    g_string_free(summary, TRUE);
    g_string_free(prof_md, TRUE);
    g_ptr_array_unref(ids);
    g_ptr_array_unref(titles);
    g_ptr_array_unref(series);
    rc = 0;
out:
    for (size_t k = 0; k < N_PARTS; k++)
        suite_part_free(&parts[k]);
    return rc;
}
