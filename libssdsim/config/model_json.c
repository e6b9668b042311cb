/* model_json.c: a model written back as canonical JSON.
 *
 * ssdsim_model_to_json prints every key that applies to the model, defaults filled in, in the
 * order of the key table, then each section's plugin parameters and the spec block: the text
 * loads back into an identical model. ssdsim_model_set also uses the path placement below to
 * put an override into the document.
 */
#include "config/model_int.h"

#include <math.h>
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
        /* a named value of the key's choices ("unlimited") prints as its name */
        for (const struct choice *ch = k->type == KEY_U32 ? k->choices : NULL; ch && ch->name;
             ch++)
            if ((uint32_t)ch->value == u && !(ch->name[0] >= '0' && ch->name[0] <= '9'))
                v = cJSON_CreateString(ch->name);
        if (!v)
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

/* Is key k at its default in m (KF_QUIET keys: their value prints as their default's JSON)? */
static bool at_default(const struct key_spec *k, const cJSON *v)
{
    cJSON *d = k->def ? cJSON_Parse(k->def) : NULL;
    bool same = d && v && cJSON_Compare(v, d, true);
    cJSON_Delete(d);
    return same;
}

cJSON *ssdsim__model_json(const struct ssdsim_model *m)
{
    return ssdsim__model_json_tree(m, false);
}

cJSON *ssdsim__model_json_tree(const struct ssdsim_model *m, bool full)
{
    if (m->kind == SSDSIM__KIND_SYSTEM)
        return ssdsim__model_system_json(m);
    cJSON *root = cJSON_CreateObject();
    if (!root)
        return NULL;
    unsigned kind = m->kind == SSDSIM__KIND_HDD ? K_HDD : K_SSD;
    for (size_t i = 0; i < ssdsim__model_n_keys; i++) {
        if (!ssdsim__model_key_applies(m, &ssdsim__model_keys[i], kind))
            continue;
        bool oom = false;
        cJSON *v = ssdsim__model_value_json(m, &ssdsim__model_keys[i], &oom);
        if (!full && !oom && (ssdsim__model_keys[i].flags & KF_QUIET) &&
            at_default(&ssdsim__model_keys[i], v)) {
            cJSON_Delete(v);
            continue;
        }
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

/* Give every finite number under `node` the text ssdsim__model_format_number writes, as a raw
 * value, so that it prints exactly. cJSON prints %.15g whenever that reads back within a
 * relative DBL_EPSILON, so 0.1 + 0.2 printed as 0.3 and the getters (which read this text) and
 * a copy through the JSON lost the last bit. Integers and values that came from short decimal
 * text print as cJSON printed them. False when out of memory. */
static bool exact_numbers(cJSON *node)
{
    for (cJSON *it = node->child; it; it = it->next) {
        if (cJSON_IsNumber(it) && isfinite(it->valuedouble)) {
            char num[40];
            ssdsim__model_format_number(it->valuedouble, num, sizeof num);
            cJSON *raw = cJSON_CreateRaw(num);
            if (!raw)
                return false;
            it->type = cJSON_Raw | (it->type & cJSON_StringIsConst);
            it->valuestring = raw->valuestring; /* allocated by cJSON's allocator */
            raw->valuestring = NULL;
            cJSON_Delete(raw);
        } else if (it->child && !exact_numbers(it)) {
            return false;
        }
    }
    return true;
}

char *ssdsim__model_json_full(const struct ssdsim_model *model, bool full)
{
    if (!model)
        return NULL;
    cJSON *root = ssdsim__model_json_tree(model, full);
    if (!root)
        return NULL;
    char *text = exact_numbers(root) ? cJSON_Print(root) : NULL;
    cJSON_Delete(root);
    return text;
}

SSDSIM_API char *ssdsim_model_to_json(const ssdsim_model *model)
{
    return ssdsim__model_json_full(model, false);
}
