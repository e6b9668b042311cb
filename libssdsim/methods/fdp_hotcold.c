/* fdp_hotcold.c: the fdp suite's method (ssdsim/suite.h, ssdsim_fdp_hotcold_*; issue 17,
 * item 6): Flexible Data Placement on against off at the model's over-provisioning. A hot/cold
 * workload of 4 KiB random writes, 90% of them to the first 10% of the logical space (job
 * `hot`), 10% to the rest (job `cold`), the byte counts exact (number_ios 9:1, queue depths 27
 * and 3), on a sequentially filled drive. With FDP the model gets two placement handles,
 * persistently isolated, the hot job writing through handle 1 and the cold through handle 0;
 * without, fdp.handles 0 and the classes share the drive's write points. A mode writes its
 * warm-up drive writes, then one measured drive write.
 */
#include "common.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "abi.h"
#include "methods/methods.h"
#include "ssdsim/suite.h"

static const size_t hotcold_opts_sizes[] = {0, sizeof(ssdsim_fdp_hotcold_opts)};

int ssdsim_fdp_hotcold_opts_init(ssdsim_fdp_hotcold_opts *opts, unsigned int version)
{
    _Static_assert(SSDSIM__ARRAY_LEN(hotcold_opts_sizes) == SSDSIM_FDP_HOTCOLD_OPTS_VERSION + 1,
                   "a size per version");
    if (!opts || version > SSDSIM_FDP_HOTCOLD_OPTS_VERSION)
        return SSDSIM_EINVAL;
    unsigned int v = version ? version : SSDSIM_FDP_HOTCOLD_OPTS_VERSION;
    /* the current layout whole, its padding too (version 0 is this library's) */
    memset(opts, 0, v == SSDSIM_FDP_HOTCOLD_OPTS_VERSION ? sizeof *opts : hotcold_opts_sizes[v]);
    opts->version = v;
    return 0;
}

int ssdsim_fdp_hotcold_workload(ssdsim_workload **out, uint64_t logical, uint64_t writes,
                                bool fdp, ssdsim_error *err)
{
    if (out)
        *out = NULL;
    if (!out || logical < 40960)
        return ssdsim__error_set(err, SSDSIM_EINVAL, NULL, NULL,
                                 "ssdsim_fdp_hotcold_workload: NULL out or a volume under 40 "
                                 "KiB");
    /* number_ios=0 is fio's "no limit": fewer than 10 writes would give the cold job (and
     * under 2, the hot one) no limit instead of too few, inverting the 9:1 split */
    if (writes < 10)
        return ssdsim__error_set(err, SSDSIM_EINVAL, NULL, NULL,
                                 "ssdsim_fdp_hotcold_workload: writes: expected at least 10 (9 "
                                 "hot and 1 cold), got %" PRIu64,
                                 writes);
    uint64_t hot = logical / 10 / 4096 * 4096;
    char job[768];
    snprintf(job, sizeof job,
             "[global]\nioengine=libaio\nrw=randwrite\nbs=4k\nnorandommap\n"
             "[hot]\noffset=0\nsize=%" PRIu64 "\nnumber_ios=%" PRIu64 "\niodepth=27\n%s"
             "[cold]\noffset=%" PRIu64 "\nsize=%" PRIu64 "\nnumber_ios=%" PRIu64 "\niodepth=3\n%s",
             hot, writes / 10 * 9, fdp ? "placement=1\n" : "", hot, logical / 4096 * 4096 - hot,
             writes / 10, fdp ? "placement=0\n" : "");
    return ssdsim_workload_load_string(out, job, "suite fdp", err);
}

int ssdsim_fdp_hotcold_check(const ssdsim_model *model, ssdsim_error *err)
{
    if (!model)
        return ssdsim__error_set(err, SSDSIM_EINVAL, NULL, NULL, "NULL model");
    int rc = ssdsim__methods_need_ssd(
        model, err, "FDP (fdp.handles) needs a solid-state device model with the page FTL", NULL);
    if (rc)
        return rc;
    char ftl[32] = "";
    ssdsim_model_get_string(model, "ftl.type", ftl, sizeof ftl, NULL);
    if (strcmp(ftl, "page"))
        return ssdsim__error_set(err, SSDSIM_EINVAL, NULL, NULL,
                                 "the model's FTL is ftl.type \"%s\"; FDP (fdp.handles) needs "
                                 "the page FTL",
                                 ftl);
    ssdsim_model *probe = NULL;
    rc = ssdsim_model_copy(&probe, model);
    if (rc)
        return ssdsim__error_set(err, rc, NULL, NULL, "out of memory");
    rc = ssdsim_model_set(probe, "fdp.handles", "2", err);
    ssdsim_model_free(probe);
    return rc;
}

int ssdsim_fdp_hotcold_run_sized(const ssdsim_model *model, bool fdp,
                                 const ssdsim_fdp_hotcold_opts *opts, ssdsim_fdp_hotcold *out,
                                 size_t size, ssdsim_error *err)
{
    ssdsim_fdp_hotcold_opts o;
    char why[160] = "";
    if (!model || !out || size == 0)
        return ssdsim__error_set(err, SSDSIM_EINVAL, NULL, NULL,
                                 "ssdsim_fdp_hotcold_run: NULL model or result");
    if (ssdsim__opts_read(&o, sizeof o, opts, hotcold_opts_sizes,
                          SSDSIM_FDP_HOTCOLD_OPTS_VERSION, "ssdsim_fdp_hotcold_opts", why,
                          sizeof why))
        return ssdsim__error_set(err, SSDSIM_EINVAL, NULL, NULL, "%s", why);
    if (!(o.warmup_drive_writes >= 0) || !isfinite(o.warmup_drive_writes))
        return ssdsim__error_set(err, SSDSIM_EINVAL, NULL, NULL,
                                 "ssdsim_fdp_hotcold_opts.warmup_drive_writes: expected 0 or "
                                 "more, got %g",
                                 o.warmup_drive_writes);
    ssdsim_model *m = NULL;
    int rc = ssdsim_model_copy(&m, model);
    if (rc)
        return ssdsim__error_set(err, rc, NULL, NULL, "out of memory");
    /* a warm-up of at least one write per job (ssdsim_fdp_hotcold_workload), or none */
    double per_dw0 = (double)(ssdsim_model_logical_bytes(model) / 4096);
    if (o.warmup_drive_writes > 0 && o.warmup_drive_writes * per_dw0 < 10) {
        ssdsim_model_free(m);
        return ssdsim__error_set(err, SSDSIM_EINVAL, NULL, NULL,
                                 "ssdsim_fdp_hotcold_opts.warmup_drive_writes: expected 0 or at "
                                 "least %.3g (10 writes of 4 KiB: 9 hot, 1 cold), got %g",
                                 10 / per_dw0, o.warmup_drive_writes);
    }
    if (fdp)
        rc = ssdsim_model_set(m, "fdp.handles", "2", err) ||
             ssdsim_model_set(m, "fdp.isolation", "\"persistent\"", err);
    else
        rc = ssdsim_model_set(m, "fdp.handles", "0", err);
    if (rc) {
        ssdsim_model_free(m);
        return SSDSIM_ECONFIG;
    }
    ssdsim *sim = NULL;
    rc = ssdsim_new(&sim, m, o.seed, err);
    ssdsim_model_free(m);
    if (rc)
        return rc;
    if (o.progress)
        ssdsim_set_progress(sim, o.progress, o.progress_userdata);
    ssdsim_fdp_hotcold r;
    memset(&r, 0, sizeof r);
    ssdsim_get_device_stats(sim, &r.device);
    uint64_t per_dw = r.device.logical_bytes / 4096;
    ssdsim_workload *warm = NULL, *meas = NULL;
    rc = ssdsim_fdp_hotcold_workload(&warm, r.device.logical_bytes,
                                     (uint64_t)(o.warmup_drive_writes * (double)per_dw), fdp, err);
    if (!rc)
        rc = ssdsim_fdp_hotcold_workload(&meas, r.device.logical_bytes, per_dw, fdp, err);
    if (!rc && ((rc = ssdsim_precondition_seq(sim)) ||
                (o.warmup_drive_writes > 0 && (rc = ssdsim_run(sim, warm, NULL))) ||
                (rc = ssdsim_run(sim, meas, NULL))))
        ssdsim__error_set(err, rc, NULL, NULL, "FDP %s: %s", fdp ? "on" : "off",
                          ssdsim_errmsg(sim));
    if (!rc) {
        ssdsim_get_device_stats(sim, &r.device);
        for (uint32_t h = 0; fdp && h < 2; h++)
            ssdsim_get_fdp_stats(sim, h, &r.handles[h]);
    }
    ssdsim_workload_free(warm);
    ssdsim_workload_free(meas);
    ssdsim_free(sim);
    return ssdsim__result_give(out, size, &r, sizeof r, rc, false);
}
