/* test_hw.c: latencies of single requests on an idle drive equal the hand-computed sum of their
 * parts (host protocol overhead, link transfer, firmware, die array time by page type, channel
 * bus transfer), and bandwidth is bounded by the slowest of link, buses and dies. */
#include "simtest.h"

/* A one-die drive with round numbers, so every part of a latency is easy to compute by hand:
 * bus 100 MT/s x 8 bit = 100 MB/s -> 4096 B take 40,960 ns; link 400 MB/s -> 4096 B take
 * 10,240 ns; host overhead 3 us, firmware 5 us; MLC tR 40/60 us, tPROG 300/900 us. */
static ssdsim_model *one_die(void)
{
    return st_model("generic-mlc", "geometry.channels=1", "geometry.chips_per_channel=1",
                    "geometry.dies_per_chip=1", "geometry.planes_per_die=1",
                    "geometry.blocks_per_plane=64", "geometry.pages_per_block=32",
                    "flash.read_us=[40, 60]", "flash.program_us=[300, 900]",
                    "flash.bus_mts=100", "flash.bus_width=8", "host.link_bw=\"400MB/s\"",
                    "host.cmd_overhead_us=3", "controller.cmd_overhead_us=5",
                    "controller.cores=1", NULL);
}

enum {
    HOST_NS = 3000,
    FW_NS = 5000,
    BUS_4K_NS = 40960,  /* 4096 * 8000 / (100 * 8) */
    LINK_4K_NS = 10240, /* 4096 * 1e9 / 400e6 */
};

START_TEST(test_hw_qd1_write_latency_is_sum_of_parts)
{
    ssdsim_model *m = one_die();
    ssdsim *sim = st_sim(m, 1);
    /* Two sequential 4 KiB writes at QD1: pages 0 (LSB) and 1 (MSB) of the first block. */
    st_run(sim, "{\"rw\":\"write\",\"bs\":\"4k\",\"iodepth\":1,\"number_ios\":2}", NULL);
    ssdsim_op_stats s;
    ck_assert_int_eq(ssdsim_get_op_stats(sim, SSDSIM_OP_WRITE, &s), 0);
    ck_assert_uint_eq(s.count, 2);
    uint64_t common = HOST_NS + LINK_4K_NS + FW_NS + BUS_4K_NS;
    ck_assert_uint_eq(s.lat_min_ns, common + 300000);
    ck_assert_uint_eq(s.lat_max_ns, common + 900000);
    ck_assert_uint_eq(ssdsim_sim_time_ns(sim), 2 * common + 300000 + 900000);
    ssdsim_free(sim);
    ssdsim_model_free(m);
}
END_TEST

/* Host reads go first on a die, but not for ever. Four dies of SLC (one channel each, tR 50 us,
 * tPROG 500 us, 4 KiB on the bus in 40,960 ns, no command overheads, a 100 GB/s link whose
 * time the assertions leave out), no buffer. A sequential reader at QD16 over 4 MiB written
 * before keeps every die reading (each read 50,000 + 40,960 = 90,960 ns), while a random
 * writer at QD4 puts one write on each die (placement: an idle die, else the next). A write
 * waits while reads go first until it has waited a mean program time, 500 us: the 6th read
 * ends its wait (6 x 90,960 = 545,760 >= 500,000, 5 x 90,960 = 454,800 is not), then its
 * program, 40,960 + 500,000: every write completes 1,086,720 ns after it was issued, and each
 * die reads 6 pages per 1,086,720 ns: 4 x 6 / 1.08672 ms = 22,085 reads a second. Before the
 * bound, the writes waited for the whole run. */
START_TEST(test_hw_reads_first_not_for_ever)
{
    ssdsim_model *m = st_model(
        "generic-slc", "geometry.channels=4", "geometry.chips_per_channel=1",
        "geometry.dies_per_chip=1", "geometry.planes_per_die=1", "geometry.blocks_per_plane=64",
        "geometry.pages_per_block=64", "geometry.page_size=\"4KiB\"", "flash.read_us=50",
        "flash.program_us=500", "flash.erase_us=3000", "flash.bus_mts=100", "flash.bus_width=8",
        "host.link_bw=\"100GB/s\"", "host.cmd_overhead_us=0", "controller.cmd_overhead_us=0",
        "controller.queue_depth=256", "ftl.op=0.25", "buffer=null", NULL);
    ssdsim *sim = st_sim(m, 1);
    ssdsim_workload *wl = NULL;
    ssdsim_error err;
    ck_assert_int_eq(ssdsim_workload_load_string(&wl,
                                                 "[global]\nioengine=libaio\nbs=4k\n"
                                                 "[fill]\nrw=write\niodepth=32\nsize=4m\n"
                                                 "[r]\nstonewall\nrw=read\niodepth=16\nsize=4m\n"
                                                 "time_based\nruntime=1s\n"
                                                 "[w]\nrw=randwrite\noffset=8m\nsize=4m\n"
                                                 "iodepth=4\ntime_based\nruntime=1s\n",
                                                 "reads-first", &err),
                     0);
    ck_assert_int_eq(ssdsim_run(sim, wl, NULL), 0);
    ssdsim_op_stats w, r;
    ck_assert_int_eq(ssdsim_get_job_op_stats(sim, 2, SSDSIM_OP_WRITE, &w), 0);
    ck_assert_uint_gt(w.count, 3000); /* about 1 s / 1,086,720 ns x 4 dies = 3,681 */
    ck_assert_uint_eq(w.lat_min_ns, 1086720);
    ck_assert_uint_eq(w.lat_max_ns, 1086720);
    ck_assert_int_eq(ssdsim_get_job_op_stats(sim, 1, SSDSIM_OP_READ, &r), 0);
    st_within(r.iops, 4 * 6 / 1.08672e-3, 0.01, "reads a second");
    ssdsim_workload_free(wl);
    ssdsim_free(sim);
    ssdsim_model_free(m);
}
END_TEST

START_TEST(test_hw_qd1_read_latency_is_sum_of_parts)
{
    ssdsim_model *m = one_die();
    ssdsim *sim = st_sim(m, 1);
    st_run(sim, "{\"rw\":\"write\",\"bs\":\"4k\",\"iodepth\":1,\"number_ios\":2}", NULL);
    /* Read page 1 (MSB, 60 us), then page 0 (LSB, 40 us), one at a time on the idle drive. */
    st_run(sim, "{\"rw\":\"read\",\"bs\":\"4k\",\"iodepth\":1,\"number_ios\":1,\"offset\":4096}",
           NULL);
    ssdsim_op_stats s;
    ssdsim_get_op_stats(sim, SSDSIM_OP_READ, &s);
    uint64_t common = HOST_NS + FW_NS + BUS_4K_NS + LINK_4K_NS;
    ck_assert_uint_eq(s.count, 1);
    ck_assert_uint_eq(s.lat_min_ns, common + 60000);
    st_run(sim, "{\"rw\":\"read\",\"bs\":\"4k\",\"iodepth\":1,\"number_ios\":1}", NULL);
    ssdsim_get_op_stats(sim, SSDSIM_OP_READ, &s);
    ck_assert_uint_eq(s.lat_min_ns, common + 40000);
    /* p50 is the upper edge of the histogram bucket: within 1/128 above the exact value. */
    ck_assert(s.lat_p50_ns >= common + 40000);
    ck_assert(s.lat_p50_ns <= (common + 40000) * 129 / 128);
    ssdsim_free(sim);
    ssdsim_model_free(m);
}
END_TEST

START_TEST(test_hw_unwritten_read_skips_flash)
{
    ssdsim_model *m = one_die();
    ssdsim *sim = st_sim(m, 1);
    st_run(sim, "{\"rw\":\"randread\",\"bs\":\"4k\",\"iodepth\":1,\"number_ios\":5}", NULL);
    ssdsim_op_stats s;
    ssdsim_get_op_stats(sim, SSDSIM_OP_READ, &s);
    /* Never-written data: protocol + firmware + zeros back over the link, no die, no bus. */
    ck_assert_uint_eq(s.lat_min_ns, HOST_NS + FW_NS + LINK_4K_NS);
    ck_assert_uint_eq(s.lat_max_ns, HOST_NS + FW_NS + LINK_4K_NS);
    ssdsim_device_stats d;
    ssdsim_get_device_stats(sim, &d);
    ck_assert_uint_eq(d.flash_pages_programmed, 0);
    ssdsim_free(sim);
    ssdsim_model_free(m);
}
END_TEST

START_TEST(test_hw_multi_page_read_pipelines_over_bus_and_link)
{
    ssdsim_model *m = one_die();
    ssdsim *sim = st_sim(m, 1);
    st_run(sim, "{\"rw\":\"write\",\"bs\":\"8k\",\"iodepth\":1,\"number_ios\":1}", NULL);
    /* An 8 KiB read of pages 0 and 1 on one die: page 0 (40 us + bus), then page 1 (60 us +
     * bus); each page goes to the host as soon as it is off the bus, and the last one ends the
     * request. */
    st_run(sim, "{\"rw\":\"read\",\"bs\":\"8k\",\"iodepth\":1,\"number_ios\":1}", NULL);
    ssdsim_op_stats s;
    ssdsim_get_op_stats(sim, SSDSIM_OP_READ, &s);
    uint64_t want = HOST_NS + FW_NS + (40000 + BUS_4K_NS) + (60000 + BUS_4K_NS) + LINK_4K_NS;
    ck_assert_uint_eq(s.lat_min_ns, want);
    ssdsim_free(sim);
    ssdsim_model_free(m);
}
END_TEST

/* Sequential write bandwidth of a fresh drive, 128 KiB at QD32 over the whole device. */
static double seq_write_bw(ssdsim_model *m)
{
    ssdsim *sim = st_sim(m, 1);
    st_run(sim, "{\"rw\":\"write\",\"bs\":\"128k\",\"iodepth\":32}", NULL);
    ssdsim_op_stats s;
    ssdsim_get_op_stats(sim, SSDSIM_OP_WRITE, &s);
    ssdsim_free(sim);
    return s.bw_bytes;
}

START_TEST(test_hw_seq_write_bound_by_dies)
{
    /* generic-mlc, small: 8 channels x 2 chips x 2 dies = 32 dies; a die takes 4 KiB in
     * bus time (20,480 ns at 200 MT/s x 8) plus a program (500 or 1800 us, alternating), so the
     * dies can absorb 32 * 4096 B / 1,170,480 ns = 111.98 MB/s, far below the 8 x 200 MB/s of
     * the buses and the 2000 MB/s link. */
    ssdsim_model *m = st_model("generic-mlc", "geometry.blocks_per_plane=32", NULL);
    double bound = 32.0 * 4096 / (1170480e-9);
    double bw = seq_write_bw(m);
    ck_assert_msg(bw <= bound * 1.0001, "bw %.0f above the die bound %.0f", bw, bound);
    ck_assert_msg(bw >= bound * 0.97, "bw %.0f far below the die bound %.0f", bw, bound);
    ssdsim_model_free(m);
}
END_TEST

START_TEST(test_hw_seq_write_bound_by_link)
{
    ssdsim_model *m = st_model("generic-slc", "geometry.blocks_per_plane=32",
                               "host.link_bw=\"50MB/s\"", NULL);
    double bw = seq_write_bw(m);
    ck_assert_msg(bw <= 50e6 * 1.0001 && bw >= 50e6 * 0.97, "bw %.0f, link 50 MB/s", bw);
    ssdsim_model_free(m);
}
END_TEST

START_TEST(test_hw_seq_write_bound_by_bus)
{
    /* SLC with fast programs and a slow bus: 8 channels x 10 MB/s = 80 MB/s; the dies could
     * take 32 x 4096 B / (409.6 us + 250 us) = 199 MB/s if the bus were free. */
    ssdsim_model *m = st_model("generic-slc", "geometry.blocks_per_plane=32",
                               "flash.bus_mts=10", NULL);
    double bw = seq_write_bw(m);
    ck_assert_msg(bw <= 80e6 * 1.0001 && bw >= 80e6 * 0.95, "bw %.0f, buses 80 MB/s", bw);
    ssdsim_model_free(m);
}
END_TEST

START_TEST(test_hw_seq_write_bound_by_write_path)
{
    /* The controller's write path (controller.program_bw) at 30 MB/s, below what the dies
     * (32 x 4096 B / (20,480 ns of bus + 250 us) = 485 MB/s), the 8 x 200 MB/s buses and the
     * 2000 MB/s link take: every program's 4 KiB holds it 136,534 ns, so the drive writes
     * 30 MB/s. */
    ssdsim_model *m = st_model("generic-slc", "geometry.blocks_per_plane=32",
                               "controller.program_bw=\"30MB/s\"", NULL);
    double bw = seq_write_bw(m);
    ck_assert_msg(bw <= 30e6 * 1.0001 && bw >= 30e6 * 0.97, "bw %.0f, write path 30 MB/s", bw);
    ssdsim_model_free(m);
    /* The same through the NAND operations' path (multi-plane groups, cache program) with RAIN
     * parity of 1 page in 8: the parity pages pass the path too, so the host gets 7/8 of it. */
    m = st_model("generic-slc", "geometry.blocks_per_plane=32", "ftl.op=0.6",
                 "controller.program_bw=\"30MB/s\"", "flash.multiplane=true",
                 "flash.cache_program=true", "ftl.parity_group=8", NULL);
    bw = seq_write_bw(m);
    ck_assert_msg(bw <= 30e6 * 7 / 8 * 1.0001 && bw >= 30e6 * 7 / 8 * 0.97,
                  "bw %.0f, write path 30 MB/s, 7 data pages in 8", bw);
    ssdsim_model_free(m);
}
END_TEST

/* Steady random writes of a drive bound by its write path: every page programmed, the host's and
 * GC's copies alike, takes 4096 B / program_bw of it, so the drive writes program_bw / (WAF x
 * 4096 B) a second at the WAF it runs at, and more spare space raises that by the WAF ratio. */
START_TEST(test_hw_steady_random_writes_bound_by_write_path)
{
    double iops[2], waf[2];
    const char *ops[2] = {"ftl.op=0.15", "ftl.op=0.4"};
    for (int k = 0; k < 2; k++) {
        ssdsim_model *m = st_model("generic-slc", "geometry.blocks_per_plane=32", ops[k],
                                   "controller.program_bw=\"20MB/s\"", NULL);
        ssdsim *sim = st_sim(m, 2);
        ck_assert_int_eq(ssdsim_precondition_seq(sim), 0);
        st_run(sim, "{\"rw\":\"randwrite\",\"bs\":\"4k\",\"iodepth\":32,\"loops\":2}",
               NULL);
        st_run(sim, "{\"rw\":\"randwrite\",\"bs\":\"4k\",\"iodepth\":32,\"io_size\":\"50%\"}",
               NULL);
        ssdsim_op_stats w;
        ssdsim_device_stats d;
        ck_assert_int_eq(ssdsim_get_op_stats(sim, SSDSIM_OP_WRITE, &w), 0);
        ck_assert_int_eq(ssdsim_get_device_stats(sim, &d), 0);
        ck_assert_double_gt(d.waf, 1.3); /* GC runs: the derivation is not vacuous */
        iops[k] = w.iops;
        waf[k] = d.waf;
        st_within(w.iops, 20e6 / (d.waf * 4096), 0.02, "write-path-bound random write IOPS");
        /* reported: 4096 B / 20 MB/s = 204,800 ns per page programmed, the path never idle */
        ck_assert_uint_eq(d.wpath_bytes_per_s, 20000000);
        st_within((double)d.wpath_busy_ns, (double)d.flash_pages_programmed * 204800, 0.01,
                  "write path busy time");
        st_within(d.wpath_utilization, 1.0, 0.02, "write path utilisation");
        ck_assert_double_le(d.wpath_utilization, 1.0);
        ssdsim_free(sim);
        ssdsim_model_free(m);
    }
    st_within(iops[1] / iops[0], waf[0] / waf[1], 0.03,
              "gain from more spare space against the WAF ratio");
    ck_assert_double_gt(iops[1] / iops[0], 1.2);
}
END_TEST

/* A run that ends while the path is still taken (writes acknowledged from the buffer, the path
 * at 5 MB/s: one 4 KiB page holds it 819,200 ns) reports only the path's time inside the run:
 * the path never idle, its utilisation 1 and never above (a page's time past the run's end
 * counted whole gave 100.1% here). */
START_TEST(test_hw_write_path_busy_inside_the_run)
{
    ssdsim_model *m = st_model("generic-mlc", "controller.program_bw=\"5MB/s\"", NULL);
    ssdsim *sim = st_sim(m, 1);
    st_run(sim,
           "{\"rw\":\"randrw\",\"rwmixread\":50,\"bs\":\"4k\",\"iodepth\":8,\"numjobs\":4,"
           "\"time_based\":true,\"runtime\":\"200ms\"}",
           NULL);
    ssdsim_device_stats d;
    ck_assert_int_eq(ssdsim_get_device_stats(sim, &d), 0);
    ck_assert_double_le(d.wpath_utilization, 1.0);
    ck_assert_double_gt(d.wpath_utilization, 0.99);
    /* read again after 100 ms of idle time, in which the buffer's flush goes on: the busy time
     * grows by that work and its span to the present, so the share stays within 1 */
    uint64_t busy = d.wpath_busy_ns;
    ck_assert_int_eq(ssdsim_idle(sim, 100000000), 0);
    ck_assert_int_eq(ssdsim_get_device_stats(sim, &d), 0);
    ck_assert_uint_ge(d.wpath_busy_ns, busy);
    ck_assert_double_le(d.wpath_utilization, 1.0);
    ssdsim_free(sim);
    ssdsim_model_free(m);
}
END_TEST

START_TEST(test_hw_write_path_latency_when_free)
{
    /* At QD1 each program finds the write path free (4 KiB take 40,960 ns of a 100 MB/s path,
     * far less than the program before it): the data streams through it onto the bus, and the
     * latencies are those of test_hw_qd1_write_latency_is_sum_of_parts to the nanosecond. */
    ssdsim_model *m = one_die();
    ck_assert_int_eq(ssdsim_model_set(m, "controller.program_bw", "\"100MB/s\"", NULL), 0);
    ssdsim *sim = st_sim(m, 1);
    st_run(sim, "{\"rw\":\"write\",\"bs\":\"4k\",\"iodepth\":1,\"number_ios\":2}", NULL);
    ssdsim_op_stats s;
    ssdsim_get_op_stats(sim, SSDSIM_OP_WRITE, &s);
    uint64_t common = HOST_NS + LINK_4K_NS + FW_NS + BUS_4K_NS;
    ck_assert_uint_eq(s.lat_min_ns, common + 300000);
    ck_assert_uint_eq(s.lat_max_ns, common + 900000);
    ssdsim_free(sim);

    /* A path slower than the channel (50 MB/s: 81,920 ns for 4 KiB) holds the channel while
     * the page streams through it: the data is in after 81,920 ns, not the bus's 40,960. */
    ck_assert_int_eq(ssdsim_model_set(m, "controller.program_bw", "\"50MB/s\"", NULL), 0);
    sim = st_sim(m, 1);
    st_run(sim, "{\"rw\":\"write\",\"bs\":\"4k\",\"iodepth\":1,\"number_ios\":2}", NULL);
    ssdsim_get_op_stats(sim, SSDSIM_OP_WRITE, &s);
    common = HOST_NS + LINK_4K_NS + FW_NS + 81920;
    ck_assert_uint_eq(s.lat_min_ns, common + 300000);
    ck_assert_uint_eq(s.lat_max_ns, common + 900000);
    ssdsim_free(sim);
    ssdsim_model_free(m);
}
END_TEST

START_TEST(test_hw_queue_depth_limit_holds_commands_on_host)
{
    /* With a device queue of 1, QD4 on the host behaves like QD1 on the device: four writes
     * that would overlap on four dies are serialised through the one command slot. */
    ssdsim_model *m = st_model("generic-slc", "geometry.blocks_per_plane=32",
                               "controller.queue_depth=1", NULL);
    ssdsim *sim = st_sim(m, 1);
    st_run(sim, "{\"rw\":\"write\",\"bs\":\"4k\",\"iodepth\":4,\"number_ios\":4}", NULL);
    ssdsim_op_stats s;
    ssdsim_get_op_stats(sim, SSDSIM_OP_WRITE, &s);
    /* One write: 2 us host + 2048 ns link (4096 B at 2000 MB/s) + 4 us firmware + 20480 ns
     * bus + 250 us program = 278,528 ns; the fourth waits for three before it. */
    uint64_t one = 2000 + 2048 + 4000 + 20480 + 250000;
    ck_assert_uint_eq(s.lat_min_ns, one);
    ck_assert_uint_eq(s.lat_max_ns, 4 * one);
    ck_assert_uint_eq(ssdsim_sim_time_ns(sim), 4 * one);
    ssdsim_free(sim);
    ssdsim_model_free(m);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("hw");
    TCase *tc = tcase_create("timing");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_hw_qd1_write_latency_is_sum_of_parts);
    tcase_add_test(tc, test_hw_qd1_read_latency_is_sum_of_parts);
    tcase_add_test(tc, test_hw_reads_first_not_for_ever);
    tcase_add_test(tc, test_hw_unwritten_read_skips_flash);
    tcase_add_test(tc, test_hw_multi_page_read_pipelines_over_bus_and_link);
    tcase_add_test(tc, test_hw_seq_write_bound_by_dies);
    tcase_add_test(tc, test_hw_seq_write_bound_by_link);
    tcase_add_test(tc, test_hw_seq_write_bound_by_bus);
    tcase_add_test(tc, test_hw_seq_write_bound_by_write_path);
    tcase_add_test(tc, test_hw_steady_random_writes_bound_by_write_path);
    tcase_add_test(tc, test_hw_write_path_busy_inside_the_run);
    tcase_add_test(tc, test_hw_write_path_latency_when_free);
    tcase_add_test(tc, test_hw_queue_depth_limit_holds_commands_on_host);
    suite_add_tcase(s, tc);
    return test_run_suite(s);
}
