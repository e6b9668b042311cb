/* fio_logs.c: fio's per-job logs (ssdsim/measure.h, ssdsim_fio_logs_*): the entries fio 3.x
 * writes for write_lat_log, write_iops_log and write_bw_log, with and without log_avg_msec,
 * computed from a run's completions (the caller's observer passes them in) and handed to the
 * caller's callback, which writes the files (`ssdsim run`: sim/watch.c). Each clone's epoch is
 * its job's start plus its ramp_time; windows are averaged per direction. Memory is O(job
 * clones); nothing is allocated per request but, once, the map from clones to jobs.
 */
#include "common.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include <glib.h>

#include "ssdsim/measure.h"

static const char *const log_suffix[SSDSIM_FIO_LOG_KINDS] = {"lat", "clat", "slat", "iops", "bw"};

/* One job clone. */
struct clone {
    char *path[SSDSIM_FIO_LOG_KINDS]; /* NULL: not asked */
    bool any;                         /* a lat, iops or bw log (slat alone is never written) */
    uint64_t avg_ms;                  /* log_avg_msec; 0 = an entry per I/O */
    bool started;                     /* its epoch is known */
    uint64_t epoch_ns; /* absolute simulated time of its log time 0 (start + ramp_time) */
    /* the current window (log_avg_msec) */
    uint64_t win;
    uint64_t n[3], lat_sum[3], bytes[3];
    uint64_t last_ms; /* time of its last logged completion */
    bool logged;
};

struct ssdsim_fio_logs {
    ssdsim_fio_log_fn fn;
    void *userdata;
    const ssdsim *sim;
    uint64_t t0_ns;
    uint32_t n_clones;
    struct clone *clones;
    uint32_t *unit_of; /* clone -> reported job, built at the first completion */
};

int ssdsim_fio_logs_new(ssdsim_fio_logs **out, const ssdsim_workload *wl, ssdsim_fio_log_fn fn,
                        void *userdata, ssdsim_error *err)
{
    if (out)
        *out = NULL;
    if (!out || !wl || !fn)
        return ssdsim__error_set(err, SSDSIM_EINVAL, NULL, NULL,
                                 "ssdsim_fio_logs_new: NULL argument");
    size_t n_sections = ssdsim_workload_n_jobs(wl);
    uint64_t n_clones = 0;
    bool any = false;
    for (size_t s = 0; s < n_sections; s++) {
        const char *iops, *lat, *bw;
        uint32_t numjobs = 0;
        if (ssdsim_workload_job_logs(wl, s, &iops, &lat, &bw, NULL, &numjobs))
            continue;
        n_clones += numjobs;
        any = any || iops || lat || bw;
    }
    if (!any)
        return 0;
    if (n_clones > UINT32_MAX / 2)
        return ssdsim__error_set(err, SSDSIM_ERANGE, NULL, NULL,
                                 "fio logs: %" PRIu64 " job clones are too many", n_clones);
    ssdsim_fio_logs *l = g_new0(ssdsim_fio_logs, 1);
    l->fn = fn;
    l->userdata = userdata;
    l->n_clones = (uint32_t)n_clones;
    l->clones = g_new0(struct clone, l->n_clones);
    uint32_t clone = 0;
    for (size_t s = 0; s < n_sections; s++) {
        const char *prefix[SSDSIM_FIO_LOG_KINDS] = {NULL};
        uint64_t avg = 0;
        uint32_t numjobs = 0;
        const char *iops, *lat, *bw;
        if (ssdsim_workload_job_logs(wl, s, &iops, &lat, &bw, &avg, &numjobs))
            continue;
        /* A log option given without a name uses the job's name, as fio does. */
        const char *name = ssdsim_workload_job_name(wl, s);
        prefix[SSDSIM_FIO_LOG_LAT] = prefix[SSDSIM_FIO_LOG_CLAT] = prefix[SSDSIM_FIO_LOG_SLAT] =
            lat && !*lat ? name : lat;
        prefix[SSDSIM_FIO_LOG_IOPS] = iops && !*iops ? name : iops;
        prefix[SSDSIM_FIO_LOG_BW] = bw && !*bw ? name : bw;
        for (uint32_t c = 0; c < numjobs; c++, clone++) {
            struct clone *k = &l->clones[clone];
            k->avg_ms = avg;
            k->any = lat || iops || bw;
            for (int kind = 0; kind < SSDSIM_FIO_LOG_KINDS; kind++)
                if (prefix[kind])
                    k->path[kind] = g_strdup_printf("%s_%s.%u.log", prefix[kind],
                                                    log_suffix[kind], clone + 1);
        }
    }
    *out = l;
    return 0;
}

uint32_t ssdsim_fio_logs_n_clones(const ssdsim_fio_logs *l)
{
    return l ? l->n_clones : 0;
}

const char *ssdsim_fio_logs_path(const ssdsim_fio_logs *l, uint32_t clone,
                                 ssdsim_fio_log_kind kind)
{
    if (!l || clone >= l->n_clones || (unsigned)kind >= SSDSIM_FIO_LOG_KINDS)
        return NULL;
    return l->clones[clone].path[kind];
}

void ssdsim_fio_logs_start(ssdsim_fio_logs *l, const ssdsim *sim)
{
    if (!l || !sim)
        return;
    l->sim = sim;
    l->t0_ns = ssdsim_now(sim);
}

static void entry(ssdsim_fio_logs *l, uint32_t clone, ssdsim_fio_log_kind kind, uint64_t t_ms,
                  uint64_t value, int dir, uint64_t bs)
{
    if (!l->clones[clone].path[kind])
        return;
    ssdsim_fio_log_entry e = {clone, kind, t_ms, value, dir, bs};
    l->fn(&e, l->userdata);
}

/* The averages of the clone's current window, stamped t_ms; `rates` also makes the iops and bw
 * entries (complete windows only). */
static void flush_window(ssdsim_fio_logs *l, uint32_t clone, uint64_t t_ms, bool rates)
{
    struct clone *k = &l->clones[clone];
    for (int d = 0; d < 3; d++) {
        uint64_t n = k->n[d];
        if (!n)
            continue;
        uint64_t mean = (2 * k->lat_sum[d] + n) / (2 * n); /* rounded, as fio's + 0.5 */
        entry(l, clone, SSDSIM_FIO_LOG_LAT, t_ms, mean, d, 0);
        entry(l, clone, SSDSIM_FIO_LOG_CLAT, t_ms, mean, d, 0);
        if (rates) {
            entry(l, clone, SSDSIM_FIO_LOG_IOPS, t_ms, n * 1000 / k->avg_ms, d, 0);
            entry(l, clone, SSDSIM_FIO_LOG_BW, t_ms, k->bytes[d] * 1000 / k->avg_ms / 1024, d,
                  0);
        }
        k->n[d] = k->lat_sum[d] = k->bytes[d] = 0;
    }
}

/* The clone's epoch: when its reported job started, plus its ramp_time, read from the running
 * simulation at the clone's first completion (its job has started by then). */
static void start_clone(ssdsim_fio_logs *l, uint32_t clone)
{
    struct clone *k = &l->clones[clone];
    k->started = true;
    k->epoch_ns = l->t0_ns;
    if (!l->sim)
        return;
    if (!l->unit_of) {
        l->unit_of = g_new0(uint32_t, l->n_clones);
        size_t n = ssdsim_n_jobs(l->sim);
        for (size_t u = 0; u < n; u++) {
            ssdsim_job_info ji;
            if (ssdsim_get_job(l->sim, u, &ji))
                continue;
            for (uint32_t c = ji.first_clone; c < ji.first_clone + ji.n_clones; c++)
                if (c < l->n_clones)
                    l->unit_of[c] = (uint32_t)u;
        }
    }
    ssdsim_job_info ji;
    if (ssdsim_get_job(l->sim, l->unit_of[clone], &ji) == 0)
        k->epoch_ns = l->t0_ns + ji.start_ns + ji.ramp_ns;
}

void ssdsim_fio_logs_complete(ssdsim_fio_logs *l, const ssdsim_completion *c)
{
    if (!l || !c || c->job == SSDSIM_NO_JOB || c->job >= l->n_clones)
        return;
    struct clone *k = &l->clones[c->job];
    if (!k->any)
        return;
    if (!k->started)
        start_clone(l, c->job);
    if (c->submit_ns < k->epoch_ns) /* issued during the ramp */
        return;
    uint64_t t_ms = (c->complete_ns - k->epoch_ns) / 1000000u;
    uint64_t lat = c->complete_ns - c->submit_ns;
    int d = (int)c->op;
    if (d < 0 || d > 2)
        return;
    k->last_ms = t_ms;
    k->logged = true;
    if (!k->avg_ms) {
        entry(l, c->job, SSDSIM_FIO_LOG_LAT, t_ms, lat, d, c->length);
        entry(l, c->job, SSDSIM_FIO_LOG_CLAT, t_ms, lat, d, c->length);
        entry(l, c->job, SSDSIM_FIO_LOG_IOPS, t_ms, 1, d, c->length);
        entry(l, c->job, SSDSIM_FIO_LOG_BW, t_ms, lat ? c->length * 1000000u / lat : 0, d,
              c->length);
        return;
    }
    uint64_t win = t_ms / k->avg_ms;
    if (win != k->win) {
        flush_window(l, c->job, (k->win + 1) * k->avg_ms, true);
        k->win = win;
    }
    k->n[d]++;
    k->lat_sum[d] += lat;
    k->bytes[d] += c->length;
}

void ssdsim_fio_logs_finish(ssdsim_fio_logs *l)
{
    for (uint32_t c = 0; l && c < l->n_clones; c++)
        if (l->clones[c].avg_ms && l->clones[c].logged)
            flush_window(l, c, l->clones[c].last_ms, false);
}

void ssdsim_fio_logs_free(ssdsim_fio_logs *l)
{
    if (!l)
        return;
    for (uint32_t c = 0; c < l->n_clones; c++)
        for (int kind = 0; kind < SSDSIM_FIO_LOG_KINDS; kind++)
            g_free(l->clones[c].path[kind]);
    g_free(l->clones);
    g_free(l->unit_of);
    g_free(l);
}
