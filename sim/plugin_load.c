/* plugin_load.c: loading plugin modules into the command with GLib's GModule. A module exports
 * one function, ssdsim_plugin_module (SSDSIM_PLUGIN_MODULE in ssdsim/sys/plugin.h), returning a
 * versioned table of the FTLs, GC policies and wear levelers it provides; each is registered
 * through the library's registration functions, exactly as a program registers its own, and
 * the request sources it lists are kept here for `run --source`. A
 * module stays loaded until the process exits (the registry keeps pointers into it). Bad input
 * (a missing file, a file that is not a module, no entry point, another ABI version, a name
 * already taken) is refused with one line naming the file and the reason. */
/* realpath with a NULL buffer */
#define _XOPEN_SOURCE 700
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <glib.h>
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

static GPtrArray *loaded; /* canonical paths of every module loaded */
static GPtrArray *given;  /* those given on the command line or in a manifest */
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

/* Register the tables of one list; `reg` is the kind's registration function. */
#define REGISTER_LIST(list, reg)                                                                   \
    do {                                                                                           \
        for (size_t k_ = 0; (list) && (list)[k_]; k_++) {                                         \
            ssdsim_error err_;                                                                     \
            if (reg((list)[k_], &err_)) {                                                          \
                cli_error("%s: cannot register plugin: %s", path, err_.message);                  \
                return -1;                                                                         \
            }                                                                                      \
        }                                                                                          \
    } while (0)

static int load_file(const char *path, const char *canon)
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
    REGISTER_LIST(t->ftl, ssdsim_ftl_register);
    REGISTER_LIST(t->gc, ssdsim_gc_register);
    REGISTER_LIST(t->wl, ssdsim_wl_register);
    for (size_t k = 0; t->source && t->source[k]; k++)
        if (add_source(path, t->source[k]))
            return -1;
    return 0;
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
    if (!in_array(loaded, canon)) {
        if (load_file(path, canon)) {
            free(canon);
            return -1;
        }
        if (!loaded)
            loaded = g_ptr_array_new_with_free_func(g_free);
        g_ptr_array_add(loaded, g_strdup(canon));
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
