/* dev.c: one block device: command queue, front end, and dispatch to its back end (the FTL,
 * through the write buffer when there is one, or a hard disk). See dev.h. */
#include "dev/dev.h"
#include "dev/zns.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ftl/page.h"
#include "workload/gen.h"

#define NONE SSDSIM__NONE

static inline struct ssdsim__cmd *cmd_at(struct ssdsim__dev *d, uint32_t i)
{
    return &d->pool->v[i];
}

int ssdsim__ctrl_init(struct ssdsim__ctrl *c, const struct ssdsim_model *m)
{
    memset(c, 0, sizeof *c);
    c->n_cores = m->controller.cores ? m->controller.cores : 1;
    c->core_free = calloc(c->n_cores, sizeof *c->core_free);
    if (!c->core_free)
        return SSDSIM_ENOMEM;
    return ssdsim__link_init(&c->link, &m->host.link);
}

void ssdsim__ctrl_fini(struct ssdsim__ctrl *c)
{
    free(c->core_free);
    ssdsim__link_fini(&c->link);
    memset(c, 0, sizeof *c);
}

void ssdsim__ctrl_reset(struct ssdsim__ctrl *c, uint64_t now)
{
    for (uint32_t i = 0; i < c->n_cores; i++)
        c->core_free[i] = now;
    ssdsim__link_reset(&c->link, now);
}

static void hdd_done(void *ctx, uint32_t cmd);

int ssdsim__dev_init(struct ssdsim__dev *d, uint32_t index, const struct ssdsim_model *m,
                     struct ssdsim__engine *e, struct ssdsim__cmdpool *pool,
                     struct ssdsim__ctrl *ctrl, struct ssdsim__link *uplink, uint64_t extra_ns,
                     uint64_t seed, ssdsim__cmd_done_fn done, void *ctx, ssdsim_error *err)
{
    memset(d, 0, sizeof *d);
    d->index = index;
    d->model = m;
    d->engine = e;
    d->pool = pool;
    d->cmd_done = done;
    d->cmd_done_ctx = ctx;
    d->ctrl = ctrl;
    d->fw = ctrl;
    d->path[d->n_path++] = &ctrl->link;
    if (uplink)
        d->path[d->n_path++] = uplink;
    d->extra_ns = extra_ns;
    d->qd_limit = m->controller.queue_depth;
    d->wait_head = d->wait_tail = NONE;
    if (m->host.ftl_threads && ssdsim__cpu_init(&d->cpu, m->host.ftl_threads))
        goto oom;
    if (ssdsim__nvme_on(&m->nvme) && ssdsim__nvmeq_new(&d->nq, d))
        goto oom;
    if (m->kind == SSDSIM__KIND_HDD) {
        d->bytes = m->hdd.capacity;
        d->fw = &d->disk_fw; /* freed by ssdsim__dev_fini, also after a failed init */
        if (ssdsim__ctrl_init(&d->disk_fw, m))
            goto oom;
        int rc = ssdsim__hdd_init(&d->hdd, &m->hdd, e, hdd_done, d);
        if (rc)
            return ssdsim__error_set(err, rc, m->label, "hdd",
                                     rc == SSDSIM_ENOMEM ? "out of memory"
                                                         : "the disk cannot be built");
        /* The spindles of an array are not synchronised: each member's platter is at its own
         * angle, drawn from the seed, when the first's is at 0 (a lone disk: 0, so that its
         * timing is the one hdd.h derives from time 0). Requests that span members then wait
         * for the latest of independent rotations, not all for the same one. */
        if (index > 0) {
            struct ssdsim__rng r;
            ssdsim__rng_seed(&r, seed, "spindle", index);
            d->hdd.phase_ns = ssdsim__rng_below(&r, 60000000000ULL / m->hdd.rpm);
        }
        return 0;
    }
    d->ssd = true;
    if (ssdsim__hw_init(&d->hw, m, e, ssdsim__env_flash_done, &d->env))
        goto oom;
    int rc = ssdsim__env_init(&d->env, m, &d->hw, seed, ssdsim__dev_unit_done, d, err);
    if (rc)
        return rc;
    d->env.unit_waited = ssdsim__dev_unit_waited;
    if (ssdsim__rel_new(&d->hw, m, seed, index))
        goto oom;
    if (d->hw.rel) {
        ssdsim__rel_attach(d->hw.rel, d->env.erase_count, &d->env.busy);
        ssdsim__page_rel_hook(&d->env);
    }
    ssdsim__fw_setup(d);
    d->unit = d->env.geo.page_size;
    ssdsim__udiv_init(&d->unit_div, d->unit);
    d->bytes = d->env.geo.logical_pages * d->unit;
    if (m->buffer.size > 0 && ssdsim__buf_new(&d->buf, d))
        goto oom;
    if (m->read_ahead.window > 0 && d->buf && ssdsim__ra_new(&d->ra, d))
        goto oom;
    if (m->zns.zone_size && ssdsim__zns_new(&d->zns, m))
        goto oom;
    return 0;
oom:
    return ssdsim__error_set(err, SSDSIM_ENOMEM, m->label, NULL,
                             "out of memory building the device");
}

void ssdsim__dev_fini(struct ssdsim__dev *d)
{
    ssdsim__flush_free(d);
    ssdsim__nvmeq_free(d->nq);
    if (d->ssd) {
        ssdsim__zns_free(d->zns);
        ssdsim__ra_free(d->ra);
        ssdsim__buf_free(d->buf);
        ssdsim__env_fini(&d->env);
        ssdsim__hw_fini(&d->hw);
    } else if (d->model) {
        ssdsim__hdd_fini(&d->hdd);
        if (d->fw == &d->disk_fw)
            ssdsim__ctrl_fini(&d->disk_fw);
    }
    ssdsim__cpu_fini(&d->cpu);
    memset(d, 0, sizeof *d);
}

void ssdsim__dev_prefetch(struct ssdsim__dev *d, uint64_t offset, bool write, bool read)
{
    /* a write the buffer takes reaches the FTL when it is flushed, which prefetches it then */
    if (write && ssdsim__dev_buf_absorbs(d))
        return;
    if (d->ssd && d->env.ops->prefetch) {
        d->env.pf_read = read;
        d->env.ops->prefetch(d->env.state, ssdsim__dev_unit_of(d, offset));
        d->env.pf_read = false;
    }
}

/* ------------------------------------------------------------------------------------------ */
/* Front end                                                                                   */

static void arrive(void *ctx, uint32_t cmd);

/* The data of command i crosses the device's link path: all of one command's data on one phy
 * of a SAS wide port (a read's units cross one by one as they come off the flash, and must not
 * spread over the phys), each link booked on its own (hw/link.h). */
uint64_t ssdsim__dev_xfer(struct ssdsim__dev *d, uint32_t i, int dir, uint64_t now, uint64_t bytes)
{
    return ssdsim__link_xfer_path(d->path, d->n_path, dir, now, bytes, cmd_at(d, i)->phy);
}

/* The command takes a device slot now. Its front-end stages are booked at once, in this order:
 * a host thread for a host-based FTL (which first catches up with the CPU time of the GC copies
 * made since the last command), the platform path, the interface's per-command time, the
 * earliest-free firmware core of the controller, and for writes the data crossing the link(s)
 * to the device. Booking ahead is exact here: every command pays the same fixed times, so
 * commands reach each FCFS stage in admission order and no command can find a stage booked by
 * one that in truth came after it. (The host-thread stage keeps that order too: the earliest
 * free thread takes each command.) */
static void admit(struct ssdsim__dev *d, uint32_t i)
{
    ssdsim__dev_admit(d, i, ssdsim__engine_now(d->engine));
}

void ssdsim__dev_admit(struct ssdsim__dev *d, uint32_t i, uint64_t now)
{
    struct ssdsim__cmd *c = cmd_at(d, i);
    const struct ssdsim_model *m = d->model;
    d->at_device++;
    if (d->ssd) {
        ssdsim__env_cmd_enter(&d->env);
        if (d->buf)
            ssdsim__buf_busy(d->buf, true);
    }
    c->admit_ns = now;
    uint64_t t = now;
    if (d->cpu.n_threads) {
        t = ssdsim__cpu_run(&d->cpu, t, m->host.ftl_cpu_ns + ssdsim__fw_cmd_ns(d, c));
        t += d->extra_ns + m->host.link.cmd_overhead_ns;
        t = ssdsim__ctrl_run(d->fw, t, m->controller.cmd_overhead_ns);
    } else {
        t += d->extra_ns + m->host.link.cmd_overhead_ns;
        t = ssdsim__ctrl_run(d->fw, t, m->controller.cmd_overhead_ns + ssdsim__fw_cmd_ns(d, c));
    }
    c->data_ns = 0;
    if (c->op == SSDSIM__IO_WRITE && !d->ssd && ssdsim__hdd_writes_through(&d->hdd, c->len))
        /* a disk's write that goes to the platter: the command reaches the drive, which seeks
         * while its data crosses the link (the write to the platter waits for both) */
        c->data_ns = ssdsim__dev_xfer(d, i, SSDSIM__LINK_DOWN, t, c->len);
    else if (c->op == SSDSIM__IO_WRITE)
        t = ssdsim__dev_xfer(d, i, SSDSIM__LINK_DOWN, t, c->len);
    ssdsim__engine_schedule(d->engine, t, arrive, d, i);
}

void ssdsim__dev_submit(struct ssdsim__dev *d, uint32_t i)
{
    struct ssdsim__cmd *c = cmd_at(d, i);
    c->pending = 0;
    c->wait_ns = 0;
    c->buffered = false; /* c->fua is the array's (add) */
    c->phy[0] = c->phy[1] = SSDSIM__LINK_ANY_PHY;
    c->done_ns = c->admit_ns = c->ftl_ns = c->flash_done_ns = ssdsim__engine_now(d->engine);
    if (d->nq) {
        ssdsim__nvmeq_submit(d->nq, i);
        return;
    }
    if (d->at_device < d->qd_limit) {
        admit(d, i);
        return;
    }
    c->next = NONE;
    if (d->wait_tail == NONE)
        d->wait_head = i;
    else
        cmd_at(d, d->wait_tail)->next = i;
    d->wait_tail = i;
}

/* The command is done: its slot goes to the first command waiting, then its owner hears. */
static void finish(struct ssdsim__dev *d, uint32_t i)
{
    const struct ssdsim__cmd *c = cmd_at(d, i);
    d->done_cmds[c->op]++;
    d->done_bytes[c->op] += c->len;
    d->at_device--;
    if (d->ssd) {
        ssdsim__env_cmd_leave(&d->env);
        if (d->buf && d->at_device == 0)
            ssdsim__buf_busy(d->buf, false);
    }
    if (d->nq) {
        ssdsim__nvmeq_finish(d->nq, i);
        return;
    }
    if (d->wait_head != NONE) {
        uint32_t w = d->wait_head;
        d->wait_head = cmd_at(d, w)->next;
        if (d->wait_head == NONE)
            d->wait_tail = NONE;
        admit(d, w);
    }
    d->cmd_done(d->cmd_done_ctx, i);
}

static void finish_event(void *ctx, uint32_t i)
{
    finish(ctx, i);
}

void ssdsim__dev_cmd_unit_done(struct ssdsim__dev *d, uint32_t i, uint64_t end_ns)
{
    struct ssdsim__cmd *c = cmd_at(d, i);
    if (end_ns > c->done_ns)
        c->done_ns = end_ns;
    if (--c->pending > 0)
        return;
    uint64_t now = ssdsim__engine_now(d->engine);
    c->flash_done_ns = now;
    if (SSDSIM__UNLIKELY(c->fua) && d->flushq)
        ssdsim__flush_fua_done(d, i); /* before finish: the callback may reuse the index */
    c = cmd_at(d, i); /* the flushes that completed may have grown the pool */
    if (c->done_ns > now)
        ssdsim__engine_schedule(d->engine, c->done_ns, finish_event, d, i);
    else
        finish(d, i);
}

/* ------------------------------------------------------------------------------------------ */
/* Back end                                                                                    */

static void ftl_failed(struct ssdsim__dev *d, int rc)
{
    if (!d->env.fail_code) {
        char msg[128];
        snprintf(msg, sizeof msg, "FTL '%s' failed a host request: %s", d->env.ops->name,
                 ssdsim_strerror(rc));
        ssdsim_ftl_fail(&d->env, rc, msg);
    }
    ssdsim__engine_stop(d->engine);
}

static void arrive(void *ctx, uint32_t i)
{
    struct ssdsim__dev *d = ctx;
    struct ssdsim__cmd *c = cmd_at(d, i);
    uint64_t now = ssdsim__engine_now(d->engine);
    c->ftl_ns = now;
    if (!d->ssd) {
        if (c->op == SSDSIM__IO_TRIM || c->op == SSDSIM__IO_FLUSH) {
            finish(d, i);
            return;
        }
        c->pending = 1;
        ssdsim__hdd_submit(&d->hdd, i, c->op == SSDSIM__IO_WRITE, c->offset, c->len, c->data_ns);
        return;
    }
    uint64_t unit = d->unit;
    if (c->op == SSDSIM__IO_TRIM) {
        /* Only units the trim covers whole are dropped: the rest of a partly covered unit
         * still holds data, and drives ignore discards below their mapping granularity. */
        uint64_t lo = ssdsim__dev_unit_of(d, c->offset + unit - 1);
        uint64_t hi = ssdsim__dev_unit_of(d, c->offset + c->len); /* exclusive */
        if (d->ra && lo < hi)
            ssdsim__ra_drop(d->ra, lo, hi - 1);
        for (uint64_t u = lo; u < hi; u++) {
            if (d->buf)
                ssdsim__buf_trim(d->buf, u);
            d->env.ops->trim(d->env.state, u);
        }
        c->flash_done_ns = now;
        finish(d, i);
        return;
    }
    if (c->op == SSDSIM__IO_FLUSH) {
        ssdsim__flush_arrive(d, i);
        return;
    }
    if (c->op == SSDSIM__IO_WRITE && ssdsim__fault_refuse_write(d->env.fault, c->len)) {
        c->flash_done_ns = now; /* read-only (rel/badblock.c): refused, nothing written */
        finish(d, i);
        return;
    }
    uint64_t first = ssdsim__dev_unit_of(d, c->offset);
    uint64_t last = ssdsim__dev_unit_of(d, c->offset + c->len - 1);
    if (d->ra) {
        if (c->op == SSDSIM__IO_WRITE)
            ssdsim__ra_drop(d->ra, first, last);
        else
            ssdsim__ra_cmd(d->ra, first, last);
    }
    if (c->op == SSDSIM__IO_WRITE && ssdsim__dev_buf_absorbs(d)) {
        if (!c->fua || d->model->buffer.plp) {
            ssdsim__buf_write(d->buf, i);
            return;
        }
        ssdsim__flush_fua_drop(d, i); /* written through */
    }
    c->pending = (uint32_t)(last - first + 1);
    d->env.placement = c->placement;
    for (uint64_t u = first; u <= last; u++) {
        uint64_t lo = SSDSIM__MAX(c->offset, u * unit);
        uint64_t hi = SSDSIM__MIN(c->offset + c->len, (u + 1) * unit);
        uint32_t bytes = (uint32_t)(hi - lo);
        int rc;
        if (c->op == SSDSIM__IO_READ) {
            if (d->buf && ssdsim__buf_read(d->buf, i, u, bytes))
                continue;
            if (d->ra && ssdsim__ra_read(d->ra, i, u, bytes))
                continue;
            rc = d->env.ops->read(d->env.state, i, u, bytes);
        } else {
            rc = d->env.ops->write(d->env.state, i, u, bytes);
        }
        if (rc) {
            ftl_failed(d, rc);
            return;
        }
    }
    if (d->ra && c->op == SSDSIM__IO_READ)
        ssdsim__ra_after(d->ra);
}

/* An FTL completed a unit it was not handed (or more bytes than the unit holds): the run stops
 * with SSDSIM_ESTATE and a message naming the FTL, as a GC policy's bad victim does. Kept out of
 * line: ssdsim__dev_unit_done, on every unit's path, pays only its compares. */
SSDSIM__NOINLINE static void unit_refused(struct ssdsim__dev *d, uint32_t id, uint32_t bytes,
                                          const char *why)
{
    char msg[256];
    if (bytes > d->unit)
        snprintf(msg, sizeof msg,
                 "FTL '%s' completed a unit of request %u with %u bytes, which is more than "
                 "the unit's %u (ssdsim_ftl_unit_done)",
                 d->env.ops->name, id, bytes, d->unit);
    else
        snprintf(msg, sizeof msg, "FTL '%s' completed a unit of request %u, which %s",
                 d->env.ops->name, id, why);
    ssdsim_ftl_fail(&d->env, SSDSIM_ESTATE, msg);
    ssdsim__engine_stop(d->engine);
}

/* ssdsim_ftl_unit_done: the id is the FTL's word, so it is checked before it indexes anything
 * (a plugin's bug must stop the run with a message, not write to memory elsewhere): a host
 * command's id within the pool, of this device, with units in flight; a flush's or prefetch's
 * slot in flight; bytes at most a unit. Each is a compare that always goes the same way in a
 * correct run, so it is predicted and costs next to nothing (make bench). */
void ssdsim__dev_unit_done(void *ctx, uint32_t id, uint32_t bytes)
{
    struct ssdsim__dev *d = ctx;
    if (SSDSIM__UNLIKELY(bytes > d->unit)) {
        unit_refused(d, id, bytes, NULL);
        return;
    }
    if (id & SSDSIM__DEV_FLUSH_TAG) {
        if (SSDSIM__UNLIKELY(!d->buf ||
                             !ssdsim__buf_flush_done(d->buf, id & ~SSDSIM__DEV_FLUSH_TAG)))
            unit_refused(d, id, bytes,
                         "is not a write-buffer flush in flight (completed twice, or an id the "
                         "device never handed it)");
        return;
    }
    if (id & SSDSIM__DEV_RA_TAG) {
        if (SSDSIM__UNLIKELY(!d->ra || !ssdsim__ra_flash_done(d->ra, id)))
            unit_refused(d, id, bytes,
                         "is not a read-ahead read the device handed it (an id out of range)");
        return;
    }
    if (SSDSIM__UNLIKELY(id >= d->pool->ip.cap)) {
        unit_refused(d, id, bytes, "the device never handed it (an id out of range)");
        return;
    }
    const struct ssdsim__cmd *c = cmd_at(d, id);
    if (SSDSIM__UNLIKELY(c->pending == 0 || c->dev != d->index)) {
        unit_refused(d, id, bytes,
                     "has no unit in flight at the FTL (a unit completed twice, or a request "
                     "the device did not hand it)");
        return;
    }
    uint64_t now = ssdsim__engine_now(d->engine);
    uint64_t end = now;
    if (cmd_at(d, id)->op == SSDSIM__IO_READ)
        end = ssdsim__dev_xfer(d, id, SSDSIM__LINK_UP, now, bytes);
    ssdsim__dev_cmd_unit_done(d, id, end);
}

void ssdsim__dev_unit_waited(void *ctx, uint32_t id, uint64_t ns)
{
    struct ssdsim__dev *d = ctx;
    /* A flush that waited for a free block is felt by the writes behind it through the buffer
     * slots they wait for, not directly. */
    if (id & (SSDSIM__DEV_FLUSH_TAG | SSDSIM__DEV_RA_TAG))
        return;
    /* the id is the FTL's word, checked as ssdsim__dev_unit_done checks it */
    if (SSDSIM__UNLIKELY(id >= d->pool->ip.cap || cmd_at(d, id)->dev != d->index)) {
        char msg[256];
        snprintf(msg, sizeof msg,
                 "FTL '%s' reported a wait of request %u, which the device never handed it "
                 "(ssdsim_ftl_unit_waited)",
                 d->env.ops->name, id);
        ssdsim_ftl_fail(&d->env, SSDSIM_ESTATE, msg);
        ssdsim__engine_stop(d->engine);
        return;
    }
    struct ssdsim__cmd *c = cmd_at(d, id);
    if (ns > c->wait_ns)
        c->wait_ns = ns;
}

/* The largest piece of a disk's read data the interface moves at once: a SATA Data FIS
 * (2048 dwords: Serial ATA Revision 3), a SAS SSP DATA frame (1024 bytes), else 4 KiB. */
static uint64_t hdd_frame_bytes(const struct ssdsim__dev *d)
{
    switch (d->model->host.link.iface) {
    case SSDSIM__IFACE_SATA:
        return 8192;
    case SSDSIM__IFACE_SAS:
        return 1024;
    default:
        return 4096;
    }
}

/* A disk sends a read's data while the platter gives it (cut-through, frame by frame from its
 * buffer), not after the last sector: the transfer may have started when the first sector of
 * the read came under the head, at most the read's media time before now (or when the command
 * reached the disk, for data partly or wholly in its cache), and it cannot end before the last
 * frame has crossed after the last sector. So a link faster than the media adds its last
 * frame's time (and a cache hit its whole transfer); a slower one, the rest of its transfer. */
static void hdd_done(void *ctx, uint32_t i)
{
    struct ssdsim__dev *d = ctx;
    struct ssdsim__cmd *c = cmd_at(d, i);
    uint64_t now = ssdsim__engine_now(d->engine);
    uint64_t end = now;
    if (c->op == SSDSIM__IO_READ) {
        double rate = ssdsim__hdd_rate_at(&d->hdd, c->offset);
        uint64_t media = (uint64_t)ceil((double)c->len * 1e9 / rate);
        uint64_t from = now - SSDSIM__MIN(now - c->ftl_ns, media);
        uint64_t frame = SSDSIM__MIN(c->len, hdd_frame_bytes(d)), whole = 0, last = 0;
        for (uint32_t k = 0; k < d->n_path; k++) {
            whole = SSDSIM__MAX(whole, ssdsim__link_ns(d->path[k], c->len));
            last = SSDSIM__MAX(last, ssdsim__link_ns(d->path[k], frame));
        }
        uint64_t start = now + last > whole ? now + last - whole : 0;
        end = ssdsim__dev_xfer(d, i, SSDSIM__LINK_UP, SSDSIM__MAX(from, start), c->len);
    }
    ssdsim__dev_cmd_unit_done(d, i, end);
}

bool ssdsim__dev_busy(const struct ssdsim__dev *d)
{
    if (d->nq && ssdsim__nvmeq_busy(d->nq))
        return true;
    if (!d->ssd)
        return ssdsim__hdd_busy(&d->hdd);
    /* units being flushed are work; dirty units with flushing stopped (below flush_start, or
     * left by fast-forward) are data at rest, which a run's writes or a drain flush */
    if (d->buf && ssdsim__buf_flushing(d->buf))
        return true;
    /* an op can be on its way after its die went idle (a cache read's data going out of the
     * cache register): the FTL must see its completion before it is rebuilt */
    if (d->hw.n_live)
        return true;
    for (uint32_t k = 0; k < d->hw.n_dies; k++)
        if (!ssdsim__hw_die_idle(&d->hw, k))
            return true;
    return false;
}

bool ssdsim__dev_preconditioned(const struct ssdsim__dev *d, bool by_writes, char *why,
                                size_t len)
{
    if (!d->ssd || d->installed)
        return true;
    const struct ssdsim_ftl_env *env = &d->env;
    /* SNIA's workload-independent preconditioning writes twice the user capacity. */
    uint64_t written = env->n.c[SSDSIM_CNT_HOST_PAGES] - d->host_units_at_erase;
    uint64_t logical = env->geo.logical_pages;
    if (written < 2 * logical) {
        if (why)
            snprintf(why, len,
                     "the host has written %.2f times the logical capacity since the last "
                     "secure erase, not 2",
                     (double)written / (double)logical);
        return false;
    }
    /* Media without erase (the direct FTL) has no garbage collection: once every unit was
     * written it is in the state that any longer run leaves. */
    if (d->model->flash.cell != SSDSIM__CELL_XPOINT && env->n.erases == d->erases_at_erase) {
        if (why)
            snprintf(why, len,
                     "garbage collection has not started (no block erased since the last secure "
                     "erase; %llu blocks free, GC starts below %u per plane)",
                     (unsigned long long)ssdsim__env_free_blocks(env), env->pol.free_blocks_min);
        return false;
    }
    /* SNIA's fills write every unit. Twice the capacity of random writes does not: with
     * replacement (as fio's jobs together write, each with its own random map) e^-k of the units
     * are still unwritten after k drive writes (13.5% after 2), and the FTL has them as spare
     * space until they are, so the WAF climbs and throughput falls for several drive writes
     * more, slowly enough to meet the rule over a short window. The units never written must be
     * at most 1% of the spare space (about e^-7 of them at op 0.07). An FTL that does not say
     * how many units it maps is judged by the writes alone. */
    if (!by_writes && SSDSIM__HAS_METHOD(env->ops, ssdsim_ftl_ops, mapped_units) &&
        env->geo.op > 0) {
        uint64_t mapped = env->ops->mapped_units(env->state);
        double unmapped = mapped < logical ? (double)(logical - mapped) : 0;
        double spare = env->geo.op * (double)logical;
        if (unmapped > 0.01 * spare) {
            if (why)
                snprintf(why, len,
                         "%.2f%% of the logical units unwritten since the secure erase, %.0f%% of "
                         "the spare space (at most 1%% may be; random writes leave e^-k after k "
                         "drive writes)",
                         100 * unmapped / (double)logical, 100 * unmapped / spare);
            return false;
        }
    }
    return true;
}

void ssdsim__dev_reset(struct ssdsim__dev *d, uint64_t now)
{
    if (d->cpu.n_threads)
        ssdsim__cpu_reset(&d->cpu, now);
    if (d->fw == &d->disk_fw)
        ssdsim__ctrl_reset(&d->disk_fw, now);
    d->installed = false;
    if (d->ssd) {
        d->erases_at_erase = d->env.n.erases;
        d->host_units_at_erase = d->env.n.c[SSDSIM_CNT_HOST_PAGES];
        ssdsim__hw_reset_timelines(&d->hw, now);
        if (d->buf)
            ssdsim__buf_reset(d->buf);
        if (d->ra)
            ssdsim__ra_reset(d->ra);
        if (d->zns)
            ssdsim__zns_reset(d->zns);
    } else {
        ssdsim__hdd_reset(&d->hdd, now);
    }
}

int ssdsim__dev_check(struct ssdsim__dev *d, char *why, size_t len)
{
    if (!d->ssd)
        return 0;
    uint64_t absorbed = 0, hits = 0;
    ssdsim__buf_counters(d->buf, &absorbed, &hits);
    int rc = d->buf ? ssdsim__buf_check(d->buf, why, len) : 0;
    if (!rc && d->ra)
        rc = ssdsim__ra_check(d->ra, why, len);
    if (!rc)
        rc = ssdsim__env_check(&d->env, absorbed, why, len);
    return rc;
}
