/* ssdsim/sys/plugin.h: what every plugin (FTL mapping scheme, GC victim policy, wear leveler)
 * has in common: the ABI version, the parameter descriptors, and the registry.
 *
 * For plugin authors. Rules (after SQLite's VFS and libgit2's backends):
 *   - an ops table starts with SSDSIM_PLUGIN_HEADER: ABI version, its own size, a unique name
 *     ([a-z0-9-]+, the value of the model's "policy"/"type" key), a one-line summary, the size of
 *     the per-simulation state the library allocates (zeroed) for it, and its parameters;
 *   - the table is static const and is never modified after registration;
 *   - fields are only ever appended (the library reads an appended field only when the table's
 *     struct_size covers it); a table whose abi_version is newer than the library's is refused,
 *     naming both versions;
 *   - the library allocates the state and calls init; fini is called exactly once, even when
 *     init failed; methods never print: they return an error and describe it in the buffer given;
 *   - hot-path methods must not allocate once the simulation is running.
 * Built-in plugins are registered through the same functions.
 */
#ifndef SSDSIM_SYS_PLUGIN_H
#define SSDSIM_SYS_PLUGIN_H

#include <stddef.h>
#include <stdint.h>

#include "ssdsim/ssdsim.h"

#ifdef __cplusplus
extern "C" {
#endif

/** ABI version of the plugin tables this library understands. */
#define SSDSIM_PLUGIN_ABI_VERSION 1

/** "No block": returned by policies that have nothing to choose. */
#define SSDSIM_NO_BLOCK UINT32_MAX

/** Kinds of plugin. */
typedef enum ssdsim_plugin_kind {
    SSDSIM_PLUGIN_FTL = 0, /**< mapping scheme: model key ftl.type */
    SSDSIM_PLUGIN_GC = 1,  /**< GC victim policy: model key gc.policy */
    SSDSIM_PLUGIN_WL = 2   /**< wear leveler: model key wl.policy */
} ssdsim_plugin_kind;

/** Parameter types. Values reach the plugin as doubles (integers are whole doubles). */
typedef enum ssdsim_param_type { SSDSIM_PARAM_INT = 1, SSDSIM_PARAM_REAL = 2 } ssdsim_param_type;

/** One parameter of a plugin: a key of the model's section ("gc": {"policy": "d-choices",
 * "d": 10}). A list ends with an entry whose key is NULL. */
typedef struct ssdsim_param {
    const char *key;        /**< [a-z0-9_]+ */
    ssdsim_param_type type; /**< integer or real */
    double def;             /**< default */
    double min, max;        /**< inclusive range */
    const char *help;       /**< one line */
} ssdsim_param;

/** Most parameters one plugin may have. */
#define SSDSIM_MAX_PARAMS 16

/** The leading fields of every ops table (see the rules above). */
#define SSDSIM_PLUGIN_HEADER                                                                      \
    uint32_t abi_version; /**< SSDSIM_PLUGIN_ABI_VERSION the table was written for */             \
    uint32_t struct_size; /**< sizeof the ops struct, as the plugin was compiled */               \
    const char *name;     /**< unique within its kind, [a-z0-9-]+ */                              \
    const char *summary;  /**< one line */                                                        \
    size_t state_size;    /**< bytes of zeroed state the library allocates per simulation */      \
    const ssdsim_param *params /**< parameter list ending with key == NULL, or NULL */

/** Number of registered plugins of a kind (built-ins first, then in registration order). */
SSDSIM_API size_t ssdsim_plugin_count(ssdsim_plugin_kind kind);

/** Describe plugin `index` of a kind. Any out-pointer may be NULL.
 * @return 0, or SSDSIM_EINVAL when kind or index is out of range. */
SSDSIM_API int ssdsim_plugin_describe(ssdsim_plugin_kind kind, size_t index, const char **name,
                                      const char **summary, const ssdsim_param **params);

/* ------------------------------------------------------------------------------------------ */
/* Loadable modules: plugins the ssdsim command loads (--plugin FILE.so, doc/plugins.md)        */

struct ssdsim_ftl_ops;
struct ssdsim_gc_ops;
struct ssdsim_wl_ops;

/** ABI version of the module table (ssdsim_plugin_module_table) this library understands. A
 * module built for another version is refused, naming both. */
#define SSDSIM_PLUGIN_MODULE_ABI_VERSION 1

/** Name of the one function a loadable module exports (see SSDSIM_PLUGIN_MODULE). */
#define SSDSIM_PLUGIN_MODULE_SYMBOL "ssdsim_plugin_module"

/** A request source a module provides, selected with `ssdsim run --source NAME[:ARGS]`: the
 * command opens it, replays it like a trace (ssdsim_run_source, with --replay-qd,
 * --time-scale, --max-requests, --runtime and --wrap) and closes it. The same table serves a
 * program, which calls open and passes next and the state as an ssdsim_source. */
typedef struct ssdsim_source_ops {
    uint32_t abi_version; /**< SSDSIM_PLUGIN_MODULE_ABI_VERSION */
    uint32_t struct_size; /**< sizeof(ssdsim_source_ops) */
    const char *name;     /**< [a-z0-9-]+, unique among the sources loaded */
    const char *summary;  /**< one line */
    /** Make the state for one run: `args` is the text after "NAME:" ("" without one), `model`
     * the device's model (its capacity: ssdsim_model_logical_bytes), `seed` the run's seed.
     * 0 with *state set, or non-zero with a one-line reason in errbuf. */
    int (*open)(void **state, const char *args, const ssdsim_model *model, uint64_t seed,
                char *errbuf, size_t errlen);
    /** As ssdsim_source.next, with the state open made. */
    int (*next)(void *state, ssdsim_request *req, char *msg, size_t msglen);
    /** Free the state (called once after a successful open). */
    void (*close)(void *state);
} ssdsim_source_ops;

/** What a loadable module provides: lists of ops tables, each ending with NULL (a NULL list is
 * an empty one). The loader registers every table, in the order given, through
 * ssdsim_ftl_register, ssdsim_gc_register and ssdsim_wl_register: a module's plugin behaves
 * exactly as the same table registered from C. The table is static const; the module stays
 * loaded until the process exits. Fields are only ever appended (read when struct_size covers
 * them). Request sources have no registry in the library: the command keeps those of its
 * modules. */
typedef struct ssdsim_plugin_module_table {
    uint32_t abi_version;                    /**< SSDSIM_PLUGIN_MODULE_ABI_VERSION */
    uint32_t struct_size;                    /**< sizeof(ssdsim_plugin_module_table) */
    const char *name;                        /**< the module's name, for messages */
    const struct ssdsim_ftl_ops *const *ftl; /**< mapping schemes (model key ftl.type) */
    const struct ssdsim_gc_ops *const *gc;   /**< GC victim policies (gc.policy) */
    const struct ssdsim_wl_ops *const *wl;   /**< wear levelers (wl.policy) */
    const ssdsim_source_ops *const *source;  /**< request sources (run --source NAME) */
} ssdsim_plugin_module_table;

/** Type of the entry point a loadable module exports under SSDSIM_PLUGIN_MODULE_SYMBOL. */
typedef const ssdsim_plugin_module_table *(*ssdsim_plugin_module_fn)(void);

/** Define the entry point of a loadable module returning `table` (a static const
 * ssdsim_plugin_module_table), at file scope:
 *     static const ssdsim_gc_ops *const my_gcs[] = {&my_policy_ops, NULL};
 *     static const ssdsim_plugin_module_table my_module = {
 *         SSDSIM_PLUGIN_MODULE_ABI_VERSION, sizeof(ssdsim_plugin_module_table), "my-module",
 *         NULL, my_gcs, NULL};
 *     SSDSIM_PLUGIN_MODULE(my_module)
 * and build the file with `cc -shared -fPIC ... $(pkg-config --cflags ssdsim) -o my.so`. */
#define SSDSIM_PLUGIN_MODULE(table)                                                               \
    SSDSIM_API const ssdsim_plugin_module_table *ssdsim_plugin_module(void);                      \
    SSDSIM_API const ssdsim_plugin_module_table *ssdsim_plugin_module(void)                       \
    {                                                                                             \
        return &(table);                                                                          \
    }

#ifdef __cplusplus
}
#endif

#endif /* SSDSIM_SYS_PLUGIN_H */
