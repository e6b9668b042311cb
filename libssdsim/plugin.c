/* plugin.c: the registry of FTL, GC and wear-leveling plugins.
 *
 * One process-wide list per kind, like SQLite's VFS list: plugins are code, registered once
 * and shared by every simulation; a registered table is never modified or removed. A mutex
 * guards registration and lookup so simulations on several threads may start at once. Order is
 * the registration order (built-ins first), which is what `ssdsim list` prints: nothing depends
 * on hash-table iteration order.
 */
#include "plugin.h"

#include <glib.h>
#include <math.h>
#include <string.h>

#include "config/jsonutil.h"

static GMutex lock;
static GPtrArray *lists[SSDSIM__N_KINDS];
static gsize builtins_done;

static const char *const kind_names[SSDSIM__N_KINDS] = {"FTL", "GC policy", "wear leveler"};

const char *ssdsim__plugin_kind_name(ssdsim_plugin_kind kind)
{
    return (unsigned)kind < SSDSIM__N_KINDS ? kind_names[kind] : "plugin";
}

uint32_t ssdsim__plugin_n_params(const struct ssdsim__plugin_header *p)
{
    uint32_t n = 0;
    while (p->params && p->params[n].key)
        n++;
    return n;
}

static bool valid_name(const char *s, bool underscore)
{
    if (!s || !*s || strlen(s) >= 32)
        return false;
    for (const char *c = s; *c; c++)
        if (!((*c >= 'a' && *c <= 'z') || (*c >= '0' && *c <= '9') || *c == '-' ||
              (underscore && *c == '_')))
            return false;
    return true;
}

/* Check parameter `i` of `p`, whose section's own keys are `reserved` (NULL-terminated): the
 * model reads a parameter by its key, so a key may appear once and not be one of the section's;
 * an integer parameter's default and bounds are whole (the value reaches init as declared, and
 * a whole value read from a model could not fall on a fractional bound); min <= default <= max
 * (which also refuses NaN); and there is a help line, which `ssdsim list` and model errors
 * print. Every check names the plugin, the parameter and what is wrong. */
static int check_param(ssdsim_plugin_kind kind, const struct ssdsim__plugin_header *p, uint32_t i,
                       const char *const *reserved, ssdsim_error *err)
{
    const char *what = kind_names[kind];
    const ssdsim_param *q = &p->params[i];
    if (!valid_name(q->key, true))
        return ssdsim__error_set(err, SSDSIM_EINVAL, NULL, NULL,
                                 "%s '%s': parameter %u's name '%s' is not [a-z0-9_]+ (at most "
                                 "31 characters)",
                                 what, p->name, i, q->key);
    for (uint32_t j = 0; j < i; j++)
        if (!strcmp(p->params[j].key, q->key))
            return ssdsim__error_set(err, SSDSIM_EINVAL, NULL, NULL,
                                     "%s '%s': parameter '%s' is declared twice (parameters %u "
                                     "and %u)",
                                     what, p->name, q->key, j, i);
    for (int r = 0; reserved[r]; r++)
        if (!strcmp(q->key, reserved[r]))
            return ssdsim__error_set(err, SSDSIM_EINVAL, NULL, NULL,
                                     "%s '%s': parameter '%s' has the name of a model key of its "
                                     "section",
                                     what, p->name, q->key);
    if (q->type != SSDSIM_PARAM_INT && q->type != SSDSIM_PARAM_REAL)
        return ssdsim__error_set(err, SSDSIM_EINVAL, NULL, NULL,
                                 "%s '%s': parameter '%s' has type %d (expected SSDSIM_PARAM_INT "
                                 "or SSDSIM_PARAM_REAL)",
                                 what, p->name, q->key, (int)q->type);
    if (q->type == SSDSIM_PARAM_INT) {
        static const char *const field[3] = {"default", "min", "max"};
        const double v[3] = {q->def, q->min, q->max};
        for (int f = 0; f < 3; f++)
            if (v[f] != floor(v[f]))
                return ssdsim__error_set(err, SSDSIM_EINVAL, NULL, NULL,
                                         "%s '%s': integer parameter '%s' has %s %.17g (expected "
                                         "a whole number)",
                                         what, p->name, q->key, field[f], v[f]);
    }
    if (!(q->min <= q->max))
        return ssdsim__error_set(err, SSDSIM_EINVAL, NULL, NULL,
                                 "%s '%s': parameter '%s' has min %g above max %g", what, p->name,
                                 q->key, q->min, q->max);
    if (!(q->min <= q->def && q->def <= q->max))
        return ssdsim__error_set(err, SSDSIM_EINVAL, NULL, NULL,
                                 "%s '%s': parameter '%s' has default %g outside its range "
                                 "[%g, %g]",
                                 what, p->name, q->key, q->def, q->min, q->max);
    if (!q->help)
        return ssdsim__error_set(err, SSDSIM_EINVAL, NULL, NULL,
                                 "%s '%s': parameter '%s' has no help line (help is NULL)", what,
                                 p->name, q->key);
    return 0;
}

/* Check and add a table. `min_size` is the size of the ABI-1 table of its kind;
 * `has_required_methods` reads the kind's methods, called only once the table is known to be
 * at least that large (a shorter table's methods would be read past its end). */
static int reg(ssdsim_plugin_kind kind, const struct ssdsim__plugin_header *p, size_t min_size,
               bool (*has_required_methods)(const struct ssdsim__plugin_header *p),
               ssdsim_error *err)
{
    const char *what = kind_names[kind];
    if (!p)
        return ssdsim__error_set(err, SSDSIM_EINVAL, NULL, NULL, "%s table is NULL", what);
    if (p->abi_version > SSDSIM_PLUGIN_ABI_VERSION || p->abi_version == 0)
        return ssdsim__error_set(err, SSDSIM_EABI, NULL, NULL,
                                 "%s '%s' was written for plugin ABI version %u; this library "
                                 "(ssdsim %s) supports version %u",
                                 what, p->name ? p->name : "?", p->abi_version, ssdsim_version(),
                                 SSDSIM_PLUGIN_ABI_VERSION);
    if (p->struct_size < min_size)
        return ssdsim__error_set(err, SSDSIM_EABI, NULL, NULL,
                                 "%s '%s': struct_size %u is smaller than the ABI-%u table (%zu)",
                                 what, p->name ? p->name : "?", p->struct_size, p->abi_version,
                                 min_size);
    if (!valid_name(p->name, false))
        return ssdsim__error_set(err, SSDSIM_EINVAL, NULL, NULL,
                                 "%s name '%s' is not [a-z0-9-]+ (at most 31 characters)", what,
                                 p->name ? p->name : "(null)");
    if (!p->summary)
        return ssdsim__error_set(err, SSDSIM_EINVAL, NULL, NULL, "%s '%s' has no summary", what,
                                 p->name);
    if (!has_required_methods(p))
        return ssdsim__error_set(err, SSDSIM_EINVAL, NULL, NULL,
                                 "%s '%s' lacks a required method", what, p->name);
    uint32_t n = ssdsim__plugin_n_params(p);
    if (n > SSDSIM_MAX_PARAMS)
        return ssdsim__error_set(err, SSDSIM_EINVAL, NULL, NULL,
                                 "%s '%s' declares %u parameters (at most %d)", what, p->name, n,
                                 SSDSIM_MAX_PARAMS);
    /* A parameter is a key of the plugin's model section beside the section's own keys. */
    static const char *const reserved[SSDSIM__N_KINDS][8] = {
        {"type", "op", "mapping_unit", "hot_cold", "hot_window", NULL},
        {"policy", "free_blocks_min", "free_blocks_target", "bg_idle_us", "separate", NULL},
        {"policy", NULL},
    };
    for (uint32_t i = 0; i < n; i++) {
        int rc = check_param(kind, p, i, reserved[kind], err);
        if (rc)
            return rc;
    }
    g_mutex_lock(&lock);
    if (!lists[kind])
        lists[kind] = g_ptr_array_new();
    for (guint i = 0; i < lists[kind]->len; i++) {
        const struct ssdsim__plugin_header *o = g_ptr_array_index(lists[kind], i);
        if (!strcmp(o->name, p->name)) {
            g_mutex_unlock(&lock);
            return ssdsim__error_set(err, SSDSIM_EINVAL, NULL, NULL,
                                     "a %s named '%s' is already registered", what, p->name);
        }
    }
    g_ptr_array_add(lists[kind], (gpointer)p);
    g_mutex_unlock(&lock);
    return 0;
}

static bool gc_methods(const struct ssdsim__plugin_header *p)
{
    return ((const ssdsim_gc_ops *)p)->select_victim != NULL;
}

static bool wl_methods(const struct ssdsim__plugin_header *p)
{
    (void)p;
    return true; /* every method of a wear leveler is optional */
}

static bool ftl_methods(const struct ssdsim__plugin_header *p)
{
    const ssdsim_ftl_ops *ops = (const ssdsim_ftl_ops *)p;
    return ops->create && ops->read && ops->write && ops->trim && ops->flash_done;
}

static int reg_gc(const ssdsim_gc_ops *ops, ssdsim_error *err)
{
    return reg(SSDSIM_PLUGIN_GC, (const struct ssdsim__plugin_header *)ops,
               offsetof(ssdsim_gc_ops, select_victim) + sizeof ops->select_victim, gc_methods,
               err);
}

static int reg_wl(const ssdsim_wl_ops *ops, ssdsim_error *err)
{
    return reg(SSDSIM_PLUGIN_WL, (const struct ssdsim__plugin_header *)ops,
               offsetof(ssdsim_wl_ops, after_erase) + sizeof ops->after_erase, wl_methods, err);
}

static int reg_ftl(const ssdsim_ftl_ops *ops, ssdsim_error *err)
{
    return reg(SSDSIM_PLUGIN_FTL, (const struct ssdsim__plugin_header *)ops,
               offsetof(ssdsim_ftl_ops, prefetch) + sizeof ops->prefetch, ftl_methods, err);
}

static const ssdsim_ftl_ops *const ftls[] = {&ssdsim__ftl_page_ops, &ssdsim__ftl_dftl_ops,
                                             &ssdsim__ftl_fast_ops, &ssdsim__ftl_direct_ops,
                                             &ssdsim__ftl_zoned_ops};

bool ssdsim__plugin_builtin_ftl(const ssdsim_ftl_ops *ops)
{
    for (size_t i = 0; i < SSDSIM__ARRAY_LEN(ftls); i++)
        if (ops == ftls[i])
            return true;
    return false;
}

/* Built-ins go through the same checks as outside plugins (a malformed built-in table would
 * show up as a missing plugin in the tests). Called on every entry point; runs once. */
static void register_builtins(void)
{
    if (!g_once_init_enter(&builtins_done))
        return;
    static const ssdsim_gc_ops *const gcs[] = {
        &ssdsim__gc_greedy_ops, &ssdsim__gc_cost_benefit_ops, &ssdsim__gc_fifo_ops,
        &ssdsim__gc_random_ops, &ssdsim__gc_d_choices_ops,    &ssdsim__gc_windowed_ops,
    };
    static const ssdsim_wl_ops *const wls[] = {&ssdsim__wl_none_ops, &ssdsim__wl_dynamic_ops,
                                               &ssdsim__wl_static_ops};
    for (size_t i = 0; i < SSDSIM__ARRAY_LEN(ftls); i++)
        reg_ftl(ftls[i], NULL);
    for (size_t i = 0; i < SSDSIM__ARRAY_LEN(gcs); i++)
        reg_gc(gcs[i], NULL);
    for (size_t i = 0; i < SSDSIM__ARRAY_LEN(wls); i++)
        reg_wl(wls[i], NULL);
    g_once_init_leave(&builtins_done, 1);
}

int ssdsim_gc_register(const ssdsim_gc_ops *ops, ssdsim_error *err)
{
    register_builtins();
    return reg_gc(ops, err);
}

int ssdsim_wl_register(const ssdsim_wl_ops *ops, ssdsim_error *err)
{
    register_builtins();
    return reg_wl(ops, err);
}

int ssdsim_ftl_register(const ssdsim_ftl_ops *ops, ssdsim_error *err)
{
    register_builtins();
    return reg_ftl(ops, err);
}

size_t ssdsim_plugin_count(ssdsim_plugin_kind kind)
{
    if ((unsigned)kind >= SSDSIM__N_KINDS)
        return 0;
    register_builtins();
    g_mutex_lock(&lock);
    size_t n = lists[kind] ? lists[kind]->len : 0;
    g_mutex_unlock(&lock);
    return n;
}

int ssdsim_plugin_describe(ssdsim_plugin_kind kind, size_t index, const char **name,
                           const char **summary, const ssdsim_param **params)
{
    if ((unsigned)kind >= SSDSIM__N_KINDS)
        return SSDSIM_EINVAL;
    register_builtins();
    g_mutex_lock(&lock);
    const struct ssdsim__plugin_header *p =
        lists[kind] && index < lists[kind]->len ? g_ptr_array_index(lists[kind], index) : NULL;
    g_mutex_unlock(&lock);
    if (!p)
        return SSDSIM_EINVAL;
    if (name)
        *name = p->name;
    if (summary)
        *summary = p->summary;
    if (params)
        *params = p->params;
    return 0;
}

const struct ssdsim__plugin_header *ssdsim__plugin_find(ssdsim_plugin_kind kind, const char *name)
{
    if ((unsigned)kind >= SSDSIM__N_KINDS || !name)
        return NULL;
    register_builtins();
    const struct ssdsim__plugin_header *found = NULL;
    g_mutex_lock(&lock);
    for (guint i = 0; lists[kind] && i < lists[kind]->len && !found; i++) {
        const struct ssdsim__plugin_header *p = g_ptr_array_index(lists[kind], i);
        if (!strcmp(p->name, name))
            found = p;
    }
    g_mutex_unlock(&lock);
    return found;
}

char *ssdsim__plugin_names(ssdsim_plugin_kind kind, const char *near, const char **closest)
{
    register_builtins();
    GString *s = g_string_new(NULL);
    size_t best = SIZE_MAX;
    if (closest)
        *closest = NULL;
    g_mutex_lock(&lock);
    for (guint i = 0; lists[kind] && i < lists[kind]->len; i++) {
        const struct ssdsim__plugin_header *p = g_ptr_array_index(lists[kind], i);
        g_string_append_printf(s, "%s%s", s->len ? ", " : "", p->name);
        if (near && closest) {
            size_t d = ssdsim__edit_distance(near, p->name);
            if (d < best && d <= strlen(p->name) / 3 + 1) {
                best = d;
                *closest = p->name;
            }
        }
    }
    g_mutex_unlock(&lock);
    return g_string_free(s, FALSE);
}
