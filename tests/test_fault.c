/* test_fault.c: faults (doc/models.md, "Faults"; libssdsim/rel/): factory and grown bad
 * blocks, the spare they take and the write amplification that follows, the read-only state,
 * power loss with a volatile and a protected write buffer, the mapping and the mount time at
 * the next power-up, and the refusal of bad parameters. Every figure is derived here from the
 * model's numbers, not read back from the simulator's own formulas. */
#include <check.h>
#include <glib.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "simtest.h"

/* 4 dies, one per channel, one plane each, `blocks` blocks of 16 pages of 4 KiB; page
 * transfers of 40.96 us (100 MT/s x 8 bits), tR 10 us; `extra` appended to the top object. */
static ssdsim_model *drive(uint32_t blocks, const char *op, const char *extra)
{
    g_autofree char *json = g_strdup_printf(
        "{\"name\":\"faulty\",\"geometry\":{\"channels\":4,\"chips_per_channel\":1,"
        "\"dies_per_chip\":1,\"planes_per_die\":1,\"blocks_per_plane\":%u,"
        "\"pages_per_block\":16,\"page_size\":\"4KiB\"},"
        "\"flash\":{\"cell\":\"slc\",\"read_us\":10,\"program_us\":20,\"erase_us\":1000,"
        "\"bus_mts\":100,\"bus_width\":8,\"rated_pe_cycles\":100},"
        "\"controller\":{\"cmd_overhead_us\":1,\"cores\":4,\"queue_depth\":64},"
        "\"host\":{\"link_bw\":\"4000MB/s\",\"cmd_overhead_us\":1},"
        "\"ftl\":{\"op\":%s}%s}",
        blocks, op, extra ? extra : "");
    ssdsim_model *m = NULL;
    ssdsim_error err;
    int rc = ssdsim_model_load_string(&m, json, "test_fault model", &err);
    ck_assert_msg(rc == 0, "%s", err.message);
    return m;
}

static ssdsim_fault_stats faults(const ssdsim *sim)
{
    ssdsim_fault_stats s;
    ck_assert_int_eq(ssdsim_get_fault_stats(sim, &s), 0);
    return s;
}

/* ------------------------------------------------------------------------------------------ */
/* Bad blocks                                                                                  */

/* round(0.1 x 64) = 6 factory bad blocks on each of the 4 planes, never written; the same seed
 * marks the same ones (identical results), another seed others. */
START_TEST(test_fault_factory_bad_blocks)
{
    const char *extra = ",\"reliability\":{\"bad_fraction\":0.1}";
    char *res[3];
    for (int k = 0; k < 3; k++) {
        ssdsim_model *m = drive(64, "0.5", extra);
        ssdsim *sim = st_sim(m, k == 2 ? 9 : 4);
        st_run(sim, "{\"rw\":\"randwrite\",\"bs\":\"4k\",\"iodepth\":8,\"number_ios\":6000}",
               NULL);
        ssdsim_fault_stats s = faults(sim);
        ck_assert_uint_eq(s.factory_bad_blocks, 24);
        ck_assert_uint_eq(s.grown_bad_blocks, 0);
        ck_assert(!s.read_only);
        /* a bad block never holds data nor is erased */
        uint32_t never = 0;
        for (uint64_t b = 0; b < 256; b++) {
            uint32_t valid;
            uint32_t erases;
            ck_assert_int_eq(ssdsim_block_state(sim, b, &valid, &erases), 0);
            if (valid == 0 && erases == 0)
                never++;
        }
        ck_assert_uint_ge(never, 24);
        ssdsim_device_stats d;
        ssdsim_get_device_stats(sim, &d);
        ck_assert_double_eq_tol(s.spare_factor_effective,
                                d.spare_factor_effective - 24.0 * 16 / (256 * 16), 1e-12);
        st_check(sim);
        res[k] = st_results_json(sim, m);
        ck_assert_ptr_nonnull(strstr(res[k], "\"factory_bad_blocks\""));
    }
    st_assert_seeded(res[0], res[1], res[2]);
}
END_TEST

/* Uniform random 4 KiB writes, GC choosing victims uniformly at random: WAF = 1 / (1 - v) with
 * v the logical pages over the pages of closed blocks (test_parity derives it), and the bad
 * blocks take their pages out of those. 4 x 512 blocks x 16 pages = 32768 pages, op 1:
 * L = 16384; 10% bad: 4 x 51 = 204 blocks; C = (2048 - 204 - 4 x 3) x 16 = 29312 pages: v =
 * 0.5590, WAF 2.266 against 2.012 without bad blocks; the theory's random-victim WAF at that
 * spare factor (gc/theory.c) says the same. */
START_TEST(test_fault_bad_blocks_raise_waf)
{
    double waf[2];
    for (int k = 0; k < 2; k++) {
        ssdsim_model *m =
            drive(512, "1",
                  k ? ",\"gc\":{\"policy\":\"random\"},\"reliability\":{\"bad_fraction\":0.1}"
                    : ",\"gc\":{\"policy\":\"random\"}");
        ssdsim *sim = st_sim(m, 3);
        ck_assert_int_eq(ssdsim_precondition_seq(sim), 0);
        st_run(sim, "{\"rw\":\"randwrite\",\"bs\":\"4k\",\"iodepth\":8,\"number_ios\":98304}",
               NULL);
        st_run(sim, "{\"rw\":\"randwrite\",\"bs\":\"4k\",\"iodepth\":8,\"number_ios\":98304}",
               NULL);
        ssdsim_device_stats d;
        ssdsim_get_device_stats(sim, &d);
        waf[k] = d.waf;
        double bad = k ? 4 * 51 : 0;
        double c = (2048 - bad - 4 * 3) * 16;
        double want = 1.0 / (1 - 16384.0 / c);
        double theory;
        ck_assert_int_eq(ssdsim_theory_waf("random", 16, 1 - 16384.0 / c, 0, &theory), 0);
        ck_assert_double_eq_tol(theory, want, 1e-9);
        st_within(d.waf, want, 0.02, k ? "WAF with bad blocks" : "WAF without");
        ck_assert_uint_eq(faults(sim).factory_bad_blocks, (uint64_t)bad);
        st_check(sim);
        ssdsim_free(sim);
        ssdsim_model_free(m);
    }
    ck_assert(waf[1] > waf[0] * 1.1);
}
END_TEST

/* Wear added at once (ssdsim_wear) is drawn for at a block's next erase: with p(n) = n / 100
 * (grown_prob_rated 1, exponent 1, 100 rated cycles), a block worn by 5 cycles at once and then
 * erased (its 6th) fails with 1 - (0.99 x 0.98 x 0.97 x 0.96 x 0.95 x 0.94) = 0.1881, not with
 * p(6) = 0.06 alone. A sequential fill, the wear, then a second sequential pass: the first
 * pass's blocks, wholly invalid, are erased once each as the second needs room. The grown bad
 * blocks are within 4 standard deviations of 0.1881 x the erases. */
START_TEST(test_fault_added_wear_fails_blocks)
{
    ssdsim_model *m =
        drive(64, "0.25", ",\"reliability\":{\"grown_prob_rated\":1,\"grown_exponent\":1}");
    ssdsim *sim = st_sim(m, 3);
    ck_assert_int_eq(ssdsim_precondition_seq(sim), 0);
    ck_assert_int_eq(ssdsim_wear(sim, 5), 0);
    ssdsim_fault_stats s0 = faults(sim);
    st_run(sim, "{\"rw\":\"write\",\"bs\":\"64k\",\"iodepth\":4}", NULL);
    ssdsim_device_stats d;
    ck_assert_int_eq(ssdsim_get_device_stats(sim, &d), 0);
    ck_assert_uint_gt(d.blocks_erased, 100);
    ck_assert_uint_le(d.erase_count_max, 6); /* each erased once at most */
    double keep = 1;
    for (int i = 1; i <= 6; i++)
        keep *= 1 - i / 100.0;
    double n = (double)d.blocks_erased, p = 1 - keep;
    double got = (double)(faults(sim).grown_bad_blocks - s0.grown_bad_blocks);
    double sd = sqrt(n * p * (1 - p));
    ck_assert_msg(fabs(got - n * p) < 4 * sd, "%.0f grown bad blocks of %.0f erased, expected %.1f",
                  got, n, n * p);
    ssdsim_free(sim);
    ssdsim_model_free(m);
}
END_TEST

/* Grown bad blocks: with grown_prob_rated 1 and exponent 1 a block fails at its n-th erase
 * with probability n / 100. The drive turns read-only exactly when the good blocks can no
 * longer hold the logical pages and, per plane, the GC watermark (2) and 2 open blocks: 4 x
 * 64 blocks, op 0.5: L = 2730 pages = 171 blocks (rounded up), need 171 + 16 = 187 good blocks
 * and more than 256 - 187 = 69 bad ones make it read-only. From then on every write is
 * refused, and the bytes written until then are what the host had written. */
START_TEST(test_fault_grown_bad_blocks_read_only)
{
    ssdsim_model *m =
        drive(64, "0.5", ",\"reliability\":{\"grown_prob_rated\":1,\"grown_exponent\":1}");
    ssdsim *sim = st_sim(m, 5);
    st_run(sim, "{\"rw\":\"randwrite\",\"bs\":\"4k\",\"iodepth\":4,\"number_ios\":300000}", NULL);
    ssdsim_fault_stats s = faults(sim);
    uint64_t logical = 4 * 64 * 16 * 2 / 3; /* the model's logical pages, op 0.5 */
    ck_assert_uint_eq(logical, 2730);
    uint64_t need = logical + 4 * 16 * 4; /* pages */
    ck_assert(s.read_only);
    ck_assert_uint_eq(s.factory_bad_blocks, 0);
    /* the first bad block that left fewer good pages than needed */
    ck_assert_uint_lt((256 - s.read_only_bad_blocks) * 16, need);
    ck_assert_uint_ge((256 - s.read_only_bad_blocks + 1) * 16, need);
    ck_assert_uint_ge(s.grown_bad_blocks, s.read_only_bad_blocks);
    ck_assert_uint_gt(s.writes_refused, 0);
    ck_assert_uint_eq(s.bytes_refused, s.writes_refused * 4096);
    ssdsim_op_stats w;
    ssdsim_get_op_stats(sim, SSDSIM_OP_WRITE, &w);
    ck_assert_uint_eq(w.count, 300000);
    ck_assert_uint_eq(s.read_only_host_bytes + s.bytes_refused, 300000ull * 4096);
    ck_assert_uint_gt(s.read_only_ns, 0);
    st_check(sim);
    /* a later write is refused too, and nothing is programmed for it */
    ssdsim_device_stats d0, d1;
    ssdsim_get_device_stats(sim, &d0);
    st_one(sim, SSDSIM_OP_WRITE, 0, 4096);
    ssdsim_get_device_stats(sim, &d1);
    ck_assert_uint_eq(faults(sim).writes_refused, s.writes_refused + 1);
    ssdsim_free(sim);
    ssdsim_model_free(m);
}
END_TEST

/* ------------------------------------------------------------------------------------------ */
/* Power loss                                                                                  */

struct acks {
    uint64_t n;
    uint64_t id[64];
};

static void ack(const ssdsim_completion *c, void *ud)
{
    struct acks *a = ud;
    if (a->n < 64)
        a->id[a->n++] = c->id;
}

/* Submit a 4 KiB write of logical page `lpn` (id = lpn), FUA or not. */
static void put(ssdsim *sim, uint64_t lpn, bool fua, struct acks *a)
{
    ssdsim_submit_opts o = SSDSIM_SUBMIT_OPTS_INIT;
    o.fua = fua;
    ck_assert_int_eq(ssdsim_submit_ex(sim, SSDSIM_OP_WRITE, lpn * 4096, 4096, ssdsim_now(sim), lpn,
                                      ack, a, &o),
                     0);
    ck_assert_int_eq(ssdsim_drain(sim), 0);
}

/* A buffer of 64 units that flushes only when asked (flush_start 1, no idle flush). */
static ssdsim_model *buffered(bool plp, const char *energy_mj)
{
    g_autofree char *extra = g_strdup_printf(
        ",\"buffer\":{\"size\":\"256KiB\",\"plp\":%s,\"flush_start\":1,\"flush_stop\":1}"
        "%s%s%s",
        plp ? "true" : "false", energy_mj ? ",\"reliability\":{\"plp_energy_mj\":" : "",
        energy_mj ? energy_mj : "", energy_mj ? "}" : "");
    return drive(64, "0.5", extra);
}

/* Pages 0-9 written and flushed, 10-16 written after the flush, 20 and 21 written with FUA:
 * a volatile buffer loses 10-16 exactly, in the order written; the mapping of every logical
 * page is the same after the power-up as before; the mount reads the checkpoint of the table
 * (2730 entries x 4 bytes: 3 pages) and a journal of the 12 updates (1 page): 4 reads, one on
 * each die: tR + a page transfer = 10 + 40.96 us. */
START_TEST(test_fault_power_loss_volatile)
{
    ssdsim_model *m = buffered(false, NULL);
    ssdsim *sim = st_sim(m, 1);
    struct acks a = {0};
    for (uint64_t p = 0; p < 10; p++)
        put(sim, p, false, &a);
    ck_assert_int_eq(ssdsim_submit(sim, SSDSIM_OP_FLUSH, 0, 0, ssdsim_now(sim), 99, ack, &a), 0);
    ck_assert_int_eq(ssdsim_drain(sim), 0);
    for (uint64_t p = 10; p < 17; p++)
        put(sim, p, false, &a);
    put(sim, 20, true, &a);
    put(sim, 21, true, &a);
    ck_assert_uint_eq(a.n, 20); /* every write and the flush acknowledged */
    uint64_t before[2730];
    for (uint64_t l = 0; l < 2730; l++)
        before[l] = ssdsim_lookup(sim, l);
    uint64_t t0 = ssdsim_now(sim);
    ck_assert_int_eq(ssdsim_power_loss(sim), 0);
    ssdsim_fault_stats s = faults(sim);
    ck_assert_uint_eq(s.power_losses, 1);
    ck_assert_uint_eq(s.power_loss_ns, t0);
    ck_assert_uint_eq(s.lost_requests, 7);
    ck_assert_uint_eq(s.lost_units, 7);
    ck_assert_uint_eq(s.lost_bytes, 7 * 4096);
    ck_assert_uint_eq(s.plp_units_flushed, 0);
    ssdsim_lost_request lost[16];
    ck_assert_uint_eq(ssdsim_lost_requests(sim, lost, 16), 7);
    for (int i = 0; i < 7; i++) {
        ck_assert_uint_eq(lost[i].offset, (10 + (uint64_t)i) * 4096);
        ck_assert_uint_eq(lost[i].length, 4096);
        ck_assert_uint_eq(lost[i].lost_bytes, 4096);
    }
    for (uint64_t l = 0; l < 2730; l++)
        ck_assert_uint_eq(ssdsim_lookup(sim, l), before[l]);
    for (uint64_t l = 10; l < 17; l++) /* never reached the flash */
        ck_assert_uint_eq(ssdsim_lookup(sim, l), UINT64_MAX);
    ck_assert_uint_ne(ssdsim_lookup(sim, 20), UINT64_MAX);
    ck_assert_uint_eq(s.mount_pages_read, 4);
    ck_assert_uint_eq(s.mount_ns, 10000 + 40960);
    ck_assert_uint_eq(ssdsim_now(sim), t0 + 10000 + 40960);
    st_check(sim);
    /* the drive works on */
    put(sim, 10, false, &a);
    ck_assert_uint_eq(a.n, 21);
    ssdsim_free(sim);
    ssdsim_model_free(m);
}
END_TEST

/* A protected buffer acknowledges every write from DRAM and a flush at once, so all 19 units
 * are dirty at the power loss: with enough energy none is lost and all 19 are flushed; with
 * 0.25 mJ at 50 uJ a page, the 5 oldest are flushed and the 14 newest lost. A scan mount reads
 * every page of the blocks in use. */
START_TEST(test_fault_power_loss_protected)
{
    for (int k = 0; k < 2; k++) {
        ssdsim_model *m = buffered(true, k ? "0.25" : "1000");
        if (k)
            {
                ssdsim_error e;
                ck_assert_int_eq(ssdsim_model_set(m, "reliability.mount_mode", "scan", &e), 0);
            }
        ssdsim *sim = st_sim(m, 1);
        struct acks a = {0};
        for (uint64_t p = 0; p < 10; p++)
            put(sim, p, false, &a);
        ck_assert_int_eq(ssdsim_submit(sim, SSDSIM_OP_FLUSH, 0, 0, ssdsim_now(sim), 99, ack, &a),
                         0);
        ck_assert_int_eq(ssdsim_drain(sim), 0);
        for (uint64_t p = 10; p < 17; p++)
            put(sim, p, false, &a);
        put(sim, 20, true, &a);
        put(sim, 21, true, &a);
        ck_assert_int_eq(ssdsim_power_loss(sim), 0);
        ssdsim_fault_stats s = faults(sim);
        ssdsim_lost_request lost[32];
        size_t n = ssdsim_lost_requests(sim, lost, 32);
        if (!k) {
            ck_assert_uint_eq(s.lost_requests, 0);
            ck_assert_uint_eq(n, 0);
            ck_assert_uint_eq(s.plp_units_flushed, 19);
            for (uint64_t l = 0; l < 17; l++)
                ck_assert_uint_ne(ssdsim_lookup(sim, l), UINT64_MAX);
        } else {
            static const uint64_t order[19] = {0,  1,  2,  3,  4,  5,  6,  7,  8, 9,
                                               10, 11, 12, 13, 14, 15, 16, 20, 21};
            ck_assert_uint_eq(s.plp_units_flushed, 5);
            ck_assert_uint_eq(s.lost_requests, 14);
            ck_assert_uint_eq(s.lost_bytes, 14 * 4096);
            ck_assert_uint_eq(n, 14);
            for (int i = 0; i < 14; i++)
                ck_assert_uint_eq(lost[i].offset, order[5 + i] * 4096);
            for (int i = 0; i < 19; i++)
                ck_assert_uint_eq(ssdsim_lookup(sim, order[i]) != UINT64_MAX, i < 5);
            /* scan: the 5 pages went to open blocks, one per die (4 blocks of 16 pages in use);
             * each die is alone on its channel, whose 16 page transfers (40.96 us each) take
             * longer than the die's 16 reads (10 us each): the first tR, then the transfers */
            ck_assert_uint_eq(s.mount_pages_read, 4 * 16);
            ck_assert_uint_eq(s.mount_ns, 10000 + 16 * 40960);
        }
        st_check(sim);
        ssdsim_free(sim);
        ssdsim_model_free(m);
    }
}
END_TEST

/* The run's power loss (run --power-loss-after): the host stops after 500 completed writes,
 * and what the volatile buffer held then is lost; all lost bytes are of acknowledged writes.
 * The firmware's utilisation is its busy time over the run's measured time (sim_time_ns), not
 * over the clock through the mount after it (the 960 PRO cut at 500 ms: 0.839 for 0.99999). */
START_TEST(test_fault_power_loss_in_run)
{
    ssdsim_model *m = drive(64, "0.5",
                            ",\"buffer\":{\"size\":\"256KiB\",\"flush_start\":0.5,"
                            "\"flush_stop\":0.25}");
    ck_assert_int_eq(ssdsim_model_set(m, "controller.fw_write_us", "5", NULL), 0);
    ssdsim *sim = st_sim(m, 2);
    ck_assert_int_eq(ssdsim_set_power_loss(sim, 0, 500), 0);
    st_run(sim, "{\"rw\":\"randwrite\",\"bs\":\"4k\",\"iodepth\":4,\"number_ios\":5000}", NULL);
    ssdsim_op_stats w;
    ssdsim_get_op_stats(sim, SSDSIM_OP_WRITE, &w);
    ck_assert_uint_ge(w.count, 500);
    ck_assert_uint_le(w.count, 504);
    ssdsim_fault_stats s = faults(sim);
    ck_assert_uint_eq(s.power_losses, 1);
    ck_assert(!s.power_loss_at_end); /* 500 of 5000 requests: reached */
    ck_assert_uint_ge(s.power_loss_ns, s.run_start_ns);
    /* flushing stops at 16 dirty units, and the buffer holds 64 */
    ck_assert_uint_ge(s.lost_units, 16);
    ck_assert_uint_le(s.lost_units, 64);
    ck_assert_uint_eq(s.lost_bytes, s.lost_units * 4096);
    ck_assert_uint_le(s.lost_requests, s.lost_units);
    ck_assert_uint_gt(s.mount_ns, 0);
    ssdsim_device_stats d;
    ck_assert_int_eq(ssdsim_get_device_stats(sim, &d), 0);
    ck_assert_uint_gt(d.fw_busy_ns, 0);
    double want = (double)d.fw_busy_ns / ((double)d.fw_cores * (double)ssdsim_sim_time_ns(sim));
    ck_assert_msg(fabs(d.fw_utilization - want) < 1e-9 * want, "%g, not %g", d.fw_utilization,
                  want);
    st_check(sim);
    char *json = ssdsim_results_json(sim);
    ck_assert_ptr_nonnull(strstr(json, "\"power_loss\""));
    free(json);
    ssdsim_free(sim);
    ssdsim_model_free(m);
}
END_TEST

/* ------------------------------------------------------------------------------------------ */
/* Bad input                                                                                   */

static void refused(const char *key, const char *value, const char *name_in_msg)
{
    ssdsim_model *m = drive(64, "0.5", NULL);
    ssdsim_error err;
    int rc = ssdsim_model_set(m, key, value, &err);
    ck_assert_msg(rc != 0, "%s=%s accepted", key, value);
    ck_assert_msg(strstr(err.message, name_in_msg), "%s", err.message);
    ck_assert_ptr_null(strchr(err.message, '\n'));
    ssdsim_model_free(m);
}

START_TEST(test_fault_bad_input)
{
    refused("reliability.grown_prob_rated", "1.5", "reliability.grown_prob_rated");
    refused("reliability.bad_fraction", "-0.1", "reliability.bad_fraction");
    refused("reliability.plp_energy_mj", "-1", "reliability.plp_energy_mj");
    refused("reliability.plp_page_uj", "0", "reliability.plp_page_uj");
    refused("reliability.mount_mode", "\"guess\"", "reliability.mount_mode");
    refused("reliability.grown_exponent", "-2", "reliability.grown_exponent");
    ck_assert_int_eq(ssdsim_power_loss(NULL), SSDSIM_EINVAL);
    ck_assert_int_eq(ssdsim_set_power_loss(NULL, 1, 0), SSDSIM_EINVAL);
    ck_assert_int_eq(ssdsim_get_fault_stats(NULL, (ssdsim_fault_stats *)NULL), SSDSIM_EINVAL);
    ck_assert_uint_eq(ssdsim_lost_requests(NULL, NULL, 0), 0);
    /* so many factory bad blocks that the spare cannot hold the GC reserve */
    ssdsim_model *m = drive(64, "0.1", ",\"reliability\":{\"bad_fraction\":0.3}");
    ssdsim *sim = NULL;
    ssdsim_error err;
    ck_assert_int_ne(ssdsim_new(&sim, m, 1, &err), 0);
    ck_assert_ptr_nonnull(strstr(err.message, "reliability.bad_fraction"));
    ssdsim_model_free(m);
    /* power loss with requests in flight */
    m = drive(64, "0.5", NULL);
    sim = st_sim(m, 1);
    ck_assert_int_eq(ssdsim_submit(sim, SSDSIM_OP_WRITE, 0, 4096, 0, 1, NULL, NULL), 0);
    ck_assert_int_eq(ssdsim_power_loss(sim), SSDSIM_ESTATE);
    ck_assert_ptr_nonnull(strstr(ssdsim_errmsg(sim), "in flight"));
    ssdsim_free(sim);
    ssdsim_model_free(m);
}
END_TEST


/* ------------------------------------------------------------------------------------------ */
/* Die failure                                                                                 */

static void nop(const ssdsim_completion *c, void *ud)
{
    (void)c;
    (*(uint64_t *)ud)++;
}

/* Write logical pages 0 .. n-1 once, 64 at a time, on a fresh drive (no GC). */
static void fill(ssdsim *sim, uint64_t n)
{
    uint64_t done = 0;
    for (uint64_t p = 0; p < n; p++) {
        ck_assert_int_eq(
            ssdsim_submit(sim, SSDSIM_OP_WRITE, p * 4096, 4096, ssdsim_now(sim), p, nop, &done),
            0);
        if (p % 64 == 63)
            ck_assert_int_eq(ssdsim_drain(sim), 0);
    }
    ck_assert_int_eq(ssdsim_drain(sim), 0);
    ck_assert_uint_eq(done, n);
}

/* Read each of `lpns` once; returns how many completed. */
static uint64_t read_all(ssdsim *sim, const uint64_t *lpns, uint64_t n)
{
    uint64_t done = 0;
    for (uint64_t i = 0; i < n; i++) {
        ck_assert_int_eq(ssdsim_submit(sim, SSDSIM_OP_READ, lpns[i] * 4096, 4096,
                                       ssdsim_now(sim), i, nop, &done),
                         0);
        if (i % 64 == 63)
            ck_assert_int_eq(ssdsim_drain(sim), 0);
    }
    ck_assert_int_eq(ssdsim_drain(sim), 0);
    return done;
}

/* Die 1 of 4 (channel 1) fails on a drive written once with parity_group 4: 2046 host pages,
 * 682 full stripes of 3 data pages and a parity page on 4 different dies (no GC: the flash
 * holds 4096 pages). The pages the mapping puts on die 1 before the failure (block / 64 = 1)
 * are the ones lost without parity; with it each read of one reads the 3 other pages of its
 * stripe; the rebuild (at 1000 B/s: a page each 4.096 s) writes each one elsewhere after
 * reading exactly its 3 stripe mates; afterwards every logical page maps to a live die, the
 * others where they were, and every read completes without reconstruction. */
START_TEST(test_fault_die_failure)
{
    for (int parity = 1; parity >= 0; parity--) {
        ssdsim_model *m =
            drive(64, "1",
                  parity ? ",\"reliability\":{\"rebuild_rate\":1000}" : NULL);
        if (parity) {
            ssdsim_error e;
            ck_assert_int_eq(ssdsim_model_set(m, "ftl.parity_group", "4", &e), 0);
        }
        ssdsim *sim = st_sim(m, 1);
        const uint64_t n = 2046;
        fill(sim, n);
        static uint64_t where[2046], on_die[2046];
        uint64_t k = 0;
        for (uint64_t l = 0; l < n; l++) {
            where[l] = ssdsim_lookup(sim, l);
            ck_assert_uint_ne(where[l], UINT64_MAX);
            if (where[l] / 16 / 64 == 1)
                on_die[k++] = l;
        }
        ck_assert_uint_gt(k, 400); /* about a quarter of the pages, parity taking its share */
        uint64_t t0 = ssdsim_now(sim);
        ck_assert_int_eq(ssdsim_fail_die(sim, 1, 0, 0, t0), 0);
        /* reads of the die's pages, all but the first (which the rebuild takes at once) */
        ck_assert_uint_eq(read_all(sim, on_die + 1, k - 1), k - 1);
        ssdsim_fault_stats s = faults(sim);
        ck_assert(s.die_failed);
        ck_assert_uint_eq(s.failed_channel, 1);
        ck_assert_uint_eq(s.failed_chip + s.failed_die, 0);
        ck_assert_uint_eq(s.die_failed_ns, t0);
        ck_assert_uint_eq(s.die_pages, k);
        if (!parity) {
            ck_assert_uint_eq(s.die_lost_pages, k);
            ck_assert_uint_eq(s.unrecoverable_reads, k - 1);
            ck_assert_uint_eq(s.reconstructed_reads, 0);
            ck_assert_uint_eq(s.rebuild_pages, 0);
        } else {
            ck_assert_uint_eq(s.die_lost_pages, 0);
            ck_assert_uint_eq(s.unrecoverable_reads, 0);
            ck_assert_uint_eq(s.reconstructed_reads, k - 1);
            ck_assert_uint_eq(s.reconstruct_pages_read, 3 * (k - 1));
            /* the rebuild: k pages, a page's time (4.096 s) apart */
            ck_assert_int_eq(ssdsim_idle(sim, (k + 1) * 4096000000ull), 0);
            s = faults(sim);
            ck_assert(s.rebuild_done);
            ck_assert_uint_eq(s.rebuild_pages, k);
            ck_assert_uint_eq(s.rebuild_pages_read, 3 * k);
            ck_assert_uint_eq(s.rebuild_lost, 0);
            ck_assert_uint_ge(s.rebuild_ns, (k - 1) * 4096000000ull);
            ck_assert_uint_lt(s.rebuild_ns, k * 4096000000ull);
            for (uint64_t l = 0; l < n; l++) {
                uint64_t p = ssdsim_lookup(sim, l);
                ck_assert_uint_ne(p, UINT64_MAX);
                if (where[l] / 16 / 64 == 1)
                    ck_assert_uint_ne(p / 16 / 64, 1);
                else
                    ck_assert_uint_eq(p, where[l]);
            }
            static uint64_t all[2046];
            for (uint64_t l = 0; l < n; l++)
                all[l] = l;
            ck_assert_uint_eq(read_all(sim, all, n), n);
            s = faults(sim);
            ck_assert_uint_eq(s.reconstructed_reads, k - 1);
            ck_assert_uint_eq(s.unrecoverable_reads, 0);
            /* the rebuilt pages are GC copies in WAF */
            ssdsim_device_stats d;
            ssdsim_get_device_stats(sim, &d);
            ck_assert_uint_ge(d.gc_pages_copied, k);
        }
        st_check(sim);
        ssdsim_free(sim);
        ssdsim_model_free(m);
    }
}
END_TEST

/* One plane of a die fails (2 planes per die, die 2 = channel 2, plane 1): only the pages of
 * that plane are rebuilt, each from its 3 stripe mates on the other dies; the die's other
 * plane keeps its data where it was. */
START_TEST(test_fault_plane_failure)
{
    g_autofree char *json = g_strdup_printf(
        "{\"name\":\"faulty2\",\"geometry\":{\"channels\":4,\"chips_per_channel\":1,"
        "\"dies_per_chip\":1,\"planes_per_die\":2,\"blocks_per_plane\":32,"
        "\"pages_per_block\":16,\"page_size\":\"4KiB\"},"
        "\"flash\":{\"cell\":\"slc\",\"read_us\":10,\"program_us\":20,\"erase_us\":1000,"
        "\"bus_mts\":100,\"bus_width\":8},"
        "\"ftl\":{\"op\":1,\"parity_group\":4},\"reliability\":{\"rebuild_rate\":1000}}");
    ssdsim_model *m = NULL;
    ssdsim_error err;
    ck_assert_msg(ssdsim_model_load_string(&m, json, "two planes", &err) == 0, "%s", err.message);
    ssdsim *sim = st_sim(m, 1);
    fill(sim, 2046);
    static uint64_t where[2046];
    uint64_t k = 0, dead = 2 * 2 + 1; /* plane index: die x planes per die + plane */
    for (uint64_t l = 0; l < 2046; l++) {
        where[l] = ssdsim_lookup(sim, l);
        k += where[l] / 16 / 32 == dead;
    }
    ck_assert_uint_gt(k, 100);
    ck_assert_int_eq(ssdsim_fail_plane(sim, 2, 0, 0, 2, ssdsim_now(sim)), SSDSIM_EINVAL);
    ck_assert_int_eq(ssdsim_fail_plane(sim, 2, 0, 0, 1, ssdsim_now(sim)), 0);
    ck_assert_int_eq(ssdsim_idle(sim, (k + 1) * 4096000000ull), 0);
    ssdsim_fault_stats s = faults(sim);
    ck_assert(s.die_failed && s.plane_failed);
    ck_assert_uint_eq(s.failed_plane, 1);
    ck_assert_uint_eq(s.die_pages, k);
    ck_assert(s.rebuild_done);
    ck_assert_uint_eq(s.rebuild_pages, k);
    ck_assert_uint_eq(s.rebuild_pages_read, 3 * k);
    for (uint64_t l = 0; l < 2046; l++) {
        uint64_t p = ssdsim_lookup(sim, l);
        if (where[l] / 16 / 32 == dead)
            ck_assert_uint_ne(p / 16 / 32, dead);
        else
            ck_assert_uint_eq(p, where[l]);
    }
    st_check(sim);
    ssdsim_free(sim);
    ssdsim_model_free(m);
}
END_TEST

/* The same drive after GC churn: 1024 logical pages written once, then overwritten 8 times at
 * random (a GC'd drive: every superblock has been collected several times), then die 1 fails.
 * Stripes are written into superblocks (the same block of every die) and GC collects a whole
 * superblock, so every stripe's parity lives as long as its data: every read of a page the
 * failed die holds is reconstructed from the other pages of its stripe (at most g - 1 = 3 of
 * them, at least the parity page), none is unrecoverable. Then the host goes on writing while
 * the (slow) rebuild runs, so GC collects superblocks that still hold pages of the failed die:
 * it reconstructs and copies them; nothing is lost, the rebuild ends, every logical page ends on
 * a live die and reads back without reconstruction. */
START_TEST(test_fault_die_failure_after_gc)
{
    ssdsim_model *m = drive(64, "1", ",\"reliability\":{\"rebuild_rate\":1000}");
    ssdsim_error e;
    ck_assert_int_eq(ssdsim_model_set(m, "ftl.parity_group", "4", &e), 0);
    ssdsim *sim = st_sim(m, 7);
    const uint64_t n = 1024;
    fill(sim, n);
    st_run(sim, "{\"rw\":\"randwrite\",\"bs\":\"4k\",\"iodepth\":8,\"size\":\"4M\",\"norandommap\":true,"
                "\"number_ios\":8192}",
           NULL);
    ssdsim_device_stats d;
    ssdsim_get_device_stats(sim, &d);
    if (getenv("TEST_FAULT_VERBOSE"))
        fprintf(stderr, "GC copied %llu pages, WAF %.3f\n", (unsigned long long)d.gc_pages_copied, d.waf);
    /* GC has run: the flash was written over twice and more, and copies were made */
    ck_assert_uint_gt(d.flash_pages_programmed, 2 * 4096);
    ck_assert_uint_gt(d.gc_pages_copied, 0);
    st_check(sim);
    static uint64_t on_die[1024];
    uint64_t k = 0;
    for (uint64_t l = 0; l < n; l++) {
        uint64_t p = ssdsim_lookup(sim, l);
        ck_assert_uint_ne(p, UINT64_MAX);
        if (p / 16 / 64 == 1)
            on_die[k++] = l;
    }
    ck_assert_uint_gt(k, 128); /* about a quarter */
    ck_assert_int_eq(ssdsim_fail_die(sim, 1, 0, 0, ssdsim_now(sim)), 0);
    ck_assert_uint_eq(read_all(sim, on_die + 1, k - 1), k - 1);
    ssdsim_fault_stats s = faults(sim);
    ck_assert_uint_eq(s.die_pages, k);
    ck_assert_uint_eq(s.unrecoverable_reads, 0);
    ck_assert_uint_eq(s.reconstructed_reads, k - 1);
    ck_assert_uint_le(s.reconstruct_pages_read, 3 * (k - 1));
    ck_assert_uint_ge(s.reconstruct_pages_read, k - 1);
    if (getenv("TEST_FAULT_VERBOSE"))
        fprintf(stderr, "after GC churn: %llu pages on die 1, %llu reads reconstructed (%llu "
                        "pages read), %llu unrecoverable\n",
                (unsigned long long)k, (unsigned long long)s.reconstructed_reads,
                (unsigned long long)s.reconstruct_pages_read,
                (unsigned long long)s.unrecoverable_reads);
    st_check(sim);
    /* writes during the rebuild: GC meets the failed die's pages in its victims */
    st_run(sim, "{\"rw\":\"randwrite\",\"bs\":\"4k\",\"iodepth\":8,\"size\":\"4M\",\"norandommap\":true,"
                "\"number_ios\":2048}",
           NULL);
    ssdsim_get_device_stats(sim, &d); /* (this run's) */
    ck_assert_uint_gt(d.gc_pages_copied, 0);
    st_check(sim);
    s = faults(sim);
    if (getenv("TEST_FAULT_VERBOSE"))
        fprintf(stderr, "writes during the rebuild: %llu of the die's pages moved (%llu pages "
                        "read), %llu lost, rebuild done: %d\n",
                (unsigned long long)s.rebuild_pages, (unsigned long long)s.rebuild_pages_read,
                (unsigned long long)s.rebuild_lost, s.rebuild_done);
    /* the rebuild's own steps are 4.096 s apart: the run (milliseconds) saw one at most; the
     * others were moved by GC */
    ck_assert_uint_gt(s.rebuild_pages, 1);
    ck_assert_uint_eq(s.rebuild_lost, 0);
    ck_assert_int_eq(ssdsim_idle(sim, (k + 1) * 4096000000ull), 0);
    s = faults(sim);
    ck_assert(s.rebuild_done);
    ck_assert_uint_eq(s.rebuild_lost, 0);
    ck_assert_uint_eq(s.unrecoverable_reads, 0);
    static uint64_t all[1024];
    for (uint64_t l = 0; l < n; l++) {
        all[l] = l;
        uint64_t p = ssdsim_lookup(sim, l);
        ck_assert_uint_ne(p, UINT64_MAX);
        ck_assert_uint_ne(p / 16 / 64, 1);
    }
    uint64_t before = s.reconstructed_reads;
    ck_assert_uint_eq(read_all(sim, all, n), n);
    s = faults(sim);
    ck_assert_uint_eq(s.reconstructed_reads, before);
    ck_assert_uint_eq(s.unrecoverable_reads, 0);
    st_check(sim);
    ssdsim_free(sim);
    ssdsim_model_free(m);
}
END_TEST

/* The failure's time is on the simulation's clock (ssdsim_fail_die): a run that ends before it
 * leaves it pending, and the next run that reaches it fails the die then, at that time. */
START_TEST(test_fault_die_failure_in_later_run)
{
    ssdsim_model *m = drive(64, "1", NULL);
    ssdsim *sim = st_sim(m, 1);
    const uint64_t at = ssdsim_now(sim) + 50000000; /* 50 ms */
    ck_assert_int_eq(ssdsim_fail_die(sim, 1, 0, 0, at), 0);
    st_run(sim, "{\"rw\":\"randwrite\",\"bs\":\"4k\",\"iodepth\":4,\"runtime\":\"10ms\"}", NULL);
    ck_assert_uint_lt(ssdsim_now(sim), at);
    ssdsim_fault_stats s = faults(sim);
    ck_assert(!s.die_failed);
    ck_assert(s.die_fail_pending);
    ck_assert_uint_eq(s.die_failed_ns, at);
    st_run(sim,
           "{\"rw\":\"randwrite\",\"bs\":\"4k\",\"iodepth\":4,\"runtime\":\"100ms\","
           "\"time_based\":1}",
           NULL);
    ck_assert_uint_gt(ssdsim_now(sim), at);
    s = faults(sim);
    ck_assert(s.die_failed);
    ck_assert(!s.die_fail_pending);
    ck_assert_uint_eq(s.failed_channel, 1);
    ck_assert_uint_eq(s.die_failed_ns, at);
    ck_assert_uint_ge(s.die_failed_ns, s.run_start_ns); /* in the second run */
    st_check(sim);
    ssdsim_free(sim);
    ssdsim_model_free(m);
}
END_TEST

START_TEST(test_fault_die_failure_bad_input)
{
    ssdsim_model *m = drive(64, "1", NULL);
    ssdsim *sim = st_sim(m, 1);
    ck_assert_int_eq(ssdsim_fail_die(sim, 4, 0, 0, 0), SSDSIM_EINVAL);
    ck_assert_ptr_nonnull(strstr(ssdsim_errmsg(sim), "outside the geometry"));
    ck_assert_int_eq(ssdsim_fail_die(sim, 0, 1, 0, 0), SSDSIM_EINVAL);
    ck_assert_int_eq(ssdsim_fail_die(NULL, 0, 0, 0, 0), SSDSIM_EINVAL);
    st_one(sim, SSDSIM_OP_WRITE, 0, 4096);
    ck_assert_int_eq(ssdsim_fail_die(sim, 0, 0, 0, 0), SSDSIM_EINVAL); /* in the past */
    ck_assert_ptr_nonnull(strstr(ssdsim_errmsg(sim), "before now"));
    ck_assert_int_eq(ssdsim_fail_die(sim, 0, 0, 0, ssdsim_now(sim) + 10), 0);
    ck_assert_int_eq(ssdsim_fail_die(sim, 2, 0, 0, ssdsim_now(sim) + 10), SSDSIM_EINVAL);
    ssdsim_free(sim);
    /* a parity group larger than the dies */
    ssdsim_error e;
    ck_assert_int_ne(ssdsim_model_set(m, "ftl.parity_group", "5", &e), 0);
    ck_assert_ptr_nonnull(strstr(e.message, "ftl.parity_group"));
    ssdsim_model_free(m);
}
END_TEST

static Suite *fault_suite(void)
{
    Suite *s = suite_create("fault");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 600);
    tcase_add_test(tc, test_fault_factory_bad_blocks);
    tcase_add_test(tc, test_fault_bad_blocks_raise_waf);
    tcase_add_test(tc, test_fault_grown_bad_blocks_read_only);
    tcase_add_test(tc, test_fault_added_wear_fails_blocks);
    tcase_add_test(tc, test_fault_power_loss_volatile);
    tcase_add_test(tc, test_fault_power_loss_protected);
    tcase_add_test(tc, test_fault_power_loss_in_run);
    tcase_add_test(tc, test_fault_bad_input);
    tcase_add_test(tc, test_fault_die_failure);
    tcase_add_test(tc, test_fault_die_failure_bad_input);
    tcase_add_test(tc, test_fault_die_failure_in_later_run);
    tcase_add_test(tc, test_fault_die_failure_after_gc);
    tcase_add_test(tc, test_fault_plane_failure);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return test_run_suite(fault_suite());
}
