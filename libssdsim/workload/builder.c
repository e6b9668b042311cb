/* builder.c: building a workload from C values, so that programs (and the command) never format
 * JSON or job-file text: ssdsim_workload_new gives one job with fio's defaults, and the typed
 * setters turn a value into the option's text and apply it as ssdsim_workload_set does. */
#include "common.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>

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
