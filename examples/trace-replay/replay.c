/* replay.c: replay a block trace on a device model with a per-request callback: each completed
 * request comes back with its trace line and where its latency went.
 *
 * usage: replay MODEL.json [TRACE]
 *   TRACE defaults to $SSDSIM_SAMPLE_TRACES/sample.msr.csv (the installed sample traces).
 * Any format ssdsim reads works (MSR Cambridge, SPC, blkparse, DiskSim ASCII, fio iolog); the
 * format is probed from the first lines.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <ssdsim/ssdsim.h>
#include <ssdsim/trace.h>

struct seen {
    uint64_t n[3];
    uint64_t printed;
    double worst_us;
    uint64_t worst_line;
};

static void on_complete(const ssdsim_completion *c, void *userdata)
{
    struct seen *s = userdata;
    static const char *ops[] = {"read", "write", "trim"};
    double us = (double)(c->complete_ns - c->submit_ns) / 1e3;
    s->n[c->op]++;
    if (us > s->worst_us) {
        s->worst_us = us;
        s->worst_line = c->id;
    }
    if (s->printed++ < 8)
        printf("line %4llu  %-5s %7llu B at %12llu: %8.1f us (queue %.1f, front end %.1f, "
               "flash %.1f, transfer %.1f)\n",
               (unsigned long long)c->id, ops[c->op], (unsigned long long)c->length,
               (unsigned long long)c->offset, us, c->queue_ns / 1e3, c->frontend_ns / 1e3,
               c->flash_ns / 1e3, c->transfer_ns / 1e3);
}

int main(int argc, char **argv)
{
    char path[4096];
    const char *trace_path = argc > 2 ? argv[2] : NULL;
    if (!trace_path) {
        const char *dir = getenv("SSDSIM_SAMPLE_TRACES");
        snprintf(path, sizeof path, "%s/sample.msr.csv", dir ? dir : "traces");
        trace_path = path;
    }
    ssdsim_error err;
    ssdsim_model *model = NULL;
    int rc = argc > 1 ? ssdsim_model_load_file(&model, argv[1], &err)
                      : ssdsim_model_default(&model, &err);
    if (rc) {
        fprintf(stderr, "replay: %s\n", err.message);
        return 1;
    }
    /* What the trace holds, to check the replay against. */
    ssdsim_trace_info info;
    if (ssdsim_trace_info_file(trace_path, NULL, &info, &err)) {
        fprintf(stderr, "replay: %s\n", err.message);
        return 1;
    }
    ssdsim_trace *trace = NULL;
    ssdsim *sim = NULL;
    if (ssdsim_trace_open(&trace, trace_path, NULL, &err) || ssdsim_new(&sim, model, 1, &err)) {
        fprintf(stderr, "replay: %s\n", err.message);
        return 1;
    }
    printf("%s: %s, %llu requests over %.3f s\n", trace_path,
           ssdsim_trace_format_name(ssdsim_trace_get_format(trace)),
           (unsigned long long)info.requests, (double)info.duration_ns / 1e9);
    /* A written drive, so that reads find data (on a fresh one they cost no flash time). */
    if (ssdsim_precondition_seq(sim)) {
        fprintf(stderr, "replay: %s\n", ssdsim_errmsg(sim));
        return 1;
    }
    struct seen seen;
    memset(&seen, 0, sizeof seen);
    ssdsim_observer obs = {.on_complete = on_complete, .userdata = &seen};
    ssdsim_set_observer(sim, &obs);
    ssdsim_source src;
    ssdsim_trace_as_source(trace, &src);
    /* Open loop at the trace's own times; addresses beyond this device wrap around. */
    ssdsim_replay_opts ro = {.wrap = 1, .label = trace_path};
    if (ssdsim_run_source(sim, &src, &ro, NULL)) {
        fprintf(stderr, "replay: %s\n", ssdsim_errmsg(sim));
        return 1;
    }
    ssdsim_op_stats all;
    ssdsim_get_op_stats(sim, SSDSIM_OP_ALL, &all);
    printf("replayed %llu reads, %llu writes, %llu trims; mean %.1f us, p99 %.1f us; "
           "slowest: line %llu (%.1f us)\n",
           (unsigned long long)seen.n[0], (unsigned long long)seen.n[1],
           (unsigned long long)seen.n[2], all.lat_mean_ns / 1e3, all.lat_p99_ns / 1e3,
           (unsigned long long)seen.worst_line, seen.worst_us);
    int ok = seen.n[0] == info.count[0] && seen.n[1] == info.count[1] && seen.n[2] == info.count[2];
    if (!ok)
        fprintf(stderr, "replay: the replay does not match the trace's own counts\n");
    ssdsim_trace_close(trace);
    ssdsim_free(sim);
    ssdsim_model_free(model);
    return ok ? 0 : 1;
}
