/* ssdsim/suite.h: the measurement procedures of the command's suites (`ssdsim suite review`,
 * `snia`, `quick-matrix`, `endurance`, `tenants`, `fdp`, doc/suites.md) as library calls:
 * workloads described by a few fields, sums of latency histograms and the points of their CDFs,
 * the scaled copy a suite's curves run on, the tests of the SNIA Solid State Storage
 * Performance Test Specification, Enterprise (PTS-E): which cells run, in which drive state,
 * rounds until steady, window averages; the end-of-life projection; flows sharing a drive
 * (slowdowns, fairness index) and FDP on against off.
 *
 * Include it beside the umbrella header: `#include <ssdsim/suite.h>` (ssdsim/ssdsim.h does not
 * include it; it includes ssdsim/measure.h and ssdsim/point.h). The functions return figures in
 * structs and errors as SSDSIM_E* codes; on a simulation the message is in ssdsim_errmsg(sim),
 * otherwise in the caller's ssdsim_error. They print nothing: reports (JSON, Markdown, plots)
 * are the caller's.
 * Option structs follow the "Versioned structs" rules of ssdsim.h: start them with their _INIT
 * macro or _init function; result structs are filled up to the caller's size.
 */
#ifndef SSDSIM_SUITE_H
#define SSDSIM_SUITE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ssdsim/measure.h"
#include "ssdsim/point.h"
#include "ssdsim/ssdsim.h"
#include "ssdsim/trace.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------------------------------ */
/* Workloads of a suite                                                                        */

/** A workload as the suites describe it: a fio pattern at `threads` jobs of `qd` outstanding
 * requests, with no run length (the methods set it). SSDSIM_SUITE_WL_INIT sets the version; the
 * strings belong to the caller. */
typedef struct ssdsim_suite_wl {
    /** the layout the caller was compiled with: SSDSIM_SUITE_WL_VERSION (0 = 1) */
    unsigned int version;
    const char *rw;         /**< fio rw: randwrite, randread, randrw, write, read */
    const char *bs;         /**< fio bs, or NULL (4k, or bssplit when that is set) */
    const char *bssplit;    /**< fio bssplit, or NULL */
    int rwmixread;          /**< percent for randrw / rw; -1 when not a mix */
    uint32_t threads;       /**< numjobs */
    uint32_t qd;            /**< iodepth */
    uint64_t region_offset; /**< bytes from the start of the device */
    uint64_t region_size;   /**< bytes; 0 = to the end of the device */
    bool split_region; /**< each job works on its own 1/threads of the region (offset_increment) */
} ssdsim_suite_wl;

/** Layout version of ssdsim_suite_wl: set by SSDSIM_SUITE_WL_INIT and ssdsim_suite_wl_init. */
#define SSDSIM_SUITE_WL_VERSION 1
#define SSDSIM_SUITE_WL_INIT SSDSIM__VERSIONED_INIT(SSDSIM_SUITE_WL_VERSION)

/** Zero *w and set its version (0: the current one). @return 0, or SSDSIM_EINVAL (NULL w, a
 * version newer than the library's). */
SSDSIM_API int ssdsim_suite_wl_init(ssdsim_suite_wl *w, unsigned int version);

/** Fio option `i` (from 0) of `w`, in the order the workload builder takes them: rw, bs or
 * bssplit, rwmixread, numjobs, iodepth, the region (offset, size, offset_increment), and
 * norandommap for random patterns. *key receives its name (a static string), `value` its text,
 * *is_string (may be NULL) whether it is a string (else a number, or `true` for norandommap).
 * @return 0, SSDSIM_ENOTFOUND past the last option, SSDSIM_EINVAL (NULL argument, rw NULL, a
 *         struct of an unknown version), SSDSIM_ERANGE (the value does not fit in `len`). */
SSDSIM_API int ssdsim_suite_wl_option(const ssdsim_suite_wl *w, size_t i, const char **key,
                                      char *value, size_t len, bool *is_string);

/** `w` built with the workload builder (ssdsim_workload_new and ssdsim_workload_set of each
 * option), named "suite workload". @return 0, SSDSIM_EINVAL, or the codes of
 * ssdsim_workload_set; *out NULL on failure and `err` (may be NULL) says why. */
SSDSIM_API int ssdsim_suite_wl_workload(ssdsim_workload **out, const ssdsim_suite_wl *w,
                                        ssdsim_error *err);

/** The share of requests of `w` that write: 1 for write patterns, 1 - rwmixread/100 for mixes
 * (randrw, rw), else 0 (also for NULL). */
SSDSIM_API double ssdsim_suite_wl_write_share(const ssdsim_suite_wl *w);

/* ------------------------------------------------------------------------------------------ */
/* Latency histograms summed over runs                                                         */

/** A latency histogram summed over runs (the buckets of ssdsim_latency_histogram). Opaque. */
typedef struct ssdsim_latency_sum ssdsim_latency_sum;

/** A new, empty sum. @return 0, SSDSIM_EINVAL (NULL out), SSDSIM_ENOMEM. */
SSDSIM_API int ssdsim_latency_sum_new(ssdsim_latency_sum **out);

/** Add the last run's histogram of `op` on `sim`. @return 0 or SSDSIM_EINVAL. */
SSDSIM_API int ssdsim_latency_sum_add_run(ssdsim_latency_sum *sum, const ssdsim *sim,
                                          enum ssdsim_op op);

/** Add the buckets of `src` into `dst`. @return 0 or SSDSIM_EINVAL. */
SSDSIM_API int ssdsim_latency_sum_merge(ssdsim_latency_sum *dst, const ssdsim_latency_sum *src);

/** The buckets (increasing upper edges in ns, and their counts) into the arrays, at most
 * `max`; with max 0 (arrays may be NULL) only the count. @return the number of buckets (0 for
 * NULL). */
SSDSIM_API size_t ssdsim_latency_sum_buckets(const ssdsim_latency_sum *sum, uint64_t *upper_ns,
                                             uint64_t *counts, size_t max);

/** The points of the sum's cumulative distribution that a plot needs (about 200): a bucket is
 * kept when the CDF has grown by half a percent since the last kept one, when the tail
 * (1 - CDF) has crossed a tenth of a decade, and the first and last buckets. lat_ns[i] is the
 * bucket's upper edge, or the largest latency added when the edge lies above it (so the last
 * point is the runs' maximum, not past it), cdf[i] the share of requests at or below it. At
 * most `max` points;
 * with max 0 (arrays may be NULL) only the count. @return the number of points (0 when the sum
 * is empty or NULL). */
SSDSIM_API size_t ssdsim_latency_sum_cdf(const ssdsim_latency_sum *sum, uint64_t *lat_ns,
                                         double *cdf, size_t max);

/** Free a sum; NULL is accepted. */
SSDSIM_API void ssdsim_latency_sum_free(ssdsim_latency_sum *sum);

/* ------------------------------------------------------------------------------------------ */
/* Scaled copies of the suites' curves                                                         */

/** Blocks per plane of the scaled copy a suite's preconditioning curves run on, or 0 to run
 * them on the model itself: `blocks_per_plane` when given (and smaller than the model's), else
 * ssdsim_model_scaled_blocks_per_plane's, but only when that copy is at least 4 times smaller
 * than the model (a copy less than that saves little: the model must then be brought to the same
 * state by fast preconditioning, which runs a scaled copy of its own). 0 for a model that is not
 * a solid-state device, and for NULL. */
SSDSIM_API uint32_t ssdsim_suite_curve_blocks_per_plane(const ssdsim_model *model,
                                                        uint32_t blocks_per_plane);

/* ------------------------------------------------------------------------------------------ */
/* SNIA PTS-E tests                                                                            */

/** The tests of SNIA PTS-E, each on a purged drive (secure erase) after workload-independent
 * preconditioning (2 sequential fills of 128 KiB), then rounds of its cells until its tracking
 * variable is steady (ssdsim_rounds_run with SNIA's rule). */
typedef enum ssdsim_snia_test {
    /** 7 read/write mixes (100/0, 95/5, 65/35, 50/50, 35/65, 5/95, 0/100) x 8 block sizes
     * (1024K, 128K, 64K, 32K, 16K, 8K, 4K, 0.5K), random, 4 threads x 32; tracks the IOPS of
     * 4K 0/100. Round 1 runs on the filled drive and is not judged; the drive is then brought
     * to the steady state of random writes in the block-size mix round 1 wrote. */
    SSDSIM_SNIA_IOPS = 0,
    /** sequential 1024K: a write and a read cell, 1 thread x 32; tracks the write MB/s */
    SSDSIM_SNIA_THROUGHPUT_1024K = 1,
    /** the same at 128K */
    SSDSIM_SNIA_THROUGHPUT_128K = 2,
    /** 3 mixes (100/0, 65/35, 0/100) x 3 block sizes (0.5K, 4K, 8K), random, 1 thread x 1;
     * tracks the mean latency of 4K 0/100; round 1 and the preconditioning after it as in the
     * IOPS test (random writes at 4 threads x 32) */
    SSDSIM_SNIA_LATENCY = 3,
} ssdsim_snia_test;

/** Cells of a test: n_mixes x n_block_sizes, cell m * n_block_sizes + b (throughput: the write
 * cell, then the read cell, of its one block size). @return 0 or SSDSIM_EINVAL (unknown test).
 * Either pointer may be NULL. */
SSDSIM_API int ssdsim_snia_shape(ssdsim_snia_test test, size_t *n_mixes, size_t *n_block_sizes);

/** Cell `cell` of `test`: its workload (version set; strings static), its percent of reads and
 * its block size in bytes (either may be NULL). @return 0 or SSDSIM_EINVAL (unknown test, cell
 * out of range, NULL w). */
SSDSIM_API int ssdsim_snia_cell(ssdsim_snia_test test, size_t cell, ssdsim_suite_wl *w,
                                int *read_percent, uint32_t *block_bytes);

/** Called when the drive has been brought to the steady state of the preconditioning mix after
 * round 1 (the IOPS and latency tests): how, and the mix as a fio bssplit. */
typedef void (*ssdsim_snia_steady_fn)(ssdsim_steady_method how, const char *bssplit,
                                      void *userdata);

/** How the tests run. SSDSIM_SNIA_OPTS_INIT (or zero) gives the defaults. */
typedef struct ssdsim_snia_opts {
    /** the layout the caller was compiled with: SSDSIM_SNIA_OPTS_VERSION (0 = 1) */
    unsigned int version;
    /** window of each cell (ssdsim_rounds_opts.cell_ns); 0 = 1 s */
    uint64_t cell_ns;
    /** rounds the rule judges at most (round 1 of the IOPS and latency tests on top); 0 = 25 */
    uint32_t max_rounds;
    /** blocks per plane of host writes a writing cell must hold; 0 = SSDSIM_SNIA_GC_CYCLES */
    uint32_t gc_cycles;
    /** how the preconditioning after round 1 runs when fast preconditioning is not available
     * (ssdsim_curve_opts; 0 = its defaults) */
    uint32_t rounds_per_drive_write;
    double max_drive_writes;
    ssdsim_rounds_cell_fn on_cell;   /**< after each cell (may be NULL) */
    ssdsim_rounds_round_fn on_round; /**< after each round, before the preconditioning that
                                          follows round 1 (may be NULL) */
    ssdsim_snia_steady_fn on_steady; /**< after that preconditioning (may be NULL) */
    void *userdata;                  /**< passed to the callbacks */
} ssdsim_snia_opts;

/** Blocks per plane of host writes a writing cell holds by default: a cell is averaged over the
 * 5 rounds of the window, so 2 periods of garbage collection each are enough. */
#define SSDSIM_SNIA_GC_CYCLES 2

/** Layout version of ssdsim_snia_opts: set by SSDSIM_SNIA_OPTS_INIT and ssdsim_snia_opts_init. */
#define SSDSIM_SNIA_OPTS_VERSION 1
#define SSDSIM_SNIA_OPTS_INIT SSDSIM__VERSIONED_INIT(SSDSIM_SNIA_OPTS_VERSION)

/** Zero *opts and set its version (0: the current one). @return 0, or SSDSIM_EINVAL. */
SSDSIM_API int ssdsim_snia_opts_init(ssdsim_snia_opts *opts, unsigned int version);

/** The figures of one test run. Opaque; made by ssdsim_snia_run. */
typedef struct ssdsim_snia_result ssdsim_snia_result;

/** Run `test` on `sim`: purge, 2 sequential fills, rounds until steady (with the
 * preconditioning after round 1 of the IOPS and latency tests). *out is freed with
 * ssdsim_snia_free. @return 0, SSDSIM_EINVAL (NULL argument, unknown test, options of an
 * unknown version), a callback's non-zero return, or the codes of ssdsim_secure_erase,
 * ssdsim_precondition_seq_fills, ssdsim_rounds_run and ssdsim_reach_steady; ssdsim_errmsg(sim)
 * says why. *out is NULL on failure. */
SSDSIM_API int ssdsim_snia_run(ssdsim_snia_result **out, ssdsim *sim, ssdsim_snia_test test,
                               const ssdsim_snia_opts *opts);

/** What a test found. Rounds count from 0 (the specification counts from 1). */
typedef struct ssdsim_snia_summary {
    ssdsim_snia_test test;
    size_t n_rounds;             /**< rounds run */
    size_t first, last;          /**< the measurement window: rounds first .. last */
    ssdsim_steady_result steady; /**< the rule's verdict on the window (round = last) */
    /** the preconditioning mix after round 1 (a fio bssplit), "" for the throughput tests */
    char bssplit[128];
} ssdsim_snia_summary;

/** The summary of a test. @return 0 or SSDSIM_EINVAL (NULL argument). */
SSDSIM_API int ssdsim_snia_get_summary(const ssdsim_snia_result *r, ssdsim_snia_summary *out);
SSDSIM_API int ssdsim_snia_get_summary_sized(const ssdsim_snia_result *r, ssdsim_snia_summary *out,
                                             size_t size);
#define ssdsim_snia_get_summary(r, out) ssdsim_snia_get_summary_sized((r), (out), sizeof *(out))

/** The measurement of cell `cell` in round `round`. @return 0 or SSDSIM_EINVAL (NULL argument,
 * out of range). */
SSDSIM_API int ssdsim_snia_get_cell(const ssdsim_snia_result *r, size_t round, size_t cell,
                                    ssdsim_measurement *out);
SSDSIM_API int ssdsim_snia_get_cell_sized(const ssdsim_snia_result *r, size_t round, size_t cell,
                                          ssdsim_measurement *out, size_t size);
#define ssdsim_snia_get_cell(r, round, cell, out)                                                  \
    ssdsim_snia_get_cell_sized((r), (round), (cell), (out), sizeof *(out))

/** One round, over all its cells. */
typedef struct ssdsim_snia_round {
    double track;                    /**< the tracking variable (IOPS, MB/s or us) */
    uint64_t host_bytes_written;     /**< by the round's cells, after their ramps */
    uint64_t host_pages_written;     /**< mapping units of them */
    uint64_t flash_pages_programmed; /**< pages programmed on flash */
    double waf;                      /**< flash / host pages; NaN when nothing was written */
} ssdsim_snia_round;

/** Round `round` of a test. @return 0 or SSDSIM_EINVAL (NULL argument, out of range). */
SSDSIM_API int ssdsim_snia_get_round(const ssdsim_snia_result *r, size_t round,
                                     ssdsim_snia_round *out);
SSDSIM_API int ssdsim_snia_get_round_sized(const ssdsim_snia_result *r, size_t round,
                                           ssdsim_snia_round *out, size_t size);
#define ssdsim_snia_get_round(r, round, out)                                                       \
    ssdsim_snia_get_round_sized((r), (round), (out), sizeof *(out))

/** A cell over the measurement window: rates and percentiles are the averages of its rounds;
 * the mean latency is weighted by requests (NaN when none); the maximum is the window's. */
typedef struct ssdsim_snia_average {
    double iops;
    double bw_mb_s; /**< 10^6 bytes per second */
    double lat_mean_ns, lat_p99_ns, lat_p99_99_ns;
    uint64_t lat_max_ns;
    /* added later: a caller built without them gets the fields above (the size it passes) */
    double lat_stddev_ns; /**< of every request of the window's rounds together */
    uint64_t n_ios;       /**< requests completed in the window's rounds */
} ssdsim_snia_average;

/** Cell `cell` over the measurement window. @return 0 or SSDSIM_EINVAL. */
SSDSIM_API int ssdsim_snia_get_average(const ssdsim_snia_result *r, size_t cell,
                                       ssdsim_snia_average *out);
SSDSIM_API int ssdsim_snia_get_average_sized(const ssdsim_snia_result *r, size_t cell,
                                             ssdsim_snia_average *out, size_t size);
#define ssdsim_snia_get_average(r, cell, out)                                                      \
    ssdsim_snia_get_average_sized((r), (cell), (out), sizeof *(out))

/** The latency histogram of cell `cell` summed over the measurement window: the latency test
 * only (every cell), NULL otherwise. It belongs to `r`. */
SSDSIM_API const ssdsim_latency_sum *ssdsim_snia_window_latency(const ssdsim_snia_result *r,
                                                                size_t cell);

/** Free a result; NULL is accepted. */
SSDSIM_API void ssdsim_snia_free(ssdsim_snia_result *r);

/* ------------------------------------------------------------------------------------------ */
/* The quick matrix                                                                            */

/** The region a test of the quick matrix addresses. The "5 GiB" regions are half the device,
 * rounded down to 4 KiB, on a device smaller than 10 GiB. */
typedef enum ssdsim_quick_region {
    SSDSIM_QUICK_WHOLE = 0,   /**< the whole device */
    SSDSIM_QUICK_FIRST10 = 1, /**< its first 10% (rounded down to 4 KiB) */
    SSDSIM_QUICK_FIRST5G = 2, /**< its first 5 GiB */
    SSDSIM_QUICK_LAST5G = 3,  /**< its last 5 GiB */
} ssdsim_quick_region;

/** One test of the quick matrix: 4 KiB IOPS (sequential and random, read and write, whole device
 * and first 10%) or 128 KiB bandwidth (the same over the first 5 GiB, the last 5 GiB and the
 * whole device), each at SSDSIM_QUICK_N_JOBS job counts of one outstanding request. */
typedef struct ssdsim_quick_test {
    bool iops;  /**< a 4 KiB IOPS test, else a 128 KiB bandwidth test */
    bool seq;   /**< sequential (each job streams through its own part), else random */
    bool write; /**< writes, else reads */
    ssdsim_quick_region region;
} ssdsim_quick_test;

/** Job counts of every test: 1, 4 and 64. */
#define SSDSIM_QUICK_N_JOBS 3

/** Tests of the quick matrix, in the order they run. */
SSDSIM_API size_t ssdsim_quick_n_tests(void);

/** Test `i`. @return 0 or SSDSIM_EINVAL (NULL out, i out of range). */
SSDSIM_API int ssdsim_quick_get_test(size_t i, ssdsim_quick_test *out);
SSDSIM_API int ssdsim_quick_get_test_sized(size_t i, ssdsim_quick_test *out, size_t size);
#define ssdsim_quick_get_test(i, out) ssdsim_quick_get_test_sized((i), (out), sizeof *(out))

/** Jobs of job count `j` (1, 4, 64), 0 when j >= SSDSIM_QUICK_N_JOBS. */
SSDSIM_API uint32_t ssdsim_quick_jobs(size_t j);

/** The workload of test `i` at job count `j` on a volume of `logical_bytes` (version set; the
 * strings static). @return 0 or SSDSIM_EINVAL (out of range, NULL w). */
SSDSIM_API int ssdsim_quick_cell(size_t i, size_t j, uint64_t logical_bytes, ssdsim_suite_wl *w);

/** The drive states of the quick matrix, and the two write-cache settings compared. */
typedef enum ssdsim_quick_state {
    SSDSIM_QUICK_FRESH = 0,     /**< secure-erased before each test that follows a write */
    SSDSIM_QUICK_FULL = 1,      /**< the steady state of 4 KiB random writes (16 x 16) over the
                                     whole drive, or sequential fills (full_fills); the tests
                                     then run in order on it */
    SSDSIM_QUICK_CACHE_ON = 2,  /**< fresh, a copy of the model with buffer.write_cache on */
    SSDSIM_QUICK_CACHE_OFF = 3, /**< the same with it off */
    /* Appended after 1.0. */
    SSDSIM_QUICK_CACHE_ON_FULL = 4,  /**< that copy (cache on) then written full as
                                          SSDSIM_QUICK_FULL is, its job counts run in order
                                          on it with the idle time between */
    SSDSIM_QUICK_CACHE_OFF_FULL = 5, /**< the same with the cache off */
} ssdsim_quick_state;

/** What a model's write buffer makes of the host's write-cache setting. */
typedef enum ssdsim_write_buffer {
    SSDSIM_WRITE_BUFFER_NONE = 0,     /**< no buffer (a disk without cache, or a system of
                                           devices): every write completes once on the media */
    SSDSIM_WRITE_BUFFER_PLP = 1,      /**< power-loss protected: acknowledged from DRAM always */
    SSDSIM_WRITE_BUFFER_VOLATILE = 2, /**< volatile: the setting decides (compared): an SSD's
                                           buffer without buffer.plp, or a hard disk's cache
                                           (hdd.cache above 0) */
} ssdsim_write_buffer;

/** The write buffer of `model` (NONE for NULL). */
SSDSIM_API ssdsim_write_buffer ssdsim_model_write_buffer(const ssdsim_model *model);

/** The model key of the host's write-cache setting of `model`: "buffer.write_cache" for a
 * solid-state device, "hdd.write_cache" for a hard disk, NULL for a system or NULL. */
SSDSIM_API const char *ssdsim_model_write_cache_key(const ssdsim_model *model);

/** Called before a state's tests (and before the preparation of SSDSIM_QUICK_FULL). */
typedef void (*ssdsim_quick_state_fn)(ssdsim_quick_state state, void *userdata);

/** Called after each measured cell (state, test, job count), while the simulation that ran it
 * still holds its statistics; a non-zero return stops the matrix and is returned. */
typedef int (*ssdsim_quick_cell_fn)(ssdsim_quick_state state, size_t test, size_t j,
                                    const ssdsim_measurement *m, void *userdata);

/** How the quick matrix runs. SSDSIM_QUICK_OPTS_INIT (or zero) gives the defaults. */
typedef struct ssdsim_quick_opts {
    /** the layout the caller was compiled with: SSDSIM_QUICK_OPTS_VERSION (0 = 1) */
    unsigned int version;
    /** window of a cell, at most test_ns (the tests' length): ssdsim_measure with until_steady,
     * 20 blocks per plane of host writes; 0 = test_ns */
    uint64_t window_ns;
    /** simulated idle time after every cell (ssdsim_idle); 0 = none */
    uint64_t idle_ns;
    /** how the written-full state is reached when fast preconditioning is not available
     * (ssdsim_curve_opts; 0 = its defaults) */
    uint32_t rounds_per_drive_write;
    double max_drive_writes;
    /** seed of the simulations of the write-cache comparison */
    uint64_t seed;
    /** their progress callback (ssdsim_set_progress); NULL = none */
    ssdsim_progress_fn progress;
    void *progress_userdata;
    ssdsim_quick_state_fn on_state;  /**< may be NULL */
    ssdsim_snia_steady_fn on_steady; /**< after the written-full state was reached (bssplit
                                          NULL); may be NULL */
    ssdsim_quick_cell_fn on_cell;    /**< may be NULL */
    void *userdata;                  /**< passed to on_state, on_steady and on_cell */
    /* Appended in version 2. */
    /** length of a test, the procedure's "at most 60 s"; 0 = 60 s. A test that writes runs it
     * whole, from its first request (ssdsim_measure_opts.fixed_length), on the written-full
     * drive always (it may use up the free blocks the idle time before it gave back, and its
     * writes carry into the next test), and on the fresh drive when its window's writes,
     * continued for test_ns, could reach garbage collection or fill the SLC cache; every other
     * cell is measured over window_ns (at most test_ns). */
    uint64_t test_ns;
    /** how the written-full state is reached: 0, the steady state of 4 KiB random writes over
     * the whole drive (16 x 16; the worst case for random writes); N > 0, N sequential fills of
     * the whole drive (ssdsim_precondition_seq_fills: "written full several times" read
     * literally, its layout sequential) */
    uint32_t full_fills;
} ssdsim_quick_opts;

/** Layout version of ssdsim_quick_opts: set by SSDSIM_QUICK_OPTS_INIT and ssdsim_quick_opts_init.
 */
#define SSDSIM_QUICK_OPTS_VERSION 2
#define SSDSIM_QUICK_OPTS_INIT SSDSIM__VERSIONED_INIT(SSDSIM_QUICK_OPTS_VERSION)

/** Zero *opts and set its version (0: the current one). @return 0, or SSDSIM_EINVAL. */
SSDSIM_API int ssdsim_quick_opts_init(ssdsim_quick_opts *opts, unsigned int version);

/** The figures of a quick matrix. Opaque; made by ssdsim_quick_run. */
typedef struct ssdsim_quick_result ssdsim_quick_result;

/** Run the quick matrix on `sim` (a simulation of `model`): every test at every job count,
 * fresh and then written full (a hard disk: fresh only, ssdsim_quick_summary.one_state), and,
 * when the model's write buffer (a disk's cache) is volatile, the 4 KiB random write test with
 * the write cache on and off (ssdsim_model_write_cache_key; new simulations of copies of
 * `model`), on a fresh drive and then on the drive written full. *out is freed with ssdsim_quick_free. @return 0, SSDSIM_EINVAL (NULL argument,
 * options of an unknown version), a callback's non-zero return, or the codes of
 * ssdsim_secure_erase, ssdsim_reach_steady, ssdsim_measure, ssdsim_idle and ssdsim_new;
 * ssdsim_errmsg(sim) says why. *out is NULL on failure. */
SSDSIM_API int ssdsim_quick_run(ssdsim_quick_result **out, ssdsim *sim, const ssdsim_model *model,
                                const ssdsim_quick_opts *opts);

/** What the matrix was run with. */
typedef struct ssdsim_quick_summary {
    uint64_t window_ns;         /**< the window of a cell (at most test_ns) */
    uint64_t logical_bytes;     /**< the volume the regions are parts of */
    bool regions_5gib;          /**< the "5 GiB" regions are 5 GiB (else half the device) */
    ssdsim_write_buffer buffer; /**< the model's write buffer */
    bool cache_compared;        /**< the write-cache states ran */
    size_t cache_test;          /**< the test they ran: 4 KiB random writes, whole device */
    /* Appended after 1.0. */
    uint64_t test_ns; /**< the length of a test (ssdsim_quick_opts.test_ns); a cell measured
                           over it whole has ramp_ns 0 and window_ns test_ns */
    uint32_t full_fills; /**< the written-full state (ssdsim_quick_opts.full_fills) */
    /** a hard disk: writing changes no state of it, so the matrix ran the fresh state only
     * and the written-full cells (SSDSIM_QUICK_FULL, and the write cache's _ON_FULL and
     * _OFF_FULL) are the fresh ones; every cell was measured over a window, none whole */
    bool one_state;
} ssdsim_quick_summary;

/** The summary of a matrix. @return 0 or SSDSIM_EINVAL. */
SSDSIM_API int ssdsim_quick_get_summary(const ssdsim_quick_result *r, ssdsim_quick_summary *out);
SSDSIM_API int ssdsim_quick_get_summary_sized(const ssdsim_quick_result *r,
                                              ssdsim_quick_summary *out, size_t size);
#define ssdsim_quick_get_summary(r, out) ssdsim_quick_get_summary_sized((r), (out), sizeof *(out))

/** The measurement of test `test` at job count `j` in `state` (the write-cache states: of
 * cache_test only, when compared). @return 0 or SSDSIM_EINVAL (NULL argument, out of range, a
 * cell that did not run). */
SSDSIM_API int ssdsim_quick_get_cell(const ssdsim_quick_result *r, ssdsim_quick_state state,
                                     size_t test, size_t j, ssdsim_measurement *out);
SSDSIM_API int ssdsim_quick_get_cell_sized(const ssdsim_quick_result *r, ssdsim_quick_state state,
                                           size_t test, size_t j, ssdsim_measurement *out,
                                           size_t size);
#define ssdsim_quick_get_cell(r, state, test, j, out)                                              \
    ssdsim_quick_get_cell_sized((r), (state), (test), (j), (out), sizeof *(out))

/** The latency histogram (ssdsim_latency_histogram of the cell's last run) of the random 4 KiB
 * whole-device tests at 64 jobs, fresh and written full; NULL for other cells. It belongs to
 * `r`. */
SSDSIM_API const ssdsim_latency_sum *ssdsim_quick_latency(const ssdsim_quick_result *r,
                                                          ssdsim_quick_state state, size_t test);

/** Free a result; NULL is accepted. */
SSDSIM_API void ssdsim_quick_free(ssdsim_quick_result *r);

/* ------------------------------------------------------------------------------------------ */
/* The review                                                                                  */

/** Profiles of the review (4K random write, 8K 70/30, file server, web server). */
#define SSDSIM_REVIEW_N_PROFILES 4

/** Profile `i`: its id ("4k-random-write"), title ("4K random write"), the workload of its
 * preconditioning curve and the one its matrix measures (threads and qd set per point), each
 * at 16 threads x 16 (either pointer may be NULL; strings static). @return 0 or SSDSIM_EINVAL. */
SSDSIM_API int ssdsim_review_profile(size_t i, const char **id, const char **title,
                                     ssdsim_suite_wl *precondition, ssdsim_suite_wl *measure);

/** Points of a profile's thread/queue matrix: threads x queue depth of 2, 4, 8, 16 each. */
#define SSDSIM_REVIEW_N_POINTS 16

/** Point `i` of the matrix, in the labs' order 2T/2Q, 2T/4Q, ... 16T/16Q: *threads and *qd.
 * @return 0 or SSDSIM_EINVAL (i out of range, NULL argument). */
SSDSIM_API int ssdsim_review_point(size_t i, uint32_t *threads, uint32_t *qd);

/** Called after each point of a matrix, while the simulation holds its statistics; a non-zero
 * return stops the matrix and is returned. */
typedef int (*ssdsim_review_point_fn)(size_t point, const ssdsim_measurement *m, void *userdata);

/** Measure the matrix of `measure` on `sim` as it is: each point (ssdsim_review_point) with
 * ssdsim_measure for at most window_ns, stopping once the IOPS are steady, 20 blocks per plane
 * of host writes for a writing workload; out[SSDSIM_REVIEW_N_POINTS]. on_point may be NULL.
 * @return 0, SSDSIM_EINVAL, a callback's return, or the codes of ssdsim_measure. */
SSDSIM_API int ssdsim_review_matrix(ssdsim *sim, const ssdsim_suite_wl *measure, uint64_t window_ns,
                                    ssdsim_measurement *out, ssdsim_review_point_fn on_point,
                                    void *userdata);

/** A drive of the review, in one formatting mode: a copy of the model (its over-provisioning
 * raised by add_op), a simulation of it, and one of the scaled copy its curves run on when the
 * model is large (ssdsim_suite_curve_blocks_per_plane). Opaque. */
typedef struct ssdsim_review_drive ssdsim_review_drive;

/** How a review drive is made. SSDSIM_REVIEW_DRIVE_OPTS_INIT (or zero) gives the defaults. */
typedef struct ssdsim_review_drive_opts {
    /** the layout the caller was compiled with: SSDSIM_REVIEW_DRIVE_OPTS_VERSION (0 = 1) */
    unsigned int version;
    /** over-provisioning added (ftl.op = the op the drive reports + add_op, to 6 significant
     * digits); 0 = the model as it is */
    double add_op;
    /** blocks per plane of the curves' scaled copy (0 = the rule of
     * ssdsim_suite_curve_blocks_per_plane) */
    uint32_t curve_blocks_per_plane;
    bool curve_full;             /**< run the curves on the model itself */
    uint64_t seed;               /**< of both simulations */
    ssdsim_progress_fn progress; /**< their progress callback; NULL = none */
    void *progress_userdata;
} ssdsim_review_drive_opts;

/** Layout version of ssdsim_review_drive_opts: set by SSDSIM_REVIEW_DRIVE_OPTS_INIT and
 * ssdsim_review_drive_opts_init. */
#define SSDSIM_REVIEW_DRIVE_OPTS_VERSION 1
#define SSDSIM_REVIEW_DRIVE_OPTS_INIT SSDSIM__VERSIONED_INIT(SSDSIM_REVIEW_DRIVE_OPTS_VERSION)

/** Zero *opts and set its version (0: the current one). @return 0, or SSDSIM_EINVAL. */
SSDSIM_API int ssdsim_review_drive_opts_init(ssdsim_review_drive_opts *opts, unsigned int version);

/** Make a review drive of `model`. @return 0, SSDSIM_EINVAL (NULL argument, add_op negative or
 * not finite, options of an unknown version), or the codes of ssdsim_model_set_double, ssdsim_new
 * and ssdsim_model_scaled_copy; *out NULL on failure and `err` (may be NULL) says why. */
SSDSIM_API int ssdsim_review_drive_new(ssdsim_review_drive **out, const ssdsim_model *model,
                                       const ssdsim_review_drive_opts *opts, ssdsim_error *err);

/** The drive's model, its simulation, and that of the scaled copy (NULL when the curves run on
 * the drive itself); they belong to the drive. NULL for NULL. */
SSDSIM_API const ssdsim_model *ssdsim_review_drive_model(const ssdsim_review_drive *d);
SSDSIM_API ssdsim *ssdsim_review_drive_sim(const ssdsim_review_drive *d);
SSDSIM_API ssdsim *ssdsim_review_drive_copy(const ssdsim_review_drive *d);

/** Free a drive and its simulations; NULL is accepted. */
SSDSIM_API void ssdsim_review_drive_free(ssdsim_review_drive *d);

/* ------------------------------------------------------------------------------------------ */
/* End-of-life projection                                                                      */

/** How the end of life is projected (ssdsim_eol_project). SSDSIM_EOL_OPTS_INIT (or zero) then
 * the workload's measured WAF. */
typedef struct ssdsim_eol_opts {
    /** the layout the caller was compiled with: SSDSIM_EOL_OPTS_VERSION (0 = 1) */
    unsigned int version;
    double waf;            /**< the workload's WAF, measured (required, above 0) */
    double target_uber;    /**< the UBER the drive must stay under; 0 = 1e-15 (client) */
    double life_years;     /**< the service life drive writes per day are spread over; 0 = 5 */
    double retention_days; /**< age of the data when read, in days (0: fresh) */
    double max_pe;         /**< largest P/E count searched; 0 = 100 x rated (or 1e6) */
} ssdsim_eol_opts;

/** Layout version of ssdsim_eol_opts: set by SSDSIM_EOL_OPTS_INIT and ssdsim_eol_opts_init. */
#define SSDSIM_EOL_OPTS_VERSION 1
#define SSDSIM_EOL_OPTS_INIT SSDSIM__VERSIONED_INIT(SSDSIM_EOL_OPTS_VERSION)

/** Zero *o and set its version (0: the current one). @return 0 or SSDSIM_EINVAL. */
SSDSIM_API int ssdsim_eol_opts_init(ssdsim_eol_opts *o, unsigned int version);

/** The projection: three ends of life in P/E cycles of every block, host bytes
 * (cycles x physical bytes / WAF) and drive writes per day over the life (host bytes / logical
 * bytes / 365.25 / life_years). */
typedef struct ssdsim_eol {
    double waf, target_uber, life_years, retention_days;
    uint64_t physical_bytes, logical_bytes;
    /** rated: flash.rated_pe_cycles x physical bytes / WAF */
    double rated_pe, rated_host_bytes, rated_dwpd;
    /** the first unrecoverable read at the target UBER: the P/E count at which the model's
     * UBER (codewords failing hard decision, every retry and soft decoding, per data bit,
     * averaged over the blocks' variation, no read disturb) reaches target_uber */
    bool uber_reached;     /**< false: not below max_pe (the figures below are 0) */
    double uber_pe, uber_host_bytes, uber_dwpd;
    double uber_rber;      /**< the mean block's RBER there */
    double uber_at_rated;  /**< the model's UBER at the rated cycles */
    /** read-only: the expected grown bad blocks (reliability.grown_prob_rated, every good block
     * cycled evenly) leave fewer good pages than the FTL needs */
    bool ro_modelled;      /**< the model has grown bad blocks */
    bool ro_reached;       /**< false: not below max_pe */
    double ro_pe, ro_host_bytes, ro_dwpd; /**< host bytes: the erases of the surviving blocks */
    uint64_t ro_spare_blocks; /**< good blocks beyond the FTL's need at the start */
} ssdsim_eol;

/** The UBER of model-sim `sim`'s reliability section at `pe` P/E cycles and data `days` old (as
 * ssdsim_eol.uber_*). @return it, or NaN (NULL sim, no bit errors, not one device). */
SSDSIM_API double ssdsim_eol_uber(const ssdsim *sim, double pe, double days);

/** Project the end of life of the (one) device of `sim` under options `o` (doc/suites.md,
 * "End-of-life projection"). Needs bit errors (reliability.rber_model not "off"); reads the model
 * and the FTL's needs, never runs the simulation. @return 0, SSDSIM_EINVAL (NULL argument, an
 * option out of range, no bit errors, a system) with `err` (may be NULL) saying why. */
SSDSIM_API int ssdsim_eol_project_sized(const ssdsim *sim, const ssdsim_eol_opts *o,
                                        ssdsim_eol *out, size_t size, ssdsim_error *err);
#define ssdsim_eol_project(sim, o, out, err)                                                       \
    ssdsim_eol_project_sized((sim), (o), (out), sizeof *(out), (err))

/** The acceleration's error (ssdsim_eol_accel_check): at each of `n_pe` wear points, a drive worn
 * by timed runs of `wear` against one worn at once. SSDSIM_EOL_ACCEL_OPTS_INIT (or zero). */
typedef struct ssdsim_eol_accel_opts {
    /** the layout the caller was compiled with: SSDSIM_EOL_ACCEL_OPTS_VERSION (0 = 1) */
    unsigned int version;
    const uint32_t *pe;             /**< mean P/E cycles of the points, rising (caller's) */
    size_t n_pe;                    /**< 1 to 64 */
    const ssdsim_workload *wear;    /**< the timed wear; NULL: 4 KiB random writes, QD32 */
    const ssdsim_workload *measure; /**< measured at each point (required) */
    double chunk_drive_writes;      /**< timed wear per run; 0 = 0.5 drive writes */
} ssdsim_eol_accel_opts;

/** Layout version of ssdsim_eol_accel_opts. */
#define SSDSIM_EOL_ACCEL_OPTS_VERSION 1
#define SSDSIM_EOL_ACCEL_OPTS_INIT SSDSIM__VERSIONED_INIT(SSDSIM_EOL_ACCEL_OPTS_VERSION)

/** One point of ssdsim_eol_accel_check: the timed drive's figures and the accelerated one's. */
typedef struct ssdsim_eol_accel_point {
    double pe_timed;           /**< the timed drive's mean erase count when measured */
    double drive_writes_timed; /**< host drive writes of timed wear it took to get there */
    uint32_t pe_accel;         /**< cycles ssdsim_wear added to the accelerated drive */
    double pe_accel_mean;      /**< the accelerated drive's mean erase count when measured */
    double waf_timed, waf_accel;   /**< the measured workload's WAF */
    double rber_timed, rber_accel; /**< its mean RBER */
    double uber_timed, uber_accel; /**< its UBER */
    uint64_t uncorrectable_timed, uncorrectable_accel;
} ssdsim_eol_accel_point;

/** Measure the acceleration's error on `model` (small: the timed drive writes it P/E by P/E)
 * with `seed`. Timed: one drive written once sequentially (fast-forward), then `wear` run in
 * chunks until its mean erase count reaches each point, where `measure` runs. Accelerated, per
 * point: a fresh drive written once sequentially (fast-forward), ssdsim_wear of the cycles that
 * bring its mean erase count to the timed drive's, then `measure`. `out` gets n_pe points.
 * @return 0, SSDSIM_EINVAL (bad options, a model without bit errors), or a run's code, with
 * `err` (may be NULL) saying why. */
SSDSIM_API int ssdsim_eol_accel_check_sized(const ssdsim_model *model, uint64_t seed,
                                            const ssdsim_eol_accel_opts *o,
                                            ssdsim_eol_accel_point *out, size_t size,
                                            ssdsim_error *err);
#define ssdsim_eol_accel_check(model, seed, o, out, err)                                           \
    ssdsim_eol_accel_check_sized((model), (seed), (o), (out), sizeof *(out), (err))

/* ------------------------------------------------------------------------------------------ */
/* Endurance: errors and latency against wear                                                  */

/** The points of the endurance suite (`ssdsim suite endurance`) as fractions of the rated P/E
 * cycles (flash.rated_pe_cycles): 0 to 2 in eighths of the span, or with `quick` 0, 1 and 2.
 * *fractions (may be NULL) receives a static array. @return the number of points. */
SSDSIM_API size_t ssdsim_endurance_points(bool quick, const double **fractions);

/** The model the endurance points run on: a copy of `model` with bit errors, its
 * reliability.rber_model set to "cell" (its cell type's defaults) when it is "off" or absent;
 * *defaults (may be NULL) says whether that was done. @return 0, SSDSIM_EINVAL (NULL
 * argument), or the codes of ssdsim_model_copy and ssdsim_model_set; *out NULL on failure. */
SSDSIM_API int ssdsim_endurance_model(ssdsim_model **out, const ssdsim_model *model,
                                      bool *defaults, ssdsim_error *err);

/** How a point runs. SSDSIM_ENDURANCE_OPTS_INIT (or zero): fresh data, seed 0. */
typedef struct ssdsim_endurance_opts {
    /** the layout the caller was compiled with: SSDSIM_ENDURANCE_OPTS_VERSION (0 = 1) */
    unsigned int version;
    double age_days;             /**< the data's retention age at the point (ssdsim_age) */
    uint64_t seed;               /**< of the simulation */
    ssdsim_progress_fn progress; /**< installed on the simulation (may be NULL) */
    void *progress_userdata;
} ssdsim_endurance_opts;

/** Layout version of ssdsim_endurance_opts: set by SSDSIM_ENDURANCE_OPTS_INIT. */
#define SSDSIM_ENDURANCE_OPTS_VERSION 1
#define SSDSIM_ENDURANCE_OPTS_INIT SSDSIM__VERSIONED_INIT(SSDSIM_ENDURANCE_OPTS_VERSION)

/** The figures of one point, after its workload. */
typedef struct ssdsim_endurance_point {
    uint32_t pe;                     /**< P/E cycles every block was worn to */
    ssdsim_reliability_stats rel;    /**< bit errors, retries, soft decoding, UBER */
    ssdsim_op_stats read, all;       /**< the workload's reads, and all its requests */
    ssdsim_device_stats device;      /**< WAF and the device's counters */
} ssdsim_endurance_point;

/** One point: a new simulation of `model` filled once sequentially (fast-forward), every block
 * worn `pe` P/E cycles at once (ssdsim_wear), the data aged age_days (ssdsim_age), then `wl`
 * run. @return 0, SSDSIM_EINVAL (NULL argument, options of an unknown version, a negative age),
 * or the codes of ssdsim_new and the steps; `err` (may be NULL) says "at PE P/E cycles: why". */
SSDSIM_API int ssdsim_endurance_point_run_sized(const ssdsim_model *model, uint32_t pe,
                                                const ssdsim_workload *wl,
                                                const ssdsim_endurance_opts *opts,
                                                ssdsim_endurance_point *out, size_t size,
                                                ssdsim_error *err);
#define ssdsim_endurance_point_run(model, pe, wl, opts, out, err)                                  \
    ssdsim_endurance_point_run_sized((model), (pe), (wl), (opts), (out), sizeof *(out), (err))

/** The 4 points of the acceleration check up to `top` P/E cycles (`--accel-check TOP`): a
 * quarter, a half and three quarters of it, and `top`, each above the one before (top >= 4).
 * @return 0, or SSDSIM_EINVAL (NULL pe, top under 4). */
SSDSIM_API int ssdsim_endurance_accel_points(uint32_t top, uint32_t pe[4]);

/** Where the projection's WAF comes from (ssdsim_endurance_waf). */
typedef enum ssdsim_endurance_waf_from {
    SSDSIM_ENDURANCE_WAF_POINTS = 0,  /**< the mean of the points that measured one */
    SSDSIM_ENDURANCE_WAF_TIMED = 1,   /**< the timed drive of the acceleration check */
    SSDSIM_ENDURANCE_WAF_ASSUMED = 2  /**< none measured: 1 */
} ssdsim_endurance_waf_from;

/** The WAF the end-of-life projection uses: `timed_waf` when above 0 (the mean of the
 * acceleration check's timed drive), else the mean over the `n` points that measured one above
 * 0 of their flash wear per host byte (device.wear_factor: their WAF but where pages are padded,
 * written in SLC mode, in zones below their size or in units larger than the writes; their WAF
 * from a caller of an older layout), else 1. *from (may be NULL) says which. */
SSDSIM_API double ssdsim_endurance_waf(const ssdsim_endurance_point *points, size_t n,
                                       double timed_waf, ssdsim_endurance_waf_from *from);

/* ------------------------------------------------------------------------------------------ */
/* Flows sharing a drive: slowdowns and the fairness index                                     */

/** A flow (one job section of a workload, reported alone) in a shared run, and the same flow
 * run alone on a fresh copy of the device. As MQSim does (Tavakkol et al., "MQSim: A Framework
 * for Enabling Realistic Studies of Modern Multi-Queue SSD Devices", FAST 2018), its slowdown
 * is its mean response time shared / alone. */
typedef struct ssdsim_flow {
    ssdsim_op_stats shared; /**< the flow's figures in the shared run (all operations) */
    ssdsim_op_stats alone;  /**< and alone */
    double slowdown;        /**< shared.lat_mean_ns / alone.lat_mean_ns */
} ssdsim_flow;

/** How the flows run. SSDSIM_FLOWS_OPTS_INIT, then `point` at least. */
typedef struct ssdsim_flows_opts {
    /** the layout the caller was compiled with: SSDSIM_FLOWS_OPTS_VERSION (0 = 1) */
    unsigned int version;
    /** seed, preconditioning and measured-run options of every run (ssdsim_point_new,
     * ssdsim_point_precondition with the whole workload, ssdsim_point_measure); its overrides
     * are not applied (the model and workload are taken as they are). Required. */
    const ssdsim_point_opts *point;
    ssdsim_progress_fn progress; /**< installed on every simulation made (may be NULL) */
    void *progress_userdata;
    /** (version 2) what every run's drive goes through after its preconditioning and before
     * its measured run (ssdsim_point_prepare: wear, retention age, faults), the shared run's
     * (ssdsim_flows_run) and each alone run's alike, so that a flow alone meets the drive the
     * shared run met; NULL: nothing. */
    const ssdsim_point_state *state;
} ssdsim_flows_opts;

/** Layout version of ssdsim_flows_opts: set by SSDSIM_FLOWS_OPTS_INIT and
 * ssdsim_flows_opts_init. */
#define SSDSIM_FLOWS_OPTS_VERSION 2
#define SSDSIM_FLOWS_OPTS_INIT SSDSIM__VERSIONED_INIT(SSDSIM_FLOWS_OPTS_VERSION)

/** Zero *opts and set its version (0: the current one). @return 0, or SSDSIM_EINVAL. */
SSDSIM_API int ssdsim_flows_opts_init(ssdsim_flows_opts *opts, unsigned int version);

/** Each flow of `wl` alone, after the shared run `shared` (a simulation that ran `wl`): flow i
 * gets its figures of `shared` (ssdsim_get_job_op_stats), then runs on a new simulation of
 * `model` (the point's seed and preconditioning, then the options' `state`, which should be
 * the one `shared` was brought to) with a copy of `wl` in which every other job
 * issues nothing (ssdsim_workload_keep_job: the flow keeps its random stream and its NVMe
 * queue). `out` has room for `n` flows of `size` bytes each (the _sized rule); it must hold
 * ssdsim_workload_n_jobs(wl). *fairness (may be NULL) receives the fairness index: the
 * smallest slowdown / the largest (1: every flow slowed down alike; NaN on failure). *failed
 * (may be NULL) receives the flow that failed.
 * @return 0; SSDSIM_EINVAL (NULL argument, options of an unknown version, fewer than two job
 *         sections, or not one reported job per section: numjobs > 1 without group_reporting,
 *         group_reporting across sections), SSDSIM_ERANGE (`n` too small), SSDSIM_ESTATE (a flow
 *         completed no I/O), or the code of a failing run; `err` (may be NULL) says why
 *         ("job 'NAME' alone: ..."). */
SSDSIM_API int ssdsim_flows_alone_sized(const ssdsim *shared, const ssdsim_model *model,
                                        const ssdsim_workload *wl, const ssdsim_flows_opts *opts,
                                        ssdsim_flow *out, size_t n, size_t size,
                                        double *fairness, size_t *failed, ssdsim_error *err);
#define ssdsim_flows_alone(shared, model, wl, opts, out, n, fairness, failed, err)                 \
    ssdsim_flows_alone_sized((shared), (model), (wl), (opts), (out), (n), sizeof *(out),           \
                             (fairness), (failed), (err))

/** The shared run of `wl` on a new simulation of `model` (the point's seed, preconditioning, the
 * options' `state` and measured run), then ssdsim_flows_alone. @return as ssdsim_flows_alone;
 * a failing shared run is said as "shared run: ...". */
SSDSIM_API int ssdsim_flows_run_sized(const ssdsim_model *model, const ssdsim_workload *wl,
                                      const ssdsim_flows_opts *opts, ssdsim_flow *out, size_t n,
                                      size_t size, double *fairness, size_t *failed,
                                      ssdsim_error *err);
#define ssdsim_flows_run(model, wl, opts, out, n, fairness, failed, err)                           \
    ssdsim_flows_run_sized((model), (wl), (opts), (out), (n), sizeof *(out), (fairness),         \
                           (failed), (err))

/** The drain tail of flow (reported job) `i` in the shared run `shared`: the part of its window
 * that came after the first flow to end had ended, (end_i - min end) / (end_i - start_i), from
 * ssdsim_get_job (a job's window ends when its last request completes, not when it stops
 * issuing); 0 for the first flow to end. A flow's shared figures (ssdsim_flow.shared) are over
 * its whole window, so a large tail, in which it ran without the others (a writer's queue
 * draining long after the reader stopped), weighs on them: its IOPS are then not those of the
 * flows competing. *fraction receives it (NaN on failure).
 * @return 0, or SSDSIM_EINVAL (NULL argument, no reported job i, a job of an empty window). */
SSDSIM_API int ssdsim_flows_tail(const ssdsim *shared, size_t i, double *fraction);

/** The drain tail (ssdsim_flows_tail) above which `ssdsim run --fairness` and the tenants suite
 * warn that a flow's shared figures are not those of the flows competing. */
#define SSDSIM_FLOWS_TAIL_WARN 0.1

/** The tenants suite (`ssdsim suite tenants`): two tenants share a drive through NVMe queues, a
 * 4 KiB random-write tenant ("writer", queue 1) and a 4 KiB random-read tenant ("reader",
 * queue 0), each at ssdsim_tenants_qd outstanding requests, run together for runtime_ns on a
 * sequentially filled drive, then each alone (ssdsim_flows_run). */
#define SSDSIM_TENANTS_N 2

/** Weighted round robin: the reader's queue is of the high class with this weight, the
 * writer's of the low class with weight 1. */
#define SSDSIM_TENANTS_WRR_WEIGHT 4

/** The arbitration of the tenants' run: nvme.arbitration "rr", or "wrr" with the classes and
 * weights above. */
typedef enum ssdsim_tenants_arbitration {
    SSDSIM_TENANTS_RR = 0,
    SSDSIM_TENANTS_WRR = 1
} ssdsim_tenants_arbitration;

/** How the tenants run. SSDSIM_TENANTS_OPTS_INIT, then runtime_ns. */
typedef struct ssdsim_tenants_opts {
    /** the layout the caller was compiled with: SSDSIM_TENANTS_OPTS_VERSION (0 = 1) */
    unsigned int version;
    uint64_t runtime_ns;         /**< of each run, together and alone (required, whole us) */
    uint64_t seed;               /**< of every simulation */
    ssdsim_progress_fn progress; /**< installed on every simulation made (may be NULL) */
    void *progress_userdata;
} ssdsim_tenants_opts;

/** Layout version of ssdsim_tenants_opts: set by SSDSIM_TENANTS_OPTS_INIT and
 * ssdsim_tenants_opts_init. */
#define SSDSIM_TENANTS_OPTS_VERSION 1
#define SSDSIM_TENANTS_OPTS_INIT SSDSIM__VERSIONED_INIT(SSDSIM_TENANTS_OPTS_VERSION)

/** Zero *opts and set its version (0: the current one). @return 0, or SSDSIM_EINVAL. */
SSDSIM_API int ssdsim_tenants_opts_init(ssdsim_tenants_opts *opts, unsigned int version);

/** What one arbitration gave: flows[0] the writer, flows[1] the reader. The shared figures are
 * over each tenant's own window, which ends when its last request completes: the tenant whose
 * queue drains last (often the writer, behind garbage collection and its write buffer) has a
 * tail in which it ran alone (`tail`), so the ratio of their IOPS is the arbitration's ratio
 * only while both queues stay full, i.e. when both tails are small. */
typedef struct ssdsim_tenants {
    uint32_t qd; /**< each tenant's queue depth (ssdsim_tenants_qd) */
    ssdsim_flow flows[SSDSIM_TENANTS_N];
    double fairness; /**< the fairness index of the two (ssdsim_flows_run) */
    /** (appended) each tenant's drain tail in the shared run (ssdsim_flows_tail): above
     * SSDSIM_FLOWS_TAIL_WARN its shared figures are not those of both tenants competing */
    double tail[SSDSIM_TENANTS_N];
} ssdsim_tenants;

/** Each tenant's queue depth on `model`: the controller's command slots
 * (controller.queue_depth), at least 32, since arbitration decides only while they are all
 * taken. 32 for NULL. */
SSDSIM_API uint32_t ssdsim_tenants_qd(const ssdsim_model *model);

/** Tenant `i`'s name ("writer", "reader") and NVMe queue (1, 0); NULL and 0 past the last. */
SSDSIM_API const char *ssdsim_tenants_name(size_t i);
SSDSIM_API uint32_t ssdsim_tenants_queue(size_t i);

/** The tenants' workload for a run of `runtime_ns` at queue depth `qd` (a fio job file of two
 * sections, time-based, norandommap). @return 0 or the codes of ssdsim_workload_load_string. */
SSDSIM_API int ssdsim_tenants_workload(ssdsim_workload **out, uint32_t qd, uint64_t runtime_ns,
                                       ssdsim_error *err);

/** Whether the tenants can run on `model`: a single solid-state device whose host interface
 * has NVMe queue pairs to arbitrate (pcie or custom; SATA and SAS have one command queue).
 * @return 0, or SSDSIM_EINVAL with `err` (may be NULL) saying why in one line. */
SSDSIM_API int ssdsim_tenants_check(const ssdsim_model *model, ssdsim_error *err);

/** Run the tenants on copies of `model` with arbitration `arb` (nvme.queues raised to 2 when
 * lower). @return 0, SSDSIM_EINVAL (NULL argument, runtime_ns 0, options of an unknown
 * version, an unknown arbitration, a model ssdsim_tenants_check refuses), the codes of
 * ssdsim_model_set and of ssdsim_flows_run; `err` (may be NULL) says why. */
SSDSIM_API int ssdsim_tenants_run_sized(const ssdsim_model *model, ssdsim_tenants_arbitration arb,
                                        const ssdsim_tenants_opts *opts, ssdsim_tenants *out,
                                        size_t size, ssdsim_error *err);
#define ssdsim_tenants_run(model, arb, opts, out, err)                                             \
    ssdsim_tenants_run_sized((model), (arb), (opts), (out), sizeof *(out), (err))

/* ------------------------------------------------------------------------------------------ */
/* FDP on and off                                                                              */

/** The hot/cold workload of the fdp suite (`ssdsim suite fdp`): `writes` 4 KiB random writes,
 * 9 in 10 to the first tenth of a volume of `logical_bytes` (job "hot", queue depth 27) and 1 in
 * 10 to the rest (job "cold", queue depth 3), norandommap; with `fdp`, the hot job writes
 * through placement handle 1 and the cold one through handle 0 (writes / 10 * 9 hot, writes /
 * 10 cold). @return 0, SSDSIM_EINVAL (NULL out, a volume under 40 KiB, fewer than 10 writes:
 * one job would get none, which fio's number_ios takes as no limit), or the codes of
 * ssdsim_workload_load_string. */
SSDSIM_API int ssdsim_fdp_hotcold_workload(ssdsim_workload **out, uint64_t logical_bytes,
                                           uint64_t writes, bool fdp, ssdsim_error *err);

/** Whether `model` can run with two placement handles: the page FTL, and a model that takes
 * fdp.handles 2 (e.g. no acknowledging write cache). @return 0, SSDSIM_EINVAL (NULL, another
 * FTL) or the code of ssdsim_model_set; `err` (may be NULL) says why. */
SSDSIM_API int ssdsim_fdp_hotcold_check(const ssdsim_model *model, ssdsim_error *err);

/** How a mode runs. SSDSIM_FDP_HOTCOLD_OPTS_INIT (or zero) gives no warm-up and seed 0. */
typedef struct ssdsim_fdp_hotcold_opts {
    /** the layout the caller was compiled with: SSDSIM_FDP_HOTCOLD_OPTS_VERSION (0 = 1) */
    unsigned int version;
    double warmup_drive_writes;  /**< drive writes of the workload before the measured one */
    uint64_t seed;               /**< of the simulation */
    ssdsim_progress_fn progress; /**< installed on the simulation (may be NULL) */
    void *progress_userdata;
} ssdsim_fdp_hotcold_opts;

/** Layout version of ssdsim_fdp_hotcold_opts: set by SSDSIM_FDP_HOTCOLD_OPTS_INIT and
 * ssdsim_fdp_hotcold_opts_init. */
#define SSDSIM_FDP_HOTCOLD_OPTS_VERSION 1
#define SSDSIM_FDP_HOTCOLD_OPTS_INIT SSDSIM__VERSIONED_INIT(SSDSIM_FDP_HOTCOLD_OPTS_VERSION)

/** Zero *opts and set its version (0: the current one). @return 0, or SSDSIM_EINVAL. */
SSDSIM_API int ssdsim_fdp_hotcold_opts_init(ssdsim_fdp_hotcold_opts *opts, unsigned int version);

/** The measured drive write of one mode. */
typedef struct ssdsim_fdp_hotcold {
    ssdsim_device_stats device;    /**< of the measured drive write */
    ssdsim_fdp_stats handles[2];   /**< handle 0 (cold) and 1 (hot); zero without FDP */
} ssdsim_fdp_hotcold;

/** One mode at the model's over-provisioning: with `fdp`, a copy of `model` with two placement
 * handles, persistently isolated (fdp.handles 2, fdp.isolation "persistent"); without, one with
 * fdp.handles 0. A new simulation is filled sequentially (fast-forward), written
 * warmup_drive_writes drive writes of ssdsim_fdp_hotcold_workload, then one measured drive
 * write. @return 0, SSDSIM_EINVAL (NULL argument, options of an unknown version, a negative
 * warm-up or one of fewer than 10 writes), or the codes of ssdsim_model_set, ssdsim_new and
 * the runs; `err` (may be NULL) says why ("FDP on: ..."). */
SSDSIM_API int ssdsim_fdp_hotcold_run_sized(const ssdsim_model *model, bool fdp,
                                            const ssdsim_fdp_hotcold_opts *opts,
                                            ssdsim_fdp_hotcold *out, size_t size,
                                            ssdsim_error *err);
#define ssdsim_fdp_hotcold_run(model, fdp, opts, out, err)                                         \
    ssdsim_fdp_hotcold_run_sized((model), (fdp), (opts), (out), sizeof *(out), (err))

/* ------------------------------------------------------------------------------------------ */
/* Several drives in one host                                                                  */

/** The scaling suite (`ssdsim suite scaling`): a system model of several devices (RAID-0/1/5
 * or JBOD, system.count) run with 1, 2, ... count of them, as the NVMe RAID platform reviews
 * measure arrays (methodology section 3; section 1, item 6 for a JBOD). Each array is written
 * full sequentially (ssdsim_precondition_seq: a never-written SSD answers reads without its
 * flash), then 4 KiB random reads and 128 KiB sequential reads run at each queue depth of
 * ssdsim_scaling_qd: one job on a RAID volume, one job per device on a JBOD. With
 * steady_writes, the review labs' heavy 4K points follow on each array (section 1, item 6:
 * aggregate scaling of several drives under the enterprise workload). */
#define SSDSIM_SCALING_N_QD 6
/** The tests run at every queue depth (SSDSIM_SCALING_RANDREAD, SSDSIM_SCALING_SEQREAD). */
#define SSDSIM_SCALING_N_TESTS 2
/** All the tests, those of steady_writes included. */
#define SSDSIM_SCALING_N_ALL_TESTS 4
/** The jobs and the depth of each of the steady_writes tests: 16 jobs (per device on a JBOD),
 * 16 deep each (16T/16Q); their points come with k = SSDSIM_SCALING_STEADY_K
 * (ssdsim_scaling_qd of it is 16). */
#define SSDSIM_SCALING_STEADY_JOBS 16
#define SSDSIM_SCALING_STEADY_K 4

/** The tests. */
typedef enum ssdsim_scaling_test {
    SSDSIM_SCALING_RANDREAD = 0, /**< 4 KiB random reads */
    SSDSIM_SCALING_SEQREAD = 1,  /**< 128 KiB sequential reads */
    /** with steady_writes: 4 KiB random writes at 16T/16Q on the array at their steady state */
    SSDSIM_SCALING_RANDWRITE_STEADY = 2,
    /** with steady_writes: 4 KiB random reads at 16T/16Q right after them, on that state */
    SSDSIM_SCALING_RANDREAD_STEADY = 3,
} ssdsim_scaling_test;

/** Queue depth `k` (per job): 1, 2, 4, 8, 16, 32; 0 past the last. */
SSDSIM_API uint32_t ssdsim_scaling_qd(size_t k);

/** The device counts the suite runs `system` with, in order, into counts[0 .. max) (NULL to
 * count them): every count from 1 (RAID-1 2, RAID-5 3) to system.count whose devices the
 * model's controllers can take, each controller with as many devices as in the model (up to
 * that many on one). @return how many there are; 0 for NULL or a model that is not a system. */
SSDSIM_API size_t ssdsim_scaling_counts(const ssdsim_model *system, uint32_t *counts, size_t max);

/** Called after each measured point, with the devices of its array, its test and queue depth
 * index (ssdsim_scaling_qd); a non-zero return stops the suite and is returned. */
typedef int (*ssdsim_scaling_point_fn)(uint32_t devices, ssdsim_scaling_test test, size_t k,
                                       const ssdsim_measurement *m, void *userdata);
/** With steady_writes, called once an array of `devices` is at the steady state of 4 KiB
 * random writes, with how it got there (ssdsim_reach_steady). */
typedef void (*ssdsim_scaling_steady_fn)(uint32_t devices, ssdsim_steady_method how,
                                         void *userdata);

/** How the scaling suite runs. SSDSIM_SCALING_OPTS_INIT, then window_ns. */
typedef struct ssdsim_scaling_opts {
    /** the layout the caller was compiled with: SSDSIM_SCALING_OPTS_VERSION (0 = 1) */
    unsigned int version;
    /** window of each point (ssdsim_measure: run again longer when it held too few requests;
     * required, at least 1 us) */
    uint64_t window_ns;
    uint64_t seed;               /**< of every simulation */
    ssdsim_progress_fn progress; /**< installed on every simulation made (may be NULL) */
    void *progress_userdata;
    ssdsim_scaling_point_fn on_point; /**< may be NULL */
    void *userdata;                   /**< passed to on_point (and on_steady) */
    /* Appended in version 2. */
    /** after an array's read tests, the review labs' heavy 4K points (methodology section 1,
     * item 6): the array brought to the steady state of 4 KiB random writes at 16T/16Q (16
     * jobs per device on a JBOD) by ssdsim_reach_steady with `steady`, then those writes and
     * 4 KiB random reads at the same load measured on it (SSDSIM_SCALING_RANDWRITE_STEADY,
     * SSDSIM_SCALING_RANDREAD_STEADY), each window holding at least 20 blocks per plane of
     * host writes when it writes (as the review's points); a hard disk array is measured as
     * it is */
    bool steady_writes;
    ssdsim_curve_opts steady;           /**< how steady state is reached (zero: defaults) */
    ssdsim_scaling_steady_fn on_steady; /**< may be NULL */
} ssdsim_scaling_opts;

/** Layout version of ssdsim_scaling_opts: set by SSDSIM_SCALING_OPTS_INIT and
 * ssdsim_scaling_opts_init. */
#define SSDSIM_SCALING_OPTS_VERSION 2
#define SSDSIM_SCALING_OPTS_INIT SSDSIM__VERSIONED_INIT(SSDSIM_SCALING_OPTS_VERSION)

/** Zero *opts and set its version (0: the current one). @return 0, or SSDSIM_EINVAL. */
SSDSIM_API int ssdsim_scaling_opts_init(ssdsim_scaling_opts *opts, unsigned int version);

/** Run the suite on `system`: for each count of ssdsim_scaling_counts a copy of the model with
 * that many devices (system.count, system.controllers), a new simulation, a sequential fill,
 * then every test at every queue depth, each point passed to on_point (then, with
 * steady_writes, the steady state and its two points). @return 0,
 * SSDSIM_EINVAL (NULL argument, options of an unknown version, window_ns under 1 us, a model
 * that is not a system), on_point's non-zero return, or the codes of ssdsim_model_set,
 * ssdsim_new and the runs; `err` (may be NULL) says why ("2 devices: ..."). */
SSDSIM_API int ssdsim_scaling_run(const ssdsim_model *system, const ssdsim_scaling_opts *opts,
                                  ssdsim_error *err);

/* ------------------------------------------------------------------------------------------ */
/* The application suite                                                                       */

/** The application suite (`ssdsim suite apps`): the labs' application benchmarks (a NoSQL
 * cluster, SysBench OLTP) as the replay of a block trace recorded under the application, on a
 * model written full first (the application's data is on the drive):
 * - as recorded: open loop at the trace's own times (time_scale times as fast), its span cut
 *   into `intervals` equal intervals, each interval's mean latency and IOPS (the NoSQL test
 *   reports a node's average latency per interval); skipped when the trace has no times;
 * - closed loop at each of ssdsim_apps_threads (2 to 32 requests outstanding, as SysBench's 2 to
 *   32 threads), in the trace's order with its times ignored, the trace read `passes` times:
 *   I/Os per second (for the trace's fixed mix of I/Os per transaction, the transaction rate
 *   in proportion), mean and p99 latency.
 * The parts run one after the other on the same drive. On a JBOD (ssdsim_model_n_volumes above
 * 1) each device is a node of its own, as the NoSQL cluster runs one node per drive: the trace
 * is replayed on every device at once (a reader each, ssdsim_replay_opts.volume), threads per
 * node, and the figures are over all the nodes' requests. */
#define SSDSIM_APPS_N_THREADS 5
/** Intervals of the replay as recorded when ssdsim_apps_opts.intervals is 0 (the NoSQL test's). */
#define SSDSIM_APPS_INTERVALS 24

/** Requests outstanding of closed-loop point `k`: 2, 4, 8, 16, 32; 0 past the last. */
SSDSIM_API uint32_t ssdsim_apps_threads(size_t k);

/** Called after each replay with its figures over the whole replay (n_ios, iops, bw_bytes,
 * latencies, read and write figures, waf; window_ns = run_ns, n_runs 1, n_rounds its
 * intervals): `threads` 0 for the replay as recorded, else the requests outstanding. A non-zero
 * return stops the suite and is returned. */
typedef int (*ssdsim_apps_point_fn)(uint32_t threads, const ssdsim_measurement *m,
                                    void *userdata);
/** Called for each interval `i` of the replay as recorded (the last may be partial), before its
 * point. A non-zero return stops the suite and is returned. */
typedef int (*ssdsim_apps_interval_fn)(size_t i, const ssdsim_interval *iv, void *userdata);

/** How the application suite runs. SSDSIM_APPS_OPTS_INIT, then trace_path. */
typedef struct ssdsim_apps_opts {
    /** the layout the caller was compiled with: SSDSIM_APPS_OPTS_VERSION (0 = 1) */
    unsigned int version;
    const char *trace_path;         /**< the trace (required; formats of ssdsim_trace_open) */
    const ssdsim_trace_opts *trace; /**< how it is read (NULL: the defaults, format probed) */
    uint32_t intervals;             /**< of the replay as recorded, 1 to 10000 (0: 24) */
    double time_scale; /**< the replay as recorded: 2 replays twice as fast (0: as recorded) */
    uint32_t passes;   /**< closed-loop points read the trace this many times (0: once) */
    bool wrap;         /**< addresses beyond the model's capacity wrap around (else an error) */
    uint64_t seed;     /**< of the simulation */
    ssdsim_progress_fn progress; /**< installed on the simulation (may be NULL) */
    void *progress_userdata;
    ssdsim_apps_point_fn on_point;       /**< may be NULL */
    ssdsim_apps_interval_fn on_interval; /**< may be NULL */
    void *userdata;                      /**< passed to on_point and on_interval */
} ssdsim_apps_opts;

/** Layout version of ssdsim_apps_opts: set by SSDSIM_APPS_OPTS_INIT and ssdsim_apps_opts_init. */
#define SSDSIM_APPS_OPTS_VERSION 1
#define SSDSIM_APPS_OPTS_INIT SSDSIM__VERSIONED_INIT(SSDSIM_APPS_OPTS_VERSION)

/** Zero *opts and set its version (0: the current one). @return 0, or SSDSIM_EINVAL. */
SSDSIM_API int ssdsim_apps_opts_init(ssdsim_apps_opts *opts, unsigned int version);

/** Run the suite on `model` (a device or a system): read the trace once (its requests and
 * span), make a simulation, fill it sequentially, replay the trace as recorded (when it has
 * times) and at every thread count, passing each interval and point to the callbacks.
 * @return 0; SSDSIM_EINVAL (NULL argument, options of an unknown version or out of range, a
 * trace without requests); the codes of ssdsim_trace_open and ssdsim_trace_next (a malformed
 * line), of ssdsim_new and of the replays (a request beyond the model without `wrap`); or a
 * callback's non-zero return. `err` (may be NULL) says why ("4 threads: ..."). */
SSDSIM_API int ssdsim_apps_run(const ssdsim_model *model, const ssdsim_apps_opts *opts,
                               ssdsim_error *err);

#ifdef __cplusplus
}
#endif

#endif /* SSDSIM_SUITE_H */
