/* tenants.c: the tenants suite's method (ssdsim/suite.h, ssdsim_tenants_*; issue 17, item 6):
 * two tenants share a drive through NVMe queues, a 4 KiB random-write tenant on queue 1 and a
 * 4 KiB random-read tenant on queue 0, both at the queue depth of the controller's command
 * slots (at least 32: arbitration decides only while the slots are all taken), run together on
 * a drive at the writer's random-write steady state (fast preconditioning), then each alone on
 * a fresh copy of the same drive (flows.c). Round robin arbitration, or weighted round robin
 * with the reader's queue of the high class (weight SSDSIM_TENANTS_WRR_WEIGHT) and the writer's
 * of the low class (weight 1).
 */
#include "common.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "abi.h"
#include "methods/methods.h"
#include "ssdsim/suite.h"

static const size_t tenants_opts_sizes[] = {0, sizeof(ssdsim_tenants_opts)};
static const char *const tenant_name[SSDSIM_TENANTS_N] = {"writer", "reader"};

int ssdsim_tenants_opts_init(ssdsim_tenants_opts *opts, unsigned int version)
{
    _Static_assert(SSDSIM__ARRAY_LEN(tenants_opts_sizes) == SSDSIM_TENANTS_OPTS_VERSION + 1,
                   "a size per version");
    if (!opts || version > SSDSIM_TENANTS_OPTS_VERSION)
        return SSDSIM_EINVAL;
    unsigned int v = version ? version : SSDSIM_TENANTS_OPTS_VERSION;
    /* the current layout whole, its padding too (version 0 is this library's) */
    memset(opts, 0, v == SSDSIM_TENANTS_OPTS_VERSION ? sizeof *opts : tenants_opts_sizes[v]);
    opts->version = v;
    return 0;
}

uint32_t ssdsim_tenants_qd(const ssdsim_model *model)
{
    int64_t slots = 32;
    if (model)
        ssdsim_model_get_int(model, "controller.queue_depth", &slots, NULL);
    return slots > 32 ? (uint32_t)slots : 32;
}

const char *ssdsim_tenants_name(size_t i)
{
    return i < SSDSIM_TENANTS_N ? tenant_name[i] : NULL;
}

uint32_t ssdsim_tenants_queue(size_t i)
{
    return i == 0 ? 1 : 0;
}

int ssdsim_tenants_workload(ssdsim_workload **out, uint32_t qd, uint64_t runtime_ns,
                            ssdsim_error *err)
{
    char job[512];
    snprintf(job, sizeof job,
             "[global]\nioengine=libaio\nbs=4k\niodepth=%" PRIu32 "\nnorandommap\ntime_based\n"
             "runtime=%" PRIu64 "us\n"
             "[writer]\nrw=randwrite\nqueue=1\n[reader]\nrw=randread\nqueue=0\n",
             qd, runtime_ns / 1000);
    return ssdsim_workload_load_string(out, job, "suite tenants", err);
}

/* `model` with the NVMe keys of arbitration `arb`: the model's own classes and weights taken
 * out first (a model that sets WRR with an urgent queue would otherwise make the reader's queue
 * 0 urgent, or refuse "rr" beside its WRR keys), then the suite's, all validated at once. */
static int arbitrate(ssdsim_model *m, ssdsim_tenants_arbitration arb, ssdsim_error *err)
{
    int64_t queues = 1;
    ssdsim_model_get_int(m, "nvme.queues", &queues, NULL);
    char w[16];
    snprintf(w, sizeof w, "%d", SSDSIM_TENANTS_WRR_WEIGHT);
    const char *keys[11], *values[11];
    size_t n = 0;
    static const char *const classes[] = {"nvme.urgent_queues", "nvme.high_queues",
                                          "nvme.medium_queues", "nvme.weight_high",
                                          "nvme.weight_medium", "nvme.weight_low"};
    for (size_t i = 0; i < SSDSIM__ARRAY_LEN(classes); i++) {
        keys[n] = classes[i];
        values[n++] = "null";
    }
    if (queues < 2) {
        keys[n] = "nvme.queues";
        values[n++] = "2";
    }
    keys[n] = "nvme.arbitration";
    values[n++] = arb ? "\"wrr\"" : "\"rr\"";
    if (arb) {
        keys[n] = "nvme.high_queues";
        values[n++] = "1";
        keys[n] = "nvme.weight_high";
        values[n++] = w;
        keys[n] = "nvme.weight_low";
        values[n++] = "1";
    }
    return ssdsim_model_set_many(m, n, keys, values, NULL, err);
}

int ssdsim_tenants_check(const ssdsim_model *model, ssdsim_error *err)
{
    if (!model)
        return ssdsim__error_set(err, SSDSIM_EINVAL, NULL, NULL, "NULL model");
    int rc = ssdsim__methods_need_ssd(model, err,
                                      "the tenants share the NVMe queue pairs of one solid-state "
                                      "device",
                                      NULL);
    if (rc)
        return rc;
    char iface[16] = "";
    ssdsim_model_get_string(model, "host.interface", iface, sizeof iface, NULL);
    if (!strcmp(iface, "sata") || !strcmp(iface, "sas"))
        return ssdsim__error_set(err, SSDSIM_EINVAL, NULL, NULL,
                                 "the model's host.interface is %s, which has one command queue; "
                                 "the tenants need NVMe queue pairs (pcie or custom)",
                                 iface);
    return 0;
}

int ssdsim_tenants_run_sized(const ssdsim_model *model, ssdsim_tenants_arbitration arb,
                             const ssdsim_tenants_opts *opts, ssdsim_tenants *out, size_t size,
                             ssdsim_error *err)
{
    ssdsim_tenants_opts o;
    char why[160] = "";
    if (!model || !opts || !out || size == 0)
        return ssdsim__error_set(err, SSDSIM_EINVAL, NULL, NULL,
                                 "ssdsim_tenants_run: NULL model, options or result");
    if (ssdsim__opts_read(&o, sizeof o, opts, tenants_opts_sizes, SSDSIM_TENANTS_OPTS_VERSION,
                          "ssdsim_tenants_opts", why, sizeof why))
        return ssdsim__error_set(err, SSDSIM_EINVAL, NULL, NULL, "%s", why);
    int rc0 = ssdsim_tenants_check(model, err);
    if (rc0)
        return rc0;
    if (o.runtime_ns < 1000)
        return ssdsim__error_set(err, SSDSIM_EINVAL, NULL, NULL,
                                 "ssdsim_tenants_opts.runtime_ns: expected at least 1 us");
    if (arb != SSDSIM_TENANTS_RR && arb != SSDSIM_TENANTS_WRR)
        return ssdsim__error_set(err, SSDSIM_EINVAL, NULL, NULL,
                                 "ssdsim_tenants_run: unknown arbitration %d", (int)arb);
    ssdsim_tenants t;
    memset(&t, 0, sizeof t);
    t.qd = ssdsim_tenants_qd(model);
    ssdsim_workload *wl = NULL;
    ssdsim_model *m = NULL;
    int rc = ssdsim_tenants_workload(&wl, t.qd, o.runtime_ns, err);
    if (!rc && (rc = ssdsim_model_copy(&m, model)))
        ssdsim__error_set(err, rc, NULL, NULL, "out of memory");
    if (!rc)
        rc = arbitrate(m, arb, err);
    ssdsim_point_opts pt = SSDSIM_POINT_OPTS_INIT;
    ssdsim_point_opts_init(&pt, 0);
    pt.seed = o.seed;
    /* the writer's random-write steady state, where garbage collection runs and so interferes
     * (a sequential fill leaves the spare free: the writer's window would collect nothing) */
    pt.precondition = SSDSIM_PRECONDITION_FAST;
    ssdsim_flows_opts fo = SSDSIM_FLOWS_OPTS_INIT;
    fo.point = &pt;
    fo.progress = o.progress;
    fo.progress_userdata = o.progress_userdata;
    /* ssdsim_flows_run's two steps, keeping the shared run for the tenants' drain tails */
    ssdsim *shared = NULL;
    if (!rc)
        rc = ssdsim__flows_shared(&shared, m, wl, &fo, err);
    if (!rc)
        rc = ssdsim_flows_alone(shared, m, wl, &fo, t.flows, SSDSIM_TENANTS_N, &t.fairness, NULL,
                                err);
    for (size_t i = 0; !rc && i < SSDSIM_TENANTS_N; i++)
        ssdsim_flows_tail(shared, i, &t.tail[i]);
    ssdsim_free(shared);
    ssdsim_model_free(m);
    ssdsim_workload_free(wl);
    return ssdsim__result_give(out, size, &t, sizeof t, rc, false);
}
