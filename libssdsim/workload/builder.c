/* builder.c: building a workload from C values, so that programs (and the command) never format
 * JSON or job-file text: ssdsim_workload_new gives one job with fio's defaults, and the typed
 * setters turn a value into the option's text and apply it as ssdsim_workload_set does; further
 * jobs (fio's job sections) are added with ssdsim_workload_add_job and set one by one. */
#include "common.h"
#include "workload/workload.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int ssdsim_workload_new(ssdsim_workload **out, const char *label, ssdsim_error *err)
{
    /* The empty JSON object is one job with every option at its default. */
    return ssdsim_workload_load_string(out, "{}", label, err);
}

int ssdsim_workload_set_int(ssdsim_workload *wl, const char *key, int64_t value,
                            ssdsim_error *err)
{
    char text[32];
    snprintf(text, sizeof text, "%" PRId64, value);
    return ssdsim_workload_set(wl, key, text, err);
}

int ssdsim_workload_set_double(ssdsim_workload *wl, const char *key, double value,
                               ssdsim_error *err)
{
    if (!isfinite(value))
        return ssdsim__error_set(err, SSDSIM_EINVAL, NULL, key,
                                 "expected a finite number, got %g", value);
    char text[40];
    snprintf(text, sizeof text, "%.17g", value);
    return ssdsim_workload_set(wl, key, text, err);
}

int ssdsim_workload_set_bool(ssdsim_workload *wl, const char *key, bool value,
                             ssdsim_error *err)
{
    return ssdsim_workload_set(wl, key, value ? "1" : "0", err);
}

int ssdsim_workload_add_job(ssdsim_workload *wl, const char *name, ssdsim_error *err)
{
    SSDSIM__CHECK_HANDLE(wl, SSDSIM__MAGIC_WORKLOAD, "ssdsim_workload");
    if (!wl || !name || !*name)
        return ssdsim__error_set(err, SSDSIM_EINVAL, wl ? wl->label : NULL, NULL,
                                 "ssdsim_workload_add_job: wl and a non-empty name are needed");
    struct ssdsim__jobspec job;
    ssdsim__jobspec_defaults(&job);
    job.name = strdup(name);
    int rc = job.name ? ssdsim__workload_add_job(wl, &job) : SSDSIM_ENOMEM;
    ssdsim__jobspec_clear(&job);
    if (rc)
        return ssdsim__error_set(err, rc, wl->label, NULL, "out of memory");
    return 0;
}

int ssdsim_workload_job_set(ssdsim_workload *wl, size_t i, const char *key, const char *value,
                            ssdsim_error *err)
{
    SSDSIM__CHECK_HANDLE(wl, SSDSIM__MAGIC_WORKLOAD, "ssdsim_workload");
    if (!wl || !key || !value || i >= wl->n_jobs)
        return ssdsim__error_set(err, SSDSIM_EINVAL, wl ? wl->label : NULL, key,
                                 "ssdsim_workload_job_set: %s",
                                 !wl || !key || !value ? "wl, key and value must not be NULL"
                                                       : "no such job");
    /* On a copy first, so that a bad value leaves the job unchanged. */
    char why[384];
    struct ssdsim__jobspec copy;
    if (ssdsim__jobspec_copy(&copy, &wl->jobs[i]))
        return ssdsim__error_set(err, SSDSIM_ENOMEM, wl->label, key, "out of memory");
    int rc = ssdsim__jobspec_apply(&copy, key, value, why, sizeof why);
    if (rc == SSDSIM__IGNORED && ssdsim__workload_note_ignored(wl, key))
        rc = SSDSIM_ENOMEM;
    if (rc >= 0 && ssdsim__jobspec_name_logs(&copy))
        rc = SSDSIM_ENOMEM;
    if (rc < 0) {
        ssdsim__jobspec_clear(&copy);
        return rc == SSDSIM_ENOMEM
                   ? ssdsim__error_set(err, rc, wl->label, key, "out of memory")
                   : ssdsim__error_set(err, SSDSIM_ECONFIG, wl->label, key, "%s", why);
    }
    ssdsim__jobspec_clear(&wl->jobs[i]);
    wl->jobs[i] = copy;
    ssdsim__workload_note_set(wl, key, (uint32_t)i, (uint32_t)i + 1);
    return 0;
}

int ssdsim_workload_keep_job(ssdsim_workload *wl, size_t i, ssdsim_error *err)
{
    if (!wl)
        return ssdsim__error_set(err, SSDSIM_EINVAL, NULL, NULL,
                                 "ssdsim_workload_keep_job: wl must not be NULL");
    SSDSIM__CHECK_HANDLE(wl, SSDSIM__MAGIC_WORKLOAD, "ssdsim_workload");
    if (i >= wl->n_jobs)
        return ssdsim__error_set(err, SSDSIM_EINVAL, wl->label, NULL,
                                 "ssdsim_workload_keep_job: job %zu of %u", i, wl->n_jobs);
    for (uint32_t j = 0; j < wl->n_jobs; j++)
        wl->jobs[j].off = j != i;
    return 0;
}

int ssdsim_workload_copy(ssdsim_workload **out, const ssdsim_workload *wl)
{
    if (out)
        *out = NULL;
    if (!out || !wl)
        return SSDSIM_EINVAL;
    SSDSIM__CHECK_HANDLE(wl, SSDSIM__MAGIC_WORKLOAD, "ssdsim_workload");
    ssdsim_workload *c = ssdsim__workload_new(wl->label, false);
    if (!c)
        return SSDSIM_ENOMEM;
    int rc = 0;
    for (uint32_t i = 0; i < wl->n_jobs && !rc; i++)
        rc = ssdsim__workload_add_job(c, &wl->jobs[i]);
    for (uint32_t i = 0; i < wl->n_ignored && !rc; i++)
        rc = ssdsim__workload_note_ignored(c, wl->ignored[i]);
    for (uint32_t i = 0; i < wl->n_skipped && !rc; i++)
        rc = ssdsim__workload_note_skipped(c, wl->skipped[i]);
    if (rc) {
        ssdsim_workload_free(c);
        return SSDSIM_ENOMEM;
    }
    *out = c;
    return 0;
}
