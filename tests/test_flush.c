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

/* The drive "m1" (the reviewer's): one die of one plane, 64 blocks of 64 pages of 4 KiB, SLC
 * tPROG 500 us; a bus of 100 MT/s x 8 bits, so a 4 KiB program holds it 4096 x 8000 / 800 =
 * 40,960 ns; no command overheads; a 100 GB/s link (4 KiB in ceil(40.96) = 41 ns); a 64 KiB
 * volatile write cache (16 slots) copying at the default 3200 MB/s (4 KiB in 1,280 ns), flushing
 * from the first dirty unit (flush_start 0, the default) one unit at a time (the default depth:
 * a page's worth per plane). `extra` adds keys to the buffer. A program issued at t with the
 * die idle ends at t + 40,960 + 500,000 = t + 540,960. */
static ssdsim_model *m1(const char *extra)
{
    char j[1024];
    snprintf(j, sizeof j,
             "{\"name\":\"m1\",\"geometry\":{\"channels\":1,\"chips_per_channel\":1,"
             "\"dies_per_chip\":1,\"planes_per_die\":1,\"blocks_per_plane\":64,"
             "\"pages_per_block\":64,\"page_size\":\"4KiB\"},\"flash\":{\"cell\":\"slc\","
             "\"read_us\":50,\"program_us\":500,\"erase_us\":3000,\"bus_mts\":100,"
             "\"bus_width\":8},\"controller\":{\"cmd_overhead_us\":0,\"cores\":1,"
             "\"queue_depth\":256},\"host\":{\"link_bw\":\"100GB/s\",\"cmd_overhead_us\":0},"
             "\"ftl\":{\"type\":\"page\",\"op\":0.25},\"buffer\":{\"size\":\"64KiB\"%s}}",
             extra);
    ssdsim_model *m = NULL;
    ssdsim_error err;
    ck_assert_msg(ssdsim_model_load_string(&m, j, "m1", &err) == 0, "%s", err.message);
    return m;
}

#define PROG_M1 540960ull /* bus 40,960 + tPROG 500,000 */

struct ends {
    uint64_t at[8];
};

static void on_end(const ssdsim_completion *c, void *ud)
{
    ((struct ends *)ud)->at[c->id] = c->complete_ns;
}

/* A flush waits for a write it follows that hit a unit being flushed. Write A of unit 0 at 0
 * arrives at 41 ns (the link) and is issued to flash at once: its program ends at
 * 41 + 540,960 = 541,001. Write B of unit 0 at 2 us finds A's slot being flushed: acknowledged
 * from DRAM (2,041 + 1,280 = 3,321) and dirty again behind A. The flush at 4 us must make B
 * durable: B's copy goes to flash when A's program ends, so the flush completes at
 * 541,001 + 540,960 = 1,081,961 (before the fix, at 541,001 with only A on flash). */
START_TEST(test_flush_waits_for_copy_written_behind_a_flush)
{
    ssdsim_model *m = m1("");
    ssdsim *sim = st_sim(m, 1);
    struct ends e = {{0}};
    ck_assert_int_eq(ssdsim_submit(sim, SSDSIM_OP_WRITE, 0, UNIT, 0, 0, on_end, &e), 0);
    ck_assert_int_eq(ssdsim_submit(sim, SSDSIM_OP_WRITE, 0, UNIT, 2 * US, 1, on_end, &e), 0);
    ck_assert_int_eq(ssdsim_submit(sim, SSDSIM_OP_FLUSH, 0, 0, 4 * US, 2, on_end, &e), 0);
    ck_assert_int_eq(ssdsim_drain(sim), 0);
    ck_assert_uint_eq(e.at[0], 41 + 1280);
    ck_assert_uint_eq(e.at[1], 2 * US + 41 + 1280);
    ck_assert_uint_eq(e.at[2], 41 + 2 * PROG_M1);
    ck_assert_uint_eq(dev_io(sim).flash_pages_programmed, 2);
    st_check(sim);
    ssdsim_free(sim);
    ssdsim_model_free(m);
}
END_TEST

/* The same with flushing left to flush commands (flush_start 0.9: 14 of 16 slots): A, dirty,
 * goes to flash with flush 1 at 2 us (program 2,000 to 542,960); B rewrites unit 0 at 4 us,
 * behind that program; flush 2 at 6 us has no dirty unit to flush yet, only B's copy behind the
 * program. Flush 1 completes with A at 542,960; B's copy is flushed when A's program ends, as
 * flush 2 asked, and flush 2 completes with it at 542,960 + 540,960 = 1,083,920. */
START_TEST(test_flush_takes_copy_written_behind_a_flush)
{
    ssdsim_model *m = m1(",\"flush_start\":0.9,\"flush_stop\":0.9");
    ssdsim *sim = st_sim(m, 1);
    struct ends e = {{0}};
    ck_assert_int_eq(ssdsim_submit(sim, SSDSIM_OP_WRITE, 0, UNIT, 0, 0, on_end, &e), 0);
    ck_assert_int_eq(ssdsim_submit(sim, SSDSIM_OP_FLUSH, 0, 0, 2 * US, 1, on_end, &e), 0);
    ck_assert_int_eq(ssdsim_submit(sim, SSDSIM_OP_WRITE, 0, UNIT, 4 * US, 2, on_end, &e), 0);
    ck_assert_int_eq(ssdsim_submit(sim, SSDSIM_OP_FLUSH, 0, 0, 6 * US, 3, on_end, &e), 0);
    ck_assert_int_eq(ssdsim_drain(sim), 0);
    ck_assert_uint_eq(e.at[1], 2 * US + PROG_M1);
    ck_assert_uint_eq(e.at[3], 2 * US + 2 * PROG_M1);
    ck_assert_uint_eq(dev_io(sim).flash_pages_programmed, 2);
    st_check(sim);
    ssdsim_free(sim);
    ssdsim_model_free(m);
}
END_TEST

/* A FUA write over a dirty unit hands the flushes that wait for that unit to itself (the
 * reviewer's blkparse trace). Unit 0 written at 0 is issued at once (program 41 to 541,001);
 * unit 1 written at 2 us stays dirty (one unit is flushed at a time). Flush 1 at 10 us waits
 * for both. A FUA write of unit 1 at 20 us drops the dirty copy (absorbed) and goes to flash
 * itself, behind unit 0's program: 541,001 + 540,960 = 1,081,961, when it completes. Flush 1
 * must not complete before unit 1's newer data is on flash: at 1,081,961, not at 541,001.
 * Flush 2 at 30 us, after the FUA write began but before it ended, must too: the copy of unit
 * 1 acknowledged before it is gone from the cache and the FUA data is not yet on flash. */
START_TEST(test_flush_fua_over_dirty_unit)
{
    ssdsim_model *m = m1("");
    ssdsim *sim = st_sim(m, 1);
    struct ends e = {{0}};
    ssdsim_submit_opts fua = SSDSIM_SUBMIT_OPTS_INIT;
    fua.fua = true;
    ck_assert_int_eq(ssdsim_submit(sim, SSDSIM_OP_WRITE, 0, UNIT, 0, 0, on_end, &e), 0);
    ck_assert_int_eq(ssdsim_submit(sim, SSDSIM_OP_WRITE, UNIT, UNIT, 2 * US, 1, on_end, &e), 0);
    ck_assert_int_eq(ssdsim_submit(sim, SSDSIM_OP_FLUSH, 0, 0, 10 * US, 2, on_end, &e), 0);
    ck_assert_int_eq(
        ssdsim_submit_ex(sim, SSDSIM_OP_WRITE, UNIT, UNIT, 20 * US, 3, on_end, &e, &fua), 0);
    ck_assert_int_eq(ssdsim_submit(sim, SSDSIM_OP_FLUSH, 0, 0, 30 * US, 4, on_end, &e), 0);
    ck_assert_int_eq(ssdsim_drain(sim), 0);
    ck_assert_uint_eq(e.at[3], 41 + 2 * PROG_M1);
    ck_assert_uint_eq(e.at[2], 41 + 2 * PROG_M1);
    ck_assert_uint_eq(e.at[4], 41 + 2 * PROG_M1);
    ssdsim_device_io io = dev_io(sim);
    ck_assert_uint_eq(io.flash_pages_programmed, 2);
    ck_assert_uint_eq(io.buffer_absorbed, 1);
    st_check(sim);
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
    tcase_add_test(tc, test_flush_waits_for_copy_written_behind_a_flush);
    tcase_add_test(tc, test_flush_takes_copy_written_behind_a_flush);
    tcase_add_test(tc, test_flush_fua_over_dirty_unit);
    suite_add_tcase(s, tc);
    return test_run_suite(s);
}
