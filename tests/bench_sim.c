/* bench_sim.c: simulated host I/Os per CPU-second (process CPU time: a shared machine distorts
 * wall time, not this) for 4 KiB uniform random writes at steady
 * state (GC active) on a 16 GiB generic-mlc model with ftl.op 0.28 at 16 jobs x 16 queue depth,
 * then 4 KiB random reads and a 70/30 random read/write mix on the same drive; the events the
 * engine ran per host I/O, and the memory the simulation holds per 4 KiB logical page; then the
 * same random writes by functional fast-forward (no timing) on a second drive of the model,
 * filled and warmed up as the first. Uses only the public API.
 *
 *     bench_sim [MODEL [KEY=VALUE ...]]
 *
 * KEY=VALUE pairs are model keys set after ftl.op 0.28 (e.g. geometry.blocks_per_plane=128 to
 * bring a large model down to a size that reaches steady state in a few CPU-seconds).
 * Prints figures; asserts nothing about speed. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ssdsim/ssdsim.h"

static double wall(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static double cpu(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Resident set size in bytes, from /proc (Linux); 0 elsewhere. */
static uint64_t rss_bytes(void)
{
    FILE *f = fopen("/proc/self/statm", "r");
    if (!f)
        return 0;
    unsigned long size = 0, res = 0;
    if (fscanf(f, "%lu %lu", &size, &res) != 2)
        res = 0;
    fclose(f);
    return (uint64_t)res * 4096;
}

/* 4 KiB random I/O at 16 jobs x 16 deep: `rw` randwrite, randread or randrw (then `mix` per
 * cent reads). */
static ssdsim_workload *random_io(const char *rw, int mix, uint64_t per_job)
{
    char json[256];
    snprintf(json, sizeof json,
             "{\"rw\":\"%s\",\"rwmixread\":%d,\"norandommap\":1,\"bs\":\"4k\",\"numjobs\":16,"
             "\"iodepth\":16,\"number_ios\":%" PRIu64 "}",
             rw, mix, per_job);
    ssdsim_workload *wl = NULL;
    ssdsim_error err;
    if (ssdsim_workload_load_string(&wl, json, "bench", &err)) {
        fprintf(stderr, "bench: %s\n", err.message);
        exit(1);
    }
    return wl;
}

static ssdsim_workload *randwrite(uint64_t per_job)
{
    return random_io("randwrite", 50, per_job);
}

/* Run one more measured workload on the steady drive and print its rate. */
static void measure(ssdsim *sim, const char *label, const char *rw, int mix, uint64_t per_job)
{
    ssdsim_workload *wl = random_io(rw, mix, per_job);
    uint64_t ev0 = ssdsim_events_executed(sim);
    double t0 = wall(), c0 = cpu();
    if (ssdsim_run(sim, wl, NULL)) {
        fprintf(stderr, "bench: %s\n", ssdsim_errmsg(sim));
        exit(1);
    }
    double dt = wall() - t0, dc = cpu() - c0;
    uint64_t events = ssdsim_events_executed(sim) - ev0;
    ssdsim_op_stats r, w;
    ssdsim_device_stats d;
    ssdsim_get_op_stats(sim, SSDSIM_OP_READ, &r);
    ssdsim_get_op_stats(sim, SSDSIM_OP_WRITE, &w);
    ssdsim_get_device_stats(sim, &d);
    uint64_t n = r.count + w.count;
    printf("%s: %.2f million host I/Os per CPU-second (%" PRIu64 " I/Os in %.2f CPU-s, %.2f s "
           "wall), %.2f events per host I/O; simulated %.0f IOPS, ",
           label, (double)n / dc / 1e6, n, dc, dt, n ? (double)events / (double)n : 0.0,
           r.iops + w.iops);
    /* A run without host writes has no WAF of its own: what it programs is the write buffer's
     * last pages of the run before and foreground GC going on to gc.free_blocks_target. */
    if (w.count)
        printf("WAF %.3f\n", d.waf);
    else
        printf("no host writes (%" PRIu64 " pages programmed, %" PRIu64 " of them GC copies)\n",
               d.flash_pages_programmed, d.gc_pages_copied);
    ssdsim_workload_free(wl);
}

/* Functional fast-forward (ssdsim_fast_forward: the FTL, GC and wear leveling without timing):
 * a drive of the model filled sequentially, as the timed one is, then twice its capacity in 4 KiB
 * random writes at 16 x 16 to reach steady state, then one capacity measured: host writes per
 * CPU-second and that capacity's WAF (the timed run's steady state, up to the order of
 * concurrent requests). Built with -DBENCH_NO_FF (bench_compare.sh, for a library from before
 * fast-forward) it prints nothing. */
static void measure_ff(const ssdsim_model *m, uint64_t logical_pages)
{
#ifndef BENCH_NO_FF
    ssdsim *sim = NULL;
    ssdsim_error err;
    if (ssdsim_new(&sim, m, 1, &err)) {
        fprintf(stderr, "bench: %s\n", err.message);
        exit(1);
    }
    ssdsim_workload *warm = randwrite(2 * logical_pages / 16);
    ssdsim_workload *meas = randwrite(logical_pages / 16);
    double c0 = cpu();
    /* (every model bench_sim takes, a single device whose timed run above worked, is one that
     * fast-forward runs: what it refuses, a hard disk, a system, a zoned drive, stops before) */
    if (ssdsim_precondition_seq(sim) || ssdsim_fast_forward(sim, warm, 0)) {
        fprintf(stderr, "bench: fast-forward: %s\n", ssdsim_errmsg(sim));
        exit(1);
    }
    double c_warm = cpu() - c0;
    double t0 = wall();
    c0 = cpu();
    if (ssdsim_fast_forward(sim, meas, 0)) {
        fprintf(stderr, "bench: fast-forward: %s\n", ssdsim_errmsg(sim));
        exit(1);
    }
    double dt = wall() - t0, dc = cpu() - c0;
    ssdsim_device_stats d;
    ssdsim_get_device_stats(sim, &d); /* of the measured capacity: fast-forward resets them */
    printf("fast-forward: %.2f million host writes per CPU-second (%" PRIu64 " 4 KiB random "
           "writes in %.2f CPU-s, %.2f s wall, WAF %.3f, %" PRIu64 " GC copies; warm-up %.2f "
           "CPU-s)\n",
           (double)d.host_pages_written / dc / 1e6, d.host_pages_written, dc, dt, d.waf,
           d.gc_pages_copied, c_warm);
    ssdsim_workload_free(warm);
    ssdsim_workload_free(meas);
    ssdsim_free(sim);
#else
    (void)m;
    (void)logical_pages;
#endif
}

int main(int argc, char **argv)
{
    const char *path = argc > 1 ? argv[1] : "models/generic-mlc.json";
    ssdsim_model *m = NULL;
    ssdsim_error err;
    if (ssdsim_model_load_file(&m, path, &err) || ssdsim_model_set(m, "ftl.op", "0.28", &err)) {
        fprintf(stderr, "bench: %s\n", err.message);
        return 1;
    }
    for (int i = 2; i < argc; i++) {
        char key[128];
        const char *eq = strchr(argv[i], '=');
        if (!eq || (size_t)(eq - argv[i]) >= sizeof key) {
            fprintf(stderr, "bench: argument %d '%s': expected KEY=VALUE (a model key)\n", i,
                    argv[i]);
            return 1;
        }
        memcpy(key, argv[i], (size_t)(eq - argv[i]));
        key[eq - argv[i]] = '\0';
        if (ssdsim_model_set(m, key, eq + 1, &err)) {
            fprintf(stderr, "bench: %s\n", err.message);
            return 1;
        }
    }
    uint64_t logical_pages = ssdsim_model_logical_bytes(m) / 4096;
    uint64_t rss0 = rss_bytes();
    ssdsim *sim = NULL;
    if (ssdsim_new(&sim, m, 1, &err)) {
        fprintf(stderr, "bench: %s\n", err.message);
        return 1;
    }
    /* Touch every page of the mapping arrays (a sequential fill writes them all). */
    if (ssdsim_precondition_seq(sim)) {
        fprintf(stderr, "bench: %s\n", ssdsim_errmsg(sim));
        return 1;
    }
    uint64_t rss1 = rss_bytes();

    /* Warm up to steady state: twice the logical capacity in random writes. */
    ssdsim_workload *warm = randwrite(2 * logical_pages / 16);
    double c0 = cpu();
    if (ssdsim_run(sim, warm, NULL)) {
        fprintf(stderr, "bench: %s\n", ssdsim_errmsg(sim));
        return 1;
    }
    double c_warm = cpu() - c0;
    uint64_t rss2 = rss_bytes();

    ssdsim_workload *meas = randwrite(logical_pages / 16);
    uint64_t ev0 = ssdsim_events_executed(sim);
    double t0 = wall();
    c0 = cpu();
    if (ssdsim_run(sim, meas, NULL)) {
        fprintf(stderr, "bench: %s\n", ssdsim_errmsg(sim));
        return 1;
    }
    double dt = wall() - t0, dc = cpu() - c0;
    uint64_t events = ssdsim_events_executed(sim) - ev0;
    uint64_t rss3 = rss_bytes();
    ssdsim_op_stats s;
    ssdsim_device_stats d;
    ssdsim_get_op_stats(sim, SSDSIM_OP_WRITE, &s);
    ssdsim_get_device_stats(sim, &d);

    printf("simulator: %.2f million host I/Os per CPU-second at steady state "
           "(%" PRIu64 " 4 KiB random writes in %.2f CPU-s, %.2f s wall, WAF %.3f, %" PRIu64
           " GC copies; warm-up %.2f CPU-s)\n",
           (double)s.count / dc / 1e6, s.count, dc, dt, d.waf, d.gc_pages_copied, c_warm);
    printf("events: %.2f per host I/O (%" PRIu64 " events, %.0f ns CPU per event)\n",
           s.count ? (double)events / (double)s.count : 0.0, events,
           events ? dc * 1e9 / (double)events : 0.0);
    printf("simulated: %.0f IOPS, mean latency %.1f us, p99 %.1f us\n", s.iops,
           s.lat_mean_ns / 1e3, (double)s.lat_p99_ns / 1e3);
    printf("memory: %.2f bytes per 4 KiB logical page (%" PRIu64 " logical pages, %.1f MiB "
           "resident for the device after a full write); growth during the warm-up (pools "
           "reaching their peak): %" PRIu64 " KiB; during the measured run: %" PRIu64 " KiB\n",
           (double)(rss1 - rss0) / (double)logical_pages, logical_pages,
           (double)(rss1 - rss0) / 1048576.0, (rss2 > rss1 ? rss2 - rss1 : 0) / 1024,
           (rss3 > rss2 ? rss3 - rss2 : 0) / 1024);
    /* The same drive at steady state, half a capacity of each. */
    measure(sim, "random reads", "randread", 100, logical_pages / 32);
    measure(sim, "70/30 random read/write", "randrw", 70, logical_pages / 32);
    ssdsim_workload_free(warm);
    ssdsim_workload_free(meas);
    ssdsim_free(sim);
    /* then the same writes without timing, on a drive of its own (after this one is freed) */
    measure_ff(m, logical_pages);
    ssdsim_model_free(m);
    return 0;
}
