/* workload.c: loading a workload from a JSON object of fio options, overriding one option, and
 * freeing a workload.
 *
 * A workload file is one JSON object, {"rw": "randwrite", "bs": "4k", "iodepth": 16}: its keys
 * are fio option names and its values fio values, as strings or as numbers. Every key goes
 * through the same ssdsim__workload_apply (fioopt.c) that ssdsim_workload_set and the fio
 * job-file reader use, so the three accept exactly the same things. Problems are reported in a
 * caller-owned ssdsim_error ("wl.json: bs: expected a size like 4k or 1m, got 'four'"); nothing
 * is printed, and a failed load leaves nothing allocated.
 */
#include "workload/workload.h"
#include "config/jsonutil.h"

#include <cjson/cJSON.h>
#include <glib.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define STRING_LABEL "<string>"

/* Keys that set the same thing as another key: fio's aliases (kept in step with the option
 * table in fioopt.c), bs against bssplit, and rwmixread against rwmixwrite. fio lets the last
 * one win; in a JSON object, whose key order readers tend to ignore, two of them are reported as
 * a conflict instead. */
static const char *const same_setting[][3] = {
    {"rw", "readwrite", NULL},
    {"bs", "blocksize", "bssplit"},
    {"rwmixread", "rwmixwrite", NULL},
    {"runtime", "timeout", NULL},
};

static int setting_group(const char *key)
{
    for (size_t g = 0; g < SSDSIM__ARRAY_LEN(same_setting); g++)
        for (size_t k = 0; k < 3 && same_setting[g][k]; k++)
            if (strcmp(key, same_setting[g][k]) == 0)
                return (int)g;
    return -1;
}

/* Workload files word syntax errors "wl.json:3:8: JSON syntax error near '"4k"'", the quoted
 * text ending with its line. */
static const struct ssdsim__json_syntax_style syntax_style = {.what = "JSON syntax error",
                                                              .snippet_one_line = true};

/* The text of a JSON number as fio would read it: an integer when integral, else the shortest of
 * %.15g and %.17g that reads back as the same double (locale-independent). Integers beyond 2^53
 * may already have been rounded by the JSON parser, so they are refused: returns false. */
static bool number_text(double v, char *buf, size_t len)
{
    if (v == floor(v)) {
        if (fabs(v) > 9007199254740992.0) /* 2^53 */
            return false;
        snprintf(buf, len, "%lld", (long long)v);
        return true;
    }
    g_ascii_formatd(buf, (gint)len, "%.15g", v);
    if (g_ascii_strtod(buf, NULL) != v)
        g_ascii_formatd(buf, (gint)len, "%.17g", v);
    return true;
}

static int apply_item(struct ssdsim_workload *wl, const cJSON *item, ssdsim_error *err)
{
    const char *key = item->string;
    const char *value;
    char num[64];
    if (cJSON_IsString(item)) {
        value = item->valuestring;
    } else if (cJSON_IsNumber(item)) {
        if (!number_text(item->valuedouble, num, sizeof num))
            return ssdsim__error_set(err, SSDSIM_ECONFIG, wl->label, key,
                                     "integer %.17g is too large to be exact as a JSON number; "
                                     "write it as a string",
                                     item->valuedouble);
        value = num;
    } else {
        return ssdsim__error_set(err, SSDSIM_ECONFIG, wl->label, key,
                                 "expected a string or a number, got %s",
                                 ssdsim__json_type_name(item));
    }
    char why[384];
    int rc = ssdsim__workload_apply(wl, key, value, why, sizeof why);
    if (rc == 0)
        return 0;
    return ssdsim__error_set(err, SSDSIM_ECONFIG, wl->label, key, "%s", why);
}

static int load_text(ssdsim_workload **out, const char *text, size_t len, const char *label,
                     ssdsim_error *err)
{
    int rc;
    cJSON *root = NULL;
    struct ssdsim_workload *wl = calloc(1, sizeof *wl);
    if (!wl)
        return ssdsim__error_set(err, SSDSIM_ENOMEM, label, NULL, "out of memory");
    ssdsim__workload_defaults(wl);
    wl->label = strdup(label);
    if (!wl->label) {
        rc = ssdsim__error_set(err, SSDSIM_ENOMEM, label, NULL, "out of memory");
        goto fail;
    }

    rc = ssdsim__json_parse(&root, text, len, label, &syntax_style, err);
    if (rc)
        goto fail;
    if (!cJSON_IsObject(root)) {
        rc = ssdsim__error_set(err, SSDSIM_ECONFIG, label, NULL,
                               "expected a JSON object of fio options, got %s",
                               ssdsim__json_type_name(root));
        goto fail;
    }

    /* cJSON keeps duplicate keys, in order; a quadratic scan is fine for a dozen options. */
    for (const cJSON *item = root->child; item; item = item->next) {
        int group = setting_group(item->string);
        for (const cJSON *prev = root->child; prev != item; prev = prev->next) {
            if (strcmp(prev->string, item->string) == 0) {
                rc = ssdsim__error_set(err, SSDSIM_ECONFIG, label, item->string, "duplicate key");
                goto fail;
            }
            if (group >= 0 && setting_group(prev->string) == group) {
                rc = ssdsim__error_set(err, SSDSIM_ECONFIG, label, item->string,
                                       "sets the same thing as '%s' given before; keep one",
                                       prev->string);
                goto fail;
            }
        }
        rc = apply_item(wl, item, err);
        if (rc)
            goto fail;
    }

    cJSON_Delete(root);
    *out = wl;
    return 0;

fail:
    cJSON_Delete(root);
    ssdsim_workload_free(wl);
    return rc;
}

int ssdsim_workload_load_file(ssdsim_workload **out, const char *path, ssdsim_error *err)
{
    if (out)
        *out = NULL;
    if (!out || !path)
        return ssdsim__error_set(err, SSDSIM_EINVAL, path, NULL,
                                 "ssdsim_workload_load_file: out and path must not be NULL");
    char *text = NULL;
    size_t len = 0;
    int rc = ssdsim__read_text_file(&text, &len, path, err);
    if (rc)
        return rc;
    rc = load_text(out, text, len, path, err);
    free(text);
    return rc;
}

int ssdsim_workload_load_string(ssdsim_workload **out, const char *json, const char *label,
                                ssdsim_error *err)
{
    if (!label)
        label = STRING_LABEL;
    if (out)
        *out = NULL;
    if (!out || !json)
        return ssdsim__error_set(err, SSDSIM_EINVAL, label, NULL,
                                 "ssdsim_workload_load_string: out and json must not be NULL");
    return load_text(out, json, strlen(json), label, err);
}

int ssdsim_workload_set(ssdsim_workload *wl, const char *key, const char *value, ssdsim_error *err)
{
    if (!wl || !key || !value)
        return ssdsim__error_set(err, SSDSIM_EINVAL, wl ? wl->label : NULL, key,
                                 "ssdsim_workload_set: wl, key and value must not be NULL");
    /* Apply to a copy and commit only on success, so a bad value leaves wl unchanged. */
    struct ssdsim_workload copy = *wl;
    char why[384];
    int rc = ssdsim__workload_apply(&copy, key, value, why, sizeof why);
    if (rc)
        return ssdsim__error_set(err, SSDSIM_ECONFIG, wl->label, key, "%s", why);
    *wl = copy;
    return 0;
}

void ssdsim_workload_free(ssdsim_workload *wl)
{
    if (!wl)
        return;
    free(wl->label);
    free(wl);
}
