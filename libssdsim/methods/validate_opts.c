/* validate_opts.c: the option and point structs of the WAF validation (ssdsim/validate.h): their
 * _init functions, reading a caller's struct by its version (abi.h), the zero defaults, and the
 * checks of every field, each refused with a message naming the field and what was expected.
 */
#include "common.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "abi.h"
#include "methods/validate.h"

/* Layout sizes by version; index 0 unused. Append a size when a version appends fields. */
static const size_t opts_sizes[] = {0, SSDSIM__END(ssdsim_validate_opts, n_batches)};
static const size_t point_sizes[] = {0, SSDSIM__END(ssdsim_validate_point, seed)};

static const char *const section_names[SSDSIM_VALIDATE_N_SECTIONS] = {"uniform", "hotcold",
                                                                      "deviation"};

const char *ssdsim_validate_section_name(ssdsim_validate_section section)
{
    unsigned s = (unsigned)section;
    return s < SSDSIM_VALIDATE_N_SECTIONS ? section_names[s] : NULL;
}

int ssdsim_validate_opts_init(ssdsim_validate_opts *opts, unsigned int version)
{
    if (!opts || version > SSDSIM_VALIDATE_OPTS_VERSION)
        return SSDSIM_EINVAL;
    unsigned int v = version ? version : SSDSIM_VALIDATE_OPTS_VERSION;
    /* the current layout whole, its padding too (version 0 is this library's) */
    memset(opts, 0, v == SSDSIM_VALIDATE_OPTS_VERSION ? sizeof *opts : opts_sizes[v]);
    opts->version = v;
    return 0;
}

int ssdsim_validate_point_init(ssdsim_validate_point *point, unsigned int version)
{
    if (!point || version > SSDSIM_VALIDATE_POINT_VERSION)
        return SSDSIM_EINVAL;
    unsigned int v = version ? version : SSDSIM_VALIDATE_POINT_VERSION;
    /* the current layout whole, its padding too (version 0 is this library's) */
    memset(point, 0, v == SSDSIM_VALIDATE_POINT_VERSION ? sizeof *point : point_sizes[v]);
    point->version = v;
    return 0;
}

#define OPTS_LABEL "ssdsim_validate_opts"

int ssdsim__validate_opts_read(ssdsim_validate_opts *dst, const ssdsim_validate_opts *src,
                               ssdsim_error *err)
{
    char why[256];
    if (ssdsim__opts_read(dst, sizeof *dst, src, opts_sizes, SSDSIM_VALIDATE_OPTS_VERSION,
                          OPTS_LABEL, why, sizeof why))
        return ssdsim__error_set(err, SSDSIM_EINVAL, OPTS_LABEL, "version", "%s", why);
    ssdsim_validate_opts *o = dst;
    if (o->n_blocks == 0)
        o->n_blocks = SSDSIM_VALIDATE_DEFAULT_BLOCKS;
    if (o->warmup_trips == 0)
        o->warmup_trips = SSDSIM_VALIDATE_DEFAULT_WARMUP_TRIPS;
    if (o->n_batches == 0)
        o->n_batches = SSDSIM_VALIDATE_DEFAULT_BATCHES;
    if (o->n_blocks < 64 || o->n_blocks > 1048576)
        return ssdsim__error_set(err, SSDSIM_EINVAL, OPTS_LABEL, "n_blocks",
                                 "expected 64 to 1048576 blocks, got %u", o->n_blocks);
    if (o->seed >= SSDSIM__VALIDATE_SEED_LIMIT)
        return ssdsim__error_set(err, SSDSIM_EINVAL, OPTS_LABEL, "seed",
                                 "expected an integer below 2^53, got %" PRIu64, o->seed);
    if (o->n_batches > SSDSIM_VALIDATE_MAX_BATCHES)
        return ssdsim__error_set(err, SSDSIM_EINVAL, OPTS_LABEL, "n_batches",
                                 "expected 1 to %d batches, got %u", SSDSIM_VALIDATE_MAX_BATCHES,
                                 o->n_batches);
    if ((!o->policies && o->n_policies) || (!o->spare_factors && o->n_spare_factors) ||
        (!o->pages_per_block && o->n_pages_per_block))
        return ssdsim__error_set(err, SSDSIM_EINVAL, OPTS_LABEL, "",
                                 "a list is NULL but its count is not 0");
    char path[48];
    for (size_t i = 0; i < o->n_policies; i++) {
        char name[24];
        double param;
        snprintf(path, sizeof path, "policies[%zu]", i);
        if (!o->policies[i] ||
            !ssdsim__validate_policy_parse(o->policies[i], name, sizeof name, &param))
            return ssdsim__error_set(err, SSDSIM_EINVAL, OPTS_LABEL, path,
                                     "expected greedy, fifo, random, d-choices[:D], windowed[:W] "
                                     "or cost-benefit (D and W from 1 to 1048576), got '%s'",
                                     o->policies[i] ? o->policies[i] : "(null)");
    }
    for (size_t i = 0; i < o->n_spare_factors; i++) {
        double x = o->spare_factors[i];
        snprintf(path, sizeof path, "spare_factors[%zu]", i);
        if (!(x > 0.0 && x < 1.0))
            return ssdsim__error_set(err, SSDSIM_EINVAL, OPTS_LABEL, path,
                                     "expected a spare factor in (0, 1), got %g", x);
    }
    for (size_t i = 0; i < o->n_pages_per_block; i++) {
        uint32_t x = o->pages_per_block[i];
        snprintf(path, sizeof path, "pages_per_block[%zu]", i);
        if (x < 2 || x > 4096)
            return ssdsim__error_set(err, SSDSIM_EINVAL, OPTS_LABEL, path,
                                     "expected 2 to 4096 pages per block, got %u", x);
    }
    return 0;
}

/* Format a refusal of a point into why[len]; returns SSDSIM_EINVAL. */
static int point_bad(char *why, size_t len, const char *fmt, ...) SSDSIM__PRINTF(3, 4);

static int point_bad(char *why, size_t len, const char *fmt, ...)
{
    if (why && len) {
        int n = snprintf(why, len, "ssdsim_validate_point: ");
        va_list ap;
        va_start(ap, fmt);
        if (n >= 0 && (size_t)n < len)
            vsnprintf(why + n, len - (size_t)n, fmt, ap);
        va_end(ap);
    }
    return SSDSIM_EINVAL;
}

int ssdsim__validate_point_read(ssdsim_validate_point *dst, const ssdsim_validate_point *src,
                                char *why, size_t len)
{
    if (!src)
        return point_bad(why, len, "no point (NULL)");
    if (ssdsim__opts_read(dst, sizeof *dst, src, point_sizes, SSDSIM_VALIDATE_POINT_VERSION,
                          "ssdsim_validate_point", why, len))
        return SSDSIM_EINVAL;
    ssdsim_validate_point *p = dst;
    /* The strings are the caller's: terminate them where the struct ends. */
    p->label[sizeof p->label - 1] = 0;
    p->setup[sizeof p->setup - 1] = 0;
    p->policy[sizeof p->policy - 1] = 0;
    if (p->n_planes == 0)
        p->n_planes = 1;
    if (p->free_blocks_min == 0)
        p->free_blocks_min = 1;
    if (p->hot_window == 0.0)
        p->hot_window = 1.0;
    if (!ssdsim_validate_section_name(p->section))
        return point_bad(why, len, "section: expected 0 to %d, got %d",
                         SSDSIM_VALIDATE_N_SECTIONS - 1, (int)p->section);
    if (!p->policy[0] ||
        strspn(p->policy, "abcdefghijklmnopqrstuvwxyz0123456789-") != strlen(p->policy))
        return point_bad(why, len, "policy: expected a GC policy name ([a-z0-9-]+), got '%s'",
                         p->policy);
    if (!(p->spare_factor > 0.0 && p->spare_factor < 1.0))
        return point_bad(why, len, "spare_factor: expected a number in (0, 1), got %g",
                         p->spare_factor);
    if (p->pages_per_block < 2 || p->pages_per_block > 4096)
        return point_bad(why, len, "pages_per_block: expected 2 to 4096, got %u",
                         p->pages_per_block);
    if (p->n_blocks == 0 || p->n_blocks % p->n_planes)
        return point_bad(why, len,
                         "n_blocks: expected a positive multiple of n_planes (%u), got %u",
                         p->n_planes, p->n_blocks);
    if (!(p->param >= 0.0 && p->param <= 1048576.0))
        return point_bad(why, len, "param: expected 0 to 1048576, got %g", p->param);
    if (!(p->hot_window > 0.0 && isfinite(p->hot_window)))
        return point_bad(why, len, "hot_window: expected a positive number, got %g", p->hot_window);
    bool hot = p->hot_write_pct || p->hot_space_pct;
    if (hot && (p->hot_write_pct < 1 || p->hot_write_pct > 99 || p->hot_space_pct < 1 ||
                p->hot_space_pct > 99))
        return point_bad(why, len,
                         "hot_write_pct, hot_space_pct: expected both from 1 to 99 (or both 0), "
                         "got %u and %u",
                         p->hot_write_pct, p->hot_space_pct);
    return 0;
}

int ssdsim__validate_point_write(ssdsim_validate_point *out, const ssdsim_validate_point *full)
{
    unsigned int v = out->version;
    if (v > SSDSIM_VALIDATE_POINT_VERSION)
        return SSDSIM_EINVAL;
    memcpy(out, full, point_sizes[v ? v : 1]);
    out->version = v ? v : 1;
    return 0;
}
