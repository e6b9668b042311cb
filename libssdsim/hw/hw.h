/* hw.h: the flash hardware below the FTL: channels (a bus timeline each: a page transfer
 * occupies the bus, not the die) and dies (one operation at a time, two queues: host reads
 * first, then programs, GC and erases in arrival order). The front end in front of the FTL (host
 * link, firmware cores) is the device's (dev/dev.c, hw/link.c).
 *
 * Physical page numbers are flat: ppn = global_block * pages_per_block + page, and
 * global_block = plane * blocks_per_plane + block_in_plane, plane = die * planes_per_die + p,
 * die = (channel * chips_per_channel + chip) * dies_per_chip + d. Everything else is derived.
 *
 * Flash operations live in a pool (flat array, free list, grown only until the run's peak), so
 * the per-request path allocates nothing in steady state.
 *
 * NAND operations beyond one page at a time, each switched by a flash.* key of the model and
 * off unless given (hw.c and doc/models.md say how each is timed): command and address cycles
 * on the bus, multi-plane operations (the die merges queued ops of one kind on different
 * planes), cache read and cache program (a transfer overlaps the next or previous array
 * operation), program and erase suspend for host reads, and copyback for GC copies.
 */
#ifndef SSDSIM_HW_H
#define SSDSIM_HW_H

#include "common.h"
#include "config/model.h"
#include "engine/engine.h"
#include "ipool.h"

#define SSDSIM__NONE UINT32_MAX

enum ssdsim__flash_kind { SSDSIM__FLASH_READ, SSDSIM__FLASH_PROGRAM, SSDSIM__FLASH_ERASE };
enum ssdsim__flash_class { SSDSIM__CLASS_READ = 0, SSDSIM__CLASS_WRITE = 1 };

/* One flash operation. `purpose` and `cookie` belong to whoever submitted it. 24 bytes. */
struct ssdsim__flash_op {
    uint32_t next; /* intrusive link: the die's queue, then the ops run together with it */
    uint8_t kind;  /* enum ssdsim__flash_kind */
    uint8_t cls;   /* enum ssdsim__flash_class */
    uint8_t purpose;
    uint8_t phase; /* one-page path (hw.c), reads: 0 = array read, 1 = data out on the bus */
    uint32_t addr; /* ppn, or global block for an erase */
    uint32_t bytes; /* bytes moved on the channel bus */
    uint64_t cookie;
};

struct ssdsim__die {
    uint32_t head[2], tail[2]; /* per class */
    uint32_t cur;              /* op in progress (the first of a multi-plane group), or NONE */
    uint32_t channel;
    uint32_t queued;           /* ops waiting (both classes) */
    /* The NAND operations' state (hw/nand.c; unused on the one-page path of hw.c): what the
     * die's next event ends (enum step there), ... */
    uint8_t step;
    uint8_t n_suspends; /* of the program or erase in cur or susp */
    bool cb_hold;       /* a GC read's page waits in the page register for its copyback */
    uint32_t cb_src;    /* that page */
    uint32_t susp;      /* suspended program or erase, or NONE */
    uint64_t arr_start_ns, done_ns; /* cur's array operation */
    uint64_t remaining_ns;          /* of the suspended one */
    uint64_t timer;                 /* cancellable event of cur's end (flash.suspend) */
    uint64_t array_free_ns;         /* cache program: the array programs until then */
    uint64_t cache_free_ns;         /* cache read: the cache register's data out ends */
    uint64_t busy_until_ns;         /* for die_busy_ns: the union of busy intervals */
};

typedef void (*ssdsim__flash_done_fn)(void *ctx, uint32_t op);

struct ssdsim__hw {
    const struct ssdsim_model *model;
    struct ssdsim__engine *engine;
    /* geometry, derived */
    uint32_t n_dies, n_planes, n_channels;
    uint32_t planes_per_die, blocks_per_plane, pages_per_block;
    uint32_t dies_per_channel;
    uint64_t n_blocks, n_pages;
    /* timing, derived (ns) */
    uint64_t page_xfer_ns; /* one full page on a channel bus */
    /* state */
    struct ssdsim__die *dies;
    uint64_t *bus_free; /* per channel: time the bus is next free */
    uint64_t *idle_bits; /* one bit per die: no op in progress and nothing queued */
    uint32_t n_idle_words;
    /* flash op pool */
    struct ssdsim__flash_op *ops; /* slots of the index pool op_pool (ipool.h) */
    struct ssdsim__ipool op_pool;
    ssdsim__flash_done_fn on_done;
    void *on_done_ctx;
    /* busy time accounting (ns), for utilisation figures */
    uint64_t die_busy_ns;
    uint64_t bus_busy_ns; /* all channels: commands and data */
    /* NAND operations run (counts) */
    uint64_t n_multiplane;        /* multi-plane operations (groups of 2 or more) */
    uint64_t n_multiplane_planes; /* the planes (ops) of those groups, summed */
    uint64_t n_cache_reads;       /* pages read through the cache register */
    uint64_t n_cache_programs;    /* pages programmed through the cache register */
    uint64_t n_suspends;          /* programs or erases suspended */
    uint64_t n_copybacks;         /* GC copies that stayed in their plane */
    bool nand;             /* the model turns on a NAND operation: ops run in hw/nand.c */
    uint8_t *slc_block;    /* per block: 1 while it is in SLC mode (its pages take the SLC
                              times); NULL for a model without an SLC cache. Set by the FTL
                              (ftl/page_slc.c), freed here */
};

int ssdsim__hw_init(struct ssdsim__hw *hw, const struct ssdsim_model *m, struct ssdsim__engine *e,
                    ssdsim__flash_done_fn on_done, void *ctx);
void ssdsim__hw_fini(struct ssdsim__hw *hw);

/* Allocate a flash op (fields zeroed except next). Returns SSDSIM__NONE when out of memory. */
uint32_t ssdsim__hw_op_alloc(struct ssdsim__hw *hw);
void ssdsim__hw_op_free(struct ssdsim__hw *hw, uint32_t op);
/* The flash operations in flight (allocated, not yet done), for consistency checks: calls
 * fn(ctx, op) for each, in pool order. Returns 0, or SSDSIM_ENOMEM (nothing called). */
int ssdsim__hw_each_op(const struct ssdsim__hw *hw,
                       void (*fn)(void *ctx, const struct ssdsim__flash_op *op), void *ctx);
static inline struct ssdsim__flash_op *ssdsim__hw_op(struct ssdsim__hw *hw, uint32_t op)
{
    return &hw->ops[op];
}

/* Queue an op on the die that holds its address; the die starts it when free. on_done is
 * called at the simulated time the op (and, for reads, its data transfer) completes. */
void ssdsim__hw_submit(struct ssdsim__hw *hw, uint32_t op);

/* hw/nand.c: ssdsim__hw_submit for a model with NAND operations (hw->nand). */
void ssdsim__nand_submit(struct ssdsim__hw *hw, uint32_t op);

/* Mark die `die` idle (no op in progress, nothing queued) or busy. */
/* Take the first queued op of class `cls` off die `die`'s queue and make it the die's current
 * op; NONE when that class has nothing queued (the die is left as it is). Both dispatchers (hw.c's
 * one-page path, nand.c) start an op this way. */
static inline uint32_t ssdsim__hw_die_pop(struct ssdsim__hw *hw, struct ssdsim__die *die,
                                          uint32_t cls)
{
    uint32_t i = die->head[cls];
    if (i == SSDSIM__NONE)
        return i;
    die->head[cls] = hw->ops[i].next;
    if (die->head[cls] == SSDSIM__NONE)
        die->tail[cls] = SSDSIM__NONE;
    die->queued--;
    die->cur = i;
    return i;
}

static inline void ssdsim__hw_set_idle(struct ssdsim__hw *hw, uint32_t die, bool idle)
{
    uint64_t bit = 1ULL << (die & 63);
    if (idle)
        hw->idle_bits[die >> 6] |= bit;
    else
        hw->idle_bits[die >> 6] &= ~bit;
}

/* Book `ns` on channel `ch` from `at` (FCFS); returns the end. */
static inline uint64_t ssdsim__hw_bus_book(struct ssdsim__hw *hw, uint32_t ch, uint64_t at,
                                           uint64_t ns)
{
    uint64_t *bus = &hw->bus_free[ch];
    *bus = SSDSIM__MAX(at, *bus) + ns;
    hw->bus_busy_ns += ns;
    return *bus;
}

/* Address helpers. */
static inline uint32_t ssdsim__hw_ppn_block(const struct ssdsim__hw *hw, uint32_t ppn)
{
    return ppn / hw->pages_per_block;
}
static inline uint32_t ssdsim__hw_block_plane(const struct ssdsim__hw *hw, uint32_t block)
{
    return block / hw->blocks_per_plane;
}
static inline uint32_t ssdsim__hw_plane_die(const struct ssdsim__hw *hw, uint32_t plane)
{
    return plane / hw->planes_per_die;
}
static inline bool ssdsim__hw_die_idle(const struct ssdsim__hw *hw, uint32_t die)
{
    return (hw->idle_bits[die >> 6] >> (die & 63)) & 1;
}
/* First idle die at or after `from` (wrapping), or SSDSIM__NONE. */
uint32_t ssdsim__hw_next_idle_die(const struct ssdsim__hw *hw, uint32_t from);

/* Page type (0 = LSB ...) of a page index within its block, or SSDSIM__PAGE_SLC for a block
 * in SLC mode: the index of its read / program time. */
static inline uint32_t ssdsim__hw_page_type(const struct ssdsim__hw *hw, uint32_t ppn)
{
    if (hw->slc_block && hw->slc_block[ppn / hw->pages_per_block])
        return SSDSIM__PAGE_SLC;
    return (ppn % hw->pages_per_block) % hw->model->flash.n_page_types;
}

/* Bus time for `bytes` on a channel, ns (rounded up). */
uint64_t ssdsim__hw_bus_ns(const struct ssdsim__hw *hw, uint64_t bytes);
/* Reset the bus timelines to `now` (after a secure erase: no op may be in flight). */
void ssdsim__hw_reset_timelines(struct ssdsim__hw *hw, uint64_t now);

#endif /* SSDSIM_HW_H */
