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
 * The record, for reconstruction after a die failure (rel/diefail.c): 2 bits per physical page,
 * set when a stripe is sealed (its parity page programmed; only a sealed stripe can give a page
 * back): the stripe's first data page, a later data page, or its parity page, the last. A
 * stripe's pages are consecutive slots of its superblock's slot order (ftl/page_super.c: one
 * writer fills a superblock slot by slot, and a stripe never crosses superblocks), but for the
 * slots the writer skipped (a bad member block, a failed die), which hold no mark; so a sealed
 * page's stripe is found by walking that order back to its first page and on to its parity
 * page, the data pages in the order written, then the parity page. A page's mark is cleared when
 * its superblock's erase starts, every copy done (ssdsim__page_parity_erased). Until its parity
 * page, a writer's open stripe keeps its pages in its own record (at most g - 1). A quarter of a
 * byte per physical page (it was a ring and a serial per page, 8 bytes: half the memory of a
 * RAIN drive).
 */
#include "ftl/page_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Marks of sealed stripes' pages; 0: none (not in a sealed stripe). */
enum { REC_NONE, REC_FIRST, REC_DATA, REC_PARITY };

/* The open stripe of one writer. */
struct ssdsim__stripe {
    uint32_t n;      /* data pages in it so far */
    uint32_t *dies;  /* their dies (g - 1 entries) */
    uint32_t *pages; /* and the pages, in the order written */
};

static inline uint32_t die_of(const struct ssdsim__ftl *f, uint32_t ppn)
{
    return ppn / f->ppb / f->bpp / f->ppd;
}

static inline unsigned rec_get(const uint8_t *rec, uint32_t ppn)
{
    return (rec[ppn >> 2] >> ((ppn & 3) * 2)) & 3u;
}

static inline void rec_set(uint8_t *rec, uint32_t ppn, unsigned v)
{
    uint8_t *b = &rec[ppn >> 2];
    unsigned sh = (ppn & 3) * 2;
    *b = (uint8_t)((*b & ~(3u << sh)) | (v << sh));
}

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
    /* zeroed now, so resident from the start as the other per-page arrays are: the memory of a
     * run stays flat (memest.h) */
    f->parity->rec = malloc((f->n_ppn + 3) / 4);
    if (!f->parity->rec)
        return SSDSIM_ENOMEM;
    memset(f->parity->rec, 0, (f->n_ppn + 3) / 4);
    for (uint32_t c = 0; c < f->parity->n_s; c++)
        if (!(f->parity->s[c].dies = calloc(group, sizeof(uint32_t))) ||
            !(f->parity->s[c].pages = calloc(group, sizeof(uint32_t))))
            return SSDSIM_ENOMEM;
    return 0;
}

void ssdsim__page_parity_free(struct ssdsim__ftl *f)
{
    if (!f->parity)
        return;
    for (uint32_t c = 0; c < f->parity->n_s && f->parity->s; c++) {
        free(f->parity->s[c].dies);
        free(f->parity->s[c].pages);
    }
    free(f->parity->s);
    free(f->parity->rec);
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
    if (s->n < r->group - 1) {
        s->dies[s->n] = die;
        s->pages[s->n] = ppn;
    }
    s->n++; /* (page_super.c's settle writes the parity page at g - 1 data pages) */
}

void ssdsim__page_parity_abandon(struct ssdsim__ftl *f, int fr)
{
    f->parity->s[fr].n = 0; /* its pages stay unmarked: no page of it can be given back */
}

void ssdsim__page_parity_write(struct ssdsim__ftl *f, int fr, uint32_t pp)
{
    struct ssdsim__parity *r = f->parity;
    struct ssdsim__stripe *s = &r->s[fr];
    assert(s->n > 0 && s->n < r->group);
    if (!r->dry) {
        ssdsim_ftl_count(f->env, SSDSIM_CNT_PARITY_PAGES, 1);
        ssdsim_ftl_submit(f->env, SSDSIM_FLASH_PROGRAM, pp, f->page_size, SSDSIM_FOR_PARITY,
                          cookie(TAG_PARITY_PROG, 0, pp / f->ppb / f->bpp));
    }
    rec_set(r->rec, s->pages[0], REC_FIRST);
    for (uint32_t i = 1; i < s->n; i++)
        rec_set(r->rec, s->pages[i], REC_DATA);
    rec_set(r->rec, pp, REC_PARITY);
    s->n = 0;
}

/* The sealed stripe that holds ppn, its pages in the order written (the data pages, then the
 * parity page) into out[0 .. g - 1]: their number, 0 when ppn is in no sealed stripe or the
 * marks around it are not one (the check says which). */
static uint32_t stripe_of(const struct ssdsim__ftl *f, uint32_t ppn, uint32_t *out)
{
    const struct ssdsim__parity *r = f->parity;
    unsigned m = rec_get(r->rec, ppn);
    if (m == REC_NONE)
        return 0;
    uint32_t s = ppn / f->ppb % f->bpp, t = ssdsim__page_sb_slot(f, ppn);
    uint32_t slots = f->n_planes * f->ppb;
    if (m != REC_FIRST) { /* back to the first page, over the slots the writer skipped */
        for (;;) {
            if (t == 0)
                return 0;
            unsigned mt = rec_get(r->rec, ssdsim__page_sb_slot_ppn(f, s, --t));
            if (mt == REC_FIRST)
                break;
            if (mt == REC_PARITY)
                return 0;
        }
    }
    uint32_t n = 0;
    for (; t < slots; t++) {
        uint32_t x = ssdsim__page_sb_slot_ppn(f, s, t);
        unsigned mt = rec_get(r->rec, x);
        if (mt == REC_NONE)
            continue;
        if ((mt == REC_FIRST) != (n == 0) || n == r->group)
            return 0;
        out[n++] = x;
        if (mt == REC_PARITY)
            return n;
    }
    return 0;
}

uint32_t ssdsim__page_parity_mates(const struct ssdsim__ftl *f, uint32_t ppn, uint32_t *out,
                                   uint32_t max)
{
    const struct ssdsim__parity *r = f->parity;
    if (!r)
        return 0;
    uint32_t pages[1024], k = stripe_of(f, ppn, pages), at = k;
    for (uint32_t i = 0; i < k; i++)
        if (pages[i] == ppn)
            at = i;
    if (k < 2 || at == k)
        return 0;
    uint32_t n = 0;
    for (uint32_t i = 1; i < k; i++) { /* the pages after ppn, round to the one before it */
        uint32_t x = pages[(at + i) % k];
        if (n == max || ssdsim__page_on_dead_die(f, x))
            return 0;
        out[n++] = x;
    }
    return n; /* the other data pages and the parity page */
}

void ssdsim__page_parity_erased(struct ssdsim__ftl *f, uint32_t b)
{
    for (uint32_t ppn = b * f->ppb, end = ppn + f->ppb; ppn < end; ppn++)
        rec_set(f->parity->rec, ppn, REC_NONE);
}

/* The stripe record (ftl/page_check.c, through page_super.c's check): every mark belongs to a
 * sealed stripe, which is a first data page, then data pages, then its parity page, 2 to g
 * pages of one superblock in its slot order, each on its own die. O(pages x g). */
int ssdsim__page_parity_check(const struct ssdsim__ftl *f, char *why, size_t len)
{
    const struct ssdsim__parity *r = f->parity;
    uint32_t pages[1024];
    uint64_t marked = 0, in_stripes = 0;
    for (uint64_t ppn = 0; ppn < f->n_ppn; ppn++) {
        unsigned m = rec_get(r->rec, (uint32_t)ppn);
        if (m == REC_NONE)
            continue;
        marked++;
        if (m != REC_FIRST)
            continue;
        uint32_t n = stripe_of(f, (uint32_t)ppn, pages);
        if (n < 2) {
            snprintf(why, len,
                     "page FTL check: the stripe that starts at page %llu is not data pages "
                     "then a parity page, at most %u pages of its superblock",
                     (unsigned long long)ppn, r->group);
            return SSDSIM_ESTATE;
        }
        in_stripes += n;
        for (uint32_t i = 0; i < n; i++)
            for (uint32_t j = 0; j < i; j++)
                if (die_of(f, pages[i]) == die_of(f, pages[j])) {
                    snprintf(why, len,
                             "page FTL check: the stripe of page %llu has two pages on die %u",
                             (unsigned long long)ppn, die_of(f, pages[i]));
                    return SSDSIM_ESTATE;
                }
    }
    if (marked != in_stripes) {
        snprintf(why, len,
                 "page FTL check: %llu pages are marked as parts of sealed stripes, %llu are in "
                 "the stripes their first pages start",
                 (unsigned long long)marked, (unsigned long long)in_stripes);
        return SSDSIM_ESTATE;
    }
    return 0;
}
