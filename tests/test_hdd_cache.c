/* test_hdd_cache.c: the hard disk's read segments (hdd.segments, libssdsim/hdd/hdd.c).
 *
 * Four sequential readers at queue depth 1 each, interleaved on one disk: with four segments
 * the disk keeps each reader's stream and prefetches a whole segment for it, so the readers
 * together run near the sequential rate; with one segment every request seeks. Both figures
 * are bounded by hand from the test disk's own parameters (rpm, zone table, seek curve, track
 * skew), never from what the model printed. Then the LRU order of the segments, and the
 * configurations the check refuses. Every test ends with no event left (a leak test under
 * ASan).
 */
#include "common.h"
#include "engine/engine.h"
#include "hdd/hdd.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

/* The disk of test_hdd.c ("disk A"): 7200 rpm, so a revolution P = 60e9 / 7200 = 8 333 333.3
 * ns. Five zones from 122.88 MB/s down to 61.44 MB/s: spt = 2000, 1750, 1500, 1250, 1000
 * sectors per track; 4 heads; N = 50 000 cylinders, 10 000 per zone, zone 0 holding LBAs
 * [0, 80e6) (40.96 GB). Track skew in zone 0 = ceil(0.3 ms x 2000 / P) = 72 sectors, so a long
 * transfer there runs at 122.88 MB/s x 2000 / 2072 = 118.610 MB/s. One cylinder of zone 0 is
 * 4 x 2000 sectors = 4.096 MB. The cache here is 64 MiB. */
static struct ssdsim__hdd_cfg disk(uint32_t segments)
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
        .cache_bytes = 64 << 20,
        .write_cache = 1,
        .read_ahead = 1,
        .sched = SSDSIM__HDD_SATF,
        .segments = segments,
    };
    return c;
}

#define PERIOD_NS (60e9 / 7200)
#define N_CYL 50000.0
#define SUSTAINED0 (122880000.0 * 2000 / 2072) /* bytes/s, zone 0 */

/* The seek curve of hdd.h written out again: t(d) = a + b sqrt(d) + c d through (1, 0.3 ms),
 * (N/3, 8 ms), (N - 1, 16 ms). */
static double seek_ns(double d)
{
    double x1 = 1, x2 = sqrt(N_CYL / 3), x3 = sqrt(N_CYL - 1);
    double y1 = 300000, y2 = 8000000, y3 = 16000000;
    double c = ((y3 - y1) / (x3 - x1) - (y2 - y1) / (x2 - x1)) / (x3 - x2);
    double b = (y2 - y1) / (x2 - x1) - c * (x1 + x2);
    double a = y1 - b - c;
    return a + b * sqrt(d) + c * d;
}

/* ------------------------------------------------------------------------------------------ */
/* Readers: `n_streams` sequential readers of `bs` bytes, one command in flight each, stream k
 * starting at k x `gap` bytes and reading `per_stream` commands. */

#define MAX_STREAMS 4
#define MAX_CMDS 8192

struct readers {
    struct ssdsim__engine e;
    struct ssdsim__hdd d;
    uint32_t n_streams, per_stream, bs;
    uint64_t next[MAX_STREAMS];
    uint32_t sent[MAX_STREAMS];
    uint8_t stream_of[MAX_CMDS];
    uint32_t n_cmds, n_done;
    uint64_t last_ns;
};

static void rd_send(void *ctx, uint32_t k)
{
    struct readers *r = ctx;
    uint32_t cmd = r->n_cmds++;
    ck_assert_uint_lt(cmd, MAX_CMDS);
    r->stream_of[cmd] = (uint8_t)k;
    uint64_t off = r->next[k];
    r->next[k] += r->bs;
    r->sent[k]++;
    ssdsim__hdd_submit(&r->d, cmd, 0, off, r->bs, 0);
}

static void rd_done(void *ctx, uint32_t cmd)
{
    struct readers *r = ctx;
    uint32_t k = r->stream_of[cmd];
    r->n_done++;
    r->last_ns = ssdsim__engine_now(&r->e);
    if (r->sent[k] < r->per_stream)
        ssdsim__engine_schedule(&r->e, r->last_ns, rd_send, r, k);
}

/* Bytes per second of the whole run (all bytes over the last completion). */
static double run_readers(uint32_t segments, uint32_t n_streams, uint32_t per_stream,
                          uint64_t gap)
{
    static struct readers r;
    memset(&r, 0, sizeof r);
    struct ssdsim__hdd_cfg c = disk(segments);
    r.n_streams = n_streams;
    r.per_stream = per_stream;
    r.bs = 65536;
    ck_assert_int_eq(ssdsim__engine_init(&r.e, 64), 0);
    ck_assert_int_eq(ssdsim__hdd_init(&r.d, &c, &r.e, rd_done, &r), 0);
    for (uint32_t k = 0; k < n_streams; k++) {
        r.next[k] = k * gap;
        ssdsim__engine_schedule(&r.e, 0, rd_send, &r, k);
    }
    ck_assert_int_eq(ssdsim__engine_run(&r.e, 0), 0);
    ck_assert_uint_eq(r.n_done, n_streams * per_stream);
    ck_assert(!ssdsim__hdd_busy(&r.d));
    ssdsim__hdd_fini(&r.d);
    ck_assert_uint_eq(ssdsim__engine_pending(&r.e), 0);
    ssdsim__engine_fini(&r.e);
    return (double)n_streams * per_stream * r.bs / ((double)r.last_ns / 1e9);
}

/* Four readers of 64 KiB at 0, 1, 2 and 3 GB (all in zone 0), 2048 commands (128 MiB) each.
 *
 * Four segments of 16 MiB (32 768 sectors). A reader's first command starts a new segment
 * (128 sectors, no prefetch while others wait). Its second starts where that segment ends: a
 * sequential stream, so the disk reads it and prefetches a whole segment past it, 128 + 32 768
 * sectors = 16 842 752 bytes, whatever waits; the reader's next 256 commands are answered from
 * that segment, and its following miss starts exactly where the segment ends. So after the
 * first visits every visit moves 16 842 752 bytes, and (2048 x 128 - 128) / 32 896 = 7.97:
 * 8 such visits per reader, 32 in all. A visit costs at most a seek (the streams stay within
 * 3.6 GB = 879 cylinders of each other, below N/3, so less than the 8 ms average seek), two
 * revolutions (the rotational wait and the first partial track), and the transfer at the zone's
 * sustained rate: 16 842 752 / 118.610 MB/s = 142.00 ms, 166.67 ms in all; a first visit at
 * most 8 ms + 2 P + 128 sectors (0.53 ms) = 25.20 ms. Time <= 4 x 25.20 + 32 x 166.67 =
 * 5434.1 ms for 536 870 912 bytes: at least 98.79 MB/s, 83% of the sustained 118.61 MB/s, and
 * at most the zone's raw rate, 122.88 MB/s (the platter cannot go faster).
 *
 * One segment: every command seeks. When a command ends, the other three readers' commands
 * are queued and its reader's next is not yet (it arrives from the completion), so the disk
 * always moves to another stream, at least 1 GB - 32 MiB apart (512 commands of 64 KiB each)
 * = 0.966 GB = 235.9 cylinders. Each 64 KiB command then costs at least seek(235.9) =
 * 0.981 ms plus its transfer, 128 / 2000 P = 0.533 ms: 1.515 ms, so at most 43.3 MB/s, 36% of
 * the sustained rate: seek-bound. */
START_TEST(test_hdd_cache_four_streams)
{
    double seg_bytes = 16842752.0;
    double visit_ns = 8e6 + 2 * PERIOD_NS + seg_bytes / SUSTAINED0 * 1e9;
    double first_ns = 8e6 + 2 * PERIOD_NS + 128 / 2000.0 * PERIOD_NS;
    double lo4 = 4.0 * 2048 * 65536 / ((4 * first_ns + 32 * visit_ns) / 1e9);
    ck_assert_double_gt(lo4, 98.79e6);
    double r4 = run_readers(4, 4, 2048, 1000000000ULL);
    ck_assert_double_ge(r4, lo4);
    ck_assert_double_le(r4, 122880000.0);

    double d_min = (1e9 - 512.0 * 65536) / 4096000.0;
    double per_cmd = seek_ns(d_min) + 128 / 2000.0 * PERIOD_NS;
    double hi1 = 65536 / (per_cmd / 1e9);
    ck_assert_double_lt(hi1, 43.3e6);
    double r1 = run_readers(1, 4, 512, 1000000000ULL);
    ck_assert_double_le(r1, hi1);
    ck_assert_double_lt(r1, 0.4 * r4);
    printf("hdd four sequential readers: 4 segments %.2f MB/s (bound >= %.2f), 1 segment %.2f MB/s "
           "(bound <= %.2f); sustained %.2f MB/s\n",
           r4 / 1e6, lo4 / 1e6, r1 / 1e6, hi1 / 1e6, SUSTAINED0 / 1e6);
}
END_TEST

/* One reader alone runs at the sustained rate with one segment or four: 2048 commands of
 * 64 KiB from LBA 0 (the head is there at time 0) take at least 134 217 728 / 118.610 MB/s =
 * 1131.6 ms less one track switch (the last track's is not paid: 72 / 2000 P = 0.3 ms), and
 * at most that plus two revolutions. */
START_TEST(test_hdd_cache_one_stream)
{
    for (uint32_t s = 1; s <= 4; s += 3) {
        double r = run_readers(s, 1, 2048, 0);
        ck_assert_double_le(r, 134217728.0 / (134217728.0 / SUSTAINED0 - 72 / 2000.0 * PERIOD_NS / 1e9));
        ck_assert_double_ge(r, 134217728.0 / (134217728.0 / SUSTAINED0 + 2 * PERIOD_NS / 1e9));
    }
}
END_TEST

/* ------------------------------------------------------------------------------------------ */
/* A queue of sequential reads: `qd` commands of 128 KiB in flight, each completion sending the
 * next; with `raid5`, every fourth 256 KiB strip is skipped, as a RAID-5 member's parity strips
 * are in a sequential read of the array (member 0 of four, left-symmetric: data strips 0, 1,
 * 2, parity 3, data 4, 5, 6, parity 7, ...). */

struct qreader {
    struct ssdsim__engine e;
    struct ssdsim__hdd d;
    bool raid5;
    int op; /* 0 read, 1 write */
    uint64_t next;
    uint32_t sent, total, n_done;
    uint64_t last_ns, max_lat_ns;
    uint64_t sub_ns[2048];
};

#define QR_BS 131072u
#define QR_STRIP 262144u
#define QR_DECOY 2047u /* a read elsewhere that holds the arm when the queue arrives */

static void qr_send(void *ctx, uint32_t arg)
{
    (void)arg;
    struct qreader *q = ctx;
    if (q->raid5 && (q->next / QR_STRIP) % 4 == 3)
        q->next += QR_STRIP;
    ck_assert_uint_lt(q->sent, 2048);
    q->sub_ns[q->sent] = ssdsim__engine_now(&q->e);
    ssdsim__hdd_submit(&q->d, q->sent++, q->op, q->next, QR_BS, 0);
    q->next += QR_BS;
}

static void qr_done(void *ctx, uint32_t cmd)
{
    struct qreader *q = ctx;
    if (cmd == QR_DECOY)
        return;
    q->n_done++;
    q->last_ns = ssdsim__engine_now(&q->e);
    q->max_lat_ns = SSDSIM__MAX(q->max_lat_ns, q->last_ns - q->sub_ns[cmd]);
    if (q->sent < q->total)
        ssdsim__engine_schedule(&q->e, q->last_ns, qr_send, q, 0);
}

/* Returns the data rate (bytes moved for the host over the last completion), the span's end and
 * the longest latency. */
static double run_queue(uint32_t segments, uint32_t qd, int op, bool raid5, bool decoy,
                        uint32_t total, uint64_t *span, uint64_t *max_lat)
{
    static struct qreader q;
    memset(&q, 0, sizeof q);
    struct ssdsim__hdd_cfg c = disk(segments);
    c.write_cache = 0;
    q.op = op;
    q.raid5 = raid5;
    q.total = total;
    ck_assert_int_eq(ssdsim__engine_init(&q.e, 64), 0);
    ck_assert_int_eq(ssdsim__hdd_init(&q.d, &c, &q.e, qr_done, &q), 0);
    if (decoy) /* 64 KiB at 2 GB, still being read when the queue arrives 1 us later */
        ssdsim__hdd_submit(&q.d, QR_DECOY, 0, 2000000000ULL, 65536, 0);
    for (uint32_t k = 0; k < qd; k++)
        ssdsim__engine_schedule(&q.e, decoy ? 1000 : 0, qr_send, &q, 0);
    ck_assert_int_eq(ssdsim__engine_run(&q.e, 0), 0);
    ck_assert_uint_eq(q.n_done, total);
    ck_assert(!ssdsim__hdd_busy(&q.d));
    ssdsim__hdd_fini(&q.d);
    ck_assert_uint_eq(ssdsim__engine_pending(&q.e), 0);
    ssdsim__engine_fini(&q.e);
    *span = q.next;
    *max_lat = q.max_lat_ns;
    return (double)total * QR_BS / ((double)q.last_ns / 1e9);
}

/* A deep queue of sequential reads streams like one read at a time. 1536 commands of 128 KiB
 * from LBA 0 (the head is there at time 0) at QD 1, 8 and 32: the last ends when the head
 * passes the span's end S, which takes S / 118.610 MB/s (the zone's sustained rate, track
 * switches included) less the last track switch not paid (0.3 ms), at most two revolutions
 * more (the first read's partial track). Without RAID-5 gaps S = 1536 x 128 KiB = 192 MiB; with
 * them S = 256 MiB less the last parity strip (the span ends at a strip that is data), and the
 * host's data arrives at 3/4 of the sustained rate, because the arm reads on through each
 * 256 KiB parity strip (half a track) rather than jump past it: the strip passes under the head
 * in the time a repositioning would wait for the next data anyway. Both with one segment and
 * with four: a queued read the pinned prefetch will pass rides it (before, with four segments,
 * it waited for the whole 16 MiB prefetch, 140 ms), and a stream's next read beyond a gap is
 * served before reads further on that come under the head sooner (before, those were chosen
 * and the skipped reads waited a revolution behind the head until they aged: 64 revolutions,
 * 533 ms). No read waits longer than its queue ahead of it moving through the head, qd x 2 x
 * 256 / 2000 revolutions (a command's 256 sectors and at most as many of gap), plus 4
 * revolutions (the first read's wait, a zone's broken skew chain). */
START_TEST(test_hdd_cache_deep_sequential_queue)
{
    for (uint32_t segs = 1; segs <= 4; segs += 3)
        for (int raid5 = 0; raid5 <= 1; raid5++)
            for (uint32_t qd = 1; qd <= 32; qd *= (qd == 1 ? 8 : 4)) {
                uint64_t span, max_lat;
                double rate = run_queue(segs, qd, 0, raid5, false, 1536, &span, &max_lat);
                double data = 1536.0 * QR_BS;
                ck_assert_uint_eq(span, raid5 ? 268435456 - QR_STRIP : 201326592);
                double t_min = span / SUSTAINED0 - 72 / 2000.0 * PERIOD_NS / 1e9;
                double t_max = span / SUSTAINED0 + 2 * PERIOD_NS / 1e9;
                ck_assert_double_le(rate, data / t_min);
                ck_assert_double_ge(rate, data / t_max);
                ck_assert_double_le((double)max_lat, (qd * 2 * 256 / 2000.0 + 4) * PERIOD_NS);
            }
}
END_TEST

/* The same for writes through to the platter (write cache off), 1536 commands of 128 KiB at
 * QD 8 and 32. A write that starts on a new track pays the write settle (0.5 ms) past the
 * 0.3 ms skew and so up to a revolution and the settle; commands start on a track's first
 * sector where 256 j is a multiple of 2000, j = 125, 250, ... 1500: 12 times. So the run takes
 * at least S / 118.610 MB/s less a track switch and at most that plus 12 x (P + 0.5 ms) and two
 * revolutions, S = 192 MiB. Before, SATF chose a later write on the new track whose slot came
 * sooner and left the one that starts it behind the head until it aged (one Ultrastar: 262 ms
 * at QD8). The longest latency is bounded as for reads, plus the 12 lost revolutions. */
/* The queue arrives while the arm is away: a 64 KiB read at 2 GB (488 cylinders on, well
 * within zone 0) holds it, and 32 sequential reads of 128 KiB from LBA 0 (with RAID-5 gaps or
 * without) are queued 1 us later. The arm comes back to the first of them, whichever of the
 * run comes under the head first, and streams from there: the run takes the stream's time
 * (as above) plus at most the decoy's access and transfer and the way back, 2 x (16 ms full
 * stroke + a revolution) + a revolution, and no read waits longer than that plus its queue.
 * Before, the arm started at the run's read that came under the head first (any of the first
 * track's) and streamed on from there, leaving the earlier ones to age (64 revolutions). */
START_TEST(test_hdd_cache_queue_behind_the_head)
{
    for (uint32_t segs = 1; segs <= 4; segs += 3)
        for (int raid5 = 0; raid5 <= 1; raid5++) {
            uint64_t span, max_lat;
            double rate = run_queue(segs, 32, 0, raid5, true, 1536, &span, &max_lat);
            double data = 1536.0 * QR_BS, away_ns = 2 * (16e6 + PERIOD_NS) + PERIOD_NS;
            double t_max = span / SUSTAINED0 + (2 * PERIOD_NS + away_ns) / 1e9;
            ck_assert_double_ge(rate, data / t_max);
            ck_assert_double_le((double)max_lat,
                                (32 * 2 * 256 / 2000.0 + 4) * PERIOD_NS + away_ns);
        }
}
END_TEST

START_TEST(test_hdd_cache_deep_sequential_writes)
{
    for (uint32_t qd = 8; qd <= 32; qd *= 4) {
        uint64_t span, max_lat;
        double rate = run_queue(1, qd, 1, false, false, 1536, &span, &max_lat);
        double data = 1536.0 * QR_BS;
        ck_assert_uint_eq(span, 201326592);
        double t_min = span / SUSTAINED0 - 72 / 2000.0 * PERIOD_NS / 1e9;
        double t_max = span / SUSTAINED0 + (12 * (PERIOD_NS + 500000) + 2 * PERIOD_NS) / 1e9;
        ck_assert_double_le(rate, data / t_min);
        ck_assert_double_ge(rate, data / t_max);
        ck_assert_double_le((double)max_lat, (qd * 2 * 256 / 2000.0 + 4 + 12) * PERIOD_NS);
    }
}
END_TEST

struct rec {
    struct ssdsim__engine *e;
    uint64_t t[16];
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
};
static void ev_sub(void *ctx, uint32_t arg)
{
    struct sub *s = (struct sub *)ctx + arg;
    ssdsim__hdd_submit(s->d, s->cmd, s->op, s->off, 4096, 0);
}

/* LRU. Three segments (the current one and two others). 4 KiB reads of X = 0, Y = 1 GB and
 * Z = 2 GB at 0, 50 and 100 ms (each done long before the next: a read-ahead of at most a
 * segment, 21.3 MiB, takes under 200 ms but stops for the next command). At 150 ms X again: a
 * hit (done at 150 ms), which makes X the most recently used other segment. At 200 ms W = 3 GB
 * misses and parks Z over the least recently used, Y. At 250 ms X and at 260 ms Z are hits;
 * at 300 ms Y misses (done later). With one segment, X at 150 ms misses. A write over X at
 * 400 ms makes a read of X at 500 ms miss. */
START_TEST(test_hdd_cache_lru)
{
    for (uint32_t segs = 1; segs <= 3; segs += 2) {
        struct ssdsim__engine e;
        struct ssdsim__hdd d;
        struct rec r = {.e = &e};
        struct ssdsim__hdd_cfg c = disk(segs);
        ck_assert_int_eq(ssdsim__engine_init(&e, 4), 0);
        ck_assert_int_eq(ssdsim__hdd_init(&d, &c, &e, rec_done, &r), 0);
        const uint64_t G = 1000000000ULL;
        struct sub s[] = {{&d, 0, 0, 0},         {&d, 1, 0, G},         {&d, 2, 0, 2 * G},
                          {&d, 3, 0, 0},         {&d, 4, 0, 3 * G},     {&d, 5, 0, 0},
                          {&d, 6, 0, 2 * G},     {&d, 7, 0, G},         {&d, 8, 1, 0},
                          {&d, 9, 0, 0}};
        const uint64_t at[] = {0, 50, 100, 150, 200, 250, 260, 300, 400, 500};
        for (uint32_t i = 0; i < 10; i++)
            ssdsim__engine_schedule(&e, at[i] * 1000000, ev_sub, s, i);
        ck_assert_int_eq(ssdsim__engine_run(&e, 0), 0);
        if (segs == 3) {
            ck_assert_uint_eq(r.t[3], 150000000);
            ck_assert_uint_eq(r.t[5], 250000000);
            ck_assert_uint_eq(r.t[6], 260000000);
            ck_assert_uint_gt(r.t[7], 300000000);
        } else {
            ck_assert_uint_gt(r.t[3], 150000000);
        }
        ck_assert_uint_gt(r.t[9], 500000000);
        ck_assert(!ssdsim__hdd_busy(&d));
        ssdsim__hdd_fini(&d);
        ck_assert_uint_eq(ssdsim__engine_pending(&e), 0);
        ssdsim__engine_fini(&e);
    }
}
END_TEST

static void expect_reject(struct ssdsim__hdd_cfg c, const char *want)
{
    char why[256];
    ck_assert_int_eq(ssdsim__hdd_check(&c, why, sizeof why), SSDSIM_ECONFIG);
    ck_assert_str_eq(why, want);
}

START_TEST(test_hdd_cache_rejects)
{
    struct ssdsim__hdd_cfg c = disk(4);
    c.segment_bytes = 20 << 20;
    expect_reject(c, "hdd.segment_size: 4 segments of 20971520 bytes need more than hdd.cache "
                     "(67108864 bytes)");
    c = disk(4);
    c.cache_bytes = 1024;
    expect_reject(c, "hdd.segments: 4 segments of a 1024-byte cache hold less than one 512-byte "
                     "sector each");
    c = disk(65);
    expect_reject(c, "hdd.segments: 65 segments is outside [1, 64]");
    c = disk(4);
    c.segment_bytes = 16 << 20;
    ck_assert_int_eq(ssdsim__hdd_check(&c, NULL, 0), 0);
}
END_TEST

/* Same configuration, same results (four readers, four segments, twice). */
START_TEST(test_hdd_cache_determinism)
{
    double a = run_readers(4, 4, 600, 1000000000ULL);
    double b = run_readers(4, 4, 600, 1000000000ULL);
    ck_assert(a == b);
}
END_TEST

static Suite *hdd_cache_suite(void)
{
    Suite *s = suite_create("hdd_cache");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_hdd_cache_four_streams);
    tcase_add_test(tc, test_hdd_cache_one_stream);
    tcase_add_test(tc, test_hdd_cache_deep_sequential_queue);
    tcase_add_test(tc, test_hdd_cache_deep_sequential_writes);
    tcase_add_test(tc, test_hdd_cache_queue_behind_the_head);
    tcase_add_test(tc, test_hdd_cache_lru);
    tcase_add_test(tc, test_hdd_cache_rejects);
    tcase_add_test(tc, test_hdd_cache_determinism);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return test_run_suite(hdd_cache_suite());
}
