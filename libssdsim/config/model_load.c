/* model_load.c: making, changing, copying and freeing model objects.
 *
 * A model is loaded from a string, a file or the built-in generic MLC model: parsed (with the
 * line and column of a syntax error), built (model_build.c) and given its label and JSON tree.
 * ssdsim_model_set_many puts its values into one copy of that tree (null takes a key out) and
 * rebuilds the whole model once, so overrides are checked exactly as a file is, together (keys
 * that depend on each other can be set in any order); the model is changed only when all of it
 * is valid. ssdsim_model_set is the same for one key.
 * The first problem found is reported (ssdsim_error holds one message), in a fixed order:
 * syntax, then the structure walk in document order, then the keys in table order, then the
 * cross-field checks.
 */
/* realpath (a system's member directory) is X/Open: ask for it before any system header. */
#define _XOPEN_SOURCE 700

#include "config/model_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The generic MLC model, embedded at build time from models/generic-mlc.json (embed.sh). */
extern const char ssdsim__builtin_model_json[];

#define SET_LABEL "--set"
#define STRING_LABEL "<string>"
#define BUILTIN_LABEL "built-in generic-mlc"

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

/* The absolute directory a system's relative member is read from on later sets (struct
 * ssdsim_model's dir), malloc'd: the directory of `base`, the model's file, or the working
 * directory (NULL base); NULL when it cannot be found or memory runs out (the member is then
 * read by the path it is shown by, as before). */
static char *model_dir(const char *base)
{
    g_autofree char *dir = base ? g_path_get_dirname(base) : g_strdup(".");
    return realpath(dir, NULL);
}

/* Parse and validate `len` bytes at `text` (NUL-terminated at text[len]). The member of a
 * system is read now by the path it is shown by (relative to the working directory, which is
 * the one it was given in); its directory is kept for later sets (model_dir). With
 * `is_system`, a system is not built: *is_system is set and *out left NULL (see
 * ssdsim__model_load_member). */
static int load_text(ssdsim_model **out, const char *text, size_t len, const char *label,
                     const char *base, bool *is_system, ssdsim_error *err)
{
    cJSON *root = NULL;
    int rc = ssdsim__json_parse(&root, text, len, label, &syntax_style, err);
    if (rc != 0)
        return rc;
    if (is_system && cJSON_IsObject(root) && cJSON_GetObjectItemCaseSensitive(root, "system")) {
        *is_system = true;
        cJSON_Delete(root);
        return 0;
    }

    struct ssdsim_model *m = calloc(1, sizeof *m);
    char *label_copy = strdup(label);
    if (!m || !label_copy) {
        free(m);
        free(label_copy);
        cJSON_Delete(root);
        return ssdsim__error_set(err, SSDSIM_ENOMEM, label, NULL, "out of memory");
    }
    rc = ssdsim__model_build(m, root, label, base, NULL, err);
    if (rc != 0) {
        free(m);
        free(label_copy);
        cJSON_Delete(root);
        return rc;
    }
    m->magic = SSDSIM__MAGIC_MODEL;
    m->label = label_copy;
    m->json = root;
    if (m->kind == SSDSIM__KIND_SYSTEM)
        m->dir = model_dir(base);
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
    return load_text(out, json, strlen(json), label, NULL, NULL, err);
}

/* ssdsim_model_load_file, and ssdsim__model_load_member with `is_system`. */
static int load_file(ssdsim_model **out, const char *path, bool *is_system, ssdsim_error *err)
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
    rc = load_text(out, text, len, path, path, is_system, err);
    free(text);
    return rc;
}

SSDSIM_API int ssdsim_model_load_file(ssdsim_model **out, const char *path, ssdsim_error *err)
{
    return load_file(out, path, NULL, err);
}

int ssdsim__model_load_member(ssdsim_model **out, bool *is_system, const char *path,
                              ssdsim_error *err)
{
    *is_system = false;
    return load_file(out, path, is_system, err);
}

SSDSIM_API int ssdsim_model_default(ssdsim_model **out, ssdsim_error *err)
{
    return ssdsim_model_load_string(out, ssdsim__builtin_model_json, BUILTIN_LABEL, err);
}

/* Does override key `key` name `path` or a section holding it ("gc" holds "gc.policy")? */
static bool key_covers(const char *key, const char *path)
{
    size_t n = strlen(key);
    return !strncmp(key, path, n) && (path[n] == '\0' || path[n] == '.');
}

/* Is `key` a known key or section, checked level by level so that the message and the
 * suggestion are those a file gets? A system's keys and the spec block are checked by
 * rebuilding the model (ssdsim__model_system_build, ssdsim__model_spec_build), like everything
 * else; so is a name that may be a plugin's parameter. */
static int check_key(struct ctx *c, const char *key)
{
    ssdsim_error *err = c->err;
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
        enum path_kind kind = ssdsim__model_classify(upto);
        if (kind == PATH_UNKNOWN && !dot && ssdsim__model_plugin_section_of(prefix))
            break; /* maybe a plugin parameter: the whole model is checked below */
        if (kind == PATH_UNKNOWN) {
            g_autofree char *name = g_strndup(p, len);
            return ssdsim__model_unknown_key(c, prefix, name);
        }
        if (!dot)
            break;
        if (kind == PATH_LEAF)
            return ssdsim__model_error(c, key, "unknown key ('%s' is a value, not an object)",
                                       upto);
        p = dot + 1;
    }
    return 0;
}

/* The object that holds the last name of dotted `path` in `root` (*last points at that name),
 * or NULL when a level before it is missing or not an object. */
static cJSON *parent_of(const cJSON *root, const char *path, const char **last)
{
    const cJSON *cur = root;
    const char *p = path;
    for (const char *dot; cur && (dot = strchr(p, '.')) != NULL; p = dot + 1) {
        g_autofree char *name = g_strndup(p, (size_t)(dot - p));
        cur = cJSON_GetObjectItemCaseSensitive(cur, name);
        if (!cJSON_IsObject(cur))
            return NULL;
    }
    *last = p;
    return (cJSON *)cur;
}

/* Take `path` out of `root` (JSON null given as its value): absent, the key has its default.
 * Nothing to do when it is not there. */
static void remove_path(cJSON *root, const char *path)
{
    const char *last;
    cJSON *parent = parent_of(root, path, &last);
    if (parent)
        cJSON_DeleteItemFromObjectCaseSensitive(parent, last);
}

/* Must a model give `path` (a required key of the table)? */
static bool key_required(const char *path)
{
    for (size_t i = 0; i < ssdsim__model_n_keys; i++)
        if (!strcmp(ssdsim__model_keys[i].path, path))
            return (ssdsim__model_keys[i].flags & KF_REQUIRED) != 0;
    return false;
}

/* Does `root` give `path`? */
static bool has_path(const cJSON *root, const char *path)
{
    const char *last;
    const cJSON *parent = root ? parent_of(root, path, &last) : NULL;
    return parent && cJSON_GetObjectItemCaseSensitive(parent, last);
}

/* Put `value` (JSON text, or a bare word taken as a string; null takes the key out) at `key`
 * in `tree`. false when out of memory. */
static bool put_value(cJSON *tree, const char *key, const char *value)
{
    const char *end = NULL;
    cJSON *v = cJSON_ParseWithOpts(value, &end, 1);
    if (v && cJSON_IsNull(v)) {
        cJSON_Delete(v);
        remove_path(tree, key);
        return true;
    }
    if (!v)
        v = cJSON_CreateString(value); /* a bare word such as mlc or 600MB/s */
    return v && ssdsim__model_put_path(tree, key, v); /* put_path frees v when it fails */
}

/* The notes of note_unused_gc for keys just set: one note for all of them. */
static void note_unused_gc_keys(const struct ssdsim_model *m, const cJSON *root,
                                const char *const *keys, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (!strcmp(keys[i], "gc") || !strcmp(keys[i], "ftl") || !strcmp(keys[i], "ftl.type")) {
            note_unused_gc(m, root, SET_LABEL, keys[i]);
            return;
        }
    for (size_t i = 0; i < n; i++)
        if (!strncmp(keys[i], "gc.", 3))
            note_unused_gc(m, root, SET_LABEL, keys[i]);
}

SSDSIM_API int ssdsim_model_set_many(ssdsim_model *model, size_t n, const char *const *keys,
                                     const char *const *values, size_t *failed,
                                     ssdsim_error *err)
{
    error_clear(err);
    if (failed)
        *failed = 0;
    SSDSIM__CHECK_HANDLE(model, SSDSIM__MAGIC_MODEL, "ssdsim_model");
    if (!model || (n && (!keys || !values)))
        return ssdsim__error_set(err, SSDSIM_EINVAL, SET_LABEL, NULL, "%s",
                                 !model ? "no model" : "no keys or values");
    ssdsim_error local;
    if (!err)
        err = &local;
    struct ctx c = {.label = SET_LABEL, .err = err, .m = model};
    for (size_t i = 0; i < n; i++) {
        int rc = !keys[i]     ? ssdsim__error_set(err, SSDSIM_EINVAL, SET_LABEL, NULL, "no key")
                 : !values[i] ? ssdsim__error_set(err, SSDSIM_EINVAL, SET_LABEL, keys[i],
                                                  "no value")
                              : check_key(&c, keys[i]);
        if (rc) {
            if (failed)
                *failed = i;
            return rc;
        }
    }
    if (n == 0)
        return 0;

    cJSON *tree = model->json ? cJSON_Duplicate(model->json, 1) : ssdsim__model_json(model);
    for (size_t i = 0; tree && i < n; i++) {
        if (!put_value(tree, keys[i], values[i])) {
            cJSON_Delete(tree);
            if (failed)
                *failed = i;
            return ssdsim__error_set(err, SSDSIM_ENOMEM, SET_LABEL, keys[i], "out of memory");
        }
    }
    if (!tree)
        return ssdsim__error_set(err, SSDSIM_ENOMEM, SET_LABEL, keys[0], "out of memory");

    struct ssdsim_model next = {0};
    int rc = ssdsim__model_build(&next, tree, SET_LABEL, model->label, model->dir, err);
    if (rc != 0) {
        cJSON_Delete(tree);
        /* The key the message is about, if one of these set it (the last that did); else the
         * model gave it, and the values set made it wrong: say so, and how to take it out when
         * it may be left out. */
        size_t at = n;
        for (size_t i = n; err->path[0] && i-- > 0;)
            if (key_covers(keys[i], err->path)) {
                at = i;
                break;
            }
        if (failed)
            *failed = at < n ? at : n - 1;
        if (at == n && err->path[0] && rc == SSDSIM_ECONFIG && has_path(model->json, err->path)) {
            size_t len = strlen(err->message);
            if (key_required(err->path))
                snprintf(err->message + len, sizeof err->message - len,
                         " (the model gives %s: set it too)", err->path);
            else
                snprintf(err->message + len, sizeof err->message - len,
                         " (the model gives %s; %s=null takes it out)", err->path, err->path);
        }
        return rc;
    }
    ssdsim__model_release(model);
    cJSON_Delete(model->json);
    next.magic = model->magic;
    next.label = model->label;
    next.dir = model->dir;
    next.json = tree;
    *model = next;
    note_unused_gc_keys(model, tree, keys, n);
    return 0;
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
    return ssdsim_model_set_many(model, 1, &key, &value, NULL, err);
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
    c->dir = NULL;
    if (m->label && !(c->label = strdup(m->label)))
        goto fail;
    if (m->dir && !(c->dir = strdup(m->dir)))
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
            g->fitted = f->fitted ? strdup(f->fitted) : NULL;
            if (!g->name || !g->rw || (f->note && !g->note) || (f->fitted && !g->fitted))
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
    ssdsim__model_release(model);
    cJSON_Delete(model->json);
    free(model->label);
    free(model->dir);
    free(model);
}
