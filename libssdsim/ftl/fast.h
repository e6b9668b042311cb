/* fast.h: the FAST hybrid log-block FTL (ftl/fast.c): its state, shared with the tests, and its
 * consistency check.
 *
 * Memory, all flat arrays: per logical block its data block (4 B); per logical page the place
 * of its newest copy (4 B); per physical page the logical page whose newest copy it holds (4 B);
 * per block its role, owner, write pointer, valid count and free-list link (17 B); per plane a
 * ring of its random-write log blocks, its sequential log slots and the copy state of the one
 * merge it runs (5 B per page of a block). About 9.5 bytes per logical page at op 0.28, like the
 * page FTL.
 */
#ifndef SSDSIM_FTL_FAST_H
#define SSDSIM_FTL_FAST_H

#include "common.h"
#include "ftl/env.h"
#include "ftl/ftlutil.h"

/* What a physical block is used for. */
enum ssdsim__fast_role {
    SSDSIM__FAST_FREE = 0, /* erased, on its plane's free list */
    SSDSIM__FAST_DATA,     /* the data block of logical block owner[b] */
    SSDSIM__FAST_RW,       /* a random-write (RW) log block: in its plane's ring, or the victim */
    SSDSIM__FAST_SW,       /* an open sequential-write (SW) log block of logical block owner[b] */
    SSDSIM__FAST_SW_MERGE, /* an SW log taken out of service: waiting for or in its partial
                              merge, or a source of a full merge of owner[b] */
    SSDSIM__FAST_DST,      /* the new data block a full merge of owner[b] is filling */
    SSDSIM__FAST_ERASING   /* erase submitted, not done yet */
};

enum ssdsim__fast_merge { SSDSIM__FAST_NO_MERGE = 0, SSDSIM__FAST_PARTIAL, SSDSIM__FAST_FULL };

struct ssdsim__fast_plane {
    uint32_t free_head, free_tail, n_free, n_erasing;
    /* RW log blocks, oldest first (ring of rw_max at rw_ring + plane * rw_max); the newest is
     * the one host writes append to. The victim being reclaimed has left the ring. */
    uint32_t rw_head, rw_n;
    uint32_t victim, victim_cursor; /* RW log being reclaimed (or NONE), next page to look at */
    uint32_t n_sw_blocks;           /* blocks in the SW and SW_MERGE roles */
    uint32_t swq_head, swq_n;       /* SW logs waiting for their partial merge (ring of sw_max) */
    /* the one merge the plane runs at a time */
    uint8_t m_kind; /* enum ssdsim__fast_merge */
    uint32_t m_lbn, m_dst, m_held, m_next;
    struct ssdsim__pending_fifo stall; /* host writes waiting for a log page */
    /* re-entrancy guards of the merge and unstall loops */
    bool kicking, kick_again, unstalling, unstall_again;
};

struct ssdsim__fast {
    ssdsim_ftl_env *env;
    uint64_t n_lpn, n_ppn, n_blocks;
    uint32_t n_lbn; /* logical blocks: ceil(n_lpn / ppb) */
    uint32_t ppb, bpp, n_planes, page_size;
    uint32_t rw_max, sw_max; /* per plane */
    uint32_t *stripe;        /* per index L % n_planes: the plane (channels first, then chips,
                                dies, planes), so consecutive logical blocks use different dies */
    uint32_t *l2p;           /* per logical page: newest copy, or NONE */
    uint32_t *p2l;           /* per physical page: the logical page it is the newest copy of */
    uint32_t *dmap;          /* per logical block: its data block, or NONE */
    uint8_t *role;           /* per block: enum ssdsim__fast_role */
    uint32_t *owner;         /* per block: logical block (DATA, SW, SW_MERGE, DST), else NONE */
    uint32_t *wptr;          /* per block: every programmed page is below; next page of a log */
    uint32_t *valid;         /* per block: pages holding a newest copy */
    uint32_t *free_next;     /* per block: free-list link */
    uint32_t *rw_ring;       /* per plane, rw_max entries */
    uint32_t *sw_open;       /* per plane, sw_max slots: open SW logs (NONE: empty slot) */
    uint64_t *sw_opened;     /* per slot: sw_clock when it was opened (the oldest is retired) */
    uint64_t sw_clock;
    uint32_t *swq;   /* per plane, sw_max entries */
    uint32_t *m_src; /* per plane, ppb entries: page offset k of the merge copies */
    uint8_t *m_st;   /* per plane, ppb entries: copy state of offset k */
    struct ssdsim__fast_plane *planes;
    uint64_t n_free_blocks;
    struct ssdsim__pending_pool rmw; /* read-modify-write reads in flight */
    /* merges by kind and the copies each kind made (inspection, tests) */
    uint64_t n_switch, n_partial, n_full, copies_partial, copies_full;
};

/* Plane of logical block L. */
static inline uint32_t ssdsim__fast_lbn_plane(const struct ssdsim__fast *f, uint32_t lbn)
{
    return f->stripe[lbn % f->n_planes];
}

/* Consistency check (the FTL's check method, tests): every mapped logical page's newest copy is
 * found exactly once, in a place the scheme allows (its data block or SW log at its own offset,
 * or an RW log, below the write pointer), valid counts add up, the block map and the data
 * blocks agree, and each plane's blocks by role agree with its free list, RW ring and victim,
 * SW slots, partial-merge queue and full merge. Returns 0, or SSDSIM_ESTATE with the first
 * broken rule in `why` (which may be NULL). */
int ssdsim__fast_check_why(const void *state, char *why, size_t len);
int ssdsim__fast_check(const void *state);

extern const ssdsim_ftl_ops ssdsim__ftl_fast_ops;

#endif /* SSDSIM_FTL_FAST_H */
