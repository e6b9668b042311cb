/* test_point.c: one point of a measurement from C (ssdsim/point.h): overrides, seeds, grids,
 * names and runs.
 *
 * Checked against values derived here, independently of the library: the grid order and the
 * names are written out by hand; the seed is recomputed from its documented formula (FNV-1a,
 * splitmix64 finalizer, top 53 bits) and compared with what `ssdsim sweep --emit` records in
 * its manifest; a point run is compared with the same steps done by hand through ssdsim.h
 * (ssdsim_new, ssdsim_precondition_seq_fills, ssdsim_run), results JSON byte for byte; a
 * manifest line is written out by hand and its hash recomputed, and the lines `ssdsim sweep
 * --emit` writes are parsed and formatted again to the same text. Bogus input: unknown keys,
 * malformed overrides, bad option versions, bad grids, lines that are not a manifest's.
 *
 * Writes only under BUILDDIR/tests/out/point*, so `make distcheck` passes.
 */
#include <cJSON.h>
#include <glib.h>
#include <inttypes.h>
#include <stdlib.h>
#include <unistd.h>
#include <stdint.h>
#include <string.h>

#include "ssdsim/point.h"
#include "ssdsim/ssdsim.h"
#include "testutil.h"
#include "cmdtest.h"

/* 2 dies x 64 blocks x 64 pages of 4 KiB, SLC: a point runs in milliseconds. */
static const char small_model[] =
    "{\"name\": \"point-small\","
    " \"geometry\": {\"channels\": 2, \"chips_per_channel\": 1, \"dies_per_chip\": 1,"
    "  \"planes_per_die\": 1, \"blocks_per_plane\": 64, \"pages_per_block\": 64,"
    "  \"page_size\": \"4KiB\"},"
    " \"flash\": {\"cell\": \"slc\", \"read_us\": 20, \"program_us\": 200, \"erase_us\": 1000,"
    "  \"bus_mts\": 100, \"bus_width\": 8},"
    " \"ftl\": {\"type\": \"page\", \"op\": 0.28}}";

static ssdsim_model *load_small(void)
{
    ssdsim_model *m = NULL;
    ssdsim_error err;
    ck_assert_msg(ssdsim_model_load_string(&m, small_model, "small", &err) == 0, "%s",
                  err.message);
    return m;
}

/* 4 KiB random writes, `n` of them, built with the workload builder. */
static ssdsim_workload *randwrite(int64_t n)
{
    ssdsim_workload *wl = NULL;
    ssdsim_error err;
    ck_assert_int_eq(ssdsim_workload_new(&wl, "randwrite", &err), 0);
    ck_assert_int_eq(ssdsim_workload_set(wl, "rw", "randwrite", &err), 0);
    ck_assert_int_eq(ssdsim_workload_set(wl, "bs", "4k", &err), 0);
    ck_assert_int_eq(ssdsim_workload_set_int(wl, "number_ios", n, &err), 0);
    return wl;
}

/* The documented seed, computed here: FNV-1a 64 of "seed=BASE;K1=V1;K2=V2;" (keys in byte
 * order), splitmix64 finalizer, top 53 bits. The pairs must be given sorted by key. */
static uint64_t fnv(uint64_t h, const char *s)
{
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * UINT64_C(0x100000001b3);
    return h;
}

static uint64_t expected_seed(uint64_t base, const char *const *sorted_kv, size_t n)
{
    char head[64];
    snprintf(head, sizeof head, "seed=%" PRIu64 ";", base);
    uint64_t h = fnv(UINT64_C(0xcbf29ce484222325), head);
    for (size_t i = 0; i < n; i++)
        h = fnv(fnv(h, sorted_kv[i]), ";");
    h = (h ^ (h >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
    h = (h ^ (h >> 27)) * UINT64_C(0x94d049bb133111eb);
    h ^= h >> 31;
    return h >> 11;
}

START_TEST(test_point_grid_order_and_names)
{
    ssdsim_point_grid *g = NULL;
    ssdsim_error err;
    ck_assert_int_eq(ssdsim_point_grid_new(&g), 0);
    ck_assert_uint_eq(ssdsim_point_grid_n_points(g), 1);
    ck_assert_int_eq(ssdsim_point_grid_add(g, "ftl.op", "0.2, 0.3", &err), 0);
    ck_assert_int_eq(ssdsim_point_grid_add(g, "workload.iodepth", "1,4,8", &err), 0);
    ck_assert_uint_eq(ssdsim_point_grid_n_keys(g), 2);
    ck_assert_uint_eq(ssdsim_point_grid_n_points(g), 6);
    ck_assert_uint_eq(ssdsim_point_grid_n_values(g, 1), 3);
    ck_assert_str_eq(ssdsim_point_grid_value(g, 0, 1), "0.3"); /* blanks dropped */
    ck_assert_ptr_null(ssdsim_point_grid_value(g, 1, 3));
    ck_assert_ptr_null(ssdsim_point_grid_key(g, 2));
    /* The first key varies slowest. */
    static const char *const want[6][3] = {
        {"0.2", "1", "ftl.op-0.2__workload.iodepth-1"}, {"0.2", "4", "ftl.op-0.2__workload.iodepth-4"},
        {"0.2", "8", "ftl.op-0.2__workload.iodepth-8"}, {"0.3", "1", "ftl.op-0.3__workload.iodepth-1"},
        {"0.3", "4", "ftl.op-0.3__workload.iodepth-4"}, {"0.3", "8", "ftl.op-0.3__workload.iodepth-8"}};
    const char *keys[2] = {ssdsim_point_grid_key(g, 0), ssdsim_point_grid_key(g, 1)};
    for (uint64_t k = 0; k < 6; k++) {
        const char *v[2];
        ck_assert_int_eq(ssdsim_point_grid_values(g, k, v), 0);
        ck_assert_str_eq(v[0], want[k][0]);
        ck_assert_str_eq(v[1], want[k][1]);
        char *name = ssdsim_point_name(keys, v, 2);
        ck_assert_str_eq(name, want[k][2]);
        free(name);
    }
    const char *v[2];
    ck_assert_int_eq(ssdsim_point_grid_values(g, 6, v), SSDSIM_EINVAL);
    ssdsim_point_grid_free(g);
    ssdsim_point_grid_free(NULL);
}
END_TEST

START_TEST(test_point_grid_bogus)
{
    ssdsim_point_grid *g = NULL;
    ssdsim_error err;
    ck_assert_int_eq(ssdsim_point_grid_new(&g), 0);
    ck_assert_int_eq(ssdsim_point_grid_add(g, "ftl.op", "0.2,0.2", &err), SSDSIM_EINVAL);
    ck_assert_str_eq(err.message, "ftl.op: value '0.2' is given twice");
    ck_assert_int_eq(ssdsim_point_grid_add(g, "ftl.op", "0.2,", &err), SSDSIM_EINVAL);
    ck_assert_str_eq(err.message, "ftl.op: empty value in '0.2,'");
    ck_assert_int_eq(ssdsim_point_grid_add(g, "x", "[1,2", &err), SSDSIM_EINVAL);
    ck_assert_str_eq(err.message, "x: unbalanced brackets or quotes in '[1,2'");
    ck_assert_int_eq(ssdsim_point_grid_add(g, "", "1", &err), SSDSIM_EINVAL);
    ck_assert_int_eq(ssdsim_point_grid_add(g, "x", NULL, &err), SSDSIM_EINVAL);
    ck_assert_uint_eq(ssdsim_point_grid_n_keys(g), 0); /* failures change nothing */
    /* JSON values keep their commas; quoted commas too. */
    ck_assert_int_eq(ssdsim_point_grid_add(g, "a", "[1,2],{\"b\":3},\"x,y\"", &err), 0);
    ck_assert_uint_eq(ssdsim_point_grid_n_values(g, 0), 3);
    ck_assert_str_eq(ssdsim_point_grid_value(g, 0, 2), "\"x,y\"");
    ck_assert_int_eq(ssdsim_point_grid_add(g, "a", "5", &err), SSDSIM_ESTATE);
    /* 2^53 points at most: 54 keys of 2 values pass it. */
    char key[16];
    int rc = 0;
    for (int i = 0; i < 60 && rc == 0; i++) {
        snprintf(key, sizeof key, "k%d", i);
        rc = ssdsim_point_grid_add(g, key, "0,1", &err);
    }
    ck_assert_int_eq(rc, SSDSIM_ERANGE);
    ck_assert_uint_le(ssdsim_point_grid_n_points(g), UINT64_C(1) << 53);
    ck_assert_int_eq(ssdsim_point_grid_new(NULL), SSDSIM_EINVAL);
    ck_assert_int_eq(ssdsim_point_grid_values(NULL, 0, NULL), SSDSIM_EINVAL);
    ssdsim_point_grid_free(g);
}
END_TEST

START_TEST(test_point_name_safe_and_long)
{
    const char *k[2] = {"a/b", "workload.bs"};
    const char *v[2] = {"[1, 2]", "4k"};
    char *name = ssdsim_point_name(k, v, 2);
    ck_assert_str_eq(name, "a_b-_1__2___workload.bs-4k");
    free(name);
    /* Longer than 200: cut to 183 bytes, then '~' and the FNV-1a of "KEY=VALUE;". */
    char longv[400];
    memset(longv, 'x', 300);
    longv[300] = 0;
    const char *lk[1] = {"key"}, *lv[1] = {longv};
    name = ssdsim_point_name(lk, lv, 1);
    ck_assert_uint_eq(strlen(name), 200);
    char full[512], want[32];
    snprintf(full, sizeof full, "key=%s;", longv);
    snprintf(want, sizeof want, "~%016" PRIx64, fnv(UINT64_C(0xcbf29ce484222325), full));
    ck_assert_str_eq(name + 183, want);
    ck_assert(strncmp(name, "key-xxxx", 8) == 0);
    free(name);
    ck_assert_ptr_null(ssdsim_point_name(NULL, NULL, 1));
    name = ssdsim_point_name(NULL, NULL, 0);
    ck_assert_str_eq(name, "");
    free(name);
}
END_TEST

START_TEST(test_point_seed_formula)
{
    const char *kv[2] = {"workload.iodepth=4", "ftl.op=0.3"};
    const char *sorted[2] = {"ftl.op=0.3", "workload.iodepth=4"};
    uint64_t s1, s2;
    ck_assert_int_eq(ssdsim_point_seed(7, kv, 2, &s1), 0);
    ck_assert_uint_eq(s1, expected_seed(7, sorted, 2));
    ck_assert_int_eq(ssdsim_point_seed(7, sorted, 2, &s2), 0); /* order does not matter */
    ck_assert_uint_eq(s1, s2);
    ck_assert_uint_lt(s1, UINT64_C(1) << 53);
    ck_assert_int_eq(ssdsim_point_seed(8, kv, 2, &s2), 0);
    ck_assert_uint_ne(s1, s2);
    /* Given or derived, by the rule. */
    ssdsim_point_opts o = SSDSIM_POINT_OPTS_INIT;
    o.vary = kv;
    o.n_vary = 2;
    o.seed = 7;
    ck_assert_int_eq(ssdsim_point_get_seed(&o, &s2), 0);
    ck_assert_uint_eq(s2, 7);
    o.seed_rule = SSDSIM_POINT_SEED_DERIVED;
    ck_assert_int_eq(ssdsim_point_get_seed(&o, &s2), 0);
    ck_assert_uint_eq(s2, s1);
    const char *bad[1] = {"noequals"};
    ck_assert_int_eq(ssdsim_point_seed(1, bad, 1, &s2), SSDSIM_EINVAL);
    ck_assert_int_eq(ssdsim_point_seed(1, NULL, 1, &s2), SSDSIM_EINVAL);
    ck_assert_int_eq(ssdsim_point_seed(1, kv, 2, NULL), SSDSIM_EINVAL);
}
END_TEST

/* The seeds `ssdsim sweep --emit` records are the library's and the formula's. */
START_TEST(test_point_seed_matches_sweep_manifest)
{
    char model[512], wl[512];
    write_file(out_path(model, sizeof model, "point-model.json"), small_model);
    test_src_path(wl, sizeof wl, "tests/data/wl-randwrite-4k.json");
    struct cmd c;
    char dir[512];
    RUN(&c, "sweep", "--model", model, "--workload", wl, "--vary", "ftl.op=0.2,0.3", "--vary",
        "workload.iodepth=1,4,8", "--seed", "42", "--emit", "-", "--out",
        out_path(dir, sizeof dir, "point-sweep"));
    ck_assert_msg(c.status == 0, "%s", c.err);
    ssdsim_point_grid *g = NULL;
    ssdsim_error err;
    ck_assert_int_eq(ssdsim_point_grid_new(&g), 0);
    ck_assert_int_eq(ssdsim_point_grid_add(g, "ftl.op", "0.2,0.3", &err), 0);
    ck_assert_int_eq(ssdsim_point_grid_add(g, "workload.iodepth", "1,4,8", &err), 0);
    char *line = c.out;
    for (uint64_t k = 0; k < 6; k++) {
        ck_assert_ptr_nonnull(line);
        cJSON *o = cJSON_Parse(line);
        ck_assert_ptr_nonnull(o);
        const cJSON *seed = cJSON_GetObjectItemCaseSensitive(o, "seed");
        const cJSON *name = cJSON_GetObjectItemCaseSensitive(o, "name");
        ck_assert(cJSON_IsNumber(seed) && cJSON_IsString(name));
        const char *v[2];
        ck_assert_int_eq(ssdsim_point_grid_values(g, k, v), 0);
        char kv0[64], kv1[64];
        snprintf(kv0, sizeof kv0, "ftl.op=%s", v[0]);
        snprintf(kv1, sizeof kv1, "workload.iodepth=%s", v[1]);
        const char *kv[2] = {kv0, kv1};
        uint64_t lib;
        ck_assert_int_eq(ssdsim_point_seed(42, kv, 2, &lib), 0);
        ck_assert_uint_eq(lib, expected_seed(42, kv, 2)); /* kv sorted already */
        ck_assert_msg((double)lib == seed->valuedouble, "point %" PRIu64 ": %" PRIu64 " vs %.0f",
                      k, lib, seed->valuedouble);
        const char *keys[2] = {"ftl.op", "workload.iodepth"};
        char *nm = ssdsim_point_name(keys, v, 2);
        ck_assert_str_eq(nm, name->valuestring);
        free(nm);
        cJSON_Delete(o);
        /* the line is the library's format: parsed and formatted again, the same text */
        char *end = strchr(line, '\n');
        char *one = end ? g_strndup(line, (gsize)(end - line)) : g_strdup(line);
        ssdsim_point_line *l = NULL;
        ck_assert_int_eq(ssdsim_point_line_parse(&l, one, &err), 0);
        ssdsim_point_line_spec sp;
        ck_assert_int_eq(ssdsim_point_line_get(l, &sp), 0);
        ck_assert_uint_eq(sp.index, k);
        char *again = NULL;
        ck_assert_int_eq(ssdsim_point_line_format(&again, &sp), 0);
        ck_assert_str_eq(again, one);
        free(again);
        ssdsim_point_line_free(l);
        g_free(one);
        line = strchr(line, '\n');
        if (line)
            line++;
    }
    ssdsim_point_grid_free(g);
    cmd_free(&c);
}
END_TEST

START_TEST(test_point_override_errors)
{
    ssdsim_model *m = load_small();
    ssdsim_workload *wl = randwrite(100);
    ssdsim_error err;
    ck_assert_int_eq(ssdsim_point_override(m, wl, "ftl.nope=1", &err), SSDSIM_ECONFIG);
    ck_assert_str_eq(err.path, "ftl.nope");
    ck_assert_msg(strncmp(err.message, "ftl.nope: unknown key", 21) == 0, "%s", err.message);
    ck_assert_int_eq(ssdsim_point_override(m, wl, "workload.iodeptj=3", &err), SSDSIM_ECONFIG);
    ck_assert_str_eq(err.path, "workload.iodeptj");
    ck_assert_msg(strncmp(err.message, "workload.iodeptj: unknown option", 32) == 0, "%s",
                  err.message);
    ck_assert_int_eq(ssdsim_point_override(m, wl, "workload.iodepth=abc", &err), SSDSIM_ECONFIG);
    ck_assert_msg(strstr(err.message, "workload.iodepth: ") == err.message, "%s", err.message);
    ck_assert_int_eq(ssdsim_point_override(m, wl, "=3", &err), SSDSIM_EINVAL);
    ck_assert_str_eq(err.message, "expects KEY=VALUE, got '=3'");
    ck_assert_int_eq(ssdsim_point_override(m, wl, "workload.=3", &err), SSDSIM_EINVAL);
    ck_assert_int_eq(ssdsim_point_override(m, wl, "ftl.op", &err), SSDSIM_EINVAL);
    ck_assert_int_eq(ssdsim_point_override(m, wl, NULL, &err), SSDSIM_EINVAL);
    /* A key for an absent object is skipped. */
    ck_assert_int_eq(ssdsim_point_override(NULL, wl, "ftl.nope=1", &err), 0);
    ck_assert_int_eq(ssdsim_point_override(m, NULL, "workload.nope=1", &err), 0);
    /* Applied: set first, then vary, the model's keys all at once; the failing one's index,
     * and a model left as it was. */
    ck_assert_int_eq(ssdsim_point_override(m, wl, "ftl.op=0.25", &err), 0);
    double op;
    ck_assert_int_eq(ssdsim_model_get_double(m, "ftl.op", &op, &err), 0);
    ck_assert_double_eq(op, 0.25);
    const char *set[1] = {"ftl.op=0.3"};
    const char *vary[2] = {"workload.iodepth=2", "ftl.bogus=1"};
    ssdsim_point_opts o = SSDSIM_POINT_OPTS_INIT;
    o.set = set;
    o.n_set = 1;
    o.vary = vary;
    o.n_vary = 2;
    size_t failed = 99;
    ck_assert_int_eq(ssdsim_point_apply(m, wl, &o, &failed, &err), SSDSIM_ECONFIG);
    ck_assert_uint_eq(failed, 2);
    ck_assert_str_eq(err.path, "ftl.bogus");
    ck_assert_int_eq(ssdsim_model_get_double(m, "ftl.op", &op, &err), 0);
    ck_assert_double_eq(op, 0.25);
    /* Keys that depend on each other, in an order one at a time would refuse: the watermark
     * (set) before the idle time it needs (vary), then the copies' firmware time that
     * gc.bg_preempt needs after it. (0.15 of 64 blocks: 10 free ones, within the 12 the
     * spare holds besides the open blocks.) */
    const char *set2[2] = {"gc.bg_high_watermark=0.15", "gc.bg_preempt=true"};
    const char *vary2[3] = {"gc.bg_idle_us=100", "workload.iodepth=2",
                            "controller.fw_gc_page_us=1"};
    o.set = set2;
    o.n_set = 2;
    o.vary = vary2;
    o.n_vary = 3;
    ck_assert_int_eq(ssdsim_model_set(m, "gc.bg_high_watermark", "0.15", &err), SSDSIM_ECONFIG);
    ck_assert_int_eq(ssdsim_point_apply(m, wl, &o, &failed, &err), 0);
    bool on;
    ck_assert_int_eq(ssdsim_model_get_bool(m, "gc.bg_preempt", &on, &err), 0);
    ck_assert(on);
    ck_assert_int_eq(ssdsim_model_get_double(m, "gc.bg_high_watermark", &op, &err), 0);
    ck_assert_double_eq(op, 0.15);
    ssdsim_workload_free(wl);
    ssdsim_model_free(m);
}
END_TEST

/* ssdsim_point_run against the same steps by hand: identical results JSON. */
START_TEST(test_point_run_equals_plain_run)
{
    ssdsim_model *m = load_small();
    ssdsim_workload *wl = randwrite(3000);
    const char *set[1] = {"workload.iodepth=4"};
    const char *vary[1] = {"ftl.op=0.2"};
    ssdsim_point_opts o;
    ck_assert_int_eq(ssdsim_point_opts_init(&o, SSDSIM_POINT_OPTS_VERSION), 0);
    o.set = set;
    o.n_set = 1;
    o.vary = vary;
    o.n_vary = 1;
    o.seed = 11;
    o.seed_rule = SSDSIM_POINT_SEED_DERIVED;
    o.precondition = SSDSIM_PRECONDITION_SEQ;
    o.run.interval_ios = 500;
    ssdsim *sim = NULL;
    ssdsim_error err;
    ck_assert_msg(ssdsim_point_run(&sim, m, wl, &o, &err) == 0, "%s", err.message);
    ck_assert_ptr_nonnull(sim);
    /* The caller's model was not changed. */
    double op;
    ck_assert_int_eq(ssdsim_model_get_double(m, "ftl.op", &op, &err), 0);
    ck_assert_double_eq(op, 0.28);

    /* By hand, with the typed setters and the seed from the formula. */
    ssdsim_model *m2 = NULL;
    ck_assert_int_eq(ssdsim_model_copy(&m2, m), 0);
    ck_assert_int_eq(ssdsim_model_set_double(m2, "ftl.op", 0.2, &err), 0);
    ssdsim_workload *wl2 = randwrite(3000);
    ck_assert_int_eq(ssdsim_workload_set_int(wl2, "iodepth", 4, &err), 0);
    const char *sorted[1] = {"ftl.op=0.2"};
    ssdsim *plain = NULL;
    ck_assert_int_eq(ssdsim_new(&plain, m2, expected_seed(11, sorted, 1), &err), 0);
    ck_assert_int_eq(ssdsim_precondition_seq_fills(plain, 1), 0);
    ssdsim_run_opts ro = SSDSIM_RUN_OPTS_INIT;
    ro.interval_ios = 500;
    ck_assert_int_eq(ssdsim_run(plain, wl2, &ro), 0);

    char *a = ssdsim_results_json(sim), *b = ssdsim_results_json(plain);
    ck_assert_ptr_nonnull(a);
    ck_assert_str_eq(a, b);
    ssdsim_op_stats sa, sb;
    ck_assert_int_eq(ssdsim_get_op_stats(sim, SSDSIM_OP_WRITE, &sa), 0);
    ck_assert_int_eq(ssdsim_get_op_stats(plain, SSDSIM_OP_WRITE, &sb), 0);
    ck_assert_uint_eq(sa.count, 3000);
    ck_assert_uint_eq(sa.count, sb.count);
    ck_assert_uint_eq(sa.lat_max_ns, sb.lat_max_ns);
    ck_assert_uint_eq(ssdsim_n_intervals(sim), ssdsim_n_intervals(plain));
    free(a);
    free(b);
    ssdsim_free(plain);
    ssdsim_free(sim);
    ssdsim_workload_free(wl2);
    ssdsim_model_free(m2);

    /* The steps one by one give the same too (what the command does). */
    ssdsim_model *m3 = NULL;
    ssdsim_workload *wl3 = NULL;
    ck_assert_int_eq(ssdsim_model_copy(&m3, m), 0);
    ck_assert_int_eq(ssdsim_workload_copy(&wl3, wl), 0);
    ck_assert_int_eq(ssdsim_point_apply(m3, wl3, &o, NULL, &err), 0);
    ck_assert_int_eq(ssdsim_point_new(&sim, m3, &o, &err), 0);
    ck_assert_int_eq(ssdsim_point_precondition(sim, wl3, &o), 0);
    ck_assert_int_eq(ssdsim_point_measure(sim, wl3, &o), 0);
    ck_assert_int_eq(ssdsim_get_op_stats(sim, SSDSIM_OP_WRITE, &sa), 0);
    ck_assert_uint_eq(sa.lat_max_ns, sb.lat_max_ns);
    ssdsim_free(sim);
    ssdsim_workload_free(wl3);
    ssdsim_model_free(m3);

    /* A failing override: no simulation, the key named. */
    const char *badv[1] = {"ftl.nope=1"};
    o.vary = badv;
    sim = (ssdsim *)&o;
    ck_assert_int_eq(ssdsim_point_run(&sim, m, wl, &o, &err), SSDSIM_ECONFIG);
    ck_assert_ptr_null(sim);
    ck_assert_str_eq(err.path, "ftl.nope");
    ssdsim_workload_free(wl);
    ssdsim_model_free(m);
}
END_TEST

START_TEST(test_point_bad_versions)
{
    ssdsim_point_opts o;
    ck_assert_int_eq(ssdsim_point_opts_init(&o, SSDSIM_POINT_OPTS_VERSION + 1), SSDSIM_EINVAL);
    ck_assert_int_eq(ssdsim_point_opts_init(NULL, 0), SSDSIM_EINVAL);
    ck_assert_int_eq(ssdsim_point_opts_init(&o, 0), 0);
    ck_assert_uint_eq(o.version, SSDSIM_POINT_OPTS_VERSION);
    ck_assert_uint_eq(o.run.version, SSDSIM_RUN_OPTS_VERSION);
    ssdsim_model *m = load_small();
    ssdsim_workload *wl = randwrite(10);
    ssdsim_error err;
    o.version = SSDSIM_POINT_OPTS_VERSION + 1;
    uint64_t seed;
    ck_assert_int_eq(ssdsim_point_get_seed(&o, &seed), SSDSIM_EINVAL);
    ck_assert_int_eq(ssdsim_point_apply(m, wl, &o, NULL, &err), SSDSIM_EINVAL);
    ck_assert_msg(strstr(err.message, "newer than this library") != NULL, "%s", err.message);
    ssdsim *sim = NULL;
    ck_assert_int_eq(ssdsim_point_new(&sim, m, &o, &err), SSDSIM_EINVAL);
    ck_assert_ptr_null(sim);
    ck_assert_int_eq(ssdsim_point_run(&sim, m, wl, &o, &err), SSDSIM_EINVAL);
    ck_assert_ptr_null(sim);
    /* A version-0 struct is version 1; a bad mode or rule is refused. */
    memset(&o, 0, sizeof o);
    o.precondition = (ssdsim_precondition_mode)7;
    ck_assert_int_eq(ssdsim_point_new(&sim, m, &o, &err), SSDSIM_EINVAL);
    memset(&o, 0, sizeof o);
    ck_assert_int_eq(ssdsim_point_new(&sim, m, &o, &err), 0);
    o.version = 99;
    ck_assert_int_eq(ssdsim_point_precondition(sim, wl, &o), SSDSIM_EINVAL);
    ck_assert_int_eq(ssdsim_point_measure(sim, wl, &o), SSDSIM_EINVAL);
    ck_assert_msg(strstr(ssdsim_errmsg(sim), "ssdsim_point_opts") != NULL, "%s",
                  ssdsim_errmsg(sim));
    o.version = 0;
    o.precondition = SSDSIM_PRECONDITION_FAST;
    ck_assert_int_eq(ssdsim_point_precondition(sim, NULL, &o), SSDSIM_EINVAL);
    ck_assert_int_eq(ssdsim_point_precondition(NULL, wl, &o), SSDSIM_EINVAL);
    ssdsim_free(sim);
    ssdsim_workload *c = NULL;
    ck_assert_int_eq(ssdsim_workload_copy(&c, NULL), SSDSIM_EINVAL);
    ck_assert_int_eq(ssdsim_workload_copy(NULL, wl), SSDSIM_EINVAL);
    ssdsim_workload_free(wl);
    ssdsim_model_free(m);
}
END_TEST

/* ------------------------------------------------------------------------------------------ */
/* Manifest lines                                                                              */

/* A line written out by hand: its members in the documented order, integers as integers, null
 * for what is not given; parsed back, the same fields, its label, its hash (FNV-1a of the line
 * without "out", recomputed here), its point options and its results member. */
#define LINE_NO_OUT                                                                                \
    "{\"index\":1,\"n_points\":4,\"name\":\"ftl.op-0.3__workload.iodepth-8\",\"model\":null,"     \
    "\"workload\":\"/w/wl.json\",\"set\":[\"workload.number_ios=5000\"],"                          \
    "\"vary\":{\"ftl.op\":\"0.3\",\"workload.iodepth\":\"8\"},\"seed\":123,\"base_seed\":1,"      \
    "\"precondition\":\"seq:2\",\"interval_ns\":null,\"interval_ios\":1000"
#define LINE LINE_NO_OUT ",\"out\":\"/d/ftl.op-0.3__workload.iodepth-8.json\"}"

START_TEST(test_point_line_format_and_parse)
{
    const char *set[1] = {"workload.number_ios=5000"};
    const char *keys[2] = {"ftl.op", "workload.iodepth"}, *values[2] = {"0.3", "8"};
    ssdsim_point_line_spec sp = SSDSIM_POINT_LINE_SPEC_INIT;
    sp.index = 1;
    sp.n_points = 4;
    sp.name = "ftl.op-0.3__workload.iodepth-8";
    sp.workload = "/w/wl.json";
    sp.set = set;
    sp.n_set = 1;
    sp.vary_keys = keys;
    sp.vary_values = values;
    sp.n_vary = 2;
    sp.seed = 123;
    sp.base_seed = 1;
    sp.precondition = "seq:2";
    sp.interval_ios = 1000;
    sp.out = "/d/ftl.op-0.3__workload.iodepth-8.json";
    char *text = NULL;
    ck_assert_int_eq(ssdsim_point_line_format(&text, &sp), 0);
    ck_assert_str_eq(text, LINE);
    free(text);

    ssdsim_point_line *l = NULL;
    ssdsim_error err;
    ck_assert_int_eq(ssdsim_point_line_parse(&l, LINE "\n", &err), 0);
    ssdsim_point_line_spec got;
    ck_assert_int_eq(ssdsim_point_line_get(l, &got), 0);
    ck_assert_uint_eq(got.index, 1);
    ck_assert_uint_eq(got.n_points, 4);
    ck_assert_ptr_null(got.model);
    ck_assert_str_eq(got.workload, "/w/wl.json");
    ck_assert_uint_eq(got.n_set, 1);
    ck_assert_str_eq(got.set[0], set[0]);
    ck_assert_uint_eq(got.n_vary, 2);
    ck_assert_str_eq(got.vary_keys[1], "workload.iodepth");
    ck_assert_str_eq(got.vary_values[1], "8");
    ck_assert_uint_eq(got.seed, 123);
    ck_assert_str_eq(got.precondition, "seq:2");
    ck_assert_uint_eq(got.interval_ns, 0);
    ck_assert_uint_eq(got.interval_ios, 1000);
    ck_assert_uint_eq(got.n_plugins, 0);
    ck_assert_str_eq(got.out, sp.out);
    /* formatted again: the same line */
    ck_assert_int_eq(ssdsim_point_line_format(&text, &got), 0);
    ck_assert_str_eq(text, LINE);
    free(text);
    ck_assert_str_eq(ssdsim_point_line_label(l), "ftl.op=0.3,workload.iodepth=8");
    char hash[17];
    snprintf(hash, sizeof hash, "%016" PRIx64,
             fnv(UINT64_C(0xcbf29ce484222325), LINE_NO_OUT "}"));
    ck_assert_str_eq(ssdsim_point_line_hash(l), hash);
    ssdsim_point_opts o;
    ck_assert_int_eq(ssdsim_point_line_opts(l, &o), 0);
    ck_assert_uint_eq(o.seed, 123);
    ck_assert_int_eq(o.seed_rule, SSDSIM_POINT_SEED_GIVEN);
    ck_assert_int_eq(o.precondition, SSDSIM_PRECONDITION_SEQ);
    ck_assert_uint_eq(o.precondition_fills, 2);
    ck_assert_uint_eq(o.run.interval_ios, 1000);
    ck_assert_uint_eq(o.n_vary, 2);
    ck_assert_str_eq(o.vary[0], "ftl.op=0.3");
    ck_assert_str_eq(o.set[0], set[0]);
    char *member = ssdsim_point_line_results_member(l);
    cJSON *m = cJSON_Parse(member);
    ck_assert_ptr_nonnull(m);
    ck_assert_str_eq(cJSON_GetObjectItem(m, "manifest_hash")->valuestring, hash);
    ck_assert_str_eq(cJSON_GetObjectItem(cJSON_GetObjectItem(m, "params"), "ftl.op")->valuestring,
                     "0.3");
    cJSON_Delete(m);
    free(member);
    /* complete results: the index and hash, not interrupted */
    char res[256];
    snprintf(res, sizeof res, "{\"point\": {\"index\": 1, \"manifest_hash\": \"%s\"}}", hash);
    ck_assert(ssdsim_point_line_complete(l, res));
    snprintf(res, sizeof res,
             "{\"point\": {\"index\": 1, \"manifest_hash\": \"%s\"}, \"interrupted\": true}",
             hash);
    ck_assert(!ssdsim_point_line_complete(l, res));
    snprintf(res, sizeof res, "{\"point\": {\"index\": 2, \"manifest_hash\": \"%s\"}}", hash);
    ck_assert(!ssdsim_point_line_complete(l, res));
    ck_assert(!ssdsim_point_line_complete(l, "{\"point\": {\"index\": 1, \"manifest_hash\": "
                                             "\"0000000000000000\"}}"));
    ck_assert(!ssdsim_point_line_complete(l, "{\"point\":"));
    ck_assert(!ssdsim_point_line_complete(l, NULL));
    ssdsim_point_line_free(l);

    /* specs that make no line */
    sp.index = 4;
    ck_assert_int_eq(ssdsim_point_line_format(&text, &sp), SSDSIM_EINVAL);
    ck_assert_ptr_null(text);
    sp.index = 1;
    sp.precondition = "seq:0";
    ck_assert_int_eq(ssdsim_point_line_format(&text, &sp), SSDSIM_EINVAL);
    sp.precondition = NULL;
    sp.precondition_method = "fast";
    ck_assert_int_eq(ssdsim_point_line_format(&text, &sp), SSDSIM_EINVAL);
    sp.precondition_method = NULL;
    sp.version = 99;
    ck_assert_int_eq(ssdsim_point_line_format(&text, &sp), SSDSIM_EINVAL);
    ck_assert_int_eq(ssdsim_point_line_format(NULL, &sp), SSDSIM_EINVAL);
}
END_TEST

/* The preconditioning method of a line: written after the precondition when timed only (a
 * functional line is the line of before the member), read back, in the hash and in the results'
 * "point" object; a caller of version 1 of the spec makes functional lines. */
START_TEST(test_point_line_precondition_method)
{
    ssdsim_point_line_spec sp = SSDSIM_POINT_LINE_SPEC_INIT;
    ck_assert_uint_eq(sp.version, 2);
    sp.n_points = 1;
    sp.name = "a";
    sp.workload = "/w";
    sp.out = "/o.json";
    sp.precondition = "fast";
    sp.precondition_method = "functional";
    char *plain = NULL, *timed = NULL;
    ck_assert_int_eq(ssdsim_point_line_format(&plain, &sp), 0);
    ck_assert(strstr(plain, "precondition_method") == NULL);
    sp.precondition_method = "timed";
    ck_assert_int_eq(ssdsim_point_line_format(&timed, &sp), 0);
    ck_assert_ptr_nonnull(strstr(timed, "\"precondition\":\"fast\",\"precondition_method\":"
                                        "\"timed\",\"interval_ns\""));
    ssdsim_point_line *lp = NULL, *lt = NULL;
    ck_assert_int_eq(ssdsim_point_line_parse(&lp, plain, NULL), 0);
    ck_assert_int_eq(ssdsim_point_line_parse(&lt, timed, NULL), 0);
    ck_assert_str_ne(ssdsim_point_line_hash(lp), ssdsim_point_line_hash(lt));
    ssdsim_point_line_spec got;
    ck_assert_int_eq(ssdsim_point_line_get(lt, &got), 0);
    ck_assert_str_eq(got.precondition_method, "timed");
    ck_assert_int_eq(ssdsim_point_line_get(lp, &got), 0);
    ck_assert_ptr_null(got.precondition_method);
    char *m = ssdsim_point_line_results_member(lt);
    ck_assert_ptr_nonnull(strstr(m, "\"precondition_method\":\t\"timed\""));
    free(m);
    m = ssdsim_point_line_results_member(lp);
    ck_assert(strstr(m, "precondition_method") == NULL);
    free(m);
    /* version 1 of the spec has no method: its line is the functional one */
    sp.version = 1;
    char *old = NULL;
    ck_assert_int_eq(ssdsim_point_line_format(&old, &sp), 0);
    ck_assert_str_eq(old, plain);
    free(old);
    ssdsim_point_line_free(lp);
    ssdsim_point_line_free(lt);
    free(plain);
    free(timed);
    ssdsim_point_line *bad = NULL;
    ssdsim_error err;
    ck_assert_int_eq(ssdsim_point_line_parse(&bad, "{\"index\":0,\"n_points\":1,\"name\":\"a\","
                                                   "\"workload\":\"w\",\"out\":\"o\",\"seed\":1,"
                                                   "\"base_seed\":1,\"interval_ns\":null,"
                                                   "\"interval_ios\":null,\"model\":null,"
                                                   "\"precondition\":null,"
                                                   "\"precondition_method\":\"slow\"}",
                                             &err),
                     SSDSIM_ECONFIG);
    ck_assert_str_eq(err.path, "precondition_method");
}
END_TEST

/* Lines that are not a manifest's: one message naming the field; lines read from a file by
 * index. */
START_TEST(test_point_line_bad_and_read)
{
    static const struct {
        const char *text, *field;
    } bad[] = {
        {"{\"index\":0}", "n_points"},
        {"{\"index\":-1,\"n_points\":1}", "index"},
        {"{\"index\":2,\"n_points\":2}", "n_points"},
        {"{\"index\":0,\"n_points\":1,\"name\":\"a\",\"workload\":\"w\",\"out\":\"o\"}", "seed"},
        {"{\"index\":0,\"n_points\":1,\"name\":\"a\",\"workload\":\"w\",\"out\":\"o\",\"seed\":1,"
         "\"base_seed\":1,\"interval_ns\":5,\"interval_ios\":5}",
         "interval_ios"},
        {"{\"index\":0,\"n_points\":1,\"name\":\"a\",\"workload\":\"w\",\"out\":\"o\",\"seed\":1,"
         "\"base_seed\":1,\"interval_ns\":null,\"interval_ios\":null,\"model\":null,"
         "\"precondition\":\"seq:0\"}",
         "precondition"},
        {"{\"index\":0,\"n_points\":1,\"name\":\"a\",\"workload\":\"w\",\"out\":\"o\",\"seed\":1,"
         "\"base_seed\":1,\"interval_ns\":null,\"interval_ios\":null,\"model\":null,"
         "\"precondition\":null,\"set\":[\"noequals\"]}",
         "set"},
    };
    ssdsim_point_line *l = NULL;
    ssdsim_error err;
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        ck_assert_int_eq(ssdsim_point_line_parse(&l, bad[i].text, &err), SSDSIM_ECONFIG);
        ck_assert_ptr_null(l);
        ck_assert_str_eq(err.path, bad[i].field);
        char want[128];
        snprintf(want, sizeof want, "'%s' is missing or invalid", bad[i].field);
        ck_assert_msg(strstr(err.message, want) == err.message, "%s", err.message);
    }
    ck_assert_int_eq(ssdsim_point_line_parse(&l, "not json", &err), SSDSIM_ECONFIG);
    ck_assert_msg(strstr(err.message, "not a JSON object") == err.message, "%s", err.message);
    ck_assert_int_eq(ssdsim_point_line_parse(&l, NULL, &err), SSDSIM_EINVAL);

    /* read: line K holds point K */
    char path[512];
    out_path(path, sizeof path, "point-lines.jsonl");
    char *zero = g_strdup(LINE);
    zero[9] = '0'; /* "index":0 */
    char *text = g_strconcat(zero, "\n", LINE, "\n", NULL);
    write_file(path, text);
    ck_assert_int_eq(ssdsim_point_line_read(&l, path, 1, &err), 0);
    ck_assert_str_eq(ssdsim_point_line_label(l), "ftl.op=0.3,workload.iodepth=8");
    ssdsim_point_line_free(l);
    ck_assert_int_eq(ssdsim_point_line_read(&l, path, 2, &err), SSDSIM_ENOTFOUND);
    ck_assert_msg(strstr(err.message, "has 2 lines (points 0 to 1), no point 2"), "%s",
                  err.message);
    write_file(path, ""); /* an empty manifest holds no point (not "points 0 to -1") */
    ck_assert_int_eq(ssdsim_point_line_read(&l, path, 0, &err), SSDSIM_ENOTFOUND);
    ck_assert_msg(strstr(err.message, "point-lines.jsonl is empty: it holds no point (no point 0)"),
                  "%s", err.message);
    g_free(text);
    text = g_strconcat(LINE, "\n", zero, "\n", NULL);
    write_file(path, text);
    ck_assert_int_eq(ssdsim_point_line_read(&l, path, 0, &err), SSDSIM_ECONFIG);
    ck_assert_msg(strstr(err.message, ":1: holds point 1, not 0"), "%s", err.message);
    ck_assert_ptr_null(l);
    write_file(path, "{\"index\": 0}\n");
    ck_assert_int_eq(ssdsim_point_line_read(&l, path, 0, &err), SSDSIM_ECONFIG);
    ck_assert_msg(strstr(err.message, ":1: 'n_points' is missing or invalid"), "%s",
                  err.message);
    ck_assert_str_eq(err.path, "n_points");
    ck_assert_ptr_null(strchr(err.message, '\n'));
    unlink(path);
    ck_assert_int_eq(ssdsim_point_line_read(&l, path, 0, &err), SSDSIM_EIO);
    ck_assert_msg(strstr(err.message, ": cannot read: "), "%s", err.message);
    g_free(text);
    g_free(zero);

    /* preconditioning values */
    ssdsim_precondition_mode mode;
    uint32_t fills;
    ck_assert_int_eq(ssdsim_point_parse_precondition("seq", &mode, &fills), 0);
    ck_assert(mode == SSDSIM_PRECONDITION_SEQ && fills == 1);
    ck_assert_int_eq(ssdsim_point_parse_precondition("seq:1000", &mode, &fills), 0);
    ck_assert(mode == SSDSIM_PRECONDITION_SEQ && fills == 1000);
    ck_assert_int_eq(ssdsim_point_parse_precondition("fast", &mode, &fills), 0);
    ck_assert(mode == SSDSIM_PRECONDITION_FAST && fills == 0);
    static const char *const refused[] = {"seq:0", "seq:1001", "seq:", "seq:+3", "seq:3x",
                                          "slow", ""};
    for (size_t i = 0; i < sizeof refused / sizeof refused[0]; i++)
        ck_assert_int_eq(ssdsim_point_parse_precondition(refused[i], &mode, &fills),
                         SSDSIM_EINVAL);
    ck_assert_int_eq(ssdsim_point_parse_precondition(NULL, NULL, NULL), SSDSIM_EINVAL);
}
END_TEST

/* A line with a key twice (cJSON finds the first: the line ran with the first seed) or a key
 * no manifest has (dropped without a word) is refused with the key, and by _read with the
 * file and line. */
START_TEST(test_point_line_repeated_and_unknown_keys)
{
    static const struct {
        const char *text, *key, *message;
    } bad[] = {
        {LINE_NO_OUT ",\"out\":\"/d/o.json\",\"seed\":5}", "seed",
         "key 'seed' given twice (each key once)"},
        {LINE_NO_OUT ",\"out\":\"/d/o.json\",\"out\":\"/d/p.json\"}", "out",
         "key 'out' given twice"},
        {LINE_NO_OUT ",\"out\":\"/d/o.json\",\"sede\":5}", "sede",
         "unknown key 'sede'; did you mean 'seed'? (is this a manifest from ssdsim sweep "
         "--emit?)"},
        {LINE_NO_OUT ",\"out\":\"/d/o.json\",\"colour\":\"red\"}", "colour",
         "unknown key 'colour' (is this"},
        {"{\"vary\":{\"ftl.op\":\"0.3\",\"ftl.op\":\"0.4\"}}", "ftl.op",
         "varied key 'ftl.op' given twice in 'vary'"},
    };
    ssdsim_point_line *l = NULL;
    ssdsim_error err;
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        ck_assert_int_eq(ssdsim_point_line_parse(&l, bad[i].text, &err), SSDSIM_ECONFIG);
        ck_assert_ptr_null(l);
        ck_assert_str_eq(err.path, bad[i].key);
        ck_assert_msg(strstr(err.message, bad[i].message) == err.message, "%s", err.message);
    }
    char path[512];
    out_path(path, sizeof path, "point-dup.jsonl");
    write_file(path, LINE_NO_OUT ",\"out\":\"/d/o.json\",\"seed\":5}\n");
    ck_assert_int_eq(ssdsim_point_line_read(&l, path, 0, &err), SSDSIM_ECONFIG);
    ck_assert_msg(strstr(err.message, "point-dup.jsonl:1: key 'seed' given twice"), "%s",
                  err.message);
    ck_assert_ptr_null(strchr(err.message, '\n'));
    unlink(path);
}
END_TEST

/* The drive's state before the measured run: wear adds its cycles to every block's erase
 * count, an age needs bit errors, a die outside the geometry is refused naming the step, a
 * power loss after N requests ends the run there (at QD1, N complete and at most the one
 * request in flight then). */
START_TEST(test_point_prepare)
{
    ssdsim_model *m = load_small();
    ssdsim *sim = NULL;
    ssdsim_error err;
    ck_assert_int_eq(ssdsim_new(&sim, m, 1, &err), 0);
    const char *step = "x";
    ck_assert_int_eq(ssdsim_point_prepare(sim, NULL, &step), 0);
    ck_assert_str_eq(step, "");
    ssdsim_device_stats d0, d1;
    ssdsim_get_device_stats(sim, &d0);
    ssdsim_point_state st = SSDSIM_POINT_STATE_INIT;
    st.wear_pe = 100;
    ck_assert_int_eq(ssdsim_point_prepare(sim, &st, &step), 0);
    ssdsim_get_device_stats(sim, &d1);
    ck_assert_double_eq_tol(d1.erase_count_mean, d0.erase_count_mean + 100, 1e-9);
    /* the small model has no bit errors */
    st.wear_pe = 0;
    st.age_days = 30;
    ck_assert_int_eq(ssdsim_point_prepare(sim, &st, &step), SSDSIM_EINVAL);
    ck_assert_str_eq(step, "age_days");
    ck_assert_ptr_nonnull(strstr(ssdsim_errmsg(sim), "needs a model with bit errors"));
    st.age_days = 0;
    st.fail = true;
    st.fail_channel = 99;
    st.fail_plane = UINT32_MAX;
    ck_assert_int_ne(ssdsim_point_prepare(sim, &st, &step), 0);
    ck_assert_str_eq(step, "fail");
    ck_assert_ptr_nonnull(strstr(ssdsim_errmsg(sim), "outside the geometry"));
    st.fail = false;
    st.version = 99;
    ck_assert_int_eq(ssdsim_point_prepare(sim, &st, &step), SSDSIM_EINVAL);
    ck_assert_int_eq(ssdsim_point_prepare(NULL, NULL, &step), SSDSIM_EINVAL);
    ssdsim_free(sim);

    ck_assert_int_eq(ssdsim_new(&sim, m, 1, &err), 0);
    ssdsim_point_state pl = SSDSIM_POINT_STATE_INIT;
    pl.power_loss_after = 100;
    ck_assert_int_eq(ssdsim_point_prepare(sim, &pl, NULL), 0);
    ssdsim_workload *wl = randwrite(1000);
    ssdsim_run(sim, wl, NULL);
    ssdsim_op_stats w;
    ck_assert_int_eq(ssdsim_get_op_stats(sim, SSDSIM_OP_WRITE, &w), 0);
    ck_assert_msg(w.count >= 100 && w.count <= 101, "%" PRIu64, w.count);
    ssdsim_workload_free(wl);
    ssdsim_free(sim);
    ssdsim_model_free(m);
}
END_TEST

/* ssdsim_point_grid_check: every point's values applied to copies (the caller's model keeps
 * its op), the callback called for each point in grid order and once at the end; two points of
 * one name are found at the second, with the first; a refused value stops the check at its
 * point; bad options and no grid are refused. */
static uint64_t seen_points[16];
static size_t n_seen;

static void record_point(uint64_t k, void *ud)
{
    (void)ud;
    if (n_seen < 16)
        seen_points[n_seen++] = k;
}

START_TEST(test_point_grid_check)
{
    ssdsim_model *m = load_small();
    ssdsim_workload *wl = randwrite(100);
    ssdsim_point_grid *g = NULL;
    ssdsim_error err;
    ck_assert_int_eq(ssdsim_point_grid_new(&g), 0);
    ck_assert_int_eq(ssdsim_point_grid_add(g, "ftl.op", "0.2,0.3", &err), 0);
    ck_assert_int_eq(ssdsim_point_grid_add(g, "workload.iodepth", "1,4", &err), 0);
    ssdsim_point_check_opts co = SSDSIM_POINT_CHECK_OPTS_INIT;
    co.on_point = record_point;
    n_seen = 0;
    uint64_t k = 0, other = 0;
    ck_assert_int_eq(ssdsim_point_grid_check(g, m, wl, &co, &k, &other, &err), 0);
    ck_assert_uint_eq(k, UINT64_MAX);
    ck_assert_uint_eq(other, UINT64_MAX);
    ck_assert_uint_eq(n_seen, 5);
    for (size_t i = 0; i < 4; i++)
        ck_assert_uint_eq(seen_points[i], i);
    ck_assert_uint_eq(seen_points[4], UINT64_MAX);
    double op = 0;
    ck_assert_int_eq(ssdsim_model_get_double(m, "ftl.op", &op, &err), 0);
    ck_assert(op == 0.28); /* the copies took the values, not the caller's model */
    ck_assert_int_eq(ssdsim_point_grid_check(g, m, wl, NULL, NULL, NULL, &err), 0);
    ssdsim_point_grid_free(g);

    /* "x/y" and "x_y" make one file name: found at point 1 (op 0.2, x_y), with point 0 */
    ck_assert_int_eq(ssdsim_point_grid_new(&g), 0);
    ck_assert_int_eq(ssdsim_point_grid_add(g, "ftl.op", "0.2", &err), 0);
    ck_assert_int_eq(ssdsim_point_grid_add(g, "name", "\"x/y\",\"x_y\"", &err), 0);
    ck_assert_int_eq(ssdsim_point_grid_check(g, NULL, NULL, NULL, &k, &other, &err),
                     SSDSIM_ESTATE);
    ck_assert_uint_eq(k, 1);
    ck_assert_uint_eq(other, 0);
    ck_assert_str_eq(err.message, "points 0 and 1 have the same name ftl.op-0.2__name-_x_y_");
    ssdsim_point_grid_free(g);

    /* op "abc" is refused: the check stops at point 2 (op abc, iodepth 1) */
    ck_assert_int_eq(ssdsim_point_grid_new(&g), 0);
    ck_assert_int_eq(ssdsim_point_grid_add(g, "ftl.op", "0.2,abc", &err), 0);
    ck_assert_int_eq(ssdsim_point_grid_add(g, "workload.iodepth", "1,4", &err), 0);
    n_seen = 0;
    ck_assert_int_eq(ssdsim_point_grid_check(g, m, wl, &co, &k, &other, &err), SSDSIM_ECONFIG);
    ck_assert_uint_eq(k, 2);
    ck_assert_uint_eq(other, UINT64_MAX);
    ck_assert_msg(!strncmp(err.message, "ftl.op: ", 8), "%s", err.message);
    ck_assert_uint_eq(n_seen, 4); /* points 0, 1, 2, then the end */
    ck_assert_uint_eq(seen_points[3], UINT64_MAX);

    ssdsim_point_check_opts newer = co;
    newer.version = 99;
    ck_assert_int_eq(ssdsim_point_grid_check(g, m, wl, &newer, &k, &other, &err), SSDSIM_EINVAL);
    ck_assert_int_eq(ssdsim_point_grid_check(NULL, m, wl, NULL, &k, &other, &err), SSDSIM_EINVAL);
    ck_assert_int_eq(ssdsim_point_check_opts_init(&newer, 99), SSDSIM_EINVAL);
    ck_assert_int_eq(ssdsim_point_check_opts_init(&newer, 0), 0);
    ck_assert_uint_eq(newer.version, SSDSIM_POINT_CHECK_OPTS_VERSION);
    ssdsim_point_grid_free(g);
    ssdsim_workload_free(wl);
    ssdsim_model_free(m);
}
END_TEST

/* ssdsim_demo_workload: six logical capacities of 4 KiB random writes over 16 jobs (the
 * per-job count rounded down), the interval a thirtieth of them rounded up; run on the small
 * model, every request is a 4 KiB write and the count is exactly 16 x the per-job count. */
START_TEST(test_point_demo_workload)
{
    ssdsim_model *m = load_small();
    ssdsim_workload *wl = NULL;
    ssdsim_error err;
    uint64_t interval = 0;
    ck_assert_msg(ssdsim_demo_workload(&wl, m, &interval, &err) == 0, "%s", err.message);
    uint64_t per_job = 6 * (ssdsim_model_logical_bytes(m) / 4096) / 16;
    ck_assert_uint_eq(interval, (16 * per_job + 29) / 30);
    ck_assert_uint_eq(ssdsim_workload_n_jobs(wl), 1);
    ssdsim *sim = NULL;
    ck_assert_int_eq(ssdsim_new(&sim, m, 1, &err), 0);
    ck_assert_msg(ssdsim_run(sim, wl, NULL) == 0, "%s", ssdsim_errmsg(sim));
    ssdsim_op_stats w, all;
    ssdsim_get_op_stats(sim, SSDSIM_OP_WRITE, &w);
    ssdsim_get_op_stats(sim, SSDSIM_OP_ALL, &all);
    ck_assert_uint_eq(w.count, 16 * per_job);
    ck_assert_uint_eq(all.count, w.count);
    ck_assert_uint_eq(w.bytes, 4096 * w.count);
    ssdsim_free(sim);
    ssdsim_workload_free(wl);
    ck_assert_int_eq(ssdsim_demo_workload(&wl, NULL, NULL, &err), SSDSIM_EINVAL);
    ck_assert_ptr_null(wl);
    ssdsim_model_free(m);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("point");
    TCase *tc = tcase_create("point");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_point_grid_order_and_names);
    tcase_add_test(tc, test_point_grid_bogus);
    tcase_add_test(tc, test_point_grid_check);
    tcase_add_test(tc, test_point_demo_workload);
    tcase_add_test(tc, test_point_name_safe_and_long);
    tcase_add_test(tc, test_point_seed_formula);
    tcase_add_test(tc, test_point_seed_matches_sweep_manifest);
    tcase_add_test(tc, test_point_override_errors);
    tcase_add_test(tc, test_point_run_equals_plain_run);
    tcase_add_test(tc, test_point_bad_versions);
    tcase_add_test(tc, test_point_line_format_and_parse);
    tcase_add_test(tc, test_point_line_precondition_method);
    tcase_add_test(tc, test_point_line_bad_and_read);
    tcase_add_test(tc, test_point_line_repeated_and_unknown_keys);
    tcase_add_test(tc, test_point_prepare);
    suite_add_tcase(s, tc);
    return test_run_suite(s);
}
