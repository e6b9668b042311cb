/* model_int.h: what the files of the model loader (config/model*.c) share.
 *
 * The loader is split by concern: the key table (model.c), messages (model_msg.c), the
 * structure walk (model_walk.c), reading values (model_read.c), building and cross-checking a
 * model (model_build.c), the spec block (model_spec.c), systems (model_system.c), loading and
 * overriding (model_load.c) and writing JSON back (model_json.c). This header holds the types of
 * the key table, the loading context, and the internal functions one of those files offers the
 * others. Nothing outside config/ includes it: the rest of the library sees model.h only.
 */
#ifndef SSDSIM_CONFIG_MODEL_INT_H
#define SSDSIM_CONFIG_MODEL_INT_H

#include "config/model.h"
#include "config/jsonutil.h"
#include "plugin.h"

#include <cJSON.h>
#include <glib.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* ------------------------------------------------------------------------------------------ */
/* The key table (model.c)                                                                     */

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
/* In the canonical JSON only when it differs from its default: keys of mechanisms added
 * later (controller.fw_*, ftl.placement, gc.bg_high_watermark, gc.bg_max_blocks,
 * gc.bg_preempt, gc.fg_blocks_die, the NAND operations' flash.* switches), so that a model that does not use them prints as before. The typed getters
 * still see them (ssdsim__model_json_full). */
#define KF_QUIET 0x4u

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
    /* `when` of two conditions, one within the other: the text of the one `m` fails (NULL:
     * when_text), so that a message names what is actually missing */
    const char *(*when_why)(const struct ssdsim_model *m);
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

#define NO_FIELD SIZE_MAX

/* Offset of a field whose C type must be `type`: a table entry that names a field of another
 * type fails to compile (negative array size) instead of corrupting memory at run time. */
#define FIELD(member, type)                                                                        \
    (offsetof(struct ssdsim_model, member) +                                                       \
     0 * sizeof(char[_Generic(((struct ssdsim_model *)0)->member, type: 1, default: -1)]))

/* The table of a device model's keys, in table order, and the plugin sections. */
extern const struct key_spec *const ssdsim__model_keys;
extern const size_t ssdsim__model_n_keys;
extern const struct plugin_section *const ssdsim__model_plugin_sections;
extern const size_t ssdsim__model_n_plugin_sections;
extern const struct choice *const ssdsim__model_cell_choices; /* flash.cell */

/* Page types per word line: the bits per cell; media without erase has one. */
uint32_t ssdsim__model_cell_page_types(enum ssdsim__cell cell);
bool ssdsim__model_is_xpoint(const struct ssdsim_model *m);

/* ------------------------------------------------------------------------------------------ */
/* The loading context and messages (model_msg.c)                                              */

/* One model being read: where messages go and how they are labelled. */
struct ctx {
    const char *label;
    ssdsim_error *err;
    struct ssdsim_model *m;
    const struct ssdsim__plugin_header *plugin; /* of the section being checked, for hints */
    const char *base;     /* the model file's path: a system's member is found beside it */
    const char *dir;      /* the absolute directory of `base` to read the member from (NULL:
                             read it by the path joined onto base, as it is shown) */
    const char *remap_from, *remap_to; /* a path prefix shown as another (system.uplink) */
};

/* Report `fmt` about `path` (NULL: the whole document) as SSDSIM_ECONFIG; returns the code. */
int ssdsim__model_error(struct ctx *c, const char *path, const char *fmt, ...) SSDSIM__PRINTF(3, 4);
/* A double as short as it can be written and still read back identically. */
void ssdsim__model_format_number(double d, char *buf, size_t len);
/* What a JSON value is, for "got ..." in messages (g_free it). With `with_type`, the JSON type
 * is named first ("a string (\"8\")"): used when the type itself is wrong. */
char *ssdsim__model_describe(const cJSON *v, bool with_type);
/* "a, b or c" from a choice list, each name quoted when `quote` is set. */
void ssdsim__model_append_choices(GString *s, const struct choice *choices, bool quote);
/* "<path>: expected <what key k accepts>, got <v>". */
int ssdsim__model_bad_value(struct ctx *c, const struct key_spec *k, const char *path,
                            const cJSON *v, bool wrong_type);

/* ------------------------------------------------------------------------------------------ */
/* The structure walk (model_walk.c)                                                           */

enum path_kind { PATH_UNKNOWN, PATH_LEAF, PATH_SECTION };
/* Whether a dotted path is a key of the table, a section holding keys, or neither. */
enum path_kind ssdsim__model_classify(const char *path);
/* "<prefix>.<name>: unknown key (did you mean ...?)". */
int ssdsim__model_unknown_key(struct ctx *c, const char *prefix, const char *name);
/* The plugin section named `prefix`, or NULL. */
const struct plugin_section *ssdsim__model_plugin_section_of(const char *prefix);
/* Walk one object: no duplicate or unknown names, sections are objects (walked in turn). */
int ssdsim__model_check_object(struct ctx *c, const cJSON *obj, const char *prefix);
/* The value at a dotted path of a tree that passed the walk, or NULL. */
cJSON *ssdsim__model_lookup(const cJSON *root, const char *path);
/* Every name in `obj` is one of `known` (NULL-terminated), none twice. */
int ssdsim__model_check_names(struct ctx *c, const cJSON *obj, const char *prefix,
                              const char *const *known);

/* ------------------------------------------------------------------------------------------ */
/* Values (model_read.c)                                                                       */

/* A byte count or rate (by k->type): an integral number (rounded for rates), or a unit string,
 * within k's range. */
int ssdsim__model_read_bytes(struct ctx *c, const struct key_spec *k, const char *path,
                             const cJSON *v, uint64_t *out);
/* The choice named `name`, or NULL. */
const struct choice *ssdsim__model_find_choice(const struct choice *choices, const char *name);
/* Key `k`: its value `v` when present (NULL: absent), else its default. */
int ssdsim__model_read_key(struct ctx *c, const struct key_spec *k, const cJSON *v);
/* The table's keys that apply to kind bit `kind` (K_SSD, K_HDD, K_LINK), read from `root`. */
int ssdsim__model_build_keys(struct ctx *c, const cJSON *root, unsigned kind);

/* ------------------------------------------------------------------------------------------ */
/* Building and checks between keys (model_build.c)                                            */

/* Checks between the keys of a solid-state model, of a hard disk, and of the host side. */
int ssdsim__model_check_cross(struct ctx *c);
int ssdsim__model_check_cross_hdd(struct ctx *c);
int ssdsim__model_check_cross_front(struct ctx *c);
/* Zoned namespace keys against the geometry and the FTL (config/model_zns.c). */
int ssdsim__model_check_zns(struct ctx *c);
/* Flexible Data Placement keys against the FTL and what else the model has. */
int ssdsim__model_check_fdp(struct ctx *c);
/* The handles' open blocks against `spare` blocks per plane (checked after ftl.op). */
int ssdsim__model_check_fdp_spare(struct ctx *c, uint64_t spare);
/* Derive and check a host link whose keys are shown under `prefix` ("host."). */
int ssdsim__model_check_link(struct ctx *c, struct ssdsim__link_cfg *l, const char *prefix);
/* Free what a model owns besides its label, JSON tree and directory. */
void ssdsim__model_release(struct ssdsim_model *m);
/* Validate `root` into the fields of `m` (label and json untouched); see model_build.c. */
int ssdsim__model_build(struct ssdsim_model *m, const cJSON *root, const char *label,
                        const char *base, const char *dir, ssdsim_error *err);

/* ------------------------------------------------------------------------------------------ */
/* The spec block (model_spec.c) and systems (model_system.c)                                  */

int ssdsim__model_spec_build(struct ctx *c, const cJSON *root);
/* Add the spec block to `root`; false when out of memory. */
bool ssdsim__model_spec_json(const struct ssdsim_model *m, cJSON *root);
int ssdsim__model_system_build(struct ctx *c, const cJSON *root, const cJSON *sys);
/* Load a system's member from the file at `path` (model_load.c). A system there is not built:
 * it could name the system being loaded (itself, or a cycle through other files), and building
 * it would load that again without end; *is_system is set instead and *out left NULL. */
int ssdsim__model_load_member(ssdsim_model **out, bool *is_system, const char *path,
                              ssdsim_error *err);
/* A system model's canonical JSON, or NULL when out of memory. */
cJSON *ssdsim__model_system_json(const struct ssdsim_model *m);

/* ------------------------------------------------------------------------------------------ */
/* Writing JSON (model_json.c)                                                                 */

/* The effective value of key `k` as JSON; NULL when absent or out of memory (*oom set). */
cJSON *ssdsim__model_value_json(const struct ssdsim_model *m, const struct key_spec *k,
                                bool *oom);
/* Put `v` (always taken) at dotted `path` under `root`; false when out of memory. */
bool ssdsim__model_put_path(cJSON *root, const char *path, cJSON *v);
/* Whether key k is part of model m (its kind, and its condition). */
bool ssdsim__model_key_applies(const struct ssdsim_model *m, const struct key_spec *k,
                               unsigned kind);
/* The canonical JSON of any model, or NULL when out of memory. */
cJSON *ssdsim__model_json(const struct ssdsim_model *m);
/* The same; with `full`, also the KF_QUIET keys at their defaults. */
cJSON *ssdsim__model_json_tree(const struct ssdsim_model *m, bool full);

#endif /* SSDSIM_CONFIG_MODEL_INT_H */
