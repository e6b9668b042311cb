/* window.c: a measured window (ssdsim_measure): a time-based run of a workload after a ramp of a
 * tenth of the window, in rounds of a tenth of it, stopped once its IOPS converge when asked,
 * and run again longer when it held too few requests for its figures to mean something; or a
 * test of fixed length (fixed_length), counted from its first request, as a lab's fio job with
 * a runtime.
 *
 * Why the re-runs: host writes are striped over the planes, so every plane fills its open block
 * at the same pace and they all call for garbage collection together; at steady state the IOPS
 * of a random-write workload swing with a period of one block per plane of host writes
 * (generic-mlc at 16T/16Q: 5,000 to 16,000 IOPS in 0.2 s intervals, a period of about 0.8 s), so
 * a window must span many such periods for its average to hold. The drive is at steady state,
 * so the longer run changes nothing but the precision.
 *
 * Why reads wait for garbage collection to end: a workload that writes nothing, measured right
 * after writes, finds foreground GC still collecting up to its high watermark, and shares the
 * firmware and the dies with it until it is done (the Optimus Eco, 4K random reads at 16T/16Q
 * after its 4K random writes: 60,850 IOPS in the first 0.2 s, 89,950 once GC ends 3 s later). A
 * lab's test of that workload runs for minutes, which that tail barely moves; a window of a few
 * seconds would be mostly tail. So such a window starts once that GC has ended: the workload
 * runs in rounds of a tenth of the window, not counted, while a device collects (at most
 * max_stretch windows), as part of the ramp.
 */
#include "common.h"

#include <inttypes.h>
#include <math.h>
#include <stddef.h>
#include <string.h>

#include "abi.h"
#include "ftl/page.h"
#include "methods/methods.h"
#include "sim.h"

#define DEFAULT_WINDOW_NS UINT64_C(1000000000)
#define DEFAULT_MIN_IOS 5000
#define DEFAULT_MIN_PER_SLOT 20
#define DEFAULT_MAX_STRETCH 64
/* short_of_gc came after 1.0 in the tail padding of ssdsim_measurement, which
 * ssdsim_calibration holds by value: a caller compiled before must find the same size. */
_Static_assert(sizeof(ssdsim_measurement) ==
                   (offsetof(ssdsim_measurement, too_few) + 8) / 8 * 8,
               "ssdsim_measurement keeps its 1.0 size");
#define ROUNDS 10       /* rounds of a window (each a tenth of it) */
#define STEADY_ROUNDS 5 /* the steady rule's window (ssdsim_steady_opts.window, SNIA's 5) */

void ssdsim__measurement_of_run(ssdsim *sim, ssdsim_measurement *f, ssdsim_op_stats *a,
                                ssdsim_op_stats *r, ssdsim_op_stats *w)
{
    ssdsim_device_stats d;
    ssdsim_get_op_stats(sim, SSDSIM_OP_ALL, a);
    ssdsim_get_op_stats(sim, SSDSIM_OP_READ, r);
    ssdsim_get_op_stats(sim, SSDSIM_OP_WRITE, w);
    ssdsim_get_device_stats(sim, &d);
    memset(f, 0, sizeof *f);
    f->run_ns = ssdsim_sim_time_ns(sim);
    f->window_ns = f->run_ns;
    f->iops = a->iops;
    f->bw_bytes = a->bw_bytes;
    f->lat_mean_ns = a->lat_mean_ns;
    f->lat_stddev_ns = a->lat_stddev_ns;
    f->lat_max_ns = a->lat_max_ns;
    f->lat_p99_ns = a->lat_p99_ns;
    f->lat_p99_99_ns = a->lat_p99_99_ns;
    f->read_iops = r->iops;
    f->write_iops = w->iops;
    f->read_lat_mean_ns = r->lat_mean_ns;
    f->write_lat_mean_ns = w->lat_mean_ns;
    f->read_lat_max_ns = r->lat_max_ns;
    f->write_lat_max_ns = w->lat_max_ns;
    f->read_lat_p99_ns = r->lat_p99_ns;
    f->write_lat_p99_ns = w->lat_p99_ns;
    f->waf = d.host_pages_written ? d.waf : NAN;
    f->host_bytes_written = w->bytes;
    f->host_pages_written = d.host_pages_written;
    f->flash_pages_programmed = d.flash_pages_programmed;
    f->n_ios = a->count;
    f->n_writes = w->count;
    f->n_rounds = ssdsim_n_intervals(sim);
}

/* One run of `wl` for `window_ns` after a ramp of a tenth of it (none for a fixed-length test). */
static int measure_once(ssdsim *sim, const ssdsim_workload *wl, uint64_t window_ns,
                        bool until_steady, bool fixed, ssdsim_measurement *f)
{
    memset(f, 0, sizeof *f);
    uint64_t ramp_ns = fixed ? 0 : window_ns / 10;
    /* Whole microseconds (the command gave them as text once; the figures stay the same).
     * runtime counts after ramp_time, as in fio. */
    uint64_t run_us = (window_ns + 999) / 1000, ramp_us = (ramp_ns + 999) / 1000;
    struct ssdsim__methods_len len = {.runtime_ns = run_us * 1000, .ramp_ns = ramp_us * 1000};
    ssdsim_run_opts ro = {.interval_ns = window_ns / ROUNDS};
    if (until_steady) {
        ro.until_steady = 1;
        ro.steady_var = SSDSIM_STEADY_IOPS;
        ro.max_rounds = ROUNDS;
    }
    int rc = ssdsim__methods_run(sim, wl, &len, &ro);
    if (rc)
        return rc;
    ssdsim_op_stats a, r, wr;
    ssdsim__measurement_of_run(sim, f, &a, &r, &wr);
    f->ramp_ns = ramp_ns;
    ssdsim_steady_result st;
    f->steady = until_steady && ssdsim_get_steady(sim, &st) == 0 && st.steady;
    /* Rates over the rounds in which requests were issued, not over the whole run: the run
     * ends when its last request completes, and the queues drain at the end at a rate that says
     * nothing of the drive (a request stuck behind garbage collection can keep the run going
     * for a tenth of a second). The rounds are the intervals, each window_ns / 10 long. */
    size_t k_issue = f->steady ? st.round + 1 : 10;
    if (k_issue > f->n_rounds)
        k_issue = f->n_rounds;
    uint64_t ios = 0;
    double bytes = 0;
    for (size_t k = 0; k < k_issue; k++) {
        ssdsim_interval v;
        if (ssdsim_get_interval(sim, k, &v))
            break;
        ios += v.n_ios;
        bytes += v.bw_bytes * (double)ro.interval_ns / 1e9;
    }
    if (k_issue > 0 && ios > 0) {
        double t = (double)(k_issue * ro.interval_ns) / 1e9;
        double scale = ((double)ios / t) / (a.iops > 0 ? a.iops : 1);
        f->iops = (double)ios / t;
        f->bw_bytes = bytes / t;
        f->read_iops = r.iops * scale;
        f->write_iops = wr.iops * scale;
        f->window_ns = k_issue * ro.interval_ns;
    } else {
        f->window_ns = f->run_ns;
    }
    return 0;
}

/* Whether a solid-state device of `sim` is collecting garbage (the page FTL and DFTL say; other
 * FTLs are taken as not). */
static bool gc_running(const ssdsim *sim)
{
    for (uint32_t k = 0; k < sim->sys.n_devs; k++)
        if (sim->sys.devs[k].ssd && ssdsim__page_gc_running(&sim->sys.devs[k].env))
            return true;
    return false;
}

/* A workload that writes nothing: run it in rounds of a tenth of the window, not counted, while
 * the GC earlier writes left running goes on, for at most `cap_ns` (see the top). Sets the
 * simulated time it ran. */
static int gc_tail(ssdsim *sim, const ssdsim_workload *wl, uint64_t window_ns, uint64_t cap_ns,
                   uint64_t *ran_ns)
{
    *ran_ns = 0;
    if (ssdsim__methods_write_share(wl) > 0)
        return 0;
    uint64_t round_us = (window_ns / ROUNDS + 999) / 1000;
    struct ssdsim__methods_len len = {.runtime_ns = round_us * 1000};
    while (*ran_ns < cap_ns && gc_running(sim)) {
        int rc = ssdsim__methods_run(sim, wl, &len, NULL);
        if (rc)
            return rc;
        *ran_ns += ssdsim_sim_time_ns(sim);
    }
    return 0;
}

static int measure(ssdsim *sim, const ssdsim_workload *wl, const ssdsim_measure_opts *o,
                   ssdsim_measurement *f)
{
    uint64_t window_ns = o->window_ns ? o->window_ns : DEFAULT_WINDOW_NS;
    if (o->fixed_length) {
        int rc = measure_once(sim, wl, window_ns, false, true, f);
        f->n_runs = 1;
        return rc;
    }
    uint64_t per_slot = o->min_ios_per_slot ? o->min_ios_per_slot : DEFAULT_MIN_PER_SLOT;
    uint64_t min_ios = o->min_ios ? o->min_ios : DEFAULT_MIN_IOS;
    uint64_t stretch = o->max_stretch ? o->max_stretch : DEFAULT_MAX_STRETCH;
    uint64_t cap = window_ns > UINT64_MAX / stretch ? UINT64_MAX : window_ns * stretch;
    uint64_t tail_ns;
    int rc = gc_tail(sim, wl, window_ns, cap, &tail_ns);
    if (rc)
        return rc;
    uint64_t want = per_slot * ssdsim__methods_slots(wl);
    if (want < min_ios)
        want = min_ios;
    /* Blocks per plane of host writes on every device: a system's host writes spread over its
     * devices (device 0's shape is every member's), so it wants its count of devices times
     * what one wants; a hard disk has no planes, and asks for none. */
    uint32_t n_planes = 0, ppb = 0;
    if (o->gc_cycles && ssdsim__methods_write_share(wl) > 0 && sim->sys.devs[0].ssd)
        ssdsim_device_shape(sim, &n_planes, NULL, &ppb, NULL, NULL);
    uint64_t want_pages = (uint64_t)o->gc_cycles * n_planes * ppb * sim->sys.n_devs;
    uint64_t win = window_ns;
    for (uint32_t n_runs = 1;; n_runs++) {
        rc = measure_once(sim, wl, win, o->until_steady, false, f);
        f->n_runs = n_runs;
        f->ramp_ns += tail_ns;
        f->gc_wait_ns = tail_ns;
        if (rc)
            return rc;
        if (f->n_ios >= want && f->host_pages_written >= want_pages)
            return 0;
        if (win >= cap) {
            /* short of what was asked, at its longest: figures all the same, unless fewer
             * requests completed than were outstanding, so that the window saw only the
             * queues' first wave, not a flow, or a request took longer on average than the
             * ramp, so that the window began before the first wave had come back and counted
             * too few of it (a request rate a share of outstanding / total too low) */
            f->too_few = f->n_ios < ssdsim__methods_slots(wl) ||
                         f->lat_mean_ns > (double)(f->ramp_ns - f->gc_wait_ns);
            f->short_of_gc = f->host_pages_written < want_pages;
            return 0;
        }
        /* What the run achieved, over the rounds it ran, says how long the next must be, with
         * a margin. A run that stopped early, steady, may stop the next one early too, at the
         * earliest after STEADY_ROUNDS of its ROUNDS rounds: it must hold what is wanted by
         * then. */
        double ran = o->until_steady && f->window_ns ? (double)f->window_ns : (double)win;
        double early = o->until_steady && f->steady ? (double)ROUNDS / STEADY_ROUNDS : 1.0;
        double need = f->n_ios ? ran * (double)want / (double)f->n_ios : 0;
        if (want_pages) {
            double np = f->host_pages_written
                            ? ran * (double)want_pages / (double)f->host_pages_written
                            : (double)win * (double)stretch;
            need = np > need ? np : need;
        }
        need *= early * 1.25;
        uint64_t next = need > (double)cap ? cap : (uint64_t)need;
        win = next > win * 2 ? next : win * 2;
        if (win > cap)
            win = cap;
    }
}

static int measure_sized_body(ssdsim *sim, const ssdsim_workload *wl,
                              const ssdsim_measure_opts *opts, ssdsim_measurement *out, size_t size)
{
    SSDSIM__CHECK_HANDLE(sim, SSDSIM__MAGIC_SIM, "ssdsim");
    if (out && size)
        memset(out, 0, size);
    if (!sim || !wl || !out)
        return ssdsim__fail(sim, SSDSIM_EINVAL, "ssdsim_measure: sim, wl and out are needed");
    ssdsim_measure_opts o;
    char why[256];
    if (ssdsim__measure_opts_read(&o, opts, why, sizeof why))
        return ssdsim__fail(sim, SSDSIM_EINVAL, "ssdsim_measure: %s", why);
    /* the longest window the options allow, with its ramp, must fit the simulated clock */
    uint64_t w = o.window_ns ? o.window_ns : DEFAULT_WINDOW_NS;
    uint64_t longest = o.fixed_length ? 1 : o.max_stretch ? o.max_stretch : DEFAULT_MAX_STRETCH;
    uint64_t room = SSDSIM__CLOCK_LIMIT_NS - SSDSIM__MIN(ssdsim_now(sim), SSDSIM__CLOCK_LIMIT_NS);
    if (w > room / 2 / longest)
        return ssdsim__fail(sim, SSDSIM_EINVAL,
                            "ssdsim_measure: window_ns %" PRIu64 " (x max_stretch %" PRIu64
                            ", with its ramp) does not fit the simulated clock's %" PRIu64
                            " ns left (2^62 in all)",
                            o.window_ns, longest, room);
    ssdsim_measurement f;
    int rc = measure(sim, wl, &o, &f);
    (void)ssdsim__result_give(out, size, &f, sizeof f, 0, true);
    return rc;
}

/* Bracketed (ssdsim__call_enter): a callback's ssdsim_free waits until this returns. */
int ssdsim_measure_sized(ssdsim *sim, const ssdsim_workload *wl, const ssdsim_measure_opts *opts,
                         ssdsim_measurement *out, size_t size)
{
    if (!sim || sim->magic != SSDSIM__MAGIC_SIM)
        return measure_sized_body(sim, wl, opts, out, size);
    ssdsim__call_enter(sim);
    return ssdsim__call_leave(sim, measure_sized_body(sim, wl, opts, out, size));
}

/* The functions themselves, for callers that bypass the header's macros (a function pointer,
 * ctypes): the structs as this library declares them. */
int(ssdsim_measure)(ssdsim *sim, const ssdsim_workload *wl, const ssdsim_measure_opts *opts,
                    ssdsim_measurement *out)
{
    return ssdsim_measure_sized(sim, wl, opts, out, sizeof *out);
}
