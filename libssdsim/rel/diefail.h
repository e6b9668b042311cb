/* diefail.h: a failed die (rel/diefail.c): what the library asks of it. */
#ifndef SSDSIM_REL_DIEFAIL_H
#define SSDSIM_REL_DIEFAIL_H

#include "ftl/env.h"

struct ssdsim__diefail_stats {
    bool failed, rebuild_started, rebuild_done;
    uint32_t die;                     /* index in the hardware's numbering */
    uint32_t plane;                   /* the failed plane of it, or UINT32_MAX: the whole die */
    uint64_t failed_ns, rebuild_end_ns;
    uint64_t pages_on_die;            /* logical pages it held at the failure */
    uint64_t lost_pages;              /* of those, lost (no parity) */
    uint64_t reconstructed_reads, reconstruct_pages_read, unrecoverable_reads;
    uint64_t rebuild_pages, rebuild_pages_read, rebuild_lost;
};

/* Can a die of the FTL behind env fail (the page FTL, no SLC cache, not placed by address,
 * none failed yet)? 0, or SSDSIM_EINVAL with the reason in why. */
int ssdsim__diefail_can(const struct ssdsim_ftl_env *env, char *why, size_t len);
/* Fail die `die` (plane UINT32_MAX), or plane `plane` of it, of the page FTL behind env now. 0, or a code with the reason in why. */
int ssdsim__diefail_start(struct ssdsim_ftl_env *env, uint32_t die, uint32_t plane, char *why,
                          size_t len);
/* Its figures: false (nothing set) when no die failed. */
bool ssdsim__diefail_stats(const struct ssdsim_ftl_env *env, struct ssdsim__diefail_stats *out);

#endif /* SSDSIM_REL_DIEFAIL_H */
