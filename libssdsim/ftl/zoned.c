/* zoned.c: the zoned FTL ("zoned") of a zoned-namespace drive (zns.* model keys). Zone z is a
 * stripe of k whole erase blocks on every plane (k = zns.zone_size / one block stripe): blocks
 * z*k .. z*k+k-1 of each plane. Unit `off` of a zone lives on page off / P of that stripe on
 * plane stripe[off % P], P the planes, the stripe walking channels first, then chips, dies and
 * planes (as the direct FTL's), so consecutive units of a zone are on different dies. The page
 * is computed, not looked up: there is no mapping table.
 *
 * The host writes each zone sequentially from its start (dev/zns.c refuses anything else before
 * a request reaches the device), so every unit is programmed once between two resets and no
 * page is ever overwritten in place. A zone reset reaches this FTL as trims of the zone's units:
 * when the last written unit of a block is trimmed, the block is erased. Nothing is ever copied,
 * so the device's write amplification is exactly 1 (programs = host pages) and the only erases
 * are those of resets. A second write of a unit without a reset in between is a broken
 * invariant: the run stops (SSDSIM_ESTATE).
 *
 * "Free" blocks (time series, inspection) are the erased ones: never programmed, or erased by a
 * reset since.
 */
#include "ftl/env.h"
#include "ftl/ftlutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NONE UINT32_MAX

struct zoned {
    ssdsim_ftl_env *env;
    uint64_t n_lpn, zone_units, pages_per_plane;
    uint32_t n_planes, bpp, ppb, page_size, k;
    uint32_t *stripe;     /* stripe index -> plane */
    uint64_t *written;    /* bitmap per logical unit */
    uint32_t *valid;      /* per block: written units it holds */
    uint8_t *dirty;       /* per block: programmed since its last erase */
    uint32_t *plane_free; /* per plane: erased blocks */
    uint64_t n_free_blocks;
};

enum op_tag { TAG_HOST_READ = 1, TAG_HOST_PROG, TAG_ERASE };

static inline uint32_t ppn_of(const struct zoned *f, uint64_t lpn)
{
    uint64_t z = lpn / f->zone_units, off = lpn % f->zone_units;
    uint64_t plane = f->stripe[off % f->n_planes];
    return (uint32_t)(plane * f->pages_per_plane + z * f->k * f->ppb + off / f->n_planes);
}

static inline bool is_written(const struct zoned *f, uint64_t lpn)
{
    return (f->written[lpn >> 6] >> (lpn & 63)) & 1;
}

static int zoned_read(void *state, uint32_t io, uint64_t lpn, uint32_t bytes)
{
    struct zoned *f = state;
    uint32_t ppn = lpn < f->n_lpn && is_written(f, lpn) ? ppn_of(f, lpn) : NONE;
    return ssdsim__ftl_host_read(f->env, ppn, io, bytes,
                                 ssdsim__cookie(TAG_HOST_READ, bytes, io));
}

static int zoned_write(void *state, uint32_t io, uint64_t lpn, uint32_t bytes)
{
    struct zoned *f = state;
    (void)bytes; /* a partial unit is programmed whole: the rest of a fresh page is zeros */
    if (lpn >= f->n_lpn || is_written(f, lpn)) {
        char msg[160];
        snprintf(msg, sizeof msg,
                 "zoned FTL: unit %llu written twice without a zone reset in between",
                 (unsigned long long)lpn);
        ssdsim_ftl_fail(f->env, SSDSIM_ESTATE, msg);
        return SSDSIM_ESTATE;
    }
    uint32_t ppn = ppn_of(f, lpn);
    uint32_t b = ppn / f->ppb;
    f->written[lpn >> 6] |= 1ULL << (lpn & 63);
    f->valid[b]++;
    if (!f->dirty[b]) {
        f->dirty[b] = 1;
        f->plane_free[b / f->bpp]--;
        f->n_free_blocks--;
    }
    ssdsim_ftl_count(f->env, SSDSIM_CNT_HOST_PAGES, 1);
    return ssdsim_ftl_submit(f->env, SSDSIM_FLASH_PROGRAM, ppn, f->page_size, SSDSIM_FOR_HOST,
                             ssdsim__cookie(TAG_HOST_PROG, 0, io));
}

/* A zone reset trims its units; a block whose last written unit goes is erased at once (its
 * die queue keeps the erase ahead of the zone's next programs). */
static void zoned_trim(void *state, uint64_t lpn)
{
    struct zoned *f = state;
    if (lpn >= f->n_lpn || !is_written(f, lpn))
        return;
    f->written[lpn >> 6] &= ~(1ULL << (lpn & 63));
    uint32_t b = ppn_of(f, lpn) / f->ppb;
    if (--f->valid[b] > 0)
        return;
    f->dirty[b] = 0;
    f->plane_free[b / f->bpp]++;
    f->n_free_blocks++;
    /* An address in range always submits (ENOMEM stops the run through ssdsim_ftl_fail). */
    ssdsim_ftl_submit(f->env, SSDSIM_FLASH_ERASE, b, 0, SSDSIM_FOR_GC,
                      ssdsim__cookie(TAG_ERASE, 0, 0));
}

static void zoned_flash_done(void *state, uint64_t ck)
{
    struct zoned *f = state;
    switch ((enum op_tag)ssdsim__cookie_tag(ck)) {
    case TAG_HOST_READ:
    case TAG_HOST_PROG:
        ssdsim__ftl_host_done(f->env, ck);
        break;
    case TAG_ERASE:
        break;
    default:
        ssdsim_ftl_fail(f->env, SSDSIM_ESTATE, "zoned FTL: unknown flash operation completed");
    }
}

static uint64_t zoned_free_blocks(void *state)
{
    return ((struct zoned *)state)->n_free_blocks;
}

static uint64_t zoned_plane_free_blocks(void *state, uint32_t plane)
{
    struct zoned *f = state;
    return plane < f->n_planes ? f->plane_free[plane] : 0;
}

static uint32_t zoned_block_valid(void *state, uint64_t block)
{
    struct zoned *f = state;
    return block < (uint64_t)f->n_planes * f->bpp ? f->valid[block] : 0;
}

static uint64_t zoned_lookup(void *state, uint64_t lpn)
{
    struct zoned *f = state;
    return lpn < f->n_lpn && is_written(f, lpn) ? ppn_of(f, lpn) : UINT64_MAX;
}

static void zoned_destroy(void *state)
{
    struct zoned *f = state;
    free(f->stripe);
    free(f->written);
    free(f->valid);
    free(f->dirty);
    free(f->plane_free);
}

static int zoned_create(void *state, ssdsim_ftl_env *env, const double *params, char *errbuf,
                        size_t errlen)
{
    (void)params;
    struct zoned *f = state;
    const ssdsim_geometry *g = ssdsim_ftl_geometry(env);
    const struct ssdsim_model *m = env->model;
    f->env = env;
    f->n_lpn = g->logical_pages;
    f->n_planes = g->n_planes;
    f->bpp = g->blocks_per_plane;
    f->ppb = g->pages_per_block;
    f->page_size = g->page_size;
    f->pages_per_plane = (uint64_t)g->blocks_per_plane * g->pages_per_block;
    uint64_t stripe = (uint64_t)g->n_planes * g->pages_per_block * g->page_size;
    if (!m || !m->zns.zone_size || m->zns.zone_size % stripe ||
        m->ftl.mapping_unit != g->page_size) {
        snprintf(errbuf, errlen,
                 "the zoned FTL needs a zoned namespace (zns.zone_size, a whole number of block "
                 "stripes) and ftl.mapping_unit equal to the page");
        return SSDSIM_ECONFIG;
    }
    f->k = (uint32_t)(m->zns.zone_size / stripe);
    f->zone_units = m->zns.zone_size / g->page_size;
    f->stripe = malloc(sizeof *f->stripe * f->n_planes);
    f->written = calloc((f->n_lpn + 63) / 64 + 1, sizeof *f->written);
    f->valid = calloc(g->n_blocks, sizeof *f->valid);
    f->dirty = calloc(g->n_blocks, 1);
    f->plane_free = malloc(sizeof *f->plane_free * f->n_planes);
    if (!f->stripe || !f->written || !f->valid || !f->dirty || !f->plane_free)
        return SSDSIM_ENOMEM;
    for (uint32_t i = 0; i < f->n_planes; i++)
        f->stripe[i] = ssdsim__ftl_stripe_plane(g, i);
    for (uint32_t p = 0; p < f->n_planes; p++)
        f->plane_free[p] = g->blocks_per_plane;
    f->n_free_blocks = g->n_blocks;
    return 0;
}

/* Every written unit counted in its block, dirty blocks exactly those not counted free. */
static int zoned_check(void *state, char *why, size_t len)
{
    struct zoned *f = state;
    uint64_t nb = (uint64_t)f->n_planes * f->bpp;
    uint32_t *count = calloc(nb, sizeof *count);
    if (!count) {
        snprintf(why, len, "out of memory");
        return SSDSIM_ENOMEM;
    }
    for (uint64_t u = 0; u < f->n_lpn; u++)
        if (is_written(f, u))
            count[ppn_of(f, u) / f->ppb]++;
    int rc = 0;
    uint64_t free_all = 0;
    for (uint64_t b = 0; b < nb && !rc; b++) {
        if (count[b] != f->valid[b]) {
            snprintf(why, len, "zoned FTL check: block %llu counts %u written units, holds %u",
                     (unsigned long long)b, f->valid[b], count[b]);
            rc = SSDSIM_ESTATE;
        } else if (count[b] && !f->dirty[b]) {
            snprintf(why, len, "zoned FTL check: block %llu holds data but is marked erased",
                     (unsigned long long)b);
            rc = SSDSIM_ESTATE;
        }
        free_all += !f->dirty[b];
    }
    if (!rc && free_all != f->n_free_blocks) {
        snprintf(why, len, "zoned FTL check: %llu erased blocks, counted %llu",
                 (unsigned long long)free_all, (unsigned long long)f->n_free_blocks);
        rc = SSDSIM_ESTATE;
    }
    free(count);
    return rc;
}

const ssdsim_ftl_ops ssdsim__ftl_zoned_ops = {
    .abi_version = SSDSIM_PLUGIN_ABI_VERSION,
    .struct_size = sizeof(ssdsim_ftl_ops),
    .name = "zoned",
    .summary = "zones mapped to block stripes, no device GC (zoned namespaces)",
    .state_size = sizeof(struct zoned),
    .params = NULL,
    .create = zoned_create,
    .destroy = zoned_destroy,
    .read = zoned_read,
    .write = zoned_write,
    .trim = zoned_trim,
    .flash_done = zoned_flash_done,
    .idle = NULL,
    .free_blocks = zoned_free_blocks,
    .lookup = zoned_lookup,
    .prefetch = NULL,
    .plane_free_blocks = zoned_plane_free_blocks,
    .block_valid = zoned_block_valid,
    .install = NULL,
    .block_closed = NULL,
    .check = zoned_check,
};
