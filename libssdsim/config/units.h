/* units.h: parsers for the unit strings of model files ("16KiB", "1.5ms", "600MB/s").
 *
 * The grammar is deliberately strict, so that a typo is an error and not a surprise:
 *     value  := digits [ "." digits ] [ " "* unit ]
 * with no sign, no exponent, no leading or trailing white space. Fractions are computed exactly
 * in decimal (no binary floating point), so "1.1KB" is 1100 bytes and "0.3us" is 300 ns.
 */
#ifndef SSDSIM_CONFIG_UNITS_H
#define SSDSIM_CONFIG_UNITS_H

#include <stdint.h>

/* A size in bytes: a bare number, or a number followed by B, KB/kB, MB, GB, TB (powers of 1000)
 * or KiB, MiB, GiB, TiB (powers of 1024). The result must be a whole number of bytes ("1.5GiB"
 * is fine, "0.5B" and "1.1KiB" are not). Returns 0 and sets *out, or -1 (garbage, overflow). */
int ssdsim__units_parse_size(const char *s, uint64_t *out);

/* A time: a number followed by ns, us (or µs), ms or s; the unit is required. The result is in
 * nanoseconds, rounded to the nearest (halves away from zero). Returns 0 or -1. */
int ssdsim__units_parse_time_ns(const char *s, uint64_t *out);

/* A rate: a size as above (the unit may be left out, meaning bytes) followed by "/s", e.g.
 * "600MB/s", "4GiB/s", "1000B/s". The result is in bytes per second, rounded to the nearest.
 * Returns 0 or -1. */
int ssdsim__units_parse_rate(const char *s, uint64_t *out);

#endif /* SSDSIM_CONFIG_UNITS_H */
