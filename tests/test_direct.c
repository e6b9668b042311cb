/* test_direct.c: the direct (in-place) FTL for media without erase against figures derived by
 * hand: QD1 read and write latencies are the sum of their parts, an unwritten or trimmed unit
 * and a partial write behave exactly as in the page FTL, overwriting one unit 1000 times costs
 * 1000 programs and no erase (WAF 1.000) in a time the die alone sets, random writes over a
 * device with almost no spare never stall, units are striped over channels first, a device
 * whose logical capacity exceeds its pages is refused, fast preconditioning is refused, runs are
 * deterministic, and an XPoint model runs on it by default at op 0.
 *
 * The models below are generic-slc's geometry and bus on media without erase
 * (tests/data/xpoint-base.json, op 0.28 to keep generic-slc's logical size), with one read and
 * one write time; the page FTL comparison runs the same figures on the SLC model. */
#include <stdlib.h>

#include "ftl/direct.h"
#include "sim.h"
#include "simtest.h"

/* generic-slc on media without erase (tests/data/xpoint-base.json), for st_model */
#define XPOINT_BASE "../tests/data/xpoint-base"

/* The one-die drive of test_hw.c with round numbers, on SLC with tR 10 us and tPROG 20 us:
 * bus 100 MT/s x 8 bit = 100 MB/s -> 4096 B take 40,960 ns; link 400 MB/s -> 4096 B take
 * 10,240 ns; host overhead 3 us, firmware 5 us, one core. 64 blocks x 16 pages = 1024 pages;
 * generic-slc's op 0.28 leaves 1024 / 1.28 = 800 logical units. */
enum {
    HOST_NS = 3000,
    FW_NS = 5000,
    BUS_4K_NS = 40960,  /* 4096 * 8000 / (100 * 8) */
    LINK_4K_NS = 10240, /* 4096 * 1e9 / 400e6 */
    LINK_2K_NS = 5120,  /* 2048 * 1e9 / 400e6 */
    TR_NS = 10000,
    TPROG_NS = 20000,
    /* 3000 + 5000 + 10000 + 40960 + 10240 */
    READ_NS = HOST_NS + FW_NS + TR_NS + BUS_4K_NS + LINK_4K_NS,
    /* 3000 + 10240 + 5000 + 40960 + 20000 */
    WRITE_NS = HOST_NS + LINK_4K_NS + FW_NS + BUS_4K_NS + TPROG_NS,
};

static ssdsim_model *one_die(const char *type)
{
    /* the page FTL on the same SLC device, the direct FTL on its erase-free twin */
    bool direct = strcmp(type, "direct") == 0;
    return st_model(
        direct ? XPOINT_BASE : "generic-slc", "geometry.channels=1", "geometry.chips_per_channel=1",
        "geometry.dies_per_chip=1", "geometry.planes_per_die=1", "geometry.blocks_per_plane=64",
        "geometry.pages_per_block=16", "flash.read_us=10", "flash.program_us=20",
        "flash.bus_mts=100", "flash.bus_width=8", "host.link_bw=\"400MB/s\"",
        "host.cmd_overhead_us=3", "controller.cmd_overhead_us=5", "controller.cores=1", NULL);
}

static struct ssdsim__direct *direct_of(ssdsim *sim)
{
    return ((struct ssdsim *)sim)->sys.devs[0].env.state;
}

static ssdsim_device_stats dev(ssdsim *sim)
{
    ssdsim_device_stats d;
    ck_assert_int_eq(ssdsim_get_device_stats(sim, &d), 0);
    return d;
}

START_TEST(test_direct_is_registered)
{
    size_t n = ssdsim_plugin_count(SSDSIM_PLUGIN_FTL);
    bool found = false;
    for (size_t i = 0; i < n; i++) {
        const char *name, *summary;
        const ssdsim_param *params;
        ck_assert_int_eq(ssdsim_plugin_describe(SSDSIM_PLUGIN_FTL, i, &name, &summary, &params), 0);
        if (strcmp(name, "direct"))
            continue;
        found = true;
        ck_assert_str_eq(summary, "in-place mapping for media without erase");
        ck_assert_ptr_null(params);
    }
    ck_assert(found);
}
END_TEST

START_TEST(test_direct_qd1_write_latency_is_sum_of_parts)
{
    ssdsim_model *m = one_die("direct");
    ssdsim *sim = st_sim(m, 1);
    /* Two sequential 4 KiB writes at QD1: one page type, so both take
     * 3 + 10.24 + 5 + 40.96 + 20 us = 79.2 us, and the second starts when the first ends. */
    st_run(sim, "{\"rw\":\"write\",\"bs\":\"4k\",\"iodepth\":1,\"number_ios\":2}", NULL);
    ssdsim_op_stats s;
    ck_assert_int_eq(ssdsim_get_op_stats(sim, SSDSIM_OP_WRITE, &s), 0);
    ck_assert_uint_eq(s.count, 2);
    ck_assert_uint_eq(WRITE_NS, 79200);
    ck_assert_uint_eq(s.lat_min_ns, WRITE_NS);
    ck_assert_uint_eq(s.lat_max_ns, WRITE_NS);
    ck_assert_uint_eq(ssdsim_sim_time_ns(sim), 2 * WRITE_NS);
    /* One plane: unit u is page u. */
    ck_assert_uint_eq(ssdsim_lookup(sim, 0), 0);
    ck_assert_uint_eq(ssdsim_lookup(sim, 1), 1);
    ck_assert_uint_eq(ssdsim_lookup(sim, 2), UINT64_MAX);
    ssdsim_free(sim);
    ssdsim_model_free(m);
}
END_TEST

START_TEST(test_direct_qd1_read_latency_is_sum_of_parts)
{
    ssdsim_model *m = one_die("direct");
    ssdsim *sim = st_sim(m, 1);
    st_run(sim, "{\"rw\":\"write\",\"bs\":\"4k\",\"iodepth\":1,\"number_ios\":2}", NULL);
    /* 3 + 5 + 10 + 40.96 + 10.24 us = 69.2 us, on either page. */
    ck_assert_uint_eq(READ_NS, 69200);
    st_run(sim, "{\"rw\":\"read\",\"bs\":\"4k\",\"iodepth\":1,\"number_ios\":2}", NULL);
    ssdsim_op_stats s;
    ssdsim_get_op_stats(sim, SSDSIM_OP_READ, &s);
    ck_assert_uint_eq(s.count, 2);
    ck_assert_uint_eq(s.lat_min_ns, READ_NS);
    ck_assert_uint_eq(s.lat_max_ns, READ_NS);
    ck_assert_uint_eq(st_one(sim, SSDSIM_OP_READ, 4096, 4096), READ_NS);
    /* An 8 KiB read of units 0 and 1 on one die: unit 0 (10 us + bus), then unit 1 (10 us +
     * bus); each goes to the host as soon as it is off the bus, the last ends the request. */
    ck_assert_uint_eq(st_one(sim, SSDSIM_OP_READ, 0, 8192),
                      HOST_NS + FW_NS + 2 * (TR_NS + BUS_4K_NS) + LINK_4K_NS);
    ssdsim_device_stats d = dev(sim);
    ck_assert_uint_eq(d.unmapped_reads, 0);
    ck_assert_uint_eq(d.flash_pages_read, 2 + 1 + 2);
    ssdsim_free(sim);
    ssdsim_model_free(m);
}
END_TEST

/* The same requests, one at a time, on the direct FTL and on the page FTL of the same one-die
 * device: a fresh page FTL on one plane has no GC to do and one page type, so every difference
 * would be a difference in how unwritten units, partial units and trims are treated. */
static void script(ssdsim *sim, uint64_t *lat, ssdsim_device_stats *d)
{
    int i = 0;
    lat[i++] = st_one(sim, SSDSIM_OP_READ, 0, 4096);           /* unwritten: no flash */
    lat[i++] = st_one(sim, SSDSIM_OP_WRITE, 4096, 2048);       /* partial, unwritten: no RMW */
    lat[i++] = st_one(sim, SSDSIM_OP_WRITE, 4096 + 512, 1024); /* partial, written: RMW */
    lat[i++] = st_one(sim, SSDSIM_OP_READ, 4096, 4096);
    lat[i++] = st_one(sim, SSDSIM_OP_WRITE, 0, 8192); /* one whole unit new, one over */
    lat[i++] = st_one(sim, SSDSIM_OP_TRIM, 4096, 4096);
    lat[i++] = st_one(sim, SSDSIM_OP_READ, 0, 8192);    /* one written, one trimmed */
    lat[i++] = st_one(sim, SSDSIM_OP_WRITE, 4096, 512); /* partial, trimmed: no RMW */
    lat[i++] = st_one(sim, SSDSIM_OP_READ, 4096, 512);
    *d = dev(sim);
}

START_TEST(test_direct_unwritten_and_partial_units_as_page_ftl)
{
    ssdsim_model *md = one_die("direct"), *mp = one_die("page");
    ssdsim *sd = st_sim(md, 1), *sp = st_sim(mp, 1);
    uint64_t ld[9], lp[9];
    ssdsim_device_stats dd, dp;
    script(sd, ld, &dd);
    script(sp, lp, &dp);
    for (int i = 0; i < 9; i++)
        ck_assert_msg(ld[i] == lp[i], "request %d: direct %llu ns, page %llu ns", i,
                      (unsigned long long)ld[i], (unsigned long long)lp[i]);
    /* By hand: an unwritten unit is protocol + firmware + zeros over the link; a partial
     * write of an unwritten unit programs at once; of a written one, the whole page is read
     * (10 us + a page on the bus) first. */
    ck_assert_uint_eq(ld[0], HOST_NS + FW_NS + LINK_4K_NS);
    ck_assert_uint_eq(ld[1], HOST_NS + LINK_2K_NS + FW_NS + BUS_4K_NS + TPROG_NS);
    ck_assert_uint_eq(ld[2], HOST_NS + 2560 + FW_NS + (TR_NS + BUS_4K_NS) + BUS_4K_NS + TPROG_NS);
    ck_assert_uint_eq(ld[3], READ_NS);
    ck_assert_uint_eq(ld[7], HOST_NS + 1280 + FW_NS + BUS_4K_NS + TPROG_NS);
    /* 512 B read: the die moves 512 B over the bus (5,120 ns) and the link 1,280 ns. */
    ck_assert_uint_eq(ld[8], HOST_NS + FW_NS + TR_NS + 5120 + 1280);
    ck_assert_uint_eq(dd.unmapped_reads, dp.unmapped_reads);
    ck_assert_uint_eq(dd.unmapped_reads, 2);
    ck_assert_uint_eq(dd.flash_pages_read, dp.flash_pages_read);
    ck_assert_uint_eq(dd.flash_pages_programmed, dp.flash_pages_programmed);
    ck_assert_uint_eq(dd.host_pages_written, dp.host_pages_written);
    ck_assert_uint_eq(dd.host_pages_written, 5);
    ck_assert_uint_eq(ssdsim_sim_time_ns(sd), ssdsim_sim_time_ns(sp));
    ck_assert_int_eq(ssdsim__direct_check(direct_of(sd)), 0);
    ssdsim_free(sd);
    ssdsim_free(sp);
    ssdsim_model_free(md);
    ssdsim_model_free(mp);
}
END_TEST

static void overwrite(ssdsim *sim, uint64_t n)
{
    for (uint64_t i = 0; i < n; i++)
        ck_assert_int_eq(ssdsim_submit(sim, SSDSIM_OP_WRITE, 0, 4096, 0, i, NULL, NULL), 0);
    ck_assert_int_eq(ssdsim_drain(sim), 0);
}

START_TEST(test_direct_overwrites_in_place_waf_one)
{
    ssdsim_model *m = one_die("direct");
    ssdsim *sim = st_sim(m, 1);
    /* 1000 writes of unit 0, all arriving at t = 0: the first reaches the die after 3 + 5 +
     * 10.24 us; from then on the die is the bottleneck (the link delivers one every 10.24 us, the
     * die takes 40.96 + 20 us each), so the last ends at 18.24 us + 1000 x 60.96 us. */
    overwrite(sim, 1000);
    ssdsim_device_stats d = dev(sim);
    ck_assert_uint_eq(d.host_pages_written, 1000);
    ck_assert_uint_eq(d.flash_pages_programmed, 1000);
    ck_assert_double_eq(d.waf, 1.0);
    ck_assert_uint_eq(d.blocks_erased, 0);
    ck_assert_uint_eq(d.gc_pages_copied, 0);
    ck_assert_uint_eq(d.erase_count_max, 0);
    ck_assert_uint_eq(d.flash_pages_read, 0);
    ck_assert_uint_eq(ssdsim_now(sim),
                      HOST_NS + FW_NS + LINK_4K_NS + 1000ULL * (BUS_4K_NS + TPROG_NS));
    ck_assert_uint_eq(ssdsim_now(sim), 60978240);
    ck_assert_uint_eq(ssdsim_lookup(sim, 0), 0);
    /* Block 0 holds one written unit, every other block none. */
    uint32_t valid = 99, ec = 99;
    ck_assert_int_eq(ssdsim_block_state(sim, 0, &valid, &ec), 0);
    ck_assert_uint_eq(valid, 1);
    ck_assert_uint_eq(ec, 0);
    ck_assert_int_eq(ssdsim_block_state(sim, 1, &valid, &ec), 0);
    ck_assert_uint_eq(valid, 0);
    ck_assert_uint_eq(d.free_blocks, 63);
    ck_assert_uint_eq(ssdsim_plane_free_blocks(sim, 0), 63);
    ck_assert_int_eq(ssdsim__direct_check(direct_of(sim)), 0);
    ssdsim_free(sim);
    ssdsim_model_free(m);
}
END_TEST

START_TEST(test_direct_trim_unmaps_without_flash)
{
    ssdsim_model *m = one_die("direct");
    ssdsim *sim = st_sim(m, 1);
    st_one(sim, SSDSIM_OP_WRITE, 16 * 4096, 2 * 4096); /* units 16, 17: block 1 */
    uint32_t valid = 0;
    ck_assert_int_eq(ssdsim_block_state(sim, 1, &valid, NULL), 0);
    ck_assert_uint_eq(valid, 2);
    ck_assert_uint_eq(ssdsim_plane_free_blocks(sim, 0), 63);
    /* A trim costs only the command: protocol and firmware. */
    ck_assert_uint_eq(st_one(sim, SSDSIM_OP_TRIM, 16 * 4096, 4096), HOST_NS + FW_NS);
    ck_assert_uint_eq(ssdsim_lookup(sim, 16), UINT64_MAX);
    ck_assert_uint_eq(ssdsim_lookup(sim, 17), 17);
    ck_assert_int_eq(ssdsim_block_state(sim, 1, &valid, NULL), 0);
    ck_assert_uint_eq(valid, 1);
    st_one(sim, SSDSIM_OP_TRIM, 17 * 4096, 4096);
    ck_assert_uint_eq(ssdsim_plane_free_blocks(sim, 0), 64);
    ck_assert_uint_eq(st_one(sim, SSDSIM_OP_READ, 16 * 4096, 2 * 4096),
                      HOST_NS + FW_NS + 2 * LINK_4K_NS);
    ssdsim_device_stats d = dev(sim);
    ck_assert_uint_eq(d.unmapped_reads, 2);
    ck_assert_uint_eq(d.flash_pages_read, 0);
    ck_assert_uint_eq(d.flash_pages_programmed, 2);
    ck_assert_uint_eq(d.free_blocks, 64);
    /* A secure erase forgets everything written; wear (none) is kept. */
    st_one(sim, SSDSIM_OP_WRITE, 0, 4096);
    ck_assert_int_eq(ssdsim_secure_erase(sim), 0);
    ck_assert_uint_eq(ssdsim_lookup(sim, 0), UINT64_MAX);
    ck_assert_int_eq(ssdsim__direct_check(direct_of(sim)), 0);
    ssdsim_free(sim);
    ssdsim_model_free(m);
}
END_TEST

/* One die, one plane of 512 blocks of 2 pages: 1024 pages. gc.free_blocks_min 1 and ftl.op
 * 0.006 are the least spare the loader lets a NAND model have (3 blocks per plane: the
 * watermark and two open blocks): 1024 / 1.006 = 1017.9 -> 1017 units, 7 pages spare. The
 * page FTL would collect a block per 2 host pages at this spare; the direct FTL has nothing to
 * collect. */
static ssdsim_model *tight(void)
{
    return st_model(XPOINT_BASE, "geometry.channels=1", "geometry.chips_per_channel=1",
                    "geometry.dies_per_chip=1", "geometry.planes_per_die=1",
                    "geometry.blocks_per_plane=512", "geometry.pages_per_block=2",
                    "flash.read_us=10", "flash.program_us=20", "ftl.op=0.006", NULL);
}

START_TEST(test_direct_random_writes_never_stall)
{
    ssdsim_model *m = tight();
    ssdsim *sim = st_sim(m, 3);
    uint64_t units = 0;
    ck_assert_int_eq(ssdsim_device_shape(sim, NULL, NULL, NULL, NULL, &units), 0);
    ck_assert_uint_eq(units, 1017);
    /* 20 drive writes of uniform random 4 KiB writes, 64 outstanding: every unit is written
     * (a unit missed by 20340 uniform draws has probability e^-20). */
    st_run(sim,
           "{\"rw\":\"randwrite\",\"bs\":\"4k\",\"iodepth\":16,\"numjobs\":4,"
           "\"number_ios\":5085}",
           NULL);
    ssdsim_device_stats d = dev(sim);
    ck_assert_uint_eq(d.host_pages_written, 4 * 5085);
    ck_assert_uint_eq(d.flash_pages_programmed, 4 * 5085);
    ck_assert_double_eq(d.waf, 1.0);
    ck_assert_uint_eq(d.blocks_erased, 0);
    ssdsim_op_stats s;
    ssdsim_get_op_stats(sim, SSDSIM_OP_WRITE, &s);
    ck_assert_uint_eq(s.count, 4 * 5085);
    /* No unit waited for space. */
    for (uint64_t u = 0; u < units; u++)
        ck_assert_uint_eq(ssdsim_lookup(sim, u), u);
    /* Units 0..1016 fill pages 0..1016: blocks 0..507 hold two, block 508 one, blocks 509..511
     * none. */
    uint32_t valid = 0;
    ssdsim_block_state(sim, 507, &valid, NULL);
    ck_assert_uint_eq(valid, 2);
    ssdsim_block_state(sim, 508, &valid, NULL);
    ck_assert_uint_eq(valid, 1);
    ck_assert_uint_eq(d.free_blocks, 3);
    /* The die is never idle once the queue fills: 20340 x (20.48 us bus at generic-slc's
     * 200 MT/s + 20 us program) and the first write's way in (2 + 4 + 2.048 us); the host keeps
     * 64 outstanding, far more than one die needs. */
    uint64_t per = 20480 + 20000;
    ck_assert_uint_ge(ssdsim_sim_time_ns(sim), 4 * 5085 * per);
    ck_assert_uint_le(ssdsim_sim_time_ns(sim), 4 * 5085 * per + 100000);
    ck_assert_int_eq(ssdsim__direct_check(direct_of(sim)), 0);
    ssdsim_free(sim);
    ssdsim_model_free(m);
}
END_TEST

START_TEST(test_direct_reads_after_writes)
{
    ssdsim_model *m = one_die("direct");
    ssdsim *sim = st_sim(m, 2);
    ck_assert_int_eq(ssdsim_precondition_seq(sim), 0);
    st_run(sim, "{\"rw\":\"randread\",\"bs\":\"4k\",\"iodepth\":1,\"number_ios\":300}", NULL);
    ssdsim_op_stats s;
    ssdsim_get_op_stats(sim, SSDSIM_OP_READ, &s);
    ck_assert_uint_eq(s.count, 300);
    ck_assert_uint_eq(s.lat_min_ns, READ_NS);
    ck_assert_uint_eq(s.lat_max_ns, READ_NS);
    ssdsim_device_stats d = dev(sim);
    ck_assert_uint_eq(d.unmapped_reads, 0);
    ck_assert_uint_eq(d.flash_pages_read, 300);
    ck_assert_uint_eq(d.free_blocks, 14); /* 800 units fill blocks 0..49 of 64 */
    ssdsim_free(sim);
    ssdsim_model_free(m);
}
END_TEST

/* 2 channels x 2 chips x 1 die x 2 planes = 8 planes of 32 blocks x 4 pages (128 pages each).
 * (op 0.28 leaves 800 units.)
 * The stripe walks channels first, then chips, then planes: stripe index i is channel i % 2,
 * chip (i / 2) % 2, plane in the die i / 4; plane number = ((ch * 2 + chip) * 1 + 0) * 2 +
 * plane in die, so indices 0..7 are planes 0, 4, 2, 6, 1, 5, 3, 7. */
START_TEST(test_direct_stripes_channels_first)
{
    ssdsim_model *m = st_model(XPOINT_BASE, "geometry.channels=2", "geometry.chips_per_channel=2",
                               "geometry.dies_per_chip=1", "geometry.planes_per_die=2",
                               "geometry.blocks_per_plane=32", "geometry.pages_per_block=4", NULL);
    ssdsim *sim = st_sim(m, 1);
    st_run(sim, "{\"rw\":\"write\",\"bs\":\"4k\",\"iodepth\":4,\"number_ios\":24}", NULL);
    static const uint64_t plane_of[8] = {0, 4, 2, 6, 1, 5, 3, 7};
    for (uint64_t u = 0; u < 24; u++) {
        uint64_t ppn = ssdsim_lookup(sim, u);
        ck_assert_uint_eq(ppn, plane_of[u % 8] * 128 + u / 8);
        uint64_t plane = ppn / 128, die = plane / 2, channel = die / 2;
        ck_assert_uint_eq(channel, u % 2);
        if (u > 0) {
            uint64_t prev_plane = ssdsim_lookup(sim, u - 1) / 128;
            ck_assert_uint_ne(prev_plane / 2 / 2, channel);
        }
    }
    /* Units 0..3: four different dies (256 pages a die). */
    ck_assert_uint_eq(ssdsim_lookup(sim, 0) / 256, 0);
    ck_assert_uint_eq(ssdsim_lookup(sim, 1) / 256, 2);
    ck_assert_uint_eq(ssdsim_lookup(sim, 2) / 256, 1);
    ck_assert_uint_eq(ssdsim_lookup(sim, 3) / 256, 3);
    ck_assert_uint_eq(ssdsim_lookup(sim, 24), UINT64_MAX);
    ck_assert_int_eq(ssdsim__direct_check(direct_of(sim)), 0);
    ssdsim_free(sim);
    ssdsim_model_free(m);
}
END_TEST

static const char *mixed =
    "{\"rw\":\"randrw\",\"rwmixread\":50,\"bssplit\":\"2k/20:4k/50:16k/30\",\"iodepth\":8,"
    "\"numjobs\":2,\"number_ios\":4000}";

static char *run_json(uint64_t seed)
{
    ssdsim_model *m = st_model(XPOINT_BASE, "geometry.blocks_per_plane=32", NULL);
    ssdsim *sim = st_sim(m, seed);
    st_run(sim, mixed, NULL);
    ck_assert_int_eq(ssdsim__direct_check(direct_of(sim)), 0);
    ssdsim_device_stats d = dev(sim);
    ck_assert_uint_eq(d.flash_pages_programmed, d.host_pages_written);
    ck_assert_uint_eq(d.blocks_erased, 0);
    return st_results_json(sim, m);
}

START_TEST(test_direct_same_seed_gives_identical_json)
{
    st_assert_seeded(run_json(5), run_json(5), run_json(6));
}
END_TEST

/* Build the FTL by hand on a geometry the loader would not let through. */
static int create_on(uint64_t logical_pages, char *why, size_t len)
{
    ssdsim_ftl_env env;
    memset(&env, 0, sizeof env);
    env.geo = (ssdsim_geometry){.channels = 1,
                                .chips_per_channel = 1,
                                .dies_per_chip = 1,
                                .planes_per_die = 1,
                                .blocks_per_plane = 4,
                                .pages_per_block = 16,
                                .page_size = 4096,
                                .n_dies = 1,
                                .n_planes = 1,
                                .n_blocks = 4,
                                .n_pages = 64,
                                .logical_pages = logical_pages,
                                .op = 0};
    const ssdsim_ftl_ops *ops = &ssdsim__ftl_direct_ops;
    void *state = calloc(1, ops->state_size);
    ck_assert_ptr_nonnull(state);
    why[0] = '\0';
    int rc = ops->create(state, &env, NULL, why, len);
    if (rc == 0)
        ck_assert_int_eq(ssdsim__direct_check(state), 0);
    ops->destroy(state); /* called once even when create failed */
    free(state);
    return rc;
}

START_TEST(test_direct_refuses_more_units_than_pages)
{
    char why[256];
    ck_assert_int_eq(create_on(64, why, sizeof why), 0); /* op 0: one page per unit */
    ck_assert_int_eq(create_on(65, why, sizeof why), SSDSIM_ECONFIG);
    ck_assert_msg(strstr(why, "65 units") && strstr(why, "exceeds") && strstr(why, "64 physical"),
                  "%s", why);
    ck_assert_int_eq(create_on(0, why, sizeof why), SSDSIM_ECONFIG);
}
END_TEST

START_TEST(test_direct_refuses_fast_preconditioning)
{
    ssdsim_model *m = one_die("direct");
    ssdsim *sim = st_sim(m, 1);
    ssdsim_workload *wl = st_workload("{\"rw\":\"randwrite\",\"bs\":\"4k\"}");
    ck_assert_int_eq(ssdsim_precondition_fast(sim, wl, NULL), SSDSIM_ENOTFOUND);
    ck_assert_ptr_nonnull(strstr(ssdsim_errmsg(sim), "'direct'"));
    /* The device is untouched and usable. */
    ck_assert_uint_eq(ssdsim_lookup(sim, 0), UINT64_MAX);
    ck_assert_uint_eq(st_one(sim, SSDSIM_OP_WRITE, 0, 4096), WRITE_NS);
    ssdsim_workload_free(wl);
    ssdsim_free(sim);
    ssdsim_model_free(m);
}
END_TEST

/* The one-die device as an XPoint model: one read and one write time, no erase time, no ftl
 * section (the loader makes it "direct" at op 0). */
static const char *xpoint_json =
    "{\"name\":\"xp\",\"geometry\":{\"channels\":1,\"chips_per_channel\":1,\"dies_per_chip\":1,"
    "\"planes_per_die\":1,\"blocks_per_plane\":64,\"pages_per_block\":16,\"page_size\":\"4KiB\"},"
    "\"flash\":{\"cell\":\"xpoint\",\"read_us\":10,\"program_us\":20,\"bus_mts\":100,"
    "\"bus_width\":8},\"controller\":{\"cmd_overhead_us\":5,\"cores\":1},"
    "\"host\":{\"link_bw\":\"400MB/s\",\"cmd_overhead_us\":3}%s}";

START_TEST(test_direct_xpoint_model)
{
    char json[1024];
    snprintf(json, sizeof json, xpoint_json, "");
    ssdsim_model *m = NULL;
    ssdsim_error err;
    ck_assert_msg(ssdsim_model_load_string(&m, json, "xpoint test model", &err) == 0, "%s",
                  err.message);
    ck_assert_uint_eq(ssdsim_model_logical_bytes(m), 1024 * 4096); /* op 0 */
    ssdsim *sim = st_sim(m, 1);
    ck_assert_str_eq(((struct ssdsim *)sim)->sys.devs[0].env.ops->name, "direct");
    ck_assert_uint_eq(st_one(sim, SSDSIM_OP_WRITE, 0, 4096), WRITE_NS);
    ck_assert_uint_eq(st_one(sim, SSDSIM_OP_READ, 0, 4096), READ_NS);
    /* 10 drive writes of random writes at op 0: nothing to collect, no stall. */
    st_run(sim, "{\"rw\":\"randwrite\",\"bs\":\"4k\",\"iodepth\":32,\"number_ios\":10240}", NULL);
    ssdsim_device_stats d = dev(sim);
    ck_assert_uint_eq(d.host_pages_written, 10240);
    ck_assert_double_eq(d.waf, 1.0);
    ck_assert_uint_eq(d.blocks_erased, 0);
    /* Every unit written once more in order (not measured): then every block holds data. */
    ck_assert_int_eq(ssdsim_precondition_seq(sim), 0);
    d = dev(sim);
    ck_assert_uint_eq(d.blocks_erased, 0);
    ck_assert_uint_eq(d.free_blocks, 0);
    ck_assert_int_eq(ssdsim__direct_check(direct_of(sim)), 0);
    ssdsim_free(sim);
    ssdsim_model_free(m);
    /* Another FTL on media without erase is refused. */
    snprintf(json, sizeof json, xpoint_json, ",\"ftl\":{\"type\":\"page\"}");
    ck_assert_int_ne(ssdsim_model_load_string(&m, json, "xpoint test model", &err), 0);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("direct");
    TCase *tc = tcase_create("direct");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_direct_is_registered);
    tcase_add_test(tc, test_direct_qd1_write_latency_is_sum_of_parts);
    tcase_add_test(tc, test_direct_qd1_read_latency_is_sum_of_parts);
    tcase_add_test(tc, test_direct_unwritten_and_partial_units_as_page_ftl);
    tcase_add_test(tc, test_direct_overwrites_in_place_waf_one);
    tcase_add_test(tc, test_direct_trim_unmaps_without_flash);
    tcase_add_test(tc, test_direct_random_writes_never_stall);
    tcase_add_test(tc, test_direct_reads_after_writes);
    tcase_add_test(tc, test_direct_stripes_channels_first);
    tcase_add_test(tc, test_direct_same_seed_gives_identical_json);
    tcase_add_test(tc, test_direct_refuses_more_units_than_pages);
    tcase_add_test(tc, test_direct_refuses_fast_preconditioning);
    tcase_add_test(tc, test_direct_xpoint_model);
    suite_add_tcase(s, tc);
    return test_run_suite(s);
}
