/* wlrun.c: the caller's workload as the measurement methods run it. A method is given a
 * workload for what it does (rw, bs, numjobs, iodepth, regions) and decides itself how long it
 * runs: a time-based window with a ramp, or an amount of host writes. So it runs a copy with the
 * run-length options replaced, set on the parsed jobs directly (what fio's runtime, ramp_time,
 * time_based and io_size options would set), and reads the workload's shape from its jobs. */
#include "common.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "methods/methods.h"
#include "sim.h"
#include "workload/workload.h"

ssdsim_workload *ssdsim__methods_workload(const ssdsim_workload *wl,
                                          const struct ssdsim__methods_len *len)
{
    struct ssdsim_workload *c = ssdsim__workload_new(wl->label, false);
    if (!c)
        return NULL;
    for (uint32_t j = 0; j < wl->n_jobs; j++) {
        if (ssdsim__workload_add_job(c, &wl->jobs[j])) {
            ssdsim_workload_free(c);
            return NULL;
        }
        struct ssdsim__jobspec *job = &c->jobs[c->n_jobs - 1];
        job->number_ios = 0;
        job->time_based = len->runtime_ns > 0;
        job->runtime_ns = len->runtime_ns;
        job->ramp_time_ns = len->ramp_ns;
        job->io_size_bytes = len->io_size_bytes;
        job->io_size_percent = 0;
    }
    return c;
}

int ssdsim__methods_need_ssd(const ssdsim_model *model, ssdsim_error *err, const char *need,
                             const char *system_hint)
{
    switch (ssdsim_model_get_kind(model)) {
    case SSDSIM_MODEL_HDD:
        return ssdsim__error_set(err, SSDSIM_EINVAL, NULL, NULL, "the model is a hard disk; %s",
                                 need);
    case SSDSIM_MODEL_SYSTEM:
        return ssdsim__error_set(err, SSDSIM_EINVAL, NULL, NULL,
                                 "the model is a system of devices; %s%s", need,
                                 system_hint ? system_hint : "");
    default:
        return 0;
    }
}

uint64_t ssdsim__methods_slots(const ssdsim_workload *wl)
{
    uint64_t n = 0;
    for (uint32_t j = 0; j < wl->n_jobs; j++)
        n += (uint64_t)wl->jobs[j].numjobs * wl->jobs[j].iodepth;
    return n;
}

uint64_t ssdsim__methods_clones(const ssdsim_workload *wl)
{
    uint64_t n = 0;
    for (uint32_t j = 0; j < wl->n_jobs; j++)
        n += wl->jobs[j].numjobs;
    return n;
}

double ssdsim__methods_write_share(const ssdsim_workload *wl)
{
    double w = 0;
    uint64_t n = 0;
    for (uint32_t j = 0; j < wl->n_jobs; j++) {
        w += ssdsim__jobspec_write_share(&wl->jobs[j]) * wl->jobs[j].numjobs;
        n += wl->jobs[j].numjobs;
    }
    return n ? w / (double)n : 0.0;
}

uint64_t ssdsim__methods_io_size(const ssdsim_workload *wl, double drive_writes,
                                 uint64_t logical_bytes)
{
    /* io_size counts reads and writes: scale the written bytes by the write share. */
    double share = ssdsim__methods_write_share(wl);
    uint64_t clones = ssdsim__methods_clones(wl);
    if (share <= 0 || clones == 0)
        return 0;
    double per_job = drive_writes * (double)logical_bytes / share / (double)clones;
    /* beyond 2^62 bytes a job would run for ever anyway; converting more to 64 bits wraps (1e12
     * drive writes of a small drive came out as a fraction of one) */
    if (!(per_job < 0x1p62))
        per_job = 0x1p62;
    return ((uint64_t)per_job + 4095) / 4096 * 4096;
}

int ssdsim__methods_run(ssdsim *sim, const ssdsim_workload *wl,
                        const struct ssdsim__methods_len *len, const ssdsim_run_opts *ro)
{
    ssdsim_workload *c = ssdsim__methods_workload(wl, len);
    if (!c) {
        ssdsim__set_errmsg(sim, "out of memory");
        return SSDSIM_ENOMEM;
    }
    /* the methods bring the drive to its state themselves (fills, a curve judged over whole
     * drive writes, an installed state): their runs count it preconditioned by writes alone */
    sim->sys.precond_by_writes = true;
    int rc = ssdsim__run_inner(sim, c, ro);
    sim->sys.precond_by_writes = false;
    ssdsim_workload_free(c);
    return rc;
}
