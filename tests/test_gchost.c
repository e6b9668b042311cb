/* test_gchost.c: garbage collection the host feels (issue 14, item 2), against figures derived
 * by hand in the comments: write placement (ftl.placement) on a written-full drive with the write
 * cache off, a power-loss-protected buffer that cannot hide GC, foreground GC holding its die
 * (gc.fg_blocks_die), background GC toward a high watermark with a budget (gc.bg_high_watermark,
 * gc.bg_max_blocks) that yields to the host (gc.bg_preempt), and more spare space raising
 * GC-bound write throughput by exactly the die time GC saves.
 *
 * The drive ("gch"): 4 channels x 4 dies, one plane each, 64 blocks x 64 pages of 4 KiB per
 * plane, op 0.28 -> 51,200 logical units (200 MiB); SLC, tR 10 us, tPROG 50 us, tBERS 500 us,
 * bus 400 MT/s x 8 bit (4 KiB in 10,240 ns); host link 4000 MB/s (4 KiB in 1,024 ns), 1 us per
 * command; firmware 1 us per command on one core. Dies 0-3 are on channel 0, 4-7 on channel 1
 * and so on (hw/hw.h). One idle 4 KiB write takes
 *     L0 = 1 + 1 + 1.024 + 10.24 + 50 = 63.264 us,
 * and a GC victim with `valid` pages keeps its die busy for
 *     V = valid x (10 + 10.24 + 10.24 + 50) + 500 us   (read, data out, data in, program; erase).
 */
#include <glib.h>
#include <math.h>
#include <stdlib.h>

#include "sim.h"
#include "simtest.h"
#include "ssdsim/measure.h"

enum { L0_NS = 63264, TPROG_NS = 50000, N_DIES = 16 };

static ssdsim_model *gch(const char *extra)
{
    g_autofree char *j = g_strdup_printf(
        "{\"name\":\"gch\",\"geometry\":{\"channels\":4,\"chips_per_channel\":1,"
        "\"dies_per_chip\":4,\"planes_per_die\":1,\"blocks_per_plane\":64,"
        "\"pages_per_block\":64,\"page_size\":\"4KiB\"},"
        "\"flash\":{\"cell\":\"slc\",\"read_us\":10,\"program_us\":50,\"erase_us\":500,"
        "\"bus_mts\":400,\"bus_width\":8},"
        "\"controller\":{\"cmd_overhead_us\":1,\"cores\":1,\"queue_depth\":32},"
        "\"host\":{\"link_bw\":\"4000MB/s\",\"cmd_overhead_us\":1},\"ftl\":{\"op\":0.28}%s}",
        extra ? extra : "");
    ssdsim_model *m = NULL;
    ssdsim_error err;
    int rc = ssdsim_model_load_string(&m, j, "test_gchost model", &err);
    ck_assert_msg(rc == 0, "%s\nin %s", err.message, j);
    return m;
}

static ssdsim_op_stats writes(ssdsim *sim)
{
    ssdsim_op_stats s;
    ck_assert_int_eq(ssdsim_get_op_stats(sim, SSDSIM_OP_WRITE, &s), 0);
    return s;
}

static ssdsim_device_stats dev(ssdsim *sim)
{
    ssdsim_device_stats d;
    ck_assert_int_eq(ssdsim_get_device_stats(sim, &d), 0);
    return d;
}

/* A written-full drive: the whole logical space written in order, then 100,000 random 4 KiB
 * writes (two logical capacities) so that GC runs in its steady state. */
static ssdsim *full(const ssdsim_model *m)
{
    ssdsim *sim = st_sim(m, 5);
    ck_assert_int_eq(ssdsim_precondition_seq(sim), 0);
    st_run(sim, "{\"rw\":\"randwrite\",\"bs\":\"4k\",\"iodepth\":32,\"number_ios\":100000}", NULL);
    return sim;
}

static const char *const rw1 =
    "{\"rw\":\"randwrite\",\"bs\":\"4k\",\"iodepth\":1,\"numjobs\":1,\"number_ios\":20000}";
static const char *const rw4 =
    "{\"rw\":\"randwrite\",\"bs\":\"4k\",\"iodepth\":1,\"numjobs\":4,\"number_ios\":5000}";

static ssdsim_model *gch_set(const char *key, const char *value)
{
    ssdsim_model *m = gch(NULL);
    ssdsim_error err;
    ck_assert_msg(ssdsim_model_set(m, key, value, &err) == 0, "%s", err.message);
    return m;
}

/* Random 4 KiB writes with no write cache, 1 job at depth 1, then 4 jobs at depth 1.
 *
 * Fresh, every placement: each write finds its die idle, so every latency is L0 = 63,264 ns
 * exactly.
 *
 * Written full, "idle" placement: GC's die time per host write is about g x 80.48 + v x 500 us
 * = 81 us at the g = 0.81 copies and v = 0.028 victims per write this run measures, spread over
 * the 15 dies the host is not writing to during one 63 us write: about 5.4 us of work per die per
 * write period, so an idle die is almost always there and the mean stays within 1% of L0. With
 * 4 jobs four dies take writes at once: close to 4 times the IOPS (above 3.4 x; what is lost is
 * the bus, four idle dies on one channel sharing it).
 *
 * Written full, "stripe": the next die in the fixed order takes the write whether or not GC
 * holds it, and the write waits behind the GC reads, programs and erase queued there: slower than
 * fresh (more than 5%), and the longest write waits for most of a victim (V is about 2.8 ms at
 * the 29 valid pages a victim holds here; more than 10 L0). With 4 jobs the fixed order sends
 * the four writes to four consecutive dies, and each one in turn meets the dies GC holds: the
 * gain is far below 4 (below 3 x), for that reason alone, since with "idle" the same drive,
 * workload and GC give more than 3.4 x. "lba" (unit u on die u mod 16) has no choice at all:
 * slower still than "stripe" at 1 job. */
START_TEST(test_gchost_placement)
{
    static const char *place[] = {"idle", "stripe", "lba"};
    double mean1[3], ratio[3];
    uint64_t max1[3];
    for (int k = 0; k < 3; k++) {
        ssdsim_model *m = gch_set("ftl.placement", place[k]);
        ssdsim *sim = st_sim(m, 5);
        st_run(sim, rw1, NULL);
        ssdsim_op_stats fresh = writes(sim);
        ck_assert_uint_eq(fresh.lat_min_ns, L0_NS);
        ck_assert_uint_eq(fresh.lat_max_ns, L0_NS);
        ssdsim_free(sim);
        sim = full(m);
        st_run(sim, rw1, NULL);
        ssdsim_op_stats one = writes(sim);
        ck_assert_uint_gt(dev(sim).gc_fg_victims, 100); /* GC runs in the measured run */
        st_run(sim, rw4, NULL);
        ssdsim_op_stats four = writes(sim);
        mean1[k] = one.lat_mean_ns;
        max1[k] = one.lat_max_ns;
        ratio[k] = four.iops / one.iops;
        ssdsim_free(sim);
        ssdsim_model_free(m);
    }
    ck_assert_double_le(mean1[0], 1.01 * L0_NS);
    ck_assert_double_gt(ratio[0], 3.4);
    ck_assert_double_gt(mean1[1], 1.05 * L0_NS);
    ck_assert_uint_gt(max1[1], 10 * L0_NS);
    ck_assert_double_lt(ratio[1], 3.0);
    ck_assert_double_gt(mean1[2], mean1[1]);
}
END_TEST

/* A 1 MiB buffer (256 units) acknowledging from DRAM, power-loss protected or volatile with the
 * write cache on, under steady random writes at depth 32 on the full drive. DRAM (1.28 us a
 * unit), the link (1.02 us) and the core (1 us) could take some 780,000 writes a second; the
 * flash cannot: per host write its dies work (1 + g)(10.24 + 50) us programming, g (10 + 10.24)
 * reading for GC and v x 500 us erasing, over 16 dies. With the g and v of the run that bounds
 * the rate to 1e9 x 16 / die_ns; the buffer fills and the writes wait for flushes (back-pressure),
 * so the rate stays at or below the flash's (and above 80% of it: the flushes keep every die
 * busy), and the longest write waits longer than a program, which a buffer that hid GC would
 * never show. */
START_TEST(test_gchost_buffer_backpressure)
{
    static const char *buf[] = {",\"buffer\":{\"size\":\"1MiB\",\"plp\":true}",
                                ",\"buffer\":{\"size\":\"1MiB\",\"write_cache\":true}"};
    for (int k = 0; k < 2; k++) {
        ssdsim_model *m = gch(buf[k]);
        ssdsim *sim = full(m);
        st_run(sim, "{\"rw\":\"randwrite\",\"bs\":\"4k\",\"iodepth\":32,\"number_ios\":40000}",
               NULL);
        ssdsim_op_stats w = writes(sim);
        ssdsim_device_stats d = dev(sim);
        double g = (double)d.gc_pages_copied / (double)d.host_pages_written;
        double v = (double)d.gc_fg_victims / (double)d.host_pages_written;
        double die_ns = (1 + g) * 60240 + g * 20240 + v * 500000;
        double flash_iops = 1e9 * N_DIES / die_ns;
        ck_assert_double_gt(g, 0.5);
        ck_assert_double_le(w.iops, flash_iops);
        ck_assert_double_gt(w.iops, 0.8 * flash_iops);
        ck_assert_uint_gt(w.lat_max_ns, TPROG_NS);
        ssdsim_free(sim);
        ssdsim_model_free(m);
    }
}
END_TEST

/* Random reads and writes at depth 1 on the full drive. A host read normally goes first on its
 * die: it waits at most for the one operation running there, the longest being an erase, so no
 * read takes more than 500 us + the idle read (1 + 1 + 10 + 10.24 + 1.024 = 23.264 us). With
 * gc.fg_blocks_die a read to a die collecting a foreground victim queues behind the GC reads,
 * programs and erase there: some reads take longer than that bound, and the mean grows. */
START_TEST(test_gchost_fg_blocks_die)
{
    const char *wl = "{\"rw\":\"randrw\",\"bs\":\"4k\",\"iodepth\":1,\"number_ios\":20000}";
    ssdsim_op_stats r[2];
    for (int k = 0; k < 2; k++) {
        ssdsim_model *m = gch_set("gc.fg_blocks_die", k ? "true" : "false");
        ssdsim *sim = full(m);
        st_run(sim, wl, NULL);
        ck_assert_int_eq(ssdsim_get_op_stats(sim, SSDSIM_OP_READ, &r[k]), 0);
        ck_assert_uint_gt(dev(sim).gc_fg_victims, 50);
        ssdsim_free(sim);
        ssdsim_model_free(m);
    }
    ck_assert_uint_le(r[0].lat_max_ns, 500000 + 23264);
    ck_assert_uint_gt(r[1].lat_max_ns, 500000 + 23264);
    ck_assert_double_gt(r[1].lat_mean_ns, r[0].lat_mean_ns);
}
END_TEST

/* Background GC toward a high watermark. gc.bg_idle_us 1000; 5,000 random writes at depth 32
 * on the full drive (interval A), an idle pause, 5,000 more (interval B).
 *
 * gc.bg_high_watermark 0.15 of 64 blocks: 9.6, so background GC works up to 10 free blocks per
 * plane (the spare, 64 x 0.28 / 1.28 = 14 blocks, holds that and the 2 open blocks). The pause,
 * 200 ms, is long enough: each plane collects the victims it needs one after another, and a
 * victim takes at most 64 x (10 + 10.24 + 10.24 + 50) + 500 us = 5.65 ms of its die, so even
 * 30 victims a plane (more than this run needs, checked) fit in 170 ms. Afterwards every plane
 * has 10 free blocks (160 in all), 8 more than the foreground watermark: 8 x 64 x 16 = 8,192
 * pages, more than interval B writes, so B runs without foreground GC at the rate of the flash
 * with no GC: a program is 10.24 + 50 us of a die, 16 dies: 1e9 x 16 / 60,240 = 265,604 IOPS
 * (the buses, 10.24 us a page over 4 channels, allow 390,625). B is faster than A, which ran
 * with GC.
 *
 * Without the watermark, background GC stops at gc.free_blocks_target (2, the low watermark):
 * nothing to do in the pause, and B is no faster. With a budget of 2 victims per plane per idle
 * period, the pause collects exactly 2 x 16 = 32 victims. */
START_TEST(test_gchost_bg_watermark)
{
    const char *wl = "{\"rw\":\"randwrite\",\"bs\":\"4k\",\"iodepth\":32,\"number_ios\":5000}";
    for (int k = 0; k < 3; k++) {
        ssdsim_model *m = gch_set("gc.bg_idle_us", "1000");
        ssdsim_error err;
        if (k >= 1)
            ck_assert_int_eq(ssdsim_model_set(m, "gc.bg_high_watermark", "0.15", &err), 0);
        if (k == 2)
            ck_assert_int_eq(ssdsim_model_set(m, "gc.bg_max_blocks", "2", &err), 0);
        ssdsim *sim = full(m);
        st_run(sim, wl, NULL);
        ssdsim_op_stats a = writes(sim);
        ck_assert_int_eq(ssdsim_idle(sim, 200000000), 0);
        ssdsim_device_stats di = dev(sim);
        st_run(sim, wl, NULL);
        ssdsim_op_stats b = writes(sim);
        ssdsim_device_stats db = dev(sim);
        if (k == 0) {
            ck_assert_uint_eq(di.gc_bg_victims, 0);
            ck_assert_double_le(b.iops, a.iops);
        } else if (k == 1) {
            ck_assert_uint_le(di.gc_bg_victims, 30 * N_DIES);
            ck_assert_uint_eq(di.free_blocks, 10 * N_DIES);
            ck_assert_uint_eq(db.gc_fg_victims, 0);
            st_within(b.iops, 1e9 * N_DIES / 60240, 0.02, "after the pause, GC-free IOPS");
            ck_assert_double_gt(b.iops, 1.2 * a.iops);
        } else {
            ck_assert_uint_eq(di.gc_bg_victims, 2 * N_DIES);
        }
        ssdsim_free(sim);
        ssdsim_model_free(m);
    }
}
END_TEST

/* The drives of the gc.bg_preempt tests below: paced GC (controller.fw_gc_page_us 1), background
 * GC after 1 ms idle up to gc.bg_high_watermark 0.15, preemption `on` or not; with `rain`, RAIN
 * at op 0.6 (ftl.parity_group 8). */
static ssdsim_model *preempt_model(bool on, bool rain)
{
    ssdsim_model *m = gch_set("gc.bg_idle_us", "1000");
    ssdsim_error err;
    if (rain) {
        ck_assert_int_eq(ssdsim_model_set(m, "ftl.op", "0.6", &err), 0);
        ck_assert_int_eq(ssdsim_model_set(m, "ftl.parity_group", "8", &err), 0);
    }
    ck_assert_int_eq(ssdsim_model_set(m, "controller.fw_gc_page_us", "1", &err), 0);
    ck_assert_int_eq(ssdsim_model_set(m, "gc.bg_high_watermark", "0.15", &err), 0);
    ck_assert_int_eq(ssdsim_model_set(m, "gc.bg_preempt", on ? "true" : "false", &err), 0);
    return m;
}

static const char *const preempt_wr =
    "{\"rw\":\"randwrite\",\"bs\":\"4k\",\"iodepth\":32,\"number_ios\":5000}";
static const char *const preempt_rd =
    "{\"rw\":\"randread\",\"bs\":\"4k\",\"iodepth\":32,\"number_ios\":20000}";

/* The start of both gc.bg_preempt tests: the drive of preempt_model(on, rain) written full,
 * 5,000 random writes, `idle_ns` of idle time (the device's figures then in *idle), 20,000
 * random reads (its figures then in *reads). Returns the simulation; *m is the model. */
static ssdsim *preempt_start(bool on, bool rain, uint64_t idle_ns, ssdsim_model **m,
                             ssdsim_device_stats *idle, ssdsim_device_stats *reads)
{
    *m = preempt_model(on, rain);
    ssdsim *sim = full(*m);
    st_run(sim, preempt_wr, NULL);
    ck_assert_int_eq(ssdsim_idle(sim, idle_ns), 0);
    *idle = dev(sim);
    st_run(sim, preempt_rd, NULL);
    *reads = dev(sim);
    return sim;
}

/* The end of both gc.bg_preempt tests: a long idle time takes every plane to the watermark (160
 * free blocks); then (after `first`, a workload, when not NULL) a short idle time and 20,000
 * random writes, which must all complete and leave the FTL consistent. Frees sim and m. */
static void preempt_end(ssdsim *sim, ssdsim_model *m, const char *first)
{
    ck_assert_int_eq(ssdsim_idle(sim, 200000000), 0);
    ck_assert_uint_eq(dev(sim).free_blocks, 10 * N_DIES);
    if (first)
        st_run(sim, first, NULL);
    ck_assert_int_eq(ssdsim_idle(sim, 1500000), 0);
    st_run(sim, "{\"rw\":\"randwrite\",\"bs\":\"4k\",\"iodepth\":32,\"number_ios\":20000}",
           NULL);
    ck_assert_uint_eq(dev(sim).host_pages_written, 20000);
    st_check(sim);
    ssdsim_free(sim);
    ssdsim_model_free(m);
}

/* Background GC that yields to the host (gc.bg_preempt). Paced GC (controller.fw_gc_page_us 1:
 * a plane's copies one after another), gc.bg_idle_us 1000, gc.bg_high_watermark 0.15 (10 free
 * blocks a plane, as above). The full drive runs 5,000 random writes at depth 32, so that
 * foreground GC leaves its planes near the low watermark, then idles 1.5 ms: after 1 ms every
 * plane starts a background victim (16 in all) and copies a few of its pages in the 0.5 ms
 * left, far from the victim's end (up to 64 copies of 81.48 us of die time). Then 20,000 random
 * reads at depth 32 (about 55 ms), which need no free block.
 *
 * Without preemption the 16 victims go on under the reads and are all collected: each needs at
 * most 5.65 ms of its die, so the free blocks after the reads are those after the idle time plus
 * 16. With it, the first read ends the idle period and each plane stops before its next copy:
 * at most the one copy whose read was in flight goes on, so the reads see at most 16 copies (one
 * per plane), no new victim, and fewer than 16 more free blocks. A long idle time (200 ms) then
 * takes every plane to the watermark either way (160 free blocks): the paused victims go on
 * when the device is idle again. Random writes straight after another short idle period find
 * victims paused with their planes near the low watermark: foreground GC needs them, so they go
 * on, the writes all complete and the FTL's state is consistent (ssdsim_check). */
START_TEST(test_gchost_bg_preempt)
{
    for (int k = 0; k < 2; k++) {
        ssdsim_model *m;
        ssdsim_device_stats di, dr;
        ssdsim *sim = preempt_start(k == 1, false, 1500000, &m, &di, &dr);
        ck_assert_uint_eq(di.gc_bg_victims, N_DIES);
        ck_assert_uint_eq(dr.host_pages_written, 0);
        if (k == 0) {
            ck_assert_uint_eq(dr.free_blocks, di.free_blocks + N_DIES);
            ck_assert_uint_gt(dr.gc_pages_copied, N_DIES);
        } else {
            ck_assert_uint_le(dr.gc_pages_copied, N_DIES);
            ck_assert_uint_eq(dr.gc_bg_victims, 0);
            ck_assert_uint_lt(dr.free_blocks, di.free_blocks + N_DIES);
        }
        preempt_end(sim, m, preempt_wr);
    }
}
END_TEST

/* The same with RAIN (ftl.parity_group 8, op 0.6: 7 data pages and a parity page per stripe),
 * whose GC collects superblocks, one block of each of the 16 planes, whole (page_super.c). An
 * idle time of 12 ms lets foreground GC end and a background superblock collection start
 * (checked: background victims counted). Random reads then stop each member of the victim
 * before its next copy, so at most one copy per plane (16) is made under them, where without
 * preemption the members keep copying (more than 16). A long idle time takes the free blocks to
 * the watermark either way (10 superblocks, 160 blocks), writes straight after a short idle
 * complete, and the state is consistent. */
START_TEST(test_gchost_bg_preempt_rain)
{
    for (int k = 0; k < 2; k++) {
        ssdsim_model *m;
        ssdsim_device_stats di, dr;
        ssdsim *sim = preempt_start(k == 1, true, 12000000, &m, &di, &dr);
        ck_assert_uint_gt(di.gc_bg_victims, 0);
        if (k == 0) {
            ck_assert_uint_gt(dr.gc_pages_copied, N_DIES);
        } else {
            ck_assert_uint_le(dr.gc_pages_copied, N_DIES);
            ck_assert_uint_eq(dr.gc_bg_victims, 0);
        }
        preempt_end(sim, m, NULL);
    }
}
END_TEST

/* More spare space raises GC-bound steady write throughput by what GC saves. The same drive
 * formatted at op 0.28 and 0.6, written full, then random 4 KiB writes at depth 32 with no
 * write cache and "idle" placement, so that the 16 dies, not the host, set the pace. Per host
 * write the dies work
 *     D = (1 + g) x (10.24 + 50) + g x (10 + 10.24) + v x 500 us
 * (every page programmed crosses the bus in and is programmed; every GC copy is read and
 * crosses the bus out first; every victim is erased), g the GC copies and v the victims per host
 * write, both measured. So IOPS = 16 / D for each format (within 20% below it: the queue does
 * not keep every die busy all the time), and the ratio of the two formats' IOPS is the inverse
 * ratio of their D within 5%: the spare's whole effect on a GC-bound drive is the WAF it saves
 * (g = WAF - 1 and v = WAF / 64 per host write here), nothing caps it. */
START_TEST(test_gchost_spare_raises_gc_bound_writes)
{
    static const char *const op[] = {"0.28", "0.6"};
    double iops[2], d_ns[2], waf[2];
    for (int k = 0; k < 2; k++) {
        ssdsim_model *m = gch_set("ftl.op", op[k]);
        ssdsim *sim = full(m);
        st_run(sim, "{\"rw\":\"randwrite\",\"bs\":\"4k\",\"iodepth\":32,\"number_ios\":40000}",
               NULL);
        ssdsim_op_stats w = writes(sim);
        ssdsim_device_stats d = dev(sim);
        double g = (double)d.gc_pages_copied / (double)d.host_pages_written;
        double v = (double)d.gc_fg_victims / (double)d.host_pages_written;
        d_ns[k] = (1 + g) * 60240 + g * 20240 + v * 500000;
        waf[k] = 1 + g;
        iops[k] = w.iops;
        ck_assert_double_le(iops[k], 1e9 * N_DIES / d_ns[k]);
        ck_assert_double_gt(iops[k], 0.8 * 1e9 * N_DIES / d_ns[k]);
        ssdsim_free(sim);
        ssdsim_model_free(m);
    }
    ck_assert_double_gt(waf[0], 1.3 * waf[1]);
    st_within(iops[1] / iops[0], d_ns[0] / d_ns[1], 0.05, "IOPS gain of the larger spare");
}
END_TEST

/* Impossible values are refused with one line naming the key. */
/* gc.throttle: host writes to a plane collecting a foreground victim go in proportion to its
 * copies, v / (64 - v) copies before each host unit (v: the victim's valid pages).
 *
 * The drive: the "gch" die alone (1 channel, 1 die, 1 plane, 64 blocks of 64 pages), op 0.1:
 * 3,724 logical pages, about 6 spare blocks, so that victims hold about 3/4 valid pages. Written
 * full in order, then 300,000 random 4 KiB writes at depth 8, no write buffer. Both runs are
 * bound by the one die, whose work per host write is, with g copies and e erases per host write
 * as the run measures them,
 *     D = 10.24 + 50 (data in, program) + g x 80.48 (read, out, in, program) + e x 500 us,
 * so IOPS x D = 1 (within 2%: the die never idles while writes wait) with the throttle or
 * without: throttling only reorders the die's work, it adds none.
 *
 * Without the throttle, host writes take all the room GC has freed until the plane is down to
 * its GC reserve, then wait until GC has freed a whole block beyond it: 1 / (1 - 3/4) = about 4
 * victims of about 48 x 80.48 + 500 = 4.4 ms each, so the longest write waits some 18 ms. With
 * it, a write waits for the few copies its unit owes (v / (64 - v), about 3), or, when the host
 * frontier fills while the plane is at its reserve, for the end of one victim (about 4.4 ms):
 * the longest write is under half the unthrottled one, and so is the 99th percentile.
 *
 * The throttled plane holds its free pool nearer the high watermark while it collects (the
 * host no longer drains it to the reserve first): one more free block of the 6 spare ones on
 * average, which costs a little write amplification on so small a spare (within 6%). */
START_TEST(test_gchost_throttle)
{
    double busy[2], waf[2];
    uint64_t max[2], p99[2];
    for (int k = 0; k < 2; k++) {
        g_autofree char *j = g_strdup_printf(
            "{\"name\":\"thr\",\"geometry\":{\"channels\":1,\"chips_per_channel\":1,"
            "\"dies_per_chip\":1,\"planes_per_die\":1,\"blocks_per_plane\":64,"
            "\"pages_per_block\":64,\"page_size\":\"4KiB\"},"
            "\"flash\":{\"cell\":\"slc\",\"read_us\":10,\"program_us\":50,\"erase_us\":500,"
            "\"bus_mts\":400,\"bus_width\":8},"
            "\"controller\":{\"cmd_overhead_us\":1,\"cores\":1,\"queue_depth\":32},"
            "\"host\":{\"link_bw\":\"4000MB/s\",\"cmd_overhead_us\":1},\"ftl\":{\"op\":0.1},"
            "\"gc\":{\"throttle\":%s}}",
            k ? "true" : "false");
        ssdsim_model *m = NULL;
        ssdsim_error err;
        ck_assert_msg(ssdsim_model_load_string(&m, j, "test_gchost thr", &err) == 0, "%s",
                      err.message);
        ssdsim *sim = st_sim(m, 7);
        ck_assert_int_eq(ssdsim_precondition_seq(sim), 0);
        st_run(sim, "{\"rw\":\"randwrite\",\"bs\":\"4k\",\"iodepth\":8,\"number_ios\":300000}",
               NULL);
        ssdsim_op_stats w = writes(sim);
        ssdsim_device_stats d = dev(sim);
        double g = (double)d.gc_pages_copied / (double)d.host_pages_written;
        double e = (double)d.blocks_erased / (double)d.host_pages_written;
        double die_us = 10.24 + 50 + g * 80.48 + e * 500;
        busy[k] = w.iops * die_us * 1e-6;
        waf[k] = d.waf;
        max[k] = w.lat_max_ns;
        p99[k] = w.lat_p99_ns;
        ssdsim_free(sim);
        ssdsim_model_free(m);
    }
    for (int k = 0; k < 2; k++)
        ck_assert_msg(busy[k] > 0.98 && busy[k] < 1.0001, "throttle %d: die busy %.4f", k,
                      busy[k]);
    ck_assert_msg(max[1] * 2 < max[0], "longest write %llu ns throttled, %llu ns not",
                  (unsigned long long)max[1], (unsigned long long)max[0]);
    ck_assert_msg(p99[1] * 2 < p99[0], "p99 %llu ns throttled, %llu ns not",
                  (unsigned long long)p99[1], (unsigned long long)p99[0]);
    ck_assert_msg(fabs(waf[1] / waf[0] - 1) < 0.06, "WAF %.4f throttled, %.4f not", waf[1],
                  waf[0]);
}
END_TEST

/* Planes written in step collect at the host's pace with one GC threshold, and in bursts with a
 * band above it (models.md, the Fusion-io ioDrive's section). The ioDrive model cut to 32
 * blocks a plane: 384 planes taking host writes in a fixed stripe order, so every plane takes as
 * many, with the same free count installed in each by fast preconditioning (settled, as `ssdsim
 * run --precondition fast` does); gc.throttle on. Its
 * one host FTL thread spends 12.66 us on every command, 6.33 us on every unit's mapping update
 * and every GC copy, 25.32 us on every victim, and binds (its flash has 384 planes to spare).
 *
 * By hand. Without GC the thread completes 1e6 / (12.66 + 6.33) = 52,659 writes a second. With
 * g copies and v victims per host write in an interval, a host write costs the thread
 *     W = 18.99 + 6.33 g + 25.32 v us,  so the interval runs 1e6 / W writes a second
 * (within 4%: the thread's backlog crosses interval edges). The 250 ms intervals hold some
 * 7,000 writes, 19 a plane.
 *
 * gc.free_blocks_min 2 = free_blocks_target (the models' one threshold): a plane collects from
 * when it is down to its reserve (1 free block) until it has 2, and the throttle lets the host
 * fill what each victim frees, so GC is paid as the host writes in every interval: each
 * interval's g within 15% of the run's, its IOPS within 5% of the run's 1e6 / W.
 *
 * free_blocks_target 3 (the estimate the models had): from the reserve a plane must gain two
 * blocks, and the second comes only while the host writes elsewhere, which happens when the
 * thread is taken by most planes' copies at once; so the planes wait for each other and collect
 * together, and between the bursts the drive writes nearly GC-free: some interval runs above
 * 0.75 x 52,659 = 39,494 writes a second, and the slowest runs under 0.8 x the run's
 * 1e6 / W. The mean changes little: the same copies fall in other intervals. */
START_TEST(test_gchost_planes_in_step)
{
    const char *wl = "{\"rw\":\"randwrite\",\"bs\":\"4k\",\"iodepth\":16,\"numjobs\":4,"
                     "\"time_based\":1,\"runtime\":\"6s\"}";
    for (int target = 2; target <= 3; target++) {
        g_autofree char *t = g_strdup_printf("gc.free_blocks_target=%d", target);
        ssdsim_model *m = st_model("iodrive-mlc-320", "geometry.blocks_per_plane=32", t, NULL);
        ssdsim *sim = st_sim(m, 1);
        ssdsim_workload *w = st_workload(wl);
        ck_assert_int_eq(ssdsim_precondition_fast(sim, w, NULL), 0);
        ck_assert_int_eq(ssdsim_settle_adaptive(sim, w, SSDSIM_SETTLE_DRIVE_WRITES, NULL), 0);
        ssdsim_run_opts o = SSDSIM_RUN_OPTS_INIT;
        o.interval_ns = 250000000;
        ck_assert_msg(ssdsim_run(sim, w, &o) == 0, "%s", ssdsim_errmsg(sim));
        ssdsim_device_stats d = dev(sim);
        double host = (double)d.host_pages_written;
        double g = (double)d.gc_pages_copied / host, v = (double)d.blocks_erased / host;
        ck_assert_double_gt(g, 1); /* GC runs: the derivation is not vacuous */
        double run_iops = 1e6 / (18.99 + 6.33 * g + 25.32 * v);
        double lo = INFINITY, hi = 0, gmin = INFINITY, gmax = 0;
        uint64_t prev = 0;
        size_t n = ssdsim_n_intervals(sim), whole = 0;
        for (size_t i = 0; i < n; i++) {
            ssdsim_interval iv;
            ck_assert_int_eq(ssdsim_get_interval(sim, i, &iv), 0);
            double h = (double)(iv.host_pages_written - prev);
            prev = iv.host_pages_written;
            if (iv.partial)
                continue;
            whole++;
            double gi = (double)iv.gc_pages_copied / h, vi = (double)iv.blocks_erased / h;
            g_autofree char *what =
                g_strdup_printf("target %d, interval %zu: IOPS against its firmware time",
                                target, i);
            st_within(iv.iops, 1e6 / (18.99 + 6.33 * gi + 25.32 * vi), 0.04, what);
            lo = fmin(lo, iv.iops);
            hi = fmax(hi, iv.iops);
            gmin = fmin(gmin, gi);
            gmax = fmax(gmax, gi);
        }
        ck_assert_uint_ge(whole, 20);
        if (target == 2) {
            ck_assert_msg(gmin > 0.85 * g && gmax < 1.15 * g,
                          "one threshold: copies per host write %.3f to %.3f, run %.3f", gmin,
                          gmax, g);
            st_within(lo, run_iops, 0.05, "one threshold: slowest interval");
            st_within(hi, run_iops, 0.05, "one threshold: fastest interval");
        } else {
            ck_assert_msg(hi > 0.75 * 52659, "band: fastest interval %.0f IOPS", hi);
            ck_assert_msg(lo < 0.8 * run_iops, "band: slowest interval %.0f IOPS, run %.0f", lo,
                          run_iops);
        }
        ssdsim_workload_free(w);
        ssdsim_free(sim);
        ssdsim_model_free(m);
    }
}
END_TEST

START_TEST(test_gchost_refuses_bad_values)
{
    static const char *const extra[] = {
        ",\"ftl\":{\"op\":0.28,\"placement\":\"random\"}",
        ",\"gc\":{\"bg_high_watermark\":0.1}",
        ",\"gc\":{\"bg_idle_us\":100,\"bg_high_watermark\":0.7}",
        ",\"gc\":{\"bg_idle_us\":100,\"bg_max_blocks\":-1}",
        ",\"ftl\":{\"parity_group\":4},\"gc\":{\"throttle\":true}",
        ",\"ftl\":{\"type\":\"fast\"},\"gc\":{\"throttle\":true}",
        ",\"gc\":{\"throttle\":1}",
        ",\"gc\":{\"bg_idle_us\":100,\"bg_preempt\":true}",
        ",\"ftl\":{\"type\":\"fast\"},\"controller\":{\"fw_gc_page_us\":1},"
        "\"gc\":{\"bg_idle_us\":100,\"bg_preempt\":true}",
        ",\"gc\":{\"bg_preempt\":true}",
    };
    static const char *const key[] = {"ftl.placement",    "gc.bg_high_watermark",
                                      "gc.bg_high_watermark", "gc.bg_max_blocks",
                                      "gc.throttle",      "gc.throttle",
                                      "gc.throttle",      "gc.bg_preempt",
                                      "gc.bg_preempt",    "gc.bg_preempt"};
    for (size_t i = 0; i < sizeof extra / sizeof *extra; i++) {
        g_autofree char *j = g_strdup_printf(
            "{\"name\":\"gch\",\"geometry\":{\"channels\":4,\"chips_per_channel\":1,"
            "\"dies_per_chip\":4,\"planes_per_die\":1,\"blocks_per_plane\":64,"
            "\"pages_per_block\":64,\"page_size\":\"4KiB\"},"
            "\"flash\":{\"cell\":\"slc\",\"read_us\":10,\"program_us\":50,\"erase_us\":500,"
            "\"bus_mts\":400,\"bus_width\":8}%s}",
            extra[i]);
        ssdsim_model *m = NULL;
        ssdsim_error err;
        ck_assert_int_ne(ssdsim_model_load_string(&m, j, "bad.json", &err), 0);
        ck_assert_msg(strstr(err.message, key[i]) != NULL, "%s", err.message);
        ck_assert_ptr_null(strchr(err.message, '\n'));
    }
    /* The spare cannot hold the watermark: 0.25 of 64 blocks is 16 free blocks a plane, the
     * spare 14 with 2 open blocks: refused when the model is set, by its key and with the
     * largest share that fits (12 blocks); it was refused only when the simulation was built,
     * as an FTL that "could not be set up" (ftl.type). */
    ssdsim_model *m = gch_set("gc.bg_idle_us", "100");
    ssdsim_error err;
    ck_assert_int_eq(ssdsim_model_set(m, "gc.bg_high_watermark", "0.25", &err), SSDSIM_ECONFIG);
    ck_assert_str_eq(err.path, "gc.bg_high_watermark");
    ck_assert_str_eq(err.message, "--set: gc.bg_high_watermark: expected at most 0.1875 (12 of the "
                                  "64 blocks per plane: the 14 spare blocks per plane hold 2 open "
                                  "blocks and at most 12 free), got 0.25 (16 blocks)");
    ck_assert_int_eq(ssdsim_model_set(m, "gc.bg_high_watermark", "0.1875", &err), 0);
    ssdsim *sim = NULL;
    ck_assert_msg(ssdsim_new(&sim, m, 1, &err) == 0, "%s", err.message);
    ssdsim_free(sim);
    /* Factory bad blocks, drawn when the simulation is built, take more of the spare: then it
     * is the FTL that refuses the watermark. */
    ck_assert_msg(ssdsim_model_set(m, "reliability.bad_fraction", "0.05", &err) == 0, "%s",
                  err.message);
    ck_assert_int_ne(ssdsim_new(&sim, m, 1, &err), 0);
    ck_assert_msg(strstr(err.message, "gc.bg_high_watermark 0.1875 asks for 12 free blocks") !=
                      NULL,
                  "%s", err.message);
    ck_assert_ptr_null(strchr(err.message, '\n'));
    ssdsim_model_free(m);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("gchost");
    TCase *tc = tcase_create("gchost");
    tcase_set_timeout(tc, 600);
    tcase_add_test(tc, test_gchost_placement);
    tcase_add_test(tc, test_gchost_buffer_backpressure);
    tcase_add_test(tc, test_gchost_fg_blocks_die);
    tcase_add_test(tc, test_gchost_bg_watermark);
    tcase_add_test(tc, test_gchost_bg_preempt);
    tcase_add_test(tc, test_gchost_bg_preempt_rain);
    tcase_add_test(tc, test_gchost_spare_raises_gc_bound_writes);
    tcase_add_test(tc, test_gchost_throttle);
    tcase_add_test(tc, test_gchost_planes_in_step);
    tcase_add_test(tc, test_gchost_refuses_bad_values);
    suite_add_tcase(s, tc);
    return test_run_suite(s);
}
