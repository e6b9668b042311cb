/* hdd.c: the hard-disk model (derivations in hdd.h).
 *
 * The arm does one thing at a time: it reads a stream (the reads riding it, then read-ahead)
 * or writes one extent, a track-sized chunk per engine event. Commands the cache cannot answer
 * wait in a flat array and are picked FCFS or by aged SATF when the arm is free. Every time is
 * computed exactly from the rotation phase in integer units of 1/(rpm * spt) ns, so runs are
 * deterministic and sequential transfers lose nothing to rounding.
 */
#include "hdd/hdd.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* One revolution is REV / rpm ns. */
#define REV 60000000000ULL

/* ------------------------------------------------------------------------------------------ */
/* Geometry                                                                                    */

struct geom {
    uint64_t cpz, extra, n_cyl, sum_spt;
    double a, b, c;
};

static uint32_t zone_spt(const struct ssdsim__hdd_cfg *cfg, uint32_t z)
{
    uint64_t outer = cfg->outer_bytes_per_s, inner = cfg->inner_bytes_per_s;
    uint64_t rate = cfg->zones > 1 ? outer - (outer - inner) * z / (cfg->zones - 1) : outer;
    return (uint32_t)(rate * 60 / ((uint64_t)cfg->rpm * SSDSIM__HDD_SECTOR));
}

static const char *fmt_ms(char *buf, size_t len, uint64_t ns)
{
    snprintf(buf, len, "%g ms", (double)ns / 1e6);
    return buf;
}

SSDSIM__PRINTF(3, 4)
static int fail(char *why, size_t why_len, const char *fmt, ...)
{
    if (why && why_len) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(why, why_len, fmt, ap);
        va_end(ap);
    }
    return SSDSIM_ECONFIG;
}

/* Check the configuration and derive the cylinder counts and the seek curve; fill `zv` (if not
 * NULL, cfg->zones entries) with the zone table. */
static int derive(const struct ssdsim__hdd_cfg *cfg, struct ssdsim__hdd_zone *zv, struct geom *g,
                  char *why, size_t why_len)
{
    char t1[32], t2[32], t3[32];
    memset(g, 0, sizeof *g);
    if (cfg->capacity == 0 || cfg->capacity % SSDSIM__HDD_SECTOR)
        return fail(why, why_len, "hdd.capacity: %llu bytes is not a positive multiple of 512",
                    (unsigned long long)cfg->capacity);
    if (cfg->rpm < 100 || cfg->rpm > 1000000)
        return fail(why, why_len, "hdd.rpm: %u rpm is outside [100, 1000000]", cfg->rpm);
    if (cfg->heads == 0 || cfg->heads > 1024)
        return fail(why, why_len, "hdd.heads: %u heads is outside [1, 1024]", cfg->heads);
    if (cfg->zones == 0 || cfg->zones > 65536)
        return fail(why, why_len, "hdd.zones: %u zones is outside [1, 65536]", cfg->zones);
    if (cfg->outer_bytes_per_s > 100000000000ULL)
        return fail(why, why_len, "hdd.outer_rate: %g MB/s is above 100000 MB/s",
                    (double)cfg->outer_bytes_per_s / 1e6);
    if (cfg->inner_bytes_per_s > cfg->outer_bytes_per_s)
        return fail(why, why_len,
                    "hdd.inner_rate: the innermost zone (%g MB/s) is faster than the outermost "
                    "(%g MB/s)",
                    (double)cfg->inner_bytes_per_s / 1e6, (double)cfg->outer_bytes_per_s / 1e6);
    if (zone_spt(cfg, cfg->zones - 1) == 0)
        return fail(why, why_len,
                    "hdd.inner_rate: %g MB/s at %u rpm is less than one 512-byte sector per track",
                    (double)cfg->inner_bytes_per_s / 1e6, cfg->rpm);
    uint64_t tr = cfg->seek_track_ns, av = cfg->seek_avg_ns, fu = cfg->seek_full_ns;
    if (tr > SSDSIM__NS_PER_S || av > SSDSIM__NS_PER_S || fu > SSDSIM__NS_PER_S)
        return fail(why, why_len, "%s: %s is over a second",
                    tr > SSDSIM__NS_PER_S   ? "hdd.seek_track_us"
                    : av > SSDSIM__NS_PER_S ? "hdd.seek_avg_us"
                                            : "hdd.seek_full_us",
                    fmt_ms(t1, sizeof t1, SSDSIM__MAX(tr, SSDSIM__MAX(av, fu))));
    if (av <= tr)
        return fail(
            why, why_len, "hdd.seek_avg_us: the average seek (%s) %s the one-track seek (%s)",
            fmt_ms(t1, sizeof t1, av), av < tr ? "is below" : "equals", fmt_ms(t2, sizeof t2, tr));
    if (fu <= av)
        return fail(
            why, why_len, "hdd.seek_full_us: the full-stroke seek (%s) %s the average seek (%s)",
            fmt_ms(t1, sizeof t1, fu), fu < av ? "is below" : "equals", fmt_ms(t2, sizeof t2, av));

    /* Read segments. */
    if (cfg->segments > 64)
        return fail(why, why_len, "hdd.segments: %u segments is outside [1, 64]", cfg->segments);
    if (cfg->segments > 1) {
        uint64_t seg = cfg->segment_bytes ? cfg->segment_bytes : cfg->cache_bytes / cfg->segments;
        if (seg < SSDSIM__HDD_SECTOR)
            return fail(why, why_len,
                        "hdd.segments: %u segments of a %llu-byte cache hold less than one "
                        "512-byte sector each",
                        cfg->segments, (unsigned long long)cfg->cache_bytes);
        if (seg > cfg->cache_bytes / cfg->segments)
            return fail(why, why_len,
                        "hdd.segment_size: %u segments of %llu bytes need more than hdd.cache "
                        "(%llu bytes)",
                        cfg->segments, (unsigned long long)seg,
                        (unsigned long long)cfg->cache_bytes);
        if (cfg->prefetch_min_bytes > seg)
            return fail(why, why_len,
                        "hdd.prefetch_min: %llu bytes is more than a segment holds "
                        "(hdd.segment_size %llu)",
                        (unsigned long long)cfg->prefetch_min_bytes, (unsigned long long)seg);
    }

    /* Zones and cylinders. */
    uint64_t sum = 0;
    for (uint32_t z = 0; z < cfg->zones; z++)
        sum += zone_spt(cfg, z);
    uint64_t set_bytes = (uint64_t)cfg->heads * SSDSIM__HDD_SECTOR * sum;
    uint64_t cpz = cfg->capacity / set_bytes;
    if (cpz == 0)
        return fail(why, why_len,
                    "hdd.zones: %u zones of at least one cylinder hold %llu bytes, more than "
                    "hdd.capacity (%llu bytes)",
                    cfg->zones, (unsigned long long)set_bytes, (unsigned long long)cfg->capacity);
    uint32_t spt_last = zone_spt(cfg, cfg->zones - 1);
    uint64_t last_cyl_bytes = (uint64_t)cfg->heads * SSDSIM__HDD_SECTOR * spt_last;
    uint64_t rem = cfg->capacity - cpz * set_bytes;
    uint64_t extra = (rem + last_cyl_bytes - 1) / last_cyl_bytes;
    uint64_t n = (uint64_t)cfg->zones * cpz + extra;
    if (n < 4)
        return fail(why, why_len,
                    "hdd.capacity: %llu bytes make %llu cylinders; the seek curve needs at least 4",
                    (unsigned long long)cfg->capacity, (unsigned long long)n);

    /* The seek curve, a quadratic in x = sqrt(d) through three points. */
    double x1 = 1.0, x2 = sqrt((double)n / 3.0), x3 = sqrt((double)(n - 1));
    double y1 = (double)tr, y2 = (double)av, y3 = (double)fu;
    double c = ((y3 - y1) / (x3 - x1) - (y2 - y1) / (x2 - x1)) / (x3 - x2);
    double b = (y2 - y1) / (x2 - x1) - c * (x1 + x2);
    double a = y1 - b - c;
    fmt_ms(t1, sizeof t1, tr);
    fmt_ms(t2, sizeof t2, av);
    fmt_ms(t3, sizeof t3, fu);
    if (b + 2.0 * c < 0.0)
        return fail(why, why_len,
                    "hdd.seek_avg_us: the seek curve through the one-track (%s), average (%s) and "
                    "full-stroke (%s) seeks falls after one cylinder: the average seek is too "
                    "short for this full stroke",
                    t1, t2, t3);
    if (b + 2.0 * c * x3 < 0.0)
        return fail(why, why_len,
                    "hdd.seek_full_us: the seek curve through the one-track (%s), average (%s) and "
                    "full-stroke (%s) seeks falls before the full stroke (%llu cylinders): the "
                    "full-stroke seek is too short for this average seek",
                    t1, t2, t3, (unsigned long long)(n - 1));

    g->cpz = cpz;
    g->extra = extra;
    g->n_cyl = n;
    g->sum_spt = sum;
    g->a = a;
    g->b = b;
    g->c = c;
    if (zv) {
        uint64_t lba = 0;
        for (uint32_t z = 0; z < cfg->zones; z++) {
            struct ssdsim__hdd_zone *zn = &zv[z];
            zn->first_lba = lba;
            zn->first_cyl = (uint64_t)z * cpz;
            zn->n_cyl = cpz + (z == cfg->zones - 1 ? extra : 0);
            zn->spt = zone_spt(cfg, z);
            /* skew = ceil(seek_track * spt / period) = ceil(seek_track * spt * rpm / REV);
             * the product stays below 2^64 within the ranges checked above. */
            uint64_t num = tr * cfg->rpm * (uint64_t)zn->spt;
            zn->skew = (uint32_t)(((num + REV - 1) / REV) % zn->spt);
            lba += zn->n_cyl * cfg->heads * zn->spt;
        }
    }
    return 0;
}

int ssdsim__hdd_check(const struct ssdsim__hdd_cfg *cfg, char *why, size_t why_len)
{
    struct geom g;
    if (why && why_len)
        why[0] = '\0';
    return derive(cfg, NULL, &g, why, why_len);
}

/* ------------------------------------------------------------------------------------------ */
/* Position and rotation                                                                       */

struct loc {
    uint64_t cyl;
    uint32_t head, sector, spt, slot;
};

static const struct ssdsim__hdd_zone *zone_of(const struct ssdsim__hdd *d, uint64_t lba)
{
    uint32_t lo = 0, hi = d->n_zones - 1;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo + 1) / 2;
        if (d->zones[mid].first_lba <= lba)
            lo = mid;
        else
            hi = mid - 1;
    }
    return &d->zones[lo];
}

static void locate(const struct ssdsim__hdd *d, uint64_t lba, struct loc *l)
{
    const struct ssdsim__hdd_zone *z = zone_of(d, lba);
    uint64_t rel = lba - z->first_lba, per_cyl = (uint64_t)d->cfg.heads * z->spt;
    l->cyl = z->first_cyl + rel / per_cyl;
    uint64_t r = rel % per_cyl;
    l->head = (uint32_t)(r / z->spt);
    l->sector = (uint32_t)(r % z->spt);
    l->spt = z->spt;
    uint64_t k = l->cyl * d->cfg.heads + l->head;
    l->slot = (uint32_t)((l->sector + (k % z->spt) * z->skew) % z->spt);
}

/* Rotation phase at time t in units of 1/(rpm * spt) ns: a revolution is REV * spt units. */
static uint64_t phase(const struct ssdsim__hdd *d, uint64_t t, uint32_t spt)
{
    t += d->phase_ns;
    return ((t % REV) * d->cfg.rpm % REV) * spt;
}

/* Ns from t until the start of slot `slot` (of spt) is under the head, rounded up. Not strict:
 * a head less than 1 ns past the slot (an earlier rounding up) catches it at once. Strict:
 * the next passage strictly after the exact present (a whole revolution when exactly there),
 * used for the end of a transfer that began at t. */
static uint64_t rot_wait(const struct ssdsim__hdd *d, uint64_t t, uint32_t slot, uint32_t spt,
                         bool strict)
{
    uint64_t m = REV * spt, u = (uint64_t)d->cfg.rpm * spt;
    uint64_t p = phase(d, t, spt), a = (uint64_t)slot * REV;
    uint64_t w = a >= p ? a - p : a + m - p;
    if (strict) {
        if (w == 0)
            w = m;
    } else if (w != 0 && m - w < u) {
        return 0;
    }
    return (w + u - 1) / u;
}

uint64_t ssdsim__hdd_seek_ns(const struct ssdsim__hdd *d, uint64_t cylinders)
{
    if (cylinders == 0)
        return 0;
    if (cylinders == 1)
        return d->cfg.seek_track_ns;
    if (cylinders >= d->n_cyl - 1)
        return d->cfg.seek_full_ns;
    double x = sqrt((double)cylinders);
    double t = d->seek_a + d->seek_b * x + d->seek_c * (double)cylinders;
    return t <= 0.0 ? 0 : (uint64_t)(t + 0.5);
}

/* Time to bring the head from where it is to (cyl, head): a seek, a head switch or nothing. */
static uint64_t move_ns(const struct ssdsim__hdd *d, uint64_t cyl, uint32_t head)
{
    uint64_t dc = cyl > d->pos_cyl ? cyl - d->pos_cyl : d->pos_cyl - cyl;
    if (dc)
        return ssdsim__hdd_seek_ns(d, dc);
    return head != d->pos_head ? d->cfg.seek_track_ns : 0;
}

double ssdsim__hdd_rate_at(const struct ssdsim__hdd *d, uint64_t offset)
{
    uint64_t lba = offset / SSDSIM__HDD_SECTOR;
    if (lba >= d->n_sectors)
        lba = d->n_sectors - 1;
    return (double)zone_of(d, lba)->spt * SSDSIM__HDD_SECTOR * d->cfg.rpm / 60.0;
}

uint64_t ssdsim__hdd_cylinders(const struct ssdsim__hdd *d)
{
    return d->n_cyl;
}

/* ------------------------------------------------------------------------------------------ */
/* Queue                                                                                       */

static void ev_done(void *ctx, uint32_t cmd)
{
    struct ssdsim__hdd *d = ctx;
    d->done(d->ctx, cmd);
}

/* Tell the host that cmd is done, from an event at now. */
static void finish(struct ssdsim__hdd *d, uint32_t cmd)
{
    ssdsim__engine_schedule(d->engine, d->engine->now, ev_done, d, cmd);
}

static void count(struct ssdsim__hdd *d, uint8_t state, int delta)
{
    switch (state) {
    case SSDSIM__HDD_QUEUED:
        d->n_queued += delta;
        break;
    case SSDSIM__HDD_WAIT_CACHE:
        d->n_waitcache += delta;
        break;
    default:
        d->n_riding += delta;
        break;
    }
}

/* A new entry, or NULL when the array cannot grow (the engine is then told it is out of
 * memory, which ends the run). */
static struct ssdsim__hdd_req *q_add(struct ssdsim__hdd *d, uint32_t cmd, uint8_t kind,
                                     uint8_t state, uint64_t lba, uint64_t n)
{
    if (d->n_q == d->cap_q) {
        uint32_t cap = d->cap_q ? 2 * d->cap_q : 16;
        struct ssdsim__hdd_req *v = realloc(d->q, (size_t)cap * sizeof *v);
        if (!v) {
            d->engine->oom = d->engine->stopped = true;
            return NULL;
        }
        d->q = v;
        d->cap_q = cap;
    }
    struct ssdsim__hdd_req *r = &d->q[d->n_q++];
    r->lba = lba;
    r->n = n;
    r->arrival_ns = d->engine->now;
    r->seq = d->seq++;
    r->cmd = cmd;
    r->kind = kind;
    r->state = state;
    r->data_ns = 0;
    count(d, state, 1);
    return r;
}

static void q_remove(struct ssdsim__hdd *d, uint32_t i)
{
    count(d, d->q[i].state, -1);
    d->q[i] = d->q[--d->n_q];
}

static void set_state(struct ssdsim__hdd *d, struct ssdsim__hdd_req *r, uint8_t state)
{
    count(d, r->state, -1);
    r->state = state;
    count(d, state, 1);
}

/* ------------------------------------------------------------------------------------------ */
/* Cache                                                                                       */

/* Sectors of the current chunk that have passed under the head by now. */
static uint64_t passed(const struct ssdsim__hdd *d, uint64_t now)
{
    const struct ssdsim__hdd_op *op = &d->op;
    if (now <= op->c_ts)
        return 0;
    if (now >= op->c_te)
        return op->c_n;
    uint64_t m = REV * op->c_spt, a = (uint64_t)op->c_slot * REV, p = phase(d, now, op->c_spt);
    uint64_t k = (p >= a ? p - a : p + m - a) / REV;
    return SSDSIM__MIN(k, (uint64_t)op->c_n);
}

/* The clean segment [*lo, *hi) as of now (while streaming it ends where the head is), cut to
 * the room the dirty data leaves. */
static void segment(const struct ssdsim__hdd *d, uint64_t now, uint64_t *lo, uint64_t *hi)
{
    uint64_t end = d->op.kind == SSDSIM__HDD_OP_STREAM ? d->op.c_lba + passed(d, now) : d->seg_end;
    uint64_t budget = d->cache_sectors - d->dirty_sectors;
    if (d->n_segs)
        budget = SSDSIM__MIN(budget, d->seg_sectors);
    uint64_t start = d->seg_stale ? end : d->seg_start;
    if (end - start > budget)
        start = end - budget;
    *lo = start;
    *hi = end;
}

/* The least recently used of the other segments (an empty one first), or UINT32_MAX when
 * `nonempty` and all are empty. */
static uint32_t lru_seg(const struct ssdsim__hdd *d, bool nonempty)
{
    uint32_t best = UINT32_MAX;
    for (uint32_t k = 0; k < d->n_segs; k++) {
        const struct ssdsim__hdd_seg *g = &d->segs[k];
        bool empty = g->end == g->start;
        if (nonempty && empty)
            continue;
        if (!nonempty && empty)
            return k;
        if (best == UINT32_MAX || g->used < d->segs[best].used)
            best = k;
    }
    return best;
}

/* Make the clean segment's start follow what the dirty data leaves room for; with several
 * segments, drop the least recently used others while the clean and dirty data together
 * exceed the cache. */
static void clamp_segment(struct ssdsim__hdd *d)
{
    uint64_t lo, hi;
    segment(d, d->engine->now, &lo, &hi);
    d->seg_start = lo;
    if (!d->n_segs)
        return;
    uint64_t total = d->dirty_sectors + (hi - lo);
    for (uint32_t k = 0; k < d->n_segs; k++)
        total += d->segs[k].end - d->segs[k].start;
    while (total > d->cache_sectors) {
        uint32_t k = lru_seg(d, true);
        if (k == UINT32_MAX)
            break;
        total -= d->segs[k].end - d->segs[k].start;
        d->segs[k].start = d->segs[k].end = 0;
    }
}

/* The other segment holding all of [lba, lba + n), or UINT32_MAX. */
static uint32_t seg_holding(const struct ssdsim__hdd *d, uint64_t lba, uint64_t n)
{
    for (uint32_t k = 0; k < d->n_segs; k++)
        if (d->segs[k].end > d->segs[k].start && lba >= d->segs[k].start &&
            lba + n <= d->segs[k].end)
            return k;
    return UINT32_MAX;
}

static bool dirty_hit(const struct ssdsim__hdd *d, uint64_t lba, uint64_t n)
{
    if (d->n_dirty == 0)
        return false;
    if (d->op.kind == SSDSIM__HDD_OP_WRITE && d->op.w.kind == SSDSIM__HDD_DESTAGE &&
        lba >= d->op.w.lba && lba + n <= d->op.w.lba + d->op.w.n)
        return true;
    for (uint32_t i = 0; i < d->n_q; i++) {
        const struct ssdsim__hdd_req *r = &d->q[i];
        if (r->kind == SSDSIM__HDD_DESTAGE && r->state == SSDSIM__HDD_QUEUED && lba >= r->lba &&
            lba + n <= r->lba + r->n)
            return true;
    }
    return false;
}

/* Whether the cache holds all of [lba, lba + n); a hit in another segment makes it the most
 * recently used. */
static bool cache_hit(struct ssdsim__hdd *d, uint64_t now, uint64_t lba, uint64_t n)
{
    uint64_t lo, hi;
    segment(d, now, &lo, &hi);
    if ((lba >= lo && lba + n <= hi) || dirty_hit(d, lba, n))
        return true;
    uint32_t k = seg_holding(d, lba, n);
    if (k == UINT32_MAX)
        return false;
    d->segs[k].used = ++d->seg_clock;
    return true;
}

/* The stream must read on to d->must even when commands wait (a sequential stream's
 * prefetch with several segments). */
static bool pinned(const struct ssdsim__hdd *d)
{
    return d->op.kind == SSDSIM__HDD_OP_STREAM && d->op.cursor < d->must && !d->seg_stale;
}

/* Admit the writes waiting for room, oldest first, while they fit: each is merged into a
 * queued destage that ends where it starts, or becomes a destage itself. */
static void admit_waiting(struct ssdsim__hdd *d)
{
    while (d->n_waitcache) {
        uint32_t w = UINT32_MAX;
        for (uint32_t i = 0; i < d->n_q; i++)
            if (d->q[i].state == SSDSIM__HDD_WAIT_CACHE &&
                (w == UINT32_MAX || d->q[i].seq < d->q[w].seq))
                w = i;
        struct ssdsim__hdd_req *r = &d->q[w];
        if (d->dirty_sectors + r->n > d->cache_sectors)
            return;
        uint32_t merge = UINT32_MAX;
        for (uint32_t i = 0; i < d->n_q; i++)
            if (d->q[i].kind == SSDSIM__HDD_DESTAGE && d->q[i].state == SSDSIM__HDD_QUEUED &&
                d->q[i].lba + d->q[i].n == r->lba) {
                merge = i;
                break;
            }
        if (merge == UINT32_MAX && d->n_dirty >= SSDSIM__HDD_SEGMENTS)
            return;
        d->dirty_sectors += r->n;
        finish(d, r->cmd);
        if (merge != UINT32_MAX) {
            d->q[merge].n += r->n;
            q_remove(d, w);
        } else {
            d->n_dirty++;
            r->arrival_ns = d->engine->now;
            r->seq = d->seq++;
            set_state(d, r, SSDSIM__HDD_QUEUED);
        }
        clamp_segment(d);
    }
}

/* ------------------------------------------------------------------------------------------ */
/* The arm                                                                                     */

static void ev_chunk(void *ctx, uint32_t arg);

/* Start the next chunk of the operation at time t: position, wait for the slot, transfer up to
 * the end of the track, the end of the operation or (streaming) the first riding read's end. */
static void next_chunk(struct ssdsim__hdd *d, uint64_t t)
{
    struct ssdsim__hdd_op *op = &d->op;
    struct loc l;
    locate(d, op->cursor, &l);
    uint64_t stop = op->limit;
    if (op->kind == SSDSIM__HDD_OP_STREAM && d->n_riding)
        for (uint32_t i = 0; i < d->n_q; i++)
            if (d->q[i].state == SSDSIM__HDD_RIDING)
                stop = SSDSIM__MIN(stop, d->q[i].lba + d->q[i].n);
    assert(stop > op->cursor);
    uint64_t n = SSDSIM__MIN((uint64_t)(l.spt - l.sector), stop - op->cursor);
    uint64_t move = move_ns(d, l.cyl, l.head);
    if (op->kind == SSDSIM__HDD_OP_WRITE && !op->positioned && move)
        move += d->cfg.write_settle_ns;
    op->positioned = true;
    op->c_lba = op->cursor;
    op->c_n = (uint32_t)n;
    op->c_cyl = l.cyl;
    op->c_head = l.head;
    op->c_slot = l.slot;
    op->c_spt = l.spt;
    op->c_move_end = t + move;
    /* a write written through waits for its data too (it came in while the head moved) */
    uint64_t from = op->c_move_end;
    if (op->kind == SSDSIM__HDD_OP_WRITE && op->w.kind == SSDSIM__HDD_WRITE &&
        op->w.data_ns > from)
        from = op->w.data_ns;
    op->c_ts = from + rot_wait(d, from, l.slot, l.spt, false);
    op->c_te = op->c_ts + rot_wait(d, op->c_ts, (uint32_t)((l.slot + n) % l.spt), l.spt, true);
    d->pos_cyl = l.cyl;
    d->pos_head = l.head;
    d->busy_until = op->c_move_end;
    op->ev = ssdsim__engine_schedule_cancellable(d->engine, op->c_te, ev_chunk, d, 0);
    if (!op->ev)
        d->engine->stopped = true; /* the engine has set its oom flag */
}

/* End the current chunk early, at now (the sectors that have passed are read). */
static void cut_chunk(struct ssdsim__hdd *d, uint64_t now)
{
    struct ssdsim__hdd_op *op = &d->op;
    ssdsim__engine_cancel(d->engine, op->ev);
    op->ev = 0;
    op->cursor = op->c_lba + passed(d, now);
}

/* Stop a stream that serves no read (read-ahead) at now. */
static void stop_stream(struct ssdsim__hdd *d, uint64_t now)
{
    assert(d->op.kind == SSDSIM__HDD_OP_STREAM && d->n_riding == 0);
    cut_chunk(d, now);
    d->seg_end = d->op.cursor;
    d->op.kind = SSDSIM__HDD_OP_NONE;
    d->must = 0;
}

/* Positioning time (seek, settle, rotational wait) to the first sector of r from the head's
 * position at t. */
static uint64_t access_ns(const struct ssdsim__hdd *d, const struct ssdsim__hdd_req *r, uint64_t t)
{
    struct loc l;
    locate(d, r->lba, &l);
    uint64_t move = move_ns(d, l.cyl, l.head);
    if (r->kind != SSDSIM__HDD_READ && move)
        move += d->cfg.write_settle_ns;
    return move + rot_wait(d, t + move, l.slot, l.spt, false);
}

/* How far past the clean segment's end [lo, hi) the arm reads on instead of repositioning:
 * up to one track, which the head passes in the revolution it would otherwise wait. */
static uint64_t reach(const struct ssdsim__hdd *d, uint64_t hi)
{
    struct loc l;
    locate(d, SSDSIM__MIN(hi, d->n_sectors - 1), &l);
    return hi + l.spt;
}

/* The queued read that continues the clean segment within reach (the lowest), or UINT32_MAX:
 * a drive that has detected a sequential stream reads it on rather than jump to whatever
 * sector comes under the head first (which leaves the stream's earlier reads a revolution
 * behind the head, to be skipped by every later choice until they age). */
static uint32_t continuation(const struct ssdsim__hdd *d, uint64_t now)
{
    uint64_t lo, hi;
    segment(d, now, &lo, &hi);
    /* the arm is free: op.cursor is one past the last sector it transferred */
    uint64_t arm = d->op.cursor, end = reach(d, hi), w_end = reach(d, arm);
    uint32_t best = UINT32_MAX;
    for (uint32_t i = 0; i < d->n_q; i++) {
        const struct ssdsim__hdd_req *r = &d->q[i];
        if (r->state != SSDSIM__HDD_QUEUED)
            continue;
        bool on = r->kind == SSDSIM__HDD_READ ? hi > lo && r->lba >= lo && r->lba <= end
                                              : r->lba >= arm && r->lba <= w_end;
        if (on && (best == UINT32_MAX || r->lba < d->q[best].lba))
            best = i;
    }
    return best;
}

/* The first of the queued run that entry i belongs to: while a queued command of its kind ends
 * at most a track before it starts, that one. A drive serves a run of queued sequential
 * commands as one access from its lowest sector (coalescing them); starting at whichever of
 * them comes under the head first would leave the earlier ones a revolution behind the head,
 * and the stream, read on from there, would pass them by until they age. */
static uint32_t run_start(const struct ssdsim__hdd *d, uint32_t i)
{
    for (;;) {
        const struct ssdsim__hdd_req *r = &d->q[i];
        uint32_t prev = UINT32_MAX;
        for (uint32_t k = 0; k < d->n_q; k++) {
            const struct ssdsim__hdd_req *q = &d->q[k];
            if (q->state == SSDSIM__HDD_QUEUED && q->kind == r->kind && q->lba < r->lba &&
                q->lba + q->n <= r->lba && r->lba <= reach(d, q->lba + q->n) &&
                (prev == UINT32_MAX || q->lba > d->q[prev].lba))
                prev = k;
        }
        if (prev == UINT32_MAX)
            return i;
        i = prev;
    }
}

/* The queued entry to serve next. FCFS: the oldest. SATF (aged): the least positioning time
 * less the aged gain, ties by arrival; before it, a sequential stream's continuation, unless a
 * queued command has waited more than the aging period (the stream then gives way). */
static uint32_t pick(const struct ssdsim__hdd *d, uint64_t now, uint64_t t0)
{
    uint32_t best = UINT32_MAX;
    if (d->cfg.sched == SSDSIM__HDD_FCFS) {
        for (uint32_t i = 0; i < d->n_q; i++)
            if (d->q[i].state == SSDSIM__HDD_QUEUED &&
                (best == UINT32_MAX || d->q[i].seq < d->q[best].seq))
                best = i;
        return best;
    }
    int64_t best_eff = INT64_MAX;
    uint64_t oldest = UINT64_MAX;
    for (uint32_t i = 0; i < d->n_q; i++) {
        const struct ssdsim__hdd_req *r = &d->q[i];
        if (r->state != SSDSIM__HDD_QUEUED)
            continue;
        oldest = SSDSIM__MIN(oldest, r->arrival_ns);
        uint64_t gain = (now - r->arrival_ns) / 1000 * SSDSIM__HDD_AGE_WEIGHT;
        int64_t eff = (int64_t)access_ns(d, r, t0) - (int64_t)gain;
        if (eff < best_eff || (eff == best_eff && r->seq < d->q[best].seq)) {
            best = i;
            best_eff = eff;
        }
    }
    uint32_t cont;
    if (now - oldest <= d->age_ns && (cont = continuation(d, now)) != UINT32_MAX)
        return cont;
    return run_start(d, best);
}

/* Whether a read of [lba, lba + n) lies in [lo, d->must) of a pinned stream, which reads past
 * its end anyway: it rides the stream and is answered when the head passes its last sector,
 * not when the prefetch ends (a queue of sequential reads deeper than a revolution's reach
 * waited for the whole segment). */
static bool passed_anyway(const struct ssdsim__hdd *d, uint64_t lo, uint64_t lba, uint64_t n)
{
    return pinned(d) && lba >= lo && lba + n <= d->must;
}

/* The queued reads a new stream starting at `lo` passes anyway ride it. */
static void ride_queued(struct ssdsim__hdd *d, uint64_t lo)
{
    for (uint32_t i = 0; i < d->n_q; i++) {
        struct ssdsim__hdd_req *r = &d->q[i];
        if (r->state == SSDSIM__HDD_QUEUED && r->kind == SSDSIM__HDD_READ &&
            passed_anyway(d, lo, r->lba, r->n))
            set_state(d, r, SSDSIM__HDD_RIDING);
    }
}

static uint64_t ra_limit(const struct ssdsim__hdd *d, uint64_t end)
{
    return SSDSIM__MIN(d->n_sectors, end + d->ra_sectors);
}

/* The arm is free: answer queued reads the cache now holds, then start the next command. */
static void kick(struct ssdsim__hdd *d)
{
    if (d->op.kind != SSDSIM__HDD_OP_NONE || d->n_queued == 0)
        return;
    uint64_t now = d->engine->now;
    for (uint32_t i = d->n_q; i-- > 0;) {
        struct ssdsim__hdd_req *r = &d->q[i];
        if (r->state == SSDSIM__HDD_QUEUED && r->kind == SSDSIM__HDD_READ &&
            cache_hit(d, now, r->lba, r->n)) {
            finish(d, r->cmd);
            q_remove(d, i);
        }
    }
    if (d->n_queued == 0)
        return;
    uint64_t t0 = SSDSIM__MAX(now, d->busy_until);
    uint32_t i = pick(d, now, t0);
    struct ssdsim__hdd_req *r = &d->q[i];
    struct ssdsim__hdd_op *op = &d->op;
    op->positioned = false;
    if (r->kind == SSDSIM__HDD_READ) {
        uint64_t lo, hi;
        segment(d, now, &lo, &hi);
        bool seq = hi > lo;
        if (r->lba >= lo && r->lba <= (d->cfg.sched != SSDSIM__HDD_FCFS ? reach(d, hi) : hi)) {
            d->seg_start = lo; /* read on from the end of the segment */
        } else if (!d->n_segs) {
            d->seg_start = d->seg_end = hi = r->lba;
            seq = false;
        } else {
            /* Park the current segment in a free slot or over the least recently used one,
             * then take the segment this read continues, if any, or start a new one. */
            uint32_t k = seg_holding(d, r->lba, 0);
            struct ssdsim__hdd_seg cont = {0};
            if (k != UINT32_MAX) {
                cont = d->segs[k];
                d->segs[k].start = d->segs[k].end = 0;
            }
            if (hi > lo && !d->seg_stale) {
                uint32_t slot = k != UINT32_MAX ? k : lru_seg(d, false);
                d->segs[slot] = (struct ssdsim__hdd_seg){lo, hi, ++d->seg_clock};
            }
            if (k != UINT32_MAX) {
                d->seg_start = cont.start;
                d->seg_end = hi = cont.end;
            } else {
                d->seg_start = d->seg_end = hi = r->lba;
                seq = false;
            }
            d->seg_stale = false;
        }
        uint64_t end = r->lba + r->n;
        set_state(d, r, SSDSIM__HDD_RIDING);
        op->kind = SSDSIM__HDD_OP_STREAM;
        op->cursor = hi;
        op->limit = d->cfg.read_ahead ? ra_limit(d, end) : end;
        d->must = d->n_segs && seq ? SSDSIM__MIN(op->limit, end + d->pmin_sectors) : 0;
        ride_queued(d, d->seg_start);
    } else {
        op->kind = SSDSIM__HDD_OP_WRITE;
        op->w = *r;
        op->cursor = r->lba;
        op->limit = r->lba + r->n;
        q_remove(d, i);
    }
    next_chunk(d, t0);
}

static void ev_chunk(void *ctx, uint32_t arg)
{
    (void)arg;
    struct ssdsim__hdd *d = ctx;
    struct ssdsim__hdd_op *op = &d->op;
    op->ev = 0;
    op->cursor = op->c_lba + op->c_n;
    if (op->kind == SSDSIM__HDD_OP_WRITE) {
        bool destage = op->w.kind != SSDSIM__HDD_WRITE;
        if (destage) {
            /* the chunk is on the platter: its sectors leave the dirty data now, and writes
             * waiting for room may come in (the extent itself ends with its last chunk) */
            d->dirty_sectors -= op->c_n;
            if (op->cursor < op->limit)
                admit_waiting(d);
        }
        if (op->cursor < op->limit) {
            next_chunk(d, d->engine->now);
            return;
        }
        op->kind = SSDSIM__HDD_OP_NONE;
        if (!destage) {
            finish(d, op->w.cmd);
        } else {
            d->n_dirty--;
            admit_waiting(d);
        }
        kick(d);
        return;
    }
    /* A stream: the reads it has passed the end of are in the buffer. */
    d->seg_end = op->cursor;
    clamp_segment(d);
    for (uint32_t i = d->n_q; i-- > 0;) {
        struct ssdsim__hdd_req *r = &d->q[i];
        if (r->state == SSDSIM__HDD_RIDING && r->lba + r->n <= op->cursor) {
            finish(d, r->cmd);
            q_remove(d, i);
        }
    }
    if (d->n_riding || pinned(d) ||
        (d->n_queued == 0 && op->cursor < op->limit && !d->seg_stale)) {
        next_chunk(d, d->engine->now);
        return;
    }
    op->kind = SSDSIM__HDD_OP_NONE;
    d->must = 0;
    if (d->seg_stale)
        d->seg_start = d->seg_end = 0;
    d->seg_stale = false;
    kick(d);
}

/* ------------------------------------------------------------------------------------------ */
/* Commands                                                                                    */

static void submit_read(struct ssdsim__hdd *d, uint32_t cmd, uint64_t lba, uint64_t n)
{
    uint64_t now = d->engine->now;
    if (cache_hit(d, now, lba, n)) {
        finish(d, cmd);
        return;
    }
    struct ssdsim__hdd_op *op = &d->op;
    if (op->kind == SSDSIM__HDD_OP_STREAM && !d->seg_stale) {
        uint64_t lo, hi;
        segment(d, now, &lo, &hi);
        bool near = d->n_queued == 0 && lba >= lo && lba <= op->limit && lba <= hi + op->c_spt;
        if (near || passed_anyway(d, lo, lba, n)) {
            /* Ride the stream (the head gets there within about a revolution); end the
             * chunk at this read's end if that comes first. */
            uint64_t end = lba + n;
            if (!q_add(d, cmd, SSDSIM__HDD_READ, SSDSIM__HDD_RIDING, lba, n))
                return;
            op->limit = SSDSIM__MAX(op->limit, d->cfg.read_ahead ? ra_limit(d, end) : end);
            if (end < op->c_lba + op->c_n) {
                ssdsim__engine_cancel(d->engine, op->ev);
                op->c_n = (uint32_t)(end - op->c_lba);
                op->c_te =
                    op->c_ts + rot_wait(d, op->c_ts, (uint32_t)((op->c_slot + op->c_n) % op->c_spt),
                                        op->c_spt, true);
                op->ev = ssdsim__engine_schedule_cancellable(d->engine, op->c_te, ev_chunk, d, 0);
                if (!op->ev)
                    d->engine->stopped = true;
            }
            return;
        }
    }
    if (!q_add(d, cmd, SSDSIM__HDD_READ, SSDSIM__HDD_QUEUED, lba, n))
        return;
    if (op->kind == SSDSIM__HDD_OP_STREAM && d->n_riding == 0 && !pinned(d))
        stop_stream(d, now);
    kick(d);
}

/* A write of n sectors goes to the platter, not into the write cache (off, or too small). */
static bool through_sectors(const struct ssdsim__hdd *d, uint64_t n)
{
    return !(d->cfg.write_cache && n <= d->cache_sectors);
}

static void submit_write(struct ssdsim__hdd *d, uint32_t cmd, uint64_t lba, uint64_t n,
                         uint64_t data_ns)
{
    uint64_t now = d->engine->now;
    struct ssdsim__hdd_op *op = &d->op;
    /* The clean copy of these sectors is stale now: drop the segment (unless a stream that
     * reads for the host is filling it). */
    uint64_t lo, hi;
    segment(d, now, &lo, &hi);
    if (op->kind == SSDSIM__HDD_OP_STREAM)
        hi = SSDSIM__MAX(hi, op->limit);
    if (lba < hi && lba + n > lo) {
        if (op->kind == SSDSIM__HDD_OP_STREAM && d->n_riding == 0 && !pinned(d))
            stop_stream(d, now);
        if (op->kind == SSDSIM__HDD_OP_STREAM)
            d->seg_stale = true; /* dropped when the stream ends */
        else
            d->seg_start = d->seg_end = 0;
    }
    for (uint32_t k = 0; k < d->n_segs; k++) /* other segments it overlaps are stale too */
        if (lba < d->segs[k].end && lba + n > d->segs[k].start)
            d->segs[k].start = d->segs[k].end = 0;
    if (!through_sectors(d, n)) {
        if (!q_add(d, cmd, SSDSIM__HDD_DESTAGE, SSDSIM__HDD_WAIT_CACHE, lba, n))
            return;
        admit_waiting(d);
    } else {
        struct ssdsim__hdd_req *r = q_add(d, cmd, SSDSIM__HDD_WRITE, SSDSIM__HDD_QUEUED, lba, n);
        if (!r)
            return;
        r->data_ns = data_ns;
    }
    if (op->kind == SSDSIM__HDD_OP_STREAM && d->n_riding == 0 && d->n_queued && !pinned(d))
        stop_stream(d, now);
    kick(d);
}

bool ssdsim__hdd_writes_through(const struct ssdsim__hdd *d, uint32_t len)
{
    return through_sectors(d, ((uint64_t)len + SSDSIM__HDD_SECTOR - 1) / SSDSIM__HDD_SECTOR);
}

void ssdsim__hdd_submit(struct ssdsim__hdd *d, uint32_t cmd, int op, uint64_t offset, uint32_t len,
                        uint64_t data_ns)
{
    uint64_t lba = offset / SSDSIM__HDD_SECTOR;
    uint64_t end = (offset + len + SSDSIM__HDD_SECTOR - 1) / SSDSIM__HDD_SECTOR;
    end = SSDSIM__MIN(end, d->n_sectors);
    if (len == 0 || lba >= end) {
        finish(d, cmd);
        return;
    }
    if (op == 0)
        submit_read(d, cmd, lba, end - lba);
    else
        submit_write(d, cmd, lba, end - lba, data_ns);
}

/* ------------------------------------------------------------------------------------------ */
/* Life cycle                                                                                  */

int ssdsim__hdd_init(struct ssdsim__hdd *d, const struct ssdsim__hdd_cfg *cfg,
                     struct ssdsim__engine *e, void (*done)(void *ctx, uint32_t cmd), void *ctx)
{
    struct geom g;
    memset(d, 0, sizeof *d);
    int rc = derive(cfg, NULL, &g, NULL, 0);
    if (rc)
        return rc;
    d->cfg = *cfg;
    d->engine = e;
    d->done = done;
    d->ctx = ctx;
    d->zones = calloc(cfg->zones, sizeof *d->zones);
    d->cap_q = 16 + SSDSIM__HDD_SEGMENTS;
    d->q = malloc(d->cap_q * sizeof *d->q);
    if (!d->zones || !d->q)
        return SSDSIM_ENOMEM;
    derive(cfg, d->zones, &g, NULL, 0);
    d->n_zones = cfg->zones;
    d->n_cyl = g.n_cyl;
    d->n_sectors = cfg->capacity / SSDSIM__HDD_SECTOR;
    d->seek_a = g.a;
    d->seek_b = g.b;
    d->seek_c = g.c;
    d->age_ns = (SSDSIM__HDD_AGE_REVS * REV + cfg->rpm - 1) / cfg->rpm;
    d->cache_sectors = cfg->cache_bytes / SSDSIM__HDD_SECTOR;
    d->ra_sectors = cfg->read_ahead ? d->cache_sectors / SSDSIM__HDD_RA_FRACTION : 0;
    if (cfg->segments > 1) {
        uint64_t seg = cfg->segment_bytes ? cfg->segment_bytes : cfg->cache_bytes / cfg->segments;
        d->n_segs = cfg->segments - 1;
        d->seg_sectors = seg / SSDSIM__HDD_SECTOR;
        d->ra_sectors = cfg->read_ahead ? d->seg_sectors : 0;
        d->pmin_sectors = cfg->prefetch_min_bytes ? cfg->prefetch_min_bytes / SSDSIM__HDD_SECTOR
                                                  : d->seg_sectors;
        d->segs = calloc(d->n_segs, sizeof *d->segs);
        if (!d->segs)
            return SSDSIM_ENOMEM;
    }
    return 0;
}

void ssdsim__hdd_fini(struct ssdsim__hdd *d)
{
    if (!d)
        return;
    if (d->engine && d->op.ev)
        ssdsim__engine_cancel(d->engine, d->op.ev);
    free(d->zones);
    free(d->q);
    free(d->segs);
    memset(d, 0, sizeof *d);
}

bool ssdsim__hdd_busy(const struct ssdsim__hdd *d)
{
    return d->n_q > 0 || d->op.kind == SSDSIM__HDD_OP_WRITE || d->dirty_sectors > 0;
}

void ssdsim__hdd_reset(struct ssdsim__hdd *d, uint64_t now)
{
    if (d->op.ev)
        ssdsim__engine_cancel(d->engine, d->op.ev);
    memset(&d->op, 0, sizeof d->op);
    d->n_q = d->n_queued = d->n_waitcache = d->n_riding = 0;
    d->dirty_sectors = 0;
    d->n_dirty = 0;
    d->seg_start = d->seg_end = 0;
    d->seg_stale = false;
    d->must = 0;
    for (uint32_t k = 0; k < d->n_segs; k++)
        d->segs[k] = (struct ssdsim__hdd_seg){0, 0, 0};
    d->pos_cyl = 0;
    d->pos_head = 0;
    d->busy_until = now;
}
