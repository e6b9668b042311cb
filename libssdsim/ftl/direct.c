/* direct.c: the direct FTL ("direct") for media without erase (3D XPoint-like): every logical
 * unit has a physical page of its own for the life of the device, reads read it, writes program
 * it in place. There is nothing to collect, erase or level, so write amplification is exactly 1
 * and writes never wait for space.
 *
 * Placement: unit u lives on page u / P of plane stripe[u % P], P the number of planes, where
 * the stripe walks channels first, then chips, dies and planes (the order the FAST FTL spreads
 * its logical blocks in and the page FTL's die cursor visits dies in), so that any P consecutive
 * units are on P different planes and consecutive units on different channels while there are
 * channels left. The page is computed, not looked up: there is no mapping table. A model whose
 * logical capacity exceeds its physical pages is refused; with ftl.op above 0 the last pages of
 * each plane are never used (over-provisioning buys nothing here).
 *
 * What is kept: which units are written (a bitmap: an unwritten or trimmed unit reads as zeros
 * without touching the media, as the page FTL answers it), and per block how many written units
 * it holds, for block_valid and the free-block figures. "Free" here means a block holding no
 * written unit, not an erased one: this media writes any page at any time. A fresh device shows
 * every block free and a fully written one none, which is what the time series and reports of
 * the NAND FTLs show for a fresh and a full drive too.
 *
 * Partial units and unwritten units behave as in the page FTL: a write of part of a written unit
 * first reads the whole page (SSDSIM_FOR_HOST_RMW), then programs it; a partial write of an
 * unwritten unit programs the page at once (the rest is zeros). Programs are always whole pages.
 *
 * Fast preconditioning (install, block_closed) is not offered: its device images describe erase
 * blocks in a page FTL's life (valid pages per block, the order blocks were closed), none of
 * which exists here, and a sequential fill (ssdsim_precondition_seq) already leaves this FTL in
 * its steady state: every unit written, nothing else to converge.
 */
#include "ftl/direct.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NONE UINT32_MAX

enum op_tag {
    TAG_HOST_READ = 1, /* low: io, mid: bytes */
    TAG_HOST_PROG,     /* low: io */
    TAG_RMW_READ,      /* low: rmw pool index */
};

static inline uint64_t cookie(enum op_tag tag, uint32_t mid, uint32_t low)
{
    return ssdsim__cookie(tag, mid, low);
}

/* ---------------------------------------------------------------- written units */

/* Unit `lpn` now holds data (it is about to be programmed). */
static void mark_written(struct ssdsim__direct *f, uint64_t lpn, uint32_t ppn)
{
    if (ssdsim__direct_written(f, lpn))
        return;
    f->written[lpn >> 6] |= 1ULL << (lpn & 63);
    uint32_t b = ppn / f->ppb;
    if (f->valid[b]++ == 0) {
        f->plane_free[b / f->bpp]--;
        f->n_free_blocks--;
    }
}

/* ---------------------------------------------------------------- host requests */

static int host_program(struct ssdsim__direct *f, uint32_t io, uint64_t lpn)
{
    uint32_t ppn = ssdsim__direct_ppn(f, lpn);
    mark_written(f, lpn, ppn);
    ssdsim_ftl_count(f->env, SSDSIM_CNT_HOST_PAGES, 1);
    return ssdsim_ftl_submit(f->env, SSDSIM_FLASH_PROGRAM, ppn, f->page_size, SSDSIM_FOR_HOST,
                             cookie(TAG_HOST_PROG, 0, io));
}

static int direct_read(void *state, uint32_t io, uint64_t lpn, uint32_t bytes)
{
    struct ssdsim__direct *f = state;
    SSDSIM__DEBUG_ASSERT(lpn < f->n_lpn);
    uint32_t ppn = ssdsim__direct_written(f, lpn) ? ssdsim__direct_ppn(f, lpn) : NONE;
    return ssdsim__ftl_host_read(f->env, ppn, io, bytes, cookie(TAG_HOST_READ, bytes, io));
}

static int direct_write(void *state, uint32_t io, uint64_t lpn, uint32_t bytes)
{
    struct ssdsim__direct *f = state;
    SSDSIM__DEBUG_ASSERT(lpn < f->n_lpn);
    if (bytes < f->page_size && ssdsim__direct_written(f, lpn)) {
        /* The rest of the unit must be read before the whole page is programmed again. */
        uint32_t slot = ssdsim__pending_pool_add(
            &f->rmw, (struct ssdsim__pending){.io = io, .lpn = (uint32_t)lpn});
        if (slot == NONE)
            return SSDSIM_ENOMEM;
        return ssdsim_ftl_submit(f->env, SSDSIM_FLASH_READ, ssdsim__direct_ppn(f, lpn),
                                 f->page_size, SSDSIM_FOR_HOST_RMW, cookie(TAG_RMW_READ, 0, slot));
    }
    return host_program(f, io, lpn);
}

/* Nothing physical happens: the page keeps its old contents, which no read returns any more. */
static void direct_trim(void *state, uint64_t lpn)
{
    struct ssdsim__direct *f = state;
    if (lpn >= f->n_lpn || !ssdsim__direct_written(f, lpn))
        return;
    f->written[lpn >> 6] &= ~(1ULL << (lpn & 63));
    uint32_t b = ssdsim__direct_ppn(f, lpn) / f->ppb;
    if (--f->valid[b] == 0) {
        f->plane_free[b / f->bpp]++;
        f->n_free_blocks++;
    }
}

static void direct_flash_done(void *state, uint64_t ck)
{
    struct ssdsim__direct *f = state;
    uint32_t low = ssdsim__cookie_low(ck);
    switch ((enum op_tag)ssdsim__cookie_tag(ck)) {
    case TAG_HOST_READ:
    case TAG_HOST_PROG:
        ssdsim__ftl_host_done(f->env, ck);
        break;
    case TAG_RMW_READ: {
        struct ssdsim__pending w = ssdsim__pending_pool_take(&f->rmw, low);
        /* A program that cannot be submitted has stopped the run already (ssdsim_ftl_submit
         * calls ssdsim_ftl_fail on ENOMEM; the address is always in range). */
        host_program(f, w.io, w.lpn);
        break;
    }
    default:
        ssdsim_ftl_fail(f->env, SSDSIM_ESTATE, "direct FTL: unknown flash operation completed");
    }
}

/* ---------------------------------------------------------------- inspection */

static uint64_t direct_free_blocks(void *state)
{
    return ((struct ssdsim__direct *)state)->n_free_blocks;
}

static uint64_t direct_plane_free_blocks(void *state, uint32_t plane)
{
    struct ssdsim__direct *f = state;
    return plane < f->n_planes ? f->plane_free[plane] : 0;
}

static uint32_t direct_block_valid(void *state, uint64_t block)
{
    struct ssdsim__direct *f = state;
    return block < f->n_ppn / f->ppb ? f->valid[block] : 0;
}

static uint64_t direct_lookup(void *state, uint64_t lpn)
{
    struct ssdsim__direct *f = state;
    return lpn < f->n_lpn && ssdsim__direct_written(f, lpn) ? ssdsim__direct_ppn(f, lpn)
                                                            : UINT64_MAX;
}

/* The bitmap of a large device is far larger than the caches; its word is all a request needs. */
static void direct_prefetch(void *state, uint64_t lpn)
{
    struct ssdsim__direct *f = state;
    __builtin_prefetch(&f->written[lpn >> 6], 1, 3);
}

/* ---------------------------------------------------------------- set-up */

static void direct_destroy(void *state)
{
    struct ssdsim__direct *f = state;
    free(f->stripe);
    free(f->written);
    free(f->valid);
    free(f->plane_free);
    ssdsim__pending_pool_fini(&f->rmw);
}

static int direct_create(void *state, ssdsim_ftl_env *env, const double *params, char *errbuf,
                         size_t errlen)
{
    struct ssdsim__direct *f = state;
    const ssdsim_geometry *g = ssdsim_ftl_geometry(env);
    f->env = env;
    f->n_lpn = g->logical_pages;
    f->n_ppn = g->n_pages;
    f->n_planes = g->n_planes;
    f->bpp = g->blocks_per_plane;
    f->ppb = g->pages_per_block;
    f->page_size = g->page_size;
    f->pages_per_plane = (uint64_t)g->blocks_per_plane * g->pages_per_block;
    ssdsim__pending_pool_init(&f->rmw);

    if (env->model && env->model->ftl.mapping_unit != g->page_size) {
        snprintf(errbuf, errlen,
                 "the direct FTL writes one mapping unit per page in place, so ftl.mapping_unit "
                 "(%u) must equal geometry.page_size (%u)",
                 env->model->ftl.mapping_unit, g->page_size);
        return SSDSIM_ECONFIG;
    }
    if (f->n_lpn == 0) {
        snprintf(errbuf, errlen, "the model has no logical capacity");
        return SSDSIM_ECONFIG;
    }
    if (f->n_lpn > f->n_ppn) {
        snprintf(errbuf, errlen,
                 "the logical capacity (%llu units) exceeds the device's %llu physical pages: "
                 "the direct FTL writes every unit in place on a page of its own (ftl.op %g; 0 "
                 "is enough)",
                 (unsigned long long)f->n_lpn, (unsigned long long)f->n_ppn, g->op);
        return SSDSIM_ECONFIG;
    }

    uint64_t nb = g->n_blocks;
    f->stripe = malloc(sizeof *f->stripe * f->n_planes);
    f->written = calloc((f->n_lpn + 63) / 64, sizeof *f->written);
    f->valid = calloc(nb, sizeof *f->valid);
    f->plane_free = malloc(sizeof *f->plane_free * f->n_planes);
    if (!f->stripe || !f->written || !f->valid || !f->plane_free)
        return SSDSIM_ENOMEM;

    /* Stripe index i -> plane: channel i % channels first, then chip, die, plane. */
    for (uint32_t i = 0; i < f->n_planes; i++)
        f->stripe[i] = ssdsim__ftl_stripe_plane(g, i);
    /* Nothing written: every block free. */
    for (uint32_t p = 0; p < f->n_planes; p++)
        f->plane_free[p] = g->blocks_per_plane;
    f->n_free_blocks = nb;
    return 0;
}

/* ---------------------------------------------------------------- consistency */

int ssdsim__direct_check(const void *state)
{
    const struct ssdsim__direct *f = state;
    uint64_t nb = f->n_ppn / f->ppb, bpp = f->bpp;
    int rc = 0;
    uint8_t *seen = calloc(f->n_ppn > f->n_planes ? f->n_ppn : f->n_planes, 1);
    uint32_t *count = calloc(nb, sizeof *count);
    if (!seen || !count) {
        rc = -100;
        goto out;
    }
    /* -1: the stripe is not a permutation of the planes. */
    for (uint32_t i = 0; i < f->n_planes && !rc; i++) {
        if (f->stripe[i] >= f->n_planes || seen[f->stripe[i]]++)
            rc = -1;
    }
    if (rc)
        goto out;
    memset(seen, 0, f->n_planes);
    /* -2: a unit's page is outside the device or another unit's. */
    for (uint64_t u = 0; u < f->n_lpn; u++) {
        uint32_t ppn = ssdsim__direct_ppn(f, u);
        if (ppn >= f->n_ppn || seen[ppn]++) {
            rc = -2;
            goto out;
        }
        if (ssdsim__direct_written(f, u))
            count[ppn / f->ppb]++;
    }
    /* -3: a block's count is not the written units it holds; -4: free counts disagree. */
    uint64_t free_all = 0;
    for (uint32_t p = 0; p < f->n_planes; p++) {
        uint32_t n_free = 0;
        for (uint64_t b = p * bpp; b < (p + 1) * bpp; b++) {
            if (count[b] != f->valid[b]) {
                rc = -3;
                goto out;
            }
            n_free += count[b] == 0;
        }
        if (n_free != f->plane_free[p]) {
            rc = -4;
            goto out;
        }
        free_all += n_free;
    }
    if (free_all != f->n_free_blocks)
        rc = -4;
out:
    free(seen);
    free(count);
    return rc;
}

/* The check method: ssdsim__direct_check's rule, in words. */
static int direct_check_method(void *state, char *why, size_t len)
{
    static const char *const rules[] = {
        "",
        "the stripe is not a permutation of the planes",
        "a unit's page is outside the device or another unit's",
        "a block's count is not the written units it holds",
        "the free-block counts (of a plane, or the device's) are not the blocks without a "
        "written unit",
    };
    int rc = ssdsim__direct_check(state);
    if (rc == 0)
        return 0;
    if (rc == -100) {
        snprintf(why, len, "out of memory");
        return SSDSIM_ENOMEM;
    }
    snprintf(why, len, "direct FTL check: %s (rule %d)",
             -rc < (int)SSDSIM__ARRAY_LEN(rules) ? rules[-rc] : "a rule is broken", -rc);
    return SSDSIM_ESTATE;
}

const ssdsim_ftl_ops ssdsim__ftl_direct_ops = {
    .abi_version = SSDSIM_PLUGIN_ABI_VERSION,
    .struct_size = sizeof(ssdsim_ftl_ops),
    .name = "direct",
    .summary = "in-place mapping for media without erase",
    .state_size = sizeof(struct ssdsim__direct),
    .params = NULL,
    .create = direct_create,
    .destroy = direct_destroy,
    .read = direct_read,
    .write = direct_write,
    .trim = direct_trim,
    .flash_done = direct_flash_done,
    .idle = NULL, /* no background work */
    .free_blocks = direct_free_blocks,
    .lookup = direct_lookup,
    .prefetch = direct_prefetch,
    .plane_free_blocks = direct_plane_free_blocks,
    .block_valid = direct_block_valid,
    .install = NULL,      /* see the comment at the top */
    .block_closed = NULL, /* no block is ever closed for GC */
    .check = direct_check_method,
};
