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
#include "ssdsim/sys/ftl.h"
#include "udiv.h"

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
    uint32_t head[2], tail[2]; /* per class; unused with plane queues (hw->pq) */
    uint32_t cur;              /* op in progress (the first of a multi-plane group), or NONE */
    uint32_t channel;
    uint32_t queued;           /* ops waiting (both classes) */
    uint32_t n_q[2];           /* with plane queues (hw->pq): ops waiting per class */
    uint32_t qseq[2];          /* with plane queues: the arrival number of the next op per class */
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
    /* cache read: cur, a read, was started behind a page moved to the cache register (a
     * cache read command, 31h), so its page goes through the cache register too (3Fh) */
    bool cache_seq;
    uint64_t busy_until_ns;         /* for die_busy_ns: the union of busy intervals */
    /* mapping units smaller than the page (hw/unit.c): the page the page register holds from
     * the die's last operation when that was a read (else NONE), the first block with a partial
     * page held for it, and whether a padding check is scheduled */
    uint32_t reg_page;
    /* with cache read as well: the page the cache register holds (NONE), whose units are read
     * out of it without tR and without holding the die (hw/nand.c) */
    uint32_t cache_page;
    uint32_t held_blk;
    uint32_t n_disp; /* spp > 1: ops the die has started (hw/unit.c: how long a page is held) */
    uint64_t w_since; /* when the write class's first op became first, or the suspended program
                         or erase was suspended (reads first, but not for ever: write_due_ns) */
    bool pad_armed;
    bool padding; /* ssdsim__unit_dispatch queues padded pages: the die's dispatch goes on */
};

/* die->w_since of a die running a write (or a resumed program or erase) with more writes
 * queued: the next one waits from the die's next dispatch (ssdsim__hw_w_start). */
#define SSDSIM__W_AFTER UINT64_MAX

typedef void (*ssdsim__flash_done_fn)(void *ctx, uint32_t op);

/* A die's queue of one class on one plane, with flash.multiplane (hw/nand.c): a ring of the ops
 * in arrival order, each with its arrival number in the die's queue of that class (the die's
 * queue is the planes' rings merged by that number). */
struct ssdsim__pq_ent {
    uint32_t op, seq;
};
struct ssdsim__pq {
    struct ssdsim__pq_ent *v; /* cap entries, cap a power of two (0 until the first op) */
    uint32_t cap, head, n;
};

struct ssdsim__hw {
    const struct ssdsim_model *model;
    struct ssdsim__engine *engine;
    /* geometry, derived */
    uint32_t n_dies, n_planes, n_channels;
    uint32_t planes_per_die, blocks_per_plane, pages_per_block;
    uint32_t dies_per_channel;
    uint64_t n_blocks, n_pages;
    /* the same as divisors (udiv.h): the hot path divides by them on every op */
    struct ssdsim__udiv div_ppb, div_bpp, div_ppd, div_types;
    /* the page type of slot ppn is ppn & type_mask when slots are pages and the page types and
     * slots per block are powers of two, the types no more than the slots (every model in
     * models/): one mask for two remainders (ssdsim__hw_page_type, on every op); else NONE */
    uint32_t type_mask;
    /* blocks and slots per die: an op's die in one division (ssdsim__hw_op_die) */
    struct ssdsim__udiv div_bpdie, div_ppdie;
    /* timing, derived (ns) */
    uint64_t page_xfer_ns; /* one full page on a channel bus */
    uint32_t xfer_bytes;   /* the size of most transfers (a mapping unit, or the page) ... */
    uint64_t xfer_ns;      /* ... and its bus time: ssdsim__hw_bus_ns without a divide */
    /* state */
    struct ssdsim__die *dies;
    uint64_t *bus_free; /* per channel: time the bus is next free */
    /* The controller's write data path (controller.program_bw; 0: no such limit): its bytes
     * per second, the time it is next free, and the dies whose program waits for it (a FIFO
     * ring of n_dies slots; a waiting die holds its program as cur) */
    uint64_t wpath_bw, wpath_free, wpath_busy_ns;
    uint32_t *wpath_q, wpath_head, wpath_n;
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
    bool plain;            /* one-page path (hw.c) with slots of one page, no write path
                              limit and no reliability model (rel/rber.c clears it): a die's
                              dispatch and an op's completion call none of unit.c's or rel's
                              functions, and no die holds a partial page (held_blk) */
    /* flash.multiplane with mapping units smaller than the page: the page each plane's page
     * register holds (NONE), indexed by die x planes_per_die + plane; it replaces the die's one
     * reg_page there, as a multi-plane read leaves a page in each of its planes' registers */
    uint32_t *plane_reg;
    struct ssdsim__pq *pq; /* flash.multiplane: the dies' queues as plane queues, indexed by
                              (die * 2 + class) * planes_per_die + plane of the die; else NULL
                              (the dies' linked lists head/tail) */
    uint8_t *slc_block;    /* per block: 1 while it is in SLC mode (its pages take the SLC
                              times); NULL for a model without an SLC cache. Set by the FTL
                              (ftl/page_slc.c), freed here */
    /* Mapping units other than the page (hw/unit.c). Addresses above are then of *slots*, one
     * mapping unit each: pages_per_block and n_pages count slots (what the FTL sees). */
    uint32_t spp;        /* slots per flash page (unit < page), else 1 */
    uint32_t slot_shift; /* log2(spp) */
    uint32_t ppu;        /* flash pages per slot (unit > page), else 1 */
    uint32_t n_live;     /* ops allocated and not yet freed: in a die's queue, running, in
                            the cache register or on the bus after their die went idle, or
                            held for their page (ssdsim__dev_busy) */
    uint32_t *held;      /* spp > 1, per block: the first program held for its partial page */
    uint32_t *held_next; /* per block: the next block of its die with a held page */
    uint32_t *held_mark; /* per block: its die's n_disp when its partial page was begun */
    uint64_t write_due_ns; /* host reads go first on a die, unless its first write (or its
                              suspended program or erase) has waited this long: the mean
                              program time (ssdsim__hw_first_class) */
    uint8_t *gc_keep;    /* spp > 1, per plane: 1 while the FTL collects a victim there, so that
                            a page held with only GC or wear-leveling copies is not padded when
                            the die runs empty between copies (ssdsim__unit_gc_keep) */
    uint32_t *blk_wp;    /* per block: the first slot that may still be programmed */
    uint32_t *mate;      /* spp > 1, per op of the pool: the other slots' programs of its page,
                            linked by next, which complete with it; else NONE (kept beside the
                            ops so that they stay 24 bytes) */
    uint32_t mate_cap;
    uint64_t n_page_programs; /* spp > 1: pages programmed (full or padded) */
    uint64_t n_pad_slots;     /* slots left empty by padded page programs */
    uint64_t n_reg_hits;      /* reads served from the page register without tR */
    struct ssdsim__rel *rel;  /* bit errors (rel/rel.h), or NULL when the model has none */
};

int ssdsim__hw_init(struct ssdsim__hw *hw, const struct ssdsim_model *m, struct ssdsim__engine *e,
                    ssdsim__flash_done_fn on_done, void *ctx);
void ssdsim__hw_fini(struct ssdsim__hw *hw);

/* Allocate a flash op (fields zeroed except next). Returns SSDSIM__NONE when out of memory. */
uint32_t ssdsim__hw_op_alloc(struct ssdsim__hw *hw);
static inline void ssdsim__hw_op_free(struct ssdsim__hw *hw, uint32_t op)
{
    hw->n_live--;
    ssdsim__ipool_put(&hw->op_pool, hw->ops, sizeof *hw->ops,
                      offsetof(struct ssdsim__flash_op, next), op);
}
/* A free slot of the op pool as it is (no field set: the caller sets every one), or NONE when
 * the pool must grow or keeps an array beside it (then ssdsim__hw_op_alloc). */
static inline uint32_t ssdsim__hw_op_take(struct ssdsim__hw *hw)
{
    if (ssdsim__ipool_empty(&hw->op_pool) || hw->mate)
        return SSDSIM__NONE;
    hw->n_live++;
    return ssdsim__ipool_take(&hw->op_pool, hw->ops, sizeof *hw->ops,
                              offsetof(struct ssdsim__flash_op, next));
}
/* The flash operations in flight (allocated, not yet done), for consistency checks: calls
 * fn(ctx, op) for each, in pool order. Returns 0, or SSDSIM_ENOMEM (nothing called). */
int ssdsim__hw_each_op(const struct ssdsim__hw *hw,
                       void (*fn)(void *ctx, const struct ssdsim__flash_op *op), void *ctx);
static inline struct ssdsim__flash_op *ssdsim__hw_op(struct ssdsim__hw *hw, uint32_t op)
{
    return &hw->ops[op];
}

/* Queue an op on the die that holds its address; the die starts it when free. on_done is
 * called at the simulated time the op (and, for reads, its data transfer) completes. Returns 0,
 * so that a caller that returns 0 after it can end with it as a tail call. */
int ssdsim__hw_submit(struct ssdsim__hw *hw, uint32_t op);

/* Start idle die d on the one-page path (not hw->nand): its next queued op, reads first.
 * Returns 0, so that a caller's return can be a tail call. */
int ssdsim__hw_die_dispatch(struct ssdsim__hw *hw, uint32_t d);

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
    else if (cls == SSDSIM__CLASS_WRITE)
        die->w_since = SSDSIM__W_AFTER; /* the next write waits from this one's end */
    die->queued--;
    die->cur = i;
    return i;
}

/* At a dispatch of die `die`: the wait of a write queued behind the op that just ended starts
 * now. */
static inline void ssdsim__hw_w_start(struct ssdsim__die *die, uint64_t now)
{
    if (die->w_since == SSDSIM__W_AFTER)
        die->w_since = now;
}

/* The class a die serves next: host reads first, unless the die's first write (or the program
 * or erase a read suspended) has waited write_due_ns already. Without the bound, reads that
 * keep a die busy would hold its writes for as long as they came (a write buffer's flushes,
 * a write-through write, GC). `reads` and `writes` say whether each class has work. */
static inline uint32_t ssdsim__hw_first_class(const struct ssdsim__hw *hw,
                                              const struct ssdsim__die *die, bool reads,
                                              bool writes, uint64_t now)
{
    if (!reads || (writes && die->w_since != SSDSIM__W_AFTER &&
                   now - die->w_since >= hw->write_due_ns))
        return SSDSIM__CLASS_WRITE;
    return SSDSIM__CLASS_READ;
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

/* The controller's write data path (controller.program_bw: ECC encoding, RAIN parity), one
 * for all channels: every program's data passes it, taking bytes / program_bw of it, while the
 * data streams onto the die's channel. A die whose program finds the path taken (or other dies
 * waiting for it) holds the program as cur and waits, in arrival order, without booking its
 * channel ahead (which would keep the channel from transfers that could use it meanwhile):
 * ssdsim__hw_wpath_defer queues it and hw.c's path event starts it when the path is free. */

/* Whether die d's program cur must wait for the write path (then queued), at time `now`. */
bool ssdsim__hw_wpath_defer(struct ssdsim__hw *hw, uint32_t d, uint64_t now);

/* Take the write path for `bytes` of program data from `now` (it is free then: see above). */
static inline uint64_t ssdsim__hw_wpath_ns(const struct ssdsim__hw *hw, uint32_t bytes)
{
    return hw->wpath_bw ? ssdsim__mul_div_up(bytes, SSDSIM__NS_PER_S, hw->wpath_bw) : 0;
}

static inline void ssdsim__hw_wpath_take(struct ssdsim__hw *hw, uint64_t now, uint32_t bytes)
{
    if (hw->wpath_bw) {
        uint64_t ns = ssdsim__hw_wpath_ns(hw, bytes);
        hw->wpath_free = now + ns;
        hw->wpath_busy_ns += ns;
    }
}


/* hw/nand.c: start die d's program group cur, which waited for the write path. */
void ssdsim__nand_start_held(struct ssdsim__hw *hw, uint32_t d);

/* Address helpers. */
static inline uint32_t ssdsim__hw_ppn_block(const struct ssdsim__hw *hw, uint32_t ppn)
{
    return ssdsim__udiv_q(&hw->div_ppb, ppn);
}
/* A GC or wear-leveling op (copies and their erases), not one the host waits for. */
static inline bool ssdsim__hw_for_gc(const struct ssdsim__flash_op *op)
{
    return op->purpose == SSDSIM_FOR_GC || op->purpose == SSDSIM_FOR_WL;
}
static inline uint32_t ssdsim__hw_block_plane(const struct ssdsim__hw *hw, uint32_t block)
{
    return ssdsim__udiv_q(&hw->div_bpp, block);
}
static inline uint32_t ssdsim__hw_plane_die(const struct ssdsim__hw *hw, uint32_t plane)
{
    return ssdsim__udiv_q(&hw->div_ppd, plane);
}
/* The die of a block, and of an op (its page's block's, or an erase's block's): block and
 * page numbers run die by die (see the top), so each is one division. */
static inline uint32_t ssdsim__hw_block_die(const struct ssdsim__hw *hw, uint32_t block)
{
    return ssdsim__udiv_q(&hw->div_bpdie, block);
}
static inline uint32_t ssdsim__hw_op_die(const struct ssdsim__hw *hw,
                                         const struct ssdsim__flash_op *op)
{
    return op->kind == SSDSIM__FLASH_ERASE ? ssdsim__hw_block_die(hw, op->addr)
                                           : ssdsim__udiv_q(&hw->div_ppdie, op->addr);
}
static inline bool ssdsim__hw_die_idle(const struct ssdsim__hw *hw, uint32_t die)
{
    return (hw->idle_bits[die >> 6] >> (die & 63)) & 1;
}
/* First idle die at or after `from` (wrapping), or SSDSIM__NONE. */
uint32_t ssdsim__hw_next_idle_die(const struct ssdsim__hw *hw, uint32_t from);

/* Page type (0 = LSB ...) of the flash page that holds slot `ppn` (units not larger than the
 * page; hw/unit.c times the pages of a larger one), or SSDSIM__PAGE_SLC for a block in SLC mode:
 * the index of its read / program time. */
static inline uint32_t ssdsim__hw_page_type(const struct ssdsim__hw *hw, uint32_t ppn)
{
    if (hw->slc_block && hw->slc_block[ssdsim__hw_ppn_block(hw, ppn)])
        return SSDSIM__PAGE_SLC;
    if (hw->type_mask != SSDSIM__NONE)
        return ppn & hw->type_mask;
    return ssdsim__udiv_r(&hw->div_types, ssdsim__udiv_r(&hw->div_ppb, ppn) >> hw->slot_shift);
}

/* hw/unit.c: the array time of a program (tPROG; the sum over its pages when a slot spans
 * several) and of a read (tR of the pages that hold its bytes) of op `i`. */
uint64_t ssdsim__unit_program_ns(const struct ssdsim__hw *hw, const struct ssdsim__flash_op *op);
uint64_t ssdsim__unit_read_ns(const struct ssdsim__hw *hw, const struct ssdsim__flash_op *op);
static inline uint64_t ssdsim__hw_program_ns(const struct ssdsim__hw *hw,
                                             const struct ssdsim__flash_op *op)
{
    if (hw->ppu == 1)
        return hw->model->flash.program_ns[ssdsim__hw_page_type(hw, op->addr)];
    return ssdsim__unit_program_ns(hw, op);
}
static inline uint64_t ssdsim__hw_read_ns(const struct ssdsim__hw *hw,
                                          const struct ssdsim__flash_op *op)
{
    if (hw->ppu == 1)
        return hw->model->flash.read_ns[ssdsim__hw_page_type(hw, op->addr)];
    return ssdsim__unit_read_ns(hw, op);
}

/* hw/unit.c, slots smaller than the page (spp > 1). ssdsim__unit_submit takes every op first:
 * a program of a slot is held until the other slots of its page are programmed too, and the
 * page is then one program (returned, with the others as its mates); NONE when held. An erase
 * makes its block's slots programmable again. */
uint32_t ssdsim__unit_submit(struct ssdsim__hw *hw, uint32_t op);
/* A die has nothing queued: schedule the padding of its held pages at this instant, after
 * whatever else happens at it (ssdsim__unit_pad_event). */
void ssdsim__unit_die_empty(struct ssdsim__hw *hw, uint32_t die);
/* Die `die` is about to start its next operation and holds partial pages: pad those with a host
 * unit that have waited for a whole operation of the die (hw/unit.c). Call only when spp > 1
 * and the die's held list is not empty. */
void ssdsim__unit_dispatch(struct ssdsim__hw *hw, uint32_t die);
/* The FTL starts (keep true) or ends collecting victims on `plane`: while it collects, pages
 * held with only GC or wear-leveling copies wait for the next copies instead of being padded;
 * when it ends they are padded once the die has nothing else to do. No-op unless spp > 1. */
void ssdsim__unit_gc_keep(struct ssdsim__hw *hw, uint32_t plane, bool keep);
/* The page register: true when a read of slot `ppn` finds its page there (no tR); records the
 * read's page otherwise. */
static inline bool ssdsim__unit_reg_hit(struct ssdsim__hw *hw, struct ssdsim__die *die,
                                        uint32_t ppn)
{
    uint32_t page = ppn >> hw->slot_shift;
    if (die->reg_page == page) {
        hw->n_reg_hits++;
        return true;
    }
    die->reg_page = page;
    return false;
}
/* The first slot of `block` the FTL may still program (after the slots of padded pages); 0
 * when units are not smaller than the page. */
uint32_t ssdsim__hw_slot_next(const struct ssdsim__hw *hw, uint32_t block);
/* Fast preconditioning: block `block` (erased) is taken to have its slots before `slot` (a page
 * boundary) programmed. */
void ssdsim__hw_slot_set(struct ssdsim__hw *hw, uint32_t block, uint32_t slot);
/* Complete op `i` and its mates (the other slots of its page), mates first. */
static inline void ssdsim__hw_complete(struct ssdsim__hw *hw, uint32_t i)
{
    if (hw->rel && ssdsim__rel_complete(hw, i))
        return; /* rel's own read, or one waiting for its reconstruction */
    for (uint32_t m = hw->mate ? hw->mate[i] : SSDSIM__NONE; m != SSDSIM__NONE;) {
        uint32_t nx = hw->ops[m].next;
        hw->on_done(hw->on_done_ctx, m);
        m = nx;
    }
    hw->on_done(hw->on_done_ctx, i);
}
/* ssdsim__hw_submit after hw/unit.c's packing: queue op `i` on its die, start it if the die
 * is free. */
void ssdsim__hw_queue(struct ssdsim__hw *hw, uint32_t i);

/* Bus time for `bytes` on a channel, ns (rounded up). Inline, a divide and no call: a call on
 * the die's dispatch path made it save registers for every op. */
static inline uint64_t ssdsim__hw_bus_ns_div(const struct ssdsim__hw *hw, uint64_t bytes)
{
    /* bytes / (MT/s * 1e6 * width/8) seconds = bytes * 8000 / (MT/s * width) ns */
    uint64_t den = (uint64_t)hw->model->flash.bus_mts * hw->model->flash.bus_width_bits;
    return (bytes * 8000 + den - 1) / den;
}
static inline uint64_t ssdsim__hw_bus_ns(const struct ssdsim__hw *hw, uint64_t bytes)
{
    return bytes == hw->xfer_bytes ? hw->xfer_ns : ssdsim__hw_bus_ns_div(hw, bytes);
}
/* A program's data in: it streams from the write path onto the channel, so it takes the bus
 * for the longer of the two transfers (a path slower than one channel holds the channel). */
static inline uint64_t ssdsim__hw_data_in_ns(const struct ssdsim__hw *hw, uint32_t bytes)
{
    uint64_t bus = ssdsim__hw_bus_ns(hw, bytes), path = ssdsim__hw_wpath_ns(hw, bytes);
    return bus > path ? bus : path;
}
/* Reset the bus timelines to `now` (after a secure erase: no op may be in flight). */
void ssdsim__hw_reset_timelines(struct ssdsim__hw *hw, uint64_t now);

/* Append op i (its `next` already NONE) to die d's queue of class `cls`: the one FIFO both
 * submission paths (ssdsim__hw_queue_op, nand.c without priority queues) keep. */
static inline void ssdsim__hw_die_append(struct ssdsim__hw *hw, struct ssdsim__die *die,
                                         uint32_t cls, uint32_t i)
{
    if (die->tail[cls] == SSDSIM__NONE) {
        die->head[cls] = i;
        if (cls == SSDSIM__CLASS_WRITE)
            die->w_since = ssdsim__engine_now(hw->engine); /* the first write */
    } else {
        hw->ops[die->tail[cls]].next = i;
    }
    die->tail[cls] = i;
    die->queued++;
}

/* Queue op i on its die and start the die when it is idle, on the one-page path (not
 * hw->nand): ssdsim__hw_submit's after hw/unit.c's packing, and inline in the FTL environment's
 * submission (ssdsim__env_submit_hw) when there is no packing (hw->plain), which saves a call
 * per op. Returns 0 (see ssdsim__hw_submit). */
static inline int ssdsim__hw_queue_op(struct ssdsim__hw *hw, uint32_t i)
{
    struct ssdsim__flash_op *op = &hw->ops[i];
    uint32_t d = ssdsim__hw_op_die(hw, op);
    struct ssdsim__die *die = &hw->dies[d];
    op->next = SSDSIM__NONE;
    ssdsim__hw_die_append(hw, die, op->cls, i);
    if (die->cur == SSDSIM__NONE && !die->padding)
        return ssdsim__hw_die_dispatch(hw, d);
    return 0;
}

#endif /* SSDSIM_HW_H */
