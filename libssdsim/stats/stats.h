/* stats.h: results of a run: per-operation latency histograms and byte counts, the time
 * series (one row per interval of simulated time, of completed I/Os or of host bytes written),
 * and the SNIA steady-state rule applied to a series (steady.c).
 *
 * Recording an I/O is one histogram add (its op type's) plus a few sums: the histogram of all op
 * types keeps only its count, min, max and sums per I/O, and gets its buckets by merging those
 * of the three op types when it is read (ssdsim__stats_hist); while the reporting units'
 * histograms hold the same samples, the op type's keeps only its moments too (`parts`). One
 * more histogram add while a series is kept (the interval's own latencies, for its
 * percentile); the series grows by one row per interval (amortised doubling), never per I/O.
 */
#ifndef SSDSIM_STATS_H
#define SSDSIM_STATS_H

#include "common.h"
#include "array/array.h"
#include "stats/hist.h"

struct ssdsim__stats {
    struct ssdsim__hist hist[3]; /* read, write, trim */
    /* all op types: count, min, max and the sums, added per I/O in completion order (so the
     * mean and standard deviation are those of one histogram of every I/O, to the last bit);
     * the buckets are the three op types' merged when read (ssdsim__stats_hist) */
    struct ssdsim__hist_moments all;
    /* NULL, or the reporting units' histograms (host.c): n_parts triples (read, write, trim),
     * `part_stride` bytes apart, each sample of hist[] being added to exactly one of them and
     * nothing else. hist[] then keeps its moments alone (count, min, max, sums), its buckets
     * are the parts' summed when read (ssdsim__stats_hist), and a completion costs one
     * histogram add instead of two, until something would part them (a reset of a non-empty
     * hist[], which needs no buckets; a sample for hist[] alone, or the parts going away, when
     * ssdsim__stats_detach sums them into hist[] first). */
    const struct ssdsim__hist *parts;
    uint32_t n_parts;
    size_t part_stride;
    uint64_t bytes[4];            /* read, write, trim, all */
    uint64_t start_ns, end_ns;
    /* clock time the run's power loss took after the statistics closed (its flush and mount,
     * rel/power.c): left out of the span of the busy times' utilisations (results.c) */
    uint64_t unmeasured_ns;
    const struct ssdsim__sys *sys;
    struct ssdsim__devbase *dev_base; /* per device: its figures when the run started */
    struct ssdsim__env_counters base; /* counters when the run started */
    struct ssdsim__sys_mech base_mech; /* firmware and NAND-operation counters then */
    uint32_t base_ec_max;             /* highest erase count when the run started */
    double base_ec_mean;
    /* the series: at most one of the three kinds of interval is set */
    uint64_t interval_ns, interval_ios, interval_bytes;
    bool series_on; /* one of them is */
    /* current interval: its latencies (count, sums, min, max and buckets; cleared per interval
     * over the bucket range its samples span, see stats.c), bytes of all ops, and the FTL
     * counters when it started */
    struct ssdsim__hist iv_hist;
    uint64_t iv_start_ns, iv_bytes;
    uint64_t iv_host0, iv_flash0, iv_gc0, iv_erase0;
    uint64_t iv_write_end; /* interval_bytes: the row closes when bytes[WRITE] reaches it */
    ssdsim_interval *series;
    size_t n_series, cap_series;
    bool last_partial; /* the last row was closed by the end of the run, not by its interval */
    /* The first row that began on a preconditioned device (ssdsim__sys_preconditioned): the
     * first round the steady-state rule may judge. SIZE_MAX until the device is preconditioned;
     * checked when each row closes (O(devices)). */
    size_t first_round;
    bool oom;
    bool full;        /* a row was due with max_rows rows kept: the run fails */
    size_t max_rows;  /* SSDSIM__SERIES_MAX_ROWS (tests lower it) */
    /* Called after each row closed by its interval (not the end of the run's partial row):
     * the run's steady-state stop (sim.c). May be NULL. */
    void (*on_close)(void *ctx);
    void *on_close_ctx;
};

/* The most rows a time series keeps (doc/results.md): about 170 MB of ssdsim_interval. A run
 * that is known to need more is refused before it starts; one that reaches the limit fails
 * (SSDSIM_ERANGE) instead of exhausting memory. */
#define SSDSIM__SERIES_MAX_ROWS 1000000u

/* What a device had done when the run started (its figures in the results are differences). */
struct ssdsim__devbase {
    struct ssdsim__env_counters n;
    uint64_t cmds[3], bytes[3];
    uint64_t hits, absorbed;
};

/* 0 or SSDSIM_ENOMEM. */
int ssdsim__stats_init(struct ssdsim__stats *s, const struct ssdsim__sys *sys);
/* Device k's base. */
void ssdsim__stats_dev_now(const struct ssdsim__sys *sys, uint32_t k, struct ssdsim__devbase *out);
void ssdsim__stats_fini(struct ssdsim__stats *s);
/* Start measuring at `now`: clear everything, remember the FTL counters as the base. At most
 * one of the intervals may be non-zero (the callers check). The on_close hook is kept. */
void ssdsim__stats_reset(struct ssdsim__stats *s, uint64_t now, uint64_t interval_ns,
                         uint64_t interval_ios, uint64_t interval_bytes);
/* One completed I/O of type op (0 read, 1 write, 2 trim). */
void ssdsim__stats_record(struct ssdsim__stats *s, uint32_t op, uint64_t bytes, uint64_t lat_ns,
                          uint64_t now);
/* Let hist[]'s buckets be the sums of those of `n` parts (see `parts`: `first` the first
 * triple, `stride` bytes apart, all empty) while hist[] is empty too; otherwise nothing
 * changes. */
void ssdsim__stats_parts(struct ssdsim__stats *s, const struct ssdsim__hist *first, uint32_t n,
                         size_t stride);
/* Sum the parts' buckets into hist[], which then keeps its own (nothing when there are none). */
void ssdsim__stats_detach(struct ssdsim__stats *s);
/* The latency histogram of op (0 read, 1 write, 2 trim, 3 all): the op's own, or `scratch`
 * filled with the merge of the three op types' for all, or of the parts' buckets for one op
 * while hist[] has parts (O(buckets x parts)). */
const struct ssdsim__hist *ssdsim__stats_hist(const struct ssdsim__stats *s, uint32_t op,
                                              struct ssdsim__hist *scratch);
/* Close the interval that ends at `now` (time-based series call this from a timer). */
void ssdsim__stats_close_interval(struct ssdsim__stats *s, uint64_t now);
/* End of the run: close a partial last interval that holds I/Os (last_partial). */
void ssdsim__stats_finish(struct ssdsim__stats *s, uint64_t now);
/* Rows of the series that are whole rounds (without a partial last row; its `partial` is set). */
static inline size_t ssdsim__stats_full_rounds(const struct ssdsim__stats *s)
{
    return s->n_series - (s->n_series && s->last_partial ? 1 : 0);
}
/* Counters since the run started. */
void ssdsim__stats_counters(const struct ssdsim__stats *s, struct ssdsim__env_counters *out);

/* Pages programmed for any purpose, and written for the host, in a set of counters. */
static inline uint64_t ssdsim__programs(const struct ssdsim__env_counters *c)
{
    uint64_t n = 0;
    for (int i = 0; i < SSDSIM__N_PURPOSES; i++)
        n += c->programs[i];
    return n;
}
static inline uint64_t ssdsim__host_pages(const struct ssdsim__env_counters *c)
{
    return c->c[SSDSIM_CNT_HOST_PAGES];
}


/* The steady-state rule (steady.c). Values are read `stride` bytes apart from x (a double field
 * of an array of structs, or an array of doubles with stride sizeof(double)). */
/* Check the options and fill in SNIA's values for zeros: 0 or SSDSIM_EINVAL, with what was
 * refused (a version newer than the library's, window 1, a negative or NaN limit) in `why`
 * (may be NULL). */
int ssdsim__steady_resolve(const ssdsim_steady_opts *opts, ssdsim_steady_opts *out, char *why,
                           size_t len);
/* Judge one window of o->window values (resolved options); fills every figure of *r except
 * steady and round, and returns whether the window is steady. */
bool ssdsim__steady_window(const double *x, size_t stride, const ssdsim_steady_opts *o,
                           ssdsim_steady_result *r);
/* ssdsim_steady_check over strided values. */
int ssdsim__steady_series(const double *x, size_t stride, size_t n, const ssdsim_steady_opts *opts,
                          ssdsim_steady_result *out);
/* Where the tracked variable lies in an interval row (all are doubles). */
size_t ssdsim__steady_var_offset(ssdsim_steady_var var);

#endif /* SSDSIM_STATS_H */
