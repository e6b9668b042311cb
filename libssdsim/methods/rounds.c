/* rounds.c: rounds until steady (ssdsim_rounds_run), the procedure of the SNIA Solid State
 * Storage Performance Test Specification: every round measures the same cells (a workload each:
 * a read/write mix at a block size) in turn, one figure of one cell is tracked, and the rounds
 * stop once the tracked values of the last window of rounds (5 in SNIA's rule) are steady by
 * ssdsim_steady_check, or after the most rounds. Rounds before the judged ones (SNIA's IOPS test
 * runs one on the sequentially filled drive, then preconditions with its writes) are run but not
 * judged; the caller changes the drive between rounds through the round callback.
 */
#include "common.h"

#include <glib.h>
#include <stdio.h>
#include <string.h>

#include "abi.h"
#include "methods/methods.h"
#include "sim.h"

#define DEFAULT_MAX_ROUNDS 25

static double tracked(const ssdsim_measurement *m, ssdsim_rounds_var v)
{
    switch (v) {
    case SSDSIM_ROUNDS_BW_MB_S:
        return m->bw_bytes / 1e6;
    case SSDSIM_ROUNDS_LAT_MEAN_US:
        return m->lat_mean_ns / 1e3;
    default:
        return m->iops;
    }
}

/* The rule on the judged values; when no window is steady, the rule's window ending at the last
 * round. `round` counts from the first judged value. */
static void judge(const double *x, size_t n, const ssdsim_steady_opts *rule,
                  ssdsim_steady_result *r)
{
    memset(r, 0, sizeof *r);
    ssdsim_steady_check(x, n, rule, r);
    if (!r->steady) {
        r->window = rule->window ? rule->window : 5;
        r->round = n ? n - 1 : 0;
    }
}

static int rounds_run(ssdsim *sim, ssdsim_workload *const *cells, size_t n_cells,
                      const ssdsim_rounds_opts *o, ssdsim_steady_result *st, size_t *n_run)
{
    ssdsim_measure_opts mo = SSDSIM_MEASURE_OPTS_INIT;
    mo.window_ns = o->cell_ns;
    mo.gc_cycles = o->gc_cycles;
    uint32_t max = o->max_rounds ? o->max_rounds : DEFAULT_MAX_ROUNDS;
    uint32_t skip = o->unjudged_rounds;
    GArray *track = g_array_new(FALSE, FALSE, sizeof(double));
    int rc = 0;
    uint64_t short_after = 0; /* 1 + the last round whose tracked cell held too few requests */
    for (uint32_t k = 0; rc == 0 && k < max + skip; k++) {
        double t = 0;
        for (size_t c = 0; rc == 0 && c < n_cells; c++) {
            ssdsim_measurement m;
            rc = ssdsim_measure(sim, cells[c], &mo, &m);
            if (rc == 0 && c == o->track_cell) {
                t = tracked(&m, o->track_var);
                if (m.too_few)
                    short_after = (uint64_t)k + 1;
            }
            if (rc == 0 && o->on_cell)
                rc = o->on_cell(k, c, &m, o->userdata);
        }
        if (rc)
            break;
        g_array_append_val(track, t);
        *n_run = track->len;
        if (o->on_round)
            rc = o->on_round(k, (const double *)(void *)track->data, o->userdata);
        if (rc || k < skip)
            continue;
        /* A window whose tracked figure rests on too few requests says nothing of a steady
         * state, however flat it looks (a cell that never left its start-up is flat): only
         * the rounds after the last such one are judged, so that a later window can still be
         * found steady. */
        size_t from = short_after > skip ? (size_t)short_after : skip;
        judge((const double *)(void *)track->data + from, track->len - from, &o->steady, st);
        st->round += from;
        if (!st->steady && from > skip)
            snprintf(st->why_not, sizeof st->why_not,
                     "round %llu's tracked cell held too few requests even at its longest "
                     "window; of the %llu rounds after it none ends a steady window",
                     (unsigned long long)short_after,
                     (unsigned long long)(track->len - from));
        if (st->steady)
            break;
    }
    g_array_unref(track);
    return rc;
}

static int rounds_run_body(ssdsim *sim, ssdsim_workload *const *cells, size_t n_cells,
                           const ssdsim_rounds_opts *opts, ssdsim_steady_result *verdict,
                           size_t size, size_t *n_rounds)
{
    SSDSIM__CHECK_HANDLE(sim, SSDSIM__MAGIC_SIM, "ssdsim");
    if (verdict && size)
        memset(verdict, 0, size);
    if (n_rounds)
        *n_rounds = 0;
    if (!sim || !cells || !n_cells || !verdict)
        return ssdsim__fail(sim, SSDSIM_EINVAL,
                            "ssdsim_rounds_run: sim, cells (at least one) and verdict are needed");
    ssdsim_rounds_opts o;
    char why[256];
    if (ssdsim__rounds_opts_read(&o, opts, why, sizeof why))
        return ssdsim__fail(sim, SSDSIM_EINVAL, "ssdsim_rounds_run: %s", why);
    if (o.track_cell >= n_cells)
        return ssdsim__fail(sim, SSDSIM_EINVAL,
                            "ssdsim_rounds_run: track_cell %zu, but there are %zu cells",
                            o.track_cell, n_cells);
    for (size_t c = 0; c < n_cells; c++)
        if (!cells[c])
            return ssdsim__fail(sim, SSDSIM_EINVAL, "ssdsim_rounds_run: cell %zu is NULL", c);
    ssdsim_steady_result st;
    memset(&st, 0, sizeof st);
    /* the rule is checked before anything runs (ssdsim_run does the same with its own) */
    if (ssdsim_steady_check(NULL, 0, &o.steady, &st))
        return ssdsim__fail(sim, SSDSIM_EINVAL, "ssdsim_rounds_run: steady: %s", st.why_not);
    size_t n = 0;
    int rc = rounds_run(sim, cells, n_cells, &o, &st, &n);
    (void)ssdsim__result_give(verdict, size, &st, sizeof st, 0, true);
    if (n_rounds)
        *n_rounds = n;
    return rc;
}

/* Bracketed (ssdsim__call_enter): a callback's ssdsim_free waits until this returns. */
int ssdsim_rounds_run_sized(ssdsim *sim, ssdsim_workload *const *cells, size_t n_cells,
                            const ssdsim_rounds_opts *opts, ssdsim_steady_result *verdict,
                            size_t size, size_t *n_rounds)
{
    if (!sim || sim->magic != SSDSIM__MAGIC_SIM)
        return rounds_run_body(sim, cells, n_cells, opts, verdict, size, n_rounds);
    ssdsim__call_enter(sim);
    return ssdsim__call_leave(sim,
                              rounds_run_body(sim, cells, n_cells, opts, verdict, size, n_rounds));
}

/* The functions themselves, for callers that bypass the header's macros (a function pointer,
 * ctypes): the structs as this library declares them. */
int(ssdsim_rounds_run)(ssdsim *sim, ssdsim_workload *const *cells, size_t n_cells,
                       const ssdsim_rounds_opts *opts, ssdsim_steady_result *verdict,
                       size_t *n_rounds)
{
    return ssdsim_rounds_run_sized(sim, cells, n_cells, opts, verdict, sizeof *verdict, n_rounds);
}
