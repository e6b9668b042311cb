/* test_rel.c: bit errors, ECC, read retry, soft decoding, parity reconstruction, read reclaim
 * and patrol reads (the reliability section, libssdsim/rel/), against values derived here
 * independently: the RBER formula computed by hand, the distribution of retry steps and the
 * UBER from binomial tails summed here in long double (not through the library's sums), read
 * latencies added up by hand to the nanosecond, and the read count at which read reclaim must
 * start. The statistical checks use 5 standard deviations of the binomial count as their
 * tolerance (a false failure has probability below 1e-6 per check; the seeds are fixed, so a
 * run is deterministic anyway).
 */
#include <check.h>
#include <glib.h>
#include <math.h>
#include <stdlib.h>

#include "common.h"
#include "config/model.h"
#include "hw/hw.h"
#include "sim.h"

#include "simtest.h"

/* `channels` dies (one per channel, one plane of 64 blocks of 16 pages of 4 KiB); tR 10 us,
 * 100 MT/s x 8 (a 4 KiB page crosses in 40.96 us), 1 us host and 1 us firmware overhead, a
 * 4000 MB/s link (1.024 us per 4 KiB). `rel` is the body of the reliability section. */
static ssdsim_model *drive(uint32_t channels, const char *rel, const char *ftl_extra)
{
    g_autofree char *json = g_strdup_printf(
        "{\"name\":\"rel\",\"geometry\":{\"channels\":%u,\"chips_per_channel\":1,"
        "\"dies_per_chip\":1,\"planes_per_die\":1,\"blocks_per_plane\":64,"
        "\"pages_per_block\":16,\"page_size\":\"4KiB\"},"
        "\"flash\":{\"cell\":\"mlc\",\"read_us\":10,\"program_us\":20,\"erase_us\":1000,"
        "\"bus_mts\":100,\"bus_width\":8},"
        "\"controller\":{\"cmd_overhead_us\":1,\"cores\":4,\"queue_depth\":64},"
        "\"host\":{\"link_bw\":\"4000MB/s\",\"cmd_overhead_us\":1},"
        "\"ftl\":{\"op\":0.5%s},\"reliability\":{%s}}",
        channels, ftl_extra ? ftl_extra : "", rel);
    ssdsim_model *m = NULL;
    ssdsim_error err;
    int rc = ssdsim_model_load_string(&m, json, "test_rel model", &err);
    ck_assert_msg(rc == 0, "%s", err.message);
    return m;
}

/* A fixed RBER p (no wear, retention or disturb term, no variation, no reclaim). */
static char *fixed(double p, uint32_t cw, uint32_t t, uint32_t retries, double f,
                   uint32_t soft_reads, uint32_t soft_t, const char *more)
{
    return g_strdup_printf(
        "\"rber_model\":\"mlc\",\"rber_base\":%.17g,\"rber_wear\":0,\"rber_retention\":0,"
        "\"rber_disturb\":0,\"rber_variation\":0,\"ecc_codeword\":%u,\"ecc_t\":%u,"
        "\"retry_max\":%u,\"retry_factor\":%.17g,\"soft_reads\":%u,\"soft_t\":%u,"
        "\"reclaim_threshold\":0%s",
        p, cw, t, retries, f, soft_reads, soft_t, more ? more : "");
}

/* P(X > k), X ~ Binomial(n, p), by direct summation of the lower tail in long double. */
static long double tail(uint32_t k, uint32_t n, long double p)
{
    long double lower = 0;
    for (uint32_t j = 0; j <= k; j++)
        lower += expl(lgammal(n + 1.0L) - lgammal(j + 1.0L) - lgammal(n - j + 1.0L) +
                      j * logl(p) + (n - j) * log1pl(-p));
    return 1 - lower;
}

/* P(some of c codewords fails). */
static double page_fail(uint32_t k, uint32_t n, long double p, uint32_t c)
{
    return (double)(1 - powl(1 - tail(k, n, p), c));
}

static struct ssdsim__rel *rel_of(ssdsim *sim)
{
    struct ssdsim__rel *r = sim->sys.devs[0].hw.rel;
    ck_assert_ptr_nonnull(r);
    return r;
}

static void within_sigmas(uint64_t got, double n, double prob, const char *what)
{
    double want = n * prob, sd = sqrt(n * prob * (1 - prob));
    ck_assert_msg(fabs((double)got - want) <= 5 * sd + 1, "%s: %llu, expected %.2f +- 5 x %.2f",
                  what, (unsigned long long)got, want, sd);
}

/* RBER = base + wear k^a + ret (1+k)^b d^g + rd (1+k)^e (r/1000)^h at P/E 2000 (k = 2), 16
 * days, 5000 reads: 1e-6 + 2e-5 x 2^1.5 + 3e-6 x 3 x 4 + 4e-7 x 9 x 5 = 1.1156854249e-4. */
START_TEST(test_rber_formula)
{
    const double want = 1e-6 + 2e-5 * 2.8284271247461903 + 3e-6 * 3 * 4 + 4e-7 * 9 * 5;
    ssdsim_model *m = drive(1,
                            "\"rber_model\":\"mlc\",\"rber_base\":1e-6,\"rber_wear\":2e-5,"
                            "\"rber_wear_exp\":1.5,\"rber_retention\":3e-6,"
                            "\"rber_retention_wear_exp\":1,\"rber_retention_exp\":0.5,"
                            "\"rber_disturb\":4e-7,\"rber_disturb_wear_exp\":2,"
                            "\"rber_disturb_exp\":1,\"rber_variation\":0",
                            NULL);
    ck_assert_double_eq_tol(ssdsim__rel_formula(&m->errors, 2000, 16, 5000), want, 1e-18);
    ssdsim *sim = st_sim(m, 1);
    st_run(sim, "{\"rw\":\"write\",\"bs\":\"4k\",\"iodepth\":1,\"number_ios\":16}", NULL);
    struct ssdsim__rel *r = rel_of(sim);
    uint32_t b = 0;
    while (r->blk[b].prog_ns == INT64_MAX)
        b++;
    /* the block's state: 2000 erases, 5000 reads, data written 16 days before `at` */
    sim->sys.devs[0].env.erase_count[b] = 2000;
    r->blk[b].reads = 5000;
    int64_t at = r->blk[b].prog_ns;
    ck_assert_int_eq(ssdsim_age(sim, 16 * 86400.0), 0);
    ck_assert_double_eq_tol(ssdsim__rel_rber(r, b, (uint64_t)at), want, 1e-18);
    sim->sys.devs[0].env.erase_count[b] = 0; /* as it was, for the consistency checks */
    ck_assert_int_eq(ssdsim_age(sim, -1), SSDSIM_EINVAL);
    ssdsim_free(sim);
    ssdsim_model_free(m);
}
END_TEST

/* The per-block factor is log-normal with mean 1: over 64 blocks x 4 dies its sample mean is
 * within 5 standard errors (sigma 0.3: sd of the factor sqrt(e^0.09 - 1) = 0.307), and the same
 * seed gives the same factors. */
START_TEST(test_rber_variation)
{
    ssdsim_model *m = drive(4, "\"rber_model\":\"mlc\",\"rber_variation\":0.3", NULL);
    ssdsim *a = st_sim(m, 5), *b = st_sim(m, 5), *c = st_sim(m, 6);
    struct ssdsim__rel *ra = rel_of(a), *rb = rel_of(b), *rc = rel_of(c);
    double sum = 0;
    bool differs = false;
    for (uint64_t k = 0; k < ra->n_blocks; k++) {
        sum += ra->blk[k].v;
        ck_assert(ra->blk[k].v == rb->blk[k].v);
        differs |= ra->blk[k].v != rc->blk[k].v;
    }
    double sd = sqrt(exp(0.09) - 1) / sqrt((double)ra->n_blocks);
    ck_assert_msg(fabs(sum / (double)ra->n_blocks - 1) <= 5 * sd, "mean factor %g",
                  sum / (double)ra->n_blocks);
    ck_assert(differs);
    ssdsim_free(a);
    ssdsim_free(b);
    ssdsim_free(c);
    ssdsim_model_free(m);
}
END_TEST

/* Steps over many reads at p = 0.0015, codewords of 512 bytes (4096 bits, t = 8), 8 per page,
 * retries scaling the RBER by 0.6: P(steps <= s) = 1 - page_fail(8, 4096, p 0.6^s, 8). */
START_TEST(test_retry_distribution)
{
    const double p = 0.0015, f = 0.6;
    g_autofree char *rel = fixed(p, 512, 8, 3, f, 0, 8, NULL);
    ssdsim_model *m = drive(4, rel, NULL);
    ssdsim *sim = st_sim(m, 3);
    st_run(sim, "{\"rw\":\"write\",\"bs\":\"4k\",\"iodepth\":8,\"size\":\"1m\"}", NULL);
    st_run(sim,
           "{\"rw\":\"randread\",\"bs\":\"4k\",\"iodepth\":8,\"size\":\"1m\","
           "\"number_ios\":40000}",
           NULL);
    ssdsim_reliability_stats rs;
    ck_assert_int_eq(ssdsim_get_reliability(sim, &rs), 0);
    ck_assert(rs.on);
    ck_assert_uint_eq(rs.reads, 40000);
    ck_assert_uint_eq(rs.codewords_read, 8 * 40000);
    ck_assert_uint_eq(rs.bits_read, 8ull * 4096 * 40000);
    ck_assert_double_eq_tol(rs.rber_mean, p, 1e-15);
    double prev = 1; /* P(fail at every step before s) */
    uint64_t retries = 0;
    for (uint32_t s = 0; s <= 3; s++) {
        double fail = page_fail(8, 4096, p * pow(f, s), 8);
        char what[32];
        snprintf(what, sizeof what, "reads after %u retries", s);
        within_sigmas(rs.reads_by_steps[s], 40000, prev - fail, what);
        retries += s * rs.reads_by_steps[s];
        prev = fail;
    }
    within_sigmas(rs.reads_by_steps[5], 40000, prev, "uncorrectable reads");
    ck_assert_uint_eq(rs.reads_by_steps[5], rs.uncorrectable);
    ck_assert_uint_eq(rs.retries, retries + 3 * rs.uncorrectable);
    ssdsim_free(sim);
    ssdsim_model_free(m);
}
END_TEST

/* UBER: no retry, no soft decoding: a codeword fails with q = P(X > 8), X ~ B(4096, 0.0015);
 * codewords_failed / bits_read estimates q / 4096, and uncorrectable reads are those with a
 * failed codeword. Then with soft decoding (soft_t 12): q = P(X > 12). */
START_TEST(test_uber_matches_binomial_tail)
{
    for (int soft = 0; soft < 2; soft++) {
        g_autofree char *rel = fixed(0.0015, 512, 8, 0, 1, soft ? 2 : 0, 12, NULL);
        ssdsim_model *m = drive(4, rel, NULL);
        ssdsim *sim = st_sim(m, 4);
        st_run(sim, "{\"rw\":\"write\",\"bs\":\"4k\",\"iodepth\":8,\"size\":\"1m\"}", NULL);
        st_run(sim,
               "{\"rw\":\"randread\",\"bs\":\"4k\",\"iodepth\":8,\"size\":\"1m\","
               "\"number_ios\":30000}",
               NULL);
        ssdsim_reliability_stats rs;
        ck_assert_int_eq(ssdsim_get_reliability(sim, &rs), 0);
        double q = (double)tail(soft ? 12 : 8, 4096, 0.0015L);
        within_sigmas(rs.codewords_failed, (double)rs.codewords_read, q, "failed codewords");
        within_sigmas(rs.uncorrectable, (double)rs.reads, page_fail(soft ? 12 : 8, 4096, 0.0015L, 8),
                      "uncorrectable reads");
        double sd = sqrt((double)rs.codewords_read * q * (1 - q)) / (double)rs.bits_read;
        ck_assert_msg(fabs(rs.uber - q / 4096) <= 5 * sd, "UBER %g, expected %g", rs.uber,
                      q / 4096);
        if (soft)
            ck_assert_uint_eq(rs.soft_decodes, rs.reads - rs.reads_by_steps[0]);
        ssdsim_free(sim);
        ssdsim_model_free(m);
    }
}
END_TEST

/* One 4 KiB read on an idle drive is 1 us host + 1 us firmware + its steps + 40.96 us bus +
 * 1.024 us link; each step is tR 10 us + decode 3 us; soft decoding adds 2 x tR + 7 us. The
 * steps each read took are read from the counters around it. */
START_TEST(test_latency_is_sum_of_steps)
{
    g_autofree char *rel = fixed(0.0015, 512, 8, 3, 0.6, 2, 14,
                                 ",\"ecc_decode_us\":3,\"soft_decode_us\":7");
    ssdsim_model *m = drive(1, rel, NULL);
    ssdsim *sim = st_sim(m, 9);
    st_run(sim, "{\"rw\":\"write\",\"bs\":\"4k\",\"iodepth\":1,\"size\":\"64k\"}", NULL);
    struct ssdsim__rel *r = rel_of(sim);
    bool seen[6] = {false};
    for (int i = 0; i < 400; i++) {
        struct ssdsim__rel_counts before = r->n;
        uint64_t lat = st_one(sim, SSDSIM_OP_READ, (uint64_t)(i % 16) * 4096, 4096);
        uint64_t want = 2000 + 40960 + 1024;
        int kind = -1;
        for (uint32_t s = 0; s <= 5; s++)
            if (r->n.by_steps[s] == before.by_steps[s] + 1)
                kind = (int)s;
        ck_assert_int_ge(kind, 0);
        if (kind <= 3)
            want += (uint64_t)(kind + 1) * 13000; /* hard decision after `kind` retries */
        else
            want += 4 * 13000 + 2 * 10000 + 7000; /* soft decoded, or failed after it */
        ck_assert_msg(lat == want, "read %d (%d): %llu ns, expected %llu", i, kind,
                      (unsigned long long)lat, (unsigned long long)want);
        ck_assert_uint_eq(r->n.extra_ns - before.extra_ns, want - 2000 - 40960 - 1024 - 10000);
        seen[kind] = true;
    }
    ck_assert(seen[0] && seen[1] && seen[2]);
    ssdsim_free(sim);
    ssdsim_model_free(m);
}
END_TEST

/* RAIN (group 4 on 4 dies): a read no step can decode (p = 0.05, t = 8 of 4096 bits) is rebuilt
 * from the other 3 members, read at once on the 3 other dies and channels after the failed
 * read's data is out: 2 us + (10 + 40.96) us + (10 + 40.96) us + 1.024 us = 104.944 us. */
START_TEST(test_uncorrectable_rebuilt_from_parity)
{
    g_autofree char *rel = fixed(0.05, 512, 8, 0, 1, 0, 8, NULL);
    ssdsim_model *m = drive(4, rel, ",\"parity_group\":4");
    ssdsim *sim = st_sim(m, 2);
    st_run(sim, "{\"rw\":\"write\",\"bs\":\"4k\",\"iodepth\":1,\"size\":\"96k\"}", NULL);
    for (int i = 0; i < 8; i++)
        ck_assert_uint_eq(st_one(sim, SSDSIM_OP_READ, (uint64_t)i * 4096, 4096), 104944);
    ssdsim_reliability_stats rs;
    ssdsim_get_reliability(sim, &rs);
    ck_assert_uint_eq(rs.uncorrectable, 8);
    ck_assert_uint_eq(rs.reconstructed, 8);
    ck_assert_uint_eq(rs.reconstruction_reads, 24);
    ck_assert_uint_eq(rs.codewords_failed, 64);
    st_check(sim);
    ssdsim_free(sim);
    ssdsim_model_free(m);

    /* without parity the read is reported lost after the same step: 2 + 50.96 + 1.024 us */
    g_autofree char *rel2 = fixed(0.05, 512, 8, 0, 1, 0, 8, NULL);
    m = drive(4, rel2, NULL);
    sim = st_sim(m, 2);
    st_run(sim, "{\"rw\":\"write\",\"bs\":\"4k\",\"iodepth\":1,\"size\":\"96k\"}", NULL);
    ck_assert_uint_eq(st_one(sim, SSDSIM_OP_READ, 0, 4096), 53984);
    ssdsim_get_reliability(sim, &rs);
    ck_assert_uint_eq(rs.uncorrectable, 1);
    ck_assert_uint_eq(rs.reconstructed, 0);
    ssdsim_free(sim);
    ssdsim_model_free(m);
}
END_TEST

/* Read reclaim: disturb 1e-4 per 1000 reads, 4096-bit codewords, t 8, threshold 0.5: a read
 * asks once the block's reads so far r satisfy r / 1000 x 1e-4 x 4096 >= 4, r >= 9765.625: the
 * 9767th read of the block. Its 16 pages (a full, closed block on a 1-die drive) are copied,
 * which is 16 more programs, in the WAF. */
START_TEST(test_read_reclaim)
{
    for (int reads = 9766; reads <= 9767; reads++) {
        ssdsim_model *m =
            drive(1,
                  "\"rber_model\":\"mlc\",\"rber_base\":0,\"rber_wear\":0,\"rber_retention\":0,"
                  "\"rber_disturb\":1e-4,\"rber_disturb_exp\":1,\"rber_variation\":0,"
                  "\"ecc_codeword\":512,\"ecc_t\":8,\"reclaim_threshold\":0.5",
                  NULL);
        ssdsim *sim = st_sim(m, 1);
        st_run(sim, "{\"rw\":\"write\",\"bs\":\"4k\",\"iodepth\":1,\"number_ios\":16}", NULL);
        g_autofree char *wl = g_strdup_printf(
            "{\"rw\":\"read\",\"bs\":\"4k\",\"iodepth\":1,\"size\":\"4k\",\"number_ios\":%d}",
            reads);
        st_run(sim, wl, NULL);
        ssdsim_drain(sim);
        ck_assert_int_eq(ssdsim_idle(sim, 100000000), 0); /* the move finishes */
        ssdsim_reliability_stats rs;
        ssdsim_get_reliability(sim, &rs);
        ssdsim_device_stats d;
        ssdsim_get_device_stats(sim, &d);
        ck_assert_uint_eq(rs.reclaimed_blocks, reads == 9767 ? 1 : 0);
        ck_assert_uint_eq(rs.reclaim_requests, reads == 9767 ? 1 : 0);
        ck_assert_uint_eq(d.gc_pages_copied, reads == 9767 ? 16 : 0);
        ck_assert_uint_eq(d.flash_pages_programmed, reads == 9767 ? 16 : 0);
        st_check(sim);
        ssdsim_free(sim);
        ssdsim_model_free(m);
    }
}
END_TEST

/* Read reclaim's rate limit on a worn, aged drive: 4 dies of 64 blocks, 768 pages written
 * (48 full blocks), worn to 1000 cycles and aged a year, so that every read's expected errors
 * (retention 1e-3 x 2^1.5 x 365^0.5 x 4096 bits = 2214 per codeword) are far above 0.5 x t = 4
 * while wear alone gives none: a read of a block not yet moved asks to move it (the FTL takes
 * one block per plane at a time). With reclaim_max_blocks 1 per reclaim_period_us 50000, the
 * blocks asked during a run that spans simulated times t0 .. t1 are at most
 * floor(t1 / 50 ms) - floor(t0 / 50 ms) + 1 (fixed periods from time 0); the same run without
 * the limit (0) asks for more than that bound, and each block moved copies at most its 16
 * pages. */
START_TEST(test_read_reclaim_rate_limit)
{
    uint64_t unlimited = 0, bound = 0;
    for (int limit = 1; limit >= 0; limit--) {
        g_autofree char *rel = g_strdup_printf(
            "\"rber_model\":\"mlc\",\"rber_base\":0,\"rber_wear\":0,\"rber_retention\":1e-3,"
            "\"rber_retention_wear_exp\":1.5,\"rber_retention_exp\":0.5,\"rber_disturb\":0,"
            "\"rber_variation\":0,\"ecc_codeword\":512,\"ecc_t\":8,\"reclaim_threshold\":0.5,"
            "\"reclaim_max_blocks\":%d,\"reclaim_period_us\":50000",
            limit ? 1 : 0);
        ssdsim_model *m = drive(4, rel, NULL);
        ssdsim *sim = st_sim(m, 1);
        st_run(sim, "{\"rw\":\"write\",\"bs\":\"4k\",\"iodepth\":16,\"number_ios\":768}",
               NULL);
        ck_assert_int_eq(ssdsim_wear(sim, 1000), 0);
        ck_assert_int_eq(ssdsim_age(sim, 365 * 86400.0), 0);
        uint64_t t0 = ssdsim_now(sim);
        st_run(sim,
               "{\"rw\":\"randread\",\"bs\":\"4k\",\"iodepth\":32,\"size\":\"3MiB\","
               "\"number_ios\":3000}",
               NULL);
        ck_assert_int_eq(ssdsim_drain(sim), 0);
        uint64_t t1 = ssdsim_now(sim);
        ssdsim_reliability_stats rs;
        ssdsim_get_reliability(sim, &rs);
        ssdsim_device_stats d;
        ssdsim_get_device_stats(sim, &d);
        if (limit) {
            bound = t1 / 50000000 - t0 / 50000000 + 1;
            ck_assert_uint_le(rs.reclaim_requests, bound);
            ck_assert_uint_gt(rs.reclaim_requests, 0);
        } else {
            unlimited = rs.reclaim_requests;
        }
        ck_assert_uint_le(rs.reclaimed_blocks, rs.reclaim_requests);
        ck_assert_uint_le(d.gc_pages_copied, 16 * rs.reclaimed_blocks);
        st_check(sim);
        ssdsim_free(sim);
        ssdsim_model_free(m);
    }
    ck_assert_msg(unlimited > bound, "without the limit %llu blocks asked, bound %llu",
                  (unsigned long long)unlimited, (unsigned long long)bound);
}
END_TEST

/* Patrol reads every 1 ms of idle time, each 10 us tR + 40.96 us out: in 10 ms of idleness
 * they start at 1 ms, 2.05096 ms, ... k x 1.05096 ms <= 10 ms: 9 of them. */
START_TEST(test_patrol_reads)
{
    ssdsim_model *m = drive(1, "\"rber_model\":\"mlc\",\"patrol_interval_us\":1000", NULL);
    ssdsim *sim = st_sim(m, 1);
    st_run(sim, "{\"rw\":\"write\",\"bs\":\"4k\",\"iodepth\":1,\"number_ios\":40}", NULL);
    ck_assert_int_eq(ssdsim_idle(sim, 10000000), 0);
    ssdsim_reliability_stats rs;
    ssdsim_get_reliability(sim, &rs);
    ck_assert_uint_eq(rs.patrol_reads, 9);
    ck_assert_uint_eq(rs.reads, 9);
    ssdsim_free(sim);
    ssdsim_model_free(m);
}
END_TEST

/* Bad parameters: one message naming the key. */
START_TEST(test_bad_parameters_refused)
{
    static const struct {
        const char *rel, *key;
    } cases[] = {
        {"\"rber_model\":\"tlc\",\"rber_base\":-1e-6", "reliability.rber_base"},
        {"\"rber_model\":\"tlc\",\"rber_retention\":2", "reliability.rber_retention"},
        {"\"rber_model\":\"tlc\",\"retry_factor\":1.5", "reliability.retry_factor"},
        {"\"rber_model\":\"tlc\",\"ecc_codeword\":512,\"ecc_t\":4096", "reliability.ecc_t"},
        {"\"rber_model\":\"tlc\",\"ecc_codeword\":8192", "reliability.ecc_codeword"},
        {"\"rber_model\":\"tlc\",\"soft_t\":10", "reliability.soft_t"},
        {"\"rber_model\":\"tlc\",\"retry_factor\":0", "reliability.retry_factor"},
        {"\"rber_model\":\"warm\"", "reliability.rber_model"},
        {"\"ecc_t\":8", "reliability.ecc_t"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        g_autofree char *json = g_strdup_printf(
            "{\"geometry\":{\"channels\":1,\"chips_per_channel\":1,\"dies_per_chip\":1,"
            "\"planes_per_die\":1,\"blocks_per_plane\":64,\"pages_per_block\":48,"
            "\"page_size\":\"4KiB\"},\"flash\":{\"cell\":\"tlc\",\"read_us\":10,"
            "\"program_us\":20,\"erase_us\":1000,\"bus_mts\":100,\"bus_width\":8},"
            "\"ftl\":{\"op\":0.5},\"reliability\":{%s}}",
            cases[i].rel);
        ssdsim_model *m = NULL;
        ssdsim_error err;
        ck_assert_int_eq(ssdsim_model_load_string(&m, json, "bad", &err), SSDSIM_ECONFIG);
        ck_assert_msg(strstr(err.message, cases[i].key) != NULL, "case %zu: %s", i, err.message);
        ck_assert_msg(strchr(err.message, '\n') == NULL, "case %zu: %s", i, err.message);
    }
}
END_TEST

/* rber_model "off" is the model without the section: the same canonical JSON and results. */
START_TEST(test_off_is_absent)
{
    ssdsim_model *a = drive(2, "", NULL), *b = drive(2, "\"rber_model\":\"off\"", NULL);
    char *ja = ssdsim_model_to_json(a), *jb = ssdsim_model_to_json(b);
    ck_assert_str_eq(ja, jb);
    ck_assert(strstr(ja, "reliability") == NULL);
    free(ja);
    free(jb);
    const char *wl = "{\"rw\":\"randrw\",\"bs\":\"4k\",\"iodepth\":4,\"size\":\"1m\","
                     "\"number_ios\":3000}";
    ssdsim *sa = st_sim(a, 1), *sb = st_sim(b, 1);
    st_run(sa, wl, NULL);
    st_run(sb, wl, NULL);
    ssdsim_reliability_stats rs;
    ssdsim_get_reliability(sa, &rs);
    ck_assert(!rs.on);
    /* No output: refused with its own message, not an earlier call's. */
    ssdsim_interval iv;
    ck_assert_int_eq(ssdsim_get_interval(sa, 99999, &iv), SSDSIM_EINVAL);
    ck_assert_int_eq(ssdsim_get_reliability_sized(sa, NULL, sizeof rs), SSDSIM_EINVAL);
    ck_assert_str_eq(ssdsim_errmsg(sa), "ssdsim_get_reliability: no output");
    char *ra = st_results_json(sa, a), *rb = st_results_json(sb, b);
    ck_assert_str_eq(ra, rb);
    ck_assert(strstr(ra, "reliability") == NULL);
    free(ra);
    free(rb);
}
END_TEST

/* Determinism: the same seed gives the same results with errors on; another seed differs. */
START_TEST(test_deterministic)
{
    char *out[3];
    const uint64_t seeds[3] = {7, 7, 8};
    for (int i = 0; i < 3; i++) {
        g_autofree char *rel = fixed(0.0015, 512, 8, 3, 0.6, 2, 12, NULL);
        ssdsim_model *m = drive(2, rel, NULL);
        ssdsim *sim = st_sim(m, seeds[i]);
        st_run(sim, "{\"rw\":\"randrw\",\"bs\":\"4k\",\"iodepth\":4,\"size\":\"1m\","
                    "\"number_ios\":3000}",
               NULL);
        out[i] = st_results_json(sim, m);
        ck_assert(strstr(out[i], "\"reliability\"") != NULL);
    }
    st_assert_seeded(out[0], out[1], out[2]);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("rel");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_rber_formula);
    tcase_add_test(tc, test_rber_variation);
    tcase_add_test(tc, test_retry_distribution);
    tcase_add_test(tc, test_uber_matches_binomial_tail);
    tcase_add_test(tc, test_latency_is_sum_of_steps);
    tcase_add_test(tc, test_uncorrectable_rebuilt_from_parity);
    tcase_add_test(tc, test_read_reclaim);
    tcase_add_test(tc, test_read_reclaim_rate_limit);
    tcase_add_test(tc, test_patrol_reads);
    tcase_add_test(tc, test_bad_parameters_refused);
    tcase_add_test(tc, test_off_is_absent);
    tcase_add_test(tc, test_deterministic);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
