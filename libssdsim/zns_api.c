/* zns_api.c: the public view of a zoned drive's zones (ssdsim_report_zones, the NVMe Zone
 * Management Receive's report) and its zone figures (ssdsim_get_zns_stats). The zones
 * themselves are dev/zns.c's.
 */
#include "sim.h"
#include "dev/zns.h"

static const struct ssdsim__zns *zns_of(const ssdsim *sim)
{
    if (!sim || sim->sys.n_devs != 1)
        return NULL;
    return sim->sys.devs[0].zns;
}

int ssdsim_report_zones(const ssdsim *sim, uint64_t first, ssdsim_zone *out, size_t n,
                        size_t *n_out)
{
    const struct ssdsim__zns *z = zns_of(sim);
    if (n_out)
        *n_out = 0;
    if (!z || !out || !n_out)
        return ssdsim__fail(sim, SSDSIM_EINVAL,
                            "ssdsim_report_zones: %s", !z ? "the drive has no zones (model key "
                                                            "zns.zone_size)"
                                                          : "NULL argument");
    if (first >= z->n_zones)
        return ssdsim__fail(sim, SSDSIM_EINVAL,
                            "ssdsim_report_zones: zone %llu is beyond the last (%llu zones)",
                            (unsigned long long)first, (unsigned long long)z->n_zones);
    size_t k = 0;
    for (uint64_t i = first; i < z->n_zones && k < n; i++, k++) {
        out[k] = (ssdsim_zone){
            .start = i * z->zone_size,
            .size = z->zone_size,
            .capacity = z->capacity,
            .write_pointer = i * z->zone_size + z->z[i].wp,
            .state = (enum ssdsim_zone_state)z->z[i].state,
        };
    }
    *n_out = k;
    return 0;
}

int ssdsim_get_zns_stats(const ssdsim *sim, ssdsim_zns_stats *out)
{
    const struct ssdsim__zns *z = zns_of(sim);
    if (!z || !out)
        return ssdsim__fail(sim, SSDSIM_EINVAL, "ssdsim_get_zns_stats: %s",
                            !z ? "the drive has no zones (model key zns.zone_size)"
                               : "NULL argument");
    *out = z->st;
    out->open = z->n_open;
    out->active = z->n_active;
    return 0;
}
