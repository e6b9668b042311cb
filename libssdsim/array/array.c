/* array.c: the devices of a run, the volumes on them and the RAID address mapping (array.h). */
#include "array/array.h"
#include "ftl/page.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plugin.h"
#include "workload/gen.h"

#define NONE SSDSIM__NONE

/* Command roles (struct ssdsim__cmd.role), for readers of a latency log. */
enum { ROLE_DATA = 0, ROLE_PARITY = 1 };

static void cmd_done(void *ctx, uint32_t cmd);
static void wc_init(struct ssdsim__sys *s, const struct ssdsim__system_cfg *sc);

int ssdsim__sys_init(struct ssdsim__sys *s, const struct ssdsim_model *model,
                     struct ssdsim__engine *e, uint64_t seed, ssdsim_error *err)
{
    memset(s, 0, sizeof *s);
    ssdsim__ipool_init(&s->pool.ip);
    s->model = model;
    s->engine = e;
    s->is_system = model->kind == SSDSIM__KIND_SYSTEM;
    const struct ssdsim__system_cfg *sc = &model->system;
    s->dev_model = s->is_system ? sc->member : model;
    s->n_devs = s->is_system ? sc->count : 1;
    s->n_ctrls = s->is_system ? sc->controllers : 1;
    s->layout = s->is_system ? sc->layout : SSDSIM__LAYOUT_JBOD;
    s->stripe = s->is_system ? sc->stripe : 0;
    s->raid_ns = s->is_system && s->layout != SSDSIM__LAYOUT_JBOD ? sc->raid_ns : 0;
    s->devs = calloc(s->n_devs, sizeof *s->devs);
    s->ctrls = calloc(s->n_ctrls, sizeof *s->ctrls);
    if (!s->devs || !s->ctrls)
        goto oom;
    for (uint32_t c = 0; c < s->n_ctrls; c++)
        if (ssdsim__ctrl_init(&s->ctrls[c], s->dev_model))
            goto oom;
    if (s->is_system && sc->have_uplink) {
        if (ssdsim__link_init(&s->uplink, &sc->uplink))
            goto oom;
        s->have_uplink = true;
    }
    uint32_t per_ctrl = s->n_devs / s->n_ctrls;
    uint64_t path_ns = s->is_system ? sc->path_ns : 0;
    for (uint32_t k = 0; k < s->n_devs; k++) {
        /* device 0 keeps the run's seed, so a one-device system of a model runs as the model */
        uint64_t dseed = k == 0 ? seed : seed ^ (0x9e3779b97f4a7c15ULL * (k + 1));
        int rc = ssdsim__dev_init(&s->devs[k], k, s->dev_model, e, &s->pool,
                                  &s->ctrls[k / per_ctrl], s->have_uplink ? &s->uplink : NULL,
                                  path_ns, dseed, cmd_done, s, err);
        if (rc)
            return rc;
    }
    s->n_volumes = s->layout == SSDSIM__LAYOUT_JBOD ? s->n_devs : 1;
    s->volume_bytes = s->is_system ? ssdsim_model_logical_bytes(model) : s->devs[0].bytes;
    if (s->is_system)
        wc_init(s, sc);
    return 0;
oom:
    return ssdsim__error_set(err, SSDSIM_ENOMEM, model->label, NULL,
                             "out of memory building the devices");
}

void ssdsim__sys_fini(struct ssdsim__sys *s)
{
    for (uint32_t k = 0; s->devs && k < s->n_devs; k++)
        ssdsim__dev_fini(&s->devs[k]);
    for (uint32_t c = 0; s->ctrls && c < s->n_ctrls; c++)
        ssdsim__ctrl_fini(&s->ctrls[c]);
    if (s->have_uplink)
        ssdsim__link_fini(&s->uplink);
    for (uint32_t k = 0; s->tags && k < s->n_devs; k++)
        free(s->tags[k]);
    free(s->tags);
    free(s->tag_delta);
    free(s->wc.ext);
    free(s->wc.end_key);
    free(s->wc.end_slot);
    free(s->wc.wait);
    free(s->devs);
    free(s->ctrls);
    free(s->pool.v);
    free(s->ios);
    memset(s, 0, sizeof *s);
    ssdsim__ipool_init(&s->pool.ip);
}

void ssdsim__sys_set_done(struct ssdsim__sys *s, ssdsim__sys_io_done_fn fn, void *ctx)
{
    s->io_done = fn;
    s->io_ctx = ctx;
}

/* ------------------------------------------------------------------------------------------ */
/* Pools                                                                                       */

#define CMD_LINK offsetof(struct ssdsim__cmd, next)

static uint32_t cmd_alloc(struct ssdsim__sys *s)
{
    struct ssdsim__cmdpool *p = &s->pool;
    if (ssdsim__ipool_empty(&p->ip)) {
        struct ssdsim__cmd *v = ssdsim__ipool_grow(&p->ip, p->v, sizeof *v, CMD_LINK, 64);
        if (!v)
            return NONE;
        p->v = v;
    }
    return ssdsim__ipool_take(&p->ip, p->v, sizeof *p->v, CMD_LINK);
}

static void cmd_free(struct ssdsim__sys *s, uint32_t i)
{
    ssdsim__ipool_put(&s->pool.ip, s->pool.v, sizeof *s->pool.v, CMD_LINK, i);
}

static struct ssdsim__sysio *sysio(struct ssdsim__sys *s, uint32_t io)
{
    if (io >= s->n_ios) {
        uint32_t ncap = SSDSIM__MAX(SSDSIM__MAX(64u, s->n_ios * 2), io + 1);
        struct ssdsim__sysio *v = realloc(s->ios, sizeof *v * ncap);
        if (!v)
            return NULL;
        memset(v + s->n_ios, 0, sizeof *v * (ncap - s->n_ios));
        s->ios = v;
        s->n_ios = ncap;
    }
    return &s->ios[io];
}

/* The record of request `io`: the host's, or a cache flush's. */
static struct ssdsim__sysio *rec(struct ssdsim__sys *s, uint32_t io)
{
    return io & SSDSIM__WC_FLUSH ? &s->wc.fl[io & ~SSDSIM__WC_FLUSH] : &s->ios[io];
}

/* ------------------------------------------------------------------------------------------ */
/* Address mapping                                                                             */

void ssdsim__raid0_map(uint32_t n, uint32_t stripe, uint64_t offset, uint32_t *dev,
                       uint64_t *dev_offset)
{
    uint64_t strip = offset / stripe;
    *dev = (uint32_t)(strip % n);
    *dev_offset = strip / n * stripe + offset % stripe;
}

/* Left-symmetric: row r keeps its parity on device n - 1 - (r mod n); its data strips follow
 * the parity device round the ring, so consecutive strips land on consecutive devices. */
void ssdsim__raid5_map(uint32_t n, uint32_t stripe, uint64_t offset, uint32_t *dev,
                       uint64_t *dev_offset, uint32_t *parity_dev)
{
    uint64_t strip = offset / stripe;
    uint64_t row = strip / (n - 1);
    uint32_t k = (uint32_t)(strip % (n - 1));
    uint32_t p = n - 1 - (uint32_t)(row % n);
    *parity_dev = p;
    *dev = (p + 1 + k) % n;
    *dev_offset = row * stripe + offset % stripe;
}

/* Add a command for `io`, merging it into the previous command of this request on the same
 * device when it continues it (same operation, contiguous). `first` is the first command index
 * of this batch in the pool's chain (a batch is linked through `next` until submitted). */
struct batch {
    uint32_t head, tail;
    uint32_t n;
};

/* RAID-5 content tags (checks only): a write of [off, off + len) of device `dev` in role
 * `role`. Data granules get new versions and their old ^ new goes to the row's delta; a parity
 * write applies the delta of its granules to the parity's tags. A row's parity is added after
 * its data (map_raid5_write), so the delta is the row's. */
static void tag_write(struct ssdsim__sys *s, uint32_t dev, uint64_t off, uint32_t len,
                      uint8_t role)
{
    uint64_t g = s->tag_unit, per_strip = s->stripe / g;
    for (uint64_t u = off / g; u < (off + len + g - 1) / g; u++) {
        uint32_t *t = &s->tags[dev][u];
        uint32_t *d = &s->tag_delta[u % per_strip];
        if (role == ROLE_DATA) {
            uint32_t v = ++s->tag_clock ? s->tag_clock : ++s->tag_clock;
            *d ^= *t ^ v;
            *t = v;
        } else {
            *t ^= *d;
            *d = 0;
        }
    }
}

static int add(struct ssdsim__sys *s, struct batch *b, uint32_t io, uint32_t dev, uint8_t op,
               uint64_t off, uint32_t len, uint8_t role)
{
    if (s->tags && op == SSDSIM__IO_WRITE)
        tag_write(s, dev, off, len, role);
    for (uint32_t i = b->head; i != NONE; i = s->pool.v[i].next) {
        struct ssdsim__cmd *c = &s->pool.v[i];
        if (c->dev == dev && c->op == op && c->offset + c->len == off &&
            (uint64_t)c->len + len <= UINT32_MAX) {
            c->len += len;
            return 0;
        }
    }
    uint32_t i = cmd_alloc(s);
    if (i == NONE)
        return SSDSIM_ENOMEM;
    struct ssdsim__cmd *c = &s->pool.v[i];
    c->offset = off;
    c->len = len;
    c->io = io;
    c->dev = dev;
    c->op = op;
    c->fua = op == SSDSIM__IO_WRITE && !(io & SSDSIM__WC_FLUSH) && s->ios[io].fua;
    c->queue = io & SSDSIM__WC_FLUSH ? 0 : s->ios[io].queue;
    c->placement = io & SSDSIM__WC_FLUSH ? 0 : s->ios[io].placement;
    c->role = role;
    c->next = NONE;
    if (b->tail == NONE)
        b->head = i;
    else
        s->pool.v[b->tail].next = i;
    b->tail = i;
    b->n++;
    return 0;
}

/* Send a batch: the request waits for all of it. */
static void send(struct ssdsim__sys *s, struct ssdsim__sysio *r, struct batch *b)
{
    r->pending += b->n;
    for (uint32_t i = b->head; i != NONE;) {
        uint32_t next = s->pool.v[i].next;
        ssdsim__dev_submit(&s->devs[s->pool.v[i].dev], i);
        i = next;
    }
}

/* The pieces of [off, off+len) of a RAID-0 volume. */
static int map_raid0(struct ssdsim__sys *s, struct batch *b, uint32_t io, uint8_t op,
                     uint64_t off, uint32_t len)
{
    uint64_t end = off + len;
    while (off < end) {
        uint32_t dev;
        uint64_t doff;
        ssdsim__raid0_map(s->n_devs, s->stripe, off, &dev, &doff);
        uint64_t piece = SSDSIM__MIN(end - off, s->stripe - off % s->stripe);
        if (add(s, b, io, dev, op, doff, (uint32_t)piece, ROLE_DATA))
            return SSDSIM_ENOMEM;
        off += piece;
    }
    return 0;
}

/* RAID-5: the data pieces of [off, off+len) (reads, trims, and the data of writes). */
static int map_raid5_data(struct ssdsim__sys *s, struct batch *b, uint32_t io, uint8_t op,
                          uint64_t off, uint64_t end)
{
    while (off < end) {
        uint32_t dev, pdev;
        uint64_t doff;
        ssdsim__raid5_map(s->n_devs, s->stripe, off, &dev, &doff, &pdev);
        uint64_t piece = SSDSIM__MIN(end - off, s->stripe - off % s->stripe);
        if (add(s, b, io, dev, op, doff, (uint32_t)piece, ROLE_DATA))
            return SSDSIM_ENOMEM;
        off += piece;
    }
    return 0;
}

/* RAID-5 write, phase `phase`: 0 = the reads of the read-modify-writes (old data and old
 * parity of each partly written row), 1 = the writes (data, and parity of every row). */
static int map_raid5_write(struct ssdsim__sys *s, struct batch *b, uint32_t io, uint64_t off,
                           uint32_t len, int phase)
{
    uint64_t S = s->stripe, n = s->n_devs;
    uint64_t row_bytes = S * (n - 1);
    uint64_t end = off + len;
    for (uint64_t row = off / row_bytes; row * row_bytes < end; row++) {
        uint64_t a = SSDSIM__MAX(off, row * row_bytes);
        uint64_t z = SSDSIM__MIN(end, (row + 1) * row_bytes);
        bool full = a == row * row_bytes && z == (row + 1) * row_bytes;
        uint32_t pdev = (uint32_t)(n - 1 - row % n);
        if (full) {
            if (phase == 0)
                continue;
            if (map_raid5_data(s, b, io, SSDSIM__IO_WRITE, a, z) ||
                add(s, b, io, pdev, SSDSIM__IO_WRITE, row * S, (uint32_t)S, ROLE_PARITY))
                return SSDSIM_ENOMEM;
            continue;
        }
        /* The parity to read and rewrite covers the union of the in-strip ranges written in
         * this row: one range, or two when the write spans the end of one strip and the start
         * of the next without covering either whole and the two do not overlap. */
        uint64_t l1 = a % S, h2 = (z - 1) % S + 1;
        uint64_t r_lo[2], r_hi[2];
        int n_r = 1;
        if (a / S == (z - 1) / S) {
            r_lo[0] = l1;
            r_hi[0] = h2;
        } else if (z - a >= S || h2 >= l1) {
            r_lo[0] = 0;
            r_hi[0] = S;
        } else {
            r_lo[0] = 0;
            r_hi[0] = h2;
            r_lo[1] = l1;
            r_hi[1] = S;
            n_r = 2;
        }
        uint8_t op = phase == 0 ? SSDSIM__IO_READ : SSDSIM__IO_WRITE;
        if (map_raid5_data(s, b, io, op, a, z))
            return SSDSIM_ENOMEM;
        for (int k = 0; k < n_r; k++)
            if (add(s, b, io, pdev, op, row * S + r_lo[k], (uint32_t)(r_hi[k] - r_lo[k]),
                    ROLE_PARITY))
                return SSDSIM_ENOMEM;
    }
    return 0;
}

static bool wc_write(struct ssdsim__sys *s, uint32_t io);

/* The first commands of request `io` of a RAID array (a JBOD's go through submit_jbod). */
static void start(struct ssdsim__sys *s, uint32_t io)
{
    struct ssdsim__sysio *r = rec(s, io);
    if (s->wc.size && r->op == SSDSIM__IO_WRITE && !(io & SSDSIM__WC_FLUSH) && wc_write(s, io))
        return;
    struct batch b = {NONE, NONE, 0};
    int rc = 0;
    if (r->op == SSDSIM__IO_FLUSH) { /* every device of the volume */
        for (uint32_t k = 0; k < s->n_devs && !rc; k++)
            rc = add(s, &b, io, k, r->op, 0, 0, ROLE_DATA);
        goto sent;
    }
    switch (s->layout) {
    case SSDSIM__LAYOUT_JBOD:
        assert(!"a JBOD's requests go through submit_jbod");
        break;
    case SSDSIM__LAYOUT_RAID0:
        rc = map_raid0(s, &b, io, r->op, r->offset, r->len);
        break;
    case SSDSIM__LAYOUT_RAID1:
        if (r->op == SSDSIM__IO_READ) {
            /* the least busy mirror, the lowest on ties */
            uint32_t best = 0;
            for (uint32_t k = 1; k < s->n_devs; k++)
                if (ssdsim__dev_load(&s->devs[k]) < ssdsim__dev_load(&s->devs[best]))
                    best = k;
            rc = add(s, &b, io, best, r->op, r->offset, r->len, ROLE_DATA);
        } else {
            for (uint32_t k = 0; k < s->n_devs && !rc; k++)
                rc = add(s, &b, io, k, r->op, r->offset, r->len, ROLE_DATA);
        }
        break;
    case SSDSIM__LAYOUT_RAID5:
        if (r->op != SSDSIM__IO_WRITE) {
            rc = map_raid5_data(s, &b, io, r->op, r->offset, r->offset + r->len);
        } else {
            rc = map_raid5_write(s, &b, io, r->offset, r->len, 0);
            r->phase = 0;
            if (!rc && b.n == 0) { /* whole rows only: no reads */
                r->phase = 1;
                rc = map_raid5_write(s, &b, io, r->offset, r->len, 1);
            }
        }
        break;
    }
sent:
    if (rc) {
        s->fail_code = SSDSIM_ENOMEM;
        ssdsim__engine_stop(s->engine);
        return;
    }
    send(s, r, &b);
}

static void start_event(void *ctx, uint32_t io)
{
    start(ctx, io);
}

/* A JBOD's request (a single device's among them) is one command to the device of its volume,
 * as start and add make it, without the request's record: its breakdown is the command's
 * (cmd_done), and the card's cache and the RAID layer's time are not there. */
static int submit_jbod(struct ssdsim__sys *s, uint32_t io, uint32_t volume, uint8_t op,
                       uint64_t offset, uint32_t len, uint32_t queue)
{
    uint32_t i = cmd_alloc(s);
    if (i == NONE) {
        s->fail_code = SSDSIM_ENOMEM;
        ssdsim__engine_stop(s->engine);
        return s->fail_code;
    }
    struct ssdsim__cmd *c = &s->pool.v[i];
    bool flush = (op & ~SSDSIM__IO_FUA) == SSDSIM__IO_FLUSH;
    c->offset = flush ? 0 : offset;
    c->len = flush ? 0 : len;
    c->io = io;
    c->dev = volume;
    c->op = (uint8_t)(op & ~SSDSIM__IO_FUA);
    c->fua = c->op == SSDSIM__IO_WRITE && (op & SSDSIM__IO_FUA);
    c->queue = (uint16_t)queue;
    c->placement = (uint8_t)(queue >> 16);
    c->role = ROLE_DATA;
    c->next = NONE;
    ssdsim__dev_submit(&s->devs[volume], i);
    return s->fail_code;
}

int ssdsim__sys_submit(struct ssdsim__sys *s, uint32_t io, uint32_t volume, uint8_t op,
                       uint64_t offset, uint32_t len, uint32_t queue)
{
    if (s->layout == SSDSIM__LAYOUT_JBOD)
        return submit_jbod(s, io, volume, op, offset, len, queue);
    struct ssdsim__sysio *r = sysio(s, io);
    if (!r)
        return SSDSIM_ENOMEM;
    uint64_t now = ssdsim__engine_now(s->engine);
    r->offset = offset;
    r->len = len;
    r->volume = volume;
    r->op = (uint8_t)(op & ~SSDSIM__IO_FUA);
    r->fua = (op & SSDSIM__IO_FUA) != 0;
    r->queue = (uint16_t)queue;
    r->placement = (uint8_t)(queue >> 16);
    r->pending = 0;
    r->phase = 0;
    r->last_done_ns = 0;
    r->last = (struct ssdsim__breakdown){now, now, now, 0};
    s->wc.host_in++;
    s->wc.idle_gen++;
    if (s->raid_ns) {
        if (ssdsim__engine_schedule(s->engine, now + s->raid_ns, start_event, s, io))
            return SSDSIM_ENOMEM;
        return 0;
    }
    start(s, io);
    return s->fail_code;
}

void ssdsim__sys_prefetch(struct ssdsim__sys *s, uint32_t volume, uint64_t offset, bool write,
                          bool read)
{
    uint32_t dev = volume;
    uint64_t doff = offset;
    uint32_t pdev;
    if (s->layout == SSDSIM__LAYOUT_RAID0)
        ssdsim__raid0_map(s->n_devs, s->stripe, offset, &dev, &doff);
    else if (s->layout == SSDSIM__LAYOUT_RAID5)
        ssdsim__raid5_map(s->n_devs, s->stripe, offset, &dev, &doff, &pdev);
    else if (s->layout == SSDSIM__LAYOUT_RAID1)
        dev = 0;
    ssdsim__dev_prefetch(&s->devs[dev], doff, write, read);
}

void ssdsim__sys_hints_lead(struct ssdsim__sys *s, bool lead)
{
    /* a device with a write buffer has its writes hinted by the buffer's flush, two ahead
     * (dev/buffer.c): not by many */
    for (uint32_t k = 0; k < s->n_devs; k++)
        s->devs[k].env.hints_lead = lead && !s->devs[k].buf;
}

/* ------------------------------------------------------------------------------------------ */
/* The RAID card's write-back cache                                                            */

/* Request `io` of the host leaves the card: tell the host. When none is left in the card and
 * dirty data remains, the idle flush is armed (a later request disarms it). */
static void wc_idle_event(void *ctx, uint32_t gen);

static void host_done(struct ssdsim__sys *s, uint32_t io)
{
    struct ssdsim__wcache *w = &s->wc;
    w->host_in--;
    if (w->size && w->host_in == 0 && w->dirty && w->idle_ns &&
        ssdsim__engine_schedule(s->engine, ssdsim__engine_now(s->engine) + w->idle_ns,
                                wc_idle_event, s, (uint32_t)++w->idle_gen)) {
        s->fail_code = SSDSIM_ENOMEM;
        ssdsim__engine_stop(s->engine);
    }
    struct ssdsim__breakdown bd = s->ios[io].last;
    s->io_done(s->io_ctx, io, &bd);
}

static void wc_init(struct ssdsim__sys *s, const struct ssdsim__system_cfg *sc)
{
    struct ssdsim__wcache *w = &s->wc;
    memset(w, 0, sizeof *w);
    if (!sc->cache_bytes || !sc->cache_bbu || s->layout == SSDSIM__LAYOUT_JBOD)
        return; /* no cache, or write-through */
    w->size = sc->cache_bytes;
    w->high = (uint64_t)(sc->cache_high * (double)sc->cache_bytes);
    w->low = (uint64_t)(sc->cache_low * (double)sc->cache_bytes);
    w->idle_ns = sc->cache_idle_ns;
    w->bytes_per_s = sc->cache_bytes_per_s;
    uint64_t row = s->layout == SSDSIM__LAYOUT_RAID5   ? (uint64_t)s->stripe * (s->n_devs - 1)
                   : s->layout == SSDSIM__LAYOUT_RAID0 ? (uint64_t)s->stripe * s->n_devs
                                                       : 1u << 20;
    w->chunk = row * SSDSIM__WC_CHUNK_ROWS;
    w->rmw_row = s->layout == SSDSIM__LAYOUT_RAID5 ? row : 0;
    if (w->chunk > (1u << 30))
        w->chunk = row; /* extents are at most 4 GiB; a row is at most 1 GiB */
}

/* The index of queued extents by end offset: linear probing over end_cap (a power of two)
 * entries, deletion by shifting the run after the entry back (no tombstones). */
static uint32_t wc_end_home(const struct ssdsim__wcache *w, uint64_t key)
{
    return (uint32_t)((key / 512 * UINT64_C(0x9E3779B97F4A7C15)) >> 32) &
           (w->end_cap - 1);
}

static uint32_t wc_end_find(const struct ssdsim__wcache *w, uint64_t key)
{
    for (uint32_t i = wc_end_home(w, key); w->end_key[i]; i = (i + 1) & (w->end_cap - 1))
        if (w->end_key[i] == key)
            return i;
    return UINT32_MAX;
}

/* Map `key` to ring slot `slot` (replacing what it mapped to). */
static void wc_end_put(struct ssdsim__wcache *w, uint64_t key, uint32_t slot)
{
    uint32_t i = wc_end_home(w, key);
    while (w->end_key[i] && w->end_key[i] != key)
        i = (i + 1) & (w->end_cap - 1);
    w->end_key[i] = key;
    w->end_slot[i] = slot;
}

/* Forget `key` if it maps to `slot` (an older extent with the same end may have lost it). */
static void wc_end_del(struct ssdsim__wcache *w, uint64_t key, uint32_t slot)
{
    uint32_t i = wc_end_find(w, key), mask = w->end_cap - 1;
    if (i == UINT32_MAX || w->end_slot[i] != slot)
        return;
    w->end_key[i] = 0;
    for (uint32_t j = (i + 1) & mask; w->end_key[j]; j = (j + 1) & mask) {
        uint32_t h = wc_end_home(w, w->end_key[j]);
        /* move j back to the hole at i unless its home lies cyclically in (i, j] */
        if (((j - h) & mask) >= ((j - i) & mask)) {
            w->end_key[i] = w->end_key[j];
            w->end_slot[i] = w->end_slot[j];
            w->end_key[j] = 0;
            i = j;
        }
    }
}

/* Append [off, off + len) (within one chunk) to the dirty FIFO, extending the queued extent
 * that ends there, if any, when off is not a chunk's start. False when the ring cannot grow. */
static bool wc_append(struct ssdsim__wcache *w, uint64_t off, uint32_t len)
{
    if (w->n && off % w->chunk) {
        uint32_t i = wc_end_find(w, off);
        if (i != UINT32_MAX) {
            uint32_t slot = w->end_slot[i];
            wc_end_del(w, off, slot);
            w->ext[slot].len += len;
            w->ext[slot].last = w->seq;
            w->ext[slot].grown = true;
            wc_end_put(w, off + len, slot);
            return true;
        }
    }
    if (w->n == w->cap) {
        uint32_t cap = w->cap ? 2 * w->cap : 64;
        struct ssdsim__wc_ext *v = malloc(cap * sizeof *v);
        uint64_t *keys = calloc(2 * (size_t)cap, sizeof *keys);
        uint32_t *slots = malloc(2 * (size_t)cap * sizeof *slots);
        if (!v || !keys || !slots) {
            free(v);
            free(keys);
            free(slots);
            return false;
        }
        for (uint32_t i = 0; i < w->n; i++)
            v[i] = w->ext[(w->head + i) % w->cap];
        free(w->ext);
        free(w->end_key);
        free(w->end_slot);
        w->ext = v;
        w->cap = cap;
        w->head = 0;
        w->end_key = keys;
        w->end_slot = slots;
        w->end_cap = 2 * cap;
        for (uint32_t i = 0; i < w->n; i++) /* slots moved: index them again, oldest first */
            wc_end_put(w, v[i].offset + v[i].len, i);
    }
    uint32_t slot = (w->head + w->n++) % w->cap;
    w->ext[slot] = (struct ssdsim__wc_ext){off, len, w->seq, false};
    wc_end_put(w, off + len, slot);
    return true;
}

static void wc_ack_event(void *ctx, uint32_t io)
{
    host_done(ctx, io);
}

static void wc_kick(struct ssdsim__sys *s);

/* Host write `io` goes into the cache (it fits): acknowledged once its data has crossed the
 * card's uplink (at once without one). */
static void wc_absorb(struct ssdsim__sys *s, uint32_t io)
{
    struct ssdsim__wcache *w = &s->wc;
    struct ssdsim__sysio *r = &s->ios[io];
    uint64_t now = ssdsim__engine_now(s->engine);
    w->seq++;
    for (uint64_t off = r->offset, end = r->offset + r->len; off < end;) {
        uint64_t piece = SSDSIM__MIN(end - off, w->chunk - off % w->chunk);
        if (!wc_append(w, off, (uint32_t)piece)) {
            s->fail_code = SSDSIM_ENOMEM;
            ssdsim__engine_stop(s->engine);
            return;
        }
        off += piece;
    }
    w->dirty += r->len;
    w->queued += r->len;
    w->n_absorbed++;
    w->bytes_absorbed += r->len;
    uint64_t t = s->have_uplink ? ssdsim__link_xfer(&s->uplink, SSDSIM__LINK_DOWN, now, r->len)
                                : now;
    uint64_t copy = ((uint64_t)r->len * SSDSIM__NS_PER_S + w->bytes_per_s - 1) / w->bytes_per_s;
    w->dram_free_ns = SSDSIM__MAX(now, w->dram_free_ns) + copy;
    t = SSDSIM__MAX(t, w->dram_free_ns);
    r->last = (struct ssdsim__breakdown){now, now, t, 0};
    if (ssdsim__engine_schedule(s->engine, t, wc_ack_event, s, io)) {
        s->fail_code = SSDSIM_ENOMEM;
        ssdsim__engine_stop(s->engine);
        return;
    }
    wc_kick(s);
}

/* A host write reaches the cache. False when it is larger than the cache (it is written
 * through); else it is absorbed, or waits (in arrival order) for a flush to make room. */
static bool wc_write(struct ssdsim__sys *s, uint32_t io)
{
    struct ssdsim__wcache *w = &s->wc;
    uint32_t len = s->ios[io].len;
    if (len > w->size) {
        w->n_through++;
        return false;
    }
    if (w->w_n == 0 && w->dirty + len <= w->size) {
        wc_absorb(s, io);
        return true;
    }
    if (w->w_n == w->w_cap) {
        uint32_t cap = w->w_cap ? 2 * w->w_cap : 16;
        uint32_t *v = malloc(cap * sizeof *v);
        if (!v) {
            s->fail_code = SSDSIM_ENOMEM;
            ssdsim__engine_stop(s->engine);
            return true;
        }
        for (uint32_t i = 0; i < w->w_n; i++)
            v[i] = w->wait[(w->w_head + i) % w->w_cap];
        free(w->wait);
        w->wait = v;
        w->w_cap = cap;
        w->w_head = 0;
    }
    w->wait[(w->w_head + w->w_n++) % w->w_cap] = io;
    wc_kick(s);
    return true;
}

/* Start flushes while the policy asks for them: once dirty data exceeds the high watermark,
 * the oldest extents are written to the devices (as RAID writes of the volume: whole stripe
 * rows without reads, the rest read-modify-write), up to SSDSIM__WC_DEPTH at once, until what
 * is not yet being flushed is at most the low watermark (at most 0 for an idle flush) and no
 * host write waits for room.
 *
 * An extent a stream is still writing (it stops short of its chunk's end and was extended
 * within the last SSDSIM__WC_RECENT host writes) may grow into whole rows: outside an idle
 * flush it waits while another flush is in flight. With none in flight, on RAID-5 only its
 * whole rows are flushed and the part row at its end stays queued for the stream to complete
 * (full rows first, as RAID cards do); an extent that is only a part row waits too while it
 * is a stream's (it has grown) or the newest write, unless a host write waits for room (then
 * nothing else would make it) or the stream has stopped (idle or aged: written as a
 * read-modify-write). */
static void wc_kick(struct ssdsim__sys *s)
{
    struct ssdsim__wcache *w = &s->wc;
    if (!w->flushing && (w->dirty > w->high || w->w_n)) {
        w->flushing = true;
        w->target = w->low;
    }
    while (w->flushing) {
        if (w->queued <= w->target && w->w_n == 0) {
            w->flushing = false;
            w->idle = false;
            break;
        }
        if (w->n == 0 || w->fl_busy == (1u << SSDSIM__WC_DEPTH) - 1)
            break;
        struct ssdsim__wc_ext e = w->ext[w->head];
        uint64_t end = e.offset + e.len;
        bool growing = end % w->chunk && w->seq - e.last < SSDSIM__WC_RECENT && !w->idle;
        if (growing && w->fl_busy)
            break;
        bool keep = false; /* the extent's part row stays queued */
        if (growing && w->rmw_row && end % w->rmw_row) {
            uint64_t cut = end - end % w->rmw_row;
            if (cut > e.offset) { /* its whole rows now */
                w->ext[w->head].offset = cut;
                w->ext[w->head].len = (uint32_t)(end - cut);
                e.len = (uint32_t)(cut - e.offset);
                keep = true;
            } else if (w->w_n == 0 && (e.grown || e.last == w->seq)) {
                break; /* a part row the stream is still filling, and room for it */
            }
        }
        if (!keep) {
            wc_end_del(w, end, w->head);
            w->head = (w->head + 1) % w->cap;
            w->n--;
        }
        uint32_t k = 0;
        while (w->fl_busy & (1u << k))
            k++;
        w->fl_busy |= 1u << k;
        w->queued -= e.len;
        w->n_flushes++;
        struct ssdsim__sysio *r = &w->fl[k];
        uint64_t now = ssdsim__engine_now(s->engine);
        *r = (struct ssdsim__sysio){.offset = e.offset, .len = e.len, .op = SSDSIM__IO_WRITE};
        r->last = (struct ssdsim__breakdown){now, now, now, 0};
        start(s, SSDSIM__WC_FLUSH | k);
        if (s->fail_code)
            return;
    }
}

static void wc_idle_event(void *ctx, uint32_t gen)
{
    struct ssdsim__sys *s = ctx;
    struct ssdsim__wcache *w = &s->wc;
    if (gen != (uint32_t)w->idle_gen || w->host_in)
        return;
    w->flushing = true;
    w->idle = true;
    w->target = 0;
    wc_kick(s);
}

/* Flush k is on the devices: its room admits the waiting writes that now fit, oldest first. */
static void wc_flush_done(struct ssdsim__sys *s, uint32_t k)
{
    struct ssdsim__wcache *w = &s->wc;
    w->dirty -= w->fl[k].len;
    w->fl_busy &= ~(1u << k);
    while (w->w_n) {
        uint32_t io = w->wait[w->w_head];
        if (w->dirty + s->ios[io].len > w->size)
            break;
        w->w_head = (w->w_head + 1) % w->w_cap;
        w->w_n--;
        wc_absorb(s, io);
    }
    wc_kick(s);
}

static void cmd_done(void *ctx, uint32_t i)
{
    struct ssdsim__sys *s = ctx;
    struct ssdsim__cmd *c = &s->pool.v[i];
    uint32_t io = c->io;
    if (s->layout == SSDSIM__LAYOUT_JBOD) { /* its request's one command (submit_jbod) */
        struct ssdsim__breakdown bd = {c->admit_ns, c->ftl_ns, c->flash_done_ns, c->wait_ns};
        cmd_free(s, i);
        s->io_done(s->io_ctx, io, &bd);
        return;
    }
    struct ssdsim__sysio *r = rec(s, io);
    uint64_t now = ssdsim__engine_now(s->engine);
    if (now >= r->last_done_ns) {
        r->last_done_ns = now;
        r->last.admit_ns = c->admit_ns;
        r->last.ftl_ns = c->ftl_ns;
        r->last.flash_done_ns = c->flash_done_ns;
    }
    if (c->wait_ns > r->last.wait_ns)
        r->last.wait_ns = c->wait_ns;
    cmd_free(s, i);
    if (--r->pending > 0)
        return;
    if (s->layout == SSDSIM__LAYOUT_RAID5 && r->op == SSDSIM__IO_WRITE && r->phase == 0) {
        /* old data and parity are in: write the new data and parity */
        r->phase = 1;
        struct batch b = {NONE, NONE, 0};
        if (map_raid5_write(s, &b, io, r->offset, r->len, 1)) {
            s->fail_code = SSDSIM_ENOMEM;
            ssdsim__engine_stop(s->engine);
            return;
        }
        send(s, r, &b);
        return;
    }
    if (io & SSDSIM__WC_FLUSH) {
        wc_flush_done(s, io & ~SSDSIM__WC_FLUSH);
        return;
    }
    host_done(s, io);
}

/* ------------------------------------------------------------------------------------------ */
/* State and figures                                                                           */

int ssdsim__sys_failure(const struct ssdsim__sys *s, const char **msg)
{
    for (uint32_t k = 0; k < s->n_devs; k++)
        if (s->devs[k].ssd && s->devs[k].env.fail_code) {
            *msg = s->devs[k].env.fail_msg;
            return s->devs[k].env.fail_code;
        }
    if (s->fail_code)
        *msg = "out of memory during the run";
    return s->fail_code;
}

const char *ssdsim__sys_unfinished_ftl(const struct ssdsim__sys *s, uint32_t *n_cmds)
{
    for (uint32_t k = 0; k < s->n_devs; k++) {
        const struct ssdsim__dev *d = &s->devs[k];
        if (!d->ssd || ssdsim__plugin_builtin_ftl(d->env.ops))
            continue;
        uint32_t n = 0;
        for (uint32_t i = 0; i < s->pool.ip.cap; i++)
            n += s->pool.v[i].dev == d->index && s->pool.v[i].pending > 0;
        if (n) {
            *n_cmds = n;
            return d->env.ops->name;
        }
    }
    return NULL;
}

void ssdsim__sys_check_start(struct ssdsim__sys *s)
{
    if (s->tags || s->layout != SSDSIM__LAYOUT_RAID5 || !s->is_system)
        return;
    uint32_t g = s->stripe % 4096 == 0 ? 4096 : s->stripe % 512 == 0 ? 512 : 0;
    uint64_t units = g ? s->devs[0].bytes / g : 0;
    if (!g || units == 0 || units > (1u << 22))
        return; /* (a strip of odd bytes, or members too large to follow: not checked) */
    for (uint32_t k = 0; k < s->n_devs; k++)
        if (s->devs[k].done_cmds[SSDSIM__IO_WRITE] || s->devs[k].at_device)
            return; /* written already: the content is unknown */
    s->tags = calloc(s->n_devs, sizeof *s->tags);
    s->tag_delta = calloc(s->stripe / g, sizeof *s->tag_delta);
    bool ok = s->tags && s->tag_delta;
    for (uint32_t k = 0; ok && k < s->n_devs; k++)
        ok = (s->tags[k] = calloc(units, sizeof **s->tags)) != NULL;
    if (!ok) {
        for (uint32_t k = 0; s->tags && k < s->n_devs; k++)
            free(s->tags[k]);
        free(s->tags);
        free(s->tag_delta);
        s->tags = NULL;
        s->tag_delta = NULL;
        return;
    }
    s->tag_unit = g;
}

/* RAID-5: every row's tags XOR to zero on every granule (the parity's are the XOR of the
 * data's). */
static int check_parity(const struct ssdsim__sys *s, char *why, size_t len)
{
    uint64_t g = s->tag_unit, units = s->devs[0].bytes / g, per_strip = s->stripe / g;
    for (uint64_t u = 0; u < units; u++) {
        uint32_t x = 0;
        for (uint32_t k = 0; k < s->n_devs; k++)
            x ^= s->tags[k][u];
        if (x) {
            uint64_t row = u / per_strip;
            snprintf(why, len,
                     "RAID-5 row %llu, bytes %llu..%llu of its strips: the parity (device %u) "
                     "is not the XOR of the data (content tags XOR to %#x)",
                     (unsigned long long)row, (unsigned long long)(u % per_strip * g),
                     (unsigned long long)((u % per_strip + 1) * g - 1),
                     (uint32_t)(s->n_devs - 1 - row % s->n_devs), x);
            return SSDSIM_ESTATE;
        }
    }
    return 0;
}

int ssdsim__sys_check(struct ssdsim__sys *s, char *why, size_t len)
{
    char msg[400];
    for (uint32_t k = 0; k < s->n_devs; k++) {
        int rc = ssdsim__dev_check(&s->devs[k], msg, sizeof msg);
        if (rc) {
            if (s->n_devs > 1)
                snprintf(why, len, "device %u: %s", k, msg);
            else
                snprintf(why, len, "%s", msg);
            return rc;
        }
    }
    return s->tags ? check_parity(s, why, len) : 0;
}

bool ssdsim__sys_busy(const struct ssdsim__sys *s)
{
    if (s->wc.fl_busy || s->wc.w_n)
        return true;
    for (uint32_t k = 0; k < s->n_devs; k++)
        if (ssdsim__dev_busy(&s->devs[k]))
            return true;
    return false;
}

void ssdsim__sys_reset(struct ssdsim__sys *s, uint64_t now)
{
    for (uint32_t c = 0; c < s->n_ctrls; c++)
        ssdsim__ctrl_reset(&s->ctrls[c], now);
    if (s->have_uplink)
        ssdsim__link_reset(&s->uplink, now);
    for (uint32_t k = 0; k < s->n_devs; k++)
        ssdsim__dev_reset(&s->devs[k], now);
    /* the cache's dirty data is gone with the rest (nothing is in flight) */
    s->wc.dirty = s->wc.queued = 0;
    s->wc.n = s->wc.head = 0;
    if (s->wc.end_key)
        memset(s->wc.end_key, 0, s->wc.end_cap * sizeof *s->wc.end_key);
    s->wc.flushing = false;
    s->wc.idle = false;
    s->wc.idle_gen++;
    s->wc.dram_free_ns = now;
    /* secure-erased: every unit reads as zeros, data and parity alike */
    for (uint32_t k = 0; s->tags && k < s->n_devs; k++)
        memset(s->tags[k], 0, sizeof **s->tags * (s->devs[0].bytes / s->tag_unit));
}

void ssdsim__sys_counters(const struct ssdsim__sys *s, struct ssdsim__env_counters *out)
{
    memset(out, 0, sizeof *out);
    for (uint32_t k = 0; k < s->n_devs; k++) {
        if (!s->devs[k].ssd)
            continue;
        const struct ssdsim__env_counters *c = &s->devs[k].env.n;
        for (int i = 0; i < SSDSIM__N_COUNTERS; i++)
            out->c[i] += c->c[i];
        for (int i = 0; i < SSDSIM__N_PURPOSES; i++) {
            out->programs[i] += c->programs[i];
            out->reads[i] += c->reads[i];
        }
        out->erases += c->erases;
    }
}

void ssdsim__sys_measure(const struct ssdsim__sys *s)
{
    for (uint32_t k = 0; k < s->n_devs; k++)
        if (s->devs[k].ssd)
            ssdsim__page_slc_measure(&s->devs[k].env);
}

/* Time booked on timelines that are free again at free[0 .. n) that lies after `at`. */
static uint64_t booked_after(const uint64_t *free, uint32_t n, uint64_t at)
{
    uint64_t t = 0;
    for (uint32_t i = 0; i < n; i++)
        t += free[i] > at ? free[i] - at : 0;
    return t;
}

void ssdsim__sys_mech(const struct ssdsim__sys *s, uint64_t at, struct ssdsim__sys_mech *out)
{
    memset(out, 0, sizeof *out);
    for (uint32_t k = 0; k < s->n_ctrls; k++) {
        const struct ssdsim__ctrl *c = &s->ctrls[k];
        out->fw_busy_ns += c->busy_ns - booked_after(c->core_free, c->n_cores, at);
        out->fw_cores += c->n_cores;
    }
    for (uint32_t k = 0; k < s->n_devs; k++) {
        const struct ssdsim__dev *d = &s->devs[k];
        out->fw_busy_ns += d->cpu.busy_ns - booked_after(d->cpu.free_ns, d->cpu.n_threads, at);
        out->fw_cores += d->cpu.n_threads;
        if (!d->ssd)
            continue;
        const struct ssdsim__hw *hw = &d->hw;
        out->multiplane += hw->n_multiplane;
        out->multiplane_planes += hw->n_multiplane_planes;
        out->cache_reads += hw->n_cache_reads;
        out->cache_programs += hw->n_cache_programs;
        out->suspends += hw->n_suspends;
        out->copybacks += hw->n_copybacks;
        out->page_programs += hw->n_page_programs;
        out->pad_slots += hw->n_pad_slots;
        out->reg_hits += hw->n_reg_hits;
        out->wpath_busy_ns += hw->wpath_busy_ns - booked_after(&hw->wpath_free, 1, at);
        out->wpath_devs += hw->wpath_bw > 0;
        if (hw->rel)
            ssdsim__rel_sum(&out->rel, &hw->rel->n);
    }
}

bool ssdsim__sys_preconditioned(const struct ssdsim__sys *s, char *why, size_t len)
{
    for (uint32_t k = 0; k < s->n_devs; k++) {
        char one[200];
        if (ssdsim__dev_preconditioned(&s->devs[k], s->precond_by_writes, why ? one : NULL,
                                       sizeof one))
            continue;
        if (why && s->n_devs > 1)
            snprintf(why, len, "device %u: %s", k, one);
        else if (why)
            snprintf(why, len, "%s", one);
        return false;
    }
    return true;
}

bool ssdsim__sys_all_ssd(const struct ssdsim__sys *s)
{
    return s->devs[0].ssd;
}

uint32_t ssdsim__sys_ec_min(const struct ssdsim__sys *s)
{
    uint32_t v = UINT32_MAX;
    for (uint32_t k = 0; k < s->n_devs; k++)
        if (s->devs[k].ssd)
            v = SSDSIM__MIN(v, s->devs[k].env.ec_min);
    return v == UINT32_MAX ? 0 : v;
}

uint32_t ssdsim__sys_ec_max(const struct ssdsim__sys *s)
{
    uint32_t v = 0;
    for (uint32_t k = 0; k < s->n_devs; k++)
        if (s->devs[k].ssd)
            v = SSDSIM__MAX(v, s->devs[k].env.ec_max);
    return v;
}

uint64_t ssdsim__sys_ec_blocks(const struct ssdsim__sys *s, uint32_t e)
{
    uint64_t n = 0;
    for (uint32_t k = 0; k < s->n_devs; k++) {
        const struct ssdsim_ftl_env *env = &s->devs[k].env;
        if (s->devs[k].ssd && e >= env->ec_min && e <= env->ec_max)
            n += env->ec_hist[e];
    }
    return n;
}

double ssdsim__sys_erase_mean(const struct ssdsim__sys *s)
{
    double total = 0, blocks = 0;
    for (uint32_t k = 0; k < s->n_devs; k++) {
        const struct ssdsim_ftl_env *env = &s->devs[k].env;
        if (!s->devs[k].ssd)
            continue;
        for (uint32_t e = env->ec_min; e <= env->ec_max; e++)
            total += (double)e * (double)env->ec_hist[e];
        blocks += (double)env->geo.n_blocks;
    }
    return blocks > 0 ? total / blocks : 0;
}

uint64_t ssdsim__sys_free_blocks(const struct ssdsim__sys *s)
{
    uint64_t n = 0;
    for (uint32_t k = 0; k < s->n_devs; k++)
        if (s->devs[k].ssd)
            n += ssdsim__env_free_blocks(&s->devs[k].env);
    return n;
}

uint64_t ssdsim__sys_blocks(const struct ssdsim__sys *s)
{
    uint64_t n = 0;
    for (uint32_t k = 0; k < s->n_devs; k++)
        if (s->devs[k].ssd)
            n += s->devs[k].env.geo.n_blocks;
    return n;
}

uint64_t ssdsim__sys_flash_bytes(const struct ssdsim__sys *s)
{
    uint64_t n = 0;
    for (uint32_t k = 0; k < s->n_devs; k++)
        if (s->devs[k].ssd)
            n += s->devs[k].env.geo.n_pages * s->devs[k].env.geo.page_size;
    return n;
}

uint64_t ssdsim__sys_flash_pages(const struct ssdsim__sys *s)
{
    uint64_t n = 0;
    for (uint32_t k = 0; k < s->n_devs; k++)
        if (s->devs[k].ssd)
            n += s->devs[k].env.geo.n_pages;
    return n;
}

uint64_t ssdsim__sys_member_extent(const struct ssdsim__sys *s)
{
    uint64_t dev = s->devs[0].bytes;
    if (s->layout == SSDSIM__LAYOUT_RAID0 || s->layout == SSDSIM__LAYOUT_RAID5)
        return dev / s->stripe * s->stripe;
    return dev;
}

uint64_t ssdsim__sys_mapped_bytes(const struct ssdsim__sys *s)
{
    uint64_t n = 0;
    if (!s->is_system)
        return s->devs[0].bytes;
    for (uint32_t k = 0; k < s->n_devs; k++)
        n += ssdsim__sys_member_extent(s);
    return n;
}

uint64_t ssdsim__sys_device_bytes(const struct ssdsim__sys *s)
{
    uint64_t n = 0;
    for (uint32_t k = 0; k < s->n_devs; k++)
        n += s->devs[k].bytes;
    return n;
}
