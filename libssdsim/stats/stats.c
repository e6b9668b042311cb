/* stats.c: per-run statistics and the time series (the preconditioning curve). */
#include "stats/stats.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

int ssdsim__stats_init(struct ssdsim__stats *s, const struct ssdsim__ftl *ftl)
{
    memset(s, 0, sizeof *s);
    s->ftl = ftl;
    return 0;
}

void ssdsim__stats_fini(struct ssdsim__stats *s)
{
    free(s->series);
    s->series = NULL;
}

void ssdsim__stats_reset(struct ssdsim__stats *s, uint64_t now, uint64_t interval_ns,
                         uint64_t interval_ios)
{
    for (int i = 0; i < 4; i++) {
        ssdsim__hist_reset(&s->hist[i]);
        s->bytes[i] = 0;
    }
    s->start_ns = s->end_ns = now;
    s->base = s->ftl->c;
    s->interval_ns = interval_ns;
    s->interval_ios = interval_ios;
    s->iv_start_ns = now;
    s->iv_n = s->iv_bytes = s->iv_max = 0;
    s->iv_sum = s->iv_sum_sq = 0;
    s->iv_host0 = s->ftl->c.host_pages_written;
    s->iv_flash0 = s->ftl->c.flash_pages_programmed;
    s->n_series = 0;
    s->oom = false;
}

void ssdsim__stats_counters(const struct ssdsim__stats *s, struct ssdsim__ftl_counters *out)
{
    const struct ssdsim__ftl_counters *c = &s->ftl->c, *b = &s->base;
    out->host_pages_written = c->host_pages_written - b->host_pages_written;
    out->flash_pages_programmed = c->flash_pages_programmed - b->flash_pages_programmed;
    out->gc_pages_copied = c->gc_pages_copied - b->gc_pages_copied;
    out->blocks_erased = c->blocks_erased - b->blocks_erased;
    out->flash_reads = c->flash_reads - b->flash_reads;
    out->unmapped_reads = c->unmapped_reads - b->unmapped_reads;
    out->gc_victims = c->gc_victims - b->gc_victims;
}

void ssdsim__stats_close_interval(struct ssdsim__stats *s, uint64_t now)
{
    if (now <= s->iv_start_ns)
        return;
    if (s->n_series == s->cap_series) {
        size_t ncap = s->cap_series ? s->cap_series * 2 : 256;
        ssdsim_interval *p = realloc(s->series, ncap * sizeof *p);
        if (!p) {
            s->oom = true;
            return;
        }
        s->series = p;
        s->cap_series = ncap;
    }
    ssdsim_interval *iv = &s->series[s->n_series++];
    const struct ssdsim__ftl_counters *c = &s->ftl->c;
    double dur_s = (double)(now - s->iv_start_ns) / 1e9;
    memset(iv, 0, sizeof *iv);
    iv->t_ns = now - s->start_ns;
    iv->n_ios = s->iv_n;
    iv->iops = (double)s->iv_n / dur_s;
    iv->bw_bytes = (double)s->iv_bytes / dur_s;
    if (s->iv_n) {
        double mean = s->iv_sum / (double)s->iv_n;
        double var = s->iv_sum_sq / (double)s->iv_n - mean * mean;
        iv->lat_ns_mean = mean;
        iv->lat_ns_stddev = var > 0 ? sqrt(var) : 0;
        iv->lat_ns_max = s->iv_max;
    }
    uint64_t host = c->host_pages_written - s->iv_host0;
    uint64_t flash = c->flash_pages_programmed - s->iv_flash0;
    iv->waf = host ? (double)flash / (double)host : NAN;
    iv->host_pages_written = c->host_pages_written - s->base.host_pages_written;
    iv->flash_pages_programmed = c->flash_pages_programmed - s->base.flash_pages_programmed;
    iv->free_blocks = s->ftl->n_free_blocks;
    s->iv_start_ns = now;
    s->iv_n = s->iv_bytes = s->iv_max = 0;
    s->iv_sum = s->iv_sum_sq = 0;
    s->iv_host0 = c->host_pages_written;
    s->iv_flash0 = c->flash_pages_programmed;
}

void ssdsim__stats_record(struct ssdsim__stats *s, uint32_t op, uint64_t bytes, uint64_t lat_ns,
                          uint64_t now)
{
    ssdsim__hist_add(&s->hist[op], lat_ns);
    ssdsim__hist_add(&s->hist[SSDSIM_OP_ALL], lat_ns);
    s->bytes[op] += bytes;
    s->bytes[SSDSIM_OP_ALL] += bytes;
    s->end_ns = now;
    s->iv_n++;
    s->iv_bytes += bytes;
    double l = (double)lat_ns;
    s->iv_sum += l;
    s->iv_sum_sq += l * l;
    if (lat_ns > s->iv_max)
        s->iv_max = lat_ns;
    if (s->interval_ios && s->iv_n >= s->interval_ios)
        ssdsim__stats_close_interval(s, now);
}

void ssdsim__stats_finish(struct ssdsim__stats *s, uint64_t now)
{
    s->end_ns = now;
    if ((s->interval_ns || s->interval_ios) && s->iv_n > 0)
        ssdsim__stats_close_interval(s, now);
}
