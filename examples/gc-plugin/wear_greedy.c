/* wear_greedy.c: an out-of-tree GC victim policy for ssdsim, registered and run from a program
 * that links the installed library. Build it with
 *     cc wear_greedy.c $(pkg-config --cflags --libs ssdsim) -o wear_greedy
 * and run it as `./wear_greedy [MODEL.json]`.
 *
 * The policy, "wear-greedy": among the least recently modified blocks of the `span` lowest
 * non-empty valid counts of a plane (one block per count, O(span)), take the one whose erase
 * count is lowest. With span = 1 it is plain greedy; a larger span trades a little write
 * amplification for evener wear.
 */
#include <stdio.h>

#include <ssdsim/ssdsim.h>
#include <ssdsim/sys/gc.h>

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

static const ssdsim_gc_ops wear_greedy_ops = {
    .abi_version = SSDSIM_PLUGIN_ABI_VERSION,
    .struct_size = sizeof(ssdsim_gc_ops),
    .name = "wear-greedy",
    .summary = "least-worn of the blocks with the lowest few valid counts",
    .state_size = sizeof(struct wear_greedy),
    .params = wg_params,
    .init = wg_init,
    .select_victim = wg_select,
};

static int fail(const char *what)
{
    fprintf(stderr, "wear_greedy: %s\n", what);
    return 1;
}

int main(int argc, char **argv)
{
    ssdsim_error err;
    if (ssdsim_gc_register(&wear_greedy_ops, &err))
        return fail(err.message);

    ssdsim_model *model = NULL;
    int rc = argc > 1 ? ssdsim_model_load_file(&model, argv[1], &err)
                      : ssdsim_model_default(&model, &err);
    if (rc || ssdsim_model_set(model, "geometry.blocks_per_plane", "64", &err) ||
        ssdsim_model_set(model, "gc.policy", "\"wear-greedy\"", &err) ||
        ssdsim_model_set(model, "gc.span", "8", &err))
        return fail(err.message);

    ssdsim_workload *wl = NULL;
    if (ssdsim_workload_load_string(&wl,
                                    "{\"rw\": \"randwrite\", \"bs\": \"4k\", \"iodepth\": 16, "
                                    "\"numjobs\": 4, \"number_ios\": 50000}",
                                    "example", &err))
        return fail(err.message);

    ssdsim *sim = NULL;
    if (ssdsim_new(&sim, model, 42, &err))
        return fail(err.message);
    if (ssdsim_precondition_seq(sim) || ssdsim_run(sim, wl, NULL))
        return fail(ssdsim_errmsg(sim));

    ssdsim_device_stats d;
    ssdsim_op_stats w;
    ssdsim_get_device_stats(sim, &d);
    ssdsim_get_op_stats(sim, SSDSIM_OP_WRITE, &w);
    printf("wear-greedy: %llu writes, %.0f IOPS, WAF %.3f, GC copies %llu, erase counts %llu..%llu\n",
           (unsigned long long)w.count, w.iops, d.waf, (unsigned long long)d.gc_pages_copied,
           (unsigned long long)d.erase_count_min, (unsigned long long)d.erase_count_max);

    ssdsim_free(sim);
    ssdsim_workload_free(wl);
    ssdsim_model_free(model);
    return 0;
}
