/* fioopt.c: the table of every fio option (simulated, ignored or refused), the setters of the
 * simulated ones, and applying one option to a job. Values are read by fioval.c; a job's
 * defaults, copies and checks against a device are in jobspec.c.
 *
 * The JSON workload loader (workload.c) and the fio job-file reader (jobfile.c) share this file,
 * so values follow fio's syntax, with a few deliberate differences, each marked "Differs from
 * fio" below or in fioval.c. Where fio and the JSON reading disagree about a well-formed value
 * ("4KiB", "1.5g"), a job file is refused rather than read differently from fio
 * (ssdsim__fio_check_jobfile_value).
 *
 * Every option fio 3.33 has is in the table: simulated (parsed into the jobspec), ignored (it
 * changes only how the host CPU issues I/O, the data written or what fio reports, so the
 * simulated device sees the same requests; accepted and listed in results), or refused with the
 * reason (it changes addresses, sizes, timing or the op mix in a way not simulated yet), except
 * for its no-op values (fsync=0). Anything else is unknown, with a "did you mean" suggestion.
 *
 * Errors are one-line reasons written into a caller buffer, without the file or the option
 * name, which the caller adds. Only the jobspec's strings are allocated.
 */
#include "config/jsonutil.h"
#include "workload/fioval.h"
#include "workload/workload.h"

#include <ctype.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define IODEPTH_MAX 65536
#define NUMJOBS_MAX 4096 /* fio's MAX_JOBS */

/* ------------------------------------------------------------------------------------------ */
/* The option table's row type                                                                 */

enum optclass {
    CLS_SIM,    /* parsed into the jobspec */
    CLS_IGNORE, /* accepted, no effect on a simulation, listed as ignored */
    CLS_REFUSE, /* refused with a reason, except for the values in `noop` (listed as ignored) */
};

struct optdef;
typedef int (*opt_fn)(const struct optdef *o, struct ssdsim__jobspec *job, const char *value,
                      char *errbuf, size_t errlen);

struct optdef {
    const char *name;
    const char *alias; /* fio's alias, or NULL */
    enum ssdsim__optkind kind;
    enum optclass cls;
    opt_fn apply;     /* CLS_SIM */
    size_t off;       /* field the generic setters (set_flag, set_time, ...) store into */
    uint64_t unit_ns; /* time options: the unit when none is written */
    const char *noop; /* CLS_REFUSE: values that change nothing, '|'-separated ("0", "none|0") */
    const char *why;  /* CLS_REFUSE: why, completing "not supported: " */
    uint64_t min, max; /* set_u32, set_u64: the range of the integer */
};

#define FIELD(job, o, type) ((type *)(void *)((char *)(job) + (o)->off))

/* ------------------------------------------------------------------------------------------ */
/* Simulated options                                                                           */

static int set_flag(const struct optdef *o, struct ssdsim__jobspec *job, const char *value,
                    char *errbuf, size_t errlen)
{
    bool b = false;
    int rc = ssdsim__fio_parse_flag(value, &b, errbuf, errlen);
    if (rc == 0)
        *FIELD(job, o, bool) = b;
    return rc;
}

static int set_bool(const struct optdef *o, struct ssdsim__jobspec *job, const char *value,
                    char *errbuf, size_t errlen)
{
    bool b = false;
    int rc = ssdsim__fio_parse_bool(value, &b, errbuf, errlen);
    if (rc == 0)
        *FIELD(job, o, bool) = b;
    return rc;
}

/* A time in ns, with the option's unit when none is written; 0 means "not set". */
static int set_time(const struct optdef *o, struct ssdsim__jobspec *job, const char *value,
                    char *errbuf, size_t errlen)
{
    uint64_t ns = 0;
    int rc = ssdsim__fio_parse_time_ns(value, o->unit_ns, &ns, errbuf, errlen);
    if (rc == 0)
        *FIELD(job, o, uint64_t) = ns;
    return rc;
}

/* An integer in [o->min, o->max], stored into a uint32_t field (set_u32) or a uint64_t one. */
static int set_u32(const struct optdef *o, struct ssdsim__jobspec *job, const char *value,
                   char *errbuf, size_t errlen)
{
    uint64_t v = 0;
    int rc = ssdsim__fio_parse_uint(value, o->min, o->max, &v, errbuf, errlen);
    if (rc == 0)
        *FIELD(job, o, uint32_t) = (uint32_t)v;
    return rc;
}

static int set_u64(const struct optdef *o, struct ssdsim__jobspec *job, const char *value,
                   char *errbuf, size_t errlen)
{
    uint64_t v = 0;
    int rc = ssdsim__fio_parse_uint(value, o->min, o->max, &v, errbuf, errlen);
    if (rc == 0)
        *FIELD(job, o, uint64_t) = v;
    return rc;
}

/* Replace an owned string, freeing the old one; "" stores NULL when `empty_is_null`. */
static int replace_string(char **slot, const char *value, bool empty_is_null, char *errbuf,
                          size_t errlen)
{
    const char *s = value;
    size_t len = strlen(s);
    ssdsim__fio_trim(&s, &len);
    char *copy = NULL;
    if (len > 0 || !empty_is_null) {
        copy = malloc(len + 1);
        if (!copy) {
            ssdsim__fio_fail(errbuf, errlen, "out of memory");
            return SSDSIM_ENOMEM;
        }
        memcpy(copy, s, len);
        copy[len] = '\0';
    }
    free(*slot);
    *slot = copy;
    return 0;
}

/* name: the job's name in results (fio: "override the name printed"); "" keeps the default. */
static int opt_name(const struct optdef *o, struct ssdsim__jobspec *job, const char *value,
                    char *errbuf, size_t errlen)
{
    (void)o;
    return replace_string(&job->name, value, true, errbuf, errlen);
}

static int opt_read_iolog(const struct optdef *o, struct ssdsim__jobspec *job, const char *value,
                          char *errbuf, size_t errlen)
{
    (void)o;
    const char *s = value;
    size_t len = strlen(s);
    ssdsim__fio_trim(&s, &len);
    if (len == 0)
        return ssdsim__fio_fail(errbuf, errlen, "expected the name of an I/O log file, got ''");
    return replace_string(&job->read_iolog, value, false, errbuf, errlen);
}

/* write_bw_log, write_lat_log, write_iops_log: a prefix for the log files. Without a value fio
 * uses the job's name; that is stored as "" here and the job-file reader replaces it by the
 * name once the job has one (a [global] section comes before the job's name is known). */
static int set_logname(const struct optdef *o, struct ssdsim__jobspec *job, const char *value,
                       char *errbuf, size_t errlen)
{
    return replace_string(FIELD(job, o, char *), value ? value : "", false, errbuf, errlen);
}

static int opt_rw(const struct optdef *o, struct ssdsim__jobspec *job, const char *value,
                  char *errbuf, size_t errlen)
{
    (void)o;
    static const struct {
        const char *name;
        enum ssdsim__rw rw;
        bool random;
    } modes[] = {
        {"read", SSDSIM__RW_READ, false},        {"write", SSDSIM__RW_WRITE, false},
        {"randread", SSDSIM__RW_RANDREAD, true}, {"randwrite", SSDSIM__RW_RANDWRITE, true},
        {"randrw", SSDSIM__RW_RANDRW, true},     {"rw", SSDSIM__RW_RW, false},
        {"readwrite", SSDSIM__RW_RW, false},     {"trim", SSDSIM__RW_TRIM, false},
        {"randtrim", SSDSIM__RW_RANDTRIM, true},
    };
    /* fio values this version knows but does not simulate. */
    static const char *const unsupported[] = {"trimwrite", "randtrimwrite"};

    const char *s = value;
    size_t len = strlen(s);
    ssdsim__fio_trim(&s, &len);
    /* "rw=randread:8": the modifier follows ':'. */
    const char *colon = memchr(s, ':', len);
    size_t name_len = colon ? (size_t)(colon - s) : len;
    struct ssdsim__fio_quoted q = ssdsim__fio_quote(s, name_len);
    for (size_t i = 0; i < SSDSIM__ARRAY_LEN(unsupported); i++)
        if (strlen(unsupported[i]) == name_len && !memcmp(s, unsupported[i], name_len))
            return ssdsim__fio_fail(
                errbuf, errlen,
                "rw '%s' is not supported yet (trim then write of the same blocks is not "
                "simulated)",
                q.text);
    /* fio matches rw values case-sensitively. Differs from fio: fio matches by prefix
     * ("randreadx" is randread); we want the whole word. */
    for (size_t i = 0; i < SSDSIM__ARRAY_LEN(modes); i++) {
        if (strlen(modes[i].name) != name_len || memcmp(s, modes[i].name, name_len))
            continue;
        uint64_t suffix = 0;
        if (colon) {
            char part[SSDSIM__FIO_PART_MAX];
            if (!ssdsim__fio_copy_part(part, colon + 1, len - name_len - 1))
                return ssdsim__fio_fail(errbuf, errlen, "value too long");
            struct ssdsim__fio_quoted qs = ssdsim__fio_quote(part, strlen(part));
            if (modes[i].random) {
                /* fio (since 3.34; 3.33 used atoi): a count of I/Os at consecutive offsets
                 * for each random offset, 1 to 2^32 - 1. */
                if (!ssdsim__fio_uint_ok(part, &suffix) || suffix == 0 || suffix > UINT32_MAX)
                    return ssdsim__fio_fail(
                        errbuf, errlen,
                        "expected the number of I/Os per random offset (1 or more) "
                        "after ':', got '%s'",
                        qs.text);
                if (suffix == 1)
                    suffix = 0; /* one I/O per random offset is no modifier at all */
            } else {
                /* A gap added after each I/O: a size. Requests address 512-byte sectors. */
                if (!ssdsim__fio_uint_ok(part, &suffix) || suffix % 512 != 0)
                    return ssdsim__fio_fail(
                        errbuf, errlen,
                        "expected a gap like 4k (a multiple of 512 bytes) after ':', got "
                        "'%s'",
                        qs.text);
            }
        }
        job->rw = modes[i].rw;
        job->rw_suffix = suffix;
        return 0;
    }
    return ssdsim__fio_fail(
        errbuf, errlen,
        "expected one of read, write, randread, randwrite, randrw, rw, readwrite, trim, "
        "randtrim, got '%s'",
        q.text);
}

/* Block sizes per direction (bs, ba): `dirs` says which directions the value gives, `bytes`
 * their sizes. */
static int dir_block_sizes(const char *value, struct ssdsim__fio_dirs *dirs,
                           uint32_t bytes[SSDSIM__N_DIRS], char *errbuf, size_t errlen)
{
    int rc = ssdsim__fio_split_dirs(value, dirs, errbuf, errlen);
    for (int d = 0; d < SSDSIM__N_DIRS && rc == 0; d++)
        if (ssdsim__fio_dir_used(dirs, d))
            rc = ssdsim__fio_parse_block_size(dirs->part[d], &bytes[d], errbuf, errlen);
    return rc;
}

static int opt_bs(const struct optdef *o, struct ssdsim__jobspec *job, const char *value,
                  char *errbuf, size_t errlen)
{
    (void)o;
    struct ssdsim__fio_dirs dirs;
    uint32_t bytes[SSDSIM__N_DIRS] = {0};
    int rc = dir_block_sizes(value, &dirs, bytes, errbuf, errlen);
    if (rc)
        return rc;
    for (int d = 0; d < SSDSIM__N_DIRS; d++)
        if (dirs.set[d])
            ssdsim__fio_bsdist_single(&job->bs[d], bytes[d]);
    return 0;
}

/* ba=4k (blockalign, per direction as bs): random offsets are multiples of it; like fio, it
 * turns the random map off ("mutually exclusive with using a random map"). */
static int opt_ba(const struct optdef *o, struct ssdsim__jobspec *job, const char *value,
                  char *errbuf, size_t errlen)
{
    (void)o;
    struct ssdsim__fio_dirs dirs;
    uint32_t bytes[SSDSIM__N_DIRS] = {0};
    int rc = dir_block_sizes(value, &dirs, bytes, errbuf, errlen);
    if (rc)
        return rc;
    for (int d = 0; d < SSDSIM__N_DIRS; d++)
        if (dirs.set[d])
            job->blockalign[d] = bytes[d];
    job->norandommap = true;
    return 0;
}

/* bsrange=1k-4k (or 1k:4k; the bounds are swapped when the first is larger, as fio does). */
static int opt_bsrange(const struct optdef *o, struct ssdsim__jobspec *job, const char *value,
                       char *errbuf, size_t errlen)
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

static int opt_bssplit(const struct optdef *o, struct ssdsim__jobspec *job, const char *value,
                       char *errbuf, size_t errlen)
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

/* An integer per direction in [min, max] (percentage_random, rate_iops). */
static int per_dir_uint(const char *value, uint64_t min, uint64_t max, uint64_t out[], bool set[],
                        char *errbuf, size_t errlen)
{
    struct ssdsim__fio_dirs dirs;
    uint64_t v[SSDSIM__N_DIRS] = {0};
    int rc = ssdsim__fio_split_dirs(value, &dirs, errbuf, errlen);
    for (int d = 0; d < SSDSIM__N_DIRS && rc == 0; d++)
        if (ssdsim__fio_dir_used(&dirs, d))
            rc = ssdsim__fio_parse_uint(dirs.part[d], min, max, &v[d], errbuf, errlen);
    if (rc)
        return rc;
    for (int d = 0; d < SSDSIM__N_DIRS; d++) {
        set[d] = dirs.set[d];
        out[d] = v[d];
    }
    return 0;
}

static int opt_percentage_random(const struct optdef *o, struct ssdsim__jobspec *job,
                                 const char *value, char *errbuf, size_t errlen)
{
    (void)o;
    uint64_t v[SSDSIM__N_DIRS];
    bool set[SSDSIM__N_DIRS];
    int rc = per_dir_uint(value, 0, 100, v, set, errbuf, errlen);
    for (int d = 0; d < SSDSIM__N_DIRS && rc == 0; d++)
        if (set[d])
            job->percentage_random[d] = (uint32_t)v[d];
    return rc;
}

static int opt_rate_iops(const struct optdef *o, struct ssdsim__jobspec *job, const char *value,
                         char *errbuf, size_t errlen)
{
    (void)o;
    uint64_t v[SSDSIM__N_DIRS];
    bool set[SSDSIM__N_DIRS];
    int rc = per_dir_uint(value, 0, UINT64_MAX, v, set, errbuf, errlen);
    for (int d = 0; d < SSDSIM__N_DIRS && rc == 0; d++)
        if (set[d])
            job->rate_iops[d] = v[d];
    return rc;
}

/* sync=none|0|sync|1|dsync: fio opens the file O_SYNC (or O_DSYNC) for writes; on a block
 * device each write is then acknowledged only when it is on stable media, which the block layer
 * asks of the drive with FUA: every write of the job is a FUA write. */
static int opt_sync(const struct optdef *o, struct ssdsim__jobspec *job, const char *value,
                    char *errbuf, size_t errlen)
{
    (void)o;
    const char *s = value ? value : "";
    size_t len = strlen(s);
    ssdsim__fio_trim(&s, &len);
    static const char *const off[] = {"none", "0"}, *const on[] = {"sync", "1", "dsync"};
    for (size_t i = 0; i < SSDSIM__ARRAY_LEN(off); i++)
        if (len == strlen(off[i]) && !memcmp(s, off[i], len)) {
            job->sync_writes = false;
            return 0;
        }
    for (size_t i = 0; i < SSDSIM__ARRAY_LEN(on); i++)
        if (len == strlen(on[i]) && !memcmp(s, on[i], len)) {
            job->sync_writes = true;
            return 0;
        }
    struct ssdsim__fio_quoted q = ssdsim__fio_quote(s, len);
    return ssdsim__fio_fail(errbuf, errlen, "expected none, 0, sync, 1 or dsync, got '%s'",
                            q.text);
}

/* queue=N (ssdsim's own option): the NVMe queue pair of the job's clones, 0 .. 65534; the
 * model's nvme.queues is checked when the run starts (host.c). */
static int opt_queue(const struct optdef *o, struct ssdsim__jobspec *job, const char *value,
                     char *errbuf, size_t errlen)
{
    (void)o;
    uint64_t v;
    int rc = ssdsim__fio_parse_uint(value, 0, 65534, &v, errbuf, errlen);
    if (rc)
        return rc;
    job->queue = (uint32_t)v;
    job->have_queue = true;
    return 0;
}

/* placement=N (ssdsim's own option): the FDP placement id of the job's writes; the model's
 * fdp.handles is checked when the run starts (host.c). */
static int opt_placement(const struct optdef *o, struct ssdsim__jobspec *job, const char *value,
                         char *errbuf, size_t errlen)
{
    (void)o;
    uint64_t v;
    int rc = ssdsim__fio_parse_uint(value, 0, 65535, &v, errbuf, errlen);
    if (rc)
        return rc;
    job->placements[0] = (uint32_t)v;
    job->n_placements = 1;
    job->placement_opt = "placement";
    job->placement_given = true;
    return 0;
}

/* fdp_pli=0,1 (fio 3.35): the placement id indices the job's writes use with fdp=1. */
static int opt_fdp_pli(const struct optdef *o, struct ssdsim__jobspec *job, const char *value,
                       char *errbuf, size_t errlen)
{
    (void)o;
    uint32_t n = 0;
    const char *s = value;
    while (*s) {
        const char *comma = strchr(s, ',');
        size_t len = comma ? (size_t)(comma - s) : strlen(s);
        char part[SSDSIM__FIO_PART_MAX];
        uint64_t v;
        if (n == SSDSIM__PLACEMENTS_MAX)
            return ssdsim__fio_fail(errbuf, errlen, "more than %d placement ids",
                                    SSDSIM__PLACEMENTS_MAX);
        if (!ssdsim__fio_copy_part(part, s, len) || !ssdsim__fio_uint_ok(part, &v) || v > 255)
            return ssdsim__fio_fail(errbuf, errlen,
                                    "expected a list of placement ids 0 to 255 like 0,1, got "
                                    "'%s'",
                                    value);
        job->placements[n++] = (uint32_t)v;
        s = comma ? comma + 1 : s + len;
    }
    if (n == 0)
        return ssdsim__fio_fail(errbuf, errlen, "expected a list of placement ids like 0,1");
    job->n_placements = n;
    job->placement_opt = "fdp_pli";
    return 0;
}

static int opt_fdp_pli_select(const struct optdef *o, struct ssdsim__jobspec *job,
                              const char *value, char *errbuf, size_t errlen)
{
    (void)o;
    if (!strcmp(value, "random") || !strcmp(value, "roundrobin")) {
        job->pli_random = !strcmp(value, "random");
        return 0;
    }
    return ssdsim__fio_fail(errbuf, errlen, "expected random or roundrobin, got '%s'", value);
}

/* zonemode=none|zbd; fio's strided mode (zonerange, zonesize, zoneskip on a regular device) is
 * not simulated. */
static int opt_zonemode(const struct optdef *o, struct ssdsim__jobspec *job, const char *value,
                        char *errbuf, size_t errlen)
{
    (void)o;
    if (!strcmp(value, "none") || !strcmp(value, "zbd")) {
        job->zbd = !strcmp(value, "zbd");
        return 0;
    }
    if (!strcmp(value, "strided"))
        return ssdsim__fio_fail(errbuf, errlen,
                                "strided zones (zonerange, zonesize and zoneskip on a regular "
                                "device) are not simulated; zbd is");
    return ssdsim__fio_fail(errbuf, errlen, "expected none or zbd, got '%s'", value);
}

/* zonesize, zonecapacity: sizes the run checks against the drive's zones with zonemode=zbd;
 * zoneskip: bytes skipped after each zone of a sequential zbd job (host.c checks it). */
static int set_zone_bytes(const struct optdef *o, struct ssdsim__jobspec *job, const char *value,
                          char *errbuf, size_t errlen)
{
    uint64_t bytes = 0;
    double pct = 0;
    int rc = ssdsim__fio_size_or_percent(value, &bytes, &pct, errbuf, errlen);
    if (rc)
        return rc;
    if (pct > 0)
        return ssdsim__fio_fail(errbuf, errlen, "expected a size, got '%s'", value);
    *FIELD(job, o, uint64_t) = bytes;
    return 0;
}

/* zonerange: fio ignores it with zonemode=zbd (the drive's zones are used); strided mode is not
 * simulated, so it is accepted and has no effect. */
static int opt_zonerange(const struct optdef *o, struct ssdsim__jobspec *job, const char *value,
                         char *errbuf, size_t errlen)
{
    (void)o;
    (void)job;
    uint64_t bytes = 0;
    double pct = 0;
    return ssdsim__fio_size_or_percent(value, &bytes, &pct, errbuf, errlen);
}

/* rate=1m,500k: bytes per second per direction, fio's size syntax; 0 = unlimited. */
static int opt_rate(const struct optdef *o, struct ssdsim__jobspec *job, const char *value,
                    char *errbuf, size_t errlen)
{
    (void)o;
    struct ssdsim__fio_dirs dirs;
    uint64_t v[SSDSIM__N_DIRS] = {0};
    int rc = ssdsim__fio_split_dirs(value, &dirs, errbuf, errlen);
    for (int d = 0; d < SSDSIM__N_DIRS && rc == 0; d++)
        if (ssdsim__fio_dir_used(&dirs, d))
            rc = ssdsim__fio_parse_size(dirs.part[d], &v[d], errbuf, errlen);
    if (rc)
        return rc;
    for (int d = 0; d < SSDSIM__N_DIRS; d++)
        if (dirs.set[d])
            job->rate_bytes[d] = v[d];
    return 0;
}

/* fio: "If both rwmixread and rwmixwrite are given and do not add up to 100%, the latter of the
 * two will be used to override the first": the last one written wins, as here. */
static int opt_rwmixwrite(const struct optdef *o, struct ssdsim__jobspec *job, const char *value,
                          char *errbuf, size_t errlen)
{
    (void)o;
    uint64_t v = 0;
    int rc = ssdsim__fio_parse_uint(value, 0, 100, &v, errbuf, errlen);
    if (rc == 0)
        job->rwmixread = 100 - (uint32_t)v;
    return rc;
}

/* fio: "loops=0" runs once, like the default of 1 (fixup_options). */
static int opt_loops(const struct optdef *o, struct ssdsim__jobspec *job, const char *value,
                     char *errbuf, size_t errlen)
{
    (void)o;
    uint64_t v = 0;
    int rc = ssdsim__fio_parse_uint(value, 0, UINT32_MAX, &v, errbuf, errlen);
    if (rc == 0)
        job->loops = v ? (uint32_t)v : 1;
    return rc;
}

/* Differs from fio: fio reads randseed with strtoll, so "12abc" is 12 and "-5" wraps around. */
static int opt_randseed(const struct optdef *o, struct ssdsim__jobspec *job, const char *value,
                        char *errbuf, size_t errlen)
{
    (void)o;
    uint64_t v = 0;
    int rc = ssdsim__fio_parse_uint(value, 0, UINT64_MAX, &v, errbuf, errlen);
    if (rc == 0) {
        job->randseed = v;
        job->has_randseed = true;
    }
    return rc;
}

/* size: bytes (0 = to the end of the device) or a percentage in (0, 100] of the device. */
static int opt_size(const struct optdef *o, struct ssdsim__jobspec *job, const char *value,
                    char *errbuf, size_t errlen)
{
    (void)o;
    uint64_t bytes = 0;
    double pct = 0;
    int rc = ssdsim__fio_size_or_percent(value, &bytes, &pct, errbuf, errlen);
    if (rc)
        return rc;
    if (bytes == 0 && (pct != 0 || strchr(value, '%')) && !(pct > 0 && pct <= 100))
        return ssdsim__fio_fail(errbuf, errlen, "a size percentage must be in (0, 100], got %g%%",
                                pct);
    /* Requests address 512-byte sectors, so a region must end on one. Differs from fio, which
     * rounds the size down to the block size. */
    if (bytes % 512 != 0)
        return ssdsim__fio_fail(errbuf, errlen, "size must be a multiple of 512 bytes, got %llu",
                                (unsigned long long)bytes);
    job->size_bytes = bytes;
    job->size_percent = pct;
    return 0;
}

/* offset and offset_increment: bytes, a multiple of 512, or a percentage in [0, 100). */
static int offset_value(const char *value, const char *what, uint64_t *bytes, double *pct,
                        char *errbuf, size_t errlen)
{
    int rc = ssdsim__fio_size_or_percent(value, bytes, pct, errbuf, errlen);
    if (rc)
        return rc;
    if (*pct != 0 && !(*pct >= 0 && *pct < 100))
        return ssdsim__fio_fail(errbuf, errlen, "%s percentage must be in [0, 100), got %g%%", what,
                                *pct);
    /* Requests address 512-byte sectors, so a region must start on one. */
    if (*bytes % 512 != 0)
        return ssdsim__fio_fail(errbuf, errlen, "%s must be a multiple of 512 bytes, got %llu",
                                what + 3, (unsigned long long)*bytes);
    return 0;
}

static int opt_offset(const struct optdef *o, struct ssdsim__jobspec *job, const char *value,
                      char *errbuf, size_t errlen)
{
    (void)o;
    uint64_t bytes = 0;
    double pct = 0;
    int rc = offset_value(value, "an offset", &bytes, &pct, errbuf, errlen);
    if (rc == 0) {
        job->offset_bytes = bytes;
        job->offset_percent = pct;
    }
    return rc;
}

static int opt_offset_increment(const struct optdef *o, struct ssdsim__jobspec *job,
                                const char *value, char *errbuf, size_t errlen)
{
    (void)o;
    uint64_t bytes = 0;
    double pct = 0;
    int rc = offset_value(value, "an offset_increment", &bytes, &pct, errbuf, errlen);
    if (rc == 0) {
        job->offset_increment_bytes = bytes;
        job->offset_increment_percent = pct;
    }
    return rc;
}

/* io_size (io_limit): bytes of I/O per job, or a percentage of the device; 0 = not set. More
 * than the region is allowed (the job wraps around it), so percentages may exceed 100. */
static int opt_io_size(const struct optdef *o, struct ssdsim__jobspec *job, const char *value,
                       char *errbuf, size_t errlen)
{
    (void)o;
    uint64_t bytes = 0;
    double pct = 0;
    int rc = ssdsim__fio_size_or_percent(value, &bytes, &pct, errbuf, errlen);
    if (rc)
        return rc;
    if (bytes == 0 && strchr(value, '%') && !(pct > 0 && pct <= 1e6))
        return ssdsim__fio_fail(errbuf, errlen,
                                "an io_size percentage must be in (0, 1000000], got %g%%", pct);
    job->io_size_bytes = bytes;
    job->io_size_percent = pct;
    return 0;
}

static int opt_rate_process(const struct optdef *o, struct ssdsim__jobspec *job, const char *value,
                            char *errbuf, size_t errlen)
{
    (void)o;
    const char *s = value;
    size_t len = strlen(s);
    ssdsim__fio_trim(&s, &len);
    if (len == 6 && !memcmp(s, "linear", 6))
        job->rate_process = SSDSIM__RATE_LINEAR;
    else if (len == 7 && !memcmp(s, "poisson", 7))
        job->rate_process = SSDSIM__RATE_POISSON;
    else {
        struct ssdsim__fio_quoted q = ssdsim__fio_quote(s, len);
        return ssdsim__fio_fail(errbuf, errlen, "expected linear or poisson, got '%s'", q.text);
    }
    return 0;
}

/* zoned:A/R:A/R... (R percent of the region) or zoned_abs:A/SIZE:... (bytes): A percent of the
 * random accesses go to the next range, zones in order from the region's start. As fio checks
 * (zone_split_ddir): the accesses sum to 100 and the ranges of zoned to at most 100 (the rest of
 * the region is not accessed). Differs from fio: blank values ("/10") are refused, and at most
 * SSDSIM__ZONES_MAX zones (fio: 256). */
static int parse_zones(const char *list, bool absolute, struct ssdsim__jobspec *out, char *errbuf,
                       size_t errlen)
{
    uint32_t n = 0, sum_a = 0;
    uint64_t sum_r = 0;
    const char *p = list;
    struct ssdsim__fio_quoted ql = ssdsim__fio_quote(list, strlen(list));
    for (;;) {
        const char *colon = strchr(p, ':');
        size_t len = colon ? (size_t)(colon - p) : strlen(p);
        if (n == SSDSIM__ZONES_MAX)
            return ssdsim__fio_fail(errbuf, errlen, "more than %d zones", SSDSIM__ZONES_MAX);
        const char *slash = memchr(p, '/', len);
        char a[SSDSIM__FIO_PART_MAX], r[SSDSIM__FIO_PART_MAX];
        uint64_t av = 0, rv = 0;
        bool ok = slash && ssdsim__fio_copy_part(a, p, (size_t)(slash - p)) &&
                  ssdsim__fio_copy_part(r, slash + 1, len - (size_t)(slash - p) - 1) &&
                  ssdsim__fio_uint_ok(a, &av) && av <= 100;
        if (ok && absolute)
            ok = ssdsim__fio_uint_ok(r, &rv) && rv > 0 && rv % 512 == 0;
        else if (ok)
            ok = ssdsim__fio_uint_ok(r, &rv) && rv >= 1 && rv <= 100;
        if (!ok)
            return ssdsim__fio_fail(
                errbuf, errlen,
                absolute ? "zone %u: expected ACCESS%%/SIZE like 60/20g (SIZE a non-zero "
                           "multiple of 512), in '%s'"
                         : "zone %u: expected ACCESS%%/RANGE%% like 80/20 (RANGE in [1, "
                           "100]), in '%s'",
                n + 1, ql.text);
        out->zone_access[n] = (uint32_t)av;
        if (absolute) {
            out->zone_bytes[n] = rv;
            out->zone_range[n] = 0;
        } else {
            out->zone_range[n] = (uint32_t)rv;
            out->zone_bytes[n] = 0;
        }
        sum_a += (uint32_t)av;
        sum_r += rv;
        n++;
        if (!colon)
            break;
        p = colon + 1;
    }
    if (sum_a != 100)
        return ssdsim__fio_fail(errbuf, errlen, "zone accesses must sum to 100, got %u in '%s'",
                                sum_a, ql.text);
    if (!absolute && sum_r > 100)
        return ssdsim__fio_fail(errbuf, errlen,
                                "zone ranges must sum to at most 100, got %llu in '%s'",
                                (unsigned long long)sum_r, ql.text);
    out->n_zones = n;
    return 0;
}

/* random_distribution: random | zipf[:theta] | pareto[:h] | normal[:dev] | zoned:... |
 * zoned_abs:... (HOWTO; ranges and defaults from fio's str_random_distribution_cb: theta 1.1,
 * h 0.2, dev 0). fio checks theta != 1, 0 < h < 1 and 0 <= dev < 100.
 * Differs from fio: theta must also be > 0 (fio takes zipf:0 and zipf:-1, which are no zipf
 * distribution); the optional center ("zipf:1.2:0.25") is refused, as are per-direction zone
 * lists ("zoned:...,..."), which fio 3.33 refuses too. */
static int opt_random_distribution(const struct optdef *o, struct ssdsim__jobspec *job,
                                   const char *value, char *errbuf, size_t errlen)
{
    (void)o;
    char v[SSDSIM__FIO_PART_MAX];
    if (!ssdsim__fio_copy_part(v, value, strlen(value)))
        return ssdsim__fio_fail(errbuf, errlen, "value too long");
    struct ssdsim__fio_quoted q = ssdsim__fio_quote(v, strlen(v));
    char *colon = strchr(v, ':');
    size_t name_len = colon ? (size_t)(colon - v) : strlen(v);
    const char *param = colon ? colon + 1 : NULL;
    struct ssdsim__jobspec z; /* zones are parsed here first: a failure changes nothing */

    if (name_len == 6 && !memcmp(v, "random", 6) && !colon) {
        job->dist = SSDSIM__DIST_RANDOM;
        job->dist_param = 0;
        job->n_zones = 0;
        return 0;
    }
    if ((name_len == 5 && !memcmp(v, "zoned", 5)) ||
        (name_len == 9 && !memcmp(v, "zoned_abs", 9))) {
        bool absolute = name_len == 9;
        if (!param || !*param)
            return ssdsim__fio_fail(errbuf, errlen, "expected %s:ACCESS/%s:..., got '%s'",
                                    absolute ? "zoned_abs" : "zoned", absolute ? "SIZE" : "RANGE",
                                    q.text);
        if (strchr(param, ','))
            return ssdsim__fio_fail(
                errbuf, errlen,
                "per-direction zones (',') are not supported: give one zone list for all "
                "directions");
        int rc = parse_zones(param, absolute, &z, errbuf, errlen);
        if (rc)
            return rc;
        job->dist = absolute ? SSDSIM__DIST_ZONED_ABS : SSDSIM__DIST_ZONED;
        job->dist_param = 0;
        job->n_zones = z.n_zones;
        memcpy(job->zone_access, z.zone_access, sizeof z.zone_access[0] * z.n_zones);
        memcpy(job->zone_range, z.zone_range, sizeof z.zone_range[0] * z.n_zones);
        memcpy(job->zone_bytes, z.zone_bytes, sizeof z.zone_bytes[0] * z.n_zones);
        return 0;
    }

    static const struct {
        const char *name;
        enum ssdsim__dist dist;
        double def;
    } param_dists[] = {
        {"zipf", SSDSIM__DIST_ZIPF, 1.1},
        {"pareto", SSDSIM__DIST_PARETO, 0.2},
        {"normal", SSDSIM__DIST_NORMAL, 0.0},
    };
    for (size_t i = 0; i < SSDSIM__ARRAY_LEN(param_dists); i++) {
        if (strlen(param_dists[i].name) != name_len || memcmp(v, param_dists[i].name, name_len))
            continue;
        double x = param_dists[i].def;
        if (param) {
            if (strchr(param, ':'))
                return ssdsim__fio_fail(
                    errbuf, errlen, "a distribution center ('%s') is not supported yet", q.text);
            if (!ssdsim__fio_decimal_ok(param, strlen(param), &x))
                return ssdsim__fio_fail(errbuf, errlen, "expected %s:NUMBER like %s:%g, got '%s'",
                                        param_dists[i].name, param_dists[i].name,
                                        param_dists[i].def ? param_dists[i].def : 10.0, q.text);
        }
        switch (param_dists[i].dist) {
        case SSDSIM__DIST_ZIPF:
            if (!(x > 0) || x == 1.0)
                return ssdsim__fio_fail(errbuf, errlen,
                                        "zipf theta must be greater than 0 and not 1, got %g", x);
            break;
        case SSDSIM__DIST_PARETO:
            if (!(x > 0 && x < 1))
                return ssdsim__fio_fail(errbuf, errlen, "pareto h must be in (0, 1), got %g", x);
            break;
        default:
            if (!(x >= 0 && x < 100))
                return ssdsim__fio_fail(
                    errbuf, errlen,
                    "normal deviation must be in [0, 100) percent of the region, got %g", x);
            break;
        }
        job->dist = param_dists[i].dist;
        job->dist_param = x;
        job->n_zones = 0;
        return 0;
    }
    return ssdsim__fio_fail(errbuf, errlen,
                            "expected random, zipf:THETA, pareto:H, normal:DEV, zoned:A/R:... or "
                            "zoned_abs:A/SIZE:..., got '%s'",
                            q.text);
}

/* ss (steadystate)=CRITERION:LIMIT: iops, iops_slope, bw or bw_slope; the limit is a percentage
 * of the window's mean ("0.1%"), or a number: IOPS for the iops criteria, bytes per second in
 * fio's size syntax for the bw ones (fio's str_steadystate_cb). fio requires the limit. */
static int opt_ss(const struct optdef *o, struct ssdsim__jobspec *job, const char *value,
                  char *errbuf, size_t errlen)
{
    (void)o;
    static const struct {
        const char *name;
        enum ssdsim__ss ss;
        bool bw;
    } crit[] = {
        {"iops", SSDSIM__SS_IOPS, false},
        {"iops_slope", SSDSIM__SS_IOPS_SLOPE, false},
        {"bw", SSDSIM__SS_BW, true},
        {"bw_slope", SSDSIM__SS_BW_SLOPE, true},
    };
    char v[SSDSIM__FIO_PART_MAX];
    if (!ssdsim__fio_copy_part(v, value, strlen(value)))
        return ssdsim__fio_fail(errbuf, errlen, "value too long");
    struct ssdsim__fio_quoted q = ssdsim__fio_quote(v, strlen(v));
    char *colon = strchr(v, ':');
    size_t name_len = colon ? (size_t)(colon - v) : strlen(v);
    for (size_t i = 0; i < SSDSIM__ARRAY_LEN(crit); i++) {
        if (strlen(crit[i].name) != name_len || memcmp(v, crit[i].name, name_len))
            continue;
        if (!colon || !colon[1])
            return ssdsim__fio_fail(
                errbuf, errlen, "the steady-state criterion needs a limit, as in %s:1%%, got '%s'",
                crit[i].name, q.text);
        const char *lim = colon + 1;
        size_t len = strlen(lim);
        double x = 0;
        bool pct = false, ok;
        ssdsim__fio_trim(&lim, &len);
        if (len > 0 && lim[len - 1] == '%') {
            pct = true;
            ok = ssdsim__fio_decimal_ok(lim, len - 1, &x);
        } else if (crit[i].bw) {
            uint64_t b = 0;
            char part[SSDSIM__FIO_PART_MAX];
            ok = ssdsim__fio_copy_part(part, lim, len) && ssdsim__fio_uint_ok(part, &b);
            x = (double)b;
        } else {
            ok = ssdsim__fio_decimal_ok(lim, len, &x);
        }
        if (!ok)
            return ssdsim__fio_fail(errbuf, errlen,
                                    "expected a limit like %s:1%% or %s:%s after ':', got '%s'",
                                    crit[i].name, crit[i].name, crit[i].bw ? "10m" : "100", q.text);
        job->ss = crit[i].ss;
        job->ss_limit = x;
        job->ss_limit_percent = pct;
        return 0;
    }
    return ssdsim__fio_fail(
        errbuf, errlen, "expected iops, iops_slope, bw or bw_slope with a limit, got '%s'", q.text);
}

/* ------------------------------------------------------------------------------------------ */
/* The table of fio options                                                                    */

/* One short macro per kind of row keeps each option on one line of the table. */
/* clang-format off */
#define K(k) SSDSIM__OPTKIND_##k
#define SIM(n, a, k, fn) {n, a, K(k), CLS_SIM, fn, 0, 0, NULL, NULL, 0, 0}
#define SIMF(n, a, k, fn, field) \
    {n, a, K(k), CLS_SIM, fn, offsetof(struct ssdsim__jobspec, field), 0, NULL, NULL, 0, 0}
#define SIMT(n, a, field, unit) \
    {n, a, K(TIME), CLS_SIM, set_time, offsetof(struct ssdsim__jobspec, field), unit, NULL, NULL, \
     0, 0}
#define SIMU(n, a, fn, field, lo, hi) \
    {n, a, K(INT), CLS_SIM, fn, offsetof(struct ssdsim__jobspec, field), 0, NULL, NULL, lo, hi}
#define IGN(n, a, k) {n, a, K(k), CLS_IGNORE, NULL, 0, 0, NULL, NULL, 0, 0}
#define REF(n, a, k, noop, why) {n, a, K(k), CLS_REFUSE, NULL, 0, 0, noop, why, 0, 0}
/* clang-format on */

/* Every option of fio 3.33 (fio --cmdhelp=all, with the aliases of its HOWTO) and the common
 * I/O-engine options. A linear search: options are applied while loading, never while
 * simulating. Names and aliases are case-sensitive, as in fio. */
static const struct optdef options[] = {
    /* ---- Simulated: parsed into the jobspec (workload.h says what each field means). */
    SIM("rw", "readwrite", SIZE, opt_rw),
    SIM("bs", "blocksize", SIZE, opt_bs),
    SIM("ba", "blockalign", SIZE, opt_ba),
    SIM("bsrange", "blocksize_range", SIZE, opt_bsrange),
    SIM("bssplit", NULL, SIZE, opt_bssplit),
    SIMU("rwmixread", NULL, set_u32, rwmixread, 0, 100),
    SIM("rwmixwrite", NULL, INT, opt_rwmixwrite),
    SIMU("iodepth", NULL, set_u32, iodepth, 1, IODEPTH_MAX),
    /* Differs from fio: fio accepts numjobs=0 (no job runs); a job that does nothing is refused. */
    SIMU("numjobs", NULL, set_u32, numjobs, 1, NUMJOBS_MAX),
    SIM("size", NULL, SIZE, opt_size),
    SIM("offset", "fileoffset", SIZE, opt_offset),
    SIM("offset_increment", NULL, SIZE, opt_offset_increment),
    SIM("io_size", "io_limit", SIZE, opt_io_size),
    /* number_ios=0 is fio's default: not set. */
    SIMU("number_ios", NULL, set_u64, number_ios, 0, UINT64_MAX),
    SIM("loops", NULL, INT, opt_loops),
    SIMT("runtime", "timeout", runtime_ns, SSDSIM__NS_PER_S),
    SIMF("time_based", NULL, FLAG, set_flag, time_based),
    SIMT("ramp_time", NULL, ramp_time_ns, SSDSIM__NS_PER_S),
    SIMT("startdelay", NULL, startdelay_ns, SSDSIM__NS_PER_S),
    SIM("random_distribution", NULL, MIXED, opt_random_distribution),
    SIM("percentage_random", NULL, INT, opt_percentage_random),
    SIMF("norandommap", NULL, FLAG, set_flag, norandommap),
    SIMF("randrepeat", NULL, BOOL, set_bool, randrepeat),
    SIM("randseed", NULL, INT, opt_randseed),
    SIMT("thinktime", NULL, thinktime_ns, SSDSIM__NS_PER_US), /* microseconds by default */
    /* Differs from fio, which accepts 0: the stall needs at least one I/O between. */
    SIMU("thinktime_blocks", NULL, set_u32, thinktime_blocks, 1, UINT32_MAX),
    SIMU("fsync", NULL, set_u32, fsync_blocks, 0, UINT32_MAX),
    SIMU("fdatasync", NULL, set_u32, fdatasync_blocks, 0, UINT32_MAX),
    SIMU("write_barrier", NULL, set_u32, barrier_blocks, 0, UINT32_MAX),
    SIM("sync", NULL, STR, opt_sync),
    SIM("queue", NULL, INT, opt_queue), /* ssdsim's own: fio has no such option */
    SIM("placement", NULL, INT, opt_placement), /* ssdsim's own */
    SIMF("fdp", NULL, BOOL, set_bool, fdp),         /* fio 3.35 */
    SIM("fdp_pli", NULL, STR, opt_fdp_pli),         /* fio 3.35 */
    SIM("fdp_pli_select", NULL, STR, opt_fdp_pli_select), /* fio 3.35 */
    SIM("zonemode", NULL, STR, opt_zonemode),
    SIMF("zonesize", NULL, SIZE, set_zone_bytes, zbd_zone_size),
    SIMF("zonecapacity", NULL, SIZE, set_zone_bytes, zbd_zone_capacity),
    SIM("zonerange", NULL, SIZE, opt_zonerange),
    SIMF("zoneskip", NULL, SIZE, set_zone_bytes, zbd_zone_skip),
    SIMU("max_open_zones", NULL, set_u32, zbd_max_open, 0, 1000000),
    SIMU("job_max_open_zones", NULL, set_u32, zbd_max_open, 0, 1000000),
    SIM("rate_iops", NULL, INT, opt_rate_iops),
    SIM("rate", NULL, SIZE, opt_rate),
    SIM("rate_process", NULL, STR, opt_rate_process),
    SIMF("stonewall", "wait_for_previous", FLAG, set_flag, stonewall),
    SIMF("new_group", NULL, FLAG, set_flag, new_group),
    SIMF("group_reporting", NULL, FLAG, set_flag, group_reporting),
    SIM("steadystate", "ss", MIXED, opt_ss),
    SIMT("steadystate_duration", "ss_dur", ss_dur_ns, SSDSIM__NS_PER_S),
    SIMT("steadystate_ramp_time", "ss_ramp", ss_ramp_ns, SSDSIM__NS_PER_S),
    SIM("read_iolog", NULL, STR, opt_read_iolog),
    SIMF("replay_no_stall", NULL, BOOL, set_bool, replay_no_stall),
    SIMF("write_iops_log", NULL, LOGNAME, set_logname, write_iops_log),
    SIMF("write_lat_log", NULL, LOGNAME, set_logname, write_lat_log),
    SIMF("write_bw_log", NULL, LOGNAME, set_logname, write_bw_log),
    SIMU("log_avg_msec", NULL, set_u64, log_avg_msec, 0, UINT64_MAX / SSDSIM__NS_PER_MS),
    SIM("name", NULL, STR, opt_name),

    /* ---- Ignored: the simulated device sees the same requests either way. */
    /* What fio's results print, not what is measured. */
    IGN("description", NULL, STR),
    /* Which file or device fio opens, and how: ssdsim simulates its one device. (A synchronous
     * engine keeps one I/O in flight whatever iodepth says; doc/fio.md tells to set iodepth=1.) */
    IGN("filename", NULL, STR),
    IGN("directory", NULL, STR),
    IGN("filename_format", NULL, STR),
    IGN("unique_filename", NULL, BOOL),
    IGN("ioengine", NULL, STR),
    IGN("thread", NULL, FLAG),
    IGN("file_service_type", NULL, STR),
    IGN("openfiles", NULL, INT),
    /* Host operating system and page cache: ssdsim has no OS between job and device. */
    IGN("direct", NULL, BOOL),
    IGN("buffered", NULL, BOOL),
    IGN("atomic", NULL, BOOL),
    IGN("invalidate", NULL, BOOL),
    IGN("fadvise_hint", NULL, STR),
    IGN("write_hint", NULL, STR),
    IGN("ioscheduler", NULL, STR),
    IGN("fallocate", NULL, STR),
    IGN("overwrite", NULL, BOOL),
    IGN("create_serialize", NULL, BOOL),
    IGN("create_fsync", NULL, BOOL),
    IGN("create_on_open", NULL, BOOL),
    IGN("allow_file_create", NULL, BOOL),
    IGN("allow_mounted_write", NULL, BOOL),
    IGN("unlink", NULL, BOOL),
    IGN("unlink_each_loop", NULL, BOOL),
    /* Host CPU, memory and process placement. */
    IGN("cpumask", NULL, INT),
    IGN("cpus_allowed", NULL, STR),
    IGN("cpus_allowed_policy", NULL, STR),
    IGN("numa_cpu_nodes", NULL, STR),
    IGN("numa_mem_policy", NULL, STR),
    IGN("nice", NULL, STR), /* STR: fio's range is -20..19 */
    IGN("prio", NULL, INT),
    IGN("prioclass", NULL, INT),
    IGN("cgroup", NULL, STR),
    IGN("cgroup_nodelete", NULL, BOOL),
    IGN("cgroup_weight", NULL, INT),
    IGN("uid", NULL, INT),
    IGN("gid", NULL, INT),
    IGN("lockmem", NULL, STR),
    IGN("mem", "iomem", STR),
    IGN("hugepage-size", NULL, INT),
    IGN("gtod_cpu", NULL, INT),
    IGN("gtod_reduce", NULL, BOOL),
    IGN("clocksource", NULL, STR),
    IGN("exec_prerun", NULL, STR), /* a command fio runs; ssdsim runs none (doc/fio.md) */
    IGN("exec_postrun", NULL, STR),
    /* How submissions and completions are batched in system calls: CPU work, same requests. */
    IGN("iodepth_batch", "iodepth_batch_submit", INT),
    IGN("iodepth_batch_complete_max", NULL, INT),
    IGN("userspace_reap", NULL, FLAG), /* libaio */
    IGN("hipri", NULL, FLAG),          /* io_uring: polled completions */
    IGN("sqthread_poll", NULL, FLAG),
    IGN("sqthread_poll_cpu", NULL, INT),
    IGN("fixedbufs", NULL, FLAG),
    IGN("registerfiles", NULL, FLAG),
    IGN("nonvectored", NULL, INT),
    IGN("uncached", NULL, INT),
    IGN("nowait", NULL, BOOL),
    IGN("force_async", NULL, INT),
    IGN("thinktime_spin", NULL, TIME), /* part of the thinktime stall, which lasts as long */
    /* Data content: the simulated flash stores no data (no compression or deduplication). */
    IGN("zero_buffers", NULL, FLAG),
    IGN("refill_buffers", NULL, FLAG),
    IGN("scramble_buffers", NULL, BOOL),
    IGN("buffer_pattern", NULL, STR),
    IGN("buffer_compress_percentage", NULL, INT),
    IGN("buffer_compress_chunk", NULL, INT),
    IGN("dedupe_percentage", NULL, INT),
    IGN("dedupe_mode", NULL, STR),
    IGN("dedupe_working_set_percentage", NULL, INT),
    IGN("dedupe_global", NULL, BOOL),
    /* Random numbers: ssdsim draws from its own seeded streams and is always repeatable. */
    IGN("random_generator", NULL, STR),
    IGN("allrandrepeat", NULL, BOOL),
    IGN("softrandommap", NULL, BOOL),
    /* Verification settings only act with verify, which is refused unless 0. */
    IGN("do_verify", NULL, BOOL),
    IGN("verify_interval", NULL, INT),
    IGN("verify_offset", NULL, INT),
    IGN("verify_pattern", NULL, STR),
    IGN("verify_fatal", NULL, BOOL),
    IGN("verify_dump", NULL, BOOL),
    IGN("verify_async", NULL, INT),
    IGN("verify_backlog_batch", NULL, INT),
    IGN("experimental_verify", NULL, BOOL),
    IGN("verify_state_load", NULL, BOOL),
    IGN("verify_state_save", NULL, BOOL),
    IGN("trim_verify_zero", NULL, BOOL),
    IGN("trim_backlog_batch", NULL, INT),
    /* Zoned block devices (zonemode=zbd): no effect on the simulated drive. */
    IGN("read_beyond_wp", NULL, BOOL),
    IGN("ignore_zone_limits", NULL, BOOL),
    IGN("zone_reset_threshold", NULL, MIXED),
    IGN("zone_reset_frequency", NULL, MIXED),
    /* Errors: a simulated request never fails. */
    IGN("continue_on_error", NULL, STR),
    IGN("ignore_error", NULL, STR),
    IGN("error_dump", NULL, BOOL),
    IGN("exitall_on_error", NULL, FLAG),
    IGN("exit_what", NULL, STR), /* acts only with exitall, which is refused */
    /* Limits whose only effect is to end a job with an error when a rate or latency is missed;
     * the simulator reports the rate and latency instead. */
    IGN("rate_min", "ratemin", INT),
    IGN("rate_iops_min", NULL, INT),
    IGN("rate_cycle", "ratecycle", INT),
    IGN("max_latency", NULL, TIME),
    IGN("latency_window", NULL, TIME), /* act only with latency_target, refused unless 0 */
    IGN("latency_percentile", NULL, MIXED),
    IGN("latency_run", NULL, BOOL),
    /* Replay details that do not change the requests replayed. */
    IGN("read_iolog_chunked", NULL, BOOL),
    IGN("replay_redirect", NULL, STR),
    IGN("write_iolog", NULL, STR), /* records the I/O issued; changes none */
    /* Reporting and logging: what fio prints or writes, not what the device does. */
    IGN("per_job_logs", NULL, BOOL),
    IGN("bwavgtime", NULL, INT),
    IGN("iopsavgtime", NULL, INT),
    IGN("log_entries", NULL, INT),
    IGN("log_hist_msec", NULL, INT),
    IGN("log_hist_coarseness", NULL, INT),
    IGN("write_hist_log", NULL, LOGNAME),
    IGN("log_max_value", NULL, BOOL),
    IGN("log_offset", NULL, BOOL),
    IGN("log_prio", NULL, BOOL),
    IGN("log_compression", NULL, INT),
    IGN("log_compression_cpus", NULL, STR),
    IGN("log_store_compressed", NULL, BOOL),
    IGN("log_unix_epoch", NULL, BOOL),
    IGN("log_alternate_epoch", NULL, BOOL),
    IGN("log_alternate_epoch_clock_id", NULL, INT),
    IGN("block_error_percentiles", NULL, BOOL),
    IGN("stats", NULL, BOOL),
    IGN("clat_percentiles", NULL, BOOL),
    IGN("lat_percentiles", NULL, BOOL),
    IGN("slat_percentiles", NULL, BOOL),
    IGN("percentile_list", NULL, MIXED),
    IGN("significant_figures", NULL, INT),
    IGN("disk_util", NULL, BOOL),
    IGN("disable_lat", NULL, BOOL),
    IGN("disable_clat", NULL, BOOL),
    IGN("disable_slat", NULL, BOOL),
    IGN("disable_bw_measurement", "disable_bw", BOOL),
    IGN("unified_rw_reporting", NULL, STR),
    IGN("unit_base", NULL, STR),
    IGN("flow_id", NULL, INT),
    IGN("flow_sleep", NULL, INT), /* act only with flow, refused unless 0 */

    /* ---- Refused: they change the requests or their timing in ways not simulated yet. The
     * values listed first are no-ops, accepted and listed as ignored. */
    REF("sync_file_range", NULL, STR, NULL, "the simulator does not model cache flushes"),
    REF("end_fsync", NULL, BOOL, "0", "the simulator does not model cache flushes"),
    REF("fsync_on_close", NULL, BOOL, "0", "the simulator does not model cache flushes"),
    REF("verify", NULL, STR, "0", "verification reads are not simulated"),
    REF("verify_only", NULL, FLAG, "0", "verification reads are not simulated"),
    REF("verify_backlog", NULL, STR, "0", "verification reads are not simulated"),
    REF("trim_percentage", NULL, INT, "0", "verification trims are not simulated"),
    REF("trim_backlog", NULL, STR, "0", "verification trims are not simulated"),
    REF("fill_device", "fill_fs", BOOL, "0",
        "writing until the device is full is not simulated; use size"),
    REF("file_append", NULL, BOOL, "0", "the simulated device has no files to append to"),
    REF("filesize", NULL, STR, NULL,
        "it sizes the files fio creates; the simulator addresses one device: use size"),
    REF("nrfiles", "nr_files", INT, "1", "the simulator addresses one device, not files"),
    REF("opendir", NULL, STR, NULL, "the simulator addresses one device, not files"),
    REF("lockfile", NULL, STR, "none", "file locking between jobs is not simulated"),
    REF("offset_align", NULL, INT, "0",
        "percentage offsets are aligned to 512 bytes in the simulator"),
    REF("bs_unaligned", "blocksize_unaligned", FLAG, "0",
        "block sizes are multiples of 512 bytes in the simulator"),
    REF("bs_is_seq_rand", NULL, BOOL, "0", "sequential/random block sizes are not simulated"),
    REF("rw_sequencer", NULL, STR, "sequential", "repeating an offset is not simulated"),
    REF("iodepth_low", NULL, INT, "0",
        "the simulated host refills its queue as soon as an I/O completes"),
    REF("iodepth_batch_complete_min", "iodepth_batch_complete", INT, "0|1",
        "the simulated host reaps each completion as it arrives"),
    REF("serialize_overlap", NULL, BOOL, "0", "holding back overlapping I/Os is not simulated"),
    REF("io_submit_mode", NULL, STR, "inline", "offloaded submission is not simulated"),
    REF("create_only", NULL, BOOL, "0", "a job that only lays out files does no I/O here"),
    REF("pre_read", NULL, BOOL, "0", "reading files into the page cache first is not simulated"),
    REF("thinktime_blocks_type", NULL, STR, "complete",
        "the thinktime stall is counted from completions only"),
    REF("thinktime_iotime", NULL, TIME, "0", "time-based thinktime is not simulated yet"),
    REF("rate_ignore_thinktime", NULL, BOOL, "0", "the rate counts thinktime in the simulator"),
    REF("latency_target", NULL, TIME, "0",
        "searching a queue depth for a latency target is not "
        "simulated yet"),
    REF("replay_scale", NULL, INT, "1", "scaling replayed offsets is not simulated"),
    REF("replay_align", NULL, INT, "0", "aligning replayed offsets is not simulated"),
    REF("replay_time_scale", NULL, INT, "100", "scaling replay timing is not simulated"),
    REF("replay_skip", NULL, STR, NULL, "skipping replayed operations is not simulated"),
    REF("merge_blktrace_file", NULL, STR, NULL, "merging blktraces is not simulated"),
    REF("merge_blktrace_scalars", NULL, MIXED, NULL, "merging blktraces is not simulated"),
    REF("merge_blktrace_iters", NULL, MIXED, NULL, "merging blktraces is not simulated"),
    REF("exitall", NULL, FLAG, "0", "ending the other jobs when one finishes is not simulated"),
    REF("wait_for", NULL, STR, NULL,
        "waiting for a named job is not simulated; order jobs with stonewall"),
    REF("flow", NULL, INT, "0", "token-based flow control between jobs is not simulated"),
    REF("profile", NULL, STR, NULL, "fio's built-in profiles are not simulated"),
    REF("kb_base", NULL, STR, "1024", "kb_base=1000 would change how every size is read"),
};

static const struct optdef *find_option(const char *key)
{
    for (size_t i = 0; i < SSDSIM__ARRAY_LEN(options); i++)
        if (!strcmp(key, options[i].name) || (options[i].alias && !strcmp(key, options[i].alias)))
            return &options[i];
    return NULL;
}

/* fio prints an option under its canonical name; these are the aliases fio 3.x knows for it
 * (fio --cmdhelp) among the options a job file may hold. */
const char *ssdsim__fio_canonical_name(const char *key)
{
    static const char *const alias[][2] = {
        {"readwrite", "rw"},
        {"blocksize", "bs"},
        {"blocksize_range", "bsrange"},
        {"blockalign", "ba"},
        {"blocksize_unaligned", "bs_unaligned"},
        {"timeout", "runtime"},
        {"io_limit", "io_size"},
        {"fileoffset", "offset"},
        {"ss", "steadystate"},
        {"ss_dur", "steadystate_duration"},
        {"ss_ramp", "steadystate_ramp_time"},
        {"wait_for_previous", "stonewall"},
        {"ratemin", "rate_min"},
        {"ratecycle", "rate_cycle"},
        {"nr_files", "nrfiles"},
        {"iomem", "mem"},
        {"fill_fs", "fill_device"},
        {"disable_bw", "disable_bw_measurement"},
        {"iodepth_batch_submit", "iodepth_batch"},
        {"iodepth_batch_complete", "iodepth_batch_complete_min"},
    };
    for (size_t i = 0; i < SSDSIM__ARRAY_LEN(alias); i++)
        if (!strcmp(key, alias[i][0]))
            return alias[i][1];
    return key;
}

const char *ssdsim__fio_option_lookup(const char *key, enum ssdsim__optkind *kind)
{
    const struct optdef *o = key ? find_option(key) : NULL;
    if (o && kind)
        *kind = o->kind;
    return o ? o->name : NULL;
}

static void unknown_option(const char *key, char *errbuf, size_t errlen)
{
    const char *best = NULL;
    size_t best_d = SIZE_MAX;
    for (size_t i = 0; i < SSDSIM__ARRAY_LEN(options); i++) {
        const char *names[2] = {options[i].name, options[i].alias};
        for (size_t k = 0; k < 2; k++) {
            if (!names[k])
                continue;
            size_t d = ssdsim__edit_distance(key, names[k]);
            if (d < best_d) {
                best_d = d;
                best = names[k];
            }
        }
    }
    /* Suggest only what is plausibly a typo: a third of the key's letters, at least two. */
    if (best && best_d <= SSDSIM__MAX((size_t)2, strlen(key) / 3))
        ssdsim__fio_fail(errbuf, errlen, "unknown option (did you mean '%s'?)", best);
    else
        ssdsim__fio_fail(errbuf, errlen, "unknown option");
}

/* The value of an ignored or refused option, checked as fio checks it (a bool is 0 or 1, a flag
 * is empty or an integer, integers and times parse, per direction too), and whether it is one of
 * the option's no-op values. */
static int check_value(const struct optdef *o, const char *value, bool *noop, char *errbuf,
                       size_t errlen)
{
    char norm[48];
    const char *s = value ? value : "";
    size_t len = strlen(s);
    ssdsim__fio_trim(&s, &len);
    struct ssdsim__fio_quoted q = ssdsim__fio_quote(s, len);
    snprintf(norm, sizeof norm, "%.*s", (int)SSDSIM__MIN(len, sizeof norm - 1), s);
    *noop = false;
    bool b = false;
    int rc = 0;
    switch (o->kind) {
    case SSDSIM__OPTKIND_FLAG:
        rc = ssdsim__fio_parse_flag(value, &b, errbuf, errlen);
        snprintf(norm, sizeof norm, "%d", b);
        break;
    case SSDSIM__OPTKIND_BOOL:
        rc = ssdsim__fio_parse_bool(value, &b, errbuf, errlen);
        snprintf(norm, sizeof norm, "%d", b);
        break;
    case SSDSIM__OPTKIND_INT:
    case SSDSIM__OPTKIND_SIZE:
    case SSDSIM__OPTKIND_TIME: {
        struct ssdsim__fio_dirs dirs;
        rc = ssdsim__fio_split_dirs(value, &dirs, errbuf, errlen);
        for (int d = 0; d < SSDSIM__N_DIRS && rc == 0; d++) {
            uint64_t v = 0;
            if (!dirs.set[d])
                continue;
            if (o->kind == SSDSIM__OPTKIND_TIME)
                rc = ssdsim__fio_parse_time_ns(dirs.part[d], SSDSIM__NS_PER_S, &v, errbuf, errlen);
            else if (!ssdsim__fio_uint_ok(dirs.part[d], &v))
                rc = ssdsim__fio_fail(errbuf, errlen, "expected an integer, got '%s'", q.text);
            if (rc == 0 && !strchr(s, ','))
                snprintf(norm, sizeof norm, "%llu", (unsigned long long)v);
        }
        if (rc == 0 && !dirs.set[0] && !dirs.set[1] && !dirs.set[2])
            rc = ssdsim__fio_fail(errbuf, errlen, "expected a value, got '%s'", q.text);
        break;
    }
    default:
        break;
    }
    if (rc)
        return rc;
    for (const char *t = o->noop; t && *t;) {
        const char *bar = strchr(t, '|');
        size_t n = bar ? (size_t)(bar - t) : strlen(t);
        if (strlen(norm) == n && !memcmp(norm, t, n))
            *noop = true;
        t = bar ? bar + 1 : t + n;
    }
    return 0;
}

int ssdsim__jobspec_apply(struct ssdsim__jobspec *job, const char *key, const char *value,
                          char *errbuf, size_t errlen)
{
    if (errbuf && errlen > 0)
        errbuf[0] = '\0';
    if (!job || !key)
        return ssdsim__fio_fail(errbuf, errlen, "no option name");
    const struct optdef *o = find_option(key);
    if (!o) {
        unknown_option(key, errbuf, errlen);
        return SSDSIM_ENOTFOUND;
    }
    /* Only fio's "empty or boolean" options and the log prefixes may be given without a value
     * ("time_based", "write_bw_log"); fio says the others require an argument. */
    if (!value && o->kind != SSDSIM__OPTKIND_FLAG && o->kind != SSDSIM__OPTKIND_LOGNAME)
        return ssdsim__fio_fail(errbuf, errlen, "a value is required");
    bool noop = false;
    int rc;
    switch (o->cls) {
    case CLS_SIM:
        /* Each option checks its value completely before storing it, so a failed apply leaves
         * the job as it was. */
        return o->apply(o, job, value, errbuf, errlen);
    case CLS_IGNORE:
        rc = check_value(o, value, &noop, errbuf, errlen);
        return rc ? rc : SSDSIM__IGNORED;
    default:
        rc = check_value(o, value, &noop, errbuf, errlen);
        if (rc || noop)
            return rc ? rc : SSDSIM__IGNORED;
        if (o->noop) {
            const char *bar = strchr(o->noop, '|');
            return ssdsim__fio_fail(
                errbuf, errlen, "not supported: %s (only %s=%.*s is accepted)", o->why, o->name,
                (int)(bar ? (size_t)(bar - o->noop) : strlen(o->noop)), o->noop);
        }
        return ssdsim__fio_fail(errbuf, errlen, "not supported: %s", o->why);
    }
}

/* ------------------------------------------------------------------------------------------ */
/* Values fio reads differently (job files)                                                    */

int ssdsim__fio_check_jobfile_value(const char *key, const char *value, char *errbuf, size_t errlen)
{
    enum ssdsim__optkind kind = 0;
    if (!value || !ssdsim__fio_option_lookup(key, &kind))
        return 0;
    bool numeric =
        kind == SSDSIM__OPTKIND_INT || kind == SSDSIM__OPTKIND_SIZE || kind == SSDSIM__OPTKIND_TIME;
    if (!numeric && kind != SSDSIM__OPTKIND_MIXED)
        return 0;
    const char *s = value;
    size_t len = strlen(s);
    ssdsim__fio_trim(&s, &len);
    if (numeric && len > 0 && s[0] == '(') {
        struct ssdsim__fio_quoted q = ssdsim__fio_quote(s, len);
        return ssdsim__fio_fail(
            errbuf, errlen,
            "fio's arithmetic expressions ('%s') are not supported: write the value", q.text);
    }
    for (size_t i = 0; i < len;) {
        /* A number starts at a digit that does not continue a word ("nvme0n1") or a number. */
        if (!isdigit((unsigned char)s[i]) ||
            (i > 0 && (isalnum((unsigned char)s[i - 1]) || s[i - 1] == '.' || s[i - 1] == '_'))) {
            i++;
            continue;
        }
        size_t start = i;
        if (s[i] == '0' && i + 1 < len && (s[i + 1] == 'x' || s[i + 1] == 'X')) {
            for (i += 2; i < len && isxdigit((unsigned char)s[i]); i++)
                ;
            continue;
        }
        while (i < len && isdigit((unsigned char)s[i]))
            i++;
        if (i + 1 < len && s[i] == '.' && isdigit((unsigned char)s[i + 1])) {
            for (i++; i < len && isdigit((unsigned char)s[i]); i++)
                ;
            if (kind != SSDSIM__OPTKIND_MIXED) {
                size_t end = i;
                while (end < len && (isalpha((unsigned char)s[end]) || s[end] == '%'))
                    end++;
                struct ssdsim__fio_quoted q = ssdsim__fio_quote(s + start, end - start);
                return ssdsim__fio_fail(
                    errbuf, errlen,
                    "fio drops the fraction of '%s' (it reads 1.5g as 1 byte, 1.5s as 1 "
                    "s): write a whole number, with a smaller unit if needed",
                    q.text);
            }
        }
        size_t unit = i;
        while (i < len && isalpha((unsigned char)s[i]))
            i++;
        size_t ulen = i - unit;
        struct ssdsim__fio_quoted q = ssdsim__fio_quote(s + start, i - start);
        if (kind == SSDSIM__OPTKIND_TIME) {
            if (ssdsim__fio_word_eq(s + unit, ulen, "ns") ||
                ssdsim__fio_word_eq(s + unit, ulen, "nsec") ||
                ssdsim__fio_word_eq(s + unit, ulen, "min"))
                return ssdsim__fio_fail(
                    errbuf, errlen,
                    "fio does not know the unit of '%s' (it knows us, ms, s, m, h, d)", q.text);
        } else if (ulen >= 2 && strchr("kmgtpKMGTP", s[unit]) &&
                   (s[unit + 1] == 'i' || s[unit + 1] == 'I')) {
            return ssdsim__fio_fail(
                errbuf, errlen,
                "fio reads '%s' in powers of 1000 (with its default kb_base=1024 the IEC "
                "prefixes mean 10^3, 10^6, ...): write %.*s%c for powers of 1024",
                q.text, (int)(unit - start), s + start, tolower((unsigned char)s[unit]));
        }
    }
    return 0;
}
