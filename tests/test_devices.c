/* test_devices.c: every piece of device and system hardware through the full simulator (host ->
 * system -> device -> back end), each against figures derived by hand in the comments from the
 * model keys and the rules written in the module headers (hw/link.h, dev/dev.h, dev/buffer.c,
 * array/array.h, hdd/hdd.h): host interfaces (PCIe, SATA half duplex, SAS narrow and wide
 * ports, link saturation), the host-based FTL's CPU threads, the DRAM write buffer, RAID-0/1/5
 * and JBOD systems, a multi-controller card behind a shared uplink, a hard disk, XPoint media,
 * and determinism of a RAID-5 run.
 *
 * Models are written here as JSON text, so every figure they set is in this file. Systems name
 * their member by an absolute path to a file written into the build tree (and removed once the
 * system is loaded).
 *
 * The one-die drive used for exact latencies ("tiny"): SLC, tR 10 us, tPROG 20 us, bus
 * 100 MT/s x 8 bit = 100 MB/s, so a 4 KiB page is on the bus for 4096 / 100e6 s = 40,960 ns;
 * firmware 5 us on one core; 64 blocks x 16 pages = 1024 pages, op 0.28 -> 800 logical units.
 * One die does one thing at a time: a read is tR then the page on the bus (50,960 ns), a
 * program the page on the bus then tPROG (60,960 ns).
 *
 * The many-die drive used for throughput ("fast"): 8 channels x 4 dies, SLC, tR 10 us, tPROG
 * 20 us, bus 800 MT/s x 8 = 800 MB/s (5,120 ns a page), firmware 1 us on 4 cores: its flash
 * reads 4 KiB pages at up to 8 x 800 MB/s = 6.4 GB/s (the buses) and 32 / 15.12 us = 2.1 M
 * pages/s (the dies), more than any link below carries. 32 blocks x 16 pages a die = 16384
 * pages, op 0.28 -> 12800 units (50 MiB). */
#include <glib.h>
#include <math.h>
#include <stdlib.h>
#include <unistd.h>

#include "array/array.h"
#include "sim.h"
#include "simtest.h"

/* ------------------------------------------------------------------------------------------ */
/* Models                                                                                      */

static ssdsim_model *load(const char *json)
{
    ssdsim_model *m = NULL;
    ssdsim_error err;
    int rc = ssdsim_model_load_string(&m, json, "test_devices model", &err);
    ck_assert_msg(rc == 0, "%s\nin %s", err.message, json);
    return m;
}

static void set(ssdsim_model *m, const char *key, const char *value)
{
    ssdsim_error err;
    ck_assert_msg(ssdsim_model_set(m, key, value, &err) == 0, "%s", err.message);
}

/* The one-die drive. `host` is the body of the host section, `extra` more sections (",..."). */
static char *tiny_json(const char *host, const char *extra)
{
    return g_strdup_printf(
        "{\"name\":\"tiny\",\"geometry\":{\"channels\":1,\"chips_per_channel\":1,"
        "\"dies_per_chip\":1,\"planes_per_die\":1,\"blocks_per_plane\":64,"
        "\"pages_per_block\":16,\"page_size\":\"4KiB\"},"
        "\"flash\":{\"cell\":\"slc\",\"read_us\":10,\"program_us\":20,\"erase_us\":1000,"
        "\"bus_mts\":100,\"bus_width\":8},"
        "\"controller\":{\"cmd_overhead_us\":5,\"cores\":1,\"queue_depth\":32},"
        "\"host\":{%s},\"ftl\":{\"op\":0.28}%s}",
        host, extra ? extra : "");
}

static ssdsim_model *tiny(const char *host, const char *extra)
{
    g_autofree char *j = tiny_json(host, extra);
    return load(j);
}

/* The custom host link of test_direct.c's drive: 400 MB/s (4 KiB in 10,240 ns), 3 us. */
#define CUSTOM_HOST "\"link_bw\":\"400MB/s\",\"cmd_overhead_us\":3"

static char *fast_json(const char *host)
{
    return g_strdup_printf(
        "{\"name\":\"fast\",\"geometry\":{\"channels\":8,\"chips_per_channel\":1,"
        "\"dies_per_chip\":4,\"planes_per_die\":1,\"blocks_per_plane\":32,"
        "\"pages_per_block\":16,\"page_size\":\"4KiB\"},"
        "\"flash\":{\"cell\":\"slc\",\"read_us\":10,\"program_us\":20,\"erase_us\":1000,"
        "\"bus_mts\":800,\"bus_width\":8},"
        "\"controller\":{\"cmd_overhead_us\":1,\"cores\":4,\"queue_depth\":32},"
        "\"host\":{%s},\"ftl\":{\"op\":0.28}}",
        host);
}

static ssdsim_model *fast(const char *host)
{
    g_autofree char *j = fast_json(host);
    return load(j);
}

/* A system of `member` (device JSON text): its file is written into the build tree, the system
 * loaded with its absolute path and the file removed. `sys` is the body of "system" without
 * "member". */
static ssdsim_model *system_of(const char *member, const char *sys)
{
    static unsigned n;
    g_autofree char *path =
        g_strdup_printf("%s/tests/test_devices-member-%ld-%u.json", BUILDDIR, (long)getpid(), n++);
    ck_assert(g_file_set_contents(path, member, -1, NULL));
    g_autofree char *json =
        g_strdup_printf("{\"name\":\"sys\",\"system\":{\"member\":\"%s\",%s}}", path, sys);
    ssdsim_model *m = load(json);
    ck_assert_int_eq(unlink(path), 0);
    return m;
}

/* ------------------------------------------------------------------------------------------ */
/* Running                                                                                     */

/* Several requests submitted at the same instant, in this order; their latencies. */
struct req {
    enum ssdsim_op op;
    uint64_t offset, length;
};

static void together(ssdsim *sim, const struct req *r, int n, uint64_t *lat)
{
    ssdsim_completion c[8];
    ck_assert_int_le(n, 8);
    uint64_t t = ssdsim_now(sim);
    for (int i = 0; i < n; i++)
        ck_assert_int_eq(
            ssdsim_submit(sim, r[i].op, r[i].offset, r[i].length, t, (uint64_t)i, st_grab, &c[i]),
            0);
    ck_assert_int_eq(ssdsim_drain(sim), 0);
    for (int i = 0; i < n; i++) {
        ck_assert_uint_eq(c[i].id, (uint64_t)i);
        lat[i] = c[i].complete_ns - c[i].submit_ns;
    }
}

static ssdsim_op_stats op_stats(ssdsim *sim, enum ssdsim_op op)
{
    ssdsim_op_stats s;
    ck_assert_int_eq(ssdsim_get_op_stats(sim, op, &s), 0);
    return s;
}

static ssdsim_device_io dev_io(ssdsim *sim, uint32_t k)
{
    ssdsim_device_io d;
    ck_assert_int_eq(ssdsim_get_device_io(sim, k, &d), 0);
    return d;
}

/* Pages the device's flash read for the host (internal counter, since the drive was new). */
static uint64_t host_reads(ssdsim *sim, uint32_t k)
{
    return ((struct ssdsim *)sim)->sys.devs[k].env.n.reads[SSDSIM_FOR_HOST];
}

static uint64_t host_programs(ssdsim *sim, uint32_t k)
{
    return ((struct ssdsim *)sim)->sys.devs[k].env.n.programs[SSDSIM_FOR_HOST];
}

static uint64_t host_pages(ssdsim *sim, uint32_t k)
{
    return ((struct ssdsim *)sim)->sys.devs[k].env.n.c[SSDSIM_CNT_HOST_PAGES];
}

static uint64_t ceil_div(uint64_t a, uint64_t b)
{
    return (a + b - 1) / b;
}

/* ------------------------------------------------------------------------------------------ */
/* Link times, from the formulas at the top of hw/link.h (ns per byte as exact fractions,
 * rounded up once per transfer):
 *
 *   PCIe   ns/B = 1000 x enc_den x 8 x (mps + 24) / (MT/s x lanes x enc_num x mps)
 *   SATA   ns/B = 100 x 2052 x 256 / (Gb/s x 10 x 2048 x 254)
 *   SAS    ns/B = 100 x 1060 x 2048 / (Gb/s x 10 x 1024 x 2047)   (one phy)
 *
 * 4 KiB (4096 B):
 *   PCIe gen 2 x4, 256 B payloads: 1000 x 10 x 8 x 280 / (5000 x 4 x 8 x 256) = 0.546875 ns/B
 *                                  -> 2,240 ns exactly
 *   PCIe gen 3 x4: 1000 x 130 x 8 x 280 / (8000 x 4 x 128 x 256) = 291.2e6 / 1048.576e6 ns/B
 *                  -> 4096 x that = 1,137.5 -> 1,138 ns
 *   SATA 3 Gb/s: 4096 x 52,531,200 / (30 x 520,192) = 105,062,400 / 7,620 = 13,787.7 -> 13,788
 *   SATA 6 Gb/s: 105,062,400 / 15,240 = 6,893.9 -> 6,894 ns
 *   SAS 6 Gb/s:  4096 x 217,088,000 / (60 x 2,096,128) = 868,352,000 / 122,820 = 7,070.1
 *                -> 7,071 ns
 * 128 KiB as one transfer (a write's data):
 *   SATA 6 Gb/s: 32 x 105,062,400 / 15,240 = 220,603.5 -> 220,604 ns
 *   PCIe gen 3 x4: 32 x 1,137.5 = 36,400 ns exactly */
enum {
    L4K_CUSTOM = 10240,
    L4K_PCIE2 = 2240,
    L4K_PCIE3 = 1138,
    L4K_SATA3 = 13788,
    L4K_SATA6 = 6894,
    L4K_SAS6 = 7071,
    L128K_SATA6 = 220604,
    L128K_PCIE3 = 36400,
};

static uint64_t pcie_ns(uint32_t gen, uint32_t lanes, uint64_t bytes)
{
    uint64_t mts = gen == 2 ? 5000 : 8000, en = gen == 2 ? 8 : 128, ed = gen == 2 ? 10 : 130;
    return ceil_div(bytes * 1000 * ed * 8 * 280, mts * lanes * en * 256);
}
static uint64_t sata_ns(uint32_t gbps_x10, uint64_t bytes)
{
    return ceil_div(bytes * 100 * 2052 * 256, (uint64_t)gbps_x10 * 2048 * 254);
}
static uint64_t sas_ns(uint32_t gbps_x10, uint64_t bytes)
{
    return ceil_div(bytes * 100 * 1060 * 2048, (uint64_t)gbps_x10 * 1024 * 2047);
}

/* The tiny drive's fixed parts. */
enum {
    FW_NS = 5000,
    TR_NS = 10000,
    TPROG_NS = 20000,
    BUS_NS = 40960,
    CUSTOM_OVH_NS = 3000,
    /* QD1 4 KiB on the custom link: read 3 + 5 + 10 + 40.96 + 10.24 = 69.2 us; write
     * 3 + 5 + 10.24 + 40.96 + 20 = 79.2 us */
    READ_NS = CUSTOM_OVH_NS + FW_NS + TR_NS + BUS_NS + L4K_CUSTOM,
    WRITE_NS = CUSTOM_OVH_NS + FW_NS + L4K_CUSTOM + BUS_NS + TPROG_NS,
};

START_TEST(test_devices_link_times_by_hand)
{
    /* The helpers above reproduce the hand figures. */
    ck_assert_uint_eq(pcie_ns(2, 4, 4096), L4K_PCIE2);
    ck_assert_uint_eq(pcie_ns(3, 4, 4096), L4K_PCIE3);
    ck_assert_uint_eq(pcie_ns(3, 4, 131072), L128K_PCIE3);
    ck_assert_uint_eq(sata_ns(30, 4096), L4K_SATA3);
    ck_assert_uint_eq(sata_ns(60, 4096), L4K_SATA6);
    ck_assert_uint_eq(sata_ns(60, 131072), L128K_SATA6);
    ck_assert_uint_eq(sas_ns(60, 4096), L4K_SAS6);
    ck_assert_uint_eq(READ_NS, 69200);
    ck_assert_uint_eq(WRITE_NS, 79200);
}
END_TEST

/* ------------------------------------------------------------------------------------------ */
/* 1. Interfaces                                                                               */

/* QD1 4 KiB latency on the tiny drive: read = interface overhead + firmware + tR + bus + link;
 * write = overhead + firmware + link + bus + tPROG. Default overheads (hw/link.h): PCIe 1 us,
 * SATA 4 us, SAS 2 us. */
static const struct iface_case {
    const char *host;
    uint64_t ovh, link;
} iface_cases[] = {
    /* 1 + 5 + 10 + 40.96 + 2.24 = 59.2 us read, 1 + 5 + 2.24 + 40.96 + 20 = 69.2 us write */
    {"\"interface\":\"pcie\",\"pcie_gen\":2,\"lanes\":4", 1000, L4K_PCIE2},
    /* 58,098 and 68,098 ns */
    {"\"interface\":\"pcie\",\"pcie_gen\":3,\"lanes\":4", 1000, L4K_PCIE3},
    /* 73,748 and 83,748 ns */
    {"\"interface\":\"sata\",\"gbps\":3", 4000, L4K_SATA3},
    /* 66,854 and 76,854 ns */
    {"\"interface\":\"sata\",\"gbps\":6", 4000, L4K_SATA6},
    /* 65,031 and 75,031 ns, on a narrow and a x2 wide port alike (a command uses one phy) */
    {"\"interface\":\"sas\",\"gbps\":6", 2000, L4K_SAS6},
    {"\"interface\":\"sas\",\"gbps\":6,\"lanes\":2", 2000, L4K_SAS6},
};

START_TEST(test_devices_interface_qd1_latency)
{
    const struct iface_case *ic = &iface_cases[_i];
    ssdsim_model *m = tiny(ic->host, NULL);
    ssdsim *sim = st_sim(m, 1);
    uint64_t w = st_one(sim, SSDSIM_OP_WRITE, 0, 4096);
    ck_assert_uint_eq(w, ic->ovh + FW_NS + ic->link + BUS_NS + TPROG_NS);
    uint64_t r = st_one(sim, SSDSIM_OP_READ, 0, 4096);
    ck_assert_uint_eq(r, ic->ovh + FW_NS + TR_NS + BUS_NS + ic->link);
    static const uint64_t reads[] = {59200, 58098, 73748, 66854, 65031, 65031};
    ck_assert_uint_eq(r, reads[_i]);
    ck_assert_uint_eq(w - r, TPROG_NS - TR_NS);
    ssdsim_free(sim);
    ssdsim_model_free(m);
}
END_TEST

/* A 128 KiB write (unit 0..31) and a 128 KiB read of unwritten units (32..63: no flash, the
 * data is zeros from the controller) submitted together. The write is admitted first: overhead,
 * firmware 5 us on the one core, then its data crosses the link to the device as one transfer.
 * The read's firmware follows on the core; its 32 units are ready at once and each goes back
 * over the link.
 *   SATA 6 (half duplex: one timeline for both directions):
 *     write data  [4 + 5 us, 9 us + 220,604 ns] = [9,000, 229,604]
 *     read        arrives 4 + 5 + 5 = 14 us, its units wait for the write's data:
 *                 229,604 + 32 x 6,894 = 450,212 ns
 *     (alone it would take 4 + 5 + 32 x 6.894 us = 229,608 ns)
 *   PCIe gen 3 x4 (full duplex):
 *     read        arrives 1 + 5 + 5 = 11 us; up direction free: 11,000 + 32 x 1,138 = 47,416 */
START_TEST(test_devices_sata_half_duplex_pcie_full)
{
    struct req rq[2] = {{SSDSIM_OP_WRITE, 0, 131072}, {SSDSIM_OP_READ, 131072, 131072}};
    uint64_t lat[2];

    ssdsim_model *m = tiny("\"interface\":\"sata\",\"gbps\":6", NULL);
    ssdsim *sim = st_sim(m, 1);
    ck_assert_uint_eq(st_one(sim, SSDSIM_OP_READ, 131072, 131072), 229608);
    together(sim, rq, 2, lat);
    ck_assert_uint_eq(lat[1], 4000 + FW_NS + L128K_SATA6 + 32 * L4K_SATA6);
    ck_assert_uint_eq(lat[1], 450212);
    ssdsim_free(sim);
    ssdsim_model_free(m);

    m = tiny("\"interface\":\"pcie\",\"pcie_gen\":3,\"lanes\":4", NULL);
    sim = st_sim(m, 1);
    together(sim, rq, 2, lat);
    ck_assert_uint_eq(lat[1], 1000 + 2 * FW_NS + 32 * L4K_PCIE3);
    ck_assert_uint_eq(lat[1], 47416);
    ssdsim_free(sim);
    ssdsim_model_free(m);
}
END_TEST

/* Two 128 KiB reads of unwritten data submitted together on SAS 6 Gb/s (2 us, 7,071 ns per
 * 4 KiB on a phy). A arrives at 2 + 5 = 7 us, B at 12 us (the one firmware core).
 *   narrow port: A's 32 units on the phy: 7,000 + 32 x 7,071 = 233,272 ns; B's behind them:
 *                233,272 + 226,272 = 459,544 ns after submission.
 *   x2 wide port: a command's data uses one phy (hw/link.h): A on phy 0 ends at 233,272 as on
 *                a narrow port, B on phy 1 at 12,000 + 226,272 = 238,272 ns.
 * One read alone takes 233,272 ns on either port. */
START_TEST(test_devices_sas_wide_port_parallel)
{
    struct req rq[2] = {{SSDSIM_OP_READ, 0, 131072}, {SSDSIM_OP_READ, 131072, 131072}};
    uint64_t lat[2];
    ck_assert_uint_eq(32 * L4K_SAS6, 226272);

    ssdsim_model *m = tiny("\"interface\":\"sas\",\"gbps\":6", NULL);
    ssdsim *sim = st_sim(m, 1);
    ck_assert_uint_eq(st_one(sim, SSDSIM_OP_READ, 0, 131072), 233272);
    together(sim, rq, 2, lat);
    ck_assert_uint_eq(lat[0], 233272);
    ck_assert_uint_eq(lat[1], 459544);
    ssdsim_free(sim);
    ssdsim_model_free(m);

    m = tiny("\"interface\":\"sas\",\"gbps\":6,\"lanes\":2", NULL);
    sim = st_sim(m, 1);
    ck_assert_uint_eq(st_one(sim, SSDSIM_OP_READ, 0, 131072), 233272);
    together(sim, rq, 2, lat);
    ck_assert_uint_eq(lat[0], 233272);
    ck_assert_uint_eq(lat[1], 238272);
    ssdsim_free(sim);
    ssdsim_model_free(m);
}
END_TEST

/* Sequential 128 KiB reads, 16 outstanding, on the fast drive after a sequential fill: the link
 * is the bottleneck, so the read rate is the link's data rate (hw/link.h), bytes per second:
 *   PCIe gen 3 x4: 4 x 8e9 x 128/130 / 8 x 256/280          = 3,600,879,121
 *   PCIe gen 2 x4: 4 x 5e9 x 8/10 / 8 x 256/280             = 1,828,571,429
 *   SATA 6 Gb/s:   6e9 / 10 x 2048/2052 x 254/256            =   594,152,047
 *   SAS 6 Gb/s:    6e9 / 10 x 1024/1060 x 2047/2048 (a phy)  =   579,339,623
 *   SAS 6 Gb/s x2 wide: two commands at once, one per phy   = 1,158,679,245
 * Each 4 KiB crosses as its own transfer, rounded up to the ns: at most 1 ns in 1,138 (0.09%)
 * slower; the run's first request and the tail add under 0.2%. Within 1%. */
static const struct sat_case {
    const char *host;
    double rate;
} sat_cases[] = {
    {"\"interface\":\"pcie\",\"pcie_gen\":3,\"lanes\":4", 4 * 8e9 * 128 / 130 / 8 * 256 / 280},
    {"\"interface\":\"pcie\",\"pcie_gen\":2,\"lanes\":4", 4 * 5e9 * 8 / 10 / 8 * 256 / 280},
    {"\"interface\":\"sata\",\"gbps\":6", 6e9 / 10 * 2048 / 2052 * 254 / 256},
    {"\"interface\":\"sas\",\"gbps\":6", 6e9 / 10 * 1024 / 1060 * 2047 / 2048},
    {"\"interface\":\"sas\",\"gbps\":6,\"lanes\":2", 2 * 6e9 / 10 * 1024 / 1060 * 2047 / 2048},
};

START_TEST(test_devices_seq_reads_saturate_link)
{
    const struct sat_case *sc = &sat_cases[_i];
    static const double literal[] = {3600879121.0, 1828571429.0, 594152047.0, 579339623.0,
                                     1158679245.0};
    st_within(sc->rate, literal[_i], 1e-9, "derived rate");
    ssdsim_model *m = fast(sc->host);
    ssdsim *sim = st_sim(m, 1);
    ck_assert_int_eq(ssdsim_precondition_seq(sim), 0);
    st_run(sim, "{\"rw\":\"read\",\"bs\":\"128k\",\"iodepth\":16,\"number_ios\":600}", NULL);
    ssdsim_op_stats s = op_stats(sim, SSDSIM_OP_READ);
    ck_assert_uint_eq(s.count, 600);
    ck_assert_uint_eq(dev_io(sim, 0).commands[SSDSIM_OP_READ], 600);
    st_within(s.bw_bytes, sc->rate, 0.01, sc->host);
    /* every page came from flash */
    ck_assert_uint_ge(host_reads(sim, 0), 600 * 32);
    ssdsim_free(sim);
    ssdsim_model_free(m);
}
END_TEST

/* Mixed sequential 128 KiB reads and writes at 16 outstanding on the fast drive: on SATA the
 * two directions take turns on one timeline, so reads + writes together move at most the link
 * rate, 594.15 MB/s; a custom full-duplex link of the same rate carries each direction at that
 * rate at once (so well over 1.5 x it in total, the flash keeping up: writes program at
 * 32 dies x 4 KiB / 25.12 us = 5.2 GB/s). */
START_TEST(test_devices_sata_mixed_run_shares_link)
{
    const double rate = 6e9 / 10 * 2048 / 2052 * 254 / 256;
    const char *wl =
        "{\"rw\":\"rw\",\"rwmixread\":50,\"bs\":\"128k\",\"iodepth\":16,\"number_ios\":400}";
    ssdsim_model *m = fast("\"interface\":\"sata\",\"gbps\":6");
    ssdsim *sim = st_sim(m, 1);
    ck_assert_int_eq(ssdsim_precondition_seq(sim), 0);
    st_run(sim, wl, NULL);
    ssdsim_op_stats all = op_stats(sim, SSDSIM_OP_ALL);
    ck_assert_uint_eq(all.count, 400);
    ck_assert_double_le(all.bw_bytes, rate * 1.0005);
    ck_assert_double_ge(all.bw_bytes, rate * 0.97);
    ssdsim_free(sim);
    ssdsim_model_free(m);

    /* the same rate as a full-duplex custom link */
    g_autofree char *host = g_strdup_printf("\"link_bw\":%.0f,\"cmd_overhead_us\":4", rate);
    m = fast(host);
    sim = st_sim(m, 1);
    ck_assert_int_eq(ssdsim_precondition_seq(sim), 0);
    st_run(sim, wl, NULL);
    all = op_stats(sim, SSDSIM_OP_ALL);
    ck_assert_double_gt(all.bw_bytes, rate * 1.5);
    ssdsim_free(sim);
    ssdsim_model_free(m);
}
END_TEST

/* ------------------------------------------------------------------------------------------ */
/* 2. Host-based FTL                                                                           */

/* One host thread at 5 us a command runs before everything else: QD1 latency grows by exactly
 * 5 us (read 69.2 -> 74.2 us, write 79.2 -> 84.2 us on the tiny drive). */
START_TEST(test_devices_host_ftl_adds_cpu_time)
{
    ssdsim_model *m = tiny(CUSTOM_HOST ",\"ftl_threads\":1,\"ftl_cpu_us\":5", NULL);
    ssdsim *sim = st_sim(m, 1);
    ck_assert_uint_eq(st_one(sim, SSDSIM_OP_WRITE, 0, 4096), WRITE_NS + 5000);
    ck_assert_uint_eq(st_one(sim, SSDSIM_OP_READ, 0, 4096), READ_NS + 5000);
    ck_assert_uint_eq(((struct ssdsim *)sim)->sys.devs[0].cpu.busy_ns, 2 * 5000);
    ssdsim_free(sim);
    ssdsim_model_free(m);
}
END_TEST

/* Random 4 KiB reads at 64 outstanding on the fast drive over PCIe gen 3 x4. Without a host
 * FTL the link sets the pace: 1 / 1,138 ns = 879 K IOPS (flash: 2.1 M pages/s; firmware 4 cores
 * / 1 us = 4 M). With one host thread at 5 us a command: 1 / 5 us = 200 K IOPS, the thread
 * never idle once the queue fills (a request's other stages take 1 + 1 + 10 + 5.12 + 1.14 us =
 * 18.3 us, 4 requests' worth of thread time). The run's start and tail add < 0.1% to 20,000 x
 * 5 us. */
START_TEST(test_devices_host_ftl_caps_iops)
{
    const char *wl =
        "{\"rw\":\"randread\",\"bs\":\"4k\",\"iodepth\":32,\"numjobs\":2,\"number_ios\":10000}";
    ssdsim_model *m = fast("\"interface\":\"pcie\",\"pcie_gen\":3,\"lanes\":4");
    ssdsim *sim = st_sim(m, 1);
    ck_assert_int_eq(ssdsim_precondition_seq(sim), 0);
    st_run(sim, wl, NULL);
    double free_iops = op_stats(sim, SSDSIM_OP_READ).iops;
    st_within(free_iops, 1e9 / 1138, 0.02, "link-bound IOPS");
    ssdsim_free(sim);

    set(m, "host.ftl_threads", "1");
    set(m, "host.ftl_cpu_us", "5");
    sim = st_sim(m, 1);
    ck_assert_int_eq(ssdsim_precondition_seq(sim), 0);
    st_run(sim, wl, NULL);
    ssdsim_op_stats s = op_stats(sim, SSDSIM_OP_READ);
    ck_assert_uint_eq(s.count, 20000);
    ck_assert_double_le(s.iops, 200000.0);
    st_within(s.iops, 200000.0, 0.005, "host-FTL IOPS");
    ssdsim_free(sim);
    ssdsim_model_free(m);
}
END_TEST

/* ------------------------------------------------------------------------------------------ */
/* 3. Write buffer                                                                             */

/* The tiny drive with a 256 KiB buffer: 64 units of 4 KiB. DRAM at the default 3200 MB/s: a
 * 4 KiB copy takes 4096 / 3.2e9 s = 1,280 ns. One plane: the flush depth is 1. */
#define BUF_EXTRA(fields) ",\"buffer\":{\"size\":\"256KiB\"" fields "}"
enum { DRAM_NS = 1280, BUF_UNITS = 64 };

/* PLP buffer, flushing from the first dirty unit (flush_start 0):
 *   write: 3 + 5 + 10.24 us link + 1.28 us DRAM copy = 19,520 ns, acknowledged from DRAM
 *   read from flash (after the flush): 69,200 ns, above the write
 *   read hit (a unit still in the buffer): 3 + 5 + 1.28 + 10.24 us = 19,520 ns
 *   read of a never written unit: 3 + 5 + 10.24 = 18,240 ns */
START_TEST(test_devices_buffer_plp_write_below_read)
{
    ssdsim_model *m = tiny(CUSTOM_HOST, BUF_EXTRA(",\"plp\":true"));
    ssdsim *sim = st_sim(m, 1);
    uint64_t w = st_one(sim, SSDSIM_OP_WRITE, 0, 4096);
    ck_assert_uint_eq(w, CUSTOM_OVH_NS + FW_NS + L4K_CUSTOM + DRAM_NS);
    ck_assert_uint_eq(w, 19520);
    /* the flush of unit 0 started at once: its program (bus + tPROG) is done 60.96 us later */
    ck_assert_uint_eq(host_programs(sim, 0), 1);
    ck_assert_int_eq(ssdsim_run_until(sim, ssdsim_now(sim) + BUS_NS + TPROG_NS), 0);
    ck_assert(!ssdsim__dev_busy(&((struct ssdsim *)sim)->sys.devs[0]));
    uint64_t r = st_one(sim, SSDSIM_OP_READ, 0, 4096);
    ck_assert_uint_eq(r, READ_NS);
    ck_assert_uint_lt(w, r);
    ck_assert_uint_eq(st_one(sim, SSDSIM_OP_READ, 4096, 4096), CUSTOM_OVH_NS + FW_NS + L4K_CUSTOM);
    ssdsim_free(sim);
    ssdsim_model_free(m);

    /* flush_start 0.5: up to 32 dirty units stay in DRAM, so reads of them hit */
    m = tiny(CUSTOM_HOST, BUF_EXTRA(",\"plp\":true,\"flush_start\":0.5"));
    sim = st_sim(m, 1);
    ck_assert_uint_eq(st_one(sim, SSDSIM_OP_WRITE, 5 * 4096, 4096), 19520);
    ssdsim_reset_stats(sim);
    ck_assert_uint_eq(st_one(sim, SSDSIM_OP_READ, 5 * 4096, 4096),
                      CUSTOM_OVH_NS + FW_NS + DRAM_NS + L4K_CUSTOM);
    ck_assert_uint_eq(dev_io(sim, 0).buffer_read_hits, 1);
    ck_assert_uint_eq(host_reads(sim, 0), 0);
    ck_assert_uint_eq(host_programs(sim, 0), 0);
    ssdsim_free(sim);
    ssdsim_model_free(m);
}
END_TEST

/* A volatile buffer acknowledges from DRAM with its write cache on (19,520 ns as with PLP) and
 * only after the program with it off (79,200 ns, the drive without a buffer); with the cache off
 * the buffer stays empty, so a read right after the write goes to flash. */
START_TEST(test_devices_buffer_volatile_write_cache)
{
    ssdsim_model *m = tiny(CUSTOM_HOST, BUF_EXTRA(",\"write_cache\":true"));
    ssdsim *sim = st_sim(m, 1);
    ck_assert_uint_eq(st_one(sim, SSDSIM_OP_WRITE, 0, 4096), 19520);
    ssdsim_free(sim);
    ssdsim_model_free(m);

    m = tiny(CUSTOM_HOST, BUF_EXTRA(",\"write_cache\":false"));
    sim = st_sim(m, 1);
    ck_assert_uint_eq(st_one(sim, SSDSIM_OP_WRITE, 0, 4096), WRITE_NS);
    ck_assert_uint_eq(st_one(sim, SSDSIM_OP_READ, 0, 4096), READ_NS);
    ck_assert_uint_eq(dev_io(sim, 0).buffer_read_hits, 0);
    ck_assert_uint_eq(dev_io(sim, 0).buffer_absorbed, 0);
    ck_assert_uint_eq(host_programs(sim, 0), 1);
    ssdsim_free(sim);
    ssdsim_model_free(m);

    /* no buffer at all: the same */
    m = tiny(CUSTOM_HOST, NULL);
    sim = st_sim(m, 1);
    ck_assert_uint_eq(st_one(sim, SSDSIM_OP_WRITE, 0, 4096), WRITE_NS);
    ssdsim_free(sim);
    ssdsim_model_free(m);
}
END_TEST

/* 600 sequential 4 KiB writes, 32 outstanding, into the 64-unit PLP buffer flushing from the
 * first dirty unit. While slots are free, writes are acknowledged at the front end's pace (the
 * link, 10.24 us each); once the buffer is full a write waits for a flush to free a slot, and
 * flushes go one at a time on the one die: 40.96 + 20 = 60.96 us each, 16,404 writes/s. So the
 * last 100 writes run at 16,404 IOPS (within 1%) and the first 100 far faster (by about
 * 10.24 us x 74 + 60.96 us x 26 = 2.3 ms: 43 K IOPS; asserted > 2 x the flash rate). After
 * flush_idle_us everything is on flash: programs = host pages = 600. */
START_TEST(test_devices_buffer_full_falls_to_program_rate)
{
    ssdsim_model *m = tiny(CUSTOM_HOST, BUF_EXTRA(",\"plp\":true,\"flush_idle_us\":100"));
    ssdsim *sim = st_sim(m, 1);
    ssdsim_run_opts o = {.interval_ios = 100};
    st_run(sim, "{\"rw\":\"write\",\"bs\":\"4k\",\"iodepth\":32,\"number_ios\":600}", &o);
    size_t n = ssdsim_n_intervals(sim);
    ck_assert_uint_eq(n, 6);
    ssdsim_interval first, last;
    ck_assert_int_eq(ssdsim_get_interval(sim, 0, &first), 0);
    ck_assert_int_eq(ssdsim_get_interval(sim, n - 1, &last), 0);
    const double program_rate = 1e9 / (BUS_NS + TPROG_NS);
    st_within(program_rate, 16404.2, 1e-4, "program rate");
    st_within(last.iops, program_rate, 0.01, "buffer-full write IOPS");
    ck_assert_double_gt(first.iops, 2 * program_rate);
    ck_assert_int_eq(ssdsim_run_until(sim, ssdsim_now(sim) + 10000000), 0);
    ck_assert(!ssdsim__buf_pending(((struct ssdsim *)sim)->sys.devs[0].buf));
    ck_assert_uint_eq(host_pages(sim, 0), 600);
    ck_assert_uint_eq(host_programs(sim, 0), 600);
    ssdsim_free(sim);
    ssdsim_model_free(m);
}
END_TEST

/* 1000 writes of unit 0 submitted together with flush_start 0.5 (flushing begins above 32
 * dirty units): unit 0 is the only dirty unit, so each write after the first overwrites it in
 * DRAM. The front end paces them: firmware 5 us each on one core, data 10.24 us each on the
 * link, so write k's data ends at 3 + 5 + (k + 1) x 10.24 us and its copy 1.28 us later; the
 * last (k = 999) at 8,000 + 10,240,000 + 1,280 = 10,249,280 ns. Nothing is flushed while the
 * host writes; flush_idle_us 100 flushes the one dirty unit 100 us after the device went idle:
 * 1 program for 1000 host pages (WAF 0.001), 999 absorbed, programs + absorbed = host pages. */
START_TEST(test_devices_buffer_absorbs_overwrites)
{
    ssdsim_model *m =
        tiny(CUSTOM_HOST, BUF_EXTRA(",\"plp\":true,\"flush_start\":0.5,\"flush_idle_us\":100"));
    ssdsim *sim = st_sim(m, 1);
    for (uint64_t i = 0; i < 1000; i++)
        ck_assert_int_eq(ssdsim_submit(sim, SSDSIM_OP_WRITE, 0, 4096, 0, i, NULL, NULL), 0);
    ck_assert_int_eq(ssdsim_drain(sim), 0);
    ck_assert_uint_eq(ssdsim_now(sim), 10249280);
    ck_assert_uint_eq(host_programs(sim, 0), 0);
    ck_assert_int_eq(ssdsim_run_until(sim, 10249280 + 100000 - 1), 0);
    ck_assert_uint_eq(host_programs(sim, 0), 0);
    ck_assert_int_eq(ssdsim_run_until(sim, 10249280 + 100000 + BUS_NS + TPROG_NS), 0);
    ck_assert_uint_eq(host_programs(sim, 0), 1);
    ck_assert(!ssdsim__dev_busy(&((struct ssdsim *)sim)->sys.devs[0]));
    ssdsim_device_io d = dev_io(sim, 0);
    ck_assert_uint_eq(d.host_pages_written, 1000);
    ck_assert_uint_eq(d.flash_pages_programmed, 1);
    ck_assert_uint_eq(d.buffer_absorbed, 999);
    ck_assert_double_eq_tol(d.waf, 0.001, 1e-12);
    ck_assert_uint_eq(d.flash_pages_programmed + d.buffer_absorbed, d.host_pages_written);
    ssdsim_free(sim);
    ssdsim_model_free(m);
}
END_TEST

/* flush_start 0.5, flush_stop 0.25 of 64 units: flushing starts when more than 32 units are
 * dirty and goes on until 16 are (buffer.c). 32 writes of distinct units at QD1 leave 32 dirty
 * and nothing flushed (not more than 32); the 33rd starts flushing, which stops at 16 dirty:
 * 33 - 16 = 17 programs, and with flush_idle_us 0 the other 16 stay in DRAM for good. */
START_TEST(test_devices_buffer_flush_hysteresis)
{
    ssdsim_model *m =
        tiny(CUSTOM_HOST, BUF_EXTRA(",\"plp\":true,\"flush_start\":0.5,\"flush_stop\":0.25"));
    ssdsim *sim = st_sim(m, 1);
    for (uint64_t u = 0; u < 32; u++)
        ck_assert_uint_eq(st_one(sim, SSDSIM_OP_WRITE, u * 4096, 4096), 19520);
    ck_assert_int_eq(ssdsim_run_until(sim, ssdsim_now(sim) + 10000000), 0);
    ck_assert_uint_eq(host_programs(sim, 0), 0);
    ck_assert_uint_eq(st_one(sim, SSDSIM_OP_WRITE, 32 * 4096, 4096), 19520);
    /* 17 flushes one after another: 17 x 60.96 us = 1.036 ms */
    /* they began when the write arrived, at most its 19.52 us before t: the 17th is still
     * being programmed 16 flushes after t less that */
    uint64_t t = ssdsim_now(sim);
    ck_assert_int_eq(ssdsim_run_until(sim, t + 16 * (BUS_NS + TPROG_NS) - 19520 + 1), 0);
    ck_assert(ssdsim__dev_busy(&((struct ssdsim *)sim)->sys.devs[0]));
    ck_assert_int_eq(ssdsim_run_until(sim, t + 100000000), 0);
    ck_assert_uint_eq(host_programs(sim, 0), 17);
    /* the 16 dirty units left are data at rest, not work a settle waits for */
    ck_assert(!ssdsim__dev_busy(&((struct ssdsim *)sim)->sys.devs[0]));
    ck_assert_uint_eq(((struct ssdsim *)sim)->sys.devs[0].hw.n_dies, 1);
    /* the 16 left are still served from DRAM */
    ssdsim_reset_stats(sim);
    ck_assert_uint_eq(st_one(sim, SSDSIM_OP_READ, 32 * 4096, 4096), 19520);
    ck_assert_uint_eq(st_one(sim, SSDSIM_OP_READ, 0, 4096), READ_NS); /* flushed first */
    ck_assert_uint_eq(dev_io(sim, 0).buffer_read_hits, 1);
    ssdsim_free(sim);
    ssdsim_model_free(m);
}
END_TEST

/* flush_idle_us 200 with flush_start 0.5: 10 writes at QD1 stay dirty (10 <= 32); 200 us after
 * the last one completed (the device idle) the buffer flushes all 10, one after another:
 * none is programmed 1 ns before, the first at once, all 10 done 10 x 60.96 us later. */
START_TEST(test_devices_buffer_idle_flush)
{
    ssdsim_model *m =
        tiny(CUSTOM_HOST, BUF_EXTRA(",\"plp\":true,\"flush_start\":0.5,\"flush_idle_us\":200"));
    ssdsim *sim = st_sim(m, 1);
    for (uint64_t u = 0; u < 10; u++)
        ck_assert_uint_eq(st_one(sim, SSDSIM_OP_WRITE, u * 4096, 4096), 19520);
    uint64_t t = ssdsim_now(sim);
    ck_assert_int_eq(ssdsim_run_until(sim, t + 200000 - 1), 0);
    ck_assert_uint_eq(host_programs(sim, 0), 0);
    ck_assert_int_eq(ssdsim_run_until(sim, t + 200000), 0);
    ck_assert_uint_eq(host_programs(sim, 0), 1);
    ck_assert_int_eq(ssdsim_run_until(sim, t + 200000 + 10 * (BUS_NS + TPROG_NS) - 1), 0);
    ck_assert(ssdsim__dev_busy(&((struct ssdsim *)sim)->sys.devs[0]));
    ck_assert_uint_eq(host_programs(sim, 0), 10);
    ck_assert_int_eq(ssdsim_run_until(sim, t + 200000 + 10 * (BUS_NS + TPROG_NS)), 0);
    ck_assert(!ssdsim__dev_busy(&((struct ssdsim *)sim)->sys.devs[0]));
    ssdsim_free(sim);
    ssdsim_model_free(m);
}
END_TEST

/* A 128 KiB write into a 64 KiB buffer (16 units) flushing from the first dirty unit: it
 * arrives after 3 + 5 us and 128 KiB on the link (327,680 ns), at 335,680 ns; 16 units fit at
 * once and the first flush starts; every flush (60.96 us on the die) frees a slot for the next
 * unit, so unit 31 is placed when the 16th flush ends, at 335,680 + 16 x 60,960 = 1,311,040,
 * and copied 1.28 us later: 1,312,320 ns. A 2 KiB write is acknowledged after its 2 KiB on the
 * link (5,120 ns) and in DRAM (640 ns): 13,760 ns. A trim drops a dirty unit: it is never
 * programmed. */
START_TEST(test_devices_buffer_smaller_than_write)
{
    ssdsim_model *m =
        tiny(CUSTOM_HOST, ",\"buffer\":{\"size\":\"64KiB\",\"plp\":true,\"flush_idle_us\":100}");
    ssdsim *sim = st_sim(m, 1);
    uint64_t w = st_one(sim, SSDSIM_OP_WRITE, 0, 131072);
    ck_assert_uint_eq(w,
                      CUSTOM_OVH_NS + FW_NS + 32 * L4K_CUSTOM + 16 * (BUS_NS + TPROG_NS) + DRAM_NS);
    ck_assert_uint_eq(w, 1312320);
    ssdsim_free(sim);
    ssdsim_model_free(m);

    m = tiny(CUSTOM_HOST, BUF_EXTRA(",\"plp\":true,\"flush_start\":0.5,\"flush_idle_us\":100"));
    sim = st_sim(m, 1);
    ck_assert_uint_eq(st_one(sim, SSDSIM_OP_WRITE, 8192, 2048), CUSTOM_OVH_NS + FW_NS + 5120 + 640);
    ck_assert_uint_eq(st_one(sim, SSDSIM_OP_WRITE, 0, 4096), 19520);
    ck_assert_uint_eq(st_one(sim, SSDSIM_OP_TRIM, 0, 4096), CUSTOM_OVH_NS + FW_NS);
    ck_assert_int_eq(ssdsim_run_until(sim, ssdsim_now(sim) + 10000000), 0);
    ck_assert(!ssdsim__dev_busy(&((struct ssdsim *)sim)->sys.devs[0]));
    /* the partial unit went to flash (unwritten before: no read-modify-write), unit 0 did not */
    ck_assert_uint_eq(host_programs(sim, 0), 1);
    ck_assert_uint_eq(ssdsim_lookup(sim, 0), UINT64_MAX);
    ck_assert_uint_ne(ssdsim_lookup(sim, 2), UINT64_MAX);
    ssdsim_free(sim);
    ssdsim_model_free(m);
}
END_TEST

/* Random 4 KiB writes over 48 units (a region smaller than the buffer) at 16 outstanding,
 * flushing between 25% and 10%, idle flush after 100 us: overwrites of dirty units are
 * absorbed, units rewritten while being flushed are flushed again. When all is on flash, every
 * host page is either a host program or absorbed (GC copies are not host programs). */
START_TEST(test_devices_buffer_loses_no_write)
{
    ssdsim_model *m =
        tiny(CUSTOM_HOST, BUF_EXTRA(",\"plp\":true,\"flush_start\":0.25,\"flush_stop\":0.1,"
                                    "\"flush_idle_us\":100"));
    ssdsim *sim = st_sim(m, 3);
    st_run(sim,
           "{\"rw\":\"randwrite\",\"bs\":\"4k\",\"size\":\"192k\",\"norandommap\":true,"
           "\"iodepth\":16,\"number_ios\":3000}",
           NULL);
    ck_assert_int_eq(ssdsim_run_until(sim, ssdsim_now(sim) + 20000000), 0);
    ck_assert(!ssdsim__dev_busy(&((struct ssdsim *)sim)->sys.devs[0]));
    ssdsim_device_io d = dev_io(sim, 0);
    ck_assert_uint_eq(d.host_pages_written, 3000);
    ck_assert_uint_gt(d.buffer_absorbed, 0);
    ck_assert_uint_eq(host_programs(sim, 0) + d.buffer_absorbed, 3000);
    ck_assert_uint_eq(host_pages(sim, 0), 3000);
    ssdsim_free(sim);
    ssdsim_model_free(m);
}
END_TEST

/* ------------------------------------------------------------------------------------------ */
/* 4. Arrays                                                                                   */

/* RAID-0 of 4, 64 KiB strips: strip s = offset / 64 KiB on device s mod 4 at
 * (s div 4) x 64 KiB + offset mod 64 KiB. */
START_TEST(test_devices_raid0_map_table)
{
    const uint64_t K = 1024, S = 64 * K;
    static const struct {
        uint64_t off;
        uint32_t dev;
        uint64_t doff;
    } t[] = {
        {0, 0, 0},
        {4096, 0, 4096},
        {65535, 0, 65535},
        {65536, 1, 0},
        {2 * 65536 + 100, 2, 100},
        {3 * 65536 + 65535, 3, 65535},
        {4 * 65536, 0, 65536},
        {5 * 65536 + 8, 1, 65536 + 8},
        {9 * 65536 + 4096, 1, 2 * 65536 + 4096},
        {400 * 65536 + 7, 0, 100 * 65536 + 7},
    };
    for (size_t i = 0; i < SSDSIM__ARRAY_LEN(t); i++) {
        uint32_t dev = 99;
        uint64_t doff = 99;
        ssdsim__raid0_map(4, (uint32_t)S, t[i].off, &dev, &doff);
        ck_assert_msg(dev == t[i].dev && doff == t[i].doff, "offset %llu: dev %u at %llu",
                      (unsigned long long)t[i].off, dev, (unsigned long long)doff);
    }
}
END_TEST

/* RAID-5 of 4, 64 KiB strips, left-symmetric (Linux md's default): row r = strip / 3 keeps its
 * parity on device 3 - (r mod 4), its data strips on the devices after it, round the ring:
 *
 *            dev 0   dev 1   dev 2   dev 3
 *   row 0    D0      D1      D2      P
 *   row 1    D4      D5      P       D3
 *   row 2    D8      P       D6      D7
 *   row 3    P       D9      D10     D11
 *   row 4    D12     D13     D14     P
 *
 * each strip at row x 64 KiB + offset in the strip on its device. */
START_TEST(test_devices_raid5_map_table)
{
    const uint32_t S = 65536;
    /* strip -> data device, parity device (table above) */
    static const uint32_t data_dev[15] = {0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2};
    static const uint32_t par_dev[5] = {3, 2, 1, 0, 3};
    for (uint64_t strip = 0; strip < 15; strip++) {
        for (uint64_t in = 0; in < S; in += 4096 + 511) {
            uint32_t dev = 99, pdev = 99;
            uint64_t doff = 0;
            ssdsim__raid5_map(4, S, strip * S + in, &dev, &doff, &pdev);
            uint64_t row = strip / 3;
            ck_assert_uint_eq(dev, data_dev[strip]);
            ck_assert_uint_eq(pdev, par_dev[row]);
            ck_assert_uint_ne(dev, pdev);
            ck_assert_uint_eq(doff, row * S + in);
        }
    }
    /* 3 devices (2 data strips a row): row 0 P on 2 (D0 0, D1 1), row 1 P on 1 (D2 2, D3 0),
     * row 2 P on 0 (D4 1, D5 2) */
    static const uint32_t d3[6] = {0, 1, 2, 0, 1, 2}, p3[3] = {2, 1, 0};
    for (uint64_t strip = 0; strip < 6; strip++) {
        uint32_t dev, pdev;
        uint64_t doff;
        ssdsim__raid5_map(3, S, strip * S + 12, &dev, &doff, &pdev);
        ck_assert_uint_eq(dev, d3[strip]);
        ck_assert_uint_eq(pdev, p3[strip / 2]);
        ck_assert_uint_eq(doff, strip / 2 * S + 12);
    }
}
END_TEST

/* Each member of an array has its own controller (its own link and firmware core). */
static ssdsim_model *array_of(const char *layout, uint32_t count, const char *more)
{
    g_autofree char *member = tiny_json(CUSTOM_HOST, NULL);
    g_autofree char *sys = g_strdup_printf("\"count\":%u,\"layout\":\"%s\",\"controllers\":%u%s",
                                           count, layout, count, more ? more : "");
    return system_of(member, sys);
}

/* RAID-0 of 4, 64 KiB strips. A 256 KiB write at 0 splits into one 64 KiB command a device
 * (16 units each): 3 + 5 us, the 64 KiB over the member's link (163,840 ns), then 16 programs
 * one after another on its one die (16 x 60.96 us): 1,147,200 ns, the four in parallel. The
 * 256 KiB read back: 4 commands of 64 KiB, each 3 + 5 us, 16 x (10 + 40.96) us on the die, the
 * last unit's 10.24 us on the link (the link keeps up with the die): 833,600 ns, one 64 KiB
 * read's latency. */
START_TEST(test_devices_raid0_splits_at_strips)
{
    ssdsim_model *m = array_of("raid0", 4, ",\"stripe\":\"64KiB\"");
    ssdsim *sim = st_sim(m, 1);
    ck_assert_uint_eq(ssdsim_n_devices(sim), 4);
    uint64_t w = st_one(sim, SSDSIM_OP_WRITE, 0, 262144);
    ck_assert_uint_eq(w, CUSTOM_OVH_NS + FW_NS + 163840 + 16 * (BUS_NS + TPROG_NS));
    ck_assert_uint_eq(w, 1147200);
    for (uint32_t k = 0; k < 4; k++)
        ck_assert_uint_eq(host_programs(sim, k), 16);
    ssdsim_reset_stats(sim);
    uint64_t r = st_one(sim, SSDSIM_OP_READ, 0, 262144);
    ck_assert_uint_eq(r, CUSTOM_OVH_NS + FW_NS + 16 * (TR_NS + BUS_NS) + L4K_CUSTOM);
    ck_assert_uint_eq(r, 833600);
    for (uint32_t k = 0; k < 4; k++) {
        ssdsim_device_io d = dev_io(sim, k);
        ck_assert_uint_eq(d.commands[SSDSIM_OP_READ], 1);
        ck_assert_uint_eq(d.bytes[SSDSIM_OP_READ], 65536);
    }
    ssdsim_free(sim);
    ssdsim_model_free(m);

    /* the same 64 KiB read on one member alone */
    m = tiny(CUSTOM_HOST, NULL);
    sim = st_sim(m, 1);
    st_one(sim, SSDSIM_OP_WRITE, 0, 65536);
    ck_assert_uint_eq(st_one(sim, SSDSIM_OP_READ, 0, 65536), 833600);
    ssdsim_free(sim);
    ssdsim_model_free(m);
}
END_TEST

/* RAID-0 of 4, 64 KiB strips: 320 KiB read at 32 KiB covers strip 0 from 32 KiB (device 0 at
 * 32 KiB), strips 1..3 whole (devices 1..3 at 0), strip 4 (device 0 at 64 KiB) and half of
 * strip 5 (device 1 at 64 KiB): pieces contiguous on one device merge, so device 0 and device 1
 * each get one 96 KiB command (24 units), devices 2 and 3 one of 64 KiB. The slowest: 3 + 5 us +
 * 24 x 50.96 us + 10.24 us = 1,241,280 ns. */
START_TEST(test_devices_raid0_merges_pieces_per_device)
{
    ssdsim_model *m = array_of("raid0", 4, ",\"stripe\":\"64KiB\"");
    ssdsim *sim = st_sim(m, 1);
    ck_assert_int_eq(ssdsim_precondition_seq(sim), 0);
    uint64_t r = st_one(sim, SSDSIM_OP_READ, 32768, 327680);
    ck_assert_uint_eq(r, CUSTOM_OVH_NS + FW_NS + 24 * (TR_NS + BUS_NS) + L4K_CUSTOM);
    ck_assert_uint_eq(r, 1241280);
    static const uint64_t bytes[4] = {98304, 98304, 65536, 65536};
    for (uint32_t k = 0; k < 4; k++) {
        ssdsim_device_io d = dev_io(sim, k);
        ck_assert_uint_eq(d.commands[SSDSIM_OP_READ], 1);
        ck_assert_uint_eq(d.bytes[SSDSIM_OP_READ], bytes[k]);
    }
    ssdsim_free(sim);
    ssdsim_model_free(m);
}
END_TEST

/* RAID-1 of 2: a write goes to both mirrors (in parallel: 79.2 us), a read to one (the least
 * busy, the lowest on ties: at QD1 always mirror 0, 69.2 us). Two reads at once go one to each
 * mirror. */
START_TEST(test_devices_raid1_mirrors)
{
    ssdsim_model *m = array_of("raid1", 2, NULL);
    ssdsim *sim = st_sim(m, 1);
    for (uint64_t u = 0; u < 10; u++)
        ck_assert_uint_eq(st_one(sim, SSDSIM_OP_WRITE, u * 4096, 4096), WRITE_NS);
    ck_assert_uint_eq(host_pages(sim, 0), 10);
    ck_assert_uint_eq(host_pages(sim, 1), 10);
    ck_assert_uint_eq(op_stats(sim, SSDSIM_OP_WRITE).count, 10);
    for (uint64_t u = 0; u < 10; u++)
        ck_assert_uint_eq(st_one(sim, SSDSIM_OP_READ, u * 4096, 4096), READ_NS);
    ck_assert_uint_eq(host_reads(sim, 0), 10);
    ck_assert_uint_eq(host_reads(sim, 1), 0);
    struct req rq[2] = {{SSDSIM_OP_READ, 0, 4096}, {SSDSIM_OP_READ, 4096, 4096}};
    uint64_t lat[2];
    together(sim, rq, 2, lat);
    ck_assert_uint_eq(lat[0], READ_NS);
    ck_assert_uint_eq(lat[1], READ_NS);
    ck_assert_uint_eq(host_reads(sim, 0), 11);
    ck_assert_uint_eq(host_reads(sim, 1), 1);
    ssdsim_free(sim);
    ssdsim_model_free(m);
}
END_TEST

/* RAID-5 of 4, 64 KiB strips, raid_us 7, path_us 2.
 *   A full-stripe write (row 0: 192 KiB at 0) needs no reads: 7 us RAID layer, then 4 commands
 *   of 64 KiB at once (3 data strips on devices 0..2, parity on device 3), each 2 + 3 + 5 us,
 *   163,840 ns of link, 16 programs: 7,000 + 2,000 + 1,147,200 = 1,156,200 ns.
 *   A 4 KiB write at 0 (D0 on device 0, parity on device 3): read old data and old parity
 *   (in parallel, each 2 us path + 69.2 us), then write both (each 2 us + 79.2 us):
 *   7,000 + 71,200 + 81,200 = 159,400 ns.
 * raid_us and path_us add exactly their time: a 4 KiB read costs 7 + 2 + 69.2 = 78.2 us. */
START_TEST(test_devices_raid5_read_modify_write)
{
    ssdsim_model *m = array_of("raid5", 4, ",\"stripe\":\"64KiB\",\"raid_us\":7,\"path_us\":2");
    ssdsim *sim = st_sim(m, 1);
    ck_assert_uint_eq(st_one(sim, SSDSIM_OP_WRITE, 0, 3 * 65536),
                      7000 + 2000 + CUSTOM_OVH_NS + FW_NS + 163840 + 16 * (BUS_NS + TPROG_NS));
    for (uint32_t k = 0; k < 4; k++) {
        ck_assert_uint_eq(host_reads(sim, k), 0);
        ck_assert_uint_eq(host_programs(sim, k), 16);
    }
    uint64_t w = st_one(sim, SSDSIM_OP_WRITE, 0, 4096);
    ck_assert_uint_eq(w, 7000 + (2000 + READ_NS) + (2000 + WRITE_NS));
    ck_assert_uint_eq(w, 159400);
    static const uint64_t reads[4] = {1, 0, 0, 1}, programs[4] = {17, 16, 16, 17};
    for (uint32_t k = 0; k < 4; k++) {
        ck_assert_uint_eq(host_reads(sim, k), reads[k]);
        ck_assert_uint_eq(host_programs(sim, k), programs[k]);
    }
    ck_assert_uint_eq(st_one(sim, SSDSIM_OP_READ, 65536, 4096), 7000 + 2000 + READ_NS);
    ck_assert_uint_eq(host_reads(sim, 1), 1); /* D1 */
    ssdsim_free(sim);
    ssdsim_model_free(m);

    /* without raid_us and path_us: 69.2 + 79.2 us */
    m = array_of("raid5", 4, ",\"stripe\":\"64KiB\"");
    sim = st_sim(m, 1);
    st_one(sim, SSDSIM_OP_WRITE, 0, 3 * 65536);
    ck_assert_uint_eq(st_one(sim, SSDSIM_OP_WRITE, 0, 4096), READ_NS + WRITE_NS);
    ck_assert_uint_eq(st_one(sim, SSDSIM_OP_READ, 65536, 4096), READ_NS);
    ssdsim_free(sim);
    ssdsim_model_free(m);

    /* RAID-0 pays the same: 7 + 2 + 69.2 us for a 4 KiB read of written data */
    m = array_of("raid0", 4, ",\"stripe\":\"64KiB\",\"raid_us\":7,\"path_us\":2");
    sim = st_sim(m, 1);
    ck_assert_uint_eq(st_one(sim, SSDSIM_OP_WRITE, 0, 4096), 7000 + 2000 + WRITE_NS);
    ck_assert_uint_eq(st_one(sim, SSDSIM_OP_READ, 0, 4096), 7000 + 2000 + READ_NS);
    ssdsim_free(sim);
    ssdsim_model_free(m);
}
END_TEST

/* Arrays: the devices' over-provisioning is their flash against what they hold, and endurance
 * is in the volume's host bytes. The member has 4 MiB of flash (64 blocks x 16 pages x 4 KiB)
 * and exposes 800 units of 4 KiB (op 0.28): P = 4,194,304 and M = 3,276,800 bytes.
 *  - RAID-5 of 4, 64 KiB strips (50 a member, none left over): the volume is 3 M; the devices
 *    hold 4 M (the parity strips are data to them), so their op is (P - M) / M = 0.28, not
 *    (4 P - 3 M) / 3 M. A whole row (192 KiB) gives the devices 256 KiB: 4/3, the layout's own
 *    factor; a 4 KiB write then gives them its data and its parity: (256 + 8) / (192 + 4).
 *    The host's bytes to wear-out are the flash's, rated x 4 P / WAF, divided by that factor.
 *  - RAID-1 of 2: every host byte reaches both: factor 2, devices 2 M for a volume of M.
 *  - RAID-0 of 4, 256 KiB strips: a member maps 12 whole strips (3,145,728 bytes) and never
 *    writes the rest, which is spare: op (P - 3,145,728) / 3,145,728; factor 1.
 *  - A JBOD: every device is a volume: 4 M against 4 P, factor 1. */
static ssdsim_device_stats dev_stats(ssdsim *sim)
{
    ssdsim_device_stats d;
    ck_assert_int_eq(ssdsim_get_device_stats(sim, &d), 0);
    return d;
}

START_TEST(test_devices_array_spare_and_endurance)
{
    const double P = 4194304.0, M = 3276800.0, E = 12.0 * 262144;
    ssdsim_model *m = array_of("raid5", 4, ",\"stripe\":\"64KiB\"");
    ssdsim *sim = st_sim(m, 1);
    st_one(sim, SSDSIM_OP_WRITE, 0, 3 * 65536);
    ssdsim_device_stats d = dev_stats(sim);
    ck_assert_uint_eq(d.logical_bytes, 3 * (uint64_t)M);
    ck_assert_uint_eq(d.devices_logical_bytes, 4 * (uint64_t)M);
    ck_assert_uint_eq(d.physical_bytes, 4 * (uint64_t)P);
    ck_assert_double_eq_tol(d.op, (P - M) / M, 1e-9);
    ck_assert_double_eq_tol(d.spare_factor, (P - M) / P, 1e-9);
    ck_assert_double_eq_tol(d.array_write_factor, 4.0 / 3.0, 1e-12);
    ck_assert_double_eq_tol(d.waf, 1.0, 1e-12);
    ck_assert_double_eq_tol(d.tbw_mean_bytes, d.rated_pe_cycles * 4 * P / (4.0 / 3.0), 1e-3);
    ck_assert_double_eq_tol(d.dwpd_5y_mean, d.tbw_mean_bytes / (3 * M * 5 * 365), 1e-9);
    st_one(sim, SSDSIM_OP_WRITE, 0, 4096);
    d = dev_stats(sim);
    ck_assert_double_eq_tol(d.array_write_factor, (256.0 + 8) / (192.0 + 4), 1e-12);
    ck_assert_double_eq_tol(d.tbw_mean_bytes,
                            d.rated_pe_cycles * 4 * P / (d.waf * (256.0 + 8) / (192.0 + 4)),
                            1e-3);
    ssdsim_free(sim);
    ssdsim_model_free(m);

    m = array_of("raid1", 2, NULL);
    sim = st_sim(m, 1);
    for (uint64_t u = 0; u < 10; u++)
        st_one(sim, SSDSIM_OP_WRITE, u * 4096, 4096);
    d = dev_stats(sim);
    ck_assert_uint_eq(d.logical_bytes, (uint64_t)M);
    ck_assert_uint_eq(d.devices_logical_bytes, 2 * (uint64_t)M);
    ck_assert_double_eq_tol(d.op, (P - M) / M, 1e-9);
    ck_assert_double_eq_tol(d.array_write_factor, 2.0, 1e-12);
    ssdsim_free(sim);
    ssdsim_model_free(m);

    m = array_of("raid0", 4, ",\"stripe\":\"256KiB\"");
    sim = st_sim(m, 1);
    st_one(sim, SSDSIM_OP_WRITE, 0, 4096);
    d = dev_stats(sim);
    ck_assert_uint_eq(d.logical_bytes, 4 * (uint64_t)E);
    ck_assert_uint_eq(d.devices_logical_bytes, 4 * (uint64_t)E);
    ck_assert_double_eq_tol(d.op, (P - E) / E, 1e-9);
    ck_assert_double_eq_tol(d.array_write_factor, 1.0, 1e-12);
    ssdsim_free(sim);
    ssdsim_model_free(m);

    m = array_of("jbod", 4, NULL);
    sim = st_sim(m, 1);
    st_one(sim, SSDSIM_OP_WRITE, 0, 4096);
    d = dev_stats(sim);
    ck_assert_uint_eq(d.logical_bytes, 4 * (uint64_t)M);
    ck_assert_uint_eq(d.devices_logical_bytes, 4 * (uint64_t)M);
    ck_assert_double_eq_tol(d.op, (P - M) / M, 1e-9);
    ck_assert_double_eq_tol(d.array_write_factor, 1.0, 1e-12);
    ck_assert_double_eq_tol(d.tbw_mean_bytes, d.rated_pe_cycles * 4 * P / d.waf, 1e-3);
    ssdsim_free(sim);
    ssdsim_model_free(m);
}
END_TEST

/* RAID-5 of 4, 64 KiB strips, rows 0 and 1 written whole first (384 KiB: no reads).
 *
 * 8 KiB at 60 KiB: the last 4 KiB of D0 (device 0 at 60 KiB) and the first 4 KiB of D1
 * (device 1 at 0); the parity to read and rewrite is [0, 4) and [60, 64) KiB of P0 on device 3:
 * two commands there, not contiguous. Device 3 sets the pace. Reads: the first arrives at
 * 3 + 5 = 8 us and ends at 8 + 50.96 + 10.24 = 69.2 us; the second's firmware ends at 13 us,
 * the die is free at 58.96 us, it ends at 58.96 + 50.96 + 10.24 = 120.16 us. Writes: the first
 * arrives at 3 + 5 + 10.24 = 18.24 us, programmed by 79.2 us; the second's data follows on the
 * link (18.24 -> 28.48 us), the die takes it at 79.2: done at 140.16 us. 260,320 ns in all; 2
 * pages read and 2 programmed on device 3.
 *
 * 196 KiB at 0: row 0 whole (no reads) and 4 KiB of row 1 (D3: device 3 at 64 KiB; parity P1:
 * device 2 at 64 KiB). Reads: D3 and P1, in parallel, 69.2 us. Writes: D0, D1 on devices 0, 1
 * (64 KiB each); device 2 gets D2 (0..64 KiB) and P1 (64..68 KiB), device 3 P0 (0..64 KiB) and
 * D3 (64..68 KiB): contiguous, so one 68 KiB command each: 3 + 5 us + 17 x 10.24 us of link +
 * 17 x 60.96 us of programs = 1,218,400 ns. 69,200 + 1,218,400 = 1,287,600 ns. */
START_TEST(test_devices_raid5_partial_rows)
{
    ssdsim_model *m = array_of("raid5", 4, ",\"stripe\":\"64KiB\"");
    ssdsim *sim = st_sim(m, 1);
    st_one(sim, SSDSIM_OP_WRITE, 0, 6 * 65536);
    ck_assert_uint_eq(host_reads(sim, 3), 0);
    uint64_t w = st_one(sim, SSDSIM_OP_WRITE, 61440, 8192);
    ck_assert_uint_eq(w, 260320);
    ck_assert_uint_eq(w, (CUSTOM_OVH_NS + FW_NS + 2 * (TR_NS + BUS_NS) + L4K_CUSTOM) +
                             (CUSTOM_OVH_NS + FW_NS + L4K_CUSTOM + 2 * (BUS_NS + TPROG_NS)));
    static const uint64_t reads[4] = {1, 1, 0, 2}, progs[4] = {32 + 1, 32 + 1, 32, 32 + 2};
    for (uint32_t k = 0; k < 4; k++) {
        ck_assert_uint_eq(host_reads(sim, k), reads[k]);
        ck_assert_uint_eq(host_programs(sim, k), progs[k]);
    }
    ssdsim_reset_stats(sim);
    w = st_one(sim, SSDSIM_OP_WRITE, 0, 3 * 65536 + 4096);
    ck_assert_uint_eq(w,
                      READ_NS + CUSTOM_OVH_NS + FW_NS + 17 * L4K_CUSTOM + 17 * (BUS_NS + TPROG_NS));
    ck_assert_uint_eq(w, 1287600);
    static const uint64_t cmds[4] = {1, 1, 2, 2}, wbytes[4] = {65536, 65536, 69632, 69632};
    for (uint32_t k = 0; k < 4; k++) {
        ssdsim_device_io d = dev_io(sim, k);
        ck_assert_uint_eq(d.commands[SSDSIM_OP_READ] + d.commands[SSDSIM_OP_WRITE], cmds[k]);
        ck_assert_uint_eq(d.bytes[SSDSIM_OP_WRITE], wbytes[k]);
        ck_assert_uint_eq(d.bytes[SSDSIM_OP_READ], k >= 2 ? 4096 : 0);
    }
    ssdsim_free(sim);
    ssdsim_model_free(m);
}
END_TEST

/* A JBOD of 3 exposes 3 volumes; numjobs 3 runs one job on each (job k on volume k), so every
 * device gets exactly its job's writes. A JBOD has no RAID layer (raid_us is refused:
 * test_config). */
START_TEST(test_devices_jbod_one_job_per_device)
{
    ssdsim_model *m = array_of("jbod", 3, NULL);
    ck_assert_uint_eq(ssdsim_model_n_volumes(m), 3);
    ssdsim *sim = st_sim(m, 1);
    st_run(sim,
           "{\"rw\":\"randwrite\",\"bs\":\"4k\",\"iodepth\":4,\"numjobs\":3,"
           "\"number_ios\":150}",
           NULL);
    for (uint32_t k = 0; k < 3; k++) {
        ssdsim_device_io d = dev_io(sim, k);
        ck_assert_uint_eq(d.commands[SSDSIM_OP_WRITE], 150);
        ck_assert_uint_eq(d.host_pages_written, 150);
    }
    /* volume 0 (device 0) at QD1: the device's own times */
    ck_assert_uint_eq(st_one(sim, SSDSIM_OP_WRITE, 0, 4096), WRITE_NS);
    ck_assert_uint_eq(st_one(sim, SSDSIM_OP_READ, 0, 4096), READ_NS);
    ssdsim_free(sim);
    ssdsim_model_free(m);
}
END_TEST

/* ------------------------------------------------------------------------------------------ */
/* 5. A multi-controller card                                                                  */

/* 4 fast drives on 2 controllers (devices 0, 1 on controller 0; 2, 3 on controller 1), each
 * controller on PCIe gen 3 x4 (3,600,879,121 B/s, hw/link.h), all behind one uplink. Sequential
 * 128 KiB reads at 16 outstanding on the devices a job file picks (job k reads volume k; a
 * device left out gets one 4 KiB trim, which moves no data). Each job's read rate:
 *   uplink gen 3 x8 (7,201,758,242 B/s):
 *     devices 0 and 1 (one controller): its x4 shared, 1.8 GB/s each
 *     devices 0 and 2 (two controllers): 3.6 GB/s each, the uplink carrying both
 *     all four: 1.8 GB/s each (both the controllers' links and the uplink are full)
 *   uplink gen 3 x4 (3.6 GB/s):
 *     devices 0 and 2: the uplink caps them at 1.8 GB/s each
 *     all four: 0.9 GB/s each */
static const double X4 = 4 * 8e9 * 128 / 130 / 8 * 256 / 280;

static char *card_jobs(const bool busy[4])
{
    GString *s = g_string_new("[global]\nbs=128k\nioengine=libaio\niodepth=16\n");
    for (int k = 0; k < 4; k++) {
        if (busy[k])
            g_string_append_printf(s, "[d%d]\nrw=read\nnumber_ios=400\n", k);
        else
            g_string_append_printf(s, "[d%d]\nrw=trim\nbs=4k\niodepth=1\nnumber_ios=1\n", k);
    }
    return g_string_free(s, FALSE);
}

static void card_run(ssdsim_model *m, const bool busy[4], const double want[4])
{
    ssdsim *sim = st_sim(m, 1);
    ck_assert_int_eq(ssdsim_precondition_seq(sim), 0);
    g_autofree char *jobs = card_jobs(busy);
    ssdsim_workload *wl = NULL;
    ssdsim_error err;
    ck_assert_msg(ssdsim_workload_load_string(&wl, jobs, "card jobs", &err) == 0, "%s",
                  err.message);
    ck_assert_int_eq(ssdsim_run(sim, wl, NULL), 0);
    ck_assert_uint_eq(ssdsim_n_jobs(sim), 4);
    for (uint32_t k = 0; k < 4; k++) {
        if (!busy[k]) {
            ck_assert_uint_eq(dev_io(sim, k).commands[SSDSIM_OP_READ], 0);
            continue;
        }
        ssdsim_op_stats s;
        ck_assert_int_eq(ssdsim_get_job_op_stats(sim, k, SSDSIM_OP_READ, &s), 0);
        ck_assert_uint_eq(s.count, 400);
        ck_assert_uint_eq(dev_io(sim, k).commands[SSDSIM_OP_READ], 400);
        char what[64];
        snprintf(what, sizeof what, "device %u", k);
        st_within(s.bw_bytes, want[k], 0.01, what);
    }
    ssdsim_workload_free(wl);
    ssdsim_free(sim);
}

START_TEST(test_devices_card_shares_links)
{
    g_autofree char *member = fast_json("\"interface\":\"pcie\",\"pcie_gen\":3,\"lanes\":4");
    ssdsim_model *m = system_of(member, "\"count\":4,\"layout\":\"jbod\",\"controllers\":2,"
                                        "\"uplink\":{\"interface\":\"pcie\",\"pcie_gen\":3,"
                                        "\"lanes\":8}");
    ck_assert_uint_eq(ssdsim_model_n_devices(m), 4);
    const bool same[4] = {true, true, false, false}, apart[4] = {true, false, true, false},
               all[4] = {true, true, true, true};
    card_run(m, same, (const double[4]){X4 / 2, X4 / 2, 0, 0});
    card_run(m, apart, (const double[4]){X4, 0, X4, 0});
    card_run(m, all, (const double[4]){X4 / 2, X4 / 2, X4 / 2, X4 / 2});
    ssdsim_model_free(m);

    m = system_of(member, "\"count\":4,\"layout\":\"jbod\",\"controllers\":2,"
                          "\"uplink\":{\"interface\":\"pcie\",\"pcie_gen\":3,\"lanes\":4}");
    card_run(m, apart, (const double[4]){X4 / 2, 0, X4 / 2, 0});
    card_run(m, all, (const double[4]){X4 / 4, X4 / 4, X4 / 4, X4 / 4});
    ssdsim_model_free(m);
}
END_TEST

/* ------------------------------------------------------------------------------------------ */
/* The RAID card's write-back cache (system.cache)                                            */

/* A run of `n` sequential 4 KiB writes at queue depth 1 from offset 0 of the volume. */
static void seq_writes(ssdsim *sim, uint32_t n)
{
    g_autofree char *jobs =
        g_strdup_printf("[global]\nbs=4k\niodepth=1\n[w]\nrw=write\nnumber_ios=%u\n", n);
    ssdsim_workload *wl = NULL;
    ssdsim_error err;
    ck_assert_msg(ssdsim_workload_load_string(&wl, jobs, "cache jobs", &err) == 0, "%s",
                  err.message);
    ck_assert_int_eq(ssdsim_run(sim, wl, NULL), 0);
    ssdsim_workload_free(wl);
}

/* RAID-5 of four tiny drives, 4 KiB strips (a row holds 12 KiB of data; the cache's extents
 * end at multiples of 8 rows, 96 KiB), raid_us 7, the card's uplink PCIe 2.0 x8 with 256-byte
 * payloads: 0.546875 / 2 ns a byte, so 4 KiB cross it in 1,120 ns. A 1 MiB cache (flushing
 * starts above 512 KiB).
 *
 * A burst smaller than the flush threshold, 100 writes of 4 KiB (400 KiB), is acknowledged at
 * the card's rate: each write 7 us of RAID firmware + 1,120 ns on the uplink = 8,120 ns (its
 * copy into the cache at cache_bw 8 GB/s, 512 ns, runs beside it and ends first), with no
 * command to the drives while the host writes (without the cache each 4 KiB write is a
 * read-modify-write: 7 us + 2 x (read, write) on the drives, over 150 us).
 *
 * Without the uplink and at the default cache_bw of 2 GB/s a 4 KiB copy takes 2,048 ns, one at
 * a time: 8 writes submitted together are acknowledged at 7,000 + k x 2,048 ns, k = 1..8. */
#define CACHE_SYS                                                                                  \
    ",\"stripe\":\"4KiB\",\"raid_us\":7,\"uplink\":{\"interface\":\"pcie\",\"pcie_gen\":2,"        \
    "\"lanes\":8,\"max_payload\":256},\"cache\":\"1MiB\",\"cache_bw\":\"8GB/s\""
START_TEST(test_devices_card_cache_burst)
{
    ssdsim_model *m = array_of("raid5", 4, CACHE_SYS);
    ssdsim *sim = st_sim(m, 1);
    seq_writes(sim, 100);
    ssdsim_op_stats w = op_stats(sim, SSDSIM_OP_WRITE);
    ck_assert_uint_eq(w.count, 100);
    ck_assert_uint_eq(w.lat_min_ns, 8120);
    ck_assert_uint_eq(w.lat_max_ns, 8120);
    ck_assert_uint_eq(((struct ssdsim *)sim)->sys.wc.n_absorbed, 100);
    ssdsim_free(sim);
    ssdsim_model_free(m);

    m = array_of("raid5", 4, ",\"stripe\":\"4KiB\",\"raid_us\":7,\"cache\":\"1MiB\"");
    sim = st_sim(m, 1);
    struct req burst[8];
    for (int i = 0; i < 8; i++)
        burst[i] = (struct req){SSDSIM_OP_WRITE, (uint64_t)i * 65536, 4096};
    uint64_t lat[8];
    together(sim, burst, 8, lat);
    for (int i = 0; i < 8; i++)
        ck_assert_uint_eq(lat[i], 7000 + (uint64_t)(i + 1) * 2048);
    ssdsim_free(sim);
    ssdsim_model_free(m);

    /* No battery: the card writes through, as without a cache: a read-modify-write. */
    m = array_of("raid5", 4, CACHE_SYS ",\"cache_bbu\":false");
    sim = st_sim(m, 1);
    uint64_t through = st_one(sim, SSDSIM_OP_WRITE, 0, 4096);
    ck_assert_uint_gt(through, 10 * 8120);
    ssdsim_free(sim);
    ssdsim_model_free(m);
    m = array_of("raid5", 4,
                 ",\"stripe\":\"4KiB\",\"raid_us\":7,\"uplink\":{\"interface\":"
                 "\"pcie\",\"pcie_gen\":2,\"lanes\":8,\"max_payload\":256}");
    sim = st_sim(m, 1);
    ck_assert_uint_eq(st_one(sim, SSDSIM_OP_WRITE, 0, 4096), through);
    ssdsim_free(sim);
    ssdsim_model_free(m);
}
END_TEST

/* The same array and cache, a sustained sequential stream of 2,304 writes of 4 KiB (9 MiB, all
 * but 3 units of the volume's 3 x 800). The cache's extents are whole 96 KiB chunks, 8 whole
 * rows: flushed as full-stripe writes, they read nothing (no parity reads) and program a data
 * page a data unit and a parity page for every three, at most 768 a drive (less than its 800
 * units: no GC).
 *
 * Rate. A drive's one die programs a page in 40,960 (bus) + 20,000 (tPROG) = 60,960 ns, so the
 * drives together take at least 768 x 60.96 us = 46.817 ms for the stream, 201.58 MB/s of
 * data; the host can be ahead of them by at most the cache, 1 MiB, so its 9 MiB take at least
 * (9 - 1) MiB / 201.58 MB/s = 41.61 ms: at most 226.8 MB/s. At least: a flush command gives a
 * drive 32 KiB (8 strips of the chunk, contiguous there), and costs it at most 3 us (link
 * overhead) + 5 us (firmware) + 81.92 us (32 KiB at 400 MB/s) + 8 x 60.96 us = 577.6 us if
 * nothing overlaps: 96 commands a drive, 55.45 ms, and the first flush starts once 512 KiB are
 * in (129 writes of 8.12 us = 1.05 ms): 9 MiB in at most 56.5 ms, at least 167.0 MB/s. The card
 * alone would take 8.12 us per 4 KiB (504 MB/s), so the stream settles at the drives' rate. */
START_TEST(test_devices_card_cache_sustained)
{
    ssdsim_model *m = array_of("raid5", 4, CACHE_SYS);
    ssdsim *sim = st_sim(m, 1);
    seq_writes(sim, 2304);
    ck_assert_int_eq(ssdsim_drain(sim), 0);
    ssdsim_op_stats w = op_stats(sim, SSDSIM_OP_WRITE);
    ck_assert_uint_eq(w.count, 2304);
    double rate = w.bw_bytes;
    ck_assert_msg(rate >= 167.0e6 && rate <= 226.8e6, "%.4g B/s", rate);
    uint64_t programs = 0;
    for (uint32_t k = 0; k < 4; k++) {
        ck_assert_uint_eq(host_reads(sim, k), 0);
        programs += host_programs(sim, k);
    }
    /* the run ends when the host has its acknowledgements, with up to 1 MiB in the cache;
     * after an idle second (the idle flush starts after 100 ms) all of it is on the drives */
    ck_assert_uint_le(((struct ssdsim *)sim)->sys.wc.dirty, 1 << 20);
    ck_assert_int_eq(ssdsim_idle(sim, 1000000000), 0);
    ck_assert_uint_eq(((struct ssdsim *)sim)->sys.wc.dirty, 0);
    programs = 0;
    for (uint32_t k = 0; k < 4; k++) {
        ck_assert_uint_eq(host_reads(sim, k), 0);
        programs += host_programs(sim, k);
    }
    ck_assert_uint_eq(programs, 2304 + 768);
    printf("card cache: sustained 4 KiB sequential writes %.1f MB/s (bounds 167.0 .. 226.8)\n",
           rate / 1e6);
    ssdsim_free(sim);
    ssdsim_model_free(m);

    /* Without the cache every 4 KiB write is a read-modify-write of its row. The drives are
     * fresh and read only what was written, so of a row's three writes the second and third
     * read the old parity (the data they replace was never written): 2 reads a row, 32 rows. */
    m = array_of("raid5", 4, ",\"stripe\":\"4KiB\",\"raid_us\":7");
    sim = st_sim(m, 1);
    seq_writes(sim, 96);
    uint64_t reads = 0;
    for (uint32_t k = 0; k < 4; k++)
        reads += host_reads(sim, k);
    ck_assert_uint_eq(reads, 2 * 32);
    ssdsim_free(sim);
    ssdsim_model_free(m);
}
END_TEST

/* Two sequential streams at once, interleaved write by write (two jobs at queue depth 1, the
 * second from 4.5 MiB = 384 rows = 48 chunks), 1,152 writes of 4 KiB each: the same 9 MiB as
 * the single stream above, in the same whole chunks. The card keeps dirty data by address, so
 * each stream's writes gather into its own extents whatever arrives between them: every flush
 * is whole rows, the drives read nothing and, once all is flushed, have programmed the 2,304
 * data units and 768 parity units, as for one stream. (Before, only the newest extent grew: each
 * 4 KiB write of one stream followed one of the other, became an extent of its own and was
 * flushed as a read-modify-write of its row.) */
START_TEST(test_devices_card_cache_interleaved_streams)
{
    ssdsim_model *m = array_of("raid5", 4, CACHE_SYS);
    ssdsim *sim = st_sim(m, 1);
    ssdsim_workload *wl = NULL;
    ssdsim_error err;
    ck_assert_msg(ssdsim_workload_load_string(&wl,
                                              "[global]\nbs=4k\niodepth=1\n[w]\nrw=write\n"
                                              "numjobs=2\noffset_increment=4608k\n"
                                              "number_ios=1152\n",
                                              "two streams", &err) == 0,
                  "%s", err.message);
    ck_assert_int_eq(ssdsim_run(sim, wl, NULL), 0);
    ssdsim_workload_free(wl);
    ck_assert_uint_eq(op_stats(sim, SSDSIM_OP_WRITE).count, 2304);
    ck_assert_int_eq(ssdsim_idle(sim, 1000000000), 0);
    ck_assert_uint_eq(((struct ssdsim *)sim)->sys.wc.dirty, 0);
    uint64_t programs = 0;
    for (uint32_t k = 0; k < 4; k++) {
        ck_assert_uint_eq(host_reads(sim, k), 0);
        programs += host_programs(sim, k);
    }
    ck_assert_uint_eq(programs, 2304 + 768);
    ssdsim_free(sim);
    ssdsim_model_free(m);
}
END_TEST

/* A stream whose rows are larger than what the cache holds above its high watermark: RAID-5 of
 * three tiny drives (one die each: a page costs 40.96 us on the bus + 20 us tPROG = 60.96 us),
 * 64 KiB strips, so a row holds 128 KiB of data and the cache's chunks are 8 rows (1 MiB); a
 * 512 KiB cache (flushing starts above 256 KiB); 64 sequential writes of 64 KiB at QD1 (4 MiB,
 * 32 rows). Two writes complete each row, and the extent the stream is filling reaches the
 * head of the cache long before its chunk's end: the card flushes its whole rows and holds the
 * part row at its end for the stream to complete, so every flush is whole rows and the drives
 * read nothing. (Before, with no flush in flight, the card flushed the whole extent, its part
 * row as a read-modify-write: 26 device reads, 99.4 MB/s.) Once idle, the drives have
 * programmed 64 x 16 data pages and 32 x 16 parity pages.
 *
 * Rate, by hand. Each write goes into the cache in 64 KiB / 2 GB/s = 32.768 us (cache_bw). The
 * host's last write fits only once the cache holds at most 448 KiB, so 28 rows have been
 * flushed: each drive has programmed 28 x 16 pages, 27.31 ms of its die, and the first flush
 * began after 5 writes (163.84 us): at least 27.47 ms, at most 152.7 MB/s. At most: a flush of
 * k rows costs each drive 3 + 5 us + k x 64 KiB over its 400 MB/s link (163.84 us each, before
 * the die starts) + 16k x 60.96 us = 8 + 1,139.2k us with nothing overlapping; the flushes
 * that complete those 28 rows hold at most 31 rows (a flush holds at most the cache, 4 rows),
 * there are at most 31 of them, and before each the card may wait for one more write of the
 * stream (32.768 us): 0.164 + 31 x (8 + 1,139.2 + 32.768) us = 36.74 ms and the last write's
 * copy, at least 114.1 MB/s. */
START_TEST(test_devices_card_cache_stream_rows_first)
{
    ssdsim_model *m = array_of("raid5", 3, ",\"stripe\":\"64KiB\",\"cache\":\"512KiB\"");
    ssdsim *sim = st_sim(m, 1);
    ssdsim_workload *wl = NULL;
    ssdsim_error err;
    ck_assert_msg(ssdsim_workload_load_string(&wl,
                                              "[w]\nrw=write\nbs=64k\niodepth=1\nnumber_ios=64\n",
                                              "stream", &err) == 0,
                  "%s", err.message);
    ck_assert_int_eq(ssdsim_run(sim, wl, NULL), 0);
    ssdsim_workload_free(wl);
    ssdsim_op_stats w = op_stats(sim, SSDSIM_OP_WRITE);
    ck_assert_uint_eq(w.count, 64);
    double rate = w.bw_bytes;
    ck_assert_msg(rate >= 114.1e6 && rate <= 152.7e6, "%.4g B/s", rate);
    ck_assert_int_eq(ssdsim_idle(sim, 1000000000), 0);
    ck_assert_uint_eq(((struct ssdsim *)sim)->sys.wc.dirty, 0);
    uint64_t programs = 0;
    for (uint32_t k = 0; k < 3; k++) {
        ck_assert_uint_eq(host_reads(sim, k), 0);
        programs += host_programs(sim, k);
    }
    ck_assert_uint_eq(programs, 64 * 16 + 32 * 16);
    printf("card cache: 64 KiB sequential writes in 128 KiB rows %.1f MB/s (bounds 114.1 .. "
           "152.7)\n",
           rate / 1e6);

    /* Writes that are no stream still pay their read-modify-write. The array written full
     * (and the cache emptied), then 16 writes of 4 KiB, one at the start of each of rows 0 to
     * 15 (none continues another), below the high watermark: the idle flush writes each as a
     * part row, reading its old data and old parity (2 pages) and writing both (2 pages). */
    ck_assert_int_eq(ssdsim_precondition_seq(sim), 0);
    ck_assert_int_eq(ssdsim_idle(sim, 1000000000), 0);
    uint64_t reads0 = 0, progs0 = 0;
    for (uint32_t k = 0; k < 3; k++) {
        reads0 += host_reads(sim, k);
        progs0 += host_programs(sim, k);
    }
    for (int half = 0; half < 2; half++) {
        struct req lone[8];
        uint64_t lat[8];
        for (int i = 0; i < 8; i++)
            lone[i] = (struct req){SSDSIM_OP_WRITE, (uint64_t)(8 * half + i) * 131072, 4096};
        together(sim, lone, 8, lat);
    }
    ck_assert_int_eq(ssdsim_idle(sim, 1000000000), 0);
    ck_assert_uint_eq(((struct ssdsim *)sim)->sys.wc.dirty, 0);
    uint64_t reads = 0;
    programs = 0;
    for (uint32_t k = 0; k < 3; k++) {
        reads += host_reads(sim, k);
        programs += host_programs(sim, k);
    }
    ck_assert_uint_eq(reads - reads0, 16 * 2);
    ck_assert_uint_eq(programs - progs0, 16 * 2);
    ssdsim_free(sim);
    ssdsim_model_free(m);
}
END_TEST

/* A secure erase right after a run that left the card flushing: the card's flushes are its own
 * work, finished like garbage collection, not host requests in flight (before, the erase was
 * refused: "0 submitted requests are still in flight", and the quick matrix could not run on
 * an array behind a RAID card). Afterwards the cache is empty. */
START_TEST(test_devices_card_cache_secure_erase)
{
    ssdsim_model *m = array_of("raid5", 4, CACHE_SYS);
    ssdsim *sim = st_sim(m, 1);
    seq_writes(sim, 2304);
    ck_assert_uint_ne(((struct ssdsim *)sim)->sys.wc.fl_busy, 0); /* flushing at the run's end */
    ck_assert_msg(ssdsim_secure_erase(sim) == 0, "%s", ssdsim_errmsg(sim));
    ck_assert_uint_eq(((struct ssdsim *)sim)->sys.wc.dirty, 0);
    ck_assert_uint_eq(((struct ssdsim *)sim)->sys.wc.fl_busy, 0);
    seq_writes(sim, 10); /* and the drive runs on */
    ck_assert_uint_eq(op_stats(sim, SSDSIM_OP_WRITE).count, 10);
    ssdsim_free(sim);
    ssdsim_model_free(m);
}
END_TEST

START_TEST(test_devices_card_cache_rejects)
{
    g_autofree char *member = tiny_json(CUSTOM_HOST, NULL);
    static const char *const bad[][2] = {
        {"\"count\":4,\"layout\":\"jbod\",\"cache\":\"1MiB\"", "system.cache"},
        {"\"count\":4,\"layout\":\"raid5\",\"cache\":\"1MiB\",\"cache_high\":0.2,"
         "\"cache_low\":0.3",
         "system.cache_low"},
        {"\"count\":4,\"layout\":\"raid5\",\"cache_bbu\":false", "system.cache_bbu"},
        {"\"count\":4,\"layout\":\"raid5\",\"cache\":\"1MiB\",\"cache_high\":1.5",
         "system.cache_high"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        g_autofree char *path =
            g_strdup_printf("%s/tests/test_devices-cache-%ld.json", BUILDDIR, (long)getpid());
        ck_assert(g_file_set_contents(path, member, -1, NULL));
        g_autofree char *json = g_strdup_printf(
            "{\"name\":\"sys\",\"system\":{\"member\":\"%s\",%s}}", path, bad[i][0]);
        ssdsim_model *m = NULL;
        ssdsim_error err;
        ck_assert_int_eq(ssdsim_model_load_string(&m, json, "bad", &err), SSDSIM_ECONFIG);
        ck_assert_msg(strstr(err.message, bad[i][1]) != NULL, "%s", err.message);
        ck_assert(strchr(err.message, '\n') == NULL);
        ck_assert_ptr_null(m);
        ck_assert_int_eq(unlink(path), 0);
    }
}
END_TEST

/* A system model loaded by a relative path keeps working after the working directory changes:
 * its member is read again, at every set, through the directory found at load (before, by the
 * relative path, so that ssdsim_model_set of the model or of a copy failed after a chdir). The
 * member is still shown by the path it was loaded by: the canonical JSON is unchanged. */
START_TEST(test_devices_system_member_survives_chdir)
{
    g_autofree char *was = g_get_current_dir();
    ck_assert_int_eq(chdir(SRCDIR), 0);
    ssdsim_model *m = NULL, *c = NULL;
    ssdsim_error err;
    int rc = ssdsim_model_load_file(&m, "models/p320h-x4-raid0.json", &err);
    ck_assert_msg(rc == 0, "%s", err.message);
    char *before = ssdsim_model_to_json(m);
    ck_assert_ptr_nonnull(strstr(before, "\"member\":\t\"models/p320h-350.json\""));
    ck_assert_int_eq(chdir(BUILDDIR "/tests"), 0);
    ck_assert_int_eq(ssdsim_model_copy(&c, m), 0);
    const char *keys[] = {"system.count", "system.controllers"}, *vals[] = {"2", "2"};
    rc = ssdsim_model_set_many(c, 2, keys, vals, NULL, &err);
    ck_assert_msg(rc == 0, "set on the copy after chdir: %s", err.message);
    rc = ssdsim_model_set(m, "system.stripe", "\"256KiB\"", &err);
    ck_assert_msg(rc == 0, "set on the original after chdir: %s", err.message);
    /* the member named again, by the same relative path: found beside the model's file */
    rc = ssdsim_model_set(m, "system.member", "\"p320h-350.json\"", &err);
    ck_assert_msg(rc == 0, "system.member after chdir: %s", err.message);
    char *after = ssdsim_model_to_json(m);
    ck_assert_ptr_nonnull(strstr(after, "\"member\":\t\"models/p320h-350.json\""));
    ck_assert_uint_eq(ssdsim_model_n_devices(c), 2);
    free(before);
    free(after);
    ssdsim_model_free(c);
    ssdsim_model_free(m);
    ck_assert_int_eq(chdir(was), 0);
}
END_TEST

/* ------------------------------------------------------------------------------------------ */
/* 6. A hard disk                                                                              */

/* test_hdd.c's disk A behind SATA 6 Gb/s: 7200 rpm (a revolution P = 8,333,333 ns), 4 heads,
 * 5 zones from 122.88 MB/s (2000 sectors a track) to 61.44 MB/s (1000 sectors); track skew
 * ceil(0.3 ms x spt / P) = 72 and 36 sectors, so a long transfer runs at
 *   outer: 122.88e6 x 2000 / 2072 = 118,610,039 B/s
 *   inner:  61.44e6 x 1000 / 1036 =  59,305,019 B/s
 * (hdd.h), a ratio of exactly 2 (the skew is 3.6% of a track in both zones). Seeks 0.3, 8 and
 * 16 ms, write settle 0.5 ms, 8 MiB cache. */
static const char *disk_json =
    "{\"name\":\"disk-a\",\"hdd\":{\"capacity\":153600000000,\"rpm\":7200,\"heads\":4,"
    "\"zones\":5,\"outer_rate\":122880000,\"inner_rate\":61440000,\"seek_track_us\":300,"
    "\"seek_avg_us\":8000,\"seek_full_us\":16000,\"write_settle_us\":500,\"cache\":\"8MiB\","
    "\"write_cache\":%s,\"read_ahead\":true,\"scheduler\":\"satf\"},"
    "\"controller\":{\"cmd_overhead_us\":2,\"queue_depth\":32},"
    "\"host\":{\"interface\":\"sata\",\"gbps\":6}}";

static ssdsim_model *disk(bool write_cache)
{
    g_autofree char *j = g_strdup_printf(disk_json, write_cache ? "true" : "false");
    return load(j);
}

/* The spindles of a RAID-0 of two disk-a (64 KiB strips, read-ahead off) are not synchronised:
 * member 1's platter is phi ns of rotation ahead of member 0's (drawn from the seed). A 128 KiB
 * read of a row has both read the same sectors after the same seek, and waits for the later of
 * the two rotations: w0 uniform over a revolution R = 60e9 / 7200 ns, w1 = (w0 - phi) mod R,
 * E[max(w0, w1)] = R - (phi^2 + (R - phi)^2) / (2R), against R / 2 for member 0 alone. The same
 * reads (same seed) with member 1 forced into step with member 0 (phi = 0) wait R / 2 on
 * average: the difference of the two runs' means is the derived excess, within 5% (each
 * request's excess has a spread of about R / 4: 33 us over 4,000 requests). */
START_TEST(test_devices_hdd_array_spindles_independent)
{
    const double R = 60e9 / 7200;
    g_autofree char *with_ra = g_strdup_printf(disk_json, "true");
    char *ra = strstr(with_ra, "\"read_ahead\":true");
    ck_assert_ptr_nonnull(ra);
    g_autofree char *member0 =
        g_strdup_printf("%.*s\"read_ahead\":false%s", (int)(ra - with_ra), with_ra,
                        ra + strlen("\"read_ahead\":true"));
    double mean[2], phi = 0;
    /* a seed whose phase lies in the middle half of a revolution: near 0 or R the excess is
     * rare and large (a request waits a whole turn more with probability phi / R), and 4,000
     * requests would measure it within 13%, not 5% */
    uint64_t seed = 1;
    for (;; seed++) {
        ssdsim_model *m = system_of(member0, "\"count\":2,\"layout\":\"raid0\","
                                             "\"stripe\":\"64KiB\",\"controllers\":2");
        ssdsim *sim = st_sim(m, seed);
        double p = (double)((struct ssdsim *)sim)->sys.devs[1].hdd.phase_ns;
        ssdsim_free(sim);
        ssdsim_model_free(m);
        if (p > R / 4 && p < 3 * R / 4)
            break;
    }
    for (int sync = 0; sync <= 1; sync++) {
        ssdsim_model *m = system_of(member0, "\"count\":2,\"layout\":\"raid0\","
                                             "\"stripe\":\"64KiB\",\"controllers\":2");
        ssdsim *sim = st_sim(m, seed);
        struct ssdsim__hdd *d1 = &((struct ssdsim *)sim)->sys.devs[1].hdd;
        if (sync) {
            d1->phase_ns = 0;
        } else {
            phi = (double)d1->phase_ns;
            ck_assert_double_gt(phi, 0);
            ck_assert_double_lt(phi, R);
            ck_assert_uint_eq(((struct ssdsim *)sim)->sys.devs[0].hdd.phase_ns, 0);
        }
        st_run(sim, "{\"rw\":\"randread\",\"bs\":\"128k\",\"iodepth\":1,"
                    "\"number_ios\":4000}", NULL);
        ssdsim_op_stats r;
        ck_assert_int_eq(ssdsim_get_op_stats(sim, SSDSIM_OP_READ, &r), 0);
        mean[sync] = r.lat_mean_ns;
        ssdsim_free(sim);
        ssdsim_model_free(m);
    }
    double want = R - (phi * phi + (R - phi) * (R - phi)) / (2 * R) - R / 2;
    st_within(mean[0] - mean[1], want, 0.05, "the wait for the later spindle");
}
END_TEST

/* Each disk runs its own firmware, however many share a port: four disk-a with 100 us of
 * firmware a command, one sequential 4 KiB reader each (QD4), read four times what the lone
 * disk reads with one reader, on one controller as on four (before, one controller's core ran
 * all four disks' firmware: at most 1 / 100 us = 10,000 reads a second together, where the lone
 * disk alone does more than 8,000). The shared SATA 6 Gb/s link takes a 4 KiB read in 7 us,
 * 143,000 a second: not binding. */
START_TEST(test_devices_hdd_firmware_per_disk)
{
    g_autofree char *slow = g_strdup_printf(disk_json, "true");
    char *at = strstr(slow, "\"cmd_overhead_us\":2,");
    ck_assert_ptr_nonnull(at);
    g_autofree char *member = g_strdup_printf("%.*s\"cmd_overhead_us\":100,%s", (int)(at - slow),
                                              slow, at + strlen("\"cmd_overhead_us\":2,"));
    ssdsim_model *lone = load(member);
    ssdsim *ls = st_sim(lone, 1);
    st_run(ls, "{\"rw\":\"read\",\"bs\":\"4k\",\"iodepth\":4,\"number_ios\":20000}", NULL);
    ssdsim_op_stats one;
    ck_assert_int_eq(ssdsim_get_op_stats(ls, SSDSIM_OP_READ, &one), 0);
    ck_assert_double_gt(one.iops, 8000); /* firmware-bound: at most 10,000 */
    ck_assert_double_le(one.iops, 10000);
    ssdsim_free(ls);
    ssdsim_model_free(lone);
    for (uint32_t ctrls = 1; ctrls <= 4; ctrls *= 4) {
        g_autofree char *sys =
            g_strdup_printf("\"count\":4,\"layout\":\"jbod\",\"controllers\":%u", ctrls);
        ssdsim_model *m = system_of(member, sys);
        ssdsim *sim = st_sim(m, 1);
        st_run(sim, "{\"rw\":\"read\",\"bs\":\"4k\",\"iodepth\":4,\"numjobs\":4,"
                    "\"number_ios\":20000}", NULL);
        ssdsim_op_stats r;
        ck_assert_int_eq(ssdsim_get_op_stats(sim, SSDSIM_OP_READ, &r), 0);
        st_within(r.iops, 4 * one.iops, 0.01, ctrls == 1 ? "one controller" : "four controllers");
        ssdsim_free(sim);
        ssdsim_model_free(m);
    }
}
END_TEST

/* 128 KiB sequential reads at QD1 over 64 MiB at the start and at the end of the disk, the
 * head first brought there by one read (not measured): read-ahead keeps the stream going
 * between requests, so each region reads at its zone's rate (within 2%: a region crosses
 * cylinders whose switch the skew covers, and the link and command overheads overlap the
 * read-ahead). */
START_TEST(test_devices_hdd_zoned_sequential_rate)
{
    const double outer = 122.88e6 * 2000 / 2072, inner = 61.44e6 * 1000 / 1036;
    st_within(outer, 118610039, 1e-8, "outer");
    st_within(inner, 59305019, 1e-8, "inner");
    ssdsim_model *m = disk(true);
    ck_assert_uint_eq(ssdsim_model_logical_bytes(m), 153600000000ULL);
    double rate[2];
    const uint64_t region = 64ULL << 20, at[2] = {0, 153600000000ULL - (64ULL << 20)};
    for (int i = 0; i < 2; i++) {
        ssdsim *sim = st_sim(m, 1);
        st_one(sim, SSDSIM_OP_READ, at[i], 131072);
        ssdsim_reset_stats(sim);
        g_autofree char *wl = g_strdup_printf(
            "{\"rw\":\"read\",\"bs\":\"128k\",\"iodepth\":1,\"offset\":%llu,\"size\":%llu}",
            (unsigned long long)at[i], (unsigned long long)region);
        st_run(sim, wl, NULL);
        ssdsim_op_stats s = op_stats(sim, SSDSIM_OP_READ);
        ck_assert_uint_eq(s.count, region / 131072);
        rate[i] = s.bw_bytes;
        ssdsim_free(sim);
    }
    st_within(rate[0], outer, 0.02, "start of the disk");
    st_within(rate[1], inner, 0.02, "end of the disk");
    st_within(rate[0] / rate[1], 2.0, 0.02, "outer / inner");
    ssdsim_model_free(m);
}
END_TEST

/* QD1 random 4 KiB reads over the whole disk. The seek curve through (1, 0.3 ms),
 * (N/3, 8 ms), (N - 1, 16 ms) with N = 50,000 (hdd.h) is t(d) = a + b sqrt(d) + c d with
 * x1 = 1, x2 = 129.1, x3 = 223.6: c = (15.7/222.6 - 7.7/128.1) / 94.5 = 1.103e-4 ms,
 * b = 7.7/128.1 - c x 130.1 = 0.04576 ms, a = 0.3 - b - c = 0.2541 ms. Between two uniform
 * random cylinders E[d] = N/3 and E[sqrt d] = (8/15) sqrt N = 119.3, so the mean seek is
 * 0.254 + 0.04576 x 119.3 + 1.103e-4 x 16,667 = 7.55 ms (random LBAs favour the outer zones a
 * little, which shortens it slightly more). Mean rotational wait P/2 = 4.17 ms; 4 KiB on the
 * media about 45 us, on the link 6.9 us, command 6 us. About 11.8 ms a read: 85 IOPS. Within
 * 8% (400 reads: the mean's spread is about 2%). */
START_TEST(test_devices_hdd_random_read_iops)
{
    ssdsim_model *m = disk(true);
    ssdsim *sim = st_sim(m, 1);
    st_run(sim,
           "{\"rw\":\"randread\",\"bs\":\"4k\",\"iodepth\":1,\"norandommap\":true,"
           "\"number_ios\":400}",
           NULL);
    ssdsim_op_stats s = op_stats(sim, SSDSIM_OP_READ);
    ck_assert_uint_eq(s.count, 400);
    st_within(s.iops, 1e3 / (7.55 + 4.167 + 0.045 + 0.013), 0.08, "random read IOPS");
    ssdsim_free(sim);
    ssdsim_model_free(m);
}
END_TEST

/* A disk sends a read's data as the platter gives it: the cold 128 KiB read at 0 on a new disk
 * ends one 8 KiB Data FIS after its last sector (SATA 3 and 6 Gb/s both outrun the platter's
 * 122.88 MB/s), so the two links' latencies differ by the FIS times, not by the 128 KiB
 * transfers' (the mechanics are the same: a read sends nothing down before it). Read again, it
 * is in the cache: 4 us of SATA command time + 2 us of firmware + the whole 128 KiB. */
START_TEST(test_devices_hdd_read_cut_through)
{
    uint64_t cold[2], hit[2];
    const uint32_t gbps[2] = {30, 60};
    for (int k = 0; k < 2; k++) {
        ssdsim_model *m = disk(true);
        set(m, "host.gbps", gbps[k] == 30 ? "3" : "6");
        ssdsim *sim = st_sim(m, 1);
        cold[k] = st_one(sim, SSDSIM_OP_READ, 0, 131072);
        hit[k] = st_one(sim, SSDSIM_OP_READ, 0, 131072);
        ssdsim_free(sim);
        ssdsim_model_free(m);
    }
    ck_assert_uint_eq(cold[0] - cold[1], sata_ns(30, 8192) - sata_ns(60, 8192));
    ck_assert_uint_eq(hit[0], 4000 + 2000 + sata_ns(30, 131072));
    ck_assert_uint_eq(hit[1], 4000 + 2000 + sata_ns(60, 131072));
}
END_TEST

/* A write the disk writes through (write cache off) reaches the drive as a command and its data
 * crosses the link while the head seeks: a 64 KiB write near the end of a new disk (a long seek,
 * milliseconds) has its data in (0.2 ms at SATA 3 Gb/s, 0.1 at 6) long before the head is on
 * its track, so its latency is the same at both rates, where crossing the link first added the
 * transfer's time. */
START_TEST(test_devices_hdd_write_overlaps_seek)
{
    uint64_t lat[2];
    for (int k = 0; k < 2; k++) {
        ssdsim_model *m = disk(false);
        set(m, "host.gbps", k ? "6" : "3");
        ssdsim *sim = st_sim(m, 1);
        lat[k] = st_one(sim, SSDSIM_OP_WRITE, 150000000000ULL, 65536);
        ssdsim_free(sim);
        ssdsim_model_free(m);
    }
    ck_assert_uint_eq(lat[0], lat[1]);
    ck_assert_uint_gt(lat[0], 10000000); /* the seek of most of the stroke */
}
END_TEST

/* A sequential stream of 64 KiB writes at QD1 outruns the platter (the cache acknowledges a
 * write in 4 + 2 us + 64 KiB at SATA 6 Gb/s, about 0.1 ms; the outer zone writes 122.88 MB/s),
 * so the 8 MiB cache fills and each write then waits for room. Room frees as each track's
 * chunk of the destage reaches the platter: no write waits more than a chunk, at most one
 * revolution (8.33 ms at 7,200 rpm) after the head is on its track, plus a track switch or a
 * short seek and the write settle (0.3 + 0.5 ms): under 2 revolutions, where waiting for a whole
 * destage extent (MBs) took tens of ms. The rate is the platter's: 256 MiB written while the
 * cache holds at most 8 MiB of it, within 4% of 122.88 MB/s x 256 / (256 - 8). */
START_TEST(test_devices_hdd_write_cache_frees_per_track)
{
    ssdsim_model *m = disk(true);
    ssdsim *sim = st_sim(m, 1);
    st_run(sim, "{\"rw\":\"write\",\"bs\":\"64k\",\"iodepth\":1,\"size\":\"256m\"}", NULL);
    ssdsim_op_stats w = op_stats(sim, SSDSIM_OP_WRITE);
    ck_assert_uint_eq(w.count, 4096);
    ck_assert_uint_lt(w.lat_max_ns, 2 * 8333334);
    st_within(w.bw_bytes, 122.88e6 * 2000 / 2072 * 256 / 248, 0.04, "sequential write rate");
    ssdsim_free(sim);
    ssdsim_model_free(m);
}
END_TEST

/* hdd.prefetch_min (SCSI's MINIMUM PRE-FETCH): with 4 segments of 2 MiB, a sequential stream
 * is by default read on a whole segment past each read whatever waits, 2 MiB at 122.88 MB/s =
 * 17 ms, which a random reader beside it waits out on most of its reads; with 512 bytes the
 * read-ahead stops for it at once, and it waits only for the chunk under way (at most a
 * revolution) besides its own seek and rotation. The random reader's mean drops by more than
 * 5 ms; a value above the segment is refused, naming the key. */
START_TEST(test_devices_hdd_prefetch_min)
{
    const char *wl = "[global]\niodepth=1\nruntime=3s\ntime_based\n"
                     "[seq]\nrw=read\nbs=64k\n[rnd]\nrw=randread\nbs=4k\n";
    double rnd[2];
    for (int k = 0; k < 2; k++) {
        ssdsim_model *m = disk(true);
        set(m, "hdd.segments", "4");
        if (k)
            set(m, "hdd.prefetch_min", "512");
        ssdsim *sim = st_sim(m, 1);
        ssdsim_workload *w = NULL;
        ssdsim_error werr;
        ck_assert_msg(ssdsim_workload_load_string(&w, wl, "mixed", &werr) == 0, "%s",
                      werr.message);
        ck_assert_int_eq(ssdsim_run(sim, w, NULL), 0);
        ssdsim_op_stats r;
        ck_assert_int_eq(ssdsim_get_job_op_stats(sim, 1, SSDSIM_OP_READ, &r), 0);
        rnd[k] = r.lat_mean_ns;
        ssdsim_workload_free(w);
        ssdsim_free(sim);
        ssdsim_model_free(m);
    }
    ck_assert_msg(rnd[0] > rnd[1] + 5e6, "random reads %.0f ns by default, %.0f with 512 B",
                  rnd[0], rnd[1]);
    ssdsim_model *m = disk(true);
    set(m, "hdd.segments", "4");
    ssdsim_error err;
    ck_assert_int_ne(ssdsim_model_set(m, "hdd.prefetch_min", "4MiB", &err), 0);
    ck_assert_msg(strstr(err.message, "hdd.prefetch_min"), "%s", err.message);
    ssdsim_model_free(m);
}
END_TEST

/* QD1 random 4 KiB writes. Write cache on: acknowledged once in the cache (20 writes: 20 dirty
 * extents of the 32 the cache holds), 4 us SATA + 2 us firmware + 6,894 ns of data = 12,894 ns
 * each, exactly. Off: each is done on the platter, paying at least the write settle (0.5 ms) on
 * top of a seek or head switch: over 0.5 ms each, several ms on average. */
START_TEST(test_devices_hdd_write_cache)
{
    const char *wl = "{\"rw\":\"randwrite\",\"bs\":\"4k\",\"iodepth\":1,\"norandommap\":true,"
                     "\"number_ios\":20}";
    ssdsim_model *m = disk(true);
    ssdsim *sim = st_sim(m, 1);
    st_run(sim, wl, NULL);
    ssdsim_op_stats on = op_stats(sim, SSDSIM_OP_WRITE);
    ck_assert_uint_eq(on.count, 20);
    ck_assert_uint_eq(on.lat_min_ns, 4000 + 2000 + L4K_SATA6);
    ck_assert_uint_eq(on.lat_max_ns, 12894);
    ssdsim_free(sim);
    ssdsim_model_free(m);

    m = disk(false);
    sim = st_sim(m, 1);
    st_run(sim, wl, NULL);
    ssdsim_op_stats off = op_stats(sim, SSDSIM_OP_WRITE);
    ck_assert_uint_eq(off.count, 20);
    ck_assert_uint_gt(off.lat_min_ns, 12894 + 500000);
    ck_assert_double_gt(off.lat_mean_ns, 5e6);
    ck_assert_double_lt(off.lat_mean_ns, 20e6);
    ssdsim_free(sim);
    ssdsim_model_free(m);
}
END_TEST

/* ------------------------------------------------------------------------------------------ */
/* 7. XPoint                                                                                   */

/* The tiny drive's geometry on media without erase (read 10 us, write 20 us, the direct FTL at
 * op 0: 1024 units) behind PCIe gen 3 x4:
 *   write: 1 + 5 us + 1,138 ns link + 40.96 us bus + 20 us = 68,098 ns
 *   read:  1 + 5 us + 10 us + 40.96 us bus + 1,138 ns link = 58,098 ns
 * 3000 random writes: every host page one program in place, no erase, no GC. */
START_TEST(test_devices_xpoint)
{
    ssdsim_model *m =
        load("{\"name\":\"xp\",\"geometry\":{\"channels\":1,\"chips_per_channel\":1,"
             "\"dies_per_chip\":1,\"planes_per_die\":1,\"blocks_per_plane\":64,"
             "\"pages_per_block\":16,\"page_size\":\"4KiB\"},\"flash\":{\"cell\":\"xpoint\","
             "\"read_us\":10,\"program_us\":20,\"bus_mts\":100,\"bus_width\":8},"
             "\"controller\":{\"cmd_overhead_us\":5,\"cores\":1},"
             "\"host\":{\"interface\":\"pcie\",\"pcie_gen\":3,\"lanes\":4}}");
    ck_assert_uint_eq(ssdsim_model_logical_bytes(m), 1024 * 4096);
    ssdsim *sim = st_sim(m, 1);
    ck_assert_uint_eq(st_one(sim, SSDSIM_OP_WRITE, 0, 4096), 68098);
    ck_assert_uint_eq(st_one(sim, SSDSIM_OP_WRITE, 0, 4096),
                      1000 + FW_NS + L4K_PCIE3 + BUS_NS + TPROG_NS);
    ck_assert_uint_eq(st_one(sim, SSDSIM_OP_READ, 0, 4096), 58098);
    ck_assert_uint_eq(st_one(sim, SSDSIM_OP_READ, 0, 4096),
                      1000 + FW_NS + TR_NS + BUS_NS + L4K_PCIE3);
    st_run(sim, "{\"rw\":\"randwrite\",\"bs\":\"4k\",\"iodepth\":16,\"number_ios\":3000}", NULL);
    ssdsim_device_stats d;
    ck_assert_int_eq(ssdsim_get_device_stats(sim, &d), 0);
    ck_assert_uint_eq(d.host_pages_written, 3000);
    ck_assert_uint_eq(d.flash_pages_programmed, 3000);
    ck_assert_double_eq(d.waf, 1.0);
    ck_assert_uint_eq(d.blocks_erased, 0);
    ck_assert_uint_eq(d.gc_pages_copied, 0);
    ssdsim_free(sim);
    ssdsim_model_free(m);

    /* A read of a fraction of a microsecond (3D XPoint's time to the first data): the same sum,
     * 1000 + 5000 + 300 + 40960 + 1138 = 48,398 ns */
    m = load("{\"name\":\"xp\",\"geometry\":{\"channels\":1,\"chips_per_channel\":1,"
             "\"dies_per_chip\":1,\"planes_per_die\":1,\"blocks_per_plane\":64,"
             "\"pages_per_block\":16,\"page_size\":\"4KiB\"},\"flash\":{\"cell\":\"xpoint\","
             "\"read_us\":0.3,\"program_us\":20,\"bus_mts\":100,\"bus_width\":8},"
             "\"controller\":{\"cmd_overhead_us\":5,\"cores\":1},"
             "\"host\":{\"interface\":\"pcie\",\"pcie_gen\":3,\"lanes\":4}}");
    sim = st_sim(m, 1);
    st_one(sim, SSDSIM_OP_WRITE, 0, 4096);
    ck_assert_uint_eq(st_one(sim, SSDSIM_OP_READ, 0, 4096), 48398);
    ck_assert_uint_eq(st_one(sim, SSDSIM_OP_READ, 0, 4096),
                      1000 + FW_NS + 300 + BUS_NS + L4K_PCIE3);
    ssdsim_free(sim);
    ssdsim_model_free(m);
}
END_TEST

/* ------------------------------------------------------------------------------------------ */
/* 8. Determinism                                                                              */

static char *raid5_json(uint64_t seed)
{
    ssdsim_model *m = array_of("raid5", 4, ",\"stripe\":\"16KiB\",\"raid_us\":3,\"path_us\":1");
    ssdsim *sim = st_sim(m, seed);
    st_run(sim,
           "{\"rw\":\"randrw\",\"rwmixread\":50,\"bssplit\":\"4k/50:16k/30:64k/20\","
           "\"iodepth\":8,\"numjobs\":2,\"number_ios\":600}",
           NULL);
    return st_results_json(sim, m);
}

START_TEST(test_devices_raid5_same_seed_identical_json)
{
    st_assert_seeded(raid5_json(5), raid5_json(5), raid5_json(6));
}
END_TEST

int main(void)
{
    Suite *s = suite_create("devices");
    TCase *tc = tcase_create("devices");
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, test_devices_link_times_by_hand);
    tcase_add_loop_test(tc, test_devices_interface_qd1_latency, 0,
                        (int)SSDSIM__ARRAY_LEN(iface_cases));
    tcase_add_test(tc, test_devices_sata_half_duplex_pcie_full);
    tcase_add_test(tc, test_devices_sas_wide_port_parallel);
    tcase_add_loop_test(tc, test_devices_seq_reads_saturate_link, 0,
                        (int)SSDSIM__ARRAY_LEN(sat_cases));
    tcase_add_test(tc, test_devices_sata_mixed_run_shares_link);
    tcase_add_test(tc, test_devices_host_ftl_adds_cpu_time);
    tcase_add_test(tc, test_devices_host_ftl_caps_iops);
    tcase_add_test(tc, test_devices_buffer_plp_write_below_read);
    tcase_add_test(tc, test_devices_buffer_volatile_write_cache);
    tcase_add_test(tc, test_devices_buffer_full_falls_to_program_rate);
    tcase_add_test(tc, test_devices_buffer_absorbs_overwrites);
    tcase_add_test(tc, test_devices_buffer_flush_hysteresis);
    tcase_add_test(tc, test_devices_buffer_idle_flush);
    tcase_add_test(tc, test_devices_buffer_smaller_than_write);
    tcase_add_test(tc, test_devices_buffer_loses_no_write);
    tcase_add_test(tc, test_devices_raid0_map_table);
    tcase_add_test(tc, test_devices_raid5_map_table);
    tcase_add_test(tc, test_devices_raid0_splits_at_strips);
    tcase_add_test(tc, test_devices_raid0_merges_pieces_per_device);
    tcase_add_test(tc, test_devices_raid1_mirrors);
    tcase_add_test(tc, test_devices_raid5_read_modify_write);
    tcase_add_test(tc, test_devices_raid5_partial_rows);
    tcase_add_test(tc, test_devices_array_spare_and_endurance);
    tcase_add_test(tc, test_devices_jbod_one_job_per_device);
    tcase_add_test(tc, test_devices_card_shares_links);
    tcase_add_test(tc, test_devices_hdd_zoned_sequential_rate);
    tcase_add_test(tc, test_devices_hdd_array_spindles_independent);
    tcase_add_test(tc, test_devices_hdd_firmware_per_disk);
    tcase_add_test(tc, test_devices_hdd_read_cut_through);
    tcase_add_test(tc, test_devices_hdd_write_cache_frees_per_track);
    tcase_add_test(tc, test_devices_hdd_prefetch_min);
    tcase_add_test(tc, test_devices_hdd_write_overlaps_seek);
    tcase_add_test(tc, test_devices_hdd_random_read_iops);
    tcase_add_test(tc, test_devices_hdd_write_cache);
    tcase_add_test(tc, test_devices_xpoint);
    tcase_add_test(tc, test_devices_raid5_same_seed_identical_json);
    tcase_add_test(tc, test_devices_card_cache_burst);
    tcase_add_test(tc, test_devices_card_cache_sustained);
    tcase_add_test(tc, test_devices_card_cache_interleaved_streams);
    tcase_add_test(tc, test_devices_card_cache_stream_rows_first);
    tcase_add_test(tc, test_devices_card_cache_secure_erase);
    tcase_add_test(tc, test_devices_card_cache_rejects);
    tcase_add_test(tc, test_devices_system_member_survives_chdir);
    suite_add_tcase(s, tc);
    return test_run_suite(s);
}
