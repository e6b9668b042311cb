/* The blocks per plane each built-in FTL keeps out of the space garbage collection works with
 * (free blocks at the GC watermark, open frontiers, translation pages, a merge block), and the
 * effective spare factor that leaves: one place for this arithmetic, which page_setup,
 * page_install, fast preconditioning, the scaled copies and the device results all ask. */
#include "ftl/reserve.h"

#include "common.h"
#include "config/model.h"

#include <math.h>
#include <string.h>

void ssdsim__page_reserve(uint32_t free_blocks_min, uint32_t free_blocks_target, bool hot_cold,
                          bool separate, bool dftl, struct ssdsim__page_reserve *out)
{
    out->gc_reserve = hot_cold ? 2 : 1;
    out->gc_min = SSDSIM__MAX(free_blocks_min, out->gc_reserve + 1);
    out->gc_target = SSDSIM__MAX(free_blocks_target, out->gc_min);
    out->open = 1 + (separate ? 1 : 0) + (hot_cold ? 1 : 0) + (hot_cold && separate ? 1 : 0) +
                (dftl ? 1 : 0);
}

void ssdsim__model_reserve(const struct ssdsim_model *m, struct ssdsim__reserve *out)
{
    memset(out, 0, sizeof *out);
    out->known = true;
    if (m->kind != SSDSIM__KIND_SSD)
        return;
    const struct ssdsim__geometry *g = &m->geometry;
    double planes = (double)g->channels * g->chips_per_channel * g->dies_per_chip *
                    g->planes_per_die;
    double ppb = g->pages_per_block;
    double phys = (double)ssdsim__model_physical_pages(m);
    double units = (double)ssdsim__model_logical_pages(m);
    double logical = units * m->ftl.mapping_unit / g->page_size; /* in pages */
    if (!(phys > 0))
        return;
    out->spare_blocks = (phys - logical) / planes / ppb;
    out->spare_factor = (phys - logical) / phys;
    const char *type = m->ftl.type;
    bool dftl = !strcmp(type, "dftl");
    if (!strcmp(type, "page") || dftl) {
        struct ssdsim__page_reserve r;
        ssdsim__page_reserve(m->gc.free_blocks_min, m->gc.free_blocks_target, m->ftl.hot_cold != 0,
                             m->gc.separate != 0, dftl, &r);
        out->blocks = r.gc_target + r.open;
        if (dftl) {
            /* a translation page is one mapping unit of 4-byte entries, a block holds
             * ppb x page_size / mapping_unit of them */
            double epp = m->ftl.mapping_unit / 4;
            out->map_blocks = ceil(units / epp) / planes / (ppb * g->page_size / m->ftl.mapping_unit);
        }
    } else if (!strcmp(type, "fast")) {
        out->blocks = 1; /* the block a full merge fills before the old data block is erased */
    } else if (!strcmp(type, "direct")) {
        out->blocks = 0; /* written in place */
    } else {
        out->known = false;
        out->spare_factor_effective = NAN;
        return;
    }
    double kept = (out->blocks + out->map_blocks) * ppb * planes;
    out->spare_factor_effective = (phys - logical - kept) / phys;
}

void ssdsim__reserve_warn(const struct ssdsim_model *m)
{
    struct ssdsim__reserve r;
    ssdsim__model_reserve(m, &r);
    double kept = r.blocks + r.map_blocks;
    if (!r.known || !(r.spare_blocks > 0) || kept <= 0.05 * r.spare_blocks)
        return;
    ssdsim__log(SSDSIM_LOG_WARNING,
                "the FTL keeps %.3g of %.3g spare blocks per plane in reserve (%.1f%% of the "
                "spare): WAF will be higher than the nominal over-provisioning implies",
                kept, r.spare_blocks, 100 * kept / r.spare_blocks);
}
