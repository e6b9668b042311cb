/* test_nvme.c: NVMe queue pairs, arbitration, fetch cost and interrupt coalescing (issue 17,
 * item 1) against figures derived by hand from the rules of dev/nvmeq.c, on generic-slc
 * (4 KiB reads of 25 us). */
#include <check.h>
#include <stdlib.h>

#include "simtest.h"

#define US 1000ull
#define UNIT 4096ull

/* completion order and per-job counts */
struct seen {
    uint64_t order[64];
    size_t n;
    uint64_t lat[64];
    uint64_t per_job[8];
};

static void on_done(const ssdsim_completion *c, void *ud)
{
    struct seen *s = ud;
    if (s->n < 64)
        s->order[s->n++] = c->id;
    if (c->id < 64)
        s->lat[c->id] = c->complete_ns - c->submit_ns;
}

static void on_complete(const ssdsim_completion *c, void *ud)
{
    struct seen *s = ud;
    if (c->job < 8)
        s->per_job[c->job]++;
}


/* A fio job file of two saturated random-read jobs on queues 0 and 1, run on sim. */
static void run_two(ssdsim *sim)
{
    const char *path = "nvme-two.fio";
    FILE *f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    fputs("[global]\nrw=randread\nbs=4k\niodepth=16\ntime_based\nruntime=40ms\n"
          "[a]\nqueue=0\n[b]\nqueue=1\n",
          f);
    fclose(f);
    ssdsim_workload *wl = NULL;
    ssdsim_error err;
    ck_assert_msg(ssdsim_workload_load_file(&wl, path, &err) == 0, "%s", err.message);
    ck_assert_msg(ssdsim_run(sim, wl, NULL) == 0, "%s", ssdsim_errmsg(sim));
    ssdsim_workload_free(wl);
    remove(path);
}

/* Two saturated queues, high (weight 3) and low (weight 1), behind a device that takes one
 * command at a time: the high queue gets 3 fetches for every 1 of the low queue, so the jobs'
 * throughputs are 3:1 (within 2%: the run's edges). */
START_TEST(test_nvme_wrr_shares)
{
    ssdsim_model *m = st_model("generic-slc", "controller.queue_depth=1", "nvme.queues=2",
                               "nvme.arbitration=\"wrr\"", "nvme.high_queues=1",
                               "nvme.weight_high=3", "nvme.weight_low=1", NULL);
    ssdsim *sim = st_sim(m, 1);
    struct seen s = {0};
    ssdsim_observer obs = {NULL, on_complete, &s};
    ssdsim_set_observer(sim, &obs);
    run_two(sim);
    ck_assert_uint_gt(s.per_job[1], 200);
    double ratio = (double)s.per_job[0] / (double)s.per_job[1];
    ck_assert_msg(ratio > 3 * 0.98 && ratio < 3 * 1.02, "ratio %.4f (%llu / %llu)", ratio,
                  (unsigned long long)s.per_job[0], (unsigned long long)s.per_job[1]);
    ssdsim_free(sim);
    ssdsim_model_free(m);
}
END_TEST

/* Round robin: the same two queues share equally. */
START_TEST(test_nvme_rr_shares)
{
    ssdsim_model *m = st_model("generic-slc", "controller.queue_depth=1", "nvme.queues=2", NULL);
    ssdsim *sim = st_sim(m, 1);
    struct seen s = {0};
    ssdsim_observer obs = {NULL, on_complete, &s};
    ssdsim_set_observer(sim, &obs);
    run_two(sim);
    double ratio = (double)s.per_job[0] / (double)s.per_job[1];
    ck_assert_msg(ratio > 0.98 && ratio < 1.02, "ratio %.4f", ratio);
    ssdsim_free(sim);
    ssdsim_model_free(m);
}
END_TEST

/* Urgent first: one command slot; at time 0 four reads go to the low queue 1 (ids 0-3), then
 * four to the urgent queue 0 (ids 10-13). Read 0 finds the device idle and is fetched at
 * once; each slot that frees then goes to the urgent queue while it has a command. */
START_TEST(test_nvme_urgent_first)
{
    ssdsim_model *m = st_model("generic-slc", "controller.queue_depth=1", "nvme.queues=2",
                               "nvme.arbitration=\"wrr\"", "nvme.urgent_queues=1",
                               "nvme.weight_low=8", NULL);
    ssdsim *sim = st_sim(m, 1);
    struct seen s = {0};
    ssdsim_submit_opts o = SSDSIM_SUBMIT_OPTS_INIT;
    o.queue = 1;
    for (uint64_t k = 0; k < 4; k++)
        ck_assert_int_eq(ssdsim_submit_ex(sim, SSDSIM_OP_READ, k * 64 * UNIT, UNIT, 0, k, on_done,
                                          &s, &o),
                         0);
    o.queue = 0;
    for (uint64_t k = 0; k < 4; k++)
        ck_assert_int_eq(ssdsim_submit_ex(sim, SSDSIM_OP_READ, (k + 8) * 64 * UNIT, UNIT, 0,
                                          10 + k, on_done, &s, &o),
                         0);
    ck_assert_int_eq(ssdsim_drain(sim), 0);
    uint64_t want[] = {0, 10, 11, 12, 13, 1, 2, 3};
    ck_assert_uint_eq(s.n, 8);
    for (size_t i = 0; i < 8; i++)
        ck_assert_uint_eq(s.order[i], want[i]);
    ssdsim_free(sim);
    ssdsim_model_free(m);
}
END_TEST

/* A flow alone on a model with queues (WRR, four pairs, its queue low) runs exactly as on the
 * model without: the same statistics to the last bit. */
static void op_stats(const char *const *keys, ssdsim_op_stats *r, ssdsim_op_stats *w,
                     uint64_t *end)
{
    ssdsim_model *m = st_model("generic-slc", keys[0], keys[1], keys[2], keys[3], NULL);
    ssdsim *sim = st_sim(m, 7);
    st_run(sim,
           "{\"rw\": \"randrw\", \"bs\": \"4k\", \"iodepth\": 64, \"number_ios\": 20000, "
           "\"size\": \"64m\", \"queue\": 2}",
           NULL);
    ck_assert_int_eq(ssdsim_get_op_stats(sim, SSDSIM_OP_READ, r), 0);
    ck_assert_int_eq(ssdsim_get_op_stats(sim, SSDSIM_OP_WRITE, w), 0);
    *end = ssdsim_now(sim);
    ssdsim_free(sim);
    ssdsim_model_free(m);
}

START_TEST(test_nvme_flow_alone)
{
    const char *plain[] = {"nvme.queues=3", NULL, NULL, NULL};
    const char *queues[] = {"nvme.queues=4", "nvme.arbitration=\"wrr\"", "nvme.urgent_queues=1",
                            "nvme.high_queues=1"};
    ssdsim_op_stats r1, w1, r2, w2;
    uint64_t e1, e2;
    op_stats(plain, &r1, &w1, &e1);
    op_stats(queues, &r2, &w2, &e2);
    ck_assert_uint_gt(r1.count, 0);
    ck_assert(memcmp(&r1, &r2, sizeof r1) == 0);
    ck_assert(memcmp(&w1, &w2, sizeof w1) == 0);
    ck_assert_uint_eq(e1, e2);
}
END_TEST

/* The fetch cost adds to a lone command's latency; coalescing holds its completion until the
 * aggregation time (the threshold of 4 is not reached by one). Four reads at once on 4
 * queue slots complete together at the 4th (threshold reached). */
static uint64_t lone_read(const char *k1, const char *k2)
{
    ssdsim_model *m = st_model("generic-slc", k1, k2, NULL);
    ssdsim *sim = st_sim(m, 1);
    struct seen s = {0};
    ck_assert_int_eq(ssdsim_submit(sim, SSDSIM_OP_READ, 0, UNIT, 0, 0, on_done, &s), 0);
    ck_assert_int_eq(ssdsim_drain(sim), 0);
    ssdsim_free(sim);
    ssdsim_model_free(m);
    return s.lat[0];
}

START_TEST(test_nvme_fetch_and_coalescing)
{
    uint64_t plain = lone_read("nvme.queues=1", "nvme.burst=1");
    ck_assert_uint_eq(lone_read("nvme.fetch_us=1", "nvme.burst=1"), plain + 1 * US);
    ck_assert_uint_eq(lone_read("nvme.cq_threshold=4", "nvme.cq_time_us=100"), plain + 100 * US);

    ssdsim_model *m = st_model("generic-slc", "nvme.cq_threshold=4", NULL);
    ssdsim *sim = st_sim(m, 1);
    struct seen s = {0};
    for (uint64_t k = 0; k < 4; k++)
        ck_assert_int_eq(ssdsim_submit(sim, SSDSIM_OP_READ, k * 97 * UNIT, UNIT, 0, k, on_done, &s),
                         0);
    ck_assert_int_eq(ssdsim_drain(sim), 0);
    uint64_t top = 0;
    for (int k = 0; k < 4; k++)
        top = s.lat[k] > top ? s.lat[k] : top;
    for (int k = 0; k < 4; k++)
        ck_assert_uint_eq(s.lat[k], top);
    ck_assert_uint_lt(top, 100 * US);
    ssdsim_free(sim);
    ssdsim_model_free(m);
}
END_TEST

/* Bad input: one line naming the key or option, and no run. */
START_TEST(test_nvme_bad_input)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/models/generic-slc.json", SRCDIR);
    ssdsim_model *m = NULL;
    ssdsim_error err;
    ck_assert_int_eq(ssdsim_model_load_file(&m, path, &err), 0);
    ck_assert_int_eq(ssdsim_model_set(m, "nvme.arbitration", "\"wrr\"", &err), 0);
    ck_assert_int_ne(ssdsim_model_set(m, "nvme.weight_high", "0", &err), 0);
    ck_assert_ptr_nonnull(strstr(err.message, "nvme.weight_high"));
    ck_assert_ptr_null(strchr(err.message, '\n'));
    ck_assert_int_ne(ssdsim_model_set(m, "nvme.burst", "3", &err), 0);
    ck_assert_ptr_nonnull(strstr(err.message, "nvme.burst"));
    ck_assert_int_ne(ssdsim_model_set(m, "nvme.urgent_queues", "2", &err), 0);
    ck_assert_ptr_nonnull(strstr(err.message, "nvme.urgent_queues"));
    ck_assert_int_eq(ssdsim_model_set(m, "nvme.queues", "2", &err), 0);
    ssdsim *sim = st_sim(m, 1);
    ssdsim_workload *wl = st_workload("{\"rw\": \"randread\", \"number_ios\": 10, \"queue\": 2}");
    ck_assert_int_eq(ssdsim_run(sim, wl, NULL), SSDSIM_ECONFIG);
    ck_assert_str_eq(ssdsim_errmsg(sim),
                     "job 'job': queue: 2 is beyond the model's queue pairs (nvme.queues 2: 0 to "
                     "1)");
    ssdsim_op_stats r;
    ck_assert_int_eq(ssdsim_get_op_stats(sim, SSDSIM_OP_READ, &r), 0);
    ck_assert_uint_eq(r.count, 0);
    ssdsim_workload_free(wl);
    ssdsim_free(sim);
    sim = st_sim(m, 1);
    ssdsim_submit_opts o = SSDSIM_SUBMIT_OPTS_INIT;
    o.queue = 2;
    ck_assert_int_eq(ssdsim_submit_ex(sim, SSDSIM_OP_READ, 0, UNIT, 0, 0, NULL, NULL, &o),
                     SSDSIM_EINVAL);
    ck_assert_ptr_nonnull(strstr(ssdsim_errmsg(sim), "queue: 2 is beyond"));
    ssdsim_free(sim);
    ssdsim_model_free(m);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("nvme");
    TCase *tc = tcase_create("nvme");
    tcase_add_test(tc, test_nvme_wrr_shares);
    tcase_add_test(tc, test_nvme_rr_shares);
    tcase_add_test(tc, test_nvme_urgent_first);
    tcase_add_test(tc, test_nvme_flow_alone);
    tcase_add_test(tc, test_nvme_fetch_and_coalescing);
    tcase_add_test(tc, test_nvme_bad_input);
    suite_add_tcase(s, tc);
    return test_run_suite(s);
}
