/* model.h: the device model as plain C structs, after JSON loading and validation.
 *
 * The model loader (model*.c) keeps the cJSON tree only to apply --set overrides and re-validate;
 * nothing outside config/ sees cJSON. Every time is in ns, every size in bytes.
 */
#ifndef SSDSIM_CONFIG_MODEL_H
#define SSDSIM_CONFIG_MODEL_H

#include "common.h"
#include "rel/rel.h"

/* Cell types; the number of page types per word line equals the bits per cell. */
enum ssdsim__cell { SSDSIM__CELL_SLC = 1, SSDSIM__CELL_MLC = 2, SSDSIM__CELL_TLC = 3,
                    SSDSIM__CELL_QLC = 4,
                    /* media without erase (3D XPoint-like): in-place writes, one read and one
                     * write time, no erase blocks to collect; n_page_types is 1 */
                    SSDSIM__CELL_XPOINT = 5 };

/* What a model describes: a solid-state device (NAND or XPoint media behind a controller), a
 * hard disk, or a system of several devices (an array, a JBOD, a multi-controller card). */
enum ssdsim__kind { SSDSIM__KIND_SSD = 0, SSDSIM__KIND_HDD = 1, SSDSIM__KIND_SYSTEM = 2 };

#define SSDSIM__MAX_PAGE_TYPES 4
/* The index, in flash.read_ns and flash.program_ns, of a page of a block in SLC mode (the SLC
 * cache, ftl/page_slc.c): after the native page types. */
#define SSDSIM__PAGE_SLC SSDSIM__MAX_PAGE_TYPES
#define SSDSIM__NAME_MAX 32

struct ssdsim__geometry {
    uint32_t channels;
    uint32_t chips_per_channel;
    uint32_t dies_per_chip;
    uint32_t planes_per_die;
    uint32_t blocks_per_plane;
    uint32_t pages_per_block;
    uint32_t page_size; /* bytes */
};

/* The planes of a geometry: channels x chips x dies x planes. */
static inline uint64_t ssdsim__geometry_planes(const struct ssdsim__geometry *g)
{
    return (uint64_t)g->channels * g->chips_per_channel * g->dies_per_chip * g->planes_per_die;
}

struct ssdsim__flash {
    enum ssdsim__cell cell;
    uint32_t n_page_types;                        /* == cell */
    /* per page type: LSB, CSB, MSB, TSB order; [SSDSIM__PAGE_SLC]: a block in SLC mode (the
     * slc section's times, 0 when the model has no SLC cache) */
    uint64_t read_ns[SSDSIM__MAX_PAGE_TYPES + 1];
    uint64_t program_ns[SSDSIM__MAX_PAGE_TYPES + 1];
    uint64_t erase_ns;
    uint32_t bus_mts;        /* channel bus rate, mega-transfers per second */
    uint32_t bus_width_bits; /* 8 or 16 */
    uint32_t rated_pe_cycles;
    /* NAND operations beyond one page at a time (hw/nand.c): each off (0) unless the model turns
     * it on, so models written before them run as they did. */
    uint64_t cmd_cycle_ns;     /* one command or address cycle on the bus; 0: not modelled */
    int multiplane;            /* merge queued ops on different planes of a die */
    int multiplane_same_block; /* ... only when they also address the same block of each plane */
    uint64_t dbsy_ns;          /* tDBSY: busy between the planes of a multi-plane command */
    int cache_read;            /* next array read overlaps the previous page's data out */
    uint64_t rcbsy_ns;         /* tRCBSY: page moved to the cache register */
    int cache_program;         /* next page's data in overlaps the previous program */
    uint64_t cbsy_ns;          /* tCBSY: page moved from the cache to the data register */
    int suspend;               /* host reads suspend programs and erases */
    uint64_t suspend_ns;       /* from the suspend command to the array being free */
    uint64_t resume_ns;        /* added to the remaining time on resume */
    uint32_t max_suspends;     /* per program or erase */
    int copyback;              /* GC copies stay in the plane (no data on the channel) */
    int copyback_parity;       /* ... only between pages of the same parity */
};

struct ssdsim__controller_cfg {
    uint64_t cmd_overhead_ns; /* firmware time per host command (pipelined: adds latency) */
    uint32_t cores;           /* firmware cores: commands processed in parallel */
    uint32_t queue_depth;     /* commands the device accepts at once; the rest wait on the host */
    /* Firmware work per task (dev/fw.c), on top of cmd_overhead_ns; 0 = not modelled. Each task
     * occupies the earliest-free core (or host FTL thread when host.ftl_threads > 0). */
    uint64_t fw_read_ns;      /* per mapping unit of a host read (lookup, queueing) */
    uint64_t fw_write_ns;     /* per mapping unit of a host write (buffer insert, mapping update) */
    uint64_t fw_gc_victim_ns; /* per GC victim chosen (foreground or background) */
    uint64_t fw_gc_page_ns;   /* per page GC copies */
    uint64_t fw_map_ns;       /* per mapping-table page loaded or flushed (DFTL) */
    uint64_t fw_wl_page_ns;   /* per page wear leveling moves */
    /* The write data path into the flash (hw.c): bytes per second, all channels together,
     * that the controller encodes (ECC, RAIN parity) for programs; 0 = no limit. */
    uint64_t program_bytes_per_s;
};

/* NVMe queue pairs and their arbitration (dev/nvmeq.c; NVMe Base Specification 2.0, 3.4.4).
 * All at their defaults (one queue, round robin, no fetch cost, no coalescing) the device has
 * its single host queue of before (ssdsim__nvme_on false). */
enum ssdsim__arb { SSDSIM__ARB_RR = 0, SSDSIM__ARB_WRR = 1 };
struct ssdsim__nvme_cfg {
    uint32_t queues;   /* I/O submission/completion queue pairs */
    uint32_t sq_depth; /* commands outstanding per pair at most; more wait on the host */
    enum ssdsim__arb arbitration;
    uint32_t burst; /* arbitration burst: commands fetched from one queue per turn (0: no
                       limit, the model's "unlimited") */
    /* WRR: queues 0 .. urgent-1 are urgent, the next high_queues high, the next medium_queues
     * medium, the rest low; weights of high, medium, low (commands per round) */
    uint32_t urgent_queues, high_queues, medium_queues;
    uint32_t weight_high, weight_medium, weight_low;
    uint64_t fetch_ns;     /* fetching one command from a submission queue (serial) */
    uint32_t cq_threshold; /* completions per interrupt (1: one each) */
    uint64_t cq_time_ns;   /* the longest a completion waits for its interrupt (0: none) */
};

/* The first key that turns NVMe queue pairs on (its name), NULL when all are at their
 * defaults (the device keeps its single host queue). */
static inline const char *ssdsim__nvme_on_key(const struct ssdsim__nvme_cfg *n)
{
    return n->queues > 1                        ? "nvme.queues"
           : n->arbitration != SSDSIM__ARB_RR   ? "nvme.arbitration"
           : n->fetch_ns > 0                    ? "nvme.fetch_us"
           : n->cq_threshold > 1                ? "nvme.cq_threshold"
           : n->sq_depth != 65535               ? "nvme.sq_depth"
                                                : NULL;
}

static inline bool ssdsim__nvme_on(const struct ssdsim__nvme_cfg *n)
{
    return ssdsim__nvme_on_key(n) != NULL;
}

/* Host interfaces. CUSTOM is a bare bandwidth (host.link_bw); the others derive it from the
 * standard (hw/link.c: line rate x lanes x encoding x protocol efficiency). */
enum ssdsim__iface { SSDSIM__IFACE_CUSTOM = 0, SSDSIM__IFACE_PCIE = 1, SSDSIM__IFACE_SATA = 2,
                     SSDSIM__IFACE_SAS = 3 };

struct ssdsim__link_cfg {
    enum ssdsim__iface iface;
    uint32_t pcie_gen;          /* PCIe: 1 to 4 */
    uint32_t lanes;             /* PCIe lanes (1, 2, 4, 8, 16); SAS phys of a wide port (1, 2, 4) */
    uint32_t gbps_x10;          /* SATA 15/30/60, SAS 30/60/120: line rate in 0.1 Gb/s */
    double gbps;                /* the same as the model gives it (host.gbps) */
    uint32_t max_payload;       /* PCIe: TLP max payload, bytes (128 to 4096) */
    uint64_t link_bytes_per_s;  /* CUSTOM: given; others: derived data rate of the whole link
                                   (SAS: of one phy; a command uses one phy at a time) */
    uint64_t cmd_overhead_ns;   /* link/protocol time per command (submission + completion) */
};

struct ssdsim__host_cfg {
    struct ssdsim__link_cfg link;
    /* host-based FTL (the driver runs mapping and GC on host cores): 0 threads = FTL on the
     * device. Each command takes ftl_cpu_ns on one of ftl_threads host threads before it is
     * sent; each page GC copies costs ftl_gc_cpu_ns of a thread. */
    uint32_t ftl_threads;
    uint64_t ftl_cpu_ns;
    uint64_t ftl_gc_cpu_ns;
};

/* The most mapping units a write buffer holds (its slots are indexed by 32-bit numbers and its
 * table has twice as many entries): 1 TiB of 4 KiB units. The loader refuses a larger buffer,
 * and one larger than the drive's logical capacity. */
#define SSDSIM__BUFFER_MAX_UNITS (1u << 28)

/* The controller's DRAM write buffer (size 0: none, writes go straight to the FTL). */
struct ssdsim__buffer_cfg {
    uint64_t size;         /* bytes of write data it holds */
    int plp;               /* power-loss protected: writes are always acknowledged from it */
    int write_cache;       /* volatile and not protected: acknowledge from it (true) or only
                              once the data is on flash (false, write-through) */
    double flush_start;    /* flush begins when dirty data exceeds this fraction of size */
    double flush_stop;     /* and goes on until dirty data is at or below this fraction */
    uint64_t flush_idle_ns;/* everything dirty is flushed after the device is idle this long
                              (0 = never) */
    uint32_t flush_depth;  /* units being written to flash at once, at most (0 = one per plane) */
    uint64_t dram_bytes_per_s; /* copy rate into and out of the buffer */
    int read_hits;         /* reads of buffered data are served from DRAM */
};

/* The controller's read-ahead (dev/readahead.c; window 0: none). */
struct ssdsim__readahead_cfg {
    uint64_t window;  /* bytes prefetched ahead of a sequential stream */
    uint32_t trigger; /* sequential reads of a stream before it is prefetched */
    uint32_t streams; /* sequential streams tracked at once (LRU) */
};

/* Zoned namespace (dev/zns.c, ftl/zoned.c; NVMe Zoned Namespace Command Set 1.1). zone_size 0:
 * a conventional drive. A zone is a stripe of whole erase blocks over every plane. */
struct ssdsim__zns_cfg {
    uint64_t zone_size;     /* bytes of address space per zone */
    uint64_t zone_capacity; /* bytes writable in a zone (<= zone_size) */
    uint32_t max_open;      /* open zones at most (0: no limit) */
    uint32_t max_active;    /* open + closed zones at most (0: no limit) */
};

/* Flexible Data Placement (ftl/page_fdp.c; NVMe TP4146): placement handles of the page FTL,
 * each with its own write frontiers; handles 0: off. */
/* fdp.handles at most. Drives with FDP offer 8 or more reclaim unit handles (the
 * specification allows up to 65535); 64 gives each tenant or stream of a research set-up its
 * own, while the two counters per handle stay a small part of the counter block every run's
 * base and every device's snapshot copy (ftl/env.h), and a handle fits the byte the page FTL
 * keeps per logical unit. Below it the model's spare decides: every handle keeps an open
 * block on every plane (two with persistent isolation and gc.separate), and
 * config/model_fdp.c refuses a model whose spare cannot hold them with the GC watermark. */
#define SSDSIM__FDP_MAX_HANDLES 64
/* fdp.reclaim_groups at most, and handles x groups at most: a write's placement (its handle
 * and group) travels through the drive as one byte per request and per buffered unit, group x
 * handles + handle (ftl/page_fdp.c); each group has four counters of the block (ftl/env.h). */
#define SSDSIM__FDP_MAX_GROUPS 64
#define SSDSIM__FDP_MAX_PLACEMENTS 256
enum ssdsim__fdp_iso { SSDSIM__FDP_INITIAL = 0, SSDSIM__FDP_PERSISTENT = 1 };
struct ssdsim__fdp_cfg {
    uint32_t handles;            /* placement handles (reclaim unit handles), 0: no FDP */
    enum ssdsim__fdp_iso isolation;
    uint32_t reclaim_groups;     /* reclaim groups: sets of whole dies (1: the device is one) */
};

/* Faults (rel/fault.h, doc/models.md "Faults"): bad blocks, power-loss protection's energy,
 * how the FTL rebuilds its mapping at power-up. All zero: no fault is modelled. */
enum ssdsim__mount_mode { SSDSIM__MOUNT_CHECKPOINT = 0, SSDSIM__MOUNT_SCAN = 1 };
struct ssdsim__fault_cfg {
    double bad_fraction;       /* factory bad blocks, fraction of each plane's blocks */
    double grown_prob_rated;   /* P(a block fails at an erase) at the rated P/E cycles */
    double grown_exponent;     /* ... times (P/E / rated)^exponent below and above it */
    double plp_energy_mj;      /* protected buffer: capacitor energy for the flush (0: enough) */
    double plp_page_uj;        /* energy of one page program during that flush */
    int mount_mode;            /* enum ssdsim__mount_mode */
    uint32_t mount_checkpoint_pages; /* mapping updates between checkpoints (checkpoint mode) */
    uint64_t rebuild_bytes_per_s;    /* a failed die's rebuild rate, at most */
    uint64_t rebuild_xor_ns;         /* XOR of one page read for a reconstruction */
};

/* A hard disk (kind HDD): mechanics and cache. */
enum ssdsim__hdd_sched { SSDSIM__HDD_FCFS = 0, SSDSIM__HDD_SATF = 1 };
struct ssdsim__hdd_cfg {
    uint64_t capacity;         /* bytes (a multiple of 512) */
    uint32_t rpm;
    uint32_t heads;            /* recording surfaces */
    uint32_t zones;            /* recording zones, outer (LBA 0) to inner */
    uint64_t outer_bytes_per_s;/* media rate of the outermost zone */
    uint64_t inner_bytes_per_s;/* of the innermost */
    uint64_t seek_track_ns;    /* one-cylinder seek */
    uint64_t seek_avg_ns;      /* average (over a third of the stroke) */
    uint64_t seek_full_ns;     /* full stroke */
    uint64_t write_settle_ns;  /* extra settle before writing */
    uint64_t cache_bytes;      /* on-disk cache */
    int write_cache;           /* writes acknowledged once in the cache */
    int read_ahead;            /* read on past a read into the cache while idle */
    enum ssdsim__hdd_sched sched; /* order of queued commands */
    uint32_t segments;         /* clean read segments (0 taken as 1: one segment, as before) */
    uint64_t segment_bytes;    /* bytes each holds when segments > 1 (0: cache / segments) */
    /* when segments > 1: bytes a stream found sequential is read on past a read even when other
     * commands wait (SCSI's caching page MINIMUM PRE-FETCH); beyond them the read-ahead goes on
     * only while none waits; 0: the whole segment */
    uint64_t prefetch_min_bytes;
};

/* A vendor figure and the workload behind it (spec.figures[], for ssdsim calibrate). */
enum ssdsim__metric { SSDSIM__METRIC_READ_IOPS, SSDSIM__METRIC_WRITE_IOPS,
                      SSDSIM__METRIC_READ_MBPS, SSDSIM__METRIC_WRITE_MBPS,
                      SSDSIM__METRIC_READ_LAT_US, SSDSIM__METRIC_WRITE_LAT_US };
enum ssdsim__spec_bound { SSDSIM__BOUND_TYPICAL = 0, SSDSIM__BOUND_UPPER = 1,
                          SSDSIM__BOUND_LOWER = 2 };
enum ssdsim__spec_state { SSDSIM__STATE_FRESH = 0, SSDSIM__STATE_FULL = 1,
                          SSDSIM__STATE_STEADY = 2 };
struct ssdsim__spec_figure {
    char *name;        /* "4KiB random read" */
    enum ssdsim__metric metric;
    double value;      /* in the metric's unit: IOPS, MB/s (10^6 B/s), microseconds */
    char *rw;          /* fio rw: read, write, randread, randwrite, randrw */
    uint32_t bs;       /* bytes */
    uint32_t iodepth;
    uint32_t numjobs;
    enum ssdsim__spec_state state; /* the drive's state the vendor measured in */
    char *note;        /* why a miss is expected, or NULL */
    enum ssdsim__spec_bound bound; /* a typical value, or a limit the vendor guarantees */
    char *fitted;      /* the model key whose value was derived from this figure, or NULL */
};
struct ssdsim__spec {
    char *source;      /* where the figures come from */
    struct ssdsim__spec_figure *figs;
    uint32_t n_figs;
};

/* A system of devices (kind SYSTEM). */
enum ssdsim__layout { SSDSIM__LAYOUT_JBOD = 0, SSDSIM__LAYOUT_RAID0 = 1,
                      SSDSIM__LAYOUT_RAID1 = 2, SSDSIM__LAYOUT_RAID5 = 3 };
struct ssdsim__system_cfg {
    struct ssdsim_model *member; /* the model of every device (owned, a device model) */
    uint32_t count;              /* devices */
    enum ssdsim__layout layout;
    uint32_t stripe;             /* bytes per strip (RAID-0/5), a multiple of the member's
                                    mapping unit */
    uint64_t raid_ns;            /* RAID layer time per host request */
    uint64_t path_ns;            /* platform path per request (a chipset hop) */
    uint32_t controllers;        /* devices are split evenly among controllers; devices of one
                                    controller share its host link and firmware cores */
    int have_uplink;             /* all devices share an uplink (a card's PCIe switch) */
    struct ssdsim__link_cfg uplink;
    /* A RAID card's write-back cache (cache_bytes 0: none). */
    uint64_t cache_bytes;
    int cache_bbu;               /* battery present: write-back; else write-through */
    double cache_high, cache_low;/* flush when dirty exceeds high x cache, down to low x cache */
    uint64_t cache_idle_ns;      /* flush everything once no host request is in for this long */
    uint64_t cache_bytes_per_s;  /* rate at which the card copies written data into the cache */
};

/* Parameters of a plugin section: one value per parameter the plugin declares, in its order,
 * defaults filled in. */
#define SSDSIM__MAX_PARAMS 16

/* ftl.placement: which die takes the next host write (the page FTL, ftl/page_place.c). */
enum ssdsim__placement {
    SSDSIM__PLACE_IDLE = 0,   /* an idle die first, in turn from a cursor */
    SSDSIM__PLACE_STRIPE = 1, /* a fixed order: every channel in turn, then the next die of each */
    SSDSIM__PLACE_LBA = 2     /* by logical address: unit u always on the same die */
};

struct ssdsim__ftl_cfg {
    char type[SSDSIM__NAME_MAX]; /* registered FTL name ("page") */
    double params[SSDSIM__MAX_PARAMS];
    double op;             /* (physical - logical) / logical */
    uint32_t mapping_unit; /* bytes; a power-of-two multiple or divisor of the page (hw/unit.c) */
    int hot_cold;          /* separate host writes by update frequency */
    int placement;         /* SSDSIM__PLACE_*: which die takes the next host write */
    double hot_window;     /* a write is hot if its old copy was written within this fraction
                              of the logical space's worth of writes */
    uint32_t parity_group; /* RAIN (ftl/page_parity.c): pages per stripe, its parity page
                              included (g - 1 data + 1 parity, each on its own die); 0: none */
};

struct ssdsim__gc_cfg {
    char policy[SSDSIM__NAME_MAX]; /* registered GC policy name ("greedy") */
    double params[SSDSIM__MAX_PARAMS];
    uint32_t free_blocks_min;    /* per plane: foreground GC starts below this (low watermark) */
    uint32_t free_blocks_target; /* per plane: GC goes on until this (high watermark) */
    uint64_t bg_idle_ns;         /* background GC after this long idle; 0 = never */
    double bg_high_watermark;    /* background GC works up to this fraction of a plane's blocks
                                    free (0: up to free_blocks_target) */
    uint32_t bg_max_blocks;      /* background GC victims per plane per idle period (0: no
                                    limit) */
    int bg_preempt;              /* a background victim's copies wait while the host is active
                                    (ftl/page_gc.c) */
    int fg_blocks_die;           /* host reads to a die collecting a foreground victim wait in
                                    order behind its GC work (no read priority) */
    int separate;                /* GC copies get their own write frontier */
    int throttle;                /* host writes to a plane in foreground GC go in proportion to
                                    its copies (ftl/page_gc.c) */
};

/* The SLC cache of a TLC or QLC drive (the page FTL and DFTL, ftl/page_slc.c): both sizes 0
 * when the model has none. Sizes are bytes of data held in SLC mode. */
struct ssdsim__slc_cfg {
    uint64_t static_bytes;  /* blocks reserved and always in SLC mode */
    uint64_t dynamic_bytes; /* free blocks borrowed in SLC mode, at most this much */
    uint64_t program_ns;    /* tPROG of a page in SLC mode */
    uint64_t read_ns;       /* tR of a page in SLC mode */
    uint64_t fold_idle_ns;  /* folding starts after the device is idle this long (0: never) */
};

static inline bool ssdsim__slc_on(const struct ssdsim__slc_cfg *s)
{
    return s->static_bytes > 0 || s->dynamic_bytes > 0;
}

struct ssdsim__wl_cfg {
    char policy[SSDSIM__NAME_MAX]; /* registered wear leveler ("none") */
    double params[SSDSIM__MAX_PARAMS];
};

struct ssdsim_model {
    uint32_t magic; /* SSDSIM__MAGIC_MODEL for a model given out (common.h); 0 inside */
    char *label; /* file name or caller label, for messages */
    void *json;  /* cJSON tree as loaded (owned), for ssdsim_model_set */
    /* The absolute directory a system's relative member path is read from when the model is
     * set again (ssdsim_model_set), found once at load: the model file's directory, or the
     * working directory for a model loaded from a string; owned, NULL when unknown. The path
     * shown (the canonical JSON, results) stays the one the model was loaded by. */
    char *dir;
    enum ssdsim__kind kind;
    struct ssdsim__geometry geometry;
    struct ssdsim__flash flash;
    struct ssdsim__controller_cfg controller;
    struct ssdsim__nvme_cfg nvme;
    struct ssdsim__host_cfg host;
    struct ssdsim__ftl_cfg ftl;
    struct ssdsim__gc_cfg gc;
    struct ssdsim__wl_cfg wl;
    struct ssdsim__slc_cfg slc;
    struct ssdsim__buffer_cfg buffer;
    struct ssdsim__readahead_cfg read_ahead;
    struct ssdsim__zns_cfg zns;
    struct ssdsim__fdp_cfg fdp;
    struct ssdsim__fault_cfg fault;  /* the reliability section's fault keys */
    struct ssdsim__hdd_cfg hdd;      /* kind HDD */
    struct ssdsim__system_cfg system;/* kind SYSTEM: the other sections are unused */
    struct ssdsim__spec spec;        /* n_figs 0 when the model has none */
    struct ssdsim__errmodel errors;  /* bit errors, ECC, retry, reclaim (rel/rel.h) */
    bool reserve_warned; /* ssdsim_new has logged the FTL reserve's warning (ftl/reserve.c) for
                            this model, or it is a scaled copy, which stays quiet */
};

/* Whether garbage collection's copies cost firmware (or host FTL thread) time, so that a
 * plane's copies go one after another, each once the firmware is done with the last (paced GC,
 * ftl/page_gc.c). */
static inline bool ssdsim__model_gc_paced(const struct ssdsim_model *m)
{
    return m->controller.fw_gc_page_ns > 0 ||
           (m->host.ftl_threads > 0 && m->host.ftl_gc_cpu_ns > 0);
}

/* Derived sizes of a validated model. */
uint64_t ssdsim__model_physical_pages(const struct ssdsim_model *m);
uint64_t ssdsim__model_logical_pages(const struct ssdsim_model *m); /* in mapping units */
/* Bytes one device model (SSD or HDD) exposes to the host. */
uint64_t ssdsim__model_device_bytes(const struct ssdsim_model *m);

/* Zones of a zoned model (zns.zone_size > 0): whole stripes of zone_size over the planes'
 * blocks, or 0 when zone_size is not a whole number of block stripes (config/model_zns.c). */
uint64_t ssdsim__model_zns_zones(const struct ssdsim_model *m);

/* Deep copy (label and JSON tree included). Returns NULL when out of memory. */
struct ssdsim_model *ssdsim__model_copy(const struct ssdsim_model *m);
/* The canonical JSON text (malloc'd; NULL when out of memory): ssdsim_model_to_json with `full`
 * false; with `full` true also the keys it leaves out at their defaults (KF_QUIET in model.c),
 * for the typed getters. */
char *ssdsim__model_json_full(const struct ssdsim_model *model, bool full);

#endif /* SSDSIM_CONFIG_MODEL_H */
