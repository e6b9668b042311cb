/* array.h: the system under test: one device, or several (a JBOD, a RAID-0/1/5 array, the
 * devices of a multi-controller card), and the volumes the host addresses on them.
 *
 * The host hands each request to ssdsim__sys_submit with the volume it addresses. A single
 * device, a JBOD volume: one command to one device. RAID-0 splits a request at strip boundaries
 * and sends one command per device (the strips a request covers on one device are contiguous
 * there). RAID-1 writes every mirror and reads the least busy one. RAID-5 (left-symmetric
 * parity rotation, as Linux md's default) reads strips to the devices that hold them; a write
 * that covers whole stripe rows writes their data and parity; any other write is a
 * read-modify-write: it first reads the old data and the old parity of the part of each row it
 * touches, then writes the new data and the new parity. A request of a system model pays the
 * RAID layer's time before its first command; every command pays the platform path.
 *
 * When the last command of a request is done the host hears (ssdsim__sys_io_done_fn) with the
 * latency breakdown of the command that finished last.
 *
 * A RAID card's write-back cache (system.cache > 0 with its battery, on an array of one
 * volume). After the RAID layer's time, a host write no larger than the cache goes into it when
 * it fits: it is acknowledged once its data has crossed the card's uplink (if it has one) and
 * been copied into the cache at cache_bw (one copy at a time, FCFS; the two are booked
 * independently and the later end counts, as ssdsim__link_xfer_path does), and its bytes
 * become dirty. Dirty data is a FIFO of extents of the volume in the order each began; a
 * write that continues a queued extent (one not yet being flushed) extends it, as a card keeps
 * dirty data by address, so each of several interleaved sequential streams gathers into whole
 * rows; an extent never crosses a multiple of SSDSIM__WC_CHUNK_ROWS stripe rows, so a stream
 * becomes whole chunks of whole rows. Flushing starts when dirty data exceeds cache_high x
 * cache and takes the oldest extents, up to SSDSIM__WC_DEPTH at once, each written to the
 * devices as a RAID write of the volume (whole rows: data and parity, no reads; the rest of a
 * row: read-modify-write), until what is not yet being flushed is at most cache_low x cache.
 * An extent a stream is still writing (short of its chunk's end, extended within the last
 * SSDSIM__WC_RECENT host writes) waits while another flush is in flight (it may still become
 * whole rows); with none in flight, on RAID-5 its whole rows are flushed and the part row at
 * its end stays queued for the stream to complete (full rows first, as RAID cards do); an
 * extent that is only a part row waits too while it has grown or is the newest write, unless a
 * host write waits for room, and is written (a read-modify-write) once the stream stops: in
 * idle time or after SSDSIM__WC_RECENT other writes. Writes that are no stream (a lone write,
 * no longer the newest) are flushed as they come, each a read-modify-write of its row on
 * RAID-5. A write that does not fit waits, in arrival order, while flushing goes on, and is
 * admitted as flushes complete. Once no host request has been in the card for
 * cache_idle_us, everything is flushed. Without the battery the card writes through (as with
 * no cache); a write larger than the cache is written through. Reads are not served from the
 * cache (they go to the devices), overwrites of dirty data are not merged (each is flushed),
 * and flush traffic is booked on the uplink like any device command (a real card's flushes do
 * not cross it; the uplink of such a card is rarely what binds).
 */
#ifndef SSDSIM_ARRAY_H
#define SSDSIM_ARRAY_H

#include "common.h"
#include "dev/dev.h"

/* Where the time of a request went (taken from its last command). */
struct ssdsim__breakdown {
    uint64_t admit_ns, ftl_ns, flash_done_ns, wait_ns;
};

typedef void (*ssdsim__sys_io_done_fn)(void *ctx, uint32_t io, const struct ssdsim__breakdown *b);

/* Per host request: what the array still waits for. */
struct ssdsim__sysio {
    uint64_t offset;
    uint32_t len;
    uint32_t volume;
    uint32_t pending; /* commands outstanding */
    uint8_t op;
    bool fua;         /* a write with Force Unit Access: its device writes carry it */
    uint16_t queue;   /* the NVMe queue pair its commands use at each device */
    uint8_t phase;    /* RAID-5 read-modify-write: 0 reading old data and parity, 1 writing */
    uint8_t placement; /* its FDP placement handle (ftl/page_fdp.c) */
    struct ssdsim__breakdown last;
    uint64_t last_done_ns;
};

/* A RAID card's write-back cache (system.cache): what is dirty, as a FIFO of extents of the
 * volume in the order each began (a write contiguous with a queued extent extends it, within
 * one chunk of SSDSIM__WC_CHUNK_ROWS stripe rows); the host writes waiting for room; the
 * flushes in flight. */
#define SSDSIM__WC_DEPTH 16u     /* flush requests in flight at most */
#define SSDSIM__WC_CHUNK_ROWS 8u /* an extent never crosses a multiple of this many rows */
#define SSDSIM__WC_FLUSH 0x80000000u /* io ids of flush requests: this bit | slot */
#define SSDSIM__WC_RECENT 64u /* an extent written within this many host writes may grow */
struct ssdsim__wc_ext {
    uint64_t offset;
    uint32_t len;
    uint64_t last; /* the host write (ssdsim__wcache.seq) that last extended it */
    bool grown;    /* a later write continued it (a stream's, not a lone write) */
};
struct ssdsim__wcache {
    uint64_t size, high, low, idle_ns; /* bytes; ns */
    uint64_t bytes_per_s, dram_free_ns; /* the copy into the cache: one at a time */
    uint64_t chunk;                    /* bytes */
    uint64_t rmw_row; /* RAID-5: a stripe row's data bytes (a part row costs a read); else 0 */
    uint64_t dirty;                    /* acknowledged, not yet on the devices */
    uint64_t seq;                      /* host writes absorbed (pieces counted once) */
    uint64_t queued;                   /* of which not yet being flushed */
    bool flushing;
    bool idle;                  /* this flush began in idle time: it empties the cache */
    uint64_t target;            /* flushing goes on while more than this is queued */
    struct ssdsim__wc_ext *ext; /* ring: ext[(head + i) % cap], i < n */
    uint32_t head, n, cap;
    /* the queued extents by end offset (open addressing, 2 x cap entries, key 0 empty): the
     * ring slot of the extent a write starting there continues */
    uint64_t *end_key;
    uint32_t *end_slot;
    uint32_t end_cap;
    uint32_t *wait; /* host writes waiting for room, ring like ext */
    uint32_t w_head, w_n, w_cap;
    struct ssdsim__sysio fl[SSDSIM__WC_DEPTH];
    uint32_t fl_busy; /* bit k: slot k flushing */
    uint32_t host_in; /* host requests in the card */
    uint64_t idle_gen;
    /* figures, for tests */
    uint64_t n_absorbed, n_through, n_flushes;
    uint64_t bytes_absorbed; /* host bytes absorbed, ever (the quick matrix's fresh rule) */
};

struct ssdsim__sys {
    /* Preconditioned by host writes alone, not also by the units the FTL maps
     * (ssdsim__dev_preconditioned): set around the measurement methods' runs (methods/wlrun.c),
     * which bring the drive to its state themselves (fills, a curve judged by a rule of its own
     * over whole drive writes, which sees the WAF climb that unwritten units cause, an
     * installed state) */
    bool precond_by_writes;
    const struct ssdsim_model *model;     /* as given: a device or a system */
    const struct ssdsim_model *dev_model; /* each device's */
    struct ssdsim__engine *engine;
    struct ssdsim__dev *devs;
    uint32_t n_devs;
    struct ssdsim__ctrl *ctrls;
    uint32_t n_ctrls;
    struct ssdsim__link uplink;
    bool have_uplink;
    struct ssdsim__cmdpool pool;
    struct ssdsim__sysio *ios; /* indexed by the host's request index */
    uint32_t n_ios;
    bool is_system;
    enum ssdsim__layout layout;
    uint32_t stripe;
    uint64_t raid_ns;
    uint32_t n_volumes;
    uint64_t volume_bytes;
    ssdsim__sys_io_done_fn io_done;
    void *io_ctx;
    int fail_code; /* out of memory inside the array */
    /* RAID-5 content tags (consistency checks only, ssdsim__sys_check_start): per device, a
     * 32-bit version per tag_unit bytes, new at each write of it; the parity device's tags are
     * updated as parity is (old ^ old data ^ new data, over the parity ranges the array
     * writes), so the tags of each row XOR to zero on every granule. NULL when not kept. */
    uint32_t **tags;
    uint32_t *tag_delta; /* per granule of a strip: old ^ new of the row being written */
    uint32_t tag_unit, tag_clock;
    struct ssdsim__wcache wc; /* wc.size 0: no card cache (or no battery: write-through) */
};

/* Build the devices of `model` (a device or a system model). */
int ssdsim__sys_init(struct ssdsim__sys *s, const struct ssdsim_model *model,
                     struct ssdsim__engine *e, uint64_t seed, ssdsim_error *err);
void ssdsim__sys_fini(struct ssdsim__sys *s);
/* Who hears about finished requests (the host). */
void ssdsim__sys_set_done(struct ssdsim__sys *s, ssdsim__sys_io_done_fn fn, void *ctx);

/* Host request `io` (the host's index) for `len` bytes at `offset` of volume `volume` enters
 * the system now, on NVMe queue pair `queue` of its devices (0 when they have one): its low 16
 * bits; bits 16 to 23 are the request's FDP placement handle. `op` may carry SSDSIM__IO_FUA.
 * Returns 0 or SSDSIM_ENOMEM. */
int ssdsim__sys_submit(struct ssdsim__sys *s, uint32_t io, uint32_t volume, uint8_t op,
                       uint64_t offset, uint32_t len, uint32_t queue);
/* Prefetch hint for a request about to be issued (`write`: a write the device's write buffer
 * may take; FUA writes pass false; `read`: a read). */
void ssdsim__sys_prefetch(struct ssdsim__sys *s, uint32_t volume, uint64_t offset, bool write,
                          bool read);
/* Whether the host's prefetch hints lead their requests by many (ftl/env.h, hints_lead; never
 * on a device with a write buffer, whose flush hints its writes). */
void ssdsim__sys_hints_lead(struct ssdsim__sys *s, bool lead);

/* The first failure of a device's FTL (its code, message in *msg), or of the array; 0 if none. */
int ssdsim__sys_failure(const struct ssdsim__sys *s, const char **msg);
/* For a run with requests outstanding and nothing scheduled: the first solid-state device whose
 * FTL is not one of the library's (those stall only waiting for a free block GC cannot make)
 * and that has commands with units not completed, its FTL's name and in *n_cmds those
 * commands; NULL when there is none. Walks the command pool: only for that diagnosis. */
const char *ssdsim__sys_unfinished_ftl(const struct ssdsim__sys *s, uint32_t *n_cmds);
/* Consistency check (ssdsim_check) of every device (dev/dev.h), naming the device in `why`
 * when there are several. 0 or SSDSIM_ESTATE. */
int ssdsim__sys_check(struct ssdsim__sys *s, char *why, size_t len);
/* Checks are enabled (ssdsim_set_check_period): keep RAID-5's content tags from now on, when
 * nothing was written yet (else parity cannot be followed and is not checked), the strip is a
 * multiple of 512 bytes and a member has at most 2^22 tag units (4 bytes each). */
void ssdsim__sys_check_start(struct ssdsim__sys *s);
/* Anything still moving inside a device. */
bool ssdsim__sys_busy(const struct ssdsim__sys *s);
/* After a secure erase: timelines to now. */
void ssdsim__sys_reset(struct ssdsim__sys *s, uint64_t now);

/* Figures over every solid-state device (hard disks count nothing). */
void ssdsim__sys_counters(const struct ssdsim__sys *s, struct ssdsim__env_counters *out);
/* A measurement starts (stats.c): each SSD's SLC cache ends a cliff episode going on
 * (ssdsim__page_slc_measure), so that the counters read against this base are the new
 * measurement's alone. */
void ssdsim__sys_measure(const struct ssdsim__sys *s);

/* Cumulative firmware and NAND-operation counters of the whole system (results.c reports their
 * growth over a run): firmware time on the controllers' cores and on host FTL threads, the cores
 * and threads it ran on, and the NAND operations of hw/nand.c. Busy times count what was booked
 * up to time `at` (the part of a booking that runs past `at` is left out, so that a window's
 * busy time, the difference of two such sums, is the time busy inside it and its utilisation
 * never passes 1: the write path's bookings follow one another from the time they are made, so
 * for it this is exact; a firmware core may be booked a few microseconds ahead of a command's
 * arrival, the only error). */
struct ssdsim__sys_mech {
    uint64_t fw_busy_ns;
    uint32_t fw_cores;
    uint64_t multiplane, multiplane_planes, cache_reads, cache_programs, suspends, copybacks;
    uint64_t page_programs, pad_slots, reg_hits; /* hw/unit.c */
    uint64_t wpath_busy_ns; /* the write path (controller.program_bw), summed */
    uint32_t wpath_devs;    /* devices that have one */
    struct ssdsim__rel_counts rel; /* bit errors (rel/rel.h), summed */
};
void ssdsim__sys_mech(const struct ssdsim__sys *s, uint64_t at, struct ssdsim__sys_mech *out);
uint32_t ssdsim__sys_ec_min(const struct ssdsim__sys *s);
uint32_t ssdsim__sys_ec_max(const struct ssdsim__sys *s);
double ssdsim__sys_erase_mean(const struct ssdsim__sys *s);
uint64_t ssdsim__sys_ec_blocks(const struct ssdsim__sys *s, uint32_t erase_count);
uint64_t ssdsim__sys_free_blocks(const struct ssdsim__sys *s);
uint64_t ssdsim__sys_blocks(const struct ssdsim__sys *s);
uint64_t ssdsim__sys_flash_bytes(const struct ssdsim__sys *s); /* physical, all SSDs */
uint64_t ssdsim__sys_flash_pages(const struct ssdsim__sys *s); /* physical pages, all SSDs */
uint64_t ssdsim__sys_device_bytes(const struct ssdsim__sys *s); /* logical, all devices */
/* The bytes of each member that the system's volume(s) map: the whole device in a JBOD or a
 * mirror, whole strips in RAID-0 and RAID-5 (a remainder shorter than a strip is never
 * written). */
uint64_t ssdsim__sys_member_extent(const struct ssdsim__sys *s);
/* What the devices can be given: the member extent of each (every strip, data or parity, and
 * every mirror copy), the device itself when not a system. The devices' over-provisioning is
 * their flash against this, not against the volumes. */
uint64_t ssdsim__sys_mapped_bytes(const struct ssdsim__sys *s);
/* Whether every device is preconditioned (ssdsim__dev_preconditioned); when not and `why` is
 * not NULL, the first one's reason, naming the device in a system. */
bool ssdsim__sys_preconditioned(const struct ssdsim__sys *s, char *why, size_t len);
/* Whether every device is a solid-state device with an FTL. */
bool ssdsim__sys_all_ssd(const struct ssdsim__sys *s);

/* RAID address mapping, exposed for tests: where byte `offset` of a striped volume lies.
 * RAID-0: device and device offset. RAID-5: the data device and offset, and the parity device
 * of that row. */
void ssdsim__raid0_map(uint32_t n, uint32_t stripe, uint64_t offset, uint32_t *dev,
                       uint64_t *dev_offset);
void ssdsim__raid5_map(uint32_t n, uint32_t stripe, uint64_t offset, uint32_t *dev,
                       uint64_t *dev_offset, uint32_t *parity_dev);

#endif /* SSDSIM_ARRAY_H */
