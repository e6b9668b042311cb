/* layout.h: the runs of logical units a workload's writes leave side by side in flash
 * (ssdsim_ftl_image.run_len), for fast preconditioning's install (layout.c). */
#ifndef SSDSIM_LAYOUT_H
#define SSDSIM_LAYOUT_H

#include "common.h"
#include "workload/workload.h"

/* The runs uniform random writes of jobs `jobs` (n_jobs of them, write jobs of a workload that
 * fast preconditioning represents; their clones at equal rates) leave on a device of
 * `logical_bytes` mapped in units of `unit` bytes on flash pages of `page_size` bytes: *out gets
 * the pattern of runs (ssdsim_ftl_image.run_len) and *period its length, or NULL and 0 when
 * every unit is a run of its own (writes of at most one unit, or units as large as the page). The
 * draws use their own stream of `seed`. Returns 0 or SSDSIM_ENOMEM. */
int ssdsim__layout_runs(const struct ssdsim__jobspec *jobs, uint32_t n_jobs, uint64_t logical_bytes,
                        uint32_t unit, uint32_t page_size, uint64_t seed, uint8_t **out,
                        uint64_t *period);

#endif
