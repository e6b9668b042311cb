/* page_install.c: fast preconditioning of the page FTL (ssdsim_ftl_ops.install): a secure-erased
 * device takes the block state of an image (valid pages per block, close order) with its logical
 * pages dealt to the valid slots in a uniformly random order.
 */
#include "ftl/page_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Uniform integer in [0, n), n >= 1, from the FTL's stream (Lemire, with rejection). */
static uint64_t random_below(struct ssdsim__ftl *f, uint64_t n)
{
    unsigned __int128 m = (unsigned __int128)ssdsim_ftl_random(f->env) * n;
    uint64_t low = (uint64_t)m;
    if (low < n) {
        uint64_t t = -n % n;
        while (low < t) {
            m = (unsigned __int128)ssdsim_ftl_random(f->env) * n;
            low = (uint64_t)m;
        }
    }
    return (uint64_t)(m >> 64);
}

struct age_key {
    uint64_t order;
    uint32_t block;
};

static int age_cmp(const void *a, const void *b)
{
    const struct age_key *x = a, *y = b;
    if (x->order != y->order)
        return x->order < y->order ? -1 : 1;
    return x->block < y->block ? -1 : x->block > y->block;
}

/* Fast preconditioning (ssdsim_ftl_ops.install), on a state create has just set up (every block
 * free). Every block the image does not call free becomes a closed block whose first `valid`
 * pages hold data and whose other pages are invalid; the logical pages are dealt to those valid
 * slots in a uniformly random order (a Fisher-Yates shuffle done in l2p, which is then rebuilt
 * from p2l: no memory beyond the tables). Each plane's host and GC frontiers open part-written,
 * at points drawn at random (dephase, below), so that the planes do not all open blocks and call
 * for GC at the same moments.
 *
 * The page FTL has no fixed share of logical pages per plane (a host write goes to whichever
 * plane choose_plane picks), so the image may split them between planes as it likes, provided
 * the whole device maps every logical page once and each plane keeps room to work in: more free
 * blocks than its GC reserve, and, free or invalid, at least the GC watermark plus the open
 * blocks in pages (the condition create checks for the whole device).
 *
 * Ages: the write clock (programs since the device was new; the environment has moved it past
 * what the image implies) dates the blocks. Blocks close about one per pages_per_block programs
 * on the device, so the k-th newest is dated k x pages_per_block programs before now, in the
 * image's close order. modified_at is set to the close time: the last invalidation of each block
 * is not in the image, and cost-benefit's ages settle as the blocks lose pages (blocks that are
 * candidates, with few valid pages, lose them slowly: see doc/design.md, "Fast
 * preconditioning").
 *
 * With hot/cold separation every logical page starts "never written" (host_written_at 0), so
 * its next write is cold and the hot class forms again over one hot window of host writes. */
/* The run of the image's runs (ssdsim_ftl_image.run_len) that starts at `i`: its length, 0
 * when none starts there. */
static inline uint32_t run_at(const struct ssdsim__ftl *f, const ssdsim_ftl_image *img, uint64_t i)
{
    uint32_t len = img->run_len[img->run_period ? i % img->run_period : i];
    return len && i + len > f->n_lpn ? (uint32_t)(f->n_lpn - i) : len;
}

/* How many swaps (or pages) ahead deal loads the entries it will touch. */
#define DEAL_AHEAD 16

/* Draw the partner of swap `d` of deal's shuffle (of n_items, bound n_items - d) into its place
 * in `ahead`, and start loading its l2p entry. */
static inline void draw_partner(struct ssdsim__ftl *f, uint64_t *ahead, uint64_t d,
                                uint64_t n_items)
{
    uint64_t j = random_below(f, n_items - d);
    ahead[d % DEAL_AHEAD] = j;
    __builtin_prefetch(&f->l2p[j], 1, 3);
}

/* The valid slots hold their numbers 0 .. n_lpn - 1 in p2l: give them the logical pages in a
 * uniformly random order (a Fisher-Yates shuffle done in l2p, which is then rebuilt from p2l: no
 * memory beyond the tables). With runs (img->run_len, checked by runs_ok), the runs are
 * shuffled whole, by their first pages, and laid out in that order, each run's pages on
 * consecutive slot numbers. */
static void deal(struct ssdsim__ftl *f, const ssdsim_ftl_image *img)
{
    const bool runs = img->run_len != NULL;
    uint64_t n_items = f->n_lpn;
    if (runs) {
        n_items = 0;
        const uint64_t period = img->run_period ? img->run_period : f->n_lpn;
        for (uint64_t i = 0, e = 0; i < f->n_lpn; i++, e = e + 1 == period ? 0 : e + 1)
            if (img->run_len[e]) /* a run starts at i (run_at) */
                f->l2p[n_items++] = (uint32_t)i;
    } else {
        for (uint64_t i = 0; i < f->n_lpn; i++)
            f->l2p[i] = (uint32_t)i;
    }
    /* The swaps' partners are random entries of an array far larger than the caches: each is
     * drawn DEAL_AHEAD swaps early and its entry loaded then (the same draws in the same order,
     * and no more of them). */
    uint64_t ahead[DEAL_AHEAD];
    uint64_t drawn = 0, n_swaps = n_items > 1 ? n_items - 1 : 0;
    for (; drawn < n_swaps && drawn < DEAL_AHEAD; drawn++)
        draw_partner(f, ahead, drawn, n_items);
    for (uint64_t k = 0; k < n_swaps; k++) {
        uint64_t i = n_items - k, j = ahead[k % DEAL_AHEAD];
        if (drawn < n_swaps)
            draw_partner(f, ahead, drawn++, n_items);
        uint32_t t = f->l2p[i - 1];
        f->l2p[i - 1] = f->l2p[j];
        f->l2p[j] = t;
    }
    if (runs) {
        /* Expand the shuffled runs in place, from the last: run k's pages go to slot numbers
         * at or after k, so nothing not yet read is overwritten. */
        uint64_t pos = f->n_lpn;
        for (uint64_t k = n_items; k-- > 0;) {
            uint32_t first = f->l2p[k], len = run_at(f, img, first);
            pos -= len;
            for (uint32_t u = len; u-- > 0;)
                f->l2p[pos + u] = first + u;
        }
        assert(pos == 0);
    }
    /* the same for the entries p2l names, DEAL_AHEAD pages on: each slot's number becomes the
     * logical page dealt to it, then l2p is rebuilt from p2l */
    for (uint64_t ppn = 0; ppn < f->n_ppn; ppn++) {
        uint32_t next = ppn + DEAL_AHEAD < f->n_ppn ? p2l_get(f, ppn + DEAL_AHEAD) : NONE;
        if (next != NONE)
            __builtin_prefetch(&f->l2p[next], 0, 3);
        uint32_t slot = p2l_get(f, ppn);
        if (slot != NONE)
            f->p2l[ppn] = f->l2p[slot];
    }
    memset(f->l2p, 0xff, sizeof *f->l2p * f->n_map);
    for (uint64_t ppn = 0; ppn < f->n_ppn; ppn++) {
        uint32_t next = ppn + DEAL_AHEAD < f->n_ppn ? p2l_get(f, ppn + DEAL_AHEAD) : NONE;
        if (next != NONE)
            __builtin_prefetch(&f->l2p[next], 1, 3);
        uint32_t lpn = p2l_get(f, ppn);
        if (lpn != NONE)
            f->l2p[lpn] = (uint32_t)ppn;
    }
    f->n_valid = f->n_lpn; /* every logical page mapped once */
}

/* The image's runs tile each period of the logical space (one period is enough to look at, or
 * the whole space when it is shorter); false and a message when they do not. */
static bool runs_ok(const struct ssdsim__ftl *f, const ssdsim_ftl_image *img, char *errbuf,
                    size_t errlen)
{
    uint64_t n = img->run_period && img->run_period < f->n_lpn ? img->run_period : f->n_lpn;
    for (uint64_t i = 0; i < n;) {
        uint32_t len = img->run_len[i];
        if (len == 0 || i + len > (img->run_period ? img->run_period : f->n_lpn)) {
            snprintf(errbuf, errlen,
                     "page FTL: the image's run_len[%llu] is %u; a run starts there and must "
                     "end within its period",
                     (unsigned long long)i, len);
            return false;
        }
        for (uint32_t u = 1; u < len && i + u < n; u++)
            if (img->run_len[i + u] != 0) {
                snprintf(errbuf, errlen,
                         "page FTL: the image's run_len[%llu] is %u inside the run of %u units "
                         "at %llu; it must be 0",
                         (unsigned long long)(i + u), img->run_len[i + u], len,
                         (unsigned long long)i);
                return false;
            }
        i += len;
    }
    return true;
}

/* Number the valid slots 0, 1, ... in the order the dealt logical pages take them. Without
 * runs, block by block. With runs, as a write stream fills them: a flash page's valid slots,
 * then a page of the next die in the placement's order (ssdsim__page_stream_plane), each
 * plane's pages in block order; so a run longer than what is left of a page goes on in another
 * die's page, as a request's units do when written (placement moves on once a page is full). Runs start
 * wherever the stream has got to in a page, not at page starts: in timed runs, copies and host
 * units share the frontiers and put runs out of step with the pages too (measured on 16 KiB
 * pages of 4 KiB units after three drive writes of 16 KiB random writes: 1.08 to 1.40 pages per
 * 16 KiB run as die counts go from 32 to 4; see doc/design.md, "Fast preconditioning"). */
static void number_slots(struct ssdsim__ftl *f, const uint32_t *v, bool runs, uint32_t *cur_b,
                         uint32_t *cur_i)
{
    uint64_t k = 0;
    const uint64_t nb = f->geo->n_blocks;
    if (!runs) {
        for (uint64_t b = 0; b < nb; b++) {
            if (v[b] == SSDSIM_IMAGE_FREE)
                continue;
            for (uint32_t i = 0; i < v[b]; i++)
                p2l_set(f, b * f->ppb + i, (uint32_t)k++);
        }
        return;
    }
    const uint32_t spp = f->spp ? f->spp : 1;
    for (uint32_t p = 0; p < f->n_planes; p++) {
        cur_b[p] = p * f->bpp;
        cur_i[p] = 0;
    }
    uint32_t left = f->n_planes; /* planes with valid slots not yet numbered */
    for (uint64_t s = 0; left > 0; s++) {
        const uint32_t p = ssdsim__page_stream_plane(f, s);
        uint32_t *b = &cur_b[p], *i = &cur_i[p];
        if (*i == UINT32_MAX)
            continue; /* the plane's valid slots are all numbered */
        const uint32_t end_b = (p + 1) * f->bpp;
        while (*b < end_b && (v[*b] == SSDSIM_IMAGE_FREE || *i >= v[*b])) {
            (*b)++;
            *i = 0;
        }
        if (*b == end_b) {
            *i = UINT32_MAX;
            left--;
            continue;
        }
        uint32_t end = SSDSIM__MIN(v[*b], (*i / spp + 1) * spp);
        for (; *i < end; (*i)++)
            p2l_set(f, (uint64_t)*b * f->ppb + *i, (uint32_t)k++);
    }
    assert(k == f->n_lpn);
}

/* The frontiers dephase opens: the host's, and GC's when it has its own (gc.separate). */
#define DEPHASED 2
static int dephased_fr(const struct ssdsim__ftl *f, int k)
{
    return k == 0 ? SSDSIM__FR_HOST : f->separate ? SSDSIM__FR_GC : -1;
}

/* Move `n` valid pages into (n > 0) or out of (n < 0) the closed blocks of one plane (`first`,
 * bpp blocks, the frontier blocks `fr_of` marks left out), a page per block in each pass, the
 * blocks of a pass spread evenly over the plane; false, with nothing moved, when they cannot
 * take or give that many. */
static bool spread_plane(const struct ssdsim__ftl *f, uint32_t *v, const uint8_t *fr_of,
                         uint64_t first, int64_t n)
{
    uint64_t room = 0; /* what the blocks can take (n > 0) or give (n < 0): all or nothing */
    for (uint32_t i = 0; i < f->bpp; i++) {
        uint32_t c = v[first + i];
        if (c != SSDSIM_IMAGE_FREE && !fr_of[first + i])
            room += n > 0 ? f->ppb - c : c;
    }
    if (room < (uint64_t)(n > 0 ? n : -n))
        return false;
    while (n != 0) {
        uint32_t m = 0; /* blocks that can give (or take) a page */
        for (uint32_t i = 0; i < f->bpp; i++) {
            uint32_t c = v[first + i];
            m += c != SSDSIM_IMAGE_FREE && !fr_of[first + i] && (n > 0 ? c < f->ppb : c > 0);
        }
        assert(m > 0); /* room was counted above */
        uint32_t want = (uint32_t)SSDSIM__MIN((uint64_t)(n > 0 ? n : -n), m), seen = 0, done = 0;
        for (uint32_t i = 0; i < f->bpp && done < want; i++) {
            uint32_t *c = &v[first + i];
            if (*c == SSDSIM_IMAGE_FREE || fr_of[first + i] || (n > 0 ? *c >= f->ppb : *c == 0))
                continue;
            if ((uint64_t)seen * want / m == done) {
                *c += n > 0 ? 1 : (uint32_t)-1;
                done++;
            }
            seen++;
        }
        n += n > 0 ? -(int64_t)done : (int64_t)done;
    }
    return true;
}

/* A long run leaves each plane's frontiers part-written, at points of their blocks that differ
 * from plane to plane: a plane's frontiers advance by its host pages and by the copies of its
 * own victims, whose valid counts differ, and placement skips a plane while its GC holds it, so
 * the planes drift apart in the phase of their block cycles (when each next opens a block and,
 * with the free blocks at the watermark, starts GC). An image has no open blocks (a scaled
 * copy's part-written frontiers are full closed blocks in it); installed with every frontier
 * closed, every plane would open its next blocks at the same moments, and keep doing so, in
 * lockstep, for many GC cycles. So each plane gets its host frontier (and GC frontier, when GC
 * has its own) open, each with a number of pages already written drawn uniformly (whole flash
 * pages when units are smaller than the page) from the FTL's stream: the phases a long run's
 * drift leads to. The written pages hold data, as a frontier's recent writes do, taken from (or,
 * for what the block held beyond them, given to) the plane's other closed blocks a page per
 * block (spread_plane), so the plane's valid pages and the image's valid-count distribution stay
 * as they were. Which block: a free one while the plane keeps more than one above its GC
 * reserve, else its newest closed block. The image's free blocks are the level functional GC
 * leaves (each plane collected up to its target before the next write); a timed run's
 * foreground GC beside a saturating host holds them near the reserve, and frontiers opened on
 * closed blocks would leave the planes that much more room than a long run has (the first
 * second after installing ran at 2.3 times the steady IOPS on a 292-block 960 PRO, 1.25 with
 * frontiers taken from the free blocks, as their first writes took them before the frontiers
 * were dephased). `order`: closed order per block
 * (NULL: block order). Sets v (valid counts), fr_of (DEPHASED frontier k + 1 of a block, else 0)
 * and frb (each plane's frontier blocks, NONE for none). */
static void dephase(struct ssdsim__ftl *f, const uint64_t *order, uint32_t *v, uint8_t *fr_of,
                    uint32_t *frb)
{
    const uint32_t spp = f->spp ? f->spp : 1, pages = f->ppb / spp;
    for (uint32_t p = 0; p < f->n_planes; p++) {
        uint64_t first = (uint64_t)p * f->bpp;
        for (int k = 0; k < DEPHASED; k++) {
            uint32_t *fb = &frb[(size_t)p * DEPHASED + k];
            *fb = NONE;
            if (dephased_fr(f, k) < 0)
                continue;
            /* a free block while the plane keeps more than one above its GC reserve (the
             * last in block order), else the newest closed block not yet taken */
            uint32_t n_free = 0, last_free = NONE;
            for (uint32_t i = 0; i < f->bpp; i++)
                if (v[first + i] == SSDSIM_IMAGE_FREE) {
                    n_free++;
                    last_free = (uint32_t)(first + i);
                }
            uint64_t best = 0;
            if (n_free > gc_reserve(f) + 1) {
                *fb = last_free;
            } else {
                for (uint32_t i = 0; i < f->bpp; i++) {
                    uint64_t b = first + i;
                    if (v[b] == SSDSIM_IMAGE_FREE || fr_of[b])
                        continue;
                    uint64_t age = order ? order[b] : b;
                    if (*fb == NONE || age >= best) {
                        *fb = (uint32_t)b;
                        best = age;
                    }
                }
            }
            if (*fb == NONE)
                continue;
            uint32_t n = (uint32_t)random_below(f, pages) * spp;
            fr_of[*fb] = (uint8_t)(k + 1);
            int64_t moved = (v[*fb] == SSDSIM_IMAGE_FREE ? 0 : (int64_t)v[*fb]) - n;
            if (!spread_plane(f, v, fr_of, first, moved)) {
                fr_of[*fb] = 0; /* the plane has no room to move it: left closed */
                *fb = NONE;
                continue;
            }
            v[*fb] = n;
        }
    }
}

int ssdsim__page_install(void *state, const ssdsim_ftl_image *img, char *errbuf, size_t errlen)
{
    struct ssdsim__ftl *f = state;
    const uint64_t nb = f->geo->n_blocks;
    const uint32_t ppb = f->ppb;
    if (f->slc) {
        snprintf(errbuf, errlen,
                 "page FTL: fast preconditioning of a drive with an SLC cache (slc.static, "
                 "slc.dynamic) is not modelled; precondition by writing");
        return SSDSIM_EINVAL;
    }
    if (f->env->fault) {
        snprintf(errbuf, errlen,
                 "page FTL: fast preconditioning of a drive with bad blocks (reliability."
                 "bad_fraction, grown_prob_rated) is not modelled; precondition by writing");
        return SSDSIM_EINVAL;
    }
    if (f->n_free_blocks != nb || f->dftl) {
        snprintf(errbuf, errlen, "page FTL: install needs a secure-erased device%s",
                 f->dftl ? " and the page FTL (not dftl)" : "");
        return SSDSIM_EINVAL;
    }
    if (f->sb) { /* RAIN: superblocks laid out with their stripes (page_super.c) */
        if (img->run_len && !runs_ok(f, img, errbuf, errlen))
            return SSDSIM_EINVAL;
        int rc = ssdsim__page_sb_install(f, img, errbuf, errlen);
        if (rc == 0)
            deal(f, img); /* in the superblocks' stripe order */
        return rc;
    }
    /* Check everything before changing anything. */
    uint32_t open = f->open;
    uint64_t total = 0, n_closed = 0;
    for (uint32_t p = 0; p < f->n_planes; p++) {
        uint64_t valid = 0;
        uint32_t n_free = 0;
        for (uint64_t b = (uint64_t)p * f->bpp; b < (uint64_t)(p + 1) * f->bpp; b++) {
            uint32_t v = img->valid[b];
            if (v == SSDSIM_IMAGE_FREE) {
                n_free++;
                continue;
            }
            if (v > ppb) {
                snprintf(errbuf, errlen,
                         "page FTL: block %llu holds %u valid pages; a block has %u pages",
                         (unsigned long long)b, v, ppb);
                return SSDSIM_EINVAL;
            }
            valid += v;
            n_closed++;
        }
        if (n_free <= gc_reserve(f)) {
            snprintf(errbuf, errlen,
                     "page FTL: plane %u has %u free blocks; host writes need more than the GC "
                     "reserve (%u)",
                     p, n_free, gc_reserve(f));
            return SSDSIM_EINVAL;
        }
        uint64_t room = ((uint64_t)f->bpp - f->gc_target - open) * ppb;
        if (valid > room) {
            snprintf(errbuf, errlen,
                     "page FTL: plane %u holds %llu valid pages; at most %llu fit with the GC "
                     "watermark (%u blocks) and %u open blocks kept free or invalid",
                     p, (unsigned long long)valid, (unsigned long long)room, f->gc_target, open);
            return SSDSIM_EINVAL;
        }
        total += valid;
    }
    if (total != f->n_lpn) {
        snprintf(errbuf, errlen,
                 "page FTL: the image holds %llu valid pages in all; the device maps %llu "
                 "logical pages, each exactly once",
                 (unsigned long long)total, (unsigned long long)f->n_lpn);
        return SSDSIM_EINVAL;
    }
    if (img->run_len && !runs_ok(f, img, errbuf, errlen))
        return SSDSIM_EINVAL;
    uint64_t clock = f->env->programs_total;
    if (clock < n_closed * ppb) {
        snprintf(errbuf, errlen, "page FTL: the write clock (%llu) is behind the image",
                 (unsigned long long)clock);
        return SSDSIM_EINVAL;
    }
    /* Valid counts as installed: the image's, with the frontiers dephase opens part-written. */
    uint32_t *v = malloc(sizeof *v * nb);
    uint8_t *fr_of = calloc(nb, 1);
    uint32_t *frb = malloc(sizeof *frb * f->n_planes * DEPHASED);
    bool by_age = img->closed_order && n_closed;
    struct age_key *ages = by_age ? malloc(sizeof *ages * n_closed) : NULL;
    uint32_t *cur_b = malloc(sizeof *cur_b * f->n_planes),
             *cur_i = malloc(sizeof *cur_i * f->n_planes);
    if (!v || !fr_of || !frb || (by_age && !ages) || !cur_b || !cur_i) {
        free(v);
        free(fr_of);
        free(frb);
        free(ages);
        free(cur_b);
        free(cur_i);
        snprintf(errbuf, errlen, "out of memory");
        return SSDSIM_ENOMEM;
    }
    memcpy(v, img->valid, sizeof *v * nb);
    for (size_t i = 0; i < (size_t)f->n_planes * DEPHASED; i++)
        frb[i] = NONE;
    if (!f->fdp)
        dephase(f, img->closed_order, v, fr_of, frb);
    if (by_age) {
        uint64_t k = 0;
        for (uint64_t b = 0; b < nb; b++)
            if (img->valid[b] != SSDSIM_IMAGE_FREE)
                ages[k++] = (struct age_key){img->closed_order[b], (uint32_t)b};
        qsort(ages, n_closed, sizeof *ages, age_cmp);
    }

    /* Blocks: free lists in block order, closed blocks into the candidate structures oldest
     * first, so that the close-order list and each valid-count list are in age order. */
    for (uint32_t p = 0; p < f->n_planes; p++) {
        struct ssdsim__plane *pl = &f->planes[p];
        pl->free_head = pl->free_tail = NONE;
        pl->n_free = 0;
    }
    f->n_free_blocks = 0;
    for (uint64_t b = 0; b < nb; b++) {
        if (v[b] == SSDSIM_IMAGE_FREE)
            put_free_block(f, (uint32_t)b);
    }
    for (uint64_t r = 0, b = 0; r < n_closed; r++, b++) {
        if (ages) {
            b = ages[r].block;
        } else {
            while (img->valid[b] == SSDSIM_IMAGE_FREE)
                b++;
        }
        if (fr_of[b])
            continue; /* a frontier (below) */
        f->state[b] = SSDSIM__BLK_CLOSED;
        f->valid[b] = (uint16_t)v[b];
        f->closed_at[b] = f->modified_at[b] = clock - (n_closed - 1 - r) * ppb;
        ssdsim__cands_insert(&f->cands, (uint32_t)b, f->valid[b]);
    }
    free(ages);
    /* The frontiers dephase opened part-way; their written slots hold data. */
    for (uint32_t p = 0; p < f->n_planes; p++) {
        for (int k = 0; k < DEPHASED; k++) {
            uint32_t b = frb[(size_t)p * DEPHASED + k];
            if (b == NONE)
                continue;
            struct ssdsim__plane *pl = &f->planes[p];
            int fr = dephased_fr(f, k);
            f->state[b] = SSDSIM__BLK_OPEN;
            pl->blk[fr] = b;
            pl->ptr[fr] = v[b];
            f->valid[b] = (uint16_t)v[b];
            f->closed_at[b] = f->modified_at[b] = clock;
            if (f->env->hw)
                ssdsim__hw_slot_set(f->env->hw, b, v[b]);
        }
    }
    free(fr_of);
    free(frb);

    /* Logical pages: the valid slots numbered (number_slots), then dealt a uniformly random
     * permutation (deal). */
    number_slots(f, v, img->run_len != NULL, cur_b, cur_i);
    free(v);
    free(cur_b);
    free(cur_i);
    deal(f, img);
    return 0;
}
