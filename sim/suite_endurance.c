/* suite_endurance.c: `ssdsim suite endurance`, the report of the end-of-life curves of issue
 * 16 (item 7): RBER, retries per read, read latency (mean, p99) and WAF against P/E cycles,
 * with bit errors modelled (the model's reliability section, or its cell type's defaults when
 * it has none). The points, the acceleration check and the projection are the library's
 * (ssdsim_endurance_*, ssdsim_eol_accel_check, ssdsim_eol_project: each point a fresh drive
 * filled once, worn at once to its P/E cycles, aged --age-days, then the workload, by default
 * 4 KiB random 70/30 reads and writes at queue depth 32); this file writes the JSON, CSVs,
 * Markdown and plot. The acceleration is the wear: a drive worn this way has the erase counts
 * of its age but not the layout of data that years of its workload would leave
 * (--accel-check measures the difference, doc/suites.md).
 */
#include <inttypes.h>
#include <math.h>
#include <string.h>

#include "suite.h"

#include <ssdsim/suite.h>

/* The end-of-life projection (ssdsim_eol_project) at the mean WAF of the points: report lines,
 * JSON "projection" and projection.csv. 0 or -1 after printing the error. */
static int project(struct suite *s, const ssdsim_model *m, const ssdsim_endurance_point *pts,
                   size_t n, double timed_waf)
{
    const struct suite_opts *o = s->opt;
    ssdsim_endurance_waf_from from;
    double waf = ssdsim_endurance_waf(pts, n, timed_waf, &from);
    static const char *const src_of[] = {
        "the mean of the points' wear per host byte", "the mean of --accel-check's timed drive",
        "assumed: the points programmed no flash for the host (no writes, or all held in the "
        "write buffer), so host bytes are at WAF 1"};
    const char *src = src_of[from];
    suite_md(s, "## End-of-life projection\n\n");
    if (from == SSDSIM_ENDURANCE_WAF_ASSUMED)
        suite_shortcut(s, "No point measured a WAF: the projection's host bytes assume WAF 1 "
                          "(--accel-check or a --workload that writes past the buffer measures "
                          "one).");
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
    static const char *const from_key[] = {"points", "accel_check_timed", "assumed_1"};
    cJSON_AddStringToObject(j, "waf_from", from_key[from]);
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
            suite_csv_num(csv, v[q], q + 1 == G_N_ELEMENTS(v)); /* the last ends the row */
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
    if (from == SSDSIM_ENDURANCE_WAF_POINTS)
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
    uint32_t top = s->opt->accel_pe, pe[4];
    ssdsim_endurance_accel_points(top, pe);
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
            suite_csv_num(csv, v[k], k + 1 == G_N_ELEMENTS(v)); /* the last ends the row */
        }
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
    ssdsim_model *m = NULL;
    ssdsim_error err;
    bool defaults;
    if (ssdsim_endurance_model(&m, s->model, &defaults, &err)) {
        cli_error("suite endurance: %s", err.message);
        return -1;
    }
    if (defaults)
        suite_shortcut(s, "The model has no reliability section: the bit-error defaults of its "
                          "cell type were used (`reliability.rber_model` \"cell\", "
                          "doc/models.md).");
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
    const double *fr;
    size_t n = ssdsim_endurance_points(o->quick, &fr);
    ssdsim_endurance_point *pts = g_new0(ssdsim_endurance_point, n);
    ssdsim_endurance_opts eo = SSDSIM_ENDURANCE_OPTS_INIT;
    eo.age_days = o->age_days;
    eo.seed = s->seed;
    eo.progress = cli_interrupt_cb; /* SIGINT and SIGTERM cancel the run under way */
    cJSON *arr = cJSON_AddArrayToObject(s->json, "points");
    GString *csv = g_string_new("pe_cycles,pe_fraction_of_rated,rber_mean,retries_per_read,"
                                "read_mean_us,read_p99_us,iops,waf,soft_decoded,uncorrectable,"
                                "uber,reclaimed_blocks\n");
    for (size_t i = 0; i < n; i++) {
        uint32_t pe = (uint32_t)lround(fr[i] * rated);
        suite_say(s, "endurance: %" PRIu32 " P/E cycles (%.0f%% of rated), data %.3g days old",
                  pe, 100 * fr[i], o->age_days);
        if (ssdsim_endurance_point_run(m, pe, wl, &eo, &pts[i], &err)) {
            cli_error("suite endurance: %s", err.message);
            ssdsim_workload_free(wl);
            ssdsim_model_free(m);
            g_string_free(csv, TRUE);
            g_free(pts);
            return -1;
        }
        const ssdsim_endurance_point *p = &pts[i];
        cJSON *e = cJSON_CreateObject();
        suite_json_u64(e, "pe_cycles", p->pe);
        suite_json_num(e, "rber_mean", p->rel.rber_mean);
        suite_json_num(e, "retries_per_read", p->rel.retries_per_read);
        suite_json_num(e, "read_mean_ns", p->read.lat_mean_ns);
        suite_json_u64(e, "read_p99_ns", p->read.lat_p99_ns);
        suite_json_num(e, "iops", p->all.iops);
        suite_json_num(e, "waf", p->device.waf);
        suite_json_u64(e, "soft_decoded", p->rel.reads_by_steps[p->rel.retry_max + 1]);
        suite_json_u64(e, "uncorrectable", p->rel.uncorrectable);
        suite_json_num(e, "uber", p->rel.uber);
        suite_json_u64(e, "reclaimed_blocks", p->rel.reclaimed_blocks);
        cJSON_AddItemToArray(arr, e);
        g_string_append_printf(csv, "%" PRIu32 ",", p->pe);
        double v[] = {fr[i],         p->rel.rber_mean,       p->rel.retries_per_read,
                      p->read.lat_mean_ns / 1e3, (double)p->read.lat_p99_ns / 1e3, p->all.iops,
                      p->device.waf,
                      (double)p->rel.reads_by_steps[p->rel.retry_max + 1],
                      (double)p->rel.uncorrectable, p->rel.uber};
        for (size_t k = 0; k < G_N_ELEMENTS(v); k++)
            suite_csv_num(csv, v[k], false);
        g_string_append_printf(csv, "%" PRIu64 "\n", p->rel.reclaimed_blocks);
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
        const ssdsim_endurance_point *p = &pts[i];
        suite_md(s,
                 "| %" PRIu32 " | %.3g | %.3f | %.1f | %.1f | %.0f | %.3f | %" PRIu64 " | %" PRIu64
                 " | %.3g | %" PRIu64 " |\n",
                 p->pe, p->rel.rber_mean, p->rel.retries_per_read, p->read.lat_mean_ns / 1e3,
                 (double)p->read.lat_p99_ns / 1e3, p->all.iops, p->device.waf,
                 p->rel.reads_by_steps[p->rel.retry_max + 1], p->rel.uncorrectable, p->rel.uber,
                 p->rel.reclaimed_blocks);
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
        g_free(pts);
        return -1;
    }
    g_free(pts);
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
