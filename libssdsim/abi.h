/* abi.h: how the library reads and writes the structs a caller allocates, so that a program
 * compiled against older headers keeps working when a struct grows (doc/api.md, "Versioned
 * structs").
 *
 * Option structs start with `unsigned int version`; layout v of a struct ends where its last
 * field of version v ends (SSDSIM__END), and fields are only ever appended, each starting at or
 * after the size of every earlier layout (so an old caller's padding is never read). Result
 * structs are written through the *_sized getters up to the caller's size. The SIZE_1 constants
 * below are the layouts of 1.0 and never change; a later version adds SIZE_2 beside them.
 */
#ifndef SSDSIM_ABI_H
#define SSDSIM_ABI_H

#include <stdbool.h>
#include <stddef.h>

#include "ssdsim/ssdsim.h"
#include "ssdsim/measure.h"
#include "ssdsim/suite.h"
#include "ssdsim/trace.h"

/* Where field f of struct type T ends. */
#define SSDSIM__END(T, f) (offsetof(T, f) + sizeof(((T *)0)->f))

/* Result structs: the 1.0 layouts, written by the plain getters (ctypes, function pointers). */
#define SSDSIM__SPEC_FIGURE_SIZE_1 SSDSIM__END(ssdsim_spec_figure, note)
#define SSDSIM__STEADY_RESULT_SIZE_1 SSDSIM__END(ssdsim_steady_result, why_not)
#define SSDSIM__OP_STATS_SIZE_1 SSDSIM__END(ssdsim_op_stats, lat_p99_99_ns)
#define SSDSIM__DEVICE_STATS_SIZE_1 SSDSIM__END(ssdsim_device_stats, dwpd_5y_first)
#define SSDSIM__DEVICE_IO_SIZE_1 SSDSIM__END(ssdsim_device_io, buffer_absorbed)
#define SSDSIM__INTERVAL_SIZE_1 SSDSIM__END(ssdsim_interval, partial)
#define SSDSIM__JOB_INFO_SIZE_1 SSDSIM__END(ssdsim_job_info, ss_value)
#define SSDSIM__TRACE_STATS_SIZE_1 SSDSIM__END(ssdsim_trace_stats, gzip_trailing_bytes)
#define SSDSIM__TRACE_INFO_SIZE_1 SSDSIM__END(ssdsim_trace_info, gzip_trailing_bytes)

/* The end of every *_sized result getter. `full` is the whole result struct (`full_size` bytes,
 * zeroed before it was filled), `rc` what filling it returned. The caller's `out` gets the first
 * `size` bytes of it, never more than full_size: the caller's struct may be older and smaller; a
 * newer, larger one has the bytes this library does not know zeroed. Nothing is written when `out`
 * is NULL, nor when `rc` is non-zero unless `always` is set (a result that also explains a failure,
 * or one filled as far as it could be). Returns rc. */
int ssdsim__result_give(void *out, size_t size, const void *full, size_t full_size, int rc,
                        bool always);

/* Read a caller's option struct `src` into `dst` (the current layout, `dst_size` bytes): the
 * bytes of the layout named by src's leading version (0 = 1), the rest zero, dst's version set to
 * the current one. sizes[v] is the size of layout v for v = 1 .. n_versions (sizes[0] unused).
 * A NULL src gives all defaults. @return 0, or SSDSIM_EINVAL with a one-line reason in `why`
 * (naming `type`) when src's version is newer than the library's. */
int ssdsim__opts_read(void *dst, size_t dst_size, const void *src, const size_t *sizes,
                      unsigned int n_versions, const char *type, char *why, size_t len);

/* ssdsim__opts_read for each option struct of the API. */
int ssdsim__run_opts_read(ssdsim_run_opts *dst, const ssdsim_run_opts *src, char *why, size_t len);
int ssdsim__submit_opts_read(ssdsim_submit_opts *dst, const ssdsim_submit_opts *src, char *why,
                             size_t len);
int ssdsim__replay_opts_read(ssdsim_replay_opts *dst, const ssdsim_replay_opts *src, char *why,
                             size_t len);
int ssdsim__steady_opts_read(ssdsim_steady_opts *dst, const ssdsim_steady_opts *src, char *why,
                             size_t len);
int ssdsim__fast_precondition_opts_read(ssdsim_fast_precondition_opts *dst,
                                        const ssdsim_fast_precondition_opts *src, char *why,
                                        size_t len);
int ssdsim__trace_opts_read(ssdsim_trace_opts *dst, const ssdsim_trace_opts *src, char *why,
                            size_t len);
/* ... and of ssdsim/measure.h */
int ssdsim__measure_opts_read(ssdsim_measure_opts *dst, const ssdsim_measure_opts *src, char *why,
                              size_t len);
int ssdsim__curve_opts_read(ssdsim_curve_opts *dst, const ssdsim_curve_opts *src, char *why,
                            size_t len);
int ssdsim__rounds_opts_read(ssdsim_rounds_opts *dst, const ssdsim_rounds_opts *src, char *why,
                             size_t len);
int ssdsim__calibrate_opts_read(ssdsim_calibrate_opts *dst, const ssdsim_calibrate_opts *src,
                                char *why, size_t len);
/* ... and of ssdsim/suite.h */
int ssdsim__suite_wl_read(ssdsim_suite_wl *dst, const ssdsim_suite_wl *src, char *why, size_t len);
int ssdsim__snia_opts_read(ssdsim_snia_opts *dst, const ssdsim_snia_opts *src, char *why,
                           size_t len);
int ssdsim__quick_opts_read(ssdsim_quick_opts *dst, const ssdsim_quick_opts *src, char *why,
                            size_t len);
int ssdsim__scaling_opts_read(ssdsim_scaling_opts *dst, const ssdsim_scaling_opts *src, char *why,
                              size_t len);
int ssdsim__apps_opts_read(ssdsim_apps_opts *dst, const ssdsim_apps_opts *src, char *why,
                           size_t len);
int ssdsim__review_drive_opts_read(ssdsim_review_drive_opts *dst,
                                   const ssdsim_review_drive_opts *src, char *why, size_t len);

#endif /* SSDSIM_ABI_H */
