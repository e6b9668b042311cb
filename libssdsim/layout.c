/* layout.c: which logical units a workload's writes leave side by side in flash: the runs fast
 * preconditioning installs (ssdsim_ftl_image.run_len).
 *
 * A write's units reach the FTL one after another and take consecutive slots of a write
 * frontier: a flash page's, then the next plane's page. The units it covers whole stay together
 * until a later write touches one of them again (GC copies a block's valid units in their
 * order). The units it covers in part are read first and written when the read returns
 * (read-modify-write), apart from the others. So after a long run of uniform random writes the
 * logical space is cut into runs: the whole units of one write that no later write has touched
 * since. A unit's run is the last write that touched it: walking back in time from now, the
 * first write found that touches it. Uniform random writes look the same backwards as forwards,
 * so the walk draws them forwards from the workload's own generators (its sizes, its alignment,
 * its clones taking turns), and gives each unit to the first write that touches it.
 *
 * Positions are uniform, so the walk is done on a window of WINDOW units (the units a request
 * touches taken modulo the window, which keeps where it starts and ends within a unit): the
 * window's runs are the pattern the image repeats over the logical space (its run_period), 1 MiB
 * whatever the drive's size. Runs are cut at the window's edges (one unit in a million) and at
 * 255 units. Covering every unit of the window takes about WINDOW x ln(WINDOW) unit
 * draws (14 million), a fraction of a CPU-second.
 *
 * Where no write can both cover a unit whole and touch another (sizes under the unit, or at
 * most the alignment where that divides the unit), every run is one unit: NULL, and the install
 * deals units one by one as before. Likewise where the unit is the flash page: consecutive units
 * then go to different planes in a timed run as in a random deal, and reads gain nothing from a
 * run. */
#include "layout.h"

#include <stdlib.h>
#include <string.h>

#include "workload/gen.h"

#define WINDOW (UINT64_C(1) << 20)
#define RUN_MAX 255
#define SINGLE UINT32_MAX /* a unit a write touched in part: a run of its own */

/* Can a write of `g` cover a whole unit of `unit` bytes and touch another? (Its size at least
 * the unit, and more than its alignment or an alignment that does not divide the unit.) */
static bool spans_units(const struct ssdsim__gen *g, uint32_t unit)
{
    const int d = SSDSIM__DIR_WRITE;
    uint32_t max = g->range_max[d];
    for (uint32_t i = 0; i < g->n_bs[d]; i++)
        if (g->bs_bytes[d][i] > max)
            max = g->bs_bytes[d][i];
    return max >= unit && (max > g->align || unit % g->align != 0);
}

int ssdsim__layout_runs(const struct ssdsim__jobspec *jobs, uint32_t n_jobs, uint64_t logical_bytes,
                        uint32_t unit, uint32_t page_size, uint64_t seed, uint8_t **out,
                        uint64_t *period)
{
    *out = NULL;
    *period = 0;
    uint64_t n = unit ? logical_bytes / unit : 0;
    if (n == 0 || unit >= page_size)
        return 0;
    uint32_t n_clones = 0;
    for (uint32_t j = 0; j < n_jobs; j++)
        n_clones += jobs[j].numjobs ? jobs[j].numjobs : 1;
    struct ssdsim__gen *g = malloc(sizeof *g * (n_clones ? n_clones : 1));
    if (!g)
        return SSDSIM_ENOMEM;
    bool spans = false;
    for (uint32_t j = 0, k = 0; j < n_jobs; j++) {
        struct ssdsim__jobspec spec = jobs[j];
        spec.rw = SSDSIM__RW_RANDWRITE;
        spec.time_based = true; /* no end: the walk stops when the window is covered */
        spec.number_ios = 0;
        for (uint32_t c = 0; c < (spec.numjobs ? spec.numjobs : 1); c++, k++) {
            ssdsim__gen_init(&g[k], &spec, c, seed ^ (0x9e3779b97f4a7c15ULL * (k + 1)),
                             SSDSIM__GEN_JOB_SEED(seed, j), logical_bytes);
            spans = spans || spans_units(&g[k], unit);
        }
    }
    if (!spans) {
        free(g);
        return 0;
    }
    const uint64_t w = n < WINDOW ? n : WINDOW;
    uint32_t *owner = calloc(w, sizeof *owner); /* 0: not touched yet */
    uint8_t *pat = malloc(w);
    if (!owner || !pat) {
        free(g);
        free(owner);
        free(pat);
        return SSDSIM_ENOMEM;
    }
    /* The walk: writes in turn from the clones; each gives the units it touches and no earlier
     * write did to its run (whole units) or to runs of their own (units in part). */
    uint64_t left = w, draws = 0;
    const uint64_t max_draws = 64 * w + 1024; /* a guard: 64 writes per unit */
    uint32_t id = 0;
    while (left > 0 && draws < max_draws) {
        for (uint32_t k = 0; k < n_clones && left > 0; k++) {
            uint8_t op;
            uint64_t off;
            uint32_t len;
            if (!ssdsim__gen_next(&g[k], &op, &off, &len) || len == 0)
                continue;
            draws++;
            id++;
            uint64_t end = off + len;
            for (uint64_t u = off / unit; u * unit < end; u++) {
                uint32_t *o = &owner[u % w];
                if (*o)
                    continue;
                bool whole = u * unit >= off && (u + 1) * unit <= end;
                *o = whole ? id : SINGLE;
                left--;
            }
        }
    }
    /* The window's runs: units of one write side by side, at most RUN_MAX; a unit no write
     * touched (only past the guard) is a run of its own. */
    uint32_t prev = 0, len = 0;
    uint64_t start = 0;
    for (uint64_t i = 0; i < w; i++) {
        uint32_t o = owner[i];
        bool cont = i > 0 && o == prev && o != SINGLE && o != 0 && len < RUN_MAX;
        if (cont) {
            len++;
            pat[start] = (uint8_t)len;
            pat[i] = 0;
        } else {
            start = i;
            len = 1;
            pat[i] = 1;
        }
        prev = o;
    }
    bool trivial = true;
    for (uint64_t i = 0; i < w && trivial; i++)
        trivial = pat[i] <= 1;
    free(owner);
    free(g);
    if (trivial) {
        free(pat);
        return 0;
    }
    *out = pat;
    *period = w;
    return 0;
}
