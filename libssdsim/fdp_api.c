/* fdp_api.c: the Flexible Data Placement figures of a run (ssdsim_get_fdp_stats per placement
 * handle, ssdsim_get_fdp_group_stats per reclaim group, ssdsim_get_fdp_log for the drive's
 * statistics and event logs): the run's growth of the counters the page FTL keeps
 * (ftl/page_fdp.c), in bytes of mapping units (of blocks for the bytes erased); placement ids
 * as the host gives them (ssdsim_fdp_placement_id); and the host's Reclaim Unit Handle Update
 * (ssdsim_fdp_ruh_update), done on every device of the system.
 */
#include "sim.h"
#include "config/fdp_pid.h"
#include "ftl/page.h"

#include <stdio.h>

static int no_fdp(const ssdsim *sim, const char *fn)
{
    return ssdsim__fail(sim, SSDSIM_EINVAL,
                        "%s: the model has no placement handles (model key fdp.handles)", fn);
}

int ssdsim_get_fdp_stats(const ssdsim *sim, uint32_t handle, ssdsim_fdp_stats *out)
{
    if (!sim || !out)
        return ssdsim__fail(sim, SSDSIM_EINVAL, "ssdsim_get_fdp_stats: NULL argument");
    uint32_t handles = sim->sys.dev_model->fdp.handles;
    if (handles == 0)
        return no_fdp(sim, "ssdsim_get_fdp_stats");
    if (handle >= handles)
        return ssdsim__fail(sim, SSDSIM_EINVAL,
                            "ssdsim_get_fdp_stats: handle %u is beyond the model's placement "
                            "handles (fdp.handles %u)",
                            handle, handles);
    struct ssdsim__env_counters c;
    ssdsim__stats_counters(&sim->stats, &c);
    uint64_t unit = sim->sys.dev_model->ftl.mapping_unit;
    out->host_bytes = c.c[SSDSIM__CNT_FDP_HOST + handle] * unit;
    out->media_bytes = c.c[SSDSIM__CNT_FDP_MEDIA + handle] * unit;
    out->waf = out->host_bytes ? (double)out->media_bytes / (double)out->host_bytes : 0.0;
    return 0;
}

static uint64_t block_bytes(const struct ssdsim_model *m)
{
    return (uint64_t)m->geometry.pages_per_block * m->geometry.page_size;
}

int ssdsim_get_fdp_group_stats(const ssdsim *sim, uint32_t group, ssdsim_fdp_group_stats *out)
{
    if (!sim || !out)
        return ssdsim__fail(sim, SSDSIM_EINVAL, "ssdsim_get_fdp_group_stats: NULL argument");
    const struct ssdsim_model *m = sim->sys.dev_model;
    if (!m->fdp.handles)
        return no_fdp(sim, "ssdsim_get_fdp_group_stats");
    uint32_t groups = ssdsim__fdp_groups(&m->fdp);
    if (group >= groups)
        return ssdsim__fail(sim, SSDSIM_EINVAL,
                            "ssdsim_get_fdp_group_stats: group %u is beyond the model's reclaim "
                            "groups (fdp.reclaim_groups %u)",
                            group, groups);
    struct ssdsim__env_counters c;
    ssdsim__stats_counters(&sim->stats, &c);
    uint64_t unit = m->ftl.mapping_unit;
    out->host_bytes = c.c[SSDSIM__CNT_FDP_RG_HOST + group] * unit;
    out->media_bytes = c.c[SSDSIM__CNT_FDP_RG_MEDIA + group] * unit;
    out->media_bytes_erased = c.c[SSDSIM__CNT_FDP_RG_ERASED + group] * block_bytes(m);
    out->reallocated_bytes = c.c[SSDSIM__CNT_FDP_RG_REALLOC + group] * unit;
    return 0;
}

int ssdsim_get_fdp_log(const ssdsim *sim, ssdsim_fdp_log *out)
{
    if (!sim || !out)
        return ssdsim__fail(sim, SSDSIM_EINVAL, "ssdsim_get_fdp_log: NULL argument");
    const struct ssdsim_model *m = sim->sys.dev_model;
    if (!m->fdp.handles)
        return no_fdp(sim, "ssdsim_get_fdp_log");
    struct ssdsim__env_counters c;
    ssdsim__stats_counters(&sim->stats, &c);
    uint64_t unit = m->ftl.mapping_unit;
    *out = (ssdsim_fdp_log){0};
    for (uint32_t h = 0; h < m->fdp.handles; h++) {
        out->host_bytes += c.c[SSDSIM__CNT_FDP_HOST + h] * unit;
        out->media_bytes += c.c[SSDSIM__CNT_FDP_MEDIA + h] * unit;
    }
    for (uint32_t g = 0; g < ssdsim__fdp_groups(&m->fdp); g++) {
        out->media_bytes_erased += c.c[SSDSIM__CNT_FDP_RG_ERASED + g] * block_bytes(m);
        out->media_reallocated += c.c[SSDSIM__CNT_FDP_RG_REALLOC + g];
    }
    out->ru_not_fully_written = c.c[SSDSIM__CNT_FDP_EV_RUNFW];
    out->ruh_updates = c.c[SSDSIM__CNT_FDP_RUH_UPDATES];
    return 0;
}

int ssdsim_fdp_placement_id(const ssdsim *sim, uint32_t group, uint32_t handle, uint32_t *out)
{
    if (!sim || !out)
        return ssdsim__fail(sim, SSDSIM_EINVAL, "ssdsim_fdp_placement_id: NULL argument");
    const struct ssdsim__fdp_cfg *c = &sim->sys.dev_model->fdp;
    if (!c->handles)
        return no_fdp(sim, "ssdsim_fdp_placement_id");
    if (group >= ssdsim__fdp_groups(c) || handle >= c->handles)
        return ssdsim__fail(sim, SSDSIM_EINVAL,
                            "ssdsim_fdp_placement_id: group %u, handle %u: the model has %u "
                            "reclaim groups (fdp.reclaim_groups) of %u handles (fdp.handles)",
                            group, handle, ssdsim__fdp_groups(c), c->handles);
    *out = ssdsim__fdp_pid(c, group, handle);
    return 0;
}

int ssdsim_fdp_ruh_update(ssdsim *sim, uint32_t placement_id)
{
    if (!sim)
        return ssdsim__fail(sim, SSDSIM_EINVAL, "ssdsim_fdp_ruh_update: NULL argument");
    const struct ssdsim__fdp_cfg *c = &sim->sys.dev_model->fdp;
    if (!c->handles)
        return no_fdp(sim, "ssdsim_fdp_ruh_update");
    uint32_t placement;
    char why[200];
    if (ssdsim__fdp_pid_decode(c, placement_id, &placement, why, sizeof why))
        return ssdsim__fail(sim, SSDSIM_EINVAL, "ssdsim_fdp_ruh_update: placement: %s", why);
    for (uint32_t i = 0; i < sim->sys.n_devs; i++) {
        if (!sim->sys.devs[i].ssd)
            continue;
        if (ssdsim__page_fdp_ruh_update_env(&sim->sys.devs[i].env, placement, why, sizeof why))
            return ssdsim__fail(sim, SSDSIM_EINVAL, "ssdsim_fdp_ruh_update: %s", why);
    }
    return 0;
}
