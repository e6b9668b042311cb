/* wlinfo.c: what the command line needs to know about a workload's jobs beyond running them
 * (the per-job logs a fio job file asks for). */
#include "workload/workload.h"

int ssdsim_workload_job_logs(const ssdsim_workload *wl, size_t i, const char **iops_prefix,
                             const char **lat_prefix, const char **bw_prefix,
                             uint64_t *log_avg_msec, uint32_t *numjobs)
{
    if (!wl || i >= wl->n_jobs)
        return SSDSIM_EINVAL;
    const struct ssdsim__jobspec *j = &wl->jobs[i];
    if (iops_prefix)
        *iops_prefix = j->write_iops_log;
    if (lat_prefix)
        *lat_prefix = j->write_lat_log;
    if (bw_prefix)
        *bw_prefix = j->write_bw_log;
    if (log_avg_msec)
        *log_avg_msec = j->log_avg_msec;
    if (numjobs)
        *numjobs = j->numjobs;
    return 0;
}
