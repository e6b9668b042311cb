/* link.c: host interface rates from the standards, link timelines, and the host CPU pool.
 *
 * Every rate is kept as an exact fraction, nanoseconds per byte = num / den, built from the
 * standard's integers (transfer rate, encoding, frame sizes), so a transfer's time is rounded
 * once (up, to the ns) instead of going through a rounded bytes-per-second figure first. The
 * bytes-per-second figure in the configuration is that fraction's inverse, rounded down.
 *
 * Timelines are FCFS "busy until" times, as in hw.c: booking is O(phys) with no allocation.
 * What the rates leave out (a few percent at most, or a property of the host rather than the
 * standard) is listed at rate_pcie, rate_sata and rate_sas.
 */
#include "hw/link.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef unsigned __int128 u128;

const char *ssdsim__link_iface_name(enum ssdsim__iface iface)
{
    switch (iface) {
    case SSDSIM__IFACE_CUSTOM:
        return "custom";
    case SSDSIM__IFACE_PCIE:
        return "pcie";
    case SSDSIM__IFACE_SATA:
        return "sata";
    case SSDSIM__IFACE_SAS:
        return "sas";
    }
    return NULL;
}

static uint64_t gcd64(uint64_t a, uint64_t b)
{
    while (b) {
        uint64_t t = a % b;
        a = b;
        b = t;
    }
    return a;
}

/* ns per byte = num / den, reduced. */
struct frac {
    uint64_t num, den;
};

static struct frac frac_make(uint64_t num, uint64_t den)
{
    uint64_t g = gcd64(num, den);
    return (struct frac){num / g, den / g};
}

/* PCIe, the whole link. Sources: PCI Express Base Specification (transfer rates 2.5, 5, 8,
 * 16 GT/s per lane; 8b/10b for gen 1 and 2, 128b/130b for gen 3 and 4); TLP overhead as
 * counted by the pcie-model of Neugebauer et al., "Understanding PCIe performance for end host
 * networking", SIGCOMM 2018 (github.com/pcie-bench/pcie-model, model/pcie.py): 8 bytes of
 * data-link framing per TLP (gen 1/2: STP 1 + sequence number 2 + LCRC 4 + END 1; gen 3/4:
 * the 4-byte STP token, which carries the sequence number, + LCRC 4, no END) + a 16-byte
 * header (4 + 12 for a memory write with 64-bit address, the usual case above 4 GiB). Intel's
 * PCIe application notes (AN 855, "Protocol Overhead") give the same 5 to 6 dwords per TLP
 * without ECRC. ECRC (4 bytes, optional) is assumed off.
 *
 *   bytes/s = lanes x GT/s x 1e9 x enc / 8 x mps / (mps + 24)
 *   ns/byte = 1000 x enc_den x 8 x (mps + 24) / (MT/s x lanes x enc_num x mps)
 *
 * Left out: ACK and UpdateFC DLLPs (8 bytes each) travel in the direction opposite to the
 * data they answer, so they cost nothing while traffic flows one way; under full load both
 * ways the spec's latency limits (PCIe Base 5.0 Tables 3-7 to 3-9 and 2-46 to 2-48, as
 * transcribed in pcie-model) call for one of each about every 118 (gen 1) to 214 (gen 3)
 * symbol times on x4 at 256-byte payloads, and a DLLP takes 2 symbol times on x4: 1.9 to
 * 3.4% of the link, less when implementations coalesce. SKP ordered sets (gen 1/2: 4 symbols
 * every 1180 to 1538 symbol times; gen 3/4: one 16-symbol block every 370 to 375 blocks)
 * cost about 0.3%. Device-to-host data moves in memory writes (the figure above); host-to-device
 * data (a device's DMA reads) comes back as completions, whose 3-dword header saves 4 bytes but
 * which some root complexes split at the read completion boundary (64 bytes: 64/84 = 76%). One rate
 * serves both directions here. */
static struct frac rate_pcie(uint32_t gen, uint32_t lanes, uint32_t mps)
{
    static const uint32_t mts[5] = {0, 2500, 5000, 8000, 16000};
    uint64_t enc_num = gen <= 2 ? 8 : 128, enc_den = gen <= 2 ? 10 : 130;
    return frac_make(1000 * enc_den * 8 * ((uint64_t)mps + 24),
                     (uint64_t)mts[gen] * lanes * enc_num * mps);
}

/* SATA. Sources: Serial ATA Revision 3 (8b/10b; a Data FIS is the FIS type dword plus at most
 * 2048 data dwords, framed by SOF, CRC and EOF; a transmitter sends an ALIGN pair at least
 * every 256 dwords, i.e. after at most 254 others, as the NXP LS1012A reference manual's SATA
 * "ALIGN insertion rate" field restates it). Half duplex: frames go one way at a time.
 *
 *   bytes/s = Gb/s x 1e9 / 10 x 2048/2052 x 254/256     (6 Gb/s: 594.15 MB/s)
 *   ns/byte = 100 x 2052 x 256 / (gbps_x10 x 2048 x 254)
 *
 * Left out: the X_RDY/R_RDY and WTRM/R_OK handshakes around each frame (their length is the
 * round trip through both link layers, not a number in the standard: a few tens of dwords per
 * 8 KiB frame, ~1%), the DMA Activate FIS before each host-to-device Data FIS (~0.3%), and the
 * shorter last frame of a transfer that is not a multiple of 8 KiB. */
static struct frac rate_sata(uint32_t gbps_x10)
{
    return frac_make(100ULL * 2052 * 256, (uint64_t)gbps_x10 * 2048 * 254);
}

/* SAS, one phy. Sources: SAS-1.1/SAS-2/SAS-3 via T10 drafts and drive manuals (Fujitsu
 * MBA3xxxRC SAS interface manual, C141-C013: SSP frame = 24-byte header + information unit +
 * CRC, between SOF and EOF; a DATA frame carries 1 to 1024 bytes; one ALIGN or NOTIFY for
 * clock skew management within every 2048 dwords, a rate that manual gives for 1.5 and
 * 3 Gb/s and that is assumed here for 6 and 12 Gb/s too; SSP is full duplex; a wide port
 * carries frames concurrently on different phys, one connection per phy). 3, 6 and 12 Gb/s
 * SAS all use 8b/10b; 128b/150b arrived with 22.5 Gbaud "24G" SAS-4 (Synopsys, "Decoding SAS 24G").
 *
 *   bytes/s = Gb/s x 1e9 / 10 x 1024/1060 x 2047/2048   (12 Gb/s: 1158.68 MB/s)
 *   ns/byte = 100 x 1060 x 2048 / (gbps_x10 x 1024 x 2047)
 *
 * Left out: RRDY credit and ACK primitives (sent the other way), connection set-up and
 * tear-down (in the per-command overhead), rate-matching ALIGNs (only when a connection runs
 * slower than the phy), and a shorter last frame. */
static struct frac rate_sas(uint32_t gbps_x10)
{
    return frac_make(100ULL * 1060 * 2048, (uint64_t)gbps_x10 * 1024 * 2047);
}

static uint64_t frac_bytes_per_s(struct frac f)
{
    return (uint64_t)(((u128)SSDSIM__NS_PER_S * f.den) / f.num);
}

/* "1.5", "6", "12" from 15, 60, 120. */
static const char *gbps_str(char *buf, size_t n, uint32_t gbps_x10)
{
    if (gbps_x10 % 10)
        snprintf(buf, n, "%u.%u", gbps_x10 / 10, gbps_x10 % 10);
    else
        snprintf(buf, n, "%u", gbps_x10 / 10);
    return buf;
}

static int fail(char *why, size_t n, const char *fmt, ...) SSDSIM__PRINTF(3, 4);
static int fail(char *why, size_t n, const char *fmt, ...)
{
    if (why && n) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(why, n, fmt, ap);
        va_end(ap);
    }
    return SSDSIM_ECONFIG;
}

static bool pow2_in(uint32_t v, uint32_t lo, uint32_t hi)
{
    return v >= lo && v <= hi && (v & (v - 1)) == 0;
}

/* Validate `c` (unchanged) and write the derived configuration to `out`. */
static int derive(const struct ssdsim__link_cfg *c, struct ssdsim__link_cfg *out,
                  bool overhead_given, char *why, size_t n)
{
    struct ssdsim__link_cfg d = *c;
    char g[16];
    const char *name = ssdsim__link_iface_name(c->iface);
    if (!name)
        return fail(why, n, "host.interface: unknown interface %d (custom, pcie, sata or sas)",
                    (int)c->iface);

    /* Keys that belong to another interface. */
    if (c->iface != SSDSIM__IFACE_PCIE && c->pcie_gen)
        return fail(why, n, "host.pcie_gen: applies to PCIe only (host.interface is %s)", name);
    if (c->iface != SSDSIM__IFACE_PCIE && c->max_payload)
        return fail(why, n, "host.max_payload: applies to PCIe only (host.interface is %s)", name);
    if ((c->iface == SSDSIM__IFACE_PCIE || c->iface == SSDSIM__IFACE_CUSTOM) && c->gbps_x10)
        return fail(why, n, "host.gbps: applies to SATA and SAS only (host.interface is %s)", name);

    struct frac f = {0, 0};
    uint64_t overhead = 0;
    switch (c->iface) {
    case SSDSIM__IFACE_CUSTOM:
        if (d.lanes == 0)
            d.lanes = 1;
        if (d.lanes != 1)
            return fail(why, n,
                        "host.lanes: a custom link has one lane (give its whole bandwidth in "
                        "host.link_bw), got %u",
                        c->lanes);
        if (c->link_bytes_per_s == 0)
            return fail(why, n, "host.link_bw: required when host.interface is custom");
        overhead = SSDSIM__LINK_OVERHEAD_CUSTOM_NS;
        break;
    case SSDSIM__IFACE_PCIE:
        if (c->pcie_gen == 0)
            return fail(why, n, "host.pcie_gen: required when host.interface is pcie");
        if (c->pcie_gen > 4)
            return fail(why, n, "host.pcie_gen: must be 1, 2, 3 or 4, got %u", c->pcie_gen);
        if (d.lanes == 0)
            d.lanes = SSDSIM__LINK_DEFAULT_PCIE_LANES;
        if (!pow2_in(d.lanes, 1, 16))
            return fail(why, n, "host.lanes: a PCIe link has 1, 2, 4, 8 or 16 lanes, got %u",
                        c->lanes);
        if (d.max_payload == 0)
            d.max_payload = SSDSIM__LINK_DEFAULT_MAX_PAYLOAD;
        if (!pow2_in(d.max_payload, 128, 4096))
            return fail(why, n,
                        "host.max_payload: must be 128, 256, 512, 1024, 2048 or 4096 bytes, "
                        "got %u",
                        c->max_payload);
        f = rate_pcie(d.pcie_gen, d.lanes, d.max_payload);
        overhead = SSDSIM__LINK_OVERHEAD_PCIE_NS;
        break;
    case SSDSIM__IFACE_SATA:
        if (d.lanes == 0)
            d.lanes = 1;
        if (d.lanes != 1)
            return fail(why, n, "host.lanes: a SATA link has one lane, got %u", c->lanes);
        if (c->gbps_x10 == 0)
            return fail(why, n, "host.gbps: required when host.interface is sata");
        if (c->gbps_x10 != 15 && c->gbps_x10 != 30 && c->gbps_x10 != 60)
            return fail(why, n, "host.gbps: SATA runs at 1.5, 3 or 6 Gb/s, got %s",
                        gbps_str(g, sizeof g, c->gbps_x10));
        f = rate_sata(d.gbps_x10);
        overhead = SSDSIM__LINK_OVERHEAD_SATA_NS;
        break;
    case SSDSIM__IFACE_SAS:
        if (d.lanes == 0)
            d.lanes = 1;
        if (d.lanes != 1 && d.lanes != 2 && d.lanes != 4)
            return fail(why, n, "host.lanes: a SAS port has 1, 2 or 4 phys, got %u", c->lanes);
        if (c->gbps_x10 == 0)
            return fail(why, n, "host.gbps: required when host.interface is sas");
        if (c->gbps_x10 != 30 && c->gbps_x10 != 60 && c->gbps_x10 != 120)
            return fail(why, n, "host.gbps: SAS runs at 3, 6 or 12 Gb/s, got %s",
                        gbps_str(g, sizeof g, c->gbps_x10));
        f = rate_sas(d.gbps_x10);
        overhead = SSDSIM__LINK_OVERHEAD_SAS_NS;
        break;
    }
    if (c->iface != SSDSIM__IFACE_CUSTOM)
        d.link_bytes_per_s = frac_bytes_per_s(f);
    if (!overhead_given)
        d.cmd_overhead_ns = overhead;
    *out = d;
    return 0;
}

int ssdsim__link_derive(struct ssdsim__link_cfg *c, bool overhead_given, char *why, size_t n)
{
    return derive(c, c, overhead_given, why, n);
}

/* ------------------------------------------------------------------ timelines */

int ssdsim__link_init(struct ssdsim__link *l, const struct ssdsim__link_cfg *c)
{
    memset(l, 0, sizeof *l);
    struct ssdsim__link_cfg d;
    /* A derived configuration is a fixed point of the derivation. */
    if (derive(c, &d, true, NULL, 0) != 0 || d.link_bytes_per_s != c->link_bytes_per_s ||
        d.lanes != c->lanes || d.max_payload != c->max_payload)
        return SSDSIM_EINVAL;
    struct frac f;
    switch (c->iface) {
    case SSDSIM__IFACE_PCIE:
        f = rate_pcie(c->pcie_gen, c->lanes, c->max_payload);
        break;
    case SSDSIM__IFACE_SATA:
        f = rate_sata(c->gbps_x10);
        break;
    case SSDSIM__IFACE_SAS:
        f = rate_sas(c->gbps_x10);
        break;
    default:
        f = frac_make(SSDSIM__NS_PER_S, c->link_bytes_per_s);
        break;
    }
    l->iface = c->iface;
    l->n_phys = c->iface == SSDSIM__IFACE_SAS ? c->lanes : 1;
    l->half_duplex = c->iface == SSDSIM__IFACE_SATA;
    l->ns_num = f.num;
    l->ns_den = f.den;
    return 0;
}

void ssdsim__link_fini(struct ssdsim__link *l)
{
    if (l)
        memset(l, 0, sizeof *l);
}

uint64_t ssdsim__link_ns(const struct ssdsim__link *l, uint64_t bytes)
{
    return ssdsim__mul_div_up(bytes, l->ns_num, l->ns_den);
}

/* The timeline a transfer in `dir` would take, as an index into free_ns[0] (half duplex) or
 * free_ns[dir]: the earliest-free phy, lowest on ties. */
static uint32_t pick(const struct ssdsim__link *l, int dir)
{
    assert(dir == SSDSIM__LINK_DOWN || dir == SSDSIM__LINK_UP);
    assert(l->n_phys >= 1 && l->n_phys <= SSDSIM__LINK_MAX_PHYS);
    const uint64_t *fr = l->free_ns[l->half_duplex ? 0 : dir];
    uint32_t best = 0;
    for (uint32_t i = 1; i < l->n_phys; i++)
        if (fr[i] < fr[best])
            best = i;
    return best;
}

uint64_t ssdsim__link_free_at(const struct ssdsim__link *l, int dir)
{
    return l->free_ns[l->half_duplex ? 0 : dir][pick(l, dir)];
}

uint64_t ssdsim__link_xfer(struct ssdsim__link *l, int dir, uint64_t now, uint64_t bytes)
{
    return ssdsim__link_xfer_path(&l, 1, dir, now, bytes, NULL);
}

uint64_t ssdsim__link_xfer_path(struct ssdsim__link *const *links, uint32_t n, int dir,
                                uint64_t now, uint64_t bytes, uint8_t *phys)
{
    if (n == 0 || bytes == 0)
        return now;
#ifdef SSDSIM_DEBUG
    for (uint32_t i = 0; i < n; i++)
        for (uint32_t j = i + 1; j < n; j++)
            assert(links[i] != links[j]);
#endif
    uint64_t end = now;
    for (uint32_t i = 0; i < n; i++) {
        struct ssdsim__link *l = links[i];
        uint64_t *fr = l->free_ns[l->half_duplex ? SSDSIM__LINK_DOWN : dir];
        uint32_t p = phys ? phys[i] : SSDSIM__LINK_ANY_PHY;
        if (p >= l->n_phys) {
            p = pick(l, dir); /* the earliest-free phy, the lowest on ties */
            if (phys)
                phys[i] = (uint8_t)p;
        }
        if (bytes != l->last_bytes) {
            l->last_bytes = bytes;
            l->last_ns = ssdsim__link_ns(l, bytes);
        }
        uint64_t t = l->last_ns;
        fr[p] = SSDSIM__MAX(now, fr[p]) + t;
        l->busy_ns[dir] += t;
        end = SSDSIM__MAX(end, fr[p]);
    }
    return end;
}

void ssdsim__link_reset(struct ssdsim__link *l, uint64_t now)
{
    for (int d = 0; d < 2; d++)
        for (uint32_t i = 0; i < SSDSIM__LINK_MAX_PHYS; i++)
            l->free_ns[d][i] = now;
}

/* ------------------------------------------------------------------ host CPU pool */

int ssdsim__cpu_init(struct ssdsim__cpu *c, uint32_t threads)
{
    memset(c, 0, sizeof *c);
    if (threads == 0)
        return SSDSIM_EINVAL;
    c->free_ns = calloc(threads, sizeof *c->free_ns);
    if (!c->free_ns)
        return SSDSIM_ENOMEM;
    c->n_threads = threads;
    return 0;
}

void ssdsim__cpu_fini(struct ssdsim__cpu *c)
{
    if (!c)
        return;
    free(c->free_ns);
    memset(c, 0, sizeof *c);
}

uint64_t ssdsim__cpu_run(struct ssdsim__cpu *c, uint64_t now, uint64_t ns)
{
    assert(c->n_threads >= 1);
    /* O(threads) per job; a min-heap would make it O(log threads), not worth it for the
     * handful of threads a host FTL gets. */
    uint32_t best = 0;
    for (uint32_t i = 1; i < c->n_threads; i++)
        if (c->free_ns[i] < c->free_ns[best])
            best = i;
    uint64_t end = SSDSIM__MAX(now, c->free_ns[best]) + ns;
    c->free_ns[best] = end;
    c->busy_ns += ns;
    return end;
}

void ssdsim__cpu_reset(struct ssdsim__cpu *c, uint64_t now)
{
    for (uint32_t i = 0; i < c->n_threads; i++)
        c->free_ns[i] = now;
}
