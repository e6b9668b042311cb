/* precond.c: putting a device into a known state before a measurement: sequential fills,
 * secure erase, fast-forward, and fast preconditioning. Fast preconditioning fast-forwards the
 * workload on the device itself in rounds of a drive write until its write amplification is
 * steady (precondition_ff), or, for uniform random writes, installs the steady state found on a
 * scaled copy of the model (precond_scaled.c). What both ways share is in precond_int.h: the
 * rule for rounds of WAF and the device-state helpers (quiet, settled, drained, rebuilt).
 * Checked against full preconditioning in tests/test_precond.c.
 */
#include "precond_int.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "abi.h"
#include "workload/gen.h"
#include "workload/workload.h"

/* The steady-state rule the rounds' WAF must meet, on the scaled copy or the device itself
 * (ssdsim_steady_check, SNIA's form): over the last STEADY_WINDOW rounds of about a drive write
 * each (set_round_bytes), the range (max - min) and the excursion of the least-squares line are
 * within these fractions of the average. SNIA's limits (20% and 10%, for IOPS) are far too loose
 * for WAF, which creeps up by a few percent per drive write while the spare fills. */
#define STEADY_WINDOW 3
#define STEADY_MAX_EXCURSION 0.02
#define STEADY_MAX_SLOPE_EXCURSION 0.01
#define DEFAULT_DRIVE_WRITES 3.0

double ssdsim__waf_rounds_drive_writes(const struct ssdsim__waf_rounds *r)
{
    return (double)r->host / (double)r->lp;
}

/* The part of the rounds done at `dw` drive writes. They go on until the WAF is steady, at least
 * min_dw and at most max_dw drive writes; most end at or soon after min_dw, which stands for 90%,
 * the rest of the way to max_dw for the last 10% (a fraction for progress display only). */
static double rounds_part(const struct ssdsim__waf_rounds *r, double dw)
{
    if (dw <= r->min_dw)
        return 0.9 * dw / r->min_dw;
    if (r->max_dw <= r->min_dw)
        return 1;
    return fmin(0.9 + 0.1 * (dw - r->min_dw) / (r->max_dw - r->min_dw), 1.0);
}

struct ssdsim__span ssdsim__waf_rounds_span(const struct ssdsim__waf_rounds *r,
                                            struct ssdsim__span base, double round_dw)
{
    double dw = ssdsim__waf_rounds_drive_writes(r);
    return ssdsim__span_part(base, rounds_part(r, dw), rounds_part(r, dw + round_dw));
}

/* Count the round `s` just ran (its device statistics since they were last reset). True when
 * the rounds are done. */
bool ssdsim__waf_rounds_add(struct ssdsim__waf_rounds *r, const struct ssdsim *s)
{
    static const ssdsim_steady_opts rule = {.window = STEADY_WINDOW,
                                            .max_excursion = STEADY_MAX_EXCURSION,
                                            .max_slope_excursion = STEADY_MAX_SLOPE_EXCURSION};
    ssdsim_device_stats d;
    ssdsim_get_device_stats(s, &d);
    r->host += d.host_pages_written;
    r->waf[r->n++] = d.waf;
    if (r->n >= STEADY_WINDOW) {
        ssdsim_steady_result res;
        ssdsim_steady_check(r->waf + r->n - STEADY_WINDOW, STEADY_WINDOW, &rule, &res);
        r->steady = res.steady != 0;
        r->mean = res.average;
    }
    double dw = ssdsim__waf_rounds_drive_writes(r);
    return (r->steady && dw >= r->min_dw) || dw >= r->max_dw;
}

/* ------------------------------------------------------------------ common checks */

/* Refuse a broken simulation, a run in progress (a callback calling us) and submitted requests
 * still in flight. */
int ssdsim__precond_check_quiet(struct ssdsim *sim, const char *what)
{
    if (ssdsim__refuse_in_events(sim, what))
        return SSDSIM_ESTATE;
    if (sim->broken) {
        ssdsim__set_errmsg(sim, "an earlier run on this simulation failed or was cancelled; "
                                "create a new simulation");
        return SSDSIM_ESTATE;
    }
    if (sim->host.active) {
        ssdsim__set_errmsg(sim, "%s: a workload run is in progress", what);
        return SSDSIM_ESTATE;
    }
    /* Commands inside the devices while no RAID card flush is in flight are requests of the
     * host's; a card's flushes of its write-back cache are its own work, which
     * ssdsim__precond_settle() finishes like garbage collection (after a run the card may still be
     * flushing). */
    bool inside = false;
    if (!sim->sys.wc.fl_busy)
        for (uint32_t k = 0; k < sim->sys.n_devs; k++)
            inside |= sim->sys.devs[k].at_device > 0;
    if (sim->host.submitted_inflight || inside) {
        ssdsim__set_errmsg(sim,
                           "%s: %llu submitted requests are still in flight: ssdsim_drain "
                           "first",
                           what, (unsigned long long)sim->host.submitted_inflight);
        return SSDSIM_ESTATE;
    }
    return 0;
}

/* Let the flash work still queued or running finish, without starting more: a run ends when its
 * last request completes, while the garbage collection its writes started may still be
 * erasing, and ssdsim_idle may have started background GC. The idle timer is cancelled and the
 * FTL told that the device is no longer idle, so background GC stops after its current victim;
 * then events run until no die has work. The simulated clock moves on by what that work takes
 * (an erase or a few, on the dies that were collecting). */
int ssdsim__precond_settle(struct ssdsim *sim)
{
    for (uint32_t k = 0; k < sim->sys.n_devs; k++) {
        if (!sim->sys.devs[k].ssd)
            continue;
        struct ssdsim_ftl_env *env = &sim->sys.devs[k].env;
        ssdsim__engine_cancel(&sim->engine, env->idle_timer);
        env->idle_timer = 0;
        if (env->idle_told) {
            env->idle_told = false;
            env->ops->idle(env->state, 0);
        }
    }
    while (ssdsim__sys_busy(&sim->sys)) {
        int rc = ssdsim__engine_run(&sim->engine, 1);
        const char *why = NULL;
        if (rc == 0)
            rc = ssdsim__sys_failure(&sim->sys, &why);
        if (rc == 0 && ssdsim__engine_pending(&sim->engine) == 0 && ssdsim__sys_busy(&sim->sys))
            rc = SSDSIM_ESTATE; /* cannot happen: a busy die has an event pending */
        if (rc) {
            ssdsim__set_errmsg(sim, "%s", why ? why : "finishing the flash work failed");
            sim->broken = true;
            return rc;
        }
    }
    return 0;
}

/* Flush every write buffer and let the flash work finish (ssdsim__precond_settle). */
int ssdsim__precond_drain(struct ssdsim *sim)
{
    for (uint32_t k = 0; k < sim->sys.n_devs; k++)
        if (sim->sys.devs[k].buf)
            ssdsim__buf_flush_all(sim->sys.devs[k].buf);
    return ssdsim__precond_settle(sim);
}

/* Rebuild the FTL as new (keeping wear), with the hardware timelines idle from now and the run
 * count at zero, so that the next run draws what a new simulation's first would. */
int ssdsim__precond_reset_device(struct ssdsim *sim)
{
    char why[256] = "";
    for (uint32_t k = 0; k < sim->sys.n_devs; k++) {
        if (!sim->sys.devs[k].ssd)
            continue;
        int rc = ssdsim__env_reset_ftl(&sim->sys.devs[k].env, why, sizeof why);
        if (rc) {
            ssdsim__set_errmsg(sim, "rebuilding the FTL: %s", why[0] ? why : ssdsim_strerror(rc));
            sim->broken = true;
            return rc;
        }
    }
    ssdsim__sys_reset(&sim->sys, ssdsim__engine_now(&sim->engine));
    sim->n_runs = 0;
    return 0;
}

/* ------------------------------------------------------------------ sequential fills */

/* A job writing its region once in address order, `bs` bytes a request at queue depth 32, as
 * sequential fills do (fio's defaults otherwise). */
static void fill_job(struct ssdsim__jobspec *f, uint64_t bs)
{
    ssdsim__jobspec_defaults(f);
    f->rw = SSDSIM__RW_WRITE;
    for (int d = 0; d < SSDSIM__N_DIRS; d++)
        f->bs[d].e[0].bytes = (uint32_t)bs;
    f->iodepth = f->iodepth_asked = 32;
}

static int precondition_seq_fills_body(ssdsim *sim, uint32_t fills)
{
    if (!sim)
        return SSDSIM_EINVAL;
    sim->errmsg[0] = 0;
    if (fills == 0) {
        ssdsim__set_errmsg(sim, "sequential preconditioning needs at least one fill");
        return SSDSIM_EINVAL;
    }
    const struct ssdsim_model *dm = sim->sys.dev_model;
    if (dm->kind == SSDSIM__KIND_SSD && dm->zns.zone_size &&
        (fills > 1 || dm->zns.zone_capacity != dm->zns.zone_size)) {
        ssdsim__set_errmsg(sim,
                           "sequential preconditioning of a zoned drive writes every zone once "
                           "in order: it needs one fill and zns.zone_capacity equal to "
                           "zns.zone_size");
        return SSDSIM_ECONFIG;
    }
    /* 128 KiB writes over the volume; when its size is not a multiple of that, a second job
     * writes the rest in the largest power of two that divides it (a sequential job stops
     * short of a last partial block, as fio's does). */
    struct ssdsim__jobspec job[2];
    uint64_t logical = sim->sys.volume_bytes;
    uint64_t bs[2] = {128 * 1024, 0};
    if (logical < bs[0])
        bs[0] = logical / 512 * 512;
    uint64_t main_bytes = logical / bs[0] * bs[0], rest = logical - main_bytes;
    for (bs[1] = bs[0]; rest && rest % bs[1]; bs[1] /= 2)
        ;
    uint32_t n_jobs = rest >= 512 ? 2 : 1;
    for (uint32_t k = 0; k < n_jobs; k++) {
        fill_job(&job[k], bs[k]);
        job[k].loops = fills;
        job[k].numjobs = sim->sys.n_volumes; /* a JBOD: one job per device */
    }
    job[0].size_bytes = main_bytes;
    job[1].offset_bytes = main_bytes;
    job[1].size_bytes = rest;
    struct ssdsim_workload wl = {.magic = SSDSIM__MAGIC_WORKLOAD,
                                 .label = (char *)"precondition",
                                 .jobs = job,
                                 .n_jobs = n_jobs};
    int rc;
    if (sim->precond_method == SSDSIM_PRECONDITION_METHOD_FUNCTIONAL &&
        !ssdsim__ff_unsupported(sim, &wl)) {
        /* the same requests fast-forwarded: the write buffers are emptied first, so that
         * nothing they hold lands on top of the fill later */
        uint64_t written;
        rc = ssdsim__precond_check_quiet(sim, "sequential preconditioning");
        if (rc == 0)
            rc = ssdsim__precond_drain(sim);
        if (rc == 0)
            rc = ssdsim__ff_run(sim, &wl, 0, &written);
    } else if (sim->precond_method == SSDSIM_PRECONDITION_METHOD_FUNCTIONAL &&
               !ssdsim__ff_seq_fill_unsupported(sim, (uint32_t)bs[0])) {
        /* a system of SSDs: each member filled in address order through its own FTL */
        rc = ssdsim__precond_check_quiet(sim, "sequential preconditioning");
        if (rc == 0)
            rc = ssdsim__precond_drain(sim);
        if (rc == 0)
            rc = ssdsim__ff_seq_fill_members(sim, fills, (uint32_t)bs[0]);
    } else {
        rc = ssdsim__run_inner(sim, &wl, NULL);
    }
    /* What the write buffers still hold goes to flash now, so that the next run neither
     * counts it as its own writes nor competes with its flush. */
    if (rc == 0)
        rc = ssdsim__precond_drain(sim);
    /* the fill is not measured; a refused call (nothing ran, the simulation is not broken)
     * leaves the statistics alone */
    if (rc == 0 || sim->broken)
        ssdsim_reset_stats(sim);
    if (rc == 0)
        sim->precond = (struct ssdsim__precond){.mode = "seq", .fills = fills};
    return rc;
}

/* Bracketed (ssdsim__call_enter): a callback's ssdsim_free waits until this returns. */
int ssdsim_precondition_seq_fills(ssdsim *sim, uint32_t fills)
{
    if (!sim || sim->magic != SSDSIM__MAGIC_SIM)
        return precondition_seq_fills_body(sim, fills);
    ssdsim__call_enter(sim);
    return ssdsim__call_leave(sim, precondition_seq_fills_body(sim, fills));
}

/* ------------------------------------------------------------------ fast-forward */

int ssdsim_set_precondition_method(ssdsim *sim, int method)
{
    if (!sim)
        return SSDSIM_EINVAL;
    if (method != SSDSIM_PRECONDITION_METHOD_FUNCTIONAL &&
        method != SSDSIM_PRECONDITION_METHOD_TIMED)
        return ssdsim__fail(sim, SSDSIM_EINVAL,
                            "ssdsim_set_precondition_method: %d is no method (0 functional, 1 "
                            "timed)",
                            method);
    sim->precond_method = method;
    return 0;
}

int ssdsim_fast_forward(ssdsim *sim, const ssdsim_workload *wl, double drive_writes)
{
    if (!sim)
        return SSDSIM_EINVAL;
    sim->errmsg[0] = 0;
    if (!wl || !(drive_writes >= 0) || drive_writes > 1e6)
        return ssdsim__fail(sim, SSDSIM_EINVAL, "ssdsim_fast_forward: %s",
                            !wl ? "no workload" : "drive_writes must be in [0, 1e6]");
    int rc = ssdsim__precond_check_quiet(sim, "fast-forward");
    if (rc)
        return rc;
    const char *why = ssdsim__ff_unsupported(sim, wl);
    if (why)
        return ssdsim__fail(sim, SSDSIM_ENOTFOUND, "%s", why);
    /* the flash work of a run before ends; the write buffer keeps its dirty units, as the next
     * timed run would find them (fast-forward writes through them, fastfwd.c) */
    rc = ssdsim__precond_settle(sim);
    if (rc)
        return rc;
    ssdsim_reset_stats(sim);
    uint64_t written;
    return ssdsim__ff_run(sim, wl, (uint64_t)(drive_writes * (double)sim->sys.volume_bytes),
                          &written);
}

/* ------------------------------------------------------------------ secure erase */

int ssdsim_secure_erase(ssdsim *sim)
{
    if (!sim)
        return SSDSIM_EINVAL;
    sim->errmsg[0] = 0;
    int rc = ssdsim__precond_check_quiet(sim, "secure erase");
    if (rc == 0)
        rc = ssdsim__precond_settle(sim);
    if (rc == 0)
        rc = ssdsim__precond_reset_device(sim);
    if (rc)
        return rc;
    sim->precond = (struct ssdsim__precond){0};
    ssdsim_reset_stats(sim);
    return 0;
}

/* ------------------------------------------------------------------ fast preconditioning */

/* Whether uniform random write job `j` (fio's random map on: every block once per pass of its
 * region) ends its runs inside a pass: a run bounded by a number of requests, an amount that
 * is not whole passes, a runtime cap, or a time (hours of it end at any point of a pass), and
 * a mixed job, whose writes are only part of each pass. Fast
 * preconditioning runs such a job with replacement (norandommap): its rounds of a drive write
 * would be whole passes, and would leave the drive where a pass ends, the previous pass's blocks
 * wholly invalid, so that the next writes need no GC copies at first (generic-mlc: write
 * amplification 1.00 and 2.6 times the IOPS for a tenth of a drive write, against 2.48). Only
 * jobs of whole passes (a region's size, loops, an io_size of whole regions) keep the map, as
 * their runs end where a pass does. */
bool ssdsim__precond_partial_passes(const struct ssdsim__jobspec *j, uint64_t logical_bytes)
{
    if (j->norandommap)
        return false;
    /* a mixed job's writes are a share of each pass: never whole passes of writes */
    if (j->rw == SSDSIM__RW_RANDRW || j->time_based || j->number_ios || j->runtime_ns)
        return true;
    uint64_t off, region;
    ssdsim__jobspec_region(j, 0, logical_bytes, &off, &region);
    if (j->io_size_bytes)
        return region == 0 || j->io_size_bytes % region != 0;
    if (j->io_size_percent > 0)
        return j->io_size_percent < 100; /* of the region: whole passes only at 100% */
    return false;
}

/* Does job `j` write its region (on a volume of `logical` bytes) at random, unevenly, but with a
 * chance at every address each write (zipf, pareto, normal; zoned and zoned_abs whose zones all
 * take accesses and, zoned_abs, cover the region)? Its steady state then has every
 * address of the region written: all of them are, given time, and the data written longest ago
 * is the coldest. Its own writes take long to get there: zipf:1.2's coldest addresses on a
 * 16 GiB drive see one write in about a hundred drive writes, and until they are written the
 * drive works with their room as spare (generic-mlc at 64 blocks per plane, 1 job: WAF 1.07
 * after 5 drive writes from secure erase, 1.49 after 40, 2.00 once every address holds data). */
static bool skewed_writes(const struct ssdsim__jobspec *j, uint64_t logical)
{
    if (j->off || j->read_iolog || j->zbd ||
        (j->rw != SSDSIM__RW_RANDWRITE && j->rw != SSDSIM__RW_RANDRW) ||
        ssdsim__jobspec_write_share(j) <= 0)
        return false;
    switch (j->dist) {
    case SSDSIM__DIST_ZIPF:
    case SSDSIM__DIST_PARETO:
        return true;
    case SSDSIM__DIST_NORMAL:
        return j->dist_param > 0; /* normal:0 is uniform */
    case SSDSIM__DIST_ZONED:
    case SSDSIM__DIST_ZONED_ABS: {
        uint64_t covered = 0;
        for (uint32_t z = 0; z < j->n_zones; z++) {
            if (j->zone_access[z] == 0 ||
                (j->dist == SSDSIM__DIST_ZONED ? j->zone_range[z] : j->zone_bytes[z]) == 0)
                return false;
            covered += j->zone_bytes[z];
        }
        if (j->n_zones == 0)
            return false;
        if (j->dist == SSDSIM__DIST_ZONED_ABS) {
            uint64_t off, region;
            ssdsim__jobspec_region(j, 0, logical, &off, &region);
            return covered >= region;
        }
        return true;
    }
    default:
        return false; /* uniform: its rounds write every address within a few drive writes */
    }
}

/* Before fast-forwarding a workload with skewed write jobs: write each such job's region once
 * in address order (its clones' regions, once each when they share one), as SNIA's
 * workload-independent preconditioning does before the workload's own, so that the rounds
 * start where the job's steady state has every address written. Nothing for other workloads.
 * 0 or a code with the message set. */
static int fill_skewed(struct ssdsim *sim, const ssdsim_workload *wl)
{
    uint32_t n = 0;
    for (uint32_t i = 0; i < wl->n_jobs; i++)
        n += skewed_writes(&wl->jobs[i], sim->sys.volume_bytes);
    if (n == 0)
        return 0;
    struct ssdsim__jobspec *jobs = calloc(n, sizeof *jobs);
    if (!jobs)
        return ssdsim__fail(sim, SSDSIM_ENOMEM, "out of memory");
    const uint64_t logical = sim->sys.volume_bytes;
    uint32_t k = 0;
    for (uint32_t i = 0; i < wl->n_jobs; i++) {
        const struct ssdsim__jobspec *j = &wl->jobs[i];
        if (!skewed_writes(j, logical))
            continue;
        struct ssdsim__gen g; /* the job's own alignment and region */
        ssdsim__gen_init(&g, j, 0, 0, 0, logical);
        uint64_t bs = g.align;
        while (bs < 128 * 1024 && g.region_len % (2 * bs) == 0)
            bs *= 2;
        struct ssdsim__jobspec *f = &jobs[k++];
        fill_job(f, bs);
        f->size_bytes = j->size_bytes;
        f->size_percent = j->size_percent;
        f->offset_bytes = j->offset_bytes;
        f->offset_percent = j->offset_percent;
        f->offset_increment_bytes = j->offset_increment_bytes;
        f->offset_increment_percent = j->offset_increment_percent;
        /* the job's start, which the fill's larger blocks would align otherwise */
        f->offset_align = j->offset_align ? j->offset_align : ssdsim__jobspec_min_bs(j);
        bool shared = !j->offset_increment_bytes && !(j->offset_increment_percent > 0);
        f->numjobs = shared ? 1 : (j->numjobs ? j->numjobs : 1);
        memcpy(f->placements, j->placements, sizeof f->placements);
        f->n_placements = j->n_placements;
        f->fdp = j->fdp;
        f->pli_random = j->pli_random;
    }
    struct ssdsim_workload fill = {.magic = SSDSIM__MAGIC_WORKLOAD,
                                   .label = (char *)"precondition",
                                   .jobs = jobs,
                                   .n_jobs = n};
    uint64_t written;
    int rc = ssdsim__ff_run(sim, &fill, 0, &written);
    free(jobs);
    return rc;
}

/* Fast preconditioning by fast-forward (ssdsim_precondition_fast, the functional method): the
 * device secure-erased (wear kept), the regions of its skewed write jobs written once
 * (fill_skewed), then `wl` fast-forwarded in rounds of a drive write until
 * its WAF is steady and `min_dw` drive writes are done (at most max_dw). */
static int precondition_ff(struct ssdsim *sim, const ssdsim_workload *wl, double min_dw)
{
    int rc = ssdsim__precond_settle(sim);
    if (rc == 0)
        rc = ssdsim__precond_drain(sim);
    if (rc == 0)
        rc = ssdsim__precond_reset_device(sim);
    if (rc == 0)
        rc = fill_skewed(sim, wl);
    if (rc)
        return rc;
    /* the rounds are a drive write each, which with the random map are whole passes: a job
     * of partial passes is run with replacement, as its runs leave it
     * (ssdsim__precond_partial_passes) */
    struct ssdsim_workload rwl = *wl;
    rwl.jobs = malloc(sizeof *rwl.jobs * (wl->n_jobs ? wl->n_jobs : 1));
    if (!rwl.jobs)
        return ssdsim__fail(sim, SSDSIM_ENOMEM, "out of memory");
    for (uint32_t i = 0; i < wl->n_jobs; i++) {
        rwl.jobs[i] = wl->jobs[i];
        if (ssdsim__precond_partial_passes(&wl->jobs[i], sim->sys.volume_bytes))
            rwl.jobs[i].norandommap = true; /* only uniform random jobs have a random map */
    }
    wl = &rwl;
    uint64_t round = sim->sys.volume_bytes;
    struct ssdsim__waf_rounds r = {.lp = sim->sys.devs[0].env.geo.logical_pages,
                                   .min_dw = min_dw,
                                   .max_dw = fmax(SSDSIM__PRECOND_MAX_DW, 4 * min_dw)};
    r.cap = (size_t)r.max_dw + 2;
    r.waf = calloc(r.cap, sizeof *r.waf);
    if (!r.waf) {
        free(rwl.jobs);
        return ssdsim__fail(sim, SSDSIM_ENOMEM, "out of memory");
    }
    struct ssdsim__span base = sim->progress_span;
    while (rc == 0 && r.n < r.cap) {
        /* a round: runs of the workload (each a run number, as timed runs would be) until a
         * drive write is written */
        ssdsim_reset_stats(sim);
        sim->progress_span = ssdsim__waf_rounds_span(&r, base, 1.0);
        for (uint64_t done = 0, written = 0; rc == 0 && done < round; done += written) {
            rc = ssdsim__ff_run(sim, wl, round - done, &written);
            if (rc == 0 && written == 0)
                rc = ssdsim__fail(sim, SSDSIM_ECONFIG, "fast preconditioning: %s writes nothing%s",
                                  wl->label ? wl->label : "the workload",
                                  SSDSIM__PRECOND_NOTHING_WRITTEN);
        }
        if (rc || ssdsim__waf_rounds_add(&r, sim))
            break;
    }
    free(r.waf);
    free(rwl.jobs);
    sim->progress_span = base;
    if (rc)
        return rc;
    double dw = ssdsim__waf_rounds_drive_writes(&r);
    if (!r.steady)
        ssdsim__log(SSDSIM_LOG_WARNING,
                    "fast preconditioning: the WAF was not steady after %.1f drive writes of "
                    "fast-forward; going on from there",
                    dw);
    sim->sys.devs[0].installed = r.steady;
    sim->precond = (struct ssdsim__precond){
        .mode = "functional", .drive_writes = dw, .waf = r.mean, .steady = r.steady};
    ssdsim_reset_stats(sim);
    return 0;
}

int ssdsim_precondition_fast(ssdsim *sim, const ssdsim_workload *wl,
                             const ssdsim_fast_precondition_opts *opts)
{
    if (!sim)
        return SSDSIM_EINVAL;
    sim->errmsg[0] = 0;
    if (!wl) {
        ssdsim__set_errmsg(sim, "fast preconditioning: no workload");
        return SSDSIM_EINVAL;
    }
    ssdsim_fast_precondition_opts fo;
    char owhy[256];
    if (ssdsim__fast_precondition_opts_read(&fo, opts, owhy, sizeof owhy)) {
        ssdsim__set_errmsg(sim, "fast preconditioning: %s", owhy);
        return SSDSIM_EINVAL;
    }
    opts = opts ? &fo : NULL;
    uint32_t bpp_s = opts ? opts->scaled_blocks_per_plane : 0;
    double dw = opts ? opts->drive_writes : 0;
    if (!(dw >= 0) || dw > 1e6) {
        ssdsim__set_errmsg(sim,
                           "fast preconditioning: drive_writes must be in [0, 1e6] (0 = %g "
                           "and until steady), got %g",
                           DEFAULT_DRIVE_WRITES, dw);
        return SSDSIM_EINVAL;
    }
    if (dw == 0)
        dw = DEFAULT_DRIVE_WRITES;
    int rc = ssdsim__precond_check_quiet(sim, "fast preconditioning");
    if (rc)
        return rc;
    /* The functional method: uniform random writes, which the scaled copy represents, on the
     * scaled copy (its rounds fast-forwarded, run_scaled); any other workload, and any workload
     * on a drive with an SLC cache (whose state a scaled copy's block image cannot carry: which
     * blocks are SLC, what the cache holds), fast-forwarded on the device itself, when its FTL
     * collects blocks (block_closed): media written in place have no steady state beyond a
     * written device, and keep their refusal. */
    bool slc = ssdsim__slc_on(&sim->sys.dev_model->slc);
    if (sim->precond_method == SSDSIM_PRECONDITION_METHOD_FUNCTIONAL &&
        !ssdsim__ff_unsupported(sim, wl) &&
        SSDSIM__HAS_METHOD(sim->sys.devs[0].env.ops, ssdsim_ftl_ops, block_closed) &&
        (slc || !ssdsim__precond_scaled_represents(sim, wl))) {
        rc = ssdsim__check_workload(sim, wl);
        return rc ? rc : precondition_ff(sim, wl, dw);
    }
    return ssdsim__precond_scaled(sim, wl, bpp_s, dw);
}
