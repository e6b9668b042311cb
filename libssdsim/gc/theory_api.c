/* theory_api.c: the public entry points to the analytic GC models (gc/theory.h), so tools and
 * studies that link the library compare against the same numbers `ssdsim validate` uses. */
#include <string.h>

#include "gc/theory.h"
#include "ssdsim/sys/gc.h"

int ssdsim_theory_waf(const char *policy, uint32_t pages_per_block, double spare_factor,
                      double param, double *waf)
{
    if (!policy || !waf)
        return SSDSIM_EINVAL;
    uint32_t b = pages_per_block;
    double sf = spare_factor;
    if (!strcmp(policy, "greedy"))
        return ssdsim__theory_greedy(waf, NULL, b, sf);
    if (!strcmp(policy, "fifo"))
        return ssdsim__theory_fifo(waf, NULL, b, sf);
    if (!strcmp(policy, "random"))
        return ssdsim__theory_random(waf, NULL, b, sf);
    if (!strcmp(policy, "d-choices"))
        return ssdsim__theory_dchoices(waf, NULL, b, sf, param);
    if (!strcmp(policy, "windowed"))
        return ssdsim__theory_windowed(waf, NULL, b, sf, param);
    return SSDSIM_ENOTFOUND;
}

int ssdsim_theory_hotcold_waf(double spare_factor, double f, double h, uint32_t pages_per_block,
                              double *waf, double *hot_spare_share)
{
    double split = 0;
    int rc = ssdsim__theory_hotcold_optimal(waf, &split, spare_factor, f, h, pages_per_block);
    if (rc == 0 && hot_spare_share)
        *hot_spare_share = split;
    return rc;
}
