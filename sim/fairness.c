/* fairness.c: `ssdsim run --fairness`. A workload's flows are its job sections (each reported
 * alone: no numjobs > 1 without group_reporting, no group_reporting across sections). After the
 * shared run, each flow runs alone on a fresh copy of the device (same model, seed and
 * preconditioning; the other jobs kept but issuing nothing, ssdsim_workload_keep_job, so the
 * flow keeps its random stream and its NVMe queue). As MQSim does (Tavakkol et al., "MQSim: A
 * Framework for Enabling Realistic Studies of Modern Multi-Queue SSD Devices", FAST 2018), a
 * flow's slowdown is its mean response time shared / alone, and the fairness index is the
 * smallest slowdown / the largest (1: every flow slowed down alike). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cJSON.h>

#include "cli.h"

void cli_fairness_free(struct cli_fair *f)
{
    for (size_t i = 0; i < f->n; i++)
        free(f->names[i]);
    free(f->names);
    free(f->shared);
    free(f->alone);
    memset(f, 0, sizeof *f);
}

static int job_mean(const ssdsim *sim, size_t i, double *out)
{
    ssdsim_op_stats st;
    if (ssdsim_get_job_op_stats(sim, i, SSDSIM_OP_ALL, &st) || st.count == 0)
        return -1;
    *out = st.lat_mean_ns;
    return 0;
}

int cli_fairness_run(const struct cli_run_opts *o, const ssdsim_model *model,
                     const ssdsim_workload *wl, const ssdsim *shared, struct cli_fair *f)
{
    memset(f, 0, sizeof *f);
    size_t n = ssdsim_workload_n_jobs(wl);
    if (n < 2 || ssdsim_n_jobs(shared) != n) {
        cli_error("--fairness: needs a workload of two or more job sections (flows), each "
                  "reported alone (no numjobs > 1 without group_reporting, no group_reporting "
                  "across sections); this one has %zu sections and %zu reported jobs",
                  n, ssdsim_n_jobs(shared));
        return -1;
    }
    f->names = calloc(n, sizeof *f->names);
    f->shared = calloc(n, sizeof *f->shared);
    f->alone = calloc(n, sizeof *f->alone);
    if (!f->names || !f->shared || !f->alone) {
        cli_error("out of memory");
        return -1;
    }
    f->n = n;
    ssdsim_point_opts pt;
    cli_point_opts(o, &pt);
    for (size_t i = 0; i < n; i++) {
        f->names[i] = strdup(ssdsim_workload_job_name(wl, i));
        if (!f->names[i] || job_mean(shared, i, &f->shared[i])) {
            cli_error("--fairness: job '%s' completed no I/O in the shared run",
                      ssdsim_workload_job_name(wl, i));
            return -1;
        }
        ssdsim_workload *alone = NULL;
        ssdsim *sim = NULL;
        ssdsim_error err;
        int rc = ssdsim_workload_copy(&alone, wl);
        if (!rc)
            rc = ssdsim_workload_keep_job(alone, i, &err);
        if (!rc)
            rc = ssdsim_point_new(&sim, model, &pt, &err);
        if (!rc && (o->precondition_seq || o->precondition_fast))
            rc = ssdsim_point_precondition(sim, wl, &pt);
        if (!rc)
            rc = ssdsim_point_measure(sim, alone, &pt);
        if (rc || job_mean(sim, i, &f->alone[i])) {
            cli_error("--fairness: job '%s' alone: %s", f->names[i],
                      sim ? ssdsim_errmsg(sim) : err.message);
            ssdsim_free(sim);
            ssdsim_workload_free(alone);
            return -1;
        }
        ssdsim_free(sim);
        ssdsim_workload_free(alone);
    }
    double lo = INFINITY, hi = 0;
    for (size_t i = 0; i < n; i++) {
        double s = f->shared[i] / f->alone[i];
        lo = fmin(lo, s);
        hi = fmax(hi, s);
    }
    f->index = lo / hi;
    return 0;
}

void cli_fairness_print(FILE *out, const struct cli_fair *f)
{
    fprintf(out, "\nFairness (each flow also run alone; slowdown = mean latency shared / alone):\n");
    fprintf(out, "  %-20s %16s %16s %10s\n", "flow", "shared mean us", "alone mean us",
            "slowdown");
    for (size_t i = 0; i < f->n; i++)
        fprintf(out, "  %-20.20s %16.1f %16.1f %10.3f\n", f->names[i], f->shared[i] / 1e3,
                f->alone[i] / 1e3, f->shared[i] / f->alone[i]);
    fprintf(out, "  fairness index (min slowdown / max slowdown): %.4f\n", f->index);
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
        cJSON_AddStringToObject(x, "name", f->names[i]);
        cJSON_AddNumberToObject(x, "lat_mean_shared_ns", f->shared[i]);
        cJSON_AddNumberToObject(x, "lat_mean_alone_ns", f->alone[i]);
        cJSON_AddNumberToObject(x, "slowdown", f->shared[i] / f->alone[i]);
        cJSON_AddItemToArray(flows, x);
    }
    cJSON_AddNumberToObject(o, "index", f->index);
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
