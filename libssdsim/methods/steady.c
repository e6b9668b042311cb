/* steady.c: bringing a drive to a workload's steady state (ssdsim_reach_steady) and settling
 * after fast preconditioning (ssdsim_settle).
 *
 * Fast preconditioning installs the state a long run leaves, with the planes' frontiers at
 * random points of their blocks as a long run's drift leaves them (ftl/page_install.c), so the
 * planes do not call for garbage collection in lockstep: generic-mlc at 16T/16Q swings 9,600 to
 * 11,100 IOPS in 2 s intervals right after it, as at the end of a 1,500 s timed run (9,700 to
 * 11,100); before the frontiers were dephased, 8,600 to 11,700. What it cannot install is the
 * level at which garbage collection holds the free blocks: functional GC collects each plane up
 * to its target before the next write, a timed run's foreground GC runs beside a saturating
 * host and holds the planes near the reserve, so the first second or so after installing runs
 * faster (960 PRO at 16T/16Q: about a block per plane of host writes more). Settling writes a
 * tenth of a drive write of the same workload (SSDSIM_SETTLE_DRIVE_WRITES) before measuring;
 * that is far more than the free blocks need, and was sized for the lockstep the install used
 * to leave.
 */
#include "common.h"

#include <math.h>

#include "abi.h"
#include "methods/methods.h"
#include "sim.h"

static int settle(ssdsim *sim, const ssdsim_workload *wl, double dw, double *written)
{
    if (written)
        *written = 0;
    if (dw <= 0 || ssdsim__methods_write_share(wl) <= 0)
        return 0;
    ssdsim_device_stats d;
    ssdsim_get_device_stats(sim, &d);
    struct ssdsim__methods_len len = {.io_size_bytes =
                                          ssdsim__methods_io_size(wl, dw, d.logical_bytes)};
    int rc = ssdsim__methods_run(sim, wl, &len, NULL);
    if (rc == 0 && written)
        *written = dw;
    return rc;
}

int ssdsim_settle(ssdsim *sim, const ssdsim_workload *wl, double drive_writes, double *written)
{
    SSDSIM__CHECK_HANDLE(sim, SSDSIM__MAGIC_SIM, "ssdsim");
    if (written)
        *written = 0;
    if (!sim || !wl)
        return ssdsim__fail(sim, SSDSIM_EINVAL, "ssdsim_settle: sim and wl are needed");
    if (!(drive_writes >= 0) || !isfinite(drive_writes))
        return ssdsim__fail(sim, SSDSIM_EINVAL,
                            "ssdsim_settle: drive_writes must be a finite number >= 0, got %g",
                            drive_writes);
    return settle(sim, wl, drive_writes, written);
}

void ssdsim__curve_opts_resolve(ssdsim_curve_opts *o)
{
    if (!o->rounds_per_drive_write)
        o->rounds_per_drive_write = 20;
    if (!(o->max_drive_writes > 0))
        o->max_drive_writes = 10;
    if (o->settle_drive_writes == 0)
        o->settle_drive_writes = SSDSIM_SETTLE_DRIVE_WRITES;
}

/* `o` resolved. */
static int reach_steady(ssdsim *sim, const ssdsim_workload *wl, const ssdsim_curve_opts *o,
                        ssdsim_steady_method *how)
{
    if (sim->model->kind == SSDSIM__KIND_HDD) {
        *how = SSDSIM_STEADY_BY_NOTHING;
        return 0;
    }
    int rc = ssdsim_secure_erase(sim);
    if (rc)
        return rc;
    rc = ssdsim_precondition_fast(sim, wl, NULL);
    if (rc == 0) {
        *how = SSDSIM_STEADY_BY_FAST;
        return settle(sim, wl, o->settle_drive_writes, NULL);
    }
    if (rc != SSDSIM_ENOTFOUND)
        return rc;
    /* The FTL cannot install a state: write the drive to steady state the long way. */
    *how = SSDSIM_STEADY_BY_RUN;
    rc = ssdsim_secure_erase(sim);
    if (rc)
        return rc;
    ssdsim_curve_summary sum;
    return ssdsim__curve_runs(sim, wl, o, 1.0, NULL, &sum);
}

int ssdsim_reach_steady(ssdsim *sim, const ssdsim_workload *wl, const ssdsim_curve_opts *opts,
                        ssdsim_steady_method *how)
{
    SSDSIM__CHECK_HANDLE(sim, SSDSIM__MAGIC_SIM, "ssdsim");
    ssdsim_steady_method h = SSDSIM_STEADY_BY_NOTHING;
    if (how)
        *how = h;
    if (!sim || !wl)
        return ssdsim__fail(sim, SSDSIM_EINVAL, "ssdsim_reach_steady: sim and wl are needed");
    ssdsim_curve_opts o;
    char why[256];
    if (ssdsim__curve_opts_read(&o, opts, why, sizeof why))
        return ssdsim__fail(sim, SSDSIM_EINVAL, "ssdsim_reach_steady: %s", why);
    ssdsim__curve_opts_resolve(&o);
    int rc = reach_steady(sim, wl, &o, &h);
    if (how)
        *how = h;
    return rc;
}
