/* ssdsim/validate.h: the write-amplification validation of `ssdsim validate waf` as library
 * functions: the simulated steady-state WAF of a point against the analytic models of
 * ssdsim/theory.h, measured the way doc/validation.md describes.
 *
 * A point is a device built to meet the models' assumptions (one plane of many blocks, the
 * smallest free-block reserve, one write frontier) or to break one of them on purpose, and the
 * traffic it takes (uniform random 4 KiB writes, or hot/cold). ssdsim_validate_point_run fills
 * the device sequentially, warms it up for a number of "trips" (a trip programs every physical
 * page once), measures a further run in batches and returns the WAF, its standard error, its
 * drift and the models' figures at the device's spare factor and at the effective one. The
 * grids the command runs are data: ssdsim_validate_grid_count and ssdsim_validate_grid_get
 * enumerate the points of each section. Every point is independent of the others (its seed
 * derives from the base seed and its label), so callers may run them in any order or in
 * parallel, one simulation each. Nothing here prints; tables and JSON are the caller's.
 *
 * This header is not included by ssdsim/ssdsim.h: include it beside it.
 */
#ifndef SSDSIM_VALIDATE_H
#define SSDSIM_VALIDATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ssdsim/ssdsim.h"

#ifdef __cplusplus
extern "C" {
#endif

/** The sections of the validation (the tables of doc/validation.md). */
typedef enum ssdsim_validate_section {
    SSDSIM_VALIDATE_UNIFORM = 0,  /**< uniform random single-page writes, the models' setting */
    SSDSIM_VALIDATE_HOTCOLD = 1,  /**< 80/20 and 90/10 traffic against Desnoyers' model */
    SSDSIM_VALIDATE_DEVIATION = 2 /**< set-ups that break one of the models' assumptions */
} ssdsim_validate_section;

/** Number of sections (SSDSIM_VALIDATE_UNIFORM .. SSDSIM_VALIDATE_DEVIATION). */
#define SSDSIM_VALIDATE_N_SECTIONS 3

/** Agreement with the model expected where its assumptions hold, in percent: the verdict
 * SSDSIM_VALIDATE_WITHIN means |diff_pct| <= this. */
#define SSDSIM_VALIDATE_TOLERANCE_PCT 2.0

/** Host writes the measuring jobs keep outstanding. The WAF does not depend on it: a mapping
 * changes when a write is placed, not when its program completes. */
#define SSDSIM_VALIDATE_IODEPTH 8

/** Defaults of ssdsim_validate_opts: the device's blocks, warm-up trips and measured batches;
 * and the most batches a run takes. */
#define SSDSIM_VALIDATE_DEFAULT_BLOCKS 4096
#define SSDSIM_VALIDATE_DEFAULT_WARMUP_TRIPS 8
#define SSDSIM_VALIDATE_DEFAULT_BATCHES 8
#define SSDSIM_VALIDATE_MAX_BATCHES 16

/** The name of a section ("uniform", "hotcold", "deviation"), or NULL for a value that is not
 * one. */
SSDSIM_API const char *ssdsim_validate_section_name(ssdsim_validate_section section);

/** The grids and the run lengths. Initialise with SSDSIM_VALIDATE_OPTS_INIT (or zero) for the
 * full grids of `ssdsim validate waf`; NULL means the same. The lists are the caller's and are
 * read only during the call. */
typedef struct ssdsim_validate_opts {
    /** the layout the caller was compiled with: SSDSIM_VALIDATE_OPTS_VERSION (0 = 1) */
    unsigned int version;
    /** the quick grids: one point per policy at b = 64, sf = 0.2 in the uniform section, one
     * hot/cold point and one deviation (8 points in all, `ssdsim validate waf --quick`) */
    bool quick;
    uint32_t n_blocks; /**< blocks of the device, 64 to 1048576; 0 = 4096 */
    /** base seed, below 2^53; a point's seed derives from it and the point's label (the
     * command's default is 1) */
    uint64_t seed;
    /** the uniform section's GC policies: "greedy", "fifo", "random", "d-choices" (d = 2 and
     * d = 10, two points), "d-choices:D", "windowed" (a window of n_blocks / 8 blocks),
     * "windowed:W" (W blocks), "cost-benefit" (no model); D and W from 1 to 1048576. NULL:
     * greedy, fifo, random, d-choices, windowed and cost-benefit (quick: not cost-benefit) */
    const char *const *policies;
    size_t n_policies;
    /** the uniform section's spare factors, (physical - logical) / physical, in (0, 1). NULL:
     * 0.05, 0.1, 0.2, 0.3, 0.5 (quick: 0.2) */
    const double *spare_factors;
    size_t n_spare_factors;
    /** the uniform section's pages per block, 2 to 4096. NULL: 32, 64, 128, 256 (quick: 64) */
    const uint32_t *pages_per_block;
    size_t n_pages_per_block;
    uint32_t warmup_trips; /**< trips of random writes before the measurement; 0 = 8 */
    uint32_t n_batches;    /**< measured batches, 1 to 16; 0 = 8 */
} ssdsim_validate_opts;

/** Layout version of ssdsim_validate_opts (see "Versioned structs" in ssdsim/ssdsim.h): set by
 * SSDSIM_VALIDATE_OPTS_INIT and ssdsim_validate_opts_init. */
#define SSDSIM_VALIDATE_OPTS_VERSION 1
#define SSDSIM_VALIDATE_OPTS_INIT SSDSIM__VERSIONED_INIT(SSDSIM_VALIDATE_OPTS_VERSION)

/** Zero *opts and set its version (0: the current one). @return 0, or SSDSIM_EINVAL (NULL opts,
 * a version newer than the library's). */
SSDSIM_API int ssdsim_validate_opts_init(ssdsim_validate_opts *opts, unsigned int version);

/** One point: the device and the traffic. ssdsim_validate_grid_get fills it; a caller may also
 * build one (ssdsim_validate_point_init, then the fields), e.g. to measure a spare factor or a
 * block size the grids do not hold. */
typedef struct ssdsim_validate_point {
    /** the layout the caller was compiled with: SSDSIM_VALIDATE_POINT_VERSION (0 = 1) */
    unsigned int version;
    ssdsim_validate_section section; /**< which models the point is compared with */
    char label[112]; /**< unique in a grid ("uniform greedy b=64 sf=0.2"); seeds grid points */
    char setup[48];  /**< what the point changes, for tables ("" in the uniform section) */
    char policy[24]; /**< gc.policy: greedy, fifo, random, d-choices, windowed, cost-benefit... */
    double param;    /**< d-choices: d; windowed: the window in blocks; otherwise 0 */
    uint32_t pages_per_block; /**< 2 to 4096 */
    uint32_t n_planes;        /**< planes, each a GC pool of n_blocks / n_planes blocks; 0 = 1 */
    uint32_t n_blocks;        /**< blocks over all planes, a multiple of n_planes */
    double spare_factor;      /**< requested (physical - logical) / physical, in (0, 1) */
    /** gc.free_blocks_min; 0 = 1, the smallest (the FTL raises it to the free blocks GC needs) */
    uint32_t free_blocks_min;
    bool gc_separate;  /**< GC copies to a write frontier of their own (gc.separate) */
    bool hot_cold;     /**< the FTL's hot/cold separation (ftl.hot_cold) */
    double hot_window; /**< ftl.hot_window, used with hot_cold; 0 = 1 */
    /** hot/cold traffic: hot_write_pct % of the writes to hot_space_pct % of the logical space,
     * both from 1 to 99; 0 and 0 = uniform traffic */
    uint32_t hot_write_pct, hot_space_pct;
    uint64_t seed; /**< the simulation's seed */
} ssdsim_validate_point;

/** Layout version of ssdsim_validate_point: set by SSDSIM_VALIDATE_POINT_INIT and
 * ssdsim_validate_point_init. */
#define SSDSIM_VALIDATE_POINT_VERSION 1
#define SSDSIM_VALIDATE_POINT_INIT SSDSIM__VERSIONED_INIT(SSDSIM_VALIDATE_POINT_VERSION)

/** Zero *point and set its version (0: the current one). @return 0, or SSDSIM_EINVAL (NULL
 * point, a version newer than the library's). */
SSDSIM_API int ssdsim_validate_point_init(ssdsim_validate_point *point, unsigned int version);

/** How a point compares with its model. */
typedef enum ssdsim_validate_verdict {
    SSDSIM_VALIDATE_NO_MODEL = 0, /**< no model to compare with (cost-benefit; hot/cold mixed) */
    SSDSIM_VALIDATE_WITHIN = 1,   /**< |diff_pct| <= SSDSIM_VALIDATE_TOLERANCE_PCT */
    SSDSIM_VALIDATE_OUTSIDE = 2,  /**< |diff_pct| > SSDSIM_VALIDATE_TOLERANCE_PCT */
    SSDSIM_VALIDATE_FAILED = 3    /**< the point did not run (status, error) */
} ssdsim_validate_verdict;

/** What a point measured and what the models say. Figures that do not exist (no model, one
 * batch) are NaN; when status is not 0 every figure is NaN, and the page counts are those
 * reached before the failure. */
typedef struct ssdsim_validate_result {
    int status;             /**< 0, or the negative SSDSIM_E* code of the failure */
    char error[240];        /**< why the point failed, one line ("" when it ran) */
    double spare_factor;    /**< the device's (physical - logical) / physical */
    double op;              /**< the device's over-provisioning, (physical - logical) / logical */
    uint64_t logical_pages; /**< L, in 4 KiB pages */
    uint64_t warmup_host_pages; /**< host writes of the warm-up */
    uint64_t batch_host_pages;  /**< host writes of each measured batch */
    uint64_t host_pages;        /**< host pages written over the measured batches */
    uint64_t flash_pages;       /**< flash pages programmed over the measured batches */
    double waf;                 /**< flash_pages / host_pages */
    double waf_stderr;          /**< standard error of the batches' mean WAF */
    /** mean WAF of the second half of the batches minus that of the first half, in percent of
     * the WAF */
    double drift_pct;
    double free_blocks_mean; /**< free blocks of the device, mean of 16 samples per batch */
    /** U: space holding no data beyond the models' one partly written frontier, in blocks: the
     * mean free blocks plus half a block per further write frontier */
    double unused_blocks;
    double spare_factor_eff; /**< spare_factor - unused_blocks / n_blocks */
    char model[64];          /**< the model compared with ("" when none) */
    double waf_model;        /**< the model's WAF at spare_factor */
    double diff_pct;         /**< 100 (waf / waf_model - 1) */
    double waf_model_eff;    /**< the model's WAF at spare_factor_eff */
    double diff_eff_pct;     /**< 100 (waf / waf_model_eff - 1) */
    double hot_spare_share;  /**< hot/cold: the model's optimal share of the spare for hot data */
    /** hot/cold: the same policy's uniform-traffic model ("uniform-traffic greedy"; greedy
     * stands in for cost-benefit), "" elsewhere */
    char reference[32];
    double waf_reference;            /**< the reference model's WAF at spare_factor */
    double diff_reference_pct;       /**< 100 (waf / waf_reference - 1) */
    ssdsim_validate_verdict verdict; /**< waf against waf_model */
} ssdsim_validate_result;

/** The number of points of a section's grid under `opts` (NULL: the defaults).
 * @return 0, or SSDSIM_EINVAL (NULL n, a section that is not one, bad options: `err`, which may
 *         be NULL, then names the field and what was expected). */
SSDSIM_API int ssdsim_validate_grid_count(ssdsim_validate_section section,
                                          const ssdsim_validate_opts *opts, size_t *n,
                                          ssdsim_error *err);

/** Point `i` (from 0) of a section's grid under `opts`, in the order of the tables: label,
 * set-up and seed included. Writes the layout named by out->version (0 = 1).
 * @return 0, SSDSIM_ENOTFOUND (i past the end), or SSDSIM_EINVAL (NULL out, a section that is
 *         not one, bad options, out->version newer than the library's; `err` says why). */
SSDSIM_API int ssdsim_validate_grid_get(ssdsim_validate_point *out, ssdsim_validate_section section,
                                        const ssdsim_validate_opts *opts, size_t i,
                                        ssdsim_error *err);

/** The policy of a point as the tables name it: "d-choices d=2", "windowed w=512", or the
 * policy itself, written to buf (always terminated when len > 0). @return the length of the
 * whole label (as snprintf), or SSDSIM_EINVAL (NULL policy, NULL buf with len > 0). */
SSDSIM_API int ssdsim_validate_policy_label(const char *policy, double param, char *buf,
                                            size_t len);

/** The flash pages a point's run is expected to program (warm-up and batches, at the model's
 * WAF), to start long points first. @return 0, or SSDSIM_EINVAL (NULL argument, a bad point or
 * options). */
SSDSIM_API int ssdsim_validate_point_cost(const ssdsim_validate_point *point,
                                          const ssdsim_validate_opts *opts, double *flash_pages);

/** Run one point: build its device, fill it, warm it up, measure `n_batches` batches and compare
 * the WAF with the models (ssdsim_validate_point_compare). The simulation is the point's own,
 * so points may run in parallel threads. `opts` gives the run lengths (NULL: the defaults).
 * *out is always filled: on failure with the code and a one-line message in out->error.
 * @return out->status: 0, SSDSIM_EINVAL (bad point or options; NULL out gives it without
 *         filling anything), or the code of the step that failed (loading the device,
 *         creating the simulation, running). */
SSDSIM_API int ssdsim_validate_point_run(const ssdsim_validate_point *point,
                                         const ssdsim_validate_opts *opts,
                                         ssdsim_validate_result *out);
SSDSIM_API int ssdsim_validate_point_run_sized(const ssdsim_validate_point *point,
                                               const ssdsim_validate_opts *opts,
                                               ssdsim_validate_result *out, size_t size);
#define ssdsim_validate_point_run(point, opts, out)                                                \
    ssdsim_validate_point_run_sized((point), (opts), (out), sizeof *(out))

/** Fill the comparison fields of *result (unused_blocks, spare_factor_eff, model, waf_model,
 * diff_pct, waf_model_eff, diff_eff_pct, hot_spare_share, reference, waf_reference,
 * diff_reference_pct, verdict) from its measured ones (status, spare_factor, free_blocks_mean,
 * waf) and the point's set-up; ssdsim_validate_point_run ends with it. With a status other than
 * 0 every figure, measured ones included, is set to NaN and the verdict is
 * SSDSIM_VALIDATE_FAILED (the model is still named). @return 0, or SSDSIM_EINVAL (NULL
 * argument, a bad point). */
SSDSIM_API int ssdsim_validate_point_compare(const ssdsim_validate_point *point,
                                             ssdsim_validate_result *result);
SSDSIM_API int ssdsim_validate_point_compare_sized(const ssdsim_validate_point *point,
                                                   ssdsim_validate_result *result, size_t size);
#define ssdsim_validate_point_compare(point, result)                                               \
    ssdsim_validate_point_compare_sized((point), (result), sizeof *(result))

#ifdef __cplusplus
}
#endif

#endif /* SSDSIM_VALIDATE_H */
