/* test_memest.c: the memory estimate of a simulation (libssdsim/memest.c) against byte counts
 * derived by hand from the geometry, and the refusal of a model beyond the memory limit before
 * anything is allocated. */
#include "ssdsim/ssdsim.h"
#include "config/model.h"
#include "memest.h"

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

static Suite *memest_suite(void)
{
    Suite *s = suite_create("memest");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, test_memest_generic_mlc);
    tcase_add_test(tc, test_memest_32tib_16k_units);
    tcase_add_test(tc, test_memest_features);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return test_run_suite(memest_suite());
}
