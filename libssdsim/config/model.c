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
#include "plugin.h"

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
    {"qlc", SSDSIM__CELL_QLC}, {NULL, 0},
};
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

/* Order matters: a key may depend on keys above it (the time lists on flash.cell, the derived
 * defaults on flash.cell and geometry.page_size), and it is the order of the canonical JSON. */
static const struct key_spec keys[] = {
    {.path = "name", .type = KEY_STRING, .offset = NO_FIELD,
     .help = "short name of the model, shown in reports"},
    {.path = "description", .type = KEY_STRING, .offset = NO_FIELD,
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
     .help = "bits per cell: slc 1, mlc 2, tlc 3, qlc 4 (also the number of page types)"},
    {.path = "flash.read_us", .type = KEY_TIME_LIST, .offset = FIELD(flash.read_ns, uint64_t *),
     .min = 1, .max = 10000, .flags = KF_REQUIRED,
     .help = "array read time (tR) per page type, LSB first; one number applies to all"},
    {.path = "flash.program_us", .type = KEY_TIME_LIST,
     .offset = FIELD(flash.program_ns, uint64_t *), .min = 10, .max = 100000,
     .flags = KF_REQUIRED,
     .help = "program time (tPROG) per page type, LSB first; one number applies to all"},
    {.path = "flash.erase_us", .type = KEY_TIME, .offset = FIELD(flash.erase_ns, uint64_t),
     .min = 100, .max = 100000, .flags = KF_REQUIRED, .help = "block erase time (tBERS)"},
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

    {.path = "controller.cmd_overhead_us", .type = KEY_TIME,
     .offset = FIELD(controller.cmd_overhead_ns, uint64_t), .min = 0, .max = 10000, .def = "2",
     .help = "firmware time per host command"},
    {.path = "controller.cores", .type = KEY_U32, .offset = FIELD(controller.cores, uint32_t),
     .min = 1, .max = 64, .def = "1", .help = "firmware cores processing commands in parallel"},
    {.path = "controller.queue_depth", .type = KEY_U32,
     .offset = FIELD(controller.queue_depth, uint32_t), .min = 1, .max = 65535, .def = "32",
     .help = "commands the device accepts at once"},

    {.path = "host.link_bw", .type = KEY_RATE, .offset = FIELD(host.link.link_bytes_per_s, uint64_t),
     .min = 1e6, .max = 1e11, .def = "\"600MB/s\"",
     .help = "host link bandwidth per direction, bytes per second"},
    {.path = "host.cmd_overhead_us", .type = KEY_TIME,
     .offset = FIELD(host.link.cmd_overhead_ns, uint64_t), .min = 0, .max = 10000, .def = "1",
     .help = "link and protocol time per command (submission and completion)"},

    {.path = "ftl.type", .type = KEY_PLUGIN, .offset = FIELD(ftl.type, char *),
     .def = "\"page\"", .kind = SSDSIM_PLUGIN_FTL,
     .help = "mapping scheme: a registered FTL (ssdsim list)"},
    {.path = "ftl.op", .type = KEY_DOUBLE, .offset = FIELD(ftl.op, double), .min = 0, .max = 10,
     .def = "0.07", .help = "over-provisioning, (physical - logical) / logical"},
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
};

static int config_error(struct ctx *c, const char *path, const char *fmt, ...) SSDSIM__PRINTF(3, 4);

static int config_error(struct ctx *c, const char *path, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    g_autofree char *what = g_strdup_vprintf(fmt, ap);
    va_end(ap);
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
        if (!(d >= 0 && d <= 1e18) || (k->type == KEY_SIZE && d != floor(d)))
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

    case KEY_RATE: {
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
        uint32_t n = (uint32_t)c->m->flash.cell;
        assert(n >= 1 && n <= SSDSIM__MAX_PAGE_TYPES);
        uint64_t ns[SSDSIM__MAX_PAGE_TYPES] = {0};
        if (cJSON_IsArray(v)) {
            int len = cJSON_GetArraySize(v);
            if (len != (int)n)
                return config_error(
                    c, path,
                    "expected %u value%s (one per page type of flash.cell \"%s\"), got "
                    "an array of %d",
                    n, n == 1 ? "" : "s", cell_name((int)n), len);
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
                k->min, k->max, n, cell_name((int)n), got);
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

    uint64_t logical = ssdsim__model_logical_pages(m);
    if (logical < 1)
        return config_error(c, "ftl.op",
                            "over-provisioning of %g leaves no logical capacity (%llu physical "
                            "pages)",
                            m->ftl.op, (unsigned long long)phys);

    /* With the mapping unit equal to the page, logical units are pages. */
    uint64_t n_planes =
        (uint64_t)g->channels * g->chips_per_channel * g->dies_per_chip * g->planes_per_die;
    if (m->gc.free_blocks_target < m->gc.free_blocks_min)
        return config_error(c, "gc.free_blocks_target",
                            "the high watermark (%u) is below the low one, gc.free_blocks_min (%u)",
                            m->gc.free_blocks_target, m->gc.free_blocks_min);
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

/* Validate `root` into the fields of `m` (label and json untouched). `root` is not taken. */
static int model_build(struct ssdsim_model *m, const cJSON *root, const char *label,
                       ssdsim_error *err)
{
    struct ctx c = {.label = label, .err = err, .m = m};

    if (!cJSON_IsObject(root)) {
        g_autofree char *got = describe(root, true);
        return config_error(&c, NULL, "expected a JSON object at the top level, got %s", got);
    }
    int rc = check_object(&c, root, "");
    if (rc != 0)
        return rc;

    for (size_t i = 0; i < N_KEYS; i++) {
        const struct key_spec *k = &keys[i];
        const cJSON *v = lookup(root, k->path);
        if (v) {
            rc = read_value(&c, k, v);
        } else if (k->flags & KF_REQUIRED) {
            rc = config_error(&c, k->path, "required key missing");
        } else if (k->def) {
            cJSON *dv = cJSON_Parse(k->def);
            if (!dv)
                return ssdsim__error_set(err, SSDSIM_ENOMEM, label, k->path, "out of memory");
            rc = read_value(&c, k, dv);
            cJSON_Delete(dv);
        } else if (k->derive) {
            k->derive(m);
        }
        if (rc != 0)
            return rc;
    }
    m->flash.n_page_types = (uint32_t)m->flash.cell;

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
    return check_cross(&c);
}

/* ------------------------------------------------------------------------------------------ */
/* Loading                                                                                     */

/* Model files word syntax errors "models/x.json:2:15: malformed JSON near '@ } '", the quoted
 * text running on over line ends. */
static const struct ssdsim__json_syntax_style syntax_style = {.what = "malformed JSON",
                                                              .snippet_one_line = false};

/* Parse and validate `len` bytes at `text` (NUL-terminated at text[len]). */
static int load_text(ssdsim_model **out, const char *text, size_t len, const char *label,
                     ssdsim_error *err)
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
    rc = model_build(m, root, label, err);
    if (rc != 0) {
        free(m);
        free(label_copy);
        cJSON_Delete(root);
        return rc;
    }
    m->label = label_copy;
    m->json = root;
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
    return load_text(out, json, strlen(json), label, err);
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
    rc = load_text(out, text, len, path, err);
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
    case KEY_RATE: {
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

static cJSON *model_json(const struct ssdsim_model *m)
{
    cJSON *root = cJSON_CreateObject();
    if (!root)
        return NULL;
    for (size_t i = 0; i < N_KEYS; i++) {
        bool oom = false;
        cJSON *v = value_json(m, &keys[i], &oom);
        if (oom || (v && !put_path(root, keys[i].path, v))) {
            cJSON_Delete(root);
            return NULL;
        }
    }
    /* Then each section's plugin parameters, in the order the plugin declares them. */
    for (size_t s = 0; s < SSDSIM__ARRAY_LEN(plugin_sections); s++) {
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
    if (!model || !key || !value)
        return ssdsim__error_set(err, SSDSIM_EINVAL, SET_LABEL, key, "%s",
                                 !model ? "no model"
                                 : !key ? "no key"
                                        : "no value");

    struct ctx c = {.label = SET_LABEL, .err = err, .m = model};

    /* The key must name a known key or section, checked level by level so that the message
     * and the suggestion are the same as for a file. */
    for (const char *p = key;;) {
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
    int rc = model_build(&next, tree, SET_LABEL, err);
    if (rc != 0) {
        cJSON_Delete(tree);
        return rc;
    }
    cJSON_Delete(model->json);
    next.label = model->label;
    next.json = tree;
    *model = next;
    return 0;
}

SSDSIM_API uint64_t ssdsim_model_logical_bytes(const ssdsim_model *model)
{
    if (!model)
        return 0;
    return ssdsim__model_logical_pages(model) * model->ftl.mapping_unit;
}

struct ssdsim_model *ssdsim__model_copy(const struct ssdsim_model *m)
{
    if (!m)
        return NULL;
    struct ssdsim_model *c = malloc(sizeof *c);
    if (!c)
        return NULL;
    *c = *m;
    c->label = NULL;
    c->json = NULL;
    if (m->label && !(c->label = strdup(m->label)))
        goto fail;
    if (m->json && !(c->json = cJSON_Duplicate(m->json, 1)))
        goto fail;
    return c;
fail:
    ssdsim_model_free(c);
    return NULL;
}

SSDSIM_API void ssdsim_model_free(ssdsim_model *model)
{
    if (!model)
        return;
    cJSON_Delete(model->json);
    free(model->label);
    free(model);
}
