/* sim.c: the public simulation object: build a device from a model, run workloads on it,
 * precondition it. */
#include "sim.h"

#include "plugin.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config/units.h"
#include "workload/workload.h"

void ssdsim__set_errmsg(struct ssdsim *sim, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(sim->errmsg, sizeof sim->errmsg, fmt, ap);
    va_end(ap);
}

int ssdsim_new(ssdsim **out, const ssdsim_model *model, uint64_t seed, ssdsim_error *err)
{
    if (!out)
        return ssdsim__error_set(err, SSDSIM_EINVAL, NULL, NULL, "ssdsim_new: out is NULL");
    *out = NULL;
    if (!model)
        return ssdsim__error_set(err, SSDSIM_EINVAL, NULL, NULL, "ssdsim_new: model is NULL");
    struct ssdsim *sim = calloc(1, sizeof *sim);
    if (!sim)
        return ssdsim__error_set(err, SSDSIM_ENOMEM, NULL, NULL, "out of memory");
    sim->seed = seed;
    sim->model = ssdsim__model_copy(model);
    if (!sim->model)
        goto oom;
    if (ssdsim__engine_init(&sim->engine, 4096))
        goto oom;
    if (ssdsim__hw_init(&sim->hw, sim->model, &sim->engine, ssdsim__env_flash_done, &sim->env))
        goto oom;
    int rc = ssdsim__env_init(&sim->env, sim->model, &sim->hw, seed, ssdsim__host_unit_done,
                              &sim->host, err);
    if (rc) {
        ssdsim_free(sim);
        return rc;
    }
    sim->env.unit_waited = ssdsim__host_unit_waited;
    ssdsim__stats_init(&sim->stats, &sim->env);
    ssdsim__stats_reset(&sim->stats, 0, 0, 0);
    *out = sim;
    return 0;
oom:
    ssdsim_free(sim);
    return ssdsim__error_set(err, SSDSIM_ENOMEM, model->label, NULL,
                             "out of memory building the device");
}

void ssdsim_free(ssdsim *sim)
{
    if (!sim)
        return;
    ssdsim__host_fini(&sim->host);
    ssdsim__stats_fini(&sim->stats);
    ssdsim__env_fini(&sim->env);
    ssdsim__hw_fini(&sim->hw);
    ssdsim__engine_fini(&sim->engine);
    ssdsim_model_free(sim->model);
    free(sim);
}

const char *ssdsim_errmsg(const ssdsim *sim)
{
    return sim ? sim->errmsg : "no simulation";
}

void ssdsim_set_progress(ssdsim *sim, ssdsim_progress_fn fn, void *userdata)
{
    if (!sim)
        return;
    sim->progress = fn;
    sim->progress_ud = userdata;
}

static void tick(void *ctx, uint32_t arg)
{
    struct ssdsim *sim = ctx;
    uint64_t now = ssdsim__engine_now(&sim->engine);
    ssdsim__stats_close_interval(&sim->stats, now);
    sim->tick = 0;
    if (sim->interval_fn && sim->stats.n_series > 0)
        sim->interval_fn(&sim->stats.series[sim->stats.n_series - 1], sim->interval_ud);
    /* With nothing else pending, requests still outstanding can never complete (a stalled
     * device): do not keep time ticking, let drive() report it. The next submitted request
     * starts the ticks again. */
    if (ssdsim__engine_pending(&sim->engine) == 0 || sim->interval_ns == 0)
        return;
    sim->next_tick_ns = now + sim->interval_ns;
    sim->tick = ssdsim__engine_schedule_cancellable(&sim->engine, sim->next_tick_ns, tick, sim, 0);
}

/* (Re)start the interval timer at now + interval_ns, replacing any pending tick. */
static void start_ticks(struct ssdsim *sim)
{
    ssdsim__engine_cancel(&sim->engine, sim->tick);
    sim->tick = 0;
    if (!sim->interval_ns)
        return;
    sim->next_tick_ns = ssdsim__engine_now(&sim->engine) + sim->interval_ns;
    sim->tick = ssdsim__engine_schedule_cancellable(&sim->engine, sim->next_tick_ns, tick, sim, 0);
}

/* Requests are outstanding but nothing can happen any more (only the interval timer, or nothing,
 * is pending): writes wait for a block GC cannot free. Says so and returns SSDSIM_EFULL. */
static int stuck(struct ssdsim *sim)
{
    uint32_t pending = ssdsim__engine_pending(&sim->engine);
    if (pending > (sim->tick ? 1u : 0u))
        return 0;
    ssdsim__set_errmsg(sim, "the device cannot free space: writes wait for a free block and no "
                            "garbage collection can make one");
    return SSDSIM_EFULL;
}

/* Drive the engine until the host's work is done, reporting progress. */
static int drive(struct ssdsim *sim, bool report)
{
    const uint64_t chunk = 1 << 16;
    while (sim->host.active) {
        int rc = ssdsim__engine_run(&sim->engine, chunk);
        if (rc)
            return ssdsim__set_errmsg(sim, "out of memory during the run"), rc;
        if (sim->env.fail_code) {
            ssdsim__set_errmsg(sim, "%s", sim->env.fail_msg);
            return sim->env.fail_code;
        }
        if (sim->host.error) {
            ssdsim__set_errmsg(sim, "out of memory during the run");
            return sim->host.error;
        }
        if (sim->host.active && stuck(sim))
            return SSDSIM_EFULL;
        if (report && sim->host.active && sim->progress &&
            sim->progress(ssdsim__host_progress(&sim->host), sim->progress_ud)) {
            ssdsim__set_errmsg(sim, "cancelled");
            return SSDSIM_ECANCELLED;
        }
    }
    return 0;
}

static int run_workload(struct ssdsim *sim, const struct ssdsim_workload *wl,
                        const ssdsim_run_opts *opts, bool report)
{
    char why[256];
    uint64_t logical = sim->env.geo.logical_pages * sim->env.geo.page_size;
    if (ssdsim__workload_check(wl, logical, why, sizeof why)) {
        ssdsim__set_errmsg(sim, "%s: %s", wl->label ? wl->label : "workload", why);
        return SSDSIM_ECONFIG;
    }
    if (sim->broken) {
        ssdsim__set_errmsg(sim, "an earlier run on this simulation failed or was cancelled; "
                                "create a new simulation");
        return SSDSIM_ESTATE;
    }
    if (sim->host.submitted_inflight) {
        ssdsim__set_errmsg(sim, "%llu submitted requests are still in flight: ssdsim_drain first",
                           (unsigned long long)sim->host.submitted_inflight);
        return SSDSIM_ESTATE;
    }
    ssdsim__host_fini(&sim->host);
    uint64_t now = ssdsim__engine_now(&sim->engine);
    uint64_t iv_ns = opts ? opts->interval_ns : 0, iv_ios = opts ? opts->interval_ios : 0;
    ssdsim__stats_reset(&sim->stats, now, iv_ns, iv_ios);
    /* The run's own interval replaces the program's interval callback for its duration. */
    sim->interval_ns = iv_ns;
    start_ticks(sim);
    uint64_t seed = sim->seed ^ (sim->n_runs++ * 0x9e3779b97f4a7c15ULL);
    int rc = ssdsim__host_start(&sim->host, wl, seed, &sim->engine, &sim->hw, &sim->env,
                                &sim->stats);
    if (rc == 0)
        rc = drive(sim, report);
    ssdsim__engine_cancel(&sim->engine, sim->tick);
    sim->tick = 0;
    sim->interval_ns = sim->interval_fn ? sim->cb_interval_ns : 0;
    start_ticks(sim);
    ssdsim__stats_finish(&sim->stats, ssdsim__engine_now(&sim->engine));
    if (rc == 0 && sim->stats.oom) {
        ssdsim__set_errmsg(sim, "out of memory recording the time series");
        rc = SSDSIM_ENOMEM;
    }
    if (rc) {
        /* Requests are still in flight inside the device: nothing more can run on it. */
        sim->host.active = false;
        sim->broken = true;
    }
    return rc;
}

int ssdsim_run(ssdsim *sim, const ssdsim_workload *wl, const ssdsim_run_opts *opts)
{
    if (!sim || !wl)
        return SSDSIM_EINVAL;
    sim->errmsg[0] = 0;
    return run_workload(sim, wl, opts, true);
}

int ssdsim_idle(ssdsim *sim, uint64_t duration_ns)
{
    if (!sim)
        return SSDSIM_EINVAL;
    if (sim->broken) {
        ssdsim__set_errmsg(sim, "an earlier run on this simulation failed or was cancelled; "
                                "create a new simulation");
        return SSDSIM_ESTATE;
    }
    uint64_t end = ssdsim__engine_now(&sim->engine) + duration_ns;
    int rc = ssdsim__engine_run_until(&sim->engine, end);
    if (rc == 0 && sim->env.fail_code) {
        ssdsim__set_errmsg(sim, "%s", sim->env.fail_msg);
        rc = sim->env.fail_code;
    }
    if (rc)
        sim->broken = true;
    return rc;
}

int ssdsim_precondition_seq(ssdsim *sim)
{
    if (!sim)
        return SSDSIM_EINVAL;
    sim->errmsg[0] = 0;
    struct ssdsim_workload wl;
    ssdsim__workload_defaults(&wl);
    wl.label = (char *)"precondition";
    wl.rw = SSDSIM__RW_WRITE;
    wl.n_bs = 1;
    wl.bs[0].bytes = 128 * 1024;
    wl.bs[0].percent = 100;
    wl.iodepth = 32;
    wl.numjobs = 1;
    uint64_t logical = sim->env.geo.logical_pages * sim->env.geo.page_size;
    if (logical < wl.bs[0].bytes)
        wl.bs[0].bytes = (uint32_t)(logical / 512 * 512);
    int rc = run_workload(sim, &wl, NULL, true);
    ssdsim__stats_reset(&sim->stats, ssdsim__engine_now(&sim->engine), 0, 0);
    return rc;
}

int ssdsim_parse_time_ns(const char *text, uint64_t *out_ns)
{
    if (!text || !out_ns)
        return SSDSIM_EINVAL;
    return ssdsim__units_parse_time_ns(text, out_ns) == 0 ? 0 : SSDSIM_EINVAL;
}

int ssdsim_parse_size(const char *text, uint64_t *out_bytes)
{
    if (!text || !out_bytes)
        return SSDSIM_EINVAL;
    return ssdsim__units_parse_size(text, out_bytes) == 0 ? 0 : SSDSIM_EINVAL;
}

/* ------------------------------------------------------------------ embedding */

static int check_usable(struct ssdsim *sim)
{
    if (!sim)
        return SSDSIM_EINVAL;
    if (sim->broken) {
        ssdsim__set_errmsg(sim, "an earlier run on this simulation failed or was cancelled; "
                                "create a new simulation");
        return SSDSIM_ESTATE;
    }
    return 0;
}

/* After the engine ran: an FTL failure or a host error breaks the simulation. */
static int after_events(struct ssdsim *sim, int rc)
{
    if (rc == 0 && sim->env.fail_code) {
        ssdsim__set_errmsg(sim, "%s", sim->env.fail_msg);
        rc = sim->env.fail_code;
    }
    if (rc == 0 && sim->host.error) {
        ssdsim__set_errmsg(sim, "%s", ssdsim_strerror(sim->host.error));
        rc = sim->host.error;
    }
    if (rc == SSDSIM_ENOMEM && !sim->errmsg[0])
        ssdsim__set_errmsg(sim, "out of memory");
    if (rc)
        sim->broken = true;
    return rc;
}

int ssdsim_submit(ssdsim *sim, enum ssdsim_op op, uint64_t offset, uint64_t length,
                  uint64_t at_ns, uint64_t id, ssdsim_complete_fn cb, void *userdata)
{
    int rc = check_usable(sim);
    if (rc)
        return rc;
    uint64_t logical = sim->env.geo.logical_pages * sim->env.geo.page_size;
    if ((unsigned)op > SSDSIM_OP_TRIM || length == 0 || length > UINT32_MAX ||
        offset >= logical || length > logical - offset ||
        at_ns < ssdsim__engine_now(&sim->engine)) {
        ssdsim__set_errmsg(sim, "ssdsim_submit: bad request (op %d, offset %llu, length %llu, "
                                "at %llu ns; capacity %llu bytes, now %llu ns)",
                           (int)op, (unsigned long long)offset, (unsigned long long)length,
                           (unsigned long long)at_ns, (unsigned long long)logical,
                           (unsigned long long)ssdsim__engine_now(&sim->engine));
        return SSDSIM_EINVAL;
    }
    if (sim->host.active) {
        ssdsim__set_errmsg(sim, "a workload run is in progress");
        return SSDSIM_ESTATE;
    }
    rc = ssdsim__host_submit(&sim->host, &sim->engine, &sim->hw, &sim->env, &sim->stats,
                             (uint8_t)op, offset, (uint32_t)length, at_ns, id, cb, userdata);
    if (rc)
        ssdsim__set_errmsg(sim, "out of memory submitting a request");
    else if (sim->interval_ns && !sim->tick)
        start_ticks(sim); /* ticks stop when the device falls silent */
    return rc;
}

int ssdsim_run_until(ssdsim *sim, uint64_t t_ns)
{
    int rc = check_usable(sim);
    if (rc)
        return rc;
    if (t_ns < ssdsim__engine_now(&sim->engine))
        return SSDSIM_EINVAL;
    return after_events(sim, ssdsim__engine_run_until(&sim->engine, t_ns));
}

int ssdsim_step(ssdsim *sim)
{
    int rc = check_usable(sim);
    if (rc)
        return rc;
    uint64_t before = sim->engine.n_executed;
    rc = after_events(sim, ssdsim__engine_run(&sim->engine, 1));
    if (rc)
        return rc;
    return sim->engine.n_executed > before ? 1 : 0;
}

int ssdsim_drain(ssdsim *sim)
{
    int rc = check_usable(sim);
    if (rc)
        return rc;
    sim->host.stop_when_drained = true;
    while (rc == 0 && sim->host.submitted_inflight > 0) {
        rc = stuck(sim);
        if (rc)
            sim->broken = true;
        else
            rc = after_events(sim, ssdsim__engine_run(&sim->engine, 1 << 16));
    }
    sim->host.stop_when_drained = false;
    return rc;
}

uint64_t ssdsim_now(const ssdsim *sim)
{
    return sim ? ssdsim__engine_now(&sim->engine) : 0;
}

void ssdsim_reset_stats(ssdsim *sim)
{
    if (!sim)
        return;
    ssdsim__stats_reset(&sim->stats, ssdsim__engine_now(&sim->engine), sim->interval_ns, 0);
    start_ticks(sim);
}

int ssdsim_set_interval_callback(ssdsim *sim, uint64_t interval_ns, ssdsim_interval_fn fn,
                                 void *userdata)
{
    if (!sim)
        return SSDSIM_EINVAL;
    sim->interval_fn = interval_ns ? fn : NULL;
    sim->interval_ud = userdata;
    sim->cb_interval_ns = sim->interval_fn ? interval_ns : 0;
    sim->interval_ns = sim->cb_interval_ns;
    ssdsim__stats_reset(&sim->stats, ssdsim__engine_now(&sim->engine), sim->interval_ns, 0);
    start_ticks(sim);
    return 0;
}

int ssdsim_device_shape(const ssdsim *sim, uint32_t *n_planes, uint64_t *n_blocks,
                        uint32_t *pages_per_block, uint32_t *page_size, uint64_t *logical_pages)
{
    if (!sim)
        return SSDSIM_EINVAL;
    const ssdsim_geometry *g = &sim->env.geo;
    if (n_planes)
        *n_planes = g->n_planes;
    if (n_blocks)
        *n_blocks = g->n_blocks;
    if (pages_per_block)
        *pages_per_block = g->pages_per_block;
    if (page_size)
        *page_size = g->page_size;
    if (logical_pages)
        *logical_pages = g->logical_pages;
    return 0;
}

uint64_t ssdsim_plane_free_blocks(const ssdsim *sim, uint32_t plane)
{
    if (!sim || plane >= sim->env.geo.n_planes ||
        !SSDSIM__HAS_METHOD(sim->env.ops, ssdsim_ftl_ops, plane_free_blocks))
        return 0;
    return sim->env.ops->plane_free_blocks(sim->env.state, plane);
}

int ssdsim_block_state(const ssdsim *sim, uint64_t block, uint32_t *valid_pages,
                       uint32_t *erase_count)
{
    if (!sim || block >= sim->env.geo.n_blocks)
        return SSDSIM_EINVAL;
    if (erase_count)
        *erase_count = sim->env.erase_count[block];
    if (!SSDSIM__HAS_METHOD(sim->env.ops, ssdsim_ftl_ops, block_valid))
        return SSDSIM_ENOTFOUND;
    if (valid_pages)
        *valid_pages = sim->env.ops->block_valid(sim->env.state, block);
    return 0;
}

uint64_t ssdsim_lookup(const ssdsim *sim, uint64_t lpn)
{
    if (!sim || lpn >= sim->env.geo.logical_pages || !sim->env.ops->lookup)
        return UINT64_MAX;
    return sim->env.ops->lookup(sim->env.state, lpn);
}
