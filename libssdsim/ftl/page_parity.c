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
 * Known gap (doc/models.md, RAIN): GC here collects block by block and its copies stay on the
 * victim's plane, so after GC churn stripes are broken (a block holding one of their pages
 * erased) or hold several pages on one die, and a die failure loses their data. Drives avoid
 * both with superblocks: stripes written across the same block of every die, collected whole.
 *
 * What a parity page is after its program: garbage. It maps no logical page, GC never copies
 * it, and it is reclaimed when its block is erased. This is how drives that collect whole
 * stripes of blocks (superblocks) behave, where a stripe's parity lives exactly as long as its
 * data's blocks (this FTL's GC is per block, see the gap above); a per-block GC that instead
 * kept each parity page valid until every data page of its stripe was overwritten would hold
 * far more parity (under uniform random writes the
 * last of 7 pages outlives the average one by the harmonic number H7 = 2.6: about a third of
 * the logical capacity in live parity at g = 8), which no drive does. So one page in g of the
 * flash is parity on average: the spare shrinks by that much while user capacity stays as
 * ftl.op says (ftl/reserve.c reports it as parity_blocks, and the model refuses a group that
 * leaves GC too little spare). Under a uniformly random victim choice this gives exactly
 * WAF = 1 / (spare factor - 1/g), the data's WAF on the remaining spare times g / (g - 1).
 *
 * Stripes are recorded for reconstruction after a die failure (rel/diefail.c): per physical
 * page, the next page of its stripe (ring: the data pages in the order written, then the
 * parity page, back to the first) and the stripe's serial number (sid). A page's sid is
 * cleared when its block is erased (ssdsim__page_parity_erased), so a stripe one of whose
 * pages was erased since is seen to be broken: its parity no longer covers what is on the
 * flash. 8 bytes per physical page.
 */
#include "ftl/page_int.h"

#include <stdlib.h>
#include <string.h>

enum { CLS_HOST = 0, CLS_GC = 1, N_CLS = 2 };

/* The open stripe of one kind of writer. */
struct ssdsim__stripe {
    uint32_t n;     /* data pages in it so far */
    uint32_t *dies; /* their dies (g - 1 entries) */
    uint64_t owed;  /* parity pages of full stripes that no plane could take yet */
    uint32_t first, prev, sid; /* its first and last data pages, its serial number */
    uint32_t *owed_first, *owed_sid; /* the owed stripes' first pages and serials, a FIFO */
    uint64_t owed_head, owed_cap;
};

int ssdsim__page_parity_setup(struct ssdsim__ftl *f, uint32_t group)
{
    f->parity = calloc(1, sizeof *f->parity);
    if (!f->parity)
        return SSDSIM_ENOMEM;
    f->parity->group = group;
    f->parity->s = calloc(N_CLS, sizeof *f->parity->s);
    if (!f->parity->s)
        return SSDSIM_ENOMEM;
    f->parity->ring = malloc(sizeof(uint32_t) * f->n_ppn);
    f->parity->sid = malloc(sizeof(uint32_t) * f->n_ppn);
    if (!f->parity->ring || !f->parity->sid)
        return SSDSIM_ENOMEM;
    memset(f->parity->sid, 0xff, sizeof(uint32_t) * f->n_ppn);
    f->parity->next_sid = 0;
    for (int c = 0; c < N_CLS; c++)
        if (!(f->parity->s[c].dies = calloc(group, sizeof(uint32_t))))
            return SSDSIM_ENOMEM;
    return 0;
}

void ssdsim__page_parity_free(struct ssdsim__ftl *f)
{
    if (!f->parity)
        return;
    for (int c = 0; c < N_CLS && f->parity->s; c++) {
        free(f->parity->s[c].dies);
        free(f->parity->s[c].owed_first);
        free(f->parity->s[c].owed_sid);
    }
    free(f->parity->s);
    free(f->parity->ring);
    free(f->parity->sid);
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
 * and has a plane that can take a host page: its page, or NONE when none can. */
static uint32_t place(struct ssdsim__ftl *f, const uint32_t *dies, uint32_t n, uint32_t start)
{
    uint32_t ppd = f->ppd;
    for (uint32_t k = 0; k < f->n_dies; k++) {
        uint32_t d = (start + k) % f->n_dies;
        if (holds(dies, n, d))
            continue;
        for (uint32_t j = 0; j < ppd; j++) {
            uint32_t p = d * ppd + (f->die_plane_cursor[d] + j) % ppd;
            /* with FDP a frontier of their own (hot/cold separation's, which FDP leaves
             * unused): a parity page belongs to no placement handle */
            uint32_t ppn = ssdsim__page_take_unmapped(f, p, f->fdp ? SSDSIM__FR_HOT
                                                                   : SSDSIM__FR_HOST);
            if (ppn == NONE)
                continue;
            f->die_plane_cursor[d] = (p % ppd + 1) % ppd;
            ssdsim_ftl_count(f->env, SSDSIM_CNT_PARITY_PAGES, 1);
            ssdsim_ftl_submit(f->env, SSDSIM_FLASH_PROGRAM, ppn, f->page_size, SSDSIM_FOR_PARITY,
                              cookie(TAG_PARITY_PROG, 0, p));
            struct ssdsim__plane *pl = &f->planes[p];
            if (pl->n_free < f->gc_min && pl->victim == NONE)
                ssdsim__page_gc_start(f, p, SSDSIM__RECLAIM_FG);
            return ppn;
        }
    }
    return NONE;
}

/* Queue a full stripe whose parity no plane could take (its ring closed without it). */
static bool owe(struct ssdsim__stripe *s)
{
    uint64_t n = s->owed;
    if (n == s->owed_cap) {
        uint64_t cap = s->owed_cap ? s->owed_cap * 2 : 16;
        uint32_t *a = malloc(sizeof *a * cap), *b = malloc(sizeof *b * cap);
        if (!a || !b) {
            free(a);
            free(b);
            return false;
        }
        for (uint64_t i = 0; i < n; i++) {
            a[i] = s->owed_first[(s->owed_head + i) % s->owed_cap];
            b[i] = s->owed_sid[(s->owed_head + i) % s->owed_cap];
        }
        free(s->owed_first);
        free(s->owed_sid);
        s->owed_first = a;
        s->owed_sid = b;
        s->owed_head = 0;
        s->owed_cap = cap;
    }
    s->owed_first[(s->owed_head + n) % s->owed_cap] = s->first;
    s->owed_sid[(s->owed_head + n) % s->owed_cap] = s->sid;
    s->owed++;
    return true;
}

void ssdsim__page_parity_data(struct ssdsim__ftl *f, uint32_t plane, uint32_t ppn,
                              ssdsim_flash_purpose why)
{
    struct ssdsim__parity *r = f->parity;
    int cls = why == SSDSIM_FOR_HOST ? CLS_HOST : CLS_GC;
    struct ssdsim__stripe *s = &r->s[cls];
    uint32_t die = plane / f->ppd;
    if (s->n == 0) {
        s->first = ppn;
        s->sid = r->next_sid++;
        if (s->sid == NONE)
            s->sid = r->next_sid++;
    } else {
        r->ring[s->prev] = ppn;
    }
    r->sid[ppn] = s->sid;
    s->prev = ppn;
    s->dies[s->n++] = die;
    if (s->n < r->group - 1)
        return;
    s->n = 0;
    /* owed parity goes first: stripes keep their order */
    uint32_t pp = s->owed ? NONE : place(f, s->dies, r->group - 1, (die + 1) % f->n_dies);
    if (pp == NONE) {
        r->ring[s->prev] = s->first; /* no parity yet: a broken stripe until it is placed */
        if (!owe(s))
            ssdsim_ftl_fail(f->env, SSDSIM_ENOMEM, "out of memory recording parity stripes");
        return;
    }
    r->ring[s->prev] = pp;
    r->ring[pp] = s->first;
    r->sid[pp] = s->sid;
}

void ssdsim__page_parity_unstall(struct ssdsim__ftl *f)
{
    struct ssdsim__parity *r = f->parity;
    for (int c = 0; c < N_CLS; c++) {
        struct ssdsim__stripe *s = &r->s[c];
        while (s->owed) {
            uint32_t pp = place(f, NULL, 0, f->die_cursor);
            if (pp == NONE)
                break;
            uint32_t first = s->owed_first[s->owed_head], sid = s->owed_sid[s->owed_head];
            s->owed_head = (s->owed_head + 1) % s->owed_cap;
            s->owed--;
            if (r->sid[first] == sid) { /* the stripe's first page is still there: link it */
                r->ring[pp] = r->ring[first];
                r->ring[first] = pp;
                r->sid[pp] = sid;
            }
        }
    }
}

void ssdsim__page_parity_erased(struct ssdsim__ftl *f, uint32_t b)
{
    memset(f->parity->sid + (size_t)b * f->ppb, 0xff, sizeof(uint32_t) * f->ppb);
}
