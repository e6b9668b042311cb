/* fioopt_size.c: the setters of the fio options that say how much and how big: block sizes
 * (bs, ba, bsrange, bssplit), the region and the amount of I/O (size, offset, offset_increment,
 * io_size), and how requests are paced (rate_process; the limits rate and rate_iops are
 * per-direction rows of the table, fioopt_set.c).
 *
 * Sizes follow fio's syntax (fioval.c); each setter checks every direction before storing any,
 * so a failed apply leaves the job as it was.
 */
#include "workload/fioopt_int.h"

#include <string.h>

/* ------------------------------------------------------------------------------------------ */
/* Block sizes                                                                                 */

/* A block size per direction (bs, ba). */
static int block_sizes(const char *value, struct ssdsim__fio_dir_values *bytes, char *errbuf,
                       size_t errlen)
{
    return ssdsim__fio_parse_dir_values(value, SSDSIM__FIO_DIR_BLOCK_SIZE, 0, 0, bytes, errbuf,
                                        errlen);
}

int ssdsim__fio_opt_bs(const struct ssdsim__fio_optdef *o, struct ssdsim__jobspec *job,
                       const char *value, char *errbuf, size_t errlen)
{
    (void)o;
    struct ssdsim__fio_dir_values bytes;
    int rc = block_sizes(value, &bytes, errbuf, errlen);
    for (int d = 0; d < SSDSIM__N_DIRS && rc == 0; d++)
        if (bytes.set[d])
            ssdsim__fio_bsdist_single(&job->bs[d], (uint32_t)bytes.v[d]);
    return rc;
}

/* ba=4k (blockalign, per direction as bs): random offsets are multiples of it; like fio, it
 * turns the random map off ("mutually exclusive with using a random map"). */
int ssdsim__fio_opt_ba(const struct ssdsim__fio_optdef *o, struct ssdsim__jobspec *job,
                       const char *value, char *errbuf, size_t errlen)
{
    (void)o;
    struct ssdsim__fio_dir_values bytes;
    int rc = block_sizes(value, &bytes, errbuf, errlen);
    if (rc)
        return rc;
    for (int d = 0; d < SSDSIM__N_DIRS; d++)
        if (bytes.set[d])
            job->blockalign[d] = (uint32_t)bytes.v[d];
    job->norandommap = true;
    return 0;
}

/* bsrange=1k-4k (or 1k:4k; the bounds are swapped when the first is larger, as fio does). */
int ssdsim__fio_opt_bsrange(const struct ssdsim__fio_optdef *o, struct ssdsim__jobspec *job,
                            const char *value, char *errbuf, size_t errlen)
{
    (void)o;
    struct ssdsim__fio_dirs dirs;
    uint32_t lo[SSDSIM__N_DIRS] = {0}, hi[SSDSIM__N_DIRS] = {0};
    int rc = ssdsim__fio_split_dirs(value, &dirs, errbuf, errlen);
    if (rc)
        return rc;
    for (int d = 0; d < SSDSIM__N_DIRS; d++) {
        if (!ssdsim__fio_dir_used(&dirs, d))
            continue;
        const char *s = dirs.part[d];
        const char *sep = s[0] ? strchr(s + 1, '-') : NULL;
        if (!sep)
            sep = strchr(s, ':');
        struct ssdsim__fio_quoted q = ssdsim__fio_quote(s, strlen(s));
        if (!sep || sep == s)
            return ssdsim__fio_fail(errbuf, errlen,
                                    "expected a range of block sizes like 1k-4k, got '%s'", q.text);
        char a[SSDSIM__FIO_PART_MAX], b[SSDSIM__FIO_PART_MAX];
        ssdsim__fio_copy_part(a, s, (size_t)(sep - s));
        ssdsim__fio_copy_part(b, sep + 1, strlen(sep + 1));
        rc = ssdsim__fio_parse_block_size(a, &lo[d], errbuf, errlen);
        if (rc == 0)
            rc = ssdsim__fio_parse_block_size(b, &hi[d], errbuf, errlen);
        if (rc)
            return rc;
        if (lo[d] > hi[d]) {
            uint32_t t = lo[d];
            lo[d] = hi[d];
            hi[d] = t;
        }
    }
    for (int d = 0; d < SSDSIM__N_DIRS; d++) {
        if (!dirs.set[d])
            continue;
        if (lo[d] == hi[d]) {
            ssdsim__fio_bsdist_single(&job->bs[d], lo[d]);
        } else {
            memset(&job->bs[d], 0, sizeof job->bs[d]);
            job->bs[d].range_min = lo[d];
            job->bs[d].range_max = hi[d];
        }
    }
    return 0;
}

int ssdsim__fio_opt_bssplit(const struct ssdsim__fio_optdef *o, struct ssdsim__jobspec *job,
                            const char *value, char *errbuf, size_t errlen)
{
    (void)o;
    struct ssdsim__fio_dirs dirs;
    struct ssdsim__bs_entry e[SSDSIM__N_DIRS][SSDSIM__BSSPLIT_MAX];
    uint32_t n[SSDSIM__N_DIRS] = {0};
    int rc = ssdsim__fio_split_dirs(value, &dirs, errbuf, errlen);
    for (int d = 0; d < SSDSIM__N_DIRS && rc == 0; d++)
        if (ssdsim__fio_dir_used(&dirs, d))
            rc = ssdsim__fio_parse_bssplit(dirs.part[d], e[d], &n[d], errbuf, errlen);
    if (rc)
        return rc;
    for (int d = 0; d < SSDSIM__N_DIRS; d++) {
        if (!dirs.set[d])
            continue;
        memset(&job->bs[d], 0, sizeof job->bs[d]);
        job->bs[d].n = n[d];
        memcpy(job->bs[d].e, e[d], sizeof e[d][0] * n[d]);
    }
    return 0;
}

/* ------------------------------------------------------------------------------------------ */
/* The region and the amount of I/O                                                            */

/* What a region option accepts: bytes, or a percentage of the device. A place (an offset) may
 * be 0% but not max_pct, an amount (a size) max_pct but not 0%. */
struct region_rule {
    const char *article, *name; /* the messages' words: "a", "size" */
    bool place;                 /* [0, max_pct) rather than (0, max_pct] */
    double max_pct;
    const char *range; /* the same, as the message writes it */
    /* Requests address 512-byte sectors, so a region must start and end on one: bytes are a
     * multiple of 512. Differs from fio, which rounds the size down to the block size. */
    bool sectors;
};

/* Store the bytes and percentage that `value` gives into *bytes_out and *pct_out when they
 * follow rule `r`; otherwise leave them alone. */
static int region_value(const char *value, const struct region_rule *r, uint64_t *bytes_out,
                        double *pct_out, char *errbuf, size_t errlen)
{
    uint64_t bytes = 0;
    double pct = 0;
    int rc = ssdsim__fio_size_or_percent(value, &bytes, &pct, errbuf, errlen);
    if (rc)
        return rc;
    bool in_range = r->place ? pct >= 0 && pct < r->max_pct : pct > 0 && pct <= r->max_pct;
    if (strchr(value, '%') && !in_range)
        return ssdsim__fio_fail(errbuf, errlen, "%s %s percentage must be in %s, got %g%%",
                                r->article, r->name, r->range, pct);
    if (r->sectors && bytes % 512 != 0)
        return ssdsim__fio_fail(errbuf, errlen, "%s must be a multiple of 512 bytes, got %llu",
                                r->name, (unsigned long long)bytes);
    *bytes_out = bytes;
    *pct_out = pct;
    return 0;
}

/* size: bytes (0 = to the end of the device) or a percentage in (0, 100] of the device. */
int ssdsim__fio_opt_size(const struct ssdsim__fio_optdef *o, struct ssdsim__jobspec *job,
                         const char *value, char *errbuf, size_t errlen)
{
    (void)o;
    static const struct region_rule rule = {"a", "size", false, 100, "(0, 100]", true};
    return region_value(value, &rule, &job->size_bytes, &job->size_percent, errbuf, errlen);
}

/* offset and offset_increment: bytes, a multiple of 512, or a percentage in [0, 100). */
int ssdsim__fio_opt_offset(const struct ssdsim__fio_optdef *o, struct ssdsim__jobspec *job,
                           const char *value, char *errbuf, size_t errlen)
{
    (void)o;
    static const struct region_rule rule = {"an", "offset", true, 100, "[0, 100)", true};
    return region_value(value, &rule, &job->offset_bytes, &job->offset_percent, errbuf, errlen);
}

int ssdsim__fio_opt_offset_increment(const struct ssdsim__fio_optdef *o,
                                     struct ssdsim__jobspec *job, const char *value, char *errbuf,
                                     size_t errlen)
{
    (void)o;
    static const struct region_rule rule = {"an", "offset_increment", true, 100, "[0, 100)",
                                            true};
    return region_value(value, &rule, &job->offset_increment_bytes,
                        &job->offset_increment_percent, errbuf, errlen);
}

/* offset_align: bytes, a multiple of 512 (0: the job's smallest block size). */
int ssdsim__fio_opt_offset_align(const struct ssdsim__fio_optdef *o, struct ssdsim__jobspec *job,
                                 const char *value, char *errbuf, size_t errlen)
{
    (void)o;
    uint64_t bytes = 0;
    double pct = 0;
    int rc = ssdsim__fio_size_or_percent(value, &bytes, &pct, errbuf, errlen);
    if (rc)
        return rc;
    if (strchr(value, '%') || bytes % 512 != 0)
        return ssdsim__fio_fail(errbuf, errlen,
                                "offset_align must be a size, a multiple of 512 bytes (0: the "
                                "smallest block size), got '%s'",
                                value);
    job->offset_align = bytes;
    return 0;
}

/* io_size (io_limit): bytes of I/O per job, or a percentage in (0, 100] of the job's region
 * (size), as fio 3.33 takes it (`size=1m io_size=50%`: 512 KiB; above 100% fio refuses "io_size
 * values greater than 100% aren't supported"); 0 = not set. Bytes may exceed the region (the
 * job wraps around it). */
int ssdsim__fio_opt_io_size(const struct ssdsim__fio_optdef *o, struct ssdsim__jobspec *job,
                            const char *value, char *errbuf, size_t errlen)
{
    (void)o;
    static const struct region_rule rule = {"an", "io_size", false, 100, "(0, 100]", false};
    return region_value(value, &rule, &job->io_size_bytes, &job->io_size_percent, errbuf,
                        errlen);
}

/* ------------------------------------------------------------------------------------------ */
/* Pacing                                                                                      */

int ssdsim__fio_opt_rate_process(const struct ssdsim__fio_optdef *o, struct ssdsim__jobspec *job,
                                 const char *value, char *errbuf, size_t errlen)
{
    (void)o;
    const char *s = value;
    size_t len = ssdsim__fio_trimmed(&s);
    if (ssdsim__fio_word_is(s, len, "linear"))
        job->rate_process = SSDSIM__RATE_LINEAR;
    else if (ssdsim__fio_word_is(s, len, "poisson"))
        job->rate_process = SSDSIM__RATE_POISSON;
    else {
        struct ssdsim__fio_quoted q = ssdsim__fio_quote(s, len);
        return ssdsim__fio_fail(errbuf, errlen, "expected linear or poisson, got '%s'", q.text);
    }
    return 0;
}
