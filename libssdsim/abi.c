/* abi.c: reading the option structs a caller fills by their version, writing result structs up
 * to the caller's size, and the *_init functions of the option structs (see abi.h). */
#include "common.h"

#include <stdio.h>
#include <string.h>

#include "abi.h"

int ssdsim__result_give(void *out, size_t size, const void *full, size_t full_size, int rc,
                        bool always)
{
    if (!out || !size || (rc != 0 && !always))
        return rc;
    memcpy(out, full, SSDSIM__MIN(size, full_size));
    if (size > full_size)
        memset((char *)out + full_size, 0, size - full_size);
    return rc;
}

int ssdsim__opts_read(void *dst, size_t dst_size, const void *src, const size_t *sizes,
                      unsigned int n_versions, const char *type, char *why, size_t len)
{
    memset(dst, 0, dst_size);
    unsigned int current = n_versions;
    if (src) {
        unsigned int v;
        memcpy(&v, src, sizeof v);
        if (v > n_versions) {
            if (why && len)
                snprintf(why, len,
                         "%s version %u is newer than this library's (%u): the program was "
                         "compiled against newer headers than libssdsim %s",
                         type, v, n_versions, ssdsim_version());
            return SSDSIM_EINVAL;
        }
        memcpy(dst, src, SSDSIM__MIN(sizes[v ? v : 1], dst_size));
    }
    memcpy(dst, &current, sizeof current);
    return 0;
}

/* Layout sizes by version; index 0 unused. Append a size when a version appends fields. */
static const size_t run_opts_sizes[] = {0, SSDSIM__END(ssdsim_run_opts, max_rounds)};
static const size_t submit_opts_sizes[] = {0, SSDSIM__END(ssdsim_submit_opts, queue),
                                           SSDSIM__END(ssdsim_submit_opts, placement)};
static const size_t replay_opts_sizes[] = {0, SSDSIM__END(ssdsim_replay_opts, label),
                                           SSDSIM__END(ssdsim_replay_opts, queue),
                                           SSDSIM__END(ssdsim_replay_opts, placement),
                                           SSDSIM__END(ssdsim_replay_opts, volume)};
static const size_t steady_opts_sizes[] = {0, SSDSIM__END(ssdsim_steady_opts, max_slope_excursion)};
static const size_t fast_opts_sizes[] = {0,
                                         SSDSIM__END(ssdsim_fast_precondition_opts, drive_writes)};
static const size_t trace_opts_sizes[] = {0, SSDSIM__END(ssdsim_trace_opts, n_devices),
                                          SSDSIM__END(ssdsim_trace_opts, flushes)};
static const size_t measure_opts_sizes[] = {0, SSDSIM__END(ssdsim_measure_opts, max_stretch),
                                            SSDSIM__END(ssdsim_measure_opts, fixed_length)};
static const size_t curve_opts_sizes[] = {0,
                                          SSDSIM__END(ssdsim_curve_opts, settle_drive_writes)};
static const size_t rounds_opts_sizes[] = {0, SSDSIM__END(ssdsim_rounds_opts, userdata)};
static const size_t calibrate_opts_sizes[] = {0,
                                              SSDSIM__END(ssdsim_calibrate_opts, progress_userdata)};
static const size_t suite_wl_sizes[] = {0, SSDSIM__END(ssdsim_suite_wl, split_region)};
static const size_t snia_opts_sizes[] = {0, SSDSIM__END(ssdsim_snia_opts, userdata)};
static const size_t quick_opts_sizes[] = {0, SSDSIM__END(ssdsim_quick_opts, userdata),
                                          SSDSIM__END(ssdsim_quick_opts, full_fills)};
static const size_t review_drive_opts_sizes[] = {
    0, SSDSIM__END(ssdsim_review_drive_opts, progress_userdata)};
static const size_t scaling_opts_sizes[] = {0, SSDSIM__END(ssdsim_scaling_opts, userdata),
                                            SSDSIM__END(ssdsim_scaling_opts, on_steady)};
static const size_t apps_opts_sizes[] = {0, SSDSIM__END(ssdsim_apps_opts, userdata)};

#define SSDSIM__OPTS(name, T, sizes, VERSION)                                                      \
    int ssdsim__##name##_read(T *dst, const T *src, char *why, size_t len)                         \
    {                                                                                              \
        _Static_assert(SSDSIM__ARRAY_LEN(sizes) == (VERSION) + 1, "a size per version");           \
        return ssdsim__opts_read(dst, sizeof *dst, src, sizes, (VERSION), #T, why, len);           \
    }                                                                                              \
    int ssdsim_##name##_init(T *opts, unsigned int version)                                        \
    {                                                                                              \
        if (!opts || version > (VERSION))                                                          \
            return SSDSIM_EINVAL;                                                                  \
        unsigned int v_ = version ? version : (VERSION);                                           \
        memset(opts, 0, v_ == (VERSION) ? sizeof *opts : sizes[v_]);                               \
        opts->version = v_;                                                                        \
        return 0;                                                                                  \
    }

SSDSIM__OPTS(run_opts, ssdsim_run_opts, run_opts_sizes, SSDSIM_RUN_OPTS_VERSION)
SSDSIM__OPTS(replay_opts, ssdsim_replay_opts, replay_opts_sizes, SSDSIM_REPLAY_OPTS_VERSION)
SSDSIM__OPTS(submit_opts, ssdsim_submit_opts, submit_opts_sizes, SSDSIM_SUBMIT_OPTS_VERSION)
SSDSIM__OPTS(steady_opts, ssdsim_steady_opts, steady_opts_sizes, SSDSIM_STEADY_OPTS_VERSION)
SSDSIM__OPTS(fast_precondition_opts, ssdsim_fast_precondition_opts, fast_opts_sizes,
             SSDSIM_FAST_PRECONDITION_OPTS_VERSION)
SSDSIM__OPTS(trace_opts, ssdsim_trace_opts, trace_opts_sizes, SSDSIM_TRACE_OPTS_VERSION)
SSDSIM__OPTS(measure_opts, ssdsim_measure_opts, measure_opts_sizes, SSDSIM_MEASURE_OPTS_VERSION)
SSDSIM__OPTS(curve_opts, ssdsim_curve_opts, curve_opts_sizes, SSDSIM_CURVE_OPTS_VERSION)
SSDSIM__OPTS(calibrate_opts, ssdsim_calibrate_opts, calibrate_opts_sizes,
             SSDSIM_CALIBRATE_OPTS_VERSION)
SSDSIM__OPTS(rounds_opts, ssdsim_rounds_opts, rounds_opts_sizes, SSDSIM_ROUNDS_OPTS_VERSION)
SSDSIM__OPTS(suite_wl, ssdsim_suite_wl, suite_wl_sizes, SSDSIM_SUITE_WL_VERSION)
SSDSIM__OPTS(snia_opts, ssdsim_snia_opts, snia_opts_sizes, SSDSIM_SNIA_OPTS_VERSION)
SSDSIM__OPTS(quick_opts, ssdsim_quick_opts, quick_opts_sizes, SSDSIM_QUICK_OPTS_VERSION)
SSDSIM__OPTS(review_drive_opts, ssdsim_review_drive_opts, review_drive_opts_sizes,
             SSDSIM_REVIEW_DRIVE_OPTS_VERSION)
SSDSIM__OPTS(scaling_opts, ssdsim_scaling_opts, scaling_opts_sizes, SSDSIM_SCALING_OPTS_VERSION)
SSDSIM__OPTS(apps_opts, ssdsim_apps_opts, apps_opts_sizes, SSDSIM_APPS_OPTS_VERSION)
