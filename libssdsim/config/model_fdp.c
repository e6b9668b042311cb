/* model_fdp.c: the Flexible Data Placement keys (fdp.*) checked against the rest of the model.
 * Placement handles are write frontiers of the page FTL (ftl/page_fdp.c), each with an open
 * block (its reclaim unit) on every plane, and with persistent isolation and gc.separate a GC
 * frontier of its own too: those open blocks come out of the spare, which must still hold the
 * GC watermark. Hot/cold separation places host writes by their age, FDP by the host's handle:
 * the two would decide the same write's frontier, so they cannot be on together. A write's
 * handle reaches the FTL with the write, through the write buffer too (dev/buffer.c keeps it
 * per unit); an SLC cache that folds its blocks later would lose it. Reclaim groups are sets
 * of whole dies (so their count divides the dies), a write's group and handle travel as one
 * byte (so handles x groups is at most 256), and RAIN's superblocks span every die (so the two
 * are not modelled together).
 */
#include "config/model_int.h"
#include "ftl/reserve.h"

#include <string.h>

int ssdsim__model_check_fdp(struct ctx *c)
{
    struct ssdsim_model *m = c->m;
    if (strcmp(m->ftl.type, "page") != 0)
        return ssdsim__model_error(c, "fdp.handles",
                                   "placement handles are write frontiers of the \"page\" FTL "
                                   "(ftl.type is \"%s\")",
                                   m->ftl.type);
    if (m->ftl.hot_cold)
        return ssdsim__model_error(c, "fdp.handles",
                                   "placement handles and hot/cold separation (ftl.hot_cold) "
                                   "would both choose a write's frontier: turn ftl.hot_cold off");
    if (m->zns.zone_size)
        return ssdsim__model_error(c, "fdp.handles",
                                   "a zoned namespace (zns.zone_size) has no placement handles");
    if (ssdsim__slc_on(&m->slc))
        return ssdsim__model_error(c, "fdp.handles",
                                   "placement through an SLC cache (slc.*) is not modelled");
    uint32_t groups = m->fdp.reclaim_groups ? m->fdp.reclaim_groups : 1;
    if (groups > 1) {
        const struct ssdsim__geometry *g = &m->geometry;
        uint64_t dies = (uint64_t)g->channels * g->chips_per_channel * g->dies_per_chip;
        if (dies % groups)
            return ssdsim__model_error(c, "fdp.reclaim_groups",
                                       "%u reclaim groups do not divide the drive's %llu dies (a "
                                       "group is a set of whole dies)",
                                       groups, (unsigned long long)dies);
        if ((uint64_t)groups * m->fdp.handles > SSDSIM__FDP_MAX_PLACEMENTS)
            return ssdsim__model_error(c, "fdp.reclaim_groups",
                                       "%u reclaim groups of %u placement handles make %llu "
                                       "placements; at most %d are modelled",
                                       groups, m->fdp.handles,
                                       (unsigned long long)groups * m->fdp.handles,
                                       SSDSIM__FDP_MAX_PLACEMENTS);
        if (m->ftl.parity_group > 1)
            return ssdsim__model_error(c, "fdp.reclaim_groups",
                                       "RAIN superblocks (ftl.parity_group) span every die, "
                                       "across reclaim groups: not modelled together");
    }
    return 0;
}

int ssdsim__model_check_fdp_spare(struct ctx *c, uint64_t spare)
{
    struct ssdsim_model *m = c->m;
    struct ssdsim__page_reserve r;
    ssdsim__model_page_reserve(m, &r);
    uint64_t need = (uint64_t)r.gc_target + r.open;
    if (spare >= need)
        return 0;
    bool two = m->gc.separate && m->fdp.isolation == SSDSIM__FDP_PERSISTENT;
    return ssdsim__model_error(
        c, "fdp.handles",
        "%u placement handles keep %u open blocks per plane (%s%s), which with the GC watermark "
        "(%u) need %llu spare blocks per plane; over-provisioning (ftl.op) leaves %llu",
        m->fdp.handles, r.open,
        two                ? "a host and a GC frontier each"
        : m->gc.separate   ? "a host frontier each, and GC's"
                           : "a host frontier each",
        m->ftl.parity_group > 1 ? ", and RAIN parity's" : "", r.gc_target,
        (unsigned long long)need, (unsigned long long)spare);
}
