/* test_invariants.c: the consistency checker (ssdsim_check, ssdsim_set_check_period) over a
 * matrix of tiny devices: every FTL (page, dftl, fast; direct on media without erase) x every GC
 * policy in the registry (page and dftl; fast has none) x over-provisioning 0.05, 0.28 and 1.0 x
 * odd geometries (three chips of one plane, and two planes per die; blocks per plane odd) x write
 * buffer on and off x with and without trims running beside the writes, each run writing ten
 * times the logical capacity with the checker on every few thousand events. At the end of each
 * run the conservation laws are checked from the public figures: pages programmed = host pages
 * + GC copies + WL copies + mapping pages, and the erase counts add up to the erases.
 * Also: a RAID-5 of tiny SSDs with the checker (parity over content tags), and a broken state
 * that the checker must name. Prints the number of runs and checks. */
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "ftl/page.h"
#include "sim.h"
#include "simtest.h"
#include "cmdtest.h"
#include "ssdsim/sys/plugin.h"

#define CHECK_EVERY 2000

static uint64_t n_runs, n_checks;
/* queue depth of run_one's writer (test_dftl_starved_planes runs it at 1 and 2) */
static unsigned writer_qd = 16;

/* Conservation from the public figures, and the erase histogram against the erases. */
static void assert_conserved(ssdsim *sim, const char *what)
{
    ssdsim_device_stats d;
    ssdsim_device_io io;
    ck_assert_int_eq(ssdsim_get_device_stats(sim, &d), 0);
    ck_assert_int_eq(ssdsim_get_device_io(sim, 0, &io), 0);
    ck_assert_msg(d.flash_pages_programmed == d.host_pages_written - io.buffer_absorbed +
                                                  d.gc_pages_copied + d.wl_pages_copied +
                                                  d.map_pages_written,
                  "%s: %llu programmed; host %llu - absorbed %llu + gc %llu + wl %llu + map %llu",
                  what, (unsigned long long)d.flash_pages_programmed,
                  (unsigned long long)d.host_pages_written,
                  (unsigned long long)io.buffer_absorbed,
                  (unsigned long long)d.gc_pages_copied, (unsigned long long)d.wl_pages_copied,
                  (unsigned long long)d.map_pages_written);
    size_t n = ssdsim_erase_histogram(sim, NULL, NULL, 0);
    uint32_t *counts = malloc(sizeof *counts * (n + 1));
    uint64_t *blocks = malloc(sizeof *blocks * (n + 1));
    ck_assert_uint_eq(ssdsim_erase_histogram(sim, counts, blocks, n), n);
    uint64_t sum = 0;
    for (size_t i = 0; i < n; i++)
        sum += (uint64_t)counts[i] * blocks[i];
    /* (one run on a new device: the run's erases are all there were) */
    ck_assert_msg(sum == d.blocks_erased, "%s: erase counts add up to %llu; %llu erases", what,
                  (unsigned long long)sum, (unsigned long long)d.blocks_erased);
    free(counts);
    free(blocks);
}

/* One run: `sets` (NULL-ended "key=value" list) on models/`model`.json, ten logical
 * capacities of 4 KiB random writes at queue depth 16, trims beside them when `trims`. */
static void run_one(const char *model, const char *const *sets, bool trims, const char *label)
{
    ssdsim_model *m = st_model(model, NULL);
    ssdsim_error err;
    for (const char *const *kv = sets; *kv; kv++) {
        char key[128];
        const char *eq = strchr(*kv, '=');
        snprintf(key, sizeof key, "%.*s", (int)(eq - *kv), *kv);
        int rc = ssdsim_model_set(m, key, eq + 1, &err);
        ck_assert_msg(rc == 0, "%s: %s", label, err.message);
    }
    ssdsim *sim = NULL;
    int rc = ssdsim_new(&sim, m, 7, &err);
    ck_assert_msg(rc == 0, "%s: %s", label, err.message);
    ck_assert_int_eq(ssdsim_set_check_period(sim, CHECK_EVERY), 0);
    uint64_t lp = 0;
    uint32_t page = 0;
    ck_assert_int_eq(ssdsim_device_shape(sim, NULL, NULL, NULL, &page, &lp), 0);
    uint64_t cap = lp * page;
    char job[512];
    if (trims)
        snprintf(job, sizeof job,
                 "[w]\nioengine=libaio\nrw=randwrite\nbs=4k\niodepth=%u\nio_size=%llu\n"
                 "[t]\nioengine=libaio\nrw=randtrim\nbs=8k\niodepth=2\nio_size=%llu\n",
                 writer_qd, (unsigned long long)(cap * 10), (unsigned long long)(cap * 2));
    else
        snprintf(job, sizeof job,
                 "[w]\nioengine=libaio\nrw=randwrite\nbs=4k\niodepth=%u\nio_size=%llu\n", writer_qd,
                 (unsigned long long)(cap * 10));
    ssdsim_workload *wl = NULL;
    rc = ssdsim_workload_load_string(&wl, job, label, &err);
    ck_assert_msg(rc == 0, "%s: %s", label, err.message);
    rc = ssdsim_run(sim, wl, NULL);
    ck_assert_msg(rc == 0, "%s: %s", label, ssdsim_errmsg(sim));
    char why[400];
    ck_assert_msg(ssdsim_check(sim, why, sizeof why) == 0, "%s: %s", label, why);
    assert_conserved(sim, label);
    n_runs++;
    n_checks += ssdsim_checks_done(sim) + 1;
    ssdsim_workload_free(wl);
    ssdsim_free(sim);
    ssdsim_model_free(m);
}

/* Blocks per plane for over-provisioning `op`: enough spare blocks for the watermarks and the
 * open blocks (and FAST's log blocks), odd. */
static uint32_t blocks_for(double op)
{
    return op < 0.1 ? 161 : op < 0.5 ? 41 : 17;
}

static const double ops[] = {0.05, 0.28, 1.0};
static const char *const geos[][4] = {
    /* one channel, three chips of one die of one plane */
    {"geometry.channels=1", "geometry.chips_per_channel=3", "geometry.dies_per_chip=1",
     "geometry.planes_per_die=1"},
    /* one chip of one die of two planes */
    {"geometry.channels=1", "geometry.chips_per_channel=1", "geometry.dies_per_chip=1",
     "geometry.planes_per_die=2"},
};

/* One run of the matrix: FTL, GC policy, ops[o], geos[g], buffer, trims; `variant` (the run's
 * number) turns on hot/cold separation, shared GC frontiers and static wear leveling in turn
 * (page and dftl). */
static void matrix_run(const char *ftl, const char *policy, size_t o, size_t g, int buf,
                       int trims, uint64_t variant)
{
    char kv[5][64];
    const char *sets[24];
    size_t n = 0;
    for (int i = 0; i < 4; i++)
        sets[n++] = geos[g][i];
    sets[n++] = "geometry.pages_per_block=8";
    /* (op first: the blocks are checked against it) */
    snprintf(kv[0], 64, "ftl.op=%g", ops[o]);
    snprintf(kv[1], 64, "geometry.blocks_per_plane=%u", blocks_for(ops[o]));
    snprintf(kv[2], 64, "ftl.type=%s", ftl);
    snprintf(kv[3], 64, "gc.policy=%s", policy);
    snprintf(kv[4], 64, "buffer.size=%s", buf ? "64KiB" : "0");
    for (int i = 0; i < 5; i++)
        sets[n++] = kv[i];
    if (!strcmp(ftl, "dftl"))
        sets[n++] = "ftl.cmt_entries=64";
    if (strcmp(ftl, "fast")) {
        if (variant % 3 == 1)
            sets[n++] = "ftl.hot_cold=true";
        if (variant % 4 == 2)
            sets[n++] = "gc.separate=false";
        if (variant % 5 == 3) {
            sets[n++] = "wl.policy=static";
            sets[n++] = "wl.threshold=4";
            sets[n++] = "wl.interval=8";
        }
    }
    sets[n] = NULL;
    char label[256];
    snprintf(label, sizeof label, "%s/%s op %g geometry %zu buffer %d trims %d (variant %llu)",
             ftl, policy, ops[o], g, buf, trims, (unsigned long long)variant);
    run_one("generic-slc", sets, trims, label);
}

START_TEST(test_matrix)
{
    const char *ftls[] = {"page", "dftl", "fast"};
    /* GC policies from the registry */
    const char *policies[16];
    size_t n_pol = 0;
    for (size_t i = 0; i < ssdsim_plugin_count(SSDSIM_PLUGIN_GC) && n_pol < 16; i++)
        ck_assert_int_eq(ssdsim_plugin_describe(SSDSIM_PLUGIN_GC, i, &policies[n_pol++], NULL,
                                                NULL),
                         0);
    ck_assert_uint_ge(n_pol, 6);
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    uint64_t variant = 0;
    for (size_t f = 0; f < SSDSIM__ARRAY_LEN(ftls); f++) {
        size_t np = strcmp(ftls[f], "fast") ? n_pol : 1;
        for (size_t p = 0; p < np; p++)
            for (size_t o = 0; o < SSDSIM__ARRAY_LEN(ops); o++)
                for (size_t g = 0; g < SSDSIM__ARRAY_LEN(geos); g++)
                    for (int buf = 0; buf < 2; buf++)
                        for (int trims = 0; trims < 2; trims++, variant++)
                            matrix_run(ftls[f], policies[p], o, g, buf, trims, variant);
    }
    /* direct, on media without erase */
    for (int buf = 0; buf < 2; buf++)
        for (int trims = 0; trims < 2; trims++) {
            const char *sets[] = {"geometry.channels=1", "geometry.chips_per_channel=3",
                                  "geometry.blocks_per_plane=17", "geometry.pages_per_block=8",
                                  buf ? "buffer.size=64KiB" : "buffer.size=0", NULL};
            run_one("optane-memory-32", sets, trims, buf ? "direct with buffer" : "direct");
        }
    clock_gettime(CLOCK_MONOTONIC, &t1);
    printf("test_invariants: %llu runs, %llu consistency checks, %.1f s\n",
           (unsigned long long)n_runs, (unsigned long long)n_checks,
           (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) * 1e-9);
}
END_TEST

/* Regression (the checker's first find): DFTL wrote a translation page back at the first GC
 * move of an uncached entry of it, and skipped the victim's later moves of that page's entries
 * (once per page per victim), so the page in flash kept their old locations for good. */
START_TEST(test_dftl_gc_batch)
{
    matrix_run("dftl", "greedy", 0, 0, 1, 1, 147);
    matrix_run("dftl", "greedy", 0, 1, 0, 1, 149);
}
END_TEST

/* Regression: DFTL at 5% over-provisioning with 8-page blocks, written at queue depth 1 or 2,
 * stopped with "the device cannot free space": each plane had fallen below its low watermark
 * when no candidate of it had garbage (the translation pages' frontier holds blocks too), so
 * foreground GC found nothing, and the overwrites that later gave the planes garbage, made on
 * other planes, started no collection there; with its one or two writes waiting for a free
 * block, nothing else would. Such a plane now starts GC at the first invalidation that gives
 * it a candidate with garbage. */
START_TEST(test_dftl_starved_planes)
{
    for (writer_qd = 1; writer_qd <= 2; writer_qd++)
        for (size_t g = 0; g < SSDSIM__ARRAY_LEN(geos); g++)
            for (int trims = 0; trims < 2; trims++)
                matrix_run("dftl", "greedy", 0, g, 0, trims, 144);
    writer_qd = 16;
}
END_TEST

/* 1 MiB of 4 KiB random writes at queue depth 4 on a new device of m, which must then be
 * consistent; its page FTL's state, for a test to put out of step. */
static struct ssdsim__ftl *written_1m(ssdsim *sim)
{
    st_run(sim, "{\"rw\":\"randwrite\",\"bs\":\"4k\",\"iodepth\":4,\"io_size\":\"1m\"}", NULL);
    char why[400];
    ck_assert_int_eq(ssdsim_check(sim, why, sizeof why), 0);
    return ((struct ssdsim *)sim)->sys.devs[0].env.state;
}

/* gc.throttle with stripe placement: the summary of the dies whose planes owe no GC copies,
 * which choose_stripe walks instead of every die (page_place.c), stays in step with the planes
 * through collections on 75 dies (two words of the bitmap) and on one die of each channel, and
 * the checker names it when it does not. */
START_TEST(test_throttle_stripe)
{
    static const char *const shapes[][3] = {
        {"geometry.channels=5", "geometry.chips_per_channel=5", "geometry.dies_per_chip=3"},
        {"geometry.channels=4", "geometry.chips_per_channel=1", "geometry.dies_per_chip=1"},
    };
    for (size_t g = 0; g < SSDSIM__ARRAY_LEN(shapes); g++)
        for (int planes = 1; planes <= 2; planes++) {
            char pk[64], label[64];
            snprintf(pk, sizeof pk, "geometry.planes_per_die=%d", planes);
            snprintf(label, sizeof label, "throttle, stripe, shape %zu, %d planes", g, planes);
            const char *sets[] = {shapes[g][0], shapes[g][1], shapes[g][2], pk,
                                  "geometry.pages_per_block=8", "ftl.op=0.28",
                                  "geometry.blocks_per_plane=41", "gc.throttle=true",
                                  "ftl.placement=stripe", "buffer.size=64KiB", NULL};
            run_one("generic-slc", sets, g == 1, label);
        }
    ssdsim_model *m = st_model("generic-slc", "geometry.channels=2", "geometry.blocks_per_plane=41",
                               "geometry.pages_per_block=8", "gc.throttle=true",
                               "ftl.placement=stripe", NULL);
    ssdsim *sim = st_sim(m, 1);
    struct ssdsim__ftl *f = written_1m(sim);
    char why[400];
    ck_assert_ptr_nonnull(f->die_nodebt);
    f->die_nodebt[1]++;
    ck_assert_int_eq(ssdsim_check(sim, why, sizeof why), SSDSIM_ESTATE);
    ck_assert_msg(strstr(why, "die 1 has") != NULL, "%s", why);
    f->die_nodebt[1]--;
    ck_assert_int_eq(ssdsim_check(sim, why, sizeof why), 0);
    ssdsim_free(sim);
    ssdsim_model_free(m);
}
END_TEST

/* The checker names a broken state: a valid count off by one, an l2p entry that p2l does not
 * point back to, a mapped page not marked valid. */
START_TEST(test_detects)
{
    ssdsim_model *m = st_model("generic-slc", "geometry.channels=1",
                               "geometry.chips_per_channel=1", "geometry.dies_per_chip=1",
                               "geometry.planes_per_die=1", "geometry.blocks_per_plane=41",
                               "geometry.pages_per_block=8", NULL);
    ssdsim *sim = st_sim(m, 1);
    struct ssdsim__ftl *f = written_1m(sim);
    char why[400];
    uint32_t ppn = f->l2p[5];
    ck_assert_uint_ne(ppn, SSDSIM__NONE32);
    f->valid[ppn / f->ppb]++;
    ck_assert_int_eq(ssdsim_check(sim, why, sizeof why), SSDSIM_ESTATE);
    ck_assert_msg(strstr(why, "valid count") != NULL, "%s", why);
    f->valid[ppn / f->ppb]--;
    f->p2l[ppn] = 6;
    ck_assert_int_eq(ssdsim_check(sim, why, sizeof why), SSDSIM_ESTATE);
    ck_assert_msg(strstr(why, "l2p[5]") != NULL, "%s", why);
    f->p2l[ppn] = 5;
    ck_assert_int_eq(ssdsim_check(sim, why, sizeof why), 0);
    /* the page's bit in `live` cleared: p2l still names lpn 5, the bitmap says not valid */
    f->live[ppn >> 6] &= ~(1ULL << (ppn & 63));
    ck_assert_int_eq(ssdsim_check(sim, why, sizeof why), SSDSIM_ESTATE);
    ck_assert_msg(strstr(why, "l2p[5]") != NULL && strstr(why, "marked not valid") != NULL, "%s",
                  why);
    f->live[ppn >> 6] |= 1ULL << (ppn & 63);
    ck_assert_int_eq(ssdsim_check(sim, why, sizeof why), 0);
    /* a period stops the next run at the first check with the diagnosis */
    f->valid[ppn / f->ppb]++;
    ck_assert_int_eq(ssdsim_set_check_period(sim, 100), 0);
    ssdsim_workload *wl =
        st_workload("{\"rw\":\"randwrite\",\"bs\":\"4k\",\"iodepth\":4,\"io_size\":\"1m\"}");
    ck_assert_int_eq(ssdsim_run(sim, wl, NULL), SSDSIM_ESTATE);
    ck_assert_msg(strstr(ssdsim_errmsg(sim), "consistency check failed") != NULL, "%s",
                  ssdsim_errmsg(sim));
    ssdsim_workload_free(wl);
    ssdsim_free(sim);
    ssdsim_model_free(m);
}
END_TEST

/* A RAID-5 of four tiny SSDs (one chip, 41 blocks of 8 pages each, 16 KiB strips) under
 * random writes of 4 KiB and 24 KiB (read-modify-writes of one and of two strips, whole rows
 * now and then) with trims beside them: every device and the parity of every row, by content
 * tags, stay consistent; a tag changed by hand is named. */
static ssdsim_model *raid5_model(const char *buffer)
{
    char member[1024], path[1024];
    snprintf(path, sizeof path, "%s/tests/test_invariants-member-%ld.json", BUILDDIR,
             (long)getpid());
    snprintf(member, sizeof member,
             "{\"name\":\"tiny\",\"geometry\":{\"channels\":1,\"chips_per_channel\":1,"
             "\"dies_per_chip\":1,\"planes_per_die\":1,\"blocks_per_plane\":41,"
             "\"pages_per_block\":8,\"page_size\":\"4KiB\"},"
             "\"flash\":{\"cell\":\"slc\",\"read_us\":10,\"program_us\":20,\"erase_us\":1000,"
             "\"bus_mts\":100,\"bus_width\":8},"
             "\"controller\":{\"cmd_overhead_us\":5,\"cores\":1,\"queue_depth\":32},"
             "\"host\":{\"link_bw\":\"400MB/s\",\"cmd_overhead_us\":3},"
             "\"ftl\":{\"op\":0.28}%s}",
             buffer);
    FILE *f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    ck_assert_int_ge(fputs(member, f), 0);
    ck_assert_int_eq(fclose(f), 0);
    char json[1400];
    snprintf(json, sizeof json,
             "{\"name\":\"sys\",\"system\":{\"member\":\"%s\",\"count\":4,\"layout\":\"raid5\","
             "\"stripe\":\"16KiB\",\"controllers\":4}}",
             path);
    ssdsim_model *m = NULL;
    ssdsim_error err;
    int rc = ssdsim_model_load_string(&m, json, "raid5 model", &err);
    ck_assert_msg(rc == 0, "%s", err.message);
    ck_assert_int_eq(remove(path), 0);
    return m;
}

START_TEST(test_raid5)
{
    for (int buf = 0; buf < 2; buf++) {
        ssdsim_model *m = raid5_model(buf ? ",\"buffer\":{\"size\":\"64KiB\"}" : "");
        ssdsim *sim = st_sim(m, 3);
        ck_assert_int_eq(ssdsim_set_check_period(sim, CHECK_EVERY), 0);
        uint64_t cap = 0;
        uint32_t n_dev = ssdsim_n_devices(sim);
        ck_assert_uint_eq(n_dev, 4);
        uint64_t lp = 0;
        ck_assert_int_eq(ssdsim_device_shape(sim, NULL, NULL, NULL, NULL, &lp), 0);
        cap = lp * 4096 * 3; /* the volume: three data strips a row */
        char job[512];
        snprintf(job, sizeof job,
                 "[small]\nrw=randwrite\nbs=4k\nioengine=libaio\niodepth=8\nio_size=%llu\n"
                 "[wide]\nrw=randwrite\nbs=24k\nioengine=libaio\niodepth=2\nio_size=%llu\n"
                 "[t]\nrw=randtrim\nbs=16k\niodepth=1\nio_size=%llu\n",
                 (unsigned long long)(cap * 4), (unsigned long long)(cap * 4),
                 (unsigned long long)cap);
        ssdsim_workload *wl = st_workload(job);
        int rc = ssdsim_run(sim, wl, NULL);
        ck_assert_msg(rc == 0, "raid5 (buffer %d): %s", buf, ssdsim_errmsg(sim));
        ck_assert_uint_gt(ssdsim_checks_done(sim), 10);
        n_runs++;
        n_checks += ssdsim_checks_done(sim);
        char why[400];
        ck_assert_msg(ssdsim_check(sim, why, sizeof why) == 0, "%s", why);
        /* the tags are kept, and a parity that missed a write is found */
        struct ssdsim__sys *sys = &((struct ssdsim *)sim)->sys;
        ck_assert_ptr_nonnull(sys->tags);
        sys->tags[2][5] ^= 1;
        ck_assert_int_eq(ssdsim_check(sim, why, sizeof why), SSDSIM_ESTATE);
        ck_assert_msg(strstr(why, "RAID-5 row 1,") != NULL, "%s", why);
        sys->tags[2][5] ^= 1;
        ck_assert_int_eq(ssdsim_check(sim, why, sizeof why), 0);
        ssdsim_workload_free(wl);
        ssdsim_free(sim);
        ssdsim_model_free(m);
    }
}
END_TEST

/* ssdsim run --check[=N]: the checks passed are counted on stderr; N must be positive. */
START_TEST(test_cli_check)
{
    char model[1024], wl[1024];
    snprintf(model, sizeof model, "%s/models/generic-slc.json", SRCDIR);
    write_file(out_path(wl, sizeof wl, "invariants-wl.json"),
               "{\"rw\":\"randwrite\",\"bs\":\"4k\",\"iodepth\":16,\"io_size\":\"48m\"}");
    struct cmd c;
    RUN(&c, "run", "--model", model, "--set", "geometry.blocks_per_plane=32", "--set",
        "geometry.channels=1", "--workload", wl, "--check=3000");
    ck_assert_msg(c.status == 0, "status %d: %s", c.status, c.err);
    unsigned long long n = 0;
    const char *at = strstr(c.err, "consistency checks: ");
    ck_assert_msg(at && sscanf(at, "consistency checks: %llu passed (every 3000 events)", &n) == 1,
                  "%s", c.err);
    ck_assert_uint_ge(n, 2); /* (during the run, and at its end) */
    cmd_free(&c);
    RUN(&c, "run", "--model", model, "--workload", wl, "--check=0");
    assert_one_error(&c, 2, "--check expects a positive number of events, got '0'");
    cmd_free(&c);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("invariants");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 600);
    tcase_add_test(tc, test_detects);
    tcase_add_test(tc, test_throttle_stripe);
    tcase_add_test(tc, test_dftl_gc_batch);
    tcase_add_test(tc, test_dftl_starved_planes);
    tcase_add_test(tc, test_raid5);
    tcase_add_test(tc, test_matrix);
    suite_add_tcase(s, tc);
    TCase *cli = tcase_create("cli");
    tcase_set_timeout(cli, 600);
    tcase_add_test(cli, test_cli_check);
    suite_add_tcase(s, cli);
    return test_run_suite(s);
}
