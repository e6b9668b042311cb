/* onoff.c: a workload source written in the program: bursts of Poisson arrivals (on periods)
 * separated by silences (off periods), replayed open loop on a device, with the latency of each
 * burst's requests collected through an observer.
 *
 * The library pulls one request at a time from `next`, so the source can be as long as wanted
 * at constant memory; request times are absolute (ns from the start of the run) and must not
 * decrease.
 *
 * usage: onoff [MODEL.json]   (default: the built-in generic MLC model)
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <ssdsim/ssdsim.h>

#define N_BURSTS 8

struct onoff {
    uint64_t t_ns;         /* time of the last request */
    uint64_t burst_end_ns; /* end of the current on period */
    unsigned burst, n_bursts;
    double on_ns, off_ns; /* mean lengths of the periods */
    double gap_ns;        /* mean gap between requests while on */
    uint64_t span;        /* requests fall in [0, span) bytes */
    uint64_t rng;
    uint64_t id;
};

/* xorshift64*: enough for an example; the simulation has its own generators. */
static double uniform(struct onoff *s)
{
    s->rng ^= s->rng >> 12;
    s->rng ^= s->rng << 25;
    s->rng ^= s->rng >> 27;
    return (double)((s->rng * 2685821657736338717ULL) >> 11) * 0x1.0p-53;
}

static double expo(struct onoff *s, double mean)
{
    return -mean * log1p(-uniform(s));
}

static int next(void *userdata, ssdsim_request *req, char *msg, size_t msglen)
{
    struct onoff *s = userdata;
    (void)msg;
    (void)msglen;
    uint64_t t = s->t_ns + (uint64_t)expo(s, s->gap_ns);
    if (t >= s->burst_end_ns) {
        /* the on period is over: stay silent, then start the next burst */
        if (++s->burst == s->n_bursts)
            return 0;
        t = s->burst_end_ns + (uint64_t)expo(s, s->off_ns);
        s->burst_end_ns = t + (uint64_t)expo(s, s->on_ns);
    }
    s->t_ns = t;
    req->time_ns = t;
    req->op = uniform(s) < 0.7 ? SSDSIM_OP_READ : SSDSIM_OP_WRITE;
    req->length = 4096 << (unsigned)(uniform(s) * 4); /* 4, 8, 16 or 32 KiB */
    req->offset = (uint64_t)(uniform(s) * (double)(s->span / 4096 - 8)) * 4096;
    req->id = s->burst; /* the burst the request belongs to comes back in the completion */
    return 1;
}

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
    struct onoff src = {.on_ns = 20e6,
                        .off_ns = 50e6,
                        .gap_ns = 100e3, /* 10k IOPS while on */
                        .n_bursts = N_BURSTS,
                        .span = ssdsim_model_logical_bytes(model),
                        .rng = 0x9e3779b97f4a7c15ULL};
    src.burst_end_ns = (uint64_t)expo(&src, src.on_ns);
    struct burst_lat lat[N_BURSTS];
    memset(lat, 0, sizeof lat);
    ssdsim_observer obs = {.on_complete = on_complete, .userdata = lat};
    ssdsim_set_observer(sim, &obs);
    ssdsim_source source = {.next = next, .userdata = &src};
    ssdsim_replay_opts ro = {.label = "on/off bursts"}; /* iodepth 0: open loop */
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
    ssdsim_free(sim);
    ssdsim_model_free(model);
    /* the observer saw every request the statistics counted */
    return total == all.count && total > 0 ? 0 : 1;
}
