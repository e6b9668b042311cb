/* wear_greedy_policy.c: an out-of-tree GC victim policy for ssdsim, "wear-greedy", in a file
 * of its own so that it builds both ways a plugin can reach the simulator:
 *   - linked into a program that registers it (wear_greedy.c calls ssdsim_gc_register);
 *   - as a loadable module the ssdsim command loads (SSDSIM_PLUGIN_MODULE below):
 *         cc -shared -fPIC wear_greedy_policy.c $(pkg-config --cflags ssdsim) -o wear-greedy.so
 *         ssdsim run --plugin ./wear-greedy.so --set gc.policy=wear-greedy ...
 *
 * The policy: among the least recently modified blocks of the `span` lowest non-empty valid
 * counts of a plane (one block per count, O(span)), take the one whose erase count is lowest.
 * With span = 1 it is plain greedy; a larger span trades a little write amplification for
 * evener wear.
 */
#include <ssdsim/ssdsim.h>
#include <ssdsim/sys/gc.h>
#include <ssdsim/sys/plugin.h>

#include "wear_greedy.h"

struct wear_greedy {
    unsigned span;
};

static int wg_init(void *state, const ssdsim_view *v, const double *params, char *errbuf,
                   size_t errlen)
{
    (void)v, (void)errbuf, (void)errlen;
    ((struct wear_greedy *)state)->span = (unsigned)params[0];
    return 0;
}

static uint32_t wg_select(void *state, const ssdsim_view *v, uint32_t plane)
{
    const struct wear_greedy *s = state;
    uint32_t best = SSDSIM_NO_BLOCK, best_erases = UINT32_MAX, seen = 0;
    for (uint32_t valid = 0; valid < ssdsim_view_pages_per_block(v) && seen < s->span; valid++) {
        uint32_t b = ssdsim_view_least_recent(v, plane, valid);
        if (b == SSDSIM_NO_BLOCK)
            continue;
        seen++;
        if (ssdsim_view_erase_count(v, b) < best_erases) {
            best_erases = ssdsim_view_erase_count(v, b);
            best = b;
        }
    }
    return best;
}

static const ssdsim_param wg_params[] = {
    {"span", SSDSIM_PARAM_INT, 4, 1, 4096, "lowest valid counts considered"},
    {NULL, 0, 0, 0, 0, NULL},
};

const ssdsim_gc_ops wear_greedy_ops = {
    .abi_version = SSDSIM_PLUGIN_ABI_VERSION,
    .struct_size = sizeof(ssdsim_gc_ops),
    .name = "wear-greedy",
    .summary = "least-worn of the blocks with the lowest few valid counts",
    .state_size = sizeof(struct wear_greedy),
    .params = wg_params,
    .init = wg_init,
    .select_victim = wg_select,
};

/* The module's table: one GC policy, no FTL, no wear leveler. */
static const ssdsim_gc_ops *const module_gcs[] = {&wear_greedy_ops, NULL};
static const ssdsim_plugin_module_table module = {
    .abi_version = SSDSIM_PLUGIN_MODULE_ABI_VERSION,
    .struct_size = sizeof(ssdsim_plugin_module_table),
    .name = "wear-greedy",
    .gc = module_gcs,
};
SSDSIM_PLUGIN_MODULE(module)
