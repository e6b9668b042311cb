/* fioopt_dev.c: the setters of the fio options that use a feature of the drive: FUA writes
 * (sync), the NVMe queue pair of a job (queue, ssdsim's own), Flexible Data Placement
 * (placement, ssdsim's own; fdp_pli, fdp_pli_select) and zoned devices (zonemode and the zone
 * sizes). Whether the drive has the feature is checked when the run starts (host/host.c), as
 * the model is not known while a workload is read.
 */
#include "workload/fioopt_int.h"

#include <string.h>

/* sync=none|0|sync|1|dsync: fio opens the file O_SYNC (or O_DSYNC) for writes; on a block
 * device each write is then acknowledged only when it is on stable media, which the block layer
 * asks of the drive with FUA: every write of the job is a FUA write. */
int ssdsim__fio_opt_sync(const struct ssdsim__fio_optdef *o, struct ssdsim__jobspec *job,
                         const char *value, char *errbuf, size_t errlen)
{
    (void)o;
    const char *s = value ? value : "";
    size_t len = ssdsim__fio_trimmed(&s);
    static const char *const off[] = {"none", "0"}, *const on[] = {"sync", "1", "dsync"};
    for (size_t i = 0; i < SSDSIM__ARRAY_LEN(off); i++)
        if (ssdsim__fio_word_is(s, len, off[i])) {
            job->sync_writes = false;
            return 0;
        }
    for (size_t i = 0; i < SSDSIM__ARRAY_LEN(on); i++)
        if (ssdsim__fio_word_is(s, len, on[i])) {
            job->sync_writes = true;
            return 0;
        }
    struct ssdsim__fio_quoted q = ssdsim__fio_quote(s, len);
    return ssdsim__fio_fail(errbuf, errlen, "expected none, 0, sync, 1 or dsync, got '%s'",
                            q.text);
}

/* queue=N (ssdsim's own option): the NVMe queue pair of the job's clones, 0 .. 65534; the
 * model's nvme.queues is checked when the run starts (host.c). */
int ssdsim__fio_opt_queue(const struct ssdsim__fio_optdef *o, struct ssdsim__jobspec *job,
                          const char *value, char *errbuf, size_t errlen)
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
int ssdsim__fio_opt_placement(const struct ssdsim__fio_optdef *o, struct ssdsim__jobspec *job,
                              const char *value, char *errbuf, size_t errlen)
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
int ssdsim__fio_opt_fdp_pli(const struct ssdsim__fio_optdef *o, struct ssdsim__jobspec *job,
                            const char *value, char *errbuf, size_t errlen)
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

int ssdsim__fio_opt_fdp_pli_select(const struct ssdsim__fio_optdef *o,
                                   struct ssdsim__jobspec *job, const char *value, char *errbuf,
                                   size_t errlen)
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
int ssdsim__fio_opt_zonemode(const struct ssdsim__fio_optdef *o, struct ssdsim__jobspec *job,
                             const char *value, char *errbuf, size_t errlen)
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
int ssdsim__fio_set_zone_bytes(const struct ssdsim__fio_optdef *o, struct ssdsim__jobspec *job,
                               const char *value, char *errbuf, size_t errlen)
{
    uint64_t bytes = 0;
    double pct = 0;
    int rc = ssdsim__fio_size_or_percent(value, &bytes, &pct, errbuf, errlen);
    if (rc)
        return rc;
    if (pct > 0)
        return ssdsim__fio_fail(errbuf, errlen, "expected a size, got '%s'", value);
    *SSDSIM__FIO_FIELD(job, o, uint64_t) = bytes;
    return 0;
}

/* zonerange: fio ignores it with zonemode=zbd (the drive's zones are used); strided mode is not
 * simulated, so it is accepted and has no effect. */
int ssdsim__fio_opt_zonerange(const struct ssdsim__fio_optdef *o, struct ssdsim__jobspec *job,
                              const char *value, char *errbuf, size_t errlen)
{
    (void)o;
    (void)job;
    uint64_t bytes = 0;
    double pct = 0;
    return ssdsim__fio_size_or_percent(value, &bytes, &pct, errbuf, errlen);
}
