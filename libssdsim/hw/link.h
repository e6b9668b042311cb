/* link.h: the host interface (PCIe, SATA, SAS or a bare bandwidth) and the host CPU pool.
 *
 * Configuration: ssdsim__link_derive() turns the interface keys of a model (host.interface,
 * host.pcie_gen, host.lanes, host.gbps, host.max_payload) into a data rate and a default
 * per-command overhead, and rejects combinations the standards do not have. Runtime: a
 * struct ssdsim__link books data transfers on FCFS "busy until" timelines shaped like the
 * interface, and struct ssdsim__cpu is a pool of host threads for host-based FTLs.
 *
 * Data rates (bytes of payload per second, derived in link.c from the standards):
 *
 *   interface  rate of                   formula
 *   PCIe       the whole link (x lanes)  lanes x GT/s x 8/10 (gen 1, 2) or 128/130 (gen 3, 4) / 8
 *                                        x max_payload / (max_payload + 24)
 *   SATA       the link (half duplex)    Gb/s / 10 (8b/10b) x 2048/2052 x 254/256
 *   SAS        one phy (full duplex)     Gb/s / 10 (8b/10b) x 1024/1060 x 2047/2048
 *   custom     the link (full duplex)    host.link_bw as given
 *
 *   PCIe: 24 bytes per TLP = 16-byte header (4DW, 64-bit addresses) + 8 bytes of data-link
 *   framing (gen 1/2: STP, sequence number, LCRC, END; gen 3/4: 4-byte STP token carrying the
 *   sequence number, LCRC). SATA: a Data FIS carries at most 8192 bytes (2048 dwords) and
 *   costs SOF, FIS type, CRC and EOF (4 dwords); an ALIGN pair is sent at least every 256
 *   dwords. SAS: an SSP DATA frame carries at most 1024 bytes and costs SOF, a 24-byte
 *   header, CRC and EOF (36 bytes); one ALIGN or NOTIFY every 2048 dwords for clock skew.
 *   Examples: PCIe gen 3 x4, 256-byte payloads: 3.60 GB/s; SATA 6 Gb/s: 594 MB/s;
 *   SAS 12 Gb/s: 1.159 GB/s per phy.
 *
 * Shapes: PCIe and custom links are full duplex (host-to-device and device-to-host
 * transfers overlap); SATA is half duplex (one frame direction at a time: a read and a write
 * take turns); a SAS wide port of n phys carries up to n transfers per direction at once,
 * each on one phy at one phy's rate (a connection, and so a command's data, uses one phy).
 *
 * Default per-command overheads (host.cmd_overhead_us when not given): the link and protocol
 * time of submitting a command and completing it, outside the data transfer; it adds latency
 * but does not occupy the link.
 *   PCIe (NVMe)   1 us: doorbell write, one DMA read of the 64-byte submission entry, the
 *                 completion entry write and MSI-X: one device read round trip (about 0.5 to
 *                 0.8 us on server root complexes) plus two posted writes.
 *   SATA (AHCI)   4 us: the NVMe path plus the 3.2 us by which Intel measured AHCI slower
 *                 (6.0 against 2.8 us): four uncacheable register reads per command (about
 *                 2.5 us) and a second, serialised host-memory fetch (command header, then
 *                 command table), and the FIS handshakes.
 *   SAS (SSP)     2 us: the HBA's queue-based host interface (like NVMe, 1 us) plus about four
 *                 SSP connections per command (OPEN/OPEN_ACCEPT, COMMAND or XFER_RDY or
 *                 RESPONSE frame, ACK, DONE and CLOSE), a few hundred ns each.
 *   custom        1 us, the historical default of host.cmd_overhead_us.
 */
#ifndef SSDSIM_HW_LINK_H
#define SSDSIM_HW_LINK_H

#include "common.h"
#include "config/model.h"

/* Largest SAS wide port (phys); PCIe, SATA and custom links use one timeline per direction. */
#define SSDSIM__LINK_MAX_PHYS 4

/* Default per-command overheads (ns), see the top of this file. */
#define SSDSIM__LINK_OVERHEAD_CUSTOM_NS 1000
#define SSDSIM__LINK_OVERHEAD_PCIE_NS 1000
#define SSDSIM__LINK_OVERHEAD_SATA_NS 4000
#define SSDSIM__LINK_OVERHEAD_SAS_NS 2000

/* Defaults of fields left 0: PCIe lanes and TLP max payload; SATA, SAS and custom have one
 * lane (SAS: a narrow port). */
#define SSDSIM__LINK_DEFAULT_PCIE_LANES 4
#define SSDSIM__LINK_DEFAULT_MAX_PAYLOAD 256

/* Directions of a transfer. */
enum { SSDSIM__LINK_DOWN = 0 /* host to device */, SSDSIM__LINK_UP = 1 /* device to host */ };

/* The interface's name as the model files spell it ("custom", "pcie", "sata", "sas"), or
 * NULL for a value outside the enum. */
const char *ssdsim__link_iface_name(enum ssdsim__iface iface);

/* Check `c` and fill in what follows from the standard: link_bytes_per_s (for every interface
 * but CUSTOM, whose rate is given), zero lanes / max_payload with their defaults, and
 * cmd_overhead_ns with the interface's default when !overhead_given.
 *
 * Fields that do not apply to the interface must be 0 (pcie_gen and max_payload outside
 * PCIe, gbps_x10 outside SATA and SAS; lanes may be 0 or 1 for SATA and custom). A non-CUSTOM
 * interface overwrites link_bytes_per_s: the caller rejects host.link_bw given together with
 * a standard interface, since only it knows whether the key was written.
 *
 * Returns 0, or SSDSIM_ECONFIG with a one-line reason naming the key written to `why` (may be
 * NULL; truncated to n bytes), e.g. "host.pcie_gen: must be 1, 2, 3 or 4, got 5". On failure
 * `c` is unchanged. */
int ssdsim__link_derive(struct ssdsim__link_cfg *c, bool overhead_given, char *why, size_t n);

/* One link as the simulator books it. Timelines are "busy until" times: a transfer starts at
 * max(requested time, free time) and holds its timeline for its whole length, in the order
 * the bookings are made. No heap memory: a link is a plain struct the owner embeds. */
struct ssdsim__link {
    enum ssdsim__iface iface;
    uint32_t n_phys;  /* timelines per direction: SAS phys; 1 for the others */
    bool half_duplex; /* SATA: both directions book free_ns[0][0] */
    /* Time per byte on one lane/phy, exactly: ns_num / ns_den ns (reduced fraction), so
     * derived rates give exact times (no rounded bytes-per-second in between). */
    uint64_t ns_num, ns_den;
    /* the size of the last transfer booked and its time (ssdsim__link_xfer_path): a device's
     * transfers are mostly of one size, whose time is then taken without a division */
    uint64_t last_bytes, last_ns;
    uint64_t free_ns[2][SSDSIM__LINK_MAX_PHYS]; /* [direction][phy] */
    uint64_t busy_ns[2]; /* transfer time booked per direction (all phys; SATA: by the
                            direction of each transfer), for utilisation figures */
};

/* Set up `l` for a configuration that went through ssdsim__link_derive (CUSTOM: any
 * link_bytes_per_s > 0). Timelines start free at time 0. Returns 0, or SSDSIM_EINVAL when `c`
 * is not a derived configuration (a bad combination, or link_bytes_per_s changed after
 * derivation); `l` is then zeroed. Allocates nothing. */
int ssdsim__link_init(struct ssdsim__link *l, const struct ssdsim__link_cfg *c);
/* Nothing to free; zeroes `l`. Accepts NULL. */
void ssdsim__link_fini(struct ssdsim__link *l);

/* Time for `bytes` on one lane/phy of this link (PCIe: the whole link, its lanes striped;
 * SAS: one phy), ns rounded up. 0 bytes take 0 ns. */
uint64_t ssdsim__link_ns(const struct ssdsim__link *l, uint64_t bytes);

/* Earliest time a transfer in direction `dir` could start on `l` (SAS: on its earliest-free
 * phy; SATA: the shared timeline). */
uint64_t ssdsim__link_free_at(const struct ssdsim__link *l, int dir);

/* Book a transfer of `bytes` in direction `dir` (SSDSIM__LINK_DOWN or _UP) requested at `now`:
 * it starts at max(now, the timeline's free time) on the earliest-free timeline (lowest phy
 * on ties) and the function returns its end. 0 bytes book nothing and return `now`. */
uint64_t ssdsim__link_xfer(struct ssdsim__link *l, int dir, uint64_t now, uint64_t bytes);

/* A command whose data has not yet crossed a link: it takes the earliest-free phy there. */
#define SSDSIM__LINK_ANY_PHY 0xffu

/* Book a transfer across the `n` distinct links of a path (a device's own link, then the
 * uplink of a card's PCIe switch that several devices share). Each link is booked on its own,
 * FCFS from `now`, for `bytes` at its own rate, and the transfer ends when the slowest link is
 * done; the function returns that end (n == 0 or 0 bytes book nothing and return `now`).
 * `phys` (may be NULL) holds, per link, the phy the transfer's command already uses on a SAS
 * wide port, or SSDSIM__LINK_ANY_PHY: the earliest-free phy (lowest on ties) is then taken and
 * written back, so all the data of one command crosses one phy, as on a real port (a
 * connection is per phy). With NULL every transfer takes the earliest-free phy.
 *
 * The approximation: a switch interleaves the TLPs of concurrent transfers; here each link
 * carries each transfer's bytes in turn, starting as soon as that link is free, independently
 * of the other links of the path. An unloaded transfer costs exactly its slowest link's time
 * (as cut-through), every link's busy time is exact and no link is held idle while another of
 * the path is busy, so throughput is the narrowest share's: two x4 devices behind an x8 uplink
 * each sustain x4, four share it at half x4 each. One transfer of a burst may end earlier or
 * later than with true interleaving, by up to the burst's uplink time. (Booking every link
 * from one common start, as cut-through would, holds the shared uplink idle while a device's
 * own link is queued, and devices that could run side by side take turns.) */
uint64_t ssdsim__link_xfer_path(struct ssdsim__link *const *links, uint32_t n, int dir,
                                uint64_t now, uint64_t bytes, uint8_t *phys);

/* Make every timeline free at `now` (after a secure erase: no transfer may be in flight).
 * busy_ns is kept. */
void ssdsim__link_reset(struct ssdsim__link *l, uint64_t now);

/* Host CPU threads running a host-based FTL: FCFS timelines, like the firmware cores. */
struct ssdsim__cpu {
    uint64_t *free_ns; /* per thread: time it is next free */
    uint32_t n_threads;
    uint64_t busy_ns; /* CPU time booked, all threads */
};

/* Set up `threads` threads (>= 1), free at time 0. Returns 0, SSDSIM_EINVAL (0 threads) or
 * SSDSIM_ENOMEM; on failure `c` is zeroed and holds nothing. */
int ssdsim__cpu_init(struct ssdsim__cpu *c, uint32_t threads);
/* Free the timelines; accepts NULL and a zeroed or failed `c`. */
void ssdsim__cpu_fini(struct ssdsim__cpu *c);
/* Run `ns` of work requested at `now` on the earliest-free thread (lowest index on ties):
 * it starts at max(now, that thread's free time); returns its end. */
uint64_t ssdsim__cpu_run(struct ssdsim__cpu *c, uint64_t now, uint64_t ns);
/* Make every thread free at `now`; busy_ns is kept. */
void ssdsim__cpu_reset(struct ssdsim__cpu *c, uint64_t now);

#endif /* SSDSIM_HW_LINK_H */
