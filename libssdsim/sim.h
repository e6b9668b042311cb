/* sim.h: the simulation object (struct ssdsim) that ties the modules together. Private. */
#ifndef SSDSIM_SIM_H
#define SSDSIM_SIM_H

#include "common.h"
#include "config/model.h"
#include "engine/engine.h"
#include "array/array.h"
#include "host/host.h"
#include "stats/stats.h"

/* How the device was last brought into shape (precond.c), for the results: mode NULL on a new
 * or secure-erased device, "seq" after ssdsim_precondition_seq_fills, "fast" after
 * ssdsim_precondition_fast. Later runs keep it: it describes where their device came from. */
struct ssdsim__precond {
    const char *mode;                 /* static string, or NULL */
    uint32_t fills;                   /* seq: passes over the logical space */
    uint32_t scaled_blocks_per_plane; /* fast: of the scaled copy */
    double drive_writes;              /* fast: host writes of the scaled copy / its capacity */
    double waf;                       /* fast: its mean WAF over the steady window */
    bool steady;                      /* fast: that WAF met the steady-state rule */
};

/* A part [lo, hi] of a method's progress, 0 <= lo <= hi <= 1; hi 0: the whole (zeroed
 * memory). */
struct ssdsim__span {
    double lo, hi;
};

struct ssdsim {
    uint32_t magic; /* SSDSIM__MAGIC_SIM while alive (common.h) */
    struct ssdsim_model *model;
    uint64_t seed;
    uint64_t n_runs;
    struct ssdsim__engine engine;
    struct ssdsim__sys sys; /* the devices and the volumes on them */
    struct ssdsim__stats stats;
    struct ssdsim__host host;
    ssdsim_progress_fn progress;
    void *progress_ud;
    /* The part of the whole that the current step of a longer method (a round of
     * preconditioning) stands for: its own fractions are mapped into it
     * (ssdsim__progress_call), so that the method reports one rising fraction. */
    struct ssdsim__span progress_span;
    uint64_t interval_ns;
    uint64_t next_tick_ns;
    ssdsim__event_id tick;
    ssdsim_interval_fn interval_fn; /* ssdsim_set_interval_callback */
    uint64_t cb_interval_ns;        /* its interval (a workload run uses its own meanwhile) */
    void *interval_ud;
    bool broken; /* a run failed half-way: the device state cannot be trusted */
    /* Public calls that run events now on the stack, and whether a callback of theirs called
     * ssdsim_free: the free waits until the outermost returns, since they still use the
     * simulation (ssdsim__call_enter, ssdsim__call_leave). */
    unsigned call_depth;
    bool free_pending;
    /* The steady-state rule of the last run (ssdsim_get_steady applies it to the series) and its
     * early stop: until_steady, max_rounds, and whether they ended the run. */
    ssdsim_steady_var steady_var;
    ssdsim_steady_opts steady_opts; /* resolved: SNIA's values in place of zeros */
    bool until_steady;
    uint32_t max_rounds;
    bool steady_stopped;
    /* A method's own stop rule, asked at each closed round of a run with an interval (the
     * adaptive settle's, methods/steady.c): true stops the run as until_steady does. Set and
     * cleared by the method around its run; runs leave it alone. */
    bool (*round_stop)(const struct ssdsim *sim, void *ctx);
    void *round_stop_ctx;
    bool interrupted; /* the last run was cancelled by the progress callback */
    /* what the last run was: its label, and the options its workload accepted without effect
     * or skipped (lenient); owned copies, for the results */
    char *run_label;
    char **ignored, **skipped;
    uint32_t n_ignored, n_skipped;
    struct ssdsim__precond precond;
    /* how preconditioning is done: SSDSIM_PRECONDITION_METHOD_* (ssdsim_set_precondition_method,
     * SSDSIM_PRECONDITION_METHOD in the environment at ssdsim_new) */
    int precond_method;
    /* ssdsim_set_check_period: events between consistency checks (0: none), the event count
     * at which the next one is due, and the checks done */
    uint64_t check_period, check_due, n_checks;
    struct ssdsim__power *power; /* power losses so far (rel/power.c); NULL: none */
    /* the run options' power loss: at this time after its start, or after this many
     * completed requests; the event of the first */
    uint64_t power_loss_ns, power_loss_after;
    ssdsim__event_id power_loss_event;
    bool die_fail_armed; /* ssdsim_fail_die was called (rel/power.c) */
    uint64_t die_fail_at_ns; /* ... for this time */
    uint32_t die_fail_arg;   /* ... and this die (die_fails's argument) */
    bool power_loss_at_end;  /* the last run's power loss was not reached: lost at its end */
    char errmsg[512];
};

/* Power loss (rel/power.c): cut the power with no request inside, flush what a protected
 * buffer's energy allows, mount. 0 or a code with the message set. */
int ssdsim__power_loss(struct ssdsim *sim);
void ssdsim__power_free(struct ssdsim__power *p);
/* The results' "faults" object (only when there is a fault to report). */
struct cJSON;
void ssdsim__fault_json(struct cJSON *root, const struct ssdsim *sim);

/* Fill op stats from a histogram, a byte count and the duration they cover (results.c). */
void ssdsim__op_stats_fill(ssdsim_op_stats *out, const struct ssdsim__hist *h, uint64_t bytes,
                           uint64_t dur_ns);

void ssdsim__set_errmsg(struct ssdsim *sim, const char *fmt, ...) SSDSIM__PRINTF(2, 3);

/* Set the message of the last failure (unless `sim` is NULL) and return `code`: every error
 * return of a function that takes an ssdsim* goes through this or ssdsim__set_errmsg. A const
 * handle gets its message too (getters take const): every ssdsim is malloc'ed by ssdsim_new,
 * so writing its errmsg is defined, and errmsg is not part of what the getters read. */
int ssdsim__fail(const struct ssdsim *sim, int code, const char *fmt, ...) SSDSIM__PRINTF(3, 4);

/* A call that runs events (a run, a drain, idle time, preconditioning, a power loss) made from
 * a callback while events run (a completion, an interval, a progress or an observer callback)
 * would run the engine inside itself: 0 when not so called, else SSDSIM_ESTATE with the message
 * "WHAT: called from a callback ..." set. The simulation stays usable. */
int ssdsim__refuse_in_events(const struct ssdsim *sim, const char *what);

/* Bracket a public call that runs events (sim not NULL): ssdsim_free called from one of its
 * callbacks only marks the simulation, and the leave of the outermost call frees it. Leave
 * returns rc. */
void ssdsim__call_enter(struct ssdsim *sim);
int ssdsim__call_leave(struct ssdsim *sim, int rc);

/* ssdsim_run without that bracket, for the library's own runs on a caller's simulation (a
 * preconditioning fill, a measurement window): the call around them goes on using the
 * simulation, so a free asked meanwhile must not happen as the run returns. */
int ssdsim__run_inner(struct ssdsim *sim, const ssdsim_workload *wl, const ssdsim_run_opts *opts);

/* Report `fraction` (0 to 1) of the current step to the progress callback, mapped into the part
 * of the whole the step stands for (sim->progress_span): the callback's result, 0 without one. */
int ssdsim__progress_call(struct ssdsim *sim, double fraction);
/* The part [lo, hi] (0 <= lo <= hi <= 1) of span `in`: a method of several steps sets
 * sim->progress_span to the part of its own span each step stands for, and puts its own back at
 * the end. */
struct ssdsim__span ssdsim__span_part(struct ssdsim__span in, double lo, double hi);

/* Check workload `wl` against the volume `sim` addresses (ssdsim__workload_check): 0, or
 * SSDSIM_ECONFIG with the message "LABEL: what is wrong" set. Runs, fast-forward and fast
 * preconditioning all refuse a workload this way. */
int ssdsim__check_workload(const struct ssdsim *sim, const struct ssdsim_workload *wl);

/* Fast preconditioning (precond_scaled.c): move valid pages of an image (per block, SSDSIM_IMAGE_FREE
 * for free blocks) between planes so that none holds more than the FTL lets it beside its
 * reserve; false if the planes together cannot hold them. */
bool ssdsim__precond_plane_caps(const struct ssdsim *sim, uint32_t *valid);

/* Functional fast-forward (fastfwd.c): why `wl` (may be NULL) cannot be fast-forwarded on this
 * simulation, or NULL. */
const char *ssdsim__ff_unsupported(const struct ssdsim *sim, const struct ssdsim_workload *wl);
/* Run `wl`'s requests through the FTL without timing, all of them or until `max_write_bytes`
 * of host writes (0: no limit; a job bounded by time only is then refused). The bytes written go
 * to *written. 0 or a code with the message set; after a failure part-way the simulation is
 * broken. The caller has checked that nothing is in flight and the write buffers are empty. */
int ssdsim__ff_run(struct ssdsim *sim, const struct ssdsim_workload *wl, uint64_t max_write_bytes,
                   uint64_t *written);
/* A system of solid-state devices: why its sequential fill cannot be fast-forwarded, or NULL;
 * and the fill itself: every member written `fills` times in address order, `bs` bytes a
 * request, over the part the volume(s) map. Same contract as ssdsim__ff_run. */
const char *ssdsim__ff_seq_fill_unsupported(const struct ssdsim *sim, uint32_t bs);
int ssdsim__ff_seq_fill_members(struct ssdsim *sim, uint32_t fills, uint32_t bs);

/* Fast preconditioning from a scaled copy that has already run `wl` to its steady state (a
 * preconditioning curve, timed): `copy`'s state (its buffer flushed, its flash work finished)
 * is installed on `sim` as ssdsim_precondition_fast installs the copy it runs itself;
 * drive_writes, waf and steady describe the copy's run for the record. SSDSIM_ENOTFOUND, with
 * nothing changed, where ssdsim_precondition_fast would not install a scaled copy's state (a
 * system, an SLC cache, a workload the copy does not represent, an FTL without install) or
 * `copy` is not a copy of `sim`'s planes; else 0 or a code with the message set. */
int ssdsim__precondition_from_copy(struct ssdsim *sim, struct ssdsim *copy,
                                   const struct ssdsim_workload *wl, double drive_writes,
                                   double waf, bool steady);

#endif /* SSDSIM_SIM_H */
