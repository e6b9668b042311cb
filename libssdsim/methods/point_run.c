/* point_run.c: executing a point (ssdsim/point.h): a simulation with the point's seed, its
 * preconditioning, its measured run, and ssdsim_point_run doing all of it on copies of the
 * model and workload with the overrides applied. The steps are public too, so that a caller
 * (the ssdsim command) can install its progress callback, observer or consistency checks
 * between them and still run exactly what ssdsim_point_run runs. */
#include "methods/point.h"

#include <stdio.h>
#include <string.h>

#include "sim.h"
#include "ssdsim/measure.h"

int ssdsim_point_new(ssdsim **out, const ssdsim_model *model, const ssdsim_point_opts *opts,
                     ssdsim_error *err)
{
    if (out)
        *out = NULL;
    ssdsim_point_opts o;
    char why[256];
    if (!out || !model || !opts)
        return ssdsim__error_set(err, SSDSIM_EINVAL, NULL, NULL, "NULL argument");
    if (ssdsim__point_opts_read(&o, opts, why, sizeof why))
        return ssdsim__error_set(err, SSDSIM_EINVAL, NULL, NULL, "%s", why);
    uint64_t seed;
    if (ssdsim_point_get_seed(&o, &seed))
        return ssdsim__error_set(err, SSDSIM_EINVAL, NULL, NULL,
                                 "ssdsim_point_opts: a vary override without '='");
    return ssdsim_new(out, model, seed, err);
}

int ssdsim_point_precondition(ssdsim *sim, const ssdsim_workload *wl,
                              const ssdsim_point_opts *opts)
{
    if (!sim)
        return SSDSIM_EINVAL;
    ssdsim_point_opts o;
    char why[256];
    if (!opts)
        return ssdsim__fail(sim, SSDSIM_EINVAL, "no point options");
    if (ssdsim__point_opts_read(&o, opts, why, sizeof why))
        return ssdsim__fail(sim, SSDSIM_EINVAL, "%s", why);
    int rc;
    switch (o.precondition) {
    case SSDSIM_PRECONDITION_SEQ:
        return ssdsim_precondition_seq_fills(sim, o.precondition_fills ? o.precondition_fills : 1);
    case SSDSIM_PRECONDITION_FAST:
        if (!wl)
            return ssdsim__fail(sim, SSDSIM_EINVAL,
                                "fast preconditioning needs the point's workload (its random "
                                "writes are what it installs the steady state of)");
    {
        /* for progress, the steady state found stands for 90%, settling for the rest */
        struct ssdsim__span base = sim->progress_span;
        sim->progress_span = ssdsim__span_part(base, 0, 0.9);
        rc = ssdsim_precondition_fast(sim, wl, NULL);
        sim->progress_span = ssdsim__span_part(base, 0.9, 1);
        if (rc == 0)
            rc = ssdsim_settle_adaptive(sim, wl, SSDSIM_SETTLE_DRIVE_WRITES, NULL);
        if (rc == 0)
            rc = ssdsim_fill_card_cache(sim, wl); /* a RAID card's, as hours leave it */
        sim->progress_span = base;
        return rc;
    }
    default:
        return 0;
    }
}

int ssdsim_point_measure(ssdsim *sim, const ssdsim_workload *wl, const ssdsim_point_opts *opts)
{
    if (!sim)
        return SSDSIM_EINVAL;
    ssdsim_point_opts o;
    char why[256];
    if (!opts)
        return ssdsim__fail(sim, SSDSIM_EINVAL, "no point options");
    if (ssdsim__point_opts_read(&o, opts, why, sizeof why))
        return ssdsim__fail(sim, SSDSIM_EINVAL, "%s", why);
    return ssdsim_run(sim, wl, &o.run);
}

int ssdsim_point_run(ssdsim **out, const ssdsim_model *model, const ssdsim_workload *wl,
                     const ssdsim_point_opts *opts, ssdsim_error *err)
{
    ssdsim_model *m = NULL;
    ssdsim_workload *w = NULL;
    ssdsim *sim = NULL;
    int rc;
    if (out)
        *out = NULL;
    if (!out || !model || !wl || !opts)
        return ssdsim__error_set(err, SSDSIM_EINVAL, NULL, NULL, "NULL argument");
    if ((rc = ssdsim_model_copy(&m, model)) || (rc = ssdsim_workload_copy(&w, wl))) {
        ssdsim__error_set(err, rc, NULL, NULL, "out of memory");
        goto fail;
    }
    if ((rc = ssdsim_point_apply(m, w, opts, NULL, err)))
        goto fail;
    if ((rc = ssdsim_point_new(&sim, m, opts, err)))
        goto fail;
    if ((rc = ssdsim_point_precondition(sim, w, opts))) {
        ssdsim__error_set(err, rc, NULL, NULL, "precondition: %s", ssdsim_errmsg(sim));
        goto fail;
    }
    if ((rc = ssdsim_point_measure(sim, w, opts))) {
        ssdsim__error_set(err, rc, NULL, NULL, "%s", ssdsim_errmsg(sim));
        goto fail;
    }
    /* The simulation keeps what it needs of the model and the workload (ssdsim_new copies the
     * model; the results of a run do not refer to its workload). */
    ssdsim_workload_free(w);
    ssdsim_model_free(m);
    *out = sim;
    return 0;
fail:
    ssdsim_free(sim);
    ssdsim_workload_free(w);
    ssdsim_model_free(m);
    return rc;
}
