/* results_fio.c: the results of the last run in the layout of fio 3.x's JSON output
 * (`fio --output-format=json`, plus the "bins" of json+), so that tools written for fio's
 * JSON (fio-plot, fio_jsonplus_clat2csv, scripts that read jobs[].write.iops) read ours.
 *
 * One "jobs" entry per reported job (ssdsim_get_job: a clone, or a group_reporting group).
 * Figures that fio measures on a real system and a simulation has no counterpart for (CPU use,
 * submission latency, queue-depth histograms, wall-clock time) are written as zeros, so the
 * layout is complete and nothing is invented; doc/results.md lists every key and says which.
 * Integers are exact (raw text, not doubles); doubles are printed like fio's, with "%f".
 */
#include "config/jsonutil.h"
#include "sim.h"
#include "workload/workload.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* fio's default percentile list (percentile_list). */
static const double fio_percentiles[] = {1,  5,  10, 20, 30,   40,   50,    60,   70,
                                         80, 90, 95, 99, 99.5, 99.9, 99.95, 99.99};

/* fio's largest histogram value (its last bucket): fio_jsonplus_clat2csv uses it as the
 * sentinel of its merge loop and never terminates on a bin above it, so bins are capped here. */
#define FIO_MAX_BIN_NS 17112760320ULL

/* The edges of fio's latency_ns / latency_us / latency_ms classes, in ns: class i holds
 * [edges[i], edges[i + 1]). fio names each class by its upper edge in the unit of its group
 * (io_u_mark_lat_nsec/usec/msec); the last class, ">=2000" ms, is open. */
/* clang-format off */
static const uint64_t lat_edges[] = {
    /* ns */ 0, 2, 4, 10, 20, 50, 100, 250, 500, 750,
    /* us */ 1000, 2000, 4000, 10000, 20000, 50000, 100000, 250000, 500000, 750000,
    /* ms */ 1000000, 2000000, 4000000, 10000000, 20000000, 50000000, 100000000, 250000000,
             500000000, 750000000, 1000000000, 2000000000,
    UINT64_MAX};
/* clang-format on */
#define N_LAT_CLASSES (SSDSIM__ARRAY_LEN(lat_edges) - 1)
static const char *const lat_names[] = {"2",   "4",   "10",  "20",  "50",
                                        "100", "250", "500", "750", "1000"};

/* ------------------------------------------------------------------------------------------ */
/* Number formatting                                                                           */

/* Doubles as fio writes them ("%f": 200000.000000). A value that is not finite cannot occur in
 * fio's output; it is written as 0 so that the document stays valid JSON. */
static void add_f(cJSON *o, const char *k, double v)
{
    char buf[352];
    snprintf(buf, sizeof buf, "%f", isfinite(v) ? v : 0.0);
    cJSON_AddItemToObject(o, k, cJSON_CreateRaw(buf));
}

static void add_u64_item(cJSON *arr, uint64_t v)
{
    char buf[32];
    snprintf(buf, sizeof buf, "%llu", (unsigned long long)v);
    cJSON_AddItemToArray(arr, cJSON_CreateRaw(buf));
}

/* fio reports sample standard deviations (n - 1); the histogram keeps the population one. */
static double sample_stddev(const struct ssdsim__hist *h)
{
    if (h->count < 2)
        return 0;
    double n = (double)h->count;
    return ssdsim__hist_stddev(h) * sqrt(n / (n - 1));
}

/* Whole milliseconds of a duration, rounded to nearest, at least 1 for a non-zero duration (fio
 * divides by runtime; a run shorter than 0.5 ms must not read as 0). */
static uint64_t ns_to_ms(uint64_t ns)
{
    uint64_t ms = (ns + SSDSIM__NS_PER_MS / 2) / SSDSIM__NS_PER_MS;
    return ms == 0 && ns > 0 ? 1 : ms;
}

/* ------------------------------------------------------------------------------------------ */
/* Latency objects                                                                             */

/* "min", "max", "mean", "stddev", "N" of a histogram, with "percentile" and (json+) "bins"
 * when asked and there are samples, as fio's add_ddir_lat_json. */
static cJSON *lat_object(const struct ssdsim__hist *h, bool percentiles)
{
    cJSON *o = cJSON_CreateObject();
    ssdsim__json_add_u64(o, "min", h->count ? h->min : 0);
    ssdsim__json_add_u64(o, "max", h->count ? h->max : 0);
    add_f(o, "mean", ssdsim__hist_mean(h));
    add_f(o, "stddev", sample_stddev(h));
    ssdsim__json_add_u64(o, "N", h->count);
    if (!percentiles || h->count == 0)
        return o;
    cJSON *p = cJSON_AddObjectToObject(o, "percentile");
    for (size_t i = 0; i < SSDSIM__ARRAY_LEN(fio_percentiles); i++) {
        char key[32];
        snprintf(key, sizeof key, "%f", fio_percentiles[i]);
        ssdsim__json_add_u64(p, key, ssdsim__hist_quantile(h, fio_percentiles[i] / 100.0));
    }
    /* json+ bins: one per non-empty histogram bucket, keyed like the percentiles (the bucket's
     * upper edge clamped to [min, max]), so a percentile is always one of the bin keys. fio
     * keys its bins by its own buckets' midpoints; any bin key is a value the tools accept. */
    cJSON *bins = cJSON_AddObjectToObject(o, "bins");
    uint64_t capped = 0;
    for (uint32_t i = 0; i < SSDSIM__HIST_N_BUCKETS; i++) {
        if (!h->buckets[i])
            continue;
        uint64_t lo, hi;
        ssdsim__hist_bucket_range(i, &lo, &hi);
        uint64_t key = SSDSIM__MAX(h->min, SSDSIM__MIN(hi, h->max));
        if (key >= FIO_MAX_BIN_NS) {
            capped += h->buckets[i];
            continue;
        }
        char buf[32];
        snprintf(buf, sizeof buf, "%llu", (unsigned long long)key);
        ssdsim__json_add_u64(bins, buf, h->buckets[i]);
    }
    if (capped) {
        char buf[32];
        snprintf(buf, sizeof buf, "%llu", FIO_MAX_BIN_NS);
        ssdsim__json_add_u64(bins, buf, capped);
    }
    return o;
}

/* The latency object of a measurement the simulation does not have (slat, sync). */
static cJSON *zero_lat_object(void)
{
    cJSON *o = cJSON_CreateObject();
    ssdsim__json_add_u64(o, "min", 0);
    ssdsim__json_add_u64(o, "max", 0);
    add_f(o, "mean", 0);
    add_f(o, "stddev", 0);
    ssdsim__json_add_u64(o, "N", 0);
    return o;
}

/* Split the samples of a histogram into fio's latency classes. A bucket narrower than a class
 * falls in one class; the few buckets that straddle a class edge (width < 1/128 of their value)
 * are split in proportion to the integer latencies on either side. The exact min and max narrow
 * the first and last buckets, so a run whose latencies are all equal is classified exactly. */
static void lat_classes(const struct ssdsim__hist *h, double *count)
{
    memset(count, 0, sizeof *count * N_LAT_CLASSES);
    if (!h->count)
        return;
    size_t c = 0;
    for (uint32_t i = 0; i < SSDSIM__HIST_N_BUCKETS; i++) {
        if (!h->buckets[i])
            continue;
        uint64_t lo, hi;
        ssdsim__hist_bucket_range(i, &lo, &hi);
        lo = SSDSIM__MAX(lo, h->min);
        hi = SSDSIM__MIN(hi, h->max);
        if (hi < lo) /* cannot happen for a non-empty bucket; be safe */
            hi = lo;
        while (c + 1 < N_LAT_CLASSES && lo >= lat_edges[c + 1])
            c++;
        double width = (double)(hi - lo) + 1.0;
        for (size_t k = c; k < N_LAT_CLASSES && lat_edges[k] <= hi; k++) {
            uint64_t a = SSDSIM__MAX(lo, lat_edges[k]);
            uint64_t b = k + 1 < N_LAT_CLASSES ? SSDSIM__MIN(hi, lat_edges[k + 1] - 1) : hi;
            count[k] += (double)h->buckets[i] * ((double)(b - a) + 1.0) / width;
        }
    }
}

/* fio's stat_calc_lat: percent of all I/Os, and at least 0.01 for a class with any. */
static void add_lat_pct(cJSON *o, const char *k, double n, uint64_t total)
{
    double v = total ? 100.0 * n / (double)total : 0;
    if (n > 0 && v < 0.01)
        v = 0.01;
    add_f(o, k, v);
}

/* ------------------------------------------------------------------------------------------ */
/* Per-direction figures                                                                       */

struct dir_figures {
    uint64_t bytes, ios, runtime_ms, bw_bytes, bw_kib;
    double iops, kib_per_s; /* exact rates */
};

static void dir_figures(const ssdsim *sim, const struct ssdsim__unit *u, int d,
                        uint64_t runtime_ns, struct dir_figures *f)
{
    memset(f, 0, sizeof *f);
    f->bytes = u->bytes[d];
    f->ios = u->hist[d].count;
    if (!f->ios || !runtime_ns)
        return;
    /* Rates from the exact simulated runtime (fio divides by whole milliseconds). */
    double t = (double)runtime_ns / 1e9;
    f->runtime_ms = ns_to_ms(runtime_ns);
    f->iops = (double)f->ios / t;
    f->kib_per_s = (double)f->bytes / t / 1024.0;
    f->bw_bytes = (uint64_t)((double)f->bytes / t);
    f->bw_kib = f->bw_bytes / 1024;
}

static uint64_t unit_runtime_ns(const struct ssdsim__unit *u)
{
    uint64_t start = u->start_ns + u->ramp_ns;
    return u->end_ns > start ? u->end_ns - start : 0;
}

/* bw_* and iops_* sample figures. fio samples each job's rate every 500 ms; the simulation
 * keeps no per-job samples, but its time series is per run: with a single reported job that
 * issued one direction only, the series rows are that job's samples (a trailing partial row is
 * left out, as fio leaves out a partial window). Otherwise no samples ("bw_samples": 0) and
 * min, max and mean are the job's overall rate, stddev 0. */
struct samples {
    uint64_t n;
    double bw_min, bw_max, bw_mean, bw_dev; /* KiB/s */
    double iops_min, iops_max, iops_mean, iops_dev;
};

static void series_samples(const ssdsim *sim, const struct dir_figures *f, struct samples *s)
{
    memset(s, 0, sizeof *s);
    s->bw_min = s->bw_max = s->bw_mean = f->kib_per_s;
    s->iops_min = s->iops_max = s->iops_mean = f->iops;
    const struct ssdsim__stats *st = &sim->stats;
    size_t n = st->n_series;
    if (!f->ios || sim->host.n_units != 1 || n == 0)
        return;
    /* The series counts every direction: usable only when this one is the only one. */
    int dirs = 0;
    for (int d = 0; d < 3; d++)
        dirs += st->hist[d].count > 0;
    if (dirs != 1 || st->all.count != f->ios)
        return;
    if (n > 1) {
        const ssdsim_interval *last = &st->series[n - 1];
        uint64_t dt = last->t_ns - st->series[n - 2].t_ns;
        bool partial = st->interval_ns ? dt < st->interval_ns
                                       : st->interval_ios && last->n_ios < st->interval_ios;
        if (partial)
            n--;
    }
    double bs = 0, bss = 0, is = 0, iss = 0;
    s->bw_min = s->iops_min = INFINITY;
    s->bw_max = s->iops_max = 0;
    for (size_t i = 0; i < n; i++) {
        double bw = st->series[i].bw_bytes / 1024.0, io = st->series[i].iops;
        s->bw_min = fmin(s->bw_min, bw);
        s->bw_max = fmax(s->bw_max, bw);
        s->iops_min = fmin(s->iops_min, io);
        s->iops_max = fmax(s->iops_max, io);
        bs += bw;
        bss += bw * bw;
        is += io;
        iss += io * io;
    }
    double k = (double)n;
    s->n = n;
    s->bw_mean = bs / k;
    s->iops_mean = is / k;
    if (n > 1) {
        s->bw_dev = sqrt(fmax(0, (bss - bs * bs / k) / (k - 1)));
        s->iops_dev = sqrt(fmax(0, (iss - is * is / k) / (k - 1)));
    }
}

/* One "read" / "write" / "trim" object (fio's add_ddir_status_json). */
static cJSON *dir_object(const ssdsim *sim, const struct ssdsim__unit *u, int d,
                         uint64_t runtime_ns, double group_agg_bytes)
{
    struct dir_figures f;
    dir_figures(sim, u, d, runtime_ns, &f);
    cJSON *o = cJSON_CreateObject();
    ssdsim__json_add_u64(o, "io_bytes", f.bytes);
    ssdsim__json_add_u64(o, "io_kbytes", f.bytes >> 10);
    ssdsim__json_add_u64(o, "bw_bytes", f.bw_bytes);
    ssdsim__json_add_u64(o, "bw", f.bw_kib);
    add_f(o, "iops", f.iops);
    ssdsim__json_add_u64(o, "runtime", f.runtime_ms);
    ssdsim__json_add_u64(o, "total_ios", f.ios);
    ssdsim__json_add_u64(o, "short_ios", 0);
    ssdsim__json_add_u64(o, "drop_ios", 0);
    /* The simulated host submits a request the moment the job issues it: no submission
     * latency, so completion latency and total latency are the same figures. */
    cJSON_AddItemToObject(o, "slat_ns", zero_lat_object());
    cJSON_AddItemToObject(o, "clat_ns", lat_object(&u->hist[d], true));
    cJSON_AddItemToObject(o, "lat_ns", lat_object(&u->hist[d], false));

    struct samples s;
    series_samples(sim, &f, &s);
    /* fio's bw_agg: this job's mean bandwidth as a percentage of its group's aggregate. */
    double agg = 0;
    if (f.ios) {
        agg = 100.0;
        if (group_agg_bytes > 1024)
            agg = fmin(100.0, s.bw_mean * 100.0 / (group_agg_bytes / 1024.0));
    }
    ssdsim__json_add_u64(o, "bw_min", f.ios ? (uint64_t)s.bw_min : 0);
    ssdsim__json_add_u64(o, "bw_max", f.ios ? (uint64_t)s.bw_max : 0);
    add_f(o, "bw_agg", agg);
    add_f(o, "bw_mean", f.ios ? s.bw_mean : 0);
    add_f(o, "bw_dev", s.bw_dev);
    ssdsim__json_add_u64(o, "bw_samples", s.n);
    ssdsim__json_add_u64(o, "iops_min", f.ios ? (uint64_t)s.iops_min : 0);
    ssdsim__json_add_u64(o, "iops_max", f.ios ? (uint64_t)s.iops_max : 0);
    add_f(o, "iops_mean", f.ios ? s.iops_mean : 0);
    add_f(o, "iops_stddev", s.iops_dev);
    ssdsim__json_add_u64(o, "iops_samples", s.n);
    return o;
}

/* fio's group aggregate bandwidth of one direction (group_run_stats.agg): the bytes of every
 * reported job of the group over the group's longest runtime, bytes per second. */
static double group_agg(const ssdsim *sim, uint32_t group, int d)
{
    uint64_t bytes = 0, longest = 0;
    for (uint32_t i = 0; i < sim->host.n_units; i++) {
        const struct ssdsim__unit *u = &sim->host.units[i];
        if (u->group != group || !u->hist[d].count)
            continue;
        bytes += u->bytes[d];
        longest = SSDSIM__MAX(longest, unit_runtime_ns(u));
    }
    return longest ? (double)bytes * 1e9 / (double)longest : 0;
}

/* ------------------------------------------------------------------------------------------ */
/* Job options                                                                                 */

/* The options of a job section as written (globals first, then its own), under fio's names.
 * fio leaves out options given without a value (time_based, stonewall); a key given twice keeps
 * its first place and its last value. */
static cJSON *job_options(const struct ssdsim__jobspec *spec)
{
    cJSON *o = cJSON_CreateObject();
    if (!spec)
        return o;
    for (uint32_t i = 0; i < spec->n_raw; i++) {
        const char *v = spec->raw_values[i];
        if (!v || !*v)
            continue;
        const char *k = ssdsim__fio_canonical_name(spec->raw_keys[i]);
        if (cJSON_GetObjectItemCaseSensitive(o, k))
            cJSON_ReplaceItemInObjectCaseSensitive(o, k, cJSON_CreateString(v));
        else
            cJSON_AddStringToObject(o, k, v);
    }
    return o;
}

/* The job section that job clone `clone` came from: sections' clones are numbered
 * consecutively. NULL when `wl` is not the workload of the last run (its clone count differs,
 * or the run replayed a source). */
static const struct ssdsim__jobspec *section_of(const ssdsim *sim, const ssdsim_workload *wl,
                                                uint32_t clone)
{
    if (!wl || sim->host.n_jobs == 0 || !sim->host.jobs[0].spec)
        return NULL;
    uint64_t total = 0;
    for (uint32_t s = 0; s < wl->n_jobs; s++)
        total += wl->jobs[s].numjobs;
    if (total != sim->host.n_jobs)
        return NULL;
    uint64_t first = 0;
    for (uint32_t s = 0; s < wl->n_jobs; s++) {
        if (clone < first + wl->jobs[s].numjobs)
            return &wl->jobs[s];
        first += wl->jobs[s].numjobs;
    }
    return NULL;
}

/* ------------------------------------------------------------------------------------------ */
/* Steady state                                                                                */

/* fio's "steadystate" object: the criterion as fio spells it, the window, whether it was met,
 * the last value of the criterion, the window's largest deviation from its mean or its slope
 * (the one the criterion uses; the other is 0, as in fio), and the window's samples, oldest
 * first: IOPS and bytes per second, one per simulated second. */
static cJSON *steadystate_object(const struct ssdsim__unit *u)
{
    bool iops = u->ss == SSDSIM__SS_IOPS || u->ss == SSDSIM__SS_IOPS_SLOPE;
    bool slope = u->ss == SSDSIM__SS_IOPS_SLOPE || u->ss == SSDSIM__SS_BW_SLOPE;
    char buf[128];
    cJSON *o = cJSON_CreateObject();
    snprintf(buf, sizeof buf, "%s%s:%f%s", iops ? "iops" : "bw", slope ? "_slope" : "",
             (float)u->ss_limit, u->ss_percent ? "%" : "");
    cJSON_AddStringToObject(o, "ss", buf);
    ssdsim__json_add_u64(o, "duration", u->ss_window);
    ssdsim__json_add_u64(o, "attained", u->ss_attained ? 1 : 0);
    snprintf(buf, sizeof buf, "%f%s", isfinite(u->ss_value) ? (float)u->ss_value : 0.0f,
             u->ss_percent ? "%" : "");
    cJSON_AddStringToObject(o, "criterion", buf);

    /* The window in time order: oldest at ss_head once it is full, else from the start. */
    uint32_t n = u->ss_window;
    bool full = u->ss_n == n;
    double dev = 0, sl = 0;
    if (full && u->ss_iops && u->ss_bw) {
        const double *x = iops ? u->ss_iops : u->ss_bw;
        double mean = 0, sx = 0, sxx = 0, sxy = 0, sy = 0;
        for (uint32_t k = 0; k < n; k++)
            mean += x[k];
        mean /= n;
        for (uint32_t k = 0; k < n; k++) {
            double y = x[(u->ss_head + k) % n];
            dev = fmax(dev, fabs(y - mean));
            sx += k;
            sxx += (double)k * k;
            sxy += k * y;
            sy += y;
        }
        double den = n * sxx - sx * sx;
        sl = den > 0 ? (n * sxy - sx * sy) / den : 0;
    }
    add_f(o, "max_deviation", slope ? 0 : dev);
    add_f(o, "slope", slope ? sl : 0);
    cJSON *data = cJSON_AddObjectToObject(o, "data");
    cJSON *a_iops = cJSON_CreateArray(), *a_bw = cJSON_CreateArray();
    double si = 0, sb = 0;
    for (uint32_t k = 0; k < n; k++) {
        uint32_t idx = full ? (u->ss_head + k) % n : k;
        bool have = u->ss_iops && u->ss_bw && (full || k < u->ss_n); /* fio prints 0s */
        double vi = have ? u->ss_iops[idx] : 0, vb = have ? u->ss_bw[idx] : 0;
        si += vi;
        sb += vb;
        add_u64_item(a_iops, (uint64_t)llround(vi));
        add_u64_item(a_bw, (uint64_t)llround(vb));
    }
    ssdsim__json_add_u64(data, "bw_mean", n ? (uint64_t)(sb / n) : 0);
    ssdsim__json_add_u64(data, "iops_mean", n ? (uint64_t)(si / n) : 0);
    cJSON_AddItemToObject(data, "iops", a_iops);
    cJSON_AddItemToObject(data, "bw", a_bw);
    return o;
}

/* ------------------------------------------------------------------------------------------ */
/* Jobs                                                                                        */

static void add_depth_levels(cJSON *job, const char *name, bool submit)
{
    /* fio's io_u_map / io_u_submit / io_u_complete: how many I/Os were in flight when each was
     * issued, and how many were submitted or reaped per call. The simulation does not record
     * them: all zero (see doc/results.md). */
    static const char *const level[] = {"1", "2", "4", "8", "16", "32", ">=64"};
    static const char *const batch[] = {"0", "4", "8", "16", "32", "64", ">=64"};
    cJSON *o = cJSON_AddObjectToObject(job, name);
    for (int i = 0; i < 7; i++)
        add_f(o, submit ? batch[i] : level[i], 0);
}

static cJSON *job_object(const ssdsim *sim, const ssdsim_workload *wl, uint32_t i,
                         struct ssdsim__hist *all)
{
    const struct ssdsim__unit *u = &sim->host.units[i];
    uint64_t runtime_ns = unit_runtime_ns(u);
    uint64_t sim_ns = ssdsim_sim_time_ns(sim);
    cJSON *j = cJSON_CreateObject();
    cJSON_AddStringToObject(j, "jobname", u->name ? u->name : "job");
    ssdsim__json_add_u64(j, "groupid", u->group);
    ssdsim__json_add_u64(j, "error", 0);
    ssdsim__json_add_u64(j, "eta", 0);
    ssdsim__json_add_u64(j, "elapsed", (sim_ns + SSDSIM__NS_PER_S - 1) / SSDSIM__NS_PER_S);
    cJSON_AddItemToObject(j, "job options", job_options(section_of(sim, wl, u->first_clone)));
    static const char *const dirs[3] = {"read", "write", "trim"};
    for (int d = 0; d < 3; d++)
        cJSON_AddItemToObject(j, dirs[d],
                              dir_object(sim, u, d, runtime_ns, group_agg(sim, u->group, d)));
    /* fio's syncs: the job's flushes (fsync, fdatasync, write_barrier) */
    cJSON *sync = cJSON_AddObjectToObject(j, "sync");
    ssdsim__json_add_u64(sync, "total_ios", u->flush ? u->flush->count : 0);
    cJSON_AddItemToObject(sync, "lat_ns", u->flush ? lat_object(u->flush, true) : zero_lat_object());

    ssdsim__json_add_u64(j, "job_runtime", ns_to_ms(runtime_ns));
    add_f(j, "usr_cpu", 0);
    add_f(j, "sys_cpu", 0);
    ssdsim__json_add_u64(j, "ctx", 0);
    ssdsim__json_add_u64(j, "majf", 0);
    ssdsim__json_add_u64(j, "minf", 0);
    add_depth_levels(j, "iodepth_level", false);
    add_depth_levels(j, "iodepth_submit", true);
    add_depth_levels(j, "iodepth_complete", true);

    /* latency_ns / _us / _ms: every I/O of the job, all directions, by class. */
    ssdsim__hist_reset(all);
    for (int d = 0; d < 3; d++)
        ssdsim__hist_merge(all, &u->hist[d]);
    double cls[N_LAT_CLASSES];
    lat_classes(all, cls);
    cJSON *ln = cJSON_AddObjectToObject(j, "latency_ns");
    cJSON *lu = cJSON_AddObjectToObject(j, "latency_us");
    cJSON *lm = cJSON_AddObjectToObject(j, "latency_ms");
    for (int k = 0; k < 10; k++) {
        add_lat_pct(ln, lat_names[k], cls[k], all->count);
        add_lat_pct(lu, lat_names[k], cls[10 + k], all->count);
        add_lat_pct(lm, lat_names[k], cls[20 + k], all->count);
    }
    add_lat_pct(lm, "2000", cls[30], all->count);
    add_lat_pct(lm, ">=2000", cls[31], all->count);

    /* latency_target is not simulated: fio's values for a job without one. */
    uint32_t depth = u->first_clone < sim->host.n_jobs ? sim->host.jobs[u->first_clone].depth : 1;
    ssdsim__json_add_u64(j, "latency_depth", depth == UINT32_MAX ? 1 : depth);
    ssdsim__json_add_u64(j, "latency_target", 0);
    add_f(j, "latency_percentile", 100.0);
    ssdsim__json_add_u64(j, "latency_window", 0);
    if (u->ss)
        cJSON_AddItemToObject(j, "steadystate", steadystate_object(u));
    return j;
}

char *ssdsim_results_fio_json(const ssdsim *sim, const ssdsim_workload *wl)
{
    if (!sim)
        return NULL;
    cJSON *root = cJSON_CreateObject();
    struct ssdsim__hist *scratch = malloc(sizeof *scratch);
    if (!root || !scratch) {
        cJSON_Delete(root);
        free(scratch);
        return NULL;
    }
    char version[64];
    snprintf(version, sizeof version, "ssdsim-%s", ssdsim_version());
    cJSON_AddStringToObject(root, "fio version", version);
    /* Simulated results carry no wall-clock time (the output is byte-identical run after run):
     * the epoch, in fio's ctime() form. */
    ssdsim__json_add_u64(root, "timestamp", 0);
    ssdsim__json_add_u64(root, "timestamp_ms", 0);
    cJSON_AddStringToObject(root, "time", "Thu Jan  1 00:00:00 1970");
    if (sim->interrupted)
        cJSON_AddBoolToObject(root, "interrupted", true); /* not fio's: see doc/results.md */
    cJSON_AddObjectToObject(root, "global options");
    cJSON *jobs = cJSON_AddArrayToObject(root, "jobs");
    for (uint32_t i = 0; i < sim->host.n_units; i++)
        cJSON_AddItemToArray(jobs, job_object(sim, wl, i, scratch));
    cJSON_AddArrayToObject(root, "disk_util");
    free(scratch);
    char *s = cJSON_Print(root);
    cJSON_Delete(root);
    return s;
}
