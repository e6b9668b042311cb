/* test_watchdog.c: runs that cannot finish must stop with a diagnosis, and the DFTL livelock of
 * issue 12 must not come back.
 *
 * The livelock: on a small DFTL device (one die, two planes, 160 blocks of 64 pages, op 0.1, a
 * cache of 16384 of its 18618 mapping entries) GC copying into a plane at its reserve asked for a
 * write-back of a translation page for every victim, and each request queued its own program
 * behind the stalled host writes. The queue grew by about 19 programs per victim (the device has
 * 19 translation pages) while each victim freed about 5 pages, so the host never wrote again.
 * A write-back already on its way now takes later updates: the queue holds at most one program
 * per translation page.
 *
 * The watchdog: a GC policy that always collects the fullest candidate frees nothing (a victim
 * whose 64 valid pages fill the block they are copied to), so once the free blocks are gone the
 * host waits forever while GC copies. The run must end with SSDSIM_ESTALL and say what GC did. */
#include <stdlib.h>

#include "ftl/page.h"
#include "gc/theory.h"
#include "sim.h"
#include "simtest.h"

static const char *issue_model =
    "{\"name\":\"t\",\"geometry\":{\"channels\":1,\"chips_per_channel\":1,\"dies_per_chip\":1,"
    "\"planes_per_die\":2,\"blocks_per_plane\":160,\"pages_per_block\":64,\"page_size\":\"4KiB\"},"
    "\"flash\":{\"cell\":\"slc\",\"read_us\":25,\"program_us\":200,\"erase_us\":1500,"
    "\"bus_mts\":400,\"bus_width\":8},\"controller\":{\"queue_depth\":64},"
    "\"ftl\":{\"type\":\"%s\",\"op\":0.1},\"gc\":{\"policy\":\"%s\"}}";

static ssdsim_model *model(const char *ftl, const char *policy)
{
    char json[1024];
    snprintf(json, sizeof json, issue_model, ftl, policy);
    ssdsim_model *m = NULL;
    ssdsim_error err;
    int rc = ssdsim_model_load_string(&m, json, "issue-12 model", &err);
    ck_assert_msg(rc == 0, "%s", err.message);
    return m;
}

static struct ssdsim__ftl *page_of(ssdsim *sim)
{
    return ((struct ssdsim *)sim)->sys.devs[0].env.state;
}

/* The exact reproducer of the issue: it finishes, every write is served, and at most one
 * translation-page program per page was ever queued (stalled entries are bounded by the pages). */
START_TEST(test_watchdog_dftl_random_gc_finishes)
{
    ssdsim_model *m = model("dftl", "random");
    ssdsim *sim = st_sim(m, 1);
    st_run(sim, "{\"rw\":\"randwrite\",\"bs\":\"4k\",\"iodepth\":16,\"number_ios\":27000}", NULL);
    ssdsim_device_stats d;
    ck_assert_int_eq(ssdsim_get_device_stats(sim, &d), 0);
    ck_assert_uint_eq(d.host_pages_written, 27000);
    /* conservation: every program is a host page, a GC copy or a translation page */
    ck_assert_uint_eq(d.flash_pages_programmed,
                      d.host_pages_written + d.gc_pages_copied + d.map_pages_written);
    struct ssdsim__ftl *f = page_of(sim);
    ck_assert_int_eq(ssdsim__page_check(f), 0);
    ck_assert_uint_eq(f->stall.n, 0);
    ssdsim_free(sim);
    ssdsim_model_free(m);
}
END_TEST

/* While writes are stalled, translation-page programs waiting in the queue never outnumber the
 * translation pages: checked at every request completion through a run whose GC keeps the planes
 * at their reserve (before the fix the queue held tens of thousands after a few seconds). */
struct watch {
    struct ssdsim__ftl *f;
    uint64_t most, checks;
};

static void count_queued_maps(const ssdsim_completion *c, void *ud)
{
    (void)c;
    struct watch *w = ud;
    const struct ssdsim__pending_fifo *q = &w->f->stall;
    uint64_t maps = 0;
    for (uint32_t i = 0; i < q->n; i++)
        maps += q->v[(q->head + i) % q->cap].io == UINT32_MAX;
    if (maps > w->most)
        w->most = maps;
    w->checks++;
}

START_TEST(test_watchdog_dftl_stalled_writebacks_are_bounded)
{
    ssdsim_model *m = model("dftl", "random");
    ssdsim *sim = st_sim(m, 7);
    struct watch w = {.f = page_of(sim)};
    ssdsim_observer obs = {.on_complete = count_queued_maps, .userdata = &w};
    ssdsim_set_observer(sim, &obs);
    st_run(sim, "{\"rw\":\"randwrite\",\"bs\":\"4k\",\"iodepth\":16,\"number_ios\":60000}",
           NULL);
    ck_assert_uint_eq(w.checks, 60000);
    ck_assert_uint_gt(w.most, 0); /* the queue was used... */
    ck_assert_uint_le(w.most, w.f->cmt.n_tpages); /* ...one program per translation page at most */
    ssdsim_free(sim);
    ssdsim_model_free(m);
}
END_TEST

/* DFTL whose cache holds every mapping entry never reads or writes a translation page, so it
 * is the page FTL exactly: same seed, same device figures. */
START_TEST(test_watchdog_dftl_with_full_cache_is_the_page_ftl)
{
    const char *wl = "{\"rw\":\"randwrite\",\"bs\":\"4k\",\"iodepth\":16,\"number_ios\":60000}";
    ssdsim_model *mp = model("page", "fifo");
    ssdsim_model *md = model("dftl", "fifo");
    ssdsim_error err;
    ck_assert_int_eq(ssdsim_model_set(md, "ftl.cmt_entries", "18618", &err), 0);
    ssdsim *a = st_sim(mp, 3), *b = st_sim(md, 3);
    st_run(a, wl, NULL);
    st_run(b, wl, NULL);
    ssdsim_device_stats da, db;
    ssdsim_get_device_stats(a, &da);
    ssdsim_get_device_stats(b, &db);
    ck_assert_uint_eq(db.map_pages_read, 0);
    ck_assert_uint_eq(db.map_pages_written, 0);
    ck_assert_uint_eq(da.flash_pages_programmed, db.flash_pages_programmed);
    ck_assert_uint_eq(da.gc_pages_copied, db.gc_pages_copied);
    ck_assert_uint_eq(da.blocks_erased, db.blocks_erased);
    ssdsim_free(a);
    ssdsim_free(b);
    ssdsim_model_free(mp);
    ssdsim_model_free(md);
}
END_TEST

/* DFTL with FIFO GC at 10 drive writes: the issue measured WAF 25.7 where the page FTL gives
 * 5.6. FIFO collects blocks in the order they were written, so translation pages (dead long
 * before their block reaches the tail) hold a share mu of the queue equal to their share of the
 * programs, and the data live in the rest: FIFO's model at the spare factor of the data slots,
 * 1 - (logical + translation pages) / ((1 - mu) x slots), bounds the data WAF (host pages and GC
 * copies per host page) from below with every physical page a slot, and from above with the
 * blocks the FTL keeps out of the queue (per plane: the GC reserve and one free block on
 * average, plus the three open frontiers half full) taken away. */
START_TEST(test_watchdog_dftl_fifo_waf_follows_the_fifo_model)
{
    ssdsim_model *m = model("dftl", "fifo");
    ssdsim *sim = st_sim(m, 1);
    st_run(sim, "{\"rw\":\"randwrite\",\"bs\":\"4k\",\"iodepth\":16,\"number_ios\":186180}",
           NULL);
    ssdsim_device_stats d;
    ssdsim_get_device_stats(sim, &d);
    struct ssdsim__ftl *f = page_of(sim);
    double mu = (double)d.map_pages_written / (double)d.flash_pages_programmed;
    double live = (double)(f->n_lpn + f->cmt.n_tpages);
    double all = (double)f->n_ppn;
    double out = 2.0 /* planes */ * (1.0 + 1.0 + 1.5) * f->ppb;
    double sf_hi = 1.0 - live / ((1.0 - mu) * all);
    double sf_lo = 1.0 - live / ((1.0 - mu) * (all - out));
    double w_lo, w_hi;
    ck_assert_int_eq(ssdsim__theory_fifo(&w_lo, NULL, f->ppb, sf_hi), 0);
    ck_assert_int_eq(ssdsim__theory_fifo(&w_hi, NULL, f->ppb, sf_lo), 0);
    double data_waf = (double)(d.host_pages_written + d.gc_pages_copied) /
                      (double)d.host_pages_written;
    ck_assert_msg(data_waf >= w_lo && data_waf <= w_hi,
                  "data WAF %.3f outside FIFO's [%.3f, %.3f] (mu %.4f)", data_waf, w_lo, w_hi, mu);
    ck_assert_msg(d.waf < 13.0, "WAF %.2f", d.waf);
    ssdsim_free(sim);
    ssdsim_model_free(m);
}
END_TEST

/* A policy that collects the fullest candidate: each victim is copied whole into the block its
 * erase gives back, so GC never gains a block. */
static uint32_t fullest_select(void *state, const ssdsim_view *v, uint32_t plane)
{
    (void)state;
    uint32_t best = SSDSIM_NO_BLOCK, most = 0;
    for (uint32_t i = 0; i < ssdsim_view_n_candidates(v, plane); i++) {
        uint32_t b = ssdsim_view_candidate(v, plane, i);
        if (best == SSDSIM_NO_BLOCK || ssdsim_view_valid(v, b) > most) {
            best = b;
            most = ssdsim_view_valid(v, b);
        }
    }
    return best;
}

static const ssdsim_gc_ops fullest_ops = {
    .abi_version = SSDSIM_PLUGIN_ABI_VERSION,
    .struct_size = sizeof(ssdsim_gc_ops),
    .name = "test-fullest",
    .summary = "the candidate with the most valid pages (frees nothing)",
    .state_size = 0,
    .select_victim = fullest_select,
};

START_TEST(test_watchdog_gc_that_gains_nothing_stops_the_run)
{
    ssdsim_error err;
    int rc = ssdsim_gc_register(&fullest_ops, &err);
    ck_assert_msg(rc == 0 || rc == SSDSIM_EINVAL, "%s", err.message);
    ssdsim_model *m = model("page", "test-fullest");
    ssdsim *sim = st_sim(m, 1);
    ssdsim_workload *wl =
        st_workload("{\"rw\":\"randwrite\",\"bs\":\"4k\",\"iodepth\":16,\"number_ios\":200000}");
    rc = ssdsim_run(sim, wl, NULL);
    ck_assert_int_eq(rc, SSDSIM_ESTALL);
    const char *msg = ssdsim_errmsg(sim);
    ck_assert_msg(strstr(msg, "stopped making progress") &&
                      strstr(msg, "garbage collection relocated") &&
                      strstr(msg, "times the flash") && strstr(msg, "requests outstanding"),
                  "%s", msg);
    /* the rule fired after more than twice the flash in copies, and not much more: the check
     * runs every 65536 events */
    struct ssdsim *s = sim;
    ck_assert_uint_gt(s->sys.devs[0].env.n.c[SSDSIM_CNT_GC_COPIES], 2 * 20480);
    ck_assert_str_eq(ssdsim_errname(rc), "SSDSIM_ESTALL");
    ssdsim_workload_free(wl);
    ssdsim_free(sim);
    ssdsim_model_free(m);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("watchdog");
    TCase *tc = tcase_create("watchdog");
    tcase_set_timeout(tc, 600);
    tcase_add_test(tc, test_watchdog_dftl_random_gc_finishes);
    tcase_add_test(tc, test_watchdog_dftl_stalled_writebacks_are_bounded);
    tcase_add_test(tc, test_watchdog_dftl_with_full_cache_is_the_page_ftl);
    tcase_add_test(tc, test_watchdog_dftl_fifo_waf_follows_the_fifo_model);
    tcase_add_test(tc, test_watchdog_gc_that_gains_nothing_stops_the_run);
    suite_add_tcase(s, tc);
    return test_run_suite(s);
}
