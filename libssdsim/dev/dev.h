/* dev.h: one block device as the host sees it: its command queue, its front end (host-based
 * FTL threads, the interface's per-command time, a firmware core, the host link and any uplink
 * it shares) and what is behind it: a solid-state back end (write buffer, FTL, flash) or a hard
 * disk.
 *
 * A device works on commands (struct ssdsim__cmd): a host request, or the piece of one that an
 * array sends to this device. Commands live in a pool the system owns (array/array.h) and are
 * named by their index, which is also what the FTL sees as the request of a unit (so one FTL
 * callback serves every device: the index is unique across them). Write-buffer flushes are the
 * device's own writes; their unit ids carry SSDSIM__DEV_FLUSH_TAG.
 *
 * Path of a command: admitted when the device holds fewer than its queue depth (else it waits,
 * in order, on the host), the front end books its stages at admission (FCFS timelines, see
 * hw/link.h and ssdsim__dev_admit), it arrives at the back end at a known time (one event), and
 * it completes when its last unit is done and, for reads, its data has crossed the link back.
 */
#ifndef SSDSIM_DEV_H
#define SSDSIM_DEV_H

#include "common.h"
#include "config/model.h"
#include "engine/engine.h"
#include "ftl/env.h"
#include "hdd/hdd.h"
#include "hw/hw.h"
#include "hw/link.h"
#include "ipool.h"
#include "udiv.h"

#define SSDSIM__DEV_FLUSH_TAG 0x80000000u
/* Read-ahead reads (dev/readahead.c) carry this tag in their unit ids. */
#define SSDSIM__DEV_RA_TAG 0x40000000u

/* One command at one device. */
struct ssdsim__cmd {
    uint64_t offset;   /* device bytes */
    uint32_t len;
    uint32_t io;       /* the host request it serves */
    uint32_t dev;
    uint32_t pending;  /* units not yet done */
    uint32_t next;     /* free list, or the device's wait queue */
    uint8_t op;        /* SSDSIM__IO_* */
    uint8_t role;      /* the array's use of it (array.c) */
    bool buffered;     /* a write acknowledged from the write buffer */
    bool fua;          /* a write with Force Unit Access (dev/flush.c) */
    uint16_t queue;    /* its NVMe queue pair (dev/nvmeq.c) */
    uint8_t placement; /* its FDP placement handle (ftl/page_fdp.c) */
    /* the phy its data uses on each link of the path (a SAS wide port carries a command's data
     * on one phy, hw/link.h), SSDSIM__LINK_ANY_PHY until its first transfer picks one */
    uint8_t phy[2];
    /* the latency breakdown: admitted to the device, reached the back end, back end done,
     * longest wait for a free block, and when its data is back on the host */
    uint64_t admit_ns, ftl_ns, flash_done_ns, wait_ns, done_ns;
    /* a hard disk's write-through write: when its data is all in the drive (it reached the
     * drive as a command first, and seeks while the data crosses the link) */
    uint64_t data_ns;
};

/* The commands, slots of an index pool (ipool.h) chained through `next` when free. */
struct ssdsim__cmdpool {
    struct ssdsim__cmd *v;
    struct ssdsim__ipool ip;
};

/* Called when command `cmd` of device `dev` is complete (at the engine's now). */
typedef void (*ssdsim__cmd_done_fn)(void *ctx, uint32_t cmd);

/* The front-end resources several devices may share: a controller's firmware cores and host
 * link (the devices one controller exposes), and a card's uplink. Owned by the system. */
struct ssdsim__ctrl {
    uint64_t *core_free;
    uint32_t n_cores;
    uint64_t busy_ns; /* firmware time booked, all cores (kept across resets) */
    struct ssdsim__link link;
};

struct ssdsim__buf;    /* dev/buffer.c */
struct ssdsim__ra;     /* dev/readahead.c */
struct ssdsim__flushq; /* dev/flush.c */
struct ssdsim__nvmeq;  /* dev/nvmeq.c */
struct ssdsim__zns;    /* dev/zns.c */

struct ssdsim__dev {
    uint32_t index;
    const struct ssdsim_model *model; /* a device model (SSD or HDD) */
    struct ssdsim__engine *engine;
    struct ssdsim__cmdpool *pool;
    ssdsim__cmd_done_fn cmd_done;
    void *cmd_done_ctx;
    /* front end */
    struct ssdsim__ctrl *ctrl;
    /* where controller.cmd_overhead runs: the controller's cores for an SSD (a multi-controller
     * card's devices share them), the drive's own for a hard disk, whose firmware is its own
     * however many disks share a port (disk_fw; its link is not used) */
    struct ssdsim__ctrl *fw;
    struct ssdsim__ctrl disk_fw;
    struct ssdsim__link *path[2]; /* the controller's link, then any uplink */
    uint32_t n_path;
    struct ssdsim__cpu cpu; /* host-based FTL threads (n 0 when the FTL is on the device) */
    uint64_t extra_ns;      /* per command on the way in: the platform path */
    uint32_t qd_limit, at_device;
    struct ssdsim__nvmeq *nq; /* NVMe queue pairs (model nvme.*), or NULL: one host queue */
    uint32_t wait_head, wait_tail;
    uint64_t bytes; /* exposed to the host */
    /* solid-state back end */
    bool ssd;
    uint32_t unit; /* mapping unit, bytes */
    struct ssdsim__udiv unit_div; /* unit as a divisor: ssdsim__dev_unit_of */
    struct ssdsim__hw hw;
    struct ssdsim_ftl_env env;
    struct ssdsim__buf *buf; /* NULL: no write buffer */
    struct ssdsim__ra *ra;   /* NULL: no read-ahead */
    struct ssdsim__flushq *flushq; /* flush commands waiting for the buffer; NULL until one */
    struct ssdsim__zns *zns;       /* the zones of a zoned drive (zns.*), or NULL */
    /* hard disk */
    struct ssdsim__hdd hdd;
    /* completed commands and their bytes, per op (cumulative) */
    uint64_t done_cmds[4], done_bytes[4]; /* read, write, trim, flush */
    /* Since the last secure erase (or since new), for ssdsim__dev_preconditioned: the FTL's
     * cumulative erases and host units when it happened, and whether fast preconditioning
     * then installed a steady state. */
    uint64_t erases_at_erase, host_units_at_erase;
    bool installed;
};

/* The mapping unit holding byte `offset` of the device (offset / unit, a shift when the unit
 * is a power of two, as it always is in models/: the request path's divisions). */
static inline uint64_t ssdsim__dev_unit_of(const struct ssdsim__dev *d, uint64_t offset)
{
    return ssdsim__udiv_q64(&d->unit_div, offset);
}

/* Build device `index` of model `m` (SSD or HDD) on controller `ctrl` (its cores and link,
 * set up by the caller), behind `uplink` (or NULL). `seed` seeds its FTL. On failure fills err;
 * ssdsim__dev_fini must still be called. */
int ssdsim__dev_init(struct ssdsim__dev *d, uint32_t index, const struct ssdsim_model *m,
                     struct ssdsim__engine *e, struct ssdsim__cmdpool *pool,
                     struct ssdsim__ctrl *ctrl, struct ssdsim__link *uplink, uint64_t extra_ns,
                     uint64_t seed, ssdsim__cmd_done_fn done, void *ctx, ssdsim_error *err);
void ssdsim__dev_fini(struct ssdsim__dev *d);

/* Controller resources for model m (cores and link). */
int ssdsim__ctrl_init(struct ssdsim__ctrl *c, const struct ssdsim_model *m);
void ssdsim__ctrl_fini(struct ssdsim__ctrl *c);
void ssdsim__ctrl_reset(struct ssdsim__ctrl *c, uint64_t now);
/* Firmware (dev/fw.c): run `ns` of work requested at `t` on the earliest-free core (lowest
 * index on ties); returns its end. */
uint64_t ssdsim__ctrl_run(struct ssdsim__ctrl *c, uint64_t t, uint64_t ns);
/* Hook the device's firmware costs of background work (GC, wear leveling, mapping pages) to
 * its FTL environment. */
void ssdsim__fw_setup(struct ssdsim__dev *d);
/* The firmware time of command c's mapping units (fw_read / fw_write per unit), besides
 * controller.cmd_overhead. */
uint64_t ssdsim__fw_cmd_ns(const struct ssdsim__dev *d, const struct ssdsim__cmd *c);

/* Command `cmd` (offset, len, op, io set) enters the device now: admitted, or queued on the
 * host behind earlier ones while the device is full. */
void ssdsim__dev_submit(struct ssdsim__dev *d, uint32_t cmd);

/* A hint that a command for `offset` (a write the write buffer may take when `write`, a read
 * when `read`) is coming: the FTL starts loading its mapping; not for a write the write buffer
 * will take. */
void ssdsim__dev_prefetch(struct ssdsim__dev *d, uint64_t offset, bool write, bool read);

/* Commands inside the device (RAID-1 reads go to the least busy mirror). */
static inline uint32_t ssdsim__dev_load(const struct ssdsim__dev *d)
{
    return d->at_device;
}

/* Whether anything is still moving in the device: flash operations, buffer flushes, a disk's
 * destaging. */
bool ssdsim__dev_busy(const struct ssdsim__dev *d);

/* After a secure erase: empty buffer, reset timelines to now; the device is fresh again
 * (ssdsim__dev_preconditioned). */
void ssdsim__dev_reset(struct ssdsim__dev *d, uint64_t now);
/* Whether the device is past its fresh-drive state, where the SNIA steady-state rule may judge
 * it: since the last secure erase the host has written at least twice its logical capacity,
 * its FTL (when it says, mapped_units) has at most 1% of its spare space in units never written
 * (unless `by_writes`),
 * (SNIA's workload-independent preconditioning writes that much) and, on
 * media that erase, garbage collection has started (a block was erased), or fast
 * preconditioning installed a steady state. A hard disk keeps no such state: always true.
 * When false and `why` is not NULL, a short reason with figures goes there. */
bool ssdsim__dev_preconditioned(const struct ssdsim__dev *d, bool by_writes, char *why,
                                size_t len);

/* The FTL callbacks (ctx is the device). */
void ssdsim__dev_unit_done(void *ctx, uint32_t id, uint32_t bytes);
void ssdsim__dev_unit_waited(void *ctx, uint32_t id, uint64_t ns);

/* The write buffer (dev/buffer.c): build it from model->buffer (size > 0). */
int ssdsim__buf_new(struct ssdsim__buf **out, struct ssdsim__dev *d);
void ssdsim__buf_free(struct ssdsim__buf *b);
/* Write command `cmd` reached the device: place its units in the buffer (or wait for room);
 * the command completes through ssdsim__dev_cmd_unit_done. */
void ssdsim__buf_write(struct ssdsim__buf *b, uint32_t cmd);
/* Read of `bytes` at unit `u` for command `cmd`: true when the buffer holds the unit (the unit is
 * then completed by the buffer), false to read it from flash. */
bool ssdsim__buf_read(struct ssdsim__buf *b, uint32_t cmd, uint64_t u, uint32_t bytes);
/* A trim drops the unit from the buffer too. */
void ssdsim__buf_trim(struct ssdsim__buf *b, uint64_t u);
/* FUA write `cmd` of unit u bypasses the buffer: drop the unit's copy not yet on its way to
 * flash as a trim does, but that copy counts as a host page written that never reaches the
 * flash (as an overwrite in DRAM), and the flushes waiting for it wait for `cmd` instead
 * (ssdsim__flush_hand; SSDSIM__NONE: the write is on flash at once, fast-forward). */
void ssdsim__buf_supersede(struct ssdsim__buf *b, uint64_t u, uint32_t cmd);
/* A flush unit's program is done (id without the tag): true, or false (nothing changed) when
 * `id` names no slot being flushed (an FTL's bad id, ssdsim__dev_unit_done). */
bool ssdsim__buf_flush_done(struct ssdsim__buf *b, uint32_t id);
/* Flush everything dirty now (the end of a preconditioning, a flush command). */
void ssdsim__buf_flush_all(struct ssdsim__buf *b);
/* Commands entered / left the device (idle flush). */
void ssdsim__buf_busy(struct ssdsim__buf *b, bool busy);
bool ssdsim__buf_pending(const struct ssdsim__buf *b); /* anything dirty or being flushed */
void ssdsim__buf_reset(struct ssdsim__buf *b);
/* Power loss (rel/power.c), with no host command inside the device: the `keep` oldest dirty
 * units (then the copies written again behind a flush) stay and are flushed; every other unit
 * not on flash is dropped and reported to fn with the host write whose data it held (its
 * sequence number in this buffer, offset, length) and its bytes. Returns the units kept. */
typedef void (*ssdsim__buf_lost_fn)(void *ctx, uint64_t seq, uint64_t offset, uint32_t len,
                                    uint32_t bytes);
uint64_t ssdsim__buf_power_loss(struct ssdsim__buf *b, uint64_t keep, ssdsim__buf_lost_fn fn,
                                void *ctx);
/* Counters for the results: host bytes absorbed by overwrites in the buffer, read hits. */
void ssdsim__buf_counters(const struct ssdsim__buf *b, uint64_t *absorbed_units,
                          uint64_t *read_hits);
/* Units being flushed, or commands waiting for a slot: work in flight (dirty units at rest are
 * not). */
bool ssdsim__buf_flushing(const struct ssdsim__buf *b);
/* Functional fast-forward (fastfwd.c) writes through the buffer without time, the buffer kept
 * at the dirty units a saturating host keeps in it (ssdsim__buf_ff_level, below the capacity):
 * each host write takes a sequence number (ssdsim__buf_ff_seq) and its units are placed as a
 * timed write's are (ssdsim__buf_ff_place: an overwrite of a dirty unit absorbed and counted as
 * a host page); then, while more than that level are dirty, ssdsim__buf_ff_evict takes the
 * oldest out of the buffer for the caller to write to the FTL (false when none is to go; level
 * 0 empties it, a flush command's doing). ssdsim__buf_ff_read: a read hit (counted), or false.
 * Only with nothing being flushed (ssdsim__buf_flushing false). */
uint32_t ssdsim__buf_ff_level(const struct ssdsim__buf *b);
uint64_t ssdsim__buf_ff_seq(struct ssdsim__buf *b);
void ssdsim__buf_ff_place(struct ssdsim__buf *b, uint64_t u, uint32_t bytes, uint8_t placement,
                          uint64_t seq, uint64_t off, uint32_t len);
bool ssdsim__buf_ff_evict(struct ssdsim__buf *b, uint32_t level, uint64_t *lpn, uint32_t *bytes,
                          uint8_t *placement);
bool ssdsim__buf_ff_read(struct ssdsim__buf *b, uint64_t u);
/* Consistency check (ssdsim_check): slot states against the counts, the free list, the hash
 * table and the dirty FIFO; waiting commands only when no slot is free. 0 or SSDSIM_ESTATE. */
int ssdsim__buf_check(const struct ssdsim__buf *b, char *why, size_t len);

/* The DRAM copy of `bytes` on the buffer's DRAM timeline (buffer.dram_bw), starting no
 * earlier than now: when it ends. */
uint64_t ssdsim__buf_dram_copy(struct ssdsim__buf *b, uint32_t bytes);

/* Read-ahead (dev/readahead.c), built from model->read_ahead (window > 0, with a buffer). A
 * read command's units first meet ssdsim__ra_cmd (stream detection), then each unit not in the
 * write buffer ssdsim__ra_read (true: served from read-ahead data, the unit completes through
 * it), then ssdsim__ra_after issues the prefetches the command's stream has earned. Writes and
 * trims drop the units they cover (ssdsim__ra_drop). */
int ssdsim__ra_new(struct ssdsim__ra **out, struct ssdsim__dev *d);
void ssdsim__ra_free(struct ssdsim__ra *ra);
void ssdsim__ra_cmd(struct ssdsim__ra *ra, uint64_t first, uint64_t last);
bool ssdsim__ra_read(struct ssdsim__ra *ra, uint32_t cmd, uint64_t u, uint32_t bytes);
void ssdsim__ra_after(struct ssdsim__ra *ra);
void ssdsim__ra_drop(struct ssdsim__ra *ra, uint64_t first, uint64_t last);
/* A read-ahead read (its unit id, tag included) is off the flash: true, or false (nothing
 * changed) when `id` is out of range (an FTL's bad id). A read dropped while in flight is
 * forgotten here and answers true. */
bool ssdsim__ra_flash_done(struct ssdsim__ra *ra, uint32_t id);
/* After a secure erase: nothing held, reads in flight forgotten. */
void ssdsim__ra_reset(struct ssdsim__ra *ra);
/* Consistency check (ssdsim_check): every held unit in its stream's window and slot, waiting
 * reads only on units being read, and counted. 0 or SSDSIM_ESTATE with why. */
int ssdsim__ra_check(const struct ssdsim__ra *ra, char *why, size_t len);
/* NVMe queue pairs (dev/nvmeq.c). Command `cmd` takes a device slot: its front end starts at
 * `start` (>= now: after its fetch). */
void ssdsim__dev_admit(struct ssdsim__dev *d, uint32_t cmd, uint64_t start);
int ssdsim__nvmeq_new(struct ssdsim__nvmeq **out, struct ssdsim__dev *d);
void ssdsim__nvmeq_free(struct ssdsim__nvmeq *nq);
/* Command `cmd` (cmd.queue set) enters its submission queue. */
void ssdsim__nvmeq_submit(struct ssdsim__nvmeq *nq, uint32_t cmd);
/* Command `cmd` is done and left its slot: fetch the next, post its completion. */
void ssdsim__nvmeq_finish(struct ssdsim__nvmeq *nq, uint32_t cmd);
/* Completions waiting for their interrupt. */
bool ssdsim__nvmeq_busy(const struct ssdsim__nvmeq *nq);

/* Whether the device's write buffer takes host writes (power-loss protected, or acknowledging
 * them from DRAM with the write cache on); otherwise writes go through it to the FTL. */
static inline bool ssdsim__dev_buf_absorbs(const struct ssdsim__dev *d)
{
    return d->buf && (d->model->buffer.plp || d->model->buffer.write_cache);
}

/* Flush and FUA (dev/flush.c). Whether the device has a volatile write cache: a write buffer
 * that acknowledges writes (buffer.write_cache) without power-loss protection (buffer.plp). */
bool ssdsim__dev_volatile_cache(const struct ssdsim__dev *d);
/* Flush command `cmd` reached the back end: it completes once every unit dirty in the buffer
 * now is on flash (at once without a volatile cache, or when nothing is dirty). */
void ssdsim__flush_arrive(struct ssdsim__dev *d, uint32_t cmd);
/* A buffered copy stamped `stamp` (ssdsim__buf_stamp when it was written) left the buffer for
 * good: on flash or trimmed. */
void ssdsim__flush_unit_clean(struct ssdsim__dev *d, uint64_t stamp);
/* FUA write `cmd` reached the back end with a volatile cache: drop its units from the buffer
 * (their older copies must not reach flash after it). */
void ssdsim__flush_fua_drop(struct ssdsim__dev *d, uint32_t cmd);
/* The buffered copy stamped `stamp` was dropped for FUA write `cmd`'s newer data: it counts as
 * unclean until `cmd`'s units are programmed (ssdsim__flush_fua_done). */
void ssdsim__flush_hand(struct ssdsim__dev *d, uint32_t cmd, uint64_t stamp);
/* FUA write `cmd`'s units are all programmed (d->flushq not NULL): the copies handed to it are
 * clean. */
void ssdsim__flush_fua_done(struct ssdsim__dev *d, uint32_t cmd);
void ssdsim__flush_free(struct ssdsim__dev *d);
/* The write buffer's side: the stamp the next copy written gets, and the number of copies
 * not yet on flash (units dirty or being flushed, and copies written again behind a flush). */
uint64_t ssdsim__buf_stamp(const struct ssdsim__buf *b);
uint32_t ssdsim__buf_unclean(const struct ssdsim__buf *b);

/* Consistency check of a device (ssdsim_check): its write buffer, then its FTL environment
 * and FTL (ftl/env.h). Hard disks have nothing to check. 0 or SSDSIM_ESTATE with why. */
int ssdsim__dev_check(struct ssdsim__dev *d, char *why, size_t len);

/* Book `bytes` of command `cmd`'s data in direction `dir` (SSDSIM__LINK_DOWN or _UP) on every
 * link of the device's path, requested at `now`: each link is an FCFS timeline of its own, the
 * command's data stays on one phy of each link, and the transfer ends when the last link is
 * done. Returns that end (`now` for 0 bytes). */
uint64_t ssdsim__dev_xfer(struct ssdsim__dev *d, uint32_t cmd, int dir, uint64_t now,
                          uint64_t bytes);

/* One unit of command `cmd` is done at `end_ns` (>= now; reads: data back on the host). */
void ssdsim__dev_cmd_unit_done(struct ssdsim__dev *d, uint32_t cmd, uint64_t end_ns);

#endif /* SSDSIM_DEV_H */
