/* fuzz_trace.c: libFuzzer harness of the trace readers (libssdsim/trace/: reader.c, formats.c,
 * info.c; the CSV writer for the round trip), every format: the probe (ssdsim_trace_probe and
 * AUTO) and each explicit format, plain or gzip (the input may be gzip-compressed: the reader
 * tells by the magic bytes).
 *
 * The input is written to a scratch file and read as each format twice: strictly with the
 * default options, and skipping bad lines with the other options (blkparse issue events,
 * DiskSim reads as flags 0 and nanosecond times, a device filter). Invariants: every request is
 * a read, write or trim of 1 to 2^32 - 1 bytes whose end fits in 64 bits, on a line that does
 * not go backwards; the first request is at time 0; a rewind gives the same requests again; the
 * requests written as ssdsim CSV read back identical; the summary (ssdsim_trace_info_file)
 * counts what the reader returned. Errors name the file and are one line.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "ssdsim/trace.h"

/* Requests read per pass at most (a small gzip input can expand a lot). */
#define MAX_REQS 20000

struct reqs {
    ssdsim_trace_req *r;
    size_t n, cap;
};

static void push(struct reqs *v, const ssdsim_trace_req *r)
{
    if (v->n == v->cap) {
        v->cap = v->cap ? 2 * v->cap : 64;
        v->r = realloc(v->r, v->cap * sizeof *v->r);
        if (!v->r)
            abort();
    }
    v->r[v->n++] = *r;
}

static void check_error(int rc, const ssdsim_error *err)
{
    FUZZ_CHECK(rc < 0 && rc >= -(SSDSIM_N_ERRORS - 1), "code %d", rc);
    FUZZ_CHECK(err->message[0] != '\0', "empty message");
    FUZZ_CHECK(strchr(err->message, '\n') == NULL, "message on several lines: %s", err->message);
    FUZZ_CHECK(strstr(err->message, "fuzz-") != NULL || rc == SSDSIM_ENOMEM,
               "message does not name the file: %s", err->message);
}

/* Read up to MAX_REQS requests; returns the reader's last code (0 at the end, 1 when cut off,
 * negative on an error). */
static int read_all(ssdsim_trace *t, struct reqs *out)
{
    ssdsim_trace_req req;
    ssdsim_error err;
    uint64_t last_line = 0;
    for (;;) {
        if (out->n >= MAX_REQS)
            return 1;
        memset(&err, 0, sizeof err);
        memset(&req, 0xa5, sizeof req);
        int rc = ssdsim_trace_next(t, &req, &err);
        if (rc <= 0) {
            if (rc < 0)
                check_error(rc, &err);
            return rc;
        }
        FUZZ_CHECK(rc == 1, "next returned %d", rc);
        FUZZ_CHECK(req.op == SSDSIM_OP_READ || req.op == SSDSIM_OP_WRITE ||
                       req.op == SSDSIM_OP_TRIM,
                   "op %d", (int)req.op);
        FUZZ_CHECK(req.length >= 1 && req.length <= UINT32_MAX, "length %llu",
                   (unsigned long long)req.length);
        FUZZ_CHECK(req.offset <= UINT64_MAX - req.length, "end beyond 2^64");
        FUZZ_CHECK(req.line >= 1 && req.line >= last_line, "line %llu after %llu",
                   (unsigned long long)req.line, (unsigned long long)last_line);
        FUZZ_CHECK(out->n > 0 || req.time_ns == 0, "first request at %llu ns",
                   (unsigned long long)req.time_ns);
        last_line = req.line;
        push(out, &req);
    }
}

static int same_req(const ssdsim_trace_req *a, const ssdsim_trace_req *b, int with_line)
{
    return a->time_ns == b->time_ns && a->op == b->op && a->offset == b->offset &&
           a->length == b->length && a->device == b->device && (!with_line || a->line == b->line);
}

/* The requests through the CSV writer and back. */
static void csv_round_trip(const struct reqs *v)
{
    const char *path = fuzz_file("fuzz-out.csv", "", 0);
    ssdsim_trace_writer *w = NULL;
    ssdsim_error err;
    memset(&err, 0, sizeof err);
    FUZZ_CHECK(ssdsim_trace_writer_open(&w, path, SSDSIM_TRACE_CSV, NULL, &err) == 0, "%s",
               err.message);
    for (size_t i = 0; i < v->n; i++)
        FUZZ_CHECK(ssdsim_trace_writer_put(w, &v->r[i], &err) == 0, "put %zu: %s", i, err.message);
    FUZZ_CHECK(ssdsim_trace_writer_close(w, &err) == 0, "%s", err.message);
    ssdsim_trace_opts o;
    memset(&o, 0, sizeof o);
    o.format = SSDSIM_TRACE_CSV;
    ssdsim_trace *t = NULL;
    FUZZ_CHECK(ssdsim_trace_open(&t, path, &o, &err) == 0, "%s", err.message);
    struct reqs back = {0};
    int rc = read_all(t, &back);
    FUZZ_CHECK(rc == 0 || (rc == 1 && v->n >= MAX_REQS), "CSV read back: %d: %s", rc, err.message);
    FUZZ_CHECK(back.n == v->n, "%zu requests written, %zu read back", v->n, back.n);
    for (size_t i = 0; i < v->n; i++)
        FUZZ_CHECK(same_req(&v->r[i], &back.r[i], 0), "request %zu differs after CSV", i);
    ssdsim_trace_close(t);
    free(back.r);
}

static void one_pass(const char *path, ssdsim_trace_format f, int lenient)
{
    static const uint32_t devices[] = {0, 1};
    ssdsim_trace_opts o;
    memset(&o, 0, sizeof o);
    o.format = f;
    if (lenient) {
        o.skip_bad_lines = 1;
        o.blkparse_issue = 1;
        o.disksim_read_is_zero = 1;
        o.disksim_time_unit_ns = 1;
        o.devices = devices;
        o.n_devices = 2;
    }
    ssdsim_trace *t = NULL;
    ssdsim_error err;
    memset(&err, 0, sizeof err);
    int rc = ssdsim_trace_open(&t, path, &o, &err);
    if (rc != 0) {
        FUZZ_CHECK(t == NULL, "failed open left a reader");
        check_error(rc, &err);
        return;
    }
    FUZZ_CHECK(f == SSDSIM_TRACE_AUTO || ssdsim_trace_get_format(t) == f, "format changed");
    FUZZ_CHECK(ssdsim_trace_get_format(t) != SSDSIM_TRACE_AUTO, "probe left AUTO");
    struct reqs first = {0}, again = {0};
    int rc1 = read_all(t, &first);
    uint64_t bad = ssdsim_trace_bad_lines(t);
    FUZZ_CHECK(lenient || bad == 0, "bad lines counted without skip_bad_lines");
    FUZZ_CHECK(ssdsim_trace_rewind(t, &err) == 0, "rewind: %s", err.message);
    FUZZ_CHECK(ssdsim_trace_bad_lines(t) == 0, "bad lines kept over a rewind");
    int rc2 = read_all(t, &again);
    FUZZ_CHECK(rc1 == rc2, "after a rewind: %d, before: %d", rc2, rc1);
    FUZZ_CHECK(first.n == again.n, "%zu requests, %zu after a rewind", first.n, again.n);
    for (size_t i = 0; i < first.n; i++)
        FUZZ_CHECK(same_req(&first.r[i], &again.r[i], 1), "request %zu differs after rewind", i);
    FUZZ_CHECK(ssdsim_trace_bad_lines(t) == bad, "bad lines differ after a rewind");
    ssdsim_trace_close(t);

    if (rc1 == 0) {
        ssdsim_trace_info info;
        memset(&err, 0, sizeof err);
        rc = ssdsim_trace_info_file(path, &o, &info, &err);
        FUZZ_CHECK(rc == 0, "info fails where the reader did not: %s", err.message);
        FUZZ_CHECK(info.requests == first.n, "info: %llu requests, reader: %zu",
                   (unsigned long long)info.requests, first.n);
        FUZZ_CHECK(info.count[0] + info.count[1] + info.count[2] == info.requests, "info counts");
        FUZZ_CHECK(info.bad_lines == bad, "info: bad lines");
        uint64_t hist = 0;
        for (int i = 0; i < SSDSIM_TRACE_SIZE_BUCKETS; i++)
            hist += info.size_hist[i];
        FUZZ_CHECK(hist == info.requests, "size histogram");
        FUZZ_CHECK(info.footprint_write_bytes <= info.footprint_bytes, "footprints");
        FUZZ_CHECK(info.requests == 0 || info.min_length <= info.max_length, "lengths");
    }
    if (lenient && first.n)
        csv_round_trip(&first);
    free(first.r);
    free(again.r);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *path = fuzz_file("fuzz-trace", data, size);
    ssdsim_trace_format probed;
    ssdsim_error err;
    memset(&err, 0, sizeof err);
    int rc = ssdsim_trace_probe(path, &probed, &err);
    if (rc == 0)
        FUZZ_CHECK(probed > SSDSIM_TRACE_AUTO && probed < SSDSIM_TRACE_N_FORMATS, "probe: %d",
                   (int)probed);
    else
        check_error(rc, &err);
    for (int f = 0; f < SSDSIM_TRACE_N_FORMATS; f++) {
        one_pass(path, (ssdsim_trace_format)f, 0);
        one_pass(path, (ssdsim_trace_format)f, 1);
    }
    return 0;
}
