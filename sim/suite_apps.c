/* suite_apps.c: `ssdsim suite apps`, the labs' application benchmarks (a NoSQL cluster,
 * SysBench OLTP; shared/reference/methodology.md, section 4) as the replay of a block trace
 * recorded under the application: the measurement is the library's (ssdsim_apps_run,
 * libssdsim/methods/apps.c): each model written full, the trace replayed as recorded (mean
 * latency per interval) and closed loop at 2 to 32 requests outstanding (I/Os per second, mean
 * and p99 latency). With --compare-model, the same on other models and the drives ranked, which
 * is what such a replay is for ("should give the same ranking of drives"). This file writes the
 * JSON, CSV, Markdown tables and plots.
 */
#include <inttypes.h>
#include <math.h>
#include <string.h>

#include "suite.h"
#include "table.h"

/* One model's results. */
struct apps_model {
    const char *label;
    char name[128];
    ssdsim_model *model; /* NULL for the suite's own (s->model) */
    GArray *iv;          /* ssdsim_interval of the replay as recorded */
    bool recorded;       /* the replay as recorded ran (the trace has times) */
    ssdsim_measurement pt[1 + SSDSIM_APPS_N_THREADS]; /* [0] as recorded, then per threads */
};

struct apps_ctx {
    struct suite *s;
    struct apps_model *cur;
};

static int on_interval(size_t i, const ssdsim_interval *iv, void *ud)
{
    (void)i;
    struct apps_ctx *x = ud;
    g_array_append_val(x->cur->iv, *iv);
    return 0;
}

static int on_point(uint32_t threads, const ssdsim_measurement *m, void *ud)
{
    struct apps_ctx *x = ud;
    struct apps_model *am = x->cur;
    size_t k = 0;
    if (threads) {
        while (k < SSDSIM_APPS_N_THREADS && ssdsim_apps_threads(k) != threads)
            k++;
        k++;
    } else {
        am->recorded = true;
    }
    am->pt[k] = *m;
    if (threads)
        suite_say(x->s, "  %s, %2" PRIu32 " threads: %.0f IOPS, mean %.1f us, p99 %.1f us",
                  am->label, threads, m->iops, m->lat_mean_ns / 1e3, (double)m->lat_p99_ns / 1e3);
    else
        suite_say(x->s,
                  "  %s, as recorded: %" PRIu64 " requests in %.3f s, mean %.1f us, max %.1f us",
                  am->label, m->n_ios, (double)m->run_ns / 1e9, m->lat_mean_ns / 1e3,
                  (double)m->lat_max_ns / 1e3);
    return 0;
}

/* The title and header rows of a table with a row per model and a column per thread count. */
static void threads_table_head(struct suite *s, const char *title)
{
    suite_md(s, "\n### %s\n\n| model |", title);
    for (size_t k = 0; k < SSDSIM_APPS_N_THREADS; k++)
        suite_md(s, " %" PRIu32 " threads |", ssdsim_apps_threads(k));
    suite_md(s, "\n|---|");
    for (size_t k = 0; k < SSDSIM_APPS_N_THREADS; k++)
        suite_md(s, "---:|");
    suite_md(s, "\n");
}

/* A replay's figures as JSON (not suite_fig_json: a replay has no window, ramp or convergence). */
static void point_json(cJSON *e, const ssdsim_measurement *f)
{
    suite_json_u64(e, "n_ios", f->n_ios);
    suite_json_u64(e, "n_writes", f->n_writes);
    suite_json_u64(e, "run_ns", f->run_ns);
    suite_json_num(e, "iops", f->iops);
    suite_json_num(e, "bw_bytes", f->bw_bytes);
    suite_json_num(e, "lat_mean_ns", f->lat_mean_ns);
    suite_json_num(e, "lat_stddev_ns", f->lat_stddev_ns);
    suite_json_u64(e, "lat_p99_ns", f->lat_p99_ns);
    suite_json_u64(e, "lat_p99_99_ns", f->lat_p99_99_ns);
    suite_json_u64(e, "lat_max_ns", f->lat_max_ns);
    suite_json_num(e, "read_lat_mean_ns", f->read_lat_mean_ns);
    suite_json_num(e, "write_lat_mean_ns", f->write_lat_mean_ns);
    suite_json_u64(e, "read_lat_p99_ns", f->read_lat_p99_ns);
    suite_json_u64(e, "write_lat_p99_ns", f->write_lat_p99_ns);
    suite_json_num(e, "waf", f->waf);
}

/* A plot of one line per model from `csv`: column `x` against column `y`, after the `setup`
 * commands. Model i's rows are data rows first[i] to first[i] + rows[i] - 1 (after the header),
 * chosen by position, not by matching the name in the first column: gnuplot's strcol stops at a
 * comma even inside a quoted field, so a name that holds one would match no row. A model
 * without rows gets no line. */
static void model_plot(struct suite *s, const struct apps_model *m, size_t n, const char *png,
                       const char *csv, const char *setup, int x, int y, const size_t *first,
                       const size_t *rows)
{
    GString *g = g_string_new(setup);
    g_string_append(g, "set key top left\nplot ");
    bool any = false;
    for (size_t i = 0; i < n; i++) {
        if (rows[i] == 0)
            continue;
        g_autofree char *q = cli_gnuplot_quote(m[i].name);
        g_string_append_printf(g,
                               "%s'%s' skip 1 every ::%zu::%zu using %d:%d with linespoints "
                               "title %s",
                               any ? ", \\\n     " : "", csv, first[i],
                               first[i] + rows[i] - 1, x, y, q);
        any = true;
    }
    g_string_append_c(g, '\n');
    suite_plot(s, png, g->str);
    g_string_free(g, TRUE);
}

/* Indices of the models, best first by `key` (higher first when `high`); ties keep the order
 * given. */
static void rank(const struct apps_model *m, size_t n, size_t k, bool high, size_t *order)
{
    for (size_t i = 0; i < n; i++)
        order[i] = i;
    for (size_t i = 1; i < n; i++) /* insertion sort: stable, n is small */
        for (size_t j = i; j > 0; j--) {
            double a = k ? m[order[j - 1]].pt[k].iops : m[order[j - 1]].pt[0].lat_mean_ns;
            double b = k ? m[order[j]].pt[k].iops : m[order[j]].pt[0].lat_mean_ns;
            if (high ? b > a : b < a) {
                size_t t = order[j];
                order[j] = order[j - 1];
                order[j - 1] = t;
            } else {
                break;
            }
        }
}

static void say_trace(struct suite *s, const ssdsim_trace_info *ti, const char *path)
{
    const struct suite_opts *o = s->opt;
    char b[32], e[32];
    suite_md(s,
             "Trace: `%s` (%s), %" PRIu64 " requests over %.3f s as recorded, %" PRIu64
             " reads, %" PRIu64 " writes, %" PRIu64 " trims, %s read and written at most %s "
             "into the device",
             path, ssdsim_trace_format_name(ti->format), ti->requests,
             (double)ti->duration_ns / 1e9, ti->count[0], ti->count[1], ti->count[2],
             suite_fmt_bytes(b, sizeof b, (double)(ti->bytes[0] + ti->bytes[1])),
             suite_fmt_bytes(e, sizeof e, (double)ti->max_end_bytes));
    if (o->trace.n_devices)
        suite_md(s, " (the devices asked of %" PRIu32 ")", ti->n_devices);
    else if (ti->n_devices > 1)
        suite_md(s, " (its %" PRIu32 " devices merged into one)", ti->n_devices);
    suite_md(s, ".\n");
}

int suite_apps(struct suite *s)
{
    const struct suite_opts *o = s->opt;
    ssdsim_trace_info ti;
    ssdsim_error err;
    if (ssdsim_trace_info_file(o->trace_path, &o->trace, &ti, &err)) {
        cli_error("suite apps: %s", err.message);
        return -1;
    }
    {
        ssdsim_trace *t = NULL;
        if (ssdsim_trace_open(&t, o->trace_path, &o->trace, &err) == 0) {
            cli_trace_note_unit(o->trace_path, t);
            ssdsim_trace_close(t);
        }
    }
    size_t n = 1 + o->n_compare;
    struct apps_model *m = g_new0(struct apps_model, n);
    int rc = 0;
    m[0].label = s->model_label;
    for (size_t i = 1; i < n && rc == 0; i++) {
        struct cli_run_opts co = {.model_path = o->compare_models[i - 1],
                                  .model_option = "--compare-model"};
        if (cli_load(&co, &m[i].model, NULL))
            rc = -1;
        m[i].label = o->compare_models[i - 1];
    }
    struct apps_ctx x = {.s = s};
    for (size_t i = 0; i < n && rc == 0; i++) {
        const ssdsim_model *model = m[i].model ? m[i].model : s->model;
        if (ssdsim_model_get_string(model, "name", m[i].name, sizeof m[i].name, NULL))
            snprintf(m[i].name, sizeof m[i].name, "%s", m[i].label);
        m[i].iv = g_array_new(FALSE, TRUE, sizeof(ssdsim_interval));
        x.cur = &m[i];
        ssdsim_apps_opts ao = SSDSIM_APPS_OPTS_INIT;
        ao.trace_path = o->trace_path;
        ao.trace = &o->trace;
        ao.intervals = o->intervals;
        ao.time_scale = o->time_scale;
        ao.passes = o->passes;
        ao.wrap = o->wrap;
        ao.seed = s->seed;
        ao.progress = cli_interrupt_cb; /* SIGINT and SIGTERM cancel the run under way */
        ao.on_point = on_point;
        ao.on_interval = on_interval;
        ao.userdata = &x;
        if (ssdsim_apps_run(model, &ao, &err)) {
            cli_error("suite apps: %s: %s", m[i].label, err.message);
            rc = -1;
        }
    }
    if (rc)
        goto out;

    /* JSON and CSV */
    cJSON *aj = cJSON_AddObjectToObject(s->json, "apps");
    cJSON_AddStringToObject(aj, "trace", o->trace_path);
    suite_json_u64(aj, "requests", ti.requests);
    suite_json_u64(aj, "span_ns", ti.duration_ns);
    suite_json_u64(aj, "intervals", o->intervals ? o->intervals : SSDSIM_APPS_INTERVALS);
    suite_json_num(aj, "time_scale", o->time_scale > 0 ? o->time_scale : 1);
    suite_json_u64(aj, "passes", o->passes ? o->passes : 1);
    cJSON_AddBoolToObject(aj, "wrap", o->wrap);
    suite_json_u64(aj, "nodes", ssdsim_model_n_volumes(s->model));
    cJSON *models = cJSON_AddArrayToObject(aj, "models");
    GString *csv_t = g_string_new("model,threads,iops,mb_s,lat_mean_us,lat_p99_us,lat_max_us,"
                                  "read_lat_mean_us,write_lat_mean_us\n");
    GString *csv_i = g_string_new("model,interval,t_s,iops,lat_mean_us,lat_max_us,partial\n");
    for (size_t i = 0; i < n; i++) {
        cJSON *mj = cJSON_CreateObject();
        cJSON_AddStringToObject(mj, "label", m[i].label);
        cJSON_AddStringToObject(mj, "name", m[i].name);
        if (m[i].recorded) {
            cJSON *rj = cJSON_AddObjectToObject(mj, "as_recorded");
            point_json(rj, &m[i].pt[0]);
            cJSON *ivs = cJSON_AddArrayToObject(rj, "intervals");
            for (guint k = 0; k < m[i].iv->len; k++) {
                const ssdsim_interval *v = &g_array_index(m[i].iv, ssdsim_interval, k);
                cJSON *e = cJSON_CreateObject();
                suite_json_u64(e, "t_ns", v->t_ns);
                suite_json_u64(e, "n_ios", v->n_ios);
                suite_json_num(e, "iops", v->iops);
                /* an interval in which nothing completed has no latency: null */
                suite_json_num(e, "lat_mean_ns", v->n_ios ? v->lat_ns_mean : NAN);
                if (v->n_ios)
                    suite_json_u64(e, "lat_max_ns", v->lat_ns_max);
                else
                    cJSON_AddNullToObject(e, "lat_max_ns");
                cJSON_AddBoolToObject(e, "partial", v->partial);
                cJSON_AddItemToArray(ivs, e);
                cli_csv_field(csv_i, m[i].name);
                g_string_append_printf(csv_i, ",%u,", k + 1);
                suite_csv_num(csv_i, (double)v->t_ns / 1e9, false);
                suite_csv_num(csv_i, v->iops, false);
                suite_csv_num(csv_i, v->n_ios ? v->lat_ns_mean / 1e3 : NAN, false);
                suite_csv_num(csv_i, v->n_ios ? (double)v->lat_ns_max / 1e3 : NAN, false);
                g_string_append_printf(csv_i, "%d\n", v->partial);
            }
        }
        cJSON *tj = cJSON_AddArrayToObject(mj, "threads");
        for (size_t k = 0; k < SSDSIM_APPS_N_THREADS; k++) {
            const ssdsim_measurement *f = &m[i].pt[k + 1];
            cJSON *e = cJSON_CreateObject();
            suite_json_u64(e, "threads", ssdsim_apps_threads(k));
            point_json(e, f);
            cJSON_AddItemToArray(tj, e);
            cli_csv_field(csv_t, m[i].name);
            g_string_append_printf(csv_t, ",%" PRIu32 ",", ssdsim_apps_threads(k));
            const double v[] = {f->iops,
                                f->bw_bytes / 1e6,
                                f->lat_mean_ns / 1e3,
                                (double)f->lat_p99_ns / 1e3,
                                (double)f->lat_max_ns / 1e3,
                                f->read_lat_mean_ns / 1e3};
            for (size_t j = 0; j < G_N_ELEMENTS(v); j++)
                suite_csv_num(csv_t, v[j], false);
            suite_csv_num(csv_t, f->write_lat_mean_ns / 1e3, true);
        }
        cJSON_AddItemToArray(models, mj);
    }

    /* Markdown */
    uint32_t intervals = o->intervals ? o->intervals : SSDSIM_APPS_INTERVALS;
    char passes[48] = "once";
    if (o->passes > 1)
        snprintf(passes, sizeof passes, "%" PRIu32 " times over", o->passes);
    suite_md(s,
             "Procedure: the labs' application benchmarks as the replay of a block trace "
             "recorded under the application, on each model written full sequentially first "
             "(the application's data is on the drive). As recorded: at the trace's own "
             "times%s, its span cut into %" PRIu32 " intervals (a NoSQL node's average latency "
             "per interval); then closed loop at 2, 4, 8, 16 and 32 requests outstanding in the "
             "trace's order, its times ignored (SysBench OLTP's 2 to 32 threads), the trace "
             "read %s: I/Os per second, which for the trace's fixed mix of I/Os "
             "per transaction is the transaction rate in proportion, mean and p99 latency. "
             "The parts run one after the other on the same drive.%s\n\n",
             o->time_scale > 0 && o->time_scale != 1 ? " (replayed faster by the time scale)"
                                                     : "",
             intervals, passes,
             o->wrap ? " Addresses beyond a model's capacity wrap around (`--wrap`)." : "");
    say_trace(s, &ti, o->trace_path);
    uint32_t nodes = ssdsim_model_n_volumes(s->model);
    if (nodes > 1)
        suite_md(s, "\nOne node per drive: the model is a JBOD of %" PRIu32 " devices, and the "
                    "trace is replayed on each at once (its own copy each, as each node of a "
                    "database cluster runs its own load): request counts and IOPS are the "
                    "nodes' sum, threads are per node.\n",
                 nodes);

    suite_md(s, "\n## Closed loop (SysBench-style threads)\n");
    threads_table_head(s, "I/Os per second");
    for (size_t i = 0; i < n; i++) {
        suite_md(s, "| %s |", m[i].name);
        for (size_t k = 0; k < SSDSIM_APPS_N_THREADS; k++)
            suite_md(s, " %.0f |", m[i].pt[k + 1].iops);
        suite_md(s, "\n");
    }
    threads_table_head(s, "Mean / p99 latency, us");
    for (size_t i = 0; i < n; i++) {
        suite_md(s, "| %s |", m[i].name);
        for (size_t k = 0; k < SSDSIM_APPS_N_THREADS; k++)
            suite_md(s, " %.1f / %.1f |", m[i].pt[k + 1].lat_mean_ns / 1e3,
                     (double)m[i].pt[k + 1].lat_p99_ns / 1e3);
        suite_md(s, "\n");
    }
    suite_md(s, "\n![I/Os per second against threads](apps-threads.png)\n");

    bool any_recorded = false;
    for (size_t i = 0; i < n; i++)
        any_recorded = any_recorded || m[i].recorded;
    suite_md(s, "\n## As recorded (mean latency per interval)\n\n");
    if (!any_recorded) {
        suite_md(s, "The trace has no times (every request at 0): no replay as recorded.\n");
    } else {
        double span_s = (double)ti.duration_ns / 1e9 / (o->time_scale > 0 ? o->time_scale : 1);
        suite_md(s,
                 "Intervals of %.4g s (the replayed span, %.4g s, in %" PRIu32
                 "); a model that falls behind the trace's rate takes longer than the span, and "
                 "its later intervals hold the backlog draining.\n\n| model | requests | "
                 "replay, s | IOPS | mean, us | p99, us | max, us | whole intervals | worst "
                 "interval mean, us |\n|---|---:|---:|---:|---:|---:|---:|---:|---:|\n",
                 span_s / intervals, span_s, intervals);
        for (size_t i = 0; i < n; i++) {
            const ssdsim_measurement *f = &m[i].pt[0];
            double worst = 0;
            /* the whole intervals: the run's end may add a short one, the last completions
             * alone, whose mean is of a few requests (marked partial in the CSV and JSON) */
            unsigned whole = 0;
            for (guint k = 0; k < m[i].iv->len; k++) {
                const ssdsim_interval *v = &g_array_index(m[i].iv, ssdsim_interval, k);
                if (v->partial)
                    continue;
                whole++;
                if (v->n_ios && v->lat_ns_mean > worst)
                    worst = v->lat_ns_mean;
            }
            suite_md(s, "| %s | %" PRIu64 " | %.4g | %.0f | %.1f | %.1f | %.1f | %u | %.1f |\n",
                     m[i].name, f->n_ios, (double)f->run_ns / 1e9, f->iops, f->lat_mean_ns / 1e3,
                     (double)f->lat_p99_ns / 1e3, (double)f->lat_max_ns / 1e3, whole,
                     worst / 1e3);
        }
        suite_md(s, "\n![Mean latency per interval](apps-intervals.png)\n");
    }

    if (n > 1) {
        size_t *order = g_new(size_t, n);
        suite_md(s, "\n## Ranking\n\nBest first. Closed loop by I/Os per second; as recorded "
                    "by mean latency.\n\n| test | ranking |\n|---|---|\n");
        for (size_t k = 1; k <= SSDSIM_APPS_N_THREADS; k++) {
            rank(m, n, k, true, order);
            suite_md(s, "| %" PRIu32 " threads |", ssdsim_apps_threads(k - 1));
            for (size_t i = 0; i < n; i++)
                suite_md(s, "%s %s", i ? " >" : "", m[order[i]].name);
            suite_md(s, " |\n");
        }
        if (any_recorded) {
            rank(m, n, 0, false, order);
            suite_md(s, "| as recorded |");
            for (size_t i = 0; i < n; i++)
                suite_md(s, "%s %s", i ? " >" : "", m[order[i]].name);
            suite_md(s, " |\n");
        }
        g_free(order);
    }

    /* each model's rows in the two CSVs, in the order written above */
    size_t *first = g_new(size_t, 4 * (n ? n : 1)), *rows = first + n;
    size_t *iv_first = rows + n, *iv_rows = iv_first + n;
    for (size_t i = 0, at = 0; i < n; i++) {
        first[i] = i * SSDSIM_APPS_N_THREADS;
        rows[i] = SSDSIM_APPS_N_THREADS;
        iv_first[i] = at;
        iv_rows[i] = m[i].recorded ? m[i].iv->len : 0;
        at += iv_rows[i];
        /* the plot leaves out a last, partial interval (a few completions' mean) */
        if (iv_rows[i] &&
            g_array_index(m[i].iv, ssdsim_interval, iv_rows[i] - 1).partial)
            iv_rows[i]--;
    }
    suite_csv(s, "apps-threads.csv", g_string_free(csv_t, FALSE));
    model_plot(s, m, n, "apps-threads.png", "apps-threads.csv",
               "set title 'Closed-loop replay: I/Os per second against threads'\nset logscale x "
               "2\nset xlabel 'threads (requests outstanding)'\nset ylabel 'IOPS'\n",
               2, 3, first, rows);
    if (any_recorded) {
        suite_csv(s, "apps-intervals.csv", g_string_free(csv_i, FALSE));
        model_plot(s, m, n, "apps-intervals.png", "apps-intervals.csv",
                   "set title 'Replay as recorded: mean latency per interval'\nset xlabel "
                   "'interval'\nset ylabel 'mean latency, us'\nset logscale y\n",
                   2, 5, iv_first, iv_rows);
    } else {
        g_string_free(csv_i, TRUE);
    }
    g_free(first);
    suite_shortcut(s,
                   "Each model was filled by one sequential write of its capacity "
                   "(ssdsim_precondition_seq: by functional fast-forward unless "
                   "--precondition-method timed) instead of the application's own load phase.");
    suite_shortcut(s, "The block trace stands for the application: its requests are replayed, "
                      "not the application, so a drive's speed does not change what is asked "
                      "of it (a real database would issue fewer requests to a slower drive).");
out:
    for (size_t i = 0; i < n; i++) {
        if (m[i].iv)
            g_array_free(m[i].iv, TRUE);
        ssdsim_model_free(m[i].model);
    }
    g_free(m);
    return rc;
}
