/* host.c: jobs, pacing, waves, the device queue-depth limit, request splitting and completion.
 *
 * Path of a request: its job issues it (latency starts) and hands it to the system
 * (array/array.h), which sends commands to its devices (dev/dev.h: each queues them up to its
 * depth, on the host, and runs them through its front end and back end); when the system says
 * the request is done, it completes and its job may issue again.
 *
 * A job issues while it has fewer than its depth outstanding, and no earlier than the pending
 * request's earliest time: its arrival time (timed replay), its direction's rate limit, or the
 * end of a think time. When that time is in the future the job sleeps on one wake-up event.
 * A job is exhausted when its generator or source ends, its runtime is over, its reporting
 * unit reached steady state, or the run is stopped early (the run's until_steady,
 * ssdsim__host_stop_all); it is finished when its last request completes. When every job of
 * a wave is finished, the next wave (jobs after a stonewall) starts; a job of it whose
 * startdelay (from the run's start, fio's genesis) has not passed starts when it has.
 */
#include "host/host.h"
#include "dev/zns.h"
#include "config/fdp_pid.h"
#include "host/placement.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ssdsim/trace.h"
#include "trace/tsource.h"

#define NONE SSDSIM__NONE

static void complete(struct ssdsim__host *h, uint32_t io);
static void pump(struct ssdsim__host *h, uint32_t j);
static void start_wave(struct ssdsim__host *h);

static int host_fail(struct ssdsim__host *h, int code, const char *fmt, ...) SSDSIM__PRINTF(3, 4);

static int host_fail(struct ssdsim__host *h, int code, const char *fmt, ...)
{
    if (!h->error) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(h->errmsg, sizeof h->errmsg, fmt, ap);
        va_end(ap);
        h->error = code;
    }
    ssdsim__engine_stop(h->engine);
    return code;
}

static void free_units(struct ssdsim__host *h)
{
    if (h->stats && h->units && h->stats->parts == h->units[0].hist)
        ssdsim__stats_detach(h->stats); /* the run's figures outlive its units */
    for (uint32_t u = 0; u < h->n_units; u++) {
        free(h->units[u].name);
        free(h->units[u].ss_iops);
        free(h->units[u].ss_bw);
        free(h->units[u].flush);
    }
    free(h->units);
    h->units = NULL;
    h->n_units = 0;
}

void ssdsim__host_fini(struct ssdsim__host *h)
{
    for (uint32_t j = 0; j < h->n_jobs; j++)
        ssdsim_trace_close(h->jobs[j].trace);
    free(h->jobs);
    free(h->ios);
    free_units(h);
    h->jobs = NULL;
    h->n_jobs = 0;
    h->ios = NULL;
    ssdsim__ipool_init(&h->io_pool);
    h->active = false;
}

/* ------------------------------------------------------------------------------------------ */
/* The request pool                                                                            */

#define IO_LINK offsetof(struct ssdsim__io, next)

/* A free request slot, growing the pool when it is empty (indices stay valid). */
static uint32_t io_alloc(struct ssdsim__host *h)
{
    if (ssdsim__ipool_empty(&h->io_pool)) {
        struct ssdsim__io *p = ssdsim__ipool_grow(&h->io_pool, h->ios, sizeof *p, IO_LINK, 64);
        if (!p)
            return NONE;
        h->ios = p;
    }
    return ssdsim__ipool_take(&h->io_pool, h->ios, sizeof *h->ios, IO_LINK);
}

static void io_free(struct ssdsim__host *h, uint32_t i)
{
    ssdsim__ipool_put(&h->io_pool, h->ios, sizeof *h->ios, IO_LINK, i);
}

static void notify_issue(struct ssdsim__host *h, const struct ssdsim__io *io)
{
    if (!h->have_obs || !h->obs.on_issue)
        return;
    ssdsim_completion c = {
        .id = io->id,
        .op = ssdsim__io_public_op(io->op),
        .offset = io->offset,
        .length = io->len,
        .submit_ns = io->submit_ns,
        .job = io->job == NONE ? SSDSIM_NO_JOB : io->job,
    };
    h->obs.on_issue(&c, h->obs.userdata);
}

/* A request issued by the host goes to the system. */
static void complete_event(void *ctx, uint32_t i)
{
    complete(ctx, i);
}

/* A zoned drive checks the request (dev/zns.c): false when it completes at once (refused, or
 * a zone command without device work); then its completion is an event now. A job's refused
 * request stops the run with one line (a trace or workload not written for zones). */
static bool zns_enter(struct ssdsim__host *h, struct ssdsim__zns *z, uint32_t i)
{
    struct ssdsim__io *io = &h->ios[i];
    uint64_t asked = io->offset;
    if (ssdsim__zns_apply(z, &io->op, io->zop, &io->offset, &io->len, &io->status))
        return true;
    if (io->status && io->job != NONE) {
        const struct ssdsim__job *job = &h->jobs[io->job];
        const char *name = job->label ? job->label
                           : job->spec && job->spec->name ? job->spec->name
                                                          : "job";
        /* a replayed request is named by its source's id (a trace's line number); a
         * generated one by its place in the job, counted from 1 */
        host_fail(h, SSDSIM_EINVAL,
                  "%s: %s %llu: %s of %u bytes at offset %llu refused by the zoned drive: "
                  "%s (zone %llu, write pointer at %llu); replay it with zone commands or use "
                  "fio's zonemode=zbd",
                  name, job->replay ? "request id" : "request",
                  (unsigned long long)(job->replay ? io->id : io->id + 1),
                  io->op == SSDSIM__IO_TRIM ? "trim" : "write",
                  io->len, (unsigned long long)asked, ssdsim__zns_status_name(io->status),
                  (unsigned long long)(asked / z->zone_size),
                  (unsigned long long)(asked / z->zone_size < z->n_zones
                                           ? asked / z->zone_size * z->zone_size +
                                                 z->z[asked / z->zone_size].wp
                                           : 0));
        return false;
    }
    if (ssdsim__engine_schedule(h->engine, ssdsim__engine_now(h->engine), complete_event, h, i))
        host_fail(h, SSDSIM_ENOMEM, "out of memory during the run");
    return false;
}

static void enter_or_wait(struct ssdsim__host *h, uint32_t i)
{
    struct ssdsim__io *io = &h->ios[i];
    io->admit_ns = io->ftl_ns = io->flash_done_ns = ssdsim__engine_now(h->engine);
    struct ssdsim__zns *z = h->sys->n_devs == 1 ? h->sys->devs[0].zns : NULL;
    if (z && !zns_enter(h, z, i))
        return;
    uint8_t op = (uint8_t)(io->op | (io->fua ? SSDSIM__IO_FUA : 0));
    if (ssdsim__sys_submit(h->sys, i, io->volume, op, io->offset, io->len,
                           io->queue | (uint32_t)io->placement << 16))
        host_fail(h, SSDSIM_ENOMEM, "out of memory during the run");
}

/* ------------------------------------------------------------------------------------------ */
/* Jobs                                                                                        */

static void wake(void *ctx, uint32_t arg);

/* Where a replayed request came from, for a message: a trace names its file and line, another
 * source its request id. */
static void request_where(const struct ssdsim__job *job, const ssdsim_request *r, char *buf,
                          size_t len)
{
    if (job->label)
        snprintf(buf, len, "%.300s:%llu", job->label, (unsigned long long)r->id);
    else
        snprintf(buf, len, "request %llu", (unsigned long long)r->id);
}

/* fio's sync options on generated write *r: FUA for sync=1, a flush due after every fsync
 * (fdatasync) writes; a barrier write (every write_barrier-th) is held back behind a flush,
 * and then true is returned. */
static bool sync_options(struct ssdsim__job *job, ssdsim_request *r)
{
    const struct ssdsim__jobspec *spec = job->spec;
    job->writes++;
    if (spec->sync_writes)
        r->op = SSDSIM_OP_WRITE_FUA;
    bool sync = (spec->fsync_blocks && job->writes % spec->fsync_blocks == 0) ||
                (spec->fdatasync_blocks && job->writes % spec->fdatasync_blocks == 0);
    if (spec->barrier_blocks && job->writes % spec->barrier_blocks == 0) {
        job->held = *r;
        job->held.op = SSDSIM_OP_WRITE_FUA;
        job->have_held = true;
        job->flush_after_held = sync;
        job->flush_due = true; /* before it */
        return true;
    }
    job->flush_due = sync;
    return false;
}

/* Fetch the job's next request into job->pending with its earliest issue time. False when the
 * job has none (or failed: h->error is set). */
static bool fetch(struct ssdsim__host *h, uint32_t j)
{
    struct ssdsim__job *job = &h->jobs[j];
    uint64_t now = ssdsim__engine_now(h->engine);
    ssdsim_request *r = &job->pending;
    if (job->max_requests && job->issued >= job->max_requests)
        return false;
    if (job->spec && job->spec->off)
        return false;
    if (!job->replay && job->flush_due) {
        /* fio's fsync / fdatasync / a barrier's flush: no pacing, no data */
        job->flush_due = false;
        *r = (ssdsim_request){.op = SSDSIM_OP_FLUSH, .id = job->issued};
        job->pending_at = now;
        job->have_pending = true;
        return true;
    }
    if (!job->replay && job->have_held) {
        *r = job->held; /* the barrier write, after its flush */
        job->have_held = false;
        job->flush_due = job->flush_after_held;
        job->pending_at = now;
    } else if (!job->replay) {
        uint8_t op;
        uint32_t len;
        job->gen.rate_now = now;
        if (!ssdsim__gen_next(&job->gen, &op, &r->offset, &len))
            return false;
        if (job->ahead.on) {
            uint8_t aop;
            uint64_t aoff;
            ssdsim__gen_ahead_next(&job->gen, &job->ahead, &aop, &aoff);
            if (aop != SSDSIM__IO_TRIM)
                ssdsim__sys_prefetch(h->sys, job->volume, aoff, aop == SSDSIM__IO_WRITE,
                                     aop == SSDSIM__IO_READ);
        }
        r->op = (enum ssdsim_op)op;
        r->length = len;
        r->id = job->issued;
        r->time_ns = 0;
        job->pending_at = now;
        if (op == SSDSIM__IO_WRITE && sync_options(job, r))
            return fetch(h, j); /* a barrier: its flush goes first */
    } else {
        char msg[384] = "";
        int rc = job->src.next(job->src.userdata, r, msg, sizeof msg);
        if (rc == 0)
            return false;
        if (rc < 0) {
            host_fail(h, rc, "%s", msg[0] ? msg : ssdsim_strerror(rc));
            return false;
        }
        job->rec_has_placement = false;
        uint32_t pid;
        if (job->src.next == ssdsim__trace_source_next &&
            ssdsim_trace_get_placement(job->src.userdata, &pid)) {
            uint32_t placement;
            char pwhy[200];
            if (ssdsim__fdp_pid_decode(&h->sys->dev_model->fdp, pid, &placement, pwhy,
                                       sizeof pwhy)) {
                host_fail(h, SSDSIM_ECONFIG, "%.300s:%llu: placement: %s",
                          job->label ? job->label : "trace", (unsigned long long)r->id, pwhy);
                return false;
            }
            job->rec_has_placement = true;
            job->rec_placement = (uint8_t)placement;
        }
        if (r->op != SSDSIM_OP_READ && r->op != SSDSIM_OP_WRITE && r->op != SSDSIM_OP_TRIM &&
            r->op != SSDSIM_OP_FLUSH && r->op != SSDSIM_OP_WRITE_FUA) {
            char where[320];
            request_where(job, r, where, sizeof where);
            host_fail(h, SSDSIM_EINVAL,
                      "%s: operation %d is not read, write, trim, flush or write_fua", where,
                      (int)r->op);
            return false;
        }
        if (r->op == SSDSIM_OP_FLUSH) {
            r->offset = r->length = 0; /* no data */
        } else if (r->length == 0 || r->length > UINT32_MAX) {
            char where[320];
            request_where(job, r, where, sizeof where);
            host_fail(h, SSDSIM_EINVAL, "%s: length %llu is not in [1, 4294967295] bytes", where,
                      (unsigned long long)r->length);
            return false;
        }
        if (r->length > h->logical_bytes) {
            char where[320];
            request_where(job, r, where, sizeof where);
            host_fail(h, SSDSIM_ERANGE, "%s: length %llu is larger than the device (%llu bytes)",
                      where, (unsigned long long)r->length, (unsigned long long)h->logical_bytes);
            return false;
        }
        if (r->op != SSDSIM_OP_FLUSH && r->offset > h->logical_bytes - r->length) {
            if (!h->wrap) {
                char where[320];
                request_where(job, r, where, sizeof where);
                host_fail(h, SSDSIM_ERANGE,
                          "%s: bytes %llu..%llu are beyond the device's logical capacity of "
                          "%llu bytes (wrap addresses to replay it anyway: ssdsim run --wrap, "
                          "ssdsim_replay_opts.wrap)",
                          where, (unsigned long long)r->offset,
                          (unsigned long long)(r->offset + r->length),
                          (unsigned long long)h->logical_bytes);
                return false;
            }
            r->offset %= h->logical_bytes;
            if (r->offset > h->logical_bytes - r->length)
                r->offset = h->logical_bytes - r->length;
            h->units[job->unit].wrapped++;
        }
        job->pending_at = now;
        if (job->timed) {
            /* A scaled arrival past the simulated clock's limit is refused, not capped: a cap
             * issued every later request at once and reported pure queueing as latency. */
            double t = (double)r->time_ns / job->time_scale;
            if (!(t <= (double)SSDSIM__CLOCK_LIMIT_NS - (double)job->start_ns)) {
                char where[320];
                request_where(job, r, where, sizeof where);
                host_fail(h, SSDSIM_ERANGE,
                          "%s: arrival time %llu ns at time scale %g is %.3g ns after the "
                          "replay's start, past the simulated clock's limit of 2^62 ns",
                          where, (unsigned long long)r->time_ns, job->time_scale, t);
                return false;
            }
            uint64_t at = job->start_ns + (uint64_t)t;
            if (at > job->pending_at)
                job->pending_at = at;
            struct ssdsim__unit *u = &h->units[job->unit];
            if (job->replay && (uint64_t)t > u->last_arrival_ns)
                u->last_arrival_ns = (uint64_t)t;
        }
    }
    int d = r->op == SSDSIM_OP_WRITE_FUA ? SSDSIM_OP_WRITE : (int)r->op;
    if (d <= SSDSIM_OP_TRIM && (job->rate_interval_ns[d] > 0 || job->rate_bytes[d] > 0)) {
        if (job->rate_next_ns[d] > job->pending_at)
            job->pending_at = job->rate_next_ns[d];
        double step = job->rate_interval_ns[d];
        if (job->rate_bytes[d] > 0)
            step = SSDSIM__MAX(step, (double)r->length * 1e9 / (double)job->rate_bytes[d]);
        if (job->poisson) /* exponential gaps of the same mean */
            step *= -log1p(-ssdsim__rng_double(&job->gen.rng));
        job->rate_next_ns[d] = SSDSIM__MAX(job->rate_next_ns[d], job->start_ns) + (uint64_t)step;
    }
    if (job->think_ns && job->since_think >= job->think_blocks) {
        job->since_think = 0;
        if (now + job->think_ns > job->pending_at)
            job->pending_at = now + job->think_ns;
    }
    job->have_pending = true;
    return true;
}

/* The FDP placement handle of a job's next request: the id of its trace record when it has one,
 * else its fixed one or the next of its list (placement.h). */
static uint8_t job_placement(struct ssdsim__host *h, struct ssdsim__job *job, uint8_t op)
{
    if (job->rec_has_placement) /* a trace record's own id */
        return job->rec_placement;
    return ssdsim__placement_next(job->spec, &h->sys->dev_model->fdp, job->placement,
                                  &job->pli_next, &job->gen.rng, op);
}

/* A job's zone options against the drive: 0, or 1 with why (naming the option). */
static int job_zone_options(const struct ssdsim__host *h, const struct ssdsim__jobspec *spec,
                            char *why, size_t len)
{
    const struct ssdsim__zns *z = h->sys->n_devs == 1 ? h->sys->devs[0].zns : NULL;
    bool zone_opts = spec->zbd_zone_size || spec->zbd_zone_capacity || spec->zbd_max_open ||
                     spec->zbd_zone_skip;
    if (!spec->zbd && zone_opts) {
        snprintf(why, len, "%s: zone options need zonemode=zbd",
                 spec->zbd_zone_size       ? "zonesize"
                 : spec->zbd_zone_capacity ? "zonecapacity"
                 : spec->zbd_max_open      ? "max_open_zones"
                                           : "zoneskip");
        return 1;
    }
    if (!spec->zbd)
        return 0;
    if (!z) {
        snprintf(why, len, "zonemode=zbd: the drive has no zones (model key zns.zone_size)");
        return 1;
    }
    if (spec->zbd_zone_size && spec->zbd_zone_size != z->zone_size) {
        snprintf(why, len, "zonesize: %llu bytes is not the drive's zone size (%llu)",
                 (unsigned long long)spec->zbd_zone_size, (unsigned long long)z->zone_size);
        return 1;
    }
    if (spec->zbd_zone_skip % z->zone_size) {
        snprintf(why, len, "zoneskip: %llu bytes is not a multiple of the drive's zone size (%llu)",
                 (unsigned long long)spec->zbd_zone_skip, (unsigned long long)z->zone_size);
        return 1;
    }
    if (spec->zbd_zone_capacity && spec->zbd_zone_capacity != z->capacity) {
        snprintf(why, len, "zonecapacity: %llu bytes is not the drive's zone capacity (%llu)",
                 (unsigned long long)spec->zbd_zone_capacity, (unsigned long long)z->capacity);
        return 1;
    }
    return 0;
}

/* fio's zonemode=zbd: a job's write goes to its zone's write pointer (a full zone is reset
 * first, by a reset command issued ahead of the write). False when the run failed. */
static bool true_write(ssdsim_request *r, uint64_t off, uint32_t len)
{
    r->offset = off;
    r->length = len;
    return true;
}

static bool zbd_write(struct ssdsim__host *h, struct ssdsim__job *job, ssdsim_request *r)
{
    struct ssdsim__zns *z = h->sys->n_devs == 1 ? h->sys->devs[0].zns : NULL;
    uint64_t off = r->offset;
    uint32_t len = (uint32_t)r->length;
    if (!ssdsim__zns_zbd_write(z, job->spec->zbd_max_open, &off, &len))
        return true_write(r, off, len);
    /* reset the zone first: a zone command of its own, ahead of the write on the same queue */
    uint32_t i = io_alloc(h);
    if (i == NONE) {
        host_fail(h, SSDSIM_ENOMEM, "out of memory during the run");
        return false;
    }
    struct ssdsim__io *io = &h->ios[i];
    memset(io, 0, sizeof *io);
    io->submit_ns = io->done_ns = ssdsim__engine_now(h->engine);
    io->offset = off;
    io->op = SSDSIM__IO_TRIM;
    io->zop = SSDSIM__ZOP_RESET;
    io->queue = job->queue;
    io->job = NONE;
    io->next = NONE;
    io->id = UINT64_MAX;
    h->submitted_inflight++;
    enter_or_wait(h, i);
    off = r->offset;
    len = (uint32_t)r->length;
    ssdsim__zns_zbd_write(z, job->spec->zbd_max_open, &off, &len);
    return true_write(r, off, len);
}

static void issue_pending(struct ssdsim__host *h, uint32_t j)
{
    struct ssdsim__job *job = &h->jobs[j];
    uint64_t now = ssdsim__engine_now(h->engine);
    if (job->spec && job->spec->zbd &&
        (job->pending.op == SSDSIM_OP_WRITE || job->pending.op == SSDSIM_OP_WRITE_FUA) &&
        !zbd_write(h, job, &job->pending))
        return;
    uint32_t i = io_alloc(h);
    if (i == NONE) {
        host_fail(h, SSDSIM_ENOMEM, "out of memory during the run");
        return;
    }
    const ssdsim_request *r = &job->pending;
    job->have_pending = false;
    /* (a generated request's entry was loaded requests ago, in fetch: SSDSIM__HOST_LEAD) */
    if (r->op != SSDSIM_OP_TRIM && r->op != SSDSIM_OP_FLUSH && !job->ahead.on)
        ssdsim__sys_prefetch(h->sys, job->volume, r->offset, r->op == SSDSIM_OP_WRITE,
                             r->op == SSDSIM_OP_READ);
    struct ssdsim__io *io = &h->ios[i];
    io->submit_ns = now;
    io->done_ns = now;
    io->offset = r->offset;
    io->len = (uint32_t)r->length;
    io->op = r->op == SSDSIM_OP_FLUSH       ? SSDSIM__IO_FLUSH
             : r->op == SSDSIM_OP_WRITE_FUA ? SSDSIM__IO_WRITE
                                            : (uint8_t)r->op;
    io->fua = r->op == SSDSIM_OP_WRITE_FUA;
    io->queue = job->queue;
    io->placement = job_placement(h, job, io->op);
    io->job = j;
    io->volume = job->volume;
    io->next = NONE;
    io->counted = now >= job->ramp_end_ns;
    io->zop = 0;
    io->status = 0;
    io->admit_ns = io->ftl_ns = io->flash_done_ns = now;
    io->wait_ns = 0;
    io->id = r->id;
    io->cb = NULL;
    job->inflight++;
    job->issued++;
    if (r->op != SSDSIM_OP_FLUSH)
        job->since_think++;
    h->inflight++;
    notify_issue(h, io);
    enter_or_wait(h, i);
}

/* A job of the current wave is done (finished, or dropped before its delayed start): the last
 * one starts the next wave, or ends the run. */
static void wave_job_done(struct ssdsim__host *h)
{
    if (--h->wave_left > 0)
        return;
    if (h->wave + 1 < h->n_waves && !h->stopping) {
        h->wave++;
        start_wave(h);
        return;
    }
    h->active = false;
    ssdsim__engine_stop(h->engine);
}

static void job_finished(struct ssdsim__host *h, uint32_t j)
{
    struct ssdsim__job *job = &h->jobs[j];
    if (job->finished)
        return;
    job->finished = true;
    uint64_t now = ssdsim__engine_now(h->engine);
    struct ssdsim__unit *u = &h->units[job->unit];
    if (--u->n_running == 0) {
        u->end_ns = now - h->run_start_ns;
        ssdsim__engine_cancel(h->engine, u->ss_timer);
        u->ss_timer = 0;
    }
    wave_job_done(h);
}

static void wake(void *ctx, uint32_t j);

/* Job j sleeps until `at` (unless it already does): wake() pumps it then. */
static void sleep_until(struct ssdsim__host *h, uint32_t j, uint64_t at)
{
    struct ssdsim__job *job = &h->jobs[j];
    if (job->waiting)
        return;
    job->waiting = true;
    job->wake_event = ssdsim__engine_schedule_cancellable(h->engine, at, wake, h, j);
    if (!job->wake_event)
        host_fail(h, SSDSIM_ENOMEM, "out of memory during the run");
}

/* Issue what the job may issue now; sleep until the pending request's time otherwise. */
static void pump(struct ssdsim__host *h, uint32_t j)
{
    struct ssdsim__job *job = &h->jobs[j];
    while (!job->exhausted && job->inflight < job->depth && !h->error) {
        uint64_t now = ssdsim__engine_now(h->engine);
        if (!job->have_pending && !fetch(h, j)) {
            job->exhausted = true;
            break;
        }
        if (job->pending.op == SSDSIM_OP_FLUSH && job->inflight > 0 && !job->replay)
            break; /* fio issues a sync when the job's I/O in flight has completed */
        if (job->pending_at >= job->stop_ns) {
            job->exhausted = true;
            job->have_pending = false;
            /* A job paced past its runtime's end (rate, thinktime, a trace's gaps) sleeps until
             * that end, as fio's does: it lasts its runtime (fio's JSON runtime and rates are
             * over that), not until its last completion. */
            if (job->stop_ns > now && !job->waiting) {
                sleep_until(h, j, job->stop_ns);
                return;
            }
            break;
        }
        if (job->pending_at > now) {
            sleep_until(h, j, job->pending_at);
            return;
        }
        issue_pending(h, j);
    }
    if (job->exhausted && job->inflight == 0 && !job->waiting)
        job_finished(h, j);
}

static void wake(void *ctx, uint32_t j)
{
    struct ssdsim__host *h = ctx;
    h->jobs[j].waiting = false;
    h->jobs[j].wake_event = 0;
    pump(h, j);
}

void ssdsim__host_stop_all(struct ssdsim__host *h)
{
    h->stopping = true;
    for (uint32_t j = 0; j < h->n_jobs; j++) {
        struct ssdsim__job *job = &h->jobs[j];
        if (job->exhausted)
            continue;
        job->exhausted = true;
        job->have_pending = false;
        if (!job->started && job->start_event) {
            /* of this wave, waiting for its startdelay: it will not start */
            ssdsim__engine_cancel(h->engine, job->start_event);
            job->start_event = 0;
            job->finished = true;
            wave_job_done(h); /* stopping: the run ends with the wave's last job */
            continue;
        }
        if (!job->started)
            continue; /* a later wave, which will not start */
        if (job->waiting) {
            ssdsim__engine_cancel(h->engine, job->wake_event);
            job->wake_event = 0;
            job->waiting = false;
        }
        if (job->inflight == 0)
            job_finished(h, j);
    }
}

/* Steady-state check of a unit, once per simulated second (fio's ss). */
static void ss_tick(void *ctx, uint32_t arg);

static void ss_schedule(struct ssdsim__host *h, uint32_t u)
{
    uint64_t t = ssdsim__engine_now(h->engine) + SSDSIM__NS_PER_S;
    h->units[u].ss_timer = ssdsim__engine_schedule_cancellable(h->engine, t, ss_tick, h, u);
    if (!h->units[u].ss_timer)
        host_fail(h, SSDSIM_ENOMEM, "out of memory during the run");
}

static void ss_tick(void *ctx, uint32_t arg)
{
    struct ssdsim__host *h = ctx;
    struct ssdsim__unit *u = &h->units[arg];
    u->ss_timer = 0;
    uint64_t now = ssdsim__engine_now(h->engine);
    double iops = (double)(u->ss_count - u->ss_last_count);
    double bw = (double)(u->ss_bytes_all - u->ss_last_bytes);
    u->ss_last_count = u->ss_count;
    u->ss_last_bytes = u->ss_bytes_all;
    if (now - h->run_start_ns - u->start_ns > u->ss_ramp_ns) {
        u->ss_iops[u->ss_head] = iops;
        u->ss_bw[u->ss_head] = bw;
        u->ss_head = (u->ss_head + 1) % u->ss_window;
        if (u->ss_n < u->ss_window)
            u->ss_n++;
    }
    if (u->ss_n == u->ss_window) {
        const double *x =
            u->ss == SSDSIM__SS_IOPS || u->ss == SSDSIM__SS_IOPS_SLOPE ? u->ss_iops : u->ss_bw;
        uint32_t n = u->ss_window;
        double mean = 0;
        for (uint32_t k = 0; k < n; k++)
            mean += x[k];
        mean /= n;
        double v;
        if (u->ss == SSDSIM__SS_IOPS || u->ss == SSDSIM__SS_BW) {
            v = 0; /* largest deviation from the mean */
            for (uint32_t k = 0; k < n; k++)
                v = SSDSIM__MAX(v, fabs(x[k] - mean));
        } else {
            /* least-squares slope over the samples in time order (per second) */
            double sx = 0, sxx = 0, sxy = 0, sy = 0;
            for (uint32_t k = 0; k < n; k++) {
                double y = x[(u->ss_head + k) % n];
                sx += k;
                sxx += (double)k * k;
                sxy += k * y;
                sy += y;
            }
            double den = n * sxx - sx * sx;
            v = den > 0 ? fabs((n * sxy - sx * sy) / den) : 0;
        }
        if (u->ss_percent)
            v = mean > 0 ? v * 100 / mean : INFINITY;
        u->ss_value = v;
        if (v <= u->ss_limit) {
            u->ss_attained = true;
            u->ss_precond = ssdsim__sys_preconditioned(h->sys, u->ss_why, sizeof u->ss_why);
            for (uint32_t j = 0; j < h->n_jobs; j++) {
                if (h->jobs[j].unit != arg || h->jobs[j].exhausted)
                    continue;
                h->jobs[j].exhausted = true;
                h->jobs[j].have_pending = false;
                if (h->jobs[j].inflight == 0 && !h->jobs[j].waiting)
                    job_finished(h, j);
            }
            return;
        }
    }
    if (u->n_running > 0)
        ss_schedule(h, arg);
}

static void start_job(struct ssdsim__host *h, uint32_t j)
{
    struct ssdsim__job *job = &h->jobs[j];
    uint64_t now = ssdsim__engine_now(h->engine);
    struct ssdsim__unit *u = &h->units[job->unit];
    job->started = true;
    job->start_ns = now;
    for (int d = 0; d < 3; d++)
        job->rate_next_ns[d] = now;
    /* a read/write mix with a rate on reads or writes switches direction as fio's does */
    bool rated = false;
    for (int d = SSDSIM__DIR_READ; d <= SSDSIM__DIR_WRITE; d++)
        rated |= job->rate_interval_ns[d] > 0 || job->rate_bytes[d] > 0;
    job->gen.rate_next = rated ? job->rate_next_ns : NULL;
    const struct ssdsim__jobspec *s = job->spec;
    /* As in fio, runtime counts from the end of ramp_time: a job runs ramp_time + runtime. */
    job->stop_ns = s && s->runtime_ns ? now + s->ramp_time_ns + s->runtime_ns : UINT64_MAX;
    job->ramp_end_ns = s ? now + s->ramp_time_ns : now;
    if (u->n_running++ == 0) {
        u->start_ns = now - h->run_start_ns;
        if (u->ss)
            ss_schedule(h, job->unit);
    }
}

/* Is `job` of the current wave, started at `now`? */
static inline bool started_now(const struct ssdsim__host *h, const struct ssdsim__job *job,
                               uint64_t now)
{
    return job->wave == h->wave && job->started && job->start_ns == now;
}

/* The jobs of the wave that started at this moment fill their depth together (round-robin,
 * one request each per round, so that no job is favoured in the device queue), then issue
 * what they may (open-loop jobs, depth beyond the rounds). */
static void fill_started_now(struct ssdsim__host *h)
{
    uint64_t now = ssdsim__engine_now(h->engine);
    uint32_t max_depth = 0;
    for (uint32_t j = 0; j < h->n_jobs; j++) {
        const struct ssdsim__job *job = &h->jobs[j];
        if (started_now(h, job, now))
            max_depth = SSDSIM__MAX(max_depth, SSDSIM__MIN(job->depth, 1u << 16));
    }
    /* Millions of requests may start at this one moment (numjobs x iodepth, up to
     * SSDSIM__OUTSTANDING_MAX): ask the cancel hook now and then, or an interrupt would wait
     * for the whole fill. */
    uint32_t until_poll = SSDSIM__HOST_POLL_REQUESTS;
    for (uint32_t d = 0; d < max_depth && !h->error; d++) {
        for (uint32_t j = 0; j < h->n_jobs; j++) {
            struct ssdsim__job *job = &h->jobs[j];
            if (!started_now(h, job, now) || job->exhausted || job->inflight > d ||
                job->waiting)
                continue;
            uint32_t cap = job->depth;
            job->depth = job->inflight + 1 < cap ? job->inflight + 1 : cap;
            pump(h, j);
            job->depth = cap;
            if (--until_poll == 0) {
                until_poll = SSDSIM__HOST_POLL_REQUESTS;
                if (h->cancel && h->cancel(h->cancel_ctx)) {
                    host_fail(h, SSDSIM_ECANCELLED, "cancelled");
                    return;
                }
            }
        }
    }
    for (uint32_t j = 0; j < h->n_jobs && !h->error; j++) {
        const struct ssdsim__job *job = &h->jobs[j];
        if (started_now(h, job, now) && !job->finished)
            pump(h, j);
    }
}

/* startdelay: the moment has come for jobs of the wave that waited for it; one event starts
 * every job due now. */
static void delayed_start(void *ctx, uint32_t arg)
{
    struct ssdsim__host *h = ctx;
    h->jobs[arg].start_event = 0;
    uint64_t now = ssdsim__engine_now(h->engine);
    bool any = false;
    for (uint32_t j = 0; j < h->n_jobs; j++) {
        struct ssdsim__job *job = &h->jobs[j];
        if (job->wave != h->wave || job->started || job->finished || job->start_at_ns > now)
            continue;
        if (job->start_event) {
            ssdsim__engine_cancel(h->engine, job->start_event);
            job->start_event = 0;
        }
        start_job(h, j);
        any = true;
    }
    if (any)
        fill_started_now(h);
}

/* A wave's jobs start together, except those whose startdelay, counted from the run's start as
 * fio counts it from its genesis, has not passed yet: they start then. */
static void start_wave(struct ssdsim__host *h)
{
    uint64_t now = ssdsim__engine_now(h->engine);
    h->wave_left = 0;
    for (uint32_t j = 0; j < h->n_jobs; j++) {
        struct ssdsim__job *job = &h->jobs[j];
        if (job->wave != h->wave)
            continue;
        h->wave_left++;
        uint64_t delay = job->spec ? job->spec->startdelay_ns : 0;
        job->start_at_ns = SSDSIM__MAX(now, h->run_start_ns + delay);
        if (job->start_at_ns <= now) {
            start_job(h, j);
            continue;
        }
        job->start_event = ssdsim__engine_schedule_cancellable(h->engine, job->start_at_ns,
                                                                delayed_start, h, j);
        if (!job->start_event)
            host_fail(h, SSDSIM_ENOMEM, "out of memory during the run");
    }
    fill_started_now(h);
}

/* ------------------------------------------------------------------------------------------ */
/* Requests                                                                                    */

/* Request i is done: its slot goes back to the pool. */
static void stop_event(void *ctx, uint32_t arg)
{
    struct ssdsim__host *h = ctx;
    (void)arg;
    if (h->active && !h->stopping)
        ssdsim__host_stop_all(h);
}

static void release(struct ssdsim__host *h, uint32_t i)
{
    io_free(h, i);
    h->inflight--;
    h->completed++;
    /* stopped from an event of its own, outside the completion being handled */
    if (h->stop_after && h->completed == h->stop_after &&
        ssdsim__engine_schedule(h->engine, ssdsim__engine_now(h->engine), stop_event, h, 0))
        host_fail(h, SSDSIM_ENOMEM, "out of memory during the run");
}

/* A flush's latency, in its unit's own histogram (made at the first). */
static void flush_record(struct ssdsim__host *h, struct ssdsim__unit *u, uint64_t lat)
{
    if (!u->flush) {
        u->flush = calloc(1, sizeof *u->flush);
        if (!u->flush) {
            host_fail(h, SSDSIM_ENOMEM, "out of memory during the run");
            return;
        }
        ssdsim__hist_reset(u->flush);
    }
    ssdsim__hist_add(u->flush, lat);
}

static void complete(struct ssdsim__host *h, uint32_t i)
{
    struct ssdsim__io *io = &h->ios[i];
    uint64_t now = ssdsim__engine_now(h->engine);
    if (io->op == SSDSIM__IO_TRIM)
        io->flash_done_ns = now;
    uint64_t lat = now - io->submit_ns;
    uint32_t j = io->job;
    /* zone commands other than append, and refused requests, are not I/O statistics */
    bool io_stat = io->status == 0 && io->zop <= SSDSIM__ZOP_APPEND;
    if (io->op == SSDSIM__IO_FLUSH) {
        if (j != NONE && io->counted)
            flush_record(h, &h->units[h->jobs[j].unit], lat);
    } else if (j == NONE && io_stat)
        ssdsim__stats_detach(h->stats); /* a sample for the run's histograms alone */
    if (io->op != SSDSIM__IO_FLUSH && io_stat && (j == NONE || io->counted))
        ssdsim__stats_record(h->stats, io->op, io->len, lat, now);
    if (j != NONE && io->op != SSDSIM__IO_FLUSH && io_stat) {
        struct ssdsim__unit *u = &h->units[h->jobs[j].unit];
        if (io->counted) {
            ssdsim__hist_add(&u->hist[io->op], lat);
            u->bytes[io->op] += io->len;
        }
        u->ss_count++;
        u->ss_bytes_all += io->len;
    }
    ssdsim_complete_fn cb = io->cb;
    bool observe = h->have_obs && h->obs.on_complete;
    if (cb || observe) {
        /* Where the time went. A callback may submit more (which may grow the pool and move
         * `io`): everything is copied out first. */
        ssdsim_completion c = {
            .id = io->id,
            .op = ssdsim__io_public_op(io->op),
            .offset = io->offset,
            .length = io->len,
            .submit_ns = io->submit_ns,
            .complete_ns = now,
            .queue_ns = io->admit_ns - io->submit_ns,
            .frontend_ns = io->ftl_ns - io->admit_ns,
            .flash_ns = io->flash_done_ns - io->ftl_ns,
            .transfer_ns = now - io->flash_done_ns,
            .gc_wait_ns = io->wait_ns,
            .job = j == NONE ? SSDSIM_NO_JOB : j,
            .status = io->status,
        };
        if (io->zop)
            c.op = (enum ssdsim_op)(SSDSIM_OP_WRITE_FUA + io->zop);
        void *ud = io->userdata;
        io->cb = NULL;
        if (j == NONE)
            h->submitted_inflight--;
        release(h, i);
        if (observe)
            h->obs.on_complete(&c, h->obs.userdata);
        if (cb)
            cb(&c, ud);
    } else {
        if (j == NONE)
            h->submitted_inflight--;
        release(h, i);
    }
    if (j == NONE) {
        if (h->stop_when_drained && h->submitted_inflight == 0)
            ssdsim__engine_stop(h->engine);
        return;
    }
    struct ssdsim__job *job = &h->jobs[j];
    job->inflight--;
    pump(h, j);
}

void ssdsim__host_io_done(void *ctx, uint32_t i, const struct ssdsim__breakdown *b)
{
    struct ssdsim__host *h = ctx;
    struct ssdsim__io *io = &h->ios[i];
    io->admit_ns = b->admit_ns;
    io->ftl_ns = b->ftl_ns;
    io->flash_done_ns = b->flash_done_ns;
    io->wait_ns = b->wait_ns;
    complete(h, i);
}

/* A submitted request reaches the host at its arrival time. */
static void submitted_arrival(void *ctx, uint32_t i)
{
    struct ssdsim__host *h = ctx;
    notify_issue(h, &h->ios[i]);
    enter_or_wait(h, i);
}

static void host_setup(struct ssdsim__host *h, struct ssdsim__engine *e, struct ssdsim__sys *sys,
                       struct ssdsim__stats *stats)
{
    ssdsim_observer obs = h->obs;
    bool have_obs = h->have_obs;
    int (*cancel)(void *) = h->cancel;
    void *cancel_ctx = h->cancel_ctx;
    memset(h, 0, sizeof *h);
    h->obs = obs;
    h->have_obs = have_obs;
    h->cancel = cancel;
    h->cancel_ctx = cancel_ctx;
    h->engine = e;
    h->sys = sys;
    h->stats = stats;
    h->logical_bytes = sys->volume_bytes;
    ssdsim__sys_set_done(sys, ssdsim__host_io_done, h);
    ssdsim__sys_hints_lead(sys, false); /* ssdsim__host_start says when they do */
    ssdsim__ipool_init(&h->io_pool);
    h->run_start_ns = ssdsim__engine_now(e);
}

int ssdsim__host_submit(struct ssdsim__host *h, struct ssdsim__engine *e, struct ssdsim__sys *sys,
                        struct ssdsim__stats *stats, uint8_t op, uint64_t offset, uint32_t len,
                        uint64_t at_ns, uint64_t id, ssdsim_complete_fn cb, void *userdata,
                        uint32_t queue)
{
    if (!h->engine)
        host_setup(h, e, sys, stats); /* first use: a host with no jobs */
    uint32_t i = io_alloc(h);
    if (i == NONE)
        return SSDSIM_ENOMEM;
    struct ssdsim__io *io = &h->ios[i];
    memset(io, 0, sizeof *io);
    io->submit_ns = io->done_ns = io->admit_ns = io->ftl_ns = io->flash_done_ns = at_ns;
    io->offset = offset;
    io->len = len;
    io->op = (uint8_t)(op & ~(SSDSIM__IO_FUA | SSDSIM__IO_ZOP_MASK));
    io->zop = (uint8_t)((op & SSDSIM__IO_ZOP_MASK) >> SSDSIM__IO_ZOP_SHIFT);
    io->fua = (op & SSDSIM__IO_FUA) != 0;
    io->queue = (uint16_t)(queue & 0xffff);
    io->placement = (uint8_t)(queue >> 16);
    io->job = NONE;
    io->next = NONE;
    io->counted = true;
    io->id = id;
    io->cb = cb;
    io->userdata = userdata;
    h->inflight++;
    h->submitted_inflight++;
    if (io->op != SSDSIM__IO_TRIM && io->op != SSDSIM__IO_FLUSH)
        ssdsim__sys_prefetch(sys, 0, offset, io->op == SSDSIM__IO_WRITE && !io->fua,
                             io->op == SSDSIM__IO_READ);
    if (ssdsim__engine_schedule(e, at_ns, submitted_arrival, h, i)) {
        io->cb = NULL;
        io_free(h, i);
        h->inflight--;
        h->submitted_inflight--;
        return SSDSIM_ENOMEM;
    }
    return 0;
}

/* ------------------------------------------------------------------------------------------ */
/* Starting runs                                                                               */

static int alloc_units(struct ssdsim__host *h, uint32_t n)
{
    h->units = calloc(n, sizeof *h->units);
    if (!h->units)
        return SSDSIM_ENOMEM;
    h->n_units = n;
    for (uint32_t u = 0; u < n; u++)
        for (int k = 0; k < 3; k++)
            ssdsim__hist_reset(&h->units[u].hist[k]);
    /* The units' samples are the run's (until a reset or a program's request parts them). */
    if (n)
        ssdsim__stats_parts(h->stats, h->units[0].hist, n, sizeof *h->units);
    return 0;
}

static void ramp_reset(void *ctx, uint32_t arg)
{
    struct ssdsim__host *h = ctx;
    (void)arg;
    h->ramp_event = 0;
    ssdsim__stats_reset(h->stats, ssdsim__engine_now(h->engine), h->stats->interval_ns,
                        h->stats->interval_ios, h->stats->interval_bytes);
}

int ssdsim__host_start(struct ssdsim__host *h, const struct ssdsim_workload *wl, uint64_t seed,
                       uint64_t sim_seed, struct ssdsim__engine *e, struct ssdsim__sys *sys,
                       struct ssdsim__stats *stats)
{
    host_setup(h, e, sys, stats);
    /* jobs, waves and reporting units: a unit is a job clone, or all the clones of the
     * consecutive group_reporting jobs of one reporting group */
    uint32_t n_jobs = 0, n_units = 0, wave = 0, group = 0;
    for (uint32_t s = 0; s < wl->n_jobs; s++)
        n_jobs += wl->jobs[s].numjobs;
    h->jobs = calloc(n_jobs ? n_jobs : 1, sizeof *h->jobs);
    if (!h->jobs)
        goto oom;
    h->n_jobs = n_jobs;
    uint64_t ramp0 = wl->n_jobs ? wl->jobs[0].ramp_time_ns : 0;
    bool uniform_ramp = true;
    uint32_t j = 0;
    bool prev_shared = false;
    for (uint32_t s = 0; s < wl->n_jobs; s++) {
        const struct ssdsim__jobspec *spec = &wl->jobs[s];
        bool new_group = s > 0 && (spec->stonewall || spec->new_group);
        if (s > 0 && spec->stonewall)
            wave++;
        if (new_group)
            group++;
        if (spec->ramp_time_ns != ramp0 || spec->startdelay_ns)
            uniform_ramp = false; /* statistics restart at one moment for all jobs, or never */
        bool join = spec->group_reporting && prev_shared && !new_group;
        if (spec->group_reporting && !join)
            n_units++;
        for (uint32_t c = 0; c < spec->numjobs; c++, j++) {
            struct ssdsim__job *job = &h->jobs[j];
            job->spec = spec;
            job->wave = wave;
            if (!spec->group_reporting)
                n_units++;
            job->unit = n_units - 1;
            job->volume = j % h->sys->n_volumes;
            uint32_t nq = h->sys->dev_model->nvme.queues;
            if (spec->have_queue && spec->queue >= nq) {
                snprintf(h->errmsg, sizeof h->errmsg,
                         "job '%s': queue: %u is beyond the model's queue pairs (nvme.queues "
                         "%u: 0 to %u)",
                         spec->name ? spec->name : "job", spec->queue, nq, nq - 1);
                h->error = SSDSIM_ECONFIG;
                return h->error;
            }
            job->queue = (uint16_t)(spec->have_queue ? spec->queue : j % nq);
            if (ssdsim__placement_job_check(spec, &h->sys->dev_model->fdp, &job->placement,
                                            h->errmsg, sizeof h->errmsg)) {
                h->error = SSDSIM_ECONFIG;
                return h->error;
            }
            job->pli_next = 0;
            char why[200];
            if (job_zone_options(h, spec, why, sizeof why)) {
                snprintf(h->errmsg, sizeof h->errmsg, "job '%s': %s",
                         spec->name ? spec->name : "job", why);
                h->error = SSDSIM_ECONFIG;
                return h->error;
            }
            job->depth = spec->iodepth;
            job->think_ns = spec->thinktime_ns;
            job->think_blocks = spec->thinktime_blocks ? spec->thinktime_blocks : 1;
            job->poisson = spec->rate_process == SSDSIM__RATE_POISSON;
            for (int d = 0; d < 3; d++) {
                job->rate_interval_ns[d] =
                    spec->rate_iops[d] ? 1e9 / (double)spec->rate_iops[d] : 0;
                job->rate_bytes[d] = spec->rate_bytes[d];
            }
            ssdsim__gen_init(&job->gen, spec, c, SSDSIM__GEN_JOB_SEED(seed, s),
                             SSDSIM__GEN_JOB_SEED(sim_seed, s), h->logical_bytes);
            if (spec->zbd && !job->gen.random) {
                /* fio ignores zoneskip for random patterns, and moves its sequential position
                 * on from a zone's capacity to the zone's end */
                const struct ssdsim__zns *zn = h->sys->devs[0].zns;
                job->gen.zone_size = zn->zone_size;
                job->gen.zone_skip = spec->zbd_zone_skip;
                job->gen.zone_cap = zn->capacity < zn->zone_size ? zn->capacity : 0;
                if (job->gen.zone_cap && job->gen.byte_limit && !spec->number_ios &&
                    !spec->io_size_bytes && spec->io_size_percent <= 0) {
                    /* bounded by its region (size, loops): fio writes the region's zones up
                     * to their capacity, so a pass is the writable bytes of the region */
                    uint64_t a = job->gen.region_start, end = a + job->gen.region_len, w = 0;
                    for (uint64_t zs = a / zn->zone_size * zn->zone_size; zs < end;
                         zs += zn->zone_size) {
                        uint64_t lo = SSDSIM__MAX(a, zs);
                        uint64_t hi = SSDSIM__MIN(end, zs + zn->capacity);
                        w += hi > lo ? hi - lo : 0;
                    }
                    job->gen.byte_limit = w * (spec->loops ? spec->loops : 1);
                }
            }
            if (spec->read_iolog) {
                ssdsim_error err = {0};
                ssdsim_trace_opts to = SSDSIM_TRACE_OPTS_INIT;
                to.flushes = true; /* replayed, not skipped */
                int rc = ssdsim_trace_open(&job->trace, spec->read_iolog, &to, &err);
                if (rc) {
                    snprintf(h->errmsg, sizeof h->errmsg, "job '%s': read_iolog: %.400s",
                             spec->name ? spec->name : "job", err.message);
                    h->error = rc;
                    return rc;
                }
                ssdsim_trace_stats st;
                ssdsim_trace_get_stats(job->trace, &st);
                if (st.time_unit_assumed)
                    ssdsim__log(SSDSIM_LOG_WARNING,
                                "job '%s': read_iolog %s: DiskSim ASCII times have no unit; read "
                                "as ms (DiskSim's; MQSim and SSDSim traces count ns: replay such "
                                "a trace with ssdsim run --trace FILE --time-unit ns)",
                                spec->name ? spec->name : "job", spec->read_iolog);
                job->replay = true;
                job->label = spec->read_iolog;
                job->timed = !spec->replay_no_stall;
                job->time_scale = 1;
                job->src.next = ssdsim__trace_source_next;
                job->src.userdata = job->trace;
                h->wrap = true; /* fio replays an iolog against the file it opens */
            }
            if (!job->replay)
                h->planned += ssdsim__gen_planned(&job->gen);
            uint64_t span = spec->startdelay_ns + spec->ramp_time_ns + spec->runtime_ns;
            if (spec->runtime_ns && span > h->max_runtime_ns)
                h->max_runtime_ns = span;
        }
        prev_shared = spec->group_reporting;
        (void)group;
    }
    if (alloc_units(h, n_units ? n_units : 1))
        goto oom;
    group = 0;
    for (uint32_t k = 0, s_prev = UINT32_MAX; k < h->n_jobs; k++) {
        struct ssdsim__job *job = &h->jobs[k];
        const struct ssdsim__jobspec *spec = job->spec;
        uint32_t s = (uint32_t)(spec - wl->jobs);
        if (s != s_prev && s > 0 && (spec->stonewall || spec->new_group))
            group++;
        s_prev = s;
        struct ssdsim__unit *un = &h->units[job->unit];
        if (un->n_clones++ > 0)
            continue;
        un->name = strdup(spec->name ? spec->name : "job");
        if (!un->name)
            goto oom;
        un->group = group;
        un->first_clone = k;
        un->ramp_ns = spec->ramp_time_ns;
        if (spec->ss) {
            un->ss = (uint8_t)spec->ss;
            un->ss_limit = spec->ss_limit;
            un->ss_percent = spec->ss_limit_percent;
            un->ss_ramp_ns = spec->ss_ramp_ns;
            uint64_t w = spec->ss_dur_ns / SSDSIM__NS_PER_S;
            un->ss_window = (uint32_t)(w < 2 ? 2 : w > (1u << 20) ? 1u << 20 : w);
            un->ss_iops = calloc(un->ss_window, sizeof *un->ss_iops);
            un->ss_bw = calloc(un->ss_window, sizeof *un->ss_bw);
            if (!un->ss_iops || !un->ss_bw)
                goto oom;
        }
    }
    h->n_waves = wave + 1;
    /* prefetch hints drawn ahead (SSDSIM__HOST_LEAD) */
    uint32_t ahead = h->n_jobs ? (SSDSIM__HOST_LEAD + h->n_jobs - 1) / h->n_jobs : 0;
    bool lead = false;
    for (uint32_t k = 0; k < h->n_jobs; k++) {
        struct ssdsim__job *job = &h->jobs[k];
        if (!job->replay)
            ssdsim__gen_ahead_init(&job->gen, &job->ahead, ahead);
        lead = lead || job->ahead.on;
    }
    ssdsim__sys_hints_lead(h->sys, lead);
    /* the pool: every closed-loop job's depth */
    uint64_t pool = 0;
    for (uint32_t k = 0; k < h->n_jobs; k++)
        pool += h->jobs[k].depth;
    if (pool > 0 && pool < (1u << 24)) {
        h->ios = ssdsim__ipool_grow(&h->io_pool, NULL, sizeof *h->ios, IO_LINK, (uint32_t)pool);
        if (!h->ios)
            goto oom;
    }
    h->active = true;
    if (uniform_ramp && ramp0 > 0 && h->n_waves == 1) {
        h->ramp_reset_ns = h->run_start_ns + ramp0;
        h->ramp_event = ssdsim__engine_schedule_cancellable(e, h->ramp_reset_ns, ramp_reset, h, 0);
    }
    h->wave = 0;
    start_wave(h);
    if (h->error)
        return h->error;
    return 0;
oom:
    snprintf(h->errmsg, sizeof h->errmsg, "out of memory starting the run");
    h->error = SSDSIM_ENOMEM;
    return SSDSIM_ENOMEM;
}

int ssdsim__host_check_replay(const struct ssdsim__sys *sys, const ssdsim_replay_opts *ro,
                              char *why, size_t len, uint32_t *placement)
{
    uint32_t nq = sys->dev_model->nvme.queues;
    const char *label = ro->label ? ro->label : "replay";
    if (ro->queue >= nq) {
        snprintf(why, len,
                 "%s: queue: %u is beyond the model's queue pairs (nvme.queues %u: 0 to %u)", label,
                 ro->queue, nq, nq - 1);
        return SSDSIM_ECONFIG;
    }
    if (ro->volume >= sys->n_volumes) {
        snprintf(why, len, "%s: volume: %u is beyond the model's volumes (%u: 0 to %u)", label,
                 ro->volume, sys->n_volumes, sys->n_volumes - 1);
        return SSDSIM_ECONFIG;
    }
    uint32_t pl = 0;
    char pwhy[200];
    if (ssdsim__fdp_pid_decode(&sys->dev_model->fdp, ro->placement, &pl, pwhy, sizeof pwhy)) {
        snprintf(why, len, "%s: placement: %s", label, pwhy);
        return SSDSIM_ECONFIG;
    }
    if (placement)
        *placement = pl;
    return 0;
}

int ssdsim__host_start_source(struct ssdsim__host *h, const ssdsim_source *src,
                              const ssdsim_replay_opts *ro, struct ssdsim__engine *e,
                              struct ssdsim__sys *sys, struct ssdsim__stats *stats)
{
    return ssdsim__host_start_sources(h, src, ro ? &ro : NULL, 1, e, sys, stats);
}

int ssdsim__host_start_sources(struct ssdsim__host *h, const ssdsim_source *srcs,
                               const ssdsim_replay_opts *const *ros, size_t n,
                               struct ssdsim__engine *e, struct ssdsim__sys *sys,
                               struct ssdsim__stats *stats)
{
    host_setup(h, e, sys, stats);
    h->jobs = calloc(n, sizeof *h->jobs);
    if (!h->jobs || alloc_units(h, (uint32_t)n)) {
        snprintf(h->errmsg, sizeof h->errmsg, "out of memory starting the run");
        h->error = SSDSIM_ENOMEM;
        return SSDSIM_ENOMEM;
    }
    h->n_jobs = (uint32_t)n;
    h->n_waves = 1;
    for (size_t k = 0; k < n; k++) {
        const ssdsim_replay_opts *ro = ros ? ros[k] : NULL;
        struct ssdsim__job *job = &h->jobs[k];
        h->wrap = h->wrap || (ro && ro->wrap);
        job->unit = (uint32_t)k;
        job->replay = true;
        job->src = srcs[k];
        job->timed = !ro || ro->iodepth == 0;
        job->depth = ro && ro->iodepth ? ro->iodepth : UINT32_MAX;
        job->time_scale = ro && ro->time_scale > 0 ? ro->time_scale : 1;
        job->max_requests = ro ? ro->max_requests : 0;
        job->label = ro ? ro->label : NULL;
        job->think_blocks = 1;
        uint32_t placement = 0;
        if (ro && ssdsim__host_check_replay(h->sys, ro, h->errmsg, sizeof h->errmsg, &placement)) {
            h->error = SSDSIM_ECONFIG;
            return h->error;
        }
        job->queue = (uint16_t)(ro ? ro->queue : 0);
        job->volume = ro ? ro->volume : 0;
        job->placement = (uint8_t)placement;
        h->planned += job->max_requests;
        h->units[k].name = strdup(ro && ro->label ? ro->label : "replay");
        if (!h->units[k].name) {
            snprintf(h->errmsg, sizeof h->errmsg, "out of memory starting the run");
            h->error = SSDSIM_ENOMEM;
            return SSDSIM_ENOMEM;
        }
        h->units[k].n_clones = 1;
        h->units[k].first_clone = (uint32_t)k;
        h->units[k].replay = true;
        h->units[k].replay_depth = job->timed ? 0 : job->depth;
        h->units[k].time_scale = job->time_scale;
    }
    h->active = true;
    for (size_t k = 0; k < n; k++) {
        const ssdsim_replay_opts *ro = ros ? ros[k] : NULL;
        struct ssdsim__job *job = &h->jobs[k];
        start_job(h, (uint32_t)k);
        if (ro && ro->runtime_ns) {
            job->stop_ns = job->start_ns + ro->runtime_ns;
            if (ro->runtime_ns > h->max_runtime_ns)
                h->max_runtime_ns = ro->runtime_ns;
        }
    }
    h->wave_left = (uint32_t)n;
    for (size_t k = 0; k < n && !h->error; k++)
        pump(h, (uint32_t)k);
    return h->error;
}

void ssdsim__host_finish(struct ssdsim__host *h)
{
    uint64_t now = ssdsim__engine_now(h->engine);
    for (uint32_t u = 0; u < h->n_units; u++) {
        if (h->units[u].n_running > 0)
            h->units[u].end_ns = now - h->run_start_ns;
        ssdsim__engine_cancel(h->engine, h->units[u].ss_timer);
        h->units[u].ss_timer = 0;
    }
    ssdsim__engine_cancel(h->engine, h->ramp_event);
    h->ramp_event = 0;
    if (h->sys)
        ssdsim__sys_hints_lead(h->sys, false);
}

double ssdsim__host_progress(const struct ssdsim__host *h)
{
    double f = 0;
    if (h->planned)
        f = (double)h->completed / (double)h->planned;
    if (h->max_runtime_ns) {
        double ft =
            (double)(ssdsim__engine_now(h->engine) - h->run_start_ns) / (double)h->max_runtime_ns;
        if (ft > f)
            f = ft;
    }
    return f > 1 ? 1 : f;
}
