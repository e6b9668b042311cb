/* units.c: strict parsers for sizes, times and rates written with units ("16KiB", "1.5ms",
 * "600MB/s") in model files.
 *
 * The number is split into an integer part (parsed with overflow checks) and its fraction digits,
 * and the fraction is multiplied by the unit exactly in decimal, digit by digit. Going through
 * strtod() instead would accept signs, exponents, "inf" and hex, and would make "0.3us" depend on
 * binary rounding; the exact route costs a few dozen digit operations per value, which is nothing
 * next to loading a file.
 */
#include "config/units.h"

#include <stdbool.h>
#include <stddef.h>
#include <string.h>

struct unit {
    const char *name;
    uint64_t mult;
};

static const struct unit size_units[] = {
    {"B", 1ULL},
    {"KB", 1000ULL},
    {"kB", 1000ULL},
    {"MB", 1000ULL * 1000},
    {"GB", 1000ULL * 1000 * 1000},
    {"TB", 1000ULL * 1000 * 1000 * 1000},
    {"KiB", 1ULL << 10},
    {"MiB", 1ULL << 20},
    {"GiB", 1ULL << 30},
    {"TiB", 1ULL << 40},
};

/* clang-format off */
static const struct unit time_units[] = {
    {"ns", 1ULL},
    {"us", 1000ULL},
    {"\xc2\xb5s", 1000ULL}, /* "µs" in UTF-8 (MICRO SIGN) */
    {"ms", 1000ULL * 1000},
    {"s", 1000ULL * 1000 * 1000},
};
/* clang-format on */

/* More fraction digits than this is not a value anyone means; refusing them keeps the digit
 * buffer below fixed-size. */
#define MAX_FRAC_DIGITS 30
/* Digits of MAX_FRAC_DIGITS times the largest multiplier (2^40 has 13 digits), with room. */
#define PRODUCT_DIGITS (MAX_FRAC_DIGITS + 24)

/* A non-negative decimal number as written: integer part and the digits after the point. */
struct decimal {
    uint64_t int_part;
    const char *frac;
    size_t n_frac;
};

/* Parse digits[.digits] at the start of `s`. Returns the first character after the number, or
 * NULL when there is no number or the integer part overflows. */
static const char *parse_decimal(const char *s, struct decimal *d)
{
    const char *p = s;
    d->int_part = 0;
    d->frac = NULL;
    d->n_frac = 0;
    if (*p < '0' || *p > '9')
        return NULL;
    for (; *p >= '0' && *p <= '9'; p++) {
        uint64_t digit = (uint64_t)(*p - '0');
        if (d->int_part > (UINT64_MAX - digit) / 10)
            return NULL;
        d->int_part = d->int_part * 10 + digit;
    }
    if (*p == '.') {
        p++;
        d->frac = p;
        for (; *p >= '0' && *p <= '9'; p++)
            d->n_frac++;
        if (d->n_frac == 0 || d->n_frac > MAX_FRAC_DIGITS)
            return NULL;
    }
    return p;
}

/* value = d * mult. With `exact`, a result that is not a whole number is refused; otherwise it
 * is rounded to the nearest, halves up. Returns 0 or -1 (not whole, overflow). */
static int scale(const struct decimal *d, uint64_t mult, bool exact, uint64_t *out)
{
    if (mult != 0 && d->int_part > UINT64_MAX / mult)
        return -1;
    uint64_t total = d->int_part * mult;

    if (d->n_frac > 0) {
        /* F * mult, where F is the fraction digits read as an integer, as little-endian base-10
         * digits; the digits at positions >= n_frac are the whole part of fraction * mult. */
        unsigned char prod[PRODUCT_DIGITS];
        size_t n = d->n_frac;
        for (size_t i = 0; i < n; i++)
            prod[i] = (unsigned char)(d->frac[n - 1 - i] - '0');
        uint64_t carry = 0; /* stays below mult, so cur cannot overflow for mult <= 2^59 */
        for (size_t i = 0; i < n; i++) {
            uint64_t cur = prod[i] * mult + carry;
            prod[i] = (unsigned char)(cur % 10);
            carry = cur / 10;
        }
        while (carry > 0 && n < PRODUCT_DIGITS) {
            prod[n++] = (unsigned char)(carry % 10);
            carry /= 10;
        }
        uint64_t whole = 0; /* < mult, so it fits */
        for (size_t i = n; i > d->n_frac; i--)
            whole = whole * 10 + prod[i - 1];
        bool rest_nonzero = false;
        for (size_t i = 0; i < d->n_frac; i++)
            rest_nonzero |= prod[i] != 0;
        if (exact && rest_nonzero)
            return -1;
        if (!exact && prod[d->n_frac - 1] >= 5)
            whole++;
        if (total > UINT64_MAX - whole)
            return -1;
        total += whole;
    }
    *out = total;
    return 0;
}

static const struct unit *find_unit(const struct unit *units, size_t n_units, const char *name,
                                    size_t len)
{
    for (size_t i = 0; i < n_units; i++)
        if (strlen(units[i].name) == len && memcmp(units[i].name, name, len) == 0)
            return &units[i];
    return NULL;
}

/* Number, optional spaces, then a unit spelled by the `len` bytes at the end. `len` 0 means no
 * unit (allowed only when `bare_mult` is non-zero, and then without trailing spaces). */
static int parse_with_unit(const char *s, size_t len, const struct unit *units, size_t n_units,
                           uint64_t bare_mult, bool exact, uint64_t *out)
{
    if (!s || !out)
        return -1;
    struct decimal d;
    const char *p = parse_decimal(s, &d);
    if (!p || (size_t)(p - s) > len)
        return -1;
    const char *end = s + len;
    const char *unit = p;
    while (unit < end && *unit == ' ')
        unit++;
    uint64_t mult;
    if (unit == end) {
        if (unit != p || bare_mult == 0)
            return -1;
        mult = bare_mult;
    } else {
        const struct unit *u = find_unit(units, n_units, unit, (size_t)(end - unit));
        if (!u)
            return -1;
        mult = u->mult;
    }
    uint64_t v;
    if (scale(&d, mult, exact, &v) != 0)
        return -1;
    *out = v;
    return 0;
}

int ssdsim__units_parse_size(const char *s, uint64_t *out)
{
    if (!s)
        return -1;
    return parse_with_unit(s, strlen(s), size_units, sizeof size_units / sizeof size_units[0], 1,
                           true, out);
}

int ssdsim__units_parse_time_ns(const char *s, uint64_t *out)
{
    if (!s)
        return -1;
    return parse_with_unit(s, strlen(s), time_units, sizeof time_units / sizeof time_units[0], 0,
                           false, out);
}

int ssdsim__units_parse_rate(const char *s, uint64_t *out)
{
    if (!s)
        return -1;
    size_t len = strlen(s);
    if (len < 2 || strcmp(s + len - 2, "/s") != 0)
        return -1;
    return parse_with_unit(s, len - 2, size_units, sizeof size_units / sizeof size_units[0], 1,
                           false, out);
}
