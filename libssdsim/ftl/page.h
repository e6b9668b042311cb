/* page.h: the page-mapped FTL (and its demand-paged variant, DFTL): state shared by page.c,
 * the block view given to GC and wear-leveling policies (gc/view.c), and the tests.
 *
 * All mapping metadata is in flat arrays: l2p (uint32 per logical page), p2l (uint32 per
 * physical page, meaningful while the page's bit in `live` says it holds valid data), and per
 * block its valid count, state and ages. At 4 KiB pages and op 0.28 that is about 9.7 bytes per
 * logical page. Each plane has write frontiers (open blocks): one for host writes, one for hot
 * host writes when hot/cold separation is on, one for GC and wear-leveling copies unless
 * gc.separate is off; with FDP a host and a GC frontier per placement handle (ftl/page_fdp.c).
 */
#ifndef SSDSIM_FTL_PAGE_H
#define SSDSIM_FTL_PAGE_H

#include "common.h"
#include "engine/rng.h"
#include "ftl/env.h"
#include "ftl/ftlutil.h"
#include "gc/gc.h"
#include "udiv.h"

#define SSDSIM__NONE32 UINT32_MAX

enum ssdsim__block_state { SSDSIM__BLK_FREE, SSDSIM__BLK_OPEN, SSDSIM__BLK_CLOSED,
                           SSDSIM__BLK_VICTIM,
                           SSDSIM__BLK_SLC, /* in SLC mode (ftl/page_slc.c): a static block,
                                              or a dynamic one until it is folded */
                           SSDSIM__BLK_BAD /* retired: a factory or grown bad block
                                              (rel/fault.h), never used again */ };

/* The frontiers every plane has (open or not). With FDP (ftl/page_fdp.c) placement handle 0
 * writes to FR_HOST and FR_GC, and handle h > 0 to two more after these: its host frontier
 * SSDSIM__N_FRONTIERS + 2(h-1) and its GC frontier one above (f->n_fr frontiers in all). */
enum ssdsim__frontier { SSDSIM__FR_HOST, SSDSIM__FR_HOT, SSDSIM__FR_GC, SSDSIM__FR_GC_HOT,
                        SSDSIM__FR_MAP,
                        SSDSIM__N_FRONTIERS };

/* What a flash operation of the page FTL is for: the top byte of its cookie (ftl/ftlutil.h). */
enum ssdsim__page_tag {
    SSDSIM__PTAG_HOST_READ = 1, /* low: io, mid: bytes */
    SSDSIM__PTAG_HOST_PROG,     /* low: io */
    SSDSIM__PTAG_RMW_READ,      /* low: rmw pool index */
    SSDSIM__PTAG_GC_READ,       /* low: ppn being copied */
    SSDSIM__PTAG_GC_PROG,       /* low: plane */
    SSDSIM__PTAG_GC_ERASE,      /* low: plane */
    SSDSIM__PTAG_MAP_READ,      /* DFTL: low: translation page; mid: 1 for a write-back */
    SSDSIM__PTAG_MAP_PROG,      /* DFTL: translation page written */
    SSDSIM__PTAG_SLC_READ,      /* SLC cache: fold read; low: ppn being folded */
    SSDSIM__PTAG_SLC_PROG,      /* SLC cache: fold program; low: plane */
    SSDSIM__PTAG_SLC_ERASE,     /* SLC cache: folded block erased; low: plane */
    SSDSIM__PTAG_PARITY_PROG,   /* RAIN parity page written (ftl/page_parity.c) */
    SSDSIM__PTAG_RECON_READ,    /* a stripe page read to reconstruct one of a failed die
                                   (rel/diefail.c); low: its reconstruction */
    SSDSIM__PTAG_REBUILD_PROG,  /* a page rebuilt off a failed die written (rel/diefail.c) */
    SSDSIM__PTAG_GC_BATCH,      /* fast-forward: every copy read of a victim, queued as one
                                   (page_gc.c's reclaim); low: plane */
};

/* The SLC cache (ftl/page_slc.c), per plane: the open SLC block, the static blocks erased and
 * ready, the blocks written full and waiting to be folded (oldest first; both lists linked
 * through the FTL's free_next, which only free blocks use otherwise), and the block being
 * folded. */
struct ssdsim__slc_plane {
    uint32_t blk, ptr;          /* open SLC block (NONE) and its next page */
    uint32_t st_free, n_st_free; /* static blocks ready: list head and count */
    uint32_t full_head, full_tail, n_full;
    uint32_t victim;            /* block being folded, or NONE */
    uint32_t victim_pages;      /* pages written in it */
    uint32_t reads;             /* its fold reads in flight */
    bool fg;                    /* the fold is foreground GC's (its copies to the GC frontier) */
};

struct ssdsim__slc {
    uint32_t pages;        /* pages a block holds in SLC mode: pages_per_block / bits per cell */
    uint32_t n_static;     /* static blocks per plane */
    uint64_t dyn_max;      /* the dynamic cache's cap, blocks */
    uint64_t dyn_blocks;   /* dynamic blocks in SLC mode now (open, full or being folded) */
    uint64_t valid;        /* valid pages in SLC blocks */
    bool dyn_ok;           /* one more dynamic block may be opened (for the write being placed) */
    bool idle;             /* folding may start */
    bool full;             /* a cliff episode is on: the last host write found the cache full */
    uint64_t full_last_ns; /* time of the episode's last such write */
    struct ssdsim__slc_plane *pl;
};

/* Why a plane's victim is being collected. */
enum ssdsim__reclaim { SSDSIM__RECLAIM_FG, SSDSIM__RECLAIM_BG, SSDSIM__RECLAIM_WL,
                       SSDSIM__RECLAIM_READ /* read reclaim (rel/reclaim.c) */ };

struct ssdsim__plane {
    uint32_t free_head, free_tail, n_free;
    uint32_t *blk; /* open block of each of the FTL's n_fr frontiers, or NONE */
    uint32_t *ptr; /* next page index in it (== ppb: none open) */
    uint32_t victim;                   /* block being collected, or NONE */
    uint32_t gc_reads;                 /* copy reads in flight for the victim */
    uint32_t gc_scan;                  /* next page of the victim to look at (== ppb: all
                                          its copy reads issued) */
    uint64_t gc_wait_ns;               /* paced GC: when the event that issues the next copy
                                          read runs (0: none pending) */
    uint8_t reclaim;                   /* enum ssdsim__reclaim of the victim */
    uint8_t gc_hold;                   /* paced superblock collection: this member's scan
                                          holds the collection open (page_super.c) */
    uint8_t gc_paused;                 /* gc.bg_preempt: the background victim's next copy
                                          waits for idle time or foreground need */
    uint8_t gc_starved;                /* below the low watermark when foreground GC found no
                                          candidate with garbage: GC starts once an
                                          overwrite or a trim elsewhere gives it some
                                          (ssdsim__page_gc_kick_starved) */
    uint32_t wl_pending;               /* block wear leveling asked to move, or NONE */
    uint32_t rr_pending;               /* block read reclaim asked to move, or NONE */
    uint32_t serial;                   /* of the current victim (DFTL batches per victim) */
    uint32_t n_gc_tps;                 /* DFTL: translation pages the victim's moves updated */
    uint32_t bg_victims;               /* background victims started in this idle period */
    double gc_ratio;                   /* gc.throttle: copies per host unit of the foreground
                                          victim, v / (units per block - v) (0: no throttle) */
    double gc_debt;                    /* gc.throttle: copies owed before the plane takes
                                          another host unit (page_gc.c) */
};

/* DFTL (Gupta et al., ASPLOS 2009): the mapping table lives in flash, in translation pages of
 * page_size / 4 entries; the global translation directory (GTD: where each translation page
 * is) is in DRAM, and so is a cache of entries (the CMT, cmt_entries of them, LRU). A request
 * whose entry is not cached waits for its translation page to be read; evicting a dirty entry
 * writes its translation page back (read, then program a new version), and every other dirty
 * entry of that page is written with it (DFTL's batch update). GC that moves data whose entry is
 * not cached updates its translation page the same way, once per page per victim, when the
 * victim's last copy is done (the moves are batched as DFTL does after a block). Translation
 * pages are pages like any other: mapped in the same arrays with "logical" numbers above the
 * data pages (so l2p beyond n_lpn is the GTD), written to their own frontier, collected by the
 * same GC. The simulator still keeps the full l2p array as the ground truth; the CMT decides
 * what costs flash traffic and time. */
struct ssdsim__dftl_wait {
    uint32_t io, lpn, bytes, next;
    uint8_t write;
};

struct ssdsim__cmt {
    uint32_t cap, n;
    uint32_t *slot_of;      /* per data lpn: CMT slot, or NONE */
    uint32_t *lpn;          /* per slot */
    uint32_t *prev, *next;  /* per slot: LRU list, head = most recently used */
    uint32_t *tp_prev, *tp_next; /* per slot: list of the cached slots of its translation page */
    uint8_t *dirty;         /* per slot */
    uint32_t head, tail;
    uint32_t epp;           /* entries per translation page */
    uint64_t n_tpages;
    uint32_t *tp_slots;     /* per translation page: head of its cached slots, or NONE */
    uint32_t *tp_waiters;   /* per translation page: requests waiting for its load, or NONE */
    uint32_t *tp_stamp;     /* per translation page: GC victim serial that last updated it */
    uint32_t *gc_tps;       /* per plane, pages_per_block entries: the translation pages its
                               victim's moves updated, written back when the victim's last copy
                               is done (planes' n_gc_tps) */
    uint8_t *tp_pending;    /* per translation page: a write-back is read or queued, not yet
                               programmed (later updates ride on it) */
    uint32_t gc_serial;
    uint32_t *shadow;       /* consistency checks only (ftl/page_check.c): per data lpn, the
                               entry as the newest programmed version of its translation page
                               holds it; NULL until a check starts it on a device whose
                               translation pages were never written */
    struct ssdsim__dftl_wait *wait; /* slots of the index pool wait_pool (ipool.h) */
    struct ssdsim__ipool wait_pool;
};

/* Hints page_prefetch remembers: during fast-forward it loads the `live` word of the page it
 * was given this many hints before (page.c). */
#define SSDSIM__PF_HIST 8

struct ssdsim__ftl {
    ssdsim_ftl_env *env;
    const ssdsim_geometry *geo;
    bool dftl;
    uint64_t n_lpn;  /* data logical pages */
    uint64_t n_map;  /* entries in l2p: data pages, plus translation pages (DFTL) */
    uint64_t n_ppn;
    uint32_t ppb, bpp, n_planes, ppd, n_dies, page_size;
    uint32_t gc_read_bytes; /* ssdsim__page_gc_read_bytes, kept: a GC read asked the model */
    struct ssdsim__udiv div_ppb, div_bpp; /* ppb, bpp as divisors (udiv.h), for the hot path */
    uint32_t *l2p;
    uint32_t *p2l;
    /* a bit per physical page, set while it holds valid data (p2l names its logical page):
     * an overwrite clears the old page's bit, not its p2l entry, as the bitmap is 32 times
     * smaller than p2l and stays in the caches where a store to p2l missed on every overwrite
     * (ssdsim__page_p2l reads both; page_int.h's map and invalidate keep them) */
    uint64_t *live;
    /* the logical pages page_prefetch was last given, the latest at pf_n - 1 (mod
     * SSDSIM__PF_HIST; UINT64_MAX: none) */
    uint64_t pf_hist[SSDSIM__PF_HIST];
    uint32_t pf_n;
    uint16_t *valid; /* per block */
    uint8_t *state;  /* per block */
    uint32_t *free_next;
    /* flash.multiplane_same_block (page_place.c's take_paired): a free block's predecessor on
     * its plane's free list (NONE at the head), so that the block of a given index leaves the
     * list in O(1); NULL otherwise. And per die, a FIFO of the block indices that were free on
     * every plane of the die when listed (pair_next, by die x blocks per plane + index:
     * the next, NONE at the tail, SSDSIM__PAIR_OFF when not listed; pair_head and pair_tail
     * per die), from which a plane that leads takes its block */
    uint32_t *free_prev;
    uint32_t *pair_next, *pair_head, *pair_tail;
    uint64_t *closed_at, *modified_at; /* per block, on the write clock */
    struct ssdsim__plane *planes;
    uint32_t *die_plane_cursor;
    /* gc.throttle with stripe placement and units of a whole page: per die, its planes that owe
     * no GC copies, and a bitmap over the striping order of the dies with at least one (NULL
     * otherwise). A plane that owes copies takes no whole host page, so choose_stripe tries
     * only the dies marked (page_place.c; ssdsim__page_set_debt keeps both in step with the
     * planes' gc_debt). */
    uint16_t *die_nodebt;
    uint64_t *stripe_nodebt;
    uint32_t die_cursor;
    int placement;          /* enum ssdsim__placement (ftl.placement) */
    bool fg_blocks_die;     /* gc.fg_blocks_die: host reads queue in order behind foreground GC */
    bool throttle;          /* gc.throttle: host writes go in proportion to foreground GC's
                               copies on their plane (page_gc.c) */
    bool gc_paced;          /* GC copies cost firmware time (controller.fw_gc_page_us): a
                               plane's next copy read waits for the firmware (page_gc.c) */
    uint32_t n_channels;
    uint32_t stripe_cursor; /* placement "stripe": next index in the striping order */
    uint32_t spp; /* mapping units per flash page (hw/unit.c), 1 unless units are smaller */
    uint32_t n_fr;        /* frontiers per plane: SSDSIM__N_FRONTIERS, more with FDP */
    uint32_t *fr_mem;     /* the planes' blk and ptr arrays, n_fr each, and unit_plane */
    uint32_t *unit_plane; /* per frontier, spp > 1: the plane whose frontier took the last unit
                             (page_place.c) */
    uint64_t n_free_blocks;
    struct ssdsim__cands cands;
    struct ssdsim__pending_fifo stall; /* stalled host (and DFTL translation) writes */
    struct ssdsim__pending_pool rmw;   /* read-modify-write reads in flight */
    /* policies */
    const ssdsim_gc_ops *gc;
    void *gc_state;
    const ssdsim_wl_ops *wl;
    void *wl_state;
    struct ssdsim__rng policy_rng;
    uint32_t gc_min, gc_target;
    uint32_t n_starved;     /* planes whose gc_starved is set */
    uint32_t bg_target;     /* background GC works up to this many free blocks per plane */
    uint32_t bg_max;        /* background victims per plane per idle period (0: no limit) */
    bool bg_preempt;        /* gc.bg_preempt with paced GC: a background victim's next copy
                               waits while the host is active (page_gc.c) */
    uint32_t gc_reserve; /* free blocks host writes never take (ftl/reserve.c) */
    uint32_t open;       /* open frontiers per plane for data (not DFTL's map frontier) */
    bool idle;       /* background GC may run */
    bool hot_cold, separate;
    uint64_t hot_window_pages;
    uint32_t *host_written_at; /* hot/cold only: per lpn, host write clock (mod 2^32) of its
                                  last host write; 4 bytes per logical page */
    struct ssdsim__cmt cmt;
    uint64_t n_valid;          /* valid pages on the device (map and invalidate keep it) */
    struct ssdsim__slc *slc;   /* the SLC cache, or NULL when the model has none */
    struct ssdsim__parity *parity; /* RAIN stripes (ftl/page_parity.c); NULL: ftl.parity_group 0 */
    struct ssdsim__fdp *fdp;       /* FDP placement handles (ftl/page_fdp.c); NULL: fdp off */
    struct ssdsim__diefail *df;    /* a failed die (rel/diefail.c); NULL: none */
    struct ssdsim__super *sb;      /* superblocks (ftl/page_super.c): with parity only; NULL:
                                      blocks are opened and collected one by one */
    uint32_t *valid32;             /* the superblock view only (ftl/page_super.c): per
                                      "block" (superblock) valid counts, wider than valid's */
    bool plain; /* no DFTL, SLC cache, FDP, RAIN, hot/cold separation or gc.throttle; "idle"
                   placement of units of a whole page (ftl/page_place.c's short paths) */
};

struct ssdsim__parity;
struct ssdsim__fdp;
struct ssdsim__super;

/* The logical page that physical page `ppn` holds, or SSDSIM__NONE32 when it holds no valid
 * data. */
static inline uint32_t ssdsim__page_p2l(const struct ssdsim__ftl *f, uint64_t ppn)
{
    return f->live[ppn >> 6] >> (ppn & 63) & 1 ? f->p2l[ppn] : SSDSIM__NONE32;
}

/* The page FTL's view of its blocks for policies (gc/view.c). */
static inline const ssdsim_view *ssdsim__page_view(const struct ssdsim__ftl *f)
{
    return (const ssdsim_view *)f;
}

/* Consistency check of every structure (ftl/page_check.c; the FTL's check method, tests):
 * 0 when consistent, else SSDSIM_ESTATE with the first broken invariant in `why` (which may be
 * NULL). Not const: a DFTL's first check starts the shadow of its translation pages. */
int ssdsim__page_check_why(struct ssdsim__ftl *f, char *why, size_t len);
/* "page FTL check: " and the message into why (len bytes; page_check.c, page_super.c):
 * returns SSDSIM_ESTATE */
int ssdsim__page_check_fail(char *why, size_t len, const char *fmt, ...) SSDSIM__PRINTF(3, 4);
static inline int ssdsim__page_check(const struct ssdsim__ftl *f)
{
    return ssdsim__page_check_why((struct ssdsim__ftl *)f, NULL, 0);
}
int ssdsim__page_check_method(void *state, char *why, size_t len);
/* The superblocks' part of it (ftl/page_super.c), and whether the superblock being collected
 * has its members' erases in flight. */
int ssdsim__page_sb_check(const struct ssdsim__ftl *f, char *why, size_t len);
bool ssdsim__page_sb_erasing(const struct ssdsim__ftl *f);
/* The SLC cache's part of it (ftl/page_slc.c): the pages of SLC block b that may hold data,
 * and the cache's own structures. */
uint32_t ssdsim__page_slc_written(const struct ssdsim__ftl *f, uint32_t b);
/* The SLC cache of the FTL behind `env` (the page FTL or DFTL): pages written in SLC mode not
 * yet folded, and the pages it can hold now. False (nothing set) for any other FTL, or none. */
bool ssdsim__page_slc_usage(const ssdsim_ftl_env *env, uint64_t *used, uint64_t *capacity);
/* A measurement starts (stats.c): a cliff episode going on is not carried into it. */
void ssdsim__page_slc_measure(const ssdsim_ftl_env *env);
int ssdsim__page_slc_check(const struct ssdsim__ftl *f, char *why, size_t len);
/* FDP's (ftl/page_fdp.c): with persistent isolation, no block ever took data of a handle
 * other than the one whose frontier opened it. */
int ssdsim__page_fdp_check(const struct ssdsim__ftl *f, char *why, size_t len);
/* FDP's Reclaim Unit Handle Update of `placement` (group x handles + handle) on the page FTL
 * behind `env` (ftl/page_fdp.c): 0, or SSDSIM_EINVAL with why. */
int ssdsim__page_fdp_ruh_update_env(ssdsim_ftl_env *env, uint32_t placement, char *why,
                                    size_t len);

extern const ssdsim_ftl_ops ssdsim__ftl_dftl_ops;

/* Whether the FTL behind `env` is the page FTL or DFTL (its state a struct ssdsim__ftl). */
bool ssdsim__page_runs(const ssdsim_ftl_env *env);

/* Whether the page FTL or DFTL behind `env` is collecting garbage to free blocks: some plane
 * has a foreground or background victim whose copies go on (not one paused by gc.bg_preempt;
 * not read reclaim nor wear leveling, which reads themselves keep calling for). False for any
 * other FTL (page_gc.c). */
bool ssdsim__page_gc_running(const ssdsim_ftl_env *env);

/* Read reclaim (rel/reclaim.c): when `env` runs the page FTL or DFTL and has bit errors, give
 * rel the FTL's hook that moves a given block (ftl/page_gc.c). */
void ssdsim__page_rel_hook(ssdsim_ftl_env *env);

#endif /* SSDSIM_FTL_PAGE_H */
