/* test_ftl.c: the page-mapped FTL and greedy GC against figures derived without the simulator:
 * steady-state write amplification of uniform random writes (the mean-field value for greedy,
 * and an independent abstract model computed here), sequential overwrite (WAF 1), TRIM,
 * read-modify-write, conservation laws and the consistency of every mapping array. */
#include <stdlib.h>

#include "ftl/page.h"
#include "ftl/reserve.h"
#include "gc/gc.h"
#include "sim.h"
#include "simtest.h"

/* One plane of 4096 blocks x 64 pages of 4 KiB, op 0.25 (spare factor 0.20). With one plane, the
 * free-block reserve and the two open blocks are 4/4096 of the blocks: the model's assumptions
 * (one write frontier, negligible reserve) hold. */
/* The page FTL's state inside a simulation. */
static struct ssdsim__ftl *page_of(ssdsim *sim)
{
    return ((struct ssdsim *)sim)->sys.devs[0].env.state;
}

static uint64_t flash_reads(ssdsim *sim)
{
    const struct ssdsim__env_counters *n = &((struct ssdsim *)sim)->sys.devs[0].env.n;
    uint64_t r = 0;
    for (int i = 0; i < SSDSIM__N_PURPOSES; i++)
        r += n->reads[i];
    return r;
}

static ssdsim_model *waf_model(const char *op)
{
    char op_kv[64];
    snprintf(op_kv, sizeof op_kv, "ftl.op=%s", op);
    return st_model("generic-mlc", "geometry.channels=1", "geometry.chips_per_channel=1",
                    "geometry.dies_per_chip=1", "geometry.planes_per_die=1",
                    "geometry.blocks_per_plane=4096", "geometry.pages_per_block=64", op_kv,
                    NULL);
}

/* The abstract model, written independently of the FTL: N blocks of b pages, U logical pages,
 * uniform random single-page writes into one frontier, greedy victim (fewest valid) when fewer
 * than two blocks are free, its valid pages rewritten into the frontier. Returns the WAF of
 * the second half of `total` writes. Victims are found by a plain scan: slow, obviously right. */
static double abstract_greedy_waf(int n_blocks, int b, long n_logical, long total, uint64_t seed)
{
    int *valid = calloc((size_t)n_blocks, sizeof *valid);
    long *l2p = malloc(sizeof *l2p * (size_t)n_logical);
    long *p2l = malloc(sizeof *p2l * (size_t)n_blocks * (size_t)b);
    char *is_free = malloc((size_t)n_blocks);
    int *free_list = malloc(sizeof *free_list * (size_t)n_blocks);
    for (long i = 0; i < n_logical; i++)
        l2p[i] = -1;
    for (long i = 0; i < (long)n_blocks * b; i++)
        p2l[i] = -1;
    int n_free = 0;
    for (int i = n_blocks - 1; i >= 0; i--) {
        free_list[n_free++] = i;
        is_free[i] = 1;
    }
    int cur = -1, ptr = b;
    long host = 0, prog = 0, warm = total / 2;
    uint64_t x = seed | 1;
    for (long w = 0; w < total; w++) {
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        long todo[1 + 4096];
        int n_todo = 0;
        todo[n_todo++] = (long)(x % (uint64_t)n_logical);
        host += w >= warm;
        for (int k = 0; k < n_todo; k++) {
            long lpn = todo[k];
            if (ptr == b) {
                cur = free_list[--n_free];
                is_free[cur] = 0;
                ptr = 0;
            }
            long ppn = (long)cur * b + ptr++;
            if (l2p[lpn] >= 0) {
                p2l[l2p[lpn]] = -1;
                valid[l2p[lpn] / b]--;
            }
            l2p[lpn] = ppn;
            p2l[ppn] = lpn;
            valid[cur]++;
            prog += w >= warm;
            if (n_free < 2) {
                int best = -1;
                for (int i = 0; i < n_blocks; i++)
                    if (!is_free[i] && i != cur && (best < 0 || valid[i] < valid[best]))
                        best = i;
                for (int p = 0; p < b; p++)
                    if (p2l[(long)best * b + p] >= 0)
                        todo[n_todo++] = p2l[(long)best * b + p];
                /* The victim's pages are rewritten below; invalidate them now. */
                for (int p = 0; p < b; p++)
                    p2l[(long)best * b + p] = -1;
                valid[best] = 0;
                for (int k2 = k + 1; k2 < n_todo; k2++)
                    l2p[todo[k2]] = -1;
                is_free[best] = 1;
                free_list[n_free++] = best;
            }
        }
    }
    free(valid);
    free(l2p);
    free(p2l);
    free(is_free);
    free(free_list);
    return (double)prog / (double)host;
}

START_TEST(test_ftl_greedy_uniform_random_waf_matches_theory)
{
    ssdsim_model *m = waf_model("0.25");
    ssdsim *sim = st_sim(m, 7);
    uint64_t n_logical = ssdsim_model_logical_bytes(m) / 4096;
    /* Fill the logical space once sequentially (so no page is left unwritten, which would act
     * as extra spare), warm up with three times the logical space in random writes, then
     * measure one more. */
    ck_assert_int_eq(ssdsim_precondition_seq(sim), 0);
    char wl[256];
    snprintf(wl, sizeof wl,
             "{\"rw\":\"randwrite\",\"norandommap\":1,\"bs\":\"4k\",\"iodepth\":32,\"number_ios\":%llu}",
             (unsigned long long)(3 * n_logical));
    st_run(sim, wl, NULL);
    snprintf(wl, sizeof wl,
             "{\"rw\":\"randwrite\",\"norandommap\":1,\"bs\":\"4k\",\"iodepth\":32,\"number_ios\":%llu}",
             (unsigned long long)n_logical);
    st_run(sim, wl, NULL);
    ssdsim_device_stats d;
    ssdsim_get_device_stats(sim, &d);
    ck_assert_double_eq_tol(d.spare_factor, 0.20, 1e-6);
    /* The mean-field model of greedy GC (Van Houdt 2013; Bux and Iliadis 2010) gives a
     * steady-state WAF of 2.60 for b = 64 and spare factor 0.20. */
    ck_assert_msg(d.waf > 2.60 * 0.97 && d.waf < 2.60 * 1.03, "WAF %.4f, theory 2.60", d.waf);
    /* The abstract model with the same geometry, computed here. */
    double abstract = abstract_greedy_waf(4096, 64, (long)n_logical, 8 * (long)n_logical, 3);
    ck_assert_msg(d.waf > abstract * 0.98 && d.waf < abstract * 1.02,
                  "WAF %.4f, abstract model %.4f", d.waf, abstract);
    /* Conservation: every programmed page is a host page or a GC copy. */
    ck_assert_uint_eq(d.flash_pages_programmed, d.host_pages_written + d.gc_pages_copied);
    ck_assert_int_eq(ssdsim__page_check(page_of(sim)), 0);
    ssdsim_free(sim);
    ssdsim_model_free(m);
}
END_TEST

START_TEST(test_ftl_sequential_overwrite_waf_is_one)
{
    ssdsim_model *m = st_model("generic-mlc", "geometry.blocks_per_plane=64", NULL);
    ssdsim *sim = st_sim(m, 1);
    ck_assert_int_eq(ssdsim_precondition_seq(sim), 0);
    /* Two more full sequential passes: every victim GC finds holds no valid page. */
    st_run(sim, "{\"rw\":\"write\",\"bs\":\"128k\",\"iodepth\":32,\"size\":\"100%\"}", NULL);
    st_run(sim, "{\"rw\":\"write\",\"bs\":\"128k\",\"iodepth\":32,\"size\":\"100%\"}", NULL);
    ssdsim_device_stats d;
    ssdsim_get_device_stats(sim, &d);
    ck_assert_uint_eq(d.host_pages_written, d.logical_bytes / 4096);
    ck_assert_uint_gt(d.blocks_erased, 0);
    ck_assert_uint_eq(d.gc_pages_copied, 0);
    ck_assert_double_eq(d.waf, 1.0);
    ssdsim_free(sim);
    ssdsim_model_free(m);
}
END_TEST

START_TEST(test_ftl_trim_frees_space_and_reads_skip_flash)
{
    ssdsim_model *m = st_model("generic-mlc", "geometry.blocks_per_plane=64", NULL);
    ssdsim *sim = st_sim(m, 1);
    ck_assert_int_eq(ssdsim_precondition_seq(sim), 0);
    st_run(sim, "{\"rw\":\"trim\",\"bs\":\"1m\",\"iodepth\":4}", NULL);
    ssdsim_op_stats t;
    ssdsim_get_op_stats(sim, SSDSIM_OP_TRIM, &t);
    ck_assert_uint_gt(t.count, 0);
    ck_assert_uint_eq(t.bytes, ssdsim_model_logical_bytes(m));
    for (uint64_t l = 0; l < page_of(sim)->n_lpn; l++)
        ck_assert_uint_eq(page_of(sim)->l2p[l], UINT32_MAX);
    /* Every read now is of trimmed data: no flash read at all. */
    uint64_t reads0 = flash_reads(sim);
    st_run(sim, "{\"rw\":\"randread\",\"bs\":\"4k\",\"iodepth\":8,\"number_ios\":2000}", NULL);
    ck_assert_uint_eq(flash_reads(sim), reads0);
    /* Writing the whole space again costs no GC copy: all old data is invalid. */
    st_run(sim, "{\"rw\":\"write\",\"bs\":\"128k\",\"iodepth\":32}", NULL);
    ssdsim_device_stats d;
    ssdsim_get_device_stats(sim, &d);
    ck_assert_uint_eq(d.gc_pages_copied, 0);
    ck_assert_int_eq(ssdsim__page_check(page_of(sim)), 0);
    ssdsim_free(sim);
    ssdsim_model_free(m);
}
END_TEST

START_TEST(test_ftl_trim_keeps_partly_covered_units)
{
    ssdsim_model *m = st_model("generic-mlc", "geometry.blocks_per_plane=64", NULL);
    ssdsim *sim = st_sim(m, 1);
    st_run(sim, "{\"rw\":\"write\",\"bs\":\"16k\",\"iodepth\":1,\"number_ios\":1}", NULL);
    /* Trim 2 KiB .. 14 KiB: only units 1 and 2 (4..12 KiB) are covered whole. */
    st_run(sim, "{\"rw\":\"trim\",\"bs\":\"12k\",\"offset\":2048,\"iodepth\":1,"
                "\"number_ios\":1}",
           NULL);
    ck_assert_uint_ne(page_of(sim)->l2p[0], UINT32_MAX);
    ck_assert_uint_eq(page_of(sim)->l2p[1], UINT32_MAX);
    ck_assert_uint_eq(page_of(sim)->l2p[2], UINT32_MAX);
    ck_assert_uint_ne(page_of(sim)->l2p[3], UINT32_MAX);
    ck_assert_int_eq(ssdsim__page_check(page_of(sim)), 0);
    ssdsim_free(sim);
    ssdsim_model_free(m);
}
END_TEST

START_TEST(test_ftl_partial_unit_write_reads_then_programs)
{
    ssdsim_model *m = st_model("generic-mlc", "geometry.blocks_per_plane=64", NULL);
    ssdsim *sim = st_sim(m, 1);
    st_run(sim, "{\"rw\":\"write\",\"bs\":\"512\",\"iodepth\":1,\"number_ios\":8}", NULL);
    ssdsim_device_stats d;
    ssdsim_get_device_stats(sim, &d);
    /* Eight 512 B writes land in one 4 KiB unit: the first programs it, the next seven read it
     * back first (read-modify-write). */
    ck_assert_uint_eq(d.host_pages_written, 8);
    ck_assert_uint_eq(flash_reads(sim), 7);
    ck_assert_int_eq(ssdsim__page_check(page_of(sim)), 0);
    ssdsim_free(sim);
    ssdsim_model_free(m);
}
END_TEST

START_TEST(test_ftl_erase_counts_and_free_blocks_are_conserved)
{
    ssdsim_model *m = st_model("generic-mlc", "geometry.blocks_per_plane=64", NULL);
    ssdsim *sim = st_sim(m, 3);
    struct ssdsim *s = sim;
    st_run(sim,
           "{\"rw\":\"randrw\",\"rwmixread\":30,\"bssplit\":\"4k/50:16k/30:64k/20\","
           "\"iodepth\":8,\"numjobs\":4,\"number_ios\":40000}",
           NULL);
    uint64_t sum = 0;
    for (uint64_t b = 0; b < s->sys.devs[0].hw.n_blocks; b++)
        sum += s->sys.devs[0].env.erase_count[b];
    ck_assert_uint_eq(sum, s->sys.devs[0].env.n.erases);
    ck_assert_int_eq(ssdsim__page_check(page_of(sim)), 0);
    /* Valid pages equal mapped logical pages. */
    uint64_t mapped = 0, valid = 0;
    for (uint64_t l = 0; l < page_of(sim)->n_lpn; l++)
        mapped += page_of(sim)->l2p[l] != UINT32_MAX;
    for (uint64_t b = 0; b < s->sys.devs[0].hw.n_blocks; b++)
        valid += page_of(sim)->valid[b];
    ck_assert_uint_eq(mapped, valid);
    ssdsim_free(sim);
    ssdsim_model_free(m);
}
END_TEST

START_TEST(test_ftl_candidates_give_each_policy_its_block)
{
    struct ssdsim__cands c;
    ck_assert_int_eq(ssdsim__cands_init(&c, 2, 8, 4), 0);
    /* plane 0 holds blocks 0..7, plane 1 blocks 8..15; closed in the order 0, 1, 2, 9 */
    ssdsim__cands_insert(&c, 0, 4);
    ssdsim__cands_insert(&c, 1, 3);
    ssdsim__cands_insert(&c, 2, 4);
    ssdsim__cands_insert(&c, 9, 1);
    ck_assert_uint_eq(ssdsim__cands_fewest_valid(&c, 0), 1);
    ck_assert_uint_eq(ssdsim__cands_oldest(&c, 0), 0);
    ck_assert_uint_eq(ssdsim__cands_newer(&c, 0), 1);
    ck_assert_uint_eq(ssdsim__cands_count(&c, 0), 3);
    ssdsim__cands_dec(&c, 2, 3); /* block 2: 4 -> 3, now the most recently modified with 3 */
    ck_assert_uint_eq(ssdsim__cands_least_recent(&c, 0, 3), 1);
    ssdsim__cands_dec(&c, 2, 2); /* 3 -> 2 */
    ck_assert_uint_eq(ssdsim__cands_fewest_valid(&c, 0), 2);
    ck_assert_uint_eq(ssdsim__cands_least_recent(&c, 0, 3), 1);
    ssdsim__cands_remove(&c, 2, 2);
    ssdsim__cands_remove(&c, 1, 3);
    ck_assert_uint_eq(ssdsim__cands_fewest_valid(&c, 0), 0);
    ck_assert_uint_eq(ssdsim__cands_count(&c, 0), 1);
    ck_assert_uint_eq(ssdsim__cands_at(&c, 0, 0), 0);
    ssdsim__cands_remove(&c, 0, 4);
    ck_assert_uint_eq(ssdsim__cands_fewest_valid(&c, 0), UINT32_MAX);
    ck_assert_uint_eq(ssdsim__cands_oldest(&c, 0), UINT32_MAX);
    ck_assert_uint_eq(ssdsim__cands_fewest_valid(&c, 1), 9);
    ssdsim__cands_fini(&c);
}
END_TEST

/* ------------------------------------------------------------------ the FTL's reserve */

/* generic-mlc: 64 planes of 512 blocks of 128 pages (4 KiB, mapped by page), op 0.28: 4194304
 * physical pages, 3276800 logical, 917504 spare = 112 blocks per plane, spare factor 7/32. The
 * page FTL keeps the GC high watermark (free_blocks_min 2, raised to the GC reserve + 1: 2, or
 * 3 with hot/cold) and its open frontiers (host; + GC's with gc.separate; + hot, + hot GC with
 * hot_cold; + the translation frontier for DFTL; with FDP a host frontier per placement handle,
 * and GC's: one, or one per handle when persistently isolated). */
static void expect_reserve(uint32_t blocks, double map_pages, const char *k1, const char *k2)
{
    ssdsim_model *m = st_model("generic-mlc", k1, k2, NULL);
    struct ssdsim__reserve r;
    ssdsim__model_reserve(m, &r);
    ck_assert(r.known);
    ck_assert_uint_eq(r.blocks, blocks);
    ck_assert_double_eq_tol(r.spare_blocks, 112.0, 1e-9);
    ck_assert_double_eq_tol(r.spare_factor, 917504.0 / 4194304, 1e-12);
    ck_assert_double_eq_tol(r.map_blocks, map_pages / 64 / 128, 1e-12);
    double sf_eff = (917504.0 - blocks * 128.0 * 64 - map_pages) / 4194304;
    ck_assert_double_eq_tol(r.spare_factor_effective, sf_eff, 1e-12);
    /* the device's results say the same */
    ssdsim *sim = st_sim(m, 1);
    ssdsim_device_stats d;
    ck_assert_int_eq(ssdsim_get_device_stats(sim, &d), 0);
    ck_assert_double_eq_tol(d.spare_factor, 917504.0 / 4194304, 1e-12);
    ck_assert_double_eq_tol(d.spare_factor_effective, sf_eff, 1e-12);
    ssdsim_free(sim);
    ssdsim_model_free(m);
}

START_TEST(test_ftl_reserve_page)
{
    expect_reserve(2 + 2, 0, NULL, NULL); /* gc.separate is the default */
    expect_reserve(2 + 1, 0, "gc.separate=false", NULL);
    expect_reserve(3 + 4, 0, "ftl.hot_cold=true", NULL); /* GC reserve 2: watermark 3 */
    expect_reserve(3 + 2, 0, "ftl.hot_cold=true", "gc.separate=false");
    expect_reserve(10 + 2, 0, "gc.free_blocks_target=10", NULL);
    /* FDP: a host frontier per handle, and GC's (one for all handles when initially isolated,
     * one per handle when persistently); the GC reserve stays 1 */
    expect_reserve(2 + 4 + 1, 0, "fdp.handles=4", NULL);
    expect_reserve(2 + 4 + 4, 0, "fdp.handles=4", "fdp.isolation=\"persistent\"");
    expect_reserve(2 + 16 + 16, 0, "fdp.handles=16", "fdp.isolation=\"persistent\"");
    /* DFTL: 1024 entries per 4 KiB translation page, 3200 of them for 3276800 pages */
    expect_reserve(2 + 3, 3200, "ftl.type=dftl", NULL);
}
END_TEST

static char reserve_log[512];
static int n_reserve_log;

static void hear_reserve(enum ssdsim_log_level level, const char *message, void *ud)
{
    (void)ud;
    if (level == SSDSIM_LOG_WARNING && strstr(message, "in reserve")) {
        snprintf(reserve_log, sizeof reserve_log, "%s", message);
        n_reserve_log++;
    }
}

/* The warning comes when the reserve is more than 5% of the 112 spare blocks (5.6): with
 * gc.free_blocks_target 3 the FTL keeps 3 + 2 = 5 (4.5%), with 4, 6 (5.4%); once per model. */
START_TEST(test_ftl_reserve_warning_threshold)
{
    ssdsim_set_log_handler(hear_reserve, NULL);
    n_reserve_log = 0;
    ssdsim_model *m = st_model("generic-mlc", "gc.free_blocks_target=3", NULL);
    ssdsim *sim = st_sim(m, 1);
    ck_assert_int_eq(n_reserve_log, 0);
    ssdsim_free(sim);
    ssdsim_error e;
    ck_assert_int_eq(ssdsim_model_set(m, "gc.free_blocks_target", "4", &e), 0);
    sim = st_sim(m, 1);
    ck_assert_int_eq(n_reserve_log, 1);
    ck_assert_str_eq(reserve_log, "the FTL keeps 6 of 112 spare blocks per plane in reserve (5.4% "
                                  "of the spare): WAF will be higher than the nominal "
                                  "over-provisioning implies");
    ssdsim_free(sim);
    sim = st_sim(m, 2); /* the same model again: no second warning */
    ck_assert_int_eq(n_reserve_log, 1);
    ssdsim_free(sim);
    ssdsim_model_free(m);
    ssdsim_set_log_handler(NULL, NULL);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("ftl");
    TCase *tc = tcase_create("ftl");
    tcase_set_timeout(tc, 600);
    tcase_add_test(tc, test_ftl_greedy_uniform_random_waf_matches_theory);
    tcase_add_test(tc, test_ftl_sequential_overwrite_waf_is_one);
    tcase_add_test(tc, test_ftl_trim_frees_space_and_reads_skip_flash);
    tcase_add_test(tc, test_ftl_trim_keeps_partly_covered_units);
    tcase_add_test(tc, test_ftl_partial_unit_write_reads_then_programs);
    tcase_add_test(tc, test_ftl_erase_counts_and_free_blocks_are_conserved);
    tcase_add_test(tc, test_ftl_candidates_give_each_policy_its_block);
    tcase_add_test(tc, test_ftl_reserve_page);
    tcase_add_test(tc, test_ftl_reserve_warning_threshold);
    suite_add_tcase(s, tc);
    return test_run_suite(s);
}
