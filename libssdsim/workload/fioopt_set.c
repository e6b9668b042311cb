/* fioopt_set.c: the setters of the simulated fio options whose value is one plain thing: the
 * generic ones, which store into the jobspec field their table row names (fioopt.c) a flag or a
 * bool, a time, an integer in the row's range (one, or one per direction), or a log-file
 * prefix; the string options (name, read_iolog); loops; and iodepth with the ioengine that
 * decides whether it is used (a synchronous engine keeps one I/O in flight, as in fio).
 *
 * Values are read by fioval.c; errors are one-line reasons in the caller's buffer.
 */
#include "workload/fioopt_int.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

/* A flag (fio's "empty or boolean") or a bool, as the row's kind says. */
int ssdsim__fio_set_bool(const struct ssdsim__fio_optdef *o, struct ssdsim__jobspec *job,
                         const char *value, char *errbuf, size_t errlen)
{
    bool b = false;
    int rc = o->kind == SSDSIM__OPTKIND_FLAG ? ssdsim__fio_parse_flag(value, &b, errbuf, errlen)
                                             : ssdsim__fio_parse_bool(value, &b, errbuf, errlen);
    if (rc == 0)
        *SSDSIM__FIO_FIELD(job, o, bool) = b;
    return rc;
}

/* A time in ns, with the option's unit when none is written; 0 means "not set". */
int ssdsim__fio_set_time(const struct ssdsim__fio_optdef *o, struct ssdsim__jobspec *job,
                         const char *value, char *errbuf, size_t errlen)
{
    uint64_t ns = 0;
    int rc = ssdsim__fio_parse_time_ns(value, o->unit_ns, &ns, errbuf, errlen);
    if (rc == 0)
        *SSDSIM__FIO_FIELD(job, o, uint64_t) = ns;
    return rc;
}

/* Store `v` as element `i` of the row's field of integers, whose elements are `width` bytes: a
 * uint32_t or a uint64_t. */
static void store_uint(const struct ssdsim__fio_optdef *o, struct ssdsim__jobspec *job, size_t i,
                       size_t width, uint64_t v)
{
    assert(width == sizeof(uint32_t) || width == sizeof(uint64_t));
    if (width == sizeof(uint32_t))
        SSDSIM__FIO_FIELD(job, o, uint32_t)[i] = (uint32_t)v;
    else
        SSDSIM__FIO_FIELD(job, o, uint64_t)[i] = v;
}

/* An integer in [o->min, o->max], stored at the field's width. */
int ssdsim__fio_set_uint(const struct ssdsim__fio_optdef *o, struct ssdsim__jobspec *job,
                         const char *value, char *errbuf, size_t errlen)
{
    uint64_t v = 0;
    int rc = ssdsim__fio_parse_uint(value, o->min, o->max, &v, errbuf, errlen);
    if (rc == 0)
        store_uint(o, job, 0, o->size, v);
    return rc;
}

/* Per direction ("read,write,trim"), into a field of SSDSIM__N_DIRS integers: sizes for a SIZE
 * row (rate), integers in [o->min, o->max] for the others (percentage_random, rate_iops). */
int ssdsim__fio_set_dirs(const struct ssdsim__fio_optdef *o, struct ssdsim__jobspec *job,
                         const char *value, char *errbuf, size_t errlen)
{
    struct ssdsim__fio_dir_values dv;
    enum ssdsim__fio_dir_kind kind =
        o->kind == SSDSIM__OPTKIND_SIZE ? SSDSIM__FIO_DIR_SIZE : SSDSIM__FIO_DIR_UINT;
    int rc = ssdsim__fio_parse_dir_values(value, kind, o->min, o->max, &dv, errbuf, errlen);
    for (int d = 0; d < SSDSIM__N_DIRS && rc == 0; d++)
        if (dv.set[d])
            store_uint(o, job, (size_t)d, o->size / SSDSIM__N_DIRS, dv.v[d]);
    return rc;
}

/* Replace an owned string, freeing the old one; "" stores NULL when `empty_is_null`. */
static int replace_string(char **slot, const char *value, bool empty_is_null, char *errbuf,
                          size_t errlen)
{
    const char *s = value;
    size_t len = ssdsim__fio_trimmed(&s);
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
int ssdsim__fio_opt_name(const struct ssdsim__fio_optdef *o, struct ssdsim__jobspec *job,
                         const char *value, char *errbuf, size_t errlen)
{
    (void)o;
    return replace_string(&job->name, value, true, errbuf, errlen);
}

int ssdsim__fio_opt_read_iolog(const struct ssdsim__fio_optdef *o, struct ssdsim__jobspec *job,
                               const char *value, char *errbuf, size_t errlen)
{
    (void)o;
    const char *s = value;
    size_t len = ssdsim__fio_trimmed(&s);
    if (len == 0)
        return ssdsim__fio_fail(errbuf, errlen, "expected the name of an I/O log file, got ''");
    return replace_string(&job->read_iolog, value, false, errbuf, errlen);
}

/* write_bw_log, write_lat_log, write_iops_log: a prefix for the log files. Without a value fio
 * uses the job's name; that is stored as "" here and the job-file reader replaces it by the
 * name once the job has one (a [global] section comes before the job's name is known). */
int ssdsim__fio_set_logname(const struct ssdsim__fio_optdef *o, struct ssdsim__jobspec *job,
                            const char *value, char *errbuf, size_t errlen)
{
    return replace_string(SSDSIM__FIO_FIELD(job, o, char *), value ? value : "", false, errbuf,
                          errlen);
}

/* fio: "loops=0" runs once, like the default of 1 (fixup_options). */
int ssdsim__fio_opt_loops(const struct ssdsim__fio_optdef *o, struct ssdsim__jobspec *job,
                          const char *value, char *errbuf, size_t errlen)
{
    (void)o;
    uint64_t v = 0;
    int rc = ssdsim__fio_parse_uint(value, 0, UINT32_MAX, &v, errbuf, errlen);
    if (rc == 0)
        job->loops = v ? (uint32_t)v : 1;
    return rc;
}

/* fio 3.33's engines flagged FIO_SYNCIO, each checked with fio 3.33 on Linux ("note: both
 * iodepth >= 1 and synchronous I/O engine are selected, queue depth will be capped at 1"). An
 * engine not listed (libaio, io_uring, posixaio, null, ... or one this build does not know)
 * queues requests, as ssdsim does. */
static const char *const sync_engines[] = {
    "sync",   "psync",     "vsync",      "pvsync",   "pvsync2",    "mmap",    "splice",
    "falloc", "ftruncate", "filecreate", "filestat", "filedelete", "libpmem",
};

const char *ssdsim__fio_sync_engine(const char *name, size_t len)
{
    for (size_t i = 0; name && i < sizeof sync_engines / sizeof *sync_engines; i++)
        if (strlen(sync_engines[i]) == len && !memcmp(name, sync_engines[i], len))
            return sync_engines[i];
    return NULL;
}

/* iodepth: as written, and as run (1 with a synchronous engine). */
int ssdsim__fio_set_iodepth(const struct ssdsim__fio_optdef *o, struct ssdsim__jobspec *job,
                            const char *value, char *errbuf, size_t errlen)
{
    int rc = ssdsim__fio_set_uint(o, job, value, errbuf, errlen);
    if (rc == 0)
        ssdsim__jobspec_fix_iodepth(job);
    return rc;
}

/* ioengine: only whether it is synchronous matters to the device (fio caps iodepth at 1 for such
 * an engine); an asynchronous one changes nothing, and is listed among the ignored options. */
int ssdsim__fio_opt_ioengine(const struct ssdsim__fio_optdef *o, struct ssdsim__jobspec *job,
                             const char *value, char *errbuf, size_t errlen)
{
    (void)o;
    const char *s = value;
    size_t len = ssdsim__fio_trimmed(&s);
    if (len == 0)
        return ssdsim__fio_fail(errbuf, errlen, "expected an I/O engine name like libaio");
    const char *sync = ssdsim__fio_sync_engine(s, len);
    job->sync_engine = sync;
    job->sync_engine_default = false;
    ssdsim__jobspec_fix_iodepth(job);
    return sync ? 0 : SSDSIM__IGNORED;
}
