/* methods.h: private helpers of the measurement methods (ssdsim/measure.h) that the files of
 * methods/ share: a caller's workload copied with its run length replaced, and the shape of a
 * workload (outstanding requests, clones, the share of requests that write). Not installed. */
#ifndef SSDSIM_METHODS_H
#define SSDSIM_METHODS_H

#include "common.h"

#include "ssdsim/measure.h"
#include "ssdsim/suite.h"

/* Blocks per plane of host writes (on every device) a window of a writing workload at steady
 * state must hold, ssdsim_measure_opts.gc_cycles: periods of garbage collection, whose swing
 * the window averages over. The review's, quick matrix's, calibration's and scaling's. */
#define SSDSIM__GC_CYCLES 20

/* How a method runs a caller's workload: time-based for runtime_ns after ramp_ns (runtime_ns
 * 0: not time-based), or for io_size_bytes per clone (0: as the workload says). */
struct ssdsim__methods_len {
    uint64_t runtime_ns, ramp_ns;
    uint64_t io_size_bytes;
};

/* A method that needs one solid-state device: 0 when `model` is one, else SSDSIM_EINVAL with
 * "the model is a hard disk; NEED" (or "a system of devices; NEED SYSTEM_HINT") set in *err.
 * `system_hint` (may be NULL) is appended for a system only. */
int ssdsim__methods_need_ssd(const ssdsim_model *model, ssdsim_error *err, const char *need,
                             const char *system_hint);

/* A deep copy of `wl` with its run length set as `len` says in every job (number_ios, runtime,
 * time_based, ramp_time and io_size replaced). NULL when out of memory. */
ssdsim_workload *ssdsim__methods_workload(const ssdsim_workload *wl,
                                          const struct ssdsim__methods_len *len);

/* Outstanding requests of `wl` (numjobs x iodepth over its jobs), its clones (numjobs over its
 * jobs), and the share of its requests that write, by clone (1 for write patterns, 1 -
 * rwmixread for mixes, 0 for reads and trims). */
uint64_t ssdsim__methods_slots(const ssdsim_workload *wl);
uint64_t ssdsim__methods_clones(const ssdsim_workload *wl);
double ssdsim__methods_write_share(const ssdsim_workload *wl);

/* io_size per clone for `drive_writes` of host writes on a volume of `logical_bytes`: the
 * write share counted, rounded up to 4 KiB. */
uint64_t ssdsim__methods_io_size(const ssdsim_workload *wl, double drive_writes,
                                 uint64_t logical_bytes);

/* The figures of the run just ended on `sim`, over all of it (window_ns = run_ns, no ramp,
 * not steady), and the operation statistics they come from (window.c). */
void ssdsim__measurement_of_run(ssdsim *sim, ssdsim_measurement *f, ssdsim_op_stats *a,
                                ssdsim_op_stats *r, ssdsim_op_stats *w);

/* The shared run of ssdsim_flows_run (flows.c): a new simulation of `model` that ran `wl`
 * after the point's preconditioning and the options' state. On failure *out is NULL and `err`
 * says "shared run: why". */
int ssdsim__flows_shared(ssdsim **out, const ssdsim_model *model, const ssdsim_workload *wl,
                         const ssdsim_flows_opts *opts, ssdsim_error *err);

/* Run `wl` with run length `len` on `sim`. The codes of ssdsim_run. */
int ssdsim__methods_run(ssdsim *sim, const ssdsim_workload *wl,
                        const struct ssdsim__methods_len *len, const ssdsim_run_opts *ro);

/* The two runs of a preconditioning curve on `sim` (curve.c); rows into `rows` (a GArray of
 * ssdsim_curve_row) when it is not NULL, figures into `sum`. */
int ssdsim__curve_runs(ssdsim *sim, const ssdsim_workload *wl, const ssdsim_curve_opts *o,
                       double time_scale, void *rows, ssdsim_curve_summary *sum);

/* Curve options with the defaults filled in (rounds 20, 10 drive writes; settle_drive_writes
 * stays: 0 means the adaptive settle). */
void ssdsim__curve_opts_resolve(ssdsim_curve_opts *o);
/* Whether the values of curve options make sense (before resolving): 0, or SSDSIM_EINVAL with
 * the field and what was expected in `why`. */
int ssdsim__curve_opts_check(const ssdsim_curve_opts *o, char *why, size_t len);

/* Settle as a curve option's settle_drive_writes says: 0 ssdsim_settle_adaptive (at most
 * SSDSIM_SETTLE_DRIVE_WRITES), positive ssdsim_settle of that amount, negative nothing. The
 * codes of ssdsim_run. */
int ssdsim__settle_opts(ssdsim *sim, const ssdsim_workload *wl, double dw);

#endif /* SSDSIM_METHODS_H */
