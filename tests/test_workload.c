/* test_workload.c: fio option values and options (libssdsim/workload/fioopt.c) and JSON workload
 * loading (libssdsim/workload/workload.c).
 *
 * Good and bogus values for every parser and option, every way a workload file can be wrong,
 * the checks against a device's capacity, and that ssdsim_workload_set commits only on success.
 * Each test frees what it creates, so a sanitizer build doubles as a leak test.
 */
#include "common.h"
#include "workload/workload.h"

#include <string.h>

#include "testutil.h"

#define KiB 1024ULL
#define MiB (1024ULL * KiB)
#define GiB (1024ULL * MiB)
#define TiB (1024ULL * GiB)
#define PiB (1024ULL * TiB)

static char errbuf[512];

/* ------------------------------------------------------------------------------------------ */
/* Helpers                                                                                     */

static uint64_t size_ok(const char *s)
{
    uint64_t v = 0;
    errbuf[0] = '\0';
    int rc = ssdsim__fio_parse_size(s, &v, errbuf, sizeof errbuf);
    ck_assert_msg(rc == 0, "size '%s' refused: %s", s, errbuf);
    return v;
}

/* The value must be refused with SSDSIM_ECONFIG, a reason containing `want`, and *out kept. */
static void size_bad(const char *s, const char *want)
{
    uint64_t v = 77;
    errbuf[0] = '\0';
    int rc = ssdsim__fio_parse_size(s, &v, errbuf, sizeof errbuf);
    ck_assert_msg(rc == SSDSIM_ECONFIG, "size '%s' accepted as %llu", s, (unsigned long long)v);
    ck_assert_uint_eq(v, 77);
    ck_assert_msg(strstr(errbuf, want), "size '%s': reason '%s' lacks '%s'", s, errbuf, want);
}

static uint64_t time_ok(const char *s, uint64_t unit)
{
    uint64_t v = 0;
    errbuf[0] = '\0';
    int rc = ssdsim__fio_parse_time_ns(s, unit, &v, errbuf, sizeof errbuf);
    ck_assert_msg(rc == 0, "time '%s' refused: %s", s, errbuf);
    return v;
}

static void time_bad(const char *s, const char *want)
{
    uint64_t v = 77;
    errbuf[0] = '\0';
    int rc = ssdsim__fio_parse_time_ns(s, SSDSIM__NS_PER_S, &v, errbuf, sizeof errbuf);
    ck_assert_msg(rc == SSDSIM_ECONFIG, "time '%s' accepted as %llu", s, (unsigned long long)v);
    ck_assert_uint_eq(v, 77);
    ck_assert_msg(strstr(errbuf, want), "time '%s': reason '%s' lacks '%s'", s, errbuf, want);
}

static uint32_t split_ok(const char *s, struct ssdsim__bs_entry *out)
{
    uint32_t n = 0;
    errbuf[0] = '\0';
    int rc = ssdsim__fio_parse_bssplit(s, out, &n, errbuf, sizeof errbuf);
    ck_assert_msg(rc == 0, "bssplit '%s' refused: %s", s, errbuf);
    uint32_t total = 0;
    for (uint32_t i = 0; i < n; i++)
        total += out[i].percent;
    ck_assert_uint_eq(total, 100);
    return n;
}

static void split_bad(const char *s, const char *want)
{
    struct ssdsim__bs_entry out[SSDSIM__BSSPLIT_MAX];
    uint32_t n = 99;
    errbuf[0] = '\0';
    int rc = ssdsim__fio_parse_bssplit(s, out, &n, errbuf, sizeof errbuf);
    ck_assert_msg(rc == SSDSIM_ECONFIG, "bssplit '%s' accepted", s);
    ck_assert_uint_eq(n, 99);
    ck_assert_msg(strstr(errbuf, want), "bssplit '%s': reason '%s' lacks '%s'", s, errbuf, want);
}

static void apply_ok(struct ssdsim_workload *wl, const char *key, const char *value)
{
    errbuf[0] = '\0';
    int rc = ssdsim__workload_apply(wl, key, value, errbuf, sizeof errbuf);
    ck_assert_msg(rc == 0, "%s=%s refused: %s", key, value, errbuf);
}

/* The option must be refused, the reason must contain `want`, and the workload stay as it was. */
static void apply_bad(const char *key, const char *value, const char *want)
{
    struct ssdsim_workload wl, before;
    ssdsim__workload_defaults(&wl);
    before = wl;
    errbuf[0] = '\0';
    int rc = ssdsim__workload_apply(&wl, key, value, errbuf, sizeof errbuf);
    ck_assert_msg(rc == SSDSIM_ECONFIG, "%s=%s: expected SSDSIM_ECONFIG, got %d", key, value, rc);
    ck_assert_msg(strstr(errbuf, want), "%s=%s: reason '%s' lacks '%s'", key, value, errbuf, want);
    ck_assert(memcmp(&wl, &before, sizeof wl) == 0);
}

static struct ssdsim_workload wl_with(const char *key, const char *value)
{
    struct ssdsim_workload wl;
    ssdsim__workload_defaults(&wl);
    apply_ok(&wl, key, value);
    return wl;
}

/* Load a JSON text that must fail with `code`; returns the error for further checks. */
static ssdsim_error load_bad(const char *json, int code)
{
    ssdsim_error err;
    memset(&err, 0, sizeof err);
    ssdsim_workload *wl = (ssdsim_workload *)(uintptr_t)1;
    int rc = ssdsim_workload_load_string(&wl, json, "wl.json", &err);
    ck_assert_msg(rc == code, "'%s': expected %s, got %s (%s)", json, ssdsim_errname(code),
                  ssdsim_errname(rc), err.message);
    ck_assert_ptr_null(wl);
    ck_assert_int_eq(err.code, code);
    ck_assert_str_eq(err.file, "wl.json");
    return err;
}

/* ------------------------------------------------------------------------------------------ */
/* Sizes                                                                                       */

START_TEST(test_workload_size_plain_and_suffixes)
{
    ck_assert_uint_eq(size_ok("0"), 0);
    ck_assert_uint_eq(size_ok("512"), 512);
    ck_assert_uint_eq(size_ok("4096"), 4096);
    ck_assert_uint_eq(size_ok("4k"), 4 * KiB);
    ck_assert_uint_eq(size_ok("4K"), 4 * KiB);
    ck_assert_uint_eq(size_ok("1m"), MiB);
    ck_assert_uint_eq(size_ok("1M"), MiB);
    ck_assert_uint_eq(size_ok("2g"), 2 * GiB);
    ck_assert_uint_eq(size_ok("2G"), 2 * GiB);
    ck_assert_uint_eq(size_ok("3t"), 3 * TiB);
    ck_assert_uint_eq(size_ok("3T"), 3 * TiB);
    ck_assert_uint_eq(size_ok("5p"), 5 * PiB);
    ck_assert_uint_eq(size_ok("5P"), 5 * PiB);
    ck_assert_uint_eq(size_ok("18446744073709551615"), UINT64_MAX);
    ck_assert_uint_eq(size_ok("16383p"), 16383 * PiB);
}
END_TEST

START_TEST(test_workload_size_b_and_iec_suffixes)
{
    /* kb_base=1024: KB is 1024 as in fio; a trailing b/B is ignored; a lone b is bytes. */
    ck_assert_uint_eq(size_ok("4kb"), 4 * KiB);
    ck_assert_uint_eq(size_ok("4KB"), 4 * KiB);
    ck_assert_uint_eq(size_ok("4kB"), 4 * KiB);
    ck_assert_uint_eq(size_ok("1MB"), MiB);
    ck_assert_uint_eq(size_ok("1GB"), GiB);
    ck_assert_uint_eq(size_ok("1TB"), TiB);
    ck_assert_uint_eq(size_ok("1PB"), PiB);
    ck_assert_uint_eq(size_ok("512b"), 512);
    ck_assert_uint_eq(size_ok("512B"), 512);
    /* IEC forms are powers of 1024 in ssdsim (fio reads them as powers of 1000). */
    ck_assert_uint_eq(size_ok("4KiB"), 4 * KiB);
    ck_assert_uint_eq(size_ok("4kib"), 4 * KiB);
    ck_assert_uint_eq(size_ok("1MiB"), MiB);
    ck_assert_uint_eq(size_ok("1GiB"), GiB);
    ck_assert_uint_eq(size_ok("1TiB"), TiB);
    ck_assert_uint_eq(size_ok("1PiB"), PiB);
    ck_assert_uint_eq(size_ok("64Gi"), 64 * GiB);
}
END_TEST

START_TEST(test_workload_size_fraction_rounds_down)
{
    ck_assert_uint_eq(size_ok("1.5g"), 3 * GiB / 2);
    ck_assert_uint_eq(size_ok("1.5G"), 1610612736ULL);
    ck_assert_uint_eq(size_ok("0.5k"), 512);
    ck_assert_uint_eq(size_ok("2.25MiB"), 2 * MiB + MiB / 4);
    ck_assert_uint_eq(size_ok("0.1k"), 102);    /* 102.4 rounded down */
    ck_assert_uint_eq(size_ok("0.999k"), 1022); /* 1022.976 */
    ck_assert_uint_eq(size_ok("1.0000000000000000000000001k"), 1024);
    ck_assert_uint_eq(size_ok("15.999999999999999999p"), 16 * PiB - 1);
    ck_assert_uint_eq(size_ok("16383.99999999999999999999p"), UINT64_MAX);
}
END_TEST

START_TEST(test_workload_size_hex_and_whitespace)
{
    ck_assert_uint_eq(size_ok("0x1000"), 4096);
    ck_assert_uint_eq(size_ok("0XfF"), 255);
    ck_assert_uint_eq(size_ok("  4k  "), 4 * KiB);
    ck_assert_uint_eq(size_ok("\t64m\n"), 64 * MiB);
}
END_TEST

START_TEST(test_workload_size_bad)
{
    size_bad("", "expected a size like 4k or 1m, got ''");
    size_bad("   ", "expected a size");
    size_bad("x", "expected a size like 4k or 1m, got 'x'");
    size_bad("four", "got 'four'");
    size_bad("k", "expected a size");
    size_bad("4x", "got '4x'");
    size_bad("4kk", "expected a size");
    size_bad("4kbb", "expected a size");
    size_bad("4kfoo", "expected a size"); /* fio would take the "k" and ignore the rest */
    size_bad("4 k", "expected a size");
    size_bad("1.", "expected a size");
    size_bad(".5k", "expected a size");
    size_bad("1.5", "fraction of a byte");
    size_bad("1.5b", "fraction of a byte");
    size_bad("0x", "expected a size");
    size_bad("0x10k", "expected a size");
    size_bad("0xg", "expected a size");
    size_bad("-4k", "cannot be negative");
    size_bad("-1", "cannot be negative");
    size_bad("+4k", "expected a size");
    size_bad("4e3", "expected a size");
    size_bad("18446744073709551616", "too large");
    size_bad("16384p", "too large");
    size_bad("99999999999999999999999", "too large");
    size_bad("0x10000000000000000", "too large");
    size_bad("16384.5p", "too large");
    size_bad("50%", "expected a size");
    size_bad(NULL, "got nothing");
}
END_TEST

/* ------------------------------------------------------------------------------------------ */
/* Times                                                                                       */

START_TEST(test_workload_time_default_unit)
{
    ck_assert_uint_eq(time_ok("10", SSDSIM__NS_PER_S), 10 * SSDSIM__NS_PER_S);
    ck_assert_uint_eq(time_ok("10", SSDSIM__NS_PER_US), 10 * SSDSIM__NS_PER_US);
    ck_assert_uint_eq(time_ok("0", SSDSIM__NS_PER_S), 0);
    ck_assert_uint_eq(time_ok(" 3 ", SSDSIM__NS_PER_S), 3 * SSDSIM__NS_PER_S);
}
END_TEST

START_TEST(test_workload_time_suffixes)
{
    const uint64_t s = SSDSIM__NS_PER_S;
    ck_assert_uint_eq(time_ok("7ns", s), 7);
    ck_assert_uint_eq(time_ok("7nsec", s), 7);
    ck_assert_uint_eq(time_ok("50us", s), 50 * SSDSIM__NS_PER_US);
    ck_assert_uint_eq(time_ok("50usec", s), 50 * SSDSIM__NS_PER_US);
    ck_assert_uint_eq(time_ok("500ms", s), 500 * SSDSIM__NS_PER_MS);
    ck_assert_uint_eq(time_ok("500msec", s), 500 * SSDSIM__NS_PER_MS);
    ck_assert_uint_eq(time_ok("10s", SSDSIM__NS_PER_US), 10 * s);
    ck_assert_uint_eq(time_ok("10sec", s), 10 * s);
    ck_assert_uint_eq(time_ok("10m", s), 600 * s); /* minutes, not milli */
    ck_assert_uint_eq(time_ok("10min", s), 600 * s);
    ck_assert_uint_eq(time_ok("2h", s), 7200 * s);
    ck_assert_uint_eq(time_ok("1d", s), 86400 * s);
    /* Units are not case sensitive, as in fio. */
    ck_assert_uint_eq(time_ok("10S", s), 10 * s);
    ck_assert_uint_eq(time_ok("10M", s), 600 * s);
    ck_assert_uint_eq(time_ok("5MS", s), 5 * SSDSIM__NS_PER_MS);
    ck_assert_uint_eq(time_ok("1H", s), 3600 * s);
}
END_TEST

START_TEST(test_workload_time_fraction)
{
    ck_assert_uint_eq(time_ok("1.5s", SSDSIM__NS_PER_S), 1500 * SSDSIM__NS_PER_MS);
    ck_assert_uint_eq(time_ok("1.5", SSDSIM__NS_PER_S), 1500 * SSDSIM__NS_PER_MS);
    ck_assert_uint_eq(time_ok("0.25ms", SSDSIM__NS_PER_S), 250 * SSDSIM__NS_PER_US);
    ck_assert_uint_eq(time_ok("1.5ns", SSDSIM__NS_PER_S), 1);
    ck_assert_uint_eq(time_ok("0.5h", SSDSIM__NS_PER_S), 1800 * SSDSIM__NS_PER_S);
}
END_TEST

START_TEST(test_workload_time_bad)
{
    time_bad("", "expected a time like 10s");
    time_bad("s", "expected a time");
    time_bad("ten", "got 'ten'");
    time_bad("10x", "got '10x'");
    time_bad("10 s", "expected a time");
    time_bad("10ss", "expected a time");
    time_bad("10k", "expected a time");
    time_bad("10w", "expected a time");
    time_bad("-1s", "cannot be negative");
    time_bad("1.", "expected a time");
    time_bad("18446744073709551616ns", "too long");
    time_bad("18446744074s", "too long");
    time_bad("213504d", "too long");
    ck_assert_uint_eq(time_ok("213503d", SSDSIM__NS_PER_S), 213503ULL * 86400 * SSDSIM__NS_PER_S);
    time_bad(NULL, "got nothing");
}
END_TEST

/* ------------------------------------------------------------------------------------------ */
/* bssplit                                                                                     */

START_TEST(test_workload_bssplit_basic)
{
    struct ssdsim__bs_entry e[SSDSIM__BSSPLIT_MAX];
    ck_assert_uint_eq(split_ok("512/10:4k/60:64k/30", e), 3);
    ck_assert_uint_eq(e[0].bytes, 512);
    ck_assert_uint_eq(e[0].percent, 10);
    ck_assert_uint_eq(e[1].bytes, 4096);
    ck_assert_uint_eq(e[1].percent, 60);
    ck_assert_uint_eq(e[2].bytes, 65536);
    ck_assert_uint_eq(e[2].percent, 30);

    ck_assert_uint_eq(split_ok("4k/100", e), 1);
    ck_assert_uint_eq(e[0].bytes, 4096);
    ck_assert_uint_eq(e[0].percent, 100);

    /* Blanks around fields are ignored. */
    ck_assert_uint_eq(split_ok(" 4k / 50 : 8k / 50 ", e), 2);
    ck_assert_uint_eq(e[1].bytes, 8192);
    ck_assert_uint_eq(e[1].percent, 50);
}
END_TEST

START_TEST(test_workload_bssplit_blank_percentages)
{
    struct ssdsim__bs_entry e[SSDSIM__BSSPLIT_MAX];
    /* "4k/" and "4k" both mean "share the rest". */
    ck_assert_uint_eq(split_ok("4k/50:8k/:16k", e), 3);
    ck_assert_uint_eq(e[0].percent, 50);
    ck_assert_uint_eq(e[1].percent, 25);
    ck_assert_uint_eq(e[2].percent, 25);

    /* A lone entry without a percentage gets everything. */
    ck_assert_uint_eq(split_ok("16k", e), 1);
    ck_assert_uint_eq(e[0].bytes, 16384);
    ck_assert_uint_eq(e[0].percent, 100);

    /* All blank: equal shares. */
    ck_assert_uint_eq(split_ok("4k:8k:16k:32k", e), 4);
    for (int i = 0; i < 4; i++)
        ck_assert_uint_eq(e[i].percent, 25);

    /* Explicit ones already 100: the blank ones get 0. */
    ck_assert_uint_eq(split_ok("4k/100:8k", e), 2);
    ck_assert_uint_eq(e[1].percent, 0);
}
END_TEST

START_TEST(test_workload_bssplit_remainder_to_last_blank)
{
    struct ssdsim__bs_entry e[SSDSIM__BSSPLIT_MAX];
    /* 100 / 3 = 33 each, the 1 left over goes to the last blank entry. */
    ck_assert_uint_eq(split_ok("4k:8k:16k", e), 3);
    ck_assert_uint_eq(e[0].percent, 33);
    ck_assert_uint_eq(e[1].percent, 33);
    ck_assert_uint_eq(e[2].percent, 34);

    /* 90 left for 4 blank entries: 22 each, 2 extra to the last blank (not to the 10%). */
    ck_assert_uint_eq(split_ok("4k:8k:16k/10:32k:64k", e), 5);
    ck_assert_uint_eq(e[0].percent, 22);
    ck_assert_uint_eq(e[1].percent, 22);
    ck_assert_uint_eq(e[2].percent, 10);
    ck_assert_uint_eq(e[3].percent, 22);
    ck_assert_uint_eq(e[4].percent, 24);
}
END_TEST

START_TEST(test_workload_bssplit_zero_percent_is_blank)
{
    /* As in fio, "/0" counts as "no percentage given". */
    struct ssdsim__bs_entry e[SSDSIM__BSSPLIT_MAX];
    ck_assert_uint_eq(split_ok("512/0:4k/100", e), 2);
    ck_assert_uint_eq(e[0].percent, 0);
    ck_assert_uint_eq(split_ok("512/0:4k/60", e), 2);
    ck_assert_uint_eq(e[0].percent, 40);
}
END_TEST

START_TEST(test_workload_bssplit_max_entries)
{
    char buf[2048];
    size_t n = 0;
    struct ssdsim__bs_entry e[SSDSIM__BSSPLIT_MAX];
    /* 64 entries (the maximum) of 1..64 KiB without percentages. */
    for (int i = 1; i <= SSDSIM__BSSPLIT_MAX; i++)
        n += (size_t)snprintf(buf + n, sizeof buf - n, "%s%dk", i > 1 ? ":" : "", i);
    ck_assert_uint_eq(split_ok(buf, e), SSDSIM__BSSPLIT_MAX);
    ck_assert_uint_eq(e[63].bytes, 64 * 1024);
    ck_assert_uint_eq(e[0].percent, 1);
    ck_assert_uint_eq(e[63].percent, 1 + 100 % 64);
    /* One more is too many. */
    snprintf(buf + n, sizeof buf - n, ":65k");
    split_bad(buf, "more than 64 entries");
}
END_TEST

START_TEST(test_workload_bssplit_bad)
{
    split_bad("4k/50:8k/40", "add up to 90, not 100");
    split_bad("4k/60:8k/60", "add up to 120, more than 100");
    split_bad("4k/60:8k/60:16k", "more than 100");
    split_bad("4k/50", "add up to 50, not 100");
    split_bad("4k/101", "whole percentage in [0, 100], got '101'");
    split_bad("4k/1000", "whole percentage");
    split_bad("4k/12.5:8k", "whole percentage");
    split_bad("4k/abc", "whole percentage");
    split_bad("4k/-5:8k", "whole percentage");
    split_bad("4k/50%:8k/50", "whole percentage");
    split_bad("4k/50,16k/100", "per-direction bssplit (',') is not supported yet");
    split_bad(",4k/100", "per-direction");
    split_bad("", "entry 1 is empty");
    split_bad("4k/50::8k/50", "entry 2 is empty");
    split_bad("4k/100:", "entry 2 is empty");
    split_bad("/100", "entry 1: expected a size like 4k or 1m, got ''");
    split_bad("four/100", "entry 1: expected a size like 4k or 1m, got 'four'");
    split_bad("4k/50:x/50", "entry 2: expected a size");
    split_bad("-4k/100", "entry 1: a size cannot be negative");
    split_bad("1000/100", "multiple of 512");
    split_bad("0/100", "multiple of 512");
    split_bad("4k/50:1.1k/50", "entry 2: block size must be a non-zero multiple of 512");
    split_bad("4g/100", "multiple of 512 up to");
    split_bad(NULL, "got nothing");
}
END_TEST

/* ------------------------------------------------------------------------------------------ */
/* Options                                                                                     */

START_TEST(test_workload_defaults)
{
    struct ssdsim_workload wl;
    memset(&wl, 0xA5, sizeof wl);
    ssdsim__workload_defaults(&wl);
    ck_assert_int_eq(wl.rw, SSDSIM__RW_READ);
    ck_assert_uint_eq(wl.n_bs, 1);
    ck_assert_uint_eq(wl.bs[0].bytes, 4096);
    ck_assert_uint_eq(wl.bs[0].percent, 100);
    ck_assert_uint_eq(wl.rwmixread, 50);
    ck_assert_uint_eq(wl.iodepth, 1);
    ck_assert_uint_eq(wl.numjobs, 1);
    ck_assert_uint_eq(wl.size_bytes, 0);
    ck_assert(wl.size_percent == 0);
    ck_assert_uint_eq(wl.offset_bytes, 0);
    ck_assert(wl.offset_percent == 0);
    ck_assert_uint_eq(wl.number_ios, 0);
    ck_assert_uint_eq(wl.runtime_ns, 0);
    ck_assert(!wl.has_randseed);
    ck_assert_ptr_null(wl.label);
}
END_TEST

START_TEST(test_workload_opt_rw)
{
    static const struct {
        const char *value;
        enum ssdsim__rw rw;
    } good[] = {
        {"read", SSDSIM__RW_READ},         {"write", SSDSIM__RW_WRITE},
        {"randread", SSDSIM__RW_RANDREAD}, {"randwrite", SSDSIM__RW_RANDWRITE},
        {"randrw", SSDSIM__RW_RANDRW},     {"rw", SSDSIM__RW_RW},
        {"readwrite", SSDSIM__RW_RW},      {"trim", SSDSIM__RW_TRIM},
        {"randtrim", SSDSIM__RW_RANDTRIM}, {" randwrite ", SSDSIM__RW_RANDWRITE},
    };
    for (size_t i = 0; i < sizeof good / sizeof good[0]; i++) {
        struct ssdsim_workload wl = wl_with("rw", good[i].value);
        ck_assert_int_eq(wl.rw, good[i].rw);
        wl = wl_with("readwrite", good[i].value); /* fio's alias of the key */
        ck_assert_int_eq(wl.rw, good[i].rw);
    }
    apply_bad("rw", "randwrite:8", "rw ':N' suffix is not supported yet");
    apply_bad("rw", "rw:4k", "rw ':N' suffix is not supported yet");
    apply_bad("rw", "trimwrite", "rw 'trimwrite' is not supported yet");
    apply_bad("rw", "randtrimwrite", "not supported yet");
    apply_bad("rw", "random", "expected one of read, write");
    apply_bad("rw", "READ", "got 'READ'"); /* fio's values are case-sensitive */
    apply_bad("rw", "", "got ''");
    apply_bad("readwrite", "sideways", "got 'sideways'");
}
END_TEST

START_TEST(test_workload_opt_bs)
{
    struct ssdsim_workload wl;
    ssdsim__workload_defaults(&wl);
    apply_ok(&wl, "bssplit", "4k/50:8k/50");
    apply_ok(&wl, "bs", "16k"); /* replaces the split */
    ck_assert_uint_eq(wl.n_bs, 1);
    ck_assert_uint_eq(wl.bs[0].bytes, 16384);
    ck_assert_uint_eq(wl.bs[0].percent, 100);
    wl = wl_with("blocksize", "512");
    ck_assert_uint_eq(wl.bs[0].bytes, 512);
    wl = wl_with("bs", "1m");
    ck_assert_uint_eq(wl.bs[0].bytes, MiB);

    apply_bad("bs", "four", "expected a size like 4k or 1m, got 'four'");
    apply_bad("bs", "4k,8k", "per-direction bs ('4k,8k') is not supported yet");
    apply_bad("bs", "0", "non-zero multiple of 512");
    apply_bad("bs", "1000", "multiple of 512");
    apply_bad("bs", "4g", "up to 4294966784");
    apply_bad("bs", "-4k", "cannot be negative");
    apply_bad("blocksize", "1.1k", "multiple of 512");
}
END_TEST

START_TEST(test_workload_opt_bssplit)
{
    struct ssdsim_workload wl = wl_with("bssplit", "512/10:4k/60:64k/30");
    ck_assert_uint_eq(wl.n_bs, 3);
    ck_assert_uint_eq(wl.bs[2].bytes, 65536);
    ck_assert_uint_eq(wl.bs[2].percent, 30);
    apply_bad("bssplit", "4k/50:8k/40", "not 100");
    apply_bad("bssplit", "4k/50:8k/50,16k/100", "per-direction bssplit");
    apply_bad("bssplit", "1000/100", "multiple of 512");
}
END_TEST

START_TEST(test_workload_opt_rwmix)
{
    ck_assert_uint_eq(wl_with("rwmixread", "70").rwmixread, 70);
    ck_assert_uint_eq(wl_with("rwmixread", "0").rwmixread, 0);
    ck_assert_uint_eq(wl_with("rwmixread", "100").rwmixread, 100);
    ck_assert_uint_eq(wl_with("rwmixwrite", "30").rwmixread, 70);
    ck_assert_uint_eq(wl_with("rwmixwrite", "100").rwmixread, 0);
    ck_assert_uint_eq(wl_with("rwmixwrite", "0").rwmixread, 100);
    apply_bad("rwmixread", "101", "expected an integer in [0, 100], got '101'");
    apply_bad("rwmixread", "-1", "expected an integer in [0, 100]");
    apply_bad("rwmixread", "50.5", "got '50.5'");
    apply_bad("rwmixread", "half", "got 'half'");
    apply_bad("rwmixwrite", "200", "in [0, 100]");
    apply_bad("rwmixwrite", "", "in [0, 100]");
}
END_TEST

START_TEST(test_workload_opt_iodepth_numjobs)
{
    ck_assert_uint_eq(wl_with("iodepth", "1").iodepth, 1);
    ck_assert_uint_eq(wl_with("iodepth", "32").iodepth, 32);
    ck_assert_uint_eq(wl_with("iodepth", "65536").iodepth, 65536);
    ck_assert_uint_eq(wl_with("iodepth", "1k").iodepth, 1024); /* fio's integers take k too */
    ck_assert_uint_eq(wl_with("numjobs", "1").numjobs, 1);
    ck_assert_uint_eq(wl_with("numjobs", "4096").numjobs, 4096);
    apply_bad("iodepth", "0", "expected an integer in [1, 65536], got '0'");
    apply_bad("iodepth", "65537", "in [1, 65536]");
    apply_bad("iodepth", "-1", "in [1, 65536]");
    apply_bad("iodepth", "deep", "got 'deep'");
    apply_bad("numjobs", "0", "expected an integer in [1, 4096], got '0'");
    apply_bad("numjobs", "4097", "in [1, 4096]");
    apply_bad("numjobs", "99999999999999999999999", "in [1, 4096]");
}
END_TEST

START_TEST(test_workload_opt_size)
{
    struct ssdsim_workload wl = wl_with("size", "64g");
    ck_assert_uint_eq(wl.size_bytes, 64 * GiB);
    ck_assert(wl.size_percent == 0);
    wl = wl_with("size", "50%");
    ck_assert_uint_eq(wl.size_bytes, 0);
    ck_assert(wl.size_percent == 50);
    wl = wl_with("size", "100%");
    ck_assert(wl.size_percent == 100);
    wl = wl_with("size", "12.5%");
    ck_assert(wl.size_percent == 12.5);
    /* Bytes after a percentage clear the percentage. */
    apply_ok(&wl, "size", "1m");
    ck_assert_uint_eq(wl.size_bytes, MiB);
    ck_assert(wl.size_percent == 0);
    wl = wl_with("size", "0");
    ck_assert_uint_eq(wl.size_bytes, 0);

    apply_bad("size", "0%", "a size percentage must be in (0, 100], got 0%");
    apply_bad("size", "101%", "(0, 100]");
    apply_bad("size", "-5%", "expected a percentage like 50%, got '-5%'");
    apply_bad("size", "%", "expected a percentage");
    apply_bad("size", "abc%", "expected a percentage");
    apply_bad("size", "5 %", "expected a percentage");
    apply_bad("size", "big", "expected a size like 4k or 1m, got 'big'");
    apply_bad("size", "-1g", "cannot be negative");
}
END_TEST

START_TEST(test_workload_opt_offset)
{
    struct ssdsim_workload wl = wl_with("offset", "1g");
    ck_assert_uint_eq(wl.offset_bytes, GiB);
    ck_assert(wl.offset_percent == 0);
    wl = wl_with("offset", "25%");
    ck_assert_uint_eq(wl.offset_bytes, 0);
    ck_assert(wl.offset_percent == 25);
    wl = wl_with("offset", "0%");
    ck_assert(wl.offset_percent == 0);
    ck_assert_uint_eq(wl.offset_bytes, 0);
    wl = wl_with("offset", "99.5%");
    ck_assert(wl.offset_percent == 99.5);
    wl = wl_with("offset", "0");
    ck_assert_uint_eq(wl.offset_bytes, 0);

    apply_bad("offset", "100%", "an offset percentage must be in [0, 100), got 100%");
    apply_bad("offset", "150%", "[0, 100)");
    apply_bad("offset", "1000", "offset must be a multiple of 512 bytes, got 1000");
    apply_bad("offset", "there", "expected a size");
    apply_bad("offset", "-4k", "cannot be negative");
}
END_TEST

START_TEST(test_workload_opt_number_ios_runtime_randseed)
{
    ck_assert_uint_eq(wl_with("number_ios", "100000").number_ios, 100000);
    ck_assert_uint_eq(wl_with("number_ios", "1m").number_ios, MiB);
    apply_bad("number_ios", "0", "expected an integer >= 1, got '0'");
    apply_bad("number_ios", "many", "got 'many'");
    apply_bad("number_ios", "1.5", "got '1.5'");

    ck_assert_uint_eq(wl_with("runtime", "10").runtime_ns, 10 * SSDSIM__NS_PER_S);
    ck_assert_uint_eq(wl_with("runtime", "10m").runtime_ns, 600 * SSDSIM__NS_PER_S);
    ck_assert_uint_eq(wl_with("runtime", "250ms").runtime_ns, 250 * SSDSIM__NS_PER_MS);
    ck_assert_uint_eq(wl_with("timeout", "2").runtime_ns, 2 * SSDSIM__NS_PER_S);
    apply_bad("runtime", "0", "runtime must be greater than 0");
    apply_bad("runtime", "0s", "greater than 0");
    apply_bad("runtime", "soon", "expected a time like 10s or 500ms");
    apply_bad("runtime", "-5", "cannot be negative");

    struct ssdsim_workload wl = wl_with("randseed", "42");
    ck_assert(wl.has_randseed);
    ck_assert_uint_eq(wl.randseed, 42);
    wl = wl_with("randseed", "0");
    ck_assert(wl.has_randseed);
    ck_assert_uint_eq(wl.randseed, 0);
    ck_assert_uint_eq(wl_with("randseed", "18446744073709551615").randseed, UINT64_MAX);
    apply_bad("randseed", "lucky", "got 'lucky'");
    apply_bad("randseed", "18446744073709551616", "expected an integer");
    apply_bad("randseed", "-1", "expected an integer");
}
END_TEST

START_TEST(test_workload_opt_name_description)
{
    struct ssdsim_workload def, wl;
    ssdsim__workload_defaults(&def);
    wl = wl_with("name", "random writers");
    ck_assert(memcmp(&wl, &def, sizeof wl) == 0);
    wl = wl_with("description", "4k random writes at QD16");
    ck_assert(memcmp(&wl, &def, sizeof wl) == 0);
    wl = wl_with("name", "");
    ck_assert(memcmp(&wl, &def, sizeof wl) == 0);
}
END_TEST

START_TEST(test_workload_opt_unknown_suggests)
{
    struct ssdsim_workload wl, def;
    ssdsim__workload_defaults(&wl);
    def = wl;
    int rc = ssdsim__workload_apply(&wl, "iodept", "16", errbuf, sizeof errbuf);
    ck_assert_int_eq(rc, SSDSIM_ENOTFOUND);
    ck_assert_str_eq(errbuf, "unknown option (did you mean 'iodepth'?)");
    rc = ssdsim__workload_apply(&wl, "IODEPTH", "16", errbuf, sizeof errbuf);
    ck_assert_int_eq(rc, SSDSIM_ENOTFOUND);
    ck_assert_str_eq(errbuf, "unknown option (did you mean 'iodepth'?)");
    rc = ssdsim__workload_apply(&wl, "blocksz", "4k", errbuf, sizeof errbuf);
    ck_assert_int_eq(rc, SSDSIM_ENOTFOUND);
    ck_assert_str_eq(errbuf, "unknown option (did you mean 'blocksize'?)");
    rc = ssdsim__workload_apply(&wl, "rwmixred", "4k", errbuf, sizeof errbuf);
    ck_assert_str_eq(errbuf, "unknown option (did you mean 'rwmixread'?)");
    /* Nothing close: no suggestion. */
    rc = ssdsim__workload_apply(&wl, "ioengine", "libaio", errbuf, sizeof errbuf);
    ck_assert_int_eq(rc, SSDSIM_ENOTFOUND);
    ck_assert_str_eq(errbuf, "unknown option");
    rc = ssdsim__workload_apply(&wl, "", "x", errbuf, sizeof errbuf);
    ck_assert_int_eq(rc, SSDSIM_ENOTFOUND);
    rc = ssdsim__workload_apply(&wl,
                                "a_very_long_option_name_that_goes_on_and_on_and_on_and_on_"
                                "and_on_and_on",
                                "x", errbuf, sizeof errbuf);
    ck_assert_int_eq(rc, SSDSIM_ENOTFOUND);
    ck_assert(memcmp(&wl, &def, sizeof wl) == 0);
    /* A known option without a value, and no option name at all. */
    ck_assert_int_eq(ssdsim__workload_apply(&wl, "bs", NULL, errbuf, sizeof errbuf),
                     SSDSIM_ECONFIG);
    ck_assert_int_eq(ssdsim__workload_apply(&wl, NULL, "4k", errbuf, sizeof errbuf),
                     SSDSIM_ECONFIG);
    /* A NULL or tiny error buffer is fine. */
    ck_assert_int_eq(ssdsim__workload_apply(&wl, "bs", "x", NULL, 0), SSDSIM_ECONFIG);
    char tiny[4];
    ck_assert_int_eq(ssdsim__workload_apply(&wl, "bs", "xxxx", tiny, sizeof tiny), SSDSIM_ECONFIG);
    ck_assert_str_eq(tiny, "exp");
    ck_assert(memcmp(&wl, &def, sizeof wl) == 0);
}
END_TEST

/* ------------------------------------------------------------------------------------------ */
/* JSON workloads                                                                              */

START_TEST(test_workload_load_file_good)
{
    char path[1024];
    ssdsim_error err;
    ssdsim_workload *wl = NULL;
    test_src_path(path, sizeof path, "tests/data/wl-randwrite-4k.json");
    int rc = ssdsim_workload_load_file(&wl, path, &err);
    ck_assert_msg(rc == 0, "%s", err.message);
    ck_assert_ptr_nonnull(wl);
    ck_assert_str_eq(wl->label, path);
    ck_assert_int_eq(wl->rw, SSDSIM__RW_RANDWRITE);
    ck_assert_uint_eq(wl->n_bs, 1);
    ck_assert_uint_eq(wl->bs[0].bytes, 4096);
    ck_assert_uint_eq(wl->iodepth, 16);
    ck_assert_uint_eq(wl->numjobs, 16);
    ck_assert_uint_eq(wl->number_ios, 100000);
    ck_assert_uint_eq(wl->rwmixread, 50);
    ssdsim_workload_free(wl);
}
END_TEST

START_TEST(test_workload_load_string_good)
{
    ssdsim_error err;
    ssdsim_workload *wl = NULL;
    const char *json = "{ \"name\": \"mixed\", \"description\": \"70/30 mix\",\n"
                       "  \"readwrite\": \"randrw\", \"rwmixwrite\": 30,\n"
                       "  \"bssplit\": \"4k/80:64k/20\", \"iodepth\": 32, \"numjobs\": \"4\",\n"
                       "  \"size\": \"50%\", \"offset\": \"1g\", \"runtime\": 60,\n"
                       "  \"randseed\": 1234, \"number_ios\": 1e6 }";
    int rc = ssdsim_workload_load_string(&wl, json, NULL, &err);
    ck_assert_msg(rc == 0, "%s", err.message);
    ck_assert_str_eq(wl->label, "<string>");
    ck_assert_int_eq(wl->rw, SSDSIM__RW_RANDRW);
    ck_assert_uint_eq(wl->rwmixread, 70);
    ck_assert_uint_eq(wl->n_bs, 2);
    ck_assert_uint_eq(wl->bs[1].bytes, 65536);
    ck_assert_uint_eq(wl->bs[1].percent, 20);
    ck_assert_uint_eq(wl->iodepth, 32);
    ck_assert_uint_eq(wl->numjobs, 4);
    ck_assert(wl->size_percent == 50);
    ck_assert_uint_eq(wl->offset_bytes, GiB);
    ck_assert_uint_eq(wl->runtime_ns, 60 * SSDSIM__NS_PER_S);
    ck_assert(wl->has_randseed);
    ck_assert_uint_eq(wl->randseed, 1234);
    ck_assert_uint_eq(wl->number_ios, 1000000);
    ssdsim_workload_free(wl);

    /* An empty object is all defaults; the caller's label is kept; err may be NULL. */
    rc = ssdsim_workload_load_string(&wl, " {} ", "my label", NULL);
    ck_assert_int_eq(rc, 0);
    ck_assert_str_eq(wl->label, "my label");
    ck_assert_int_eq(wl->rw, SSDSIM__RW_READ);
    ck_assert_uint_eq(wl->iodepth, 1);
    ssdsim_workload_free(wl);

    /* A byte order mark is skipped; a fractional runtime number is seconds. */
    rc = ssdsim_workload_load_string(&wl, "\xEF\xBB\xBF{\"runtime\": 0.5}", NULL, &err);
    ck_assert_msg(rc == 0, "%s", err.message);
    ck_assert_uint_eq(wl->runtime_ns, 500 * SSDSIM__NS_PER_MS);
    ssdsim_workload_free(wl);
}
END_TEST

START_TEST(test_workload_load_bad_value_message)
{
    ssdsim_error err = load_bad("{\"bs\": \"four\"}", SSDSIM_ECONFIG);
    ck_assert_str_eq(err.message, "wl.json: bs: expected a size like 4k or 1m, got 'four'");
    ck_assert_str_eq(err.path, "bs");
    ck_assert_int_eq(err.line, 0);

    err = load_bad("{\"rw\": \"randwrite\", \"iodepth\": 0}", SSDSIM_ECONFIG);
    ck_assert_str_eq(err.message, "wl.json: iodepth: expected an integer in [1, 65536], got '0'");

    /* Numbers are passed as fio text: integers as integers, others as the shortest exact form. */
    err = load_bad("{\"iodepth\": 16.5}", SSDSIM_ECONFIG);
    ck_assert_str_eq(err.message, "wl.json: iodepth: expected an integer in [1, 65536], got "
                                  "'16.5'");
    err = load_bad("{\"rwmixread\": 0.1}", SSDSIM_ECONFIG);
    ck_assert_str_eq(err.message, "wl.json: rwmixread: expected an integer in [0, 100], got "
                                  "'0.1'");
    err = load_bad("{\"iodepth\": -3}", SSDSIM_ECONFIG);
    ck_assert_ptr_nonnull(strstr(err.message, "got '-3'"));
    err = load_bad("{\"bs\": 1000}", SSDSIM_ECONFIG);
    ck_assert_ptr_nonnull(strstr(err.message, "wl.json: bs: block size must be"));
    err = load_bad("{\"rw\": \"randrw:4\"}", SSDSIM_ECONFIG);
    ck_assert_str_eq(err.message, "wl.json: rw: rw ':N' suffix is not supported yet");
}
END_TEST

START_TEST(test_workload_load_big_integer_number)
{
    /* Above 2^53 a JSON number may already be rounded: it must be written as a string. */
    ssdsim_error err = load_bad("{\"randseed\": 18446744073709551615}", SSDSIM_ECONFIG);
    ck_assert_ptr_nonnull(strstr(err.message, "write it as a string"));
    ck_assert_str_eq(err.path, "randseed");

    ssdsim_workload *wl = NULL;
    int rc = ssdsim_workload_load_string(&wl,
                                         "{\"randseed\": \"18446744073709551615\", "
                                         "\"number_ios\": 9007199254740992}",
                                         NULL, &err);
    ck_assert_msg(rc == 0, "%s", err.message);
    ck_assert_uint_eq(wl->randseed, UINT64_MAX);
    ck_assert_uint_eq(wl->number_ios, 9007199254740992ULL);
    ssdsim_workload_free(wl);
}
END_TEST

START_TEST(test_workload_load_unknown_key_suggestion)
{
    char path[1024];
    ssdsim_error err;
    ssdsim_workload *wl = (ssdsim_workload *)(uintptr_t)1;
    test_src_path(path, sizeof path, "tests/data/wl-bad-unknown.json");
    int rc = ssdsim_workload_load_file(&wl, path, &err);
    ck_assert_int_eq(rc, SSDSIM_ECONFIG);
    ck_assert_ptr_null(wl);
    ck_assert_int_eq(err.code, SSDSIM_ECONFIG);
    ck_assert_str_eq(err.file, path);
    ck_assert_str_eq(err.path, "iodept");
    char want[1400];
    snprintf(want, sizeof want, "%s: iodept: unknown option (did you mean 'iodepth'?)", path);
    ck_assert_str_eq(err.message, want);

    err = load_bad("{\"ioengine\": \"libaio\"}", SSDSIM_ECONFIG);
    ck_assert_str_eq(err.message, "wl.json: ioengine: unknown option");
}
END_TEST

START_TEST(test_workload_load_duplicate_key)
{
    ssdsim_error err = load_bad("{\"bs\": \"4k\", \"iodepth\": 4, \"bs\": \"8k\"}", SSDSIM_ECONFIG);
    ck_assert_str_eq(err.message, "wl.json: bs: duplicate key");
    ck_assert_str_eq(err.path, "bs");
    /* Even with the same value. */
    err = load_bad("{\"iodepth\": 4, \"iodepth\": 4}", SSDSIM_ECONFIG);
    ck_assert_str_eq(err.path, "iodepth");
}
END_TEST

START_TEST(test_workload_load_conflicting_keys)
{
    ssdsim_error err = load_bad("{\"rw\": \"read\", \"readwrite\": \"write\"}", SSDSIM_ECONFIG);
    ck_assert_str_eq(err.message,
                     "wl.json: readwrite: sets the same thing as 'rw' given before; keep one");
    err = load_bad("{\"bssplit\": \"4k/100\", \"bs\": \"8k\"}", SSDSIM_ECONFIG);
    ck_assert_str_eq(err.path, "bs");
    err = load_bad("{\"blocksize\": \"4k\", \"bs\": \"8k\"}", SSDSIM_ECONFIG);
    ck_assert_str_eq(err.path, "bs");
    err = load_bad("{\"rwmixread\": 70, \"rwmixwrite\": 30}", SSDSIM_ECONFIG);
    ck_assert_str_eq(err.path, "rwmixwrite");
    err = load_bad("{\"runtime\": 10, \"timeout\": 10}", SSDSIM_ECONFIG);
    ck_assert_str_eq(err.path, "timeout");
}
END_TEST

START_TEST(test_workload_load_wrong_type)
{
    ssdsim_error err = load_bad("{\"iodepth\": true}", SSDSIM_ECONFIG);
    ck_assert_str_eq(err.message, "wl.json: iodepth: expected a string or a number, got true");
    err = load_bad("{\"iodepth\": false}", SSDSIM_ECONFIG);
    ck_assert_str_eq(err.message, "wl.json: iodepth: expected a string or a number, got false");
    err = load_bad("{\"bs\": null}", SSDSIM_ECONFIG);
    ck_assert_str_eq(err.message, "wl.json: bs: expected a string or a number, got null");
    err = load_bad("{\"bs\": [\"4k\"]}", SSDSIM_ECONFIG);
    ck_assert_str_eq(err.message, "wl.json: bs: expected a string or a number, got an array");
    err = load_bad("{\"bs\": {\"read\": \"4k\"}}", SSDSIM_ECONFIG);
    ck_assert_str_eq(err.message, "wl.json: bs: expected a string or a number, got an object");
}
END_TEST

START_TEST(test_workload_load_not_an_object)
{
    ssdsim_error err = load_bad("[1, 2]", SSDSIM_ECONFIG);
    ck_assert_str_eq(err.message, "wl.json: expected a JSON object of fio options, got an array");
    err = load_bad("\"bs=4k\"", SSDSIM_ECONFIG);
    ck_assert_ptr_nonnull(strstr(err.message, "got a string"));
    err = load_bad("42", SSDSIM_ECONFIG);
    ck_assert_ptr_nonnull(strstr(err.message, "got a number"));
    err = load_bad("null", SSDSIM_ECONFIG);
    ck_assert_ptr_nonnull(strstr(err.message, "got null"));
}
END_TEST

START_TEST(test_workload_load_syntax_error_line_col)
{
    /* The ':' is missing after "bs" on line 3; cJSON stops at the value, column 8. */
    ssdsim_error err = load_bad("{\n  \"rw\": \"read\",\n  \"bs\" \"4k\"\n}", SSDSIM_EPARSE);
    ck_assert_int_eq(err.line, 3);
    ck_assert_int_eq(err.column, 8);
    ck_assert_str_eq(err.message, "wl.json:3:8: JSON syntax error near '\"4k\"'");
    ck_assert_str_eq(err.path, "");

    /* A trailing comma: the '}' on line 2. cJSON points one past a character that cannot open
     * a key, so the column is 2 rather than 1. */
    err = load_bad("{\"bs\": \"4k\",\n}", SSDSIM_EPARSE);
    ck_assert_int_eq(err.line, 2);
    ck_assert_int_le(err.column, 2);

    /* Garbage after the object. */
    err = load_bad("{\"bs\": \"4k\"} x", SSDSIM_EPARSE);
    ck_assert_int_eq(err.line, 1);
    ck_assert_int_eq(err.column, 14);

    /* Columns count characters, not bytes: "é" is two bytes, one column. */
    err = load_bad("{\"name\": \"\xC3\xA9\" \"bs\": \"4k\"}", SSDSIM_EPARSE);
    ck_assert_int_eq(err.line, 1);
    ck_assert_int_eq(err.column, 14);
}
END_TEST

START_TEST(test_workload_load_syntax_error_end_of_input)
{
    ssdsim_error err = load_bad("{\"bs\": \"4k\"", SSDSIM_EPARSE);
    ck_assert_int_eq(err.line, 1);
    ck_assert_ptr_nonnull(strstr(err.message, "unexpected end of input"));
    err = load_bad("", SSDSIM_EPARSE);
    ck_assert_int_eq(err.line, 1);
    ck_assert_int_eq(err.column, 1);
    err = load_bad("  \n  ", SSDSIM_EPARSE);
    ck_assert_int_eq(err.line, 2);
}
END_TEST

START_TEST(test_workload_load_missing_file)
{
    char path[1024];
    ssdsim_error err;
    ssdsim_workload *wl = (ssdsim_workload *)(uintptr_t)1;
    test_src_path(path, sizeof path, "tests/data/no-such-workload.json");
    int rc = ssdsim_workload_load_file(&wl, path, &err);
    ck_assert_int_eq(rc, SSDSIM_EIO);
    ck_assert_ptr_null(wl);
    ck_assert_int_eq(err.code, SSDSIM_EIO);
    ck_assert_str_eq(err.file, path);
    ck_assert_ptr_nonnull(strstr(err.message, "cannot read"));

    /* A directory cannot be read either. */
    test_src_path(path, sizeof path, "tests/data");
    rc = ssdsim_workload_load_file(&wl, path, &err);
    ck_assert_int_eq(rc, SSDSIM_EIO);
    ck_assert_ptr_null(wl);
}
END_TEST

START_TEST(test_workload_load_bogus_args)
{
    ssdsim_error err;
    ssdsim_workload *wl = (ssdsim_workload *)(uintptr_t)1;
    ck_assert_int_eq(ssdsim_workload_load_string(NULL, "{}", NULL, &err), SSDSIM_EINVAL);
    ck_assert_int_eq(ssdsim_workload_load_string(&wl, NULL, NULL, &err), SSDSIM_EINVAL);
    ck_assert_ptr_null(wl);
    ck_assert_int_eq(err.code, SSDSIM_EINVAL);
    wl = (ssdsim_workload *)(uintptr_t)1;
    ck_assert_int_eq(ssdsim_workload_load_file(&wl, NULL, &err), SSDSIM_EINVAL);
    ck_assert_ptr_null(wl);
    ck_assert_int_eq(ssdsim_workload_load_file(NULL, "x.json", NULL), SSDSIM_EINVAL);
    /* Failures with a NULL error struct still return the code. */
    ck_assert_int_eq(ssdsim_workload_load_string(&wl, "{\"bs\": 1}", NULL, NULL), SSDSIM_ECONFIG);
    ck_assert_int_eq(ssdsim_workload_load_string(&wl, "{", NULL, NULL), SSDSIM_EPARSE);
    ssdsim_workload_free(NULL);
}
END_TEST

/* ------------------------------------------------------------------------------------------ */
/* Checks against a device                                                                     */

START_TEST(test_workload_check_fits)
{
    struct ssdsim_workload wl, before;
    ssdsim__workload_defaults(&wl);
    ck_assert_int_eq(ssdsim__workload_check(&wl, 64 * GiB, errbuf, sizeof errbuf), 0);
    apply_ok(&wl, "offset", "1g");
    apply_ok(&wl, "size", "63g");
    apply_ok(&wl, "bssplit", "4k/50:1m/50");
    before = wl;
    ck_assert_int_eq(ssdsim__workload_check(&wl, 64 * GiB, errbuf, sizeof errbuf), 0);
    ck_assert(memcmp(&wl, &before, sizeof wl) == 0);

    /* Percentages resolve against the device and are left as percentages. */
    apply_ok(&wl, "offset", "50%");
    apply_ok(&wl, "size", "50%");
    before = wl;
    ck_assert_int_eq(ssdsim__workload_check(&wl, 64 * GiB, errbuf, sizeof errbuf), 0);
    ck_assert(memcmp(&wl, &before, sizeof wl) == 0);
    ck_assert(wl.offset_percent == 50 && wl.size_percent == 50);

    /* size 0 runs from the offset to the end. */
    ssdsim__workload_defaults(&wl);
    apply_ok(&wl, "offset", "63g");
    apply_ok(&wl, "bs", "1m");
    ck_assert_int_eq(ssdsim__workload_check(&wl, 64 * GiB, errbuf, sizeof errbuf), 0);
}
END_TEST

START_TEST(test_workload_check_region_outside_device)
{
    struct ssdsim_workload wl;
    ssdsim__workload_defaults(&wl);
    apply_ok(&wl, "offset", "64g");
    ck_assert_int_eq(ssdsim__workload_check(&wl, 64 * GiB, errbuf, sizeof errbuf), SSDSIM_ECONFIG);
    ck_assert_ptr_nonnull(strstr(errbuf, "offset 68719476736 is not inside the device"));

    ssdsim__workload_defaults(&wl);
    apply_ok(&wl, "offset", "1g");
    apply_ok(&wl, "size", "64g");
    ck_assert_int_eq(ssdsim__workload_check(&wl, 64 * GiB, errbuf, sizeof errbuf), SSDSIM_ECONFIG);
    ck_assert_ptr_nonnull(strstr(errbuf, "exceeds the device's logical capacity"));

    ssdsim__workload_defaults(&wl);
    apply_ok(&wl, "offset", "75%");
    apply_ok(&wl, "size", "50%");
    ck_assert_int_eq(ssdsim__workload_check(&wl, 64 * GiB, errbuf, sizeof errbuf), SSDSIM_ECONFIG);

    /* Size alone larger than the device. */
    ssdsim__workload_defaults(&wl);
    apply_ok(&wl, "size", "128g");
    ck_assert_int_eq(ssdsim__workload_check(&wl, 64 * GiB, errbuf, sizeof errbuf), SSDSIM_ECONFIG);

    /* An empty device fits nothing. */
    ssdsim__workload_defaults(&wl);
    ck_assert_int_eq(ssdsim__workload_check(&wl, 0, errbuf, sizeof errbuf), SSDSIM_ECONFIG);
}
END_TEST

START_TEST(test_workload_check_block_larger_than_region)
{
    struct ssdsim_workload wl;
    ssdsim__workload_defaults(&wl);
    apply_ok(&wl, "size", "64k");
    apply_ok(&wl, "bssplit", "4k/90:128k/10");
    ck_assert_int_eq(ssdsim__workload_check(&wl, 64 * GiB, errbuf, sizeof errbuf), SSDSIM_ECONFIG);
    ck_assert_ptr_nonnull(strstr(errbuf, "block size 131072 is larger than the region of 65536"));

    /* The region left after the offset is what counts. */
    ssdsim__workload_defaults(&wl);
    apply_ok(&wl, "offset", "1020k");
    apply_ok(&wl, "bs", "8k");
    ck_assert_int_eq(ssdsim__workload_check(&wl, MiB, errbuf, sizeof errbuf), SSDSIM_ECONFIG);
    apply_ok(&wl, "bs", "4k");
    ck_assert_int_eq(ssdsim__workload_check(&wl, MiB, errbuf, sizeof errbuf), 0);

    /* A percentage that resolves to less than a block. */
    ssdsim__workload_defaults(&wl);
    apply_ok(&wl, "size", "0.001%");
    ck_assert_int_eq(ssdsim__workload_check(&wl, MiB, errbuf, sizeof errbuf), SSDSIM_ECONFIG);
}
END_TEST

/* ------------------------------------------------------------------------------------------ */
/* ssdsim_workload_set                                                                         */

START_TEST(test_workload_set_commits_only_on_success)
{
    ssdsim_error err;
    ssdsim_workload *wl = NULL;
    ck_assert_int_eq(
        ssdsim_workload_load_string(&wl, "{\"bssplit\": \"4k/50:8k/50\"}", "wl.json", &err), 0);
    ck_assert_int_eq(ssdsim_workload_set(wl, "iodepth", "8", &err), 0);
    ck_assert_uint_eq(wl->iodepth, 8);
    ck_assert_int_eq(ssdsim_workload_set(wl, "bs", "16k", &err), 0); /* replaces the split */
    ck_assert_uint_eq(wl->n_bs, 1);
    ck_assert_uint_eq(wl->bs[0].bytes, 16384);

    struct ssdsim_workload before = *wl;
    ck_assert_int_eq(ssdsim_workload_set(wl, "bs", "4k,8k", &err), SSDSIM_ECONFIG);
    ck_assert_str_eq(err.message, "wl.json: bs: per-direction bs ('4k,8k') is not supported yet");
    ck_assert_int_eq(ssdsim_workload_set(wl, "bssplit", "4k/50:8k/40", &err), SSDSIM_ECONFIG);
    ck_assert_int_eq(ssdsim_workload_set(wl, "iodepth", "0", &err), SSDSIM_ECONFIG);
    ck_assert_str_eq(err.path, "iodepth");
    ck_assert_int_eq(ssdsim_workload_set(wl, "iodept", "4", &err), SSDSIM_ECONFIG);
    ck_assert_str_eq(err.message, "wl.json: iodept: unknown option (did you mean 'iodepth'?)");
    ck_assert(memcmp(wl, &before, sizeof before) == 0);
    ck_assert_str_eq(wl->label, "wl.json");
    ssdsim_workload_free(wl);
}
END_TEST

START_TEST(test_workload_set_bogus_args)
{
    ssdsim_error err;
    ssdsim_workload *wl = NULL;
    ck_assert_int_eq(ssdsim_workload_load_string(&wl, "{}", NULL, &err), 0);
    ck_assert_int_eq(ssdsim_workload_set(NULL, "bs", "4k", &err), SSDSIM_EINVAL);
    ck_assert_int_eq(ssdsim_workload_set(wl, NULL, "4k", &err), SSDSIM_EINVAL);
    ck_assert_int_eq(ssdsim_workload_set(wl, "bs", NULL, &err), SSDSIM_EINVAL);
    ck_assert_int_eq(err.code, SSDSIM_EINVAL);
    ck_assert_int_eq(ssdsim_workload_set(wl, "bs", "x", NULL), SSDSIM_ECONFIG);
    ck_assert_uint_eq(wl->bs[0].bytes, 4096);
    ssdsim_workload_free(wl);
}
END_TEST

static Suite *workload_suite(void)
{
    Suite *s = suite_create("workload");

    TCase *tc = tcase_create("values");
    tcase_add_test(tc, test_workload_size_plain_and_suffixes);
    tcase_add_test(tc, test_workload_size_b_and_iec_suffixes);
    tcase_add_test(tc, test_workload_size_fraction_rounds_down);
    tcase_add_test(tc, test_workload_size_hex_and_whitespace);
    tcase_add_test(tc, test_workload_size_bad);
    tcase_add_test(tc, test_workload_time_default_unit);
    tcase_add_test(tc, test_workload_time_suffixes);
    tcase_add_test(tc, test_workload_time_fraction);
    tcase_add_test(tc, test_workload_time_bad);
    tcase_add_test(tc, test_workload_bssplit_basic);
    tcase_add_test(tc, test_workload_bssplit_blank_percentages);
    tcase_add_test(tc, test_workload_bssplit_remainder_to_last_blank);
    tcase_add_test(tc, test_workload_bssplit_zero_percent_is_blank);
    tcase_add_test(tc, test_workload_bssplit_max_entries);
    tcase_add_test(tc, test_workload_bssplit_bad);
    suite_add_tcase(s, tc);

    tc = tcase_create("options");
    tcase_add_test(tc, test_workload_defaults);
    tcase_add_test(tc, test_workload_opt_rw);
    tcase_add_test(tc, test_workload_opt_bs);
    tcase_add_test(tc, test_workload_opt_bssplit);
    tcase_add_test(tc, test_workload_opt_rwmix);
    tcase_add_test(tc, test_workload_opt_iodepth_numjobs);
    tcase_add_test(tc, test_workload_opt_size);
    tcase_add_test(tc, test_workload_opt_offset);
    tcase_add_test(tc, test_workload_opt_number_ios_runtime_randseed);
    tcase_add_test(tc, test_workload_opt_name_description);
    tcase_add_test(tc, test_workload_opt_unknown_suggests);
    suite_add_tcase(s, tc);

    tc = tcase_create("json");
    tcase_add_test(tc, test_workload_load_file_good);
    tcase_add_test(tc, test_workload_load_string_good);
    tcase_add_test(tc, test_workload_load_bad_value_message);
    tcase_add_test(tc, test_workload_load_big_integer_number);
    tcase_add_test(tc, test_workload_load_unknown_key_suggestion);
    tcase_add_test(tc, test_workload_load_duplicate_key);
    tcase_add_test(tc, test_workload_load_conflicting_keys);
    tcase_add_test(tc, test_workload_load_wrong_type);
    tcase_add_test(tc, test_workload_load_not_an_object);
    tcase_add_test(tc, test_workload_load_syntax_error_line_col);
    tcase_add_test(tc, test_workload_load_syntax_error_end_of_input);
    tcase_add_test(tc, test_workload_load_missing_file);
    tcase_add_test(tc, test_workload_load_bogus_args);
    suite_add_tcase(s, tc);

    tc = tcase_create("check");
    tcase_add_test(tc, test_workload_check_fits);
    tcase_add_test(tc, test_workload_check_region_outside_device);
    tcase_add_test(tc, test_workload_check_block_larger_than_region);
    suite_add_tcase(s, tc);

    tc = tcase_create("set");
    tcase_add_test(tc, test_workload_set_commits_only_on_success);
    tcase_add_test(tc, test_workload_set_bogus_args);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return test_run_suite(workload_suite());
}
