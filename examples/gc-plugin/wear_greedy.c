/* wear_greedy.c: a program that registers an out-of-tree GC victim policy, "wear-greedy"
 * (wear_greedy_policy.c), and runs it on a model. Build it with
 *     cc wear_greedy.c wear_greedy_policy.c $(pkg-config --cflags --libs ssdsim) -o wear_greedy
 * and run it as `./wear_greedy [MODEL.json [RESULTS.json]]` (RESULTS.json: the results the
 * library writes, as `ssdsim run --json` does). The same policy builds as a module the ssdsim
 * command loads (`make module`; doc/plugins.md): both give the same results.
 */
#include <stdio.h>
#include <stdlib.h>

#include <ssdsim/ssdsim.h>
#include <ssdsim/sys/gc.h>

#include "wear_greedy.h"

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
    if (argc > 2) {
        char *json = ssdsim_results_json(sim);
        FILE *f = json ? fopen(argv[2], "w") : NULL;
        if (!f || fputs(json, f) < 0 || fclose(f))
            return fail("cannot write the results JSON");
        free(json);
    }

    ssdsim_free(sim);
    ssdsim_workload_free(wl);
    ssdsim_model_free(model);
    return 0;
}
