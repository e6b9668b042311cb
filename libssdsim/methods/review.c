/* review.c: what the review labs' enterprise synthetic workload analysis measures, as `ssdsim
 * suite review` runs it (ssdsim/suite.h, doc/suites.md): its four profiles (the workload of each
 * preconditioning curve and of its matrix), the thread/queue matrix in the labs' order, and the
 * drive of a formatting mode (the model with more over-provisioning, and the scaled copy its
 * curves run on).
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

#define FILE_SERVER_MIX "512/10:1k/5:2k/5:4k/60:8k/2:16k/4:32k/4:64k/10"
#define WEB_SERVER_MIX "512/22:1k/15:2k/8:4k/23:8k/15:16k/2:32k/6:64k/7:128k/1:512k/1"
#define WL(rw, bs, bssplit, mix)                                                                   \
    {                                                                                              \
        SSDSIM_SUITE_WL_VERSION, (rw), (bs), (bssplit), (mix), 16, 16, 0, 0, false                 \
    }

static const struct profile {
    const char *id, *title;
    ssdsim_suite_wl pre, meas;
} profiles[SSDSIM_REVIEW_N_PROFILES] = {
    {"4k-random-write", "4K random write", WL("randwrite", "4k", NULL, -1),
     WL("randwrite", "4k", NULL, -1)},
    {"8k-70-30", "8K 70/30", WL("randrw", "8k", NULL, 70), WL("randrw", "8k", NULL, 70)},
    {"file-server", "File server", WL("randrw", NULL, FILE_SERVER_MIX, 80),
     WL("randrw", NULL, FILE_SERVER_MIX, 80)},
    /* the web server only reads: its curve writes its size mix */
    {"web-server", "Web server", WL("randwrite", NULL, WEB_SERVER_MIX, -1),
     WL("randread", NULL, WEB_SERVER_MIX, -1)},
};

static const uint32_t matrix_tq[4] = {2, 4, 8, 16};

int ssdsim_review_profile(size_t i, const char **id, const char **title,
                          ssdsim_suite_wl *precondition, ssdsim_suite_wl *measure)
{
    if (i >= SSDSIM_REVIEW_N_PROFILES)
        return SSDSIM_EINVAL;
    if (id)
        *id = profiles[i].id;
    if (title)
        *title = profiles[i].title;
    if (precondition)
        *precondition = profiles[i].pre;
    if (measure)
        *measure = profiles[i].meas;
    return 0;
}

int ssdsim_review_point(size_t i, uint32_t *threads, uint32_t *qd)
{
    if (i >= SSDSIM_REVIEW_N_POINTS || !threads || !qd)
        return SSDSIM_EINVAL;
    *threads = matrix_tq[i / 4];
    *qd = matrix_tq[i % 4];
    return 0;
}

int ssdsim_review_matrix(ssdsim *sim, const ssdsim_suite_wl *measure, uint64_t window_ns,
                         ssdsim_measurement *out, ssdsim_review_point_fn on_point, void *userdata)
{
    SSDSIM__CHECK_HANDLE(sim, SSDSIM__MAGIC_SIM, "ssdsim");
    if (!sim || !measure || !out)
        return ssdsim__fail(sim, SSDSIM_EINVAL,
                            "ssdsim_review_matrix: sim, measure and out are "
                            "needed");
    int rc = 0;
    for (size_t i = 0; i < SSDSIM_REVIEW_N_POINTS && rc == 0; i++) {
        ssdsim_suite_wl w = *measure;
        ssdsim_review_point(i, &w.threads, &w.qd);
        ssdsim_workload *wl = NULL;
        ssdsim_error err;
        if ((rc = ssdsim_suite_wl_workload(&wl, &w, &err)) != 0)
            return ssdsim__fail(sim, rc, "%s", err.message);
        ssdsim_measure_opts mo = SSDSIM_MEASURE_OPTS_INIT;
        mo.window_ns = window_ns;
        mo.until_steady = true;
        mo.gc_cycles = SSDSIM__GC_CYCLES;
        rc = ssdsim_measure(sim, wl, &mo, &out[i]);
        ssdsim_workload_free(wl);
        if (rc == 0 && on_point)
            rc = on_point(i, &out[i], userdata);
    }
    return rc;
}

struct ssdsim_review_drive {
    ssdsim_model *model;
    ssdsim *full, *copy;
};

void ssdsim_review_drive_free(ssdsim_review_drive *d)
{
    if (!d)
        return;
    ssdsim_free(d->full);
    ssdsim_free(d->copy);
    ssdsim_model_free(d->model);
    free(d);
}

/* A simulation of `m` with the drive's seed and progress callback. */
static int sim_new(ssdsim **out, const ssdsim_model *m, const ssdsim_review_drive_opts *o,
                   ssdsim_error *err)
{
    int rc = ssdsim_new(out, m, o->seed, err);
    if (rc == 0)
        ssdsim_set_progress(*out, o->progress, o->progress_userdata);
    return rc;
}

static int drive_new(ssdsim_review_drive *d, const ssdsim_model *model,
                     const ssdsim_review_drive_opts *o, ssdsim_error *err)
{
    int rc = ssdsim_model_copy(&d->model, model);
    if (rc)
        return ssdsim__error_set(err, rc, "ssdsim_review_drive_new", "", "out of memory");
    if (o->add_op > 0) {
        /* The op the drive reports, plus add_op, to 6 significant digits. */
        ssdsim *probe = NULL;
        if ((rc = sim_new(&probe, model, o, err)) != 0)
            return rc;
        ssdsim_device_stats dev;
        ssdsim_get_device_stats(probe, &dev);
        ssdsim_free(probe);
        char buf[32];
        snprintf(buf, sizeof buf, "%.6g", dev.op + o->add_op);
        if ((rc = ssdsim_model_set_double(d->model, "ftl.op", strtod(buf, NULL), err)) != 0)
            return rc;
    }
    if ((rc = sim_new(&d->full, d->model, o, err)) != 0)
        return rc;
    uint32_t bpp = o->curve_full
                       ? 0
                       : ssdsim_suite_curve_blocks_per_plane(d->model, o->curve_blocks_per_plane);
    if (bpp) {
        ssdsim_model *cm = NULL;
        rc = ssdsim_model_scaled_copy(&cm, d->model, bpp, err);
        if (rc == 0)
            rc = sim_new(&d->copy, cm, o, err);
        ssdsim_model_free(cm);
    }
    return rc;
}

int ssdsim_review_drive_new(ssdsim_review_drive **out, const ssdsim_model *model,
                            const ssdsim_review_drive_opts *opts, ssdsim_error *err)
{
    if (out)
        *out = NULL;
    ssdsim_review_drive_opts o;
    char why[256];
    if (!out || !model)
        return ssdsim__error_set(err, SSDSIM_EINVAL, "ssdsim_review_drive_new", "",
                                 "out and model are needed");
    if (ssdsim__review_drive_opts_read(&o, opts, why, sizeof why))
        return ssdsim__error_set(err, SSDSIM_EINVAL, "ssdsim_review_drive_opts", "version", "%s",
                                 why);
    if (!(o.add_op >= 0) || !isfinite(o.add_op))
        return ssdsim__error_set(err, SSDSIM_EINVAL, "ssdsim_review_drive_opts", "add_op",
                                 "expected a finite number >= 0, got %g", o.add_op);
    ssdsim_review_drive *d = calloc(1, sizeof *d);
    if (!d)
        return ssdsim__error_set(err, SSDSIM_ENOMEM, "ssdsim_review_drive_new", "",
                                 "out of memory");
    int rc = drive_new(d, model, &o, err);
    if (rc) {
        ssdsim_review_drive_free(d);
        return rc;
    }
    *out = d;
    return 0;
}

const ssdsim_model *ssdsim_review_drive_model(const ssdsim_review_drive *d)
{
    return d ? d->model : NULL;
}

ssdsim *ssdsim_review_drive_sim(const ssdsim_review_drive *d)
{
    return d ? d->full : NULL;
}

ssdsim *ssdsim_review_drive_copy(const ssdsim_review_drive *d)
{
    return d ? d->copy : NULL;
}
