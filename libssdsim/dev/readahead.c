/* readahead.c: the SSD controller's read-ahead (model keys read_ahead.*): sequential streams
 * are detected among the host's reads, and the next window of each is read from flash into
 * controller DRAM before the host asks, so that its reads are served at DRAM speed.
 *
 * Detection: a table of read_ahead.streams streams, each the unit where its next read would
 * start and the number of reads in a row that started exactly there. A read command that starts
 * where a stream expects continues it; any other read starts a new stream in the least recently
 * used entry (one whose reads are still waiting on its data is never replaced). Once a stream
 * has read_ahead.trigger reads in a row, every further read of it keeps the window (the
 * read_ahead.window / mapping-unit units after the end of the read) prefetched: each unit not
 * yet asked for is read from flash as a host read would be (the same queue on its die, the same
 * transfer over its channel, counted in flash_pages_read) and held in DRAM. Units the FTL has
 * never mapped are not read.
 *
 * Hits: a host unit read whose unit a stream holds is served from DRAM: a copy at buffer.dram_bw
 * on the write buffer's DRAM timeline, then the link, after the command overheads every read
 * pays. A unit still being prefetched is served when its flash read ends (one host read may wait
 * on each unit; a second reads from flash). Each unit served counts as a hit.
 *
 * Waste: a prefetched unit dropped before any host read used it (its stream replaced, its slot
 * needed by the window moving on, or its data overwritten or trimmed) counts as wasted. Units
 * still held when the measurement ends are neither (prefetched = hits + wasted + held).
 *
 * Memory: each stream owns a ring of window slots (unit u in slot u mod window), so the
 * read-ahead DRAM is streams x window bytes, beside the write buffer (whose DRAM bandwidth it
 * shares). A lookup tries the one slot of each stream: O(streams) per host unit read. Nothing is
 * allocated after set-up.
 *
 * The unit id of a prefetch read is SSDSIM__DEV_RA_TAG | sequence << 24 | slot: the sequence
 * (6 bits) changes each time a slot is given a new read, so the completion of a read whose
 * slot was dropped meanwhile is recognised and ignored.
 */
#include "dev/dev.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NONE SSDSIM__NONE

enum { EMPTY = 0, INFLIGHT = 1, READY = 2 };

struct slot {
    uint64_t unit;
    uint32_t waiter; /* the command waiting for this unit's flash read, or NONE */
    uint32_t wbytes; /* the bytes it asked of the unit */
    uint8_t state;
    uint8_t seq;
    bool used;  /* a host read was served from it */
    bool stale; /* written or trimmed while a host read waited on it: dropped once served */
};

struct stream {
    uint64_t next;   /* unit where its next read would start */
    uint64_t hi;     /* one past the last unit given a slot (0: none) */
    uint64_t used;   /* LRU clock of its last read */
    uint32_t run;    /* reads in a row that continued it (0: entry unused) */
    uint32_t n_wait; /* host reads waiting on its slots */
    struct slot *slots;
};

struct ssdsim__ra {
    struct ssdsim__dev *d;
    uint32_t n_streams, window, trigger;
    uint64_t n_units; /* logical units of the device */
    uint64_t clock;
    struct stream *s;
    struct slot *slots; /* n_streams x window */
    struct stream *cur; /* the stream of the read command being dispatched, or NULL */
};

int ssdsim__ra_new(struct ssdsim__ra **out, struct ssdsim__dev *d)
{
    const struct ssdsim__readahead_cfg *cfg = &d->model->read_ahead;
    struct ssdsim__ra *ra = calloc(1, sizeof *ra);
    if (!ra)
        return SSDSIM_ENOMEM;
    ra->d = d;
    ra->n_streams = cfg->streams;
    ra->window = (uint32_t)(cfg->window / d->unit);
    ra->trigger = cfg->trigger;
    ra->n_units = d->env.geo.logical_pages;
    ra->s = calloc(ra->n_streams, sizeof *ra->s);
    ra->slots = calloc((size_t)ra->n_streams * ra->window, sizeof *ra->slots);
    if (!ra->s || !ra->slots) {
        ssdsim__ra_free(ra);
        return SSDSIM_ENOMEM;
    }
    for (uint32_t k = 0; k < ra->n_streams; k++)
        ra->s[k].slots = &ra->slots[(size_t)k * ra->window];
    ssdsim__ra_reset(ra);
    *out = ra;
    return 0;
}

void ssdsim__ra_free(struct ssdsim__ra *ra)
{
    if (!ra)
        return;
    free(ra->s);
    free(ra->slots);
    free(ra);
}

void ssdsim__ra_reset(struct ssdsim__ra *ra)
{
    for (uint32_t k = 0; k < ra->n_streams; k++) {
        struct stream *s = &ra->s[k];
        s->next = s->hi = s->used = 0;
        s->run = s->n_wait = 0;
        for (uint32_t j = 0; j < ra->window; j++) {
            struct slot *sl = &s->slots[j];
            uint8_t seq = (uint8_t)(sl->seq + 1); /* reads in flight are forgotten */
            memset(sl, 0, sizeof *sl);
            sl->seq = seq;
            sl->unit = UINT64_MAX;
            sl->waiter = NONE;
        }
    }
    ra->cur = NULL;
}

static void count(struct ssdsim__ra *ra, ssdsim_ftl_counter c, uint64_t n)
{
    ssdsim_ftl_count(&ra->d->env, c, n);
}

/* Forget what slot sl holds (no host read waits on it): wasted if no host read used it. */
static void drop(struct ssdsim__ra *ra, struct slot *sl)
{
    if (sl->state == EMPTY)
        return;
    if (!sl->used)
        count(ra, SSDSIM_CNT_RA_WASTED, 1);
    sl->state = EMPTY;
    sl->seq++; /* a read in flight for it is ignored when it ends */
    sl->unit = UINT64_MAX;
}

/* Serve `bytes` of slot sl's unit to command `cmd` from DRAM, now. */
static void serve(struct ssdsim__ra *ra, uint32_t cmd, uint32_t bytes)
{
    struct ssdsim__dev *d = ra->d;
    uint64_t ready = ssdsim__buf_dram_copy(d->buf, bytes);
    uint64_t end = ssdsim__dev_xfer(d, cmd, SSDSIM__LINK_UP, ready, bytes);
    ssdsim__dev_cmd_unit_done(d, cmd, end);
}

void ssdsim__ra_cmd(struct ssdsim__ra *ra, uint64_t first, uint64_t last)
{
    struct stream *s = NULL, *lru = NULL;
    for (uint32_t k = 0; k < ra->n_streams; k++) {
        struct stream *t = &ra->s[k];
        if (t->run > 0 && t->next == first) {
            s = t;
            break;
        }
        if (t->n_wait == 0 && (!lru || t->used < lru->used))
            lru = t;
    }
    ra->clock++;
    if (s) {
        s->run++;
    } else if (lru) {
        /* a new stream replaces the least recently used one: what it held is dropped */
        s = lru;
        if (s->hi) /* a stream that never prefetched holds nothing (every unit held is below hi) */
            for (uint32_t j = 0; j < ra->window; j++)
                drop(ra, &s->slots[j]);
        s->run = 1;
        s->hi = 0;
    }
    ra->cur = s;
    if (s) {
        s->next = last + 1;
        s->used = ra->clock;
    }
}

bool ssdsim__ra_read(struct ssdsim__ra *ra, uint32_t cmd, uint64_t u, uint32_t bytes)
{
    for (uint32_t k = 0; k < ra->n_streams; k++) {
        struct stream *s = &ra->s[k];
        if (u >= s->hi)
            continue; /* every unit a stream holds is below its hi: no need to look */
        struct slot *sl = &s->slots[u % ra->window];
        if (sl->unit != u || sl->state == EMPTY || sl->stale)
            continue;
        if (sl->state == INFLIGHT) {
            if (sl->waiter != NONE)
                return false; /* one waiter per unit: this read goes to flash */
            sl->waiter = cmd;
            sl->wbytes = bytes;
            s->n_wait++;
        } else {
            serve(ra, cmd, bytes);
        }
        sl->used = true;
        count(ra, SSDSIM_CNT_RA_HITS, 1);
        return true;
    }
    return false;
}

void ssdsim__ra_after(struct ssdsim__ra *ra)
{
    struct stream *s = ra->cur;
    ra->cur = NULL;
    if (!s || s->run < ra->trigger)
        return;
    struct ssdsim__dev *d = ra->d;
    const ssdsim_ftl_ops *ops = d->env.ops;
    if (s->next > s->hi) {
        /* the stream jumped past what it held (its first prefetch, or a read longer than the
         * window): what it held behind the read is not read ahead any more */
        for (uint32_t j = 0; j < ra->window; j++) {
            struct slot *sl = &s->slots[j];
            if (sl->state != EMPTY && sl->unit < s->next && sl->waiter == NONE)
                drop(ra, sl);
        }
    }
    uint64_t u = SSDSIM__MAX(s->hi, s->next);
    uint64_t end = SSDSIM__MIN(s->next + ra->window, ra->n_units);
    for (; u < end; u++) {
        uint32_t j = (uint32_t)(u % ra->window);
        struct slot *sl = &s->slots[j];
        if (sl->waiter != NONE)
            break; /* a host read still waits on the unit a window back: not yet */
        drop(ra, sl);
        if (ops->lookup && ops->lookup(d->env.state, u) == UINT64_MAX)
            continue; /* never written or trimmed: nothing to read */
        sl->unit = u;
        sl->state = INFLIGHT;
        sl->used = sl->stale = false;
        uint32_t idx = (uint32_t)((s - ra->s) * ra->window + j);
        uint32_t id = SSDSIM__DEV_RA_TAG | (uint32_t)(sl->seq & 0x3f) << 24 | idx;
        count(ra, SSDSIM_CNT_RA_UNITS, 1);
        int rc = ops->read(d->env.state, id, u, d->unit);
        if (rc) {
            ssdsim_ftl_fail(&d->env, rc, "read-ahead: the FTL refused a prefetch read");
            ssdsim__engine_stop(d->engine);
            return;
        }
    }
    s->hi = u;
}

void ssdsim__ra_drop(struct ssdsim__ra *ra, uint64_t first, uint64_t last)
{
    for (uint32_t k = 0; k < ra->n_streams; k++) {
        struct stream *s = &ra->s[k];
        if (s->hi == 0 || first >= s->hi)
            continue; /* nothing at or above `first` was ever given a slot */
        /* every unit of [first, last] has one slot it can be in (a write longer than the
         * window tries each slot once) */
        uint64_t hi = SSDSIM__MIN(last, first + ra->window - 1);
        for (uint64_t v = first; v <= hi; v++) {
            struct slot *sl = &s->slots[v % ra->window];
            if (sl->state == EMPTY || sl->unit < first || sl->unit > last)
                continue;
            if (sl->waiter != NONE)
                sl->stale = true; /* the read that waits came first: it gets the old data */
            else
                drop(ra, sl);
        }
    }
}

bool ssdsim__ra_flash_done(struct ssdsim__ra *ra, uint32_t id)
{
    uint32_t idx = id & 0xffffffu;
    if (idx >= (uint64_t)ra->n_streams * ra->window)
        return false;
    struct stream *s = &ra->s[idx / ra->window];
    struct slot *sl = &ra->slots[idx];
    if (sl->state != INFLIGHT || (sl->seq & 0x3f) != ((id >> 24) & 0x3f))
        return true; /* dropped while its read was in flight */
    sl->state = READY;
    if (sl->waiter != NONE) {
        uint32_t cmd = sl->waiter;
        sl->waiter = NONE;
        s->n_wait--;
        serve(ra, cmd, sl->wbytes);
        if (sl->stale) {
            sl->stale = false;
            drop(ra, sl);
        }
    }
    return true;
}

int ssdsim__ra_check(const struct ssdsim__ra *ra, char *why, size_t len)
{
    for (uint32_t k = 0; k < ra->n_streams; k++) {
        const struct stream *s = &ra->s[k];
        uint32_t waiting = 0;
        for (uint32_t j = 0; j < ra->window; j++) {
            const struct slot *sl = &s->slots[j];
            if (sl->waiter != NONE) {
                waiting++;
                if (sl->state != INFLIGHT) {
                    snprintf(why, len,
                             "read-ahead stream %u slot %u: a host read waits on a "
                             "unit that is not being read",
                             k, j);
                    return SSDSIM_ESTATE;
                }
            }
            if (sl->state == EMPTY)
                continue;
            if (sl->unit % ra->window != j || sl->unit >= s->hi) {
                snprintf(why, len,
                         "read-ahead stream %u slot %u holds unit %llu, not its slot's or "
                         "beyond what the stream prefetched (below %llu, %u units a window)",
                         k, j, (unsigned long long)sl->unit, (unsigned long long)s->hi, ra->window);
                return SSDSIM_ESTATE;
            }
        }
        if (waiting != s->n_wait) {
            snprintf(why, len,
                     "read-ahead stream %u: %u host reads wait on its slots; it counts %u", k,
                     waiting, s->n_wait);
            return SSDSIM_ESTATE;
        }
    }
    return 0;
}
