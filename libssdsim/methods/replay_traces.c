/* replay_traces.c: several block traces replayed at once (ssdsim/trace.h,
 * ssdsim_replay_traces), as `ssdsim run --trace A --trace B` does: trace k is reported job k (a
 * flow named after its file) on NVMe queue pair (queue + k) modulo the model's nvme.queues
 * and volume (volume + k) modulo the model's volumes (a JBOD's devices),
 * flushes and FUA writes replayed. Every file is opened before the run starts, so a trace that
 * cannot be read is said before any request is issued. */
#include "common.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "abi.h"
#include "sim.h"
#include "ssdsim/trace.h"

/* Most traces at once: as many sources as ssdsim_run_sources takes. */
#define MAX_TRACES 4096

static const size_t opts_sizes[] = {0, sizeof(ssdsim_replay_traces_opts)};

int ssdsim_replay_traces_opts_init(ssdsim_replay_traces_opts *opts, unsigned int version)
{
    _Static_assert(SSDSIM__ARRAY_LEN(opts_sizes) == SSDSIM_REPLAY_TRACES_OPTS_VERSION + 1,
                   "a size per version");
    if (!opts || version > SSDSIM_REPLAY_TRACES_OPTS_VERSION)
        return SSDSIM_EINVAL;
    unsigned int v = version ? version : SSDSIM_REPLAY_TRACES_OPTS_VERSION;
    /* the current layout whole, its padding too (version 0 is this library's) */
    memset(opts, 0, v == SSDSIM_REPLAY_TRACES_OPTS_VERSION ? sizeof *opts : opts_sizes[v]);
    opts->version = v;
    return 0;
}

/* The caller's options in the current layouts: `to` (flushes on), `base` and `run` (NULL
 * when not given). 0, or SSDSIM_EINVAL with the reason in `err`. */
static int read_opts(const ssdsim_replay_traces_opts *opts, ssdsim_trace_opts *to,
                     ssdsim_replay_opts *base, ssdsim_run_opts *run, bool *has_run,
                     ssdsim_error *err)
{
    ssdsim_replay_traces_opts o;
    char why[160] = "";
    int rc = ssdsim__opts_read(&o, sizeof o, opts, opts_sizes, SSDSIM_REPLAY_TRACES_OPTS_VERSION,
                               "ssdsim_replay_traces_opts", why, sizeof why);
    if (!rc)
        rc = ssdsim__trace_opts_read(to, o.trace, why, sizeof why);
    if (!rc)
        rc = ssdsim__replay_opts_read(base, o.replay, why, sizeof why);
    if (!rc && o.run)
        rc = ssdsim__run_opts_read(run, o.run, why, sizeof why);
    if (rc)
        return ssdsim__error_set(err, SSDSIM_EINVAL, NULL, NULL, "ssdsim_replay_traces: %s", why);
    to->flushes = true;
    *has_run = o.run != NULL;
    return 0;
}

int ssdsim_replay_traces(ssdsim *sim, const char *const *paths, size_t n,
                         const ssdsim_replay_traces_opts *opts, const char **failed,
                         ssdsim_error *err)
{
    if (failed)
        *failed = NULL;
    if (!sim || !paths || n == 0 || n > MAX_TRACES)
        return ssdsim__error_set(err, SSDSIM_EINVAL, NULL, NULL,
                                 "ssdsim_replay_traces: expected a simulation and 1 to %d paths",
                                 MAX_TRACES);
    ssdsim_trace_opts to;
    ssdsim_replay_opts base;
    ssdsim_run_opts run;
    bool has_run = false;
    int rc = read_opts(opts, &to, &base, &run, &has_run, err);
    if (rc)
        return rc;
    uint32_t nq = sim->sys.dev_model->nvme.queues;
    ssdsim_trace **t = calloc(n, sizeof *t);
    ssdsim_source *src = calloc(n, sizeof *src);
    ssdsim_replay_opts *rep = calloc(n, sizeof *rep);
    const ssdsim_replay_opts **rp = calloc(n, sizeof *rp);
    if (!t || !src || !rep || !rp)
        rc = ssdsim__error_set(err, SSDSIM_ENOMEM, NULL, NULL, "out of memory");
    for (size_t k = 0; k < n && !rc; k++) {
        if (!paths[k]) {
            rc = ssdsim__error_set(err, SSDSIM_EINVAL, NULL, NULL,
                                   "ssdsim_replay_traces: path %zu is NULL", k);
        } else if ((rc = ssdsim_trace_open(&t[k], paths[k], &to, err)) != 0) {
            if (failed)
                *failed = paths[k];
        } else {
            ssdsim_trace_as_source(t[k], &src[k]);
            rep[k] = base;
            rep[k].label = paths[k];
            rep[k].queue = (uint32_t)((base.queue + k) % (nq ? nq : 1));
            if (base.volume < sim->sys.n_volumes) /* else the run refuses it, naming it */
                rep[k].volume = (uint32_t)((base.volume + k) % sim->sys.n_volumes);
            rp[k] = &rep[k];
        }
    }
    if (!rc)
        rc = ssdsim_run_sources(sim, src, rp, n, has_run ? &run : NULL);
    for (size_t k = 0; t && k < n; k++)
        ssdsim_trace_close(t[k]);
    free(t);
    free(src);
    free(rep);
    free(rp);
    return rc;
}
