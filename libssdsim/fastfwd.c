/* fastfwd.c: functional fast-forward: a workload's requests run through the device's FTL, its
 * garbage collection and wear leveling, without timing.
 *
 * The requests are the ones a timed run of the workload would issue (the same generators,
 * seeded as ssdsim_run seeds them), handed to the FTL's own read, write and trim methods one
 * mapping unit at a time, as the device's back end hands them (dev/dev.c). The flash
 * operations the FTL submits do not reach the hardware model: they are queued in the FTL
 * environment (ftl/env.h) and end in submission order, the ones their completions submit too,
 * before the next request is given (the page FTL queues only the operations whose completions
 * change its state, in that order: its GC copies' and host pages' programs are counted and not
 * queued, and a victim's copy reads are queued as one, ftl/page_gc.c's TAG_GC_BATCH). No engine
 * event is scheduled and the clock does not move.
 * So the FTL code that runs is the timed run's, and whatever the FTL keeps (mapping, blocks,
 * frontiers, GC and wear-leveling state, erase counts) is what a timed run leaves, up to the
 * order of concurrent work: here the clones of a job take turns one request each, every die is
 * idle when the FTL chooses one, and garbage collection finishes before the next host write
 * arrives instead of running beside it. tests/test_ff.c measures what that changes.
 *
 * FDP placement ids are a timed run's: each clone's requests take the placements its job's
 * options give them (placement=N, fio's fdp=1 with fdp_pli and fdp_pli_select, host/placement.h,
 * random choices drawn from the clone's generator right after the request, as the host draws
 * them), checked against the drive as a run checks them; a job without any writes through
 * placement 0 (handle 0 of reclaim group 0), as a run's does. The FTL places each write by its
 * group and handle and reallocates to another group as in a run.
 *
 * A write buffer that absorbs writes (power-loss protected, or a volatile one with the write
 * cache on) takes the writes as a timed run's does, through its own slots, table and FIFO
 * (dev/buffer.c's ssdsim__buf_ff_*): a write to a unit still dirty replaces it in DRAM and counts
 * as a host page written that the flash never sees; any other unit becomes dirty, and the
 * buffer gives the FTL its oldest units while more are dirty than a saturating host keeps
 * there (capacity less the units being flushed, ssdsim__buf_ff_level). Without time, the host
 * is always saturating: one slower than the flash (QD1 with most writes absorbed) keeps fewer
 * units dirty in a timed run, and absorbs less than here. The dirty units stay in the buffer
 * when the fast-forward ends, as a timed run leaves them, so the next fast-forward goes on from
 * them and a timed run after it starts flushing them at its first write. FUA writes (sync=1,
 * barriers) pass a volatile cache, superseding a dirty copy, and flushes (fsync, fdatasync,
 * barriers) empty it, as in a timed run. Reads of buffered units are read hits.
 *
 * Left out: everything timed (pacing, think time, ramp, start delays, idle time and background
 * GC).
 *
 * A system of solid-state devices (a JBOD, RAID-0/1/5) is fast-forwarded for one workload only,
 * the sequential fill of its volume(s): what such a fill leaves on each member is that member
 * written in address order over the part of it the volume maps (every strip, data or parity),
 * so each member is filled that way through its own FTL (ssdsim__ff_seq_fill_members). Not for
 * a RAID-5 whose fill requests are not whole stripe rows and that has no write-back cache to
 * gather them: its partial rows are read-modify-writes, which write parity and data again.
 */
#include "sim.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ftl/env.h"
#include "host/placement.h"
#include "workload/gen.h"
#include "workload/workload.h"

/* Requests between progress calls. */
#define PROGRESS_EVERY 65536

/* The FTL environment's hooks while fast-forwarding: flash operations queue in `q` and end in
 * submission order; unit completions are only counted, waits and firmware time go nowhere. */
struct ff_hooks {
    struct ssdsim__ff_queue q;
    ssdsim__unit_done_fn done;
    void *done_ctx;
    void (*waited)(void *, uint32_t, uint64_t);
    uint64_t (*fw_run)(void *, uint64_t);
    uint64_t units_in, units_out; /* read and write units given to the FTL, and completed */
    /* the write buffer when it absorbs writes (power-loss protected, or the write cache on),
     * kept at `level` dirty units (ssdsim__buf_ff_level); volatile: FUA writes and flushes
     * reach the flash */
    struct ssdsim__buf *buf;
    uint32_t level;
    bool volatile_cache;
};

static void ff_unit_done(void *ctx, uint32_t io, uint32_t bytes)
{
    struct ff_hooks *h = ctx;
    (void)io;
    (void)bytes;
    h->units_out++;
}

static uint64_t ff_fw_run(void *ctx, uint64_t ns)
{
    (void)ctx;
    (void)ns;
    return 0;
}

const char *ssdsim__ff_unsupported(const struct ssdsim *sim, const struct ssdsim_workload *wl)
{
    if (sim->sys.n_devs != 1 || !sim->sys.devs[0].ssd || sim->sys.is_system)
        return "fast-forward runs a single solid-state device (not a hard disk or a system of "
               "devices)";
    if (sim->sys.volume_bytes != sim->sys.devs[0].bytes)
        return "fast-forward needs the volume to be the device";
    if (sim->sys.devs[0].zns)
        return "fast-forward would bypass a zoned drive's zone rules";
    for (uint32_t i = 0; wl && i < wl->n_jobs; i++)
        if (wl->jobs[i].read_iolog)
            return "fast-forward runs generated workloads (a job replays a log)";
    return NULL;
}

/* Whether two jobs issue their writes at the same rate in a timed run on a saturated drive: the
 * same write block sizes, queue depth, pacing and share of writes. */
static bool same_write_rate(const struct ssdsim__jobspec *a, const struct ssdsim__jobspec *b)
{
    const struct ssdsim__bsdist *x = &a->bs[SSDSIM__DIR_WRITE], *y = &b->bs[SSDSIM__DIR_WRITE];
    if (x->n != y->n || x->range_min != y->range_min || x->range_max != y->range_max)
        return false;
    for (uint32_t i = 0; i < x->n; i++)
        if (x->e[i].bytes != y->e[i].bytes || x->e[i].percent != y->e[i].percent)
            return false;
    return a->iodepth == b->iodepth &&
           a->rate_iops[SSDSIM__DIR_WRITE] == b->rate_iops[SSDSIM__DIR_WRITE] &&
           a->rate_bytes[SSDSIM__DIR_WRITE] == b->rate_bytes[SSDSIM__DIR_WRITE] &&
           a->thinktime_ns == b->thinktime_ns &&
           ssdsim__jobspec_write_share(a) == ssdsim__jobspec_write_share(b);
}

/* Fast-forward takes the jobs' requests one each in turn, which is how jobs alike share a
 * timed run; jobs that write at different rates there (other block sizes, queue depths, pacing)
 * would get other shares of the writes cut off at a total, and so another state: refused,
 * naming two of them.
 * Jobs that do not write are no matter. 0, or SSDSIM_EINVAL with the message in `msg`. */
static int ff_jobs_alike(const struct ssdsim_workload *wl, char *msg, size_t len)
{
    const struct ssdsim__jobspec *first = NULL;
    uint32_t fi = 0;
    for (uint32_t i = 0; i < wl->n_jobs; i++) {
        const struct ssdsim__jobspec *j = &wl->jobs[i];
        if (!(ssdsim__jobspec_write_share(j) > 0))
            continue;
        if (!first) {
            first = j;
            fi = i;
        } else if (!same_write_rate(first, j)) {
            snprintf(msg, len,
                     "fast-forward: %s: jobs %u%s%s%s and %u%s%s%s write at different rates in "
                     "a timed run (block sizes, queue depths or pacing differ), so fast-forward, "
                     "which takes their requests one each in turn, would not give each its "
                     "share of the writes; precondition it with --precondition seq, or by "
                     "running the workload itself",
                     wl->label ? wl->label : "workload", fi + 1, first->name ? " ('" : "",
                     first->name ? first->name : "", first->name ? "')" : "", i + 1,
                     j->name ? " ('" : "", j->name ? j->name : "", j->name ? "')" : "");
            return SSDSIM_EINVAL;
        }
    }
    return 0;
}

/* The hooks of device d's FTL environment: 0, or SSDSIM_ESTATE when its write buffer is still
 * flushing (the callers settle the device first). */
static int hooks_on(struct ff_hooks *h, struct ssdsim__dev *d)
{
    struct ssdsim_ftl_env *env = &d->env;
    memset(h, 0, sizeof *h);
    if (d->buf && ssdsim__buf_flushing(d->buf))
        return SSDSIM_ESTATE;
    if (ssdsim__dev_buf_absorbs(d)) {
        h->buf = d->buf;
        h->level = ssdsim__buf_ff_level(d->buf);
        h->volatile_cache = ssdsim__dev_volatile_cache(d);
        ssdsim__buf_busy(d->buf, true); /* no idle flush while it runs */
    }
    h->done = env->unit_done;
    h->done_ctx = env->unit_done_ctx;
    env->unit_done_ctx = h;
    h->waited = env->unit_waited;
    h->fw_run = env->fw_run;
    env->ff = &h->q;
    env->ff_direct = env->hw->rel ? NULL : &h->q; /* a reliability model notes each program */
    env->unit_done = ff_unit_done;
    env->unit_waited = NULL;
    env->fw_run = ff_fw_run;
    return 0;
}

/* The dirty units stay in the buffer, as a timed run leaves them at its end: the device is idle
 * from now (its idle flush timed from here). */
static void hooks_off(struct ff_hooks *h, struct ssdsim__dev *d)
{
    struct ssdsim_ftl_env *env = &d->env;
    if (h->buf)
        ssdsim__buf_busy(h->buf, false);
    env->ff = env->ff_direct = NULL;
    env->unit_done = h->done;
    env->unit_done_ctx = h->done_ctx;
    env->unit_waited = h->waited;
    env->fw_run = h->fw_run;
    free(h->q.v);
}

/* Whether the write buffer takes a write (as dev.c's arrive): it absorbs writes, and the write
 * is not a FUA write through a volatile cache. */
static inline bool ff_buffered(const struct ff_hooks *h, uint8_t op, bool fua)
{
    return op == SSDSIM__IO_WRITE && h->buf && !(fua && h->volatile_cache);
}

/* One unit read from or written to the FTL, its flash work ended. Inline: it runs for every
 * unit, and request's path without a write buffer is little more than it. */
static SSDSIM__INLINE int ftl_unit(struct ssdsim_ftl_env *env, struct ff_hooks *h, uint8_t op,
                                   uint64_t u, uint32_t bytes, uint8_t placement)
{
    h->units_in++;
    env->placement = placement;
    int rc = op == SSDSIM__IO_READ ? env->ops->read(env->state, 0, u, bytes)
                                   : env->ops->write(env->state, 0, u, bytes);
    if (rc) {
        ssdsim_ftl_fail(env, rc, "the FTL failed a request during fast-forward");
        return rc;
    }
    rc = h->q.n ? ssdsim__env_ff_drain(env) : env->fail_code; /* (mostly nothing queued) */
    if (rc)
        return rc;
    /* Every flash operation has ended and nothing else will happen before the next request:
     * a unit still not done is a write stalled for good (its planes have neither a free
     * block nor garbage to collect), and the requests after it would stall behind it. */
    if (h->units_out < h->units_in) {
        ssdsim_ftl_fail(env, SSDSIM_ESTATE,
                        "host writes stalled for good: the planes they may go to hold no free "
                        "block and no garbage to collect (the jobs' requests, taken one each in "
                        "turn without timing, placed them so); precondition it with "
                        "--precondition seq, or by running the workload itself");
        return SSDSIM_ESTATE;
    }
    return 0;
}

/* A read or write of [off, off + len) on a device without a write buffer: every unit to the
 * FTL (request's common case, inline in ff_run). */
static SSDSIM__INLINE int request_direct(struct ssdsim__dev *d, uint8_t op, uint64_t off,
                                         uint32_t len, uint8_t placement)
{
    struct ssdsim_ftl_env *env = &d->env;
    struct ff_hooks *h = env->unit_done_ctx;
    uint64_t unit = d->unit;
    uint64_t first = ssdsim__dev_unit_of(d, off), last = ssdsim__dev_unit_of(d, off + len - 1);
    if (first == last) /* (one unit: the whole request) */
        return ftl_unit(env, h, op, first, len, placement);
    for (uint64_t u = first; u <= last; u++) {
        uint64_t lo = SSDSIM__MAX(off, u * unit), hi = SSDSIM__MIN(off + len, (u + 1) * unit);
        int rc = ftl_unit(env, h, op, u, (uint32_t)(hi - lo), placement);
        if (rc)
            return rc;
    }
    return 0;
}

/* The write buffer's units beyond `level` to the FTL, oldest first (its flushing). */
static int evict(struct ssdsim_ftl_env *env, struct ff_hooks *h, uint32_t level)
{
    uint64_t u;
    uint32_t bytes;
    uint8_t pl;
    int rc = 0;
    while (rc == 0 && ssdsim__buf_ff_evict(h->buf, level, &u, &bytes, &pl))
        rc = ftl_unit(env, h, SSDSIM__IO_WRITE, u, bytes, pl);
    return rc;
}

/* One request of `op` for [off, off + len) with FDP placement `placement` (group x handles +
 * handle), unit by unit as the device's back end takes it (dev.c's arrive): a trim drops the
 * units from the write buffer and the FTL; a read hit in the buffer goes no further; a write
 * through a buffer that absorbs writes is placed in it, which then gives the FTL its oldest
 * units beyond its level, and goes to the FTL directly otherwise, and when `fua` with a
 * volatile cache (a dirty copy superseded). */
static int request(struct ssdsim__dev *d, uint8_t op, uint64_t off, uint32_t len,
                   uint8_t placement, bool fua)
{
    struct ssdsim_ftl_env *env = &d->env;
    uint64_t unit = d->unit;
    if (op == SSDSIM__IO_TRIM) {
        for (uint64_t u = ssdsim__dev_unit_of(d, off + unit - 1);
             u < ssdsim__dev_unit_of(d, off + len); u++) {
            if (d->buf)
                ssdsim__buf_trim(d->buf, u);
            env->ops->trim(env->state, u);
        }
        return 0;
    }
    if (!d->buf) /* no write buffer: every unit to the FTL (the common case, kept short) */
        return request_direct(d, op, off, len, placement);
    uint64_t first = ssdsim__dev_unit_of(d, off), last = ssdsim__dev_unit_of(d, off + len - 1);
    struct ff_hooks *h = env->unit_done_ctx;
    bool buffered = ff_buffered(h, op, fua);
    bool through = op == SSDSIM__IO_WRITE && h->buf && !buffered;
    uint64_t seq = buffered ? ssdsim__buf_ff_seq(h->buf) : 0;
    for (uint64_t u = first; u <= last; u++) {
        uint64_t lo = SSDSIM__MAX(off, u * unit), hi = SSDSIM__MIN(off + len, (u + 1) * unit);
        uint32_t bytes = (uint32_t)(hi - lo);
        int rc;
        if (buffered) {
            ssdsim__buf_ff_place(h->buf, u, bytes, placement, seq, off, len);
            rc = evict(env, h, h->level);
        } else if (op == SSDSIM__IO_READ && d->buf && ssdsim__buf_ff_read(d->buf, u)) {
            rc = 0;
        } else {
            if (through)
                ssdsim__buf_supersede(h->buf, u, SSDSIM__NONE); /* on flash at once */
            rc = ftl_unit(env, h, op, u, bytes, placement);
        }
        if (rc)
            return rc;
    }
    return 0;
}

/* A flush command: a volatile cache's dirty units to the FTL. */
static int flush_cache(struct ssdsim__dev *d)
{
    struct ff_hooks *h = d->env.unit_done_ctx;
    return h->buf && h->volatile_cache ? evict(&d->env, h, 0) : 0;
}

/* A job clone being fast-forwarded: its generator, wave and placement state (host.h's job). */
struct ff_clone {
    struct ssdsim__gen gen;
    const struct ssdsim__jobspec *spec;
    uint32_t wave, pli_next;
    uint8_t placement; /* the job's fixed placement (the first of its list) */
    bool live;
    bool writes; /* its job writes (rw writes, or a mix with rwmixread below 100) */
    bool sync;   /* its job has fio's sync options (sync, fsync, fdatasync, write_barrier) */
    uint64_t n_writes; /* writes generated (fio's sync options count them) */
};

/* The order the clones' requests are taken in: wave by wave (stonewall), the live clones of a
 * wave one request each in turn, until none of them has one left. */
struct ff_order {
    struct ff_clone *cl;
    uint32_t n;    /* clones */
    uint32_t w;    /* the last wave */
    uint32_t cur;  /* the wave being taken */
    uint32_t i;    /* the next clone of the turn */
    bool any;      /* a clone of the turn gave a request */
    uint32_t writers; /* live clones that write */
    const struct ssdsim__fdp_cfg *fdp;
};

/* One generated request, with its FDP placement. */
struct ff_req {
    uint64_t off;
    uint32_t len;
    uint8_t op, pl;
    bool fua, flush_before, flush_after; /* fio's sync options (host.c's sync_options) */
};

/* The next request in the order, drawn from its clone's generator (and the placement from the
 * clone's generator right after it, as the host draws it); false when every wave is done. */
static bool ff_next(struct ff_order *o, struct ff_req *r)
{
    while (o->cur <= o->w) {
        while (o->i < o->n) {
            struct ff_clone *c = &o->cl[o->i++];
            if (!c->live || c->wave != o->cur)
                continue;
            if (!ssdsim__gen_next(&c->gen, &r->op, &r->off, &r->len)) {
                c->live = false;
                o->writers -= c->writes;
                continue;
            }
            o->any = true;
            r->pl = ssdsim__placement_next(c->spec, o->fdp, c->placement, &c->pli_next,
                                           &c->gen.rng, r->op);
            /* FUA for sync=1, a flush after every fsync (fdatasync) writes, a barrier write
             * FUA behind a flush, as the host issues them */
            const struct ssdsim__jobspec *j = c->spec;
            r->fua = r->flush_before = r->flush_after = false;
            if (c->sync && r->op == SSDSIM__IO_WRITE) {
                uint64_t n = ++c->n_writes;
                r->fua = j->sync_writes;
                r->flush_after = (j->fsync_blocks && n % j->fsync_blocks == 0) ||
                                 (j->fdatasync_blocks && n % j->fdatasync_blocks == 0);
                if (j->barrier_blocks && n % j->barrier_blocks == 0)
                    r->fua = r->flush_before = true;
            }
            return true;
        }
        o->i = 0;
        if (o->any)
            o->any = false; /* another turn of this wave */
        else
            o->cur++;
    }
    return false;
}

/* Requests are generated this many ahead of the one the FTL runs, and the FTL hears of each as
 * it is generated (its prefetch method, as a device tells it of a request's arrival), so that
 * the mapping entries a request will touch are on their way from memory when it runs instead of
 * each a cache miss in turn. The requests and their order are unchanged: the generators are this
 * fast-forward's own and are dropped after it, so those generated past the end cost nothing. */
#define FF_AHEAD 16

int ssdsim__ff_run(struct ssdsim *sim, const struct ssdsim_workload *wl, uint64_t max_write_bytes,
                   uint64_t *written)
{
    *written = 0;
    const char *why = ssdsim__ff_unsupported(sim, wl);
    if (why) {
        ssdsim__set_errmsg(sim, "%s", why);
        return SSDSIM_ENOTFOUND;
    }
    int check_rc = ssdsim__check_workload(sim, wl);
    if (check_rc)
        return check_rc;
    uint64_t logical = sim->sys.volume_bytes;
    char msg[512];
    /* jobs that each write a fixed amount (run to their ends, max_write_bytes 0) get it in any
     * order; cut off at a total, their shares are those of the order */
    if (max_write_bytes && ff_jobs_alike(wl, msg, sizeof msg)) {
        ssdsim__set_errmsg(sim, "%s", msg);
        return SSDSIM_EINVAL;
    }
    uint32_t n = 0;
    for (uint32_t s = 0; s < wl->n_jobs; s++) {
        const struct ssdsim__jobspec *j = &wl->jobs[s];
        if (max_write_bytes == 0 && (j->time_based || (j->runtime_ns && !j->size_bytes &&
                                                       !j->io_size_bytes && !j->number_ios))) {
            ssdsim__set_errmsg(sim,
                               "fast-forward: %s: job %u runs for a time, which fast-forward "
                               "does not have: give it an amount of writes",
                               wl->label ? wl->label : "workload", s + 1);
            return SSDSIM_EINVAL;
        }
        n += j->numjobs ? j->numjobs : 1;
    }
    struct ff_clone *cl = calloc(n ? n : 1, sizeof *cl);
    if (!cl) {
        ssdsim__set_errmsg(sim, "out of memory");
        return SSDSIM_ENOMEM;
    }
    /* the jobs' placements against the drive, refused as a run refuses them (before the run
     * takes its number) */
    const struct ssdsim__fdp_cfg *fdp = &sim->sys.dev_model->fdp;
    uint32_t k = 0, w = 0;
    for (uint32_t s = 0; s < wl->n_jobs; s++) {
        for (uint32_t c = 0; c < (wl->jobs[s].numjobs ? wl->jobs[s].numjobs : 1); c++, k++) {
            if (ssdsim__placement_job_check(&wl->jobs[s], fdp, &cl[k].placement, msg,
                                            sizeof msg)) {
                free(cl);
                ssdsim__set_errmsg(sim, "%s", msg);
                return SSDSIM_ECONFIG;
            }
        }
    }
    /* the seeds of a run (sim.c's run_workload, host.c's ssdsim__host_start) */
    uint64_t seed = sim->seed ^ (sim->n_runs++ * 0x9e3779b97f4a7c15ULL);
    uint32_t writers = 0;
    k = 0;
    for (uint32_t s = 0; s < wl->n_jobs; s++) {
        const struct ssdsim__jobspec *spec = &wl->jobs[s];
        if (s > 0 && spec->stonewall)
            w++;
        for (uint32_t c = 0; c < (spec->numjobs ? spec->numjobs : 1); c++, k++) {
            ssdsim__gen_init(&cl[k].gen, spec, c, SSDSIM__GEN_JOB_SEED(seed, s),
                             SSDSIM__GEN_JOB_SEED(sim->seed, s), logical);
            cl[k].spec = spec;
            cl[k].wave = w;
            cl[k].live = true;
            cl[k].writes = ssdsim__jobspec_write_share(spec) > 0;
            cl[k].sync = spec->sync_writes || spec->fsync_blocks || spec->fdatasync_blocks ||
                         spec->barrier_blocks;
            writers += cl[k].writes;
        }
    }
    struct ssdsim__dev *d = &sim->sys.devs[0];
    struct ff_hooks h;
    if (hooks_on(&h, d)) {
        free(cl);
        ssdsim__set_errmsg(sim, "fast-forward: the write buffer is still flushing");
        return SSDSIM_ESTATE;
    }
    void (*prefetch)(void *, uint64_t) = d->env.ops->prefetch;
    struct ff_order order = {.cl = cl, .n = n, .w = w, .writers = writers, .fdp = fdp};
    /* progress: of the bytes to write when bounded by them, else of the requests the jobs
     * plan (0 when one of them plans none it can tell: no progress then) */
    uint64_t planned = 0;
    for (uint32_t c = 0; c < n && !max_write_bytes; c++) {
        uint64_t p = ssdsim__gen_planned(&cl[c].gen);
        if (p == 0) {
            planned = 0;
            break;
        }
        planned += p;
    }
    struct ff_req ahead[FF_AHEAD];
    uint32_t head = 0, queued = 0;
    bool more = true;
    int rc = 0;
    uint64_t reqs = 0, bytes = 0;
    while (rc == 0) {
        /* Bounded by writes, the run ends with its last job that writes: without time, a job
         * that only reads or trims for a time would never end. */
        if (max_write_bytes && order.writers == 0)
            more = false;
        for (; more && queued < FF_AHEAD; queued++) {
            struct ff_req *r = &ahead[(head + queued) % FF_AHEAD];
            if (!ff_next(&order, r)) {
                more = false;
                break;
            }
            /* a write the buffer takes reaches the FTL later (ssdsim__buf_ff_evict's) */
            if (prefetch && r->op != SSDSIM__IO_TRIM && !ff_buffered(&h, r->op, r->fua))
                prefetch(d->env.state, ssdsim__dev_unit_of(d, r->off));
        }
        if (queued == 0)
            break;
        /* (its slot is generated into again only at the next turn) */
        const struct ff_req *r = &ahead[head];
        head = (head + 1) % FF_AHEAD;
        queued--;
        if (r->flush_before)
            rc = flush_cache(d);
        if (rc == 0)
            rc = !d->buf && r->op != SSDSIM__IO_TRIM
                     ? request_direct(d, r->op, r->off, r->len, r->pl)
                     : request(d, r->op, r->off, r->len, r->pl, r->fua);
        if (rc == 0 && r->flush_after)
            rc = flush_cache(d);
        if (r->op == SSDSIM__IO_WRITE)
            bytes += r->len;
        if (max_write_bytes && bytes >= max_write_bytes)
            break;
        if (++reqs % PROGRESS_EVERY == 0 && sim->progress && (max_write_bytes || planned) &&
            ssdsim__progress_call(sim, max_write_bytes
                                           ? (double)bytes / (double)max_write_bytes
                                           : fmin((double)reqs / (double)planned, 1.0)))
            rc = SSDSIM_ECANCELLED;
    }
    hooks_off(&h, d);
    free(cl);
    *written = bytes;
    if (rc) {
        sim->broken = true; /* the FTL stopped part-way through its work */
        if (rc == SSDSIM_ECANCELLED)
            ssdsim__set_errmsg(sim, "fast-forward cancelled");
        else
            ssdsim__set_errmsg(sim, "fast-forward: %s",
                               d->env.fail_msg[0] ? d->env.fail_msg : ssdsim_strerror(rc));
    }
    return rc;
}

const char *ssdsim__ff_seq_fill_unsupported(const struct ssdsim *sim, uint32_t bs)
{
    const struct ssdsim__sys *s = &sim->sys;
    if (!s->is_system)
        return "not a system of devices";
    /* RAID-5 writes a request that covers part of a stripe row as a read-modify-write, which
     * writes that row's parity and data again: a fill is written once only when its requests
     * are whole rows, or when the card's write-back cache gathers them into whole rows */
    if (s->layout == SSDSIM__LAYOUT_RAID5 && s->wc.size == 0 &&
        bs % ((uint64_t)s->stripe * (s->n_devs - 1)) != 0)
        return "a RAID-5 fill of requests that are not whole stripe rows rewrites parity";
    for (uint32_t k = 0; k < s->n_devs; k++)
        if (!s->devs[k].ssd)
            return "fast-forward fills solid-state devices (a member is a hard disk)";
    if (s->tags)
        return "the array keeps RAID-5 content tags (consistency checks), which only timed "
               "writes update";
    return NULL;
}

int ssdsim__ff_seq_fill_members(struct ssdsim *sim, uint32_t fills, uint32_t bs)
{
    const char *why = ssdsim__ff_seq_fill_unsupported(sim, bs);
    if (why) {
        ssdsim__set_errmsg(sim, "%s", why);
        return SSDSIM_ENOTFOUND;
    }
    struct ssdsim__sys *s = &sim->sys;
    uint64_t extent = ssdsim__sys_member_extent(s);
    /* a timed fill is one run: the next run draws the seeds a timed fill leaves it */
    sim->n_runs++;
    uint64_t total = extent * s->n_devs * fills, done = 0, reqs = 0;
    int rc = 0;
    for (uint32_t k = 0; k < s->n_devs && rc == 0; k++) {
        struct ssdsim__dev *d = &s->devs[k];
        struct ff_hooks h;
        if (hooks_on(&h, d)) {
            ssdsim__set_errmsg(sim, "fast-forward: device %u: the write buffer is still flushing",
                               k);
            return SSDSIM_ESTATE;
        }
        for (uint32_t f = 0; f < fills && rc == 0; f++) {
            for (uint64_t off = 0; off < extent && rc == 0; off += bs) {
                uint32_t len = (uint32_t)SSDSIM__MIN((uint64_t)bs, extent - off);
                rc = request(d, SSDSIM__IO_WRITE, off, len, 0, false);
                done += len;
                if (rc == 0 && ++reqs % PROGRESS_EVERY == 0 && sim->progress &&
                    ssdsim__progress_call(sim, (double)done / (double)total))
                    rc = SSDSIM_ECANCELLED;
            }
        }
        hooks_off(&h, d);
        if (rc) {
            sim->broken = true;
            if (rc == SSDSIM_ECANCELLED)
                ssdsim__set_errmsg(sim, "fast-forward cancelled");
            else
                ssdsim__set_errmsg(sim, "fast-forward: device %u: %s", k,
                                   d->env.fail_msg[0] ? d->env.fail_msg : ssdsim_strerror(rc));
        }
    }
    return rc;
}
