/* hist.h: a log-linear latency histogram with bounded relative error and fixed memory.
 *
 * Values (ns) below 2^SUB_BITS are counted exactly; above, each power of two is split into
 * 2^SUB_BITS linear sub-buckets, so a bucket's width is at most 1/2^SUB_BITS of its lower bound
 * (relative error < 0.8% with SUB_BITS = 7). Memory: 58 x 128 x 8 bytes = 58 KiB per histogram,
 * fixed; recording is a few shifts and one increment (no allocation, no search).
 * Exact min, max, count, sum and sum of squares are kept beside the buckets.
 */
#ifndef SSDSIM_STATS_HIST_H
#define SSDSIM_STATS_HIST_H

#include "common.h"

#define SSDSIM__HIST_SUB_BITS 7
#define SSDSIM__HIST_SUB (1u << SSDSIM__HIST_SUB_BITS)
#define SSDSIM__HIST_N_BUCKETS ((64 - SSDSIM__HIST_SUB_BITS + 1) * SSDSIM__HIST_SUB)

/* The exact figures of a histogram without its buckets (40 bytes): count, min, max and the sums
 * (so a histogram given these and the buckets of the same samples from elsewhere is the one
 * ssdsim__hist_add would have built, to the last bit of its sums). */
struct ssdsim__hist_moments {
    uint64_t count;
    uint64_t min, max;
    double sum, sum_sq;
};

struct ssdsim__hist {
    /* the moments, by name or as one struct (`m`, what ssdsim__hist_add records besides the
     * bucket, through ssdsim__hist_moments_add) */
    union {
        struct ssdsim__hist_moments m;
        struct {
            uint64_t count;
            uint64_t min, max;
            double sum;    /* sum of values */
            double sum_sq; /* sum of squares, for the standard deviation */
        };
    };
    uint64_t buckets[SSDSIM__HIST_N_BUCKETS];
};

void ssdsim__hist_reset(struct ssdsim__hist *h);
void ssdsim__hist_add(struct ssdsim__hist *h, uint64_t value);
/* Record a value in the moments (inline: a completion adds to three, its job's histogram's,
 * the run's op type's and the run's of all types). */
static inline void ssdsim__hist_moments_add(struct ssdsim__hist_moments *m, uint64_t value)
{
    /* min and max read 0 while the histogram is empty; the first sample sets both. */
    if (SSDSIM__UNLIKELY(m->count == 0)) {
        m->min = m->max = value;
    } else {
        if (value < m->min)
            m->min = value;
        if (value > m->max)
            m->max = value;
    }
    m->count++;
    double v = (double)value;
    m->sum += v;
    m->sum_sq += v * v;
}
/* Add every sample of `src` into `dst`. */
void ssdsim__hist_merge(struct ssdsim__hist *dst, const struct ssdsim__hist *src);
/* Add the buckets of `src` from that of value `lo` to that of `hi` (inclusive) into `dst`'s,
 * and nothing else: where another histogram holds its moments. */
void ssdsim__hist_merge_buckets(struct ssdsim__hist *dst, const struct ssdsim__hist *src,
                                uint64_t lo, uint64_t hi);
double ssdsim__hist_mean(const struct ssdsim__hist *h);   /* 0 when empty */
double ssdsim__hist_stddev(const struct ssdsim__hist *h); /* population stddev; 0 when < 2 */
/* The value at quantile q in [0, 1]: the upper edge of the bucket holding the ceil(q*count)-th
 * smallest sample, clamped to [min, max]; 0 when empty. */
uint64_t ssdsim__hist_quantile(const struct ssdsim__hist *h, double q);

/* Bucket index of a value and the inclusive [lo, hi] range a bucket covers (for tests). */
uint32_t ssdsim__hist_index(uint64_t value);
void ssdsim__hist_bucket_range(uint32_t index, uint64_t *lo, uint64_t *hi);

#endif /* SSDSIM_STATS_HIST_H */
