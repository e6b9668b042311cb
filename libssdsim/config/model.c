/* model.c: the key table of device models.
 *
 * A model file is JSON. cJSON parses it; then one static table (`keys` below) drives everything
 * else: the structure walk that rejects unknown and duplicate keys (model_walk.c), the typed and
 * range-checked conversion of each value into struct ssdsim_model (model_read.c), the defaults,
 * ssdsim_model_set (model_load.c) and the canonical JSON printed back by ssdsim_model_to_json
 * (model_json.c). The checks that involve more than one key follow in model_build.c; the "spec"
 * and "system" blocks, which have their own shape, in model_spec.c and model_system.c.
 *
 * This file holds the table and what its entries point to: the choice lists, the conditions
 * under which a key applies, and the defaults derived from keys above them. The types of the
 * table and the helpers the model_*.c files share are in model_int.h.
 */
#include "config/model_int.h"

#include <stdio.h>
#include <string.h>

/* The sections whose plugin may declare parameters (struct plugin_section in model_int.h). */
static const struct plugin_section plugin_sections[] = {
    {"ftl", "type", SSDSIM_PLUGIN_FTL, offsetof(struct ssdsim_model, ftl.type),
     offsetof(struct ssdsim_model, ftl.params)},
    {"gc", "policy", SSDSIM_PLUGIN_GC, offsetof(struct ssdsim_model, gc.policy),
     offsetof(struct ssdsim_model, gc.params)},
    {"wl", "policy", SSDSIM_PLUGIN_WL, offsetof(struct ssdsim_model, wl.policy),
     offsetof(struct ssdsim_model, wl.params)},
};

/* The formatter would spread the key table over one line per field; it reads best as one key
 * per few lines, so it is kept out of clang-format's hands. */
/* clang-format off */


_Static_assert(sizeof(enum ssdsim__cell) == sizeof(int), "KEY_ENUM stores an int-sized enum");

static const struct choice cell_choices[] = {
    {"slc", SSDSIM__CELL_SLC}, {"mlc", SSDSIM__CELL_MLC}, {"tlc", SSDSIM__CELL_TLC},
    {"qlc", SSDSIM__CELL_QLC}, {"xpoint", SSDSIM__CELL_XPOINT}, {NULL, 0},
};
static const struct choice iface_choices[] = {
    {"custom", SSDSIM__IFACE_CUSTOM}, {"pcie", SSDSIM__IFACE_PCIE}, {"sata", SSDSIM__IFACE_SATA},
    {"sas", SSDSIM__IFACE_SAS}, {NULL, 0},
};
static const struct choice lanes_choices[] = {{"1", 1}, {"2", 2}, {"4", 4}, {"8", 8},
                                              {"16", 16}, {NULL, 0}};
static const struct choice placement_choices[] = {
    {"idle", SSDSIM__PLACE_IDLE}, {"stripe", SSDSIM__PLACE_STRIPE}, {"lba", SSDSIM__PLACE_LBA},
    {NULL, 0}};
static const struct choice mount_choices[] = {{"checkpoint", SSDSIM__MOUNT_CHECKPOINT},
                                              {"scan", SSDSIM__MOUNT_SCAN}, {NULL, 0}};
static const struct choice sched_choices[] = {{"fcfs", SSDSIM__HDD_FCFS},
                                              {"satf", SSDSIM__HDD_SATF}, {NULL, 0}};

/* Page types per word line: the bits per cell; media without erase has one. */
uint32_t ssdsim__model_cell_page_types(enum ssdsim__cell cell)
{
    return cell == SSDSIM__CELL_XPOINT ? 1 : (uint32_t)cell;
}

bool ssdsim__model_is_xpoint(const struct ssdsim_model *m)
{
    return m->flash.cell == SSDSIM__CELL_XPOINT;
}
static bool is_nand(const struct ssdsim_model *m)
{
    return m->flash.cell != SSDSIM__CELL_XPOINT;
}
static bool multiplane_on(const struct ssdsim_model *m)
{
    return m->flash.multiplane != 0;
}
static bool cache_read_on(const struct ssdsim_model *m)
{
    return m->flash.cache_read != 0;
}
static bool cache_program_on(const struct ssdsim_model *m)
{
    return m->flash.cache_program != 0;
}
static bool suspend_on(const struct ssdsim_model *m)
{
    return is_nand(m) && m->flash.suspend != 0;
}
static bool copyback_on(const struct ssdsim_model *m)
{
    return is_nand(m) && m->flash.copyback != 0;
}
static bool is_pcie(const struct ssdsim_model *m)
{
    return m->host.link.iface == SSDSIM__IFACE_PCIE;
}
static bool is_custom(const struct ssdsim_model *m)
{
    return m->host.link.iface == SSDSIM__IFACE_CUSTOM;
}
static bool is_serial(const struct ssdsim_model *m)
{
    return m->host.link.iface == SSDSIM__IFACE_SATA || m->host.link.iface == SSDSIM__IFACE_SAS;
}
static bool has_lanes(const struct ssdsim_model *m)
{
    return m->host.link.iface == SSDSIM__IFACE_PCIE || m->host.link.iface == SSDSIM__IFACE_SAS;
}
static bool host_ftl(const struct ssdsim_model *m)
{
    return m->host.ftl_threads > 0;
}
static bool bg_gc_on(const struct ssdsim_model *m)
{
    return m->gc.bg_idle_ns > 0;
}
static bool has_buffer(const struct ssdsim_model *m)
{
    return m->buffer.size > 0;
}
static bool volatile_buffer(const struct ssdsim_model *m)
{
    return m->buffer.size > 0 && !m->buffer.plp;
}
/* Without a buffer there is nothing to be volatile: say that, not that plp should be false. */
static const char *volatile_buffer_why(const struct ssdsim_model *m)
{
    return has_buffer(m) ? "the buffer is volatile (buffer.plp false)" : "buffer.size > 0";
}
static bool slc_on(const struct ssdsim_model *m)
{
    return is_nand(m) && ssdsim__slc_on(&m->slc);
}
/* An SLC-mode program or read is that of an LSB page (one bit per cell, one threshold):
 * the default when the model gives no SLC time of its own. */
static void default_slc_program(struct ssdsim_model *m)
{
    m->slc.program_ns = m->flash.program_ns[0];
}
static void default_slc_read(struct ssdsim_model *m)
{
    m->slc.read_ns = m->flash.read_ns[0];
}
static bool read_ahead_on(const struct ssdsim_model *m)
{
    return m->read_ahead.window > 0;
}
/* NVMe's Arbitration Burst is 3 bits, 2^n commands, 111b for no limit: 1 to 64, or
 * "unlimited" (stored as 0; the arbiter keeps a queue while it has commands) */
static const struct choice burst_choices[] = {{"1", 1},   {"2", 2},   {"4", 4},
                                              {"8", 8},   {"16", 16}, {"32", 32},
                                              {"64", 64}, {"unlimited", 0}, {NULL, 0}};
static const struct choice arb_choices[] = {
    {"rr", SSDSIM__ARB_RR}, {"wrr", SSDSIM__ARB_WRR}, {NULL, 0},
};
static bool is_wrr(const struct ssdsim_model *m)
{
    return m->nvme.arbitration == SSDSIM__ARB_WRR;
}
static bool cq_coalescing(const struct ssdsim_model *m)
{
    return m->nvme.cq_threshold > 1;
}
static const struct choice bus_width_choices[] = {{"8", 8}, {"16", 16}, {NULL, 0}};

/* Rated endurance when the model does not give it: common datasheet figures per cell type. */
static void default_pe_cycles(struct ssdsim_model *m)
{
    switch (m->flash.cell) {
    case SSDSIM__CELL_SLC:
        m->flash.rated_pe_cycles = 100000;
        break;
    case SSDSIM__CELL_MLC:
        m->flash.rated_pe_cycles = 3000;
        break;
    case SSDSIM__CELL_TLC:
        m->flash.rated_pe_cycles = 1000;
        break;
    case SSDSIM__CELL_QLC:
        m->flash.rated_pe_cycles = 300;
        break;
    case SSDSIM__CELL_XPOINT:
        /* no erase, so no P/E cycles to count: the figure is writes per cell, an estimate */
        m->flash.rated_pe_cycles = 100000;
        break;
    }
}

static void default_gc_target(struct ssdsim_model *m)
{
    m->gc.free_blocks_target = m->gc.free_blocks_min;
}

static void default_mapping_unit(struct ssdsim_model *m)
{
    m->ftl.mapping_unit = m->geometry.page_size;
}

/* Media without erase is mapped in place ("direct") and needs no spare; NAND is page-mapped
 * with the 7% of a consumer drive. */
static void default_ftl_type(struct ssdsim_model *m)
{
    snprintf(m->ftl.type, sizeof m->ftl.type, "%s", ssdsim__model_is_xpoint(m) ? "direct" : "page");
}
static bool is_zoned(const struct ssdsim_model *m)
{
    return !strcmp(m->ftl.type, "zoned");
}
/* One block stripe: an erase block on every plane. */
static void default_zone_size(struct ssdsim_model *m)
{
    const struct ssdsim__geometry *g = &m->geometry;
    m->zns.zone_size = is_zoned(m) ? (uint64_t)g->channels * g->chips_per_channel *
                                         g->dies_per_chip * g->planes_per_die *
                                         g->pages_per_block * g->page_size
                                   : 0;
}
static bool fdp_on(const struct ssdsim_model *m)
{
    return m->fdp.handles > 0;
}
static const struct choice fdp_iso_choices[] = {
    {"initial", SSDSIM__FDP_INITIAL}, {"persistent", SSDSIM__FDP_PERSISTENT}, {NULL, 0},
};
static void default_zone_capacity(struct ssdsim_model *m)
{
    m->zns.zone_capacity = m->zns.zone_size;
}
static void default_op(struct ssdsim_model *m)
{
    m->ftl.op = ssdsim__model_is_xpoint(m) ? 0 : 0.07;
}

/* The interface's own per-command time is filled in by ssdsim__link_derive (ssdsim__model_check_cross). */
static void default_link_overhead(struct ssdsim_model *m)
{
    m->host.link.cmd_overhead_ns = UINT64_MAX;
}
static void default_link_bw(struct ssdsim_model *m)
{
    m->host.link.link_bytes_per_s = 600000000; /* SATA 6 Gb/s */
}
static void default_pcie_gen(struct ssdsim_model *m)
{
    m->host.link.pcie_gen = 3;
}
static void default_lanes(struct ssdsim_model *m)
{
    m->host.link.lanes = is_pcie(m) ? 4 : 1;
}
static void default_gbps(struct ssdsim_model *m)
{
    m->host.link.gbps = 6;
}
static void default_payload(struct ssdsim_model *m)
{
    m->host.link.max_payload = 256;
}

/* Order matters: a key may depend on keys above it (the time lists on flash.cell, the derived
 * defaults on flash.cell and geometry.page_size), and it is the order of the canonical JSON. */
static bool multi_segment(const struct ssdsim_model *m)
{
    return m->hdd.segments > 1;
}

static void default_segment_size(struct ssdsim_model *m)
{
    m->hdd.segment_bytes = m->hdd.cache_bytes / m->hdd.segments / 512 * 512;
}

static void default_prefetch_min(struct ssdsim_model *m)
{
    m->hdd.prefetch_min_bytes = m->hdd.segment_bytes;
}

/* Bit errors (reliability.rber_model and the keys after it, rel/rel.h): off unless a model is
 * named; every other key's default is its cell type's (rel/rber.c). */
static const struct choice rel_choices[] = {
    {"off", SSDSIM__REL_OFF}, {"cell", SSDSIM__REL_CELL}, {"slc", SSDSIM__CELL_SLC},
    {"mlc", SSDSIM__CELL_MLC}, {"tlc", SSDSIM__CELL_TLC}, {"qlc", SSDSIM__CELL_QLC}, {NULL, 0}};
#define REL_DEFAULT(name)                                                                          \
    static void rel_def_##name(struct ssdsim_model *m) { ssdsim__rel_defaults(m, #name); }
REL_DEFAULT(base) REL_DEFAULT(wear) REL_DEFAULT(wear_exp) REL_DEFAULT(ret) REL_DEFAULT(ret_wear_exp)
REL_DEFAULT(ret_exp) REL_DEFAULT(rd) REL_DEFAULT(rd_wear_exp) REL_DEFAULT(rd_exp)
REL_DEFAULT(variation) REL_DEFAULT(codeword) REL_DEFAULT(t) REL_DEFAULT(decode)
REL_DEFAULT(retry_max) REL_DEFAULT(retry_factor) REL_DEFAULT(soft_reads) REL_DEFAULT(soft_t)
REL_DEFAULT(soft_decode) REL_DEFAULT(reclaim) REL_DEFAULT(patrol) REL_DEFAULT(reclaim_max)
REL_DEFAULT(reclaim_period)
#define REL_WHEN .when = ssdsim__rel_on, .when_text = "reliability.rber_model is not \"off\""

static const struct key_spec keys[] = {
    {.path = "name", .type = KEY_STRING, .offset = NO_FIELD, .kinds = K_DEV,
     .help = "short name of the model, shown in reports"},
    {.path = "description", .type = KEY_STRING, .offset = NO_FIELD, .kinds = K_DEV,
     .help = "free text: what the model represents and where its figures come from"},
    {.path = "caveat", .type = KEY_STRING, .offset = NO_FIELD, .kinds = K_DEV,
     .help = "free text, a few sentences: what the model is known to get wrong against the "
             "drive it names (printed with every run's report, in its JSON and in the suites' "
             "reports)"},

    {.path = "geometry.channels", .type = KEY_U32, .offset = FIELD(geometry.channels, uint32_t),
     .min = 1, .max = 256, .flags = KF_REQUIRED,
     .help = "independent flash channels (buses) from the controller"},
    {.path = "geometry.chips_per_channel", .type = KEY_U32,
     .offset = FIELD(geometry.chips_per_channel, uint32_t), .min = 1, .max = 64,
     .flags = KF_REQUIRED, .help = "flash packages (chip enables) sharing one channel"},
    {.path = "geometry.dies_per_chip", .type = KEY_U32,
     .offset = FIELD(geometry.dies_per_chip, uint32_t), .min = 1, .max = 16,
     .flags = KF_REQUIRED, .help = "dies (LUNs) per chip; each runs one operation at a time"},
    {.path = "geometry.planes_per_die", .type = KEY_U32,
     .offset = FIELD(geometry.planes_per_die, uint32_t), .min = 1, .max = 16,
     .flags = KF_REQUIRED, .help = "planes per die"},
    {.path = "geometry.blocks_per_plane", .type = KEY_U32,
     .offset = FIELD(geometry.blocks_per_plane, uint32_t), .min = 4, .max = 1048576,
     .flags = KF_REQUIRED, .help = "erase blocks per plane"},
    {.path = "geometry.pages_per_block", .type = KEY_U32,
     .offset = FIELD(geometry.pages_per_block, uint32_t), .min = 2, .max = 4096,
     .flags = KF_REQUIRED, .help = "pages per erase block"},
    {.path = "geometry.page_size", .type = KEY_SIZE,
     .offset = FIELD(geometry.page_size, uint32_t), .min = 512, .max = 65536,
     .flags = KF_REQUIRED | KF_POW2, .help = "bytes of user data per page (spare area excluded)"},

    {.path = "flash.cell", .type = KEY_ENUM, .offset = FIELD(flash.cell, enum ssdsim__cell),
     .flags = KF_REQUIRED, .choices = cell_choices,
     .help = "bits per cell: slc 1, mlc 2, tlc 3, qlc 4 (also the number of page types); "
             "xpoint: media without erase (one page type, in-place writes)"},
    /* 0.05 us: media without erase (3D XPoint) reads in a fraction of a microsecond; NAND is
     * held to 1 us and more in model_build.c */
    {.path = "flash.read_us", .type = KEY_TIME_LIST, .offset = FIELD(flash.read_ns, uint64_t *),
     .min = 0.05, .max = 10000, .flags = KF_REQUIRED,
     .help = "array read time (tR) per page type, LSB first; one number applies to all (NAND: "
             "at least 1 us)"},
    {.path = "flash.program_us", .type = KEY_TIME_LIST,
     .offset = FIELD(flash.program_ns, uint64_t *), .min = 10, .max = 100000,
     .flags = KF_REQUIRED,
     .help = "program time (tPROG) per page type, LSB first; one number applies to all"},
    {.path = "flash.erase_us", .type = KEY_TIME, .offset = FIELD(flash.erase_ns, uint64_t),
     .min = 100, .max = 100000, .flags = KF_REQUIRED, .help = "block erase time (tBERS)",
     .when = is_nand, .when_text = "flash.cell is NAND (media without erase has no erase time)"},
    {.path = "flash.bus_mts", .type = KEY_U32, .offset = FIELD(flash.bus_mts, uint32_t),
     .min = 1, .max = 10000, .flags = KF_REQUIRED,
     .help = "channel bus rate in mega-transfers per second"},
    {.path = "flash.bus_width", .type = KEY_U32, .offset = FIELD(flash.bus_width_bits, uint32_t),
     .min = 8, .max = 16, .flags = KF_REQUIRED, .choices = bus_width_choices,
     .help = "channel bus width in bits"},
    {.path = "flash.rated_pe_cycles", .type = KEY_U32,
     .offset = FIELD(flash.rated_pe_cycles, uint32_t), .min = 1, .max = 10000000,
     .derive = default_pe_cycles,
     .help = "rated program/erase cycles per block (default by cell type)"},
    /* NAND operations (doc/models.md, "NAND operations"): all off unless given. */
    {.path = "flash.cmd_cycle_us", .type = KEY_TIME, .offset = FIELD(flash.cmd_cycle_ns, uint64_t),
     .min = 0, .max = 1, .flags = KF_QUIET, .def = "0",
     .help = "one command or address cycle on the channel bus (ONFI: 7 cycles before a read or "
             "program, 5 before an erase); 0: not modelled"},
    {.path = "flash.multiplane", .type = KEY_BOOL, .offset = FIELD(flash.multiplane, int),
     .flags = KF_QUIET, .def = "false",
     .help = "a die merges queued reads, programs or erases on different planes at the same page "
             "offset into one multi-plane operation"},
    {.path = "flash.multiplane_same_block", .type = KEY_BOOL,
     .offset = FIELD(flash.multiplane_same_block, int), .def = "false", .when = multiplane_on,
     .when_text = "flash.multiplane is true",
     .help = "multi-plane operations also need the same block number in each plane"},
    {.path = "flash.dbsy_us", .type = KEY_TIME, .offset = FIELD(flash.dbsy_ns, uint64_t),
     .min = 0, .max = 100, .def = "0.5", .when = multiplane_on,
     .when_text = "flash.multiplane is true",
     .help = "tDBSY: busy time after each plane's part of a multi-plane command but the last"},
    {.path = "flash.cache_read", .type = KEY_BOOL, .offset = FIELD(flash.cache_read, int),
     .flags = KF_QUIET, .def = "false",
     .help = "cache read: a die starts its next array read while the previous page's data "
             "goes out from the cache register"},
    {.path = "flash.rcbsy_us", .type = KEY_TIME, .offset = FIELD(flash.rcbsy_ns, uint64_t),
     .min = 0, .max = 1000, .def = "3", .when = cache_read_on,
     .when_text = "flash.cache_read is true",
     .help = "tRCBSY: moving a read page to the cache register"},
    {.path = "flash.cache_program", .type = KEY_BOOL, .offset = FIELD(flash.cache_program, int),
     .flags = KF_QUIET, .def = "false",
     .help = "cache program: the next page's data comes in over the bus while the die programs"},
    {.path = "flash.cbsy_us", .type = KEY_TIME, .offset = FIELD(flash.cbsy_ns, uint64_t),
     .min = 0, .max = 1000, .def = "3", .when = cache_program_on,
     .when_text = "flash.cache_program is true",
     .help = "tCBSY: moving a page from the cache register to the data register"},
    {.path = "flash.suspend", .type = KEY_BOOL, .offset = FIELD(flash.suspend, int),
     .flags = KF_QUIET, .def = "false", .when = is_nand,
     .when_text = "flash.cell is NAND (media without erase has no erase time)",
     .help = "host reads suspend a program or erase in progress, which resumes after them"},
    {.path = "flash.suspend_us", .type = KEY_TIME, .offset = FIELD(flash.suspend_ns, uint64_t),
     .min = 0, .max = 10000, .def = "20", .when = suspend_on, .when_text = "flash.suspend is true",
     .help = "suspend latency: from a read's arrival to the array being free"},
    {.path = "flash.resume_us", .type = KEY_TIME, .offset = FIELD(flash.resume_ns, uint64_t),
     .min = 0, .max = 10000, .def = "10", .when = suspend_on, .when_text = "flash.suspend is true",
     .help = "resume overhead, added to the remaining program or erase time"},
    {.path = "flash.max_suspends", .type = KEY_U32, .offset = FIELD(flash.max_suspends, uint32_t),
     .min = 1, .max = 255, .def = "4", .when = suspend_on, .when_text = "flash.suspend is true",
     .help = "suspends of one program or erase, at most; later reads wait for it"},
    {.path = "flash.copyback", .type = KEY_BOOL, .offset = FIELD(flash.copyback, int),
     .flags = KF_QUIET, .def = "false", .when = is_nand,
     .when_text = "flash.cell is NAND (media without erase has no erase time)",
     .help = "GC copies within a plane use copyback: read to the page register, program from "
             "it, no data on the channel"},
    {.path = "flash.copyback_parity", .type = KEY_BOOL,
     .offset = FIELD(flash.copyback_parity, int), .def = "false", .when = copyback_on,
     .when_text = "flash.copyback is true",
     .help = "copyback only between pages of the same parity (odd to odd, even to even); other "
             "copies cross the channel both ways"},

    {.path = "controller.cmd_overhead_us", .type = KEY_TIME,
     .offset = FIELD(controller.cmd_overhead_ns, uint64_t), .min = 0, .max = 10000, .def = "2",
     .kinds = K_DEV, .help = "firmware time per host command"},
    {.path = "controller.cores", .type = KEY_U32, .offset = FIELD(controller.cores, uint32_t),
     .min = 1, .max = 64, .def = "1", .help = "firmware cores processing commands in parallel"},
    {.path = "controller.queue_depth", .type = KEY_U32,
     .offset = FIELD(controller.queue_depth, uint32_t), .min = 1, .max = 65535, .def = "32",
     .kinds = K_DEV, .help = "commands the device accepts at once (at most 32 on SATA: NCQ)"},
    {.path = "controller.fw_read_us", .type = KEY_TIME,
     .offset = FIELD(controller.fw_read_ns, uint64_t), .min = 0, .max = 10000,
     .flags = KF_QUIET, .def = "0",
     .help = "firmware time per mapping unit of a host read, on a core (0: none)"},
    {.path = "controller.fw_write_us", .type = KEY_TIME,
     .offset = FIELD(controller.fw_write_ns, uint64_t), .min = 0, .max = 10000,
     .flags = KF_QUIET, .def = "0",
     .help = "firmware time per mapping unit of a host write (buffer insert, mapping update)"},
    {.path = "controller.fw_gc_victim_us", .type = KEY_TIME,
     .offset = FIELD(controller.fw_gc_victim_ns, uint64_t), .min = 0, .max = 100000,
     .flags = KF_QUIET, .def = "0",
     .help = "firmware time per GC victim selected, on a core (0: none)"},
    {.path = "controller.fw_gc_page_us", .type = KEY_TIME,
     .offset = FIELD(controller.fw_gc_page_ns, uint64_t), .min = 0, .max = 10000,
     .flags = KF_QUIET, .def = "0",
     .help = "firmware time per page GC copies, on a core (0: none)"},
    {.path = "controller.fw_map_us", .type = KEY_TIME,
     .offset = FIELD(controller.fw_map_ns, uint64_t), .min = 0, .max = 10000,
     .flags = KF_QUIET, .def = "0",
     .help = "firmware time per mapping-table page loaded or flushed (DFTL), on a core"},
    {.path = "controller.fw_wl_page_us", .type = KEY_TIME,
     .offset = FIELD(controller.fw_wl_page_ns, uint64_t), .min = 0, .max = 10000,
     .flags = KF_QUIET, .def = "0",
     .help = "firmware time per page wear leveling moves, on a core (0: none)"},
    {.path = "controller.program_bw", .type = KEY_RATE,
     .offset = FIELD(controller.program_bytes_per_s, uint64_t), .min = 0, .max = 1e13,
     .flags = KF_QUIET, .def = "0",
     .help = "the controller's write data path (ECC encoding, RAIN parity): bytes a second, all "
             "channels together, that every program's data passes before its channel transfer "
             "(0: no limit)"},

    {.path = "nvme.queues", .type = KEY_U32, .offset = FIELD(nvme.queues, uint32_t), .min = 1,
     .max = 65535, .flags = KF_QUIET, .def = "1", .kinds = K_DEV,
     .help = "NVMe I/O submission/completion queue pairs; jobs, traces and submitted requests "
             "name theirs (fio option queue, ssdsim_submit_opts.queue)"},
    {.path = "nvme.sq_depth", .type = KEY_U32, .offset = FIELD(nvme.sq_depth, uint32_t),
     .min = 1, .max = 65535, .flags = KF_QUIET, .def = "65535", .kinds = K_DEV,
     .help = "commands outstanding per queue pair at most (its entries); more wait on the host"},
    {.path = "nvme.arbitration", .type = KEY_ENUM, .offset = FIELD(nvme.arbitration, enum ssdsim__arb),
     .flags = KF_QUIET, .def = "\"rr\"", .choices = arb_choices, .kinds = K_DEV,
     .help = "which queue the controller fetches from when a command slot frees: rr (round "
             "robin) or wrr (weighted round robin with urgent priority class)"},
    {.path = "nvme.burst", .type = KEY_U32, .offset = FIELD(nvme.burst, uint32_t), .min = 1,
     .max = 64, .flags = KF_QUIET, .def = "1", .choices = burst_choices, .kinds = K_DEV,
     .help = "arbitration burst: commands fetched from one queue before the next is served "
             "(a power of two up to 64, or \"unlimited\", as NVMe's Arbitration Burst)"},
    {.path = "nvme.urgent_queues", .type = KEY_U32, .offset = FIELD(nvme.urgent_queues, uint32_t),
     .min = 0, .max = 65535, .flags = KF_QUIET, .def = "0", .kinds = K_DEV, .when = is_wrr,
     .when_text = "nvme.arbitration is \"wrr\"",
     .help = "WRR: queues 0 .. N-1 are urgent (strict priority over the weighted classes)"},
    {.path = "nvme.high_queues", .type = KEY_U32, .offset = FIELD(nvme.high_queues, uint32_t),
     .min = 0, .max = 65535, .flags = KF_QUIET, .def = "0", .kinds = K_DEV, .when = is_wrr,
     .when_text = "nvme.arbitration is \"wrr\"",
     .help = "WRR: the next N queues are of high priority"},
    {.path = "nvme.medium_queues", .type = KEY_U32, .offset = FIELD(nvme.medium_queues, uint32_t),
     .min = 0, .max = 65535, .flags = KF_QUIET, .def = "0", .kinds = K_DEV, .when = is_wrr,
     .when_text = "nvme.arbitration is \"wrr\"",
     .help = "WRR: the next N queues are of medium priority; the rest are low"},
    {.path = "nvme.weight_high", .type = KEY_U32, .offset = FIELD(nvme.weight_high, uint32_t),
     .min = 1, .max = 256, .flags = KF_QUIET, .def = "1", .kinds = K_DEV, .when = is_wrr,
     .when_text = "nvme.arbitration is \"wrr\"",
     .help = "WRR: commands the high class may fetch per round (NVMe HPW + 1)"},
    {.path = "nvme.weight_medium", .type = KEY_U32, .offset = FIELD(nvme.weight_medium, uint32_t),
     .min = 1, .max = 256, .flags = KF_QUIET, .def = "1", .kinds = K_DEV, .when = is_wrr,
     .when_text = "nvme.arbitration is \"wrr\"",
     .help = "WRR: commands the medium class may fetch per round (NVMe MPW + 1)"},
    {.path = "nvme.weight_low", .type = KEY_U32, .offset = FIELD(nvme.weight_low, uint32_t),
     .min = 1, .max = 256, .flags = KF_QUIET, .def = "1", .kinds = K_DEV, .when = is_wrr,
     .when_text = "nvme.arbitration is \"wrr\"",
     .help = "WRR: commands the low class may fetch per round (NVMe LPW + 1)"},
    {.path = "nvme.fetch_us", .type = KEY_TIME, .offset = FIELD(nvme.fetch_ns, uint64_t),
     .min = 0, .max = 1000, .flags = KF_QUIET, .def = "0", .kinds = K_DEV,
     .help = "fetching one command from a submission queue, one fetch at a time (0: free)"},
    {.path = "nvme.cq_threshold", .type = KEY_U32, .offset = FIELD(nvme.cq_threshold, uint32_t),
     .min = 1, .max = 256, .flags = KF_QUIET, .def = "1", .kinds = K_DEV,
     .help = "interrupt coalescing: completions of a queue per interrupt (NVMe Aggregation "
             "Threshold + 1; 1: an interrupt each)"},
    {.path = "nvme.cq_time_us", .type = KEY_TIME, .offset = FIELD(nvme.cq_time_ns, uint64_t),
     .min = 1, .max = 25500, .flags = KF_QUIET, .def = "100", .kinds = K_DEV,
     .when = cq_coalescing, .when_text = "nvme.cq_threshold > 1",
     .help = "interrupt coalescing: the longest a completion waits for its interrupt (NVMe "
             "Aggregation Time, 100 us units)"},

    {.path = "host.interface", .type = KEY_ENUM, .offset = FIELD(host.link.iface, enum ssdsim__iface),
     .def = "\"custom\"", .choices = iface_choices, .kinds = K_DEV | K_LINK,
     .help = "host interface: pcie, sata or sas (rates derived from the standard), or custom "
             "(host.link_bw)"},
    {.path = "host.link_bw", .type = KEY_RATE, .offset = FIELD(host.link.link_bytes_per_s, uint64_t),
     .min = 1e6, .max = 1e11, .derive = default_link_bw, .kinds = K_DEV | K_LINK,
     .when = is_custom, .when_text = "host.interface is \"custom\"",
     .help = "host link bandwidth per direction, bytes per second (default 600MB/s)"},
    {.path = "host.pcie_gen", .type = KEY_U32, .offset = FIELD(host.link.pcie_gen, uint32_t),
     .min = 1, .max = 4, .derive = default_pcie_gen, .kinds = K_DEV | K_LINK,
     .when = is_pcie, .when_text = "host.interface is \"pcie\"",
     .help = "PCIe generation: 1 (2.5 GT/s), 2 (5), 3 (8), 4 (16); default 3"},
    {.path = "host.lanes", .type = KEY_U32, .offset = FIELD(host.link.lanes, uint32_t),
     .min = 1, .max = 16, .choices = lanes_choices, .derive = default_lanes, .kinds = K_DEV | K_LINK,
     .when = has_lanes, .when_text = "host.interface is \"pcie\" or \"sas\"",
     .help = "PCIe lanes (default 4), or the phys of a SAS wide port (default 1)"},
    {.path = "host.gbps", .type = KEY_DOUBLE, .offset = FIELD(host.link.gbps, double),
     .min = 1.5, .max = 12, .derive = default_gbps, .kinds = K_DEV | K_LINK,
     .when = is_serial, .when_text = "host.interface is \"sata\" or \"sas\"",
     .help = "line rate in Gb/s: SATA 1.5, 3 or 6; SAS 3, 6 or 12 (default 6)"},
    {.path = "host.max_payload", .type = KEY_SIZE, .offset = FIELD(host.link.max_payload, uint32_t),
     .min = 128, .max = 4096, .flags = KF_POW2, .derive = default_payload, .kinds = K_DEV | K_LINK,
     .when = is_pcie, .when_text = "host.interface is \"pcie\"",
     .help = "PCIe maximum TLP payload, bytes (default 256)"},
    {.path = "host.cmd_overhead_us", .type = KEY_TIME,
     .offset = FIELD(host.link.cmd_overhead_ns, uint64_t), .min = 0, .max = 10000,
     .derive = default_link_overhead, .kinds = K_DEV | K_LINK,
     .help = "link and protocol time per command (submission and completion); default: the "
             "interface's (1 us for custom)"},
    {.path = "host.ftl_threads", .type = KEY_U32, .offset = FIELD(host.ftl_threads, uint32_t),
     .min = 0, .max = 1024, .def = "0",
     .help = "host-based FTL: host threads running mapping and GC (0: the FTL runs on the device)"},
    {.path = "host.ftl_cpu_us", .type = KEY_TIME, .offset = FIELD(host.ftl_cpu_ns, uint64_t),
     .min = 0, .max = 10000, .def = "0", .when = host_ftl, .when_text = "host.ftl_threads > 0",
     .help = "host-based FTL: host CPU time per command"},
    {.path = "host.ftl_gc_cpu_us", .type = KEY_TIME, .offset = FIELD(host.ftl_gc_cpu_ns, uint64_t),
     .min = 0, .max = 10000, .def = "0", .when = host_ftl, .when_text = "host.ftl_threads > 0",
     .help = "host-based FTL: host CPU time per page garbage collection copies"},

    {.path = "fdp.handles", .type = KEY_U32, .offset = FIELD(fdp.handles, uint32_t), .min = 0,
     .max = SSDSIM__FDP_MAX_HANDLES, .flags = KF_QUIET, .def = "0", .when = is_nand,
     .when_text = "flash.cell is NAND",
     .help = "Flexible Data Placement: placement handles (reclaim unit handles), each with its "
             "own write frontiers in the page FTL; writes name theirs (placement id 0 .. "
             "handles-1); 0: "
             "no FDP"},
    {.path = "fdp.isolation", .type = KEY_ENUM, .offset = FIELD(fdp.isolation, enum ssdsim__fdp_iso),
     .flags = KF_QUIET, .def = "\"initial\"", .choices = fdp_iso_choices, .when = fdp_on,
     .when_text = "fdp.handles > 0",
     .help = "Flexible Data Placement: \"initial\" (GC copies of every handle share one "
             "frontier) or \"persistent\" (GC copies stay with their handle's data)"},
    {.path = "fdp.reclaim_groups", .type = KEY_U32, .offset = FIELD(fdp.reclaim_groups, uint32_t),
     .min = 1, .max = SSDSIM__FDP_MAX_GROUPS, .flags = KF_QUIET, .def = "1", .when = fdp_on,
     .when_text = "fdp.handles > 0",
     .help = "Flexible Data Placement: reclaim groups, each a set of whole dies (consecutive in "
             "the striping order) holding only the data written to it; must divide the dies; "
             "a placement id names a group in its top bits (TP4146)"},

    {.path = "ftl.type", .type = KEY_PLUGIN, .offset = FIELD(ftl.type, char *),
     .derive = default_ftl_type, .kind = SSDSIM_PLUGIN_FTL,
     .help = "mapping scheme: a registered FTL (ssdsim list); default page (direct for xpoint); "
             "zoned for a zoned namespace (zns.*)"},
    {.path = "zns.zone_size", .type = KEY_SIZE64, .offset = FIELD(zns.zone_size, uint64_t),
     .min = 1, .max = 2147483648.0, .flags = KF_QUIET, .derive = default_zone_size,
     .when = is_zoned, .when_text = "ftl.type is \"zoned\"",
     .help = "zoned namespace (ftl.type \"zoned\"): bytes per zone, a whole number of block "
             "stripes (one erase block on every plane; default one stripe), at most 2 GiB"},
    {.path = "zns.zone_capacity", .type = KEY_SIZE64, .offset = FIELD(zns.zone_capacity, uint64_t),
     .min = 1, .max = 1e15, .flags = KF_QUIET, .derive = default_zone_capacity, .when = is_zoned,
     .when_text = "ftl.type is \"zoned\"",
     .help = "zoned namespace: bytes writable in each zone (default zns.zone_size), a whole "
             "number of mapping units"},
    {.path = "zns.max_open", .type = KEY_U32, .offset = FIELD(zns.max_open, uint32_t), .min = 0,
     .max = 1000000, .flags = KF_QUIET, .def = "0", .when = is_zoned,
     .when_text = "ftl.type is \"zoned\"",
     .help = "zoned namespace: zones open (implicitly or explicitly) at once at most (0: no limit)"},
    {.path = "zns.max_active", .type = KEY_U32, .offset = FIELD(zns.max_active, uint32_t),
     .min = 0, .max = 1000000, .flags = KF_QUIET, .def = "0", .when = is_zoned,
     .when_text = "ftl.type is \"zoned\"",
     .help = "zoned namespace: zones open or closed at once at most (0: no limit)"},

    {.path = "ftl.op", .type = KEY_DOUBLE, .offset = FIELD(ftl.op, double), .min = 0, .max = 10,
     .derive = default_op,
     .help = "over-provisioning, (physical - logical) / logical (default 0.07; 0 for xpoint)"},
    {.path = "ftl.mapping_unit", .type = KEY_SIZE, .offset = FIELD(ftl.mapping_unit, uint32_t),
     .min = 512, .max = 65536, .flags = KF_POW2, .derive = default_mapping_unit,
     .help = "bytes per mapping entry: the page size (default), a power-of-two divisor "
             "(units packed into pages) or multiple (smaller writes read-modify-write it)"},
    {.path = "ftl.hot_cold", .type = KEY_BOOL, .offset = FIELD(ftl.hot_cold, int),
     .def = "false", .help = "write recently rewritten (hot) host data to its own frontier"},
    {.path = "ftl.hot_window", .type = KEY_DOUBLE, .offset = FIELD(ftl.hot_window, double),
     .min = 0.001, .max = 100, .def = "1",
     .help = "hot: the host last wrote the page less than this many logical capacities ago"},
    {.path = "ftl.placement", .type = KEY_ENUM, .offset = FIELD(ftl.placement, int),
     .flags = KF_QUIET, .def = "\"idle\"", .choices = placement_choices,
     .help = "die of each host write: idle (an idle die first), stripe (channels, then dies, "
             "in a fixed order), lba (by logical address)"},
    {.path = "ftl.parity_group", .type = KEY_U32, .offset = FIELD(ftl.parity_group, uint32_t),
     .min = 0, .max = 1024, .flags = KF_QUIET, .def = "0",
     .help = "RAIN parity inside the drive: pages per stripe, its parity page included (8: 7 data "
             "+ 1 parity, on different dies); parity pages cost programs and spare space; 0: none"},

    {.path = "gc.policy", .type = KEY_PLUGIN, .offset = FIELD(gc.policy, char *),
     .def = "\"greedy\"", .kind = SSDSIM_PLUGIN_GC,
     .help = "victim selection policy: a registered GC policy (ssdsim list)"},
    {.path = "gc.free_blocks_min", .type = KEY_U32, .offset = FIELD(gc.free_blocks_min, uint32_t),
     .min = 1, .max = 1024, .def = "2",
     .help = "per plane, low watermark: foreground GC starts when free blocks fall below this "
             "(raised to the GC reserve + 1 when lower: 2, or 3 with ftl.hot_cold)"},
    {.path = "gc.free_blocks_target", .type = KEY_U32,
     .offset = FIELD(gc.free_blocks_target, uint32_t), .min = 1, .max = 1048576,
     .derive = default_gc_target,
     .help = "per plane, high watermark: GC, once started, goes on up to this (default: the low one)"},
    {.path = "gc.bg_idle_us", .type = KEY_TIME, .offset = FIELD(gc.bg_idle_ns, uint64_t),
     .min = 0, .max = 1e9, .def = "0",
     .help = "background GC (up to the high watermark) after the device is idle this long; 0 = off"},
    {.path = "gc.bg_high_watermark", .type = KEY_DOUBLE,
     .offset = FIELD(gc.bg_high_watermark, double), .min = 0, .max = 0.5, .flags = KF_QUIET,
     .def = "0", .when = bg_gc_on, .when_text = "gc.bg_idle_us > 0",
     .help = "background GC works up to this fraction of each plane's blocks free (0: up to "
             "gc.free_blocks_target)"},
    {.path = "gc.bg_max_blocks", .type = KEY_U32, .offset = FIELD(gc.bg_max_blocks, uint32_t),
     .min = 0, .max = 1048576, .flags = KF_QUIET, .def = "0", .when = bg_gc_on,
     .when_text = "gc.bg_idle_us > 0",
     .help = "background GC victims per plane per idle period, at most (0: no limit)"},
    {.path = "gc.bg_preempt", .type = KEY_BOOL, .offset = FIELD(gc.bg_preempt, int),
     .flags = KF_QUIET, .def = "false", .when = bg_gc_on, .when_text = "gc.bg_idle_us > 0",
     .help = "background GC yields to the host: once host commands arrive, a background "
             "victim's next copy waits for the device to be idle again (or for foreground GC "
             "to be needed); needs GC copies that cost firmware time (controller.fw_gc_page_us); "
             "false: a background victim, once started, is collected to its end"},
    {.path = "gc.fg_blocks_die", .type = KEY_BOOL, .offset = FIELD(gc.fg_blocks_die, int),
     .flags = KF_QUIET, .def = "false",
     .help = "host reads to a die collecting a foreground GC victim wait behind its GC work "
             "(false: host reads go first)"},
    {.path = "gc.throttle", .type = KEY_BOOL, .offset = FIELD(gc.throttle, int),
     .flags = KF_QUIET, .def = "false",
     .help = "host writes to a plane collecting a foreground GC victim go in proportion to its "
             "copies: after each, v / (units per block - v) copies first (v: the victim's valid "
             "units when chosen); false: they take whatever room is left, and wait only when "
             "the plane is down to its GC reserve"},
    {.path = "gc.separate", .type = KEY_BOOL, .offset = FIELD(gc.separate, int), .def = "true",
     .help = "GC copies go to their own write frontier, apart from host writes"},

    {.path = "wl.policy", .type = KEY_PLUGIN, .offset = FIELD(wl.policy, char *),
     .def = "\"none\"", .kind = SSDSIM_PLUGIN_WL,
     .help = "wear leveling: a registered wear leveler (ssdsim list)"},

    /* The SLC cache (doc/models.md, "SLC cache"): off unless a size is given. */
    {.path = "slc.static", .type = KEY_SIZE64, .offset = FIELD(slc.static_bytes, uint64_t),
     .min = 0, .max = 1e15, .flags = KF_QUIET, .def = "0", .when = is_nand,
     .when_text = "flash.cell is NAND",
     .help = "static SLC cache: bytes of data held by blocks reserved out of the spare and "
             "always operated in SLC mode (0: none)"},
    {.path = "slc.dynamic", .type = KEY_SIZE64, .offset = FIELD(slc.dynamic_bytes, uint64_t),
     .min = 0, .max = 1e15, .flags = KF_QUIET, .def = "0", .when = is_nand,
     .when_text = "flash.cell is NAND",
     .help = "dynamic SLC cache: free blocks borrowed in SLC mode, at most this many bytes of "
             "data, and only from capacity holding no valid data (0: none)"},
    {.path = "slc.program_us", .type = KEY_TIME, .offset = FIELD(slc.program_ns, uint64_t),
     .min = 1, .max = 100000, .derive = default_slc_program, .when = slc_on,
     .when_text = "slc.static or slc.dynamic > 0",
     .help = "program time (tPROG) of a page in SLC mode (default: the LSB page's)"},
    {.path = "slc.read_us", .type = KEY_TIME, .offset = FIELD(slc.read_ns, uint64_t),
     .min = 1, .max = 10000, .derive = default_slc_read, .when = slc_on,
     .when_text = "slc.static or slc.dynamic > 0",
     .help = "array read time (tR) of a page in SLC mode (default: the LSB page's)"},
    {.path = "slc.fold_idle_us", .type = KEY_TIME, .offset = FIELD(slc.fold_idle_ns, uint64_t),
     .min = 0, .max = 1e9, .def = "10000", .when = slc_on,
     .when_text = "slc.static or slc.dynamic > 0",
     .help = "folding (copying the cache to native blocks) starts after the device is idle this "
             "long (0: never)"},

    {.path = "buffer.size", .type = KEY_SIZE64, .offset = FIELD(buffer.size, uint64_t),
     .min = 0, .max = 1e12, .def = "0",
     .help = "controller DRAM write buffer, bytes of write data (0: none)"},
    {.path = "buffer.plp", .type = KEY_BOOL, .offset = FIELD(buffer.plp, int), .def = "false",
     .when = has_buffer, .when_text = "buffer.size > 0",
     .help = "power-loss protected: writes are always acknowledged from the buffer"},
    {.path = "buffer.write_cache", .type = KEY_BOOL, .offset = FIELD(buffer.write_cache, int),
     .def = "true", .when = volatile_buffer,
     .when_text = "buffer.size > 0 and the buffer is volatile (buffer.plp false)",
     .when_why = volatile_buffer_why,
     .help = "volatile write cache on (acknowledge from the buffer) or off (once on flash)"},
    {.path = "buffer.flush_start", .type = KEY_DOUBLE, .offset = FIELD(buffer.flush_start, double),
     .min = 0, .max = 1, .def = "0", .when = has_buffer, .when_text = "buffer.size > 0",
     .help = "flushing starts when dirty data exceeds this fraction of the buffer (0: at once)"},
    {.path = "buffer.flush_stop", .type = KEY_DOUBLE, .offset = FIELD(buffer.flush_stop, double),
     .min = 0, .max = 1, .def = "0", .when = has_buffer, .when_text = "buffer.size > 0",
     .help = "and goes on until dirty data is at or below this fraction"},
    {.path = "buffer.flush_idle_us", .type = KEY_TIME,
     .offset = FIELD(buffer.flush_idle_ns, uint64_t), .min = 0, .max = 1e9, .def = "0",
     .when = has_buffer, .when_text = "buffer.size > 0",
     .help = "flush everything once the device is idle this long (0: never)"},
    {.path = "buffer.flush_depth", .type = KEY_U32, .offset = FIELD(buffer.flush_depth, uint32_t),
     .min = 0, .max = 1000000, .def = "0", .when = has_buffer, .when_text = "buffer.size > 0",
     .help = "units written to flash at once by flushing, at most (0: one per plane)"},
    {.path = "buffer.dram_bw", .type = KEY_RATE, .offset = FIELD(buffer.dram_bytes_per_s, uint64_t),
     .min = 1e7, .max = 1e12, .def = "\"3200MB/s\"", .when = has_buffer,
     .when_text = "buffer.size > 0", .help = "copy rate into and out of the buffer"},
    {.path = "buffer.read_hits", .type = KEY_BOOL, .offset = FIELD(buffer.read_hits, int),
     .def = "true", .when = has_buffer, .when_text = "buffer.size > 0",
     .help = "reads of data still in the buffer are served from DRAM"},

    {.path = "read_ahead.window", .type = KEY_SIZE64, .offset = FIELD(read_ahead.window, uint64_t),
     .min = 0, .max = 67108864, .flags = KF_QUIET, .def = "0",
     .help = "controller read-ahead: bytes prefetched from flash into DRAM ahead of a sequential "
             "read stream, a whole number of mapping units (0: no read-ahead; needs a buffer)"},
    {.path = "read_ahead.trigger", .type = KEY_U32, .offset = FIELD(read_ahead.trigger, uint32_t),
     .min = 1, .max = 1000, .def = "2", .when = read_ahead_on,
     .when_text = "read_ahead.window > 0",
     .help = "sequential reads of a stream (each starting where the last ended) before it is "
             "prefetched"},
    {.path = "read_ahead.streams", .type = KEY_U32, .offset = FIELD(read_ahead.streams, uint32_t),
     .min = 1, .max = 64, .def = "4", .when = read_ahead_on,
     .when_text = "read_ahead.window > 0",
     .help = "sequential streams tracked at once, each with its own window of DRAM (least "
             "recently used replaced)"},

    /* Bit errors, ECC and read retry, read reclaim and patrol reads (rel/, doc/models.md
     * "Reliability"): off unless reliability.rber_model names a model. */
    {.path = "reliability.rber_model", .type = KEY_ENUM, .offset = FIELD(errors.model, int),
     .flags = KF_QUIET, .def = "\"off\"", .choices = rel_choices,
     .help = "raw bit errors: off, cell (the defaults of flash.cell), or the defaults of slc, "
             "mlc, tlc or qlc"},
    {.path = "reliability.rber_base", .type = KEY_DOUBLE, .offset = FIELD(errors.base, double),
     .min = 0, .max = 0.5, .derive = rel_def_base, REL_WHEN,
     .help = "RBER of a fresh page just programmed"},
    {.path = "reliability.rber_wear", .type = KEY_DOUBLE, .offset = FIELD(errors.wear, double),
     .min = 0, .max = 0.5, .derive = rel_def_wear, REL_WHEN,
     .help = "RBER added by wear: this x (P/E cycles / 1000) ^ rber_wear_exp"},
    {.path = "reliability.rber_wear_exp", .type = KEY_DOUBLE,
     .offset = FIELD(errors.wear_exp, double), .min = 0, .max = 10, .derive = rel_def_wear_exp,
     REL_WHEN, .help = "exponent of the wear term"},
    {.path = "reliability.rber_retention", .type = KEY_DOUBLE, .offset = FIELD(errors.ret, double),
     .min = 0, .max = 0.5, .derive = rel_def_ret, REL_WHEN,
     .help = "RBER added by retention: this x (1 + kcycles) ^ rber_retention_wear_exp x "
             "days ^ rber_retention_exp"},
    {.path = "reliability.rber_retention_wear_exp", .type = KEY_DOUBLE,
     .offset = FIELD(errors.ret_wear_exp, double), .min = 0, .max = 10,
     .derive = rel_def_ret_wear_exp, REL_WHEN, .help = "wear exponent of the retention term"},
    {.path = "reliability.rber_retention_exp", .type = KEY_DOUBLE,
     .offset = FIELD(errors.ret_exp, double), .min = 0, .max = 4, .derive = rel_def_ret_exp,
     REL_WHEN, .help = "retention-age exponent of the retention term"},
    {.path = "reliability.rber_disturb", .type = KEY_DOUBLE, .offset = FIELD(errors.rd, double),
     .min = 0, .max = 0.5, .derive = rel_def_rd, REL_WHEN,
     .help = "RBER added by read disturb: this x (1 + kcycles) ^ rber_disturb_wear_exp x "
             "(reads of the block since its erase / 1000) ^ rber_disturb_exp"},
    {.path = "reliability.rber_disturb_wear_exp", .type = KEY_DOUBLE,
     .offset = FIELD(errors.rd_wear_exp, double), .min = 0, .max = 10,
     .derive = rel_def_rd_wear_exp, REL_WHEN, .help = "wear exponent of the disturb term"},
    {.path = "reliability.rber_disturb_exp", .type = KEY_DOUBLE,
     .offset = FIELD(errors.rd_exp, double), .min = 0, .max = 4, .derive = rel_def_rd_exp,
     REL_WHEN, .help = "read-count exponent of the disturb term"},
    {.path = "reliability.rber_variation", .type = KEY_DOUBLE,
     .offset = FIELD(errors.variation, double), .min = 0, .max = 3, .derive = rel_def_variation,
     REL_WHEN, .help = "block-to-block variation: sigma of the log of each block's RBER factor "
                       "(log-normal, mean 1; 0: none)"},
    {.path = "reliability.ecc_codeword", .type = KEY_SIZE, .offset = FIELD(errors.codeword, uint32_t),
     .min = 64, .max = 65536, .flags = KF_POW2, .derive = rel_def_codeword, REL_WHEN,
     .help = "bytes of data per ECC codeword (a power of two, at most the mapping unit)"},
    {.path = "reliability.ecc_t", .type = KEY_U32, .offset = FIELD(errors.t, uint32_t), .min = 0,
     .max = 524288, .derive = rel_def_t, REL_WHEN,
     .help = "bit errors per codeword hard-decision decoding corrects"},
    {.path = "reliability.ecc_decode_us", .type = KEY_TIME, .offset = FIELD(errors.decode_ns, uint64_t),
     .min = 0, .max = 10000, .derive = rel_def_decode, REL_WHEN,
     .help = "time of each hard decode attempt, on the die's time line"},
    {.path = "reliability.retry_max", .type = KEY_U32, .offset = FIELD(errors.retry_max, uint32_t),
     .min = 0, .max = 32, .derive = rel_def_retry_max, REL_WHEN,
     .help = "read-retry steps (a further tR each, with shifted read voltages) before soft "
             "decoding"},
    {.path = "reliability.retry_factor", .type = KEY_DOUBLE,
     .offset = FIELD(errors.retry_factor, double), .min = 0, .max = 1,
     .derive = rel_def_retry_factor, REL_WHEN,
     .help = "each retry step multiplies the effective RBER by this"},
    {.path = "reliability.soft_reads", .type = KEY_U32, .offset = FIELD(errors.soft_reads, uint32_t),
     .min = 0, .max = 16, .derive = rel_def_soft_reads, REL_WHEN,
     .help = "extra sensing reads (tR each) of soft decoding after the last retry (0: no soft "
             "decoding)"},
    {.path = "reliability.soft_t", .type = KEY_U32, .offset = FIELD(errors.soft_t, uint32_t),
     .min = 0, .max = 524288, .derive = rel_def_soft_t, REL_WHEN,
     .help = "bit errors per codeword soft decoding corrects (at the last retry's RBER)"},
    {.path = "reliability.soft_decode_us", .type = KEY_TIME,
     .offset = FIELD(errors.soft_decode_ns, uint64_t), .min = 0, .max = 100000,
     .derive = rel_def_soft_decode, REL_WHEN, .help = "time of the soft decode"},
    {.path = "reliability.reclaim_threshold", .type = KEY_DOUBLE,
     .offset = FIELD(errors.reclaim_at, double), .min = 0, .max = 1, .derive = rel_def_reclaim,
     REL_WHEN, .help = "read reclaim: relocate a block once a read finds its expected errors per "
                       "codeword at this fraction of ecc_t (0: never)"},
    {.path = "reliability.reclaim_max_blocks", .type = KEY_U32,
     .offset = FIELD(errors.reclaim_max, uint32_t), .min = 0, .max = 1000000,
     .derive = rel_def_reclaim_max, REL_WHEN,
     .help = "read reclaim's rate limit: at most this many blocks asked to move per "
             "reclaim_period_us (0: no limit)"},
    {.path = "reliability.reclaim_period_us", .type = KEY_TIME,
     .offset = FIELD(errors.reclaim_period_ns, uint64_t), .min = 1, .max = 1e12,
     .derive = rel_def_reclaim_period, REL_WHEN,
     .help = "the period of read reclaim's rate limit (simulated time)"},
    {.path = "reliability.patrol_interval_us", .type = KEY_TIME,
     .offset = FIELD(errors.patrol_ns, uint64_t), .min = 0, .max = 1e12, .derive = rel_def_patrol,
     REL_WHEN, .help = "patrol reads: one page read per this much idle time, block after block "
                       "(0: none)"},
    /* Faults (rel/fault.h, doc/models.md "Faults"): all quiet and off by default, so that a
     * model without them prints and runs exactly as before. */
    {.path = "reliability.bad_fraction", .type = KEY_DOUBLE,
     .offset = FIELD(fault.bad_fraction, double), .min = 0, .max = 0.5, .flags = KF_QUIET,
     .def = "0", .kinds = K_SSD,
     .help = "factory bad blocks: this fraction of each plane's blocks, placed from the seed, "
             "never used (0: none)"},
    {.path = "reliability.grown_prob_rated", .type = KEY_DOUBLE,
     .offset = FIELD(fault.grown_prob_rated, double), .min = 0, .max = 1, .flags = KF_QUIET,
     .def = "0", .kinds = K_SSD,
     .help = "grown bad blocks: probability that a program/erase cycle fails the block when its "
             "erase count is the rated P/E cycles (0: none)"},
    {.path = "reliability.grown_exponent", .type = KEY_DOUBLE,
     .offset = FIELD(fault.grown_exponent, double), .min = 0, .max = 50, .flags = KF_QUIET,
     .def = "3", .kinds = K_SSD,
     .help = "grown bad blocks: the probability is grown_prob_rated x (P/E / rated)^this, at "
             "most 1"},
    {.path = "reliability.plp_energy_mj", .type = KEY_DOUBLE,
     .offset = FIELD(fault.plp_energy_mj, double), .min = 0, .max = 1e9, .flags = KF_QUIET,
     .def = "0", .kinds = K_SSD,
     .help = "protected buffer (buffer.plp): capacitor energy for the flush at power loss, mJ; "
             "units beyond it are lost (0: always enough)"},
    {.path = "reliability.plp_page_uj", .type = KEY_DOUBLE,
     .offset = FIELD(fault.plp_page_uj, double), .min = 0.001, .max = 1e6, .flags = KF_QUIET,
     .def = "50", .kinds = K_SSD,
     .help = "energy of one page program (and its transfer) during the power-loss flush, uJ"},
    {.path = "reliability.mount_mode", .type = KEY_ENUM, .offset = FIELD(fault.mount_mode, int),
     .flags = KF_QUIET, .def = "\"checkpoint\"", .choices = mount_choices, .kinds = K_SSD,
     .help = "how the FTL rebuilds its mapping at power-up: checkpoint (read the last mapping "
             "checkpoint, replay the journal since) or scan (read every written page's metadata)"},
    {.path = "reliability.mount_checkpoint_pages", .type = KEY_U32,
     .offset = FIELD(fault.mount_checkpoint_pages, uint32_t), .min = 1, .max = 1u << 30,
     .flags = KF_QUIET, .def = "65536", .kinds = K_SSD,
     .help = "checkpoint mount: mapping updates between two checkpoints of the mapping table"},
    {.path = "reliability.rebuild_rate", .type = KEY_RATE,
     .offset = FIELD(fault.rebuild_bytes_per_s, uint64_t), .min = 1e3, .max = 1e12,
     .flags = KF_QUIET, .def = "100000000", .kinds = K_SSD,
     .help = "after a die failure with parity: its data is rebuilt onto the other dies at most "
             "this fast"},
    {.path = "reliability.rebuild_xor_us", .type = KEY_TIME,
     .offset = FIELD(fault.rebuild_xor_ns, uint64_t), .min = 0, .max = 1000, .flags = KF_QUIET,
     .def = "1", .kinds = K_SSD,
     .help = "reconstructing a page of a failed die: controller time to XOR each page read"},

    {.path = "hdd.capacity", .type = KEY_SIZE64, .offset = FIELD(hdd.capacity, uint64_t),
     .min = 1e6, .max = 1e15, .flags = KF_REQUIRED, .kinds = K_HDD,
     .help = "bytes the disk holds (a multiple of 512)"},
    {.path = "hdd.rpm", .type = KEY_U32, .offset = FIELD(hdd.rpm, uint32_t), .min = 1000,
     .max = 30000, .flags = KF_REQUIRED, .kinds = K_HDD, .help = "spindle speed, revolutions per minute"},
    {.path = "hdd.heads", .type = KEY_U32, .offset = FIELD(hdd.heads, uint32_t), .min = 1,
     .max = 64, .def = "4", .kinds = K_HDD, .help = "recording surfaces (heads)"},
    {.path = "hdd.zones", .type = KEY_U32, .offset = FIELD(hdd.zones, uint32_t), .min = 1,
     .max = 1000, .def = "16", .kinds = K_HDD,
     .help = "recording zones from the outer edge (LBA 0) inwards"},
    {.path = "hdd.outer_rate", .type = KEY_RATE, .offset = FIELD(hdd.outer_bytes_per_s, uint64_t),
     .min = 1e6, .max = 1e10, .flags = KF_REQUIRED, .kinds = K_HDD,
     .help = "media transfer rate of the outermost zone"},
    {.path = "hdd.inner_rate", .type = KEY_RATE, .offset = FIELD(hdd.inner_bytes_per_s, uint64_t),
     .min = 1e6, .max = 1e10, .flags = KF_REQUIRED, .kinds = K_HDD,
     .help = "media transfer rate of the innermost zone"},
    {.path = "hdd.seek_track_us", .type = KEY_TIME, .offset = FIELD(hdd.seek_track_ns, uint64_t),
     .min = 10, .max = 100000, .flags = KF_REQUIRED, .kinds = K_HDD,
     .help = "seek to the next cylinder (track to track)"},
    {.path = "hdd.seek_avg_us", .type = KEY_TIME, .offset = FIELD(hdd.seek_avg_ns, uint64_t),
     .min = 10, .max = 100000, .flags = KF_REQUIRED, .kinds = K_HDD,
     .help = "average seek (over a third of the stroke)"},
    {.path = "hdd.seek_full_us", .type = KEY_TIME, .offset = FIELD(hdd.seek_full_ns, uint64_t),
     .min = 10, .max = 100000, .flags = KF_REQUIRED, .kinds = K_HDD, .help = "full-stroke seek"},
    {.path = "hdd.write_settle_us", .type = KEY_TIME,
     .offset = FIELD(hdd.write_settle_ns, uint64_t), .min = 0, .max = 10000, .def = "0",
     .kinds = K_HDD, .help = "extra settling time before a write"},
    {.path = "hdd.cache", .type = KEY_SIZE64, .offset = FIELD(hdd.cache_bytes, uint64_t),
     .min = 0, .max = 1e10, .def = "\"16MiB\"", .kinds = K_HDD, .help = "on-disk cache, bytes"},
    {.path = "hdd.write_cache", .type = KEY_BOOL, .offset = FIELD(hdd.write_cache, int),
     .def = "true", .kinds = K_HDD, .help = "acknowledge writes once they are in the cache"},
    {.path = "hdd.read_ahead", .type = KEY_BOOL, .offset = FIELD(hdd.read_ahead, int),
     .def = "true", .kinds = K_HDD, .help = "read on past a read into the cache while idle"},
    {.path = "hdd.scheduler", .type = KEY_ENUM, .offset = FIELD(hdd.sched, enum ssdsim__hdd_sched),
     .def = "\"satf\"", .choices = sched_choices, .kinds = K_HDD,
     .help = "order of queued commands: fcfs, or satf (shortest access time first, as NCQ)"},
    {.path = "hdd.segments", .type = KEY_U32, .offset = FIELD(hdd.segments, uint32_t), .min = 1,
     .max = 64, .def = "1", .kinds = K_HDD,
     .help = "read segments of the cache; with more than one, each keeps its own sequential "
             "stream (LRU), and a stream found sequential is prefetched a whole segment ahead"},
    {.path = "hdd.segment_size", .type = KEY_SIZE64, .offset = FIELD(hdd.segment_bytes, uint64_t),
     .min = 512, .max = 1e10, .derive = default_segment_size, .kinds = K_HDD, .when = multi_segment,
     .when_text = "hdd.segments > 1",
     .help = "bytes one read segment holds (default: hdd.cache / hdd.segments)"},
    {.path = "hdd.prefetch_min", .type = KEY_SIZE64,
     .offset = FIELD(hdd.prefetch_min_bytes, uint64_t), .min = 512, .max = 1e10,
     .derive = default_prefetch_min, .kinds = K_HDD, .when = multi_segment,
     .when_text = "hdd.segments > 1",
     .help = "bytes a sequential stream is prefetched past a read even when other commands "
             "wait (SCSI MINIMUM PRE-FETCH; default: hdd.segment_size)"},
};

/* clang-format on */

#define N_KEYS (sizeof keys / sizeof keys[0])

/* What the other model_*.c files see of the tables (model_int.h). */
const struct key_spec *const ssdsim__model_keys = keys;
const size_t ssdsim__model_n_keys = N_KEYS;
const struct plugin_section *const ssdsim__model_plugin_sections = plugin_sections;
const size_t ssdsim__model_n_plugin_sections = SSDSIM__ARRAY_LEN(plugin_sections);
const struct choice *const ssdsim__model_cell_choices = cell_choices;
