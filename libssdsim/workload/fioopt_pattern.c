/* fioopt_pattern.c: the setters of the fio options that say what the requests are and where
 * they go: rw and its modifier, the read share of a mix (rwmixwrite; rwmixread is a plain
 * integer row), the random seed, and random_distribution with its zones. Which requests are
 * random (percentage_random) is a per-direction row of the table (fioopt_size.c).
 *
 * As everywhere in the option table, each setter checks its value completely before storing
 * anything, and says what is expected in a one-line reason.
 */
#include "workload/fioopt_int.h"

#include <string.h>

int ssdsim__fio_opt_rw(const struct ssdsim__fio_optdef *o, struct ssdsim__jobspec *job,
                       const char *value, char *errbuf, size_t errlen)
{
    (void)o;
    static const struct {
        const char *name;
        enum ssdsim__rw rw;
        bool random;
    } modes[] = {
        {"read", SSDSIM__RW_READ, false},        {"write", SSDSIM__RW_WRITE, false},
        {"randread", SSDSIM__RW_RANDREAD, true}, {"randwrite", SSDSIM__RW_RANDWRITE, true},
        {"randrw", SSDSIM__RW_RANDRW, true},     {"rw", SSDSIM__RW_RW, false},
        {"readwrite", SSDSIM__RW_RW, false},     {"trim", SSDSIM__RW_TRIM, false},
        {"randtrim", SSDSIM__RW_RANDTRIM, true},
    };
    /* fio values this version knows but does not simulate. */
    static const char *const unsupported[] = {"trimwrite", "randtrimwrite"};

    const char *s = value;
    size_t len = ssdsim__fio_trimmed(&s);
    /* "rw=randread:8": the modifier follows ':'. */
    const char *colon = memchr(s, ':', len);
    size_t name_len = colon ? (size_t)(colon - s) : len;
    struct ssdsim__fio_quoted q = ssdsim__fio_quote(s, name_len);
    for (size_t i = 0; i < SSDSIM__ARRAY_LEN(unsupported); i++)
        if (ssdsim__fio_word_is(s, name_len, unsupported[i]))
            return ssdsim__fio_fail(
                errbuf, errlen,
                "rw '%s' is not supported yet (trim then write of the same blocks is not "
                "simulated)",
                q.text);
    /* fio matches rw values case-sensitively. Differs from fio: fio matches by prefix
     * ("randreadx" is randread); we want the whole word. */
    for (size_t i = 0; i < SSDSIM__ARRAY_LEN(modes); i++) {
        if (!ssdsim__fio_word_is(s, name_len, modes[i].name))
            continue;
        uint64_t suffix = 0;
        if (colon) {
            char part[SSDSIM__FIO_PART_MAX];
            if (!ssdsim__fio_copy_part(part, colon + 1, len - name_len - 1))
                return ssdsim__fio_fail(errbuf, errlen, "value too long");
            struct ssdsim__fio_quoted qs = ssdsim__fio_quote(part, strlen(part));
            if (modes[i].random) {
                /* fio (since 3.34; 3.33 used atoi): a count of I/Os at consecutive offsets
                 * for each random offset, 1 to 2^32 - 1. */
                if (!ssdsim__fio_uint_ok(part, &suffix) || suffix == 0 || suffix > UINT32_MAX)
                    return ssdsim__fio_fail(
                        errbuf, errlen,
                        "expected the number of I/Os per random offset (1 or more) "
                        "after ':', got '%s'",
                        qs.text);
                if (suffix == 1)
                    suffix = 0; /* one I/O per random offset is no modifier at all */
            } else {
                /* A gap added after each I/O: a size. Requests address 512-byte sectors. */
                if (!ssdsim__fio_uint_ok(part, &suffix) || suffix % 512 != 0)
                    return ssdsim__fio_fail(
                        errbuf, errlen,
                        "expected a gap like 4k (a multiple of 512 bytes) after ':', got "
                        "'%s'",
                        qs.text);
            }
        }
        job->rw = modes[i].rw;
        job->rw_suffix = suffix;
        return 0;
    }
    return ssdsim__fio_fail(
        errbuf, errlen,
        "expected one of read, write, randread, randwrite, randrw, rw, readwrite, trim, "
        "randtrim, got '%s'",
        q.text);
}

/* fio: "If both rwmixread and rwmixwrite are given and do not add up to 100%, the latter of the
 * two will be used to override the first": the last one written wins, as here. */
int ssdsim__fio_opt_rwmixwrite(const struct ssdsim__fio_optdef *o, struct ssdsim__jobspec *job,
                               const char *value, char *errbuf, size_t errlen)
{
    (void)o;
    uint64_t v = 0;
    int rc = ssdsim__fio_parse_uint(value, 0, 100, &v, errbuf, errlen);
    if (rc == 0)
        job->rwmixread = 100 - (uint32_t)v;
    return rc;
}

/* Differs from fio: fio reads randseed with strtoll, so "12abc" is 12 and "-5" wraps around. */
int ssdsim__fio_opt_randseed(const struct ssdsim__fio_optdef *o, struct ssdsim__jobspec *job,
                             const char *value, char *errbuf, size_t errlen)
{
    (void)o;
    uint64_t v = 0;
    int rc = ssdsim__fio_parse_uint(value, 0, UINT64_MAX, &v, errbuf, errlen);
    if (rc == 0) {
        job->randseed = v;
        job->has_randseed = true;
    }
    return rc;
}

/* zoned:A/R:A/R... (R percent of the region) or zoned_abs:A/SIZE:... (bytes): A percent of the
 * random accesses go to the next range, zones in order from the region's start. As fio checks
 * (zone_split_ddir): the accesses sum to 100 and the ranges of zoned to at most 100 (the rest of
 * the region is not accessed). Differs from fio: blank values ("/10") are refused, and at most
 * SSDSIM__ZONES_MAX zones (fio: 256). */
static int parse_zones(const char *list, bool absolute, struct ssdsim__jobspec *out, char *errbuf,
                       size_t errlen)
{
    uint32_t n = 0, sum_a = 0;
    uint64_t sum_r = 0;
    const char *p = list;
    struct ssdsim__fio_quoted ql = ssdsim__fio_quote(list, strlen(list));
    for (;;) {
        const char *colon = strchr(p, ':');
        size_t len = colon ? (size_t)(colon - p) : strlen(p);
        if (n == SSDSIM__ZONES_MAX)
            return ssdsim__fio_fail(errbuf, errlen, "more than %d zones", SSDSIM__ZONES_MAX);
        const char *slash = memchr(p, '/', len);
        char a[SSDSIM__FIO_PART_MAX], r[SSDSIM__FIO_PART_MAX];
        uint64_t av = 0, rv = 0;
        bool ok = slash && ssdsim__fio_copy_part(a, p, (size_t)(slash - p)) &&
                  ssdsim__fio_copy_part(r, slash + 1, len - (size_t)(slash - p) - 1) &&
                  ssdsim__fio_uint_ok(a, &av) && av <= 100;
        if (ok && absolute)
            ok = ssdsim__fio_uint_ok(r, &rv) && rv > 0 && rv % 512 == 0;
        else if (ok)
            ok = ssdsim__fio_uint_ok(r, &rv) && rv >= 1 && rv <= 100;
        if (!ok)
            return ssdsim__fio_fail(
                errbuf, errlen,
                absolute ? "zone %u: expected ACCESS%%/SIZE like 60/20g (SIZE a non-zero "
                           "multiple of 512), in '%s'"
                         : "zone %u: expected ACCESS%%/RANGE%% like 80/20 (RANGE in [1, "
                           "100]), in '%s'",
                n + 1, ql.text);
        out->zone_access[n] = (uint32_t)av;
        if (absolute) {
            out->zone_bytes[n] = rv;
            out->zone_range[n] = 0;
        } else {
            out->zone_range[n] = (uint32_t)rv;
            out->zone_bytes[n] = 0;
        }
        sum_a += (uint32_t)av;
        sum_r += rv;
        n++;
        if (!colon)
            break;
        p = colon + 1;
    }
    if (sum_a != 100)
        return ssdsim__fio_fail(errbuf, errlen, "zone accesses must sum to 100, got %u in '%s'",
                                sum_a, ql.text);
    if (!absolute && sum_r > 100)
        return ssdsim__fio_fail(errbuf, errlen,
                                "zone ranges must sum to at most 100, got %llu in '%s'",
                                (unsigned long long)sum_r, ql.text);
    out->n_zones = n;
    return 0;
}

/* random_distribution=zoned:... or zoned_abs:...; `nv` is the whole value. */
static int set_zoned(struct ssdsim__jobspec *job, const struct ssdsim__fio_named *nv,
                     bool absolute, char *errbuf, size_t errlen)
{
    struct ssdsim__jobspec z; /* zones are parsed here first: a failure changes nothing */
    if (!nv->param || !*nv->param)
        return ssdsim__fio_fail(errbuf, errlen, "expected %s:ACCESS/%s:..., got '%s'",
                                absolute ? "zoned_abs" : "zoned", absolute ? "SIZE" : "RANGE",
                                nv->q.text);
    if (strchr(nv->param, ','))
        return ssdsim__fio_fail(
            errbuf, errlen,
            "per-direction zones (',') are not supported: give one zone list for all "
            "directions");
    int rc = parse_zones(nv->param, absolute, &z, errbuf, errlen);
    if (rc)
        return rc;
    job->dist = absolute ? SSDSIM__DIST_ZONED_ABS : SSDSIM__DIST_ZONED;
    job->dist_param = 0;
    job->n_zones = z.n_zones;
    memcpy(job->zone_access, z.zone_access, sizeof z.zone_access[0] * z.n_zones);
    memcpy(job->zone_range, z.zone_range, sizeof z.zone_range[0] * z.n_zones);
    memcpy(job->zone_bytes, z.zone_bytes, sizeof z.zone_bytes[0] * z.n_zones);
    return 0;
}

/* random_distribution: random | zipf[:theta] | pareto[:h] | normal[:dev] | zoned:... |
 * zoned_abs:... (HOWTO; ranges and defaults from fio's str_random_distribution_cb: theta 1.1,
 * h 0.2, dev 0). fio checks theta != 1, 0 < h < 1 and 0 <= dev < 100.
 * Differs from fio: theta must also be > 0 (fio takes zipf:0 and zipf:-1, which are no zipf
 * distribution); the optional center ("zipf:1.2:0.25") is refused, as are per-direction zone
 * lists ("zoned:...,..."), which fio 3.33 refuses too. */
int ssdsim__fio_opt_random_distribution(const struct ssdsim__fio_optdef *o,
                                        struct ssdsim__jobspec *job, const char *value,
                                        char *errbuf, size_t errlen)
{
    (void)o;
    struct ssdsim__fio_named nv;
    int rc = ssdsim__fio_split_named(value, &nv, errbuf, errlen);
    if (rc)
        return rc;
    const char *v = nv.text, *param = nv.param;
    size_t name_len = nv.name_len;

    if (ssdsim__fio_word_is(v, name_len, "random") && !param) {
        job->dist = SSDSIM__DIST_RANDOM;
        job->dist_param = 0;
        job->n_zones = 0;
        return 0;
    }
    if (ssdsim__fio_word_is(v, name_len, "zoned"))
        return set_zoned(job, &nv, false, errbuf, errlen);
    if (ssdsim__fio_word_is(v, name_len, "zoned_abs"))
        return set_zoned(job, &nv, true, errbuf, errlen);

    static const struct {
        const char *name;
        enum ssdsim__dist dist;
        double def;
    } param_dists[] = {
        {"zipf", SSDSIM__DIST_ZIPF, 1.1},
        {"pareto", SSDSIM__DIST_PARETO, 0.2},
        {"normal", SSDSIM__DIST_NORMAL, 0.0},
    };
    for (size_t i = 0; i < SSDSIM__ARRAY_LEN(param_dists); i++) {
        if (!ssdsim__fio_word_is(v, name_len, param_dists[i].name))
            continue;
        double x = param_dists[i].def;
        if (param) {
            if (strchr(param, ':'))
                return ssdsim__fio_fail(
                    errbuf, errlen, "a distribution center ('%s') is not supported yet", nv.q.text);
            if (!ssdsim__fio_decimal_ok(param, strlen(param), &x))
                return ssdsim__fio_fail(errbuf, errlen, "expected %s:NUMBER like %s:%g, got '%s'",
                                        param_dists[i].name, param_dists[i].name,
                                        param_dists[i].def ? param_dists[i].def : 10.0,
                                        nv.q.text);
        }
        switch (param_dists[i].dist) {
        case SSDSIM__DIST_ZIPF:
            if (!(x > 0) || x == 1.0)
                return ssdsim__fio_fail(errbuf, errlen,
                                        "zipf theta must be greater than 0 and not 1, got %g", x);
            break;
        case SSDSIM__DIST_PARETO:
            if (!(x > 0 && x < 1))
                return ssdsim__fio_fail(errbuf, errlen, "pareto h must be in (0, 1), got %g", x);
            break;
        default:
            if (!(x >= 0 && x < 100))
                return ssdsim__fio_fail(
                    errbuf, errlen,
                    "normal deviation must be in [0, 100) percent of the region, got %g", x);
            break;
        }
        job->dist = param_dists[i].dist;
        job->dist_param = x;
        job->n_zones = 0;
        return 0;
    }
    return ssdsim__fio_fail(errbuf, errlen,
                            "expected random, zipf:THETA, pareto:H, normal:DEV, zoned:A/R:... or "
                            "zoned_abs:A/SIZE:..., got '%s'",
                            nv.q.text);
}
