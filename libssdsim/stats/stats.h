/* stats.h: results of a run: per-operation latency histograms and byte counts, and the time
 * series (one row per interval of simulated time or of completed I/Os).
 *
 * Recording an I/O is one histogram add per op type plus a few sums; the series grows by one row
 * per interval (amortised doubling), never per I/O.
 */
#ifndef SSDSIM_STATS_H
#define SSDSIM_STATS_H

#include "common.h"
#include "ftl/env.h"
#include "stats/hist.h"

struct ssdsim__stats {
    struct ssdsim__hist hist[4]; /* read, write, trim, all */
    uint64_t bytes[4];
    uint64_t start_ns, end_ns;
    const struct ssdsim_ftl_env *env;
    struct ssdsim__env_counters base; /* counters when the run started */
    uint32_t base_ec_max;             /* highest erase count when the run started */
    double base_ec_mean;
    /* current interval */
    uint64_t interval_ns, interval_ios;
    uint64_t iv_start_ns, iv_n, iv_bytes, iv_max;
    double iv_sum, iv_sum_sq;
    uint64_t iv_host0, iv_flash0;
    ssdsim_interval *series;
    size_t n_series, cap_series;
    bool oom;
};

int ssdsim__stats_init(struct ssdsim__stats *s, const struct ssdsim_ftl_env *env);
void ssdsim__stats_fini(struct ssdsim__stats *s);
/* Start measuring at `now`: clear everything, remember the FTL counters as the base. */
void ssdsim__stats_reset(struct ssdsim__stats *s, uint64_t now, uint64_t interval_ns,
                         uint64_t interval_ios);
/* One completed I/O of type op (0 read, 1 write, 2 trim). */
void ssdsim__stats_record(struct ssdsim__stats *s, uint32_t op, uint64_t bytes, uint64_t lat_ns,
                          uint64_t now);
/* Close the interval that ends at `now` (time-based series call this from a timer). */
void ssdsim__stats_close_interval(struct ssdsim__stats *s, uint64_t now);
/* End of the run: close a partial last interval that holds I/Os. */
void ssdsim__stats_finish(struct ssdsim__stats *s, uint64_t now);
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

/* Mean erase count over all blocks (since the device was new). */
double ssdsim__erase_mean(const struct ssdsim_ftl_env *env);

#endif /* SSDSIM_STATS_H */
