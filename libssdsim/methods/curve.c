/* curve.c: preconditioning curves (ssdsim_curve_run): a workload run from a secure-erased drive
 * until its IOPS are steady, its time series kept as rows (IOPS, latencies, WAF, free blocks
 * per round of host writes), with the burst, the cliff and the steady figures read from them.
 *
 * Two runs, because during the burst the IOPS are flat too and a rule applied from the start
 * would call the burst steady: the first, of fixed length, covers the burst and the GC cliff
 * (1 + op drive writes fill every block; half a drive write more); the second stops once the
 * IOPS of the last drive write are steady (least-squares line across it within 3% of its mean,
 * spread within 20%), or at max_drive_writes. A large model's curve runs on a scaled copy
 * (ssdsim_model_scaled_copy) whose times are multiplied by the capacity ratio; the drive itself
 * is then given the state the copy reached (ssdsim__precondition_from_copy, else
 * ssdsim_reach_steady) and settled.
 */
#include "common.h"

#include <glib.h>
#include <math.h>
#include <string.h>

#include "abi.h"
#include "methods/methods.h"
#include "sim.h"

struct ssdsim_curve {
    GArray *rows; /* ssdsim_curve_row */
    ssdsim_curve_summary sum;
};

/* Totals of a run, to carry the cumulative columns across the two runs of a curve. */
struct run_base {
    double t_ns;
    uint64_t host_bytes, host_pages, flash_pages;
};

/* Append the intervals of the last run to `rows`, shifted by `base`. The last interval is left
 * out when it holds less than 90% of an interval's bytes: it is the tail of the run, where the
 * queues drain, and its rate says nothing of the drive. */
static void take_intervals(ssdsim *sim, GArray *rows, const struct run_base *base,
                           uint64_t interval_bytes, double logical, double time_scale,
                           uint64_t n_blocks, bool skip_first)
{
    size_t n = ssdsim_n_intervals(sim);
    uint64_t prev_bytes = 0, prev_t = 0;
    for (size_t i = 0; i < n; i++) {
        ssdsim_interval v;
        if (ssdsim_get_interval(sim, i, &v))
            break;
        uint64_t bytes = v.host_bytes_written - prev_bytes;
        uint64_t dur = v.t_ns - prev_t;
        prev_bytes = v.host_bytes_written;
        prev_t = v.t_ns;
        if (i + 1 == n && (double)bytes < 0.9 * (double)interval_bytes)
            break;
        if (i == 0 && skip_first)
            continue; /* the queues fill again: not the drive's rate either */
        ssdsim_curve_row x;
        x.t_copy_s = (base->t_ns + (double)v.t_ns) / 1e9;
        x.t_s = x.t_copy_s * time_scale;
        x.drive_writes = (double)(base->host_bytes + v.host_bytes_written) / logical;
        x.iops = v.iops;
        x.lat_mean_us = v.lat_ns_mean / 1e3;
        x.lat_max_us = (double)v.lat_ns_max / 1e3;
        x.lat_stddev_us = v.lat_ns_stddev / 1e3;
        x.lat_p99_us = (double)v.lat_ns_p99 / 1e3;
        x.waf = v.waf;
        uint64_t host = base->host_pages + v.host_pages_written;
        x.waf_cumulative =
            host ? (double)(base->flash_pages + v.flash_pages_programmed) / (double)host : NAN;
        x.free_blocks_pct = n_blocks ? 100.0 * (double)v.free_blocks / (double)n_blocks : NAN;
        x.n_ios = (double)v.n_ios;
        x.duration_s = (double)dur / 1e9;
        g_array_append_val(rows, x);
    }
}

static void add_run_totals(ssdsim *sim, struct run_base *base)
{
    ssdsim_op_stats w;
    ssdsim_device_stats d;
    ssdsim_get_op_stats(sim, SSDSIM_OP_WRITE, &w);
    ssdsim_get_device_stats(sim, &d);
    base->t_ns += (double)ssdsim_sim_time_ns(sim);
    base->host_bytes += w.bytes;
    base->host_pages += d.host_pages_written;
    base->flash_pages += d.flash_pages_programmed;
}

int ssdsim__curve_runs(ssdsim *sim, const ssdsim_workload *wl, const ssdsim_curve_opts *o,
                       double time_scale, void *rows_v, ssdsim_curve_summary *c)
{
    GArray *rows = rows_v;
    ssdsim_device_stats d0;
    ssdsim_get_device_stats(sim, &d0);
    uint32_t n_planes, ppb, page;
    uint64_t n_blocks, lpages;
    ssdsim_device_shape(sim, &n_planes, &n_blocks, &ppb, &page, &lpages);
    double logical = (double)d0.logical_bytes;
    uint32_t rounds = o->rounds_per_drive_write;
    uint64_t interval_bytes = (uint64_t)(logical / rounds);
    if (ssdsim__methods_write_share(wl) <= 0)
        return ssdsim__fail(sim, SSDSIM_ECONFIG,
                            "a preconditioning curve needs a workload that writes");
    if (interval_bytes < page)
        return ssdsim__fail(sim, SSDSIM_EINVAL,
                            "rounds_per_drive_write %u: a round of the drive's %.0f logical bytes "
                            "would be shorter than a page (%u bytes)",
                            rounds, logical, page);
    double max_dw = o->max_drive_writes;
    double a_dw = 1 + d0.op + 0.5;
    if (a_dw > max_dw)
        a_dw = max_dw;
    c->min_drive_writes = a_dw;
    c->max_drive_writes = max_dw;
    c->rounds_per_drive_write = rounds;
    struct run_base base = {0};
    for (int phase = 0; phase < 2; phase++) {
        double dw = phase == 0 ? a_dw : max_dw - (double)base.host_bytes / logical;
        if (dw <= 0.01)
            break;
        struct ssdsim__methods_len len = {.io_size_bytes =
                                              ssdsim__methods_io_size(wl, dw, d0.logical_bytes)};
        ssdsim_run_opts ro = {.interval_bytes = interval_bytes};
        if (phase == 1) {
            ro.until_steady = 1;
            ro.steady_var = SSDSIM_STEADY_IOPS;
            ro.steady.window = rounds;
            ro.steady.max_excursion = 0.20;
            ro.steady.max_slope_excursion = 0.03;
            ro.max_rounds = (uint32_t)ceil(dw * rounds) + 1;
        }
        int rc = ssdsim__methods_run(sim, wl, &len, &ro);
        if (rc)
            return rc;
        size_t before = rows ? rows->len : 0;
        if (rows)
            take_intervals(sim, rows, &base, interval_bytes, logical, time_scale, n_blocks,
                           phase == 1);
        if (phase == 1) {
            ssdsim_steady_result st;
            c->steady = ssdsim_get_steady(sim, &st) == 0 && st.steady;
            /* The second run's first interval was left out: its round k is row k - 1. */
            if (rows && c->steady && st.round >= 1 && before + st.round - 1 < rows->len) {
                const ssdsim_curve_row *x =
                    &g_array_index(rows, ssdsim_curve_row, before + st.round - 1);
                c->steady_drive_writes = x->drive_writes;
                c->steady_t_s = x->t_s;
            }
        }
        add_run_totals(sim, &base);
    }
    if (!c->steady || !rows) {
        c->steady_drive_writes = (double)base.host_bytes / logical;
        c->steady_t_s = base.t_ns / 1e9 * time_scale;
    }
    return 0;
}

/* Steady figures: the last drive write of the curve up to the steady point; the burst: the
 * first tenth of a drive write; the cliff: the first round below 90% of the burst. */
static void curve_figures(GArray *iv, ssdsim_curve_summary *c)
{
    uint32_t rounds = c->rounds_per_drive_write;
    c->cliff_t_s = NAN;
    if (iv->len == 0)
        return;
    size_t end = iv->len;
    for (size_t i = 0; i < iv->len; i++) {
        if (g_array_index(iv, ssdsim_curve_row, i).drive_writes >= c->steady_drive_writes - 1e-9) {
            end = i + 1;
            break;
        }
    }
    size_t start = end > rounds ? end - rounds : 0;
    /* Rates from the rounds' own counts and lengths: the two rounds left out around the join of
     * the two runs are then simply not counted. */
    double ios = 0, lat = 0, t = 0, mx = 0;
    for (size_t i = start; i < end; i++) {
        const ssdsim_curve_row *x = &g_array_index(iv, ssdsim_curve_row, i);
        ios += x->n_ios;
        t += x->duration_s;
        lat += x->n_ios * x->lat_mean_us;
        if (x->lat_max_us > mx)
            mx = x->lat_max_us;
    }
    c->steady_iops = t > 0 ? ios / t : NAN;
    c->steady_lat_mean_us = ios > 0 ? lat / ios : NAN;
    c->steady_lat_max_us = mx;
    /* WAF of the window: the mean of the rounds' WAFs weighted equally (every round writes the
     * same bytes). */
    double waf = 0;
    size_t n_waf = 0;
    for (size_t i = start; i < end; i++) {
        double v = g_array_index(iv, ssdsim_curve_row, i).waf;
        if (isfinite(v))
            waf += v, n_waf++;
    }
    c->steady_waf = n_waf ? waf / (double)n_waf : NAN;
    double b_ios = 0, b_t = 0;
    for (size_t i = 0; i < iv->len; i++) {
        const ssdsim_curve_row *x = &g_array_index(iv, ssdsim_curve_row, i);
        if (i > 0 && x->drive_writes > 0.1 + 1e-9)
            break;
        b_ios += x->n_ios;
        b_t += x->duration_s;
    }
    c->burst_iops = b_t > 0 ? b_ios / b_t : NAN;
    for (size_t i = 0; i < iv->len; i++) {
        const ssdsim_curve_row *x = &g_array_index(iv, ssdsim_curve_row, i);
        if (x->iops < 0.9 * c->burst_iops) {
            c->cliff_t_s = x->t_s;
            break;
        }
    }
}

int ssdsim_curve_run(ssdsim_curve **out, ssdsim *sim, ssdsim *copy, const ssdsim_workload *wl,
                     const ssdsim_curve_opts *opts)
{
    SSDSIM__CHECK_HANDLE(sim, SSDSIM__MAGIC_SIM, "ssdsim");
    if (out)
        *out = NULL;
    if (!out || !sim || !wl)
        return ssdsim__fail(sim, SSDSIM_EINVAL, "ssdsim_curve_run: out, sim and wl are needed");
    ssdsim_curve_opts o;
    char why[256];
    if (ssdsim__curve_opts_read(&o, opts, why, sizeof why) ||
        ssdsim__curve_opts_check(&o, why, sizeof why))
        return ssdsim__fail(sim, SSDSIM_EINVAL, "ssdsim_curve_run: %s", why);
    ssdsim__curve_opts_resolve(&o);
    if (ssdsim_model_get_device_kind(sim->model) == SSDSIM_MODEL_HDD ||
        (copy && ssdsim_model_get_device_kind(copy->model) == SSDSIM_MODEL_HDD))
        return ssdsim__fail(sim, SSDSIM_ENOTFOUND,
                            "a hard disk (or an array of them) keeps no state that writes "
                            "change: it has no preconditioning curve");
    if (ssdsim__methods_write_share(wl) <= 0)
        return ssdsim__fail(sim, SSDSIM_ECONFIG,
                            "a preconditioning curve needs a workload that writes");
    struct ssdsim_curve *c = calloc(1, sizeof *c);
    if (!c)
        return ssdsim__fail(sim, SSDSIM_ENOMEM, "out of memory");
    c->rows = g_array_new(FALSE, FALSE, sizeof(ssdsim_curve_row));
    ssdsim *on = copy ? copy : sim;
    c->sum.scaled = copy != NULL;
    int rc = ssdsim_secure_erase(on);
    if (rc == 0) {
        ssdsim_device_stats dm, dc;
        ssdsim_get_device_stats(sim, &dm);
        ssdsim_get_device_stats(on, &dc);
        c->sum.time_scale = (double)dm.logical_bytes / (double)dc.logical_bytes;
        if (copy) {
            uint32_t n_planes, ppb, page;
            uint64_t n_blocks, lpages;
            ssdsim_device_shape(copy, &n_planes, &n_blocks, &ppb, &page, &lpages);
            c->sum.copy_blocks_per_plane = n_planes ? (uint32_t)(n_blocks / n_planes) : 0;
        }
        rc = ssdsim__curve_runs(on, wl, &o, c->sum.time_scale, c->rows, &c->sum);
    }
    if (rc && copy)
        ssdsim__set_errmsg(sim, "the scaled copy: %s", ssdsim_errmsg(copy));
    if (rc == 0) {
        curve_figures(c->rows, &c->sum);
        c->sum.brought_by = SSDSIM_STEADY_BY_RUN;
        /* Then put the drive itself at the steady state of the same workload: the state the
         * copy has just reached, installed as fast preconditioning installs its own copy's
         * (which would run the copy to that state again), then settled; where that cannot be,
         * by ssdsim_reach_steady. */
        if (copy) {
            rc = ssdsim__precondition_from_copy(sim, copy, wl, c->sum.steady_drive_writes,
                                                c->sum.steady_waf, c->sum.steady);
            if (rc == 0) {
                c->sum.brought_by = SSDSIM_STEADY_BY_COPY;
                rc = ssdsim__settle_opts(sim, wl, o.settle_drive_writes);
            } else if (rc == SSDSIM_ENOTFOUND) {
                rc = ssdsim_reach_steady(sim, wl, &o, &c->sum.brought_by);
            }
        }
    }
    if (rc) {
        ssdsim_curve_free(c);
        return rc;
    }
    *out = c;
    return 0;
}

size_t ssdsim_curve_n_rows(const ssdsim_curve *curve)
{
    return curve ? curve->rows->len : 0;
}

int ssdsim_curve_get_row_sized(const ssdsim_curve *curve, size_t i, ssdsim_curve_row *out,
                               size_t size)
{
    if (!curve || !out || i >= curve->rows->len)
        return SSDSIM_EINVAL;
    (void)ssdsim__result_give(out, size, &g_array_index(curve->rows, ssdsim_curve_row, i),
                        sizeof(ssdsim_curve_row), 0, true);
    return 0;
}

int ssdsim_curve_get_summary_sized(const ssdsim_curve *curve, ssdsim_curve_summary *out,
                                   size_t size)
{
    if (!curve || !out)
        return SSDSIM_EINVAL;
    (void)ssdsim__result_give(out, size, &curve->sum, sizeof curve->sum, 0, true);
    return 0;
}

void ssdsim_curve_free(ssdsim_curve *curve)
{
    if (!curve)
        return;
    g_array_unref(curve->rows);
    free(curve);
}

/* The functions themselves, for callers that bypass the header's macros (a function pointer,
 * ctypes): the structs as this library declares them. */
int(ssdsim_curve_get_row)(const ssdsim_curve *curve, size_t i, ssdsim_curve_row *out)
{
    return ssdsim_curve_get_row_sized(curve, i, out, sizeof *out);
}

int(ssdsim_curve_get_summary)(const ssdsim_curve *curve, ssdsim_curve_summary *out)
{
    return ssdsim_curve_get_summary_sized(curve, out, sizeof *out);
}
