/* latsum.c: latency histograms summed over runs (ssdsim_latency_sum, ssdsim/suite.h), and the
 * points of their cumulative distribution that a plot needs. The buckets of every run have the
 * same edges, so a sum is a merge of two increasing lists of edges; it costs a copy of the
 * buckets per run added (a few hundred), off every hot path.
 */
#include "common.h"

#include <glib.h>
#include <math.h>
#include <stdlib.h>

#include "ssdsim/suite.h"

struct ssdsim_latency_sum {
    GArray *upper, *count; /* uint64_t each, increasing upper edges */
    uint64_t max_ns;       /* the largest latency added (0: none): a bucket's upper edge may
                              lie above it, the distribution may not */
};

int ssdsim_latency_sum_new(ssdsim_latency_sum **out)
{
    if (!out)
        return SSDSIM_EINVAL;
    ssdsim_latency_sum *h = calloc(1, sizeof *h);
    if (!h) {
        *out = NULL;
        return SSDSIM_ENOMEM;
    }
    h->upper = g_array_new(FALSE, FALSE, sizeof(uint64_t));
    h->count = g_array_new(FALSE, FALSE, sizeof(uint64_t));
    *out = h;
    return 0;
}

void ssdsim_latency_sum_free(ssdsim_latency_sum *h)
{
    if (!h)
        return;
    g_array_unref(h->upper);
    g_array_unref(h->count);
    free(h);
}

/* Add `n` buckets (increasing upper edges) into `h`. */
static void merge(ssdsim_latency_sum *h, const uint64_t *up, const uint64_t *cnt, size_t n)
{
    GArray *mu = g_array_sized_new(FALSE, FALSE, sizeof(uint64_t), h->upper->len + (guint)n);
    GArray *mc = g_array_sized_new(FALSE, FALSE, sizeof(uint64_t), h->upper->len + (guint)n);
    size_t i = 0, j = 0;
    while (i < h->upper->len || j < n) {
        uint64_t a = i < h->upper->len ? g_array_index(h->upper, uint64_t, i) : UINT64_MAX;
        uint64_t b = j < n ? up[j] : UINT64_MAX;
        uint64_t u = a < b ? a : b, c = 0;
        if (a == u)
            c += g_array_index(h->count, uint64_t, i++);
        if (b == u)
            c += cnt[j++];
        g_array_append_val(mu, u);
        g_array_append_val(mc, c);
    }
    g_array_unref(h->upper);
    g_array_unref(h->count);
    h->upper = mu;
    h->count = mc;
}

int ssdsim_latency_sum_merge(ssdsim_latency_sum *dst, const ssdsim_latency_sum *src)
{
    if (!dst || !src)
        return SSDSIM_EINVAL;
    if (src->upper->len)
        merge(dst, (const uint64_t *)(void *)src->upper->data,
              (const uint64_t *)(void *)src->count->data, src->upper->len);
    dst->max_ns = SSDSIM__MAX(dst->max_ns, src->max_ns);
    return 0;
}

int ssdsim_latency_sum_add_run(ssdsim_latency_sum *h, const ssdsim *sim, enum ssdsim_op op)
{
    if (!h || !sim)
        return SSDSIM_EINVAL;
    size_t n = ssdsim_latency_histogram(sim, op, NULL, NULL, 0);
    if (n == 0)
        return 0;
    uint64_t *up = g_new(uint64_t, n), *cnt = g_new(uint64_t, n);
    n = ssdsim_latency_histogram(sim, op, up, cnt, n);
    merge(h, up, cnt, n);
    ssdsim_op_stats st;
    if (ssdsim_get_op_stats(sim, op, &st) == 0 && st.count)
        h->max_ns = SSDSIM__MAX(h->max_ns, st.lat_max_ns);
    g_free(up);
    g_free(cnt);
    return 0;
}

size_t ssdsim_latency_sum_buckets(const ssdsim_latency_sum *h, uint64_t *upper_ns, uint64_t *counts,
                                  size_t max)
{
    if (!h)
        return 0;
    size_t n = h->upper->len;
    for (size_t i = 0; i < n && i < max; i++) {
        if (upper_ns)
            upper_ns[i] = g_array_index(h->upper, uint64_t, i);
        if (counts)
            counts[i] = g_array_index(h->count, uint64_t, i);
    }
    return n;
}

size_t ssdsim_latency_sum_cdf(const ssdsim_latency_sum *h, uint64_t *lat_ns, double *cdf_out,
                              size_t max)
{
    if (!h)
        return 0;
    const uint64_t *up = (const uint64_t *)(void *)h->upper->data;
    const uint64_t *cnt = (const uint64_t *)(void *)h->count->data;
    size_t n = h->upper->len, kept = 0;
    uint64_t total = 0;
    for (size_t i = 0; i < n; i++)
        total += cnt[i];
    if (total == 0)
        return 0;
    /* About 200 points with the tail resolved to 99.99% and beyond. */
    uint64_t acc = 0;
    double last_cdf = -1;
    int last_tail = -1;
    for (size_t i = 0; i < n; i++) {
        acc += cnt[i];
        double cdf = (double)acc / (double)total;
        double tail = 1 - cdf;
        int tail_step = tail > 0 ? (int)floor(-log10(tail) * 10) : 1000;
        if (i == 0 || i + 1 == n || cdf - last_cdf >= 0.005 || tail_step != last_tail) {
            if (kept < max) {
                /* the last samples' bucket may reach past the largest of them */
                if (lat_ns)
                    lat_ns[kept] = h->max_ns && up[i] > h->max_ns ? h->max_ns : up[i];
                if (cdf_out)
                    cdf_out[kept] = cdf;
            }
            kept++;
            last_cdf = cdf;
            last_tail = tail_step;
        }
    }
    return kept;
}
