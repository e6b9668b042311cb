/* test_flush.c: the Flush command and Force Unit Access writes (issue 17, item 3) against
 * figures derived by hand from the model: generic-slc (program 250 us, host command overhead
 * 2 us, controller 4 us) with a 1 MiB write buffer, volatile or protected, whose threshold and
 * idle flushes never start on their own in these short tests. */
#include <check.h>
#include <stdlib.h>

#include "simtest.h"
#include "ssdsim/trace.h"

#define US 1000ull
#define UNIT 4096ull
#define OVERHEAD_NS (6 * US) /* host.cmd_overhead_us 2 + controller.cmd_overhead_us 4 */
#define PROGRAM_NS (250 * US)

static ssdsim_model *model(bool plp)
{
    return st_model("generic-slc", "buffer.size=1MiB", plp ? "buffer.plp=true" : "buffer.plp=false",
                    plp ? "buffer.flush_start=0.99" : "buffer.write_cache=true",
                    "buffer.flush_start=0.99", "buffer.flush_stop=0.98",
                    "buffer.flush_idle_us=1000000000", NULL);
}

struct seen {
    uint64_t lat[64];
    uint64_t programmed_at_done[64]; /* flash pages programmed when request id completed */
    const ssdsim *sim;
};

static void on_done(const ssdsim_completion *c, void *ud)
{
    struct seen *s = ud;
    ck_assert_uint_lt(c->id, 64);
    s->lat[c->id] = c->complete_ns - c->submit_ns;
    ssdsim_device_io io;
    ck_assert_int_eq(ssdsim_get_device_io(s->sim, 0, &io), 0);
    s->programmed_at_done[c->id] = io.flash_pages_programmed;
}

static ssdsim_device_io dev_io(const ssdsim *sim)
{
    ssdsim_device_io io;
    ck_assert_int_eq(ssdsim_get_device_io(sim, 0, &io), 0);
    return io;
}

/* Volatile cache: 16 writes are acknowledged from DRAM (before any program could end); a flush
 * then completes only when all 16 units are programmed: at least one program time after it
 * arrived, with the 16 pages programmed, and nothing left to program afterwards. */
START_TEST(test_flush_drains_volatile_cache)
{
    ssdsim_model *m = model(false);
    ssdsim *sim = st_sim(m, 1);
    struct seen s = {.sim = sim};
    for (uint64_t k = 0; k < 16; k++)
        ck_assert_int_eq(ssdsim_submit(sim, SSDSIM_OP_WRITE, k * UNIT, UNIT, 0, k, on_done, &s), 0);
    ck_assert_int_eq(ssdsim_drain(sim), 0);
    for (int k = 0; k < 16; k++)
        ck_assert_uint_lt(s.lat[k], PROGRAM_NS); /* acknowledged from the cache */
    ck_assert_uint_eq(dev_io(sim).flash_pages_programmed, 0);
    uint64_t t = ssdsim_now(sim);
    ck_assert_int_eq(ssdsim_submit(sim, SSDSIM_OP_FLUSH, 0, 0, t, 20, on_done, &s), 0);
    ck_assert_int_eq(ssdsim_drain(sim), 0);
    ck_assert_uint_ge(s.lat[20], OVERHEAD_NS + PROGRAM_NS);
    ck_assert_uint_eq(s.programmed_at_done[20], 16);
    ck_assert_int_eq(ssdsim_run_until(sim, ssdsim_now(sim) + 100000 * US), 0);
    ck_assert_uint_eq(dev_io(sim).flash_pages_programmed, 16);
    /* nothing dirty now: a second flush costs the command overheads alone */
    ck_assert_int_eq(ssdsim_submit(sim, SSDSIM_OP_FLUSH, 0, 0, ssdsim_now(sim), 21, on_done, &s),
                     0);
    ck_assert_int_eq(ssdsim_drain(sim), 0);
    ck_assert_uint_eq(s.lat[21], OVERHEAD_NS);
    st_check(sim);
    ssdsim_free(sim);
    ssdsim_model_free(m);
}
END_TEST

/* A protected cache: the flush completes after the command overheads, the data stays in DRAM. */
START_TEST(test_flush_protected_cache)
{
    ssdsim_model *m = model(true);
    ssdsim *sim = st_sim(m, 1);
    struct seen s = {.sim = sim};
    for (uint64_t k = 0; k < 16; k++)
        ck_assert_int_eq(ssdsim_submit(sim, SSDSIM_OP_WRITE, k * UNIT, UNIT, 0, k, on_done, &s), 0);
    ck_assert_int_eq(ssdsim_drain(sim), 0);
    uint64_t t = ssdsim_now(sim);
    ck_assert_int_eq(ssdsim_submit(sim, SSDSIM_OP_FLUSH, 0, 0, t, 20, on_done, &s), 0);
    ck_assert_int_eq(ssdsim_drain(sim), 0);
    ck_assert_uint_eq(s.lat[20], OVERHEAD_NS);
    ck_assert_uint_eq(s.programmed_at_done[20], 0);
    ssdsim_free(sim);
    ssdsim_model_free(m);
}
END_TEST

/* FUA with a volatile cache: the write goes through to flash (its latency holds a program, and
 * its page is programmed when it completes); the plain write of another unit does not. A FUA
 * write over a unit dirty in the cache supersedes the cached copy: 2 host pages, 1 programmed
 * (the cached copy is absorbed), and a flush then finds nothing dirty. */
START_TEST(test_fua_bypasses_cache)
{
    ssdsim_model *m = model(false);
    ssdsim *sim = st_sim(m, 1);
    struct seen s = {.sim = sim};
    ssdsim_submit_opts fua = SSDSIM_SUBMIT_OPTS_INIT;
    fua.fua = true;
    ck_assert_int_eq(ssdsim_submit(sim, SSDSIM_OP_WRITE, 0, UNIT, 0, 0, on_done, &s), 0);
    ck_assert_int_eq(ssdsim_drain(sim), 0);
    ck_assert_uint_lt(s.lat[0], PROGRAM_NS);
    ck_assert_int_eq(
        ssdsim_submit_ex(sim, SSDSIM_OP_WRITE, 0, UNIT, ssdsim_now(sim), 1, on_done, &s, &fua), 0);
    ck_assert_int_eq(ssdsim_drain(sim), 0);
    ck_assert_uint_ge(s.lat[1], OVERHEAD_NS + PROGRAM_NS);
    ck_assert_uint_eq(s.programmed_at_done[1], 1);
    ssdsim_device_io io = dev_io(sim);
    ck_assert_uint_eq(io.host_pages_written, 2);
    ck_assert_uint_eq(io.buffer_absorbed, 1);
    ck_assert_int_eq(ssdsim_submit(sim, SSDSIM_OP_FLUSH, 0, 0, ssdsim_now(sim), 2, on_done, &s), 0);
    ck_assert_int_eq(ssdsim_drain(sim), 0);
    ck_assert_uint_eq(s.lat[2], OVERHEAD_NS);
    ck_assert_uint_eq(dev_io(sim).flash_pages_programmed, 1);
    st_check(sim);
    ssdsim_free(sim);
    ssdsim_model_free(m);
}
END_TEST

/* FUA with a protected cache is acknowledged from DRAM like any write. */
START_TEST(test_fua_protected)
{
    ssdsim_model *m = model(true);
    ssdsim *sim = st_sim(m, 1);
    struct seen s = {.sim = sim};
    ssdsim_submit_opts fua = SSDSIM_SUBMIT_OPTS_INIT;
    fua.fua = true;
    ck_assert_int_eq(ssdsim_submit_ex(sim, SSDSIM_OP_WRITE, 0, UNIT, 0, 0, on_done, &s, &fua), 0);
    ck_assert_int_eq(ssdsim_drain(sim), 0);
    ck_assert_uint_lt(s.lat[0], PROGRAM_NS);
    ck_assert_uint_eq(s.programmed_at_done[0], 0);
    ssdsim_free(sim);
    ssdsim_model_free(m);
}
END_TEST

/* Bad requests: a flush with data, FUA on a read, an options version from the future. */
START_TEST(test_flush_bad_input)
{
    ssdsim_model *m = model(false);
    ssdsim *sim = st_sim(m, 1);
    ck_assert_int_eq(ssdsim_submit(sim, SSDSIM_OP_FLUSH, 0, UNIT, 0, 0, NULL, NULL), SSDSIM_EINVAL);
    ck_assert_ptr_nonnull(strstr(ssdsim_errmsg(sim), "a flush has offset and length 0"));
    ssdsim_submit_opts fua = SSDSIM_SUBMIT_OPTS_INIT;
    fua.fua = true;
    ck_assert_int_eq(ssdsim_submit_ex(sim, SSDSIM_OP_READ, 0, UNIT, 0, 0, NULL, NULL, &fua),
                     SSDSIM_EINVAL);
    ck_assert_ptr_nonnull(strstr(ssdsim_errmsg(sim), "fua"));
    fua.version = SSDSIM_SUBMIT_OPTS_VERSION + 1;
    ck_assert_int_eq(ssdsim_submit_ex(sim, SSDSIM_OP_WRITE, 0, UNIT, 0, 0, NULL, NULL, &fua),
                     SSDSIM_EINVAL);
    ck_assert_ptr_nonnull(strstr(ssdsim_errmsg(sim), "ssdsim_submit_opts version"));
    ck_assert_int_eq(ssdsim_submit_opts_init(&fua, 0), 0);
    ck_assert_uint_eq(fua.version, SSDSIM_SUBMIT_OPTS_VERSION);
    ck_assert(!fua.fua);
    ssdsim_free(sim);
    ssdsim_model_free(m);
}
END_TEST

/* Trace records: blkparse RWBS "FN" (an empty flush), "WFS" (a FUA write), "FWS" (a preflush
 * write: a flush, then the write); fio iolog "sync". Version-1 readers skip them as before. */
static void read_ops(const char *path, const char *text, bool flushes, enum ssdsim_op *ops,
                     size_t *n)
{
    FILE *f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    fputs(text, f);
    fclose(f);
    ssdsim_trace_opts o = SSDSIM_TRACE_OPTS_INIT;
    o.flushes = flushes;
    ssdsim_trace *t = NULL;
    ssdsim_error err;
    ck_assert_msg(ssdsim_trace_open(&t, path, &o, &err) == 0, "%s", err.message);
    ssdsim_trace_req r;
    int rc;
    *n = 0;
    while ((rc = ssdsim_trace_next(t, &r, &err)) == 1) {
        ck_assert_uint_lt(*n, 16);
        if (r.op == SSDSIM_OP_FLUSH)
            ck_assert(r.offset == 0 && r.length == 0);
        ops[(*n)++] = r.op;
    }
    ck_assert_msg(rc == 0, "%s", err.message);
    ssdsim_trace_close(t);
}

START_TEST(test_flush_trace_records)
{
    const char *blk = "8,0 0 1 0.000000000 100 Q WS 0 + 8 [fio]\n"
                      "8,0 0 2 0.000001000 100 Q FN [fio]\n"
                      "8,0 0 3 0.000002000 100 Q WFS 8 + 8 [fio]\n"
                      "8,0 0 4 0.000003000 100 Q FWS 16 + 8 [fio]\n"
                      "8,0 0 5 0.000004000 100 Q R 0 + 8 [fio]\n";
    enum ssdsim_op ops[16];
    size_t n;
    read_ops("flush-test.blkparse", blk, true, ops, &n);
    enum ssdsim_op want[] = {SSDSIM_OP_WRITE, SSDSIM_OP_FLUSH, SSDSIM_OP_WRITE_FUA,
                             SSDSIM_OP_FLUSH, SSDSIM_OP_WRITE, SSDSIM_OP_READ};
    ck_assert_uint_eq(n, 6);
    for (size_t i = 0; i < n; i++)
        ck_assert_int_eq(ops[i], want[i]);
    read_ops("flush-test.blkparse", blk, false, ops, &n);
    enum ssdsim_op want1[] = {SSDSIM_OP_WRITE, SSDSIM_OP_WRITE, SSDSIM_OP_WRITE, SSDSIM_OP_READ};
    ck_assert_uint_eq(n, 4);
    for (size_t i = 0; i < n; i++)
        ck_assert_int_eq(ops[i], want1[i]);
    const char *iolog = "fio version 2 iolog\n/dev/x add\n/dev/x open\n/dev/x write 0 4096\n"
                        "/dev/x sync 0 0\n/dev/x datasync 0 0\n/dev/x read 0 4096\n";
    read_ops("flush-test.iolog", iolog, true, ops, &n);
    enum ssdsim_op want2[] = {SSDSIM_OP_WRITE, SSDSIM_OP_FLUSH, SSDSIM_OP_FLUSH, SSDSIM_OP_READ};
    ck_assert_uint_eq(n, 4);
    for (size_t i = 0; i < n; i++)
        ck_assert_int_eq(ops[i], want2[i]);
    remove("flush-test.blkparse");
    remove("flush-test.iolog");
}
END_TEST

/* fio's options at iodepth 1, in the order the job issues: fsync=4 puts a flush after every
 * 4th write; write_barrier=4 puts one before every 4th write. */
struct order {
    char ops[64];
    size_t n;
};

static void on_issue(const ssdsim_completion *c, void *ud)
{
    struct order *o = ud;
    if (o->n < sizeof o->ops - 1)
        o->ops[o->n++] = c->op == SSDSIM_OP_FLUSH ? 'F' : c->op == SSDSIM_OP_WRITE ? 'W' : '?';
}

static void issue_order(const char *opt, char *out, size_t len)
{
    ssdsim_model *m = model(false);
    ssdsim *sim = st_sim(m, 1);
    struct order o = {{0}, 0};
    ssdsim_observer obs = {on_issue, NULL, &o};
    ssdsim_set_observer(sim, &obs);
    char json[256];
    snprintf(json, sizeof json,
             "{\"rw\": \"randwrite\", \"bs\": \"4k\", \"size\": \"16m\", "
             "\"number_ios\": 8, \"iodepth\": 1, %s}",
             opt);
    st_run(sim, json, NULL);
    snprintf(out, len, "%s", o.ops);
    ssdsim_free(sim);
    ssdsim_model_free(m);
}

START_TEST(test_flush_fio_options)
{
    char got[64];
    issue_order("\"fsync\": 4", got, sizeof got);
    ck_assert_str_eq(got, "WWWWFWWWWF");
    issue_order("\"fdatasync\": 3", got, sizeof got);
    ck_assert_str_eq(got, "WWWFWWWFWW");
    issue_order("\"write_barrier\": 4", got, sizeof got);
    ck_assert_str_eq(got, "WWWFWWWWFW");
    issue_order("\"sync\": \"1\"", got, sizeof got);
    ck_assert_str_eq(got, "WWWWWWWW");
}
END_TEST

/* sync=1: every write is FUA, so with a volatile cache each is on flash when it completes. */
START_TEST(test_flush_fio_sync_fua)
{
    ssdsim_model *m = model(false);
    ssdsim *sim = st_sim(m, 1);
    st_run(sim, "{\"rw\": \"randwrite\", \"bs\": \"4k\", \"size\": \"16m\", "
                "\"number_ios\": 8, \"iodepth\": 1, \"sync\": \"1\"}",
           NULL);
    ssdsim_op_stats w;
    ck_assert_int_eq(ssdsim_get_op_stats(sim, SSDSIM_OP_WRITE, &w), 0);
    ck_assert_uint_eq(w.count, 8);
    ck_assert_uint_ge(w.lat_min_ns, OVERHEAD_NS + PROGRAM_NS);
    ck_assert_uint_eq(dev_io(sim).flash_pages_programmed, 8);
    ssdsim_free(sim);
    ssdsim_model_free(m);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("flush");
    TCase *tc = tcase_create("flush");
    tcase_add_test(tc, test_flush_drains_volatile_cache);
    tcase_add_test(tc, test_flush_protected_cache);
    tcase_add_test(tc, test_fua_bypasses_cache);
    tcase_add_test(tc, test_fua_protected);
    tcase_add_test(tc, test_flush_bad_input);
    tcase_add_test(tc, test_flush_trace_records);
    tcase_add_test(tc, test_flush_fio_options);
    tcase_add_test(tc, test_flush_fio_sync_fua);
    suite_add_tcase(s, tc);
    return test_run_suite(s);
}
