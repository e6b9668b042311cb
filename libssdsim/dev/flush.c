/* flush.c: the Flush command and Force Unit Access writes at one device.
 *
 * A flush (NVMe Flush, SCSI SYNCHRONIZE CACHE, ATA FLUSH CACHE) commits to non-volatile media
 * the data of every write the device acknowledged before it. Only a volatile write cache holds
 * such data: a write buffer that acknowledges writes from DRAM (buffer.write_cache) without
 * power-loss protection (buffer.plp). Without one a flush completes as soon as it reaches the
 * back end, after the command overheads of the front end (dev.c, admit).
 *
 * With a volatile cache the flush waits for its barrier: the units dirty or being flushed when
 * it arrived. Each unit the buffer makes dirty gets a stamp (increasing); a flush that arrives
 * when the next stamp is B and N units are unclean waits until N units stamped below B have
 * left the buffer for good (ssdsim__flush_unit_clean: programmed, trimmed, or superseded by a
 * FUA write). It also makes the buffer flush everything dirty at once, as an idle flush does
 * (ssdsim__buf_flush_all): units written after the flush may go to flash with it, but the flush
 * never waits for them. A unit written again while dirty keeps its stamp (the newer data goes
 * to flash in its place); one written again while being flushed starts a new dirty life with a
 * new stamp once that program ends, and the flush waits only for the program.
 *
 * A FUA write with a volatile cache bypasses the buffer: its units go to the FTL at once and the
 * write completes when they are programmed (the write-through path of dev.c). Any copy of those
 * units still dirty in the buffer is dropped first, so an older copy never reaches the flash
 * after the newer one (ssdsim__buf_supersede). A protected cache acknowledges a FUA write from
 * DRAM like any write: its data is already safe from power loss.
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

struct ssdsim__flushq {
    struct pending *v;
    uint32_t n, cap;
};

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
    if (unclean == 0) {
        done_now(d, cmd);
        return;
    }
    struct ssdsim__flushq *q = d->flushq;
    if (!q) {
        q = d->flushq = calloc(1, sizeof *q);
        if (!q)
            goto oom;
    }
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

void ssdsim__flush_unit_clean(struct ssdsim__dev *d, uint64_t stamp)
{
    struct ssdsim__flushq *q = d->flushq;
    if (!q || q->n == 0)
        return;
    for (uint32_t k = 0; k < q->n; k++)
        if (stamp < q->v[k].barrier)
            q->v[k].remaining--;
    /* Complete those done, one at a time: a completion may bring another flush in. */
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

void ssdsim__flush_fua_drop(struct ssdsim__dev *d, uint32_t cmd)
{
    const struct ssdsim__cmd *c = &d->pool->v[cmd];
    uint64_t first = ssdsim__dev_unit_of(d, c->offset);
    uint64_t last = ssdsim__dev_unit_of(d, c->offset + c->len - 1);
    for (uint64_t u = first; u <= last; u++)
        ssdsim__buf_supersede(d->buf, u);
}

void ssdsim__flush_free(struct ssdsim__dev *d)
{
    if (d->flushq)
        free(d->flushq->v);
    free(d->flushq);
    d->flushq = NULL;
}
