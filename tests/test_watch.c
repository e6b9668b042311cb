/* test_watch.c: what `ssdsim run` writes request by request (sim/watch.c): --record (a trace of
 * every issued request), --latency-log (a CSV row per completed request) and the fio logs a
 * job file asks for (write_lat_log, write_iops_log, write_bw_log, log_avg_msec), run as a user
 * runs them, through the built command.
 *
 * The latency log is checked against the completion contract (latency = complete - submit =
 * queue + frontend + flash + transfer), the recorded trace against the latency log (read back
 * with the library's trace reader), and the fio logs against figures derived independently
 * from the latency log. The library's fio logs (ssdsim_fio_logs_*) are checked from C against
 * figures derived from the completions an observer saw. Files go to BUILDDIR/tests/out/.
 */
#include <cjson/cJSON.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmdtest.h"
#include "ssdsim/measure.h"
#include "ssdsim/ssdsim.h"
#include "ssdsim/trace.h"
#include "testutil.h"

/* Shrink the built-in model: runs stay short. */
#define SMALL "--set", "geometry.blocks_per_plane=64"

/* One row of the latency log. */
struct row {
    uint64_t id;
    int job; /* -1 when empty */
    int op;
    uint64_t offset, length, submit, complete, latency, queue, frontend, flash, transfer, gc;
};

static const char *const latlog_header =
    "id,job,op,offset,length,submit_ns,complete_ns,latency_ns,queue_ns,frontend_ns,flash_ns,"
    "transfer_ns,gc_wait_ns";

/* Parse a latency log; every row is checked against the completion contract. */
static struct row *read_latlog(const char *path, size_t *n_rows)
{
    char *text = read_file(path, NULL);
    ck_assert_msg(text != NULL, "%s missing", path);
    char *save = NULL;
    char *line = strtok_r(text, "\n", &save);
    ck_assert_ptr_nonnull(line);
    ck_assert_str_eq(line, latlog_header);
    size_t cap = 256, n = 0;
    struct row *rows = malloc(cap * sizeof *rows);
    while ((line = strtok_r(NULL, "\n", &save)) != NULL) {
        if (n == cap) {
            cap *= 2;
            rows = realloc(rows, cap * sizeof *rows);
        }
        struct row *r = &rows[n++];
        char job[16] = "", op[16] = "";
        int got =
            sscanf(line,
                   "%" SCNu64 ",%15[0-9],%15[a-z],%" SCNu64 ",%" SCNu64 ",%" SCNu64 ",%" SCNu64
                   ",%" SCNu64 ",%" SCNu64 ",%" SCNu64 ",%" SCNu64 ",%" SCNu64 ",%" SCNu64,
                   &r->id, job, op, &r->offset, &r->length, &r->submit, &r->complete, &r->latency,
                   &r->queue, &r->frontend, &r->flash, &r->transfer, &r->gc);
        ck_assert_msg(got == 13, "bad latency-log row (%d fields): %s", got, line);
        r->job = job[0] ? atoi(job) : -1;
        r->op = !strcmp(op, "read") ? 0 : !strcmp(op, "write") ? 1 : !strcmp(op, "trim") ? 2 : -1;
        ck_assert_msg(r->op >= 0, "op '%s'", op);
        ck_assert_uint_eq(r->latency, r->complete - r->submit);
        ck_assert_uint_eq(r->latency, r->queue + r->frontend + r->flash + r->transfer);
        ck_assert_uint_le(r->gc, r->flash);
        if (n > 1)
            ck_assert_uint_ge(r->complete, rows[n - 2].complete); /* in completion order */
    }
    free(text);
    *n_rows = n;
    return rows;
}

static int cmp_pair(const void *a, const void *b)
{
    const uint64_t *x = a, *y = b;
    if (x[0] != y[0])
        return x[0] < y[0] ? -1 : 1;
    return x[1] < y[1] ? -1 : x[1] > y[1];
}

/* One line of a fio log: "time, value, dir, bs, prio". */
struct entry {
    uint64_t t, v, bs;
    int dir, prio;
};

static struct entry *read_fio_log(const char *path, size_t *n_out)
{
    char *text = read_file(path, NULL);
    ck_assert_msg(text != NULL, "%s missing", path);
    size_t cap = 64, n = 0;
    struct entry *e = malloc(cap * sizeof *e);
    char *save = NULL;
    for (char *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        if (n == cap) {
            cap *= 2;
            e = realloc(e, cap * sizeof *e);
        }
        int used = 0;
        int got = sscanf(line, "%" SCNu64 ", %" SCNu64 ", %d, %" SCNu64 ", %d%n", &e[n].t, &e[n].v,
                         &e[n].dir, &e[n].bs, &e[n].prio, &used);
        ck_assert_msg(got == 5 && line[used] == 0, "%s: bad line '%s'", path, line);
        ck_assert_int_eq(e[n].prio, 0);
        if (n > 0)
            ck_assert_uint_ge(e[n].t, e[n - 1].t);
        n++;
    }
    free(text);
    *n_out = n;
    return e;
}

static const char *outp(char *buf, size_t len, const char *name)
{
    return out_path(buf, len, name);
}

/* ------------------------------------------------------------------------------------------ */
/* Tests                                                                                       */

START_TEST(test_watch_record_and_latency_log)
{
    char wl[1024], rec[1024], lat[1024], json[1024];
    outp(wl, sizeof wl, "watch-wl.json");
    outp(rec, sizeof rec, "watch-record.iolog");
    outp(lat, sizeof lat, "watch-lat.csv");
    outp(json, sizeof json, "watch-fio.json");
    write_file(wl, "{\"rw\":\"randwrite\",\"bs\":\"4k\",\"iodepth\":2,\"number_ios\":200}\n");
    struct cmd c;
    RUN(&c, "run", "--workload", wl, SMALL, "--record", rec, "--latency-log", lat, "--json", json,
        "--output-format", "fio-json", "--quiet");
    ck_assert_msg(c.status == 0, "status %d: %s", c.status, c.err);
    ck_assert_uint_eq(c.n_err, 0);
    cmd_free(&c);

    size_t n;
    struct row *rows = read_latlog(lat, &n);
    ck_assert_uint_eq(n, 200);
    uint64_t(*from_log)[2] = malloc(n * sizeof *from_log);
    for (size_t i = 0; i < n; i++) {
        ck_assert_int_eq(rows[i].job, 0);
        ck_assert_int_eq(rows[i].op, SSDSIM_OP_WRITE);
        ck_assert_uint_eq(rows[i].length, 4096);
        from_log[i][0] = rows[i].offset;
        from_log[i][1] = rows[i].length;
    }
    /* The recorded trace: 200 requests, the same offsets and lengths, issued in submit order
     * (fio iolog v3 keeps microseconds: times agree to within 1 us). */
    ssdsim_trace_opts to = {.format = SSDSIM_TRACE_FIO_IOLOG3};
    ssdsim_trace *t = NULL;
    ssdsim_error err;
    ck_assert_msg(ssdsim_trace_open(&t, rec, &to, &err) == 0, "%s", err.message);
    uint64_t(*from_trace)[2] = malloc(n * sizeof *from_trace);
    size_t k = 0;
    ssdsim_trace_req r;
    int rc;
    uint64_t first_submit = UINT64_MAX;
    for (size_t i = 0; i < n; i++)
        first_submit = rows[i].submit < first_submit ? rows[i].submit : first_submit;
    while ((rc = ssdsim_trace_next(t, &r, &err)) == 1) {
        ck_assert_uint_lt(k, n);
        ck_assert_int_eq(r.op, SSDSIM_OP_WRITE);
        from_trace[k][0] = r.offset;
        from_trace[k][1] = r.length;
        /* a request with this offset was submitted at about this time */
        bool found = false;
        for (size_t i = 0; i < n && !found; i++) {
            uint64_t rel = rows[i].submit - first_submit;
            uint64_t d = rel > r.time_ns ? rel - r.time_ns : r.time_ns - rel;
            found = rows[i].offset == r.offset && d <= 1000;
        }
        ck_assert_msg(found,
                      "trace request at %" PRIu64 " ns, offset %" PRIu64 " not in the "
                      "latency log",
                      r.time_ns, r.offset);
        k++;
    }
    ck_assert_msg(rc == 0, "%s", err.message);
    ssdsim_trace_close(t);
    ck_assert_uint_eq(k, 200);
    qsort(from_log, n, sizeof *from_log, cmp_pair);
    qsort(from_trace, n, sizeof *from_trace, cmp_pair);
    ck_assert_int_eq(memcmp(from_log, from_trace, n * sizeof *from_log), 0);
    free(from_log);
    free(from_trace);
    free(rows);

    /* The fio-style JSON of the same run. */
    char *text = read_file(json, NULL);
    ck_assert_ptr_nonnull(text);
    cJSON *root = cJSON_Parse(text);
    ck_assert_ptr_nonnull(root);
    const cJSON *job = cJSON_GetArrayItem(cJSON_GetObjectItem(root, "jobs"), 0);
    const cJSON *w = cJSON_GetObjectItem(job, "write");
    ck_assert_int_eq((int)cJSON_GetObjectItem(w, "total_ios")->valuedouble, 200);
    ck_assert_str_eq(cJSON_GetObjectItem(root, "fio version")->valuestring + 7, ssdsim_version());
    cJSON_Delete(root);
    free(text);
}
END_TEST

/* The same run twice gives the same files (nothing depends on the wall clock). */
START_TEST(test_watch_deterministic)
{
    char wl[1024], a[1024], b[1024];
    outp(wl, sizeof wl, "watch-det.json");
    outp(a, sizeof a, "watch-det-a.csv");
    outp(b, sizeof b, "watch-det-b.csv");
    write_file(wl, "{\"rw\":\"randrw\",\"bs\":\"4k\",\"iodepth\":4,\"number_ios\":300}\n");
    struct cmd c;
    RUN(&c, "run", "--workload", wl, SMALL, "--latency-log", a, "--quiet");
    ck_assert_msg(c.status == 0, "%s", c.err);
    cmd_free(&c);
    RUN(&c, "run", "--workload", wl, SMALL, "--latency-log", b, "--quiet");
    ck_assert_msg(c.status == 0, "%s", c.err);
    cmd_free(&c);
    char *x = read_file(a, NULL), *y = read_file(b, NULL);
    ck_assert_ptr_nonnull(x);
    ck_assert_ptr_nonnull(y);
    ck_assert_str_eq(x, y);
    free(x);
    free(y);
}
END_TEST

/* Without log_avg_msec: one entry per I/O, in the files fio would write. */
START_TEST(test_watch_fio_logs_per_io)
{
    char job[1024], lat[1024], pre[1024], path[1200];
    outp(job, sizeof job, "watch-logs.fio");
    outp(lat, sizeof lat, "watch-logs-lat.csv");
    outp(pre, sizeof pre, "watch-logs");
    FILE *f = fopen(job, "w");
    ck_assert_ptr_nonnull(f);
    fprintf(f,
            "[global]\n"
            "bs=4k\n"
            "iodepth=2\n"
            "number_ios=50\n"
            "[w]\n"
            "rw=randwrite\n"
            "numjobs=2\n"
            "write_lat_log=%s-w\n"
            "write_iops_log=%s-w\n"
            "write_bw_log=%s-w\n"
            "[r]\n"
            "rw=randread\n"
            "write_lat_log=%s-r\n",
            pre, pre, pre, pre);
    ck_assert_int_eq(fclose(f), 0);
    struct cmd c;
    RUN(&c, "run", "--workload", job, SMALL, "--latency-log", lat, "--quiet");
    ck_assert_msg(c.status == 0, "status %d: %s", c.status, c.err);
    cmd_free(&c);
    size_t n;
    struct row *rows = read_latlog(lat, &n);
    ck_assert_uint_eq(n, 150);
    /* Job numbers over the run, 1-based: w is 1 and 2, r is 3. */
    for (int clone = 0; clone < 3; clone++) {
        const char *who = clone < 2 ? "w" : "r";
        const char *kinds[5] = {"lat", "clat", "slat", "iops", "bw"};
        for (int kd = 0; kd < 5; kd++) {
            snprintf(path, sizeof path, "%s-%s_%s.%d.log", pre, who, kinds[kd], clone + 1);
            bool want = clone < 2 || kd < 3;
            ck_assert_msg(file_exists(path) == want, "%s %s", path, want ? "missing" : "written");
            if (!want)
                continue;
            size_t ne;
            struct entry *e = read_fio_log(path, &ne);
            if (kd == 2) { /* slat: no submission latency, an empty log as fio's sync engines */
                ck_assert_uint_eq(ne, 0);
                free(e);
                continue;
            }
            ck_assert_uint_eq(ne, 50);
            /* Entry i is the clone's i-th completion. */
            size_t i = 0;
            for (size_t j = 0; j < n; j++) {
                if (rows[j].job != clone)
                    continue;
                const struct row *r = &rows[j];
                ck_assert_uint_eq(e[i].t, r->complete / 1000000);
                ck_assert_int_eq(e[i].dir, clone < 2 ? 1 : 0);
                ck_assert_uint_eq(e[i].bs, 4096);
                uint64_t want_v = kd <= 1   ? r->latency
                                  : kd == 3 ? 1
                                            : r->length * 1000000 / r->latency;
                ck_assert_uint_eq(e[i].v, want_v);
                i++;
            }
            ck_assert_uint_eq(i, 50);
            free(e);
        }
    }
    free(rows);
}
END_TEST

/* log_avg_msec: per window and direction, the mean latency, the I/O rate and the bandwidth,
 * derived here from the latency log. */
START_TEST(test_watch_fio_logs_windowed)
{
    char job[1024], lat[1024], pre[1024], path[1200];
    outp(job, sizeof job, "watch-avg.fio");
    outp(lat, sizeof lat, "watch-avg-lat.csv");
    outp(pre, sizeof pre, "watch-avg");
    const uint64_t W = 5;
    FILE *f = fopen(job, "w");
    ck_assert_ptr_nonnull(f);
    fprintf(f,
            "[mix]\n"
            "rw=randrw\n"
            "bs=4k\n"
            "iodepth=4\n"
            "number_ios=1500\n"
            "log_avg_msec=%" PRIu64 "\n"
            "write_lat_log=%s\n"
            "write_iops_log=%s\n"
            "write_bw_log=%s\n",
            W, pre, pre, pre);
    ck_assert_int_eq(fclose(f), 0);
    struct cmd c;
    RUN(&c, "run", "--workload", job, SMALL, "--latency-log", lat, "--quiet");
    ck_assert_msg(c.status == 0, "status %d: %s", c.status, c.err);
    cmd_free(&c);
    size_t n;
    struct row *rows = read_latlog(lat, &n);
    ck_assert_uint_eq(n, 1500);
    uint64_t last_ms = rows[n - 1].complete / 1000000;
    uint64_t n_win = last_ms / W + 1;
    ck_assert_uint_ge(n_win, 4); /* the run spans several windows */
    uint64_t(*cnt)[3] = calloc(n_win, sizeof *cnt), (*sum)[3] = calloc(n_win, sizeof *sum),
    (*bytes)[3] = calloc(n_win, sizeof *bytes);
    for (size_t j = 0; j < n; j++) {
        uint64_t k = rows[j].complete / 1000000 / W;
        cnt[k][rows[j].op]++;
        sum[k][rows[j].op] += rows[j].latency;
        bytes[k][rows[j].op] += rows[j].length;
    }
    const char *kinds[4] = {"lat", "clat", "iops", "bw"};
    for (int kd = 0; kd < 4; kd++) {
        snprintf(path, sizeof path, "%s_%s.1.log", pre, kinds[kd]);
        size_t ne;
        struct entry *e = read_fio_log(path, &ne);
        size_t i = 0;
        for (uint64_t k = 0; k < n_win; k++) {
            bool last = k == n_win - 1;
            if (last && kd >= 2) /* no partial window for the rates, as fio */
                break;
            for (int d = 0; d < 3; d++) {
                if (!cnt[k][d])
                    continue;
                ck_assert_msg(i < ne, "%s: too few entries", path);
                ck_assert_uint_eq(e[i].t, last ? last_ms : (k + 1) * W);
                ck_assert_int_eq(e[i].dir, d);
                ck_assert_uint_eq(e[i].bs, 0);
                uint64_t want = kd <= 1   ? (2 * sum[k][d] + cnt[k][d]) / (2 * cnt[k][d])
                                : kd == 2 ? cnt[k][d] * 1000 / W
                                          : bytes[k][d] * 1000 / W / 1024;
                ck_assert_msg(e[i].v == want, "%s line %zu: %" PRIu64 ", want %" PRIu64, path,
                              i + 1, e[i].v, want);
                i++;
            }
        }
        ck_assert_uint_eq(i, ne);
        free(e);
    }
    snprintf(path, sizeof path, "%s_slat.1.log", pre);
    ck_assert(file_exists(path));
    free(cnt);
    free(sum);
    free(bytes);
    free(rows);
}
END_TEST

/* Outputs that cannot be written: one error line, exit status 1. A write that fails during the
 * run (DiskSim traces cannot hold trims) is reported when the run ends. */
START_TEST(test_watch_bogus)
{
    char wl[1024], bad[1024], rec[1024];
    outp(wl, sizeof wl, "watch-bogus.json");
    write_file(wl, "{\"rw\":\"randtrim\",\"bs\":\"4k\",\"number_ios\":20}\n");
    snprintf(bad, sizeof bad, "%s/tests/out/no-such-dir/x.csv", BUILDDIR);
    struct cmd c;
    RUN(&c, "run", "--workload", wl, SMALL, "--latency-log", bad, "--quiet");
    assert_one_error(&c, 1, "no-such-dir");
    cmd_free(&c);
    RUN(&c, "run", "--workload", wl, SMALL, "--record", bad, "--quiet");
    assert_one_error(&c, 1, "no-such-dir");
    cmd_free(&c);
    outp(rec, sizeof rec, "watch-bogus.disksim");
    RUN(&c, "run", "--workload", wl, SMALL, "--record", rec, "--record-format", "disksim",
        "--quiet");
    assert_one_error(&c, 1, "--record");
    cmd_free(&c);
    /* A job file asking for a log in a directory that does not exist. */
    char job[1024];
    outp(job, sizeof job, "watch-bogus.fio");
    FILE *f = fopen(job, "w");
    ck_assert_ptr_nonnull(f);
    fprintf(f, "[j]\nrw=randwrite\nnumber_ios=5\nwrite_lat_log=%s/tests/out/no-such-dir/j\n",
            BUILDDIR);
    ck_assert_int_eq(fclose(f), 0);
    RUN(&c, "run", "--workload", job, SMALL, "--quiet");
    assert_one_error(&c, 1, "no-such-dir/j_lat.1.log");
    cmd_free(&c);
}
END_TEST

/* ------------------------------------------------------------------------------------------ */
/* The library's fio logs (ssdsim_fio_logs_*), from C                                          */

#define MAX_DONE 4096

/* What the observer saw and what the logs made. */
struct libfio {
    ssdsim_fio_logs *logs;
    ssdsim_completion done[MAX_DONE];
    size_t n_done;
    ssdsim_fio_log_entry e[4 * MAX_DONE];
    size_t n_e;
};

static void lib_entry(const ssdsim_fio_log_entry *e, void *ud)
{
    struct libfio *x = ud;
    ck_assert(x->n_e < 4 * MAX_DONE);
    x->e[x->n_e++] = *e;
}

static void lib_complete(const ssdsim_completion *c, void *ud)
{
    struct libfio *x = ud;
    ck_assert(x->n_done < MAX_DONE);
    x->done[x->n_done++] = *c;
    ssdsim_fio_logs_complete(x->logs, c);
}

/* Run `job` (a fio job file) on the shrunk built-in model with the logs attached. */
static struct libfio *lib_run(const char *job)
{
    struct libfio *x = calloc(1, sizeof *x);
    ssdsim_model *m = NULL;
    ssdsim_workload *wl = NULL;
    ssdsim *sim = NULL;
    ssdsim_error err;
    ck_assert_int_eq(ssdsim_model_default(&m, &err), 0);
    ck_assert_int_eq(ssdsim_model_set(m, "geometry.blocks_per_plane", "64", &err), 0);
    ck_assert_msg(ssdsim_workload_load_string(&wl, job, "job", &err) == 0, "%s", err.message);
    ck_assert_int_eq(ssdsim_new(&sim, m, 1, &err), 0);
    ck_assert_int_eq(ssdsim_fio_logs_new(&x->logs, wl, lib_entry, x, &err), 0);
    ck_assert_ptr_nonnull(x->logs);
    ssdsim_fio_logs_start(x->logs, sim);
    ssdsim_observer obs = {.on_complete = lib_complete, .userdata = x};
    ssdsim_set_observer(sim, &obs);
    ck_assert_msg(ssdsim_run(sim, wl, NULL) == 0, "%s", ssdsim_errmsg(sim));
    ssdsim_fio_logs_finish(x->logs);
    ssdsim_free(sim);
    ssdsim_workload_free(wl);
    ssdsim_model_free(m);
    return x;
}

/* Per I/O: an entry in each asked log per completion, value derived from the completion
 * (latency, 1, bytes x 10^6 / latency), time its completion in ms from the start (no ramp);
 * file names by clone; nothing for a workload without logs. */
START_TEST(test_watch_lib_fio_logs_per_io)
{
    struct libfio *x = lib_run("[w]\nrw=randwrite\nbs=4k\nnumber_ios=300\niodepth=4\n"
                               "numjobs=2\nwrite_lat_log=a\nwrite_bw_log\n");
    ck_assert_uint_eq(ssdsim_fio_logs_n_clones(x->logs), 2);
    ck_assert_str_eq(ssdsim_fio_logs_path(x->logs, 1, SSDSIM_FIO_LOG_CLAT), "a_clat.2.log");
    ck_assert_str_eq(ssdsim_fio_logs_path(x->logs, 0, SSDSIM_FIO_LOG_BW), "w_bw.1.log");
    ck_assert_ptr_null(ssdsim_fio_logs_path(x->logs, 0, SSDSIM_FIO_LOG_IOPS));
    ck_assert_ptr_null(ssdsim_fio_logs_path(x->logs, 2, SSDSIM_FIO_LOG_LAT));
    ck_assert_uint_eq(x->n_done, 600);
    ck_assert_uint_eq(x->n_e, 3 * x->n_done); /* lat, clat, bw: no slat, no iops */
    for (size_t i = 0; i < x->n_done; i++) {
        const ssdsim_completion *c = &x->done[i];
        uint64_t lat = c->complete_ns - c->submit_ns;
        const ssdsim_fio_log_entry *e = &x->e[3 * i];
        ck_assert_uint_eq(e[0].clone, c->job);
        ck_assert_int_eq(e[0].kind, SSDSIM_FIO_LOG_LAT);
        ck_assert_int_eq(e[1].kind, SSDSIM_FIO_LOG_CLAT);
        ck_assert_int_eq(e[2].kind, SSDSIM_FIO_LOG_BW);
        ck_assert_uint_eq(e[0].value, lat);
        ck_assert_uint_eq(e[1].value, lat);
        ck_assert_uint_eq(e[2].value, 4096 * 1000000u / lat);
        ck_assert_uint_eq(e[0].t_ms, c->complete_ns / 1000000u);
        ck_assert_int_eq(e[0].dir, 1);
        ck_assert_uint_eq(e[0].bs, 4096);
    }
    ssdsim_fio_logs_free(x->logs);
    free(x);

    ssdsim_workload *wl = NULL;
    ssdsim_fio_logs *l = (ssdsim_fio_logs *)1;
    ssdsim_error err;
    ck_assert_int_eq(ssdsim_workload_load_string(&wl, "[w]\nrw=read\nnumber_ios=3\n", "j", &err),
                     0);
    ck_assert_int_eq(ssdsim_fio_logs_new(&l, wl, lib_entry, NULL, &err), 0);
    ck_assert_ptr_null(l);
    ck_assert_int_eq(ssdsim_fio_logs_new(&l, wl, NULL, NULL, &err), SSDSIM_EINVAL);
    ck_assert_int_eq(ssdsim_fio_logs_new(&l, NULL, lib_entry, NULL, &err), SSDSIM_EINVAL);
    ck_assert_uint_eq(ssdsim_fio_logs_n_clones(NULL), 0);
    ssdsim_fio_logs_complete(NULL, NULL);
    ssdsim_fio_logs_finish(NULL);
    ssdsim_fio_logs_free(NULL);
    ssdsim_workload_free(wl);
}
END_TEST

/* log_avg_msec 2: per window [2k, 2k+2) ms that saw I/O, stamped 2k+2, the mean latency
 * (rounded), I/Os x 1000 / 2 and KiB/s; the last, partial window only in the latency log. */
START_TEST(test_watch_lib_fio_logs_windowed)
{
    struct libfio *x = lib_run("[w]\nrw=randread\nbs=4k\nnumber_ios=2000\niodepth=8\n"
                               "write_lat_log=w\nwrite_iops_log=w\nwrite_bw_log=w\n"
                               "log_avg_msec=2\n");
    uint64_t last_ms = x->done[x->n_done - 1].complete_ns / 1000000u;
    uint64_t n_win = last_ms / 2 + 1;
    uint64_t *n = calloc(n_win, sizeof *n), *sum = calloc(n_win, sizeof *sum);
    for (size_t i = 0; i < x->n_done; i++) {
        const ssdsim_completion *c = &x->done[i];
        uint64_t w = c->complete_ns / 1000000u / 2;
        n[w]++;
        sum[w] += c->complete_ns - c->submit_ns;
    }
    size_t k = 0;
    for (uint64_t w = 0; w < n_win; w++) {
        if (!n[w])
            continue;
        bool last = w + 1 == n_win;
        uint64_t t = last ? last_ms : 2 * w + 2;
        uint64_t mean = (2 * sum[w] + n[w]) / (2 * n[w]);
        ck_assert_uint_lt(k, x->n_e);
        ck_assert_int_eq(x->e[k].kind, SSDSIM_FIO_LOG_LAT);
        ck_assert_uint_eq(x->e[k].t_ms, t);
        ck_assert_uint_eq(x->e[k].value, mean);
        ck_assert_uint_eq(x->e[k].bs, 0);
        ck_assert_int_eq(x->e[k + 1].kind, SSDSIM_FIO_LOG_CLAT);
        k += 2;
        if (last)
            break;
        ck_assert_int_eq(x->e[k].kind, SSDSIM_FIO_LOG_IOPS);
        ck_assert_uint_eq(x->e[k].value, n[w] * 1000 / 2);
        ck_assert_int_eq(x->e[k + 1].kind, SSDSIM_FIO_LOG_BW);
        ck_assert_uint_eq(x->e[k + 1].value, n[w] * 4096 * 1000 / 2 / 1024);
        k += 2;
    }
    ck_assert_uint_eq(k, x->n_e);
    free(n);
    free(sum);
    ssdsim_fio_logs_free(x->logs);
    free(x);
}
END_TEST

static Suite *watch_suite(void)
{
    Suite *s = suite_create("watch");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_watch_record_and_latency_log);
    tcase_add_test(tc, test_watch_deterministic);
    tcase_add_test(tc, test_watch_fio_logs_per_io);
    tcase_add_test(tc, test_watch_fio_logs_windowed);
    tcase_add_test(tc, test_watch_bogus);
    tcase_add_test(tc, test_watch_lib_fio_logs_per_io);
    tcase_add_test(tc, test_watch_lib_fio_logs_windowed);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return test_run_suite(watch_suite());
}
