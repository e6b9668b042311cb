/* calibrate.c: calibration of a model against the vendor figures of its `spec` block
 * (ssdsim_calibrate_figure, ssdsim_calibrate_model): each figure gets a new simulation (same
 * model, same seed), brought into the figure's state, and its workload measured as a point of
 * the suites is (ssdsim_measure).
 *
 * States: fresh as built; full after one sequential fill (128 KiB writes at QD32 over the whole
 * capacity); steady, for uniform random writes, fast preconditioning with the figure's own
 * workload, settled until GC holds its free blocks (ssdsim_settle_adaptive); when the model cannot
 * install a state (a hard disk, media written in place) or the workload is not random writes,
 * one sequential fill, and the state says so.
 *
 * The first window is sized from the figure's own value (an expected request rate, never a
 * result): long enough for twice the requests ssdsim_measure asks for at the vendor's rate, and
 * for its ramp to fill the model's write buffer or disk cache four times over, and, for a write
 * figure past the fresh state, for the blocks per plane of host writes ssdsim_measure asks for
 * (at the 64 times longer window it may stretch to at most, a window sized without them fell
 * short on large drives: the P320h's 4 KiB random writes ran 4.5 s, half the 20 blocks per
 * plane, and its figure swung 8% with 3 us of tRCBSY on lone reads). Its value only
 * sets how long the run is, so a model far from the figure is measured as long as it needs.
 */
#include "common.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "abi.h"
#include "config/model.h"
#include "methods/methods.h"
#include "sim.h"
#include "workload/workload.h"

#define DEFAULT_TOLERANCE 0.10
/* Requests the first window is sized for, at the vendor's rate (ssdsim_measure asks for at
 * least 5000 and 20 per outstanding request; twice that avoids most re-runs). */
#define WINDOW_IOS 10000.0
#define WINDOW_PER_SLOT 40.0
/* Bounds of the first window, simulated seconds. */
#define WINDOW_MIN_S 0.005
#define WINDOW_MAX_S 120.0
/* The ramp (a tenth of the window) fills the buffer this many times at the vendor's rate. */
#define BUFFER_FILLS 4.0

static bool is_latency(const ssdsim_spec_figure *f)
{
    return strstr(f->metric, "_lat_us") != NULL;
}

static bool is_read(const ssdsim_spec_figure *f)
{
    return !strncmp(f->metric, "read_", 5);
}

/* Requests per second the figure stands for, at the vendor's value. */
static double spec_rate(const ssdsim_spec_figure *f)
{
    if (is_latency(f))
        return (double)f->iodepth * f->numjobs / (f->value * 1e-6);
    if (strstr(f->metric, "_mbps"))
        return f->value * 1e6 / f->bs;
    return f->value;
}

/* Bytes of write buffer (a solid-state device) or disk cache (a hard disk) in the whole model:
 * a system's is its member's times the devices. */
static double buffer_bytes(const struct ssdsim_model *m)
{
    if (m->kind == SSDSIM__KIND_SYSTEM)
        return m->system.member ? buffer_bytes(m->system.member) * m->system.count : 0;
    return m->kind == SSDSIM__KIND_HDD ? (double)m->hdd.cache_bytes : (double)m->buffer.size;
}

/* Host bytes a window of a writing figure must hold for ssdsim_measure_opts.gc_cycles blocks per
 * plane of host writes on every device (0 without, or for a hard disk). */
static double gc_window_bytes(const ssdsim *sim, uint32_t gc_cycles)
{
    uint32_t planes = 0, ppb = 0, page = 0;
    if (!gc_cycles || !sim->sys.devs[0].ssd ||
        ssdsim_device_shape(sim, &planes, NULL, &ppb, &page, NULL))
        return 0;
    return (double)gc_cycles * planes * ppb * page * sim->sys.n_devs;
}

/* The first window, ns (see the top of the file). */
static uint64_t first_window_ns(const ssdsim_spec_figure *f, double buffer, double gc_bytes)
{
    double rate = spec_rate(f);
    double slots = (double)f->iodepth * f->numjobs;
    double ios = fmax(WINDOW_IOS, WINDOW_PER_SLOT * slots);
    double s = ios / rate;
    if (!is_read(f) && buffer > 0)
        s = fmax(s, 10.0 * BUFFER_FILLS * buffer / (rate * f->bs));
    if (!is_read(f))
        s = fmax(s, gc_bytes / (rate * f->bs));
    s = fmin(fmax(s, WINDOW_MIN_S), WINDOW_MAX_S);
    return (uint64_t)(s * 1e9);
}

/* Append a sentence to a note, after a full stop. */
static void add_note(char *note, size_t len, const char *fmt, ...) SSDSIM__PRINTF(3, 4);
static void add_note(char *note, size_t len, const char *fmt, ...)
{
    size_t n = strlen(note);
    if (n && n + 2 < len) {
        strcpy(note + n, note[n - 1] == '.' ? " " : ". ");
        n = strlen(note);
    }
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(note + n, len - n, fmt, ap);
    va_end(ap);
}

const char *ssdsim_spec_figure_unit(const ssdsim_spec_figure *f)
{
    if (!f || !f->metric)
        return NULL;
    return is_latency(f) ? "us" : strstr(f->metric, "_mbps") ? "MB/s" : "IOPS";
}

double ssdsim_calibrate_figure_cost(const ssdsim_spec_figure *f)
{
    if (!f || !f->metric || !f->state)
        return -1;
    if (!strcmp(f->state, "fresh"))
        return 0;
    return is_read(f) ? 1 : !strcmp(f->state, "steady") ? 3 : 2;
}

int ssdsim_model_spec_find(const ssdsim_model *model, const char *sel, size_t *index)
{
    if (!model || !sel || !index)
        return SSDSIM_EINVAL;
    size_t n = ssdsim_model_spec_count(model);
    for (size_t i = 0; i < n; i++) {
        ssdsim_spec_figure f;
        if (ssdsim_model_spec_get(model, i, &f) == 0 && !strcmp(f.name, sel)) {
            *index = i;
            return 0;
        }
    }
    if (*sel < '0' || *sel > '9')
        return SSDSIM_ENOTFOUND;
    char *end;
    errno = 0;
    unsigned long long k = strtoull(sel, &end, 10);
    if (errno || *end || k < 1 || k > n)
        return SSDSIM_ENOTFOUND;
    *index = (size_t)(k - 1);
    return 0;
}

int ssdsim_spec_figure_workload(ssdsim_workload **out, const ssdsim_spec_figure *f,
                                ssdsim_error *err)
{
    if (out)
        *out = NULL;
    if (!out || !f || !f->rw)
        return ssdsim__error_set(err, SSDSIM_EINVAL, NULL, NULL,
                                 "ssdsim_spec_figure_workload: out and a figure are needed");
    ssdsim_workload *wl = NULL;
    int rc = ssdsim_workload_new(&wl, f->name, err);
    if (rc == 0)
        rc = ssdsim_workload_set(wl, "rw", f->rw, err);
    if (rc == 0)
        rc = ssdsim_workload_set_int(wl, "bs", f->bs, err);
    if (rc == 0)
        rc = ssdsim_workload_set_int(wl, "numjobs", f->numjobs, err);
    if (rc == 0)
        rc = ssdsim_workload_set_int(wl, "iodepth", f->iodepth, err);
    if (rc == 0 && !strncmp(f->rw, "rand", 4))
        rc = ssdsim_workload_set_bool(wl, "norandommap", true, err);
    if (rc) {
        ssdsim_workload_free(wl);
        return rc;
    }
    *out = wl;
    return 0;
}

/* Bring a new simulation into the figure's state, written into r->state; notes into r->note.
 * 0 or a code with the message in ssdsim_errmsg(sim). */
static int bring_to_state(ssdsim *sim, const ssdsim_workload *wl, const ssdsim_spec_figure *f,
                          ssdsim_calibration *r, const char **step)
{
    if (!strcmp(f->state, "fresh")) {
        r->state = SSDSIM_DRIVE_FRESH;
        return 0;
    }
    bool random_writes = !strcmp(f->rw, "randwrite");
    if (!strcmp(f->state, "steady") && random_writes) {
        *step = "fast preconditioning: ";
        int rc = ssdsim_precondition_fast(sim, wl, NULL);
        if (rc == 0) {
            r->state = SSDSIM_DRIVE_STEADY;
            return ssdsim_settle_adaptive(sim, wl, SSDSIM_SETTLE_DRIVE_WRITES, NULL);
        }
        if (rc != SSDSIM_ENOTFOUND && rc != SSDSIM_ECONFIG)
            return rc;
        /* A hard disk, or media written in place, has no state to install: their steady
         * state is that of a written device. */
        add_note(r->note, sizeof r->note,
                 "No fast preconditioning (%s): a sequential fill instead.", ssdsim_errmsg(sim));
        r->state = SSDSIM_DRIVE_STEADY_SEQ_FILL;
    } else if (!strcmp(f->state, "steady")) {
        r->state = SSDSIM_DRIVE_STEADY_SEQ_FILL;
    } else {
        r->state = SSDSIM_DRIVE_FULL;
    }
    *step = "sequential fill: ";
    return ssdsim_precondition_seq(sim);
}

static int calibrate(const ssdsim_model *model, size_t i, uint64_t seed,
                     const ssdsim_calibrate_opts *o, ssdsim_calibration *r, ssdsim_error *err)
{
    const ssdsim_spec_figure *f = &r->spec;
    r->figure = i;
    ssdsim_workload *wl = NULL;
    int rc = ssdsim_spec_figure_workload(&wl, f, err);
    if (rc)
        return rc;
    ssdsim *sim = NULL;
    rc = ssdsim_new(&sim, model, seed, err);
    if (rc) {
        ssdsim_workload_free(wl);
        return rc;
    }
    ssdsim_set_progress(sim, o->progress, o->progress_userdata);
    const char *what = "";
    /* A workload the device cannot hold (a block larger than it) is refused before the drive is
     * brought into the figure's state, which may take a fill of the whole drive. */
    char why[512];
    if (ssdsim__workload_check(wl, sim->sys.volume_bytes, why, sizeof why)) {
        ssdsim__error_set(err, SSDSIM_ECONFIG, model->label, NULL, "spec.figures[%zu] '%s': %s", i,
                          f->name, why);
        if (err)
            snprintf(err->path, sizeof err->path, "spec.figures[%zu]", i);
        ssdsim_free(sim);
        ssdsim_workload_free(wl);
        return SSDSIM_ECONFIG;
    }
    rc = bring_to_state(sim, wl, f, r, &what);
    if (rc == 0) {
        what = "";
        ssdsim_measure_opts mo = SSDSIM_MEASURE_OPTS_INIT;
        mo.gc_cycles = r->gc_cycles = !is_read(f) && strcmp(f->state, "fresh") ? SSDSIM__GC_CYCLES : 0;
        mo.window_ns = r->first_window_ns =
            first_window_ns(f, buffer_bytes(model), gc_window_bytes(sim, mo.gc_cycles));
        rc = ssdsim_measure(sim, wl, &mo, &r->measurement);
    }
    if (rc == 0) {
        const ssdsim_measurement *g = &r->measurement;
        bool rd = is_read(f);
        if (is_latency(f))
            r->simulated = (rd ? g->read_lat_mean_ns : g->write_lat_mean_ns) / 1e3;
        else if (strstr(f->metric, "_mbps"))
            r->simulated = g->bw_bytes / 1e6;
        else
            r->simulated = rd ? g->read_iops : g->write_iops;
        r->ratio = r->simulated / f->value;
        double tol = o->tolerance > 0 ? o->tolerance : DEFAULT_TOLERANCE;
        r->bound = ssdsim_model_spec_bound(model, i);
        r->fitted = ssdsim_model_spec_fitted(model, i);
        if (r->bound && strcmp(r->bound, "upper") == 0)
            r->within_tolerance = r->ratio <= 1.0 + tol + 1e-12;
        else if (r->bound && strcmp(r->bound, "lower") == 0)
            r->within_tolerance = r->ratio >= 1.0 - tol - 1e-12;
        else
            r->within_tolerance = fabs(r->ratio - 1.0) <= tol + 1e-12;
        ssdsim_device_stats d;
        ssdsim_get_device_stats(sim, &d);
        r->unmapped_reads = d.unmapped_reads;
        if (g->short_of_gc)
            add_note(r->note, sizeof r->note,
                     "Short of its GC periods: even at its longest, the window held fewer than "
                     "%" PRIu32 " blocks per plane of host writes, so the figure may carry the "
                     "phase of garbage collection it fell in.",
                     r->gc_cycles);
        if (rd && d.unmapped_reads > 0)
            add_note(r->note, sizeof r->note,
                     "%" PRIu64 " reads of never-written data answered without flash.",
                     d.unmapped_reads);
    } else {
        /* the workload is labelled with the figure's name (ssdsim_spec_figure_workload), which
         * the message gives already */
        const char *msg = ssdsim_errmsg(sim);
        size_t n = strlen(f->name);
        if (!strncmp(msg, f->name, n) && !strncmp(msg + n, ": ", 2))
            msg += n + 2;
        ssdsim__error_set(err, rc, model->label, NULL, "spec.figures[%zu] '%s': %s%s", i, f->name,
                          what, msg);
        if (err)
            snprintf(err->path, sizeof err->path, "spec.figures[%zu]", i);
    }
    ssdsim_free(sim);
    ssdsim_workload_free(wl);
    return rc;
}

int ssdsim_calibrate_figure_sized(const ssdsim_model *model, size_t i, uint64_t seed,
                                  const ssdsim_calibrate_opts *opts, ssdsim_calibration *out,
                                  size_t size, ssdsim_error *err)
{
    SSDSIM__CHECK_HANDLE(model, SSDSIM__MAGIC_MODEL, "ssdsim_model");
    if (out && size)
        memset(out, 0, size);
    if (!model || !out || i >= ssdsim_model_spec_count(model))
        return ssdsim__error_set(
            err, SSDSIM_EINVAL, model ? model->label : NULL, NULL, "ssdsim_calibrate_figure: %s",
            !model || !out ? "model and out are needed" : "no spec figure of that number");
    ssdsim_calibrate_opts o;
    char why[256];
    if (ssdsim__calibrate_opts_read(&o, opts, why, sizeof why))
        return ssdsim__error_set(err, SSDSIM_EINVAL, model->label, NULL,
                                 "ssdsim_calibrate_figure: %s", why);
    if (!(o.tolerance >= 0 && o.tolerance <= 10))
        return ssdsim__error_set(err, SSDSIM_EINVAL, model->label, NULL,
                                 "ssdsim_calibrate_figure: tolerance: expected 0 (0.10) or a share "
                                 "of the spec value up to 10, got %g",
                                 o.tolerance);
    ssdsim_calibration r;
    memset(&r, 0, sizeof r);
    ssdsim_model_spec_get(model, i, &r.spec);
    int rc = calibrate(model, i, seed, &o, &r, err);
    (void)ssdsim__result_give(out, size, &r, sizeof r, 0, true);
    return rc;
}

int ssdsim_calibrate_model_sized(const ssdsim_model *model, uint64_t seed,
                                 const ssdsim_calibrate_opts *opts, ssdsim_calibration *out,
                                 size_t cap, size_t size, ssdsim_error *err)
{
    SSDSIM__CHECK_HANDLE(model, SSDSIM__MAGIC_MODEL, "ssdsim_model");
    if (!model || !out || size == 0)
        return ssdsim__error_set(err, SSDSIM_EINVAL, NULL, NULL,
                                 "ssdsim_calibrate_model: model and out are needed");
    size_t n = ssdsim_model_spec_count(model);
    if (n == 0)
        return ssdsim__error_set(err, SSDSIM_ENOTFOUND, model->label, "spec",
                                 "the model has no spec figures to calibrate against");
    if (cap < n)
        return ssdsim__error_set(err, SSDSIM_ERANGE, model->label, "spec",
                                 "%zu spec figures do not fit in %zu results", n, cap);
    for (size_t i = 0; i < n; i++) {
        int rc = ssdsim_calibrate_figure_sized(
            model, i, seed, opts, (ssdsim_calibration *)((char *)out + i * size), size, err);
        if (rc)
            return rc;
    }
    return 0;
}

/* The functions themselves, for callers that bypass the header's macros (a function pointer,
 * ctypes): the structs as this library declares them. */
int(ssdsim_calibrate_figure)(const ssdsim_model *model, size_t i, uint64_t seed,
                             const ssdsim_calibrate_opts *opts, ssdsim_calibration *out,
                             ssdsim_error *err)
{
    return ssdsim_calibrate_figure_sized(model, i, seed, opts, out, sizeof *out, err);
}

int(ssdsim_calibrate_model)(const ssdsim_model *model, uint64_t seed,
                            const ssdsim_calibrate_opts *opts, ssdsim_calibration *out, size_t cap,
                            ssdsim_error *err)
{
    return ssdsim_calibrate_model_sized(model, seed, opts, out, cap, sizeof *out, err);
}
