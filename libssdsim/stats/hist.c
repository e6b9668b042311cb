/* hist.c: the log-linear latency histogram of hist.h.
 *
 * Bucket layout (SUB_BITS = 7, SUB = 128): values below 2 * SUB = 256 have a bucket each, so the
 * index is the value. A larger value v with highest set bit e is cut at shift = e - SUB_BITS:
 * its top SUB_BITS + 1 bits, m = v >> shift, lie in [SUB, 2 * SUB), and the index is
 * (shift << SUB_BITS) + m. Each power of two [2^e, 2^(e+1)) thus gets SUB buckets of width
 * 2^shift, following directly on those of the power below, so the index grows with the value
 * and the last bucket (shift = 56, m = 255) is 57 * 128 + 127 = SSDSIM__HIST_N_BUCKETS - 1,
 * ending at UINT64_MAX. Recording costs one count-leading-zeros, a shift and an add.
 *
 * The mean and standard deviation come from the exact sum and sum of squares kept in doubles
 * (hist.h fixes that layout). For latencies (values far below 2^53, spreads that are not tiny
 * against the mean) sum_sq / n - mean^2 loses no significant digits; Welford's running update
 * would be the more robust choice at the cost of a division per sample.
 */
#include "stats/hist.h"

#include <float.h>
#include <math.h>
#include <string.h>

/* Below this every value has its own bucket. */
#define LINEAR_END (2 * (uint64_t)SSDSIM__HIST_SUB)

static_assert(SSDSIM__HIST_N_BUCKETS == (64 - SSDSIM__HIST_SUB_BITS + 1) * SSDSIM__HIST_SUB,
              "bucket count does not match the layout");

static inline unsigned highest_bit(uint64_t v)
{
#if defined(__GNUC__)
    return 63u - (unsigned)__builtin_clzll(v);
#else
    unsigned e = 0;
    while (v >>= 1)
        e++;
    return e;
#endif
}

uint32_t ssdsim__hist_index(uint64_t value)
{
    if (value < LINEAR_END)
        return (uint32_t)value;
    unsigned shift = highest_bit(value) - SSDSIM__HIST_SUB_BITS;
    return (uint32_t)(((uint64_t)shift << SSDSIM__HIST_SUB_BITS) + (value >> shift));
}

void ssdsim__hist_bucket_range(uint32_t index, uint64_t *lo, uint64_t *hi)
{
    assert(index < SSDSIM__HIST_N_BUCKETS);
    if (index < LINEAR_END) {
        *lo = *hi = index;
        return;
    }
    /* Inverse of the index: index = (shift << SUB_BITS) + m with m in [SUB, 2 * SUB). */
    unsigned shift = (index >> SSDSIM__HIST_SUB_BITS) - 1;
    uint64_t m = index - ((uint64_t)shift << SSDSIM__HIST_SUB_BITS);
    *lo = m << shift;
    *hi = *lo + ((((uint64_t)1) << shift) - 1);
}

void ssdsim__hist_reset(struct ssdsim__hist *h)
{
    memset(h, 0, sizeof *h);
}

void ssdsim__hist_add(struct ssdsim__hist *h, uint64_t value)
{
    ssdsim__hist_moments_add(&h->m, value);
    h->buckets[ssdsim__hist_index(value)]++;
}

void ssdsim__hist_merge_buckets(struct ssdsim__hist *dst, const struct ssdsim__hist *src,
                                uint64_t lo, uint64_t hi)
{
    for (uint32_t i = ssdsim__hist_index(lo), end = ssdsim__hist_index(hi); i <= end; i++)
        dst->buckets[i] += src->buckets[i];
}

void ssdsim__hist_merge(struct ssdsim__hist *dst, const struct ssdsim__hist *src)
{
    if (src->count == 0)
        return;
    if (dst->count == 0) {
        dst->min = src->min;
        dst->max = src->max;
    } else {
        dst->min = SSDSIM__MIN(dst->min, src->min);
        dst->max = SSDSIM__MAX(dst->max, src->max);
    }
    dst->count += src->count;
    dst->sum += src->sum;
    dst->sum_sq += src->sum_sq;
    ssdsim__hist_merge_buckets(dst, src, src->min, src->max);
}

double ssdsim__hist_mean(const struct ssdsim__hist *h)
{
    return h->count ? h->sum / (double)h->count : 0.0;
}

double ssdsim__hist_stddev(const struct ssdsim__hist *h)
{
    if (h->count < 2)
        return 0.0;
    if (h->min == h->max)
        return 0.0;
    double n = (double)h->count;
    double mean = h->sum / n;
    /* The difference carries an absolute error of a few ulps of mean^2: it can come out
     * slightly negative, or slightly too large when the spread is tiny against the mean. The
     * exact min and max bound the answer: a population stddev is at most (max - min) / 2. */
    double var = h->sum_sq / n - mean * mean;
    double sd = var > 0.0 ? sqrt(var) : 0.0;
    return SSDSIM__MIN(sd, (double)(h->max - h->min) / 2);
}

uint64_t ssdsim__hist_quantile(const struct ssdsim__hist *h, double q)
{
    if (h->count == 0)
        return 0;
    if (!(q > 0.0)) /* also NaN */
        q = 0.0;
    if (q > 1.0)
        q = 1.0;
    /* Rank of the sample, ceil(q * count), at least 1. q * count carries the rounding error of
     * q itself (0.99 is stored a little below 0.99), so a few ulps are forgiven before the
     * ceiling, lest 0.99 * 1000 land on rank 991. */
    double x = q * (double)h->count;
    double r = ceil(x - x * 4 * DBL_EPSILON);
    uint64_t rank = r < 1.0 ? 1 : (r >= (double)h->count ? h->count : (uint64_t)r);

    uint64_t seen = 0;
    for (uint32_t i = 0; i < SSDSIM__HIST_N_BUCKETS; i++) {
        seen += h->buckets[i];
        if (seen >= rank) {
            uint64_t lo, hi;
            ssdsim__hist_bucket_range(i, &lo, &hi);
            return SSDSIM__MIN(SSDSIM__MAX(hi, h->min), h->max);
        }
    }
    /* Unreachable while the buckets add up to count. */
    assert(!"histogram buckets do not add up to count");
    return h->max;
}
