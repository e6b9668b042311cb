/* methods/validate.h: what the files of the WAF validation method (validate_*.c, public header
 * ssdsim/validate.h) share: reading the caller's option and point structs by their version,
 * GC policy specs, the expected WAF a run is sized by, and the run lengths.
 */
#ifndef SSDSIM_METHODS_VALIDATE_H
#define SSDSIM_METHODS_VALIDATE_H

#include <stddef.h>
#include <stdint.h>

#include "ssdsim/ssdsim.h"
#include "ssdsim/validate.h"

/* Seeds stay below 2^53 so that they survive a trip through a double (JSON readers). */
#define SSDSIM__VALIDATE_SEED_LIMIT (UINT64_C(1) << 53)
/* The host's request and mapping unit of every point. */
#define SSDSIM__VALIDATE_PAGE_BYTES 4096u

/* Read the caller's options (NULL: the defaults) into *dst, current layout, every default
 * resolved except the grid lists (NULL lists stay NULL: the grid fills them in). Checks every
 * field. @return 0, or SSDSIM_EINVAL with `err` (may be NULL) naming the field. */
int ssdsim__validate_opts_read(ssdsim_validate_opts *dst, const ssdsim_validate_opts *src,
                               ssdsim_error *err);

/* Read the caller's point into *dst, current layout, its zero defaults resolved (n_planes,
 * free_blocks_min, hot_window) and every field checked. @return 0, or SSDSIM_EINVAL with a
 * one-line reason in why[len]. */
int ssdsim__validate_point_read(ssdsim_validate_point *dst, const ssdsim_validate_point *src,
                                char *why, size_t len);

/* Write the current-layout point *full to the caller's *out, up to the layout out->version
 * names (0 = 1). @return 0, or SSDSIM_EINVAL (a version newer than the library's). */
int ssdsim__validate_point_write(ssdsim_validate_point *out, const ssdsim_validate_point *full);

/* A policy spec of the uniform section: NAME, or NAME:PARAM for d-choices (d) and windowed (the
 * window in blocks), PARAM an integer from 1 to 1048576. On success the name goes to name[len]
 * and the parameter to *param (0 when none is given). @return true when the spec is valid. */
bool ssdsim__validate_policy_parse(const char *spec, char *name, size_t len, double *param);

/* The WAF a point's run is sized by: its model at the requested spare factor, else the same
 * policy's uniform-traffic model (greedy for cost-benefit), else 1 / spare factor. The point
 * has been read (ssdsim__validate_point_read). */
double ssdsim__validate_expected_waf(const ssdsim_validate_point *p);

/* Host writes of the warm-up and of each measured batch of a point read with its options, for
 * a device of `logical_pages` logical pages. */
void ssdsim__validate_run_sizes(const ssdsim_validate_point *p, const ssdsim_validate_opts *o,
                                uint64_t logical_pages, uint64_t *warm, uint64_t *batch);

/* ssdsim_validate_point_compare on a point already read and a whole (current-layout) result. */
void ssdsim__validate_compare(const ssdsim_validate_point *p, ssdsim_validate_result *r);

#endif /* SSDSIM_METHODS_VALIDATE_H */
