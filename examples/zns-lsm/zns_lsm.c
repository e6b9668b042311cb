/* zns_lsm.c: a host-side log-structured store on a zoned drive, with its own garbage
 * collection, against the same store writing in place on a conventional drive of the same
 * flash. Write amplification moves from the drive to the host: on the zoned drive the device
 * programs exactly what the host writes (WAF 1) and the host rewrites live data when it cleans
 * a zone; on the conventional drive the host writes each update once and the drive's FTL
 * cleans. The product host x device is what the flash sees per user byte.
 *
 * The store: N keys of 4 KiB, updated uniformly at random. On the zoned drive each update is a
 * zone append to the open zone; the completion says where it landed (the store's index maps the
 * key there). When free zones run low the store cleans the full zone with the fewest live
 * values (greedy): it reads them, appends them again, and resets the zone. Same flash for both
 * drives (the model's geometry), same keys (the conventional drive's logical capacity at its
 * ftl.op), same updates (three times the keys).
 *
 * Build: cc zns_lsm.c $(pkg-config --cflags --libs ssdsim) -o zns_lsm
 * Run:   ./zns_lsm [model.json]   (default: the built-in generic MLC drive)
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include <ssdsim/ssdsim.h>

#define UNIT 4096u
#define NONE UINT32_MAX
#define BATCH 64

struct store {
    ssdsim *sim;
    uint64_t keys, zone_units, n_zones;
    uint32_t *where;   /* per key: its unit on the drive, or NONE */
    uint32_t *key_at;  /* per unit: the key it holds (NONE: stale or empty) */
    uint32_t *live;    /* per zone: live values */
    uint32_t *fill;    /* per zone: units appended (reserved) */
    uint32_t *free_zones, n_free;
    uint32_t open;
    uint64_t user_writes, gc_writes, resets;
    int failed;
};

static void fail(struct store *s, const char *what)
{
    if (!s->failed)
        fprintf(stderr, "zns_lsm: %s: %s\n", what, ssdsim_errmsg(s->sim));
    s->failed = 1;
}

/* An append landed: the key now lives at the unit the drive chose. */
static void appended(const ssdsim_completion *c, void *ud)
{
    struct store *s = ud;
    if (c->status) {
        fprintf(stderr, "zns_lsm: append refused with status 0x%x\n", c->status);
        s->failed = 1;
        return;
    }
    uint32_t key = (uint32_t)c->id, unit = (uint32_t)(c->offset / UNIT);
    uint32_t old = s->where[key];
    if (old != NONE) {
        s->key_at[old] = NONE;
        s->live[old / s->zone_units]--;
    }
    s->where[key] = unit;
    s->key_at[unit] = key;
    s->live[unit / s->zone_units]++;
}

static void drain(struct store *s)
{
    if (ssdsim_drain(s->sim))
        fail(s, "drain");
}

/* Reserve a unit in the open zone for the next append (a new zone when it is full). */
static uint64_t reserve(struct store *s)
{
    if (s->fill[s->open] == s->zone_units) {
        if (s->n_free == 0) {
            fprintf(stderr, "zns_lsm: out of free zones\n");
            s->failed = 1;
            return 0;
        }
        s->open = s->free_zones[--s->n_free];
    }
    s->fill[s->open]++;
    return (uint64_t)s->open * s->zone_units * UNIT;
}

static void append(struct store *s, uint32_t key)
{
    uint64_t zone = reserve(s);
    if (!s->failed && ssdsim_submit(s->sim, SSDSIM_OP_ZONE_APPEND, zone, UNIT,
                                    ssdsim_now(s->sim), key, appended, s))
        fail(s, "append");
}

/* Greedy cleaning: the full zone (not the open one) with the fewest live values. */
static void clean_one(struct store *s)
{
    uint32_t victim = NONE;
    for (uint32_t z = 0; z < s->n_zones; z++)
        if (z != s->open && s->fill[z] == s->zone_units &&
            (victim == NONE || s->live[z] < s->live[victim]))
            victim = z;
    if (victim == NONE)
        return;
    uint64_t first = (uint64_t)victim * s->zone_units;
    for (uint64_t u = first; u < first + s->zone_units && !s->failed; u++) {
        uint32_t key = s->key_at[u];
        if (key == NONE)
            continue;
        if (ssdsim_submit(s->sim, SSDSIM_OP_READ, u * UNIT, UNIT, ssdsim_now(s->sim), key, NULL,
                          NULL))
            fail(s, "read");
        append(s, key);
        s->gc_writes++;
        if (s->gc_writes % BATCH == 0)
            drain(s);
    }
    drain(s); /* every live value is elsewhere before the zone is reset */
    if (ssdsim_submit(s->sim, SSDSIM_OP_ZONE_RESET, first * UNIT, 0, ssdsim_now(s->sim), 0, NULL,
                      NULL))
        fail(s, "reset");
    drain(s);
    s->fill[victim] = 0;
    s->free_zones[s->n_free++] = victim;
    s->resets++;
}

static uint64_t next_rand(uint64_t *x)
{
    *x ^= *x << 13;
    *x ^= *x >> 7;
    *x ^= *x << 17;
    return *x;
}

struct figures {
    double host_waf, device_waf;
    uint64_t resets;
};

/* The store on the zoned drive: fill every key once, then `updates` random updates. */
static int run_zoned(const ssdsim_model *m, uint64_t keys, uint64_t updates, struct figures *out)
{
    ssdsim_error err;
    struct store s = {0};
    if (ssdsim_new(&s.sim, m, 1, &err)) {
        fprintf(stderr, "zns_lsm: %s\n", err.message);
        return 1;
    }
    ssdsim_zone z;
    size_t n = 0;
    ssdsim_zns_stats zs;
    ssdsim_report_zones(s.sim, 0, &z, 1, &n);
    ssdsim_get_zns_stats(s.sim, &zs);
    s.keys = keys;
    s.zone_units = z.capacity / UNIT;
    s.n_zones = zs.zones;
    s.where = malloc(keys * sizeof *s.where);
    s.key_at = malloc(s.n_zones * s.zone_units * sizeof *s.key_at);
    s.live = calloc(s.n_zones, sizeof *s.live);
    s.fill = calloc(s.n_zones, sizeof *s.fill);
    s.free_zones = malloc(s.n_zones * sizeof *s.free_zones);
    if (!s.where || !s.key_at || !s.live || !s.fill || !s.free_zones) {
        fprintf(stderr, "zns_lsm: out of memory\n");
        return 1;
    }
    for (uint64_t k = 0; k < keys; k++)
        s.where[k] = NONE;
    for (uint64_t u = 0; u < s.n_zones * s.zone_units; u++)
        s.key_at[u] = NONE;
    for (uint32_t i = 0; i < s.n_zones - 1; i++)
        s.free_zones[s.n_free++] = (uint32_t)(s.n_zones - 1 - i);
    s.open = 0;
    uint64_t x = 88172645463325252ull;
    for (uint64_t i = 0; i < keys + updates && !s.failed; i++) {
        while (s.n_free < 2 && !s.failed)
            clean_one(&s);
        append(&s, (uint32_t)(i < keys ? i : next_rand(&x) % keys));
        s.user_writes++;
        if (i % BATCH == BATCH - 1)
            drain(&s);
    }
    drain(&s);
    ssdsim_device_stats d;
    ssdsim_get_device_stats(s.sim, &d);
    out->host_waf = (double)(s.user_writes + s.gc_writes) / (double)s.user_writes;
    out->device_waf = d.waf;
    out->resets = s.resets;
    int rc = s.failed;
    free(s.where);
    free(s.key_at);
    free(s.live);
    free(s.fill);
    free(s.free_zones);
    ssdsim_free(s.sim);
    return rc;
}

/* The same keys and updates written in place on the conventional drive. */
static int run_conventional(const ssdsim_model *m, uint64_t keys, uint64_t updates,
                            struct figures *out)
{
    ssdsim_error err;
    ssdsim *sim = NULL;
    if (ssdsim_new(&sim, m, 1, &err)) {
        fprintf(stderr, "zns_lsm: %s\n", err.message);
        return 1;
    }
    uint64_t x = 88172645463325252ull;
    for (uint64_t i = 0; i < keys + updates; i++) {
        uint64_t key = i < keys ? i : next_rand(&x) % keys;
        if (ssdsim_submit(sim, SSDSIM_OP_WRITE, key * UNIT, UNIT, ssdsim_now(sim), i, NULL,
                          NULL) ||
            (i % BATCH == BATCH - 1 && ssdsim_drain(sim))) {
            fprintf(stderr, "zns_lsm: %s\n", ssdsim_errmsg(sim));
            return 1;
        }
    }
    if (ssdsim_drain(sim)) {
        fprintf(stderr, "zns_lsm: %s\n", ssdsim_errmsg(sim));
        return 1;
    }
    ssdsim_device_stats d;
    ssdsim_get_device_stats(sim, &d);
    out->host_waf = 1.0;
    out->device_waf = d.waf;
    out->resets = 0;
    ssdsim_free(sim);
    return 0;
}

int main(int argc, char **argv)
{
    ssdsim_model *conv = NULL, *zoned = NULL;
    ssdsim_error err;
    int rc = argc > 1 ? ssdsim_model_load_file(&conv, argv[1], &err)
                      : ssdsim_model_default(&conv, &err);
    /* a small drive so that the example runs in seconds: 32-page blocks, 64 per plane */
    if (rc || ssdsim_model_set(conv, "geometry.pages_per_block", "32", &err) ||
        ssdsim_model_set(conv, "geometry.blocks_per_plane", "64", &err) ||
        ssdsim_model_copy(&zoned, conv) || ssdsim_model_set(zoned, "ftl.type", "\"zoned\"", &err)) {
        fprintf(stderr, "zns_lsm: %s\n", err.message);
        return 1;
    }
    uint64_t keys = ssdsim_model_logical_bytes(conv) / UNIT, updates = 3 * keys;
    struct figures zf, cf;
    if (run_zoned(zoned, keys, updates, &zf) || run_conventional(conv, keys, updates, &cf))
        return 1;
    printf("%llu keys of 4 KiB, %llu uniform random updates, the same flash\n",
           (unsigned long long)keys, (unsigned long long)updates);
    printf("zoned drive:        host WAF %.3f x device WAF %.3f = %.3f (%llu zone resets)\n",
           zf.host_waf, zf.device_waf, zf.host_waf * zf.device_waf,
           (unsigned long long)zf.resets);
    printf("conventional drive: host WAF %.3f x device WAF %.3f = %.3f\n", cf.host_waf,
           cf.device_waf, cf.host_waf * cf.device_waf);
    ssdsim_model_free(conv);
    ssdsim_model_free(zoned);
    if (zf.device_waf != 1.0) {
        fprintf(stderr, "zns_lsm: the zoned drive's WAF is %.6f, not 1\n", zf.device_waf);
        return 1;
    }
    return 0;
}
