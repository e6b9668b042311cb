/* fioopt.c: fio option values ("4k", "512/10:4k/60:64k/30", "50%", "10m") and the table of fio
 * options a synthetic workload understands.
 *
 * The JSON workload loader (workload.c) and, later, the fio job-file reader share this file, so
 * values follow fio's syntax (HOWTO, "Parameter types", kb_base=1024) with a few deliberate
 * differences, each marked "Differs from fio" below: fio silently accepts several malformed values
 * (atoi, strtoll and prefix matching stop at the first bad character) where we report an error.
 *
 * Nothing here allocates; errors are one-line reasons written into a caller buffer, without the
 * file or the option name, which the caller adds.
 */
#include "config/jsonutil.h"
#include "workload/workload.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The largest block size a bs entry can hold: the largest multiple of 512 that fits in 32 bits. */
#define BS_MAX_BYTES (UINT32_MAX & ~(uint32_t)511)

#define IODEPTH_MAX 65536
#define NUMJOBS_MAX 4096 /* fio's MAX_JOBS */

/* ------------------------------------------------------------------------------------------ */
/* Small text helpers                                                                          */

static int fail(char *errbuf, size_t errlen, const char *fmt, ...) SSDSIM__PRINTF(3, 4);

static int fail(char *errbuf, size_t errlen, const char *fmt, ...)
{
    if (errbuf && errlen > 0) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(errbuf, errlen, fmt, ap);
        va_end(ap);
    }
    return SSDSIM_ECONFIG;
}

/* A value as it may be quoted in a message: at most 40 bytes, "..." when cut. */
struct quoted {
    char text[48];
};

static struct quoted quote(const char *s, size_t len)
{
    struct quoted q;
    if (len > 40)
        snprintf(q.text, sizeof q.text, "%.40s...", s);
    else
        snprintf(q.text, sizeof q.text, "%.*s", (int)len, s);
    return q;
}

/* Trim ASCII white space on both sides of [*s, *s + *len): fio strips blanks around values. */
static void trim(const char **s, size_t *len)
{
    while (*len > 0 && isspace((unsigned char)**s)) {
        (*s)++;
        (*len)--;
    }
    while (*len > 0 && isspace((unsigned char)(*s)[*len - 1]))
        (*len)--;
}

/* Case-insensitive comparison of [s, s + len) with the NUL-terminated lower-case word `w`. */
static bool word_eq(const char *s, size_t len, const char *w)
{
    size_t n = strlen(w);
    if (n != len)
        return false;
    for (size_t i = 0; i < n; i++)
        if (tolower((unsigned char)s[i]) != w[i])
            return false;
    return true;
}

/* ------------------------------------------------------------------------------------------ */
/* Numbers with a unit suffix                                                                  */

enum num_status {
    NUM_OK,
    NUM_SYNTAX,     /* not a number followed by a known suffix */
    NUM_NEGATIVE,   /* starts with '-' */
    NUM_OVERFLOW,   /* does not fit in 64 bits */
    NUM_FRAC_NOUNIT /* "1.5" with no suffix (a size) */
};

/* The leading number of a value: decimal digits with an optional fraction, or 0x hex digits.
 * The fraction is kept as its digit string so that scaling it stays exact. */
struct number {
    uint64_t whole;
    const char *frac; /* digits after '.', or NULL */
    size_t n_frac;
    const char *rest; /* the first byte after the number: the suffix */
};

static enum num_status scan_number(const char *s, const char *end, struct number *n)
{
    const char *p = s;
    memset(n, 0, sizeof *n);
    if (p < end && *p == '-')
        return NUM_NEGATIVE;
    /* fio's "integer prefix": 0x selects hexadecimal (no fraction, no suffix then). */
    if (end - p > 2 && p[0] == '0' && (p[1] == 'x' || p[1] == 'X')) {
        p += 2;
        if (!isxdigit((unsigned char)*p))
            return NUM_SYNTAX;
        for (; p < end && isxdigit((unsigned char)*p); p++) {
            unsigned d = isdigit((unsigned char)*p)
                             ? (unsigned)(*p - '0')
                             : (unsigned)(tolower((unsigned char)*p) - 'a' + 10);
            if (n->whole > (UINT64_MAX - d) / 16)
                return NUM_OVERFLOW;
            n->whole = n->whole * 16 + d;
        }
        n->rest = p;
        return p == end ? NUM_OK : NUM_SYNTAX;
    }
    if (p == end || !isdigit((unsigned char)*p))
        return NUM_SYNTAX;
    for (; p < end && isdigit((unsigned char)*p); p++) {
        unsigned d = (unsigned)(*p - '0');
        if (n->whole > (UINT64_MAX - d) / 10)
            return NUM_OVERFLOW;
        n->whole = n->whole * 10 + d;
    }
    if (p < end && *p == '.') {
        p++;
        n->frac = p;
        while (p < end && isdigit((unsigned char)*p))
            p++;
        n->n_frac = (size_t)(p - n->frac);
        if (n->n_frac == 0)
            return NUM_SYNTAX; /* "1." */
    }
    n->rest = p;
    return NUM_OK;
}

/* whole.frac * mult, rounded down, without floating point: the fraction is folded in from its
 * last digit, r = floor((d * mult + r) / 10), which is exact because floor((a + floor(y)) / 10)
 * equals floor((a + y) / 10) for an integer a. Each step is split so nothing overflows. */
static enum num_status scale(const struct number *n, uint64_t mult, uint64_t *out)
{
    uint64_t frac = 0;
    for (size_t i = n->n_frac; i-- > 0;) {
        uint64_t d = (uint64_t)(n->frac[i] - '0');
        frac = d * (mult / 10) + frac / 10 + (d * (mult % 10) + frac % 10) / 10;
    }
    if (mult != 0 && n->whole > UINT64_MAX / mult)
        return NUM_OVERFLOW;
    uint64_t v = n->whole * mult;
    if (v > UINT64_MAX - frac)
        return NUM_OVERFLOW;
    *out = v + frac;
    return NUM_OK;
}

/* The multiplier of a size suffix, or 0 if the suffix is not one.
 *
 * fio with kb_base=1024 (its default): k, m, g, t, p are powers of 1024, an optional trailing
 * b/B is ignored ("4kb"), case does not matter, and a lone "b" means bytes.
 * Differs from fio: fio, for compatibility with old scripts, reads the IEC forms the opposite way
 * ("4KiB" = 4000 and "1MiB" = 10^6 under kb_base=1024, see fio's HOWTO on kb_base). We read
 * ki/kib ... pi/pib as powers of 1024, as everywhere else in ssdsim (model files say "64GiB"),
 * so that one spelling means one size throughout the tool. A job-file reader that must match fio
 * byte for byte has to treat the IEC forms itself.
 * Differs from fio: fio matches suffixes by prefix ("4kfoo" is 4k); we require the whole suffix. */
static uint64_t size_mult(const char *s, size_t len)
{
    static const char prefixes[] = "kmgtp";
    if (len == 0 || word_eq(s, len, "b"))
        return 1;
    int c = tolower((unsigned char)s[0]);
    const char *pos = c ? strchr(prefixes, c) : NULL;
    if (!pos)
        return 0;
    bool ok = len == 1 || (len == 2 && (s[1] == 'b' || s[1] == 'B')) ||
              (len == 2 && (s[1] == 'i' || s[1] == 'I')) ||
              (len == 3 && (s[1] == 'i' || s[1] == 'I') && (s[2] == 'b' || s[2] == 'B'));
    if (!ok)
        return 0;
    uint64_t mult = 1;
    for (const char *q = prefixes; q <= pos; q++)
        mult *= 1024;
    return mult;
}

static enum num_status parse_size_range(const char *s, size_t len, uint64_t *out)
{
    trim(&s, &len);
    const char *end = s + len;
    struct number n;
    enum num_status st = scan_number(s, end, &n);
    if (st != NUM_OK)
        return st;
    uint64_t mult = size_mult(n.rest, (size_t)(end - n.rest));
    if (mult == 0)
        return NUM_SYNTAX;
    /* Differs from fio: fio reads "1.5g" as 1 byte (strtoll stops at the dot); we scale the
     * fraction and round down. A fraction of a byte ("1.5") is refused rather than truncated. */
    if (n.frac && mult == 1)
        return NUM_FRAC_NOUNIT;
    return scale(&n, mult, out);
}

static int size_error(enum num_status st, const char *s, size_t len, char *errbuf, size_t errlen)
{
    trim(&s, &len);
    struct quoted q = quote(s, len);
    switch (st) {
    case NUM_NEGATIVE:
        return fail(errbuf, errlen, "a size cannot be negative, got '%s'", q.text);
    case NUM_OVERFLOW:
        return fail(errbuf, errlen, "size '%s' is too large (more than 64 bits)", q.text);
    case NUM_FRAC_NOUNIT:
        return fail(errbuf, errlen,
                    "a fraction of a byte is not a size: give a unit as in 1.5m, "
                    "got '%s'",
                    q.text);
    default:
        return fail(errbuf, errlen, "expected a size like 4k or 1m, got '%s'", q.text);
    }
}

int ssdsim__fio_parse_size(const char *s, uint64_t *out, char *errbuf, size_t errlen)
{
    if (!s)
        return fail(errbuf, errlen, "expected a size like 4k or 1m, got nothing");
    size_t len = strlen(s);
    uint64_t v = 0;
    enum num_status st = parse_size_range(s, len, &v);
    if (st != NUM_OK)
        return size_error(st, s, len, errbuf, errlen);
    *out = v;
    return 0;
}

/* Time suffixes, case-insensitive as in fio: d, h, m, s/sec, ms/msec, us/usec.
 * Differs from fio: "min" is accepted for minutes and "ns"/"nsec" for nanoseconds (the simulator
 * counts in ns); fio has neither. */
static uint64_t time_mult(const char *s, size_t len, uint64_t default_unit_ns)
{
    static const struct {
        const char *word;
        uint64_t ns;
    } units[] = {
        {"ns", 1},
        {"nsec", 1},
        {"us", SSDSIM__NS_PER_US},
        {"usec", SSDSIM__NS_PER_US},
        {"ms", SSDSIM__NS_PER_MS},
        {"msec", SSDSIM__NS_PER_MS},
        {"s", SSDSIM__NS_PER_S},
        {"sec", SSDSIM__NS_PER_S},
        {"m", 60 * SSDSIM__NS_PER_S},
        {"min", 60 * SSDSIM__NS_PER_S},
        {"h", 3600 * SSDSIM__NS_PER_S},
        {"d", 86400 * SSDSIM__NS_PER_S},
    };
    if (len == 0)
        return default_unit_ns;
    for (size_t i = 0; i < SSDSIM__ARRAY_LEN(units); i++)
        if (word_eq(s, len, units[i].word))
            return units[i].ns;
    return 0;
}

int ssdsim__fio_parse_time_ns(const char *s, uint64_t default_unit_ns, uint64_t *out, char *errbuf,
                              size_t errlen)
{
    if (!s)
        return fail(errbuf, errlen, "expected a time like 10s or 500ms, got nothing");
    size_t len = strlen(s);
    const char *p = s;
    trim(&p, &len);
    const char *end = p + len;
    struct quoted q = quote(p, len);
    struct number n;
    enum num_status st = scan_number(p, end, &n);
    uint64_t mult = 0;
    if (st == NUM_OK) {
        mult = time_mult(n.rest, (size_t)(end - n.rest), default_unit_ns);
        if (mult == 0)
            st = NUM_SYNTAX;
    }
    /* Differs from fio: fio reads "1.5s" as 1 s; we keep the fraction (rounded down to 1 ns). */
    if (st == NUM_OK)
        st = scale(&n, mult, out);
    switch (st) {
    case NUM_OK:
        return 0;
    case NUM_NEGATIVE:
        return fail(errbuf, errlen, "a time cannot be negative, got '%s'", q.text);
    case NUM_OVERFLOW:
        return fail(errbuf, errlen, "time '%s' is too long (more than 2^64 ns)", q.text);
    default:
        return fail(errbuf, errlen,
                    "expected a time like 10s or 500ms (units ns, us, ms, s, m, h, d), got '%s'",
                    q.text);
    }
}

/* A whole number for an integer option, with fio's integer syntax (FIO_OPT_INT goes through the
 * same parser as sizes, so "iodepth=1k" is 1024 in fio too), checked against [min, max]. */
static int parse_uint(const char *s, uint64_t min, uint64_t max, uint64_t *out, char *errbuf,
                      size_t errlen)
{
    size_t len = strlen(s);
    uint64_t v = 0;
    enum num_status st = parse_size_range(s, len, &v);
    const char *p = s;
    trim(&p, &len);
    struct quoted q = quote(p, len);
    if (st != NUM_OK || v < min || v > max) {
        if (max == UINT64_MAX)
            return fail(errbuf, errlen, "expected an integer >= %llu, got '%s'",
                        (unsigned long long)min, q.text);
        return fail(errbuf, errlen, "expected an integer in [%llu, %llu], got '%s'",
                    (unsigned long long)min, (unsigned long long)max, q.text);
    }
    *out = v;
    return 0;
}

/* "N%" with N a decimal number: sets *is_percent and *pct. Otherwise leaves *is_percent false.
 * Returns 0, or SSDSIM_ECONFIG for a malformed percentage. */
static int parse_percent(const char *s, bool *is_percent, double *pct, char *errbuf, size_t errlen)
{
    size_t len = strlen(s);
    trim(&s, &len);
    *is_percent = len > 0 && s[len - 1] == '%';
    if (!*is_percent)
        return 0;
    struct number n;
    enum num_status st = scan_number(s, s + len - 1, &n);
    if (st != NUM_OK || n.rest != s + len - 1 || (s[0] == '0' && len > 2 && s[1] == 'x')) {
        struct quoted q = quote(s, len);
        return fail(errbuf, errlen, "expected a percentage like 50%%, got '%s'", q.text);
    }
    /* Exact enough: percentages are resolved against the device size to 512-byte sectors. */
    double v = (double)n.whole, unit = 0.1;
    for (size_t i = 0; i < n.n_frac; i++, unit /= 10)
        v += (n.frac[i] - '0') * unit;
    *pct = v;
    return 0;
}

/* ------------------------------------------------------------------------------------------ */
/* bssplit                                                                                     */

/* fio's bssplit: "size/percent" entries separated by ':'. An entry without a percentage ("4k" or
 * "4k/") or with 0 (fio turns "/0" into "not given") shares what the others leave of 100%
 * equally. Explicit percentages must not exceed 100 in total.
 * Differs from fio: the total must come to exactly 100 (fio lets it fall short); the remainder
 * of an unequal share goes to the last blank entry (fio drops it); a lone blank entry gets 100%
 * (fio gives it 0); non-numeric or fractional percentages, percentages over 100 and empty
 * entries are errors (fio uses atoi, clamps at 100 and stops at an empty entry); entries keep
 * the order written (fio sorts them by percentage, which does not change the distribution). */
int ssdsim__fio_parse_bssplit(const char *s, struct ssdsim__bs_entry *out, uint32_t *n_out,
                              char *errbuf, size_t errlen)
{
    if (!s)
        return fail(errbuf, errlen, "expected a block size split like 4k/50:64k/50, got nothing");
    if (strchr(s, ','))
        return fail(errbuf, errlen, "per-direction bssplit (',') is not supported yet");

    struct ssdsim__bs_entry entries[SSDSIM__BSSPLIT_MAX];
    bool blank[SSDSIM__BSSPLIT_MAX];
    uint32_t n = 0, n_blank = 0, total = 0;
    const char *p = s;
    for (;;) {
        const char *colon = strchr(p, ':');
        size_t len = colon ? (size_t)(colon - p) : strlen(p);
        const char *e = p;
        trim(&e, &len);
        if (len == 0)
            return fail(errbuf, errlen, "bssplit entry %u is empty", n + 1);
        if (n == SSDSIM__BSSPLIT_MAX)
            return fail(errbuf, errlen, "bssplit has more than %d entries", SSDSIM__BSSPLIT_MAX);

        const char *slash = memchr(e, '/', len);
        size_t size_len = slash ? (size_t)(slash - e) : len;
        uint64_t bytes = 0;
        enum num_status st = parse_size_range(e, size_len, &bytes);
        if (st != NUM_OK) {
            char why[160];
            size_error(st, e, size_len, why, sizeof why);
            return fail(errbuf, errlen, "bssplit entry %u: %s", n + 1, why);
        }
        struct quoted qs = quote(e, size_len);
        if (bytes == 0 || bytes % 512 != 0 || bytes > BS_MAX_BYTES)
            return fail(errbuf, errlen,
                        "bssplit entry %u: block size must be a non-zero multiple of 512 up to "
                        "%u, got '%s'",
                        n + 1, BS_MAX_BYTES, qs.text);

        uint32_t pct = 0;
        if (slash) {
            const char *ps = slash + 1;
            size_t plen = len - size_len - 1;
            trim(&ps, &plen);
            struct quoted qp = quote(ps, plen);
            uint64_t v = 0;
            for (size_t i = 0; i < plen; i++) {
                if (!isdigit((unsigned char)ps[i]) || v > 100)
                    return fail(errbuf, errlen,
                                "bssplit entry %u: expected a whole percentage in [0, 100], "
                                "got '%s'",
                                n + 1, qp.text);
                v = v * 10 + (uint64_t)(ps[i] - '0');
            }
            if (v > 100)
                return fail(errbuf, errlen,
                            "bssplit entry %u: expected a whole percentage in [0, 100], got "
                            "'%s'",
                            n + 1, qp.text);
            pct = (uint32_t)v;
        }
        entries[n].bytes = (uint32_t)bytes;
        entries[n].percent = pct;
        blank[n] = pct == 0;
        n_blank += blank[n];
        total += pct;
        n++;
        if (!colon)
            break;
        p = colon + 1;
    }

    if (total > 100)
        return fail(errbuf, errlen, "bssplit percentages add up to %u, more than 100", total);
    if (n_blank == 0 && total != 100)
        return fail(errbuf, errlen, "bssplit percentages add up to %u, not 100", total);
    if (n_blank > 0) {
        uint32_t share = (100 - total) / n_blank, left = (100 - total) % n_blank;
        uint32_t last = 0;
        for (uint32_t i = 0; i < n; i++)
            if (blank[i]) {
                entries[i].percent = share;
                last = i;
            }
        entries[last].percent += left;
    }
    memcpy(out, entries, n * sizeof entries[0]);
    *n_out = n;
    return 0;
}

/* ------------------------------------------------------------------------------------------ */
/* Options                                                                                     */

typedef int (*opt_fn)(struct ssdsim_workload *wl, const char *value, char *errbuf, size_t errlen);

static int opt_rw(struct ssdsim_workload *wl, const char *value, char *errbuf, size_t errlen)
{
    static const struct {
        const char *name;
        enum ssdsim__rw rw;
    } modes[] = {
        {"read", SSDSIM__RW_READ},         {"write", SSDSIM__RW_WRITE},
        {"randread", SSDSIM__RW_RANDREAD}, {"randwrite", SSDSIM__RW_RANDWRITE},
        {"randrw", SSDSIM__RW_RANDRW},     {"rw", SSDSIM__RW_RW},
        {"readwrite", SSDSIM__RW_RW},      {"trim", SSDSIM__RW_TRIM},
        {"randtrim", SSDSIM__RW_RANDTRIM},
    };
    /* fio values this version knows but does not simulate. */
    static const char *const unsupported[] = {"trimwrite", "randtrimwrite"};

    const char *s = value;
    size_t len = strlen(s);
    trim(&s, &len);
    /* fio's "rw=randread:8" (a sequential offset modifier) ends the name at ':'. */
    const char *colon = memchr(s, ':', len);
    size_t name_len = colon ? (size_t)(colon - s) : len;
    struct quoted q = quote(s, name_len);
    for (size_t i = 0; i < SSDSIM__ARRAY_LEN(unsupported); i++)
        if (strlen(unsupported[i]) == name_len && !memcmp(s, unsupported[i], name_len))
            return fail(errbuf, errlen, "rw '%s' is not supported yet", q.text);
    /* fio matches rw values exactly and case-sensitively. */
    for (size_t i = 0; i < SSDSIM__ARRAY_LEN(modes); i++) {
        if (strlen(modes[i].name) != name_len || memcmp(s, modes[i].name, name_len))
            continue;
        if (colon)
            return fail(errbuf, errlen, "rw ':N' suffix is not supported yet");
        wl->rw = modes[i].rw;
        return 0;
    }
    return fail(errbuf, errlen,
                "expected one of read, write, randread, randwrite, randrw, rw, readwrite, trim, "
                "randtrim, got '%s'",
                q.text);
}

static int opt_bs(struct ssdsim_workload *wl, const char *value, char *errbuf, size_t errlen)
{
    if (strchr(value, ','))
        return fail(errbuf, errlen, "per-direction bs ('4k,8k') is not supported yet");
    uint64_t bytes = 0;
    int rc = ssdsim__fio_parse_size(value, &bytes, errbuf, errlen);
    if (rc)
        return rc;
    if (bytes == 0 || bytes % 512 != 0 || bytes > BS_MAX_BYTES)
        return fail(errbuf, errlen,
                    "block size must be a non-zero multiple of 512 up to %u, got %llu",
                    BS_MAX_BYTES, (unsigned long long)bytes);
    wl->n_bs = 1;
    wl->bs[0].bytes = (uint32_t)bytes;
    wl->bs[0].percent = 100;
    return 0;
}

static int opt_bssplit(struct ssdsim_workload *wl, const char *value, char *errbuf, size_t errlen)
{
    return ssdsim__fio_parse_bssplit(value, wl->bs, &wl->n_bs, errbuf, errlen);
}

static int opt_rwmixread(struct ssdsim_workload *wl, const char *value, char *errbuf, size_t errlen)
{
    uint64_t v = 0;
    int rc = parse_uint(value, 0, 100, &v, errbuf, errlen);
    if (rc == 0)
        wl->rwmixread = (uint32_t)v;
    return rc;
}

static int opt_rwmixwrite(struct ssdsim_workload *wl, const char *value, char *errbuf,
                          size_t errlen)
{
    uint64_t v = 0;
    int rc = parse_uint(value, 0, 100, &v, errbuf, errlen);
    if (rc == 0)
        wl->rwmixread = 100 - (uint32_t)v;
    return rc;
}

static int opt_iodepth(struct ssdsim_workload *wl, const char *value, char *errbuf, size_t errlen)
{
    uint64_t v = 0;
    int rc = parse_uint(value, 1, IODEPTH_MAX, &v, errbuf, errlen);
    if (rc == 0)
        wl->iodepth = (uint32_t)v;
    return rc;
}

static int opt_numjobs(struct ssdsim_workload *wl, const char *value, char *errbuf, size_t errlen)
{
    uint64_t v = 0;
    int rc = parse_uint(value, 1, NUMJOBS_MAX, &v, errbuf, errlen);
    if (rc == 0)
        wl->numjobs = (uint32_t)v;
    return rc;
}

static int opt_size(struct ssdsim_workload *wl, const char *value, char *errbuf, size_t errlen)
{
    bool is_pct = false;
    double pct = 0;
    int rc = parse_percent(value, &is_pct, &pct, errbuf, errlen);
    if (rc)
        return rc;
    if (is_pct) {
        if (!(pct > 0 && pct <= 100))
            return fail(errbuf, errlen, "a size percentage must be in (0, 100], got %g%%", pct);
        wl->size_bytes = 0;
        wl->size_percent = pct;
        return 0;
    }
    uint64_t bytes = 0;
    rc = ssdsim__fio_parse_size(value, &bytes, errbuf, errlen);
    if (rc)
        return rc;
    wl->size_bytes = bytes; /* 0 = to the end of the device */
    wl->size_percent = 0;
    return 0;
}

static int opt_offset(struct ssdsim_workload *wl, const char *value, char *errbuf, size_t errlen)
{
    bool is_pct = false;
    double pct = 0;
    int rc = parse_percent(value, &is_pct, &pct, errbuf, errlen);
    if (rc)
        return rc;
    if (is_pct) {
        if (!(pct >= 0 && pct < 100))
            return fail(errbuf, errlen, "an offset percentage must be in [0, 100), got %g%%", pct);
        wl->offset_bytes = 0;
        wl->offset_percent = pct;
        return 0;
    }
    uint64_t bytes = 0;
    rc = ssdsim__fio_parse_size(value, &bytes, errbuf, errlen);
    if (rc)
        return rc;
    /* Requests address 512-byte sectors, so a region must start on one. */
    if (bytes % 512 != 0)
        return fail(errbuf, errlen, "offset must be a multiple of 512 bytes, got %llu",
                    (unsigned long long)bytes);
    wl->offset_bytes = bytes;
    wl->offset_percent = 0;
    return 0;
}

static int opt_number_ios(struct ssdsim_workload *wl, const char *value, char *errbuf,
                          size_t errlen)
{
    uint64_t v = 0;
    int rc = parse_uint(value, 1, UINT64_MAX, &v, errbuf, errlen);
    if (rc == 0)
        wl->number_ios = v;
    return rc;
}

static int opt_runtime(struct ssdsim_workload *wl, const char *value, char *errbuf, size_t errlen)
{
    uint64_t ns = 0;
    int rc = ssdsim__fio_parse_time_ns(value, SSDSIM__NS_PER_S, &ns, errbuf, errlen);
    if (rc)
        return rc;
    if (ns == 0)
        return fail(errbuf, errlen, "runtime must be greater than 0");
    wl->runtime_ns = ns;
    return 0;
}

static int opt_randseed(struct ssdsim_workload *wl, const char *value, char *errbuf, size_t errlen)
{
    uint64_t v = 0;
    int rc = parse_uint(value, 0, UINT64_MAX, &v, errbuf, errlen);
    if (rc == 0) {
        wl->randseed = v;
        wl->has_randseed = true;
    }
    return rc;
}

/* random_distribution: "random" (uniform), or "zoned:A1/R1:A2/R2:...": A percent of the random
 * accesses to the next R percent of the region, zones in order from its start. The A must sum
 * to 100 and the R to at most 100 (the rest of the region is not accessed). fio's other
 * distributions (zipf, pareto, normal, zoned_abs) are refused with a clear message. */
static int opt_random_distribution(struct ssdsim_workload *wl, const char *value, char *errbuf,
                                   size_t errlen)
{
    if (!strcmp(value, "random")) {
        wl->n_zones = 0;
        return 0;
    }
    if (strncmp(value, "zoned:", 6) != 0) {
        const char *colon = strchr(value, ':');
        size_t n = colon ? (size_t)(colon - value) : strlen(value);
        if ((n == 4 && !strncmp(value, "zipf", 4)) || (n == 6 && !strncmp(value, "pareto", 6)) ||
            (n == 6 && !strncmp(value, "normal", 6)) ||
            (n == 9 && !strncmp(value, "zoned_abs", 9)))
            return fail(errbuf, errlen, "random_distribution '%.*s' is not supported yet "
                                        "(supported: random, zoned:A/R:...)",
                        (int)n, value);
        return fail(errbuf, errlen, "expected random or zoned:A/R:A/R..., got '%s'", value);
    }
    uint32_t access[SSDSIM__ZONES_MAX], range[SSDSIM__ZONES_MAX], n = 0, sum_a = 0, sum_r = 0;
    const char *p = value + 6;
    while (*p) {
        if (n == SSDSIM__ZONES_MAX)
            return fail(errbuf, errlen, "more than %d zones", SSDSIM__ZONES_MAX);
        char *end;
        unsigned long a = strtoul(p, &end, 10);
        if (end == p || *end != '/')
            return fail(errbuf, errlen, "zone %u: expected ACCESS%%/RANGE%% like 80/20, in '%s'",
                        n + 1, value);
        p = end + 1;
        unsigned long r = strtoul(p, &end, 10);
        if (end == p || (*end && *end != ':') || a > 100 || r == 0 || r > 100)
            return fail(errbuf, errlen, "zone %u: expected ACCESS%%/RANGE%% with RANGE in "
                                        "[1, 100], in '%s'",
                        n + 1, value);
        access[n] = (uint32_t)a;
        range[n] = (uint32_t)r;
        sum_a += (uint32_t)a;
        sum_r += (uint32_t)r;
        n++;
        p = *end ? end + 1 : end;
    }
    if (n == 0 || sum_a != 100 || sum_r > 100)
        return fail(errbuf, errlen, "zone accesses must sum to 100 and ranges to at most 100, got "
                                    "%u and %u in '%s'",
                    sum_a, sum_r, value);
    wl->n_zones = n;
    memcpy(wl->zone_access, access, sizeof access[0] * n);
    memcpy(wl->zone_range, range, sizeof range[0] * n);
    return 0;
}

/* name and description are accepted (a fio job has them) and change nothing. */
static int opt_ignore(struct ssdsim_workload *wl, const char *value, char *errbuf, size_t errlen)
{
    (void)wl;
    (void)value;
    (void)errbuf;
    (void)errlen;
    return 0;
}

/* The options a workload understands, with fio's aliases. A linear search: there are a dozen,
 * and options are applied while loading, never while simulating. */
static const struct {
    const char *name;
    const char *alias; /* fio's alias, or NULL */
    opt_fn apply;
} options[] = {
    {"rw", "readwrite", opt_rw},          {"bs", "blocksize", opt_bs},
    {"bssplit", NULL, opt_bssplit},       {"rwmixread", NULL, opt_rwmixread},
    {"rwmixwrite", NULL, opt_rwmixwrite}, {"iodepth", NULL, opt_iodepth},
    {"numjobs", NULL, opt_numjobs},       {"size", NULL, opt_size},
    {"offset", NULL, opt_offset},         {"number_ios", NULL, opt_number_ios},
    {"runtime", "timeout", opt_runtime},  {"randseed", NULL, opt_randseed},
    {"name", NULL, opt_ignore},           {"description", NULL, opt_ignore},
    {"random_distribution", NULL, opt_random_distribution},
};

static void unknown_option(const char *key, char *errbuf, size_t errlen)
{
    const char *best = NULL;
    size_t best_d = SIZE_MAX;
    for (size_t i = 0; i < SSDSIM__ARRAY_LEN(options); i++) {
        const char *names[2] = {options[i].name, options[i].alias};
        for (size_t k = 0; k < 2; k++) {
            if (!names[k])
                continue;
            size_t d = ssdsim__edit_distance(key, names[k]);
            if (d < best_d) {
                best_d = d;
                best = names[k];
            }
        }
    }
    /* Suggest only what is plausibly a typo: a third of the key's letters, at least two. */
    if (best && best_d <= SSDSIM__MAX((size_t)2, strlen(key) / 3))
        fail(errbuf, errlen, "unknown option (did you mean '%s'?)", best);
    else
        fail(errbuf, errlen, "unknown option");
}

void ssdsim__workload_defaults(struct ssdsim_workload *wl)
{
    memset(wl, 0, sizeof *wl);
    wl->rw = SSDSIM__RW_READ;
    wl->n_bs = 1;
    wl->bs[0].bytes = 4096;
    wl->bs[0].percent = 100;
    wl->rwmixread = 50;
    wl->iodepth = 1;
    wl->numjobs = 1;
}

int ssdsim__workload_apply(struct ssdsim_workload *wl, const char *key, const char *value,
                           char *errbuf, size_t errlen)
{
    if (errbuf && errlen > 0)
        errbuf[0] = '\0';
    if (!key)
        return fail(errbuf, errlen, "no option name");
    for (size_t i = 0; i < SSDSIM__ARRAY_LEN(options); i++) {
        if (strcmp(key, options[i].name) != 0 &&
            !(options[i].alias && strcmp(key, options[i].alias) == 0))
            continue;
        if (!value)
            return fail(errbuf, errlen, "a value is required");
        /* Each option checks its value completely before storing it, so a failed apply leaves
         * the workload as it was. */
        return options[i].apply(wl, value, errbuf, errlen);
    }
    unknown_option(key, errbuf, errlen);
    return SSDSIM_ENOTFOUND;
}

/* ------------------------------------------------------------------------------------------ */
/* Checks against a device                                                                     */

/* floor(total * pct / 100) rounded down to a 512-byte sector. long double keeps the product
 * exact enough for devices up to 2^64 bytes. */
static uint64_t resolve_percent(uint64_t total, double pct)
{
    long double v = (long double)total * (long double)pct / 100.0L;
    if (v >= (long double)total)
        return total & ~(uint64_t)511;
    return (uint64_t)v & ~(uint64_t)511;
}

void ssdsim__workload_region(const struct ssdsim_workload *wl, uint64_t logical_bytes,
                             uint64_t *offset, uint64_t *size)
{
    *offset = wl->offset_percent > 0 ? resolve_percent(logical_bytes, wl->offset_percent)
                                     : wl->offset_bytes;
    *size =
        wl->size_percent > 0 ? resolve_percent(logical_bytes, wl->size_percent) : wl->size_bytes;
    if (*size == 0 && wl->size_percent <= 0 && *offset < logical_bytes)
        *size = logical_bytes - *offset;
}

int ssdsim__workload_check(const struct ssdsim_workload *wl, uint64_t logical_bytes, char *errbuf,
                           size_t errlen)
{
    if (wl->n_bs == 0 || wl->n_bs > SSDSIM__BSSPLIT_MAX)
        return fail(errbuf, errlen, "the workload has no block size");
    uint64_t offset, size;
    ssdsim__workload_region(wl, logical_bytes, &offset, &size);
    if (offset >= logical_bytes)
        return fail(errbuf, errlen,
                    "offset %llu is not inside the device (logical capacity %llu bytes)",
                    (unsigned long long)offset, (unsigned long long)logical_bytes);
    if (size > logical_bytes - offset)
        return fail(errbuf, errlen,
                    "offset %llu + size %llu exceeds the device's logical capacity of %llu bytes",
                    (unsigned long long)offset, (unsigned long long)size,
                    (unsigned long long)logical_bytes);
    for (uint32_t i = 0; i < wl->n_bs; i++) {
        uint32_t bs = wl->bs[i].bytes;
        if (bs == 0 || bs % 512 != 0)
            return fail(errbuf, errlen, "block size %u is not a non-zero multiple of 512", bs);
        if (bs > size)
            return fail(errbuf, errlen, "block size %u is larger than the region of %llu bytes", bs,
                        (unsigned long long)size);
    }
    return 0;
}
