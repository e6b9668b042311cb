/* fdp_api.c: the Flexible Data Placement figures of a run per placement handle
 * (ssdsim_get_fdp_stats): the run's growth of the counters the page FTL keeps per handle
 * (ftl/page_fdp.c), in bytes of mapping units.
 */
#include "sim.h"

int ssdsim_get_fdp_stats(const ssdsim *sim, uint32_t handle, ssdsim_fdp_stats *out)
{
    if (!sim || !out)
        return ssdsim__fail(sim, SSDSIM_EINVAL, "ssdsim_get_fdp_stats: NULL argument");
    uint32_t handles = sim->sys.dev_model->fdp.handles;
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
