/* The blocks per plane each built-in FTL keeps out of the space garbage collection works with
 * (free blocks at the GC watermark, open frontiers, translation pages, RAIN parity pages, a
 * merge block), and the effective spare factor that leaves: one place for this arithmetic,
 * which page_setup, page_install, fast preconditioning, the scaled copies and the device
 * results all ask. */
#include "ftl/reserve.h"

#include "common.h"
#include "config/model.h"

#include <math.h>
#include <string.h>

void ssdsim__page_reserve(uint32_t free_blocks_min, uint32_t free_blocks_target, bool hot_cold,
                          bool separate, bool dftl, uint32_t fdp_handles, bool fdp_persistent,
                          bool parity, struct ssdsim__page_reserve *out)
{
    out->gc_reserve = hot_cold ? 2 : 1;
    out->gc_min = SSDSIM__MAX(free_blocks_min, out->gc_reserve + 1);
    out->gc_target = SSDSIM__MAX(free_blocks_target, out->gc_min);
    if (fdp_handles) /* (the model refuses hot_cold with FDP) */
        out->open = fdp_handles + (separate ? (fdp_persistent ? fdp_handles : 1) : 0) +
                    (parity ? 1 : 0) + (dftl ? 1 : 0);
    else
        out->open = 1 + (separate ? 1 : 0) + (hot_cold ? 1 : 0) +
                    (hot_cold && separate ? 1 : 0) + (dftl ? 1 : 0);
}

void ssdsim__model_page_reserve(const struct ssdsim_model *m, struct ssdsim__page_reserve *out)
{
    ssdsim__page_reserve(m->gc.free_blocks_min, m->gc.free_blocks_target, m->ftl.hot_cold,
                         m->gc.separate != 0, !strcmp(m->ftl.type, "dftl"), m->fdp.handles,
                         m->fdp.isolation == SSDSIM__FDP_PERSISTENT, m->ftl.parity_group > 1, out);
}

void ssdsim__slc_geometry(const struct ssdsim_model *m, struct ssdsim__slc_geom *out)
{
    memset(out, 0, sizeof *out);
    if (m->kind != SSDSIM__KIND_SSD || !ssdsim__slc_on(&m->slc) || m->flash.n_page_types < 2)
        return;
    const struct ssdsim__geometry *g = &m->geometry;
    uint64_t planes = ssdsim__geometry_planes(g);
    out->pages = g->pages_per_block / m->flash.n_page_types;
    uint64_t block_bytes = (uint64_t)out->pages * g->page_size;
    if (!block_bytes)
        return;
    uint64_t st = (m->slc.static_bytes + block_bytes - 1) / block_bytes;
    st = (st + planes - 1) / planes;
    out->static_per_plane = st > UINT32_MAX ? UINT32_MAX : (uint32_t)st;
    out->dyn_max_blocks = m->slc.dynamic_bytes / block_bytes;
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
        ssdsim__model_page_reserve(m, &r);
        struct ssdsim__slc_geom sg;
        ssdsim__slc_geometry(m, &sg);
        out->blocks = r.gc_target + r.open + sg.static_per_plane;
        if (dftl) {
            /* a translation page is one mapping unit of 4-byte entries, a block holds
             * ppb x page_size / mapping_unit of them */
            double epp = m->ftl.mapping_unit / 4;
            out->map_blocks = ceil(units / epp) / planes / (ppb * g->page_size / m->ftl.mapping_unit);
        }
        /* RAIN parity (ftl/page_parity.c): a parity page is garbage from its program on and
         * waits for its superblock's erase, so on average one page in parity_group of every block
         * is not there for data: the spare shrinks by that much, user capacity does not. */
        if (m->ftl.parity_group > 1)
            out->parity_blocks = floor(phys / m->ftl.parity_group) / planes / ppb;
    } else if (!strcmp(type, "fast")) {
        out->blocks = 1; /* the block a full merge fills before the old data block is erased */
    } else if (!strcmp(type, "direct")) {
        out->blocks = 0; /* written in place */
    } else {
        out->known = false;
        out->spare_factor_effective = NAN;
        return;
    }
    double kept = (out->blocks + out->map_blocks + out->parity_blocks) * ppb * planes;
    out->spare_factor_effective = (phys - logical - kept) / phys;
}

void ssdsim__reserve_warn(const struct ssdsim_model *m)
{
    struct ssdsim__reserve r;
    ssdsim__model_reserve(m, &r);
    double kept = r.blocks + r.map_blocks + r.parity_blocks;
    if (!r.known || !(r.spare_blocks > 0) || kept <= 0.05 * r.spare_blocks)
        return;
    if (r.parity_blocks > 0) {
        ssdsim__log(SSDSIM_LOG_WARNING,
                    "the FTL keeps %.3g of %.3g spare blocks per plane in reserve and RAIN "
                    "parity takes %.3g more (%.1f%% of the spare in all): WAF will be higher "
                    "than the nominal over-provisioning implies",
                    r.blocks + r.map_blocks, r.spare_blocks, r.parity_blocks,
                    100 * kept / r.spare_blocks);
        return;
    }
    ssdsim__log(SSDSIM_LOG_WARNING,
                "the FTL keeps %.3g of %.3g spare blocks per plane in reserve (%.1f%% of the "
                "spare): WAF will be higher than the nominal over-provisioning implies",
                kept, r.spare_blocks, 100 * kept / r.spare_blocks);
}
