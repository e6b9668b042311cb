/* model_json.c: a model written back as canonical JSON.
 *
 * ssdsim_model_to_json prints every key that applies to the model, defaults filled in, in the
 * order of the key table, then each section's plugin parameters and the spec block: the text
 * loads back into an identical model. ssdsim_model_set also uses the path placement below to
 * put an override into the document.
 */
#include "config/model_int.h"

#include <string.h>

/* The effective value of key `k` as JSON; NULL when absent (an optional string) or out of
 * memory (*oom set). */
cJSON *ssdsim__model_value_json(const struct ssdsim_model *m, const struct key_spec *k, bool *oom)
{
    const char *field = k->offset == NO_FIELD ? NULL : (const char *)m + k->offset;
    cJSON *v = NULL;
    switch (k->type) {
    case KEY_STRING: {
        const cJSON *src = m->json ? ssdsim__model_lookup(m->json, k->path) : NULL;
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
    case KEY_RATE:
    case KEY_SIZE64: {
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
bool ssdsim__model_put_path(cJSON *root, const char *path, cJSON *v)
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

/* Whether key k is part of model m (its kind, and its condition). */
bool ssdsim__model_key_applies(const struct ssdsim_model *m, const struct key_spec *k,
                               unsigned kind)
{
    unsigned kinds = k->kinds ? k->kinds : K_SSD;
    return (kinds & kind) && (!k->when || k->when(m));
}

/* Whether key k is a KF_QUIET key that is off (false or 0) in model m. */
static bool quiet_off(const struct ssdsim_model *m, const struct key_spec *k)
{
    if (!(k->flags & KF_QUIET))
        return false;
    const char *field = (const char *)m + k->offset;
    if (k->type == KEY_BOOL) {
        int b;
        memcpy(&b, field, sizeof b);
        return b == 0;
    }
    assert(k->type == KEY_TIME);
    uint64_t ns;
    memcpy(&ns, field, sizeof ns);
    return ns == 0;
}

cJSON *ssdsim__model_json(const struct ssdsim_model *m)
{
    if (m->kind == SSDSIM__KIND_SYSTEM)
        return ssdsim__model_system_json(m);
    cJSON *root = cJSON_CreateObject();
    if (!root)
        return NULL;
    unsigned kind = m->kind == SSDSIM__KIND_HDD ? K_HDD : K_SSD;
    for (size_t i = 0; i < ssdsim__model_n_keys; i++) {
        if (!ssdsim__model_key_applies(m, &ssdsim__model_keys[i], kind) ||
            quiet_off(m, &ssdsim__model_keys[i]))
            continue;
        bool oom = false;
        cJSON *v = ssdsim__model_value_json(m, &ssdsim__model_keys[i], &oom);
        if (oom || (v && !ssdsim__model_put_path(root, ssdsim__model_keys[i].path, v))) {
            cJSON_Delete(root);
            return NULL;
        }
    }
    /* Then each section's plugin parameters, in the order the plugin declares them. */
    for (size_t s = 0; kind == K_SSD && s < ssdsim__model_n_plugin_sections; s++) {
        const struct plugin_section *ps = &ssdsim__model_plugin_sections[s];
        const struct ssdsim__plugin_header *p =
            ssdsim__plugin_find(ps->kind, (const char *)m + ps->name_offset);
        const double *vals = (const double *)((const char *)m + ps->params_offset);
        for (uint32_t i = 0; p && p->params && p->params[i].key; i++) {
            g_autofree char *path = g_strdup_printf("%s.%s", ps->section, p->params[i].key);
            cJSON *v = cJSON_CreateNumber(vals[i]);
            if (!v || !ssdsim__model_put_path(root, path, v)) {
                cJSON_Delete(root);
                return NULL;
            }
        }
    }
    if (!ssdsim__model_spec_json(m, root)) {
        cJSON_Delete(root);
        return NULL;
    }
    return root;
}

SSDSIM_API char *ssdsim_model_to_json(const ssdsim_model *model)
{
    if (!model)
        return NULL;
    cJSON *root = ssdsim__model_json(model);
    if (!root)
        return NULL;
    char *text = cJSON_Print(root);
    cJSON_Delete(root);
    return text;
}
