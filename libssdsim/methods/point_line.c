/* point_line.c: the lines of a sweep manifest (ssdsim/point.h, ssdsim_point_line_*): one JSON
 * object a line holding everything a point needs to run alone (model and workload paths, fixed
 * and varied overrides, the seed derived from the base seed and the point's parameters, the
 * preconditioning, the time series, plugins, the output path). `ssdsim sweep` writes them and
 * runs each, parsed back, in a worker, through the same code as `ssdsim run --manifest`; so a
 * point run anywhere gives byte-identical results. The manifest hash of a line (everything but
 * where its result goes) is what a complete result must carry for a resumed sweep to skip it.
 */
#include "methods/point.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cJSON.h>
#include <glib.h>

#include "abi.h"
#include "config/jsonutil.h"

/* Integers in manifests and results stay below 2^53 (exact in every JSON reader). */
#define INT_LIMIT (UINT64_C(1) << 53)
/* Most fixed or varied overrides a line may hold. */
#define MAX_OVERRIDES 128
#define NOT_A_MANIFEST "(is this a manifest from ssdsim sweep --emit?)"
/* SSDSIM__TEXT_FILE_MAX (64 MiB) in words, for the message refusing a longer manifest. */
#define TOO_LONG "64 MiB (a manifest's lines are a few hundred bytes each)"
_Static_assert(SSDSIM__TEXT_FILE_MAX == 64 << 20, "TOO_LONG names SSDSIM__TEXT_FILE_MAX");

struct ssdsim_point_line {
    ssdsim_point_line_spec spec; /* pointing into the members below */
    char *name, *model, *workload, *precondition, *out;
    const char *method; /* "timed" or NULL (functional) */
    GPtrArray *sets, *keys, *values, *kvs, *plugins; /* char * */
    ssdsim_precondition_mode mode;
    uint32_t fills;
    char *label;
    char hash[17];
};

int ssdsim_point_parse_precondition(const char *text, ssdsim_precondition_mode *mode,
                                    uint32_t *fills)
{
    ssdsim_precondition_mode m;
    uint64_t n = 0;
    if (!text)
        return SSDSIM_EINVAL;
    if (!strcmp(text, "fast")) {
        m = SSDSIM_PRECONDITION_FAST;
    } else if (!strcmp(text, "seq")) {
        m = SSDSIM_PRECONDITION_SEQ;
        n = 1;
    } else if (!strncmp(text, "seq:", 4) && text[4] >= '0' && text[4] <= '9') {
        char *end;
        errno = 0;
        unsigned long long v = strtoull(text + 4, &end, 10);
        if (errno || *end || v < 1 || v > 1000)
            return SSDSIM_EINVAL;
        m = SSDSIM_PRECONDITION_SEQ;
        n = v;
    } else {
        return SSDSIM_EINVAL;
    }
    if (mode)
        *mode = m;
    if (fills)
        *fills = (uint32_t)n;
    return 0;
}

/* Integers are added as raw text: cJSON holds numbers as doubles and would print 1e15 as
 * "1e+15". */
static void add_u64_or_null(cJSON *o, const char *key, uint64_t v)
{
    if (v)
        ssdsim__json_add_u64(o, key, v);
    else
        cJSON_AddNullToObject(o, key);
}

static void add_str_or_null(cJSON *o, const char *key, const char *v)
{
    if (v)
        cJSON_AddStringToObject(o, key, v);
    else
        cJSON_AddNullToObject(o, key);
}

/* A caller's spec read by its version into the current layout. */
static const size_t spec_sizes[] = {0, SSDSIM__END(ssdsim_point_line_spec, out),
                                     sizeof(ssdsim_point_line_spec)};

/* A precondition_method as a line holds it: NULL for the default (functional), "timed"; false
 * for anything else. */
static bool method_canon(const char *m, const char **out)
{
    if (m && strcmp(m, "functional") && strcmp(m, "timed"))
        return false;
    *out = m && !strcmp(m, "timed") ? "timed" : NULL;
    return true;
}

int ssdsim_point_line_format(char **out, const ssdsim_point_line_spec *spec)
{
    ssdsim_point_line_spec s;
    if (out)
        *out = NULL;
    if (!out || !spec ||
        ssdsim__opts_read(&s, sizeof s, spec, spec_sizes, SSDSIM_POINT_LINE_SPEC_VERSION,
                          "ssdsim_point_line_spec", NULL, 0))
        return SSDSIM_EINVAL;
    if (s.index >= s.n_points || !s.name || !s.workload || !s.out || (s.n_set && !s.set) ||
        (s.n_vary && (!s.vary_keys || !s.vary_values)) || (s.n_plugins && !s.plugins) ||
        (s.precondition && ssdsim_point_parse_precondition(s.precondition, NULL, NULL)) ||
        !method_canon(s.precondition_method, &s.precondition_method))
        return SSDSIM_EINVAL;
    for (size_t i = 0; i < s.n_set; i++)
        if (!s.set[i])
            return SSDSIM_EINVAL;
    for (size_t i = 0; i < s.n_vary; i++)
        if (!s.vary_keys[i] || !*s.vary_keys[i] || !s.vary_values[i])
            return SSDSIM_EINVAL;
    for (size_t i = 0; i < s.n_plugins; i++)
        if (!s.plugins[i])
            return SSDSIM_EINVAL;
    cJSON *o = cJSON_CreateObject();
    ssdsim__json_add_u64(o, "index", s.index);
    ssdsim__json_add_u64(o, "n_points", s.n_points);
    cJSON_AddStringToObject(o, "name", s.name);
    add_str_or_null(o, "model", s.model);
    cJSON_AddStringToObject(o, "workload", s.workload);
    cJSON *sets = cJSON_AddArrayToObject(o, "set");
    for (size_t i = 0; i < s.n_set; i++)
        cJSON_AddItemToArray(sets, cJSON_CreateString(s.set[i]));
    cJSON *vary = cJSON_AddObjectToObject(o, "vary");
    for (size_t i = 0; i < s.n_vary; i++)
        cJSON_AddStringToObject(vary, s.vary_keys[i], s.vary_values[i]);
    ssdsim__json_add_u64(o, "seed", s.seed);
    ssdsim__json_add_u64(o, "base_seed", s.base_seed);
    add_str_or_null(o, "precondition", s.precondition);
    if (s.precondition_method) /* in the manifest hash: points of another method rerun */
        cJSON_AddStringToObject(o, "precondition_method", s.precondition_method);
    add_u64_or_null(o, "interval_ns", s.interval_ns);
    add_u64_or_null(o, "interval_ios", s.interval_ios);
    if (s.n_plugins) {
        cJSON *pl = cJSON_AddArrayToObject(o, "plugins");
        for (size_t i = 0; i < s.n_plugins; i++)
            cJSON_AddItemToArray(pl, cJSON_CreateString(s.plugins[i]));
    }
    cJSON_AddStringToObject(o, "out", s.out);
    char *text = cJSON_PrintUnformatted(o);
    cJSON_Delete(o);
    if (!text)
        return SSDSIM_ENOMEM;
    *out = strdup(text);
    cJSON_free(text);
    return *out ? 0 : SSDSIM_ENOMEM;
}

/* Read an integer field in [0, 2^53]; `null_ok` accepts null as 0. */
static bool get_u64(const cJSON *o, const char *key, bool null_ok, uint64_t *out)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
    *out = 0;
    if (null_ok && cJSON_IsNull(v))
        return true;
    if (!cJSON_IsNumber(v) || !(v->valuedouble >= 0) || v->valuedouble > (double)INT_LIMIT ||
        v->valuedouble != floor(v->valuedouble))
        return false;
    *out = (uint64_t)v->valuedouble;
    return true;
}

static const char *get_str(const cJSON *o, const char *key)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
    return cJSON_IsString(v) && *v->valuestring ? v->valuestring : NULL;
}

void ssdsim_point_line_free(ssdsim_point_line *l)
{
    if (!l)
        return;
    g_free(l->name);
    g_free(l->model);
    g_free(l->workload);
    g_free(l->precondition);
    g_free(l->out);
    g_free(l->label);
    GPtrArray *arrays[] = {l->sets, l->keys, l->values, l->kvs, l->plugins};
    for (size_t i = 0; i < SSDSIM__ARRAY_LEN(arrays); i++)
        if (arrays[i])
            g_ptr_array_unref(arrays[i]);
    g_free(l);
}

/* The strings of `a` as an array of const pointers (NULL when empty). */
static const char *const *strv(const GPtrArray *a)
{
    return a->len ? (const char *const *)a->pdata : NULL;
}

/* The fields of `o` into `l`: NULL, or the name of the first bad one. */
static const char *parse_fields(ssdsim_point_line *l, const cJSON *o)
{
    ssdsim_point_line_spec *s = &l->spec;
    if (!get_u64(o, "index", false, &s->index))
        return "index";
    if (!get_u64(o, "n_points", false, &s->n_points) || s->index >= s->n_points)
        return "n_points";
    static const char *const required[] = {"name", "workload", "out"};
    for (size_t i = 0; i < SSDSIM__ARRAY_LEN(required); i++)
        if (!get_str(o, required[i]))
            return required[i];
    if (!get_u64(o, "seed", false, &s->seed))
        return "seed";
    if (!get_u64(o, "base_seed", false, &s->base_seed))
        return "base_seed";
    if (!get_u64(o, "interval_ns", true, &s->interval_ns))
        return "interval_ns";
    if (!get_u64(o, "interval_ios", true, &s->interval_ios) ||
        (s->interval_ios && s->interval_ns))
        return "interval_ios";
    l->name = g_strdup(get_str(o, "name"));
    l->workload = g_strdup(get_str(o, "workload"));
    l->out = g_strdup(get_str(o, "out"));
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, "model");
    if (cJSON_IsString(v) && *v->valuestring)
        l->model = g_strdup(v->valuestring);
    else if (!cJSON_IsNull(v))
        return "model";
    v = cJSON_GetObjectItemCaseSensitive(o, "precondition");
    if (cJSON_IsString(v)) {
        if (ssdsim_point_parse_precondition(v->valuestring, &l->mode, &l->fills))
            return "precondition";
        l->precondition = g_strdup(v->valuestring);
    } else if (!cJSON_IsNull(v)) {
        return "precondition";
    }
    v = cJSON_GetObjectItemCaseSensitive(o, "precondition_method");
    if (v && (!cJSON_IsString(v) || !method_canon(v->valuestring, &l->method)))
        return "precondition_method";
    const cJSON *e;
    v = cJSON_GetObjectItemCaseSensitive(o, "set");
    if (!cJSON_IsArray(v) || cJSON_GetArraySize(v) > MAX_OVERRIDES)
        return "set";
    cJSON_ArrayForEach(e, v)
    {
        if (!cJSON_IsString(e) || !strchr(e->valuestring, '='))
            return "set";
        g_ptr_array_add(l->sets, g_strdup(e->valuestring));
    }
    v = cJSON_GetObjectItemCaseSensitive(o, "vary");
    if (!cJSON_IsObject(v) || cJSON_GetArraySize(v) > MAX_OVERRIDES)
        return "vary";
    GString *label = g_string_new(NULL);
    cJSON_ArrayForEach(e, v)
    {
        if (!cJSON_IsString(e) || !*e->string) {
            g_string_free(label, TRUE);
            return "vary";
        }
        g_ptr_array_add(l->keys, g_strdup(e->string));
        g_ptr_array_add(l->values, g_strdup(e->valuestring));
        g_ptr_array_add(l->kvs, g_strdup_printf("%s=%s", e->string, e->valuestring));
        g_string_append_printf(label, "%s%s=%s", label->len ? "," : "", e->string, e->valuestring);
    }
    l->label = g_string_free(label, FALSE);
    v = cJSON_GetObjectItemCaseSensitive(o, "plugins");
    if (v) {
        if (!cJSON_IsArray(v))
            return "plugins";
        cJSON_ArrayForEach(e, v)
        {
            if (!cJSON_IsString(e) || !*e->valuestring)
                return "plugins";
            g_ptr_array_add(l->plugins, g_strdup(e->valuestring));
        }
    }
    return NULL;
}

/* The keys a line may hold, as ssdsim_point_line_format writes them. */
static const char *const line_keys[] = {"index",
                                        "n_points",
                                        "name",
                                        "model",
                                        "workload",
                                        "set",
                                        "vary",
                                        "seed",
                                        "base_seed",
                                        "precondition",
                                        "precondition_method",
                                        "interval_ns",
                                        "interval_ios",
                                        "plugins",
                                        "out"};

/* Whether object `o` has a member named `key` before `until`. */
static bool key_before(const cJSON *o, const char *key, const cJSON *until)
{
    for (const cJSON *e = o->child; e && e != until; e = e->next)
        if (!strcmp(e->string, key))
            return true;
    return false;
}

/* NULL when every key of line `o` is known and given once, and every varied key once; else the
 * first key that is not, with `why` saying what is wrong with it. Unknown keys are refused first,
 * so the quadratic search for repeats looks at most at as many members as there are known keys (and
 * MAX_OVERRIDES in "vary"). */
static const char *check_keys(const cJSON *o, char *why, size_t len)
{
    const cJSON *e;
    cJSON_ArrayForEach(e, o)
    {
        size_t k = 0, best = 0, dist = SIZE_MAX;
        while (k < SSDSIM__ARRAY_LEN(line_keys) && strcmp(e->string, line_keys[k])) {
            size_t d = ssdsim__edit_distance(e->string, line_keys[k]);
            if (d < dist) {
                dist = d;
                best = k;
            }
            k++;
        }
        if (k == SSDSIM__ARRAY_LEN(line_keys)) {
            char hint[64] = "";
            if (dist <= 2)
                snprintf(hint, sizeof hint, "; did you mean '%s'?", line_keys[best]);
            snprintf(why, len, "unknown key '%.40s'%s " NOT_A_MANIFEST, e->string, hint);
            return e->string;
        }
        if (key_before(o, e->string, e)) {
            snprintf(why, len, "key '%s' given twice (each key once)", e->string);
            return e->string;
        }
    }
    const cJSON *vary = cJSON_GetObjectItemCaseSensitive(o, "vary");
    if (cJSON_IsObject(vary) && cJSON_GetArraySize(vary) <= MAX_OVERRIDES)
        cJSON_ArrayForEach(e, vary)
        {
            if (key_before(vary, e->string, e)) {
                snprintf(why, len, "varied key '%.40s' given twice in 'vary' (each key once)",
                         e->string);
                return e->string;
            }
        }
    return NULL;
}

int ssdsim_point_line_parse(ssdsim_point_line **out, const char *text, ssdsim_error *err)
{
    if (out)
        *out = NULL;
    if (!out || !text)
        return ssdsim__error_set(err, SSDSIM_EINVAL, NULL, NULL,
                                 "ssdsim_point_line_parse: NULL argument");
    cJSON *o = cJSON_Parse(text);
    if (!cJSON_IsObject(o)) {
        cJSON_Delete(o);
        return ssdsim__error_set(err, SSDSIM_ECONFIG, NULL, NULL,
                                 "not a JSON object " NOT_A_MANIFEST);
    }
    /* cJSON keeps every member of a repeated key and finds the first: a line with "seed" twice
     * would run with a seed its text also contradicts, and a misspelt or foreign key would be
     * dropped without a word. */
    char why[160];
    const char *bad_key = check_keys(o, why, sizeof why);
    if (bad_key) {
        ssdsim__error_set(err, SSDSIM_ECONFIG, NULL, NULL, "%s", why);
        if (err)
            snprintf(err->path, sizeof err->path, "%s", bad_key);
        cJSON_Delete(o);
        return SSDSIM_ECONFIG;
    }
    ssdsim_point_line *l = g_new0(ssdsim_point_line, 1);
    GPtrArray **arrays[] = {&l->sets, &l->keys, &l->values, &l->kvs, &l->plugins};
    for (size_t i = 0; i < SSDSIM__ARRAY_LEN(arrays); i++)
        *arrays[i] = g_ptr_array_new_with_free_func(g_free);
    const char *bad = parse_fields(l, o);
    if (bad) {
        cJSON_Delete(o);
        ssdsim_point_line_free(l);
        ssdsim__error_set(err, SSDSIM_ECONFIG, NULL, NULL,
                          "'%s' is missing or invalid " NOT_A_MANIFEST, bad);
        if (err)
            snprintf(err->path, sizeof err->path, "%s", bad);
        return SSDSIM_ECONFIG;
    }
    /* The hash of everything the line says but where its result goes (a directory may move):
     * a result file made from another line (another model, workload, override, seed or
     * option) does not count as this point's result when a sweep resumes. */
    cJSON_DeleteItemFromObjectCaseSensitive(o, "out");
    char *canon = cJSON_PrintUnformatted(o);
    cJSON_Delete(o);
    if (!canon) {
        ssdsim_point_line_free(l);
        return ssdsim__error_set(err, SSDSIM_ENOMEM, NULL, NULL, "out of memory");
    }
    snprintf(l->hash, sizeof l->hash, "%016" PRIx64, ssdsim__fnv1a64(SSDSIM__FNV_OFFSET, canon));
    cJSON_free(canon);
    ssdsim_point_line_spec *s = &l->spec;
    s->version = SSDSIM_POINT_LINE_SPEC_VERSION;
    s->name = l->name;
    s->model = l->model;
    s->workload = l->workload;
    s->set = strv(l->sets);
    s->n_set = l->sets->len;
    s->vary_keys = strv(l->keys);
    s->vary_values = strv(l->values);
    s->n_vary = l->keys->len;
    s->precondition = l->precondition;
    s->precondition_method = l->method;
    s->plugins = strv(l->plugins);
    s->n_plugins = l->plugins->len;
    s->out = l->out;
    *out = l;
    return 0;
}

int ssdsim_point_line_read(ssdsim_point_line **out, const char *path, uint64_t index,
                           ssdsim_error *err)
{
    if (out)
        *out = NULL;
    if (!out || !path)
        return ssdsim__error_set(err, SSDSIM_EINVAL, NULL, NULL,
                                 "ssdsim_point_line_read: NULL argument");
    /* O_NONBLOCK so that a FIFO given as the manifest is refused below instead of blocking
     * until a writer comes; a regular file of at most SSDSIM__TEXT_FILE_MAX bytes (the cap on
     * models and workloads) bounds every line too, so /dev/zero or a file without a newline
     * cannot grow getline's buffer without end. */
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0)
        return ssdsim__error_set(err, SSDSIM_EIO, NULL, NULL, "%s: cannot read: %s", path,
                                 strerror(errno));
    struct stat st;
    const char *why = NULL;
    if (fstat(fd, &st))
        why = strerror(errno);
    else if (!S_ISREG(st.st_mode))
        why = "not a regular file (a manifest is the file ssdsim sweep --emit wrote)";
    else if (st.st_size > SSDSIM__TEXT_FILE_MAX)
        why = "longer than " TOO_LONG;
    if (why) {
        close(fd);
        return ssdsim__error_set(err, SSDSIM_EIO, NULL, NULL, "%s: cannot read: %s", path, why);
    }
    FILE *f = fdopen(fd, "r");
    if (!f) {
        int e = errno;
        close(fd);
        return ssdsim__error_set(err, SSDSIM_EIO, NULL, NULL, "%s: cannot read: %s", path,
                                 strerror(e));
    }
    char *line = NULL;
    size_t cap = 0, total = 0;
    uint64_t n = 0;
    bool found = false, grew = false;
    ssize_t got;
    while ((got = getline(&line, &cap, f)) >= 0) {
        /* A file that grows while it is read is held to the same cap. */
        total += (size_t)got;
        if (total > SSDSIM__TEXT_FILE_MAX) {
            grew = true;
            break;
        }
        if (n++ == index) {
            found = true;
            break;
        }
    }
    int read_errno = ferror(f) ? errno : 0;
    fclose(f);
    int rc;
    if (grew) {
        rc = ssdsim__error_set(err, SSDSIM_EIO, NULL, NULL, "%s: cannot read: longer than %s", path,
                               TOO_LONG);
    } else if (read_errno) {
        rc = ssdsim__error_set(err, SSDSIM_EIO, NULL, NULL, "%s: cannot read: %s", path,
                               strerror(read_errno));
    } else if (!found && n == 0) {
        rc = ssdsim__error_set(err, SSDSIM_ENOTFOUND, NULL, NULL,
                               "%s is empty: it holds no point (no point %" PRIu64 ")", path,
                               index);
    } else if (!found) {
        rc = ssdsim__error_set(err, SSDSIM_ENOTFOUND, NULL, NULL,
                               "%s has %" PRIu64 " lines (points 0 to %" PRId64
                               "), no point %" PRIu64,
                               path, n, (int64_t)n - 1, index);
    } else {
        ssdsim_error e;
        rc = ssdsim_point_line_parse(out, line, &e);
        if (rc) {
            ssdsim__error_set(err, rc, NULL, NULL, "%s:%" PRIu64 ": %s", path, index + 1,
                              e.message);
            if (err)
                memcpy(err->path, e.path, sizeof err->path);
        } else if ((*out)->spec.index != index) {
            rc = ssdsim__error_set(err, SSDSIM_ECONFIG, NULL, NULL,
                                   "%s:%" PRIu64 ": holds point %" PRIu64 ", not %" PRIu64
                                   " (lines must stay in the order ssdsim sweep --emit wrote "
                                   "them)",
                                   path, index + 1, (*out)->spec.index, index);
            ssdsim_point_line_free(*out);
            *out = NULL;
        }
    }
    free(line);
    return rc;
}

int ssdsim_point_line_get_sized(const ssdsim_point_line *l, ssdsim_point_line_spec *out,
                                size_t size)
{
    if (!l || !out || size == 0)
        return SSDSIM_EINVAL;
    return ssdsim__result_give(out, size, &l->spec, sizeof l->spec, 0, false);
}

const char *ssdsim_point_line_label(const ssdsim_point_line *l)
{
    return l ? l->label : NULL;
}

const char *ssdsim_point_line_hash(const ssdsim_point_line *l)
{
    return l ? l->hash : NULL;
}

char *ssdsim_point_line_results_member(const ssdsim_point_line *l)
{
    if (!l)
        return NULL;
    cJSON *o = cJSON_CreateObject();
    ssdsim__json_add_u64(o, "index", l->spec.index);
    ssdsim__json_add_u64(o, "n_points", l->spec.n_points);
    cJSON_AddStringToObject(o, "name", l->name);
    cJSON *params = cJSON_AddObjectToObject(o, "params");
    for (guint i = 0; i < l->keys->len; i++)
        cJSON_AddStringToObject(params, l->keys->pdata[i], l->values->pdata[i]);
    ssdsim__json_add_u64(o, "base_seed", l->spec.base_seed);
    if (l->method)
        cJSON_AddStringToObject(o, "precondition_method", l->method);
    cJSON_AddStringToObject(o, "manifest_hash", l->hash);
    char *text = cJSON_Print(o);
    cJSON_Delete(o);
    char *copy = text ? strdup(text) : NULL;
    cJSON_free(text);
    return copy;
}

int ssdsim_point_line_opts(const ssdsim_point_line *l, ssdsim_point_opts *out)
{
    if (!l || !out || ssdsim_point_opts_init(out, 0))
        return SSDSIM_EINVAL;
    out->set = strv(l->sets);
    out->n_set = l->sets->len;
    out->vary = strv(l->kvs);
    out->n_vary = l->kvs->len;
    out->seed = l->spec.seed;
    out->seed_rule = SSDSIM_POINT_SEED_GIVEN;
    out->precondition = l->precondition ? l->mode : SSDSIM_PRECONDITION_NONE;
    out->precondition_fills = l->precondition ? l->fills : 0;
    out->run.interval_ns = l->spec.interval_ns;
    out->run.interval_ios = l->spec.interval_ios;
    return 0;
}

bool ssdsim_point_line_complete(const ssdsim_point_line *l, const char *results)
{
    if (!l || !results)
        return false;
    cJSON *root = cJSON_Parse(results);
    const cJSON *pt = cJSON_GetObjectItemCaseSensitive(root, "point");
    const cJSON *hash = cJSON_GetObjectItemCaseSensitive(pt, "manifest_hash");
    uint64_t index;
    bool ok = cJSON_IsObject(pt) && get_u64(pt, "index", false, &index) &&
              index == l->spec.index && cJSON_IsString(hash) &&
              !strcmp(hash->valuestring, l->hash) &&
              !cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(root, "interrupted"));
    cJSON_Delete(root);
    return ok;
}
