/* suite_tenants.c: `ssdsim suite tenants`, two tenants sharing a drive through NVMe queues
 * (issue 17, item 6): a random-write tenant on queue 1 and a random-read tenant on queue 0,
 * both 4 KiB at the queue depth of the controller's command slots (at least 32), run together on a sequentially filled drive, then each alone
 * on a fresh copy of the same filled drive (the other job kept but issuing nothing,
 * ssdsim_workload_keep_job, as `ssdsim run --fairness`). Per tenant: IOPS, mean and p99
 * latency of the shared run, and the slowdown (mean latency shared / alone); the fairness index
 * is the smallest slowdown / the largest (MQSim, Tavakkol et al., FAST 2018). Once with round
 * robin arbitration, once with weighted round robin where the read tenant's queue is of the
 * high class with weight 4 and the write tenant's low with weight 1 (nvme.* keys, models.md).
 */
#include <inttypes.h>
#include <math.h>
#include <string.h>

#include "suite.h"

#define N_TENANTS 2
#define WRR_WEIGHT "4"

static const char *const tenant_name[N_TENANTS] = {"writer", "reader"};

struct tenant {
    ssdsim_op_stats shared;
    double alone_mean_ns, slowdown;
};

/* Run `wl` on a fresh, sequentially filled simulation of `m`. NULL after printing the error. */
static ssdsim *run_filled(struct suite *s, const ssdsim_model *m, const ssdsim_workload *wl,
                          const char *what)
{
    ssdsim *sim = suite_sim_new(s, m);
    if (!sim)
        return NULL;
    if (ssdsim_precondition_seq(sim) || ssdsim_run(sim, wl, NULL)) {
        cli_error("suite tenants: %s: %s", what, ssdsim_errmsg(sim));
        ssdsim_free(sim);
        return NULL;
    }
    return sim;
}

/* One arbitration: the shared run and each tenant alone. 0 or -1. */
static int measure(struct suite *s, const ssdsim_model *m, const ssdsim_workload *wl,
                   const char *arb, struct tenant *t, double *fairness)
{
    ssdsim *sim = run_filled(s, m, wl, arb);
    if (!sim)
        return -1;
    for (size_t i = 0; i < N_TENANTS; i++) {
        if (ssdsim_get_job_op_stats(sim, i, SSDSIM_OP_ALL, &t[i].shared) ||
            t[i].shared.count == 0) {
            cli_error("suite tenants: %s: tenant %s completed no I/O", arb, tenant_name[i]);
            ssdsim_free(sim);
            return -1;
        }
    }
    ssdsim_free(sim);
    double lo = INFINITY, hi = 0;
    for (size_t i = 0; i < N_TENANTS; i++) {
        ssdsim_workload *alone = NULL;
        ssdsim_error err;
        if (ssdsim_workload_copy(&alone, wl) || ssdsim_workload_keep_job(alone, i, &err)) {
            cli_error("suite tenants: out of memory");
            ssdsim_workload_free(alone);
            return -1;
        }
        char what[64];
        snprintf(what, sizeof what, "%s, %s alone", arb, tenant_name[i]);
        sim = run_filled(s, m, alone, what);
        ssdsim_workload_free(alone);
        ssdsim_op_stats st;
        if (!sim)
            return -1;
        if (ssdsim_get_job_op_stats(sim, i, SSDSIM_OP_ALL, &st) || st.count == 0) {
            cli_error("suite tenants: %s: completed no I/O", what);
            ssdsim_free(sim);
            return -1;
        }
        ssdsim_free(sim);
        t[i].alone_mean_ns = st.lat_mean_ns;
        t[i].slowdown = t[i].shared.lat_mean_ns / st.lat_mean_ns;
        lo = fmin(lo, t[i].slowdown);
        hi = fmax(hi, t[i].slowdown);
    }
    *fairness = lo / hi;
    return 0;
}

static int set(ssdsim_model *m, const char *key, const char *value)
{
    ssdsim_error err;
    if (ssdsim_model_set(m, key, value, &err)) {
        cli_error("suite tenants: %s", err.message);
        return -1;
    }
    return 0;
}

int suite_tenants(struct suite *s)
{
    const struct suite_opts *o = s->opt;
    int64_t queues = 1;
    ssdsim_model_get_int(s->model, "nvme.queues", &queues, NULL);
    /* Arbitration decides only while the controller's command slots are all taken: each tenant
     * keeps at least as many commands outstanding as the controller holds. */
    int64_t slots = 32;
    ssdsim_model_get_int(s->model, "controller.queue_depth", &slots, NULL);
    int64_t qd = slots > 32 ? slots : 32;
    char job[512];
    snprintf(job, sizeof job,
             "[global]\nbs=4k\niodepth=%" PRId64 "\nnorandommap\ntime_based\n"
             "runtime=%" PRIu64 "us\n"
             "[writer]\nrw=randwrite\nqueue=1\n[reader]\nrw=randread\nqueue=0\n",
             qd, o->window_ns / 1000);
    ssdsim_workload *wl = NULL;
    ssdsim_error err;
    if (ssdsim_workload_load_string(&wl, job, "suite tenants", &err)) {
        cli_error("suite tenants: %s", err.message);
        return -1;
    }
    const char *arbs[] = {"rr", "wrr"};
    cJSON *runs = cJSON_AddArrayToObject(s->json, "tenants");
    GString *csv = g_string_new("arbitration,tenant,queue,iops,lat_mean_us,lat_p99_us,"
                                "alone_lat_mean_us,slowdown,fairness\n");
    suite_md(s, "## Two tenants on separate NVMe queues\n\n"
                "A 4 KiB random-write tenant (`writer`, queue 1) and a 4 KiB random-read tenant "
                "(`reader`, queue 0), queue depth %" PRId64 " each (the controller's command "
                "slots, `controller.queue_depth`, at least 32: arbitration decides only while "
                "they are all taken), %.3g s together on a sequentially "
                "filled drive, then each alone on the same filled drive. Slowdown: mean latency "
                "together / alone; fairness index: smallest slowdown / largest (MQSim). WRR: "
                "the reader's queue high (weight " WRR_WEIGHT "), the writer's low (weight 1).\n\n"
                "| arbitration | tenant | IOPS | mean us | p99 us | alone mean us | slowdown |\n"
                "|---|---|---:|---:|---:|---:|---:|\n",
             qd, (double)o->window_ns / 1e9);
    int rc = 0;
    for (size_t a = 0; a < 2 && rc == 0; a++) {
        ssdsim_model *m = suite_model_copy(s->model);
        if (!m) {
            rc = -1;
            break;
        }
        if (queues < 2)
            rc = set(m, "nvme.queues", "2");
        if (!rc)
            rc = set(m, "nvme.arbitration", a ? "\"wrr\"" : "\"rr\"");
        if (!rc && a)
            rc = set(m, "nvme.high_queues", "1");
        if (!rc && a)
            rc = set(m, "nvme.weight_high", WRR_WEIGHT);
        if (!rc && a)
            rc = set(m, "nvme.weight_low", "1");
        struct tenant t[N_TENANTS];
        double fairness = 0;
        suite_say(s, "tenants: %s arbitration", arbs[a]);
        if (!rc)
            rc = measure(s, m, wl, arbs[a], t, &fairness);
        ssdsim_model_free(m);
        if (rc)
            break;
        cJSON *r = cJSON_CreateObject();
        cJSON_AddStringToObject(r, "arbitration", arbs[a]);
        cJSON *flows = cJSON_AddArrayToObject(r, "flows");
        for (size_t i = 0; i < N_TENANTS; i++) {
            cJSON *f = cJSON_CreateObject();
            cJSON_AddStringToObject(f, "name", tenant_name[i]);
            suite_json_u64(f, "queue", i ? 0 : 1);
            suite_json_num(f, "iops", t[i].shared.iops);
            suite_json_num(f, "lat_mean_ns", t[i].shared.lat_mean_ns);
            suite_json_u64(f, "lat_p99_ns", t[i].shared.lat_p99_ns);
            suite_json_num(f, "alone_lat_mean_ns", t[i].alone_mean_ns);
            suite_json_num(f, "slowdown", t[i].slowdown);
            cJSON_AddItemToArray(flows, f);
            g_string_append_printf(csv, "%s,%s,%d,", arbs[a], tenant_name[i], i ? 0 : 1);
            suite_csv_num(csv, t[i].shared.iops, false);
            suite_csv_num(csv, t[i].shared.lat_mean_ns / 1e3, false);
            suite_csv_num(csv, (double)t[i].shared.lat_p99_ns / 1e3, false);
            suite_csv_num(csv, t[i].alone_mean_ns / 1e3, false);
            suite_csv_num(csv, t[i].slowdown, false);
            suite_csv_num(csv, fairness, true);
            suite_md(s, "| %s | %s | %.0f | %.1f | %.1f | %.1f | %.3f |\n", arbs[a],
                     tenant_name[i], t[i].shared.iops, t[i].shared.lat_mean_ns / 1e3,
                     (double)t[i].shared.lat_p99_ns / 1e3, t[i].alone_mean_ns / 1e3,
                     t[i].slowdown);
        }
        suite_json_num(r, "fairness", fairness);
        cJSON_AddItemToArray(runs, r);
        suite_say(s, "  fairness index %.4f", fairness);
    }
    if (rc == 0) {
        cJSON *last = cJSON_GetArrayItem(runs, 0), *wrr = cJSON_GetArrayItem(runs, 1);
        suite_md(s, "\nFairness index: round robin %.4f, weighted round robin %.4f.\n",
                 cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(last, "fairness")),
                 cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(wrr, "fairness")));
        suite_shortcut(s, "The tenants run on a drive filled sequentially by functional "
                          "fast-forward, not at the random-write steady state.");
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
    ssdsim_workload_free(wl);
    return rc;
}
