/* test_old_caller.c: a program compiled against older headers keeps working when the structs of
 * the API grow (doc/api.md, "Versioned structs"). Deliberately old callers: result structs
 * declared with fewer fields than today's, each followed by a canary that the library must not
 * touch; an option struct of an older layout, followed by bytes that would be wrong if read, read
 * through the library's version table (a made-up two-version table, since every option struct of
 * 1.0 is still at its first layout); a zero-initialised struct (version 0) and one from a newer
 * library (refused with a message, not misread); a result struct of a newer layout (zeros past
 * what this library knows). */
#include <check.h>
#include <stdint.h>
#include <string.h>

#include "abi.h"
#include "simtest.h"
#include "ssdsim/measure.h"
#include "ssdsim/suite.h"
#include "ssdsim/trace.h"
#include "testutil.h"

#define CANARY 0xA5u

/* ssdsim_op_stats as an older header might have had it: the first three fields only. */
struct old_op_stats {
    uint64_t count;
    uint64_t bytes;
    double iops;
};

/* ssdsim_device_stats cut after its first four counters. */
struct old_device_stats {
    uint64_t host_pages_written;
    uint64_t flash_pages_programmed;
    uint64_t gc_pages_copied;
    uint64_t blocks_erased;
};

static int canary_intact(const unsigned char *p, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (p[i] != CANARY)
            return 0;
    return 1;
}

/* 200 writes of 4 KiB and 100 reads: counts known without asking the library. */
static ssdsim *ran_sim(void)
{
    ssdsim_model *m = st_model("generic-mlc", "geometry.blocks_per_plane=64", NULL);
    ssdsim *sim = st_sim(m, 1);
    ssdsim_model_free(m);
    st_run(sim, "{\"rw\": \"write\", \"bs\": \"4k\", \"number_ios\": 200}", NULL);
    return sim;
}

START_TEST(test_old_result_structs_are_filled_up_to_their_size)
{
    ssdsim *sim = ran_sim();
    struct {
        struct old_op_stats s;
        unsigned char canary[sizeof(ssdsim_op_stats)];
    } ops;
    memset(&ops, CANARY, sizeof ops);
    ck_assert_int_eq(ssdsim_get_op_stats_sized(sim, SSDSIM_OP_WRITE,
                                               (ssdsim_op_stats *)(void *)&ops, sizeof ops.s),
                     0);
    ck_assert_uint_eq(ops.s.count, 200);
    ck_assert_uint_eq(ops.s.bytes, 200 * 4096);
    ck_assert(ops.s.iops > 0);
    ck_assert_msg(canary_intact(ops.canary, sizeof ops.canary),
                  "the library wrote past an old caller's ssdsim_op_stats");

    struct {
        struct old_device_stats d;
        unsigned char canary[sizeof(ssdsim_device_stats)];
    } dev;
    memset(&dev, CANARY, sizeof dev);
    ck_assert_int_eq(
        ssdsim_get_device_stats_sized(sim, (ssdsim_device_stats *)(void *)&dev, sizeof dev.d), 0);
    /* 4 KiB writes on a 4 KiB-unit drive with no GC yet: one unit each. */
    ck_assert_uint_eq(dev.d.host_pages_written, 200);
    ck_assert_uint_eq(dev.d.gc_pages_copied, 0);
    ck_assert_msg(canary_intact(dev.canary, sizeof dev.canary),
                  "the library wrote past an old caller's ssdsim_device_stats");

    /* Today's callers get every field, the same figures. */
    ssdsim_device_stats full;
    ck_assert_int_eq(ssdsim_get_device_stats(sim, &full), 0);
    ck_assert_uint_eq(full.host_pages_written, dev.d.host_pages_written);
    ck_assert_uint_eq(full.flash_pages_programmed, dev.d.flash_pages_programmed);
    ssdsim_free(sim);
}
END_TEST

/* A caller compiled against newer headers passes a larger struct: it gets today's fields, and
 * zeros (not stale bytes) in the fields this library does not know; a failed getter writes
 * nothing. */
START_TEST(test_newer_result_struct_gets_zeros_beyond_the_library_layout)
{
    ssdsim *sim = ran_sim();
    struct {
        ssdsim_op_stats s;
        unsigned char newer[64];
    } ops;
    memset(&ops, CANARY, sizeof ops);
    ck_assert_int_eq(ssdsim_get_op_stats_sized(sim, SSDSIM_OP_WRITE,
                                               (ssdsim_op_stats *)(void *)&ops, sizeof ops),
                     0);
    ck_assert_uint_eq(ops.s.count, 200);
    for (size_t i = 0; i < sizeof ops.newer; i++)
        ck_assert_uint_eq(ops.newer[i], 0);

    struct {
        ssdsim_interval s;
        unsigned char newer[64];
    } iv;
    memset(&iv, CANARY, sizeof iv);
    ck_assert_int_ne(
        ssdsim_get_interval_sized(sim, 1u << 30, (ssdsim_interval *)(void *)&iv, sizeof iv), 0);
    ck_assert_msg(canary_intact((const unsigned char *)&iv, sizeof iv),
                  "a failed getter wrote into the caller's struct");
    ssdsim_free(sim);
}
END_TEST

/* Option structs through the library's reader, with layouts of two versions. */
struct opts_v1 {
    unsigned int version;
    uint32_t depth;
};
struct opts_v2 {
    unsigned int version;
    uint32_t depth;
    uint64_t added_later; /* starts at or after sizeof(struct opts_v1), as abi.h requires */
};

START_TEST(test_old_option_struct_is_read_only_as_far_as_its_version)
{
    static const size_t sizes[] = {0, sizeof(struct opts_v1), sizeof(struct opts_v2)};
    struct {
        struct opts_v1 o;
        unsigned char canary[16];
    } old;
    memset(&old, CANARY, sizeof old);
    old.o.version = 1;
    old.o.depth = 7;
    struct opts_v2 got;
    char why[200] = "";
    ck_assert_int_eq(ssdsim__opts_read(&got, sizeof got, &old, sizes, 2, "opts", why, sizeof why),
                     0);
    ck_assert_uint_eq(got.version, 2);
    ck_assert_uint_eq(got.depth, 7);
    ck_assert_uint_eq(got.added_later, 0); /* the default, not the canary after the struct */

    /* Version 0 (zero-initialised) is the first layout. */
    old.o.version = 0;
    ck_assert_int_eq(ssdsim__opts_read(&got, sizeof got, &old, sizes, 2, "opts", why, sizeof why),
                     0);
    ck_assert_uint_eq(got.depth, 7);
    ck_assert_uint_eq(got.added_later, 0);

    /* A caller compiled against a newer library: refused, not misread. */
    struct opts_v2 newer = {3, 1, 2};
    ck_assert_int_eq(ssdsim__opts_read(&got, sizeof got, &newer, sizes, 2, "opts", why, sizeof why),
                     SSDSIM_EINVAL);
    ck_assert_msg(strstr(why, "opts version 3 is newer than this library's (2)"), "%s", why);
}
END_TEST

START_TEST(test_run_opts_versions)
{
    ssdsim_model *m = st_model("generic-mlc", "geometry.blocks_per_plane=64", NULL);
    ssdsim *sim = st_sim(m, 1);
    ssdsim_model_free(m);
    ssdsim_workload *wl =
        st_workload("{\"rw\": \"randwrite\", \"bs\": \"4k\", \"number_ios\": 1000}");

    /* The documented usage of 0.x: zero-initialise, then set; version 0 is layout 1. */
    ssdsim_run_opts zero = {0};
    zero.interval_ios = 100;
    ck_assert_msg(ssdsim_run(sim, wl, &zero) == 0, "%s", ssdsim_errmsg(sim));
    ck_assert_uint_eq(ssdsim_n_intervals(sim), 10);

    ssdsim_run_opts init = SSDSIM_RUN_OPTS_INIT;
    ck_assert_uint_eq(init.version, SSDSIM_RUN_OPTS_VERSION);
    init.interval_ios = 250;
    ck_assert_msg(ssdsim_run(sim, wl, &init) == 0, "%s", ssdsim_errmsg(sim));
    ck_assert_uint_eq(ssdsim_n_intervals(sim), 4);

    ssdsim_run_opts byfn;
    memset(&byfn, CANARY, sizeof byfn);
    ck_assert_int_eq(ssdsim_run_opts_init(&byfn, 0), 0);
    ck_assert_uint_eq(byfn.version, SSDSIM_RUN_OPTS_VERSION);
    ck_assert_uint_eq(byfn.interval_ns, 0);
    ck_assert_uint_eq(byfn.max_rounds, 0);
    ck_assert_int_eq(ssdsim_run_opts_init(&byfn, SSDSIM_RUN_OPTS_VERSION + 1), SSDSIM_EINVAL);
    ck_assert_int_eq(ssdsim_run_opts_init(NULL, 0), SSDSIM_EINVAL);

    ssdsim_run_opts newer = SSDSIM_RUN_OPTS_INIT;
    newer.version = SSDSIM_RUN_OPTS_VERSION + 1;
    ck_assert_int_eq(ssdsim_run(sim, wl, &newer), SSDSIM_EINVAL);
    ck_assert_msg(strstr(ssdsim_errmsg(sim), "ssdsim_run_opts version 2 is newer"), "%s",
                  ssdsim_errmsg(sim));
    ssdsim_workload_free(wl);
    ssdsim_free(sim);

    ssdsim_trace *t = NULL;
    ssdsim_trace_opts to = SSDSIM_TRACE_OPTS_INIT;
    to.version = 99;
    ssdsim_error err;
    ck_assert_int_eq(ssdsim_trace_open(&t, SRCDIR "/traces/sample.csv", &to, &err), SSDSIM_EINVAL);
    ck_assert_msg(strstr(err.message, "ssdsim_trace_opts version 99 is newer"), "%s", err.message);
    ck_assert_ptr_null(t);
}
END_TEST

START_TEST(test_version_macros)
{
    char s[32];
    snprintf(s, sizeof s, "%d.%d.%d", SSDSIM_VERSION_MAJOR, SSDSIM_VERSION_MINOR,
             SSDSIM_VERSION_PATCH);
    ck_assert_str_eq(s, SSDSIM_VERSION_STRING);
    ck_assert_str_eq(ssdsim_version(), SSDSIM_VERSION_STRING);
    ck_assert_int_eq(ssdsim_version_number(), SSDSIM_VERSION_NUMBER);
    ck_assert_int_eq(ssdsim_version_check(SSDSIM_VERSION_NUMBER), 1);
    ck_assert_int_eq(ssdsim_version_check(SSDSIM_VERSION_NUMBER + 1), 0);
    ck_assert_int_eq(ssdsim_version_check(SSDSIM_VERSION_NUMBER + 10000), 0);
    ck_assert_int_eq(ssdsim_version_check(-1), 0);
}
END_TEST

/* ssdsim_X_opts_init(opts, 0) gives the current layout all zero, the fields of later versions
 * too (it zeroed layout 1's bytes and stamped the current version, so a field added later kept
 * what the stack held: a placement of 0xABABABAB for ssdsim_submit_ex); a version asked for
 * zeroes that layout, and leaves the bytes beyond it, which an older caller does not have. */
#define INIT_ZEROES_ALL(T, init, VERSION)                                                          \
    do {                                                                                           \
        T o_;                                                                                      \
        memset(&o_, CANARY, sizeof o_);                                                            \
        ck_assert_int_eq(init(&o_, 0), 0);                                                         \
        ck_assert_uint_eq(o_.version, (VERSION));                                                  \
        const unsigned char *p_ = (const unsigned char *)&o_;                                      \
        for (size_t i_ = sizeof o_.version; i_ < sizeof o_; i_++)                                  \
            ck_assert_msg(p_[i_] == 0, #T ": byte %zu of %zu is %#x", i_, sizeof o_, p_[i_]);      \
        memset(&o_, CANARY, sizeof o_);                                                            \
        ck_assert_int_eq(init(&o_, 1), 0);                                                         \
        ck_assert_uint_eq(o_.version, 1);                                                          \
        ck_assert_uint_eq(p_[sizeof o_ - 1], CANARY); /* beyond layout 1 */                        \
    } while (0)

START_TEST(test_opts_init_zero_is_the_whole_current_layout)
{
    INIT_ZEROES_ALL(ssdsim_submit_opts, ssdsim_submit_opts_init, SSDSIM_SUBMIT_OPTS_VERSION);
    INIT_ZEROES_ALL(ssdsim_replay_opts, ssdsim_replay_opts_init, SSDSIM_REPLAY_OPTS_VERSION);
    INIT_ZEROES_ALL(ssdsim_measure_opts, ssdsim_measure_opts_init, SSDSIM_MEASURE_OPTS_VERSION);
    INIT_ZEROES_ALL(ssdsim_trace_opts, ssdsim_trace_opts_init, SSDSIM_TRACE_OPTS_VERSION);
    INIT_ZEROES_ALL(ssdsim_quick_opts, ssdsim_quick_opts_init, SSDSIM_QUICK_OPTS_VERSION);
    INIT_ZEROES_ALL(ssdsim_scaling_opts, ssdsim_scaling_opts_init, SSDSIM_SCALING_OPTS_VERSION);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("old_caller");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_old_result_structs_are_filled_up_to_their_size);
    tcase_add_test(tc, test_newer_result_struct_gets_zeros_beyond_the_library_layout);
    tcase_add_test(tc, test_old_option_struct_is_read_only_as_far_as_its_version);
    tcase_add_test(tc, test_run_opts_versions);
    tcase_add_test(tc, test_opts_init_zero_is_the_whole_current_layout);
    tcase_add_test(tc, test_version_macros);
    suite_add_tcase(s, tc);
    return test_run_suite(s);
}
