/* point_override.c: the KEY=VALUE overrides of a point (ssdsim_point_override,
 * ssdsim_point_apply): "workload.X" keys go to the workload builder's ssdsim_workload_set, the
 * others to ssdsim_model_set (a point's model keys all at once, ssdsim_model_set_many),
 * validated as a file is; a failure is reported as "KEY: why", the key as the caller wrote
 * it. */
#include "methods/point.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <glib.h>

#define WORKLOAD_PREFIX "workload."

/* The loaders name their label and the path in the message ("--set: ftl.op: why",
 * "wl.json: iodepth: why"); an override names only the key it was given as, so the reason is
 * taken from after that prefix. Should the layout differ, the whole message is kept. */
static int override_error(ssdsim_error *err, const ssdsim_error *e, const char *key,
                          bool workload)
{
    char prefix[512];
    size_t n = 0;
    if (e->file[0])
        n += (size_t)snprintf(prefix + n, sizeof prefix - n, "%s", e->file);
    if (e->line > 0 && n < sizeof prefix)
        n += (size_t)snprintf(prefix + n, sizeof prefix - n, ":%d:%d", e->line, e->column);
    if (n > 0 && n < sizeof prefix)
        n += (size_t)snprintf(prefix + n, sizeof prefix - n, ": ");
    if (e->path[0] && n < sizeof prefix)
        n += (size_t)snprintf(prefix + n, sizeof prefix - n, "%s: ", e->path);
    const char *why = e->message;
    if (n < sizeof prefix && !strncmp(why, prefix, n))
        why += n;
    char path[sizeof e->path + sizeof WORKLOAD_PREFIX];
    snprintf(path, sizeof path, "%s%s", workload ? WORKLOAD_PREFIX : "",
             e->path[0] ? e->path : key);
    return ssdsim__error_set(err, e->code, NULL, path, "%s", why);
}

/* Check the form of override `kv` ("KEY=VALUE", "workload.OPTION=VALUE"): the '=' in *eq and
 * whether it is a workload option in *workload; 0 or SSDSIM_EINVAL with the message in err. */
static int parse_kv(const char *kv, const char **eq, bool *workload, ssdsim_error *err)
{
    if (!kv)
        return ssdsim__error_set(err, SSDSIM_EINVAL, NULL, NULL, "no override");
    *eq = strchr(kv, '=');
    *workload = !strncmp(kv, WORKLOAD_PREFIX, strlen(WORKLOAD_PREFIX));
    if (!*eq || *eq == kv || (*workload && *eq == kv + strlen(WORKLOAD_PREFIX)))
        return ssdsim__error_set(err, SSDSIM_EINVAL, NULL, NULL,
                                 "expects KEY=VALUE, got '%s'", kv);
    return 0;
}

int ssdsim_point_override(ssdsim_model *model, ssdsim_workload *wl, const char *kv,
                          ssdsim_error *err)
{
    const char *eq;
    bool workload;
    int rc = parse_kv(kv, &eq, &workload, err);
    if (rc)
        return rc;
    if (workload ? !wl : !model)
        return 0;
    const char *start = workload ? kv + strlen(WORKLOAD_PREFIX) : kv;
    size_t n = (size_t)(eq - start);
    char *key = malloc(n + 1);
    if (!key)
        return ssdsim__error_set(err, SSDSIM_ENOMEM, NULL, NULL, "out of memory");
    memcpy(key, start, n);
    key[n] = '\0';
    ssdsim_error e;
    rc = workload ? ssdsim_workload_set(wl, key, eq + 1, &e)
                  : ssdsim_model_set(model, key, eq + 1, &e);
    if (rc)
        override_error(err, &e, key, workload);
    free(key);
    return rc;
}

/* The model's overrides go in together (ssdsim_model_set_many: validated once, so keys that
 * depend on each other can come in any order), then the workload's one by one. */
int ssdsim_point_apply(ssdsim_model *model, ssdsim_workload *wl, const ssdsim_point_opts *opts,
                       size_t *failed, ssdsim_error *err)
{
    ssdsim_point_opts o;
    char why[256];
    if (failed)
        *failed = 0;
    if (!opts)
        return ssdsim__error_set(err, SSDSIM_EINVAL, NULL, NULL, "no point options");
    if (ssdsim__point_opts_read(&o, opts, why, sizeof why))
        return ssdsim__error_set(err, SSDSIM_EINVAL, NULL, NULL, "%s", why);
    size_t total = o.n_set + o.n_vary, m = 0;
    char **keys = calloc(total ? total : 1, sizeof *keys);
    const char **values = calloc(total ? total : 1, sizeof *values);
    size_t *at = calloc(total ? total : 1, sizeof *at);
    int rc = 0;
    if (!keys || !values || !at) {
        rc = ssdsim__error_set(err, SSDSIM_ENOMEM, NULL, NULL, "out of memory");
        goto done;
    }
    for (size_t i = 0; i < total; i++) {
        const char *kv = i < o.n_set ? o.set[i] : o.vary[i - o.n_set];
        const char *eq;
        bool workload;
        if ((rc = parse_kv(kv, &eq, &workload, err))) {
            if (failed)
                *failed = i;
            goto done;
        }
        if (workload || !model)
            continue;
        if (!(keys[m] = g_strndup(kv, (size_t)(eq - kv)))) {
            rc = ssdsim__error_set(err, SSDSIM_ENOMEM, NULL, NULL, "out of memory");
            goto done;
        }
        values[m] = eq + 1;
        at[m++] = i;
    }
    if (m) {
        size_t f = 0;
        ssdsim_error e;
        rc = ssdsim_model_set_many(model, m, (const char *const *)keys, values, &f, &e);
        if (rc) {
            override_error(err, &e, keys[f], false);
            if (failed)
                *failed = at[f];
            goto done;
        }
    }
    for (size_t i = 0; wl && i < total; i++) {
        const char *kv = i < o.n_set ? o.set[i] : o.vary[i - o.n_set];
        if ((rc = ssdsim_point_override(NULL, wl, kv, err))) {
            if (failed)
                *failed = i;
            goto done;
        }
    }
done:
    for (size_t i = 0; keys && i < m; i++)
        g_free(keys[i]);
    free(keys);
    free(values);
    free(at);
    return rc;
}
