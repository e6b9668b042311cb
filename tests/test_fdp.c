/* test_fdp.c: Flexible Data Placement (issue 17, item 5) through the public API. A hot/cold
 * workload (a fraction F of the 4 KiB random writes to a fraction H of the logical space) runs
 * on a small drive with greedy GC, once with the hot writes on placement handle 1 and the cold
 * ones on handle 0 (persistently isolated), once without FDP. With the classes apart the device
 * behaves as two pools sharing the spare, whose WAF the hot/cold theory (gc/theory.c,
 * ssdsim_theory_hotcold_waf: Desnoyers' two pools with the spare split at its optimum) gives;
 * mixed, it is one pool of skewed traffic, clearly worse. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <ssdsim/trace.h>

#include "simtest.h"

#define UNIT 4096ull
#define F_HOT 0.9
#define H_HOT 0.1

struct load {
    ssdsim *sim;
    uint64_t units, hot_units, left, rng, hot_writes;
    bool fdp;
};

static uint64_t next_rand(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

static void submit_one(struct load *l, uint64_t at);

static void on_done(const ssdsim_completion *c, void *ud)
{
    ck_assert_uint_eq(c->status, 0);
    struct load *l = ud;
    if (l->left)
        submit_one(l, c->complete_ns);
}

static void submit_one(struct load *l, uint64_t at)
{
    l->left--;
    double u = (double)(next_rand(&l->rng) >> 11) / 9007199254740992.0;
    bool hot = u < F_HOT;
    l->hot_writes += hot;
    uint64_t lpn = hot ? next_rand(&l->rng) % l->hot_units
                       : l->hot_units + next_rand(&l->rng) % (l->units - l->hot_units);
    ssdsim_submit_opts o = SSDSIM_SUBMIT_OPTS_INIT;
    o.placement = l->fdp && hot ? 1 : 0;
    ck_assert_int_eq(ssdsim_submit_ex(l->sim, SSDSIM_OP_WRITE, lpn * UNIT, UNIT, at, 0, on_done, l,
                                      &o),
                     0);
}

/* `n` writes, 32 outstanding. */
static void run_writes(struct load *l, uint64_t n)
{
    l->left = n;
    uint64_t now = ssdsim_now(l->sim);
    for (int k = 0; k < 32 && l->left; k++)
        submit_one(l, now);
    ck_assert_int_eq(ssdsim_drain(l->sim), 0);
}

static ssdsim_model *small(double op, bool fdp)
{
    char json[1536];
    snprintf(json, sizeof json,
             "{\"geometry\": {\"channels\": 4, \"chips_per_channel\": 1, \"dies_per_chip\": 1, "
             "\"planes_per_die\": 1, \"blocks_per_plane\": 512, \"pages_per_block\": 64, "
             "\"page_size\": \"4KiB\"}, \"flash\": {\"cell\": \"slc\", \"read_us\": 25, "
             "\"program_us\": 200, \"erase_us\": 1500, \"bus_mts\": 400, \"bus_width\": 8}, "
             "\"controller\": {\"cmd_overhead_us\": 1, \"cores\": 2, \"queue_depth\": 64}, "
             "\"host\": {\"link_bw\": \"4000MB/s\", \"cmd_overhead_us\": 1}, "
             "\"ftl\": {\"op\": %g}, \"gc\": {\"policy\": \"greedy\"}%s}",
             op, fdp ? ", \"fdp\": {\"handles\": 2, \"isolation\": \"persistent\"}" : "");
    ssdsim_model *m = NULL;
    ssdsim_error err;
    ck_assert_msg(ssdsim_model_load_string(&m, json, "fdp.json", &err) == 0, "%s", err.message);
    return m;
}

struct result {
    double waf, sf;
    ssdsim_fdp_stats per[2];
    uint64_t writes, hot_writes, programs;
};

/* Steady-state WAF of the hot/cold workload: a sequential fill, 4 drive writes of warm-up, then
 * 4 measured. */
static struct result hotcold(double op, bool fdp)
{
    struct result r = {0};
    ssdsim_model *m = small(op, fdp);
    ssdsim *sim = st_sim(m, 7);
    struct load l = {.sim = sim, .fdp = fdp, .rng = 88172645463325252ull};
    l.units = ssdsim_model_logical_bytes(m) / UNIT;
    l.hot_units = (uint64_t)(H_HOT * (double)l.units);
    for (uint64_t u = 0; u < l.units; u += 64) {
        ssdsim_submit_opts o = SSDSIM_SUBMIT_OPTS_INIT;
        o.placement = fdp && u < l.hot_units ? 1 : 0;
        uint64_t n = l.units - u < 64 ? l.units - u : 64;
        ck_assert_int_eq(ssdsim_submit_ex(sim, SSDSIM_OP_WRITE, u * UNIT, n * UNIT,
                                          ssdsim_now(sim), 0, NULL, NULL, &o), 0);
        ck_assert_int_eq(ssdsim_drain(sim), 0);
    }
    run_writes(&l, 4 * l.units);
    ssdsim_reset_stats(sim);
    l.hot_writes = 0;
    run_writes(&l, 4 * l.units);
    ssdsim_device_stats ds;
    ck_assert_int_eq(ssdsim_get_device_stats(sim, &ds), 0);
    r.waf = ds.waf;
    r.sf = ds.spare_factor_effective;
    r.writes = 4 * l.units;
    r.hot_writes = l.hot_writes;
    r.programs = ds.flash_pages_programmed;
    if (fdp)
        for (uint32_t h = 0; h < 2; h++)
            ck_assert_int_eq(ssdsim_get_fdp_stats(sim, h, &r.per[h]), 0);
    char why[256] = "";
    ck_assert_msg(ssdsim_check(sim, why, sizeof why) == 0, "%s", why);
    ssdsim_free(sim);
    ssdsim_model_free(m);
    return r;
}

/* WAF of one pool of the device under greedy cleaning, holding logical share `l` of the data
 * and spare share `s` of the spare (sf: the device's spare factor). */
static double pool_waf(double sf, double l, double s)
{
    double spare = s * sf, pool_sf = spare / (l * (1 - sf) + spare), w = 0;
    ck_assert_int_eq(ssdsim_theory_waf("greedy", 64, pool_sf, 0, &w), 0);
    return w;
}

/* Two pools, hot (H of the data, F of the writes) and cold, each cleaned greedily, with victims
 * chosen over both: a victim is the block with the fewest valid pages of either pool, so in
 * steady state both pools' victims hold as many valid pages and both have the same WAF. The
 * spare splits itself so that they do: the share s of the hot pool where the two WAFs meet
 * (bisection: the hot pool's WAF falls and the cold one's rises with s), and that WAF is the
 * device's. */
static double two_pools_greedy(double sf, double *split)
{
    double lo = 1e-6, hi = 1 - 1e-6;
    for (int i = 0; i < 100; i++) {
        double mid = 0.5 * (lo + hi);
        if (pool_waf(sf, H_HOT, mid) > pool_waf(sf, 1 - H_HOT, 1 - mid))
            lo = mid;
        else
            hi = mid;
    }
    *split = 0.5 * (lo + hi);
    return pool_waf(sf, H_HOT, *split);
}

/* With the hot data on its own handle, the device's WAF lies between the two-pool figures:
 * no better than the optimal spare split (Desnoyers' bound), no worse than the two pools under
 * greedy victims (equal WAF; within 5% for the finite sample), and at least 10% below the same
 * workload with the classes mixed. The per-handle figures add up to the device's: host units
 * are what the generator sent each handle, media units sum to every program. SSDSIM_FDP_OPS=3
 * prints the three over-provisioning levels of the closing note (0.15, 0.28, 0.5). */
START_TEST(test_fdp_hotcold_two_pools)
{
    double ops[] = {0.28, 0.15, 0.5};
    int n_ops = getenv("SSDSIM_FDP_OPS") ? atoi(getenv("SSDSIM_FDP_OPS")) : 1;
    for (int i = 0; i < n_ops && i < 3; i++) {
        double sf = 0;
        struct result with = hotcold(ops[i], true), without = hotcold(ops[i], false);
        sf = with.sf;
        double optimal = 0, split = 0, greedy_split = 0;
        ck_assert_int_eq(ssdsim_theory_hotcold_waf(sf, F_HOT, H_HOT, 64, &optimal, &split), 0);
        double pools = two_pools_greedy(sf, &greedy_split);
        printf("op %.2f (effective spare factor %.4f): FDP %.3f (hot handle %.3f, cold %.3f), "
               "two pools: optimal split %.3f, greedy %.3f; without FDP %.3f\n",
               ops[i], sf, with.waf, with.per[1].waf, with.per[0].waf, optimal, pools,
               without.waf);
        ck_assert_double_ge(with.waf, optimal);
        ck_assert_double_le(with.waf, pools * 1.05);
        ck_assert_double_lt(with.waf, 0.9 * without.waf);
        ck_assert_uint_eq(with.per[1].host_bytes, with.hot_writes * UNIT);
        ck_assert_uint_eq(with.per[0].host_bytes, (with.writes - with.hot_writes) * UNIT);
        ck_assert_uint_eq(with.per[0].media_bytes + with.per[1].media_bytes,
                          with.programs * UNIT);
    }
}
END_TEST

/* Bad input: one line naming the option or key. */
START_TEST(test_fdp_bad_input)
{
    static const struct {
        const char *json, *key;
    } cases[] = {
        {"\"fdp\": {\"handles\": 3}", "fdp.handles"},
        {"\"fdp\": {\"isolation\": \"persistent\"}", "fdp.isolation"},
        {"\"fdp\": {\"handles\": 2}, \"ftl\": {\"hot_cold\": true}", "fdp.handles"},
        {"\"fdp\": {\"handles\": 2}, \"ftl\": {\"type\": \"dftl\"}", "fdp.handles"},
        {"\"fdp\": {\"handles\": 2, \"isolation\": \"sometimes\"}", "fdp.isolation"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char json[1536];
        snprintf(json, sizeof json,
                 "{\"geometry\": {\"channels\": 4, \"chips_per_channel\": 1, "
                 "\"dies_per_chip\": 1, \"planes_per_die\": 1, \"blocks_per_plane\": 512, "
                 "\"pages_per_block\": 64, \"page_size\": \"4KiB\"}, \"flash\": {\"cell\": "
                 "\"slc\", \"read_us\": 25, \"program_us\": 200, \"erase_us\": 1500, "
                 "\"bus_mts\": 400, \"bus_width\": 8}, %s}",
                 cases[i].json);
        ssdsim_model *m = NULL;
        ssdsim_error err;
        ck_assert_int_ne(ssdsim_model_load_string(&m, json, "t.json", &err), 0);
        ck_assert_msg(strstr(err.message, cases[i].key) != NULL, "case %zu: %s", i, err.message);
        ck_assert_ptr_null(strchr(err.message, '\n'));
    }
    /* a placement id out of range, with FDP and without */
    for (int fdp = 0; fdp < 2; fdp++) {
        ssdsim_model *m = small(0.28, fdp);
        ssdsim *sim = st_sim(m, 1);
        ssdsim_submit_opts o = SSDSIM_SUBMIT_OPTS_INIT;
        o.placement = fdp ? 2 : 1;
        ck_assert_int_eq(ssdsim_submit_ex(sim, SSDSIM_OP_WRITE, 0, UNIT, 0, 0, NULL, NULL, &o),
                         SSDSIM_EINVAL);
        ck_assert_ptr_nonnull(strstr(ssdsim_errmsg(sim), "placement"));
        ssdsim_fdp_stats st;
        ck_assert_int_eq(ssdsim_get_fdp_stats(sim, fdp ? 2 : 0, &st), SSDSIM_EINVAL);
        /* jobs: fio's fdp=1 on a drive without FDP, a placement id beyond the handles */
        ssdsim_workload *wl = st_workload(fdp ? "{\"rw\": \"randwrite\", \"size\": \"1m\", "
                                                "\"fdp\": \"1\", \"fdp_pli\": \"0,2\"}"
                                              : "{\"rw\": \"randwrite\", \"size\": \"1m\", "
                                                "\"fdp\": \"1\"}");
        ck_assert_int_ne(ssdsim_run(sim, wl, NULL), 0);
        ck_assert_ptr_nonnull(strstr(ssdsim_errmsg(sim), fdp ? "fdp_pli" : "fdp"));
        ssdsim_workload_free(wl);
        ssdsim_free(sim);
        ssdsim_model_free(m);
    }
}
END_TEST

/* A job's placement ids reach the handles: fdp_pli=0,1 in turn splits a job's writes evenly,
 * placement=1 puts all on handle 1, and each handle's WAF is 1 on a fresh drive. */
START_TEST(test_fdp_job_options)
{
    ssdsim_model *m = small(0.28, true);
    ssdsim *sim = st_sim(m, 1);
    st_run(sim, "{\"rw\": \"randwrite\", \"size\": \"8m\", \"number_ios\": 1000, "
                "\"fdp\": \"1\", \"fdp_pli\": \"0,1\"}", NULL);
    ssdsim_fdp_stats st[2];
    for (uint32_t h = 0; h < 2; h++)
        ck_assert_int_eq(ssdsim_get_fdp_stats(sim, h, &st[h]), 0);
    ck_assert_uint_eq(st[0].host_bytes, 500 * UNIT);
    ck_assert_uint_eq(st[1].host_bytes, 500 * UNIT);
    ck_assert(st[0].waf == 1.0 && st[1].waf == 1.0);
    st_run(sim, "{\"rw\": \"write\", \"size\": \"1m\", \"placement\": \"1\"}", NULL);
    for (uint32_t h = 0; h < 2; h++)
        ck_assert_int_eq(ssdsim_get_fdp_stats(sim, h, &st[h]), 0);
    ck_assert_uint_eq(st[0].host_bytes, 0);
    ck_assert_uint_eq(st[1].host_bytes, 1024 * 1024);
    ssdsim_free(sim);
    ssdsim_model_free(m);
}
END_TEST

/* Placement ids per trace record (ssdsim CSV's sixth column) reach their handles on replay:
 * each handle's host bytes are the bytes of the written records with that id, records without
 * one going to the job's placement (1). An id beyond fdp.handles stops the replay with one line
 * naming the file and line; a sixth field that is not a number is refused at parse time. */
START_TEST(test_fdp_trace_record_ids)
{
    char path[] = "/tmp/ssdsim-fdp-trace-XXXXXX";
    int fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    FILE *f = fdopen(fd, "w");
    ck_assert_ptr_nonnull(f);
    fprintf(f, "time_ns,device,op,offset,length,placement\n");
    uint64_t want[2] = {0, 0};
    for (int i = 0; i < 60; i++) {
        uint64_t len = UNIT * (1 + i % 3);
        bool read = i % 7 == 6;
        if (i % 4 == 0) { /* no id: the job's handle */
            fprintf(f, "%d,0,%s,%llu,%llu\n", i * 1000, read ? "read" : "write",
                    (unsigned long long)(i * 4 * UNIT), (unsigned long long)len);
            want[1] += read ? 0 : len;
        } else {
            int id = i % 5 < 2 ? 0 : 1;
            fprintf(f, "%d,0,%s,%llu,%llu,%d\n", i * 1000, read ? "read" : "write",
                    (unsigned long long)(i * 4 * UNIT), (unsigned long long)len, id);
            want[id] += read ? 0 : len;
        }
    }
    fclose(f);
    ssdsim_model *m = small(0.28, true);
    ssdsim *sim = st_sim(m, 1);
    char job[256];
    snprintf(job, sizeof job, "{\"read_iolog\": \"%s\", \"placement\": \"1\"}", path);
    st_run(sim, job, NULL);
    ssdsim_fdp_stats st[2];
    for (uint32_t h = 0; h < 2; h++)
        ck_assert_int_eq(ssdsim_get_fdp_stats(sim, h, &st[h]), 0);
    ck_assert_uint_eq(st[0].host_bytes, want[0]);
    ck_assert_uint_eq(st[1].host_bytes, want[1]);
    ck_assert_uint_gt(want[0], 0);
    ssdsim_free(sim);
    /* the public reader reports the ids */
    ssdsim_trace *t = NULL;
    ssdsim_trace_opts to = SSDSIM_TRACE_OPTS_INIT;
    ck_assert_int_eq(ssdsim_trace_open(&t, path, &to, NULL), 0);
    ssdsim_trace_req r;
    uint32_t pid = 99;
    ck_assert_int_eq(ssdsim_trace_next(t, &r, NULL), 1);
    ck_assert_int_eq(ssdsim_trace_get_placement(t, &pid), 0);
    ck_assert_int_eq(ssdsim_trace_next(t, &r, NULL), 1);
    ck_assert_int_eq(ssdsim_trace_get_placement(t, &pid), 1);
    ck_assert_uint_eq(pid, 0); /* i = 1: 1 % 5 < 2 */
    ssdsim_trace_close(t);
    /* an id beyond the handles: one line with the file and line */
    f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    fprintf(f, "0,0,write,0,4096,1\n1000,0,write,4096,4096,2\n");
    fclose(f);
    sim = st_sim(m, 1);
    ssdsim_workload *wl = st_workload(job);
    ck_assert_int_ne(ssdsim_run(sim, wl, NULL), 0);
    ck_assert_ptr_nonnull(strstr(ssdsim_errmsg(sim), ":2: placement: 2 is beyond"));
    ck_assert_ptr_null(strchr(ssdsim_errmsg(sim), '\n'));
    ssdsim_workload_free(wl);
    ssdsim_free(sim);
    f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    fprintf(f, "0,0,write,0,4096,hot\n");
    fclose(f);
    ssdsim_error err;
    to.format = SSDSIM_TRACE_CSV;
    ck_assert_int_eq(ssdsim_trace_open(&t, path, &to, &err), 0);
    ck_assert_int_lt(ssdsim_trace_next(t, &r, &err), 0);
    ck_assert_ptr_nonnull(strstr(err.message, "placement"));
    ssdsim_trace_close(t);
    remove(path);
    ssdsim_model_free(m);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("fdp");
    TCase *tc = tcase_create("fdp");
    tcase_set_timeout(tc, 600);
    tcase_add_test(tc, test_fdp_hotcold_two_pools);
    tcase_add_test(tc, test_fdp_bad_input);
    tcase_add_test(tc, test_fdp_job_options);
    tcase_add_test(tc, test_fdp_trace_record_ids);
    suite_add_tcase(s, tc);
    return test_run_suite(s);
}
