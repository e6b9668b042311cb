/* test_trace.c: block I/O traces (libssdsim/trace/, <ssdsim/trace.h>) and `ssdsim trace`.
 *
 * Every sample in traces/ is read and its first requests are checked field by field against
 * values worked out by hand from the sample's text (the arithmetic is in the comments); the
 * format probe is checked on every sample and on the real excerpts in ../shared/traces/ (skipped
 * with a message when that folder is absent), whose request counts and read/write mix were
 * counted independently with awk and whose footprint was computed with a Python set of sectors.
 * Bogus input of every format must fail with SSDSIM_EPARSE and "file:line: field: what was
 * expected", or be counted with skip_bad_lines. Traces are written in every writable format and
 * read back. The command runs as a user meets it: one error line on stderr, exit 1 for bad
 * input, 2 for a bad command line.
 *
 * Files written go under BUILDDIR/tests/out/ (make distcheck has a read-only source tree).
 */
#include <cJSON.h>
#include <stdbool.h>
#include <string.h>
#include <unistd.h>

#include "cmdtest.h"
#include "ssdsim/ssdsim.h"
#include "ssdsim/trace.h"
#include "testutil.h"

#define KiB 1024ULL
#define MiB (1024ULL * KiB)
#define MAX_REQS 64

/* ------------------------------------------------------------------------------------------ */
/* Helpers                                                                                     */

static const char *sample(char *buf, size_t len, const char *name)
{
    snprintf(buf, len, "%s/traces/%s", SRCDIR, name);
    return buf;
}


static ssdsim_trace *open_ok(const char *path, const ssdsim_trace_opts *opts)
{
    ssdsim_trace *t = (ssdsim_trace *)1;
    ssdsim_error err;
    memset(&err, 0, sizeof err);
    int rc = ssdsim_trace_open(&t, path, opts, &err);
    ck_assert_msg(rc == 0, "open %s: %s", path, err.message);
    ck_assert_ptr_nonnull(t);
    return t;
}

static void next_ok(ssdsim_trace *t, ssdsim_trace_req *r)
{
    ssdsim_error err;
    memset(&err, 0, sizeof err);
    int rc = ssdsim_trace_next(t, r, &err);
    ck_assert_msg(rc == 1, "next: %d %s", rc, err.message);
}

#define EXPECT_REQ(r, t_ns, op_, off, len, dev, line_)                                             \
    do {                                                                                           \
        ck_assert_uint_eq((r).time_ns, (t_ns));                                                    \
        ck_assert_int_eq((r).op, (op_));                                                           \
        ck_assert_uint_eq((r).offset, (off));                                                      \
        ck_assert_uint_eq((r).length, (len));                                                      \
        ck_assert_uint_eq((r).device, (dev));                                                      \
        ck_assert_uint_eq((r).line, (line_));                                                      \
    } while (0)

/* Read a whole trace into `reqs` (at most MAX_REQS kept); returns the number of requests. */
static size_t read_all(const char *path, const ssdsim_trace_opts *opts, ssdsim_trace_req *reqs)
{
    ssdsim_trace *t = open_ok(path, opts);
    ssdsim_trace_req r;
    ssdsim_error err;
    size_t n = 0;
    int rc;
    while ((rc = ssdsim_trace_next(t, &r, &err)) == 1) {
        if (reqs && n < MAX_REQS)
            reqs[n] = r;
        n++;
    }
    ck_assert_msg(rc == 0, "%s: %s", path, err.message);
    ck_assert_int_eq(ssdsim_trace_next(t, &r, &err), 0); /* the end stays the end */
    ssdsim_trace_close(t);
    return n;
}

static const char *scratch(char *buf, size_t len, const char *name, const char *text)
{
    out_path(buf, len, name);
    write_file(buf, text);
    return buf;
}

/* Opening or reading `text` as `format` must fail with `code` and a message containing
 * `needle`; returns nothing, checks everything. */
static void expect_bad(const char *name, const char *text, ssdsim_trace_format format, int code,
                       const char *needle)
{
    char path[512];
    scratch(path, sizeof path, name, text);
    ssdsim_trace_opts opts = {0};
    opts.format = format;
    ssdsim_error err;
    memset(&err, 0, sizeof err);
    ssdsim_trace *t = NULL;
    int rc = ssdsim_trace_open(&t, path, &opts, &err);
    if (rc == 0) {
        ssdsim_trace_req r;
        while ((rc = ssdsim_trace_next(t, &r, &err)) == 1)
            ;
        ssdsim_trace_close(t);
    } else {
        ck_assert_ptr_null(t);
    }
    ck_assert_msg(rc == code, "%s: got %d (%s), want %d", name, rc, err.message, code);
    ck_assert_int_eq(err.code, code);
    ck_assert_msg(strstr(err.message, needle), "%s: '%s' lacks '%s'", name, err.message, needle);
    ck_assert_msg(strstr(err.message, path) == err.message,
                  "%s: message does not start with the "
                  "file: %s",
                  name, err.message);
}

/* ------------------------------------------------------------------------------------------ */
/* Format names                                                                                */

START_TEST(test_trace_format_names)
{
    const char *names[] = {"auto",    "msr",        "spc",        "blkparse",
                           "disksim", "fio-iolog2", "fio-iolog3", "csv"};
    ck_assert_int_eq(SSDSIM_TRACE_N_FORMATS, 8);
    for (int i = 0; i < SSDSIM_TRACE_N_FORMATS; i++) {
        ssdsim_trace_format f = SSDSIM_TRACE_CSV;
        ck_assert_str_eq(ssdsim_trace_format_name((ssdsim_trace_format)i), names[i]);
        ck_assert_int_eq(ssdsim_trace_format_parse(names[i], &f), 0);
        ck_assert_int_eq(f, i);
    }
    struct {
        const char *alias;
        ssdsim_trace_format f;
    } aliases[] = {{"iolog2", SSDSIM_TRACE_FIO_IOLOG2},
                   {"iolog3", SSDSIM_TRACE_FIO_IOLOG3},
                   {"umass", SSDSIM_TRACE_SPC},
                   {"msr-cambridge", SSDSIM_TRACE_MSR},
                   {"ascii", SSDSIM_TRACE_DISKSIM}};
    for (size_t i = 0; i < sizeof aliases / sizeof aliases[0]; i++) {
        ssdsim_trace_format f = SSDSIM_TRACE_AUTO;
        ck_assert_int_eq(ssdsim_trace_format_parse(aliases[i].alias, &f), 0);
        ck_assert_int_eq(f, aliases[i].f);
    }
    ssdsim_trace_format f = SSDSIM_TRACE_SPC;
    ck_assert_int_eq(ssdsim_trace_format_parse("bogus", &f), SSDSIM_EINVAL);
    ck_assert_int_eq(ssdsim_trace_format_parse("CSV", &f), SSDSIM_EINVAL);
    ck_assert_int_eq(ssdsim_trace_format_parse(NULL, &f), SSDSIM_EINVAL);
    ck_assert_int_eq(ssdsim_trace_format_parse("csv", NULL), SSDSIM_EINVAL);
    ck_assert_int_eq(f, SSDSIM_TRACE_SPC);
    ck_assert_str_eq(ssdsim_trace_format_name((ssdsim_trace_format)8), "?");
    ck_assert_str_eq(ssdsim_trace_format_name((ssdsim_trace_format)-1), "?");
}
END_TEST

/* ------------------------------------------------------------------------------------------ */
/* Each sample, by hand                                                                        */

START_TEST(test_trace_sample_msr)
{
    char p[512];
    ssdsim_trace_req r[MAX_REQS];
    ck_assert_uint_eq(read_all(sample(p, sizeof p, "sample.msr.csv"), NULL, r), 24);
    /* Filetime ticks of 100 ns after the first line's 128166372003061629. */
    EXPECT_REQ(r[0], 0, SSDSIM_OP_WRITE, 3154325504ULL, 4096, 0, 1);
    EXPECT_REQ(r[1], 91234ULL * 100, SSDSIM_OP_READ, 1024294912ULL, 16384, 0, 2);
    EXPECT_REQ(r[2], 153901ULL * 100, SSDSIM_OP_WRITE, 7650234368ULL, 65536, 1, 3);
    EXPECT_REQ(r[3], 154012ULL * 100, SSDSIM_OP_READ, 1024311296ULL, 16384, 0, 4);
}
END_TEST

START_TEST(test_trace_sample_spc)
{
    char p[512];
    ssdsim_trace_req r[MAX_REQS];
    ck_assert_uint_eq(read_all(sample(p, sizeof p, "sample.spc"), NULL, r), 25);
    /* LBA x 512; seconds to ns; opcodes w, w, w, R, r. */
    EXPECT_REQ(r[0], 0, SSDSIM_OP_WRITE, 303567ULL * 512, 3584, 0, 1);
    EXPECT_REQ(r[1], 0, SSDSIM_OP_WRITE, 55590ULL * 512, 3072, 1, 2);
    EXPECT_REQ(r[2], 26214000ULL, SSDSIM_OP_WRITE, 303574ULL * 512, 3584, 0, 3);
    EXPECT_REQ(r[3], 26214000ULL, SSDSIM_OP_READ, 240840ULL * 512, 3072, 1, 4);
    EXPECT_REQ(r[4], 78643000ULL, SSDSIM_OP_READ, 1168ULL * 512, 512, 2, 5);
}
END_TEST

START_TEST(test_trace_sample_blkparse_queue)
{
    char p[512];
    ssdsim_trace_req r[MAX_REQS];
    /* Q events with "+ n": lines 1, 9, 12, 14, 20, 24, 28, 30 (the "Q FWS" flush of line 17,
     * the other actions and the summary are skipped). Device 8,0 = 2048, 8,16 = 2064. */
    ck_assert_uint_eq(read_all(sample(p, sizeof p, "sample.blkparse.txt"), NULL, r), 8);
    EXPECT_REQ(r[0], 0, SSDSIM_OP_WRITE, 223490ULL * 512, 8 * 512, 2048, 1);
    EXPECT_REQ(r[1], 1203117, SSDSIM_OP_READ, 1052672ULL * 512, 32 * 512, 2048, 9);
    EXPECT_REQ(r[2], 1502311, SSDSIM_OP_WRITE, 5244928ULL * 512, 256 * 512, 2048, 12);
    EXPECT_REQ(r[3], 1510844, SSDSIM_OP_WRITE, 5245184ULL * 512, 8 * 512, 2048, 14);
    EXPECT_REQ(r[4], 2400000, SSDSIM_OP_TRIM, 2048000ULL * 512, 2048 * 512, 2048, 20);
    EXPECT_REQ(r[5], 3011500, SSDSIM_OP_READ, 40968ULL * 512, 8 * 512, 2064, 24);
    EXPECT_REQ(r[6], 4500000, SSDSIM_OP_READ, 77824ULL * 512, 512, 2048, 28);
    EXPECT_REQ(r[7], 5120333, SSDSIM_OP_WRITE, 1000000ULL * 512, 64 * 512, 2064, 30);
}
END_TEST

/* Flushes without data, read with flushes on: blkparse prints a journal's empty preflush as
 * "Q FWS [jbd2/sda1-8]" (no sectors), a flush at its own time; a v3 fio iolog's sync keeps its
 * line's timestamp (microseconds after the first); a preflush write ("FWS 4000 + 8") is its
 * flush then its write, both at the line's time, whatever the caller's request held before. */
START_TEST(test_trace_flushes_keep_their_times)
{
    char p[512];
    ssdsim_trace_opts o = SSDSIM_TRACE_OPTS_INIT;
    o.flushes = true;
    ssdsim_trace_req r[MAX_REQS];
    o.format = SSDSIM_TRACE_BLKPARSE;
    ck_assert_uint_eq(read_all(scratch(p, sizeof p, "fl.blk",
                                       "  8,0    0        1     0.000000000   100  Q  WS 3000 + 8 "
                                       "[dd]\n"
                                       "  8,0    1        2     0.001000000   321  Q FWS "
                                       "[jbd2/sda1-8]\n"
                                       "  8,0    0        3     0.003000000   100  Q  WS 3008 + 8 "
                                       "[dd]\n"),
                               &o, r),
                      3);
    EXPECT_REQ(r[1], 1000000, SSDSIM_OP_FLUSH, 0, 0, 2048, 2);
    o.format = SSDSIM_TRACE_FIO_IOLOG3;
    ck_assert_uint_eq(read_all(scratch(p, sizeof p, "fl.log",
                                       "fio version 3 iolog\n0 /dev/sda add\n0 /dev/sda open\n"
                                       "100 /dev/sda write 0 4096\n"
                                       "1000100 /dev/sda sync 0 0\n"
                                       "2000100 /dev/sda write 4096 4096\n"
                                       "2000200 /dev/sda close\n"),
                               &o, r),
                      3);
    EXPECT_REQ(r[1], 1000000000, SSDSIM_OP_FLUSH, 0, 0, 0, 5);
    /* the preflush write, read into a request that held something else */
    o.format = SSDSIM_TRACE_BLKPARSE;
    ssdsim_trace *t = open_ok(scratch(p, sizeof p, "pf.blk",
                                      "  8,0    0        1     0.000000000   100  Q  WS 3000 + 8 "
                                      "[dd]\n"
                                      "  8,0    0        2     0.500000000   100  Q FWS 4000 + 8 "
                                      "[dd]\n"),
                              &o);
    ssdsim_trace_req q;
    next_ok(t, &q);
    next_ok(t, &q);
    EXPECT_REQ(q, 500000000, SSDSIM_OP_FLUSH, 0, 0, 2048, 2);
    memset(&q, 0, sizeof q);
    next_ok(t, &q);
    EXPECT_REQ(q, 500000000, SSDSIM_OP_WRITE, 4000ULL * 512, 8 * 512, 2048, 2);
    ssdsim_trace_close(t);
}
END_TEST

START_TEST(test_trace_sample_blkparse_issue)
{
    char p[512];
    ssdsim_trace_req r[MAX_REQS];
    ssdsim_trace_opts o = {0};
    o.blkparse_issue = 1;
    /* D events: lines 7, 11, 16, 22, 26, 29, 31; times after the first one's 0.000007520. */
    ck_assert_uint_eq(read_all(sample(p, sizeof p, "sample.blkparse.txt"), &o, r), 7);
    EXPECT_REQ(r[0], 0, SSDSIM_OP_WRITE, 223490ULL * 512, 4096, 2048, 7);
    EXPECT_REQ(r[1], 1205770 - 7520, SSDSIM_OP_READ, 1052672ULL * 512, 16384, 2048, 11);
    EXPECT_REQ(r[2], 1530117 - 7520, SSDSIM_OP_WRITE, 5244928ULL * 512, 264 * 512, 2048, 16);
    EXPECT_REQ(r[3], 2402882 - 7520, SSDSIM_OP_TRIM, 2048000ULL * 512, 2048 * 512, 2048, 22);
    EXPECT_REQ(r[6], 5123007 - 7520, SSDSIM_OP_WRITE, 1000000ULL * 512, 64 * 512, 2064, 31);
}
END_TEST

START_TEST(test_trace_sample_disksim)
{
    char p[512];
    ssdsim_trace_req r[MAX_REQS];
    /* Default unit ms; flags 1 = read. */
    ck_assert_uint_eq(read_all(sample(p, sizeof p, "sample.disksim"), NULL, r), 24);
    EXPECT_REQ(r[0], 0, SSDSIM_OP_READ, 1052672ULL * 512, 4096, 0, 1);
    EXPECT_REQ(r[1], 1250000, SSDSIM_OP_WRITE, 2097152ULL * 512, 8192, 0, 2);
    EXPECT_REQ(r[2], 1250500, SSDSIM_OP_WRITE, 409600ULL * 512, 65536, 1, 3);
    EXPECT_REQ(r[3], 3007812, SSDSIM_OP_READ, 1052680ULL * 512, 4096, 0, 4);

    /* Other unit, other read rule: flags 0 = read, time in us. */
    ssdsim_trace_opts o = {0};
    o.disksim_time_unit_ns = 1000;
    o.disksim_read_is_zero = 1;
    ck_assert_uint_eq(read_all(p, &o, r), 24);
    EXPECT_REQ(r[0], 0, SSDSIM_OP_WRITE, 1052672ULL * 512, 4096, 0, 1);
    EXPECT_REQ(r[1], 1250, SSDSIM_OP_READ, 2097152ULL * 512, 8192, 0, 2);
    EXPECT_REQ(r[2], 1251, SSDSIM_OP_READ, 409600ULL * 512, 65536, 1, 3); /* 1.2505 us */
    EXPECT_REQ(r[3], 3008, SSDSIM_OP_WRITE, 1052680ULL * 512, 4096, 0, 4);
}
END_TEST

START_TEST(test_trace_sample_iolog2)
{
    char p[512];
    ssdsim_trace_req r[MAX_REQS];
    /* Files: nvme0n1 = 0, nvme1n1 = 1 (order of add). A wait holds the later requests until
     * that many ms after the start; "wait 2" after "wait 5" changes nothing. */
    ck_assert_uint_eq(read_all(sample(p, sizeof p, "sample.iolog2"), NULL, r), 12);
    EXPECT_REQ(r[0], 0, SSDSIM_OP_WRITE, 0, 131072, 0, 6);
    EXPECT_REQ(r[1], 0, SSDSIM_OP_WRITE, 131072, 131072, 0, 7);
    EXPECT_REQ(r[2], 0, SSDSIM_OP_READ, 1048576, 4096, 1, 8);
    EXPECT_REQ(r[3], 5000000, SSDSIM_OP_READ, 8192, 4096, 0, 10);
    EXPECT_REQ(r[4], 5000000, SSDSIM_OP_TRIM, 1048576, 1048576, 0, 12);
    EXPECT_REQ(r[5], 5000000, SSDSIM_OP_WRITE, 262144, 65536, 0, 14);
    EXPECT_REQ(r[6], 12000000, SSDSIM_OP_WRITE, 2097152, 8192, 1, 16);
    EXPECT_REQ(r[8], 40000000, SSDSIM_OP_READ, 327680, 16384, 0, 20);
    EXPECT_REQ(r[11], 40000000, SSDSIM_OP_TRIM, 0, 2097152, 1, 23);
}
END_TEST

START_TEST(test_trace_sample_iolog3)
{
    char p[512];
    ssdsim_trace_req r[MAX_REQS];
    /* Timestamps in us after the first request's 115; the sync of line 11 is no request. */
    ck_assert_uint_eq(read_all(sample(p, sizeof p, "sample.iolog3"), NULL, r), 16);
    EXPECT_REQ(r[0], 0, SSDSIM_OP_READ, 0, 4096, 0, 4);
    EXPECT_REQ(r[1], (10122 - 115) * 1000ULL, SSDSIM_OP_READ, 4096, 4096, 0, 5);
    EXPECT_REQ(r[2], (20135 - 115) * 1000ULL, SSDSIM_OP_WRITE, 1048576, 65536, 0, 6);
    EXPECT_REQ(r[3], (20140 - 115) * 1000ULL, SSDSIM_OP_WRITE, 1114112, 65536, 0, 7);
    EXPECT_REQ(r[4], (25001 - 115) * 1000ULL, SSDSIM_OP_TRIM, 8388608, 131072, 0, 8);
    EXPECT_REQ(r[7], (50140 - 115) * 1000ULL, SSDSIM_OP_WRITE, 1179648, 65536, 0, 12);
}
END_TEST

START_TEST(test_trace_sample_csv)
{
    char p[512];
    ssdsim_trace_req r[MAX_REQS];
    ck_assert_uint_eq(read_all(sample(p, sizeof p, "sample.csv"), NULL, r), 20);
    EXPECT_REQ(r[0], 0, SSDSIM_OP_WRITE, 0, 131072, 0, 2);
    EXPECT_REQ(r[1], 15000, SSDSIM_OP_WRITE, 131072, 131072, 0, 3);
    EXPECT_REQ(r[2], 15000, SSDSIM_OP_READ, 4096, 4096, 1, 4);
    EXPECT_REQ(r[3], 2500000, SSDSIM_OP_TRIM, 0, 1048576, 0, 5);
}
END_TEST

/* The MSR and SPC readers accept a header line, CRLF ends, blanks around fields, comments. */
START_TEST(test_trace_headers_crlf_comments)
{
    char p[512];
    ssdsim_trace_req r[MAX_REQS];
    scratch(p, sizeof p, "hdr.msr.csv",
            "Timestamp,Hostname,DiskNumber,Type,Offset,Size,ResponseTime\r\n"
            "# a comment\r\n"
            "\r\n"
            "128166372003061629,hm,3,WRITE, 4096 ,512,1\r\n"
            "128166372003061729,hm,3,read,0,1024,1"); /* no final newline */
    ssdsim_trace_format f;
    ck_assert_int_eq(ssdsim_trace_probe(p, &f, NULL), 0);
    ck_assert_int_eq(f, SSDSIM_TRACE_MSR);
    ck_assert_uint_eq(read_all(p, NULL, r), 2);
    EXPECT_REQ(r[0], 0, SSDSIM_OP_WRITE, 4096, 512, 3, 4);
    EXPECT_REQ(r[1], 10000, SSDSIM_OP_READ, 0, 1024, 3, 5);

    scratch(p, sizeof p, "hdr.spc",
            "ASU,LBA,Size,Opcode,Timestamp,Extra\n"
            "5,8,4096,W,1.5,x,y\n"
            "5,16,4096,r,2.000000001\n");
    ck_assert_int_eq(ssdsim_trace_probe(p, &f, NULL), 0);
    ck_assert_int_eq(f, SSDSIM_TRACE_SPC);
    ck_assert_uint_eq(read_all(p, NULL, r), 2);
    EXPECT_REQ(r[0], 0, SSDSIM_OP_WRITE, 4096, 4096, 5, 2);
    EXPECT_REQ(r[1], 500000001ULL, SSDSIM_OP_READ, 8192, 4096, 5, 3);

    /* A header nobody knows is skipped by the probe, which then looks at the next line. */
    scratch(p, sizeof p, "hdr.other", "ts,dev,lba,n,flags\n0 0 8 8 1\n");
    ck_assert_int_eq(ssdsim_trace_probe(p, &f, NULL), SSDSIM_EPARSE);
    scratch(p, sizeof p, "hdr.other2", "when,asu,lba,size,op\n1,2,3,w,0.5\n");
    ck_assert_int_eq(ssdsim_trace_probe(p, &f, NULL), 0);
    ck_assert_int_eq(f, SSDSIM_TRACE_SPC);
}
END_TEST

/* ------------------------------------------------------------------------------------------ */
/* Probe                                                                                       */

START_TEST(test_trace_probe_samples)
{
    struct {
        const char *name;
        ssdsim_trace_format f;
    } cases[] = {
        {"sample.msr.csv", SSDSIM_TRACE_MSR},           {"sample.spc", SSDSIM_TRACE_SPC},
        {"sample.blkparse.txt", SSDSIM_TRACE_BLKPARSE}, {"sample.disksim", SSDSIM_TRACE_DISKSIM},
        {"sample.disksim.gz", SSDSIM_TRACE_DISKSIM},    {"sample.iolog2", SSDSIM_TRACE_FIO_IOLOG2},
        {"sample.iolog3", SSDSIM_TRACE_FIO_IOLOG3},     {"sample.csv", SSDSIM_TRACE_CSV},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char p[512];
        ssdsim_trace_format f = SSDSIM_TRACE_AUTO;
        ssdsim_error err;
        int rc = ssdsim_trace_probe(sample(p, sizeof p, cases[i].name), &f, &err);
        ck_assert_msg(rc == 0, "%s: %s", cases[i].name, err.message);
        ck_assert_msg(f == cases[i].f, "%s probed as %s", cases[i].name,
                      ssdsim_trace_format_name(f));
        ssdsim_trace *t = open_ok(p, NULL);
        ck_assert_int_eq(ssdsim_trace_get_format(t), cases[i].f);
        ssdsim_trace_close(t);
    }
}
END_TEST

START_TEST(test_trace_probe_unknown)
{
    char p[512];
    ssdsim_error err;
    ssdsim_trace_format f = SSDSIM_TRACE_CSV;
    scratch(p, sizeof p, "garbage.txt", "\n  hello world, this is no trace\n1 2 3\n");
    ck_assert_int_eq(ssdsim_trace_probe(p, &f, &err), SSDSIM_EPARSE);
    ck_assert_int_eq(f, SSDSIM_TRACE_CSV);
    ck_assert_ptr_nonnull(strstr(err.message, "garbage.txt:2: "));
    ck_assert_ptr_nonnull(strstr(err.message, "'  hello world, this is no trace'"));
    ssdsim_trace *t = (ssdsim_trace *)1;
    ck_assert_int_eq(ssdsim_trace_open(&t, p, NULL, &err), SSDSIM_EPARSE);
    ck_assert_ptr_null(t);

    scratch(p, sizeof p, "empty.txt", "");
    ck_assert_int_eq(ssdsim_trace_probe(p, &f, &err), SSDSIM_EPARSE);
    ck_assert_ptr_nonnull(strstr(err.message, "empty"));
    /* An empty file of a given format is an empty trace. */
    ssdsim_trace_opts o = {0};
    o.format = SSDSIM_TRACE_DISKSIM;
    ck_assert_uint_eq(read_all(p, &o, NULL), 0);

    /* A long line of binary junk is quoted, cut and made printable. */
    char junk[300];
    memset(junk, 'x', sizeof junk);
    junk[5] = '\x01';
    junk[sizeof junk - 1] = '\0';
    scratch(p, sizeof p, "junk.bin", junk);
    ck_assert_int_eq(ssdsim_trace_probe(p, &f, &err), SSDSIM_EPARSE);
    ck_assert_ptr_nonnull(strstr(err.message, "'xxxxx?xxx"));
    ck_assert_ptr_nonnull(strstr(err.message, "...'"));
    ck_assert_uint_lt(strlen(err.message), 300);

    ck_assert_int_eq(ssdsim_trace_probe("no.trace", &f, &err), SSDSIM_EIO);
    ck_assert_str_eq(err.message, "no.trace: cannot open: No such file or directory");
    ck_assert_int_eq(ssdsim_trace_probe(NULL, &f, &err), SSDSIM_EINVAL);
    ck_assert_int_eq(ssdsim_trace_probe(p, NULL, NULL), SSDSIM_EINVAL);
}
END_TEST

/* ------------------------------------------------------------------------------------------ */
/* The real excerpts of ../shared/traces                                                       */

struct excerpt {
    const char *name;
    uint64_t requests, reads, writes;
    uint64_t footprint, footprint_write, max_end, duration_ns;
    uint32_t devices;
    uint64_t unaligned;
};

/* Counted independently of this code:
 *   requests, reads, writes:  awk 'NF>0{n++; if ($5%2==1) r++; else w++} END{print n, r, w}'
 *     (wc -l says 24782 for wsrch: its last line has no newline; awk counts 24783);
 *     Financial1 is 59.22% writes, as PROVENANCE.txt says (59.2%);
 *   footprint and written footprint: a Python set of every sector (blkno .. blkno+size-1) of
 *     all requests and of writes (flags even), times 512;
 *   max end: max((blkno + size) x 512); devices: distinct devno;
 *   unaligned: (blkno x 512) % 4096 or (size x 512) % 4096;
 *   duration: last time - first time (each file is sorted; times in ns). */
static const struct excerpt excerpts[] = {
    {"ssdsim_example_financial1.ascii", 10000, 4078, 5922, 27730432, 14096384, 513235456,
     259601203125ULL, 22, 9989},
    {"mqsim_wsrch-small.trace", 24783, 24779, 4, 377809408, 16384, 17902723072ULL,
     60066625000ULL - 11413000ULL, 6, 26},
    {"mqsim_tpcc-small.trace", 6999, 4381, 2618, 59315200, 23359488, 232713410560ULL,
     1075002000ULL - 938513000ULL, 16, 6107},
};

START_TEST(test_trace_real_excerpts)
{
    const char *dir = shared_traces_dir();
    if (!dir)
        return;
    for (size_t i = 0; i < sizeof excerpts / sizeof excerpts[0]; i++) {
        const struct excerpt *e = &excerpts[i];
        char p[1200];
        snprintf(p, sizeof p, "%s/%s", dir, e->name);
        ssdsim_trace_format f;
        ssdsim_error err;
        ck_assert_msg(ssdsim_trace_probe(p, &f, &err) == 0, "%s", err.message);
        ck_assert_int_eq(f, SSDSIM_TRACE_DISKSIM);

        ssdsim_trace_opts o = {0};
        o.disksim_time_unit_ns = 1; /* these excerpts count ns (README.md, PROVENANCE.txt) */
        ssdsim_trace_info in;
        ck_assert_msg(ssdsim_trace_info_file(p, &o, &in, &err) == 0, "%s", err.message);
        ck_assert_int_eq(in.format, SSDSIM_TRACE_DISKSIM);
        ck_assert_uint_eq(in.requests, e->requests);
        ck_assert_uint_eq(in.count[SSDSIM_OP_READ], e->reads);
        ck_assert_uint_eq(in.count[SSDSIM_OP_WRITE], e->writes);
        ck_assert_uint_eq(in.count[SSDSIM_OP_TRIM], 0);
        ck_assert_uint_eq(in.footprint_bytes, e->footprint);
        ck_assert_uint_eq(in.footprint_write_bytes, e->footprint_write);
        ck_assert_uint_eq(in.max_end_bytes, e->max_end);
        ck_assert_uint_eq(in.duration_ns, e->duration_ns);
        ck_assert_uint_eq(in.n_devices, e->devices);
        ck_assert_uint_eq(in.unaligned_4k, e->unaligned);
        ck_assert_uint_eq(in.out_of_order, 0);
        ck_assert_uint_eq(in.bad_lines, 0);
        /* Sorted traces: the gaps add up to the duration. */
        double sum = in.interarrival_mean_ns * (double)(in.requests - 1);
        ck_assert_double_eq_tol(sum, (double)e->duration_ns, 1e-6 * (double)e->duration_ns);
    }
    /* The first two requests of Financial1, by hand: "0 0 303567 7 0", "0 1 55590 6 0", and
     * the fifth, "78643005 1 55596 6 1". */
    char p[1200];
    snprintf(p, sizeof p, "%s/%s", dir, excerpts[0].name);
    ssdsim_trace_opts o = {0};
    o.disksim_time_unit_ns = 1;
    ssdsim_trace_req r[MAX_REQS];
    ck_assert_uint_eq(read_all(p, &o, r), 10000);
    EXPECT_REQ(r[0], 0, SSDSIM_OP_WRITE, 303567ULL * 512, 7 * 512, 0, 1);
    EXPECT_REQ(r[1], 0, SSDSIM_OP_WRITE, 55590ULL * 512, 6 * 512, 1, 2);
    EXPECT_REQ(r[4], 78643005, SSDSIM_OP_READ, 55596ULL * 512, 6 * 512, 1, 5);
    /* Only ASU 0 and 1. */
    uint32_t devs[] = {0, 1};
    o.devices = devs;
    o.n_devices = 2;
    size_t n = read_all(p, &o, NULL);
    ck_assert_uint_gt(n, 0);
    ck_assert_uint_lt(n, 10000);
}
END_TEST

/* ------------------------------------------------------------------------------------------ */
/* Summaries                                                                                   */

START_TEST(test_trace_info_footprint_by_hand)
{
    char p[512];
    /* Sectors touched (512 B each):
     *   write 0+8192         sectors 0-15                  16
     *   write 4096+8192      sectors 8-23 (8 new)          24
     *   read 32768+4096      sectors 64-71                 32
     *   read 100+1000        bytes 100-1099: sectors 0-2   32 (nothing new)
     *   trim 1 MiB + 1 MiB   sectors 2048-4095             2080
     *   write 40960+512      sector 80                     2081
     *   write 32256+1024     bytes 32256-33279: 63-64      2082 (63 new; 63|64 is a chunk edge)
     * Written: 0-23, 80, 63-64 = 27 sectors. */
    scratch(p, sizeof p, "footprint.csv",
            "time_ns,device,op,offset,length\n"
            "0,0,write,0,8192\n"
            "1000,0,write,4096,8192\n"
            "2000,0,read,32768,4096\n"
            "3000,0,read,100,1000\n"
            "4000,0,trim,1048576,1048576\n"
            "5000,1,write,40960,512\n"
            "6000,1,write,32256,1024\n");
    ssdsim_trace_info in;
    ssdsim_error err;
    ck_assert_msg(ssdsim_trace_info_file(p, NULL, &in, &err) == 0, "%s", err.message);
    ck_assert_int_eq(in.format, SSDSIM_TRACE_CSV);
    ck_assert_uint_eq(in.requests, 7);
    ck_assert_uint_eq(in.footprint_bytes, 2082 * 512);
    ck_assert_uint_eq(in.footprint_write_bytes, 27 * 512);
    ck_assert_uint_eq(in.count[0], 2);
    ck_assert_uint_eq(in.count[1], 4);
    ck_assert_uint_eq(in.count[2], 1);
    ck_assert_uint_eq(in.bytes[0], 4096 + 1000);
    ck_assert_uint_eq(in.bytes[1], 8192 + 8192 + 512 + 1024);
    ck_assert_uint_eq(in.bytes[2], 1048576);
    ck_assert_uint_eq(in.min_length, 512);
    ck_assert_uint_eq(in.max_length, 1048576);
    ck_assert_uint_eq(in.max_end_bytes, 2 * MiB);
    ck_assert_uint_eq(in.unaligned_4k, 3); /* 100+1000, 40960+512, 32256+1024 */
    ck_assert_uint_eq(in.n_devices, 2);
    /* Buckets: 512 -> 0; 1000, 1024 -> 1; 4096 -> 3; 8192 x2 -> 4; 1 MiB -> 11. */
    uint64_t hist[SSDSIM_TRACE_SIZE_BUCKETS] = {1, 2, 0, 1, 2, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0};
    for (int i = 0; i < SSDSIM_TRACE_SIZE_BUCKETS; i++)
        ck_assert_msg(in.size_hist[i] == hist[i], "bucket %d: %llu", i,
                      (unsigned long long)in.size_hist[i]);
    ck_assert_uint_eq(in.duration_ns, 6000);
    ck_assert_double_eq_tol(in.arrival_rate, 7 / 6e-6, 1e-3);
    ck_assert_double_eq_tol(in.interarrival_mean_ns, 1000, 1e-9);
    ck_assert_double_eq_tol(in.interarrival_stddev_ns, 0, 1e-9);
    ck_assert_uint_eq(in.interarrival_min_ns, 1000);
    ck_assert_uint_eq(in.interarrival_max_ns, 1000);
    ck_assert_uint_eq(in.out_of_order, 0);
}
END_TEST

START_TEST(test_trace_info_timing_and_order)
{
    char p[512];
    /* Gaps in file order: 100, 300, (50 earlier: out of order, no gap), 650, 0. Population
     * stddev of {100, 300, 650, 0}: mean 262.5, squares 26406.25 + 1406.25 + 150156.25 +
     * 68906.25 = 246875, / 4 = 61718.75, sqrt = 248.43258643 */
    scratch(p, sizeof p, "order.csv",
            "1000,0,read,0,4096\n"
            "1100,0,read,0,4096\n"
            "1400,0,read,0,4096\n"
            "1350,0,read,0,4096\n"
            "2000,0,read,0,4096\n"
            "2000,0,read,0,4096\n");
    ssdsim_trace_info in;
    ck_assert_int_eq(ssdsim_trace_info_file(p, NULL, &in, NULL), 0);
    ck_assert_uint_eq(in.requests, 6);
    ck_assert_uint_eq(in.out_of_order, 1);
    ck_assert_uint_eq(in.duration_ns, 1000);
    ck_assert_double_eq_tol(in.interarrival_mean_ns, 262.5, 1e-9);
    ck_assert_double_eq_tol(in.interarrival_stddev_ns, 248.4325864294, 1e-6);
    ck_assert_uint_eq(in.interarrival_min_ns, 0);
    ck_assert_uint_eq(in.interarrival_max_ns, 650);
    ck_assert_uint_eq(in.footprint_bytes, 4096);
    ck_assert_uint_eq(in.footprint_write_bytes, 0);

    /* Requests earlier than the first: both are earlier than the one before them, as the
     * reader (and so a replay's warning) counts them; they used to count 0 here, their times
     * being clamped to the first's. No gap for them. */
    scratch(p, sizeof p, "back.csv",
            "time_ns,device,op,offset,length\n1000,0,write,0,4096\n100,0,write,4096,4096\n"
            "50,0,read,0,4096\n");
    ck_assert_int_eq(ssdsim_trace_info_file(p, NULL, &in, NULL), 0);
    ck_assert_uint_eq(in.requests, 3);
    ck_assert_uint_eq(in.out_of_order, 2);
    ssdsim_trace *t = open_ok(p, NULL);
    ssdsim_trace_req r;
    while (ssdsim_trace_next(t, &r, NULL) == 1)
        ;
    ssdsim_trace_stats st;
    ssdsim_trace_get_stats(t, &st);
    ck_assert_uint_eq(st.out_of_order, in.out_of_order);
    ssdsim_trace_close(t);

    /* One request: no gap, no duration, no rate. */
    scratch(p, sizeof p, "one.csv", "5,0,write,512,512\n");
    ck_assert_int_eq(ssdsim_trace_info_file(p, NULL, &in, NULL), 0);
    ck_assert_uint_eq(in.requests, 1);
    ck_assert_uint_eq(in.duration_ns, 0);
    ck_assert(in.arrival_rate == 0);
    ck_assert_uint_eq(in.interarrival_max_ns, 0);
    ck_assert_uint_eq(in.footprint_bytes, 512);

    /* The info of a bad file is the open error; bogus arguments. */
    ssdsim_error err;
    ck_assert_int_eq(ssdsim_trace_info_file("no.trace", NULL, &in, &err), SSDSIM_EIO);
    ck_assert_int_eq(ssdsim_trace_info_file(NULL, NULL, &in, &err), SSDSIM_EINVAL);
    ck_assert_int_eq(ssdsim_trace_info_file(p, NULL, NULL, &err), SSDSIM_EINVAL);
}
END_TEST

/* A footprint that spans many chunks and grows the map several times: 3000 requests of 64 KiB
 * every 1 MiB, then the same range written again half a request later (32 KiB overlap each). */
START_TEST(test_trace_info_footprint_large)
{
    char p[512];
    out_path(p, sizeof p, "large.csv");
    FILE *f = fopen(p, "w");
    ck_assert_ptr_nonnull(f);
    for (int pass = 0; pass < 2; pass++)
        for (int i = 0; i < 3000; i++)
            fprintf(f, "%d,0,write,%llu,65536\n", pass * 3000 + i,
                    (unsigned long long)i * MiB + (unsigned long long)pass * 32768);
    fclose(f);
    ssdsim_trace_info in;
    ck_assert_int_eq(ssdsim_trace_info_file(p, NULL, &in, NULL), 0);
    ck_assert_uint_eq(in.requests, 6000);
    /* Per MiB: bytes 0 .. 96 KiB touched. */
    ck_assert_uint_eq(in.footprint_bytes, 3000ULL * 96 * KiB);
    ck_assert_uint_eq(in.footprint_write_bytes, 3000ULL * 96 * KiB);
}
END_TEST

/* ------------------------------------------------------------------------------------------ */
/* gzip, rewind, devices, long lines                                                           */

START_TEST(test_trace_gzip_same_as_plain)
{
    char a[512], b[512];
    ssdsim_trace *tp = open_ok(sample(a, sizeof a, "sample.disksim"), NULL);
    ssdsim_trace *tz = open_ok(sample(b, sizeof b, "sample.disksim.gz"), NULL);
    ssdsim_trace_req x, y;
    ssdsim_error err;
    int n = 0, rp, rz;
    while ((rp = ssdsim_trace_next(tp, &x, &err)) == 1) {
        rz = ssdsim_trace_next(tz, &y, &err);
        ck_assert_int_eq(rz, 1);
        EXPECT_REQ(y, x.time_ns, x.op, x.offset, x.length, x.device, x.line);
        n++;
    }
    ck_assert_int_eq(rp, 0);
    ck_assert_int_eq(ssdsim_trace_next(tz, &y, &err), 0);
    ck_assert_int_eq(n, 24);
    /* Rewinding a gzip stream starts it again. */
    ck_assert_int_eq(ssdsim_trace_rewind(tz, &err), 0);
    next_ok(tz, &y);
    EXPECT_REQ(y, 0, SSDSIM_OP_READ, 1052672ULL * 512, 4096, 0, 1);
    ssdsim_trace_close(tp);
    ssdsim_trace_close(tz);
}
END_TEST

START_TEST(test_trace_gzip_corrupt)
{
    char src[512], p[512];
    size_t len;
    char *gz = read_file(sample(src, sizeof src, "sample.disksim.gz"), &len);
    ck_assert_ptr_nonnull(gz);
    /* Cut short: the requests before the cut come out, then an I/O error, never a crash. */
    out_path(p, sizeof p, "cut.disksim.gz");
    FILE *f = fopen(p, "wb");
    ck_assert_ptr_nonnull(f);
    fwrite(gz, 1, len / 2, f);
    fclose(f);
    ssdsim_trace_opts o = {0};
    o.format = SSDSIM_TRACE_DISKSIM;
    ssdsim_trace *t = open_ok(p, &o);
    ssdsim_trace_req r;
    ssdsim_error err;
    int rc;
    while ((rc = ssdsim_trace_next(t, &r, &err)) == 1)
        ;
    ck_assert_int_eq(rc, SSDSIM_EIO);
    ck_assert_msg(strstr(err.message, "cut.disksim.gz: cannot read the gzip stream: unexpected end "
                                      "of file"),
                  "%s", err.message);
    ssdsim_trace_close(t);
    /* Garbage after the magic bytes. */
    gz[10] ^= 0x55;
    gz[11] ^= 0x55;
    gz[12] ^= 0x55;
    out_path(p, sizeof p, "bad.disksim.gz");
    f = fopen(p, "wb");
    ck_assert_ptr_nonnull(f);
    fwrite(gz, 1, len, f);
    fclose(f);
    t = NULL;
    rc = ssdsim_trace_open(&t, p, &o, &err);
    if (rc == 0) {
        uint64_t n = 0;
        while ((rc = ssdsim_trace_next(t, &r, &err)) == 1)
            n++;
        /* A rewind after corrupt data reads the file again from the start (zlib will not
         * rewind such a stream: found by tests/fuzz/fuzz_trace), to the same error. */
        ck_assert_int_eq(ssdsim_trace_rewind(t, &err), 0);
        uint64_t again = 0;
        int rc2;
        while ((rc2 = ssdsim_trace_next(t, &r, &err)) == 1)
            again++;
        ck_assert_int_eq(rc2, rc);
        ck_assert_uint_eq(again, n);
        ssdsim_trace_close(t);
    }
    ck_assert_msg(rc == SSDSIM_EIO || rc == SSDSIM_EPARSE, "rc %d: %s", rc, err.message);
    free(gz);
}
END_TEST

START_TEST(test_trace_stats)
{
    /* Times 0, 5000, 3000, 9000, 1000 ns on devices 0, 1, 0, 0, 2: with devices {0, 7}, lines
     * 2, 4 and 5 are kept (0, 3000, 9000: in order), lines 3 and 6 are of other devices. */
    char p[512];
    scratch(p, sizeof p, "stats.csv",
            "time_ns,device,op,offset,length\n0,0,write,0,4096\n5000,1,write,4096,4096\n"
            "3000,0,read,0,4096\n9000,0,read,4096,4096\n1000,2,read,0,4096\n");
    ssdsim_trace_opts o = {0};
    uint32_t devs[] = {0, 7};
    o.devices = devs;
    o.n_devices = 2;
    ssdsim_trace *t = open_ok(p, &o);
    ssdsim_trace_stats st;
    ssdsim_trace_req r;
    ssdsim_error err;
    for (int pass = 0; pass < 2; pass++) {
        while (ssdsim_trace_next(t, &r, &err) == 1)
            ;
        ssdsim_trace_get_stats(t, &st);
        ck_assert_uint_eq(st.requests, 3);
        ck_assert_uint_eq(st.out_of_order, 0);
        ck_assert_uint_eq(st.other_devices, 2);
        ck_assert_uint_eq(st.last_time_ns, 9000);
        ck_assert_uint_eq(st.time_unit_ns, 1);
        ck_assert_int_eq(st.time_unit_assumed, 0);
        ck_assert_int_eq(st.at_end, 1);
        ck_assert_uint_eq(st.gzip_trailing_bytes, 0);
        ck_assert_uint_eq(st.first_device, 0);
        ck_assert_uint_eq(st.merged_requests, 0); /* device 0's requests only */
        ck_assert_uint_eq(ssdsim_trace_device_requests(t, 0), 3);
        ck_assert_uint_eq(ssdsim_trace_device_requests(t, 7), 0);
        ck_assert_uint_eq(ssdsim_trace_device_requests(t, 1), 0); /* not in the filter */
        /* A rewind starts every count again. */
        ck_assert_int_eq(ssdsim_trace_rewind(t, &err), 0);
        ssdsim_trace_get_stats(t, &st);
        ck_assert_uint_eq(st.requests + st.other_devices + (uint64_t)st.at_end, 0);
        ck_assert_uint_eq(ssdsim_trace_device_requests(t, 0), 0);
    }
    ssdsim_trace_close(t);
    /* All devices: lines 4 and 6 are earlier than the line before them. */
    t = open_ok(p, NULL);
    next_ok(t, &r);
    ssdsim_trace_get_stats(t, &st);
    ck_assert_uint_eq(st.requests, 1);
    ck_assert_int_eq(st.at_end, 0);
    while (ssdsim_trace_next(t, &r, &err) == 1)
        ;
    ssdsim_trace_get_stats(t, &st);
    ck_assert_uint_eq(st.requests, 5);
    ck_assert_uint_eq(st.out_of_order, 2);
    ck_assert_uint_eq(st.last_time_ns, 9000);
    ck_assert_uint_eq(st.first_device, 0);
    ck_assert_uint_eq(st.merged_requests, 2); /* lines 3 and 6: devices 1 and 2 */
    ssdsim_trace_close(t);
    /* NULL gives zeroes. */
    memset(&st, 0xff, sizeof st);
    ssdsim_trace_get_stats(NULL, &st);
    ck_assert_uint_eq(st.requests, 0);
    ck_assert_uint_eq(ssdsim_trace_device_requests(NULL, 0), 0);
    /* The unit of each format, and whether it was assumed. */
    static const struct {
        const char *file;
        uint64_t unit_ns;
        int assumed;
    } units[] = {{"sample.msr.csv", 100, 0},   {"sample.spc", 1000000000, 0},
                 {"sample.blkparse.txt", 1000000000, 0}, {"sample.disksim", 1000000, 1},
                 {"sample.iolog2", 1000000, 0}, {"sample.iolog3", 1000, 0},
                 {"sample.csv", 1, 0}};
    for (size_t i = 0; i < sizeof units / sizeof units[0]; i++) {
        t = open_ok(sample(p, sizeof p, units[i].file), NULL);
        ssdsim_trace_get_stats(t, &st);
        ck_assert_msg(st.time_unit_ns == units[i].unit_ns, "%s: %llu", units[i].file,
                      (unsigned long long)st.time_unit_ns);
        ck_assert_int_eq(st.time_unit_assumed, units[i].assumed);
        ssdsim_trace_close(t);
    }
    o = (ssdsim_trace_opts){0};
    o.disksim_time_unit_ns = 1;
    t = open_ok(sample(p, sizeof p, "sample.disksim"), &o);
    ssdsim_trace_get_stats(t, &st);
    ck_assert_uint_eq(st.time_unit_ns, 1);
    ck_assert_int_eq(st.time_unit_assumed, 0);
    ssdsim_trace_close(t);
}
END_TEST

START_TEST(test_trace_gzip_trailing_garbage)
{
    /* The gzip sample with bytes after its end: those are counted and ignored (as gzip -d
     * does), the requests are those of the plain sample; two members are read one after the
     * other. A single byte after the end is garbage too (no room for the magic). */
    char src[512], p[512];
    size_t len;
    char *gz = read_file(sample(src, sizeof src, "sample.disksim.gz"), &len);
    ck_assert_ptr_nonnull(gz);
    static const struct {
        const char *tail;
        size_t tail_len;
        int members;
        uint64_t garbage;
    } cases[] = {{"JUNKJUNK\n", 9, 1, 9}, {"\x1f", 1, 1, 1}, {"", 0, 2, 0},
                 {"\0\0\0\0", 4, 2, 4}};
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        out_path(p, sizeof p, "tail.disksim.gz");
        FILE *f = fopen(p, "wb");
        ck_assert_ptr_nonnull(f);
        for (int m = 0; m < cases[k].members; m++)
            fwrite(gz, 1, len, f);
        fwrite(cases[k].tail, 1, cases[k].tail_len, f);
        fclose(f);
        ssdsim_trace *t = open_ok(p, NULL);
        ssdsim_trace_req r;
        ssdsim_error err;
        int n = 0, rc;
        for (int pass = 0; pass < 2; pass++) {
            n = 0;
            while ((rc = ssdsim_trace_next(t, &r, &err)) == 1)
                n++;
            ck_assert_msg(rc == 0, "case %zu: %s", k, err.message);
            ck_assert_int_eq(n, 24 * cases[k].members);
            ssdsim_trace_stats st;
            ssdsim_trace_get_stats(t, &st);
            ck_assert_uint_eq(st.gzip_trailing_bytes, cases[k].garbage);
            ck_assert_int_eq(ssdsim_trace_rewind(t, &err), 0);
        }
        ssdsim_trace_close(t);
        ssdsim_trace_info in;
        ck_assert_int_eq(ssdsim_trace_info_file(p, NULL, &in, NULL), 0);
        ck_assert_uint_eq(in.gzip_trailing_bytes, cases[k].garbage);
        ck_assert_uint_eq(in.requests, 24 * (uint64_t)cases[k].members);
    }
    free(gz);
}
END_TEST

START_TEST(test_trace_rewind_and_devices)
{
    char p[512];
    ssdsim_trace_opts o = {0};
    uint32_t devs[] = {1};
    o.devices = devs;
    o.n_devices = 1;
    /* SPC sample, ASU 1 only: lines 2 and 4 first; times relative to the first kept one. */
    ssdsim_trace *t = open_ok(sample(p, sizeof p, "sample.spc"), &o);
    devs[0] = 7; /* the reader keeps its own copy */
    ssdsim_trace_req r;
    for (int pass = 0; pass < 2; pass++) {
        next_ok(t, &r);
        EXPECT_REQ(r, 0, SSDSIM_OP_WRITE, 55590ULL * 512, 3072, 1, 2);
        next_ok(t, &r);
        EXPECT_REQ(r, 26214000, SSDSIM_OP_READ, 240840ULL * 512, 3072, 1, 4);
        ck_assert_int_eq(ssdsim_trace_rewind(t, NULL), 0);
    }
    ssdsim_trace_close(t);

    /* Rewinding an iolog forgets its files and waits, then learns them again. */
    t = open_ok(sample(p, sizeof p, "sample.iolog2"), NULL);
    for (int i = 0; i < 12; i++)
        next_ok(t, &r);
    EXPECT_REQ(r, 40000000, SSDSIM_OP_TRIM, 0, 2097152, 1, 23);
    ck_assert_int_eq(ssdsim_trace_rewind(t, NULL), 0);
    next_ok(t, &r);
    EXPECT_REQ(r, 0, SSDSIM_OP_WRITE, 0, 131072, 0, 6);
    ssdsim_trace_close(t);
    ssdsim_trace_close(NULL);
}
END_TEST

START_TEST(test_trace_long_lines_and_chunks)
{
    char p[512];
    out_path(p, sizeof p, "long.csv");
    FILE *f = fopen(p, "w");
    ck_assert_ptr_nonnull(f);
    /* A 200 KB comment (longer than the 64 KiB chunk), then enough rows that many straddle a
     * chunk boundary. */
    fputc('#', f);
    for (int i = 0; i < 200000; i++)
        fputc('x', f);
    fputc('\n', f);
    for (int i = 0; i < 20000; i++)
        fprintf(f, "%d,%d,%s,%d,4096\n", i * 10, i % 3, i % 2 ? "read" : "write", i * 4096);
    fclose(f);
    ssdsim_trace *t = open_ok(p, NULL);
    ck_assert_int_eq(ssdsim_trace_get_format(t), SSDSIM_TRACE_CSV);
    ssdsim_trace_req r;
    ssdsim_error err;
    int n = 0, rc;
    while ((rc = ssdsim_trace_next(t, &r, &err)) == 1) {
        ck_assert_uint_eq(r.time_ns, (uint64_t)n * 10);
        ck_assert_uint_eq(r.device, (uint32_t)(n % 3));
        ck_assert_uint_eq(r.offset, (uint64_t)n * 4096);
        ck_assert_int_eq(r.op, n % 2 ? SSDSIM_OP_READ : SSDSIM_OP_WRITE);
        ck_assert_uint_eq(r.line, (uint64_t)n + 2);
        n++;
    }
    ck_assert_msg(rc == 0, "%s", err.message);
    ck_assert_int_eq(n, 20000);
    ssdsim_trace_close(t);
}
END_TEST

/* ------------------------------------------------------------------------------------------ */
/* Bogus input                                                                                 */

START_TEST(test_trace_bad_msr)
{
    const char *good = "128166372003061629,hm,0,Write,3154325504,4096,2290\n";
    char text[512];
    snprintf(text, sizeof text, "%s%s128166372003061630,hm,0,Write,1,4096\n", good, good);
    expect_bad("bad1.msr", text, SSDSIM_TRACE_MSR, SSDSIM_EPARSE,
               "bad1.msr:3: expected 7 comma-separated fields "
               "Timestamp,Hostname,DiskNumber,Type,Offset,Size,ResponseTime, got 6");
    snprintf(text, sizeof text, "%s%s128166372003061630,hm,0,Foo,1,4096,1\n", good, good);
    expect_bad("x.csv", text, SSDSIM_TRACE_MSR, SSDSIM_EPARSE,
               "x.csv:3: Type: expected Read or Write, got 'Foo'");
    snprintf(text, sizeof text, "%s128166372003061630,hm,0,Read,12x,4096,1\n", good);
    expect_bad("bad3.msr", text, SSDSIM_TRACE_MSR, SSDSIM_EPARSE,
               "bad3.msr:2: Offset: expected a non-negative integer (bytes), got '12x'");
    snprintf(text, sizeof text, "%s128166372003061630,hm,0,Read,0,-512,1\n", good);
    expect_bad("bad4.msr", text, SSDSIM_TRACE_MSR, SSDSIM_EPARSE,
               "bad4.msr:2: Size: expected a non-negative integer (bytes), got '-512'");
    snprintf(text, sizeof text, "%s128166372003061630,hm,0,Read,4096,0,1\n", good);
    expect_bad("bad5.msr", text, SSDSIM_TRACE_MSR, SSDSIM_EPARSE,
               "bad5.msr:2: Size: expected a positive length, got 0");
    snprintf(text, sizeof text, "%s128166372003061630,hm,0,Read,18446744073709551615,4096,1\n",
             good);
    expect_bad("bad6.msr", text, SSDSIM_TRACE_MSR, SSDSIM_EPARSE,
               "bad6.msr:2: Offset + Size: 18446744073709551615 + 4096 is beyond 2^64 bytes");
    snprintf(text, sizeof text, "%s128166372003061630,hm,0,Read,99999999999999999999,4096,1\n",
             good);
    expect_bad("bad7.msr", text, SSDSIM_TRACE_MSR, SSDSIM_EPARSE,
               "bad7.msr:2: Offset: 99999999999999999999 is out of range");
    snprintf(text, sizeof text, "%s128166372003061630,hm,4294967296,Read,0,4096,1\n", good);
    expect_bad("bad8.msr", text, SSDSIM_TRACE_MSR, SSDSIM_EPARSE,
               "bad8.msr:2: DiskNumber: 4294967296 is out of range");
    snprintf(text, sizeof text, "%s128166372003061630,hm,0,Read,0,4294967296,1\n", good);
    expect_bad("bad9.msr", text, SSDSIM_TRACE_MSR, SSDSIM_EPARSE,
               "bad9.msr:2: Size: 4294967296 bytes is larger than a request can be");
}
END_TEST

START_TEST(test_trace_bad_spc)
{
    const char *good = "0,303567,3584,w,0.000000\n";
    char text[512];
    snprintf(text, sizeof text, "%s0,1,2\n", good);
    expect_bad("fin.spc", text, SSDSIM_TRACE_SPC, SSDSIM_EPARSE,
               "fin.spc:2: expected 5 comma-separated fields ASU,LBA,Size,Opcode,Timestamp, got 3");
    snprintf(text, sizeof text, "%s0,abc,3584,w,0.1\n", good);
    expect_bad("bad2.spc", text, SSDSIM_TRACE_SPC, SSDSIM_EPARSE,
               "bad2.spc:2: LBA: expected a non-negative integer (512-byte sectors), got 'abc'");
    snprintf(text, sizeof text, "%s0,1,3584,x,0.1\n", good);
    expect_bad("bad3.spc", text, SSDSIM_TRACE_SPC, SSDSIM_EPARSE,
               "bad3.spc:2: Opcode: expected r or w, got 'x'");
    snprintf(text, sizeof text, "%s0,1,3584,w,1e-3\n", good);
    expect_bad("bad4.spc", text, SSDSIM_TRACE_SPC, SSDSIM_EPARSE,
               "bad4.spc:2: Timestamp: expected seconds such as 0.026214, at most 18446744073 s, "
               "got '1e-3'");
    snprintf(text, sizeof text, "%s0,1,0,w,0.1\n", good);
    expect_bad("bad5.spc", text, SSDSIM_TRACE_SPC, SSDSIM_EPARSE,
               "bad5.spc:2: Size: expected a positive length, got 0");
    snprintf(text, sizeof text, "%s0,36028797018963968,512,w,0.1\n", good); /* 2^55 sectors */
    expect_bad("bad6.spc", text, SSDSIM_TRACE_SPC, SSDSIM_EPARSE,
               "bad6.spc:2: LBA: 36028797018963968 sectors is out of range");
    snprintf(text, sizeof text, "%s0,1,512,w,18446744073709551616.0\n", good);
    expect_bad("bad7.spc", text, SSDSIM_TRACE_SPC, SSDSIM_EPARSE,
               "bad7.spc:2: Timestamp: 18446744073709551616.0 is out of range: at most "
               "18446744073 s (2^64 ns)");
    snprintf(text, sizeof text, "%s0,1,512,w,-0.5\n", good);
    expect_bad("bad8.spc", text, SSDSIM_TRACE_SPC, SSDSIM_EPARSE,
               "bad8.spc:2: Timestamp: expected seconds such as 0.026214, at most 18446744073 s, "
               "got '-0.5'");
}
END_TEST

START_TEST(test_trace_bad_disksim)
{
    const char *good = "0.5 0 8 8 1\n";
    char text[512];
    snprintf(text, sizeof text, "%s1.0 0 8 8\n", good);
    expect_bad("bad1.disksim", text, SSDSIM_TRACE_DISKSIM, SSDSIM_EPARSE,
               "bad1.disksim:2: expected 5 blank-separated fields time devno blkno size flags, "
               "got 4");
    snprintf(text, sizeof text, "%s1.0 0 8 0 1\n", good);
    expect_bad("bad2.disksim", text, SSDSIM_TRACE_DISKSIM, SSDSIM_EPARSE,
               "bad2.disksim:2: size: expected a positive length, got 0");
    snprintf(text, sizeof text, "%s1.0 0 8 8 r\n", good);
    expect_bad("bad3.disksim", text, SSDSIM_TRACE_DISKSIM, SSDSIM_EPARSE,
               "bad3.disksim:2: flags: expected a non-negative integer, got 'r'");
    snprintf(text, sizeof text, "%s1.x 0 8 8 1\n", good);
    expect_bad("bad4.disksim", text, SSDSIM_TRACE_DISKSIM, SSDSIM_EPARSE,
               "bad4.disksim:2: time: expected a non-negative number in decimal digits (no sign "
               "or exponent), at most 18446744073709 ms, got '1.x'");
    snprintf(text, sizeof text, "%s1 0 8 -8 1\n", good);
    expect_bad("bad5.disksim", text, SSDSIM_TRACE_DISKSIM, SSDSIM_EPARSE,
               "bad5.disksim:2: size: expected a non-negative integer (512-byte sectors), got "
               "'-8'");
    snprintf(text, sizeof text, "%s1 0 36028797018963967 8 1\n", good);
    expect_bad("bad6.disksim", text, SSDSIM_TRACE_DISKSIM, SSDSIM_EPARSE,
               "bad6.disksim:2: blkno + size: 18446744073709551104 + 4096 is beyond 2^64 bytes");
    /* A first line no format fits: the probe names the format of its shape and that format's
     * reason, where it said only that no format fits. */
    expect_bad("bad7.disksim", "-1.0 0 8 8 1\n", SSDSIM_TRACE_AUTO, SSDSIM_EPARSE,
               "bad7.disksim:1: cannot tell the trace format from '-1.0 0 8 8 1': read as "
               "disksim, the format of its shape, time: expected a non-negative number in "
               "decimal digits (no sign or exponent), at most 18446744073709 ms, got '-1.0'");
    expect_bad("bad8.csv", "-1,1,read,5,4096\n", SSDSIM_TRACE_AUTO, SSDSIM_EPARSE,
               "read as csv, the format of its shape, time_ns: expected a non-negative integer");
    expect_bad("bad9.txt", "hello world\n", SSDSIM_TRACE_AUTO, SSDSIM_EPARSE,
               "bad9.txt:1: cannot tell the trace format from 'hello world' (expected MSR");
}
END_TEST

START_TEST(test_trace_bad_blkparse)
{
    const char *good = "  8,0    3        1     0.000000000   697  Q   W 223490 + 8 [kjournald]\n";
    char text[512];
    snprintf(text, sizeof text, "%s  8,0    3        2     0.1   697  Q\n", good);
    expect_bad("bad1.blk", text, SSDSIM_TRACE_BLKPARSE, SSDSIM_EPARSE,
               "bad1.blk:2: expected a blkparse event 'MAJ,MIN CPU SEQ SECONDS PID ACTION RWBS "
               "...', got 6 fields");
    snprintf(text, sizeof text, "%s  8,0 3 2 0.1 697 Q W 22x + 8 [a]\n", good);
    expect_bad("bad2.blk", text, SSDSIM_TRACE_BLKPARSE, SSDSIM_EPARSE,
               "bad2.blk:2: sector: expected a non-negative integer, got '22x'");
    snprintf(text, sizeof text, "%s  8,0 3 2 0.1 697 Q W 8 + 0 [a]\n", good);
    expect_bad("bad3.blk", text, SSDSIM_TRACE_BLKPARSE, SSDSIM_EPARSE,
               "bad3.blk:2: sectors: expected a positive length, got 0");
    snprintf(text, sizeof text, "%s  8,0 3 2 x.1 697 Q W 8 + 8 [a]\n", good);
    expect_bad("bad4.blk", text, SSDSIM_TRACE_BLKPARSE, SSDSIM_EPARSE,
               "bad4.blk:2: time: expected seconds such as 0.000123456, at most 18446744073 s, "
               "got 'x.1'");
    /* Cut short after the RWBS, or in the middle of "SECTOR + N". */
    snprintf(text, sizeof text, "%s  8,0 3 2 0.1 697 Q W\n", good);
    expect_bad("bad5.blk", text, SSDSIM_TRACE_BLKPARSE, SSDSIM_EPARSE,
               "bad5.blk:2: expected 'SECTOR + SECTORS' or '[PROCESS]' after the RWBS of a Q "
               "event, got ''");
    snprintf(text, sizeof text, "%s  8,0 3 2 0.1 697 Q W 223490 +\n", good);
    expect_bad("bad6.blk", text, SSDSIM_TRACE_BLKPARSE, SSDSIM_EPARSE,
               "bad6.blk:2: expected 'SECTOR + SECTORS' or '[PROCESS]' after the RWBS of a Q "
               "event, got '223490 +'");
    /* With issue events, a cut D event is the bad one. */
    snprintf(text, sizeof text, "%s  8,0 3 2 0.1 697 D R 77\n", good);
    {
        char path[512];
        scratch(path, sizeof path, "bad7.blk", text);
        ssdsim_trace_opts o = {0};
        o.format = SSDSIM_TRACE_BLKPARSE;
        o.blkparse_issue = 1;
        ssdsim_trace *t = open_ok(path, &o);
        ssdsim_trace_req r;
        ssdsim_error err;
        ck_assert_int_eq(ssdsim_trace_next(t, &r, &err), SSDSIM_EPARSE);
        char want[600];
        snprintf(want, sizeof want,
                 "%s:2: expected 'SECTOR + SECTORS' or '[PROCESS]' after the RWBS of a D event, "
                 "got '77'",
                 path);
        ck_assert_str_eq(err.message, want);
        ssdsim_trace_close(t);
    }
    /* Garbage in the fields every event has, whatever its action. */
    snprintf(text, sizeof text, "%s  8,0 3 2 0.1 697 C W 8 + 8 [0]\n  8,0 x 3 0.2 697 C W 8 + 8\n",
             good);
    expect_bad("bad8.blk", text, SSDSIM_TRACE_BLKPARSE, SSDSIM_EPARSE,
               "bad8.blk:3: CPU: expected a non-negative integer, got 'x'");
    snprintf(text, sizeof text, "%s  8,0 3 2 0.1 -1 G W 8 + 8 [a]\n", good);
    expect_bad("bad9.blk", text, SSDSIM_TRACE_BLKPARSE, SSDSIM_EPARSE,
               "bad9.blk:2: PID: expected a non-negative integer, got '-1'");
    snprintf(text, sizeof text, "%s  8,0 3 2 0.1 697 Q? W 8 + 8 [a]\n", good);
    expect_bad("bad10.blk", text, SSDSIM_TRACE_BLKPARSE, SSDSIM_EPARSE,
               "bad10.blk:2: ACTION: expected one or two letters such as Q or D, got 'Q?'");
    snprintf(text, sizeof text, "%s  8,0 3 2 0.1 697 Q w 8 + 8 [a]\n", good);
    expect_bad("bad11.blk", text, SSDSIM_TRACE_BLKPARSE, SSDSIM_EPARSE,
               "bad11.blk:2: RWBS: expected capital letters such as W, RS or FWS, got 'w'");
    snprintf(text, sizeof text, "%s  8,x 3 2 0.1 697 Q W 8 + 8 [a]\n", good);
    expect_bad("bad12.blk", text, SSDSIM_TRACE_BLKPARSE, SSDSIM_EPARSE,
               "bad12.blk:2: device: expected MAJ,MIN such as 8,0, got '8,x'");
    /* A line that is neither an event nor blkparse's summary, and a line cut in its device. */
    snprintf(text, sizeof text, "%sgarbage \x01here\n", good);
    expect_bad("bad13.blk", text, SSDSIM_TRACE_BLKPARSE, SSDSIM_EPARSE,
               "bad13.blk:2: expected a blkparse event 'MAJ,MIN CPU SEQ SECONDS PID ACTION RWBS "
               "...' or a line of its summary, got 'garbage ?here'");
    snprintf(text, sizeof text, "%s  8\n", good);
    expect_bad("bad14.blk", text, SSDSIM_TRACE_BLKPARSE, SSDSIM_EPARSE,
               "bad14.blk:2: device: expected MAJ,MIN such as 8,0, got '8'");
    /* Not errors: another action, a flush, no "+ n", "FWS 0 + 0", a summary line. */
    char p[512];
    scratch(p, sizeof p, "ok.blk",
            "  8,0 3 2 0.1 697 C W 8 + 8 [0]\n"
            "  8,0 3 3 0.2 697 Q FWS [a]\n"
            "  8,0 3 4 0.3 697 Q N [a]\n"
            "  8,0 3 5 0.4 697 Q FWS 0 + 0 [a]\n"
            "  8,0 3 6 0.5 697 Q W 16 + 8 [a]\n"
            "CPU0 (8,0):\n Reads Queued: 0, 0KiB\tWrites Queued: 1, 4KiB\n");
    ssdsim_trace_req r[MAX_REQS];
    ck_assert_uint_eq(read_all(p, NULL, r), 1);
    EXPECT_REQ(r[0], 0, SSDSIM_OP_WRITE, 16 * 512, 4096, 2048, 5);
    /* Every kind of line blkparse prints besides events (its per-CPU, total and per-program
     * summaries, blkparse -s), and the messages of m events, is skipped: no bad line. */
    scratch(p, sizeof p, "summary.blk",
            "Input file sda.blktrace.0 added\n"
            "Input file sda.blktrace.1 added\n"
            "  8,0 0 1 0.000001 697 Q W 8 + 8 [a]\n"
            "  8,0 3 0 0.000004120 0 m N cfq697 insert_request\n"
            "  8,0 3 5 0.000006052 697 U N [kjournald] 1\n"
            "  8,16 0 1 0.003011234 712 A RM 40968 + 8 <- (8,17) 8\n"
            "  8,0 3 6 0.3 697 Q W 16 + 8 [Web Content]\n"
            "CPU0 (8,0):\n"
            " Reads Queued:           2,       16KiB\t Writes Queued:           2,      132KiB\n"
            " Read Dispatches:        2,       16KiB\t Write Dispatches:        1,      132KiB\n"
            " Reads Requeued:         0\t\t Writes Requeued:         0\n"
            " Reads Completed:        0,        0KiB\t Writes Completed:        0,        0KiB\n"
            " Read Merges:            0,        0KiB\t Write Merges:            1,        4KiB\n"
            " PC Reads Queued:        0,        0KiB\t PC Writes Queued:        0,        0KiB\n"
            " Read depth:             1        \t Write depth:             1\n"
            " IO unplugs:             0        \t Timer unplugs:           0\n"
            "\n"
            "Total (8,0):\n"
            " Reads Queued:           2,       16KiB\t Writes Queued:           3,      136KiB\n"
            "\n"
            "Throughput (R/W): 3KiB/s / 30KiB/s\n"
            "Events (8,0): 31 entries\n"
            "Skips: 0 forward (0 -   0.0%)\n"
            "kjournald (697)\n"
            " Reads Queued:           0,        0KiB\t Writes Queued:           1,        4KiB\n"
            " Allocation wait:        0        \t Allocation wait:         0\n"
            " Dispatch wait:          0        \t Dispatch wait:           0\n"
            " Completion wait:        0        \t Completion wait:         0\n"
            "Web Content (1234, ...)\n"
            "\n"
            "discarded traces containing low-level device driver specific data (only available "
            "in binary output)\n");
    ssdsim_trace_opts so = {0};
    so.skip_bad_lines = 1;
    /* The probe looks past the "Input file" lines. */
    ssdsim_trace *t = open_ok(p, &so);
    ck_assert_int_eq(ssdsim_trace_get_format(t), SSDSIM_TRACE_BLKPARSE);
    ssdsim_trace_req q;
    ssdsim_error err;
    int n = 0, rc;
    while ((rc = ssdsim_trace_next(t, &q, &err)) == 1)
        n++;
    ck_assert_int_eq(rc, 0);
    ck_assert_int_eq(n, 2);
    ck_assert_uint_eq(ssdsim_trace_bad_lines(t), 0);
    ssdsim_trace_close(t);
    /* With skip_bad_lines, the cut and garbage lines are counted, the events around kept. */
    scratch(p, sizeof p, "cut.blk",
            "  8,0 0 1 0.1 697 Q W 8 + 8 [a]\n"
            "  8,0 0 2 0.2 697 Q W 16 +\n"
            "  8,0 0 3 0.3 697 Q R\n"
            "garbage\n"
            "  8,0 0 4 0.4 6?7 C W 8 + 8 [0]\n"
            "  8,0 0 5 0.5 697 Q R 24 + 8 [a]\n"
            "  8,0 0 6 0.6");
    t = open_ok(p, &so);
    n = 0;
    while ((rc = ssdsim_trace_next(t, &q, &err)) == 1)
        n++;
    ck_assert_int_eq(rc, 0);
    ck_assert_int_eq(n, 2);
    ck_assert_uint_eq(ssdsim_trace_bad_lines(t), 5);
    ssdsim_trace_close(t);
}
END_TEST

START_TEST(test_trace_bad_iolog)
{
    expect_bad("bad1.iolog", "fio version 2 iolog\n/f add\n/g read 0 4096\n",
               SSDSIM_TRACE_FIO_IOLOG2, SSDSIM_EPARSE, "bad1.iolog:3: file '/g' was not added");
    expect_bad("bad2.iolog", "fio version 2 iolog\n/f add\n/f read 0\n", SSDSIM_TRACE_FIO_IOLOG2,
               SSDSIM_EPARSE,
               "bad2.iolog:3: expected 'FILE ACTION' or 'FILE ACTION OFFSET LENGTH', got 3 fields");
    expect_bad("bad3.iolog", "fio version 2 iolog\n/f add\n/f fsync 0 4096\n",
               SSDSIM_TRACE_FIO_IOLOG2, SSDSIM_EPARSE,
               "bad3.iolog:3: action: expected read, write, trim, sync, datasync or wait, got "
               "'fsync'");
    expect_bad("bad4.iolog", "fio version 2 iolog\n/f add\n/f write 0 0\n", SSDSIM_TRACE_FIO_IOLOG2,
               SSDSIM_EPARSE, "bad4.iolog:3: length: expected a positive length, got 0");
    expect_bad("bad5.iolog", "fio version 2 iolog\n/f add\n/f remove\n", SSDSIM_TRACE_FIO_IOLOG2,
               SSDSIM_EPARSE, "bad5.iolog:3: action: expected add, open or close, got 'remove'");
    expect_bad("bad6.iolog", "fio version 3 iolog\n0 /f add\nx /f read 0 4096\n",
               SSDSIM_TRACE_FIO_IOLOG3, SSDSIM_EPARSE,
               "bad6.iolog:3: timestamp: expected a non-negative integer (microseconds), got 'x'");
    /* The header is checked when the file is opened. */
    expect_bad(
        "bad7.iolog", "fio version 3 iolog\n0 /f add\n", SSDSIM_TRACE_FIO_IOLOG2, SSDSIM_EPARSE,
        "bad7.iolog:1: expected the header 'fio version 2 iolog', got 'fio version 3 iolog'");
    expect_bad("bad8.iolog", "", SSDSIM_TRACE_FIO_IOLOG3, SSDSIM_EPARSE,
               "bad8.iolog: empty file: expected the header 'fio version 3 iolog'");
    /* Version 3 has no wait (fio ignores it): skipped. */
    char p[512];
    ssdsim_trace_req r[MAX_REQS];
    scratch(p, sizeof p, "wait3.iolog",
            "fio version 3 iolog\n0 /f add\n5 /f wait 100 0\n7 /f write 0 512\n");
    ck_assert_uint_eq(read_all(p, NULL, r), 1);
    EXPECT_REQ(r[0], 0, SSDSIM_OP_WRITE, 0, 512, 0, 4);
}
END_TEST

START_TEST(test_trace_bad_csv_and_args)
{
    expect_bad("bad1.csv", "time_ns,device,op,offset,length\n0,0,write,0\n", SSDSIM_TRACE_CSV,
               SSDSIM_EPARSE,
               "bad1.csv:2: expected 5 or 6 comma-separated fields "
               "time_ns,device,op,offset,length[,placement], got 4");
    expect_bad("bad2.csv", "0,0,flush,0,4096\n", SSDSIM_TRACE_CSV, SSDSIM_EPARSE,
               "bad2.csv:1: op: expected read, write or trim, got 'flush'");
    expect_bad("bad3.csv", "0,0,read,0,4096\n1,0,read,0,\n", SSDSIM_TRACE_CSV, SSDSIM_EPARSE,
               "bad3.csv:2: length: expected a non-negative integer (bytes), got ''");
    expect_bad("bad4.csv", "1.5,0,read,0,4096\n", SSDSIM_TRACE_CSV, SSDSIM_EPARSE,
               "bad4.csv:1: time_ns: expected a non-negative integer (ns), got '1.5'");

    /* Missing file, directory, unknown format value, NULL arguments. */
    ssdsim_trace *t = (ssdsim_trace *)1;
    ssdsim_error err;
    ck_assert_int_eq(ssdsim_trace_open(&t, "no.trace", NULL, &err), SSDSIM_EIO);
    ck_assert_ptr_null(t);
    ck_assert_int_eq(err.code, SSDSIM_EIO);
    ck_assert_str_eq(err.message, "no.trace: cannot open: No such file or directory");
    ck_assert_int_eq(ssdsim_trace_open(&t, SRCDIR "/traces", NULL, &err), SSDSIM_EIO);
    ck_assert_ptr_nonnull(strstr(err.message, "cannot open: Is a directory"));
    ssdsim_trace_opts o = {0};
    o.format = (ssdsim_trace_format)99;
    ck_assert_int_eq(ssdsim_trace_open(&t, "x", &o, &err), SSDSIM_EINVAL);
    o.format = SSDSIM_TRACE_AUTO;
    o.n_devices = 2;
    ck_assert_int_eq(ssdsim_trace_open(&t, "x", &o, &err), SSDSIM_EINVAL);
    ck_assert_int_eq(ssdsim_trace_open(NULL, "x", NULL, &err), SSDSIM_EINVAL);
    ck_assert_int_eq(ssdsim_trace_open(&t, NULL, NULL, NULL), SSDSIM_EINVAL);
    ssdsim_trace_req r;
    ck_assert_int_eq(ssdsim_trace_next(NULL, &r, &err), SSDSIM_EINVAL);
    ck_assert_int_eq(ssdsim_trace_rewind(NULL, &err), SSDSIM_EINVAL);
    ck_assert_int_eq(ssdsim_trace_get_format(NULL), SSDSIM_TRACE_AUTO);
    ck_assert_uint_eq(ssdsim_trace_bad_lines(NULL), 0);
    char p[512];
    t = open_ok(sample(p, sizeof p, "sample.csv"), NULL);
    ck_assert_int_eq(ssdsim_trace_next(t, NULL, &err), SSDSIM_EINVAL);
    ssdsim_trace_close(t);
}
END_TEST

START_TEST(test_trace_skip_bad_lines)
{
    char p[512];
    /* Three bad lines among five good ones, in three ways; the good ones come out as usual. */
    scratch(p, sizeof p, "skip.spc",
            "0,8,4096,w,0.0\n"
            "0,8,4096,x,0.1\n"
            "0,16,4096,r,0.2\n"
            "0,1,2\n"
            "1,24,4096,w,0.3\n"
            "1,32,0,w,0.4\n"
            "1,40,4096,w,0.5\n"
            "2,48,4096,r,0.6\n");
    ssdsim_trace_opts o = {0};
    o.skip_bad_lines = 1;
    ssdsim_trace *t = open_ok(p, &o);
    ssdsim_trace_req r[MAX_REQS];
    ssdsim_error err;
    int n = 0, rc;
    while ((rc = ssdsim_trace_next(t, &r[n], &err)) == 1)
        n++;
    ck_assert_int_eq(rc, 0);
    ck_assert_int_eq(n, 5);
    ck_assert_uint_eq(ssdsim_trace_bad_lines(t), 3);
    EXPECT_REQ(r[1], 200000000, SSDSIM_OP_READ, 16 * 512, 4096, 0, 3);
    EXPECT_REQ(r[4], 600000000, SSDSIM_OP_READ, 48 * 512, 4096, 2, 8);
    ck_assert_int_eq(ssdsim_trace_rewind(t, &err), 0);
    ck_assert_uint_eq(ssdsim_trace_bad_lines(t), 0);
    ssdsim_trace_close(t);

    ssdsim_trace_info in;
    ck_assert_int_eq(ssdsim_trace_info_file(p, &o, &in, &err), 0);
    ck_assert_uint_eq(in.requests, 5);
    ck_assert_uint_eq(in.bad_lines, 3);
    /* Without the option the first bad line stops the reader. */
    ck_assert_int_eq(ssdsim_trace_info_file(p, NULL, &in, &err), SSDSIM_EPARSE);
    ck_assert_ptr_nonnull(strstr(err.message, "skip.spc:2: Opcode: expected r or w, got 'x'"));
    ck_assert_int_eq(err.line, 2);
    ck_assert_ptr_nonnull(strstr(err.file, "skip.spc"));
}
END_TEST

/* ------------------------------------------------------------------------------------------ */
/* Writers and round trips                                                                     */

/* Write every request of `in` to `out` in `format`; returns the number written. */
static size_t convert(const char *in, const ssdsim_trace_opts *opts, const char *out,
                      ssdsim_trace_format format, const char *target)
{
    ssdsim_trace *t = open_ok(in, opts);
    ssdsim_trace_writer *w = NULL;
    ssdsim_error err;
    ck_assert_msg(ssdsim_trace_writer_open(&w, out, format, target, &err) == 0, "%s", err.message);
    ssdsim_trace_req r;
    size_t n = 0;
    int rc;
    while ((rc = ssdsim_trace_next(t, &r, &err)) == 1) {
        ck_assert_msg(ssdsim_trace_writer_put(w, &r, &err) == 0, "%s", err.message);
        n++;
    }
    ck_assert_int_eq(rc, 0);
    ck_assert_int_eq(ssdsim_trace_writer_close(w, &err), 0);
    ssdsim_trace_close(t);
    return n;
}

START_TEST(test_trace_round_trips)
{
    static const char *const inputs[] = {"sample.msr.csv", "sample.spc",    "sample.blkparse.txt",
                                         "sample.disksim", "sample.iolog2", "sample.iolog3",
                                         "sample.csv"};
    for (size_t i = 0; i < sizeof inputs / sizeof inputs[0]; i++) {
        char in[512], out[512];
        ssdsim_trace_req a[MAX_REQS], b[MAX_REQS];
        size_t n = read_all(sample(in, sizeof in, inputs[i]), NULL, a);
        ck_assert_uint_le(n, MAX_REQS);

        /* CSV keeps everything but the line numbers. */
        out_path(out, sizeof out, "rt.csv");
        ck_assert_uint_eq(convert(in, NULL, out, SSDSIM_TRACE_CSV, NULL), n);
        ck_assert_uint_eq(read_all(out, NULL, b), n);
        for (size_t k = 0; k < n; k++)
            EXPECT_REQ(b[k], a[k].time_ns, a[k].op, a[k].offset, a[k].length, a[k].device, k + 2);

        /* fio iolog v3: times to the microsecond, one target (device 0). */
        out_path(out, sizeof out, "rt.iolog3");
        ck_assert_uint_eq(convert(in, NULL, out, SSDSIM_TRACE_FIO_IOLOG3, "/tmp/target"), n);
        ck_assert_uint_eq(read_all(out, NULL, b), n);
        for (size_t k = 0; k < n; k++)
            EXPECT_REQ(b[k], a[k].time_ns / 1000 * 1000, a[k].op, a[k].offset, a[k].length, 0,
                       k + 4);

        /* fio iolog v2: times to the millisecond through wait lines. */
        out_path(out, sizeof out, "rt.iolog2");
        ck_assert_uint_eq(convert(in, NULL, out, SSDSIM_TRACE_FIO_IOLOG2, NULL), n);
        ck_assert_uint_eq(read_all(out, NULL, b), n);
        for (size_t k = 0; k < n; k++) {
            ck_assert_uint_eq(b[k].time_ns, a[k].time_ns / 1000000 * 1000000);
            ck_assert_uint_eq(b[k].offset, a[k].offset);
            ck_assert_uint_eq(b[k].length, a[k].length);
            ck_assert_int_eq(b[k].op, a[k].op);
        }
    }
    /* DiskSim ASCII (no trims, 512-byte multiples): SPC and DiskSim samples, exact times. */
    static const char *const sectored[] = {"sample.spc", "sample.disksim", "sample.msr.csv"};
    for (size_t i = 0; i < sizeof sectored / sizeof sectored[0]; i++) {
        char in[512], out[512];
        ssdsim_trace_req a[MAX_REQS], b[MAX_REQS];
        size_t n = read_all(sample(in, sizeof in, sectored[i]), NULL, a);
        out_path(out, sizeof out, "rt.disksim");
        ck_assert_uint_eq(convert(in, NULL, out, SSDSIM_TRACE_DISKSIM, NULL), n);
        ssdsim_trace_format f;
        ck_assert_int_eq(ssdsim_trace_probe(out, &f, NULL), 0);
        ck_assert_int_eq(f, SSDSIM_TRACE_DISKSIM);
        ck_assert_uint_eq(read_all(out, NULL, b), n);
        for (size_t k = 0; k < n; k++)
            EXPECT_REQ(b[k], a[k].time_ns, a[k].op, a[k].offset, a[k].length, a[k].device, k + 1);
    }
}
END_TEST

/* The exact text of each writer, worked out by hand. */
START_TEST(test_trace_writer_text)
{
    ssdsim_trace_req reqs[] = {
        {0, SSDSIM_OP_WRITE, 0, 4096, 0, 1},
        {1500, SSDSIM_OP_READ, 8192, 512, 2, 2},
        {2500000, SSDSIM_OP_TRIM, 1048576, 65536, 0, 3},
        {1000000, SSDSIM_OP_READ, 512, 1024, 1, 4}, /* out of order: kept */
    };
    struct {
        ssdsim_trace_format f;
        const char *target;
        size_t n;
        const char *text;
    } cases[] = {
        {SSDSIM_TRACE_FIO_IOLOG3, "/dev/sdz", 4,
         "fio version 3 iolog\n0 /dev/sdz add\n0 /dev/sdz open\n"
         "1 /dev/sdz write 0 4096\n2 /dev/sdz read 8192 512\n2501 /dev/sdz trim 1048576 65536\n"
         "1001 /dev/sdz read 512 1024\n2501 /dev/sdz close\n"},
        {SSDSIM_TRACE_FIO_IOLOG2, NULL, 4,
         "fio version 2 iolog\n/dev/nvme0n1 add\n/dev/nvme0n1 open\n"
         "/dev/nvme0n1 write 0 4096\n/dev/nvme0n1 read 8192 512\n/dev/nvme0n1 wait 2 0\n"
         "/dev/nvme0n1 trim 1048576 65536\n/dev/nvme0n1 read 512 1024\n/dev/nvme0n1 close\n"},
        {SSDSIM_TRACE_CSV, NULL, 4,
         "time_ns,device,op,offset,length\n0,0,write,0,4096\n1500,2,read,8192,512\n"
         "2500000,0,trim,1048576,65536\n1000000,1,read,512,1024\n"},
        {SSDSIM_TRACE_DISKSIM, NULL, 2, "0 0 0 8 0\n0.0015 2 16 1 1\n"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char p[512];
        out_path(p, sizeof p, "writer.txt");
        ssdsim_trace_writer *w = NULL;
        ssdsim_error err;
        ck_assert_int_eq(ssdsim_trace_writer_open(&w, p, cases[i].f, cases[i].target, &err), 0);
        for (size_t k = 0; k < cases[i].n; k++)
            ck_assert_msg(ssdsim_trace_writer_put(w, &reqs[k], &err) == 0, "%s", err.message);
        ck_assert_int_eq(ssdsim_trace_writer_close(w, &err), 0);
        char *text = read_file(p, NULL);
        ck_assert_str_eq(text, cases[i].text);
        free(text);
    }
}
END_TEST

START_TEST(test_trace_writer_errors)
{
    char p[512];
    out_path(p, sizeof p, "werr.disksim");
    ssdsim_trace_writer *w = (ssdsim_trace_writer *)1;
    ssdsim_error err;
    ck_assert_int_eq(ssdsim_trace_writer_open(&w, p, SSDSIM_TRACE_MSR, NULL, &err), SSDSIM_EINVAL);
    ck_assert_ptr_null(w);
    ck_assert_ptr_nonnull(strstr(err.message, "trace format 'msr' cannot be written"));
    ck_assert_int_eq(ssdsim_trace_writer_open(&w, p, SSDSIM_TRACE_AUTO, NULL, &err), SSDSIM_EINVAL);
    ck_assert_int_eq(ssdsim_trace_writer_open(&w, p, SSDSIM_TRACE_FIO_IOLOG3, "a b", &err),
                     SSDSIM_EINVAL);
    ck_assert_int_eq(ssdsim_trace_writer_open(&w, p, SSDSIM_TRACE_FIO_IOLOG3, "", &err),
                     SSDSIM_EINVAL);
    ck_assert_int_eq(
        ssdsim_trace_writer_open(&w, "/nonexistent-dir/x", SSDSIM_TRACE_CSV, NULL, &err),
        SSDSIM_EIO);
    ck_assert_str_eq(err.message, "/nonexistent-dir/x: cannot create: No such file or directory");
    ck_assert_int_eq(ssdsim_trace_writer_open(NULL, p, SSDSIM_TRACE_CSV, NULL, &err),
                     SSDSIM_EINVAL);
    ck_assert_int_eq(ssdsim_trace_writer_open(&w, NULL, SSDSIM_TRACE_CSV, NULL, &err),
                     SSDSIM_EINVAL);

    ck_assert_int_eq(ssdsim_trace_writer_open(&w, p, SSDSIM_TRACE_DISKSIM, NULL, &err), 0);
    ssdsim_trace_req trim = {0, SSDSIM_OP_TRIM, 0, 4096, 0, 7};
    ck_assert_int_eq(ssdsim_trace_writer_put(w, &trim, &err), SSDSIM_EINVAL);
    ck_assert_ptr_nonnull(strstr(err.message, "request 1 (input line 7): DiskSim ASCII has no "
                                              "trims"));
    ssdsim_trace_req odd = {0, SSDSIM_OP_WRITE, 100, 4096, 0, 0};
    ck_assert_int_eq(ssdsim_trace_writer_put(w, &odd, &err), SSDSIM_EINVAL);
    ck_assert_ptr_nonnull(strstr(err.message, "not a multiple of the 512-byte sectors"));
    ssdsim_trace_req zero = {0, SSDSIM_OP_WRITE, 0, 0, 0, 0};
    ck_assert_int_eq(ssdsim_trace_writer_put(w, &zero, &err), SSDSIM_EINVAL);
    ssdsim_trace_req flush = {0, SSDSIM_OP_FLUSH, 0, 0, 0, 0}; /* only the fio iologs have it */
    ck_assert_int_eq(ssdsim_trace_writer_put(w, &flush, &err), SSDSIM_EINVAL);
    ssdsim_trace_req badop = {0, SSDSIM_OP_ALL, 0, 512, 0, 0};
    ck_assert_int_eq(ssdsim_trace_writer_put(w, &badop, &err), SSDSIM_EINVAL);
    ssdsim_trace_req end = {0, SSDSIM_OP_READ, UINT64_MAX - 511, 1024, 0, 0};
    ck_assert_int_eq(ssdsim_trace_writer_put(w, &end, &err), SSDSIM_EINVAL);
    ck_assert_int_eq(ssdsim_trace_writer_put(w, NULL, &err), SSDSIM_EINVAL);
    ck_assert_int_eq(ssdsim_trace_writer_put(NULL, &end, &err), SSDSIM_EINVAL);
    ck_assert_int_eq(ssdsim_trace_writer_close(w, &err), 0);
    ck_assert_int_eq(ssdsim_trace_writer_close(NULL, &err), 0);
    char *text = read_file(p, NULL);
    ck_assert_str_eq(text, ""); /* nothing refused reached the file */
    free(text);

    /* A flush is fio's "sync" in a v3 iolog (offset and length 0), and reads back as a flush at
     * its time (the writer stamps time + 1 us, the reader counts from the first request). */
    ck_assert_int_eq(ssdsim_trace_writer_open(&w, p, SSDSIM_TRACE_FIO_IOLOG3, "/dev/x", &err), 0);
    ssdsim_trace_req wr = {0, SSDSIM_OP_WRITE, 0, 4096, 0, 0};
    ssdsim_trace_req fl = {3000000, SSDSIM_OP_FLUSH, 0, 0, 0, 0};
    ck_assert_int_eq(ssdsim_trace_writer_put(w, &wr, &err), 0);
    ck_assert_int_eq(ssdsim_trace_writer_put(w, &fl, &err), 0);
    ck_assert_int_eq(ssdsim_trace_writer_close(w, &err), 0);
    text = read_file(p, NULL);
    ck_assert_ptr_nonnull(strstr(text, "\n3001 /dev/x sync 0 0\n"));
    free(text);
    ssdsim_trace_opts fo = SSDSIM_TRACE_OPTS_INIT;
    fo.flushes = true;
    ssdsim_trace_req back[MAX_REQS];
    ck_assert_uint_eq(read_all(p, &fo, back), 2);
    ck_assert_int_eq(back[1].op, SSDSIM_OP_FLUSH);
    ck_assert_uint_eq(back[1].time_ns, 3000000);

    /* A full disk is an I/O error at the latest when the writer is closed. */
    if (access("/dev/full", W_OK) == 0) {
        ck_assert_int_eq(ssdsim_trace_writer_open(&w, "/dev/full", SSDSIM_TRACE_CSV, NULL, &err),
                         0);
        ssdsim_trace_req r = {0, SSDSIM_OP_READ, 0, 4096, 0, 0};
        int rc = 0;
        for (int i = 0; i < 100000 && rc == 0; i++)
            rc = ssdsim_trace_writer_put(w, &r, &err);
        int rc2 = ssdsim_trace_writer_close(w, &err);
        ck_assert(rc == SSDSIM_EIO || rc2 == SSDSIM_EIO);
        ck_assert_ptr_nonnull(strstr(err.message, "/dev/full: cannot write: "));
    }
}
END_TEST

/* ------------------------------------------------------------------------------------------ */
/* The command                                                                                 */

START_TEST(test_trace_cli_info)
{
    char p[512];
    struct cmd c;
    RUN(&c, "trace", "info", sample(p, sizeof p, "sample.spc"));
    ck_assert_msg(c.status == 0, "%s", c.err);
    ck_assert_uint_eq(c.n_err, 0);
    ck_assert_ptr_nonnull(strstr(c.out, "format         spc\n"));
    ck_assert_ptr_nonnull(strstr(c.out, "requests       25\n"));
    ck_assert_ptr_nonnull(strstr(c.out, "bad lines      0\n"));
    cmd_free(&c);

    /* JSON, with the DiskSim options of the real excerpts on the sample (us, flags 0 = read). */
    RUN(&c, "trace", "info", "--json", "--time-unit=us", "--read-flag", "0",
        sample(p, sizeof p, "sample.disksim.gz"));
    ck_assert_msg(c.status == 0, "%s", c.err);
    cJSON *j = cJSON_Parse(c.out);
    ck_assert_ptr_nonnull(j);
    ck_assert_str_eq(cJSON_GetObjectItem(j, "format")->valuestring, "disksim");
    ck_assert_int_eq(cJSON_GetObjectItem(j, "requests")->valuedouble, 24);
    /* awk '$5 % 2 == 1' sample.disksim | wc -l: 14 lines with flags 1, 10 with flags 0; with
     * --read-flag 0 the 10 are the reads. The last line is at 3.136041 (us here). */
    const cJSON *rd = cJSON_GetObjectItem(cJSON_GetObjectItem(j, "read"), "count");
    const cJSON *wr = cJSON_GetObjectItem(cJSON_GetObjectItem(j, "write"), "count");
    ck_assert_int_eq(rd->valuedouble, 10);
    ck_assert_int_eq(wr->valuedouble, 14);
    ck_assert_int_eq(cJSON_GetObjectItem(j, "duration_ns")->valuedouble, 3136);
    ck_assert_int_eq(cJSON_GetArraySize(cJSON_GetObjectItem(j, "size_hist")), 16);
    cJSON_Delete(j);
    cmd_free(&c);

    RUN(&c, "trace", "info", sample(p, sizeof p, "sample.disksim"), "--json");
    j = cJSON_Parse(c.out);
    ck_assert_ptr_nonnull(j);
    rd = cJSON_GetObjectItem(cJSON_GetObjectItem(j, "read"), "count");
    wr = cJSON_GetObjectItem(cJSON_GetObjectItem(j, "write"), "count");
    ck_assert_int_eq(rd->valuedouble, 14);
    ck_assert_int_eq(wr->valuedouble, 10);
    ck_assert_int_eq(cJSON_GetObjectItem(j, "duration_ns")->valuedouble, 3136041);
    cJSON_Delete(j);
    cmd_free(&c);

    /* --device and --skip-bad-lines reach the reader: ASUs 1 and 3 have 6 lines each
     * (awk -F, '{print $1}' sample.spc | sort | uniq -c). */
    RUN(&c, "trace", "info", "--device", "1,3", "--trace-format", "spc", "--skip-bad-lines",
        sample(p, sizeof p, "sample.spc"));
    ck_assert_msg(c.status == 0, "%s", c.err);
    ck_assert_ptr_nonnull(strstr(c.out, "requests       12\n"));
    ck_assert_ptr_nonnull(strstr(c.out, "devices        2\n"));
    cmd_free(&c);
    /* a --device with no request: an error when none is left, else a warning (as run) */
    RUN(&c, "trace", "info", "--device", "7", sample(p, sizeof p, "sample.msr.csv"));
    ck_assert_int_eq(c.status, 1);
    ck_assert_ptr_nonnull(strstr(c.err, "no request of --device 7 in the whole trace"));
    cmd_free(&c);
    RUN(&c, "trace", "info", "--device", "0,7", sample(p, sizeof p, "sample.msr.csv"));
    ck_assert_int_eq(c.status, 0);
    ck_assert_ptr_nonnull(strstr(c.err, "1 of the 2 devices given (--device 0, 7) have no "
                                        "request"));
    cmd_free(&c);

    RUN(&c, "trace", "--help");
    ck_assert_int_eq(c.status, 0);
    ck_assert_ptr_nonnull(strstr(c.out, "usage: ssdsim trace info FILE"));
    cmd_free(&c);
    RUN(&c, "help");
    ck_assert_ptr_nonnull(strstr(c.out, "  trace "));
    cmd_free(&c);
}
END_TEST

START_TEST(test_trace_cli_convert)
{
    char in[512], out[512];
    struct cmd c;
    /* a --device with no request in the trace: nothing written, exit 1 */
    out_path(out, sizeof out, "cli-d7.csv");
    RUN(&c, "trace", "convert", sample(in, sizeof in, "sample.msr.csv"), "--device", "7", "--to",
        "csv", out);
    ck_assert_int_eq(c.status, 1);
    ck_assert_ptr_nonnull(strstr(c.err, "--device 7: 1 of the 1 devices given have no request"));
    ck_assert_int_ne(access(out, F_OK), 0);
    cmd_free(&c);
    out_path(out, sizeof out, "cli.iolog3");
    RUN(&c, "trace", "convert", sample(in, sizeof in, "sample.msr.csv"), "--to", "fio-iolog3", out,
        "--target", "/tmp/x");
    ck_assert_msg(c.status == 0, "%s", c.err);
    ck_assert_ptr_nonnull(strstr(c.out, "(msr) -> "));
    ck_assert_ptr_nonnull(strstr(c.out, "(fio-iolog3): 24 requests\n"));
    cmd_free(&c);
    ssdsim_trace_req a[MAX_REQS], b[MAX_REQS];
    ck_assert_uint_eq(read_all(in, NULL, a), 24);
    ck_assert_uint_eq(read_all(out, NULL, b), 24);
    for (int k = 0; k < 24; k++)
        EXPECT_REQ(b[k], a[k].time_ns / 1000 * 1000, a[k].op, a[k].offset, a[k].length, 0,
                   (uint64_t)k + 4);
    char *text = read_file(out, NULL);
    ck_assert_ptr_nonnull(strstr(text, "fio version 3 iolog\n0 /tmp/x add\n0 /tmp/x open\n"));
    free(text);

    /* A CSV with trims cannot become DiskSim: exit 1, one line, no output left behind. */
    out_path(out, sizeof out, "cli.disksim");
    unlink(out);
    RUN(&c, "trace", "convert", sample(in, sizeof in, "sample.csv"), "--to", "disksim", out);
    assert_one_error(&c, 1, "DiskSim ASCII has no trims");
    /* named by the input and its line, not by the hidden temporary file */
    ck_assert_msg(strstr(c.err, "ssdsim: ") == c.err && strstr(c.err, "sample.csv:") != NULL &&
                      strstr(c.err, ".tmp.") == NULL && strstr(c.err, "request") == NULL,
                  "%s", c.err);
    ck_assert(!file_exists(out));
    cmd_free(&c);

    /* The output may not be the input. */
    RUN(&c, "trace", "convert", in, "--to", "csv", in);
    assert_one_error(&c, 2, "is the input");
    cmd_free(&c);
}
END_TEST

START_TEST(test_trace_cli_errors)
{
    char p[512], bad[512];
    struct cmd c;
    sample(p, sizeof p, "sample.csv");
    struct {
        const char *args[8];
        const char *needle;
    } usage[] = {
        {{"trace", NULL}, "expected 'info' or 'convert'"},
        {{"trace", "bogus", NULL}, "unknown subcommand 'bogus'"},
        {{"trace", "info", NULL}, "expected one trace file"},
        {{"trace", "info", p, p, NULL}, "expected one trace file"},
        {{"trace", "info", p, "--bogus", NULL}, "unknown option '--bogus'"},
        {{"trace", "info", p, "--trace-format", "bogus", NULL}, "--trace-format expects"},
        {{"trace", "info", p, "--time-unit", "h", NULL}, "--time-unit expects ns, us, ms or s"},
        {{"trace", "info", p, "--read-flag", "2", NULL}, "--read-flag expects 0 or 1"},
        {{"trace", "info", p, "--blkparse-events", "x", NULL}, "--blkparse-events expects"},
        {{"trace", "info", p, "--device", "1,,2", NULL}, "--device expects"},
        {{"trace", "info", p, "--device", NULL}, "needs a value"},
        {{"trace", "info", p, "--json=1", NULL}, "takes no value"},
        {{"trace", "info", p, "--to", "csv", NULL}, "unknown option '--to'"},
        {{"trace", "convert", p, "out.csv", NULL}, "expected an input, --to FORMAT and an output"},
        {{"trace", "convert", p, "--to", "msr", "out.csv", NULL}, "--to expects fio-iolog3"},
        {{"trace", "convert", p, "--to", "csv", "out.csv", "--json", NULL},
         "unknown option '--json'"},
    };
    for (size_t i = 0; i < sizeof usage / sizeof usage[0]; i++) {
        run_argv(&c, usage[i].args);
        assert_one_error(&c, 2, usage[i].needle);
        cmd_free(&c);
    }
    RUN(&c, "trace", "info", "no.trace");
    assert_one_error(&c, 1, "ssdsim: no.trace: cannot open: No such file or directory");
    cmd_free(&c);
    scratch(bad, sizeof bad, "cli-bad.spc", "0,8,4096,w,0.0\n0,8,4096,x,0.1\n");
    RUN(&c, "trace", "info", bad);
    assert_one_error(&c, 1, "cli-bad.spc:2: Opcode: expected r or w, got 'x'");
    cmd_free(&c);
    RUN(&c, "trace", "info", bad, "--skip-bad-lines");
    ck_assert_int_eq(c.status, 0);
    ck_assert_ptr_nonnull(strstr(c.out, "bad lines      1\n"));
    cmd_free(&c);
    RUN(&c, "trace", "convert", "no.trace", "--to", "csv", "x.csv");
    assert_one_error(&c, 1, "no.trace: cannot open");
    cmd_free(&c);
    /* options with no effect on this input or output are refused, not ignored */
    RUN(&c, "trace", "convert", p, "--to", "csv", "x.csv", "--target", "/dev/sdz");
    assert_one_error(&c, 2, "--target names the device of a fio iolog (--to fio-iolog3 or "
                            "fio-iolog2); it does not apply to --to csv");
    cmd_free(&c);
    ck_assert(!file_exists("x.csv"));
    /* a target fio cannot read: the option is named (the writer's message named the output's
     * temporary file, ./.x.log.tmp.PID, and exited 1) */
    static const char *const bad_target[] = {"", "a b"};
    for (size_t k = 0; k < 2; k++) {
        RUN(&c, "trace", "convert", p, "--to", "fio-iolog3", "x.log", "--target", bad_target[k]);
        char want[160];
        snprintf(want, sizeof want,
                 "trace convert: --target expects a file or device name of 1 to 256 bytes "
                 "without blanks, got '%s'",
                 bad_target[k]);
        assert_one_error(&c, 2, want);
        cmd_free(&c);
        ck_assert(!file_exists("x.log"));
    }
    RUN(&c, "trace", "info", p, "--time-unit", "s", "--read-flag", "0", "--blkparse-events",
        "issue");
    assert_one_error(&c, 2, "trace info: --time-unit applies to DiskSim ASCII traces only; ");
    cmd_free(&c);
    RUN(&c, "trace", "info", p, "--blkparse-events", "issue");
    assert_one_error(&c, 2, "--blkparse-events applies to blkparse traces only; ");
    ck_assert_ptr_nonnull(strstr(c.err, "sample.csv is csv"));
    cmd_free(&c);
    RUN(&c, "trace", "convert", p, "--to", "csv", "x.csv", "--read-flag", "1");
    assert_one_error(&c, 2, "trace convert: --read-flag applies to DiskSim ASCII traces only");
    cmd_free(&c);
    ck_assert(!file_exists("x.csv"));
}
END_TEST

/* ------------------------------------------------------------------------------------------ */
/* Several traces replayed at once (ssdsim_replay_traces)                                      */

/* Three traces of 3, 2 and 4 requests replayed at once from queue 1 of a model with 2 queue
 * pairs: trace k is job k, named after its path, with exactly its requests (the queues are 1, 0
 * and 1; without the modulo, trace 1 would ask for queue 2 and the run be refused). A trace that
 * cannot be opened is named before anything runs; options of an unknown version are refused. */
START_TEST(test_trace_replay_several)
{
    static const char *const text[3] = {
        "time_ns,device,op,offset,length\n0,0,write,0,4096\n1000,0,write,8192,4096\n"
        "2000,0,read,0,4096\n",
        "time_ns,device,op,offset,length\n500,0,write,65536,8192\n1500,0,read,65536,4096\n",
        "time_ns,device,op,offset,length\n0,0,read,0,4096\n10,0,read,4096,4096\n"
        "20,0,write,131072,4096\n30,0,trim,131072,4096\n"};
    static const uint64_t n_req[3] = {3, 2, 4};
    char p[3][512];
    const char *paths[3];
    for (int k = 0; k < 3; k++) {
        char name[32];
        snprintf(name, sizeof name, "several%d.csv", k);
        paths[k] = scratch(p[k], sizeof p[k], name, text[k]);
    }
    char mpath[512];
    snprintf(mpath, sizeof mpath, "%s/models/generic-slc.json", SRCDIR);
    ssdsim_error err;
    ssdsim_model *m = NULL;
    ck_assert_int_eq(ssdsim_model_load_file(&m, mpath, &err), 0);
    ck_assert_msg(ssdsim_model_set(m, "nvme.queues", "2", &err) == 0, "%s", err.message);
    ssdsim *sim = NULL;
    ck_assert_int_eq(ssdsim_new(&sim, m, 1, &err), 0);
    ssdsim_trace_opts to = SSDSIM_TRACE_OPTS_INIT;
    to.format = SSDSIM_TRACE_CSV;
    ssdsim_replay_opts rep = SSDSIM_REPLAY_OPTS_INIT;
    rep.queue = 1;
    ssdsim_replay_traces_opts ro = SSDSIM_REPLAY_TRACES_OPTS_INIT;
    ro.trace = &to;
    ro.replay = &rep;
    const char *failed = "x";
    int rc = ssdsim_replay_traces(sim, paths, 3, &ro, &failed, &err);
    ck_assert_msg(rc == 0, "%d: %s", rc, ssdsim_errmsg(sim));
    ck_assert_ptr_null(failed);
    ck_assert_uint_eq(ssdsim_n_jobs(sim), 3);
    uint64_t total = 0;
    for (size_t k = 0; k < 3; k++) {
        ssdsim_job_info ji;
        ssdsim_op_stats st;
        ck_assert_int_eq(ssdsim_get_job(sim, k, &ji), 0);
        ck_assert_str_eq(ji.name, paths[k]);
        ck_assert_int_eq(ssdsim_get_job_op_stats(sim, k, SSDSIM_OP_ALL, &st), 0);
        ck_assert_uint_eq(st.count, n_req[k]);
        total += st.count;
    }
    ssdsim_op_stats all;
    ssdsim_get_op_stats(sim, SSDSIM_OP_ALL, &all);
    ck_assert_uint_eq(all.count, total);
    ck_assert_uint_eq(total, 9);
    ssdsim_free(sim);

    /* the second trace is missing: said, with its path, before anything ran */
    char missing[512];
    out_path(missing, sizeof missing, "no-such-trace.csv");
    unlink(missing);
    const char *bad[3] = {paths[0], missing, paths[2]};
    ck_assert_int_eq(ssdsim_new(&sim, m, 1, &err), 0);
    rc = ssdsim_replay_traces(sim, bad, 3, &ro, &failed, &err);
    ck_assert_int_eq(rc, SSDSIM_EIO);
    ck_assert_ptr_eq(failed, missing);
    ck_assert_msg(strstr(err.message, missing), "%s", err.message);
    ck_assert_uint_eq(ssdsim_n_jobs(sim), 0);
    ck_assert_uint_eq(ssdsim_sim_time_ns(sim), 0);

    ssdsim_replay_traces_opts newer = ro;
    newer.version = 99;
    ck_assert_int_eq(ssdsim_replay_traces(sim, paths, 3, &newer, &failed, &err), SSDSIM_EINVAL);
    ck_assert_ptr_null(failed);
    ck_assert_int_eq(ssdsim_replay_traces(sim, paths, 0, &ro, NULL, &err), SSDSIM_EINVAL);
    ck_assert_int_eq(ssdsim_replay_traces_opts_init(&newer, 99), SSDSIM_EINVAL);
    ck_assert_int_eq(ssdsim_replay_traces_opts_init(&newer, 0), 0);
    ck_assert_uint_eq(newer.version, SSDSIM_REPLAY_TRACES_OPTS_VERSION);
    ssdsim_free(sim);
    ssdsim_model_free(m);
}
END_TEST

static Suite *trace_suite(void)
{
    Suite *s = suite_create("trace");
    TCase *tc = tcase_create("read");
    tcase_add_test(tc, test_trace_format_names);
    tcase_add_test(tc, test_trace_sample_msr);
    tcase_add_test(tc, test_trace_sample_spc);
    tcase_add_test(tc, test_trace_sample_blkparse_queue);
    tcase_add_test(tc, test_trace_sample_blkparse_issue);
    tcase_add_test(tc, test_trace_flushes_keep_their_times);
    tcase_add_test(tc, test_trace_sample_disksim);
    tcase_add_test(tc, test_trace_sample_iolog2);
    tcase_add_test(tc, test_trace_sample_iolog3);
    tcase_add_test(tc, test_trace_sample_csv);
    tcase_add_test(tc, test_trace_headers_crlf_comments);
    tcase_add_test(tc, test_trace_probe_samples);
    tcase_add_test(tc, test_trace_probe_unknown);
    tcase_add_test(tc, test_trace_real_excerpts);
    tcase_add_test(tc, test_trace_gzip_same_as_plain);
    tcase_add_test(tc, test_trace_gzip_corrupt);
    tcase_add_test(tc, test_trace_gzip_trailing_garbage);
    tcase_add_test(tc, test_trace_stats);
    tcase_add_test(tc, test_trace_rewind_and_devices);
    tcase_add_test(tc, test_trace_long_lines_and_chunks);
    tcase_add_test(tc, test_trace_replay_several);
    suite_add_tcase(s, tc);

    tc = tcase_create("bogus");
    tcase_add_test(tc, test_trace_bad_msr);
    tcase_add_test(tc, test_trace_bad_spc);
    tcase_add_test(tc, test_trace_bad_disksim);
    tcase_add_test(tc, test_trace_bad_blkparse);
    tcase_add_test(tc, test_trace_bad_iolog);
    tcase_add_test(tc, test_trace_bad_csv_and_args);
    tcase_add_test(tc, test_trace_skip_bad_lines);
    suite_add_tcase(s, tc);

    tc = tcase_create("info");
    tcase_add_test(tc, test_trace_info_footprint_by_hand);
    tcase_add_test(tc, test_trace_info_timing_and_order);
    tcase_add_test(tc, test_trace_info_footprint_large);
    suite_add_tcase(s, tc);

    tc = tcase_create("write");
    tcase_add_test(tc, test_trace_round_trips);
    tcase_add_test(tc, test_trace_writer_text);
    tcase_add_test(tc, test_trace_writer_errors);
    suite_add_tcase(s, tc);

    tc = tcase_create("cli");
    tcase_add_test(tc, test_trace_cli_info);
    tcase_add_test(tc, test_trace_cli_convert);
    tcase_add_test(tc, test_trace_cli_errors);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return test_run_suite(trace_suite());
}
