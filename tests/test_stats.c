/* test_stats.c: the log-linear histogram (libssdsim/stats/hist.c).
 *
 * Checks the bucket layout (every uint64 value has exactly one bucket, indices grow with values,
 * buckets are at most 1/128 of their lower bound wide), then the figures drawn from it against
 * values computed by hand or known in closed form.
 */
#include "common.h"
#include "stats/hist.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

static struct ssdsim__hist *h;

static void setup(void)
{
    h = malloc(sizeof *h);
    ck_assert_ptr_nonnull(h);
    ssdsim__hist_reset(h);
}

static void teardown(void)
{
    free(h);
    h = NULL;
}

/* A small deterministic generator for sample values (xorshift64*). */
static uint64_t next_rand(uint64_t *s)
{
    *s ^= *s >> 12;
    *s ^= *s << 25;
    *s ^= *s >> 27;
    return *s * 2685821657736338717ULL;
}

START_TEST(test_stats_hist_small_values_exact)
{
    for (uint64_t v = 0; v < 256; v++) {
        uint64_t lo, hi;
        ck_assert_uint_eq(ssdsim__hist_index(v), v);
        ssdsim__hist_bucket_range(ssdsim__hist_index(v), &lo, &hi);
        ck_assert_uint_eq(lo, v);
        ck_assert_uint_eq(hi, v);
    }
}
END_TEST

START_TEST(test_stats_hist_buckets_contiguous_and_cover_uint64)
{
    uint64_t prev_hi = 0;
    for (uint32_t i = 0; i < SSDSIM__HIST_N_BUCKETS; i++) {
        uint64_t lo, hi;
        ssdsim__hist_bucket_range(i, &lo, &hi);
        if (i == 0)
            ck_assert_uint_eq(lo, 0);
        else
            ck_assert_uint_eq(lo, prev_hi + 1);
        ck_assert_uint_le(lo, hi);
        /* Both edges map back to the bucket. */
        ck_assert_uint_eq(ssdsim__hist_index(lo), i);
        ck_assert_uint_eq(ssdsim__hist_index(hi), i);
        prev_hi = hi;
    }
    ck_assert_uint_eq(prev_hi, UINT64_MAX);

    uint64_t lo, hi;
    ssdsim__hist_bucket_range(SSDSIM__HIST_N_BUCKETS - 1, &lo, &hi);
    ck_assert_uint_eq(hi, UINT64_MAX);
    ck_assert_uint_eq(lo, 255ULL << 56);
    ck_assert_uint_eq(ssdsim__hist_index(UINT64_MAX), SSDSIM__HIST_N_BUCKETS - 1);
}
END_TEST

START_TEST(test_stats_hist_relative_width_bounded)
{
    for (uint32_t i = 0; i < SSDSIM__HIST_N_BUCKETS; i++) {
        uint64_t lo, hi;
        ssdsim__hist_bucket_range(i, &lo, &hi);
        if (lo < 128)
            continue;
        /* width = hi - lo + 1 <= lo / 128, written so that nothing overflows */
        ck_assert_uint_le(hi - lo, lo / 128 - 1);
        ck_assert_uint_le((hi - lo + 1) * 128, lo);
    }
}
END_TEST

START_TEST(test_stats_hist_index_monotonic)
{
    /* Around every power of two, and at random pairs. */
    for (unsigned e = 1; e < 64; e++) {
        uint64_t p = 1ULL << e;
        ck_assert_uint_le(ssdsim__hist_index(p - 1), ssdsim__hist_index(p));
        ck_assert_uint_le(ssdsim__hist_index(p), ssdsim__hist_index(p + 1));
        ck_assert_uint_lt(ssdsim__hist_index(p - 1), ssdsim__hist_index(p));
    }
    uint64_t s = 88172645463325252ULL;
    for (int i = 0; i < 200000; i++) {
        uint64_t a = next_rand(&s) >> (next_rand(&s) % 64);
        uint64_t b = next_rand(&s) >> (next_rand(&s) % 64);
        if (a > b) {
            uint64_t t = a;
            a = b;
            b = t;
        }
        ck_assert_uint_le(ssdsim__hist_index(a), ssdsim__hist_index(b));
        ck_assert_uint_lt(ssdsim__hist_index(b), SSDSIM__HIST_N_BUCKETS);
        /* The value lies in its bucket. */
        uint64_t lo, hi;
        ssdsim__hist_bucket_range(ssdsim__hist_index(a), &lo, &hi);
        ck_assert(lo <= a && a <= hi);
    }
}
END_TEST

START_TEST(test_stats_hist_empty_returns_zero)
{
    ck_assert_uint_eq(h->count, 0);
    ck_assert_uint_eq(h->min, 0);
    ck_assert_uint_eq(h->max, 0);
    ck_assert(ssdsim__hist_mean(h) == 0.0);
    ck_assert(ssdsim__hist_stddev(h) == 0.0);
    ck_assert_uint_eq(ssdsim__hist_quantile(h, 0.0), 0);
    ck_assert_uint_eq(ssdsim__hist_quantile(h, 0.5), 0);
    ck_assert_uint_eq(ssdsim__hist_quantile(h, 1.0), 0);
}
END_TEST

START_TEST(test_stats_hist_single_sample)
{
    ssdsim__hist_add(h, 123456789);
    ck_assert_uint_eq(h->count, 1);
    ck_assert_uint_eq(h->min, 123456789);
    ck_assert_uint_eq(h->max, 123456789);
    ck_assert(ssdsim__hist_mean(h) == 123456789.0);
    ck_assert(ssdsim__hist_stddev(h) == 0.0);
    /* Clamped to [min, max], so every quantile is the sample itself. */
    ck_assert_uint_eq(ssdsim__hist_quantile(h, 0.0), 123456789);
    ck_assert_uint_eq(ssdsim__hist_quantile(h, 0.5), 123456789);
    ck_assert_uint_eq(ssdsim__hist_quantile(h, 1.0), 123456789);
}
END_TEST

START_TEST(test_stats_hist_quantiles_uniform)
{
    for (uint64_t v = 1; v <= 1000; v++)
        ssdsim__hist_add(h, v);
    uint64_t p50 = ssdsim__hist_quantile(h, 0.50);
    uint64_t p90 = ssdsim__hist_quantile(h, 0.90);
    uint64_t p99 = ssdsim__hist_quantile(h, 0.99);
    ck_assert_uint_ge(p50, 500);
    ck_assert_uint_le(p50, 505);
    ck_assert_uint_ge(p90, 900);
    ck_assert_uint_le(p90, 909);
    ck_assert_uint_ge(p99, 990);
    ck_assert_uint_le(p99, 999);
    /* The upper edge of 990's bucket [988, 991]: rank 990, not 991. */
    ck_assert_uint_eq(p99, 991);
    ck_assert_uint_eq(ssdsim__hist_quantile(h, 1.0), 1000);
    ck_assert_uint_eq(ssdsim__hist_quantile(h, 0.0), 1); /* rank 1 = the minimum */
    ck_assert_uint_eq(ssdsim__hist_quantile(h, 0.001), 1);
    /* Out-of-range q is clamped. */
    ck_assert_uint_eq(ssdsim__hist_quantile(h, 2.0), 1000);
    ck_assert_uint_eq(ssdsim__hist_quantile(h, -1.0), 1);
    ck_assert_uint_eq(ssdsim__hist_quantile(h, NAN), 1);
    ck_assert(ssdsim__hist_mean(h) == 500.5);
    /* Population stddev of 1..n is sqrt((n^2 - 1) / 12). */
    ck_assert_double_eq_tol(ssdsim__hist_stddev(h), sqrt((1000.0 * 1000.0 - 1) / 12), 1e-9);
}
END_TEST

START_TEST(test_stats_hist_quantiles_exact_below_256)
{
    /* 100 samples 0..99: every quantile is exact. */
    for (uint64_t v = 0; v < 100; v++)
        ssdsim__hist_add(h, v);
    ck_assert_uint_eq(ssdsim__hist_quantile(h, 0.5), 49);  /* rank 50 */
    ck_assert_uint_eq(ssdsim__hist_quantile(h, 0.9), 89);  /* rank 90 */
    ck_assert_uint_eq(ssdsim__hist_quantile(h, 0.99), 98); /* rank 99 */
    ck_assert_uint_eq(ssdsim__hist_quantile(h, 1.0), 99);
}
END_TEST

START_TEST(test_stats_hist_quantiles_large_values_relative_error)
{
    /* Latency-like values: 1 ms .. 2 ms in 1 us steps; p-quantiles within 1/128 above truth. */
    for (uint64_t i = 0; i < 1000; i++)
        ssdsim__hist_add(h, 1000000 + i * 1000);
    const double qs[] = {0.1, 0.5, 0.9, 0.99, 0.999};
    for (size_t k = 0; k < sizeof qs / sizeof qs[0]; k++) {
        uint64_t rank = (uint64_t)ceil(qs[k] * 1000 - 1e-9);
        uint64_t truth = 1000000 + (rank - 1) * 1000;
        uint64_t got = ssdsim__hist_quantile(h, qs[k]);
        ck_assert_uint_ge(got, truth);
        ck_assert_double_le((double)(got - truth) / (double)truth, 1.0 / 128);
    }
    ck_assert_uint_eq(ssdsim__hist_quantile(h, 1.0), 1999000);
}
END_TEST

START_TEST(test_stats_hist_mean_stddev_hand_computed)
{
    /* {2, 4, 4, 4, 5, 5, 7, 9}: mean 5, population variance 32 / 8 = 4, stddev 2. */
    const uint64_t v[] = {2, 4, 4, 4, 5, 5, 7, 9};
    for (size_t i = 0; i < 8; i++)
        ssdsim__hist_add(h, v[i]);
    ck_assert(ssdsim__hist_mean(h) == 5.0);
    ck_assert_double_eq_tol(ssdsim__hist_stddev(h), 2.0, 1e-12);
    ck_assert_uint_eq(h->min, 2);
    ck_assert_uint_eq(h->max, 9);

    /* Equal values: exactly 0 although sum_sq / n - mean^2 does not cancel exactly here. */
    ssdsim__hist_reset(h);
    for (int i = 0; i < 1000; i++)
        ssdsim__hist_add(h, 1000000007);
    ck_assert(ssdsim__hist_stddev(h) == 0.0);
    ck_assert(ssdsim__hist_mean(h) == 1000000007.0);

    /* Two values far from 0 and 1 apart: stddev 0.5 (bounded by (max - min) / 2). */
    ssdsim__hist_reset(h);
    for (int i = 0; i < 500; i++) {
        ssdsim__hist_add(h, 1000000000);
        ssdsim__hist_add(h, 1000000001);
    }
    ck_assert_double_le(ssdsim__hist_stddev(h), 0.5);
    ck_assert(ssdsim__hist_mean(h) == 1000000000.5);
}
END_TEST

START_TEST(test_stats_hist_merge_equals_adding_all)
{
    struct ssdsim__hist *a = calloc(1, sizeof *a), *b = calloc(1, sizeof *b);
    ck_assert_ptr_nonnull(a);
    ck_assert_ptr_nonnull(b);
    ssdsim__hist_reset(a);
    ssdsim__hist_reset(b);
    uint64_t s = 12345;
    for (int i = 0; i < 5000; i++) {
        uint64_t v = next_rand(&s) % (1u << 20); /* sums of squares stay below 2^53: exact */
        ssdsim__hist_add(i % 3 ? a : b, v);
        ssdsim__hist_add(h, v);
    }
    /* Into an empty histogram, then the other half. */
    struct ssdsim__hist *m = calloc(1, sizeof *m);
    ck_assert_ptr_nonnull(m);
    ssdsim__hist_reset(m);
    ssdsim__hist_merge(m, a);
    ssdsim__hist_merge(m, b);
    ck_assert_uint_eq(m->count, h->count);
    ck_assert_uint_eq(m->min, h->min);
    ck_assert_uint_eq(m->max, h->max);
    ck_assert(m->sum == h->sum);
    ck_assert(m->sum_sq == h->sum_sq);
    ck_assert(memcmp(m->buckets, h->buckets, sizeof h->buckets) == 0);
    ck_assert_uint_eq(ssdsim__hist_quantile(m, 0.99), ssdsim__hist_quantile(h, 0.99));

    /* Merging an empty histogram changes nothing (min stays, not 0). */
    ssdsim__hist_reset(a);
    ssdsim__hist_merge(m, a);
    ck_assert_uint_eq(m->count, h->count);
    ck_assert_uint_eq(m->min, h->min);
    free(a);
    free(b);
    free(m);
}
END_TEST

START_TEST(test_stats_hist_uint64_max)
{
    ssdsim__hist_add(h, UINT64_MAX);
    ck_assert_uint_eq(h->min, UINT64_MAX);
    ck_assert_uint_eq(h->max, UINT64_MAX);
    ck_assert_uint_eq(h->buckets[SSDSIM__HIST_N_BUCKETS - 1], 1);
    ck_assert_uint_eq(ssdsim__hist_quantile(h, 1.0), UINT64_MAX);
    ck_assert_uint_eq(ssdsim__hist_quantile(h, 0.5), UINT64_MAX);
    ck_assert(ssdsim__hist_mean(h) == 18446744073709551615.0);

    ssdsim__hist_add(h, 0);
    ck_assert_uint_eq(h->min, 0);
    ck_assert_uint_eq(ssdsim__hist_quantile(h, 0.5), 0);
    ck_assert_uint_eq(ssdsim__hist_quantile(h, 1.0), UINT64_MAX);
    ck_assert(isfinite(ssdsim__hist_stddev(h)));
}
END_TEST

START_TEST(test_stats_hist_reset_clears)
{
    for (uint64_t v = 1; v <= 100; v++)
        ssdsim__hist_add(h, v * 1000);
    ssdsim__hist_reset(h);
    ck_assert_uint_eq(h->count, 0);
    ck_assert_uint_eq(ssdsim__hist_quantile(h, 0.5), 0);
    for (uint32_t i = 0; i < SSDSIM__HIST_N_BUCKETS; i++)
        ck_assert_uint_eq(h->buckets[i], 0);
    ssdsim__hist_add(h, 7);
    ck_assert_uint_eq(h->min, 7);
    ck_assert_uint_eq(h->max, 7);
}
END_TEST

static Suite *stats_suite(void)
{
    Suite *s = suite_create("stats");
    TCase *tc = tcase_create("hist");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, test_stats_hist_small_values_exact);
    tcase_add_test(tc, test_stats_hist_buckets_contiguous_and_cover_uint64);
    tcase_add_test(tc, test_stats_hist_relative_width_bounded);
    tcase_add_test(tc, test_stats_hist_index_monotonic);
    tcase_add_test(tc, test_stats_hist_empty_returns_zero);
    tcase_add_test(tc, test_stats_hist_single_sample);
    tcase_add_test(tc, test_stats_hist_quantiles_uniform);
    tcase_add_test(tc, test_stats_hist_quantiles_exact_below_256);
    tcase_add_test(tc, test_stats_hist_quantiles_large_values_relative_error);
    tcase_add_test(tc, test_stats_hist_mean_stddev_hand_computed);
    tcase_add_test(tc, test_stats_hist_merge_equals_adding_all);
    tcase_add_test(tc, test_stats_hist_uint64_max);
    tcase_add_test(tc, test_stats_hist_reset_clears);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return test_run_suite(stats_suite());
}
