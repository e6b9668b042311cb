/* plugin_load.c: loading plugin modules into the command with GLib's GModule. A module exports
 * one function, ssdsim_plugin_module (SSDSIM_PLUGIN_MODULE in ssdsim/sys/plugin.h), returning a
 * versioned table of the FTLs, GC policies and wear levelers it provides; each is registered
 * through the library's registration functions, exactly as a program registers its own, and
 * the request sources it lists are kept here for `run --source`. A
 * module stays loaded until the process exits (the registry keeps pointers into it). Bad input
 * (a missing file, a file that is not a module, no entry point, another ABI version, a name
 * already taken) is refused with one line naming the file and the reason.
 *
 * A module is loaded once: a second path to the same file (its canonical path), or another
 * file with the same bytes (a build's module given by --plugin, or in a manifest, and its
 * installed copy in the plugin directory), is the module already loaded. The bytes are compared
 * by size and SHA-256, computed once per file loaded: a few plugin files per process. A
 * different module that registers a name already taken is refused naming both files. */
/* realpath with a NULL buffer */
#define _XOPEN_SOURCE 700
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <glib.h>
#include <glib/gstdio.h>
#include <gmodule.h>

#include <ssdsim/sys/ftl.h>
#include <ssdsim/sys/gc.h>
#include <ssdsim/sys/plugin.h>
#include <ssdsim/sys/wl.h>

#include "cli.h"
#include "plugin_load.h"

#ifndef SSDSIM_PLUGINDIR
#define SSDSIM_PLUGINDIR "/usr/local/lib/ssdsim/plugins"
#endif

/* A module loaded: its canonical path, the path it was loaded by (for messages), its size and
 * the SHA-256 of its bytes (hex). */
struct module {
    char *canon, *path;
    goffset size;
    char *sha256;
};

static GPtrArray *loaded; /* struct module * of every module loaded, in loading order */
static GPtrArray *failed; /* struct module * of those whose loading failed (kept: see below) */
static GPtrArray *given;  /* canonical paths of those given on the command line or in a manifest */
/* Who registered each plugin name: "KIND:NAME" -> the path of the module that did (owned by
 * its struct module). */
static GHashTable *owners;
static GPtrArray *sources; /* const ssdsim_source_ops * of every module, in loading order */

/* Register request source `s` of module `path`: 0, or -1 after printing the error. */
static int add_source(const char *path, const ssdsim_source_ops *s)
{
    const char *why = NULL;
    if (s->abi_version != SSDSIM_PLUGIN_MODULE_ABI_VERSION)
        why = "its abi_version is not SSDSIM_PLUGIN_MODULE_ABI_VERSION";
    else if (s->struct_size < sizeof *s)
        why = "its struct_size is smaller than ssdsim_source_ops";
    else if (!s->name || !*s->name || strspn(s->name, "abcdefghijklmnopqrstuvwxyz0123456789-") !=
                                          strlen(s->name))
        why = "its name is not [a-z0-9-]+";
    else if (!s->open || !s->next || !s->close)
        why = "open, next and close are required";
    else if (cli_plugin_source(s->name))
        why = "a request source of that name is already loaded";
    if (why) {
        cli_error("%s: cannot register request source '%s': %s", path, s->name ? s->name : "",
                  why);
        return -1;
    }
    if (!sources)
        sources = g_ptr_array_new();
    g_ptr_array_add(sources, (gpointer)s);
    return 0;
}

const ssdsim_source_ops *cli_plugin_source(const char *name)
{
    for (guint i = 0; sources && i < sources->len; i++) {
        const ssdsim_source_ops *s = sources->pdata[i];
        if (!strcmp(s->name, name))
            return s;
    }
    return NULL;
}

const ssdsim_source_ops *cli_plugin_source_at(size_t i)
{
    return sources && i < sources->len ? sources->pdata[i] : NULL;
}

static bool in_array(GPtrArray *a, const char *s)
{
    for (guint i = 0; a && i < a->len; i++)
        if (!strcmp(a->pdata[i], s))
            return true;
    return false;
}

/* The module that registered plugin `name` of kind `kind` ("ftl", "gc", "wl"), or NULL (a
 * built-in, or none). */
static const char *owner_of(const char *kind, const char *name)
{
    g_autofree char *key = g_strdup_printf("%s:%s", kind, name ? name : "");
    return owners ? g_hash_table_lookup(owners, key) : NULL;
}

static void set_owner(const char *kind, const char *name, const char *path)
{
    if (!owners)
        owners = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
    g_hash_table_insert(owners, g_strdup_printf("%s:%s", kind, name), (gpointer)path);
}

/* Register the tables of one list; `reg` is the kind's registration function, `kind` its key
 * in `owners` (a string literal). A name taken by another module's plugin names that module
 * too; one taken by this module's own list says it is listed twice. */
#define REGISTER_LIST(list, reg, kind)                                                             \
    do {                                                                                           \
        for (size_t k_ = 0; (list) && (list)[k_]; k_++) {                                          \
            ssdsim_error err_;                                                                     \
            if (reg((list)[k_], &err_)) {                                                          \
                const char *other_ = owner_of(kind, (list)[k_]->name);                             \
                /* the owner is this very module: its list names the table twice */                \
                if (other_ && !strcmp(other_, owner_path))                                         \
                    cli_error("%s: cannot register plugin: '%s' is listed twice in %s's ." kind    \
                              " list",                                                             \
                              path, (list)[k_]->name, path);                                       \
                else if (other_)                                                                   \
                    cli_error("%s: cannot register plugin: %s by %s, a different module (not "     \
                              "the same bytes)",                                                   \
                              path, err_.message, other_);                                         \
                else                                                                               \
                    cli_error("%s: cannot register plugin: %s", path, err_.message);               \
                return -1;                                                                         \
            }                                                                                      \
            set_owner(kind, (list)[k_]->name, owner_path);                                         \
        }                                                                                          \
    } while (0)

/* Load module `path` (canonical path `canon`) and register its plugins, recorded as registered
 * by `owner_path` (a string that lives as long as the process). */
static int load_file(const char *path, const char *canon, const char *owner_path)
{
    /* GModule adds ".so" to a name without a suffix and searches the library path for a name
     * without a '/': the file named must be the file opened. */
    g_autofree char *open_as = g_path_is_absolute(canon) ? g_strdup(canon)
                                                         : g_build_filename(".", canon, NULL);
    GModule *mod = g_module_open(open_as, G_MODULE_BIND_LAZY | G_MODULE_BIND_LOCAL);
    if (!mod) {
        const char *why = g_module_error();
        /* dlerror() starts with the path it was given: say it once, at the front. */
        size_t n = strlen(open_as);
        if (why && !strncmp(why, open_as, n) && !strncmp(why + n, ": ", 2))
            why += n + 2;
        cli_error("%s: cannot load plugin: %s", path, why ? why : "unknown error");
        return -1;
    }
    gpointer sym = NULL;
    if (!g_module_symbol(mod, SSDSIM_PLUGIN_MODULE_SYMBOL, &sym) || !sym) {
        cli_error("%s: not an ssdsim plugin (no %s symbol)", path, SSDSIM_PLUGIN_MODULE_SYMBOL);
        g_module_close(mod);
        return -1;
    }
    ssdsim_plugin_module_fn entry;
    memcpy(&entry, &sym, sizeof entry); /* object pointer to function pointer, as dlsym's users do */
    const ssdsim_plugin_module_table *t = entry();
    if (!t) {
        cli_error("%s: not an ssdsim plugin (%s returned NULL)", path, SSDSIM_PLUGIN_MODULE_SYMBOL);
        g_module_close(mod);
        return -1;
    }
    if (t->abi_version != SSDSIM_PLUGIN_MODULE_ABI_VERSION) {
        cli_error("%s: plugin ABI version %u; this ssdsim supports %d", path,
                  (unsigned)t->abi_version, SSDSIM_PLUGIN_MODULE_ABI_VERSION);
        g_module_close(mod);
        return -1;
    }
    if (t->struct_size < sizeof *t) {
        cli_error("%s: not an ssdsim plugin (its module table is %u bytes, expected at least %zu)",
                  path, (unsigned)t->struct_size, sizeof *t);
        g_module_close(mod);
        return -1;
    }
    /* From here on the registry may point into the module: it stays loaded. */
    g_module_make_resident(mod);
    REGISTER_LIST(t->ftl, ssdsim_ftl_register, "ftl");
    REGISTER_LIST(t->gc, ssdsim_gc_register, "gc");
    REGISTER_LIST(t->wl, ssdsim_wl_register, "wl");
    for (size_t k = 0; t->source && t->source[k]; k++)
        if (add_source(path, t->source[k]))
            return -1;
    return 0;
}

/* The file's size, or -1 when it cannot be read. */
static goffset file_size(const char *canon)
{
    GStatBuf st;
    return g_stat(canon, &st) == 0 ? (goffset)st.st_size : -1;
}

/* The SHA-256 of the module's file, computed once; false when it cannot be read or has
 * changed size since it was loaded. */
static bool module_digest(struct module *m)
{
    if (m->sha256)
        return true;
    g_autofree gchar *bytes = NULL;
    gsize len = 0;
    if (!g_file_get_contents(m->canon, &bytes, &len, NULL) || (goffset)len != m->size)
        return false;
    m->sha256 = g_compute_checksum_for_data(G_CHECKSUM_SHA256, (const guchar *)bytes, len);
    return m->sha256 != NULL;
}

/* Whether the file at `canon` is a module already loaded: the same canonical path, or the same
 * bytes (sizes first: contents are read only when a loaded module has the same size). */
static bool find_loaded(const char *path, const char *canon)
{
    if (!loaded || loaded->len == 0)
        return false;
    for (guint i = 0; i < loaded->len; i++)
        if (!strcmp(((struct module *)loaded->pdata[i])->canon, canon))
            return true;
    struct module probe = {.canon = (char *)canon, .path = (char *)path,
                           .size = file_size(canon)};
    bool same = false;
    for (guint i = 0; i < loaded->len && probe.size >= 0 && !same; i++) {
        struct module *m = loaded->pdata[i];
        if (m->size != probe.size || !module_digest(m))
            continue;
        if (!probe.sha256 && !module_digest(&probe))
            break;
        same = !strcmp(probe.sha256, m->sha256);
    }
    g_free(probe.sha256);
    return same;
}

int cli_plugin_load(const char *path, int is_given)
{
    if (!*path) {
        cli_error("--plugin expects a file (a module such as ./my-policy.so)");
        return -1;
    }
    char *canon = realpath(path, NULL);
    if (!canon) {
        cli_error("%s: cannot load plugin: %s", path, strerror(errno));
        return -1;
    }
    if (!g_file_test(canon, G_FILE_TEST_IS_REGULAR)) {
        cli_error("%s: cannot load plugin: not a regular file", path);
        free(canon);
        return -1;
    }
    if (!find_loaded(path, canon)) {
        /* The module's record lives as long as the process, also when the load fails: the
         * names it registered before the failure are recorded with its path. Only a module
         * loaded whole is one to skip when it comes again. */
        struct module *m = g_new0(struct module, 1);
        m->canon = g_strdup(canon);
        m->path = g_strdup(path);
        m->size = file_size(canon);
        if (load_file(path, canon, m->path)) {
            if (!failed)
                failed = g_ptr_array_new();
            g_ptr_array_add(failed, m);
            free(canon);
            return -1;
        }
        if (!loaded)
            loaded = g_ptr_array_new();
        g_ptr_array_add(loaded, m);
    }
    if (is_given && !in_array(given, canon)) {
        if (!given)
            given = g_ptr_array_new_with_free_func(g_free);
        g_ptr_array_add(given, g_strdup(canon));
    }
    free(canon);
    cli_input_add(path);
    return 0;
}

static int cmp_names(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static int load_dir(const char *dir)
{
    GDir *d = g_dir_open(dir, 0, NULL);
    if (!d)
        return 0; /* no such directory: nothing installed there */
    GPtrArray *names = g_ptr_array_new_with_free_func(g_free);
    const char *n;
    while ((n = g_dir_read_name(d)))
        if (g_str_has_suffix(n, ".so"))
            g_ptr_array_add(names, g_build_filename(dir, n, NULL));
    g_dir_close(d);
    g_ptr_array_sort(names, cmp_names);
    int rc = 0;
    for (guint i = 0; i < names->len && !rc; i++)
        rc = cli_plugin_load(names->pdata[i], 0);
    g_ptr_array_unref(names);
    return rc;
}

int cli_plugin_autoload(void)
{
    const char *env = getenv("SSDSIM_PLUGIN_PATH");
    if (!env)
        return load_dir(SSDSIM_PLUGINDIR);
    g_auto(GStrv) dirs = g_strsplit(env, ":", -1);
    for (char **p = dirs; *p; p++)
        if (**p && load_dir(*p))
            return -1;
    return 0;
}

const char *const *cli_plugin_given(size_t *n)
{
    *n = given ? given->len : 0;
    return given ? (const char *const *)given->pdata : NULL;
}
