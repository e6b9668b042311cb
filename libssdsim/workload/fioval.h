/* fioval.h: the pieces of fio option values that the option setters (fioopt*.c) and the job
 * checks (jobspec.c) share with the value parsers (fioval.c) (never installed). Errors are
 * one-line reasons written into a caller buffer; functions returning int give 0 or
 * SSDSIM_ECONFIG.
 */
#ifndef SSDSIM_WORKLOAD_FIOVAL_H
#define SSDSIM_WORKLOAD_FIOVAL_H

#include "workload/workload.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Write a reason into errbuf (when not NULL); returns SSDSIM_ECONFIG. */
int ssdsim__fio_fail(char *errbuf, size_t errlen, const char *fmt, ...) SSDSIM__PRINTF(3, 4);

/* A value as it may be quoted in a message: at most 40 bytes, "..." when cut. */
struct ssdsim__fio_quoted {
    char text[48];
};

struct ssdsim__fio_quoted ssdsim__fio_quote(const char *s, size_t len);

/* Trim ASCII white space on both sides of [*s, *s + *len). */
void ssdsim__fio_trim(const char **s, size_t *len);

/* The same for the C string *s: *s moves past the leading white space; returns the length
 * without the trailing. */
size_t ssdsim__fio_trimmed(const char **s);

/* Case-insensitive comparison of [s, s + len) with the lower-case word `w`. */
bool ssdsim__fio_word_eq(const char *s, size_t len, const char *w);

/* Case-sensitive comparison of [s, s + len) with the word `w` (fio matches most option values
 * case-sensitively). */
bool ssdsim__fio_word_is(const char *s, size_t len, const char *w);

/* A whole number with fio's integer syntax in [min, max]. */
int ssdsim__fio_parse_uint(const char *s, uint64_t min, uint64_t max, uint64_t *out, char *errbuf,
                           size_t errlen);

/* Room for one part of a value (one direction of "bs=4k,8k", a zone list): a bssplit of 64
 * entries takes under 1,000 bytes. Parts are copied so the number parsers see a C string. */
#define SSDSIM__FIO_PART_MAX 2048

/* A trimmed, NUL-terminated copy of [s, s + len) in dst[SSDSIM__FIO_PART_MAX]; false when it
 * does not fit. */
bool ssdsim__fio_copy_part(char *dst, const char *s, size_t len);

/* fio's per-direction values, "read,write,trim" (HOWTO, bs): "bs=8k,32k" is 8k for reads and 32k
 * for writes and trims ("a value not terminated in a comma applies to subsequent types"),
 * "bs=8k,32k," leaves trims alone, "bs=,8k" leaves reads alone. set[d] says whether direction d
 * is given; a direction not given keeps what the job had (fio's default unless an earlier option
 * changed it). */
struct ssdsim__fio_dirs {
    char part[SSDSIM__N_DIRS][SSDSIM__FIO_PART_MAX];
    bool set[SSDSIM__N_DIRS];
};

int ssdsim__fio_split_dirs(const char *value, struct ssdsim__fio_dirs *dirs, char *errbuf,
                           size_t errlen);

/* A value "NAME" or "NAME:PARAM" (random_distribution, ss), trimmed and copied into `text`: its
 * first `name_len` bytes are the name, `param` what follows the first ':' (NULL without one),
 * `q` the whole value as messages quote it. */
struct ssdsim__fio_named {
    char text[SSDSIM__FIO_PART_MAX];
    size_t name_len;
    const char *param; /* into text */
    struct ssdsim__fio_quoted q;
};

/* Fails with "value too long" when the value does not fit. */
int ssdsim__fio_split_named(const char *value, struct ssdsim__fio_named *nv, char *errbuf,
                            size_t errlen);

/* Whether direction d must be parsed: the ones given, or the first when none is. */
bool ssdsim__fio_dir_used(const struct ssdsim__fio_dirs *dirs, int d);

/* What each direction of a per-direction value is. */
enum ssdsim__fio_dir_kind {
    SSDSIM__FIO_DIR_BLOCK_SIZE, /* ssdsim__fio_parse_block_size */
    SSDSIM__FIO_DIR_SIZE,       /* ssdsim__fio_parse_size */
    SSDSIM__FIO_DIR_UINT,       /* ssdsim__fio_parse_uint in [min, max] */
};

/* The values of a per-direction option ("4k,8k"): set[d] says whether the value gives direction
 * d, v[d] its value. */
struct ssdsim__fio_dir_values {
    uint64_t v[SSDSIM__N_DIRS];
    bool set[SSDSIM__N_DIRS];
};

/* Read every direction of `value` as `kind` says; the first that does not parse fails. */
int ssdsim__fio_parse_dir_values(const char *value, enum ssdsim__fio_dir_kind kind, uint64_t min,
                                 uint64_t max, struct ssdsim__fio_dir_values *out, char *errbuf,
                                 size_t errlen);

/* A whole number with fio's integer syntax, without a message. */
bool ssdsim__fio_uint_ok(const char *s, uint64_t *out);

/* A non-negative decimal number ("1.2", "0.25", "10") of [s, s + len), without a message. */
bool ssdsim__fio_decimal_ok(const char *s, size_t len, double *out);

/* A block size: a non-zero multiple of 512 that a bs entry can hold. */
int ssdsim__fio_parse_block_size(const char *s, uint32_t *out, char *errbuf, size_t errlen);

/* A block-size distribution of one size. */
void ssdsim__fio_bsdist_single(struct ssdsim__bsdist *b, uint32_t bytes);

/* A size in bytes or a percentage ("50%"). */
int ssdsim__fio_size_or_percent(const char *value, uint64_t *bytes, double *pct, char *errbuf,
                                size_t errlen);

/* fio's "empty or boolean" flag (no value: true; an integer: not 0) and its bool (0 or 1). */
int ssdsim__fio_parse_flag(const char *value, bool *out, char *errbuf, size_t errlen);
int ssdsim__fio_parse_bool(const char *value, bool *out, char *errbuf, size_t errlen);

#endif
