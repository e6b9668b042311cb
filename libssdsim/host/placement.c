/* placement.c: a generated job's FDP placement options checked against the drive (placement=N
 * names a placement id, fio's fdp_pli indexes of the drive's ids, fdp=1 needs handles), with the
 * job's fixed placement; the per-request choice is placement.h's. Timed runs (host.c) and
 * functional fast-forward (fastfwd.c) both check a job here, so both refuse the same job with
 * the same line.
 */
#include "host/placement.h"

#include <string.h>

int ssdsim__placement_job_check(const struct ssdsim__jobspec *spec,
                                const struct ssdsim__fdp_cfg *fdp, uint8_t *first, char *why,
                                size_t len)
{
    const char *name = spec->name ? spec->name : "job";
    uint32_t handles = fdp->handles, groups = ssdsim__fdp_groups(fdp);
    bool pli = spec->placement_opt && !strcmp(spec->placement_opt, "fdp_pli");
    *first = 0;
    if (spec->placement_given && spec->fdp) {
        /* two ways to name a job's placement ids: whichever came last would win unsaid */
        snprintf(why, len,
                 "job '%s': placement: conflicts with fdp=1 (placement names the one placement "
                 "id of every write; with fdp=1, fdp_pli lists the ids)",
                 name);
        return 1;
    }
    for (uint32_t k = 0; k < spec->n_placements; k++) {
        uint32_t v = spec->placements[k], placement = 0;
        char pwhy[200] = "";
        bool bad = pli ? v >= (handles ? handles * groups : 1)
                       : ssdsim__fdp_pid_decode(fdp, v, &placement, pwhy, sizeof pwhy);
        if (bad) {
            if (pli && groups > 1)
                snprintf(why, len,
                         "job '%s': fdp_pli: placement id index %u is beyond the drive's %u "
                         "placement ids (fdp.handles %u x fdp.reclaim_groups %u)",
                         name, v, handles * groups, handles, groups);
            else if (pli)
                snprintf(why, len,
                         "job '%s': fdp_pli: placement id %u is beyond the model's placement "
                         "handles (fdp.handles %u)",
                         name, v, handles);
            else
                snprintf(why, len, "job '%s': %s: placement id %s", name,
                         spec->placement_opt ? spec->placement_opt : "placement", pwhy);
            return 1;
        }
        if (k == 0)
            *first = (uint8_t)(pli ? ssdsim__fdp_pli_placement(fdp, v) : placement);
    }
    if (spec->fdp && !handles) {
        snprintf(why, len,
                 "job '%s': fdp: the drive has no placement handles (model key fdp.handles)",
                 name);
        return 1;
    }
    if (pli && !spec->fdp) {
        snprintf(why, len, "job '%s': fdp_pli: placement ids need fdp=1", name);
        return 1;
    }
    return 0;
}
