/* diefail.c: a die that fails for good at a given time (ssdsim_fail_die, run --fail
 * die:CH/CHIP/DIE@TIME; doc/models.md, "Faults"), for the page FTL.
 *
 * From the failure on, the die is never written again: its planes take no host page, no GC
 * copy and no parity page, and GC never collects them (page_place.c and page_gc.c ask
 * ssdsim__diefail_plane_dead; with parity the superblock writers skip them, and a superblock
 * GC collects leaves them out: ftl/page_super.c). Its data is not read from it either:
 *
 *   with RAIN parity (ftl.parity_group, ftl/page_parity.c), a read of a page on the failed die
 *   reads every other page of its stripe (the other data pages and the parity page, one read
 *   each on their own dies) and XORs them (reliability.rebuild_xor_us per page read), then
 *   completes; a stripe that cannot give it back (left without parity, see page_super.c) makes
 *   the read unrecoverable; GC that collects a superblock holding valid pages of the failed die
 *   reconstructs each the same way (ssdsim__diefail_gc_page) and copies it, and counts it
 *   rebuilt;
 *   without parity, every read of its data is unrecoverable, and its valid pages are counted
 *   lost at the failure.
 *
 * Rebuild (with parity): the logical pages the die held at the failure are reconstructed one
 * after another, in logical order, at most reliability.rebuild_rate bytes per second (a page
 * each page_size / rate), each as a host read of it would be, and written to a healthy die as
 * a GC copy would (counted as one: they are in WAF). A page the host overwrote or trimmed
 * meanwhile is skipped. The rebuild is done when the last page's program has completed; the
 * host's requests go on all along, and the time series shows what the rebuild costs them.
 *
 * A plane can fail alone (ssdsim_fail_plane, --fail plane:CH/CHIP/DIE/PLANE@TIME): the same,
 * for that plane's blocks only (a stripe's pages are on different dies, so on different planes).
 *
 * Refused: DFTL (its translation pages), an SLC cache, ftl.placement "lba" (a page's die is
 * fixed by its address). The state is the FTL's: a secure erase (which rebuilds the FTL)
 * forgets the failure.
 */
#include "rel/diefail.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ftl/page_int.h"
#include "plugin.h"

enum { K_HOST = 0, K_REBUILD = 1, K_GC = 2 };

struct recon {
    uint32_t io, bytes, lpn, pending, next;
    uint32_t ppn, n; /* the page reconstructed, its stripe mates read */
    uint8_t kind;
};

struct ssdsim__diefail {
    uint32_t die;
    uint32_t first_plane, n_dead; /* the dead planes: the die's, or one of them */
    uint64_t xor_page_ns, gap_ns;
    struct recon *rc;
    uint32_t n_rc, cap_rc, free_rc;
    uint32_t *todo; /* logical pages on the die at the failure */
    uint64_t n_todo, next;
    uint64_t programs_out; /* rebuild programs not yet done */
    uint64_t rebuild_out;  /* rebuild reconstructions not yet written (reads, XOR, a plane) */
    bool stepping;         /* a rebuild step is scheduled */
    struct ssdsim__diefail_stats st;
};

bool ssdsim__diefail_plane_dead(const struct ssdsim__ftl *f, uint32_t plane)
{
    return plane - f->df->first_plane < f->df->n_dead;
}

void ssdsim__diefail_free(struct ssdsim__ftl *f)
{
    if (!f->df)
        return;
    free(f->df->rc);
    free(f->df->todo);
    free(f->df);
    f->df = NULL;
}

static uint32_t rc_take(struct ssdsim__diefail *d)
{
    if (d->free_rc != NONE) {
        uint32_t i = d->free_rc;
        d->free_rc = d->rc[i].next;
        return i;
    }
    if (d->n_rc == d->cap_rc) {
        uint32_t cap = d->cap_rc ? d->cap_rc * 2 : 64;
        struct recon *p = realloc(d->rc, sizeof *p * cap);
        if (!p)
            return NONE;
        d->rc = p;
        d->cap_rc = cap;
    }
    return d->n_rc++;
}

static void rc_put(struct ssdsim__diefail *d, uint32_t i)
{
    d->rc[i].next = d->free_rc;
    d->free_rc = i;
}

/* Start reconstructing ppn (for a host read, or the rebuild of lpn): false when it cannot be. */
static bool reconstruct(struct ssdsim__ftl *f, uint32_t ppn, uint32_t io, uint32_t bytes,
                        uint32_t lpn, int kind)
{
    struct ssdsim__diefail *d = f->df;
    uint32_t others[1024];
    uint32_t n = ssdsim__page_parity_mates(f, ppn, others, 1024);
    if (!n)
        return false;
    uint32_t k = rc_take(d);
    if (k == NONE) {
        ssdsim_ftl_fail(f->env, SSDSIM_ENOMEM, "out of memory reconstructing a failed die");
        return true;
    }
    d->rc[k] = (struct recon){.io = io, .bytes = bytes, .lpn = lpn, .pending = n, .ppn = ppn,
                              .n = n, .kind = (uint8_t)kind};
    for (uint32_t i = 0; i < n; i++)
        ssdsim_ftl_submit(f->env, SSDSIM_FLASH_READ, others[i], f->page_size,
                          kind == K_HOST ? SSDSIM_FOR_HOST : SSDSIM_FOR_GC,
                          cookie(TAG_RECON_READ, 0, k));
    if (kind == K_HOST) {
        d->st.reconstructed_reads++;
        d->st.reconstruct_pages_read += n;
    } else {
        d->st.rebuild_pages_read += n;
        if (kind == K_REBUILD)
            d->rebuild_out++;
    }
    return true;
}

bool ssdsim__diefail_gc_page(struct ssdsim__ftl *f, uint32_t ppn, uint32_t lpn)
{
    if (reconstruct(f, ppn, NONE, f->page_size, lpn, K_GC))
        return true;
    f->df->st.rebuild_lost++;
    return false;
}

int ssdsim__diefail_read(struct ssdsim__ftl *f, uint32_t io, uint32_t ppn, uint32_t bytes)
{
    if (!reconstruct(f, ppn, io, bytes, NONE, K_HOST)) {
        f->df->st.unrecoverable_reads++;
        ssdsim_ftl_unit_done(f->env, io, bytes);
    }
    return 0;
}

static void step(void *ctx, uint32_t arg);

static void schedule_step(struct ssdsim__ftl *f, uint64_t t)
{
    struct ssdsim__diefail *d = f->df;
    if (d->stepping)
        return;
    d->stepping = true;
    if (ssdsim__engine_schedule(f->env->engine, t, step, f, 0))
        ssdsim_ftl_fail(f->env, SSDSIM_ENOMEM, "out of memory rebuilding a failed die");
}

static void finish_if_done(struct ssdsim__ftl *f)
{
    struct ssdsim__diefail *d = f->df;
    if (d->next == d->n_todo && d->programs_out == 0 && d->rebuild_out == 0 && !d->stepping &&
        !d->st.rebuild_done && d->st.rebuild_started) {
        d->st.rebuild_done = true;
        d->st.rebuild_end_ns = ssdsim__engine_now(f->env->engine);
    }
}

/* One page of the rebuild, then the next step a page's time at the rate later. */
static void step(void *ctx, uint32_t arg)
{
    (void)arg;
    struct ssdsim__ftl *f = ctx;
    struct ssdsim__diefail *d = f->df;
    d->stepping = false;
    while (d->next < d->n_todo) {
        uint32_t lpn = d->todo[d->next++];
        uint32_t ppn = f->l2p[lpn];
        if (ppn == NONE || !ssdsim__page_on_dead_die(f, ppn))
            continue; /* overwritten or trimmed since */
        if (!reconstruct(f, ppn, NONE, f->page_size, lpn, K_REBUILD)) {
            d->st.rebuild_lost++;
            continue;
        }
        if (d->next < d->n_todo)
            schedule_step(f, ssdsim__engine_now(f->env->engine) + d->gap_ns);
        return;
    }
    finish_if_done(f);
}

/* The reconstruction of k is complete (its XOR done): a host read completes, a rebuilt page is
 * written to a healthy die. */
static void xor_done(void *ctx, uint32_t k)
{
    struct ssdsim__ftl *f = ctx;
    struct ssdsim__diefail *d = f->df;
    struct recon *r = &d->rc[k];
    if (r->kind == K_HOST) {
        uint32_t io = r->io, bytes = r->bytes;
        rc_put(d, k);
        ssdsim_ftl_unit_done(f->env, io, bytes);
        return;
    }
    if (r->kind == K_GC) { /* a superblock's collection copies it (ftl/page_super.c) */
        uint32_t old = r->ppn, lpn = r->lpn;
        rc_put(d, k);
        if (p2l_get(f, old) == lpn)
            d->st.rebuild_pages++;
        ssdsim__page_sb_rebuilt(f, old, lpn);
        return;
    }
    uint32_t lpn = r->lpn, ppn = f->l2p[lpn];
    if (ppn == NONE || !ssdsim__page_on_dead_die(f, ppn)) {
        rc_put(d, k); /* overwritten while it was read */
        d->rebuild_out--;
        finish_if_done(f);
        return;
    }
    /* under the rule of a host page (the host frontier, never GC's reserve or its room) */
    int fr = f->fdp ? ssdsim__page_fdp_rebuild_frontier(f, lpn) : SSDSIM__FR_HOST;
    /* with FDP's reclaim groups, in the failed die's group while it has room (page_place.c) */
    uint32_t group = f->fdp ? ssdsim__page_fdp_plane_group(f, ppn / f->ppb / f->bpp) : 0;
    uint32_t named = group;
    uint32_t plane = ssdsim__page_place(f, fr, lpn, &group);
    if (plane == NONE) { /* every plane down to its reserve: again a page's time later */
        if (ssdsim__engine_schedule(f->env->engine,
                                    ssdsim__engine_now(f->env->engine) + d->gap_ns, xor_done, f,
                                    k))
            ssdsim_ftl_fail(f->env, SSDSIM_ENOMEM, "out of memory rebuilding a failed die");
        return;
    }
    rc_put(d, k);
    d->rebuild_out--;
    d->programs_out++;
    d->st.rebuild_pages++;
    ssdsim_ftl_count(f->env, SSDSIM_CNT_GC_COPIES, 1);
    if (f->fdp && ssdsim__page_fdp_groups(f) > 1)
        ssdsim__page_fdp_name_group(f, named);
    ssdsim__page_program(f, plane, fr, lpn, ppn, SSDSIM_FOR_GC, cookie(TAG_REBUILD_PROG, 0, 0));
}

void ssdsim__diefail_flash_done(struct ssdsim__ftl *f, enum op_tag tag, uint32_t low)
{
    struct ssdsim__diefail *d = f->df;
    if (tag == TAG_REBUILD_PROG) {
        d->programs_out--;
        finish_if_done(f);
        return;
    }
    struct recon *r = &d->rc[low];
    if (--r->pending)
        return;
    uint64_t t = ssdsim__engine_now(f->env->engine) + (uint64_t)r->n * d->xor_page_ns;
    if (ssdsim__engine_schedule(f->env->engine, t, xor_done, f, low))
        ssdsim_ftl_fail(f->env, SSDSIM_ENOMEM, "out of memory reconstructing a failed die");
}

int ssdsim__diefail_can(const struct ssdsim_ftl_env *env, char *why, size_t len)
{
    if (env->ops != &ssdsim__ftl_page_ops) {
        snprintf(why, len, "a die failure is modelled for the \"page\" FTL only (ftl.type is "
                           "\"%s\")",
                 env->model->ftl.type);
        return SSDSIM_EINVAL;
    }
    const struct ssdsim__ftl *f = env->state;
    if (f->slc || f->placement == SSDSIM__PLACE_LBA) {
        snprintf(why, len, "a die failure is not modelled with %s",
                 f->slc ? "an SLC cache" : "ftl.placement \"lba\"");
        return SSDSIM_EINVAL;
    }
    if (f->df) {
        snprintf(why, len, "die %u has failed already (one failed die is modelled)", f->df->die);
        return SSDSIM_EINVAL;
    }
    if (f->n_dies < 2) {
        snprintf(why, len, "the drive has a single die");
        return SSDSIM_EINVAL;
    }
    return 0;
}

int ssdsim__diefail_start(struct ssdsim_ftl_env *env, uint32_t die, uint32_t plane, char *why,
                          size_t len)
{
    int rc = ssdsim__diefail_can(env, why, len);
    if (rc)
        return rc;
    struct ssdsim__ftl *f = env->state;
    struct ssdsim__diefail *d = calloc(1, sizeof *d);
    if (!d)
        return SSDSIM_ENOMEM;
    const struct ssdsim__fault_cfg *c = &env->model->fault;
    d->die = die;
    d->first_plane = plane == NONE ? die * f->ppd : die * f->ppd + plane;
    d->n_dead = plane == NONE ? f->ppd : 1;
    d->free_rc = NONE;
    d->xor_page_ns = c->rebuild_xor_ns;
    d->gap_ns = (uint64_t)((double)f->page_size * 1e9 / (double)c->rebuild_bytes_per_s + 0.5);
    if (d->gap_ns == 0)
        d->gap_ns = 1;
    f->df = d;
    uint64_t now = ssdsim__engine_now(env->engine);
    d->st.failed = true;
    d->st.die = die;
    d->st.plane = plane;
    d->st.failed_ns = now;
    uint64_t n = 0;
    for (uint64_t l = 0; l < f->n_lpn; l++)
        if (f->l2p[l] != NONE && ssdsim__page_on_dead_die(f, f->l2p[l]))
            n++;
    d->st.pages_on_die = n;
    if (!f->parity) {
        d->st.lost_pages = n;
        return 0;
    }
    d->todo = malloc(sizeof *d->todo * (n ? n : 1));
    if (!d->todo)
        return SSDSIM_ENOMEM;
    for (uint64_t l = 0; l < f->n_lpn; l++)
        if (f->l2p[l] != NONE && ssdsim__page_on_dead_die(f, f->l2p[l]))
            d->todo[d->n_todo++] = (uint32_t)l;
    d->st.rebuild_started = true;
    if (f->sb)
        ssdsim__page_sb_die_failed(f);
    schedule_step(f, now);
    return 0;
}

bool ssdsim__diefail_stats(const struct ssdsim_ftl_env *env, struct ssdsim__diefail_stats *out)
{
    if (env->ops != &ssdsim__ftl_page_ops || !((const struct ssdsim__ftl *)env->state)->df)
        return false;
    *out = ((const struct ssdsim__ftl *)env->state)->df->st;
    return true;
}
