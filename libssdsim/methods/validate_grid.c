/* validate_grid.c: the point grids of the WAF validation (ssdsim/validate.h), as data the caller
 * enumerates by index: the uniform section (policies x pages per block x spare factors), the
 * hot/cold section (traffic x FTL set-up x spare factor, then the hot window) and the deviations
 * (one broken assumption each, greedy at b = 64), each with a quick variant. A point's label
 * names what it is and, with the base seed, gives its seed, so that a point's result depends
 * neither on the rest of the grid nor on the order in which points run.
 *
 * Points are computed from their index (no grid is stored), so a grid of thousands of points
 * costs nothing until it is enumerated.
 */
#include "common.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "methods/validate.h"

/* ------------------------------------------------------------------------------------------ */
/* Policy specs                                                                                */

static const char *const known_policies[] = {"greedy",    "fifo",     "random",
                                             "d-choices", "windowed", "cost-benefit"};

bool ssdsim__validate_policy_parse(const char *spec, char *name, size_t len, double *param)
{
    const char *colon = strchr(spec, ':');
    size_t n = colon ? (size_t)(colon - spec) : strlen(spec);
    bool ok = false, takes_param = false;
    for (size_t i = 0; i < SSDSIM__ARRAY_LEN(known_policies); i++) {
        if (strlen(known_policies[i]) == n && !strncmp(spec, known_policies[i], n)) {
            ok = true;
            takes_param =
                !strcmp(known_policies[i], "d-choices") || !strcmp(known_policies[i], "windowed");
        }
    }
    if (!ok || n >= len)
        return false;
    unsigned long long x = 0;
    if (colon) {
        /* An integer in decimal digits only: no sign, space or suffix. */
        const char *v = colon + 1;
        char *end;
        if (!takes_param || *v < '0' || *v > '9')
            return false;
        errno = 0;
        x = strtoull(v, &end, 10);
        if (errno || *end || x < 1 || x > 1048576)
            return false;
    }
    memcpy(name, spec, n);
    name[n] = 0;
    *param = (double)x;
    return true;
}

int ssdsim_validate_policy_label(const char *policy, double param, char *buf, size_t len)
{
    if (!policy || (!buf && len))
        return SSDSIM_EINVAL;
    if (!strcmp(policy, "d-choices"))
        return snprintf(buf, len, "d-choices d=%g", param);
    if (!strcmp(policy, "windowed"))
        return snprintf(buf, len, "windowed w=%g", param);
    return snprintf(buf, len, "%s", policy);
}

/* ------------------------------------------------------------------------------------------ */
/* Seeds and the base point                                                                    */

#define FNV_OFFSET UINT64_C(0xcbf29ce484222325)
#define FNV_PRIME UINT64_C(0x100000001b3)

/* FNV-1a over the base seed's bytes, then the label's. */
static uint64_t point_seed(uint64_t base, const char *label)
{
    uint64_t h = FNV_OFFSET;
    for (int i = 0; i < 8; i++) {
        h ^= (base >> (8 * i)) & 0xff;
        h *= FNV_PRIME;
    }
    for (const char *s = label; *s; s++) {
        h ^= (unsigned char)*s;
        h *= FNV_PRIME;
    }
    return h % SSDSIM__VALIDATE_SEED_LIMIT;
}

/* A point with the defaults of the models' setting: one plane, the smallest free-block reserve
 * the configuration takes (the FTL raises it to what keeps GC able to run: the reserve it holds
 * back for GC copies, plus one), one write frontier. */
static void base_point(ssdsim_validate_point *p, ssdsim_validate_section sec, const char *policy,
                       uint32_t ppb, double sf, uint32_t blocks)
{
    memset(p, 0, sizeof *p);
    p->version = SSDSIM_VALIDATE_POINT_VERSION;
    p->section = sec;
    snprintf(p->policy, sizeof p->policy, "%s", policy);
    p->pages_per_block = ppb;
    p->spare_factor = sf;
    p->n_blocks = blocks;
    p->n_planes = 1;
    p->free_blocks_min = 1;
    p->hot_window = 1.0;
}

/* ------------------------------------------------------------------------------------------ */
/* The uniform section                                                                         */

static const char *const uniform_full[] = {"greedy",       "fifo",     "random",      "d-choices:2",
                                           "d-choices:10", "windowed", "cost-benefit"};
static const char *const uniform_quick[] = {"greedy",      "fifo",         "random",
                                            "d-choices:2", "d-choices:10", "windowed"};
static const double sf_full[] = {0.05, 0.1, 0.2, 0.3, 0.5};
static const double sf_quick[] = {0.2};
static const uint32_t ppb_full[] = {32, 64, 128, 256};
static const uint32_t ppb_quick[] = {64};

/* The caller's lists, or the defaults. */
static void uniform_lists(ssdsim_validate_opts *o)
{
    if (!o->spare_factors) {
        o->spare_factors = o->quick ? sf_quick : sf_full;
        o->n_spare_factors = o->quick ? 1 : SSDSIM__ARRAY_LEN(sf_full);
    }
    if (!o->pages_per_block) {
        o->pages_per_block = o->quick ? ppb_quick : ppb_full;
        o->n_pages_per_block = o->quick ? 1 : SSDSIM__ARRAY_LEN(ppb_full);
    }
    if (!o->policies) {
        o->policies = o->quick ? uniform_quick : uniform_full;
        o->n_policies =
            o->quick ? SSDSIM__ARRAY_LEN(uniform_quick) : SSDSIM__ARRAY_LEN(uniform_full);
    }
}

/* The specs the policies expand to: a plain "d-choices" is d = 2 and d = 10. Spec k of the
 * expansion when `k` is not NULL; the number of specs. */
static size_t uniform_specs(const ssdsim_validate_opts *o, size_t k, const char **spec)
{
    size_t n = 0;
    for (size_t i = 0; i < o->n_policies; i++) {
        const char *s = o->policies[i];
        if (!strcmp(s, "d-choices")) {
            if (spec && n == k)
                *spec = "d-choices:2";
            if (spec && n + 1 == k)
                *spec = "d-choices:10";
            n += 2;
        } else {
            if (spec && n == k)
                *spec = s;
            n++;
        }
    }
    return n;
}

static size_t uniform_count(const ssdsim_validate_opts *o)
{
    return uniform_specs(o, 0, NULL) * o->n_pages_per_block * o->n_spare_factors;
}

/* Point i: for each policy, each block size, each spare factor. */
static void uniform_point(const ssdsim_validate_opts *o, size_t i, ssdsim_validate_point *p)
{
    size_t ns = o->n_spare_factors, nb = o->n_pages_per_block;
    const char *spec = "";
    uniform_specs(o, i / (ns * nb), &spec);
    base_point(p, SSDSIM_VALIDATE_UNIFORM, "", o->pages_per_block[i / ns % nb],
               o->spare_factors[i % ns], o->n_blocks);
    bool ok = ssdsim__validate_policy_parse(spec, p->policy, sizeof p->policy, &p->param);
    assert(ok); /* the options were checked */
    (void)ok;
    if (p->param == 0.0 && !strcmp(p->policy, "windowed"))
        p->param = floor(p->n_blocks / p->n_planes / 8.0 + 0.5); /* 1/8 of the plane */
    char pl[48];
    ssdsim_validate_policy_label(p->policy, p->param, pl, sizeof pl);
    snprintf(p->label, sizeof p->label, "uniform %s b=%u sf=%g", pl, p->pages_per_block,
             p->spare_factor);
}

/* ------------------------------------------------------------------------------------------ */
/* Hot/cold: f% of the writes to h% of the space                                               */

/* "separated" is the FTL's hot/cold separation (ftl.hot_cold, two host frontiers; GC copies go
 * back to their own class) with greedy and with cost-benefit; "mixed" is one pool without it. */
static const uint32_t hc_traffic[][2] = {{80, 20}, {90, 10}};
static const double hc_sf[] = {0.1, 0.2, 0.3};
static const struct {
    const char *policy, *setup;
    bool hot_cold;
} hc_variants[] = {
    {"greedy", "separated", true},
    {"cost-benefit", "separated", true},
    {"greedy", "mixed", false},
    {"fifo", "mixed", false},
};
/* How much the choice of ftl.hot_window matters (1.0, the default here, is in the grid above). */
static const double hc_windows[] = {0.25, 0.5, 2.0, 4.0};
#define HC_PPB 64u

static size_t hotcold_main(const ssdsim_validate_opts *o)
{
    return o->quick ? 1
                    : SSDSIM__ARRAY_LEN(hc_traffic) * SSDSIM__ARRAY_LEN(hc_variants) *
                          SSDSIM__ARRAY_LEN(hc_sf);
}

static size_t hotcold_count(const ssdsim_validate_opts *o)
{
    return hotcold_main(o) + (o->quick ? 0 : SSDSIM__ARRAY_LEN(hc_windows));
}

/* Point i: for each traffic, each set-up, each spare factor; then the hot windows at 80/20. */
static void hotcold_point(const ssdsim_validate_opts *o, size_t i, ssdsim_validate_point *p)
{
    size_t n_sf = o->quick ? 1 : SSDSIM__ARRAY_LEN(hc_sf);
    size_t n_var = o->quick ? 1 : SSDSIM__ARRAY_LEN(hc_variants);
    if (i < hotcold_main(o)) {
        size_t s = i % n_sf, k = i / n_sf % n_var, t = i / (n_sf * n_var);
        double sf = o->quick ? 0.2 : hc_sf[s];
        base_point(p, SSDSIM_VALIDATE_HOTCOLD, hc_variants[k].policy, HC_PPB, sf, o->n_blocks);
        p->hot_write_pct = hc_traffic[t][0];
        p->hot_space_pct = hc_traffic[t][1];
        p->hot_cold = hc_variants[k].hot_cold;
        snprintf(p->setup, sizeof p->setup, "%s, %s", hc_variants[k].policy, hc_variants[k].setup);
        snprintf(p->label, sizeof p->label, "hotcold %u/%u %s b=%u sf=%g", p->hot_write_pct,
                 p->hot_space_pct, p->setup, HC_PPB, sf);
        return;
    }
    double w = hc_windows[i - hotcold_main(o)];
    base_point(p, SSDSIM_VALIDATE_HOTCOLD, "greedy", HC_PPB, 0.2, o->n_blocks);
    p->hot_write_pct = 80;
    p->hot_space_pct = 20;
    p->hot_cold = true;
    p->hot_window = w;
    snprintf(p->setup, sizeof p->setup, "greedy, separated, hot_window %g", w);
    snprintf(p->label, sizeof p->label, "hotcold 80/20 %s b=%u sf=0.2", p->setup, HC_PPB);
}

/* ------------------------------------------------------------------------------------------ */
/* Deviations: set-ups that break one assumption each, with greedy at b = 64                   */

static const double dev_sf[] = {0.1, 0.2};
#define DEV_PPB 64u
#define DEV_MAX 8

/* The set-ups at spare factor sf, in table order; returns their number. */
static size_t deviation_list(const ssdsim_validate_opts *o, double sf,
                             ssdsim_validate_point list[DEV_MAX])
{
    uint32_t n = o->n_blocks;
    size_t k = 0;
    base_point(&list[k], SSDSIM_VALIDATE_DEVIATION, "greedy", DEV_PPB, sf, n);
    list[k].gc_separate = true;
    snprintf(list[k++].setup, sizeof list[0].setup, "GC frontier (gc.separate)");
    if (!o->quick) {
        static const uint32_t reserves[] = {16, 64};
        for (size_t i = 0; i < SSDSIM__ARRAY_LEN(reserves); i++) {
            base_point(&list[k], SSDSIM_VALIDATE_DEVIATION, "greedy", DEV_PPB, sf, n);
            list[k].free_blocks_min = reserves[i];
            snprintf(list[k++].setup, sizeof list[0].setup, "reserve %u blocks", reserves[i]);
        }
        static const uint32_t planes[] = {8, 64};
        for (size_t i = 0; i < SSDSIM__ARRAY_LEN(planes); i++) {
            if (n / planes[i] < 16)
                continue; /* too few blocks per plane to mean anything */
            base_point(&list[k], SSDSIM_VALIDATE_DEVIATION, "greedy", DEV_PPB, sf,
                       n / planes[i] * planes[i]);
            list[k].n_planes = planes[i];
            snprintf(list[k++].setup, sizeof list[0].setup, "%u planes x %u blocks", planes[i],
                     n / planes[i]);
        }
        static const uint32_t small[] = {256, 1024};
        for (size_t i = 0; i < SSDSIM__ARRAY_LEN(small); i++) {
            base_point(&list[k], SSDSIM_VALIDATE_DEVIATION, "greedy", DEV_PPB, sf, small[i]);
            snprintf(list[k++].setup, sizeof list[0].setup, "%u blocks", small[i]);
        }
    }
    for (size_t i = 0; i < k; i++)
        snprintf(list[i].label, sizeof list[i].label, "deviation %s %s b=%u sf=%g", list[i].setup,
                 list[i].policy, DEV_PPB, sf);
    return k;
}

static size_t deviation_count(const ssdsim_validate_opts *o)
{
    ssdsim_validate_point list[DEV_MAX];
    return (o->quick ? 1 : SSDSIM__ARRAY_LEN(dev_sf)) * deviation_list(o, 0.2, list);
}

/* Point i: for each spare factor, each set-up. */
static void deviation_point(const ssdsim_validate_opts *o, size_t i, ssdsim_validate_point *p)
{
    ssdsim_validate_point list[DEV_MAX];
    size_t k = deviation_list(o, 0.2, list);
    double sf = o->quick ? 0.2 : dev_sf[i / k];
    deviation_list(o, sf, list);
    *p = list[i % k];
}

/* ------------------------------------------------------------------------------------------ */
/* The public entry points                                                                     */

/* Read the options and count the section's points. */
static int grid_open(ssdsim_validate_section section, const ssdsim_validate_opts *opts,
                     ssdsim_validate_opts *o, size_t *n, ssdsim_error *err)
{
    int rc = ssdsim__validate_opts_read(o, opts, err);
    if (rc)
        return rc;
    uniform_lists(o);
    switch (section) {
    case SSDSIM_VALIDATE_UNIFORM:
        *n = uniform_count(o);
        return 0;
    case SSDSIM_VALIDATE_HOTCOLD:
        *n = hotcold_count(o);
        return 0;
    case SSDSIM_VALIDATE_DEVIATION:
        *n = deviation_count(o);
        return 0;
    }
    return ssdsim__error_set(err, SSDSIM_EINVAL, "", "section",
                             "expected SSDSIM_VALIDATE_UNIFORM, _HOTCOLD or _DEVIATION, got %d",
                             (int)section);
}

int ssdsim_validate_grid_count(ssdsim_validate_section section, const ssdsim_validate_opts *opts,
                               size_t *n, ssdsim_error *err)
{
    ssdsim_validate_opts o;
    size_t count = 0;
    if (!n)
        return ssdsim__error_set(err, SSDSIM_EINVAL, "", "", "no place for the count (NULL n)");
    *n = 0;
    int rc = grid_open(section, opts, &o, &count, err);
    if (rc == 0)
        *n = count;
    return rc;
}

int ssdsim_validate_grid_get(ssdsim_validate_point *out, ssdsim_validate_section section,
                             const ssdsim_validate_opts *opts, size_t i, ssdsim_error *err)
{
    ssdsim_validate_opts o;
    size_t n = 0;
    if (!out)
        return ssdsim__error_set(err, SSDSIM_EINVAL, "", "", "no point to fill (NULL out)");
    int rc = grid_open(section, opts, &o, &n, err);
    if (rc)
        return rc;
    if (i >= n)
        return ssdsim__error_set(err, SSDSIM_ENOTFOUND, "", "",
                                 "point %zu of the %s grid: it has %zu points", i,
                                 ssdsim_validate_section_name(section), n);
    ssdsim_validate_point p;
    if (section == SSDSIM_VALIDATE_UNIFORM)
        uniform_point(&o, i, &p);
    else if (section == SSDSIM_VALIDATE_HOTCOLD)
        hotcold_point(&o, i, &p);
    else
        deviation_point(&o, i, &p);
    p.seed = point_seed(o.seed, p.label);
    if (ssdsim__validate_point_write(out, &p))
        return ssdsim__error_set(err, SSDSIM_EINVAL, "ssdsim_validate_point", "version",
                                 "version %u is newer than this library's (%u)", out->version,
                                 SSDSIM_VALIDATE_POINT_VERSION);
    return 0;
}
