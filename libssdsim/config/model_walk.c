/* model_walk.c: the structure walk of a model document.
 *
 * Before any value is converted, every object of the document is walked in document order:
 * duplicate names, unknown names (with the nearest known one suggested) and sections that are
 * not objects are refused. What is known comes from the key table (model.c) and, in the ftl, gc
 * and wl sections, from the parameters the selected plugin declares. The spec and system blocks
 * check their fixed sets of names with ssdsim__model_check_names.
 */
#include "config/model_int.h"

#include <string.h>

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

enum path_kind ssdsim__model_classify(const char *path)
{
    size_t lp = strlen(path);
    for (size_t i = 0; i < ssdsim__model_n_keys; i++) {
        if (strcmp(ssdsim__model_keys[i].path, path) == 0)
            return PATH_LEAF;
        if (strncmp(ssdsim__model_keys[i].path, path, lp) == 0 &&
            ssdsim__model_keys[i].path[lp] == '.')
            return PATH_SECTION;
    }
    return PATH_UNKNOWN;
}

/* "<prefix>.<name>: unknown key (did you mean '<nearest>'?)". The nearest known name at the same
 * level is suggested when it is close; otherwise a key of that name elsewhere in the model
 * ("flash.channels" -> "geometry.channels"); otherwise the names known at that level. */
int ssdsim__model_unknown_key(struct ctx *c, const char *prefix, const char *name)
{
    g_autofree char *path = prefix[0] ? g_strdup_printf("%s.%s", prefix, name) : g_strdup(name);
    g_autofree char *best = NULL;
    size_t best_dist = SIZE_MAX;
    GString *known = g_string_new(NULL);

    for (size_t i = 0; i < ssdsim__model_n_keys; i++) {
        g_autofree char *cand = child_name(ssdsim__model_keys[i].path, prefix);
        if (!cand)
            continue;
        /* list each name once (sections repeat in the table) */
        bool seen = false;
        for (size_t j = 0; j < i && !seen; j++) {
            g_autofree char *prev = child_name(ssdsim__model_keys[j].path, prefix);
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
    if (strchr(name, '.') && ssdsim__model_classify(path) != PATH_UNKNOWN) {
        rc = ssdsim__model_error(c, path, "unknown key (write nested objects, not dotted names)");
    } else if (best && best_dist < best_len && best_dist <= best_len / 3 + 1) {
        rc = ssdsim__model_error(c, path, "unknown key (did you mean '%s'?)", best);
    } else {
        const char *elsewhere = NULL;
        for (size_t i = 0; i < ssdsim__model_n_keys && !elsewhere; i++) {
            const char *dot = strrchr(ssdsim__model_keys[i].path, '.');
            if (dot && strcmp(dot + 1, name) == 0)
                elsewhere = ssdsim__model_keys[i].path;
        }
        if (elsewhere)
            rc = ssdsim__model_error(c, path, "unknown key (did you mean '%s'?)", elsewhere);
        else
            rc = ssdsim__model_error(c, path, "unknown key (known keys here: %s)", known->str);
    }
    g_string_free(known, TRUE);
    return rc;
}

/* The plugin section named `prefix`, or NULL. */
const struct plugin_section *ssdsim__model_plugin_section_of(const char *prefix)
{
    for (size_t s = 0; s < ssdsim__model_n_plugin_sections; s++)
        if (!strcmp(ssdsim__model_plugin_sections[s].section, prefix))
            return &ssdsim__model_plugin_sections[s];
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
    for (size_t i = 0; i < ssdsim__model_n_keys; i++) {
        if (!strcmp(ssdsim__model_keys[i].path, path) && ssdsim__model_keys[i].def) {
            cJSON *d = cJSON_Parse(ssdsim__model_keys[i].def);
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
int ssdsim__model_check_object(struct ctx *c, const cJSON *obj, const char *prefix)
{
    for (const cJSON *child = obj->child; child; child = child->next) {
        const char *name = child->string ? child->string : "";
        g_autofree char *path = prefix[0] ? g_strdup_printf("%s.%s", prefix, name) : g_strdup(name);
        for (const cJSON *prev = obj->child; prev != child; prev = prev->next)
            if (prev->string && strcmp(prev->string, name) == 0)
                return ssdsim__model_error(c, path, "duplicate key");
        if (strchr(name, '.'))
            return ssdsim__model_unknown_key(c, prefix, name); /* a dotted name is never a key */
        if (!prefix[0] && (!strcmp(name, "spec") || !strcmp(name, "system")))
            continue; /* checked by ssdsim__model_spec_build and ssdsim__model_system_build */
        switch (ssdsim__model_classify(path)) {
        case PATH_LEAF:
            break;
        case PATH_SECTION: {
            if (!cJSON_IsObject(child)) {
                g_autofree char *got = ssdsim__model_describe(child, true);
                return ssdsim__model_error(c, path, "expected an object, got %s", got);
            }
            int rc = ssdsim__model_check_object(c, child, path);
            if (rc != 0)
                return rc;
            break;
        }
        case PATH_UNKNOWN: {
            /* A parameter of the plugin this section selects is a key too. */
            const struct plugin_section *ps = ssdsim__model_plugin_section_of(prefix);
            const struct ssdsim__plugin_header *p = ps ? section_plugin(ps, obj) : NULL;
            if (p && param_index(p, name) >= 0)
                break;
            c->plugin = p;
            return ssdsim__model_unknown_key(c, prefix, name);
        }
        }
    }
    return 0;
}

/* The value at a dotted path of a tree that passed ssdsim__model_check_object (sections are
 * objects). */
cJSON *ssdsim__model_lookup(const cJSON *root, const char *path)
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
        rc = ssdsim__model_error(c, path, "unknown key (did you mean '%s'?)", best);
    else
        rc = ssdsim__model_error(c, path, "unknown key (known keys here: %s)", list->str);
    g_string_free(list, TRUE);
    return rc;
}

/* Every name in `obj` is one of `known`, none twice. */
int ssdsim__model_check_names(struct ctx *c, const cJSON *obj, const char *prefix,
                              const char *const *known)
{
    for (const cJSON *ch = obj->child; ch; ch = ch->next) {
        const char *name = ch->string ? ch->string : "";
        g_autofree char *path = g_strdup_printf("%s.%s", prefix, name);
        for (const cJSON *prev = obj->child; prev != ch; prev = prev->next)
            if (prev->string && !strcmp(prev->string, name))
                return ssdsim__model_error(c, path, "duplicate key");
        bool ok = false;
        for (const char *const *k = known; *k && !ok; k++)
            ok = !strcmp(*k, name);
        if (!ok)
            return unknown_in(c, path, name, known);
    }
    return 0;
}
