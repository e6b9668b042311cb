/* suite_fdp.c: `ssdsim suite fdp`, Flexible Data Placement on against off (issue 17, item 6),
 * at the model's over-provisioning. A hot/cold workload of 4 KiB random writes: 90% of them to
 * the first 10% of the logical space (job `hot`), 10% to the rest (job `cold`), the byte counts
 * exact (number_ios 9:1, queue depths 27 and 3), on a sequentially filled drive. With FDP the
 * model gets two placement handles, persistently isolated (fdp.handles 2, fdp.isolation
 * "persistent"), the hot job writing through handle 1 and the cold through handle 0; without,
 * the model's FDP keys are turned off (fdp.handles 0) and the classes share the drive's write
 * points. Each mode writes --drive-writes warm-up drive writes, then one measured drive write,
 * whose device WAF and, with FDP, per-handle WAF are reported.
 */
#include <inttypes.h>
#include <math.h>
#include <string.h>

#include "suite.h"

struct mode {
    ssdsim_device_stats d;
    ssdsim_fdp_stats h[2];
};

/* The workload of `writes` 4 KiB writes, with or without placement ids. */
static ssdsim_workload *hotcold(uint64_t logical, uint64_t writes, bool fdp)
{
    uint64_t hot = logical / 10 / 4096 * 4096;
    char job[768];
    snprintf(job, sizeof job,
             "[global]\nrw=randwrite\nbs=4k\nnorandommap\n"
             "[hot]\noffset=0\nsize=%" PRIu64 "\nnumber_ios=%" PRIu64 "\niodepth=27\n%s"
             "[cold]\noffset=%" PRIu64 "\nsize=%" PRIu64 "\nnumber_ios=%" PRIu64
             "\niodepth=3\n%s",
             hot, writes / 10 * 9, fdp ? "placement=1\n" : "", hot, logical / 4096 * 4096 - hot,
             writes / 10, fdp ? "placement=0\n" : "");
    ssdsim_workload *wl = NULL;
    ssdsim_error err;
    if (ssdsim_workload_load_string(&wl, job, "suite fdp", &err)) {
        cli_error("suite fdp: %s", err.message);
        return NULL;
    }
    return wl;
}

static int run_mode(struct suite *s, bool fdp, double warm_dw, struct mode *out)
{
    ssdsim_model *m = suite_model_copy(s->model);
    if (!m)
        return -1;
    ssdsim_error err;
    int rc = 0;
    if (fdp)
        rc = ssdsim_model_set(m, "fdp.handles", "2", &err) ||
             ssdsim_model_set(m, "fdp.isolation", "\"persistent\"", &err);
    else
        rc = ssdsim_model_set(m, "fdp.handles", "0", &err);
    if (rc) {
        cli_error("suite fdp: %s", err.message);
        ssdsim_model_free(m);
        return -1;
    }
    ssdsim *sim = suite_sim_new(s, m);
    ssdsim_model_free(m);
    if (!sim)
        return -1;
    ssdsim_device_stats d;
    ssdsim_get_device_stats(sim, &d);
    uint64_t per_dw = d.logical_bytes / 4096;
    ssdsim_workload *warm = hotcold(d.logical_bytes, (uint64_t)(warm_dw * (double)per_dw), fdp);
    ssdsim_workload *meas = hotcold(d.logical_bytes, per_dw, fdp);
    rc = !warm || !meas ? -1 : 0;
    if (!rc && (ssdsim_precondition_seq(sim) || (warm_dw > 0 && ssdsim_run(sim, warm, NULL)) ||
                ssdsim_run(sim, meas, NULL))) {
        cli_error("suite fdp: FDP %s: %s", fdp ? "on" : "off", ssdsim_errmsg(sim));
        rc = -1;
    }
    if (!rc) {
        ssdsim_get_device_stats(sim, &out->d);
        memset(out->h, 0, sizeof out->h);
        for (uint32_t h = 0; fdp && h < 2; h++)
            ssdsim_get_fdp_stats(sim, h, &out->h[h]);
    }
    ssdsim_workload_free(warm);
    ssdsim_workload_free(meas);
    ssdsim_free(sim);
    return rc;
}

int suite_fdp(struct suite *s)
{
    double warm = s->opt->max_dw;
    char ftl[32] = "";
    ssdsim_model_get_string(s->model, "ftl.type", ftl, sizeof ftl, NULL);
    if (strcmp(ftl, "page")) {
        cli_error("suite fdp: the model's FTL is ftl.type \"%s\"; FDP (fdp.handles) needs the "
                  "page FTL",
                  ftl);
        return -1;
    }
    /* the model must take FDP (e.g. no SLC cache or hot/cold separation, spare for the
     * handles' open blocks): checked before any run */
    ssdsim_model *probe = suite_model_copy(s->model);
    if (!probe)
        return -1;
    ssdsim_error err;
    int bad = ssdsim_model_set(probe, "fdp.handles", "2", &err);
    ssdsim_model_free(probe);
    if (bad) {
        cli_error("suite fdp: %s", err.message);
        return -1;
    }
    struct mode on, off;
    suite_say(s, "fdp: without placement handles");
    if (run_mode(s, false, warm, &off))
        return -1;
    suite_say(s, "fdp: with two placement handles (hot: 1, cold: 0)");
    if (run_mode(s, true, warm, &on))
        return -1;
    cJSON *j = cJSON_AddObjectToObject(s->json, "fdp");
    suite_json_num(j, "op", on.d.op);
    suite_json_num(j, "warmup_drive_writes", warm);
    suite_json_num(j, "waf_off", off.d.waf);
    suite_json_num(j, "waf_on", on.d.waf);
    cJSON *hs = cJSON_AddArrayToObject(j, "handles");
    GString *csv = g_string_new("mode,handle,host_bytes,media_bytes,waf\n");
    g_string_append_printf(csv, "off,device,,,");
    suite_csv_num(csv, off.d.waf, true);
    g_string_append_printf(csv, "on,device,,,");
    suite_csv_num(csv, on.d.waf, true);
    for (int h = 0; h < 2; h++) {
        cJSON *x = cJSON_CreateObject();
        suite_json_u64(x, "handle", (uint64_t)h);
        cJSON_AddStringToObject(x, "class", h ? "hot" : "cold");
        suite_json_u64(x, "host_bytes", on.h[h].host_bytes);
        suite_json_u64(x, "media_bytes", on.h[h].media_bytes);
        suite_json_num(x, "waf", on.h[h].waf);
        cJSON_AddItemToArray(hs, x);
        g_string_append_printf(csv, "on,%d,%" PRIu64 ",%" PRIu64 ",", h, on.h[h].host_bytes,
                               on.h[h].media_bytes);
        suite_csv_num(csv, on.h[h].waf, true);
    }
    suite_csv(s, "fdp.csv", g_string_free(csv, FALSE));
    suite_plot(s, "fdp.png",
               "set title 'WAF with and without FDP'\nset key autotitle columnhead\n"
               "set style data histograms\nset style fill solid 0.6\nset ylabel 'WAF'\n"
               "set yrange [0:*]\n"
               "plot 'fdp.csv' using 5:xtic(strcol(1).' '.strcol(2)) title 'WAF'\n");
    suite_shortcut(s, "The drive is filled sequentially by functional fast-forward, then "
                      "written %.3g drive writes of the workload before the measured one, not "
                      "run until its WAF is steady.",
                   warm);
    suite_md(s, "## FDP on and off\n\n"
                "4 KiB random writes, 90%% to the first 10%% of the logical space (hot) and 10%% "
                "to the rest (cold), on a sequentially filled drive at the model's "
                "over-provisioning (%.3g); %.3g drive writes of warm-up, then one measured.\n\n"
                "| mode | handle | host GiB | media GiB | WAF |\n|---|---|---:|---:|---:|\n"
                "| off | device | | | %.3f |\n| on | device | | | %.3f |\n",
             on.d.op, warm, off.d.waf, on.d.waf);
    for (int h = 0; h < 2; h++)
        suite_md(s, "| on | %d (%s) | %.3f | %.3f | %.3f |\n", h, h ? "hot" : "cold",
                 (double)on.h[h].host_bytes / 1073741824.0,
                 (double)on.h[h].media_bytes / 1073741824.0, on.h[h].waf);
    suite_md(s, "\nWAF with FDP %.3f, without %.3f.\n", on.d.waf, off.d.waf);
    suite_say(s, "  WAF without FDP %.3f, with FDP %.3f (handle 0 %.3f, handle 1 %.3f)",
              off.d.waf, on.d.waf, on.h[0].waf, on.h[1].waf);
    return 0;
}
