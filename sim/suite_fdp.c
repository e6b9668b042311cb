/* suite_fdp.c: `ssdsim suite fdp`, the report of Flexible Data Placement on against off
 * (issue 17, item 6) at the model's over-provisioning: the measurement is the library's
 * (ssdsim_fdp_hotcold_run, libssdsim/methods/fdp_hotcold.c: hot/cold 4 KiB random writes, 90%
 * of them to the first 10% of the logical space, on a sequentially filled drive, --drive-writes
 * warm-up drive writes then one measured); this file writes its JSON, CSV, Markdown and plot:
 * the device WAF of each mode and, with FDP, each placement handle's.
 */
#include <inttypes.h>

#include "suite.h"

int suite_fdp(struct suite *s)
{
    ssdsim_fdp_hotcold_opts ho = SSDSIM_FDP_HOTCOLD_OPTS_INIT;
    ho.warmup_drive_writes = s->opt->max_dw;
    ho.seed = s->seed;
    ho.progress = cli_interrupt_cb; /* SIGINT and SIGTERM cancel the run under way */
    double warm = ho.warmup_drive_writes;
    /* the model must take FDP (e.g. no SLC cache or hot/cold separation, spare for the
     * handles' open blocks): checked before any run */
    ssdsim_error err;
    if (ssdsim_fdp_hotcold_check(s->model, &err)) {
        cli_error("suite fdp: %s", err.message);
        return -1;
    }
    ssdsim_fdp_hotcold on, off;
    suite_say(s, "fdp: without placement handles");
    if (ssdsim_fdp_hotcold_run(s->model, false, &ho, &off, &err)) {
        cli_error("suite fdp: %s", err.message);
        return -1;
    }
    suite_say(s, "fdp: with two placement handles (hot: 1, cold: 0)");
    if (ssdsim_fdp_hotcold_run(s->model, true, &ho, &on, &err)) {
        cli_error("suite fdp: %s", err.message);
        return -1;
    }
    cJSON *j = cJSON_AddObjectToObject(s->json, "fdp");
    suite_json_num(j, "op", on.device.op);
    suite_json_num(j, "warmup_drive_writes", warm);
    suite_json_num(j, "waf_off", off.device.waf);
    suite_json_num(j, "waf_on", on.device.waf);
    cJSON *hs = cJSON_AddArrayToObject(j, "handles");
    GString *csv = g_string_new("mode,handle,host_bytes,media_bytes,waf\n");
    g_string_append_printf(csv, "off,device,,,");
    suite_csv_num(csv, off.device.waf, true);
    g_string_append_printf(csv, "on,device,,,");
    suite_csv_num(csv, on.device.waf, true);
    for (int h = 0; h < 2; h++) {
        cJSON *x = cJSON_CreateObject();
        suite_json_u64(x, "handle", (uint64_t)h);
        cJSON_AddStringToObject(x, "class", h ? "hot" : "cold");
        suite_json_u64(x, "host_bytes", on.handles[h].host_bytes);
        suite_json_u64(x, "media_bytes", on.handles[h].media_bytes);
        suite_json_num(x, "waf", on.handles[h].waf);
        cJSON_AddItemToArray(hs, x);
        g_string_append_printf(csv, "on,%d,%" PRIu64 ",%" PRIu64 ",", h, on.handles[h].host_bytes,
                               on.handles[h].media_bytes);
        suite_csv_num(csv, on.handles[h].waf, true);
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
                "over-provisioning (%.1f%%); %.3g drive writes of warm-up, then one measured.\n\n"
                "| mode | handle | host GiB | media GiB | WAF |\n|---|---|---:|---:|---:|\n"
                "| off | device | | | %.3f |\n| on | device | | | %.3f |\n",
             100 * on.device.op, warm, off.device.waf, on.device.waf);
    for (int h = 0; h < 2; h++)
        suite_md(s, "| on | %d (%s) | %.3f | %.3f | %.3f |\n", h, h ? "hot" : "cold",
                 (double)on.handles[h].host_bytes / 1073741824.0,
                 (double)on.handles[h].media_bytes / 1073741824.0, on.handles[h].waf);
    suite_md(s, "\nWAF with FDP %.3f, without %.3f.\n", on.device.waf, off.device.waf);
    suite_say(s, "  WAF without FDP %.3f, with FDP %.3f (handle 0 %.3f, handle 1 %.3f)",
              off.device.waf, on.device.waf, on.handles[0].waf, on.handles[1].waf);
    return 0;
}
