/* policies.c: the built-in GC victim policies. Each is a few lines over the block view: the
 * FTL keeps the structures (buckets, close order, sampling array) that make them cheap.
 *
 *   greedy         fewest valid pages (ties: least recently modified)           O(1)
 *   cost-benefit   max (1 - u) / (2u) x age, u = valid fraction, age = write-clock time since
 *                  the block last lost a page; the oldest block of each valid count is the
 *                  best of its count, so only pages_per_block + 1 blocks are scored   O(ppb)
 *   fifo           the block closed first (oldest data)                          O(1)
 *   random         a uniformly random candidate                                  O(1)
 *   d-choices      the fewest-valid of d uniformly random candidates             O(d)
 *   windowed       the fewest-valid among the w oldest candidates                O(w)
 */
#include "plugin.h"

#define NONE SSDSIM_NO_BLOCK

static uint32_t greedy_select(void *state, const ssdsim_view *v, uint32_t plane)
{
    return ssdsim_view_fewest_valid(v, plane);
}

static uint32_t cost_benefit_select(void *state, const ssdsim_view *v, uint32_t plane)
{
    uint32_t ppb = ssdsim_view_pages_per_block(v);
    uint64_t now = ssdsim_view_clock(v);
    uint32_t best = NONE;
    double best_score = -1;
    for (uint32_t valid = 0; valid < ppb; valid++) {
        uint32_t b = ssdsim_view_least_recent(v, plane, valid);
        if (b == NONE)
            continue;
        if (valid == 0)
            return b; /* nothing to copy: infinitely good */
        double u = (double)valid / ppb;
        double age = (double)(now - ssdsim_view_modified_at(v, b)) + 1.0;
        double score = (1.0 - u) / (2.0 * u) * age;
        if (score > best_score) {
            best_score = score;
            best = b;
        }
    }
    return best;
}

static uint32_t fifo_select(void *state, const ssdsim_view *v, uint32_t plane)
{
    return ssdsim_view_oldest(v, plane);
}

static uint32_t random_select(void *state, const ssdsim_view *v, uint32_t plane)
{
    uint32_t n = ssdsim_view_n_candidates(v, plane);
    if (n == 0)
        return NONE;
    return ssdsim_view_candidate(v, plane, (uint32_t)(ssdsim_view_random(v) % n));
}

struct d_state {
    uint32_t d;
};

static int d_init(void *state, const ssdsim_view *v, const double *params, char *errbuf,
                  size_t errlen)
{
    ((struct d_state *)state)->d = (uint32_t)params[0];
    return 0;
}

static uint32_t d_choices_select(void *state, const ssdsim_view *v, uint32_t plane)
{
    uint32_t n = ssdsim_view_n_candidates(v, plane);
    if (n == 0)
        return NONE;
    uint32_t d = ((struct d_state *)state)->d, best = NONE, best_valid = UINT32_MAX;
    for (uint32_t k = 0; k < d; k++) {
        uint32_t b = ssdsim_view_candidate(v, plane, (uint32_t)(ssdsim_view_random(v) % n));
        uint32_t valid = ssdsim_view_valid(v, b);
        if (valid < best_valid) {
            best_valid = valid;
            best = b;
        }
    }
    return best;
}

struct w_state {
    uint32_t window;
};

static int w_init(void *state, const ssdsim_view *v, const double *params, char *errbuf,
                  size_t errlen)
{
    ((struct w_state *)state)->window = (uint32_t)params[0];
    return 0;
}

static uint32_t windowed_select(void *state, const ssdsim_view *v, uint32_t plane)
{
    uint32_t w = ((struct w_state *)state)->window, best = NONE, best_valid = UINT32_MAX;
    uint32_t b = ssdsim_view_oldest(v, plane);
    for (uint32_t k = 0; k < w && b != NONE; k++, b = ssdsim_view_newer(v, b)) {
        uint32_t valid = ssdsim_view_valid(v, b);
        if (valid < best_valid) {
            best_valid = valid;
            best = b;
        }
    }
    return best;
}

#define GC_TABLE(ident, nm, sum, st, prm, ini, sel)                                               \
    const ssdsim_gc_ops ident = {                                                                  \
        .abi_version = SSDSIM_PLUGIN_ABI_VERSION,                                                  \
        .struct_size = sizeof(ssdsim_gc_ops),                                                      \
        .name = nm,                                                                                \
        .summary = sum,                                                                            \
        .state_size = st,                                                                          \
        .params = prm,                                                                             \
        .init = ini,                                                                               \
        .select_victim = sel,                                                                      \
    }

static const ssdsim_param d_params[] = {
    {"d", SSDSIM_PARAM_INT, 10, 1, 1024, "candidates sampled per victim"},
    {NULL, 0, 0, 0, 0, NULL},
};
static const ssdsim_param w_params[] = {
    {"window", SSDSIM_PARAM_INT, 64, 1, 1048576, "oldest candidates considered"},
    {NULL, 0, 0, 0, 0, NULL},
};

GC_TABLE(ssdsim__gc_greedy_ops, "greedy", "fewest valid pages (least recently modified on ties)",
         0, NULL, NULL, greedy_select);
GC_TABLE(ssdsim__gc_cost_benefit_ops, "cost-benefit",
         "highest (1-u)/2u x age (age since last modified), over the oldest block per valid count",
         0, NULL, NULL, cost_benefit_select);
GC_TABLE(ssdsim__gc_fifo_ops, "fifo", "the block closed first (oldest data)", 0, NULL, NULL,
         fifo_select);
GC_TABLE(ssdsim__gc_random_ops, "random", "a uniformly random closed block", 0, NULL, NULL,
         random_select);
GC_TABLE(ssdsim__gc_d_choices_ops, "d-choices",
         "the fewest-valid of d uniformly random closed blocks (Van Houdt)", sizeof(struct d_state),
         d_params, d_init, d_choices_select);
GC_TABLE(ssdsim__gc_windowed_ops, "windowed", "the fewest-valid among the window oldest blocks",
         sizeof(struct w_state), w_params, w_init, windowed_select);
