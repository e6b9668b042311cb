/* apps.c: the application suite's method (ssdsim/suite.h, ssdsim_apps_*): the labs'
 * application benchmarks (shared/reference/methodology.md, section 4) as trace replay. A block
 * trace recorded under the application is replayed on a model written full first (the
 * application's data is on the drive; a never-written SSD answers reads without its flash):
 *
 * - as recorded: open loop at the trace's own times, its span cut into `intervals` equal
 *   intervals, the mean latency and IOPS of each (the NoSQL cluster test reports a node's
 *   average latency in each of 24 intervals);
 * - closed loop at 2, 4, 8, 16 and 32 requests outstanding, in the trace's order with its times
 *   ignored (SysBench OLTP at 2 to 32 threads): I/Os per second, which for the trace's fixed mix
 *   of I/Os per transaction is the transaction rate in proportion, mean and p99 latency.
 *
 * Every part runs on the same drive, one after the other, as a lab runs its benchmarks; the
 * trace is read again from its first request for each (ssdsim_trace_rewind), `passes` times
 * over for a closed-loop point.
 */
#include "common.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "abi.h"
#include "methods/methods.h"
#include "sim.h"
#include "ssdsim/suite.h"
#include "ssdsim/trace.h"

static const uint32_t threads[SSDSIM_APPS_N_THREADS] = {2, 4, 8, 16, 32};

uint32_t ssdsim_apps_threads(size_t k)
{
    return k < SSDSIM_APPS_N_THREADS ? threads[k] : 0;
}

/* The trace read `passes` times over: each pass after the first starts again from the first
 * request, its times moved past the last pass's (times must not decrease; a closed loop ignores
 * them). */
struct loop {
    ssdsim_trace *t;
    uint32_t passes, pass;
    uint64_t span_ns; /* last request time of a pass, + 1 */
};

static int loop_next(void *userdata, ssdsim_request *req, char *msg, size_t msglen)
{
    struct loop *l = userdata;
    ssdsim_source inner;
    ssdsim_trace_as_source(l->t, &inner);
    int rc = inner.next(inner.userdata, req, msg, msglen);
    if (rc == 0 && l->pass + 1 < l->passes) {
        ssdsim_error err;
        memset(&err, 0, sizeof err);
        if ((rc = ssdsim_trace_rewind(l->t, &err)) != 0) {
            snprintf(msg, msglen, "%s", err.message[0] ? err.message : ssdsim_strerror(rc));
            return rc;
        }
        l->pass++;
        rc = inner.next(inner.userdata, req, msg, msglen);
    }
    if (rc == 1)
        req->time_ns += l->pass * l->span_ns;
    return rc;
}

/* The figures of the run just ended, over all of it (the trace's requests, its tail included:
 * the replay's end is the trace's); a mean latency of an operation that did not occur is NaN. */
static void figures(ssdsim *sim, ssdsim_measurement *f)
{
    ssdsim_op_stats a, r, w;
    ssdsim__measurement_of_run(sim, f, &a, &r, &w);
    f->n_runs = 1;
    if (!r.count)
        f->read_lat_mean_ns = NAN;
    if (!w.count)
        f->write_lat_mean_ns = NAN;
}

/* Read the whole trace once: its requests and span (the last request's time). */
static int survey(ssdsim_trace *t, uint64_t *requests, uint64_t *span_ns, ssdsim_error *err)
{
    ssdsim_trace_req r;
    int rc;
    while ((rc = ssdsim_trace_next(t, &r, err)) == 1) {
    }
    if (rc < 0)
        return rc;
    ssdsim_trace_stats st;
    ssdsim_trace_get_stats(t, &st);
    *requests = st.requests;
    *span_ns = st.last_time_ns;
    return ssdsim_trace_rewind(t, err);
}

/* Replay the trace on every volume at once (a JBOD's devices: one node each), reader k on
 * volume k, each `depth` requests outstanding (0: as recorded). */
static int replay(ssdsim *sim, ssdsim_trace **t, uint32_t nv, const ssdsim_apps_opts *o,
                  uint32_t depth, uint64_t span_ns, const ssdsim_run_opts *ro)
{
    struct loop *l = calloc(nv, sizeof *l);
    ssdsim_source *src = calloc(nv, sizeof *src);
    ssdsim_replay_opts *rp = calloc(nv, sizeof *rp);
    const ssdsim_replay_opts **rpp = calloc(nv, sizeof *rpp);
    int rc = l && src && rp && rpp ? 0 : SSDSIM_ENOMEM;
    for (uint32_t k = 0; k < nv && rc == 0; k++) {
        ssdsim_error err;
        memset(&err, 0, sizeof err);
        l[k] = (struct loop){.t = t[k], .passes = depth ? (o->passes ? o->passes : 1) : 1,
                             .span_ns = span_ns + 1};
        src[k] = (ssdsim_source){.next = loop_next, .userdata = &l[k]};
        ssdsim_replay_opts_init(&rp[k], 0);
        rp[k].iodepth = depth;
        rp[k].time_scale = o->time_scale;
        rp[k].wrap = o->wrap;
        rp[k].label = o->trace_path;
        rp[k].volume = k;
        rpp[k] = &rp[k];
        rc = ssdsim_trace_rewind(t[k], &err);
    }
    if (rc == 0)
        rc = ssdsim_run_sources(sim, src, rpp, nv, ro);
    else if (rc == SSDSIM_ENOMEM)
        ssdsim__set_errmsg(sim, "out of memory");
    free(l);
    free(src);
    free(rp);
    free(rpp);
    return rc;
}

int ssdsim_apps_run(const ssdsim_model *model, const ssdsim_apps_opts *opts, ssdsim_error *err)
{
    ssdsim_apps_opts o;
    char why[160] = "";
    if (!model || !opts)
        return ssdsim__error_set(err, SSDSIM_EINVAL, NULL, NULL,
                                 "ssdsim_apps_run: NULL model or options");
    if (ssdsim__apps_opts_read(&o, opts, why, sizeof why))
        return ssdsim__error_set(err, SSDSIM_EINVAL, NULL, NULL, "%s", why);
    if (!o.trace_path)
        return ssdsim__error_set(err, SSDSIM_EINVAL, NULL, NULL,
                                 "ssdsim_apps_opts.trace_path: expected a trace file");
    if (o.intervals > 10000)
        return ssdsim__error_set(err, SSDSIM_EINVAL, NULL, NULL,
                                 "ssdsim_apps_opts.intervals: %u is outside [1, 10000]",
                                 o.intervals);
    if (o.passes > 100000)
        return ssdsim__error_set(err, SSDSIM_EINVAL, NULL, NULL,
                                 "ssdsim_apps_opts.passes: %u is outside [1, 100000]", o.passes);
    if (!(o.time_scale >= 0 && o.time_scale <= 1e6))
        return ssdsim__error_set(err, SSDSIM_EINVAL, NULL, NULL,
                                 "ssdsim_apps_opts.time_scale: expected 0 (as recorded) or a "
                                 "factor up to 1e6");
    uint32_t intervals = o.intervals ? o.intervals : SSDSIM_APPS_INTERVALS;
    uint32_t nv = ssdsim_model_n_volumes(model); /* nodes: one per volume */
    if (nv > 4096)
        return ssdsim__error_set(err, SSDSIM_EINVAL, NULL, NULL,
                                 "ssdsim_apps_run: %u volumes; at most 4096 nodes", nv);
    ssdsim_trace **t = calloc(nv, sizeof *t);
    if (!t)
        return ssdsim__error_set(err, SSDSIM_ENOMEM, NULL, NULL, "out of memory");
    int rc = 0;
    for (uint32_t k = 0; k < nv && rc == 0; k++)
        rc = ssdsim_trace_open(&t[k], o.trace_path, o.trace, err);
    uint64_t requests = 0, span_ns = 0;
    if (rc || (rc = survey(t[0], &requests, &span_ns, err)) != 0)
        goto out;
    if (requests == 0) {
        rc = ssdsim__error_set(err, SSDSIM_EINVAL, NULL, NULL,
                               "%s: the trace holds no request to replay%s", o.trace_path,
                               o.trace && o.trace->n_devices ? " of the devices asked" : "");
        goto out;
    }
    ssdsim *sim = NULL;
    if ((rc = ssdsim_new(&sim, model, o.seed, err)) != 0)
        goto out;
    ssdsim_set_progress(sim, o.progress, o.progress_userdata);
    if ((rc = ssdsim_precondition_seq(sim)) != 0)
        ssdsim__error_set(err, rc, NULL, NULL, "the fill: %s", ssdsim_errmsg(sim));
    /* As recorded, when the trace has times: its span (replayed time_scale times as fast) in
     * `intervals` intervals, rounded up to the ns so that the last one holds its end. */
    double scale = o.time_scale > 0 ? o.time_scale : 1;
    uint64_t replay_span = (uint64_t)ceil((double)span_ns / scale);
    if (rc == 0 && replay_span > 0) {
        ssdsim_run_opts ro = SSDSIM_RUN_OPTS_INIT;
        ro.interval_ns = (replay_span + intervals - 1) / intervals;
        if ((rc = replay(sim, t, nv, &o, 0, span_ns, &ro)) != 0) {
            ssdsim__error_set(err, rc, NULL, NULL, "as recorded: %s", ssdsim_errmsg(sim));
        } else {
            ssdsim_measurement f;
            figures(sim, &f);
            size_t n = ssdsim_n_intervals(sim);
            for (size_t i = 0; i < n && rc == 0 && o.on_interval; i++) {
                ssdsim_interval iv;
                if (ssdsim_get_interval(sim, i, &iv) == 0)
                    rc = o.on_interval(i, &iv, o.userdata);
            }
            if (rc == 0 && o.on_point)
                rc = o.on_point(0, &f, o.userdata);
        }
    }
    for (size_t k = 0; k < SSDSIM_APPS_N_THREADS && rc == 0; k++) {
        ssdsim_run_opts ro = SSDSIM_RUN_OPTS_INIT;
        if ((rc = replay(sim, t, nv, &o, threads[k], span_ns, &ro)) != 0) {
            ssdsim__error_set(err, rc, NULL, NULL, "%u threads: %s", threads[k],
                              ssdsim_errmsg(sim));
            break;
        }
        ssdsim_measurement f;
        figures(sim, &f);
        if (o.on_point)
            rc = o.on_point(threads[k], &f, o.userdata);
    }
    ssdsim_free(sim);
out:
    for (uint32_t k = 0; k < nv; k++)
        ssdsim_trace_close(t[k]);
    free(t);
    return rc;
}
