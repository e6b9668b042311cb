/* page_super.c: superblocks, the way RAIN drives (Micron's P320h, Fusion-io's Adaptive
 * FlashBack) keep a stripe's parity exactly as long as its data. With ftl.parity_group the page
 * FTL opens and collects blocks by superblock, not one by one: superblock k is block k of every
 * plane (its members; a bad block, retired block or a failed die's plane is simply not one).
 * Without parity none of this runs (f->sb is NULL).
 *
 * Writing. Each writer (one per frontier: host, hot host, GC, hot GC, as ftl/page_place.c has
 * them per plane) fills an open superblock of its own, slot by slot in a fixed order: page row
 * by page row, and within a row across the dies in the striping order of ftl.placement "stripe"
 * (every channel in turn), first plane of each die first, the order turned by one place each
 * row so that the parity pages move from die to die (RAID-5's rotation). Every program, host
 * page, GC or
 * wear-leveling copy, rebuilt page and parity page, takes the writer's next slot, so the dies
 * take turns whatever the workload and consecutive slots are on distinct dies. Before a slot is
 * given a data page the writer decides what it is (settle): the parity page of its open stripe
 * (ftl/page_parity.c) when the stripe has g - 1 data pages, or when the slot after it could not
 * join the stripe (its die already in it, or the superblock ends there), so that a stripe never
 * holds two pages of a die and never crosses superblocks; a lone last slot of a superblock that
 * would start a stripe it cannot end is left unwritten. On a whole superblock of D dies that is
 * g - 1 data pages and a parity page in every g slots; members missing (bad blocks, a failed
 * plane) give shorter stripes where the die order repeats. A superblock whose live members span
 * fewer dies than g (a failed die when g is the drive's die count) is written without parity
 * (plain), as a RAID-5 with a failed member runs degraded: one failed die is modelled, and
 * stripes of fewer data pages would take more flash than the drive has spare.
 *
 * Space. A writer opens the oldest free superblock (the free superblocks are a FIFO, in the order
 * their erases ended: a wear leveler's choice of free block does not apply). Host writes never
 * take the last gc_reserve free superblocks (nor, while a victim is collected and the reserve is
 * reached, room in a superblock GC copies share): the rule ftl/page_place.c applies per plane,
 * per superblock here; the free blocks of every plane count the same superblocks.
 *
 * Collection. Foreground GC starts when the free superblocks fall below gc.free_blocks_min and
 * goes on to gc.free_blocks_target; background GC when idle up to its own watermark. The GC
 * policy (gc.policy) chooses among closed superblocks through the view of ssdsim/sys/gc.h: the
 * view given to it here shows one plane whose blocks are the superblocks (pages per block: the
 * superblock's slots; valid counts: its members' sum), kept in the same candidate structures as
 * blocks (gc/gc.h: valid-count buckets, close order, sampling array), so every policy works
 * unchanged and nothing is scanned. One superblock is collected at a time: every valid page of
 * every member is read at once (the reads spread over all dies), or, when GC copies cost
 * firmware time (paced GC, page_gc.c), each member's pages one at a time, the next when the
 * firmware has processed the last copy (ssdsim__page_sb_issue; a member's scan holds the
 * collection open until it has looked at every page); each page is copied as it returns into
 * the GC writer's superblock, and when the last copy's read is back every member is erased. A valid
 * page on a failed die is reconstructed from its stripe (rel/diefail.c) and copied like the
 * others. When the erases start, the stripes of the superblock end (their records are cleared:
 * ssdsim__page_parity_erased), a failed die's members (never erased) included. At a die
 * failure each writer moves off the die and writes its open stripe's parity at once where it
 * can (ssdsim__page_sb_die_failed). Wear leveling (a leveler's after_erase) and read reclaim
 * (rel/reclaim.c) name a block: its superblock is collected next. Fast preconditioning lays
 * superblocks out through the same settle (ssdsim__page_sb_install).
 */
#include "ftl/page_int.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A writer: the open superblock of one frontier and its current slot (the plane order[cur],
 * page row `row`), which is unwritten and can take a data page. */
struct ssdsim__sbw {
    uint32_t sb; /* NONE: none open */
    uint32_t cur, row;
    bool plain; /* its live members span fewer dies than a stripe: written without parity */
};

struct ssdsim__super {
    struct ssdsim__ftl v; /* the view GC policies see: one plane of superblocks (its
                             valid32, state, closed_at, modified_at, cands, free list) */
    ssdsim_geometry vgeo;
    struct ssdsim__plane vplane; /* the free superblocks: free_head, free_tail, n_free */
    uint32_t n;                  /* superblocks (blocks per plane) */
    uint32_t *order;             /* planes in slot order */
    uint32_t *pos;               /* its inverse: a plane's place in that order */
    uint32_t *data;              /* per superblock: data pages programmed in it */
    struct ssdsim__sbw *w;       /* one writer per frontier (f->n_fr: more with FDP's handles) */
    uint32_t victim;             /* superblock being collected, or NONE */
    uint32_t reads;              /* its copy reads and reconstructions in flight */
    uint32_t erases;             /* its members' erases not yet done */
    uint8_t reclaim;             /* enum ssdsim__reclaim */
    uint32_t wl_pending, rr_pending; /* superblocks wear leveling, read reclaim asked to move */
    uint32_t bg_victims;             /* background victims in this idle period */
};

static inline bool plane_dead(const struct ssdsim__ftl *f, uint32_t plane)
{
    return f->df && ssdsim__diefail_plane_dead(f, plane);
}

/* ---------------------------------------------------------------- set-up */

int ssdsim__page_sb_setup(struct ssdsim__ftl *f)
{
    struct ssdsim__super *S = calloc(1, sizeof *S);
    if (!S)
        return SSDSIM_ENOMEM;
    f->sb = S;
    /* GC chooses superblocks (the view's candidates below): the blocks' valid-count lists
     * would be kept for no one, at the cost of every overwrite (gc/gc.h) */
    ssdsim__cands_drop_buckets(&f->cands);
    uint32_t n = f->bpp, pages = f->n_planes * f->ppb;
    S->n = n;
    S->order = malloc(sizeof *S->order * f->n_planes);
    S->pos = malloc(sizeof *S->pos * f->n_planes);
    S->w = malloc(sizeof *S->w * f->n_fr);
    if (!S->w)
        return SSDSIM_ENOMEM;
    S->data = calloc(n, sizeof *S->data);
    struct ssdsim__ftl *v = &S->v;
    v->env = f->env;
    S->vgeo = *f->geo;
    S->vgeo.n_planes = 1;
    S->vgeo.blocks_per_plane = n;
    S->vgeo.pages_per_block = pages;
    S->vgeo.n_blocks = n;
    v->geo = &S->vgeo;
    v->ppb = pages;
    v->bpp = n;
    ssdsim__udiv_init(&v->div_ppb, pages);
    ssdsim__udiv_init(&v->div_bpp, n);
    v->n_planes = 1;
    v->planes = &S->vplane;
    v->policy_rng = f->policy_rng;
    v->valid32 = calloc(n, sizeof *v->valid32);
    v->state = calloc(n, sizeof *v->state);
    v->free_next = malloc(sizeof *v->free_next * n);
    v->closed_at = calloc(n, sizeof *v->closed_at);
    v->modified_at = calloc(n, sizeof *v->modified_at);
    if (!S->order || !S->pos || !S->data || !v->valid32 || !v->state || !v->free_next ||
        !v->closed_at || !v->modified_at || ssdsim__cands_init(&v->cands, 1, n, pages))
        return SSDSIM_ENOMEM;
    /* slot order: the k-th die of the striping order (every channel in turn, then the next die
     * of each: page_place.c's stripe_die), first planes first */
    uint32_t k = 0, dpc = f->n_dies / f->n_channels;
    for (uint32_t i = 0; i < f->ppd; i++)
        for (uint32_t j = 0; j < f->n_dies; j++)
            S->order[k++] = ((j % f->n_channels) * dpc + j / f->n_channels) * f->ppd + i;
    for (k = 0; k < f->n_planes; k++)
        S->pos[S->order[k]] = k;
    S->vplane.free_head = S->vplane.free_tail = NONE;
    for (uint32_t s = 0; s < n; s++) {
        bool any = false;
        for (uint32_t p = 0; p < f->n_planes && !any; p++)
            any = f->state[p * f->bpp + s] == SSDSIM__BLK_FREE;
        if (!any) {
            v->state[s] = SSDSIM__BLK_BAD; /* every member bad: never used */
            continue;
        }
        v->free_next[s] = NONE;
        if (S->vplane.free_tail == NONE)
            S->vplane.free_head = s;
        else
            v->free_next[S->vplane.free_tail] = s;
        S->vplane.free_tail = s;
        S->vplane.n_free++;
        v->state[s] = SSDSIM__BLK_FREE;
    }
    for (uint32_t fr = 0; fr < f->n_fr; fr++)
        S->w[fr].sb = NONE;
    S->victim = S->wl_pending = S->rr_pending = NONE;
    return 0;
}

void ssdsim__page_sb_free(struct ssdsim__ftl *f)
{
    struct ssdsim__super *S = f->sb;
    if (!S)
        return;
    free(S->order);
    free(S->pos);
    free(S->w);
    free(S->data);
    free(S->v.valid32);
    free(S->v.state);
    free(S->v.free_next);
    free(S->v.closed_at);
    free(S->v.modified_at);
    ssdsim__cands_fini(&S->v.cands);
    free(S);
    f->sb = NULL;
}

/* ---------------------------------------------------------------- valid counts */

void ssdsim__page_sb_mapped(struct ssdsim__ftl *f, uint32_t b)
{
    f->sb->v.valid32[b % f->bpp]++;
}

void ssdsim__page_sb_invalidated(struct ssdsim__ftl *f, uint32_t b)
{
    struct ssdsim__super *S = f->sb;
    uint32_t s = b % f->bpp;
    S->v.valid32[s]--;
    if (S->v.state[s] == SSDSIM__BLK_CLOSED) {
        S->v.modified_at[s] = f->env->programs_total;
        ssdsim__cands_dec(&S->v.cands, s, S->v.valid32[s]);
    }
}

/* ---------------------------------------------------------------- writing */

static inline bool live(const struct ssdsim__ftl *f, uint32_t s, uint32_t plane)
{
    return f->state[plane * f->bpp + s] == SSDSIM__BLK_OPEN && !plane_dead(f, plane);
}

/* The live slot of superblock s after (cur, row), in place: false at the superblock's end.
 * (cur = planes - 1, row = NONE) gives the first. */
/* The plane of slot c of row r: the slot order, turned by one place each row, so that the
 * stripes' parity pages move from die to die as in RAID-5. */
static inline uint32_t slot_plane(const struct ssdsim__ftl *f, uint32_t c, uint32_t r)
{
    return f->sb->order[(c + r) % f->n_planes];
}

static bool next_slot(const struct ssdsim__ftl *f, uint32_t s, uint32_t *cur, uint32_t *row)
{
    uint32_t c = *cur, r = *row;
    for (;;) {
        if (++c == f->n_planes) {
            c = 0;
            if (++r >= f->ppb)
                return false;
        }
        if (live(f, s, slot_plane(f, c, r))) {
            *cur = c;
            *row = r;
            return true;
        }
    }
}

/* A page's place in the slot order of its superblock (row x planes + column), and back: the
 * order stripes are written in (ftl/page_parity.c walks it). */
uint32_t ssdsim__page_sb_slot(const struct ssdsim__ftl *f, uint32_t ppn)
{
    uint32_t n = f->n_planes, row = ppn % f->ppb, plane = ppn / f->ppb / f->bpp;
    return row * n + (f->sb->pos[plane] + n - row % n) % n;
}

uint32_t ssdsim__page_sb_slot_ppn(const struct ssdsim__ftl *f, uint32_t s, uint32_t slot)
{
    uint32_t n = f->n_planes, row = slot / n;
    return (slot_plane(f, slot % n, row) * f->bpp + s) * f->ppb + row;
}

static inline uint32_t slot_ppn(const struct ssdsim__ftl *f, const struct ssdsim__sbw *w)
{
    return (slot_plane(f, w->cur, w->row) * f->bpp + w->sb) * f->ppb + w->row;
}

/* The dies superblock s has live open members on (a plane's die is plane / ppd: a die's planes
 * are adjacent). */
static uint32_t live_dies(const struct ssdsim__ftl *f, uint32_t s)
{
    uint32_t n = 0, last = NONE;
    for (uint32_t p = 0; p < f->n_planes; p++)
        if (p / f->ppd != last && live(f, s, p)) {
            n++;
            last = p / f->ppd;
        }
    return n;
}

/* gc.bg_preempt: is the victim a background one that may have yielded to the host? */
static inline bool paused_bg(const struct ssdsim__ftl *f)
{
    return f->bg_preempt && f->sb->reclaim == SSDSIM__RECLAIM_BG;
}

static void gc_check(struct ssdsim__ftl *f)
{
    struct ssdsim__super *S = f->sb;
    if (S->vplane.n_free < f->gc_min && (S->victim == NONE || paused_bg(f)))
        ssdsim__page_sb_gc_start(f, SSDSIM__RECLAIM_FG);
}

/* Writer fr's superblock is full: its members become closed blocks, it a GC candidate. */
static void close_sb(struct ssdsim__ftl *f, int fr)
{
    struct ssdsim__super *S = f->sb;
    struct ssdsim__sbw *w = &S->w[fr];
    uint32_t s = w->sb;
    for (uint32_t p = 0; p < f->n_planes; p++)
        if (f->state[p * f->bpp + s] == SSDSIM__BLK_OPEN)
            close_block(f, p * f->bpp + s);
    S->v.state[s] = SSDSIM__BLK_CLOSED;
    S->v.closed_at[s] = S->v.modified_at[s] = f->env->programs_total;
    ssdsim__cands_insert(&S->v.cands, s, S->v.valid32[s]);
    w->sb = NONE;
    if (ssdsim__page_parity_open(f, fr))
        ssdsim__page_parity_abandon(f, fr);
}

/* Decide what writer fr's current slot is: return when it is to take a data page; write the
 * open stripe's parity there, or leave it unwritten, and go on to the next slot otherwise. */
static void settle(struct ssdsim__ftl *f, int fr)
{
    struct ssdsim__super *S = f->sb;
    struct ssdsim__sbw *w = &S->w[fr];
    uint32_t g = f->parity->group;
    while (w->sb != NONE && !w->plain) {
        uint32_t die = slot_plane(f, w->cur, w->row) / f->ppd;
        uint32_t c = w->cur, r = w->row;
        bool more = next_slot(f, w->sb, &c, &r);
        uint32_t next_die = more ? slot_plane(f, c, r) / f->ppd : NONE;
        uint32_t n = ssdsim__page_parity_open(f, fr);
        if (n && ssdsim__page_parity_holds(f, fr, die)) {
            /* only where the superblock's live members are all on one die */
            ssdsim__page_parity_abandon(f, fr);
            n = 0;
        }
        if (n == 0) {
            if (more)
                return;
            /* the last slot alone would start a stripe it cannot end: left unwritten */
        } else if (n < g - 1 && more && next_die != die &&
                   !ssdsim__page_parity_holds(f, fr, next_die)) {
            return;
        } else {
            ssdsim__page_parity_write(f, fr, slot_ppn(f, w));
        }
        if (more) {
            w->cur = c;
            w->row = r;
        } else {
            close_sb(f, fr);
        }
    }
}

/* Open the oldest free superblock for writer fr: false when there is none. */
static bool open_sb(struct ssdsim__ftl *f, int fr)
{
    struct ssdsim__super *S = f->sb;
    struct ssdsim__sbw *w = &S->w[fr];
    while (S->vplane.n_free) {
        uint32_t s = S->vplane.free_head;
        S->vplane.free_head = S->v.free_next[s];
        if (S->vplane.free_head == NONE)
            S->vplane.free_tail = NONE;
        S->vplane.n_free--;
        uint32_t members = 0;
        for (uint32_t p = 0; p < f->n_planes; p++) {
            uint32_t b = p * f->bpp + s;
            if (f->state[b] == SSDSIM__BLK_FREE && !plane_dead(f, p)) {
                ssdsim__page_unlink_free(f, b);
                if (f->fdp)
                    ssdsim__page_fdp_opened(f, b, fr); /* reclaim units of fr's handle */
                members++;
            }
        }
        if (!members) {
            S->v.state[s] = SSDSIM__BLK_BAD; /* nothing left to write in it */
            continue;
        }
        S->v.state[s] = SSDSIM__BLK_OPEN;
        S->data[s] = 0;
        w->sb = s;
        w->plain = live_dies(f, s) < f->parity->group;
        w->cur = f->n_planes - 1;
        w->row = NONE;
        next_slot(f, s, &w->cur, &w->row);
        settle(f, fr);
        if (w->sb != NONE)
            return true;
    }
    return false;
}

bool ssdsim__page_sb_accepts(const struct ssdsim__ftl *f, int fr)
{
    const struct ssdsim__super *S = f->sb;
    if (S->vplane.n_free > gc_reserve(f))
        return true;
    bool gc_shares =
        !f->separate && (fr == SSDSIM__FR_HOST || (f->hot_cold && fr == SSDSIM__FR_HOT));
    if (S->victim != NONE && gc_shares)
        return false;
    return S->w[fr].sb != NONE;
}

/* The writer that takes a page for frontier fr: its own (opening a superblock when it has none),
 * or, with no free superblock left, another with room, GC's first (page_place.c's frontier_page
 * does the same between a plane's frontiers). -1: none. */
static int writer(struct ssdsim__ftl *f, int fr)
{
    struct ssdsim__super *S = f->sb;
    if (S->w[fr].sb != NONE || open_sb(f, fr))
        return fr;
    static const int order[] = {SSDSIM__FR_GC, SSDSIM__FR_GC_HOT, SSDSIM__FR_HOST, SSDSIM__FR_HOT,
                                SSDSIM__FR_MAP};
    for (size_t i = 0; i < SSDSIM__ARRAY_LEN(order); i++)
        if (S->w[order[i]].sb != NONE)
            return order[i];
    return -1;
}

void ssdsim__page_sb_program(struct ssdsim__ftl *f, int fr, uint32_t lpn, uint32_t old,
                             ssdsim_flash_purpose why, uint64_t ck)
{
    struct ssdsim__super *S = f->sb;
    int k = writer(f, fr);
    if (k < 0) {
        ssdsim_ftl_fail(f->env, SSDSIM_ESTATE, "page FTL: no superblock can take a page");
        return;
    }
    struct ssdsim__sbw *w = &S->w[k];
    uint32_t plane = slot_plane(f, w->cur, w->row), ppn = slot_ppn(f, w);
    map(f, lpn, ppn, old);
    if (f->fdp)
        ssdsim__page_fdp_programmed(f, k, lpn, ppn, why);
    S->data[w->sb]++;
    ssdsim_ftl_submit(f->env, SSDSIM_FLASH_PROGRAM, ppn, f->page_size, why, ck);
    if (!w->plain)
        ssdsim__page_parity_data(f, k, ppn, plane / f->ppd);
    if (next_slot(f, w->sb, &w->cur, &w->row))
        settle(f, k);
    else
        close_sb(f, k); /* (settle keeps a stripe's first page off the last slot) */
    gc_check(f);
}

/* ---------------------------------------------------------------- collection */

static void sb_erased(struct ssdsim__ftl *f);

/* Every copy is done: erase the victim's members (a failed die's are left as they are). */
static void erase_all(struct ssdsim__ftl *f)
{
    struct ssdsim__super *S = f->sb;
    uint32_t s = S->victim;
    ssdsim_flash_purpose why = S->reclaim == SSDSIM__RECLAIM_WL ? SSDSIM_FOR_WL : SSDSIM_FOR_GC;
    uint32_t n = 0;
    for (uint32_t p = 0; p < f->n_planes; p++) {
        struct ssdsim__plane *pl = &f->planes[p];
        uint32_t b = p * f->bpp + s;
        /* every copy is done: the stripes end now (a failed die's member is never erased) */
        if (f->state[b] != SSDSIM__BLK_BAD)
            ssdsim__page_parity_erased(f, b);
        if (pl->victim != b)
            continue;
        assert(f->valid[b] == 0);
        if (plane_dead(f, p)) { /* its die failed during the collection */
            pl->victim = NONE;
            f->state[b] = SSDSIM__BLK_CLOSED;
            f->closed_at[b] = f->modified_at[b] = f->env->programs_total;
            ssdsim__cands_insert(&f->cands, b, f->valid[b]);
            continue;
        }
        n++;
    }
    S->erases = n;
    for (uint32_t p = 0; p < f->n_planes; p++) {
        uint32_t b = p * f->bpp + s;
        if (f->planes[p].victim == b)
            ssdsim_ftl_submit(f->env, SSDSIM_FLASH_ERASE, b, 0, why, cookie(TAG_GC_ERASE, 0, p));
    }
    if (n == 0)
        sb_erased(f);
}

/* Collect superblock s: read every valid page of its members (reconstruct those of a failed
 * die); the copies are programmed as the reads return, then every member is erased. */
static void reclaim(struct ssdsim__ftl *f, uint32_t s, enum ssdsim__reclaim why)
{
    struct ssdsim__super *S = f->sb;
    ssdsim__cands_remove(&S->v.cands, s, S->v.valid32[s]);
    S->v.state[s] = SSDSIM__BLK_VICTIM;
    S->victim = s;
    S->reclaim = (uint8_t)why;
    S->reads = 1; /* held while the reads are submitted */
    if (why == SSDSIM__RECLAIM_BG)
        S->bg_victims++;
    ssdsim_flash_purpose purpose = why == SSDSIM__RECLAIM_WL ? SSDSIM_FOR_WL : SSDSIM_FOR_GC;
    /* The copies take the writer's next slots, on any die (copy()), so each page comes out to
     * the controller: copyback, which programs from the page register of the plane read, has
     * no same-plane program to serve. */
    uint32_t bytes = f->page_size;
    for (uint32_t p = 0; p < f->n_planes; p++) {
        uint32_t b = p * f->bpp + s;
        if (f->state[b] != SSDSIM__BLK_CLOSED)
            continue;
        bool dead = plane_dead(f, p);
        struct ssdsim__plane *pl = &f->planes[p];
        uint32_t valid = f->valid[b];
        if (!dead) {
            ssdsim__cands_remove(&f->cands, b, valid);
            f->state[b] = SSDSIM__BLK_VICTIM;
            pl->victim = b;
            pl->reclaim = (uint8_t)why;
            pl->gc_reads = 0;
            pl->gc_scan = f->ppb;
            pl->gc_paused = 0;
            if (why == SSDSIM__RECLAIM_FG)
                ssdsim_ftl_count(f->env, SSDSIM_CNT_GC_VICTIMS, 1);
            else if (why == SSDSIM__RECLAIM_BG)
                ssdsim_ftl_count(f->env, SSDSIM_CNT_GC_BG_VICTIMS, 1);
            if (f->gc_paced) {
                /* paced (page_gc.c): the member's pages are read one at a time; its scan
                 * holds the collection open until it has looked at every page */
                pl->gc_scan = 0;
                pl->gc_hold = 1;
                S->reads++;
                ssdsim__page_sb_issue(f, p);
                continue;
            }
        }
        uint32_t first = b * f->ppb, seen = 0;
        for (uint32_t i = 0; i < f->ppb && seen < valid; i++) {
            uint32_t lpn = p2l_get(f, first + i);
            if (lpn == NONE)
                continue;
            seen++;
            if (dead) {
                if (ssdsim__diefail_gc_page(f, first + i, lpn)) {
                    S->reads++;
                } else { /* lost (rel/diefail.c counts it): unmapped before the erase */
                    invalidate(f, first + i);
                    f->l2p[lpn] = NONE;
                }
                continue;
            }
            pl->gc_reads++;
            S->reads++;
            if (lpn < f->n_map)
                __builtin_prefetch(&f->l2p[lpn], 1, 3);
            ssdsim_ftl_submit(f->env, SSDSIM_FLASH_READ, first + i, bytes, purpose,
                              cookie(TAG_GC_READ, 0, first + i));
        }
    }
    if (--S->reads == 0)
        erase_all(f);
}

/* gc.bg_preempt: every member of the victim that yielded to the host goes on; with `fg`
 * (foreground GC needs the superblocks) as foreground GC's, every member, so that none yields
 * again. */
static void resume_all(struct ssdsim__ftl *f, bool fg)
{
    struct ssdsim__super *S = f->sb;
    if (fg) {
        S->reclaim = SSDSIM__RECLAIM_FG;
        for (uint32_t p = 0; p < f->n_planes; p++)
            if (f->planes[p].victim != NONE)
                f->planes[p].reclaim = SSDSIM__RECLAIM_FG;
    }
    for (uint32_t p = 0; p < f->n_planes; p++)
        ssdsim__page_gc_resume(f, p, false);
}

void ssdsim__page_sb_gc_start(struct ssdsim__ftl *f, enum ssdsim__reclaim why)
{
    struct ssdsim__super *S = f->sb;
    if (S->victim != NONE) {
        /* one victim at a time; a background one whose members yielded to the host goes on
         * when foreground GC is needed (gc.bg_preempt) */
        if (why == SSDSIM__RECLAIM_FG && paused_bg(f))
            resume_all(f, true);
        return;
    }
    uint32_t s = f->gc->select_victim(f->gc_state, ssdsim__page_view(&S->v), 0);
    if (s == NONE)
        return;
    if (s >= S->n || S->v.state[s] != SSDSIM__BLK_CLOSED) {
        char msg[160];
        snprintf(msg, sizeof msg, "GC policy '%s' chose superblock %u, which is not a candidate",
                 f->gc->name, s);
        ssdsim_ftl_fail(f->env, SSDSIM_ESTATE, msg);
        return;
    }
    if (S->v.valid32[s] >= S->data[s]) {
        /* it frees nothing but parity (page_gc.c: collected as chosen while another candidate
         * has garbage) */
        uint32_t g = ssdsim__cands_fewest_valid(&S->v.cands, 0);
        if (g == NONE || S->v.valid32[g] >= S->data[g])
            return;
    }
    reclaim(f, s, why);
}

/* Paced collection: read the next valid page of plane p's member, or, when none is left, end
 * its scan (releasing the hold it had on the collection). */
void ssdsim__page_sb_issue(struct ssdsim__ftl *f, uint32_t p)
{
    struct ssdsim__super *S = f->sb;
    struct ssdsim__plane *pl = &f->planes[p];
    if (ssdsim__page_bg_yields(f, pl, S->vplane.n_free)) {
        pl->gc_paused = 1; /* the member's next copy waits (gc.bg_preempt) */
        return;
    }
    if (ssdsim__page_gc_read_next(f, p)) {
        S->reads++;
        return;
    }
    if (pl->gc_hold) {
        pl->gc_hold = 0;
        if (--S->reads == 0)
            erase_all(f);
    }
}

/* Returns when the firmware ends the copy's task (0: no firmware time). */
static uint64_t copy(struct ssdsim__ftl *f, uint32_t old, uint32_t lpn)
{
    struct ssdsim__super *S = f->sb;
    bool wl = S->reclaim == SSDSIM__RECLAIM_WL;
    uint64_t fw_end =
        ssdsim__env_count_end(f->env, wl ? SSDSIM_CNT_WL_COPIES : SSDSIM_CNT_GC_COPIES, 1);
    if (S->reclaim == SSDSIM__RECLAIM_BG)
        ssdsim_ftl_count(f->env, SSDSIM_CNT_GC_BG_COPIES, 1);
    ssdsim__page_sb_program(f, ssdsim__page_gc_frontier(f, lpn), lpn, old,
                            wl ? SSDSIM_FOR_WL : SSDSIM_FOR_GC,
                            cookie(TAG_GC_PROG, 0, block_plane(f, old / f->ppb)));
    return fw_end;
}

void ssdsim__page_sb_read_done(struct ssdsim__ftl *f, uint32_t old)
{
    struct ssdsim__super *S = f->sb;
    uint32_t p = block_plane(f, old / f->ppb);
    struct ssdsim__plane *pl = &f->planes[p];
    pl->gc_reads--;
    uint32_t lpn = p2l_get(f, old);
    uint64_t fw_end = lpn != NONE ? copy(f, old, lpn) : 0;
    if (pl->gc_hold)
        ssdsim__page_gc_next(f, p, fw_end); /* paced: the member's next page, or its end */
    if (--S->reads == 0)
        erase_all(f);
}

void ssdsim__page_sb_rebuilt(struct ssdsim__ftl *f, uint32_t old, uint32_t lpn)
{
    struct ssdsim__super *S = f->sb;
    if (p2l_get(f, old) == lpn)
        copy(f, old, lpn);
    if (--S->reads == 0)
        erase_all(f);
}

static bool bg_wanted(const struct ssdsim__ftl *f)
{
    const struct ssdsim__super *S = f->sb;
    return S->vplane.n_free < f->bg_target && (!f->bg_max || S->bg_victims < f->bg_max);
}

/* Start the collection asked for in *pending (read reclaim or wear leveling), if none is under
 * way. */
static bool pending_start(struct ssdsim__ftl *f, uint32_t *pending, enum ssdsim__reclaim why)
{
    struct ssdsim__super *S = f->sb;
    uint32_t s = *pending;
    if (s == NONE || S->victim != NONE)
        return false;
    *pending = NONE;
    if (S->v.state[s] != SSDSIM__BLK_CLOSED || S->vplane.n_free == 0)
        return false;
    if (why == SSDSIM__RECLAIM_READ && f->env->hw->rel)
        ssdsim__rel_reclaim_started(f->env->hw->rel);
    reclaim(f, s, why);
    return true;
}

static bool rr_start(struct ssdsim__ftl *f)
{
    return pending_start(f, &f->sb->rr_pending, SSDSIM__RECLAIM_READ);
}

static bool wl_start(struct ssdsim__ftl *f)
{
    return pending_start(f, &f->sb->wl_pending, SSDSIM__RECLAIM_WL);
}

/* The victim's last member is erased: the superblock is free, and what comes next is decided
 * (page_gc.c's gc_erase_done, per superblock). */
static void sb_erased(struct ssdsim__ftl *f)
{
    struct ssdsim__super *S = f->sb;
    uint32_t s = S->victim;
    enum ssdsim__reclaim why = S->reclaim;
    S->victim = NONE;
    bool any = false;
    for (uint32_t p = 0; p < f->n_planes && !any; p++)
        any = f->state[p * f->bpp + s] == SSDSIM__BLK_FREE && !plane_dead(f, p);
    if (any) {
        S->v.free_next[s] = NONE;
        if (S->vplane.free_tail == NONE)
            S->vplane.free_head = s;
        else
            S->v.free_next[S->vplane.free_tail] = s;
        S->vplane.free_tail = s;
        S->vplane.n_free++;
        S->v.state[s] = SSDSIM__BLK_FREE;
    } else {
        S->v.state[s] = SSDSIM__BLK_BAD; /* no member left to write */
    }
    ssdsim__page_unstall(f);
    if (S->victim != NONE || wl_start(f) || rr_start(f))
        return;
    uint32_t n_free = S->vplane.n_free;
    if (n_free < f->gc_min || (n_free < f->gc_target && why == SSDSIM__RECLAIM_FG))
        ssdsim__page_sb_gc_start(f, SSDSIM__RECLAIM_FG);
    else if (f->idle && bg_wanted(f))
        ssdsim__page_sb_gc_start(f, SSDSIM__RECLAIM_BG);
}

void ssdsim__page_sb_erase_done(struct ssdsim__ftl *f, uint32_t plane)
{
    struct ssdsim__super *S = f->sb;
    struct ssdsim__plane *pl = &f->planes[plane];
    uint32_t b = pl->victim;
    pl->victim = NONE;
    uint32_t w = ssdsim__page_block_erased(f, b);
    if (w != NONE && S->wl_pending == NONE)
        S->wl_pending = w % f->bpp;
    if (--S->erases == 0)
        sb_erased(f);
}

void ssdsim__page_sb_idle(struct ssdsim__ftl *f)
{
    struct ssdsim__super *S = f->sb;
    S->bg_victims = 0; /* a new idle period, a new budget */
    resume_all(f, false); /* a background victim whose members yielded to the host */
    if (S->victim == NONE && bg_wanted(f))
        ssdsim__page_sb_gc_start(f, SSDSIM__RECLAIM_BG);
}

int ssdsim__page_sb_read_reclaim(struct ssdsim__ftl *f, uint32_t b)
{
    struct ssdsim__super *S = f->sb;
    if (f->state[b] != SSDSIM__BLK_CLOSED || S->v.state[b % f->bpp] != SSDSIM__BLK_CLOSED ||
        S->rr_pending != NONE)
        return SSDSIM_EINVAL;
    S->rr_pending = b % f->bpp;
    rr_start(f);
    return 0;
}

bool ssdsim__page_sb_erasing(const struct ssdsim__ftl *f)
{
    return f->sb->victim != NONE && f->sb->reads == 0;
}

/* A die (or plane) has just failed: each writer moves off it, and writes its open stripe's
 * parity now where it can (the controller holds the stripe's XOR), so that the stripe's page on
 * the failed die can be given back at once. */
void ssdsim__page_sb_die_failed(struct ssdsim__ftl *f)
{
    struct ssdsim__super *S = f->sb;
    for (int fr = 0; fr < (int)f->n_fr; fr++) {
        struct ssdsim__sbw *w = &S->w[fr];
        if (w->sb == NONE)
            continue;
        if (!live(f, w->sb, slot_plane(f, w->cur, w->row)) &&
            !next_slot(f, w->sb, &w->cur, &w->row)) {
            close_sb(f, fr);
            continue;
        }
        uint32_t die = slot_plane(f, w->cur, w->row) / f->ppd;
        if (!w->plain && ssdsim__page_parity_open(f, fr) &&
            !ssdsim__page_parity_holds(f, fr, die)) {
            ssdsim__page_parity_write(f, fr, slot_ppn(f, w));
            if (!next_slot(f, w->sb, &w->cur, &w->row)) {
                close_sb(f, fr);
                continue;
            }
        }
        if (!w->plain && live_dies(f, w->sb) < f->parity->group) {
            ssdsim__page_parity_abandon(f, fr);
            w->plain = true; /* fewer dies left than a stripe needs */
        }
        settle(f, fr);
    }
}

/* ---------------------------------------------------------------- fast preconditioning */

struct sb_age {
    uint64_t order;
    uint32_t s;
};

static int sb_age_cmp(const void *a, const void *b)
{
    const struct sb_age *x = a, *y = b;
    if (x->order != y->order)
        return x->order < y->order ? -1 : 1;
    return x->s < y->s ? -1 : x->s > y->s;
}

/* Fast preconditioning (page_install.c) with superblocks: a superblock is written when the image
 * writes any of its blocks, and holds their valid pages together; the written superblocks are
 * laid out oldest first as a writer fills them (the same slots, stripes and parity, recorded and
 * sealed but not programmed), their valid pages in their first data slots (a superblock whose
 * data slots cannot hold its share passes the rest to the next, and the last to a free one).
 * p2l gets the valid pages' numbers 0, 1, ... in that order: the caller deals the logical pages
 * to them. The free superblocks and blocks are listed again in address order. */
int ssdsim__page_sb_install(struct ssdsim__ftl *f, const ssdsim_ftl_image *img, char *errbuf,
                            size_t errlen)
{
    struct ssdsim__super *S = f->sb;
    const uint32_t n = S->n, pages = S->v.ppb;
    struct sb_age *ages = malloc(sizeof *ages * n);
    uint64_t *want = calloc(n, sizeof *want);
    uint32_t *laid_out = malloc(sizeof *laid_out * n); /* superblocks in the order laid out */
    if (!ages || !want || !laid_out) {
        free(ages);
        free(want);
        free(laid_out);
        snprintf(errbuf, errlen, "out of memory");
        return SSDSIM_ENOMEM;
    }
    uint32_t n_closed = 0;
    uint64_t total = 0;
    int rc = 0;
    for (uint32_t s = 0; s < n && !rc; s++) {
        bool written = false;
        uint64_t order = 0;
        for (uint32_t p = 0; p < f->n_planes; p++) {
            uint64_t b = (uint64_t)p * f->bpp + s;
            uint32_t v = img->valid[b];
            if (v == SSDSIM_IMAGE_FREE)
                continue;
            if (v > f->ppb) {
                snprintf(errbuf, errlen,
                         "page FTL: block %llu holds %u valid pages; a block has %u pages",
                         (unsigned long long)b, v, f->ppb);
                rc = SSDSIM_EINVAL;
                break;
            }
            written = true;
            want[s] += v;
            if (img->closed_order && img->closed_order[b] > order)
                order = img->closed_order[b];
        }
        if (written) {
            ages[n_closed++] = (struct sb_age){img->closed_order ? order : s, s};
            total += want[s];
        }
    }
    if (!rc && total != f->n_lpn) {
        snprintf(errbuf, errlen,
                 "page FTL: the image holds %llu valid pages in all; the device maps %llu "
                 "logical pages, each exactly once",
                 (unsigned long long)total, (unsigned long long)f->n_lpn);
        rc = SSDSIM_EINVAL;
    }
    if (!rc && n - n_closed <= gc_reserve(f)) {
        snprintf(errbuf, errlen,
                 "page FTL: the image leaves %u of %u superblocks free; host writes need more "
                 "than the GC reserve (%u)",
                 n - n_closed, n, gc_reserve(f));
        rc = SSDSIM_EINVAL;
    }
    uint64_t clock = f->env->programs_total;
    if (!rc && clock < (uint64_t)n_closed * pages) {
        snprintf(errbuf, errlen, "page FTL: the write clock (%llu) is behind the image",
                 (unsigned long long)clock);
        rc = SSDSIM_EINVAL;
    }
    if (rc) {
        free(ages);
        free(want);
        free(laid_out);
        return rc;
    }
    qsort(ages, n_closed, sizeof *ages, sb_age_cmp);

    f->parity->dry = true;
    const int fr = SSDSIM__FR_HOST;
    struct ssdsim__sbw *w = &S->w[fr];
    uint64_t k = 0, carry = 0;
    uint32_t laid = 0, spare_next = 0, n_free = n - n_closed;
    for (uint32_t r = 0; r < n_closed || carry; r++) {
        uint32_t s;
        uint64_t v = carry;
        if (r < n_closed) {
            s = ages[r].s;
            v += want[s];
        } else { /* the rest goes to a free superblock */
            while (spare_next < n && S->v.state[spare_next] != SSDSIM__BLK_FREE)
                spare_next++;
            if (spare_next == n || n_free <= gc_reserve(f) + 1) {
                snprintf(errbuf, errlen,
                         "page FTL: the image's written superblocks cannot hold its %llu valid "
                         "pages with parity (%llu left over)",
                         (unsigned long long)total, (unsigned long long)carry);
                rc = SSDSIM_EINVAL;
                break;
            }
            s = spare_next;
            n_free--;
        }
        for (uint32_t p = 0; p < f->n_planes; p++)
            if (f->state[p * f->bpp + s] == SSDSIM__BLK_FREE)
                f->state[p * f->bpp + s] = SSDSIM__BLK_OPEN;
        S->v.state[s] = SSDSIM__BLK_OPEN;
        S->data[s] = 0;
        w->sb = s;
        w->cur = f->n_planes - 1;
        w->row = NONE;
        next_slot(f, s, &w->cur, &w->row);
        w->plain = live_dies(f, s) < f->parity->group;
        settle(f, fr);
        uint64_t placed = 0;
        while (w->sb == s) {
            uint32_t plane = slot_plane(f, w->cur, w->row), ppn = slot_ppn(f, w);
            if (placed < v) {
                p2l_set(f, ppn, (uint32_t)k++);
                f->valid[ppn / f->ppb]++;
                S->v.valid32[s]++;
                placed++;
            }
            S->data[s]++;
            if (!w->plain)
                ssdsim__page_parity_data(f, fr, ppn, plane / f->ppd);
            if (next_slot(f, s, &w->cur, &w->row))
                settle(f, fr);
            else
                close_sb(f, fr);
        }
        carry = v - placed;
        laid_out[laid++] = s;
    }
    f->parity->dry = false;
    /* ages: the k-th newest superblock closed k superblocks' worth of programs ago (as
     * page_install.c dates blocks), every member with it */
    for (uint32_t r = 0; r < laid; r++) {
        uint32_t s = laid_out[r];
        uint64_t at = clock - (uint64_t)(laid - 1 - r) * pages;
        S->v.closed_at[s] = S->v.modified_at[s] = at;
        for (uint32_t p = 0; p < f->n_planes; p++)
            f->closed_at[p * f->bpp + s] = f->modified_at[p * f->bpp + s] = at;
    }
    /* free lists: of blocks per plane, of superblocks */
    for (uint32_t p = 0; p < f->n_planes; p++) {
        f->planes[p].free_head = f->planes[p].free_tail = NONE;
        f->planes[p].n_free = 0;
    }
    f->n_free_blocks = 0;
    for (uint64_t b = 0; b < f->geo->n_blocks; b++)
        if (f->state[b] == SSDSIM__BLK_FREE)
            put_free_block(f, (uint32_t)b);
    S->vplane.free_head = S->vplane.free_tail = NONE;
    S->vplane.n_free = 0;
    for (uint32_t s = 0; s < n; s++) {
        if (S->v.state[s] != SSDSIM__BLK_FREE)
            continue;
        S->v.free_next[s] = NONE;
        if (S->vplane.free_tail == NONE)
            S->vplane.free_head = s;
        else
            S->v.free_next[S->vplane.free_tail] = s;
        S->vplane.free_tail = s;
        S->vplane.n_free++;
    }
    free(ages);
    free(want);
    free(laid_out);
    if (!rc && k != f->n_lpn) {
        snprintf(errbuf, errlen, "page FTL: %llu of %llu logical pages laid out",
                 (unsigned long long)k, (unsigned long long)f->n_lpn);
        rc = SSDSIM_ESTATE;
    }
    return rc;
}

/* ---------------------------------------------------------------- consistency */

#define FAIL(...) return ssdsim__page_check_fail(why, len, __VA_ARGS__)

/* Superblocks against their members: valid counts (sums), states (a free, open or closed
 * superblock's live members are free, open or closed; the victim's are in collection or done),
 * the free FIFO, the candidates, the writers; and conservation: the pages programmed in an open
 * superblock are the slots before its writer's. */
int ssdsim__page_sb_check(const struct ssdsim__ftl *f, char *why, size_t len)
{
    const struct ssdsim__super *S = f->sb;
    uint32_t n_closed = 0, n_free = 0;
    for (uint32_t s = 0; s < S->n; s++) {
        uint64_t v = 0;
        uint8_t st = S->v.state[s];
        for (uint32_t p = 0; p < f->n_planes; p++) {
            uint32_t b = p * f->bpp + s;
            v += f->valid[b];
            if (plane_dead(f, p) || f->state[b] == SSDSIM__BLK_BAD)
                continue;
            uint8_t want = st == SSDSIM__BLK_VICTIM ? f->state[b] : st;
            if (st == SSDSIM__BLK_VICTIM && want != SSDSIM__BLK_VICTIM && want != SSDSIM__BLK_FREE)
                FAIL("superblock %u is collected; its block %u is %u", s, b, want);
            if (st == SSDSIM__BLK_BAD || f->state[b] != want)
                FAIL("superblock %u has state %u; its block %u has %u", s, st, b, f->state[b]);
        }
        if (v != S->v.valid32[s])
            FAIL("superblock %u: %llu valid pages in its blocks; its count says %u", s,
                 (unsigned long long)v, S->v.valid32[s]);
        if (v > S->data[s] && st != SSDSIM__BLK_FREE)
            FAIL("superblock %u holds %llu valid pages of %u data pages written", s,
                 (unsigned long long)v, S->data[s]);
        n_closed += st == SSDSIM__BLK_CLOSED;
        if (st == SSDSIM__BLK_OPEN) {
            int k = -1;
            for (int fr = 0; fr < (int)f->n_fr; fr++)
                if (S->w[fr].sb == s)
                    k = fr;
            if (k < 0)
                FAIL("superblock %u is open and no writer's", s);
        }
        if (st == SSDSIM__BLK_VICTIM && s != S->victim)
            FAIL("superblock %u is in collection; the victim is %u", s, S->victim);
    }
    uint32_t k = 0, last = NONE;
    for (uint32_t s = S->vplane.free_head; s != NONE; s = S->v.free_next[s]) {
        if (S->v.state[s] != SSDSIM__BLK_FREE)
            FAIL("the free superblocks hold superblock %u, state %u", s, S->v.state[s]);
        if (++k > S->n)
            FAIL("the free superblocks' list has a cycle");
        last = s;
    }
    for (uint32_t s = 0; s < S->n; s++)
        n_free += S->v.state[s] == SSDSIM__BLK_FREE;
    if (k != S->vplane.n_free || k != n_free || last != S->vplane.free_tail)
        FAIL("%u superblocks on the free list (tail %u), %u free, count %u (tail %u)", k, last,
             n_free, S->vplane.n_free, S->vplane.free_tail);
    if (ssdsim__cands_count(&S->v.cands, 0) != n_closed)
        FAIL("%u closed superblocks and %u candidates", n_closed,
             ssdsim__cands_count(&S->v.cands, 0));
    for (int fr = 0; fr < (int)f->n_fr; fr++) {
        const struct ssdsim__sbw *w = &S->w[fr];
        if (w->sb == NONE)
            continue;
        if (S->v.state[w->sb] != SSDSIM__BLK_OPEN || w->row >= f->ppb ||
            !live(f, w->sb, slot_plane(f, w->cur, w->row)))
            FAIL("writer %d is at a slot (plane %u, page %u) of superblock %u it cannot write", fr,
                 slot_plane(f, w->cur, w->row), w->row, w->sb);
        for (int g = 0; g < fr; g++)
            if (S->w[g].sb == w->sb)
                FAIL("writers %d and %d share superblock %u", g, fr, w->sb);
        /* nothing is mapped at or after the writer's slot */
        for (uint32_t c = 0; c < f->n_planes; c++) {
            uint32_t plane = slot_plane(f, c, w->row), b = plane * f->bpp + w->sb;
            for (uint32_t r = c < w->cur ? w->row + 1 : w->row; r < f->ppb; r++)
                if (p2l_get(f, (uint64_t)b * f->ppb + r) != NONE)
                    FAIL("superblock %u holds logical page %u at plane %u page %u, beyond its "
                         "writer's slot",
                         w->sb, p2l_get(f, (uint64_t)b * f->ppb + r), plane, r);
        }
    }
    return ssdsim__page_parity_check(f, why, len);
}
