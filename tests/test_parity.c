/* test_parity.c: RAIN parity inside the drive (ftl.parity_group, ftl/page_parity.c), against
 * figures derived by hand: the WAF of sequential writes, the steady WAF of uniform random
 * writes under a uniformly random GC victim, the die time parity programs cost, the spare
 * space it takes, the refusals of impossible groups, and that a model without the key runs as
 * before. */
#include <check.h>
#include <glib.h>
#include <math.h>
#include <stdlib.h>

#include "ftl/page_int.h"
#include "sim.h"
#include "simtest.h"
#include "ssdsim/sys/gc.h"

/* 4 dies, one per channel (each die's program is its own 40.96 us transfer at 100 MT/s x 8,
 * then tPROG 20 us), one plane of `blocks` blocks of 16 pages, op as given. */
static ssdsim_model *drive(uint32_t blocks, const char *op, const char *extra)
{
    g_autofree char *json = g_strdup_printf(
        "{\"name\":\"rain\",\"geometry\":{\"channels\":4,\"chips_per_channel\":1,"
        "\"dies_per_chip\":1,\"planes_per_die\":1,\"blocks_per_plane\":%u,"
        "\"pages_per_block\":16,\"page_size\":\"4KiB\"},"
        "\"flash\":{\"cell\":\"slc\",\"read_us\":10,\"program_us\":20,\"erase_us\":1000,"
        "\"bus_mts\":100,\"bus_width\":8},"
        "\"controller\":{\"cmd_overhead_us\":1,\"cores\":4,\"queue_depth\":64},"
        "\"host\":{\"link_bw\":\"4000MB/s\",\"cmd_overhead_us\":1},"
        "\"ftl\":{\"op\":%s%s}}",
        blocks, op, extra ? extra : "");
    ssdsim_model *m = NULL;
    ssdsim_error err;
    int rc = ssdsim_model_load_string(&m, json, "test_parity model", &err);
    ck_assert_msg(rc == 0, "%s", err.message);
    return m;
}

static ssdsim_device_stats dev_stats(ssdsim *sim)
{
    ssdsim_device_stats d;
    ck_assert_int_eq(ssdsim_get_device_stats(sim, &d), 0);
    return d;
}

/* Sequential writes on a fresh drive (no GC): every g - 1 host pages one parity page, so WAF
 * is g / (g - 1) exactly when the pages written are a multiple of g - 1. 64 blocks x 16 pages
 * x 4 dies = 4096 pages, op 1.5: 1638 logical; 1260 host pages (a multiple of 1, 2 and 3). */
START_TEST(test_parity_sequential_waf_is_g_over_g_minus_1)
{
    static const uint32_t groups[] = {2, 3, 4};
    for (size_t i = 0; i < 3; i++) {
        uint32_t g = groups[i];
        g_autofree char *extra = g_strdup_printf(",\"parity_group\":%u", g);
        ssdsim_model *m = drive(64, "1.5", extra);
        ssdsim *sim = st_sim(m, 1);
        st_run(sim, "{\"rw\":\"write\",\"bs\":\"4k\",\"iodepth\":8,\"number_ios\":1260}", NULL);
        ssdsim_device_stats d = dev_stats(sim);
        ck_assert_uint_eq(d.host_pages_written, 1260);
        ck_assert_uint_eq(d.parity_pages_written, 1260 / (g - 1));
        ck_assert_uint_eq(d.flash_pages_programmed, 1260 + 1260 / (g - 1));
        ck_assert_uint_eq(d.gc_pages_copied, 0);
        ck_assert_double_eq_tol(d.waf, (double)g / (g - 1), 1e-12);
        ck_assert_uint_eq(d.parity_group, g);
        st_check(sim);
        /* the spare left to GC shrinks by one page in g: (4096 - 1638 - 4096 / g - the
         * reserve of 2 free + 2 open blocks per plane, 4 x 4 x 16 pages) / 4096 */
        double want = (4096.0 - 1638 - floor(4096.0 / g) - 4 * 4 * 16) / 4096;
        ck_assert_double_eq_tol(d.spare_factor_effective, want, 1e-12);
        ssdsim_free(sim);
        ssdsim_model_free(m);
    }
}
END_TEST

/* Uniform random 4 KiB writes on a full drive, GC choosing its victim uniformly at random.
 * Per victim of b pages holding a fraction v of valid pages, GC copies v b pages, and every
 * page programmed (host or copy) brings 1 / (g - 1) parity page, so the b freed pages take
 * (v b + h) g / (g - 1) programs for h host pages: h = b ((g - 1) / g - v) and
 * WAF = b / h = 1 / ((g - 1) / g - v). A uniformly random closed block holds the average
 * valid fraction v = L / C, the logical pages over the pages in closed blocks: C is the flash
 * less the free blocks GC keeps (gc.free_blocks_min 2) and the two open frontiers (half full
 * on average), 3 blocks per plane. This is the data's WAF on the spare parity leaves,
 * 1 / (1 - v g / (g - 1)), times g / (g - 1).
 * 4 dies x 512 blocks x 16 pages = 32768 pages, op 1: L = 16384, C = 32768 - 4 x 3 x 16 =
 * 32576; g = 4: WAF = 1 / (0.75 - 16384 / 32576) = 4.0477. Without parity the same drive's
 * WAF is 1 / (1 - v) = 2.0119, below it. */
START_TEST(test_parity_random_waf_matches_analytic)
{
    ssdsim_model *m = drive(512, "1", ",\"parity_group\":4},\"gc\":{\"policy\":\"random\"");
    ssdsim *sim = st_sim(m, 3);
    ck_assert_int_eq(ssdsim_precondition_seq(sim), 0);
    /* warm up: 6 logical capacities of random writes, then measure 6 more */
    st_run(sim, "{\"rw\":\"randwrite\",\"bs\":\"4k\",\"iodepth\":8,\"number_ios\":98304}", NULL);
    st_run(sim, "{\"rw\":\"randwrite\",\"bs\":\"4k\",\"iodepth\":8,\"number_ios\":98304}", NULL);
    ssdsim_device_stats d = dev_stats(sim);
    double v = 16384.0 / (32768 - 4 * 3 * 16);
    double want = 1.0 / (0.75 - v);
    ck_assert_double_eq_tol(want, 4.0477, 0.0001);
    ck_assert_msg(fabs(d.waf / want - 1) < 0.02, "WAF %.4f, derived %.4f", d.waf, want);
    if (getenv("TEST_PARITY_VERBOSE"))
        fprintf(stderr, "random WAF %.4f, derived %.4f\n", d.waf, want);
    /* parity pages: one per 3 data pages programmed (host and GC stripes apart, so within the
     * two stripes open at either end of the measurement) */
    uint64_t data = d.flash_pages_programmed - d.parity_pages_written;
    ck_assert_uint_le(d.parity_pages_written, data / 3 + 2);
    ck_assert_uint_ge(d.parity_pages_written + 2, data / 3);
    st_check(sim);
    ssdsim_free(sim);
    ssdsim_model_free(m);
}
END_TEST

/* Greedy GC of superblocks under uniform random writes against the mean-field model of greedy
 * (ssdsim_theory_waf, Van Houdt 2013). GC collects whole superblocks, so the drive is a drive of
 * superblocks: 1024 of them, each the same block of the 4 dies, 4 x 16 = 64 pages, of which
 * 48 hold data (3 data pages and a parity page in every 4 slots: 64 / 4 = 16 whole stripes).
 * Parity pages are garbage from their program on, so for the data a superblock is a block of
 * b = 48 pages, and the data's spare is what is left of the closed superblocks' data pages after
 * the logical pages: C = (65536 - 3 x 64) x 3 / 4 data pages (the flash less the 2 free
 * superblocks GC keeps and the host's and GC's open ones, half full on average), sf = 1 - L / C.
 * Every data page programmed brings 1/3 parity page: WAF = greedy(b = 48, sf) x 4 / 3. Within
 * the 3% test_ftl allows the simulator against the same model. */
START_TEST(test_parity_greedy_superblocks_waf_matches_theory)
{
    /* twice: GC free of firmware time, then paced by it (controller.fw_gc_page_us: each
     * member's pages read one at a time, ftl/page_gc.c), which changes when GC works, not what
     * it copies; the state is checked every 20,000 events on the way */
    for (int paced = 0; paced < 2; paced++) {
        ssdsim_model *m = drive(1024, "0.6667", ",\"parity_group\":4");
        if (paced)
            ck_assert_int_eq(ssdsim_model_set(m, "controller.fw_gc_page_us", "5", NULL), 0);
        ssdsim *sim = st_sim(m, 7);
        if (paced)
            ck_assert_int_eq(ssdsim_set_check_period(sim, 20000), 0);
        uint64_t n_logical = ssdsim_model_logical_bytes(m) / 4096;
        ck_assert_int_eq(ssdsim_precondition_seq(sim), 0);
        char wl[256];
        snprintf(wl, sizeof wl,
                 "{\"rw\":\"randwrite\",\"norandommap\":1,\"bs\":\"4k\",\"iodepth\":32,"
                 "\"number_ios\":%llu}",
                 (unsigned long long)(3 * n_logical));
        st_run(sim, wl, NULL);
        snprintf(wl, sizeof wl,
                 "{\"rw\":\"randwrite\",\"norandommap\":1,\"bs\":\"4k\",\"iodepth\":32,"
                 "\"number_ios\":%llu}",
                 (unsigned long long)n_logical);
        st_run(sim, wl, NULL);
        ssdsim_device_stats d = dev_stats(sim);
        double c = (65536.0 - 3 * 64) * 3 / 4, sf = 1 - (double)n_logical / c, greedy;
        ck_assert_int_eq(ssdsim_theory_waf("greedy", 48, sf, 0, &greedy), 0);
        double want = greedy * 4 / 3;
        if (getenv("TEST_PARITY_VERBOSE"))
            fprintf(stderr, "greedy superblocks%s: L %llu sf %.4f WAF %.4f, derived %.4f\n",
                    paced ? " (paced)" : "", (unsigned long long)n_logical, sf, d.waf, want);
        ck_assert_msg(fabs(d.waf / want - 1) < 0.03, "WAF %.4f, derived %.4f", d.waf, want);
        /* conservation: every program is a host page, a GC copy or a parity page; a parity page
         * for every 3 data pages, but for the stripes open at the two ends of the run */
        ck_assert_uint_eq(d.flash_pages_programmed,
                          d.host_pages_written + d.gc_pages_copied + d.parity_pages_written);
        uint64_t data = d.host_pages_written + d.gc_pages_copied;
        ck_assert_uint_le(d.parity_pages_written, data / 3 + 2);
        ck_assert_uint_ge(d.parity_pages_written + 2, data / 3);
        st_check(sim);
        ssdsim_free(sim);
        ssdsim_model_free(m);
    }
}
END_TEST

/* Fast preconditioning by a scaled copy of 256 blocks per plane with workload `json`; the
 * state installed must be consistent. */
static void precondition_checked(ssdsim *sim, const char *json)
{
    ssdsim_workload *w = st_workload(json);
    ssdsim_fast_precondition_opts o = {.scaled_blocks_per_plane = 256};
    int rc = ssdsim_precondition_fast(sim, w, &o);
    ck_assert_msg(rc == 0, "%s", ssdsim_errmsg(sim));
    ssdsim_workload_free(w);
    st_check(sim);
}

/* Fast preconditioning (the scaled copy's state installed) lays the written superblocks out as
 * the writers would have written them, stripes and parity included: the state is consistent,
 * the next random writes run at the greedy figure above (the same drive, within the 3%, here
 * from the first capacity written), and a die failure right after loses nothing: every read of
 * its pages is reconstructed from a whole stripe. */
START_TEST(test_parity_fast_precondition_lays_out_stripes)
{
    ssdsim_model *m = drive(1024, "0.6667", ",\"parity_group\":4");
    ssdsim *sim = st_sim(m, 7);
    uint64_t n_logical = ssdsim_model_logical_bytes(m) / 4096;
    precondition_checked(
        sim, "{\"rw\": \"randwrite\", \"bs\": \"4k\", \"iodepth\": 32, \"norandommap\": true}");
    char wl[256];
    snprintf(wl, sizeof wl,
             "{\"rw\":\"randwrite\",\"norandommap\":1,\"bs\":\"4k\",\"iodepth\":32,"
             "\"number_ios\":%llu}",
             (unsigned long long)n_logical);
    st_run(sim, wl, NULL);
    ssdsim_device_stats d = dev_stats(sim);
    double c = (65536.0 - 3 * 64) * 3 / 4, sf = 1 - (double)n_logical / c, greedy;
    ck_assert_int_eq(ssdsim_theory_waf("greedy", 48, sf, 0, &greedy), 0);
    double want = greedy * 4 / 3;
    if (getenv("TEST_PARITY_VERBOSE"))
        fprintf(stderr, "installed: WAF %.4f, derived %.4f\n", d.waf, want);
    ck_assert_msg(fabs(d.waf / want - 1) < 0.03, "WAF %.4f, derived %.4f", d.waf, want);
    st_check(sim);
    /* die 1 fails: every logical page on it is read back through its stripe */
    ck_assert_int_eq(ssdsim_fail_die(sim, 1, 0, 0, ssdsim_now(sim)), 0);
    uint64_t k = 0;
    for (uint64_t l = 0; l < n_logical; l++) {
        uint64_t p = ssdsim_lookup(sim, l);
        if (p / 16 / 1024 != 1)
            continue;
        k++;
        st_one(sim, SSDSIM_OP_READ, l * 4096, 4096);
    }
    ck_assert_uint_gt(k, n_logical / 5);
    ssdsim_fault_stats fs;
    ck_assert_int_eq(ssdsim_get_fault_stats(sim, &fs), 0);
    ck_assert_uint_eq(fs.unrecoverable_reads, 0);
    ck_assert_uint_ge(fs.reconstructed_reads + 1, k); /* (the rebuild moves one at once) */
    st_check(sim);
    ssdsim_free(sim);
    ssdsim_model_free(m);
}
END_TEST

/* Fast preconditioning with foreground GC one superblock at a time (gc 2 / 3, as the real
 * models collect) and a mixed-size workload: the image keeps the scaled copy's frontiers' room
 * free (precond.c), so its written superblocks hold the data beside their parity. It used to be
 * refused ("cannot hold ... with parity (1 left over)"): the frontiers, made full closed
 * superblocks, left the image tighter than the copy. The state is consistent, and the
 * workload's writes then run on it with garbage collection (conservation of programs). */
START_TEST(test_parity_fast_precondition_tight_free)
{
    ssdsim_model *m = drive(1024, "0.6667",
                            ",\"parity_group\":4},\"gc\":{\"free_blocks_min\":2,"
                            "\"free_blocks_target\":3");
    ssdsim *sim = st_sim(m, 1);
    const char *mix = "{\"rw\": \"randrw\", \"bssplit\": \"512/10:1k/5:2k/5:4k/60:8k/2:16k/4:"
                      "32k/4:64k/10\", \"rwmixread\": 80, \"numjobs\": 16, \"iodepth\": 16, "
                      "\"norandommap\": true";
    g_autofree char *pre = g_strdup_printf("%s}", mix);
    precondition_checked(sim, pre);
    g_autofree char *run = g_strdup_printf("%s, \"number_ios\": 40000}", mix);
    st_run(sim, run, NULL);
    ssdsim_device_stats d = dev_stats(sim);
    ck_assert_uint_gt(d.gc_pages_copied, 0);
    ck_assert_uint_eq(d.flash_pages_programmed,
                      d.host_pages_written + d.gc_pages_copied + d.parity_pages_written);
    st_check(sim);
    ssdsim_free(sim);
    ssdsim_model_free(m);
}
END_TEST

/* The die time of parity programs. Write-through sequential 4 KiB writes at queue depth 64 on
 * a fresh drive keep all 4 dies programming; each program holds its die for its transfer and
 * tPROG, 40.96 + 20 = 60.96 us, and the host link (1 us per command + 1.024 us per 4 KiB, 4
 * cores) is far from the limit. Without parity: 4 pages per 60.96 us, 65,617 pages/s. With
 * g = 4 each 3 host pages cost 4 programs: 3 host pages per 60.96 us, 49,213 pages/s, the
 * factor (g - 1) / g. 3000 host pages: the ramp at the start and the drain at the end are
 * one program each, under 2% of the run. */
START_TEST(test_parity_costs_die_time)
{
    const double per_prog_s = 60.96e-6;
    for (int on = 0; on <= 1; on++) {
        ssdsim_model *m = drive(64, "1", on ? ",\"parity_group\":4" : NULL);
        ssdsim *sim = st_sim(m, 1);
        st_run(sim, "{\"rw\":\"write\",\"bs\":\"4k\",\"iodepth\":64,\"number_ios\":3000}", NULL);
        ssdsim_op_stats w;
        ck_assert_int_eq(ssdsim_get_op_stats(sim, SSDSIM_OP_WRITE, &w), 0);
        double want = on ? 3.0 / per_prog_s : 4.0 / per_prog_s;
        ck_assert_msg(fabs(w.iops / want - 1) < 0.02, "parity %d: %.0f IOPS, derived %.0f", on,
                      w.iops, want);
        ssdsim_free(sim);
        ssdsim_model_free(m);
    }
}
END_TEST

/* GC copies of a superblock take the writer's next slots on any die, so copyback has no
 * same-plane program to serve: with flash.copyback on, every GC read still moves its page out
 * (no copyback counted) and the run's figures are those of the drive without copyback. Before,
 * reads went without data and copies to another die were programmed from data that had never
 * crossed the channel. */
START_TEST(test_parity_gc_copies_cross_the_channel)
{
    const char *wl = "{\"rw\":\"randwrite\",\"bs\":\"4k\",\"iodepth\":16,"
                     "\"number_ios\":6000}";
    ssdsim_op_stats w[2];
    for (int cb = 0; cb <= 1; cb++) {
        ssdsim_model *m = drive(32, "0.7", ",\"parity_group\":4");
        ssdsim_error err;
        if (cb)
            ck_assert_int_eq(ssdsim_model_set(m, "flash.copyback", "true", &err), 0);
        ssdsim *sim = st_sim(m, 3);
        ck_assert_int_eq(ssdsim_precondition_seq(sim), 0);
        st_run(sim, wl, NULL);
        ssdsim_device_stats d = dev_stats(sim);
        ck_assert_uint_gt(d.gc_pages_copied, 1000);
        ck_assert_uint_eq(d.nand_copybacks, 0);
        ck_assert_int_eq(ssdsim_get_op_stats(sim, SSDSIM_OP_WRITE, &w[cb]), 0);
        st_check(sim);
        ssdsim_free(sim);
        ssdsim_model_free(m);
    }
    ck_assert_double_eq(w[0].iops, w[1].iops);
    ck_assert_uint_eq(w[0].lat_max_ns, w[1].lat_max_ns);
}
END_TEST

/* Without the key nothing changes: the model prints no parity key, the results carry no parity
 * block, and a run's results are the same text as with "parity_group": 0. */
START_TEST(test_parity_absent_changes_nothing)
{
    ssdsim_model *a = drive(64, "1", NULL);
    ssdsim_model *b = drive(64, "1", ",\"parity_group\":0");
    char *ja = ssdsim_model_to_json(a);
    ck_assert_ptr_null(strstr(ja, "parity"));
    char *jb = ssdsim_model_to_json(b);
    ck_assert_str_eq(ja, jb);
    free(ja);
    free(jb);
    const char *wl = "{\"rw\":\"randwrite\",\"bs\":\"4k\",\"iodepth\":8,\"number_ios\":6000}";
    ssdsim *sa = st_sim(a, 5), *sb = st_sim(b, 5);
    st_run(sa, wl, NULL);
    st_run(sb, wl, NULL);
    char *ra = st_results_json(sa, a), *rb = st_results_json(sb, b);
    ck_assert_str_eq(ra, rb);
    ck_assert_ptr_null(strstr(ra, "\"parity\""));
    free(ra);
    free(rb);
}
END_TEST

/* Superblock GC keeps no valid-count lists of the blocks themselves (gc/gc.h), yet the plane
 * view a wear leveler is given still answers its valid-count questions, by scanning: the
 * candidate with the fewest valid pages, the earliest to reach its count, the lowest number,
 * checked against every plane's blocks read one by one; a count no candidate has gives no
 * block; the state checks hold (the lists stay empty). */
START_TEST(test_parity_plane_view_without_lists)
{
    ssdsim_model *m = drive(64, "1", ",\"parity_group\":4");
    ssdsim *sim = st_sim(m, 9);
    ck_assert_int_eq(ssdsim_precondition_seq(sim), 0);
    st_run(sim, "{\"rw\":\"randwrite\",\"bs\":\"4k\",\"iodepth\":8,\"number_ios\":3000}",
           NULL);
    const struct ssdsim__ftl *f = ((struct ssdsim *)sim)->sys.devs[0].env.state;
    const ssdsim_view *v = ssdsim__page_view(f);
    uint32_t checked = 0;
    for (uint32_t p = 0; p < f->n_planes; p++) {
        uint32_t want = SSDSIM_NO_BLOCK, n = 0;
        bool has[17] = {false};
        for (uint32_t b = p * f->bpp; b < (p + 1) * f->bpp; b++) {
            if (f->state[b] != SSDSIM__BLK_CLOSED)
                continue;
            n++;
            has[f->valid[b]] = true;
            if (want == SSDSIM_NO_BLOCK || f->valid[b] < f->valid[want] ||
                (f->valid[b] == f->valid[want] && f->modified_at[b] < f->modified_at[want]))
                want = b; /* (blocks in increasing order: the lowest wins a tie) */
        }
        ck_assert_uint_eq(ssdsim_view_n_candidates(v, p), n);
        ck_assert_uint_gt(n, 0);
        ck_assert_uint_eq(ssdsim_view_fewest_valid(v, p), want);
        ck_assert_uint_eq(ssdsim_view_least_recent(v, p, f->valid[want]), want);
        for (uint32_t c = 0; c <= 16; c++)
            if (!has[c])
                ck_assert_uint_eq(ssdsim_view_least_recent(v, p, c), SSDSIM_NO_BLOCK);
        ck_assert_uint_eq(ssdsim_view_least_recent(v, p, 17), SSDSIM_NO_BLOCK);
        checked++;
    }
    ck_assert_uint_eq(checked, 4);
    st_check(sim);
    ssdsim_free(sim);
    ssdsim_model_free(m);
}
END_TEST

/* The stripe record walks its superblock's slot order over the slots a writer skipped: with
 * factory bad blocks (a tenth of each plane's, so that some superblocks miss a member) and
 * stripes of 2 data pages and a parity page over 4 dies, every page of a sealed stripe names the
 * same stripe, whichever of its pages is asked: 2 or 3 pages, each on its own die, all in one
 * superblock; and stripes in superblocks with a missing member are among them. */
START_TEST(test_parity_stripes_over_skipped_slots)
{
    ssdsim_model *m =
        drive(64, "1", ",\"parity_group\":3},\"reliability\":{\"bad_fraction\":0.1");
    ssdsim *sim = st_sim(m, 4);
    ck_assert_int_eq(ssdsim_precondition_seq(sim), 0);
    st_run(sim, "{\"rw\":\"randwrite\",\"bs\":\"4k\",\"iodepth\":8,\"number_ios\":3000}",
           NULL);
    const struct ssdsim__ftl *f = ((struct ssdsim *)sim)->sys.devs[0].env.state;
    uint32_t out[8], out2[8];
    uint64_t sealed = 0, beside_bad = 0;
    for (uint32_t ppn = 0; ppn < f->n_ppn; ppn++) {
        uint32_t n = ssdsim__page_parity_mates(f, ppn, out, 8);
        uint32_t blk = ppn / f->ppb, members = 0;
        for (uint32_t p = 0; p < f->n_planes; p++)
            members += f->state[p * f->bpp + blk % f->bpp] != SSDSIM__BLK_BAD;
        /* a valid page of a closed superblock with members on 3 dies or more is in a sealed
         * stripe (only writers' open superblocks hold pages of open stripes) */
        if ((f->live[ppn >> 6] >> (ppn & 63) & 1) && f->state[blk] == SSDSIM__BLK_CLOSED &&
            members >= 3)
            ck_assert_msg(n > 0, "valid page %u of a closed superblock is in no stripe", ppn);
        if (n == 0)
            continue;
        sealed++;
        ck_assert_uint_ge(n, 1);
        ck_assert_uint_le(n, 2);
        uint32_t sb = ppn / f->ppb % f->bpp, die = ppn / f->ppb / f->bpp / f->ppd;
        for (uint32_t i = 0; i < n; i++) {
            ck_assert_uint_eq(out[i] / f->ppb % f->bpp, sb);
            ck_assert_uint_ne(out[i] / f->ppb / f->bpp / f->ppd, die);
            for (uint32_t j = 0; j < i; j++)
                ck_assert_uint_ne(out[i] / f->ppb / f->bpp / f->ppd,
                                  out[j] / f->ppb / f->bpp / f->ppd);
            /* the same stripe from out[i]: its mates are ppn and the others */
            ck_assert_uint_eq(ssdsim__page_parity_mates(f, out[i], out2, 8), n);
            for (uint32_t j = 0; j <= n; j++) {
                uint32_t want = j == n ? ppn : out[j];
                if (want == out[i])
                    continue;
                bool found = false;
                for (uint32_t k = 0; k < n; k++)
                    found = found || out2[k] == want;
                ck_assert_msg(found, "page %u's stripe does not hold page %u seen from page %u",
                              ppn, want, out[i]);
            }
        }
        bool bad = false;
        for (uint32_t p = 0; p < f->n_planes; p++)
            bad = bad || f->state[p * f->bpp + sb] == SSDSIM__BLK_BAD;
        beside_bad += bad;
    }
    ck_assert_uint_gt(sealed, 1000);
    ck_assert_uint_gt(beside_bad, 0);
    st_check(sim);
    ssdsim_free(sim);
    ssdsim_model_free(m);
}
END_TEST

/* Impossible groups are refused with one line naming the key. */
static void refused(const char *json_extra, const char *ftl_op, const char *want)
{
    g_autofree char *json = g_strdup_printf(
        "{\"name\":\"rain\",\"geometry\":{\"channels\":4,\"chips_per_channel\":1,"
        "\"dies_per_chip\":1,\"planes_per_die\":1,\"blocks_per_plane\":64,"
        "\"pages_per_block\":16,\"page_size\":\"4KiB\"},"
        "\"flash\":{\"cell\":\"slc\",\"read_us\":10,\"program_us\":20,\"erase_us\":1000,"
        "\"bus_mts\":100,\"bus_width\":8},\"ftl\":{\"op\":%s%s}}",
        ftl_op, json_extra);
    ssdsim_model *m = NULL;
    ssdsim_error err;
    ck_assert_int_eq(ssdsim_model_load_string(&m, json, "bad", &err), SSDSIM_ECONFIG);
    ck_assert_ptr_null(m);
    ck_assert_msg(strstr(err.message, "ftl.parity_group") != NULL, "%s", err.message);
    ck_assert_msg(strstr(err.message, want) != NULL, "%s", err.message);
    ck_assert_ptr_null(strchr(err.message, '\n'));
}

START_TEST(test_parity_bad_input)
{
    refused(",\"parity_group\":5", "1", "the drive has 4 dies");
    refused(",\"parity_group\":1", "1", "expected 0 (no parity) or 2 or more");
    refused(",\"parity_group\":4,\"type\":\"dftl\"", "1", "\"page\" FTL only");
    /* op 0.28: 3200 logical of 4096 pages; parity at g = 4 takes 1024 */
    refused(",\"parity_group\":4", "0.28", "leave less flash than the logical capacity");
    /* op 1.2: 1861 logical; g = 4 leaves (4096 - 1024 - 1861) / 16 / 4 = 18 spare blocks per
     * plane, g = 2 leaves (4096 - 2048 - 1861) / 64 = 2, under the 4 GC needs */
    refused(",\"parity_group\":2", "1.2", "leave 2 spare blocks per plane");
}
END_TEST

static Suite *parity_suite(void)
{
    Suite *s = suite_create("parity");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, test_parity_sequential_waf_is_g_over_g_minus_1);
    tcase_add_test(tc, test_parity_random_waf_matches_analytic);
    tcase_add_test(tc, test_parity_greedy_superblocks_waf_matches_theory);
    tcase_add_test(tc, test_parity_fast_precondition_lays_out_stripes);
    tcase_add_test(tc, test_parity_fast_precondition_tight_free);
    tcase_add_test(tc, test_parity_costs_die_time);
    tcase_add_test(tc, test_parity_gc_copies_cross_the_channel);
    tcase_add_test(tc, test_parity_absent_changes_nothing);
    tcase_add_test(tc, test_parity_bad_input);
    tcase_add_test(tc, test_parity_plane_view_without_lists);
    tcase_add_test(tc, test_parity_stripes_over_skipped_slots);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return test_run_suite(parity_suite());
}
