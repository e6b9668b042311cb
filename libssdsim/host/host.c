/* host.c: closed-loop jobs, the device queue-depth limit, request splitting and completion.
 *
 * Path of a request: the job issues it (latency starts), it waits on the host while the device
 * holds queue_depth commands, then the front end (protocol overhead, host-to-device data for
 * writes, a firmware core) brings it to the FTL at a known time (one event), the FTL turns it
 * into per-unit flash operations, and when the last unit is done (reads: after its data crossed
 * the link back) the request completes and the job issues its next one at once.
 */
#include "host/host.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NONE SSDSIM__NONE

static void admit(struct ssdsim__host *h, uint32_t io);
static void complete(struct ssdsim__host *h, uint32_t io);

void ssdsim__host_fini(struct ssdsim__host *h)
{
    free(h->jobs);
    free(h->ios);
    h->jobs = NULL;
    h->ios = NULL;
    h->active = false;
}

/* A request issued by the host goes into the device if it has a free command slot, else it
 * waits on the host, in order. */
static void enter_or_wait(struct ssdsim__host *h, uint32_t i)
{
    if (h->at_device < h->qd_limit) {
        admit(h, i);
        return;
    }
    h->ios[i].next = NONE;
    if (h->wait_tail == NONE)
        h->wait_head = i;
    else
        h->ios[h->wait_tail].next = i;
    h->wait_tail = i;
}

/* Issue the job's next request if it has one; returns false when the job is out of work. */
static bool issue(struct ssdsim__host *h, uint32_t j)
{
    struct ssdsim__job *job = &h->jobs[j];
    uint64_t now = ssdsim__engine_now(h->engine);
    if (job->exhausted)
        return false;
    if (h->runtime_ns && now - h->run_start_ns >= h->runtime_ns) {
        job->exhausted = true;
        return false;
    }
    uint8_t op;
    uint64_t off;
    uint32_t len;
    if (!ssdsim__gen_next(&job->gen, &op, &off, &len)) {
        job->exhausted = true;
        return false;
    }
    if (h->env->ops->prefetch)
        h->env->ops->prefetch(h->env->state, off / h->unit);
    uint32_t i = h->free_ios;
    assert(i != NONE);
    h->free_ios = h->ios[i].next;
    struct ssdsim__io *io = &h->ios[i];
    io->submit_ns = now;
    io->done_ns = now;
    io->offset = off;
    io->len = len;
    io->op = op;
    io->job = j;
    io->next = NONE;
    io->admit_ns = io->ftl_ns = io->flash_done_ns = now;
    io->wait_ns = 0;
    io->cb = NULL;
    job->inflight++;
    h->inflight++;
    enter_or_wait(h, i);
    return true;
}

static void arrive(void *ctx, uint32_t arg)
{
    struct ssdsim__host *h = ctx;
    uint32_t i = (uint32_t)arg;
    struct ssdsim__io *io = &h->ios[i];
    io->ftl_ns = ssdsim__engine_now(h->engine);
    uint64_t first = io->offset / h->unit;
    uint64_t last = (io->offset + io->len - 1) / h->unit;
    if (io->op == SSDSIM__IO_TRIM) {
        /* Only units the trim covers whole are dropped: the rest of a partly covered unit
         * still holds data, and drives ignore discards below their mapping granularity. */
        uint64_t lo = (io->offset + h->unit - 1) / h->unit;
        uint64_t hi = (io->offset + io->len) / h->unit; /* exclusive */
        for (uint64_t u = lo; u < hi; u++)
            h->env->ops->trim(h->env->state, u);
        complete(h, i);
        return;
    }
    io->pending = (uint32_t)(last - first + 1);
    for (uint64_t u = first; u <= last; u++) {
        uint64_t lo = SSDSIM__MAX(io->offset, u * h->unit);
        uint64_t hi = SSDSIM__MIN(io->offset + io->len, (u + 1) * h->unit);
        uint32_t bytes = (uint32_t)(hi - lo);
        int rc = io->op == SSDSIM__IO_READ ? h->env->ops->read(h->env->state, i, u, bytes)
                                           : h->env->ops->write(h->env->state, i, u, bytes);
        if (rc) {
            if (!h->env->fail_code) {
                char msg[128];
                snprintf(msg, sizeof msg, "FTL '%s' failed a host request: %s",
                         h->env->ops->name, ssdsim_strerror(rc));
                ssdsim_ftl_fail(h->env, rc, msg);
            }
            h->error = rc;
            ssdsim__engine_stop(h->engine);
            return;
        }
    }
}

static void admit(struct ssdsim__host *h, uint32_t i)
{
    struct ssdsim__io *io = &h->ios[i];
    h->at_device++;
    ssdsim__env_cmd_enter(h->env);
    uint64_t now = ssdsim__engine_now(h->engine);
    io->admit_ns = now;
    uint64_t t = ssdsim__hw_frontend(h->hw, now, io->op == SSDSIM__IO_WRITE ? io->len : 0);
    ssdsim__engine_schedule(h->engine, t, arrive, h, i);
}

static void complete_event(void *ctx, uint32_t arg)
{
    complete(ctx, (uint32_t)arg);
}

/* Request i left the device: its slot goes back to the pool, and the first request waiting on
 * the host for a device slot takes the freed one. */
static void release(struct ssdsim__host *h, uint32_t i)
{
    h->ios[i].next = h->free_ios;
    h->free_ios = i;
    h->inflight--;
    h->completed++;
    h->at_device--;
    ssdsim__env_cmd_leave(h->env);
    if (h->wait_head != NONE) {
        uint32_t w = h->wait_head;
        h->wait_head = h->ios[w].next;
        if (h->wait_head == NONE)
            h->wait_tail = NONE;
        admit(h, w);
    }
}

static void complete(struct ssdsim__host *h, uint32_t i)
{
    struct ssdsim__io *io = &h->ios[i];
    uint64_t now = ssdsim__engine_now(h->engine);
    if (io->op == SSDSIM__IO_TRIM)
        io->flash_done_ns = now;
    ssdsim__stats_record(h->stats, io->op, io->len, now - io->submit_ns, now);
    uint32_t j = io->job;
    if (j == NONE) {
        /* The caller's completion, with where the time went. The callback may submit more
         * (which may grow the pool and move `io`): everything is copied out first. */
        ssdsim_completion c = {
            .id = io->id,
            .op = (enum ssdsim_op)io->op,
            .offset = io->offset,
            .length = io->len,
            .submit_ns = io->submit_ns,
            .complete_ns = now,
            .queue_ns = io->admit_ns - io->submit_ns,
            .frontend_ns = io->ftl_ns - io->admit_ns,
            .flash_ns = io->flash_done_ns - io->ftl_ns,
            .transfer_ns = now - io->flash_done_ns,
            .gc_wait_ns = io->wait_ns,
        };
        ssdsim_complete_fn cb = io->cb;
        void *ud = io->userdata;
        io->cb = NULL;
        h->submitted_inflight--;
        release(h, i);
        if (cb)
            cb(&c, ud);
        if (h->stop_when_drained && h->submitted_inflight == 0)
            ssdsim__engine_stop(h->engine);
        return;
    }
    h->jobs[j].inflight--;
    release(h, i);
    issue(h, j);
    if (h->inflight == 0) {
        h->active = false;
        ssdsim__engine_stop(h->engine);
    }
}

void ssdsim__host_unit_done(void *ctx, uint32_t i, uint32_t bytes)
{
    struct ssdsim__host *h = ctx;
    struct ssdsim__io *io = &h->ios[i];
    uint64_t now = ssdsim__engine_now(h->engine);
    if (io->op == SSDSIM__IO_READ) {
        uint64_t end = ssdsim__hw_link_up(h->hw, now, bytes);
        if (end > io->done_ns)
            io->done_ns = end;
    }
    if (--io->pending > 0)
        return;
    io->flash_done_ns = now;
    if (io->done_ns > now)
        ssdsim__engine_schedule(h->engine, io->done_ns, complete_event, h, i);
    else
        complete(h, i);
}

void ssdsim__host_unit_waited(void *ctx, uint32_t i, uint64_t ns)
{
    struct ssdsim__host *h = ctx;
    if (ns > h->ios[i].wait_ns)
        h->ios[i].wait_ns = ns;
}

/* A submitted request reaches the host at its arrival time. */
static void submitted_arrival(void *ctx, uint32_t i)
{
    enter_or_wait(ctx, i);
}

int ssdsim__host_submit(struct ssdsim__host *h, struct ssdsim__engine *e, struct ssdsim__hw *hw,
                        struct ssdsim_ftl_env *env, struct ssdsim__stats *stats, uint8_t op,
                        uint64_t offset, uint32_t len, uint64_t at_ns, uint64_t id,
                        ssdsim_complete_fn cb, void *userdata)
{
    if (!h->engine) {
        /* First use: a host with no jobs, for the program's own requests. */
        memset(h, 0, sizeof *h);
        h->engine = e;
        h->hw = hw;
        h->env = env;
        h->stats = stats;
        h->qd_limit = hw->model->controller.queue_depth;
        h->unit = env->geo.page_size;
        h->wait_head = h->wait_tail = NONE;
        h->free_ios = NONE;
    }
    if (h->free_ios == NONE) {
        /* Grow the pool (to the peak outstanding; indices stay valid). */
        uint32_t ncap = h->n_ios ? h->n_ios * 2 : 64;
        struct ssdsim__io *p = realloc(h->ios, sizeof *p * ncap);
        if (!p)
            return SSDSIM_ENOMEM;
        memset(p + h->n_ios, 0, sizeof *p * (ncap - h->n_ios));
        for (uint32_t k = h->n_ios; k < ncap; k++)
            p[k].next = k + 1 < ncap ? k + 1 : NONE;
        h->ios = p;
        h->free_ios = h->n_ios;
        h->n_ios = ncap;
    }
    uint32_t i = h->free_ios;
    h->free_ios = h->ios[i].next;
    struct ssdsim__io *io = &h->ios[i];
    memset(io, 0, sizeof *io);
    io->submit_ns = io->done_ns = io->admit_ns = io->ftl_ns = io->flash_done_ns = at_ns;
    io->offset = offset;
    io->len = len;
    io->op = op;
    io->job = NONE;
    io->next = NONE;
    io->id = id;
    io->cb = cb;
    io->userdata = userdata;
    h->inflight++;
    h->submitted_inflight++;
    if (env->ops->prefetch && op != SSDSIM__IO_TRIM)
        env->ops->prefetch(env->state, offset / h->unit);
    if (ssdsim__engine_schedule(e, at_ns, submitted_arrival, h, i)) {
        io->cb = NULL;
        io->next = h->free_ios;
        h->free_ios = i;
        h->inflight--;
        h->submitted_inflight--;
        return SSDSIM_ENOMEM;
    }
    return 0;
}

int ssdsim__host_start(struct ssdsim__host *h, const struct ssdsim_workload *wl, uint64_t seed,
                       struct ssdsim__engine *e, struct ssdsim__hw *hw, struct ssdsim_ftl_env *env,
                       struct ssdsim__stats *stats)
{
    memset(h, 0, sizeof *h);
    h->engine = e;
    h->hw = hw;
    h->env = env;
    h->stats = stats;
    h->n_jobs = wl->numjobs;
    h->n_ios = wl->numjobs * wl->iodepth;
    h->qd_limit = hw->model->controller.queue_depth;
    h->unit = env->geo.page_size;
    h->run_start_ns = ssdsim__engine_now(e);
    h->runtime_ns = wl->runtime_ns;
    h->wait_head = h->wait_tail = NONE;
    h->jobs = calloc(h->n_jobs, sizeof *h->jobs);
    h->ios = calloc(h->n_ios, sizeof *h->ios);
    if (!h->jobs || !h->ios) {
        ssdsim__host_fini(h);
        return SSDSIM_ENOMEM;
    }
    for (uint32_t i = 0; i < h->n_ios; i++)
        h->ios[i].next = i + 1 < h->n_ios ? i + 1 : NONE;
    h->free_ios = 0;
    uint64_t logical_bytes = env->geo.logical_pages * env->geo.page_size;
    for (uint32_t j = 0; j < h->n_jobs; j++) {
        ssdsim__gen_init(&h->jobs[j].gen, wl, j, seed, logical_bytes);
        h->planned += ssdsim__gen_planned(&h->jobs[j].gen);
    }
    h->active = true;
    /* Jobs start together; each fills its queue depth at time zero of the run. */
    for (uint32_t d = 0; d < wl->iodepth; d++)
        for (uint32_t j = 0; j < h->n_jobs; j++)
            issue(h, j);
    if (h->inflight == 0)
        h->active = false;
    return 0;
}

double ssdsim__host_progress(const struct ssdsim__host *h)
{
    double f = 0;
    if (h->planned)
        f = (double)h->completed / (double)h->planned;
    if (h->runtime_ns) {
        double ft = (double)(ssdsim__engine_now(h->engine) - h->run_start_ns) /
                    (double)h->runtime_ns;
        if (ft > f)
            f = ft;
    }
    return f > 1 ? 1 : f;
}
