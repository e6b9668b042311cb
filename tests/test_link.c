/* test_link.c: the host interface module (libssdsim/hw/link.c).
 *
 * Derived rates against figures computed by hand from the standards (line rate, encoding,
 * frame or packet overhead), the default per-command overheads, the shape of each interface
 * (FCFS, full against half duplex, SAS wide ports, a path through a shared uplink) as end
 * times computed by hand, the host CPU pool, and the rejection of every bad combination with
 * its exact message.
 */
#include "common.h"
#include "hw/link.h"

#include <string.h>

#include "testutil.h"

#define KIB128 131072ULL

static struct ssdsim__link_cfg pcie(uint32_t gen, uint32_t lanes, uint32_t mps)
{
    return (struct ssdsim__link_cfg){
        .iface = SSDSIM__IFACE_PCIE, .pcie_gen = gen, .lanes = lanes, .max_payload = mps};
}

static struct ssdsim__link_cfg sata(uint32_t gbps_x10)
{
    return (struct ssdsim__link_cfg){.iface = SSDSIM__IFACE_SATA, .gbps_x10 = gbps_x10};
}

static struct ssdsim__link_cfg sas(uint32_t gbps_x10, uint32_t phys)
{
    return (struct ssdsim__link_cfg){
        .iface = SSDSIM__IFACE_SAS, .gbps_x10 = gbps_x10, .lanes = phys};
}

/* Derive (failing the test on an error) and return the rate. */
static uint64_t rate_of(struct ssdsim__link_cfg c)
{
    char why[160] = "";
    ck_assert_msg(ssdsim__link_derive(&c, false, why, sizeof why) == 0, "%s", why);
    return c.link_bytes_per_s;
}

/* Derive and set up a link. */
static void link_of(struct ssdsim__link *l, struct ssdsim__link_cfg c)
{
    char why[160] = "";
    ck_assert_msg(ssdsim__link_derive(&c, false, why, sizeof why) == 0, "%s", why);
    ck_assert_int_eq(ssdsim__link_init(l, &c), 0);
}

/* The message of a rejected configuration. */
static const char *why_of(struct ssdsim__link_cfg c)
{
    static char why[160];
    why[0] = '\0';
    ck_assert_int_eq(ssdsim__link_derive(&c, false, why, sizeof why), SSDSIM_ECONFIG);
    return why;
}

START_TEST(test_link_pcie_rates)
{
    /* Per lane: GT/s x encoding / 8 bits; then x 256 / (256 + 24) for TLPs of 256 bytes
     * (24 = 16-byte 4DW header + 8 bytes of framing, sequence number and LCRC). */
    /* gen 1: 2.5e9 x 8/10 / 8 = 250e6 B/s per lane; x 256/280 = 228,571,428.57 */
    ck_assert_uint_eq(rate_of(pcie(1, 1, 256)), 228571428);
    ck_assert_uint_eq(rate_of(pcie(1, 4, 256)), 914285714);  /* 4 x 228,571,428.57 */
    ck_assert_uint_eq(rate_of(pcie(1, 8, 256)), 1828571428); /* 8 x 228,571,428.57 */
    /* gen 2: 5e9 x 8/10 / 8 = 500e6 per lane; x 256/280 = 457,142,857.14 */
    ck_assert_uint_eq(rate_of(pcie(2, 1, 256)), 457142857);
    /* the brief's example: 4 x 5e9 x 8/10 / 8 = 2.0e9 x 256/280 = 1.829e9 */
    ck_assert_uint_eq(rate_of(pcie(2, 4, 256)), 1828571428);
    ck_assert_uint_eq(rate_of(pcie(2, 8, 256)), 3657142857);
    /* gen 3: 8e9 x 128/130 / 8 = 984,615,384.6 per lane; x 256/280 = 900,219,780.2 */
    ck_assert_uint_eq(rate_of(pcie(3, 1, 256)), 900219780);
    ck_assert_uint_eq(rate_of(pcie(3, 4, 256)), 3600879120);
    ck_assert_uint_eq(rate_of(pcie(3, 8, 256)), 7201758241);
    /* gen 4: 16e9 x 128/130 / 8 = 1,969,230,769.2 per lane; x 256/280 = 1,800,439,560.4 */
    ck_assert_uint_eq(rate_of(pcie(4, 1, 256)), 1800439560);
    ck_assert_uint_eq(rate_of(pcie(4, 4, 256)), 7201758241);
    ck_assert_uint_eq(rate_of(pcie(4, 8, 256)), 14403516483);
    /* The payload size matters: gen 3 x4 = 3,938,461,538.5 B/s of TLP bytes, x 128/152 and
     * x 4096/4120. */
    ck_assert_uint_eq(rate_of(pcie(3, 4, 128)), 3316599190);
    ck_assert_uint_eq(rate_of(pcie(3, 4, 4096)), 3915519044);
}
END_TEST

START_TEST(test_link_sata_rates)
{
    /* Gb/s / 10 bits per byte, x 2048/2052 (SOF, FIS type, CRC, EOF around 2048 data
     * dwords), x 254/256 (an ALIGN pair every 256 dwords).
     * 6 Gb/s: 600e6 x 0.998051 x 0.992188 = 594,152,046.8 */
    ck_assert_uint_eq(rate_of(sata(15)), 148538011); /* a quarter: 148,538,011.7 */
    ck_assert_uint_eq(rate_of(sata(30)), 297076023); /* a half: 297,076,023.4 */
    ck_assert_uint_eq(rate_of(sata(60)), 594152046);
}
END_TEST

START_TEST(test_link_sas_rates)
{
    /* Per phy: Gb/s / 10, x 1024/1060 (SOF 4 + header 24 + CRC 4 + EOF 4 around 1024 bytes),
     * x 2047/2048 (one ALIGN per 2048 dwords).
     * 6 Gb/s: 600e6 x 0.966038 x 0.999512 = 579,339,622.6 */
    ck_assert_uint_eq(rate_of(sas(60, 1)), 579339622);
    /* A x2 wide port: the rate is of one phy (a command's data uses one phy). */
    ck_assert_uint_eq(rate_of(sas(60, 2)), 579339622);
    ck_assert_uint_eq(rate_of(sas(30, 4)), 289669811);   /* half: 289,669,811.3 */
    ck_assert_uint_eq(rate_of(sas(120, 1)), 1158679245); /* double: 1,158,679,245.3 */
}
END_TEST

START_TEST(test_link_custom_rate_is_given)
{
    struct ssdsim__link_cfg c = {.iface = SSDSIM__IFACE_CUSTOM, .link_bytes_per_s = 400000000};
    ck_assert_int_eq(ssdsim__link_derive(&c, false, NULL, 0), 0);
    ck_assert_uint_eq(c.link_bytes_per_s, 400000000);
    ck_assert_uint_eq(c.lanes, 1);
    struct ssdsim__link l;
    ck_assert_int_eq(ssdsim__link_init(&l, &c), 0);
    ck_assert_uint_eq(ssdsim__link_ns(&l, 4096), 10240); /* 4096 / 0.4 B/ns */
    /* Rounded up: 3e8 B/s, 1 byte = 3.33 ns -> 4; 3 bytes = 10 ns exactly. */
    c.link_bytes_per_s = 300000000;
    ck_assert_int_eq(ssdsim__link_init(&l, &c), 0);
    ck_assert_uint_eq(ssdsim__link_ns(&l, 1), 4);
    ck_assert_uint_eq(ssdsim__link_ns(&l, 3), 10);
    ck_assert_uint_eq(ssdsim__link_ns(&l, 0), 0);
    ssdsim__link_fini(&l);
}
END_TEST

START_TEST(test_link_defaults_filled)
{
    /* Overheads by interface when not given; kept when given. */
    struct ssdsim__link_cfg c = pcie(3, 0, 0);
    c.cmd_overhead_ns = 777;
    ck_assert_int_eq(ssdsim__link_derive(&c, false, NULL, 0), 0);
    ck_assert_uint_eq(c.cmd_overhead_ns, 1000);
    ck_assert_uint_eq(c.lanes, 4);         /* default x4 */
    ck_assert_uint_eq(c.max_payload, 256); /* default 256-byte TLPs */
    ck_assert_uint_eq(c.link_bytes_per_s, 3600879120);
    c.cmd_overhead_ns = 777;
    ck_assert_int_eq(ssdsim__link_derive(&c, true, NULL, 0), 0);
    ck_assert_uint_eq(c.cmd_overhead_ns, 777);

    c = sata(60);
    ck_assert_int_eq(ssdsim__link_derive(&c, false, NULL, 0), 0);
    ck_assert_uint_eq(c.cmd_overhead_ns, 4000);
    ck_assert_uint_eq(c.lanes, 1);
    c = sas(120, 0);
    ck_assert_int_eq(ssdsim__link_derive(&c, false, NULL, 0), 0);
    ck_assert_uint_eq(c.cmd_overhead_ns, 2000);
    ck_assert_uint_eq(c.lanes, 1);
    c = (struct ssdsim__link_cfg){.iface = SSDSIM__IFACE_CUSTOM, .link_bytes_per_s = 1000000};
    ck_assert_int_eq(ssdsim__link_derive(&c, false, NULL, 0), 0);
    ck_assert_uint_eq(c.cmd_overhead_ns, 1000);
    /* A derived configuration derives to itself. */
    struct ssdsim__link_cfg again = c;
    ck_assert_int_eq(ssdsim__link_derive(&again, true, NULL, 0), 0);
    ck_assert_mem_eq(&again, &c, sizeof c);

    ck_assert_str_eq(ssdsim__link_iface_name(SSDSIM__IFACE_PCIE), "pcie");
    ck_assert_str_eq(ssdsim__link_iface_name(SSDSIM__IFACE_SATA), "sata");
    ck_assert_str_eq(ssdsim__link_iface_name(SSDSIM__IFACE_SAS), "sas");
    ck_assert_str_eq(ssdsim__link_iface_name(SSDSIM__IFACE_CUSTOM), "custom");
    ck_assert_ptr_null(ssdsim__link_iface_name((enum ssdsim__iface)9));
}
END_TEST

START_TEST(test_link_pcie_fcfs_back_to_back)
{
    /* Gen 2 x4, 256-byte TLPs: 128 KiB = 512 TLPs x 280 bytes = 143,360 bytes on a link of
     * 4 x 500e6 = 2e9 B/s = 2 B/ns: 71,680 ns. */
    struct ssdsim__link l;
    link_of(&l, pcie(2, 4, 256));
    ck_assert_uint_eq(ssdsim__link_ns(&l, KIB128), 71680);
    ck_assert_uint_eq(ssdsim__link_xfer(&l, SSDSIM__LINK_UP, 0, KIB128), 71680);
    /* The second waits for the first. */
    ck_assert_uint_eq(ssdsim__link_xfer(&l, SSDSIM__LINK_UP, 0, KIB128), 143360);
    ck_assert_uint_eq(ssdsim__link_free_at(&l, SSDSIM__LINK_UP), 143360);
    /* One requested after the link went idle starts at once. */
    ck_assert_uint_eq(ssdsim__link_xfer(&l, SSDSIM__LINK_UP, 200000, KIB128), 271680);
    ck_assert_uint_eq(l.busy_ns[SSDSIM__LINK_UP], 3 * 71680);
    /* Nothing to send: no booking. */
    ck_assert_uint_eq(ssdsim__link_xfer(&l, SSDSIM__LINK_UP, 5, 0), 5);
    ck_assert_uint_eq(ssdsim__link_free_at(&l, SSDSIM__LINK_UP), 271680);
    ssdsim__link_fini(&l);
}
END_TEST

START_TEST(test_link_duplex)
{
    /* A read (up) and a write (down) of 128 KiB both at time 0. */
    struct ssdsim__link l;
    /* PCIe, full duplex: they overlap, both end at 71,680 ns (see the test above). */
    link_of(&l, pcie(2, 4, 256));
    ck_assert_uint_eq(ssdsim__link_xfer(&l, SSDSIM__LINK_UP, 0, KIB128), 71680);
    ck_assert_uint_eq(ssdsim__link_xfer(&l, SSDSIM__LINK_DOWN, 0, KIB128), 71680);

    /* SATA 6 Gb/s, half duplex: one after the other. 128 KiB = 32,768 dwords = 16 Data FISes
     * of 2048 dwords + 4 = 32,832 dwords, x 256/254 for ALIGNs = 33,090.5 dwords x 40 bits
     * = 1,323,620.8 bits at 6 bits/ns = 220,603.5 ns, rounded up to 220,604. */
    link_of(&l, sata(60));
    ck_assert_uint_eq(ssdsim__link_ns(&l, KIB128), 220604);
    ck_assert_uint_eq(ssdsim__link_xfer(&l, SSDSIM__LINK_UP, 0, KIB128), 220604);
    ck_assert_uint_eq(ssdsim__link_xfer(&l, SSDSIM__LINK_DOWN, 0, KIB128), 441208);
    ck_assert_uint_eq(ssdsim__link_free_at(&l, SSDSIM__LINK_UP), 441208);
    ck_assert_uint_eq(l.busy_ns[SSDSIM__LINK_UP], 220604);
    ck_assert_uint_eq(l.busy_ns[SSDSIM__LINK_DOWN], 220604);
    ssdsim__link_fini(&l);
}
END_TEST

START_TEST(test_link_sas_wide_port)
{
    /* SAS 6 Gb/s: 128 KiB = 128 DATA frames x 1060 bytes = 135,680 bytes, x 2048/2047 for
     * ALIGNs = 135,746.3 bytes x 10 bits at 6 bits/ns = 226,243.8 ns -> 226,244. */
    struct ssdsim__link l;
    link_of(&l, sas(60, 2));
    ck_assert_uint_eq(ssdsim__link_ns(&l, KIB128), 226244);
    /* x2 wide: two reads at once run on the two phys in parallel... */
    ck_assert_uint_eq(ssdsim__link_xfer(&l, SSDSIM__LINK_UP, 0, KIB128), 226244);
    ck_assert_uint_eq(ssdsim__link_xfer(&l, SSDSIM__LINK_UP, 0, KIB128), 226244);
    /* ...a third waits for a phy; a write goes the other way at once (full duplex). */
    ck_assert_uint_eq(ssdsim__link_xfer(&l, SSDSIM__LINK_UP, 0, KIB128), 452488);
    ck_assert_uint_eq(ssdsim__link_xfer(&l, SSDSIM__LINK_DOWN, 0, KIB128), 226244);
    /* The earliest-free phy takes the next one: phy 1 is free at 226,244. */
    ck_assert_uint_eq(ssdsim__link_free_at(&l, SSDSIM__LINK_UP), 226244);
    ck_assert_uint_eq(ssdsim__link_xfer(&l, SSDSIM__LINK_UP, 300000, KIB128), 526244);

    /* Narrow: the two reads take turns. */
    link_of(&l, sas(60, 1));
    ck_assert_uint_eq(ssdsim__link_xfer(&l, SSDSIM__LINK_UP, 0, KIB128), 226244);
    ck_assert_uint_eq(ssdsim__link_xfer(&l, SSDSIM__LINK_UP, 0, KIB128), 452488);
    ck_assert_uint_eq(ssdsim__link_xfer(&l, SSDSIM__LINK_DOWN, 0, KIB128), 226244);
    ssdsim__link_fini(&l);
}
END_TEST

START_TEST(test_link_path_shared_uplink)
{
    /* Gen 3 devices at x4 behind a gen 3 x8 uplink, 256-byte TLPs. 128 KiB = 143,360 bytes
     * of TLPs; x4 = 4 x 8 x 128/130 / 8 = 3.93846 B/ns: 143,360 x 130 / 512 = 36,400 ns;
     * x8: 18,200 ns. */
    enum { T4 = 36400, T8 = 18200 };
    struct ssdsim__link dev[4], up;
    for (int i = 0; i < 4; i++)
        link_of(&dev[i], pcie(3, 4, 256));
    link_of(&up, pcie(3, 8, 256));
    ck_assert_uint_eq(ssdsim__link_ns(&dev[0], KIB128), T4);
    ck_assert_uint_eq(ssdsim__link_ns(&up, KIB128), T8);

    /* One device alone: the path is as fast as its slowest link. */
    struct ssdsim__link *p0[2] = {&dev[0], &up};
    ck_assert_uint_eq(ssdsim__link_xfer_path(p0, 2, SSDSIM__LINK_UP, 0, KIB128, NULL), T4);
    /* A path of one link is a plain transfer. */
    ck_assert_uint_eq(ssdsim__link_xfer_path(p0, 1, SSDSIM__LINK_UP, T4, KIB128, NULL), 2 * T4);
    ck_assert_uint_eq(ssdsim__link_xfer_path(p0, 0, SSDSIM__LINK_UP, 7, KIB128, NULL), 7);

    /* Two devices, each with four reads queued at time 0, booked A, B, A, B...: each link is
     * booked on its own. A's k-th read (k from 1) ends on A's link at k T4 and on the uplink
     * at (2k - 1) T8 <= k T4; B's at k T4 on its link and 2k T8 = k T4 on the uplink: both
     * devices stream at full x4 speed side by side, as the x8 uplink allows. */
    for (int i = 0; i < 4; i++)
        ssdsim__link_reset(&dev[i], 0);
    ssdsim__link_reset(&up, 0);
    struct ssdsim__link *pa[2] = {&dev[0], &up}, *pb[2] = {&dev[1], &up};
    uint64_t end_a = 0, end_b = 0;
    for (int k = 0; k < 4; k++) {
        end_a = ssdsim__link_xfer_path(pa, 2, SSDSIM__LINK_UP, 0, KIB128, NULL);
        ck_assert_uint_eq(end_a, (uint64_t)(k + 1) * T4);
        end_b = ssdsim__link_xfer_path(pb, 2, SSDSIM__LINK_UP, 0, KIB128, NULL);
        ck_assert_uint_eq(end_b, (uint64_t)(k + 1) * T4);
    }
    ck_assert_uint_eq(end_a, 145600);
    ck_assert_uint_eq(end_b, 145600);
    /* The uplink was busy for these 8 transfers x T8, back to back (busy time counts the
     * first single transfer too: resets keep it). */
    ck_assert_uint_eq(up.busy_ns[SSDSIM__LINK_UP], 9 * T8);
    ck_assert_uint_eq(ssdsim__link_free_at(&up, SSDSIM__LINK_UP), 8 * T8);

    /* Four devices share it: the uplink is the bottleneck. Booked in turn (k outer, d inner),
     * the (4 k + d + 1)-th transfer ends on the uplink at (4 k + d + 1) T8 and on its device's
     * link at (k + 1) T4; the later of the two ends it. The 16 take 16 T8 = 4 x 72,800 ns on
     * the uplink: each device one transfer per 4 T8 (half of x4) in the long run. */
    for (int i = 0; i < 4; i++)
        ssdsim__link_reset(&dev[i], 0);
    ssdsim__link_reset(&up, 0);
    for (int k = 0; k < 4; k++)
        for (int d = 0; d < 4; d++) {
            struct ssdsim__link *p[2] = {&dev[d], &up};
            uint64_t end = ssdsim__link_xfer_path(p, 2, SSDSIM__LINK_UP, 0, KIB128, NULL);
            uint64_t on_link = (uint64_t)(k + 1) * T4, on_up = (uint64_t)(4 * k + d + 1) * T8;
            ck_assert_uint_eq(end, on_link > on_up ? on_link : on_up);
        }
    /* The uplink carried 16 transfers back to back; device 0's own link 4. */
    ck_assert_uint_eq(ssdsim__link_free_at(&up, SSDSIM__LINK_UP), 16 * T8);
    ck_assert_uint_eq(ssdsim__link_free_at(&dev[0], SSDSIM__LINK_UP), 4 * T4);
    /* The other direction was untouched. */
    ck_assert_uint_eq(ssdsim__link_free_at(&up, SSDSIM__LINK_DOWN), 0);
}
END_TEST

START_TEST(test_link_reset)
{
    struct ssdsim__link l;
    link_of(&l, sas(60, 4));
    for (int i = 0; i < 6; i++)
        ssdsim__link_xfer(&l, i & 1, 0, KIB128);
    ssdsim__link_reset(&l, 1000000);
    for (int d = 0; d < 2; d++)
        ck_assert_uint_eq(ssdsim__link_free_at(&l, d), 1000000);
    ck_assert_uint_eq(ssdsim__link_xfer(&l, SSDSIM__LINK_UP, 0, KIB128), 1000000 + 226244);
    /* busy time survives a reset */
    ck_assert_uint_eq(l.busy_ns[0] + l.busy_ns[1], 7 * 226244);
    ssdsim__link_fini(&l);
}
END_TEST

START_TEST(test_link_cpu_pool)
{
    struct ssdsim__cpu c;
    ck_assert_int_eq(ssdsim__cpu_init(&c, 2), 0);
    /* Three jobs at time 0 on two threads: 100 ns on thread 0, 50 on thread 1, then 70 on
     * the thread free first (1, at 50): ends 120. */
    ck_assert_uint_eq(ssdsim__cpu_run(&c, 0, 100), 100);
    ck_assert_uint_eq(ssdsim__cpu_run(&c, 0, 50), 50);
    ck_assert_uint_eq(ssdsim__cpu_run(&c, 0, 70), 120);
    /* A fourth goes to thread 0 (free at 100 < 120). */
    ck_assert_uint_eq(ssdsim__cpu_run(&c, 0, 10), 110);
    /* Requested when both are idle: starts at once. */
    ck_assert_uint_eq(ssdsim__cpu_run(&c, 500, 10), 510);
    ck_assert_uint_eq(c.busy_ns, 240);
    /* Ties go to the lowest index: after a reset both are free at 1000; thread 0 takes the
     * first job, thread 1 the second, thread 0 (free at 1005) the third. */
    ssdsim__cpu_reset(&c, 1000);
    ck_assert_uint_eq(ssdsim__cpu_run(&c, 0, 5), 1005);
    ck_assert_uint_eq(c.free_ns[0], 1005);
    ck_assert_uint_eq(ssdsim__cpu_run(&c, 0, 20), 1020);
    ck_assert_uint_eq(c.free_ns[1], 1020);
    ck_assert_uint_eq(ssdsim__cpu_run(&c, 0, 1), 1006);
    ssdsim__cpu_fini(&c);
    ck_assert_ptr_null(c.free_ns);
    ssdsim__cpu_fini(&c); /* twice is fine */
    ssdsim__cpu_fini(NULL);
}
END_TEST

START_TEST(test_link_bad_combinations_rejected)
{
    struct ssdsim__link_cfg c;
    c = pcie(5, 4, 256);
    ck_assert_str_eq(why_of(c), "host.pcie_gen: must be 1, 2, 3 or 4, got 5");
    c = pcie(0, 4, 256);
    ck_assert_str_eq(why_of(c), "host.pcie_gen: required when host.interface is pcie");
    c = pcie(3, 3, 256);
    ck_assert_str_eq(why_of(c), "host.lanes: a PCIe link has 1, 2, 4, 8 or 16 lanes, got 3");
    c = pcie(3, 32, 256);
    ck_assert_str_eq(why_of(c), "host.lanes: a PCIe link has 1, 2, 4, 8 or 16 lanes, got 32");
    c = pcie(3, 4, 100);
    ck_assert_str_eq(why_of(c), "host.max_payload: must be 128, 256, 512, 1024, 2048 or 4096 "
                                "bytes, got 100");
    c = pcie(3, 4, 8192);
    ck_assert_str_eq(why_of(c), "host.max_payload: must be 128, 256, 512, 1024, 2048 or 4096 "
                                "bytes, got 8192");
    c = pcie(3, 4, 256);
    c.gbps_x10 = 60;
    ck_assert_str_eq(why_of(c), "host.gbps: applies to SATA and SAS only (host.interface is "
                                "pcie)");

    c = sata(120);
    ck_assert_str_eq(why_of(c), "host.gbps: SATA runs at 1.5, 3 or 6 Gb/s, got 12");
    c = sata(0);
    ck_assert_str_eq(why_of(c), "host.gbps: required when host.interface is sata");
    c = sata(60);
    c.lanes = 2;
    ck_assert_str_eq(why_of(c), "host.lanes: a SATA link has one lane, got 2");
    c = sata(60);
    c.pcie_gen = 3;
    ck_assert_str_eq(why_of(c), "host.pcie_gen: applies to PCIe only (host.interface is sata)");
    c = sata(60);
    c.max_payload = 256;
    ck_assert_str_eq(why_of(c), "host.max_payload: applies to PCIe only (host.interface is sata)");

    c = sas(15, 1);
    ck_assert_str_eq(why_of(c), "host.gbps: SAS runs at 3, 6 or 12 Gb/s, got 1.5");
    c = sas(0, 1);
    ck_assert_str_eq(why_of(c), "host.gbps: required when host.interface is sas");
    c = sas(120, 8);
    ck_assert_str_eq(why_of(c), "host.lanes: a SAS port has 1, 2 or 4 phys, got 8");
    c = sas(120, 3);
    ck_assert_str_eq(why_of(c), "host.lanes: a SAS port has 1, 2 or 4 phys, got 3");

    c = (struct ssdsim__link_cfg){.iface = SSDSIM__IFACE_CUSTOM};
    ck_assert_str_eq(why_of(c), "host.link_bw: required when host.interface is custom");
    c.link_bytes_per_s = 1000000;
    c.lanes = 4;
    ck_assert_str_eq(why_of(c), "host.lanes: a custom link has one lane (give its whole "
                                "bandwidth in host.link_bw), got 4");
    c.lanes = 0;
    c.gbps_x10 = 60;
    ck_assert_str_eq(why_of(c), "host.gbps: applies to SATA and SAS only (host.interface is "
                                "custom)");
    c = (struct ssdsim__link_cfg){.iface = (enum ssdsim__iface)7};
    ck_assert_str_eq(why_of(c), "host.interface: unknown interface 7 (custom, pcie, sata or sas)");
}
END_TEST

START_TEST(test_link_bogus_input)
{
    /* A failed derivation leaves the configuration as it was. */
    struct ssdsim__link_cfg c = pcie(3, 0, 100), before = c;
    ck_assert_int_eq(ssdsim__link_derive(&c, false, NULL, 0), SSDSIM_ECONFIG);
    ck_assert_mem_eq(&c, &before, sizeof c);
    /* The reason is cut to the buffer. */
    char why[8];
    ck_assert_int_eq(ssdsim__link_derive(&c, false, why, sizeof why), SSDSIM_ECONFIG);
    ck_assert_str_eq(why, "host.ma");

    /* init wants a derived configuration. */
    struct ssdsim__link l;
    c = pcie(3, 4, 256);
    ck_assert_int_eq(ssdsim__link_init(&l, &c), SSDSIM_EINVAL); /* not derived: rate 0 */
    ck_assert_int_eq(ssdsim__link_derive(&c, false, NULL, 0), 0);
    c.link_bytes_per_s += 1; /* changed by hand */
    ck_assert_int_eq(ssdsim__link_init(&l, &c), SSDSIM_EINVAL);
    c = sata(60);
    ck_assert_int_eq(ssdsim__link_init(&l, &c), SSDSIM_EINVAL); /* lanes not filled in */
    c = pcie(9, 4, 256);
    ck_assert_int_eq(ssdsim__link_init(&l, &c), SSDSIM_EINVAL);
    c = (struct ssdsim__link_cfg){.iface = SSDSIM__IFACE_CUSTOM, .lanes = 1};
    ck_assert_int_eq(ssdsim__link_init(&l, &c), SSDSIM_EINVAL); /* no rate */
    /* zeroed on failure */
    ck_assert_uint_eq(l.n_phys, 0);
    ssdsim__link_fini(NULL);

    struct ssdsim__cpu cpu;
    ck_assert_int_eq(ssdsim__cpu_init(&cpu, 0), SSDSIM_EINVAL);
    ck_assert_ptr_null(cpu.free_ns);
    ssdsim__cpu_fini(&cpu);
}
END_TEST

START_TEST(test_link_deterministic)
{
    /* The same bookings give the same ends (no hidden state between links). */
    uint64_t ends[2][12];
    for (int r = 0; r < 2; r++) {
        struct ssdsim__link l;
        link_of(&l, sas(120, 4));
        for (int i = 0; i < 12; i++)
            ends[r][i] = ssdsim__link_xfer(&l, i % 2, (uint64_t)i * 1000, 4096 * (i + 1));
        ssdsim__link_fini(&l);
    }
    ck_assert_mem_eq(ends[0], ends[1], sizeof ends[0]);
}
END_TEST

static Suite *link_suite(void)
{
    Suite *s = suite_create("link");
    TCase *tc = tcase_create("rates");
    tcase_add_test(tc, test_link_pcie_rates);
    tcase_add_test(tc, test_link_sata_rates);
    tcase_add_test(tc, test_link_sas_rates);
    tcase_add_test(tc, test_link_custom_rate_is_given);
    tcase_add_test(tc, test_link_defaults_filled);
    tcase_add_test(tc, test_link_bad_combinations_rejected);
    tcase_add_test(tc, test_link_bogus_input);
    suite_add_tcase(s, tc);

    TCase *tl = tcase_create("timelines");
    tcase_add_test(tl, test_link_pcie_fcfs_back_to_back);
    tcase_add_test(tl, test_link_duplex);
    tcase_add_test(tl, test_link_sas_wide_port);
    tcase_add_test(tl, test_link_path_shared_uplink);
    tcase_add_test(tl, test_link_reset);
    tcase_add_test(tl, test_link_cpu_pool);
    tcase_add_test(tl, test_link_deterministic);
    suite_add_tcase(s, tl);
    return s;
}

int main(void)
{
    return test_run_suite(link_suite());
}
