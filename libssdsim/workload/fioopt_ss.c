/* fioopt_ss.c: the setter of fio's steady-state stop (steadystate, alias ss): the criterion and
 * its limit. The window and the ramp before it (ss_dur, ss_ramp) are plain time rows of the
 * option table (fioopt.c); jobspec.c checks that ss comes with ss_dur, and the host
 * (host/host.c) stops the job when the criterion holds.
 */
#include "workload/fioopt_int.h"

#include <string.h>

/* The limit after "CRITERION:": a percentage of the window's mean ("0.1%"), a size in fio's
 * syntax for a bandwidth criterion ("10m", bytes per second), else a decimal number (IOPS). */
static bool ss_limit(const char *lim, bool bw, double *x, bool *pct)
{
    size_t len = strlen(lim);
    ssdsim__fio_trim(&lim, &len);
    *pct = len > 0 && lim[len - 1] == '%';
    if (*pct)
        return ssdsim__fio_decimal_ok(lim, len - 1, x);
    if (!bw)
        return ssdsim__fio_decimal_ok(lim, len, x);
    uint64_t b = 0;
    char part[SSDSIM__FIO_PART_MAX];
    bool ok = ssdsim__fio_copy_part(part, lim, len) && ssdsim__fio_uint_ok(part, &b);
    *x = (double)b;
    return ok;
}

/* ss (steadystate)=CRITERION:LIMIT: iops, iops_slope, bw or bw_slope; the limit is a percentage
 * of the window's mean ("0.1%"), or a number: IOPS for the iops criteria, bytes per second in
 * fio's size syntax for the bw ones (fio's str_steadystate_cb). fio requires the limit. */
int ssdsim__fio_opt_ss(const struct ssdsim__fio_optdef *o, struct ssdsim__jobspec *job,
                       const char *value, char *errbuf, size_t errlen)
{
    (void)o;
    static const struct {
        const char *name;
        enum ssdsim__ss ss;
        bool bw;
    } crit[] = {
        {"iops", SSDSIM__SS_IOPS, false},
        {"iops_slope", SSDSIM__SS_IOPS_SLOPE, false},
        {"bw", SSDSIM__SS_BW, true},
        {"bw_slope", SSDSIM__SS_BW_SLOPE, true},
    };
    struct ssdsim__fio_named nv;
    int rc = ssdsim__fio_split_named(value, &nv, errbuf, errlen);
    if (rc)
        return rc;
    for (size_t i = 0; i < SSDSIM__ARRAY_LEN(crit); i++) {
        if (!ssdsim__fio_word_is(nv.text, nv.name_len, crit[i].name))
            continue;
        if (!nv.param || !*nv.param)
            return ssdsim__fio_fail(
                errbuf, errlen, "the steady-state criterion needs a limit, as in %s:1%%, got '%s'",
                crit[i].name, nv.q.text);
        double x = 0;
        bool pct = false;
        if (!ss_limit(nv.param, crit[i].bw, &x, &pct))
            return ssdsim__fio_fail(errbuf, errlen,
                                    "expected a limit like %s:1%% or %s:%s after ':', got '%s'",
                                    crit[i].name, crit[i].name, crit[i].bw ? "10m" : "100",
                                    nv.q.text);
        job->ss = crit[i].ss;
        job->ss_limit = x;
        job->ss_limit_percent = pct;
        return 0;
    }
    return ssdsim__fio_fail(errbuf, errlen,
                            "expected iops, iops_slope, bw or bw_slope with a limit, got '%s'",
                            nv.q.text);
}
