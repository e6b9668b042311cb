/* jobspec.c: a job's defaults, copies and the options as written, and the checks of a job (and
 * of a whole workload) against a device's logical size, and of the requests a workload's jobs
 * keep outstanding together against SSDSIM__OUTSTANDING_MAX.
 */
#include "config/jsonutil.h"
#include "memest.h"
#include "workload/fioval.h"
#include "workload/workload.h"

#include <ctype.h>
#include <inttypes.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------------------------------------ */
/* Jobs: defaults, copies, the options as written                                             */

void ssdsim__jobspec_defaults(struct ssdsim__jobspec *wl)
{
    memset(wl, 0, sizeof *wl);
    wl->rw = SSDSIM__RW_READ;
    for (int d = 0; d < SSDSIM__N_DIRS; d++) {
        wl->bs[d].n = 1;
        wl->bs[d].e[0].bytes = 4096;
        wl->bs[d].e[0].percent = 100;
        wl->percentage_random[d] = 100;
    }
    wl->rwmixread = 50;
    wl->iodepth = wl->iodepth_asked = 1;
    wl->numjobs = 1;
    wl->loops = 1;
    wl->randrepeat = true;
    wl->thinktime_blocks = 1;
}

void ssdsim__jobspec_fix_iodepth(struct ssdsim__jobspec *job)
{
    job->iodepth = job->sync_engine ? 1 : job->iodepth_asked;
}

void ssdsim__jobspec_note_engine(const struct ssdsim__jobspec *job, const char *where)
{
    if (!job->sync_engine || job->iodepth_asked <= 1)
        return;
    ssdsim__log(SSDSIM_LOG_WARNING,
                "%sjob '%s': ioengine=%s%s is synchronous: iodepth=%" PRIu32 " runs as 1, as fio "
                "caps it (fio: \"queue depth will be capped at 1\"); set ioengine=libaio or "
                "io_uring for a queue",
                where ? where : "", job->name ? job->name : "job", job->sync_engine,
                job->sync_engine_default ? " (fio's default: no ioengine given)" : "",
                job->iodepth_asked);
}

static int dup_str(char **dst, const char *src)
{
    *dst = NULL;
    if (!src)
        return 0;
    *dst = strdup(src);
    return *dst ? 0 : SSDSIM_ENOMEM;
}

int ssdsim__jobspec_copy(struct ssdsim__jobspec *dst, const struct ssdsim__jobspec *src)
{
    *dst = *src;
    dst->name = dst->read_iolog = dst->write_iops_log = dst->write_lat_log = NULL;
    dst->write_bw_log = NULL;
    dst->raw_keys = dst->raw_values = NULL;
    dst->n_raw = 0;
    for (uint32_t i = 0; i < src->n_raw; i++)
        if (ssdsim__jobspec_add_raw(dst, src->raw_keys[i], src->raw_values[i])) {
            ssdsim__jobspec_clear(dst);
            return SSDSIM_ENOMEM;
        }
    if (dup_str(&dst->name, src->name) || dup_str(&dst->read_iolog, src->read_iolog) ||
        dup_str(&dst->write_iops_log, src->write_iops_log) ||
        dup_str(&dst->write_lat_log, src->write_lat_log) ||
        dup_str(&dst->write_bw_log, src->write_bw_log)) {
        ssdsim__jobspec_clear(dst);
        return SSDSIM_ENOMEM;
    }
    return 0;
}

void ssdsim__jobspec_clear(struct ssdsim__jobspec *job)
{
    free(job->name);
    free(job->read_iolog);
    free(job->write_iops_log);
    free(job->write_lat_log);
    free(job->write_bw_log);
    job->name = job->read_iolog = job->write_iops_log = job->write_lat_log = NULL;
    job->write_bw_log = NULL;
    for (uint32_t i = 0; i < job->n_raw; i++) {
        free(job->raw_keys[i]);
        free(job->raw_values[i]);
    }
    free(job->raw_keys);
    free(job->raw_values);
    job->raw_keys = job->raw_values = NULL;
    job->n_raw = 0;
}

int ssdsim__jobspec_name_logs(struct ssdsim__jobspec *job)
{
    char **logs[] = {&job->write_bw_log, &job->write_lat_log, &job->write_iops_log};
    for (size_t i = 0; i < SSDSIM__ARRAY_LEN(logs); i++) {
        if (!*logs[i] || (*logs[i])[0])
            continue;
        char *name = strdup(job->name ? job->name : "job");
        if (!name)
            return SSDSIM_ENOMEM;
        free(*logs[i]);
        *logs[i] = name;
    }
    return 0;
}

int ssdsim__jobspec_add_raw(struct ssdsim__jobspec *job, const char *key, const char *value)
{
    char **k = realloc(job->raw_keys, sizeof *k * (job->n_raw + 1));
    if (!k)
        return SSDSIM_ENOMEM;
    job->raw_keys = k;
    char **v = realloc(job->raw_values, sizeof *v * (job->n_raw + 1));
    if (!v)
        return SSDSIM_ENOMEM;
    job->raw_values = v;
    k[job->n_raw] = strdup(key);
    v[job->n_raw] = strdup(value ? value : "");
    if (!k[job->n_raw] || !v[job->n_raw]) {
        free(k[job->n_raw]);
        free(v[job->n_raw]);
        return SSDSIM_ENOMEM;
    }
    job->n_raw++;
    return 0;
}

/* ------------------------------------------------------------------------------------------ */
/* Checks against a device                                                                     */

/* floor(total * pct / 100), at most `total` up to 100% and saturating at 2^64 - 1 beyond. long
 * double keeps the product exact enough for devices up to 2^64 bytes. */
static uint64_t percent_floor(uint64_t total, double pct)
{
    long double v = (long double)total * (long double)pct / 100.0L;
    if (pct <= 100 && v >= (long double)total)
        return total;
    if (v >= 18446744073709551616.0L) /* 2^64 */
        return UINT64_MAX;
    return (uint64_t)v;
}

/* The same rounded down to a 512-byte sector. */
uint64_t ssdsim__percent_bytes(uint64_t total, double pct)
{
    return percent_floor(total, pct) & ~(uint64_t)511;
}

uint64_t ssdsim__jobspec_min_bs(const struct ssdsim__jobspec *job)
{
    uint64_t m = UINT64_MAX;
    for (int d = 0; d < SSDSIM__N_DIRS; d++) {
        const struct ssdsim__bsdist *b = &job->bs[d];
        if (b->range_max)
            m = SSDSIM__MIN(m, (uint64_t)b->range_min);
        for (uint32_t i = 0; !b->range_max && i < b->n; i++)
            m = SSDSIM__MIN(m, (uint64_t)b->e[i].bytes);
    }
    return m == UINT64_MAX || m == 0 ? 512 : m;
}

/* As fio resolves them (get_start_offset and setup_files in its filesetup.c): a percentage
 * offset or offset_increment is floor(pct x capacity / 100); when either is a percentage, the
 * clone's start, offset + clone x increment, is then aligned up to offset_align, by default the
 * job's smallest block size, so that its blocks do not straddle the drive's units. A
 * percentage size is of the capacity, less what that alignment moved past the device's end
 * (fio cuts a percentage size to what lies after the start; a region too large before the
 * alignment is refused here, as any other), and down to a multiple of the smallest block
 * size. */
void ssdsim__jobspec_region(const struct ssdsim__jobspec *wl, uint32_t clone,
                            uint64_t logical_bytes, uint64_t *offset, uint64_t *size)
{
    bool off_pct = wl->offset_percent > 0, inc_pct = wl->offset_increment_percent > 0;
    uint64_t align = ssdsim__jobspec_min_bs(wl);
    uint64_t start_align = wl->offset_align ? wl->offset_align : align;
    *offset = off_pct ? percent_floor(logical_bytes, wl->offset_percent) : wl->offset_bytes;
    uint64_t inc = inc_pct ? percent_floor(logical_bytes, wl->offset_increment_percent)
                           : wl->offset_increment_bytes;
    *offset += (uint64_t)clone * inc;
    uint64_t unaligned = *offset;
    if ((off_pct || inc_pct) && *offset % start_align)
        *offset += start_align - *offset % start_align;
    if (wl->size_percent > 0) {
        *size = ssdsim__percent_bytes(logical_bytes, wl->size_percent);
        /* what the alignment took from a region that fitted (a region too large anyway is
         * left for the check to refuse) */
        if (*offset < logical_bytes && unaligned <= logical_bytes &&
            *size <= logical_bytes - unaligned && *size > logical_bytes - *offset)
            *size = logical_bytes - *offset;
        *size -= *size % align;
    } else {
        *size = wl->size_bytes;
    }
    if (*size == 0 && wl->size_percent <= 0 && *offset < logical_bytes)
        *size = logical_bytes - *offset;
}

double ssdsim__jobspec_write_share(const struct ssdsim__jobspec *job)
{
    switch (job->rw) {
    case SSDSIM__RW_WRITE:
    case SSDSIM__RW_RANDWRITE:
        return 1.0;
    case SSDSIM__RW_RANDRW:
    case SSDSIM__RW_RW:
        return (100.0 - job->rwmixread) / 100.0;
    default:
        return 0.0;
    }
}

/* The directions a job's rw pattern issues. */
static void rw_dirs(enum ssdsim__rw rw, bool used[SSDSIM__N_DIRS])
{
    used[SSDSIM__DIR_READ] = rw == SSDSIM__RW_READ || rw == SSDSIM__RW_RANDREAD ||
                             rw == SSDSIM__RW_RW || rw == SSDSIM__RW_RANDRW;
    used[SSDSIM__DIR_WRITE] = rw == SSDSIM__RW_WRITE || rw == SSDSIM__RW_RANDWRITE ||
                              rw == SSDSIM__RW_RW || rw == SSDSIM__RW_RANDRW;
    used[SSDSIM__DIR_TRIM] = rw == SSDSIM__RW_TRIM || rw == SSDSIM__RW_RANDTRIM;
}

static const char *const dir_names[SSDSIM__N_DIRS] = {"read", "write", "trim"};

/* The largest block of a direction, or 0 when its sizes are malformed (reported by the caller). */
static uint32_t bsdist_max(const struct ssdsim__bsdist *b, char *errbuf, size_t errlen,
                           const char *dir)
{
    if (b->range_max > 0) {
        if (b->range_min == 0 || b->range_min % 512 || b->range_max % 512 ||
            b->range_min > b->range_max) {
            ssdsim__fio_fail(errbuf, errlen,
                             "%s block size range %u-%u is not two non-zero multiples of 512", dir,
                             b->range_min, b->range_max);
            return 0;
        }
        return b->range_max;
    }
    if (b->n == 0 || b->n > SSDSIM__BSSPLIT_MAX) {
        ssdsim__fio_fail(errbuf, errlen, "the job has no %s block size", dir);
        return 0;
    }
    uint32_t max = 0, total = 0;
    for (uint32_t i = 0; i < b->n; i++) {
        if (b->e[i].bytes == 0 || b->e[i].bytes % 512 != 0) {
            ssdsim__fio_fail(errbuf, errlen, "%s block size %u is not a non-zero multiple of 512",
                             dir, b->e[i].bytes);
            return 0;
        }
        max = SSDSIM__MAX(max, b->e[i].bytes);
        total += b->e[i].percent;
    }
    if (total != 100) {
        ssdsim__fio_fail(errbuf, errlen, "%s block size percentages add up to %u, not 100", dir,
                         total);
        return 0;
    }
    return max;
}

int ssdsim__jobspec_check(const struct ssdsim__jobspec *job, char *errbuf, size_t errlen)
{
    /* fio warns and drops time_based instead; a job meant to run for a time would then stop
     * after one pass, so the simulator asks for the runtime. */
    if (job->time_based && job->runtime_ns == 0)
        return ssdsim__fio_fail(errbuf, errlen, "time_based needs a runtime");
    /* fio judges steady state over an ss_dur window and does nothing without one. */
    if (job->ss != SSDSIM__SS_NONE && job->ss_dur_ns == 0)
        return ssdsim__fio_fail(errbuf, errlen,
                                "ss needs ss_dur, the window steady state is judged over");
    bool any_rate = false, any_iops = false;
    for (int d = 0; d < SSDSIM__N_DIRS; d++) {
        any_rate |= job->rate_bytes[d] != 0;
        any_iops |= job->rate_iops[d] != 0;
    }
    if (any_rate && any_iops)
        return ssdsim__fio_fail(errbuf, errlen,
                                "rate and rate_iops are mutually exclusive (as in fio)");
    if (job->rate_process == SSDSIM__RATE_POISSON && !any_rate && !any_iops)
        return ssdsim__fio_fail(errbuf, errlen,
                                "rate_process=poisson needs a rate_iops or rate limit");
    if (job->iodepth == 0 || job->numjobs == 0 || job->loops == 0 || job->thinktime_blocks == 0)
        return ssdsim__fio_fail(errbuf, errlen,
                                "iodepth, numjobs, loops and thinktime_blocks must be >= 1");
    /* A replayed job takes its offsets and sizes from its log. */
    if (job->read_iolog)
        return 0;
    bool used[SSDSIM__N_DIRS];
    rw_dirs(job->rw, used);
    for (int d = 0; d < SSDSIM__N_DIRS; d++)
        if (used[d] && bsdist_max(&job->bs[d], errbuf, errlen, dir_names[d]) == 0)
            return SSDSIM_ECONFIG;
    return 0;
}

static int check_job(const struct ssdsim__jobspec *job, uint64_t logical_bytes, char *errbuf,
                     size_t errlen)
{
    int rc = ssdsim__jobspec_check(job, errbuf, errlen);
    if (rc || job->read_iolog)
        return rc;
    bool used[SSDSIM__N_DIRS];
    uint32_t max_bs = 0;
    rw_dirs(job->rw, used);
    for (int d = 0; d < SSDSIM__N_DIRS; d++)
        if (used[d])
            max_bs = SSDSIM__MAX(max_bs, bsdist_max(&job->bs[d], NULL, 0, dir_names[d]));
    bool has_inc = job->offset_increment_bytes || job->offset_increment_percent > 0;

    for (uint32_t clone = 0; clone < job->numjobs; clone++) {
        char who[64] = "";
        if (has_inc && job->numjobs > 1)
            snprintf(who, sizeof who, "clone %u of %u (offset_increment): ", clone + 1,
                     job->numjobs);
        uint64_t offset, size;
        ssdsim__jobspec_region(job, clone, logical_bytes, &offset, &size);
        if (offset >= logical_bytes)
            return ssdsim__fio_fail(
                errbuf, errlen,
                "%soffset %llu is not inside the device (logical capacity %llu bytes)", who,
                (unsigned long long)offset, (unsigned long long)logical_bytes);
        if (size > logical_bytes - offset)
            return ssdsim__fio_fail(
                errbuf, errlen,
                "%soffset %llu + size %llu exceeds the device's logical capacity of %llu "
                "bytes",
                who, (unsigned long long)offset, (unsigned long long)size,
                (unsigned long long)logical_bytes);
        for (int d = 0; d < SSDSIM__N_DIRS; d++) {
            if (!used[d])
                continue;
            uint32_t bs = bsdist_max(&job->bs[d], NULL, 0, dir_names[d]);
            if (bs > size)
                return ssdsim__fio_fail(errbuf, errlen,
                                        "%sblock size %u is larger than the region of %llu bytes",
                                        who, bs, (unsigned long long)size);
        }
        /* Zones must lie inside the region, and each zone that is accessed must hold a block. */
        uint64_t zone_end = 0;
        for (uint32_t z = 0; z < job->n_zones; z++) {
            uint64_t zlen =
                job->dist == SSDSIM__DIST_ZONED_ABS
                    ? job->zone_bytes[z]
                    : (uint64_t)((long double)size * job->zone_range[z] / 100.0L) & ~(uint64_t)511;
            zone_end += zlen;
            if (job->zone_access[z] > 0 && zlen < max_bs)
                return ssdsim__fio_fail(
                    errbuf, errlen,
                    "%szone %u is %llu bytes of the region, smaller than a block of %u", who, z + 1,
                    (unsigned long long)zlen, max_bs);
        }
        if (job->dist == SSDSIM__DIST_ZONED_ABS && zone_end > size)
            return ssdsim__fio_fail(
                errbuf, errlen,
                "%szoned_abs zones cover %llu bytes, more than the region of %llu bytes", who,
                (unsigned long long)zone_end, (unsigned long long)size);
    }
    return 0;
}

/* The requests the jobs that run together (up to the next stonewall) keep outstanding, refused
 * above SSDSIM__OUTSTANDING_MAX (memest.h) before anything is allocated for them. */
static int check_outstanding(const struct ssdsim_workload *wl, char *errbuf, size_t errlen)
{
    uint32_t j = 0;
    while (j < wl->n_jobs) {
        uint64_t total = 0;
        uint32_t big = j;
        do {
            const struct ssdsim__jobspec *s = &wl->jobs[j];
            uint64_t n = (uint64_t)s->numjobs * s->iodepth;
            total += n;
            if (n > (uint64_t)wl->jobs[big].numjobs * wl->jobs[big].iodepth)
                big = j;
            j++;
        } while (j < wl->n_jobs && !wl->jobs[j].stonewall);
        const struct ssdsim__jobspec *b = &wl->jobs[big];
        char why[384];
        if (!ssdsim__outstanding_check(b->numjobs, b->iodepth, total, why, sizeof why))
            continue;
        if (wl->n_jobs > 1 && b->name)
            return ssdsim__fio_fail(errbuf, errlen, "job '%s': %s", b->name, why);
        if (wl->n_jobs > 1)
            return ssdsim__fio_fail(errbuf, errlen, "job %u: %s", big + 1, why);
        return ssdsim__fio_fail(errbuf, errlen, "%s", why);
    }
    return 0;
}

int ssdsim__workload_check(const struct ssdsim_workload *wl, uint64_t logical_bytes, char *errbuf,
                           size_t errlen)
{
    if (wl->n_jobs == 0)
        return ssdsim__fio_fail(errbuf, errlen, "the workload has no job");
    if (check_outstanding(wl, errbuf, errlen))
        return SSDSIM_ECONFIG;
    for (uint32_t j = 0; j < wl->n_jobs; j++) {
        char why[384];
        if (check_job(&wl->jobs[j], logical_bytes, why, sizeof why) == 0)
            continue;
        if (wl->n_jobs > 1 && wl->jobs[j].name)
            return ssdsim__fio_fail(errbuf, errlen, "job '%s': %s", wl->jobs[j].name, why);
        if (wl->n_jobs > 1)
            return ssdsim__fio_fail(errbuf, errlen, "job %u: %s", j + 1, why);
        return ssdsim__fio_fail(errbuf, errlen, "%s", why);
    }
    return 0;
}
