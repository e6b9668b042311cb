/* test_jobs.c: the host's jobs (libssdsim/host/host.c) and the request generator
 * (libssdsim/workload/gen.c): pacing (think time, rate limits, arrival times, runtime),
 * stonewalled waves, reporting units, ramp time, steady-state stop, the random map, offset
 * distributions, and request sources (open and closed loop, wrapping).
 *
 * Workloads are built from jobspecs directly (the option parsers have their own tests), and an
 * observer records every request's issue and completion, so each check compares what the
 * host did with what the job's options say it must do, derived by hand. */
#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "sim.h"
#include "simtest.h"
#include "testutil.h"
#include "workload/gen.h"
#include "workload/workload.h"

/* ------------------------------------------------------------------ recording observer */

struct rec {
    uint64_t id, offset, length, submit_ns, complete_ns;
    uint32_t job;
    int op;
};

struct log {
    struct rec *issue, *done;
    size_t n_issue, n_done, cap;
};

static void on_issue(const ssdsim_completion *c, void *ud)
{
    struct log *l = ud;
    if (l->n_issue == l->cap || l->n_done == l->cap) {
        l->cap = l->cap ? 2 * l->cap : 1024;
        l->issue = realloc(l->issue, l->cap * sizeof *l->issue);
        l->done = realloc(l->done, l->cap * sizeof *l->done);
        ck_assert(l->issue && l->done);
    }
    l->issue[l->n_issue++] =
        (struct rec){c->id, c->offset, c->length, c->submit_ns, 0, c->job, (int)c->op};
}

static void on_complete(const ssdsim_completion *c, void *ud)
{
    struct log *l = ud;
    ck_assert(l->n_done < l->cap);
    l->done[l->n_done++] =
        (struct rec){c->id, c->offset, c->length, c->submit_ns, c->complete_ns, c->job, (int)c->op};
}

static void log_free(struct log *l)
{
    free(l->issue);
    free(l->done);
    memset(l, 0, sizeof *l);
}

static ssdsim *small_sim(uint64_t seed)
{
    ssdsim_model *m = st_model("generic-mlc", "geometry.blocks_per_plane=64", NULL);
    ssdsim *sim = st_sim(m, seed);
    ssdsim_model_free(m);
    return sim;
}

static void observe(ssdsim *sim, struct log *l)
{
    ssdsim_observer o = {.on_issue = on_issue, .on_complete = on_complete, .userdata = l};
    ssdsim_set_observer(sim, &o);
}

/* A workload of `n` jobs with fio's defaults; the caller sets fields. */
static ssdsim_workload *jobs_wl(uint32_t n)
{
    ssdsim_workload *wl = ssdsim__workload_new("test", false);
    ck_assert(wl);
    for (uint32_t i = 0; i < n; i++) {
        struct ssdsim__jobspec j;
        ssdsim__jobspec_defaults(&j);
        char name[16];
        snprintf(name, sizeof name, "j%u", i);
        j.name = name;
        ck_assert_int_eq(ssdsim__workload_add_job(wl, &j), 0);
    }
    return wl;
}

static void run_ok(ssdsim *sim, ssdsim_workload *wl)
{
    int rc = ssdsim_run(sim, wl, NULL);
    ck_assert_msg(rc == 0, "run failed: %s", ssdsim_errmsg(sim));
}

/* ------------------------------------------------------------------ pacing */

START_TEST(test_jobs_thinktime_after_each_completion)
{
    /* QD1 with thinktime T: fio stalls T after an I/O completes before issuing the next. */
    ssdsim *sim = small_sim(1);
    struct log l = {0};
    observe(sim, &l);
    ssdsim_workload *wl = jobs_wl(1);
    wl->jobs[0].rw = SSDSIM__RW_RANDWRITE;
    wl->jobs[0].number_ios = 200;
    wl->jobs[0].thinktime_ns = 37000;
    run_ok(sim, wl);
    ck_assert_uint_eq(l.n_issue, 200);
    for (size_t k = 1; k < l.n_issue; k++)
        ck_assert_uint_eq(l.issue[k].submit_ns, l.done[k - 1].complete_ns + 37000);
    log_free(&l);
    ssdsim_workload_free(wl);
    ssdsim_free(sim);
}
END_TEST

START_TEST(test_jobs_thinktime_blocks)
{
    /* thinktime_blocks=4 at QD1: a stall after every fourth I/O only. */
    ssdsim *sim = small_sim(1);
    struct log l = {0};
    observe(sim, &l);
    ssdsim_workload *wl = jobs_wl(1);
    wl->jobs[0].rw = SSDSIM__RW_WRITE;
    wl->jobs[0].number_ios = 40;
    wl->jobs[0].thinktime_ns = 100000;
    wl->jobs[0].thinktime_blocks = 4;
    run_ok(sim, wl);
    for (size_t k = 1; k < l.n_issue; k++) {
        uint64_t gap = l.issue[k].submit_ns - l.done[k - 1].complete_ns;
        ck_assert_uint_eq(gap, k % 4 == 0 ? 100000 : 0);
    }
    log_free(&l);
    ssdsim_workload_free(wl);
    ssdsim_free(sim);
}
END_TEST

START_TEST(test_jobs_rate_iops_linear_spacing)
{
    /* rate_iops=2000 (well below what the device does at QD4): one I/O every 500 us, the first
     * at the start. */
    ssdsim *sim = small_sim(1);
    struct log l = {0};
    observe(sim, &l);
    ssdsim_workload *wl = jobs_wl(1);
    wl->jobs[0].rw = SSDSIM__RW_RANDREAD;
    wl->jobs[0].iodepth = 4;
    wl->jobs[0].number_ios = 300;
    wl->jobs[0].rate_iops[SSDSIM__DIR_READ] = 2000;
    uint64_t t0 = ssdsim_now(sim);
    run_ok(sim, wl);
    ck_assert_uint_eq(l.n_issue, 300);
    for (size_t k = 0; k < l.n_issue; k++)
        ck_assert_uint_eq(l.issue[k].submit_ns - t0, k * 500000);
    ssdsim_op_stats s;
    ssdsim_get_op_stats(sim, SSDSIM_OP_READ, &s);
    /* 300 I/Os over 299 intervals of 0.5 ms plus the last one's latency */
    ck_assert(s.iops > 1990 && s.iops < 2007);
    log_free(&l);
    ssdsim_workload_free(wl);
    ssdsim_free(sim);
}
END_TEST

/* A job paced past the end of its runtime sleeps until that end, as fio's does: rate_iops=1 for
 * 10 s issues at 0, 1, ..., 9 s and lasts 10 s (fio 3.33: 10 I/Os, runtime 10001 ms, 0.9999
 * IOPS); it ended at its last completion, 9 s and a read's latency, so its rates were 11% high
 * (1.11 IOPS). */
START_TEST(test_jobs_paced_job_lasts_its_runtime)
{
    ssdsim *sim = small_sim(1);
    ssdsim_workload *wl = jobs_wl(1);
    wl->jobs[0].rw = SSDSIM__RW_RANDREAD;
    wl->jobs[0].iodepth = 1;
    wl->jobs[0].time_based = 1;
    wl->jobs[0].runtime_ns = 10 * SSDSIM__NS_PER_S;
    wl->jobs[0].rate_iops[SSDSIM__DIR_READ] = 1;
    uint64_t t0 = ssdsim_now(sim);
    run_ok(sim, wl);
    ssdsim_op_stats s;
    ssdsim_get_op_stats(sim, SSDSIM_OP_READ, &s);
    ck_assert_uint_eq(s.count, 10);
    ck_assert_uint_eq(ssdsim_now(sim) - t0, 10 * SSDSIM__NS_PER_S);
    ssdsim_job_info ji;
    ck_assert_int_eq(ssdsim_get_job(sim, 0, &ji), 0);
    ck_assert_uint_eq(ji.end_ns - ji.start_ns, 10 * SSDSIM__NS_PER_S);
    ssdsim_workload_free(wl);
    ssdsim_free(sim);
}
END_TEST

/* A rate on one direction of a read/write mix holds that direction only, as fio's rate_ddir
 * does: with writes at 200 KiB/s (one 4 KiB write every 20 ms) for 1 s, 50 writes (at 0, 20,
 * ..., 980 ms); reads with no rate run at the device's pace (QD1: far more than 1,000), and with
 * 1 MiB/s, 256 (every 3.90625 ms). The job drew one direction at a time and waited for the
 * drawn one's rate, so reads went at the writes' pace (65 reads, fio 3.33 on a file: 108,903). */
START_TEST(test_jobs_rate_one_direction_of_a_mix)
{
    for (int rated_reads = 0; rated_reads < 2; rated_reads++) {
        ssdsim *sim = small_sim(1);
        ssdsim_workload *wl = jobs_wl(1);
        wl->jobs[0].rw = SSDSIM__RW_RANDRW;
        wl->jobs[0].iodepth = 1;
        wl->jobs[0].time_based = 1;
        wl->jobs[0].runtime_ns = SSDSIM__NS_PER_S;
        wl->jobs[0].rate_bytes[SSDSIM__DIR_WRITE] = 200 * 1024;
        if (rated_reads)
            wl->jobs[0].rate_bytes[SSDSIM__DIR_READ] = 1024 * 1024;
        run_ok(sim, wl);
        ssdsim_op_stats r, w;
        ssdsim_get_op_stats(sim, SSDSIM_OP_READ, &r);
        ssdsim_get_op_stats(sim, SSDSIM_OP_WRITE, &w);
        ck_assert_uint_eq(w.count, 50);
        if (rated_reads)
            ck_assert_uint_eq(r.count, 256);
        else
            ck_assert_uint_gt(r.count, 1000);
        ssdsim_workload_free(wl);
        ssdsim_free(sim);
    }
}
END_TEST

START_TEST(test_jobs_rate_poisson_mean_gap)
{
    /* rate_process=poisson: exponential gaps with mean 1/rate. With 20000 gaps the sample mean
     * is within 3 standard errors (3 x 0.71%) of 100 us, and the coefficient of variation of an
     * exponential is 1. */
    ssdsim *sim = small_sim(3);
    struct log l = {0};
    observe(sim, &l);
    ssdsim_workload *wl = jobs_wl(1);
    wl->jobs[0].rw = SSDSIM__RW_RANDREAD;
    wl->jobs[0].iodepth = 64;
    wl->jobs[0].number_ios = 20001;
    wl->jobs[0].rate_iops[SSDSIM__DIR_READ] = 10000;
    wl->jobs[0].rate_process = SSDSIM__RATE_POISSON;
    run_ok(sim, wl);
    double sum = 0, sq = 0;
    size_t n = l.n_issue - 1;
    for (size_t k = 1; k < l.n_issue; k++) {
        double g = (double)(l.issue[k].submit_ns - l.issue[k - 1].submit_ns);
        sum += g;
        sq += g * g;
    }
    double mean = sum / n, sd = sqrt(sq / n - mean * mean);
    ck_assert_msg(fabs(mean - 100000) < 3 * 0.0071 * 100000, "mean gap %.0f ns", mean);
    ck_assert_msg(fabs(sd / mean - 1) < 0.05, "cv %.3f", sd / mean);
    log_free(&l);
    ssdsim_workload_free(wl);
    ssdsim_free(sim);
}
END_TEST

START_TEST(test_jobs_runtime_time_based)
{
    /* time_based with runtime 20 ms: issues for 20 ms, however much that is, then drains. */
    ssdsim *sim = small_sim(1);
    struct log l = {0};
    observe(sim, &l);
    ssdsim_workload *wl = jobs_wl(1);
    wl->jobs[0].rw = SSDSIM__RW_RANDREAD;
    wl->jobs[0].iodepth = 8;
    wl->jobs[0].time_based = true;
    wl->jobs[0].runtime_ns = 20000000;
    wl->jobs[0].size_bytes = 1 << 20; /* a small region: time_based wraps around it */
    uint64_t t0 = ssdsim_now(sim);
    run_ok(sim, wl);
    ck_assert(l.n_issue > 256); /* more than one pass over the 1 MiB region */
    for (size_t k = 0; k < l.n_issue; k++)
        ck_assert(l.issue[k].submit_ns - t0 < 20000000);
    ck_assert(l.issue[l.n_issue - 1].submit_ns - t0 > 19000000);
    ck_assert_uint_eq(l.n_done, l.n_issue);
    log_free(&l);
    ssdsim_workload_free(wl);
    ssdsim_free(sim);
}
END_TEST

/* ------------------------------------------------------------------ amounts */

START_TEST(test_jobs_io_amounts)
{
    /* size 1 MiB, bs 4k: a pass is 256 I/Os; loops=3 gives 768; io_size=3.5 MiB gives 896;
     * number_ios wins over both. */
    struct {
        uint32_t loops;
        uint64_t io_size, number_ios, want;
    } cases[] = {
        {1, 0, 0, 256}, {3, 0, 0, 768}, {1, 3584 * 1024, 0, 896}, {3, 3584 * 1024, 100, 100}};
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        ssdsim *sim = small_sim(1);
        ssdsim_workload *wl = jobs_wl(1);
        wl->jobs[0].rw = SSDSIM__RW_WRITE;
        wl->jobs[0].size_bytes = 1 << 20;
        wl->jobs[0].loops = cases[c].loops;
        wl->jobs[0].io_size_bytes = cases[c].io_size;
        wl->jobs[0].number_ios = cases[c].number_ios;
        run_ok(sim, wl);
        ssdsim_op_stats s;
        ssdsim_get_op_stats(sim, SSDSIM_OP_WRITE, &s);
        ck_assert_uint_eq(s.count, cases[c].want);
        ssdsim_workload_free(wl);
        ssdsim_free(sim);
    }
}
END_TEST

/* ------------------------------------------------------------------ offsets */

START_TEST(test_jobs_io_size_percent_of_the_region)
{
    /* io_size=50% is half the job's region, as fio takes it (fio 3.33, size=1m io_size=50%:
     * 512 KiB), not half the device: sequential 1 MiB writes over a region of 64 MiB write
     * 32 MiB. Without size, the region is the device: half the logical capacity. */
    for (int whole = 0; whole < 2; whole++) {
        ssdsim *sim = small_sim(1);
        uint32_t ps;
        uint64_t lp;
        ssdsim_device_shape(sim, NULL, NULL, NULL, &ps, &lp);
        ssdsim_workload *wl = jobs_wl(1);
        wl->jobs[0].rw = SSDSIM__RW_WRITE;
        for (int d = 0; d < SSDSIM__N_DIRS; d++)
            wl->jobs[0].bs[d].e[0].bytes = 1 << 20;
        wl->jobs[0].iodepth = 8;
        if (!whole)
            wl->jobs[0].size_bytes = 64 << 20;
        wl->jobs[0].io_size_percent = 50;
        run_ok(sim, wl);
        ssdsim_op_stats s;
        ssdsim_get_op_stats(sim, SSDSIM_OP_WRITE, &s);
        ck_assert_uint_eq(s.bytes, whole ? lp * ps / 2 : 32 << 20);
        ssdsim_workload_free(wl);
        ssdsim_free(sim);
    }
}
END_TEST

START_TEST(test_jobs_randommap_covers_every_block_once)
{
    /* fio's default random map: a random job over N blocks writes each exactly once per pass;
     * norandommap draws independently, so some blocks repeat (with N = 2048 draws over 2048
     * blocks, about N/e are never hit). */
    for (int norandommap = 0; norandommap < 2; norandommap++) {
        ssdsim *sim = small_sim(5);
        struct log l = {0};
        observe(sim, &l);
        ssdsim_workload *wl = jobs_wl(1);
        wl->jobs[0].rw = SSDSIM__RW_RANDWRITE;
        wl->jobs[0].size_bytes = 2048 * 4096;
        wl->jobs[0].offset_bytes = 1 << 20;
        wl->jobs[0].iodepth = 4;
        wl->jobs[0].norandommap = norandommap;
        run_ok(sim, wl);
        ck_assert_uint_eq(l.n_issue, 2048);
        uint8_t seen[2048] = {0};
        size_t distinct = 0;
        for (size_t k = 0; k < l.n_issue; k++) {
            ck_assert_uint_eq(l.issue[k].length, 4096);
            uint64_t b = (l.issue[k].offset - (1 << 20)) / 4096;
            ck_assert_uint_lt(b, 2048);
            ck_assert_uint_eq(l.issue[k].offset % 4096, 0);
            distinct += !seen[b]++;
        }
        if (!norandommap)
            ck_assert_uint_eq(distinct, 2048);
        else /* 2048 (1 - 1/e) = 1294.6, sd about 13 */
            ck_assert_msg(distinct > 1230 && distinct < 1360, "%zu distinct", distinct);
        log_free(&l);
        ssdsim_workload_free(wl);
        ssdsim_free(sim);
    }
}
END_TEST

START_TEST(test_jobs_perm_is_a_bijection)
{
    struct ssdsim__rng rng;
    ssdsim__rng_seed(&rng, 9, "t", 0);
    uint64_t sizes[] = {1, 2, 3, 7, 1000, 4097, 65536};
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
        struct ssdsim__perm p;
        uint64_t n = sizes[s];
        ssdsim__perm_init(&p, n, &rng);
        uint8_t *seen = calloc(n, 1);
        for (uint64_t x = 0; x < n; x++) {
            uint64_t y = ssdsim__perm_apply(&p, x);
            ck_assert_uint_lt(y, n);
            ck_assert(!seen[y]);
            seen[y] = 1;
        }
        free(seen);
    }
}
END_TEST

START_TEST(test_jobs_offset_increment_and_sequential_gap)
{
    /* numjobs=3, offset=1m, offset_increment=4m, size=1m, rw=write:8k with bs 4k: clone k
     * writes 1m + k*4m + 12k*i (each write skips 8 KiB), wrapping inside its 1 MiB. */
    ssdsim *sim = small_sim(1);
    struct log l = {0};
    observe(sim, &l);
    ssdsim_workload *wl = jobs_wl(1);
    struct ssdsim__jobspec *j = &wl->jobs[0];
    j->rw = SSDSIM__RW_WRITE;
    j->rw_suffix = 8192;
    j->numjobs = 3;
    j->offset_bytes = 1 << 20;
    j->offset_increment_bytes = 4 << 20;
    j->size_bytes = 1 << 20;
    j->number_ios = 90;
    run_ok(sim, wl);
    uint64_t count[3] = {0};
    for (size_t k = 0; k < l.n_issue; k++) {
        uint32_t c = l.issue[k].job;
        ck_assert_uint_lt(c, 3);
        uint64_t i = count[c]++;
        /* positions 0, 12k, ... while a 4k write still fits: (1m - 4k) / 12k + 1 = 86 */
        uint64_t want = (1 << 20) + (uint64_t)c * (4 << 20) + (i % 86) * 12288;
        ck_assert_uint_eq(l.issue[k].offset, want);
    }
    ck_assert_uint_eq(count[0] + count[1] + count[2], 270);
    log_free(&l);
    ssdsim_workload_free(wl);
    ssdsim_free(sim);
}
END_TEST

/* Without number_ios, a sequential pattern with holes makes one pass of its region per loop, as
 * fio's does (fio 3.33, size=1m bs=4k rw=write:8k: 86 writes; write:4k: 128): positions 0, 12k,
 * ... while a 4k write fits, (1m - 4k) / 12k + 1 = 86, twice with loops=2. It wrote the region's
 * bytes, 256 writes, going round it three times. */
START_TEST(test_jobs_sequential_holes_one_pass)
{
    const struct {
        uint64_t gap;
        uint32_t loops;
        uint64_t want;
    } c[] = {{8192, 1, 86}, {4096, 1, 128}, {8192, 2, 172}};
    for (size_t k = 0; k < 3; k++) {
        ssdsim *sim = small_sim(1);
        ssdsim_workload *wl = jobs_wl(1);
        struct ssdsim__jobspec *j = &wl->jobs[0];
        j->rw = SSDSIM__RW_WRITE;
        j->rw_suffix = c[k].gap;
        j->size_bytes = 1 << 20;
        j->loops = c[k].loops;
        run_ok(sim, wl);
        ssdsim_op_stats s;
        ssdsim_get_op_stats(sim, SSDSIM_OP_WRITE, &s);
        ck_assert_uint_eq(s.count, c[k].want);
        ssdsim_workload_free(wl);
        ssdsim_free(sim);
    }
}
END_TEST

START_TEST(test_jobs_random_runs_and_percentage_random)
{
    /* rw=randread:4: runs of 4 consecutive blocks from each random offset.
     * percentage_random=0 on a random pattern: fully sequential. */
    ssdsim *sim = small_sim(1);
    struct log l = {0};
    observe(sim, &l);
    ssdsim_workload *wl = jobs_wl(1);
    wl->jobs[0].rw = SSDSIM__RW_RANDREAD;
    wl->jobs[0].rw_suffix = 4;
    wl->jobs[0].number_ios = 400;
    run_ok(sim, wl);
    for (size_t k = 0; k < l.n_issue; k++)
        if (k % 4)
            ck_assert_uint_eq(l.issue[k].offset, l.issue[k - 1].offset + 4096);
    log_free(&l);
    ssdsim_workload_free(wl);

    observe(sim, &l);
    wl = jobs_wl(1);
    wl->jobs[0].rw = SSDSIM__RW_RANDWRITE;
    wl->jobs[0].percentage_random[SSDSIM__DIR_WRITE] = 0;
    wl->jobs[0].number_ios = 100;
    run_ok(sim, wl);
    for (size_t k = 1; k < l.n_issue; k++)
        ck_assert_uint_eq(l.issue[k].offset, l.issue[k - 1].offset + 4096);
    log_free(&l);
    ssdsim_workload_free(wl);
    ssdsim_free(sim);
}
END_TEST

/* Share of accesses that fall on the `top` most-hit blocks of the region (blocks of 4 KiB,
 * norandommap off is irrelevant: non-uniform distributions draw independently). */
static double top_share(const struct log *l, uint64_t n_blocks, uint64_t top)
{
    uint64_t *hits = calloc(n_blocks, sizeof *hits);
    for (size_t k = 0; k < l->n_issue; k++)
        hits[l->issue[k].offset / 4096]++;
    /* partial selection: sort descending */
    for (uint64_t i = 0; i < n_blocks; i++)
        for (uint64_t m = i + 1; m < n_blocks && i < top; m++)
            if (hits[m] > hits[i]) {
                uint64_t t = hits[i];
                hits[i] = hits[m];
                hits[m] = t;
            }
    uint64_t s = 0;
    for (uint64_t i = 0; i < top; i++)
        s += hits[i];
    free(hits);
    return (double)s / (double)l->n_issue;
}

static struct log dist_run(enum ssdsim__dist dist, double param, uint64_t n_blocks, uint64_t n)
{
    ssdsim *sim = small_sim(11);
    struct log l = {0};
    observe(sim, &l);
    ssdsim_workload *wl = jobs_wl(1);
    wl->jobs[0].rw = SSDSIM__RW_RANDREAD;
    wl->jobs[0].size_bytes = n_blocks * 4096;
    wl->jobs[0].number_ios = n;
    wl->jobs[0].iodepth = 32;
    wl->jobs[0].dist = dist;
    wl->jobs[0].dist_param = param;
    run_ok(sim, wl);
    ssdsim_workload_free(wl);
    ssdsim_free(sim);
    return l;
}

START_TEST(test_jobs_zipf_distribution)
{
    /* Zipf(theta = 1.2) over 1000 ranks: the 10 most popular blocks take
     * H(10, 1.2) / H(1000, 1.2) of the accesses (generalised harmonic numbers). */
    double h10 = 0, hn = 0;
    for (int k = 1; k <= 1000; k++) {
        double v = pow(k, -1.2);
        hn += v;
        if (k <= 10)
            h10 += v;
    }
    struct log l = dist_run(SSDSIM__DIST_ZIPF, 1.2, 1000, 50000);
    double got = top_share(&l, 1000, 10), want = h10 / hn;
    ck_assert_msg(fabs(got - want) < 0.01, "top-10 share %.4f, zipf says %.4f", got, want);
    log_free(&l);
}
END_TEST

START_TEST(test_jobs_pareto_distribution)
{
    /* fio's pareto:h: rank = (n-1) u^p, p = log h / log(1-h); the lowest fraction x of ranks
     * gets x^(1/p) of the accesses. h = 0.2: the top 20% of blocks take 80%. */
    double p = log(0.2) / log(0.8), want = pow(0.2, 1 / p);
    struct log l = dist_run(SSDSIM__DIST_PARETO, 0.2, 1000, 50000);
    double got = top_share(&l, 1000, 200);
    ck_assert_msg(fabs(got - want) < 0.01, "top-20%% share %.4f, want %.4f", got, want);
    log_free(&l);
}
END_TEST

START_TEST(test_jobs_normal_distribution)
{
    /* normal:10 over 1000 blocks: sd = 100 blocks around the middle; the 200 blocks within
     * one sd take erf(1/sqrt 2) = 68.3% of the accesses (the 200 hottest, within noise). */
    struct log l = dist_run(SSDSIM__DIST_NORMAL, 10, 1000, 50000);
    double got = top_share(&l, 1000, 200);
    ck_assert_msg(fabs(got - 0.6827) < 0.015, "share %.4f", got);
    log_free(&l);
}
END_TEST

START_TEST(test_jobs_bsrange_and_per_direction_bs)
{
    /* bsrange 4k-16k: sizes 4, 8, 12, 16 KiB, each a quarter of the time; reads 4k and writes
     * 64k in a randrw mix. */
    ssdsim *sim = small_sim(2);
    struct log l = {0};
    observe(sim, &l);
    ssdsim_workload *wl = jobs_wl(2);
    wl->jobs[0].rw = SSDSIM__RW_RANDWRITE;
    wl->jobs[0].bs[SSDSIM__DIR_WRITE].range_min = 4096;
    wl->jobs[0].bs[SSDSIM__DIR_WRITE].range_max = 16384;
    wl->jobs[0].number_ios = 8000;
    wl->jobs[1].rw = SSDSIM__RW_RANDRW;
    wl->jobs[1].bs[SSDSIM__DIR_WRITE].e[0].bytes = 65536;
    wl->jobs[1].number_ios = 1000;
    run_ok(sim, wl);
    uint64_t by_size[5] = {0};
    for (size_t k = 0; k < l.n_issue; k++) {
        if (l.issue[k].job == 0) {
            ck_assert_uint_eq(l.issue[k].length % 4096, 0);
            by_size[l.issue[k].length / 4096]++;
        } else {
            ck_assert_uint_eq(l.issue[k].length, l.issue[k].op == SSDSIM_OP_READ ? 4096 : 65536);
        }
    }
    for (int s = 1; s <= 4; s++) /* binomial sd about 39 */
        ck_assert_msg(by_size[s] > 1850 && by_size[s] < 2150, "%d: %lu", s,
                      (unsigned long)by_size[s]);
    log_free(&l);
    ssdsim_workload_free(wl);
    ssdsim_free(sim);
}
END_TEST

/* ------------------------------------------------------------------ waves, groups, ramp */

START_TEST(test_jobs_stonewall_waves)
{
    /* j0 and j1 run together; j2 (stonewall) starts when both have finished. */
    ssdsim *sim = small_sim(1);
    struct log l = {0};
    observe(sim, &l);
    ssdsim_workload *wl = jobs_wl(3);
    for (int i = 0; i < 3; i++) {
        wl->jobs[i].rw = SSDSIM__RW_RANDWRITE;
        wl->jobs[i].number_ios = 100 + 50 * i;
        wl->jobs[i].iodepth = 2;
    }
    wl->jobs[2].stonewall = true;
    run_ok(sim, wl);
    uint64_t end01 = 0, start2 = UINT64_MAX, start1 = UINT64_MAX;
    for (size_t k = 0; k < l.n_done; k++)
        if (l.done[k].job < 2 && l.done[k].complete_ns > end01)
            end01 = l.done[k].complete_ns;
    for (size_t k = 0; k < l.n_issue; k++) {
        if (l.issue[k].job == 2 && l.issue[k].submit_ns < start2)
            start2 = l.issue[k].submit_ns;
        if (l.issue[k].job == 1 && l.issue[k].submit_ns < start1)
            start1 = l.issue[k].submit_ns;
    }
    ck_assert_uint_eq(start1, l.issue[0].submit_ns); /* j1 starts with j0 */
    ck_assert_uint_eq(start2, end01);
    ck_assert_uint_eq(ssdsim_n_jobs(sim), 3);
    ssdsim_job_info ji;
    ssdsim_get_job(sim, 2, &ji);
    ck_assert_uint_eq(ji.group, 1);
    ck_assert_uint_eq(ji.start_ns, end01 - l.issue[0].submit_ns);
    ssdsim_op_stats s;
    ssdsim_get_job_op_stats(sim, 2, SSDSIM_OP_WRITE, &s);
    ck_assert_uint_eq(s.count, 200);
    log_free(&l);
    ssdsim_workload_free(wl);
    ssdsim_free(sim);
}
END_TEST

/* startdelay counts from the run's start, as fio's from its genesis: j1 (startdelay 1 s)
 * issues its first request at exactly 1 s while j0 runs from 0; j2, stonewalled with
 * startdelay 60 s, starts at 60 s (the first wave ended before); j3, stonewalled again with
 * startdelay 0.5 s, long past, starts the moment j2's wave ends. The idle seconds before j2 let
 * background GC collect (gc.bg_idle_us): victims are taken in idle time. */
START_TEST(test_jobs_startdelay)
{
    /* 2 dies of 64 blocks of 32 pages (16 MiB raw, 3,200 logical pages): two jobs of 6,000
     * writes write it 3.75 times over, so the idle time finds garbage to collect, up to a
     * 15% of the blocks free (above the foreground target) */
    ssdsim_model *m =
        st_model("generic-mlc", "geometry.channels=2", "geometry.chips_per_channel=1",
                 "geometry.dies_per_chip=1", "geometry.planes_per_die=1",
                 "geometry.blocks_per_plane=64", "geometry.pages_per_block=32",
                 "gc.bg_idle_us=1000", "gc.bg_high_watermark=0.15", NULL);
    ssdsim *sim = st_sim(m, 1);
    ssdsim_model_free(m);
    struct log l = {0};
    observe(sim, &l);
    ssdsim_workload *wl = jobs_wl(4);
    static const uint64_t delay_ns[4] = {0, 1000000000, 60000000000, 500000000};
    for (int i = 0; i < 4; i++) {
        wl->jobs[i].rw = SSDSIM__RW_RANDWRITE;
        wl->jobs[i].norandommap = true;
        wl->jobs[i].number_ios = i < 2 ? 6000 : 1000;
        wl->jobs[i].iodepth = 4;
        wl->jobs[i].startdelay_ns = delay_ns[i];
    }
    wl->jobs[2].stonewall = wl->jobs[3].stonewall = true;
    run_ok(sim, wl);
    uint64_t first[4] = {UINT64_MAX, UINT64_MAX, UINT64_MAX, UINT64_MAX}, last[4] = {0};
    for (size_t k = 0; k < l.n_issue; k++)
        first[l.issue[k].job] = SSDSIM__MIN(first[l.issue[k].job], l.issue[k].submit_ns);
    for (size_t k = 0; k < l.n_done; k++)
        last[l.done[k].job] = SSDSIM__MAX(last[l.done[k].job], l.done[k].complete_ns);
    uint64_t t0 = first[0];
    ck_assert_uint_eq(first[1] - t0, 1000000000);
    uint64_t wave0_end = SSDSIM__MAX(last[0], last[1]);
    ck_assert_msg(wave0_end - t0 < 60000000000, "the first wave ran past 60 s: %llu",
                  (unsigned long long)(wave0_end - t0));
    ck_assert_uint_eq(first[2] - t0, 60000000000);
    ck_assert_uint_eq(first[3], last[2]);
    ssdsim_job_info ji;
    ck_assert_int_eq(ssdsim_get_job(sim, 1, &ji), 0);
    ck_assert_uint_eq(ji.start_ns, 1000000000);
    ck_assert_int_eq(ssdsim_get_job(sim, 2, &ji), 0);
    ck_assert_uint_eq(ji.start_ns, 60000000000);
    ssdsim_device_stats d;
    ssdsim_get_device_stats(sim, &d);
    ck_assert_msg(d.gc_bg_victims > 0, "no background GC in %llu ns of idle time",
                  (unsigned long long)(60000000000 - (wave0_end - t0)));
    log_free(&l);
    ssdsim_workload_free(wl);
    ssdsim_free(sim);
}
END_TEST

/* Two jobs of 4 KiB random writes at 500 a second, one outstanding, for `run0_ns` and
 * `run1_ns`; the second starts 10 s after the run's start (startdelay). */
static ssdsim_workload *paced_pair(uint64_t run0_ns, uint64_t run1_ns)
{
    ssdsim_workload *wl = jobs_wl(2);
    for (int i = 0; i < 2; i++) {
        wl->jobs[i].rw = SSDSIM__RW_RANDWRITE;
        wl->jobs[i].iodepth = 1;
        wl->jobs[i].rate_iops[SSDSIM__DIR_WRITE] = 500;
        wl->jobs[i].time_based = true;
        wl->jobs[i].runtime_ns = i ? run1_ns : run0_ns;
    }
    wl->jobs[1].startdelay_ns = 10000000000;
    return wl;
}

/* A run stopped early (max_rounds) while a job of the wave still waits for its startdelay:
 * that job never starts, and the run ends with the requests in flight, not at the delay. j0
 * writes 500 a second for 5 s; j1 would start at 10 s; 2 rounds of 1 s stop the run at 2 s. */
START_TEST(test_jobs_startdelay_dropped_when_stopped)
{
    ssdsim *sim = small_sim(1);
    ssdsim_workload *wl = paced_pair(5000000000, 5000000000);
    ssdsim_run_opts o = SSDSIM_RUN_OPTS_INIT;
    o.interval_ns = 1000000000;
    o.max_rounds = 2;
    int rc = ssdsim_run(sim, wl, &o);
    ck_assert_msg(rc == 0, "run failed: %s", ssdsim_errmsg(sim));
    ck_assert_msg(ssdsim_sim_time_ns(sim) < 2100000000, "ran %llu ns",
                  (unsigned long long)ssdsim_sim_time_ns(sim));
    ssdsim_op_stats st;
    ck_assert_int_eq(ssdsim_get_op_stats(sim, SSDSIM_OP_WRITE, &st), 0);
    ck_assert_uint_eq(st.count, 1000); /* j0's two seconds, none of j1 */
    ssdsim_workload_free(wl);
    ssdsim_free(sim);
}
END_TEST

/* Rounds in which nothing completed are not judged by the steady-state rule: 500 writes a
 * second (rate_iops, one outstanding) for 3 s, a pause until the second wave's startdelay of
 * 10 s, then the same again. With 1 s intervals on a preconditioned drive the rounds are 500,
 * 500, 500, seven of 0, then 500 each: the seven idle rounds hold windows of five equal values,
 * which the rule alone would call steady (and until_steady would have stopped the run before
 * the second wave). 3 s after the pause give no window of five rounds: not steady, and the
 * second wave runs whole; 6 s give one, rounds 10-14, at 500. */
static void idle_rounds_case(uint64_t second_ns, bool want_steady)
{
    ssdsim_model *m =
        st_model("generic-mlc", "geometry.channels=2", "geometry.chips_per_channel=1",
                 "geometry.dies_per_chip=1", "geometry.planes_per_die=1",
                 "geometry.blocks_per_plane=64", "geometry.pages_per_block=32", NULL);
    ssdsim *sim = st_sim(m, 1);
    ssdsim_model_free(m);
    ck_assert_int_eq(ssdsim_precondition_seq_fills(sim, 2), 0);
    ssdsim_workload *wl = paced_pair(3000000000, second_ns);
    wl->jobs[1].stonewall = true;
    ssdsim_run_opts o = SSDSIM_RUN_OPTS_INIT;
    o.interval_ns = 1000000000;
    o.until_steady = 1;
    int rc = ssdsim_run(sim, wl, &o);
    ck_assert_msg(rc == 0, "run failed: %s", ssdsim_errmsg(sim));
    ssdsim_op_stats st;
    ck_assert_int_eq(ssdsim_get_job_op_stats(sim, 1, SSDSIM_OP_WRITE, &st), 0);
    ssdsim_steady_result r;
    ck_assert_int_eq(ssdsim_get_steady(sim, &r), 0);
    ssdsim_interval iv;
    ck_assert_int_eq(ssdsim_get_interval(sim, 5, &iv), 0);
    ck_assert_uint_eq(iv.n_ios, 0); /* an idle round */
    if (want_steady) {
        ck_assert_msg(r.steady, "not steady: %s", r.why_not);
        ck_assert_uint_eq(r.round, 14);
        ck_assert_double_eq_tol(r.average, 500, 1e-9);
    } else {
        ck_assert_msg(!r.steady, "steady at round %zu, average %g", r.round, r.average);
        ck_assert_msg(strstr(r.why_not, "7 idle rounds") != NULL, "%s", r.why_not);
        /* the whole second wave ran: 3 s at 500 a second */
        ck_assert_uint_eq(st.count, 1500);
    }
    ssdsim_workload_free(wl);
    ssdsim_free(sim);
}

START_TEST(test_jobs_idle_rounds_not_judged)
{
    idle_rounds_case(3000000000, false);
    idle_rounds_case(6000000000, true);
}
END_TEST

START_TEST(test_jobs_reporting_units)
{
    /* numjobs 2 x 2 sections: 4 units; with group_reporting: 1 unit of 4 clones; with a
     * new_group on the second section: 2 units. */
    for (int c = 0; c < 3; c++) {
        ssdsim *sim = small_sim(1);
        ssdsim_workload *wl = jobs_wl(2);
        for (int i = 0; i < 2; i++) {
            wl->jobs[i].rw = SSDSIM__RW_RANDREAD;
            wl->jobs[i].numjobs = 2;
            wl->jobs[i].number_ios = 50;
            wl->jobs[i].group_reporting = c > 0;
        }
        wl->jobs[1].new_group = c == 2;
        run_ok(sim, wl);
        size_t want = c == 0 ? 4 : c == 1 ? 1 : 2;
        ck_assert_uint_eq(ssdsim_n_jobs(sim), want);
        uint64_t total = 0;
        for (size_t u = 0; u < want; u++) {
            ssdsim_op_stats s;
            ssdsim_get_job_op_stats(sim, u, SSDSIM_OP_ALL, &s);
            total += s.count;
            ssdsim_job_info ji;
            ssdsim_get_job(sim, u, &ji);
            ck_assert_uint_eq(s.count, 50 * ji.n_clones);
        }
        ck_assert_uint_eq(total, 200);
        ssdsim_workload_free(wl);
        ssdsim_free(sim);
    }
}
END_TEST

START_TEST(test_jobs_ramp_time_excluded)
{
    /* rate_iops 1000 for 50 ms after a ramp of 20 ms: I/Os are issued at 0, 1, ... 49 ms; the
     * first 20 are in the ramp and not counted, in the job nor in the run. */
    ssdsim *sim = small_sim(1);
    ssdsim_workload *wl = jobs_wl(1);
    wl->jobs[0].rw = SSDSIM__RW_RANDREAD;
    wl->jobs[0].rate_iops[SSDSIM__DIR_READ] = 1000;
    wl->jobs[0].number_ios = 50;
    wl->jobs[0].ramp_time_ns = 20000000;
    run_ok(sim, wl);
    ssdsim_op_stats s;
    ssdsim_get_op_stats(sim, SSDSIM_OP_READ, &s);
    ck_assert_uint_eq(s.count, 30);
    ssdsim_get_job_op_stats(sim, 0, SSDSIM_OP_READ, &s);
    ck_assert_uint_eq(s.count, 30);
    ssdsim_workload_free(wl);
    ssdsim_free(sim);
}
END_TEST

START_TEST(test_jobs_runtime_counts_after_ramp)
{
    /* fio: a job runs ramp_time, then runtime: rate 1000 IOPS, ramp 10 ms, runtime 20 ms
     * issues at 0, 1, ... 29 ms; the 10 of the ramp are not counted. */
    ssdsim *sim = small_sim(1);
    ssdsim_workload *wl = jobs_wl(1);
    wl->jobs[0].rw = SSDSIM__RW_RANDREAD;
    wl->jobs[0].rate_iops[SSDSIM__DIR_READ] = 1000;
    wl->jobs[0].time_based = true;
    wl->jobs[0].runtime_ns = 20000000;
    wl->jobs[0].ramp_time_ns = 10000000;
    run_ok(sim, wl);
    ssdsim_op_stats s;
    ssdsim_get_job_op_stats(sim, 0, SSDSIM_OP_READ, &s);
    ck_assert_uint_eq(s.count, 20);
    ssdsim_workload_free(wl);
    ssdsim_free(sim);
}
END_TEST

START_TEST(test_jobs_steady_state_stop)
{
    /* At rate_iops 500 every one-second sample is 500 IOPS: ss=iops:1% over a 5 s window is
     * met at the fifth sample (t = 5 s), far before runtime (60 s). The slope criterion on the
     * same series is 0. On the fresh drive the criterion holds on a drive that is not
     * preconditioned (nothing written), and the job says so; after two sequential fills (twice
     * the capacity, every unit written, blocks erased by the second) it is. */
    for (int slope = 0; slope < 4; slope++) {
        ssdsim *sim = small_sim(1);
        bool filled = slope >= 2;
        if (filled)
            ck_assert_int_eq(ssdsim_precondition_seq_fills(sim, 2), 0);
        ssdsim_workload *wl = jobs_wl(1);
        struct ssdsim__jobspec *j = &wl->jobs[0];
        j->rw = SSDSIM__RW_RANDREAD;
        j->rate_iops[SSDSIM__DIR_READ] = 500;
        j->time_based = true;
        j->runtime_ns = 60 * SSDSIM__NS_PER_S;
        j->ss = slope % 2 ? SSDSIM__SS_IOPS_SLOPE : SSDSIM__SS_IOPS;
        j->ss_limit = 1;
        j->ss_limit_percent = true;
        j->ss_dur_ns = 5 * SSDSIM__NS_PER_S;
        run_ok(sim, wl);
        ssdsim_job_info ji;
        ssdsim_get_job(sim, 0, &ji);
        ck_assert(ji.ss_set && ji.ss_attained);
        ck_assert_double_le(ji.ss_value, 1e-9);
        ck_assert_int_eq(ji.ss_preconditioned, filled);
        if (filled)
            ck_assert_str_eq(ji.ss_why, "");
        else
            ck_assert_msg(strstr(ji.ss_why, "the host has written 0.00 times the logical "
                                            "capacity"),
                          "%s", ji.ss_why);
        ck_assert_msg(ji.end_ns >= 5 * SSDSIM__NS_PER_S &&
                          ji.end_ns < 5 * SSDSIM__NS_PER_S + 5000000,
                      "ended at %.3f s", ji.end_ns / 1e9);
        ssdsim_workload_free(wl);
        ssdsim_free(sim);
    }
}
END_TEST

/* ------------------------------------------------------------------ sources */

struct arr_src {
    const ssdsim_request *reqs;
    size_t n, i;
};

static int arr_next(void *ud, ssdsim_request *req, char *msg, size_t len)
{
    struct arr_src *a = ud;
    (void)msg;
    (void)len;
    if (a->i == a->n)
        return 0;
    *req = a->reqs[a->i++];
    return 1;
}

START_TEST(test_jobs_source_open_loop_times)
{
    /* Open loop: each request is issued at its time / time_scale, whatever is outstanding. */
    ssdsim_request reqs[50];
    for (int i = 0; i < 50; i++)
        reqs[i] = (ssdsim_request){.time_ns = (uint64_t)i * i * 1000,
                                   .op = i % 3 ? SSDSIM_OP_READ : SSDSIM_OP_WRITE,
                                   .offset = (uint64_t)i * 8192,
                                   .length = 8192,
                                   .id = 1000 + i};
    for (int sc = 0; sc < 2; sc++) {
        ssdsim *sim = small_sim(1);
        struct log l = {0};
        observe(sim, &l);
        struct arr_src a = {reqs, 50, 0};
        ssdsim_source src = {arr_next, &a};
        ssdsim_replay_opts ro = {.time_scale = sc ? 2.0 : 0};
        uint64_t t0 = ssdsim_now(sim);
        int rc = ssdsim_run_source(sim, &src, &ro, NULL);
        ck_assert_msg(rc == 0, "%s", ssdsim_errmsg(sim));
        ck_assert_uint_eq(l.n_issue, 50);
        for (size_t k = 0; k < 50; k++) {
            ck_assert_uint_eq(l.issue[k].submit_ns - t0, reqs[k].time_ns / (sc ? 2 : 1));
            ck_assert_uint_eq(l.issue[k].id, 1000 + k);
            ck_assert_uint_eq(l.issue[k].job, 0);
        }
        log_free(&l);
        ssdsim_free(sim);
    }
}
END_TEST

START_TEST(test_jobs_source_closed_loop_depth)
{
    /* Closed loop at depth 3: times are ignored, never more than 3 outstanding, and the next
     * request is issued at the completion that frees a slot. */
    ssdsim_request reqs[200];
    for (int i = 0; i < 200; i++)
        reqs[i] = (ssdsim_request){.time_ns = 1000000000ULL * i,
                                   .op = SSDSIM_OP_WRITE,
                                   .offset = (uint64_t)(i * 7919 % 1000) * 4096,
                                   .length = 4096,
                                   .id = i};
    ssdsim *sim = small_sim(1);
    struct log l = {0};
    observe(sim, &l);
    struct arr_src a = {reqs, 200, 0};
    ssdsim_source src = {arr_next, &a};
    ssdsim_replay_opts ro = {.iodepth = 3};
    ck_assert_int_eq(ssdsim_run_source(sim, &src, &ro, NULL), 0);
    ck_assert_uint_eq(l.n_issue, 200);
    for (size_t k = 3; k < 200; k++)
        ck_assert_uint_eq(l.issue[k].submit_ns, l.done[k - 3].complete_ns);
    ck_assert(ssdsim_sim_time_ns(sim) < 1000000000ULL);
    log_free(&l);
    ssdsim_free(sim);
}
END_TEST

START_TEST(test_jobs_source_wrap_or_error)
{
    uint64_t cap = 0;
    ssdsim *sim = small_sim(1);
    uint32_t ps;
    uint64_t lp;
    ssdsim_device_shape(sim, NULL, NULL, NULL, &ps, &lp);
    cap = lp * ps;
    ssdsim_request reqs[2] = {
        {.op = SSDSIM_OP_READ, .offset = 0, .length = 4096, .id = 7},
        {.op = SSDSIM_OP_WRITE, .offset = cap + 8192, .length = 4096, .id = 8},
    };
    struct log l = {0};
    observe(sim, &l);
    struct arr_src a = {reqs, 2, 0};
    ssdsim_source src = {arr_next, &a};
    ssdsim_replay_opts ro = {.wrap = 1};
    ck_assert_int_eq(ssdsim_run_source(sim, &src, &ro, NULL), 0);
    ck_assert_uint_eq(l.issue[1].offset, 8192); /* wrapped modulo the capacity */
    log_free(&l);
    ssdsim_free(sim);

    sim = small_sim(1);
    a.i = 0;
    ro.wrap = 0;
    ck_assert_int_eq(ssdsim_run_source(sim, &src, &ro, NULL), SSDSIM_ERANGE);
    ck_assert_ptr_nonnull(strstr(ssdsim_errmsg(sim), "request 8"));
    ck_assert_ptr_nonnull(strstr(ssdsim_errmsg(sim), "beyond the device"));
    ssdsim_free(sim);
}
END_TEST

static int failing_next(void *ud, ssdsim_request *req, char *msg, size_t len)
{
    int *n = ud;
    if ((*n)++ < 10) {
        *req = (ssdsim_request){.op = SSDSIM_OP_READ, .offset = 0, .length = 4096, .id = *n};
        return 1;
    }
    snprintf(msg, len, "t.trace:11: expected 5 fields, got 2");
    return SSDSIM_EPARSE;
}

START_TEST(test_jobs_source_error_stops_the_run)
{
    ssdsim *sim = small_sim(1);
    int n = 0;
    ssdsim_source src = {failing_next, &n};
    ck_assert_int_eq(ssdsim_run_source(sim, &src, NULL, NULL), SSDSIM_EPARSE);
    ck_assert_str_eq(ssdsim_errmsg(sim), "t.trace:11: expected 5 fields, got 2");
    ssdsim_free(sim);
}
END_TEST

static Suite *jobs_suite(void)
{
    Suite *s = suite_create("jobs");
    TCase *tc = tcase_create("pacing");
    tcase_add_test(tc, test_jobs_thinktime_after_each_completion);
    tcase_add_test(tc, test_jobs_thinktime_blocks);
    tcase_add_test(tc, test_jobs_rate_iops_linear_spacing);
    tcase_add_test(tc, test_jobs_rate_poisson_mean_gap);
    tcase_add_test(tc, test_jobs_paced_job_lasts_its_runtime);
    tcase_add_test(tc, test_jobs_rate_one_direction_of_a_mix);
    tcase_add_test(tc, test_jobs_runtime_time_based);
    tcase_add_test(tc, test_jobs_io_amounts);
    tcase_add_test(tc, test_jobs_io_size_percent_of_the_region);
    suite_add_tcase(s, tc);
    tc = tcase_create("offsets");
    tcase_add_test(tc, test_jobs_randommap_covers_every_block_once);
    tcase_add_test(tc, test_jobs_perm_is_a_bijection);
    tcase_add_test(tc, test_jobs_offset_increment_and_sequential_gap);
    tcase_add_test(tc, test_jobs_sequential_holes_one_pass);
    tcase_add_test(tc, test_jobs_random_runs_and_percentage_random);
    tcase_add_test(tc, test_jobs_zipf_distribution);
    tcase_add_test(tc, test_jobs_pareto_distribution);
    tcase_add_test(tc, test_jobs_normal_distribution);
    tcase_add_test(tc, test_jobs_bsrange_and_per_direction_bs);
    suite_add_tcase(s, tc);
    tc = tcase_create("waves");
    tcase_add_test(tc, test_jobs_stonewall_waves);
    tcase_add_test(tc, test_jobs_startdelay);
    tcase_add_test(tc, test_jobs_idle_rounds_not_judged);
    tcase_add_test(tc, test_jobs_startdelay_dropped_when_stopped);
    tcase_add_test(tc, test_jobs_reporting_units);
    tcase_add_test(tc, test_jobs_ramp_time_excluded);
    tcase_add_test(tc, test_jobs_runtime_counts_after_ramp);
    tcase_add_test(tc, test_jobs_steady_state_stop);
    suite_add_tcase(s, tc);
    tc = tcase_create("sources");
    tcase_add_test(tc, test_jobs_source_open_loop_times);
    tcase_add_test(tc, test_jobs_source_closed_loop_depth);
    tcase_add_test(tc, test_jobs_source_wrap_or_error);
    tcase_add_test(tc, test_jobs_source_error_stops_the_run);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return test_run_suite(jobs_suite());
}
