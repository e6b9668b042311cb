/* badblock.c: factory and grown bad blocks, and the read-only state (rel/fault.h).
 *
 * Factory bad blocks: round(reliability.bad_fraction x blocks per plane) blocks of every plane,
 * drawn uniformly without replacement from a random stream of their own seeded by the
 * simulation's seed, so the same seed marks the same blocks. The FTL never uses them.
 *
 * Grown bad blocks: every program/erase cycle of a block may fail it. The failure is decided
 * when the block is erased (an erase failure, or a program failure met during the cycle that
 * the controller saw and kept the data of: either way the block is retired once GC has moved
 * its valid data off, which is what collecting it as a victim did), with the probability
 *
 *     p(n) = min(1, grown_prob_rated x (n / rated_pe_cycles)^grown_exponent)
 *
 * of its erase count n after this erase (and, for a block whose wear was installed or added at
 * once since its last erase, of all those cycles: 1 - prod (1 - p(i))). A rising power of wear
 * is a simple reading of the field studies (Meza et al., SIGMETRICS 2015; Schroeder et al.,
 * FAST 2016): failures grow with P/E cycles; the defaults are estimates (doc/models.md,
 * "Faults").
 *
 * Read-only: the FTL says at create how many good pages it needs (the logical space, its extra
 * pages, and the GC reserve and open blocks of every plane: the same sum as its set-up check).
 * When the good pages fall below it, the drive accepts no more host writes (dev/dev.c refuses
 * them, counted here); reads, trims, flushes and the device's own work go on.
 */
#include "rel/fault.h"

#include <math.h>
#include <stdlib.h>

bool ssdsim__fault_on(const struct ssdsim_model *m)
{
    const struct ssdsim__fault_cfg *c = &m->fault;
    return c->bad_fraction > 0 || c->grown_prob_rated > 0;
}

struct ssdsim__fault *ssdsim__fault_new(const struct ssdsim_model *m, uint64_t n_blocks,
                                        uint32_t n_planes, uint64_t seed)
{
    struct ssdsim__fault *f = calloc(1, sizeof *f);
    if (!f)
        return NULL;
    f->cfg = &m->fault;
    f->rated_pe = m->flash.rated_pe_cycles;
    f->n_blocks = n_blocks;
    f->n_planes = n_planes;
    f->bpp = (uint32_t)(n_blocks / n_planes);
    f->ppb = m->geometry.pages_per_block;
    f->bad = calloc(n_blocks, 1);
    f->seen = calloc(n_blocks, sizeof *f->seen);
    f->bad_in_plane = calloc(n_planes, sizeof *f->bad_in_plane);
    uint32_t *pick = malloc(sizeof *pick * f->bpp);
    if (!f->bad || !f->seen || !f->bad_in_plane || !pick) {
        free(pick);
        ssdsim__fault_free(f);
        return NULL;
    }
    struct ssdsim__rng r;
    ssdsim__rng_seed(&r, seed, "factory-bad-blocks", 0);
    uint32_t per_plane = (uint32_t)floor(f->cfg->bad_fraction * f->bpp + 0.5);
    for (uint32_t p = 0; p < n_planes; p++) {
        /* a partial Fisher-Yates shuffle: the first per_plane entries are the bad ones */
        for (uint32_t i = 0; i < f->bpp; i++)
            pick[i] = i;
        for (uint32_t i = 0; i < per_plane; i++) {
            uint32_t j = i + (uint32_t)ssdsim__rng_below(&r, f->bpp - i);
            uint32_t t = pick[i];
            pick[i] = pick[j];
            pick[j] = t;
            f->bad[(uint64_t)p * f->bpp + pick[i]] = SSDSIM__BAD_FACTORY;
        }
        f->bad_in_plane[p] = per_plane;
        f->factory_bad += per_plane;
    }
    free(pick);
    ssdsim__rng_seed(&f->rng, seed, "grown-bad-blocks", 0);
    return f;
}

void ssdsim__fault_free(struct ssdsim__fault *f)
{
    if (!f)
        return;
    free(f->bad);
    free(f->seen);
    free(f->bad_in_plane);
    free(f);
}

double ssdsim__fault_grown_prob(const struct ssdsim__fault *f, uint32_t erase_count)
{
    double p0 = f->cfg->grown_prob_rated;
    if (p0 <= 0 || f->rated_pe == 0)
        return 0;
    double p = p0 * pow((double)erase_count / f->rated_pe, f->cfg->grown_exponent);
    return p < 1 ? p : 1;
}

bool ssdsim__fault_erased(struct ssdsim__fault *f, uint64_t block, uint32_t erase_count,
                          uint64_t now)
{
    if (!f || f->cfg->grown_prob_rated <= 0)
        return false;
    /* The cycles since the block's last draw: one, unless wear was installed (preconditioning)
     * or added at once (ssdsim_wear) since, whose cycles each could have failed it too: the
     * block survives them all with prod (1 - p(i)). */
    uint32_t from = f->seen[block];
    f->seen[block] = erase_count;
    double p = ssdsim__fault_grown_prob(f, erase_count);
    if (from + 1 < erase_count) {
        double keep = 1;
        for (uint32_t n = from + 1; n <= erase_count && keep > 0; n++)
            keep *= 1 - ssdsim__fault_grown_prob(f, n);
        p = 1 - keep;
    }
    if (!(ssdsim__rng_double(&f->rng) < p))
        return false;
    f->bad[block] = SSDSIM__BAD_GROWN;
    f->bad_in_plane[block / f->bpp]++;
    f->grown_bad++;
    if (!f->read_only && ssdsim__fault_good_pages(f) < f->need_good_pages) {
        f->read_only = true;
        f->ro_ns = now;
        f->ro_host_bytes = f->host_bytes;
        f->ro_bad = f->factory_bad + f->grown_bad;
    }
    return true;
}
