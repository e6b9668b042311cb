/* test_firmware.c: the controller's firmware as a contended resource (dev/fw.c, the
 * controller.fw_* keys), against figures derived by hand in the comments: the firmware time of
 * one host read and write, a firmware-bound drive's steady random-write throughput with GC's
 * share of the firmware work (measured WAF), the same work on a host-based FTL's threads, DFTL's
 * translation pages, and the refusal of impossible values.
 *
 * The drive ("fwd"): 4 channels x 4 dies, one plane each, 64 blocks x 64 pages of 4 KiB per
 * plane (65,536 pages), op 0.28 -> 51,200 logical units; SLC, tR 10 us, tPROG 50 us, tBERS
 * 500 us, bus 400 MT/s x 8 bit (4 KiB in 10,240 ns); host link 4000 MB/s (4 KiB in 1,024 ns),
 * 1 us per command on the host side; controller.cmd_overhead_us 0, one core. */
#include <glib.h>
#include <math.h>
#include <stdlib.h>

#include "sim.h"
#include "simtest.h"

enum { BUS_NS = 10240, LINK_NS = 1024, HOST_NS = 1000, TR_NS = 10000, TPROG_NS = 50000 };

static char *fwd_json(const char *controller, const char *host)
{
    return g_strdup_printf(
        "{\"name\":\"fwd\",\"geometry\":{\"channels\":4,\"chips_per_channel\":1,"
        "\"dies_per_chip\":4,\"planes_per_die\":1,\"blocks_per_plane\":64,"
        "\"pages_per_block\":64,\"page_size\":\"4KiB\"},"
        "\"flash\":{\"cell\":\"slc\",\"read_us\":10,\"program_us\":50,\"erase_us\":500,"
        "\"bus_mts\":400,\"bus_width\":8},"
        "\"controller\":{\"cmd_overhead_us\":0,\"cores\":1,\"queue_depth\":32%s},"
        "\"host\":{\"link_bw\":\"4000MB/s\",\"cmd_overhead_us\":1%s},\"ftl\":{\"op\":0.28}}",
        controller, host);
}

static ssdsim_model *fwd(const char *controller, const char *host)
{
    g_autofree char *j = fwd_json(controller, host);
    ssdsim_model *m = NULL;
    ssdsim_error err;
    int rc = ssdsim_model_load_string(&m, j, "test_firmware model", &err);
    ck_assert_msg(rc == 0, "%s\nin %s", err.message, j);
    return m;
}

/* Firmware time booked so far on every core and host FTL thread (`booked`, all of it) and the
 * part of it that runs past the present (`ahead`): a run's reported busy time is its window's
 * share, booked at its end less what runs past it, less the same at its start. */
static void fw_booked(ssdsim *sim, uint64_t *booked, uint64_t *ahead)
{
    const struct ssdsim__sys *sys = &((struct ssdsim *)sim)->sys;
    uint64_t now = ssdsim_now(sim);
    *booked = *ahead = 0;
    for (uint32_t k = 0; k < sys->n_ctrls; k++) {
        *booked += sys->ctrls[k].busy_ns;
        for (uint32_t i = 0; i < sys->ctrls[k].n_cores; i++)
            *ahead += sys->ctrls[k].core_free[i] > now ? sys->ctrls[k].core_free[i] - now : 0;
    }
    for (uint32_t k = 0; k < sys->n_devs; k++) {
        const struct ssdsim__cpu *c = &sys->devs[k].cpu;
        *booked += c->busy_ns;
        for (uint32_t i = 0; i < c->n_threads; i++)
            *ahead += c->free_ns[i] > now ? c->free_ns[i] - now : 0;
    }
}

/* One 4 KiB write and its read on the fresh drive, fw_write 20 us and fw_read 7 us per unit:
 *   write: 1 us host + 20 us core + 1.024 us link + 10.24 us bus + 50 us tPROG = 82,264 ns
 *   read:  1 us host + 7 us core + 10 us tR + 10.24 us bus + 1.024 us link = 29,264 ns
 * A 16 KiB write covers 4 units: 80 us on the core; its units go to dies 1 to 4 (the idle-die
 * cursor moved past die 0), dies 1-3 on channel 0 and die 4 on channel 1, so the three units of
 * channel 0 cross its bus one after another: 1 + 80 + 4.096 (16 KiB link) + 3 x 10.24 + 50 =
 * 165,816 ns. With the keys absent the figures are those of the plain drive: 62,264 and
 * 22,264 ns. */
START_TEST(test_firmware_host_units_by_hand)
{
    ssdsim_model *m = fwd(",\"fw_write_us\":20,\"fw_read_us\":7", "");
    ssdsim *sim = st_sim(m, 1);
    ck_assert_uint_eq(st_one(sim, SSDSIM_OP_WRITE, 0, 4096),
                      HOST_NS + 20000 + LINK_NS + BUS_NS + TPROG_NS);
    ck_assert_uint_eq(st_one(sim, SSDSIM_OP_READ, 0, 4096),
                      HOST_NS + 7000 + TR_NS + BUS_NS + LINK_NS);
    ck_assert_uint_eq(st_one(sim, SSDSIM_OP_WRITE, 65536, 16384),
                      HOST_NS + 80000 + 4 * LINK_NS + 3 * BUS_NS + TPROG_NS);
    ssdsim_free(sim);
    ssdsim_model_free(m);

    m = fwd("", "");
    sim = st_sim(m, 1);
    ck_assert_uint_eq(st_one(sim, SSDSIM_OP_WRITE, 0, 4096), 62264);
    ck_assert_uint_eq(st_one(sim, SSDSIM_OP_READ, 0, 4096), 22264);
    ssdsim_free(sim);
    ssdsim_model_free(m);
}
END_TEST

/* Steady random 4 KiB writes at 32 outstanding on the full drive, firmware-bound.
 *
 * Derivation. Every host write costs its core fw_write (20 us); every page GC copies fw_gc_page
 * (10 us); every victim fw_gc_victim (50 us). Per host write the firmware therefore works
 *     W = fw_write + g x fw_gc_page + v x fw_gc_victim,
 * g = GC copies per host page (WAF - 1), v = victims per host page, both measured in the same
 * run. One core, never idle while 32 writes wait for it, completes one host write per W:
 *     IOPS = cores / W = 1e9 / W[ns].
 * The flash keeps up: per host write it does (1 + g) programs (50 + 10.24 us), g reads
 * (10 + 10.24 us) and v erases (500 us) over 16 dies, and (1 + 2g) bus transfers over 4
 * channels; at the g = 0.85, v = 0.029 this run measures (greedy at op 0.28) that is about
 * 9 us of die time and 7 us of bus time per write, below W = 29.9 us (33,440 IOPS). The run's first
 * and last requests (one queue of 32) move the figure by far less than 1%. Also: with the GC costs
 * 0, the same drive does 1e9 / 20,000 = 50,000 IOPS: GC slows a firmware-bound drive in proportion
 * to its work per host write. */
START_TEST(test_firmware_bound_steady_writes)
{
    const char *fill = "{\"rw\":\"randwrite\",\"bs\":\"4k\",\"iodepth\":32,\"number_ios\":100000}";
    const char *meas = "{\"rw\":\"randwrite\",\"bs\":\"4k\",\"iodepth\":32,\"number_ios\":40000}";
    for (int gc_costs = 1; gc_costs >= 0; gc_costs--) {
        ssdsim_model *m = fwd(gc_costs ? ",\"fw_write_us\":20,\"fw_gc_page_us\":10,"
                                         "\"fw_gc_victim_us\":50"
                                       : ",\"fw_write_us\":20",
                              "");
        ssdsim *sim = st_sim(m, 3);
        ck_assert_int_eq(ssdsim_precondition_seq(sim), 0);
        st_run(sim, fill, NULL);
        uint64_t b0, a0, b1, a1;
        fw_booked(sim, &b0, &a0);
        st_run(sim, meas, NULL);
        fw_booked(sim, &b1, &a1);
        ssdsim_op_stats w;
        ssdsim_device_stats d;
        ck_assert_int_eq(ssdsim_get_op_stats(sim, SSDSIM_OP_WRITE, &w), 0);
        ck_assert_int_eq(ssdsim_get_device_stats(sim, &d), 0);
        ck_assert_uint_eq(w.count, 40000);
        double host = (double)d.host_pages_written;
        double g = (double)d.gc_pages_copied / host;
        double v = (double)(d.gc_fg_victims + d.gc_bg_victims) / host;
        ck_assert_double_gt(g, 0.5); /* GC does run: the derivation is not vacuous */
        double work_ns = 20000 + (gc_costs ? g * 10000 + v * 50000 : 0);
        st_within(w.iops, 1e9 / work_ns, 0.02,
                  gc_costs ? "firmware-bound IOPS with GC's share"
                           : "firmware-bound IOPS, GC free");
        /* The firmware work booked over the run is exactly 20 us per host unit, 10 us per GC
         * copy, 50 us per victim; the time reported is the part of all booked work that falls
         * inside the run (what a GC victim left running past its end does not), so the
         * utilisation of the one core, never idle (the drive is firmware-bound), is 1 within the
         * run's first and last requests and never above. */
        uint64_t victims = d.gc_fg_victims + d.gc_bg_victims;
        ck_assert_uint_eq(b1 - b0, d.host_pages_written * 20000 +
                                       (gc_costs ? d.gc_pages_copied * 10000 + victims * 50000
                                                 : 0));
        ck_assert_uint_eq(d.fw_busy_ns, (b1 - a1) - (b0 - a0));
        ck_assert_uint_eq(d.fw_cores, 1);
        st_within(d.fw_utilization, 1.0, 0.01, "firmware utilisation of a firmware-bound drive");
        ck_assert_double_le(d.fw_utilization, 1.0);
        ssdsim_free(sim);
        ssdsim_model_free(m);
    }
}
END_TEST

/* GC paced by the firmware (ftl/page_gc.c): a plane reads its victim's next page only when
 * the firmware has processed the previous copy, so the firmware's GC backlog is at most one copy
 * and one victim per plane. A 4 KiB read probe at QD1 beside random writes at QD32, on the full
 * drive with GC running (the fwd drive, fw_write 20 us, fw_gc_page 10 us, fw_gc_victim 50 us,
 * queue depth 64 so that the probe never waits for a command slot), therefore waits at most:
 *     1 us host
 *   + 32 x 20 us          the writes admitted before it, each booked on the one core
 *   + 16 x (10 + 50) us   one copy and one victim per plane (16 planes)
 *   + 500 us              the die's operation in progress (an erase; host reads go before
 *                         queued GC work, gc.fg_blocks_die being off)
 *   + 2 x 10.24 us        a transfer on its channel's bus, then its own
 *   + 10 us tR + 1.024 us link
 *   = 2,132.5 us.
 * Booked all at once (every copy of every victim), GC held the core for several milliseconds
 * and the probe's worst case was about 10.8 ms on this drive. */
static void paced_probe(const char *controller, const char *host, uint64_t bound)
{
    ssdsim_model *m = fwd(controller, host);
    ck_assert_int_eq(ssdsim_model_set(m, "controller.queue_depth", "64", NULL), 0);
    ssdsim *sim = st_sim(m, 1);
    ck_assert_int_eq(ssdsim_precondition_seq(sim), 0);
    st_run(sim,
           "[global]\nbs=4k\n[w]\nrw=randwrite\nioengine=libaio\niodepth=32\nnumber_ios=150000\n"
           "[r]\nrw=randread\niodepth=1\nnumber_ios=20000\n",
           NULL);
    ssdsim_op_stats r;
    ssdsim_device_stats d;
    ck_assert_int_eq(ssdsim_get_op_stats(sim, SSDSIM_OP_READ, &r), 0);
    ck_assert_int_eq(ssdsim_get_device_stats(sim, &d), 0);
    ck_assert_uint_eq(r.count, 20000);
    ck_assert_double_gt((double)d.gc_pages_copied / (double)d.host_pages_written, 0.4);
    ck_assert_msg(r.lat_max_ns <= bound, "read probe waited %llu ns, above the derived %llu",
                  (unsigned long long)r.lat_max_ns, (unsigned long long)bound);
    ssdsim_free(sim);
    ssdsim_model_free(m);
}

START_TEST(test_firmware_gc_paced_backlog)
{
    paced_probe(",\"fw_write_us\":20,\"fw_gc_page_us\":10,\"fw_gc_victim_us\":50", "",
                HOST_NS + 32 * 20000 + 16 * (10000 + 50000) + 500000 + 2 * BUS_NS + TR_NS +
                    LINK_NS);
    /* A host-based FTL: the same work on its one host thread (host.ftl_cpu_us 20 per command,
     * host.ftl_gc_cpu_us 10 per copy, fw_gc_victim_us 50 run there too), each GC copy's time
     * booked when the copy is made (dev/fw.c): the same bound plus the probe's own 20 us on the
     * thread, 2,152.5 us. Charged in bulk at the next command, as before, the probe's worst
     * case was about 11.5 ms. */
    paced_probe(",\"fw_gc_victim_us\":50",
                ",\"ftl_threads\":1,\"ftl_cpu_us\":20,\"ftl_gc_cpu_us\":10",
                HOST_NS + 20000 + 32 * 20000 + 16 * (10000 + 50000) + 500000 + 2 * BUS_NS + TR_NS +
                    LINK_NS);
}
END_TEST

/* A host-based FTL runs the same tasks on its host threads: one thread, host.ftl_cpu_us 0, the
 * controller's core free (cmd_overhead 0, no fw cost on it): the same derivation as above with
 * the thread in place of the core, 1e9 / W. */
START_TEST(test_firmware_host_ftl_threads)
{
    const char *fill = "{\"rw\":\"randwrite\",\"bs\":\"4k\",\"iodepth\":32,\"number_ios\":100000}";
    const char *meas = "{\"rw\":\"randwrite\",\"bs\":\"4k\",\"iodepth\":32,\"number_ios\":40000}";
    ssdsim_model *m = fwd(",\"fw_write_us\":20,\"fw_gc_page_us\":10,\"fw_gc_victim_us\":50",
                          ",\"ftl_threads\":1,\"ftl_cpu_us\":0");
    ssdsim *sim = st_sim(m, 3);
    ck_assert_int_eq(ssdsim_precondition_seq(sim), 0);
    st_run(sim, fill, NULL);
    uint64_t b0, a0, b1, a1;
    fw_booked(sim, &b0, &a0);
    st_run(sim, meas, NULL);
    fw_booked(sim, &b1, &a1);
    ssdsim_op_stats w;
    ssdsim_device_stats d;
    ck_assert_int_eq(ssdsim_get_op_stats(sim, SSDSIM_OP_WRITE, &w), 0);
    ck_assert_int_eq(ssdsim_get_device_stats(sim, &d), 0);
    double host = (double)d.host_pages_written;
    double g = (double)d.gc_pages_copied / host;
    double v = (double)(d.gc_fg_victims + d.gc_bg_victims) / host;
    st_within(w.iops, 1e9 / (20000 + g * 10000 + v * 50000), 0.02, "host-thread-bound IOPS");
    /* The work is reported on the controller's core and the host thread together (2): the
     * thread's share exactly as booked, the core's 0 (cmd_overhead 0); the time reported, the
     * part of it inside the run. */
    ck_assert_uint_eq(d.fw_cores, 2);
    ck_assert_uint_eq(b1 - b0, d.host_pages_written * 20000 + d.gc_pages_copied * 10000 +
                                   (d.gc_fg_victims + d.gc_bg_victims) * 50000);
    ck_assert_uint_eq(d.fw_busy_ns, (b1 - a1) - (b0 - a0));
    ck_assert_double_le(d.fw_utilization, 1.0);
    /* the controller's core did nothing but the (zero) command overhead */
    ck_assert_uint_eq(((struct ssdsim *)sim)->sys.ctrls[0].core_free[0] <= ssdsim_now(sim), 1);
    ssdsim_free(sim);
    ssdsim_model_free(m);
}
END_TEST

/* DFTL with a CMT of 16 entries: nearly every random read misses and first reads its
 * translation page. With fw_read 5 us and fw_map 100 us on one core, each host read costs the
 * firmware W = 5 + m x 100 us, m the translation pages read and written per host read (measured;
 * below 1, as reads waiting for the same page share its load), so random reads at 32 outstanding
 * run at 1e9 / W[ns]. The flash is far from that: two page reads (10 + 10.24 us of a die, 10.24
 * of a bus) per host read over 16 dies and 4 channels: 2.5 and 5.1 us. */
START_TEST(test_firmware_map_pages)
{
    ssdsim_model *m = fwd(",\"fw_read_us\":5,\"fw_map_us\":100", "");
    ssdsim_error err;
    ck_assert_int_eq(ssdsim_model_set(m, "ftl.type", "dftl", &err), 0);
    ck_assert_int_eq(ssdsim_model_set(m, "ftl.cmt_entries", "16", &err), 0);
    ssdsim *sim = st_sim(m, 3);
    ck_assert_int_eq(ssdsim_precondition_seq(sim), 0);
    st_run(sim, "{\"rw\":\"randread\",\"bs\":\"4k\",\"iodepth\":32,\"number_ios\":4000}", NULL);
    ssdsim_op_stats r;
    ssdsim_device_stats d;
    ck_assert_int_eq(ssdsim_get_op_stats(sim, SSDSIM_OP_READ, &r), 0);
    ck_assert_int_eq(ssdsim_get_device_stats(sim, &d), 0);
    double mp = (double)(d.map_pages_read + d.map_pages_written) / (double)r.count;
    ck_assert_double_gt(mp, 0.5);
    st_within(r.iops, 1e9 / (5000 + mp * 100000), 0.02, "mapping-page-bound read IOPS");
    ssdsim_free(sim);
    ssdsim_model_free(m);
}
END_TEST

/* The firmware's work on a mapping miss is on the path of the command that waits for it. One
 * 4 KiB read at QD1 whose translation page is not cached (DFTL, 16 entries, after a sequential
 * fill): 1 us host + 5 us fw_read + 100 us fw_map (the miss), then the translation page's read
 * (10 us tR + 10.24 us bus) and the host page's (the same), 1.024 us link = 147,504 ns; without
 * fw_map 47,504. Before, the miss's 100 us were booked on the core and waited for by nothing:
 * both took 47,504. */
START_TEST(test_firmware_map_miss_latency)
{
    for (int k = 0; k < 2; k++) {
        ssdsim_model *m = fwd(k ? ",\"fw_read_us\":5,\"fw_map_us\":100" : ",\"fw_read_us\":5",
                              "");
        ssdsim_error err;
        ck_assert_int_eq(ssdsim_model_set(m, "ftl.type", "dftl", &err), 0);
        ck_assert_int_eq(ssdsim_model_set(m, "ftl.cmt_entries", "16", &err), 0);
        ssdsim *sim = st_sim(m, 3);
        ck_assert_int_eq(ssdsim_precondition_seq(sim), 0);
        ssdsim_device_stats d0, d1;
        ck_assert_int_eq(ssdsim_get_device_stats(sim, &d0), 0);
        ck_assert_uint_eq(st_one(sim, SSDSIM_OP_READ, 0, 4096),
                          (k ? 100000 : 0) + HOST_NS + 5000 + 2 * (TR_NS + BUS_NS) + LINK_NS);
        ck_assert_int_eq(ssdsim_get_device_stats(sim, &d1), 0);
        ck_assert_uint_eq(d1.map_pages_read - d0.map_pages_read, 1);
        ssdsim_free(sim);
        ssdsim_model_free(m);
    }
}
END_TEST

/* Impossible values are refused with one line naming the key. */
/* The firmware figures of the results. On the sequence of test_firmware_host_units_by_hand (a
 * 4 KiB write, its read, a 16 KiB write, one after the other from time 0, with cmd_overhead 2 us
 * added this time) the core works 2 + 20 + 2 + 7 + 2 + 80 = 113 us, over a run of
 * (82,264 + 2,000) + (29,264 + 2,000) + (165,816 + 2,000) = 283,344 ns: utilisation
 * 113,000 / 283,344. The JSON has device.firmware then; a model with cmd_overhead but no fw_*
 * cost has neither the group nor the figures. */
START_TEST(test_firmware_busy_reported)
{
    g_autofree char *ctl = g_strdup(",\"fw_write_us\":20,\"fw_read_us\":7");
    ssdsim_model *m = fwd(ctl, "");
    ck_assert_int_eq(ssdsim_model_set(m, "controller.cmd_overhead_us", "2", NULL), 0);
    ssdsim *sim = st_sim(m, 1);
    ck_assert_uint_eq(st_one(sim, SSDSIM_OP_WRITE, 0, 4096), 82264 + 2000);
    ck_assert_uint_eq(st_one(sim, SSDSIM_OP_READ, 0, 4096), 29264 + 2000);
    ck_assert_uint_eq(st_one(sim, SSDSIM_OP_WRITE, 65536, 16384), 165816 + 2000);
    ssdsim_device_stats d;
    ck_assert_int_eq(ssdsim_get_device_stats(sim, &d), 0);
    ck_assert_uint_eq(d.fw_busy_ns, 113000);
    ck_assert_uint_eq(d.fw_cores, 1);
    ck_assert_double_eq_tol(d.fw_utilization, 113000.0 / 283344.0, 1e-12);
    char *j = ssdsim_results_json(sim);
    ck_assert_ptr_nonnull(j);
    ck_assert_ptr_nonnull(strstr(j, "\"firmware\""));
    const char *b = strstr(j, "\"busy_ns\":");
    ck_assert_ptr_nonnull(b);
    ck_assert_uint_eq(strtoull(b + strlen("\"busy_ns\":"), NULL, 10), 113000);
    ck_assert_ptr_null(strstr(j, "\"nand\""));
    free(j);
    ssdsim_free(sim);
    ssdsim_model_free(m);

    m = fwd("", "");
    ck_assert_int_eq(ssdsim_model_set(m, "controller.cmd_overhead_us", "2", NULL), 0);
    sim = st_sim(m, 1);
    st_one(sim, SSDSIM_OP_WRITE, 0, 4096);
    ck_assert_int_eq(ssdsim_get_device_stats(sim, &d), 0);
    ck_assert_uint_eq(d.fw_cores, 0);
    ck_assert_uint_eq(d.fw_busy_ns, 0);
    j = ssdsim_results_json(sim);
    ck_assert_ptr_null(strstr(j, "\"firmware\""));
    free(j);
    ssdsim_free(sim);
    ssdsim_model_free(m);
}
END_TEST

START_TEST(test_firmware_refuses_bad_values)
{
    static const char *bad[] = {"\"fw_gc_page_us\":-1", "\"fw_write_us\":\"fast\"",
                                "\"fw_read_us\":20000", "\"fw_gc_victim_us\":-5"};
    static const char *key[] = {"controller.fw_gc_page_us", "controller.fw_write_us",
                                "controller.fw_read_us", "controller.fw_gc_victim_us"};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        g_autofree char *c = g_strdup_printf(",%s", bad[i]);
        g_autofree char *j = fwd_json(c, "");
        ssdsim_model *m = NULL;
        ssdsim_error err;
        ck_assert_int_ne(ssdsim_model_load_string(&m, j, "bad.json", &err), 0);
        ck_assert_ptr_null(m);
        ck_assert_msg(strstr(err.message, key[i]) != NULL, "%s", err.message);
        ck_assert_ptr_null(strchr(err.message, '\n'));
    }
}
END_TEST

int main(void)
{
    Suite *s = suite_create("firmware");
    TCase *tc = tcase_create("firmware");
    tcase_set_timeout(tc, 600);
    tcase_add_test(tc, test_firmware_host_units_by_hand);
    tcase_add_test(tc, test_firmware_bound_steady_writes);
    tcase_add_test(tc, test_firmware_gc_paced_backlog);
    tcase_add_test(tc, test_firmware_host_ftl_threads);
    tcase_add_test(tc, test_firmware_map_pages);
    tcase_add_test(tc, test_firmware_map_miss_latency);
    tcase_add_test(tc, test_firmware_busy_reported);
    tcase_add_test(tc, test_firmware_refuses_bad_values);
    suite_add_tcase(s, tc);
    return test_run_suite(s);
}
