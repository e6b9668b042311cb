/* page_place.c: where the page FTL writes. Each plane's write frontiers (open blocks for host,
 * hot, GC and translation pages) and the free blocks they open; the choice of a plane for each
 * host page (choose_plane, by ftl.placement: an idle die first, a fixed striping order, or by
 * logical address); the submission of every
 * program the page FTL makes (ssdsim__page_program: host, GC, wear-leveling and translation
 * pages alike), which also starts foreground GC on the plane; and the stall queue where host
 * writes wait when no plane can take them. With RAIN parity the page is a superblock writer's
 * next slot instead (ftl/page_super.c), and choose_plane only asks whether it may take one.
 * With FDP's reclaim groups a host page is placed among its group's dies (ssdsim__page_place),
 * or another group's when its own has no room GC could make (ftl/page_fdp.c).
 */
#include "ftl/page_int.h"

#include <stdio.h>

uint32_t ssdsim__page_take_free_block(struct ssdsim__ftl *f, uint32_t plane)
{
    struct ssdsim__plane *pl = &f->planes[plane];
    uint32_t b = NONE;
    if (f->wl && f->wl->pick_free) {
        b = f->wl->pick_free(f->wl_state, ssdsim__page_view(f), plane);
        if (b != NONE &&
            (b >= f->geo->n_blocks || b / f->bpp != plane || f->state[b] != SSDSIM__BLK_FREE)) {
            char msg[160];
            snprintf(msg, sizeof msg,
                     "wear leveler '%s' picked block %u, which is not a free block of plane %u",
                     f->wl->name, b, plane);
            ssdsim_ftl_fail(f->env, SSDSIM_ESTATE, msg);
            b = NONE; /* go on with the default until the run stops */
        }
    }
    if (b == NONE)
        b = pl->free_head;
    assert(b != NONE);
    ssdsim__page_unlink_free(f, b);
    return b;
}

void ssdsim__page_unlink_free(struct ssdsim__ftl *f, uint32_t b)
{
    struct ssdsim__plane *pl = &f->planes[block_plane(f, b)];
    if (f->free_prev) { /* linked both ways */
        uint32_t p = f->free_prev[b], n = f->free_next[b];
        if (p == NONE)
            pl->free_head = n;
        else
            f->free_next[p] = n;
        if (n == NONE)
            pl->free_tail = p;
        else
            f->free_prev[n] = p;
    } else if (b == pl->free_head) {
        /* unlink b from the singly linked free list (the head in the common case) */
        pl->free_head = f->free_next[b];
        if (pl->free_head == NONE)
            pl->free_tail = NONE;
    } else {
        uint32_t p = pl->free_head;
        while (f->free_next[p] != b)
            p = f->free_next[p];
        f->free_next[p] = f->free_next[b];
        if (pl->free_tail == b)
            pl->free_tail = p;
    }
    pl->n_free--;
    f->n_free_blocks--;
    f->state[b] = SSDSIM__BLK_OPEN;
}

/* Does GC copy into frontier `fr` (which host writes then share)? With FDP, into FR_HOST
 * (initial isolation) or into every handle's host frontier (persistent). */
static inline bool gc_writes_to(const struct ssdsim__ftl *f, int fr)
{
    if (f->fdp)
        return !f->separate && ssdsim__page_fdp_gc_shares(f, fr);
    return !f->separate && (fr == SSDSIM__FR_HOST || (f->hot_cold && fr == SSDSIM__FR_HOT));
}

/* Can `plane` take a host page in frontier `fr` now? (Units per page, spp, are a power of two:
 * config/model_build.c refuses other mapping units.) Not into the last reserved blocks; and,
 * while the plane collects a victim and is down to its reserve, not into a frontier GC shares
 * (gc.separate off): the room left there belongs to the copies.
 *
 * Why GC can then always finish its victim: a victim starts with at least one free block (host
 * writes never take the reserve, and an erase has just freed one), it holds less than a block of
 * valid data, and nothing else writes where its copies go, so the copies fit in the room of the
 * GC frontiers plus one block (frontier_page spills between GC frontiers when the free blocks
 * are gone). */
static SSDSIM__INLINE bool plane_accepts(const struct ssdsim__ftl *f, uint32_t plane, int fr)
{
    if (fr == FR_SLC)
        return ssdsim__page_slc_accepts(f, plane);
    if (f->df && ssdsim__diefail_plane_dead(f, plane))
        return false;
    const struct ssdsim__plane *pl = &f->planes[plane];
    /* gc.throttle: foreground GC's copies first (page_gc.c); a page begun is finished */
    if (pl->gc_debt > 0 && fr != SSDSIM__FR_MAP && (pl->ptr[fr] & (f->spp - 1)) == 0)
        return false;
    if (pl->n_free > gc_reserve(f))
        return true;
    if (pl->victim != NONE && gc_writes_to(f, fr))
        return false;
    uint32_t ptr = pl->ptr[fr];
    if (f->spp > 1 && ptr < f->ppb) {
        /* the room left after the slots padded pages skip (frontier_page moves past them):
         * none, and the page would open a block of the reserve (or, with FDP, go to another
         * handle's frontier) */
        uint32_t next = ssdsim__hw_slot_next(f->env->hw, pl->blk[fr]);
        ptr = next > ptr ? next : ptr;
    }
    return ptr < f->ppb;
}

/* Take the next page of a plane's frontier, opening a free block when it is full. With no free
 * block left (GC copying into two frontiers can need two blocks for one victim, and with units
 * smaller than the page, padded pages can leave one frontier short of room), the page goes to
 * another open frontier of the plane that has room, GC frontiers first (with FDP, the same
 * handle's other frontier before them). */
/* Units smaller than the page (hw/unit.c): the slots of a page the hardware programmed padded
 * can never be written; move the plane's frontiers past them, closing a block they fill. */
static inline void skip_padded_fr(struct ssdsim__ftl *f, struct ssdsim__plane *pl, int fr)
{
    if (pl->ptr[fr] >= f->ppb)
        return;
    uint32_t b = pl->blk[fr], next = ssdsim__hw_slot_next(f->env->hw, b);
    if (next <= pl->ptr[fr])
        return;
    pl->ptr[fr] = next;
    if (next >= f->ppb)
        close_block(f, b);
}

/* The fixed frontiers, and an FDP handle's frontier `fr` when it is the one being written (the
 * other handles' are moved when they are next written: a scan over every handle per page would
 * cost the hot path as many loads as there are handles). */
static void skip_padded(struct ssdsim__ftl *f, struct ssdsim__plane *pl, int fr)
{
    for (int k = 0; k < SSDSIM__N_FRONTIERS; k++)
        skip_padded_fr(f, pl, k);
    if (fr >= SSDSIM__N_FRONTIERS)
        skip_padded_fr(f, pl, fr);
}

/* flash.multiplane_same_block: each die keeps a FIFO of the block indices free on all its
 * planes (listed as their last plane frees them; checked again as they are taken). */
void ssdsim__page_pair_freed(struct ssdsim__ftl *f, uint32_t b)
{
    uint32_t plane = block_plane(f, b), i = b - plane * f->bpp, die = plane / f->ppd;
    uint32_t x = die * f->bpp + i;
    if (f->pair_next[x] != SSDSIM__PAIR_OFF)
        return; /* listed already */
    for (uint32_t q = die * f->ppd; q < (die + 1) * f->ppd; q++)
        if (f->state[q * f->bpp + i] != SSDSIM__BLK_FREE)
            return;
    f->pair_next[x] = NONE;
    if (f->pair_tail[die] == NONE)
        f->pair_head[die] = x;
    else
        f->pair_next[f->pair_tail[die]] = x;
    f->pair_tail[die] = x;
}

/* The oldest index of die `die`'s list still free on every plane of the die (entries that
 * are no longer are dropped on the way: each was listed once), or NONE. */
static uint32_t pair_pop(struct ssdsim__ftl *f, uint32_t die)
{
    while (f->pair_head[die] != NONE) {
        uint32_t x = f->pair_head[die], i = x - die * f->bpp;
        f->pair_head[die] = f->pair_next[x];
        if (f->pair_head[die] == NONE)
            f->pair_tail[die] = NONE;
        f->pair_next[x] = SSDSIM__PAIR_OFF;
        uint32_t q = die * f->ppd;
        while (q < (die + 1) * f->ppd && f->state[q * f->bpp + i] == SSDSIM__BLK_FREE)
            q++;
        if (q == (die + 1) * f->ppd)
            return i;
    }
    return NONE;
}

/* flash.multiplane_same_block: the block frontier `fr` of `plane` opens. The planes of a die
 * write blocks of one index where they can, so that their programs at one page offset pair
 * into multi-plane operations (hw/nand.c): the plane takes the block of the index another
 * plane of its die (the next ones from it on) has open in the same frontier, when that block
 * is free here and the other plane is at most half through it (one further on opens its next
 * block well before this one is half written, and follows then); else it leads: it takes the
 * oldest index free on every plane of the die, and the others follow it as they open theirs,
 * or, when there is none, its own next free block (GC frees blocks plane by plane, its victims
 * chosen per plane as before, so on a full drive there often is none). A partner's index that
 * is not free here (holding data, open in another frontier, bad or retired) leaves the two
 * writing different indices, single-plane, until they next open blocks together. A block
 * taken by index is not the wear leveler's pick. O(planes per die) per block opened, amortised:
 * the free lists are linked both ways (f->free_prev). */
static uint32_t take_paired(struct ssdsim__ftl *f, uint32_t plane, int fr)
{
    uint32_t ppd = f->ppd, first = plane - plane % ppd, base = plane * f->bpp;
    for (uint32_t k = 1; k < ppd; k++) {
        uint32_t q = first + (plane - first + k) % ppd;
        const struct ssdsim__plane *o = &f->planes[q];
        if (o->blk[fr] == NONE || o->ptr[fr] > f->ppb / 2)
            continue;
        uint32_t b = base + (o->blk[fr] - q * f->bpp);
        if (f->state[b] == SSDSIM__BLK_FREE) {
            ssdsim__page_unlink_free(f, b);
            return b;
        }
    }
    uint32_t i = pair_pop(f, plane / ppd);
    if (i == NONE)
        return ssdsim__page_take_free_block(f, plane);
    ssdsim__page_unlink_free(f, base + i);
    return base + i;
}

static SSDSIM__INLINE uint32_t frontier_page(struct ssdsim__ftl *f, uint32_t plane, int fr)
{
    struct ssdsim__plane *pl = &f->planes[plane];
    if (f->spp > 1)
        skip_padded(f, pl, fr);
    if (pl->ptr[fr] >= f->ppb && pl->n_free == 0) {
        static const int order[] = {SSDSIM__FR_GC, SSDSIM__FR_GC_HOT, SSDSIM__FR_HOST,
                                    SSDSIM__FR_HOT, SSDSIM__FR_MAP};
        /* FDP: the other frontier of the same handle first (its host or GC frontier), so that
         * a reclaim unit keeps one handle's data when it can */
        int mate = f->fdp ? ssdsim__page_fdp_mate(f, fr) : -1;
        if (mate >= 0 && pl->ptr[mate] < f->ppb)
            return pl->blk[mate] * f->ppb + pl->ptr[mate]++;
        for (size_t i = 0; i < SSDSIM__ARRAY_LEN(order); i++) {
            if (pl->ptr[order[i]] < f->ppb) {
                fr = order[i];
                break;
            }
        }
    }
    if (pl->ptr[fr] >= f->ppb) {
        pl->blk[fr] =
            f->free_prev ? take_paired(f, plane, fr) : ssdsim__page_take_free_block(f, plane);
        pl->ptr[fr] = 0;
        if (f->fdp)
            ssdsim__page_fdp_opened(f, pl->blk[fr], fr); /* a reclaim unit of its handle */
    }
    return pl->blk[fr] * f->ppb + pl->ptr[fr]++;
}

static SSDSIM__INLINE uint32_t try_die(struct ssdsim__ftl *f, uint32_t die, int fr)
{
    /* the die's planes from its cursor on, in turn (cursor and offsets stay below ppd, so
     * each wraps with a compare instead of a division) */
    uint32_t ppd = f->ppd, first = die * ppd, k = f->die_plane_cursor[die];
    for (uint32_t j = 0; j < ppd; j++) {
        uint32_t p = first + k;
        if (++k == ppd)
            k = 0;
        if (plane_accepts(f, p, fr)) {
            f->die_plane_cursor[die] = k;
            f->die_cursor = die + 1 == f->n_dies ? 0 : die + 1;
            return p;
        }
    }
    return NONE;
}

/* The k-th die of the fixed striping order: every channel in turn, then the next die of each
 * (channel c holds dies c x dies_per_channel ..., hw/hw.h). */
static inline uint32_t stripe_die(const struct ssdsim__ftl *f, uint32_t k)
{
    return (k % f->n_channels) * (f->n_dies / f->n_channels) + k / f->n_channels;
}

/* The plane the s-th page of a long write stream goes to when every die takes pages as fast as
 * they come: the dies in the placement's order ("stripe": stripe_die; "idle" and "lba": die
 * numbers in turn, as the die cursor goes when all are idle), each die's planes in turn from one
 * visit to the next (try_die). Fast preconditioning lays its runs out in this order
 * (page_install.c). */
uint32_t ssdsim__page_stream_plane(const struct ssdsim__ftl *f, uint64_t s)
{
    const uint32_t n = f->n_dies;
    const uint32_t k = (uint32_t)(s % n);
    const uint32_t die = f->placement == SSDSIM__PLACE_STRIPE ? stripe_die(f, k) : k;
    return die * f->ppd + (uint32_t)(s / n % f->ppd);
}

void ssdsim__page_debt_flip(struct ssdsim__ftl *f, uint32_t plane, bool owes)
{
    uint32_t die = plane / f->ppd, k = ssdsim__page_stripe_index(f, die);
    if (owes ? --f->die_nodebt[die] == 0 : f->die_nodebt[die]++ == 0)
        f->stripe_nodebt[k >> 6] ^= 1ULL << (k & 63);
}

/* choose_stripe for a whole page into a data frontier under gc.throttle: a die whose planes
 * all owe GC copies would refuse it (plane_accepts) and try_die changes nothing when it
 * refuses, so only the dies the bitmap marks are tried, in the same order from the cursor. */
static uint32_t choose_stripe_owed(struct ssdsim__ftl *f, int fr)
{
    const uint32_t n = f->n_dies, start = f->stripe_cursor;
    const uint64_t *bm = f->stripe_nodebt;
    for (int pass = 0; pass < 2; pass++) {
        uint32_t k = pass ? 0 : start, end = pass ? start : n;
        while ((k = (uint32_t)ssdsim__bits_next(bm, k, end)) < end) {
            uint32_t p = try_die(f, stripe_die(f, k), fr);
            if (p != NONE) {
                f->stripe_cursor = k + 1 == n ? 0 : k + 1;
                return p;
            }
            k++;
        }
    }
    return NONE;
}

/* ftl.placement "stripe": the next die of the fixed order, busy or not (the write queues behind
 * whatever the die is doing, GC included); a die with no plane that can take the page is
 * skipped. */
static uint32_t choose_stripe(struct ssdsim__ftl *f, int fr)
{
    if (f->stripe_nodebt && fr != SSDSIM__FR_MAP && fr != FR_SLC)
        return choose_stripe_owed(f, fr);
    /* stripe_die(f, k) = ch x dies per channel + row for k = row x channels + ch, stepped
     * along with k instead of divided out at each step (the walk passes many dies while GC
     * holds them back) */
    const uint32_t n = f->n_dies, nch = f->n_channels, dpc = n / nch;
    uint32_t k = f->stripe_cursor, ch = k % nch, row = k / nch;
    for (uint32_t j = 0; j < n; j++) {
        uint32_t p = try_die(f, ch * dpc + row, fr);
        if (++k == n)
            k = ch = row = 0;
        else if (++ch == nch)
            ch = 0, row++;
        if (p != NONE) {
            f->stripe_cursor = k;
            return p;
        }
    }
    return NONE;
}

/* x mod n for x < 2n */
static inline uint32_t below(uint32_t x, uint32_t n)
{
    return x >= n ? x - n : x;
}

/* Choose a plane for a host page (or a translation page, lpn above the data pages) by
 * ftl.placement. "idle" (the default): an idle die first (in turn from the cursor), else the next
 * die in turn that has a plane with room. "stripe": choose_stripe. "lba": always the die of the
 * unit's logical address (unit u on the (u mod dies)-th die of the striping order, so
 * consecutive units stripe over the channels), which waits (NONE) when that die cannot take it.
 * Planes of a die in turn. NONE when no plane can take it now. Finding idle dies is a bitmap
 * scan, not a walk over all dies. */
uint32_t ssdsim__page_choose_plane(struct ssdsim__ftl *f, int fr, uint32_t lpn)
{
    if (f->sb) /* superblocks: the writer's next slot, when it may take a page (page_super.c) */
        return ssdsim__page_sb_accepts(f, fr) ? 0 : NONE;
    uint32_t spp = f->spp;
    if (spp > 1) {
        /* Units smaller than the page: the rest of a page a frontier has begun goes to the same
         * plane (hw/unit.c packs it into one program); by logical address, a page's worth of
         * consecutive units share a die. */
        if (f->placement == SSDSIM__PLACE_LBA)
            return try_die(f, stripe_die(f, lpn / spp % f->n_dies), fr);
        uint32_t p = f->unit_plane[fr];
        const struct ssdsim__plane *pl = &f->planes[p];
        if (pl->ptr[fr] < f->ppb && pl->ptr[fr] % spp &&
            ssdsim__hw_slot_next(f->env->hw, pl->blk[fr]) <= pl->ptr[fr] &&
            plane_accepts(f, p, fr))
            return p;
    }
    if (f->placement == SSDSIM__PLACE_STRIPE)
        return choose_stripe(f, fr);
    if (f->placement == SSDSIM__PLACE_LBA)
        return try_die(f, stripe_die(f, lpn % f->n_dies), fr);
    /* (die numbers and distances below 2n are brought below n by a subtraction, not a
     * remainder: this runs for most host pages, and a divide is slow) */
    struct ssdsim__hw *hw = f->env->hw;
    uint32_t n = f->n_dies, start = f->die_cursor;
    uint32_t d = ssdsim__hw_next_idle_die(hw, start);
    uint32_t dist = d == NONE ? 0 : below(d + n - start, n);
    while (d != NONE) {
        uint32_t p = try_die(f, d, fr);
        if (p != NONE)
            return p;
        uint32_t nd = ssdsim__hw_next_idle_die(hw, below(d + 1, n));
        uint32_t ndist = nd == NONE ? 0 : below(nd + n - start, n);
        if (nd == NONE || ndist <= dist)
            break; /* wrapped around */
        d = nd;
        dist = ndist;
    }
    for (uint32_t k = 0; k < n; k++) {
        uint32_t p = try_die(f, below(start + k, n), fr);
        if (p != NONE)
            return p;
    }
    return NONE;
}

/* Reclaim groups (FDP): choose_plane over group g's dies only, by the same ftl.placement: an
 * idle die of the group first (from the group's cursor), else the next of its dies in turn
 * with room; "stripe": the group's dies in the striping order; "lba": the unit's die among the
 * group's. A walk over the group's dies, as choose_plane's over all of them. */
static uint32_t choose_in_group(struct ssdsim__ftl *f, int fr, uint32_t lpn, uint32_t g)
{
    uint32_t n, *cur;
    const uint32_t *dies = ssdsim__page_fdp_group_dies(f, g, &n, &cur);
    uint32_t spp = f->spp;
    if (spp > 1) {
        if (f->placement == SSDSIM__PLACE_LBA)
            return try_die(f, dies[lpn / spp % n], fr);
        uint32_t p = f->unit_plane[fr];
        const struct ssdsim__plane *pl = &f->planes[p];
        if (ssdsim__page_fdp_plane_group(f, p) == g && pl->ptr[fr] < f->ppb &&
            pl->ptr[fr] % spp && ssdsim__hw_slot_next(f->env->hw, pl->blk[fr]) <= pl->ptr[fr] &&
            plane_accepts(f, p, fr))
            return p;
    }
    if (f->placement == SSDSIM__PLACE_LBA)
        return try_die(f, dies[lpn % n], fr);
    if (f->placement != SSDSIM__PLACE_STRIPE) {
        struct ssdsim__hw *hw = f->env->hw;
        for (uint32_t j = 0; j < n; j++) {
            uint32_t k = (*cur + j) % n;
            if (ssdsim__hw_next_idle_die(hw, dies[k]) != dies[k])
                continue;
            uint32_t p = try_die(f, dies[k], fr);
            if (p != NONE) {
                *cur = (k + 1) % n;
                return p;
            }
        }
    }
    for (uint32_t j = 0; j < n; j++) {
        uint32_t k = (*cur + j) % n;
        uint32_t p = try_die(f, dies[k], fr);
        if (p != NONE) {
            *cur = (k + 1) % n;
            return p;
        }
    }
    return NONE;
}

/* choose_plane, with its most common case inline: "idle" placement of whole pages without
 * superblocks, where the die at the cursor is idle and has a plane that takes the page (always
 * the case during fast-forward, where every die is idle, while that die has room), the die the
 * walk of ssdsim__page_choose_plane finds first. */
static SSDSIM__INLINE uint32_t choose_plane(struct ssdsim__ftl *f, int fr, uint32_t lpn)
{
    if (!f->sb && f->spp == 1 && f->placement == SSDSIM__PLACE_IDLE &&
        ssdsim__hw_die_idle(f->env->hw, f->die_cursor)) {
        uint32_t p = try_die(f, f->die_cursor, fr);
        if (p != NONE)
            return p;
    }
    return ssdsim__page_choose_plane(f, fr, lpn);
}

static SSDSIM__INLINE uint32_t place(struct ssdsim__ftl *f, int fr, uint32_t lpn, uint32_t *group)
{
    if (!f->fdp || ssdsim__page_fdp_groups(f) == 1)
        return choose_plane(f, fr, lpn);
    return ssdsim__page_place(f, fr, lpn, group);
}

uint32_t ssdsim__page_place(struct ssdsim__ftl *f, int fr, uint32_t lpn, uint32_t *group)
{
    if (!f->fdp || ssdsim__page_fdp_groups(f) == 1)
        return ssdsim__page_choose_plane(f, fr, lpn);
    uint32_t g = *group, groups = ssdsim__page_fdp_groups(f);
    uint32_t p = choose_in_group(f, fr, lpn, g);
    if (p != NONE || ssdsim__page_fdp_group_can_reclaim(f, g))
        return p; /* there, or wait for its GC */
    /* Media Reallocated: the next group in turn that can take it now */
    for (uint32_t k = 1; k < groups; k++) {
        uint32_t o = (g + k) % groups;
        p = choose_in_group(f, fr, lpn, o);
        if (p != NONE)
            return p;
    }
    return NONE;
}

/* ssdsim__page_program, inline in it and in the copy loop of fast-forward's GC
 * (ssdsim__page_gc_copy_victim). */
static SSDSIM__INLINE void program(struct ssdsim__ftl *f, uint32_t plane, int fr, uint32_t lpn,
                           uint32_t old, ssdsim_flash_purpose why, uint64_t ck)
{
    if (f->sb) {
        ssdsim__page_sb_program(f, fr, lpn, old, why, ck);
        return;
    }
    uint32_t ppn = frontier_page(f, plane, fr);
    f->unit_plane[fr] = plane;
    map(f, lpn, ppn, old);
    if (f->fdp)
        ssdsim__page_fdp_programmed(f, fr, lpn, ppn, why);
    /* Close the block only after its last page is mapped, so it enters the bucket of its
     * true valid count. */
    if (ssdsim__udiv_r(&f->div_ppb, ppn) == f->ppb - 1)
        close_block(f, ssdsim__udiv_q(&f->div_ppb, ppn));
    /* Fast-forward: a GC copy's completion does nothing, and a host page's only tells the unit
     * done, which is told now (ssdsim__env_ff_program): neither is queued. */
    unsigned tag = ssdsim__cookie_tag(ck);
    if ((tag == TAG_GC_PROG || tag == TAG_HOST_PROG) && ssdsim__env_ff_program(f->env, why)) {
        if (tag == TAG_HOST_PROG)
            ssdsim__ftl_host_done(f->env, ck);
    } else {
        ssdsim__env_submit_ftl(f->env, SSDSIM_FLASH_PROGRAM, ppn, f->page_size, why, ck);
    }
    struct ssdsim__plane *pl = &f->planes[plane];
    /* gc.throttle (a ratio of 0 without it, or for other victims) */
    if (why == SSDSIM_FOR_HOST && pl->victim != NONE)
        ssdsim__page_set_debt(f, plane, pl->gc_debt + pl->gc_ratio);
    if (pl->n_free < f->gc_min && (pl->victim == NONE || pl->gc_paused))
        ssdsim__page_gc_start(f, plane, SSDSIM__RECLAIM_FG);
    if (SSDSIM__UNLIKELY(f->n_starved)) /* the overwrite may have given one garbage */
        ssdsim__page_gc_kick_starved(f);
}

/* Allocate a page in frontier `fr` of `plane` for `lpn` (whose valid copy is `old`, or NONE
 * to look it up), map it, and submit the program. With superblocks (RAIN), the page is the next
 * slot of frontier fr's superblock, whatever `plane` says (page_super.c). */
void ssdsim__page_program(struct ssdsim__ftl *f, uint32_t plane, int fr, uint32_t lpn, uint32_t old,
                          ssdsim_flash_purpose why, uint64_t ck)
{
    program(f, plane, fr, lpn, old, why, ck);
}

/* Hot/cold separation: a host write is hot when the host last wrote the same logical page less
 * than hot_window_pages host writes ago. The time of the last host write is kept per page (the
 * time a page's block was closed would not do: GC copies close blocks too, and cold data that
 * GC just moved would look hot). The clock is 32 bits and compared modulo 2^32. */
static int host_frontier(struct ssdsim__ftl *f, uint32_t lpn)
{
    if (f->fdp)
        return ssdsim__page_fdp_host_frontier(f);
    if (!f->hot_cold || lpn >= f->n_lpn)
        return SSDSIM__FR_HOST;
    uint32_t now = (uint32_t)f->env->n.c[SSDSIM_CNT_HOST_PAGES];
    uint32_t last = f->host_written_at[lpn];
    f->host_written_at[lpn] = now | 1; /* 0 means "never written" */
    if (last == 0)
        return SSDSIM__FR_HOST;
    return (uint32_t)(now - last) < f->hot_window_pages ? SSDSIM__FR_HOT : SSDSIM__FR_HOST;
}

/* Where a GC copy goes: with hot/cold separation, among data of its own class (hot data that
 * survived its block to a hot GC frontier), so that GC does not mix the classes again; to the
 * GC frontiers, or with the host's writes when gc.separate is off. */
static inline int gc_frontier(const struct ssdsim__ftl *f, uint32_t lpn)
{
    if (f->fdp)
        return ssdsim__page_fdp_gc_frontier(f, lpn);
    bool hot = false;
    if (f->hot_cold && lpn < f->n_lpn && f->host_written_at[lpn] != 0) {
        uint32_t now = (uint32_t)f->env->n.c[SSDSIM_CNT_HOST_PAGES];
        hot = (uint32_t)(now - f->host_written_at[lpn]) < f->hot_window_pages;
    }
    if (f->separate)
        return hot ? SSDSIM__FR_GC_HOT : SSDSIM__FR_GC;
    return hot ? SSDSIM__FR_HOT : SSDSIM__FR_HOST;
}

int ssdsim__page_gc_frontier(const struct ssdsim__ftl *f, uint32_t lpn)
{
    return gc_frontier(f, lpn);
}

/* ssdsim__page_gc_copy, inline in ssdsim__page_gc_copy_victim. */
static SSDSIM__INLINE void gc_copy(struct ssdsim__ftl *f, uint32_t plane, uint32_t lpn,
                                   uint32_t old)
{
    struct ssdsim__plane *pl = &f->planes[plane];
    bool wl = pl->reclaim == SSDSIM__RECLAIM_WL;
    if (pl->reclaim == SSDSIM__RECLAIM_BG)
        ssdsim_ftl_count(f->env, SSDSIM_CNT_GC_BG_COPIES, 1);
    program(f, plane, gc_frontier(f, lpn), lpn, old, wl ? SSDSIM_FOR_WL : SSDSIM_FOR_GC,
            cookie(TAG_GC_PROG, 0, plane));
    if (f->dftl && lpn < f->n_lpn)
        ssdsim__page_dftl_mapped(f, lpn, plane);
    if (pl->gc_debt > 0) {
        double debt = pl->gc_debt - 1;
        ssdsim__page_set_debt(f, plane, debt > 0 ? debt : 0);
        if (debt <= 0)
            ssdsim__page_unstall(f); /* gc.throttle: the plane takes host units again */
    }
}

void ssdsim__page_gc_copy(struct ssdsim__ftl *f, uint32_t plane, uint32_t lpn, uint32_t old)
{
    gc_copy(f, plane, lpn, old);
}

/* ssdsim__page_gc_copy_victim on the plain page FTL (no FDP, no DFTL, no hot/cold separation,
 * copies to their own GC frontier, units of a whole page, no gc.throttle): what gc_copy does
 * there, page by page in the same order, with what it tests once per copy tested once per
 * victim: every copy goes to the GC frontier, the old page is the victim's (whose state is
 * VICTIM: its valid count alone changes), GC is not started on the plane (its victim is this
 * one, not paused), no debt is paid and no stalled write goes on. The frontier's page is taken
 * inline while its block has room (frontier_page otherwise). */
static void copy_victim_plain(struct ssdsim__ftl *f, uint32_t plane)
{
    struct ssdsim__plane *pl = &f->planes[plane];
    ssdsim_ftl_env *env = f->env;
    const uint32_t b = pl->victim, ppb = f->ppb;
    uint64_t pos = (uint64_t)b * ppb, end = pos + ppb;
    const bool wl = pl->reclaim == SSDSIM__RECLAIM_WL, bg = pl->reclaim == SSDSIM__RECLAIM_BG;
    const int ctr = wl ? SSDSIM_CNT_WL_COPIES : SSDSIM_CNT_GC_COPIES;
    const ssdsim_flash_purpose why = wl ? SSDSIM_FOR_WL : SSDSIM_FOR_GC;
    const int fr = SSDSIM__FR_GC;
    uint32_t *l2p = f->l2p, *p2l = f->p2l;
    uint64_t *live = f->live;
    uint16_t *valid = f->valid;
    while (valid[b] > 0 && (pos = ssdsim__bits_next(live, pos, end)) < end) {
        uint32_t lpn = p2l[pos];
        (void)ssdsim__env_count_end(env, ctr, 1);
        if (bg)
            ssdsim_ftl_count(env, SSDSIM_CNT_GC_BG_COPIES, 1);
        uint32_t ppn, nb;
        if (pl->ptr[fr] < ppb) {
            nb = pl->blk[fr];
            ppn = nb * ppb + pl->ptr[fr]++;
        } else {
            ppn = frontier_page(f, plane, fr);
            nb = ssdsim__udiv_q(&f->div_ppb, ppn);
        }
        f->unit_plane[fr] = plane;
        /* map(f, lpn, ppn, pos): the old page invalidated (n_valid's -1 and +1 cancel) */
        live[pos >> 6] &= ~(1ULL << (pos & 63));
        valid[b]--;
        l2p[lpn] = ppn;
        p2l[ppn] = lpn;
        live[ppn >> 6] |= 1ULL << (ppn & 63);
        valid[nb]++;
        if (ppn - nb * ppb == ppb - 1)
            close_block(f, nb);
        env->n.programs[why]++; /* ssdsim__env_ff_program */
        env->programs_total++;
        pos++;
    }
}

void ssdsim__page_gc_copy_victim(struct ssdsim__ftl *f, uint32_t plane)
{
    struct ssdsim__plane *pl = &f->planes[plane];
    if (!f->fdp && !f->dftl && !f->hot_cold && f->separate && f->spp == 1 && !f->throttle &&
        !f->sb && !(pl->gc_debt > 0) && !pl->gc_paused && f->env->ff_direct) {
        copy_victim_plain(f, plane);
        return;
    }
    uint32_t b = pl->victim;
    uint64_t pos = (uint64_t)b * f->ppb, end = pos + f->ppb;
    bool wl = pl->reclaim == SSDSIM__RECLAIM_WL;
    /* the pages whose bits are set in `live`, in page order, a word at a time (read again after
     * each copy: gc.throttle's debt may let host writes overwrite pages further on) */
    while (f->valid[b] > 0 && (pos = ssdsim__bits_next(f->live, pos, end)) < end) {
        /* (the firmware's time, which paced GC waits for, does not pace a batch) */
        (void)ssdsim__env_count_end(f->env, wl ? SSDSIM_CNT_WL_COPIES : SSDSIM_CNT_GC_COPIES, 1);
        gc_copy(f, plane, f->p2l[pos], (uint32_t)pos);
        pos++;
    }
}

bool ssdsim__page_stall_push(struct ssdsim__ftl *f, uint32_t io, uint32_t lpn, uint8_t fr)
{
    struct ssdsim__pending w = {.io = io, .lpn = lpn, .fr = fr, .since = ssdsim_ftl_now(f->env)};
    return ssdsim__pending_fifo_push(&f->stall, w, 256);
}

/* ssdsim__page_host_program_fr, inline in ssdsim__page_host_program (every host page). */
static SSDSIM__INLINE int host_program_fr(struct ssdsim__ftl *f, uint32_t io, uint32_t lpn,
                                          int fr, uint32_t group)
{
    if (f->slc) {
        /* Writes waiting for a free block go first, in order (a later write of the same page
         * must not be overtaken by an older one, nor host writes a stalled translation write):
         * the cache may have room for them now. With none left waiting, this write goes to the
         * cache if it has room; otherwise the cache is full, or a translation write waits. */
        if (f->stall.n)
            ssdsim__page_unstall(f);
        if (!f->stall.n && ssdsim__page_slc_write(f, io, lpn))
            return 0; /* in the SLC cache (page_slc.c) */
    }
    uint32_t named = group;
    uint32_t plane = f->stall.n ? NONE : place(f, fr, lpn, &group);
    /* (a stalled translation write keeps host writes behind it: order is kept) */
    if (plane == NONE) {
        struct ssdsim__pending w = {.io = io, .lpn = lpn, .fr = (uint8_t)fr,
                                    .group = (uint8_t)named, .since = ssdsim_ftl_now(f->env)};
        if (!ssdsim__pending_fifo_push(&f->stall, w, 256)) {
            ssdsim_ftl_fail(f->env, SSDSIM_ENOMEM, "out of memory queueing writes");
            return SSDSIM_ENOMEM;
        }
        return 0;
    }
    if (f->fdp)
        ssdsim__page_fdp_name_group(f, named);
    ssdsim__env_count(f->env, SSDSIM_CNT_HOST_PAGES, 1);
    if (f->slc)
        ssdsim__page_slc_bypassed(f);
    program(f, plane, fr, lpn, NONE, SSDSIM_FOR_HOST, cookie(TAG_HOST_PROG, 0, io));
    if (f->dftl)
        ssdsim__page_dftl_mapped(f, lpn, NONE);
    return 0;
}

int ssdsim__page_host_program_fr(struct ssdsim__ftl *f, uint32_t io, uint32_t lpn, int fr,
                                 uint32_t group)
{
    return host_program_fr(f, io, lpn, fr, group);
}

/* Place a host program, or park it until GC frees a block. On the plain page FTL (f->plain, no
 * failed die) with nothing stalled, when the die at the cursor is idle and takes the page, what
 * host_program_fr does there, its tests made once; otherwise host_program_fr, which finds the
 * same. */
int ssdsim__page_host_program(struct ssdsim__ftl *f, uint32_t io, uint32_t lpn)
{
    if (f->plain && !f->stall.n && !f->df && ssdsim__hw_die_idle(f->env->hw, f->die_cursor)) {
        uint32_t plane = try_die(f, f->die_cursor, SSDSIM__FR_HOST);
        if (plane != NONE) {
            ssdsim__env_count(f->env, SSDSIM_CNT_HOST_PAGES, 1);
            program(f, plane, SSDSIM__FR_HOST, lpn, NONE, SSDSIM_FOR_HOST,
                    cookie(TAG_HOST_PROG, 0, io));
            return 0;
        }
    }
    return ssdsim__page_host_program_fr(f, io, lpn, host_frontier(f, lpn),
                                        f->fdp ? ssdsim__page_fdp_host_group(f) : 0);
}

void ssdsim__page_unstall(struct ssdsim__ftl *f)
{
    while (f->stall.n) {
        struct ssdsim__pending w = ssdsim__pending_fifo_front(&f->stall);
        /* the class was decided when the write arrived: a stalled hot write stays hot */
        int fr = w.io == STALL_MAP ? SSDSIM__FR_MAP : w.fr;
        uint32_t group = w.group;
        if (w.io != STALL_MAP && f->slc) {
            /* the cache first, as when the write arrived: it may have room again (off the
             * queue before its program, as below) */
            uint32_t sp = ssdsim__page_slc_plane(f, w.lpn);
            if (sp != NONE) {
                ssdsim__pending_fifo_pop(&f->stall);
                ssdsim_ftl_unit_waited(f->env, w.io, ssdsim_ftl_now(f->env) - w.since);
                ssdsim__page_slc_program(f, w.io, w.lpn, sp);
                continue;
            }
        }
        uint32_t plane = w.io == STALL_MAP ? ssdsim__page_choose_plane(f, fr, w.lpn)
                                           : ssdsim__page_place(f, fr, w.lpn, &group);
        if (plane == NONE)
            return;
        ssdsim__pending_fifo_pop(&f->stall);
        if (w.io == STALL_MAP) {
            ssdsim__page_dftl_map_prog(f, w.lpn, plane);
            continue;
        }
        ssdsim_ftl_unit_waited(f->env, w.io, ssdsim_ftl_now(f->env) - w.since);
        if (f->fdp)
            ssdsim__page_fdp_name_group(f, w.group);
        ssdsim_ftl_count(f->env, SSDSIM_CNT_HOST_PAGES, 1);
        if (f->slc)
            ssdsim__page_slc_bypassed(f);
        ssdsim__page_program(f, plane, fr, w.lpn, NONE, SSDSIM_FOR_HOST,
                             cookie(TAG_HOST_PROG, 0, w.io));
        if (f->dftl)
            ssdsim__page_dftl_mapped(f, w.lpn, NONE);
    }
}
