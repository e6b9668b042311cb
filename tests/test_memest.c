/* test_memest.c: the memory estimate of a simulation (libssdsim/memest.c) against byte counts
 * derived by hand from the geometry, and the refusal of a model beyond the memory limit before
 * anything is allocated. */
#include "config/model.h"
#include "memest.h"
#include "ssdsim/ssdsim.h"
#include "workload/workload.h"

#include <stdlib.h>
#include <string.h>

#include "testutil.h"

static ssdsim_model *load(const char *rel)
{
    char path[4096];
    ssdsim_model *m = NULL;
    ssdsim_error e;
    ck_assert_int_eq(ssdsim_model_load_file(&m, test_src_path(path, sizeof path, rel), &e), 0);
    return m;
}

static void set(ssdsim_model *m, const char *key, const char *value)
{
    ssdsim_error e;
    int rc = ssdsim_model_set(m, key, value, &e);
    ck_assert_msg(rc == 0, "%s=%s: %s", key, value, e.message);
}

/* generic-mlc (16 GiB): 64 planes x 512 blocks x 128 pages = 4194304 pages of 4 KiB, op 0.28:
 * 3276800 logical pages. l2p 4 x 3276800 + p2l 4 x 4194304 + a bit per page saying it holds
 * valid data (4194304 / 8 bytes) + 51 bytes x 32768 blocks (the block table 23, GC candidates
 * 24, erase count 4) + GC candidate buckets, 2 x 4 bytes x (128 + 1) per plane. */
START_TEST(test_memest_generic_mlc)
{
    ssdsim_model *m = load("models/generic-mlc.json");
    ck_assert_uint_eq(ssdsim__model_memory(m),
                      13107200u + 16777216u + 524288u + 51u * 32768 + 64u * 129 * 8);
    /* the public figure is the same estimate */
    ck_assert_uint_eq(ssdsim_model_memory_bytes(m), ssdsim__model_memory(m));
    ck_assert_uint_eq(ssdsim_model_memory_bytes(NULL), 0);
    ssdsim_model_free(m);
}
END_TEST

/* A 32 TiB drive of 8 KiB pages mapped in 16 KiB units: 16 x 2 x 2 x 2 planes x 174763 blocks
 * x 192 pages = 4294975488 pages (more than 32 bits count) but 2147487744 units, 96 per block;
 * op 0.07: floor(2147487744 / 1.07) = 2006997891 logical units. */
START_TEST(test_memest_32tib_16k_units)
{
    ssdsim_model *m = load("models/generic-tlc.json");
    set(m, "ftl.mapping_unit", "\"16KiB\"");
    set(m, "geometry.channels", "16");
    set(m, "geometry.blocks_per_plane", "174763");
    uint64_t blocks = 16ull * 8 * 174763;
    uint64_t want = 4ull * 2006997891 + 4ull * 2147487744 + 2147487744 / 8 + 51 * blocks +
                    128u * 97 * 8;
    ck_assert_uint_eq(ssdsim__model_memory(m), want);
    ck_assert_uint_eq(ssdsim_model_logical_bytes(m), 2006997891ull * 16384);

    /* Beyond the limit: refused by ssdsim_new with the bytes needed, nothing built. */
    setenv("SSDSIM_MEMORY_LIMIT", "1GiB", 1);
    ssdsim *sim = NULL;
    ssdsim_error e;
    ck_assert_int_eq(ssdsim_new(&sim, m, 1, &e), SSDSIM_ENOMEM);
    ck_assert_ptr_null(sim);
    char bytes[32];
    snprintf(bytes, sizeof bytes, "%llu bytes", (unsigned long long)want);
    ck_assert_msg(strstr(e.message, bytes) && strstr(e.message, "SSDSIM_MEMORY_LIMIT") &&
                      !strchr(e.message, '\n'),
                  "%s", e.message);
    setenv("SSDSIM_MEMORY_LIMIT", "sixteen", 1);
    ck_assert_int_eq(ssdsim_new(&sim, m, 1, &e), SSDSIM_EINVAL);
    ck_assert_ptr_nonnull(strstr(e.message, "SSDSIM_MEMORY_LIMIT"));
    unsetenv("SSDSIM_MEMORY_LIMIT");
    ssdsim_model_free(m);
}
END_TEST

/* Per-unit arrays that only some features have: hot/cold's write clock (4 bytes per logical
 * unit), RAIN's stripe marks (2 bits per physical unit) and superblocks, the held-program
 * table of units smaller than the page (12 bytes per block). */
START_TEST(test_memest_features)
{
    ssdsim_model *m = load("models/generic-mlc.json");
    uint64_t base = ssdsim__model_memory(m);
    set(m, "ftl.hot_cold", "true");
    ck_assert_uint_eq(ssdsim__model_memory(m), base + 4u * 3276800);
    ssdsim_model_free(m);
    /* RAIN on generic-mlc (64 planes x 512 blocks x 128 pages): 2 bits for each of the
     * 4,194,304 physical pages, and per superblock (512, one per block of a plane) 53 bytes,
     * with 2 x 4 bytes of bucket heads per superblock valid count (0 to 64 x 128) */
    m = load("models/generic-mlc.json");
    set(m, "ftl.parity_group", "8");
    ck_assert_uint_eq(ssdsim__model_memory(m),
                      base + 4194304u / 4 + 512u * 53 + (64u * 128 + 1) * 8);
    ssdsim_model_free(m);
    m = load("models/generic-tlc.json");
    /* 64 planes x 512 blocks x 192 pages of 8 KiB, op 0.07; 4 KiB units: 2 per page, 384 per
     * block */
    uint64_t blocks = 64u * 512, units = blocks * 192 * 2;
    set(m, "ftl.mapping_unit", "\"4KiB\"");
    uint64_t lpn = ssdsim_model_logical_bytes(m) / 4096;
    ck_assert_uint_eq(lpn, 11759730u); /* floor(12582912 / 1.07) */
    ck_assert_uint_eq(ssdsim__model_memory(m),
                      4 * lpn + 4 * units + units / 8 + (51 + 16) * blocks + 64u * 385 * 8);
    ssdsim_model_free(m);
}
END_TEST

/* A small drive (generic-mlc with 32 blocks per plane) and a random-write workload of
 * `numjobs` x `iodepth`, each clone writing `ios` requests. */
static void small_run_setup(ssdsim **sim, ssdsim_workload **wl, const char *numjobs,
                            const char *iodepth, const char *ios)
{
    ssdsim_model *m = load("models/generic-mlc.json");
    set(m, "geometry.blocks_per_plane", "32");
    ssdsim_error e;
    ck_assert_int_eq(ssdsim_new(sim, m, 1, &e), 0);
    ssdsim_model_free(m);
    ck_assert_int_eq(ssdsim_workload_new(wl, "w", &e), 0);
    ck_assert_int_eq(ssdsim_workload_set(*wl, "rw", "randwrite", &e), 0);
    ck_assert_int_eq(ssdsim_workload_set(*wl, "numjobs", numjobs, &e), 0);
    ck_assert_int_eq(ssdsim_workload_set(*wl, "iodepth", iodepth, &e), 0);
    ck_assert_int_eq(ssdsim_workload_set(*wl, "number_ios", ios, &e), 0);
}

/* numjobs x iodepth beyond SSDSIM__OUTSTANDING_MAX is refused before a request exists, with the
 * counts and the memory they would take: 1024 x 65535 once ran for minutes at 13 GB. The jobs
 * that run together count together; a stonewall starts a new count. */
START_TEST(test_memest_outstanding_requests)
{
    ck_assert_uint_eq(SSDSIM__OUTSTANDING_MAX, 4194304u);
    char why[512];
    ck_assert_int_eq(ssdsim__outstanding_check(64, 65536, 64 * 65536, why, sizeof why), 0);
    ck_assert_int_eq(ssdsim__outstanding_check(1024, 65535, 1024ull * 65535, why, sizeof why), 1);
    ck_assert_str_eq(why, "numjobs x iodepth = 1024 x 65535 = 67107840 requests outstanding "
                          "would take about 13421568000 bytes (12.5 GiB, 200 bytes each) of "
                          "host memory; at most 4194304 (0.8 GiB) may be outstanding at once: "
                          "lower numjobs or iodepth");

    ssdsim *sim;
    ssdsim_workload *wl;
    small_run_setup(&sim, &wl, "1024", "65535", "1");
    ck_assert_int_eq(ssdsim_run(sim, wl, NULL), SSDSIM_ECONFIG);
    ck_assert_msg(strstr(ssdsim_errmsg(sim), "w: numjobs x iodepth = 1024 x 65535 = 67107840 "
                                             "requests outstanding would take about "
                                             "13421568000 bytes"),
                  "%s", ssdsim_errmsg(sim));
    ssdsim_workload_free(wl);
    ssdsim_free(sim);

    /* two jobs of 64 x 65536 together are twice the limit; one after the other, each fits */
    ssdsim_error e;
    ck_assert_int_eq(ssdsim_workload_new(&wl, "two", &e), 0);
    ck_assert_int_eq(ssdsim_workload_set(wl, "rw", "randwrite", &e), 0);
    ck_assert_int_eq(ssdsim_workload_add_job(wl, "b", &e), 0);
    ck_assert_int_eq(ssdsim_workload_set(wl, "numjobs", "64", &e), 0);
    ck_assert_int_eq(ssdsim_workload_set(wl, "iodepth", "65536", &e), 0);
    ck_assert_int_eq(ssdsim__workload_check(wl, 1u << 30, why, sizeof why), SSDSIM_ECONFIG);
    ck_assert_str_eq(why, "job 1: numjobs x iodepth = 64 x 65536 = 4194304 requests outstanding "
                          "with the jobs run alongside, 8388608 in all would take about "
                          "1677721600 bytes (1.6 GiB, 200 bytes each) of host memory; at most "
                          "4194304 (0.8 GiB) may be outstanding at once: lower numjobs or "
                          "iodepth");
    ck_assert_int_eq(ssdsim_workload_job_set(wl, 1, "stonewall", "1", &e), 0);
    ck_assert_int_eq(ssdsim__workload_check(wl, 1u << 30, why, sizeof why), 0);
    ssdsim_workload_free(wl);

    /* calibrate's figure: refused when the model is read, before any figure runs */
    ssdsim_model *spec = load("models/generic-mlc.json");
    int rc = ssdsim_model_set(spec, "spec",
                              "{\"source\": \"t\", \"figures\": [{\"name\": \"big\", "
                              "\"metric\": \"write_iops\", \"value\": 1000, \"rw\": "
                              "\"randwrite\", \"bs\": \"4KiB\", \"iodepth\": 65535, "
                              "\"numjobs\": 1024}]}",
                              &e);
    ck_assert_int_eq(rc, SSDSIM_ECONFIG);
    ck_assert_msg(strstr(e.message, "spec.figures[0]") &&
                      strstr(e.message, "numjobs x iodepth = 1024 x 65535 = 67107840"),
                  "%s", e.message);
    ssdsim_model_free(spec);
}
END_TEST

/* The progress callback that cancels at its first call, and how often it was called. */
static int cancel_first(double fraction, void *ud)
{
    (void)fraction;
    return ++*(int *)ud;
}

/* The requests a wave starts at one moment are issued in one event: the cancel check comes
 * every SSDSIM__HOST_POLL_REQUESTS of them, so an interrupt does not wait for millions (a
 * SIGTERM once took 73 s). 2 x 65536 requests: cancelled at the first check, at time 0, with
 * nothing completed (the run loop's own check would have come after its first events). */
START_TEST(test_memest_fill_honours_cancel)
{
    ssdsim *sim;
    ssdsim_workload *wl;
    small_run_setup(&sim, &wl, "2", "65536", "65536");
    int calls = 0;
    ssdsim_set_progress(sim, cancel_first, &calls);
    ck_assert_int_eq(ssdsim_run(sim, wl, NULL), SSDSIM_ECANCELLED);
    ck_assert_int_eq(calls, 1);
    ck_assert_int_eq(ssdsim_interrupted(sim), 1);
    ssdsim_op_stats st;
    ck_assert_int_eq(ssdsim_get_op_stats(sim, SSDSIM_OP_WRITE, &st), 0);
    ck_assert_uint_eq(st.count, 0);
    ck_assert_uint_eq(ssdsim_now(sim), 0);
    ssdsim_workload_free(wl);
    ssdsim_free(sim);
}
END_TEST

static Suite *memest_suite(void)
{
    Suite *s = suite_create("memest");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, test_memest_generic_mlc);
    tcase_add_test(tc, test_memest_32tib_16k_units);
    tcase_add_test(tc, test_memest_features);
    tcase_add_test(tc, test_memest_outstanding_requests);
    tcase_add_test(tc, test_memest_fill_honours_cancel);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return test_run_suite(memest_suite());
}
