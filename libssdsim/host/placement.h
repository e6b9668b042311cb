/* placement.h: the FDP placement of a generated job's requests, from the job options that name
 * it (placement=N, fio's fdp=1 with fdp_pli and fdp_pli_select): the options checked against
 * the drive once per job clone, then each request's placement (group x handles + handle,
 * config/fdp_pid.h). Shared by timed runs (host.c) and functional fast-forward (fastfwd.c), so
 * that both give the same requests the same placements: a clone's random choices come from its
 * generator's stream, drawn right after the request they place, in both.
 */
#ifndef SSDSIM_HOST_PLACEMENT_H
#define SSDSIM_HOST_PLACEMENT_H

#include "common.h"
#include "config/fdp_pid.h"
#include "engine/rng.h"
#include "workload/gen.h"
#include "workload/workload.h"

/* Job `spec`'s placement options against the drive's `fdp`: 0 with its fixed placement (the
 * first of its list; 0 without one) in *first, or 1 with one line naming the job and the
 * option in why. */
int ssdsim__placement_job_check(const struct ssdsim__jobspec *spec,
                                const struct ssdsim__fdp_cfg *fdp, uint8_t *first, char *why,
                                size_t len);

/* The placement of a clone's next request of `op`: its fixed one, or for a write of a job
 * with a list (fdp_pli; fdp=1 alone: every placement id of the drive) the next of the list in
 * turn (*next counts) or at random (from `rng`, the clone's generator's). */
static inline uint8_t ssdsim__placement_next(const struct ssdsim__jobspec *spec,
                                             const struct ssdsim__fdp_cfg *fdp, uint8_t fixed,
                                             uint32_t *next, struct ssdsim__rng *rng, uint8_t op)
{
    if (!spec || op != SSDSIM__IO_WRITE)
        return fixed;
    uint32_t n = spec->n_placements ? spec->n_placements
                 : spec->fdp        ? fdp->handles * ssdsim__fdp_groups(fdp)
                                    : 0;
    if (n < 2)
        return fixed;
    uint32_t k = spec->pli_random ? (uint32_t)ssdsim__rng_below(rng, n) : (*next)++ % n;
    /* fdp_pli's and fdp=1's are indexes of the drive's placement ids (config/fdp_pid.h) */
    return (uint8_t)ssdsim__fdp_pli_placement(fdp, spec->n_placements ? spec->placements[k] : k);
}

#endif /* SSDSIM_HOST_PLACEMENT_H */
