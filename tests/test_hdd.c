/* test_hdd.c: the hard-disk model (libssdsim/hdd/hdd.c).
 *
 * Every expected figure is derived by hand in the comments from the model written out in
 * hdd.h: the zone table, the cylinder count, the seek curve, the exact rotational wait of a
 * single access, sequential rates at both ends of the disk with and without read-ahead, the
 * write cache, random-read IOPS against 1 / (average seek + half a revolution + transfer), SATF
 * against FCFS, and aged SATF's bounds (depth 64 no slower than 48, the longest wait). The disk
 * is driven by a real engine; the host submits from events. Each test ends with no event left
 * (a leak test under ASan).
 */
#include "common.h"
#include "engine/engine.h"
#include "hdd/hdd.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

/* Disk A: 7200 rpm, so a revolution P = 60e9 / 7200 = 8 333 333.33 ns, and a zone's sectors
 * per track are rate / (7200 / 60) / 512 = rate / 61440. Five zones from 122.88 MB/s down to
 * 61.44 MB/s: rates 122.88, 107.52, 92.16, 76.8, 61.44 MB/s, so spt = 2000, 1750, 1500, 1250,
 * 1000 exactly (sum 7500). One cylinder in each zone holds 4 heads x 512 x 7500 = 15 360 000
 * bytes, so 153.6 GB gives 10 000 cylinders per zone exactly: N = 50 000. Zones start at LBA 0,
 * 80e6, 150e6, 210e6, 260e6 (each adds 10 000 x 4 x spt sectors); the disk ends at 300e6.
 * Track skew = ceil(0.3 ms x spt / P) = spt x 0.036: 72, 63, 54, 45, 36 sectors. */
static struct ssdsim__hdd_cfg disk_a(void)
{
    struct ssdsim__hdd_cfg c = {
        .capacity = 153600000000ULL,
        .rpm = 7200,
        .heads = 4,
        .zones = 5,
        .outer_bytes_per_s = 122880000,
        .inner_bytes_per_s = 61440000,
        .seek_track_ns = 300000,
        .seek_avg_ns = 8000000,
        .seek_full_ns = 16000000,
        .write_settle_ns = 500000,
        .cache_bytes = 8 << 20,
        .write_cache = 1,
        .read_ahead = 1,
        .sched = SSDSIM__HDD_SATF,
    };
    return c;
}

/* Disk B: a 1 TB 7200 rpm desktop disk, 8.9 ms average seek. */
static struct ssdsim__hdd_cfg disk_b(void)
{
    struct ssdsim__hdd_cfg c = {
        .capacity = 1000000000000ULL,
        .rpm = 7200,
        .heads = 4,
        .zones = 8,
        .outer_bytes_per_s = 200000000,
        .inner_bytes_per_s = 100000000,
        .seek_track_ns = 800000,
        .seek_avg_ns = 8900000,
        .seek_full_ns = 18000000,
        .write_settle_ns = 0,
        .cache_bytes = 16 << 20,
        .write_cache = 1,
        .read_ahead = 1,
        .sched = SSDSIM__HDD_SATF,
    };
    return c;
}

/* Disk C: a 600 GB 15 000 rpm enterprise disk (the Ultrastar 15K600's figures, one read
 * segment, write cache off): a revolution P = 4 ms; spt from 208e6 x 60 / (15 000 x 512) = 1625
 * down to 1000. */
static struct ssdsim__hdd_cfg disk_c(void)
{
    struct ssdsim__hdd_cfg c = {
        .capacity = 600127266816ULL,
        .rpm = 15000,
        .heads = 8,
        .zones = 30,
        .outer_bytes_per_s = 208000000,
        .inner_bytes_per_s = 128000000,
        .seek_track_ns = 200000,
        .seek_avg_ns = 3400000,
        .seek_full_ns = 6500000,
        .write_settle_ns = 500000,
        .cache_bytes = 64 << 20,
        .write_cache = 0,
        .read_ahead = 1,
        .sched = SSDSIM__HDD_SATF,
    };
    return c;
}

/* ------------------------------------------------------------------------------------------ */
/* A host on the engine: `qd` commands in flight, each new one submitted `think_ns` after a
 * completion, from an event. */

struct host {
    struct ssdsim__engine e;
    struct ssdsim__hdd d;
    uint64_t *submit_ns, *done_ns;
    uint32_t n_cmds, n_sent, n_done;
    uint32_t n_auto; /* commands the host sends itself (n_cmds unless a test sets it) */
    int op;
    uint32_t bs;
    uint64_t think_ns;
    int manual; /* the test submits; a completion sends nothing */
    int random;
    uint64_t rng;
    uint64_t start, span, next;
};

static uint64_t splitmix(uint64_t *s)
{
    uint64_t z = (*s += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

static void host_send(void *ctx, uint32_t arg)
{
    (void)arg;
    struct host *h = ctx;
    uint32_t cmd = h->n_sent++;
    uint64_t off;
    if (h->random) {
        off = h->start + splitmix(&h->rng) % (h->span / h->bs) * h->bs;
    } else {
        off = h->next;
        h->next += h->bs;
    }
    h->submit_ns[cmd] = ssdsim__engine_now(&h->e);
    ssdsim__hdd_submit(&h->d, cmd, h->op, off, h->bs, 0);
}

static void host_done(void *ctx, uint32_t cmd)
{
    struct host *h = ctx;
    ck_assert_uint_lt(cmd, h->n_cmds);
    ck_assert_uint_eq(h->done_ns[cmd], UINT64_MAX); /* done once */
    h->done_ns[cmd] = ssdsim__engine_now(&h->e);
    h->n_done++;
    if (!h->manual && h->n_sent < h->n_auto)
        ssdsim__engine_schedule(&h->e, h->done_ns[cmd] + h->think_ns, host_send, h, 0);
}

static void host_init(struct host *h, const struct ssdsim__hdd_cfg *cfg, uint32_t n_cmds)
{
    memset(h, 0, sizeof *h);
    ck_assert_int_eq(ssdsim__engine_init(&h->e, 64), 0);
    ck_assert_int_eq(ssdsim__hdd_init(&h->d, cfg, &h->e, host_done, h), 0);
    h->n_cmds = h->n_auto = n_cmds;
    h->submit_ns = malloc(n_cmds * sizeof *h->submit_ns);
    h->done_ns = malloc(n_cmds * sizeof *h->done_ns);
    ck_assert_ptr_nonnull(h->submit_ns);
    ck_assert_ptr_nonnull(h->done_ns);
    for (uint32_t i = 0; i < n_cmds; i++)
        h->done_ns[i] = UINT64_MAX;
}

/* Run `qd` streams of commands from time t0 to the end; every command must complete. */
static void host_run(struct host *h, uint32_t qd, uint64_t t0)
{
    for (uint32_t i = 0; i < qd && i < h->n_auto; i++)
        ssdsim__engine_schedule(&h->e, t0, host_send, h, 0);
    ck_assert_int_eq(ssdsim__engine_run(&h->e, 0), 0);
    ck_assert_uint_eq(h->n_done, h->n_cmds);
    ck_assert(!ssdsim__hdd_busy(&h->d));
}

static void host_fini(struct host *h)
{
    ck_assert_uint_eq(ssdsim__engine_pending(&h->e), 0);
    ssdsim__hdd_fini(&h->d);
    ssdsim__engine_fini(&h->e);
    free(h->submit_ns);
    free(h->done_ns);
}

static uint64_t last_done(const struct host *h)
{
    uint64_t t = 0;
    for (uint32_t i = 0; i < h->n_cmds; i++)
        t = SSDSIM__MAX(t, h->done_ns[i]);
    return t;
}

/* ------------------------------------------------------------------------------------------ */

START_TEST(test_hdd_geometry)
{
    struct ssdsim__engine e;
    struct ssdsim__hdd d;
    struct ssdsim__hdd_cfg c = disk_a();
    ck_assert_int_eq(ssdsim__engine_init(&e, 4), 0);
    ck_assert_int_eq(ssdsim__hdd_init(&d, &c, &e, NULL, NULL), 0);
    static const uint32_t spt[] = {2000, 1750, 1500, 1250, 1000};
    static const uint64_t first[] = {0, 80000000, 150000000, 210000000, 260000000};
    static const uint32_t skew[] = {72, 63, 54, 45, 36};
    ck_assert_uint_eq(d.n_zones, 5);
    for (int z = 0; z < 5; z++) {
        ck_assert_uint_eq(d.zones[z].spt, spt[z]);
        ck_assert_uint_eq(d.zones[z].first_lba, first[z]);
        ck_assert_uint_eq(d.zones[z].first_cyl, 10000u * z);
        ck_assert_uint_eq(d.zones[z].n_cyl, 10000);
        ck_assert_uint_eq(d.zones[z].skew, skew[z]);
        /* rate = spt x 512 x 120 */
        ck_assert_double_eq(ssdsim__hdd_rate_at(&d, first[z] * 512), spt[z] * 61440.0);
    }
    ck_assert_uint_eq(ssdsim__hdd_cylinders(&d), 50000);
    /* Start and end of the disk run at the outer and inner rates. */
    ck_assert_double_eq(ssdsim__hdd_rate_at(&d, 0), 122880000.0);
    ck_assert_double_eq(ssdsim__hdd_rate_at(&d, c.capacity - 512), 61440000.0);
    ssdsim__hdd_fini(&d);

    /* 5 120 000 bytes more: 2.5 cylinders of the last zone (4 x 512 x 1000 = 2 048 000 bytes
     * each), rounded up to 3: N = 50 003, holding 6 144 000 bytes more than 153.6 GB. */
    c.capacity += 5120000;
    ck_assert_int_eq(ssdsim__hdd_init(&d, &c, &e, NULL, NULL), 0);
    ck_assert_uint_eq(ssdsim__hdd_cylinders(&d), 50003);
    ck_assert_uint_eq(d.zones[4].n_cyl, 10003);
    uint64_t held = 0;
    for (int z = 0; z < 5; z++)
        held += d.zones[z].n_cyl * 4 * d.zones[z].spt * 512;
    ck_assert_uint_eq(held, 153606144000ULL);
    ck_assert_uint_ge(held, c.capacity);
    ssdsim__hdd_fini(&d);

    /* Rates that are not whole sectors per track: 150 MB/s / 61440 = 2441.4 -> 2441 sectors,
     * 149 975 040 B/s, less than one sector per revolution (61 440 B/s) below. 75 MB/s ->
     * 1220.7 -> 1220 sectors, 74 956 800 B/s. */
    c = disk_a();
    c.outer_bytes_per_s = 150000000;
    c.inner_bytes_per_s = 75000000;
    c.capacity = 500000000000ULL;
    ck_assert_int_eq(ssdsim__hdd_init(&d, &c, &e, NULL, NULL), 0);
    ck_assert_double_eq(ssdsim__hdd_rate_at(&d, 0), 149975040.0);
    ck_assert_double_le(150e6 - ssdsim__hdd_rate_at(&d, 0), 61440.0);
    ck_assert_double_eq(ssdsim__hdd_rate_at(&d, c.capacity - 512), 74956800.0);
    ck_assert_double_le(75e6 - ssdsim__hdd_rate_at(&d, c.capacity - 512), 61440.0);
    ssdsim__hdd_fini(&d);
    ssdsim__engine_fini(&e);
}
END_TEST

START_TEST(test_hdd_seek_curve)
{
    struct ssdsim__engine e;
    struct ssdsim__hdd d;
    struct ssdsim__hdd_cfg c = disk_a();
    ck_assert_int_eq(ssdsim__engine_init(&e, 4), 0);
    ck_assert_int_eq(ssdsim__hdd_init(&d, &c, &e, NULL, NULL), 0);
    /* Through the three points (N = 50 000: N/3 = 16 666.7 lies between 16 666 and 16 667). */
    ck_assert_uint_eq(ssdsim__hdd_seek_ns(&d, 0), 0);
    ck_assert_uint_eq(ssdsim__hdd_seek_ns(&d, 1), 300000);
    ck_assert_uint_eq(ssdsim__hdd_seek_ns(&d, 49999), 16000000);
    ck_assert_uint_le(llabs((long long)ssdsim__hdd_seek_ns(&d, 16666) - 8000000), 1000);
    ck_assert_uint_le(llabs((long long)ssdsim__hdd_seek_ns(&d, 16667) - 8000000), 1000);
    ck_assert_uint_le(ssdsim__hdd_seek_ns(&d, 16666), 8000000);
    ck_assert_uint_ge(ssdsim__hdd_seek_ns(&d, 16667), 8000000);
    /* A point in between, by hand (ms): x2 = sqrt(50000/3) = 129.0994, x3 = sqrt(49999) =
     * 223.6045; slopes (8 - 0.3)/128.0994 = 0.0601096 and (16 - 0.3)/222.6045 = 0.0705287;
     * c = (0.0705287 - 0.0601096)/94.5051 = 1.10249e-4, b = 0.0601096 - c x 130.0994 =
     * 0.0457662, a = 0.3 - b - c = 0.2541235. t(10000) = a + 100 b + 10000 c = 5.93323 ms. */
    ck_assert_uint_le(llabs((long long)ssdsim__hdd_seek_ns(&d, 10000) - 5933235), 2000);
    /* Increasing everywhere, never below the one-track seek. */
    uint64_t prev = ssdsim__hdd_seek_ns(&d, 1);
    for (uint64_t x = 2; x < 50000; x++) {
        uint64_t t = ssdsim__hdd_seek_ns(&d, x);
        ck_assert_uint_ge(t, prev);
        prev = t;
    }
    ssdsim__hdd_fini(&d);
    ssdsim__engine_fini(&e);
}
END_TEST

static void expect_reject(struct ssdsim__hdd_cfg c, const char *want)
{
    char why[256];
    ck_assert_int_eq(ssdsim__hdd_check(&c, why, sizeof why), SSDSIM_ECONFIG);
    ck_assert_str_eq(why, want);
    struct ssdsim__engine e;
    struct ssdsim__hdd d;
    ck_assert_int_eq(ssdsim__engine_init(&e, 4), 0);
    ck_assert_int_eq(ssdsim__hdd_init(&d, &c, &e, NULL, NULL), SSDSIM_ECONFIG);
    ssdsim__hdd_fini(&d);
    ssdsim__engine_fini(&e);
}

START_TEST(test_hdd_check_rejects)
{
    char why[256];
    struct ssdsim__hdd_cfg c = disk_a();
    ck_assert_int_eq(ssdsim__hdd_check(&c, why, sizeof why), 0);
    ck_assert_str_eq(why, "");
    ck_assert_int_eq(ssdsim__hdd_check(&c, NULL, 0), 0);

    c.seek_track_ns = 4000000;
    c.seek_avg_ns = 3000000;
    expect_reject(c, "hdd.seek_avg_us: the average seek (3 ms) is below the one-track seek (4 ms)");
    c = disk_a();
    c.seek_full_ns = 8000000;
    expect_reject(c,
                  "hdd.seek_full_us: the full-stroke seek (8 ms) equals the average seek (8 ms)");
    /* Track 1 ms, average 1.5 ms, full 20 ms over N = 50 000 (ms, x = sqrt(d)): slopes
     * 0.5/128.0994 = 0.0039032 and 19/222.6045 = 0.0853531; c = 0.0814499/94.5051 =
     * 8.6186e-4; b = 0.0039032 - c x 130.0994 = -0.1082239: dt/dx at x = 1 is b + 2c =
     * -0.1065 < 0, the curve dips after one cylinder. */
    c = disk_a();
    c.seek_track_ns = 1000000;
    c.seek_avg_ns = 1500000;
    c.seek_full_ns = 20000000;
    expect_reject(c, "hdd.seek_avg_us: the seek curve through the one-track (1 ms), average "
                     "(1.5 ms) and full-stroke (20 ms) seeks falls after one cylinder: the "
                     "average seek is too short for this full stroke");
    /* Track 1, average 15, full 16 ms: slopes 14/128.0994 = 0.109290, 15/222.6045 =
     * 0.0673840; c = -0.041906/94.5051 = -4.4343e-4; b = 0.109290 + 4.4343e-4 x 130.0994 =
     * 0.166980; at x3 = 223.6045, b + 2c x3 = -0.0313 < 0: it falls before the full stroke. */
    c = disk_a();
    c.seek_track_ns = 1000000;
    c.seek_avg_ns = 15000000;
    c.seek_full_ns = 16000000;
    expect_reject(c, "hdd.seek_full_us: the seek curve through the one-track (1 ms), average "
                     "(15 ms) and full-stroke (16 ms) seeks falls before the full stroke (49999 "
                     "cylinders): the full-stroke seek is too short for this average seek");
    c = disk_a();
    c.inner_bytes_per_s = 130000000;
    expect_reject(c, "hdd.inner_rate: the innermost zone (130 MB/s) is faster than the "
                     "outermost (122.88 MB/s)");
    c = disk_a();
    c.capacity = 1000;
    expect_reject(c, "hdd.capacity: 1000 bytes is not a positive multiple of 512");
    /* 5 zones x (one cylinder each) = 15 360 000 bytes > 10 MB. */
    c = disk_a();
    c.capacity = 10240000;
    expect_reject(c, "hdd.zones: 5 zones of at least one cylinder hold 15360000 bytes, more than "
                     "hdd.capacity (10240000 bytes)");
    /* 30 000 B/s at 7200 rpm is 0.49 sector per track. */
    c = disk_a();
    c.inner_bytes_per_s = 30000;
    expect_reject(c, "hdd.inner_rate: 0.03 MB/s at 7200 rpm is less than one 512-byte sector "
                     "per track");
    c = disk_a();
    c.heads = 0;
    expect_reject(c, "hdd.heads: 0 heads is outside [1, 1024]");
    c = disk_a();
    c.rpm = 0;
    expect_reject(c, "hdd.rpm: 0 rpm is outside [100, 1000000]");
    c = disk_a();
    c.zones = 0;
    expect_reject(c, "hdd.zones: 0 zones is outside [1, 65536]");
}
END_TEST

/* One 4 KiB read from idle at t = 1 ms, at LBA 299 999 100: zone 4 (from LBA 260e6, spt 1000),
 * rel = 39 999 100 = cylinder 40000 + 9999 = 49 999, head 3, sector 100. The head is on
 * cylinder 0: seek over 49 999 cylinders = the full stroke, 16 ms: on the track at 17 ms.
 * Track number k = 49 999 x 4 + 3 = 199 999; slot = (100 + (k mod 1000) x 36) mod 1000 =
 * (100 + 35 964) mod 1000 = 64, at angle 0.064. At 17 ms the platter has turned
 * 17e6 / P = 2.04 revolutions: angle 0.04, so the wait is 0.024 P = 200 000 ns; transfer 8
 * sectors = 8/1000 P = 66 666.7 ns. Done at 17 266 666.7, rounded up: 17 266 667. */
START_TEST(test_hdd_single_read_latency)
{
    struct host h;
    struct ssdsim__hdd_cfg c = disk_a();
    host_init(&h, &c, 1);
    h.op = 0;
    h.bs = 4096;
    h.next = 299999100ULL * 512;
    host_run(&h, 1, 1000000);
    ck_assert_uint_eq(h.done_ns[0], 17266667);
    host_fini(&h);
}
END_TEST

/* The same sector written. Write cache off: seek 16 ms + settle 0.5 ms: on the track at 17.5
 * ms = 2.1 revolutions, angle 0.1: slot 64 (angle 0.064) comes round after 0.964 P, the 8
 * sectors take 0.008 P: done at 17.5 ms + 0.972 P = 17.5 ms + 8.1 ms = 25.6 ms exactly.
 * Write cache on: acknowledged at the submit time, and the destage ends at the same 25.6 ms. */
START_TEST(test_hdd_write_cache)
{
    struct host h;
    struct ssdsim__hdd_cfg c = disk_a();
    c.write_cache = 0;
    host_init(&h, &c, 1);
    h.op = 1;
    h.bs = 4096;
    h.next = 299999100ULL * 512;
    host_run(&h, 1, 1000000);
    ck_assert_uint_eq(h.done_ns[0], 25600000);
    host_fini(&h);

    c.write_cache = 1;
    host_init(&h, &c, 1);
    h.op = 1;
    h.bs = 4096;
    h.next = 299999100ULL * 512;
    ssdsim__engine_schedule(&h.e, 1000000, host_send, &h, 0);
    ck_assert_int_eq(ssdsim__engine_run_until(&h.e, 1000000), 0);
    ck_assert_uint_eq(h.done_ns[0], 1000000);
    ck_assert(ssdsim__hdd_busy(&h.d)); /* dirty */
    ck_assert_int_eq(ssdsim__engine_run(&h.e, 0), 0);
    ck_assert(!ssdsim__hdd_busy(&h.d));
    ck_assert_uint_eq(ssdsim__engine_now(&h.e), 25600000); /* the destage's end */
    host_fini(&h);
}
END_TEST

struct rec {
    struct ssdsim__engine *e;
    uint64_t t[64];
};
static void rec_done(void *ctx, uint32_t cmd)
{
    struct rec *r = ctx;
    r->t[cmd] = ssdsim__engine_now(r->e);
}
struct sub {
    struct ssdsim__hdd *d;
    uint32_t cmd;
    int op;
    uint64_t off;
    uint32_t len;
};
static void ev_sub(void *ctx, uint32_t arg)
{
    struct sub *s = (struct sub *)ctx + arg;
    ssdsim__hdd_submit(s->d, s->cmd, s->op, s->off, s->len, 0);
}

/* Cache of 64 KiB (128 sectors): three 32 KiB writes at t = 0 far apart. The first goes to the
 * platter at once (LBA 0 is under the head at t = 0: slot 0, angle 0, no seek, no settle): it
 * takes 64/2000 P = 266 666.7 ns. The second fills the cache and is acknowledged at 0; the
 * third waits for the first destage: acknowledged at 266 667. A read of the second's data hits
 * the dirty cache: done when submitted. */
START_TEST(test_hdd_write_cache_full)
{
    struct ssdsim__engine e;
    struct ssdsim__hdd d;
    struct rec r = {.e = &e};
    struct ssdsim__hdd_cfg c = disk_a();
    c.cache_bytes = 65536;
    ck_assert_int_eq(ssdsim__engine_init(&e, 4), 0);
    ck_assert_int_eq(ssdsim__hdd_init(&d, &c, &e, rec_done, &r), 0);
    struct sub s[] = {{&d, 0, 1, 0, 32768},
                      {&d, 1, 1, 1000000000ULL, 32768},
                      {&d, 2, 1, 2000000000ULL, 32768},
                      {&d, 3, 0, 1000000000ULL + 4096, 4096}};
    for (uint32_t i = 0; i < 3; i++)
        ssdsim__engine_schedule(&e, 0, ev_sub, s, i);
    ssdsim__engine_schedule(&e, 100000, ev_sub, s, 3);
    ck_assert_int_eq(ssdsim__engine_run(&e, 0), 0);
    ck_assert_uint_eq(r.t[0], 0);
    ck_assert_uint_eq(r.t[1], 0);
    ck_assert_uint_eq(r.t[2], 266667);
    ck_assert_uint_eq(r.t[3], 100000);
    ck_assert(!ssdsim__hdd_busy(&d));
    ssdsim__hdd_fini(&d);
    ck_assert_uint_eq(ssdsim__engine_pending(&e), 0);
    ssdsim__engine_fini(&e);
}
END_TEST

/* 2000 sequential 64 KiB reads at queue depth 1 from LBA 0: 256 000 sectors = 128 tracks of
 * zone 0 (2000 sectors). LBA 0 is at angle 0 at t = 0, so the first track starts at once; each
 * later track starts 0.036 P after the previous one ended (skew 72/2000 = the 0.3 ms head
 * switch), so the last read ends at 128 P + 127 x 0.036 P = 132.572 P = 1 104 766 666.7 ns:
 * 131 072 000 bytes / 1.1047667 s = 118.64 MB/s, 3.5% below the 122.88 MB/s outer rate.
 * At the end of the disk (the last 256 000 sectors, zone 4, 1000 sectors per track, starting
 * on a track boundary) the first read ends 0.128 P into its first track, the last at the end
 * of the 256th: 0.872 P + 255 x 1.036 P = 265.052 P = 2 208 766 666.7 ns after the first, for
 * 1999 reads: 59.31 MB/s, 3.5% below 61.44 MB/s. */
START_TEST(test_hdd_sequential_start_vs_end)
{
    struct host h;
    struct ssdsim__hdd_cfg c = disk_a();
    host_init(&h, &c, 2000);
    h.op = 0;
    h.bs = 65536;
    h.next = 0;
    host_run(&h, 1, 0);
    uint64_t t_start = last_done(&h);
    ck_assert_uint_le(llabs((long long)t_start - 1104766667LL), 2);
    double mbs_start = 2000.0 * 65536 / (t_start / 1e9);
    ck_assert_double_le(fabs(mbs_start / 122.88e6 - 1), 0.05);
    host_fini(&h);

    host_init(&h, &c, 2000);
    h.op = 0;
    h.bs = 65536;
    h.next = c.capacity - 2000ULL * 65536;
    host_run(&h, 1, 0);
    uint64_t span = last_done(&h) - h.done_ns[0];
    ck_assert_uint_le(llabs((long long)span - 2208766667LL), 2);
    double mbs_end = 1999.0 * 65536 / (span / 1e9);
    ck_assert_double_le(fabs(mbs_end / 61.44e6 - 1), 0.05);
    ck_assert_double_gt(mbs_start, 1.9 * mbs_end);
    host_fini(&h);

    /* At depth 4 the later reads ride the stream that the first started: the same 132.572 P. */
    host_init(&h, &c, 2000);
    h.op = 0;
    h.bs = 65536;
    host_run(&h, 4, 0);
    ck_assert_uint_le(llabs((long long)last_done(&h) - 1104766667LL), 2);
    host_fini(&h);
}
END_TEST

/* The same 2000 reads from LBA 0 with the host back 50 us after each completion. With
 * read-ahead the disk reads on meanwhile and the reads complete exactly as before (last at
 * 132.572 P). Without, each read after the first finds its first sector 50 us gone: it waits
 * for it to come round (P after the previous read ended) and takes 0.064 P: 1.064 P per read,
 * plus 0.036 P at each of the 127 track switches (inside a read, or at a read's start where the
 * skewed slot has also just passed): 0.064 P + 1999 x 1.064 P + 127 x 0.036 P = 2131.572 P =
 * 17 763 100 000 ns: 7.38 MB/s instead of 118.64. */
START_TEST(test_hdd_read_ahead)
{
    struct host h;
    struct ssdsim__hdd_cfg c = disk_a();
    host_init(&h, &c, 2000);
    h.op = 0;
    h.bs = 65536;
    h.think_ns = 50000;
    host_run(&h, 1, 0);
    ck_assert_uint_le(llabs((long long)last_done(&h) - 1104766667LL), 2);
    host_fini(&h);

    c.read_ahead = 0;
    host_init(&h, &c, 2000);
    h.op = 0;
    h.bs = 65536;
    h.think_ns = 50000;
    host_run(&h, 1, 0);
    ck_assert_uint_le(llabs((long long)last_done(&h) - 17763100000LL), 2);
    host_fini(&h);

    /* Read-ahead data is a cache hit: 64 KiB at LBA 0 at t = 0, then, once the read-ahead
     * (2 MiB past the read) has ended, 4 KiB at LBA 3000 completes when it is submitted. */
    c.read_ahead = 1;
    host_init(&h, &c, 2);
    h.manual = 1;
    h.op = 0;
    h.bs = 65536;
    host_send(&h, 0);
    ck_assert_int_eq(ssdsim__engine_run(&h.e, 0), 0);
    /* 128 + 4096 sectors = 2.112 tracks: 2.112 P + 2 x 0.036 P = 2.184 P = 18.2 ms */
    ck_assert_uint_le(llabs((long long)ssdsim__engine_now(&h.e) - 18200000LL), 1);
    ck_assert_uint_eq(h.done_ns[0], 533334); /* 0.064 P */
    h.next = 3000 * 512;
    h.bs = 4096;
    ssdsim__engine_schedule(&h.e, 50000000, host_send, &h, 0);
    ck_assert_int_eq(ssdsim__engine_run(&h.e, 0), 0);
    ck_assert_uint_eq(h.done_ns[1], 50000000);
    host_fini(&h);
}
END_TEST

static double random_iops(struct ssdsim__hdd_cfg c, uint32_t qd, uint32_t n, uint64_t *out)
{
    struct host h;
    host_init(&h, &c, n);
    h.op = 0;
    h.bs = 4096;
    h.random = 1;
    h.rng = 42;
    h.start = 0;
    h.span = c.capacity;
    host_run(&h, qd, 0);
    double iops = n / (last_done(&h) / 1e9);
    /* The queue array has not grown past its first size (16 + 32 segments), or doubled once for
     * a deeper queue. */
    ck_assert_uint_eq(h.d.cap_q, qd <= 48 ? 48 : 96);
    if (out)
        memcpy(out, h.done_ns, n * sizeof *out);
    host_fini(&h);
    return iops;
}

/* Random 4 KiB reads at queue depth 1 on disk B: 1 / (8.9 ms average seek + P/2 = 4.1667 ms
 * + 4096 B / ~150 MB/s = 0.027 ms) = 1 / 13.094 ms = 76.4 IOPS (the mean over random
 * distances of a concave seek curve is a little below the seek over a third of the stroke, so
 * the model may come out slightly above). At depth 16, FCFS is no better (order does not
 * matter for random addresses) but SATF picks the nearest of 16 and does much better. */
START_TEST(test_hdd_random_reads_satf_vs_fcfs)
{
    struct ssdsim__hdd_cfg c = disk_b();
    double qd1 = random_iops(c, 1, 2000, NULL);
    ck_assert_msg(fabs(qd1 / 76.37 - 1) < 0.10, "QD1 random read: %.1f IOPS, expected 76.4", qd1);
    c.sched = SSDSIM__HDD_FCFS;
    double fcfs = random_iops(c, 16, 4000, NULL);
    ck_assert_msg(fabs(fcfs / 76.37 - 1) < 0.10, "QD16 FCFS: %.1f IOPS, expected 76.4", fcfs);
    c.sched = SSDSIM__HDD_SATF;
    double satf = random_iops(c, 16, 4000, NULL);
    ck_assert_msg(satf > 1.5 * fcfs, "QD16 SATF %.1f IOPS vs FCFS %.1f", satf, fcfs);
    fprintf(stderr, "hdd random 4KiB reads: QD1 %.1f IOPS, QD16 FCFS %.1f, SATF %.1f\n", qd1, fcfs,
            satf);
}
END_TEST

/* Aged SATF holds its gain as the queue deepens: random 4 KiB reads over all of disk C. FCFS:
 * 1 / (3.4 ms average seek + P/2 = 2 ms + 4096 B / ~170 MB/s = 0.024 ms) = 1 / 5.424 ms =
 * 184.4 IOPS at any depth. SATF at depth 48 picks the nearest of 48; at depth 64 it has more to
 * choose from, so it must do no worse, and well above FCFS (twice: 368.8). The queue waits
 * (64 / IOPS, over 100 ms, with a tail past 256 ms) exceed 64 revolutions: when a command older
 * than that was served strictly oldest-first, every pick became FCFS once the tail crossed it
 * and the disk fell towards FCFS's rate (QD48 557 IOPS, QD64 220; now 597 and 636). */
START_TEST(test_hdd_satf_deep_queue)
{
    struct ssdsim__hdd_cfg c = disk_c();
    c.sched = SSDSIM__HDD_FCFS;
    double fcfs = random_iops(c, 64, 4000, NULL);
    ck_assert_msg(fabs(fcfs / 184.4 - 1) < 0.10, "QD64 FCFS: %.1f IOPS, expected 184.4", fcfs);
    c.sched = SSDSIM__HDD_SATF;
    double q48 = random_iops(c, 48, 4000, NULL);
    double q64 = random_iops(c, 64, 4000, NULL);
    ck_assert_msg(q64 >= q48, "SATF QD64 %.1f IOPS below QD48 %.1f", q64, q48);
    ck_assert_msg(q64 > 2 * 184.4, "SATF QD64 %.1f IOPS, FCFS 184.4", q64);
    fprintf(stderr, "hdd 15K random 4KiB reads: QD64 FCFS %.1f IOPS, SATF QD48 %.1f, QD64 %.1f\n",
            fcfs, q48, q64);
}
END_TEST

/* Aged SATF bounds every wait. A command's positioning time is at most the full stroke plus a
 * revolution (a read: no settle): 6.5 + 4 = 10.5 ms on disk C. It gains 6 ns per whole us
 * waited, so against one that arrived at least 10 500 000 / 6 + 1 = 1 750 001 us later it gains
 * at least 10.5 ms more, and wins (a tie goes to the older). So no command that arrives more
 * than 1.750001 s after A is served before A: by then at most 63 others are in the disk (depth
 * 64), each served in at most 10.5 ms + a head switch and a revolution within the read
 * (0.2 + 4 ms) + 8 sectors at 1000 per revolution (0.032 ms) = 14.732 ms. A waits at most
 * 1.750001 s + 63 x 14.732 ms = 2.678117 s. (Random reads over 600 GB form no queued runs
 * and continue no segment, the two choices made before the aged one.) */
START_TEST(test_hdd_satf_wait_bound)
{
    struct ssdsim__hdd_cfg c = disk_c();
    struct host h;
    host_init(&h, &c, 4000);
    h.op = 0;
    h.bs = 4096;
    h.random = 1;
    h.rng = 42;
    h.span = c.capacity;
    host_run(&h, 64, 0);
    uint64_t worst = 0;
    for (uint32_t i = 0; i < 4000; i++)
        worst = SSDSIM__MAX(worst, h.done_ns[i] - h.submit_ns[i]);
    ck_assert_msg(worst <= 1750001000ULL + 63ULL * 14732000ULL, "longest wait %llu ns",
                  (unsigned long long)worst);
    fprintf(stderr, "hdd 15K random 4KiB reads QD64: longest response %.1f ms\n", worst / 1e6);
    host_fini(&h);
}
END_TEST

/* A mixed workload twice: the same completion times to the ns. */
START_TEST(test_hdd_determinism)
{
    struct ssdsim__hdd_cfg c = disk_b();
    uint64_t *a = malloc(3000 * sizeof *a), *b = malloc(3000 * sizeof *b);
    random_iops(c, 16, 3000, a);
    random_iops(c, 16, 3000, b);
    ck_assert_mem_eq(a, b, 3000 * sizeof *a);
    free(a);
    free(b);
}
END_TEST

/* Mixed random reads and writes at depth 8 through a small cache: everything completes, the
 * disk ends idle, and two runs agree. */
struct mix {
    struct ssdsim__engine e;
    struct ssdsim__hdd d;
    uint64_t rng, done[5000];
    uint32_t sent, n;
};
static void mix_send(void *ctx, uint32_t arg);
static void mix_done(void *ctx, uint32_t cmd)
{
    struct mix *m = ctx;
    m->done[cmd] = ssdsim__engine_now(&m->e);
    if (m->sent < m->n)
        ssdsim__engine_schedule(&m->e, m->done[cmd] + 20000, mix_send, m, 0);
}
static void mix_send(void *ctx, uint32_t arg)
{
    (void)arg;
    struct mix *m = ctx;
    uint64_t r = splitmix(&m->rng);
    int op = (int)(r & 1);
    /* half sequential from a moving point, half random, sizes 512 B to 256 KiB, unaligned */
    uint32_t len = 512u << ((r >> 1) % 10);
    uint64_t off = ((r >> 8) & 1) ? (r >> 16) % (1ULL << 36) : (uint64_t)m->sent * 65536 + 100;
    ssdsim__hdd_submit(&m->d, m->sent++, op, off, len, 0);
}
static void run_mix(uint64_t *out, enum ssdsim__hdd_sched sched)
{
    static struct mix m;
    memset(&m, 0, sizeof m);
    memset(m.done, 0xff, sizeof m.done);
    struct ssdsim__hdd_cfg c = disk_b();
    c.cache_bytes = 1 << 20;
    c.sched = sched;
    ck_assert_int_eq(ssdsim__engine_init(&m.e, 64), 0);
    ck_assert_int_eq(ssdsim__hdd_init(&m.d, &c, &m.e, mix_done, &m), 0);
    m.rng = 7;
    m.n = 5000;
    for (int i = 0; i < 8; i++)
        ssdsim__engine_schedule(&m.e, 0, mix_send, &m, 0);
    ck_assert_int_eq(ssdsim__engine_run(&m.e, 0), 0);
    ck_assert_uint_eq(m.sent, 5000);
    ck_assert(!ssdsim__hdd_busy(&m.d));
    memcpy(out, m.done, sizeof m.done);
    ssdsim__hdd_fini(&m.d);
    ck_assert_uint_eq(ssdsim__engine_pending(&m.e), 0);
    ssdsim__engine_fini(&m.e);
}

START_TEST(test_hdd_mixed_workload)
{
    static uint64_t a[5000], b[5000];
    for (int s = 0; s < 2; s++) {
        run_mix(a, (enum ssdsim__hdd_sched)s);
        run_mix(b, (enum ssdsim__hdd_sched)s);
        ck_assert_mem_eq(a, b, sizeof a);
        for (int i = 0; i < 5000; i++)
            ck_assert_uint_ne(a[i], UINT64_MAX); /* all done */
    }
}
END_TEST

/* 20 000 sequential 4 KiB writes at depth 1 from LBA 0, the host back at once: 160 000
 * sectors = 80 tracks of zone 0. The cache takes the first 8 MiB at t = 0; later writes merge
 * into the queued destage that ends where they start, so the platter writes nearly one long
 * run: 80 P + 79 x 0.036 P = 82.844 P = 690.4 ms if nothing were lost. A destage that starts
 * on the next track pays the 0.5 ms settle and misses its skewed slot (one revolution, 1.2%):
 * allow 3 of them. Without the cache every write goes to the platter as it comes: the next one
 * finds its first sector under the head, except at the 79 track boundaries (250 writes of 8
 * sectors per track): there the head switch (0.3 ms) and the write settle (0.5 ms) take
 * 0.096 P, the skewed slot came at 0.036 P, so a whole revolution is lost each time:
 * 82.844 P + 79 P = 161.844 P = 1 348 700 000 ns. */
START_TEST(test_hdd_sequential_writes)
{
    struct host h;
    struct ssdsim__hdd_cfg c = disk_a();
    host_init(&h, &c, 20000);
    h.op = 1;
    h.bs = 4096;
    host_run(&h, 1, 0);
    uint64_t ideal = 690366667; /* 82.844 P */
    uint64_t end = ssdsim__engine_now(&h.e);
    ck_assert_msg(end >= ideal && end <= ideal + 3 * 8333334, "cached: %llu ns",
                  (unsigned long long)end);
    fprintf(stderr, "hdd sequential cached writes: platter done at %llu ns (%.2f P)\n",
            (unsigned long long)end, end / (60e9 / 7200));
    ck_assert_uint_eq(h.done_ns[2047], 0); /* 2048 x 4 KiB = 8 MiB acknowledged at once */
    ck_assert_uint_gt(h.done_ns[2048], 0);
    host_fini(&h);

    c.write_cache = 0;
    host_init(&h, &c, 20000);
    h.op = 1;
    h.bs = 4096;
    host_run(&h, 1, 0);
    ck_assert_uint_le(llabs((long long)last_done(&h) - 1348700000LL), 1);
    host_fini(&h);
}
END_TEST

/* SATF aging: 8 reads at a time within the first 10 cylinders (40.96 MB: seeks under 1 ms) and
 * one read at the disk's last sector, 1 us later. Each near read is positioned in under 1 ms +
 * a revolution (P = 8.333 ms): 9.4 ms with its transfer; the far one needs a 49 990-cylinder
 * seek, s = ssdsim__hdd_seek_ns(49 990), just under the 16 ms full stroke, and up to P more.
 * Aged SATF takes off 6 ns per us waited, so the far read wins only once its gain exceeds
 * s - 9.4 ms (a near read's own gain only widens that): after (s - 9.4 ms) / 6 ns per us, about
 * 1.1 s. It has certainly won once it gains its whole 24.333 334 ms over any read that came in
 * after it, 24 333 334 / 6 + 1 = 4 055 557 us after its arrival: then at most 7 near reads are
 * ahead of it, and it is done a seek and a revolution later. A near read likewise gains its
 * 9.4 ms over any later one within 1 566 668 us, then waits for at most 6 near reads and the
 * far one: 1.566 668 s + 6 x 9.4 ms + 24.4 ms = 1.647 468 s. */
START_TEST(test_hdd_satf_aging)
{
    struct host h;
    struct ssdsim__hdd_cfg c = disk_a();
    host_init(&h, &c, 2001);
    h.n_auto = 2000;
    h.op = 0;
    h.bs = 4096;
    h.random = 1;
    h.rng = 3;
    h.span = 10ULL * 4 * 2000 * 512;
    struct sub far = {&h.d, 2000, 0, c.capacity - 512, 512};
    ssdsim__engine_schedule(&h.e, 1000, ev_sub, &far, 0);
    host_run(&h, 8, 0);
    uint64_t t = h.done_ns[2000], s = ssdsim__hdd_seek_ns(&h.d, 49990);
    ck_assert_uint_gt(s, 15000000);
    ck_assert_msg(t >= 1000 + (s - 9400000) / 6 * 1000 &&
                      t <= 1000 + 4055557000ULL + 7 * 9400000 + 16000000 + 8400000,
                  "far read done at %llu", (unsigned long long)t);
    for (uint32_t i = 0; i < 2000; i++)
        ck_assert_uint_le(h.done_ns[i] - h.submit_ns[i], 1566668000ULL + 6 * 9400000 + 24400000);
    /* FCFS serves it in turn: within the first 9 services. */
    host_fini(&h);
    c.sched = SSDSIM__HDD_FCFS;
    host_init(&h, &c, 2001);
    h.n_auto = 2000;
    h.op = 0;
    h.bs = 4096;
    h.random = 1;
    h.rng = 3;
    h.span = 10ULL * 4 * 2000 * 512;
    far.d = &h.d;
    ssdsim__engine_schedule(&h.e, 1000, ev_sub, &far, 0);
    host_run(&h, 8, 0);
    ck_assert_uint_le(h.done_ns[2000], 9 * 26000000);
    host_fini(&h);
}
END_TEST

/* A write into the read-ahead range drops the clean segment: 64 KiB read at LBA 0 at t = 0
 * (read-ahead to LBA 4224), 4 KiB write at LBA 1000 at 1 ms (acknowledged at once, cached),
 * then a read of LBA 200 at 30 ms is no longer a hit. Without the write it would be. */
START_TEST(test_hdd_write_drops_read_ahead)
{
    for (int with_write = 0; with_write < 2; with_write++) {
        struct ssdsim__engine e;
        struct ssdsim__hdd d;
        struct rec r = {.e = &e};
        struct ssdsim__hdd_cfg c = disk_a();
        ck_assert_int_eq(ssdsim__engine_init(&e, 4), 0);
        ck_assert_int_eq(ssdsim__hdd_init(&d, &c, &e, rec_done, &r), 0);
        struct sub s[] = {
            {&d, 0, 0, 0, 65536}, {&d, 1, 1, 1000 * 512, 4096}, {&d, 2, 0, 200 * 512, 4096}};
        ssdsim__engine_schedule(&e, 0, ev_sub, s, 0);
        if (with_write)
            ssdsim__engine_schedule(&e, 1000000, ev_sub, s, 1);
        ssdsim__engine_schedule(&e, 30000000, ev_sub, s, 2);
        ck_assert_int_eq(ssdsim__engine_run(&e, 0), 0);
        if (with_write) {
            ck_assert_uint_eq(r.t[1], 1000000);
            ck_assert_uint_gt(r.t[2], 30000000);
        } else {
            ck_assert_uint_eq(r.t[2], 30000000);
        }
        ck_assert(!ssdsim__hdd_busy(&d));
        ssdsim__hdd_fini(&d);
        ck_assert_uint_eq(ssdsim__engine_pending(&e), 0);
        ssdsim__engine_fini(&e);
    }
}
END_TEST

/* Depth 64: the queue array grows once (48 -> 96) and then stays; fini during a read-ahead
 * leaves no event behind. */
START_TEST(test_hdd_queue_growth_and_fini)
{
    struct host h;
    struct ssdsim__hdd_cfg c = disk_b();
    host_init(&h, &c, 3000);
    h.op = 0;
    h.bs = 4096;
    h.random = 1;
    h.rng = 9;
    h.span = c.capacity;
    host_run(&h, 64, 0);
    ck_assert_uint_eq(h.d.cap_q, 96);
    host_fini(&h);

    host_init(&h, &c, 1);
    h.op = 0;
    h.bs = 4096;
    host_send(&h, 0);
    ck_assert_int_eq(ssdsim__engine_run_until(&h.e, 20000000), 0);
    ck_assert_uint_ne(h.done_ns[0], UINT64_MAX);
    ck_assert_uint_eq(ssdsim__engine_pending(&h.e), 1); /* the read-ahead's next chunk */
    ssdsim__hdd_fini(&h.d);
    ck_assert_uint_eq(ssdsim__engine_pending(&h.e), 0);
    host_fini(&h);
}
END_TEST

/* The cache holds at most 32 dirty extents. 33 scattered 4 KiB writes at t = 0: the first
 * starts to destage at once (LBA 0 under the head: 8/2000 P = 33 333.3 ns, done at 33 334) and
 * still counts; writes 1 to 31 fill the other 31 segments, write 32 waits for the first
 * destage and is acknowledged at 33 334. A read of write 0's data at 10 us, while it is being
 * written, is a hit. */
START_TEST(test_hdd_cache_segments)
{
    struct ssdsim__engine e;
    struct ssdsim__hdd d;
    static struct rec r;
    static struct sub s[34];
    struct ssdsim__hdd_cfg c = disk_a();
    memset(&r, 0, sizeof r);
    r.e = &e;
    ck_assert_int_eq(ssdsim__engine_init(&e, 4), 0);
    ck_assert_int_eq(ssdsim__hdd_init(&d, &c, &e, rec_done, &r), 0);
    for (uint32_t i = 0; i < 33; i++) {
        s[i] = (struct sub){&d, i, 1, (uint64_t)i * 1000000000ULL, 4096};
        ssdsim__engine_schedule(&e, 0, ev_sub, s, i);
    }
    s[33] = (struct sub){&d, 33, 0, 0, 4096};
    ssdsim__engine_schedule(&e, 10000, ev_sub, s, 33);
    ck_assert_int_eq(ssdsim__engine_run(&e, 0), 0);
    for (uint32_t i = 0; i < 32; i++)
        ck_assert_uint_eq(r.t[i], 0);
    ck_assert_uint_eq(r.t[32], 33334);
    ck_assert_uint_eq(r.t[33], 10000);
    ck_assert(!ssdsim__hdd_busy(&d));
    ssdsim__hdd_fini(&d);
    ck_assert_uint_eq(ssdsim__engine_pending(&e), 0);
    ssdsim__engine_fini(&e);
}
END_TEST

/* A write elsewhere stops the read-ahead at once: 64 KiB at LBA 0 at t = 0, then a 4 KiB write
 * at 1 ms. At 1 ms the platter has turned 0.12 revolutions = 240 sectors of 2000: the
 * segment is [0, 240). A read of LBA 200-207 is a hit, one of LBA 236-243 is not. */
START_TEST(test_hdd_write_stops_read_ahead)
{
    for (int k = 0; k < 2; k++) {
        struct ssdsim__engine e;
        struct ssdsim__hdd d;
        struct rec r = {.e = &e};
        struct ssdsim__hdd_cfg c = disk_a();
        ck_assert_int_eq(ssdsim__engine_init(&e, 4), 0);
        ck_assert_int_eq(ssdsim__hdd_init(&d, &c, &e, rec_done, &r), 0);
        struct sub s[] = {{&d, 0, 0, 0, 65536},
                          {&d, 1, 1, 1000000000ULL, 4096},
                          {&d, 2, 0, (k ? 236 : 200) * 512, 4096}};
        ssdsim__engine_schedule(&e, 0, ev_sub, s, 0);
        ssdsim__engine_schedule(&e, 1000000, ev_sub, s, 1);
        ssdsim__engine_schedule(&e, 500000000, ev_sub, s, 2);
        ck_assert_int_eq(ssdsim__engine_run_until(&e, 1000000), 0);
        ck_assert_uint_eq(d.seg_end, 240);
        ck_assert_int_eq(ssdsim__engine_run(&e, 0), 0);
        ck_assert_uint_eq(r.t[1], 1000000);
        if (k)
            ck_assert_uint_gt(r.t[2], 500000000);
        else
            ck_assert_uint_eq(r.t[2], 500000000);
        ssdsim__hdd_fini(&d);
        ck_assert_uint_eq(ssdsim__engine_pending(&e), 0);
        ssdsim__engine_fini(&e);
    }
}
END_TEST

/* Bogus input: a zero-length command and one past the end complete (the latter cut at the
 * capacity); fini accepts NULL and a failed init; reset empties everything. */
START_TEST(test_hdd_bogus_input)
{
    struct ssdsim__engine e;
    struct ssdsim__hdd d;
    struct rec r = {.e = &e};
    struct ssdsim__hdd_cfg c = disk_a();
    ck_assert_int_eq(ssdsim__engine_init(&e, 4), 0);
    ck_assert_int_eq(ssdsim__hdd_init(&d, &c, &e, rec_done, &r), 0);
    struct sub s[] = {{&d, 0, 0, 4096, 0}, {&d, 1, 0, c.capacity - 512, 65536}};
    ssdsim__engine_schedule(&e, 1000, ev_sub, s, 0);
    ssdsim__engine_schedule(&e, 1000, ev_sub, s, 1);
    ck_assert_int_eq(ssdsim__engine_run(&e, 0), 0);
    ck_assert_uint_eq(r.t[0], 1000);
    ck_assert_uint_gt(r.t[1], 1000);
    /* Reset: a cached write is dropped, the disk is idle with the head at cylinder 0. */
    struct sub w = {&d, 2, 1, 1 << 30, 4096};
    ssdsim__engine_schedule(&e, ssdsim__engine_now(&e), ev_sub, &w, 0);
    ck_assert_int_eq(ssdsim__engine_run_until(&e, ssdsim__engine_now(&e)), 0);
    ck_assert(ssdsim__hdd_busy(&d));
    ssdsim__hdd_reset(&d, ssdsim__engine_now(&e));
    ck_assert(!ssdsim__hdd_busy(&d));
    ck_assert_uint_eq(d.pos_cyl, 0);
    ck_assert_int_eq(ssdsim__engine_run(&e, 0), 0);
    ssdsim__hdd_fini(&d);
    ssdsim__hdd_fini(&d); /* zeroed by the first */
    ssdsim__hdd_fini(NULL);
    ck_assert_uint_eq(ssdsim__engine_pending(&e), 0);
    ssdsim__engine_fini(&e);
}
END_TEST

static Suite *hdd_suite(void)
{
    Suite *s = suite_create("hdd");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_hdd_geometry);
    tcase_add_test(tc, test_hdd_seek_curve);
    tcase_add_test(tc, test_hdd_check_rejects);
    tcase_add_test(tc, test_hdd_single_read_latency);
    tcase_add_test(tc, test_hdd_write_cache);
    tcase_add_test(tc, test_hdd_write_cache_full);
    tcase_add_test(tc, test_hdd_sequential_start_vs_end);
    tcase_add_test(tc, test_hdd_read_ahead);
    tcase_add_test(tc, test_hdd_random_reads_satf_vs_fcfs);
    tcase_add_test(tc, test_hdd_satf_deep_queue);
    tcase_add_test(tc, test_hdd_satf_wait_bound);
    tcase_add_test(tc, test_hdd_determinism);
    tcase_add_test(tc, test_hdd_mixed_workload);
    tcase_add_test(tc, test_hdd_sequential_writes);
    tcase_add_test(tc, test_hdd_satf_aging);
    tcase_add_test(tc, test_hdd_write_drops_read_ahead);
    tcase_add_test(tc, test_hdd_queue_growth_and_fini);
    tcase_add_test(tc, test_hdd_cache_segments);
    tcase_add_test(tc, test_hdd_write_stops_read_ahead);
    tcase_add_test(tc, test_hdd_bogus_input);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return test_run_suite(hdd_suite());
}
