/* model.c: loading, validating, overriding and printing device models.
 *
 * A model file is JSON. cJSON parses it; then one static table (`keys` below) drives everything
 * else: the structure walk that rejects unknown and duplicate keys, the typed and range-checked
 * conversion of each value into struct ssdsim_model (model.h), the defaults, ssdsim_model_set and
 * the canonical JSON printed back by ssdsim_model_to_json. A handful of checks that involve more
 * than one key (geometry size, over-provisioning against the GC threshold) follow the table.
 *
 * The first problem found is reported (ssdsim_error holds one message), in a fixed order: syntax,
 * then the structure walk in document order, then the keys in table order, then the cross-field
 * checks. Nothing here is on a hot path, so glib strings are used freely for messages.
 */
#include "config/model.h"
#include "config/jsonutil.h"
#include "config/units.h"
#include "hdd/hdd.h"
#include "hw/link.h"
#include "plugin.h"
#include "abi.h"

#include <cJSON.h>
#include <glib.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The generic MLC model, embedded at build time from models/generic-mlc.json (embed.sh). */
extern const char ssdsim__builtin_model_json[];

#define SET_LABEL "--set"
#define STRING_LABEL "<string>"
#define BUILTIN_LABEL "built-in generic-mlc"

/* ------------------------------------------------------------------------------------------ */
/* The key table                                                                               */

enum key_type {
    KEY_STRING,    /* any string; kept only in the JSON tree (no struct field) */
    KEY_U32,       /* uint32_t: an integral number */
    KEY_DOUBLE,    /* double */
    KEY_SIZE,      /* uint32_t bytes: a number of bytes or a size string ("4KiB") */
    KEY_SIZE64,    /* uint64_t bytes: the same, for capacities */
    KEY_TIME,      /* uint64_t ns: a number of microseconds or a time string ("50us") */
    KEY_TIME_LIST, /* uint64_t[SSDSIM__MAX_PAGE_TYPES] ns: one time, or one per page type */
    KEY_RATE,      /* uint64_t bytes/s: a number or a rate string ("600MB/s") */
    KEY_ENUM,      /* an enum field set from one of `choices` (value stored) */
    KEY_ENUM_NAME, /* char[SSDSIM__NAME_MAX] set from one of `choices` (name stored) */
    KEY_BOOL,      /* int: true or false */
    KEY_PLUGIN,    /* char[SSDSIM__NAME_MAX]: the name of a registered plugin of `kind` */
};

/* Flags of a key. */
#define KF_REQUIRED 0x1u /* no default: the key must be present */
#define KF_POW2 0x2u     /* KEY_SIZE: must be a power of two */
#define KF_QUIET 0x4u    /* left out of the canonical JSON while off (false or 0): the NAND
                            operations added after the reference outputs print only when on */

/* Which kinds of model a key belongs to (0: solid-state only). A key of another kind, or one
 * whose `when` does not hold, is an error when present and absent from the canonical JSON. */
#define K_SSD 0x1u
#define K_HDD 0x2u
#define K_DEV (K_SSD | K_HDD)
#define K_LINK 0x4u /* also a key of a system's uplink (system.uplink.<key>) */

/* A named value: enum names, or the only values a KEY_U32 may take. Lists end with a NULL name. */
struct choice {
    const char *name;
    int value;
};

struct key_spec {
    const char *path;   /* full dotted path, e.g. "geometry.channels" */
    enum key_type type; /* how the JSON value is read and stored */
    size_t offset;      /* of the field in struct ssdsim_model; NO_FIELD for KEY_STRING */
    double min, max;    /* in the unit of the JSON number: count, bytes, us, bytes/s */
    unsigned flags;     /* KF_* */
    const char *def;    /* default as JSON text, or NULL */
    void (*derive)(struct ssdsim_model *m); /* default computed from keys above it, or NULL */
    const struct choice *choices;           /* KEY_ENUM*: names; KEY_U32: allowed values */
    const char *help;                       /* one line, mirrored in doc/models.md */
    ssdsim_plugin_kind kind;                /* KEY_PLUGIN: which registry */
    unsigned kinds;                         /* K_*; 0 = K_SSD */
    bool (*when)(const struct ssdsim_model *m); /* applies only when this holds, or NULL */
    const char *when_text;                  /* "host.interface is \"pcie\"": for messages */
};

/* The sections whose plugin may declare parameters: the plugin's name key, its registry, and
 * where the values go. A plugin's parameters are keys of its section beside the table's. */
struct plugin_section {
    const char *section;  /* "gc" */
    const char *name_key; /* "policy" */
    ssdsim_plugin_kind kind;
    size_t name_offset;   /* char[SSDSIM__NAME_MAX] */
    size_t params_offset; /* double[SSDSIM__MAX_PARAMS] */
};
static const struct plugin_section plugin_sections[] = {
    {"ftl", "type", SSDSIM_PLUGIN_FTL, offsetof(struct ssdsim_model, ftl.type),
     offsetof(struct ssdsim_model, ftl.params)},
    {"gc", "policy", SSDSIM_PLUGIN_GC, offsetof(struct ssdsim_model, gc.policy),
     offsetof(struct ssdsim_model, gc.params)},
    {"wl", "policy", SSDSIM_PLUGIN_WL, offsetof(struct ssdsim_model, wl.policy),
     offsetof(struct ssdsim_model, wl.params)},
};

#define NO_FIELD SIZE_MAX

/* The formatter would spread the key table over one line per field; it reads best as one key
 * per few lines, so it is kept out of clang-format's hands. */
/* clang-format off */

/* Offset of a field whose C type must be `type`: a table entry that names a field of another
 * type fails to compile (negative array size) instead of corrupting memory at run time. */
#define FIELD(member, type)                                                                        \
    (offsetof(struct ssdsim_model, member) +                                                       \
     0 * sizeof(char[_Generic(((struct ssdsim_model *)0)->member, type: 1, default: -1)]))

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
static const struct choice sched_choices[] = {{"fcfs", SSDSIM__HDD_FCFS},
                                              {"satf", SSDSIM__HDD_SATF}, {NULL, 0}};

/* Page types per word line: the bits per cell; media without erase has one. */
static uint32_t cell_page_types(enum ssdsim__cell cell)
{
    return cell == SSDSIM__CELL_XPOINT ? 1 : (uint32_t)cell;
}

static bool is_xpoint(const struct ssdsim_model *m)
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
static bool has_buffer(const struct ssdsim_model *m)
{
    return m->buffer.size > 0;
}
static bool volatile_buffer(const struct ssdsim_model *m)
{
    return m->buffer.size > 0 && !m->buffer.plp;
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
    snprintf(m->ftl.type, sizeof m->ftl.type, "%s", is_xpoint(m) ? "direct" : "page");
}
static void default_op(struct ssdsim_model *m)
{
    m->ftl.op = is_xpoint(m) ? 0 : 0.07;
}

/* The interface's own per-command time is filled in by ssdsim__link_derive (check_cross). */
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
static const struct key_spec keys[] = {
    {.path = "name", .type = KEY_STRING, .offset = NO_FIELD, .kinds = K_DEV,
     .help = "short name of the model, shown in reports"},
    {.path = "description", .type = KEY_STRING, .offset = NO_FIELD, .kinds = K_DEV,
     .help = "free text: what the model represents and where its figures come from"},

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
    {.path = "flash.read_us", .type = KEY_TIME_LIST, .offset = FIELD(flash.read_ns, uint64_t *),
     .min = 1, .max = 10000, .flags = KF_REQUIRED,
     .help = "array read time (tR) per page type, LSB first; one number applies to all"},
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

    {.path = "ftl.type", .type = KEY_PLUGIN, .offset = FIELD(ftl.type, char *),
     .derive = default_ftl_type, .kind = SSDSIM_PLUGIN_FTL,
     .help = "mapping scheme: a registered FTL (ssdsim list); default page (direct for xpoint)"},
    {.path = "ftl.op", .type = KEY_DOUBLE, .offset = FIELD(ftl.op, double), .min = 0, .max = 10,
     .derive = default_op,
     .help = "over-provisioning, (physical - logical) / logical (default 0.07; 0 for xpoint)"},
    {.path = "ftl.mapping_unit", .type = KEY_SIZE, .offset = FIELD(ftl.mapping_unit, uint32_t),
     .min = 512, .max = 65536, .flags = KF_POW2, .derive = default_mapping_unit,
     .help = "bytes per logical page (mapping entry); equal to geometry.page_size for now"},
    {.path = "ftl.hot_cold", .type = KEY_BOOL, .offset = FIELD(ftl.hot_cold, int),
     .def = "false", .help = "write recently rewritten (hot) host data to its own frontier"},
    {.path = "ftl.hot_window", .type = KEY_DOUBLE, .offset = FIELD(ftl.hot_window, double),
     .min = 0.001, .max = 100, .def = "1",
     .help = "hot: the host last wrote the page less than this many logical capacities ago"},

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
    {.path = "gc.separate", .type = KEY_BOOL, .offset = FIELD(gc.separate, int), .def = "true",
     .help = "GC copies go to their own write frontier, apart from host writes"},

    {.path = "wl.policy", .type = KEY_PLUGIN, .offset = FIELD(wl.policy, char *),
     .def = "\"none\"", .kind = SSDSIM_PLUGIN_WL,
     .help = "wear leveling: a registered wear leveler (ssdsim list)"},

    {.path = "buffer.size", .type = KEY_SIZE64, .offset = FIELD(buffer.size, uint64_t),
     .min = 0, .max = 1e12, .def = "0",
     .help = "controller DRAM write buffer, bytes of write data (0: none)"},
    {.path = "buffer.plp", .type = KEY_BOOL, .offset = FIELD(buffer.plp, int), .def = "false",
     .when = has_buffer, .when_text = "buffer.size > 0",
     .help = "power-loss protected: writes are always acknowledged from the buffer"},
    {.path = "buffer.write_cache", .type = KEY_BOOL, .offset = FIELD(buffer.write_cache, int),
     .def = "true", .when = volatile_buffer, .when_text = "the buffer is volatile (buffer.plp false)",
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
};

/* clang-format on */

#define N_KEYS (sizeof keys / sizeof keys[0])

/* ------------------------------------------------------------------------------------------ */
/* Messages                                                                                    */

struct ctx {
    const char *label;
    ssdsim_error *err;
    struct ssdsim_model *m;
    const struct ssdsim__plugin_header *plugin; /* of the section being checked, for hints */
    const char *base;     /* the model file's path: a system's member is found beside it */
    const char *remap_from, *remap_to; /* a path prefix shown as another (system.uplink) */
};

static int config_error(struct ctx *c, const char *path, const char *fmt, ...) SSDSIM__PRINTF(3, 4);

static int config_error(struct ctx *c, const char *path, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    g_autofree char *what = g_strdup_vprintf(fmt, ap);
    va_end(ap);
    g_autofree char *shown = NULL;
    size_t lf = c->remap_from ? strlen(c->remap_from) : 0;
    if (path && lf && strncmp(path, c->remap_from, lf) == 0)
        path = shown = g_strdup_printf("%s%s", c->remap_to, path + lf);
    return ssdsim__error_set(c->err, SSDSIM_ECONFIG, c->label, path, "%s", what);
}

/* A double as short as it can be written and still read back identically. */
static void format_number(double d, char *buf, size_t len)
{
    if (d == floor(d) && fabs(d) < 1e15) {
        snprintf(buf, len, "%.0f", d);
        return;
    }
    snprintf(buf, len, "%.15g", d);
    if (strtod(buf, NULL) != d)
        snprintf(buf, len, "%.17g", d);
}

/* Append a string quoted, cut at 40 bytes, with control characters and quotes escaped so that
 * the message stays on one line. */
static void append_quoted(GString *out, const char *s)
{
    size_t n = 0;
    g_string_append_c(out, '"');
    for (; s[n] && n < 40; n++) {
        unsigned char ch = (unsigned char)s[n];
        if (ch == '"' || ch == '\\')
            g_string_append_printf(out, "\\%c", ch);
        else if (ch < 0x20 || ch == 0x7f)
            g_string_append_printf(out, "\\x%02x", ch);
        else
            g_string_append_c(out, (char)ch);
    }
    if (s[n])
        g_string_append(out, "...");
    g_string_append_c(out, '"');
}

/* What a JSON value is, for "got ..." in messages. With `with_type`, the JSON type is named
 * first ("a string (\"8\")"): used when the type itself is wrong. */
static char *describe(const cJSON *v, bool with_type)
{
    GString *s = g_string_new(NULL);
    char num[40];
    if (cJSON_IsNumber(v)) {
        format_number(v->valuedouble, num, sizeof num);
        g_string_append_printf(s, with_type ? "a number (%s)" : "%s", num);
    } else if (cJSON_IsString(v)) {
        if (with_type)
            g_string_append(s, "a string (");
        append_quoted(s, v->valuestring);
        if (with_type)
            g_string_append_c(s, ')');
    } else if (cJSON_IsBool(v)) {
        g_string_append_printf(s, with_type ? "a bool (%s)" : "%s",
                               cJSON_IsTrue(v) ? "true" : "false");
    } else {
        /* null, an array, an object: the kind is all there is to say */
        g_string_append(s, ssdsim__json_type_name(v));
    }
    return g_string_free(s, FALSE);
}

static const char *cell_name(int cell)
{
    for (const struct choice *ch = cell_choices; ch->name; ch++)
        if (ch->value == cell)
            return ch->name;
    return "?";
}

/* "a, b or c" from a choice list, each name quoted when `quote` is set. */
static void append_choices(GString *s, const struct choice *choices, bool quote)
{
    for (const struct choice *ch = choices; ch->name; ch++) {
        if (ch != choices)
            g_string_append(s, ch[1].name ? ", " : " or ");
        g_string_append_printf(s, quote ? "\"%s\"" : "%s", ch->name);
    }
}

/* What a key accepts, for "expected ..." in messages. */
static char *expected_text(const struct key_spec *k)
{
    GString *s = g_string_new(NULL);
    char lo[40], hi[40];
    format_number(k->min, lo, sizeof lo);
    format_number(k->max, hi, sizeof hi);
    switch (k->type) {
    case KEY_STRING:
        g_string_append(s, "a string");
        break;
    case KEY_U32:
        if (k->choices)
            append_choices(s, k->choices, false);
        else
            g_string_append_printf(s, "an integer in [%s, %s]", lo, hi);
        break;
    case KEY_DOUBLE:
        g_string_append_printf(s, "a number in [%s, %s]", lo, hi);
        break;
    case KEY_SIZE:
    case KEY_SIZE64:
        g_string_append_printf(s, "%s in [%s, %s] bytes (a number or a size string like \"4KiB\")",
                               (k->flags & KF_POW2) ? "a power of two" : "a size", lo, hi);
        break;
    case KEY_TIME:
    case KEY_TIME_LIST:
        g_string_append_printf(s, "a number in [%s, %s] (microseconds) or a time string", lo, hi);
        break;
    case KEY_RATE:
        g_string_append_printf(
            s, "a number in [%s, %s] (bytes/s) or a rate string like \"600MB/s\"", lo, hi);
        break;
    case KEY_BOOL:
        g_string_append(s, "true or false");
        break;
    case KEY_PLUGIN: {
        g_autofree char *names = ssdsim__plugin_names(k->kind, NULL, NULL);
        g_string_append_printf(s, "the name of a registered %s (%s)",
                               ssdsim__plugin_kind_name(k->kind), names);
        break;
    }
    case KEY_ENUM:
    case KEY_ENUM_NAME:
        if (k->choices[1].name)
            g_string_append(s, "one of ");
        append_choices(s, k->choices, true);
        break;
    }
    return g_string_free(s, FALSE);
}

/* "<path>: expected <what the key accepts>, got <v>". */
static int bad_value(struct ctx *c, const struct key_spec *k, const char *path, const cJSON *v,
                     bool wrong_type)
{
    g_autofree char *expected = expected_text(k);
    g_autofree char *got = describe(v, wrong_type);
    return config_error(c, path, "expected %s, got %s", expected, got);
}

/* ------------------------------------------------------------------------------------------ */
/* Unknown and duplicate keys                                                                  */

/* The component of table path `path` right after `prefix` ("" for the top level), as a new
 * string; NULL when the path is not under the prefix. */
static char *child_name(const char *path, const char *prefix)
{
    size_t lp = strlen(prefix);
    const char *rest = path;
    if (lp > 0) {
        if (strncmp(path, prefix, lp) != 0 || path[lp] != '.')
            return NULL;
        rest = path + lp + 1;
    }
    const char *dot = strchr(rest, '.');
    return dot ? g_strndup(rest, (size_t)(dot - rest)) : g_strdup(rest);
}

enum path_kind { PATH_UNKNOWN, PATH_LEAF, PATH_SECTION };

static enum path_kind classify(const char *path)
{
    size_t lp = strlen(path);
    for (size_t i = 0; i < N_KEYS; i++) {
        if (strcmp(keys[i].path, path) == 0)
            return PATH_LEAF;
        if (strncmp(keys[i].path, path, lp) == 0 && keys[i].path[lp] == '.')
            return PATH_SECTION;
    }
    return PATH_UNKNOWN;
}

/* "<prefix>.<name>: unknown key (did you mean '<nearest>'?)". The nearest known name at the same
 * level is suggested when it is close; otherwise a key of that name elsewhere in the model
 * ("flash.channels" -> "geometry.channels"); otherwise the names known at that level. */
static int unknown_key(struct ctx *c, const char *prefix, const char *name)
{
    g_autofree char *path = prefix[0] ? g_strdup_printf("%s.%s", prefix, name) : g_strdup(name);
    g_autofree char *best = NULL;
    size_t best_dist = SIZE_MAX;
    GString *known = g_string_new(NULL);

    for (size_t i = 0; i < N_KEYS; i++) {
        g_autofree char *cand = child_name(keys[i].path, prefix);
        if (!cand)
            continue;
        /* list each name once (sections repeat in the table) */
        bool seen = false;
        for (size_t j = 0; j < i && !seen; j++) {
            g_autofree char *prev = child_name(keys[j].path, prefix);
            seen = prev && strcmp(prev, cand) == 0;
        }
        if (seen)
            continue;
        g_string_append_printf(known, "%s%s", known->len ? ", " : "", cand);
        if (strlen(name) <= SSDSIM__EDIT_DISTANCE_MAX_BYTES) {
            /* case is ignored: a difference of case only ("OP") is the closest possible */
            size_t dist = ssdsim__edit_distance(name, cand);
            if (dist < best_dist) {
                best_dist = dist;
                g_free(best);
                best = g_strdup(cand);
            }
        }
    }

    /* the parameters of the section's plugin are names known here too */
    for (int i = 0; c->plugin && c->plugin->params && c->plugin->params[i].key; i++) {
        const char *cand = c->plugin->params[i].key;
        g_string_append_printf(known, "%s%s", known->len ? ", " : "", cand);
        size_t dist = ssdsim__edit_distance(name, cand);
        if (dist < best_dist) {
            best_dist = dist;
            g_free(best);
            best = g_strdup(cand);
        }
    }

    int rc;
    size_t best_len = best ? strlen(best) : 0;
    if (strchr(name, '.') && classify(path) != PATH_UNKNOWN) {
        rc = config_error(c, path, "unknown key (write nested objects, not dotted names)");
    } else if (best && best_dist < best_len && best_dist <= best_len / 3 + 1) {
        rc = config_error(c, path, "unknown key (did you mean '%s'?)", best);
    } else {
        const char *elsewhere = NULL;
        for (size_t i = 0; i < N_KEYS && !elsewhere; i++) {
            const char *dot = strrchr(keys[i].path, '.');
            if (dot && strcmp(dot + 1, name) == 0)
                elsewhere = keys[i].path;
        }
        if (elsewhere)
            rc = config_error(c, path, "unknown key (did you mean '%s'?)", elsewhere);
        else
            rc = config_error(c, path, "unknown key (known keys here: %s)", known->str);
    }
    g_string_free(known, TRUE);
    return rc;
}

/* The plugin section named `prefix`, or NULL. */
static const struct plugin_section *plugin_section_of(const char *prefix)
{
    for (size_t s = 0; s < SSDSIM__ARRAY_LEN(plugin_sections); s++)
        if (!strcmp(plugin_sections[s].section, prefix))
            return &plugin_sections[s];
    return NULL;
}

/* The plugin a section object selects (its name key, else the table's default), or NULL. */
static const struct ssdsim__plugin_header *section_plugin(const struct plugin_section *ps,
                                                          const cJSON *obj)
{
    const cJSON *n = obj ? cJSON_GetObjectItemCaseSensitive(obj, ps->name_key) : NULL;
    if (cJSON_IsString(n))
        return ssdsim__plugin_find(ps->kind, n->valuestring);
    g_autofree char *path = g_strdup_printf("%s.%s", ps->section, ps->name_key);
    for (size_t i = 0; i < N_KEYS; i++) {
        if (!strcmp(keys[i].path, path) && keys[i].def) {
            cJSON *d = cJSON_Parse(keys[i].def);
            const struct ssdsim__plugin_header *p =
                cJSON_IsString(d) ? ssdsim__plugin_find(ps->kind, d->valuestring) : NULL;
            cJSON_Delete(d);
            return p;
        }
    }
    return NULL;
}

/* Index of parameter `name` of plugin `p`, or -1. */
static int param_index(const struct ssdsim__plugin_header *p, const char *name)
{
    for (int i = 0; p && p->params && p->params[i].key; i++)
        if (!strcmp(p->params[i].key, name))
            return i;
    return -1;
}

/* Walk one object of the document: no duplicate names, no unknown names, and every section is
 * an object (walked in turn). Runs before any value is converted, in document order. */
static int check_object(struct ctx *c, const cJSON *obj, const char *prefix)
{
    for (const cJSON *child = obj->child; child; child = child->next) {
        const char *name = child->string ? child->string : "";
        g_autofree char *path = prefix[0] ? g_strdup_printf("%s.%s", prefix, name) : g_strdup(name);
        for (const cJSON *prev = obj->child; prev != child; prev = prev->next)
            if (prev->string && strcmp(prev->string, name) == 0)
                return config_error(c, path, "duplicate key");
        if (strchr(name, '.'))
            return unknown_key(c, prefix, name); /* a dotted name is never a key */
        if (!prefix[0] && (!strcmp(name, "spec") || !strcmp(name, "system")))
            continue; /* checked by spec_build and system_build */
        switch (classify(path)) {
        case PATH_LEAF:
            break;
        case PATH_SECTION: {
            if (!cJSON_IsObject(child)) {
                g_autofree char *got = describe(child, true);
                return config_error(c, path, "expected an object, got %s", got);
            }
            int rc = check_object(c, child, path);
            if (rc != 0)
                return rc;
            break;
        }
        case PATH_UNKNOWN: {
            /* A parameter of the plugin this section selects is a key too. */
            const struct plugin_section *ps = plugin_section_of(prefix);
            const struct ssdsim__plugin_header *p = ps ? section_plugin(ps, obj) : NULL;
            if (p && param_index(p, name) >= 0)
                break;
            c->plugin = p;
            return unknown_key(c, prefix, name);
        }
        }
    }
    return 0;
}

/* The value at a dotted path of a tree that passed check_object (sections are objects). */
static cJSON *lookup(const cJSON *root, const char *path)
{
    const cJSON *cur = root;
    const char *p = path;
    while (cur) {
        const char *dot = strchr(p, '.');
        if (!dot)
            return cJSON_GetObjectItemCaseSensitive(cur, p);
        g_autofree char *name = g_strndup(p, (size_t)(dot - p));
        cur = cJSON_GetObjectItemCaseSensitive(cur, name);
        if (cur && !cJSON_IsObject(cur))
            return NULL;
        p = dot + 1;
    }
    return NULL;
}

/* ------------------------------------------------------------------------------------------ */
/* Values                                                                                      */

/* A time given as microseconds (number) or with a unit (string), in ns within the key's range. */
static int read_time(struct ctx *c, const struct key_spec *k, const char *path, const cJSON *v,
                     uint64_t *ns)
{
    uint64_t t;
    if (cJSON_IsNumber(v)) {
        double us = v->valuedouble;
        /* the bound keeps the conversion below within uint64_t; the range check comes next */
        if (!(us >= 0 && us <= 1e12))
            return bad_value(c, k, path, v, false);
        t = (uint64_t)llround(us * 1000.0);
    } else if (cJSON_IsString(v)) {
        if (ssdsim__units_parse_time_ns(v->valuestring, &t) != 0)
            return bad_value(c, k, path, v, false);
    } else {
        return bad_value(c, k, path, v, true);
    }
    if (t < (uint64_t)(k->min * 1000.0) || t > (uint64_t)(k->max * 1000.0))
        return bad_value(c, k, path, v, false);
    *ns = t;
    return 0;
}

/* A byte count or rate: an integral number (rounded for rates), or a unit string. */
static int read_bytes(struct ctx *c, const struct key_spec *k, const char *path, const cJSON *v,
                      uint64_t *out)
{
    uint64_t b;
    if (cJSON_IsNumber(v)) {
        double d = v->valuedouble;
        if (!(d >= 0 && d <= 1e18) || (k->type != KEY_RATE && d != floor(d)))
            return bad_value(c, k, path, v, false);
        b = (uint64_t)llround(d);
    } else if (cJSON_IsString(v)) {
        int rc = k->type == KEY_RATE ? ssdsim__units_parse_rate(v->valuestring, &b)
                                     : ssdsim__units_parse_size(v->valuestring, &b);
        if (rc != 0)
            return bad_value(c, k, path, v, false);
    } else {
        return bad_value(c, k, path, v, true);
    }
    if ((double)b < k->min || (double)b > k->max)
        return bad_value(c, k, path, v, false);
    if ((k->flags & KF_POW2) && (b & (b - 1)) != 0)
        return bad_value(c, k, path, v, false);
    *out = b;
    return 0;
}

static const struct choice *find_choice(const struct choice *choices, const char *name)
{
    for (const struct choice *ch = choices; ch->name; ch++)
        if (strcmp(ch->name, name) == 0)
            return ch;
    return NULL;
}

/* Check `v` against key `k` and store it into the model. */
static int read_value(struct ctx *c, const struct key_spec *k, const cJSON *v)
{
    char *field = k->offset == NO_FIELD ? NULL : (char *)c->m + k->offset;
    const char *path = k->path;

    switch (k->type) {
    case KEY_STRING:
        if (!cJSON_IsString(v))
            return bad_value(c, k, path, v, true);
        return 0;

    case KEY_U32: {
        if (!cJSON_IsNumber(v))
            return bad_value(c, k, path, v, true);
        double d = v->valuedouble;
        if (!(d >= k->min && d <= k->max) || d != floor(d))
            return bad_value(c, k, path, v, false);
        uint32_t u = (uint32_t)d;
        if (k->choices) {
            bool allowed = false;
            for (const struct choice *ch = k->choices; ch->name; ch++)
                allowed |= (uint32_t)ch->value == u;
            if (!allowed)
                return bad_value(c, k, path, v, false);
        }
        memcpy(field, &u, sizeof u);
        return 0;
    }

    case KEY_DOUBLE: {
        if (!cJSON_IsNumber(v))
            return bad_value(c, k, path, v, true);
        double d = v->valuedouble;
        if (!(d >= k->min && d <= k->max))
            return bad_value(c, k, path, v, false);
        memcpy(field, &d, sizeof d);
        return 0;
    }

    case KEY_SIZE: {
        uint64_t b;
        int rc = read_bytes(c, k, path, v, &b);
        if (rc != 0)
            return rc;
        uint32_t u = (uint32_t)b; /* the table's ranges keep every size key below 2^32 */
        memcpy(field, &u, sizeof u);
        return 0;
    }

    case KEY_RATE:
    case KEY_SIZE64: {
        uint64_t b;
        int rc = read_bytes(c, k, path, v, &b);
        if (rc != 0)
            return rc;
        memcpy(field, &b, sizeof b);
        return 0;
    }

    case KEY_TIME: {
        uint64_t ns;
        int rc = read_time(c, k, path, v, &ns);
        if (rc != 0)
            return rc;
        memcpy(field, &ns, sizeof ns);
        return 0;
    }

    case KEY_TIME_LIST: {
        /* One entry per page type; flash.cell (above in the table) says how many. */
        uint32_t n = cell_page_types(c->m->flash.cell);
        assert(n >= 1 && n <= SSDSIM__MAX_PAGE_TYPES);
        uint64_t ns[SSDSIM__MAX_PAGE_TYPES] = {0};
        if (cJSON_IsArray(v)) {
            int len = cJSON_GetArraySize(v);
            if (len != (int)n)
                return config_error(
                    c, path,
                    "expected %u value%s (one per page type of flash.cell \"%s\"), got "
                    "an array of %d",
                    n, n == 1 ? "" : "s", cell_name((int)c->m->flash.cell), len);
            int i = 0;
            for (const cJSON *e = v->child; e; e = e->next, i++) {
                g_autofree char *epath = g_strdup_printf("%s[%d]", path, i);
                int rc = read_time(c, k, epath, e, &ns[i]);
                if (rc != 0)
                    return rc;
            }
        } else if (cJSON_IsNumber(v) || cJSON_IsString(v)) {
            int rc = read_time(c, k, path, v, &ns[0]);
            if (rc != 0)
                return rc;
            for (uint32_t i = 1; i < n; i++)
                ns[i] = ns[0];
        } else {
            g_autofree char *got = describe(v, true);
            return config_error(
                c, path,
                "expected a number in [%g, %g] (microseconds), a time string, "
                "or an array of %u of them (one per page type of flash.cell \"%s\"), "
                "got %s",
                k->min, k->max, n, cell_name((int)c->m->flash.cell), got);
        }
        memcpy(field, ns, sizeof ns);
        return 0;
    }

    case KEY_BOOL: {
        if (!cJSON_IsBool(v))
            return bad_value(c, k, path, v, true);
        int b = cJSON_IsTrue(v);
        memcpy(field, &b, sizeof b);
        return 0;
    }

    case KEY_PLUGIN: {
        if (!cJSON_IsString(v))
            return bad_value(c, k, path, v, true);
        if (!ssdsim__plugin_find(k->kind, v->valuestring)) {
            const char *closest = NULL;
            g_autofree char *names = ssdsim__plugin_names(k->kind, v->valuestring, &closest);
            if (closest)
                return config_error(c, path, "no %s named \"%s\" (did you mean \"%s\"?)",
                                    ssdsim__plugin_kind_name(k->kind), v->valuestring, closest);
            return config_error(c, path, "no %s named \"%s\" (registered: %s)",
                                ssdsim__plugin_kind_name(k->kind), v->valuestring, names);
        }
        snprintf(field, SSDSIM__NAME_MAX, "%s", v->valuestring);
        return 0;
    }

    case KEY_ENUM:
    case KEY_ENUM_NAME: {
        if (!cJSON_IsString(v))
            return bad_value(c, k, path, v, true);
        const struct choice *ch = find_choice(k->choices, v->valuestring);
        if (!ch)
            return bad_value(c, k, path, v, false);
        if (k->type == KEY_ENUM) {
            int value = ch->value;
            memcpy(field, &value, sizeof value);
        } else {
            snprintf(field, SSDSIM__NAME_MAX, "%s", ch->name);
        }
        return 0;
    }
    }
    return 0;
}

/* ------------------------------------------------------------------------------------------ */
/* Validation                                                                                  */

uint64_t ssdsim__model_physical_pages(const struct ssdsim_model *m)
{
    const struct ssdsim__geometry *g = &m->geometry;
    return (uint64_t)g->channels * g->chips_per_channel * g->dies_per_chip * g->planes_per_die *
           g->blocks_per_plane * g->pages_per_block;
}

uint64_t ssdsim__model_logical_pages(const struct ssdsim_model *m)
{
    if (m->ftl.mapping_unit == 0)
        return 0;
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

/* Checks between keys, run once every key has passed the table. */
/* The NAND operations against the geometry and the timing: impossible combinations. */
static int check_cross_nand(struct ctx *c)
{
    const struct ssdsim_model *m = c->m;
    const struct ssdsim__flash *f = &m->flash;
    if (f->multiplane && m->geometry.planes_per_die < 2)
        return config_error(c, "flash.multiplane",
                            "needs a die with at least 2 planes (geometry.planes_per_die is %u)",
                            m->geometry.planes_per_die);
    if (f->suspend) {
        uint64_t shortest = f->erase_ns;
        for (uint32_t i = 0; i < f->n_page_types; i++)
            shortest = SSDSIM__MIN(shortest, f->program_ns[i]);
        if (f->suspend_ns >= shortest)
            return config_error(c, "flash.suspend_us",
                                "a suspend latency of %g us is not shorter than the shortest "
                                "program or erase (%g us): nothing could be suspended",
                                (double)f->suspend_ns / 1000, (double)shortest / 1000);
        if (f->cache_program)
            return config_error(c, "flash.suspend",
                                "not modelled together with flash.cache_program (a cached "
                                "program runs on after the die takes the next command)");
    }
    return 0;
}

static int check_cross(struct ctx *c)
{
    struct ssdsim_model *m = c->m;
    const struct ssdsim__geometry *g = &m->geometry;
    uint64_t phys = ssdsim__model_physical_pages(m);

    if (phys > UINT32_MAX)
        return config_error(c, "geometry",
                            "impossible geometry: %u channels x %u chips x %u dies x %u planes x "
                            "%u blocks x %u pages = %llu pages exceed the 32-bit page address "
                            "space",
                            g->channels, g->chips_per_channel, g->dies_per_chip, g->planes_per_die,
                            g->blocks_per_plane, g->pages_per_block, (unsigned long long)phys);

    if (m->ftl.mapping_unit != g->page_size)
        return config_error(c, "ftl.mapping_unit",
                            "must equal geometry.page_size (%u) in this version: sub-page "
                            "mapping needs the write buffer",
                            g->page_size);

    bool direct = !strcmp(m->ftl.type, "direct");
    if (is_xpoint(m) && !direct)
        return config_error(c, "ftl.type",
                            "media without erase (flash.cell \"xpoint\") is written in place: "
                            "it takes the \"direct\" FTL, got \"%s\"",
                            m->ftl.type);
    if (!is_xpoint(m) && direct)
        return config_error(c, "ftl.type",
                            "the \"direct\" FTL writes in place and needs media without erase "
                            "(flash.cell \"xpoint\")");
    if (m->buffer.size > 0 && m->buffer.size < m->ftl.mapping_unit)
        return config_error(c, "buffer.size",
                            "a buffer of %llu bytes holds less than one mapping unit (%u)",
                            (unsigned long long)m->buffer.size, m->ftl.mapping_unit);
    if (m->buffer.flush_stop > m->buffer.flush_start)
        return config_error(c, "buffer.flush_stop",
                            "flushing stops at %g of the buffer, above where it starts "
                            "(buffer.flush_start %g)",
                            m->buffer.flush_stop, m->buffer.flush_start);

    uint64_t logical = ssdsim__model_logical_pages(m);
    if (logical < 1)
        return config_error(c, "ftl.op",
                            "over-provisioning of %g leaves no logical capacity (%llu physical "
                            "pages)",
                            m->ftl.op, (unsigned long long)phys);

    /* A write buffer is allocated as slots of mapping units when the device is built: one
     * larger than the drive could never fill, and one beyond the slots' index is refused. */
    uint64_t logical_bytes = logical * m->ftl.mapping_unit;
    if (m->buffer.size > logical_bytes)
        return config_error(c, "buffer.size",
                            "a write buffer of %llu bytes is larger than the drive's logical "
                            "capacity (%llu bytes)",
                            (unsigned long long)m->buffer.size, (unsigned long long)logical_bytes);
    if (m->buffer.size / m->ftl.mapping_unit > SSDSIM__BUFFER_MAX_UNITS)
        return config_error(c, "buffer.size",
                            "a write buffer holds at most %u mapping units (%llu bytes), got %llu "
                            "bytes",
                            SSDSIM__BUFFER_MAX_UNITS,
                            (unsigned long long)SSDSIM__BUFFER_MAX_UNITS * m->ftl.mapping_unit,
                            (unsigned long long)m->buffer.size);

    /* With the mapping unit equal to the page, logical units are pages. */
    uint64_t n_planes =
        (uint64_t)g->channels * g->chips_per_channel * g->dies_per_chip * g->planes_per_die;
    int rc = check_cross_nand(c);
    if (rc != 0)
        return rc;
    if (m->gc.free_blocks_target < m->gc.free_blocks_min)
        return config_error(c, "gc.free_blocks_target",
                            "the high watermark (%u) is below the low one, gc.free_blocks_min (%u)",
                            m->gc.free_blocks_target, m->gc.free_blocks_min);
    if (is_xpoint(m))
        return 0; /* written in place: no spare blocks, no garbage collection */
    uint64_t spare = (phys - logical) / g->pages_per_block / n_planes;
    uint32_t open = 2 + (m->ftl.hot_cold ? 1 : 0);
    uint64_t need = (uint64_t)m->gc.free_blocks_target + open;
    if (spare < need)
        return config_error(c, "ftl.op",
                            "over-provisioning leaves %llu spare blocks per plane; %s (%u) "
                            "plus %u open blocks need at least %llu",
                            (unsigned long long)spare,
                            m->gc.free_blocks_target > m->gc.free_blocks_min
                                ? "gc.free_blocks_target"
                                : "gc.free_blocks_min",
                            m->gc.free_blocks_target, open, (unsigned long long)need);
    return 0;
}

/* Free what a model owns besides its label and JSON tree: the spec figures and a system's
 * member model. */
static void model_release(struct ssdsim_model *m)
{
    for (uint32_t i = 0; i < m->spec.n_figs; i++) {
        free(m->spec.figs[i].name);
        free(m->spec.figs[i].rw);
        free(m->spec.figs[i].note);
    }
    free(m->spec.figs);
    free(m->spec.source);
    memset(&m->spec, 0, sizeof m->spec);
    ssdsim_model_free(m->system.member);
    m->system.member = NULL;
}

/* Key `k` of a model: its value `v` when present, else its default (from the table, or derived
 * from keys above it), or "required key missing". */
static int read_key(struct ctx *c, const struct key_spec *k, const cJSON *v)
{
    if (v)
        return read_value(c, k, v);
    if (k->flags & KF_REQUIRED)
        return config_error(c, k->path, "required key missing");
    if (k->def) {
        cJSON *dv = cJSON_Parse(k->def);
        if (!dv)
            return ssdsim__error_set(c->err, SSDSIM_ENOMEM, c->label, k->path, "out of memory");
        int rc = read_value(c, k, dv);
        cJSON_Delete(dv);
        return rc;
    }
    if (k->derive)
        k->derive(c->m);
    return 0;
}

/* Read the table's keys that apply to a model of kind bit `kind` (K_SSD, K_HDD, K_LINK) from
 * `root`: present keys are converted, absent ones take their default; a key of another kind, or
 * one whose condition does not hold, is an error when present. */
static int build_keys(struct ctx *c, const cJSON *root, unsigned kind)
{
    struct ssdsim_model *m = c->m;
    for (size_t i = 0; i < N_KEYS; i++) {
        const struct key_spec *k = &keys[i];
        unsigned kinds = k->kinds ? k->kinds : K_SSD;
        const cJSON *v = lookup(root, k->path);
        if (!(kinds & kind)) {
            if (!v)
                continue;
            return config_error(c, k->path, "%s",
                                kind == K_HDD  ? "not a key of a hard-disk model (a model with "
                                                 "an \"hdd\" section is a hard disk)"
                                : kind == K_LINK ? "not a key of an uplink"
                                                 : "not a key of a solid-state model");
        }
        if (k->when && !k->when(m)) {
            if (!v)
                continue;
            return config_error(c, k->path, "applies only when %s", k->when_text);
        }
        int rc = read_key(c, k, v);
        if (rc != 0)
            return rc;
    }
    return 0;
}

/* The interface's rates and per-command time (hw/link.c), and what the interface allows. */
static int check_link(struct ctx *c, struct ssdsim__link_cfg *l, const char *prefix)
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
            return config_error(c, path, "%s", colon + 2);
        }
        return config_error(c, prefix[0] ? prefix : "host", "%s", why);
    }
    return 0;
}

/* Checks between keys, run once every key has passed the table. */
static int check_cross_hdd(struct ctx *c)
{
    struct ssdsim_model *m = c->m;
    if (m->hdd.capacity % 512)
        return config_error(c, "hdd.capacity", "expected a multiple of 512 bytes, got %llu",
                            (unsigned long long)m->hdd.capacity);
    char why[256] = "";
    if (ssdsim__hdd_check(&m->hdd, why, sizeof why) != 0) {
        const char *colon = strstr(why, ": ");
        if (colon && strncmp(why, "hdd.", 4) == 0) {
            g_autofree char *key = g_strndup(why, (size_t)(colon - why));
            return config_error(c, key, "%s", colon + 2);
        }
        return config_error(c, "hdd", "%s", why);
    }
    return 0;
}

static int check_cross_front(struct ctx *c)
{
    struct ssdsim_model *m = c->m;
    int rc = check_link(c, &m->host.link, "host.");
    if (rc != 0)
        return rc;
    if (m->host.link.iface == SSDSIM__IFACE_SATA && m->controller.queue_depth > 32)
        return config_error(c, "controller.queue_depth",
                            "SATA's native command queue holds at most 32 commands, got %u",
                            m->controller.queue_depth);
    return 0;
}

/* Spec figures: "spec": {"source": "...", "figures": [{...}, ...]}. */
static const struct choice metric_choices[] = {
    {"read_iops", SSDSIM__METRIC_READ_IOPS},     {"write_iops", SSDSIM__METRIC_WRITE_IOPS},
    {"read_mbps", SSDSIM__METRIC_READ_MBPS},     {"write_mbps", SSDSIM__METRIC_WRITE_MBPS},
    {"read_lat_us", SSDSIM__METRIC_READ_LAT_US}, {"write_lat_us", SSDSIM__METRIC_WRITE_LAT_US},
    {NULL, 0},
};
static const struct choice state_choices[] = {{"fresh", SSDSIM__STATE_FRESH},
                                              {"full", SSDSIM__STATE_FULL},
                                              {"steady", SSDSIM__STATE_STEADY},
                                              {NULL, 0}};
static const struct choice rw_choices[] = {{"read", 0}, {"write", 1}, {"randread", 2},
                                           {"randwrite", 3}, {NULL, 0}};

/* Unknown key `name` in an object whose known keys are `known` (NULL-terminated). */
static int unknown_in(struct ctx *c, const char *path, const char *name, const char *const *known)
{
    const char *best = NULL;
    size_t best_dist = SIZE_MAX;
    GString *list = g_string_new(NULL);
    for (const char *const *k = known; *k; k++) {
        g_string_append_printf(list, "%s%s", list->len ? ", " : "", *k);
        size_t d = ssdsim__edit_distance(name, *k);
        if (d < best_dist) {
            best_dist = d;
            best = *k;
        }
    }
    int rc;
    if (best && best_dist <= strlen(best) / 3 + 1 && best_dist < strlen(best))
        rc = config_error(c, path, "unknown key (did you mean '%s'?)", best);
    else
        rc = config_error(c, path, "unknown key (known keys here: %s)", list->str);
    g_string_free(list, TRUE);
    return rc;
}

/* Every name in `obj` is one of `known`, none twice. */
static int check_names(struct ctx *c, const cJSON *obj, const char *prefix,
                       const char *const *known)
{
    for (const cJSON *ch = obj->child; ch; ch = ch->next) {
        const char *name = ch->string ? ch->string : "";
        g_autofree char *path = g_strdup_printf("%s.%s", prefix, name);
        for (const cJSON *prev = obj->child; prev != ch; prev = prev->next)
            if (prev->string && !strcmp(prev->string, name))
                return config_error(c, path, "duplicate key");
        bool ok = false;
        for (const char *const *k = known; *k && !ok; k++)
            ok = !strcmp(*k, name);
        if (!ok)
            return unknown_in(c, path, name, known);
    }
    return 0;
}

static int spec_string(struct ctx *c, const cJSON *obj, const char *key, const char *path,
                       bool required, char **out)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);
    g_autofree char *p = g_strdup_printf("%s.%s", path, key);
    if (!v)
        return required ? config_error(c, p, "required key missing") : 0;
    if (!cJSON_IsString(v) || !v->valuestring[0]) {
        g_autofree char *got = describe(v, true);
        return config_error(c, p, "expected a non-empty string, got %s", got);
    }
    if (!(*out = strdup(v->valuestring)))
        return ssdsim__error_set(c->err, SSDSIM_ENOMEM, c->label, p, "out of memory");
    return 0;
}

static int spec_choice(struct ctx *c, const cJSON *obj, const char *key, const char *path,
                       const struct choice *choices, int def, int *out)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);
    g_autofree char *p = g_strdup_printf("%s.%s", path, key);
    if (!v) {
        if (def < 0)
            return config_error(c, p, "required key missing");
        *out = def;
        return 0;
    }
    const struct choice *ch = cJSON_IsString(v) ? find_choice(choices, v->valuestring) : NULL;
    if (!ch) {
        GString *s = g_string_new(NULL);
        append_choices(s, choices, true);
        g_autofree char *want = g_string_free(s, FALSE);
        g_autofree char *got = describe(v, !cJSON_IsString(v));
        return config_error(c, p, "expected one of %s, got %s", want, got);
    }
    *out = ch->value;
    return 0;
}

static int spec_count(struct ctx *c, const cJSON *obj, const char *key, const char *path,
                      uint32_t def, uint32_t max, uint32_t *out)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);
    g_autofree char *p = g_strdup_printf("%s.%s", path, key);
    if (!v) {
        *out = def;
        return 0;
    }
    if (!cJSON_IsNumber(v) || !(v->valuedouble >= 1 && v->valuedouble <= max) ||
        v->valuedouble != floor(v->valuedouble)) {
        g_autofree char *got = describe(v, !cJSON_IsNumber(v));
        return config_error(c, p, "expected an integer in [1, %u], got %s", max, got);
    }
    *out = (uint32_t)v->valuedouble;
    return 0;
}

static int spec_build(struct ctx *c, const cJSON *root)
{
    static const char *const spec_keys[] = {"source", "figures", NULL};
    static const char *const fig_keys[] = {"name",    "metric",  "value", "rw",   "bs",
                                           "iodepth", "numjobs", "state", "note", NULL};
    const cJSON *spec = cJSON_GetObjectItemCaseSensitive(root, "spec");
    struct ssdsim__spec *sp = &c->m->spec;
    if (!spec)
        return 0;
    if (!cJSON_IsObject(spec)) {
        g_autofree char *got = describe(spec, true);
        return config_error(c, "spec", "expected an object, got %s", got);
    }
    int rc = check_names(c, spec, "spec", spec_keys);
    if (rc == 0)
        rc = spec_string(c, spec, "source", "spec", false, &sp->source);
    if (rc != 0)
        return rc;
    const cJSON *figs = cJSON_GetObjectItemCaseSensitive(spec, "figures");
    if (!figs)
        return config_error(c, "spec.figures", "required key missing");
    if (!cJSON_IsArray(figs)) {
        g_autofree char *got = describe(figs, true);
        return config_error(c, "spec.figures", "expected an array of figures, got %s", got);
    }
    int n = cJSON_GetArraySize(figs);
    sp->figs = calloc((size_t)(n > 0 ? n : 1), sizeof *sp->figs);
    if (!sp->figs)
        return ssdsim__error_set(c->err, SSDSIM_ENOMEM, c->label, "spec", "out of memory");
    int i = 0;
    for (const cJSON *f = figs->child; f; f = f->next, i++) {
        g_autofree char *path = g_strdup_printf("spec.figures[%d]", i);
        struct ssdsim__spec_figure *fig = &sp->figs[i];
        sp->n_figs = (uint32_t)i + 1;
        if (!cJSON_IsObject(f)) {
            g_autofree char *got = describe(f, true);
            return config_error(c, path, "expected an object, got %s", got);
        }
        int metric = 0, rw = 0, state = 0;
        if ((rc = check_names(c, f, path, fig_keys)) ||
            (rc = spec_string(c, f, "name", path, true, &fig->name)) ||
            (rc = spec_choice(c, f, "metric", path, metric_choices, -1, &metric)) ||
            (rc = spec_choice(c, f, "rw", path, rw_choices, -1, &rw)) ||
            (rc = spec_count(c, f, "iodepth", path, 1, 65535, &fig->iodepth)) ||
            (rc = spec_count(c, f, "numjobs", path, 1, 1024, &fig->numjobs)) ||
            (rc = spec_choice(c, f, "state", path, state_choices, SSDSIM__STATE_FRESH, &state)) ||
            (rc = spec_string(c, f, "note", path, false, &fig->note)))
            return rc;
        fig->metric = (enum ssdsim__metric)metric;
        fig->state = (enum ssdsim__spec_state)state;
        if (!(fig->rw = strdup(rw_choices[rw].name)))
            return ssdsim__error_set(c->err, SSDSIM_ENOMEM, c->label, path, "out of memory");
        const cJSON *v = cJSON_GetObjectItemCaseSensitive(f, "value");
        g_autofree char *vpath = g_strdup_printf("%s.value", path);
        if (!v)
            return config_error(c, vpath, "required key missing");
        if (!cJSON_IsNumber(v) || !(v->valuedouble > 0 && v->valuedouble < 1e12)) {
            g_autofree char *got = describe(v, !cJSON_IsNumber(v));
            return config_error(c, vpath, "expected a positive number, got %s", got);
        }
        fig->value = v->valuedouble;
        /* the metric's direction must be the workload's */
        bool reads = metric == SSDSIM__METRIC_READ_IOPS || metric == SSDSIM__METRIC_READ_MBPS ||
                     metric == SSDSIM__METRIC_READ_LAT_US;
        bool rw_reads = rw == 0 || rw == 2;
        if (reads != rw_reads)
            return config_error(c, vpath[0] ? path : path, "metric \"%s\" does not match rw \"%s\"",
                                metric_choices[metric].name, rw_choices[rw].name);
        const cJSON *bs = cJSON_GetObjectItemCaseSensitive(f, "bs");
        g_autofree char *bpath = g_strdup_printf("%s.bs", path);
        if (!bs)
            return config_error(c, bpath, "required key missing");
        struct key_spec bk = {.path = bpath, .type = KEY_SIZE, .min = 512, .max = 64 << 20};
        uint64_t b;
        if ((rc = read_bytes(c, &bk, bpath, bs, &b)) != 0)
            return rc;
        if (b % 512)
            return config_error(c, bpath, "expected a multiple of 512 bytes, got %llu",
                                (unsigned long long)b);
        fig->bs = (uint32_t)b;
    }
    return 0;
}

/* A system of devices: "system": {"member": "file.json", "count": 4, "layout": "raid0", ...}. */
static const struct choice layout_choices[] = {{"jbod", SSDSIM__LAYOUT_JBOD},
                                               {"raid0", SSDSIM__LAYOUT_RAID0},
                                               {"raid1", SSDSIM__LAYOUT_RAID1},
                                               {"raid5", SSDSIM__LAYOUT_RAID5},
                                               {NULL, 0}};

static bool striped(const struct ssdsim_model *m)
{
    return m->system.layout == SSDSIM__LAYOUT_RAID0 || m->system.layout == SSDSIM__LAYOUT_RAID5;
}

static void default_controllers(struct ssdsim_model *m)
{
    m->system.controllers = m->system.count;
}

/* clang-format off */
static const struct key_spec sys_keys[] = {
    {.path = "system.count", .type = KEY_U32, .offset = FIELD(system.count, uint32_t), .min = 1,
     .max = 64, .flags = KF_REQUIRED, .help = "devices in the system"},
    {.path = "system.layout", .type = KEY_ENUM,
     .offset = FIELD(system.layout, enum ssdsim__layout), .flags = KF_REQUIRED,
     .choices = layout_choices, .help = "jbod, raid0, raid1 or raid5"},
    {.path = "system.stripe", .type = KEY_SIZE, .offset = FIELD(system.stripe, uint32_t),
     .min = 512, .max = 16 << 20, .flags = KF_POW2, .def = "\"128KiB\"", .when = striped,
     .when_text = "system.layout is \"raid0\" or \"raid5\"", .help = "bytes per strip"},
    {.path = "system.raid_us", .type = KEY_TIME, .offset = FIELD(system.raid_ns, uint64_t),
     .min = 0, .max = 10000, .def = "0", .help = "RAID layer time per host request"},
    {.path = "system.path_us", .type = KEY_TIME, .offset = FIELD(system.path_ns, uint64_t),
     .min = 0, .max = 10000, .def = "0", .help = "platform path time per request (a chipset hop)"},
    {.path = "system.controllers", .type = KEY_U32,
     .offset = FIELD(system.controllers, uint32_t), .min = 1, .max = 64,
     .derive = default_controllers,
     .help = "controllers the devices are split among (a card's); each controller's devices "
             "share its host link and firmware cores (default: one per device)"},
};
/* clang-format on */

static int system_build(struct ctx *c, const cJSON *root, const cJSON *sys)
{
    static const char *const top_keys[] = {"name", "description", "system", "spec", NULL};
    static const char *const keys_here[] = {"member", "count",   "layout",      "stripe",
                                            "raid_us", "path_us", "controllers", "uplink",
                                            NULL};
    struct ssdsim_model *m = c->m;
    for (const cJSON *ch = root->child; ch; ch = ch->next) {
        const char *name = ch->string ? ch->string : "";
        for (const cJSON *prev = root->child; prev != ch; prev = prev->next)
            if (prev->string && !strcmp(prev->string, name))
                return config_error(c, name, "duplicate key");
        bool ok = false;
        for (const char *const *k = top_keys; *k && !ok; k++)
            ok = !strcmp(*k, name);
        if (!ok)
            return config_error(c, name,
                                "not a key of a system model (it has only name, description, "
                                "system and spec; device sections belong in the member's model)");
        if ((!strcmp(name, "name") || !strcmp(name, "description")) && !cJSON_IsString(ch)) {
            g_autofree char *got = describe(ch, true);
            return config_error(c, name, "expected a string, got %s", got);
        }
    }
    if (!cJSON_IsObject(sys)) {
        g_autofree char *got = describe(sys, true);
        return config_error(c, "system", "expected an object, got %s", got);
    }
    int rc = check_names(c, sys, "system", keys_here);
    if (rc != 0)
        return rc;
    for (size_t i = 0; i < SSDSIM__ARRAY_LEN(sys_keys); i++) {
        const struct key_spec *k = &sys_keys[i];
        const cJSON *v = lookup(root, k->path);
        if (k->when && !k->when(m)) {
            if (v)
                return config_error(c, k->path, "applies only when %s", k->when_text);
            continue;
        }
        rc = read_key(c, k, v);
        if (rc != 0)
            return rc;
    }
    struct ssdsim__system_cfg *sc = &m->system;
    if (sc->layout == SSDSIM__LAYOUT_RAID1 && sc->count < 2)
        return config_error(c, "system.count", "RAID-1 mirrors at least 2 devices, got %u",
                            sc->count);
    if (sc->layout == SSDSIM__LAYOUT_RAID5 && sc->count < 3)
        return config_error(c, "system.count", "RAID-5 needs at least 3 devices, got %u",
                            sc->count);
    if (sc->count % sc->controllers)
        return config_error(c, "system.controllers",
                            "%u devices cannot be split evenly among %u controllers", sc->count,
                            sc->controllers);

    /* The uplink: the host keys of a device model, read into a scratch model. */
    const cJSON *up = cJSON_GetObjectItemCaseSensitive(sys, "uplink");
    if (up) {
        if (!cJSON_IsObject(up)) {
            g_autofree char *got = describe(up, true);
            return config_error(c, "system.uplink", "expected an object, got %s", got);
        }
        struct ssdsim_model scratch = {0};
        struct ctx c2 = *c;
        c2.m = &scratch;
        c2.remap_from = "host.";
        c2.remap_to = "system.uplink.";
        cJSON *fake = cJSON_CreateObject();
        cJSON *dup = cJSON_Duplicate(up, 1);
        if (!fake || !dup || !cJSON_AddItemToObject(fake, "host", dup)) {
            if (fake && dup && !cJSON_GetObjectItemCaseSensitive(fake, "host"))
                cJSON_Delete(dup);
            cJSON_Delete(fake);
            return ssdsim__error_set(c->err, SSDSIM_ENOMEM, c->label, NULL, "out of memory");
        }
        rc = check_object(&c2, fake, "");
        if (rc == 0)
            rc = build_keys(&c2, fake, K_LINK);
        if (rc == 0)
            rc = check_link(&c2, &scratch.host.link, "system.uplink.");
        cJSON_Delete(fake);
        if (rc != 0)
            return rc;
        sc->have_uplink = 1;
        sc->uplink = scratch.host.link;
    }

    /* The member: a device model file, found beside this one. */
    const cJSON *mem = cJSON_GetObjectItemCaseSensitive(sys, "member");
    if (!mem)
        return config_error(c, "system.member", "required key missing");
    if (!cJSON_IsString(mem) || !mem->valuestring[0]) {
        g_autofree char *got = describe(mem, true);
        return config_error(c, "system.member", "expected the path of a device model file, got %s",
                            got);
    }
    g_autofree char *dir = c->base ? g_path_get_dirname(c->base) : g_strdup(".");
    g_autofree char *path = g_path_is_absolute(mem->valuestring)
                                ? g_strdup(mem->valuestring)
                                : g_build_filename(dir, mem->valuestring, NULL);
    rc = ssdsim_model_load_file(&sc->member, path, c->err);
    if (rc != 0)
        return rc;
    if (sc->member->kind == SSDSIM__KIND_SYSTEM)
        return config_error(c, "system.member",
                            "\"%s\" is itself a system; a member must be a device model",
                            mem->valuestring);
    uint32_t unit = sc->member->kind == SSDSIM__KIND_HDD ? 512 : sc->member->ftl.mapping_unit;
    if (striped(m) && sc->stripe < unit)
        return config_error(c, "system.stripe",
                            "a strip of %u bytes is smaller than the member's mapping unit (%u)",
                            sc->stripe, unit);
    if (ssdsim_model_logical_bytes(sc->member) < (uint64_t)(striped(m) ? sc->stripe : unit))
        return config_error(c, "system.stripe", "the member holds less than one strip");
    return 0;
}

/* Validate `root` into the fields of `m` (label and json untouched). `root` is not taken.
 * `base` is the path of the model's file (a system's member is found beside it), or NULL. On
 * failure what the model owns is released. */
static int model_build(struct ssdsim_model *m, const cJSON *root, const char *label,
                       const char *base, ssdsim_error *err)
{
    struct ctx c = {.label = label, .err = err, .m = m, .base = base};

    if (!cJSON_IsObject(root)) {
        g_autofree char *got = describe(root, true);
        return config_error(&c, NULL, "expected a JSON object at the top level, got %s", got);
    }
    int rc;
    const cJSON *sys = cJSON_GetObjectItemCaseSensitive(root, "system");
    if (sys) {
        m->kind = SSDSIM__KIND_SYSTEM;
        rc = system_build(&c, root, sys);
        if (rc == 0)
            rc = spec_build(&c, root);
        if (rc != 0)
            model_release(m);
        return rc;
    }
    m->kind = cJSON_GetObjectItemCaseSensitive(root, "hdd") ? SSDSIM__KIND_HDD : SSDSIM__KIND_SSD;
    rc = check_object(&c, root, "");
    if (rc == 0)
        rc = build_keys(&c, root, m->kind == SSDSIM__KIND_HDD ? K_HDD : K_SSD);
    if (rc != 0)
        return rc;
    if (m->kind == SSDSIM__KIND_HDD) {
        m->controller.cores = 1;
        rc = check_cross_front(&c);
        if (rc == 0)
            rc = check_cross_hdd(&c);
        if (rc == 0)
            rc = spec_build(&c, root);
        if (rc != 0)
            model_release(m);
        return rc;
    }
    m->flash.n_page_types = cell_page_types(m->flash.cell);

    /* Plugin parameters: each section's plugin says which keys it takes, their types and
     * ranges; absent ones take the plugin's default. */
    for (size_t s = 0; s < SSDSIM__ARRAY_LEN(plugin_sections); s++) {
        const struct plugin_section *ps = &plugin_sections[s];
        const struct ssdsim__plugin_header *p =
            ssdsim__plugin_find(ps->kind, (const char *)m + ps->name_offset);
        double *vals = (double *)((char *)m + ps->params_offset);
        for (uint32_t i = 0; i < SSDSIM__MAX_PARAMS; i++)
            vals[i] = 0;
        for (uint32_t i = 0; p && p->params && p->params[i].key; i++) {
            const ssdsim_param *q = &p->params[i];
            g_autofree char *path = g_strdup_printf("%s.%s", ps->section, q->key);
            const cJSON *v = lookup(root, path);
            vals[i] = q->def;
            if (!v)
                continue;
            bool integral = q->type == SSDSIM_PARAM_INT;
            if (!cJSON_IsNumber(v) || !(v->valuedouble >= q->min && v->valuedouble <= q->max) ||
                (integral && v->valuedouble != floor(v->valuedouble))) {
                char lo[40], hi[40];
                format_number(q->min, lo, sizeof lo);
                format_number(q->max, hi, sizeof hi);
                g_autofree char *got = describe(v, !cJSON_IsNumber(v));
                return config_error(&c, path, "expected %s in [%s, %s] (%s of %s '%s'), got %s",
                                    integral ? "an integer" : "a number", lo, hi, q->help,
                                    ssdsim__plugin_kind_name(ps->kind), p->name, got);
            }
            vals[i] = v->valuedouble;
        }
    }
    rc = check_cross(&c);
    if (rc == 0)
        rc = check_cross_front(&c);
    if (rc == 0)
        rc = spec_build(&c, root);
    if (rc != 0)
        model_release(m);
    return rc;
}

/* ------------------------------------------------------------------------------------------ */
/* Loading                                                                                     */

/* Model files word syntax errors "models/x.json:2:15: malformed JSON near '@ } '", the quoted
 * text running on over line ends. */
static const struct ssdsim__json_syntax_style syntax_style = {.what = "malformed JSON",
                                                              .snippet_one_line = false};

/* An FTL that takes no GC victim policy and no GC watermarks: "fast" reclaims blocks by its
 * merges, "direct" writes in place. The gc keys given in a model for one of them have no effect,
 * which a model's author should hear about: one line through the library's log names them
 * (e.g. "models/x.json: note: gc.policy, gc.free_blocks_min have no effect: ftl.type \"fast\"
 * uses no GC victim policy"). `only` limits the note to a key the caller just set. */
static void note_unused_gc(const struct ssdsim_model *m, const cJSON *root, const char *label,
                           const char *only)
{
    if (m->kind != SSDSIM__KIND_SSD ||
        (strcmp(m->ftl.type, "fast") && strcmp(m->ftl.type, "direct")))
        return;
    const cJSON *gc = cJSON_GetObjectItemCaseSensitive(root, "gc");
    if (!cJSON_IsObject(gc) || !gc->child)
        return;
    GString *listed = g_string_new(NULL);
    for (const cJSON *k = gc->child; k; k = k->next) {
        g_autofree char *path = g_strdup_printf("gc.%s", k->string);
        if (only && strcmp(only, "gc") && strcmp(only, "ftl") && strcmp(only, "ftl.type") &&
            strcmp(only, path))
            continue;
        g_string_append_printf(listed, "%s%s", listed->len ? ", " : "", path);
    }
    if (listed->len)
        ssdsim__log(SSDSIM_LOG_WARNING,
                    "%s: note: %s %s no effect: ftl.type \"%s\" uses no GC victim policy",
                    label, listed->str, strchr(listed->str, ',') ? "have" : "has", m->ftl.type);
    g_string_free(listed, TRUE);
}

/* Parse and validate `len` bytes at `text` (NUL-terminated at text[len]). */
static int load_text(ssdsim_model **out, const char *text, size_t len, const char *label,
                     const char *base, ssdsim_error *err)
{
    cJSON *root = NULL;
    int rc = ssdsim__json_parse(&root, text, len, label, &syntax_style, err);
    if (rc != 0)
        return rc;

    struct ssdsim_model *m = calloc(1, sizeof *m);
    char *label_copy = strdup(label);
    if (!m || !label_copy) {
        free(m);
        free(label_copy);
        cJSON_Delete(root);
        return ssdsim__error_set(err, SSDSIM_ENOMEM, label, NULL, "out of memory");
    }
    rc = model_build(m, root, label, base, err);
    if (rc != 0) {
        free(m);
        free(label_copy);
        cJSON_Delete(root);
        return rc;
    }
    m->magic = SSDSIM__MAGIC_MODEL;
    m->label = label_copy;
    m->json = root;
    note_unused_gc(m, root, label, NULL);
    *out = m;
    return 0;
}

static void error_clear(ssdsim_error *err)
{
    if (err)
        memset(err, 0, sizeof *err);
}

SSDSIM_API int ssdsim_model_load_string(ssdsim_model **out, const char *json, const char *label,
                                        ssdsim_error *err)
{
    error_clear(err);
    if (!out)
        return ssdsim__error_set(err, SSDSIM_EINVAL, label, NULL, "no output pointer");
    *out = NULL;
    if (!label)
        label = STRING_LABEL;
    if (!json)
        return ssdsim__error_set(err, SSDSIM_EINVAL, label, NULL, "no JSON text");
    return load_text(out, json, strlen(json), label, NULL, err);
}

SSDSIM_API int ssdsim_model_load_file(ssdsim_model **out, const char *path, ssdsim_error *err)
{
    error_clear(err);
    if (!out)
        return ssdsim__error_set(err, SSDSIM_EINVAL, path, NULL, "no output pointer");
    *out = NULL;
    if (!path)
        return ssdsim__error_set(err, SSDSIM_EINVAL, NULL, NULL, "no file name");

    char *text = NULL;
    size_t len = 0;
    int rc = ssdsim__read_text_file(&text, &len, path, err);
    if (rc != 0)
        return rc;
    rc = load_text(out, text, len, path, path, err);
    free(text);
    return rc;
}

SSDSIM_API int ssdsim_model_default(ssdsim_model **out, ssdsim_error *err)
{
    return ssdsim_model_load_string(out, ssdsim__builtin_model_json, BUILTIN_LABEL, err);
}

/* ------------------------------------------------------------------------------------------ */
/* Printing, overriding, copying                                                               */

/* The effective value of key `k` as JSON; NULL when absent (an optional string) or out of
 * memory (*oom set). */
static cJSON *value_json(const struct ssdsim_model *m, const struct key_spec *k, bool *oom)
{
    const char *field = k->offset == NO_FIELD ? NULL : (const char *)m + k->offset;
    cJSON *v = NULL;
    switch (k->type) {
    case KEY_STRING: {
        const cJSON *src = m->json ? lookup(m->json, k->path) : NULL;
        if (!cJSON_IsString(src))
            return NULL;
        v = cJSON_CreateString(src->valuestring);
        break;
    }
    case KEY_U32:
    case KEY_SIZE: {
        uint32_t u;
        memcpy(&u, field, sizeof u);
        v = cJSON_CreateNumber((double)u);
        break;
    }
    case KEY_DOUBLE: {
        double d;
        memcpy(&d, field, sizeof d);
        v = cJSON_CreateNumber(d);
        break;
    }
    case KEY_RATE:
    case KEY_SIZE64: {
        uint64_t b;
        memcpy(&b, field, sizeof b);
        v = cJSON_CreateNumber((double)b);
        break;
    }
    case KEY_TIME: {
        uint64_t ns;
        memcpy(&ns, field, sizeof ns);
        v = cJSON_CreateNumber((double)ns / 1000.0);
        break;
    }
    case KEY_TIME_LIST: {
        uint64_t ns[SSDSIM__MAX_PAGE_TYPES];
        memcpy(ns, field, sizeof ns);
        v = cJSON_CreateArray();
        for (uint32_t i = 0; v && i < m->flash.n_page_types && i < SSDSIM__MAX_PAGE_TYPES; i++) {
            cJSON *e = cJSON_CreateNumber((double)ns[i] / 1000.0);
            if (!e || !cJSON_AddItemToArray(v, e)) {
                cJSON_Delete(e);
                cJSON_Delete(v);
                v = NULL;
            }
        }
        break;
    }
    case KEY_ENUM: {
        int value;
        memcpy(&value, field, sizeof value);
        const char *name = NULL;
        for (const struct choice *ch = k->choices; ch->name && !name; ch++)
            if (ch->value == value)
                name = ch->name;
        v = cJSON_CreateString(name ? name : "?");
        break;
    }
    case KEY_ENUM_NAME:
    case KEY_PLUGIN:
        v = cJSON_CreateString(field);
        break;
    case KEY_BOOL: {
        int b;
        memcpy(&b, field, sizeof b);
        v = cJSON_CreateBool(b);
        break;
    }
    }
    if (!v)
        *oom = true;
    return v;
}

/* Put `v` at dotted `path` under `root`, creating intermediate objects and replacing what was
 * there. `v` is taken in every case. Returns false when out of memory. */
static bool put_path(cJSON *root, const char *path, cJSON *v)
{
    cJSON *cur = root;
    const char *p = path;
    for (const char *dot; (dot = strchr(p, '.')) != NULL; p = dot + 1) {
        g_autofree char *name = g_strndup(p, (size_t)(dot - p));
        cJSON *next = cJSON_GetObjectItemCaseSensitive(cur, name);
        if (!cJSON_IsObject(next)) {
            /* absent, or (only in a tree that was never validated) not an object */
            cJSON *obj = cJSON_CreateObject();
            if (!obj) {
                cJSON_Delete(v);
                return false;
            }
            bool placed = next ? cJSON_ReplaceItemInObjectCaseSensitive(cur, name, obj)
                               : cJSON_AddItemToObject(cur, name, obj);
            if (!placed) {
                cJSON_Delete(obj);
                cJSON_Delete(v);
                return false;
            }
            next = obj;
        }
        cur = next;
    }
    bool placed = cJSON_GetObjectItemCaseSensitive(cur, p)
                      ? cJSON_ReplaceItemInObjectCaseSensitive(cur, p, v)
                      : cJSON_AddItemToObject(cur, p, v);
    if (!placed) {
        cJSON_Delete(v);
        return false;
    }
    return true;
}

/* The figures of the model's spec, as written in a model file (defaults filled in). */
static bool spec_json(const struct ssdsim_model *m, cJSON *root)
{
    const struct ssdsim__spec *sp = &m->spec;
    if (sp->n_figs == 0 && !sp->source)
        return true;
    cJSON *spec = cJSON_AddObjectToObject(root, "spec");
    if (!spec || (sp->source && !cJSON_AddStringToObject(spec, "source", sp->source)))
        return false;
    cJSON *figs = cJSON_AddArrayToObject(spec, "figures");
    if (!figs)
        return false;
    for (uint32_t i = 0; i < sp->n_figs; i++) {
        const struct ssdsim__spec_figure *f = &sp->figs[i];
        cJSON *o = cJSON_CreateObject();
        if (!o || !cJSON_AddItemToArray(figs, o)) {
            cJSON_Delete(o);
            return false;
        }
        if (!cJSON_AddStringToObject(o, "name", f->name) ||
            !cJSON_AddStringToObject(o, "metric", metric_choices[f->metric].name) ||
            !cJSON_AddNumberToObject(o, "value", f->value) ||
            !cJSON_AddStringToObject(o, "rw", f->rw) ||
            !cJSON_AddNumberToObject(o, "bs", f->bs) ||
            !cJSON_AddNumberToObject(o, "iodepth", f->iodepth) ||
            !cJSON_AddNumberToObject(o, "numjobs", f->numjobs) ||
            !cJSON_AddStringToObject(o, "state", state_choices[f->state].name) ||
            (f->note && !cJSON_AddStringToObject(o, "note", f->note)))
            return false;
    }
    return true;
}

/* Whether key k is part of model m (its kind, and its condition). */
static bool key_applies(const struct ssdsim_model *m, const struct key_spec *k, unsigned kind)
{
    unsigned kinds = k->kinds ? k->kinds : K_SSD;
    return (kinds & kind) && (!k->when || k->when(m));
}

/* Whether key k is a KF_QUIET key that is off (false or 0) in model m. */
static bool quiet_off(const struct ssdsim_model *m, const struct key_spec *k)
{
    if (!(k->flags & KF_QUIET))
        return false;
    const char *field = (const char *)m + k->offset;
    if (k->type == KEY_BOOL) {
        int b;
        memcpy(&b, field, sizeof b);
        return b == 0;
    }
    assert(k->type == KEY_TIME);
    uint64_t ns;
    memcpy(&ns, field, sizeof ns);
    return ns == 0;
}

static cJSON *system_json(const struct ssdsim_model *m)
{
    cJSON *root = cJSON_CreateObject();
    bool oom = !root;
    for (size_t i = 0; !oom && i < 2; i++) { /* name, description */
        cJSON *v = value_json(m, &keys[i], &oom);
        if (v && !put_path(root, keys[i].path, v))
            oom = true;
    }
    /* The member as it was opened (relative to the directory the model was loaded from, or
     * absolute), so that the canonical JSON loads back from a string in that directory too. */
    const char *mem = m->system.member && m->system.member->label ? m->system.member->label : "?";
    cJSON *sys = oom ? NULL : cJSON_AddObjectToObject(root, "system");
    if (!sys || !cJSON_AddStringToObject(sys, "member", mem))
        oom = true;
    for (size_t i = 0; !oom && i < SSDSIM__ARRAY_LEN(sys_keys); i++) {
        if (sys_keys[i].when && !sys_keys[i].when(m))
            continue;
        cJSON *v = value_json(m, &sys_keys[i], &oom);
        if (v && !put_path(root, sys_keys[i].path, v))
            oom = true;
    }
    if (!oom && m->system.have_uplink) {
        struct ssdsim_model scratch = {0};
        scratch.host.link = m->system.uplink;
        cJSON *up = cJSON_AddObjectToObject(sys, "uplink");
        for (size_t i = 0; up && !oom && i < N_KEYS; i++) {
            if (!key_applies(&scratch, &keys[i], K_LINK))
                continue;
            cJSON *v = value_json(&scratch, &keys[i], &oom);
            if (v && !cJSON_AddItemToObject(up, strchr(keys[i].path, '.') + 1, v)) {
                cJSON_Delete(v);
                oom = true;
            }
        }
        oom |= !up;
    }
    if (oom || !spec_json(m, root)) {
        cJSON_Delete(root);
        return NULL;
    }
    return root;
}

static cJSON *model_json(const struct ssdsim_model *m)
{
    if (m->kind == SSDSIM__KIND_SYSTEM)
        return system_json(m);
    cJSON *root = cJSON_CreateObject();
    if (!root)
        return NULL;
    unsigned kind = m->kind == SSDSIM__KIND_HDD ? K_HDD : K_SSD;
    for (size_t i = 0; i < N_KEYS; i++) {
        if (!key_applies(m, &keys[i], kind) || quiet_off(m, &keys[i]))
            continue;
        bool oom = false;
        cJSON *v = value_json(m, &keys[i], &oom);
        if (oom || (v && !put_path(root, keys[i].path, v))) {
            cJSON_Delete(root);
            return NULL;
        }
    }
    /* Then each section's plugin parameters, in the order the plugin declares them. */
    for (size_t s = 0; kind == K_SSD && s < SSDSIM__ARRAY_LEN(plugin_sections); s++) {
        const struct plugin_section *ps = &plugin_sections[s];
        const struct ssdsim__plugin_header *p =
            ssdsim__plugin_find(ps->kind, (const char *)m + ps->name_offset);
        const double *vals = (const double *)((const char *)m + ps->params_offset);
        for (uint32_t i = 0; p && p->params && p->params[i].key; i++) {
            g_autofree char *path = g_strdup_printf("%s.%s", ps->section, p->params[i].key);
            cJSON *v = cJSON_CreateNumber(vals[i]);
            if (!v || !put_path(root, path, v)) {
                cJSON_Delete(root);
                return NULL;
            }
        }
    }
    if (!spec_json(m, root)) {
        cJSON_Delete(root);
        return NULL;
    }
    return root;
}

SSDSIM_API char *ssdsim_model_to_json(const ssdsim_model *model)
{
    if (!model)
        return NULL;
    cJSON *root = model_json(model);
    if (!root)
        return NULL;
    char *text = cJSON_Print(root);
    cJSON_Delete(root);
    return text;
}

SSDSIM_API int ssdsim_model_set(ssdsim_model *model, const char *key, const char *value,
                                ssdsim_error *err)
{
    error_clear(err);
    SSDSIM__CHECK_HANDLE(model, SSDSIM__MAGIC_MODEL, "ssdsim_model");
    if (!model || !key || !value)
        return ssdsim__error_set(err, SSDSIM_EINVAL, SET_LABEL, key, "%s",
                                 !model ? "no model"
                                 : !key ? "no key"
                                        : "no value");

    struct ctx c = {.label = SET_LABEL, .err = err, .m = model};

    /* The key must name a known key or section, checked level by level so that the message
     * and the suggestion are the same as for a file. A system's keys and the spec block are
     * checked by rebuilding the model (system_build, spec_build), like everything else. */
    bool own_check = !strncmp(key, "system.", 7) || !strcmp(key, "system") ||
                     !strncmp(key, "spec.", 5) || !strcmp(key, "spec");
    for (const char *p = key; !own_check;) {
        const char *dot = strchr(p, '.');
        size_t len = dot ? (size_t)(dot - p) : strlen(p);
        g_autofree char *prefix = g_strndup(key, (size_t)(p - key) - (p == key ? 0 : 1));
        g_autofree char *upto = g_strndup(key, (size_t)(p - key) + len);
        if (len == 0)
            return ssdsim__error_set(err, SSDSIM_EINVAL, SET_LABEL, key,
                                     "malformed key: empty name between dots");
        enum path_kind kind = classify(upto);
        if (kind == PATH_UNKNOWN && !dot && plugin_section_of(prefix))
            break; /* maybe a plugin parameter: the whole model is checked below */
        if (kind == PATH_UNKNOWN) {
            g_autofree char *name = g_strndup(p, len);
            return unknown_key(&c, prefix, name);
        }
        if (!dot)
            break;
        if (kind == PATH_LEAF)
            return config_error(&c, key, "unknown key ('%s' is a value, not an object)", upto);
        p = dot + 1;
    }

    cJSON *tree = model->json ? cJSON_Duplicate(model->json, 1) : model_json(model);
    const char *end = NULL;
    cJSON *v = cJSON_ParseWithOpts(value, &end, 1);
    if (!v)
        v = cJSON_CreateString(value); /* a bare word such as mlc or 600MB/s */
    if (!tree || !v || !put_path(tree, key, v)) {
        if (!tree)
            cJSON_Delete(v);
        cJSON_Delete(tree);
        return ssdsim__error_set(err, SSDSIM_ENOMEM, SET_LABEL, key, "out of memory");
    }

    struct ssdsim_model next = {0};
    int rc = model_build(&next, tree, SET_LABEL, model->label, err);
    if (rc != 0) {
        cJSON_Delete(tree);
        return rc;
    }
    model_release(model);
    cJSON_Delete(model->json);
    next.magic = model->magic;
    next.label = model->label;
    next.json = tree;
    *model = next;
    note_unused_gc(model, tree, SET_LABEL, key);
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

struct ssdsim_model *ssdsim__model_copy(const struct ssdsim_model *m)
{
    if (!m)
        return NULL;
    struct ssdsim_model *c = malloc(sizeof *c);
    if (!c)
        return NULL;
    *c = *m;
    c->magic = SSDSIM__MAGIC_MODEL;
    c->label = NULL;
    c->json = NULL;
    c->spec.source = NULL;
    c->spec.figs = NULL;
    c->spec.n_figs = 0;
    c->system.member = NULL;
    if (m->label && !(c->label = strdup(m->label)))
        goto fail;
    if (m->json && !(c->json = cJSON_Duplicate(m->json, 1)))
        goto fail;
    if (m->system.member && !(c->system.member = ssdsim__model_copy(m->system.member)))
        goto fail;
    if (m->spec.source && !(c->spec.source = strdup(m->spec.source)))
        goto fail;
    if (m->spec.n_figs) {
        c->spec.figs = calloc(m->spec.n_figs, sizeof *c->spec.figs);
        if (!c->spec.figs)
            goto fail;
        c->spec.n_figs = m->spec.n_figs;
        for (uint32_t i = 0; i < m->spec.n_figs; i++) {
            const struct ssdsim__spec_figure *f = &m->spec.figs[i];
            struct ssdsim__spec_figure *g = &c->spec.figs[i];
            *g = *f;
            g->name = strdup(f->name);
            g->rw = strdup(f->rw);
            g->note = f->note ? strdup(f->note) : NULL;
            if (!g->name || !g->rw || (f->note && !g->note))
                goto fail;
        }
    }
    return c;
fail:
    ssdsim_model_free(c);
    return NULL;
}

SSDSIM_API void ssdsim_model_free(ssdsim_model *model)
{
    if (!model)
        return;
    SSDSIM__CHECK_HANDLE(model, SSDSIM__MAGIC_MODEL, "ssdsim_model");
    model->magic = SSDSIM__MAGIC_FREED;
    model_release(model);
    cJSON_Delete(model->json);
    free(model->label);
    free(model);
}

/* ------------------------------------------------------------------------------------------ */
/* Kind, devices and spec figures                                                              */

SSDSIM_API ssdsim_model_kind ssdsim_model_get_kind(const ssdsim_model *model)
{
    return model ? (ssdsim_model_kind)model->kind : SSDSIM_MODEL_SSD;
}

SSDSIM_API uint32_t ssdsim_model_n_devices(const ssdsim_model *model)
{
    return model && model->kind == SSDSIM__KIND_SYSTEM ? model->system.count : 1;
}

SSDSIM_API uint32_t ssdsim_model_n_volumes(const ssdsim_model *model)
{
    return model && model->kind == SSDSIM__KIND_SYSTEM &&
                   model->system.layout == SSDSIM__LAYOUT_JBOD
               ? model->system.count
               : 1;
}

SSDSIM_API const char *ssdsim_model_spec_source(const ssdsim_model *model)
{
    return model ? model->spec.source : NULL;
}

SSDSIM_API size_t ssdsim_model_spec_count(const ssdsim_model *model)
{
    return model ? model->spec.n_figs : 0;
}

static int model_spec_get_full(const ssdsim_model *model, size_t i, ssdsim_spec_figure *out)
{
    if (!model || !out || i >= model->spec.n_figs)
        return SSDSIM_EINVAL;
    const struct ssdsim__spec_figure *f = &model->spec.figs[i];
    *out = (ssdsim_spec_figure){
        .name = f->name,
        .metric = metric_choices[f->metric].name,
        .value = f->value,
        .rw = f->rw,
        .bs = f->bs,
        .iodepth = f->iodepth,
        .numjobs = f->numjobs,
        .state = state_choices[f->state].name,
        .note = f->note,
    };
    return 0;
}

/* The caller's struct may be of an older, smaller layout: write `size` bytes of it at most. */
int ssdsim_model_spec_get_sized(const ssdsim_model *model, size_t i, ssdsim_spec_figure *out,
                                size_t size)
{
    ssdsim_spec_figure full;
    memset(&full, 0, sizeof full);
    int rc = model_spec_get_full(model, i, out ? &full : NULL);
    if (rc == 0)
        ssdsim__result_copy(out, size, &full, sizeof full);
    return rc;
}

/* The 1.0 layout, for callers that bypass the macro (ctypes, function pointers). */
int (ssdsim_model_spec_get)(const ssdsim_model *model, size_t i, ssdsim_spec_figure *out)
{
    return ssdsim_model_spec_get_sized(model, i, out, SSDSIM__SPEC_FIGURE_SIZE_1);
}
