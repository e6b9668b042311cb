/* steady.c: the SNIA steady-state rule (Solid State Storage Performance Test Specification,
 * PTS-E and PTS-C, "Steady State" and "Measurement Window"), applied to a series of per-round
 * values of one tracked variable (IOPS, bandwidth, latency, WAF).
 *
 * A measurement window of `window` consecutive rounds (5 in the PTS) is steady when
 *   - the data excursion, max(y) - min(y) over the window, is no more than 20% of the window's
 *     average, and
 *   - the excursion of the least-squares line fitted to the window, the difference between the
 *     line's values at the window's last and first rounds, |slope| x (window - 1), is no more
 *     than 10% of that average.
 * Both limits include their bound ("no more than", "within"), as the PTS words them and as
 * PTS test suites compare them. The figures are reported as fractions of the average; the
 * verdict compares those same fractions with the limits, so a reported excursion equal to its
 * limit is steady.
 *
 * Cases the PTS does not cover, decided here:
 *   - A window holding a value that is not finite (an interval WAF of NaN when the host wrote
 *     nothing in it) is not steady.
 *   - The limits are relative to |average|, so a series of negative values is judged by the
 *     same rule. An average of 0 has no relative excursion: such a window is steady only when
 *     all its values are equal (all zero), and its excursions are then reported as 0. More
 *     generally, when max == min the window is steady with both excursions exactly 0 (the
 *     least-squares slope of equal values is 0, which floating-point sums need not give).
 *
 * Cost: O(window) per window, O(n x window) for a whole series; nothing is allocated. The
 * slope uses centred sums (x - mean x)(y - mean y), which keep the precision of the values'
 * spread rather than of their magnitude.
 */
#include "stats/stats.h"
#include "abi.h"

#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#define SNIA_WINDOW 5
#define SNIA_MAX_EXCURSION 0.20
#define SNIA_MAX_SLOPE_EXCURSION 0.10

int ssdsim__steady_resolve(const ssdsim_steady_opts *opts, ssdsim_steady_opts *out, char *why,
                           size_t len)
{
    ssdsim_steady_opts o;
    if (why && len)
        why[0] = '\0';
    if (ssdsim__steady_opts_read(&o, opts, why, len))
        return SSDSIM_EINVAL;
    /* NaN and negative limits are refused; 0 means SNIA's value. */
    if (o.window == 1) {
        if (why && len)
            snprintf(why, len, "window 1: expected 0 (SNIA's %d rounds) or at least 2",
                     SNIA_WINDOW);
        return SSDSIM_EINVAL;
    }
    if (!(o.max_excursion >= 0) || !(o.max_slope_excursion >= 0)) {
        bool first = !(o.max_excursion >= 0);
        if (why && len)
            snprintf(why, len, "%s %g: expected 0 (SNIA's %g) or a positive fraction",
                     first ? "max_excursion" : "max_slope_excursion",
                     first ? o.max_excursion : o.max_slope_excursion,
                     first ? SNIA_MAX_EXCURSION : SNIA_MAX_SLOPE_EXCURSION);
        return SSDSIM_EINVAL;
    }
    if (o.window == 0)
        o.window = SNIA_WINDOW;
    if (o.max_excursion == 0)
        o.max_excursion = SNIA_MAX_EXCURSION;
    if (o.max_slope_excursion == 0)
        o.max_slope_excursion = SNIA_MAX_SLOPE_EXCURSION;
    *out = o;
    return 0;
}

bool ssdsim__steady_window(const double *x, size_t stride, const ssdsim_steady_opts *o,
                           ssdsim_steady_result *r)
{
    const size_t w = o->window;
    const char *p = (const char *)x;
#define AT(k) (*(const double *)(const void *)(p + (k)*stride))
    double sum = 0, lo = INFINITY, hi = -INFINITY;
    bool finite = true;
    for (size_t k = 0; k < w; k++) {
        double y = AT(k);
        if (!isfinite(y))
            finite = false;
        sum += y;
        lo = fmin(lo, y);
        hi = fmax(hi, y);
    }
    r->window = w;
    if (!finite) {
        r->average = r->min = r->max = NAN;
        r->slope = r->intercept = r->excursion = r->slope_excursion = NAN;
        return false;
    }
    r->min = lo;
    r->max = hi;
    if (lo == hi) {
        r->average = r->intercept = lo;
        r->slope = r->excursion = r->slope_excursion = 0;
        return true;
    }
    double mean = sum / (double)w, xm = (double)(w - 1) / 2;
    double sxy = 0, sxx = 0;
    for (size_t k = 0; k < w; k++) {
        double dx = (double)k - xm;
        sxy += dx * (AT(k) - mean);
        sxx += dx * dx;
    }
#undef AT
    r->average = mean;
    r->slope = sxy / sxx; /* sxx > 0: window >= 2 */
    r->intercept = mean - r->slope * xm;
    double a = fabs(mean);
    /* max != min here, so a zero average gives infinite excursions: not steady. */
    r->excursion = a > 0 ? (hi - lo) / a : INFINITY;
    r->slope_excursion = a > 0 ? fabs(r->slope) * (double)(w - 1) / a : INFINITY;
    return r->excursion <= o->max_excursion && r->slope_excursion <= o->max_slope_excursion;
}

int ssdsim__steady_series(const double *x, size_t stride, size_t n, const ssdsim_steady_opts *opts,
                          ssdsim_steady_result *out)
{
    ssdsim_steady_opts o;
    if (!out)
        return SSDSIM_EINVAL;
    memset(out, 0, sizeof *out);
    if (!x && n > 0) {
        snprintf(out->why_not, sizeof out->why_not, "no values: x is NULL with n %zu", n);
        return SSDSIM_EINVAL;
    }
    if (ssdsim__steady_resolve(opts, &o, out->why_not, sizeof out->why_not))
        return SSDSIM_EINVAL;
    out->window = o.window;
    if (n < o.window) {
        out->round = n ? n - 1 : 0;
        snprintf(out->why_not, sizeof out->why_not, "%zu round%s, fewer than the window of %zu",
                 n, n == 1 ? "" : "s", (size_t)o.window);
        return 0;
    }
    const char *p = (const char *)x;
    for (size_t i = 0; i + o.window <= n; i++) {
        if (ssdsim__steady_window((const double *)(const void *)(p + i * stride), stride, &o,
                                  out)) {
            out->steady = 1;
            out->round = i + o.window - 1;
            return 0;
        }
    }
    out->round = n - 1;
    snprintf(out->why_not, sizeof out->why_not,
             "no window of %zu rounds within the limits (excursion %g%%, slope excursion %g%%) "
             "in %zu rounds",
             (size_t)o.window, 100 * o.max_excursion, 100 * o.max_slope_excursion, n);
    return 0;
}

size_t ssdsim__steady_var_offset(ssdsim_steady_var var)
{
    switch (var) {
    case SSDSIM_STEADY_BW:
        return offsetof(ssdsim_interval, bw_bytes);
    case SSDSIM_STEADY_LAT_MEAN:
        return offsetof(ssdsim_interval, lat_ns_mean);
    case SSDSIM_STEADY_WAF:
        return offsetof(ssdsim_interval, waf);
    case SSDSIM_STEADY_IOPS:
    default:
        return offsetof(ssdsim_interval, iops);
    }
}

static int steady_check_full(const double *x, size_t n, const ssdsim_steady_opts *opts,
                        ssdsim_steady_result *out)
{
    return ssdsim__steady_series(x, sizeof *x, n, opts, out);
}

/* The caller's struct may be of an older, smaller layout: write `size` bytes of it at most. */
int ssdsim_steady_check_sized(const double *x, size_t n, const ssdsim_steady_opts *opts,
                              ssdsim_steady_result *out, size_t size)
{
    ssdsim_steady_result full;
    memset(&full, 0, sizeof full);
    int rc = steady_check_full(x, n, opts, out ? &full : NULL);
    return ssdsim__result_give(out, size, &full, sizeof full, rc, true);
}

/* The 1.0 layout, for callers that bypass the macro (ctypes, function pointers). */
int (ssdsim_steady_check)(const double *x, size_t n, const ssdsim_steady_opts *opts,
                          ssdsim_steady_result *out)
{
    return ssdsim_steady_check_sized(x, n, opts, out, SSDSIM__STEADY_RESULT_SIZE_1);
}
