/* fairness.c: `ssdsim run --fairness`, its table and its JSON member. A workload's flows are
 * its job sections; the library measures each alone after the shared run and gives the
 * slowdowns (mean response time shared / alone) and the fairness index (the smallest slowdown
 * / the largest), as MQSim does (ssdsim_flows_alone, libssdsim/methods/flows.c). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cJSON.h>

#include "cli.h"

void cli_fairness_free(struct cli_fair *f)
{
    free(f->flows);
    free(f->tail);
    memset(f, 0, sizeof *f);
}

int cli_fairness_run(const struct cli_run_opts *o, const ssdsim_model *model,
                     const ssdsim_workload *wl, const ssdsim *shared, struct cli_fair *f)
{
    memset(f, 0, sizeof *f);
    size_t n = ssdsim_workload_n_jobs(wl);
    f->flows = calloc(n ? n : 1, sizeof *f->flows);
    f->tail = calloc(n ? n : 1, sizeof *f->tail);
    if (!f->flows || !f->tail) {
        cli_error("out of memory");
        return -1;
    }
    ssdsim_point_opts pt;
    cli_point_opts(o, &pt);
    ssdsim_point_state st; /* the alone runs' drive as the shared run's */
    cli_point_state(o, &st);
    ssdsim_flows_opts fo = SSDSIM_FLOWS_OPTS_INIT;
    fo.point = &pt;
    fo.state = &st;
    ssdsim_error err;
    if (ssdsim_flows_alone(shared, model, wl, &fo, f->flows, n, &f->index, NULL, &err)) {
        cli_error("--fairness: %s", err.message);
        return -1;
    }
    f->wl = wl;
    f->n = n;
    /* a flow's shared figures are over its own window, which ends when its last request
     * completes: one that went on long after another had ended ran alone meanwhile */
    for (size_t i = 0; i < n; i++) {
        ssdsim_flows_tail(shared, i, &f->tail[i]);
        if (f->tail[i] > SSDSIM_FLOWS_TAIL_WARN)
            cli_error("warning: --fairness: flow '%s' ran %.0f%% of its window after the first "
                      "flow had ended (draining its queue alone): its shared figures are not "
                      "those of the flows competing",
                      ssdsim_workload_job_name(wl, i), 100 * f->tail[i]);
    }
    return 0;
}

static bool tail_warning(const struct cli_fair *f)
{
    for (size_t i = 0; i < f->n; i++)
        if (f->tail[i] > SSDSIM_FLOWS_TAIL_WARN)
            return true;
    return false;
}

void cli_fairness_print(FILE *out, const struct cli_fair *f)
{
    fprintf(out, "\nFairness (each flow also run alone; slowdown = mean latency shared / alone):\n");
    fprintf(out, "  %-20s %16s %16s %10s\n", "flow", "shared mean us", "alone mean us",
            "slowdown");
    for (size_t i = 0; i < f->n; i++)
        fprintf(out, "  %-20.20s %16.1f %16.1f %10.3f\n", ssdsim_workload_job_name(f->wl, i),
                f->flows[i].shared.lat_mean_ns / 1e3, f->flows[i].alone.lat_mean_ns / 1e3,
                f->flows[i].slowdown);
    fprintf(out, "  fairness index (min slowdown / max slowdown): %.4f\n", f->index);
    if (tail_warning(f))
        fprintf(out, "  (a flow ran over %.0f%% of its window after the first had ended: its "
                     "shared figures include that drain tail)\n",
                100 * SSDSIM_FLOWS_TAIL_WARN);
}

char *cli_fairness_json(const char *json, const struct cli_fair *f)
{
    /* added as the last member, the rest of the text untouched */
    const char *end = strrchr(json, '}');
    if (!end)
        return NULL;
    cJSON *o = cJSON_CreateObject();
    cJSON *flows = cJSON_AddArrayToObject(o, "flows");
    for (size_t i = 0; i < f->n; i++) {
        cJSON *x = cJSON_CreateObject();
        cJSON_AddStringToObject(x, "name", ssdsim_workload_job_name(f->wl, i));
        cJSON_AddNumberToObject(x, "lat_mean_shared_ns", f->flows[i].shared.lat_mean_ns);
        cJSON_AddNumberToObject(x, "lat_mean_alone_ns", f->flows[i].alone.lat_mean_ns);
        cJSON_AddNumberToObject(x, "slowdown", f->flows[i].slowdown);
        cJSON_AddNumberToObject(x, "tail_fraction", f->tail[i]);
        cJSON_AddItemToArray(flows, x);
    }
    cJSON_AddNumberToObject(o, "index", f->index);
    cJSON_AddBoolToObject(o, "drain_tail_warning", tail_warning(f));
    char *obj = cJSON_PrintUnformatted(o);
    cJSON_Delete(o);
    if (!obj)
        return NULL;
    size_t head = (size_t)(end - json);
    size_t len = head + strlen(obj) + 32 + strlen(end);
    char *text = malloc(len);
    if (text)
        snprintf(text, len, "%.*s,\n  \"fairness\": %s\n%s", (int)head, json, obj, end);
    free(obj);
    return text;
}
