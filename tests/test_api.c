/* test_api.c: the public API of libssdsim, used exactly as an outside program uses it.
 *
 * Only "ssdsim/ssdsim.h" is included and the program links the shared library, whose internal
 * (ssdsim__) symbols are hidden: whatever is tested here is reachable by users. Covered: the
 * error-code walk, NULL and bogus input to every public function (a code, never a crash), the
 * unit parsers, model and workload loading errors, a tiny simulation end to end with its figures
 * cross-checked, determinism of two simulations side by side in one process (no global state),
 * the model's canonical JSON reading back, and the state rules after a cancelled or refused run.
 */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ssdsim/measure.h"
#include "ssdsim/ssdsim.h"
#include "ssdsim/suite.h"
#include "testutil.h"

/* ------------------------------------------------------------------------------------------ */
/* Helpers                                                                                     */

static const char *src_path(char *buf, size_t len, const char *rel)
{
    snprintf(buf, len, "%s/%s", SRCDIR, rel);
    return buf;
}

static ssdsim_model *load_model(const char *rel)
{
    char path[4096];
    ssdsim_model *m = NULL;
    ssdsim_error err;
    int rc = ssdsim_model_load_file(&m, src_path(path, sizeof path, rel), &err);
    ck_assert_msg(rc == 0, "%s: %s (%s)", rel, err.message, ssdsim_errname(rc));
    ck_assert_ptr_nonnull(m);
    return m;
}

static void set_ok(ssdsim_model *m, const char *key, const char *value)
{
    ssdsim_error err;
    int rc = ssdsim_model_set(m, key, value, &err);
    ck_assert_msg(rc == 0, "set %s=%s: %s", key, value, err.message);
}

/* generic-mlc shrunk to 2 planes x 64 blocks x 32 pages of 4 KiB (16 MiB raw), so that runs
 * take milliseconds. Every intermediate geometry is valid. */
static ssdsim_model *small_model(void)
{
    ssdsim_model *m = load_model("models/generic-mlc.json");
    set_ok(m, "geometry.channels", "2");
    set_ok(m, "geometry.chips_per_channel", "1");
    set_ok(m, "geometry.dies_per_chip", "1");
    set_ok(m, "geometry.planes_per_die", "1");
    set_ok(m, "geometry.blocks_per_plane", "64");
    set_ok(m, "geometry.pages_per_block", "32");
    return m;
}

#define SMALL_PHYSICAL_BYTES (2ULL * 64 * 32 * 4096)

static ssdsim_workload *workload(const char *json)
{
    ssdsim_workload *wl = NULL;
    ssdsim_error err;
    int rc = ssdsim_workload_load_string(&wl, json, "test workload", &err);
    ck_assert_msg(rc == 0, "%s: %s", json, err.message);
    ck_assert_ptr_nonnull(wl);
    return wl;
}

static const char randwrite_2000[] =
    "{\"rw\": \"randwrite\", \"bs\": \"4k\", \"iodepth\": 8, \"number_ios\": 2000}";

static ssdsim *new_sim(const ssdsim_model *m, uint64_t seed)
{
    ssdsim *sim = NULL;
    ssdsim_error err;
    int rc = ssdsim_new(&sim, m, seed, &err);
    ck_assert_msg(rc == 0, "ssdsim_new: %s", err.message);
    ck_assert_ptr_nonnull(sim);
    return sim;
}

static void run_ok(ssdsim *sim, const ssdsim_workload *wl, uint64_t interval_ios)
{
    ssdsim_run_opts opts = {0};
    opts.interval_ios = interval_ios;
    int rc = ssdsim_run(sim, wl, &opts);
    ck_assert_msg(rc == 0, "ssdsim_run: %s (%s)", ssdsim_errmsg(sim), ssdsim_errname(rc));
}

/* A non-NULL pointer that is not a valid object, to see that out-parameters are cleared. */
static int sentinel;
#define BOGUS(type) ((type *)(void *)&sentinel)

/* ------------------------------------------------------------------------------------------ */
/* Error codes and version                                                                     */

START_TEST(test_api_error_codes_walk)
{
    const char *names[SSDSIM_N_ERRORS];
    for (int i = 0; i < SSDSIM_N_ERRORS; i++) {
        int code = -i;
        const char *msg = ssdsim_strerror(code);
        const char *name = ssdsim_errname(code);
        ck_assert_ptr_nonnull(msg);
        ck_assert_ptr_nonnull(name);
        ck_assert_msg(msg[0] != '\0', "code %d: empty message", code);
        ck_assert_msg(strcmp(msg, "unknown error") != 0, "code %d has no message", code);
        ck_assert_msg(strncmp(name, "SSDSIM_E", 8) == 0 && name[8] != '\0', "code %d: name '%s'",
                      code, name);
        ck_assert_msg(strcmp(name, "SSDSIM_E?") != 0, "code %d has no name", code);
        for (int j = 0; j < i; j++)
            ck_assert_msg(strcmp(names[j], name) != 0, "codes %d and %d share the name %s", -j,
                          code, name);
        names[i] = name;
    }
    /* the list is contiguous: the code just past the last one is unknown */
    ck_assert_str_eq(ssdsim_strerror(-SSDSIM_N_ERRORS), "unknown error");
    /* spot checks of the enum against the names */
    ck_assert_str_eq(ssdsim_errname(SSDSIM_EOK), "SSDSIM_EOK");
    ck_assert_str_eq(ssdsim_errname(SSDSIM_EINVAL), "SSDSIM_EINVAL");
    ck_assert_str_eq(ssdsim_errname(SSDSIM_ECONFIG), "SSDSIM_ECONFIG");
    ck_assert_str_eq(ssdsim_errname(SSDSIM_ESTATE), "SSDSIM_ESTATE");
    ck_assert_str_eq(ssdsim_errname(SSDSIM_EABI), "SSDSIM_EABI");
    ck_assert_str_eq(ssdsim_errname(SSDSIM_ESTALL), "SSDSIM_ESTALL");
    ck_assert_int_eq(SSDSIM_ESTALL, -(SSDSIM_N_ERRORS - 1));
}
END_TEST

START_TEST(test_api_unknown_error_code)
{
    static const int unknown[] = {-999, 5, 1, -SSDSIM_N_ERRORS, -1000000};
    for (size_t i = 0; i < sizeof unknown / sizeof unknown[0]; i++) {
        ck_assert_str_eq(ssdsim_strerror(unknown[i]), "unknown error");
        ck_assert_str_eq(ssdsim_errname(unknown[i]), "SSDSIM_E?");
    }
}
END_TEST

START_TEST(test_api_version)
{
    const char *v = ssdsim_version();
    ck_assert_ptr_nonnull(v);
    ck_assert(v[0] != '\0');
    /* "MAJOR.MINOR.PATCH" */
    unsigned a, b, c;
    char tail;
    ck_assert_int_eq(sscanf(v, "%u.%u.%u%c", &a, &b, &c, &tail), 3);
}
END_TEST

START_TEST(test_api_free_accepts_null)
{
    ssdsim_model_free(NULL);
    ssdsim_workload_free(NULL);
    ssdsim_free(NULL);
}
END_TEST

/* ------------------------------------------------------------------------------------------ */
/* Bogus input                                                                                 */

START_TEST(test_api_bogus_model_input)
{
    char path[4096];
    ssdsim_error err;
    ssdsim_model *m = BOGUS(ssdsim_model);

    src_path(path, sizeof path, "models/generic-mlc.json");
    ck_assert_int_eq(ssdsim_model_load_file(NULL, path, &err), SSDSIM_EINVAL);
    ck_assert_int_eq(err.code, SSDSIM_EINVAL);
    ck_assert_int_eq(ssdsim_model_load_file(&m, NULL, &err), SSDSIM_EINVAL);
    ck_assert_ptr_null(m);
    ck_assert(err.message[0] != '\0');
    ck_assert_int_eq(ssdsim_model_load_file(NULL, NULL, NULL), SSDSIM_EINVAL);

    m = BOGUS(ssdsim_model);
    ck_assert_int_eq(ssdsim_model_load_string(&m, NULL, "x", &err), SSDSIM_EINVAL);
    ck_assert_ptr_null(m);
    ck_assert_int_eq(ssdsim_model_load_string(NULL, "{}", "x", &err), SSDSIM_EINVAL);
    ck_assert_int_eq(ssdsim_model_load_string(NULL, NULL, NULL, NULL), SSDSIM_EINVAL);
    ck_assert_int_eq(ssdsim_model_default(NULL, &err), SSDSIM_EINVAL);

    /* set: NULL model, key or value; an empty or unknown key; a bad value */
    ssdsim_model *good = small_model();
    uint64_t logical = ssdsim_model_logical_bytes(good);
    char *before = ssdsim_model_to_json(good);
    ck_assert_ptr_nonnull(before);
    ck_assert_int_eq(ssdsim_model_set(NULL, "ftl.op", "0.2", &err), SSDSIM_EINVAL);
    ck_assert_int_eq(ssdsim_model_set(good, NULL, "0.2", &err), SSDSIM_EINVAL);
    ck_assert_int_eq(ssdsim_model_set(good, "ftl.op", NULL, &err), SSDSIM_EINVAL);
    ck_assert_int_eq(ssdsim_model_set(good, "ftl.op", NULL, NULL), SSDSIM_EINVAL);
    ck_assert_int_lt(ssdsim_model_set(good, "", "1", &err), 0);
    ck_assert_int_lt(ssdsim_model_set(good, "geometry..channels", "1", &err), 0);

    ck_assert_int_eq(ssdsim_model_set(good, "geometry.chanels", "4", &err), SSDSIM_ECONFIG);
    ck_assert_int_eq(err.code, SSDSIM_ECONFIG);
    ck_assert_str_eq(err.path, "geometry.chanels");
    ck_assert_msg(strstr(err.message, "did you mean 'channels'") != NULL, "%s", err.message);

    ck_assert_int_eq(ssdsim_model_set(good, "ftl.op", "-1", &err), SSDSIM_ECONFIG);
    ck_assert_str_eq(err.path, "ftl.op");
    ck_assert_int_eq(ssdsim_model_set(good, "ftl.op", "0.001", &err), SSDSIM_ECONFIG);
    ck_assert_str_eq(err.path, "ftl.op");
    ck_assert_int_eq(ssdsim_model_set(good, "geometry.page_size", "\"3000\"", &err),
                     SSDSIM_ECONFIG);
    ck_assert_int_eq(ssdsim_model_set(good, "geometry", "1", &err), SSDSIM_ECONFIG);
    ck_assert_int_eq(ssdsim_model_set(good, "ftl.op.x", "1", &err), SSDSIM_ECONFIG);

    /* every failed set left the model as it was */
    ck_assert_uint_eq(ssdsim_model_logical_bytes(good), logical);
    char *after = ssdsim_model_to_json(good);
    ck_assert_ptr_nonnull(after);
    ck_assert_str_eq(before, after);
    free(before);
    free(after);
    ssdsim_model_free(good);

    ck_assert_ptr_null(ssdsim_model_to_json(NULL));
    ck_assert_uint_eq(ssdsim_model_logical_bytes(NULL), 0);
}
END_TEST

START_TEST(test_api_model_load_string_malformed)
{
    ssdsim_error err;
    ssdsim_model *m = BOGUS(ssdsim_model);
    ck_assert_int_eq(ssdsim_model_load_string(&m, "", "empty.json", &err), SSDSIM_EPARSE);
    ck_assert_ptr_null(m);
    ck_assert_int_eq(err.code, SSDSIM_EPARSE);
    ck_assert_str_eq(err.file, "empty.json");
    ck_assert(strncmp(err.message, "empty.json", 10) == 0);

    m = BOGUS(ssdsim_model);
    ck_assert_int_eq(ssdsim_model_load_string(&m, "{", NULL, &err), SSDSIM_EPARSE);
    ck_assert_ptr_null(m);
    ck_assert_int_eq(err.line, 1);
    ck_assert(err.message[0] != '\0');
    ck_assert_ptr_null(strchr(err.message, '\n'));

    /* a syntax error on line 3 is reported there */
    ck_assert_int_eq(
        ssdsim_model_load_string(&m, "{\n\"geometry\": {\n\"channels\": 2,,\n}}", "x.json", &err),
        SSDSIM_EPARSE);
    ck_assert_int_eq(err.line, 3);
    ck_assert_int_gt(err.column, 0);
    ck_assert_msg(strncmp(err.message, "x.json:3:", 9) == 0, "%s", err.message);

    /* valid JSON that is not a model */
    ck_assert_int_eq(ssdsim_model_load_string(&m, "[]", NULL, &err), SSDSIM_ECONFIG);
    ck_assert_ptr_null(m);
    ck_assert_int_eq(ssdsim_model_load_string(&m, "{}", NULL, &err), SSDSIM_ECONFIG);
    ck_assert_ptr_null(m);
    ck_assert_int_eq(ssdsim_model_load_string(&m, "{\"bogus\": 1}", NULL, &err), SSDSIM_ECONFIG);
    ck_assert_str_eq(err.path, "bogus");
    /* err may be NULL */
    ck_assert_int_eq(ssdsim_model_load_string(&m, "{", NULL, NULL), SSDSIM_EPARSE);
    ck_assert_ptr_null(m);
}
END_TEST

START_TEST(test_api_model_load_file_errors)
{
    char path[4096];
    ssdsim_error err;
    ssdsim_model *m = BOGUS(ssdsim_model);
    src_path(path, sizeof path, "models/no-such-model.json");
    ck_assert_int_eq(ssdsim_model_load_file(&m, path, &err), SSDSIM_EIO);
    ck_assert_ptr_null(m);
    ck_assert_str_eq(err.file, path);
    ck_assert(strstr(err.message, path) != NULL);
    /* a directory opens but cannot be read */
    m = BOGUS(ssdsim_model);
    src_path(path, sizeof path, "models");
    ck_assert_int_eq(ssdsim_model_load_file(&m, path, &err), SSDSIM_EIO);
    ck_assert_ptr_null(m);
}
END_TEST

START_TEST(test_api_bogus_workload_input)
{
    ssdsim_error err;
    ssdsim_workload *wl = BOGUS(ssdsim_workload);
    ck_assert_int_eq(ssdsim_workload_load_file(&wl, NULL, &err), SSDSIM_EINVAL);
    ck_assert_ptr_null(wl);
    ck_assert_int_eq(ssdsim_workload_load_file(NULL, "x.json", &err), SSDSIM_EINVAL);
    ck_assert_int_eq(ssdsim_workload_load_file(NULL, NULL, NULL), SSDSIM_EINVAL);
    wl = BOGUS(ssdsim_workload);
    ck_assert_int_eq(ssdsim_workload_load_string(&wl, NULL, NULL, &err), SSDSIM_EINVAL);
    ck_assert_ptr_null(wl);
    ck_assert_int_eq(ssdsim_workload_load_string(NULL, "{}", NULL, &err), SSDSIM_EINVAL);

    char path[4096];
    wl = BOGUS(ssdsim_workload);
    src_path(path, sizeof path, "tests/data/no-such-workload.json");
    ck_assert_int_eq(ssdsim_workload_load_file(&wl, path, &err), SSDSIM_EIO);
    ck_assert_ptr_null(wl);
    ck_assert(strstr(err.message, path) != NULL);

    wl = BOGUS(ssdsim_workload);
    ck_assert_int_eq(ssdsim_workload_load_string(&wl, "", NULL, &err), SSDSIM_EPARSE);
    ck_assert_ptr_null(wl);
    ck_assert_int_eq(ssdsim_workload_load_string(&wl, "{", NULL, &err), SSDSIM_EPARSE);
    ck_assert_int_eq(ssdsim_workload_load_string(&wl, "[1]", NULL, &err), SSDSIM_ECONFIG);
    ck_assert_int_eq(ssdsim_workload_load_string(&wl, "{\"bs\": \"four\"}", "w.json", &err),
                     SSDSIM_ECONFIG);
    ck_assert_str_eq(err.path, "bs");
    ck_assert(strncmp(err.message, "w.json: bs: ", 12) == 0);
    ck_assert_int_eq(
        ssdsim_workload_load_string(&wl, "{\"bs\": \"4k\", \"bs\": \"8k\"}", NULL, &err),
        SSDSIM_ECONFIG);
    ck_assert_ptr_null(wl);

    /* the file in tests/data with a misspelt key */
    src_path(path, sizeof path, "tests/data/wl-bad-unknown.json");
    ck_assert_int_eq(ssdsim_workload_load_file(&wl, path, &err), SSDSIM_ECONFIG);
    ck_assert_str_eq(err.path, "iodept");

    ck_assert_int_eq(ssdsim_workload_set(NULL, "bs", "4k", &err), SSDSIM_EINVAL);
    wl = workload("{}");
    ck_assert_int_eq(ssdsim_workload_set(wl, NULL, "4k", &err), SSDSIM_EINVAL);
    ck_assert_int_eq(ssdsim_workload_set(wl, "bs", NULL, &err), SSDSIM_EINVAL);
    ck_assert_int_eq(ssdsim_workload_set(wl, "bs", NULL, NULL), SSDSIM_EINVAL);
    ssdsim_workload_free(wl);
}
END_TEST

START_TEST(test_api_workload_set_unknown_key)
{
    ssdsim_error err;
    ssdsim_workload *wl = workload(randwrite_2000);
    ck_assert_int_eq(ssdsim_workload_set(wl, "iodept", "4", &err), SSDSIM_ECONFIG);
    ck_assert_int_eq(err.code, SSDSIM_ECONFIG);
    ck_assert_str_eq(err.path, "iodept");
    ck_assert_msg(strstr(err.message, "iodept") && strstr(err.message, "did you mean 'iodepth'"),
                  "%s", err.message);
    ck_assert_int_eq(ssdsim_workload_set(wl, "frobnicate", "1", &err), SSDSIM_ECONFIG);
    ck_assert_str_eq(err.path, "frobnicate");
    /* a bad value is refused and leaves the workload unchanged */
    ck_assert_int_eq(ssdsim_workload_set(wl, "bs", "four", &err), SSDSIM_ECONFIG);
    ck_assert_int_eq(ssdsim_workload_set(wl, "iodepth", "0", &err), SSDSIM_ECONFIG);
    ck_assert_int_eq(ssdsim_workload_set(wl, "rw", "sideways", &err), SSDSIM_ECONFIG);
    ck_assert_int_eq(ssdsim_workload_set(wl, "offset", "1000", &err), SSDSIM_ECONFIG);
    ck_assert_int_eq(ssdsim_workload_set(wl, "bs", "8k", &err), 0);
    ck_assert_int_eq(ssdsim_workload_set(wl, "bs", "four", &err), SSDSIM_ECONFIG);

    ssdsim_model *m = small_model();
    ssdsim *sim = new_sim(m, 1);
    run_ok(sim, wl, 0);
    ssdsim_op_stats st;
    ck_assert_int_eq(ssdsim_get_op_stats(sim, SSDSIM_OP_WRITE, &st), 0);
    ck_assert_uint_eq(st.count, 2000);
    ck_assert_uint_eq(st.bytes, 2000ULL * 8192);
    ssdsim_free(sim);
    ssdsim_model_free(m);
    ssdsim_workload_free(wl);
}
END_TEST

START_TEST(test_api_bogus_sim_input)
{
    ssdsim_error err;
    ssdsim *sim = BOGUS(ssdsim);
    ck_assert_int_eq(ssdsim_new(&sim, NULL, 1, &err), SSDSIM_EINVAL);
    ck_assert_ptr_null(sim);
    ck_assert(err.message[0] != '\0');
    ssdsim_model *m = small_model();
    ck_assert_int_eq(ssdsim_new(NULL, m, 1, &err), SSDSIM_EINVAL);
    ck_assert_int_eq(ssdsim_new(NULL, NULL, 1, NULL), SSDSIM_EINVAL);

    ssdsim_workload *wl = workload(randwrite_2000);
    ssdsim_run_opts opts = {0};
    ck_assert_int_eq(ssdsim_run(NULL, wl, &opts), SSDSIM_EINVAL);
    ck_assert_int_eq(ssdsim_precondition_seq(NULL), SSDSIM_EINVAL);
    ssdsim_set_progress(NULL, NULL, NULL);
    ck_assert_ptr_nonnull(ssdsim_errmsg(NULL));

    sim = new_sim(m, 1);
    /* the model was copied: freeing it does not affect the simulation */
    ssdsim_model_free(m);
    ck_assert_str_eq(ssdsim_errmsg(sim), "");
    ck_assert_int_eq(ssdsim_run(sim, NULL, &opts), SSDSIM_EINVAL);
    /* a refused call does not spoil the simulation */
    run_ok(sim, wl, 0);
    ssdsim_free(sim);
    ssdsim_workload_free(wl);
}
END_TEST

START_TEST(test_api_bogus_results_input)
{
    ssdsim_op_stats st;
    ssdsim_device_stats dev;
    ssdsim_interval iv;
    ck_assert_int_eq(ssdsim_get_op_stats(NULL, SSDSIM_OP_ALL, &st), SSDSIM_EINVAL);
    ck_assert_int_eq(ssdsim_get_device_stats(NULL, &dev), SSDSIM_EINVAL);
    ck_assert_int_eq(ssdsim_get_interval(NULL, 0, &iv), SSDSIM_EINVAL);
    ck_assert_uint_eq(ssdsim_n_intervals(NULL), 0);
    ck_assert_uint_eq(ssdsim_sim_time_ns(NULL), 0);
    ck_assert_ptr_null(ssdsim_results_json(NULL));
    ck_assert_int_eq(ssdsim_write_timeseries_csv(NULL, "/nonexistent/x.csv"), SSDSIM_EINVAL);

    ssdsim_model *m = small_model();
    ssdsim *sim = new_sim(m, 1);
    /* before any run: zeros, no intervals, but valid calls */
    ck_assert_int_eq(ssdsim_get_op_stats(sim, SSDSIM_OP_ALL, &st), 0);
    ck_assert_uint_eq(st.count, 0);
    ck_assert_uint_eq(ssdsim_n_intervals(sim), 0);
    ck_assert_int_eq(ssdsim_get_interval(sim, 0, &iv), SSDSIM_EINVAL);
    ck_assert_int_eq(ssdsim_get_device_stats(sim, &dev), 0);
    ck_assert_double_eq(dev.waf, 0.0);

    ck_assert_int_eq(ssdsim_get_op_stats(sim, (enum ssdsim_op)7, &st), SSDSIM_EINVAL);
    ck_assert_int_eq(ssdsim_get_op_stats(sim, (enum ssdsim_op)(-1), &st), SSDSIM_EINVAL);
    ck_assert_int_eq(ssdsim_get_op_stats(sim, SSDSIM_OP_READ, NULL), SSDSIM_EINVAL);
    ck_assert_int_eq(ssdsim_get_device_stats(sim, NULL), SSDSIM_EINVAL);
    ck_assert_int_eq(ssdsim_get_interval(sim, 0, NULL), SSDSIM_EINVAL);
    ck_assert_int_eq(ssdsim_write_timeseries_csv(sim, NULL), SSDSIM_EINVAL);

    /* after a run with 500 I/Os per interval: exactly the recorded intervals are reachable */
    ssdsim_workload *wl = workload(randwrite_2000);
    run_ok(sim, wl, 500);
    size_t n = ssdsim_n_intervals(sim);
    ck_assert_uint_eq(n, 4);
    ck_assert_int_eq(ssdsim_get_interval(sim, n - 1, &iv), 0);
    ck_assert_int_eq(ssdsim_get_interval(sim, n, &iv), SSDSIM_EINVAL);
    ck_assert_int_eq(ssdsim_get_interval(sim, (size_t)-1, &iv), SSDSIM_EINVAL);

    /* an unwritable CSV path: SSDSIM_EIO with the path in the message */
    const char *bad = "/nonexistent-ssdsim-test-dir/ts.csv";
    ck_assert_int_eq(ssdsim_write_timeseries_csv(sim, bad), SSDSIM_EIO);
    ck_assert_msg(strstr(ssdsim_errmsg(sim), bad) != NULL, "%s", ssdsim_errmsg(sim));

    ssdsim_workload_free(wl);
    ssdsim_free(sim);
    ssdsim_model_free(m);
}
END_TEST

/* Every error return of a function that takes a simulation leaves its message in
 * ssdsim_errmsg(): each call below fails, and the message it leaves is checked exactly (no two
 * are alike, so a message left over from the call before cannot pass). */
static void expect_errmsg(ssdsim *sim, int rc, int want, const char *msg)
{
    ck_assert_msg(rc == want, "got %s, want %s (%s)", ssdsim_errname(rc), ssdsim_errname(want),
                  ssdsim_errmsg(sim));
    ck_assert_str_eq(ssdsim_errmsg(sim), msg);
}

START_TEST(test_api_errmsg_for_every_error)
{
    ssdsim_model *m = small_model();
    ssdsim *sim = new_sim(m, 1);
    ssdsim_op_stats st;
    ssdsim_job_info job;
    ssdsim_device_io io;
    ssdsim_interval iv;
    uint32_t u32;
    expect_errmsg(sim, ssdsim_run(sim, NULL, NULL), SSDSIM_EINVAL, "ssdsim_run: no workload");
    expect_errmsg(sim, ssdsim_run_source(sim, NULL, NULL, NULL), SSDSIM_EINVAL,
                  "ssdsim_run_source: the source and its next function must not be NULL");
    expect_errmsg(sim, ssdsim_get_op_stats(sim, (enum ssdsim_op)9, &st), SSDSIM_EINVAL,
                  "ssdsim_get_op_stats: op 9 is not an ssdsim_op");
    expect_errmsg(sim, ssdsim_get_op_stats(sim, SSDSIM_OP_ALL, NULL), SSDSIM_EINVAL,
                  "ssdsim_get_op_stats: no output");
    expect_errmsg(sim, ssdsim_get_device_stats(sim, NULL), SSDSIM_EINVAL,
                  "ssdsim_get_device_stats: no output");
    expect_errmsg(sim, ssdsim_get_device_io(sim, 5, &io), SSDSIM_EINVAL,
                  "ssdsim_get_device_io: device 5 does not exist (there are 1)");
    expect_errmsg(sim, ssdsim_get_interval(sim, 3, &iv), SSDSIM_EINVAL,
                  "ssdsim_get_interval: interval 3 does not exist (there are 0)");
    expect_errmsg(sim, ssdsim_get_steady(sim, NULL), SSDSIM_EINVAL,
                  "ssdsim_get_steady: no output");
    expect_errmsg(sim, ssdsim_get_job(sim, 0, &job), SSDSIM_EINVAL,
                  "ssdsim_get_job: job 0 does not exist (the last run had 0)");
    expect_errmsg(sim, ssdsim_get_job_op_stats(sim, 2, SSDSIM_OP_ALL, &st), SSDSIM_EINVAL,
                  "ssdsim_get_job_op_stats: job 2 does not exist (the last run had 0)");
    expect_errmsg(sim, ssdsim_write_timeseries_csv(sim, NULL), SSDSIM_EINVAL,
                  "ssdsim_write_timeseries_csv: no file name");
    expect_errmsg(sim, ssdsim_block_state(sim, UINT64_MAX, &u32, &u32), SSDSIM_EINVAL,
                  "ssdsim_block_state: block 18446744073709551615 of 128 does not exist");
    expect_errmsg(sim, ssdsim_precondition_seq_fills(sim, 0), SSDSIM_EINVAL,
                  "sequential preconditioning needs at least one fill");
    expect_errmsg(sim, ssdsim_precondition_fast(sim, NULL, NULL), SSDSIM_EINVAL,
                  "fast preconditioning: no workload");
    expect_errmsg(sim, ssdsim_submit(sim, SSDSIM_OP_WRITE, 0, 0, 0, 1, NULL, NULL),
                  SSDSIM_EINVAL,
                  "ssdsim_submit: bad request (op 1, offset 0, length 0, at 0 ns; capacity "
                  "13107200 bytes, now 0 ns, the clock's limit 2^62 ns)");
    expect_errmsg(sim, ssdsim_submit(sim, SSDSIM_OP_WRITE, 0, 4096, (1ULL << 62) + 1, 1, NULL,
                                     NULL),
                  SSDSIM_EINVAL,
                  "ssdsim_submit: bad request (op 1, offset 0, length 4096, at "
                  "4611686018427387905 ns; capacity 13107200 bytes, now 0 ns, the clock's limit "
                  "2^62 ns)");
    ck_assert_int_eq(ssdsim_idle(sim, 1000), 0);
    expect_errmsg(sim, ssdsim_run_until(sim, 10), SSDSIM_EINVAL,
                  "ssdsim_run_until: 10 ns is before now (1000 ns)");
    expect_errmsg(sim, ssdsim_idle(sim, UINT64_MAX), SSDSIM_EINVAL,
                  "ssdsim_idle: 18446744073709551615 ns from now (1000 ns) passes the simulated "
                  "clock's limit (2^62 ns, about 146 years)");
    /* short of overflowing 64 bits, but a run after it would (and did report nonsense) */
    expect_errmsg(sim, ssdsim_idle(sim, UINT64_MAX - 1000000), SSDSIM_EINVAL,
                  "ssdsim_idle: 18446744073708551615 ns from now (1000 ns) passes the simulated "
                  "clock's limit (2^62 ns, about 146 years)");
    expect_errmsg(sim, ssdsim_run_until(sim, UINT64_MAX), SSDSIM_EINVAL,
                  "ssdsim_run_until: 18446744073709551615 ns passes the simulated clock's limit "
                  "(2^62 ns, about 146 years)");
    ck_assert_int_eq(ssdsim_now(sim), 1000); /* refused calls leave the clock */
    ssdsim_free(sim);
    ssdsim_model_free(m);
}
END_TEST

/* Calls that run events, made from a completion callback while ssdsim_drain runs them: each is
 * refused (it would run the engine inside itself; a secure erase from the last request's
 * callback used to leave the simulation broken while the drain reported success), and the
 * simulation goes on. */
struct reentry {
    ssdsim *sim;
    int rc[8];
    char msg[8][200];
    int n;
};

static void reenter(const ssdsim_completion *c, void *ud)
{
    (void)c;
    struct reentry *r = ud;
    ssdsim *sim = r->sim;
    int k = 0;
    r->rc[k] = ssdsim_secure_erase(sim);
    snprintf(r->msg[k++], sizeof r->msg[0], "%s", ssdsim_errmsg(sim));
    r->rc[k] = ssdsim_precondition_seq(sim);
    snprintf(r->msg[k++], sizeof r->msg[0], "%s", ssdsim_errmsg(sim));
    r->rc[k] = ssdsim_drain(sim);
    snprintf(r->msg[k++], sizeof r->msg[0], "%s", ssdsim_errmsg(sim));
    r->rc[k] = ssdsim_idle(sim, 1000);
    snprintf(r->msg[k++], sizeof r->msg[0], "%s", ssdsim_errmsg(sim));
    r->rc[k] = ssdsim_step(sim);
    snprintf(r->msg[k++], sizeof r->msg[0], "%s", ssdsim_errmsg(sim));
    r->rc[k] = ssdsim_power_loss(sim);
    snprintf(r->msg[k++], sizeof r->msg[0], "%s", ssdsim_errmsg(sim));
    r->n = k;
}

START_TEST(test_api_event_calls_refused_in_callbacks)
{
    ssdsim_model *m = small_model();
    ssdsim *sim = new_sim(m, 1);
    struct reentry r = {.sim = sim};
    ck_assert_int_eq(ssdsim_submit(sim, SSDSIM_OP_WRITE, 0, 4096, 0, 1, reenter, &r), 0);
    ck_assert_int_eq(ssdsim_drain(sim), 0);
    static const char *what[] = {"secure erase", "sequential preconditioning", "ssdsim_drain",
                                 "ssdsim_idle", "ssdsim_step", "ssdsim_power_loss"};
    ck_assert_int_eq(r.n, 6);
    for (int k = 0; k < r.n; k++) {
        char want[200];
        snprintf(want, sizeof want,
                 "%s: called from a callback while the simulation runs its events; call it once "
                 "the call that runs them (ssdsim_run, ssdsim_drain, ...) has returned",
                 what[k]);
        ck_assert_msg(r.rc[k] == SSDSIM_ESTATE, "%s: %s", what[k], ssdsim_errname(r.rc[k]));
        ck_assert_str_eq(r.msg[k], want);
    }
    /* the simulation is usable: the write is there, and more requests and a secure erase run */
    ck_assert_int_eq(ssdsim_submit(sim, SSDSIM_OP_READ, 0, 4096, ssdsim_now(sim), 2, NULL, NULL),
                     0);
    ck_assert_int_eq(ssdsim_drain(sim), 0);
    ssdsim_op_stats w, rd;
    ck_assert_int_eq(ssdsim_get_op_stats(sim, SSDSIM_OP_WRITE, &w), 0);
    ck_assert_int_eq(ssdsim_get_op_stats(sim, SSDSIM_OP_READ, &rd), 0);
    ck_assert_uint_eq(w.count, 1);
    ck_assert_uint_eq(rd.count, 1);
    ck_assert_int_eq(ssdsim_secure_erase(sim), 0);
    ssdsim_free(sim);
    ssdsim_model_free(m);
}
END_TEST

/* ssdsim_free from a completion callback: the drain that runs the callbacks still uses the
 * simulation, so the free waits until it returns (under ASan this was a use-after-free). The
 * callbacks of the other writes still run, and calls that run events are refused meanwhile. */
struct freer {
    ssdsim *sim;
    int calls;
    int drain_rc;
    char msg[200];
};

static void free_in_callback(const ssdsim_completion *c, void *ud)
{
    (void)c;
    struct freer *f = ud;
    f->calls++;
    if (f->calls == 1) {
        ssdsim_free(f->sim);
        f->drain_rc = ssdsim_drain(f->sim);
        snprintf(f->msg, sizeof f->msg, "%s", ssdsim_errmsg(f->sim));
    }
}

START_TEST(test_api_free_in_callback_deferred)
{
    ssdsim_model *m = small_model();
    ssdsim *sim = new_sim(m, 1);
    struct freer f = {.sim = sim};
    for (int k = 0; k < 4; k++)
        ck_assert_int_eq(ssdsim_submit(sim, SSDSIM_OP_WRITE, (uint64_t)k * 4096, 4096, 0,
                                       (uint64_t)k + 1, free_in_callback, &f),
                         0);
    ck_assert_int_eq(ssdsim_drain(sim), 0); /* the simulation is gone once it returns */
    ck_assert_int_eq(f.calls, 4);
    ck_assert_int_eq(f.drain_rc, SSDSIM_ESTATE);
    ck_assert_str_eq(f.msg, "ssdsim_drain: the simulation was freed by a callback; it goes when "
                            "the call that runs its events returns");
    ssdsim_model_free(m);
}
END_TEST

/* ssdsim_free from a callback (an interval's, every 0.1 ms) during a call that runs the
 * library's own runs on the caller's simulation (a measurement window): the free waits for
 * that call, not for the run inside it, which the call outlives (before, it went on in freed
 * memory). */
struct progress_freer {
    ssdsim *sim;
    int calls;
};

static void free_in_interval(const struct ssdsim_interval *iv, void *ud)
{
    (void)iv;
    struct progress_freer *f = ud;
    if (f->calls++ == 0)
        ssdsim_free(f->sim);
}

START_TEST(test_api_free_in_measure_deferred)
{
    ssdsim_model *m = small_model();
    ssdsim *sim = new_sim(m, 1);
    ssdsim_workload *wl = workload("{\"rw\": \"randwrite\", \"bs\": \"4k\", \"iodepth\": 8}");
    struct progress_freer f = {.sim = sim};
    ck_assert_int_eq(ssdsim_set_interval_callback(sim, 100000, free_in_interval, &f), 0);
    ssdsim_measurement out;
    /* the next window is refused (the simulation is going); it is gone once this returns */
    ck_assert_int_eq(ssdsim_measure(sim, wl, NULL, &out), SSDSIM_ESTATE);
    ck_assert_int_gt(f.calls, 0);
    ssdsim_workload_free(wl);
    ssdsim_model_free(m);
}
END_TEST

/* The getters that are also macros (passing sizeof) are functions too: called as `(name)(...)`
 * or through a pointer (ctypes) they did not link, since only the _sized symbols existed. The
 * function fills what the macro fills, and refuses what it refuses. */
START_TEST(test_api_macro_getters_are_functions)
{
    int (*measure)(ssdsim *, const ssdsim_workload *, const ssdsim_measure_opts *,
                   ssdsim_measurement *) = ssdsim_measure;
    int (*rounds)(ssdsim *, ssdsim_workload *const *, size_t, const ssdsim_rounds_opts *,
                  ssdsim_steady_result *, size_t *) = ssdsim_rounds_run;
    int (*row)(const ssdsim_curve *, size_t, ssdsim_curve_row *) = ssdsim_curve_get_row;
    int (*csum)(const ssdsim_curve *, ssdsim_curve_summary *) = ssdsim_curve_get_summary;
    int (*fig)(const ssdsim_model *, size_t, uint64_t, const ssdsim_calibrate_opts *,
               ssdsim_calibration *, ssdsim_error *) = ssdsim_calibrate_figure;
    int (*cal)(const ssdsim_model *, uint64_t, const ssdsim_calibrate_opts *, ssdsim_calibration *,
               size_t, ssdsim_error *) = ssdsim_calibrate_model;
    int (*ssum)(const ssdsim_snia_result *, ssdsim_snia_summary *) = ssdsim_snia_get_summary;
    int (*scell)(const ssdsim_snia_result *, size_t, size_t, ssdsim_measurement *) =
        ssdsim_snia_get_cell;
    int (*sround)(const ssdsim_snia_result *, size_t, ssdsim_snia_round *) = ssdsim_snia_get_round;
    int (*savg)(const ssdsim_snia_result *, size_t, ssdsim_snia_average *) =
        ssdsim_snia_get_average;
    int (*qtest)(size_t, ssdsim_quick_test *) = ssdsim_quick_get_test;
    int (*qsum)(const ssdsim_quick_result *, ssdsim_quick_summary *) = ssdsim_quick_get_summary;
    int (*qcell)(const ssdsim_quick_result *, ssdsim_quick_state, size_t, size_t,
                 ssdsim_measurement *) = ssdsim_quick_get_cell;
    ssdsim_measurement m;
    ssdsim_curve_row r;
    ssdsim_curve_summary cs;
    ssdsim_calibration c;
    ssdsim_snia_summary ss;
    ssdsim_snia_round sr;
    ssdsim_snia_average sa;
    ssdsim_quick_summary qs;
    ssdsim_steady_result v;
    ck_assert_int_eq(measure(NULL, NULL, NULL, &m), SSDSIM_EINVAL);
    ck_assert_int_eq(rounds(NULL, NULL, 0, NULL, &v, NULL), SSDSIM_EINVAL);
    ck_assert_int_eq(row(NULL, 0, &r), SSDSIM_EINVAL);
    ck_assert_int_eq(csum(NULL, &cs), SSDSIM_EINVAL);
    ck_assert_int_eq(fig(NULL, 0, 1, NULL, &c, NULL), SSDSIM_EINVAL);
    ck_assert_int_eq(cal(NULL, 1, NULL, &c, 1, NULL), SSDSIM_EINVAL);
    ck_assert_int_eq(ssum(NULL, &ss), SSDSIM_EINVAL);
    ck_assert_int_eq(scell(NULL, 0, 0, &m), SSDSIM_EINVAL);
    ck_assert_int_eq(sround(NULL, 0, &sr), SSDSIM_EINVAL);
    ck_assert_int_eq(savg(NULL, 0, &sa), SSDSIM_EINVAL);
    ck_assert_int_eq(qsum(NULL, &qs), SSDSIM_EINVAL);
    ck_assert_int_eq(qcell(NULL, 0, 0, 0, &m), SSDSIM_EINVAL);
    /* a call that fills: the function and the macro agree */
    ssdsim_quick_test by_fn, by_macro;
    memset(&by_fn, 0xa5, sizeof by_fn);
    memset(&by_macro, 0x5a, sizeof by_macro);
    ck_assert_int_eq(qtest(1, &by_fn), 0);
    ck_assert_int_eq(ssdsim_quick_get_test(1, &by_macro), 0);
    ck_assert(by_fn.iops == by_macro.iops && by_fn.seq == by_macro.seq &&
              by_fn.write == by_macro.write && by_fn.region == by_macro.region);
    ck_assert_int_eq((ssdsim_quick_get_test)(1, &by_fn), 0);
}
END_TEST

/* ------------------------------------------------------------------------------------------ */
/* Unit parsers                                                                                */

START_TEST(test_api_parse_time_ns)
{
    static const struct {
        const char *text;
        uint64_t ns;
    } good[] = {
        {"50us", 50000}, {"1.5ms", 1500000}, {"2s", 2000000000ULL},
        {"100ns", 100},  {"0.5us", 500},     {"10ms", 10000000},
        {"0ns", 0},
    };
    for (size_t i = 0; i < sizeof good / sizeof good[0]; i++) {
        uint64_t ns = 12345;
        ck_assert_msg(ssdsim_parse_time_ns(good[i].text, &ns) == 0, "'%s' refused", good[i].text);
        ck_assert_msg(ns == good[i].ns, "'%s' -> %llu", good[i].text, (unsigned long long)ns);
    }
    static const char *const bad[] = {"",           "abc",   "50",     "-1us", "us",  "1.us",
                                      "50 parsecs", "1e3us", "0x10us", "5mss", " 5ms"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        uint64_t ns = 0;
        ck_assert_msg(ssdsim_parse_time_ns(bad[i], &ns) == SSDSIM_EINVAL, "'%s' accepted", bad[i]);
    }
    uint64_t ns;
    ck_assert_int_eq(ssdsim_parse_time_ns(NULL, &ns), SSDSIM_EINVAL);
    ck_assert_int_eq(ssdsim_parse_time_ns("5ms", NULL), SSDSIM_EINVAL);
}
END_TEST

START_TEST(test_api_parse_size)
{
    static const struct {
        const char *text;
        uint64_t bytes;
    } good[] = {
        {"4KiB", 4096},         {"4KB", 4000},    {"512", 512}, {"1MiB", 1048576},
        {"64GiB", 64ULL << 30}, {"1.5KiB", 1536}, {"0", 0},     {"2TB", 2000000000000ULL},
    };
    for (size_t i = 0; i < sizeof good / sizeof good[0]; i++) {
        uint64_t b = 12345;
        ck_assert_msg(ssdsim_parse_size(good[i].text, &b) == 0, "'%s' refused", good[i].text);
        ck_assert_msg(b == good[i].bytes, "'%s' -> %llu", good[i].text, (unsigned long long)b);
    }
    static const char *const bad[] = {
        "", "abc", "-4", "4XB", "KiB", "1.5", "4 4KiB", "99999999999999999999999", "1.1B"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        uint64_t b = 0;
        ck_assert_msg(ssdsim_parse_size(bad[i], &b) == SSDSIM_EINVAL, "'%s' accepted", bad[i]);
    }
    uint64_t b;
    ck_assert_int_eq(ssdsim_parse_size(NULL, &b), SSDSIM_EINVAL);
    ck_assert_int_eq(ssdsim_parse_size("4KiB", NULL), SSDSIM_EINVAL);
}
END_TEST

/* ------------------------------------------------------------------------------------------ */
/* Models                                                                                      */

START_TEST(test_api_every_model_loads)
{
    static const char *const models[] = {"models/generic-slc.json", "models/generic-mlc.json",
                                         "models/generic-tlc.json"};
    for (size_t i = 0; i < sizeof models / sizeof models[0]; i++) {
        ssdsim_model *m = load_model(models[i]);
        ck_assert_uint_gt(ssdsim_model_logical_bytes(m), 0);
        ssdsim_model_free(m);
    }
}
END_TEST

START_TEST(test_api_default_model_is_generic_mlc)
{
    ssdsim_model *d = NULL;
    ssdsim_error err;
    ck_assert_int_eq(ssdsim_model_default(&d, &err), 0);
    ssdsim_model *f = load_model("models/generic-mlc.json");
    ck_assert_uint_eq(ssdsim_model_logical_bytes(d), ssdsim_model_logical_bytes(f));
    char *jd = ssdsim_model_to_json(d), *jf = ssdsim_model_to_json(f);
    ck_assert(jd && jf);
    ck_assert_str_eq(jd, jf);
    free(jd);
    free(jf);
    ssdsim_model_free(d);
    ssdsim_model_free(f);
}
END_TEST

START_TEST(test_api_model_to_json_reads_back)
{
    ssdsim_model *m = small_model();
    set_ok(m, "ftl.op", "0.25");
    char *text = ssdsim_model_to_json(m);
    ck_assert_ptr_nonnull(text);
    ssdsim_model *again = NULL;
    ssdsim_error err;
    int rc = ssdsim_model_load_string(&again, text, "canonical", &err);
    ck_assert_msg(rc == 0, "%s\n%s", err.message, text);
    ck_assert_uint_eq(ssdsim_model_logical_bytes(again), ssdsim_model_logical_bytes(m));
    /* the canonical form is a fixed point */
    char *text2 = ssdsim_model_to_json(again);
    ck_assert_ptr_nonnull(text2);
    ck_assert_str_eq(text, text2);
    /* and simulates identically */
    ssdsim_workload *wl = workload(randwrite_2000);
    ssdsim *a = new_sim(m, 3), *b = new_sim(again, 3);
    run_ok(a, wl, 0);
    run_ok(b, wl, 0);
    ssdsim_device_stats da, db;
    ck_assert_int_eq(ssdsim_get_device_stats(a, &da), 0);
    ck_assert_int_eq(ssdsim_get_device_stats(b, &db), 0);
    ck_assert_uint_eq(da.flash_pages_programmed, db.flash_pages_programmed);
    ck_assert_uint_eq(ssdsim_sim_time_ns(a), ssdsim_sim_time_ns(b));
    ssdsim_free(a);
    ssdsim_free(b);
    ssdsim_workload_free(wl);
    free(text);
    free(text2);
    ssdsim_model_free(again);
    ssdsim_model_free(m);
}
END_TEST

/* ------------------------------------------------------------------------------------------ */
/* Simulations                                                                                 */

START_TEST(test_api_tiny_simulation)
{
    ssdsim_model *m = small_model();
    uint64_t logical = ssdsim_model_logical_bytes(m);
    ssdsim *sim = new_sim(m, 42);
    ssdsim_workload *wl = workload(randwrite_2000);
    run_ok(sim, wl, 0);

    ssdsim_op_stats w, all, r, t;
    ck_assert_int_eq(ssdsim_get_op_stats(sim, SSDSIM_OP_WRITE, &w), 0);
    ck_assert_int_eq(ssdsim_get_op_stats(sim, SSDSIM_OP_ALL, &all), 0);
    ck_assert_int_eq(ssdsim_get_op_stats(sim, SSDSIM_OP_READ, &r), 0);
    ck_assert_int_eq(ssdsim_get_op_stats(sim, SSDSIM_OP_TRIM, &t), 0);
    ck_assert_uint_eq(w.count, 2000);
    ck_assert_uint_eq(w.bytes, 2000ULL * 4096);
    ck_assert_uint_eq(all.count, 2000);
    ck_assert_uint_eq(all.bytes, w.bytes);
    ck_assert_uint_eq(r.count, 0);
    ck_assert_uint_eq(t.count, 0);
    ck_assert(w.iops > 0);
    ck_assert(w.bw_bytes > 0);
    ck_assert_msg(w.lat_min_ns > 0 && w.lat_min_ns <= w.lat_p50_ns &&
                      w.lat_p50_ns <= w.lat_p90_ns && w.lat_p90_ns <= w.lat_p99_ns &&
                      w.lat_p99_ns <= w.lat_p99_9_ns && w.lat_p99_9_ns <= w.lat_p99_99_ns &&
                      w.lat_p99_99_ns <= w.lat_max_ns,
                  "latencies out of order: min %llu p50 %llu p99 %llu max %llu",
                  (unsigned long long)w.lat_min_ns, (unsigned long long)w.lat_p50_ns,
                  (unsigned long long)w.lat_p99_ns, (unsigned long long)w.lat_max_ns);
    ck_assert(w.lat_mean_ns >= (double)w.lat_min_ns && w.lat_mean_ns <= (double)w.lat_max_ns);
    ck_assert(w.lat_stddev_ns >= 0);

    /* iops and bandwidth are count and bytes over the simulated time */
    uint64_t sim_ns = ssdsim_sim_time_ns(sim);
    ck_assert_uint_gt(sim_ns, 0);
    double secs = (double)sim_ns / 1e9;
    ck_assert(fabs(w.iops - 2000.0 / secs) <= 1e-9 * w.iops);
    ck_assert(fabs(w.bw_bytes - 2000.0 * 4096 / secs) <= 1e-9 * w.bw_bytes);
    /* closed loop at depth 8: Little's law bounds the mean latency by the run time */
    ck_assert(w.lat_mean_ns * 2000.0 / 8.0 <= (double)sim_ns * 1.0001);

    ssdsim_device_stats d;
    ck_assert_int_eq(ssdsim_get_device_stats(sim, &d), 0);
    ck_assert_uint_eq(d.host_pages_written, 2000);
    ck_assert_uint_eq(d.flash_pages_programmed, d.host_pages_written + d.gc_pages_copied);
    ck_assert(d.waf >= 1.0);
    ck_assert(fabs(d.waf - (double)d.flash_pages_programmed / 2000.0) < 1e-12);
    ck_assert_uint_eq(d.logical_bytes, logical);
    ck_assert_uint_eq(d.physical_bytes, SMALL_PHYSICAL_BYTES);
    ck_assert(d.logical_bytes < d.physical_bytes);
    double l = (double)d.logical_bytes, p = (double)d.physical_bytes;
    ck_assert(fabs(d.op - (p - l) / l) < 1e-12);
    ck_assert(fabs(d.spare_factor - (p - l) / p) < 1e-12);
    ck_assert(d.erase_count_min <= d.erase_count_mean && d.erase_count_mean <= d.erase_count_max);
    ck_assert_uint_le(d.free_blocks, 2 * 64);
    ck_assert_uint_eq(ssdsim_n_intervals(sim), 0);

    char *json = ssdsim_results_json(sim);
    ck_assert_ptr_nonnull(json);
    ck_assert(strstr(json, "\"ops\"") && strstr(json, "\"device\"") &&
              strstr(json, "\"sim_time_ns\""));
    free(json);
    ck_assert_str_eq(ssdsim_errmsg(sim), "");

    ssdsim_workload_free(wl);
    ssdsim_free(sim);
    ssdsim_model_free(m);
}
END_TEST

/* A run with one job: the job's figures are the run's; a request the program submits afterwards
 * counts in the run's figures and not the job's, and a reset of the run's statistics leaves the
 * job's as they were. The engine's event count grows with the work done. */
START_TEST(test_api_job_stats_apart_from_run_stats)
{
    ssdsim_model *m = small_model();
    ssdsim *sim = new_sim(m, 7);
    ssdsim_workload *wl = workload(randwrite_2000);
    ck_assert_uint_eq(ssdsim_events_executed(NULL), 0);
    uint64_t ev0 = ssdsim_events_executed(sim);
    run_ok(sim, wl, 0);
    uint64_t ev1 = ssdsim_events_executed(sim);
    /* every request completes in an event of its own at least */
    ck_assert_uint_ge(ev1 - ev0, 2000);

    ssdsim_op_stats run_w, job_w, job_all;
    ck_assert_int_eq(ssdsim_get_op_stats(sim, SSDSIM_OP_WRITE, &run_w), 0);
    ck_assert_int_eq(ssdsim_get_job_op_stats(sim, 0, SSDSIM_OP_WRITE, &job_w), 0);
    ck_assert_uint_eq(run_w.count, 2000);
    ck_assert_uint_eq(job_w.count, 2000);
    ck_assert_uint_eq(job_w.lat_min_ns, run_w.lat_min_ns);
    ck_assert_uint_eq(job_w.lat_max_ns, run_w.lat_max_ns);
    ck_assert_uint_eq(job_w.lat_p99_ns, run_w.lat_p99_ns);
    ck_assert(job_w.lat_mean_ns == run_w.lat_mean_ns);

    /* one more write, submitted by the program after the run */
    ck_assert_int_eq(ssdsim_submit(sim, SSDSIM_OP_WRITE, 0, 4096, ssdsim_now(sim), 1, NULL, NULL),
                     0);
    ck_assert_int_eq(ssdsim_drain(sim), 0);
    ck_assert_uint_gt(ssdsim_events_executed(sim), ev1);
    ssdsim_op_stats run_w2, run_all2, job_w2;
    ck_assert_int_eq(ssdsim_get_op_stats(sim, SSDSIM_OP_WRITE, &run_w2), 0);
    ck_assert_int_eq(ssdsim_get_op_stats(sim, SSDSIM_OP_ALL, &run_all2), 0);
    ck_assert_int_eq(ssdsim_get_job_op_stats(sim, 0, SSDSIM_OP_WRITE, &job_w2), 0);
    ck_assert_uint_eq(run_w2.count, 2001);
    ck_assert_uint_eq(run_all2.count, 2001);
    ck_assert_uint_eq(run_all2.bytes, 2001ULL * 4096);
    ck_assert_uint_eq(job_w2.count, 2000);
    ck_assert_uint_eq(job_w2.bytes, 2000ULL * 4096);
    ck_assert_uint_eq(job_w2.lat_min_ns, job_w.lat_min_ns);
    ck_assert_uint_eq(job_w2.lat_max_ns, job_w.lat_max_ns);
    ck_assert_uint_eq(job_w2.lat_p99_ns, job_w.lat_p99_ns);
    ck_assert(job_w2.lat_mean_ns == job_w.lat_mean_ns);

    /* a reset empties the run's figures, not the job's */
    ssdsim_reset_stats(sim);
    ck_assert_int_eq(ssdsim_get_op_stats(sim, SSDSIM_OP_WRITE, &run_w2), 0);
    ck_assert_uint_eq(run_w2.count, 0);
    ck_assert_int_eq(ssdsim_get_job_op_stats(sim, 0, SSDSIM_OP_ALL, &job_all), 0);
    ck_assert_uint_eq(job_all.count, 2000);
    ck_assert_uint_eq(job_all.lat_p99_ns, job_w.lat_p99_ns);

    ssdsim_workload_free(wl);
    ssdsim_free(sim);
    ssdsim_model_free(m);
}
END_TEST

START_TEST(test_api_time_series_intervals)
{
    ssdsim_model *m = small_model();
    ssdsim *sim = new_sim(m, 1);
    ssdsim_workload *wl = workload(randwrite_2000);
    run_ok(sim, wl, 250);
    size_t n = ssdsim_n_intervals(sim);
    ck_assert_uint_eq(n, 8);
    uint64_t prev_t = 0, prev_host = 0, n_ios = 0;
    for (size_t i = 0; i < n; i++) {
        ssdsim_interval iv;
        ck_assert_int_eq(ssdsim_get_interval(sim, i, &iv), 0);
        ck_assert_uint_gt(iv.t_ns, prev_t);
        ck_assert_uint_ge(iv.host_pages_written, prev_host);
        ck_assert_uint_ge(iv.flash_pages_programmed, iv.host_pages_written / 2);
        ck_assert_uint_eq(iv.n_ios, 250);
        ck_assert(iv.iops > 0 && iv.lat_ns_mean > 0 && iv.lat_ns_max > 0);
        prev_t = iv.t_ns;
        prev_host = iv.host_pages_written;
        n_ios += iv.n_ios;
    }
    ck_assert_uint_eq(prev_t, ssdsim_sim_time_ns(sim));
    ck_assert_uint_eq(prev_host, 2000);
    ck_assert_uint_eq(n_ios, 2000);
    ssdsim_workload_free(wl);
    ssdsim_free(sim);
    ssdsim_model_free(m);
}
END_TEST

START_TEST(test_api_same_seed_side_by_side)
{
    /* Three simulations alive at once; a and b share the seed, c runs something else between
     * them. Nothing may leak from one to another. */
    ssdsim_model *m = small_model();
    ssdsim *a = new_sim(m, 7), *b = new_sim(m, 7), *c = new_sim(m, 8);
    ssdsim_workload *wl = workload(randwrite_2000);
    ssdsim_workload *other =
        workload("{\"rw\": \"randrw\", \"bs\": \"8k\", \"iodepth\": 3, \"number_ios\": 700}");
    run_ok(a, wl, 400);
    run_ok(c, other, 100);
    run_ok(b, wl, 400);
    char *ja = ssdsim_results_json(a), *jb = ssdsim_results_json(b), *jc = ssdsim_results_json(c);
    ck_assert(ja && jb && jc);
    ck_assert_str_eq(ja, jb);
    ck_assert_str_ne(ja, jc);
    free(ja);
    free(jb);

    /* a second run on each continues from its own device state, identically */
    run_ok(a, wl, 0);
    run_ok(c, other, 0);
    run_ok(b, wl, 0);
    ja = ssdsim_results_json(a);
    jb = ssdsim_results_json(b);
    ck_assert(ja && jb);
    ck_assert_str_eq(ja, jb);

    /* and a different seed gives different figures. On a fresh drive the page-mapped FTL
     * places writes the same way whatever their addresses, so the workload must be long enough
     * for garbage collection, whose work depends on which pages were overwritten. */
    ssdsim_workload *longer =
        workload("{\"rw\": \"randwrite\", \"bs\": \"4k\", \"iodepth\": 8, \"number_ios\": 8000}");
    ssdsim *d = new_sim(m, 8);
    run_ok(d, longer, 0);
    ssdsim_op_stats sa, sd;
    ssdsim *a2 = new_sim(m, 7);
    run_ok(a2, longer, 0);
    ssdsim_workload_free(longer);
    ck_assert_int_eq(ssdsim_get_op_stats(a2, SSDSIM_OP_WRITE, &sa), 0);
    ck_assert_int_eq(ssdsim_get_op_stats(d, SSDSIM_OP_WRITE, &sd), 0);
    ck_assert(sa.lat_mean_ns != sd.lat_mean_ns || ssdsim_sim_time_ns(a2) != ssdsim_sim_time_ns(d));

    free(ja);
    free(jb);
    free(jc);
    ssdsim_free(a);
    ssdsim_free(a2);
    ssdsim_free(b);
    ssdsim_free(c);
    ssdsim_free(d);
    ssdsim_workload_free(wl);
    ssdsim_workload_free(other);
    ssdsim_model_free(m);
}
END_TEST

struct progress_log {
    int calls;
    int stop_at; /* return 1 on this call (1-based); 0 = never */
    double last;
    int backwards;
    int out_of_range;
};

static int progress_cb(double fraction, void *userdata)
{
    struct progress_log *p = userdata;
    p->calls++;
    if (!(fraction >= 0.0 && fraction <= 1.0))
        p->out_of_range++;
    if (fraction < p->last)
        p->backwards++;
    p->last = fraction;
    return p->stop_at && p->calls >= p->stop_at;
}

START_TEST(test_api_progress_reports_fractions)
{
    ssdsim_model *m = small_model();
    ssdsim *sim = new_sim(m, 1);
    ssdsim_workload *wl =
        workload("{\"rw\": \"randwrite\", \"bs\": \"4k\", \"iodepth\": 8, \"number_ios\": 60000}");
    struct progress_log log = {0};
    ssdsim_set_progress(sim, progress_cb, &log);
    run_ok(sim, wl, 0);
    ck_assert_int_gt(log.calls, 1);
    ck_assert_int_eq(log.out_of_range, 0);
    ck_assert_int_eq(log.backwards, 0);
    /* removing the callback: no more calls */
    ssdsim_set_progress(sim, NULL, NULL);
    int before = log.calls;
    run_ok(sim, wl, 0);
    ck_assert_int_eq(log.calls, before);
    ssdsim_workload_free(wl);
    ssdsim_free(sim);
    ssdsim_model_free(m);
}
END_TEST

START_TEST(test_api_run_after_cancel_is_state_error)
{
    ssdsim_model *m = small_model();
    ssdsim *sim = new_sim(m, 1);
    ssdsim_workload *wl =
        workload("{\"rw\": \"randwrite\", \"bs\": \"4k\", \"iodepth\": 8, \"number_ios\": 60000}");
    struct progress_log log = {.stop_at = 1};
    ssdsim_set_progress(sim, progress_cb, &log);
    ssdsim_run_opts opts = {0};
    ck_assert_int_eq(ssdsim_run(sim, wl, &opts), SSDSIM_ECANCELLED);
    ck_assert_int_eq(log.calls, 1);
    ck_assert(ssdsim_errmsg(sim)[0] != '\0');
    /* it stopped part-way, and the partial figures are still readable */
    ssdsim_op_stats st;
    ck_assert_int_eq(ssdsim_get_op_stats(sim, SSDSIM_OP_WRITE, &st), 0);
    ck_assert_uint_lt(st.count, 60000);

    /* the device has requests in flight: nothing more may run on it */
    ssdsim_set_progress(sim, NULL, NULL);
    ck_assert_int_eq(ssdsim_run(sim, wl, &opts), SSDSIM_ESTATE);
    ck_assert(ssdsim_errmsg(sim)[0] != '\0');
    ck_assert_int_eq(ssdsim_precondition_seq(sim), SSDSIM_ESTATE);
    ck_assert(ssdsim_errmsg(sim)[0] != '\0');
    ck_assert_int_eq(ssdsim_run(sim, wl, &opts), SSDSIM_ESTATE);

    /* a fresh simulation from the same model is unaffected */
    ssdsim *fresh = new_sim(m, 1);
    ssdsim_workload *small = workload(randwrite_2000);
    run_ok(fresh, small, 0);
    ssdsim_free(fresh);
    ssdsim_workload_free(small);

    ssdsim_workload_free(wl);
    ssdsim_free(sim);
    ssdsim_model_free(m);
}
END_TEST

START_TEST(test_api_offset_beyond_device_is_config_error)
{
    ssdsim_model *m = small_model();
    ssdsim *sim = new_sim(m, 1);
    ssdsim_workload *wl = workload(randwrite_2000);
    ssdsim_error err;
    /* 64 TiB: a valid offset, but far beyond this 16 MiB device */
    ck_assert_int_eq(ssdsim_workload_set(wl, "offset", "64t", &err), 0);
    ssdsim_run_opts opts = {0};
    ck_assert_int_eq(ssdsim_run(sim, wl, &opts), SSDSIM_ECONFIG);
    const char *msg = ssdsim_errmsg(sim);
    ck_assert_msg(strstr(msg, "offset") != NULL, "%s", msg);
    ck_assert_ptr_null(strchr(msg, '\n'));

    /* a size that runs past the end is refused the same way */
    ck_assert_int_eq(ssdsim_workload_set(wl, "offset", "0", &err), 0);
    ck_assert_int_eq(ssdsim_workload_set(wl, "size", "1g", &err), 0);
    ck_assert_int_eq(ssdsim_run(sim, wl, &opts), SSDSIM_ECONFIG);
    ck_assert(ssdsim_errmsg(sim)[0] != '\0');

    /* a refused workload did not touch the device: a valid run works afterwards and clears
     * the message */
    ck_assert_int_eq(ssdsim_workload_set(wl, "size", "50%", &err), 0);
    run_ok(sim, wl, 0);
    ck_assert_str_eq(ssdsim_errmsg(sim), "");
    ssdsim_op_stats st;
    ck_assert_int_eq(ssdsim_get_op_stats(sim, SSDSIM_OP_WRITE, &st), 0);
    ck_assert_uint_eq(st.count, 2000);
    ssdsim_workload_free(wl);
    ssdsim_free(sim);
    ssdsim_model_free(m);
}
END_TEST

START_TEST(test_api_precondition_then_run)
{
    ssdsim_model *m = small_model();
    ssdsim *sim = new_sim(m, 1);
    ck_assert_int_eq(ssdsim_precondition_seq(sim), 0);
    /* the statistics were reset after preconditioning */
    ssdsim_op_stats st;
    ck_assert_int_eq(ssdsim_get_op_stats(sim, SSDSIM_OP_ALL, &st), 0);
    ck_assert_uint_eq(st.count, 0);
    ssdsim_workload *wl = workload(randwrite_2000);
    run_ok(sim, wl, 0);
    ck_assert_int_eq(ssdsim_get_op_stats(sim, SSDSIM_OP_ALL, &st), 0);
    ck_assert_uint_eq(st.count, 2000);
    ssdsim_device_stats d;
    ck_assert_int_eq(ssdsim_get_device_stats(sim, &d), 0);
    ck_assert_uint_eq(d.host_pages_written, 2000);
    /* every block was written during preconditioning */
    ck_assert_uint_ge(d.erase_count_max, 1);
    ssdsim_workload_free(wl);
    ssdsim_free(sim);
    ssdsim_model_free(m);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("api");

    TCase *basics = tcase_create("basics");
    tcase_add_test(basics, test_api_error_codes_walk);
    tcase_add_test(basics, test_api_unknown_error_code);
    tcase_add_test(basics, test_api_version);
    tcase_add_test(basics, test_api_macro_getters_are_functions);
    tcase_add_test(basics, test_api_free_accepts_null);
    tcase_add_test(basics, test_api_parse_time_ns);
    tcase_add_test(basics, test_api_parse_size);
    suite_add_tcase(s, basics);

    TCase *bogus = tcase_create("bogus");
    tcase_add_test(bogus, test_api_bogus_model_input);
    tcase_add_test(bogus, test_api_model_load_string_malformed);
    tcase_add_test(bogus, test_api_model_load_file_errors);
    tcase_add_test(bogus, test_api_bogus_workload_input);
    tcase_add_test(bogus, test_api_workload_set_unknown_key);
    tcase_add_test(bogus, test_api_bogus_sim_input);
    tcase_add_test(bogus, test_api_bogus_results_input);
    tcase_add_test(bogus, test_api_errmsg_for_every_error);
    tcase_add_test(bogus, test_api_event_calls_refused_in_callbacks);
    suite_add_tcase(s, bogus);

    TCase *models = tcase_create("models");
    tcase_add_test(models, test_api_every_model_loads);
    tcase_add_test(models, test_api_default_model_is_generic_mlc);
    tcase_add_test(models, test_api_model_to_json_reads_back);
    suite_add_tcase(s, models);

    /* Each simulation takes milliseconds; the timeout leaves room for sanitizer builds. */
    TCase *sims = tcase_create("simulations");
    tcase_set_timeout(sims, 120);
    tcase_add_test(sims, test_api_free_in_callback_deferred);
    tcase_add_test(sims, test_api_free_in_measure_deferred);
    tcase_add_test(sims, test_api_tiny_simulation);
    tcase_add_test(sims, test_api_job_stats_apart_from_run_stats);
    tcase_add_test(sims, test_api_time_series_intervals);
    tcase_add_test(sims, test_api_same_seed_side_by_side);
    tcase_add_test(sims, test_api_progress_reports_fractions);
    tcase_add_test(sims, test_api_run_after_cancel_is_state_error);
    tcase_add_test(sims, test_api_offset_beyond_device_is_config_error);
    tcase_add_test(sims, test_api_precondition_then_run);
    suite_add_tcase(s, sims);

    return test_run_suite(s);
}
