/* hdd.h: a hard disk: zoned recording, a fitted seek curve, an exact rotational position, a
 * command queue (FCFS or SATF), a segmented write-back cache and read-ahead.
 *
 * Everything below is derived from struct ssdsim__hdd_cfg (config/model.h) by
 * ssdsim__hdd_check() and ssdsim__hdd_init(); the derivations are written out so the model
 * reference can quote them.
 *
 * Sectors. The disk is addressed in 512-byte sectors (LBAs); a command's byte range is rounded
 * out to whole sectors.
 *
 * Rotation. period = 60e9 / rpm ns (8 333 333.3 ns at 7200 rpm; kept exact as the fraction
 * 60e9/rpm, never rounded). The platter turns continuously from time 0: the head is over angle
 * (t mod period) / period at time t. Sector s of a track with spt sectors starts at angle
 * slot/spt, with slot = (s + k * skew) mod spt, where k is the track's number on the disk
 * (cylinder * heads + head). Times at which a given angle passes are irrational in general: the
 * model works in exact integer units of 1/(rpm * spt) ns and rounds every event time up to the
 * next whole ns; a head that is less than 1 ns past a sector's start (that rounding) still
 * catches it.
 *
 * Zones. `zones` zones of equal cylinder count from the outer edge (LBA 0, zone 0) inwards. The
 * media rate of zone z falls linearly:
 *     rate_z = outer - (outer - inner) * z / (zones - 1)            (bytes/s; zone 0 = outer)
 *     spt_z  = floor(rate_z * 60 / (rpm * 512))                      (sectors per track)
 * so the rate actually modelled in zone z is spt_z * 512 * rpm / 60 (ssdsim__hdd_rate_at), below
 * the configured one by less than one sector per revolution (512 * rpm / 60 bytes/s). With one
 * zone the whole disk runs at the outer rate.
 *
 * Cylinders. With S = sum over zones of spt_z, one cylinder in every zone holds
 * heads * 512 * S bytes, so every zone gets
 *     cpz = floor(capacity / (heads * 512 * S))                      cylinders,
 * and the last (innermost) zone is rounded up by
 *     extra = ceil((capacity - cpz * heads * 512 * S) / (heads * 512 * spt_last))
 * cylinders to reach the capacity: N = zones * cpz + extra cylinders in all, holding at least
 * `capacity` bytes (the sectors past `capacity` exist but are never addressed). LBAs run sector
 * by sector within a track, head by head within a cylinder, cylinder by cylinder from the outer
 * edge, so the start of the disk is its fastest part and the end its slowest.
 *
 * Seek. For d cylinders, t(d) = a + b * sqrt(d) + c * d (and t(0) = 0), fitted exactly through
 * (1, seek_track), (N/3, seek_avg) and (N - 1, seek_full). As a quadratic in x = sqrt(d)
 * through x1 = 1, x2 = sqrt(N/3), x3 = sqrt(N - 1) (divided differences):
 *     c = ((t3 - t1)/(x3 - x1) - (t2 - t1)/(x2 - x1)) / (x3 - x2)
 *     b = (t2 - t1)/(x2 - x1) - c * (x1 + x2)
 *     a = t1 - b - c
 * dt/dx = b + 2 c x is linear in x, so the curve increases over [1, N - 1] exactly when
 * b + 2c >= 0 and b + 2c * x3 >= 0; ssdsim__hdd_check() rejects it otherwise (it is then never
 * negative either, since t(1) = seek_track >= 0). The coefficients are doubles (a curve fit);
 * seek times are rounded to whole ns, and t(1) and t(N - 1) return the configured values
 * exactly. Moving to another head of the same cylinder (a head switch) costs seek_track too.
 * A write pays write_settle on top of the seek (or head switch) that brings the head to its
 * first track; track switches inside a transfer and a write that starts on the track the head
 * is already on pay none.
 *
 * Track skew. A per-track skew of 0 would make every track switch of a sequential transfer
 * wait almost a whole revolution (the first sector of the next track passes while the head
 * switches), halving the sequential rate. Real disks offset each track by the switch time, and
 * so does this model: skew_z = ceil(seek_track * spt_z / period) sectors. A long transfer then
 * runs at
 *     rate_z * spt_z / (spt_z + skew_z)
 * (the raw rate less the switch time once per track: 3.5% below it for a 0.3 ms switch at
 * 7200 rpm, 11% for 1 ms). At a zone boundary the skew chain breaks and up to one revolution
 * is lost. The skew does not cover the write settle: a new write that starts on the next track
 * (small sequential writes through to the platter) loses a revolution there.
 *
 * Access. A transfer from the platter is done track by track: position (seek or head switch,
 * plus the write settle), wait for the first sector's slot to pass under the head (exact, no
 * randomness), transfer n sectors in n/spt of a period, then on to the next track.
 *
 * Queue. Commands the disk cannot answer from its cache wait in one flat array (grown only to
 * the run's peak; removal swaps the last entry in, order is kept by an arrival sequence
 * number), together with the cache's destage writes. FCFS serves the oldest. SATF is aged
 * SATF (Jacobson & Wilkes 1991's ASATF; ASPTF in Worthington, Ganger & Patt 1994): it serves
 * the command whose positioning time (seek + settle + rotational wait to its first sector from
 * the head's position when the disk is next free), less SSDSIM__HDD_AGE_WEIGHT ns for each
 * whole us it has waited, is least, ties by arrival. Aging tilts the choice gradually: a
 * command gains 6 ms a second, so it is never passed by one that arrived more than its own
 * positioning time / 6 ns per us after it (1.75 s for a 10.5 ms full stroke and revolution);
 * the weight's form is DiskSim's (Teff = Tpos - W x 0.001 x Twait, ms) and 6 its example
 * parameter files' value, an estimate (doc/models.md). Before the shortest access, SATF
 * serves a sequential stream on, unless a queued command has waited more than
 * SSDSIM__HDD_AGE_REVS revolutions (the stream then gives way to the aged choice): the lowest
 * queued read that starts in the clean segment or within one track past its end, read on to
 * from the segment's end (through a gap such as a RAID-5 member's parity strip), or the lowest
 * write that starts within one track past the last sector the arm transferred, instead of
 * jumping to whatever comes under the head first; and the command it chooses otherwise is
 * moved back to the first of its queued run (commands of its kind each ending at most a track
 * before the next starts), served as one access from the run's lowest sector. A queued read
 * that a pinned prefetch (below) will pass rides it and is answered when the head passes its
 * end. Choosing is O(queued commands + dirty segments) per command served.
 *
 * Cache. cache_bytes holds at most SSDSIM__HDD_SEGMENTS dirty extents (contiguous runs of
 * written sectors) plus one clean segment (the last run read from the platter and its
 * read-ahead) in the space the dirty data leaves. With write_cache a write that fits is
 * acknowledged at once (the caller charges the link) and becomes a dirty extent, merged with a
 * queued one that ends where it starts; extents are destaged as writes through the queue. When
 * the cache has no room (bytes or segments), a write waits, in arrival order, until a destage
 * frees enough. A write larger than the cache, or any write without write_cache, is done when
 * it is on the platter. A write that overlaps the clean segment (or what is still to be read
 * ahead) drops it, at once or, if reads are riding the stream, when the stream ends. A read
 * whose sectors all lie in one dirty extent or in the clean segment completes at once; a read
 * that starts in the clean segment and runs past it reads only the rest from the platter; any
 * other read goes to the platter, even if some of its sectors are dirty (the model times
 * commands, it keeps no data).
 *
 * Read-ahead. After a read from the platter, while no other command waits, the disk reads on
 * into the clean segment until cache_bytes / SSDSIM__HDD_RA_FRACTION (a quarter of the cache)
 * past the last sector a read asked for (the configured capacity ends it too). A command that
 * arrives then stops it at once (the head stays on its track; the sectors that have passed are
 * kept) unless it is a read that starts in the segment or in what is still to be read ahead, less
 * than a track past the head (so the stream reaches it within about a revolution, no later than a
 * fresh access would), and no other command waits: such a read rides the read-ahead and completes
 * when it has passed the read's last sector, which pushes the read-ahead on. This is what lets
 * back-to-back sequential reads at queue depth 1 run at the media rate instead of losing a
 * revolution each when the host is not instantly back.
 *
 * Read segments (cfg.segments > 1). The clean data is kept in `segments` segments of
 * seg = segment_bytes sectors (default cache / segments) each: the current one, which the arm
 * fills as described above but never beyond seg sectors, and segments - 1 others, each the
 * run of sectors a stream left there. A read whose sectors all lie in another segment is a hit
 * and makes that segment the most recently used. A read the arm starts away from the current
 * segment parks the current one (in an empty slot, else over the least recently used other
 * segment) and, if the read starts inside or at the end of another segment, takes that one over
 * and reads on from its end: the read continues a stream, so it is sequential, and the disk
 * then reads on seg sectors past the read's end (read_ahead on) even when other commands wait
 * (they are served when that prefetch ends). A read that continues no segment starts a new one
 * with the idle-only read-ahead above (seg sectors). So k sequential readers interleaved on a
 * disk with at least k segments cost one positioning per seg sectors each instead of one per
 * command. The clean segments and the dirty data share the cache: when together they exceed
 * it, the least recently used other segments are dropped. A write drops the other segments it
 * overlaps. With one segment (the default) none of this applies.
 *
 * Cost. State is O(zones + segments) plus the queue; no allocation per command once the queue
 * has reached its peak. Finding a segment is O(segments) per read. Locating an LBA is a
 * binary search over the zones.
 */
#ifndef SSDSIM_HDD_H
#define SSDSIM_HDD_H

#include "common.h"
#include "config/model.h"
#include "engine/engine.h"

#define SSDSIM__HDD_SECTOR 512u
#define SSDSIM__HDD_SEGMENTS 32u   /* dirty extents the cache holds at most */
#define SSDSIM__HDD_AGE_REVS 64u   /* SATF: a stream gives way once a command has waited this */
#define SSDSIM__HDD_AGE_WEIGHT 6u  /* aged SATF: ns of positioning gained per us of waiting */
#define SSDSIM__HDD_RA_FRACTION 4u /* read-ahead goes cache_bytes / this past a read */

/* One recording zone: cylinders [first_cyl, first_cyl + n_cyl), LBAs from first_lba. */
struct ssdsim__hdd_zone {
    uint64_t first_lba;
    uint64_t first_cyl;
    uint64_t n_cyl;
    uint32_t spt;  /* sectors per track */
    uint32_t skew; /* slots each track is turned against the one before */
};

enum ssdsim__hdd_kind { SSDSIM__HDD_READ = 0, SSDSIM__HDD_WRITE = 1, SSDSIM__HDD_DESTAGE = 2 };
enum ssdsim__hdd_state {
    SSDSIM__HDD_QUEUED = 0,     /* waits for the arm */
    SSDSIM__HDD_WAIT_CACHE = 1, /* a cached write waiting for room in the cache */
    SSDSIM__HDD_RIDING = 2      /* a read served by the running read stream */
};

/* A command (or a destage) in the queue. 40 bytes. */
struct ssdsim__hdd_req {
    uint64_t lba, n; /* sectors */
    uint64_t arrival_ns;
    uint64_t seq;  /* arrival order */
    uint32_t cmd;  /* the host's id (a cached write keeps it until it is acknowledged) */
    uint64_t data_ns; /* a write written through: its data all in the drive (0: already) */
    uint8_t kind;  /* enum ssdsim__hdd_kind */
    uint8_t state; /* enum ssdsim__hdd_state */
};

enum ssdsim__hdd_opkind {
    SSDSIM__HDD_OP_NONE = 0,
    SSDSIM__HDD_OP_STREAM = 1,
    SSDSIM__HDD_OP_WRITE = 2
};

/* What the arm is doing: reading a stream (host reads riding it, then read-ahead) or writing
 * one extent, one track (chunk) at a time. */
struct ssdsim__hdd_op {
    int kind;                 /* enum ssdsim__hdd_opkind */
    uint64_t cursor;          /* next sector to transfer */
    uint64_t limit;           /* transfer ends before this sector */
    bool positioned;          /* the first chunk has been started (write settle is paid once) */
    struct ssdsim__hdd_req w; /* the write (kind WRITE) */
    /* the chunk in progress: sectors [c_lba, c_lba + c_n) of track (c_cyl, c_head) */
    uint64_t c_lba, c_cyl;
    uint32_t c_n, c_head, c_slot, c_spt;
    uint64_t c_move_end; /* the head is on the track */
    uint64_t c_ts, c_te; /* the transfer starts and ends */
    ssdsim__event_id ev;
};

/* A clean read segment other than the current one: sectors [start, end) (empty when equal),
 * last used at seg_clock `used`. */
struct ssdsim__hdd_seg {
    uint64_t start, end, used;
};

struct ssdsim__hdd {
    struct ssdsim__hdd_cfg cfg;
    /* where the platter is at time 0, as ns of rotation ahead: 0 for a lone disk and the first
     * of an array; the other members' spindles are not synchronised with it (dev.c) */
    uint64_t phase_ns;
    struct ssdsim__engine *engine;
    void (*done)(void *ctx, uint32_t cmd);
    void *ctx;
    /* geometry, derived */
    struct ssdsim__hdd_zone *zones;
    uint32_t n_zones;
    uint64_t n_cyl;
    uint64_t n_sectors; /* configured capacity / 512: the addressable LBAs */
    double seek_a, seek_b, seek_c;
    uint64_t age_ns; /* SSDSIM__HDD_AGE_REVS revolutions, rounded up */
    uint64_t cache_sectors, ra_sectors;
    /* mechanism */
    uint64_t pos_cyl;
    uint32_t pos_head;
    uint64_t busy_until; /* the head is still moving to pos until then */
    struct ssdsim__hdd_op op;
    /* queue */
    struct ssdsim__hdd_req *q;
    uint32_t n_q, cap_q;
    uint32_t n_riding;    /* entries RIDING the stream */
    uint32_t n_queued;    /* entries QUEUED */
    uint32_t n_waitcache; /* entries WAIT_CACHE */
    uint64_t seq;
    /* cache */
    uint64_t dirty_sectors;
    uint32_t n_dirty;            /* dirty extents (queued destages and the one being written) */
    uint64_t seg_start, seg_end; /* the clean segment (seg_end = cursor while streaming) */
    bool seg_stale;              /* written over while a stream filled it: dropped at its end */
    /* several segments (cfg.segments > 1): the others, least recently used replaced first */
    struct ssdsim__hdd_seg *segs; /* cfg.segments - 1 of them; NULL with one segment */
    uint32_t n_segs;
    uint64_t seg_clock;
    uint64_t seg_sectors; /* each segment's size */
    uint64_t pmin_sectors; /* read on past a sequential read even when commands wait */
    uint64_t must;        /* a sequential stream reads on to here even when commands wait */
};

/* Derive the geometry (zones, sectors per track, cylinders, seek curve) and check that the
 * configuration is physically possible. Returns 0, or SSDSIM_ECONFIG with a one-line reason in
 * `why` (may be NULL) naming the hdd.* key at fault, e.g. "hdd.seek_avg_us: the average seek
 * (3 ms) is below the one-track seek (4 ms)". Pure: no engine, no allocation. */
int ssdsim__hdd_check(const struct ssdsim__hdd_cfg *cfg, char *why, size_t why_len);

/* Set up `d` (caller-owned storage) on engine `e` (which must outlive it). `done(ctx, cmd)` is
 * called from an engine event when a read's data is in the disk's buffer, or a write is
 * acknowledged. Returns 0, SSDSIM_ENOMEM or SSDSIM_ECONFIG (the configuration fails
 * ssdsim__hdd_check); `d` may be passed to ssdsim__hdd_fini() in every case. */
int ssdsim__hdd_init(struct ssdsim__hdd *d, const struct ssdsim__hdd_cfg *cfg,
                     struct ssdsim__engine *e, void (*done)(void *ctx, uint32_t cmd), void *ctx);

/* Free what init allocated and cancel a running read-ahead (call it before the engine's fini).
 * Accepts NULL and a zeroed struct. */
void ssdsim__hdd_fini(struct ssdsim__hdd *d);

/* Command `cmd` has reached the disk at the engine's now. op 0 = read, 1 = write; offset and
 * len in bytes, rounded out to sectors; a range past the capacity is cut at it, and a command
 * with no sector left completes at once. done(ctx, cmd) follows from an engine event, never from
 * inside this call. If the queue cannot grow the engine's oom flag is set (its run returns
 * SSDSIM_ENOMEM) and the command is dropped. */
/* A write written through to the platter (not taken by the write cache): the disk then takes
 * its data while it seeks (ssdsim__hdd_submit's data_ns). */
bool ssdsim__hdd_writes_through(const struct ssdsim__hdd *d, uint32_t len);
/* op 0 read, 1 write; data_ns: for a write written through, when its data is all in the
 * drive, which its first sector on the platter waits for (0: already) */
void ssdsim__hdd_submit(struct ssdsim__hdd *d, uint32_t cmd, int op, uint64_t offset, uint32_t len,
                        uint64_t data_ns);

/* Seek time over `cylinders` (0 for 0; distances past the full stroke cost the full stroke). */
uint64_t ssdsim__hdd_seek_ns(const struct ssdsim__hdd *d, uint64_t cylinders);

/* Media rate at byte `offset`: spt * 512 * rpm / 60 of its zone, bytes/s. */
double ssdsim__hdd_rate_at(const struct ssdsim__hdd *d, uint64_t offset);

/* Cylinders N. */
uint64_t ssdsim__hdd_cylinders(const struct ssdsim__hdd *d);

/* Anything queued, being written, being read for a command, or dirty in the cache (a
 * read-ahead running on its own does not count: it stops for any command). */
bool ssdsim__hdd_busy(const struct ssdsim__hdd *d);

/* Empty the cache (dirty data is dropped), forget queued commands, stop a read-ahead and put
 * the head on cylinder 0, head 0, free at `now`. Meant for a disk with nothing in flight;
 * done events already scheduled still run. */
void ssdsim__hdd_reset(struct ssdsim__hdd *d, uint64_t now);

#endif /* SSDSIM_HDD_H */
