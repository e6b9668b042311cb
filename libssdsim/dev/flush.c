/* flush.c: the Flush command and Force Unit Access writes at one device.
 *
 * A flush (NVMe Flush, SCSI SYNCHRONIZE CACHE, ATA FLUSH CACHE) commits to non-volatile media
 * the data of every write the device acknowledged before it. Only a volatile write cache holds
 * such data: a write buffer that acknowledges writes from DRAM (buffer.write_cache) without
 * power-loss protection (buffer.plp). Without one a flush completes as soon as it reaches the
 * back end, after the command overheads of the front end (dev.c, admit).
 *
 * With a volatile cache the flush waits for its barrier: the copies not yet on flash when it
 * arrived. Each copy the buffer takes gets a stamp (increasing): a unit made dirty, and a copy
 * written again behind a unit's flush, when it is written (not when its own flush begins); a
 * flush that arrives when the next stamp is B and N copies are unclean waits until N copies
 * stamped below B are clean (ssdsim__flush_unit_clean: programmed or trimmed). It also makes
 * the buffer flush everything dirty at once, as an idle flush does (ssdsim__buf_flush_all),
 * and the copies written behind running flushes once those end: units written after the flush
 * may go to flash with it, but the flush never waits for them. A unit written again while dirty
 * keeps its stamp (the newer data goes to flash in its place); one written again while being
 * flushed has two copies, the one being programmed and the newer one, and a flush that arrives
 * after both waits for both programs.
 *
 * A FUA write with a volatile cache bypasses the buffer: its units go to the FTL at once and the
 * write completes when they are programmed (the write-through path of dev.c). Any copy of those
 * units not yet on its way to flash is dropped first, so an older copy never reaches the flash
 * after the newer one (ssdsim__buf_supersede). The dropped copy is not clean: the FUA write's
 * data stands for it, so the flushes waiting for it, and those arriving before the FUA write
 * ends, wait for the FUA write's programs (ssdsim__flush_hand, ssdsim__flush_fua_done: the
 * obligation is handed to the FUA command and counts as unclean until it is programmed). A
 * protected cache acknowledges a FUA write from DRAM like any write: its data is already safe
 * from power loss.
 *
 * Hard disks: a flush costs the command overheads only and FUA is a plain write (the disk's
 * cache is not drained); doc/models.md says so.
 */
#include "dev/dev.h"

#include <stdlib.h>

struct pending {
    uint32_t cmd;
    uint32_t remaining; /* units stamped below barrier not yet clean */
    uint64_t barrier;
};

/* A buffered copy dropped for a FUA write's newer data (ssdsim__flush_hand). */
struct handed {
    uint32_t cmd;
    uint64_t stamp;
};

/* Flush commands waiting, and copies handed to FUA writes in flight: two arrays that grow to
 * their peak (a few entries: flushes and FUA writes over dirty units are rare next to writes),
 * searched linearly. */
struct ssdsim__flushq {
    struct pending *v;
    uint32_t n, cap;
    struct handed *h;
    uint32_t n_h, cap_h;
};

static struct ssdsim__flushq *flushq(struct ssdsim__dev *d)
{
    if (!d->flushq)
        d->flushq = calloc(1, sizeof *d->flushq);
    return d->flushq;
}

bool ssdsim__dev_volatile_cache(const struct ssdsim__dev *d)
{
    return d->ssd && d->buf && d->model->buffer.write_cache && !d->model->buffer.plp;
}

static void done_now(struct ssdsim__dev *d, uint32_t cmd)
{
    ssdsim__dev_cmd_unit_done(d, cmd, ssdsim__engine_now(d->engine));
}

void ssdsim__flush_arrive(struct ssdsim__dev *d, uint32_t cmd)
{
    struct ssdsim__cmd *c = &d->pool->v[cmd];
    c->pending = 1;
    uint32_t unclean = ssdsim__dev_volatile_cache(d) ? ssdsim__buf_unclean(d->buf) : 0;
    if (d->flushq)
        unclean += d->flushq->n_h;
    if (unclean == 0) {
        done_now(d, cmd);
        return;
    }
    struct ssdsim__flushq *q = flushq(d);
    if (!q)
        goto oom;
    if (q->n == q->cap) {
        uint32_t ncap = q->cap ? q->cap * 2 : 8;
        struct pending *v = realloc(q->v, sizeof *v * ncap);
        if (!v)
            goto oom;
        q->v = v;
        q->cap = ncap;
    }
    q->v[q->n++] = (struct pending){cmd, unclean, ssdsim__buf_stamp(d->buf)};
    ssdsim__buf_flush_all(d->buf);
    return;
oom:
    ssdsim_ftl_fail(&d->env, SSDSIM_ENOMEM, "out of memory queueing a flush");
    ssdsim__engine_stop(d->engine);
}

/* The copy stamped `stamp` is on flash: the flushes that wait for it count it. */
static void count_clean(struct ssdsim__flushq *q, uint64_t stamp)
{
    for (uint32_t k = 0; k < q->n; k++)
        if (stamp < q->v[k].barrier)
            q->v[k].remaining--;
}

/* Complete the flushes no longer waiting, one at a time: a completion may bring another flush
 * in. */
static void complete_ready(struct ssdsim__dev *d)
{
    struct ssdsim__flushq *q = d->flushq;
    for (uint32_t k = 0; k < q->n;) {
        if (q->v[k].remaining > 0) {
            k++;
            continue;
        }
        uint32_t cmd = q->v[k].cmd;
        q->v[k] = q->v[--q->n]; /* order does not matter: each waits for its own units */
        done_now(d, cmd);
        k = 0;
    }
}

void ssdsim__flush_unit_clean(struct ssdsim__dev *d, uint64_t stamp)
{
    struct ssdsim__flushq *q = d->flushq;
    if (!q || q->n == 0)
        return;
    count_clean(q, stamp);
    complete_ready(d);
}

void ssdsim__flush_hand(struct ssdsim__dev *d, uint32_t cmd, uint64_t stamp)
{
    struct ssdsim__flushq *q = flushq(d);
    if (q && q->n_h == q->cap_h) {
        uint32_t ncap = q->cap_h ? q->cap_h * 2 : 8;
        struct handed *h = realloc(q->h, sizeof *h * ncap);
        if (h) {
            q->h = h;
            q->cap_h = ncap;
        }
    }
    if (!q || q->n_h == q->cap_h) {
        ssdsim_ftl_fail(&d->env, SSDSIM_ENOMEM, "out of memory handing a flush to a FUA write");
        ssdsim__engine_stop(d->engine);
        return;
    }
    q->h[q->n_h++] = (struct handed){cmd, stamp};
}

void ssdsim__flush_fua_done(struct ssdsim__dev *d, uint32_t cmd)
{
    /* Take all of cmd's copies off first and only then complete flushes: a completion may
     * bring in another FUA write that reuses a freed index. */
    struct ssdsim__flushq *q = d->flushq;
    bool any = false;
    for (uint32_t k = 0; k < q->n_h;) {
        if (q->h[k].cmd != cmd) {
            k++;
            continue;
        }
        count_clean(q, q->h[k].stamp);
        q->h[k] = q->h[--q->n_h];
        any = true;
    }
    if (any)
        complete_ready(d);
}

void ssdsim__flush_fua_drop(struct ssdsim__dev *d, uint32_t cmd)
{
    const struct ssdsim__cmd *c = &d->pool->v[cmd];
    uint64_t first = ssdsim__dev_unit_of(d, c->offset);
    uint64_t last = ssdsim__dev_unit_of(d, c->offset + c->len - 1);
    for (uint64_t u = first; u <= last; u++)
        ssdsim__buf_supersede(d->buf, u, cmd);
}

void ssdsim__flush_free(struct ssdsim__dev *d)
{
    if (d->flushq) {
        free(d->flushq->v);
        free(d->flushq->h);
    }
    free(d->flushq);
    d->flushq = NULL;
}
