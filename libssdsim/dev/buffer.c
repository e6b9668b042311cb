/* buffer.c: the controller's DRAM write buffer.
 *
 * The buffer holds up to size / mapping_unit units of write data. A write that reaches the
 * device (after its data crossed the host link) is copied into the buffer unit by unit, and each
 * unit is acknowledged when its copy ends (one FCFS DRAM timeline at buffer.dram_bw). That is
 * what lets a drive acknowledge a write faster than it can read: the flash program comes later.
 * When the buffer has no free slot, the unit waits (and with it its command, and the commands
 * behind it, in order) until a flush frees one.
 *
 * Flushing writes dirty units to the FTL oldest first, as the device's own writes. It starts
 * when the dirty units exceed flush_start x capacity and goes on until they are at or below
 * flush_stop x capacity, at most flush_depth units at a time (default: a page's worth per
 * plane, enough to keep every plane programming); after the device is idle for flush_idle_us
 * everything dirty is flushed. A slot is free again when its program is done. With units
 * smaller than the page, a page's worth is begun only with a page's worth dirty unless
 * something forces the units out (flush_more): a write-back cache need not program a lone unit
 * padded.
 *
 * A write to a unit that is dirty and not yet being flushed overwrites it in DRAM: the flash
 * never sees the older copy (it counts as a host page written, so write amplification stays
 * flash programs / host pages and can fall below 1). A write to a unit being flushed makes it
 * dirty again once that flush ends (a flush command waits for both copies, dev/flush.c). Reads
 * of a unit in the buffer (dirty or being flushed) are served from DRAM with read_hits. Trims
 * drop dirty units.
 *
 * Only power-loss-protected buffers, and volatile ones with the write cache on, acknowledge
 * from DRAM; with the volatile cache off the device writes through to flash (dev.c never calls
 * ssdsim__buf_write then) and the buffer only serves read hits of nothing: it stays empty.
 *
 * With Flexible Data Placement each unit keeps the placement id of the write whose data it
 * holds (a write of a dirty unit with another id takes the new id, and so does the copy written
 * again behind a flush), and its flush hands the FTL that id, so its data lands in the
 * handle's reclaim units as a written-through write would. An absorbed unit counts as a host
 * unit of the handle it was written with (ssdsim_get_fdp_stats), as it counts as a host page.
 *
 * Units are found through an open-addressing hash table (linear probing, backward-shift
 * deletion) of twice the slots, each entry a slot and its unit's hash, so that probing and
 * shifting read the table alone (a slot is read only when the hash matches); the dirty units
 * form a doubly linked FIFO through the slot array. Nothing is allocated after the buffer is
 * built except the queue of waiting commands, which grows to its peak.
 */
#include "dev/dev.h"

#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "workload/gen.h"

#define NONE SSDSIM__NONE

enum slot_state { S_FREE = 0, S_DIRTY = 1, S_FLUSHING = 2 };

struct slot {
    uint64_t lpn;
    uint32_t bytes; /* bytes of the unit it holds (a partial unit pays its read-modify-write at
                       the flush, in the FTL) */
    uint32_t prev, next; /* dirty FIFO, or the free list (next) */
    uint8_t state;
    bool redirty; /* written again while being flushed */
    uint8_t placement, redirty_placement; /* FDP placement id of its data, and of the copy
                                             written again behind a flush */
    uint64_t stamp; /* when its dirty life began (dev/flush.c) */
    uint64_t redirty_stamp; /* the copy written again behind a flush: when it was written */
    uint32_t redirty_bytes;
    /* the host write whose data it holds last (the redirty copy's, while being flushed): its
     * sequence number in this buffer, offset and length, for the list a power loss makes
     * (rel/power.c) */
    uint64_t w_seq, w_off;
    uint32_t w_len;
};

struct waiter {
    uint32_t cmd;
    uint64_t next_unit; /* first unit of the command not yet placed */
    uint64_t seq;       /* the write's sequence number (struct slot's w_seq) */
};

struct ssdsim__buf {
    struct ssdsim__dev *d;
    const struct ssdsim__buffer_cfg *cfg;
    uint32_t cap;   /* slots */
    struct slot *slots;
    uint32_t free_head;
    struct entry {
        uint32_t slot; /* or NONE */
        uint32_t hash; /* full_hash of the slot's unit */
    } *table;
    uint32_t mask;
    uint32_t fifo_head, fifo_tail;
    uint32_t n_dirty, n_flushing;
    uint32_t n_redirty; /* slots being flushed with a copy written again behind the flush */
    uint64_t n_issued; /* units flushed so far */
    uint32_t grp;      /* units issued of the page's worth being flushed (below hw.spp) */
    uint32_t start_at, stop_at, depth;
    bool flushing_mode;
    uint64_t dram_free;
    /* commands waiting for a slot, in order (a ring) */
    struct waiter *wait;
    uint32_t wait_cap, wait_head, wait_n;
    /* idle flush */
    ssdsim__event_id idle_timer;
    bool idle_flush;
    /* counters */
    uint64_t absorbed, read_hits;
    uint64_t next_stamp; /* of the next unit made dirty (dev/flush.c) */
    uint64_t next_seq;   /* of the next host write placed */
};

/* The copy stamped `stamp` (a dirty or flushing unit, or a copy written again behind a flush)
 * left the buffer for good: pending flush commands hear. */
static inline void clean(struct ssdsim__buf *b, uint64_t stamp)
{
    if (b->d->flushq)
        ssdsim__flush_unit_clean(b->d, stamp);
}

uint64_t ssdsim__buf_stamp(const struct ssdsim__buf *b)
{
    return b->next_stamp;
}

uint32_t ssdsim__buf_unclean(const struct ssdsim__buf *b)
{
    return b->n_dirty + b->n_flushing + b->n_redirty;
}

/* A unit's hash; its home in the table is hash & mask. */
static inline uint32_t full_hash(uint64_t lpn)
{
    return (uint32_t)((lpn * 0x9e3779b97f4a7c15ULL) >> 32);
}

static uint32_t find(const struct ssdsim__buf *b, uint64_t lpn)
{
    uint32_t hh = full_hash(lpn);
    for (uint32_t h = hh & b->mask;; h = (h + 1) & b->mask) {
        struct entry e = b->table[h];
        if (e.slot == NONE)
            return NONE;
        if (e.hash == hh && b->slots[e.slot].lpn == lpn)
            return e.slot;
    }
}

static void table_insert(struct ssdsim__buf *b, uint32_t s)
{
    uint32_t hh = full_hash(b->slots[s].lpn), h = hh & b->mask;
    while (b->table[h].slot != NONE)
        h = (h + 1) & b->mask;
    b->table[h] = (struct entry){s, hh};
}

/* Remove slot s from the table, shifting back the entries of its probe run. */
static void table_remove(struct ssdsim__buf *b, uint32_t s)
{
    uint32_t h = full_hash(b->slots[s].lpn) & b->mask;
    while (b->table[h].slot != s)
        h = (h + 1) & b->mask;
    uint32_t hole = h;
    for (uint32_t j = (hole + 1) & b->mask; b->table[j].slot != NONE; j = (j + 1) & b->mask) {
        uint32_t home = b->table[j].hash & b->mask;
        /* the entry at j may move to the hole when its home is not in (hole, j] */
        bool between = hole <= j ? (home > hole && home <= j) : (home > hole || home <= j);
        if (!between) {
            b->table[hole] = b->table[j];
            hole = j;
        }
    }
    b->table[hole].slot = NONE;
}

static void fifo_push(struct ssdsim__buf *b, uint32_t s)
{
    struct slot *sl = &b->slots[s];
    sl->next = NONE;
    sl->prev = b->fifo_tail;
    if (b->fifo_tail == NONE)
        b->fifo_head = s;
    else
        b->slots[b->fifo_tail].next = s;
    b->fifo_tail = s;
}

static void fifo_unlink(struct ssdsim__buf *b, uint32_t s)
{
    struct slot *sl = &b->slots[s];
    if (sl->prev == NONE)
        b->fifo_head = sl->next;
    else
        b->slots[sl->prev].next = sl->next;
    if (sl->next == NONE)
        b->fifo_tail = sl->prev;
    else
        b->slots[sl->next].prev = sl->prev;
}

static void slot_free(struct ssdsim__buf *b, uint32_t s)
{
    table_remove(b, s);
    b->slots[s].state = S_FREE;
    b->slots[s].next = b->free_head;
    b->free_head = s;
}

int ssdsim__buf_new(struct ssdsim__buf **out, struct ssdsim__dev *d)
{
    struct ssdsim__buf *b = calloc(1, sizeof *b);
    if (!b)
        return SSDSIM_ENOMEM;
    const struct ssdsim__buffer_cfg *cfg = &d->model->buffer;
    b->d = d;
    b->cfg = cfg;
    uint64_t cap = cfg->size / d->unit;
    /* The loader refuses more (check_cross in model.c). */
    b->cap = cap > SSDSIM__BUFFER_MAX_UNITS ? SSDSIM__BUFFER_MAX_UNITS : (uint32_t)cap;
    uint32_t tsize = 16;
    while (tsize < 2 * b->cap)
        tsize *= 2;
    b->mask = tsize - 1;
    b->slots = calloc(b->cap, sizeof *b->slots);
    b->table = malloc(sizeof *b->table * tsize);
    if (!b->slots || !b->table) {
        ssdsim__buf_free(b);
        return SSDSIM_ENOMEM;
    }
    b->start_at = (uint32_t)(cfg->flush_start * b->cap);
    b->stop_at = (uint32_t)(cfg->flush_stop * b->cap);
    /* By default a page's worth per plane, two with multi-plane or cache program: a die that
     * starts a program finds the next pages it can take at hand (its other planes' for a
     * multi-plane program, the next one for its cache register), as a controller keeps them
     * buffered for it; with one a plane, consecutive flushes stripe over the dies and a die
     * rarely has more than one to start with, so neither operation would ever overlap. */
    const struct ssdsim__flash *fl = &d->model->flash;
    uint32_t per_plane = fl->multiplane || fl->cache_program ? 2 : 1;
    b->depth = cfg->flush_depth ? cfg->flush_depth : d->hw.n_planes * d->hw.spp * per_plane;
    ssdsim__buf_reset(b);
    *out = b;
    return 0;
}

void ssdsim__buf_free(struct ssdsim__buf *b)
{
    if (!b)
        return;
    free(b->slots);
    free(b->table);
    free(b->wait);
    free(b);
}

void ssdsim__buf_reset(struct ssdsim__buf *b)
{
    for (uint32_t i = 0; i <= b->mask; i++)
        b->table[i].slot = NONE;
    for (uint32_t s = 0; s < b->cap; s++) {
        b->slots[s].state = S_FREE;
        b->slots[s].next = s + 1 < b->cap ? s + 1 : NONE;
    }
    b->free_head = b->cap ? 0 : NONE;
    b->fifo_head = b->fifo_tail = NONE;
    b->n_dirty = b->n_flushing = b->n_redirty = 0;
    b->n_issued = 0;
    b->grp = 0;
    b->flushing_mode = b->idle_flush = false;
    b->dram_free = ssdsim__engine_now(b->d->engine);
    b->wait_head = b->wait_n = 0;
    ssdsim__engine_cancel(b->d->engine, b->idle_timer);
    b->idle_timer = 0;
}

void ssdsim__buf_counters(const struct ssdsim__buf *b, uint64_t *absorbed_units,
                          uint64_t *read_hits)
{
    *absorbed_units = b ? b->absorbed : 0;
    *read_hits = b ? b->read_hits : 0;
}

bool ssdsim__buf_pending(const struct ssdsim__buf *b)
{
    return b->n_dirty > 0 || b->n_flushing > 0;
}

/* The DRAM copy of `bytes` starting no earlier than now: when it ends. */
static uint64_t dram_copy(struct ssdsim__buf *b, uint32_t bytes)
{
    uint64_t now = ssdsim__engine_now(b->d->engine);
    uint64_t bw = b->cfg->dram_bytes_per_s;
    uint64_t t = ssdsim__mul_div_up(bytes, SSDSIM__NS_PER_S, bw);
    b->dram_free = SSDSIM__MAX(now, b->dram_free) + (t ? t : 1);
    return b->dram_free;
}

uint64_t ssdsim__buf_dram_copy(struct ssdsim__buf *b, uint32_t bytes)
{
    return dram_copy(b, bytes);
}

/* ------------------------------------------------------------------------------------------ */
/* Flushing                                                                                    */

/* A unit has just left the head of the FIFO for the FTL: the unit two behind it starts loading
 * its mapping now, and the next one's reverse entry (ftl/page.c, page_prefetch), so that both
 * are in cache when their turn comes. */
static inline void prefetch_next(struct ssdsim__buf *b)
{
    struct ssdsim__dev *d = b->d;
    if (d->env.ops->prefetch && b->fifo_head != NONE && b->slots[b->fifo_head].next != NONE)
        d->env.ops->prefetch(d->env.state, b->slots[b->slots[b->fifo_head].next].lpn);
}

/* Units smaller than the page (hw.spp > 1) go to the FTL a page's worth at a time, so that they
 * pack into whole pages (hw/unit.c): flushing stops only between pages' worths, and, unless
 * something needs the units durable or their slots back (an idle flush, a Flush command, a
 * power loss: idle_flush; a full buffer: commands waiting), a page's worth is begun only with
 * a page's worth dirty. A partial one stays dirty in DRAM, where the write-back cache may keep
 * it, instead of reaching the flash alone, where a die with nothing else to do would program
 * it padded. (The buffer counts units, not the FTL's pages: with several open pages to fill,
 * as with FDP handles or ftl.placement "lba", a page's worth can still spread over them.) */
static void flush_more(struct ssdsim__buf *b)
{
    struct ssdsim__dev *d = b->d;
    uint32_t spp = d->hw.spp;
    bool forced = false;
    if (b->n_dirty > b->start_at || b->idle_flush)
        b->flushing_mode = true;
    while (b->flushing_mode && b->n_flushing < b->depth && b->fifo_head != NONE) {
        if (b->grp == 0 && !b->idle_flush) {
            if (b->n_dirty <= b->stop_at) {
                b->flushing_mode = false;
                break;
            }
            if (b->n_dirty < spp && b->wait_n == 0)
                break; /* held back: flushing goes on when a page's worth is dirty */
        }
        forced |= b->idle_flush || b->wait_n > 0;
        b->grp = b->grp + 1 < spp ? b->grp + 1 : 0;
        uint32_t s = b->fifo_head;
        fifo_unlink(b, s);
        struct slot *sl = &b->slots[s];
        sl->state = S_FLUSHING;
        b->n_dirty--;
        b->n_flushing++;
        b->n_issued++;
        d->env.placement = sl->placement;
        prefetch_next(b);
        int rc = d->env.ops->write(d->env.state, s | SSDSIM__DEV_FLUSH_TAG, sl->lpn, sl->bytes);
        if (rc) {
            if (!d->env.fail_code)
                ssdsim_ftl_fail(&d->env, rc, "the FTL failed a write-buffer flush");
            ssdsim__engine_stop(d->engine);
            return;
        }
    }
    if (b->n_dirty == 0) {
        b->flushing_mode = false;
        /* a forced flush's last page's worth may be partial: the die pads that page, and the
         * next page's worth begins a new page */
        if (forced)
            b->grp = 0;
        /* an idle flush or a Flush command also takes the copies written again behind the
         * flushes now running, once those end (ssdsim__buf_flush_done) */
        b->idle_flush = b->idle_flush && b->n_redirty > 0;
    }
}

static void place_waiting(struct ssdsim__buf *b);

bool ssdsim__buf_flush_done(struct ssdsim__buf *b, uint32_t s)
{
    if (s >= b->cap || b->slots[s].state != S_FLUSHING)
        return false;
    struct slot *sl = &b->slots[s];
    b->n_flushing--;
    clean(b, sl->stamp);
    if (sl->redirty) {
        sl->redirty = false;
        b->n_redirty--;
        sl->stamp = sl->redirty_stamp; /* a flush that came after it waits for it */
        sl->bytes = sl->redirty_bytes;
        sl->placement = sl->redirty_placement;
        sl->state = S_DIRTY;
        b->n_dirty++;
        fifo_push(b, s);
    } else {
        slot_free(b, s);
    }
    place_waiting(b);
    flush_more(b);
    return true;
}

void ssdsim__buf_flush_all(struct ssdsim__buf *b)
{
    if (b->n_dirty == 0 && b->n_redirty == 0)
        return;
    b->idle_flush = true;
    flush_more(b);
}

static void idle_event(void *ctx, uint32_t arg)
{
    struct ssdsim__buf *b = ctx;
    (void)arg;
    b->idle_timer = 0;
    if (b->n_dirty == 0)
        return;
    b->idle_flush = true;
    flush_more(b);
}

void ssdsim__buf_busy(struct ssdsim__buf *b, bool busy)
{
    ssdsim__engine_cancel(b->d->engine, b->idle_timer);
    b->idle_timer = 0;
    if (!busy && b->cfg->flush_idle_ns && b->n_dirty > 0)
        b->idle_timer = ssdsim__engine_schedule_cancellable(
            b->d->engine, ssdsim__engine_now(b->d->engine) + b->cfg->flush_idle_ns, idle_event,
            b, 0);
}

/* ------------------------------------------------------------------------------------------ */
/* Host writes, reads and trims                                                                */

/* A host write whose units the buffer places: its sequence number in this buffer (struct slot's
 * w_seq), offset, length and FDP placement id. */
struct writer {
    uint64_t seq, off;
    uint32_t len;
    uint8_t placement;
};

static inline void set_writer(struct slot *sl, const struct writer *w)
{
    sl->w_seq = w->seq;
    sl->w_off = w->off;
    sl->w_len = w->len;
}

/* A copy of a unit written with placement id `pid` never reaches the flash (overwritten or
 * superseded in DRAM): a host page written all the same, and with FDP a host unit of its
 * handle. */
static inline void absorbed(struct ssdsim__buf *b, uint8_t pid)
{
    ssdsim_ftl_count(&b->d->env, SSDSIM_CNT_HOST_PAGES, 1);
    uint32_t handles = b->d->model->fdp.handles;
    if (handles) { /* pid: group x handles + handle (config/fdp_pid.h) */
        ssdsim__env_count(&b->d->env, SSDSIM__CNT_FDP_HOST + pid % handles, 1);
        ssdsim__env_count(&b->d->env, SSDSIM__CNT_FDP_RG_HOST + pid / handles, 1);
    }
    b->absorbed++;
}

/* Place unit u (bytes of it) of write w: false when no slot is free. */
static bool place(struct ssdsim__buf *b, uint64_t u, uint32_t bytes, const struct writer *w)
{
    uint32_t s = find(b, u);
    if (s != NONE) {
        struct slot *sl = &b->slots[s];
        set_writer(sl, w);
        if (sl->state == S_DIRTY) {
            /* the older copy never reaches the flash */
            absorbed(b, sl->placement);
            sl->bytes = bytes == b->d->unit ? bytes : SSDSIM__MAX(sl->bytes, bytes);
            sl->placement = w->placement;
        } else if (sl->redirty) { /* the copy waiting behind the flush is replaced */
            absorbed(b, sl->redirty_placement);
            sl->redirty_bytes =
                bytes == b->d->unit ? bytes : SSDSIM__MAX(sl->redirty_bytes, bytes);
            sl->redirty_placement = w->placement;
        } else { /* being flushed: it is dirty again afterwards (and counted when flushed); its
                  * stamp is taken now, so that a flush arriving from now on waits for it */
            sl->redirty = true;
            sl->redirty_stamp = b->next_stamp++;
            b->n_redirty++;
            sl->redirty_bytes = bytes;
            sl->redirty_placement = w->placement;
        }
        return true;
    }
    if (b->free_head == NONE)
        return false;
    s = b->free_head;
    struct slot *sl = &b->slots[s];
    b->free_head = sl->next;
    sl->lpn = u;
    sl->bytes = bytes;
    sl->placement = w->placement;
    sl->state = S_DIRTY;
    sl->redirty = false;
    sl->stamp = b->next_stamp++;
    set_writer(sl, w);
    table_insert(b, s);
    fifo_push(b, s);
    b->n_dirty++;
    return true;
}

/* Place units of command w from its next one on; true when all are placed. */
static bool place_cmd(struct ssdsim__buf *b, struct waiter *w)
{
    struct ssdsim__dev *d = b->d;
    uint64_t unit = d->unit;
    const struct ssdsim__cmd *c = &d->pool->v[w->cmd];
    uint64_t last = ssdsim__dev_unit_of(d, c->offset + c->len - 1);
    for (; w->next_unit <= last; w->next_unit++) {
        uint64_t u = w->next_unit;
        uint64_t lo = SSDSIM__MAX(c->offset, u * unit);
        uint64_t hi = SSDSIM__MIN(c->offset + c->len, (u + 1) * unit);
        uint32_t bytes = (uint32_t)(hi - lo);
        struct writer wr = {w->seq, c->offset, c->len, c->placement};
        if (!place(b, u, bytes, &wr))
            return false;
        ssdsim__dev_cmd_unit_done(d, w->cmd, dram_copy(b, bytes));
        c = &d->pool->v[w->cmd]; /* unit_done never completes synchronously (copy > now) */
    }
    return true;
}

static void place_waiting(struct ssdsim__buf *b)
{
    while (b->wait_n > 0) {
        struct waiter *w = &b->wait[b->wait_head];
        if (!place_cmd(b, w))
            break;
        b->wait_head = (b->wait_head + 1) % b->wait_cap;
        b->wait_n--;
    }
}

void ssdsim__buf_write(struct ssdsim__buf *b, uint32_t cmd)
{
    struct ssdsim__dev *d = b->d;
    struct ssdsim__cmd *c = &d->pool->v[cmd];
    uint64_t first = ssdsim__dev_unit_of(d, c->offset);
    uint64_t last = ssdsim__dev_unit_of(d, c->offset + c->len - 1);
    c->pending = (uint32_t)(last - first + 1);
    c->buffered = true;
    struct waiter w = {cmd, first, b->next_seq++};
    if (b->wait_n > 0 || !place_cmd(b, &w)) {
        /* behind earlier waiters, or out of slots: wait in order */
        if (b->wait_n == b->wait_cap) {
            uint32_t ncap = b->wait_cap ? b->wait_cap * 2 : 64;
            struct waiter *p = malloc(sizeof *p * ncap);
            if (!p) {
                ssdsim_ftl_fail(&d->env, SSDSIM_ENOMEM, "out of memory in the write buffer");
                ssdsim__engine_stop(d->engine);
                return;
            }
            for (uint32_t k = 0; k < b->wait_n; k++)
                p[k] = b->wait[(b->wait_head + k) % b->wait_cap];
            free(b->wait);
            b->wait = p;
            b->wait_cap = ncap;
            b->wait_head = 0;
        }
        b->wait[(b->wait_head + b->wait_n) % b->wait_cap] = w;
        b->wait_n++;
    }
    flush_more(b);
}

bool ssdsim__buf_read(struct ssdsim__buf *b, uint32_t cmd, uint64_t u, uint32_t bytes)
{
    if (!b->cfg->read_hits || find(b, u) == NONE)
        return false;
    struct ssdsim__dev *d = b->d;
    b->read_hits++;
    uint64_t ready = dram_copy(b, bytes);
    uint64_t end = ssdsim__dev_xfer(d, cmd, SSDSIM__LINK_UP, ready, bytes);
    ssdsim__dev_cmd_unit_done(d, cmd, end);
    return true;
}

/* Drop unit u's copy that is not on its way to flash (a dirty one, or one written again behind
 * a flush). A trim's copy is clean at once; a superseded one (a FUA write's newer data takes
 * its place) is absorbed, and the flushes that wait for it wait for FUA write `fua`'s programs
 * instead (ssdsim__flush_hand), or for nothing when `fua` is NONE (fast-forward, whose write
 * is on flash at once). */
static void drop(struct ssdsim__buf *b, uint64_t u, bool superseded, uint32_t fua)
{
    uint32_t s = find(b, u);
    if (s == NONE)
        return;
    struct slot *sl = &b->slots[s];
    uint64_t stamp;
    if (sl->state == S_DIRTY) {
        if (superseded) /* a copy the flash never sees */
            absorbed(b, sl->placement);
        stamp = sl->stamp;
        fifo_unlink(b, s);
        b->n_dirty--;
        slot_free(b, s);
    } else if (sl->redirty) {
        if (superseded)
            absorbed(b, sl->redirty_placement);
        stamp = sl->redirty_stamp;
        sl->redirty = false;
        b->n_redirty--;
    } else {
        return; /* only the copy being programmed: that program ends as it would */
    }
    if (fua == NONE)
        clean(b, stamp);
    else
        ssdsim__flush_hand(b->d, fua, stamp);
    if (sl->state == S_FREE)
        place_waiting(b);
}

void ssdsim__buf_trim(struct ssdsim__buf *b, uint64_t u)
{
    drop(b, u, false, NONE);
}

void ssdsim__buf_supersede(struct ssdsim__buf *b, uint64_t u, uint32_t cmd)
{
    drop(b, u, true, cmd);
}

/* ------------------------------------------------------------------------------------------ */
/* Fast-forward (fastfwd.c)                                                                    */

bool ssdsim__buf_flushing(const struct ssdsim__buf *b)
{
    return b->n_flushing > 0 || b->wait_n > 0;
}

uint32_t ssdsim__buf_ff_level(const struct ssdsim__buf *b)
{
    /* Saturated, the host writes faster than the flash takes the units the buffer does not
     * absorb (the commands wait for slots, ssdsim__buf_write): each slot a finished program
     * frees is taken at once, so none is free; flush_more issues a unit as each program ends,
     * so `depth` are being flushed; the other cap - depth are dirty. Flushing began when the
     * dirty units first exceeded flush_start x cap (start_at) and would stop only at or below
     * flush_stop x cap (stop_at): at cap - depth above stop_at it never stops. (generic-mlc with
     * 16 MiB, 4 KiB writes at QD32: 3,969 to 4,025 of the 4,096 slots dirty on average at each
     * write, 64 flushing, 0 to 2 free.) Where cap - depth is not above stop_at, flushing stops
     * at stop_at and starts again above start_at (the free slots fill meanwhile), so the dirty
     * count swings between the two: their middle. */
    if (b->cap > b->depth + b->stop_at)
        return b->cap - b->depth;
    uint32_t hi = b->cap ? SSDSIM__MIN(b->start_at + 1, b->cap - 1) : 0;
    return (b->stop_at + hi) / 2;
}

uint64_t ssdsim__buf_ff_seq(struct ssdsim__buf *b)
{
    return b->next_seq++;
}

void ssdsim__buf_ff_place(struct ssdsim__buf *b, uint64_t u, uint32_t bytes, uint8_t placement,
                          uint64_t seq, uint64_t off, uint32_t len)
{
    struct writer w = {seq, off, len, placement};
    bool placed = place(b, u, bytes, &w);
    assert(placed); /* the caller keeps the dirty units at most ssdsim__buf_ff_level < cap */
    (void)placed;
}

bool ssdsim__buf_ff_evict(struct ssdsim__buf *b, uint32_t level, uint64_t *lpn, uint32_t *bytes,
                          uint8_t *placement)
{
    if (b->n_dirty <= level || b->fifo_head == NONE)
        return false;
    uint32_t s = b->fifo_head;
    fifo_unlink(b, s);
    struct slot *sl = &b->slots[s];
    *lpn = sl->lpn;
    *bytes = sl->bytes;
    *placement = sl->placement;
    b->n_dirty--;
    b->n_issued++;
    prefetch_next(b); /* as flush_more does */
    clean(b, sl->stamp);
    slot_free(b, s);
    return true;
}

bool ssdsim__buf_ff_read(struct ssdsim__buf *b, uint64_t u)
{
    if (!b->cfg->read_hits || find(b, u) == NONE)
        return false;
    b->read_hits++;
    return true;
}

/* ------------------------------------------------------------------------------------------ */
/* Power loss (rel/power.c)                                                                    */

uint64_t ssdsim__buf_power_loss(struct ssdsim__buf *b, uint64_t keep, ssdsim__buf_lost_fn fn,
                                void *ctx)
{
    uint64_t kept = 0;
    /* the dirty units, oldest first: the first `keep` stay to be flushed */
    for (uint32_t s = b->fifo_head; s != NONE;) {
        struct slot *sl = &b->slots[s];
        uint32_t next = sl->next;
        if (kept < keep) {
            kept++;
        } else {
            fn(ctx, sl->w_seq, sl->w_off, sl->w_len, sl->bytes);
            fifo_unlink(b, s);
            b->n_dirty--;
            clean(b, sl->stamp);
            slot_free(b, s);
        }
        s = next;
    }
    /* then the copies written again behind a flush */
    for (uint32_t s = 0; s < b->cap; s++) {
        struct slot *sl = &b->slots[s];
        if (sl->state != S_FLUSHING || !sl->redirty)
            continue;
        if (kept < keep) {
            kept++;
        } else {
            fn(ctx, sl->w_seq, sl->w_off, sl->w_len, sl->redirty_bytes);
            sl->redirty = false;
            b->n_redirty--;
            clean(b, sl->redirty_stamp);
        }
    }
    ssdsim__buf_flush_all(b);
    return kept;
}

/* ------------------------------------------------------------------------------------------ */
/* Consistency                                                                                 */

int ssdsim__buf_check(const struct ssdsim__buf *b, char *why, size_t len)
{
#define BUF_FAIL(...) return (snprintf(why, len, "write buffer: " __VA_ARGS__), SSDSIM_ESTATE)
    uint32_t n[3] = {0}, n_redirty = 0;
    uint64_t units = b->d->bytes / b->d->unit;
    for (uint32_t s = 0; s < b->cap; s++) {
        const struct slot *sl = &b->slots[s];
        if (sl->state > S_FLUSHING)
            BUF_FAIL("slot %u has state %u", s, sl->state);
        n[sl->state]++;
        if (sl->state == S_FREE)
            continue;
        if (sl->lpn >= units)
            BUF_FAIL("slot %u holds unit %llu of %llu", s, (unsigned long long)sl->lpn,
                     (unsigned long long)units);
        if (find(b, sl->lpn) != s)
            BUF_FAIL("slot %u (unit %llu) is not where the table finds its unit (slot %u)", s,
                     (unsigned long long)sl->lpn, find(b, sl->lpn));
        if (sl->bytes == 0 || sl->bytes > b->d->unit)
            BUF_FAIL("slot %u holds %u bytes of a %u-byte unit", s, sl->bytes, b->d->unit);
        if (sl->redirty && sl->state != S_FLUSHING)
            BUF_FAIL("slot %u is dirty and marked written again behind a flush", s);
        n_redirty += sl->redirty;
    }
    if (n_redirty != b->n_redirty)
        BUF_FAIL("%u slots written again behind a flush; the count says %u", n_redirty,
                 b->n_redirty);
    if (n[S_DIRTY] != b->n_dirty || n[S_FLUSHING] != b->n_flushing)
        BUF_FAIL("%u dirty and %u flushing slots; the counts say %u and %u", n[S_DIRTY],
                 n[S_FLUSHING], b->n_dirty, b->n_flushing);
    if (b->n_flushing > b->depth)
        BUF_FAIL("%u units being flushed; at most %u at a time", b->n_flushing, b->depth);
    uint32_t k = 0;
    for (uint32_t s = b->free_head; s != NONE; s = b->slots[s].next)
        if (s >= b->cap || b->slots[s].state != S_FREE || ++k > b->cap)
            BUF_FAIL("the free list holds slot %u (or has a cycle)", s);
    if (k != n[S_FREE])
        BUF_FAIL("%u slots on the free list; %u are free", k, n[S_FREE]);
    uint32_t in_table = 0;
    for (uint32_t h = 0; h <= b->mask; h++) {
        uint32_t s = b->table[h].slot;
        if (s == NONE)
            continue;
        if (s >= b->cap || b->slots[s].state == S_FREE)
            BUF_FAIL("table entry %u names slot %u, which holds nothing", h, s);
        if (b->table[h].hash != full_hash(b->slots[s].lpn))
            BUF_FAIL("table entry %u keeps the hash %u; slot %u's unit has %u", h,
                     b->table[h].hash, s, full_hash(b->slots[s].lpn));
        in_table++;
    }
    if (in_table != b->n_dirty + b->n_flushing)
        BUF_FAIL("%u table entries for %u units held", in_table, b->n_dirty + b->n_flushing);
    k = 0;
    uint32_t prev = NONE;
    for (uint32_t s = b->fifo_head; s != NONE; s = b->slots[s].next) {
        if (s >= b->cap || b->slots[s].state != S_DIRTY || b->slots[s].prev != prev ||
            ++k > b->n_dirty)
            BUF_FAIL("the dirty FIFO holds slot %u (or is longer than the %u dirty units)", s,
                     b->n_dirty);
        prev = s;
    }
    if (k != b->n_dirty || prev != b->fifo_tail)
        BUF_FAIL("the dirty FIFO holds %u slots ending at %u; %u dirty, tail %u", k, prev,
                 b->n_dirty, b->fifo_tail);
    if (b->wait_n > b->wait_cap)
        BUF_FAIL("%u commands wait in a queue of %u", b->wait_n, b->wait_cap);
    if (b->wait_n > 0 && b->free_head != NONE)
        BUF_FAIL("%u commands wait for a slot while slot %u is free", b->wait_n, b->free_head);
    return 0;
#undef BUF_FAIL
}
