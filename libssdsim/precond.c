/* precond.c: putting a device into a known state before a measurement: sequential fills,
 * secure erase, and fast preconditioning.
 *
 * Fast preconditioning runs the workload on a scaled copy of the model (the same geometry with
 * fewer blocks per plane) until its write amplification is steady, reads what its blocks hold
 * (valid pages, age, erase count), scales that up to the real device block for block by age
 * quantile and installs it through the FTL's install method: the device starts at the steady
 * state a long run would have reached, in seconds instead of hours of simulation. How the scaled
 * copy is sized and why the image is built this way is in doc/design.md, "Fast
 * preconditioning"; it is checked against full preconditioning in tests/test_precond.c.
 */
#include "sim.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "abi.h"
#include "config/fdp_pid.h"
#include "ftl/reserve.h"
#include "layout.h"
#include "methods/scaled.h"
#include "workload/gen.h"
#include "workload/workload.h"

/* The steady-state rule the scaled copy's WAF must meet (ssdsim_steady_check, SNIA's form): over
 * the last STEADY_WINDOW rounds of about a drive write each (set_round_bytes), the range
 * (max - min) and the excursion of the least-squares line are within these fractions of the
 * average. SNIA's limits (20% and 10%, for IOPS) are far too loose for WAF, which creeps up by a
 * few percent per drive write while the spare fills. */
#define STEADY_WINDOW 3
#define STEADY_MAX_EXCURSION 0.02
#define STEADY_MAX_SLOPE_EXCURSION 0.01
#define DEFAULT_DRIVE_WRITES 3.0
/* The scaled copy gives up waiting for steadiness after this many drive writes (or 4 x the
 * requested drive writes, if more) and installs what it has, marked not steady. */
#define MAX_DRIVE_WRITES 40.0
/* What a workload that writes nothing should be preconditioned with instead. */
#define NOTHING_WRITTEN_HINT                                                                      \
    " (reads leave the drive as it was: write it full first with --precondition seq, or "        \
    "precondition with the writes that come before the reads)"

/* The rounds of a preconditioning run until steady: each round's WAF, judged by the steady rule
 * over the last STEADY_WINDOW of them; done once steady after min_dw drive writes, or after
 * max_dw drive writes. */
struct waf_rounds {
    double *waf; /* cap rounds at most */
    size_t n, cap;
    uint64_t host, lp; /* host pages written in all rounds; logical pages of the device */
    double min_dw, max_dw;
    bool steady;
    double mean; /* average WAF of the last window */
};

static double rounds_drive_writes(const struct waf_rounds *r)
{
    return (double)r->host / (double)r->lp;
}

/* Count the round `s` just ran (its device statistics since they were last reset). True when
 * the rounds are done. */
static bool rounds_add(struct waf_rounds *r, const struct ssdsim *s)
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
    double dw = rounds_drive_writes(r);
    return (r->steady && dw >= r->min_dw) || dw >= r->max_dw;
}

/* ------------------------------------------------------------------ common checks */

/* Refuse a broken simulation, a run in progress (a callback calling us) and submitted requests
 * still in flight. */
static int check_quiet(struct ssdsim *sim, const char *what)
{
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
     * host's; a card's flushes of its write-back cache are its own work, which settle()
     * finishes like garbage collection (after a run the card may still be flushing). */
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
static int settle(struct ssdsim *sim)
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

/* Flush every write buffer and let the flash work finish (settle). */
static int drain(struct ssdsim *sim)
{
    for (uint32_t k = 0; k < sim->sys.n_devs; k++)
        if (sim->sys.devs[k].buf)
            ssdsim__buf_flush_all(sim->sys.devs[k].buf);
    return settle(sim);
}

/* Rebuild the FTL as new (keeping wear), with the hardware timelines idle from now and the run
 * count at zero, so that the next run draws what a new simulation's first would. */
static int reset_device(struct ssdsim *sim)
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
    f->iodepth = 32;
}

int ssdsim_precondition_seq_fills(ssdsim *sim, uint32_t fills)
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
        rc = check_quiet(sim, "sequential preconditioning");
        if (rc == 0)
            rc = drain(sim);
        if (rc == 0)
            rc = ssdsim__ff_run(sim, &wl, 0, &written);
    } else if (sim->precond_method == SSDSIM_PRECONDITION_METHOD_FUNCTIONAL &&
               !ssdsim__ff_seq_fill_unsupported(sim, (uint32_t)bs[0])) {
        /* a system of SSDs: each member filled in address order through its own FTL */
        rc = check_quiet(sim, "sequential preconditioning");
        if (rc == 0)
            rc = drain(sim);
        if (rc == 0)
            rc = ssdsim__ff_seq_fill_members(sim, fills, (uint32_t)bs[0]);
    } else {
        rc = ssdsim_run(sim, &wl, NULL);
    }
    /* What the write buffers still hold goes to flash now, so that the next run neither
     * counts it as its own writes nor competes with its flush. */
    if (rc == 0)
        rc = drain(sim);
    ssdsim_reset_stats(sim);
    if (rc == 0)
        sim->precond = (struct ssdsim__precond){.mode = "seq", .fills = fills};
    return rc;
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
    int rc = check_quiet(sim, "fast-forward");
    if (rc)
        return rc;
    const char *why = ssdsim__ff_unsupported(sim, wl);
    if (why)
        return ssdsim__fail(sim, SSDSIM_ENOTFOUND, "%s", why);
    rc = drain(sim);
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
    int rc = check_quiet(sim, "secure erase");
    if (rc == 0)
        rc = settle(sim);
    if (rc == 0)
        rc = reset_device(sim);
    if (rc)
        return rc;
    sim->precond = (struct ssdsim__precond){0};
    ssdsim_reset_stats(sim);
    return 0;
}

/* ------------------------------------------------------------------ fast preconditioning */

/* Why fast preconditioning cannot represent job `j` on a device of `logical_bytes`, or NULL.
 * The image deals the logical pages to the valid slots at random, which is the state uniform
 * random writes over the whole device leave and no other: under sequential writes, a skewed
 * distribution or writes confined to a region, which pages share a block depends on the
 * addresses (hot with hot, consecutive with consecutive), and a random placement is a different
 * device (zipf:1.2 on generic-mlc measured a WAF of 1.74 after it against 1.06 after a full
 * preconditioning). Reads are no obstacle: they change nothing and are left out. */
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
static bool partial_passes(const struct ssdsim__jobspec *j, uint64_t logical_bytes)
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
        return fmod(j->io_size_percent * (double)logical_bytes / 100.0, (double)region) != 0;
    return false;
}

static const char *unsupported(const struct ssdsim__jobspec *j, uint64_t logical_bytes)
{
    if (j->read_iolog)
        return "replays a log (fast preconditioning needs a generated workload)";
    if (j->rw == SSDSIM__RW_TRIM || j->rw == SSDSIM__RW_RANDTRIM)
        return "trims (the installed state maps every logical page)";
    if (j->rw == SSDSIM__RW_READ || j->rw == SSDSIM__RW_RANDREAD)
        return NULL;
    if (j->rw == SSDSIM__RW_WRITE || j->rw == SSDSIM__RW_RW)
        return "writes sequentially (fast preconditioning represents uniform random writes; use "
               "sequential preconditioning)";
    if (!(j->dist == SSDSIM__DIST_RANDOM || (j->dist == SSDSIM__DIST_NORMAL && j->dist_param == 0)))
        return "has a non-uniform random_distribution (fast preconditioning places data as "
               "uniform random writes leave it)";
    if (j->percentage_random[SSDSIM__DIR_WRITE] < 100 || j->rw_suffix)
        return "writes partly sequentially (percentage_random or rw=...:N)";
    /* The job's clones must each write the whole device, or split it between them in equal
     * parts (offset_increment): at equal rates, either is uniform over the device. */
    uint32_t k_n = j->numjobs ? j->numjobs : 1;
    uint64_t end = 0, lo = UINT64_MAX, hi = 0, covered = 0;
    bool whole = true, tiled = true;
    for (uint32_t k = 0; k < k_n; k++) {
        uint64_t off, size;
        ssdsim__jobspec_region(j, k, logical_bytes, &off, &size);
        whole = whole && off == 0 && size == logical_bytes;
        tiled = tiled && off >= end && off - end < 65536; /* in order, rounding gaps only */
        end = off + size;
        covered += size;
        lo = SSDSIM__MIN(lo, size);
        hi = SSDSIM__MAX(hi, size);
    }
    tiled = tiled && covered + (uint64_t)k_n * 65536 >= logical_bytes && hi <= lo + lo / 100;
    if (!whole && !tiled)
        return "writes to part of the device (fast preconditioning needs writes spread "
               "uniformly over the whole logical space: every clone over all of it, or the "
               "clones over equal parts of it)";
    return NULL;
}

/* The workload as the scaled copy runs it: its write jobs only (reads change no state), mixed
 * jobs as their write part, all started together, unpaced, without logs or steady-state stops.
 * The jobs are shallow copies: they borrow the original's strings and own nothing. */
static int scaled_workload(struct ssdsim *sim, const struct ssdsim_workload *wl,
                           uint64_t logical_bytes, struct ssdsim__jobspec **out, uint32_t *n_out)
{
    *out = NULL;
    *n_out = 0;
    const char *label = wl->label ? wl->label : "workload";
    struct ssdsim__jobspec *jobs = calloc(wl->n_jobs ? wl->n_jobs : 1, sizeof *jobs);
    if (!jobs) {
        ssdsim__set_errmsg(sim, "out of memory");
        return SSDSIM_ENOMEM;
    }
    uint32_t n = 0;
    for (uint32_t i = 0; i < wl->n_jobs; i++) {
        const struct ssdsim__jobspec *src = &wl->jobs[i];
        const char *why = unsupported(src, logical_bytes);
        if (why) {
            ssdsim__set_errmsg(sim,
                               "fast preconditioning: %s: job %u%s%s%s %s; precondition it with "
                               "--precondition seq, or by running the workload itself",
                               label, i + 1, src->name ? " ('" : "", src->name ? src->name : "",
                               src->name ? "')" : "", why);
            free(jobs);
            return SSDSIM_ECONFIG;
        }
        if (src->rw == SSDSIM__RW_READ || src->rw == SSDSIM__RW_RANDREAD)
            continue;
        struct ssdsim__jobspec *j = &jobs[n++];
        *j = *src;
        j->read_iolog = j->write_iops_log = j->write_lat_log = j->write_bw_log = NULL;
        j->raw_keys = j->raw_values = NULL;
        j->n_raw = 0;
        j->rw = SSDSIM__RW_RANDWRITE;
        /* the copy's rounds are a drive write each, which with the random map are whole
         * passes: a job of partial passes is run with replacement, as its runs leave it */
        if (partial_passes(src, logical_bytes))
            j->norandommap = true;
        j->number_ios = 0;
        j->io_size_percent = 0;
        j->loops = 1;
        j->runtime_ns = 0;
        j->time_based = false;
        j->ramp_time_ns = 0;
        j->ss = SSDSIM__SS_NONE;
        j->thinktime_ns = 0;
        memset(j->rate_iops, 0, sizeof j->rate_iops);
        memset(j->rate_bytes, 0, sizeof j->rate_bytes);
        j->stonewall = false;
        j->new_group = false;
        j->group_reporting = true;
        /* regions as fractions of the device, so that they split the scaled copy alike */
        if (j->size_bytes) {
            j->size_percent = 100.0 * (double)j->size_bytes / (double)logical_bytes;
            j->size_bytes = 0;
        }
        if (j->offset_bytes) {
            j->offset_percent = 100.0 * (double)j->offset_bytes / (double)logical_bytes;
            j->offset_bytes = 0;
        }
        if (j->offset_increment_bytes) {
            j->offset_increment_percent =
                100.0 * (double)j->offset_increment_bytes / (double)logical_bytes;
            j->offset_increment_bytes = 0;
        }
    }
    if (n == 0) {
        ssdsim__set_errmsg(sim, "fast preconditioning: %s writes nothing%s", label,
                           NOTHING_WRITTEN_HINT);
        free(jobs);
        return SSDSIM_ECONFIG;
    }
    *out = jobs;
    *n_out = n;
    return 0;
}

/* Set how much each clone writes per run of the scaled copy (a round): one pass over its region,
 * or, when the clones' regions add up to more than the device, the same fraction of a pass for
 * each, so that a round is about one drive write. Whole passes matter: with fio's random map a
 * job writes every block of its region once per pass, and a run that stopped part-way through a
 * pass and started a new permutation in the next would write a different sequence (the blocks
 * of a pass live about one pass each; cut passes give them far more varied lifetimes and greedy
 * GC a WAF higher by half at 28% over-provisioning). Returns the bytes of a round. */
static uint64_t set_round_bytes(struct ssdsim__jobspec *jobs, uint32_t n, uint64_t logical_bytes,
                                uint32_t page_size)
{
    double regions = 0;
    for (uint32_t i = 0; i < n; i++) {
        uint64_t off, size;
        ssdsim__jobspec_region(&jobs[i], 0, logical_bytes, &off, &size);
        regions += (double)size * (jobs[i].numjobs ? jobs[i].numjobs : 1);
    }
    double f = regions > (double)logical_bytes ? (double)logical_bytes / regions : 1.0;
    uint64_t round = 0;
    for (uint32_t i = 0; i < n; i++) {
        uint64_t off, size;
        ssdsim__jobspec_region(&jobs[i], 0, logical_bytes, &off, &size);
        uint64_t b = (uint64_t)((double)size * f) / page_size * page_size;
        jobs[i].io_size_bytes = SSDSIM__MAX(b, page_size);
        round += jobs[i].io_size_bytes * (jobs[i].numjobs ? jobs[i].numjobs : 1);
    }
    return round;
}

/* What the scaled copy's blocks hold, pooled over its planes and sorted oldest first. */
struct pooled {
    uint64_t order;
    uint32_t valid, erases;
};

static int pooled_cmp(const void *a, const void *b)
{
    const struct pooled *x = a, *y = b;
    return x->order < y->order ? -1 : x->order > y->order;
}

/* Add `d` (positive or negative) pages to the valid counts of the image's written blocks, a page
 * at a time spread evenly over the blocks that can take one (below pages_per_block to add, above
 * 0 to remove), keeping each in [0, ppb]. Returns false if they cannot absorb it. */
static bool spread_adjust(uint32_t *valid, uint64_t n, int64_t d, uint32_t ppb)
{
    while (d != 0) {
        bool add = d > 0;
        uint64_t need = (uint64_t)(add ? d : -d), able = 0, moved = 0;
        for (uint64_t i = 0; i < n; i++)
            able += valid[i] != SSDSIM_IMAGE_FREE && (add ? valid[i] < ppb : valid[i] > 0);
        if (able == 0)
            return false;
        /* need / able pages each, plus one for an evenly spread need % able of them */
        uint64_t per = need / able, rem = need % able, k = 0;
        for (uint64_t i = 0; i < n && moved < need; i++) {
            if (valid[i] == SSDSIM_IMAGE_FREE || (add ? valid[i] >= ppb : valid[i] == 0))
                continue;
            uint64_t m = per + ((k + 1) * rem / able - k * rem / able);
            k++;
            m = SSDSIM__MIN(SSDSIM__MIN(m, add ? ppb - valid[i] : valid[i]), need - moved);
            valid[i] = add ? valid[i] + (uint32_t)m : valid[i] - (uint32_t)m;
            moved += m;
        }
        d += add ? -(int64_t)moved : (int64_t)moved;
    }
    return true;
}

/* Keep every plane of the image within what the FTL lets a plane hold: its blocks less those
 * it keeps free or open (ssdsim__model_reserve), in pages. The device-wide spread above gives
 * each plane pages in proportion to its written blocks, and a plane that took one written block
 * more than the average (one free block fewer in the scaled copy's plane) gets most of a block
 * more: on a small plane whose spare is little more than the reserve, more than fits. The
 * excess moves, a page at a time spread evenly, to the planes below their limit. Returns false
 * if the planes together cannot hold the pages. */
bool ssdsim__precond_plane_caps(const struct ssdsim *sim, uint32_t *valid)
{
    const ssdsim_geometry *g = &sim->sys.devs[0].env.geo;
    struct ssdsim__reserve r;
    ssdsim__model_reserve(sim->sys.dev_model, &r);
    if (!r.known)
        return true; /* a plugin FTL: its install method judges */
    const uint32_t bpp = g->blocks_per_plane, ppb = g->pages_per_block;
    if (r.blocks >= bpp)
        return false;
    uint64_t room = (uint64_t)(bpp - r.blocks) * ppb, excess = 0;
    uint64_t *cap = malloc(sizeof *cap * g->n_planes), *sum = malloc(sizeof *sum * g->n_planes);
    if (!cap || !sum) {
        free(cap);
        free(sum);
        return false;
    }
    for (uint32_t p = 0; p < g->n_planes; p++) {
        uint32_t *v = valid + (uint64_t)p * bpp;
        uint64_t written = 0;
        sum[p] = 0;
        for (uint32_t i = 0; i < bpp; i++) {
            if (v[i] != SSDSIM_IMAGE_FREE) {
                written++;
                sum[p] += v[i];
            }
        }
        cap[p] = SSDSIM__MIN(room, written * ppb);
        if (sum[p] > cap[p]) {
            spread_adjust(v, bpp, -(int64_t)(sum[p] - cap[p]), ppb);
            excess += sum[p] - cap[p];
            sum[p] = cap[p];
        }
    }
    bool ok = true;
    while (excess > 0 && ok) {
        uint64_t n = 0;
        for (uint32_t p = 0; p < g->n_planes; p++)
            n += sum[p] < cap[p];
        if (n == 0) {
            ok = false;
            break;
        }
        uint64_t per = (excess + n - 1) / n;
        for (uint32_t p = 0; p < g->n_planes && excess > 0; p++) {
            if (sum[p] >= cap[p])
                continue;
            uint64_t d = SSDSIM__MIN(SSDSIM__MIN(per, cap[p] - sum[p]), excess);
            spread_adjust(valid + (uint64_t)p * bpp, bpp, (int64_t)d, ppb);
            sum[p] += d;
            excess -= d;
        }
    }
    free(cap);
    free(sum);
    return ok;
}

struct scaled_run {
    struct ssdsim *s;
    uint32_t bpp;
    double drive_writes, waf;
    bool steady;
};

/* Build the scaled copy and run the workload on it until its WAF is steady and at least
 * `min_dw` drive writes are done. */
static int run_scaled(struct ssdsim *sim, struct ssdsim__jobspec *jobs, uint32_t n_jobs,
                      uint32_t bpp_s, double min_dw, struct scaled_run *out)
{
    const struct ssdsim_model *m = sim->sys.dev_model; /* a system's member */
    const ssdsim_geometry *g = &sim->sys.devs[0].env.geo;
    int rc;
    ssdsim_error err;
    /* The one scaled-copy rule (methods/scaled.c). */
    struct ssdsim_model *ms = ssdsim__scaled_copy(m, bpp_s, &err);
    rc = ms ? 0 : err.code;
    struct ssdsim *s = NULL;
    if (rc == 0)
        rc = ssdsim_new(&s, ms, sim->seed ^ 0x5ca1ed5ca1ed5ca1ULL, &err);
    ssdsim_model_free(ms);
    if (rc) {
        ssdsim__set_errmsg(sim, "fast preconditioning: the scaled copy (%u blocks per plane): %s",
                           bpp_s, err.message);
        return rc;
    }
    ssdsim_set_progress(s, sim->progress, sim->progress_ud);
    s->precond_method = sim->precond_method;
    bool ff = sim->precond_method == SSDSIM_PRECONDITION_METHOD_FUNCTIONAL &&
              !ssdsim__ff_unsupported(s, NULL);

    uint64_t lp = s->sys.devs[0].env.geo.logical_pages, bytes_s = lp * g->page_size;
    uint64_t round = set_round_bytes(jobs, n_jobs, bytes_s, g->page_size);
    struct ssdsim_workload w = {.magic = SSDSIM__MAGIC_WORKLOAD,
                                .label = (char *)"fast preconditioning",
                                .jobs = jobs,
                                .n_jobs = n_jobs};
    struct waf_rounds r = {
        .lp = lp, .min_dw = min_dw, .max_dw = fmax(MAX_DRIVE_WRITES, 4 * min_dw)};
    r.cap = (size_t)(r.max_dw * (double)bytes_s / (double)round) + 2;
    r.waf = calloc(r.cap, sizeof *r.waf);
    if (!r.waf) {
        rc = SSDSIM_ENOMEM;
        ssdsim__set_errmsg(sim, "out of memory");
    }
    while (rc == 0 && r.n < r.cap) {
        if (ff) { /* the same rounds fast-forwarded */
            uint64_t written;
            ssdsim_reset_stats(s);
            rc = ssdsim__ff_run(s, &w, 0, &written);
        } else {
            rc = ssdsim_run(s, &w, NULL);
        }
        if (rc) {
            ssdsim__set_errmsg(sim, "fast preconditioning: the scaled copy's run: %s",
                               ssdsim_errmsg(s));
            break;
        }
        if (rounds_add(&r, s))
            break;
    }
    free(r.waf);
    if (rc == 0)
        rc = settle(s);
    if (rc && !sim->errmsg[0])
        ssdsim__set_errmsg(sim, "fast preconditioning: the scaled copy: %s", ssdsim_errmsg(s));
    if (rc) {
        ssdsim_free(s);
        return rc;
    }
    if (!r.steady)
        ssdsim__log(SSDSIM_LOG_WARNING,
                    "fast preconditioning: the scaled copy's WAF was not steady after %.1f drive "
                    "writes; installing its state anyway",
                    rounds_drive_writes(&r));
    *out = (struct scaled_run){.s = s,
                               .bpp = bpp_s,
                               .drive_writes = rounds_drive_writes(&r),
                               .waf = r.mean,
                               .steady = r.steady};
    return 0;
}

/* The image of the real device from the scaled copy `s`.
 *
 * Per plane, as many free blocks as the same plane of the scaled copy has blocks not closed
 * (free, its frontiers, a victim): free blocks sit at the GC watermarks, an absolute number per
 * plane whatever its size, and the frontiers' unwritten room stays free too (their data goes to
 * the closed blocks with the rest of the adjustment below). Every other block is
 * written and closed, and gets, in age order, the valid count and erase count of the scaled
 * block at the same age quantile among the scaled copy's closed blocks (all planes pooled: more
 * samples than one plane has). Each plane samples the quantiles at its own offset, so that the
 * planes together take every scaled block about equally often: with one set of quantiles for all
 * planes, a state where valid counts alternate between full and empty blocks (a random-map
 * workload at the end of a pass) aliases and every plane gets the same skewed sample.
 *
 * The valid counts then add up to the logical pages within about a block per plane (the scaled
 * copy's half-written frontiers are full closed blocks in the image); that difference is spread
 * a page at a time over the device's written blocks. The page FTL places logical pages on any
 * plane, so only the device's total must match; each plane's stays within a few pages of an
 * equal share. Erase counts are added to the device's own. */
static int build_image(struct ssdsim *sim, const struct ssdsim *s, uint32_t *valid, uint64_t *order,
                       uint32_t *erases)
{
    const ssdsim_geometry *g = &sim->sys.devs[0].env.geo, *gs = &s->sys.devs[0].env.geo;
    const ssdsim_ftl_ops *ops_s = s->sys.devs[0].env.ops;
    struct pooled *closed = malloc(sizeof *closed * gs->n_blocks);
    uint32_t *other = malloc(sizeof *other * gs->n_blocks); /* erase counts of free and open */
    if (!closed || !other) {
        free(closed);
        free(other);
        ssdsim__set_errmsg(sim, "out of memory");
        return SSDSIM_ENOMEM;
    }
    /* per plane, the scaled copy's blocks that are not closed: free, and the frontiers (open)
     * and a victim being collected, whose room the image keeps free (below) */
    uint32_t *not_closed = calloc(gs->n_planes, sizeof *not_closed);
    if (!not_closed) {
        free(closed);
        free(other);
        ssdsim__set_errmsg(sim, "out of memory");
        return SSDSIM_ENOMEM;
    }
    uint64_t n_closed = 0, n_other = 0;
    for (uint64_t b = 0; b < gs->n_blocks; b++) {
        uint64_t ord;
        if (ops_s->block_closed(s->sys.devs[0].env.state, b, &ord)) {
            closed[n_closed++] =
                (struct pooled){ord, ops_s->block_valid(s->sys.devs[0].env.state, b),
                                s->sys.devs[0].env.erase_count[b]};
        } else {
            other[n_other++] = s->sys.devs[0].env.erase_count[b];
            not_closed[b / gs->blocks_per_plane]++;
        }
    }
    qsort(closed, n_closed, sizeof *closed, pooled_cmp);
    if (n_closed == 0) {
        free(closed);
        free(other);
        ssdsim__set_errmsg(sim, "fast preconditioning: the scaled copy has no written block");
        return SSDSIM_ESTATE;
    }
    const uint32_t bpp = g->blocks_per_plane, ppb = g->pages_per_block;
    int64_t sum = 0;
    for (uint32_t p = 0; p < g->n_planes; p++) {
        uint64_t first = (uint64_t)p * bpp;
        /* Every block the copy's plane has not closed is free in the image: its free blocks
         * and its frontiers, whose data the closed blocks take (spread_adjust). A frontier
         * made a full closed block would lose its unwritten room, and the image would be
         * tighter than the copy: with parity superblocks and GC at 2 / 3, too tight for its
         * data (the writers then take a free superblock, leaving GC none to copy into). */
        uint32_t n_free = not_closed[p];
        n_free = SSDSIM__MIN(n_free, bpp - 1);
        uint32_t c = bpp - n_free;
        double offset = ((double)p + 0.5) / g->n_planes;
        for (uint32_t i = 0; i < c; i++) {
            uint64_t j = (uint64_t)(((double)i + offset) / c * (double)n_closed);
            j = SSDSIM__MIN(j, n_closed - 1);
            valid[first + i] = closed[j].valid;
            erases[first + i] = closed[j].erases;
            /* quantile order: the planes' blocks interleave evenly in age */
            order[first + i] = (uint64_t)(((double)i + offset) / c * 0x1p40);
            sum += closed[j].valid;
        }
        for (uint32_t i = c; i < bpp; i++) {
            valid[first + i] = SSDSIM_IMAGE_FREE;
            order[first + i] = 0;
            uint64_t j = (uint64_t)(((double)(i - c) + offset) / n_free * (double)n_other);
            erases[first + i] = n_other ? other[SSDSIM__MIN(j, n_other - 1)] : 0;
        }
    }
    free(closed);
    free(other);
    free(not_closed);
    if (!spread_adjust(valid, g->n_blocks, (int64_t)g->logical_pages - sum, ppb)) {
        ssdsim__set_errmsg(sim,
                           "fast preconditioning: the device's written blocks cannot hold "
                           "its %llu logical pages",
                           (unsigned long long)g->logical_pages);
        return SSDSIM_ESTATE;
    }
    if (!ssdsim__precond_plane_caps(sim, valid)) {
        ssdsim__set_errmsg(sim,
                           "fast preconditioning: the device's planes cannot hold its %llu "
                           "logical pages beside the FTL's reserve",
                           (unsigned long long)g->logical_pages);
        return SSDSIM_ESTATE;
    }
    for (uint64_t b = 0; b < g->n_blocks; b++) {
        uint64_t e = (uint64_t)erases[b] + sim->sys.devs[0].env.erase_count[b];
        erases[b] = (uint32_t)SSDSIM__MIN(e, UINT32_MAX / 4);
    }
    return 0;
}

/* Does job `j` write through an FDP placement other than 0 on a drive of `fdp`? */
static bool other_placements(const struct ssdsim__jobspec *j, const struct ssdsim__fdp_cfg *fdp)
{
    if (!fdp->handles)
        return false;
    for (uint32_t k = 0; k < j->n_placements; k++)
        if (j->placements[k] != 0) /* an id, or fdp_pli's index: 0 is placement 0 both ways */
            return true;
    return j->fdp && !j->n_placements && fdp->handles * ssdsim__fdp_groups(fdp) > 1;
}

/* Whether the scaled copy represents `wl` (every job one it can, unsupported() NULL) and the
 * FTL can install its state. The installed image holds placement handle 0's data spread over
 * every die (ftl/page_fdp.c): not what writes through other placements leave, nor writes
 * through placement 0 with several reclaim groups (they stay in group 0's dies while it has
 * room); those are fast-forwarded on the drive itself. */
static bool scaled_represents(const struct ssdsim *sim, const ssdsim_workload *wl)
{
    const struct ssdsim__fdp_cfg *fdp = &sim->sys.dev_model->fdp;
    if (fdp->handles && ssdsim__fdp_groups(fdp) > 1)
        return false;
    const ssdsim_ftl_ops *ops = sim->sys.devs[0].env.ops;
    if (!SSDSIM__HAS_METHOD(ops, ssdsim_ftl_ops, install) ||
        !SSDSIM__HAS_METHOD(ops, ssdsim_ftl_ops, block_closed) ||
        !SSDSIM__HAS_METHOD(ops, ssdsim_ftl_ops, block_valid))
        return false;
    bool writes = false;
    for (uint32_t i = 0; i < wl->n_jobs; i++) {
        if (unsupported(&wl->jobs[i], sim->sys.volume_bytes) || other_placements(&wl->jobs[i], fdp))
            return false;
        writes |= wl->jobs[i].rw != SSDSIM__RW_READ && wl->jobs[i].rw != SSDSIM__RW_RANDREAD;
    }
    return writes;
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
    int rc = settle(sim);
    if (rc == 0)
        rc = drain(sim);
    if (rc == 0)
        rc = reset_device(sim);
    if (rc == 0)
        rc = fill_skewed(sim, wl);
    if (rc)
        return rc;
    /* the rounds are a drive write each, which with the random map are whole passes: a job
     * of partial passes is run with replacement, as its runs leave it (partial_passes) */
    struct ssdsim_workload rwl = *wl;
    rwl.jobs = malloc(sizeof *rwl.jobs * (wl->n_jobs ? wl->n_jobs : 1));
    if (!rwl.jobs)
        return ssdsim__fail(sim, SSDSIM_ENOMEM, "out of memory");
    for (uint32_t i = 0; i < wl->n_jobs; i++) {
        rwl.jobs[i] = wl->jobs[i];
        if (partial_passes(&wl->jobs[i], sim->sys.volume_bytes))
            rwl.jobs[i].norandommap = true; /* only uniform random jobs have a random map */
    }
    wl = &rwl;
    uint64_t round = sim->sys.volume_bytes;
    struct waf_rounds r = {.lp = sim->sys.devs[0].env.geo.logical_pages,
                           .min_dw = min_dw,
                           .max_dw = fmax(MAX_DRIVE_WRITES, 4 * min_dw)};
    r.cap = (size_t)r.max_dw + 2;
    r.waf = calloc(r.cap, sizeof *r.waf);
    if (!r.waf) {
        free(rwl.jobs);
        return ssdsim__fail(sim, SSDSIM_ENOMEM, "out of memory");
    }
    while (rc == 0 && r.n < r.cap) {
        /* a round: runs of the workload (each a run number, as timed runs would be) until a
         * drive write is written */
        ssdsim_reset_stats(sim);
        for (uint64_t done = 0, written = 0; rc == 0 && done < round; done += written) {
            rc = ssdsim__ff_run(sim, wl, round - done, &written);
            if (rc == 0 && written == 0)
                rc = ssdsim__fail(sim, SSDSIM_ECONFIG, "fast preconditioning: %s writes nothing%s",
                                  wl->label ? wl->label : "the workload", NOTHING_WRITTEN_HINT);
        }
        if (rc || rounds_add(&r, sim))
            break;
    }
    free(r.waf);
    free(rwl.jobs);
    if (rc)
        return rc;
    double dw = rounds_drive_writes(&r);
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

/* The runs of logical units the write jobs `jobs` leave side by side (layout.c) on the single
 * solid-state device of `sim`, into *runs (NULL: none, or a system of devices, whose members see
 * the volume's requests cut by its layout). 0 or a code with the message set. */
static int layout_runs(struct ssdsim *sim, const struct ssdsim__jobspec *jobs, uint32_t n_jobs,
                       uint8_t **runs, uint64_t *period)
{
    *runs = NULL;
    *period = 0;
    if (sim->sys.n_devs != 1 || sim->sys.is_system || !sim->sys.devs[0].ssd)
        return 0;
    const ssdsim_geometry *g = &sim->sys.devs[0].env.geo;
    int rc = ssdsim__layout_runs(jobs, n_jobs, sim->sys.volume_bytes, g->page_size,
                                 sim->sys.dev_model->geometry.page_size, sim->seed, runs, period);
    if (rc)
        ssdsim__set_errmsg(sim, "fast preconditioning: out of memory");
    return rc;
}

/* Build the image of `sim` from the scaled copy `s` (settled) and install it on every device of
 * `sim`, which is settled and reset first, with the runs of layout_runs. 0 or a code with the
 * message set. */
static int install_from(struct ssdsim *sim, const struct ssdsim *s, const uint8_t *runs,
                        uint64_t period)
{
    uint64_t nb = sim->sys.devs[0].env.geo.n_blocks;
    uint32_t *valid = malloc(sizeof *valid * nb);
    uint64_t *order = malloc(sizeof *order * nb);
    uint32_t *erases = malloc(sizeof *erases * nb);
    int rc = 0;
    char why[512];
    if (!valid || !order || !erases) {
        ssdsim__set_errmsg(sim, "out of memory");
        rc = SSDSIM_ENOMEM;
    }
    if (rc == 0)
        rc = build_image(sim, s, valid, order, erases);
    if (rc == 0)
        rc = settle(sim);
    if (rc == 0)
        rc = reset_device(sim);
    if (rc == 0) {
        ssdsim_ftl_image img = {.valid = valid,
                                .closed_order = order,
                                .erase_count = erases,
                                .run_len = runs,
                                .run_period = period};
        for (uint32_t k = 0; rc == 0 && k < sim->sys.n_devs; k++) {
            rc = ssdsim__env_install(&sim->sys.devs[k].env, &img, why, sizeof why);
            if (rc)
                ssdsim__set_errmsg(sim, "fast preconditioning: device %u: %s", k, why);
            else
                sim->sys.devs[k].installed = true; /* a steady state: preconditioned */
        }
    }
    free(valid);
    free(order);
    free(erases);
    return rc;
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
    int rc = check_quiet(sim, "fast preconditioning");
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
        (slc || !scaled_represents(sim, wl))) {
        char why[512];
        if (ssdsim__workload_check(wl, sim->sys.volume_bytes, why, sizeof why))
            return ssdsim__fail(sim, SSDSIM_ECONFIG, "%s: %s", wl->label ? wl->label : "workload",
                                why);
        return precondition_ff(sim, wl, dw);
    }
    if (!sim->sys.devs[0].ssd) {
        ssdsim__set_errmsg(sim, "fast preconditioning: a hard disk has no flash state to "
                                "install (run the workload instead)");
        return SSDSIM_ENOTFOUND;
    }
    if (slc) {
        ssdsim__set_errmsg(sim, "fast preconditioning: a drive with an SLC cache (slc.static, "
                                "slc.dynamic) is preconditioned by functional fast-forward "
                                "only (not with --precondition-method timed, whose scaled copy "
                                "cannot carry the cache), or by writing");
        return SSDSIM_ENOTFOUND;
    }
    const ssdsim_ftl_ops *ops = sim->sys.devs[0].env.ops;
    if (!SSDSIM__HAS_METHOD(ops, ssdsim_ftl_ops, install) ||
        !SSDSIM__HAS_METHOD(ops, ssdsim_ftl_ops, block_closed) ||
        !SSDSIM__HAS_METHOD(ops, ssdsim_ftl_ops, block_valid)) {
        ssdsim__set_errmsg(sim,
                           "fast preconditioning: FTL '%s' cannot install a device state (it "
                           "needs the install, block_closed and block_valid methods; the page "
                           "FTL has them)",
                           ops->name);
        return SSDSIM_ENOTFOUND;
    }
    /* The workload is checked against the volume it addresses. Every device of a system is the
     * same model and, under uniform random writes over the volume (RAID-0/1/5) or over each
     * device (JBOD), each sees uniform random writes: one scaled run of the member gives the
     * state installed on every device. */
    uint64_t logical = sim->sys.volume_bytes;
    char why[512];
    if (ssdsim__workload_check(wl, logical, why, sizeof why)) {
        ssdsim__set_errmsg(sim, "%s: %s", wl->label ? wl->label : "workload", why);
        return SSDSIM_ECONFIG;
    }
    struct ssdsim__jobspec *jobs = NULL;
    uint32_t n_jobs = 0;
    rc = scaled_workload(sim, wl, logical, &jobs, &n_jobs);
    if (rc)
        return rc;
    if (bpp_s == 0)
        bpp_s = ssdsim__scaled_bpp(sim->sys.dev_model);
    struct scaled_run sr;
    rc = run_scaled(sim, jobs, n_jobs, bpp_s, dw, &sr);
    uint8_t *runs = NULL;
    uint64_t period = 0;
    if (rc == 0 && (rc = layout_runs(sim, jobs, n_jobs, &runs, &period)) != 0)
        ssdsim_free(sr.s);
    free(jobs);
    if (rc)
        return rc;
    rc = install_from(sim, sr.s, runs, period);
    free(runs);
    ssdsim_free(sr.s);
    if (rc)
        return rc;
    sim->precond = (struct ssdsim__precond){.mode = "fast",
                                            .scaled_blocks_per_plane = sr.bpp,
                                            .drive_writes = sr.drive_writes,
                                            .waf = sr.waf,
                                            .steady = sr.steady};
    ssdsim_reset_stats(sim);
    return 0;
}

int ssdsim__precondition_from_copy(struct ssdsim *sim, struct ssdsim *copy,
                                   const ssdsim_workload *wl, double drive_writes, double waf,
                                   bool steady)
{
    /* Only where ssdsim_precondition_fast would install a scaled copy's state itself: one
     * solid-state device without an SLC cache, a workload the copy represents, and a copy of
     * the same planes and blocks but for their number. */
    if (sim->sys.n_devs != 1 || !sim->sys.devs[0].ssd || sim->sys.is_system ||
        copy->sys.n_devs != 1 || !copy->sys.devs[0].ssd || copy->sys.is_system ||
        ssdsim__slc_on(&sim->sys.dev_model->slc) || !scaled_represents(sim, wl))
        return SSDSIM_ENOTFOUND;
    const ssdsim_geometry *g = &sim->sys.devs[0].env.geo, *gs = &copy->sys.devs[0].env.geo;
    if (gs->n_planes != g->n_planes || gs->pages_per_block != g->pages_per_block ||
        gs->page_size != g->page_size || gs->blocks_per_plane > g->blocks_per_plane)
        return SSDSIM_ENOTFOUND;
    sim->errmsg[0] = 0;
    int rc = check_quiet(sim, "fast preconditioning");
    if (rc)
        return rc;
    char why[512];
    if (ssdsim__workload_check(wl, sim->sys.volume_bytes, why, sizeof why))
        return ssdsim__fail(sim, SSDSIM_ECONFIG, "%s: %s", wl->label ? wl->label : "workload", why);
    /* what the copy's buffer holds goes to its flash, and its flash work ends */
    if ((rc = drain(copy)) != 0)
        return ssdsim__fail(sim, rc, "fast preconditioning: the scaled copy: %s",
                            ssdsim_errmsg(copy));
    struct ssdsim__jobspec *jobs = NULL;
    uint32_t n_jobs = 0;
    uint8_t *runs = NULL;
    uint64_t period = 0;
    if ((rc = scaled_workload(sim, wl, sim->sys.volume_bytes, &jobs, &n_jobs)) != 0)
        return rc;
    rc = layout_runs(sim, jobs, n_jobs, &runs, &period);
    free(jobs);
    if (rc == 0)
        rc = install_from(sim, copy, runs, period);
    free(runs);
    if (rc)
        return rc;
    sim->precond = (struct ssdsim__precond){.mode = "fast",
                                            .scaled_blocks_per_plane = gs->blocks_per_plane,
                                            .drive_writes = drive_writes,
                                            .waf = waf,
                                            .steady = steady};
    ssdsim_reset_stats(sim);
    return 0;
}
