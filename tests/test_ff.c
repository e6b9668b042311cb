/* test_ff.c: functional fast-forward (ssdsim_fast_forward, libssdsim/fastfwd.c). The same
 * request stream fast-forwarded and run with timing leaves the same FTL state up to the order
 * of concurrent work: for uniform random, zipf(1.2), a 90/10 hot/cold mix and a
 * sequential/random mix with trims, the WAF of each round of the steady part and the
 * distribution of valid pages per written block agree within tolerances derived below; the
 * scaled copy of fast preconditioning, its rounds fast-forwarded, matches a full timed
 * preconditioning within 3% in IOPS and WAF (as tests/test_precond.c asks of the timed one). The
 * timed run that follows a fast-forward is byte-identical across repeats; sequential fills by
 * fast-forward write exactly the capacity; bad inputs are refused. The fast-forward rate (host
 * writes per CPU-second) is printed, not asserted.
 *
 * Tolerances. Both runs see the same requests (one job clone: its generator's sequence does not
 * depend on timing; the runs take the same run numbers, so the same seeds), so the WAF of a
 * round differs only through which pages garbage collection finds in its victims, a sum over
 * many victims of nearly independent counts. Its noise is estimated from the rounds
 * themselves, paired (round r of one run against round r of the other, which removes the
 * common trend of a device filling up): the mean of the R per-round differences of the steady
 * part must be within 4 standard errors (sd / sqrt(R); a false failure about once in 15000
 * under a normal law, a little more with R small) plus 1% of the WAF for what the order of
 * concurrent work may shift systematically (the goal is 2%). The valid counts per
 * written block are compared by the two-sample Kolmogorov-Smirnov distance, which must stay
 * below its critical value at the 0.1% level, 1.95 sqrt(2 / n) for n blocks per sample.
 */
#include <math.h>
#include <stdlib.h>
#include <time.h>

#include "sim.h"
#include "ftl/page.h"
#include "simtest.h"

static struct ssdsim *in(ssdsim *sim)
{
    return (struct ssdsim *)sim;
}

/* generic-mlc with 2 channels of 1 chip (8 planes) of 128 blocks: 256 MiB of flash */
static ssdsim_model *small_model(const char *extra)
{
    return st_model("generic-mlc", "geometry.channels=2", "geometry.chips_per_channel=1",
                    "geometry.blocks_per_plane=128", extra, NULL);
}

static uint64_t logical_pages(ssdsim *sim)
{
    uint64_t lp = 0;
    ck_assert_int_eq(ssdsim_device_shape(sim, NULL, NULL, NULL, NULL, &lp), 0);
    return lp;
}

#define ROUNDS 14
#define WARM 6 /* rounds before the steady part (3 drive writes) */

struct outcome {
    double waf[ROUNDS];
    uint32_t *valid; /* valid counts of the written blocks, sorted */
    uint64_t n_valid;
};

static int cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

/* The valid counts of the blocks that are not free, sorted. */
static void block_valid(ssdsim *sim, struct outcome *o)
{
    uint64_t nb = 0;
    ck_assert_int_eq(ssdsim_device_shape(sim, NULL, &nb, NULL, NULL, NULL), 0);
    const struct ssdsim_ftl_env *env = &in(sim)->sys.devs[0].env;
    o->valid = malloc(sizeof *o->valid * nb);
    o->n_valid = 0;
    for (uint64_t b = 0; b < nb; b++) {
        uint64_t ord;
        if (!env->ops->block_closed(env->state, b, &ord))
            continue; /* free, open or being collected */
        uint32_t v = 0;
        ck_assert_int_eq(ssdsim_block_state(sim, b, &v, NULL), 0);
        o->valid[o->n_valid++] = v;
    }
    qsort(o->valid, o->n_valid, sizeof *o->valid, cmp_u32);
}

/* ROUNDS rounds of `json` (each a run of half a drive write of host writes), timed or
 * fast-forwarded, from a fresh device of seed 3. */
static struct outcome rounds(ssdsim_model *m, const char *json, const char *trim, bool ff,
                             double *cpu_rate)
{
    struct outcome o;
    ssdsim *sim = st_sim(m, 3);
    char text[512];
    snprintf(text, sizeof text, json, (unsigned long long)(logical_pages(sim) / 2 * 4096));
    ssdsim_workload *wl = st_workload(text), *tw = NULL;
    if (trim) {
        snprintf(text, sizeof text, trim, (unsigned long long)(logical_pages(sim) / 20 * 4096));
        tw = st_workload(text);
    }
    uint64_t host = 0;
    clock_t c0 = clock();
    for (int r = 0; r < ROUNDS; r++) {
        int rc = ff ? ssdsim_fast_forward(sim, wl, 0) : ssdsim_run(sim, wl, NULL);
        ck_assert_msg(rc == 0, "%s", ssdsim_errmsg(sim));
        ssdsim_device_stats d;
        ck_assert_int_eq(ssdsim_get_device_stats(sim, &d), 0);
        o.waf[r] = d.waf;
        host += d.host_pages_written;
        if (tw) {
            rc = ff ? ssdsim_fast_forward(sim, tw, 0) : ssdsim_run(sim, tw, NULL);
            ck_assert_msg(rc == 0, "%s", ssdsim_errmsg(sim));
        }
    }
    ssdsim_workload_free(tw);
    double cpu = (double)(clock() - c0) / CLOCKS_PER_SEC;
    if (cpu_rate)
        *cpu_rate = cpu > 0 ? (double)host / cpu : 0;
    st_check(sim);
    block_valid(sim, &o);
    ssdsim_workload_free(wl);
    ssdsim_free(sim);
    return o;
}

static void mean_sd(const double *x, int n, double *mean, double *sd)
{
    double s = 0, q = 0;
    for (int i = 0; i < n; i++)
        s += x[i];
    *mean = s / n;
    for (int i = 0; i < n; i++)
        q += (x[i] - *mean) * (x[i] - *mean);
    *sd = sqrt(q / (n - 1));
}

/* Two-sample Kolmogorov-Smirnov distance of sorted samples. */
static double ks(const uint32_t *a, uint64_t na, const uint32_t *b, uint64_t nb)
{
    uint64_t i = 0, j = 0;
    double d = 0;
    while (i < na && j < nb) {
        uint32_t v = a[i] < b[j] ? a[i] : b[j];
        while (i < na && a[i] == v)
            i++;
        while (j < nb && b[j] == v)
            j++;
        d = fmax(d, fabs((double)i / na - (double)j / nb));
    }
    return d;
}

static void ff_matches_timed(const char *name, const char *json, const char *trim)
{
    ssdsim_model *m = small_model("ftl.op=0.15");
    double rate = 0;
    struct outcome t = rounds(m, json, trim, false, NULL);
    struct outcome f = rounds(m, json, trim, true, &rate);
    double mt, st, mf, sf, md, sd, diff[ROUNDS];
    const int R = ROUNDS - WARM;
    for (int r = 0; r < R; r++)
        diff[r] = f.waf[WARM + r] - t.waf[WARM + r];
    mean_sd(t.waf + WARM, R, &mt, &st);
    mean_sd(f.waf + WARM, R, &mf, &sf);
    mean_sd(diff, R, &md, &sd);
    double tol = 4 * sd / sqrt(R) + 0.01 * mt;
    double d = ks(t.valid, t.n_valid, f.valid, f.n_valid);
    double n = (double)(t.n_valid < f.n_valid ? t.n_valid : f.n_valid);
    double dcrit = 1.95 * sqrt(2.0 / n);
    printf("ff %-8s timed WAF %.4f ff %.4f: %+.2f%% (paired sd %.4f, tolerance %.4f); KS %.4f "
           "(critical %.4f, %llu/%llu blocks); ff %.1f M host writes per CPU-s\n",
           name, mt, mf, 100 * (mf / mt - 1), sd, tol, d, dcrit,
           (unsigned long long)t.n_valid, (unsigned long long)f.n_valid, rate / 1e6);
    ck_assert_msg(fabs(mf - mt) <= tol, "%s: WAF timed %.4f ff %.4f, tolerance %.4f", name, mt,
                  mf, tol);
    ck_assert_msg(d <= dcrit, "%s: valid-count distributions differ: KS %.4f > %.4f", name, d,
                  dcrit);
    free(t.valid);
    free(f.valid);
    ssdsim_model_free(m);
}

START_TEST(test_ff_uniform)
{
    ff_matches_timed("uniform", "{\"rw\": \"randwrite\", \"bs\": \"4k\", \"iodepth\": 32, "
                                "\"norandommap\": true, \"io_size\": %llu}",
                     NULL);
}
END_TEST

START_TEST(test_ff_zipf)
{
    ff_matches_timed("zipf:1.2", "{\"rw\": \"randwrite\", \"bs\": \"4k\", \"iodepth\": 32, "
                                 "\"random_distribution\": \"zipf:1.2\", \"io_size\": %llu}",
                     NULL);
}
END_TEST

START_TEST(test_ff_hot_cold)
{
    ff_matches_timed("90/10", "{\"rw\": \"randwrite\", \"bs\": \"4k\", \"iodepth\": 16, "
                              "\"random_distribution\": \"zoned:90/10:10/90\", "
                              "\"io_size\": %llu}",
                     NULL);
}
END_TEST

START_TEST(test_ff_seq_random_mix)
{
    /* half the writes random, the rest in sequential runs */
    ff_matches_timed("seq/rand",
                     "{\"rw\": \"randwrite\", \"bs\": \"16k\", \"iodepth\": 8, "
                     "\"percentage_random\": 50, \"io_size\": %llu}",
                     NULL);
}
END_TEST

START_TEST(test_ff_trims)
{
    /* each round, random writes then a tenth as many 64 KiB trims */
    ff_matches_timed("w+trim",
                     "{\"rw\": \"randwrite\", \"bs\": \"4k\", \"iodepth\": 8, "
                     "\"io_size\": %llu}",
                     "{\"rw\": \"randtrim\", \"bs\": \"64k\", \"iodepth\": 4, "
                     "\"io_size\": %llu}");
}
END_TEST

/* Fast-forward, then a timed run: the same text twice with one seed, another with another. */
static char *ff_then_run(uint64_t seed)
{
    ssdsim_model *m = small_model("ftl.op=0.15");
    ssdsim *sim = st_sim(m, seed);
    ssdsim_workload *wl = st_workload("{\"rw\": \"randwrite\", \"bs\": \"4k\", \"iodepth\": 32, "
                                      "\"time_based\": true, \"runtime\": \"1s\"}");
    int rc = ssdsim_fast_forward(sim, wl, 2.5);
    ck_assert_msg(rc == 0, "%s", ssdsim_errmsg(sim));
    ssdsim_device_stats d;
    ck_assert_int_eq(ssdsim_get_device_stats(sim, &d), 0);
    ck_assert_uint_ge(d.host_pages_written, (uint64_t)(2.5 * (double)logical_pages(sim)));
    ck_assert(d.waf > 1.0);
    ssdsim_workload_free(wl);
    st_run(sim, "{\"rw\": \"randrw\", \"bs\": \"4k\", \"iodepth\": 16, \"number_ios\": 40000}",
           NULL);
    return st_results_json(sim, m);
}

START_TEST(test_ff_then_timed_deterministic)
{
    st_assert_seeded(ff_then_run(5), ff_then_run(5), ff_then_run(6));
}
END_TEST

/* A sequential fill by fast-forward writes every logical page once, each block full, at a WAF
 * of exactly 1, the same valid counts as a timed fill. */
START_TEST(test_ff_seq_fill)
{
    ssdsim_model *m = small_model(NULL);
    struct outcome o[2];
    for (int k = 0; k < 2; k++) {
        ssdsim *sim = st_sim(m, 9);
        ck_assert_int_eq(ssdsim_set_precondition_method(
                             sim, k ? SSDSIM_PRECONDITION_METHOD_FUNCTIONAL
                                    : SSDSIM_PRECONDITION_METHOD_TIMED),
                         0);
        uint64_t h0 = in(sim)->sys.devs[0].env.n.c[SSDSIM_CNT_HOST_PAGES];
        int rc = ssdsim_precondition_seq_fills(sim, 1);
        ck_assert_msg(rc == 0, "%s", ssdsim_errmsg(sim));
        const struct ssdsim_ftl_env *env = &in(sim)->sys.devs[0].env;
        ck_assert_uint_eq(env->n.c[SSDSIM_CNT_HOST_PAGES] - h0, logical_pages(sim));
        ck_assert_uint_eq(env->n.programs[SSDSIM_FOR_GC], 0);
        for (uint64_t l = 0; l < logical_pages(sim); l++)
            ck_assert(ssdsim_lookup(sim, l) != UINT64_MAX);
        st_check(sim);
        block_valid(sim, &o[k]);
        ssdsim_free(sim);
    }
    ck_assert_uint_eq(o[0].n_valid, o[1].n_valid);
    ck_assert_mem_eq(o[0].valid, o[1].valid, sizeof *o[0].valid * o[0].n_valid);
    free(o[0].valid);
    free(o[1].valid);
    ssdsim_model_free(m);
}
END_TEST

/* A system of SSDs (a JBOD, RAID-0 with 16 KiB strips and RAID-1 of four small generic-mlc
 * members) filled by fast-forward: every member has exactly the units the volume maps on it
 * written once (all of a JBOD or RAID-1 member, whole strips of a RAID-0 member: its capacity
 * rounded down to 16 KiB, here all of it), no GC, and the same valid counts per block as a
 * timed fill of the volume. The next run draws the same seeds as after a timed fill: a
 * random-read run after each gives the same IOPS within 2%. A RAID-5 without a write-back
 * cache, whose 128 KiB fill requests are not whole rows of 3 x 16 KiB, is filled with timing
 * under either method (its partial rows rewrite parity): the same counts both ways. */
static ssdsim_model *system_model(const char *layout)
{
    char path[1024], json[1200];
    snprintf(path, sizeof path, "%s/tests/test_ff-member-%ld.json", BUILDDIR, (long)getpid());
    ssdsim_model *member = small_model(NULL);
    char *mj = ssdsim_model_to_json(member);
    FILE *f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    ck_assert_int_ge(fputs(mj, f), 0);
    ck_assert_int_eq(fclose(f), 0);
    free(mj);
    ssdsim_model_free(member);
    snprintf(json, sizeof json,
             "{\"name\":\"sys\",\"system\":{\"member\":\"%s\",\"count\":4,"
             "\"layout\":\"%s\"%s}}",
             path, layout, strcmp(layout, "jbod") && strcmp(layout, "raid1") ? ",\"stripe\":\"16KiB\"" : "");
    ssdsim_model *m = NULL;
    ssdsim_error err;
    int rc = ssdsim_model_load_string(&m, json, "system", &err);
    ck_assert_msg(rc == 0, "%s", err.message);
    ck_assert_int_eq(remove(path), 0);
    return m;
}

START_TEST(test_ff_seq_fill_system)
{
    static const char *const layouts[] = {"jbod", "raid0", "raid1"};
    ssdsim_model *m = system_model(layouts[_i]);
    struct outcome o[2][4];
    double iops[2];
    for (int k = 0; k < 2; k++) {
        ssdsim *sim = st_sim(m, 9);
        ck_assert_int_eq(ssdsim_set_precondition_method(
                             sim, k ? SSDSIM_PRECONDITION_METHOD_FUNCTIONAL
                                    : SSDSIM_PRECONDITION_METHOD_TIMED),
                         0);
        struct ssdsim__sys *sys = &in(sim)->sys;
        ck_assert_uint_eq(sys->n_devs, 4);
        int rc = ssdsim_precondition_seq_fills(sim, 1);
        ck_assert_msg(rc == 0, "%s", ssdsim_errmsg(sim));
        for (uint32_t d = 0; d < 4; d++) {
            const struct ssdsim_ftl_env *env = &sys->devs[d].env;
            uint64_t units = sys->devs[d].bytes / sys->devs[d].unit;
            ck_assert_uint_eq(sys->devs[d].bytes % 16384, 0);
            ck_assert_uint_eq(env->n.c[SSDSIM_CNT_HOST_PAGES], units);
            ck_assert_uint_eq(env->n.programs[SSDSIM_FOR_GC], 0);
            /* the valid counts of member d's written blocks */
            uint64_t nb = env->geo.n_blocks;
            o[k][d].valid = malloc(sizeof *o[k][d].valid * nb);
            o[k][d].n_valid = 0;
            for (uint64_t b = 0; b < nb; b++) {
                uint64_t ord;
                if (env->ops->block_closed(env->state, b, &ord))
                    o[k][d].valid[o[k][d].n_valid++] = env->ops->block_valid(env->state, b);
            }
            qsort(o[k][d].valid, o[k][d].n_valid, sizeof *o[k][d].valid, cmp_u32);
        }
        st_check(sim);
        ssdsim_workload *wl = st_workload("{\"rw\": \"randread\", \"bs\": \"4k\", "
                                          "\"iodepth\": 8, \"number_ios\": 2000}");
        ck_assert_msg(ssdsim_run(sim, wl, NULL) == 0, "%s", ssdsim_errmsg(sim));
        ssdsim_op_stats st;
        ck_assert_int_eq(ssdsim_get_op_stats(sim, SSDSIM_OP_READ, &st), 0);
        ck_assert_uint_eq(st.count, 2000);
        iops[k] = st.iops;
        ssdsim_workload_free(wl);
        ssdsim_free(sim);
    }
    for (uint32_t d = 0; d < 4; d++) {
        ck_assert_uint_eq(o[0][d].n_valid, o[1][d].n_valid);
        ck_assert_mem_eq(o[0][d].valid, o[1][d].valid, sizeof *o[0][d].valid * o[0][d].n_valid);
        free(o[0][d].valid);
        free(o[1][d].valid);
    }
    st_within(iops[1], iops[0], 0.02, "random-read IOPS after the fill");
    ssdsim_model_free(m);
}
END_TEST

START_TEST(test_ff_seq_fill_raid5_timed)
{
    ssdsim_model *m = system_model("raid5");
    uint64_t host[2][4];
    for (int k = 0; k < 2; k++) {
        ssdsim *sim = st_sim(m, 9);
        ck_assert_int_eq(ssdsim_set_precondition_method(
                             sim, k ? SSDSIM_PRECONDITION_METHOD_FUNCTIONAL
                                    : SSDSIM_PRECONDITION_METHOD_TIMED),
                         0);
        ck_assert_ptr_nonnull(ssdsim__ff_seq_fill_unsupported(in(sim), 128 * 1024));
        /* whole rows would be fast-forwarded, unless the array keeps content tags (a debug
         * build checks invariants from the start), which only timed writes update */
        if (!in(sim)->sys.tags)
            ck_assert_ptr_null(ssdsim__ff_seq_fill_unsupported(in(sim), 3 * 16 * 1024));
        int rc = ssdsim_precondition_seq_fills(sim, 1);
        ck_assert_msg(rc == 0, "%s", ssdsim_errmsg(sim));
        for (uint32_t d = 0; d < 4; d++)
            host[k][d] = in(sim)->sys.devs[d].env.n.c[SSDSIM_CNT_HOST_PAGES];
        ssdsim_free(sim);
    }
    ck_assert_mem_eq(host[0], host[1], sizeof host[0]);
    ssdsim_model_free(m);
}
END_TEST

START_TEST(test_ff_refuses)
{
    ssdsim_model *m = small_model(NULL);
    ssdsim *sim = st_sim(m, 1);
    ssdsim_workload *tb =
        st_workload("{\"rw\": \"randwrite\", \"time_based\": true, \"runtime\": \"1s\"}");
    ck_assert_int_eq(ssdsim_fast_forward(sim, tb, 0), SSDSIM_EINVAL);
    ck_assert_msg(strstr(ssdsim_errmsg(sim), "runs for a time"), "%s", ssdsim_errmsg(sim));
    ck_assert_int_eq(ssdsim_fast_forward(sim, tb, -1), SSDSIM_EINVAL);
    ck_assert_int_eq(ssdsim_fast_forward(sim, NULL, 1), SSDSIM_EINVAL);
    ck_assert_int_eq(ssdsim_set_precondition_method(sim, 7), SSDSIM_EINVAL);
    /* bounded by drive writes, a run ends with its last job that writes: reads (or a mix that
     * only reads) for a time end at once, and after 500 writes a reader for a time ends too
     * (each never ended: there is no time to run out) */
    ssdsim_workload *rd =
        st_workload("{\"rw\": \"randread\", \"time_based\": true, \"runtime\": \"1s\"}");
    ck_assert_int_eq(ssdsim_fast_forward(sim, rd, 1), 0);
    ssdsim_device_stats d;
    ck_assert_int_eq(ssdsim_get_device_stats(sim, &d), 0);
    ck_assert_uint_eq(d.host_pages_written, 0);
    ssdsim_workload *mix = st_workload("[w]\nrw=randwrite\nnumber_ios=500\n"
                                       "[r]\nrw=randrw\nrwmixread=100\ntime_based=1\nruntime=1s\n");
    ck_assert_int_eq(ssdsim_fast_forward(sim, mix, 1), 0);
    ck_assert_int_eq(ssdsim_get_device_stats(sim, &d), 0);
    ck_assert_uint_eq(d.host_pages_written, 500);
    /* fast preconditioning with reads only is refused, saying what to do instead */
    ck_assert_int_eq(ssdsim_precondition_fast(sim, rd, NULL), SSDSIM_ECONFIG);
    ck_assert_msg(strstr(ssdsim_errmsg(sim), "writes nothing") &&
                      strstr(ssdsim_errmsg(sim), "--precondition seq"),
                  "%s", ssdsim_errmsg(sim));
    /* jobs writing at different rates in a timed run (4 KiB at QD32 beside 128 KiB at QD1: a
     * timed run gives the first 83% of the bytes, turns one each give it 3%) are refused when
     * cut off at an amount, naming both and what to do instead; each with its own amount they
     * are run, in any order the same writes */
    ssdsim_workload *hetero =
        st_workload("[rand]\nrw=randwrite\nbs=4k\nioengine=libaio\niodepth=32\n"
                    "[seq]\nrw=write\nbs=128k\niodepth=1\n");
    ck_assert_int_eq(ssdsim_fast_forward(sim, hetero, 1), SSDSIM_EINVAL);
    ck_assert_msg(strstr(ssdsim_errmsg(sim), "jobs 1 ('rand') and 2 ('seq') write at different "
                                             "rates") &&
                      strstr(ssdsim_errmsg(sim), "--precondition seq"),
                  "%s", ssdsim_errmsg(sim));
    ssdsim_workload *fixed =
        st_workload("[rand]\nrw=randwrite\nbs=4k\nioengine=libaio\niodepth=32\n"
                    "number_ios=200\n"
                    "[seq]\nrw=write\nbs=128k\niodepth=1\nnumber_ios=10\n");
    ck_assert_int_eq(ssdsim_fast_forward(sim, fixed, 0), 0);
    ck_assert_int_eq(ssdsim_get_device_stats(sim, &d), 0); /* this fast-forward's */
    ck_assert_uint_eq(d.host_pages_written, 200 + 10 * 32);
    ssdsim_workload_free(fixed);
    ssdsim_workload_free(hetero);
    ssdsim_workload_free(rd);
    ssdsim_workload_free(mix);
    ssdsim_workload_free(tb);
    ssdsim_free(sim);
    ssdsim_model_free(m);
    ssdsim_model *h = st_model("wd5002abys", NULL);
    sim = st_sim(h, 1);
    ssdsim_workload *wl = st_workload("{\"rw\": \"randwrite\", \"number_ios\": 100}");
    ck_assert_int_eq(ssdsim_fast_forward(sim, wl, 0), SSDSIM_ENOTFOUND);
    ssdsim_workload_free(wl);
    ssdsim_free(sim);
    ssdsim_model_free(h);
}
END_TEST

/* Functional fast preconditioning reaches a steady WAF and records it. */
START_TEST(test_ff_precondition_fast)
{
    ssdsim_model *m = small_model("ftl.op=0.15");
    ssdsim *sim = st_sim(m, 2);
    ssdsim_workload *wl =
        st_workload("{\"rw\": \"randwrite\", \"bs\": \"4k\", \"random_distribution\": "
                    "\"zipf:1.2\", \"number_ios\": 1000}");
    int rc = ssdsim_precondition_fast(sim, wl, NULL);
    ck_assert_msg(rc == 0, "%s", ssdsim_errmsg(sim));
    ck_assert_str_eq(in(sim)->precond.mode, "functional");
    ck_assert(in(sim)->precond.drive_writes >= 3.0);
    ck_assert(in(sim)->precond.steady);
    ssdsim_device_stats d;
    ck_assert_int_eq(ssdsim_get_device_stats(sim, &d), 0);
    ck_assert_uint_eq(d.host_pages_written, 0);
    st_check(sim);
    ssdsim_workload_free(wl);
    ssdsim_free(sim);
    ssdsim_model_free(m);
}
END_TEST

/* Logical pages holding data. */
static uint64_t mapped_pages(ssdsim *sim)
{
    uint64_t nb = 0, mapped = 0;
    ck_assert_int_eq(ssdsim_device_shape(sim, NULL, &nb, NULL, NULL, NULL), 0);
    for (uint64_t b = 0; b < nb; b++) {
        uint32_t v = 0;
        ck_assert_int_eq(ssdsim_block_state(sim, b, &v, NULL), 0);
        mapped += v;
    }
    return mapped;
}

/* A skewed job's hot set is the workload's, the same in every run (as fio's, seeded from the
 * file and the job's thread number), and its steady state has every address written: fast
 * preconditioning writes the region once, then fast-forwards the job's rounds, and the timed
 * writes that follow have the WAF of a drive filled in order and written with timing until
 * steady (generic-mlc, 2 jobs of zipf:1.2). Before both, its rounds each drew their own hot set
 * and began from a secure-erased drive, and the measured WAF came out 7% low. Tolerance: the
 * two measured windows are 2 drive writes of the same steady process, whose WAF wanders by
 * about 1% between such windows here, plus the 2% for the order of concurrent work. */
static double skewed_waf(ssdsim *sim, double drive_writes)
{
    char json[320];
    snprintf(json, sizeof json,
             "{\"rw\": \"randwrite\", \"bs\": \"4k\", \"iodepth\": 16, \"numjobs\": 2, "
             "\"random_distribution\": \"zipf:1.2\", \"norandommap\": true, \"io_size\": %llu}",
             (unsigned long long)(logical_pages(sim) * 4096 * drive_writes / 2));
    st_run(sim, json, NULL);
    ssdsim_device_stats d;
    ck_assert_int_eq(ssdsim_get_device_stats(sim, &d), 0);
    return d.waf;
}

START_TEST(test_ff_skewed_steady)
{
    ssdsim_model *m = small_model("ftl.placement=stripe");
    /* the reference: filled in order, then timed until steady */
    ssdsim *t = st_sim(m, 5);
    ck_assert_int_eq(ssdsim_precondition_seq_fills(t, 1), 0);
    double warm[4];
    for (int k = 0; k < 4; k++)
        warm[k] = skewed_waf(t, 2);
    double ref = skewed_waf(t, 2);
    ssdsim_free(t);
    /* fast preconditioning */
    ssdsim *f = st_sim(m, 5);
    ssdsim_workload *wl =
        st_workload("{\"rw\": \"randwrite\", \"bs\": \"4k\", \"iodepth\": 16, \"numjobs\": 2, "
                    "\"random_distribution\": \"zipf:1.2\", \"norandommap\": true, "
                    "\"time_based\": true, \"runtime\": \"10s\"}");
    int rc = ssdsim_precondition_fast(f, wl, NULL);
    ck_assert_msg(rc == 0, "%s", ssdsim_errmsg(f));
    ck_assert_uint_eq(mapped_pages(f), logical_pages(f)); /* every logical page holds data */
    double fast = skewed_waf(f, 2);
    printf("skewed: timed %.4f %.4f %.4f %.4f then %.4f; fast preconditioning then %.4f (%+.2f%%)\n",
           warm[0], warm[1], warm[2], warm[3], ref, fast, 100 * (fast / ref - 1));
    ck_assert_msg(fabs(warm[3] / ref - 1) < 0.01, "the reference is not steady: %.4f then %.4f",
                  warm[3], ref);
    ck_assert_msg(fabs(fast / ref - 1) < 0.03, "WAF after fast preconditioning %.4f, timed %.4f",
                  fast, ref);
    ssdsim_workload_free(wl);
    ssdsim_free(f);
    ssdsim_model_free(m);
}
END_TEST

/* Which skewed jobs fast preconditioning writes in full first: zoned_abs zones that cover the
 * region do (every address has a chance each write), zones that leave part of it out do not
 * (that part is never written, and stays free room), nor does a mix that only reads beside a
 * uniform writer over a tenth of the drive. */
START_TEST(test_ff_skewed_fill_rule)
{
    ssdsim_model *m = small_model(NULL);
    for (int k = 0; k < 3; k++) {
        ssdsim *sim = st_sim(m, 1);
        uint64_t lp = logical_pages(sim), hot = lp / 10 * 4096, rest = lp * 4096 - hot;
        char json[512];
        if (k < 2)
            snprintf(json, sizeof json,
                     "{\"rw\": \"randwrite\", \"bs\": \"4k\", \"norandommap\": true, "
                     "\"number_ios\": 1000, \"random_distribution\": "
                     "\"zoned_abs:80/%llu:20/%llu\"}",
                     (unsigned long long)hot, (unsigned long long)(k == 0 ? rest : rest / 2));
        else
            snprintf(json, sizeof json,
                     "[w]\nrw=randwrite\nbs=4k\nnorandommap=1\nsize=10%%\nnumber_ios=1000\n"
                     "[r]\nrw=randrw\nrwmixread=100\nbs=4k\nrandom_distribution=zipf:1.2\n"
                     "number_ios=1000\n");
        ssdsim_workload *wl = st_workload(json);
        int rc = ssdsim_precondition_fast(sim, wl, NULL);
        ck_assert_msg(rc == 0, "%s", ssdsim_errmsg(sim));
        uint64_t mapped = mapped_pages(sim);
        if (k == 0)
            ck_assert_uint_eq(mapped, lp);
        else if (k == 1)
            ck_assert_uint_le(mapped, lp - (rest / 2) / 4096);
        else
            ck_assert_uint_le(mapped, lp / 10 + 1);
        ssdsim_workload_free(wl);
        ssdsim_free(sim);
    }
    ssdsim_model_free(m);
}
END_TEST

/* The scaled copy of fast preconditioning with its rounds fast-forwarded (the functional
 * method) gives the steady state of a full timed preconditioning (4 drive writes): IOPS and WAF
 * of a measured drive write within 3%, as tests/test_precond.c asks of the timed copy. */
static double measure(ssdsim *sim, double *waf)
{
    char json[256];
    snprintf(json, sizeof json,
             "{\"rw\": \"randwrite\", \"bs\": \"4k\", \"iodepth\": 64, \"io_size\": %llu}",
             (unsigned long long)(logical_pages(sim) * 4096));
    st_run(sim, json, NULL);
    ssdsim_op_stats o;
    ssdsim_device_stats d;
    ck_assert_int_eq(ssdsim_get_op_stats(sim, SSDSIM_OP_ALL, &o), 0);
    ck_assert_int_eq(ssdsim_get_device_stats(sim, &d), 0);
    *waf = d.waf;
    return o.iops;
}

START_TEST(test_ff_scaled_copy_matches_full)
{
    ssdsim_model *m = small_model("geometry.blocks_per_plane=256");
    ssdsim *full = st_sim(m, 1);
    char json[256];
    snprintf(json, sizeof json,
             "{\"rw\": \"randwrite\", \"bs\": \"4k\", \"iodepth\": 64, \"io_size\": %llu}",
             (unsigned long long)(4 * logical_pages(full) * 4096));
    st_run(full, json, NULL);
    double wf, iof = measure(full, &wf);
    ssdsim_free(full);

    ssdsim *fast = st_sim(m, 1);
    ssdsim_workload *wl = st_workload("{\"rw\": \"randwrite\", \"bs\": \"4k\", \"iodepth\": 64}");
    ssdsim_fast_precondition_opts o = {.scaled_blocks_per_plane = 64};
    int rc = ssdsim_precondition_fast(fast, wl, &o);
    ck_assert_msg(rc == 0, "%s", ssdsim_errmsg(fast));
    ssdsim_workload_free(wl);
    ck_assert_str_eq(in(fast)->precond.mode, "fast");
    ck_assert(in(fast)->precond.steady);
    double wg, iog = measure(fast, &wg);
    ssdsim_free(fast);
    ssdsim_model_free(m);
    printf("ff scaled copy: full IOPS %.0f WAF %.4f | fast-forwarded copy IOPS %.0f WAF %.4f | "
           "%+.2f%% %+.2f%%\n",
           iof, wf, iog, wg, 100 * (iog / iof - 1), 100 * (wg / wf - 1));
    ck_assert_msg(fabs(iog / iof - 1) <= 0.03, "IOPS full %.0f fast %.0f", iof, iog);
    ck_assert_msg(fabs(wg / wf - 1) <= 0.03, "WAF full %.4f fast %.4f", wf, wg);
}
END_TEST

/* Fast-forward through a write buffer that absorbs writes (write cache on, or power-loss
 * protected): the same rounds timed and fast-forwarded (8 of half a drive write), then a timed
 * drive write on each. An overwrite of a unit still dirty in the buffer never reaches the flash
 * in a timed run; fast-forward keeps the buffer's dirty units at the level a saturating host
 * keeps them (ssdsim__buf_ff_level) and hands them to the timed run after it, so the erase
 * counts after the rounds (or within one erase per plane, a victim a timed round may leave
 * being collected) and the WAF of the timed drive write agree within 2% on each seed
 * (measured: 0.0 to 0.6%, zipf's 0.29 erases a block 2.1%, 6 erases; before, fast-forward
 * wrote every overwrite to flash: zipf:1.2 with 1 MiB erased 4.7 times as much). IOPS within
 * 3% on the mean of 3 seeds: on this drive of 8
 * planes the timed IOPS alone vary by 3% from seed to seed (measured: -1.2 to +2.0%). */
static void cache_pair(ssdsim_model *m, const char *json, uint64_t seed, bool ff, double *ec,
                       double *waf, double *iops)
{
    ssdsim *sim = st_sim(m, seed);
    char text[512];
    snprintf(text, sizeof text, json, (unsigned long long)(logical_pages(sim) / 2 * 4096));
    ssdsim_workload *wl = st_workload(text);
    for (int r = 0; r < 8; r++) {
        int rc = ff ? ssdsim_fast_forward(sim, wl, 0) : ssdsim_run(sim, wl, NULL);
        ck_assert_msg(rc == 0, "%s", ssdsim_errmsg(sim));
    }
    ssdsim_workload_free(wl);
    ssdsim_device_stats d;
    ck_assert_int_eq(ssdsim_get_device_stats(sim, &d), 0);
    *ec = d.erase_count_mean;
    snprintf(text, sizeof text, json, (unsigned long long)(logical_pages(sim) * 4096));
    st_run(sim, text, NULL);
    ssdsim_op_stats o;
    ck_assert_int_eq(ssdsim_get_op_stats(sim, SSDSIM_OP_ALL, &o), 0);
    ck_assert_int_eq(ssdsim_get_device_stats(sim, &d), 0);
    *waf = d.waf;
    *iops = o.iops;
    st_check(sim);
    ssdsim_free(sim);
}

START_TEST(test_ff_write_cache)
{
    static const struct {
        const char *name, *buffer, *dist;
    } cases[] = {
        {"zipf:1.2", "buffer.size=1MiB", "zipf:1.2"},
        {"uniform", "buffer.size=4MiB", "random"},
        {"90/10", "buffer.size=4MiB", "zoned:90/10:10/90"},
        {"90/10 plp", "buffer.size=4MiB", "zoned:90/10:10/90"},
    };
    int i = _i;
    ssdsim_model *m = small_model("ftl.op=0.15");
    ck_assert_int_eq(ssdsim_model_set(m, "buffer.size", cases[i].buffer + 12, NULL), 0);
    ck_assert_int_eq(ssdsim_model_set(m, i == 3 ? "buffer.plp" : "buffer.write_cache", "true",
                                      NULL),
                     0);
    char json[256];
    snprintf(json, sizeof json,
             "{\"rw\": \"randwrite\", \"bs\": \"4k\", \"iodepth\": 32, "
             "\"random_distribution\": \"%s\", \"io_size\": %%llu}",
             cases[i].dist);
    /* a round of the timed run may end with a victim being collected on each plane, which
     * fast-forward has finished: one erase per plane over the drive's blocks */
    uint64_t nb = 0;
    uint32_t np = 0;
    ssdsim *probe = st_sim(m, 1);
    ck_assert_int_eq(ssdsim_device_shape(probe, &np, &nb, NULL, NULL, NULL), 0);
    ssdsim_free(probe);
    double ec_step = (double)np / (double)nb;
    double iops[2] = {0, 0};
    for (uint64_t seed = 3; seed < 6; seed++) {
        double ec[2], waf[2], io[2];
        for (int ff = 0; ff < 2; ff++) {
            cache_pair(m, json, seed, ff, &ec[ff], &waf[ff], &io[ff]);
            iops[ff] += io[ff] / 3;
        }
        printf("ff write cache %-9s seed %llu: erase mean timed %.3f ff %.3f (%+.2f%%), WAF "
               "after %.4f %.4f (%+.2f%%), IOPS %.0f %.0f\n",
               cases[i].name, (unsigned long long)seed, ec[0], ec[1], 100 * (ec[1] / ec[0] - 1),
               waf[0], waf[1], 100 * (waf[1] / waf[0] - 1), io[0], io[1]);
        ck_assert_msg(fabs(ec[1] - ec[0]) <= fmax(0.02 * ec[0], ec_step),
                      "%s: erase mean timed %.3f ff %.3f", cases[i].name, ec[0], ec[1]);
        ck_assert_msg(fabs(waf[1] / waf[0] - 1) <= 0.02, "%s: WAF timed %.4f ff %.4f",
                      cases[i].name, waf[0], waf[1]);
    }
    printf("ff write cache %-9s IOPS timed %.0f ff %.0f (%+.2f%%)\n", cases[i].name, iops[0],
           iops[1], 100 * (iops[1] / iops[0] - 1));
    ck_assert_msg(fabs(iops[1] / iops[0] - 1) <= 0.03, "%s: IOPS timed %.0f ff %.0f",
                  cases[i].name, iops[0], iops[1]);
    ssdsim_model_free(m);
}
END_TEST

static Suite *ff_suite(void)
{
    Suite *s = suite_create("ff");
    TCase *quick = tcase_create("quick");
    tcase_set_timeout(quick, 600);
    tcase_add_test(quick, test_ff_then_timed_deterministic);
    tcase_add_test(quick, test_ff_seq_fill);
    tcase_add_loop_test(quick, test_ff_seq_fill_system, 0, 3);
    tcase_add_test(quick, test_ff_seq_fill_raid5_timed);
    tcase_add_test(quick, test_ff_refuses);
    tcase_add_test(quick, test_ff_precondition_fast);
    tcase_add_test(quick, test_ff_skewed_fill_rule);
    suite_add_tcase(s, quick);
    /* Fast-forward against timed runs: figures, which the optimised build checks; .ci/run
     * leaves them out under the sanitizers (CK_EXCLUDE_TAGS=accuracy), where the code they run
     * is run by the quick cases and the write-cache case below. */
    TCase *agree = tcase_create("ff-vs-timed");
    tcase_set_timeout(agree, 1200);
    tcase_set_tags(agree, "accuracy");
    tcase_add_test(agree, test_ff_uniform);
    tcase_add_test(agree, test_ff_zipf);
    tcase_add_test(agree, test_ff_hot_cold);
    tcase_add_test(agree, test_ff_seq_random_mix);
    tcase_add_test(agree, test_ff_trims);
    tcase_add_test(agree, test_ff_scaled_copy_matches_full);
    tcase_add_test(agree, test_ff_skewed_steady);
    suite_add_tcase(s, agree);
    TCase *wcache = tcase_create("write-cache");
    tcase_set_timeout(wcache, 1200);
    tcase_add_loop_test(wcache, test_ff_write_cache, 0, 4);
    suite_add_tcase(s, wcache);
    return s;
}

int main(void)
{
    return test_run_suite(ff_suite());
}
