/* theory.c: mean-field write-amplification models (FIFO, random, d-choices, greedy, windowed
 * greedy, hot/cold) and their steady-state valid-page distributions. See theory.h for the
 * abstract model and its notation.
 *
 * Two facts shape the code. First, every policy obeys the same flow balance: in steady state,
 * per victim, b - E[V] host writes each invalidate a page of a block at level j (j valid pages)
 * with probability j x_j / (rho b), one block leaves at the victim's level and one enters at
 * level b. Counting the flow across the boundary between levels j - 1 and j gives
 *     j x_j = c P(V < j),  c = rho b / (b - E[V]) = rho WAF,
 * so once a model yields the victim tail P(V >= j) and c, the distribution follows (dist_fill).
 * Second, each fixed point has a spurious solution at E[V] = b (WAF = infinity); the solvers
 * bracket the real root away from it instead of iterating blindly, which could land there.
 *
 * No function allocates: the distribution buffer, when given, doubles as scratch space.
 */
#include "gc/theory.h"

#include <float.h>
#include <math.h>
#include <stddef.h>

/* Bisection steps: enough to shrink any bracket used here to a few ulps. */
#define MAX_BISECT 200

static bool bad_sf(double sf)
{
    return !(sf > 0.0 && sf < 1.0); /* also rejects NaN */
}

static bool bad_b(uint32_t b)
{
    return b < 2 || b > SSDSIM__THEORY_MAX_B;
}

static bool bad_open_unit(double v)
{
    return !(v > 0.0 && v < 1.0);
}

/* Turn a victim tail, dist[j] = P(V >= j) for j = 1..b (dist[0] ignored), into the block
 * distribution x_j = c (1 - P(V >= j)) / j, with x_0 the remainder. The remainder is clamped at
 * zero because it is a difference of sums that can come out a few ulps negative. */
static void dist_fill(double *dist, uint32_t b, double c)
{
    double sum = 0.0;
    for (uint32_t j = b; j >= 1; j--) {
        dist[j] = c * (1.0 - dist[j]) / j;
        sum += dist[j];
    }
    dist[0] = sum < 1.0 ? 1.0 - sum : 0.0;
}

/* Binomial(b, s) upper tail, tail[j] = P(A >= j) for j = 1..b. The pmf is computed in log
 * space so that neither s^b nor (1 - s)^b underflows to a NaN for large b; log C(b, j) is built
 * by a recurrence instead of lgamma, which writes the global signgam. */
static void binomial_tail(double *tail, uint32_t b, double s)
{
    if (s >= 1.0) {
        for (uint32_t j = 1; j <= b; j++)
            tail[j] = 1.0;
        return;
    }
    if (s <= 0.0) {
        for (uint32_t j = 1; j <= b; j++)
            tail[j] = 0.0;
        return;
    }
    double ls = log(s), l1s = log1p(-s), lc = 0.0, acc = 0.0;
    for (uint32_t j = b; j >= 1; j--) {
        acc += exp(lc + j * ls + (b - j) * l1s);
        tail[j] = acc < 1.0 ? acc : 1.0;
        lc += log((double)j / (double)(b - j + 1)); /* C(b, j-1) = C(b, j) j / (b - j + 1) */
    }
}

/* ---- Lambert W and FIFO ------------------------------------------------------------------ */

int ssdsim__theory_lambert_w0(double *w, double z)
{
    const double e = 2.718281828459045, em1 = 0.36787944117144233; /* e, 1/e */
    if (!w || !(z >= -em1) || isinf(z))
        return SSDSIM_EINVAL;
    if (z == 0.0) {
        *w = 0.0;
        return 0;
    }
    /* Starting points: the series at the branch point z = -1/e, where W behaves like a square
     * root; log1p for moderate z; the two-term asymptotic expansion for large z. Halley's
     * iteration then converges cubically from each. */
    double x;
    if (z < -0.25) {
        double p = sqrt(2.0 * (e * z + 1.0));
        x = -1.0 + p - p * p / 3.0 + 11.0 / 72.0 * p * p * p;
    } else if (z < 3.0) {
        x = log1p(z) * (1.0 - log1p(log1p(z)) / (2.0 + log1p(z)));
    } else {
        double l1 = log(z), l2 = log(l1);
        x = l1 - l2 + l2 / l1;
    }
    for (int i = 0; i < 100; i++) {
        double ex = exp(x), f = x * ex - z;
        if (x + 1.0 <= 0.0) { /* at the branch point itself */
            x = -1.0;
            break;
        }
        double step = f / (ex * (x + 1.0) - (x + 2.0) * f / (2.0 * x + 2.0));
        x -= step;
        if (fabs(step) <= 4.0 * DBL_EPSILON * (1.0 + fabs(x)))
            break;
    }
    *w = x > -1.0 ? x : -1.0;
    return 0;
}

/* The FIFO fixed point g(X) = exp(-(1 - X)/rho) - X = 0. g is convex with g(0) > 0 and its
 * minimum at X_m = 1 + rho ln rho, where g(X_m) = rho - 1 - rho ln rho < 0, so [0, X_m] brackets
 * exactly the wanted root and excludes the spurious one at X = 1. Newton steps that stay inside
 * the bracket are taken, otherwise bisection. */
static double fifo_root(double rho)
{
    double lo = 0.0, hi = 1.0 + rho * log(rho), x = 0.0;
    for (int i = 0; i < MAX_BISECT; i++) {
        double e = exp(-(1.0 - x) / rho), g = e - x, dg = e / rho - 1.0;
        if (g > 0.0)
            lo = x;
        else
            hi = x;
        double nx = (dg < 0.0) ? x - g / dg : 0.5 * (lo + hi);
        if (!(nx > lo && nx < hi))
            nx = 0.5 * (lo + hi);
        if (fabs(nx - x) <= 2.0 * DBL_EPSILON * nx || hi - lo <= 2.0 * DBL_EPSILON * hi) {
            x = nx;
            break;
        }
        x = nx;
    }
    return x;
}

int ssdsim__theory_fifo_victim_frac(double *x, double sf)
{
    if (!x || bad_sf(sf))
        return SSDSIM_EINVAL;
    *x = fifo_root(1.0 - sf);
    return 0;
}

int ssdsim__theory_fifo_victim_frac_lambertw(double *x, double sf)
{
    if (!x || bad_sf(sf))
        return SSDSIM_EINVAL;
    /* X = e^{-1/rho} e^{X/rho}; with y = -X/rho this is y e^y = -(1/rho) e^{-1/rho}. Since
     * -1/rho < -1 is itself a solution on the lower branch (it is X = 1), the wanted one is the
     * principal branch, y > -1. */
    double rho = 1.0 - sf, w;
    int rc = ssdsim__theory_lambert_w0(&w, -exp(-1.0 / rho) / rho);
    if (rc)
        return rc;
    *x = -rho * w;
    return 0;
}

int ssdsim__theory_fifo(double *waf, double *dist, uint32_t b, double sf)
{
    if (!waf || bad_sf(sf) || bad_b(b))
        return SSDSIM_EINVAL;
    double rho = 1.0 - sf, x = fifo_root(rho);
    *waf = 1.0 / (1.0 - x);
    if (dist) {
        binomial_tail(dist, b, x);
        dist_fill(dist, b, rho * *waf);
    }
    return 0;
}

int ssdsim__theory_fifo_survival(double *p, double sf, double u)
{
    if (!p || bad_sf(sf) || !(u >= 0.0 && u <= 1.0))
        return SSDSIM_EINVAL;
    *p = pow(fifo_root(1.0 - sf), u);
    return 0;
}

/* ---- Random ------------------------------------------------------------------------------ */

int ssdsim__theory_random(double *waf, double *dist, uint32_t b, double sf)
{
    if (!waf || bad_sf(sf) || bad_b(b))
        return SSDSIM_EINVAL;
    /* With d = 1 the victim is a uniform block, so E[V] is the mean block occupancy rho b and
     * c = rho / sf. The balance j x_j = c (1 - S_j) with T_j = 1 - S_j = P(level < j) becomes
     * T_{j+1} = T_j (1 + c/j), and T_{b+1} = 1 fixes T_1 = x_0. */
    double rho = 1.0 - sf, c = rho / sf;
    *waf = 1.0 / sf;
    if (dist) {
        double lt = 0.0;
        for (uint32_t i = 1; i <= b; i++)
            lt -= log1p(c / i);
        double t = exp(lt), sum = 0.0;
        for (uint32_t j = 1; j <= b; j++) {
            dist[j] = c * t / j;
            sum += dist[j];
            t *= 1.0 + c / j;
        }
        dist[0] = sum < 1.0 ? 1.0 - sum : 0.0;
    }
    return 0;
}

/* ---- d-choices ----------------------------------------------------------------------------- */

/* One level of the d-choices recursion. With T = 1 - S_{j+1} = P(level <= j) known, find
 * y = 1 - S_j = P(level < j) in [0, T] such that
 *     h(y) = j (T - y) - c (1 - (1 - y)^d) = 0,
 * i.e. j x_j = c P(V < j) with x_j = T - y and P(V >= j) = S_j^d. h is decreasing and convex,
 * h(0) >= 0 >= h(T), so the root is unique; Newton from the left is monotone but can be slow
 * for large d, hence the bisection safeguard. Working with y rather than S_j keeps the small
 * probabilities of the low levels accurate (log1p / expm1). */
static double dchoices_level(double T, double j, double c, double d)
{
    double lo = 0.0, hi = T, y = 0.0;
    if (T <= 0.0)
        return 0.0;
    for (int i = 0; i < MAX_BISECT; i++) {
        double l1y = log1p(-y);
        double h = j * (T - y) + c * expm1(d * l1y);
        double dh = -j - c * d * exp((d - 1.0) * l1y);
        if (h > 0.0)
            lo = y;
        else if (h < 0.0)
            hi = y;
        else
            return y;
        double ny = y - h / dh;
        if (!(ny > lo && ny < hi))
            ny = 0.5 * (lo + hi);
        if (fabs(ny - y) <= 2.0 * DBL_EPSILON * ny || hi - lo <= 2.0 * DBL_EPSILON * hi)
            return ny;
        y = ny;
    }
    return y;
}

/* For a given c, run the recursion from level b down to 1. Returns sum_j (1 - S_j) - b sf,
 * which is zero exactly when c = rho b / (b - E[V]) (sum_{j>=1} S_j is the mean occupancy).
 * It is increasing in c: a larger c raises every S_j. Writes the victim tail S_j^d into
 * dist[j] when dist is not NULL and stores E[V] in *ev. */
static double dchoices_eval(double c, uint32_t b, double sf, double d, double *dist, double *ev)
{
    double T = 1.0, sum_t = 0.0, e = 0.0;
    for (uint32_t j = b; j >= 1; j--) {
        T = dchoices_level(T, (double)j, c, d);
        double tail = exp(d * log1p(-T)); /* P(V >= j) = S_j^d */
        sum_t += T;
        e += tail;
        if (dist)
            dist[j] = tail;
    }
    *ev = e;
    return b * sf - sum_t;
}

int ssdsim__theory_dchoices(double *waf, double *dist, uint32_t b, double sf, double d)
{
    if (!waf || bad_sf(sf) || bad_b(b) || !(d >= 1.0) || isinf(d))
        return SSDSIM_EINVAL;
    double rho = 1.0 - sf, ev;
    /* Bracket c. At c = rho the residual is -rho E[V] < 0 (E[V] > 0 for finite d). d >= 1 does
     * no worse than random, whose c is rho / sf; the doubling only guards against rounding. */
    double lo = rho, hi = rho / sf;
    for (int i = 0; i < 64 && dchoices_eval(hi, b, sf, d, NULL, &ev) < 0.0; i++) {
        lo = hi;
        hi *= 2.0;
    }
    for (int i = 0; i < MAX_BISECT && hi - lo > 4.0 * DBL_EPSILON * hi; i++) {
        double mid = 0.5 * (lo + hi);
        if (dchoices_eval(mid, b, sf, d, NULL, &ev) < 0.0)
            lo = mid;
        else
            hi = mid;
    }
    double c = 0.5 * (lo + hi);
    dchoices_eval(c, b, sf, d, dist, &ev);
    /* Report the WAF from E[V] and build dist with the same c: at the root both agree with
     * c / rho to the bisection tolerance. */
    *waf = b / (b - ev);
    if (dist)
        dist_fill(dist, b, c);
    return 0;
}

/* ---- Greedy -------------------------------------------------------------------------------- */

int ssdsim__theory_greedy(double *waf, double *dist, uint32_t b, double sf)
{
    if (!waf || bad_sf(sf) || bad_b(b))
        return SSDSIM_EINVAL;
    double rho = 1.0 - sf, rb = rho * b;
    double hb = 0.0;
    for (uint32_t j = b; j >= 1; j--) /* smallest terms first */
        hb += 1.0 / j;

    /* Blocks only ever enter at level b and drift down, and the victim is always at the lowest
     * occupied level k + 1 or at k (a block that has just dropped there). Then x_j = 0 below
     * k + 1, x_{k+1} = c q / (k + 1), x_j = c / j above, with q = P(V = k),
     * E[V] = k + 1 - q and c = rho b / (b - E[V]). Normalisation sum x_j = 1 is linear in q for
     * each k:  q (rho b / (k + 1) - 1) = b - k - 1 - rho b (H_b - H_{k+1}).
     * As a function of t = E[V] the normalisation residual decreases while k + 1 < rho b and
     * increases after, ending at the spurious root t = b; the wanted root is the single one in
     * the decreasing part, so the first k with a q in [0, 1] there is it. */
    uint32_t k = 0;
    double q = 1.0, c = rho;
    if (rho * hb > 1.0) {
        double hp = hb - 1.0; /* H_b - H_{k+1} for k = 0 */
        bool found = false;
        for (k = 0; k + 1 < b; k++) {
            double den = rb / (k + 1) - 1.0;
            if (den <= 0.0)
                break;
            q = (b - k - 1.0 - rb * hp) / den;
            if (q >= -1e-12 && q <= 1.0 + 1e-12) {
                found = true;
                break;
            }
            hp -= 1.0 / (k + 2);
        }
        /* The bracket argument above guarantees a root; rounding at a segment end is the only
         * way to miss it, and the clamp below then lands on that end. */
        assert(found);
        (void)found;
        q = q < 0.0 ? 0.0 : (q > 1.0 ? 1.0 : q);
        c = rb / (b - k - 1.0 + q);
    }
    /* else: rho H_b <= 1, a block without valid pages is always there: V = 0 and c = rho. */
    double ev = k + 1.0 - q;
    *waf = b / (b - ev);
    if (dist) {
        for (uint32_t j = 1; j <= b; j++)
            dist[j] = j <= k ? 1.0 : (j == k + 1 ? 1.0 - q : 0.0); /* P(V >= j) */
        dist_fill(dist, b, c);
    }
    return 0;
}

/* ---- Windowed greedy ----------------------------------------------------------------------- */

/* Mean-field windowed greedy with the window a fraction w of the N blocks (our derivation).
 * Outside the window a block only ages: it spends (1 - w) N victims in the queue, during which
 * each of its pages is invalidated with probability 1/(c N) per victim, so it reaches the window
 * with A ~ Binomial(b, s0) valid pages, s0 = exp(-(1 - w)/c). Inside the window greedy acts on
 * a population of mass w fed by these arrivals. As for plain greedy there is a threshold: a
 * block arriving at or below level k is cleaned at once (in the fluid limit), the population
 * sits at levels >= k + 1, and victims taken from it have k or k + 1 pages. With theta the
 * victim mass at level k coming from inside the window, P(V >= j) = P(A >= j) for j <= k,
 * P(V >= k+1) = P(A >= k+1) - theta, 0 above. The window levels y_j then satisfy
 * j y_j = c (P(V < j) - P(A < j)), so
 *     w = c theta / (k + 1) + c sum_{j >= k+2} P(A >= j) / j,
 * which fixes (k, theta) for a given c; the queue part contributes c P(A < j) / j, so the total
 * is again j x_j = c P(V < j). w = 1 gives s0 = 1 and the greedy equations, w = 0 gives V = A
 * and FIFO. This function does one evaluation for a given c: it returns the residual
 * c (b - E[V]) - rho b (zero at the fixed point) and, when tail is not NULL, fills it with
 * P(V >= j). */
static double windowed_eval(double c, uint32_t b, double rho, double w, double *tail)
{
    double s0 = exp(-(1.0 - w) / c);
    /* Scan the threshold from the top, accumulating G_j = P(A >= j) (from the pmf, in log space
     * as in binomial_tail), R = sum_{j >= k+2} G_j / j and U = sum_{j >= k+2} G_j. */
    double ls = s0 > 0.0 ? log(s0) : -INFINITY, l1s = s0 < 1.0 ? log1p(-s0) : -INFINITY;
    double lc = 0.0, g = 0.0, r = 0.0, u = 0.0, theta = 0.0;
    uint32_t k = b - 1;
    bool saturated = true;
    for (uint32_t j = b; j >= 1; j--) { /* j = k + 1 */
        double pmf;
        if (s0 >= 1.0)
            pmf = j == b ? 1.0 : 0.0; /* avoids 0 * log(0) */
        else if (s0 <= 0.0)
            pmf = 0.0;
        else
            pmf = exp(lc + j * ls + (b - j) * l1s);
        lc += log((double)j / (double)(b - j + 1));
        g += pmf; /* now g = G_{k+1} */
        if (g > 1.0)
            g = 1.0;
        double top = c * r, bot = c * (r + g / j);
        if (w <= bot) {
            k = j - 1;
            theta = top >= w ? 0.0 : (w / c - r) * j;
            if (theta > g)
                theta = g;
            saturated = false;
            break;
        }
        r += g / j;
        u += g;
    }
    if (saturated) {
        /* Even with every arrival kept, the window holds less than w: it has blocks without
         * valid pages to spare and every victim is empty. */
        if (tail)
            for (uint32_t j = 1; j <= b; j++)
                tail[j] = 0.0;
        return c * b - rho * b;
    }
    /* E[V] = sum_{j=1..k} G_j + G_{k+1} - theta = E[A] - sum_{j >= k+2} G_j - theta. */
    double ev = b * s0 - u - theta;
    if (tail) {
        binomial_tail(tail, b, s0);
        tail[k + 1] = tail[k + 1] > theta ? tail[k + 1] - theta : 0.0;
        for (uint32_t j = k + 2; j <= b; j++)
            tail[j] = 0.0;
    }
    return c * (b - ev) - rho * b;
}

int ssdsim__theory_windowed(double *waf, double *dist, uint32_t b, double sf, double window_frac)
{
    if (!waf || bad_sf(sf) || bad_b(b) || !(window_frac >= 0.0 && window_frac <= 1.0))
        return SSDSIM_EINVAL;
    double rho = 1.0 - sf, c;
    /* At c = rho the residual is -rho E[V] <= 0, zero only when the window always offers an
     * empty block (then WAF = 1). Windowed greedy does no worse than FIFO, whose c bounds the
     * root from above; the doubling only guards against rounding. */
    if (windowed_eval(rho, b, rho, window_frac, NULL) >= 0.0) {
        c = rho;
    } else {
        double x = fifo_root(rho), lo = rho, hi = rho / (1.0 - x);
        for (int i = 0; i < 64 && windowed_eval(hi, b, rho, window_frac, NULL) < 0.0; i++) {
            lo = hi;
            hi *= 2.0;
        }
        for (int i = 0; i < MAX_BISECT && hi - lo > 4.0 * DBL_EPSILON * hi; i++) {
            double mid = 0.5 * (lo + hi);
            if (windowed_eval(mid, b, rho, window_frac, NULL) < 0.0)
                lo = mid;
            else
                hi = mid;
        }
        c = 0.5 * (lo + hi);
    }
    *waf = c / rho;
    if (dist) {
        windowed_eval(c, b, rho, window_frac, dist);
        dist_fill(dist, b, c);
    }
    return 0;
}

/* ---- Hot/cold ------------------------------------------------------------------------------ */

static double pool_waf(double sf, uint32_t b)
{
    double waf = INFINITY;
    if (b == 0)
        waf = 1.0 / (1.0 - fifo_root(1.0 - sf));
    else
        ssdsim__theory_greedy(&waf, NULL, b, sf); /* arguments already validated */
    return waf;
}

static double hotcold_total(double sf, double f, double h, double split, uint32_t b)
{
    double rho = 1.0 - sf;
    double spare_hot = split * sf, spare_cold = (1.0 - split) * sf;
    double sf_hot = spare_hot / (h * rho + spare_hot);
    double sf_cold = spare_cold / ((1.0 - h) * rho + spare_cold);
    return f * pool_waf(sf_hot, b) + (1.0 - f) * pool_waf(sf_cold, b);
}

static bool bad_hotcold(double sf, double f, double h, uint32_t b)
{
    return bad_sf(sf) || bad_open_unit(f) || bad_open_unit(h) || (b != 0 && bad_b(b));
}

int ssdsim__theory_hotcold(double *waf, double sf, double f, double h, double split, uint32_t b)
{
    if (!waf || bad_hotcold(sf, f, h, b) || bad_open_unit(split))
        return SSDSIM_EINVAL;
    *waf = hotcold_total(sf, f, h, split, b);
    return 0;
}

int ssdsim__theory_hotcold_optimal(double *waf, double *split, double sf, double f, double h,
                                   uint32_t b)
{
    if (!waf || bad_hotcold(sf, f, h, b))
        return SSDSIM_EINVAL;
    /* Golden-section search: the total tends to infinity at both ends (a pool without spare
     * never frees a block) and, for the LRU formula, is convex in between: each pool's WAF is
     * a decreasing convex function of its spare factor, which is a concave function of split.
     * With finite-b greedy the pool WAF is only piecewise smooth but still decreasing and close
     * to convex, and the search finds its minimum to the same tolerance. */
    const double invphi = 0.6180339887498949;
    double lo = 1e-9, hi = 1.0 - 1e-9;
    double x1 = hi - invphi * (hi - lo), x2 = lo + invphi * (hi - lo);
    double f1 = hotcold_total(sf, f, h, x1, b), f2 = hotcold_total(sf, f, h, x2, b);
    for (int i = 0; i < MAX_BISECT && hi - lo > 1e-12; i++) {
        if (f1 < f2) {
            hi = x2;
            x2 = x1;
            f2 = f1;
            x1 = hi - invphi * (hi - lo);
            f1 = hotcold_total(sf, f, h, x1, b);
        } else {
            lo = x1;
            x1 = x2;
            f1 = f2;
            x2 = lo + invphi * (hi - lo);
            f2 = hotcold_total(sf, f, h, x2, b);
        }
    }
    double best = 0.5 * (lo + hi);
    *waf = hotcold_total(sf, f, h, best, b);
    if (split)
        *split = best;
    return 0;
}

/* tau * (f / (1 - s_hot) + (1 - f) / (1 - s_cold)) - 1, increasing in tau, equal to rho - 1 < 0
 * as tau -> 0 (the spurious root of the uniform case sits at tau = 0 and is therefore not a root
 * here) and unbounded above. */
static double mixed_residual(double tau, double a_hot, double a_cold, double f)
{
    return tau * (f / -expm1(-a_hot * tau) + (1.0 - f) / -expm1(-a_cold * tau)) - 1.0;
}

int ssdsim__theory_hotcold_mixed(double *waf, double sf, double f, double h)
{
    if (!waf || bad_sf(sf) || bad_open_unit(f) || bad_open_unit(h))
        return SSDSIM_EINVAL;
    double rho = 1.0 - sf;
    double a_hot = f / (h * rho), a_cold = (1.0 - f) / ((1.0 - h) * rho);
    /* tau = 1 / WAF lies in (0, 1]: WAF >= 1. */
    double lo = 0.0, hi = 1.0;
    for (int i = 0; i < MAX_BISECT && hi - lo > 2.0 * DBL_EPSILON * hi; i++) {
        double mid = 0.5 * (lo + hi);
        if (mixed_residual(mid, a_hot, a_cold, f) < 0.0)
            lo = mid;
        else
            hi = mid;
    }
    *waf = 2.0 / (lo + hi);
    return 0;
}
