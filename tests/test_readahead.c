/* test_readahead.c: the SSD controller's read-ahead (read_ahead.*, dev/readahead.c) against
 * figures derived by hand: the latency and hit fraction of a QD1 sequential read stream on a
 * full drive, no prefetch for random reads, waste counted when a stream stops or its data is
 * overwritten, concurrent streams, a prefetch and a demand read in arrival order, refusals of
 * bad keys, and that a model without the keys runs as before. */
#include <check.h>
#include <glib.h>
#include <math.h>
#include <stdlib.h>

#include "simtest.h"

/* 8 dies, one per channel; one plane of 32 blocks of 16 4 KiB pages: 4096 pages, op 0.28:
 * 3200 units. Placement "stripe": unit k of a sequential fill is on die k mod 8, so
 * consecutive units are on different channels. Fixed parts of a QD1 4 KiB read:
 *   host link 400 MB/s: 4096 B in 10,240 ns; host.cmd_overhead 3 us; controller 5 us;
 *   tR 10 us; channel 100 MT/s x 8 bits: 4096 B in 40,960 ns; DRAM 3200 MB/s: 1,280 ns.
 *   from flash: 3 + 5 + 10 + 40.96 + 10.24 = 69.2 us
 *   from read-ahead DRAM: 3 + 5 + 1.28 + 10.24 = 19.52 us */
enum { MISS_NS = 69200, HIT_NS = 19520, UNITS = 3200 };

static ssdsim_model *drive(const char *ra)
{
    g_autofree char *json = g_strdup_printf(
        "{\"name\":\"ra\",\"geometry\":{\"channels\":8,\"chips_per_channel\":1,"
        "\"dies_per_chip\":1,\"planes_per_die\":1,\"blocks_per_plane\":32,"
        "\"pages_per_block\":16,\"page_size\":\"4KiB\"},"
        "\"flash\":{\"cell\":\"slc\",\"read_us\":10,\"program_us\":20,\"erase_us\":1000,"
        "\"bus_mts\":100,\"bus_width\":8},"
        "\"controller\":{\"cmd_overhead_us\":5,\"cores\":1,\"queue_depth\":32},"
        "\"host\":{\"link_bw\":\"400MB/s\",\"cmd_overhead_us\":3},"
        "\"ftl\":{\"op\":0.28,\"placement\":\"stripe\"},"
        "\"buffer\":{\"size\":\"256KiB\",\"plp\":true}%s}",
        ra ? ra : "");
    ssdsim_model *m = NULL;
    ssdsim_error err;
    int rc = ssdsim_model_load_string(&m, json, "test_readahead model", &err);
    ck_assert_msg(rc == 0, "%s", err.message);
    return m;
}

#define RA(fields) ",\"read_ahead\":{" fields "}"

static ssdsim *full(const ssdsim_model *m)
{
    ssdsim *sim = st_sim(m, 1);
    ck_assert_int_eq(ssdsim_precondition_seq(sim), 0);
    return sim;
}

static ssdsim_device_stats dev_stats(ssdsim *sim)
{
    ssdsim_device_stats d;
    ck_assert_int_eq(ssdsim_get_device_stats(sim, &d), 0);
    return d;
}

/* One 4 KiB read of unit u now, run to its end: its latency. */
static uint64_t read_unit(ssdsim *sim, uint64_t u)
{
    ssdsim_completion c = {0};
    ck_assert_int_eq(
        ssdsim_submit(sim, SSDSIM_OP_READ, u * 4096, 4096, ssdsim_now(sim), 1, st_grab, &c), 0);
    ck_assert_int_eq(ssdsim_drain(sim), 0);
    return c.complete_ns - c.submit_ns;
}

/* QD1 sequential 4 KiB reads from unit 0, window 8 units, trigger 2. Reads 1 and 2 go to flash
 * (69.2 us); the second makes the stream sequential and prefetches units 2..9; every later read
 * k (unit k - 1) finds its unit in DRAM, prefetched at least one read earlier on another die
 * and channel, so it takes 19.52 us, and moves the window on by one unit. Of n = 200 reads 198
 * hit (hit fraction 0.99); units prefetched: 200 + 8 - 2 = 206, none wasted; flash pages read:
 * the 2 misses + 206. Mean latency (2 x 69,200 + 198 x 19,520) / 200 = 20,016.8 ns. */
START_TEST(test_readahead_sequential_hits_dram)
{
    ssdsim_model *m = drive(RA("\"window\":\"32KiB\",\"trigger\":2,\"streams\":2"));
    ssdsim *sim = full(m);
    st_run(sim, "{\"rw\":\"read\",\"bs\":\"4k\",\"iodepth\":1,\"number_ios\":200}", NULL);
    ssdsim_op_stats r;
    ck_assert_int_eq(ssdsim_get_op_stats(sim, SSDSIM_OP_READ, &r), 0);
    ck_assert_uint_eq(r.count, 200);
    ck_assert_uint_eq(r.lat_min_ns, HIT_NS);
    ck_assert_uint_eq(r.lat_max_ns, MISS_NS);
    ck_assert_double_eq_tol(r.lat_mean_ns, (2.0 * MISS_NS + 198.0 * HIT_NS) / 200, 1e-6);
    ssdsim_device_stats d = dev_stats(sim);
    ck_assert_uint_eq(d.readahead_streams, 2);
    ck_assert_uint_eq(d.readahead_hits, 198);
    ck_assert_double_eq_tol((double)d.readahead_hits / (double)r.count, 0.99, 1e-12);
    ck_assert_uint_eq(d.readahead_units, 206);
    ck_assert_uint_eq(d.readahead_wasted, 0);
    ck_assert_uint_eq(d.flash_pages_read, 208);
    st_check(sim);

    /* The same drive without read-ahead: every read from flash. */
    ssdsim_model *m0 = drive(NULL);
    ssdsim *s0 = full(m0);
    st_run(s0, "{\"rw\":\"read\",\"bs\":\"4k\",\"iodepth\":1,\"number_ios\":200}", NULL);
    ck_assert_int_eq(ssdsim_get_op_stats(s0, SSDSIM_OP_READ, &r), 0);
    ck_assert_uint_eq(r.lat_min_ns, MISS_NS);
    ck_assert_uint_eq(r.lat_max_ns, MISS_NS);
    ck_assert_uint_eq(dev_stats(s0).readahead_hits, 0);
    ssdsim_free(s0);
    ssdsim_model_free(m0);
    ssdsim_free(sim);
    ssdsim_model_free(m);
}
END_TEST

/* Random 4 KiB reads: a stream is prefetched only after `trigger` (3) reads in a row each start
 * where the last ended; among 2000 reads of 3200 units, two such coincidences in a row on one
 * of 2 streams have a chance of about 2000 x (2 / 3200)^2 = 0.0008. So: no unit prefetched, no
 * hit, and the flash reads are the host's 2000 exactly. */
START_TEST(test_readahead_random_gets_no_prefetch)
{
    ssdsim_model *m = drive(RA("\"window\":\"32KiB\",\"trigger\":3,\"streams\":2"));
    ssdsim *sim = full(m);
    st_run(sim, "{\"rw\":\"randread\",\"bs\":\"4k\",\"iodepth\":1,\"number_ios\":2000}", NULL);
    ssdsim_device_stats d = dev_stats(sim);
    ck_assert_uint_eq(d.readahead_units, 0);
    ck_assert_uint_eq(d.readahead_hits, 0);
    ck_assert_uint_eq(d.readahead_wasted, 0);
    ck_assert_uint_eq(d.flash_pages_read, 2000);
    ssdsim_free(sim);
    ssdsim_model_free(m);
}
END_TEST

/* One stream tracked. 20 sequential reads from unit 0 (trigger 2, window 8): 18 hits, units
 * 2..27 prefetched (26), the 8 units 20..27 held unread. A read elsewhere starts a new stream in
 * the only entry: those 8 are wasted. Then a write to a held unit drops it (1 more wasted) and
 * the next read of that unit is no read-ahead hit. */
START_TEST(test_readahead_wasted_when_stream_stops)
{
    ssdsim_model *m = drive(RA("\"window\":\"32KiB\",\"trigger\":2,\"streams\":1"));
    ssdsim *sim = full(m);
    st_run(sim, "{\"rw\":\"read\",\"bs\":\"4k\",\"iodepth\":1,\"number_ios\":20}", NULL);
    ssdsim_device_stats d = dev_stats(sim);
    ck_assert_uint_eq(d.readahead_hits, 18);
    ck_assert_uint_eq(d.readahead_units, 26);
    ck_assert_uint_eq(d.readahead_wasted, 0);
    ck_assert_uint_eq(read_unit(sim, 1000), MISS_NS);
    d = dev_stats(sim);
    ck_assert_uint_eq(d.readahead_wasted, 8);
    ck_assert_uint_eq(d.readahead_units, 26);

    /* the stream at 1000 goes on: 1001 misses and triggers (units 1002..1009 prefetched) */
    ck_assert_uint_eq(read_unit(sim, 1001), MISS_NS);
    ck_assert_uint_eq(read_unit(sim, 1002), HIT_NS);
    d = dev_stats(sim);
    ck_assert_uint_eq(d.readahead_units, 26 + 9);
    ck_assert_uint_eq(d.readahead_hits, 19);
    /* a write to held unit 1005 drops it */
    ssdsim_completion c = {0};
    ck_assert_int_eq(
        ssdsim_submit(sim, SSDSIM_OP_WRITE, 1005 * 4096, 4096, ssdsim_now(sim), 2, st_grab, &c), 0);
    ck_assert_int_eq(ssdsim_drain(sim), 0);
    d = dev_stats(sim);
    ck_assert_uint_eq(d.readahead_wasted, 9);
    uint64_t hits = d.readahead_hits;
    read_unit(sim, 1005);
    ck_assert_uint_eq(dev_stats(sim).readahead_hits, hits);
    ssdsim_free(sim);
    ssdsim_model_free(m);
}
END_TEST

/* Two sequential readers taking turns, 40 reads each (units 0.. and 1600..). With 2 streams
 * tracked each is detected on its own: 2 x (40 - 2) = 76 hits, at 19.52 us each. With 1 stream
 * each read replaces the other's stream, which never gets to 2 reads in a row: no prefetch. */
START_TEST(test_readahead_concurrent_streams)
{
    for (int n_streams = 1; n_streams <= 2; n_streams++) {
        g_autofree char *ra = g_strdup_printf(
            ",\"read_ahead\":{\"window\":\"32KiB\",\"trigger\":2,\"streams\":%d}", n_streams);
        ssdsim_model *m = drive(ra);
        ssdsim *sim = full(m);
        uint64_t n_hit = 0;
        for (uint64_t k = 0; k < 40; k++) {
            n_hit += read_unit(sim, k) == HIT_NS;
            n_hit += read_unit(sim, 1600 + k) == HIT_NS;
        }
        ssdsim_device_stats d = dev_stats(sim);
        if (n_streams == 2) {
            ck_assert_uint_eq(d.readahead_hits, 76);
            ck_assert_uint_eq(n_hit, 76);
        } else {
            ck_assert_uint_eq(d.readahead_hits, 0);
            ck_assert_uint_eq(d.readahead_units, 0);
            ck_assert_uint_eq(n_hit, 0);
        }
        ssdsim_free(sim);
        ssdsim_model_free(m);
    }
}
END_TEST

/* A prefetch queues with the host's reads, in arrival order (dev/readahead.c). Window 16
 * units, trigger 2: read unit 0 alone; then, at one instant S, unit 1 (continuing the stream)
 * and unit 26, of no stream. Unit 1's command leaves the controller at S + 3 + 5 us and its
 * dispatch prefetches units 2..17, two a die: die 2 (unit k is on die k mod 8) gets units 2
 * and 10, its own channel free, so unit 2's read holds it from S + 8 to S + 8 + 50.96 us (tR
 * 10, 4 KiB on the bus 40.96), and unit 10's after it. Unit 26's command leaves the one
 * controller core 5 us after unit 1's (S + 13 us), behind both: its read runs from
 * S + 8 + 2 x 50.96 us, takes 50.96 us and crosses the link in 10.24: 171.12 us from S. */
START_TEST(test_readahead_prefetch_in_arrival_order)
{
    ssdsim_model *m = drive(RA("\"window\":\"64KiB\",\"trigger\":2,\"streams\":2"));
    ssdsim *sim = full(m);
    ck_assert_uint_eq(read_unit(sim, 0), MISS_NS);
    uint64_t now = ssdsim_now(sim);
    ssdsim_completion c1 = {0}, c26 = {0};
    ck_assert_int_eq(ssdsim_submit(sim, SSDSIM_OP_READ, 1 * 4096, 4096, now, 1, st_grab, &c1), 0);
    ck_assert_int_eq(ssdsim_submit(sim, SSDSIM_OP_READ, 26 * 4096, 4096, now, 2, st_grab, &c26),
                     0);
    ck_assert_int_eq(ssdsim_drain(sim), 0);
    ck_assert_uint_eq(c1.complete_ns - c1.submit_ns, MISS_NS);
    ck_assert_uint_eq(c26.complete_ns - c26.submit_ns, 3000 + 5000 + 3 * 50960 + 10240);
    ck_assert_uint_eq(dev_stats(sim).readahead_units, 16);
    /* the stream goes on from the prefetched units */
    ck_assert_uint_eq(read_unit(sim, 2), HIT_NS);
    st_check(sim);
    ssdsim_free(sim);
    ssdsim_model_free(m);
}
END_TEST

/* Without the keys nothing changes: no read_ahead key in the model's JSON, none in the
 * results, and the results are the text a model with "window": 0 gives. */
START_TEST(test_readahead_absent_changes_nothing)
{
    ssdsim_model *a = drive(NULL);
    ssdsim_model *b = drive(RA("\"window\":0"));
    char *ja = ssdsim_model_to_json(a), *jb = ssdsim_model_to_json(b);
    ck_assert_ptr_null(strstr(ja, "read_ahead"));
    ck_assert_str_eq(ja, jb);
    free(ja);
    free(jb);
    const char *wl = "{\"rw\":\"randrw\",\"bs\":\"4k\",\"iodepth\":4,\"number_ios\":3000}";
    ssdsim *sa = st_sim(a, 9), *sb = st_sim(b, 9);
    st_run(sa, wl, NULL);
    st_run(sb, wl, NULL);
    char *ra = st_results_json(sa, a), *rb = st_results_json(sb, b);
    ck_assert_str_eq(ra, rb);
    ck_assert_ptr_null(strstr(ra, "read_ahead"));
    free(ra);
    free(rb);
}
END_TEST

/* Same model, workload and seed: the same results, read-ahead and RAIN parity both on; another
 * seed gives others. */
static char *seeded_run(uint64_t seed)
{
    ssdsim_model *m = drive(RA("\"window\":\"32KiB\",\"trigger\":1,\"streams\":3"));
    ssdsim_error err;
    ck_assert_int_eq(ssdsim_model_set(m, "ftl.op", "1", &err), 0);
    ck_assert_int_eq(ssdsim_model_set(m, "ftl.parity_group", "4", &err), 0);
    ssdsim *sim = st_sim(m, seed);
    ck_assert_int_eq(ssdsim_precondition_seq(sim), 0);
    st_run(sim,
           "{\"rw\":\"randrw\",\"bs\":\"8k\",\"iodepth\":4,\"numjobs\":2,"
           "\"number_ios\":3000,\"percentage_random\":50}",
           NULL);
    return st_results_json(sim, m);
}

START_TEST(test_readahead_deterministic)
{
    char *a = seeded_run(11), *b = seeded_run(11), *c = seeded_run(12);
    ck_assert_ptr_nonnull(strstr(a, "\"read_ahead\""));
    ck_assert_ptr_nonnull(strstr(a, "\"parity\""));
    st_assert_seeded(a, b, c);
}
END_TEST

static void refused(const char *buffer, const char *ra, const char *key, const char *want)
{
    g_autofree char *json = g_strdup_printf(
        "{\"name\":\"ra\",\"geometry\":{\"channels\":8,\"chips_per_channel\":1,"
        "\"dies_per_chip\":1,\"planes_per_die\":1,\"blocks_per_plane\":32,"
        "\"pages_per_block\":16,\"page_size\":\"4KiB\"},"
        "\"flash\":{\"cell\":\"slc\",\"read_us\":10,\"program_us\":20,\"erase_us\":1000,"
        "\"bus_mts\":100,\"bus_width\":8}%s,\"read_ahead\":{%s}}",
        buffer, ra);
    ssdsim_model *m = NULL;
    ssdsim_error err;
    ck_assert_int_eq(ssdsim_model_load_string(&m, json, "bad", &err), SSDSIM_ECONFIG);
    ck_assert_ptr_null(m);
    ck_assert_msg(strstr(err.message, key) != NULL, "%s", err.message);
    ck_assert_msg(strstr(err.message, want) != NULL, "%s", err.message);
    ck_assert_ptr_null(strchr(err.message, '\n'));
}

START_TEST(test_readahead_bad_input)
{
    const char *buf = ",\"buffer\":{\"size\":\"64KiB\"}";
    refused("", "\"window\":\"32KiB\"", "read_ahead.window", "buffer.size > 0");
    refused(buf, "\"window\":\"128KiB\"", "read_ahead.window", "larger than the buffer");
    refused(buf, "\"window\":\"6KiB\"", "read_ahead.window", "whole number of mapping units");
    refused(buf, "\"window\":\"32KiB\",\"streams\":0", "read_ahead.streams", "");
    refused(buf, "\"window\":\"32KiB\",\"trigger\":0", "read_ahead.trigger", "");
    refused(buf, "\"trigger\":2", "read_ahead.trigger", "read_ahead.window > 0");
}
END_TEST

static Suite *readahead_suite(void)
{
    Suite *s = suite_create("readahead");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, test_readahead_sequential_hits_dram);
    tcase_add_test(tc, test_readahead_random_gets_no_prefetch);
    tcase_add_test(tc, test_readahead_wasted_when_stream_stops);
    tcase_add_test(tc, test_readahead_concurrent_streams);
    tcase_add_test(tc, test_readahead_prefetch_in_arrival_order);
    tcase_add_test(tc, test_readahead_absent_changes_nothing);
    tcase_add_test(tc, test_readahead_deterministic);
    tcase_add_test(tc, test_readahead_bad_input);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return test_run_suite(readahead_suite());
}
