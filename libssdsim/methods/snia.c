/* snia.c: the tests of the SNIA Solid State Storage Performance Test Specification, Enterprise
 * (PTS-E) as `ssdsim suite snia` runs them (ssdsim_snia_run, ssdsim/suite.h): which cells, the
 * purge and workload-independent preconditioning (2 sequential fills), rounds until the tracking
 * variable is steady (ssdsim_rounds_run), and the figures of the measurement window.
 *
 * One shortcut, for the IOPS and latency tests, whose rounds would need hundreds of drive writes
 * of simulation: after round 1 on the filled drive, the drive is brought to the steady state of
 * random writes in the block-size mix that round wrote (ssdsim_reach_steady), and the rounds go
 * on from there; round 1 is not judged (doc/suites.md).
 */
#include "common.h"

#include <glib.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "abi.h"
#include "sim.h"
#include "ssdsim/suite.h"

#define N_MIX 7
#define N_BS 8
static const int iops_mix[N_MIX] = {100, 95, 65, 50, 35, 5, 0}; /* percent reads */
static const char *const iops_bs[N_BS] = {"1m", "128k", "64k", "32k", "16k", "8k", "4k", "512"};
static const uint32_t iops_bytes[N_BS] = {1048576, 131072, 65536, 32768, 16384, 8192, 4096, 512};
#define BS_4K 6
#define MIX_W 6 /* 0/100: all writes */
#define IOPS_T 4
#define IOPS_Q 32

#define N_LMIX 3
#define N_LBS 3
static const int lat_mix[N_LMIX] = {100, 65, 0};
static const char *const lat_bs[N_LBS] = {"512", "4k", "8k"};
static const uint32_t lat_bytes[N_LBS] = {512, 4096, 8192};

static const char *const tp_bs[2] = {"1m", "128k"};
static const uint32_t tp_bytes[2] = {1048576, 131072};

int ssdsim_snia_shape(ssdsim_snia_test test, size_t *n_mixes, size_t *n_block_sizes)
{
    size_t m, b;
    switch (test) {
    case SSDSIM_SNIA_IOPS:
        m = N_MIX, b = N_BS;
        break;
    case SSDSIM_SNIA_THROUGHPUT_1024K:
    case SSDSIM_SNIA_THROUGHPUT_128K:
        m = 2, b = 1;
        break;
    case SSDSIM_SNIA_LATENCY:
        m = N_LMIX, b = N_LBS;
        break;
    default:
        return SSDSIM_EINVAL;
    }
    if (n_mixes)
        *n_mixes = m;
    if (n_block_sizes)
        *n_block_sizes = b;
    return 0;
}

int ssdsim_snia_cell(ssdsim_snia_test test, size_t cell, ssdsim_suite_wl *w, int *read_percent,
                     uint32_t *block_bytes)
{
    size_t nm, nb;
    if (!w || ssdsim_snia_shape(test, &nm, &nb) || cell >= nm * nb)
        return SSDSIM_EINVAL;
    ssdsim_suite_wl_init(w, 0);
    size_t m = cell / nb, b = cell % nb;
    int rp;
    if (test == SSDSIM_SNIA_THROUGHPUT_1024K || test == SSDSIM_SNIA_THROUGHPUT_128K) {
        size_t k = test == SSDSIM_SNIA_THROUGHPUT_128K;
        rp = m ? 100 : 0;
        w->rw = m ? "read" : "write";
        w->bs = tp_bs[k];
        w->threads = 1, w->qd = 32;
        if (block_bytes)
            *block_bytes = tp_bytes[k];
    } else {
        bool iops = test == SSDSIM_SNIA_IOPS;
        rp = iops ? iops_mix[m] : lat_mix[m];
        w->rw = rp == 100 ? "randread" : rp == 0 ? "randwrite" : "randrw";
        w->bs = iops ? iops_bs[b] : lat_bs[b];
        w->threads = iops ? IOPS_T : 1;
        w->qd = iops ? IOPS_Q : 1;
        if (block_bytes)
            *block_bytes = iops ? iops_bytes[b] : lat_bytes[b];
    }
    w->rwmixread = rp == 100 || rp == 0 ? -1 : rp;
    if (read_percent)
        *read_percent = rp;
    return 0;
}

struct ssdsim_snia_result {
    ssdsim_snia_summary sum;
    size_t n_cells, n_bs;
    GArray *cells;               /* ssdsim_measurement, round * n_cells + cell */
    GArray *rounds;              /* ssdsim_snia_round */
    GPtrArray *lat;              /* ssdsim_latency_sum *, round * n_cells + cell (latency test) */
    ssdsim_latency_sum **window; /* per cell, over the window (latency test) */
    ssdsim_snia_average *avg;    /* per cell */
};

void ssdsim_snia_free(ssdsim_snia_result *r)
{
    if (!r)
        return;
    if (r->cells)
        g_array_unref(r->cells);
    if (r->rounds)
        g_array_unref(r->rounds);
    if (r->lat)
        g_ptr_array_unref(r->lat);
    if (r->window)
        for (size_t c = 0; c < r->n_cells; c++)
            ssdsim_latency_sum_free(r->window[c]);
    free(r->window);
    free(r->avg);
    free(r);
}

/* The random-write mix by request count of a round (writes[b] requests of size bs[b]), as a
 * fio bssplit; what rounding leaves goes to the most frequent size. */
static void round_bssplit(const uint64_t *writes, const char *const *bs, size_t n, char *out,
                          size_t len)
{
    uint64_t total = 0;
    for (size_t b = 0; b < n; b++)
        total += writes[b];
    GString *g = g_string_new(NULL);
    int left = 100;
    size_t big = 0;
    int pct[N_BS] = {0};
    for (size_t b = 0; b < n; b++) {
        pct[b] = total ? (int)floor(100.0 * (double)writes[b] / (double)total) : 0;
        if (pct[b] == 0 && writes[b])
            pct[b] = 1;
        left -= pct[b];
        if (writes[b] > writes[big])
            big = b;
    }
    pct[big] += left;
    for (size_t b = 0; b < n; b++)
        if (pct[b] > 0)
            g_string_append_printf(g, "%s%s/%d", g->len ? ":" : "", bs[b], pct[b]);
    if (!g->len)
        g_string_append(g, "4k/100");
    snprintf(out, len, "%s", g->str);
    g_string_free(g, TRUE);
}

struct run_ctx {
    ssdsim *sim;
    ssdsim_snia_test test;
    const ssdsim_snia_opts *o;
    ssdsim_snia_result *r;
    ssdsim_snia_round cur;
};

static int on_cell(size_t round, size_t cell, const ssdsim_measurement *m, void *ud)
{
    struct run_ctx *x = ud;
    ssdsim_snia_result *r = x->r;
    if (cell == 0)
        memset(&x->cur, 0, sizeof x->cur);
    g_array_append_vals(r->cells, m, 1);
    x->cur.host_bytes_written += m->host_bytes_written;
    x->cur.host_pages_written += m->host_pages_written;
    x->cur.flash_pages_programmed += m->flash_pages_programmed;
    if (r->lat) {
        ssdsim_latency_sum *h = NULL;
        int rc = ssdsim_latency_sum_new(&h);
        if (rc == 0)
            ssdsim_latency_sum_add_run(h, x->sim, SSDSIM_OP_ALL);
        if (rc)
            return ssdsim__fail(x->sim, rc, "out of memory");
        g_ptr_array_add(r->lat, h);
    }
    return x->o->on_cell ? x->o->on_cell(round, cell, m, x->o->userdata) : 0;
}

/* Workload-dependent preconditioning, fast: after round 1 on the sequentially filled drive,
 * put the drive at the steady state of random writes in the block-size mix that round wrote,
 * which is where the rounds would take it after many drive writes. */
static int precondition_mix(struct run_ctx *x)
{
    ssdsim_snia_result *r = x->r;
    bool iops = x->test == SSDSIM_SNIA_IOPS;
    uint64_t writes[N_BS] = {0};
    for (size_t c = 0; c < r->n_cells; c++)
        writes[c % r->n_bs] += g_array_index(r->cells, ssdsim_measurement, c).n_writes;
    round_bssplit(writes, iops ? iops_bs : lat_bs, r->n_bs, r->sum.bssplit, sizeof r->sum.bssplit);
    ssdsim_suite_wl w = SSDSIM_SUITE_WL_INIT;
    w.rw = "randwrite";
    w.bssplit = r->sum.bssplit;
    w.rwmixread = -1;
    w.threads = IOPS_T;
    w.qd = IOPS_Q;
    ssdsim_workload *wl = NULL;
    ssdsim_error err;
    int rc = ssdsim_suite_wl_workload(&wl, &w, &err);
    if (rc)
        return ssdsim__fail(x->sim, rc, "%s", err.message);
    ssdsim_curve_opts co = SSDSIM_CURVE_OPTS_INIT;
    co.rounds_per_drive_write = x->o->rounds_per_drive_write;
    co.max_drive_writes = x->o->max_drive_writes;
    ssdsim_steady_method how;
    rc = ssdsim_reach_steady(x->sim, wl, &co, &how);
    ssdsim_workload_free(wl);
    if (rc) {
        g_autofree char *why = g_strdup(ssdsim_errmsg(x->sim));
        return ssdsim__fail(x->sim, rc, "steady state of the random-write mix %s: %s",
                            r->sum.bssplit, why);
    }
    if (x->o->on_steady)
        x->o->on_steady(how, r->sum.bssplit, x->o->userdata);
    return 0;
}

static int on_round(size_t k, const double *track, void *ud)
{
    struct run_ctx *x = ud;
    x->cur.track = track[k];
    x->cur.waf = x->cur.host_pages_written
                     ? (double)x->cur.flash_pages_programmed / (double)x->cur.host_pages_written
                     : NAN;
    g_array_append_val(x->r->rounds, x->cur);
    int rc = x->o->on_round ? x->o->on_round(k, track, x->o->userdata) : 0;
    if (rc == 0 && k == 0 && (x->test == SSDSIM_SNIA_IOPS || x->test == SSDSIM_SNIA_LATENCY))
        rc = precondition_mix(x);
    return rc;
}

/* The figures of the measurement window, per cell. */
static int window_figures(ssdsim_snia_result *r)
{
    size_t first = r->sum.first, last = r->sum.last, nw = last - first + 1;
    r->avg = calloc(r->n_cells, sizeof *r->avg);
    if (!r->avg)
        return SSDSIM_ENOMEM;
    for (size_t c = 0; c < r->n_cells; c++) {
        ssdsim_snia_average *a = &r->avg[c];
        double sum = 0, sq = 0, cnt = 0;
        for (size_t k = first; k <= last; k++) {
            const ssdsim_measurement *m =
                &g_array_index(r->cells, ssdsim_measurement, k * r->n_cells + c);
            a->iops += m->iops / (double)nw;
            a->bw_mb_s += m->bw_bytes / 1e6 / (double)nw;
            sum += m->lat_mean_ns * (double)m->n_ios;
            /* each round's second moment, to pool the rounds' spreads and their means' */
            sq += (m->lat_stddev_ns * m->lat_stddev_ns + m->lat_mean_ns * m->lat_mean_ns) *
                  (double)m->n_ios;
            cnt += (double)m->n_ios;
            a->n_ios += m->n_ios;
            a->lat_p99_ns += (double)m->lat_p99_ns / (double)nw;
            a->lat_p99_99_ns += (double)m->lat_p99_99_ns / (double)nw;
            if (m->lat_max_ns > a->lat_max_ns)
                a->lat_max_ns = m->lat_max_ns;
        }
        a->lat_mean_ns = cnt > 0 ? sum / cnt : NAN;
        a->lat_stddev_ns =
            cnt > 0 ? sqrt(fmax(0, sq / cnt - a->lat_mean_ns * a->lat_mean_ns)) : NAN;
    }
    if (!r->lat)
        return 0;
    r->window = calloc(r->n_cells, sizeof *r->window);
    if (!r->window)
        return SSDSIM_ENOMEM;
    for (size_t c = 0; c < r->n_cells; c++) {
        if (ssdsim_latency_sum_new(&r->window[c]))
            return SSDSIM_ENOMEM;
        for (size_t k = first; k <= last; k++)
            ssdsim_latency_sum_merge(r->window[c], r->lat->pdata[k * r->n_cells + c]);
    }
    return 0;
}

static int snia_run(ssdsim_snia_result *r, ssdsim *sim, ssdsim_snia_test test,
                    const ssdsim_snia_opts *o)
{
    size_t nm;
    ssdsim_snia_shape(test, &nm, &r->n_bs);
    r->n_cells = nm * r->n_bs;
    r->sum.test = test;
    r->cells = g_array_new(FALSE, FALSE, sizeof(ssdsim_measurement));
    r->rounds = g_array_new(FALSE, FALSE, sizeof(ssdsim_snia_round));
    if (test == SSDSIM_SNIA_LATENCY)
        r->lat = g_ptr_array_new_with_free_func((GDestroyNotify)ssdsim_latency_sum_free);
    int rc = ssdsim_secure_erase(sim);
    if (rc == 0)
        rc = ssdsim_precondition_seq_fills(sim, 2);
    if (rc) {
        g_autofree char *why = g_strdup(ssdsim_errmsg(sim));
        return ssdsim__fail(sim, rc, "preconditioning: %s", why);
    }
    ssdsim_workload **cells = g_new0(ssdsim_workload *, r->n_cells);
    for (size_t c = 0; c < r->n_cells && rc == 0; c++) {
        ssdsim_suite_wl w;
        ssdsim_error err;
        ssdsim_snia_cell(test, c, &w, NULL, NULL);
        if ((rc = ssdsim_suite_wl_workload(&cells[c], &w, &err)) != 0)
            ssdsim__fail(sim, rc, "%s", err.message);
    }
    struct run_ctx x = {.sim = sim, .test = test, .o = o, .r = r};
    ssdsim_rounds_opts rop = SSDSIM_ROUNDS_OPTS_INIT;
    rop.cell_ns = o->cell_ns;
    rop.gc_cycles = o->gc_cycles ? o->gc_cycles : SSDSIM_SNIA_GC_CYCLES;
    rop.max_rounds = o->max_rounds;
    rop.on_cell = on_cell;
    rop.on_round = on_round;
    rop.userdata = &x;
    if (test == SSDSIM_SNIA_IOPS) {
        /* Round 1 measured the filled drive, not the preconditioned one. */
        rop.unjudged_rounds = 1;
        rop.track_cell = MIX_W * N_BS + BS_4K;
        rop.track_var = SSDSIM_ROUNDS_IOPS;
    } else if (test == SSDSIM_SNIA_LATENCY) {
        rop.unjudged_rounds = 1;
        rop.track_cell = 2 * N_LBS + 1; /* 4K random writes (0/100) */
        rop.track_var = SSDSIM_ROUNDS_LAT_MEAN_US;
    } else {
        rop.track_cell = 0; /* the write cell */
        rop.track_var = SSDSIM_ROUNDS_BW_MB_S;
    }
    if (rc == 0)
        rc = ssdsim_rounds_run(sim, cells, r->n_cells, &rop, &r->sum.steady, &r->sum.n_rounds);
    for (size_t c = 0; c < r->n_cells; c++)
        ssdsim_workload_free(cells[c]);
    g_free(cells);
    if (rc)
        return rc;
    r->sum.last = r->sum.steady.round;
    r->sum.first =
        r->sum.last + 1 >= r->sum.steady.window ? r->sum.last + 1 - r->sum.steady.window : 0;
    rc = window_figures(r);
    return rc ? ssdsim__fail(sim, rc, "out of memory") : 0;
}

int ssdsim_snia_run(ssdsim_snia_result **out, ssdsim *sim, ssdsim_snia_test test,
                    const ssdsim_snia_opts *opts)
{
    SSDSIM__CHECK_HANDLE(sim, SSDSIM__MAGIC_SIM, "ssdsim");
    if (out)
        *out = NULL;
    if (!out || !sim)
        return ssdsim__fail(sim, SSDSIM_EINVAL, "ssdsim_snia_run: out and sim are needed");
    if (ssdsim_snia_shape(test, NULL, NULL))
        return ssdsim__fail(sim, SSDSIM_EINVAL, "ssdsim_snia_run: unknown test %d", (int)test);
    ssdsim_snia_opts o;
    char why[256];
    if (ssdsim__snia_opts_read(&o, opts, why, sizeof why))
        return ssdsim__fail(sim, SSDSIM_EINVAL, "ssdsim_snia_run: %s", why);
    ssdsim_snia_result *r = calloc(1, sizeof *r);
    if (!r)
        return ssdsim__fail(sim, SSDSIM_ENOMEM, "out of memory");
    int rc = snia_run(r, sim, test, &o);
    if (rc) {
        ssdsim_snia_free(r);
        return rc;
    }
    *out = r;
    return 0;
}

int ssdsim_snia_get_summary_sized(const ssdsim_snia_result *r, ssdsim_snia_summary *out,
                                  size_t size)
{
    if (!r || !out)
        return SSDSIM_EINVAL;
    return ssdsim__result_give(out, size, &r->sum, sizeof r->sum, 0, true);
}

int ssdsim_snia_get_cell_sized(const ssdsim_snia_result *r, size_t round, size_t cell,
                               ssdsim_measurement *out, size_t size)
{
    if (!r || !out || round >= r->sum.n_rounds || cell >= r->n_cells)
        return SSDSIM_EINVAL;
    return ssdsim__result_give(
        out, size, &g_array_index(r->cells, ssdsim_measurement, round * r->n_cells + cell),
        sizeof(ssdsim_measurement), 0, true);
}

int ssdsim_snia_get_round_sized(const ssdsim_snia_result *r, size_t round, ssdsim_snia_round *out,
                                size_t size)
{
    if (!r || !out || round >= r->rounds->len)
        return SSDSIM_EINVAL;
    return ssdsim__result_give(out, size, &g_array_index(r->rounds, ssdsim_snia_round, round),
                               sizeof(ssdsim_snia_round), 0, true);
}

int ssdsim_snia_get_average_sized(const ssdsim_snia_result *r, size_t cell,
                                  ssdsim_snia_average *out, size_t size)
{
    if (!r || !out || cell >= r->n_cells)
        return SSDSIM_EINVAL;
    return ssdsim__result_give(out, size, &r->avg[cell], sizeof(ssdsim_snia_average), 0, true);
}

const ssdsim_latency_sum *ssdsim_snia_window_latency(const ssdsim_snia_result *r, size_t cell)
{
    return r && r->window && cell < r->n_cells ? r->window[cell] : NULL;
}

/* The functions themselves, for callers that bypass the header's macros (a function pointer,
 * ctypes): the structs as this library declares them. */
int(ssdsim_snia_get_summary)(const ssdsim_snia_result *r, ssdsim_snia_summary *out)
{
    return ssdsim_snia_get_summary_sized(r, out, sizeof *out);
}

int(ssdsim_snia_get_cell)(const ssdsim_snia_result *r, size_t round, size_t cell,
                          ssdsim_measurement *out)
{
    return ssdsim_snia_get_cell_sized(r, round, cell, out, sizeof *out);
}

int(ssdsim_snia_get_round)(const ssdsim_snia_result *r, size_t round, ssdsim_snia_round *out)
{
    return ssdsim_snia_get_round_sized(r, round, out, sizeof *out);
}

int(ssdsim_snia_get_average)(const ssdsim_snia_result *r, size_t cell, ssdsim_snia_average *out)
{
    return ssdsim_snia_get_average_sized(r, cell, out, sizeof *out);
}
