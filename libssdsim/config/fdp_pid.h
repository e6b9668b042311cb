/* fdp_pid.h: Flexible Data Placement placement identifiers (NVMe TP4146) as the host gives them,
 * and the placement the drive carries inside. A placement identifier is 16 bits: its most
 * significant RGIF bits (Reclaim Group Identifier Format) name the reclaim group, the rest the
 * placement handle. The model takes RGIF as the fewest bits that hold every group's number
 * (ceil(log2(fdp.reclaim_groups)), 0 with one group, where the id is the handle alone), so with
 * 2 groups group 1's handle 3 is 0x8003. Inside the drive a write's placement travels as one
 * byte (per request, per buffered unit, in the FTL's environment): group x handles + handle,
 * below SSDSIM__FDP_MAX_PLACEMENTS, which is the placement id itself with one group.
 *
 * fio's fdp_pli names placement ids by their index in the Reclaim Unit Handle Status the drive
 * reports, which lists, as QEMU's NVMe controller does, every group of handle 0, then of
 * handle 1, and so on: index k is handle k / groups of group k % groups.
 */
#ifndef SSDSIM_CONFIG_FDP_PID_H
#define SSDSIM_CONFIG_FDP_PID_H

#include "config/model.h"

#include <stdio.h>

static inline uint32_t ssdsim__fdp_groups(const struct ssdsim__fdp_cfg *c)
{
    return c->reclaim_groups > 1 ? c->reclaim_groups : 1;
}

/* RGIF: the bits of a placement id that name its reclaim group. */
static inline uint32_t ssdsim__fdp_rgif(const struct ssdsim__fdp_cfg *c)
{
    uint32_t bits = 0, groups = ssdsim__fdp_groups(c);
    while ((1u << bits) < groups)
        bits++;
    return bits;
}

static inline uint32_t ssdsim__fdp_pid(const struct ssdsim__fdp_cfg *c, uint32_t group,
                                       uint32_t handle)
{
    uint32_t rgif = ssdsim__fdp_rgif(c);
    return rgif ? group << (16 - rgif) | handle : handle;
}

/* Placement id `pid` inside the drive (group x handles + handle) in *placement: 0, or 1 with
 * the reason into why ("N is beyond ..."). A drive without FDP takes 0 only. */
static inline int ssdsim__fdp_pid_decode(const struct ssdsim__fdp_cfg *c, uint32_t pid,
                                         uint32_t *placement, char *why, size_t len)
{
    uint32_t handles = c->handles, rgif = ssdsim__fdp_rgif(c);
    uint32_t group = rgif && pid < 0x10000 ? pid >> (16 - rgif) : 0;
    uint32_t handle = rgif && pid < 0x10000 ? pid & ((1u << (16 - rgif)) - 1) : pid;
    if (handle >= (handles ? handles : 1)) {
        if (rgif && pid < 0x10000)
            snprintf(why, len,
                     "%u (reclaim group %u, handle %u) is beyond the model's placement handles "
                     "(fdp.handles %u)",
                     pid, group, handle, handles);
        else
            snprintf(why, len, "%u is beyond the model's placement handles (fdp.handles %u)",
                     pid, handles);
        return 1;
    }
    if (group >= ssdsim__fdp_groups(c)) {
        snprintf(why, len,
                 "%u names reclaim group %u (its top %u bits), beyond the model's reclaim groups "
                 "(fdp.reclaim_groups %u)",
                 pid, group, rgif, ssdsim__fdp_groups(c));
        return 1;
    }
    *placement = group * (handles ? handles : 1) + handle;
    return 0;
}

/* The placement (group x handles + handle) of fio's placement id index k (fdp_pli). */
static inline uint32_t ssdsim__fdp_pli_placement(const struct ssdsim__fdp_cfg *c, uint32_t k)
{
    uint32_t groups = ssdsim__fdp_groups(c);
    return k % groups * c->handles + k / groups;
}

#endif /* SSDSIM_CONFIG_FDP_PID_H */
