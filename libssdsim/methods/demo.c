/* demo.c: the point `ssdsim demo` runs (ssdsim/point.h, ssdsim_demo_workload): a drive from
 * fresh through the garbage-collection cliff to steady state under 4 KiB uniform random
 * writes, 16 jobs x 16 queue depth, six times the model's logical capacity in all, its time
 * series in 30 intervals of completed I/Os. */
#include "methods/point.h"

#define DEMO_JOBS 16
#define DEMO_DEPTH 16
#define DEMO_BS 4096
#define DEMO_CAPACITIES 6 /* logical capacities written */
#define DEMO_INTERVALS 30

int ssdsim_demo_workload(ssdsim_workload **out, const ssdsim_model *model, uint64_t *interval_ios,
                         ssdsim_error *err)
{
    if (out)
        *out = NULL;
    if (!out || !model)
        return ssdsim__error_set(err, SSDSIM_EINVAL, NULL, NULL,
                                 "ssdsim_demo_workload: out and a model are needed");
    uint64_t total = DEMO_CAPACITIES * (ssdsim_model_logical_bytes(model) / DEMO_BS);
    uint64_t per_job = total / DEMO_JOBS;
    ssdsim_workload *wl = NULL;
    int rc = ssdsim_workload_new(&wl, "demo workload", err);
    if (!rc)
        rc = ssdsim_workload_set(wl, "rw", "randwrite", err);
    if (!rc)
        rc = ssdsim_workload_set(wl, "bs", "4k", err); /* DEMO_BS, as fio writes it */
    if (!rc)
        rc = ssdsim_workload_set_int(wl, "numjobs", DEMO_JOBS, err);
    if (!rc)
        rc = ssdsim_workload_set_int(wl, "iodepth", DEMO_DEPTH, err);
    if (!rc)
        rc = ssdsim_workload_set_int(wl, "number_ios", (int64_t)per_job, err);
    if (rc) {
        ssdsim_workload_free(wl);
        return rc;
    }
    if (interval_ios)
        *interval_ios = (per_job * DEMO_JOBS + DEMO_INTERVALS - 1) / DEMO_INTERVALS;
    *out = wl;
    return 0;
}
