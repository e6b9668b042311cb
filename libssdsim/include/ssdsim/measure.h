/* ssdsim/measure.h: measurement methods built on the simulation API, as the command's suites and
 * `ssdsim calibrate` use them: a measured window (ramp, rounds, early stop once IOPS converge,
 * re-run longer when it held too few requests), settling after fast preconditioning, bringing
 * a drive to a workload's steady state, preconditioning curves from a fresh drive to steady
 * state (on a scaled copy of a large model), calibration of a model against its spec
 * figures, and the per-job logs of fio (write_lat_log, write_iops_log, write_bw_log) computed
 * from a run's completions.
 *
 * Include it beside the umbrella header: `#include <ssdsim/measure.h>` (ssdsim/ssdsim.h does
 * not include it). The functions return figures in structs and errors as SSDSIM_E* codes; on a
 * simulation the message is in ssdsim_errmsg(sim), otherwise in the caller's ssdsim_error.
 * They print nothing; progress and interruption go through the simulation's progress callback
 * (ssdsim_set_progress), or the one in the options for calibration, which makes its own
 * simulations. Option structs follow the "Versioned structs" rules of ssdsim.h: start them with
 * their _INIT macro or _init function; result structs are filled up to the caller's size.
 */
#ifndef SSDSIM_MEASURE_H
#define SSDSIM_MEASURE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ssdsim/ssdsim.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------------------------------ */
/* Measured windows                                                                            */

/** How one point is measured. SSDSIM_MEASURE_OPTS_INIT (or zero) gives the defaults. A window
 * must hold enough requests for its figures to mean something: min_ios requests,
 * min_ios_per_slot per outstanding request (numjobs x iodepth summed over the jobs; the ramp,
 * a tenth of the window, then covers the time the queues take to fill), and, when the workload
 * writes, gc_cycles blocks per plane of host writes on every device (periods of garbage
 * collection, whose swing a window must average over; a system's devices share its writes).
 * A window that held less is run again, longer (from what the short run achieved, with a
 * margin, at least twice as long), up to max_stretch times window_ns. */
typedef struct ssdsim_measure_opts {
    /** the layout the caller was compiled with: SSDSIM_MEASURE_OPTS_VERSION (0 = 1) */
    unsigned int version;
    /** simulated time the window runs at most after its ramp (a tenth of it, not counted), in
     * rounds of a tenth of the window; 0 = 1 s */
    uint64_t window_ns;
    /** stop once the IOPS of 5 rounds meet the SNIA rule (ssdsim_steady_check) */
    bool until_steady;
    /** blocks per plane of host writes a window of a writing workload must hold, on each
     * device of a system; 0 = none */
    uint32_t gc_cycles;
    uint32_t min_ios;          /**< requests a window must hold; 0 = 5000 */
    uint32_t min_ios_per_slot; /**< requests per outstanding request; 0 = 20 */
    uint32_t max_stretch;      /**< longest window, in window_ns; 0 = 64; 1 = never run again */
    /* Appended in version 2. */
    /** a test of fixed length, as a lab's fio job with a runtime and no ramp_time: window_ns
     * counted from its first request, never stopped early nor run again (until_steady,
     * gc_cycles, min_ios, min_ios_per_slot and max_stretch are not used). For a measurement
     * whose figure depends on how long it runs: writes that may use up the free blocks idle
     * time gave back, or reach garbage collection on a fresh drive. */
    bool fixed_length;
} ssdsim_measure_opts;

/** Layout version of ssdsim_measure_opts (see "Versioned structs" in ssdsim.h): set by
 * SSDSIM_MEASURE_OPTS_INIT and ssdsim_measure_opts_init. */
#define SSDSIM_MEASURE_OPTS_VERSION 2
#define SSDSIM_MEASURE_OPTS_INIT SSDSIM__VERSIONED_INIT(SSDSIM_MEASURE_OPTS_VERSION)

/** Zero *opts and set its version (0: the current one). @return 0, or SSDSIM_EINVAL (NULL opts,
 * a version newer than the library's). */
SSDSIM_API int ssdsim_measure_opts_init(ssdsim_measure_opts *opts, unsigned int version);

/** The figures of a measured window. Rates (iops, bw_bytes, read_iops, write_iops) are over the
 * rounds in which requests were issued (window_ns), not over the drain of the queues at the end;
 * latencies and counts over every request completed after the ramp. */
typedef struct ssdsim_measurement {
    uint64_t window_ns; /**< the rounds in which requests were issued */
    uint64_t run_ns;    /**< the run after its ramp, to the last completion */
    uint64_t ramp_ns;   /**< the ramp before it (not counted) */
    double iops;        /**< requests per second, all operations */
    double bw_bytes;    /**< bytes per second, all operations */
    double lat_mean_ns, lat_stddev_ns;
    uint64_t lat_max_ns, lat_p99_ns, lat_p99_99_ns;
    double read_iops, write_iops;
    double read_lat_mean_ns, write_lat_mean_ns;
    uint64_t read_lat_max_ns, write_lat_max_ns;
    uint64_t read_lat_p99_ns, write_lat_p99_ns;
    double waf;                      /**< write amplification; NaN when nothing was written */
    uint64_t host_bytes_written;     /**< bytes the host wrote (after the ramp) */
    uint64_t host_pages_written;     /**< mapping units the host wrote */
    uint64_t flash_pages_programmed; /**< pages programmed on flash */
    uint64_t n_ios, n_writes;        /**< requests completed, writes of them */
    size_t n_rounds;                 /**< intervals (rounds) the last run made */
    bool steady;                     /**< with until_steady: the IOPS converged in the window */
    uint32_t n_runs; /**< runs made: 1, more when the window was run again, longer */
    /** of ramp_ns, the time a workload that writes nothing ran, not counted, while garbage
     * collection that earlier writes left running went on (0: none was running) */
    uint64_t gc_wait_ns;
    /** even at its longest (max_stretch windows), the window completed fewer requests than
     * were outstanding (numjobs x iodepth), or its requests took longer on average than its
     * ramp: it saw the queues' first wave, not a flow (its request rate too low by about the
     * share of the requests still outstanding), so its figures mean little, and
     * ssdsim_rounds_run counts no steady state over a round whose tracked cell is so */
    bool too_few;
    /** with gc_cycles: even at its longest (max_stretch windows), the window held fewer blocks
     * per plane of host writes than gc_cycles asked for, so its figures average over fewer
     * periods of garbage collection than asked and may carry the phase of collection the
     * window fell in (the other figures are as measured). Added after 1.0 in the struct's
     * tail padding: its size, and the layout of the structs that hold it, did not change. */
    bool short_of_gc;
} ssdsim_measurement;

/** Measure `wl` on `sim` as it is (no preconditioning): a time-based run of window_ns after a
 * ramp of a tenth of it, in rounds of a tenth of the window, stopped early with until_steady,
 * run again longer when it held too few requests (ssdsim_measure_opts). A workload that writes
 * nothing, given a drive whose garbage collection is still running (earlier writes left it
 * collecting up to its high watermark), first runs in rounds of a tenth of the window, not
 * counted, until that GC has ended (at most max_stretch windows; gc_wait_ns says how long): a
 * lab's test runs for minutes, which that tail barely moves, and a window of seconds would be
 * mostly tail. The amounts, run
 * length, ramp and time_based options of `wl` are replaced; the rest (rw, bs, numjobs,
 * iodepth, regions, ...) is measured as given. The device state carries over, as for ssdsim_run.
 * @return 0, SSDSIM_EINVAL (NULL argument, an option struct of an unknown version), or the codes
 *         of ssdsim_run (SSDSIM_ECANCELLED when the progress callback stops it); ssdsim_errmsg
 *         says why. *out is zeroed first. */
SSDSIM_API int ssdsim_measure(ssdsim *sim, const ssdsim_workload *wl,
                              const ssdsim_measure_opts *opts, ssdsim_measurement *out);
SSDSIM_API int ssdsim_measure_sized(ssdsim *sim, const ssdsim_workload *wl,
                                    const ssdsim_measure_opts *opts, ssdsim_measurement *out,
                                    size_t size);
#define ssdsim_measure(sim, wl, opts, out)                                                         \
    ssdsim_measure_sized((sim), (wl), (opts), (out), sizeof *(out))

/* ------------------------------------------------------------------------------------------ */
/* Steady state                                                                                */

/** Most drive writes ssdsim_settle_adaptive writes after fast preconditioning when settling is
 * left to the methods (a tenth of a drive write of the workload; it stops far earlier). */
#define SSDSIM_SETTLE_DRIVE_WRITES 0.1

/** Write `drive_writes` times the logical capacity more of `wl` (its write share counted: a
 * 70/30 mix runs until its writes make the amount), as one run to its end; nothing when `wl`
 * does not write or drive_writes is 0. *written (may be NULL) receives the drive writes asked
 * for, or 0 when nothing ran. @return 0, SSDSIM_EINVAL (NULL argument, drive_writes negative,
 * above 1e6 or not a number), or the codes of ssdsim_run. */
SSDSIM_API int ssdsim_settle(ssdsim *sim, const ssdsim_workload *wl, double drive_writes,
                             double *written);

/** Settle after fast preconditioning: the installed state has the free blocks functional
 * garbage collection leaves (each plane collected up to its target), more than a timed run's
 * foreground GC keeps beside a saturating host, so the first second or so of writes would run
 * faster. Writes more of `wl` in rounds of one block per plane of host writes (over every SSD
 * of a system) and stops after the first round, from the second on, that took less than a
 * quarter of a block per plane net from the free blocks (the level GC holds), or at
 * `max_drive_writes` (SSDSIM_SETTLE_DRIVE_WRITES is the methods' bound), RAIN's superblocks
 * (ftl.parity_group) and FDP included. Nothing when `wl` does not write, the system has no SSD or
 * max_drive_writes is 0. *written (may be NULL) receives the drive writes the host wrote. @return
 * 0, SSDSIM_EINVAL (NULL argument, max_drive_writes negative, above 1e6 or not a number), or the
 * codes of ssdsim_run. */
SSDSIM_API int ssdsim_settle_adaptive(ssdsim *sim, const ssdsim_workload *wl,
                                      double max_drive_writes, double *written);

/** Fill a RAID card's battery-backed write-back cache (system.cache) with `wl` to the level the
 * workload holds it at, as hours of writes leave it and a fresh, sequentially filled or just
 * preconditioned system does not (a window of seconds would measure the card's DRAM): rounds
 * of an eighth of the cache of host writes, until a round, from the second on, added less than
 * a quarter of a round to the bytes it holds; at most 4 caches of writes. Nothing without such
 * a cache or when `wl` does not write. ssdsim_reach_steady ends with it (hard disks included),
 * as does the settling after a preconditioning curve. @return 0, SSDSIM_EINVAL (NULL
 * argument), or the codes of ssdsim_run. */
SSDSIM_API int ssdsim_fill_card_cache(ssdsim *sim, const ssdsim_workload *wl);

/** How a drive was brought to a steady state. */
typedef enum ssdsim_steady_method {
    SSDSIM_STEADY_BY_NOTHING = 0, /**< a hard disk: no state that writes change */
    SSDSIM_STEADY_BY_FAST = 1,    /**< ssdsim_precondition_fast, then settled */
    SSDSIM_STEADY_BY_RUN = 2,     /**< the workload itself run until steady (no fast
                                       preconditioning for this FTL): a curve not recorded */
    SSDSIM_STEADY_BY_COPY = 3,    /**< after a curve on a scaled copy: the state the copy
                                       reached installed, as ssdsim_precondition_fast installs
                                       its own copy's, then settled */
} ssdsim_steady_method;

/** How a preconditioning curve, or a steady state reached by running, is run.
 * SSDSIM_CURVE_OPTS_INIT (or zero) gives the defaults. */
typedef struct ssdsim_curve_opts {
    /** the layout the caller was compiled with: SSDSIM_CURVE_OPTS_VERSION (0 = 1) */
    unsigned int version;
    /** rounds (time-series intervals of host writes) per drive write; the steady rule judges
     * the IOPS of the last drive write of them; 0 = 20 */
    uint32_t rounds_per_drive_write;
    /** most drive writes a curve runs; 0 = 10 */
    double max_drive_writes;
    /** settling after fast preconditioning: 0 = ssdsim_settle_adaptive (at most
     * SSDSIM_SETTLE_DRIVE_WRITES), positive = ssdsim_settle of that many drive writes,
     * negative = none */
    double settle_drive_writes;
} ssdsim_curve_opts;

/** Layout version of ssdsim_curve_opts: set by SSDSIM_CURVE_OPTS_INIT and ssdsim_curve_opts_init.
 */
#define SSDSIM_CURVE_OPTS_VERSION 1
#define SSDSIM_CURVE_OPTS_INIT SSDSIM__VERSIONED_INIT(SSDSIM_CURVE_OPTS_VERSION)

/** Zero *opts and set its version (0: the current one). @return 0, or SSDSIM_EINVAL. */
SSDSIM_API int ssdsim_curve_opts_init(ssdsim_curve_opts *opts, unsigned int version);

/** Bring `sim`, secure-erased first, to the steady state of `wl` (random writes over the whole
 * device for fast preconditioning): fast preconditioning and settling; when the FTL cannot
 * install a state, a sequential fill of the whole drive (so that no logical unit is left
 * unwritten, as none is on a drive preconditioned for hours) and then the two runs of a
 * preconditioning curve (not recorded); a hard disk is left as it is. A RAID card's write-back
 * cache is then filled (ssdsim_fill_card_cache). *how (may be NULL) says which. Statistics then describe the last run.
 * @return 0, SSDSIM_EINVAL (NULL argument, options of an unknown version), or the codes of
 *         ssdsim_secure_erase, ssdsim_precondition_fast, ssdsim_precondition_seq_fills and
 *         ssdsim_run. */
SSDSIM_API int ssdsim_reach_steady(ssdsim *sim, const ssdsim_workload *wl,
                                   const ssdsim_curve_opts *opts, ssdsim_steady_method *how);

/* ------------------------------------------------------------------------------------------ */
/* Rounds until steady (SNIA PTS)                                                              */

/** The figure of the tracked cell that the steady-state rule judges. */
typedef enum ssdsim_rounds_var {
    SSDSIM_ROUNDS_IOPS = 0,        /**< iops of the cell */
    SSDSIM_ROUNDS_BW_MB_S = 1,     /**< bw_bytes / 10^6 */
    SSDSIM_ROUNDS_LAT_MEAN_US = 2, /**< lat_mean_ns / 1000 */
} ssdsim_rounds_var;

/** Called after each cell of a round (`round` and `cell` from 0) with its figures, while the
 * simulation still holds that cell's statistics (its latency histogram, say); a non-zero return
 * stops the rounds, and ssdsim_rounds_run returns it. */
typedef int (*ssdsim_rounds_cell_fn)(size_t round, size_t cell, const ssdsim_measurement *m,
                                     void *userdata);

/** Called after each round with the tracked values so far (track[0 .. round]), before the rule
 * judges it: the place to change the drive between rounds (SNIA's workload-dependent
 * preconditioning after round 1, for one). A non-zero return stops the rounds, and
 * ssdsim_rounds_run returns it. */
typedef int (*ssdsim_rounds_round_fn)(size_t round, const double *track, void *userdata);

/** How rounds are run. SSDSIM_ROUNDS_OPTS_INIT (or zero) gives the defaults. */
typedef struct ssdsim_rounds_opts {
    /** the layout the caller was compiled with: SSDSIM_ROUNDS_OPTS_VERSION (0 = 1) */
    unsigned int version;
    /** window of each cell, measured as ssdsim_measure does (the whole window, no early
     * stop); 0 = 1 s */
    uint64_t cell_ns;
    /** blocks per plane of host writes a writing cell must hold (ssdsim_measure_opts) */
    uint32_t gc_cycles;
    /** rounds the rule may judge at most; 0 = 25 */
    uint32_t max_rounds;
    /** first rounds run before those, left out of the judgement (SNIA's IOPS test: the round
     * on the sequentially filled drive) */
    uint32_t unjudged_rounds;
    size_t track_cell;               /**< the cell whose figure is tracked */
    ssdsim_rounds_var track_var;     /**< which figure */
    ssdsim_steady_opts steady;       /**< the rule (zero: SNIA's: 5 rounds, 20%, 10%) */
    ssdsim_rounds_cell_fn on_cell;   /**< may be NULL */
    ssdsim_rounds_round_fn on_round; /**< may be NULL */
    void *userdata;                  /**< passed to both */
} ssdsim_rounds_opts;

/** Layout version of ssdsim_rounds_opts: set by SSDSIM_ROUNDS_OPTS_INIT and
 * ssdsim_rounds_opts_init. */
#define SSDSIM_ROUNDS_OPTS_VERSION 1
#define SSDSIM_ROUNDS_OPTS_INIT SSDSIM__VERSIONED_INIT(SSDSIM_ROUNDS_OPTS_VERSION)

/** Zero *opts and set its version (0: the current one). @return 0, or SSDSIM_EINVAL. */
SSDSIM_API int ssdsim_rounds_opts_init(ssdsim_rounds_opts *opts, unsigned int version);

/** Run rounds of `cells` (each measured in turn on `sim` as it is) until the tracked figure of
 * the judged rounds meets the steady-state rule, or max_rounds were judged. *verdict is the
 * rule on the judged rounds with `round` counted from the first round run (0-based); when no
 * window is steady, its window is the rule's ending at the last round. *n_rounds (may be NULL)
 * receives the rounds run. @return 0, SSDSIM_EINVAL (NULL argument, no cell, track_cell out of
 * range, options of an unknown version), a callback's non-zero return, or the codes of
 * ssdsim_measure (ssdsim_errmsg says why). */
SSDSIM_API int ssdsim_rounds_run(ssdsim *sim, ssdsim_workload *const *cells, size_t n_cells,
                                 const ssdsim_rounds_opts *opts, ssdsim_steady_result *verdict,
                                 size_t *n_rounds);
SSDSIM_API int ssdsim_rounds_run_sized(ssdsim *sim, ssdsim_workload *const *cells, size_t n_cells,
                                       const ssdsim_rounds_opts *opts,
                                       ssdsim_steady_result *verdict, size_t size,
                                       size_t *n_rounds);
#define ssdsim_rounds_run(sim, cells, n_cells, opts, verdict, n_rounds)                            \
    ssdsim_rounds_run_sized((sim), (cells), (n_cells), (opts), (verdict), sizeof *(verdict),       \
                            (n_rounds))

/* ------------------------------------------------------------------------------------------ */
/* Preconditioning curves                                                                      */

/** A preconditioning curve: its rows and figures. Opaque; made by ssdsim_curve_run. */
typedef struct ssdsim_curve ssdsim_curve;

/** One round of a curve, on the drive's time axis (the copy's times the capacity ratio). */
typedef struct ssdsim_curve_row {
    double t_s;          /**< end of the round, simulated seconds of the drive */
    double t_copy_s;     /**< the same on the simulation that ran it */
    double drive_writes; /**< host writes so far / logical capacity */
    double iops, lat_mean_us, lat_max_us, lat_stddev_us, lat_p99_us;
    double waf;             /**< of the round; NaN when nothing was written */
    double waf_cumulative;  /**< since the start of the curve; NaN when nothing was written */
    double free_blocks_pct; /**< free blocks at its end, percent of all blocks */
    double n_ios;           /**< requests completed in the round */
    double duration_s;      /**< its length on the simulation that ran it */
} ssdsim_curve_row;

/** What a curve found. Rates of the steady window are over its rounds' own counts and
 * lengths; burst: the first tenth of a drive write; cliff: the first round below 90% of the
 * burst (NaN when none). */
typedef struct ssdsim_curve_summary {
    bool scaled;                    /**< ran on a scaled copy */
    uint32_t copy_blocks_per_plane; /**< its blocks per plane (0 when not scaled) */
    double time_scale;              /**< drive logical bytes / copy logical bytes (1 if not) */
    uint32_t rounds_per_drive_write;
    double min_drive_writes; /**< the first run: burst and cliff (1 + op + 0.5) */
    double max_drive_writes;
    bool steady;                /**< the IOPS of the last drive write met the rule */
    double steady_drive_writes; /**< where the steady window ended (or the curve) */
    double steady_t_s;
    double steady_iops, steady_lat_mean_us, steady_lat_max_us, steady_waf;
    double burst_iops;
    double cliff_t_s;
    ssdsim_steady_method brought_by; /**< how `sim` reached steady state after a copy's curve
                                          (SSDSIM_STEADY_BY_COPY: the copy's state installed;
                                          SSDSIM_STEADY_BY_RUN: the curve itself ran on it) */
} ssdsim_curve_summary;

/** Run the preconditioning curve of `wl` (its rw, bs, numjobs, iodepth; its amounts replaced)
 * from a secure-erased drive until its IOPS are steady, in two runs: the first, of fixed length,
 * covers the burst and the cliff (1 + op + 0.5 drive writes, so that every block was filled);
 * the second stops once the IOPS of the last drive write are steady (least-squares line across
 * it within 3% of its mean, spread within 20%) or at max_drive_writes. It runs on `copy` when
 * that is not NULL (a simulation of a scaled copy of sim's model, ssdsim_model_scaled_copy),
 * then brings `sim` to the same steady state (ssdsim_reach_steady); otherwise on `sim` itself,
 * which it leaves at that steady state. *out is freed with ssdsim_curve_free.
 * @return 0, SSDSIM_EINVAL (NULL argument, options of an unknown version), SSDSIM_ENOTFOUND (a
 *         hard disk: no state to curve), SSDSIM_ECONFIG (a workload that does not write),
 *         SSDSIM_ENOMEM, or the codes of ssdsim_run and ssdsim_reach_steady; ssdsim_errmsg(sim)
 *         says why. *out is NULL on failure. */
SSDSIM_API int ssdsim_curve_run(ssdsim_curve **out, ssdsim *sim, ssdsim *copy,
                                const ssdsim_workload *wl, const ssdsim_curve_opts *opts);

/** Rows of a curve (0 for NULL). */
SSDSIM_API size_t ssdsim_curve_n_rows(const ssdsim_curve *curve);

/** Row `i` of a curve. @return 0 or SSDSIM_EINVAL (NULL argument, i out of range). */
SSDSIM_API int ssdsim_curve_get_row(const ssdsim_curve *curve, size_t i, ssdsim_curve_row *out);
SSDSIM_API int ssdsim_curve_get_row_sized(const ssdsim_curve *curve, size_t i,
                                          ssdsim_curve_row *out, size_t size);
#define ssdsim_curve_get_row(curve, i, out)                                                        \
    ssdsim_curve_get_row_sized((curve), (i), (out), sizeof *(out))

/** The figures of a curve. @return 0 or SSDSIM_EINVAL (NULL argument). */
SSDSIM_API int ssdsim_curve_get_summary(const ssdsim_curve *curve, ssdsim_curve_summary *out);
SSDSIM_API int ssdsim_curve_get_summary_sized(const ssdsim_curve *curve, ssdsim_curve_summary *out,
                                              size_t size);
#define ssdsim_curve_get_summary(curve, out)                                                       \
    ssdsim_curve_get_summary_sized((curve), (out), sizeof *(out))

/** Free a curve; NULL is accepted. */
SSDSIM_API void ssdsim_curve_free(ssdsim_curve *curve);

/* ------------------------------------------------------------------------------------------ */
/* Scaled copies                                                                               */

/** Blocks per plane of the scaled copy a large model's curves and fast preconditioning run on:
 * enough that the blocks every plane keeps free or open (GC watermarks, victim, write
 * frontiers), which do not scale, are at most a quarter of its spare blocks, and at least 256;
 * never more than the model has; of a system of solid-state devices, its member's. 0 for a hard
 * disk, an array of them, or NULL. */
SSDSIM_API uint32_t ssdsim_model_scaled_blocks_per_plane(const ssdsim_model *model);

/** A copy of a solid-state device model with `blocks_per_plane` blocks per plane (0: the value
 * of ssdsim_model_scaled_blocks_per_plane) and the same geometry, timing and FTL otherwise; its
 * over-provisioning is set so that the space garbage collection works with (the blocks none of
 * the free, victim and open blocks) is used in the model's proportion, so that its steady state
 * (WAF, IOPS) is the model's. The copy stays quiet about its FTL reserve. Of a system of
 * solid-state devices: the same system (layout, strips, controllers, card and its cache) over
 * the member's copy, so its volume shrinks as the member does.
 * @return 0, SSDSIM_EINVAL (NULL argument, neither a solid-state device model nor a system of
 *         them), SSDSIM_ECONFIG (the copy would have no spare blocks, or more blocks than the
 *         model, or a member smaller than a strip), SSDSIM_ENOMEM; *out is NULL on failure and
 *         `err` (may be NULL) says why. */
SSDSIM_API int ssdsim_model_scaled_copy(ssdsim_model **out, const ssdsim_model *model,
                                        uint32_t blocks_per_plane, ssdsim_error *err);

/* ------------------------------------------------------------------------------------------ */
/* Calibration against spec figures                                                           */

/** The state a figure was measured in. */
typedef enum ssdsim_drive_state {
    SSDSIM_DRIVE_FRESH = 0,           /**< as built (secure-erased) */
    SSDSIM_DRIVE_FULL = 1,            /**< after one sequential fill (ssdsim_precondition_seq) */
    SSDSIM_DRIVE_STEADY = 2,          /**< fast preconditioning with the figure's workload and
                                           ssdsim_settle_adaptive */
    SSDSIM_DRIVE_STEADY_SEQ_FILL = 3, /**< asked steady, given a sequential fill: the workload
                                           is not random writes, or the model cannot install a
                                           state (a hard disk, media written in place) */
} ssdsim_drive_state;

/** How figures are calibrated. SSDSIM_CALIBRATE_OPTS_INIT (or zero) gives the defaults. */
typedef struct ssdsim_calibrate_opts {
    /** the layout the caller was compiled with: SSDSIM_CALIBRATE_OPTS_VERSION (0 = 1) */
    unsigned int version;
    /** share of the spec value a simulated one may miss by and still match; 0 = 0.10 */
    double tolerance;
    /** progress callback of the simulations it makes (ssdsim_set_progress); NULL = none */
    ssdsim_progress_fn progress;
    void *progress_userdata;
} ssdsim_calibrate_opts;

/** Layout version of ssdsim_calibrate_opts: set by SSDSIM_CALIBRATE_OPTS_INIT and
 * ssdsim_calibrate_opts_init. */
#define SSDSIM_CALIBRATE_OPTS_VERSION 1
#define SSDSIM_CALIBRATE_OPTS_INIT SSDSIM__VERSIONED_INIT(SSDSIM_CALIBRATE_OPTS_VERSION)

/** Zero *opts and set its version (0: the current one). @return 0, or SSDSIM_EINVAL. */
SSDSIM_API int ssdsim_calibrate_opts_init(ssdsim_calibrate_opts *opts, unsigned int version);

/** One figure measured. */
typedef struct ssdsim_calibration {
    size_t figure;            /**< its index in the model's spec block */
    ssdsim_spec_figure spec;  /**< the figure (strings belong to the model) */
    ssdsim_drive_state state; /**< the state it was measured in */
    double simulated;         /**< in the metric's unit (IOPS, MB/s of 10^6 bytes, us) */
    double ratio;             /**< simulated / spec value */
    bool within_tolerance;    /**< |ratio - 1| <= tolerance (for a bound: see `bound`) */
    uint64_t first_window_ns; /**< the first window (from the spec value: an expected rate) */
    uint64_t unmapped_reads;  /**< reads of never-written data, answered without flash */
    ssdsim_measurement measurement;
    /** What the run adds to the figure's own note, sentences ("" when nothing): why a steady
     * state was given a sequential fill, unmapped reads. */
    char note[512];
    /** The figure's bound (ssdsim_model_spec_bound): "typical", or "upper"/"lower", where
     * within_tolerance means at most / at least the spec value (plus / minus the tolerance). */
    const char *bound;
    /** Blocks per plane of host writes the measured window had to span
     * (ssdsim_measure_opts.gc_cycles): 20 for a write figure on a drive that is not fresh
     * (periods of garbage collection), else 0. */
    uint32_t gc_cycles;
    /** The model key derived from this figure (ssdsim_model_spec_fitted), or NULL: when set,
     * within_tolerance holds by construction and is no check of the model. */
    const char *fitted;
} ssdsim_calibration;

/** Calibrate figure `i` of the model's spec block: a new simulation (seed `seed`) brought into
 * the figure's state (ssdsim_drive_state), then the figure's workload (rw, bs, iodepth, numjobs
 * over the whole device) measured as ssdsim_measure does, with a first window sized from the
 * spec value (long enough for twice the requests ssdsim_measure asks for at the vendor's rate,
 * and for its ramp to fill the write buffer or disk cache four times over) and, for writes to a
 * drive that is not fresh, 20 blocks per plane of host writes.
 * @return 0, SSDSIM_EINVAL (NULL argument, i out of range, options of an unknown version),
 *         SSDSIM_ECONFIG (the model cannot be built, or the workload does not fit the device,
 *         found before the drive is brought into the state), or the codes of the runs
 *         (SSDSIM_ECANCELLED when the progress callback stops one); `err` (may be NULL) says
 *         why, naming the model's file and the figure ("m.json: spec.figures[2] 'big': block
 *         size ...", err->path "spec.figures[2]"). *out is zeroed first. */
SSDSIM_API int ssdsim_calibrate_figure(const ssdsim_model *model, size_t i, uint64_t seed,
                                       const ssdsim_calibrate_opts *opts, ssdsim_calibration *out,
                                       ssdsim_error *err);
SSDSIM_API int ssdsim_calibrate_figure_sized(const ssdsim_model *model, size_t i, uint64_t seed,
                                             const ssdsim_calibrate_opts *opts,
                                             ssdsim_calibration *out, size_t size,
                                             ssdsim_error *err);
#define ssdsim_calibrate_figure(model, i, seed, opts, out, err)                                    \
    ssdsim_calibrate_figure_sized((model), (i), (seed), (opts), (out), sizeof *(out), (err))

/** Calibrate every figure of the model into out[0 .. n - 1] (n = ssdsim_model_spec_count; `out`
 * holds at least `cap`). @return 0, SSDSIM_EINVAL (NULL argument), SSDSIM_ENOTFOUND (no spec
 * figures), SSDSIM_ERANGE (cap < n), or the codes of ssdsim_calibrate_figure (the first figure
 * that failed; those before it are filled). */
SSDSIM_API int ssdsim_calibrate_model(const ssdsim_model *model, uint64_t seed,
                                      const ssdsim_calibrate_opts *opts, ssdsim_calibration *out,
                                      size_t cap, ssdsim_error *err);
SSDSIM_API int ssdsim_calibrate_model_sized(const ssdsim_model *model, uint64_t seed,
                                            const ssdsim_calibrate_opts *opts,
                                            ssdsim_calibration *out, size_t cap, size_t size,
                                            ssdsim_error *err);
#define ssdsim_calibrate_model(model, seed, opts, out, cap, err)                                   \
    ssdsim_calibrate_model_sized((model), (seed), (opts), (out), (cap), sizeof *(out), (err))

/** How long calibrating the figure takes, relatively, for running the longest first: 3 for
 * writes to a steady drive, 2 for writes to a written one, 1 for reads of a written drive, 0
 * on a fresh drive (the state the figure needs costs most); -1 for NULL. */
SSDSIM_API double ssdsim_calibrate_figure_cost(const ssdsim_spec_figure *f);

/** The unit of the figure's metric: "us" for the latencies (read_lat_us, write_lat_us), "MB/s"
 * for read_mbps and write_mbps, "IOPS" for the rest; NULL for NULL. */
SSDSIM_API const char *ssdsim_spec_figure_unit(const ssdsim_spec_figure *f);

/** The spec figure of `model` that `sel` names: its name, or its number counting from 1 ("3");
 * the loader refuses a name that is a plain number or another figure's, so either selects one
 * figure. *index receives it from 0. @return 0, SSDSIM_EINVAL (NULL argument), SSDSIM_ENOTFOUND (no
 * figure has that name or number). */
SSDSIM_API int ssdsim_model_spec_find(const ssdsim_model *model, const char *sel, size_t *index);

/** The figure's workload (rw, bs, iodepth, numjobs over the whole device, norandommap for random
 * patterns), without run length. @return 0, SSDSIM_EINVAL (NULL argument), the codes of
 * ssdsim_workload_set; *out NULL on failure. */
SSDSIM_API int ssdsim_spec_figure_workload(ssdsim_workload **out, const ssdsim_spec_figure *f,
                                           ssdsim_error *err);

/* ------------------------------------------------------------------------------------------ */
/* fio's per-job logs                                                                          */

/** The logs of fio 3.x a job file asks for (write_lat_log, write_iops_log, write_bw_log,
 * log_avg_msec; fio's HOWTO, "Log File Formats", without log_offset), computed from a run's
 * completions: one entry a line "time (ms), value, data direction (0 read, 1 write, 2 trim),
 * block size, priority (0)". Files are PREFIX_lat.N.log, _clat, _slat, _iops, _bw, N the job
 * clone's number over the run from 1 (sections in file order, a section's clones consecutive);
 * a log option given without a name uses the section's name. Times count from the job's start
 * after its ramp_time (fio resets its epoch then; I/Os issued during the ramp are not logged).
 *   - Without log_avg_msec, an entry per completed I/O: lat and clat its latency in ns (the
 *     same: the simulated host has no submission latency), iops 1, bw its bytes x 10^6 / its
 *     latency in ns, with its size. The slat log stays empty, as fio's does for a synchronous
 *     engine.
 *   - With log_avg_msec W, an entry per direction per window [kW, (k+1)W) that saw I/O,
 *     stamped (k+1)W: lat/clat the mean latency (rounded), iops the I/Os x 1000 / W, bw the
 *     bytes x 1000 / W / 1024 (KiB/s), block size 0. A last, partial window is written for the
 *     latency logs at the job's last completion (ssdsim_fio_logs_finish), not for iops and bw
 *     (as fio does). */
typedef enum ssdsim_fio_log_kind {
    SSDSIM_FIO_LOG_LAT = 0,
    SSDSIM_FIO_LOG_CLAT = 1,
    SSDSIM_FIO_LOG_SLAT = 2,
    SSDSIM_FIO_LOG_IOPS = 3,
    SSDSIM_FIO_LOG_BW = 4
} ssdsim_fio_log_kind;

/** Number of kinds of log (ssdsim_fio_log_kind). */
#define SSDSIM_FIO_LOG_KINDS 5

/** One entry of log `kind` of job clone `clone` (from 0). */
typedef struct ssdsim_fio_log_entry {
    uint32_t clone;
    ssdsim_fio_log_kind kind;
    uint64_t t_ms;  /**< time */
    uint64_t value; /**< ns, I/Os or bytes per second as the kind says */
    int dir;        /**< 0 read, 1 write, 2 trim */
    uint64_t bs;    /**< block size (0 for averaged entries) */
} ssdsim_fio_log_entry;

/** Called with each entry as it is made, from inside ssdsim_fio_logs_complete (the run's
 * observer) and ssdsim_fio_logs_finish. The struct is valid during the call only. */
typedef void (*ssdsim_fio_log_fn)(const ssdsim_fio_log_entry *e, void *userdata);

/** The logs of one run. Opaque. */
typedef struct ssdsim_fio_logs ssdsim_fio_logs;

/** The logs `wl` asks for, their entries going to `fn`. *out is NULL (and 0 returned) when no
 * section asks for a log. @return 0, SSDSIM_EINVAL (NULL out, wl or fn), SSDSIM_ERANGE (more
 * than 2^31 job clones); `err` (may be NULL) says why. */
SSDSIM_API int ssdsim_fio_logs_new(ssdsim_fio_logs **out, const ssdsim_workload *wl,
                                   ssdsim_fio_log_fn fn, void *userdata, ssdsim_error *err);

/** Job clones of the workload (0 for NULL). */
SSDSIM_API uint32_t ssdsim_fio_logs_n_clones(const ssdsim_fio_logs *logs);

/** The file name of log `kind` of clone `clone` ("PREFIX_clat.3.log"), owned by `logs`; NULL
 * when the clone's section does not ask for it. */
SSDSIM_API const char *ssdsim_fio_logs_path(const ssdsim_fio_logs *logs, uint32_t clone,
                                            ssdsim_fio_log_kind kind);

/** The run on `sim` starts now: the logs' times count from ssdsim_now(sim) plus each job's
 * start and ramp_time, read from `sim` at the job's first completion (it must stay alive
 * while the run goes on). */
SSDSIM_API void ssdsim_fio_logs_start(ssdsim_fio_logs *logs, const ssdsim *sim);

/** A completed request (from the run's observer, ssdsim_observer.on_complete): the entries it
 * makes go to the callback. Allocates nothing but, once, the map from clones to jobs. */
SSDSIM_API void ssdsim_fio_logs_complete(ssdsim_fio_logs *logs, const ssdsim_completion *c);

/** After a complete run: the last, partial windows of the latency logs (log_avg_msec). */
SSDSIM_API void ssdsim_fio_logs_finish(ssdsim_fio_logs *logs);

/** Free the logs; NULL is accepted. */
SSDSIM_API void ssdsim_fio_logs_free(ssdsim_fio_logs *logs);

#ifdef __cplusplus
}
#endif

#endif /* SSDSIM_MEASURE_H */
