/* workload.c: loading a workload (a JSON object of fio options, or a fio job file handed to
 * jobfile.c), overriding one option, the public accessors, and freeing a workload.
 *
 * A JSON workload is one JSON object, {"rw": "randwrite", "bs": "4k", "iodepth": 16}: its keys
 * are fio option names and its values fio values, as strings or as numbers (true and false for
 * fio's flags and booleans). It describes one job. Every key goes through the same
 * ssdsim__jobspec_apply (fioopt.c) that ssdsim_workload_set and the fio job-file reader use, so
 * the three accept exactly the same things. Problems are reported in a caller-owned ssdsim_error
 * ("wl.json: bs: expected a size like 4k or 1m, got 'four'"); nothing is printed, and a failed
 * load leaves nothing allocated.
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

/* Keys that set the same thing as another key: fio's aliases (the option table in fioopt.c
 * knows them), the block-size options, and rwmixread against rwmixwrite. fio lets the last one
 * win (and bssplit over bsrange over bs); in a JSON object, whose key order readers tend to
 * ignore, two of them are reported as a conflict instead. */
static const char *const same_setting[][3] = {
    {"bs", "bsrange", "bssplit"},
    {"rwmixread", "rwmixwrite", NULL},
};

static bool same_setting_as(const char *a, const char *b)
{
    const char *ca = ssdsim__fio_option_lookup(a, NULL), *cb = ssdsim__fio_option_lookup(b, NULL);
    if (!ca || !cb)
        return false;
    if (!strcmp(ca, cb))
        return true;
    for (size_t g = 0; g < SSDSIM__ARRAY_LEN(same_setting); g++) {
        bool ha = false, hb = false;
        for (size_t k = 0; k < 3 && same_setting[g][k]; k++) {
            ha |= !strcmp(ca, same_setting[g][k]);
            hb |= !strcmp(cb, same_setting[g][k]);
        }
        if (ha && hb)
            return true;
    }
    return false;
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

static int apply_item(struct ssdsim_workload *wl, const cJSON *item, bool lenient,
                      ssdsim_error *err)
{
    const char *key = item->string;
    const char *value;
    char num[64];
    enum ssdsim__optkind kind = 0;
    bool known = ssdsim__fio_option_lookup(key, &kind) != NULL;
    if (cJSON_IsString(item)) {
        value = item->valuestring;
    } else if (cJSON_IsBool(item) && known &&
               (kind == SSDSIM__OPTKIND_FLAG || kind == SSDSIM__OPTKIND_BOOL)) {
        value = cJSON_IsTrue(item) ? "1" : "0";
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
    int rc = ssdsim__jobspec_apply(&wl->jobs[0], key, value, why, sizeof why);
    if (rc == SSDSIM_ENOTFOUND && lenient)
        return ssdsim__workload_note_skipped(wl, key)
                   ? ssdsim__error_set(err, SSDSIM_ENOMEM, wl->label, key, "out of memory")
                   : 0;
    if (rc >= 0 && ssdsim__jobspec_add_raw(&wl->jobs[0], key, value))
        return ssdsim__error_set(err, SSDSIM_ENOMEM, wl->label, key, "out of memory");
    if (rc == SSDSIM__IGNORED)
        return ssdsim__workload_note_ignored(wl, key)
                   ? ssdsim__error_set(err, SSDSIM_ENOMEM, wl->label, key, "out of memory")
                   : 0;
    if (rc == 0)
        return 0;
    return ssdsim__error_set(err, rc == SSDSIM_ENOMEM ? rc : SSDSIM_ECONFIG, wl->label, key, "%s",
                             why);
}

/* The note fio prints when a job's synchronous engine caps its iodepth, once per job of
 * [first, last). */
static void note_engine(const struct ssdsim_workload *wl, uint32_t first, uint32_t last)
{
    char where[256];
    snprintf(where, sizeof where, "%s: ", wl->label ? wl->label : "workload");
    for (uint32_t j = first; j < last; j++)
        ssdsim__jobspec_note_engine(&wl->jobs[j], where);
}

void ssdsim__workload_note_set(const struct ssdsim_workload *wl, const char *key, uint32_t first,
                               uint32_t last)
{
    if (!strcmp(key, "iodepth") || !strcmp(key, "ioengine"))
        note_engine(wl, first, last);
}

static int load_json(ssdsim_workload **out, const char *text, size_t len, const char *label,
                     bool lenient, ssdsim_error *err)
{
    int rc;
    cJSON *root = NULL;
    struct ssdsim_workload *wl = ssdsim__workload_new(label, true);
    if (!wl)
        return ssdsim__error_set(err, SSDSIM_ENOMEM, label, NULL, "out of memory");

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
        for (const cJSON *prev = root->child; prev != item; prev = prev->next) {
            if (strcmp(prev->string, item->string) == 0) {
                rc = ssdsim__error_set(err, SSDSIM_ECONFIG, label, item->string, "duplicate key");
                goto fail;
            }
            if (same_setting_as(prev->string, item->string)) {
                rc = ssdsim__error_set(err, SSDSIM_ECONFIG, label, item->string,
                                       "sets the same thing as '%s' given before; keep one",
                                       prev->string);
                goto fail;
            }
        }
        rc = apply_item(wl, item, lenient, err);
        if (rc)
            goto fail;
    }
    if (ssdsim__jobspec_name_logs(&wl->jobs[0])) {
        rc = ssdsim__error_set(err, SSDSIM_ENOMEM, label, NULL, "out of memory");
        goto fail;
    }
    note_engine(wl, 0, wl->n_jobs);

    cJSON_Delete(root);
    *out = wl;
    return 0;

fail:
    cJSON_Delete(root);
    ssdsim_workload_free(wl);
    return rc;
}

/* A fio job file or a JSON workload, by its first character or its name. */
static int load_text(ssdsim_workload **out, const char *text, size_t len, const char *label,
                     bool lenient, ssdsim_error *err)
{
    if (ssdsim__workload_is_jobfile(label, text, len))
        return ssdsim__workload_load_jobfile(out, label, text, len, lenient, err);
    return load_json(out, text, len, label, lenient, err);
}

bool ssdsim__workload_is_jobfile(const char *name, const char *text, size_t len)
{
    static const char *const suffixes[] = {".fio", ".ini", ".job"};
    size_t i = 0;
    /* Skip a UTF-8 byte order mark, blanks and whole-line ';' or '#' comments. */
    if (len >= 3 && !memcmp(text, "\xEF\xBB\xBF", 3))
        i = 3;
    while (i < len) {
        unsigned char c = (unsigned char)text[i];
        if (c == ';' || c == '#') {
            while (i < len && text[i] != '\n')
                i++;
        } else if (c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f' || c == '\v') {
            i++;
        } else {
            break;
        }
    }
    /* A name says it first: "wl.json" holding "[1, 2]" is a JSON mistake, not a job file. */
    size_t n = name ? strlen(name) : 0;
    if (n >= 5 && !strcmp(name + n - 5, ".json"))
        return false;
    for (size_t k = 0; k < SSDSIM__ARRAY_LEN(suffixes); k++)
        if (n >= 4 && !strcmp(name + n - 4, suffixes[k]))
            return true;
    if (i >= len || text[i] != '[')
        return false;
    /* "[1, 2]" is a JSON array (a mistake the JSON loader words better) as well as a job file
     * with one job named "1, 2"; a real job file is never valid JSON. */
    cJSON *json = cJSON_ParseWithLength(text, len);
    cJSON_Delete(json);
    return json == NULL;
}

int ssdsim_workload_load_file_ex(ssdsim_workload **out, const char *path, unsigned flags,
                                 ssdsim_error *err)
{
    if (out)
        *out = NULL;
    if (!out || !path)
        return ssdsim__error_set(err, SSDSIM_EINVAL, path, NULL,
                                 "ssdsim_workload_load_file: out and path must not be NULL");
    if (flags & ~SSDSIM_WORKLOAD_LENIENT)
        return ssdsim__error_set(err, SSDSIM_EINVAL, path, NULL,
                                 "ssdsim_workload_load_file_ex: unknown flags 0x%x",
                                 flags & ~SSDSIM_WORKLOAD_LENIENT);
    char *text = NULL;
    size_t len = 0;
    int rc = ssdsim__read_text_file_max(&text, &len, path, SSDSIM__WORKLOAD_MAX_BYTES, err);
    if (rc)
        return rc;
    rc = load_text(out, text, len, path, (flags & SSDSIM_WORKLOAD_LENIENT) != 0, err);
    free(text);
    return rc;
}

int ssdsim_workload_load_file(ssdsim_workload **out, const char *path, ssdsim_error *err)
{
    return ssdsim_workload_load_file_ex(out, path, 0, err);
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
    return load_text(out, json, strlen(json), label, false, err);
}

/* An option given for the whole workload applies to every job (like fio's command line options
 * before the first --name). */
int ssdsim_workload_set(ssdsim_workload *wl, const char *key, const char *value, ssdsim_error *err)
{
    SSDSIM__CHECK_HANDLE(wl, SSDSIM__MAGIC_WORKLOAD, "ssdsim_workload");
    if (!wl || !key || !value)
        return ssdsim__error_set(err, SSDSIM_EINVAL, wl ? wl->label : NULL, key,
                                 "ssdsim_workload_set: wl, key and value must not be NULL");
    /* Check on a copy of each job first, so a bad value leaves wl unchanged. */
    char why[384];
    for (uint32_t j = 0; j < wl->n_jobs; j++) {
        struct ssdsim__jobspec copy;
        if (ssdsim__jobspec_copy(&copy, &wl->jobs[j]))
            return ssdsim__error_set(err, SSDSIM_ENOMEM, wl->label, key, "out of memory");
        int rc = ssdsim__jobspec_apply(&copy, key, value, why, sizeof why);
        ssdsim__jobspec_clear(&copy);
        if (rc < 0)
            return ssdsim__error_set(err, rc == SSDSIM_ENOMEM ? rc : SSDSIM_ECONFIG, wl->label, key,
                                     "%s", why);
    }
    for (uint32_t j = 0; j < wl->n_jobs; j++) {
        int rc = ssdsim__jobspec_apply(&wl->jobs[j], key, value, why, sizeof why);
        if (rc == SSDSIM__IGNORED && j == 0 && ssdsim__workload_note_ignored(wl, key))
            rc = SSDSIM_ENOMEM;
        if (rc >= 0 && ssdsim__jobspec_name_logs(&wl->jobs[j]))
            rc = SSDSIM_ENOMEM;
        if (rc < 0)
            return ssdsim__error_set(err, SSDSIM_ENOMEM, wl->label, key, "out of memory");
    }
    ssdsim__workload_note_set(wl, key, 0, wl->n_jobs);
    return 0;
}

struct ssdsim_workload *ssdsim__workload_new(const char *label, bool one_job)
{
    struct ssdsim_workload *wl = calloc(1, sizeof *wl);
    if (!wl)
        return NULL;
    wl->magic = SSDSIM__MAGIC_WORKLOAD;
    wl->label = strdup(label ? label : STRING_LABEL);
    if (!wl->label)
        goto fail;
    if (one_job) {
        wl->jobs = calloc(1, sizeof *wl->jobs);
        if (!wl->jobs)
            goto fail;
        ssdsim__jobspec_defaults(&wl->jobs[0]);
        wl->n_jobs = 1;
        wl->cap_jobs = 1;
    }
    return wl;
fail:
    ssdsim_workload_free(wl);
    return NULL;
}

int ssdsim__workload_add_job(struct ssdsim_workload *wl, const struct ssdsim__jobspec *job)
{
    if (wl->n_jobs == UINT32_MAX)
        return SSDSIM_ENOMEM;
    if (wl->n_jobs >= wl->cap_jobs) {
        /* Doubling: a job file of many sections is read in linear time. */
        uint32_t cap =
            wl->cap_jobs ? (wl->cap_jobs > UINT32_MAX / 2 ? UINT32_MAX : 2 * wl->cap_jobs) : 8;
        struct ssdsim__jobspec *p = realloc(wl->jobs, sizeof *p * cap);
        if (!p)
            return SSDSIM_ENOMEM;
        wl->jobs = p;
        wl->cap_jobs = cap;
    }
    struct ssdsim__jobspec *p = wl->jobs;
    if (ssdsim__jobspec_copy(&p[wl->n_jobs], job))
        return SSDSIM_ENOMEM;
    wl->n_jobs++;
    return 0;
}

static int note(char ***list, uint32_t *n, const char *key)
{
    for (uint32_t i = 0; i < *n; i++)
        if (!strcmp((*list)[i], key))
            return 0;
    char **p = realloc(*list, sizeof *p * (*n + 1));
    if (!p)
        return SSDSIM_ENOMEM;
    *list = p;
    p[*n] = strdup(key);
    if (!p[*n])
        return SSDSIM_ENOMEM;
    (*n)++;
    return 0;
}

int ssdsim__workload_note_ignored(struct ssdsim_workload *wl, const char *key)
{
    return note(&wl->ignored, &wl->n_ignored, key);
}

int ssdsim__workload_note_skipped(struct ssdsim_workload *wl, const char *key)
{
    return note(&wl->skipped, &wl->n_skipped, key);
}

size_t ssdsim_workload_n_jobs(const ssdsim_workload *wl)
{
    return wl ? wl->n_jobs : 0;
}

/* A JSON workload's job has no name; results call it "job", and so does this. */
const char *ssdsim_workload_job_name(const ssdsim_workload *wl, size_t i)
{
    if (!wl || i >= wl->n_jobs)
        return NULL;
    return wl->jobs[i].name ? wl->jobs[i].name : "job";
}

size_t ssdsim_workload_n_ignored(const ssdsim_workload *wl)
{
    return wl ? wl->n_ignored : 0;
}

const char *ssdsim_workload_ignored(const ssdsim_workload *wl, size_t i)
{
    return wl && i < wl->n_ignored ? wl->ignored[i] : NULL;
}

size_t ssdsim_workload_n_skipped(const ssdsim_workload *wl)
{
    return wl ? wl->n_skipped : 0;
}

const char *ssdsim_workload_skipped(const ssdsim_workload *wl, size_t i)
{
    return wl && i < wl->n_skipped ? wl->skipped[i] : NULL;
}

void ssdsim_workload_free(ssdsim_workload *wl)
{
    if (!wl)
        return;
    SSDSIM__CHECK_HANDLE(wl, SSDSIM__MAGIC_WORKLOAD, "ssdsim_workload");
    wl->magic = SSDSIM__MAGIC_FREED;
    for (uint32_t j = 0; j < wl->n_jobs; j++)
        ssdsim__jobspec_clear(&wl->jobs[j]);
    free(wl->jobs);
    for (uint32_t i = 0; i < wl->n_ignored; i++)
        free(wl->ignored[i]);
    free(wl->ignored);
    for (uint32_t i = 0; i < wl->n_skipped; i++)
        free(wl->skipped[i]);
    free(wl->skipped);
    free(wl->label);
    free(wl);
}
