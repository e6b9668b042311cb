/* model_zns.c: the zoned-namespace keys (zns.*) checked against the geometry and the FTL, and
 * the zone count they give. A zone is a stripe of whole erase blocks, the same number on every
 * plane (ftl/zoned.c), so its size is a whole number of block stripes; the drive holds as many
 * zones as the planes' blocks make, and no spare: a zoned drive does no garbage collection.
 */
#include "config/model_int.h"

#include <string.h>

/* Bytes of one block stripe: one erase block on every plane. */
static uint64_t stripe_bytes(const struct ssdsim_model *m)
{
    const struct ssdsim__geometry *g = &m->geometry;
    return ssdsim__geometry_planes(g) * g->pages_per_block * g->page_size;
}

uint64_t ssdsim__model_zns_zones(const struct ssdsim_model *m)
{
    uint64_t s = stripe_bytes(m);
    if (!m->zns.zone_size || !s || m->zns.zone_size % s)
        return 0;
    return m->geometry.blocks_per_plane / (m->zns.zone_size / s);
}

int ssdsim__model_check_zns(struct ctx *c)
{
    struct ssdsim_model *m = c->m;
    const struct ssdsim__zns_cfg *z = &m->zns;
    if (!z->zone_size)
        return ssdsim__model_error(c, "ftl.type",
                                   "the \"zoned\" FTL needs a zoned namespace (zns.zone_size)");
    if (strcmp(m->ftl.type, "zoned") != 0)
        return ssdsim__model_error(c, "ftl.type",
                                   "a zoned namespace (zns.zone_size) takes the \"zoned\" FTL, "
                                   "got \"%s\"",
                                   m->ftl.type);
    if (m->ftl.mapping_unit != m->geometry.page_size)
        return ssdsim__model_error(c, "ftl.mapping_unit",
                                   "a zoned drive writes one mapping unit per page: expected "
                                   "geometry.page_size (%u), got %u",
                                   m->geometry.page_size, m->ftl.mapping_unit);
    uint64_t s = stripe_bytes(m);
    if (z->zone_size % s)
        return ssdsim__model_error(c, "zns.zone_size",
                                   "expected a whole number of block stripes (one %u-page block "
                                   "on each of the %llu planes: %llu bytes), got %llu",
                                   m->geometry.pages_per_block,
                                   (unsigned long long)(s / m->geometry.pages_per_block /
                                                        m->geometry.page_size),
                                   (unsigned long long)s, (unsigned long long)z->zone_size);
    uint64_t k = z->zone_size / s;
    if (k > m->geometry.blocks_per_plane)
        return ssdsim__model_error(c, "zns.zone_size",
                                   "a zone takes %llu blocks of each plane; a plane has %u",
                                   (unsigned long long)k, m->geometry.blocks_per_plane);
    if (z->zone_capacity > z->zone_size)
        return ssdsim__model_error(c, "zns.zone_capacity",
                                   "%llu bytes are more than the zone (zns.zone_size %llu)",
                                   (unsigned long long)z->zone_capacity,
                                   (unsigned long long)z->zone_size);
    if (z->zone_capacity % m->ftl.mapping_unit)
        return ssdsim__model_error(c, "zns.zone_capacity",
                                   "expected a whole number of mapping units (%u bytes), got %llu",
                                   m->ftl.mapping_unit, (unsigned long long)z->zone_capacity);
    if (z->max_open && z->max_active && z->max_open > z->max_active)
        return ssdsim__model_error(c, "zns.max_open",
                                   "%u open zones are more than the active ones allowed "
                                   "(zns.max_active %u)",
                                   z->max_open, z->max_active);
    if (ssdsim__slc_on(&m->slc))
        return ssdsim__model_error(c, "slc",
                                   "an SLC cache is not modelled on a zoned drive (zns.zone_size)");
    if (m->ftl.parity_group)
        return ssdsim__model_error(c, "ftl.parity_group",
                                   "parity inside the drive is not modelled on a zoned drive "
                                   "(zns.zone_size)");
    return 0;
}
