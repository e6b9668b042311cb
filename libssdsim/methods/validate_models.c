/* validate_models.c: what the WAF validation compares a point with (ssdsim/validate.h): the
 * analytic model of its policy or traffic (ssdsim/theory.h) at the device's spare factor and at
 * the effective one, the same policy's uniform-traffic model as a reference for hot/cold
 * traffic, the within-tolerance verdict, and the expected WAF the runs are sized by.
 *
 * The effective spare factor: the models have one write frontier and no free block; the
 * simulator also keeps its reserve of free blocks empty (its mean is measured) and every
 * further frontier is half empty on average, so U = free blocks + 0.5 x (frontiers - 1) blocks
 * hold no data beyond the model's and sf_eff = sf - U / N.
 */
#include "common.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "abi.h"
#include "methods/validate.h"
#include "ssdsim/theory.h"

/* The 1.0 layout of ssdsim_validate_result, written by the plain (unsized) functions. */
#define VALIDATE_RESULT_SIZE_1 SSDSIM__END(ssdsim_validate_result, verdict)

static const char *model_name(const ssdsim_validate_point *p)
{
    if (p->section == SSDSIM_VALIDATE_HOTCOLD)
        return p->hot_cold ? "Desnoyers hot/cold, optimal spare split, greedy pools" : NULL;
    if (!strcmp(p->policy, "greedy"))
        return "greedy mean field (Bux-Iliadis, Van Houdt)";
    if (!strcmp(p->policy, "fifo"))
        return "FIFO (Desnoyers; Xiang-Kurkoski)";
    if (!strcmp(p->policy, "random"))
        return "random: 1 / spare factor";
    if (!strcmp(p->policy, "d-choices"))
        return "d-choices mean field (Van Houdt)";
    if (!strcmp(p->policy, "windowed"))
        return "windowed greedy mean field (ssdsim's derivation)";
    return NULL;
}

/* The point's model at spare factor `sf`: 0, or a negative code (no model). */
static int model_waf(const ssdsim_validate_point *p, double sf, double *waf, double *hot_share)
{
    if (!model_name(p))
        return SSDSIM_ENOTFOUND;
    if (p->section == SSDSIM_VALIDATE_HOTCOLD)
        return ssdsim_theory_hotcold_waf(sf, p->hot_write_pct / 100.0, p->hot_space_pct / 100.0,
                                         p->pages_per_block, waf, hot_share);
    double param = p->param;
    if (!strcmp(p->policy, "windowed")) /* the model takes the window as a fraction w/N */
        param = SSDSIM__MIN(1.0, p->param / (double)(p->n_blocks / p->n_planes));
    return ssdsim_theory_waf(p->policy, p->pages_per_block, sf, param, waf);
}

/* The same policy's model under uniform traffic (cost-benefit has none: greedy stands in). */
static int reference_waf(const ssdsim_validate_point *p, double sf, double *waf, const char **name)
{
    const char *pol = !strcmp(p->policy, "cost-benefit") ? "greedy" : p->policy;
    *name = !strcmp(pol, "greedy") ? "uniform-traffic greedy"
            : !strcmp(pol, "fifo") ? "uniform-traffic FIFO"
                                   : "uniform-traffic model";
    return ssdsim_theory_waf(pol, p->pages_per_block, sf, 0.0, waf);
}

double ssdsim__validate_expected_waf(const ssdsim_validate_point *p)
{
    double w = NAN;
    const char *name;
    if (model_waf(p, p->spare_factor, &w, NULL) != 0 &&
        reference_waf(p, p->spare_factor, &w, &name) != 0)
        w = 1.0 / p->spare_factor;
    return isfinite(w) && w >= 1.0 ? w : 1.0 / p->spare_factor;
}

/* Write frontiers of a plane (host; hot when separating; GC's own when gc.separate). */
static uint32_t frontiers(const ssdsim_validate_point *p)
{
    return p->n_planes * (1u + (p->hot_cold ? 1u : 0u) + (p->gc_separate ? 1u : 0u));
}

static double diff_pct(double sim, double model)
{
    return isfinite(model) && model > 0.0 ? 100.0 * (sim / model - 1.0) : NAN;
}

void ssdsim__validate_compare(const ssdsim_validate_point *p, ssdsim_validate_result *r)
{
    const char *model = model_name(p), *reference = NULL;
    bool ok = r->status == 0;
    if (!ok) /* what a failed run measured is not a figure */
        r->spare_factor = r->op = r->waf = r->waf_stderr = r->drift_pct = r->free_blocks_mean = NAN;
    snprintf(r->model, sizeof r->model, "%s", model ? model : "");
    r->reference[0] = 0;
    r->waf_model = r->waf_model_eff = r->waf_reference = r->hot_spare_share = NAN;
    r->unused_blocks = ok ? r->free_blocks_mean + 0.5 * (frontiers(p) - 1.0) : NAN;
    r->spare_factor_eff = ok ? r->spare_factor - r->unused_blocks / p->n_blocks : NAN;
    if (ok && model && model_waf(p, r->spare_factor, &r->waf_model, &r->hot_spare_share) != 0)
        r->waf_model = NAN;
    if (ok && model &&
        (!(r->spare_factor_eff > 0.0) ||
         model_waf(p, r->spare_factor_eff, &r->waf_model_eff, NULL) != 0))
        r->waf_model_eff = NAN;
    if (ok && p->section == SSDSIM_VALIDATE_HOTCOLD) {
        if (reference_waf(p, r->spare_factor, &r->waf_reference, &reference) != 0)
            r->waf_reference = NAN;
        snprintf(r->reference, sizeof r->reference, "%s", reference);
    }
    r->diff_pct = ok ? diff_pct(r->waf, r->waf_model) : NAN;
    r->diff_eff_pct = ok ? diff_pct(r->waf, r->waf_model_eff) : NAN;
    r->diff_reference_pct = ok ? diff_pct(r->waf, r->waf_reference) : NAN;
    if (!ok)
        r->verdict = SSDSIM_VALIDATE_FAILED;
    else if (!isfinite(r->diff_pct))
        r->verdict = SSDSIM_VALIDATE_NO_MODEL;
    else
        r->verdict = fabs(r->diff_pct) <= SSDSIM_VALIDATE_TOLERANCE_PCT ? SSDSIM_VALIDATE_WITHIN
                                                                        : SSDSIM_VALIDATE_OUTSIDE;
}

int ssdsim_validate_point_compare_sized(const ssdsim_validate_point *point,
                                        ssdsim_validate_result *result, size_t size)
{
    ssdsim_validate_point p;
    ssdsim_validate_result full;
    if (!result || size < VALIDATE_RESULT_SIZE_1 || ssdsim__validate_point_read(&p, point, NULL, 0))
        return SSDSIM_EINVAL;
    /* The caller's struct may be older and smaller, or newer and larger, than this library's. */
    memset(&full, 0, sizeof full);
    memcpy(&full, result, SSDSIM__MIN(size, sizeof full));
    ssdsim__validate_compare(&p, &full);
    (void)ssdsim__result_give(result, size, &full, sizeof full, 0, true);
    return 0;
}

int(ssdsim_validate_point_compare)(const ssdsim_validate_point *point,
                                   ssdsim_validate_result *result)
{
    return ssdsim_validate_point_compare_sized(point, result, VALIDATE_RESULT_SIZE_1);
}
