/* flows.c: flows sharing a drive (ssdsim/suite.h, ssdsim_flows_*): each job section of a
 * workload, a flow, measured in the shared run and again alone on a fresh copy of the device
 * (same model, seed, preconditioning and state: wear, age, faults; the other jobs kept but
 * issuing nothing, ssdsim_workload_keep_job, so that the flow keeps its random stream and its
 * NVMe queue). As
 * MQSim does (Tavakkol et al., "MQSim: A Framework for Enabling Realistic Studies of Modern
 * Multi-Queue SSD Devices", FAST 2018), a flow's slowdown is its mean response time shared /
 * alone, and the fairness index is the smallest slowdown / the largest. `ssdsim run
 * --fairness` and the tenants suite (tenants.c) measure with it.
 */
#include "common.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "abi.h"
#include "methods/methods.h"
#include "ssdsim/suite.h"

/* version 2 appended `state` */
static const size_t flows_opts_sizes[] = {0, SSDSIM__END(ssdsim_flows_opts, progress_userdata),
                                          SSDSIM__END(ssdsim_flows_opts, state)};

int ssdsim_flows_opts_init(ssdsim_flows_opts *opts, unsigned int version)
{
    _Static_assert(SSDSIM__ARRAY_LEN(flows_opts_sizes) == SSDSIM_FLOWS_OPTS_VERSION + 1,
                   "a size per version");
    if (!opts || version > SSDSIM_FLOWS_OPTS_VERSION)
        return SSDSIM_EINVAL;
    unsigned int v = version ? version : SSDSIM_FLOWS_OPTS_VERSION;
    /* the current layout whole, its padding too (version 0 is this library's) */
    memset(opts, 0, v == SSDSIM_FLOWS_OPTS_VERSION ? sizeof *opts : flows_opts_sizes[v]);
    opts->version = v;
    return 0;
}

static int read_opts(ssdsim_flows_opts *o, const ssdsim_flows_opts *opts, ssdsim_error *err)
{
    char why[160] = "";
    if (!opts)
        return ssdsim__error_set(err, SSDSIM_EINVAL, NULL, NULL, "no ssdsim_flows_opts");
    if (ssdsim__opts_read(o, sizeof *o, opts, flows_opts_sizes, SSDSIM_FLOWS_OPTS_VERSION,
                          "ssdsim_flows_opts", why, sizeof why))
        return ssdsim__error_set(err, SSDSIM_EINVAL, NULL, NULL, "%s", why);
    if (!o->point)
        return ssdsim__error_set(err, SSDSIM_EINVAL, NULL, NULL,
                                 "ssdsim_flows_opts.point: expected point options, got NULL");
    return 0;
}

/* A new simulation of `model` that ran `run` after the point's preconditioning (with `whole`,
 * the whole workload) and the options' state (ssdsim_point_prepare). On failure *out is NULL
 * and `err` says "WHAT: why". */
static int run_one(ssdsim **out, const ssdsim_model *model, const ssdsim_workload *whole,
                   const ssdsim_workload *run, const ssdsim_flows_opts *o, ssdsim_error *err,
                   const char *what)
{
    ssdsim *sim = NULL;
    ssdsim_error e;
    int rc = ssdsim_point_new(&sim, model, o->point, &e);
    if (rc) {
        *out = NULL;
        return ssdsim__error_set(err, rc, NULL, NULL, "%s: %s", what, e.message);
    }
    if (o->progress)
        ssdsim_set_progress(sim, o->progress, o->progress_userdata);
    rc = ssdsim_point_precondition(sim, whole, o->point);
    if (!rc && o->state)
        rc = ssdsim_point_prepare(sim, o->state, NULL);
    if (!rc)
        rc = ssdsim_point_measure(sim, run, o->point);
    if (rc) {
        ssdsim__error_set(err, rc, NULL, NULL, "%s: %s", what, ssdsim_errmsg(sim));
        ssdsim_free(sim);
        sim = NULL;
    }
    *out = sim;
    return rc;
}

static int flow_stats(const ssdsim *sim, size_t i, ssdsim_op_stats *st)
{
    return ssdsim_get_job_op_stats(sim, i, SSDSIM_OP_ALL, st) || st->count == 0 ? -1 : 0;
}

/* Whether every job section i of `wl` is reported job i of `shared`, alone: its first clone and
 * all its clones (numjobs, merged only by a group_reporting of its own), no other section's.
 * Equal counts are not enough: [a] numjobs=2 without group_reporting beside [b] and [c]
 * reported together also make 3 sections and 3 reported jobs, job 1 being a's second clone.
 * Clones are numbered consecutively, sections in order (ssdsim_workload_job_logs). */
static bool sections_reported_alone(const ssdsim *shared, const ssdsim_workload *wl)
{
    size_t n = ssdsim_workload_n_jobs(wl);
    if (ssdsim_n_jobs(shared) != n)
        return false;
    uint64_t first = 0;
    for (size_t i = 0; i < n; i++) {
        uint32_t numjobs = 0;
        ssdsim_job_info ji;
        if (ssdsim_workload_job_logs(wl, i, NULL, NULL, NULL, NULL, &numjobs) ||
            ssdsim_get_job(shared, i, &ji) || ji.first_clone != first || ji.n_clones != numjobs)
            return false;
        first += numjobs;
    }
    return true;
}

int ssdsim_flows_alone_sized(const ssdsim *shared, const ssdsim_model *model,
                             const ssdsim_workload *wl, const ssdsim_flows_opts *opts,
                             ssdsim_flow *out, size_t n, size_t size, double *fairness,
                             size_t *failed, ssdsim_error *err)
{
    ssdsim_flows_opts o;
    if (failed)
        *failed = 0;
    if (fairness)
        *fairness = NAN;
    if (!shared || !model || !wl || !out || size == 0)
        return ssdsim__error_set(err, SSDSIM_EINVAL, NULL, NULL,
                                 "ssdsim_flows_alone: NULL argument");
    int rc = read_opts(&o, opts, err);
    if (rc)
        return rc;
    size_t n_flows = ssdsim_workload_n_jobs(wl);
    if (n_flows < 2 || !sections_reported_alone(shared, wl))
        return ssdsim__error_set(err, SSDSIM_EINVAL, NULL, NULL,
                                 "needs a workload of two or more job sections (flows), each "
                                 "reported alone (no numjobs > 1 without group_reporting, no "
                                 "group_reporting across sections); this one has %zu sections "
                                 "and %zu reported jobs",
                                 n_flows, ssdsim_n_jobs(shared));
    if (n < n_flows)
        return ssdsim__error_set(err, SSDSIM_ERANGE, NULL, NULL,
                                 "ssdsim_flows_alone: room for %zu flows, the workload has %zu",
                                 n, n_flows);
    double lo = INFINITY, hi = 0;
    for (size_t i = 0; i < n_flows; i++) {
        const char *name = ssdsim_workload_job_name(wl, i);
        ssdsim_flow f;
        memset(&f, 0, sizeof f);
        if (failed)
            *failed = i;
        if (flow_stats(shared, i, &f.shared))
            return ssdsim__error_set(err, SSDSIM_ESTATE, NULL, NULL,
                                     "job '%s' completed no I/O in the shared run", name);
        ssdsim_workload *alone = NULL;
        rc = ssdsim_workload_copy(&alone, wl);
        if (rc)
            return ssdsim__error_set(err, rc, NULL, NULL, "out of memory");
        rc = ssdsim_workload_keep_job(alone, i, err);
        char what[160];
        snprintf(what, sizeof what, "job '%s' alone", name);
        ssdsim *sim = NULL;
        if (!rc)
            rc = run_one(&sim, model, wl, alone, &o, err, what);
        ssdsim_workload_free(alone);
        if (!rc && flow_stats(sim, i, &f.alone))
            rc = ssdsim__error_set(err, SSDSIM_ESTATE, NULL, NULL, "%s: completed no I/O", what);
        ssdsim_free(sim);
        if (rc)
            return rc;
        f.slowdown = f.shared.lat_mean_ns / f.alone.lat_mean_ns;
        lo = fmin(lo, f.slowdown);
        hi = fmax(hi, f.slowdown);
        ssdsim__result_give((char *)out + i * size, size, &f, sizeof f, 0, false);
    }
    if (fairness)
        *fairness = lo / hi;
    return 0;
}

int ssdsim_flows_tail(const ssdsim *shared, size_t i, double *fraction)
{
    if (fraction)
        *fraction = NAN;
    size_t n = shared ? ssdsim_n_jobs(shared) : 0;
    if (!fraction || i >= n)
        return SSDSIM_EINVAL;
    uint64_t first_end = UINT64_MAX;
    ssdsim_job_info ji, me;
    memset(&me, 0, sizeof me);
    for (size_t j = 0; j < n; j++) {
        if (ssdsim_get_job(shared, j, &ji))
            return SSDSIM_EINVAL;
        first_end = ji.end_ns < first_end ? ji.end_ns : first_end;
        if (j == i)
            me = ji;
    }
    if (me.end_ns <= me.start_ns)
        return SSDSIM_EINVAL;
    /* a flow that started after the first ended (startdelay) ran alone all along: 1 */
    uint64_t from = first_end > me.start_ns ? first_end : me.start_ns;
    *fraction = (double)(me.end_ns - from) / (double)(me.end_ns - me.start_ns);
    return 0;
}

int ssdsim__flows_shared(ssdsim **out, const ssdsim_model *model, const ssdsim_workload *wl,
                         const ssdsim_flows_opts *opts, ssdsim_error *err)
{
    ssdsim_flows_opts o;
    *out = NULL;
    int rc = read_opts(&o, opts, err);
    return rc ? rc : run_one(out, model, wl, wl, &o, err, "shared run");
}

int ssdsim_flows_run_sized(const ssdsim_model *model, const ssdsim_workload *wl,
                           const ssdsim_flows_opts *opts, ssdsim_flow *out, size_t n, size_t size,
                           double *fairness, size_t *failed, ssdsim_error *err)
{
    if (failed)
        *failed = 0;
    if (fairness)
        *fairness = NAN;
    if (!model || !wl || !out || size == 0)
        return ssdsim__error_set(err, SSDSIM_EINVAL, NULL, NULL, "ssdsim_flows_run: NULL argument");
    ssdsim *shared = NULL;
    int rc = ssdsim__flows_shared(&shared, model, wl, opts, err);
    if (!rc)
        rc = ssdsim_flows_alone_sized(shared, model, wl, opts, out, n, size, fairness, failed,
                                      err);
    ssdsim_free(shared);
    return rc;
}
