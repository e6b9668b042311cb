/* quick.c: the hosting companies' simple fio test matrix as `ssdsim suite quick-matrix` runs it
 * (ssdsim_quick_run, ssdsim/suite.h): which tests, over which regions, at which job counts, in
 * which drive states (fresh: secure-erased before each test that follows a write; written full:
 * the steady state of 4 KiB random writes; on a hard disk the fresh state, which writing does
 * not change), with idle time between tests, and the write-cache comparison when the model's
 * write buffer or a disk's cache is volatile (doc/suites.md).
 */
#include "common.h"

#include <glib.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "abi.h"
#include "array/array.h"
#include "methods/methods.h"
#include "sim.h"
#include "ssdsim/suite.h"

#define GIB5 (UINT64_C(5) << 30)
#define TEST_NS UINT64_C(60000000000) /* the procedure's "at most 60 s" */
#define N_STATES 6

static const uint32_t jobs[SSDSIM_QUICK_N_JOBS] = {1, 4, 64};

/* The tests in order: IOPS, sequential then random, read then write, whole device then the
 * first 10%; bandwidth the same over the first 5 GiB, the last 5 GiB and the whole device. */
#define N_TESTS 20
static ssdsim_quick_test test_at(size_t i)
{
    bool iops = i < 8;
    size_t k = iops ? i : i - 8, per = iops ? 2 : 3;
    static const ssdsim_quick_region iops_r[2] = {SSDSIM_QUICK_WHOLE, SSDSIM_QUICK_FIRST10};
    static const ssdsim_quick_region mbs_r[3] = {SSDSIM_QUICK_FIRST5G, SSDSIM_QUICK_LAST5G,
                                                 SSDSIM_QUICK_WHOLE};
    ssdsim_quick_test t = {iops, k / (2 * per) == 0, (k / per) % 2 == 1,
                           iops ? iops_r[k % per] : mbs_r[k % per]};
    return t;
}

size_t ssdsim_quick_n_tests(void)
{
    return N_TESTS;
}

int ssdsim_quick_get_test_sized(size_t i, ssdsim_quick_test *out, size_t size)
{
    if (!out || i >= N_TESTS)
        return SSDSIM_EINVAL;
    ssdsim_quick_test t = test_at(i);
    return ssdsim__result_give(out, size, &t, sizeof t, 0, true);
}

uint32_t ssdsim_quick_jobs(size_t j)
{
    return j < SSDSIM_QUICK_N_JOBS ? jobs[j] : 0;
}

int ssdsim_quick_cell(size_t i, size_t j, uint64_t logical, ssdsim_suite_wl *w)
{
    if (!w || i >= N_TESTS || j >= SSDSIM_QUICK_N_JOBS)
        return SSDSIM_EINVAL;
    ssdsim_quick_test t = test_at(i);
    ssdsim_suite_wl_init(w, 0);
    w->rw = t.seq ? (t.write ? "write" : "read") : (t.write ? "randwrite" : "randread");
    w->bs = t.iops ? "4k" : "128k";
    w->rwmixread = -1;
    w->threads = jobs[j];
    w->qd = 1;
    w->split_region = t.seq;
    uint64_t five = GIB5 < logical / 2 ? GIB5 : logical / 2 / 4096 * 4096;
    switch (t.region) {
    case SSDSIM_QUICK_WHOLE:
        /* random over the whole device: no region at all */
        w->region_size = t.seq ? logical : 0;
        break;
    case SSDSIM_QUICK_FIRST10:
        w->region_size = logical / 10 / 4096 * 4096;
        break;
    case SSDSIM_QUICK_FIRST5G:
        w->region_size = five;
        break;
    case SSDSIM_QUICK_LAST5G:
        w->region_size = five;
        w->region_offset = (logical - five) / 4096 * 4096;
        break;
    }
    return 0;
}

ssdsim_write_buffer ssdsim_model_write_buffer(const ssdsim_model *model)
{
    if (model && ssdsim_model_get_kind(model) == SSDSIM_MODEL_HDD) {
        /* a disk's cache: volatile, hdd.write_cache decides whether writes wait in it */
        double cache = 0;
        ssdsim_model_get_double(model, "hdd.cache", &cache, NULL);
        return cache > 0 ? SSDSIM_WRITE_BUFFER_VOLATILE : SSDSIM_WRITE_BUFFER_NONE;
    }
    if (!model || ssdsim_model_get_kind(model) != SSDSIM_MODEL_SSD)
        return SSDSIM_WRITE_BUFFER_NONE;
    double size = 0;
    bool plp = false;
    ssdsim_model_get_double(model, "buffer.size", &size, NULL);
    if (!(size > 0))
        return SSDSIM_WRITE_BUFFER_NONE;
    ssdsim_model_get_bool(model, "buffer.plp", &plp, NULL);
    return plp ? SSDSIM_WRITE_BUFFER_PLP : SSDSIM_WRITE_BUFFER_VOLATILE;
}

const char *ssdsim_model_write_cache_key(const ssdsim_model *model)
{
    if (!model)
        return NULL;
    switch (ssdsim_model_get_kind(model)) {
    case SSDSIM_MODEL_HDD:
        return "hdd.write_cache";
    case SSDSIM_MODEL_SSD:
        return "buffer.write_cache";
    default:
        return NULL;
    }
}

struct ssdsim_quick_result {
    ssdsim_quick_summary sum;
    ssdsim_measurement fig[N_STATES][N_TESTS][SSDSIM_QUICK_N_JOBS];
    bool ran[N_STATES][N_TESTS][SSDSIM_QUICK_N_JOBS];
    ssdsim_latency_sum *lat[2][N_TESTS];
};

void ssdsim_quick_free(ssdsim_quick_result *r)
{
    if (!r)
        return;
    for (int st = 0; st < 2; st++)
        for (int t = 0; t < N_TESTS; t++)
            if (st == 0 || r->lat[1][t] != r->lat[0][t])
                ssdsim_latency_sum_free(r->lat[st][t]);
    free(r);
}

/* Whether cells of state `st` run on the written-full drive. */
static bool state_full(ssdsim_quick_state st)
{
    return st == SSDSIM_QUICK_FULL || st == SSDSIM_QUICK_CACHE_ON_FULL ||
           st == SSDSIM_QUICK_CACHE_OFF_FULL;
}

/* Whether the writes of a test measured as `f` over a short window of a fresh (secure-erased)
 * drive, continued at the same rate for the rest of the test's `test_ns`, could take it out of
 * its fresh regime: garbage collection ran in the window, an SLC cache filled in it, or the
 * test would write half the drive's free flash (or half its SLC cache, or half a RAID card's
 * write-back cache, in front of disks too) by its end. Garbage
 * collection starts when a few blocks per plane are left (gc.free_blocks_min), far below half,
 * so a test that stays under that writes on free blocks throughout, and its short window
 * stands for the whole test. `absorbed` is what the card's cache took in during the whole
 * measurement (ramps and runs that held too few requests included). */
static bool leaves_fresh(ssdsim *sim, const ssdsim_measurement *f, uint64_t test_ns,
                         uint64_t absorbed)
{
    const struct ssdsim__sys *sys = &sim->sys;
    if (f->host_bytes_written == 0 || f->run_ns == 0)
        return false; /* tests that do not write */
    double rate = (double)f->host_bytes_written / ((double)f->run_ns - (double)f->ramp_ns);
    double host = rate * (double)test_ns;
    /* A RAID card's write-back cache (system.cache): a window it absorbs does not stand for a
     * test that writes more than half of it, which fills it and then meets the devices' own
     * rate (hard disks' too). Nor does a window measured after the measurement's earlier
     * rounds had filled it (a short run of too few requests, run again longer on the same
     * array): its rate is the devices', and the test, from its first request, has the empty
     * cache's too (the 3ware RAID-5, 128 KiB random writes: 60 MB/s over such a window, 323
     * over the 2 s test). */
    if (sys->wc.size &&
        (host >= (double)sys->wc.size / 2 || (double)absorbed >= (double)sys->wc.size / 2))
        return true;
    uint64_t blocks = ssdsim__sys_blocks(sys);
    if (!blocks)
        return false; /* hard disks */
    ssdsim_device_stats d;
    if (ssdsim_get_device_stats(sim, &d))
        return true;
    if (d.gc_pages_copied || d.blocks_erased || d.slc_full_events || d.slc_pages_folded)
        return true;
    double amp = isfinite(f->waf) && f->waf > 1 ? f->waf : 1;
    double free_flash = (double)ssdsim__sys_free_blocks(sys) *
                        ((double)ssdsim__sys_flash_bytes(sys) / (double)blocks);
    if (host * amp >= free_flash / 2)
        return true;
    if (d.slc_on) {
        uint32_t page = sys->devs[0].env.geo.page_size;
        double room =
            (double)(d.slc_capacity_pages - SSDSIM__MIN(d.slc_used_pages, d.slc_capacity_pages)) *
            page;
        if (host >= room / 2)
            return true;
    }
    return false;
}

/* Measure `w` on `sim` into cell (st, i, j) and tell the caller. A test that writes runs the
 * test's whole length on the written-full drive, and on the fresh drive when its short window
 * says it could leave the fresh regime (ssdsim_quick_opts.test_ns). */
static int measure(ssdsim_quick_result *r, ssdsim *sim, const ssdsim_suite_wl *w,
                   ssdsim_quick_state st, size_t i, size_t j)
{
    ssdsim_workload *wl = NULL;
    ssdsim_error err;
    int rc = ssdsim_suite_wl_workload(&wl, w, &err);
    if (rc)
        return ssdsim__fail(sim, rc, "%s", err.message);
    bool writes = strstr(w->rw, "write") != NULL;
    ssdsim_measure_opts mo = SSDSIM_MEASURE_OPTS_INIT;
    mo.window_ns = r->sum.window_ns;
    /* The SNIA rule judges a preconditioned drive only: never the fresh one, whatever the
     * library takes as preconditioned (hard disks, and arrays of them, always are; a RAID
     * card's cache, empty after a secure erase, is not in that state). */
    mo.until_steady = state_full(st);
    mo.gc_cycles = SSDSIM__GC_CYCLES;
    /* run again longer when it held too few requests, but not past the test's length */
    uint64_t stretch = r->sum.test_ns / r->sum.window_ns;
    mo.max_stretch = stretch < 1 ? 1 : stretch > UINT32_MAX ? UINT32_MAX : (uint32_t)stretch;
    ssdsim_measure_opts whole = SSDSIM_MEASURE_OPTS_INIT;
    whole.window_ns = r->sum.test_ns;
    whole.fixed_length = true;
    ssdsim_measurement *f = &r->fig[st][i][j];
    if (writes && state_full(st)) {
        rc = ssdsim_measure(sim, wl, &whole, f);
    } else {
        uint64_t absorbed0 = sim->sys.wc.bytes_absorbed;
        rc = ssdsim_measure(sim, wl, &mo, f);
        if (rc == 0 && writes && r->sum.window_ns < r->sum.test_ns &&
            leaves_fresh(sim, f, r->sum.test_ns, sim->sys.wc.bytes_absorbed - absorbed0)) {
            /* the whole test, from the same fresh state */
            rc = ssdsim_secure_erase(sim);
            if (rc == 0)
                rc = ssdsim_measure(sim, wl, &whole, f);
        }
    }
    ssdsim_workload_free(wl);
    if (rc)
        return rc;
    r->ran[st][i][j] = true;
    return 0;
}

static int cell_done(ssdsim_quick_result *r, ssdsim_quick_state st, size_t i, size_t j,
                     const ssdsim_quick_opts *o)
{
    return o->on_cell ? o->on_cell(st, i, j, &r->fig[st][i][j], o->userdata) : 0;
}

/* Bring `sim` to the written-full state: N sequential fills from a secure erase, or the steady
 * state of 4 KiB random writes over the whole drive (told to on_steady when `tell`). */
static int reach_full(ssdsim *sim, const ssdsim_quick_opts *o, bool tell)
{
    int rc;
    if (o->full_fills) {
        /* from a secure erase, as the labs write a drive full */
        rc = ssdsim_secure_erase(sim);
        if (rc == 0)
            rc = ssdsim_precondition_seq_fills(sim, o->full_fills);
        if (rc) {
            g_autofree char *why = g_strdup(ssdsim_errmsg(sim));
            return ssdsim__fail(sim, rc, "%u sequential fills: %s", o->full_fills, why);
        }
        return 0;
    }
    ssdsim_suite_wl pre = SSDSIM_SUITE_WL_INIT;
    pre.rw = "randwrite", pre.bs = "4k", pre.rwmixread = -1;
    pre.threads = 16, pre.qd = 16;
    ssdsim_workload *wl = NULL;
    ssdsim_error err;
    if ((rc = ssdsim_suite_wl_workload(&wl, &pre, &err)) != 0)
        return ssdsim__fail(sim, rc, "%s", err.message);
    ssdsim_curve_opts co = SSDSIM_CURVE_OPTS_INIT;
    co.rounds_per_drive_write = o->rounds_per_drive_write;
    co.max_drive_writes = o->max_drive_writes;
    ssdsim_steady_method how;
    rc = ssdsim_reach_steady(sim, wl, &co, &how);
    ssdsim_workload_free(wl);
    if (rc) {
        g_autofree char *why = g_strdup(ssdsim_errmsg(sim));
        return ssdsim__fail(sim, rc, "steady state of 4K random writes: %s", why);
    }
    if (tell && o->on_steady)
        o->on_steady(how, NULL, o->userdata);
    return 0;
}

/* The fresh and written-full states on `sim`; only the fresh one on a hard disk
 * (ssdsim_quick_summary.one_state), whose written-full cells are then its fresh ones. */
static int run_states(ssdsim_quick_result *r, ssdsim *sim, const ssdsim_quick_opts *o)
{
    int rc = 0;
    for (int st = 0; st < (r->sum.one_state ? 1 : 2) && rc == 0; st++) {
        if (o->on_state)
            o->on_state((ssdsim_quick_state)st, o->userdata);
        bool dirty = true; /* written since the last secure erase */
        if (st == SSDSIM_QUICK_FULL && (rc = reach_full(sim, o, true)) != 0)
            return rc;
        for (size_t i = 0; i < N_TESTS && rc == 0; i++) {
            ssdsim_quick_test t = test_at(i);
            for (size_t j = 0; j < SSDSIM_QUICK_N_JOBS && rc == 0; j++) {
                if (st == SSDSIM_QUICK_FRESH && dirty) {
                    if ((rc = ssdsim_secure_erase(sim)) != 0)
                        break;
                    dirty = false;
                }
                ssdsim_suite_wl w;
                ssdsim_quick_cell(i, j, r->sum.logical_bytes, &w);
                if ((rc = measure(r, sim, &w, (ssdsim_quick_state)st, i, j)) != 0)
                    break;
                dirty = dirty || t.write;
                if (o->idle_ns && (rc = ssdsim_idle(sim, o->idle_ns)) != 0)
                    break;
                /* ssdsim_idle keeps the run's statistics: the histogram is read after it. */
                if (t.iops && !t.seq && t.region == SSDSIM_QUICK_WHOLE &&
                    j + 1 == SSDSIM_QUICK_N_JOBS) {
                    if ((rc = ssdsim_latency_sum_new(&r->lat[st][i])) != 0)
                        return ssdsim__fail(sim, rc, "out of memory");
                    ssdsim_latency_sum_add_run(r->lat[st][i], sim, SSDSIM_OP_ALL);
                }
                rc = cell_done(r, (ssdsim_quick_state)st, i, j, o);
            }
        }
    }
    if (rc == 0 && r->sum.one_state) {
        memcpy(r->fig[SSDSIM_QUICK_FULL], r->fig[SSDSIM_QUICK_FRESH], sizeof r->fig[0]);
        memcpy(r->ran[SSDSIM_QUICK_FULL], r->ran[SSDSIM_QUICK_FRESH], sizeof r->ran[0]);
        memcpy(r->lat[SSDSIM_QUICK_FULL], r->lat[SSDSIM_QUICK_FRESH], sizeof r->lat[0]);
    }
    return rc;
}

/* The 4 KiB random write test on fresh copies of `model` with the write cache on, then off. */
static int run_cache(ssdsim_quick_result *r, ssdsim *sim, const ssdsim_model *model,
                     const ssdsim_quick_opts *o)
{
    size_t i = r->sum.cache_test;
    int rc = 0;
    for (int on = 1; on >= 0 && rc == 0; on--) {
        ssdsim_quick_state st = on ? SSDSIM_QUICK_CACHE_ON : SSDSIM_QUICK_CACHE_OFF;
        if (o->on_state)
            o->on_state(st, o->userdata);
        ssdsim_model *m2 = NULL;
        ssdsim *s2 = NULL;
        ssdsim_error err;
        if ((rc = ssdsim_model_copy(&m2, model)) != 0)
            return ssdsim__fail(sim, rc, "out of memory");
        rc = ssdsim_model_set_bool(m2, ssdsim_model_write_cache_key(model), on, &err);
        if (rc == 0)
            rc = ssdsim_new(&s2, m2, o->seed, &err);
        ssdsim_model_free(m2);
        if (rc)
            return ssdsim__fail(sim, rc, "%s", err.message);
        ssdsim_set_progress(s2, o->progress, o->progress_userdata);
        for (size_t j = 0; j < SSDSIM_QUICK_N_JOBS && rc == 0; j++) {
            ssdsim_suite_wl w;
            ssdsim_quick_cell(i, j, r->sum.logical_bytes, &w);
            rc = ssdsim_secure_erase(s2);
            if (rc == 0)
                rc = measure(r, s2, &w, st, i, j);
            if (rc < 0) {
                g_autofree char *why = g_strdup(ssdsim_errmsg(s2));
                ssdsim__fail(sim, rc, "write cache %s: %s", on ? "on" : "off", why);
            }
            if (rc == 0)
                rc = cell_done(r, st, i, j, o);
        }
        /* then written full, the job counts in order with the idle time between, as the
         * matrix runs them on its written-full drive (a disk's is its fresh one: not again) */
        ssdsim_quick_state fs = on ? SSDSIM_QUICK_CACHE_ON_FULL : SSDSIM_QUICK_CACHE_OFF_FULL;
        if (r->sum.one_state) {
            for (size_t j = 0; j < SSDSIM_QUICK_N_JOBS; j++) {
                r->fig[fs][i][j] = r->fig[st][i][j];
                r->ran[fs][i][j] = r->ran[st][i][j];
            }
            ssdsim_free(s2);
            continue;
        }
        if (rc == 0 && o->on_state)
            o->on_state(fs, o->userdata);
        if (rc == 0 && (rc = reach_full(s2, o, false)) != 0) {
            g_autofree char *why = g_strdup(ssdsim_errmsg(s2));
            ssdsim__fail(sim, rc, "write cache %s: %s", on ? "on" : "off", why);
        }
        for (size_t j = 0; j < SSDSIM_QUICK_N_JOBS && rc == 0; j++) {
            ssdsim_suite_wl w;
            ssdsim_quick_cell(i, j, r->sum.logical_bytes, &w);
            rc = measure(r, s2, &w, fs, i, j);
            if (rc == 0 && o->idle_ns)
                rc = ssdsim_idle(s2, o->idle_ns);
            if (rc < 0) {
                g_autofree char *why = g_strdup(ssdsim_errmsg(s2));
                ssdsim__fail(sim, rc, "write cache %s, written full: %s", on ? "on" : "off",
                             why);
            }
            if (rc == 0)
                rc = cell_done(r, fs, i, j, o);
        }
        ssdsim_free(s2);
    }
    return rc;
}

int ssdsim_quick_run(ssdsim_quick_result **out, ssdsim *sim, const ssdsim_model *model,
                     const ssdsim_quick_opts *opts)
{
    SSDSIM__CHECK_HANDLE(sim, SSDSIM__MAGIC_SIM, "ssdsim");
    if (out)
        *out = NULL;
    if (!out || !sim || !model)
        return ssdsim__fail(sim, SSDSIM_EINVAL, "ssdsim_quick_run: out, sim and model are needed");
    ssdsim_quick_opts o;
    char why[256];
    if (ssdsim__quick_opts_read(&o, opts, why, sizeof why))
        return ssdsim__fail(sim, SSDSIM_EINVAL, "ssdsim_quick_run: %s", why);
    ssdsim_quick_result *r = calloc(1, sizeof *r);
    if (!r)
        return ssdsim__fail(sim, SSDSIM_ENOMEM, "out of memory");
    ssdsim_quick_summary *s = &r->sum;
    s->test_ns = o.test_ns ? o.test_ns : TEST_NS;
    s->full_fills = o.full_fills;
    s->window_ns = o.window_ns && o.window_ns < s->test_ns ? o.window_ns : s->test_ns;
    s->logical_bytes = ssdsim_model_logical_bytes(model); /* one volume: the tests' regions */
    s->regions_5gib = GIB5 < s->logical_bytes / 2;
    s->buffer = ssdsim_model_write_buffer(model);
    s->cache_compared = s->buffer == SSDSIM_WRITE_BUFFER_VOLATILE;
    /* a hard disk: writing changes no state of it (no flash, no mapping, no garbage
     * collection), so its written-full state is its fresh one, measured once the same way */
    s->one_state = ssdsim_model_get_kind(model) == SSDSIM_MODEL_HDD;
    s->cache_test = 6; /* random, write, whole device, 4 KiB */
    int rc = run_states(r, sim, &o);
    if (rc == 0 && s->cache_compared)
        rc = run_cache(r, sim, model, &o);
    if (rc) {
        ssdsim_quick_free(r);
        return rc;
    }
    *out = r;
    return 0;
}

int ssdsim_quick_get_summary_sized(const ssdsim_quick_result *r, ssdsim_quick_summary *out,
                                   size_t size)
{
    if (!r || !out)
        return SSDSIM_EINVAL;
    return ssdsim__result_give(out, size, &r->sum, sizeof r->sum, 0, true);
}

int ssdsim_quick_get_cell_sized(const ssdsim_quick_result *r, ssdsim_quick_state state, size_t test,
                                size_t j, ssdsim_measurement *out, size_t size)
{
    unsigned st = (unsigned)state;
    if (!r || !out || st >= N_STATES || test >= N_TESTS || j >= SSDSIM_QUICK_N_JOBS ||
        !r->ran[st][test][j])
        return SSDSIM_EINVAL;
    return ssdsim__result_give(out, size, &r->fig[st][test][j], sizeof(ssdsim_measurement), 0,
                               true);
}

const ssdsim_latency_sum *ssdsim_quick_latency(const ssdsim_quick_result *r,
                                               ssdsim_quick_state state, size_t test)
{
    unsigned st = (unsigned)state;
    return r && st < 2 && test < N_TESTS ? r->lat[st][test] : NULL;
}

/* The functions themselves, for callers that bypass the header's macros (a function pointer,
 * ctypes): the structs as this library declares them. */
int(ssdsim_quick_get_test)(size_t i, ssdsim_quick_test *out)
{
    return ssdsim_quick_get_test_sized(i, out, sizeof *out);
}

int(ssdsim_quick_get_summary)(const ssdsim_quick_result *r, ssdsim_quick_summary *out)
{
    return ssdsim_quick_get_summary_sized(r, out, sizeof *out);
}

int(ssdsim_quick_get_cell)(const ssdsim_quick_result *r, ssdsim_quick_state state, size_t test,
                           size_t j, ssdsim_measurement *out)
{
    return ssdsim_quick_get_cell_sized(r, state, test, j, out, sizeof *out);
}
