/* test_slc.c: the SLC cache of the page FTL (libssdsim/ftl/page_slc.c): the write rate while the
 * cache has room and past the cliff, the cliff's position for the static and the dynamic region
 * (the dynamic one shrinking on a filled drive), folding in idle time emptying the cache, the
 * folded pages in the flash writes, nothing changed with the keys absent, and bad input refused
 * with one line naming the key.
 *
 * Every expected figure is derived in the comments from the model below, never from the code:
 * 4 channels of one single-plane die each; 64 blocks of 48 pages of 4 KiB per plane; TLC with
 * tPROG 600 / 1800 / 3600 us (LSB, CSB, MSB), tR 50 / 70 / 90 us, tBERS 3 ms; a 400 MT/s x 8 bus
 * (4096 B take 4096 x 8000 / 3200 = 10,240 ns); ftl.op 0.28, so 12,288 physical pages give
 * floor(12,288 / 1.28) = 9,600 logical pages and (12,288 - 9,600) / 48 / 4 = 14 spare blocks per
 * plane, of which the GC watermark (2) and two open blocks keep 4.
 *
 * In SLC mode a block holds 48 / 3 = 16 pages (64 KiB). slc.static 256 KiB = 4 blocks = 1 per
 * plane; slc.dynamic 1 MiB = 16 blocks. Cache on a fresh drive: (4 + 16) x 16 = 320 pages.
 * tPROG in SLC mode 200 us, tR 30 us.
 */
#include "simtest.h"

enum {
    DIES = 4,
    PPB = 48,
    SLC_PAGES = 16,    /* pages of a block in SLC mode */
    LOGICAL = 9600,    /* logical pages */
    CACHE = 320,       /* (4 static + 16 dynamic) x 16 pages */
    XFER_NS = 10240,   /* a page on the bus */
    SLC_PROG_NS = 200000,
    TLC_MEAN_PROG_NS = 2000000, /* (600 + 1800 + 3600) / 3 us over a cycle of page types */
};

static const char model_json[] =
    "{\"name\": \"slc-test\","
    " \"geometry\": {\"channels\": 4, \"chips_per_channel\": 1, \"dies_per_chip\": 1,"
    "   \"planes_per_die\": 1, \"blocks_per_plane\": 64, \"pages_per_block\": 48,"
    "   \"page_size\": \"4KiB\"},"
    " \"flash\": {\"cell\": \"tlc\", \"read_us\": [50, 70, 90],"
    "   \"program_us\": [600, 1800, 3600], \"erase_us\": 3000, \"bus_mts\": 400,"
    "   \"bus_width\": 8},"
    " \"controller\": {\"cmd_overhead_us\": 1, \"cores\": 4, \"queue_depth\": 64},"
    " \"host\": {\"interface\": \"custom\", \"link_bw\": \"4000MB/s\","
    "   \"cmd_overhead_us\": 1},"
    " \"ftl\": {\"type\": \"page\", \"op\": 0.28}}";

static ssdsim_model *model(const char *extra1, const char *extra2)
{
    ssdsim_model *m = NULL;
    ssdsim_error err;
    ck_assert_msg(ssdsim_model_load_string(&m, model_json, "slc-test", &err) == 0, "%s",
                  err.message);
    const char *kv[] = {extra1, extra2};
    for (int i = 0; i < 2; i++) {
        if (!kv[i])
            continue;
        char key[64];
        const char *eq = strchr(kv[i], '=');
        snprintf(key, sizeof key, "%.*s", (int)(eq - kv[i]), kv[i]);
        ck_assert_msg(ssdsim_model_set(m, key, eq + 1, &err) == 0, "%s", err.message);
    }
    return m;
}

static ssdsim_model *slc_model(void)
{
    ssdsim_model *m = model("slc.static=256KiB", "slc.dynamic=1MiB");
    ssdsim_error err;
    ck_assert_int_eq(ssdsim_model_set(m, "slc.program_us", "200", &err), 0);
    ck_assert_int_eq(ssdsim_model_set(m, "slc.read_us", "30", &err), 0);
    ck_assert_int_eq(ssdsim_model_set(m, "slc.fold_idle_us", "1000", &err), 0);
    return m;
}

/* Write `pages` 4 KiB pages sequentially from page `first`, QD 16; returns the write IOPS. */
static double burst(ssdsim *sim, uint64_t first, uint64_t pages)
{
    char wl[256];
    snprintf(wl, sizeof wl,
             "{\"rw\": \"write\", \"bs\": \"4k\", \"iodepth\": 16, \"offset\": %llu, "
             "\"size\": %llu}",
             (unsigned long long)first * 4096, (unsigned long long)pages * 4096);
    st_run(sim, wl, NULL);
    ssdsim_op_stats s;
    ck_assert_int_eq(ssdsim_get_op_stats(sim, SSDSIM_OP_WRITE, &s), 0);
    ck_assert_uint_eq(s.count, pages);
    char why[256];
    ck_assert_msg(ssdsim_check(sim, why, sizeof why) == 0, "%s", why);
    return s.iops;
}

static ssdsim_device_stats dev(const ssdsim *sim)
{
    ssdsim_device_stats d;
    ck_assert_int_eq(ssdsim_get_device_stats(sim, &d), 0);
    return d;
}

/* Within `tol` of the derived rate: the only difference allowed is the front end's few us
 * (host overhead, core, link) before the first page reaches a die, 0.02% of these bursts. */
static void assert_near(double got, double want, double tol)
{
    ck_assert_msg(got > want * (1 - tol) && got < want * (1 + tol), "got %.1f, expected %.1f",
                  got, want);
}

/* A burst no larger than the cache is written at the SLC program rate: each die takes a page
 * every 10.24 + 200 us (data in, then tPROG), the 4 dies in parallel, so 4 / 210.24 us =
 * 19,026 IOPS (the front end, 1 us of core and 1 us of link per page, keeps the 4 dies fed at
 * QD 16). Right after the 320 pages of the cache the next burst is written natively: a die
 * programs its block's pages in turn, LSB, CSB, MSB, 2000 us on average, so 4 / 2010.24 us =
 * 1,990 IOPS. */
START_TEST(test_slc_burst_rate_then_cliff)
{
    ssdsim_model *m = slc_model();
    ssdsim *sim = st_sim(m, 1);
    double slc_iops = burst(sim, 0, CACHE);
    ssdsim_device_stats d = dev(sim);
    ck_assert(d.slc_on);
    ck_assert_uint_eq(d.slc_pages_written, CACHE);
    ck_assert_uint_eq(d.slc_pages_bypassed, 0);
    ck_assert_uint_eq(d.slc_full_events, 0);
    ck_assert_uint_eq(d.slc_used_pages, CACHE);
    ck_assert_uint_eq(d.slc_capacity_pages, CACHE);
    assert_near(slc_iops, DIES / ((XFER_NS + SLC_PROG_NS) * 1e-9), 0.002);

    double tlc_iops = burst(sim, CACHE, 120); /* 30 pages per die: 10 cycles of page types */
    d = dev(sim);
    ck_assert_uint_eq(d.slc_pages_written, 0);
    ck_assert_uint_eq(d.slc_pages_bypassed, 120);
    ck_assert_uint_eq(d.slc_full_events, 1);
    assert_near(tlc_iops, DIES / ((XFER_NS + TLC_MEAN_PROG_NS) * 1e-9), 0.002);
    ssdsim_free(sim);
    ssdsim_model_free(m);
}
END_TEST

/* One burst of 440 pages: exactly the first 320 land in SLC mode, the other 120 past the
 * cliff; one episode. */
START_TEST(test_slc_cliff_position_static_and_dynamic)
{
    ssdsim_model *m = slc_model();
    ssdsim *sim = st_sim(m, 1);
    burst(sim, 0, CACHE + 120);
    ssdsim_device_stats d = dev(sim);
    ck_assert_uint_eq(d.slc_pages_written, CACHE);
    ck_assert_uint_eq(d.slc_pages_bypassed, 120);
    ck_assert_uint_eq(d.slc_full_events, 1);
    ck_assert_uint_eq(d.host_pages_written, CACHE + 120);
    ssdsim_free(sim);
    ssdsim_model_free(m);

    /* DFTL shares the code: the same cliff (its translation pages go to native blocks and are
     * not host pages). */
    m = slc_model();
    ssdsim_error err;
    ck_assert_int_eq(ssdsim_model_set(m, "ftl.type", "dftl", &err), 0);
    sim = st_sim(m, 1);
    burst(sim, 0, CACHE + 120);
    d = dev(sim);
    ck_assert_uint_eq(d.slc_pages_written, CACHE);
    ck_assert_uint_eq(d.slc_pages_bypassed, 120);
    ssdsim_free(sim);
    ssdsim_model_free(m);

        /* Static region only: 4 blocks x 16 = 64 pages. */
    m = model("slc.static=256KiB", NULL);
    sim = st_sim(m, 1);
    burst(sim, 0, 100);
    d = dev(sim);
    ck_assert_uint_eq(d.slc_pages_written, 64);
    ck_assert_uint_eq(d.slc_pages_bypassed, 36);
    ssdsim_free(sim);
    ssdsim_model_free(m);

    /* Dynamic region only: 16 blocks x 16 = 256 pages. */
    m = model("slc.dynamic=1MiB", NULL);
    sim = st_sim(m, 1);
    burst(sim, 0, 300);
    d = dev(sim);
    ck_assert_uint_eq(d.slc_pages_written, 256);
    ck_assert_uint_eq(d.slc_pages_bypassed, 44);
    ssdsim_free(sim);
    ssdsim_model_free(m);
}
END_TEST

/* The dynamic region shrinks on a filled drive: with 9,120 logical pages written and folded,
 * the capacity holding no valid data is 9,600 - 9,120 = 480 pages = 10 blocks, so at most 10
 * dynamic blocks: the cache is (4 + 10) x 16 = 224 pages. Fold bound: per plane at most 5 SLC
 * blocks of 16 pages, each fold (30 + 10.24) us read and data out, 10.24 + 3600 us program at
 * worst, 5 erases of 3 ms: 80 x 3650.48 us + 15 ms = 307 ms, after the 1 ms idle threshold;
 * the fill's own 320-page cache is folded within 1 s of idle. */
START_TEST(test_slc_dynamic_shrinks_when_filled)
{
    ssdsim_model *m = slc_model();
    ssdsim *sim = st_sim(m, 1);
    burst(sim, 0, 9120);
    ck_assert_int_eq(ssdsim_idle(sim, 1000000000ull), 0);
    ssdsim_device_stats d = dev(sim);
    ck_assert_uint_eq(d.slc_used_pages, 0);
    ck_assert_uint_eq(d.slc_capacity_pages, 224);
    burst(sim, 9120, 300);
    d = dev(sim);
    ck_assert_uint_eq(d.slc_pages_written, 224);
    ck_assert_uint_eq(d.slc_pages_bypassed, 300 - 224);
    ssdsim_free(sim);
    ssdsim_model_free(m);
}
END_TEST

/* After an idle pause longer than the fold time (the bound above: 1 ms + 307 ms < 500 ms) the
 * cache is empty again, and the next burst of 320 pages is written at the SLC rate again. */
START_TEST(test_slc_idle_folds_and_cache_recovers)
{
    ssdsim_model *m = slc_model();
    ssdsim *sim = st_sim(m, 1);
    burst(sim, 0, CACHE);
    burst(sim, CACHE, 120);
    ck_assert_int_eq(ssdsim_idle(sim, 500000000ull), 0);
    ssdsim_device_stats d = dev(sim);
    ck_assert_uint_eq(d.slc_pages_folded, CACHE);
    ck_assert_uint_eq(d.slc_used_pages, 0);
    char why[256];
    ck_assert_msg(ssdsim_check(sim, why, sizeof why) == 0, "%s", why);
    double iops = burst(sim, 1000, CACHE);
    d = dev(sim);
    ck_assert_uint_eq(d.slc_pages_written, CACHE);
    ck_assert_uint_eq(d.slc_pages_bypassed, 0);
    assert_near(iops, DIES / ((XFER_NS + SLC_PROG_NS) * 1e-9), 0.002);
    /* A secure erase gives back a fresh drive's cache. */
    ck_assert_int_eq(ssdsim_secure_erase(sim), 0);
    d = dev(sim);
    ck_assert_uint_eq(d.slc_used_pages, 0);
    ck_assert_uint_eq(d.slc_capacity_pages, CACHE);
    ck_assert_msg(ssdsim_check(sim, why, sizeof why) == 0, "%s", why);
    ssdsim_free(sim);
    ssdsim_model_free(m);
}
END_TEST

/* Conservation of pages: 160 logical pages written twice (320 host pages, all in SLC mode)
 * leave 160 valid; folding programs exactly those 160 natively, after reading them. Flash
 * programs = 320 host + 160 folded, no GC: WAF 1.5. */
START_TEST(test_slc_folds_count_in_flash_writes)
{
    ssdsim_model *m = slc_model();
    ssdsim *sim = st_sim(m, 1);
    st_run(sim, "{\"rw\": \"write\", \"bs\": \"4k\", \"iodepth\": 16, \"size\": \"640KiB\", "
                "\"io_size\": \"1280KiB\"}",
           NULL);
    ck_assert_int_eq(ssdsim_idle(sim, 500000000ull), 0);
    ssdsim_device_stats d = dev(sim);
    ck_assert_uint_eq(d.host_pages_written, 320);
    ck_assert_uint_eq(d.slc_pages_written, 320);
    ck_assert_uint_eq(d.slc_pages_folded, 160);
    ck_assert_uint_eq(d.gc_pages_copied, 0);
    ck_assert_uint_eq(d.flash_pages_programmed, 320 + 160);
    ck_assert_uint_eq(d.flash_pages_read, 160);
    ck_assert(d.waf > 1.499 && d.waf < 1.501);
    /* the 20 SLC blocks were erased once each after folding */
    ck_assert_uint_eq(d.blocks_erased, 20);
    ck_assert_uint_eq(d.slc_used_pages, 0);
    /* Wear in native page slots: the 20 blocks erased gave back 20 x 48 slots, and the 160
     * folded pages hold 160 more: 1,120. Per page written (320 x 4 KiB): 3.5, where WAF says
     * 1.5: an SLC-mode page takes a word line of 3 native pages (480 + 320 x 2 = 1,120). */
    ck_assert_double_eq_tol(d.wear_factor, (20.0 * 48 + 160) / 320, 1e-12);
    ck_assert_double_eq_tol(d.tbw_mean_bytes,
                            d.rated_pe_cycles * (double)d.physical_bytes / 3.5,
                            d.tbw_mean_bytes * 1e-12);
    char why[256];
    ck_assert_msg(ssdsim_check(sim, why, sizeof why) == 0, "%s", why);
    ssdsim_free(sim);
    ssdsim_model_free(m);
}
END_TEST

/* Sustained random writes over the whole drive, three drive writes (28,800 pages) at QD 16,
 * with no idle time: the 16 dynamic blocks the cache borrowed from the free blocks while the
 * drive was empty hold valid data, and only folding gives them back. Foreground GC folds them
 * (each plane's, oldest first, before its first native victim), so the run ends (before, GC
 * found no victim it could free and writes waited for ever): at least the 16 borrowed blocks
 * were folded in the foreground, every invariant holds, and every page programmed is a host
 * page, a GC copy or a folded page. */
START_TEST(test_slc_sustained_writes_fold_in_foreground)
{
    ssdsim_model *m = slc_model();
    ssdsim *sim = st_sim(m, 1);
    ck_assert_int_eq(ssdsim_set_check_period(sim, 20000), 0);
    st_run(sim, "{\"rw\": \"randwrite\", \"bs\": \"4k\", \"iodepth\": 16, "
                "\"number_ios\": 28800}",
           NULL);
    ssdsim_device_stats d = dev(sim);
    ck_assert_uint_eq(d.host_pages_written, 28800);
    /* every host page counted once: in SLC mode or past the cliff (writes that waited for a
     * free block among them) */
    ck_assert_uint_eq(d.slc_pages_written + d.slc_pages_bypassed, d.host_pages_written);
    ck_assert_uint_ge(d.slc_fg_fold_blocks, 16);
    ck_assert_uint_eq(d.flash_pages_programmed,
                      d.host_pages_written + d.gc_pages_copied + d.slc_pages_folded);
    ck_assert_uint_gt(d.slc_pages_folded, 0);
    char why[256];
    ck_assert_msg(ssdsim_check(sim, why, sizeof why) == 0, "%s", why);
    ssdsim_free(sim);
    ssdsim_model_free(m);
}
END_TEST

/* Every host page is counted once, as written in SLC mode or as bypassed, also when writes
 * wait for free blocks (before, the writes that arrived while others waited were counted
 * neither way). Sequential writes of 64 KiB at QD 8 with no idle time, on a fresh drive whose
 * dynamic region borrows most of the free blocks (12 MiB = 192 blocks in SLC mode, 48 of each
 * plane's 64; 6 MiB = 96), so that native writes past the cliff soon wait for foreground folds:
 * 7,200 pages (3/4 of the drive) on the dynamic region alone; the whole drive, 9,600 pages,
 * with a static region too, and on DFTL (whose translation writes wait in the same queue).
 * Each run: host pages = written in SLC mode + bypassed, at least one page each way (the cache
 * is empty at the first write and holds fewer pages than the run writes). */
START_TEST(test_slc_every_host_page_counted_once)
{
    static const struct {
        const char *kv[2];
        const char *size;
        uint64_t pages;
    } cases[] = {
        {{"slc.dynamic=12MiB", NULL}, "28800KiB", 7200},
        {{"slc.static=256KiB", "slc.dynamic=6MiB"}, "38400KiB", LOGICAL},
        {{"slc.dynamic=6MiB", "ftl.type=dftl"}, "38400KiB", LOGICAL},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        ssdsim_model *m = model(cases[i].kv[0], cases[i].kv[1]);
        ssdsim *sim = st_sim(m, 1);
        char wl[160];
        snprintf(wl, sizeof wl,
                 "{\"rw\": \"write\", \"bs\": \"64k\", \"iodepth\": 8, \"size\": \"%s\"}",
                 cases[i].size);
        st_run(sim, wl, NULL);
        ssdsim_device_stats d = dev(sim);
        ck_assert_uint_eq(d.host_pages_written, cases[i].pages);
        ck_assert_msg(d.slc_pages_written + d.slc_pages_bypassed == d.host_pages_written,
                      "case %zu: %llu in SLC mode + %llu bypassed != %llu host pages", i,
                      (unsigned long long)d.slc_pages_written,
                      (unsigned long long)d.slc_pages_bypassed,
                      (unsigned long long)d.host_pages_written);
        ck_assert_uint_gt(d.slc_pages_written, 0);
        ck_assert_uint_gt(d.slc_pages_bypassed, 0);
        char why[256];
        ck_assert_msg(ssdsim_check(sim, why, sizeof why) == 0, "%s", why);
        ssdsim_free(sim);
        ssdsim_model_free(m);
    }
}
END_TEST

/* The counters are the run's: a cache filled past the cliff by an earlier run (as by
 * preconditioning), with no idle time to fold, is full from the next run's first write. That
 * run writes 100 pages, all natively: 0 in SLC mode, 100 bypassed, and its one cliff episode is
 * counted in it (it starts at its first write), lasting no longer than the run. */
START_TEST(test_slc_counters_are_the_runs)
{
    ssdsim_model *m = slc_model();
    ssdsim *sim = st_sim(m, 1);
    burst(sim, 0, CACHE + 120);
    uint64_t start = ssdsim_sim_time_ns(sim);
    burst(sim, 1000, 100);
    ssdsim_device_stats d = dev(sim);
    ck_assert_uint_eq(d.slc_pages_written, 0);
    ck_assert_uint_eq(d.slc_pages_bypassed, 100);
    ck_assert_uint_eq(d.slc_full_events, 1);
    ck_assert_uint_le(d.slc_full_ns, ssdsim_sim_time_ns(sim) - start);
    ssdsim_free(sim);
    ssdsim_model_free(m);
}
END_TEST

/* Fast preconditioning of a drive with an SLC cache runs by functional fast-forward on the drive
 * itself (the scaled copy's block image cannot carry the cache): afterwards nearly every logical
 * page is mapped and a timed run of the same workload goes on from that state; the timed method
 * refuses it, saying why. */
START_TEST(test_slc_fast_preconditioning)
{
    ssdsim_model *m = slc_model();
    ssdsim_workload *wl = st_workload("{\"rw\": \"randwrite\", \"bs\": \"4k\", "
                                      "\"iodepth\": 16, \"number_ios\": 4000}");
    ssdsim *sim = st_sim(m, 1);
    int rc = ssdsim_precondition_fast(sim, wl, NULL);
    ck_assert_msg(rc == 0, "%s", ssdsim_errmsg(sim));
    /* uniform random writes until the WAF is steady, many drive writes: a page is missed by
     * k drive writes with probability e^-k, so nearly all are mapped (1% is e^-4.6) */
    uint64_t mapped = 0;
    for (uint64_t l = 0; l < LOGICAL; l++)
        mapped += ssdsim_lookup(sim, l) != UINT64_MAX;
    ck_assert_uint_gt(mapped, LOGICAL * 99 / 100);
    ck_assert_int_eq(ssdsim_run(sim, wl, NULL), 0);
    ssdsim_device_stats d = dev(sim);
    ck_assert_uint_eq(d.host_pages_written, 4000);
    char why[256];
    ck_assert_msg(ssdsim_check(sim, why, sizeof why) == 0, "%s", why);
    ssdsim_free(sim);
    sim = st_sim(m, 1);
    ck_assert_int_eq(ssdsim_set_precondition_method(sim, SSDSIM_PRECONDITION_METHOD_TIMED), 0);
    ck_assert_int_eq(ssdsim_precondition_fast(sim, wl, NULL), SSDSIM_ENOTFOUND);
    ck_assert_ptr_nonnull(strstr(ssdsim_errmsg(sim), "functional fast-forward only"));
    ssdsim_free(sim);
    ssdsim_workload_free(wl);
    ssdsim_model_free(m);
}
END_TEST

/* Without the keys: no SLC figures, no "slc" in the model's JSON or the results, and the
 * native rate from the first page (the TLC mean, as past the cliff above). */
START_TEST(test_slc_off_when_keys_absent)
{
    ssdsim_model *m = model(NULL, NULL);
    char *json = ssdsim_model_to_json(m);
    ck_assert_ptr_null(strstr(json, "\"slc\""));
    free(json);
    ssdsim *sim = st_sim(m, 1);
    double iops = burst(sim, 0, 120);
    ssdsim_device_stats d = dev(sim);
    ck_assert(!d.slc_on);
    ck_assert_uint_eq(d.slc_pages_written + d.slc_pages_bypassed + d.slc_capacity_pages, 0);
    assert_near(iops, DIES / ((XFER_NS + TLC_MEAN_PROG_NS) * 1e-9), 0.002);
    char *res = ssdsim_results_json(sim);
    ck_assert_ptr_null(strstr(res, "\"slc\""));
    free(res);
    ssdsim_free(sim);
    ssdsim_model_free(m);
}
END_TEST

static void refused(const char *base, const char *key, const char *value, const char *named)
{
    ssdsim_model *m = base ? st_model(base, (const char *)NULL) : model("slc.dynamic=1MiB", NULL);
    ssdsim_error err;
    ck_assert_int_eq(ssdsim_model_set(m, key, value, &err), SSDSIM_ECONFIG);
    ck_assert_msg(strstr(err.message, named) != NULL, "'%s' does not name %s", err.message,
                  named);
    ck_assert_ptr_null(strchr(err.message, '\n'));
    ssdsim_model_free(m);
}

/* Bad input, one line naming the key. A static region of 11 blocks per plane (44 blocks,
 * 2,816 KiB) leaves 14 - 11 = 3 spare blocks, fewer than the 4 of the watermark and open
 * blocks; a dynamic cache of 13 MiB (208 blocks) would take 208 x 48 = 9,984 native pages of
 * the 9,600 logical ones; less than a block; SLC on SLC flash; SLC times slower than the
 * native LSB page's; another FTL. */
START_TEST(test_slc_bad_input_refused)
{
    refused(NULL, "slc.static", "2816KiB", "slc.static");
    ssdsim_model *m = model("slc.static=2560KiB", NULL); /* 10 per plane: fits */
    ssdsim_model_free(m);
    refused(NULL, "slc.dynamic", "13MiB", "slc.dynamic");
    refused(NULL, "slc.dynamic", "32KiB", "slc.dynamic");
    refused(NULL, "slc.program_us", "700", "slc.program_us");
    refused(NULL, "slc.read_us", "60", "slc.read_us");
    refused(NULL, "ftl.type", "fast", "slc.dynamic");
    refused("generic-slc", "slc.dynamic", "1MiB", "slc.dynamic");
}
END_TEST

/* Program suspend against the SLC programs: a suspend latency of 300 us is shorter than every
 * native program (600 us at the least) and the erase (3 ms), but not than a page's program in
 * SLC mode (200 us): none of the cache's programs could be suspended. Refused in one line naming
 * flash.suspend_us and slc.program_us; 150 us, shorter than all of them, is taken. */
START_TEST(test_slc_suspend_shorter_than_slc_program)
{
    ssdsim_model *m = slc_model();
    ssdsim_error err;
    ck_assert_int_eq(ssdsim_model_set(m, "flash.suspend", "true", &err), 0);
    ck_assert_int_eq(ssdsim_model_set(m, "flash.suspend_us", "300", &err), SSDSIM_ECONFIG);
    ck_assert_ptr_null(strchr(err.message, '\n'));
    ck_assert_msg(strstr(err.message, "flash.suspend_us: a suspend latency of 300 us is not "
                                      "shorter than the shortest program or erase (200 us, "
                                      "slc.program_us)") != NULL,
                  "%s", err.message);
    ck_assert_int_eq(ssdsim_model_set(m, "flash.suspend_us", "150", &err), 0);
    /* the same latency without the cache: shorter than every native program, taken */
    ssdsim_model_free(m);
    m = model("flash.suspend=true", "flash.suspend_us=300");
    ssdsim_model_free(m);
}
END_TEST

static Suite *slc_suite(void)
{
    Suite *s = suite_create("slc");
    TCase *tc = tcase_create("cache");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_slc_burst_rate_then_cliff);
    tcase_add_test(tc, test_slc_cliff_position_static_and_dynamic);
    tcase_add_test(tc, test_slc_dynamic_shrinks_when_filled);
    tcase_add_test(tc, test_slc_idle_folds_and_cache_recovers);
    tcase_add_test(tc, test_slc_folds_count_in_flash_writes);
    tcase_add_test(tc, test_slc_sustained_writes_fold_in_foreground);
    tcase_add_test(tc, test_slc_every_host_page_counted_once);
    tcase_add_test(tc, test_slc_counters_are_the_runs);
    tcase_add_test(tc, test_slc_fast_preconditioning);
    tcase_add_test(tc, test_slc_off_when_keys_absent);
    tcase_add_test(tc, test_slc_bad_input_refused);
    tcase_add_test(tc, test_slc_suspend_shorter_than_slc_program);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return test_run_suite(slc_suite());
}
