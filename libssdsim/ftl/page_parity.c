/* page_parity.c: RAIN, parity inside the drive, for the page FTL (ftl.parity_group = g, as
 * Micron's P320h does with 7 + 1 across dies). Every g - 1 data pages the FTL programs form a
 * stripe, and the stripe costs one more program: its parity page, on a die that holds none of
 * the stripe's data pages, with its own transfer over that die's channel (the controller
 * computes parity, so never a copyback) and its tPROG. Host pages form stripes among
 * themselves, GC and wear-leveling copies among themselves (each kind of writer keeps one open
 * stripe). Parity programs have their own purpose, SSDSIM_FOR_PARITY (queued on their die in
 * arrival order, as every program is), count as flash programs, hence in WAF (programs / host
 * pages), and in SSDSIM_CNT_PARITY_PAGES. A host write
 * completes with its own page: the parity program is not waited for.
 *
 * Where parity goes: to the host frontier of a plane of the first die after the stripe's last
 * data page (in die order, wrapping) that is not one of the stripe's dies and that can take a
 * host page (the same rule as a host write, so GC's reserve is never touched). When no plane
 * can take it (every plane is down to its reserve), the parity is owed and written as soon as
 * an erase frees room, before the stalled host writes (on any die then: an owed stripe's dies
 * are not kept).
 *
 * What a parity page is after its program: garbage. It maps no logical page, GC never copies
 * it, and it is reclaimed when its block is erased. This is how drives that collect whole
 * stripes of blocks (superblocks) behave, where a stripe's parity lives exactly as long as its
 * data's blocks; a per-block GC that instead kept each parity page valid until every data page
 * of its stripe was overwritten would hold far more parity (under uniform random writes the
 * last of 7 pages outlives the average one by the harmonic number H7 = 2.6: about a third of
 * the logical capacity in live parity at g = 8), which no drive does. So one page in g of the
 * flash is parity on average: the spare shrinks by that much while user capacity stays as
 * ftl.op says (ftl/reserve.c reports it as parity_blocks, and the model refuses a group that
 * leaves GC too little spare). Under a uniformly random victim choice this gives exactly
 * WAF = 1 / (spare factor - 1/g), the data's WAF on the remaining spare times g / (g - 1).
 *
 * Reading is unaffected: no die fails yet. Reconstructing a page from its stripe (issue 16)
 * needs the stripe of each data page and its parity's location, and each parity page kept
 * until its stripe's data is gone or its superblock is collected: the place for that is here,
 * with the stripe record of ssdsim__page_parity_data.
 */
#include "ftl/page_int.h"

#include <stdlib.h>

enum { CLS_HOST = 0, CLS_GC = 1, N_CLS = 2 };

/* The open stripe of one kind of writer. */
struct stripe {
    uint32_t n;     /* data pages in it so far */
    uint32_t *dies; /* their dies (g - 1 entries) */
    uint64_t owed;  /* parity pages of full stripes that no plane could take yet */
};

struct ssdsim__parity {
    uint32_t group;
    struct stripe s[N_CLS];
};

int ssdsim__page_parity_setup(struct ssdsim__ftl *f, uint32_t group)
{
    f->parity = calloc(1, sizeof *f->parity);
    if (!f->parity)
        return SSDSIM_ENOMEM;
    f->parity->group = group;
    for (int c = 0; c < N_CLS; c++)
        if (!(f->parity->s[c].dies = calloc(group, sizeof(uint32_t))))
            return SSDSIM_ENOMEM;
    return 0;
}

void ssdsim__page_parity_free(struct ssdsim__ftl *f)
{
    if (!f->parity)
        return;
    for (int c = 0; c < N_CLS; c++)
        free(f->parity->s[c].dies);
    free(f->parity);
    f->parity = NULL;
}

static bool holds(const uint32_t *dies, uint32_t n, uint32_t die)
{
    for (uint32_t i = 0; i < n; i++)
        if (dies[i] == die)
            return true;
    return false;
}

/* Program one parity page on the first die from `start` that is not among the `n` dies given
 * and has a plane that can take a host page. False when none can. */
static bool place(struct ssdsim__ftl *f, const uint32_t *dies, uint32_t n, uint32_t start)
{
    uint32_t ppd = f->ppd;
    for (uint32_t k = 0; k < f->n_dies; k++) {
        uint32_t d = (start + k) % f->n_dies;
        if (holds(dies, n, d))
            continue;
        for (uint32_t j = 0; j < ppd; j++) {
            uint32_t p = d * ppd + (f->die_plane_cursor[d] + j) % ppd;
            uint32_t ppn = ssdsim__page_take_unmapped(f, p, SSDSIM__FR_HOST);
            if (ppn == NONE)
                continue;
            f->die_plane_cursor[d] = (p % ppd + 1) % ppd;
            ssdsim_ftl_count(f->env, SSDSIM_CNT_PARITY_PAGES, 1);
            ssdsim_ftl_submit(f->env, SSDSIM_FLASH_PROGRAM, ppn, f->page_size, SSDSIM_FOR_PARITY,
                              cookie(TAG_PARITY_PROG, 0, p));
            struct ssdsim__plane *pl = &f->planes[p];
            if (pl->n_free < f->gc_min && pl->victim == NONE)
                ssdsim__page_gc_start(f, p, SSDSIM__RECLAIM_FG);
            return true;
        }
    }
    return false;
}

void ssdsim__page_parity_data(struct ssdsim__ftl *f, uint32_t plane, ssdsim_flash_purpose why)
{
    struct ssdsim__parity *r = f->parity;
    int cls = why == SSDSIM_FOR_HOST ? CLS_HOST : CLS_GC;
    struct stripe *s = &r->s[cls];
    uint32_t die = plane / f->ppd;
    s->dies[s->n++] = die;
    if (s->n < r->group - 1)
        return;
    s->n = 0;
    /* owed parity goes first: stripes keep their order */
    if (s->owed || !place(f, s->dies, r->group - 1, (die + 1) % f->n_dies))
        s->owed++;
}

void ssdsim__page_parity_unstall(struct ssdsim__ftl *f)
{
    struct ssdsim__parity *r = f->parity;
    for (int c = 0; c < N_CLS; c++) {
        struct stripe *s = &r->s[c];
        while (s->owed && place(f, NULL, 0, f->die_cursor))
            s->owed--;
    }
}
