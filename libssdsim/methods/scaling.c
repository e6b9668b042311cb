/* scaling.c: the scaling suite's method (ssdsim/suite.h, ssdsim_scaling_*): several drives in
 * one host, as the NVMe RAID platform reviews measure them (shared/reference/methodology.md,
 * section 3; section 1, item 6 for a JBOD): a system model of `count` devices is run with 1,
 * 2, ... count of them (system.count, its controllers as the model shares them), each array
 * written full sequentially first (a never-written SSD answers reads without its flash, which
 * would flatter them), then 4 KiB random reads and 128 KiB sequential reads (the Linux block
 * layer splits larger requests into 128 KiB) at queue depths 1 to 32: one job on a RAID volume,
 * one job per device on a JBOD (its clone k addresses device k). Ideal scaling is linear in the
 * devices until a shared link (a card's, the chipset's uplink) or the host saturates. With
 * steady_writes, each array then goes on to the review labs' heavy 4K points (section 1, item
 * 6): brought to the steady state of 4 KiB random writes at 16T/16Q (16 jobs per device on a
 * JBOD), those writes and random reads at the same load are measured on it.
 */
#include "common.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "abi.h"
#include "config/model.h"
#include "methods/methods.h"
#include "ssdsim/suite.h"

static const uint32_t qds[SSDSIM_SCALING_N_QD] = {1, 2, 4, 8, 16, 32};

uint32_t ssdsim_scaling_qd(size_t k)
{
    return k < SSDSIM_SCALING_N_QD ? qds[k] : 0;
}

/* The system's layout ("jbod", "raid0", ...) into buf; false when it has none. */
static bool layout_of(const ssdsim_model *m, char *buf, size_t len)
{
    return ssdsim_model_get_kind(m) == SSDSIM_MODEL_SYSTEM &&
           ssdsim_model_get_string(m, "system.layout", buf, len, NULL) == 0;
}

/* Controllers for `n` of the model's devices: the model's devices per controller kept (n up to
 * that many on one controller); 0 when n devices cannot be split so. */
static uint32_t controllers_for(const ssdsim_model *m, uint32_t n)
{
    int64_t count = 1, ctrl = 0;
    ssdsim_model_get_int(m, "system.count", &count, NULL);
    ssdsim_model_get_int(m, "system.controllers", &ctrl, NULL);
    uint32_t per = ctrl > 0 && count >= ctrl ? (uint32_t)(count / ctrl) : 1;
    if (n <= per)
        return 1;
    return n % per == 0 ? n / per : 0;
}

size_t ssdsim_scaling_counts(const ssdsim_model *system, uint32_t *counts, size_t max)
{
    char layout[16];
    if (!system || !layout_of(system, layout, sizeof layout))
        return 0;
    int64_t count = 1;
    ssdsim_model_get_int(system, "system.count", &count, NULL);
    uint32_t least = !strcmp(layout, "raid5") ? 3 : !strcmp(layout, "raid1") ? 2 : 1;
    size_t k = 0;
    for (uint32_t n = least; n <= (uint32_t)count; n++) {
        if (!controllers_for(system, n))
            continue;
        if (counts && k < max)
            counts[k] = n;
        k++;
    }
    return k;
}

/* The test's workload on an array of `n` devices at depth `qd` per job. */
static void test_wl(ssdsim_suite_wl *w, ssdsim_scaling_test t, bool jbod, uint32_t n, uint32_t qd)
{
    ssdsim_suite_wl_init(w, 0);
    w->rw = t == SSDSIM_SCALING_RANDREAD ? "randread" : "read";
    w->bs = t == SSDSIM_SCALING_RANDREAD ? "4k" : "128k";
    w->rwmixread = -1;
    w->threads = jbod ? n : 1;
    w->qd = qd;
}

/* The review's heavy 4K point of test `t` on an array of `n` devices: 16 jobs of 16 deep, 16
 * per device on a JBOD. */
static void steady_wl(ssdsim_suite_wl *w, ssdsim_scaling_test t, bool jbod, uint32_t n)
{
    ssdsim_suite_wl_init(w, 0);
    w->rw = t == SSDSIM_SCALING_RANDWRITE_STEADY ? "randwrite" : "randread";
    w->bs = "4k";
    w->rwmixread = -1;
    w->threads = SSDSIM_SCALING_STEADY_JOBS * (jbod ? n : 1);
    w->qd = ssdsim_scaling_qd(SSDSIM_SCALING_STEADY_K);
}

/* Measure suite workload `w` on `sim` (ssdsim_measure with `mo`), the point to on_point. */
static int measure_point(ssdsim *sim, const ssdsim_suite_wl *w, const ssdsim_measure_opts *mo,
                         uint32_t n, ssdsim_scaling_test t, size_t k,
                         const ssdsim_scaling_opts *o, ssdsim_error *err)
{
    ssdsim_workload *wl = NULL;
    int rc = ssdsim_suite_wl_workload(&wl, w, err);
    if (rc)
        return rc;
    ssdsim_measurement f;
    rc = ssdsim_measure(sim, wl, mo, &f);
    ssdsim_workload_free(wl);
    if (rc == 0 && o->on_point)
        rc = o->on_point(n, t, k, &f, o->userdata);
    return rc;
}

/* The heavy 4K points: the array at the steady state of 4 KiB random writes at 16T/16Q, then
 * those writes and random reads at that load, as the review's 16T/16Q points are measured
 * (windows of 20 blocks per plane of host writes at least, when they write). */
static int steady_points(ssdsim *sim, bool jbod, uint32_t n, const ssdsim_scaling_opts *o,
                         ssdsim_error *err)
{
    ssdsim_suite_wl w;
    steady_wl(&w, SSDSIM_SCALING_RANDWRITE_STEADY, jbod, n);
    ssdsim_workload *wl = NULL;
    int rc = ssdsim_suite_wl_workload(&wl, &w, err);
    if (rc)
        return rc;
    ssdsim_steady_method how = SSDSIM_STEADY_BY_NOTHING;
    rc = ssdsim_reach_steady(sim, wl, &o->steady, &how);
    ssdsim_workload_free(wl);
    if (rc)
        return rc;
    if (o->on_steady)
        o->on_steady(n, how, o->userdata);
    ssdsim_measure_opts mo = SSDSIM_MEASURE_OPTS_INIT;
    mo.window_ns = o->window_ns;
    mo.gc_cycles = SSDSIM__GC_CYCLES;
    rc = measure_point(sim, &w, &mo, n, SSDSIM_SCALING_RANDWRITE_STEADY, SSDSIM_SCALING_STEADY_K,
                       o, err);
    if (rc)
        return rc;
    steady_wl(&w, SSDSIM_SCALING_RANDREAD_STEADY, jbod, n);
    return measure_point(sim, &w, &mo, n, SSDSIM_SCALING_RANDREAD_STEADY,
                         SSDSIM_SCALING_STEADY_K, o, err);
}

/* One array: `n` of the model's devices, written full, every test at every depth. */
static int run_array(const ssdsim_model *model, bool jbod, uint32_t n, const ssdsim_scaling_opts *o,
                     ssdsim_error *err)
{
    ssdsim_model *m = NULL;
    ssdsim *sim = NULL;
    int rc = ssdsim_model_copy(&m, model);
    if (rc)
        return ssdsim__error_set(err, rc, NULL, NULL, "out of memory");
    char v[16];
    snprintf(v, sizeof v, "%" PRIu32, n);
    /* one controller takes any count: then the count, then its controllers */
    rc = ssdsim_model_set(m, "system.controllers", "1", err);
    if (!rc)
        rc = ssdsim_model_set(m, "system.count", v, err);
    if (!rc) {
        snprintf(v, sizeof v, "%" PRIu32, controllers_for(model, n));
        rc = ssdsim_model_set(m, "system.controllers", v, err);
    }
    m->reserve_warned = true; /* the system's own warning (ssdsim_scaling_run) stands for it */
    if (!rc)
        rc = ssdsim_new(&sim, m, o->seed, err);
    ssdsim_model_free(m);
    if (rc)
        return rc;
    ssdsim_set_progress(sim, o->progress, o->progress_userdata);
    rc = ssdsim_precondition_seq(sim);
    ssdsim_measure_opts mo = SSDSIM_MEASURE_OPTS_INIT;
    mo.window_ns = o->window_ns;
    for (int t = 0; t < SSDSIM_SCALING_N_TESTS && rc == 0; t++) {
        for (size_t k = 0; k < SSDSIM_SCALING_N_QD && rc == 0; k++) {
            ssdsim_suite_wl w;
            test_wl(&w, (ssdsim_scaling_test)t, jbod, n, qds[k]);
            rc = measure_point(sim, &w, &mo, n, (ssdsim_scaling_test)t, k, o, err);
        }
    }
    if (rc == 0 && o->steady_writes)
        rc = steady_points(sim, jbod, n, o, err);
    if (rc < 0) /* the simulation's own failure (a callback's code is passed on as it is) */
        ssdsim__error_set(err, rc, NULL, NULL, "%u devices: %s", n, ssdsim_errmsg(sim));
    ssdsim_free(sim);
    return rc;
}

int ssdsim_scaling_run(const ssdsim_model *system, const ssdsim_scaling_opts *opts,
                       ssdsim_error *err)
{
    ssdsim_scaling_opts o;
    char why[160] = "";
    if (!system || !opts)
        return ssdsim__error_set(err, SSDSIM_EINVAL, NULL, NULL,
                                 "ssdsim_scaling_run: NULL model or options");
    if (ssdsim__scaling_opts_read(&o, opts, why, sizeof why))
        return ssdsim__error_set(err, SSDSIM_EINVAL, NULL, NULL, "%s", why);
    char layout[16];
    if (!layout_of(system, layout, sizeof layout))
        return ssdsim__error_set(err, SSDSIM_EINVAL, NULL, NULL,
                                 "ssdsim_scaling_run: the model is a single device; the suite "
                                 "needs a system model of several (system.member, count and "
                                 "layout), e.g. models/samsung-960pro-x4-raid0-vroc.json");
    if (o.window_ns < 1000)
        return ssdsim__error_set(err, SSDSIM_EINVAL, NULL, NULL,
                                 "ssdsim_scaling_opts.window_ns: expected at least 1 us");
    bool jbod = !strcmp(layout, "jbod");
    ssdsim_model_warn((ssdsim_model *)system); /* once (a memo), not for every copy */
    uint32_t counts[64];
    size_t n = ssdsim_scaling_counts(system, counts, 64);
    int rc = 0;
    for (size_t i = 0; i < n && rc == 0; i++)
        rc = run_array(system, jbod, counts[i], &o, err);
    return rc;
}
