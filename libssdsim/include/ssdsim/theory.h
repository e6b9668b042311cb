/* ssdsim/theory.h: analytic write-amplification models of garbage collection, to set simulated
 * figures beside (doc/validation.md says where each model comes from and where it holds).
 *
 * These functions need no model or simulation. The umbrella header ssdsim/ssdsim.h includes this
 * one; before 1.0 they were declared in ssdsim/sys/gc.h, which still includes it.
 */
#ifndef SSDSIM_THEORY_H
#define SSDSIM_THEORY_H

#include <stdint.h>

#include "ssdsim/ssdsim.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Analytic steady-state write amplification of a GC policy under uniform random single-page
 * writes, from the mean-field models (many blocks, one write frontier; see doc/validation.md):
 * `policy` "greedy", "fifo", "random", "d-choices" (param: d >= 1) or "windowed" (param: the
 * window as a fraction of all blocks, in [0, 1]); spare factor = (physical - logical) /
 * physical, in (0, 1); `pages_per_block` from 2 to 2^20. @return 0, SSDSIM_EINVAL (bad
 * number), SSDSIM_ENOTFOUND (no model of that policy). */
SSDSIM_API int ssdsim_theory_waf(const char *policy, uint32_t pages_per_block, double spare_factor,
                                 double param, double *waf);

/** Analytic write amplification of hot/cold traffic (a fraction `f` of the writes goes to a
 * fraction `h` of the logical space) with hot and cold data in separate pools and the spare
 * space split between them to minimise the total (Desnoyers): greedy cleaning with
 * `pages_per_block` pages per block within each pool, or the LRU/FIFO formula when it is 0.
 * *hot_spare_share (may be NULL) receives the optimal share of the spare for the hot pool.
 * @return 0 or SSDSIM_EINVAL. */
SSDSIM_API int ssdsim_theory_hotcold_waf(double spare_factor, double f, double h,
                                         uint32_t pages_per_block, double *waf,
                                         double *hot_spare_share);

#ifdef __cplusplus
}
#endif

#endif /* SSDSIM_THEORY_H */
