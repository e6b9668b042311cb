/* ssdsim/sys/ftl.h: flash translation layers (mapping schemes).
 *
 * An FTL turns the host's requests, one mapping unit at a time, into flash operations, and keeps
 * whatever mapping, allocation and garbage-collection state it needs. The library gives it an
 * environment (ssdsim_ftl_env) with the geometry and the services below: submitting flash
 * operations (the library queues them on the right die, runs the timing model and calls
 * flash_done at the simulated time the operation ends), completing host units, and counters.
 * The library counts every program and erase itself (so write amplification and wear are
 * measured the same way for every FTL) and keeps the erase count of every block.
 *
 * Addresses: physical page numbers are flat, ppn = block * pages_per_block + page, block =
 * plane * blocks_per_plane + block within the plane; plane = die * planes_per_die + plane in
 * the die; die = (channel * chips_per_channel + chip) * dies_per_chip + die in the chip.
 */
#ifndef SSDSIM_SYS_FTL_H
#define SSDSIM_SYS_FTL_H

#include "ssdsim/sys/plugin.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Geometry of the device an FTL runs on (derived counts included). The FTL's pages are mapping
 * units: with ftl.mapping_unit other than geometry.page_size, page_size is the unit,
 * pages_per_block and n_pages count units ("slots"), and the library turns slot operations into
 * flash page operations (doc/models.md, "Mapping units other than the page"). */
typedef struct ssdsim_geometry {
    uint32_t channels, chips_per_channel, dies_per_chip, planes_per_die;
    uint32_t blocks_per_plane, pages_per_block, page_size;
    uint32_t n_dies, n_planes;
    uint64_t n_blocks, n_pages;
    uint64_t logical_pages; /**< mapping units the host can address */
    double op;              /**< ftl.op of the model */
} ssdsim_geometry;

/** The services the library gives one FTL instance. Given a NULL env, each returns a neutral
 * value and does nothing: ssdsim_ftl_geometry NULL, ssdsim_ftl_submit SSDSIM_EINVAL, the
 * counts, clock and random number 0; ssdsim_ftl_fail only logs its message. */
typedef struct ssdsim_ftl_env ssdsim_ftl_env;

/** Flash operation kinds. */
typedef enum ssdsim_flash_kind {
    SSDSIM_FLASH_READ = 0,    /**< addr is a ppn; bytes move out over the channel after tR */
    SSDSIM_FLASH_PROGRAM = 1, /**< addr is a ppn; bytes move in over the channel, then tPROG */
    SSDSIM_FLASH_ERASE = 2    /**< addr is a block; tBERS */
} ssdsim_flash_kind;

/** Why an operation is done: decides its queue on the die (host reads go first, everything
 * else in arrival order) and how programs are counted. */
typedef enum ssdsim_flash_purpose {
    SSDSIM_FOR_HOST = 0,    /**< host data (read, or program of host data) */
    SSDSIM_FOR_GC = 1,      /**< garbage collection (copy reads and programs, erases) */
    SSDSIM_FOR_WL = 2,      /**< wear leveling moves */
    SSDSIM_FOR_MAPPING = 3, /**< mapping metadata (translation pages) */
    SSDSIM_FOR_HOST_RMW = 4, /**< reading the rest of a unit the host writes in part */
    SSDSIM_FOR_PARITY = 5    /**< a parity page of data striped across dies (RAIN) */
} ssdsim_flash_purpose;

/** Geometry of the device. */
SSDSIM_API const ssdsim_geometry *ssdsim_ftl_geometry(const ssdsim_ftl_env *env);

/** Submit a flash operation. When it ends (for reads: when its data is off the channel), the
 * library calls the FTL's flash_done with `cookie`. Never blocks, never fails for lack of
 * memory in steady state. @return 0, SSDSIM_EINVAL (address out of range), SSDSIM_ENOMEM. */
SSDSIM_API int ssdsim_ftl_submit(ssdsim_ftl_env *env, ssdsim_flash_kind kind, uint64_t addr,
                                 uint32_t bytes, ssdsim_flash_purpose purpose, uint64_t cookie);

/** The flash part of one unit of host request `io` is done (read data is in the controller, or
 * the write is durable); `bytes` is what the host asked of this unit (it crosses the link back
 * for reads). Call it from read/write or from flash_done. */
SSDSIM_API void ssdsim_ftl_unit_done(ssdsim_ftl_env *env, uint32_t io, uint32_t bytes);

/** Unit(s) of host request `io` waited `ns` for a free block before they could be written
 * (foreground GC); it shows in that request's ssdsim_completion.gc_wait_ns. An `io` the device
 * never handed the FTL fails the run, as it does in ssdsim_ftl_unit_done. */
SSDSIM_API void ssdsim_ftl_unit_waited(ssdsim_ftl_env *env, uint32_t io, uint64_t ns);

/** Counters an FTL reports (programs and erases are counted by the library). */
typedef enum ssdsim_ftl_counter {
    SSDSIM_CNT_HOST_PAGES = 0,   /**< units written for the host (denominator of WAF) */
    SSDSIM_CNT_GC_COPIES = 1,    /**< units relocated by GC */
    SSDSIM_CNT_WL_COPIES = 2,    /**< units relocated by wear leveling */
    SSDSIM_CNT_MAP_READS = 3,    /**< mapping pages read (e.g. DFTL misses) */
    SSDSIM_CNT_MAP_WRITES = 4,   /**< mapping pages written */
    SSDSIM_CNT_GC_VICTIMS = 5,   /**< blocks collected by GC in the foreground */
    SSDSIM_CNT_GC_BG_VICTIMS = 6, /**< blocks collected while the device was idle */
    SSDSIM_CNT_GC_BG_COPIES = 7,  /**< of the GC copies, those done while idle */
    SSDSIM_CNT_MERGES = 8,       /**< block merges (hybrid FTLs) */
    SSDSIM_CNT_UNMAPPED_READS = 9, /**< host units read without flash (never written, trimmed) */
    SSDSIM_CNT_PARITY_PAGES = 10, /**< RAIN parity pages programmed (also counted as programs) */
    SSDSIM_CNT_RA_UNITS = 11,    /**< units the controller's read-ahead read from flash (counted
                                      by the device, not the FTL) */
    SSDSIM_CNT_RA_HITS = 12,     /**< host units served from read-ahead data (by the device) */
    SSDSIM_CNT_RA_WASTED = 13,   /**< read-ahead units dropped unread (by the device) */
    SSDSIM_N_COUNTERS = 14
} ssdsim_ftl_counter;

/** Add `n` to a counter. */
SSDSIM_API void ssdsim_ftl_count(ssdsim_ftl_env *env, ssdsim_ftl_counter counter, uint64_t n);

/** Simulated time now, ns. */
SSDSIM_API uint64_t ssdsim_ftl_now(const ssdsim_ftl_env *env);

/** Erase count of a block since the device was new (kept by the library). */
SSDSIM_API uint32_t ssdsim_ftl_erase_count(const ssdsim_ftl_env *env, uint64_t block);

/** A uniform random 64-bit number from the FTL's own stream. */
SSDSIM_API uint64_t ssdsim_ftl_random(ssdsim_ftl_env *env);

/** Stop the run with an error (a broken invariant or an impossible state): the message is
 * what ssdsim_errmsg() returns. */
SSDSIM_API void ssdsim_ftl_fail(ssdsim_ftl_env *env, int code, const char *message);

/** The model's settings of the sections an FTL may use: the GC policy and its parameters, the
 * wear leveler and its parameters, and the GC watermarks (see doc/models.md). */
typedef struct ssdsim_ftl_policies {
    const char *gc_policy;
    const double *gc_params;
    const char *wl_policy;
    const double *wl_params;
    uint32_t free_blocks_min;    /**< start foreground GC below this (per plane) */
    uint32_t free_blocks_target; /**< GC stops at this (per plane) */
    uint64_t bg_idle_ns;         /**< background GC after this long idle; 0 = off */
    int gc_separate;             /**< GC copies get their own write frontier */
    int hot_cold;                /**< host writes split by update frequency */
    double hot_window;           /**< fraction of the logical space "recently written" spans */
} ssdsim_ftl_policies;
SSDSIM_API const ssdsim_ftl_policies *ssdsim_ftl_policy_settings(const ssdsim_ftl_env *env);

/** A device state to install directly (fast preconditioning): what each block holds, as a long
 * run of a workload would leave it. Arrays have one entry per block of the device (block index
 * as in the FTL environment). */
typedef struct ssdsim_ftl_image {
    /** Valid pages the block holds (0 .. pages_per_block: its first `valid` pages; the others
     * were written and invalidated), or SSDSIM_IMAGE_FREE for an erased block. The valid pages
     * add up to the logical units, so that every logical unit is mapped once. An FTL that gives
     * each plane a fixed share of the units needs each plane's total to equal its share; the
     * page FTL places units on any plane and needs only the device's total (and room to work
     * on every plane). */
    const uint32_t *valid;
    /** The order in which the written blocks were closed, oldest first (any increasing numbers;
     * only the order counts, ties keep block order; free blocks' entries are ignored); NULL =
     * block order. The FTL dates the blocks from it (the page FTL: one block of programs apart,
     * the newest now), which is what age-aware GC policies read. */
    const uint64_t *closed_order;
    /** Erase count of each block, or NULL to keep the counts: the library sets its own counts
     * and their histogram from it once the FTL has accepted the image. */
    const uint32_t *erase_count;
    /** Runs of logical units a workload's writes leave side by side in flash, or NULL for none
     * (every unit on its own, as writes of one unit each leave them): for unit i, entry
     * i % run_period (every unit has its own entry when run_period is 0) is the length in units
     * (1 .. 255) of the run that starts at i, or 0 when i is inside a run. The runs tile each
     * period of the logical space; a run that would pass its end ends there. An FTL deals whole
     * runs to the valid pages in a uniformly random order, a run's units to consecutive pages of
     * its write stream (the page FTL: the slots of a flash page, then the next plane's).
     * Appended after 1.0: an FTL built earlier never reads them (and deals every unit on its
     * own). */
    const uint8_t *run_len;
    uint64_t run_period;
} ssdsim_ftl_image;

/** ssdsim_ftl_image.valid of an erased block. */
#define SSDSIM_IMAGE_FREE UINT32_MAX

/** A mapping scheme. */
typedef struct ssdsim_ftl_ops {
    SSDSIM_PLUGIN_HEADER;
    /** Required: set up a secure-erased device (every block free, nothing mapped). Return 0 or
     * a negative SSDSIM_E* code with a reason in errbuf. */
    int (*create)(void *state, ssdsim_ftl_env *env, const double *params, char *errbuf,
                  size_t errlen);
    /** Optional; called exactly once, even when create failed. */
    void (*destroy)(void *state);
    /** Required: read `bytes` of logical unit `lpn` for request `io`; call
     * ssdsim_ftl_unit_done when the data is in the controller. Return 0 or SSDSIM_ENOMEM. */
    int (*read)(void *state, uint32_t io, uint64_t lpn, uint32_t bytes);
    /** Required: write `bytes` of unit `lpn` (a whole unit when bytes == page_size). */
    int (*write)(void *state, uint32_t io, uint64_t lpn, uint32_t bytes);
    /** Required: drop unit `lpn` (TRIM); no flash operation is needed. */
    void (*trim)(void *state, uint64_t lpn);
    /** Required: an operation submitted with `cookie` has ended. */
    void (*flash_done)(void *state, uint64_t cookie);
    /** Optional: the device became idle (no host command inside) or busy again. */
    void (*idle)(void *state, int idle);
    /** Optional: free (erased) blocks now, for the time series. */
    uint64_t (*free_blocks)(void *state);
    /** Optional: the physical page that holds `lpn` now, or UINT64_MAX (inspection, tests). */
    uint64_t (*lookup)(void *state, uint64_t lpn);
    /** Optional hint: a request for `lpn` will arrive soon (start loading its mapping). */
    void (*prefetch)(void *state, uint64_t lpn);
    /** Optional (inspection): free blocks of a plane now. */
    uint64_t (*plane_free_blocks)(void *state, uint32_t plane);
    /** Optional (inspection): valid pages of a block now. */
    uint32_t (*block_valid)(void *state, uint64_t block);
    /** Optional (fast preconditioning): make the device's state `img`, placing the logical
     * units among the valid pages uniformly at random (ssdsim_ftl_random), whole runs at a time
     * when the image has them (run_len). The library calls it
     * on a state `create` has just set up (a secure-erased device: idle, no request, nothing
     * mapped), after moving the write clock (ssdsim_view_clock) past the programs the image
     * implies. Written blocks are full and closed, and frontiers open on free blocks as after a
     * secure erase; or, as the page FTL does to dephase its planes, frontiers open part-written
     * (on free blocks or a plane's newest written ones), the image's valid pages moved between
     * blocks of the same plane to fill them. Return 0, or SSDSIM_EINVAL with a reason in errbuf and the state unchanged
     * when the image does not fit this FTL (totals, a plane without room to work),
     * SSDSIM_ENOMEM. */
    int (*install)(void *state, const ssdsim_ftl_image *img, char *errbuf, size_t errlen);
    /** Optional (fast preconditioning, inspection): 1 when block `block` is a closed (full)
     * block that GC may collect, with `*closed_order` (if not NULL) its age: the write clock
     * when it was closed, smaller is older; 0 for free, open, victim or other blocks. */
    int (*block_closed)(void *state, uint64_t block, uint64_t *closed_order);
    /** Optional (tests, ssdsim_check): verify every invariant of the FTL's state, at any
     * instant between events (flash operations may be in flight). Return 0, or SSDSIM_ESTATE
     * with the first broken invariant, naming the block, page or unit, in `why`. Appended after
     * ABI 1's table: the library calls it only when struct_size covers it. */
    int (*check)(void *state, char *why, size_t len);
    /** Optional (the steady-state rule's preconditioning gate, inspection): logical units
     * mapped now, written and not trimmed since the device was set up. Appended after `check`:
     * the library calls it only when struct_size covers it; without it the gate counts host
     * writes only (ssdsim_get_steady). */
    uint64_t (*mapped_units)(void *state);
} ssdsim_ftl_ops;

/** Register a mapping scheme; same rules and return codes as ssdsim_gc_register. */
SSDSIM_API int ssdsim_ftl_register(const ssdsim_ftl_ops *ops, ssdsim_error *err);

#ifdef __cplusplus
}
#endif

#endif /* SSDSIM_SYS_FTL_H */
