/* test_replay.c: `ssdsim run --trace` as a user meets it: the real trace excerpts in
 * ../shared/traces/ replay without error, with the request counts and read/write mix that
 * `ssdsim trace info` finds in them and a per-request latency in the latency log; the samples
 * of every format replay; open and closed loop, time scaling, device selection, wrapping, bad
 * lines and bad options.
 *
 * The excerpts are not part of the project: their checks are skipped, with a message, when the
 * folder is absent (set SSDSIM_SHARED_TRACES to point at it). */
#include <cJSON.h>
#include <inttypes.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmdtest.h"
#include "ssdsim/ssdsim.h"
#include "testutil.h"


static cJSON *load_json(const char *path)
{
    size_t len;
    char *text = read_file(path, &len);
    ck_assert_msg(text != NULL, "cannot read %s", path);
    cJSON *j = cJSON_Parse(text);
    ck_assert_msg(j != NULL, "%s is not JSON", path);
    free(text);
    return j;
}

static uint64_t num(const cJSON *o, const char *a, const char *b, const char *c)
{
    const cJSON *x = cJSON_GetObjectItemCaseSensitive(o, a);
    if (b)
        x = cJSON_GetObjectItemCaseSensitive(x, b);
    if (c)
        x = cJSON_GetObjectItemCaseSensitive(x, c);
    ck_assert_msg(cJSON_IsNumber(x), "no number at %s.%s.%s", a, b ? b : "", c ? c : "");
    return (uint64_t)x->valuedouble;
}

/* Rows of a CSV file after its header, and the sum of column `col` (0-based). */
static uint64_t csv_rows(const char *path, int col, double *sum)
{
    size_t len;
    char *text = read_file(path, &len);
    ck_assert_msg(text != NULL, "cannot read %s", path);
    uint64_t rows = 0;
    *sum = 0;
    char *save = NULL;
    bool header = true;
    for (char *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        if (header) {
            header = false;
            continue;
        }
        rows++;
        const char *p = line;
        for (int k = 0; k < col && p; k++) {
            p = strchr(p, ',');
            if (p)
                p++;
        }
        ck_assert_ptr_nonnull(p);
        *sum += strtod(p, NULL);
    }
    free(text);
    return rows;
}

/* A 16 GiB MLC model shrunk to 2 GiB physical so replays are quick; addresses wrap. */
#define SMALL "--set", "geometry.blocks_per_plane=128"

START_TEST(test_replay_real_excerpts_match_trace_info)
{
    const char *dir = shared_traces_dir();
    if (!dir)
        return;
    static const char *const files[] = {"ssdsim_example_financial1.ascii",
                                        "mqsim_wsrch-small.trace", "mqsim_tpcc-small.trace"};
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
        char trace[1200], info[1024], res[1024], lat[1024];
        snprintf(trace, sizeof trace, "%s/%s", dir, files[i]);
        out_path(info, sizeof info, "replay-info.json");
        out_path(res, sizeof res, "replay-res.json");
        out_path(lat, sizeof lat, "replay-lat.csv");
        struct cmd c;
        RUN(&c, "trace", "info", trace, "--time-unit", "ns", "--json");
        ck_assert_msg(c.status == 0, "trace info %s: %s", files[i], c.err);
        cJSON *ti = cJSON_Parse(c.out);
        ck_assert_ptr_nonnull(ti);
        cmd_free(&c);
        RUN(&c, "run", "--trace", trace, "--time-unit", "ns", "--wrap", SMALL, "--quiet", "--json",
            res, "--latency-log", lat);
        ck_assert_msg(c.status == 0, "replay %s: %s", files[i], c.err);
        cmd_free(&c);
        cJSON *r = load_json(res);
        uint64_t reads = num(ti, "read", "count", NULL), writes = num(ti, "write", "count", NULL);
        ck_assert_uint_eq(num(r, "ops", "read", "count"), reads);
        ck_assert_uint_eq(num(r, "ops", "write", "count"), writes);
        ck_assert_uint_eq(reads + writes, num(ti, "requests", NULL, NULL));
        /* one latency row per request, and their mean is the results' mean */
        double sum;
        uint64_t rows = csv_rows(lat, 7, &sum);
        ck_assert_uint_eq(rows, reads + writes);
        double mean = cJSON_GetObjectItemCaseSensitive(
                          cJSON_GetObjectItemCaseSensitive(
                              cJSON_GetObjectItemCaseSensitive(
                                  cJSON_GetObjectItemCaseSensitive(r, "ops"), "all"),
                              "lat_ns"),
                          "mean")
                          ->valuedouble;
        ck_assert_msg(fabs(sum / (double)rows - mean) <= 1e-5 * mean + 1, "%s: %.1f vs %.1f",
                      files[i], sum / (double)rows, mean);
        cJSON_Delete(r);
        cJSON_Delete(ti);
    }
}
END_TEST

/* A JBOD of 2 small drives: --volume sends a trace to device N; a second --trace goes to the
 * next device; a volume the model does not have is refused with one line naming it. */
START_TEST(test_replay_jbod_volume)
{
    char member[1024], jbod[1024], trace[1024], res[1024];
    out_path(member, sizeof member, "replay-jbod-member.json");
    out_path(jbod, sizeof jbod, "replay-jbod.json");
    out_path(trace, sizeof trace, "replay-jbod.csv");
    out_path(res, sizeof res, "replay-jbod-res.json");
    write_file(member, "{\"name\": \"m\", \"geometry\": {\"channels\": 2, \"chips_per_channel\": 1, "
                       "\"dies_per_chip\": 2, \"planes_per_die\": 1, \"blocks_per_plane\": 64, "
                       "\"pages_per_block\": 64, \"page_size\": \"4KiB\"}, \"flash\": {\"cell\": "
                       "\"slc\", \"read_us\": 20, \"program_us\": 200, \"erase_us\": 1000, "
                       "\"bus_mts\": 100, \"bus_width\": 8}, "
                       "\"ftl\": {\"type\": \"page\", \"op\": 0.28}}");
    write_file(jbod, "{\"name\": \"j\", \"system\": {\"member\": \"replay-jbod-member.json\", "
                     "\"count\": 2, \"layout\": \"jbod\"}}");
    write_file(trace, "time_ns,device,op,offset,length\n0,0,write,0,4096\n1000,0,write,4096,4096\n"
                      "2000,0,write,8192,4096\n");
    struct cmd c;
    RUN(&c, "run", "--model", jbod, "--trace", trace, "--volume", "1", "--quiet", "--json", res);
    ck_assert_msg(c.status == 0, "%s", c.err);
    cmd_free(&c);
    cJSON *r = load_json(res);
    const cJSON *devs = cJSON_GetObjectItemCaseSensitive(r, "devices");
    ck_assert_int_eq(cJSON_GetArraySize(devs), 2);
    ck_assert_uint_eq(num(cJSON_GetArrayItem(devs, 0), "host_pages_written", NULL, NULL), 0);
    ck_assert_uint_eq(num(cJSON_GetArrayItem(devs, 1), "host_pages_written", NULL, NULL), 3);
    cJSON_Delete(r);
    RUN(&c, "run", "--model", jbod, "--trace", trace, "--trace", trace, "--quiet", "--json", res);
    ck_assert_msg(c.status == 0, "%s", c.err);
    cmd_free(&c);
    r = load_json(res);
    devs = cJSON_GetObjectItemCaseSensitive(r, "devices");
    ck_assert_uint_eq(num(cJSON_GetArrayItem(devs, 0), "host_pages_written", NULL, NULL), 3);
    ck_assert_uint_eq(num(cJSON_GetArrayItem(devs, 1), "host_pages_written", NULL, NULL), 3);
    cJSON_Delete(r);
    RUN(&c, "run", "--model", jbod, "--trace", trace, "--volume", "2", "--quiet");
    assert_one_error(&c, 1, "volume: 2 is beyond the model's volumes (2: 0 to 1)");
    cmd_free(&c);
    char wl[1024];
    out_path(wl, sizeof wl, "replay-jbod-wl.json");
    write_file(wl, "{\"rw\": \"read\", \"bs\": \"4k\", \"number_ios\": 1}");
    RUN(&c, "run", "--model", jbod, "--workload", wl, "--volume", "1", "--quiet");
    assert_one_error(&c, 2, "--volume applies to --trace and --source replays");
    cmd_free(&c);
}
END_TEST

START_TEST(test_replay_every_sample_format)
{
    static const char *const files[] = {
        "sample.msr.csv",    "sample.spc",    "sample.blkparse.txt", "sample.disksim",
        "sample.disksim.gz", "sample.iolog2", "sample.iolog3",       "sample.csv"};
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
        char trace[1024], rel[64], res[1024];
        snprintf(rel, sizeof rel, "traces/%s", files[i]);
        test_src_path(trace, sizeof trace, rel);
        out_path(res, sizeof res, "replay-sample.json");
        struct cmd c;
        RUN(&c, "trace", "info", trace, "--json");
        ck_assert_msg(c.status == 0, "%s: %s", files[i], c.err);
        cJSON *ti = cJSON_Parse(c.out);
        cmd_free(&c);
        RUN(&c, "run", "--trace", trace, "--wrap", SMALL, "--quiet", "--json", res);
        ck_assert_msg(c.status == 0, "%s: %s", files[i], c.err);
        cmd_free(&c);
        cJSON *r = load_json(res);
        for (int op = 0; op < 3; op++) {
            static const char *names[] = {"read", "write", "trim"};
            ck_assert_uint_eq(num(r, "ops", names[op], "count"), num(ti, names[op], "count", NULL));
        }
        cJSON_Delete(r);
        cJSON_Delete(ti);
    }
}
END_TEST

START_TEST(test_replay_closed_loop_and_time_scale)
{
    /* Open loop follows the trace's clock: a trace spanning D seconds takes at least D / scale
     * of simulated time; closed loop at depth 1 ignores the clock and takes far less for a
     * sparse trace. */
    char trace[1024], res[1024];
    test_src_path(trace, sizeof trace, "traces/sample.msr.csv");
    out_path(res, sizeof res, "replay-scale.json");
    struct cmd c;
    RUN(&c, "trace", "info", trace, "--json");
    cJSON *ti = cJSON_Parse(c.out);
    cmd_free(&c);
    double dur = num(ti, "duration_ns", NULL, NULL);
    cJSON_Delete(ti);
    /* The requests beyond the device, which wrap: from the file (MSR: offset and size are its
     * fifth and sixth fields) against the device's logical bytes. */
    uint64_t logical = 0, beyond = 0, lines = 0;
    RUN(&c, "run", "--trace", trace, "--wrap", "--replay-qd", "1", SMALL, "--quiet", "--json", res);
    ck_assert_msg(c.status == 0, "%s", c.err);
    cmd_free(&c);
    cJSON *r = load_json(res);
    logical = num(r, "device", "logical_bytes", NULL);
    cJSON_Delete(r);
    FILE *f = fopen(trace, "r");
    ck_assert_ptr_nonnull(f);
    char line[512];
    while (fgets(line, sizeof line, f)) {
        unsigned long long off, size;
        ck_assert_int_eq(sscanf(line, "%*[^,],%*[^,],%*[^,],%*[^,],%llu,%llu", &off, &size), 2);
        beyond += off + size > logical;
        lines++;
    }
    fclose(f);
    ck_assert_uint_gt(beyond, 0);
    double t[3];
    const char *scale[] = {"1", "4"};
    for (int k = 0; k < 2; k++) {
        RUN(&c, "run", "--trace", trace, "--wrap", "--time-scale", scale[k], SMALL, "--json", res);
        ck_assert_msg(c.status == 0, "%s", c.err);
        /* the summary says how it was replayed */
        ck_assert_msg(strstr(c.out, "replay: open loop at the trace's times"), "%s", c.out);
        ck_assert_msg(k == 0 || strstr(c.out, " / 4 (--time-scale)"), "%s", c.out);
        char want[64];
        snprintf(want, sizeof want, "; %llu of %llu requests wrapped (--wrap)",
                 (unsigned long long)beyond, (unsigned long long)lines);
        ck_assert_msg(strstr(c.out, want), "no '%s' in %s", want, c.out);
        cmd_free(&c);
        r = load_json(res);
        t[k] = (double)num(r, "sim_time_ns", NULL, NULL);
        /* and the JSON: the last arrival is the trace's span over the scale */
        const cJSON *rp = cJSON_GetObjectItemCaseSensitive(
            cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(r, "jobs"), 0), "replay");
        ck_assert_str_eq(cJSON_GetStringValue(cJSON_GetObjectItem(rp, "mode")), "open loop");
        ck_assert(cJSON_IsTrue(cJSON_GetObjectItem(rp, "wrap")));
        ck_assert_uint_eq(num(rp, "wrapped_requests", NULL, NULL), beyond);
        double last = (double)num(rp, "last_arrival_ns", NULL, NULL);
        ck_assert_msg(fabs(last - dur / atof(scale[k])) <= 1, "last arrival %.0f, span %.0f / %s",
                      last, dur, scale[k]);
        cJSON_Delete(r);
    }
    RUN(&c, "run", "--trace", trace, "--wrap", "--replay-qd", "1", SMALL, "--json", res);
    ck_assert_msg(c.status == 0, "%s", c.err);
    ck_assert_msg(strstr(c.out, "replay: closed loop, 1 outstanding (the trace's times ignored)"),
                  "%s", c.out);
    cmd_free(&c);
    r = load_json(res);
    t[2] = (double)num(r, "sim_time_ns", NULL, NULL);
    const cJSON *rp = cJSON_GetObjectItemCaseSensitive(
        cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(r, "jobs"), 0), "replay");
    ck_assert_str_eq(cJSON_GetStringValue(cJSON_GetObjectItem(rp, "mode")), "closed loop");
    ck_assert_uint_eq(num(rp, "iodepth", NULL, NULL), 1);
    cJSON_Delete(r);
    ck_assert_msg(t[0] >= dur && t[0] < dur + 5e6, "open loop %.0f ns, trace %.0f ns", t[0], dur);
    ck_assert_msg(t[1] >= dur / 4 && t[1] < dur / 4 + 5e6, "x4: %.0f ns", t[1]);
    ck_assert_msg(t[2] < t[0], "closed loop %.0f ns", t[2]);
}
END_TEST

START_TEST(test_replay_device_selection)
{
    /* --device keeps one device's requests: the counts are that device's in trace info. */
    char trace[1024], res[1024];
    test_src_path(trace, sizeof trace, "traces/sample.spc");
    out_path(res, sizeof res, "replay-dev.json");
    struct cmd c;
    RUN(&c, "trace", "info", trace, "--device", "1", "--json");
    ck_assert_msg(c.status == 0, "%s", c.err);
    cJSON *ti = cJSON_Parse(c.out);
    cmd_free(&c);
    RUN(&c, "run", "--trace", trace, "--device", "1", "--wrap", SMALL, "--quiet", "--json", res);
    ck_assert_msg(c.status == 0, "%s", c.err);
    cmd_free(&c);
    cJSON *r = load_json(res);
    uint64_t n = num(r, "ops", "all", "count");
    ck_assert_uint_eq(n, num(ti, "requests", NULL, NULL));
    ck_assert_uint_gt(n, 0);
    cJSON_Delete(r);
    cJSON_Delete(ti);
}
END_TEST

START_TEST(test_replay_errors)
{
    char trace[1024], bad[1024];
    test_src_path(trace, sizeof trace, "traces/sample.msr.csv");
    struct cmd c;
    /* beyond the shrunk device without --wrap: one line naming the trace line */
    RUN(&c, "run", "--trace", trace, SMALL, "--quiet");
    assert_one_error(&c, 1, "beyond the device");
    ck_assert_ptr_nonnull(strstr(c.err, "sample.msr.csv:")); /* file:line */
    ck_assert_ptr_nonnull(strstr(c.err, "--wrap"));
    cmd_free(&c);
    /* a request longer than the whole device: the file and line, not "request 2" alone */
    out_path(bad, sizeof bad, "replay-long.csv");
    write_file(bad, "0,0,write,0,4096\n0,0,write,0,4294967295\n");
    RUN(&c, "run", "--trace", bad, SMALL, "--quiet");
    assert_one_error(&c, 1, "replay-long.csv:2: length 4294967295 is larger than the device");
    cmd_free(&c);
    /* a DiskSim time past the 64-bit ns clock: the limit in the trace's unit */
    out_path(bad, sizeof bad, "replay-late.disksim");
    write_file(bad, "0 0 8 8 0\n1e15 0 8 8 0\n");
    RUN(&c, "run", "--trace", bad, "--time-unit", "s", SMALL, "--quiet");
    assert_one_error(&c, 1,
                     "replay-late.disksim:2: time: expected a non-negative number in "
                     "decimal digits (no sign or exponent), at most 18446744073 s, got "
                     "'1e15'");
    cmd_free(&c);
    write_file(bad, "0 0 8 8 0\n18446744074 0 8 8 0\n");
    RUN(&c, "run", "--trace", bad, "--time-unit", "s", SMALL, "--quiet");
    assert_one_error(&c, 1,
                     "replay-late.disksim:2: time: 18446744074 is out of range: at most "
                     "18446744073 s (2^64 ns)");
    cmd_free(&c);
    /* a malformed line in the middle: file:line, or skipped and counted */
    out_path(bad, sizeof bad, "replay-bad.csv");
    write_file(bad, "time_ns,device,op,offset,length\n0,0,read,0,4096\n10,0,write,garbage,4096\n"
                    "20,0,write,8192,4096\n");
    RUN(&c, "run", "--trace", bad, SMALL, "--quiet");
    assert_one_error(&c, 1, "replay-bad.csv:3");
    /* the reader's reason for line 3, which the summary of a run that skips it names */
    char why[512];
    const char *at = strstr(c.err, "replay-bad.csv:3: ");
    ck_assert_ptr_nonnull(at);
    snprintf(why, sizeof why, "1 malformed lines skipped (--skip-bad-lines; the first, line 3: %s",
             at + strlen("replay-bad.csv:3: "));
    why[strcspn(why, "\n")] = 0;
    cmd_free(&c);
    RUN(&c, "run", "--trace", bad, SMALL, "--skip-bad-lines");
    ck_assert_msg(c.status == 0, "%s", c.err);
    ck_assert_msg(strstr(c.out, why), "no '%s' in %s", why, c.out);
    cmd_free(&c);
    RUN(&c, "run", "--trace", "/nonexistent/t.csv", "--quiet");
    assert_one_error(&c, 1, "/nonexistent/t.csv");
    cmd_free(&c);
    /* usage */
    RUN(&c, "run", "--trace", trace, "--replay-qd", "0");
    assert_one_error(&c, 2, "--replay-qd");
    cmd_free(&c);
    RUN(&c, "run", "--trace", trace, "--time-scale", "-1");
    assert_one_error(&c, 2, "--time-scale");
    cmd_free(&c);
    RUN(&c, "run", "--trace", trace, "--trace-format", "nope");
    assert_one_error(&c, 2, "--trace-format");
    cmd_free(&c);
    RUN(&c, "run", "--wrap", "--workload", "x.json");
    assert_one_error(&c, 2, "need --trace");
    cmd_free(&c);
    RUN(&c, "run", "--trace", trace, "--replay-qd", "4", "--time-scale", "2");
    assert_one_error(&c, 2, "--time-scale");
    cmd_free(&c);
}
END_TEST

START_TEST(test_replay_clock_limit)
{
    /* An arrival time past the simulated clock's limit (2^62 ns), as the trace has it or as
     * --time-scale makes it, is refused naming the trace line: it used to be capped, which
     * issued every later request at once. --time-scale takes suite apps' range. */
    char big[1024], slow[1024];
    out_path(big, sizeof big, "replay-big.csv");
    write_file(big, "time_ns,device,op,offset,length\n1000,0,write,0,4096\n"
                    "5000000000000000000,0,write,4096,4096\n");
    struct cmd c;
    RUN(&c, "run", "--trace", big, SMALL, "--quiet");
    assert_one_error(&c, 1, "replay-big.csv:3: arrival time");
    ck_assert_ptr_nonnull(strstr(c.err, "2^62 ns"));
    cmd_free(&c);
    out_path(slow, sizeof slow, "replay-slow.csv");
    write_file(slow, "time_ns,device,op,offset,length\n1000,0,write,0,4096\n"
                     "10000000000000,0,write,4096,4096\n");
    RUN(&c, "run", "--trace", slow, SMALL, "--quiet", "--time-scale", "1e-6");
    assert_one_error(&c, 1, "replay-slow.csv:3: arrival time");
    ck_assert_ptr_nonnull(strstr(c.err, "time scale 1e-06"));
    cmd_free(&c);
    RUN(&c, "run", "--trace", slow, SMALL, "--quiet", "--time-scale", "1e-7");
    assert_one_error(&c, 2, "--time-scale expects a factor in [1e-6, 1e6]");
    cmd_free(&c);
    RUN(&c, "run", "--trace", slow, SMALL, "--quiet", "--time-scale", "2e6");
    assert_one_error(&c, 2, "--time-scale");
    cmd_free(&c);
}
END_TEST

START_TEST(test_replay_record_and_replay_back)
{
    /* A synthetic workload recorded as a trace replays to the same request mix. */
    char wl[1024], rec[1024], res[1024];
    out_path(wl, sizeof wl, "replay-wl.json");
    write_file(wl, "{\"rw\": \"randrw\", \"rwmixread\": 60, \"bssplit\": \"4k/50:16k/50\", "
                   "\"iodepth\": 4, \"number_ios\": 3000}\n");
    out_path(rec, sizeof rec, "replay-rec.csv");
    out_path(res, sizeof res, "replay-rec.json");
    struct cmd c;
    RUN(&c, "run", "--workload", wl, SMALL, "--quiet", "--record", rec, "--record-format", "csv",
        "--json", res);
    ck_assert_msg(c.status == 0, "%s", c.err);
    cmd_free(&c);
    cJSON *a = load_json(res);
    RUN(&c, "run", "--trace", rec, SMALL, "--quiet", "--json", res);
    ck_assert_msg(c.status == 0, "%s", c.err);
    cmd_free(&c);
    cJSON *b = load_json(res);
    static const char *names[] = {"read", "write"};
    for (int op = 0; op < 2; op++) {
        ck_assert_uint_eq(num(a, "ops", names[op], "count"), num(b, "ops", names[op], "count"));
        ck_assert_uint_eq(num(a, "ops", names[op], "bytes"), num(b, "ops", names[op], "bytes"));
    }
    cJSON_Delete(a);
    cJSON_Delete(b);
}
END_TEST

/* stderr must be exactly `want` (its lines, each ending in '\n'). */
#define EXPECT_ERR(c, want)                                                                        \
    do {                                                                                           \
        cmd_drop_reserve_warning(&(c));                                                            \
        ck_assert_str_eq((c).err, (want));                                                         \
    } while (0)

static const char *string_at(const cJSON *o, const char *a, const char *b)
{
    const cJSON *x = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(o, a), b);
    ck_assert_msg(cJSON_IsString(x), "no string at %s.%s", a, b);
    return x->valuestring;
}

START_TEST(test_replay_time_unit_note)
{
    /* DiskSim ASCII does not say its unit: one note line names the unit assumed, unless
     * --time-unit is given; the results JSON says it either way. */
    char trace[1024], res[1024], want[2048];
    test_src_path(trace, sizeof trace, "traces/sample.disksim");
    out_path(res, sizeof res, "replay-unit.json");
    struct cmd c;
    /* --device 0,1: both of the sample's devices, merged as asked (no warning of merging) */
    RUN(&c, "run", "--trace", trace, "--device", "0,1", "--wrap", SMALL, "--json", res);
    ck_assert_msg(c.status == 0, "%s", c.err);
    snprintf(want, sizeof want,
             "ssdsim: note: %s: DiskSim ASCII times have no unit; read as ms (DiskSim's); "
             "--time-unit ns|us|ms|s to change (MQSim and SSDSim traces count ns)\n",
             trace);
    EXPECT_ERR(c, want);
    /* The sample's 24 requests (trace info counts them too: test_trace.c). */
    ck_assert_ptr_nonnull(
        strstr(c.out, "\ntrace: 24 requests replayed (disksim, times in ms, assumed), 0 out of "
                      "order\n"));
    cmd_free(&c);
    cJSON *r = load_json(res);
    ck_assert_uint_eq(num(r, "trace", "time_unit_ns", NULL), 1000000);
    ck_assert(cJSON_IsTrue(cJSON_GetObjectItem(cJSON_GetObjectItem(r, "trace"),
                                               "time_unit_assumed")));
    ck_assert_str_eq(string_at(r, "trace", "format"), "disksim");
    ck_assert_uint_eq(num(r, "trace", "requests_read", NULL), 24);
    ck_assert_uint_eq(num(r, "trace", "requests_replayed", NULL), num(r, "ops", "all", "count"));
    cJSON_Delete(r);
    RUN(&c, "run", "--trace", trace, "--time-unit", "ms", "--device", "0,1", "--wrap", SMALL,
        "--json", res);
    ck_assert_msg(c.status == 0, "%s", c.err);
    EXPECT_ERR(c, "");
    ck_assert_ptr_nonnull(strstr(c.out, "\ntrace: 24 requests replayed (disksim, times in ms), "
                                        "0 out of order\n"));
    cmd_free(&c);
    r = load_json(res);
    ck_assert(cJSON_IsFalse(cJSON_GetObjectItem(cJSON_GetObjectItem(r, "trace"),
                                                "time_unit_assumed")));
    cJSON_Delete(r);
    /* A format that says its unit gets no note: SPC counts seconds. */
    test_src_path(trace, sizeof trace, "traces/sample.spc");
    RUN(&c, "run", "--trace", trace, "--device", "0,1,2,3", "--wrap", SMALL, "--json", res);
    ck_assert_msg(c.status == 0, "%s", c.err);
    EXPECT_ERR(c, "");
    cmd_free(&c);
    r = load_json(res);
    ck_assert_uint_eq(num(r, "trace", "time_unit_ns", NULL), 1000000000);
    cJSON_Delete(r);
    /* --quiet: no note. */
    test_src_path(trace, sizeof trace, "traces/sample.disksim");
    RUN(&c, "run", "--trace", trace, "--wrap", SMALL, "--quiet");
    ck_assert_msg(c.status == 0, "%s", c.err);
    EXPECT_ERR(c, "");
    cmd_free(&c);
    /* Several traces at once: the note for each, as for one (`want` is still this trace's) */
    RUN(&c, "run", "--trace", trace, "--trace", trace, "--wrap", SMALL);
    ck_assert_msg(c.status == 0, "%s", c.err);
    ck_assert_msg(strstr(c.err, want) && strstr(strstr(c.err, want) + 1, want), "%s", c.err);
    cmd_free(&c);
    /* A job file's read_iolog of such a trace: one warning, which names the way to another
     * unit (the job file has none) */
    char job[1024];
    out_path(job, sizeof job, "replay-unit.fio");
    FILE *f = fopen(job, "w");
    ck_assert_ptr_nonnull(f);
    fprintf(f, "[j]\nread_iolog=%s\nioengine=libaio\niodepth=4\n", trace);
    fclose(f);
    RUN(&c, "run", "--workload", job, SMALL);
    ck_assert_msg(c.status == 0, "%s", c.err);
    ck_assert_ptr_nonnull(strstr(c.err, "DiskSim ASCII times have no unit; read as ms"));
    ck_assert_ptr_nonnull(strstr(c.err, "--time-unit ns"));
    cmd_free(&c);
}
END_TEST

START_TEST(test_replay_implausible_unit)
{
    /* tests/data/trace-ns.disksim counts ns: 100 s, 100e9 ns, between its first and last
     * request. Read as ms that is 100e9 ms = 1e8 s = 1157.4 days. */
    char trace[1024], want[4096];
    test_src_path(trace, sizeof trace, "tests/data/trace-ns.disksim");
    struct cmd c;
    RUN(&c, "run", "--trace", trace, "--wrap", SMALL);
    ck_assert_msg(c.status == 0, "%s", c.err);
    snprintf(want, sizeof want,
             "ssdsim: note: %s: DiskSim ASCII times have no unit; read as ms (DiskSim's); "
             "--time-unit ns|us|ms|s to change (MQSim and SSDSim traces count ns)\n"
             "ssdsim: warning: %s: with times in ms (assumed), the requests read span "
             "1157.4 days; if the trace counts ns (MQSim, SSDSim), use --time-unit ns\n",
             trace, trace);
    EXPECT_ERR(c, want);
    cmd_free(&c);
    RUN(&c, "run", "--trace", trace, "--time-unit", "ns", "--wrap", SMALL);
    ck_assert_msg(c.status == 0, "%s", c.err);
    EXPECT_ERR(c, "");
    cmd_free(&c);
    /* tests/data/trace-dense.disksim counts seconds (0, 0.4, 0.9, 1.2): read as ns they round
     * to 0, 0, 1 and 1 ns: 4 requests within 1 ns. */
    test_src_path(trace, sizeof trace, "tests/data/trace-dense.disksim");
    RUN(&c, "run", "--trace", trace, "--time-unit", "ns", "--wrap", SMALL);
    ck_assert_msg(c.status == 0, "%s", c.err);
    snprintf(want, sizeof want,
             "ssdsim: warning: %s: with times in ns, 4 requests arrive in 1 ns, less than 1 ns "
             "apart on average; if the trace counts a larger unit, use --time-unit us, ms or s\n",
             trace);
    EXPECT_ERR(c, want);
    cmd_free(&c);
    RUN(&c, "run", "--trace", trace, "--time-unit", "s", "--wrap", SMALL);
    ck_assert_msg(c.status == 0, "%s", c.err);
    EXPECT_ERR(c, "");
    cmd_free(&c);
}
END_TEST

START_TEST(test_replay_device_absent)
{
    /* sample.spc holds ASUs 0 and 1 (trace info --device 9 finds none of its requests). */
    char trace[1024], res[1024], want[4096];
    test_src_path(trace, sizeof trace, "traces/sample.spc");
    out_path(res, sizeof res, "replay-absent.json");
    struct cmd c;
    RUN(&c, "trace", "info", trace, "--json");
    ck_assert_msg(c.status == 0, "%s", c.err);
    cJSON *all = cJSON_Parse(c.out);
    cmd_free(&c);
    RUN(&c, "trace", "info", trace, "--device", "1", "--json");
    ck_assert_msg(c.status == 0, "%s", c.err);
    cJSON *one = cJSON_Parse(c.out);
    cmd_free(&c);
    uint64_t n_all = num(all, "requests", NULL, NULL), n_one = num(one, "requests", NULL, NULL);
    ck_assert_uint_gt(n_one, 0);
    ck_assert_uint_gt(n_all, n_one);
    RUN(&c, "run", "--trace", trace, "--device", "1,9,12", "--wrap", SMALL, "--json", res);
    ck_assert_msg(c.status == 0, "%s", c.err);
    snprintf(want, sizeof want,
             "ssdsim: warning: %s: --device 9 and 12 are not in the trace (no request of them "
             "in the whole file)\n",
             trace);
    EXPECT_ERR(c, want);
    char line[256];
    snprintf(line, sizeof line,
             "\ntrace: %" PRIu64 " requests replayed (spc, times in s), 0 out of order, %" PRIu64
             " of other devices skipped\n",
             n_one, n_all - n_one);
    ck_assert_msg(strstr(c.out, line), "'%s' lacks '%s'", c.out, line);
    cmd_free(&c);
    cJSON *r = load_json(res);
    cJSON *absent = cJSON_GetObjectItem(cJSON_GetObjectItem(r, "trace"), "devices_absent");
    ck_assert_int_eq(cJSON_GetArraySize(absent), 2);
    ck_assert_int_eq(cJSON_GetArrayItem(absent, 0)->valueint, 9);
    ck_assert_int_eq(cJSON_GetArrayItem(absent, 1)->valueint, 12);
    ck_assert_uint_eq(num(r, "trace", "other_devices", NULL), n_all - n_one);
    ck_assert_int_eq(cJSON_GetArraySize(cJSON_GetObjectItem(cJSON_GetObjectItem(r, "trace"),
                                                            "warnings")),
                     1);
    cJSON_Delete(r);
    /* Stopped before the end of the file, the reader cannot say the device is absent. */
    RUN(&c, "run", "--trace", trace, "--device", "1,9", "--max-requests", "1", "--wrap", SMALL);
    ck_assert_msg(c.status == 0, "%s", c.err);
    snprintf(want, sizeof want,
             "ssdsim: warning: %s: --device 9: no request of it in the part of the trace "
             "replayed\n",
             trace);
    EXPECT_ERR(c, want);
    cmd_free(&c);
    /* Only absent devices: nothing to replay, an error (fio fails a read_iolog without I/O). */
    RUN(&c, "run", "--trace", trace, "--device", "9", "--wrap", SMALL);
    snprintf(want, sizeof want,
             "%s: no request to replay: --device 9 is not in the trace (%" PRIu64
             " requests of other devices skipped)",
             trace, n_all);
    assert_one_error(&c, 1, want);
    cmd_free(&c);
    cJSON_Delete(all);
    cJSON_Delete(one);
}
END_TEST

START_TEST(test_replay_nothing_to_replay)
{
    char trace[1024], want[2048];
    struct cmd c;
    /* A blkparse trace with D (issue) events only: none of the Q events read by default. */
    test_src_path(trace, sizeof trace, "tests/data/trace-d-only.blk");
    RUN(&c, "run", "--trace", trace, "--wrap", SMALL);
    snprintf(want, sizeof want,
             "ssdsim: %s: no request to replay: the trace has no read, write or trim request "
             "(blkparse: Q events are read; --blkparse-events issue reads D events)\n",
             trace);
    assert_one_error(&c, 1, NULL);
    EXPECT_ERR(c, want);
    cmd_free(&c);
    RUN(&c, "run", "--trace", trace, "--blkparse-events", "issue", "--wrap", SMALL, "--quiet");
    ck_assert_msg(c.status == 0, "%s", c.err);
    cmd_free(&c);
    /* And one with Q events only, read for its D events. */
    test_src_path(trace, sizeof trace, "tests/data/trace-q-only.blk");
    RUN(&c, "run", "--trace", trace, "--blkparse-events", "issue", "--wrap", SMALL);
    snprintf(want, sizeof want,
             "ssdsim: %s: no request to replay: the trace has no read, write or trim request "
             "(blkparse: D events are read; without --blkparse-events issue, Q events)\n",
             trace);
    assert_one_error(&c, 1, NULL);
    EXPECT_ERR(c, want);
    cmd_free(&c);
    /* A CSV of its header only, and one whose lines are all malformed. */
    out_path(trace, sizeof trace, "replay-empty.csv");
    write_file(trace, "time_ns,device,op,offset,length\n");
    RUN(&c, "run", "--trace", trace, "--trace-format", "csv", SMALL);
    snprintf(want, sizeof want,
             "ssdsim: %s: no request to replay: the trace has no read, write or trim request\n",
             trace);
    assert_one_error(&c, 1, NULL);
    EXPECT_ERR(c, want);
    cmd_free(&c);
    write_file(trace, "time_ns,device,op,offset,length\n0,0,read,x,4096\n1,0,read,0,0\n");
    RUN(&c, "run", "--trace", trace, "--trace-format", "csv", "--skip-bad-lines", SMALL);
    snprintf(want, sizeof want,
             "ssdsim: %s: no request to replay: the trace has no read, write or trim request; 2 "
             "malformed lines skipped (--skip-bad-lines)\n",
             trace);
    assert_one_error(&c, 1, NULL);
    EXPECT_ERR(c, want);
    cmd_free(&c);
}
END_TEST

START_TEST(test_replay_out_of_order)
{
    /* tests/data/trace-ooo.csv: times 0, 5000, 3000, 9000, 1000 ns: lines 4 and 6 are earlier
     * than the line before them. Each is issued with the one before it: at 5000 and 9000 ns. */
    char trace[1024], res[1024], lat[1024], want[2048];
    test_src_path(trace, sizeof trace, "tests/data/trace-ooo.csv");
    out_path(res, sizeof res, "replay-ooo.json");
    out_path(lat, sizeof lat, "replay-ooo-lat.csv");
    struct cmd c;
    RUN(&c, "run", "--trace", trace, SMALL, "--json", res, "--latency-log", lat);
    ck_assert_msg(c.status == 0, "%s", c.err);
    snprintf(want, sizeof want,
             "ssdsim: warning: %s: 2 requests earlier than the request before them (out of "
             "order): replayed in file order, each issued at once after the one before it (not "
             "sorted)\n",
             trace);
    EXPECT_ERR(c, want);
    ck_assert_ptr_nonnull(
        strstr(c.out, "\ntrace: 5 requests replayed (csv, times in ns), 2 out of order\n"));
    cmd_free(&c);
    cJSON *r = load_json(res);
    ck_assert_uint_eq(num(r, "trace", "out_of_order", NULL), 2);
    ck_assert_uint_eq(num(r, "trace", "span_ns", NULL), 9000);
    cJSON_Delete(r);
    /* submit_ns (column 5) of lines 2..6 in the latency log: 0 + 5000 + 5000 + 9000 + 9000. */
    double sum;
    ck_assert_uint_eq(csv_rows(lat, 5, &sum), 5);
    ck_assert_double_eq(sum, 28000);
    /* Closed loop: times do not matter, no warning; the count is still in the JSON. */
    RUN(&c, "run", "--trace", trace, SMALL, "--replay-qd", "2", "--json", res);
    ck_assert_msg(c.status == 0, "%s", c.err);
    EXPECT_ERR(c, "");
    cmd_free(&c);
    r = load_json(res);
    ck_assert_uint_eq(num(r, "trace", "out_of_order", NULL), 2);
    cJSON_Delete(r);
}
END_TEST

START_TEST(test_replay_merged_devices)
{
    /* traces/sample.disksim holds devices 0 (14 requests, the first line's) and 1 (10: its
     * README's table). Replayed without --device, they share one address space: one warning
     * says so and counts the requests of device 1; --device 0 replays one device, and
     * --device 0,1 asks for the merge, so neither warns. */
    char trace[1024], res[1024], want[2048];
    test_src_path(trace, sizeof trace, "traces/sample.disksim");
    out_path(res, sizeof res, "replay-merged.json");
    struct cmd c;
    RUN(&c, "run", "--trace", trace, "--time-unit", "ms", "--wrap", SMALL, "--json", res);
    ck_assert_msg(c.status == 0, "%s", c.err);
    snprintf(want, sizeof want,
             "ssdsim: warning: %s: requests of several devices merged into one address space "
             "(10 of 24 are not of device 0, the first request's); --device N replays one "
             "device's (ssdsim trace info lists them)\n",
             trace);
    EXPECT_ERR(c, want);
    cmd_free(&c);
    cJSON *r = load_json(res);
    ck_assert_uint_eq(num(r, "trace", "merged_requests", NULL), 10);
    cJSON_Delete(r);
    RUN(&c, "run", "--trace", trace, "--time-unit", "ms", "--device", "0", "--wrap", SMALL,
        "--json", res);
    ck_assert_msg(c.status == 0, "%s", c.err);
    EXPECT_ERR(c, "");
    cmd_free(&c);
    r = load_json(res);
    ck_assert_uint_eq(num(r, "trace", "merged_requests", NULL), 0);
    ck_assert_uint_eq(num(r, "ops", "all", "count"), 14);
    cJSON_Delete(r);
}
END_TEST

START_TEST(test_replay_gzip_trailing_garbage)
{
    /* tests/data/trace-garbage.disksim.gz: traces/sample.disksim.gz and 9 bytes "JUNKJUNK\n"
     * after it. A warning, and the same 24 requests as the plain sample. */
    char trace[1024], res[1024], want[2048];
    test_src_path(trace, sizeof trace, "tests/data/trace-garbage.disksim.gz");
    out_path(res, sizeof res, "replay-gz.json");
    struct cmd c;
    RUN(&c, "run", "--trace", trace, "--time-unit", "ms", "--device", "0,1", "--wrap", SMALL,
        "--json", res);
    ck_assert_msg(c.status == 0, "%s", c.err);
    snprintf(want, sizeof want,
             "ssdsim: warning: %s: 9 bytes after the end of the gzip stream ignored (trailing "
             "garbage)\n",
             trace);
    EXPECT_ERR(c, want);
    cmd_free(&c);
    cJSON *r = load_json(res);
    ck_assert_uint_eq(num(r, "trace", "gzip_trailing_bytes", NULL), 9);
    ck_assert_uint_eq(num(r, "ops", "all", "count"), 24);
    cJSON_Delete(r);
    RUN(&c, "trace", "info", trace, "--time-unit", "ms");
    ck_assert_msg(c.status == 0, "%s", c.err);
    EXPECT_ERR(c, want);
    ck_assert_ptr_nonnull(strstr(c.out, "\nrequests       24\n"));
    cmd_free(&c);
}
END_TEST

static Suite *replay_suite(void)
{
    Suite *s = suite_create("replay");
    TCase *tc = tcase_create("replay");
    tcase_set_timeout(tc, 600);
    tcase_add_test(tc, test_replay_real_excerpts_match_trace_info);
    tcase_add_test(tc, test_replay_every_sample_format);
    tcase_add_test(tc, test_replay_closed_loop_and_time_scale);
    tcase_add_test(tc, test_replay_device_selection);
    tcase_add_test(tc, test_replay_errors);
    tcase_add_test(tc, test_replay_jbod_volume);
    tcase_add_test(tc, test_replay_clock_limit);
    tcase_add_test(tc, test_replay_record_and_replay_back);
    tcase_add_test(tc, test_replay_time_unit_note);
    tcase_add_test(tc, test_replay_implausible_unit);
    tcase_add_test(tc, test_replay_device_absent);
    tcase_add_test(tc, test_replay_nothing_to_replay);
    tcase_add_test(tc, test_replay_out_of_order);
    tcase_add_test(tc, test_replay_gzip_trailing_garbage);
    tcase_add_test(tc, test_replay_merged_devices);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return test_run_suite(replay_suite());
}
