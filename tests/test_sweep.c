/* test_sweep.c: `ssdsim sweep`, `ssdsim collect` and `ssdsim run --manifest` as a user meets
 * them.
 *
 * Each test runs the built command (SSDSIM_BIN, as `make check` sets it) in a child process and
 * checks its exit status, its output and the files it writes. The grid is 3 over-provisioning
 * values x 2 queue depths on a small model (2 dies x 64 blocks x 32 pages of 4 KiB, 16 MiB
 * raw) filled sequentially, then 3000 4 KiB random writes: each point takes a few milliseconds,
 * and every point is GC-bound. What is checked:
 *   - the files (one JSON per point, named by its parameters; summary.csv in grid order) and
 *     the seeds, recomputed here from the documented formula;
 *   - determinism: --jobs 1 and --jobs 2 give byte-identical files;
 *   - the manifest path: one point run alone, every point run by hand and then collected, and
 *     every point run by GNU parallel (when installed) give the same bytes as the sweep;
 *   - bad input: one error line "ssdsim: ...", exit 1 for bad values, 2 for bad command lines;
 *   - a simulated figure: write amplification falls as over-provisioning grows.
 *
 * Input files are read from the source tree or written under BUILDDIR/tests/out/sweep*, the
 * only place this program writes, so `make distcheck` passes.
 */
#include <cJSON.h>
#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "testutil.h"
#include "cmdtest.h"

/* ------------------------------------------------------------------------------------------ */
/* Argument lists and files                                                                    */

/* An argument list built piece by piece. */
struct args {
    const char *v[192];
    size_t n;
};

/* Append the NULL-terminated arguments that follow `a`. */
static void args_add(struct args *a, ...)
{
    va_list ap;
    va_start(ap, a);
    for (const char *s; (s = va_arg(ap, const char *));) {
        ck_assert_uint_lt(a->n, sizeof a->v / sizeof a->v[0] - 1);
        a->v[a->n++] = s;
    }
    va_end(ap);
    a->v[a->n] = NULL;
}

static void args_ssdsim(struct args *a)
{
    a->n = 0;
    args_add(a, ssdsim_bin(), NULL);
}

/* DIR/NAME into buf. */

/* Remove a results directory (it holds files only) so each test starts clean. */
static void remove_dir(const char *dir)
{
    DIR *d = opendir(dir);
    if (!d)
        return;
    struct dirent *e;
    char path[4096];
    while ((e = readdir(d))) {
        if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
            continue;
        dir_file(path, sizeof path, dir, e->d_name);
        ck_assert_msg(unlink(path) == 0, "%s: %s", path, strerror(errno));
    }
    closedir(d);
    ck_assert_msg(rmdir(dir) == 0, "%s: %s", dir, strerror(errno));
}

/* A fresh BUILDDIR/tests/out/<name>/ (not created: the command must create it). */
static const char *fresh_dir(char *buf, size_t len, const char *name)
{
    out_path(buf, len, name);
    remove_dir(buf);
    return buf;
}

static void assert_same_file(const char *dir_a, const char *dir_b, const char *name)
{
    char a[4096], b[4096];
    dir_file(a, sizeof a, dir_a, name);
    dir_file(b, sizeof b, dir_b, name);
    size_t na, nb;
    char *ta = read_file(a, &na), *tb = read_file(b, &nb);
    ck_assert_msg(ta != NULL, "%s was not written", a);
    ck_assert_msg(tb != NULL, "%s was not written", b);
    ck_assert_msg(na == nb && memcmp(ta, tb, na) == 0, "%s and %s differ", a, b);
    free(ta);
    free(tb);
}


/* ------------------------------------------------------------------------------------------ */
/* The grid                                                                                    */

/* --set options that shrink generic-mlc to 2 channels x 1 chip x 1 die x 1 plane x 64 blocks
 * x 32 pages of 4 KiB (16 MiB raw). */
#define SMALL_SETS                                                                                 \
    "--set", "geometry.channels=2", "--set", "geometry.chips_per_channel=1", "--set",              \
        "geometry.dies_per_chip=1", "--set", "geometry.planes_per_die=1", "--set",                 \
        "geometry.blocks_per_plane=64", "--set", "geometry.pages_per_block=32"

#define N_POINTS 6
#define OP_VALUES "0.1,0.3,0.6"
#define QD_VALUES "1,4"

/* The grid's points in grid order (ftl.op varies slowest), their parameters and names. */
static const char *const grid_op[N_POINTS] = {"0.1", "0.1", "0.3", "0.3", "0.6", "0.6"};
static const char *const grid_qd[N_POINTS] = {"1", "4", "1", "4", "1", "4"};
static const char *const grid_names[N_POINTS] = {
    "ftl.op-0.1__workload.iodepth-1.json", "ftl.op-0.1__workload.iodepth-4.json",
    "ftl.op-0.3__workload.iodepth-1.json", "ftl.op-0.3__workload.iodepth-4.json",
    "ftl.op-0.6__workload.iodepth-1.json", "ftl.op-0.6__workload.iodepth-4.json"};

/* 4 KiB random writes, `n_ios` of them at queue depth 4 (the grid varies the depth). */
static const char *workload_file(char *buf, size_t len, unsigned n_ios)
{
    char name[64], text[256];
    snprintf(name, sizeof name, "sweep-wl-%u.json", n_ios);
    out_path(buf, len, name);
    snprintf(text, sizeof text,
             "{\"rw\": \"randwrite\", \"bs\": \"4k\", \"iodepth\": 4, \"number_ios\": %u}\n",
             n_ios);
    write_file(buf, text);
    return buf;
}

/* `ssdsim sweep` of the 3 x 2 grid into `dir`, with the extra NULL-terminated arguments. */
static void grid_args(struct args *a, const char *wl, const char *dir)
{
    args_ssdsim(a);
    args_add(a, "sweep", "--workload", wl, SMALL_SETS, "--precondition", "seq", "--vary",
             "ftl.op=" OP_VALUES, "--vary", "workload.iodepth=" QD_VALUES, "--out", dir, NULL);
}

/* Run the grid into BUILDDIR/tests/out/<name> with --jobs `jobs`, --quiet and --no-plot. */
static void run_grid(const char *name, const char *jobs, char *dir, size_t len)
{
    char wl[4096];
    workload_file(wl, sizeof wl, 3000);
    fresh_dir(dir, len, name);
    struct args a;
    grid_args(&a, wl, dir);
    args_add(&a, "--jobs", jobs, "--quiet", "--no-plot", NULL);
    struct cmd c;
    run_prog(&c, a.v);
    ck_assert_msg(c.status == 0, "sweep: exit %d: %s", c.status, c.err);
    /* nothing, not even the library's warning about the small model's reserve */
    ck_assert_msg(c.n_out == 0 && c.n_err == 0, "--quiet printed: %s%s", c.out, c.err);
    cmd_free(&c);
}

/* Emit the grid's manifest to BUILDDIR/tests/out/<name>.jsonl with results in <name>/. */
static void emit_grid(const char *name, char *dir, size_t len, char *manifest, size_t mlen)
{
    char wl[4096], file[256];
    workload_file(wl, sizeof wl, 3000);
    fresh_dir(dir, len, name);
    snprintf(file, sizeof file, "%s.jsonl", name);
    out_path(manifest, mlen, file);
    unlink(manifest);
    struct args a;
    grid_args(&a, wl, dir);
    args_add(&a, "--emit", manifest, "--quiet", NULL);
    struct cmd c;
    run_prog(&c, a.v);
    ck_assert_msg(c.status == 0, "sweep --emit: exit %d: %s", c.status, c.err);
    ck_assert_msg(c.n_out == 0 && c.n_err == 0, "--quiet printed: %s%s", c.out, c.err);
    cmd_free(&c);
    ck_assert_msg(!file_exists(dir), "--emit ran points: %s exists", dir);
}

/* The points' JSON, summary.csv and summary.gp of two directories are byte-identical. */
static void assert_same_results(const char *dir_a, const char *dir_b)
{
    for (int k = 0; k < N_POINTS; k++)
        assert_same_file(dir_a, dir_b, grid_names[k]);
    assert_same_file(dir_a, dir_b, "summary.csv");
    assert_same_file(dir_a, dir_b, "summary.gp");
}

/* The seed of a point as doc/guide.md defines it, computed independently of the command:
 * FNV-1a 64 of "seed=BASE;KEY=VALUE;..." (keys in byte order), the splitmix64 finalizer, the
 * top 53 bits. */
static uint64_t expected_seed(uint64_t base, const char *op, const char *qd)
{
    char text[256];
    snprintf(text, sizeof text, "seed=%" PRIu64 ";ftl.op=%s;workload.iodepth=%s;", base, op, qd);
    uint64_t h = 0xcbf29ce484222325u;
    for (const char *c = text; *c; c++)
        h = (h ^ (unsigned char)*c) * 0x100000001b3u;
    h = (h ^ (h >> 30)) * 0xbf58476d1ce4e5b9u;
    h = (h ^ (h >> 27)) * 0x94d049bb133111ebu;
    h ^= h >> 31;
    return h >> 11;
}

/* summary.csv split into lines and fields (no field of the grid needs quoting). */
struct csv {
    char *text;
    char *lines[64][32];
    int n_lines;
    int n_fields;
};

static void csv_read(struct csv *t, const char *dir)
{
    char path[4096];
    dir_file(path, sizeof path, dir, "summary.csv");
    memset(t, 0, sizeof *t);
    t->text = read_file(path, NULL);
    ck_assert_msg(t->text != NULL, "%s was not written", path);
    char *save = NULL;
    for (char *line = strtok_r(t->text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        ck_assert_int_lt(t->n_lines, 64);
        int n = 0;
        char *fsave = NULL;
        for (char *f = strtok_r(line, ",", &fsave); f; f = strtok_r(NULL, ",", &fsave)) {
            ck_assert_int_lt(n, 32);
            t->lines[t->n_lines][n++] = f;
        }
        if (t->n_lines == 0)
            t->n_fields = n;
        ck_assert_msg(n == t->n_fields, "summary.csv line %d has %d fields, the header %d",
                      t->n_lines + 1, n, t->n_fields);
        t->n_lines++;
    }
}

static int csv_column(const struct csv *t, const char *name)
{
    for (int i = 0; i < t->n_fields; i++)
        if (!strcmp(t->lines[0][i], name))
            return i;
    ck_abort_msg("summary.csv has no column %s", name);
    return -1;
}

/* ------------------------------------------------------------------------------------------ */
/* Help                                                                                        */

START_TEST(test_sweep_help_lists_options)
{
    struct cmd c;
    RUN(&c, "sweep", "--help");
    ck_assert_int_eq(c.status, 0);
    ck_assert_msg(strncmp(c.out, "usage: ssdsim sweep", 19) == 0, "%s", c.out);
    static const char *const opts[] = {"--vary",      "--model",    "--workload",     "--set",
                                       "--seed",      "--out",      "--jobs",         "--emit",
                                       "--interval",  "--quiet",    "--interval-ios", "--no-plot",
                                       "summary.csv", "--manifest", "--precondition"};
    for (size_t i = 0; i < sizeof opts / sizeof opts[0]; i++)
        ck_assert_msg(strstr(c.out, opts[i]) != NULL, "sweep --help does not mention %s", opts[i]);
    ck_assert_uint_eq(c.n_err, 0);
    cmd_free(&c);

    RUN(&c, "collect", "--help");
    ck_assert_int_eq(c.status, 0);
    ck_assert_msg(strncmp(c.out, "usage: ssdsim collect", 21) == 0, "%s", c.out);
    cmd_free(&c);

    RUN(&c, "run", "--help");
    ck_assert_int_eq(c.status, 0);
    ck_assert(strstr(c.out, "--manifest") && strstr(c.out, "--index"));
    cmd_free(&c);

    RUN(&c, "help");
    ck_assert(strstr(c.out, "sweep") && strstr(c.out, "collect"));
    cmd_free(&c);
}
END_TEST

/* ------------------------------------------------------------------------------------------ */
/* The grid runs                                                                               */

START_TEST(test_sweep_grid_writes_points_and_table)
{
    char dir[4096];
    run_grid("sweep-j2", "2", dir, sizeof dir);

    /* One JSON per point, named by its parameters, with the point object first. */
    for (int k = 0; k < N_POINTS; k++) {
        char path[4096];
        dir_file(path, sizeof path, dir, grid_names[k]);
        char *text = read_file(path, NULL);
        ck_assert_msg(text != NULL, "%s was not written", path);
        ck_assert_msg(strncmp(text, "{\n\t\"point\":", 11) == 0, "%s: no point first", path);
        cJSON *root = cJSON_Parse(text);
        ck_assert_msg(root != NULL, "%s is not JSON", path);
        const cJSON *pt = cJSON_GetObjectItemCaseSensitive(root, "point");
        ck_assert_int_eq(cJSON_GetObjectItemCaseSensitive(pt, "index")->valuedouble, k);
        ck_assert_int_eq(cJSON_GetObjectItemCaseSensitive(pt, "n_points")->valuedouble, N_POINTS);
        ck_assert_int_eq(cJSON_GetObjectItemCaseSensitive(pt, "base_seed")->valuedouble, 1);
        const cJSON *params = cJSON_GetObjectItemCaseSensitive(pt, "params");
        ck_assert_int_eq(cJSON_GetArraySize(params), 2);
        /* the parameters in --vary order, as written */
        ck_assert_str_eq(params->child->string, "ftl.op");
        ck_assert_str_eq(params->child->valuestring, grid_op[k]);
        ck_assert_str_eq(params->child->next->string, "workload.iodepth");
        ck_assert_str_eq(params->child->next->valuestring, grid_qd[k]);
        /* the results of `ssdsim run --json` follow, with the derived seed */
        ck_assert(cJSON_IsObject(cJSON_GetObjectItemCaseSensitive(root, "ops")));
        ck_assert(cJSON_IsObject(cJSON_GetObjectItemCaseSensitive(root, "device")));
        uint64_t seed = (uint64_t)cJSON_GetObjectItemCaseSensitive(root, "seed")->valuedouble;
        ck_assert_uint_eq(seed, expected_seed(1, grid_op[k], grid_qd[k]));
        const cJSON *write = cJSON_GetObjectItemCaseSensitive(
            cJSON_GetObjectItemCaseSensitive(root, "ops"), "write");
        ck_assert_int_eq(cJSON_GetObjectItemCaseSensitive(write, "count")->valuedouble, 3000);
        cJSON_Delete(root);
        free(text);
    }

    /* summary.csv: the header, then one row per point in grid order. */
    struct csv t;
    csv_read(&t, dir);
    static const char *const header[] = {"ftl.op",
                                         "workload.iodepth",
                                         "seed",
                                         "waf",
                                         "all_iops",
                                         "write_iops",
                                         "read_iops",
                                         "all_lat_mean_ns",
                                         "all_lat_p99_ns",
                                         "all_lat_max_ns",
                                         "gc_pages_copied",
                                         "blocks_erased",
                                         "op",
                                         "spare_factor",
                                         "logical_bytes"};
    ck_assert_int_eq(t.n_fields, (int)(sizeof header / sizeof header[0]));
    for (int i = 0; i < t.n_fields; i++)
        ck_assert_str_eq(t.lines[0][i], header[i]);
    ck_assert_int_eq(t.n_lines, 1 + N_POINTS);
    int seed_col = csv_column(&t, "seed");
    int op_col = csv_column(&t, "op");
    for (int k = 0; k < N_POINTS; k++) {
        char *const *row = t.lines[1 + k];
        ck_assert_str_eq(row[0], grid_op[k]);
        ck_assert_str_eq(row[1], grid_qd[k]);
        char want[32];
        snprintf(want, sizeof want, "%" PRIu64, expected_seed(1, grid_op[k], grid_qd[k]));
        ck_assert_str_eq(row[seed_col], want);
        /* device.op is the over-provisioning the geometry allows, close to what was asked */
        double op = strtod(row[op_col], NULL), asked = strtod(grid_op[k], NULL);
        ck_assert_msg(op >= asked - 0.01 && op <= asked + 0.01, "op %g for ftl.op %g", op, asked);
    }
    free(t.text);

    /* the plot script is written even with --no-plot; the plots are not */
    char path[4096];
    dir_file(path, sizeof path, dir, "summary.gp");
    ck_assert(file_exists(path));
    dir_file(path, sizeof path, dir, "waf.png");
    ck_assert(!file_exists(path));
}
END_TEST

START_TEST(test_sweep_jobs_do_not_change_results)
{
    char d2[4096], d1[4096];
    run_grid("sweep-j2", "2", d2, sizeof d2);
    run_grid("sweep-j1", "1", d1, sizeof d1);
    assert_same_results(d1, d2);
}
END_TEST

START_TEST(test_sweep_manifest_point_alone_is_identical)
{
    char swept[4096], dir[4096], manifest[4096];
    run_grid("sweep-j2", "2", swept, sizeof swept);
    emit_grid("sweep-one", dir, sizeof dir, manifest, sizeof manifest);

    /* one line per point, in grid order, each a JSON object with its index */
    char *text = read_file(manifest, NULL);
    ck_assert_ptr_nonnull(text);
    int n = 0;
    char *save = NULL;
    for (char *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save), n++) {
        cJSON *o = cJSON_Parse(line);
        ck_assert_msg(o != NULL, "manifest line %d is not JSON", n + 1);
        ck_assert_int_eq(cJSON_GetObjectItemCaseSensitive(o, "index")->valuedouble, n);
        ck_assert_uint_eq((uint64_t)cJSON_GetObjectItemCaseSensitive(o, "seed")->valuedouble,
                          expected_seed(1, grid_op[n], grid_qd[n]));
        cJSON_Delete(o);
    }
    free(text);
    ck_assert_int_eq(n, N_POINTS);

    /* point 3 alone, into the manifest's directory (created by the run) */
    struct cmd c;
    RUN(&c, "run", "--manifest", manifest, "--index", "3", "--quiet");
    ck_assert_msg(c.status == 0, "run --manifest: exit %d: %s", c.status, c.err);
    ck_assert_msg(c.n_out == 0 && c.n_err == 0, "--quiet printed: %s%s", c.out, c.err);
    cmd_free(&c);
    assert_same_file(swept, dir, grid_names[3]);

    /* --json puts it elsewhere, with the same bytes; without --quiet the report is printed */
    char other[4096];
    out_path(other, sizeof other, "sweep-one-point3.json");
    unlink(other);
    RUN(&c, "run", "--manifest", manifest, "--index", "3", "--json", other);
    ck_assert_msg(c.status == 0, "run --manifest --json: exit %d: %s", c.status, c.err);
    ck_assert(strstr(c.out, "write amplification") != NULL);
    cmd_free(&c);
    char *a = read_file(other, NULL);
    char path[4096];
    dir_file(path, sizeof path, swept, grid_names[3]);
    char *b = read_file(path, NULL);
    ck_assert(a && b);
    ck_assert_str_eq(a, b);
    free(a);
    free(b);
}
END_TEST

START_TEST(test_sweep_manifest_then_collect_is_identical)
{
    char swept[4096], dir[4096], manifest[4096];
    run_grid("sweep-j2", "2", swept, sizeof swept);
    emit_grid("sweep-manual", dir, sizeof dir, manifest, sizeof manifest);
    /* The points in reverse order, as a cluster might finish them. */
    for (int k = N_POINTS - 1; k >= 0; k--) {
        char index[16];
        snprintf(index, sizeof index, "%d", k);
        struct cmd c;
        RUN(&c, "run", "--manifest", manifest, "--index", index, "--quiet");
        ck_assert_msg(c.status == 0, "point %d: exit %d: %s", k, c.status, c.err);
        cmd_free(&c);
    }
    struct cmd c;
    RUN(&c, "collect", dir, "--quiet", "--no-plot");
    ck_assert_msg(c.status == 0, "collect: exit %d: %s", c.status, c.err);
    ck_assert_msg(c.n_out == 0 && c.n_err == 0, "--quiet printed: %s%s", c.out, c.err);
    cmd_free(&c);
    assert_same_results(swept, dir);

    /* collect on the sweep's own directory rewrites the same table */
    char path[4096];
    dir_file(path, sizeof path, swept, "summary.csv");
    char *before = read_file(path, NULL);
    ck_assert_int_eq(unlink(path), 0);
    RUN(&c, "collect", swept, "--no-plot");
    ck_assert_msg(c.status == 0, "collect: exit %d: %s", c.status, c.err);
    ck_assert(strstr(c.out, "summary.csv") != NULL);
    cmd_free(&c);
    char *after = read_file(path, NULL);
    ck_assert(before && after);
    ck_assert_str_eq(before, after);
    free(before);
    free(after);
}
END_TEST

START_TEST(test_sweep_gnu_parallel_is_identical)
{
    if (!on_path("parallel")) {
        printf("test_sweep_gnu_parallel_is_identical: GNU parallel is not installed: skipped\n");
        return;
    }
    char swept[4096], dir[4096], manifest[4096];
    run_grid("sweep-j2", "2", swept, sizeof swept);
    emit_grid("sweep-parallel", dir, sizeof dir, manifest, sizeof manifest);
    /* What doc/guide.md shows, with -q so that paths holding blanks stay whole and
     * --will-cite to keep parallel's citation notice off stderr. */
    const char *argv[] = {"parallel", "--will-cite", "-q",     "-j2",     ssdsim_bin(),
                          "run",      "--manifest",  manifest, "--index", "{}",
                          "--quiet",  ":::",         "0",      "1",       "2",
                          "3",        "4",           "5",      NULL};
    struct cmd c;
    run_prog(&c, argv);
    ck_assert_msg(c.status == 0, "parallel: exit %d: %s", c.status, c.err);
    cmd_free(&c);
    RUN(&c, "collect", dir, "--quiet", "--no-plot");
    ck_assert_msg(c.status == 0, "collect: exit %d: %s", c.status, c.err);
    cmd_free(&c);
    assert_same_results(swept, dir);
}
END_TEST

START_TEST(test_sweep_waf_falls_as_op_grows)
{
    /* 6000 random writes after a full sequential fill: about 1.6 times the logical capacity
     * at ftl.op 0.1 (3723 pages), so every point runs under garbage collection. */
    char wl[4096], dir[4096];
    workload_file(wl, sizeof wl, 6000);
    fresh_dir(dir, sizeof dir, "sweep-waf");
    struct cmd c;
    RUN(&c, "sweep", "--workload", wl, SMALL_SETS, "--precondition", "seq", "--vary",
        "ftl.op=" OP_VALUES, "--out", dir, "--no-plot");
    ck_assert_msg(c.status == 0, "sweep: exit %d: %s", c.status, c.err);
    ck_assert(strstr(c.out, "summary.csv") != NULL);
    cmd_free(&c);
    struct csv t;
    csv_read(&t, dir);
    ck_assert_int_eq(t.n_lines, 4);
    int waf_col = csv_column(&t, "waf"), gc_col = csv_column(&t, "gc_pages_copied");
    double waf[3];
    for (int k = 0; k < 3; k++) {
        waf[k] = strtod(t.lines[1 + k][waf_col], NULL);
        ck_assert_msg(strtod(t.lines[1 + k][gc_col], NULL) > 0, "no GC at ftl.op %s",
                      t.lines[1 + k][0]);
    }
    ck_assert_msg(waf[0] > waf[1] && waf[1] > waf[2], "WAF %g, %g, %g does not fall", waf[0],
                  waf[1], waf[2]);
    /* clearly GC-bound at the low end, and still above 1 at the high end */
    ck_assert_msg(waf[0] > 3.0, "WAF %g at ftl.op 0.1", waf[0]);
    ck_assert_msg(waf[2] > 1.0, "WAF %g at ftl.op 0.6", waf[2]);
    free(t.text);
}
END_TEST

START_TEST(test_sweep_plots_or_says_why_not)
{
    char wl[4096], dir[4096];
    workload_file(wl, sizeof wl, 3000);
    fresh_dir(dir, sizeof dir, "sweep-plot");
    struct cmd c;
    RUN(&c, "sweep", "--workload", wl, SMALL_SETS, "--vary", "ftl.op=0.2,0.4", "--vary",
        "gc.free_blocks_min=2,3", "--out", dir);
    ck_assert_msg(c.status == 0, "sweep: exit %d: %s", c.status, c.err);
    char png[4096];
    dir_file(png, sizeof png, dir, "waf.png");
    if (on_path("gnuplot")) {
        cmd_drop_reserve_warning(&c);
        ck_assert_msg(c.n_err == 0, "stderr: %s", c.err);
        ck_assert_msg(file_exists(png), "gnuplot is installed but %s was not made", png);
        dir_file(png, sizeof png, dir, "iops.png");
        ck_assert(file_exists(png));
    } else {
        ck_assert(strstr(c.out, "gnuplot is not installed") != NULL);
        ck_assert(!file_exists(png));
    }
    cmd_free(&c);
}
END_TEST

START_TEST(test_sweep_failed_point_others_finish)
{
    /* 64 MiB does not fit the 12.5 MiB drive: that point fails when it starts, the other
     * runs, the table holds it, and the exit status says something failed. */
    char wl[4096], dir[4096];
    workload_file(wl, sizeof wl, 3000);
    fresh_dir(dir, sizeof dir, "sweep-fail");
    struct cmd c;
    RUN(&c, "sweep", "--workload", wl, SMALL_SETS, "--vary", "workload.size=64m,8m", "--out", dir,
        "--jobs", "2", "--quiet", "--no-plot");
    ck_assert_int_eq(c.status, 1);
    ck_assert_msg(strstr(c.err, "ssdsim: point 0 (workload.size=64m): ") != NULL, "%s", c.err);
    ck_assert_msg(strstr(c.err, "ssdsim: sweep: 1 of 2 points failed") != NULL, "%s", c.err);
    cmd_free(&c);
    char path[4096];
    dir_file(path, sizeof path, dir, "workload.size-8m.json");
    ck_assert(file_exists(path));
    dir_file(path, sizeof path, dir, "workload.size-64m.json");
    ck_assert(!file_exists(path));
    struct csv t;
    csv_read(&t, dir);
    ck_assert_int_eq(t.n_lines, 2);
    ck_assert_str_eq(t.lines[1][0], "8m");
    free(t.text);

    /* collect names the missing point, still writes the table, and fails */
    RUN(&c, "collect", dir, "--no-plot", "--quiet");
    assert_one_error(&c, 1, "1 of 2 points are missing: 0");
    cmd_free(&c);
}
END_TEST

START_TEST(test_sweep_names_and_quotes_json_values)
{
    /* Values holding commas (JSON arrays) and slashes: the file name is made safe, the CSV
     * field is quoted. */
    char wl[4096], dir[4096];
    workload_file(wl, sizeof wl, 300);
    fresh_dir(dir, sizeof dir, "sweep-names");
    struct cmd c;
    RUN(&c, "sweep", "--workload", wl, SMALL_SETS, "--vary",
        "flash.program_us=[500,1800],[600,2000]", "--vary", "host.link_bw=4GB/s", "--out", dir,
        "--quiet", "--no-plot");
    ck_assert_msg(c.status == 0, "sweep: exit %d: %s", c.status, c.err);
    cmd_free(&c);
    char path[4096];
    dir_file(path, sizeof path, dir, "flash.program_us-_600_2000___host.link_bw-4GB_s.json");
    ck_assert_msg(file_exists(path), "%s missing", path);
    dir_file(path, sizeof path, dir, "summary.csv");
    char *csv = read_file(path, NULL);
    ck_assert_ptr_nonnull(csv);
    ck_assert_msg(strstr(csv, "\n\"[500,1800]\",4GB/s,") != NULL, "%s", csv);
    free(csv);
}
END_TEST

START_TEST(test_sweep_seed_ignores_vary_order)
{
    /* The same point with the --vary options the other way round: same seed, same figures. */
    char swept[4096], wl[4096], dir[4096];
    run_grid("sweep-j2", "2", swept, sizeof swept);
    workload_file(wl, sizeof wl, 3000);
    fresh_dir(dir, sizeof dir, "sweep-order");
    struct cmd c;
    RUN(&c, "sweep", "--workload", wl, SMALL_SETS, "--precondition", "seq", "--vary",
        "workload.iodepth=4", "--vary", "ftl.op=0.3", "--out", dir, "--quiet", "--no-plot");
    ck_assert_msg(c.status == 0, "sweep: exit %d: %s", c.status, c.err);
    cmd_free(&c);
    char a[4096], b[4096];
    dir_file(a, sizeof a, dir, "workload.iodepth-4__ftl.op-0.3.json");
    dir_file(b, sizeof b, swept, grid_names[3]);
    char *ta = read_file(a, NULL), *tb = read_file(b, NULL);
    ck_assert_msg(ta && tb, "%s or %s missing", a, b);
    /* Past the point object (which holds the index and the parameters in --vary order) the
     * results are the same bytes. */
    const char *ra = strstr(ta, "\t\"ssdsim_version\""), *rb = strstr(tb, "\t\"ssdsim_version\"");
    ck_assert(ra && rb);
    ck_assert_str_eq(ra, rb);
    char want[64];
    snprintf(want, sizeof want, "\"seed\":\t%" PRIu64 ",", expected_seed(1, "0.3", "4"));
    ck_assert_msg(strstr(ra, want) != NULL, "no %s in %s", want, a);
    free(ta);
    free(tb);
}
END_TEST

START_TEST(test_sweep_interval_in_each_point)
{
    /* --interval-ios puts a time series in every point's JSON; the manifest carries it, and
     * run --manifest can write it as CSV too. */
    char wl[4096], dir[4096], manifest[4096], csv[4096];
    workload_file(wl, sizeof wl, 3000);
    fresh_dir(dir, sizeof dir, "sweep-interval");
    out_path(manifest, sizeof manifest, "sweep-interval.jsonl");
    struct cmd c;
    RUN(&c, "sweep", "--workload", wl, SMALL_SETS, "--vary", "ftl.op=0.2,0.4", "--interval-ios",
        "1000", "--out", dir, "--quiet", "--no-plot");
    ck_assert_msg(c.status == 0, "sweep: exit %d: %s", c.status, c.err);
    cmd_free(&c);
    for (int k = 0; k < 2; k++) {
        char path[4096];
        dir_file(path, sizeof path, dir, k ? "ftl.op-0.4.json" : "ftl.op-0.2.json");
        char *text = read_file(path, NULL);
        ck_assert_msg(text != NULL, "%s was not written", path);
        cJSON *root = cJSON_Parse(text);
        ck_assert_ptr_nonnull(root);
        const cJSON *ts = cJSON_GetObjectItemCaseSensitive(root, "timeseries");
        ck_assert_msg(cJSON_GetArraySize(ts) == 3, "%s: %d intervals, want 3", path,
                      cJSON_GetArraySize(ts));
        cJSON_Delete(root);
        free(text);
    }
    RUN(&c, "sweep", "--workload", wl, SMALL_SETS, "--vary", "ftl.op=0.2,0.4", "--interval-ios",
        "1000", "--out", dir, "--emit", manifest, "--quiet");
    ck_assert_msg(c.status == 0, "sweep --emit: exit %d: %s", c.status, c.err);
    cmd_free(&c);
    out_path(csv, sizeof csv, "sweep-interval-1.csv");
    unlink(csv);
    RUN(&c, "run", "--manifest", manifest, "--index", "1", "--timeseries", csv, "--quiet");
    ck_assert_msg(c.status == 0, "run --manifest: exit %d: %s", c.status, c.err);
    cmd_free(&c);
    char *text = read_file(csv, NULL);
    ck_assert_msg(text != NULL, "%s was not written", csv);
    int lines = 0;
    for (const char *p = text; *p; p++)
        lines += *p == '\n';
    ck_assert_int_eq(lines, 4); /* the header and 3 intervals */
    free(text);
}
END_TEST

/* ------------------------------------------------------------------------------------------ */
/* Bad input                                                                                   */

START_TEST(test_sweep_bad_value_fails_fast)
{
    char wl[4096], dir[4096];
    workload_file(wl, sizeof wl, 3000);
    fresh_dir(dir, sizeof dir, "sweep-bad");
    struct cmd c;
    RUN(&c, "sweep", "--workload", wl, SMALL_SETS, "--vary", "ftl.op=0.1,abc", "--out", dir);
    assert_one_error(&c, 1, "--vary: ftl.op: ");
    ck_assert(strstr(c.err, "abc") != NULL);
    ck_assert_uint_eq(c.n_out, 0);
    cmd_free(&c);
    ck_assert_msg(!file_exists(dir), "a point ran before the bad value was found");

    RUN(&c, "sweep", "--workload", wl, SMALL_SETS, "--vary", "workload.iodepth=4,0", "--out", dir);
    assert_one_error(&c, 1, "--vary: workload.iodepth: ");
    cmd_free(&c);

    /* a value valid alone but impossible with the geometry */
    RUN(&c, "sweep", "--workload", wl, SMALL_SETS, "--vary", "ftl.op=0.2,0.001", "--out", dir);
    assert_one_error(&c, 1, "ftl.op=0.001");
    cmd_free(&c);
    ck_assert(!file_exists(dir));
}
END_TEST

/* An input at a file the sweep writes in --out (the workload named as a point's JSON, a model
 * named summary.csv) is refused before any point runs (doc/guide.md, "Output files"). */
START_TEST(test_sweep_input_in_out_refused_first)
{
    char wl[4096], dir[4096], in[4096];
    workload_file(wl, sizeof wl, 3000);
    fresh_dir(dir, sizeof dir, "sweep-input-in-out");
    ck_assert(mkdir(dir, 0777) == 0);
    char *text = read_file(wl, NULL);
    snprintf(in, sizeof in, "%s/ftl.op-0.1.json", dir);
    write_file(in, text);
    struct cmd c;
    RUN(&c, "sweep", "--workload", in, SMALL_SETS, "--vary", "ftl.op=0.1,0.2", "--out", dir);
    assert_one_error(&c, 2, "sweep would write this file, and it is the input");
    ck_assert_uint_eq(c.n_out, 0);
    cmd_free(&c);
    char *after = read_file(in, NULL);
    ck_assert_str_eq(after, text);
    free(after);
    ck_assert(remove(in) == 0);
    snprintf(in, sizeof in, "%s/summary.csv", dir);
    write_file(in, text);
    RUN(&c, "sweep", "--workload", in, SMALL_SETS, "--vary", "ftl.op=0.1,0.2", "--out", dir);
    assert_one_error(&c, 2, "summary.csv: sweep would write this file");
    ck_assert_uint_eq(c.n_out, 0);
    cmd_free(&c);
    free(text);
}
END_TEST

START_TEST(test_sweep_unknown_key_suggests)
{
    char wl[4096], dir[4096];
    workload_file(wl, sizeof wl, 3000);
    fresh_dir(dir, sizeof dir, "sweep-bad");
    struct cmd c;
    RUN(&c, "sweep", "--workload", wl, "--vary", "ftl.opp=0.1,0.2", "--out", dir);
    assert_one_error(&c, 1, "ftl.opp");
    ck_assert_msg(strstr(c.err, "did you mean 'op'") != NULL, "%s", c.err);
    cmd_free(&c);
    RUN(&c, "sweep", "--workload", wl, "--vary", "workload.iodept=1,2", "--out", dir);
    assert_one_error(&c, 1, "workload.iodept");
    ck_assert_msg(strstr(c.err, "did you mean 'iodepth'") != NULL, "%s", c.err);
    cmd_free(&c);
}
END_TEST

START_TEST(test_sweep_bad_command_lines)
{
    char wl[4096], dir[4096];
    workload_file(wl, sizeof wl, 3000);
    out_path(dir, sizeof dir, "sweep-bad");
    static const struct {
        const char *args[8];
        const char *needle;
    } cases[] = {
        {{"--vary", "ftl.op=0.1", NULL}, "--out"},
        {{"--out", "x", NULL}, "--vary"},
        {{"--vary", "ftl.op", "--out", "x", NULL}, "KEY=V1,V2"},
        {{"--vary", "ftl.op=0.1,,0.2", "--out", "x", NULL}, "empty value"},
        {{"--vary", "ftl.op=0.1,0.1", "--out", "x", NULL}, "twice"},
        {{"--vary", "ftl.op=0.1", "--vary", "ftl.op=0.2", "--out", "x", NULL}, "twice"},
        {{"--vary", "ftl.op=0.1", "--set", "ftl.op=0.2", "--out", "x", NULL}, "both"},
        {{"--vary", "ftl.op=0.1", "--jobs", "0", "--out", "x", NULL}, "--jobs"},
        {{"--vary", "ftl.op=0.1", "--seed", "9007199254740992", "--out", "x", NULL}, "2^53"},
        {{"--vary", "ftl.op=0.1", "--frobnicate", "--out", "x", NULL}, "--frobnicate"},
        {{"--vary", "flash.read_us=[50,70", "--out", "x", NULL}, "unbalanced"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        struct args a;
        args_ssdsim(&a);
        args_add(&a, "sweep", "--workload", wl, NULL);
        for (int k = 0; cases[i].args[k]; k++)
            args_add(&a, cases[i].args[k], NULL);
        struct cmd c;
        run_prog(&c, a.v);
        assert_one_error(&c, 2, cases[i].needle);
        cmd_free(&c);
    }
    struct cmd c;
    RUN(&c, "sweep", "--vary", "ftl.op=0.1", "--out", dir);
    assert_one_error(&c, 2, "--workload");
    cmd_free(&c);
    RUN(&c, "collect");
    assert_one_error(&c, 2, "directory");
    cmd_free(&c);
    RUN(&c, "run", "--manifest", "m.jsonl");
    assert_one_error(&c, 2, "--index");
    cmd_free(&c);
    RUN(&c, "run", "--manifest", "m.jsonl", "--index", "0", "--set", "ftl.op=0.2");
    assert_one_error(&c, 2, "--set");
    cmd_free(&c);
}
END_TEST

START_TEST(test_sweep_bad_manifests_and_collect)
{
    char dir[4096], manifest[4096], bad[4096];
    emit_grid("sweep-badm", dir, sizeof dir, manifest, sizeof manifest);
    struct cmd c;
    RUN(&c, "run", "--manifest", manifest, "--index", "6");
    assert_one_error(&c, 1, "no point 6");
    cmd_free(&c);
    out_path(bad, sizeof bad, "sweep-nosuch.jsonl");
    unlink(bad);
    RUN(&c, "run", "--manifest", bad, "--index", "0");
    assert_one_error(&c, 1, "cannot read");
    cmd_free(&c);
    out_path(bad, sizeof bad, "sweep-garbage.jsonl");
    write_file(bad, "not json\n{\"index\": 1}\n");
    RUN(&c, "run", "--manifest", bad, "--index", "0");
    assert_one_error(&c, 1, ":1: ");
    cmd_free(&c);
    RUN(&c, "run", "--manifest", bad, "--index", "1");
    assert_one_error(&c, 1, ":2: ");
    cmd_free(&c);

    /* collect: a directory with no results, one that does not exist */
    char empty[4096];
    fresh_dir(empty, sizeof empty, "sweep-empty");
    ck_assert_int_eq(mkdir(empty, 0777), 0);
    RUN(&c, "collect", empty);
    assert_one_error(&c, 1, "no sweep results");
    cmd_free(&c);
    ck_assert_int_eq(rmdir(empty), 0);
    RUN(&c, "collect", empty);
    assert_one_error(&c, 1, "cannot open");
    cmd_free(&c);
}
END_TEST

/* A file of `bytes` bytes (sparse, so nothing is written) at `path`. */
static void sparse_file(const char *path, off_t bytes)
{
    write_file(path, "");
    ck_assert_msg(truncate(path, bytes) == 0, "%s: %s", path, strerror(errno));
}

/* A manifest or a point's results that is no regular file or is too long is refused before it
 * is read: /dev/zero once grew `run --manifest` to 13.6 GB, a FIFO named NAME.json blocked
 * collect for ever, and a link to /dev/zero grew it to 14.6 GB. */
START_TEST(test_sweep_special_files_refused)
{
    char path[4096], dir[4096], file[4096];
    struct cmd c;
    RUN(&c, "run", "--manifest", "/dev/zero", "--index", "0");
    assert_one_error(&c, 1, "/dev/zero: cannot read: not a regular file");
    cmd_free(&c);
    out_path(path, sizeof path, "sweep-fifo.jsonl");
    unlink(path);
    ck_assert_int_eq(mkfifo(path, 0600), 0);
    RUN(&c, "run", "--manifest", path, "--index", "0");
    assert_one_error(&c, 1, "sweep-fifo.jsonl: cannot read: not a regular file");
    cmd_free(&c);
    unlink(path);
    /* 64 MiB and a byte, no newline */
    out_path(path, sizeof path, "sweep-long.jsonl");
    sparse_file(path, ((off_t)64 << 20) + 1);
    RUN(&c, "run", "--manifest", path, "--index", "0");
    assert_one_error(&c, 1, "sweep-long.jsonl: cannot read: longer than 64 MiB");
    cmd_free(&c);
    unlink(path);

    fresh_dir(dir, sizeof dir, "sweep-special");
    ck_assert_int_eq(mkdir(dir, 0777), 0);
    dir_file(file, sizeof file, dir, "zero.json");
    ck_assert_int_eq(symlink("/dev/zero", file), 0);
    RUN(&c, "collect", dir, "--no-plot");
    assert_one_error(&c, 1, "zero.json: cannot read: not a regular file");
    cmd_free(&c);
    unlink(file);
    dir_file(file, sizeof file, dir, "fifo.json");
    ck_assert_int_eq(mkfifo(file, 0600), 0);
    RUN(&c, "collect", dir, "--no-plot");
    assert_one_error(&c, 1, "fifo.json: cannot read: not a regular file");
    cmd_free(&c);
    unlink(file);
    dir_file(file, sizeof file, dir, "huge.json");
    sparse_file(file, ((off_t)1 << 30) + 1);
    RUN(&c, "collect", dir, "--no-plot");
    assert_one_error(&c, 1, "huge.json: cannot read: larger than 1 GiB");
    cmd_free(&c);
    remove_dir(dir);
}
END_TEST

/* A point's results as collect reads them: the "point" object only (the figures are left
 * empty in the table). */
static void point_file(const char *dir, const char *name, unsigned index, unsigned n_points,
                       const char *op, const char *qd, unsigned base_seed)
{
    char path[4096], text[512];
    dir_file(path, sizeof path, dir, name);
    snprintf(text, sizeof text,
             "{\"point\": {\"index\": %u, \"n_points\": %u, \"name\": \"p\", \"params\": "
             "{\"ftl.op\": \"%s\", \"workload.iodepth\": \"%s\"}, \"base_seed\": %u}}\n",
             index, n_points, op, qd, base_seed);
    write_file(path, text);
}

/* Points 0-1 of one 2 x 2 sweep (ftl.op 0.2,0.3 x iodepth 1,4) and 2-3 of another (0.25,0.35 x
 * 2,8) have the same keys, number of points and distinct indices: collect once made one table
 * of them. Their values do not fit one grid, and collect says which two files conflict. Points
 * of one sweep with some missing still fit; so do the points of a 3-key grid. */
START_TEST(test_sweep_collect_refuses_mixed_sweeps)
{
    char dir[4096];
    struct cmd c;
    fresh_dir(dir, sizeof dir, "sweep-mixed");
    ck_assert_int_eq(mkdir(dir, 0777), 0);
    point_file(dir, "a0.json", 0, 4, "0.2", "1", 1);
    point_file(dir, "a1.json", 1, 4, "0.2", "4", 1);
    point_file(dir, "b2.json", 2, 4, "0.35", "2", 1);
    point_file(dir, "b3.json", 3, 4, "0.35", "8", 1);
    RUN(&c, "collect", dir, "--no-plot", "--quiet");
    assert_one_error(&c, 1,
                     "a0.json (point 0) and b2.json (point 2) come from different sweeps (their "
                     "varied values do not fit one grid of 4 points): give each sweep its own "
                     "directory");
    cmd_free(&c);
    char csv[4096];
    dir_file(csv, sizeof csv, dir, "summary.csv");
    ck_assert_msg(!file_exists(csv), "a table of two sweeps was written");
    remove_dir(dir);

    /* the same sweep, point 1 missing: the others fit (the missing one is listed) */
    ck_assert_int_eq(mkdir(dir, 0777), 0);
    point_file(dir, "a0.json", 0, 4, "0.2", "1", 1);
    point_file(dir, "a2.json", 2, 4, "0.3", "1", 1);
    point_file(dir, "a3.json", 3, 4, "0.3", "4", 1);
    RUN(&c, "collect", dir, "--no-plot", "--quiet");
    assert_one_error(&c, 1, "1 of 4 points are missing: 1; summary.csv holds the other 3");
    cmd_free(&c);
    /* the same values as another point's at another place in the grid */
    point_file(dir, "x1.json", 1, 4, "0.3", "4", 1);
    RUN(&c, "collect", dir, "--no-plot", "--quiet");
    assert_one_error(&c, 1, "a0.json (point 0) and x1.json (point 1) come from different sweeps");
    cmd_free(&c);
    remove_dir(dir);

    /* the grid of another base seed */
    ck_assert_int_eq(mkdir(dir, 0777), 0);
    point_file(dir, "a0.json", 0, 4, "0.2", "1", 1);
    point_file(dir, "a1.json", 1, 4, "0.2", "4", 7);
    RUN(&c, "collect", dir, "--no-plot", "--quiet");
    assert_one_error(&c, 1, "a0.json and a1.json come from different sweeps (base seeds 1 and 7)");
    cmd_free(&c);
    remove_dir(dir);
}
END_TEST

/* ------------------------------------------------------------------------------------------ */
/* Resuming and interrupting                                                                   */

/* How many lines of `text` start with `prefix`. */
static int count_prefix(const char *text, const char *prefix)
{
    int n = 0;
    for (const char *p = text; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL)
        n += strncmp(p, prefix, strlen(prefix)) == 0;
    return n;
}

/* Run again, a sweep runs only the points without complete results (missing, cut short,
 * marked interrupted) and gives the same bytes as a sweep run at once; --force runs them all;
 * other options (another base seed) make every point's results someone else's. */
START_TEST(test_sweep_resume_skips_complete_points)
{
    char whole[4096], dir[4096], path[4096], wl[4096];
    run_grid("sweep-j2", "2", whole, sizeof whole);
    run_grid("sweep-resume", "2", dir, sizeof dir);
    /* point 0 missing, point 1 marked interrupted, point 2 cut short */
    dir_file(path, sizeof path, dir, grid_names[0]);
    ck_assert_int_eq(unlink(path), 0);
    dir_file(path, sizeof path, dir, grid_names[1]);
    char *text = read_file(path, NULL);
    ck_assert_ptr_nonnull(text);
    char *at = strstr(text, "\t\"sim_time_ns\"");
    ck_assert_ptr_nonnull(at);
    char *marked = malloc(strlen(text) + 64);
    ck_assert_ptr_nonnull(marked);
    sprintf(marked, "%.*s\t\"interrupted\":\ttrue,\n%s", (int)(at - text), text, at);
    write_file(path, marked);
    free(marked);
    free(text);
    dir_file(path, sizeof path, dir, grid_names[2]);
    text = read_file(path, NULL);
    ck_assert_ptr_nonnull(text);
    text[strlen(text) / 2] = '\0';
    write_file(path, text);
    free(text);

    workload_file(wl, sizeof wl, 3000);
    struct args a;
    grid_args(&a, wl, dir);
    args_add(&a, "--jobs", "2", "--no-plot", NULL);
    struct cmd c;
    run_prog(&c, a.v);
    ck_assert_msg(c.status == 0, "resumed sweep: exit %d: %s", c.status, c.err);
    ck_assert_msg(strstr(c.out, "sweep: 3 of 6 points have complete results") != NULL, "%s",
                  c.out);
    ck_assert_msg(count_prefix(c.out, "[") == 3, "want 3 points run: %s", c.out);
    for (int k = 0; k < 3; k++) {
        char label[128];
        snprintf(label, sizeof label, "ftl.op=%s,workload.iodepth=%s:", grid_op[k], grid_qd[k]);
        ck_assert_msg(strstr(c.out, label) != NULL, "point %d was not run: %s", k, c.out);
    }
    cmd_free(&c);
    assert_same_results(whole, dir);

    /* --force runs all six, with the same bytes */
    args_add(&a, "--force", NULL);
    run_prog(&c, a.v);
    ck_assert_msg(c.status == 0, "sweep --force: exit %d: %s", c.status, c.err);
    ck_assert_msg(count_prefix(c.out, "[") == N_POINTS, "want 6 points run: %s", c.out);
    ck_assert(strstr(c.out, "complete results") == NULL);
    cmd_free(&c);
    assert_same_results(whole, dir);

    /* another base seed: no point's results are this sweep's */
    grid_args(&a, wl, dir);
    args_add(&a, "--jobs", "2", "--no-plot", "--seed", "2", NULL);
    run_prog(&c, a.v);
    ck_assert_msg(c.status == 0, "sweep --seed 2: exit %d: %s", c.status, c.err);
    ck_assert_msg(count_prefix(c.out, "[") == N_POINTS, "want 6 points run: %s", c.out);
    cmd_free(&c);
}
END_TEST

/* `run --manifest` skips a point whose complete results are where the sweep writes them, as a
 * sweep run again does (a job array resubmitted); --force runs it. */
START_TEST(test_sweep_manifest_skips_complete_point)
{
    char dir[4096], manifest[4096], path[4096];
    emit_grid("sweep-mskip", dir, sizeof dir, manifest, sizeof manifest);
    struct cmd c;
    RUN(&c, "run", "--manifest", manifest, "--index", "2", "--quiet");
    ck_assert_msg(c.status == 0, "run --manifest: exit %d: %s", c.status, c.err);
    cmd_free(&c);
    dir_file(path, sizeof path, dir, grid_names[2]);
    char *first = read_file(path, NULL);
    ck_assert_ptr_nonnull(first);
    RUN(&c, "run", "--manifest", manifest, "--index", "2");
    ck_assert_msg(c.status == 0, "run --manifest again: exit %d: %s", c.status, c.err);
    ck_assert_msg(strstr(c.out, "skipped") != NULL && strstr(c.out, "write amplification") == NULL,
                  "not skipped: %s", c.out);
    cmd_free(&c);
    RUN(&c, "run", "--manifest", manifest, "--index", "2", "--force");
    ck_assert_msg(c.status == 0, "run --manifest --force: exit %d: %s", c.status, c.err);
    ck_assert_msg(strstr(c.out, "write amplification") != NULL, "not run: %s", c.out);
    cmd_free(&c);
    char *again = read_file(path, NULL);
    ck_assert_ptr_nonnull(again);
    ck_assert_str_eq(first, again);
    free(first);
    free(again);
    /* --force without --manifest is a bad command line */
    RUN(&c, "run", "--workload", manifest, "--force");
    assert_one_error(&c, 2, "--force");
    cmd_free(&c);
}
END_TEST

/* --precondition-method is part of a point: in its manifest line (so in its manifest hash: a
 * sweep run again with the other method runs its points again), in the "point" object of its
 * results, and `run --manifest` runs the line's method (the same bytes as the sweep). */
START_TEST(test_sweep_precondition_method_in_point)
{
    char wl[4096], dir[4096], manifest[4096], path[4096], alone[4096];
    workload_file(wl, sizeof wl, 3000);
    fresh_dir(dir, sizeof dir, "sweep-method");
    out_path(manifest, sizeof manifest, "sweep-method.jsonl");
    out_path(alone, sizeof alone, "sweep-method-alone.json");
    dir_file(path, sizeof path, dir, "ftl.op-0.3.json");
#define METHOD_SWEEP                                                                               \
    "sweep", "--workload", wl, SMALL_SETS, "--vary", "ftl.op=0.3", "--precondition", "fast",       \
        "--out", dir, "--no-plot"
    struct cmd c;
    RUN(&c, METHOD_SWEEP, "--precondition-method", "timed", "--emit", manifest, "--quiet");
    ck_assert_msg(c.status == 0, "sweep --emit: exit %d: %s", c.status, c.err);
    cmd_free(&c);
    char *line = read_file(manifest, NULL);
    ck_assert_ptr_nonnull(line);
    ck_assert_msg(strstr(line, "\"precondition_method\":\"timed\"") != NULL, "%s", line);
    free(line);
    RUN(&c, METHOD_SWEEP, "--precondition-method", "timed");
    ck_assert_msg(c.status == 0, "sweep timed: exit %d: %s", c.status, c.err);
    cmd_free(&c);
    char *timed = read_file(path, NULL);
    ck_assert_ptr_nonnull(timed);
    ck_assert_msg(strstr(timed, "\"precondition_method\":\t\"timed\"") != NULL, "%s", timed);
    /* the functional default: not this point's results, run again */
    RUN(&c, METHOD_SWEEP);
    ck_assert_msg(c.status == 0, "sweep functional: exit %d: %s", c.status, c.err);
    ck_assert_msg(strstr(c.out, "complete results") == NULL, "skipped: %s", c.out);
    cmd_free(&c);
    char *functional = read_file(path, NULL);
    ck_assert_ptr_nonnull(functional);
    ck_assert(strstr(functional, "precondition_method") == NULL);
    ck_assert_msg(strcmp(timed, functional) != 0, "the methods gave the same bytes");
    RUN(&c, METHOD_SWEEP, "--precondition-method", "timed");
    ck_assert_msg(c.status == 0, "sweep timed again: exit %d: %s", c.status, c.err);
    ck_assert_msg(strstr(c.out, "complete results") == NULL, "skipped: %s", c.out);
    cmd_free(&c);
    RUN(&c, METHOD_SWEEP, "--precondition-method", "timed");
    ck_assert_msg(strstr(c.out, "1 of 1 points have complete results") != NULL, "%s", c.out);
    cmd_free(&c);
    /* the manifest's point alone runs timed: the sweep's bytes */
    RUN(&c, "run", "--manifest", manifest, "--index", "0", "--json", alone, "--quiet");
    ck_assert_msg(c.status == 0, "run --manifest: exit %d: %s", c.status, c.err);
    cmd_free(&c);
    char *ran = read_file(alone, NULL);
    ck_assert_ptr_nonnull(ran);
    ck_assert_str_eq(ran, timed);
#undef METHOD_SWEEP
    free(ran);
    free(timed);
    free(functional);
}
END_TEST

/* Entries of BUILDDIR/tests/out whose names start with `prefix`. */
static int count_out_files(const char *prefix)
{
    char dir[4096];
    out_path(dir, sizeof dir, "");
    DIR *d = opendir(dir);
    ck_assert_ptr_nonnull(d);
    int n = 0;
    const struct dirent *e;
    while ((e = readdir(d)))
        n += strncmp(e->d_name, prefix, strlen(prefix)) == 0;
    closedir(d);
    return n;
}

/* Remove BUILDDIR/tests/out entries whose names start with `prefix`. */
static void remove_out_files(const char *prefix)
{
    char dir[4096], path[4096];
    out_path(dir, sizeof dir, "");
    DIR *d = opendir(dir);
    ck_assert_ptr_nonnull(d);
    const struct dirent *e;
    while ((e = readdir(d)))
        if (!strncmp(e->d_name, prefix, strlen(prefix)))
            unlink(dir_file(path, sizeof path, dir, e->d_name));
    closedir(d);
}

/* SIGTERM to a sweep reaches its workers: each writes the results so far marked interrupted,
 * the sweep starts no other point and exits 143; collect leaves the partial points out. The
 * signal is sent once both workers have opened their fio latency logs (write_lat_log: the
 * temporary files appear as the runs start), so no timing is involved. */
START_TEST(test_sweep_signal_reaches_workers)
{
    char wl[4096], dir[4096], prefix[4096], text[8192];
    remove_out_files("sweep-sig-lg");
    remove_out_files(".sweep-sig-lg");
    out_path(prefix, sizeof prefix, "sweep-sig-lg");
    out_path(wl, sizeof wl, "sweep-sig-wl.json");
    snprintf(text, sizeof text,
             "{\"rw\": \"randwrite\", \"bs\": \"4k\", \"iodepth\": 4, \"number_ios\": 1000000000, "
             "\"write_lat_log\": \"%s\"}\n",
             prefix);
    write_file(wl, text);
    fresh_dir(dir, sizeof dir, "sweep-sig");
    fflush(NULL);
    pid_t pid = fork();
    ck_assert_int_ge(pid, 0);
    if (pid == 0) {
        int devnull = open("/dev/null", O_RDWR);
        dup2(devnull, 0);
        dup2(devnull, 1);
        dup2(devnull, 2);
        execl(ssdsim_bin(), ssdsim_bin(), "sweep", "--workload", wl, SMALL_SETS, "--vary",
              "ftl.op=0.1,0.3,0.6", "--out", dir, "--jobs", "2", "--no-plot", (char *)NULL);
        _exit(127);
    }
    int ws;
    while (count_out_files(".sweep-sig-lg_lat.1.log.tmp.") < 2) {
        pid_t r = waitpid(pid, &ws, WNOHANG);
        ck_assert_int_ge(r, 0);
        ck_assert_msg(r == 0, "the sweep ended before it was interrupted");
        sched_yield();
    }
    ck_assert_int_eq(kill(pid, SIGTERM), 0);
    while (waitpid(pid, &ws, 0) < 0)
        ck_assert_int_eq(errno, EINTR);
    ck_assert_msg(WIFEXITED(ws) && WEXITSTATUS(ws) == 143, "want exit 143, got %s %d",
                  WIFEXITED(ws) ? "status" : "signal",
                  WIFEXITED(ws) ? WEXITSTATUS(ws) : WTERMSIG(ws));
    ck_assert_int_eq(count_out_files(".sweep-sig-lg"), 0); /* no temporary file left */
    /* the two started points have partial results; the third never started */
    const char *const names[3] = {"ftl.op-0.1.json", "ftl.op-0.3.json", "ftl.op-0.6.json"};
    char path[4096];
    for (int k = 0; k < 2; k++) {
        char *r = read_file(dir_file(path, sizeof path, dir, names[k]), NULL);
        ck_assert_msg(r != NULL, "%s was not written", path);
        cJSON *root = cJSON_Parse(r);
        ck_assert_ptr_nonnull(root);
        ck_assert(cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(root, "interrupted")));
        cJSON_Delete(root);
        free(r);
    }
    ck_assert(!file_exists(dir_file(path, sizeof path, dir, names[2])));
    ck_assert(!file_exists(dir_file(path, sizeof path, dir, "summary.csv")));
    struct cmd c;
    RUN(&c, "collect", dir, "--no-plot", "--quiet");
    ck_assert_int_eq(c.status, 1);
    ck_assert_msg(strstr(c.err, "interrupted") != NULL, "%s", c.err);
    cmd_free(&c);
    remove_out_files("sweep-sig-lg");
}
END_TEST

int main(void)
{
    Suite *s = suite_create("sweep");

    TCase *usage = tcase_create("usage");
    tcase_add_test(usage, test_sweep_help_lists_options);
    tcase_add_test(usage, test_sweep_bad_command_lines);
    suite_add_tcase(s, usage);

    /* Each sweep takes a fraction of a second; the timeout leaves room for sanitizer builds. */
    TCase *input = tcase_create("input");
    tcase_set_timeout(input, 120);
    tcase_add_test(input, test_sweep_bad_value_fails_fast);
    tcase_add_test(input, test_sweep_input_in_out_refused_first);
    tcase_add_test(input, test_sweep_unknown_key_suggests);
    tcase_add_test(input, test_sweep_bad_manifests_and_collect);
    tcase_add_test(input, test_sweep_special_files_refused);
    tcase_add_test(input, test_sweep_collect_refuses_mixed_sweeps);
    suite_add_tcase(s, input);

    TCase *runs = tcase_create("runs");
    tcase_set_timeout(runs, 300);
    tcase_add_test(runs, test_sweep_grid_writes_points_and_table);
    tcase_add_test(runs, test_sweep_jobs_do_not_change_results);
    tcase_add_test(runs, test_sweep_manifest_point_alone_is_identical);
    tcase_add_test(runs, test_sweep_manifest_then_collect_is_identical);
    tcase_add_test(runs, test_sweep_gnu_parallel_is_identical);
    tcase_add_test(runs, test_sweep_waf_falls_as_op_grows);
    tcase_add_test(runs, test_sweep_plots_or_says_why_not);
    tcase_add_test(runs, test_sweep_failed_point_others_finish);
    tcase_add_test(runs, test_sweep_names_and_quotes_json_values);
    tcase_add_test(runs, test_sweep_interval_in_each_point);
    tcase_add_test(runs, test_sweep_seed_ignores_vary_order);
    tcase_add_test(runs, test_sweep_resume_skips_complete_points);
    tcase_add_test(runs, test_sweep_manifest_skips_complete_point);
    tcase_add_test(runs, test_sweep_precondition_method_in_point);
    tcase_add_test(runs, test_sweep_signal_reaches_workers);
    suite_add_tcase(s, runs);

    return test_run_suite(s);
}
