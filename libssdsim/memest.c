/* memest.c: the memory estimate of a model's simulation and the refusal of a model too large
 * for the machine (memest.h). The byte counts follow the allocations of ftl/page.c,
 * ftl/page_dftl.c, ftl/page_parity.c, ftl/fast.c, ftl/direct.c, ftl/zoned.c and hw/hw.c; a
 * change of an array's type there changes the count here (tests/test_memest.c checks one by
 * hand). Also the message refusing more outstanding requests than SSDSIM__OUTSTANDING_MAX.
 */
#include "memest.h"
#include "common.h"
#include "config/units.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Bytes per block of the page FTL's block table: valid (2), state (1), free_next (4),
 * closed_at and modified_at (8 each); and of its GC candidates (gc/cands.c): bucket and
 * close-order links, sampling slot and index (4 each). */
#define PAGE_BLOCK_BYTES (23u + 24u)

static uint64_t ssd_memory(const struct ssdsim_model *m)
{
    const struct ssdsim__geometry *g = &m->geometry;
    uint64_t planes = ssdsim__geometry_planes(g);
    uint64_t blocks = planes * g->blocks_per_plane;
    uint32_t unit = m->ftl.mapping_unit ? m->ftl.mapping_unit : g->page_size;
    uint64_t spp = unit < g->page_size ? g->page_size / unit : 1;
    uint64_t ppu = unit > g->page_size ? unit / g->page_size : 1;
    /* physical mapping units (hw.c's n_pages) and logical ones */
    uint64_t ppb = g->pages_per_block * spp / ppu;
    uint64_t phys = blocks * ppb;
    uint64_t lpn = ssdsim__model_logical_pages(m);
    uint64_t b = blocks * 4; /* the FTL environment's erase counts (ftl/env.c) */

    /* the hardware model, per block */
    if (ssdsim__slc_on(&m->slc))
        b += blocks; /* slc_block */
    if (spp > 1)
        b += blocks * 16; /* held, held_next, held_mark, blk_wp */

    const char *t = m->ftl.type;
    bool dftl = !strcmp(t, "dftl");
    if (!strcmp(t, "page") || dftl) {
        uint64_t map = lpn;
        b += blocks * PAGE_BLOCK_BYTES;
        b += planes * (ppb + 1) * 8; /* the candidates' bucket heads and tails */
        if (dftl) {
            uint64_t epp = g->page_size / 4;
            uint64_t tps = (lpn + epp - 1) / epp;
            uint64_t cap = (uint64_t)m->ftl.params[0];
            if (cap > lpn)
                cap = lpn;
            map += tps;
            b += lpn * 4;  /* slot_of */
            b += cap * 21; /* lpn, prev, next, tp_prev, tp_next (4 each), dirty (1) */
            b += tps * 13; /* tp_slots, tp_waiters, tp_stamp (4 each), tp_pending (1) */
        }
        b += map * 4;  /* l2p */
        b += phys * 4;             /* p2l */
        b += (phys + 63) / 64 * 8; /* the bit per physical page saying it holds valid data */
        if (m->ftl.hot_cold)
            b += lpn * 4; /* host_written_at */
        if (m->flash.multiplane && m->flash.multiplane_same_block && g->planes_per_die > 1 &&
            m->ftl.parity_group <= 1)
            b += blocks * 4 + blocks / g->planes_per_die * 4; /* free_prev, pair_next */
        if (m->fdp.handles)
            b += lpn + blocks; /* FDP: the handle per logical unit, the owner per block */
        if (m->ftl.parity_group > 1) {
            b += (phys + 3) / 4; /* the stripe marks, 2 bits per physical unit */
            /* superblocks (ftl/page_super.c), one per block of a plane: valid count, data
             * pages, free link (4 each), state (1), close and modification times (8 each),
             * candidate links and index (24); two bucket heads per superblock valid count */
            b += (uint64_t)g->blocks_per_plane * 53 + (planes * ppb + 1) * 8;
        }
    } else if (!strcmp(t, "fast")) {
        /* l2p, p2l, the data-block map (4 bytes each); per block role (1), owner, wptr,
         * valid and free_next (4 each) */
        b += lpn * 4 + phys * 4 + (lpn + g->pages_per_block - 1) / g->pages_per_block * 4 +
             blocks * 17;
    } else if (!strcmp(t, "direct") || !strcmp(t, "zoned")) {
        /* the written bitmap; per block valid (4), and zoned's dirty (1) */
        b += (lpn + 63) / 64 * 8 + blocks * (strcmp(t, "zoned") ? 4 : 5);
    }
    return b;
}

uint64_t ssdsim__model_memory(const struct ssdsim_model *m)
{
    if (!m)
        return 0;
    if (m->kind == SSDSIM__KIND_SYSTEM)
        return m->system.member ? ssdsim__model_memory(m->system.member) * m->system.count : 0;
    if (m->kind != SSDSIM__KIND_SSD)
        return 0;
    return ssd_memory(m);
}

static double gib(uint64_t bytes)
{
    return (double)bytes / (1024.0 * 1024.0 * 1024.0);
}

int ssdsim__memory_check(const struct ssdsim_model *m, ssdsim_error *err)
{
    uint64_t need = ssdsim__model_memory(m);
    uint64_t limit = 0;
    const char *what = "the machine's physical memory";
    const char *env = getenv("SSDSIM_MEMORY_LIMIT");
    if (env && *env) {
        if (ssdsim__units_parse_size(env, &limit) || limit == 0)
            return ssdsim__error_set(err, SSDSIM_EINVAL, NULL, NULL,
                                     "environment variable SSDSIM_MEMORY_LIMIT: '%s' is no size "
                                     "(expected bytes such as 17179869184 or 16GiB)",
                                     env);
        what = "SSDSIM_MEMORY_LIMIT";
    } else {
        long page = sysconf(_SC_PAGESIZE), pages = sysconf(_SC_PHYS_PAGES);
        if (page <= 0 || pages <= 0)
            return 0; /* the system cannot tell: nothing to compare with */
        limit = (uint64_t)pages * (uint64_t)page;
    }
    if (need <= limit)
        return 0;
    return ssdsim__error_set(err, SSDSIM_ENOMEM, m->label, NULL,
                             "the simulation would need at least %llu bytes (%.1f GiB) for its "
                             "mapping and block arrays, more than %s (%llu bytes, %.1f GiB)",
                             (unsigned long long)need, gib(need), what,
                             (unsigned long long)limit, gib(limit));
}

int ssdsim__outstanding_check(uint64_t numjobs, uint64_t iodepth, uint64_t total, char *why,
                              size_t len)
{
    if (total <= SSDSIM__OUTSTANDING_MAX)
        return 0;
    char with[96] = "";
    if (total > numjobs * iodepth)
        snprintf(with, sizeof with, " with the jobs run alongside, %llu in all",
                 (unsigned long long)total);
    uint64_t bytes = total * SSDSIM__REQUEST_BYTES;
    snprintf(why, len,
             "numjobs x iodepth = %llu x %llu = %llu requests outstanding%s would take about "
             "%llu bytes (%.1f GiB, %u bytes each) of host memory; at most %llu (%.1f GiB) may be "
             "outstanding at once: lower numjobs or iodepth",
             (unsigned long long)numjobs, (unsigned long long)iodepth,
             (unsigned long long)(numjobs * iodepth), with, (unsigned long long)bytes, gib(bytes),
             SSDSIM__REQUEST_BYTES, (unsigned long long)SSDSIM__OUTSTANDING_MAX,
             gib(SSDSIM__OUTSTANDING_MAX * SSDSIM__REQUEST_BYTES));
    return 1;
}

SSDSIM_API uint64_t ssdsim_model_memory_bytes(const ssdsim_model *model)
{
    return model ? ssdsim__model_memory(model) : 0;
}
