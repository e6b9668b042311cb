/* eol.c: the end-of-life projection (ssdsim/suite.h, ssdsim_eol_project; issue 16, item 7):
 * how many host bytes a drive takes, at a workload's measured WAF, until
 *
 *   - the rated P/E cycles: rated x physical bytes / WAF;
 *   - its first unrecoverable read at a target UBER: the P/E count at which the model's own
 *     error formula (rel/rber.c) and decoding chain (rel/ecc.c: hard decision, retry_max
 *     retries each multiplying the RBER by retry_factor, then soft decoding) lose one codeword
 *     per 1/UBER data bits. The failure probability of a codeword is averaged over the blocks'
 *     log-normal variation (a normal quadrature over ±8 sigma), with the data `retention_days`
 *     old and no read disturb; bisection on the P/E count (monotone in it);
 *   - read-only: every good block cycled evenly, each erase failing it with the model's
 *     p(n) = grown_prob_rated (n / rated)^grown_exponent (rel/badblock.c), the expected good
 *     blocks S(n) (B - F) fall below the FTL's need; host bytes are the erases the surviving
 *     blocks took by then, sum over i <= n of S(i-1) (B - F), times a block's bytes / WAF.
 *
 * The figures are expectations from the model's formulas, not draws; the endurance suite
 * (sim/suite_endurance.c) supplies the WAF it measured and prints both beside its points.
 */
#include "common.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "abi.h"
#include "rel/fault.h"
#include "rel/rel.h"
#include "sim.h"
#include "ssdsim/suite.h"

#define DAYS_PER_YEAR 365.25
#define QUAD_Z 8.0
#define QUAD_N 801

static const size_t eol_opts_sizes[] = {0, sizeof(ssdsim_eol_opts)};

int ssdsim_eol_opts_init(ssdsim_eol_opts *o, unsigned int version)
{
    _Static_assert(SSDSIM__ARRAY_LEN(eol_opts_sizes) == SSDSIM_EOL_OPTS_VERSION + 1,
                   "a size per version");
    if (!o || version > SSDSIM_EOL_OPTS_VERSION)
        return SSDSIM_EINVAL;
    unsigned int v = version ? version : SSDSIM_EOL_OPTS_VERSION;
    /* the current layout whole, its padding too (version 0 is this library's) */
    memset(o, 0, v == SSDSIM_EOL_OPTS_VERSION ? sizeof *o : eol_opts_sizes[v]);
    o->version = v;
    return 0;
}

/* The one device's error state, or NULL. */
static const struct ssdsim__dev *one_dev(const ssdsim *sim)
{
    if (!sim || sim->sys.n_devs != 1 || !sim->sys.devs[0].ssd || !sim->sys.devs[0].hw.rel)
        return NULL;
    return &sim->sys.devs[0];
}

/* Probability that a codeword read at mean-block RBER p fails every decoding step. */
static double cw_fail(const struct ssdsim__errmodel *e, uint32_t bits, double p)
{
    double f = pow(e->retry_factor, e->retry_max);
    uint32_t limit = e->soft_reads ? e->soft_t : e->t;
    double s = e->variation;
    if (!(s > 0)) {
        double pv = p < 0.5 ? p : 0.5;
        return ssdsim__rel_binom_tail(limit, bits, pv * f);
    }
    double sum = 0, wsum = 0;
    for (int i = 0; i < QUAD_N; i++) {
        double z = -QUAD_Z + 2 * QUAD_Z * i / (QUAD_N - 1);
        double w = exp(-z * z / 2);
        double pv = p * exp(s * z - s * s / 2);
        if (pv > 0.5)
            pv = 0.5;
        sum += w * ssdsim__rel_binom_tail(limit, bits, pv * f);
        wsum += w;
    }
    return sum / wsum;
}

double ssdsim_eol_uber(const ssdsim *sim, double pe, double days)
{
    const struct ssdsim__dev *d = one_dev(sim);
    if (!d || !(pe >= 0) || !(days >= 0))
        return NAN;
    const struct ssdsim__rel *r = d->hw.rel;
    double p = ssdsim__rel_formula(r->p, pe, days, 0);
    return cw_fail(r->p, r->bits, p) / r->bits;
}

static int bad(ssdsim_error *err, const char *key, const char *what, double v)
{
    return ssdsim__error_set(err, SSDSIM_EINVAL, NULL, NULL, "ssdsim_eol_opts.%s: expected %s, got %g",
                             key, what, v);
}

int ssdsim_eol_project_sized(const ssdsim *sim, const ssdsim_eol_opts *opts, ssdsim_eol *out,
                             size_t size, ssdsim_error *err)
{
    SSDSIM__CHECK_HANDLE(sim, SSDSIM__MAGIC_SIM, "ssdsim");
    ssdsim_eol_opts o;
    char why[160] = "";
    if (!sim || !opts || !out)
        return ssdsim__error_set(err, SSDSIM_EINVAL, NULL, NULL,
                                 "ssdsim_eol_project: NULL simulation, options or result");
    if (ssdsim__opts_read(&o, sizeof o, opts, eol_opts_sizes, SSDSIM_EOL_OPTS_VERSION,
                          "ssdsim_eol_opts", why, sizeof why))
        return ssdsim__error_set(err, SSDSIM_EINVAL, NULL, NULL, "%s", why);
    if (!(o.waf > 0) || !isfinite(o.waf))
        return bad(err, "waf", "the workload's measured WAF, above 0", o.waf);
    if (o.target_uber == 0)
        o.target_uber = 1e-15;
    if (!(o.target_uber > 0) || !(o.target_uber <= 1e-3))
        return bad(err, "target_uber", "an UBER above 0 and at most 1e-3 (0: 1e-15)",
                   o.target_uber);
    if (o.life_years == 0)
        o.life_years = 5;
    if (!(o.life_years > 0) || !(o.life_years <= 100))
        return bad(err, "life_years", "years above 0 and at most 100 (0: 5)", o.life_years);
    if (!(o.retention_days >= 0) || !(o.retention_days <= 36500))
        return bad(err, "retention_days", "days from 0 to 36500", o.retention_days);
    if (!(o.max_pe >= 0) || !(o.max_pe <= 1e7))
        return bad(err, "max_pe", "P/E cycles from 0 to 1e7 (0: 100 x rated)", o.max_pe);
    const struct ssdsim__dev *d = one_dev(sim);
    if (!d)
        return ssdsim__error_set(err, SSDSIM_EINVAL, NULL, "reliability.rber_model",
                                 "the projection needs one flash device with bit errors "
                                 "modelled (not \"off\", not a system)");
    const struct ssdsim__rel *r = d->hw.rel;
    ssdsim_device_stats ds;
    ssdsim_get_device_stats(sim, &ds);
    double rated = sim->model->flash.rated_pe_cycles;
    if (o.max_pe == 0)
        o.max_pe = rated > 0 ? 100 * rated : 1e6;

    ssdsim_eol e;
    memset(&e, 0, sizeof e);
    e.waf = o.waf;
    e.target_uber = o.target_uber;
    e.life_years = o.life_years;
    e.retention_days = o.retention_days;
    e.physical_bytes = ds.physical_bytes;
    e.logical_bytes = ds.logical_bytes;
    double per_dwpd = (double)ds.logical_bytes * DAYS_PER_YEAR * o.life_years;
    double phys = (double)ds.physical_bytes;
    e.rated_pe = rated;
    e.rated_host_bytes = rated * phys / o.waf;
    e.rated_dwpd = e.rated_host_bytes / per_dwpd;

    /* UBER: bisection on the P/E count */
    double days = o.retention_days;
    e.uber_at_rated = ssdsim_eol_uber(sim, rated, days);
    if (ssdsim_eol_uber(sim, 0, days) >= o.target_uber) {
        e.uber_reached = true;
        e.uber_pe = 0;
    } else if (ssdsim_eol_uber(sim, o.max_pe, days) >= o.target_uber) {
        double lo = 0, hi = o.max_pe;
        for (int i = 0; i < 60 && hi - lo > 1e-6 * (1 + hi); i++) {
            double mid = (lo + hi) / 2;
            if (ssdsim_eol_uber(sim, mid, days) >= o.target_uber)
                hi = mid;
            else
                lo = mid;
        }
        e.uber_reached = true;
        e.uber_pe = hi;
    }
    if (e.uber_reached) {
        e.uber_host_bytes = e.uber_pe * phys / o.waf;
        e.uber_dwpd = e.uber_host_bytes / per_dwpd;
        e.uber_rber = ssdsim__rel_formula(r->p, e.uber_pe, days, 0);
    }

    /* read-only: expected grown bad blocks against the FTL's need */
    const struct ssdsim__fault *f = d->env.fault;
    if (f && f->cfg->grown_prob_rated > 0 && f->rated_pe > 0) {
        e.ro_modelled = true;
        double live0 = (double)(f->n_blocks - f->factory_bad);
        double need_blocks = (double)f->need_good_pages / f->ppb;
        e.ro_spare_blocks = live0 > need_blocks ? (uint64_t)floor(live0 - need_blocks) : 0;
        double surv = 1, erases = 0;
        uint32_t limit = (uint32_t)o.max_pe;
        for (uint32_t n = 1; n <= limit; n++) {
            erases += surv * live0;
            surv *= 1 - ssdsim__fault_grown_prob(f, n);
            if (surv * live0 < need_blocks) {
                e.ro_reached = true;
                e.ro_pe = n;
                e.ro_host_bytes = erases * (phys / (double)f->n_blocks) / o.waf;
                e.ro_dwpd = e.ro_host_bytes / per_dwpd;
                break;
            }
        }
    }
    return ssdsim__result_give(out, size, &e, sizeof e, 0, false);
}
