/* point_state.c: what a point's drive goes through between its preconditioning and its
 * measured run (ssdsim/point.h, ssdsim_point_prepare): wear added to every block, the data's
 * retention age, and the faults armed for the run (a power loss, a failing die or plane), as
 * `ssdsim run --wear-pe`, `--age-days`, `--power-loss-at/-after` and `--fail` ask for. */
#include "methods/point.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "abi.h"
#include "sim.h"

static const size_t state_sizes[] = {0, sizeof(ssdsim_point_state)};

int ssdsim_point_prepare(ssdsim *sim, const ssdsim_point_state *st, const char **step)
{
    ssdsim_point_state s;
    char why[160] = "";
    if (step)
        *step = "";
    if (!sim)
        return SSDSIM_EINVAL;
    if (ssdsim__opts_read(&s, sizeof s, st, state_sizes, SSDSIM_POINT_STATE_VERSION,
                          "ssdsim_point_state", why, sizeof why))
        return ssdsim__fail(sim, SSDSIM_EINVAL, "%s", why);
    int rc = 0;
    const char *what = "";
    if (s.wear_pe > 0) {
        what = "wear_pe";
        rc = ssdsim_wear(sim, s.wear_pe);
    }
    if (!rc && s.age_days != 0) {
        what = "age_days";
        ssdsim_reliability_stats rs;
        ssdsim_get_reliability(sim, &rs);
        if (!(s.age_days > 0) || !isfinite(s.age_days))
            rc = ssdsim__fail(sim, SSDSIM_EINVAL, "expected a positive age in days, got %g",
                              s.age_days);
        else if (!rs.on)
            rc = ssdsim__fail(sim, SSDSIM_EINVAL,
                              "needs a model with bit errors (reliability.rber_model is "
                              "\"off\")");
        else
            rc = ssdsim_age(sim, s.age_days * 86400);
    }
    if (!rc && (s.power_loss_ns || s.power_loss_after))
        ssdsim_set_power_loss(sim, s.power_loss_ns, s.power_loss_after);
    if (!rc && s.fail) {
        what = "fail";
        uint64_t at = ssdsim_now(sim) + s.fail_at_ns;
        rc = s.fail_plane == UINT32_MAX
                 ? ssdsim_fail_die(sim, s.fail_channel, s.fail_chip, s.fail_die, at)
                 : ssdsim_fail_plane(sim, s.fail_channel, s.fail_chip, s.fail_die, s.fail_plane,
                                     at);
    }
    if (rc && step)
        *step = what;
    return rc;
}
