/* fioval.c: fio option values ("4k", "512/10:4k/60:64k/30", "50%", "10m"): numbers with a unit
 * suffix, sizes, times, bssplit, and the pieces of values several options share (fioval.h).
 *
 * Values follow fio's syntax (HOWTO, "Parameter types" and "Job file parameters", kb_base=1024)
 * with a few deliberate differences, each marked "Differs from fio" below: fio silently accepts
 * several malformed values (atoi, strtoll and prefix matching stop at the first bad character)
 * where we report an error. Errors are one-line reasons written into a caller buffer, without
 * the file or the option name, which the caller adds.
 */
#include "workload/fioval.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The largest block size a bs entry can hold: the largest multiple of 512 that fits in 32 bits. */
#define BS_MAX_BYTES (UINT32_MAX & ~(uint32_t)511)

/* ------------------------------------------------------------------------------------------ */
/* Small text helpers                                                                          */

int ssdsim__fio_fail(char *errbuf, size_t errlen, const char *fmt, ...)
{
    if (errbuf && errlen > 0) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(errbuf, errlen, fmt, ap);
        va_end(ap);
    }
    return SSDSIM_ECONFIG;
}

struct ssdsim__fio_quoted ssdsim__fio_quote(const char *s, size_t len)
{
    struct ssdsim__fio_quoted q;
    if (len > 40)
        snprintf(q.text, sizeof q.text, "%.40s...", s);
    else
        snprintf(q.text, sizeof q.text, "%.*s", (int)len, s);
    return q;
}

/* Trim ASCII white space on both sides of [*s, *s + *len): fio strips blanks around values. */
void ssdsim__fio_trim(const char **s, size_t *len)
{
    while (*len > 0 && isspace((unsigned char)**s)) {
        (*s)++;
        (*len)--;
    }
    while (*len > 0 && isspace((unsigned char)(*s)[*len - 1]))
        (*len)--;
}

size_t ssdsim__fio_trimmed(const char **s)
{
    size_t len = strlen(*s);
    ssdsim__fio_trim(s, &len);
    return len;
}

/* Case-insensitive comparison of [s, s + len) with the NUL-terminated lower-case word `w`. */
bool ssdsim__fio_word_eq(const char *s, size_t len, const char *w)
{
    size_t n = strlen(w);
    if (n != len)
        return false;
    for (size_t i = 0; i < n; i++)
        if (tolower((unsigned char)s[i]) != w[i])
            return false;
    return true;
}

bool ssdsim__fio_word_is(const char *s, size_t len, const char *w)
{
    return strlen(w) == len && !memcmp(s, w, len);
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

/* A scanned number as a double: the fraction's digits (the first 18) as one integer divided by a
 * power of ten, so that "0.3" is the double nearest 0.3, as a C literal would be. */
static double number_value(const struct number *n)
{
    uint64_t frac = 0, div = 1;
    for (size_t i = 0; i < n->n_frac && i < 18; i++) {
        frac = frac * 10 + (uint64_t)(n->frac[i] - '0');
        div *= 10;
    }
    return (double)n->whole + (double)frac / (double)div;
}

/* The multiplier of a size suffix, or 0 if the suffix is not one.
 *
 * fio with kb_base=1024 (its default): k, m, g, t, p are powers of 1024, an optional trailing
 * b/B is ignored ("4kb"), case does not matter, and a lone "b" means bytes.
 * Differs from fio: fio, for compatibility with old scripts, reads the IEC forms the opposite way
 * ("4KiB" = 4000 and "1MiB" = 10^6 under kb_base=1024, see fio's HOWTO on kb_base). We read
 * ki/kib ... pi/pib as powers of 1024, as everywhere else in ssdsim (model files say "64GiB"),
 * so that one spelling means one size throughout the tool. Job files, which fio reads too, refuse
 * the IEC forms instead (ssdsim__fio_check_jobfile_value).
 * Differs from fio: fio matches suffixes by prefix ("4kfoo" is 4k); we require the whole suffix. */
static uint64_t size_mult(const char *s, size_t len)
{
    static const char prefixes[] = "kmgtp";
    if (len == 0 || ssdsim__fio_word_eq(s, len, "b"))
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
    ssdsim__fio_trim(&s, &len);
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
    ssdsim__fio_trim(&s, &len);
    struct ssdsim__fio_quoted q = ssdsim__fio_quote(s, len);
    switch (st) {
    case NUM_NEGATIVE:
        return ssdsim__fio_fail(errbuf, errlen, "a size cannot be negative, got '%s'", q.text);
    case NUM_OVERFLOW:
        return ssdsim__fio_fail(errbuf, errlen, "size '%s' is too large (more than 64 bits)",
                                q.text);
    case NUM_FRAC_NOUNIT:
        return ssdsim__fio_fail(errbuf, errlen,
                                "a fraction of a byte is not a size: give a unit as in 1.5m, "
                                "got '%s'",
                                q.text);
    default:
        return ssdsim__fio_fail(errbuf, errlen, "expected a size like 4k or 1m, got '%s'", q.text);
    }
}

int ssdsim__fio_parse_size(const char *s, uint64_t *out, char *errbuf, size_t errlen)
{
    if (!s)
        return ssdsim__fio_fail(errbuf, errlen, "expected a size like 4k or 1m, got nothing");
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
        if (ssdsim__fio_word_eq(s, len, units[i].word))
            return units[i].ns;
    return 0;
}

int ssdsim__fio_parse_time_ns(const char *s, uint64_t default_unit_ns, uint64_t *out, char *errbuf,
                              size_t errlen)
{
    if (!s)
        return ssdsim__fio_fail(errbuf, errlen, "expected a time like 10s or 500ms, got nothing");
    size_t len = strlen(s);
    const char *p = s;
    ssdsim__fio_trim(&p, &len);
    const char *end = p + len;
    struct ssdsim__fio_quoted q = ssdsim__fio_quote(p, len);
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
        return ssdsim__fio_fail(errbuf, errlen, "a time cannot be negative, got '%s'", q.text);
    case NUM_OVERFLOW:
        return ssdsim__fio_fail(errbuf, errlen, "time '%s' is too long (more than 2^64 ns)",
                                q.text);
    default:
        return ssdsim__fio_fail(
            errbuf, errlen,
            "expected a time like 10s or 500ms (units ns, us, ms, s, m, h, d), got '%s'", q.text);
    }
}

/* A whole number for an integer option, with fio's integer syntax (FIO_OPT_INT goes through the
 * same parser as sizes, so "iodepth=1k" is 1024 in fio too), checked against [min, max]. */
int ssdsim__fio_parse_uint(const char *s, uint64_t min, uint64_t max, uint64_t *out, char *errbuf,
                           size_t errlen)
{
    size_t len = strlen(s);
    uint64_t v = 0;
    enum num_status st = parse_size_range(s, len, &v);
    const char *p = s;
    ssdsim__fio_trim(&p, &len);
    struct ssdsim__fio_quoted q = ssdsim__fio_quote(p, len);
    if (st != NUM_OK || v < min || v > max) {
        if (max == UINT64_MAX)
            return ssdsim__fio_fail(errbuf, errlen, "expected an integer >= %llu, got '%s'",
                                    (unsigned long long)min, q.text);
        return ssdsim__fio_fail(errbuf, errlen, "expected an integer in [%llu, %llu], got '%s'",
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
    ssdsim__fio_trim(&s, &len);
    *is_percent = len > 0 && s[len - 1] == '%';
    if (!*is_percent)
        return 0;
    struct number n;
    enum num_status st = scan_number(s, s + len - 1, &n);
    if (st != NUM_OK || n.rest != s + len - 1 || (s[0] == '0' && len > 2 && s[1] == 'x')) {
        struct ssdsim__fio_quoted q = ssdsim__fio_quote(s, len);
        return ssdsim__fio_fail(errbuf, errlen, "expected a percentage like 50%%, got '%s'",
                                q.text);
    }
    /* Exact enough: percentages are resolved against the device size to 512-byte sectors. */
    *pct = number_value(&n);
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
 * entries are errors (fio uses atoi, clamps at 100 and stops at an empty entry); a split whose
 * every entry says "/0" is an error (fio shares 100% among them: more likely a mistake than a
 * way to write equal shares, which entries without a percentage say); entries keep the order
 * written (fio sorts them by percentage, which does not change the distribution). */
int ssdsim__fio_parse_bssplit(const char *s, struct ssdsim__bs_entry *out, uint32_t *n_out,
                              char *errbuf, size_t errlen)
{
    if (!s)
        return ssdsim__fio_fail(errbuf, errlen,
                                "expected a block size split like 4k/50:64k/50, got nothing");
    /* One direction at a time: opt_bssplit splits "4k/50:8k/50,16k/100" at the commas. */
    if (strchr(s, ','))
        return ssdsim__fio_fail(errbuf, errlen,
                                "a bssplit part cannot hold ',' (it separates directions)");

    struct ssdsim__bs_entry entries[SSDSIM__BSSPLIT_MAX];
    bool blank[SSDSIM__BSSPLIT_MAX];
    uint32_t n = 0, n_blank = 0, n_zero = 0, total = 0;
    const char *p = s;
    for (;;) {
        const char *colon = strchr(p, ':');
        size_t len = colon ? (size_t)(colon - p) : strlen(p);
        const char *e = p;
        ssdsim__fio_trim(&e, &len);
        if (len == 0)
            return ssdsim__fio_fail(errbuf, errlen, "bssplit entry %u is empty", n + 1);
        if (n == SSDSIM__BSSPLIT_MAX)
            return ssdsim__fio_fail(errbuf, errlen, "bssplit has more than %d entries",
                                    SSDSIM__BSSPLIT_MAX);

        const char *slash = memchr(e, '/', len);
        size_t size_len = slash ? (size_t)(slash - e) : len;
        uint64_t bytes = 0;
        enum num_status st = parse_size_range(e, size_len, &bytes);
        if (st != NUM_OK) {
            char why[160];
            size_error(st, e, size_len, why, sizeof why);
            return ssdsim__fio_fail(errbuf, errlen, "bssplit entry %u: %s", n + 1, why);
        }
        struct ssdsim__fio_quoted qs = ssdsim__fio_quote(e, size_len);
        if (bytes == 0 || bytes % 512 != 0 || bytes > BS_MAX_BYTES)
            return ssdsim__fio_fail(
                errbuf, errlen,
                "bssplit entry %u: block size must be a non-zero multiple of 512 up to "
                "%u, got '%s'",
                n + 1, BS_MAX_BYTES, qs.text);

        uint32_t pct = 0;
        if (slash) {
            const char *ps = slash + 1;
            size_t plen = len - size_len - 1;
            ssdsim__fio_trim(&ps, &plen);
            struct ssdsim__fio_quoted qp = ssdsim__fio_quote(ps, plen);
            uint64_t v = 0;
            for (size_t i = 0; i < plen; i++) {
                if (!isdigit((unsigned char)ps[i]) || v > 100)
                    return ssdsim__fio_fail(
                        errbuf, errlen,
                        "bssplit entry %u: expected a whole percentage in [0, 100], "
                        "got '%s'",
                        n + 1, qp.text);
                v = v * 10 + (uint64_t)(ps[i] - '0');
            }
            if (v > 100)
                return ssdsim__fio_fail(
                    errbuf, errlen,
                    "bssplit entry %u: expected a whole percentage in [0, 100], got "
                    "'%s'",
                    n + 1, qp.text);
            pct = (uint32_t)v;
            n_zero += pct == 0 && plen > 0; /* "64k/" is blank, as "64k" */
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

    if (n_zero == n)
        return ssdsim__fio_fail(
            errbuf, errlen,
            "bssplit percentages are all 0: give the entries shares that add up to 100 "
            "(entries without a percentage share what is left equally)");
    if (total > 100)
        return ssdsim__fio_fail(errbuf, errlen, "bssplit percentages add up to %u, more than 100",
                                total);
    if (n_blank == 0 && total != 100)
        return ssdsim__fio_fail(errbuf, errlen, "bssplit percentages add up to %u, not 100", total);
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
/* Pieces of values shared by several options                                                  */

/* A trimmed, NUL-terminated copy of [s, s + len) in dst[SSDSIM__FIO_PART_MAX]; false when it does
 * not fit. */
bool ssdsim__fio_copy_part(char *dst, const char *s, size_t len)
{
    ssdsim__fio_trim(&s, &len);
    if (len >= SSDSIM__FIO_PART_MAX)
        return false;
    memcpy(dst, s, len);
    dst[len] = '\0';
    return true;
}

int ssdsim__fio_split_dirs(const char *value, struct ssdsim__fio_dirs *dirs, char *errbuf,
                           size_t errlen)
{
    const char *start[SSDSIM__N_DIRS];
    size_t len[SSDSIM__N_DIRS];
    uint32_t n = 0;
    for (const char *p = value;;) {
        const char *comma = strchr(p, ',');
        if (n == SSDSIM__N_DIRS) {
            struct ssdsim__fio_quoted q = ssdsim__fio_quote(value, strlen(value));
            return ssdsim__fio_fail(
                errbuf, errlen,
                "expected at most three comma-separated values (read,write,trim), got "
                "'%s'",
                q.text);
        }
        start[n] = p;
        len[n] = comma ? (size_t)(comma - p) : strlen(p);
        n++;
        if (!comma)
            break;
        p = comma + 1;
    }
    for (uint32_t d = 0; d < SSDSIM__N_DIRS; d++) {
        dirs->set[d] = false;
        dirs->part[d][0] = '\0';
    }
    for (uint32_t i = 0; i < n; i++) {
        if (!ssdsim__fio_copy_part(dirs->part[i], start[i], len[i]))
            return ssdsim__fio_fail(errbuf, errlen,
                                    "value too long (more than %d bytes for one direction)",
                                    SSDSIM__FIO_PART_MAX - 1);
        dirs->set[i] = dirs->part[i][0] != '\0';
    }
    if (dirs->set[n - 1])
        for (uint32_t d = n; d < SSDSIM__N_DIRS; d++) {
            memcpy(dirs->part[d], dirs->part[n - 1], strlen(dirs->part[n - 1]) + 1);
            dirs->set[d] = true;
        }
    return 0;
}

int ssdsim__fio_split_named(const char *value, struct ssdsim__fio_named *nv, char *errbuf,
                            size_t errlen)
{
    if (!ssdsim__fio_copy_part(nv->text, value, strlen(value)))
        return ssdsim__fio_fail(errbuf, errlen, "value too long");
    size_t len = strlen(nv->text);
    const char *colon = strchr(nv->text, ':');
    nv->name_len = colon ? (size_t)(colon - nv->text) : len;
    nv->param = colon ? colon + 1 : NULL;
    nv->q = ssdsim__fio_quote(nv->text, len);
    return 0;
}

/* Whether direction d must be parsed: the ones given, or the first when none is (so that "bs="
 * or "bs=," fails with the option's own message about the empty value). */
bool ssdsim__fio_dir_used(const struct ssdsim__fio_dirs *dirs, int d)
{
    if (dirs->set[d])
        return true;
    return d == 0 && !dirs->set[0] && !dirs->set[1] && !dirs->set[2];
}

int ssdsim__fio_parse_dir_values(const char *value, enum ssdsim__fio_dir_kind kind, uint64_t min,
                                 uint64_t max, struct ssdsim__fio_dir_values *out, char *errbuf,
                                 size_t errlen)
{
    struct ssdsim__fio_dirs dirs;
    int rc = ssdsim__fio_split_dirs(value, &dirs, errbuf, errlen);
    for (int d = 0; d < SSDSIM__N_DIRS && rc == 0; d++) {
        uint32_t bytes = 0;
        out->set[d] = dirs.set[d];
        out->v[d] = 0;
        if (!ssdsim__fio_dir_used(&dirs, d))
            continue;
        if (kind == SSDSIM__FIO_DIR_BLOCK_SIZE) {
            rc = ssdsim__fio_parse_block_size(dirs.part[d], &bytes, errbuf, errlen);
            out->v[d] = bytes;
        } else if (kind == SSDSIM__FIO_DIR_SIZE) {
            rc = ssdsim__fio_parse_size(dirs.part[d], &out->v[d], errbuf, errlen);
        } else {
            rc = ssdsim__fio_parse_uint(dirs.part[d], min, max, &out->v[d], errbuf, errlen);
        }
    }
    return rc;
}

/* A whole number with fio's integer syntax, without a message (for callers with their own). */
bool ssdsim__fio_uint_ok(const char *s, uint64_t *out)
{
    uint64_t v = 0;
    if (parse_size_range(s, strlen(s), &v) != NUM_OK)
        return false;
    *out = v;
    return true;
}

/* A non-negative decimal number ("1.2", "0.25", "10"), without exponent or sign, read without the
 * C library so that no locale changes the decimal point. */
bool ssdsim__fio_decimal_ok(const char *s, size_t len, double *out)
{
    ssdsim__fio_trim(&s, &len);
    struct number n;
    if (len == 0 || scan_number(s, s + len, &n) != NUM_OK || n.rest != s + len ||
        (len > 1 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')))
        return false;
    *out = number_value(&n);
    return true;
}

/* A block size: a non-zero multiple of 512 that a bs entry can hold. */
int ssdsim__fio_parse_block_size(const char *s, uint32_t *out, char *errbuf, size_t errlen)
{
    uint64_t bytes = 0;
    int rc = ssdsim__fio_parse_size(s, &bytes, errbuf, errlen);
    if (rc) {
        if (s[0] && strpbrk(s + 1, "-:")) {
            struct ssdsim__fio_quoted q = ssdsim__fio_quote(s, strlen(s));
            return ssdsim__fio_fail(
                errbuf, errlen,
                "expected a size like 4k or 1m, got '%s' (a range of sizes is bsrange)", q.text);
        }
        return rc;
    }
    if (bytes == 0 || bytes % 512 != 0 || bytes > BS_MAX_BYTES)
        return ssdsim__fio_fail(errbuf, errlen,
                                "block size must be a non-zero multiple of 512 up to %u, got %llu",
                                BS_MAX_BYTES, (unsigned long long)bytes);
    *out = (uint32_t)bytes;
    return 0;
}

void ssdsim__fio_bsdist_single(struct ssdsim__bsdist *b, uint32_t bytes)
{
    memset(b, 0, sizeof *b);
    b->n = 1;
    b->e[0].bytes = bytes;
    b->e[0].percent = 100;
}

/* "N%" or a size: sets exactly one of *bytes and *pct (the other 0). */
int ssdsim__fio_size_or_percent(const char *value, uint64_t *bytes, double *pct, char *errbuf,
                                size_t errlen)
{
    bool is_pct = false;
    double p = 0;
    int rc = parse_percent(value, &is_pct, &p, errbuf, errlen);
    if (rc)
        return rc;
    if (is_pct) {
        *bytes = 0;
        *pct = p;
        return 0;
    }
    uint64_t b = 0;
    rc = ssdsim__fio_parse_size(value, &b, errbuf, errlen);
    if (rc)
        return rc;
    *bytes = b;
    *pct = 0;
    return 0;
}

/* fio's "empty or boolean" (FIO_OPT_STR_SET): no value sets the flag; an integer sets it when not
 * 0 (fio accepts any integer, "time_based=2" included). true/false are refused, as by fio. */
int ssdsim__fio_parse_flag(const char *value, bool *out, char *errbuf, size_t errlen)
{
    if (!value) {
        *out = true;
        return 0;
    }
    uint64_t v = 0;
    if (!ssdsim__fio_uint_ok(value, &v)) {
        const char *s = value;
        size_t len = strlen(s);
        ssdsim__fio_trim(&s, &len);
        struct ssdsim__fio_quoted q = ssdsim__fio_quote(s, len);
        return ssdsim__fio_fail(errbuf, errlen,
                                "expected no value, or an integer (0 = off), got '%s'", q.text);
    }
    *out = v != 0;
    return 0;
}

/* fio's bool (FIO_OPT_BOOL): a value is required, and it is 0 or 1. */
int ssdsim__fio_parse_bool(const char *value, bool *out, char *errbuf, size_t errlen)
{
    uint64_t v = 0;
    if (!value)
        return ssdsim__fio_fail(errbuf, errlen, "a value is required (0 or 1)");
    if (!ssdsim__fio_uint_ok(value, &v) || v > 1) {
        const char *s = value;
        size_t len = strlen(s);
        ssdsim__fio_trim(&s, &len);
        struct ssdsim__fio_quoted q = ssdsim__fio_quote(s, len);
        return ssdsim__fio_fail(errbuf, errlen, "expected 0 or 1, got '%s'", q.text);
    }
    *out = v == 1;
    return 0;
}
