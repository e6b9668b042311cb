/* embed.c: drive a simulated SSD from your own code. Submits requests itself (a burst of random
 * 4 KiB reads, then writes, with arrival times it chooses), and prints each request's latency
 * and where the time went. Build: cc embed.c $(pkg-config --cflags --libs ssdsim) -o embed */
#include <stdio.h>

#include <ssdsim/ssdsim.h>

static void done(const ssdsim_completion *c, void *userdata)
{
    unsigned *printed = userdata;
    if ((*printed)++ < 8)
        printf("%-5s id %-3llu at %8.1f us: %7.1f us = queue %.1f + front end %.1f + flash %.1f "
               "+ transfer %.1f (GC wait %.1f)\n",
               c->op == SSDSIM_OP_READ ? "read" : "write", (unsigned long long)c->id,
               c->submit_ns / 1e3, (c->complete_ns - c->submit_ns) / 1e3, c->queue_ns / 1e3,
               c->frontend_ns / 1e3, c->flash_ns / 1e3, c->transfer_ns / 1e3,
               c->gc_wait_ns / 1e3);
}

int main(int argc, char **argv)
{
    ssdsim_model *model = NULL;
    ssdsim_error err;
    int rc = argc > 1 ? ssdsim_model_load_file(&model, argv[1], &err)
                      : ssdsim_model_default(&model, &err);
    if (rc || ssdsim_model_set(model, "geometry.blocks_per_plane", "64", &err)) {
        fprintf(stderr, "embed: %s\n", err.message);
        return 1;
    }
    ssdsim *sim = NULL;
    if (ssdsim_new(&sim, model, 1, &err)) {
        fprintf(stderr, "embed: %s\n", err.message);
        return 1;
    }
    if (ssdsim_precondition_seq(sim)) { /* so reads touch flash */
        fprintf(stderr, "embed: %s\n", ssdsim_errmsg(sim));
        return 1;
    }
    uint64_t pages = ssdsim_model_logical_bytes(model) / 4096, x = 12345;
    uint64_t t0 = ssdsim_now(sim);
    unsigned printed = 0;
    for (uint64_t i = 0; i < 1000; i++) {
        x = x * 6364136223846793005ULL + 1442695040888963407ULL;
        enum ssdsim_op op = i < 500 ? SSDSIM_OP_READ : SSDSIM_OP_WRITE;
        /* one request every 20 us: an open loop at 50,000 requests per second */
        if (ssdsim_submit(sim, op, (x >> 33) % pages * 4096, 4096, t0 + i * 20000, i, done,
                          &printed)) {
            fprintf(stderr, "embed: %s\n", ssdsim_errmsg(sim));
            return 1;
        }
    }
    if (ssdsim_drain(sim)) {
        fprintf(stderr, "embed: %s\n", ssdsim_errmsg(sim));
        return 1;
    }
    ssdsim_op_stats r, w;
    ssdsim_get_op_stats(sim, SSDSIM_OP_READ, &r);
    ssdsim_get_op_stats(sim, SSDSIM_OP_WRITE, &w);
    printf("reads: %llu, mean %.1f us, p99 %.1f us; writes: %llu, mean %.1f us, p99 %.1f us\n",
           (unsigned long long)r.count, r.lat_mean_ns / 1e3, r.lat_p99_ns / 1e3,
           (unsigned long long)w.count, w.lat_mean_ns / 1e3, w.lat_p99_ns / 1e3);
    ssdsim_free(sim);
    ssdsim_model_free(model);
    return 0;
}
