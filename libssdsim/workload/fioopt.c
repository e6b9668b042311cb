/* fioopt.c: fio option values ("4k", "512/10:4k/60:64k/30", "50%", "10m"), the table of every
 * fio option (simulated, ignored or refused) and the checks of a job against a device.
 *
 * The JSON workload loader (workload.c) and the fio job-file reader (jobfile.c) share this file,
 * so values follow fio's syntax (HOWTO, "Parameter types" and "Job file parameters", kb_base=1024)
 * with a few deliberate differences, each marked "Differs from fio" below: fio silently accepts
 * several malformed values (atoi, strtoll and prefix matching stop at the first bad character)
 * where we report an error. Where fio and the JSON reading disagree about a well-formed value
 * ("4KiB", "1.5g"), a job file is refused rather than read differently from fio
 * (ssdsim__fio_check_jobfile_value).
 *
 * Every option fio 3.33 has is in the table: simulated (parsed into the jobspec), ignored (it
 * changes only how the host CPU issues I/O, the data written or what fio reports, so the
 * simulated device sees the same requests; accepted and listed in results), or refused with the
 * reason (it changes addresses, sizes, timing or the op mix in a way not simulated yet), except
 * for its no-op values (fsync=0). Anything else is unknown, with a "did you mean" suggestion.
 *
 * Errors are one-line reasons written into a caller buffer, without the file or the option
 * name, which the caller adds. Only the jobspec's strings are allocated.
 */
#include "config/jsonutil.h"
#include "workload/workload.h"

#include <ctype.h>
#include <stddef.h>
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
        return fail(errbuf, errlen, "expected a block size split like 4k/50:64k/50, got nothing");
    /* One direction at a time: opt_bssplit splits "4k/50:8k/50,16k/100" at the commas. */
    if (strchr(s, ','))
        return fail(errbuf, errlen, "a bssplit part cannot hold ',' (it separates directions)");

    struct ssdsim__bs_entry entries[SSDSIM__BSSPLIT_MAX];
    bool blank[SSDSIM__BSSPLIT_MAX];
    uint32_t n = 0, n_blank = 0, n_zero = 0, total = 0;
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
            n_zero += pct == 0;
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
        return fail(errbuf, errlen,
                    "bssplit percentages are all 0: give the entries shares that add up to 100 "
                    "(entries without a percentage share what is left equally)");
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
/* Pieces of values shared by several options                                                  */

/* Room for one part of a value (one direction of "bs=4k,8k", a zone list): a bssplit of 64
 * entries takes under 1,000 bytes. Parts are copied so the number parsers see a C string. */
#define PART_MAX 2048

/* A trimmed, NUL-terminated copy of [s, s + len) in dst[PART_MAX]; false when it does not fit. */
static bool copy_part(char *dst, const char *s, size_t len)
{
    trim(&s, &len);
    if (len >= PART_MAX)
        return false;
    memcpy(dst, s, len);
    dst[len] = '\0';
    return true;
}

/* fio's per-direction values, "read,write,trim" (HOWTO, bs): "bs=8k,32k" is 8k for reads and 32k
 * for writes and trims ("a value not terminated in a comma applies to subsequent types"),
 * "bs=8k,32k," leaves trims alone, "bs=,8k" leaves reads alone. set[d] says whether direction d
 * is given; a direction not given keeps what the job had (fio's default unless an earlier option
 * changed it). */
struct dirs {
    char part[SSDSIM__N_DIRS][PART_MAX];
    bool set[SSDSIM__N_DIRS];
};

static int split_dirs(const char *value, struct dirs *dirs, char *errbuf, size_t errlen)
{
    const char *start[SSDSIM__N_DIRS];
    size_t len[SSDSIM__N_DIRS];
    uint32_t n = 0;
    for (const char *p = value;;) {
        const char *comma = strchr(p, ',');
        if (n == SSDSIM__N_DIRS) {
            struct quoted q = quote(value, strlen(value));
            return fail(errbuf, errlen,
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
        if (!copy_part(dirs->part[i], start[i], len[i]))
            return fail(errbuf, errlen, "value too long (more than %d bytes for one direction)",
                        PART_MAX - 1);
        dirs->set[i] = dirs->part[i][0] != '\0';
    }
    if (dirs->set[n - 1])
        for (uint32_t d = n; d < SSDSIM__N_DIRS; d++) {
            memcpy(dirs->part[d], dirs->part[n - 1], strlen(dirs->part[n - 1]) + 1);
            dirs->set[d] = true;
        }
    return 0;
}

/* Whether direction d must be parsed: the ones given, or the first when none is (so that "bs="
 * or "bs=," fails with the option's own message about the empty value). */
static bool dir_used(const struct dirs *dirs, int d)
{
    if (dirs->set[d])
        return true;
    return d == 0 && !dirs->set[0] && !dirs->set[1] && !dirs->set[2];
}

/* A whole number with fio's integer syntax, without a message (for callers with their own). */
static bool uint_ok(const char *s, uint64_t *out)
{
    uint64_t v = 0;
    if (parse_size_range(s, strlen(s), &v) != NUM_OK)
        return false;
    *out = v;
    return true;
}

/* A non-negative decimal number ("1.2", "0.25", "10"), without exponent or sign, read without the
 * C library so that no locale changes the decimal point. */
static bool decimal_ok(const char *s, size_t len, double *out)
{
    trim(&s, &len);
    struct number n;
    if (len == 0 || scan_number(s, s + len, &n) != NUM_OK || n.rest != s + len ||
        (len > 1 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')))
        return false;
    *out = number_value(&n);
    return true;
}

/* A block size: a non-zero multiple of 512 that a bs entry can hold. */
static int parse_block_size(const char *s, uint32_t *out, char *errbuf, size_t errlen)
{
    uint64_t bytes = 0;
    int rc = ssdsim__fio_parse_size(s, &bytes, errbuf, errlen);
    if (rc) {
        if (s[0] && strpbrk(s + 1, "-:")) {
            struct quoted q = quote(s, strlen(s));
            return fail(errbuf, errlen,
                        "expected a size like 4k or 1m, got '%s' (a range of sizes is bsrange)",
                        q.text);
        }
        return rc;
    }
    if (bytes == 0 || bytes % 512 != 0 || bytes > BS_MAX_BYTES)
        return fail(errbuf, errlen,
                    "block size must be a non-zero multiple of 512 up to %u, got %llu",
                    BS_MAX_BYTES, (unsigned long long)bytes);
    *out = (uint32_t)bytes;
    return 0;
}

static void bsdist_single(struct ssdsim__bsdist *b, uint32_t bytes)
{
    memset(b, 0, sizeof *b);
    b->n = 1;
    b->e[0].bytes = bytes;
    b->e[0].percent = 100;
}

/* "N%" or a size: sets exactly one of *bytes and *pct (the other 0). */
static int size_or_percent(const char *value, uint64_t *bytes, double *pct, char *errbuf,
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
static int parse_flag(const char *value, bool *out, char *errbuf, size_t errlen)
{
    if (!value) {
        *out = true;
        return 0;
    }
    uint64_t v = 0;
    if (!uint_ok(value, &v)) {
        const char *s = value;
        size_t len = strlen(s);
        trim(&s, &len);
        struct quoted q = quote(s, len);
        return fail(errbuf, errlen, "expected no value, or an integer (0 = off), got '%s'", q.text);
    }
    *out = v != 0;
    return 0;
}

/* fio's bool (FIO_OPT_BOOL): a value is required, and it is 0 or 1. */
static int parse_bool(const char *value, bool *out, char *errbuf, size_t errlen)
{
    uint64_t v = 0;
    if (!value)
        return fail(errbuf, errlen, "a value is required (0 or 1)");
    if (!uint_ok(value, &v) || v > 1) {
        const char *s = value;
        size_t len = strlen(s);
        trim(&s, &len);
        struct quoted q = quote(s, len);
        return fail(errbuf, errlen, "expected 0 or 1, got '%s'", q.text);
    }
    *out = v == 1;
    return 0;
}

/* ------------------------------------------------------------------------------------------ */
/* The option table's row type                                                                 */

enum optclass {
    CLS_SIM,    /* parsed into the jobspec */
    CLS_IGNORE, /* accepted, no effect on a simulation, listed as ignored */
    CLS_REFUSE, /* refused with a reason, except for the values in `noop` (listed as ignored) */
};

struct optdef;
typedef int (*opt_fn)(const struct optdef *o, struct ssdsim__jobspec *job, const char *value,
                      char *errbuf, size_t errlen);

struct optdef {
    const char *name;
    const char *alias; /* fio's alias, or NULL */
    enum ssdsim__optkind kind;
    enum optclass cls;
    opt_fn apply;     /* CLS_SIM */
    size_t off;       /* field the generic setters (set_flag, set_time, ...) store into */
    uint64_t unit_ns; /* time options: the unit when none is written */
    const char *noop; /* CLS_REFUSE: values that change nothing, '|'-separated ("0", "none|0") */
    const char *why;  /* CLS_REFUSE: why, completing "not supported: " */
};

#define FIELD(job, o, type) ((type *)(void *)((char *)(job) + (o)->off))

/* ------------------------------------------------------------------------------------------ */
/* Simulated options                                                                           */

static int set_flag(const struct optdef *o, struct ssdsim__jobspec *job, const char *value,
                    char *errbuf, size_t errlen)
{
    bool b = false;
    int rc = parse_flag(value, &b, errbuf, errlen);
    if (rc == 0)
        *FIELD(job, o, bool) = b;
    return rc;
}

static int set_bool(const struct optdef *o, struct ssdsim__jobspec *job, const char *value,
                    char *errbuf, size_t errlen)
{
    bool b = false;
    int rc = parse_bool(value, &b, errbuf, errlen);
    if (rc == 0)
        *FIELD(job, o, bool) = b;
    return rc;
}

/* A time in ns, with the option's unit when none is written; 0 means "not set". */
static int set_time(const struct optdef *o, struct ssdsim__jobspec *job, const char *value,
                    char *errbuf, size_t errlen)
{
    uint64_t ns = 0;
    int rc = ssdsim__fio_parse_time_ns(value, o->unit_ns, &ns, errbuf, errlen);
    if (rc == 0)
        *FIELD(job, o, uint64_t) = ns;
    return rc;
}

/* Replace an owned string, freeing the old one; "" stores NULL when `empty_is_null`. */
static int replace_string(char **slot, const char *value, bool empty_is_null, char *errbuf,
                          size_t errlen)
{
    const char *s = value;
    size_t len = strlen(s);
    trim(&s, &len);
    char *copy = NULL;
    if (len > 0 || !empty_is_null) {
        copy = malloc(len + 1);
        if (!copy) {
            fail(errbuf, errlen, "out of memory");
            return SSDSIM_ENOMEM;
        }
        memcpy(copy, s, len);
        copy[len] = '\0';
    }
    free(*slot);
    *slot = copy;
    return 0;
}

/* name: the job's name in results (fio: "override the name printed"); "" keeps the default. */
static int opt_name(const struct optdef *o, struct ssdsim__jobspec *job, const char *value,
                    char *errbuf, size_t errlen)
{
    (void)o;
    return replace_string(&job->name, value, true, errbuf, errlen);
}

static int opt_read_iolog(const struct optdef *o, struct ssdsim__jobspec *job, const char *value,
                          char *errbuf, size_t errlen)
{
    (void)o;
    const char *s = value;
    size_t len = strlen(s);
    trim(&s, &len);
    if (len == 0)
        return fail(errbuf, errlen, "expected the name of an I/O log file, got ''");
    return replace_string(&job->read_iolog, value, false, errbuf, errlen);
}

/* write_bw_log, write_lat_log, write_iops_log: a prefix for the log files. Without a value fio
 * uses the job's name; that is stored as "" here and the job-file reader replaces it by the
 * name once the job has one (a [global] section comes before the job's name is known). */
static int set_logname(const struct optdef *o, struct ssdsim__jobspec *job, const char *value,
                       char *errbuf, size_t errlen)
{
    return replace_string(FIELD(job, o, char *), value ? value : "", false, errbuf, errlen);
}

static int opt_rw(const struct optdef *o, struct ssdsim__jobspec *job, const char *value,
                  char *errbuf, size_t errlen)
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
    size_t len = strlen(s);
    trim(&s, &len);
    /* "rw=randread:8": the modifier follows ':'. */
    const char *colon = memchr(s, ':', len);
    size_t name_len = colon ? (size_t)(colon - s) : len;
    struct quoted q = quote(s, name_len);
    for (size_t i = 0; i < SSDSIM__ARRAY_LEN(unsupported); i++)
        if (strlen(unsupported[i]) == name_len && !memcmp(s, unsupported[i], name_len))
            return fail(errbuf, errlen,
                        "rw '%s' is not supported yet (trim then write of the same blocks is not "
                        "simulated)",
                        q.text);
    /* fio matches rw values case-sensitively. Differs from fio: fio matches by prefix
     * ("randreadx" is randread); we want the whole word. */
    for (size_t i = 0; i < SSDSIM__ARRAY_LEN(modes); i++) {
        if (strlen(modes[i].name) != name_len || memcmp(s, modes[i].name, name_len))
            continue;
        uint64_t suffix = 0;
        if (colon) {
            char part[PART_MAX];
            if (!copy_part(part, colon + 1, len - name_len - 1))
                return fail(errbuf, errlen, "value too long");
            struct quoted qs = quote(part, strlen(part));
            if (modes[i].random) {
                /* fio (since 3.34; 3.33 used atoi): a count of I/Os at consecutive offsets
                 * for each random offset, 1 to 2^32 - 1. */
                if (!uint_ok(part, &suffix) || suffix == 0 || suffix > UINT32_MAX)
                    return fail(errbuf, errlen,
                                "expected the number of I/Os per random offset (1 or more) "
                                "after ':', got '%s'",
                                qs.text);
                if (suffix == 1)
                    suffix = 0; /* one I/O per random offset is no modifier at all */
            } else {
                /* A gap added after each I/O: a size. Requests address 512-byte sectors. */
                if (!uint_ok(part, &suffix) || suffix % 512 != 0)
                    return fail(errbuf, errlen,
                                "expected a gap like 4k (a multiple of 512 bytes) after ':', got "
                                "'%s'",
                                qs.text);
            }
        }
        job->rw = modes[i].rw;
        job->rw_suffix = suffix;
        return 0;
    }
    return fail(errbuf, errlen,
                "expected one of read, write, randread, randwrite, randrw, rw, readwrite, trim, "
                "randtrim, got '%s'",
                q.text);
}

static int opt_bs(const struct optdef *o, struct ssdsim__jobspec *job, const char *value,
                  char *errbuf, size_t errlen)
{
    (void)o;
    struct dirs dirs;
    uint32_t bytes[SSDSIM__N_DIRS] = {0};
    int rc = split_dirs(value, &dirs, errbuf, errlen);
    for (int d = 0; d < SSDSIM__N_DIRS && rc == 0; d++)
        if (dir_used(&dirs, d))
            rc = parse_block_size(dirs.part[d], &bytes[d], errbuf, errlen);
    if (rc)
        return rc;
    for (int d = 0; d < SSDSIM__N_DIRS; d++)
        if (dirs.set[d])
            bsdist_single(&job->bs[d], bytes[d]);
    return 0;
}

/* bsrange=1k-4k (or 1k:4k; the bounds are swapped when the first is larger, as fio does). */
static int opt_bsrange(const struct optdef *o, struct ssdsim__jobspec *job, const char *value,
                       char *errbuf, size_t errlen)
{
    (void)o;
    struct dirs dirs;
    uint32_t lo[SSDSIM__N_DIRS] = {0}, hi[SSDSIM__N_DIRS] = {0};
    int rc = split_dirs(value, &dirs, errbuf, errlen);
    if (rc)
        return rc;
    for (int d = 0; d < SSDSIM__N_DIRS; d++) {
        if (!dir_used(&dirs, d))
            continue;
        const char *s = dirs.part[d];
        const char *sep = s[0] ? strchr(s + 1, '-') : NULL;
        if (!sep)
            sep = strchr(s, ':');
        struct quoted q = quote(s, strlen(s));
        if (!sep || sep == s)
            return fail(errbuf, errlen, "expected a range of block sizes like 1k-4k, got '%s'",
                        q.text);
        char a[PART_MAX], b[PART_MAX];
        copy_part(a, s, (size_t)(sep - s));
        copy_part(b, sep + 1, strlen(sep + 1));
        rc = parse_block_size(a, &lo[d], errbuf, errlen);
        if (rc == 0)
            rc = parse_block_size(b, &hi[d], errbuf, errlen);
        if (rc)
            return rc;
        if (lo[d] > hi[d]) {
            uint32_t t = lo[d];
            lo[d] = hi[d];
            hi[d] = t;
        }
    }
    for (int d = 0; d < SSDSIM__N_DIRS; d++) {
        if (!dirs.set[d])
            continue;
        if (lo[d] == hi[d]) {
            bsdist_single(&job->bs[d], lo[d]);
        } else {
            memset(&job->bs[d], 0, sizeof job->bs[d]);
            job->bs[d].range_min = lo[d];
            job->bs[d].range_max = hi[d];
        }
    }
    return 0;
}

static int opt_bssplit(const struct optdef *o, struct ssdsim__jobspec *job, const char *value,
                       char *errbuf, size_t errlen)
{
    (void)o;
    struct dirs dirs;
    struct ssdsim__bs_entry e[SSDSIM__N_DIRS][SSDSIM__BSSPLIT_MAX];
    uint32_t n[SSDSIM__N_DIRS] = {0};
    int rc = split_dirs(value, &dirs, errbuf, errlen);
    for (int d = 0; d < SSDSIM__N_DIRS && rc == 0; d++)
        if (dir_used(&dirs, d))
            rc = ssdsim__fio_parse_bssplit(dirs.part[d], e[d], &n[d], errbuf, errlen);
    if (rc)
        return rc;
    for (int d = 0; d < SSDSIM__N_DIRS; d++) {
        if (!dirs.set[d])
            continue;
        memset(&job->bs[d], 0, sizeof job->bs[d]);
        job->bs[d].n = n[d];
        memcpy(job->bs[d].e, e[d], sizeof e[d][0] * n[d]);
    }
    return 0;
}

/* An integer per direction in [min, max] (percentage_random, rate_iops). */
static int per_dir_uint(const char *value, uint64_t min, uint64_t max, uint64_t out[], bool set[],
                        char *errbuf, size_t errlen)
{
    struct dirs dirs;
    uint64_t v[SSDSIM__N_DIRS] = {0};
    int rc = split_dirs(value, &dirs, errbuf, errlen);
    for (int d = 0; d < SSDSIM__N_DIRS && rc == 0; d++)
        if (dir_used(&dirs, d))
            rc = parse_uint(dirs.part[d], min, max, &v[d], errbuf, errlen);
    if (rc)
        return rc;
    for (int d = 0; d < SSDSIM__N_DIRS; d++) {
        set[d] = dirs.set[d];
        out[d] = v[d];
    }
    return 0;
}

static int opt_percentage_random(const struct optdef *o, struct ssdsim__jobspec *job,
                                 const char *value, char *errbuf, size_t errlen)
{
    (void)o;
    uint64_t v[SSDSIM__N_DIRS];
    bool set[SSDSIM__N_DIRS];
    int rc = per_dir_uint(value, 0, 100, v, set, errbuf, errlen);
    for (int d = 0; d < SSDSIM__N_DIRS && rc == 0; d++)
        if (set[d])
            job->percentage_random[d] = (uint32_t)v[d];
    return rc;
}

static int opt_rate_iops(const struct optdef *o, struct ssdsim__jobspec *job, const char *value,
                         char *errbuf, size_t errlen)
{
    (void)o;
    uint64_t v[SSDSIM__N_DIRS];
    bool set[SSDSIM__N_DIRS];
    int rc = per_dir_uint(value, 0, UINT64_MAX, v, set, errbuf, errlen);
    for (int d = 0; d < SSDSIM__N_DIRS && rc == 0; d++)
        if (set[d])
            job->rate_iops[d] = v[d];
    return rc;
}

/* rate=1m,500k: bytes per second per direction, fio's size syntax; 0 = unlimited. */
static int opt_rate(const struct optdef *o, struct ssdsim__jobspec *job, const char *value,
                    char *errbuf, size_t errlen)
{
    (void)o;
    struct dirs dirs;
    uint64_t v[SSDSIM__N_DIRS] = {0};
    int rc = split_dirs(value, &dirs, errbuf, errlen);
    for (int d = 0; d < SSDSIM__N_DIRS && rc == 0; d++)
        if (dir_used(&dirs, d))
            rc = ssdsim__fio_parse_size(dirs.part[d], &v[d], errbuf, errlen);
    if (rc)
        return rc;
    for (int d = 0; d < SSDSIM__N_DIRS; d++)
        if (dirs.set[d])
            job->rate_bytes[d] = v[d];
    return 0;
}

static int opt_rwmixread(const struct optdef *o, struct ssdsim__jobspec *job, const char *value,
                         char *errbuf, size_t errlen)
{
    (void)o;
    uint64_t v = 0;
    int rc = parse_uint(value, 0, 100, &v, errbuf, errlen);
    if (rc == 0)
        job->rwmixread = (uint32_t)v;
    return rc;
}

/* fio: "If both rwmixread and rwmixwrite are given and do not add up to 100%, the latter of the
 * two will be used to override the first": the last one written wins, as here. */
static int opt_rwmixwrite(const struct optdef *o, struct ssdsim__jobspec *job, const char *value,
                          char *errbuf, size_t errlen)
{
    (void)o;
    uint64_t v = 0;
    int rc = parse_uint(value, 0, 100, &v, errbuf, errlen);
    if (rc == 0)
        job->rwmixread = 100 - (uint32_t)v;
    return rc;
}

static int opt_iodepth(const struct optdef *o, struct ssdsim__jobspec *job, const char *value,
                       char *errbuf, size_t errlen)
{
    (void)o;
    uint64_t v = 0;
    int rc = parse_uint(value, 1, IODEPTH_MAX, &v, errbuf, errlen);
    if (rc == 0)
        job->iodepth = (uint32_t)v;
    return rc;
}

/* Differs from fio: fio accepts numjobs=0 (no job runs); a job that does nothing is refused. */
static int opt_numjobs(const struct optdef *o, struct ssdsim__jobspec *job, const char *value,
                       char *errbuf, size_t errlen)
{
    (void)o;
    uint64_t v = 0;
    int rc = parse_uint(value, 1, NUMJOBS_MAX, &v, errbuf, errlen);
    if (rc == 0)
        job->numjobs = (uint32_t)v;
    return rc;
}

/* fio: "loops=0" runs once, like the default of 1 (fixup_options). */
static int opt_loops(const struct optdef *o, struct ssdsim__jobspec *job, const char *value,
                     char *errbuf, size_t errlen)
{
    (void)o;
    uint64_t v = 0;
    int rc = parse_uint(value, 0, UINT32_MAX, &v, errbuf, errlen);
    if (rc == 0)
        job->loops = v ? (uint32_t)v : 1;
    return rc;
}

/* Differs from fio: fio accepts thinktime_blocks=0; the stall needs at least one I/O between. */
static int opt_thinktime_blocks(const struct optdef *o, struct ssdsim__jobspec *job,
                                const char *value, char *errbuf, size_t errlen)
{
    (void)o;
    uint64_t v = 0;
    int rc = parse_uint(value, 1, UINT32_MAX, &v, errbuf, errlen);
    if (rc == 0)
        job->thinktime_blocks = (uint32_t)v;
    return rc;
}

static int opt_log_avg_msec(const struct optdef *o, struct ssdsim__jobspec *job, const char *value,
                            char *errbuf, size_t errlen)
{
    (void)o;
    uint64_t v = 0;
    int rc = parse_uint(value, 0, UINT64_MAX / SSDSIM__NS_PER_MS, &v, errbuf, errlen);
    if (rc == 0)
        job->log_avg_msec = v;
    return rc;
}

/* number_ios=0 is fio's default: not set. */
static int opt_number_ios(const struct optdef *o, struct ssdsim__jobspec *job, const char *value,
                          char *errbuf, size_t errlen)
{
    (void)o;
    uint64_t v = 0;
    int rc = parse_uint(value, 0, UINT64_MAX, &v, errbuf, errlen);
    if (rc == 0)
        job->number_ios = v;
    return rc;
}

/* Differs from fio: fio reads randseed with strtoll, so "12abc" is 12 and "-5" wraps around. */
static int opt_randseed(const struct optdef *o, struct ssdsim__jobspec *job, const char *value,
                        char *errbuf, size_t errlen)
{
    (void)o;
    uint64_t v = 0;
    int rc = parse_uint(value, 0, UINT64_MAX, &v, errbuf, errlen);
    if (rc == 0) {
        job->randseed = v;
        job->has_randseed = true;
    }
    return rc;
}

/* size: bytes (0 = to the end of the device) or a percentage in (0, 100] of the device. */
static int opt_size(const struct optdef *o, struct ssdsim__jobspec *job, const char *value,
                    char *errbuf, size_t errlen)
{
    (void)o;
    uint64_t bytes = 0;
    double pct = 0;
    int rc = size_or_percent(value, &bytes, &pct, errbuf, errlen);
    if (rc)
        return rc;
    if (bytes == 0 && (pct != 0 || strchr(value, '%')) && !(pct > 0 && pct <= 100))
        return fail(errbuf, errlen, "a size percentage must be in (0, 100], got %g%%", pct);
    /* Requests address 512-byte sectors, so a region must end on one. Differs from fio, which
     * rounds the size down to the block size. */
    if (bytes % 512 != 0)
        return fail(errbuf, errlen, "size must be a multiple of 512 bytes, got %llu",
                    (unsigned long long)bytes);
    job->size_bytes = bytes;
    job->size_percent = pct;
    return 0;
}

/* offset and offset_increment: bytes, a multiple of 512, or a percentage in [0, 100). */
static int offset_value(const char *value, const char *what, uint64_t *bytes, double *pct,
                        char *errbuf, size_t errlen)
{
    int rc = size_or_percent(value, bytes, pct, errbuf, errlen);
    if (rc)
        return rc;
    if (*pct != 0 && !(*pct >= 0 && *pct < 100))
        return fail(errbuf, errlen, "%s percentage must be in [0, 100), got %g%%", what, *pct);
    /* Requests address 512-byte sectors, so a region must start on one. */
    if (*bytes % 512 != 0)
        return fail(errbuf, errlen, "%s must be a multiple of 512 bytes, got %llu", what + 3,
                    (unsigned long long)*bytes);
    return 0;
}

static int opt_offset(const struct optdef *o, struct ssdsim__jobspec *job, const char *value,
                      char *errbuf, size_t errlen)
{
    (void)o;
    uint64_t bytes = 0;
    double pct = 0;
    int rc = offset_value(value, "an offset", &bytes, &pct, errbuf, errlen);
    if (rc == 0) {
        job->offset_bytes = bytes;
        job->offset_percent = pct;
    }
    return rc;
}

static int opt_offset_increment(const struct optdef *o, struct ssdsim__jobspec *job,
                                const char *value, char *errbuf, size_t errlen)
{
    (void)o;
    uint64_t bytes = 0;
    double pct = 0;
    int rc = offset_value(value, "an offset_increment", &bytes, &pct, errbuf, errlen);
    if (rc == 0) {
        job->offset_increment_bytes = bytes;
        job->offset_increment_percent = pct;
    }
    return rc;
}

/* io_size (io_limit): bytes of I/O per job, or a percentage of the device; 0 = not set. More
 * than the region is allowed (the job wraps around it), so percentages may exceed 100. */
static int opt_io_size(const struct optdef *o, struct ssdsim__jobspec *job, const char *value,
                       char *errbuf, size_t errlen)
{
    (void)o;
    uint64_t bytes = 0;
    double pct = 0;
    int rc = size_or_percent(value, &bytes, &pct, errbuf, errlen);
    if (rc)
        return rc;
    if (bytes == 0 && strchr(value, '%') && !(pct > 0 && pct <= 1e6))
        return fail(errbuf, errlen, "an io_size percentage must be in (0, 1000000], got %g%%", pct);
    job->io_size_bytes = bytes;
    job->io_size_percent = pct;
    return 0;
}

static int opt_rate_process(const struct optdef *o, struct ssdsim__jobspec *job, const char *value,
                            char *errbuf, size_t errlen)
{
    (void)o;
    const char *s = value;
    size_t len = strlen(s);
    trim(&s, &len);
    if (len == 6 && !memcmp(s, "linear", 6))
        job->rate_process = SSDSIM__RATE_LINEAR;
    else if (len == 7 && !memcmp(s, "poisson", 7))
        job->rate_process = SSDSIM__RATE_POISSON;
    else {
        struct quoted q = quote(s, len);
        return fail(errbuf, errlen, "expected linear or poisson, got '%s'", q.text);
    }
    return 0;
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
    struct quoted ql = quote(list, strlen(list));
    for (;;) {
        const char *colon = strchr(p, ':');
        size_t len = colon ? (size_t)(colon - p) : strlen(p);
        if (n == SSDSIM__ZONES_MAX)
            return fail(errbuf, errlen, "more than %d zones", SSDSIM__ZONES_MAX);
        const char *slash = memchr(p, '/', len);
        char a[PART_MAX], r[PART_MAX];
        uint64_t av = 0, rv = 0;
        bool ok = slash && copy_part(a, p, (size_t)(slash - p)) &&
                  copy_part(r, slash + 1, len - (size_t)(slash - p) - 1) && uint_ok(a, &av) &&
                  av <= 100;
        if (ok && absolute)
            ok = uint_ok(r, &rv) && rv > 0 && rv % 512 == 0;
        else if (ok)
            ok = uint_ok(r, &rv) && rv >= 1 && rv <= 100;
        if (!ok)
            return fail(errbuf, errlen,
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
        return fail(errbuf, errlen, "zone accesses must sum to 100, got %u in '%s'", sum_a,
                    ql.text);
    if (!absolute && sum_r > 100)
        return fail(errbuf, errlen, "zone ranges must sum to at most 100, got %llu in '%s'",
                    (unsigned long long)sum_r, ql.text);
    out->n_zones = n;
    return 0;
}

/* random_distribution: random | zipf[:theta] | pareto[:h] | normal[:dev] | zoned:... |
 * zoned_abs:... (HOWTO; ranges and defaults from fio's str_random_distribution_cb: theta 1.1,
 * h 0.2, dev 0). fio checks theta != 1, 0 < h < 1 and 0 <= dev < 100.
 * Differs from fio: theta must also be > 0 (fio takes zipf:0 and zipf:-1, which are no zipf
 * distribution); the optional center ("zipf:1.2:0.25") is refused, as are per-direction zone
 * lists ("zoned:...,..."), which fio 3.33 refuses too. */
static int opt_random_distribution(const struct optdef *o, struct ssdsim__jobspec *job,
                                   const char *value, char *errbuf, size_t errlen)
{
    (void)o;
    char v[PART_MAX];
    if (!copy_part(v, value, strlen(value)))
        return fail(errbuf, errlen, "value too long");
    struct quoted q = quote(v, strlen(v));
    char *colon = strchr(v, ':');
    size_t name_len = colon ? (size_t)(colon - v) : strlen(v);
    const char *param = colon ? colon + 1 : NULL;
    struct ssdsim__jobspec z; /* zones are parsed here first: a failure changes nothing */

    if (name_len == 6 && !memcmp(v, "random", 6) && !colon) {
        job->dist = SSDSIM__DIST_RANDOM;
        job->dist_param = 0;
        job->n_zones = 0;
        return 0;
    }
    if ((name_len == 5 && !memcmp(v, "zoned", 5)) ||
        (name_len == 9 && !memcmp(v, "zoned_abs", 9))) {
        bool absolute = name_len == 9;
        if (!param || !*param)
            return fail(errbuf, errlen, "expected %s:ACCESS/%s:..., got '%s'",
                        absolute ? "zoned_abs" : "zoned", absolute ? "SIZE" : "RANGE", q.text);
        if (strchr(param, ','))
            return fail(errbuf, errlen,
                        "per-direction zones (',') are not supported: give one zone list for all "
                        "directions");
        int rc = parse_zones(param, absolute, &z, errbuf, errlen);
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
        if (strlen(param_dists[i].name) != name_len || memcmp(v, param_dists[i].name, name_len))
            continue;
        double x = param_dists[i].def;
        if (param) {
            if (strchr(param, ':'))
                return fail(errbuf, errlen, "a distribution center ('%s') is not supported yet",
                            q.text);
            if (!decimal_ok(param, strlen(param), &x))
                return fail(errbuf, errlen, "expected %s:NUMBER like %s:%g, got '%s'",
                            param_dists[i].name, param_dists[i].name,
                            param_dists[i].def ? param_dists[i].def : 10.0, q.text);
        }
        switch (param_dists[i].dist) {
        case SSDSIM__DIST_ZIPF:
            if (!(x > 0) || x == 1.0)
                return fail(errbuf, errlen, "zipf theta must be greater than 0 and not 1, got %g",
                            x);
            break;
        case SSDSIM__DIST_PARETO:
            if (!(x > 0 && x < 1))
                return fail(errbuf, errlen, "pareto h must be in (0, 1), got %g", x);
            break;
        default:
            if (!(x >= 0 && x < 100))
                return fail(errbuf, errlen,
                            "normal deviation must be in [0, 100) percent of the region, got %g",
                            x);
            break;
        }
        job->dist = param_dists[i].dist;
        job->dist_param = x;
        job->n_zones = 0;
        return 0;
    }
    return fail(errbuf, errlen,
                "expected random, zipf:THETA, pareto:H, normal:DEV, zoned:A/R:... or "
                "zoned_abs:A/SIZE:..., got '%s'",
                q.text);
}

/* ss (steadystate)=CRITERION:LIMIT: iops, iops_slope, bw or bw_slope; the limit is a percentage
 * of the window's mean ("0.1%"), or a number: IOPS for the iops criteria, bytes per second in
 * fio's size syntax for the bw ones (fio's str_steadystate_cb). fio requires the limit. */
static int opt_ss(const struct optdef *o, struct ssdsim__jobspec *job, const char *value,
                  char *errbuf, size_t errlen)
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
    char v[PART_MAX];
    if (!copy_part(v, value, strlen(value)))
        return fail(errbuf, errlen, "value too long");
    struct quoted q = quote(v, strlen(v));
    char *colon = strchr(v, ':');
    size_t name_len = colon ? (size_t)(colon - v) : strlen(v);
    for (size_t i = 0; i < SSDSIM__ARRAY_LEN(crit); i++) {
        if (strlen(crit[i].name) != name_len || memcmp(v, crit[i].name, name_len))
            continue;
        if (!colon || !colon[1])
            return fail(errbuf, errlen,
                        "the steady-state criterion needs a limit, as in %s:1%%, got '%s'",
                        crit[i].name, q.text);
        const char *lim = colon + 1;
        size_t len = strlen(lim);
        double x = 0;
        bool pct = false, ok;
        trim(&lim, &len);
        if (len > 0 && lim[len - 1] == '%') {
            pct = true;
            ok = decimal_ok(lim, len - 1, &x);
        } else if (crit[i].bw) {
            uint64_t b = 0;
            char part[PART_MAX];
            ok = copy_part(part, lim, len) && uint_ok(part, &b);
            x = (double)b;
        } else {
            ok = decimal_ok(lim, len, &x);
        }
        if (!ok)
            return fail(errbuf, errlen, "expected a limit like %s:1%% or %s:%s after ':', got '%s'",
                        crit[i].name, crit[i].name, crit[i].bw ? "10m" : "100", q.text);
        job->ss = crit[i].ss;
        job->ss_limit = x;
        job->ss_limit_percent = pct;
        return 0;
    }
    return fail(errbuf, errlen, "expected iops, iops_slope, bw or bw_slope with a limit, got '%s'",
                q.text);
}

/* ------------------------------------------------------------------------------------------ */
/* The table of fio options                                                                    */

/* One short macro per kind of row keeps each option on one line of the table. */
/* clang-format off */
#define K(k) SSDSIM__OPTKIND_##k
#define SIM(n, a, k, fn) {n, a, K(k), CLS_SIM, fn, 0, 0, NULL, NULL}
#define SIMF(n, a, k, fn, field) \
    {n, a, K(k), CLS_SIM, fn, offsetof(struct ssdsim__jobspec, field), 0, NULL, NULL}
#define SIMT(n, a, field, unit) \
    {n, a, K(TIME), CLS_SIM, set_time, offsetof(struct ssdsim__jobspec, field), unit, NULL, NULL}
#define IGN(n, a, k) {n, a, K(k), CLS_IGNORE, NULL, 0, 0, NULL, NULL}
#define REF(n, a, k, noop, why) {n, a, K(k), CLS_REFUSE, NULL, 0, 0, noop, why}
/* clang-format on */

/* Every option of fio 3.33 (fio --cmdhelp=all, with the aliases of its HOWTO) and the common
 * I/O-engine options. A linear search: options are applied while loading, never while
 * simulating. Names and aliases are case-sensitive, as in fio. */
static const struct optdef options[] = {
    /* ---- Simulated: parsed into the jobspec (workload.h says what each field means). */
    SIM("rw", "readwrite", SIZE, opt_rw),
    SIM("bs", "blocksize", SIZE, opt_bs),
    SIM("bsrange", "blocksize_range", SIZE, opt_bsrange),
    SIM("bssplit", NULL, SIZE, opt_bssplit),
    SIM("rwmixread", NULL, INT, opt_rwmixread),
    SIM("rwmixwrite", NULL, INT, opt_rwmixwrite),
    SIM("iodepth", NULL, INT, opt_iodepth),
    SIM("numjobs", NULL, INT, opt_numjobs),
    SIM("size", NULL, SIZE, opt_size),
    SIM("offset", "fileoffset", SIZE, opt_offset),
    SIM("offset_increment", NULL, SIZE, opt_offset_increment),
    SIM("io_size", "io_limit", SIZE, opt_io_size),
    SIM("number_ios", NULL, INT, opt_number_ios),
    SIM("loops", NULL, INT, opt_loops),
    SIMT("runtime", "timeout", runtime_ns, SSDSIM__NS_PER_S),
    SIMF("time_based", NULL, FLAG, set_flag, time_based),
    SIMT("ramp_time", NULL, ramp_time_ns, SSDSIM__NS_PER_S),
    SIM("random_distribution", NULL, MIXED, opt_random_distribution),
    SIM("percentage_random", NULL, INT, opt_percentage_random),
    SIMF("norandommap", NULL, FLAG, set_flag, norandommap),
    SIMF("randrepeat", NULL, BOOL, set_bool, randrepeat),
    SIM("randseed", NULL, INT, opt_randseed),
    SIMT("thinktime", NULL, thinktime_ns, SSDSIM__NS_PER_US), /* microseconds by default */
    SIM("thinktime_blocks", NULL, INT, opt_thinktime_blocks),
    SIM("rate_iops", NULL, INT, opt_rate_iops),
    SIM("rate", NULL, SIZE, opt_rate),
    SIM("rate_process", NULL, STR, opt_rate_process),
    SIMF("stonewall", "wait_for_previous", FLAG, set_flag, stonewall),
    SIMF("new_group", NULL, FLAG, set_flag, new_group),
    SIMF("group_reporting", NULL, FLAG, set_flag, group_reporting),
    SIM("steadystate", "ss", MIXED, opt_ss),
    SIMT("steadystate_duration", "ss_dur", ss_dur_ns, SSDSIM__NS_PER_S),
    SIMT("steadystate_ramp_time", "ss_ramp", ss_ramp_ns, SSDSIM__NS_PER_S),
    SIM("read_iolog", NULL, STR, opt_read_iolog),
    SIMF("replay_no_stall", NULL, BOOL, set_bool, replay_no_stall),
    SIMF("write_iops_log", NULL, LOGNAME, set_logname, write_iops_log),
    SIMF("write_lat_log", NULL, LOGNAME, set_logname, write_lat_log),
    SIMF("write_bw_log", NULL, LOGNAME, set_logname, write_bw_log),
    SIM("log_avg_msec", NULL, INT, opt_log_avg_msec),
    SIM("name", NULL, STR, opt_name),

    /* ---- Ignored: the simulated device sees the same requests either way. */
    /* What fio's results print, not what is measured. */
    IGN("description", NULL, STR),
    /* Which file or device fio opens, and how: ssdsim simulates its one device. (A synchronous
     * engine keeps one I/O in flight whatever iodepth says; doc/fio.md tells to set iodepth=1.) */
    IGN("filename", NULL, STR),
    IGN("directory", NULL, STR),
    IGN("filename_format", NULL, STR),
    IGN("unique_filename", NULL, BOOL),
    IGN("ioengine", NULL, STR),
    IGN("thread", NULL, FLAG),
    IGN("file_service_type", NULL, STR),
    IGN("openfiles", NULL, INT),
    /* Host operating system and page cache: ssdsim has no OS between job and device. */
    IGN("direct", NULL, BOOL),
    IGN("buffered", NULL, BOOL),
    IGN("atomic", NULL, BOOL),
    IGN("invalidate", NULL, BOOL),
    IGN("fadvise_hint", NULL, STR),
    IGN("write_hint", NULL, STR),
    IGN("ioscheduler", NULL, STR),
    IGN("fallocate", NULL, STR),
    IGN("overwrite", NULL, BOOL),
    IGN("create_serialize", NULL, BOOL),
    IGN("create_fsync", NULL, BOOL),
    IGN("create_on_open", NULL, BOOL),
    IGN("allow_file_create", NULL, BOOL),
    IGN("allow_mounted_write", NULL, BOOL),
    IGN("unlink", NULL, BOOL),
    IGN("unlink_each_loop", NULL, BOOL),
    /* Host CPU, memory and process placement. */
    IGN("cpumask", NULL, INT),
    IGN("cpus_allowed", NULL, STR),
    IGN("cpus_allowed_policy", NULL, STR),
    IGN("numa_cpu_nodes", NULL, STR),
    IGN("numa_mem_policy", NULL, STR),
    IGN("nice", NULL, STR), /* STR: fio's range is -20..19 */
    IGN("prio", NULL, INT),
    IGN("prioclass", NULL, INT),
    IGN("cgroup", NULL, STR),
    IGN("cgroup_nodelete", NULL, BOOL),
    IGN("cgroup_weight", NULL, INT),
    IGN("uid", NULL, INT),
    IGN("gid", NULL, INT),
    IGN("lockmem", NULL, STR),
    IGN("mem", "iomem", STR),
    IGN("hugepage-size", NULL, INT),
    IGN("gtod_cpu", NULL, INT),
    IGN("gtod_reduce", NULL, BOOL),
    IGN("clocksource", NULL, STR),
    IGN("exec_prerun", NULL, STR), /* a command fio runs; ssdsim runs none (doc/fio.md) */
    IGN("exec_postrun", NULL, STR),
    /* How submissions and completions are batched in system calls: CPU work, same requests. */
    IGN("iodepth_batch", "iodepth_batch_submit", INT),
    IGN("iodepth_batch_complete_max", NULL, INT),
    IGN("userspace_reap", NULL, FLAG), /* libaio */
    IGN("hipri", NULL, FLAG),          /* io_uring: polled completions */
    IGN("sqthread_poll", NULL, FLAG),
    IGN("sqthread_poll_cpu", NULL, INT),
    IGN("fixedbufs", NULL, FLAG),
    IGN("registerfiles", NULL, FLAG),
    IGN("nonvectored", NULL, INT),
    IGN("uncached", NULL, INT),
    IGN("nowait", NULL, BOOL),
    IGN("force_async", NULL, INT),
    IGN("thinktime_spin", NULL, TIME), /* part of the thinktime stall, which lasts as long */
    /* Data content: the simulated flash stores no data (no compression or deduplication). */
    IGN("zero_buffers", NULL, FLAG),
    IGN("refill_buffers", NULL, FLAG),
    IGN("scramble_buffers", NULL, BOOL),
    IGN("buffer_pattern", NULL, STR),
    IGN("buffer_compress_percentage", NULL, INT),
    IGN("buffer_compress_chunk", NULL, INT),
    IGN("dedupe_percentage", NULL, INT),
    IGN("dedupe_mode", NULL, STR),
    IGN("dedupe_working_set_percentage", NULL, INT),
    IGN("dedupe_global", NULL, BOOL),
    /* Random numbers: ssdsim draws from its own seeded streams and is always repeatable. */
    IGN("random_generator", NULL, STR),
    IGN("allrandrepeat", NULL, BOOL),
    IGN("softrandommap", NULL, BOOL),
    /* Verification settings only act with verify, which is refused unless 0. */
    IGN("do_verify", NULL, BOOL),
    IGN("verify_interval", NULL, INT),
    IGN("verify_offset", NULL, INT),
    IGN("verify_pattern", NULL, STR),
    IGN("verify_fatal", NULL, BOOL),
    IGN("verify_dump", NULL, BOOL),
    IGN("verify_async", NULL, INT),
    IGN("verify_backlog_batch", NULL, INT),
    IGN("experimental_verify", NULL, BOOL),
    IGN("verify_state_load", NULL, BOOL),
    IGN("verify_state_save", NULL, BOOL),
    IGN("trim_verify_zero", NULL, BOOL),
    IGN("trim_backlog_batch", NULL, INT),
    /* Zoned block devices: these act only with zonemode=zbd, which is refused. */
    IGN("read_beyond_wp", NULL, BOOL),
    IGN("max_open_zones", NULL, INT),
    IGN("job_max_open_zones", NULL, INT),
    IGN("ignore_zone_limits", NULL, BOOL),
    IGN("zone_reset_threshold", NULL, MIXED),
    IGN("zone_reset_frequency", NULL, MIXED),
    /* Errors: a simulated request never fails. */
    IGN("continue_on_error", NULL, STR),
    IGN("ignore_error", NULL, STR),
    IGN("error_dump", NULL, BOOL),
    IGN("exitall_on_error", NULL, FLAG),
    IGN("exit_what", NULL, STR), /* acts only with exitall, which is refused */
    /* Limits whose only effect is to end a job with an error when a rate or latency is missed;
     * the simulator reports the rate and latency instead. */
    IGN("rate_min", "ratemin", INT),
    IGN("rate_iops_min", NULL, INT),
    IGN("rate_cycle", "ratecycle", INT),
    IGN("max_latency", NULL, TIME),
    IGN("latency_window", NULL, TIME), /* act only with latency_target, refused unless 0 */
    IGN("latency_percentile", NULL, MIXED),
    IGN("latency_run", NULL, BOOL),
    /* Replay details that do not change the requests replayed. */
    IGN("read_iolog_chunked", NULL, BOOL),
    IGN("replay_redirect", NULL, STR),
    IGN("write_iolog", NULL, STR), /* records the I/O issued; changes none */
    /* Reporting and logging: what fio prints or writes, not what the device does. */
    IGN("per_job_logs", NULL, BOOL),
    IGN("bwavgtime", NULL, INT),
    IGN("iopsavgtime", NULL, INT),
    IGN("log_entries", NULL, INT),
    IGN("log_hist_msec", NULL, INT),
    IGN("log_hist_coarseness", NULL, INT),
    IGN("write_hist_log", NULL, LOGNAME),
    IGN("log_max_value", NULL, BOOL),
    IGN("log_offset", NULL, BOOL),
    IGN("log_prio", NULL, BOOL),
    IGN("log_compression", NULL, INT),
    IGN("log_compression_cpus", NULL, STR),
    IGN("log_store_compressed", NULL, BOOL),
    IGN("log_unix_epoch", NULL, BOOL),
    IGN("log_alternate_epoch", NULL, BOOL),
    IGN("log_alternate_epoch_clock_id", NULL, INT),
    IGN("block_error_percentiles", NULL, BOOL),
    IGN("stats", NULL, BOOL),
    IGN("clat_percentiles", NULL, BOOL),
    IGN("lat_percentiles", NULL, BOOL),
    IGN("slat_percentiles", NULL, BOOL),
    IGN("percentile_list", NULL, MIXED),
    IGN("significant_figures", NULL, INT),
    IGN("disk_util", NULL, BOOL),
    IGN("disable_lat", NULL, BOOL),
    IGN("disable_clat", NULL, BOOL),
    IGN("disable_slat", NULL, BOOL),
    IGN("disable_bw_measurement", "disable_bw", BOOL),
    IGN("unified_rw_reporting", NULL, STR),
    IGN("unit_base", NULL, STR),
    IGN("flow_id", NULL, INT),
    IGN("flow_sleep", NULL, INT), /* act only with flow, refused unless 0 */

    /* ---- Refused: they change the requests or their timing in ways not simulated yet. The
     * values listed first are no-ops, accepted and listed as ignored. */
    REF("fsync", NULL, INT, "0", "the simulator does not model cache flushes"),
    REF("fdatasync", NULL, INT, "0", "the simulator does not model cache flushes"),
    REF("write_barrier", NULL, INT, "0", "the simulator does not model barrier writes"),
    REF("sync", NULL, STR, "none|0", "synchronous writes (O_SYNC) are not simulated"),
    REF("sync_file_range", NULL, STR, NULL, "the simulator does not model cache flushes"),
    REF("end_fsync", NULL, BOOL, "0", "the simulator does not model cache flushes"),
    REF("fsync_on_close", NULL, BOOL, "0", "the simulator does not model cache flushes"),
    REF("verify", NULL, STR, "0", "verification reads are not simulated"),
    REF("verify_only", NULL, FLAG, "0", "verification reads are not simulated"),
    REF("verify_backlog", NULL, STR, "0", "verification reads are not simulated"),
    REF("trim_percentage", NULL, INT, "0", "verification trims are not simulated"),
    REF("trim_backlog", NULL, STR, "0", "verification trims are not simulated"),
    REF("fill_device", "fill_fs", BOOL, "0",
        "writing until the device is full is not simulated; use size"),
    REF("file_append", NULL, BOOL, "0", "the simulated device has no files to append to"),
    REF("filesize", NULL, STR, NULL,
        "it sizes the files fio creates; the simulator addresses one device: use size"),
    REF("nrfiles", "nr_files", INT, "1", "the simulator addresses one device, not files"),
    REF("opendir", NULL, STR, NULL, "the simulator addresses one device, not files"),
    REF("lockfile", NULL, STR, "none", "file locking between jobs is not simulated"),
    REF("startdelay", NULL, TIME, "0", "delayed job starts are not simulated yet"),
    REF("offset_align", NULL, INT, "0",
        "percentage offsets are aligned to 512 bytes in the simulator"),
    REF("ba", "blockalign", INT, NULL,
        "random offsets are aligned to the smallest block size in the simulator"),
    REF("bs_unaligned", "blocksize_unaligned", FLAG, "0",
        "block sizes are multiples of 512 bytes in the simulator"),
    REF("bs_is_seq_rand", NULL, BOOL, "0", "sequential/random block sizes are not simulated"),
    REF("rw_sequencer", NULL, STR, "sequential", "repeating an offset is not simulated"),
    REF("iodepth_low", NULL, INT, "0",
        "the simulated host refills its queue as soon as an I/O completes"),
    REF("iodepth_batch_complete_min", "iodepth_batch_complete", INT, "0|1",
        "the simulated host reaps each completion as it arrives"),
    REF("serialize_overlap", NULL, BOOL, "0", "holding back overlapping I/Os is not simulated"),
    REF("io_submit_mode", NULL, STR, "inline", "offloaded submission is not simulated"),
    REF("create_only", NULL, BOOL, "0", "a job that only lays out files does no I/O here"),
    REF("pre_read", NULL, BOOL, "0", "reading files into the page cache first is not simulated"),
    REF("thinktime_blocks_type", NULL, STR, "complete",
        "the thinktime stall is counted from completions only"),
    REF("thinktime_iotime", NULL, TIME, "0", "time-based thinktime is not simulated yet"),
    REF("rate_ignore_thinktime", NULL, BOOL, "0", "the rate counts thinktime in the simulator"),
    REF("latency_target", NULL, TIME, "0",
        "searching a queue depth for a latency target is not "
        "simulated yet"),
    REF("replay_scale", NULL, INT, "1", "scaling replayed offsets is not simulated"),
    REF("replay_align", NULL, INT, "0", "aligning replayed offsets is not simulated"),
    REF("replay_time_scale", NULL, INT, "100", "scaling replay timing is not simulated"),
    REF("replay_skip", NULL, STR, NULL, "skipping replayed operations is not simulated"),
    REF("merge_blktrace_file", NULL, STR, NULL, "merging blktraces is not simulated"),
    REF("merge_blktrace_scalars", NULL, MIXED, NULL, "merging blktraces is not simulated"),
    REF("merge_blktrace_iters", NULL, MIXED, NULL, "merging blktraces is not simulated"),
    REF("zonemode", NULL, STR, "none", "zoned and strided modes are not simulated"),
    REF("zonesize", NULL, STR, "0", "zoned and strided modes are not simulated"),
    REF("zonecapacity", NULL, STR, "0", "zoned and strided modes are not simulated"),
    REF("zonerange", NULL, STR, "0", "zoned and strided modes are not simulated"),
    REF("zoneskip", NULL, SIZE, "0", "skipping zones is not simulated"),
    REF("exitall", NULL, FLAG, "0", "ending the other jobs when one finishes is not simulated"),
    REF("wait_for", NULL, STR, NULL,
        "waiting for a named job is not simulated; order jobs with stonewall"),
    REF("flow", NULL, INT, "0", "token-based flow control between jobs is not simulated"),
    REF("profile", NULL, STR, NULL, "fio's built-in profiles are not simulated"),
    REF("kb_base", NULL, STR, "1024", "kb_base=1000 would change how every size is read"),
};

static const struct optdef *find_option(const char *key)
{
    for (size_t i = 0; i < SSDSIM__ARRAY_LEN(options); i++)
        if (!strcmp(key, options[i].name) || (options[i].alias && !strcmp(key, options[i].alias)))
            return &options[i];
    return NULL;
}

/* fio prints an option under its canonical name; these are the aliases fio 3.x knows for it
 * (fio --cmdhelp) among the options a job file may hold. */
const char *ssdsim__fio_canonical_name(const char *key)
{
    static const char *const alias[][2] = {
        {"readwrite", "rw"},
        {"blocksize", "bs"},
        {"blocksize_range", "bsrange"},
        {"blockalign", "ba"},
        {"blocksize_unaligned", "bs_unaligned"},
        {"timeout", "runtime"},
        {"io_limit", "io_size"},
        {"fileoffset", "offset"},
        {"ss", "steadystate"},
        {"ss_dur", "steadystate_duration"},
        {"ss_ramp", "steadystate_ramp_time"},
        {"wait_for_previous", "stonewall"},
        {"ratemin", "rate_min"},
        {"ratecycle", "rate_cycle"},
        {"nr_files", "nrfiles"},
        {"iomem", "mem"},
        {"fill_fs", "fill_device"},
        {"disable_bw", "disable_bw_measurement"},
        {"iodepth_batch_submit", "iodepth_batch"},
        {"iodepth_batch_complete", "iodepth_batch_complete_min"},
    };
    for (size_t i = 0; i < SSDSIM__ARRAY_LEN(alias); i++)
        if (!strcmp(key, alias[i][0]))
            return alias[i][1];
    return key;
}

const char *ssdsim__fio_option_lookup(const char *key, enum ssdsim__optkind *kind)
{
    const struct optdef *o = key ? find_option(key) : NULL;
    if (o && kind)
        *kind = o->kind;
    return o ? o->name : NULL;
}

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

/* The value of an ignored or refused option, checked as fio checks it (a bool is 0 or 1, a flag
 * is empty or an integer, integers and times parse, per direction too), and whether it is one of
 * the option's no-op values. */
static int check_value(const struct optdef *o, const char *value, bool *noop, char *errbuf,
                       size_t errlen)
{
    char norm[48];
    const char *s = value ? value : "";
    size_t len = strlen(s);
    trim(&s, &len);
    struct quoted q = quote(s, len);
    snprintf(norm, sizeof norm, "%.*s", (int)SSDSIM__MIN(len, sizeof norm - 1), s);
    *noop = false;
    bool b = false;
    int rc = 0;
    switch (o->kind) {
    case SSDSIM__OPTKIND_FLAG:
        rc = parse_flag(value, &b, errbuf, errlen);
        snprintf(norm, sizeof norm, "%d", b);
        break;
    case SSDSIM__OPTKIND_BOOL:
        rc = parse_bool(value, &b, errbuf, errlen);
        snprintf(norm, sizeof norm, "%d", b);
        break;
    case SSDSIM__OPTKIND_INT:
    case SSDSIM__OPTKIND_SIZE:
    case SSDSIM__OPTKIND_TIME: {
        struct dirs dirs;
        rc = split_dirs(value, &dirs, errbuf, errlen);
        for (int d = 0; d < SSDSIM__N_DIRS && rc == 0; d++) {
            uint64_t v = 0;
            if (!dirs.set[d])
                continue;
            if (o->kind == SSDSIM__OPTKIND_TIME)
                rc = ssdsim__fio_parse_time_ns(dirs.part[d], SSDSIM__NS_PER_S, &v, errbuf, errlen);
            else if (!uint_ok(dirs.part[d], &v))
                rc = fail(errbuf, errlen, "expected an integer, got '%s'", q.text);
            if (rc == 0 && !strchr(s, ','))
                snprintf(norm, sizeof norm, "%llu", (unsigned long long)v);
        }
        if (rc == 0 && !dirs.set[0] && !dirs.set[1] && !dirs.set[2])
            rc = fail(errbuf, errlen, "expected a value, got '%s'", q.text);
        break;
    }
    default:
        break;
    }
    if (rc)
        return rc;
    for (const char *t = o->noop; t && *t;) {
        const char *bar = strchr(t, '|');
        size_t n = bar ? (size_t)(bar - t) : strlen(t);
        if (strlen(norm) == n && !memcmp(norm, t, n))
            *noop = true;
        t = bar ? bar + 1 : t + n;
    }
    return 0;
}

int ssdsim__jobspec_apply(struct ssdsim__jobspec *job, const char *key, const char *value,
                          char *errbuf, size_t errlen)
{
    if (errbuf && errlen > 0)
        errbuf[0] = '\0';
    if (!job || !key)
        return fail(errbuf, errlen, "no option name");
    const struct optdef *o = find_option(key);
    if (!o) {
        unknown_option(key, errbuf, errlen);
        return SSDSIM_ENOTFOUND;
    }
    /* Only fio's "empty or boolean" options and the log prefixes may be given without a value
     * ("time_based", "write_bw_log"); fio says the others require an argument. */
    if (!value && o->kind != SSDSIM__OPTKIND_FLAG && o->kind != SSDSIM__OPTKIND_LOGNAME)
        return fail(errbuf, errlen, "a value is required");
    bool noop = false;
    int rc;
    switch (o->cls) {
    case CLS_SIM:
        /* Each option checks its value completely before storing it, so a failed apply leaves
         * the job as it was. */
        return o->apply(o, job, value, errbuf, errlen);
    case CLS_IGNORE:
        rc = check_value(o, value, &noop, errbuf, errlen);
        return rc ? rc : SSDSIM__IGNORED;
    default:
        rc = check_value(o, value, &noop, errbuf, errlen);
        if (rc || noop)
            return rc ? rc : SSDSIM__IGNORED;
        if (o->noop) {
            const char *bar = strchr(o->noop, '|');
            return fail(errbuf, errlen, "not supported: %s (only %s=%.*s is accepted)", o->why,
                        o->name, (int)(bar ? (size_t)(bar - o->noop) : strlen(o->noop)), o->noop);
        }
        return fail(errbuf, errlen, "not supported: %s", o->why);
    }
}

/* ------------------------------------------------------------------------------------------ */
/* Values fio reads differently (job files)                                                    */

int ssdsim__fio_check_jobfile_value(const char *key, const char *value, char *errbuf, size_t errlen)
{
    enum ssdsim__optkind kind = 0;
    if (!value || !ssdsim__fio_option_lookup(key, &kind))
        return 0;
    bool numeric =
        kind == SSDSIM__OPTKIND_INT || kind == SSDSIM__OPTKIND_SIZE || kind == SSDSIM__OPTKIND_TIME;
    if (!numeric && kind != SSDSIM__OPTKIND_MIXED)
        return 0;
    const char *s = value;
    size_t len = strlen(s);
    trim(&s, &len);
    if (numeric && len > 0 && s[0] == '(') {
        struct quoted q = quote(s, len);
        return fail(errbuf, errlen,
                    "fio's arithmetic expressions ('%s') are not supported: write the value",
                    q.text);
    }
    for (size_t i = 0; i < len;) {
        /* A number starts at a digit that does not continue a word ("nvme0n1") or a number. */
        if (!isdigit((unsigned char)s[i]) ||
            (i > 0 && (isalnum((unsigned char)s[i - 1]) || s[i - 1] == '.' || s[i - 1] == '_'))) {
            i++;
            continue;
        }
        size_t start = i;
        if (s[i] == '0' && i + 1 < len && (s[i + 1] == 'x' || s[i + 1] == 'X')) {
            for (i += 2; i < len && isxdigit((unsigned char)s[i]); i++)
                ;
            continue;
        }
        while (i < len && isdigit((unsigned char)s[i]))
            i++;
        if (i + 1 < len && s[i] == '.' && isdigit((unsigned char)s[i + 1])) {
            for (i++; i < len && isdigit((unsigned char)s[i]); i++)
                ;
            if (kind != SSDSIM__OPTKIND_MIXED) {
                size_t end = i;
                while (end < len && (isalpha((unsigned char)s[end]) || s[end] == '%'))
                    end++;
                struct quoted q = quote(s + start, end - start);
                return fail(errbuf, errlen,
                            "fio drops the fraction of '%s' (it reads 1.5g as 1 byte, 1.5s as 1 "
                            "s): write a whole number, with a smaller unit if needed",
                            q.text);
            }
        }
        size_t unit = i;
        while (i < len && isalpha((unsigned char)s[i]))
            i++;
        size_t ulen = i - unit;
        struct quoted q = quote(s + start, i - start);
        if (kind == SSDSIM__OPTKIND_TIME) {
            if (word_eq(s + unit, ulen, "ns") || word_eq(s + unit, ulen, "nsec") ||
                word_eq(s + unit, ulen, "min"))
                return fail(errbuf, errlen,
                            "fio does not know the unit of '%s' (it knows us, ms, s, m, h, d)",
                            q.text);
        } else if (ulen >= 2 && strchr("kmgtpKMGTP", s[unit]) &&
                   (s[unit + 1] == 'i' || s[unit + 1] == 'I')) {
            return fail(errbuf, errlen,
                        "fio reads '%s' in powers of 1000 (with its default kb_base=1024 the IEC "
                        "prefixes mean 10^3, 10^6, ...): write %.*s%c for powers of 1024",
                        q.text, (int)(unit - start), s + start, tolower((unsigned char)s[unit]));
        }
    }
    return 0;
}

/* ------------------------------------------------------------------------------------------ */
/* Jobs: defaults, copies, the options as written                                             */

void ssdsim__jobspec_defaults(struct ssdsim__jobspec *wl)
{
    memset(wl, 0, sizeof *wl);
    wl->rw = SSDSIM__RW_READ;
    for (int d = 0; d < SSDSIM__N_DIRS; d++) {
        wl->bs[d].n = 1;
        wl->bs[d].e[0].bytes = 4096;
        wl->bs[d].e[0].percent = 100;
        wl->percentage_random[d] = 100;
    }
    wl->rwmixread = 50;
    wl->iodepth = 1;
    wl->numjobs = 1;
    wl->loops = 1;
    wl->randrepeat = true;
    wl->thinktime_blocks = 1;
}

static int dup_str(char **dst, const char *src)
{
    *dst = NULL;
    if (!src)
        return 0;
    *dst = strdup(src);
    return *dst ? 0 : SSDSIM_ENOMEM;
}

int ssdsim__jobspec_copy(struct ssdsim__jobspec *dst, const struct ssdsim__jobspec *src)
{
    *dst = *src;
    dst->name = dst->read_iolog = dst->write_iops_log = dst->write_lat_log = NULL;
    dst->write_bw_log = NULL;
    dst->raw_keys = dst->raw_values = NULL;
    dst->n_raw = 0;
    for (uint32_t i = 0; i < src->n_raw; i++)
        if (ssdsim__jobspec_add_raw(dst, src->raw_keys[i], src->raw_values[i])) {
            ssdsim__jobspec_clear(dst);
            return SSDSIM_ENOMEM;
        }
    if (dup_str(&dst->name, src->name) || dup_str(&dst->read_iolog, src->read_iolog) ||
        dup_str(&dst->write_iops_log, src->write_iops_log) ||
        dup_str(&dst->write_lat_log, src->write_lat_log) ||
        dup_str(&dst->write_bw_log, src->write_bw_log)) {
        ssdsim__jobspec_clear(dst);
        return SSDSIM_ENOMEM;
    }
    return 0;
}

void ssdsim__jobspec_clear(struct ssdsim__jobspec *job)
{
    free(job->name);
    free(job->read_iolog);
    free(job->write_iops_log);
    free(job->write_lat_log);
    free(job->write_bw_log);
    job->name = job->read_iolog = job->write_iops_log = job->write_lat_log = NULL;
    job->write_bw_log = NULL;
    for (uint32_t i = 0; i < job->n_raw; i++) {
        free(job->raw_keys[i]);
        free(job->raw_values[i]);
    }
    free(job->raw_keys);
    free(job->raw_values);
    job->raw_keys = job->raw_values = NULL;
    job->n_raw = 0;
}

int ssdsim__jobspec_name_logs(struct ssdsim__jobspec *job)
{
    char **logs[] = {&job->write_bw_log, &job->write_lat_log, &job->write_iops_log};
    for (size_t i = 0; i < SSDSIM__ARRAY_LEN(logs); i++) {
        if (!*logs[i] || (*logs[i])[0])
            continue;
        char *name = strdup(job->name ? job->name : "job");
        if (!name)
            return SSDSIM_ENOMEM;
        free(*logs[i]);
        *logs[i] = name;
    }
    return 0;
}

int ssdsim__jobspec_add_raw(struct ssdsim__jobspec *job, const char *key, const char *value)
{
    char **k = realloc(job->raw_keys, sizeof *k * (job->n_raw + 1));
    if (!k)
        return SSDSIM_ENOMEM;
    job->raw_keys = k;
    char **v = realloc(job->raw_values, sizeof *v * (job->n_raw + 1));
    if (!v)
        return SSDSIM_ENOMEM;
    job->raw_values = v;
    k[job->n_raw] = strdup(key);
    v[job->n_raw] = strdup(value ? value : "");
    if (!k[job->n_raw] || !v[job->n_raw]) {
        free(k[job->n_raw]);
        free(v[job->n_raw]);
        return SSDSIM_ENOMEM;
    }
    job->n_raw++;
    return 0;
}

/* ------------------------------------------------------------------------------------------ */
/* Checks against a device                                                                     */

/* floor(total * pct / 100) rounded down to a 512-byte sector. long double keeps the product
 * exact enough for devices up to 2^64 bytes. */
uint64_t ssdsim__percent_bytes(uint64_t total, double pct)
{
    long double v = (long double)total * (long double)pct / 100.0L;
    if (pct <= 100 && v >= (long double)total)
        return total & ~(uint64_t)511;
    if (v >= 18446744073709551616.0L) /* 2^64 */
        return UINT64_MAX & ~(uint64_t)511;
    return (uint64_t)v & ~(uint64_t)511;
}

void ssdsim__jobspec_region(const struct ssdsim__jobspec *wl, uint32_t clone,
                            uint64_t logical_bytes, uint64_t *offset, uint64_t *size)
{
    *offset = wl->offset_percent > 0 ? ssdsim__percent_bytes(logical_bytes, wl->offset_percent)
                                     : wl->offset_bytes;
    uint64_t inc = wl->offset_increment_percent > 0
                       ? ssdsim__percent_bytes(logical_bytes, wl->offset_increment_percent)
                       : wl->offset_increment_bytes;
    *offset += (uint64_t)clone * inc;
    *size =
        wl->size_percent > 0 ? ssdsim__percent_bytes(logical_bytes, wl->size_percent) : wl->size_bytes;
    if (*size == 0 && wl->size_percent <= 0 && *offset < logical_bytes)
        *size = logical_bytes - *offset;
}

/* The directions a job's rw pattern issues. */
static void rw_dirs(enum ssdsim__rw rw, bool used[SSDSIM__N_DIRS])
{
    used[SSDSIM__DIR_READ] = rw == SSDSIM__RW_READ || rw == SSDSIM__RW_RANDREAD ||
                             rw == SSDSIM__RW_RW || rw == SSDSIM__RW_RANDRW;
    used[SSDSIM__DIR_WRITE] = rw == SSDSIM__RW_WRITE || rw == SSDSIM__RW_RANDWRITE ||
                              rw == SSDSIM__RW_RW || rw == SSDSIM__RW_RANDRW;
    used[SSDSIM__DIR_TRIM] = rw == SSDSIM__RW_TRIM || rw == SSDSIM__RW_RANDTRIM;
}

static const char *const dir_names[SSDSIM__N_DIRS] = {"read", "write", "trim"};

/* The largest block of a direction, or 0 when its sizes are malformed (reported by the caller). */
static uint32_t bsdist_max(const struct ssdsim__bsdist *b, char *errbuf, size_t errlen,
                           const char *dir)
{
    if (b->range_max > 0) {
        if (b->range_min == 0 || b->range_min % 512 || b->range_max % 512 ||
            b->range_min > b->range_max) {
            fail(errbuf, errlen, "%s block size range %u-%u is not two non-zero multiples of 512",
                 dir, b->range_min, b->range_max);
            return 0;
        }
        return b->range_max;
    }
    if (b->n == 0 || b->n > SSDSIM__BSSPLIT_MAX) {
        fail(errbuf, errlen, "the job has no %s block size", dir);
        return 0;
    }
    uint32_t max = 0, total = 0;
    for (uint32_t i = 0; i < b->n; i++) {
        if (b->e[i].bytes == 0 || b->e[i].bytes % 512 != 0) {
            fail(errbuf, errlen, "%s block size %u is not a non-zero multiple of 512", dir,
                 b->e[i].bytes);
            return 0;
        }
        max = SSDSIM__MAX(max, b->e[i].bytes);
        total += b->e[i].percent;
    }
    if (total != 100) {
        fail(errbuf, errlen, "%s block size percentages add up to %u, not 100", dir, total);
        return 0;
    }
    return max;
}

int ssdsim__jobspec_check(const struct ssdsim__jobspec *job, char *errbuf, size_t errlen)
{
    /* fio warns and drops time_based instead; a job meant to run for a time would then stop
     * after one pass, so the simulator asks for the runtime. */
    if (job->time_based && job->runtime_ns == 0)
        return fail(errbuf, errlen, "time_based needs a runtime");
    /* fio judges steady state over an ss_dur window and does nothing without one. */
    if (job->ss != SSDSIM__SS_NONE && job->ss_dur_ns == 0)
        return fail(errbuf, errlen, "ss needs ss_dur, the window steady state is judged over");
    bool any_rate = false, any_iops = false;
    for (int d = 0; d < SSDSIM__N_DIRS; d++) {
        any_rate |= job->rate_bytes[d] != 0;
        any_iops |= job->rate_iops[d] != 0;
    }
    if (any_rate && any_iops)
        return fail(errbuf, errlen, "rate and rate_iops are mutually exclusive (as in fio)");
    if (job->rate_process == SSDSIM__RATE_POISSON && !any_rate && !any_iops)
        return fail(errbuf, errlen, "rate_process=poisson needs a rate_iops or rate limit");
    if (job->iodepth == 0 || job->numjobs == 0 || job->loops == 0 || job->thinktime_blocks == 0)
        return fail(errbuf, errlen, "iodepth, numjobs, loops and thinktime_blocks must be >= 1");
    /* A replayed job takes its offsets and sizes from its log. */
    if (job->read_iolog)
        return 0;
    bool used[SSDSIM__N_DIRS];
    rw_dirs(job->rw, used);
    for (int d = 0; d < SSDSIM__N_DIRS; d++)
        if (used[d] && bsdist_max(&job->bs[d], errbuf, errlen, dir_names[d]) == 0)
            return SSDSIM_ECONFIG;
    return 0;
}

static int check_job(const struct ssdsim__jobspec *job, uint64_t logical_bytes, char *errbuf,
                     size_t errlen)
{
    int rc = ssdsim__jobspec_check(job, errbuf, errlen);
    if (rc || job->read_iolog)
        return rc;
    bool used[SSDSIM__N_DIRS];
    uint32_t max_bs = 0;
    rw_dirs(job->rw, used);
    for (int d = 0; d < SSDSIM__N_DIRS; d++)
        if (used[d])
            max_bs = SSDSIM__MAX(max_bs, bsdist_max(&job->bs[d], NULL, 0, dir_names[d]));
    bool has_inc = job->offset_increment_bytes || job->offset_increment_percent > 0;

    for (uint32_t clone = 0; clone < job->numjobs; clone++) {
        char who[64] = "";
        if (has_inc && job->numjobs > 1)
            snprintf(who, sizeof who, "clone %u of %u (offset_increment): ", clone + 1,
                     job->numjobs);
        uint64_t offset, size;
        ssdsim__jobspec_region(job, clone, logical_bytes, &offset, &size);
        if (offset >= logical_bytes)
            return fail(errbuf, errlen,
                        "%soffset %llu is not inside the device (logical capacity %llu bytes)", who,
                        (unsigned long long)offset, (unsigned long long)logical_bytes);
        if (size > logical_bytes - offset)
            return fail(errbuf, errlen,
                        "%soffset %llu + size %llu exceeds the device's logical capacity of %llu "
                        "bytes",
                        who, (unsigned long long)offset, (unsigned long long)size,
                        (unsigned long long)logical_bytes);
        for (int d = 0; d < SSDSIM__N_DIRS; d++) {
            if (!used[d])
                continue;
            uint32_t bs = bsdist_max(&job->bs[d], NULL, 0, dir_names[d]);
            if (bs > size)
                return fail(errbuf, errlen,
                            "%sblock size %u is larger than the region of %llu bytes", who, bs,
                            (unsigned long long)size);
        }
        /* Zones must lie inside the region, and each zone that is accessed must hold a block. */
        uint64_t zone_end = 0;
        for (uint32_t z = 0; z < job->n_zones; z++) {
            uint64_t zlen =
                job->dist == SSDSIM__DIST_ZONED_ABS
                    ? job->zone_bytes[z]
                    : (uint64_t)((long double)size * job->zone_range[z] / 100.0L) & ~(uint64_t)511;
            zone_end += zlen;
            if (job->zone_access[z] > 0 && zlen < max_bs)
                return fail(errbuf, errlen,
                            "%szone %u is %llu bytes of the region, smaller than a block of %u",
                            who, z + 1, (unsigned long long)zlen, max_bs);
        }
        if (job->dist == SSDSIM__DIST_ZONED_ABS && zone_end > size)
            return fail(errbuf, errlen,
                        "%szoned_abs zones cover %llu bytes, more than the region of %llu bytes",
                        who, (unsigned long long)zone_end, (unsigned long long)size);
    }
    return 0;
}

int ssdsim__workload_check(const struct ssdsim_workload *wl, uint64_t logical_bytes, char *errbuf,
                           size_t errlen)
{
    if (wl->n_jobs == 0)
        return fail(errbuf, errlen, "the workload has no job");
    for (uint32_t j = 0; j < wl->n_jobs; j++) {
        char why[384];
        if (check_job(&wl->jobs[j], logical_bytes, why, sizeof why) == 0)
            continue;
        if (wl->n_jobs > 1 && wl->jobs[j].name)
            return fail(errbuf, errlen, "job '%s': %s", wl->jobs[j].name, why);
        if (wl->n_jobs > 1)
            return fail(errbuf, errlen, "job %u: %s", j + 1, why);
        return fail(errbuf, errlen, "%s", why);
    }
    return 0;
}
