/* model_load.c: making, changing, copying and freeing model objects.
 *
 * A model is loaded from a string, a file or the built-in generic MLC model: parsed (with the
 * line and column of a syntax error), built (model_build.c) and given its label and JSON tree.
 * ssdsim_model_set puts one value into a copy of that tree and rebuilds the whole model, so an
 * override is checked exactly as a file is; the model is changed only when all of it is valid.
 * The first problem found is reported (ssdsim_error holds one message), in a fixed order:
 * syntax, then the structure walk in document order, then the keys in table order, then the
 * cross-field checks.
 */
#include "config/model_int.h"

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
    rc = ssdsim__model_build(m, root, label, base, err);
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
     * checked by rebuilding the model (ssdsim__model_system_build, ssdsim__model_spec_build), like
     * everything else. */
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
            return ssdsim__model_unknown_key(&c, prefix, name);
        }
        if (!dot)
            break;
        if (kind == PATH_LEAF)
            return ssdsim__model_error(&c, key, "unknown key ('%s' is a value, not an object)",
                                       upto);
        p = dot + 1;
    }

    cJSON *tree = model->json ? cJSON_Duplicate(model->json, 1) : ssdsim__model_json(model);
    const char *end = NULL;
    cJSON *v = cJSON_ParseWithOpts(value, &end, 1);
    if (!v)
        v = cJSON_CreateString(value); /* a bare word such as mlc or 600MB/s */
    if (!tree || !v || !ssdsim__model_put_path(tree, key, v)) {
        if (!tree)
            cJSON_Delete(v);
        cJSON_Delete(tree);
        return ssdsim__error_set(err, SSDSIM_ENOMEM, SET_LABEL, key, "out of memory");
    }

    struct ssdsim_model next = {0};
    int rc = ssdsim__model_build(&next, tree, SET_LABEL, model->label, err);
    if (rc != 0) {
        cJSON_Delete(tree);
        return rc;
    }
    ssdsim__model_release(model);
    cJSON_Delete(model->json);
    next.magic = model->magic;
    next.label = model->label;
    next.json = tree;
    *model = next;
    note_unused_gc(model, tree, SET_LABEL, key);
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
    ssdsim__model_release(model);
    cJSON_Delete(model->json);
    free(model->label);
    free(model);
}
