/* methods/point.h: what the point files (point_*.c) share inside the library: reading a
 * caller's ssdsim_point_opts by its version, and the FNV-1a hash the seeds and long names use. */
#ifndef SSDSIM_METHODS_POINT_H
#define SSDSIM_METHODS_POINT_H

#include "common.h"

#include "ssdsim/point.h"

/* Read the caller's `src` (NULL: all defaults) into `dst`, the current layout: 0, or
 * SSDSIM_EINVAL with the reason in `why` (a version newer than the library's, an unknown
 * precondition mode or seed rule, n_set or n_vary > 0 with a NULL array). */
int ssdsim__point_opts_read(ssdsim_point_opts *dst, const ssdsim_point_opts *src, char *why,
                            size_t len);

/* 64-bit FNV-1a of the bytes of `s`, continuing from `h` (SSDSIM__FNV_OFFSET to start). */
#define SSDSIM__FNV_OFFSET UINT64_C(0xcbf29ce484222325)
uint64_t ssdsim__fnv1a64(uint64_t h, const char *s);

#endif /* SSDSIM_METHODS_POINT_H */
