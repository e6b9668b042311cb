/* theory.h: analytic (mean-field) write-amplification models of garbage collection.
 *
 * These closed forms and fixed points serve two purposes: `ssdsim validate waf` compares the
 * simulator against them, and fast preconditioning puts a drive directly into the steady state
 * they describe, which is why every model also returns the steady-state distribution of valid
 * pages per block and not only the write amplification.
 *
 * The abstract model shared by every function:
 *   - N blocks of b pages; N -> infinity (mean field), so one write frontier and any finite
 *     number of free blocks are a vanishing fraction of the drive;
 *   - sf, the spare factor, is (physical - logical) / physical pages, and rho = 1 - sf is the
 *     fraction of physical pages holding valid data in steady state;
 *   - the host writes single pages at uniformly random logical addresses, so each host write
 *     invalidates one valid page chosen uniformly among all valid pages;
 *   - when the frontier is full a victim block is chosen; its V valid pages are copied to the
 *     fresh block, which then takes b - V host writes before it is closed full (b valid pages).
 * Write amplification WAF = pages programmed / pages written by the host = b / (b - E[V]).
 *
 * The distribution `dist` (length b + 1) is x_j = fraction of blocks holding j valid pages,
 * j = 0..b. It sums to 1 and has mean rho * b. Every policy obeys the flow balance
 *     j * x_j = c * P(V < j),  j = 1..b,   c = rho * WAF,
 * so x_j follows from the victim distribution; x_0 takes the remainder. For FIFO and windowed
 * greedy the valid count also depends on a block's age, which `dist` (a mixture over all ages)
 * does not show: see ssdsim__theory_fifo_survival.
 *
 * Every function is pure and deterministic, touches no global state, never prints and never
 * allocates. Each returns 0, or SSDSIM_EINVAL for a NULL result pointer or a parameter outside
 * its documented range (nothing is written then); NaN is always rejected. `dist` may be NULL
 * when the distribution is not wanted; otherwise it must hold b + 1 doubles.
 */
#ifndef SSDSIM_GC_THEORY_H
#define SSDSIM_GC_THEORY_H

#include "common.h"

/* Largest pages-per-block the models accept. The solvers are O(b) per iteration; the bound only
 * keeps a corrupt argument from turning into a very long loop. */
#define SSDSIM__THEORY_MAX_B (1u << 20)

/* Principal branch W0 of the Lambert W function (w * e^w = z) for z >= -1/e.
 * @return 0, or SSDSIM_EINVAL when z < -1/e or w is NULL. */
int ssdsim__theory_lambert_w0(double *w, double z);

/* FIFO (least-recently-written) cleaning, Desnoyers 2012. The fraction X = E[V] / b of valid
 * pages in a victim is the root in [0, 1) of X = exp(-(1 - X) / rho) (X = 1 is a spurious root,
 * infinite WAF). *x receives X; sf must be in (0, 1). */
int ssdsim__theory_fifo_victim_frac(double *x, double sf);

/* The same X through the closed form of Xiang and Kurkoski, X = -rho * W0(-(1/rho) e^(-1/rho)),
 * kept as an independent check of the solver. */
int ssdsim__theory_fifo_victim_frac_lambertw(double *x, double sf);

/* FIFO cleaning: *waf = 1 / (1 - X). In the mean-field limit this is exact for every b, because
 * all pages of a block were written at the same time and each survives the trip through the
 * queue independently with probability X, so V ~ Binomial(b, X). (The "large-b limit" attached
 * to this formula in the literature is that of greedy, whose WAF tends to it as b grows.)
 * b in [2, SSDSIM__THEORY_MAX_B] is used only for dist. */
int ssdsim__theory_fifo(double *waf, double *dist, uint32_t b, double sf);

/* Probability that a page of a FIFO block that has gone through a fraction u in [0, 1] of the
 * queue (0 = just written, 1 = about to be cleaned) is still valid: X^u. A preconditioner
 * honouring block age gives the block at position u a Binomial(b, X^u) number of valid pages. */
int ssdsim__theory_fifo_survival(double *p, double sf, double u);

/* Random victim (d-choices with d = 1): the victim is a uniformly chosen block, so
 * E[V] = rho * b and *waf = 1 / sf exactly, for every b (not only as a limit). The distribution
 * has a closed form: with c = rho / sf, x_j = c T_j / j where T_{j+1} = T_j (1 + c/j) and
 * T_1 = x_0 = prod_{i=1..b} i / (i + c). */
int ssdsim__theory_random(double *waf, double *dist, uint32_t b, double sf);

/* d-choices (Van Houdt 2013): the victim is the block with the fewest valid pages among d
 * blocks drawn uniformly with replacement. d is real, d >= 1 (d = 1 is random, d -> infinity is
 * greedy). Fixed point of the mean-field model, solved as described in theory.c. */
int ssdsim__theory_dchoices(double *waf, double *dist, uint32_t b, double sf, double d);

/* Greedy (fewest valid pages overall; Bux and Iliadis 2010, Van Houdt 2013): victims hold k or
 * k + 1 valid pages. When rho * H_b <= 1 (H_b the b-th harmonic number) a block with no valid
 * page is always available, *waf = 1 and x_0 > 0. */
int ssdsim__theory_greedy(double *waf, double *dist, uint32_t b, double sf);

/* Windowed greedy (Hu et al. 2009): the victim is the block with the fewest valid pages among
 * the oldest w blocks in write order. The mean-field model needs the window as a fraction of
 * the drive, window_frac = w / N in [0, 1]: with a fixed w and N -> infinity every block reaches
 * the window at the same age and the policy tends to FIFO. window_frac = 0 is FIFO and
 * window_frac = 1 is greedy. This model is our own derivation (see theory.c), checked against
 * a Monte Carlo simulation, not a formula from the papers. */
int ssdsim__theory_windowed(double *waf, double *dist, uint32_t b, double sf, double window_frac);

/* Hot/cold traffic with segregated pools (Desnoyers 2012/2014): a fraction f of the writes goes
 * uniformly to a fraction h of the logical pages, the rest uniformly to the others. Hot and cold
 * data live in separate block pools; the hot pool receives the fraction `split` of the spare
 * (physical - logical) pages, the cold pool the rest, so the pools' spare factors are
 *     sf_hot = split*sf / (h*rho + split*sf),  sf_cold = (1-split)*sf / ((1-h)*rho + (1-split)*sf).
 * Each pool sees uniform traffic, copies stay in their pool, and so
 *     *waf = f * WAF(sf_hot) + (1 - f) * WAF(sf_cold).
 * b == 0 takes WAF() from the FIFO/LRU formula, as Desnoyers does (exact for LRU cleaning in
 * each pool, the large-b limit for greedy); b >= 2 takes it from finite-b greedy in each pool.
 * split = h gives both pools the drive's spare factor, hence exactly the uniform WAF.
 * f, h and split must be in (0, 1). */
int ssdsim__theory_hotcold(double *waf, double sf, double f, double h, double split, uint32_t b);

/* The split in (0, 1) minimising ssdsim__theory_hotcold (golden-section search, the function is
 * unimodal: each pool's WAF is decreasing and convex in its spare). *split may be NULL. */
int ssdsim__theory_hotcold_optimal(double *waf, double *split, double sf, double f, double h,
                                   uint32_t b);

/* The same hot/cold traffic without segregation: one pool cleaned FIFO/LRU. A page written
 * (by the host or by a copy) survives one trip through the queue with probability
 * s_hot = exp(-tau f / (h rho)) or s_cold = exp(-tau (1-f) / ((1-h) rho)), where tau is the
 * number of host writes per trip divided by the physical pages; a trip writes every physical
 * page once, so tau * WAF = 1 with WAF = f / (1 - s_hot) + (1 - f) / (1 - s_cold). f = h gives
 * the uniform FIFO WAF. f and h must be in (0, 1). */
int ssdsim__theory_hotcold_mixed(double *waf, double sf, double f, double h);

#endif /* SSDSIM_GC_THEORY_H */
