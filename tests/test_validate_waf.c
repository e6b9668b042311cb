/* test_validate_waf.c: the WAF validation method of the library (ssdsim/validate.h), called from
 * C as research code would call it, without the command.
 *
 * Checks, against figures derived here rather than read back from the library:
 *   - the grids: the quick grid is the 8 points `ssdsim validate waf --help` promises (six
 *     policies at b = 64, sf = 0.2, one hot/cold point, one deviation), the full grids have
 *     the sizes their definitions multiply out to, labels are unique and seeds follow labels;
 *   - a greedy point at b = 32, sf = 0.2 within 2% of Van Houdt's mean-field value 2.514, and a
 *     FIFO point within 2% of the root of Desnoyers' X = exp(-(1 - X) / rho) computed here; the
 *     run lengths follow the trips of doc/validation.md and the counts add up;
 *   - the comparison on hand-made results: U, sf_eff, the difference and the verdict;
 *   - determinism, a device the simulator refuses (the error comes back in the result), and
 *     bogus options and points: every one an error code and a message, never a crash.
 * The runs use small devices (1024 blocks and fewer), so the program takes a few seconds.
 */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "ssdsim/ssdsim.h"
#include "ssdsim/validate.h"
#include "testutil.h"

/* ------------------------------------------------------------------------------------------ */
/* Helpers                                                                                     */

static size_t count(ssdsim_validate_section s, const ssdsim_validate_opts *o)
{
    size_t n = 999;
    ssdsim_error err;
    int rc = ssdsim_validate_grid_count(s, o, &n, &err);
    ck_assert_msg(rc == 0, "grid_count(%d): %d %s", (int)s, rc, err.message);
    return n;
}

static ssdsim_validate_point grid_point(ssdsim_validate_section s, const ssdsim_validate_opts *o,
                                        size_t i)
{
    ssdsim_validate_point p = SSDSIM_VALIDATE_POINT_INIT;
    ssdsim_error err;
    int rc = ssdsim_validate_grid_get(&p, s, o, i, &err);
    ck_assert_msg(rc == 0, "grid_get(%d, %zu): %d %s", (int)s, i, rc, err.message);
    return p;
}

/* A point of the models' setting: one plane, the smallest reserve, one frontier. */
static ssdsim_validate_point setting(const char *policy, uint32_t ppb, double sf, uint32_t blocks)
{
    ssdsim_validate_point p;
    ck_assert_int_eq(ssdsim_validate_point_init(&p, 0), 0);
    p.section = SSDSIM_VALIDATE_UNIFORM;
    snprintf(p.policy, sizeof p.policy, "%s", policy);
    p.pages_per_block = ppb;
    p.spare_factor = sf;
    p.n_blocks = blocks;
    p.seed = 42;
    return p;
}

/* Desnoyers' FIFO fixed point X = exp(-(1 - X) / rho), by bisection on [0, 1): the root below 1
 * (X = 1 is always a root); WAF = 1 / (1 - X). */
static double fifo_waf(double sf)
{
    double rho = 1.0 - sf, lo = 0.0, hi = 1.0 - 1e-12;
    for (int i = 0; i < 200; i++) {
        double x = 0.5 * (lo + hi);
        if (x - exp(-(1.0 - x) / rho) < 0.0)
            lo = x;
        else
            hi = x;
    }
    return 1.0 / (1.0 - 0.5 * (lo + hi));
}

static void assert_within_pct(double got, double want, double tol_pct, const char *what)
{
    ck_assert_msg(fabs(got / want - 1.0) * 100.0 <= tol_pct,
                  "%s: %.4f, expected %.4f (%+.2f%%, tolerance %.1f%%)", what, got, want,
                  100.0 * (got / want - 1.0), tol_pct);
}

/* ------------------------------------------------------------------------------------------ */
/* Grids                                                                                       */

START_TEST(test_validate_waf_quick_grid_is_the_promised_8_points)
{
    ssdsim_validate_opts o = SSDSIM_VALIDATE_OPTS_INIT;
    o.quick = true;
    o.seed = 1;
    ck_assert_uint_eq(count(SSDSIM_VALIDATE_UNIFORM, &o), 6);
    ck_assert_uint_eq(count(SSDSIM_VALIDATE_HOTCOLD, &o), 1);
    ck_assert_uint_eq(count(SSDSIM_VALIDATE_DEVIATION, &o), 1);
    static const char *const want[] = {"greedy",    "fifo",      "random",
                                       "d-choices", "d-choices", "windowed"};
    static const double params[] = {0, 0, 0, 2, 10, 512}; /* windowed: 4096 / 8 blocks */
    for (size_t i = 0; i < 6; i++) {
        ssdsim_validate_point p = grid_point(SSDSIM_VALIDATE_UNIFORM, &o, i);
        ck_assert_str_eq(p.policy, want[i]);
        ck_assert_double_eq(p.param, params[i]);
        ck_assert_uint_eq(p.pages_per_block, 64);
        ck_assert_double_eq(p.spare_factor, 0.2);
        ck_assert_uint_eq(p.n_blocks, 4096);
        ck_assert_uint_eq(p.n_planes, 1);
        ck_assert(!p.gc_separate && !p.hot_cold && p.hot_write_pct == 0);
        ck_assert_uint_eq(p.version, SSDSIM_VALIDATE_POINT_VERSION);
    }
    ssdsim_validate_point g = grid_point(SSDSIM_VALIDATE_UNIFORM, &o, 0);
    ck_assert_str_eq(g.label, "uniform greedy b=64 sf=0.2");
    ck_assert_str_eq(grid_point(SSDSIM_VALIDATE_UNIFORM, &o, 3).label,
                     "uniform d-choices d=2 b=64 sf=0.2");
    ssdsim_validate_point h = grid_point(SSDSIM_VALIDATE_HOTCOLD, &o, 0);
    ck_assert(h.hot_cold && h.hot_write_pct == 80 && h.hot_space_pct == 20);
    ck_assert_str_eq(h.policy, "greedy");
    ck_assert_double_eq(h.spare_factor, 0.2);
    ssdsim_validate_point d = grid_point(SSDSIM_VALIDATE_DEVIATION, &o, 0);
    ck_assert(d.gc_separate);
    ck_assert_str_eq(d.setup, "GC frontier (gc.separate)");
    /* Past the end. */
    ssdsim_validate_point p = SSDSIM_VALIDATE_POINT_INIT;
    ssdsim_error err;
    ck_assert_int_eq(ssdsim_validate_grid_get(&p, SSDSIM_VALIDATE_UNIFORM, &o, 6, &err),
                     SSDSIM_ENOTFOUND);
    ck_assert_ptr_nonnull(strstr(err.message, "6 points"));
}
END_TEST

START_TEST(test_validate_waf_full_grid_sizes)
{
    /* Uniform: 7 policy points (d-choices twice) x 4 block sizes x 5 spare factors; hot/cold:
     * 2 traffics x 4 set-ups x 3 spare factors + 4 hot windows; deviations: 7 set-ups at 4096
     * blocks (8 and 64 planes both keep 16 blocks per plane) x 2 spare factors. */
    ck_assert_uint_eq(count(SSDSIM_VALIDATE_UNIFORM, NULL), 7 * 4 * 5);
    ck_assert_uint_eq(count(SSDSIM_VALIDATE_HOTCOLD, NULL), 2 * 4 * 3 + 4);
    ck_assert_uint_eq(count(SSDSIM_VALIDATE_DEVIATION, NULL), 7 * 2);
    /* 256 blocks: 64 planes would leave 4 blocks per plane and are left out. */
    ssdsim_validate_opts o = SSDSIM_VALIDATE_OPTS_INIT;
    o.n_blocks = 256;
    ck_assert_uint_eq(count(SSDSIM_VALIDATE_DEVIATION, &o), 6 * 2);
    /* The caller's lists: plain d-choices is d = 2 and d = 10. */
    const char *pol[] = {"d-choices", "windowed:7"};
    double sf[] = {0.1, 0.3, 0.25};
    uint32_t ppb[] = {8};
    o.policies = pol;
    o.n_policies = 2;
    o.spare_factors = sf;
    o.n_spare_factors = 3;
    o.pages_per_block = ppb;
    o.n_pages_per_block = 1;
    ck_assert_uint_eq(count(SSDSIM_VALIDATE_UNIFORM, &o), 3 * 3);
    ssdsim_validate_point p = grid_point(SSDSIM_VALIDATE_UNIFORM, &o, 3 + 2);
    ck_assert_str_eq(p.label, "uniform d-choices d=10 b=8 sf=0.25");
    p = grid_point(SSDSIM_VALIDATE_UNIFORM, &o, 6);
    ck_assert_str_eq(p.policy, "windowed");
    ck_assert_double_eq(p.param, 7);
    /* Every label of the default grids is unique, every deviation divides its planes. */
    char seen[200][112];
    size_t n = 0;
    for (int s = 0; s < SSDSIM_VALIDATE_N_SECTIONS; s++) {
        size_t k = count((ssdsim_validate_section)s, NULL);
        for (size_t i = 0; i < k; i++) {
            p = grid_point((ssdsim_validate_section)s, NULL, i);
            ck_assert_uint_eq(p.n_blocks % p.n_planes, 0);
            for (size_t j = 0; j < n; j++)
                ck_assert_msg(strcmp(seen[j], p.label), "label '%s' twice", p.label);
            ck_assert_uint_lt(n, 200);
            snprintf(seen[n++], sizeof seen[0], "%s", p.label);
        }
    }
    ck_assert_uint_eq(n, 140 + 28 + 14);
}
END_TEST

START_TEST(test_validate_waf_seed_follows_label_and_base)
{
    ssdsim_validate_opts quick = SSDSIM_VALIDATE_OPTS_INIT, full = SSDSIM_VALIDATE_OPTS_INIT;
    quick.quick = true;
    quick.seed = full.seed = 7;
    /* "uniform greedy b=64 sf=0.2" is point 0 of the quick grid and point 7 of the full one
     * (greedy first; b = 32 with its 5 spare factors, then b = 64 and its third, 0.2). */
    ssdsim_validate_point a = grid_point(SSDSIM_VALIDATE_UNIFORM, &quick, 0);
    ssdsim_validate_point b = grid_point(SSDSIM_VALIDATE_UNIFORM, &full, 7);
    ck_assert_str_eq(a.label, b.label);
    ck_assert_uint_eq(a.seed, b.seed);
    ck_assert_uint_lt(a.seed, UINT64_C(1) << 53);
    ssdsim_validate_point c = grid_point(SSDSIM_VALIDATE_UNIFORM, &full, 8);
    ck_assert_uint_ne(b.seed, c.seed);
    full.seed = 8;
    ck_assert_uint_ne(grid_point(SSDSIM_VALIDATE_UNIFORM, &full, 7).seed, b.seed);
}
END_TEST

START_TEST(test_validate_waf_policy_label)
{
    char buf[32];
    ck_assert_int_eq(ssdsim_validate_policy_label("d-choices", 2, buf, sizeof buf), 13);
    ck_assert_str_eq(buf, "d-choices d=2");
    ssdsim_validate_policy_label("windowed", 512, buf, sizeof buf);
    ck_assert_str_eq(buf, "windowed w=512");
    ssdsim_validate_policy_label("cost-benefit", 0, buf, sizeof buf);
    ck_assert_str_eq(buf, "cost-benefit");
    ck_assert_int_eq(ssdsim_validate_policy_label("greedy", 0, buf, 3), 6);
    ck_assert_str_eq(buf, "gr");
    ck_assert_int_eq(ssdsim_validate_policy_label(NULL, 0, buf, sizeof buf), SSDSIM_EINVAL);
    ck_assert_int_eq(ssdsim_validate_policy_label("greedy", 0, NULL, 4), SSDSIM_EINVAL);
    ck_assert_str_eq(ssdsim_validate_section_name(SSDSIM_VALIDATE_HOTCOLD), "hotcold");
    ck_assert_ptr_null(ssdsim_validate_section_name((ssdsim_validate_section)3));
}
END_TEST

/* ------------------------------------------------------------------------------------------ */
/* Runs against the models                                                                     */

START_TEST(test_validate_waf_greedy_point_within_2pct_of_van_houdt)
{
    ssdsim_validate_point p = setting("greedy", 32, 0.2, 1024);
    ssdsim_validate_result r;
    int rc = ssdsim_validate_point_run(&p, NULL, &r);
    ck_assert_msg(rc == 0, "%d: %s", rc, r.error);
    ck_assert_int_eq(r.status, 0);
    ck_assert_str_eq(r.error, "");
    /* Van Houdt's greedy mean field at b = 32, sf = 0.2 (test_theory.c's table). */
    assert_within_pct(r.waf, 2.514, SSDSIM_VALIDATE_TOLERANCE_PCT, "greedy b=32 sf=0.2");
    assert_within_pct(r.waf_model, 2.514, 0.1, "the greedy model");
    ck_assert_str_eq(r.model, "greedy mean field (Bux-Iliadis, Van Houdt)");
    ck_assert_int_eq(r.verdict, fabs(r.diff_pct) <= SSDSIM_VALIDATE_TOLERANCE_PCT
                                    ? SSDSIM_VALIDATE_WITHIN
                                    : SSDSIM_VALIDATE_OUTSIDE);
    ck_assert_double_eq_tol(r.diff_pct, 100.0 * (r.waf / r.waf_model - 1.0), 1e-9);
    /* The counts: 8 batches of one trip, a trip being P / WAF host writes with the model's WAF
     * at the requested spare factor, the warm-up 8 trips; the WAF is their ratio. */
    double w;
    ck_assert_int_eq(ssdsim_theory_waf("greedy", 32, 0.2, 0.0, &w), 0);
    uint64_t trip = (uint64_t)ceil(1024.0 * 32 / w);
    ck_assert_uint_eq(r.batch_host_pages, trip);
    ck_assert_uint_eq(r.warmup_host_pages, 8 * trip);
    ck_assert_uint_eq(r.host_pages, 8 * trip);
    ck_assert_double_eq_tol(r.waf, (double)r.flash_pages / (double)r.host_pages, 1e-12);
    ck_assert_double_eq_tol(r.spare_factor, 0.2, 0.002);
    ck_assert_double_eq_tol(r.op, r.spare_factor / (1.0 - r.spare_factor), 1e-9);
    ck_assert(isfinite(r.waf_stderr) && r.waf_stderr > 0 && r.waf_stderr < 0.01 * r.waf);
    ck_assert(isfinite(r.drift_pct) && fabs(r.drift_pct) < 2.0);
    /* One frontier: U is the mean free blocks, sf_eff = sf - U / N. */
    ck_assert_double_eq_tol(r.unused_blocks, r.free_blocks_mean, 1e-12);
    ck_assert_double_eq_tol(r.spare_factor_eff, r.spare_factor - r.free_blocks_mean / 1024, 1e-12);
    ck_assert(r.free_blocks_mean >= 1.0 && r.free_blocks_mean < 4.0);
    ck_assert_str_eq(r.reference, "");
    ck_assert(isnan(r.waf_reference) && isnan(r.hot_spare_share));
}
END_TEST

START_TEST(test_validate_waf_fifo_point_within_2pct_of_desnoyers)
{
    ssdsim_validate_point p = setting("fifo", 32, 0.2, 1024);
    ssdsim_validate_opts o = SSDSIM_VALIDATE_OPTS_INIT;
    o.warmup_trips = 6;
    o.n_batches = 6;
    ssdsim_validate_result r;
    ck_assert_int_eq(ssdsim_validate_point_run(&p, &o, &r), 0);
    double want = fifo_waf(0.2);
    ck_assert_double_eq_tol(want, 2.6926, 0.001); /* doc/validation.md's table */
    assert_within_pct(r.waf, want, SSDSIM_VALIDATE_TOLERANCE_PCT, "fifo b=32 sf=0.2");
    assert_within_pct(r.waf_model, want, 0.1, "the FIFO model");
    double w;
    ck_assert_int_eq(ssdsim_theory_waf("fifo", 32, 0.2, 0.0, &w), 0);
    uint64_t trip = (uint64_t)ceil(1024.0 * 32 / w);
    ck_assert_uint_eq(r.warmup_host_pages, 6 * trip);
    ck_assert_uint_eq(r.host_pages, 6 * trip);
}
END_TEST

START_TEST(test_validate_waf_run_is_deterministic)
{
    ssdsim_validate_point p = setting("d-choices", 8, 0.25, 64);
    p.param = 2;
    ssdsim_validate_opts o = SSDSIM_VALIDATE_OPTS_INIT;
    o.n_batches = 1;
    ssdsim_validate_result a, b;
    memset(&a, 0xAA, sizeof a);
    memset(&b, 0x55, sizeof b);
    ck_assert_int_eq(ssdsim_validate_point_run(&p, &o, &a), 0);
    ck_assert_int_eq(ssdsim_validate_point_run(&p, &o, &b), 0);
    ck_assert_int_eq(memcmp(&a, &b, sizeof a), 0);
    /* One batch: no spread and no drift. */
    ck_assert(isnan(a.waf_stderr) && isnan(a.drift_pct));
    ck_assert(isfinite(a.waf) && a.waf > 1.0);
    /* Another seed, another run. */
    p.seed = 43;
    ck_assert_int_eq(ssdsim_validate_point_run(&p, &o, &b), 0);
    ck_assert(a.flash_pages != b.flash_pages || a.free_blocks_mean != b.free_blocks_mean);
}
END_TEST

START_TEST(test_validate_waf_refused_device_fails_in_the_result)
{
    /* 256 blocks at sf = 0.1 have 25.6 spare blocks: a reserve of 64 cannot be kept. */
    ssdsim_validate_point p = setting("greedy", 64, 0.1, 256);
    p.section = SSDSIM_VALIDATE_DEVIATION;
    p.free_blocks_min = 64;
    ssdsim_validate_result r;
    int rc = ssdsim_validate_point_run(&p, NULL, &r);
    ck_assert_int_lt(rc, 0);
    ck_assert_int_eq(r.status, rc);
    ck_assert_msg(strlen(r.error) > 0 && !strchr(r.error, '\n'), "error '%s'", r.error);
    ck_assert_int_eq(r.verdict, SSDSIM_VALIDATE_FAILED);
    ck_assert(isnan(r.waf) && isnan(r.waf_model) && isnan(r.diff_pct) && isnan(r.spare_factor_eff));
    ck_assert_str_eq(r.model, "greedy mean field (Bux-Iliadis, Van Houdt)");
}
END_TEST

/* ------------------------------------------------------------------------------------------ */
/* The comparison and the cost                                                                 */

START_TEST(test_validate_waf_compare_hand_made_results)
{
    ssdsim_validate_point p = setting("greedy", 64, 0.2, 4096);
    ssdsim_validate_result r;
    memset(&r, 0, sizeof r);
    r.spare_factor = 0.2;
    r.free_blocks_mean = 1.5;
    r.waf = 2.6;
    ck_assert_int_eq(ssdsim_validate_point_compare(&p, &r), 0);
    /* Van Houdt: 2.599 at b = 64, sf = 0.2. */
    ck_assert_double_eq_tol(r.waf_model, 2.599, 0.002);
    ck_assert_double_eq_tol(r.diff_pct, 100.0 * (2.6 / r.waf_model - 1.0), 1e-9);
    ck_assert_int_eq(r.verdict, SSDSIM_VALIDATE_WITHIN);
    ck_assert_double_eq_tol(r.unused_blocks, 1.5, 1e-12);
    ck_assert_double_eq_tol(r.spare_factor_eff, 0.2 - 1.5 / 4096, 1e-12);
    ck_assert(r.waf_model_eff > r.waf_model); /* less spare, more WAF */
    r.waf = 2.7;                              /* +3.9% */
    ssdsim_validate_point_compare(&p, &r);
    ck_assert_int_eq(r.verdict, SSDSIM_VALIDATE_OUTSIDE);
    /* A GC frontier of its own: half a block more unused. */
    p.gc_separate = true;
    ssdsim_validate_point_compare(&p, &r);
    ck_assert_double_eq_tol(r.unused_blocks, 2.0, 1e-12);
    /* Random: 1 / sf exactly. */
    ssdsim_validate_point q = setting("random", 64, 0.2, 4096);
    ssdsim_validate_point_compare(&q, &r);
    ck_assert_double_eq_tol(r.waf_model, 5.0, 1e-9);
    /* Cost-benefit has no model. */
    q = setting("cost-benefit", 64, 0.2, 4096);
    ssdsim_validate_point_compare(&q, &r);
    ck_assert_int_eq(r.verdict, SSDSIM_VALIDATE_NO_MODEL);
    ck_assert_str_eq(r.model, "");
    ck_assert(isnan(r.waf_model) && isnan(r.diff_pct));
    /* Hot/cold separated, 80/20: Desnoyers' pools below the uniform-traffic greedy reference. */
    q = setting("greedy", 64, 0.2, 4096);
    q.section = SSDSIM_VALIDATE_HOTCOLD;
    q.hot_cold = true;
    q.hot_write_pct = 80;
    q.hot_space_pct = 20;
    ssdsim_validate_point_compare(&q, &r);
    ck_assert_ptr_nonnull(strstr(r.model, "Desnoyers"));
    ck_assert_str_eq(r.reference, "uniform-traffic greedy");
    ck_assert_double_eq_tol(r.waf_reference, 2.599, 0.002);
    ck_assert(r.waf_model < r.waf_reference);
    ck_assert(r.hot_spare_share > 0.0 && r.hot_spare_share < 1.0);
    /* Hot and cold U: two frontiers. */
    ck_assert_double_eq_tol(r.unused_blocks, 2.0, 1e-12);
    /* A failed point: every figure NaN, the model still named. */
    r.status = SSDSIM_EIO;
    ssdsim_validate_point_compare(&q, &r);
    ck_assert_int_eq(r.verdict, SSDSIM_VALIDATE_FAILED);
    ck_assert(isnan(r.waf) && isnan(r.spare_factor) && isnan(r.waf_model) &&
              isnan(r.waf_reference) && isnan(r.unused_blocks));
    ck_assert_ptr_nonnull(strstr(r.model, "Desnoyers"));
    ck_assert_str_eq(r.reference, "");
}
END_TEST

START_TEST(test_validate_waf_cost_is_trips_times_physical_pages)
{
    /* Uniform traffic: 8 + 8 trips of P pages programmed each. */
    ssdsim_validate_point p = setting("greedy", 64, 0.2, 4096);
    double cost = 0;
    ck_assert_int_eq(ssdsim_validate_point_cost(&p, NULL, &cost), 0);
    assert_within_pct(cost, 16.0 * 4096 * 64, 0.01, "cost");
    ssdsim_validate_opts o = SSDSIM_VALIDATE_OPTS_INIT;
    o.warmup_trips = 2;
    o.n_batches = 3;
    ck_assert_int_eq(ssdsim_validate_point_cost(&p, &o, &cost), 0);
    assert_within_pct(cost, 5.0 * 4096 * 64, 0.01, "cost");
    ck_assert_int_eq(ssdsim_validate_point_cost(&p, &o, NULL), SSDSIM_EINVAL);
    p.n_blocks = 0;
    ck_assert_int_eq(ssdsim_validate_point_cost(&p, &o, &cost), SSDSIM_EINVAL);
}
END_TEST

/* ------------------------------------------------------------------------------------------ */
/* Bogus input                                                                                 */

/* grid_count refuses `o` with SSDSIM_EINVAL and a message holding `what`. */
static void assert_refused(const ssdsim_validate_opts *o, const char *what)
{
    size_t n = 5;
    ssdsim_error err;
    memset(&err, 0, sizeof err);
    ck_assert_int_eq(ssdsim_validate_grid_count(SSDSIM_VALIDATE_UNIFORM, o, &n, &err),
                     SSDSIM_EINVAL);
    ck_assert_int_eq(err.code, SSDSIM_EINVAL);
    ck_assert_msg(strstr(err.message, what), "'%s' does not name '%s'", err.message, what);
    ck_assert_uint_eq(n, 0);
    ck_assert_int_eq(ssdsim_validate_grid_count(SSDSIM_VALIDATE_UNIFORM, o, &n, NULL),
                     SSDSIM_EINVAL);
}

START_TEST(test_validate_waf_bogus_options)
{
    ssdsim_validate_opts o;
    ck_assert_int_eq(ssdsim_validate_opts_init(NULL, 0), SSDSIM_EINVAL);
    ck_assert_int_eq(ssdsim_validate_opts_init(&o, SSDSIM_VALIDATE_OPTS_VERSION + 1),
                     SSDSIM_EINVAL);
    ck_assert_int_eq(ssdsim_validate_opts_init(&o, 0), 0);
    ck_assert_uint_eq(o.version, SSDSIM_VALIDATE_OPTS_VERSION);

    static const double bad_sf[] = {1.5, 0.0, 1.0, -0.2, NAN};
    for (size_t i = 0; i < sizeof bad_sf / sizeof *bad_sf; i++) {
        ssdsim_validate_opts_init(&o, 0);
        double sf[] = {0.2, bad_sf[i]};
        o.spare_factors = sf;
        o.n_spare_factors = 2;
        assert_refused(&o, "spare_factors[1]");
    }
    ssdsim_validate_opts_init(&o, 0);
    o.n_blocks = 10;
    assert_refused(&o, "n_blocks");
    o.n_blocks = 2000000;
    assert_refused(&o, "n_blocks");
    ssdsim_validate_opts_init(&o, 0);
    o.version = 99;
    assert_refused(&o, "newer");
    ssdsim_validate_opts_init(&o, 0);
    o.n_batches = SSDSIM_VALIDATE_MAX_BATCHES + 1;
    assert_refused(&o, "n_batches");
    ssdsim_validate_opts_init(&o, 0);
    o.seed = UINT64_C(1) << 53;
    assert_refused(&o, "seed");
    static const char *const bad_policy[] = {"foo",        "greedy:3",          "windowed:0",
                                             "d-choices:", "d-choices:1048577", "d-choices:+4",
                                             "windowed:8k"};
    for (size_t i = 0; i < sizeof bad_policy / sizeof *bad_policy; i++) {
        ssdsim_validate_opts_init(&o, 0);
        const char *pol[] = {bad_policy[i]};
        o.policies = pol;
        o.n_policies = 1;
        assert_refused(&o, "policies[0]");
    }
    ssdsim_validate_opts_init(&o, 0);
    const char *nullpol[] = {NULL};
    o.policies = nullpol;
    o.n_policies = 1;
    assert_refused(&o, "policies[0]");
    ssdsim_validate_opts_init(&o, 0);
    uint32_t ppb[] = {1};
    o.pages_per_block = ppb;
    o.n_pages_per_block = 1;
    assert_refused(&o, "pages_per_block[0]");
    ssdsim_validate_opts_init(&o, 0);
    o.n_spare_factors = 3; /* with a NULL list */
    assert_refused(&o, "NULL");

    ssdsim_error err;
    ck_assert_int_eq(ssdsim_validate_grid_count(SSDSIM_VALIDATE_UNIFORM, NULL, NULL, &err),
                     SSDSIM_EINVAL);
    size_t n;
    ck_assert_int_eq(ssdsim_validate_grid_count((ssdsim_validate_section)7, NULL, &n, &err),
                     SSDSIM_EINVAL);
    ck_assert_ptr_nonnull(strstr(err.message, "section"));
    ck_assert_int_eq(ssdsim_validate_grid_get(NULL, SSDSIM_VALIDATE_UNIFORM, NULL, 0, &err),
                     SSDSIM_EINVAL);
    ssdsim_validate_point p = SSDSIM_VALIDATE_POINT_INIT;
    p.version = 99;
    ck_assert_int_eq(ssdsim_validate_grid_get(&p, SSDSIM_VALIDATE_UNIFORM, NULL, 0, &err),
                     SSDSIM_EINVAL);
    ck_assert_ptr_nonnull(strstr(err.message, "newer"));
    /* Bad options reach a run as a failed result. */
    ssdsim_validate_opts_init(&o, 0);
    o.n_batches = 99;
    ssdsim_validate_point q = setting("greedy", 8, 0.25, 64);
    ssdsim_validate_result r;
    ck_assert_int_eq(ssdsim_validate_point_run(&q, &o, &r), SSDSIM_EINVAL);
    ck_assert_ptr_nonnull(strstr(r.error, "n_batches"));
    ck_assert_int_eq(r.verdict, SSDSIM_VALIDATE_FAILED);
}
END_TEST

/* ssdsim_validate_point_run refuses the point with SSDSIM_EINVAL and a message holding `what`,
 * every figure NaN. */
static void assert_point_refused(const ssdsim_validate_point *p, const char *what)
{
    ssdsim_validate_result r;
    memset(&r, 0x5A, sizeof r);
    ck_assert_int_eq(ssdsim_validate_point_run(p, NULL, &r), SSDSIM_EINVAL);
    ck_assert_int_eq(r.status, SSDSIM_EINVAL);
    ck_assert_msg(strstr(r.error, what), "'%s' does not name '%s'", r.error, what);
    ck_assert_int_eq(r.verdict, SSDSIM_VALIDATE_FAILED);
    ck_assert(isnan(r.waf) && isnan(r.waf_model) && isnan(r.spare_factor));
    ck_assert_uint_eq(r.host_pages, 0);
    double cost;
    ck_assert_int_eq(ssdsim_validate_point_cost(p, NULL, &cost), SSDSIM_EINVAL);
    if (p)
        ck_assert_int_eq(ssdsim_validate_point_compare(p, &r), SSDSIM_EINVAL);
}

START_TEST(test_validate_waf_bogus_points)
{
    ssdsim_validate_point p;
    ck_assert_int_eq(ssdsim_validate_point_init(NULL, 0), SSDSIM_EINVAL);
    ck_assert_int_eq(ssdsim_validate_point_init(&p, 2), SSDSIM_EINVAL);
    assert_point_refused(NULL, "NULL");
    p = setting("greedy", 64, 0.2, 0);
    assert_point_refused(&p, "n_blocks");
    p = setting("greedy", 64, 0.2, 100);
    p.n_planes = 8;
    assert_point_refused(&p, "n_blocks");
    p = setting("greedy", 64, 1.5, 1024);
    assert_point_refused(&p, "spare_factor");
    p = setting("greedy", 64, NAN, 1024);
    assert_point_refused(&p, "spare_factor");
    p = setting("greedy", 1, 0.2, 1024);
    assert_point_refused(&p, "pages_per_block");
    p = setting("", 64, 0.2, 1024);
    assert_point_refused(&p, "policy");
    p = setting("greedy\", \"x\": \"", 64, 0.2, 1024);
    assert_point_refused(&p, "policy");
    p = setting("greedy", 64, 0.2, 1024);
    p.hot_write_pct = 80; /* without the space fraction */
    assert_point_refused(&p, "hot_space_pct");
    p = setting("greedy", 64, 0.2, 1024);
    p.section = (ssdsim_validate_section)5;
    assert_point_refused(&p, "section");
    p = setting("greedy", 64, 0.2, 1024);
    p.hot_window = -1;
    assert_point_refused(&p, "hot_window");
    p = setting("greedy", 64, 0.2, 1024);
    p.version = 3;
    assert_point_refused(&p, "newer");
    /* No place for the result. */
    p = setting("greedy", 64, 0.2, 1024);
    ck_assert_int_eq(ssdsim_validate_point_run(&p, NULL, NULL), SSDSIM_EINVAL);
    ck_assert_int_eq(ssdsim_validate_point_compare(&p, NULL), SSDSIM_EINVAL);
    /* A policy the simulator does not know: refused by the device's loader, in the result. */
    p = setting("no-such-policy", 8, 0.25, 64);
    ssdsim_validate_result r;
    ck_assert_int_lt(ssdsim_validate_point_run(&p, NULL, &r), 0);
    ck_assert_ptr_nonnull(strstr(r.error, "no-such-policy"));
}
END_TEST

/* A caller compiled when the result was smaller (the 1.0 layout) and one whose struct is larger
 * (a later library's): each gets exactly its size written, the bytes this library does not know
 * zeroed (ssdsim__result_give's rule for every *_sized getter). */
START_TEST(test_validate_waf_result_sizes)
{
    ssdsim_validate_point p = setting("greedy", 64, 0.2, 4096);
    unsigned char buf[sizeof(ssdsim_validate_result) + 64];
    ssdsim_validate_result *r = (ssdsim_validate_result *)(void *)buf;
    memset(buf, 0xAB, sizeof buf);
    memset(r, 0, sizeof *r);
    r->spare_factor = 0.2;
    r->waf = 2.6;
    ck_assert_int_eq(ssdsim_validate_point_compare_sized(&p, r, sizeof buf), 0);
    ck_assert_double_eq_tol(r->waf_model, 2.599, 0.002);
    for (size_t i = sizeof *r; i < sizeof buf; i++)
        ck_assert_uint_eq(buf[i], 0);
    /* Smaller than the 1.0 layout: refused, nothing written. */
    ck_assert_int_eq(ssdsim_validate_point_compare_sized(&p, r, 8), SSDSIM_EINVAL);
    /* The plain function writes the 1.0 layout. */
    ck_assert_int_eq((ssdsim_validate_point_compare)(&p, r), 0);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("validate_waf");
    TCase *grid = tcase_create("grid");
    tcase_add_test(grid, test_validate_waf_quick_grid_is_the_promised_8_points);
    tcase_add_test(grid, test_validate_waf_full_grid_sizes);
    tcase_add_test(grid, test_validate_waf_seed_follows_label_and_base);
    tcase_add_test(grid, test_validate_waf_policy_label);
    suite_add_tcase(s, grid);
    TCase *run = tcase_create("run");
    tcase_add_test(run, test_validate_waf_greedy_point_within_2pct_of_van_houdt);
    tcase_add_test(run, test_validate_waf_fifo_point_within_2pct_of_desnoyers);
    tcase_add_test(run, test_validate_waf_run_is_deterministic);
    tcase_add_test(run, test_validate_waf_refused_device_fails_in_the_result);
    suite_add_tcase(s, run);
    TCase *cmp = tcase_create("compare");
    tcase_add_test(cmp, test_validate_waf_compare_hand_made_results);
    tcase_add_test(cmp, test_validate_waf_cost_is_trips_times_physical_pages);
    tcase_add_test(cmp, test_validate_waf_result_sizes);
    suite_add_tcase(s, cmp);
    TCase *bogus = tcase_create("bogus");
    tcase_add_test(bogus, test_validate_waf_bogus_options);
    tcase_add_test(bogus, test_validate_waf_bogus_points);
    suite_add_tcase(s, bogus);
    return test_run_suite(s);
}
