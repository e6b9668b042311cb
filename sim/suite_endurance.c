/* suite_endurance.c: `ssdsim suite endurance`, a first version of the end-of-life curves of
 * issue 16 (item 7): RBER, retries per read, read latency (mean, p99) and WAF against P/E
 * cycles, with bit errors modelled (the model's reliability section, or its cell type's
 * defaults when it has none).
 *
 * Each point is a fresh simulation of the model: one sequential fill (functional fast-forward
 * unless --precondition-method timed), then every block worn to the point's P/E cycles at once
 * (ssdsim_wear: even wear, the writes not simulated), the data aged --age-days (ssdsim_age),
 * then the workload (--workload, default 4 KiB random reads at queue depth 32, 20,000 of them;
 * --quick 5,000) run and measured. The points are 0 to twice the rated cycles in eighths of the
 * span (--quick: 0, rated, twice rated). The acceleration is the wear: a drive worn this way has
 * the erase counts of its age but not the layout of data that years of its workload would
 * leave, and its WAF is the workload's on that layout; what a fully timed life would differ by
 * is not measured yet (doc/suites.md says so).
 */
#include <inttypes.h>
#include <math.h>
#include <string.h>

#include "suite.h"

#include <ssdsim/suite.h>

struct point {
    uint32_t pe;
    ssdsim_reliability_stats r;
    ssdsim_op_stats rd, all;
    ssdsim_device_stats d;
};

/* Run one point on a fresh simulation of `m`. 0 or -1 after printing the error. */
static int run_point(struct suite *s, const ssdsim_model *m, ssdsim_workload *wl,
                     struct point *p)
{
    ssdsim *sim = suite_sim_new(s, m);
    if (!sim)
        return -1;
    int rc = ssdsim_precondition_seq(sim);
    if (!rc && p->pe)
        rc = ssdsim_wear(sim, p->pe);
    if (!rc && s->opt->age_days > 0)
        rc = ssdsim_age(sim, s->opt->age_days * 86400);
    if (!rc)
        rc = ssdsim_run(sim, wl, NULL);
    if (rc) {
        cli_error("suite endurance: at %" PRIu32 " P/E cycles: %s", p->pe, ssdsim_errmsg(sim));
        ssdsim_free(sim);
        return -1;
    }
    ssdsim_get_reliability(sim, &p->r);
    ssdsim_get_op_stats(sim, SSDSIM_OP_READ, &p->rd);
    ssdsim_get_op_stats(sim, SSDSIM_OP_ALL, &p->all);
    ssdsim_get_device_stats(sim, &p->d);
    ssdsim_free(sim);
    return 0;
}

/* The end-of-life projection (ssdsim_eol_project) at the mean WAF of the points: report lines,
 * JSON "projection" and projection.csv. 0 or -1 after printing the error. */
static int project(struct suite *s, const ssdsim_model *m, const struct point *pts, size_t n,
                   double timed_waf)
{
    const struct suite_opts *o = s->opt;
    double waf = 0;
    size_t k = 0;
    const char *src = "the mean of the points";
    for (size_t i = 0; i < n; i++)
        if (pts[i].d.waf > 0) {
            waf += pts[i].d.waf;
            k++;
        }
    if (timed_waf > 0) {
        waf = timed_waf;
        k = 1;
        src = "the mean of --accel-check's timed drive";
    }
    suite_md(s, "## End-of-life projection\n\n");
    if (!k) {
        waf = 1;
        src = "assumed: the points programmed no flash for the host (no writes, or all held "
              "in the write buffer), so host bytes are at WAF 1";
        suite_shortcut(s, "No point measured a WAF: the projection's host bytes assume WAF 1 "
                          "(--accel-check or a --workload that writes past the buffer measures "
                          "one).");
    } else {
        waf /= (double)k;
    }
    ssdsim *sim = suite_sim_new(s, m);
    if (!sim)
        return -1;
    ssdsim_eol_opts eo = SSDSIM_EOL_OPTS_INIT;
    eo.waf = waf;
    eo.target_uber = o->target_uber;
    eo.life_years = o->life_years;
    eo.retention_days = o->age_days;
    ssdsim_eol e;
    ssdsim_error err;
    int rc = ssdsim_eol_project(sim, &eo, &e, &err);
    ssdsim_free(sim);
    if (rc) {
        cli_error("suite endurance: projection: %s", err.message);
        return -1;
    }
    cJSON *j = cJSON_AddObjectToObject(s->json, "projection");
    suite_json_num(j, "waf", e.waf);
    cJSON_AddStringToObject(j, "waf_from", timed_waf > 0 ? "accel_check_timed"
                                           : k           ? "points"
                                                         : "assumed_1");
    suite_json_num(j, "target_uber", e.target_uber);
    suite_json_num(j, "life_years", e.life_years);
    suite_json_num(j, "retention_days", e.retention_days);
    suite_json_u64(j, "physical_bytes", e.physical_bytes);
    suite_json_u64(j, "logical_bytes", e.logical_bytes);
    GString *csv = g_string_new("end,pe_cycles,host_bytes,drive_writes,dwpd\n");
    suite_md(s,
             "At the workload's WAF %.3f (%s), %" PRIu64 " physical and "
             "%" PRIu64 " logical bytes, drive writes per day over %.3g years:\n\n"
             "| end of life | P/E cycles | host TB written | drive writes | DWPD |\n"
             "|---|---:|---:|---:|---:|\n",
             e.waf, src, e.physical_bytes, e.logical_bytes, e.life_years);
    struct {
        const char *key, *label;
        bool reached;
        double pe, bytes, dwpd;
    } rows[] = {
        {"rated", "rated P/E cycles x physical / WAF", true, e.rated_pe, e.rated_host_bytes,
         e.rated_dwpd},
        {"uber", NULL, e.uber_reached, e.uber_pe, e.uber_host_bytes, e.uber_dwpd},
        {"read_only", "read-only (grown bad blocks exhaust the spare)", e.ro_reached, e.ro_pe,
         e.ro_host_bytes, e.ro_dwpd},
    };
    char ulabel[96];
    snprintf(ulabel, sizeof ulabel, "first unrecoverable read at UBER %.3g", e.target_uber);
    rows[1].label = ulabel;
    for (size_t i = 0; i < G_N_ELEMENTS(rows); i++) {
        if (i == 2 && !e.ro_modelled) {
            suite_md(s, "| %s | not modelled (reliability.grown_prob_rated 0) | | | |\n",
                     rows[i].label);
            continue;
        }
        cJSON *r = cJSON_AddObjectToObject(j, rows[i].key);
        cJSON_AddBoolToObject(r, "reached", rows[i].reached);
        if (!rows[i].reached) {
            suite_md(s, "| %s | beyond %.0f | | | |\n", rows[i].label,
                     e.rated_pe > 0 ? 100 * e.rated_pe : 1e6);
            continue;
        }
        double dw = rows[i].bytes / (double)e.logical_bytes;
        suite_json_num(r, "pe_cycles", rows[i].pe);
        suite_json_num(r, "host_bytes", rows[i].bytes);
        suite_json_num(r, "drive_writes", dw);
        suite_json_num(r, "dwpd", rows[i].dwpd);
        suite_md(s, "| %s | %.0f | %.4g | %.4g | %.3g |\n", rows[i].label, rows[i].pe,
                 rows[i].bytes / 1e12, dw, rows[i].dwpd);
        g_string_append_printf(csv, "%s,", rows[i].key);
        double v[] = {rows[i].pe, rows[i].bytes, dw, rows[i].dwpd};
        for (size_t q = 0; q < G_N_ELEMENTS(v); q++)
            suite_csv_num(csv, v[q], q + 1 == G_N_ELEMENTS(v));
        g_string_append_c(csv, '\n');
    }
    suite_json_num(j, "uber_at_rated", e.uber_at_rated);
    if (e.uber_reached)
        suite_json_num(j, "rber_at_uber_end", e.uber_rber);
    if (e.uber_at_rated > 0)
        suite_md(s, "\nThe model's UBER at the rated cycles (data %.3g days old): %.3g",
                 e.retention_days, e.uber_at_rated);
    else
        suite_md(s, "\nThe model's UBER at the rated cycles (data %.3g days old): below 1e-300",
                 e.retention_days);
    if (e.uber_reached)
        suite_md(s, "; the mean block's RBER where the target is reached: %.3g", e.uber_rber);
    suite_md(s, ".\n\n");
    if (!(timed_waf > 0) && k)
        suite_shortcut(s, "The projection's WAF is the points' own: a short run on a drive "
                          "written once sequentially, whose garbage collection may not have "
                          "reached its steady state, so it can be far below a worn drive's "
                          "(--accel-check measures it on a timed drive and the projection then "
                          "uses that).");
    suite_csv(s, "projection.csv", g_string_free(csv, FALSE));
    suite_shortcut(s, "The projection is an expectation from the model's formulas (RBER, "
                      "decoding chain, grown-bad-block probability) at the points' mean WAF, "
                      "every block worn evenly: not a draw; doc/suites.md, \"End-of-life "
                      "projection\".");
    return 0;
}

/* --accel-check: timed wear against wear at once (ssdsim_eol_accel_check) at 4 points up to
 * accel_pe, measured with the suite's workload. 0 or -1 after printing the error. */
static int accel_check(struct suite *s, const ssdsim_model *m, const ssdsim_workload *wl,
                       double *timed_waf)
{
    uint32_t top = s->opt->accel_pe;
    uint32_t pe[4] = {top / 4, top / 2, 3 * (top / 4) > top / 2 ? 3 * (top / 4) : top / 2 + 1,
                      top};
    if (pe[3] <= pe[2])
        pe[3] = pe[2] + 1;
    suite_say(s, "endurance: acceleration check, timed wear to %" PRIu32 " P/E cycles", top);
    ssdsim_eol_accel_opts ao = SSDSIM_EOL_ACCEL_OPTS_INIT;
    ao.pe = pe;
    ao.n_pe = 4;
    ao.measure = wl;
    ssdsim_eol_accel_point pt[4];
    ssdsim_error err;
    if (ssdsim_eol_accel_check(m, s->seed, &ao, pt, &err)) {
        cli_error("suite endurance: --accel-check: %s", err.message);
        return -1;
    }
    cJSON *arr = cJSON_AddArrayToObject(s->json, "accel_check");
    GString *csv = g_string_new("pe_timed,drive_writes_timed,pe_accel_mean,waf_timed,waf_accel,"
                                "rber_timed,rber_accel,uber_timed,uber_accel,"
                                "uncorrectable_timed,uncorrectable_accel\n");
    suite_md(s, "## Acceleration check: timed wear against wear at once\n\n"
                "Timed: one drive written once sequentially, then 4 KiB random writes (QD32) "
                "run in half drive writes until its mean erase count reaches each point, where "
                "the workload is measured. At once: a fresh drive written once sequentially, "
                "worn by ssdsim_wear to the same mean count, then the workload. Differences are "
                "(at once - timed) / timed.\n\n"
                "| mean P/E (timed) | timed drive writes | mean P/E (at once) | WAF timed | WAF at "
                "once | diff | RBER timed | RBER at once | diff | UBER timed | UBER at once |\n"
                "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
    for (size_t i = 0; i < 4; i++) {
        const ssdsim_eol_accel_point *p = &pt[i];
        double dw = p->waf_timed > 0 ? (p->waf_accel - p->waf_timed) / p->waf_timed : NAN;
        double dr = p->rber_timed > 0 ? (p->rber_accel - p->rber_timed) / p->rber_timed : NAN;
        cJSON *e = cJSON_CreateObject();
        double v[] = {p->pe_timed,   p->drive_writes_timed, p->pe_accel_mean, p->waf_timed,
                      p->waf_accel,  p->rber_timed,         p->rber_accel,    p->uber_timed,
                      p->uber_accel, (double)p->uncorrectable_timed,
                      (double)p->uncorrectable_accel};
        static const char *const keys[] = {"pe_timed",   "drive_writes_timed", "pe_accel_mean",
                                           "waf_timed",  "waf_accel",          "rber_timed",
                                           "rber_accel", "uber_timed",         "uber_accel",
                                           "uncorrectable_timed", "uncorrectable_accel"};
        for (size_t k = 0; k < G_N_ELEMENTS(v); k++) {
            suite_json_num(e, keys[k], v[k]);
            suite_csv_num(csv, v[k], k + 1 == G_N_ELEMENTS(v));
        }
        g_string_append_c(csv, '\n');
        cJSON_AddItemToArray(arr, e);
        suite_md(s,
                 "| %.1f | %.3g | %.1f | %.3f | %.3f | %+.1f%% | %.3g | %.3g | %+.1f%% | %.3g | "
                 "%.3g |\n",
                 p->pe_timed, p->drive_writes_timed, p->pe_accel_mean, p->waf_timed,
                 p->waf_accel, 100 * dw, p->rber_timed, p->rber_accel, 100 * dr, p->uber_timed,
                 p->uber_accel);
    }
    suite_md(s, "\n");
    suite_csv(s, "accel_check.csv", g_string_free(csv, FALSE));
    *timed_waf = (pt[0].waf_timed + pt[1].waf_timed + pt[2].waf_timed + pt[3].waf_timed) / 4;
    return 0;
}

int suite_endurance(struct suite *s)
{
    const struct suite_opts *o = s->opt;
    ssdsim_model *m = suite_model_copy(s->model);
    if (!m)
        return -1;
    char cur[32];
    ssdsim_error err;
    if (ssdsim_model_get_string(m, "reliability.rber_model", cur, sizeof cur, NULL) ||
        !strcmp(cur, "off")) {
        if (ssdsim_model_set(m, "reliability.rber_model", "\"cell\"", &err)) {
            cli_error("suite endurance: %s", err.message);
            ssdsim_model_free(m);
            return -1;
        }
        suite_shortcut(s, "The model has no reliability section: the bit-error defaults of its "
                          "cell type were used (`reliability.rber_model` \"cell\", "
                          "doc/models.md).");
    }
    ssdsim_workload *wl = NULL;
    int rc = o->o.workload_path
                 ? ssdsim_workload_load_file(&wl, o->o.workload_path, &err)
                 : ssdsim_workload_load_string(
                       &wl,
                       o->quick ? "{\"rw\":\"randrw\",\"rwmixread\":70,\"bs\":\"4k\",\"iodepth\":32,"
                                  "\"number_ios\":5000}"
                                : "{\"rw\":\"randrw\",\"rwmixread\":70,\"bs\":\"4k\",\"iodepth\":32,"
                                  "\"number_ios\":20000}",
                       "endurance workload", &err);
    if (rc) {
        cli_error("%s", err.message);
        ssdsim_model_free(m);
        return -1;
    }
    double rated = 0;
    ssdsim_model_get_double(m, "flash.rated_pe_cycles", &rated, NULL);
    static const double quick_f[] = {0, 1, 2};
    static const double full_f[] = {0, 0.25, 0.5, 0.75, 1, 1.25, 1.5, 1.75, 2};
    const double *fr = o->quick ? quick_f : full_f;
    size_t n = o->quick ? G_N_ELEMENTS(quick_f) : G_N_ELEMENTS(full_f);
    struct point pts[G_N_ELEMENTS(full_f)];
    memset(pts, 0, sizeof pts);
    cJSON *arr = cJSON_AddArrayToObject(s->json, "points");
    GString *csv = g_string_new("pe_cycles,pe_fraction_of_rated,rber_mean,retries_per_read,"
                                "read_mean_us,read_p99_us,iops,waf,soft_decoded,uncorrectable,"
                                "uber,reclaimed_blocks\n");
    for (size_t i = 0; i < n; i++) {
        pts[i].pe = (uint32_t)lround(fr[i] * rated);
        suite_say(s, "endurance: %" PRIu32 " P/E cycles (%.0f%% of rated), data %.3g days old",
                  pts[i].pe, 100 * fr[i], o->age_days);
        if (run_point(s, m, wl, &pts[i])) {
            ssdsim_workload_free(wl);
            ssdsim_model_free(m);
            g_string_free(csv, TRUE);
            return -1;
        }
        const struct point *p = &pts[i];
        cJSON *e = cJSON_CreateObject();
        suite_json_u64(e, "pe_cycles", p->pe);
        suite_json_num(e, "rber_mean", p->r.rber_mean);
        suite_json_num(e, "retries_per_read", p->r.retries_per_read);
        suite_json_num(e, "read_mean_ns", p->rd.lat_mean_ns);
        suite_json_u64(e, "read_p99_ns", p->rd.lat_p99_ns);
        suite_json_num(e, "iops", p->all.iops);
        suite_json_num(e, "waf", p->d.waf);
        suite_json_u64(e, "soft_decoded", p->r.reads_by_steps[p->r.retry_max + 1]);
        suite_json_u64(e, "uncorrectable", p->r.uncorrectable);
        suite_json_num(e, "uber", p->r.uber);
        suite_json_u64(e, "reclaimed_blocks", p->r.reclaimed_blocks);
        cJSON_AddItemToArray(arr, e);
        g_string_append_printf(csv, "%" PRIu32 ",", p->pe);
        double v[] = {fr[i],         p->r.rber_mean,       p->r.retries_per_read,
                      p->rd.lat_mean_ns / 1e3, (double)p->rd.lat_p99_ns / 1e3, p->all.iops,
                      p->d.waf,
                      (double)p->r.reads_by_steps[p->r.retry_max + 1],
                      (double)p->r.uncorrectable, p->r.uber};
        for (size_t k = 0; k < G_N_ELEMENTS(v); k++)
            suite_csv_num(csv, v[k], false);
        g_string_append_printf(csv, "%" PRIu64 "\n", p->r.reclaimed_blocks);
    }
    suite_csv(s, "endurance.csv", g_string_free(csv, FALSE));

    suite_md(s, "## Endurance: errors and latency against wear\n\n");
    suite_md(s,
             "Each point: a fresh drive written once sequentially, every block worn to the "
             "point's P/E cycles, the data aged %.3g days, then the workload. Rated: %.0f P/E "
             "cycles.\n\n",
             o->age_days, rated);
    suite_md(s, "| P/E cycles | mean RBER | retries per read | read mean (us) | read p99 (us) | "
                "IOPS | WAF | soft decoded | uncorrectable | UBER | reclaimed blocks |\n"
                "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
    for (size_t i = 0; i < n; i++) {
        const struct point *p = &pts[i];
        suite_md(s,
                 "| %" PRIu32 " | %.3g | %.3f | %.1f | %.1f | %.0f | %.3f | %" PRIu64 " | %" PRIu64
                 " | %.3g | %" PRIu64 " |\n",
                 p->pe, p->r.rber_mean, p->r.retries_per_read, p->rd.lat_mean_ns / 1e3,
                 (double)p->rd.lat_p99_ns / 1e3, p->all.iops, p->d.waf,
                 p->r.reads_by_steps[p->r.retry_max + 1], p->r.uncorrectable, p->r.uber,
                 p->r.reclaimed_blocks);
    }
    suite_md(s, "\n![endurance](endurance.png)\n\n");
    suite_plot(s, "endurance.png",
               "set multiplot layout 2,2\nset key off\nset grid\n"
               "set datafile separator ','\nset xlabel 'P/E cycles'\n"
               "set title 'Mean RBER'\nset logscale y\n"
               "plot 'endurance.csv' skip 1 using 1:3 with linespoints\nunset logscale y\n"
               "set title 'Retries per read'\n"
               "plot 'endurance.csv' skip 1 using 1:4 with linespoints\n"
               "set title 'Read latency p99 (us)'\n"
               "plot 'endurance.csv' skip 1 using 1:6 with linespoints\n"
               "set title 'WAF'\n"
               "plot 'endurance.csv' skip 1 using 1:8 with linespoints\n"
               "unset multiplot\n");
    double timed_waf = 0;
    if ((o->accel_pe && accel_check(s, m, wl, &timed_waf)) || project(s, m, pts, n, timed_waf)) {
        ssdsim_workload_free(wl);
        ssdsim_model_free(m);
        return -1;
    }
    suite_shortcut(s, "Wear is applied at once (every block worn evenly to the point's P/E "
                      "cycles, the writes not simulated): the erase counts are those of the "
                      "drive's age, the data's layout is that of one sequential fill; "
                      "--accel-check measures the error of this against timed wear (doc/suites.md).");
    if (o->age_days > 0)
        suite_shortcut(s, "Retention: the data was aged %.3g days at once (ssdsim_age), as if "
                          "the drive had been powered off that long.",
                       o->age_days);
    ssdsim_workload_free(wl);
    ssdsim_model_free(m);
    return 0;
}
