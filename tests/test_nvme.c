/* test_nvme.c: NVMe queue pairs, arbitration, fetch cost and interrupt coalescing (issue 17,
 * item 1) against figures derived by hand from the rules of dev/nvmeq.c, on generic-slc
 * (4 KiB reads of 25 us). */
#include <check.h>
#include <math.h>
#include <stdlib.h>

#include <cJSON.h>

#include "cmdtest.h"
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
    fputs("[global]\nioengine=libaio\nrw=randread\nbs=4k\niodepth=16\ntime_based\nruntime=40ms\n"
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

/* The Arbitration Burst, by hand: one command slot, round robin, four reads submitted to queue
 * 1 (ids 0-3) then four to queue 0 (ids 10-13) at time 0. Read 0 finds the device idle and is
 * fetched at once (queue 1 picked); each freed slot then goes by the burst. Burst 1: the
 * queues alternate, 0 10 1 11 2 12 3 13. Burst 2: two from each in turn, 0 1 10 11 2 3 12 13.
 * Burst 64 and "unlimited": queue 1 keeps the arbiter while it has commands, 0 1 2 3 10 11 12
 * 13. "unlimited" is also what the model prints back. */
START_TEST(test_nvme_burst)
{
    static const char *const bursts[] = {"nvme.burst=1", "nvme.burst=2", "nvme.burst=64",
                                         "nvme.burst=\"unlimited\""};
    static const uint64_t want[][8] = {{0, 10, 1, 11, 2, 12, 3, 13},
                                       {0, 1, 10, 11, 2, 3, 12, 13},
                                       {0, 1, 2, 3, 10, 11, 12, 13},
                                       {0, 1, 2, 3, 10, 11, 12, 13}};
    for (size_t b = 0; b < 4; b++) {
        ssdsim_model *m =
            st_model("generic-slc", "controller.queue_depth=1", "nvme.queues=2", bursts[b], NULL);
        ssdsim *sim = st_sim(m, 1);
        struct seen s = {0};
        ssdsim_submit_opts o = SSDSIM_SUBMIT_OPTS_INIT;
        for (uint64_t k = 0; k < 8; k++) {
            o.queue = k < 4 ? 1 : 0;
            uint64_t id = k < 4 ? k : 10 + k - 4;
            ck_assert_int_eq(ssdsim_submit_ex(sim, SSDSIM_OP_READ, k * 64 * UNIT, UNIT, 0, id,
                                              on_done, &s, &o),
                             0);
        }
        ck_assert_int_eq(ssdsim_drain(sim), 0);
        ck_assert_uint_eq(s.n, 8);
        for (size_t i = 0; i < 8; i++)
            ck_assert_msg(s.order[i] == want[b][i], "%s: completion %zu is %llu, not %llu",
                          bursts[b], i, (unsigned long long)s.order[i],
                          (unsigned long long)want[b][i]);
        if (b == 3) {
            char *json = ssdsim_model_to_json(m);
            ck_assert_ptr_nonnull(strstr(json, "\"burst\":\t\"unlimited\""));
            ssdsim_model *back = NULL;
            ssdsim_error err;
            ck_assert_msg(ssdsim_model_load_string(&back, json, "back", &err) == 0, "%s",
                          err.message);
            ssdsim_model_free(back);
            free(json);
        }
        ssdsim_free(sim);
        ssdsim_model_free(m);
    }
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
    /* NVMe's Arbitration Burst is 3 bits, 2^n with 111b no limit: 64 the largest number */
    ck_assert_int_ne(ssdsim_model_set(m, "nvme.burst", "128", &err), 0);
    ck_assert_str_eq(err.message, "--set: nvme.burst: expected 1, 2, 4, 8, 16, 32, 64 or "
                                  "\"unlimited\", got 128");
    ck_assert_int_ne(ssdsim_model_set(m, "nvme.burst", "0", &err), 0);
    ck_assert_ptr_nonnull(strstr(err.message, "nvme.burst"));
    ck_assert_int_ne(ssdsim_model_set(m, "nvme.burst", "\"none\"", &err), 0);
    ck_assert_ptr_nonnull(strstr(err.message, "nvme.burst"));
    ck_assert_ptr_null(strchr(err.message, '\n'));
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

/* A flow alone (ssdsim_workload_keep_job): job 0 of a two-job workload runs exactly as a
 * workload of job 0 only (same seed index, same queue). */
static void job0_stats(bool two, ssdsim_op_stats *out)
{
    ssdsim_model *m = st_model("generic-slc", "nvme.queues=2", NULL);
    ssdsim *sim = st_sim(m, 3);
    ssdsim_workload *wl = NULL;
    ssdsim_error err;
    ck_assert_int_eq(ssdsim_workload_new(&wl, "t", &err), 0);
    ck_assert_int_eq(ssdsim_workload_add_job(wl, "a", &err), 0);
    ck_assert_int_eq(ssdsim_workload_job_set(wl, 0, "rw", "randwrite", &err), 0);
    ck_assert_int_eq(ssdsim_workload_job_set(wl, 0, "number_ios", "3000", &err), 0);
    ck_assert_int_eq(ssdsim_workload_job_set(wl, 0, "iodepth", "8", &err), 0);
    if (two) {
        ck_assert_int_eq(ssdsim_workload_add_job(wl, "b", &err), 0);
        ck_assert_int_eq(ssdsim_workload_job_set(wl, 1, "rw", "randread", &err), 0);
        ck_assert_int_eq(ssdsim_workload_job_set(wl, 1, "number_ios", "3000", &err), 0);
        ck_assert_int_eq(ssdsim_workload_keep_job(wl, 0, &err), 0);
    }
    ck_assert_msg(ssdsim_run(sim, wl, NULL) == 0, "%s", ssdsim_errmsg(sim));
    ck_assert_int_eq(ssdsim_get_job_op_stats(sim, 0, SSDSIM_OP_ALL, out), 0);
    if (two) {
        ssdsim_op_stats b;
        ck_assert_int_eq(ssdsim_get_job_op_stats(sim, 1, SSDSIM_OP_ALL, &b), 0);
        ck_assert_uint_eq(b.count, 0);
    }
    ssdsim_workload_free(wl);
    ssdsim_free(sim);
    ssdsim_model_free(m);
}

START_TEST(test_nvme_keep_job)
{
    ssdsim_op_stats one, two;
    job0_stats(false, &one);
    job0_stats(true, &two);
    ck_assert_uint_eq(one.count, 3000);
    ck_assert(memcmp(&one, &two, sizeof one) == 0);
}
END_TEST

/* ssdsim run --fairness: each flow's alone latency is that of a separate run of the flow's
 * section alone (job 0: the same seed index); slowdown = shared / alone; the index is the
 * smallest slowdown over the largest. A one-job workload is refused in one line. */
static double json_num(const cJSON *o, const char *k)
{
    const cJSON *x = cJSON_GetObjectItemCaseSensitive(o, k);
    ck_assert_msg(cJSON_IsNumber(x), "no number %s", k);
    return x->valuedouble;
}

START_TEST(test_nvme_fairness_cli)
{
    char two[1024], one[1024], out2[1024], out1[1024], model[1024];
    snprintf(model, sizeof model, "%s/models/generic-slc.json", SRCDIR);
    out_path(two, sizeof two, "fair-two.fio");
    out_path(one, sizeof one, "fair-one.fio");
    out_path(out2, sizeof out2, "fair-two.json");
    out_path(out1, sizeof out1, "fair-one.json");
    write_file(two, "[global]\nioengine=libaio\nbs=4k\niodepth=8\nnumber_ios=4000\nsize=256m\n"
                    "[w]\nrw=randwrite\n[r]\nrw=randread\n");
    write_file(one, "[global]\nioengine=libaio\nbs=4k\niodepth=8\nnumber_ios=4000\nsize=256m\n"
                    "[w]\nrw=randwrite\n");
    struct cmd c;
    const char *a2[] = {"run", "--model", model, "--set", "nvme.queues=2",
                        "--set", "controller.queue_depth=4", "--workload", two,
                        "--fairness", "--quiet", "--json", out2, NULL};
    run_argv(&c, a2);
    ck_assert_msg(c.status == 0, "%s", c.err);
    cmd_free(&c);
    const char *a1[] = {"run", "--model", model, "--set", "nvme.queues=2",
                        "--set", "controller.queue_depth=4", "--workload", one,
                        "--quiet", "--json", out1, NULL};
    run_argv(&c, a1);
    ck_assert_msg(c.status == 0, "%s", c.err);
    cmd_free(&c);
    char *t2 = read_file(out2, NULL), *t1 = read_file(out1, NULL);
    cJSON *j2 = cJSON_Parse(t2), *j1 = cJSON_Parse(t1);
    ck_assert(j2 && j1);
    const cJSON *fair = cJSON_GetObjectItemCaseSensitive(j2, "fairness");
    const cJSON *flows = cJSON_GetObjectItemCaseSensitive(fair, "flows");
    ck_assert_int_eq(cJSON_GetArraySize(flows), 2);
    double lo = 1e300, hi = 0;
    for (int i = 0; i < 2; i++) {
        const cJSON *f = cJSON_GetArrayItem(flows, i);
        double s = json_num(f, "lat_mean_shared_ns") / json_num(f, "lat_mean_alone_ns");
        ck_assert(fabs(json_num(f, "slowdown") - s) <= 1e-12 * s);
        lo = s < lo ? s : lo;
        hi = s > hi ? s : hi;
    }
    ck_assert(fabs(json_num(fair, "index") - lo / hi) <= 1e-12);
    ck_assert(cJSON_IsBool(cJSON_GetObjectItemCaseSensitive(fair, "drain_tail_warning")));
    /* flow w alone = the one-job run's write latency */
    const cJSON *wr = cJSON_GetObjectItemCaseSensitive(
        cJSON_GetObjectItemCaseSensitive(j1, "ops"), "write");
    double alone = json_num(cJSON_GetObjectItemCaseSensitive(wr, "lat_ns"), "mean");
    double got = json_num(cJSON_GetArrayItem(flows, 0), "lat_mean_alone_ns");
    ck_assert_msg(fabs(got - alone) <= 1e-3 * alone + 0.01, "%f vs %f", got, alone);
    cJSON_Delete(j2);
    cJSON_Delete(j1);
    free(t2);
    free(t1);
    /* uneven flows behind one command slot (as test_flows_tail: a 100 QD1 reads, b 1000): b
     * reads 901 of its 1100 service times after a ended, tail 0.819; one warning line names
     * it, and the JSON says so */
    write_file(two, "[global]\nbs=4k\nrw=randread\niodepth=1\nsize=256m\n"
                    "[a]\nqueue=0\nnumber_ios=100\n[b]\nqueue=1\nnumber_ios=1000\n");
    const char *a3[] = {"run", "--model", model, "--set", "nvme.queues=2",
                        "--set", "controller.queue_depth=1", "--workload", two,
                        "--fairness", "--quiet", "--json", out2, NULL};
    run_argv(&c, a3);
    ck_assert_msg(c.status == 0, "%s", c.err);
    ck_assert_msg(strstr(c.err, "ssdsim: warning: --fairness: flow 'b' ran 82% of its window "
                                "after the first flow had ended") != NULL,
                  "%s", c.err);
    ck_assert_msg(memchr(c.err, '\n', c.n_err) == c.err + c.n_err - 1, "not one line: %s",
                  c.err);
    cmd_free(&c);
    t2 = read_file(out2, NULL);
    j2 = cJSON_Parse(t2);
    fair = cJSON_GetObjectItemCaseSensitive(j2, "fairness");
    ck_assert(cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(fair, "drain_tail_warning")));
    flows = cJSON_GetObjectItemCaseSensitive(fair, "flows");
    ck_assert_double_eq(json_num(cJSON_GetArrayItem(flows, 0), "tail_fraction"), 0);
    double tb = json_num(cJSON_GetArrayItem(flows, 1), "tail_fraction");
    ck_assert_msg(fabs(tb - 901.0 / 1100.0) < 0.01, "tail %f", tb);
    cJSON_Delete(j2);
    free(t2);
    const char *bad[] = {"run", "--model", model, "--workload", one, "--fairness",
                         "--quiet", NULL};
    run_argv(&c, bad);
    assert_one_error(&c, 1, "--fairness: needs a workload of two or more job sections");
    cmd_free(&c);
    const char *badq[] = {"run", "--model", model, "--set", "nvme.queues=2",
                          "--set", "nvme.arbitration=\"wrr\"", "--set", "nvme.weight_low=0",
                          "--workload", one, "--quiet", NULL};
    run_argv(&c, badq);
    assert_one_error(&c, 1, "nvme.weight_low");
    cmd_free(&c);
}
END_TEST

/* Several traces at once (--trace A --trace B): one job (flow) per trace, named after it, with
 * every request of its trace: the counts of each trace replayed alone. */
static double ops_count(const cJSON *ops, const char *op)
{
    return json_num(cJSON_GetObjectItemCaseSensitive(ops, op), "count");
}

START_TEST(test_nvme_several_traces)
{
    char model[1024], a[1024], b[1024], outm[1024], out1[1024];
    snprintf(model, sizeof model, "%s/models/generic-slc.json", SRCDIR);
    snprintf(a, sizeof a, "%s/traces/sample.msr.csv", SRCDIR);
    snprintf(b, sizeof b, "%s/traces/sample.csv", SRCDIR);
    out_path(outm, sizeof outm, "multi.json");
    out_path(out1, sizeof out1, "single.json");
    struct cmd c;
    const char *am[] = {"run", "--model", model, "--set", "nvme.queues=2", "--trace", a,
                        "--trace", b, "--quiet", "--json", outm, NULL};
    run_argv(&c, am);
    ck_assert_msg(c.status == 0, "%s", c.err);
    cmd_free(&c);
    char *tm = read_file(outm, NULL);
    cJSON *jm = cJSON_Parse(tm);
    const cJSON *jobs = cJSON_GetObjectItemCaseSensitive(jm, "jobs");
    ck_assert_int_eq(cJSON_GetArraySize(jobs), 2);
    const char *paths[] = {a, b};
    double total = 0;
    for (int k = 0; k < 2; k++) {
        const char *a1[] = {"run", "--model", model, "--trace", paths[k], "--quiet", "--json",
                            out1, NULL};
        run_argv(&c, a1);
        ck_assert_msg(c.status == 0, "%s", c.err);
        cmd_free(&c);
        char *t1 = read_file(out1, NULL);
        cJSON *j1 = cJSON_Parse(t1);
        const cJSON *job = cJSON_GetArrayItem(jobs, k);
        ck_assert_str_eq(cJSON_GetObjectItemCaseSensitive(job, "name")->valuestring, paths[k]);
        double want = ops_count(cJSON_GetObjectItemCaseSensitive(j1, "ops"), "all");
        ck_assert(ops_count(cJSON_GetObjectItemCaseSensitive(job, "ops"), "all") == want);
        total += want;
        cJSON_Delete(j1);
        free(t1);
    }
    ck_assert(ops_count(cJSON_GetObjectItemCaseSensitive(jm, "ops"), "all") == total);
    cJSON_Delete(jm);
    free(tm);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("nvme");
    TCase *tc = tcase_create("nvme");
    tcase_add_test(tc, test_nvme_wrr_shares);
    tcase_add_test(tc, test_nvme_rr_shares);
    tcase_add_test(tc, test_nvme_urgent_first);
    tcase_add_test(tc, test_nvme_burst);
    tcase_add_test(tc, test_nvme_flow_alone);
    tcase_add_test(tc, test_nvme_fetch_and_coalescing);
    tcase_add_test(tc, test_nvme_bad_input);
    tcase_add_test(tc, test_nvme_keep_job);
    tcase_add_test(tc, test_nvme_fairness_cli);
    tcase_add_test(tc, test_nvme_several_traces);
    suite_add_tcase(s, tc);
    return test_run_suite(s);
}
