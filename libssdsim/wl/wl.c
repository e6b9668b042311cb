/* wl.c: the built-in wear levelers.
 *
 *   none      free blocks are reused in the order they were freed
 *   dynamic   a plane opens its least-worn free block (scan of the plane's free list, once per
 *             block opened: a few hundred steps per pages_per_block programs)
 *   static    dynamic, plus: after an erase, when the device's erase-count spread (max - min)
 *             exceeds `threshold`, the least-worn closed block of the erased block's plane has
 *             its data moved (cold data parked on young blocks), at most once per `interval`
 *             erases; the scan for that block runs only then
 */
#include "plugin.h"

#define NONE SSDSIM_NO_BLOCK

static uint32_t least_worn_free(void *state, const ssdsim_view *v, uint32_t plane)
{
    uint32_t best = NONE, best_ec = UINT32_MAX;
    for (uint32_t b = ssdsim_view_first_free(v, plane); b != NONE; b = ssdsim_view_next_free(v, b)) {
        uint32_t ec = ssdsim_view_erase_count(v, b);
        if (ec < best_ec) {
            best_ec = ec;
            best = b;
        }
    }
    return best;
}

struct static_state {
    uint32_t threshold;
    uint32_t interval;
    uint64_t erases_since;
};

static int static_init(void *state, const ssdsim_view *v, const double *params, char *errbuf,
                       size_t errlen)
{
    struct static_state *s = state;
    s->threshold = (uint32_t)params[0];
    s->interval = (uint32_t)params[1];
    s->erases_since = s->interval; /* allowed at once */
    return 0;
}

static uint32_t static_after_erase(void *state, const ssdsim_view *v, uint32_t block)
{
    struct static_state *s = state;
    s->erases_since++;
    if (s->erases_since < s->interval)
        return NONE;
    if (ssdsim_view_max_erase_count(v) - ssdsim_view_min_erase_count(v) <= s->threshold)
        return NONE;
    s->erases_since = 0; /* scan at most once per interval, whatever it finds */
    uint32_t plane = block / ssdsim_view_blocks_per_plane(v);
    uint32_t n = ssdsim_view_n_candidates(v, plane), best = NONE, best_ec = UINT32_MAX;
    for (uint32_t i = 0; i < n; i++) {
        uint32_t b = ssdsim_view_candidate(v, plane, i);
        uint32_t ec = ssdsim_view_erase_count(v, b);
        if (ec < best_ec || (ec == best_ec && b < best)) {
            best_ec = ec;
            best = b;
        }
    }
    /* Worth moving only when that block is among the least worn of the device. */
    if (best == NONE || best_ec > ssdsim_view_min_erase_count(v) + s->threshold / 2)
        return NONE;
    return best;
}

static const ssdsim_param static_params[] = {
    {"threshold", SSDSIM_PARAM_INT, 100, 1, 1000000,
     "erase-count spread (max - min) above which cold data is moved"},
    {"interval", SSDSIM_PARAM_INT, 64, 1, 100000000, "erases between two moves, at least"},
    {NULL, 0, 0, 0, 0, NULL},
};

const ssdsim_wl_ops ssdsim__wl_none_ops = {
    .abi_version = SSDSIM_PLUGIN_ABI_VERSION,
    .struct_size = sizeof(ssdsim_wl_ops),
    .name = "none",
    .summary = "no wear leveling: free blocks reused in the order they were freed",
};

const ssdsim_wl_ops ssdsim__wl_dynamic_ops = {
    .abi_version = SSDSIM_PLUGIN_ABI_VERSION,
    .struct_size = sizeof(ssdsim_wl_ops),
    .name = "dynamic",
    .summary = "open the least-worn free block of the plane",
    .pick_free = least_worn_free,
};

const ssdsim_wl_ops ssdsim__wl_static_ops = {
    .abi_version = SSDSIM_PLUGIN_ABI_VERSION,
    .struct_size = sizeof(ssdsim_wl_ops),
    .name = "static",
    .summary = "dynamic, plus moving cold data off little-worn blocks when the erase-count "
               "spread exceeds a threshold",
    .state_size = sizeof(struct static_state),
    .params = static_params,
    .init = static_init,
    .pick_free = least_worn_free,
    .after_erase = static_after_erase,
};
