/* eol_accel.c: the error of the endurance suite's acceleration (ssdsim/suite.h,
 * ssdsim_eol_accel_check; issue 16, item 7). The suite wears a drive at once (ssdsim_wear: every
 * block the same count, no write simulated) after one sequential fill by fast-forward; a real
 * drive gets there by years of writes, which leave uneven erase counts, retention ages that
 * differ by block, and the data layout of its workload. Here a drive is worn by timed runs of a
 * write workload, chunk by chunk, and measured when its mean erase count reaches each point;
 * beside it, a fresh drive is filled and worn at once to the same mean count and measured with
 * the same workload. The caller compares the figures (WAF, mean RBER, UBER).
 */
#include "common.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "abi.h"
#include "methods/methods.h"
#include "ssdsim/suite.h"

#define MAX_POINTS 64
#define MAX_CHUNKS 100000

static const size_t accel_opts_sizes[] = {0, sizeof(ssdsim_eol_accel_opts)};

struct fig {
    double mean_pe, waf, rber, uber;
    uint64_t uncorrectable;
};

/* Run `wl` on `sim` and take the figures. */
static int measure(ssdsim *sim, const ssdsim_workload *wl, struct fig *f, ssdsim_error *err,
                   const char *what)
{
    int rc = ssdsim_run(sim, wl, NULL);
    if (rc)
        return ssdsim__error_set(err, rc, NULL, NULL, "ssdsim_eol_accel_check: %s: %s", what,
                                 ssdsim_errmsg(sim));
    ssdsim_device_stats d;
    ssdsim_reliability_stats r;
    ssdsim_get_device_stats(sim, &d);
    ssdsim_get_reliability(sim, &r);
    f->mean_pe = d.erase_count_mean;
    f->waf = d.waf;
    f->rber = r.rber_mean;
    f->uber = r.uber;
    f->uncorrectable = r.uncorrectable;
    return 0;
}

static double mean_pe(const ssdsim *sim)
{
    ssdsim_device_stats d;
    ssdsim_get_device_stats(sim, &d);
    return d.erase_count_mean;
}

static int new_filled(ssdsim **sim, const ssdsim_model *m, uint64_t seed, ssdsim_error *err)
{
    int rc = ssdsim_new(sim, m, seed, err);
    if (rc)
        return rc;
    rc = ssdsim_precondition_seq(*sim);
    if (rc) {
        ssdsim__error_set(err, rc, NULL, NULL, "ssdsim_eol_accel_check: fill: %s",
                          ssdsim_errmsg(*sim));
        ssdsim_free(*sim);
        *sim = NULL;
    }
    return rc;
}

int ssdsim_eol_accel_check_sized(const ssdsim_model *model, uint64_t seed,
                                 const ssdsim_eol_accel_opts *opts, ssdsim_eol_accel_point *out,
                                 size_t size, ssdsim_error *err)
{
    ssdsim_eol_accel_opts o;
    char why[160] = "";
    if (!model || !opts || !out || size == 0)
        return ssdsim__error_set(err, SSDSIM_EINVAL, NULL, NULL,
                                 "ssdsim_eol_accel_check: NULL model, options or result");
    if (ssdsim__opts_read(&o, sizeof o, opts, accel_opts_sizes, SSDSIM_EOL_ACCEL_OPTS_VERSION,
                          "ssdsim_eol_accel_opts", why, sizeof why))
        return ssdsim__error_set(err, SSDSIM_EINVAL, NULL, NULL, "%s", why);
    if (!o.pe || o.n_pe == 0 || o.n_pe > MAX_POINTS)
        return ssdsim__error_set(err, SSDSIM_EINVAL, NULL, NULL,
                                 "ssdsim_eol_accel_opts.n_pe: expected 1 to %d points, got %zu",
                                 MAX_POINTS, o.pe ? o.n_pe : 0);
    for (size_t i = 0; i < o.n_pe; i++)
        if (o.pe[i] == 0 || o.pe[i] > 1000000 || (i && o.pe[i] <= o.pe[i - 1]))
            return ssdsim__error_set(err, SSDSIM_EINVAL, NULL, NULL,
                                     "ssdsim_eol_accel_opts.pe[%zu]: expected rising P/E "
                                     "cycles from 1 to 1000000, got %u",
                                     i, o.pe[i]);
    if (!o.measure)
        return ssdsim__error_set(err, SSDSIM_EINVAL, NULL, NULL,
                                 "ssdsim_eol_accel_opts.measure: expected a workload, got NULL");
    if (o.chunk_drive_writes == 0)
        o.chunk_drive_writes = 0.5;
    if (!(o.chunk_drive_writes > 0) || !(o.chunk_drive_writes <= 100))
        return ssdsim__error_set(err, SSDSIM_EINVAL, NULL, NULL,
                                 "ssdsim_eol_accel_opts.chunk_drive_writes: expected above 0 "
                                 "and at most 100, got %g",
                                 o.chunk_drive_writes);
    char cur[32];
    if (ssdsim_model_get_string(model, "reliability.rber_model", cur, sizeof cur, NULL) ||
        !strcmp(cur, "off"))
        return ssdsim__error_set(err, SSDSIM_EINVAL, NULL, "reliability.rber_model",
                                 "the acceleration check needs bit errors modelled (not "
                                 "\"off\")");

    ssdsim_workload *own = NULL;
    const ssdsim_workload *wear = o.wear;
    if (!wear) {
        int rc = ssdsim_workload_load_string(
            &own, "{\"rw\":\"randwrite\",\"bs\":\"4k\",\"iodepth\":32,\"number_ios\":1}",
            "timed wear", err);
        if (rc)
            return rc;
        wear = own;
    }
    if (ssdsim__methods_write_share(wear) <= 0) {
        ssdsim_workload_free(own);
        return ssdsim__error_set(err, SSDSIM_EINVAL, NULL, NULL,
                                 "ssdsim_eol_accel_opts.wear: expected a workload that writes");
    }

    ssdsim *timed = NULL, *acc = NULL;
    int rc = new_filled(&timed, model, seed, err);
    ssdsim_device_stats d;
    if (!rc)
        ssdsim_get_device_stats(timed, &d);
    struct ssdsim__methods_len len = {0};
    if (!rc)
        len.io_size_bytes = ssdsim__methods_io_size(wear, o.chunk_drive_writes, d.logical_bytes);
    double written = 0;
    for (size_t i = 0; !rc && i < o.n_pe; i++) {
        for (uint32_t c = 0; !rc && mean_pe(timed) < o.pe[i]; c++) {
            if (c == MAX_CHUNKS) {
                rc = ssdsim__error_set(err, SSDSIM_ERANGE, NULL, NULL,
                                       "ssdsim_eol_accel_check: %u P/E cycles not reached after "
                                       "%d runs of the wear workload",
                                       o.pe[i], MAX_CHUNKS);
                break;
            }
            rc = ssdsim__methods_run(timed, wear, &len, NULL);
            if (rc)
                ssdsim__error_set(err, rc, NULL, NULL, "ssdsim_eol_accel_check: timed wear: %s",
                                  ssdsim_errmsg(timed));
            written += o.chunk_drive_writes;
        }
        struct fig ft, fa;
        if (!rc)
            rc = measure(timed, o.measure, &ft, err, "timed drive");
        if (!rc)
            rc = new_filled(&acc, model, seed, err);
        uint32_t add = 0;
        if (!rc) {
            double base = mean_pe(acc);
            double want = ft.mean_pe - base;
            add = want > 0 ? (uint32_t)lround(want) : 0;
            if (add)
                rc = ssdsim_wear(acc, add);
            if (rc)
                ssdsim__error_set(err, rc, NULL, NULL, "ssdsim_eol_accel_check: wear: %s",
                                  ssdsim_errmsg(acc));
        }
        if (!rc)
            rc = measure(acc, o.measure, &fa, err, "accelerated drive");
        ssdsim_free(acc);
        acc = NULL;
        if (rc)
            break;
        ssdsim_eol_accel_point p;
        memset(&p, 0, sizeof p);
        p.pe_timed = ft.mean_pe;
        p.drive_writes_timed = written;
        p.pe_accel = add;
        p.pe_accel_mean = fa.mean_pe;
        p.waf_timed = ft.waf;
        p.waf_accel = fa.waf;
        p.rber_timed = ft.rber;
        p.rber_accel = fa.rber;
        p.uber_timed = ft.uber;
        p.uber_accel = fa.uber;
        p.uncorrectable_timed = ft.uncorrectable;
        p.uncorrectable_accel = fa.uncorrectable;
        ssdsim__result_give((char *)out + i * size, size, &p, sizeof p, 0, false);
    }
    ssdsim_free(timed);
    ssdsim_workload_free(own);
    return rc;
}
