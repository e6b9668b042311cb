/* suite_tenants.c: `ssdsim suite tenants`, the report of two tenants sharing a drive through
 * NVMe queues (issue 17, item 6): the measurement is the library's (ssdsim_tenants_run,
 * libssdsim/methods/tenants.c), once with round robin arbitration and once with weighted round
 * robin; this file writes its JSON, CSV, Markdown table and plot. Per tenant: IOPS, mean and
 * p99 latency of the shared run, and the slowdown (mean latency shared / alone); the fairness
 * index is the smallest slowdown / the largest (MQSim, Tavakkol et al., FAST 2018).
 */
#include <inttypes.h>

#include "suite.h"

int suite_tenants(struct suite *s)
{
    const struct suite_opts *o = s->opt;
    {
        ssdsim_error err;
        if (ssdsim_tenants_check(s->model, &err)) {
            cli_error("suite tenants: %s", err.message);
            return -1;
        }
    }
    uint32_t qd = ssdsim_tenants_qd(s->model);
    ssdsim_tenants_opts to = SSDSIM_TENANTS_OPTS_INIT;
    to.runtime_ns = o->window_ns;
    to.seed = s->seed;
    to.progress = cli_interrupt_cb; /* SIGINT and SIGTERM cancel the run under way */
    const char *arbs[] = {"rr", "wrr"};
    cJSON *runs = cJSON_AddArrayToObject(s->json, "tenants");
    GString *csv = g_string_new("arbitration,tenant,queue,iops,lat_mean_us,lat_p99_us,"
                                "alone_lat_mean_us,slowdown,fairness\n");
    suite_md(s, "## Two tenants on separate NVMe queues\n\n"
                "A 4 KiB random-write tenant (`writer`, queue 1) and a 4 KiB random-read tenant "
                "(`reader`, queue 0), queue depth %" PRIu32 " each (the controller's command "
                "slots, `controller.queue_depth`, at least 32: arbitration decides only while "
                "they are all taken), %.3g s together on a drive at the writer's "
                "random-write steady state, then each alone on the same drive. Slowdown: mean "
                "latency together / alone; fairness index: smallest slowdown / largest (MQSim). "
                "WRR: the reader's queue high (weight %d), the writer's low (weight 1).\n\n"
                "| arbitration | tenant | IOPS | mean us | p99 us | alone mean us | slowdown |\n"
                "|---|---|---:|---:|---:|---:|---:|\n",
             qd, (double)o->window_ns / 1e9, SSDSIM_TENANTS_WRR_WEIGHT);
    int rc = 0;
    for (size_t a = 0; a < 2; a++) {
        ssdsim_tenants t;
        ssdsim_error err;
        suite_say(s, "tenants: %s arbitration", arbs[a]);
        if (ssdsim_tenants_run(s->model, (ssdsim_tenants_arbitration)a, &to, &t, &err)) {
            cli_error("suite tenants: %s: %s", arbs[a], err.message);
            rc = -1;
            break;
        }
        cJSON *r = cJSON_CreateObject();
        cJSON_AddStringToObject(r, "arbitration", arbs[a]);
        cJSON *flows = cJSON_AddArrayToObject(r, "flows");
        for (size_t i = 0; i < SSDSIM_TENANTS_N; i++) {
            const ssdsim_flow *fl = &t.flows[i];
            const char *name = ssdsim_tenants_name(i);
            uint32_t queue = ssdsim_tenants_queue(i);
            cJSON *f = cJSON_CreateObject();
            cJSON_AddStringToObject(f, "name", name);
            suite_json_u64(f, "queue", queue);
            suite_json_num(f, "iops", fl->shared.iops);
            suite_json_num(f, "lat_mean_ns", fl->shared.lat_mean_ns);
            suite_json_u64(f, "lat_p99_ns", fl->shared.lat_p99_ns);
            suite_json_num(f, "alone_lat_mean_ns", fl->alone.lat_mean_ns);
            suite_json_num(f, "slowdown", fl->slowdown);
            suite_json_num(f, "tail_fraction", t.tail[i]);
            cJSON_AddItemToArray(flows, f);
            g_string_append_printf(csv, "%s,%s,%" PRIu32 ",", arbs[a], name, queue);
            suite_csv_num(csv, fl->shared.iops, false);
            suite_csv_num(csv, fl->shared.lat_mean_ns / 1e3, false);
            suite_csv_num(csv, (double)fl->shared.lat_p99_ns / 1e3, false);
            suite_csv_num(csv, fl->alone.lat_mean_ns / 1e3, false);
            suite_csv_num(csv, fl->slowdown, false);
            suite_csv_num(csv, t.fairness, true);
            suite_md(s, "| %s | %s | %.0f | %.1f | %.1f | %.1f | %.3f |\n", arbs[a], name,
                     fl->shared.iops, fl->shared.lat_mean_ns / 1e3,
                     (double)fl->shared.lat_p99_ns / 1e3, fl->alone.lat_mean_ns / 1e3,
                     fl->slowdown);
        }
        suite_json_num(r, "fairness", t.fairness);
        /* the shared figures are over each tenant's own window (ssdsim_flows_tail) */
        bool tail = false;
        for (size_t i = 0; i < SSDSIM_TENANTS_N; i++) {
            if (!(t.tail[i] > SSDSIM_FLOWS_TAIL_WARN))
                continue;
            tail = true;
            cli_error("warning: suite tenants: %s: the %s ran %.0f%% of its window after the "
                      "other had ended (draining its queue alone): its IOPS and latency "
                      "together include that tail",
                      arbs[a], ssdsim_tenants_name(i), 100 * t.tail[i]);
            suite_md(s, "| | *the %s ran %.0f%% of its window after the other had ended* | | | "
                        "| | |\n",
                     ssdsim_tenants_name(i), 100 * t.tail[i]);
        }
        cJSON_AddBoolToObject(r, "drain_tail_warning", tail);
        cJSON_AddItemToArray(runs, r);
        suite_say(s, "  fairness index %.4f", t.fairness);
    }
    if (rc == 0) {
        cJSON *last = cJSON_GetArrayItem(runs, 0), *wrr = cJSON_GetArrayItem(runs, 1);
        suite_md(s, "\nFairness index: round robin %.4f, weighted round robin %.4f.\n",
                 cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(last, "fairness")),
                 cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(wrr, "fairness")));
        suite_shortcut(s, "The tenants run on a drive brought to the writer's random-write "
                          "steady state by fast preconditioning, not by timed writes.");
        suite_csv(s, "tenants.csv", g_string_free(csv, FALSE));
        suite_plot(s, "tenants.png",
                   "set title 'Two tenants: IOPS and slowdown'\n"
                   "set key autotitle columnhead\nset style data histograms\n"
                   "set style fill solid 0.6\nset ylabel 'IOPS'\nset y2label 'slowdown'\n"
                   "set y2tics\nset ytics nomirror\n"
                   "plot 'tenants.csv' using 4:xtic(strcol(1).' '.strcol(2)) title 'IOPS', "
                   "'' using 0:8 axes x1y2 with linespoints title 'slowdown'\n");
    } else {
        g_string_free(csv, TRUE);
    }
    return rc;
}
