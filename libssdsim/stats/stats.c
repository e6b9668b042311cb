/* stats.c: per-run statistics and the time series (the preconditioning curve).
 *
 * A row of the series closes at a tick of simulated time (sim.c calls
 * ssdsim__stats_close_interval), at the completion of every interval_ios-th request, or at the
 * completion of the write that brings the host bytes written to the next multiple of
 * interval_bytes; the end of the run adds a partial last row (marked `partial`). Each row's
 * device figures are differences of the FTL environment's cumulative counters, so per-row GC
 * copies and erases add up to the run's totals. The interval's latencies also go into a
 * histogram of their own for the row's 99th percentile (one more histogram add per request,
 * only while a series is kept).
 *
 * Each completion goes into one 58 KiB histogram of the run, its op type's: adding it also to a
 * histogram of all op types touched another cold cache line per I/O. That one keeps only the
 * moments per I/O (count, min, max, sums: one warm cache line) and merges the three op types'
 * buckets when it is read. The sums stay per I/O rather than merged, since adding the three
 * sums of squares would round differently from adding every square in turn.
 *
 * A run's reporting jobs (host.c) have histograms of their own, which hold every sample of the
 * run's as long as nothing parts them: each completion would go into two 58 KiB histograms,
 * the run's and its job's. While they hold the same samples, the run's keeps only its moments
 * per I/O and gets its buckets by summing the jobs' when it is read (`parts`); when they would
 * part, the jobs' buckets are summed into it once. Summing a job's covers only the buckets
 * between the run's min and max: a few cache lines for the latencies of one kind of drive.
 * (One reporting job had its histogram stand for the run's instead, which saved the same add.)
 */
#include "stats/stats.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

int ssdsim__stats_init(struct ssdsim__stats *s, const struct ssdsim__sys *sys)
{
    memset(s, 0, sizeof *s);
    s->sys = sys;
    s->max_rows = SSDSIM__SERIES_MAX_ROWS;
    s->dev_base = calloc(sys->n_devs, sizeof *s->dev_base);
    return s->dev_base ? 0 : SSDSIM_ENOMEM;
}

void ssdsim__stats_fini(struct ssdsim__stats *s)
{
    free(s->series);
    free(s->dev_base);
    s->series = NULL;
    s->dev_base = NULL;
}

void ssdsim__stats_dev_now(const struct ssdsim__sys *sys, uint32_t k, struct ssdsim__devbase *out)
{
    const struct ssdsim__dev *d = &sys->devs[k];
    memset(out, 0, sizeof *out);
    if (d->ssd)
        out->n = d->env.n;
    memcpy(out->cmds, d->done_cmds, sizeof out->cmds);
    memcpy(out->bytes, d->done_bytes, sizeof out->bytes);
    ssdsim__buf_counters(d->buf, &out->absorbed, &out->hits);
}

/* Remember the FTL counters at the start of the current interval. */
static void iv_mark(struct ssdsim__stats *s)
{
    struct ssdsim__env_counters cc;
    ssdsim__sys_counters(s->sys, &cc);
    const struct ssdsim__env_counters *c = &cc;
    s->iv_host0 = ssdsim__host_pages(c);
    s->iv_flash0 = ssdsim__programs(c);
    s->iv_gc0 = c->c[SSDSIM_CNT_GC_COPIES];
    s->iv_erase0 = c->erases;
}

/* Empty the interval's histogram. Every sample lies in the buckets from that of the smallest to
 * that of the largest, so only those are cleared: a few cache lines for a short interval, at
 * most the whole 58 KiB (a memset of it per interval would cost more than a short interval's
 * requests). */
static void iv_clear(struct ssdsim__hist *h)
{
    if (h->count) {
        uint32_t a = ssdsim__hist_index(h->min), b = ssdsim__hist_index(h->max);
        memset(&h->buckets[a], 0, (size_t)(b - a + 1) * sizeof h->buckets[0]);
    }
#ifdef SSDSIM_DEBUG
    for (uint32_t i = 0; i < SSDSIM__HIST_N_BUCKETS; i++)
        assert(h->buckets[i] == 0);
#endif
    h->count = h->min = h->max = 0;
    h->sum = h->sum_sq = 0;
}

void ssdsim__stats_reset(struct ssdsim__stats *s, uint64_t now, uint64_t interval_ns,
                         uint64_t interval_ios, uint64_t interval_bytes)
{
    assert(!!interval_ns + !!interval_ios + !!interval_bytes <= 1);
    /* A reset hist[] no longer holds what the parts do: it keeps buckets of its own, from none.
     * An empty one goes on having them as its parts. */
    if (s->hist[0].count || s->hist[1].count || s->hist[2].count)
        s->parts = NULL;
    for (int i = 0; i < 3; i++)
        ssdsim__hist_reset(&s->hist[i]);
    memset(&s->all, 0, sizeof s->all);
    for (int i = 0; i < 4; i++)
        s->bytes[i] = 0;
    s->start_ns = s->end_ns = now;
    s->unmeasured_ns = 0;
    ssdsim__sys_counters(s->sys, &s->base);
    ssdsim__sys_measure(s->sys);
    ssdsim__sys_mech(s->sys, now, &s->base_mech);
    for (uint32_t k = 0; s->dev_base && k < s->sys->n_devs; k++)
        ssdsim__stats_dev_now(s->sys, k, &s->dev_base[k]);
    s->base_ec_max = ssdsim__sys_ec_max(s->sys);
    s->base_ec_mean = ssdsim__sys_erase_mean(s->sys);
    s->interval_ns = interval_ns;
    s->interval_ios = interval_ios;
    s->interval_bytes = interval_bytes;
    s->series_on = interval_ns || interval_ios || interval_bytes;
    ssdsim__hist_reset(&s->iv_hist);
    s->iv_start_ns = now;
    s->iv_bytes = 0;
    s->iv_write_end = interval_bytes;
    iv_mark(s);
    s->n_series = 0;
    s->last_partial = false;
    s->first_round = ssdsim__sys_preconditioned(s->sys, NULL, 0) ? 0 : SIZE_MAX;
    s->oom = false;
    s->full = false;
}

void ssdsim__stats_counters(const struct ssdsim__stats *s, struct ssdsim__env_counters *out)
{
    struct ssdsim__env_counters cc;
    ssdsim__sys_counters(s->sys, &cc);
    const struct ssdsim__env_counters *c = &cc, *b = &s->base;
    for (int i = 0; i < SSDSIM__N_COUNTERS; i++)
        out->c[i] = c->c[i] - b->c[i];
    for (int i = 0; i < SSDSIM__N_PURPOSES; i++) {
        out->programs[i] = c->programs[i] - b->programs[i];
        out->reads[i] = c->reads[i] - b->reads[i];
    }
    out->erases = c->erases - b->erases;
}

void ssdsim__stats_parts(struct ssdsim__stats *s, const struct ssdsim__hist *first, uint32_t n,
                         size_t stride)
{
    if (s->hist[0].count || s->hist[1].count || s->hist[2].count)
        return;
    s->parts = first;
    s->n_parts = n;
    s->part_stride = stride;
}

/* Add the parts' buckets of op into `dst`'s (from that of the run's smallest sample to that of
 * its largest, which bound every part's). */
static void parts_buckets(const struct ssdsim__stats *s, uint32_t op, struct ssdsim__hist *dst)
{
    const struct ssdsim__hist *h = &s->hist[op];
    if (h->count == 0)
        return;
    const char *p = (const char *)s->parts;
    for (uint32_t k = 0; k < s->n_parts; k++, p += s->part_stride)
        ssdsim__hist_merge_buckets(dst, (const struct ssdsim__hist *)p + op, h->min, h->max);
}

void ssdsim__stats_detach(struct ssdsim__stats *s)
{
    if (!s->parts)
        return;
    for (uint32_t op = 0; op < 3; op++)
        parts_buckets(s, op, &s->hist[op]);
    s->parts = NULL;
}

const struct ssdsim__hist *ssdsim__stats_hist(const struct ssdsim__stats *s, uint32_t op,
                                              struct ssdsim__hist *scratch)
{
    assert(op <= SSDSIM_OP_ALL);
    if (op < SSDSIM_OP_ALL && !s->parts)
        return &s->hist[op];
    memset(scratch->buckets, 0, sizeof scratch->buckets);
    for (uint32_t k = 0; k < 3; k++) {
        if (op != SSDSIM_OP_ALL && k != op)
            continue;
        if (s->parts)
            parts_buckets(s, k, scratch);
        else
            ssdsim__hist_merge_buckets(scratch, &s->hist[k], s->hist[k].min, s->hist[k].max);
    }
    scratch->m = op < SSDSIM_OP_ALL ? s->hist[op].m : s->all;
    assert(op < SSDSIM_OP_ALL || scratch->count == s->hist[0].count + s->hist[1].count +
                                                       s->hist[2].count);
    return scratch;
}

/* Close the current interval at `now` into a new row; false when there is no row to add (an
 * empty interval of no length, no memory: s->oom, or max_rows rows already: s->full). */
static bool close_row(struct ssdsim__stats *s, uint64_t now)
{
    if (now <= s->iv_start_ns)
        return false;
    if (s->n_series >= s->max_rows) {
        s->full = true;
        return false;
    }
    if (s->n_series == s->cap_series) {
        size_t ncap = s->cap_series ? s->cap_series * 2 : 256;
        ssdsim_interval *p = realloc(s->series, ncap * sizeof *p);
        if (!p) {
            s->oom = true;
            return false;
        }
        s->series = p;
        s->cap_series = ncap;
    }
    ssdsim_interval *iv = &s->series[s->n_series++];
    struct ssdsim__env_counters cc;
    ssdsim__sys_counters(s->sys, &cc);
    const struct ssdsim__env_counters *c = &cc;
    const struct ssdsim__hist *h = &s->iv_hist;
    double dur_s = (double)(now - s->iv_start_ns) / 1e9;
    memset(iv, 0, sizeof *iv);
    iv->t_ns = now - s->start_ns;
    iv->n_ios = h->count;
    iv->iops = (double)h->count / dur_s;
    iv->bw_bytes = (double)s->iv_bytes / dur_s;
    iv->lat_ns_mean = ssdsim__hist_mean(h);
    iv->lat_ns_stddev = ssdsim__hist_stddev(h);
    iv->lat_ns_max = h->max;
    iv->lat_ns_p99 = ssdsim__hist_quantile(h, 0.99);
    uint64_t host = ssdsim__host_pages(c) - s->iv_host0;
    uint64_t flash = ssdsim__programs(c) - s->iv_flash0;
    iv->waf = host ? (double)flash / (double)host : NAN;
    iv->host_pages_written = ssdsim__host_pages(c) - ssdsim__host_pages(&s->base);
    iv->flash_pages_programmed = ssdsim__programs(c) - ssdsim__programs(&s->base);
    /* the same quotient as the device's waf (results.c), so the last row's equals it */
    iv->waf_cumulative = iv->host_pages_written
                             ? (double)iv->flash_pages_programmed / (double)iv->host_pages_written
                             : NAN;
    iv->gc_pages_copied = c->c[SSDSIM_CNT_GC_COPIES] - s->iv_gc0;
    iv->blocks_erased = c->erases - s->iv_erase0;
    iv->host_bytes_written = s->bytes[SSDSIM_OP_WRITE];
    iv->free_blocks = ssdsim__sys_free_blocks(s->sys);
    s->iv_start_ns = now;
    s->iv_bytes = 0;
    iv_clear(&s->iv_hist);
    iv_mark(s);
    /* The next row begins now: on a preconditioned device? (Once it is, it stays so until a
     * secure erase, which is never inside a run.) */
    if (s->first_round == SIZE_MAX && ssdsim__sys_preconditioned(s->sys, NULL, 0))
        s->first_round = s->n_series;
    if (s->interval_bytes) {
        /* The next row ends at the next multiple of interval_bytes written since the start, so
         * rows do not drift when a write crosses a boundary (and a write larger than the
         * interval closes one row, not several). */
        uint64_t k = s->bytes[SSDSIM_OP_WRITE] / s->interval_bytes + 1;
        s->iv_write_end = k > UINT64_MAX / s->interval_bytes ? UINT64_MAX : k * s->interval_bytes;
    }
    return true;
}

void ssdsim__stats_close_interval(struct ssdsim__stats *s, uint64_t now)
{
    if (!close_row(s, now))
        return;
    s->last_partial = false;
    if (s->on_close)
        s->on_close(s->on_close_ctx);
}

/* ssdsim__stats_record with a whole histogram per op type or a time series: out of line, so
 * that the usual case (parts, no series) calls nothing and saves no register (it saved six,
 * 22 instructions per completion). */
static SSDSIM__NOINLINE void record_full(struct ssdsim__stats *s, uint32_t op, uint64_t bytes,
                                         uint64_t lat_ns, uint64_t now)
{
    if (s->parts)
        ssdsim__hist_moments_add(&s->hist[op].m, lat_ns);
    else
        ssdsim__hist_add(&s->hist[op], lat_ns);
    ssdsim__hist_moments_add(&s->all, lat_ns);
    s->bytes[op] += bytes;
    s->bytes[SSDSIM_OP_ALL] += bytes;
    s->end_ns = now;
    if (!s->series_on)
        return;
    ssdsim__hist_add(&s->iv_hist, lat_ns);
    s->iv_bytes += bytes;
    if (s->interval_ios ? s->iv_hist.count >= s->interval_ios
                        : s->interval_bytes && op == SSDSIM_OP_WRITE &&
                              s->bytes[SSDSIM_OP_WRITE] >= s->iv_write_end)
        ssdsim__stats_close_interval(s, now);
}

void ssdsim__stats_record(struct ssdsim__stats *s, uint32_t op, uint64_t bytes, uint64_t lat_ns,
                          uint64_t now)
{
    if (SSDSIM__UNLIKELY(!s->parts || s->series_on)) {
        record_full(s, op, bytes, lat_ns, now);
        return;
    }
    ssdsim__hist_moments_add(&s->hist[op].m, lat_ns);
    ssdsim__hist_moments_add(&s->all, lat_ns);
    s->bytes[op] += bytes;
    s->bytes[SSDSIM_OP_ALL] += bytes;
    s->end_ns = now;
}

void ssdsim__stats_finish(struct ssdsim__stats *s, uint64_t now)
{
    s->end_ns = now;
    if (s->series_on && s->iv_hist.count > 0 && close_row(s, now)) {
        s->last_partial = true;
        s->series[s->n_series - 1].partial = 1;
    }
}
