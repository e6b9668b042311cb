/* validate_run.c: running one point of the WAF validation (ssdsim/validate.h).
 *
 * The device is a generic SLC-like one (timing hardly changes the WAF) with the point's
 * geometry: its planes are channels of one die each, so that every plane is a GC pool of its
 * own. The run fills it sequentially, warms it up with uniform random (or hot/cold) 4 KiB
 * writes for a number of trips (a trip programs every physical page once: the time in which
 * the block population renews itself, whatever the WAF), then measures a further run split into
 * batches. The WAF is programmed / host-written pages over all batches; the batches' spread
 * gives a standard error and the change from the first half to the second a drift (is it
 * steady?).
 */
#include "common.h"

#include <glib.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "abi.h"
#include "methods/validate.h"

/* The 1.0 layout of ssdsim_validate_result, written by the plain (unsized) function. */
#define VALIDATE_RESULT_SIZE_1 SSDSIM__END(ssdsim_validate_result, verdict)

static void fail(ssdsim_validate_result *r, int code, const char *fmt, ...) SSDSIM__PRINTF(3, 4);

static void fail(ssdsim_validate_result *r, int code, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(r->error, sizeof r->error, fmt, ap);
    va_end(ap);
    r->status = code < 0 ? code : SSDSIM_EINVAL;
}

/* The point's device as a model (the point has been read and checked, so the policy name is
 * [a-z0-9-]+ and needs no escaping). */
static char *model_json(const ssdsim_validate_point *p)
{
    GString *s = g_string_new(NULL);
    g_string_append_printf(
        s,
        "{\"name\": \"validate\", \"geometry\": {\"channels\": %u, \"chips_per_channel\": 1, "
        "\"dies_per_chip\": 1, \"planes_per_die\": 1, \"blocks_per_plane\": %u, "
        "\"pages_per_block\": %u, \"page_size\": %u}, "
        "\"flash\": {\"cell\": \"slc\", \"read_us\": 25, \"program_us\": 250, \"erase_us\": 2000, "
        "\"bus_mts\": 200, \"bus_width\": 8}, "
        "\"controller\": {\"cmd_overhead_us\": 4, \"cores\": 4, \"queue_depth\": 256}, "
        "\"host\": {\"link_bw\": \"2000MB/s\", \"cmd_overhead_us\": 2}, "
        "\"ftl\": {\"type\": \"page\", \"op\": %.17g, \"hot_cold\": %s, \"hot_window\": %.17g}, "
        "\"gc\": {\"policy\": \"%s\", \"free_blocks_min\": %u, \"separate\": %s",
        p->n_planes, p->n_blocks / p->n_planes, p->pages_per_block, SSDSIM__VALIDATE_PAGE_BYTES,
        p->spare_factor / (1.0 - p->spare_factor), p->hot_cold ? "true" : "false", p->hot_window,
        p->policy, p->free_blocks_min, p->gc_separate ? "true" : "false");
    if (!strcmp(p->policy, "d-choices"))
        g_string_append_printf(s, ", \"d\": %.0f", p->param);
    else if (!strcmp(p->policy, "windowed"))
        g_string_append_printf(s, ", \"window\": %.0f", p->param);
    g_string_append(s, "}}");
    return g_string_free(s, FALSE);
}

/* Run `n` uniform random (or zoned) 4 KiB writes; 0 or the failure code. */
static int write_run(ssdsim *sim, const ssdsim_validate_point *p, uint64_t n, uint64_t interval_ios,
                     ssdsim_validate_result *r)
{
    char dist[64] = "random";
    if (p->hot_write_pct)
        snprintf(dist, sizeof dist, "zoned:%u/%u:%u/%u", p->hot_write_pct, p->hot_space_pct,
                 100 - p->hot_write_pct, 100 - p->hot_space_pct);
    ssdsim_workload *wl = NULL;
    ssdsim_error err;
    int rc = ssdsim_workload_new(&wl, "validate", &err);
    if (!rc)
        rc = ssdsim_workload_set(wl, "rw", "randwrite", &err);
    if (!rc)
        rc = ssdsim_workload_set_bool(wl, "norandommap", true, &err);
    if (!rc)
        rc = ssdsim_workload_set(wl, "bs", "4k", &err);
    if (!rc)
        rc = ssdsim_workload_set_int(wl, "iodepth", SSDSIM_VALIDATE_IODEPTH, &err);
    if (!rc)
        rc = ssdsim_workload_set_int(wl, "numjobs", 1, &err);
    if (!rc)
        rc = ssdsim_workload_set_int(wl, "number_ios", (int64_t)(n ? n : 1), &err);
    if (!rc)
        rc = ssdsim_workload_set(wl, "random_distribution", dist, &err);
    if (rc) {
        ssdsim_workload_free(wl);
        fail(r, rc, "workload: %s", err.message);
        return rc;
    }
    ssdsim_run_opts opts = SSDSIM_RUN_OPTS_INIT;
    opts.interval_ios = interval_ios;
    rc = ssdsim_run(sim, wl, &opts);
    if (rc)
        fail(r, rc, "%s", ssdsim_errmsg(sim));
    ssdsim_workload_free(wl);
    return rc;
}

/* A trip, in host writes, is the physical pages over the expected WAF. Hot/cold traffic renews
 * its cold data more slowly: a cold page is rewritten every (1 - h) / (1 - f) logical
 * capacities, so the warm-up covers three such periods and each batch a quarter of one. */
void ssdsim__validate_run_sizes(const ssdsim_validate_point *p, const ssdsim_validate_opts *o,
                                uint64_t logical_pages, uint64_t *warm, uint64_t *batch)
{
    double est_waf = ssdsim__validate_expected_waf(p);
    uint64_t trip = (uint64_t)ceil((double)p->n_blocks * p->pages_per_block / est_waf);
    *warm = o->warmup_trips * trip;
    *batch = trip;
    if (p->hot_write_pct) {
        double cold =
            (100.0 - p->hot_space_pct) / (100.0 - p->hot_write_pct) * (double)logical_pages;
        *warm = SSDSIM__MAX(*warm, (uint64_t)ceil(3.0 * cold));
        *batch = SSDSIM__MAX(*batch, (uint64_t)ceil(cold / 4.0));
    }
}

int ssdsim_validate_point_cost(const ssdsim_validate_point *point, const ssdsim_validate_opts *opts,
                               double *flash_pages)
{
    ssdsim_validate_point p;
    ssdsim_validate_opts o;
    if (!flash_pages || ssdsim__validate_point_read(&p, point, NULL, 0) ||
        ssdsim__validate_opts_read(&o, opts, NULL))
        return SSDSIM_EINVAL;
    /* The logical pages before the FTL's reserve: close enough to order the points. */
    uint64_t warm, batch;
    ssdsim__validate_run_sizes(
        &p, &o, (uint64_t)((double)p.n_blocks * p.pages_per_block * (1.0 - p.spare_factor)), &warm,
        &batch);
    *flash_pages = (double)(warm + o.n_batches * batch) * ssdsim__validate_expected_waf(&p);
    return 0;
}

/* Batch means: the standard error of the mean of the batches' WAFs, and the relative change
 * from the first half of the batches to the second. */
static void batch_stats(const double *wafs, uint32_t nb, ssdsim_validate_result *r)
{
    double mean = 0.0, var = 0.0, first = 0.0, second = 0.0;
    for (uint32_t i = 0; i < nb; i++)
        mean += wafs[i] / nb;
    for (uint32_t i = 0; i < nb; i++) {
        var += (wafs[i] - mean) * (wafs[i] - mean) / (nb > 1 ? nb - 1 : 1);
        if (i < nb / 2)
            first += wafs[i] / (nb / 2);
        else if (i >= nb - nb / 2)
            second += wafs[i] / (nb / 2);
    }
    r->waf_stderr = nb > 1 ? sqrt(var / nb) : NAN;
    r->drift_pct = nb > 1 && mean > 0.0 ? 100.0 * (second - first) / mean : NAN;
}

/* Build, fill, warm up and measure; the figures go to *r (r->status stays 0 on success). */
static void point_measure(const ssdsim_validate_point *p, const ssdsim_validate_opts *o,
                          ssdsim_validate_result *r)
{
    ssdsim_model *m = NULL;
    ssdsim *sim = NULL;
    ssdsim_error err;
    char *json = model_json(p);
    int rc = ssdsim_model_load_string(&m, json, "validate", &err);
    g_free(json);
    if (rc) {
        fail(r, rc, "%s", err.message);
        goto out;
    }
    rc = ssdsim_new(&sim, m, p->seed, &err);
    if (rc) {
        fail(r, rc, "%s", err.message);
        goto out;
    }
    uint64_t logical = ssdsim_model_logical_bytes(m) / SSDSIM__VALIDATE_PAGE_BYTES, warm, batch;
    r->logical_pages = logical;
    ssdsim__validate_run_sizes(p, o, logical, &warm, &batch);
    r->warmup_host_pages = warm;
    r->batch_host_pages = batch;
    if ((rc = ssdsim_precondition_seq(sim)) != 0) {
        fail(r, rc, "precondition: %s", ssdsim_errmsg(sim));
        goto out;
    }
    if (write_run(sim, p, warm, 0, r))
        goto out;
    double wafs[SSDSIM_VALIDATE_MAX_BATCHES], free_sum = 0.0;
    uint64_t n_free_samples = 0;
    uint32_t nb = o->n_batches;
    for (uint32_t i = 0; i < nb; i++) {
        if (write_run(sim, p, batch, SSDSIM__MAX(batch / 16, 1), r))
            goto out;
        ssdsim_device_stats d;
        ssdsim_get_device_stats(sim, &d);
        r->host_pages += d.host_pages_written;
        r->flash_pages += d.flash_pages_programmed;
        wafs[i] = d.waf;
        r->spare_factor = d.spare_factor;
        r->op = d.op;
        for (size_t k = 0; k < ssdsim_n_intervals(sim); k++) {
            ssdsim_interval iv;
            if (ssdsim_get_interval(sim, k, &iv) == 0) {
                free_sum += (double)iv.free_blocks;
                n_free_samples++;
            }
        }
    }
    r->waf = r->host_pages ? (double)r->flash_pages / (double)r->host_pages : 0.0;
    r->free_blocks_mean = n_free_samples ? free_sum / (double)n_free_samples : 0.0;
    batch_stats(wafs, nb, r);
out:
    ssdsim_free(sim);
    ssdsim_model_free(m);
}

int ssdsim_validate_point_run_sized(const ssdsim_validate_point *point,
                                    const ssdsim_validate_opts *opts, ssdsim_validate_result *out,
                                    size_t size)
{
    if (!out)
        return SSDSIM_EINVAL;
    ssdsim_validate_point p;
    ssdsim_validate_opts o;
    ssdsim_validate_result r;
    ssdsim_error err;
    memset(&r, 0, sizeof r);
    if (ssdsim__validate_point_read(&p, point, r.error, sizeof r.error)) {
        /* Nothing to measure or to compare with: every figure is absent. */
        r.status = SSDSIM_EINVAL;
        r.spare_factor = r.op = r.waf = r.waf_stderr = r.drift_pct = r.free_blocks_mean = NAN;
        r.unused_blocks = r.spare_factor_eff = r.waf_model = r.diff_pct = NAN;
        r.waf_model_eff = r.diff_eff_pct = r.hot_spare_share = NAN;
        r.waf_reference = r.diff_reference_pct = NAN;
        r.verdict = SSDSIM_VALIDATE_FAILED;
    } else {
        if (ssdsim__validate_opts_read(&o, opts, &err))
            fail(&r, SSDSIM_EINVAL, "%s", err.message);
        else
            point_measure(&p, &o, &r);
        ssdsim__validate_compare(&p, &r);
    }
    (void)ssdsim__result_give(out, size, &r, sizeof r, 0, true);
    return r.status;
}

int(ssdsim_validate_point_run)(const ssdsim_validate_point *point, const ssdsim_validate_opts *opts,
                               ssdsim_validate_result *out)
{
    return ssdsim_validate_point_run_sized(point, opts, out, VALIDATE_RESULT_SIZE_1);
}
