/* endurance.c: the endurance suite's points (ssdsim/suite.h, ssdsim_endurance_*; issue 16,
 * item 7): errors and latency against wear. Each point is a fresh simulation of the model with
 * bit errors: one sequential fill by functional fast-forward, every block worn to the point's
 * P/E cycles at once (ssdsim_wear: even wear, the writes not simulated), the data aged, then
 * the workload run and measured. The points are fractions of the rated cycles; the acceleration
 * check's points are quarters of its top; the projection's WAF is the timed drive's, else the
 * points' mean, else 1 (eol.c, eol_accel.c do the projection and the check).
 */
#include "common.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "abi.h"
#include "methods/methods.h"
#include "ssdsim/suite.h"

static const size_t endurance_opts_sizes[] = {0, sizeof(ssdsim_endurance_opts)};

size_t ssdsim_endurance_points(bool quick, const double **fractions)
{
    static const double quick_f[] = {0, 1, 2};
    static const double full_f[] = {0, 0.25, 0.5, 0.75, 1, 1.25, 1.5, 1.75, 2};
    if (fractions)
        *fractions = quick ? quick_f : full_f;
    return quick ? SSDSIM__ARRAY_LEN(quick_f) : SSDSIM__ARRAY_LEN(full_f);
}

int ssdsim_endurance_model(ssdsim_model **out, const ssdsim_model *model, bool *defaults,
                           ssdsim_error *err)
{
    if (out)
        *out = NULL;
    if (defaults)
        *defaults = false;
    if (!out || !model)
        return ssdsim__error_set(err, SSDSIM_EINVAL, NULL, NULL,
                                 "ssdsim_endurance_model: NULL argument");
    int rc = ssdsim__methods_need_ssd(model, err,
                                      "the endurance points wear the flash of one solid-state "
                                      "device",
                                      " (run them on its member's model)");
    if (rc)
        return rc;
    ssdsim_model *m = NULL;
    rc = ssdsim_model_copy(&m, model);
    if (rc)
        return ssdsim__error_set(err, rc, NULL, NULL, "out of memory");
    char cur[32];
    if (ssdsim_model_get_string(m, "reliability.rber_model", cur, sizeof cur, NULL) ||
        !strcmp(cur, "off")) {
        rc = ssdsim_model_set(m, "reliability.rber_model", "\"cell\"", err);
        if (rc) {
            ssdsim_model_free(m);
            return rc;
        }
        if (defaults)
            *defaults = true;
    }
    *out = m;
    return 0;
}

int ssdsim_endurance_point_run_sized(const ssdsim_model *model, uint32_t pe,
                                     const ssdsim_workload *wl, const ssdsim_endurance_opts *opts,
                                     ssdsim_endurance_point *out, size_t size, ssdsim_error *err)
{
    ssdsim_endurance_opts o;
    char why[160] = "";
    if (!model || !wl || !out || size == 0)
        return ssdsim__error_set(err, SSDSIM_EINVAL, NULL, NULL,
                                 "ssdsim_endurance_point_run: NULL model, workload or result");
    if (ssdsim__opts_read(&o, sizeof o, opts, endurance_opts_sizes, SSDSIM_ENDURANCE_OPTS_VERSION,
                          "ssdsim_endurance_opts", why, sizeof why))
        return ssdsim__error_set(err, SSDSIM_EINVAL, NULL, NULL, "%s", why);
    if (!(o.age_days >= 0) || !isfinite(o.age_days))
        return ssdsim__error_set(err, SSDSIM_EINVAL, NULL, NULL,
                                 "ssdsim_endurance_opts.age_days: expected 0 or more, got %g",
                                 o.age_days);
    ssdsim *sim = NULL;
    int rc = ssdsim_new(&sim, model, o.seed, err);
    if (rc)
        return rc;
    if (o.progress)
        ssdsim_set_progress(sim, o.progress, o.progress_userdata);
    rc = ssdsim_precondition_seq(sim);
    if (!rc && pe)
        rc = ssdsim_wear(sim, pe);
    if (!rc && o.age_days > 0)
        rc = ssdsim_age(sim, o.age_days * 86400);
    if (!rc)
        rc = ssdsim_run(sim, wl, NULL);
    ssdsim_endurance_point p;
    memset(&p, 0, sizeof p);
    p.pe = pe;
    if (rc) {
        ssdsim__error_set(err, rc, NULL, NULL, "at %" PRIu32 " P/E cycles: %s", pe,
                          ssdsim_errmsg(sim));
    } else {
        ssdsim_get_reliability(sim, &p.rel);
        ssdsim_get_op_stats(sim, SSDSIM_OP_READ, &p.read);
        ssdsim_get_op_stats(sim, SSDSIM_OP_ALL, &p.all);
        ssdsim_get_device_stats(sim, &p.device);
    }
    ssdsim_free(sim);
    return ssdsim__result_give(out, size, &p, sizeof p, rc, false);
}

int ssdsim_endurance_accel_points(uint32_t top, uint32_t pe[4])
{
    if (!pe || top < 4)
        return SSDSIM_EINVAL;
    pe[0] = top / 4;
    pe[1] = top / 2;
    pe[2] = 3 * (top / 4) > top / 2 ? 3 * (top / 4) : top / 2 + 1;
    pe[3] = top > pe[2] ? top : pe[2] + 1;
    return 0;
}

double ssdsim_endurance_waf(const ssdsim_endurance_point *points, size_t n, double timed_waf,
                            ssdsim_endurance_waf_from *from)
{
    ssdsim_endurance_waf_from f = SSDSIM_ENDURANCE_WAF_ASSUMED;
    double waf = 1;
    if (timed_waf > 0) {
        f = SSDSIM_ENDURANCE_WAF_TIMED;
        waf = timed_waf;
    } else {
        double sum = 0;
        size_t k = 0;
        /* the flash worn per host byte, which the projection divides by: the wear factor
         * (the WAF but for padded pages, SLC-mode pages, zones and units larger than writes) */
        for (size_t i = 0; points && i < n; i++) {
            double w = points[i].device.wear_factor > 0 ? points[i].device.wear_factor
                                                        : points[i].device.waf;
            if (w > 0) {
                sum += w;
                k++;
            }
        }
        if (k) {
            f = SSDSIM_ENDURANCE_WAF_POINTS;
            waf = sum / (double)k;
        }
    }
    if (from)
        *from = f;
    return waf;
}
