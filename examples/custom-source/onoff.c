/* onoff.c: a request source written in C (onoff_source.c: bursts of Poisson arrivals separated
 * by silences), replayed open loop on a device by a program, with the latency of each burst's
 * requests collected through an observer. The same source builds as a module the ssdsim
 * command loads (`make module`; `ssdsim run --plugin ./onoff.so --source onoff`): both give
 * the same results.
 *
 * usage: onoff [MODEL.json [RESULTS.json]]   (default: the built-in generic MLC model;
 *        RESULTS.json: the results the library writes, as `ssdsim run --json` does)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <ssdsim/ssdsim.h>

#include "onoff_source.h"

#define N_BURSTS ONOFF_BURSTS

struct burst_lat {
    uint64_t n;
    double sum_us, max_us;
};

static void on_complete(const ssdsim_completion *c, void *userdata)
{
    struct burst_lat *b = &((struct burst_lat *)userdata)[c->id];
    double us = (double)(c->complete_ns - c->submit_ns) / 1e3;
    b->n++;
    b->sum_us += us;
    if (us > b->max_us)
        b->max_us = us;
}

int main(int argc, char **argv)
{
    ssdsim_error err;
    ssdsim_model *model = NULL;
    int rc = argc > 1 ? ssdsim_model_load_file(&model, argv[1], &err)
                      : ssdsim_model_default(&model, &err);
    if (rc) {
        fprintf(stderr, "onoff: %s\n", err.message);
        return 1;
    }
    ssdsim *sim = NULL;
    if (ssdsim_new(&sim, model, 42, &err)) {
        fprintf(stderr, "onoff: %s\n", err.message);
        return 1;
    }
    /* Fill the drive so reads hit written data. */
    if (ssdsim_precondition_seq(sim)) {
        fprintf(stderr, "onoff: %s\n", ssdsim_errmsg(sim));
        return 1;
    }
    /* Open the source as the command does for `--source onoff` with seed 42. */
    void *state = NULL;
    char why[256];
    if (onoff_source_ops.open(&state, "", model, 42, why, sizeof why)) {
        fprintf(stderr, "onoff: %s\n", why);
        return 1;
    }
    struct burst_lat lat[N_BURSTS];
    memset(lat, 0, sizeof lat);
    ssdsim_observer obs = {.on_complete = on_complete, .userdata = lat};
    ssdsim_set_observer(sim, &obs);
    ssdsim_source source = {.next = onoff_source_ops.next, .userdata = state};
    ssdsim_replay_opts ro = {.label = "onoff"}; /* iodepth 0: open loop */
    if (ssdsim_run_source(sim, &source, &ro, NULL)) {
        fprintf(stderr, "onoff: %s\n", ssdsim_errmsg(sim));
        return 1;
    }
    printf("burst  requests  mean_us   max_us\n");
    uint64_t total = 0;
    for (int b = 0; b < N_BURSTS; b++) {
        printf("%5d  %8llu  %7.1f  %7.1f\n", b, (unsigned long long)lat[b].n,
               lat[b].n ? lat[b].sum_us / (double)lat[b].n : 0.0, lat[b].max_us);
        total += lat[b].n;
    }
    ssdsim_op_stats all;
    ssdsim_get_op_stats(sim, SSDSIM_OP_ALL, &all);
    printf("all: %llu requests in %.3f s simulated, p99 %.1f us\n", (unsigned long long)all.count,
           (double)ssdsim_sim_time_ns(sim) / 1e9, (double)all.lat_p99_ns / 1e3);
    if (argc > 2) {
        char *json = ssdsim_results_json(sim);
        FILE *f = json ? fopen(argv[2], "w") : NULL;
        if (!f || fputs(json, f) < 0 || fclose(f)) {
            fprintf(stderr, "onoff: cannot write the results JSON\n");
            return 1;
        }
        free(json);
    }
    onoff_source_ops.close(state);
    ssdsim_free(sim);
    ssdsim_model_free(model);
    /* the observer saw every request the statistics counted */
    return total == all.count && total > 0 ? 0 : 1;
}
