/* point_override.c: the KEY=VALUE overrides of a point (ssdsim_point_override,
 * ssdsim_point_apply): "workload.X" keys go to the workload builder's ssdsim_workload_set, the
 * others to ssdsim_model_set, each validated as a file is; a failure is reported as
 * "KEY: why", the key as the caller wrote it. */
#include "methods/point.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

int ssdsim_point_override(ssdsim_model *model, ssdsim_workload *wl, const char *kv,
                          ssdsim_error *err)
{
    if (!kv)
        return ssdsim__error_set(err, SSDSIM_EINVAL, NULL, NULL, "no override");
    const char *eq = strchr(kv, '=');
    bool workload = !strncmp(kv, WORKLOAD_PREFIX, strlen(WORKLOAD_PREFIX));
    if (!eq || eq == kv || (workload && eq == kv + strlen(WORKLOAD_PREFIX)))
        return ssdsim__error_set(err, SSDSIM_EINVAL, NULL, NULL,
                                 "expects KEY=VALUE, got '%s'", kv);
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
    int rc = workload ? ssdsim_workload_set(wl, key, eq + 1, &e)
                      : ssdsim_model_set(model, key, eq + 1, &e);
    if (rc)
        override_error(err, &e, key, workload);
    free(key);
    return rc;
}

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
    for (size_t i = 0; i < o.n_set + o.n_vary; i++) {
        const char *kv = i < o.n_set ? o.set[i] : o.vary[i - o.n_set];
        int rc = ssdsim_point_override(model, wl, kv, err);
        if (rc) {
            if (failed)
                *failed = i;
            return rc;
        }
    }
    return 0;
}
