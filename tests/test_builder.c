/* test_builder.c: models and workloads built from C values through the public API: a deep copy
 * of a model that changes independently of the original, typed getters and setters of model
 * keys (with errors that name the key and the type expected), and a workload built option by
 * option that runs exactly as the same workload loaded from JSON. */
#include <check.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "simtest.h"
#include "testutil.h"

START_TEST(test_model_copy_is_deep)
{
    ssdsim_model *m = NULL, *c = NULL;
    ck_assert_int_eq(ssdsim_model_default(&m, NULL), 0);
    ck_assert_int_eq(ssdsim_model_copy(&c, m), 0);
    char *a = ssdsim_model_to_json(m), *b = ssdsim_model_to_json(c);
    ck_assert_str_eq(a, b);
    free(a);
    free(b);
    ssdsim_error err;
    ck_assert_msg(ssdsim_model_set_double(c, "ftl.op", 0.5, &err) == 0, "%s", err.message);
    double op = 0;
    ck_assert_int_eq(ssdsim_model_get_double(m, "ftl.op", &op, &err), 0);
    ck_assert(op == 0.28); /* models/generic-mlc.json */
    ck_assert_int_eq(ssdsim_model_get_double(c, "ftl.op", &op, &err), 0);
    ck_assert(op == 0.5);
    ssdsim_model_free(m); /* the copy outlives its original */
    ck_assert_uint_gt(ssdsim_model_logical_bytes(c), 0);
    ssdsim_model_free(c);
    ck_assert_int_eq(ssdsim_model_copy(&c, NULL), SSDSIM_EINVAL);
    ck_assert_ptr_null(c);
}
END_TEST

START_TEST(test_model_typed_keys)
{
    ssdsim_model *m = NULL;
    ssdsim_error err;
    ck_assert_int_eq(ssdsim_model_default(&m, NULL), 0);
    int64_t i = 0;
    ck_assert_int_eq(ssdsim_model_get_int(m, "geometry.blocks_per_plane", &i, &err), 0);
    ck_assert_int_eq(i, 512);
    ck_assert_int_eq(ssdsim_model_get_int(m, "geometry.page_size", &i, &err), 0);
    ck_assert_int_eq(i, 4096); /* "4KiB" in the file, bytes in the canonical model */
    char s[16];
    ck_assert_int_eq(ssdsim_model_get_string(m, "gc.policy", s, sizeof s, &err), 0);
    ck_assert_str_eq(s, "greedy");
    bool on = true;
    ck_assert_int_eq(ssdsim_model_get_bool(m, "ftl.hot_cold", &on, &err), 0); /* a default */
    ck_assert(!on);

    ck_assert_msg(ssdsim_model_set_int(m, "geometry.blocks_per_plane", 256, &err) == 0, "%s",
                  err.message);
    ck_assert_msg(ssdsim_model_set_string(m, "gc.policy", "fifo", &err) == 0, "%s", err.message);
    ck_assert_msg(ssdsim_model_set_bool(m, "ftl.hot_cold", true, &err) == 0, "%s", err.message);
    ck_assert_int_eq(ssdsim_model_get_int(m, "geometry.blocks_per_plane", &i, &err), 0);
    ck_assert_int_eq(i, 256);
    ck_assert_int_eq(ssdsim_model_get_string(m, "gc.policy", s, sizeof s, &err), 0);
    ck_assert_str_eq(s, "fifo");
    ck_assert_int_eq(ssdsim_model_get_bool(m, "ftl.hot_cold", &on, &err), 0);
    ck_assert(on);

    /* Errors name the key and the type expected. */
    ck_assert_int_eq(ssdsim_model_get_int(m, "ftl.op", &i, &err), SSDSIM_EINVAL);
    ck_assert_str_eq(err.path, "ftl.op");
    ck_assert_msg(strstr(err.message, "ftl.op: expected an integer, the value is 0.28"), "%s",
                  err.message);
    ck_assert_int_eq(ssdsim_model_get_bool(m, "gc.policy", &on, &err), SSDSIM_EINVAL);
    ck_assert_msg(strstr(err.message, "gc.policy: expected a boolean, the value is a string"),
                  "%s", err.message);
    ck_assert_int_eq(ssdsim_model_get_double(m, "ftl.opp", NULL, &err), SSDSIM_ENOTFOUND);
    ck_assert_msg(strstr(err.message, "ftl.opp: the model has no such key"), "%s", err.message);
    ck_assert_int_eq(ssdsim_model_get_double(m, "ftl", NULL, &err), SSDSIM_EINVAL);
    ck_assert_msg(strstr(err.message, "ftl: is a section"), "%s", err.message);
    char tiny[3];
    ck_assert_int_eq(ssdsim_model_get_string(m, "gc.policy", tiny, sizeof tiny, &err),
                     SSDSIM_ERANGE);
    /* A set that fails validation leaves the model as it was. */
    ck_assert_int_eq(ssdsim_model_set_int(m, "geometry.pages_per_block", -3, &err),
                     SSDSIM_ECONFIG);
    ck_assert_str_eq(err.path, "geometry.pages_per_block");
    ck_assert_int_eq(ssdsim_model_get_int(m, "geometry.pages_per_block", &i, NULL), 0);
    ck_assert_int_eq(i, 128);
    ck_assert_int_eq(ssdsim_model_set_double(m, "ftl.op", 0.0 / 0.0, &err), SSDSIM_EINVAL);
    ssdsim_model_free(m);
}
END_TEST

START_TEST(test_workload_builder_runs_as_json)
{
    ssdsim_model *m = st_model("generic-mlc", "geometry.blocks_per_plane=64", NULL);
    ssdsim_error err;
    ssdsim_workload *built = NULL;
    ck_assert_int_eq(ssdsim_workload_new(&built, "built", &err), 0);
    ck_assert_uint_eq(ssdsim_workload_n_jobs(built), 1);
    ck_assert_int_eq(ssdsim_workload_set(built, "rw", "randwrite", &err), 0);
    ck_assert_int_eq(ssdsim_workload_set_int(built, "bs", 8192, &err), 0);
    ck_assert_int_eq(ssdsim_workload_set_int(built, "iodepth", 8, &err), 0);
    ck_assert_int_eq(ssdsim_workload_set_int(built, "number_ios", 3000, &err), 0);
    ck_assert_int_eq(ssdsim_workload_set_bool(built, "norandommap", true, &err), 0);
    ck_assert_int_eq(ssdsim_workload_set_double(built, "rate_iops", 20000.0, &err), 0);
    ck_assert_int_eq(ssdsim_workload_set_int(built, "iodepth", -1, &err), SSDSIM_ECONFIG);
    ck_assert_str_eq(err.path, "iodepth");

    ssdsim *a = st_sim(m, 7), *b = st_sim(m, 7);
    ck_assert_msg(ssdsim_run(a, built, NULL) == 0, "%s", ssdsim_errmsg(a));
    st_run(b,
           "{\"rw\": \"randwrite\", \"bs\": 8192, \"iodepth\": 8, \"number_ios\": 3000, "
           "\"norandommap\": 1, \"rate_iops\": 20000}",
           NULL);
    ssdsim_op_stats sa, sb;
    ck_assert_int_eq(ssdsim_get_op_stats(a, SSDSIM_OP_WRITE, &sa), 0);
    ck_assert_int_eq(ssdsim_get_op_stats(b, SSDSIM_OP_WRITE, &sb), 0);
    ck_assert_uint_eq(sa.count, 3000);
    ck_assert_uint_eq(sa.bytes, 3000 * 8192);
    ck_assert_uint_eq(sa.lat_max_ns, sb.lat_max_ns);
    ck_assert_uint_eq(sa.lat_p99_ns, sb.lat_p99_ns);
    ck_assert_uint_eq(ssdsim_sim_time_ns(a), ssdsim_sim_time_ns(b));
    ssdsim_free(a);
    ssdsim_free(b);
    ssdsim_workload_free(built);
    ssdsim_model_free(m);
}
END_TEST

START_TEST(test_workload_builder_jobs)
{
    ssdsim_model *m = st_model("generic-mlc", "geometry.blocks_per_plane=64", NULL);
    ssdsim_error err;
    ssdsim_workload *wl = NULL;
    ck_assert_int_eq(ssdsim_workload_new(&wl, "two jobs", &err), 0);
    ck_assert_int_eq(ssdsim_workload_job_set(wl, 0, "rw", "randwrite", &err), 0);
    ck_assert_int_eq(ssdsim_workload_job_set(wl, 0, "number_ios", "1000", &err), 0);
    ck_assert_int_eq(ssdsim_workload_add_job(wl, "reader", &err), 0);
    ck_assert_uint_eq(ssdsim_workload_n_jobs(wl), 2);
    ck_assert_str_eq(ssdsim_workload_job_name(wl, 1), "reader");
    ck_assert_int_eq(ssdsim_workload_job_set(wl, 1, "number_ios", "500", &err), 0);
    ck_assert_int_eq(ssdsim_workload_job_set(wl, 1, "bs", "nonsense", &err), SSDSIM_ECONFIG);
    ck_assert_str_eq(err.path, "bs");
    ck_assert_int_eq(ssdsim_workload_job_set(wl, 2, "bs", "8k", &err), SSDSIM_EINVAL);
    ck_assert_int_eq(ssdsim_workload_add_job(wl, "", &err), SSDSIM_EINVAL);
    ssdsim *sim = st_sim(m, 3);
    ck_assert_msg(ssdsim_run(sim, wl, NULL) == 0, "%s", ssdsim_errmsg(sim));
    ssdsim_op_stats w, r;
    ck_assert_int_eq(ssdsim_get_op_stats(sim, SSDSIM_OP_WRITE, &w), 0);
    ck_assert_int_eq(ssdsim_get_op_stats(sim, SSDSIM_OP_READ, &r), 0);
    ck_assert_uint_eq(w.count, 1000); /* job 0 only writes */
    ck_assert_uint_eq(r.count, 500);  /* the added job reads, fio's default rw, 4 KiB each */
    ck_assert_uint_eq(r.bytes, 500 * 4096);
    ck_assert_uint_eq(ssdsim_n_jobs(sim), 2);
    ssdsim_free(sim);
    ssdsim_workload_free(wl);
    ssdsim_model_free(m);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("builder");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_model_copy_is_deep);
    tcase_add_test(tc, test_model_typed_keys);
    tcase_add_test(tc, test_workload_builder_runs_as_json);
    tcase_add_test(tc, test_workload_builder_jobs);
    suite_add_tcase(s, tc);
    return test_run_suite(s);
}
