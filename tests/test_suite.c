/* test_suite.c: `ssdsim suite review|snia|quick-matrix` as a user meets it.
 *
 * Each suite runs the built command with --quick on a small model (generic-mlc cut to 2
 * channels x 2 dies x 64 blocks x 32 pages of 4 KiB: 32 MiB raw, 4 planes), so that the whole
 * program takes well under a minute. The output folder is checked file by file: the JSON parses
 * and holds the promised keys and point counts (16 matrix points per profile with effective
 * queue depth = threads x queue depth, IOPS that do not fall with queue depth beyond noise,
 * a 4K random-write preconditioning curve that starts above where it ends, the SNIA tests'
 * steady-state round and window figures), the CSVs and the report exist, the plots exist when
 * gnuplot is installed, and the same command twice gives byte-identical JSON and CSVs. Bad
 * command lines exit 2 and a missing model exits 1, each with one error line.
 *
 * Everything is written under BUILDDIR/tests/out/ (make distcheck).
 */
#include <cJSON.h>
#include <dirent.h>
#include <math.h>
#include <stdbool.h>
#include <string.h>
#include <unistd.h>

#include "cmdtest.h"
#include "ssdsim/ssdsim.h"
#include "testutil.h"

/* 2 channels x 1 chip x 2 dies x 1 plane x 64 blocks x 32 pages of 4 KiB. */
#define SMALL_SETS                                                                                 \
    "--set", "geometry.channels=2", "--set", "geometry.chips_per_channel=1", "--set",              \
        "geometry.dies_per_chip=2", "--set", "geometry.planes_per_die=1", "--set",                 \
        "geometry.blocks_per_plane=64", "--set", "geometry.pages_per_block=32"

/* The SNIA suite's IOPS test keeps 4 x 32 requests of up to 1 MiB in flight: on the small
 * model that is more than its spare area, and the library reports the device full (writes wait
 * for space no garbage collection can make). 2 x 2 dies x 512 blocks x 128 pages: 1 GiB raw. */
#define SNIA_SETS                                                                                  \
    "--set", "geometry.channels=2", "--set", "geometry.chips_per_channel=1", "--set",              \
        "geometry.dies_per_chip=2", "--set", "geometry.planes_per_die=1", "--set",                 \
        "geometry.blocks_per_plane=512", "--set", "geometry.pages_per_block=128"

static const char *model_path(char *buf, size_t len)
{
    return test_src_path(buf, len, "models/generic-mlc.json");
}


/* Remove a results directory (it holds files only) so each test starts clean. */
static void remove_dir(const char *dir)
{
    DIR *d = opendir(dir);
    if (!d)
        return;
    const struct dirent *e;
    char path[4096];
    while ((e = readdir(d)))
        if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
            unlink(dir_file(path, sizeof path, dir, e->d_name));
    closedir(d);
    rmdir(dir);
}


static cJSON *load_json(const char *dir)
{
    char path[4096];
    char *text = read_file(dir_file(path, sizeof path, dir, "suite.json"), NULL);
    ck_assert_msg(text != NULL, "%s was not written", path);
    cJSON *root = cJSON_Parse(text);
    ck_assert_msg(root != NULL, "%s is not JSON", path);
    free(text);
    return root;
}

static const cJSON *item(const cJSON *o, const char *key)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
    ck_assert_msg(v != NULL, "key '%s' missing", key);
    return v;
}

static double num(const cJSON *o, const char *key)
{
    const cJSON *v = item(o, key);
    ck_assert_msg(cJSON_IsNumber(v), "'%s' is not a number", key);
    return v->valuedouble;
}

static void assert_file(const char *dir, const char *name)
{
    char path[4096];
    size_t len = 0;
    char *text = read_file(dir_file(path, sizeof path, dir, name), &len);
    ck_assert_msg(text != NULL, "%s was not written", path);
    ck_assert_msg(len > 0, "%s is empty", path);
    free(text);
}

/* Every CSV the JSON lists exists and has a header and at least one row; every plot it lists
 * exists when gnuplot is installed. */
static void assert_listed_files(const cJSON *root, const char *dir)
{
    const cJSON *e;
    int n = 0;
    cJSON_ArrayForEach(e, item(root, "csv"))
    {
        char path[4096];
        char *text = read_file(dir_file(path, sizeof path, dir, e->valuestring), NULL);
        ck_assert_msg(text != NULL, "%s was not written", path);
        char *nl = strchr(text, '\n');
        ck_assert_msg(nl && nl[1], "%s has no data row", path);
        /* a header line, then one row per point (suites.md): no blank line between rows */
        ck_assert_msg(!strstr(text, "\n\n"), "%s has a blank line", path);
        ck_assert_msg(text[strlen(text) - 1] == '\n', "%s does not end its last row", path);
        free(text);
        n++;
    }
    ck_assert_int_gt(n, 0);
    bool gp = on_path("gnuplot");
    n = 0;
    cJSON_ArrayForEach(e, item(root, "plots"))
    {
        char path[4096];
        dir_file(path, sizeof path, dir, e->valuestring);
        if (gp)
            ck_assert_msg(file_exists(path), "gnuplot is installed but %s was not made", path);
        n++;
    }
    ck_assert_int_gt(n, 0);
    assert_file(dir, "suite.gp");
    assert_file(dir, "report.md");
    const cJSON *sc = item(root, "shortcuts");
    ck_assert_int_gt(cJSON_GetArraySize(sc), 0);
}

/* `name` is byte-identical in folders d1 and d2. */
static void assert_same_file(const char *d1, const char *d2, const char *name)
{
    char p1[4096], p2[4096];
    size_t l1, l2;
    char *a = read_file(dir_file(p1, sizeof p1, d1, name), &l1);
    char *b = read_file(dir_file(p2, sizeof p2, d2, name), &l2);
    ck_assert_msg(a && b, "%s is missing in %s or %s", name, d1, d2);
    ck_assert_msg(l1 == l2 && !memcmp(a, b, l1), "%s differs between %s and %s", name, d1, d2);
    free(a);
    free(b);
}

/* File `name` of the suite's folder `dir` holds every text of the NULL-ended `needles`. */
static void assert_file_has(const char *dir, const char *name, const char *const *needles)
{
    char path[4096];
    char *text = read_file(dir_file(path, sizeof path, dir, name), NULL);
    ck_assert_msg(text != NULL, "%s was not written", name);
    for (; *needles; needles++)
        ck_assert_msg(strstr(text, *needles) != NULL, "%s: '%s' not in it", name, *needles);
    free(text);
}

/* The report names the model and seed, quotes the model's description and has the shortcuts
 * section. */
static void assert_report(const char *dir, const char *needle)
{
    char path[4096];
    char *text = read_file(dir_file(path, sizeof path, dir, "report.md"), NULL);
    ck_assert_ptr_nonnull(text);
    ck_assert_msg(strstr(text, "## Shortcuts taken") != NULL, "no shortcuts section");
    ck_assert_msg(strstr(text, "| seed | 1 |") != NULL, "no seed line");
    ck_assert_msg(strstr(text, "generic-mlc") != NULL, "model not named");
    /* and quotes what the model file says of itself (models/generic-mlc.json's description) */
    ck_assert_msg(strstr(text, "\n## The model\n\nRepresentative 2-bit MLC drive: typical 3x-nm") !=
                      NULL,
                  "the model's description is not in the report");
    if (needle)
        ck_assert_msg(strstr(text, needle) != NULL, "'%s' not in the report", needle);
    free(text);
}

/* ------------------------------------------------------------------------------------------ */
/* review                                                                                      */

static void run_review(const char *name, char *dir, size_t len, bool compare)
{
    char model[4096];
    out_path(dir, len, name);
    remove_dir(dir);
    struct cmd c;
    if (compare)
        RUN(&c, "suite", "review", "--model", model_path(model, sizeof model), SMALL_SETS,
            "--quick", "--window", "1s", "--curve-bpp", "32", "--compare-op", "0.2", "--out", dir,
            "--quiet");
    else
        RUN(&c, "suite", "review", "--model", model_path(model, sizeof model), SMALL_SETS,
            "--quick", "--window", "1s", "--out", dir, "--quiet");
    ck_assert_msg(c.status == 0, "exit %d: %s", c.status, c.err);
    ck_assert_msg(c.n_out == 0, "--quiet printed: %s", c.out);
    cmd_free(&c);
}

/* The 16 points in the labs' order, effective QD = T x Q, and IOPS that rise with the
 * effective queue depth up to saturation: from a point below 85% of the peak, every point at a
 * larger queue depth has at least 95% of its IOPS, and from the first point at 85% of the peak
 * on, every point keeps 80% of it. (Mixed workloads on this 4-die model lose about
 * 10% at 256 outstanding requests against 128, with any device queue depth: a property of the
 * model, see doc/suites.md; pure random writes stay flat, checked with `strict`.) */
static void assert_matrix(const cJSON *profile, bool strict)
{
    const cJSON *m = item(profile, "matrix");
    ck_assert_int_eq(cJSON_GetArraySize(m), 16);
    static const int tq[4] = {2, 4, 8, 16};
    double iops[16], qd[16];
    for (int i = 0; i < 16; i++) {
        const cJSON *p = cJSON_GetArrayItem(m, i);
        ck_assert_int_eq((int)num(p, "threads"), tq[i / 4]);
        ck_assert_int_eq((int)num(p, "qd"), tq[i % 4]);
        ck_assert_int_eq((int)num(p, "eff_qd"), tq[i / 4] * tq[i % 4]);
        iops[i] = num(p, "iops");
        qd[i] = num(p, "eff_qd");
        ck_assert(iops[i] > 0);
        ck_assert(num(p, "lat_mean_ns") > 0);
        ck_assert(num(p, "lat_max_ns") >= num(p, "lat_mean_ns"));
        ck_assert(num(p, "lat_stddev_ns") >= 0);
    }
    const char *id = cJSON_GetStringValue(item(profile, "id"));
    double peak = 0, sat_qd = 1e9;
    for (int i = 0; i < 16; i++)
        peak = iops[i] > peak ? iops[i] : peak;
    for (int i = 0; i < 16; i++)
        if (iops[i] >= 0.85 * peak && qd[i] < sat_qd)
            sat_qd = qd[i];
    for (int a = 0; a < 16; a++) {
        for (int b = 0; b < 16; b++)
            if (qd[a] < qd[b] && (strict || iops[a] < 0.85 * peak))
                ck_assert_msg(iops[b] >= 0.95 * iops[a],
                              "%s: IOPS fall from %.0f at QD %.0f to %.0f at QD %.0f", id, iops[a],
                              qd[a], iops[b], qd[b]);
        if (qd[a] >= sat_qd)
            ck_assert_msg(iops[a] >= 0.8 * peak,
                          "%s: IOPS at QD %.0f (%.0f) below 80%% of the peak %.0f", id, qd[a],
                          iops[a], peak);
    }
}

/* Burst then decay: the first intervals are well above the last ones. */
static void assert_burst_then_decay(const cJSON *profile)
{
    const cJSON *pre = item(profile, "precondition");
    const cJSON *iv = item(pre, "intervals");
    int n = cJSON_GetArraySize(iv);
    ck_assert_int_ge(n, 10);
    double first = 0, last = 0;
    for (int i = 0; i < 3; i++) {
        first += num(cJSON_GetArrayItem(iv, i), "iops") / 3;
        last += num(cJSON_GetArrayItem(iv, n - 1 - i), "iops") / 3;
    }
    ck_assert_msg(first > 1.3 * last, "no burst then decay: first %.0f, last %.0f IOPS", first,
                  last);
    /* Time and data written grow along the curve. */
    for (int i = 1; i < n; i++) {
        ck_assert(num(cJSON_GetArrayItem(iv, i), "t_s") >
                  num(cJSON_GetArrayItem(iv, i - 1), "t_s"));
        ck_assert(num(cJSON_GetArrayItem(iv, i), "drive_writes") >
                  num(cJSON_GetArrayItem(iv, i - 1), "drive_writes"));
    }
    const cJSON *b = item(pre, "burst"), *st = item(pre, "steady");
    ck_assert(num(b, "iops") > num(st, "iops"));
}

START_TEST(test_suite_review_quick)
{
    char dir[4096];
    run_review("suite-review", dir, sizeof dir, false);
    cJSON *root = load_json(dir);
    ck_assert_str_eq(cJSON_GetStringValue(item(root, "suite")), "review");
    ck_assert_int_eq((int)num(root, "seed"), 1);
    ck_assert(num(item(root, "model"), "logical_bytes") > 0);
    const cJSON *profiles = item(root, "profiles");
    ck_assert_int_eq(cJSON_GetArraySize(profiles), 4);
    static const char *const ids[4] = {"4k-random-write", "8k-70-30", "file-server", "web-server"};
    for (int i = 0; i < 4; i++) {
        const cJSON *p = cJSON_GetArrayItem(profiles, i);
        ck_assert_str_eq(cJSON_GetStringValue(item(p, "id")), ids[i]);
        assert_matrix(p, i == 0);
        ck_assert_str_eq(cJSON_GetStringValue(item(item(p, "precondition"), "ran_on")), "model");
        char name[128], path[4096];
        snprintf(name, sizeof name, "precondition-%s.csv", ids[i]);
        assert_file(dir, name);
        snprintf(name, sizeof name, "matrix-%s.csv", ids[i]);
        char *csv = read_file(dir_file(path, sizeof path, dir, name), NULL);
        ck_assert_ptr_nonnull(csv);
        int lines = 0;
        for (char *c = csv; *c; c++)
            lines += *c == '\n';
        ck_assert_int_eq(lines, 17); /* header and 16 points */
        free(csv);
    }
    assert_burst_then_decay(cJSON_GetArrayItem(profiles, 0));
    const cJSON *fixed = item(root, "fixed");
    static const char *const fk[4] = {"4k-random-write-16t16q", "4k-random-read-16t16q",
                                      "128k-seq-write-16t16q", "128k-seq-read-16t16q"};
    for (int i = 0; i < 4; i++)
        ck_assert(num(item(fixed, fk[i]), "iops") > 0);
    /* Reads are faster than writes on flash. */
    ck_assert(num(item(fixed, fk[1]), "iops") > num(item(fixed, fk[0]), "iops"));
    ck_assert_int_gt(cJSON_GetArraySize(item(item(root, "latency_cdf"), "4k-random-write")), 2);
    assert_listed_files(root, dir);
    assert_report(dir, "2T/2Q");
    cJSON_Delete(root);
}
END_TEST

/* The curve on a scaled copy (--curve-bpp) and the second formatting mode. */
START_TEST(test_suite_review_scaled_compare_op)
{
    char dir[4096];
    run_review("suite-review-op", dir, sizeof dir, true);
    cJSON *root = load_json(dir);
    const cJSON *profiles = item(root, "profiles");
    ck_assert_int_eq(cJSON_GetArraySize(profiles), 5);
    const cJSON *pre = item(cJSON_GetArrayItem(profiles, 0), "precondition");
    ck_assert_str_eq(cJSON_GetStringValue(item(pre, "ran_on")), "scaled copy");
    ck_assert_int_eq((int)num(pre, "copy_blocks_per_plane"), 32);
    ck_assert(fabs(num(pre, "time_scale") - 2) < 0.1);
    assert_burst_then_decay(cJSON_GetArrayItem(profiles, 0));
    const cJSON *op = cJSON_GetArrayItem(profiles, 4);
    ck_assert_str_eq(cJSON_GetStringValue(item(op, "id")), "4k-random-write-op");
    assert_matrix(op, true);
    const cJSON *cmp = item(root, "compare_op");
    ck_assert(fabs(num(cmp, "added_op") - 0.2) < 1e-9);
    const cJSON *stock = item(cmp, "stock"), *more = item(cmp, "op+0.2");
    ck_assert(num(more, "logical_bytes") < num(stock, "logical_bytes"));
    ck_assert(fabs(num(more, "op") - num(stock, "op") - 0.2) < 0.01);
    /* More spare blocks: less write amplification at steady state. */
    ck_assert(num(more, "steady_waf") < num(stock, "steady_waf"));
    ck_assert(num(item(item(root, "fixed"), "4k-random-write-16t16q-op"), "iops") > 0);
    /* Each mode's figures carry its curve's verdict: a curve stopped at its limit is said not
     * steady in the JSON and the table (the table had called both "steady" when neither was). */
    const cJSON *modes[2] = {stock, more};
    const cJSON *curves[2] = {cJSON_GetArrayItem(profiles, 0), op};
    for (int k = 0; k < 2; k++) {
        const cJSON *st = item(item(curves[k], "precondition"), "steady");
        bool reached = cJSON_IsTrue(item(st, "reached"));
        ck_assert(cJSON_IsBool(item(modes[k], "steady_reached")));
        ck_assert(cJSON_IsTrue(item(modes[k], "steady_reached")) == reached);
        ck_assert(fabs(num(modes[k], "steady_drive_writes") - num(st, "drive_writes")) < 1e-9);
        if (!reached)
            assert_report(dir, "not steady (stopped at ");
    }
    assert_listed_files(root, dir);
    assert_report(dir, "Formatting modes");
    cJSON_Delete(root);
}
END_TEST

/* ------------------------------------------------------------------------------------------ */
/* snia and quick-matrix                                                                       */

START_TEST(test_suite_snia_quick)
{
    char dir[4096], model[4096];
    out_path(dir, sizeof dir, "suite-snia");
    remove_dir(dir);
    struct cmd c;
    RUN(&c, "suite", "snia", "--model", test_src_path(model, sizeof model, "models/generic-slc.json"), SNIA_SETS, "--quick",
        "--out", dir, "--quiet", "--jobs", "3");
    ck_assert_msg(c.status == 0, "exit %d: %s", c.status, c.err);
    cmd_free(&c);
    /* its three tests in three workers give what they give one after the other */
    char dir1[4096];
    out_path(dir1, sizeof dir1, "suite-snia-1");
    remove_dir(dir1);
    RUN(&c, "suite", "snia", "--model", test_src_path(model, sizeof model, "models/generic-slc.json"), SNIA_SETS, "--quick",
        "--out", dir1, "--quiet", "--no-plot", "--jobs", "1");
    ck_assert_msg(c.status == 0, "exit %d: %s", c.status, c.err);
    cmd_free(&c);
    const char *same[] = {"suite.json", "report.md", "suite.gp", "snia-iops.csv",
                          "snia-throughput.csv", "snia-latency.csv"};
    for (size_t i = 0; i < sizeof same / sizeof same[0]; i++)
        assert_same_file(dir, dir1, same[i]);
    cJSON *root = load_json(dir);
    unsigned flat = 0, all = 0;
    ck_assert_str_eq(cJSON_GetStringValue(item(root, "suite")), "snia");
    const char *tests[3] = {"iops_test", "throughput_test", "latency_test"};
    for (int t = 0; t < 3; t++) {
        const cJSON *o = item(root, tests[t]);
        if (t == 1) {
            const cJSON *bs = item(o, "block_sizes");
            ck_assert_int_eq(cJSON_GetArraySize(bs), 2);
            for (int k = 0; k < 2; k++) {
                const cJSON *e = cJSON_GetArrayItem(bs, k);
                ck_assert(num(e, "write_mb_s") > 0 && num(e, "read_mb_s") > 0);
                o = item(e, "steady_state");
                ck_assert(cJSON_IsTrue(item(o, "steady")));
            }
            continue;
        }
        /* The IOPS test reaches steady state here. The latency test's cells (0.1 s at QD1
         * with --quick) hold a few hundred writes each, whose mean latency turns on how many
         * of them wait for garbage collection: its rounds differ by 10 to 30% on this small
         * model, and whether 5 of them fall within 20% is a matter of the seed. Either way the
         * verdict must agree with the window it reports. */
        const cJSON *st = item(o, "steady_state");
        bool steady = cJSON_IsTrue(item(st, "steady"));
        ck_assert_msg(steady || t == 2, "%s: not steady", tests[t]);
        int round = steady ? (int)num(st, "steady_round") : (int)num(st, "rounds_run");
        const cJSON *win = item(st, "window_rounds");
        ck_assert_int_eq(cJSON_GetArraySize(win), 2);
        ck_assert_int_eq((int)cJSON_GetArrayItem(win, 1)->valuedouble, round);
        ck_assert_int_eq((int)cJSON_GetArrayItem(win, 1)->valuedouble -
                             (int)cJSON_GetArrayItem(win, 0)->valuedouble,
                         4);
        ck_assert(steady == (num(st, "excursion") <= 0.2 && num(st, "slope_excursion") <= 0.1));
        ck_assert(num(st, "average") > 0);
        const cJSON *avg = item(o, "window_average");
        if (t == 0) {
            ck_assert_int_eq(cJSON_GetArraySize(avg), 7);
            ck_assert_int_eq(cJSON_GetArraySize(item(o, "rounds")), round);
            const cJSON *row;
            cJSON_ArrayForEach(row, avg)
            {
                /* Small blocks give more IOPS than large ones. */
                ck_assert(num(row, "0.5K") > num(row, "1024K"));
                ck_assert(num(row, "4K") > 0);
            }
        } else {
            ck_assert_int_eq(cJSON_GetArraySize(avg), 9);
            const cJSON *row;
            cJSON_ArrayForEach(row, avg)
            {
                double mean = num(row, "lat_mean_us"), max = num(row, "lat_max_us"),
                       sd = num(row, "lat_stddev_us");
                ck_assert(mean > 0);
                ck_assert(max >= mean);
                /* the window's requests pooled: no spread beyond what its mean and maximum
                 * allow (Bhatia-Davis, the minimum being at least 0), none when max = mean */
                ck_assert(num(row, "requests") >= 100 && num(row, "iops") > 0);
                ck_assert_msg(sd >= 0 && sd * sd <= (max - mean) * mean * (1 + 1e-9) + 1e-9,
                              "stddev %g, mean %g, max %g", sd, mean, max);
                flat += sd < 0.01 * mean;
                all++;
            }
        }
    }
    /* only the latency test's cells give latencies: the report's note counts those that
     * hardly spread (on this SLC model, one read time: the QD1 reads) */
    ck_assert_uint_eq(all, 9);
    ck_assert_uint_gt(flat, 0);
    char want[128];
    snprintf(want, sizeof want, "In %u of the %u measured points and curve intervals above", flat,
             all);
    const char *needles[] = {want, "## IOPS test", "generic-slc", "## Shortcuts taken", NULL};
    assert_file_has(dir, "report.md", needles);
    assert_listed_files(root, dir);
    cJSON_Delete(root);
}
END_TEST

START_TEST(test_suite_quick_matrix_quick)
{
    char dir[4096], model[4096];
    out_path(dir, sizeof dir, "suite-quick-matrix");
    remove_dir(dir);
    struct cmd c;
    RUN(&c, "suite", "quick-matrix", "--model", model_path(model, sizeof model), SMALL_SETS,
        "--quick", "--out", dir, "--quiet");
    ck_assert_msg(c.status == 0, "exit %d: %s", c.status, c.err);
    cmd_free(&c);
    cJSON *root = load_json(dir);
    const cJSON *tests = item(root, "tests");
    /* 8 IOPS tests and 12 bandwidth tests, at 3 job counts, in 2 drive states. */
    ck_assert_int_eq(cJSON_GetArraySize(tests), (8 + 12) * 3 * 2);
    const cJSON *e;
    int fresh = 0;
    cJSON_ArrayForEach(e, tests)
    {
        ck_assert(num(e, "iops") > 0);
        int jobs = (int)num(e, "jobs");
        ck_assert(jobs == 1 || jobs == 4 || jobs == 64);
        fresh += !strcmp(cJSON_GetStringValue(item(e, "state")), "fresh");
    }
    ck_assert_int_eq(fresh, 60);
    /* generic models have no write buffer: nothing to compare, and the report says why */
    ck_assert_str_eq(cJSON_GetStringValue(item(item(root, "write_cache"), "buffer")), "none");
    ck_assert(cJSON_IsFalse(item(item(root, "write_cache"), "compared")));
    /* --quick: tests of 2 s and 30 s idle between them; writes on the written-full drive ran
     * the whole test */
    const cJSON *opts = item(root, "options");
    ck_assert(num(opts, "test_ns") == 2e9 && num(opts, "idle_ns") == 30e9);
    cJSON_ArrayForEach(e, tests)
    {
        bool full = !strcmp(cJSON_GetStringValue(item(e, "state")), "full");
        bool write = !strcmp(cJSON_GetStringValue(item(e, "direction")), "write");
        if (full)
            ck_assert(cJSON_IsTrue(item(e, "whole_test")) == write);
    }
    assert_listed_files(root, dir);
    assert_report(dir, "has no write buffer");
    /* The tests whose latencies spread by less than 1% of their mean (fixed times: the small
     * model's QD1 reads, 1-job sequential reads served the same way each time), counted here
     * from the JSON, are the ones the report says the model leaves out. */
    unsigned flat = 0, all = 0;
    cJSON_ArrayForEach(e, tests)
    {
        if (num(e, "iops") * num(e, "run_ns") / 1e9 < 100)
            continue;
        all++;
        flat += num(e, "lat_stddev_ns") < 0.01 * num(e, "lat_mean_ns");
    }
    ck_assert_uint_gt(flat, 0);
    char want[128];
    snprintf(want, sizeof want, "In %u of the %u measured points and curve intervals above", flat,
             all);
    assert_report(dir, want);
    assert_report(dir, "## What the model leaves out");
    cJSON_Delete(root);
}
END_TEST

/* endurance --quick: 3 points at 0, rated and twice the rated P/E cycles (generic-mlc: 3000),
 * the model's cell defaults turned on (a shortcut says so); RBER grows with wear, and so do the
 * retries per read, which are none on the fresh drive. */
START_TEST(test_suite_endurance_quick)
{
    char dir[4096], model[4096];
    out_path(dir, sizeof dir, "suite-endurance");
    remove_dir(dir);
    struct cmd c;
    RUN(&c, "suite", "endurance", "--model", model_path(model, sizeof model), SMALL_SETS,
        "--quick", "--age-days", "365", "--out", dir, "--quiet");
    ck_assert_msg(c.status == 0, "exit %d: %s", c.status, c.err);
    cmd_free(&c);
    cJSON *root = load_json(dir);
    const cJSON *pts = item(root, "points");
    ck_assert_int_eq(cJSON_GetArraySize(pts), 3);
    static const double pe[3] = {0, 3000, 6000};
    double last = 0;
    for (int i = 0; i < 3; i++) {
        const cJSON *e = cJSON_GetArrayItem(pts, i);
        ck_assert_double_eq(num(e, "pe_cycles"), pe[i]);
        ck_assert(num(e, "rber_mean") > last);
        last = num(e, "rber_mean");
    }
    ck_assert_double_eq(num(cJSON_GetArrayItem(pts, 0), "retries_per_read"), 0);
    ck_assert(num(cJSON_GetArrayItem(pts, 2), "retries_per_read") >
              num(cJSON_GetArrayItem(pts, 1), "retries_per_read"));
    assert_listed_files(root, dir);
    assert_report(dir, "cell type were used");
    /* the projection: rated = 3000 x physical bytes / the points' mean WAF */
    const cJSON *pj = item(root, "projection");
    double waf = 0;
    for (int i = 0; i < 3; i++)
        waf += num(cJSON_GetArrayItem(pts, i), "waf") / 3;
    ck_assert(fabs(num(pj, "waf") - waf) <= 1e-5 * waf);
    double rated = 3000 * num(pj, "physical_bytes") / num(pj, "waf");
    ck_assert(fabs(num(item(pj, "rated"), "host_bytes") - rated) <= 1e-5 * rated);
    ck_assert_double_eq(num(pj, "target_uber"), 1e-15);
    assert_report(dir, "End-of-life projection");
    cJSON_Delete(root);
    struct cmd c2;
    RUN(&c2, "suite", "review", "--age-days", "3");
    assert_one_error(&c2, 2, "--age-days belongs to the endurance suite");
    cmd_free(&c2);
    RUN(&c2, "suite", "review", "--target-uber", "1e-16");
    assert_one_error(&c2, 2, "--target-uber belongs to the endurance suite");
    cmd_free(&c2);
    RUN(&c2, "suite", "endurance", "--target-uber", "0.5");
    assert_one_error(&c2, 2, "--target-uber expects an UBER above 0 and at most 1e-3");
    cmd_free(&c2);
    RUN(&c2, "suite", "endurance", "--life-years", "0");
    assert_one_error(&c2, 2, "--life-years expects years from 0.01 to 100");
    cmd_free(&c2);
    RUN(&c2, "suite", "endurance", "--accel-check", "2.5");
    assert_one_error(&c2, 2, "--accel-check expects whole P/E cycles from 4 to 100000");
    cmd_free(&c2);
}
END_TEST

/* endurance --accel-check 8 on the small model: 4 points of the timed drive at 2, 4, 6 and 8
 * mean P/E cycles or just past, each beside a drive worn at once to the same mean count (within
 * one cycle), and the projection then takes the timed drive's mean WAF. */
START_TEST(test_suite_endurance_accel_check)
{
    char dir[4096], model[4096];
    out_path(dir, sizeof dir, "suite-endurance-accel");
    remove_dir(dir);
    struct cmd c;
    RUN(&c, "suite", "endurance", "--model", model_path(model, sizeof model), SMALL_SETS,
        "--quick", "--accel-check", "8", "--target-uber", "1e-16", "--out", dir, "--quiet");
    ck_assert_msg(c.status == 0, "exit %d: %s", c.status, c.err);
    cmd_free(&c);
    cJSON *root = load_json(dir);
    const cJSON *ac = item(root, "accel_check");
    ck_assert_int_eq(cJSON_GetArraySize(ac), 4);
    double waf = 0, last = 0;
    for (int i = 0; i < 4; i++) {
        const cJSON *e = cJSON_GetArrayItem(ac, i);
        double pt = num(e, "pe_timed");
        ck_assert_msg(pt >= 2 * (i + 1) && pt > last, "point %d at %g", i, pt);
        last = pt;
        ck_assert_msg(fabs(num(e, "pe_accel_mean") - pt) <= 1.01, "%g against %g",
                      num(e, "pe_accel_mean"), pt);
        ck_assert(num(e, "waf_timed") >= 1 && num(e, "rber_timed") > 0 &&
                  num(e, "rber_accel") > 0);
        waf += num(e, "waf_timed") / 4;
    }
    const cJSON *pj = item(root, "projection");
    ck_assert(fabs(num(pj, "waf") - waf) <= 1e-5 * waf);
    ck_assert_double_eq(num(pj, "target_uber"), 1e-16);
    assert_listed_files(root, dir);
    assert_report(dir, "Acceleration check");
    cJSON_Delete(root);
}
END_TEST

/* tenants: two saturated tenants behind a controller that takes one command at a time
 * (controller.queue_depth 1). Round robin fetches from the two queues in turn, so their IOPS
 * are equal; weighted round robin with the reader's queue high (weight 4) and the writer's low
 * (weight 1) fetches 4 reads per write, so the IOPS are 4:1 (within 2%: the window's edges, as
 * tests/test_nvme.c). The slowdowns are shared / alone and the index min / max of them. */
/* quick-matrix on a RAID-5 of 3 small drives behind a card with a battery-backed cache: the
 * report says what acknowledges the writes (the card, not "every write completes when it is
 * programmed") and what the idle time does (the members' background GC and the card's
 * flushes), and its capacity line gives what the devices hold (3 members' logical capacity:
 * data and parity) beside the volume (2 of them), with the members' own over-provisioning. */
START_TEST(test_suite_quick_matrix_raid5)
{
    char dir[4096], member[4096], sys[4096];
    out_path(dir, sizeof dir, "suite-quick-raid5");
    remove_dir(dir);
    out_path(member, sizeof member, "suite-quick-raid5-member.json");
    out_path(sys, sizeof sys, "suite-quick-raid5.json");
    write_file(member,
               "{\"name\": \"quick-r5-member\", \"geometry\": {\"channels\": 2, "
               "\"chips_per_channel\": 1, \"dies_per_chip\": 1, \"planes_per_die\": 1, "
               "\"blocks_per_plane\": 32, \"pages_per_block\": 64, \"page_size\": \"4KiB\"}, "
               "\"flash\": {\"cell\": \"slc\", \"read_us\": 20, \"program_us\": 200, "
               "\"erase_us\": 1000, \"bus_mts\": 100, \"bus_width\": 8}, \"controller\": "
               "{\"cmd_overhead_us\": 2, \"cores\": 1, \"queue_depth\": 32}, \"host\": "
               "{\"interface\": \"custom\", \"link_bw\": \"100MB/s\", \"cmd_overhead_us\": 1}, "
               "\"gc\": {\"bg_idle_us\": 5000}, \"ftl\": {\"type\": \"page\", \"op\": 0.28}}");
    write_file(sys, "{\"name\": \"quick-raid5\", \"system\": {\"member\": "
                    "\"suite-quick-raid5-member.json\", \"count\": 3, \"layout\": \"raid5\", "
                    "\"stripe\": \"64KiB\", \"cache\": \"1MiB\", \"cache_idle_us\": 2000}}");
    struct cmd c;
    RUN(&c, "suite", "quick-matrix", "--model", sys, "--quick", "--test-time", "200ms",
        "--idle", "1s", "--out", dir, "--quiet");
    ck_assert_msg(c.status == 0, "exit %d: %s", c.status, c.err);
    cmd_free(&c);
    cJSON *root = load_json(dir);
    const cJSON *model = item(root, "model");
    /* a member: 64 blocks of 64 pages of 4 KiB = 16 MiB of flash, 13,107,200 bytes exposed
     * (op 0.28: 3200 units); the volume holds 2 members' worth */
    ck_assert(num(model, "logical_bytes") == 2 * 13107200.0);
    ck_assert(num(model, "devices_logical_bytes") == 3 * 13107200.0);
    ck_assert(num(model, "physical_bytes") == 3 * 16777216.0);
    ck_assert_msg(fabs(num(model, "op") - (16777216.0 - 13107200) / 13107200) < 1e-6, "%g",
                  num(model, "op"));
    static const char *const said[] = {
        "this model is a system of devices, and the card's battery-backed write-back cache "
        "(system.cache) acknowledges every write",
        "The devices' background garbage collection starts after 5000 us idle (their "
        "gc.bg_idle_us); the card writes its cache's dirty data to them after 2000 us idle "
        "(system.cache_idle_us): the idle time between tests lets them free blocks and drains "
        "the cache, as fast as the devices take its data (small random writes slowly: a cache "
        "full of them can outlast the pauses).",
        "| capacity | 25.00 MiB logical (37.50 MiB on the devices with the parity or mirror "
        "copies), 48.00 MiB physical, over-provisioning 28.0% |"};
    char path[4096];
    char *text = read_file(dir_file(path, sizeof path, dir, "report.md"), NULL);
    ck_assert_ptr_nonnull(text);
    for (size_t i = 0; i < sizeof said / sizeof *said; i++)
        ck_assert_msg(strstr(text, said[i]) != NULL, "'%s' not in the report", said[i]);
    free(text);
    cJSON_Delete(root);
}
END_TEST

/* quick-matrix tests so short (--test-time 2ms) that some written-full write tests end before
 * garbage collection reaches the host: the report marks each of them (" \*" beside the figure
 * in the tables, a note counting them), exactly the written-full write cells whose run shows no
 * foreground collection in the JSON (gc_fg_victims and gc_fg_pages_copied 0). Such a cell is no
 * written-full steady state: 4K sequential writes over the first 10% at 1 job run as fast as on
 * the fresh drive (3 writes of 528.5 us in 2 ms: 1500 IOPS both). The X25-M's 1-job 4K writes
 * at --quick's 2 s had printed 13,150 IOPS, the fresh drive's, with no such warning. */
START_TEST(test_suite_quick_matrix_no_gc_marked)
{
    char dir[4096], model[4096], path[4096];
    out_path(dir, sizeof dir, "suite-quick-nogc");
    remove_dir(dir);
    struct cmd c;
    RUN(&c, "suite", "quick-matrix", "--model", model_path(model, sizeof model), SMALL_SETS,
        "--quick", "--test-time", "2ms", "--out", dir, "--quiet");
    ck_assert_msg(c.status == 0, "exit %d: %s", c.status, c.err);
    cmd_free(&c);
    cJSON *root = load_json(dir);
    const cJSON *e;
    unsigned no_gc = 0, full_writes = 0;
    double fresh_iops = 0, full_iops = 0;
    bool first10_1_no_gc = false;
    cJSON_ArrayForEach(e, item(root, "tests"))
    {
        bool full = !strcmp(cJSON_GetStringValue(item(e, "state")), "full");
        bool first10_1 = !strcmp(cJSON_GetStringValue(item(e, "test")),
                                 "iops-seq-write-first10") &&
                         num(e, "jobs") == 1;
        if (first10_1)
            *(full ? &full_iops : &fresh_iops) = num(e, "iops");
        if (!full || strcmp(cJSON_GetStringValue(item(e, "direction")), "write"))
            continue;
        full_writes++;
        bool none = num(e, "gc_fg_victims") == 0 && num(e, "gc_fg_pages_copied") == 0;
        no_gc += none;
        first10_1_no_gc |= first10_1 && none;
    }
    cJSON_Delete(root);
    ck_assert_uint_eq(full_writes, 10 * 3);
    ck_assert_uint_gt(no_gc, 0);
    ck_assert(first10_1_no_gc);
    ck_assert_msg(fabs(full_iops - 1500) < 1 && fabs(fresh_iops - 1500) < 1, "%g, %g", full_iops,
                  fresh_iops);
    char *text = read_file(dir_file(path, sizeof path, dir, "report.md"), NULL);
    ck_assert_ptr_nonnull(text);
    unsigned marks = 0;
    for (const char *p = text; (p = strstr(p, " \\* |")) != NULL; p++)
        marks++;
    ck_assert_uint_eq(marks, no_gc);
    char want[128];
    snprintf(want, sizeof want, "In %u of the 30 written-full write cells (marked \\* in the "
             "tables) no garbage collection ran", no_gc);
    ck_assert_msg(strstr(text, want) != NULL, "'%s' not in the report", want);
    ck_assert(strstr(text, "| sequential write 4K, first 10% | 1500 | ") != NULL);
    ck_assert(strstr(text, "| 1500 \\* |") != NULL);
    free(text);
}
END_TEST

/* quick-matrix on a hard disk (models/wd5002abys.json: 16 MiB cache, hdd.write_cache on).
 * Writing changes no state of a disk, so it has one state, measured once and the same way for
 * every test: over a window after a ramp, none over the whole test, whose rate would count the
 * cache's fill (acknowledged at the link's rate) as sustained. 128 KiB sequential writes over
 * the first 5 GiB at 1 job therefore run at most at the outermost zone's sustained rate: raw
 * 113 MB/s less a track switch of 0.6 ms per 8.333 ms revolution, 113 / (1 + 0.6 / 8.333) =
 * 105.4 MB/s (they had read 112.9 as "written full", measured whole). Its cache is volatile:
 * the write-cache comparison runs through hdd.write_cache (it was skipped: "no write
 * buffer"), and 4K random writes at 1 job wait, with the cache off, for the platter: slower. The
 * report says nothing of flash, GC or over-provisioning. */
START_TEST(test_suite_quick_matrix_disk)
{
    char dir[4096], model[4096], path[4096];
    out_path(dir, sizeof dir, "suite-quick-disk");
    remove_dir(dir);
    test_src_path(model, sizeof model, "models/wd5002abys.json");
    struct cmd c;
    RUN(&c, "suite", "quick-matrix", "--model", model, "--quick", "--out", dir, "--quiet");
    ck_assert_msg(c.status == 0, "exit %d: %s", c.status, c.err);
    cmd_free(&c);
    cJSON *root = load_json(dir);
    ck_assert(cJSON_IsTrue(item(root, "full_is_fresh")));
    const cJSON *e;
    int n = 0;
    double seq_write_1 = 0;
    cJSON_ArrayForEach(e, item(root, "tests"))
    {
        n++;
        ck_assert_str_eq(cJSON_GetStringValue(item(e, "state")), "fresh");
        ck_assert_msg(cJSON_IsFalse(item(e, "whole_test")), "%s at %g jobs ran whole",
                      cJSON_GetStringValue(item(e, "test")), num(e, "jobs"));
        if (!strcmp(cJSON_GetStringValue(item(e, "test")), "mbs-seq-write-first5g") &&
            num(e, "jobs") == 1)
            seq_write_1 = num(e, "bw_bytes") / 1e6;
    }
    ck_assert_int_eq(n, 20 * 3); /* once: no written-full copies */
    const double sustained = 113.0 / (1 + 0.6 / (60e3 / 7200));
    ck_assert_msg(seq_write_1 <= sustained * 1.001 && seq_write_1 >= sustained * 0.97,
                  "128K sequential writes, first 5 GiB, 1 job: %g MB/s against %g", seq_write_1,
                  sustained);
    const cJSON *wc = item(root, "write_cache");
    ck_assert_str_eq(cJSON_GetStringValue(item(wc, "buffer")), "volatile");
    ck_assert_str_eq(cJSON_GetStringValue(item(wc, "key")), "hdd.write_cache");
    ck_assert(cJSON_IsTrue(item(wc, "compared")));
    double on = 0, off = 0;
    int rows = 0;
    cJSON_ArrayForEach(e, item(wc, "tests"))
    {
        rows++;
        ck_assert_str_eq(cJSON_GetStringValue(item(e, "state")), "fresh");
        if (num(e, "jobs") == 1)
            *(strcmp(cJSON_GetStringValue(item(e, "cache")), "on") ? &off : &on) =
                num(e, "lat_mean_ns");
    }
    ck_assert_int_eq(rows, 2 * 3);
    ck_assert_msg(on > 0 && off > 1.5 * on, "cache on %g ns, off %g ns", on, off);
    cJSON_Delete(root);
    char *text = read_file(dir_file(path, sizeof path, dir, "report.md"), NULL);
    ck_assert_ptr_nonnull(text);
    const char *absent[] = {"physical", "over-provisioning 0", "gc.bg_idle_us",
                            "without touching flash", "steady state of 4 KiB random writes",
                            "no write buffer", "was not preconditioned", "written full, 1 job"};
    for (size_t i = 0; i < sizeof absent / sizeof *absent; i++)
        ck_assert_msg(strstr(text, absent[i]) == NULL, "'%s' in a disk's report", absent[i]);
    const char *present[] = {"no flash, no over-provisioning", "hdd.write_cache",
                             "fresh and written full are one state",
                             "held fewer than 5000 requests even run to the test's length"};
    for (size_t i = 0; i < sizeof present / sizeof *present; i++)
        ck_assert_msg(strstr(text, present[i]) != NULL, "'%s' not in the report", present[i]);
    free(text);
}
END_TEST

/* quick-matrix on the lab's hardware RAID-5 of four 15K disks behind the 3ware card's 512 MB
 * write-back cache: a fresh-drive write test measured over a short window must be one whose
 * writes over the whole test stay under half the cache (the window it measured is then what the
 * whole test sees); the others run the whole test. The disks have no flash, so the cache is the
 * only thing a short window could misrepresent (it measured the empty cache at 487,640 IOPS for a
 * test that writes 4 GB at that rate). On this array every fresh write test of 2 s puts half
 * the cache into it, so all run whole: the 128 KiB random ones had been measured over a window
 * their own short first run had filled the cache for (60 MB/s, and windowed here). */
START_TEST(test_suite_quick_matrix_card_cache)
{
    char dir[4096], model[4096];
    out_path(dir, sizeof dir, "suite-quick-card");
    remove_dir(dir);
    test_src_path(model, sizeof model, "models/ultrastar-15k600-x4-raid5-3ware.json");
    struct cmd c;
    RUN(&c, "suite", "quick-matrix", "--model", model, "--quick", "--out", dir, "--quiet");
    ck_assert_msg(c.status == 0, "exit %d: %s", c.status, c.err);
    cmd_free(&c);
    cJSON *root = load_json(dir);
    const double cache = 512.0 * 1024 * 1024, test_s = num(item(root, "options"), "test_ns") / 1e9;
    unsigned whole = 0, windowed = 0;
    const cJSON *e;
    cJSON_ArrayForEach(e, item(root, "tests"))
    {
        if (strcmp(cJSON_GetStringValue(item(e, "state")), "fresh") ||
            strcmp(cJSON_GetStringValue(item(e, "direction")), "write"))
            continue;
        if (cJSON_IsTrue(item(e, "whole_test"))) {
            whole++;
            continue;
        }
        windowed++;
        double bytes = num(e, "bw_bytes") * test_s;
        ck_assert_msg(bytes < cache / 2, "%s at %g jobs: a window stands for %g bytes",
                      cJSON_GetStringValue(item(e, "test")), num(e, "jobs"), bytes);
    }
    ck_assert_uint_eq(whole, 30);
    ck_assert_uint_eq(windowed, 0);
    cJSON_Delete(root);
}
END_TEST

/* The small drive the system tests use as their member: 2 channels x 2 dies of 64 blocks of
 * 64 pages of 4 KiB, SLC timings, a 100 MB/s link. */
static const char small_member_json[] =
    "{\"name\": \"scaling-small\", \"geometry\": {\"channels\": 2, "
    "\"chips_per_channel\": 1, \"dies_per_chip\": 2, \"planes_per_die\": 1, "
    "\"blocks_per_plane\": 64, \"pages_per_block\": 64, \"page_size\": \"4KiB\"}, "
    "\"flash\": {\"cell\": \"slc\", \"read_us\": 20, \"program_us\": 200, "
    "\"erase_us\": 1000, \"bus_mts\": 100, \"bus_width\": 8}, \"controller\": "
    "{\"cmd_overhead_us\": 2, \"cores\": 1, \"queue_depth\": 32}, \"host\": "
    "{\"interface\": \"custom\", \"link_bw\": \"100MB/s\", \"cmd_overhead_us\": 1}, "
    "\"ftl\": {\"type\": \"page\", \"op\": 0.28}}";

/* Write the small member as tests/out/suite-small-member.json and the system `json` (whose
 * member is that file) as tests/out/`file`, whose path goes into sys. */
static void write_system(char *sys, size_t len, const char *file, const char *json)
{
    char member[4096];
    out_path(member, sizeof member, "suite-small-member.json");
    write_file(member, small_member_json);
    out_path(sys, len, file);
    write_file(sys, json);
}

/* The review of a JBOD says how its threads spread: job k addresses device k mod n, so on 2
 * devices 16T/16Q puts 16 / 2 = 8 threads of 16 on each. */
START_TEST(test_suite_review_jbod_says_how_threads_spread)
{
    char dir[4096], sys[4096];
    out_path(dir, sizeof dir, "suite-review-jbod");
    remove_dir(dir);
    write_system(sys, sizeof sys, "suite-jbod.json",
                 "{\"name\": \"jbod2\", \"system\": {\"member\": \"suite-small-member.json\", "
                 "\"count\": 2, \"layout\": \"jbod\"}}");
    struct cmd c;
    RUN(&c, "suite", "review", "--model", sys, "--quick", "--no-plot", "--out", dir, "--quiet");
    ck_assert_msg(c.status == 0, "exit %d: %s", c.status, c.err);
    cmd_free(&c);
    char path[4096];
    char *text = read_file(dir_file(path, sizeof path, dir, "report.md"), NULL);
    ck_assert_ptr_nonnull(text);
    ck_assert_msg(strstr(text, "The model is a JBOD of 2 devices, each its own volume: job k "
                               "addresses device k mod 2") &&
                      strstr(text, "16T/16Q puts 8 threads of 16 on each"),
                  "%s", text);
    free(text);
}
END_TEST

/* scaling: a RAID-0 of 2 small drives (each on a link of its own: 100 MB/s), 1 and 2 devices;
 * 128 KiB sequential reads at QD32 are link-bound, so two devices read twice as fast; with
 * --writes, the steady 4K points and their table. A device model is refused with one line. */
START_TEST(test_suite_scaling_quick)
{
    char dir[4096], sys[4096];
    out_path(dir, sizeof dir, "suite-scaling");
    remove_dir(dir);
    write_system(sys, sizeof sys, "suite-scaling-raid0.json",
                 "{\"name\": \"scaling-raid0\", \"system\": {\"member\": "
                 "\"suite-small-member.json\", \"count\": 2, \"layout\": \"raid0\", "
                 "\"stripe\": \"64KiB\", \"raid_us\": 3}}");
    struct cmd c;
    RUN(&c, "suite", "scaling", "--model", sys, "--quick", "--out", dir, "--quiet");
    ck_assert_msg(c.status == 0, "exit %d: %s", c.status, c.err);
    cmd_free(&c);
    cJSON *root = load_json(dir);
    const cJSON *sc = item(root, "scaling");
    ck_assert_str_eq(cJSON_GetStringValue(item(sc, "layout")), "raid0");
    ck_assert_int_eq(cJSON_GetArraySize(item(sc, "devices")), 2);
    const cJSON *points = item(sc, "points");
    ck_assert_int_eq(cJSON_GetArraySize(points), 2 * 2 * 6);
    double seq32[3] = {0, 0, 0}, seq16_1 = 0;
    const cJSON *e;
    cJSON_ArrayForEach(e, points)
    {
        ck_assert(num(e, "iops") > 0);
        if (!strcmp(cJSON_GetStringValue(item(e, "test")), "seqread-128k") && num(e, "qd") == 32)
            seq32[(int)num(e, "devices")] = num(e, "bw_bytes");
        if (!strcmp(cJSON_GetStringValue(item(e, "test")), "seqread-128k") &&
            num(e, "qd") == 16 && num(e, "devices") == 1)
            seq16_1 = num(e, "bw_bytes");
    }
    ck_assert_msg(fabs(seq32[1] / 1e8 - 1) < 0.01 && fabs(seq32[2] / 2e8 - 1) < 0.01,
                  "%g %g", seq32[1], seq32[2]);
    assert_listed_files(root, dir);
    {
        char path[4096];
        char *text = read_file(dir_file(path, sizeof path, dir, "report.md"), NULL);
        ck_assert_ptr_nonnull(text);
        ck_assert_ptr_nonnull(strstr(text, "scaling-raid0"));
        ck_assert_ptr_nonnull(strstr(text, "| scaling at QD 32 | 1.00x (linear 1x) |"));
        /* a volume: each of 2 devices sees about 16 of the 32, so what striping can give is
         * twice one device's figure at QD16 (link-bound too: about 2.00x) */
        char row[128];
        snprintf(row, sizeof row, "| its devices at 1/n of QD 32 each | 1.00x | %.2fx |",
                 2 * seq16_1 / seq32[1]);
        ck_assert_msg(strstr(text, row), "no row %s", row);
        ck_assert_ptr_nonnull(strstr(text, "## Shortcuts taken"));
        free(text);
    }
    cJSON_Delete(root);
    /* --writes: each array then at the steady state of 4K random writes at 16T/16Q, writes
     * and reads measured on it; the report's table and its scaling row follow the JSON */
    RUN(&c, "suite", "scaling", "--model", sys, "--quick", "--writes", "--out", dir, "--quiet");
    ck_assert_msg(c.status == 0, "exit %d: %s", c.status, c.err);
    cmd_free(&c);
    root = load_json(dir);
    points = item(item(root, "scaling"), "points");
    ck_assert_int_eq(cJSON_GetArraySize(points), 2 * 2 * 6 + 2 * 2);
    double wr[3] = {0, 0, 0};
    cJSON_ArrayForEach(e, points)
    {
        if (strcmp(cJSON_GetStringValue(item(e, "test")), "randwrite-4k-steady"))
            continue;
        ck_assert(num(e, "qd") == 16 && num(e, "jobs") == 16 && num(e, "waf") > 2);
        wr[(int)num(e, "devices")] = num(e, "iops");
    }
    ck_assert(wr[1] > 0 && wr[2] > 0);
    {
        char path[4096], row[160];
        char *text = read_file(dir_file(path, sizeof path, dir, "report.md"), NULL);
        ck_assert_ptr_nonnull(text);
        ck_assert_ptr_nonnull(strstr(text, "## 4 KiB random writes and reads at steady state"));
        snprintf(row, sizeof row, "| 4K random write, IOPS | %.0f | %.0f |\n| scaling | 1.00x "
                 "(linear 1x) | %.2fx (linear 2x) |", wr[1], wr[2], wr[2] / wr[1]);
        ck_assert_msg(strstr(text, row), "no rows %s", row);
        free(text);
    }
    cJSON_Delete(root);
    char model[4096];
    RUN(&c, "suite", "scaling", "--model", test_src_path(model, sizeof model,
                                                          "models/generic-slc.json"),
        "--quick", "--out", dir, "--quiet");
    assert_one_error(&c, 1, "the model is a single device; the suite needs a system model");
    cmd_free(&c);
    /* suites that need one solid-state device refuse a system, tenants a SATA drive, each
     * with one line */
    RUN(&c, "suite", "endurance", "--model", sys, "--quick", "--out", dir, "--quiet");
    assert_one_error(&c, 1, "suite endurance: the model is a system of devices; the endurance "
                            "points wear the flash of one solid-state device");
    cmd_free(&c);
    RUN(&c, "suite", "tenants", "--model", sys, "--quick", "--out", dir, "--quiet");
    assert_one_error(&c, 1, "suite tenants: the model is a system of devices");
    cmd_free(&c);
    RUN(&c, "suite", "tenants", "--model",
        test_src_path(model, sizeof model, "models/x25m-g2-160.json"), "--quick", "--out", dir,
        "--quiet");
    assert_one_error(&c, 1, "suite tenants: the model's host.interface is sata, which has one "
                            "command queue");
    cmd_free(&c);
}
END_TEST

/* apps: the small drive and a slower twin (tR 40 us: a QD1 4 KiB read 104.92 + 20 = 124.92
 * us) replay 49 reads 1 ms apart, each alone on its drive: as recorded, the mean latencies are
 * exactly those; the twin ranks second everywhere (its every read is slower and nothing else
 * differs). The report ranks them, the JSON holds both, the files listed exist. The twin's name
 * holds a comma and quotes: the CSVs quote it (RFC 4180), and the plots take each model's rows
 * by position (gnuplot's strcol would split the name at its comma). */
START_TEST(test_suite_apps_quick)
{
    char dir[4096], fast[4096], slow[4096], trace[4096];
    out_path(dir, sizeof dir, "suite-apps");
    remove_dir(dir);
    out_path(fast, sizeof fast, "suite-apps-fast.json");
    out_path(slow, sizeof slow, "suite-apps-slow.json");
    out_path(trace, sizeof trace, "suite-apps-trace.csv");
    const char *fmt = "{\"name\": \"apps-%s\", \"geometry\": {\"channels\": 2, "
                      "\"chips_per_channel\": 1, \"dies_per_chip\": 2, \"planes_per_die\": 1, "
                      "\"blocks_per_plane\": 64, \"pages_per_block\": 64, \"page_size\": "
                      "\"4KiB\"}, \"flash\": {\"cell\": \"slc\", \"read_us\": %d, "
                      "\"program_us\": 200, \"erase_us\": 1000, \"bus_mts\": 100, "
                      "\"bus_width\": 8}, \"controller\": {\"cmd_overhead_us\": 2, \"cores\": 1, "
                      "\"queue_depth\": 32}, \"host\": {\"interface\": \"custom\", "
                      "\"link_bw\": \"100MB/s\", \"cmd_overhead_us\": 1}, \"ftl\": "
                      "{\"type\": \"page\", \"op\": 0.28}}";
    char text[2048];
    snprintf(text, sizeof text, fmt, "fast", 20);
    write_file(fast, text);
    snprintf(text, sizeof text, fmt, "slow, \\\"twin\\\"", 40); /* a comma and quotes */
    write_file(slow, text);
    char tt[4096] = "time_ns,device,op,offset,length\n";
    for (int i = 0; i < 49; i++)
        snprintf(tt + strlen(tt), sizeof tt - strlen(tt), "%d000000,0,read,%d,4096\n", i, i * 4096);
    write_file(trace, tt);
    struct cmd c;
    RUN(&c, "suite", "apps", "--model", fast, "--compare-model", slow, "--trace", trace,
        "--passes", "2", "--out", dir, "--quiet");
    ck_assert_msg(c.status == 0, "exit %d: %s", c.status, c.err);
    cmd_free(&c);
    cJSON *root = load_json(dir);
    const cJSON *ap = item(root, "apps");
    ck_assert(num(ap, "requests") == 49 && num(ap, "intervals") == 24 && num(ap, "passes") == 2);
    const cJSON *models = item(ap, "models");
    ck_assert_int_eq(cJSON_GetArraySize(models), 2);
    const double want_us[2] = {104.92, 124.92};
    for (int i = 0; i < 2; i++) {
        const cJSON *mj = cJSON_GetArrayItem(models, i);
        const cJSON *rec = item(mj, "as_recorded");
        ck_assert_msg(fabs(num(rec, "lat_mean_ns") / 1e3 - want_us[i]) < 1e-6, "%d: %g", i,
                      num(rec, "lat_mean_ns"));
        ck_assert_int_eq(cJSON_GetArraySize(item(rec, "intervals")), 25);
        const cJSON *th = item(mj, "threads");
        ck_assert_int_eq(cJSON_GetArraySize(th), 5);
        const cJSON *e;
        cJSON_ArrayForEach(e, th) ck_assert(num(e, "n_ios") == 98);
    }
    assert_listed_files(root, dir);
    assert_file_has(dir, "report.md",
                    (const char *const[]){"| as recorded | apps-fast > apps-slow, \"twin\" |",
                                          "| 32 threads | apps-fast > apps-slow, \"twin\" |",
                                          "## Shortcuts taken", NULL});
    assert_file_has(dir, "apps-threads.csv",
                    (const char *const[]){"\napps-fast,32,",
                                          "\n\"apps-slow, \"\"twin\"\"\",2,", NULL});
    assert_file_has(dir, "apps-intervals.csv",
                    (const char *const[]){"\n\"apps-slow, \"\"twin\"\"\",25,", NULL});
    assert_file_has(dir, "suite.gp",
                    (const char *const[]){"'apps-threads.csv' skip 1 every ::5::9 using 2:3",
                                          /* its 25th interval, the last request's alone
                                           * (partial), is in the CSV but not plotted */
                                          "'apps-intervals.csv' skip 1 every ::25::48 using 2:5",
                                          NULL});
    cJSON_Delete(root);
    /* a model that cannot be loaded is named; a request beyond the drive without --wrap */
    RUN(&c, "suite", "apps", "--model", fast, "--compare-model", "/nonexistent/m.json",
        "--trace", trace, "--out", dir, "--quiet");
    assert_one_error(&c, 1, "/nonexistent/m.json");
    cmd_free(&c);
    write_file(trace, "time_ns,device,op,offset,length\n0,0,read,1099511627776,4096\n");
    RUN(&c, "suite", "apps", "--model", fast, "--trace", trace, "--out", dir, "--quiet");
    assert_one_error(&c, 1, "beyond the device's logical capacity");
    cmd_free(&c);
}
END_TEST

START_TEST(test_suite_tenants_quick)
{
    char dir[4096], model[4096];
    out_path(dir, sizeof dir, "suite-tenants");
    remove_dir(dir);
    struct cmd c;
    RUN(&c, "suite", "tenants", "--model", test_src_path(model, sizeof model,
                                                         "models/generic-slc.json"),
        SMALL_SETS, "--set", "controller.queue_depth=1", "--quick", "--window", "1s", "--out",
        dir, "--quiet");
    ck_assert_msg(c.status == 0, "exit %d: %s", c.status, c.err);
    cmd_free(&c);
    cJSON *root = load_json(dir);
    const cJSON *runs = item(root, "tenants");
    ck_assert_int_eq(cJSON_GetArraySize(runs), 2);
    static const double want[2] = {1, 4};
    for (int a = 0; a < 2; a++) {
        const cJSON *r = cJSON_GetArrayItem(runs, a);
        const cJSON *fl = item(r, "flows");
        const cJSON *w = cJSON_GetArrayItem(fl, 0), *rd = cJSON_GetArrayItem(fl, 1);
        double ratio = num(rd, "iops") / num(w, "iops");
        ck_assert_msg(fabs(ratio / want[a] - 1) < 0.02, "%s: ratio %.4f", a ? "wrr" : "rr",
                      ratio);
        double sw = num(w, "lat_mean_ns") / num(w, "alone_lat_mean_ns");
        double sr = num(rd, "lat_mean_ns") / num(rd, "alone_lat_mean_ns");
        ck_assert(fabs(num(w, "slowdown") / sw - 1) < 1e-4);
        ck_assert(fabs(num(rd, "slowdown") / sr - 1) < 1e-4);
        ck_assert(fabs(num(r, "fairness") / (fmin(sw, sr) / fmax(sw, sr)) - 1) < 1e-4);
        /* one command slot: both queues full to the end, small drain tails, no warning */
        ck_assert(num(w, "tail_fraction") < 0.05 && num(rd, "tail_fraction") < 0.05);
        ck_assert(cJSON_IsFalse(item(r, "drain_tail_warning")));
    }
    assert_listed_files(root, dir);
    {
        char path[4096];
        char *text = read_file(dir_file(path, sizeof path, dir, "report.md"), NULL);
        ck_assert_ptr_nonnull(text);
        ck_assert_ptr_nonnull(strstr(text, "Fairness index: round robin"));
        ck_assert_ptr_nonnull(strstr(text, "generic-slc"));
        free(text);
    }
    cJSON_Delete(root);
}
END_TEST

/* fdp: hot/cold writes with the classes on two persistently isolated handles against none,
 * at the model's over-provisioning: WAF with FDP below WAF without (as tests/test_fdp.c), the
 * handles' host bytes 9:1 (hot:cold) and one drive write in all, each handle's WAF its media
 * bytes / host bytes. */
START_TEST(test_suite_fdp_quick)
{
    char dir[4096], model[4096];
    out_path(dir, sizeof dir, "suite-fdp");
    remove_dir(dir);
    struct cmd c;
    RUN(&c, "suite", "fdp", "--model",
        test_src_path(model, sizeof model, "models/generic-slc.json"), SMALL_SETS, "--quick",
        "--out", dir, "--quiet");
    ck_assert_msg(c.status == 0, "exit %d: %s", c.status, c.err);
    cmd_free(&c);
    cJSON *root = load_json(dir);
    const cJSON *f = item(root, "fdp");
    ck_assert(num(f, "waf_on") < num(f, "waf_off"));
    ck_assert(num(f, "waf_on") >= 1);
    const cJSON *hs = item(f, "handles");
    const cJSON *cold = cJSON_GetArrayItem(hs, 0), *hot = cJSON_GetArrayItem(hs, 1);
    double logical = num(item(root, "model"), "logical_bytes");
    uint64_t per_dw = (uint64_t)logical / 4096;
    ck_assert_double_eq(num(hot, "host_bytes"), (double)(per_dw / 10 * 9 * 4096));
    ck_assert_double_eq(num(cold, "host_bytes"), (double)(per_dw / 10 * 4096));
    for (int h = 0; h < 2; h++) {
        const cJSON *x = cJSON_GetArrayItem(hs, h);
        double w = num(x, "media_bytes") / num(x, "host_bytes");
        ck_assert(fabs(num(x, "waf") / w - 1) < 1e-4);
    }
    assert_listed_files(root, dir);
    {
        char path[4096];
        char *text = read_file(dir_file(path, sizeof path, dir, "report.md"), NULL);
        ck_assert_ptr_nonnull(text);
        ck_assert_ptr_nonnull(strstr(text, "WAF with FDP"));
        ck_assert_ptr_nonnull(strstr(text, "generic-slc"));
        /* fdp measures no window: the options say only what it used */
        ck_assert_ptr_null(strstr(text, "windows of"));
        ck_assert_ptr_nonnull(strstr(text, "drive writes of warm-up"));
        /* over-provisioning in one style, the header's and the body's: "28.0%" */
        char op[64];
        snprintf(op, sizeof op, "over-provisioning %.1f%% ",
                 100 * num(item(root, "model"), "op"));
        ck_assert_msg(strstr(text, op) != NULL, "%s", op);
        snprintf(op, sizeof op, "over-provisioning (%.1f%%)",
                 100 * num(item(root, "model"), "op"));
        ck_assert_msg(strstr(text, op) != NULL, "%s", op);
        free(text);
    }
    const cJSON *opts = item(root, "options");
    ck_assert_ptr_null(cJSON_GetObjectItemCaseSensitive(opts, "window_ns"));
    ck_assert_ptr_null(cJSON_GetObjectItemCaseSensitive(opts, "curve_blocks_per_plane"));
    ck_assert_ptr_nonnull(cJSON_GetObjectItemCaseSensitive(opts, "max_drive_writes"));
    cJSON_Delete(root);
    /* a model FDP cannot run on: one line */
    RUN(&c, "suite", "fdp", "--set", "ftl.type=\"zoned\"", "--quick", "--out", dir,
        "--quiet");
    assert_one_error(&c, 1, "fdp.handles");
    cmd_free(&c);
}
END_TEST

/* The same command twice, its parts one after the other and in three worker processes:
 * byte-identical JSON, CSVs and progress lines (but for the wall time on the last). */
START_TEST(test_suite_is_deterministic)
{
    char d1[4096], d2[4096], model[4096];
    out_path(d1, sizeof d1, "suite-det-1");
    out_path(d2, sizeof d2, "suite-det-2");
    char *said[2];
    for (int k = 0; k < 2; k++) {
        const char *dir = k ? d2 : d1;
        remove_dir(dir);
        struct cmd c;
        RUN(&c, "suite", "review", "--model", model_path(model, sizeof model), SMALL_SETS,
            "--quick", "--curve-bpp", "32", "--out", dir, "--no-plot", "--jobs", k ? "3" : "1");
        ck_assert_msg(c.status == 0, "exit %d: %s", c.status, c.err);
        char *last = strstr(c.out, "report: ");
        ck_assert_ptr_nonnull(last);
        said[k] = strndup(c.out, (size_t)(last - c.out));
        cmd_free(&c);
    }
    /* the results folder differs, on the first line */
    ck_assert_str_eq(strchr(said[0], '\n'), strchr(said[1], '\n'));
    ck_assert_ptr_nonnull(strstr(said[1], "File server:"));
    free(said[0]);
    free(said[1]);
    cJSON *root = load_json(d1);
    const cJSON *e;
    int n = 0;
    cJSON_ArrayForEach(e, item(root, "csv"))
    {
        assert_same_file(d1, d2, e->valuestring);
        n++;
    }
    ck_assert_int_gt(n, 5);
    const char *same[] = {"suite.json", "report.md", "suite.gp"};
    for (size_t i = 0; i < 3; i++)
        assert_same_file(d1, d2, same[i]);
    /* --no-plot: the script is written, no plot is made. */
    char png[4096];
    ck_assert(!file_exists(dir_file(png, sizeof png, d1, "precondition-iops.png")));
    cJSON_Delete(root);
}
END_TEST

/* ------------------------------------------------------------------------------------------ */
/* Command line errors                                                                         */

START_TEST(test_suite_help)
{
    struct cmd c;
    RUN(&c, "suite", "--help");
    ck_assert_int_eq(c.status, 0);
    ck_assert(strstr(c.out, "usage: ssdsim suite") != NULL);
    ck_assert(strstr(c.out, "quick-matrix") != NULL);
    /* the tenants' queue depth as ssdsim_tenants_qd takes it, not a fixed QD32 */
    ck_assert(strstr(c.out, "max(32, controller.queue_depth)") != NULL);
    ck_assert(strstr(c.out, "QD32 each") == NULL);
    cmd_free(&c);
    RUN(&c, "help");
    ck_assert(strstr(c.out, "suite") != NULL);
    cmd_free(&c);
}
END_TEST

START_TEST(test_suite_bad_options_exit_2)
{
    struct cmd c;
    RUN(&c, "suite");
    assert_one_error(&c, 2, "give a suite");
    cmd_free(&c);
    RUN(&c, "suite", "reveiw");
    assert_one_error(&c, 2, "unknown suite 'reveiw'");
    cmd_free(&c);
    RUN(&c, "suite", "review", "--bogus");
    assert_one_error(&c, 2, "unknown option '--bogus'");
    cmd_free(&c);
    RUN(&c, "suite", "review", "--window", "fast");
    assert_one_error(&c, 2, "--window");
    cmd_free(&c);
    RUN(&c, "suite", "review", "--window");
    assert_one_error(&c, 2, "needs a value");
    cmd_free(&c);
    RUN(&c, "suite", "review", "--jobs", "0");
    assert_one_error(&c, 2, "--jobs expects a number of worker processes from 1 to 4096");
    cmd_free(&c);
    RUN(&c, "suite", "snia", "--compare-op", "0.2");
    assert_one_error(&c, 2, "--compare-op belongs to the review suite");
    cmd_free(&c);
    RUN(&c, "suite", "review", "--writes");
    assert_one_error(&c, 2, "--writes belongs to the scaling suite");
    cmd_free(&c);
    RUN(&c, "suite", "review", "--compare-op", "-1");
    assert_one_error(&c, 2, "--compare-op");
    cmd_free(&c);
    RUN(&c, "suite", "snia", "--rounds", "3");
    assert_one_error(&c, 2, "--rounds");
    cmd_free(&c);
    RUN(&c, "suite", "review", "--rounds", "10");
    assert_one_error(&c, 2, "belongs to the snia suite");
    cmd_free(&c);
    RUN(&c, "suite", "review", "--idle", "10s");
    assert_one_error(&c, 2, "belongs to the quick-matrix suite");
    cmd_free(&c);
    RUN(&c, "suite", "review", "--idle", "0s");
    assert_one_error(&c, 2, "--idle belongs to the quick-matrix suite");
    cmd_free(&c);
    RUN(&c, "suite", "snia", "--test-time", "60s");
    assert_one_error(&c, 2, "--test-time belongs to the quick-matrix suite");
    cmd_free(&c);
    RUN(&c, "suite", "quick-matrix", "--full-state", "seq:0");
    assert_one_error(&c, 2, "--full-state expects random, seq or seq:N");
    cmd_free(&c);
    RUN(&c, "suite", "review", "--full-state", "seq");
    assert_one_error(&c, 2, "--full-state belongs to the quick-matrix suite");
    cmd_free(&c);
    RUN(&c, "suite", "quick-matrix", "--test-time", "0");
    assert_one_error(&c, 2,
                     "--test-time expects a duration such as 60s, from 1ms to 3600s, got '0'");
    cmd_free(&c);
    /* a bare 0 is a duration of none, as 0s (doc/suites.md: "--idle ... 0: none"): --idle
     * takes it, and parsing goes on to the next option, whose error is the one reported */
    RUN(&c, "suite", "quick-matrix", "--idle", "0", "--full-state", "seq:0");
    assert_one_error(&c, 2, "--full-state expects random, seq or seq:N");
    cmd_free(&c);
    RUN(&c, "suite", "quick-matrix", "--idle", "0.0", "--full-state", "seq:0");
    assert_one_error(&c, 2, "--full-state expects random, seq or seq:N");
    cmd_free(&c);
    RUN(&c, "suite", "quick-matrix", "--idle", "0.0.0");
    assert_one_error(&c, 2, "--idle expects a duration such as 30s, from 0 to 3600s, got '0.0.0'");
    cmd_free(&c);
    /* a window or cell too short for its 10 rounds of the time series: refused here, not
     * after the run with a library message naming interval_ns or runtime_ns (exit 1) */
    static const char *const short_win[][3] = {
        {"review", "--window", "1ns"},  {"quick-matrix", "--window", "1ns"},
        {"tenants", "--window", "1ns"}, {"scaling", "--window", "999us"},
        {"snia", "--cell", "1ns"},      {"snia", "--cell", "0.5ms"},
    };
    for (size_t k = 0; k < sizeof short_win / sizeof short_win[0]; k++) {
        RUN(&c, "suite", short_win[k][0], short_win[k][1], short_win[k][2], "--quick");
        char want[256];
        snprintf(want, sizeof want,
                 "suite: %s expects a duration such as 500ms or 2s, from 1ms (10 rounds of the "
                 "time series of 100us) to 3600s, got '%s'",
                 short_win[k][1], short_win[k][2]);
        assert_one_error(&c, 2, want);
        cmd_free(&c);
    }
    {
        /* --compare-op whose sum with the drive's op the model refuses: the option and the
         * resulting op named, exit 2, before anything runs (it blamed --set after the first
         * mode had run, exit 1) */
        char model[4096], dir[4096];
        out_path(dir, sizeof dir, "suite-compare-op-big");
        remove_dir(dir);
        RUN(&c, "suite", "review", "--model", model_path(model, sizeof model), SMALL_SETS,
            "--quick", "--compare-op", "10", "--out", dir, "--no-plot", "--quiet");
        assert_one_error(&c, 2,
                         "suite review: --compare-op 10: the second drive's ftl.op would "
                         "be 10.28 (the drive's 0.28 + 10), which the model refuses: "
                         "ftl.op: expected a number in [0, 10], got 10.28");
        ck_assert_ptr_null(strstr(c.err, "--set"));
        cmd_free(&c);
        ck_assert(access(dir, F_OK) != 0);
    }
    /* quick-matrix measures a window within its test: a longer one is refused (the report
     * said "windows of 5 s, tests of 2 s" when they were 2 s) */
    RUN(&c, "suite", "quick-matrix", "--quick", "--window", "5s");
    assert_one_error(&c, 2,
                     "suite quick-matrix: --window (5 s) is longer than a test "
                     "(--test-time, 2 s with --quick): a window is measured within its "
                     "test; give one no longer");
    cmd_free(&c);
    RUN(&c, "suite", "quick-matrix", "--window", "2s", "--test-time", "2s", "--full-state", "x");
    assert_one_error(&c, 2, "--full-state expects random, seq or seq:N");
    cmd_free(&c);
    /* 1ms is taken: parsing goes on to the next option, whose error is the one reported */
    RUN(&c, "suite", "quick-matrix", "--window", "1ms", "--full-state", "seq:0");
    assert_one_error(&c, 2, "--full-state expects random, seq or seq:N");
    cmd_free(&c);
    RUN(&c, "suite", "snia", "--cell", "1ms", "--rounds", "4");
    assert_one_error(&c, 2, "--rounds expects an integer from 5 to 1000");
    cmd_free(&c);
    /* the units stated are ones the parser takes (it has no h) */
    RUN(&c, "suite", "quick-matrix", "--idle", "1h");
    assert_one_error(&c, 2,
                     "suite: --idle expects a duration such as 30s, from 0 to 3600s, got "
                     "'1h'");
    cmd_free(&c);
    RUN(&c, "suite", "quick-matrix", "--idle", "3600s", "--full-state", "seq:0");
    assert_one_error(&c, 2, "--full-state expects random, seq or seq:N");
    cmd_free(&c);
    RUN(&c, "suite", "review", "--curve-bpp", "2");
    assert_one_error(&c, 2, "--curve-bpp");
    cmd_free(&c);
    {
        /* a "copy" not smaller than the model: the curves would run on the model itself, and
         * suite.json and report.md said "a copy of 100000 blocks per plane"; refused first */
        char model[4096], dir[4096];
        out_path(dir, sizeof dir, "suite-curve-bpp-big");
        remove_dir(dir);
        static const char *const big[] = {"100000", "64"};
        for (int k = 0; k < 2; k++) {
            RUN(&c, "suite", "review", "--model", model_path(model, sizeof model), SMALL_SETS,
                "--quick", "--curve-bpp", big[k], "--out", dir, "--no-plot", "--quiet");
            char want[256];
            snprintf(want, sizeof want,
                     "suite review: --curve-bpp %s: the model has 64 blocks per plane, and the "
                     "curves' scaled copy must have fewer; give fewer, or --curve-bpp full to "
                     "run the curves on the model itself",
                     big[k]);
            assert_one_error(&c, 2, want);
            cmd_free(&c);
        }
        ck_assert(access(dir, F_OK) != 0);
    }
    RUN(&c, "suite", "review", "--set", "workload.bs=8k");
    assert_one_error(&c, 2, "fixed");
    cmd_free(&c);
    RUN(&c, "suite", "review", "--seed", "x");
    assert_one_error(&c, 2, "--seed");
    cmd_free(&c);
    RUN(&c, "suite", "apps");
    assert_one_error(&c, 2, "--trace FILE is required");
    cmd_free(&c);
    RUN(&c, "suite", "review", "--wrap");
    assert_one_error(&c, 2, "--wrap belongs to the apps suite");
    cmd_free(&c);
    RUN(&c, "suite", "scaling", "--compare-model", "x.json");
    assert_one_error(&c, 2, "--compare-model belongs to the apps suite");
    cmd_free(&c);
    RUN(&c, "suite", "snia", "--trace", "t.csv");
    assert_one_error(&c, 2, "--trace belongs to the apps suite");
    cmd_free(&c);
    /* the minimum stated is the one checked (it said "above 0") */
    RUN(&c, "suite", "apps", "--trace", "t.csv", "--time-scale", "1e-7");
    assert_one_error(&c, 2,
                     "suite: --time-scale expects a factor in [1e-6, 1e6] (2 = twice as "
                     "fast), got '1e-7'");
    cmd_free(&c);
    RUN(&c, "suite", "apps", "--trace", "t.csv", "--passes", "0");
    assert_one_error(&c, 2, "--passes expects a whole number from 1 to 100000, got '0'");
    cmd_free(&c);
    RUN(&c, "suite", "apps", "--trace", "t.csv", "--time-unit", "parsec");
    assert_one_error(&c, 2, "--time-unit expects ns, us, ms or s");
    cmd_free(&c);
    {
        /* another format's reader option on a CSV trace: refused as by run and trace info */
        char csv[4096], dir[4096];
        out_path(csv, sizeof csv, "suite-apps-foreign.csv");
        out_path(dir, sizeof dir, "suite-apps-foreign");
        write_file(csv, "time_ns,device,op,offset,length\n0,0,write,0,4096\n");
        RUN(&c, "suite", "apps", "--trace", csv, "--blkparse-events", "issue", "--out", dir);
        assert_one_error(&c, 2, "suite apps: --blkparse-events applies to blkparse traces only; ");
        cmd_free(&c);
        RUN(&c, "suite", "apps", "--trace", csv, "--read-flag", "1", "--out", dir);
        assert_one_error(&c, 2, "suite apps: --read-flag applies to DiskSim ASCII traces only; ");
        ck_assert_ptr_nonnull(strstr(c.err, "suite-apps-foreign.csv is csv"));
        cmd_free(&c);
        ck_assert(access(dir, F_OK) != 0);
        unlink(csv);
    }
    /* options of other suites: refused, not ignored and recorded in suite.json as if used */
    static const char *const foreign[][4] = {
        {"tenants", "--max-dw", "7", "--max-dw belongs to the review and fdp suites"},
        {"tenants", "--curve-bpp", "8", "--curve-bpp belongs to the review suite"},
        {"tenants", "--jobs", "1", "--jobs belongs to the review and snia suites"},
        {"fdp", "--window", "3s", "--window belongs to the review, quick-matrix, tenants and"},
        {"fdp", "--curve-bpp", "16", "--curve-bpp belongs to the review suite"},
        {"fdp", "--jobs", "2", "--jobs belongs to the review and snia suites"},
        {"endurance", "--window", "5s", "--window belongs to"},
        {"endurance", "--jobs", "2", "--jobs belongs to"},
        {"snia", "--window", "1s", "--window belongs to"},
        {"apps", "--max-dw", "4", "--max-dw belongs to"},
    };
    for (size_t k = 0; k < sizeof foreign / sizeof foreign[0]; k++) {
        RUN(&c, "suite", foreign[k][0], foreign[k][1], foreign[k][2], "--quick");
        assert_one_error(&c, 2, foreign[k][3]);
        cmd_free(&c);
    }
    /* the option named is the apps option given, not the argument parsed last */
    RUN(&c, "suite", "review", "--time-scale", "2", "--quick");
    assert_one_error(&c, 2, "--time-scale belongs to the apps suite");
    cmd_free(&c);
    RUN(&c, "suite", "review", "--trace-format", "csv", "--intervals", "3", "--quick");
    assert_one_error(&c, 2, "--trace-format belongs to the apps suite");
    cmd_free(&c);
}
END_TEST

START_TEST(test_suite_missing_model_exits_1)
{
    char dir[4096];
    out_path(dir, sizeof dir, "suite-missing");
    remove_dir(dir);
    struct cmd c;
    RUN(&c, "suite", "review", "--model", "/nonexistent/model.json", "--out", dir);
    assert_one_error(&c, 1, "/nonexistent/model.json");
    ck_assert(!file_exists(dir));
    cmd_free(&c);
    char model[4096];
    RUN(&c, "suite", "snia", "--model", model_path(model, sizeof model), "--set", "ftl.op=-1",
        "--out", dir);
    assert_one_error(&c, 1, "ftl.op");
    cmd_free(&c);
}
END_TEST

/* An input at a file the suite writes in its folder (a model named suite.json in --out) is
 * refused before anything runs (doc/guide.md, "Output files"): one line naming the file and the
 * input, nothing on stdout (the suite's first line comes as it starts), the input untouched. */
START_TEST(test_suite_input_in_out_refused_first)
{
    char dir[4096], src[4096], model[4096];
    out_path(dir, sizeof dir, "suite-input-in-out");
    remove_dir(dir);
    ck_assert(mkdir(dir, 0777) == 0);
    char *text = read_file(model_path(src, sizeof src), NULL);
    ck_assert_ptr_nonnull(text);
    snprintf(model, sizeof model, "%s/suite.json", dir);
    write_file(model, text);
    struct cmd c;
    RUN(&c, "suite", "tenants", "--quick", "--model", model, SMALL_SETS, "--out", dir,
        "--no-plot");
    assert_one_error(&c, 2, "suite tenants would write this file, and it is the input");
    ck_assert_uint_eq(c.n_out, 0);
    cmd_free(&c);
    char *after = read_file(model, NULL);
    ck_assert_str_eq(after, text);
    free(after);
    /* a model of another name in the folder is no output's */
    snprintf(model, sizeof model, "%s/mine.json", dir);
    write_file(model, text);
    RUN(&c, "suite", "tenants", "--quick", "--model", model, SMALL_SETS, "--out", dir,
        "--no-plot", "--quiet");
    ck_assert_msg(c.status == 0, "suite with its model in --out: %s", c.err);
    cmd_free(&c);
    free(text);
}
END_TEST

/* The other inputs a suite reads are as safe as its model: endurance's --workload, apps's
 * --compare-model and a system model's member at a file the suite writes (report.md,
 * suite.json) are refused before anything runs, exit 2, the file untouched (endurance once
 * wrote its report over the workload and exited 0; the scaling suite over the member). */
START_TEST(test_suite_other_inputs_in_out_refused)
{
    char dir[4096], wl[4096], src[4096], other[4096], trace[4096];
    out_path(dir, sizeof dir, "suite-inputs-in-out");
    remove_dir(dir);
    ck_assert(mkdir(dir, 0777) == 0);
    snprintf(wl, sizeof wl, "%s/report.md", dir);
    const char *wtext =
        "{\"rw\": \"randread\", \"bs\": \"4k\", \"iodepth\": 4, \"number_ios\": 100}\n";
    write_file(wl, wtext);
    struct cmd c;
    RUN(&c, "suite", "endurance", "--quick", "--model", model_path(src, sizeof src), SMALL_SETS,
        "--workload", wl, "--out", dir, "--no-plot", "--quiet");
    assert_one_error(&c, 2,
                     "report.md: suite endurance would write this file, and it is the "
                     "input");
    cmd_free(&c);
    char *after = read_file(wl, NULL);
    ck_assert_str_eq(after, wtext);
    free(after);
    /* a model compared by apps, loaded only after the check, is known by then */
    char *mtext = read_file(model_path(src, sizeof src), NULL);
    ck_assert_ptr_nonnull(mtext);
    snprintf(other, sizeof other, "%s/suite.json", dir);
    write_file(other, mtext);
    out_path(trace, sizeof trace, "suite-inputs-in-out.csv");
    write_file(trace, "time_ns,device,op,offset,length\n0,0,read,0,4096\n");
    RUN(&c, "suite", "apps", "--quick", "--model", src, "--compare-model", other, "--trace", trace,
        "--out", dir, "--no-plot", "--quiet");
    assert_one_error(&c, 2, "suite.json: suite apps would write this file, and it is the input");
    cmd_free(&c);
    /* ... and so is one given by its installed name ("suite" in $SSDSIM_MODELS_DIR) */
    setenv("SSDSIM_MODELS_DIR", dir, 1);
    RUN(&c, "suite", "apps", "--quick", "--model", src, "--compare-model", "suite", "--trace",
        trace, "--out", dir, "--no-plot", "--quiet");
    unsetenv("SSDSIM_MODELS_DIR");
    assert_one_error(&c, 2, "suite.json: suite apps would write this file, and it is the input");
    cmd_free(&c);
    after = read_file(other, NULL);
    ck_assert_str_eq(after, mtext);
    free(after);
    free(mtext);
    unlink(trace);
    /* a system model's member file, read beside it, is an input too */
    char sys[4096];
    write_file(other, small_member_json);
    snprintf(sys, sizeof sys, "%s/raid0.json", dir);
    write_file(sys, "{\"name\": \"raid0\", \"system\": {\"member\": \"suite.json\", \"count\": "
                    "2, \"layout\": \"raid0\", \"stripe\": \"64KiB\"}}");
    RUN(&c, "suite", "scaling", "--quick", "--model", sys, "--out", dir, "--no-plot", "--quiet");
    assert_one_error(&c, 2,
                     "suite.json: suite scaling would write this file, and it is the "
                     "input");
    cmd_free(&c);
    after = read_file(other, NULL);
    ck_assert_str_eq(after, small_member_json);
    free(after);
}
END_TEST

static Suite *suite_suite(void)
{
    Suite *s = suite_create("suite");
    TCase *usage = tcase_create("usage");
    tcase_add_test(usage, test_suite_help);
    tcase_add_test(usage, test_suite_bad_options_exit_2);
    tcase_add_test(usage, test_suite_missing_model_exits_1);
    tcase_add_test(usage, test_suite_input_in_out_refused_first);
    tcase_add_test(usage, test_suite_other_inputs_in_out_refused);
    suite_add_tcase(s, usage);
    TCase *runs = tcase_create("runs");
    tcase_set_timeout(runs, 300);
    tcase_add_test(runs, test_suite_review_quick);
    tcase_add_test(runs, test_suite_review_scaled_compare_op);
    tcase_add_test(runs, test_suite_snia_quick);
    tcase_add_test(runs, test_suite_quick_matrix_quick);
    tcase_add_test(runs, test_suite_quick_matrix_disk);
    tcase_add_test(runs, test_suite_quick_matrix_no_gc_marked);
    tcase_add_test(runs, test_suite_scaling_quick);
    tcase_add_test(runs, test_suite_review_jbod_says_how_threads_spread);
    tcase_add_test(runs, test_suite_quick_matrix_raid5);
    tcase_add_test(runs, test_suite_quick_matrix_card_cache);
    tcase_add_test(runs, test_suite_apps_quick);
    tcase_add_test(runs, test_suite_endurance_quick);
    tcase_add_test(runs, test_suite_endurance_accel_check);
    tcase_add_test(runs, test_suite_tenants_quick);
    tcase_add_test(runs, test_suite_fdp_quick);
    tcase_add_test(runs, test_suite_is_deterministic);
    suite_add_tcase(s, runs);
    return s;
}

int main(void)
{
    return test_run_suite(suite_suite());
}
