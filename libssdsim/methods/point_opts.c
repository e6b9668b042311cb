/* point_opts.c: the option struct of a point (ssdsim/point.h): its _init function, reading a
 * caller's struct by its version (as abi.c does for the structs of ssdsim.h), and the seed a
 * point's simulation gets by its seed rule. */
#include "methods/point.h"

#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "abi.h"

/* Layout sizes by version; index 0 unused. Append a size when a version appends fields. The
 * embedded `run` is counted at its own layout of that version (ssdsim_run_opts 1 for point
 * options 1), so that a later, larger ssdsim_run_opts does not make the library read past an
 * older caller's struct: a new ssdsim_run_opts version makes a new version here. */
#define RUN_OPTS_SIZE_1 SSDSIM__END(ssdsim_run_opts, max_rounds)
static const size_t point_opts_sizes[] = {0, offsetof(ssdsim_point_opts, run) + RUN_OPTS_SIZE_1};
/* The ssdsim_run_opts version inside each version of the point options. */
static const unsigned int run_opts_version[] = {0, 1};

int ssdsim_point_opts_init(ssdsim_point_opts *opts, unsigned int version)
{
    _Static_assert(SSDSIM__ARRAY_LEN(point_opts_sizes) == SSDSIM_POINT_OPTS_VERSION + 1,
                   "a size per version");
    _Static_assert(SSDSIM_RUN_OPTS_VERSION == 1,
                   "ssdsim_run_opts has a new version: add a version of ssdsim_point_opts");
    if (!opts || version > SSDSIM_POINT_OPTS_VERSION)
        return SSDSIM_EINVAL;
    unsigned int v = version ? version : SSDSIM_POINT_OPTS_VERSION;
    /* the current layout whole, its padding too (version 0 is this library's) */
    memset(opts, 0, v == SSDSIM_POINT_OPTS_VERSION ? sizeof *opts : point_opts_sizes[v]);
    opts->version = v;
    return ssdsim_run_opts_init(&opts->run, run_opts_version[opts->version]);
}

int ssdsim__point_opts_read(ssdsim_point_opts *dst, const ssdsim_point_opts *src, char *why,
                            size_t len)
{
    int rc = ssdsim__opts_read(dst, sizeof *dst, src, point_opts_sizes, SSDSIM_POINT_OPTS_VERSION,
                               "ssdsim_point_opts", why, len);
    if (rc)
        return rc;
    const char *bad = NULL;
    if ((unsigned)dst->precondition > SSDSIM_PRECONDITION_FAST)
        bad = "precondition is not a ssdsim_precondition_mode";
    else if ((unsigned)dst->seed_rule > SSDSIM_POINT_SEED_DERIVED)
        bad = "seed_rule is not a ssdsim_point_seed_rule";
    else if ((dst->n_set && !dst->set) || (dst->n_vary && !dst->vary))
        bad = "n_set or n_vary is not 0 but its array is NULL";
    if (bad) {
        if (why && len)
            snprintf(why, len, "ssdsim_point_opts: %s", bad);
        return SSDSIM_EINVAL;
    }
    return 0;
}

int ssdsim_point_get_seed(const ssdsim_point_opts *opts, uint64_t *out)
{
    ssdsim_point_opts o;
    if (!opts || !out || ssdsim__point_opts_read(&o, opts, NULL, 0))
        return SSDSIM_EINVAL;
    if (o.seed_rule == SSDSIM_POINT_SEED_GIVEN) {
        *out = o.seed;
        return 0;
    }
    return ssdsim_point_seed(o.seed, o.vary, o.n_vary, out);
}
