/* test_cli.c: the `ssdsim` command as a user meets it.
 *
 * Each test runs the built command (its path comes from the SSDSIM_BIN environment variable, as
 * `make check` sets it) in a child process with fork and exec, captures stdout and stderr apart,
 * and checks the exit status (0 success, 1 the input or the simulation failed, 2 a bad command
 * line), that every failure is exactly one line on stderr starting with "ssdsim: ", and that the
 * line names what is wrong. Successful runs use a small model (2 planes x 64 blocks x 32 pages)
 * so the whole program takes well under a second; their JSON is parsed with cJSON and checked
 * key by key, and the same command run twice must give byte-identical files.
 *
 * Input files are read from the source tree (SRCDIR); everything written goes under
 * BUILDDIR/tests/out/, so `make distcheck` (read-only source tree) passes.
 */
#include <cJSON.h>
#include <dirent.h>
#include <sched.h>
#include <signal.h>
#include <stdbool.h>
#include <string.h>
#include <math.h>
#include <unistd.h>

#include "ssdsim/ssdsim.h"
#include "testutil.h"
#include "cmdtest.h"

/* ------------------------------------------------------------------------------------------ */
/* Files                                                                                       */

static const char *model_path(char *buf, size_t len)
{
    return test_src_path(buf, len, "models/generic-mlc.json");
}

/* The workload of the successful runs: 2 jobs x 5000 4 KiB random writes at depth 4. */
static const char *workload_path(char *buf, size_t len)
{
    out_path(buf, len, "cli-randwrite-4k.json");
    write_file(buf, "{\"rw\": \"randwrite\", \"bs\": \"4k\", \"iodepth\": 4, \"numjobs\": 2,\n"
                    " \"number_ios\": 5000}\n");
    return buf;
}

/* --set options that shrink generic-mlc to 2 channels x 1 chip x 1 die x 1 plane x 64 blocks
 * x 32 pages of 4 KiB (16 MiB raw), validated together. */
#define SMALL_SETS                                                                                 \
    "--set", "geometry.channels=2", "--set", "geometry.chips_per_channel=1", "--set",              \
        "geometry.dies_per_chip=1", "--set", "geometry.planes_per_die=1", "--set",                 \
        "geometry.blocks_per_plane=64", "--set", "geometry.pages_per_block=32"

/* SMALL_SETS leaves 14 spare blocks per plane, of which the page FTL keeps 4 in reserve: the
 * library warns once per model, on the first line of stderr. What follows it. */
#define RESERVE_WARNING                                                                            \
    "ssdsim: the FTL keeps 4 of 14 spare blocks per plane in reserve (28.6% of the spare): WAF "   \
    "will be higher than the nominal over-provisioning implies\n"

static const char *after_reserve_warning(const char *err)
{
    size_t n = strlen(RESERVE_WARNING);
    ck_assert_msg(!strncmp(err, RESERVE_WARNING, n), "no reserve warning first: %s", err);
    return err + n;
}

/* ------------------------------------------------------------------------------------------ */
/* JSON helpers                                                                                */

/* The item at dotted `path` ("ops.read.lat_ns.p99_9"), or NULL. */
static const cJSON *json_at(const cJSON *root, const char *path)
{
    char buf[256];
    snprintf(buf, sizeof buf, "%s", path);
    const cJSON *cur = root;
    char *save = NULL;
    for (char *tok = strtok_r(buf, ".", &save); tok && cur; tok = strtok_r(NULL, ".", &save))
        cur = cJSON_GetObjectItemCaseSensitive(cur, tok);
    return cur;
}

static double json_num(const cJSON *root, const char *path)
{
    const cJSON *v = json_at(root, path);
    ck_assert_msg(cJSON_IsNumber(v), "results JSON: '%s' missing or not a number", path);
    return v->valuedouble;
}

static cJSON *load_json(const char *path)
{
    char *text = read_file(path, NULL);
    ck_assert_msg(text != NULL, "%s was not written", path);
    cJSON *root = cJSON_Parse(text);
    ck_assert_msg(root != NULL, "%s is not JSON", path);
    free(text);
    return root;
}

/* Every key doc/results.md promises, as numbers. */
static void assert_results_keys(const cJSON *root)
{
    static const char *const ops[] = {"read", "write", "trim", "all"};
    static const char *const op_keys[] = {"count", "bytes", "iops", "bw_bytes"};
    static const char *const lat_keys[] = {"min", "mean", "max",   "stddev", "p50",
                                           "p90", "p99",  "p99_9", "p99_99"};
    static const char *const dev_keys[] = {"host_pages_written",
                                           "flash_pages_programmed",
                                           "gc_pages_copied",
                                           "blocks_erased",
                                           "waf",
                                           "erase_count.min",
                                           "erase_count.mean",
                                           "erase_count.max",
                                           "logical_bytes",
                                           "physical_bytes",
                                           "op",
                                           "spare_factor",
                                           "free_blocks"};
    char path[128];
    for (size_t i = 0; i < 4; i++) {
        for (size_t k = 0; k < 4; k++) {
            snprintf(path, sizeof path, "ops.%s.%s", ops[i], op_keys[k]);
            json_num(root, path);
        }
        for (size_t k = 0; k < 9; k++) {
            snprintf(path, sizeof path, "ops.%s.lat_ns.%s", ops[i], lat_keys[k]);
            json_num(root, path);
        }
    }
    for (size_t k = 0; k < sizeof dev_keys / sizeof dev_keys[0]; k++) {
        snprintf(path, sizeof path, "device.%s", dev_keys[k]);
        json_num(root, path);
    }
    json_num(root, "sim_time_ns");
    json_num(root, "seed");
}

static void assert_timeseries_keys(const cJSON *root)
{
    static const char *const keys[] = {"t_ns",
                                       "iops",
                                       "lat_ns_mean",
                                       "lat_ns_max",
                                       "lat_ns_stddev",
                                       "waf",
                                       "host_pages_written",
                                       "flash_pages_programmed",
                                       "free_blocks",
                                       "lat_ns_p99",
                                       "waf_cumulative",
                                       "gc_pages_copied",
                                       "blocks_erased",
                                       "host_bytes_written"};
    const cJSON *ts = cJSON_GetObjectItemCaseSensitive(root, "timeseries");
    ck_assert_msg(cJSON_IsArray(ts), "results JSON: no 'timeseries' array");
    ck_assert_int_gt(cJSON_GetArraySize(ts), 0);
    const cJSON *e;
    cJSON_ArrayForEach(e, ts)
    {
        ck_assert(cJSON_IsObject(e));
        for (size_t k = 0; k < sizeof keys / sizeof keys[0]; k++) {
            /* An interval's WAF is null when the host wrote nothing in it (doc/results.md). */
            const cJSON *v = cJSON_GetObjectItemCaseSensitive(e, keys[k]);
            if ((!strcmp(keys[k], "waf") || !strcmp(keys[k], "waf_cumulative")) &&
                cJSON_IsNull(v))
                continue;
            /* An interval in which nothing completed has no latencies: null, and only then. */
            if (!strncmp(keys[k], "lat_ns_", 7) && json_num(e, "n_ios") == 0) {
                ck_assert_msg(cJSON_IsNull(v), "%s of an interval without completions", keys[k]);
                continue;
            }
            json_num(e, keys[k]);
        }
    }
}

/* ------------------------------------------------------------------------------------------ */
/* Help and version                                                                            */

START_TEST(test_cli_help_prints_usage)
{
    static const char *const forms[][3] = {
        {"--help", NULL, "usage: ssdsim"},
        {"help", NULL, "usage: ssdsim"},
        {"-h", NULL, "usage: ssdsim"},
        {"run", "--help", "usage: ssdsim run"},
        {"demo", "--help", "usage: ssdsim demo"},
    };
    for (size_t i = 0; i < sizeof forms / sizeof forms[0]; i++) {
        struct cmd c;
        if (forms[i][1])
            RUN(&c, forms[i][0], forms[i][1]);
        else
            RUN(&c, forms[i][0]);
        ck_assert_msg(c.status == 0, "%s %s: exit %d", forms[i][0], forms[i][1] ? forms[i][1] : "",
                      c.status);
        ck_assert_msg(strncmp(c.out, forms[i][2], strlen(forms[i][2])) == 0,
                      "%s: stdout does not start with '%s': %s", forms[i][0], forms[i][2], c.out);
        ck_assert_msg(c.n_err == 0, "%s: unexpected stderr: %s", forms[i][0], c.err);
        cmd_free(&c);
    }
}
END_TEST

START_TEST(test_cli_run_help_lists_options)
{
    struct cmd c;
    RUN(&c, "run", "--help");
    ck_assert_int_eq(c.status, 0);
    static const char *const opts[] = {
        "--model", "--workload",   "--precondition", "--set",          "--seed",
        "--json",  "--timeseries", "--interval",     "--interval-ios", "--quiet"};
    for (size_t i = 0; i < sizeof opts / sizeof opts[0]; i++)
        ck_assert_msg(strstr(c.out, opts[i]) != NULL, "run --help does not mention %s", opts[i]);
    cmd_free(&c);
}
END_TEST

START_TEST(test_cli_list_prints_every_plugin)
{
    struct cmd c;
    RUN(&c, "list");
    ck_assert_int_eq(c.status, 0);
    static const char *const names[] = {"page", "dftl", "greedy", "cost-benefit", "fifo",
                                        "random", "d-choices", "windowed", "none", "dynamic",
                                        "static", "cmt_entries", "window", "threshold"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        ck_assert_msg(strstr(c.out, names[i]) != NULL, "'%s' not listed", names[i]);
    cmd_free(&c);
    RUN(&c, "list", "--bogus");
    ck_assert_int_eq(c.status, 2);
    cmd_free(&c);
}
END_TEST

START_TEST(test_cli_version_prints_version)
{
    struct cmd c;
    RUN(&c, "version");
    ck_assert_int_eq(c.status, 0);
    char want[128];
    snprintf(want, sizeof want, "ssdsim %s\n", ssdsim_version());
    ck_assert_str_eq(c.out, want);
    ck_assert_uint_eq(c.n_err, 0);
    cmd_free(&c);
    RUN(&c, "--version");
    ck_assert_int_eq(c.status, 0);
    ck_assert_str_eq(c.out, want);
    cmd_free(&c);
}
END_TEST

/* ------------------------------------------------------------------------------------------ */
/* Bad command lines: exit 2                                                                   */

START_TEST(test_cli_unknown_command)
{
    struct cmd c;
    RUN(&c, "frobnicate");
    assert_one_error(&c, 2, "unknown command");
    ck_assert(strstr(c.err, "'frobnicate'") != NULL);
    cmd_free(&c);
}
END_TEST

START_TEST(test_cli_run_without_workload)
{
    struct cmd c;
    RUN(&c, "run");
    assert_one_error(&c, 2, "--workload");
    cmd_free(&c);
    char m[4096];
    RUN(&c, "run", "--model", model_path(m, sizeof m));
    assert_one_error(&c, 2, "--workload");
    cmd_free(&c);
}
END_TEST

START_TEST(test_cli_unknown_option)
{
    char wl[4096];
    workload_path(wl, sizeof wl);
    struct cmd c;
    RUN(&c, "run", "--workload", wl, "--frobnicate");
    assert_one_error(&c, 2, "unknown option '--frobnicate'");
    cmd_free(&c);
    /* demo has no --model: it is refused as unknown rather than ignored */
    RUN(&c, "demo", "--model", "x.json");
    assert_one_error(&c, 2, "'--model'");
    cmd_free(&c);
    /* a stray positional argument is named too */
    RUN(&c, "run", "--workload", wl, "stray");
    assert_one_error(&c, 2, "'stray'");
    cmd_free(&c);
    /* --precondition-method without --precondition changed nothing and was taken silently:
     * refused, naming both; demo, which preconditions nothing, has none */
    RUN(&c, "run", "--workload", wl, "--precondition-method", "timed");
    assert_one_error(&c, 2,
                     "run: --precondition-method needs --precondition MODE (it chooses "
                     "how that preconditioning runs; without it, there is none)");
    cmd_free(&c);
    RUN(&c, "demo", "--precondition-method", "timed");
    assert_one_error(&c, 2, "demo: unknown option '--precondition-method'");
    cmd_free(&c);
}
END_TEST

/* An option that takes one value, given twice, is an error in every command (the last one
 * silently winning would hide a mistake); --set and --device add to lists. */
START_TEST(test_cli_option_given_twice)
{
    char wl[4096];
    workload_path(wl, sizeof wl);
    struct cmd c;
    RUN(&c, "run", "--workload", wl, "--seed", "1", "--seed=2");
    assert_one_error(&c, 2, "ssdsim: run: --seed given twice (it takes one value)\n");
    cmd_free(&c);
    RUN(&c, "run", "--workload", wl, "--workload", wl);
    assert_one_error(&c, 2, "ssdsim: run: --workload given twice (it takes one value)\n");
    cmd_free(&c);
    RUN(&c, "demo", "--json", "a.json", "--json", "b.json");
    assert_one_error(&c, 2, "ssdsim: demo: --json given twice (it takes one value)\n");
    cmd_free(&c);
    RUN(&c, "trace", "info", "--time-unit", "ms", "--time-unit", "us", "x.trace");
    assert_one_error(&c, 2, "ssdsim: trace info: --time-unit given twice (it takes one value)\n");
    cmd_free(&c);
    RUN(&c, "suite", "review", "--out", "a", "--out", "b");
    assert_one_error(&c, 2, "ssdsim: suite: --out given twice (it takes one value)\n");
    cmd_free(&c);
    RUN(&c, "calibrate", "--figure", "a", "--figure", "b");
    assert_one_error(&c, 2, "ssdsim: calibrate: --figure given twice (it takes one value)\n");
    cmd_free(&c);
    RUN(&c, "validate", "waf", "--jobs", "1", "--jobs", "2");
    assert_one_error(&c, 2, "ssdsim: validate: --jobs given twice (it takes one value)\n");
    cmd_free(&c);
    RUN(&c, "sweep", "--workload", wl, "--vary", "ftl.op=0.1,0.2", "--seed", "1", "--seed", "2",
        "--emit", "-");
    assert_one_error(&c, 2, "ssdsim: sweep: --seed given twice (it takes one value)\n");
    cmd_free(&c);
    RUN(&c, "sweep", "--workload", wl, "--vary", "ftl.op=0.1,0.2", "--out", "a", "--out=b");
    assert_one_error(&c, 2, "ssdsim: sweep: --out given twice (it takes one value)\n");
    cmd_free(&c);
    RUN(&c, "sweep", "--workload", wl, "--workload", wl, "--vary", "ftl.op=0.1,0.2", "--emit", "-");
    assert_one_error(&c, 2, "ssdsim: sweep: --workload given twice (it takes one value)\n");
    cmd_free(&c);
    /* --vary and --set repeat: two keys each, a manifest of 2 x 2 lines */
    RUN(&c, "sweep", "--workload", wl, "--vary", "ftl.op=0.1,0.2", "--vary",
        "gc.policy=greedy,fifo", "--set", "flash.read_us=50", "--set", "flash.program_us=500",
        "--out", "cli-emit-dir", "--emit", "-");
    ck_assert_msg(c.status == 0, "status %d: %s", c.status, c.err);
    size_t lines = 0;
    for (size_t i = 0; i < c.n_out; i++)
        lines += c.out[i] == '\n';
    ck_assert_uint_eq(lines, 4);
    cmd_free(&c);
    /* --set twice is two overrides: this one fails on its second value, not on repetition. */
    RUN(&c, "run", "--workload", wl, "--set", "ftl.op=0.2", "--set", "ftl.op=70");
    assert_one_error(&c, 1, "ftl.op");
    cmd_free(&c);
}
END_TEST

/* The library's notes reach stderr as one line each (here: GC keys the FAST FTL ignores), and
 * --quiet silences them; the run itself succeeds. */
START_TEST(test_cli_library_note)
{
    char m[4096], wl[4096];
    model_path(m, sizeof m);
    workload_path(wl, sizeof wl);
    struct cmd c;
    RUN(&c, "run", "--model", m, "--workload", wl, SMALL_SETS, "--set", "ftl.type=fast");
    ck_assert_msg(c.status == 0, "exit %d: %s", c.status, c.err);
    /* The note comes first; the small model's reserve warning may follow it. */
    static const char note[] = "ssdsim: --set: note: gc.policy, gc.free_blocks_min have no effect: "
                               "ftl.type \"fast\" uses no GC victim policy\n";
    ck_assert_msg(strncmp(c.err, note, sizeof note - 1) == 0, "stderr: %s", c.err);
    cmd_free(&c);
    RUN(&c, "run", "--model", m, "--workload", wl, SMALL_SETS, "--set", "ftl.type=fast",
        "--quiet");
    ck_assert_msg(c.status == 0, "exit %d: %s", c.status, c.err);
    ck_assert_uint_eq(c.n_err, 0);
    cmd_free(&c);
}
END_TEST

START_TEST(test_cli_bad_seed)
{
    char wl[4096];
    workload_path(wl, sizeof wl);
    static const char *const bad[] = {"abc", "-1", "", "12x", "99999999999999999999999"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        struct cmd c;
        RUN(&c, "run", "--workload", wl, "--seed", bad[i]);
        assert_one_error(&c, 2, "--seed");
        cmd_free(&c);
    }
    struct cmd c;
    RUN(&c, "run", "--workload", wl, "--seed=abc");
    assert_one_error(&c, 2, "'abc'");
    cmd_free(&c);
}
END_TEST

START_TEST(test_cli_option_without_value)
{
    char wl[4096];
    workload_path(wl, sizeof wl);
    struct cmd c;
    RUN(&c, "run", "--workload", wl, "--seed");
    assert_one_error(&c, 2, "'--seed' needs a value");
    cmd_free(&c);
}
END_TEST

START_TEST(test_cli_bad_interval)
{
    char wl[4096];
    workload_path(wl, sizeof wl);
    static const char *const bad[] = {"garbage", "10", "0ms", "-5ms"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        struct cmd c;
        RUN(&c, "run", "--workload", wl, "--interval", bad[i]);
        assert_one_error(&c, 2, "--interval");
        cmd_free(&c);
    }
    struct cmd c;
    RUN(&c, "run", "--workload", wl, "--interval-ios", "0");
    assert_one_error(&c, 2, "--interval-ios");
    cmd_free(&c);
    RUN(&c, "run", "--workload", wl, "--interval", "1s", "--interval-ios", "100");
    assert_one_error(&c, 2, "not both");
    cmd_free(&c);
}
END_TEST

/* The fault options (doc/models.md, "Faults"): a malformed or impossible one is one line naming
 * the option (exit 2), a die outside the geometry one line naming it (exit 1), a probability
 * above 1 one line naming the key. */
START_TEST(test_cli_bad_fault_options)
{
    char wl[4096];
    workload_path(wl, sizeof wl);
    static const char *const bad_fail[] = {"die:1/0@1s", "die:0/0/0", "plane:0/0/0@1s", "x:0/0/0@1s",
                                           "die:0/0/0@soon", "die:a/b/c@1s"};
    for (size_t i = 0; i < sizeof bad_fail / sizeof bad_fail[0]; i++) {
        struct cmd c;
        RUN(&c, "run", "--workload", wl, "--fail", bad_fail[i]);
        assert_one_error(&c, 2, "--fail");
        cmd_free(&c);
    }
    struct cmd c;
    RUN(&c, "run", "--workload", wl, "--fail", "die:99/0/0@1ms");
    assert_one_error(&c, 1, "outside the geometry");
    cmd_free(&c);
    RUN(&c, "run", "--workload", wl, "--power-loss-at", "soon");
    assert_one_error(&c, 2, "--power-loss-at");
    cmd_free(&c);
    RUN(&c, "run", "--workload", wl, "--power-loss-after", "-3");
    assert_one_error(&c, 2, "--power-loss-after");
    cmd_free(&c);
    RUN(&c, "run", "--workload", wl, "--set", "reliability.grown_prob_rated=1.5");
    assert_one_error(&c, 1, "reliability.grown_prob_rated");
    cmd_free(&c);
    RUN(&c, "run", "--workload", wl, "--set", "reliability.rebuild_rate=-1");
    assert_one_error(&c, 1, "reliability.rebuild_rate");
    cmd_free(&c);
}
END_TEST

/* run --trace refuses the reader options of another format than the trace's, as trace info does
 * (doc/traces.md): on a CSV trace they would do nothing. */
START_TEST(test_cli_trace_foreign_reader_options)
{
    char csv[4096];
    out_path(csv, sizeof csv, "cli-foreign.csv");
    write_file(csv, "time_ns,device,op,offset,length\n0,0,write,0,4096\n");
    static const char *const opt[][3] = {
        {"--time-unit", "s", "run: --time-unit applies to DiskSim ASCII traces only; "},
        {"--read-flag", "0", "run: --read-flag applies to DiskSim ASCII traces only; "},
        {"--blkparse-events", "issue", "run: --blkparse-events applies to blkparse traces only; "},
    };
    for (size_t k = 0; k < sizeof opt / sizeof opt[0]; k++) {
        struct cmd c;
        RUN(&c, "run", "--trace", csv, opt[k][0], opt[k][1], "--set",
            "geometry.blocks_per_plane=64", "-q");
        assert_one_error(&c, 2, opt[k][2]);
        ck_assert_ptr_nonnull(strstr(c.err, "cli-foreign.csv is csv"));
        cmd_free(&c);
    }
    /* each trace of several is checked */
    struct cmd c;
    RUN(&c, "run", "--trace", csv, "--trace", csv, "--time-unit", "us", "--set",
        "geometry.blocks_per_plane=64", "-q");
    assert_one_error(&c, 2, "run: --time-unit applies to DiskSim ASCII traces only; ");
    cmd_free(&c);
    /* and the trace still runs without them */
    RUN(&c, "run", "--trace", csv, "--set", "geometry.blocks_per_plane=64", "-q");
    ck_assert_int_eq(c.status, 0);
    cmd_free(&c);
    unlink(csv);
}
END_TEST

/* A die failure or power loss set for a time the run does not reach (doc/guide.md, "Faults"):
 * the failure is reported as not reached, in the text and the JSON, and nothing failed; the
 * power loss is taken at the run's end and both say so. Times are counted from the measured
 * run's start, the simulation's clock (preconditioning included) given beside. */
/* A RAID-5 behind a card's write-back cache: the devices' write factor also leaves out what the
 * cache still holds, so the summary does not call it the parity's (1 GiB of 64 KiB writes
 * through 512 MB of cache: x1.000, neither read-modify-write's 2 nor a full stripe's 1.33). */
START_TEST(test_cli_array_factor_with_cache)
{
    char m[4096], wl[4096];
    test_src_path(m, sizeof m, "models/wd5002abys-x4-raid5-3ware.json");
    out_path(wl, sizeof wl, "cli-raid5-cache.json");
    write_file(wl, "{\"rw\": \"randwrite\", \"bs\": \"64k\", \"iodepth\": 4, "
                   "\"io_size\": \"1g\"}\n");
    struct cmd c;
    RUN(&c, "run", "--model", m, "--workload", wl, "--interval", "1s");
    ck_assert_msg(c.status == 0, "%s", c.err);
    ck_assert_msg(strstr(c.out, "(x1.000: mirrors, parity, less what the card's cache still "
                                "holds)\n"),
                  "%s", c.out);
    /* hard disks have no fresh state to precondition: the time series claims no curve */
    ck_assert_msg(strstr(c.out, "\nTime series per interval\n"), "%s", c.out);
    ck_assert_ptr_null(strstr(c.out, "from a fresh drive"));
    cmd_free(&c);
}
END_TEST

START_TEST(test_cli_fault_not_reached)
{
    char m[4096], wl[4096], js[4096];
    model_path(m, sizeof m);
    out_path(wl, sizeof wl, "cli-fault-2ms.json");
    write_file(wl, "{\"rw\": \"randwrite\", \"bs\": \"4k\", \"iodepth\": 4, \"runtime\": \"2ms\","
                   " \"time_based\": 1}\n");
    out_path(js, sizeof js, "cli-fault-2ms-results.json");
    struct cmd c;
    RUN(&c, "run", "--model", m, SMALL_SETS, "--workload", wl, "--fail", "die:0/0/0@5s",
        "--json", js);
    ck_assert_msg(c.status == 0, "run --fail die:0/0/0@5s: %s", c.err);
    ck_assert_msg(strstr(c.out, "die failure 0/0/0 at 5000.000 ms into the run not reached: the "
                                "run ended at 2.") != NULL,
                  "no 'not reached' line: %s", c.out);
    ck_assert(strstr(c.out, "failed at") == NULL);
    cJSON *root = load_json(js);
    ck_assert_ptr_null(json_at(root, "faults.die_failure"));
    ck_assert_double_eq(json_num(root, "faults.die_failure_not_reached.run_ns"), 5e9);
    cJSON_Delete(root);
    cmd_free(&c);
    static const char *const pl[][2] = {{"--power-loss-at", "60s"},
                                        {"--power-loss-after", "100000000"}};
    for (size_t i = 0; i < 2; i++) {
        RUN(&c, "run", "--model", m, SMALL_SETS, "--workload", wl, pl[i][0], pl[i][1], "--json",
            js);
        ck_assert_msg(c.status == 0, "run %s %s: %s", pl[i][0], pl[i][1], c.err);
        ck_assert_msg(strstr(c.out, "into the run, the run's end (the time or request count it "
                                    "was set for was not reached)") != NULL,
                      "%s: the move to the end not said: %s", pl[i][0], c.out);
        root = load_json(js);
        ck_assert(cJSON_IsTrue(json_at(root, "faults.power_loss.at_end")));
        ck_assert_double_eq(json_num(root, "faults.power_loss.run_ns"),
                            json_num(root, "sim_time_ns"));
        cJSON_Delete(root);
        cmd_free(&c);
    }
    /* reached: where it was asked, counted from the run's start after a timed fill */
    RUN(&c, "run", "--model", m, SMALL_SETS, "--workload", wl, "--precondition", "seq",
        "--precondition-method", "timed", "--fail", "die:0/0/0@1ms", "--power-loss-at", "1500us",
        "--json", js);
    ck_assert_msg(c.status == 0, "run with a fill: %s", c.err);
    ck_assert_msg(strstr(c.out, "die 0/0/0 failed at 1.000 ms into the run (") != NULL &&
                      strstr(c.out, "ms on the simulation's clock)") != NULL,
                  "die failure not counted from the run's start: %s", c.out);
    ck_assert_msg(strstr(c.out, "power loss at ") != NULL && strstr(c.out, "run's end") == NULL,
                  "power loss: %s", c.out);
    root = load_json(js);
    ck_assert_double_eq(json_num(root, "faults.die_failure.run_ns"), 1e6);
    ck_assert(json_num(root, "faults.die_failure.at_ns") > 1e6);
    ck_assert(cJSON_IsFalse(json_at(root, "faults.power_loss.at_end")));
    cJSON_Delete(root);
    cmd_free(&c);
}
END_TEST

START_TEST(test_cli_set_without_equals)
{
    char wl[4096];
    workload_path(wl, sizeof wl);
    struct cmd c;
    RUN(&c, "run", "--workload", wl, "--set", "ftl.op");
    assert_one_error(&c, 2, "KEY=VALUE");
    ck_assert(strstr(c.err, "'ftl.op'") != NULL);
    cmd_free(&c);
}
END_TEST

START_TEST(test_cli_bad_precondition)
{
    char wl[4096];
    workload_path(wl, sizeof wl);
    struct cmd c;
    RUN(&c, "run", "--workload", wl, "--precondition", "foo");
    assert_one_error(&c, 2, "--precondition");
    ck_assert(strstr(c.err, "'foo'") != NULL);
    cmd_free(&c);
}
END_TEST

/* ------------------------------------------------------------------------------------------ */
/* Bad input files and model overrides: exit 1                                                 */

START_TEST(test_cli_missing_model_file)
{
    char wl[4096], missing[4096];
    workload_path(wl, sizeof wl);
    out_path(missing, sizeof missing, "cli-no-such-model.json");
    unlink(missing);
    struct cmd c;
    RUN(&c, "run", "--model", missing, "--workload", wl);
    assert_one_error(&c, 1, missing);
    cmd_free(&c);
    /* a bare name is a model name: the line says where it was looked for */
    RUN(&c, "run", "--model", "no-such-model-name", "--workload", wl);
    assert_one_error(&c, 1, "--model no-such-model-name: no such file, nor an installed model");
    ck_assert_msg(strstr(c.err, "no-such-model-name.json in ") != NULL, "%s", c.err);
    cmd_free(&c);
}
END_TEST

START_TEST(test_cli_missing_workload_file)
{
    char missing[4096];
    out_path(missing, sizeof missing, "cli-no-such-workload.json");
    unlink(missing);
    struct cmd c;
    RUN(&c, "run", "--workload", missing);
    assert_one_error(&c, 1, missing);
    cmd_free(&c);
}
END_TEST

START_TEST(test_cli_malformed_model_names_line)
{
    char wl[4096], bad[4096], want[4200];
    workload_path(wl, sizeof wl);
    out_path(bad, sizeof bad, "cli-malformed-model.json");
    /* the syntax error (",,") is on line 3 */
    write_file(bad, "{\n"
                    "  \"name\": \"broken\",\n"
                    "  \"geometry\": { \"channels\": 2,, \"chips_per_channel\": 1 }\n"
                    "}\n");
    struct cmd c;
    RUN(&c, "run", "--model", bad, "--workload", wl);
    snprintf(want, sizeof want, "%s:3:", bad);
    assert_one_error(&c, 1, want);
    cmd_free(&c);
}
END_TEST

START_TEST(test_cli_malformed_workload_names_line)
{
    char bad[4096], want[4200];
    out_path(bad, sizeof bad, "cli-malformed-workload.json");
    write_file(bad, "{\n  \"rw\": \"randwrite\",\n  \"bs\": \"4k\" \"iodepth\": 4\n}\n");
    struct cmd c;
    RUN(&c, "run", "--workload", bad);
    snprintf(want, sizeof want, "%s:3:", bad);
    assert_one_error(&c, 1, want);
    cmd_free(&c);
}
END_TEST

START_TEST(test_cli_set_unknown_key_suggests)
{
    char wl[4096];
    workload_path(wl, sizeof wl);
    struct cmd c;
    RUN(&c, "run", "--workload", wl, "--set", "geometry.chanels=4");
    assert_one_error(&c, 1, "did you mean 'channels'");
    ck_assert(strstr(c.err, "geometry.chanels") != NULL);
    cmd_free(&c);
}
END_TEST

START_TEST(test_cli_set_out_of_range)
{
    char wl[4096], m[4096];
    workload_path(wl, sizeof wl);
    struct cmd c;
    RUN(&c, "run", "--model", model_path(m, sizeof m), "--workload", wl, "--set", "ftl.op=-1");
    assert_one_error(&c, 1, "ftl.op");
    ck_assert(strstr(c.err, "-1") != NULL);
    cmd_free(&c);
    RUN(&c, "run", "--workload", wl, "--set", "geometry.channels=0");
    assert_one_error(&c, 1, "geometry.channels");
    cmd_free(&c);
    RUN(&c, "run", "--workload", wl, "--set", "flash.cell=plc");
    assert_one_error(&c, 1, "flash.cell");
    cmd_free(&c);
}
END_TEST

START_TEST(test_cli_set_impossible_geometry)
{
    char wl[4096], m[4096];
    workload_path(wl, sizeof wl);
    struct cmd c;
    /* 64 planes x 1048576 blocks x 128 pages = 2^33 pages: beyond 32-bit page addresses */
    RUN(&c, "run", "--model", model_path(m, sizeof m), "--workload", wl, "--set",
        "geometry.blocks_per_plane=1048576");
    assert_one_error(&c, 1, "impossible geometry");
    ck_assert(strstr(c.err, "geometry") != NULL);
    cmd_free(&c);
    /* a page size that is not a power of two */
    RUN(&c, "run", "--workload", wl, "--set", "geometry.page_size=3000");
    assert_one_error(&c, 1, "geometry.page_size");
    cmd_free(&c);
}
END_TEST

START_TEST(test_cli_set_op_too_small_for_gc)
{
    char wl[4096], m[4096];
    workload_path(wl, sizeof wl);
    struct cmd c;
    RUN(&c, "run", "--model", model_path(m, sizeof m), "--workload", wl, "--set", "ftl.op=0.001");
    assert_one_error(&c, 1, "ftl.op");
    ck_assert(strstr(c.err, "gc.free_blocks_min") != NULL);
    cmd_free(&c);
}
END_TEST

/* A model's caveat (what it gets wrong against its drive) is printed under the capacity line
 * and given in the JSON, as the model file says it; a model without one has neither. */
START_TEST(test_cli_model_caveat_printed)
{
    char wl[4096], x25[4096], json[4096];
    workload_path(wl, sizeof wl);
    test_src_path(x25, sizeof x25, "models/x25m-g2-160.json");
    out_path(json, sizeof json, "cli-caveat.json");
    cJSON *file = load_json(x25);
    const char *text = cJSON_GetStringValue(cJSON_GetObjectItem(file, "caveat"));
    ck_assert_ptr_nonnull(text);
    char line[8192];
    snprintf(line, sizeof line, "\nmodel caveat: %s\n", text);
    struct cmd c;
    RUN(&c, "run", "--model", x25, "--workload", wl, "--set", "geometry.blocks_per_plane=256",
        "--json", json);
    ck_assert_msg(c.status == 0, "exit %d: %s", c.status, c.err);
    ck_assert_msg(strstr(c.out, line), "no caveat line in %s", c.out);
    cmd_free(&c);
    cJSON *root = load_json(json);
    ck_assert_str_eq(cJSON_GetStringValue(cJSON_GetObjectItem(root, "model_caveat")), text);
    cJSON_Delete(root);
    RUN(&c, "run", "--workload", wl, SMALL_SETS, "--json", json);
    ck_assert_msg(c.status == 0, "exit %d: %s", c.status, c.err);
    ck_assert_ptr_null(strstr(c.out, "model caveat:"));
    cmd_free(&c);
    root = load_json(json);
    ck_assert_ptr_null(cJSON_GetObjectItem(root, "model_caveat"));
    cJSON_Delete(root);
    cJSON_Delete(file);
}
END_TEST

/* --set values go in together and the model is validated once: keys that depend on each other
 * in any order; a key the model gives that they make invalid is named with what to do. */
START_TEST(test_cli_set_any_order)
{
    char wl[4096], eco[4096];
    workload_path(wl, sizeof wl);
    test_src_path(eco, sizeof eco, "models/optimus-eco-400.json");
    struct cmd c;
    RUN(&c, "run", "--workload", wl, "--set", "flash.cell=slc");
    assert_one_error(&c, 1, "flash.read_us");
    ck_assert_msg(strstr(c.err, "(the model gives flash.read_us: set it too)") != NULL, "%s",
                  c.err);
    cmd_free(&c);
    RUN(&c, "run", "--workload", wl, "--set", "flash.cell=slc", "--set", "flash.read_us=25",
        "--set", "flash.program_us=250", "--quiet");
    ck_assert_msg(c.status == 0, "exit %d: %s", c.status, c.err);
    cmd_free(&c);
    RUN(&c, "run", "--workload", wl, "--set", "flash.read_us=25", "--set",
        "flash.program_us=250", "--set", "flash.cell=slc", "--quiet");
    ck_assert_msg(c.status == 0, "exit %d: %s", c.status, c.err);
    cmd_free(&c);
    /* background GC off on a real model: its watermark and preemption keys go out too */
    RUN(&c, "run", "--model", eco, "--workload", wl, "--set", "geometry.blocks_per_plane=256",
        "--set", "gc.bg_idle_us=0");
    assert_one_error(&c, 1, "gc.bg_high_watermark: applies only when gc.bg_idle_us > 0");
    ck_assert_msg(strstr(c.err, "gc.bg_high_watermark=null takes it out") != NULL, "%s", c.err);
    cmd_free(&c);
    RUN(&c, "run", "--model", eco, "--workload", wl, "--set", "gc.bg_preempt=null", "--set",
        "gc.bg_idle_us=0", "--set", "gc.bg_high_watermark=null", "--set",
        "geometry.blocks_per_plane=256", "--quiet");
    ck_assert_msg(c.status == 0, "exit %d: %s", c.status, c.err);
    cmd_free(&c);
    /* the write cache on a model without a buffer: it is the buffer that is missing (plp is
     * already false) */
    RUN(&c, "run", "--workload", wl, "--set", "buffer.write_cache=true");
    assert_one_error(&c, 1, NULL);
    ck_assert_str_eq(c.err,
                     "ssdsim: --set: buffer.write_cache: applies only when buffer.size > 0\n");
    cmd_free(&c);
    /* a background GC watermark the spare cannot hold is refused by its key, with the share
     * that fits, when the model is read (not as an FTL that "could not be set up") */
    char mlc[4096];
    model_path(mlc, sizeof mlc);
    RUN(&c, "run", "--model", mlc, "--workload", wl, "--set", "geometry.blocks_per_plane=32",
        "--set", "gc.bg_idle_us=1", "--set", "gc.bg_high_watermark=0.5");
    assert_one_error(&c, 1, NULL);
    ck_assert_str_eq(c.err, "ssdsim: --set: gc.bg_high_watermark: expected at most 0.15625 (5 of "
                            "the 32 blocks per plane: the 7 spare blocks per plane hold 2 open "
                            "blocks and at most 5 free), got 0.5 (16 blocks)\n");
    cmd_free(&c);
}
END_TEST

/* Reported jobs that ran one after another (stonewall) each get their own table, with rates
 * over their own runtime, as fio reports groups; the whole run's rows say they are over the
 * whole time. Checked against the printed counts and spans: each job's IOPS is its count over
 * end - start, the whole run's is the total over the simulated time. */
START_TEST(test_cli_report_per_job)
{
    char jobs[4096];
    out_path(jobs, sizeof jobs, "cli-waves.fio");
    write_file(jobs,
               "[global]\nbs=4k\nioengine=libaio\niodepth=4\nnumber_ios=3000\ngroup_reporting\n"
               "[writes]\nrw=randwrite\nnumjobs=2\n"
               "[reads]\nrw=randread\nstonewall\nnumjobs=2\n");
    struct cmd c;
    RUN(&c, "run", "--workload", jobs, SMALL_SETS);
    ck_assert_msg(c.status == 0, "exit %d: %s", c.status, c.err);
    const char *p = strstr(c.out, "Per job (fio's jobs or reporting groups;");
    ck_assert_msg(p != NULL, "%s", c.out);
    double sim_s = 0;
    const char *t = strstr(c.out, "simulated time: ");
    ck_assert(t && sscanf(t, "simulated time: %lf s", &sim_s) == 1);
    const char *names[2] = {"writes", "reads"}, *ops[2] = {"write", "read"};
    uint64_t total = 0;
    for (int k = 0; k < 2; k++) {
        char head[64];
        snprintf(head, sizeof head, "\n%s: group %d, 2 clones, ", names[k], k);
        p = strstr(p, head);
        ck_assert_msg(p != NULL, "no table of %s: %s", names[k], c.out);
        double from, to;
        ck_assert(sscanf(p + strlen(head), "%lf to %lf s", &from, &to) == 2);
        char row[16];
        snprintf(row, sizeof row, "\n%s ", ops[k]);
        const char *r = strstr(p, row);
        ck_assert(r != NULL);
        unsigned long long count;
        double iops;
        ck_assert(sscanf(r + strlen(row), "%llu %lf", &count, &iops) == 2);
        ck_assert_uint_eq(count, 6000);
        /* the printed ends have 3 decimals each: the rate agrees to their rounding */
        ck_assert_msg(fabs(iops - count / (to - from)) <= 1 + iops * 0.001 / (to - from),
                      "%s: %g IOPS against %llu / %g s", names[k], iops, count, to - from);
        total += count;
    }
    const char *w = strstr(p, "\nWhole run (rates over the whole simulated time");
    ck_assert_msg(w != NULL, "%s", c.out);
    const char *a = strstr(w, "\nall ");
    unsigned long long count;
    double iops;
    ck_assert(a && sscanf(a + 5, "%llu %lf", &count, &iops) == 2);
    ck_assert_uint_eq(count, total);
    ck_assert_msg(fabs(iops - count / sim_s) <= 1 + iops * 0.0005 / sim_s, "%g against %g", iops,
                  count / sim_s);
    cmd_free(&c);
    /* one group: no per-job tables */
    char wl[4096];
    RUN(&c, "run", "--workload", workload_path(wl, sizeof wl), SMALL_SETS);
    ck_assert_int_eq(c.status, 0);
    ck_assert_ptr_null(strstr(c.out, "Per job"));
    ck_assert_ptr_null(strstr(c.out, "Whole run"));
    cmd_free(&c);
}
END_TEST

/* Fixed times make latencies of one kind that meet the same queue equal: the report says so
 * under its table when a row of 100 requests or more spreads by less than 1% of its mean. A
 * QD1 read of a written 4 KiB page on an SLC die (one page type) takes the same time every
 * time; 4 KiB random writes on the MLC model (two page types behind its buffer) spread. */
START_TEST(test_cli_report_flat_latency)
{
    char rd[4096], m[4096];
    out_path(rd, sizeof rd, "cli-qd1-reads.json");
    write_file(rd, "{\"rw\": \"randread\", \"bs\": \"4k\", \"iodepth\": 1, "
                   "\"number_ios\": 500}\n");
    struct cmd c;
    RUN(&c, "run", "--model", test_src_path(m, sizeof m, "models/generic-slc.json"),
        "--workload", rd, "--precondition", "seq", "--set", "geometry.blocks_per_plane=64");
    ck_assert_msg(c.status == 0, "exit %d: %s", c.status, c.err);
    const char *row = strstr(c.out, "\nread ");
    ck_assert_ptr_nonnull(row);
    double mean, max, sd;
    unsigned long long count;
    ck_assert(sscanf(row + 6, "%llu %*f %*f %lf %*f %*f %*f %lf %lf", &count, &mean, &max, &sd) ==
              4);
    ck_assert_uint_eq(count, 500);
    ck_assert_msg(sd < 0.01 * mean, "%g %g", sd, mean);
    ck_assert_msg(strstr(c.out, "(reads: spread ") && strstr(c.out, "a real drive's times vary"),
                  "%s", c.out);
    ck_assert_ptr_null(strstr(c.out, "(writes: spread"));
    cmd_free(&c);
    char wl[4096];
    RUN(&c, "run", "--workload", workload_path(wl, sizeof wl), SMALL_SETS);
    ck_assert_int_eq(c.status, 0);
    ck_assert_ptr_null(strstr(c.out, "spread "));
    cmd_free(&c);
}
END_TEST

/* 4 KiB random writes on 16 KiB mapping units: each programs a whole unit, so the flash wears
 * 16 KiB per 4 KiB written, 4 times the WAF (which counts units: programs per unit written).
 * The device line says so; a run whose writes fill their units has no such line. */
START_TEST(test_cli_report_wear_factor)
{
    char wr[4096], m[4096];
    out_path(wr, sizeof wr, "cli-qd1-writes.json");
    write_file(wr, "{\"rw\": \"randwrite\", \"bs\": \"4k\", \"iodepth\": 1, "
                   "\"number_ios\": 500}\n");
    struct cmd c;
    RUN(&c, "run", "--model", test_src_path(m, sizeof m, "models/generic-slc.json"),
        "--workload", wr, "--precondition", "seq", "--set", "geometry.blocks_per_plane=64",
        "--set", "ftl.mapping_unit=16KiB");
    ck_assert_msg(c.status == 0, "exit %d: %s", c.status, c.err);
    const char *w = strstr(c.out, "write amplification ");
    const char *f = strstr(c.out, "flash wear per host byte ");
    ck_assert_msg(w && f, "%s", c.out);
    double waf = 0, wear = 0;
    ck_assert(sscanf(w + strlen("write amplification "), "%lf", &waf) == 1);
    ck_assert(sscanf(f + strlen("flash wear per host byte "), "%lf", &wear) == 1);
    ck_assert_msg(fabs(wear / (4 * waf) - 1) < 0.005, "waf %g wear %g", waf, wear);
    cmd_free(&c);
    char wl[4096];
    RUN(&c, "run", "--workload", workload_path(wl, sizeof wl), SMALL_SETS);
    ck_assert_int_eq(c.status, 0);
    ck_assert_ptr_null(strstr(c.out, "flash wear per host byte"));
    cmd_free(&c);
}
END_TEST

START_TEST(test_cli_workload_unknown_key)
{
    char bad[4096];
    test_src_path(bad, sizeof bad, "tests/data/wl-bad-unknown.json");
    struct cmd c;
    RUN(&c, "run", "--workload", bad);
    assert_one_error(&c, 1, "iodept");
    ck_assert(strstr(c.err, bad) != NULL);
    ck_assert(strstr(c.err, "did you mean 'iodepth'") != NULL);
    cmd_free(&c);
}
END_TEST

START_TEST(test_cli_workload_garbage_bs)
{
    char bad[4096];
    out_path(bad, sizeof bad, "cli-garbage-bs.json");
    write_file(bad, "{\"rw\": \"randwrite\", \"bs\": \"four\", \"number_ios\": 10}\n");
    struct cmd c;
    RUN(&c, "run", "--workload", bad);
    assert_one_error(&c, 1, "bs");
    ck_assert(strstr(c.err, "four") != NULL);
    cmd_free(&c);
}
END_TEST

START_TEST(test_cli_workload_beyond_device)
{
    /* A region that starts past the end of the (small) device is refused before running. */
    char bad[4096], m[4096];
    out_path(bad, sizeof bad, "cli-offset-beyond.json");
    write_file(bad, "{\"rw\": \"randwrite\", \"offset\": \"1t\", \"number_ios\": 10}\n");
    struct cmd c;
    RUN(&c, "run", "--model", model_path(m, sizeof m), SMALL_SETS, "--workload", bad, "--quiet");
    assert_one_error(&c, 1, "offset");
    cmd_free(&c);
}
END_TEST

START_TEST(test_cli_json_into_missing_directory)
{
    char wl[4096], m[4096], json[4096];
    workload_path(wl, sizeof wl);
    out_path(json, sizeof json, "cli-no-such-dir/sub/out.json");
    struct cmd c;
    RUN(&c, "run", "--model", model_path(m, sizeof m), SMALL_SETS, "--workload", wl, "--json", json,
        "--quiet");
    assert_one_error(&c, 1, json);
    ck_assert(!file_exists(json));
    cmd_free(&c);
    /* the same for the CSV */
    out_path(json, sizeof json, "cli-no-such-dir/sub/out.csv");
    RUN(&c, "run", "--model", model_path(m, sizeof m), SMALL_SETS, "--workload", wl, "--timeseries",
        json, "--interval-ios", "1000", "--quiet");
    assert_one_error(&c, 1, json);
    cmd_free(&c);
}
END_TEST

/* ------------------------------------------------------------------------------------------ */
/* Successful runs                                                                             */

/* Run the small model with the standard workload, --quiet, writing `name`.json (and, with
 * `csv`, `name`.csv at 1000 I/Os per interval); extra arguments go before --quiet. Checks
 * the success contract: exit 0, nothing on stdout or stderr. */
static void run_small(const char *name, bool csv, const char *const *extra)
{
    char wl[4096], m[4096], json[4096], csvp[4096], file[256];
    workload_path(wl, sizeof wl);
    snprintf(file, sizeof file, "%s.json", name);
    out_path(json, sizeof json, file);
    snprintf(file, sizeof file, "%s.csv", name);
    out_path(csvp, sizeof csvp, file);
    unlink(json);
    unlink(csvp);
    const char *args[64] = {
        "run", "--model", model_path(m, sizeof m), SMALL_SETS, "--workload", wl, "--json", json};
    size_t n = 0;
    while (args[n])
        n++;
#define ADD(a)                                                                                     \
    do {                                                                                           \
        ck_assert_uint_lt(n, 62);                                                                  \
        args[n++] = (a);                                                                           \
    } while (0)
    if (csv) {
        ADD("--timeseries");
        ADD(csvp);
        ADD("--interval-ios");
        ADD("1000");
    }
    for (size_t i = 0; extra && extra[i]; i++)
        ADD(extra[i]);
    ADD("--quiet");
#undef ADD
    args[n] = NULL;
    struct cmd c;
    run_argv(&c, args);
    ck_assert_msg(c.status == 0, "exit %d: %s", c.status, c.err);
    ck_assert_msg(c.n_out == 0, "--quiet printed on stdout: %s", c.out);
    ck_assert_msg(c.n_err == 0, "--quiet printed on stderr: %s", c.err);
    cmd_free(&c);
    ck_assert_msg(file_exists(json), "%s was not written", json);
}

static char *small_json_text(const char *name)
{
    char path[4096], file[256];
    snprintf(file, sizeof file, "%s.json", name);
    out_path(path, sizeof path, file);
    char *text = read_file(path, NULL);
    ck_assert_msg(text != NULL, "%s missing", path);
    return text;
}

static cJSON *small_json(const char *name)
{
    char path[4096], file[256];
    snprintf(file, sizeof file, "%s.json", name);
    return load_json(out_path(path, sizeof path, file));
}

START_TEST(test_cli_run_writes_documented_json)
{
    run_small("cli-run", true, NULL);
    cJSON *root = small_json("cli-run");
    assert_results_keys(root);
    assert_timeseries_keys(root);

    /* 2 jobs x 5000 writes of 4 KiB, nothing else */
    ck_assert_uint_eq((uint64_t)json_num(root, "ops.write.count"), 10000);
    ck_assert_uint_eq((uint64_t)json_num(root, "ops.write.bytes"), 10000ULL * 4096);
    ck_assert_uint_eq((uint64_t)json_num(root, "ops.all.count"), 10000);
    ck_assert_uint_eq((uint64_t)json_num(root, "ops.read.count"), 0);
    ck_assert_uint_eq((uint64_t)json_num(root, "ops.trim.count"), 0);
    ck_assert_uint_eq((uint64_t)json_num(root, "seed"), 1);
    ck_assert_uint_eq((uint64_t)json_num(root, "device.host_pages_written"), 10000);
    ck_assert(json_num(root, "device.waf") >= 1.0);
    ck_assert(json_num(root, "device.flash_pages_programmed") ==
              json_num(root, "device.host_pages_written") +
                  json_num(root, "device.gc_pages_copied"));
    /* the small geometry: 2 planes x 64 blocks x 32 pages x 4 KiB */
    ck_assert_uint_eq((uint64_t)json_num(root, "device.physical_bytes"), 2ULL * 64 * 32 * 4096);
    ck_assert(json_num(root, "sim_time_ns") > 0);
    double lo = json_num(root, "ops.write.lat_ns.min"),
           p50 = json_num(root, "ops.write.lat_ns.p50"),
           p99 = json_num(root, "ops.write.lat_ns.p99"),
           hi = json_num(root, "ops.write.lat_ns.max");
    ck_assert(lo > 0 && lo <= p50 && p50 <= p99 && p99 <= hi);

    /* 10000 I/Os at 1000 per interval: 10 intervals, the last one ending with the run */
    const cJSON *ts = cJSON_GetObjectItemCaseSensitive(root, "timeseries");
    int n = cJSON_GetArraySize(ts);
    ck_assert_int_eq(n, 10);
    uint64_t prev_t = 0;
    for (int i = 0; i < n; i++) {
        const cJSON *e = cJSON_GetArrayItem(ts, i);
        uint64_t t = (uint64_t)json_num(e, "t_ns");
        ck_assert_uint_gt(t, prev_t);
        prev_t = t;
    }
    ck_assert_uint_eq(prev_t, (uint64_t)json_num(root, "sim_time_ns"));
    ck_assert_uint_eq((uint64_t)json_num(cJSON_GetArrayItem(ts, n - 1), "host_pages_written"),
                      10000);

    /* the CSV: a header, then one row per interval */
    char csv[4096];
    out_path(csv, sizeof csv, "cli-run.csv");
    size_t len = 0;
    char *text = read_file(csv, &len);
    ck_assert_msg(text != NULL, "%s was not written", csv);
    ck_assert(len > 0 && text[len - 1] == '\n');
    ck_assert(strncmp(text, "t_ns,", 5) == 0);
    int lines = 0;
    for (size_t i = 0; i < len; i++)
        lines += text[i] == '\n';
    ck_assert_int_eq(lines, 1 + n);
    /* the first field of each row is the interval's t_ns */
    const char *row = strchr(text, '\n') + 1;
    for (int i = 0; i < n; i++) {
        unsigned long long t = strtoull(row, NULL, 10);
        ck_assert_uint_eq(t, (uint64_t)json_num(cJSON_GetArrayItem(ts, i), "t_ns"));
        row = strchr(row, '\n') + 1;
    }
    free(text);
    cJSON_Delete(root);
}
END_TEST

START_TEST(test_cli_run_without_quiet_prints_summary)
{
    char wl[4096], m[4096];
    workload_path(wl, sizeof wl);
    struct cmd c;
    RUN(&c, "run", "--model", model_path(m, sizeof m), SMALL_SETS, "--workload", wl);
    ck_assert_msg(c.status == 0, "exit %d: %s", c.status, c.err);
    ck_assert(c.n_out > 0);
    /* stderr is a pipe and cmdtest.h sets SSDSIM_PROGRESS=0: no periodic progress line */
    ck_assert_msg(!*after_reserve_warning(c.err), "unexpected stderr: %s", c.err);
    cmd_free(&c);
}
END_TEST

START_TEST(test_cli_run_is_deterministic)
{
    run_small("cli-det-a", true, NULL);
    run_small("cli-det-b", true, NULL);
    char *a = small_json_text("cli-det-a"), *b = small_json_text("cli-det-b");
    ck_assert_msg(strcmp(a, b) == 0, "same seed, different JSON");
    free(a);
    free(b);
    /* the CSVs too */
    char pa[4096], pb[4096];
    a = read_file(out_path(pa, sizeof pa, "cli-det-a.csv"), NULL);
    b = read_file(out_path(pb, sizeof pb, "cli-det-b.csv"), NULL);
    ck_assert(a && b);
    ck_assert_msg(strcmp(a, b) == 0, "same seed, different CSV");
    free(a);
    free(b);
}
END_TEST

START_TEST(test_cli_seed_changes_results)
{
    run_small("cli-seed-1", false, NULL);
    run_small("cli-seed-2", false, (const char *const[]){"--seed", "2", NULL});
    cJSON *a = small_json("cli-seed-1"), *b = small_json("cli-seed-2");
    ck_assert_uint_eq((uint64_t)json_num(a, "seed"), 1);
    ck_assert_uint_eq((uint64_t)json_num(b, "seed"), 2);
    /* not only the "seed" field: the simulated figures differ */
    char *ta = cJSON_PrintUnformatted(cJSON_GetObjectItemCaseSensitive(a, "ops"));
    char *tb = cJSON_PrintUnformatted(cJSON_GetObjectItemCaseSensitive(b, "ops"));
    ck_assert(ta && tb);
    ck_assert_msg(strcmp(ta, tb) != 0, "seeds 1 and 2 gave the same ops figures");
    /* the workload itself is the same */
    ck_assert_uint_eq((uint64_t)json_num(b, "ops.write.count"), 10000);
    free(ta);
    free(tb);
    cJSON_Delete(a);
    cJSON_Delete(b);
}
END_TEST

START_TEST(test_cli_interval_by_time)
{
    run_small("cli-interval", false, (const char *const[]){"--interval", "10ms", NULL});
    cJSON *root = small_json("cli-interval");
    assert_timeseries_keys(root);
    const cJSON *ts = cJSON_GetObjectItemCaseSensitive(root, "timeseries");
    int n = cJSON_GetArraySize(ts);
    uint64_t sim_ns = (uint64_t)json_num(root, "sim_time_ns");
    const uint64_t iv = 10000000;
    /* one interval per 10 ms of simulated time, the last one cut at the end of the run */
    ck_assert_int_eq(n, (int)((sim_ns + iv - 1) / iv));
    uint64_t n_ios = 0;
    for (int i = 0; i < n; i++) {
        const cJSON *e = cJSON_GetArrayItem(ts, i);
        uint64_t t = (uint64_t)json_num(e, "t_ns");
        if (i + 1 < n)
            ck_assert_uint_eq(t, (uint64_t)(i + 1) * iv);
        else
            ck_assert_uint_eq(t, sim_ns);
        n_ios += (uint64_t)json_num(e, "n_ios");
    }
    /* every completed I/O falls in exactly one interval */
    ck_assert_uint_eq(n_ios, 10000);
    cJSON_Delete(root);
}
END_TEST

START_TEST(test_cli_precondition_counts_only_workload)
{
    run_small("cli-precond", false, (const char *const[]){"--precondition", "seq", NULL});
    run_small("cli-fresh", false, NULL);
    cJSON *p = small_json("cli-precond"), *f = small_json("cli-fresh");
    assert_results_keys(p);
    ck_assert_uint_eq((uint64_t)json_num(p, "ops.all.count"), 10000);
    ck_assert_uint_eq((uint64_t)json_num(p, "ops.write.count"), 10000);
    ck_assert_uint_eq((uint64_t)json_num(p, "ops.write.bytes"), 10000ULL * 4096);
    ck_assert_uint_eq((uint64_t)json_num(p, "device.host_pages_written"), 10000);
    /* the drive was full before the workload, so it had to collect garbage from the start:
     * more relocation than on the fresh drive, and the erase counts include the
     * preconditioning pass */
    ck_assert(json_num(p, "device.gc_pages_copied") > json_num(f, "device.gc_pages_copied"));
    ck_assert(json_num(p, "device.waf") > json_num(f, "device.waf"));
    cJSON_Delete(p);
    cJSON_Delete(f);
}
END_TEST

START_TEST(test_cli_demo_on_small_model)
{
    /* The demo with its model shrunk: 6 x the logical capacity in 4 KiB random writes, and
     * 30 intervals by default. */
    char json[4096];
    out_path(json, sizeof json, "cli-demo.json");
    unlink(json);
    struct cmd c;
    RUN(&c, "demo", SMALL_SETS, "--json", json, "--quiet");
    ck_assert_msg(c.status == 0, "exit %d: %s", c.status, c.err);
    ck_assert_uint_eq(c.n_out, 0);
    ck_assert_uint_eq(c.n_err, 0);
    cmd_free(&c);
    cJSON *root = load_json(json);
    assert_results_keys(root);
    assert_timeseries_keys(root);
    uint64_t logical = (uint64_t)json_num(root, "device.logical_bytes");
    uint64_t per_job = 6 * (logical / 4096) / 16;
    ck_assert_uint_eq((uint64_t)json_num(root, "ops.write.count"), per_job * 16);
    const cJSON *ts = cJSON_GetObjectItemCaseSensitive(root, "timeseries");
    ck_assert_int_eq(cJSON_GetArraySize(ts), 30);
    /* The verdict is over the rounds that began once garbage collection had started (a block
     * erased), twice the logical capacity had been written (from the series itself, whose
     * cumulative units count from the fresh drive) and the units never written were 1% of the
     * spare space at most: never on the fresh drive's plateau. 16 jobs, each with its own
     * random map (a permutation of the units, fio's default), have written W / 16 units each
     * after W, and leave a unit unwritten with probability (1 - W / (16 L))^16: at most
     * 0.01 x 0.28 (generic-mlc's ftl.op) from W = 4.93 L on. With only 3,200 units the count
     * itself (about 9 there) is random: within two rounds of 0.2 L each. */
    uint64_t lpages = logical / 4096;
    int first_erase = -1, first = -1, mapped = -1;
    for (int i = 0; i < 30 && mapped < 0; i++) {
        const cJSON *row = cJSON_GetArrayItem(ts, i);
        double w = json_num(row, "host_pages_written");
        if (first_erase < 0 && json_num(row, "blocks_erased") > 0)
            first_erase = i;
        if (first < 0 && first_erase >= 0 && w >= 2.0 * (double)lpages)
            first = i + 1;
        if (first >= 0 && pow(1 - w / (16.0 * (double)lpages), 16) <= 0.01 * 0.28)
            mapped = i + 1;
    }
    ck_assert_int_gt(first_erase, 0);
    ck_assert_int_gt(first, first_erase);
    ck_assert_int_gt(mapped, first);
    ck_assert(cJSON_IsTrue(json_at(root, "steady_state.preconditioned")));
    int judged = (int)json_num(root, "steady_state.first_round");
    ck_assert_int_ge(judged, first);
    ck_assert_int_le(abs(judged - mapped), 2);
    first = judged;
    if (cJSON_IsTrue(json_at(root, "steady_state.steady")))
        ck_assert_int_ge((int)json_num(root, "steady_state.round"), first + 4);
    cJSON_Delete(root);
}
END_TEST

/* ------------------------------------------------------------------------------------------ */
/* Safe outputs                                                                                */

/* An output that is an input of the run (the same path, a hard link, a symbolic link) is
 * refused before the run, with one line naming both, and the input is left as it was. */
START_TEST(test_cli_output_that_is_an_input_is_refused)
{
    char wl[4096], m[4096], hard[4096], sym[4096];
    workload_path(wl, sizeof wl);
    char *before = read_file(wl, NULL);
    ck_assert_ptr_nonnull(before);
    out_path(hard, sizeof hard, "cli-wl-hardlink.json");
    out_path(sym, sizeof sym, "cli-wl-symlink.json");
    unlink(hard);
    unlink(sym);
    ck_assert_int_eq(link(wl, hard), 0);
    ck_assert_int_eq(symlink(wl, sym), 0);
    const char *const outs[] = {"--json", wl, "--json", hard, "--json", sym, "--latency-log", sym,
                                "--record", hard, "--timeseries", wl};
    for (size_t i = 0; i < sizeof outs / sizeof outs[0]; i += 2) {
        struct cmd c;
        RUN(&c, "run", "--model", model_path(m, sizeof m), SMALL_SETS, "--workload", wl, outs[i],
            outs[i + 1], "--interval-ios", "1000", "--quiet");
        assert_one_error(&c, 2, outs[i + 1]); /* a bad command line (guide.md, exit status) */
        ck_assert_msg(strstr(c.err, wl) != NULL, "the input is not named: %s", c.err);
        cmd_free(&c);
        char *after = read_file(wl, NULL);
        ck_assert_ptr_nonnull(after);
        ck_assert_str_eq(before, after);
        free(after);
    }
    /* the model too */
    struct cmd c;
    char mcopy[4096];
    out_path(mcopy, sizeof mcopy, "cli-model-hardlink.json");
    unlink(mcopy);
    char *mtext = read_file(model_path(m, sizeof m), NULL);
    ck_assert_ptr_nonnull(mtext);
    write_file(mcopy, mtext);
    free(mtext);
    RUN(&c, "run", "--model", mcopy, SMALL_SETS, "--workload", wl, "--json", mcopy, "--quiet");
    assert_one_error(&c, 2, "cli-model-hardlink.json");
    cmd_free(&c);
    free(before);
    unlink(hard);
    unlink(sym);
    unlink(mcopy);
}
END_TEST

/* Two outputs of one run at the same file (the same path, another spelling of it, a fio log a
 * job file asks for) are refused before the run with one line naming the path and both
 * options: one of them would be lost. Devices (/dev/null) may take several. */
START_TEST(test_cli_two_outputs_one_file_refused)
{
    char wl[4096], m[4096], same[4096], other[4096], jobs[4096], iops[4096], cwd[4096];
    workload_path(wl, sizeof wl);
    model_path(m, sizeof m);
    out_path(same, sizeof same, "cli-same.out");
    out_path(iops, sizeof iops, "cli-same-j_iops.1.log");
    unlink(same);
    unlink(iops);
    /* the same file through the output directory's parent */
    out_path(other, sizeof other, "../out/cli-same.out");
    static const char *const pairs[][2] = {{"--json", "--timeseries"},
                                           {"--json", "--latency-log"},
                                           {"--record", "--latency-log"}};
    for (size_t i = 0; i < sizeof pairs / sizeof pairs[0]; i++) {
        struct cmd c;
        RUN(&c, "run", "--model", m, SMALL_SETS, "--workload", wl, pairs[i][0], same, pairs[i][1],
            other, "--interval-ios", "1000", "--quiet");
        assert_one_error(&c, 2, "cli-same.out: ");
        ck_assert_msg(strstr(c.err, pairs[i][0]) && strstr(c.err, pairs[i][1]), "%s", c.err);
        cmd_free(&c);
        ck_assert(!file_exists(same));
    }
    /* a job file's fio log */
    out_path(jobs, sizeof jobs, "cli-same.fio");
    ck_assert_ptr_nonnull(getcwd(cwd, sizeof cwd));
    out_path(other, sizeof other, "");
    ck_assert_int_eq(chdir(other), 0);
    write_file(jobs, "[global]\nbs=4k\nrw=randwrite\nnumber_ios=500\n"
                     "[j]\nwrite_iops_log=cli-same-j\n");
    struct cmd c;
    RUN(&c, "run", "--model", m, SMALL_SETS, "--workload", jobs, "--json", iops, "--quiet");
    assert_one_error(&c, 2, "--json and the job file's write_iops_log would both write");
    cmd_free(&c);
    ck_assert(!file_exists(iops));
    /* devices take several */
    RUN(&c, "run", "--model", m, SMALL_SETS, "--workload", wl, "--json", "/dev/null",
        "--timeseries", "/dev/null", "--interval-ios", "1000", "--quiet");
    ck_assert_msg(c.status == 0, "%s", c.err);
    cmd_free(&c);
    ck_assert_int_eq(chdir(cwd), 0);
    unlink(jobs);
}
END_TEST

/* An output that cannot be written (its directory missing or a file, the path a directory) is
 * refused before anything runs, with one line naming it: run's --json, calibrate's --json,
 * validate's --markdown, and a suite's --out folder whose path holds a file. Nothing is
 * measured first (nothing on standard output), and the file in the way is left as it was. */
START_TEST(test_cli_unwritable_output_refused_first)
{
    char wl[4096], m[4096], file[4096], under[4096], missing[4096], dir[4096];
    workload_path(wl, sizeof wl);
    out_path(file, sizeof file, "cli-plain-file");
    write_file(file, "x\n");
    snprintf(under, sizeof under, "%s/out.json", file);
    out_path(missing, sizeof missing, "cli-no-such-dir/out.json");
    out_path(dir, sizeof dir, "");
    struct cmd c;
    const char *const bad[] = {under, missing, dir};
    for (size_t i = 0; i < 3; i++) {
        RUN(&c, "run", "--model", model_path(m, sizeof m), SMALL_SETS, "--workload", wl, "--json",
            bad[i]);
        assert_one_error(&c, 1, "cannot write");
        ck_assert_msg(c.out[0] == 0, "ran first: %s", c.out);
        cmd_free(&c);
    }
    RUN(&c, "calibrate", "--model", model_path(m, sizeof m), "--json", under);
    assert_one_error(&c, 1, "cannot write: ");
    ck_assert_msg(c.out[0] == 0, "ran first: %s", c.out);
    cmd_free(&c);
    RUN(&c, "validate", "waf", "--quick", "--markdown", missing);
    assert_one_error(&c, 1, "cli-no-such-dir: No such file or directory");
    ck_assert_msg(c.out[0] == 0, "ran first: %s", c.out);
    cmd_free(&c);
    char sub[4096];
    snprintf(sub, sizeof sub, "%s/suite", file);
    RUN(&c, "suite", "quick-matrix", "--model", model_path(m, sizeof m), SMALL_SETS, "--quick",
        "--out", sub);
    assert_one_error(&c, 1, "is a file, not a directory");
    ck_assert_msg(c.out[0] == 0, "ran first: %s", c.out);
    cmd_free(&c);
    RUN(&c, "suite", "quick-matrix", "--model", model_path(m, sizeof m), SMALL_SETS, "--quick",
        "--out", file);
    assert_one_error(&c, 1, "a file of that name is there");
    cmd_free(&c);
    char *text = read_file(file, NULL);
    ck_assert_str_eq(text, "x\n");
    free(text);
    unlink(file);
}
END_TEST

/* Run ssdsim with stdout on /dev/full and stderr into a file; returns the exit status (-1 when
 * it did not exit) and the stderr text in *err (the caller frees it). */
static int run_to_dev_full(const char *const *args, char **err)
{
    char errpath[4096];
    out_path(errpath, sizeof errpath, "cli-devfull.err");
    fflush(NULL);
    pid_t pid = fork();
    ck_assert_int_ge(pid, 0);
    if (pid == 0) {
        int full = open("/dev/full", O_WRONLY);
        int e = open(errpath, O_WRONLY | O_CREAT | O_TRUNC, 0666);
        if (full < 0 || e < 0)
            _exit(126);
        dup2(full, 1);
        dup2(e, 2);
        const char *argv[64];
        int n = 0;
        argv[n++] = ssdsim_bin();
        for (; args[n - 1] && n < 63; n++)
            argv[n] = args[n - 1];
        argv[n] = NULL;
        execv(argv[0], (char *const *)argv);
        _exit(127);
    }
    int ws;
    while (waitpid(pid, &ws, 0) < 0)
        ck_assert_int_eq(errno, EINTR);
    *err = read_file(errpath, NULL);
    ck_assert_ptr_nonnull(*err);
    return WIFEXITED(ws) ? WEXITSTATUS(ws) : -1;
}

/* What a command prints must reach standard output: a write that fails is an error. */
START_TEST(test_cli_failed_stdout_is_an_error)
{
    if (access("/dev/full", W_OK) != 0) {
        printf("test_cli_failed_stdout_is_an_error: no /dev/full: skipped\n");
        return;
    }
    char wl[4096], m[4096];
    workload_path(wl, sizeof wl);
    const char *const version[] = {"version", NULL};
    const char *const run[] = {"run", "--model", model_path(m, sizeof m), SMALL_SETS,
                               "--workload", wl, NULL};
    const char *const *cmds[] = {version, run};
    for (size_t i = 0; i < 2; i++) {
        char *err = NULL;
        int status = run_to_dev_full(cmds[i], &err);
        ck_assert_msg(status == 1, "%s > /dev/full: exit %d, stderr: %s", cmds[i][0], status, err);
        const char *e = i == 1 ? after_reserve_warning(err) : err;
        ck_assert_msg(!strncmp(e, "ssdsim: standard output: write failed", 37) &&
                          strchr(e, '\n') == e + strlen(e) - 1,
                      "want one line about standard output, got: %s", err);
        free(err);
    }
}
END_TEST

/* The number of lines of a file. */
static size_t count_lines(const char *path)
{
    char *text = read_file(path, NULL);
    ck_assert_msg(text != NULL, "%s missing", path);
    size_t n = 0;
    for (const char *p = text; *p; p++)
        n += *p == '\n';
    free(text);
    return n;
}

/* SIGINT stops a long run cleanly: exit 130, the JSON of what completed marked "interrupted",
 * the latency log and the time series renamed NAME.partial, no temporary file left. The signal
 * is sent once the run has opened its latency log (its temporary file appears just before the
 * run starts), so no timing is involved; the run is far too long to end by itself first. */
START_TEST(test_cli_interrupted_run_writes_results_so_far)
{
    char m[4096], wl[4096], json[4096], lat[4096], csv[4096], tmp[4096], partial[4200];
    out_path(wl, sizeof wl, "cli-long.json");
    write_file(wl, "{\"rw\": \"randwrite\", \"bs\": \"4k\", \"iodepth\": 4, "
                   "\"number_ios\": 1000000000}\n");
    out_path(json, sizeof json, "cli-int.json");
    out_path(lat, sizeof lat, "cli-int-lat.csv");
    out_path(csv, sizeof csv, "cli-int-ts.csv");
    const char *const gone[] = {json, lat, csv};
    for (int i = 0; i < 3; i++) {
        unlink(gone[i]);
        snprintf(partial, sizeof partial, "%s.partial", gone[i]);
        unlink(partial);
    }
    fflush(NULL);
    pid_t pid = fork();
    ck_assert_int_ge(pid, 0);
    if (pid == 0) {
        int devnull = open("/dev/null", O_RDWR);
        dup2(devnull, 0);
        dup2(devnull, 1);
        execl(ssdsim_bin(), ssdsim_bin(), "run", "--model", model_path(m, sizeof m), SMALL_SETS,
              "--workload", wl, "--json", json, "--latency-log", lat, "--timeseries", csv,
              "--interval-ios", "5000", "--quiet", (char *)NULL);
        _exit(127);
    }
    out_path(tmp, sizeof tmp, "");
    snprintf(tmp + strlen(tmp), sizeof tmp - strlen(tmp), ".cli-int-lat.csv.tmp.%ld", (long)pid);
    int ws;
    bool exited = false;
    while (!file_exists(tmp)) {
        pid_t r = waitpid(pid, &ws, WNOHANG);
        ck_assert_int_ge(r, 0);
        if (r == pid) {
            exited = true;
            break;
        }
        sched_yield();
    }
    ck_assert_msg(!exited, "the run ended before it was interrupted (status %d)",
                  WIFEXITED(ws) ? WEXITSTATUS(ws) : -1);
    ck_assert_int_eq(kill(pid, SIGINT), 0);
    while (waitpid(pid, &ws, 0) < 0)
        ck_assert_int_eq(errno, EINTR);
    ck_assert_msg(WIFEXITED(ws) && WEXITSTATUS(ws) == 130, "want exit 130, got %s %d",
                  WIFEXITED(ws) ? "status" : "signal",
                  WIFEXITED(ws) ? WEXITSTATUS(ws) : WTERMSIG(ws));
    ck_assert_msg(!file_exists(tmp), "%s was left behind", tmp);

    cJSON *root = load_json(json);
    const cJSON *flag = cJSON_GetObjectItemCaseSensitive(root, "interrupted");
    ck_assert_msg(cJSON_IsTrue(flag), "\"interrupted\": true missing");
    uint64_t done = (uint64_t)json_num(root, "ops.all.count");
    ck_assert_uint_gt(done, 0);
    ck_assert_uint_lt(done, 1000000000);
    /* the partial latency log has a header and one row per completed request: the JSON's
     * count, derived independently from the observer's rows */
    ck_assert(!file_exists(lat));
    snprintf(partial, sizeof partial, "%s.partial", lat);
    ck_assert_uint_eq(count_lines(partial), done + 1);
    ck_assert(!file_exists(csv));
    snprintf(partial, sizeof partial, "%s.partial", csv);
    ck_assert(file_exists(partial));
    cJSON_Delete(root);
}
END_TEST

/* Whether process `pid` catches signal `sig` (the SigCgt mask of /proc/PID/status): the
 * command has installed its handler. */
static bool catches(pid_t pid, int sig)
{
    char path[64], line[256];
    snprintf(path, sizeof path, "/proc/%ld/status", (long)pid);
    FILE *f = fopen(path, "r");
    if (!f)
        return false;
    bool yes = false;
    while (fgets(line, sizeof line, f))
        if (!strncmp(line, "SigCgt:", 7)) {
            unsigned long long mask = strtoull(line + 7, NULL, 16);
            yes = (mask >> (sig - 1)) & 1;
        }
    fclose(f);
    return yes;
}

/* Whether process `pid` runs a program named ssdsim (not the libtool wrapper's shell). */
static bool is_ssdsim(pid_t pid)
{
    char path[64], exe[4096];
    snprintf(path, sizeof path, "/proc/%ld/exe", (long)pid);
    ssize_t n = readlink(path, exe, sizeof exe - 1);
    if (n <= 0)
        return false;
    exe[n] = 0;
    const char *base = strrchr(exe, '/');
    return base && !strcmp(base + 1, "ssdsim");
}

/* The ssdsim processes whose parent is `parent` (a suite's workers), up to `max`, into pids;
 * how many there are. */
static size_t ssdsim_children(pid_t parent, pid_t *pids, size_t max)
{
    DIR *d = opendir("/proc");
    if (!d)
        return 0;
    size_t n = 0;
    const struct dirent *ent;
    while ((ent = readdir(d))) {
        long p = strtol(ent->d_name, NULL, 10);
        if (p <= 0)
            continue;
        char path[64], line[512];
        snprintf(path, sizeof path, "/proc/%ld/stat", p);
        FILE *f = fopen(path, "r");
        if (!f)
            continue;
        long ppid = 0;
        const char *paren;
        if (fgets(line, sizeof line, f) && (paren = strrchr(line, ')')) &&
            sscanf(paren + 1, " %*c %ld", &ppid) == 1 && ppid == parent && is_ssdsim((pid_t)p) &&
            n < max)
            pids[n++] = (pid_t)p;
        fclose(f);
    }
    closedir(d);
    return n;
}

/* The ssdsim process `pid` started: `pid` itself, or its child when `pid` is a wrapper script
 * that runs the command in a child process; 0 while there is none yet. `pid` is looked at
 * again after its children: the libtool wrapper execs into ssdsim, and when it does so while
 * the children are scanned (the test preempted on a loaded machine), the ssdsim child found is
 * one of the command's own workers, which must not be the one signalled (it died of the signal
 * and the command, never told, reported a failed point: CI's rare "worker killed by signal 2").
 * A process execs only once, from the wrapper into ssdsim, so a `pid` that is still not ssdsim
 * after the scan was the wrapper during it. */
static pid_t find_ssdsim(pid_t pid)
{
    pid_t child = 0;
    if (is_ssdsim(pid))
        return pid;
    if (!ssdsim_children(pid, &child, 1))
        return 0;
    return is_ssdsim(pid) ? pid : child;
}

/* Start ssdsim with `args`, stdout and stderr into tests/out/cli-sig.out and .err, with `sig`
 * ignored (kept across exec, so that the test framework's handler does not catch it in the
 * child: it shows as caught only once ssdsim has installed its own; 0 for none). Returns the
 * pid of the child the test waits for. */
static pid_t spawn_ssdsim(const char *const *args, int sig)
{
    char po[4096], pe[4096];
    out_path(po, sizeof po, "cli-sig.out");
    out_path(pe, sizeof pe, "cli-sig.err");
    const char *argv[64];
    int n = 0;
    argv[n++] = ssdsim_bin();
    while (args[n - 1]) {
        ck_assert_int_lt(n, 63);
        argv[n] = args[n - 1];
        n++;
    }
    argv[n] = NULL;
    fflush(NULL);
    struct sigaction ign = {.sa_handler = SIG_IGN}, old;
    if (sig)
        ck_assert_int_eq(sigaction(sig, &ign, &old), 0);
    pid_t pid = fork();
    if (pid != 0 && sig)
        sigaction(sig, &old, NULL);
    ck_assert_int_ge(pid, 0);
    if (pid == 0) {
        int devnull = open("/dev/null", O_RDONLY);
        int fo = open(po, O_WRONLY | O_CREAT | O_TRUNC, 0644);
        int fe = open(pe, O_WRONLY | O_CREAT | O_TRUNC, 0644);
        if (devnull < 0 || fo < 0 || fe < 0)
            _exit(127);
        dup2(devnull, 0);
        dup2(fo, 1);
        dup2(fe, 2);
        execv(argv[0], (char *const *)argv);
        _exit(127);
    }
    return pid;
}

/* Wait for spawn_ssdsim's child `pid`; its exit status (-1 when a signal ended it), its stdout
 * and stderr (free). */
static int spawned_end(pid_t pid, char **out, char **err)
{
    char po[4096], pe[4096];
    out_path(po, sizeof po, "cli-sig.out");
    out_path(pe, sizeof pe, "cli-sig.err");
    int ws;
    while (waitpid(pid, &ws, 0) < 0)
        ck_assert_int_eq(errno, EINTR);
    *out = read_file(po, NULL);
    *err = read_file(pe, NULL);
    ck_assert(*out && *err);
    return WIFEXITED(ws) ? WEXITSTATUS(ws) : -1;
}

/* Fail the test when spawn_ssdsim's child `pid` has ended already. */
static void assert_still_running(pid_t pid, const char *const *args)
{
    int ws;
    pid_t r = waitpid(pid, &ws, WNOHANG);
    ck_assert_int_ge(r, 0);
    ck_assert_msg(r == 0, "%s %s ended too early (status %d)", args[0], args[1],
                  WIFEXITED(ws) ? WEXITSTATUS(ws) : -1);
}

/* Run ssdsim with `args` (stdout and stderr into files under tests/out), send it `sig` once it
 * catches the signal (no timing: its handler is installed right before the measurement, which
 * runs for seconds; the command catches a signal it inherited as ignored, as run does), and
 * return its exit status (-1 when a signal ended it) with its stdout and stderr (free). */
static int run_interrupted(const char *const *args, int sig, char **out, char **err)
{
    pid_t pid = spawn_ssdsim(args, sig), target;
    while ((target = find_ssdsim(pid)) == 0 || !catches(target, sig)) {
        assert_still_running(pid, args);
        sched_yield();
    }
    ck_assert_int_eq(kill(target, sig), 0);
    return spawned_end(pid, out, err);
}

/* stderr is exactly one line holding `needle` (a model's reserve warning aside). */
static void assert_interrupted_line(const char *err, const char *needle)
{
    const char *e = err;
    if (!strncmp(e, "ssdsim: warning:", 16) && strchr(e, '\n'))
        e = strchr(e, '\n') + 1;
    ck_assert_msg(strncmp(e, "ssdsim: ", 8) == 0 && strstr(e, needle) != NULL &&
                      strchr(e, '\n') == e + strlen(e) - 1,
                  "want one line with '%s', stderr: %s", needle, err);
}

/* SIGINT or SIGTERM stops a suite, a calibration and a validation (with its worker processes):
 * each writes nothing (not even a temporary file), says so in one line and exits 130 or 143. */
START_TEST(test_cli_interrupted_suite_calibrate_validate_write_nothing)
{
    char dir[4096], json[4096], md[4096], m[4096], path[4096];
    out_path(dir, sizeof dir, "cli-sig-suite");
    char rm[4200];
    snprintf(rm, sizeof rm, "rm -rf '%s'", dir);
    ck_assert_int_eq(system(rm), 0);
    char *out, *err;
    int st = run_interrupted((const char *const[]){"suite", "review", "--quick", "--no-plot",
                                                   "--quiet", "--out", dir, NULL},
                             SIGINT, &out, &err);
    ck_assert_msg(st == 130, "suite: want exit 130, got %d; stderr: %s", st, err);
    assert_interrupted_line(err, "suite review: interrupted by SIGINT");
    ck_assert_msg(strstr(err, "nothing written") != NULL, "%s", err);
    ck_assert_msg(!file_exists(dir), "%s was created", dir);
    ck_assert_str_eq(out, "");
    free(out);
    free(err);

    out_path(json, sizeof json, "cli-sig-cal.json");
    unlink(json);
    st = run_interrupted((const char *const[]){"calibrate", "--model",
                                               test_src_path(m, sizeof m,
                                                             "models/samsung-960pro-512.json"),
                                               "--json", json, NULL},
                         SIGTERM, &out, &err);
    ck_assert_msg(st == 143, "calibrate: want exit 143, got %d; stderr: %s", st, err);
    /* how many figures a worker finished before the signal depends on the machine's timing:
     * only that nothing is written is certain */
    assert_interrupted_line(err, "calibrate: interrupted by SIGTERM after ");
    ck_assert_msg(strstr(err, "nothing written") != NULL, "%s", err);
    ck_assert_msg(!file_exists(json), "%s was written", json);
    ck_assert_str_eq(out, ""); /* no table of the figures it had */
    free(out);
    free(err);

    out_path(json, sizeof json, "cli-sig-val.json");
    out_path(md, sizeof md, "cli-sig-val.md");
    unlink(json);
    unlink(md);
    st = run_interrupted((const char *const[]){"validate", "waf", "--section", "uniform",
                                               "--policy", "greedy", "--ppb", "128,256", "--jobs", "2", "--json",
                                               json, "--markdown", md, "--quiet", NULL},
                         SIGINT, &out, &err);
    ck_assert_msg(st == 130, "validate: want exit 130, got %d; stderr: %s", st, err);
    /* The interruption, last; before it at most the library's notes on the points' set-up
     * (a GC reserve raised), never a failure of the points the workers were running. */
    const char *last = err;
    for (const char *q = err; *q && q[1]; q++)
        if (*q == '\n')
            last = q + 1;
    assert_interrupted_line(last, "validate: interrupted by SIGINT after 0 of ");
    ck_assert_msg(!strstr(err, "worker") && !strstr(err, "failed") && !strstr(err, "cancel"),
                  "%s", err);
    ck_assert_msg(!file_exists(json) && !file_exists(md), "an output was written");
    ck_assert_str_eq(out, "");
    free(out);
    free(err);
    /* (validate waits for its workers before it exits.) No temporary file of an output is
     * left: */
    out_path(path, sizeof path, "");
    DIR *d = opendir(path);
    ck_assert_ptr_nonnull(d);
    const struct dirent *ent;
    while ((ent = readdir(d)))
        ck_assert_msg(strncmp(ent->d_name, ".cli-sig-", 9) != 0, "%s left", ent->d_name);
    closedir(d);
}
END_TEST

/* A suite (or calibrate) whose worker dies (the OOM killer's SIGKILL, here the test's) ends at
 * once: its other worker is ended too and no further part starts, with one line naming the part
 * and the signal, exit 1 and no folder. Before, the suite ran every other part to its end
 * (minutes at full size) and only then failed. Shown without timing: the parts' progress lines
 * reach stdout as parts finish, in part order; the worker killed is the one started last, so
 * the part started first (the costliest) would finish and print had the suite gone on. */
START_TEST(test_cli_suite_worker_killed_ends_suite)
{
    char dir[4096];
    out_path(dir, sizeof dir, "cli-killed-suite");
    char rm[4200];
    snprintf(rm, sizeof rm, "rm -rf '%s'", dir);
    ck_assert_int_eq(system(rm), 0);
    const char *const args[] = {"suite", "review", "--quick", "--no-plot", "--jobs", "2",
                                "--out", dir, NULL};
    pid_t pid = spawn_ssdsim(args, 0), target, workers[2];
    while ((target = find_ssdsim(pid)) == 0 || ssdsim_children(target, workers, 2) < 2) {
        assert_still_running(pid, args);
        sched_yield();
    }
    pid_t last = workers[0] > workers[1] ? workers[0] : workers[1];
    ck_assert_int_eq(kill(last, SIGKILL), 0);
    char *out, *err;
    int st = spawned_end(pid, &out, &err);
    ck_assert_msg(st == 1, "want exit 1, got %d; stderr: %s", st, err);
    assert_interrupted_line(err, ": worker killed by signal 9");
    ck_assert_msg(strstr(err, "suite review: part "), "%s", err);
    ck_assert_msg(!strstr(out, "\n  "), "a part went on to its end after the kill: %s", out);
    ck_assert_msg(!file_exists(dir), "%s was created", dir);
    free(out);
    free(err);

    /* calibrate, which prints and writes nothing when a figure fails, the same way (its
     * figures show no progress, so only the contract is checked here) */
    char m[4096], json[4096];
    out_path(json, sizeof json, "cli-killed-cal.json");
    unlink(json);
    const char *const cal[] = {"calibrate", "--model",
                               test_src_path(m, sizeof m, "models/samsung-960pro-512.json"),
                               "--jobs", "2", "--json", json, NULL};
    pid = spawn_ssdsim(cal, 0);
    while ((target = find_ssdsim(pid)) == 0 || ssdsim_children(target, workers, 2) < 2) {
        assert_still_running(pid, cal);
        sched_yield();
    }
    ck_assert_int_eq(kill(workers[0] > workers[1] ? workers[0] : workers[1], SIGKILL), 0);
    st = spawned_end(pid, &out, &err);
    ck_assert_msg(st == 1, "calibrate: want exit 1, got %d; stderr: %s", st, err);
    assert_interrupted_line(err, ": worker killed by signal 9");
    ck_assert_msg(strstr(err, "calibrate: figure "), "%s", err);
    ck_assert_str_eq(out, "");
    ck_assert_msg(!file_exists(json), "%s was written", json);
    free(out);
    free(err);
}
END_TEST

START_TEST(test_cli_progress_lines_when_not_a_terminal)
{
    /* stderr is a pipe: with --progress, plain lines of their own (no \r redrawing), each
     * "progress: running P%, ..."; the summary still goes to stdout. (Without --progress the
     * harness's SSDSIM_PROGRESS=0 keeps stderr empty, see test_cli_run_without_quiet...) */
    struct cmd c;
    RUN(&c, "demo", SMALL_SETS, "--progress");
    ck_assert_msg(c.status == 0, "exit %d: %s", c.status, c.err);
    ck_assert_msg(strstr(c.out, "steady state (SNIA, IOPS): "), "%s", c.out);
    ck_assert_msg(c.n_err > 0, "no progress line on stderr");
    ck_assert_msg(!memchr(c.err, '\r', c.n_err), "a redrawn line on a pipe: %s", c.err);
    ck_assert_int_eq(c.err[c.n_err - 1], '\n');
    for (const char *line = after_reserve_warning(c.err); *line; line = strchr(line, '\n') + 1)
        ck_assert_msg(!strncmp(line, "progress: running ", 18), "stderr: %s", c.err);
    cmd_free(&c);
    /* --quiet prints nothing but errors: not with --progress */
    char wl[4096];
    RUN(&c, "run", SMALL_SETS, "--workload", workload_path(wl, sizeof wl), "--quiet",
        "--progress");
    assert_one_error(&c, 2, "--quiet");
    cmd_free(&c);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("cli");

    TCase *usage = tcase_create("usage");
    tcase_add_test(usage, test_cli_help_prints_usage);
    tcase_add_test(usage, test_cli_run_help_lists_options);
    tcase_add_test(usage, test_cli_version_prints_version);
    tcase_add_test(usage, test_cli_list_prints_every_plugin);
    tcase_add_test(usage, test_cli_unknown_command);
    tcase_add_test(usage, test_cli_run_without_workload);
    tcase_add_test(usage, test_cli_unknown_option);
    tcase_add_test(usage, test_cli_bad_seed);
    tcase_add_test(usage, test_cli_option_without_value);
    tcase_add_test(usage, test_cli_bad_interval);
    tcase_add_test(usage, test_cli_bad_fault_options);
    tcase_add_test(usage, test_cli_trace_foreign_reader_options);
    tcase_add_test(usage, test_cli_fault_not_reached);
    tcase_add_test(usage, test_cli_array_factor_with_cache);
    tcase_add_test(usage, test_cli_set_without_equals);
    tcase_add_test(usage, test_cli_bad_precondition);
    tcase_add_test(usage, test_cli_option_given_twice);
    tcase_add_test(usage, test_cli_library_note);
    suite_add_tcase(s, usage);

    TCase *input = tcase_create("input");
    tcase_add_test(input, test_cli_missing_model_file);
    tcase_add_test(input, test_cli_missing_workload_file);
    tcase_add_test(input, test_cli_malformed_model_names_line);
    tcase_add_test(input, test_cli_malformed_workload_names_line);
    tcase_add_test(input, test_cli_set_unknown_key_suggests);
    tcase_add_test(input, test_cli_set_out_of_range);
    tcase_add_test(input, test_cli_set_impossible_geometry);
    tcase_add_test(input, test_cli_set_op_too_small_for_gc);
    tcase_add_test(input, test_cli_workload_unknown_key);
    tcase_add_test(input, test_cli_workload_garbage_bs);
    tcase_add_test(input, test_cli_workload_beyond_device);
    tcase_add_test(input, test_cli_json_into_missing_directory);
    tcase_add_test(input, test_cli_output_that_is_an_input_is_refused);
    tcase_add_test(input, test_cli_two_outputs_one_file_refused);
    tcase_add_test(input, test_cli_unwritable_output_refused_first);
    tcase_add_test(input, test_cli_failed_stdout_is_an_error);
    suite_add_tcase(s, input);

    /* Each run takes a fraction of a second; the timeout leaves room for sanitizer builds. */
    TCase *runs = tcase_create("runs");
    tcase_set_timeout(runs, 120);
    tcase_add_test(runs, test_cli_run_writes_documented_json);
    tcase_add_test(runs, test_cli_run_without_quiet_prints_summary);
    tcase_add_test(runs, test_cli_run_is_deterministic);
    tcase_add_test(runs, test_cli_model_caveat_printed);
    tcase_add_test(runs, test_cli_seed_changes_results);
    tcase_add_test(runs, test_cli_interval_by_time);
    tcase_add_test(runs, test_cli_precondition_counts_only_workload);
    tcase_add_test(runs, test_cli_demo_on_small_model);
    tcase_add_test(runs, test_cli_set_any_order);
    tcase_add_test(runs, test_cli_report_per_job);
    tcase_add_test(runs, test_cli_report_flat_latency);
    tcase_add_test(runs, test_cli_report_wear_factor);
    tcase_add_test(runs, test_cli_interrupted_run_writes_results_so_far);
    tcase_add_test(runs, test_cli_interrupted_suite_calibrate_validate_write_nothing);
    tcase_add_test(runs, test_cli_suite_worker_killed_ends_suite);
    tcase_add_test(runs, test_cli_progress_lines_when_not_a_terminal);
    suite_add_tcase(s, runs);

    return test_run_suite(s);
}
