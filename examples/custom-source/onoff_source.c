/* onoff_source.c: a request source, "onoff": bursts of Poisson arrivals (on periods) separated
 * by silences (off periods), 70% reads of 4 to 32 KiB at random offsets. It builds both ways a
 * source reaches the simulator:
 *   - linked into a program that calls open and hands next to ssdsim_run_source (onoff.c);
 *   - as a loadable module the ssdsim command loads (SSDSIM_PLUGIN_MODULE below):
 *         cc -shared -fPIC onoff_source.c $(pkg-config --cflags ssdsim) -o onoff.so
 *         ssdsim run --plugin ./onoff.so --source onoff[:BURSTS] ...
 *
 * The library pulls one request at a time from `next`, so the source can be as long as wanted
 * at constant memory; request times are absolute (ns from the start of the run) and must not
 * decrease.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <ssdsim/ssdsim.h>
#include <ssdsim/sys/plugin.h>

#include "onoff_source.h"

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

static int onoff_next(void *userdata, ssdsim_request *req, char *msg, size_t msglen)
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

/* ARGS: the number of bursts, 1 to ONOFF_MAX_BURSTS ("" for ONOFF_BURSTS). The stream is the
 * same whatever the run's seed (a source may use `seed`; this one does not). */
static int onoff_open(void **state, const char *args, const ssdsim_model *model, uint64_t seed,
                      char *errbuf, size_t errlen)
{
    (void)seed;
    unsigned bursts = ONOFF_BURSTS;
    if (*args) {
        char *end;
        unsigned long v = strtoul(args, &end, 10);
        if (*end || v < 1 || v > ONOFF_MAX_BURSTS) {
            snprintf(errbuf, errlen, "expected the number of bursts (1 to %d), got '%s'",
                     ONOFF_MAX_BURSTS, args);
            return -1;
        }
        bursts = (unsigned)v;
    }
    struct onoff *s = calloc(1, sizeof *s);
    if (!s) {
        snprintf(errbuf, errlen, "out of memory");
        return -1;
    }
    s->on_ns = 20e6;
    s->off_ns = 50e6;
    s->gap_ns = 100e3; /* 10k IOPS while on */
    s->n_bursts = bursts;
    s->span = ssdsim_model_logical_bytes(model);
    s->rng = 0x9e3779b97f4a7c15ULL; /* a fixed stream: the run's seed is not used */
    s->burst_end_ns = (uint64_t)expo(s, s->on_ns);
    *state = s;
    return 0;
}

static void onoff_close(void *state)
{
    free(state);
}

const ssdsim_source_ops onoff_source_ops = {
    .abi_version = SSDSIM_PLUGIN_MODULE_ABI_VERSION,
    .struct_size = sizeof(ssdsim_source_ops),
    .name = "onoff",
    .summary = "bursts of Poisson arrivals separated by silences (ARGS: bursts, default 8)",
    .open = onoff_open,
    .next = onoff_next,
    .close = onoff_close,
};

/* The module's table: one request source. */
static const ssdsim_source_ops *const module_sources[] = {&onoff_source_ops, NULL};
static const ssdsim_plugin_module_table module = {
    .abi_version = SSDSIM_PLUGIN_MODULE_ABI_VERSION,
    .struct_size = sizeof(ssdsim_plugin_module_table),
    .name = "onoff",
    .source = module_sources,
};
SSDSIM_PLUGIN_MODULE(module)
