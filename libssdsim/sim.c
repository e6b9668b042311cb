/* sim.c: the public simulation object: build a device from a model, run workloads on it,
 * precondition it. */
#include "sim.h"
#include "dev/zns.h"
#include "config/fdp_pid.h"
#include "watchdog.h"
#include "ftl/reserve.h"

#include "plugin.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config/units.h"
#include "workload/workload.h"
#include "abi.h"
#include "memest.h"

void ssdsim__set_errmsg(struct ssdsim *sim, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(sim->errmsg, sizeof sim->errmsg, fmt, ap);
    va_end(ap);
}

int ssdsim__fail(const struct ssdsim *sim, int code, const char *fmt, ...)
{
    if (!sim)
        return code;
    struct ssdsim *s = (struct ssdsim *)(uintptr_t)sim;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(s->errmsg, sizeof s->errmsg, fmt, ap);
    va_end(ap);
    return code;
}

int ssdsim__check_workload(const struct ssdsim *sim, const struct ssdsim_workload *wl)
{
    char why[512];
    if (ssdsim__workload_check(wl, sim->sys.volume_bytes, why, sizeof why))
        return ssdsim__fail(sim, SSDSIM_ECONFIG, "%s: %s", wl->label ? wl->label : "workload",
                            why);
    return 0;
}

void ssdsim_model_warn(ssdsim_model *model)
{
    if (!model || model->magic != SSDSIM__MAGIC_MODEL || model->reserve_warned)
        return;
    const struct ssdsim_model *dev =
        model->kind == SSDSIM__KIND_SYSTEM ? model->system.member : model;
    if (dev && dev->kind == SSDSIM__KIND_SSD)
        ssdsim__reserve_warn(dev);
    model->reserve_warned = true;
}

int ssdsim_new(ssdsim **out, const ssdsim_model *model, uint64_t seed, ssdsim_error *err)
{
    if (!out)
        return ssdsim__error_set(err, SSDSIM_EINVAL, NULL, NULL, "ssdsim_new: out is NULL");
    *out = NULL;
    if (!model)
        return ssdsim__error_set(err, SSDSIM_EINVAL, NULL, NULL, "ssdsim_new: model is NULL");
    SSDSIM__CHECK_HANDLE(model, SSDSIM__MAGIC_MODEL, "ssdsim_model");
    /* before anything is allocated: a drive too large for the machine is one line (memest.h) */
    int mrc = ssdsim__memory_check(model, err);
    if (mrc)
        return mrc;
    struct ssdsim *sim = calloc(1, sizeof *sim);
    if (!sim)
        return ssdsim__error_set(err, SSDSIM_ENOMEM, NULL, NULL, "out of memory");
    sim->magic = SSDSIM__MAGIC_SIM;
    sim->seed = seed;
    sim->model = ssdsim__model_copy(model);
    if (!sim->model)
        goto oom;
    if (ssdsim__engine_init(&sim->engine, 4096))
        goto oom;
    int rc = ssdsim__sys_init(&sim->sys, sim->model, &sim->engine, seed, err);
    if (rc) {
        ssdsim_free(sim);
        return rc;
    }
    if (!model->reserve_warned) {
        /* once per model: a suite builds many devices of one model (ssdsim_model_warn) */
        ssdsim__reserve_warn(sim->sys.dev_model);
        ((struct ssdsim_model *)model)->reserve_warned = true;
    }
    if (ssdsim__stats_init(&sim->stats, &sim->sys))
        goto oom;
    ssdsim__stats_reset(&sim->stats, 0, 0, 0, 0);
    ssdsim__steady_resolve(NULL, &sim->steady_opts, NULL, 0);
    const char *pm = getenv("SSDSIM_PRECONDITION_METHOD");
    if (pm && *pm && strcmp(pm, "functional")) {
        if (strcmp(pm, "timed")) {
            ssdsim_free(sim);
            return ssdsim__error_set(err, SSDSIM_EINVAL, NULL, NULL,
                                     "environment variable SSDSIM_PRECONDITION_METHOD: '%s' is "
                                     "no method (expected functional or timed)",
                                     pm);
        }
        sim->precond_method = SSDSIM_PRECONDITION_METHOD_TIMED;
    }
#ifdef SSDSIM_DEBUG
    ssdsim_set_check_period(sim, 1 << 20);
#endif
    *out = sim;
    return 0;
oom:
    ssdsim_free(sim);
    return ssdsim__error_set(err, SSDSIM_ENOMEM, model->label, NULL,
                             "out of memory building the device");
}

static void free_names(char **v, uint32_t n)
{
    for (uint32_t i = 0; i < n; i++)
        free(v[i]);
    free(v);
}

static void clear_run_notes(struct ssdsim *sim)
{
    free(sim->run_label);
    free_names(sim->ignored, sim->n_ignored);
    free_names(sim->skipped, sim->n_skipped);
    sim->run_label = NULL;
    sim->ignored = sim->skipped = NULL;
    sim->n_ignored = sim->n_skipped = 0;
}

static char **copy_names(char *const *v, uint32_t n, bool *oom)
{
    if (n == 0)
        return NULL;
    char **c = calloc(n, sizeof *c);
    if (!c) {
        *oom = true;
        return NULL;
    }
    for (uint32_t i = 0; i < n; i++)
        if (!(c[i] = strdup(v[i])))
            *oom = true;
    return c;
}

/* Remember what the run was (the results name it). */
static int note_run(struct ssdsim *sim, const char *label, const struct ssdsim_workload *wl)
{
    clear_run_notes(sim);
    bool oom = false;
    sim->run_label = strdup(label ? label : "");
    if (!sim->run_label)
        oom = true;
    if (wl) {
        sim->ignored = copy_names(wl->ignored, wl->n_ignored, &oom);
        sim->n_ignored = sim->ignored ? wl->n_ignored : 0;
        sim->skipped = copy_names(wl->skipped, wl->n_skipped, &oom);
        sim->n_skipped = sim->skipped ? wl->n_skipped : 0;
    }
    if (oom) {
        ssdsim__set_errmsg(sim, "out of memory");
        return SSDSIM_ENOMEM;
    }
    return 0;
}

void ssdsim_free(ssdsim *sim)
{
    if (!sim)
        return;
    SSDSIM__CHECK_HANDLE(sim, SSDSIM__MAGIC_SIM, "ssdsim");
    if (sim->engine.running || sim->call_depth) {
        /* A callback frees the simulation whose events run: the engine loop and the call that
         * runs it still use it, so the outermost call frees it as it returns. */
        sim->free_pending = true;
        return;
    }
    sim->magic = SSDSIM__MAGIC_FREED;
    clear_run_notes(sim);
    ssdsim__host_fini(&sim->host);
    ssdsim__stats_fini(&sim->stats);
    ssdsim__sys_fini(&sim->sys);
    ssdsim__engine_fini(&sim->engine);
    ssdsim__power_free(sim->power);
    ssdsim_model_free(sim->model);
    free(sim);
}

const char *ssdsim_errmsg(const ssdsim *sim)
{
    SSDSIM__CHECK_HANDLE(sim, SSDSIM__MAGIC_SIM, "ssdsim");
    return sim ? sim->errmsg : "no simulation";
}

int ssdsim_interrupted(const ssdsim *sim)
{
    return sim && sim->interrupted ? 1 : 0;
}

void ssdsim_set_progress(ssdsim *sim, ssdsim_progress_fn fn, void *userdata)
{
    if (!sim)
        return;
    sim->progress = fn;
    sim->progress_ud = userdata;
}

struct ssdsim__span ssdsim__span_part(struct ssdsim__span in, double lo, double hi)
{
    if (in.hi <= 0)
        in = (struct ssdsim__span){0, 1};
    double w = in.hi - in.lo;
    return (struct ssdsim__span){in.lo + w * lo, in.lo + w * hi};
}

int ssdsim__progress_call(struct ssdsim *sim, double fraction)
{
    if (!sim->progress)
        return 0;
    struct ssdsim__span s = ssdsim__span_part(sim->progress_span, 0, 1);
    return sim->progress(s.lo + (s.hi - s.lo) * fraction, sim->progress_ud);
}

static void tick(void *ctx, uint32_t arg)
{
    struct ssdsim *sim = ctx;
    uint64_t now = ssdsim__engine_now(&sim->engine);
    ssdsim__stats_close_interval(&sim->stats, now);
    sim->tick = 0;
    if (sim->interval_fn && sim->stats.n_series > 0 && !sim->stats.full)
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
 * is pending). With the library's FTLs, writes wait for a block GC cannot free: says so and
 * returns SSDSIM_EFULL. An outside FTL that holds units of commands it was handed, with no
 * flash operation in flight, never completed them (a plugin that does not call
 * ssdsim_ftl_unit_done): says that instead and returns SSDSIM_ESTATE. An outside FTL that
 * really waits for space it cannot make gets that message too: the library cannot tell the
 * two apart, and the units it was handed are indeed never completed. */
static int stuck(struct ssdsim *sim)
{
    uint32_t pending = ssdsim__engine_pending(&sim->engine);
    if (pending > (sim->tick ? 1u : 0u))
        return 0;
    uint32_t n_cmds = 0;
    const char *ftl = ssdsim__sys_unfinished_ftl(&sim->sys, &n_cmds);
    if (ftl) {
        ssdsim__set_errmsg(sim,
                           "the run cannot go on: FTL '%s' was handed units of %u command%s "
                           "that it never completed (ssdsim_ftl_unit_done), and nothing is "
                           "in flight that would complete them",
                           ftl, n_cmds, n_cmds == 1 ? "" : "s");
        return SSDSIM_ESTATE;
    }
    ssdsim__set_errmsg(sim, "the device cannot free space: writes wait for a free block and no "
                            "garbage collection can make one");
    return SSDSIM_EFULL;
}

/* The time series needed more than SSDSIM__SERIES_MAX_ROWS rows. */
static int series_full(struct ssdsim *sim)
{
    ssdsim__set_errmsg(sim,
                       "the time series reached its limit of %zu rows (doc/results.md): ask for "
                       "a longer interval",
                       sim->stats.max_rows);
    return SSDSIM_ERANGE;
}

/* The consistency check of ssdsim_set_check_period, when it is due (or now, `force`): 0, or
 * SSDSIM_ESTATE with the broken invariant in the error message. */
static int periodic_check(struct ssdsim *sim, bool force)
{
    if (!sim->check_period || (!force && sim->engine.n_executed < sim->check_due))
        return 0;
    sim->check_due = sim->engine.n_executed + sim->check_period;
    sim->n_checks++;
    char why[400] = "";
    int rc = ssdsim__sys_check(&sim->sys, why, sizeof why);
    if (rc)
        ssdsim__set_errmsg(sim, "consistency check failed after %llu events: %s",
                           (unsigned long long)sim->engine.n_executed, why);
    return rc;
}

/* Drive the engine until the host's work is done, reporting progress. Between batches the
 * watchdog (watchdog.c) stops a run whose requests no longer make progress. */
static int drive(struct ssdsim *sim, bool report)
{
    struct ssdsim__watchdog dog;
    ssdsim__watchdog_start(&dog, &sim->sys, sim->host.completed,
                           ssdsim__engine_now(&sim->engine), sim->engine.n_executed);
    while (sim->host.active) {
        uint64_t chunk = 1 << 16;
        if (sim->check_period && sim->check_due > sim->engine.n_executed)
            chunk = SSDSIM__MIN(chunk, sim->check_due - sim->engine.n_executed);
        int rc = ssdsim__engine_run(&sim->engine, chunk);
        if (rc)
            return ssdsim__set_errmsg(sim, "out of memory during the run"), rc;
        if (sim->stats.full)
            return series_full(sim);
        rc = periodic_check(sim, false);
        if (rc)
            return rc;
        const char *why = NULL;
        int fail = ssdsim__sys_failure(&sim->sys, &why);
        if (fail) {
            ssdsim__set_errmsg(sim, "%s", why);
            return fail;
        }
        if (sim->host.error) {
            ssdsim__set_errmsg(
                sim, "%s", sim->host.errmsg[0] ? sim->host.errmsg : "out of memory during the run");
            return sim->host.error;
        }
        rc = sim->host.active ? stuck(sim) : 0;
        if (rc)
            return rc;
        if (sim->host.active) {
            char diag[400];
            int st = ssdsim__watchdog_check(&dog, &sim->sys, sim->host.completed,
                                            sim->host.inflight, ssdsim__engine_now(&sim->engine),
                                            sim->engine.n_executed, diag, sizeof diag);
            if (st) {
                ssdsim__set_errmsg(sim, "%s", diag);
                return st;
            }
        }
        if (report && sim->host.active && sim->progress &&
            ssdsim__progress_call(sim, ssdsim__host_progress(&sim->host))) {
            ssdsim__set_errmsg(sim, "cancelled");
            return SSDSIM_ECANCELLED;
        }
    }
    return 0;
}

/* A round of the run's series closed (the stats' on_close hook while the run has until_steady,
 * max_rounds or a method's round_stop): stop the run when the last `window` rounds, all begun
 * on a preconditioned device (stats first_round) and none of them idle (nothing completed in
 * it), are steady by the SNIA rule, when max_rounds
 * rounds are done, or when round_stop says so.
 * Every row is a whole round here (the partial last row comes after the run). O(window) per
 * round. */
static void steady_round(void *ctx)
{
    struct ssdsim *sim = ctx;
    const struct ssdsim__stats *s = &sim->stats;
    if (!sim->host.active || sim->host.stopping)
        return; /* already stopping: rounds that close while the last requests complete */
    size_t n = s->n_series, w = sim->steady_opts.window;
    bool stop = (sim->max_rounds && n >= sim->max_rounds) ||
                (sim->round_stop && sim->round_stop(sim, sim->round_stop_ctx));
    bool idle = false; /* a round of the window in which nothing completed measures nothing */
    for (size_t k = n >= w ? n - w : 0; k < n; k++)
        idle |= s->series[k].n_ios == 0;
    if (sim->until_steady && !idle && s->first_round != SIZE_MAX && n >= w &&
        n - w >= s->first_round) {
        ssdsim_steady_result r;
        const char *first = (const char *)&s->series[n - w];
        const double *x =
            (const double *)(const void *)(first + ssdsim__steady_var_offset(sim->steady_var));
        if (ssdsim__steady_window(x, sizeof *s->series, &sim->steady_opts, &r))
            stop = true;
    }
    if (stop) {
        sim->steady_stopped = true;
        ssdsim__host_stop_all(&sim->host);
    }
}

/* Check the time-series and steady-state options of a run. 0 or SSDSIM_EINVAL with a message. */
static int check_run_opts(struct ssdsim *sim, const ssdsim_run_opts *o)
{
    int kinds = !!o->interval_ns + !!o->interval_ios + !!o->interval_bytes;
    if (kinds > 1) {
        ssdsim__set_errmsg(sim,
                           "run options: give one kind of time-series interval "
                           "(interval_ns, interval_ios or interval_bytes), not %d",
                           kinds);
        return SSDSIM_EINVAL;
    }
    if ((o->until_steady || o->max_rounds) && kinds == 0) {
        ssdsim__set_errmsg(sim,
                           "run options: %s needs a time-series interval (interval_ns, "
                           "interval_ios or interval_bytes): its rounds are the intervals",
                           o->until_steady ? "until_steady" : "max_rounds");
        return SSDSIM_EINVAL;
    }
    if ((unsigned)o->steady_var > SSDSIM_STEADY_WAF) {
        ssdsim__set_errmsg(sim, "run options: steady_var %d is not a ssdsim_steady_var",
                           (int)o->steady_var);
        return SSDSIM_EINVAL;
    }
    ssdsim_steady_opts r;
    char why[256];
    if (ssdsim__steady_resolve(&o->steady, &r, why, sizeof why)) {
        ssdsim__set_errmsg(sim, "run options: steady: %s", why);
        return SSDSIM_EINVAL;
    }
    return 0;
}

/* Everything a run does before its host starts: refuse bad options, a broken simulation or one
 * with submitted requests in flight, reset the statistics, take over the interval timer. */
static int begin_run(struct ssdsim *sim, const ssdsim_run_opts *opts)
{
    const ssdsim_run_opts none = {0};
    if (!opts)
        opts = &none;
    int rc = check_run_opts(sim, opts);
    if (rc)
        return rc;
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
    ssdsim__stats_reset(&sim->stats, now, opts->interval_ns, opts->interval_ios,
                        opts->interval_bytes);
    sim->steady_var = opts->steady_var;
    ssdsim__steady_resolve(&opts->steady, &sim->steady_opts, NULL, 0);
    sim->until_steady = opts->until_steady != 0;
    sim->max_rounds = opts->max_rounds;
    sim->steady_stopped = false;
    sim->interrupted = false;
    sim->stats.on_close =
        sim->until_steady || sim->max_rounds || sim->round_stop ? steady_round : NULL;
    sim->stats.on_close_ctx = sim;
    /* The run's own interval replaces the program's interval callback for its duration. */
    sim->interval_ns = opts->interval_ns;
    start_ticks(sim);
    return 0;
}

/* The run options' power loss by time: the host stops issuing (rel/power.c). */
static void power_loss_due(void *ctx, uint32_t arg)
{
    struct ssdsim *sim = ctx;
    (void)arg;
    sim->power_loss_event = 0;
    if (sim->host.active && !sim->host.stopping)
        ssdsim__host_stop_all(&sim->host);
}

/* Arm the run options' power loss on the host just started. */
static int arm_power_loss(struct ssdsim *sim)
{
    sim->host.stop_after = sim->power_loss_after;
    if (!sim->power_loss_ns)
        return 0;
    uint64_t now = ssdsim__engine_now(&sim->engine);
    sim->power_loss_event = ssdsim__engine_schedule_cancellable(
        &sim->engine, now + sim->power_loss_ns, power_loss_due, sim, 0);
    return sim->power_loss_event ? 0 : SSDSIM_ENOMEM;
}

/* Drive the started host to the end of the run and close its statistics. */
static int end_run(struct ssdsim *sim, int rc, bool report)
{
    if (rc == 0)
        rc = arm_power_loss(sim);
    if (rc == 0) {
        rc = drive(sim, report);
        if (rc == 0)
            rc = periodic_check(sim, true); /* the state the run leaves */
    } else {
        ssdsim__set_errmsg(sim, "%s", sim->host.errmsg[0] ? sim->host.errmsg : ssdsim_strerror(rc));
    }
    ssdsim__host_finish(&sim->host);
    sim->stats.on_close = NULL;
    ssdsim__engine_cancel(&sim->engine, sim->tick);
    sim->tick = 0;
    sim->interval_ns = sim->interval_fn ? sim->cb_interval_ns : 0;
    start_ticks(sim);
    ssdsim__stats_finish(&sim->stats, ssdsim__engine_now(&sim->engine));
    if (rc == 0 && sim->stats.oom) {
        ssdsim__set_errmsg(sim, "out of memory recording the time series");
        rc = SSDSIM_ENOMEM;
    }
    /* A cancelled run keeps its statistics (closed above at the moment it stopped): they
     * describe the requests that completed until then, and the results say so. */
    sim->interrupted = rc == SSDSIM_ECANCELLED;
    if (rc == 0 && sim->stats.full)
        rc = series_full(sim);
    /* a power loss set for a time or a request count the run did not reach is taken at its
     * end (ssdsim_set_power_loss), and the results say so */
    bool after_reached = sim->power_loss_after && sim->host.completed >= sim->power_loss_after;
    sim->power_loss_at_end = (sim->power_loss_ns || sim->power_loss_after) &&
                             !(sim->power_loss_ns && !sim->power_loss_event) && !after_reached;
    ssdsim__engine_cancel(&sim->engine, sim->power_loss_event);
    sim->power_loss_event = 0;
    if (rc == 0 && (sim->power_loss_ns || sim->power_loss_after)) {
        uint64_t cut = ssdsim__engine_now(&sim->engine);
        rc = ssdsim__power_loss(sim);
        sim->stats.unmeasured_ns = ssdsim__engine_now(&sim->engine) - cut;
    }
    if (rc) {
        /* Requests are still in flight inside the device: nothing more can run on it. */
        sim->host.active = false;
        sim->broken = true;
    }
    return rc;
}

/* Refuse a run whose time series certainly needs more than SSDSIM__SERIES_MAX_ROWS rows: a
 * time-based job runs for its runtime, and jobs with number_ios and no runtime complete that
 * many requests (unless fio's steady-state option, until_steady or max_rounds ends the run
 * sooner, when nothing is certain). 0 or SSDSIM_ERANGE with a message. */
static int check_series_rows(struct ssdsim *sim, const struct ssdsim_workload *wl,
                             const ssdsim_run_opts *o)
{
    uint64_t max = sim->stats.max_rows;
    if (!o || o->until_steady || (o->max_rounds && o->max_rounds <= max))
        return 0;
    uint64_t longest_ns = 0, ios = 0;
    for (uint32_t i = 0; i < wl->n_jobs; i++) {
        const struct ssdsim__jobspec *j = &wl->jobs[i];
        if (j->ss != SSDSIM__SS_NONE)
            return 0;
        if (j->time_based && j->runtime_ns > longest_ns)
            longest_ns = j->runtime_ns;
        if (j->number_ios && !j->runtime_ns) {
            uint64_t n = j->number_ios > UINT64_MAX / SSDSIM__MAX(j->numjobs, 1u)
                             ? UINT64_MAX
                             : j->number_ios * j->numjobs;
            ios = n > UINT64_MAX - ios ? UINT64_MAX : ios + n;
        }
    }
    uint64_t rows = 0;
    char why[160] = "";
    if (o->interval_ns && longest_ns / o->interval_ns > max) {
        rows = longest_ns / o->interval_ns;
        snprintf(why, sizeof why, "a time-based job runs %llu ns, at an interval of %llu ns",
                 (unsigned long long)longest_ns, (unsigned long long)o->interval_ns);
    } else if (o->interval_ios && ios / o->interval_ios > max) {
        rows = ios / o->interval_ios;
        snprintf(why, sizeof why, "the jobs complete %llu requests, at an interval of %llu",
                 (unsigned long long)ios, (unsigned long long)o->interval_ios);
    }
    if (!rows)
        return 0;
    ssdsim__set_errmsg(sim,
                       "run options: the time series would have at least %llu rows (%s), more "
                       "than its limit of %llu (doc/results.md): ask for a longer interval",
                       (unsigned long long)rows, why, (unsigned long long)max);
    return SSDSIM_ERANGE;
}

/* The host's cancel hook (host.h): the progress callback, at the progress the run has. */
static int host_cancel(void *ctx)
{
    struct ssdsim *sim = ctx;
    return sim->progress && ssdsim__progress_call(sim, ssdsim__host_progress(&sim->host));
}

static int run_workload(struct ssdsim *sim, const struct ssdsim_workload *wl,
                        const ssdsim_run_opts *opts, bool report)
{
    int check_rc = ssdsim__check_workload(sim, wl);
    if (check_rc)
        return check_rc;
    int rows_rc = check_series_rows(sim, wl, opts);
    if (rows_rc)
        return rows_rc;
    int rc = begin_run(sim, opts);
    if (rc == 0)
        rc = note_run(sim, wl->label, wl);
    if (rc)
        return rc;
    uint64_t seed = sim->seed ^ (sim->n_runs++ * 0x9e3779b97f4a7c15ULL);
    sim->host.cancel = report ? host_cancel : NULL; /* as drive() asks the callback */
    sim->host.cancel_ctx = sim;
    rc = ssdsim__host_start(&sim->host, wl, seed, sim->seed, &sim->engine, &sim->sys,
                            &sim->stats);
    return end_run(sim, rc, report);
}

int ssdsim_run_source(ssdsim *sim, const ssdsim_source *src, const ssdsim_replay_opts *ropts,
                      const ssdsim_run_opts *opts)
{
    SSDSIM__CHECK_HANDLE(sim, SSDSIM__MAGIC_SIM, "ssdsim");
    if (!sim || !src || !src->next)
        return ssdsim__fail(sim, SSDSIM_EINVAL,
                            "ssdsim_run_source: the source and its next function must not be "
                            "NULL");
    const ssdsim_replay_opts *one[1] = {ropts};
    return ssdsim_run_sources(sim, src, ropts ? one : NULL, 1, opts);
}

static int run_sources_body(ssdsim *sim, const ssdsim_source *srcs,
                            const ssdsim_replay_opts *const *ropts, size_t n,
                            const ssdsim_run_opts *opts)
{
    SSDSIM__CHECK_HANDLE(sim, SSDSIM__MAGIC_SIM, "ssdsim");
    if (!sim || !srcs || n == 0 || n > 4096)
        return ssdsim__fail(sim, SSDSIM_EINVAL,
                            "ssdsim_run_sources: 1 to 4096 sources, not NULL");
    for (size_t k = 0; k < n; k++)
        if (!srcs[k].next)
            return ssdsim__fail(sim, SSDSIM_EINVAL,
                                "ssdsim_run_source: the source and its next function must not "
                                "be NULL");
    sim->errmsg[0] = 0;
    if (ssdsim__refuse_in_events(sim, "ssdsim_run_sources"))
        return SSDSIM_ESTATE;
    ssdsim_replay_opts *ro = calloc(n, sizeof *ro);
    const ssdsim_replay_opts **rp = calloc(n, sizeof *rp);
    if (!ro || !rp) {
        free(ro);
        free(rp);
        return ssdsim__fail(sim, SSDSIM_ENOMEM, "out of memory starting the run");
    }
    ssdsim_run_opts o;
    char why[256];
    int rc = 0;
    for (size_t k = 0; k < n && !rc; k++) {
        const ssdsim_replay_opts *in = ropts ? ropts[k] : NULL;
        if (ssdsim__replay_opts_read(&ro[k], in, why, sizeof why))
            rc = SSDSIM_EINVAL;
        else if (in && (ro[k].time_scale < 0 || ro[k].time_scale != ro[k].time_scale)) {
            snprintf(why, sizeof why, "time_scale must be > 0 (0 = 1), got %g", ro[k].time_scale);
            rc = SSDSIM_EINVAL;
        } else if (in) {
            /* before the run starts: a bad queue, volume or placement leaves the simulation
             * usable (found by the host once started, it failed the simulation for good) */
            rc = ssdsim__host_check_replay(&sim->sys, &ro[k], why, sizeof why, NULL);
        }
        rp[k] = in ? &ro[k] : NULL;
    }
    if (!rc && ssdsim__run_opts_read(&o, opts, why, sizeof why))
        rc = SSDSIM_EINVAL;
    if (rc) {
        ssdsim__set_errmsg(sim, "%s", why);
        free(ro);
        free(rp);
        return rc;
    }
    opts = opts ? &o : NULL;
    rc = begin_run(sim, opts);
    if (rc == 0)
        rc = note_run(sim, rp[0] && rp[0]->label ? rp[0]->label : "replay", NULL);
    if (rc) {
        free(ro);
        free(rp);
        return rc;
    }
    sim->n_runs++;
    sim->host.cancel = host_cancel;
    sim->host.cancel_ctx = sim;
    rc = ssdsim__host_start_sources(&sim->host, srcs, rp, n, &sim->engine, &sim->sys,
                                    &sim->stats);
    rc = end_run(sim, rc, true);
    free(ro);
    free(rp);
    return rc;
}

int ssdsim_run_sources(ssdsim *sim, const ssdsim_source *srcs,
                       const ssdsim_replay_opts *const *ropts, size_t n,
                       const ssdsim_run_opts *opts)
{
    if (!sim || sim->magic != SSDSIM__MAGIC_SIM)
        return run_sources_body(sim, srcs, ropts, n, opts);
    ssdsim__call_enter(sim);
    return ssdsim__call_leave(sim, run_sources_body(sim, srcs, ropts, n, opts));
}

void ssdsim_set_observer(ssdsim *sim, const ssdsim_observer *obs)
{
    if (!sim)
        return;
    if (obs) {
        sim->host.obs = *obs;
        sim->host.have_obs = true;
    } else {
        memset(&sim->host.obs, 0, sizeof sim->host.obs);
        sim->host.have_obs = false;
    }
}

static int run_body(ssdsim *sim, const ssdsim_workload *wl, const ssdsim_run_opts *opts)
{
    SSDSIM__CHECK_HANDLE(sim, SSDSIM__MAGIC_SIM, "ssdsim");
    SSDSIM__CHECK_HANDLE(wl, SSDSIM__MAGIC_WORKLOAD, "ssdsim_workload");
    if (!sim || !wl)
        return ssdsim__fail(sim, SSDSIM_EINVAL, "ssdsim_run: no workload");
    sim->errmsg[0] = 0;
    if (ssdsim__refuse_in_events(sim, "ssdsim_run"))
        return SSDSIM_ESTATE;
    ssdsim_run_opts o;
    char why[256];
    if (ssdsim__run_opts_read(&o, opts, why, sizeof why)) {
        ssdsim__set_errmsg(sim, "%s", why);
        return SSDSIM_EINVAL;
    }
    return run_workload(sim, wl, opts ? &o : NULL, true);
}

int ssdsim__run_inner(struct ssdsim *sim, const ssdsim_workload *wl, const ssdsim_run_opts *opts)
{
    return run_body(sim, wl, opts);
}

int ssdsim_run(ssdsim *sim, const ssdsim_workload *wl, const ssdsim_run_opts *opts)
{
    if (!sim || sim->magic != SSDSIM__MAGIC_SIM)
        return run_body(sim, wl, opts);
    ssdsim__call_enter(sim);
    return ssdsim__call_leave(sim, run_body(sim, wl, opts));
}

static int check_usable(struct ssdsim *sim); /* below, with the embedding calls */

void ssdsim__call_enter(struct ssdsim *sim)
{
    sim->call_depth++;
}

int ssdsim__call_leave(struct ssdsim *sim, int rc)
{
    if (--sim->call_depth == 0 && sim->free_pending && !sim->engine.running)
        ssdsim_free(sim);
    return rc;
}

int ssdsim__refuse_in_events(const struct ssdsim *sim, const char *what)
{
    if (sim->free_pending)
        return ssdsim__fail(sim, SSDSIM_ESTATE,
                            "%s: the simulation was freed by a callback; it goes when the call "
                            "that runs its events returns",
                            what);
    if (!sim->engine.running)
        return 0;
    return ssdsim__fail(sim, SSDSIM_ESTATE,
                        "%s: called from a callback while the simulation runs its events; call "
                        "it once the call that runs them (ssdsim_run, ssdsim_drain, ...) has "
                        "returned",
                        what);
}

static int idle_body(ssdsim *sim, uint64_t duration_ns)
{
    int usable = check_usable(sim);
    if (!usable)
        usable = ssdsim__refuse_in_events(sim, "ssdsim_idle");
    if (usable)
        return usable;
    uint64_t now = ssdsim__engine_now(&sim->engine);
    if (duration_ns > SSDSIM__CLOCK_LIMIT_NS - SSDSIM__MIN(now, SSDSIM__CLOCK_LIMIT_NS))
        return ssdsim__fail(sim, SSDSIM_EINVAL,
                            "ssdsim_idle: %llu ns from now (%llu ns) passes the simulated "
                            "clock's limit (2^62 ns, about 146 years)",
                            (unsigned long long)duration_ns, (unsigned long long)now);
    int rc = ssdsim__engine_run_until(&sim->engine, now + duration_ns);
    if (rc)
        ssdsim__set_errmsg(sim, "out of memory while idle");
    const char *why_failed = NULL;
    if (rc == 0 && ssdsim__sys_failure(&sim->sys, &why_failed)) {
        ssdsim__set_errmsg(sim, "%s", why_failed);
        rc = ssdsim__sys_failure(&sim->sys, &why_failed);
    }
    if (rc)
        sim->broken = true;
    return rc;
}

int ssdsim_idle(ssdsim *sim, uint64_t duration_ns)
{
    if (!sim || sim->magic != SSDSIM__MAGIC_SIM)
        return idle_body(sim, duration_ns);
    ssdsim__call_enter(sim);
    return ssdsim__call_leave(sim, idle_body(sim, duration_ns));
}

int ssdsim_precondition_seq(ssdsim *sim)
{
    return ssdsim_precondition_seq_fills(sim, 1); /* precond.c */
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
    SSDSIM__CHECK_HANDLE(sim, SSDSIM__MAGIC_SIM, "ssdsim");
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
    if (rc) /* the engine's own failure: it could not grow its queue */
        ssdsim__set_errmsg(sim, "%s while running events", ssdsim_strerror(rc));
    const char *why_failed = NULL;
    if (rc == 0 && ssdsim__sys_failure(&sim->sys, &why_failed)) {
        ssdsim__set_errmsg(sim, "%s", why_failed);
        rc = ssdsim__sys_failure(&sim->sys, &why_failed);
    }
    if (rc == 0 && sim->host.error) {
        ssdsim__set_errmsg(
            sim, "%s", sim->host.errmsg[0] ? sim->host.errmsg : ssdsim_strerror(sim->host.error));
        rc = sim->host.error;
    }
    if (rc == 0 && sim->stats.full)
        rc = series_full(sim);
    if (rc == SSDSIM_ENOMEM && !sim->errmsg[0])
        ssdsim__set_errmsg(sim, "out of memory");
    if (rc == 0)
        rc = periodic_check(sim, false);
    if (rc)
        sim->broken = true;
    return rc;
}

int ssdsim_submit(ssdsim *sim, enum ssdsim_op op, uint64_t offset, uint64_t length, uint64_t at_ns,
                  uint64_t id, ssdsim_complete_fn cb, void *userdata)
{
    return ssdsim_submit_ex(sim, op, offset, length, at_ns, id, cb, userdata, NULL);
}

int ssdsim_submit_ex(ssdsim *sim, enum ssdsim_op op, uint64_t offset, uint64_t length,
                     uint64_t at_ns, uint64_t id, ssdsim_complete_fn cb, void *userdata,
                     const ssdsim_submit_opts *opts_in)
{
    int rc = check_usable(sim);
    if (rc)
        return rc;
    ssdsim_submit_opts opts;
    char why[256];
    if (ssdsim__submit_opts_read(&opts, opts_in, why, sizeof why)) {
        ssdsim__set_errmsg(sim, "ssdsim_submit_ex: %s", why);
        return SSDSIM_EINVAL;
    }
    uint64_t logical = sim->sys.volume_bytes;
    bool flush = op == SSDSIM_OP_FLUSH;
    bool zone_cmd = op >= SSDSIM_OP_ZONE_RESET && op <= SSDSIM_OP_ZONE_CLOSE;
    bool zoned = sim->sys.n_devs == 1 && sim->sys.devs[0].zns;
    if ((zone_cmd || op == SSDSIM_OP_ZONE_APPEND) && !zoned) {
        ssdsim__set_errmsg(sim, "ssdsim_submit: op %d: zone commands need a zoned drive (model "
                                "key zns.zone_size)", (int)op);
        return SSDSIM_EINVAL;
    }
    bool bad = flush      ? offset != 0 || length != 0
               : zone_cmd ? length != 0 || offset >= logical
                          : ((unsigned)op > SSDSIM_OP_TRIM && op != SSDSIM_OP_ZONE_APPEND) ||
                                length == 0 || length > UINT32_MAX || offset >= logical ||
                                length > logical - offset;
    if (bad || at_ns < ssdsim__engine_now(&sim->engine) || at_ns > SSDSIM__CLOCK_LIMIT_NS) {
        ssdsim__set_errmsg(sim,
                           "ssdsim_submit: bad request (op %d, offset %llu, length %llu, "
                           "at %llu ns; capacity %llu bytes, now %llu ns, the clock's limit "
                           "2^62 ns%s)",
                           (int)op, (unsigned long long)offset, (unsigned long long)length,
                           (unsigned long long)at_ns, (unsigned long long)logical,
                           (unsigned long long)ssdsim__engine_now(&sim->engine),
                           flush ? "; a flush has offset and length 0" : "");
        return SSDSIM_EINVAL;
    }
    if (opts.fua && op != SSDSIM_OP_WRITE) {
        ssdsim__set_errmsg(sim, "ssdsim_submit_ex: fua: only a write has Force Unit Access");
        return SSDSIM_EINVAL;
    }
    uint32_t nq = sim->sys.dev_model->nvme.queues;
    if (opts.queue >= nq) {
        ssdsim__set_errmsg(sim,
                           "ssdsim_submit_ex: queue: %u is beyond the model's queue pairs "
                           "(nvme.queues %u: 0 to %u)",
                           opts.queue, nq, nq - 1);
        return SSDSIM_EINVAL;
    }
    uint32_t placement;
    char pwhy[200];
    if (ssdsim__fdp_pid_decode(&sim->sys.dev_model->fdp, opts.placement, &placement, pwhy,
                               sizeof pwhy)) {
        ssdsim__set_errmsg(sim, "ssdsim_submit_ex: placement: %s", pwhy);
        return SSDSIM_EINVAL;
    }
    uint8_t iop = flush ? SSDSIM__IO_FLUSH : (uint8_t)op;
    if (op == SSDSIM_OP_ZONE_APPEND)
        iop = SSDSIM__IO_WRITE | SSDSIM__ZOP_APPEND << SSDSIM__IO_ZOP_SHIFT;
    else if (zone_cmd)
        iop = (uint8_t)(SSDSIM__IO_TRIM | (op - SSDSIM_OP_WRITE_FUA) << SSDSIM__IO_ZOP_SHIFT);
    if (opts.fua)
        iop |= SSDSIM__IO_FUA;
    if (sim->host.active) {
        ssdsim__set_errmsg(sim, "a workload run is in progress");
        return SSDSIM_ESTATE;
    }
    rc = ssdsim__host_submit(&sim->host, &sim->engine, &sim->sys, &sim->stats, iop,
                             offset, (uint32_t)length, at_ns, id, cb, userdata,
                             opts.queue | placement << 16);
    if (rc)
        ssdsim__set_errmsg(sim, "out of memory submitting a request");
    else if (sim->interval_ns && !sim->tick)
        start_ticks(sim); /* ticks stop when the device falls silent */
    return rc;
}

static int run_until_body(ssdsim *sim, uint64_t t_ns)
{
    int rc = check_usable(sim);
    if (rc == 0)
        rc = ssdsim__refuse_in_events(sim, "ssdsim_run_until");
    if (rc)
        return rc;
    if (t_ns > SSDSIM__CLOCK_LIMIT_NS)
        return ssdsim__fail(sim, SSDSIM_EINVAL,
                            "ssdsim_run_until: %llu ns passes the simulated clock's limit (2^62 "
                            "ns, about 146 years)",
                            (unsigned long long)t_ns);
    if (t_ns < ssdsim__engine_now(&sim->engine))
        return ssdsim__fail(sim, SSDSIM_EINVAL,
                            "ssdsim_run_until: %llu ns is before now (%llu ns)",
                            (unsigned long long)t_ns,
                            (unsigned long long)ssdsim__engine_now(&sim->engine));
    return after_events(sim, ssdsim__engine_run_until(&sim->engine, t_ns));
}

int ssdsim_run_until(ssdsim *sim, uint64_t t_ns)
{
    if (!sim || sim->magic != SSDSIM__MAGIC_SIM)
        return run_until_body(sim, t_ns);
    ssdsim__call_enter(sim);
    return ssdsim__call_leave(sim, run_until_body(sim, t_ns));
}

static int step_body(ssdsim *sim)
{
    int rc = check_usable(sim);
    if (rc == 0)
        rc = ssdsim__refuse_in_events(sim, "ssdsim_step");
    if (rc)
        return rc;
    uint64_t before = sim->engine.n_executed;
    rc = after_events(sim, ssdsim__engine_run(&sim->engine, 1));
    if (rc)
        return rc;
    return sim->engine.n_executed > before ? 1 : 0;
}

int ssdsim_step(ssdsim *sim)
{
    if (!sim || sim->magic != SSDSIM__MAGIC_SIM)
        return step_body(sim);
    ssdsim__call_enter(sim);
    return ssdsim__call_leave(sim, step_body(sim));
}

static int drain_body(ssdsim *sim)
{
    int rc = check_usable(sim);
    if (rc == 0)
        rc = ssdsim__refuse_in_events(sim, "ssdsim_drain");
    if (rc)
        return rc;
    sim->host.stop_when_drained = true;
    struct ssdsim__watchdog dog;
    ssdsim__watchdog_start(&dog, &sim->sys, sim->host.completed,
                           ssdsim__engine_now(&sim->engine), sim->engine.n_executed);
    while (rc == 0 && sim->host.submitted_inflight > 0) {
        char diag[400];
        rc = stuck(sim);
        if (rc == 0) {
            rc = ssdsim__watchdog_check(&dog, &sim->sys, sim->host.completed,
                                        sim->host.submitted_inflight,
                                        ssdsim__engine_now(&sim->engine), sim->engine.n_executed,
                                        diag, sizeof diag);
            if (rc)
                ssdsim__set_errmsg(sim, "%s", diag);
        }
        if (rc)
            sim->broken = true;
        else
            rc = after_events(sim, ssdsim__engine_run(&sim->engine, 1 << 16));
    }
    sim->host.stop_when_drained = false;
    return rc;
}

int ssdsim_drain(ssdsim *sim)
{
    if (!sim || sim->magic != SSDSIM__MAGIC_SIM)
        return drain_body(sim);
    ssdsim__call_enter(sim);
    return ssdsim__call_leave(sim, drain_body(sim));
}

uint64_t ssdsim_now(const ssdsim *sim)
{
    return sim ? ssdsim__engine_now(&sim->engine) : 0;
}

void ssdsim_reset_stats(ssdsim *sim)
{
    if (!sim)
        return;
    ssdsim__stats_reset(&sim->stats, ssdsim__engine_now(&sim->engine), sim->interval_ns, 0, 0);
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
    ssdsim__stats_reset(&sim->stats, ssdsim__engine_now(&sim->engine), sim->interval_ns, 0, 0);
    start_ticks(sim);
    return 0;
}

/* The FTL environment of the first device, or NULL when it is a hard disk: the introspection
 * calls below look at that device (every device of a system has the same shape). */
static const struct ssdsim_ftl_env *env0(const ssdsim *sim)
{
    return sim && sim->sys.devs[0].ssd ? &sim->sys.devs[0].env : NULL;
}

int ssdsim_device_shape(const ssdsim *sim, uint32_t *n_planes, uint64_t *n_blocks,
                        uint32_t *pages_per_block, uint32_t *page_size, uint64_t *logical_pages)
{
    if (!env0(sim))
        return ssdsim__fail(sim, SSDSIM_EINVAL,
                            "ssdsim_device_shape: the device is a hard disk (no flash shape)");
    const ssdsim_geometry *g = &env0(sim)->geo;
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
    const struct ssdsim_ftl_env *env = env0(sim);
    if (!env || plane >= env->geo.n_planes ||
        !SSDSIM__HAS_METHOD(env->ops, ssdsim_ftl_ops, plane_free_blocks))
        return 0;
    return env->ops->plane_free_blocks(env->state, plane);
}

int ssdsim_block_state(const ssdsim *sim, uint64_t block, uint32_t *valid_pages,
                       uint32_t *erase_count)
{
    const struct ssdsim_ftl_env *env = env0(sim);
    if (!env)
        return ssdsim__fail(sim, SSDSIM_EINVAL,
                            "ssdsim_block_state: the device is a hard disk (no flash blocks)");
    if (block >= env->geo.n_blocks)
        return ssdsim__fail(sim, SSDSIM_EINVAL,
                            "ssdsim_block_state: block %llu of %llu does not exist",
                            (unsigned long long)block, (unsigned long long)env->geo.n_blocks);
    if (erase_count)
        *erase_count = env->erase_count[block];
    if (!SSDSIM__HAS_METHOD(env->ops, ssdsim_ftl_ops, block_valid))
        return ssdsim__fail(sim, SSDSIM_ENOTFOUND,
                            "ssdsim_block_state: the FTL does not tell a block's valid pages");
    if (valid_pages)
        *valid_pages = env->ops->block_valid(env->state, block);
    return 0;
}

uint64_t ssdsim_lookup(const ssdsim *sim, uint64_t lpn)
{
    const struct ssdsim_ftl_env *env = env0(sim);
    if (!env || lpn >= env->geo.logical_pages || !env->ops->lookup)
        return UINT64_MAX;
    return env->ops->lookup(env->state, lpn);
}

/* ------------------------------------------------------------------ consistency */

int ssdsim_check(const ssdsim *sim, char *why, size_t len)
{
    char buf[400] = "";
    if (!sim) {
        if (why && len)
            snprintf(why, len, "ssdsim_check: sim is NULL");
        return SSDSIM_EINVAL;
    }
    /* The check starts shadows (DFTL's translation pages, RAID content tags) on first use. */
    int rc = ssdsim__sys_check((struct ssdsim__sys *)&sim->sys, buf, sizeof buf);
    if (why && len)
        snprintf(why, len, "%s", rc ? buf : "");
    return rc;
}

int ssdsim_set_check_period(ssdsim *sim, uint64_t n_events)
{
    if (!sim)
        return SSDSIM_EINVAL;
    sim->check_period = n_events;
    sim->check_due = sim->engine.n_executed + n_events;
    if (n_events)
        ssdsim__sys_check_start(&sim->sys);
    return 0;
}

uint64_t ssdsim_checks_done(const ssdsim *sim)
{
    return sim ? sim->n_checks : 0;
}

/* ------------------------------------------------------------------ per-job results */

size_t ssdsim_n_jobs(const ssdsim *sim)
{
    return sim ? sim->host.n_units : 0;
}

static int get_job_full(const ssdsim *sim, size_t i, ssdsim_job_info *out)
{
    if (!sim || !out || i >= sim->host.n_units)
        return !out ? ssdsim__fail(sim, SSDSIM_EINVAL, "ssdsim_get_job: no output")
                    : ssdsim__fail(sim, SSDSIM_EINVAL,
                                   "ssdsim_get_job: job %zu does not exist (the last run had %u)",
                                   i, sim ? sim->host.n_units : 0);
    const struct ssdsim__unit *u = &sim->host.units[i];
    memset(out, 0, sizeof *out);
    out->name = u->name;
    out->group = u->group;
    out->first_clone = u->first_clone;
    out->n_clones = u->n_clones;
    out->start_ns = u->start_ns;
    out->end_ns = u->end_ns;
    out->ramp_ns = u->ramp_ns;
    out->ss_set = u->ss != 0;
    out->ss_attained = u->ss_attained;
    out->ss_value = u->ss_value;
    out->ss_preconditioned = u->ss_attained && u->ss_precond;
    out->ss_why = u->ss_attained && !u->ss_precond ? u->ss_why : "";
    if (u->replay) {
        out->replay = 1;
        out->replay_iodepth = u->replay_depth;
        out->time_scale = u->time_scale;
        out->wrap = sim->host.wrap;
        out->wrapped_requests = u->wrapped;
        out->last_arrival_ns = u->last_arrival_ns;
    }
    return 0;
}

/* The caller's struct may be of an older, smaller layout: write `size` bytes of it at most. */
int ssdsim_get_job_sized(const ssdsim *sim, size_t i, ssdsim_job_info *out, size_t size)
{
    ssdsim_job_info full;
    memset(&full, 0, sizeof full);
    int rc = get_job_full(sim, i, out ? &full : NULL);
    return ssdsim__result_give(out, size, &full, sizeof full, rc, false);
}

/* The 1.0 layout, for callers that bypass the macro (ctypes, function pointers). */
int (ssdsim_get_job)(const ssdsim *sim, size_t i, ssdsim_job_info *out)
{
    return ssdsim_get_job_sized(sim, i, out, SSDSIM__JOB_INFO_SIZE_1);
}

static int get_job_op_stats_full(const ssdsim *sim, size_t i, enum ssdsim_op op,
                                 ssdsim_op_stats *out)
{
    if (!sim || !out || i >= sim->host.n_units || (unsigned)op > SSDSIM_OP_ALL)
        return !out ? ssdsim__fail(sim, SSDSIM_EINVAL, "ssdsim_get_job_op_stats: no output")
               : (unsigned)op > SSDSIM_OP_ALL
                   ? ssdsim__fail(sim, SSDSIM_EINVAL,
                                  "ssdsim_get_job_op_stats: op %d is not an ssdsim_op", (int)op)
                   : ssdsim__fail(sim, SSDSIM_EINVAL,
                                  "ssdsim_get_job_op_stats: job %zu does not exist (the last run "
                                  "had %u)",
                                  i, sim ? sim->host.n_units : 0);
    const struct ssdsim__unit *u = &sim->host.units[i];
    struct ssdsim__hist all;
    const struct ssdsim__hist *hist;
    uint64_t bytes;
    if (op == SSDSIM_OP_ALL) {
        ssdsim__hist_reset(&all);
        bytes = 0;
        for (int k = 0; k < 3; k++) {
            ssdsim__hist_merge(&all, &u->hist[k]);
            bytes += u->bytes[k];
        }
        hist = &all;
    } else {
        hist = &u->hist[op];
        bytes = u->bytes[op];
    }
    uint64_t start = u->start_ns + u->ramp_ns;
    uint64_t dur = u->end_ns > start ? u->end_ns - start : 0;
    ssdsim__op_stats_fill(out, hist, bytes, dur);
    return 0;
}

/* The caller's struct may be of an older, smaller layout: write `size` bytes of it at most. */
int ssdsim_get_job_op_stats_sized(const ssdsim *sim, size_t i, enum ssdsim_op op,
                                  ssdsim_op_stats *out, size_t size)
{
    ssdsim_op_stats full;
    memset(&full, 0, sizeof full);
    int rc = get_job_op_stats_full(sim, i, op, out ? &full : NULL);
    return ssdsim__result_give(out, size, &full, sizeof full, rc, false);
}

/* The 1.0 layout, for callers that bypass the macro (ctypes, function pointers). */
int (ssdsim_get_job_op_stats)(const ssdsim *sim, size_t i, enum ssdsim_op op, ssdsim_op_stats *out)
{
    return ssdsim_get_job_op_stats_sized(sim, i, op, out, SSDSIM__OP_STATS_SIZE_1);
}
