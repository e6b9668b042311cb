/* model_build.c: building a model from a document that passed the structure walk.
 *
 * ssdsim__model_build runs the steps in their fixed order for each kind of model: the keys of
 * the table, the plugins' parameters, then the checks between keys (geometry within the page
 * address space, over-provisioning against the GC watermarks, the write buffer, the host
 * link, a hard disk's own limits), then the spec block. The capacities those checks rest on
 * (physical and logical pages, the bytes a device or a system exposes) are computed here too.
 */
#include "config/model_int.h"
#include "ftl/reserve.h"
#include "hdd/hdd.h"
#include "hw/link.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

uint64_t ssdsim__model_physical_pages(const struct ssdsim_model *m)
{
    const struct ssdsim__geometry *g = &m->geometry;
    return ssdsim__geometry_planes(g) * g->blocks_per_plane * g->pages_per_block;
}

uint64_t ssdsim__model_logical_pages(const struct ssdsim_model *m)
{
    if (m->ftl.mapping_unit == 0)
        return 0;
    if (m->zns.zone_size)
        return ssdsim__model_zns_zones(m) * (m->zns.zone_size / m->ftl.mapping_unit);
    /* Physical capacity in mapping units: below 2^48, exact in a double. */
    uint64_t units = ssdsim__model_physical_pages(m) * m->geometry.page_size / m->ftl.mapping_unit;
    double q = (double)units / (1.0 + m->ftl.op);
    double l = floor(q);
    /* op is a decimal fraction that binary cannot hold exactly, so 107 units at op 0.07 may
     * divide to 99.99999999999999: a quotient within a few ulps below an integer is that
     * integer. The relative error of q is at most about 2^-52, hence the 1e-15 margin. */
    if (q - l > 1.0 - 1e-15 * q - 1e-12)
        l += 1.0;
    return (uint64_t)l;
}

/* The NAND operations against the geometry and the timing: impossible combinations. */
static int check_cross_nand(struct ctx *c)
{
    const struct ssdsim_model *m = c->m;
    const struct ssdsim__flash *f = &m->flash;
    /* A page's type is its index in the block modulo the bits per cell (doc/design.md, "Page
     * types"): a block holds whole word lines, each of one page per bit. */
    uint32_t bits = f->n_page_types;
    if (bits > 1 && m->geometry.pages_per_block % bits) {
        const char *cell = "?";
        for (const struct choice *ch = ssdsim__model_cell_choices; ch->name; ch++)
            if (ch->value == (int)f->cell)
                cell = ch->name;
        return ssdsim__model_error(
            c, "geometry.pages_per_block",
            "%u pages are not a multiple of the %u bits per cell of flash.cell \"%s\" (a "
            "block holds whole word lines, one page of each type)",
            m->geometry.pages_per_block, bits, cell);
    }
    if (f->multiplane && m->geometry.planes_per_die < 2)
        return ssdsim__model_error(
            c, "flash.multiplane",
            "needs a die with at least 2 planes (geometry.planes_per_die is %u)",
            m->geometry.planes_per_die);
    if (f->suspend) {
        uint64_t shortest = f->erase_ns;
        for (uint32_t i = 0; i < f->n_page_types; i++)
            shortest = SSDSIM__MIN(shortest, f->program_ns[i]);
        /* a page in SLC mode is a program the die runs too (check_cross_slc has not yet put
         * slc.program_us in the timing table): the cache's programs could not be suspended */
        bool slc = ssdsim__slc_on(&m->slc) && m->slc.program_ns < shortest;
        if (slc)
            shortest = m->slc.program_ns;
        if (f->suspend_ns >= shortest)
            return ssdsim__model_error(
                c, "flash.suspend_us",
                "a suspend latency of %g us is not shorter than the shortest "
                "program or erase (%g us%s): %s could be suspended",
                (double)f->suspend_ns / 1000, (double)shortest / 1000,
                slc ? ", slc.program_us" : "", slc ? "no program in SLC mode" : "nothing");
        if (f->cache_program)
            return ssdsim__model_error(c, "flash.suspend",
                                       "not modelled together with flash.cache_program (a cached "
                                       "program runs on after the die takes the next command)");
    }
    return 0;
}

/* The SLC cache (ftl/page_slc.c) against the cell type, the FTL, the native times and the
 * spare space; on success the SLC times take their slot in the flash timing tables. */
static int check_cross_slc(struct ctx *c)
{
    struct ssdsim_model *m = c->m;
    struct ssdsim__flash *f = &m->flash;
    const struct ssdsim__slc_cfg *s = &m->slc;
    if (!ssdsim__slc_on(s))
        return 0;
    const char *key = s->static_bytes ? "slc.static" : "slc.dynamic";
    if (f->cell == SSDSIM__CELL_SLC)
        return ssdsim__model_error(c, key,
                                   "an SLC cache needs cells of more than one bit (flash.cell is "
                                   "\"slc\": every block already is)");
    if (m->ftl.mapping_unit != m->geometry.page_size)
        return ssdsim__model_error(c, key,
                                   "the SLC cache is modelled with ftl.mapping_unit equal to "
                                   "geometry.page_size only (%u and %u)",
                                   m->ftl.mapping_unit, m->geometry.page_size);
    if (strcmp(m->ftl.type, "page") && strcmp(m->ftl.type, "dftl"))
        return ssdsim__model_error(c, key,
                                   "the SLC cache is modelled by the page and dftl FTLs only "
                                   "(ftl.type is \"%s\")",
                                   m->ftl.type);
    uint64_t fastest_prog = UINT64_MAX, fastest_read = UINT64_MAX;
    for (uint32_t i = 0; i < f->n_page_types; i++) {
        fastest_prog = SSDSIM__MIN(fastest_prog, f->program_ns[i]);
        fastest_read = SSDSIM__MIN(fastest_read, f->read_ns[i]);
    }
    if (s->program_ns > fastest_prog)
        return ssdsim__model_error(c, "slc.program_us",
                                   "%g us is slower than the fastest native page program (%g us, "
                                   "flash.program_us): a page in SLC mode programs faster",
                                   (double)s->program_ns / 1000, (double)fastest_prog / 1000);
    if (s->read_ns > fastest_read)
        return ssdsim__model_error(c, "slc.read_us",
                                   "%g us is slower than the fastest native page read (%g us, "
                                   "flash.read_us): a page in SLC mode reads faster",
                                   (double)s->read_ns / 1000, (double)fastest_read / 1000);
    struct ssdsim__slc_geom sg;
    ssdsim__slc_geometry(m, &sg);
    const struct ssdsim__geometry *g = &m->geometry;
    uint64_t block_bytes = (uint64_t)sg.pages * g->page_size;
    if (s->dynamic_bytes && sg.dyn_max_blocks == 0)
        return ssdsim__model_error(c, "slc.dynamic",
                                   "%llu bytes are less than one block in SLC mode (%llu bytes)",
                                   (unsigned long long)s->dynamic_bytes,
                                   (unsigned long long)block_bytes);
    /* The dynamic cache borrows native capacity that holds no valid data: a block in SLC mode
     * takes a whole block of it, so the cache can never be larger than the logical capacity
     * divided by the bits per cell. */
    uint64_t logical_pages = ssdsim__model_logical_pages(m);
    uint64_t phys = ssdsim__model_physical_pages(m);
    if (sg.dyn_max_blocks * g->pages_per_block > logical_pages)
        return ssdsim__model_error(
            c, "slc.dynamic",
            "%llu blocks in SLC mode would take %llu bytes of free native capacity; the drive "
            "has %llu logical bytes in all",
            (unsigned long long)sg.dyn_max_blocks,
            (unsigned long long)(sg.dyn_max_blocks * g->pages_per_block * g->page_size),
            (unsigned long long)(logical_pages * g->page_size));
    /* The static region comes out of the spare, which must still hold the GC watermark and the
     * open blocks (as page_setup checks for ftl.op alone). */
    uint64_t planes = phys / g->blocks_per_plane / g->pages_per_block;
    struct ssdsim__page_reserve r;
    ssdsim__model_page_reserve(m, &r);
    uint64_t extra = 0;
    if (!strcmp(m->ftl.type, "dftl")) {
        uint64_t epp = g->page_size / 4;
        extra = (logical_pages + epp - 1) / epp;
    }
    uint64_t spare = phys > logical_pages + extra
                         ? (phys - logical_pages - extra) / g->pages_per_block / planes
                         : 0;
    uint64_t need = (uint64_t)r.gc_target + r.open;
    if (sg.static_per_plane && spare < need + sg.static_per_plane)
        return ssdsim__model_error(
            c, "slc.static",
            "%llu bytes need %u blocks per plane in SLC mode; ftl.op leaves %llu spare blocks "
            "per plane, of which the GC watermark and open blocks take %llu",
            (unsigned long long)s->static_bytes, sg.static_per_plane,
            (unsigned long long)spare, (unsigned long long)need);
    f->program_ns[SSDSIM__PAGE_SLC] = s->program_ns;
    f->read_ns[SSDSIM__PAGE_SLC] = s->read_ns;
    return 0;
}

/* The mapping unit against the page (hw/unit.c): a power-of-two multiple or divisor of it (both
 * are powers of two, the table says), within the slot address space, on the FTLs that map
 * units to slots (page and dftl), without copyback (a GC copy of one unit of a page cannot stay
 * in the page register while the rest of its new page is packed). */
static int check_cross_unit(struct ctx *c)
{
    const struct ssdsim_model *m = c->m;
    const struct ssdsim__geometry *g = &m->geometry;
    uint32_t unit = m->ftl.mapping_unit, page = g->page_size;
    if (unit == page)
        return 0;
    if ((unit & (unit - 1)) || (page & (page - 1)) || unit > 64 * page || page > 64 * unit)
        return ssdsim__model_error(
            c, "ftl.mapping_unit",
            "expected a power-of-two multiple or divisor of geometry.page_size (%u) "
            "within a factor of 64, got %u",
            page, unit);
    if (strcmp(m->ftl.type, "page") && strcmp(m->ftl.type, "dftl"))
        return ssdsim__model_error(
            c, "ftl.mapping_unit",
            "a mapping unit (%u) other than geometry.page_size (%u) needs the \"page\" or "
            "\"dftl\" FTL, got \"%s\"",
            unit, page, m->ftl.type);
    if (unit > page && g->pages_per_block % (unit / page))
        return ssdsim__model_error(
            c, "ftl.mapping_unit",
            "a unit of %u bytes spans %u pages; geometry.pages_per_block (%u) is not a "
            "multiple of it",
            unit, unit / page, g->pages_per_block);
    if (unit < page &&
        ssdsim__model_physical_pages(m) * (page / unit) > UINT32_MAX)
        return ssdsim__model_error(
            c, "ftl.mapping_unit",
            "%llu units of %u bytes exceed the 32-bit address space of the flash",
            (unsigned long long)(ssdsim__model_physical_pages(m) * (page / unit)), unit);
    if (m->flash.copyback)
        return ssdsim__model_error(
            c, "flash.copyback",
            "not modelled with a mapping unit (%u) other than geometry.page_size (%u)", unit,
            page);
    return 0;
}

/* Checks between keys, run once every key has passed the table. */
/* The page FTL or DFTL (the mechanisms of ftl/page*.c). */
static bool page_family(const struct ssdsim_model *m)
{
    return strcmp(m->ftl.type, "page") == 0 || strcmp(m->ftl.type, "dftl") == 0;
}

/* Background GC's high watermark (gc.bg_high_watermark, a share of a plane's blocks) against
 * the spare the open blocks leave, as page_setup (ftl/page.c) counts them: refused here, by
 * its key, rather than when the FTL is set up. Bad blocks (reliability.*), drawn when the
 * device is built, can only take more of the spare; page_setup checks again with them. */
static int check_cross_bg_watermark(struct ctx *c)
{
    const struct ssdsim_model *m = c->m;
    const struct ssdsim__geometry *g = &m->geometry;
    double w = m->gc.bg_high_watermark;
    if (m->gc.bg_idle_ns == 0 || !(w > 0) || !page_family(m))
        return 0;
    /* in slots of one mapping unit (hw/hw.c), as the FTL sees the flash */
    uint32_t unit = m->ftl.mapping_unit;
    uint64_t spp = unit < g->page_size ? g->page_size / unit : 1;
    uint64_t ppu = unit > g->page_size ? unit / g->page_size : 1;
    uint64_t slots_per_block = g->pages_per_block * spp / ppu;
    uint64_t n_planes = ssdsim__geometry_planes(g);
    uint64_t n_slots = n_planes * g->blocks_per_plane * slots_per_block;
    uint64_t n_lpn = ssdsim__model_logical_pages(m), extra = 0;
    bool dftl = !strcmp(m->ftl.type, "dftl");
    if (dftl)
        extra = (n_lpn + unit / 4 - 1) / (unit / 4); /* translation pages */
    if (m->ftl.parity_group > 1)
        extra += n_slots / m->ftl.parity_group; /* RAIN parity pages */
    uint64_t spare =
        n_slots >= n_lpn + extra ? (n_slots - n_lpn - extra) / slots_per_block / n_planes : 0;
    struct ssdsim__page_reserve r;
    ssdsim__model_page_reserve(m, &r);
    uint32_t want = (uint32_t)(w * g->blocks_per_plane + 0.999999); /* as page_setup rounds */
    if ((uint64_t)want + r.open <= spare)
        return 0;
    uint64_t room = spare > r.open ? spare - r.open : 0;
    char most[40];
    ssdsim__model_format_number((double)room / g->blocks_per_plane, most, sizeof most);
    return ssdsim__model_error(c, "gc.bg_high_watermark",
                               "expected at most %s (%llu of the %u blocks per plane: the %llu "
                               "spare blocks per plane%s hold %u open blocks and at most %llu "
                               "free), got %g (%u blocks)",
                               most, (unsigned long long)room, g->blocks_per_plane,
                               (unsigned long long)spare,
                               dftl                      ? " after the translation pages"
                               : m->ftl.parity_group > 1 ? " after the parity pages"
                                                         : "",
                               r.open, (unsigned long long)room, w, want);
}

int ssdsim__model_check_cross(struct ctx *c)
{
    struct ssdsim_model *m = c->m;
    const struct ssdsim__geometry *g = &m->geometry;
    uint64_t phys = ssdsim__model_physical_pages(m);

    /* The FTL and the hardware model address the flash in mapping units (hw/unit.c): with
     * units larger than the page, a drive may have more pages than 32 bits count as long as
     * its units fit. Units smaller than the page are checked in check_cross_unit. */
    uint64_t ppu = m->ftl.mapping_unit > g->page_size ? m->ftl.mapping_unit / g->page_size : 1;
    if (phys / ppu > UINT32_MAX) {
        char units[64] = "";
        if (ppu > 1)
            snprintf(units, sizeof units, " (%llu mapping units)",
                     (unsigned long long)(phys / ppu));
        return ssdsim__model_error(
            c, "geometry",
            "impossible geometry: %u channels x %u chips x %u dies x %u planes x "
            "%u blocks x %u pages = %llu pages%s exceed the 32-bit page address "
            "space",
            g->channels, g->chips_per_channel, g->dies_per_chip, g->planes_per_die,
            g->blocks_per_plane, g->pages_per_block, (unsigned long long)phys,
            units);
    }

    int rc = check_cross_unit(c);
    if (rc != 0)
        return rc;
    if (m->fdp.handles) {
        rc = ssdsim__model_check_fdp(c);
        if (rc != 0)
            return rc;
    }
    if (m->zns.zone_size || !strcmp(m->ftl.type, "zoned")) {
        rc = ssdsim__model_check_zns(c);
        if (rc != 0)
            return rc;
    }

    /* A NAND array read (tR) senses a whole page through its word line: tens of microseconds
     * on data sheets, never below one; a fraction of a microsecond is media without erase. */
    if (!ssdsim__model_is_xpoint(m))
        for (uint32_t i = 0; i < m->flash.n_page_types; i++)
            if (m->flash.read_ns[i] < 1000)
                return ssdsim__model_error(
                    c, "flash.read_us",
                    "%g us is below a NAND array read (at least 1 us; shorter reads are for "
                    "media without erase, flash.cell \"xpoint\")",
                    (double)m->flash.read_ns[i] / 1000);
    bool direct = !strcmp(m->ftl.type, "direct");
    if (ssdsim__model_is_xpoint(m) && !direct)
        return ssdsim__model_error(
            c, "ftl.type",
            "media without erase (flash.cell \"xpoint\") is written in place: "
            "it takes the \"direct\" FTL, got \"%s\"",
            m->ftl.type);
    if (!ssdsim__model_is_xpoint(m) && direct)
        return ssdsim__model_error(
            c, "ftl.type",
            "the \"direct\" FTL writes in place and needs media without erase "
            "(flash.cell \"xpoint\")");
    uint32_t pg = m->ftl.parity_group;
    if (pg == 1)
        return ssdsim__model_error(c, "ftl.parity_group",
                                   "a stripe holds its data pages and one parity page: expected 0 "
                                   "(no parity) or 2 or more, got 1");
    if (pg && strcmp(m->ftl.type, "page") != 0)
        return ssdsim__model_error(c, "ftl.parity_group",
                                   "parity inside the drive is modelled for the \"page\" FTL only "
                                   "(ftl.type is \"%s\")",
                                   m->ftl.type);
    /* RAIN writes its stripes across the dies of superblocks (ftl/page_super.c): slot by slot
     * in a fixed order, of whole flash pages, in the drive's own blocks */
    if (pg && m->ftl.placement == SSDSIM__PLACE_LBA)
        return ssdsim__model_error(c, "ftl.parity_group",
                                   "RAIN stripes are written across the dies in turn "
                                   "(superblocks); ftl.placement \"lba\" fixes each page's die");
    if (pg && m->ftl.mapping_unit && m->ftl.mapping_unit != g->page_size)
        return ssdsim__model_error(c, "ftl.parity_group",
                                   "RAIN stripes are of flash pages: ftl.mapping_unit (%u) must "
                                   "be geometry.page_size (%u)",
                                   m->ftl.mapping_unit, g->page_size);
    if (m->gc.throttle && (pg || !page_family(m)))
        return ssdsim__model_error(c, "gc.throttle",
                                   pg ? "host writes are throttled per plane by block GC; RAIN "
                                        "(ftl.parity_group) collects superblocks"
                                      : "applies to the \"page\" and \"dftl\" FTLs only "
                                        "(ftl.type is \"%s\")",
                                   m->ftl.type);
    if (m->gc.bg_preempt) {
        if (!page_family(m))
            return ssdsim__model_error(c, "gc.bg_preempt",
                                       "applies to the \"page\" and \"dftl\" FTLs only "
                                       "(ftl.type is \"%s\")",
                                       m->ftl.type);
        if (!ssdsim__model_gc_paced(m))
            return ssdsim__model_error(c, "gc.bg_preempt",
                                       "background GC can yield between copies only when "
                                       "copies cost firmware time, one after another: set "
                                       "controller.fw_gc_page_us (or host.ftl_gc_cpu_us with "
                                       "host.ftl_threads)");
    }
    if (pg && ssdsim__slc_on(&m->slc))
        return ssdsim__model_error(c, "ftl.parity_group",
                                   "RAIN parity with an SLC cache (slc.static, slc.dynamic) is "
                                   "not modelled");
    if ((m->fault.bad_fraction > 0 || m->fault.grown_prob_rated > 0) && !page_family(m))
        return ssdsim__model_error(c,
                                   m->fault.bad_fraction > 0 ? "reliability.bad_fraction"
                                                             : "reliability.grown_prob_rated",
                                   "bad blocks are modelled for the \"page\" and \"dftl\" FTLs "
                                   "only (ftl.type is \"%s\")",
                                   m->ftl.type);
    uint64_t n_dies = (uint64_t)g->channels * g->chips_per_channel * g->dies_per_chip;
    if (pg > n_dies)
        return ssdsim__model_error(c, "ftl.parity_group",
                                   "a stripe of %u pages puts each on its own die; the drive has "
                                   "%llu dies",
                                   pg, (unsigned long long)n_dies);
    if (m->controller.program_bytes_per_s > 0 && m->controller.program_bytes_per_s < 1000000)
        return ssdsim__model_error(c, "controller.program_bw",
                                   "expected 0 (no limit) or at least 1MB/s, got %llu bytes a "
                                   "second",
                                   (unsigned long long)m->controller.program_bytes_per_s);
    if (m->buffer.size > 0 && m->buffer.size < m->ftl.mapping_unit)
        return ssdsim__model_error(c, "buffer.size",
                                   "a buffer of %llu bytes holds less than one mapping unit (%u)",
                                   (unsigned long long)m->buffer.size, m->ftl.mapping_unit);
    if (m->buffer.flush_stop > m->buffer.flush_start)
        return ssdsim__model_error(c, "buffer.flush_stop",
                                   "flushing stops at %g of the buffer, above where it starts "
                                   "(buffer.flush_start %g)",
                                   m->buffer.flush_stop, m->buffer.flush_start);

    const struct ssdsim__readahead_cfg *ra = &m->read_ahead;
    if (ra->window > 0) {
        if (m->buffer.size == 0)
            return ssdsim__model_error(c, "read_ahead.window",
                                       "read-ahead keeps its data in the controller's DRAM and "
                                       "copies it at buffer.dram_bw: it needs a buffer "
                                       "(buffer.size > 0)");
        if (ra->window % m->ftl.mapping_unit != 0)
            return ssdsim__model_error(c, "read_ahead.window",
                                       "a window of %llu bytes is not a whole number of mapping "
                                       "units (%u bytes)",
                                       (unsigned long long)ra->window, m->ftl.mapping_unit);
        if (ra->window > m->buffer.size)
            return ssdsim__model_error(c, "read_ahead.window",
                                       "a window of %llu bytes is larger than the buffer "
                                       "(buffer.size %llu bytes)",
                                       (unsigned long long)ra->window,
                                       (unsigned long long)m->buffer.size);
    }

    uint64_t logical = ssdsim__model_logical_pages(m);
    if (logical < 1)
        return ssdsim__model_error(
            c, "ftl.op",
            "over-provisioning of %g leaves no logical capacity (%llu physical "
            "pages)",
            m->ftl.op, (unsigned long long)phys);

    /* A write buffer is allocated as slots of mapping units when the device is built: one
     * larger than the drive could never fill, and one beyond the slots' index is refused. */
    uint64_t logical_bytes = logical * m->ftl.mapping_unit;
    if (m->buffer.size > logical_bytes)
        return ssdsim__model_error(
            c, "buffer.size",
            "a write buffer of %llu bytes is larger than the drive's logical "
            "capacity (%llu bytes)",
            (unsigned long long)m->buffer.size, (unsigned long long)logical_bytes);
    if (m->buffer.size / m->ftl.mapping_unit > SSDSIM__BUFFER_MAX_UNITS)
        return ssdsim__model_error(
            c, "buffer.size",
            "a write buffer holds at most %u mapping units (%llu bytes), got %llu "
            "bytes",
            SSDSIM__BUFFER_MAX_UNITS,
            (unsigned long long)SSDSIM__BUFFER_MAX_UNITS * m->ftl.mapping_unit,
            (unsigned long long)m->buffer.size);

    /* With the mapping unit equal to the page, logical units are pages. */
    uint64_t n_planes = ssdsim__geometry_planes(g);
    rc = check_cross_nand(c);
    if (rc != 0)
        return rc;
    char rel_msg[200];
    const char *rel_key = ssdsim__rel_check(m, rel_msg, sizeof rel_msg);
    if (rel_key)
        return ssdsim__model_error(c, rel_key, "%s", rel_msg);
    if (m->gc.free_blocks_target < m->gc.free_blocks_min)
        return ssdsim__model_error(
            c, "gc.free_blocks_target",
            "the high watermark (%u) is below the low one, gc.free_blocks_min (%u)",
            m->gc.free_blocks_target, m->gc.free_blocks_min);
    if (ssdsim__model_is_xpoint(m) || m->zns.zone_size)
        return 0; /* written in place, or zones: no spare blocks, no garbage collection */
    /* in mapping units (slots of hw/unit.c) */
    uint64_t spare = (phys * g->page_size / m->ftl.mapping_unit - logical) /
                     ((uint64_t)g->pages_per_block * g->page_size / m->ftl.mapping_unit) /
                     n_planes;
    uint32_t open = 2 + (m->ftl.hot_cold ? 1 : 0);
    uint64_t need = (uint64_t)m->gc.free_blocks_target + open;
    if (spare < need)
        return ssdsim__model_error(c, "ftl.op",
                                   "over-provisioning leaves %llu spare blocks per plane; %s (%u) "
                                   "plus %u open blocks need at least %llu",
                                   (unsigned long long)spare,
                                   m->gc.free_blocks_target > m->gc.free_blocks_min
                                       ? "gc.free_blocks_target"
                                       : "gc.free_blocks_min",
                                   m->gc.free_blocks_target, open, (unsigned long long)need);
    if (m->fdp.handles) {
        int frc = ssdsim__model_check_fdp_spare(c, spare);
        if (frc != 0)
            return frc;
    }
    /* RAIN: one page in pg holds parity, taken from the spare (ftl/reserve.c). */
    uint64_t parity = pg ? phys / pg : 0;
    if (pg && phys - parity < logical)
        return ssdsim__model_error(c, "ftl.parity_group",
                                   "parity pages (1 in %u, %llu pages) leave less flash than the "
                                   "logical capacity (%llu of %llu pages): raise ftl.op or the "
                                   "group",
                                   pg, (unsigned long long)parity,
                                   (unsigned long long)(phys - parity),
                                   (unsigned long long)logical);
    if (pg && (phys - parity - logical) / g->pages_per_block / n_planes < need)
        return ssdsim__model_error(
            c, "ftl.parity_group",
            "parity pages (1 in %u, %llu pages) leave %llu spare blocks per plane; %s (%u) plus "
            "%u open blocks need at least %llu",
            pg, (unsigned long long)parity,
            (unsigned long long)((phys - parity - logical) / g->pages_per_block / n_planes),
            m->gc.free_blocks_target > m->gc.free_blocks_min ? "gc.free_blocks_target"
                                                             : "gc.free_blocks_min",
            m->gc.free_blocks_target, open, (unsigned long long)need);
    rc = check_cross_bg_watermark(c);
    if (rc != 0)
        return rc;
    return check_cross_slc(c);
}

/* The interface's rates and per-command time (hw/link.c), and what the interface allows. */
int ssdsim__model_check_link(struct ctx *c, struct ssdsim__link_cfg *l, const char *prefix)
{
    bool given = l->cmd_overhead_ns != UINT64_MAX;
    l->gbps_x10 = (uint32_t)lround(l->gbps * 10);
    char why[256] = "";
    int rc = ssdsim__link_derive(l, given, why, sizeof why);
    if (rc != 0) {
        /* the reason starts with the key it blames ("host.lanes: ..."): show it in place */
        const char *colon = strstr(why, ": ");
        if (colon && strncmp(why, "host.", 5) == 0) {
            g_autofree char *key = g_strndup(why, (size_t)(colon - why));
            g_autofree char *path = g_strdup_printf("%s%s", prefix, key + 5);
            return ssdsim__model_error(c, path, "%s", colon + 2);
        }
        return ssdsim__model_error(c, prefix[0] ? prefix : "host", "%s", why);
    }
    return 0;
}

/* Checks between keys, run once every key has passed the table. */
int ssdsim__model_check_cross_hdd(struct ctx *c)
{
    struct ssdsim_model *m = c->m;
    if (m->hdd.capacity % 512)
        return ssdsim__model_error(c, "hdd.capacity", "expected a multiple of 512 bytes, got %llu",
                                   (unsigned long long)m->hdd.capacity);
    char why[256] = "";
    if (ssdsim__hdd_check(&m->hdd, why, sizeof why) != 0) {
        const char *colon = strstr(why, ": ");
        if (colon && strncmp(why, "hdd.", 4) == 0) {
            g_autofree char *key = g_strndup(why, (size_t)(colon - why));
            return ssdsim__model_error(c, key, "%s", colon + 2);
        }
        return ssdsim__model_error(c, "hdd", "%s", why);
    }
    return 0;
}

int ssdsim__model_check_cross_front(struct ctx *c)
{
    struct ssdsim_model *m = c->m;
    int rc = ssdsim__model_check_link(c, &m->host.link, "host.");
    if (rc != 0)
        return rc;
    const struct ssdsim__nvme_cfg *n = &m->nvme;
    if ((uint64_t)n->urgent_queues + n->high_queues + n->medium_queues > n->queues)
        return ssdsim__model_error(c, "nvme.urgent_queues",
                                   "urgent (%u), high (%u) and medium (%u) queues are more than "
                                   "nvme.queues (%u)",
                                   n->urgent_queues, n->high_queues, n->medium_queues, n->queues);
    /* the keys that turn queue pairs on, and the burst, which arbitrates between them */
    const char *nvme_key = ssdsim__nvme_on_key(n);
    if (!nvme_key && n->burst != 1)
        nvme_key = "nvme.burst";
    if ((m->host.link.iface == SSDSIM__IFACE_SATA || m->host.link.iface == SSDSIM__IFACE_SAS) &&
        nvme_key) {
        /* SATA has one command queue (NCQ), SAS its task set: no queue pairs to arbitrate */
        return ssdsim__model_error(c, nvme_key,
                                   "NVMe queue pairs apply to a PCIe or custom host interface; "
                                   "host.interface is %s (one command queue)",
                                   m->host.link.iface == SSDSIM__IFACE_SATA ? "sata" : "sas");
    }
    if (m->host.link.iface == SSDSIM__IFACE_SATA && m->controller.queue_depth > 32)
        return ssdsim__model_error(c, "controller.queue_depth",
                                   "SATA's native command queue holds at most 32 commands, got %u",
                                   m->controller.queue_depth);
    return 0;
}

uint64_t ssdsim__model_device_bytes(const struct ssdsim_model *m)
{
    if (m->kind == SSDSIM__KIND_HDD)
        return m->hdd.capacity;
    return ssdsim__model_logical_pages(m) * m->ftl.mapping_unit;
}

SSDSIM_API uint64_t ssdsim_model_logical_bytes(const ssdsim_model *model)
{
    if (!model)
        return 0;
    if (model->kind != SSDSIM__KIND_SYSTEM)
        return ssdsim__model_device_bytes(model);
    const struct ssdsim__system_cfg *sc = &model->system;
    uint64_t dev = ssdsim__model_device_bytes(sc->member);
    switch (sc->layout) {
    case SSDSIM__LAYOUT_JBOD:
    case SSDSIM__LAYOUT_RAID1:
        return dev;
    case SSDSIM__LAYOUT_RAID0:
        return dev / sc->stripe * sc->stripe * sc->count;
    case SSDSIM__LAYOUT_RAID5:
        return dev / sc->stripe * sc->stripe * (sc->count - 1);
    }
    return 0;
}

/* Free what a model owns besides its label, JSON tree and directory: the spec figures and a
 * system's member model. */
void ssdsim__model_release(struct ssdsim_model *m)
{
    for (uint32_t i = 0; i < m->spec.n_figs; i++) {
        free(m->spec.figs[i].name);
        free(m->spec.figs[i].rw);
        free(m->spec.figs[i].note);
        free(m->spec.figs[i].fitted);
    }
    free(m->spec.figs);
    free(m->spec.source);
    memset(&m->spec, 0, sizeof m->spec);
    ssdsim_model_free(m->system.member);
    m->system.member = NULL;
}

/* Validate `root` into the fields of `m` (label, json and dir untouched). `root` is not taken.
 * `base` is the path of the model's file (a system's member is found beside it, and shown by
 * that path), or NULL; `dir` the absolute directory to read the member from (struct
 * ssdsim_model's dir), or NULL to read it by the path shown. On failure what the model owns is
 * released. */
int ssdsim__model_build(struct ssdsim_model *m, const cJSON *root, const char *label,
                        const char *base, const char *dir, ssdsim_error *err)
{
    struct ctx c = {.label = label, .err = err, .m = m, .base = base, .dir = dir};

    if (!cJSON_IsObject(root)) {
        g_autofree char *got = ssdsim__model_describe(root, true);
        return ssdsim__model_error(&c, NULL, "expected a JSON object at the top level, got %s",
                                   got);
    }
    int rc;
    const cJSON *sys = cJSON_GetObjectItemCaseSensitive(root, "system");
    if (sys) {
        m->kind = SSDSIM__KIND_SYSTEM;
        rc = ssdsim__model_system_build(&c, root, sys);
        if (rc == 0)
            rc = ssdsim__model_spec_build(&c, root);
        if (rc != 0)
            ssdsim__model_release(m);
        return rc;
    }
    m->kind = cJSON_GetObjectItemCaseSensitive(root, "hdd") ? SSDSIM__KIND_HDD : SSDSIM__KIND_SSD;
    rc = ssdsim__model_check_object(&c, root, "");
    if (rc == 0)
        rc = ssdsim__model_build_keys(&c, root, m->kind == SSDSIM__KIND_HDD ? K_HDD : K_SSD);
    if (rc != 0)
        return rc;
    if (m->kind == SSDSIM__KIND_HDD) {
        m->controller.cores = 1;
        rc = ssdsim__model_check_cross_front(&c);
        if (rc == 0)
            rc = ssdsim__model_check_cross_hdd(&c);
        if (rc == 0)
            rc = ssdsim__model_spec_build(&c, root);
        if (rc != 0)
            ssdsim__model_release(m);
        return rc;
    }
    m->flash.n_page_types = ssdsim__model_cell_page_types(m->flash.cell);

    /* Plugin parameters: each section's plugin says which keys it takes, their types and
     * ranges; absent ones take the plugin's default. */
    for (size_t s = 0; s < ssdsim__model_n_plugin_sections; s++) {
        const struct plugin_section *ps = &ssdsim__model_plugin_sections[s];
        const struct ssdsim__plugin_header *p =
            ssdsim__plugin_find(ps->kind, (const char *)m + ps->name_offset);
        double *vals = (double *)((char *)m + ps->params_offset);
        for (uint32_t i = 0; i < SSDSIM__MAX_PARAMS; i++)
            vals[i] = 0;
        for (uint32_t i = 0; p && p->params && p->params[i].key; i++) {
            const ssdsim_param *q = &p->params[i];
            g_autofree char *path = g_strdup_printf("%s.%s", ps->section, q->key);
            const cJSON *v = ssdsim__model_lookup(root, path);
            vals[i] = q->def;
            if (!v)
                continue;
            bool integral = q->type == SSDSIM_PARAM_INT;
            if (!cJSON_IsNumber(v) || !(v->valuedouble >= q->min && v->valuedouble <= q->max) ||
                (integral && v->valuedouble != floor(v->valuedouble))) {
                char lo[40], hi[40];
                ssdsim__model_format_number(q->min, lo, sizeof lo);
                ssdsim__model_format_number(q->max, hi, sizeof hi);
                g_autofree char *got = ssdsim__model_describe(v, !cJSON_IsNumber(v));
                return ssdsim__model_error(&c, path,
                                           "expected %s in [%s, %s] (%s of %s '%s'), got %s",
                                           integral ? "an integer" : "a number", lo, hi, q->help,
                                           ssdsim__plugin_kind_name(ps->kind), p->name, got);
            }
            vals[i] = v->valuedouble;
        }
    }
    rc = ssdsim__model_check_cross(&c);
    if (rc == 0)
        rc = ssdsim__model_check_cross_front(&c);
    if (rc == 0)
        rc = ssdsim__model_spec_build(&c, root);
    if (rc != 0)
        ssdsim__model_release(m);
    return rc;
}
