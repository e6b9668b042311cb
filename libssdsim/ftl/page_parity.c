/* page_parity.c: RAIN stripes, parity inside the drive, for the page FTL (ftl.parity_group = g,
 * as Micron's P320h does with 7 + 1 across dies): the record of which pages form a stripe, and
 * the parity program that ends one. Where the pages go is the superblock writer's business
 * (ftl/page_super.c): each writer (host, GC, hot/cold and FDP frontiers: one per frontier) fills
 * its open superblock slot by slot across the dies and keeps one open stripe here; a stripe is
 * up to g - 1 data pages on distinct dies and one parity page on a die that holds none of them,
 * all in one superblock, so the stripe lives exactly as long as its data's blocks (the
 * superblock's members are erased together).
 *
 * A parity page's program has its own purpose, SSDSIM_FOR_PARITY (queued on its die in arrival
 * order, as every program is), crosses its die's channel (the controller computes parity, so
 * never a copyback), counts as a flash program, hence in WAF (programs / host pages), and in
 * SSDSIM_CNT_PARITY_PAGES. A host write completes with its own page: its stripe's parity is not
 * waited for. What a parity page is after its program: garbage. It maps no logical page, GC
 * never copies it, and it is reclaimed when its superblock is erased. So one page in g of the
 * flash is parity (a little more where a superblock's slots do not divide into whole stripes):
 * the spare shrinks by that much while user capacity stays as ftl.op says (ftl/reserve.c
 * reports it as parity_blocks).
 *
 * The record, for reconstruction after a die failure (rel/diefail.c): per physical page, the next
 * page of its stripe (a ring: the data pages in the order written, then the parity page, back to
 * the first) and the stripe's serial (sid). The top bit of a sid says the stripe is sealed (its
 * parity page is programmed): only a sealed stripe can give a page back. A page's sid is cleared
 * when its superblock's erase starts, every copy done (ssdsim__page_parity_erased). 8 bytes per
 * physical page.
 */
#include "ftl/page_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SEALED 0x80000000u

/* The open stripe of one writer. */
struct ssdsim__stripe {
    uint32_t n;     /* data pages in it so far */
    uint32_t *dies; /* their dies (g - 1 entries) */
    uint32_t first, prev, sid; /* its first and last data pages, its serial (not sealed) */
};

int ssdsim__page_parity_setup(struct ssdsim__ftl *f, uint32_t group)
{
    f->parity = calloc(1, sizeof *f->parity);
    if (!f->parity)
        return SSDSIM_ENOMEM;
    f->parity->group = group;
    f->parity->n_s = f->n_fr; /* one open stripe per writer, FDP's handles' included */
    f->parity->s = calloc(f->n_fr, sizeof *f->parity->s);
    if (!f->parity->s)
        return SSDSIM_ENOMEM;
    f->parity->ring = malloc(sizeof(uint32_t) * f->n_ppn);
    f->parity->sid = malloc(sizeof(uint32_t) * f->n_ppn);
    if (!f->parity->ring || !f->parity->sid)
        return SSDSIM_ENOMEM;
    memset(f->parity->sid, 0xff, sizeof(uint32_t) * f->n_ppn);
    f->parity->next_sid = 0;
    for (uint32_t c = 0; c < f->parity->n_s; c++)
        if (!(f->parity->s[c].dies = calloc(group, sizeof(uint32_t))))
            return SSDSIM_ENOMEM;
    return 0;
}

void ssdsim__page_parity_free(struct ssdsim__ftl *f)
{
    if (!f->parity)
        return;
    for (uint32_t c = 0; c < f->parity->n_s && f->parity->s; c++)
        free(f->parity->s[c].dies);
    free(f->parity->s);
    free(f->parity->ring);
    free(f->parity->sid);
    free(f->parity);
    f->parity = NULL;
}

uint32_t ssdsim__page_parity_open(const struct ssdsim__ftl *f, int fr)
{
    return f->parity->s[fr].n;
}

bool ssdsim__page_parity_holds(const struct ssdsim__ftl *f, int fr, uint32_t die)
{
    const struct ssdsim__stripe *s = &f->parity->s[fr];
    for (uint32_t i = 0; i < s->n; i++)
        if (s->dies[i] == die)
            return true;
    return false;
}

void ssdsim__page_parity_data(struct ssdsim__ftl *f, int fr, uint32_t ppn, uint32_t die)
{
    struct ssdsim__parity *r = f->parity;
    struct ssdsim__stripe *s = &r->s[fr];
    if (s->n == 0) {
        s->first = ppn;
        s->sid = r->next_sid++ & ~SEALED;
        if ((s->sid | SEALED) == NONE) /* NONE means "no stripe" */
            s->sid = r->next_sid++ & ~SEALED;
    } else {
        r->ring[s->prev] = ppn;
    }
    r->ring[ppn] = s->first; /* the ring stays closed: a stripe is walked from any page */
    r->sid[ppn] = s->sid;
    s->prev = ppn;
    if (s->n < r->group - 1)
        s->dies[s->n] = die;
    s->n++;
}

void ssdsim__page_parity_abandon(struct ssdsim__ftl *f, int fr)
{
    f->parity->s[fr].n = 0; /* its pages stay unsealed: no page of it can be given back */
}

void ssdsim__page_parity_write(struct ssdsim__ftl *f, int fr, uint32_t pp)
{
    struct ssdsim__parity *r = f->parity;
    struct ssdsim__stripe *s = &r->s[fr];
    assert(s->n > 0);
    if (!r->dry) {
        ssdsim_ftl_count(f->env, SSDSIM_CNT_PARITY_PAGES, 1);
        ssdsim_ftl_submit(f->env, SSDSIM_FLASH_PROGRAM, pp, f->page_size, SSDSIM_FOR_PARITY,
                          cookie(TAG_PARITY_PROG, 0, pp / f->ppb / f->bpp));
    }
    r->ring[s->prev] = pp;
    r->ring[pp] = s->first;
    r->sid[pp] = s->sid;
    uint32_t x = s->first;
    do {
        r->sid[x] = s->sid | SEALED;
        x = r->ring[x];
    } while (x != s->first);
    s->n = 0;
}

uint32_t ssdsim__page_parity_mates(const struct ssdsim__ftl *f, uint32_t ppn, uint32_t *out,
                                   uint32_t max)
{
    const struct ssdsim__parity *r = f->parity;
    if (!r)
        return 0;
    uint32_t sid = r->sid[ppn];
    if (sid == NONE || !(sid & SEALED))
        return 0;
    uint32_t n = 0, x = r->ring[ppn];
    while (x != ppn) {
        if (n == max || n == r->group - 1 || r->sid[x] != sid ||
            ssdsim__page_on_dead_die(f, x))
            return 0;
        out[n++] = x;
        x = r->ring[x];
    }
    return n; /* the other data pages and the parity page */
}

void ssdsim__page_parity_erased(struct ssdsim__ftl *f, uint32_t b)
{
    memset(f->parity->sid + (size_t)b * f->ppb, 0xff, sizeof(uint32_t) * f->ppb);
}

/* The stripe record (ftl/page_check.c, through page_super.c's check): every sealed stripe is a
 * ring of 2 to g pages of one serial, each on its own die. O(pages x g). */
int ssdsim__page_parity_check(const struct ssdsim__ftl *f, char *why, size_t len)
{
    const struct ssdsim__parity *r = f->parity;
    uint32_t dies[1024];
    for (uint64_t ppn = 0; ppn < f->n_ppn; ppn++) {
        uint32_t sid = r->sid[ppn];
        if (sid == NONE || !(sid & SEALED))
            continue;
        uint32_t n = 0, x = (uint32_t)ppn, min = (uint32_t)ppn;
        do {
            if (n == r->group || r->sid[x] != sid) {
                snprintf(why, len,
                         "page FTL check: the stripe of page %llu (serial %u) is not a ring of at "
                         "most %u pages of its serial (page %u has %u)",
                         (unsigned long long)ppn, sid & ~SEALED, r->group, x, r->sid[x]);
                return SSDSIM_ESTATE;
            }
            dies[n++] = x / f->ppb / f->bpp / f->ppd;
            if (x < min)
                min = x;
            x = r->ring[x];
        } while (x != ppn);
        if (min != ppn)
            continue; /* each ring checked once, from its lowest page */
        if (n < 2) {
            snprintf(why, len, "page FTL check: the sealed stripe of page %llu has no parity page",
                     (unsigned long long)ppn);
            return SSDSIM_ESTATE;
        }
        for (uint32_t i = 0; i < n; i++)
            for (uint32_t j = 0; j < i; j++)
                if (dies[i] == dies[j]) {
                    snprintf(why, len,
                             "page FTL check: the stripe of page %llu has two pages on die %u",
                             (unsigned long long)ppn, dies[i]);
                    return SSDSIM_ESTATE;
                }
    }
    return 0;
}
