/* stats.c: per-run statistics and the time series (the preconditioning curve). */
#include "stats/stats.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

int ssdsim__stats_init(struct ssdsim__stats *s, const struct ssdsim_ftl_env *env)
{
    memset(s, 0, sizeof *s);
    s->env = env;
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
    s->base = s->env->n;
    s->base_ec_max = s->env->ec_max;
    s->base_ec_mean = ssdsim__erase_mean(s->env);
    s->interval_ns = interval_ns;
    s->interval_ios = interval_ios;
    s->iv_start_ns = now;
    s->iv_n = s->iv_bytes = s->iv_max = 0;
    s->iv_sum = s->iv_sum_sq = 0;
    s->iv_host0 = ssdsim__host_pages(&s->env->n);
    s->iv_flash0 = ssdsim__programs(&s->env->n);
    s->n_series = 0;
    s->oom = false;
}

void ssdsim__stats_counters(const struct ssdsim__stats *s, struct ssdsim__env_counters *out)
{
    const struct ssdsim__env_counters *c = &s->env->n, *b = &s->base;
    for (int i = 0; i < SSDSIM_N_COUNTERS; i++)
        out->c[i] = c->c[i] - b->c[i];
    for (int i = 0; i < SSDSIM__N_PURPOSES; i++) {
        out->programs[i] = c->programs[i] - b->programs[i];
        out->reads[i] = c->reads[i] - b->reads[i];
    }
    out->erases = c->erases - b->erases;
}

double ssdsim__erase_mean(const struct ssdsim_ftl_env *env)
{
    /* total erases since new / blocks: the histogram's mean without walking it */
    double blocks = (double)env->geo.n_blocks;
    double total = 0;
    for (uint32_t e = env->ec_min; e <= env->ec_max; e++)
        total += (double)e * (double)env->ec_hist[e];
    return blocks > 0 ? total / blocks : 0;
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
    const struct ssdsim__env_counters *c = &s->env->n;
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
    uint64_t host = ssdsim__host_pages(c) - s->iv_host0;
    uint64_t flash = ssdsim__programs(c) - s->iv_flash0;
    iv->waf = host ? (double)flash / (double)host : NAN;
    iv->host_pages_written = ssdsim__host_pages(c) - ssdsim__host_pages(&s->base);
    iv->flash_pages_programmed = ssdsim__programs(c) - ssdsim__programs(&s->base);
    iv->free_blocks = ssdsim__env_free_blocks(s->env);
    s->iv_start_ns = now;
    s->iv_n = s->iv_bytes = s->iv_max = 0;
    s->iv_sum = s->iv_sum_sq = 0;
    s->iv_host0 = ssdsim__host_pages(c);
    s->iv_flash0 = ssdsim__programs(c);
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
