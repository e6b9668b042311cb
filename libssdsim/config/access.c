/* access.c: a model's keys by type, without JSON text in the caller's hands: ssdsim_model_copy,
 * the typed getters (read from the canonical JSON, every key filled in) and the typed setters
 * (the value turned into JSON here and applied by ssdsim_model_set, validated as a file is). */
#include "common.h"
#include "config/model.h"

#include <cjson/cJSON.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ACCESS_LABEL "model"

int ssdsim_model_copy(ssdsim_model **out, const ssdsim_model *model)
{
    if (out)
        *out = NULL;
    if (!out || !model)
        return SSDSIM_EINVAL;
    SSDSIM__CHECK_HANDLE(model, SSDSIM__MAGIC_MODEL, "ssdsim_model");
    ssdsim_model *c = ssdsim__model_copy(model);
    if (!c)
        return SSDSIM_ENOMEM;
    *out = c;
    return 0;
}

/* The value at `key` (dotted) of the model's canonical JSON, in *root (the caller deletes it),
 * or a failure naming the key. */
static int find(const ssdsim_model *m, const char *key, cJSON **root, const cJSON **val,
                ssdsim_error *err)
{
    *root = NULL;
    if (!m || !key)
        return ssdsim__error_set(err, SSDSIM_EINVAL, ACCESS_LABEL, key, "%s",
                                 !m ? "no model" : "no key");
    char *text = ssdsim__model_json_full(m, true);
    if (!text)
        return ssdsim__error_set(err, SSDSIM_ENOMEM, ACCESS_LABEL, key, "out of memory");
    *root = cJSON_Parse(text);
    free(text);
    if (!*root)
        return ssdsim__error_set(err, SSDSIM_ENOMEM, ACCESS_LABEL, key, "out of memory");
    const cJSON *cur = *root;
    const char *p = key;
    for (;;) {
        const char *dot = strchr(p, '.');
        size_t n = dot ? (size_t)(dot - p) : strlen(p);
        const cJSON *next = NULL;
        if (cJSON_IsObject(cur))
            for (const cJSON *it = cur->child; it; it = it->next)
                if (strlen(it->string) == n && memcmp(it->string, p, n) == 0)
                    next = it;
        if (!next)
            return ssdsim__error_set(err, SSDSIM_ENOTFOUND, ACCESS_LABEL, key,
                                     "the model has no such key");
        cur = next;
        if (!dot)
            break;
        p = dot + 1;
    }
    if (cJSON_IsObject(cur))
        return ssdsim__error_set(err, SSDSIM_EINVAL, ACCESS_LABEL, key,
                                 "is a section, not a value");
    *val = cur;
    return 0;
}

static const char *type_of(const cJSON *v)
{
    if (cJSON_IsNumber(v))
        return "a number";
    if (cJSON_IsString(v))
        return "a string";
    if (cJSON_IsBool(v))
        return "a boolean";
    if (cJSON_IsArray(v))
        return "an array";
    if (cJSON_IsNull(v))
        return "null";
    return "an object";
}

/* find(), then the checks every typed getter makes: an output to write to (`no_out`: NULL, or
 * the message when there is none) and a value of the wanted JSON type (`is`, named `want`). */
static int find_typed(const ssdsim_model *m, const char *key, const char *no_out,
                      cJSON_bool (*is)(const cJSON *), const char *want, cJSON **root,
                      const cJSON **val, ssdsim_error *err)
{
    int rc = find(m, key, root, val, err);
    if (rc == 0 && no_out)
        rc = ssdsim__error_set(err, SSDSIM_EINVAL, ACCESS_LABEL, key, "%s", no_out);
    if (rc == 0 && !is(*val))
        rc = ssdsim__error_set(err, SSDSIM_EINVAL, ACCESS_LABEL, key,
                               "expected %s, the value is %s", want, type_of(*val));
    return rc;
}

int ssdsim_model_get_int(const ssdsim_model *model, const char *key, int64_t *out,
                         ssdsim_error *err)
{
    cJSON *root;
    const cJSON *v;
    int rc = find_typed(model, key, out ? NULL : "no output", cJSON_IsNumber, "an integer", &root,
                        &v, err);
    if (rc == 0) {
        double d = v->valuedouble;
        if (d != floor(d) || !(fabs(d) < 9.2e18))
            rc = ssdsim__error_set(err, SSDSIM_EINVAL, ACCESS_LABEL, key,
                                   "expected an integer, the value is %.17g", d);
        else
            *out = (int64_t)d;
    }
    cJSON_Delete(root);
    return rc;
}

int ssdsim_model_get_double(const ssdsim_model *model, const char *key, double *out,
                            ssdsim_error *err)
{
    cJSON *root;
    const cJSON *v;
    int rc = find_typed(model, key, out ? NULL : "no output", cJSON_IsNumber, "a number", &root, &v,
                        err);
    if (rc == 0)
        *out = v->valuedouble;
    cJSON_Delete(root);
    return rc;
}

int ssdsim_model_get_bool(const ssdsim_model *model, const char *key, bool *out,
                          ssdsim_error *err)
{
    cJSON *root;
    const cJSON *v;
    int rc =
        find_typed(model, key, out ? NULL : "no output", cJSON_IsBool, "a boolean", &root, &v, err);
    if (rc == 0)
        *out = cJSON_IsTrue(v);
    cJSON_Delete(root);
    return rc;
}

int ssdsim_model_get_string(const ssdsim_model *model, const char *key, char *buf, size_t len,
                            ssdsim_error *err)
{
    cJSON *root;
    const cJSON *v;
    int rc = find_typed(model, key, buf && len ? NULL : "no output buffer", cJSON_IsString,
                        "a string", &root, &v, err);
    if (rc == 0) {
        if (strlen(v->valuestring) >= len)
            rc = ssdsim__error_set(err, SSDSIM_ERANGE, ACCESS_LABEL, key,
                                   "the value has %zu bytes, the buffer %zu",
                                   strlen(v->valuestring) + 1, len);
        else
            memcpy(buf, v->valuestring, strlen(v->valuestring) + 1);
    }
    cJSON_Delete(root);
    return rc;
}

int ssdsim_model_set_int(ssdsim_model *model, const char *key, int64_t value, ssdsim_error *err)
{
    char text[32];
    snprintf(text, sizeof text, "%" PRId64, value);
    return ssdsim_model_set(model, key, text, err);
}

int ssdsim_model_set_double(ssdsim_model *model, const char *key, double value,
                            ssdsim_error *err)
{
    if (!isfinite(value))
        return ssdsim__error_set(err, SSDSIM_EINVAL, ACCESS_LABEL, key,
                                 "expected a finite number, got %g", value);
    char text[40];
    snprintf(text, sizeof text, "%.17g", value);
    return ssdsim_model_set(model, key, text, err);
}

int ssdsim_model_set_bool(ssdsim_model *model, const char *key, bool value, ssdsim_error *err)
{
    return ssdsim_model_set(model, key, value ? "true" : "false", err);
}

int ssdsim_model_set_string(ssdsim_model *model, const char *key, const char *value,
                            ssdsim_error *err)
{
    if (!value)
        return ssdsim__error_set(err, SSDSIM_EINVAL, ACCESS_LABEL, key, "no value");
    cJSON *s = cJSON_CreateString(value);
    char *text = s ? cJSON_PrintUnformatted(s) : NULL;
    cJSON_Delete(s);
    if (!text)
        return ssdsim__error_set(err, SSDSIM_ENOMEM, ACCESS_LABEL, key, "out of memory");
    int rc = ssdsim_model_set(model, key, text, err);
    free(text);
    return rc;
}
