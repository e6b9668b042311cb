/* plugin.h: the plugin registry (private side). Built-in plugins are registered through the
 * public ssdsim_*_register functions on first use, exactly as outside ones are. */
#ifndef SSDSIM_PLUGIN_H
#define SSDSIM_PLUGIN_H

#include "common.h"
#include "ssdsim/sys/ftl.h"
#include "ssdsim/sys/gc.h"
#include "ssdsim/sys/wl.h"

/* Does an ops table, as its plugin was compiled (struct_size), have `field` and set it? Fields
 * appended after ABI 1 must be read through this: an older plugin's table ends before them. */
#define SSDSIM__HAS_METHOD(ops, type, field)                                                      \
    ((ops)->struct_size >= offsetof(type, field) + sizeof((ops)->field) && (ops)->field)

/* The leading fields every ops table shares. */
struct ssdsim__plugin_header {
    SSDSIM_PLUGIN_HEADER;
};

#define SSDSIM__N_KINDS 3

/* The table registered under `name`, or NULL. */
const struct ssdsim__plugin_header *ssdsim__plugin_find(ssdsim_plugin_kind kind, const char *name);

/* Names of a kind, comma-separated, for messages; the caller frees the string. The closest name
 * to `near` (edit distance) is stored in *closest (NULL when nothing is close). */
char *ssdsim__plugin_names(ssdsim_plugin_kind kind, const char *near, const char **closest);

/* Word for a kind in messages: "FTL", "GC policy", "wear leveler". */
const char *ssdsim__plugin_kind_name(ssdsim_plugin_kind kind);

/* Number of declared parameters (the list ends with key == NULL). */
uint32_t ssdsim__plugin_n_params(const struct ssdsim__plugin_header *p);

/* Whether `ops` is one of the library's own FTL tables (not a copy of one). */
bool ssdsim__plugin_builtin_ftl(const ssdsim_ftl_ops *ops);

/* Built-in tables, defined in their modules. */
extern const ssdsim_ftl_ops ssdsim__ftl_page_ops, ssdsim__ftl_dftl_ops, ssdsim__ftl_fast_ops,
    ssdsim__ftl_direct_ops, ssdsim__ftl_zoned_ops;
extern const ssdsim_gc_ops ssdsim__gc_greedy_ops, ssdsim__gc_cost_benefit_ops,
    ssdsim__gc_fifo_ops, ssdsim__gc_random_ops, ssdsim__gc_d_choices_ops,
    ssdsim__gc_windowed_ops;
extern const ssdsim_wl_ops ssdsim__wl_none_ops, ssdsim__wl_dynamic_ops, ssdsim__wl_static_ops;

#endif /* SSDSIM_PLUGIN_H */
