/* test_workload.c: fio option values and options (libssdsim/workload/fioopt*.c) and JSON workload
 * loading (libssdsim/workload/workload.c).
 *
 * Good and bogus values for every parser and option, every way a workload file can be wrong,
 * the checks against a device's capacity, and that ssdsim_workload_set commits only on success.
 * Every option of fio 3.33 is known: simulated, ignored or refused (test_jobfile.c covers the
 * job-file reader and the options' fio syntax in job files). Each test frees what it creates, so
 * a sanitizer build doubles as a leak test.
 */
#include "common.h"
#include "workload/gen.h"
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

static void apply_ok(struct ssdsim__jobspec *job, const char *key, const char *value)
{
    errbuf[0] = '\0';
    int rc = ssdsim__jobspec_apply(job, key, value, errbuf, sizeof errbuf);
    ck_assert_msg(rc == 0, "%s=%s refused: %s", key, value ? value : "(none)", errbuf);
}

/* The option must be refused, the reason must contain `want`, and the job stay as it was. */
static void apply_bad(const char *key, const char *value, const char *want)
{
    struct ssdsim__jobspec job, before;
    ssdsim__jobspec_defaults(&job);
    before = job;
    errbuf[0] = '\0';
    int rc = ssdsim__jobspec_apply(&job, key, value, errbuf, sizeof errbuf);
    ck_assert_msg(rc == SSDSIM_ECONFIG, "%s=%s: expected SSDSIM_ECONFIG, got %d", key,
                  value ? value : "(none)", rc);
    ck_assert_msg(strstr(errbuf, want), "%s=%s: reason '%s' lacks '%s'", key,
                  value ? value : "(none)", errbuf, want);
    ck_assert(memcmp(&job, &before, sizeof job) == 0);
}

/* A job of defaults with one option applied (the option must not set a string). */
static struct ssdsim__jobspec wl_with(const char *key, const char *value)
{
    struct ssdsim__jobspec job;
    ssdsim__jobspec_defaults(&job);
    apply_ok(&job, key, value);
    return job;
}

/* The option must be accepted as ignored (SSDSIM__IGNORED) and change nothing. */
static void apply_ignored(const char *key, const char *value)
{
    struct ssdsim__jobspec job, before;
    ssdsim__jobspec_defaults(&job);
    before = job;
    errbuf[0] = '\0';
    int rc = ssdsim__jobspec_apply(&job, key, value, errbuf, sizeof errbuf);
    ck_assert_msg(rc == SSDSIM__IGNORED, "%s=%s: expected SSDSIM__IGNORED, got %d (%s)", key,
                  value ? value : "(none)", rc, errbuf);
    ck_assert(memcmp(&job, &before, sizeof job) == 0);
}

/* A workload holding copies of the given jobs, for the checks against a device. */
static struct ssdsim_workload *wl_of(const struct ssdsim__jobspec *jobs, uint32_t n)
{
    struct ssdsim_workload *wl = ssdsim__workload_new("test", false);
    ck_assert_ptr_nonnull(wl);
    for (uint32_t i = 0; i < n; i++)
        ck_assert_int_eq(ssdsim__workload_add_job(wl, &jobs[i]), 0);
    return wl;
}

/* ssdsim__workload_check of a one-job workload. */
static int check1(const struct ssdsim__jobspec *job, uint64_t bytes)
{
    struct ssdsim_workload *wl = wl_of(job, 1);
    errbuf[0] = '\0';
    int rc = ssdsim__workload_check(wl, bytes, errbuf, sizeof errbuf);
    ssdsim_workload_free(wl);
    return rc;
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
    /* One direction at a time: opt_bssplit splits at the commas first. */
    /* Every entry "/0": fio would share 100% among them; refused as a likely mistake. */
    split_bad("4k/0", "bssplit percentages are all 0: give the entries shares that add up to 100 "
                      "(entries without a percentage share what is left equally)");
    split_bad("4k/0:8k/0:16k/ 0", "bssplit percentages are all 0");
    split_bad("4k/50,16k/100", "it separates directions");
    split_bad(",4k/100", "it separates directions");
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

/* fio's defaults (HOWTO and fio --cmdhelp of fio 3.33). */
START_TEST(test_workload_defaults)
{
    struct ssdsim__jobspec job;
    memset(&job, 0xA5, sizeof job);
    ssdsim__jobspec_defaults(&job);
    ck_assert_int_eq(job.rw, SSDSIM__RW_READ);
    for (int d = 0; d < SSDSIM__N_DIRS; d++) {
        ck_assert_uint_eq(job.bs[d].n, 1);
        ck_assert_uint_eq(job.bs[d].e[0].bytes, 4096);
        ck_assert_uint_eq(job.bs[d].e[0].percent, 100);
        ck_assert_uint_eq(job.bs[d].range_max, 0);
        ck_assert_uint_eq(job.percentage_random[d], 100);
        ck_assert_uint_eq(job.rate_iops[d], 0);
        ck_assert_uint_eq(job.rate_bytes[d], 0);
    }
    ck_assert_uint_eq(job.rw_suffix, 0);
    ck_assert_uint_eq(job.rwmixread, 50);
    ck_assert_uint_eq(job.iodepth, 1);
    ck_assert_uint_eq(job.numjobs, 1);
    ck_assert_uint_eq(job.loops, 1);
    ck_assert_uint_eq(job.size_bytes, 0);
    ck_assert(job.size_percent == 0);
    ck_assert_uint_eq(job.offset_bytes, 0);
    ck_assert(job.offset_percent == 0);
    ck_assert_uint_eq(job.number_ios, 0);
    ck_assert_uint_eq(job.io_size_bytes, 0);
    ck_assert_uint_eq(job.runtime_ns, 0);
    ck_assert(!job.time_based);
    ck_assert(!job.has_randseed);
    ck_assert(job.randrepeat);
    ck_assert(!job.norandommap);
    ck_assert_int_eq(job.dist, SSDSIM__DIST_RANDOM);
    ck_assert_uint_eq(job.thinktime_ns, 0);
    ck_assert_uint_eq(job.thinktime_blocks, 1);
    ck_assert_int_eq(job.rate_process, SSDSIM__RATE_LINEAR);
    ck_assert(!job.stonewall && !job.new_group && !job.group_reporting);
    ck_assert_int_eq(job.ss, SSDSIM__SS_NONE);
    ck_assert_ptr_null(job.name);
    ck_assert_ptr_null(job.read_iolog);
    ck_assert_ptr_null(job.write_bw_log);
    ck_assert_uint_eq(job.n_raw, 0);
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
        struct ssdsim__jobspec job = wl_with("rw", good[i].value);
        ck_assert_int_eq(job.rw, good[i].rw);
        job = wl_with("readwrite", good[i].value); /* fio's alias of the key */
        ck_assert_int_eq(job.rw, good[i].rw);
    }
    /* HOWTO: "rw=randread:8" gets a new offset every 8 I/Os; "rw=write:4k" skips 4k after every
     * write. */
    struct ssdsim__jobspec job = wl_with("rw", "randread:8");
    ck_assert_int_eq(job.rw, SSDSIM__RW_RANDREAD);
    ck_assert_uint_eq(job.rw_suffix, 8);
    job = wl_with("rw", "write:4k");
    ck_assert_int_eq(job.rw, SSDSIM__RW_WRITE);
    ck_assert_uint_eq(job.rw_suffix, 4096);
    ck_assert_uint_eq(wl_with("rw", "randrw:1").rw_suffix, 0); /* one I/O per offset: none */
    ck_assert_uint_eq(wl_with("rw", "rw:0").rw_suffix, 0);
    ck_assert_uint_eq(wl_with("rw", "randwrite:1k").rw_suffix, 1024); /* fio's integers */
    /* A plain value after a modifier clears it. */
    apply_ok(&job, "rw", "read");
    ck_assert_uint_eq(job.rw_suffix, 0);

    apply_bad("rw", "randwrite:0", "number of I/Os per random offset");
    apply_bad("rw", "randread:x", "got 'x'");
    apply_bad("rw", "randread:", "got ''");
    apply_bad("rw", "write:1000", "multiple of 512");
    apply_bad("rw", "read:-4k", "got '-4k'");
    apply_bad("rw", "trimwrite", "rw 'trimwrite' is not supported yet");
    apply_bad("rw", "randtrimwrite", "not supported yet");
    apply_bad("rw", "random", "expected one of read, write");
    apply_bad("rw", "randreadx", "got 'randreadx'"); /* fio would match the prefix */
    apply_bad("rw", "READ", "got 'READ'");           /* fio's values are case-sensitive */
    apply_bad("rw", "", "got ''");
    apply_bad("readwrite", "sideways", "got 'sideways'");
}
END_TEST

static void assert_single(const struct ssdsim__bsdist *b, uint32_t bytes)
{
    ck_assert_uint_eq(b->n, 1);
    ck_assert_uint_eq(b->e[0].bytes, bytes);
    ck_assert_uint_eq(b->e[0].percent, 100);
    ck_assert_uint_eq(b->range_max, 0);
}

START_TEST(test_workload_opt_bs)
{
    struct ssdsim__jobspec job;
    ssdsim__jobspec_defaults(&job);
    apply_ok(&job, "bssplit", "4k/50:8k/50");
    apply_ok(&job, "bs", "16k"); /* replaces the split */
    for (int d = 0; d < SSDSIM__N_DIRS; d++)
        assert_single(&job.bs[d], 16384);
    job = wl_with("blocksize", "512");
    assert_single(&job.bs[SSDSIM__DIR_TRIM], 512);
    job = wl_with("bs", "1m");
    assert_single(&job.bs[SSDSIM__DIR_READ], MiB);

    /* The HOWTO's examples: "bs=256k" means 256k for reads, writes and trims; "bs=8k,32k" 8k
     * for reads, 32k for writes and trims; "bs=8k,32k," default for trims; "bs=,8k" default for
     * reads, 8k for writes and trims; "bs=,8k," default for reads and trims. */
    job = wl_with("bs", "256k");
    for (int d = 0; d < SSDSIM__N_DIRS; d++)
        assert_single(&job.bs[d], 256 * KiB);
    job = wl_with("bs", "8k,32k");
    assert_single(&job.bs[SSDSIM__DIR_READ], 8 * KiB);
    assert_single(&job.bs[SSDSIM__DIR_WRITE], 32 * KiB);
    assert_single(&job.bs[SSDSIM__DIR_TRIM], 32 * KiB);
    job = wl_with("bs", "8k,32k,");
    assert_single(&job.bs[SSDSIM__DIR_READ], 8 * KiB);
    assert_single(&job.bs[SSDSIM__DIR_WRITE], 32 * KiB);
    assert_single(&job.bs[SSDSIM__DIR_TRIM], 4096);
    job = wl_with("bs", ",8k");
    assert_single(&job.bs[SSDSIM__DIR_READ], 4096);
    assert_single(&job.bs[SSDSIM__DIR_WRITE], 8 * KiB);
    assert_single(&job.bs[SSDSIM__DIR_TRIM], 8 * KiB);
    job = wl_with("bs", ",8k,");
    assert_single(&job.bs[SSDSIM__DIR_READ], 4096);
    assert_single(&job.bs[SSDSIM__DIR_WRITE], 8 * KiB);
    assert_single(&job.bs[SSDSIM__DIR_TRIM], 4096);
    job = wl_with("bs", "4k,8k,16k");
    assert_single(&job.bs[SSDSIM__DIR_TRIM], 16 * KiB);
    job = wl_with("bs", "8k,");
    assert_single(&job.bs[SSDSIM__DIR_READ], 8 * KiB);
    assert_single(&job.bs[SSDSIM__DIR_WRITE], 4096);
    job = wl_with("bs", "8k, ,16k");
    assert_single(&job.bs[SSDSIM__DIR_WRITE], 4096);
    assert_single(&job.bs[SSDSIM__DIR_TRIM], 16 * KiB);

    apply_bad("bs", "four", "expected a size like 4k or 1m, got 'four'");
    apply_bad("bs", "4k,8k,16k,32k", "at most three comma-separated values");
    apply_bad("bs", "4k,x", "got 'x'");
    apply_bad("bs", ",", "got ''");
    apply_bad("bs", "4k-8k", "a range of sizes is bsrange");
    apply_bad("bs", "0", "non-zero multiple of 512");
    apply_bad("bs", "1000", "multiple of 512");
    apply_bad("bs", "4g", "up to 4294966784");
    apply_bad("bs", "-4k", "cannot be negative");
    apply_bad("blocksize", "1.1k", "multiple of 512");
}
END_TEST

START_TEST(test_workload_opt_bsrange)
{
    /* HOWTO: "bsrange=1k-4k,2k-8k"; a colon separates the bounds too, and fio swaps them when
     * the first is larger. */
    struct ssdsim__jobspec job = wl_with("bsrange", "1k-4k,2k-8k");
    ck_assert_uint_eq(job.bs[SSDSIM__DIR_READ].range_min, 1024);
    ck_assert_uint_eq(job.bs[SSDSIM__DIR_READ].range_max, 4096);
    ck_assert_uint_eq(job.bs[SSDSIM__DIR_WRITE].range_min, 2048);
    ck_assert_uint_eq(job.bs[SSDSIM__DIR_WRITE].range_max, 8192);
    ck_assert_uint_eq(job.bs[SSDSIM__DIR_TRIM].range_max, 8192);
    job = wl_with("blocksize_range", "4k:1k");
    ck_assert_uint_eq(job.bs[SSDSIM__DIR_TRIM].range_min, 1024);
    ck_assert_uint_eq(job.bs[SSDSIM__DIR_TRIM].range_max, 4096);
    ck_assert_uint_eq(job.bs[SSDSIM__DIR_TRIM].n, 0);
    job = wl_with("bsrange", "4k-4k"); /* no range at all */
    assert_single(&job.bs[SSDSIM__DIR_READ], 4096);
    job = wl_with("bsrange", ",8k-64k,");
    assert_single(&job.bs[SSDSIM__DIR_READ], 4096);
    ck_assert_uint_eq(job.bs[SSDSIM__DIR_WRITE].range_max, 65536);
    assert_single(&job.bs[SSDSIM__DIR_TRIM], 4096);
    /* bs replaces a range. */
    apply_ok(&job, "bs", "8k");
    assert_single(&job.bs[SSDSIM__DIR_WRITE], 8192);

    apply_bad("bsrange", "4k", "expected a range of block sizes like 1k-4k, got '4k'");
    apply_bad("bsrange", "0-4k", "non-zero multiple of 512");
    apply_bad("bsrange", "1k-5000", "multiple of 512");
    apply_bad("bsrange", "-4k", "got '-4k'");
    apply_bad("bsrange", "1k-4k,x-y", "got 'x'");
    apply_bad("bsrange", "1k-", "got ''");
}
END_TEST

START_TEST(test_workload_opt_bssplit)
{
    struct ssdsim__jobspec job = wl_with("bssplit", "512/10:4k/60:64k/30");
    for (int d = 0; d < SSDSIM__N_DIRS; d++) {
        ck_assert_uint_eq(job.bs[d].n, 3);
        ck_assert_uint_eq(job.bs[d].e[2].bytes, 65536);
        ck_assert_uint_eq(job.bs[d].e[2].percent, 30);
    }
    /* HOWTO: "bssplit=2k/50:4k/50,4k/90:8k/10" is 50% 2k and 50% 4k reads, 90% 4k and 10% 8k
     * writes (and, the last value not ending in a comma, trims). */
    job = wl_with("bssplit", "2k/50:4k/50,4k/90:8k/10");
    ck_assert_uint_eq(job.bs[SSDSIM__DIR_READ].n, 2);
    ck_assert_uint_eq(job.bs[SSDSIM__DIR_READ].e[0].bytes, 2048);
    ck_assert_uint_eq(job.bs[SSDSIM__DIR_WRITE].e[1].bytes, 8192);
    ck_assert_uint_eq(job.bs[SSDSIM__DIR_WRITE].e[1].percent, 10);
    ck_assert_uint_eq(job.bs[SSDSIM__DIR_TRIM].e[0].percent, 90);
    /* Blank percentages share what is left: "4k/50:8k/" is 50/50. */
    job = wl_with("bssplit", "4k/50:8k/,16k/100");
    ck_assert_uint_eq(job.bs[SSDSIM__DIR_READ].e[1].percent, 50);
    assert_single(&job.bs[SSDSIM__DIR_WRITE], 16384);
    /* an entry whose percentage is blank after its '/' is blank too (fio accepts "64k/": it
     * was refused as "all 0") */
    job = wl_with("bssplit", "64k/");
    assert_single(&job.bs[SSDSIM__DIR_READ], 65536);
    job = wl_with("bssplit", "4k/50:16k/50,64k/");
    assert_single(&job.bs[SSDSIM__DIR_WRITE], 65536);
    job = wl_with("bssplit", ",64k/100,");
    assert_single(&job.bs[SSDSIM__DIR_READ], 4096);
    assert_single(&job.bs[SSDSIM__DIR_WRITE], 65536);
    assert_single(&job.bs[SSDSIM__DIR_TRIM], 4096);

    apply_bad("bssplit", "4k/50:8k/40", "not 100");
    apply_bad("bssplit", "4k/100,4k/50", "not 100");
    apply_bad("bssplit", "1000/100", "multiple of 512");
    apply_bad("bssplit", "4k/25,4k/25,4k/25,4k/25", "at most three");
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
    /* HOWTO: when both are given and do not add up to 100, the latter overrides the first. */
    struct ssdsim__jobspec job = wl_with("rwmixread", "70");
    apply_ok(&job, "rwmixwrite", "50");
    ck_assert_uint_eq(job.rwmixread, 50);
    apply_bad("rwmixread", "101", "expected an integer in [0, 100], got '101'");
    apply_bad("rwmixread", "-1", "expected an integer in [0, 100]");
    apply_bad("rwmixread", "50.5", "got '50.5'");
    apply_bad("rwmixread", "half", "got 'half'");
    apply_bad("rwmixwrite", "200", "in [0, 100]");
    apply_bad("rwmixwrite", "", "in [0, 100]");
}
END_TEST

START_TEST(test_workload_opt_iodepth_numjobs_loops)
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
    /* loops: default 1; fio runs loops=0 once too. */
    ck_assert_uint_eq(wl_with("loops", "3").loops, 3);
    ck_assert_uint_eq(wl_with("loops", "0").loops, 1);
    apply_bad("loops", "many", "got 'many'");
    apply_bad("loops", "4294967296", "in [0, 4294967295]");
}
END_TEST

START_TEST(test_workload_opt_size)
{
    struct ssdsim__jobspec job = wl_with("size", "64g");
    ck_assert_uint_eq(job.size_bytes, 64 * GiB);
    ck_assert(job.size_percent == 0);
    job = wl_with("size", "50%");
    ck_assert_uint_eq(job.size_bytes, 0);
    ck_assert(job.size_percent == 50);
    job = wl_with("size", "100%");
    ck_assert(job.size_percent == 100);
    job = wl_with("size", "12.5%");
    ck_assert(job.size_percent == 12.5);
    /* Bytes after a percentage clear the percentage. */
    apply_ok(&job, "size", "1m");
    ck_assert_uint_eq(job.size_bytes, MiB);
    ck_assert(job.size_percent == 0);
    job = wl_with("size", "0");
    ck_assert_uint_eq(job.size_bytes, 0);

    apply_bad("size", "0%", "a size percentage must be in (0, 100], got 0%");
    apply_bad("size", "101%", "(0, 100]");
    apply_bad("size", "-5%", "expected a percentage like 50%, got '-5%'");
    apply_bad("size", "%", "expected a percentage");
    apply_bad("size", "abc%", "expected a percentage");
    apply_bad("size", "5 %", "expected a percentage");
    apply_bad("size", "big", "expected a size like 4k or 1m, got 'big'");
    apply_bad("size", "-1g", "cannot be negative");
    apply_bad("size", "1000", "size must be a multiple of 512 bytes, got 1000");
}
END_TEST

START_TEST(test_workload_opt_offset)
{
    struct ssdsim__jobspec job = wl_with("offset", "1g");
    ck_assert_uint_eq(job.offset_bytes, GiB);
    ck_assert(job.offset_percent == 0);
    job = wl_with("offset", "25%");
    ck_assert_uint_eq(job.offset_bytes, 0);
    ck_assert(job.offset_percent == 25);
    job = wl_with("offset", "0%");
    ck_assert(job.offset_percent == 0);
    ck_assert_uint_eq(job.offset_bytes, 0);
    job = wl_with("offset", "99.5%");
    ck_assert(job.offset_percent == 99.5);
    job = wl_with("fileoffset", "0"); /* fio's alias */
    ck_assert_uint_eq(job.offset_bytes, 0);

    apply_bad("offset", "100%", "an offset percentage must be in [0, 100), got 100%");
    apply_bad("offset", "150%", "[0, 100)");
    apply_bad("offset", "1000", "offset must be a multiple of 512 bytes, got 1000");
    apply_bad("offset", "there", "expected a size");
    apply_bad("offset", "-4k", "cannot be negative");

    /* offset_increment (HOWTO: the real offset is offset + offset_increment * thread_number). */
    job = wl_with("offset_increment", "10g");
    ck_assert_uint_eq(job.offset_increment_bytes, 10 * GiB);
    job = wl_with("offset_increment", "25%");
    ck_assert(job.offset_increment_percent == 25);
    ck_assert_uint_eq(job.offset_increment_bytes, 0);
    apply_bad("offset_increment", "100%", "[0, 100)");
    apply_bad("offset_increment", "1000", "offset_increment must be a multiple of 512");
}
END_TEST

START_TEST(test_workload_opt_io_size)
{
    /* HOWTO: size=20GiB with io_size=5GiB does 5 GiB of I/O in the first 20 GiB; io_size may
     * exceed size. io_limit is fio's alias. */
    ck_assert_uint_eq(wl_with("io_size", "5g").io_size_bytes, 5 * GiB);
    ck_assert_uint_eq(wl_with("io_limit", "40g").io_size_bytes, 40 * GiB);
    /* a percentage is of the job's region, at most 100 (fio 3.33: "io_size values greater
     * than 100% aren't supported") */
    struct ssdsim__jobspec job = wl_with("io_size", "50%");
    ck_assert(job.io_size_percent == 50);
    ck_assert_uint_eq(job.io_size_bytes, 0);
    ck_assert_uint_eq(wl_with("io_size", "0").io_size_bytes, 0);
    apply_bad("io_size", "0%", "io_size percentage");
    apply_bad("io_size", "200%", "io_size percentage must be in (0, 100]");
    apply_bad("io_size", "lots", "expected a size");
}
END_TEST

START_TEST(test_workload_opt_counts_and_times)
{
    ck_assert_uint_eq(wl_with("number_ios", "100000").number_ios, 100000);
    ck_assert_uint_eq(wl_with("number_ios", "1m").number_ios, MiB);
    ck_assert_uint_eq(wl_with("number_ios", "0").number_ios, 0); /* fio's default: not set */
    apply_bad("number_ios", "many", "got 'many'");
    apply_bad("number_ios", "1.5", "got '1.5'");

    /* runtime: seconds when no unit is given (HOWTO). 0, fio's default, means not set. */
    ck_assert_uint_eq(wl_with("runtime", "10").runtime_ns, 10 * SSDSIM__NS_PER_S);
    ck_assert_uint_eq(wl_with("runtime", "10m").runtime_ns, 600 * SSDSIM__NS_PER_S);
    ck_assert_uint_eq(wl_with("runtime", "250ms").runtime_ns, 250 * SSDSIM__NS_PER_MS);
    ck_assert_uint_eq(wl_with("runtime", "1h").runtime_ns, 3600 * SSDSIM__NS_PER_S);
    ck_assert_uint_eq(wl_with("runtime", "2d").runtime_ns, 2 * 86400 * SSDSIM__NS_PER_S);
    ck_assert_uint_eq(wl_with("timeout", "2").runtime_ns, 2 * SSDSIM__NS_PER_S);
    ck_assert_uint_eq(wl_with("runtime", "0").runtime_ns, 0);
    apply_bad("runtime", "soon", "expected a time like 10s or 500ms");
    apply_bad("runtime", "-5", "cannot be negative");

    /* ramp_time, ss_dur and ss_ramp: seconds by default too; thinktime: microseconds. */
    ck_assert_uint_eq(wl_with("ramp_time", "5").ramp_time_ns, 5 * SSDSIM__NS_PER_S);
    ck_assert_uint_eq(wl_with("ramp_time", "5ms").ramp_time_ns, 5 * SSDSIM__NS_PER_MS);
    ck_assert_uint_eq(wl_with("startdelay", "5").startdelay_ns, 5 * SSDSIM__NS_PER_S);
    ck_assert_uint_eq(wl_with("startdelay", "250ms").startdelay_ns, 250 * SSDSIM__NS_PER_MS);
    apply_bad("startdelay", "1-2", "expected a time"); /* fio's random range: one time here */
    ck_assert_uint_eq(wl_with("ss_dur", "60").ss_dur_ns, 60 * SSDSIM__NS_PER_S);
    ck_assert_uint_eq(wl_with("steadystate_duration", "1m").ss_dur_ns, 60 * SSDSIM__NS_PER_S);
    ck_assert_uint_eq(wl_with("ss_ramp", "10").ss_ramp_ns, 10 * SSDSIM__NS_PER_S);
    ck_assert_uint_eq(wl_with("steadystate_ramp_time", "10s").ss_ramp_ns, 10 * SSDSIM__NS_PER_S);
    ck_assert_uint_eq(wl_with("thinktime", "10").thinktime_ns, 10 * SSDSIM__NS_PER_US);
    ck_assert_uint_eq(wl_with("thinktime", "10ms").thinktime_ns, 10 * SSDSIM__NS_PER_MS);
    ck_assert_uint_eq(wl_with("thinktime", "1s").thinktime_ns, SSDSIM__NS_PER_S);
    apply_bad("thinktime", "a while", "expected a time");
    ck_assert_uint_eq(wl_with("thinktime_blocks", "4").thinktime_blocks, 4);
    /* flush and FUA (issue 17): fio's sync options */
    ck_assert_uint_eq(wl_with("fsync", "32").fsync_blocks, 32);
    ck_assert_uint_eq(wl_with("fdatasync", "8").fdatasync_blocks, 8);
    ck_assert_uint_eq(wl_with("write_barrier", "4").barrier_blocks, 4);
    ck_assert(wl_with("sync", "1").sync_writes);
    ck_assert(wl_with("sync", "dsync").sync_writes);
    ck_assert(!wl_with("sync", "none").sync_writes);
    apply_bad("sync", "sometimes", "expected none, 0, sync, 1 or dsync, got 'sometimes'");
    apply_bad("fsync", "-1", "integer");
    apply_bad("thinktime_blocks", "0", "in [1, 4294967295]");
    ck_assert_uint_eq(wl_with("log_avg_msec", "1000").log_avg_msec, 1000);
    apply_bad("log_avg_msec", "1s", "got '1s'");

    struct ssdsim__jobspec job = wl_with("randseed", "42");
    ck_assert(job.has_randseed);
    ck_assert_uint_eq(job.randseed, 42);
    job = wl_with("randseed", "0");
    ck_assert(job.has_randseed);
    ck_assert_uint_eq(job.randseed, 0);
    ck_assert_uint_eq(wl_with("randseed", "0x89").randseed, 0x89); /* fio's default seed */
    ck_assert_uint_eq(wl_with("randseed", "18446744073709551615").randseed, UINT64_MAX);
    apply_bad("randseed", "lucky", "got 'lucky'");
    apply_bad("randseed", "18446744073709551616", "expected an integer");
    apply_bad("randseed", "-1", "expected an integer");
}
END_TEST

/* fio's two boolean syntaxes: "empty or boolean" options (time_based, norandommap, stonewall,
 * new_group, group_reporting) take no value or an integer; bool options (randrepeat,
 * replay_no_stall) need 0 or 1. Neither takes true/false (fio 3.33 refuses both). */
START_TEST(test_workload_opt_flags_and_bools)
{
    ck_assert(wl_with("time_based", NULL).time_based);
    ck_assert(wl_with("time_based", "1").time_based);
    ck_assert(wl_with("time_based", "2").time_based);
    ck_assert(!wl_with("time_based", "0").time_based);
    ck_assert(wl_with("norandommap", NULL).norandommap);
    ck_assert(wl_with("stonewall", NULL).stonewall);
    ck_assert(wl_with("wait_for_previous", NULL).stonewall);
    ck_assert(!wl_with("stonewall", "0").stonewall);
    ck_assert(wl_with("new_group", NULL).new_group);
    ck_assert(wl_with("group_reporting", NULL).group_reporting);
    struct ssdsim__jobspec job = wl_with("time_based", NULL);
    apply_ok(&job, "time_based", "0");
    ck_assert(!job.time_based);
    apply_bad("time_based", "yes", "expected no value, or an integer (0 = off), got 'yes'");
    apply_bad("time_based", "true", "got 'true'");
    apply_bad("norandommap", "", "got ''");

    ck_assert(!wl_with("randrepeat", "0").randrepeat);
    ck_assert(wl_with("randrepeat", "1").randrepeat);
    ck_assert(wl_with("replay_no_stall", "1").replay_no_stall);
    apply_bad("randrepeat", NULL, "a value is required");
    apply_bad("randrepeat", "2", "expected 0 or 1, got '2'");
    apply_bad("randrepeat", "true", "expected 0 or 1");
    apply_bad("replay_no_stall", NULL, "a value is required");
}
END_TEST

START_TEST(test_workload_opt_random_distribution)
{
    struct ssdsim__jobspec job = wl_with("random_distribution", "zipf:1.2");
    ck_assert_int_eq(job.dist, SSDSIM__DIST_ZIPF);
    ck_assert(job.dist_param == 1.2);
    /* Without a value: fio's defaults, theta 1.1, h 0.2, deviation 0. */
    ck_assert(wl_with("random_distribution", "zipf").dist_param == 1.1);
    job = wl_with("random_distribution", "pareto");
    ck_assert_int_eq(job.dist, SSDSIM__DIST_PARETO);
    ck_assert(job.dist_param == 0.2);
    job = wl_with("random_distribution", "pareto:0.5");
    ck_assert(job.dist_param == 0.5);
    job = wl_with("random_distribution", "normal:10");
    ck_assert_int_eq(job.dist, SSDSIM__DIST_NORMAL);
    ck_assert(job.dist_param == 10);
    ck_assert(wl_with("random_distribution", "normal").dist_param == 0);
    ck_assert(wl_with("random_distribution", "zipf:0.8").dist_param == 0.8);

    /* The HOWTO's zoned example: 60% of accesses to the first 10%, 30% to the next 20%, 8% to
     * the next 30%, 2% to the next 40%. */
    job = wl_with("random_distribution", "zoned:60/10:30/20:8/30:2/40");
    ck_assert_int_eq(job.dist, SSDSIM__DIST_ZONED);
    ck_assert_uint_eq(job.n_zones, 4);
    ck_assert_uint_eq(job.zone_access[0], 60);
    ck_assert_uint_eq(job.zone_range[0], 10);
    ck_assert_uint_eq(job.zone_access[3], 2);
    ck_assert_uint_eq(job.zone_range[3], 40);
    /* ... and its zoned_abs example: 60% to the first 20G, 30% to the next 100G, 10% to the next
     * 500G. */
    job = wl_with("random_distribution", "zoned_abs:60/20G:30/100G:10/500g");
    ck_assert_int_eq(job.dist, SSDSIM__DIST_ZONED_ABS);
    ck_assert_uint_eq(job.n_zones, 3);
    ck_assert_uint_eq(job.zone_bytes[0], 20 * GiB);
    ck_assert_uint_eq(job.zone_bytes[2], 500 * GiB);
    ck_assert_uint_eq(job.zone_access[1], 30);
    /* random resets the zones. */
    apply_ok(&job, "random_distribution", "random");
    ck_assert_int_eq(job.dist, SSDSIM__DIST_RANDOM);
    ck_assert_uint_eq(job.n_zones, 0);

    /* fio's ranges: theta != 1 (and, here, > 0), 0 < h < 1, 0 <= dev < 100. */
    apply_bad("random_distribution", "zipf:1", "zipf theta must be greater than 0 and not 1");
    apply_bad("random_distribution", "zipf:0", "greater than 0");
    apply_bad("random_distribution", "pareto:1", "pareto h must be in (0, 1)");
    apply_bad("random_distribution", "pareto:0", "(0, 1)");
    apply_bad("random_distribution", "normal:100", "normal deviation must be in [0, 100)");
    apply_bad("random_distribution", "zipf:x", "expected zipf:NUMBER");
    apply_bad("random_distribution", "zipf:1.2:0.25", "a distribution center");
    apply_bad("random_distribution", "gauss:10", "expected random, zipf:THETA");
    apply_bad("random_distribution", "zoned:60/10:30/20", "accesses must sum to 100, got 90");
    apply_bad("random_distribution", "zoned:60/50:40/60", "ranges must sum to at most 100");
    apply_bad("random_distribution", "zoned:60/0:40/50", "RANGE in [1, 100]");
    apply_bad("random_distribution", "zoned:60/10:40/90,50/50:50/50", "per-direction zones");
    apply_bad("random_distribution", "zoned:/10:100/90", "zone 1");
    apply_bad("random_distribution", "zoned:", "expected zoned:ACCESS/RANGE");
    apply_bad("random_distribution", "zoned_abs:60/1000:40/1g", "multiple of 512");
    apply_bad("random_distribution", "zoned_abs:60/1g:30/1g", "sum to 100, got 90");
    apply_bad("random_distribution", "uniform", "got 'uniform'");
}
END_TEST

START_TEST(test_workload_opt_percentage_random_and_rates)
{
    struct ssdsim__jobspec job = wl_with("percentage_random", "50,80");
    ck_assert_uint_eq(job.percentage_random[SSDSIM__DIR_READ], 50);
    ck_assert_uint_eq(job.percentage_random[SSDSIM__DIR_WRITE], 80);
    ck_assert_uint_eq(job.percentage_random[SSDSIM__DIR_TRIM], 80);
    apply_bad("percentage_random", "101", "in [0, 100]");

    /* HOWTO: "rate=1m,500k" limits reads to 1MiB/sec and writes to 500KiB/sec; "rate=,500k"
     * only writes, "rate=500k," only reads. */
    job = wl_with("rate", "1m,500k");
    ck_assert_uint_eq(job.rate_bytes[SSDSIM__DIR_READ], MiB);
    ck_assert_uint_eq(job.rate_bytes[SSDSIM__DIR_WRITE], 500 * KiB);
    job = wl_with("rate", ",500k");
    ck_assert_uint_eq(job.rate_bytes[SSDSIM__DIR_READ], 0);
    ck_assert_uint_eq(job.rate_bytes[SSDSIM__DIR_WRITE], 500 * KiB);
    job = wl_with("rate", "500k,");
    ck_assert_uint_eq(job.rate_bytes[SSDSIM__DIR_READ], 500 * KiB);
    ck_assert_uint_eq(job.rate_bytes[SSDSIM__DIR_WRITE], 0);
    ck_assert_uint_eq(job.rate_bytes[SSDSIM__DIR_TRIM], 0);
    job = wl_with("rate_iops", "100,200");
    ck_assert_uint_eq(job.rate_iops[SSDSIM__DIR_READ], 100);
    ck_assert_uint_eq(job.rate_iops[SSDSIM__DIR_WRITE], 200);
    apply_bad("rate", "fast", "expected a size");
    apply_bad("rate_iops", "1.5", "got '1.5'");

    ck_assert_int_eq(wl_with("rate_process", "poisson").rate_process, SSDSIM__RATE_POISSON);
    ck_assert_int_eq(wl_with("rate_process", "linear").rate_process, SSDSIM__RATE_LINEAR);
    apply_bad("rate_process", "bursty", "expected linear or poisson, got 'bursty'");
}
END_TEST

START_TEST(test_workload_opt_steadystate)
{
    /* HOWTO: "iops_slope:0.1%" stops when the slope falls below 0.1% of the mean IOPS;
     * "iops:2" within 2 IOPS of the mean; bw limits are sizes per second. */
    struct ssdsim__jobspec job = wl_with("ss", "iops_slope:0.1%");
    ck_assert_int_eq(job.ss, SSDSIM__SS_IOPS_SLOPE);
    ck_assert(job.ss_limit == 0.1);
    ck_assert(job.ss_limit_percent);
    job = wl_with("steadystate", "iops:2");
    ck_assert_int_eq(job.ss, SSDSIM__SS_IOPS);
    ck_assert(job.ss_limit == 2);
    ck_assert(!job.ss_limit_percent);
    job = wl_with("ss", "bw:10m");
    ck_assert_int_eq(job.ss, SSDSIM__SS_BW);
    ck_assert(job.ss_limit == 10.0 * MiB);
    job = wl_with("ss", "bw_slope:1%");
    ck_assert_int_eq(job.ss, SSDSIM__SS_BW_SLOPE);
    ck_assert(job.ss_limit_percent);
    apply_bad("ss", "iops", "needs a limit");
    apply_bad("ss", "iops:", "needs a limit");
    apply_bad("ss", "iops:abc", "expected a limit like iops:1%");
    ck_assert(wl_with("ss", "bw:1.5m").ss_limit == 1.5 * MiB); /* the JSON reading of sizes */
    apply_bad("ss", "latency:5", "expected iops, iops_slope, bw or bw_slope");
}
END_TEST

START_TEST(test_workload_opt_strings)
{
    struct ssdsim__jobspec job;
    ssdsim__jobspec_defaults(&job);
    apply_ok(&job, "name", "random writers");
    ck_assert_str_eq(job.name, "random writers");
    apply_ok(&job, "name", " other "); /* replaces (and frees) the old one */
    ck_assert_str_eq(job.name, "other");
    apply_ok(&job, "name", "");
    ck_assert_ptr_null(job.name);
    apply_ok(&job, "read_iolog", "/tmp/trace.log");
    ck_assert_str_eq(job.read_iolog, "/tmp/trace.log");
    apply_ok(&job, "read_iolog", "other.log");
    ck_assert_str_eq(job.read_iolog, "other.log");
    apply_ok(&job, "write_bw_log", "foo");
    ck_assert_str_eq(job.write_bw_log, "foo");
    /* Without a value fio names the log after the job: stored as "" until the name is known. */
    apply_ok(&job, "write_lat_log", NULL);
    ck_assert_str_eq(job.write_lat_log, "");
    apply_ok(&job, "write_iops_log", "iops");
    ck_assert_str_eq(job.write_iops_log, "iops");

    /* A copy owns its strings. */
    struct ssdsim__jobspec copy;
    ck_assert_int_eq(ssdsim__jobspec_add_raw(&job, "bs", "4k"), 0);
    ck_assert_int_eq(ssdsim__jobspec_add_raw(&job, "time_based", NULL), 0);
    ck_assert_int_eq(ssdsim__jobspec_copy(&copy, &job), 0);
    ssdsim__jobspec_clear(&job);
    ck_assert_str_eq(copy.read_iolog, "other.log");
    ck_assert_str_eq(copy.write_bw_log, "foo");
    ck_assert_uint_eq(copy.n_raw, 2);
    ck_assert_str_eq(copy.raw_keys[1], "time_based");
    ck_assert_str_eq(copy.raw_values[1], "");
    ssdsim__jobspec_clear(&copy);
    ck_assert_ptr_null(copy.read_iolog);
    ck_assert_uint_eq(copy.n_raw, 0);

    apply_bad("read_iolog", "", "expected the name of an I/O log file");
    apply_bad("read_iolog", NULL, "a value is required");
    apply_bad("name", NULL, "a value is required");
}
END_TEST

/* Options with no effect on a simulation are accepted and reported as ignored, their values
 * still checked as fio checks them. */
START_TEST(test_workload_opt_ignored)
{
    apply_ignored("ioengine", "libaio");
    apply_ignored("direct", "1");
    apply_ignored("direct", "0");
    apply_ignored("buffered", "0");
    apply_ignored("filename", "/dev/nvme0n1");
    apply_ignored("description", "4k random writes at QD16");
    apply_ignored("thread", NULL);
    apply_ignored("thread", "1");
    apply_ignored("iodepth_batch_submit", "16"); /* fio's alias of iodepth_batch */
    apply_ignored("iodepth_batch_complete_max", "16");
    apply_ignored("refill_buffers", NULL);
    apply_ignored("buffer_compress_percentage", "50");
    apply_ignored("cpus_allowed", "0-3,8");
    apply_ignored("nice", "-5");
    apply_ignored("rate_min", ",500k");
    apply_ignored("max_latency", "10ms");
    apply_ignored("gtod_reduce", "1");
    apply_ignored("write_hist_log", NULL);
    apply_ignored("hipri", NULL); /* io_uring */
    /* fio checks their values: so do we. */
    apply_bad("direct", "2", "expected 0 or 1, got '2'");
    apply_bad("direct", NULL, "a value is required");
    apply_bad("thread", "yes", "expected no value, or an integer");
    apply_bad("iodepth_batch", "many", "expected an integer, got 'many'");
    apply_bad("ioengine", NULL, "a value is required");
}
END_TEST

/* Options that change the I/O in ways not simulated are refused with the reason, except for
 * their no-op values, which are ignored. */
START_TEST(test_workload_opt_refused)
{
    apply_bad("end_fsync", "1", "does not model cache flushes (only end_fsync=0 is accepted)");
    apply_ignored("end_fsync", "0");
    apply_bad("verify", "md5", "verification reads are not simulated");
    apply_ignored("verify", "0");
    apply_bad("fill_device", "1", "use size");
    apply_bad("fill_fs", "1", "use size"); /* fio's alias */
    apply_ignored("fill_device", "0");
    apply_bad("exitall", NULL, "not supported");
    apply_ignored("exitall", "0");
    apply_bad("iodepth_low", "4", "refills its queue");
    apply_ignored("iodepth_low", "0");
    apply_ignored("iodepth_batch_complete", "1");
    apply_bad("iodepth_batch_complete_min", "8", "not supported");
    apply_bad("kb_base", "1000", "kb_base=1000 would change how every size is read");
    apply_ignored("kb_base", "1024");
    apply_bad("nrfiles", "4", "not files");
    apply_ignored("nr_files", "1");
    apply_bad("wait_for", "first", "order jobs with stonewall");
    apply_bad("zonemode", "strided", "not simulated");
    {
        /* fio's zonemode=zbd is simulated (dev/zns.c), none switches it off again */
        struct ssdsim__jobspec zj;
        ssdsim__jobspec_defaults(&zj);
        apply_ok(&zj, "zonemode", "zbd");
        ck_assert(zj.zbd);
        apply_ok(&zj, "zonemode", "none");
        ck_assert(!zj.zbd);
    }
    apply_bad("rw_sequencer", "identical", "not supported");
    apply_ignored("rw_sequencer", "sequential");
    apply_bad("filesize", "1g", "use size");
    apply_bad("fsync", "often", "expected an integer in [0, 4294967295], got 'often'");
}
END_TEST

START_TEST(test_workload_opt_unknown_suggests)
{
    struct ssdsim__jobspec job, def;
    ssdsim__jobspec_defaults(&job);
    def = job;
    int rc = ssdsim__jobspec_apply(&job, "iodept", "16", errbuf, sizeof errbuf);
    ck_assert_int_eq(rc, SSDSIM_ENOTFOUND);
    ck_assert_str_eq(errbuf, "unknown option (did you mean 'iodepth'?)");
    rc = ssdsim__jobspec_apply(&job, "IODEPTH", "16", errbuf, sizeof errbuf);
    ck_assert_int_eq(rc, SSDSIM_ENOTFOUND);
    ck_assert_str_eq(errbuf, "unknown option (did you mean 'iodepth'?)");
    rc = ssdsim__jobspec_apply(&job, "blocksz", "4k", errbuf, sizeof errbuf);
    ck_assert_int_eq(rc, SSDSIM_ENOTFOUND);
    ck_assert_str_eq(errbuf, "unknown option (did you mean 'blocksize'?)");
    rc = ssdsim__jobspec_apply(&job, "blocksie", "4k", errbuf, sizeof errbuf);
    ck_assert_str_eq(errbuf, "unknown option (did you mean 'blocksize'?)");
    rc = ssdsim__jobspec_apply(&job, "rwmixred", "4k", errbuf, sizeof errbuf);
    ck_assert_str_eq(errbuf, "unknown option (did you mean 'rwmixread'?)");
    /* Ignored and refused options are suggested too. */
    rc = ssdsim__jobspec_apply(&job, "ioengin", "libaio", errbuf, sizeof errbuf);
    ck_assert_str_eq(errbuf, "unknown option (did you mean 'ioengine'?)");
    /* Nothing close: no suggestion. */
    rc = ssdsim__jobspec_apply(&job, "quantum_flux", "x", errbuf, sizeof errbuf);
    ck_assert_int_eq(rc, SSDSIM_ENOTFOUND);
    ck_assert_str_eq(errbuf, "unknown option");
    rc = ssdsim__jobspec_apply(&job, "", "x", errbuf, sizeof errbuf);
    ck_assert_int_eq(rc, SSDSIM_ENOTFOUND);
    rc = ssdsim__jobspec_apply(&job,
                               "a_very_long_option_name_that_goes_on_and_on_and_on_and_on_"
                               "and_on_and_on",
                               "x", errbuf, sizeof errbuf);
    ck_assert_int_eq(rc, SSDSIM_ENOTFOUND);
    ck_assert(memcmp(&job, &def, sizeof job) == 0);
    /* A known option without a value, and no option name at all. */
    ck_assert_int_eq(ssdsim__jobspec_apply(&job, "bs", NULL, errbuf, sizeof errbuf),
                     SSDSIM_ECONFIG);
    ck_assert_str_eq(errbuf, "a value is required");
    ck_assert_int_eq(ssdsim__jobspec_apply(&job, NULL, "4k", errbuf, sizeof errbuf),
                     SSDSIM_ECONFIG);
    ck_assert_int_eq(ssdsim__jobspec_apply(NULL, "bs", "4k", errbuf, sizeof errbuf),
                     SSDSIM_ECONFIG);
    /* A NULL or tiny error buffer is fine. */
    ck_assert_int_eq(ssdsim__jobspec_apply(&job, "bs", "x", NULL, 0), SSDSIM_ECONFIG);
    char tiny[4];
    ck_assert_int_eq(ssdsim__jobspec_apply(&job, "bs", "xxxx", tiny, sizeof tiny), SSDSIM_ECONFIG);
    ck_assert_str_eq(tiny, "exp");
    ck_assert(memcmp(&job, &def, sizeof job) == 0);
}
END_TEST

START_TEST(test_workload_option_lookup)
{
    enum ssdsim__optkind kind = 0;
    ck_assert_str_eq(ssdsim__fio_option_lookup("blocksize", &kind), "bs");
    ck_assert_int_eq(kind, SSDSIM__OPTKIND_SIZE);
    ck_assert_str_eq(ssdsim__fio_option_lookup("ss", &kind), "steadystate");
    ck_assert_int_eq(kind, SSDSIM__OPTKIND_MIXED);
    ck_assert_str_eq(ssdsim__fio_option_lookup("time_based", &kind), "time_based");
    ck_assert_int_eq(kind, SSDSIM__OPTKIND_FLAG);
    ck_assert_str_eq(ssdsim__fio_option_lookup("direct", &kind), "direct");
    ck_assert_int_eq(kind, SSDSIM__OPTKIND_BOOL);
    ck_assert_str_eq(ssdsim__fio_option_lookup("timeout", NULL), "runtime");
    ck_assert_str_eq(ssdsim__fio_option_lookup("fill_fs", NULL), "fill_device");
    ck_assert_ptr_null(ssdsim__fio_option_lookup("blocksie", &kind));
    ck_assert_ptr_null(ssdsim__fio_option_lookup("BS", &kind));
    ck_assert_ptr_null(ssdsim__fio_option_lookup(NULL, &kind));
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
    ck_assert_uint_eq(wl->n_jobs, 1);
    const struct ssdsim__jobspec *job = &wl->jobs[0];
    ck_assert_int_eq(job->rw, SSDSIM__RW_RANDWRITE);
    assert_single(&job->bs[SSDSIM__DIR_WRITE], 4096);
    ck_assert_uint_eq(job->iodepth, 16);
    ck_assert_uint_eq(job->numjobs, 16);
    ck_assert_uint_eq(job->number_ios, 100000);
    ck_assert_uint_eq(job->rwmixread, 50);
    ck_assert_ptr_null(job->name);
    ck_assert_uint_eq(job->line, 0);
    /* The options as written, in order. */
    ck_assert_uint_eq(job->n_raw, 5);
    ck_assert_str_eq(job->raw_keys[0], "rw");
    ck_assert_str_eq(job->raw_values[0], "randwrite");
    ck_assert_str_eq(job->raw_keys[4], "number_ios");
    ck_assert_str_eq(job->raw_values[4], "100000");
    ck_assert_uint_eq(ssdsim_workload_n_jobs(wl), 1);
    ck_assert_str_eq(ssdsim_workload_job_name(wl, 0), "job");
    ck_assert_ptr_null(ssdsim_workload_job_name(wl, 1));
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
    const struct ssdsim__jobspec *job = &wl->jobs[0];
    ck_assert_str_eq(job->name, "mixed");
    ck_assert_str_eq(ssdsim_workload_job_name(wl, 0), "mixed");
    ck_assert_int_eq(job->rw, SSDSIM__RW_RANDRW);
    ck_assert_uint_eq(job->rwmixread, 70);
    ck_assert_uint_eq(job->bs[SSDSIM__DIR_READ].n, 2);
    ck_assert_uint_eq(job->bs[SSDSIM__DIR_WRITE].e[1].bytes, 65536);
    ck_assert_uint_eq(job->bs[SSDSIM__DIR_WRITE].e[1].percent, 20);
    ck_assert_uint_eq(job->iodepth, 32);
    ck_assert_uint_eq(job->numjobs, 4);
    ck_assert(job->size_percent == 50);
    ck_assert_uint_eq(job->offset_bytes, GiB);
    ck_assert_uint_eq(job->runtime_ns, 60 * SSDSIM__NS_PER_S);
    ck_assert(job->has_randseed);
    ck_assert_uint_eq(job->randseed, 1234);
    ck_assert_uint_eq(job->number_ios, 1000000);
    /* description changes nothing and is listed as ignored. */
    ck_assert_uint_eq(ssdsim_workload_n_ignored(wl), 1);
    ck_assert_str_eq(ssdsim_workload_ignored(wl, 0), "description");
    ck_assert_ptr_null(ssdsim_workload_ignored(wl, 1));
    ck_assert_uint_eq(ssdsim_workload_n_skipped(wl), 0);
    ssdsim_workload_free(wl);

    /* An empty object is all defaults; the caller's label is kept; err may be NULL. */
    rc = ssdsim_workload_load_string(&wl, " {} ", "my label", NULL);
    ck_assert_int_eq(rc, 0);
    ck_assert_str_eq(wl->label, "my label");
    ck_assert_int_eq(wl->jobs[0].rw, SSDSIM__RW_READ);
    ck_assert_uint_eq(wl->jobs[0].iodepth, 1);
    ssdsim_workload_free(wl);

    /* Deeper than cJSON's nesting limit: said so, not quoted as a syntax error. */
    char deep[2100] = "{\"rw\": ";
    size_t n = strlen(deep);
    memset(deep + n, '[', 1001);
    memset(deep + n + 1001, ']', 1001);
    strcpy(deep + n + 2002, "}");
    rc = ssdsim_workload_load_string(&wl, deep, NULL, &err);
    ck_assert_int_eq(rc, SSDSIM_EPARSE);
    ck_assert_str_eq(err.message,
                     "<string>:1:1007: JSON syntax error: nested deeper than 1000 levels");

    /* A byte order mark is skipped; a fractional runtime number is seconds. */
    rc = ssdsim_workload_load_string(&wl, "\xEF\xBB\xBF{\"runtime\": 0.5}", NULL, &err);
    ck_assert_msg(rc == 0, "%s", err.message);
    ck_assert_uint_eq(wl->jobs[0].runtime_ns, 500 * SSDSIM__NS_PER_MS);
    ssdsim_workload_free(wl);

    /* A log named without a prefix takes the job's name ("job" when it has none). */
    rc = ssdsim_workload_load_string(&wl, "{\"write_bw_log\": \"\", \"write_lat_log\": \"x\"}",
                                     NULL, &err);
    ck_assert_msg(rc == 0, "%s", err.message);
    ck_assert_str_eq(wl->jobs[0].write_bw_log, "job");
    ck_assert_str_eq(wl->jobs[0].write_lat_log, "x");
    ssdsim_workload_free(wl);

    /* JSON true and false for fio's flags and booleans. */
    rc = ssdsim_workload_load_string(
        &wl, "{\"time_based\": true, \"runtime\": 10, \"randrepeat\": false, \"direct\": true}",
        NULL, &err);
    ck_assert_msg(rc == 0, "%s", err.message);
    ck_assert(wl->jobs[0].time_based);
    ck_assert(!wl->jobs[0].randrepeat);
    ck_assert_str_eq(wl->jobs[0].raw_values[0], "1");
    ck_assert_str_eq(ssdsim_workload_ignored(wl, 0), "direct");
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
    err = load_bad("{\"rw\": \"randrw:0\"}", SSDSIM_ECONFIG);
    ck_assert_str_eq(err.message, "wl.json: rw: expected the number of I/Os per random offset "
                                  "(1 or more) after ':', got '0'");
    err = load_bad("{\"verify\": \"md5\"}", SSDSIM_ECONFIG);
    ck_assert_ptr_nonnull(strstr(err.message, "wl.json: verify: not supported"));
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
    ck_assert_uint_eq(wl->jobs[0].randseed, UINT64_MAX);
    ck_assert_uint_eq(wl->jobs[0].number_ios, 9007199254740992ULL);
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

    err = load_bad("{\"quantum_flux\": \"on\"}", SSDSIM_ECONFIG);
    ck_assert_str_eq(err.message, "wl.json: quantum_flux: unknown option");

    /* Lenient loading skips unknown keys and lists them. */
    rc = ssdsim_workload_load_file_ex(&wl, path, SSDSIM_WORKLOAD_LENIENT, &err);
    ck_assert_msg(rc == 0, "%s", err.message);
    ck_assert_uint_eq(ssdsim_workload_n_skipped(wl), 1);
    ck_assert_str_eq(ssdsim_workload_skipped(wl, 0), "iodept");
    ck_assert_ptr_null(ssdsim_workload_skipped(wl, 1));
    ck_assert_uint_eq(wl->jobs[0].iodepth, 1);
    ck_assert_uint_eq(wl->jobs[0].n_raw, 2); /* not among the options as written */
    ssdsim_workload_free(wl);
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
    err = load_bad("{\"bsrange\": \"4k-8k\", \"bssplit\": \"8k/100\"}", SSDSIM_ECONFIG);
    ck_assert_str_eq(err.path, "bssplit");
    err = load_bad("{\"rwmixread\": 70, \"rwmixwrite\": 30}", SSDSIM_ECONFIG);
    ck_assert_str_eq(err.path, "rwmixwrite");
    err = load_bad("{\"runtime\": 10, \"timeout\": 10}", SSDSIM_ECONFIG);
    ck_assert_str_eq(err.path, "timeout");
    err = load_bad("{\"ss_dur\": 10, \"steadystate_duration\": 10}", SSDSIM_ECONFIG);
    ck_assert_str_eq(err.path, "steadystate_duration");
    err = load_bad("{\"stonewall\": 1, \"wait_for_previous\": 1}", SSDSIM_ECONFIG);
    ck_assert_str_eq(err.path, "wait_for_previous");
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
    err = load_bad("{\"time_based\": null}", SSDSIM_ECONFIG);
    ck_assert_str_eq(err.message, "wl.json: time_based: expected a string or a number, got null");
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
    wl = (ssdsim_workload *)(uintptr_t)1;
    ck_assert_int_eq(ssdsim_workload_load_file_ex(&wl, "x.json", 0x80, &err), SSDSIM_EINVAL);
    ck_assert_ptr_null(wl);
    ck_assert_ptr_nonnull(strstr(err.message, "unknown flags 0x80"));
    /* Failures with a NULL error struct still return the code. */
    ck_assert_int_eq(ssdsim_workload_load_string(&wl, "{\"bs\": 1}", NULL, NULL), SSDSIM_ECONFIG);
    ck_assert_int_eq(ssdsim_workload_load_string(&wl, "{", NULL, NULL), SSDSIM_EPARSE);
    ssdsim_workload_free(NULL);
    /* The accessors take NULL and out-of-range indexes. */
    ck_assert_uint_eq(ssdsim_workload_n_jobs(NULL), 0);
    ck_assert_ptr_null(ssdsim_workload_job_name(NULL, 0));
    ck_assert_uint_eq(ssdsim_workload_n_ignored(NULL), 0);
    ck_assert_ptr_null(ssdsim_workload_ignored(NULL, 0));
    ck_assert_uint_eq(ssdsim_workload_n_skipped(NULL), 0);
    ck_assert_ptr_null(ssdsim_workload_skipped(NULL, 0));
}
END_TEST

/* ------------------------------------------------------------------------------------------ */
/* Checks against a device                                                                     */

START_TEST(test_workload_check_fits)
{
    struct ssdsim__jobspec job, before;
    ssdsim__jobspec_defaults(&job);
    ck_assert_int_eq(check1(&job, 64 * GiB), 0);
    apply_ok(&job, "offset", "1g");
    apply_ok(&job, "size", "63g");
    apply_ok(&job, "bssplit", "4k/50:1m/50");
    before = job;
    ck_assert_int_eq(check1(&job, 64 * GiB), 0);
    ck_assert(memcmp(&job, &before, sizeof job) == 0);

    /* Percentages resolve against the device and are left as percentages. */
    apply_ok(&job, "offset", "50%");
    apply_ok(&job, "size", "50%");
    before = job;
    ck_assert_int_eq(check1(&job, 64 * GiB), 0);
    ck_assert(memcmp(&job, &before, sizeof job) == 0);
    ck_assert(job.offset_percent == 50 && job.size_percent == 50);

    /* size 0 runs from the offset to the end. */
    ssdsim__jobspec_defaults(&job);
    apply_ok(&job, "offset", "63g");
    apply_ok(&job, "bs", "1m");
    ck_assert_int_eq(check1(&job, 64 * GiB), 0);

    /* Only the directions the job uses must fit: a read job with 1m writes on 64k. */
    ssdsim__jobspec_defaults(&job);
    apply_ok(&job, "size", "64k");
    apply_ok(&job, "bs", "4k,1m");
    ck_assert_int_eq(check1(&job, 64 * GiB), 0);
    apply_ok(&job, "rw", "randrw");
    ck_assert_int_eq(check1(&job, 64 * GiB), SSDSIM_ECONFIG);
}
END_TEST

/* Percentage offsets resolve as fio's get_start_offset does: floor(pct x capacity / 100) plus
 * clone x increment, aligned up to the job's smallest block size; a percentage size is cut down
 * to a multiple of it. Capacity 10^9 bytes (not a multiple of 4 KiB): 10% is 100,000,000,
 * which is 256 past a 4 KiB boundary (24,414 x 4096 = 99,999,744). */
START_TEST(test_workload_region_percent_aligned)
{
    const uint64_t cap = 1000000000ULL;
    struct ssdsim__jobspec job;
    uint64_t off, size;
    ssdsim__jobspec_defaults(&job);
    apply_ok(&job, "offset", "10%");
    ssdsim__jobspec_region(&job, 0, cap, &off, &size);
    ck_assert_uint_eq(off, 24415ULL * 4096); /* 100,003,840: up, not down */
    ck_assert_uint_eq(size, cap - off);      /* to the end */

    /* the smallest block size of any direction, used or not (fio's td_min_bs) */
    apply_ok(&job, "bs", "64k,16k");
    ssdsim__jobspec_region(&job, 0, cap, &off, &size);
    ck_assert_uint_eq(off, 6104ULL * 16384); /* 100,007,936 */
    apply_ok(&job, "bs", "8k");
    apply_ok(&job, "bssplit", "2k/10:8k/90");
    ssdsim__jobspec_region(&job, 0, cap, &off, &size);
    ck_assert_uint_eq(off, 100001792ULL); /* 48,829 x 2048 */

    /* a byte offset stays where it is; a percentage increment aligns the sum */
    ssdsim__jobspec_defaults(&job);
    apply_ok(&job, "offset", "1m");
    ssdsim__jobspec_region(&job, 3, cap, &off, &size);
    ck_assert_uint_eq(off, 1048576);
    apply_ok(&job, "offset_increment", "10%");
    apply_ok(&job, "numjobs", "4");
    ssdsim__jobspec_region(&job, 3, cap, &off, &size);
    /* 1,048,576 + 3 x 100,000,000 = 301,048,576 = 73,498.19 x 4096: up to 73,499 x 4096 */
    ck_assert_uint_eq(off, 73499ULL * 4096);

    /* a percentage size: floor to 512 bytes, then down to the smallest block size */
    ssdsim__jobspec_defaults(&job);
    apply_ok(&job, "size", "10%");
    ssdsim__jobspec_region(&job, 0, cap, &off, &size);
    ck_assert_uint_eq(off, 0);
    ck_assert_uint_eq(size, 24414ULL * 4096);
    /* offset 90% and size 10%: the start moves up by 4096 - 2304 bytes, past the end by as much,
     * which the size gives back (then down to 4 KiB) */
    apply_ok(&job, "offset", "90%");
    ssdsim__jobspec_region(&job, 0, cap, &off, &size);
    ck_assert_uint_eq(off, 219727ULL * 4096); /* 900,000,000 -> 900,001,792 */
    ck_assert_uint_le(off + size, cap);
    ck_assert_uint_eq(size, (cap - off) / 4096 * 4096);

    /* offset_align: another alignment for percentage starts (fio's option), a size only */
    ssdsim__jobspec_defaults(&job);
    apply_ok(&job, "offset", "10%");
    apply_ok(&job, "offset_align", "1m");
    ssdsim__jobspec_region(&job, 0, cap, &off, &size);
    ck_assert_uint_eq(off, 96ULL * 1048576); /* 100,000,000 up to 100,663,296 */
    apply_ok(&job, "offset", "1024000"); /* bytes are taken as given */
    ssdsim__jobspec_region(&job, 0, cap, &off, &size);
    ck_assert_uint_eq(off, 1024000);
    apply_bad("offset_align", "1000", "offset_align must be a size, a multiple of 512 bytes");
    apply_bad("offset_align", "10%", "offset_align must be a size, a multiple of 512 bytes");
}
END_TEST

START_TEST(test_workload_check_region_outside_device)
{
    struct ssdsim__jobspec job;
    ssdsim__jobspec_defaults(&job);
    apply_ok(&job, "offset", "64g");
    ck_assert_int_eq(check1(&job, 64 * GiB), SSDSIM_ECONFIG);
    ck_assert_ptr_nonnull(strstr(errbuf, "offset 68719476736 is not inside the device"));

    ssdsim__jobspec_defaults(&job);
    apply_ok(&job, "offset", "1g");
    apply_ok(&job, "size", "64g");
    ck_assert_int_eq(check1(&job, 64 * GiB), SSDSIM_ECONFIG);
    ck_assert_ptr_nonnull(strstr(errbuf, "exceeds the device's logical capacity"));

    ssdsim__jobspec_defaults(&job);
    apply_ok(&job, "offset", "75%");
    apply_ok(&job, "size", "50%");
    ck_assert_int_eq(check1(&job, 64 * GiB), SSDSIM_ECONFIG);

    /* Size alone larger than the device. */
    ssdsim__jobspec_defaults(&job);
    apply_ok(&job, "size", "128g");
    ck_assert_int_eq(check1(&job, 64 * GiB), SSDSIM_ECONFIG);

    /* An empty device fits nothing. */
    ssdsim__jobspec_defaults(&job);
    ck_assert_int_eq(check1(&job, 0), SSDSIM_ECONFIG);

    /* offset_increment: clone k starts at offset + k * increment, inside the device. */
    ssdsim__jobspec_defaults(&job);
    apply_ok(&job, "size", "16g");
    apply_ok(&job, "offset_increment", "16g");
    apply_ok(&job, "numjobs", "4");
    ck_assert_int_eq(check1(&job, 64 * GiB), 0);
    apply_ok(&job, "numjobs", "5");
    ck_assert_int_eq(check1(&job, 64 * GiB), SSDSIM_ECONFIG);
    ck_assert_ptr_nonnull(strstr(errbuf, "clone 5 of 5 (offset_increment): offset 68719476736"));
    apply_ok(&job, "offset_increment", "20%");
    apply_ok(&job, "size", "20%");
    ck_assert_int_eq(check1(&job, 100 * GiB), 0);
    apply_ok(&job, "offset_increment", "21%");
    ck_assert_int_eq(check1(&job, 100 * GiB), SSDSIM_ECONFIG);
}
END_TEST

START_TEST(test_workload_check_block_larger_than_region)
{
    struct ssdsim__jobspec job;
    ssdsim__jobspec_defaults(&job);
    apply_ok(&job, "size", "64k");
    apply_ok(&job, "bssplit", "4k/90:128k/10");
    ck_assert_int_eq(check1(&job, 64 * GiB), SSDSIM_ECONFIG);
    ck_assert_ptr_nonnull(strstr(errbuf, "block size 131072 is larger than the region of 65536"));

    /* The region left after the offset is what counts. */
    ssdsim__jobspec_defaults(&job);
    apply_ok(&job, "offset", "1020k");
    apply_ok(&job, "bs", "8k");
    ck_assert_int_eq(check1(&job, MiB), SSDSIM_ECONFIG);
    apply_ok(&job, "bs", "4k");
    ck_assert_int_eq(check1(&job, MiB), 0);

    /* A percentage that resolves to less than a block. */
    ssdsim__jobspec_defaults(&job);
    apply_ok(&job, "size", "0.001%");
    ck_assert_int_eq(check1(&job, MiB), SSDSIM_ECONFIG);

    /* bsrange: its upper bound must fit. */
    ssdsim__jobspec_defaults(&job);
    apply_ok(&job, "size", "64k");
    apply_ok(&job, "bsrange", "4k-128k");
    ck_assert_int_eq(check1(&job, GiB), SSDSIM_ECONFIG);
    ck_assert_ptr_nonnull(strstr(errbuf, "block size 131072 is larger"));
    apply_ok(&job, "bsrange", "4k-64k");
    ck_assert_int_eq(check1(&job, GiB), 0);
}
END_TEST

START_TEST(test_workload_check_zones)
{
    struct ssdsim__jobspec job;
    ssdsim__jobspec_defaults(&job);
    apply_ok(&job, "rw", "randread");
    apply_ok(&job, "random_distribution", "zoned_abs:60/20g:30/100g:10/500g");
    ck_assert_int_eq(check1(&job, TiB), 0);
    ck_assert_int_eq(check1(&job, 600 * GiB), SSDSIM_ECONFIG);
    ck_assert_msg(strstr(errbuf, "zoned_abs zones cover 665719930880 bytes, more than "
                                 "the region of 644245094400 bytes"),
                  "%s", errbuf);
    /* A zone too small for a block. */
    apply_ok(&job, "random_distribution", "zoned_abs:50/2k:50/1m");
    ck_assert_int_eq(check1(&job, GiB), SSDSIM_ECONFIG);
    ck_assert_ptr_nonnull(strstr(errbuf, "zone 1 is 2048 bytes of the region, smaller than a "
                                         "block of 4096"));
    apply_ok(&job, "random_distribution", "zoned:50/1:50/99");
    apply_ok(&job, "size", "256k");
    ck_assert_int_eq(check1(&job, GiB), SSDSIM_ECONFIG);
    apply_ok(&job, "size", "1m");
    ck_assert_int_eq(check1(&job, GiB), 0);
}
END_TEST

/* Rules that need several options together: fio's (rate and rate_iops exclude each other) and
 * the simulator's (time_based needs runtime, ss needs ss_dur). */
START_TEST(test_workload_check_cross_options)
{
    struct ssdsim__jobspec job;
    ssdsim__jobspec_defaults(&job);
    apply_ok(&job, "time_based", NULL);
    ck_assert_int_eq(check1(&job, GiB), SSDSIM_ECONFIG);
    ck_assert_str_eq(errbuf, "time_based needs a runtime");
    apply_ok(&job, "runtime", "10");
    ck_assert_int_eq(check1(&job, GiB), 0);

    apply_ok(&job, "ss", "iops_slope:0.1%");
    ck_assert_int_eq(check1(&job, GiB), SSDSIM_ECONFIG);
    ck_assert_ptr_nonnull(strstr(errbuf, "ss needs ss_dur"));
    apply_ok(&job, "ss_dur", "5");
    ck_assert_int_eq(check1(&job, GiB), 0);

    apply_ok(&job, "rate", "1m");
    apply_ok(&job, "rate_iops", "100");
    ck_assert_int_eq(check1(&job, GiB), SSDSIM_ECONFIG);
    ck_assert_ptr_nonnull(strstr(errbuf, "mutually exclusive"));
    apply_ok(&job, "rate", "0");
    ck_assert_int_eq(check1(&job, GiB), 0);
    apply_ok(&job, "rate_iops", "0");
    apply_ok(&job, "rate_process", "poisson");
    ck_assert_int_eq(check1(&job, GiB), SSDSIM_ECONFIG);
    ck_assert_ptr_nonnull(strstr(errbuf, "poisson needs a rate_iops or rate"));
    apply_ok(&job, "rate_iops", "500");
    ck_assert_int_eq(check1(&job, GiB), 0);

    /* A replayed job takes offsets from its log: no region checks. */
    ssdsim__jobspec_defaults(&job);
    apply_ok(&job, "size", "4k");
    apply_ok(&job, "bs", "1m");
    ck_assert_int_eq(check1(&job, GiB), SSDSIM_ECONFIG);
    apply_ok(&job, "read_iolog", "trace.log");
    ck_assert_int_eq(check1(&job, GiB), 0);
    ssdsim__jobspec_clear(&job);

    /* Several jobs: the message names the failing one. */
    struct ssdsim__jobspec jobs[2];
    ssdsim__jobspec_defaults(&jobs[0]);
    ssdsim__jobspec_defaults(&jobs[1]);
    apply_ok(&jobs[1], "name", "second");
    apply_ok(&jobs[1], "offset", "2g");
    struct ssdsim_workload *wl = wl_of(jobs, 2);
    ck_assert_int_eq(ssdsim__workload_check(wl, GiB, errbuf, sizeof errbuf), SSDSIM_ECONFIG);
    ck_assert_ptr_nonnull(strstr(errbuf, "job 'second': offset 2147483648 is not inside"));
    ssdsim_workload_free(wl);
    ssdsim__jobspec_clear(&jobs[1]);
    struct ssdsim_workload *empty = ssdsim__workload_new("e", false);
    ck_assert_int_eq(ssdsim__workload_check(empty, GiB, errbuf, sizeof errbuf), SSDSIM_ECONFIG);
    ck_assert_str_eq(errbuf, "the workload has no job");
    ssdsim_workload_free(empty);
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
    ck_assert_uint_eq(wl->jobs[0].iodepth, 8);
    ck_assert_int_eq(ssdsim_workload_set(wl, "bs", "16k", &err), 0); /* replaces the split */
    assert_single(&wl->jobs[0].bs[SSDSIM__DIR_READ], 16384);
    ck_assert_int_eq(ssdsim_workload_set(wl, "bs", "4k,8k", &err), 0);
    assert_single(&wl->jobs[0].bs[SSDSIM__DIR_WRITE], 8192);
    ck_assert_int_eq(ssdsim_workload_set(wl, "direct", "1", &err), 0);
    ck_assert_str_eq(ssdsim_workload_ignored(wl, 0), "direct");

    struct ssdsim__jobspec before = wl->jobs[0];
    ck_assert_int_eq(ssdsim_workload_set(wl, "bs", "4k,8k,16k,32k", &err), SSDSIM_ECONFIG);
    ck_assert_ptr_nonnull(strstr(err.message, "wl.json: bs: expected at most three"));
    ck_assert_int_eq(ssdsim_workload_set(wl, "bssplit", "4k/50:8k/40", &err), SSDSIM_ECONFIG);
    ck_assert_int_eq(ssdsim_workload_set(wl, "iodepth", "0", &err), SSDSIM_ECONFIG);
    ck_assert_str_eq(err.path, "iodepth");
    ck_assert_int_eq(ssdsim_workload_set(wl, "iodept", "4", &err), SSDSIM_ECONFIG);
    ck_assert_str_eq(err.message, "wl.json: iodept: unknown option (did you mean 'iodepth'?)");
    ck_assert(memcmp(&wl->jobs[0], &before, sizeof before) == 0);
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
    ck_assert_uint_eq(wl->jobs[0].bs[0].e[0].bytes, 4096);
    ssdsim_workload_free(wl);
}
END_TEST

/* ba (blockalign): random offsets are multiples of it, per direction as bs; it turns the random
 * map off, as in fio; sizes that are not multiples of 512 are refused. */
START_TEST(test_workload_blockalign)
{
    struct ssdsim__jobspec job = wl_with("ba", "4k");
    for (int d = 0; d < SSDSIM__N_DIRS; d++)
        ck_assert_uint_eq(job.blockalign[d], 4096);
    ck_assert(job.norandommap);
    job = wl_with("blockalign", ",8k");
    ck_assert_uint_eq(job.blockalign[SSDSIM__DIR_READ], 0);
    ck_assert_uint_eq(job.blockalign[SSDSIM__DIR_WRITE], 8192);
    apply_bad("ba", "1000", "512");
    apply_bad("ba", "0", "512");
    /* 512 B and 8 KiB writes: on 512-byte offsets without ba, on 4 KiB ones with ba=4k */
    for (int with_ba = 0; with_ba < 2; with_ba++) {
        ssdsim__jobspec_defaults(&job);
        apply_ok(&job, "rw", "randwrite");
        apply_ok(&job, "bssplit", "512/50:8k/50");
        if (with_ba)
            apply_ok(&job, "ba", "4k");
        struct ssdsim__gen g;
        ssdsim__gen_init(&g, &job, 0, 1, 1, UINT64_C(1) << 30);
        uint32_t off_4k = 0;
        for (int i = 0; i < 1000; i++) {
            uint8_t op;
            uint64_t off;
            uint32_t len;
            ck_assert(ssdsim__gen_next(&g, &op, &off, &len));
            ck_assert_uint_eq(off % 512, 0);
            off_4k += off % 4096 == 0;
        }
        if (with_ba)
            ck_assert_uint_eq(off_4k, 1000);
        else
            ck_assert_uint_lt(off_4k, 300);
    }
}
END_TEST

/* The addresses a skewed distribution's ranks fall on (its hot set) come from the scatter seed,
 * the workload's, not from the run's seed: two runs (seeds 1 and 2) with one scatter seed write
 * the same hottest block (rank 0's), in different orders; another scatter seed, or a clone,
 * moves it. zipf, pareto and normal alike. */
START_TEST(test_workload_hot_set_of_the_workload)
{
    static const char *dists[] = {"zipf:1.2", "pareto:0.9", "normal:5"};
    for (size_t i = 0; i < sizeof dists / sizeof *dists; i++) {
        struct ssdsim__jobspec job;
        ssdsim__jobspec_defaults(&job);
        apply_ok(&job, "rw", "randwrite");
        apply_ok(&job, "random_distribution", dists[i]);
        apply_ok(&job, "norandommap", "1");
        struct ssdsim__gen a, b, c, d;
        ssdsim__gen_init(&a, &job, 0, 1, 7, UINT64_C(1) << 30);
        ssdsim__gen_init(&b, &job, 0, 2, 7, UINT64_C(1) << 30);
        ssdsim__gen_init(&c, &job, 0, 1, 8, UINT64_C(1) << 30);
        ssdsim__gen_init(&d, &job, 1, 1, 7, UINT64_C(1) << 30);
        ck_assert_uint_eq(ssdsim__perm_apply(&a.perm, 0), ssdsim__perm_apply(&b.perm, 0));
        ck_assert_uint_ne(ssdsim__perm_apply(&a.perm, 0), ssdsim__perm_apply(&c.perm, 0));
        ck_assert_uint_ne(ssdsim__perm_apply(&a.perm, 0), ssdsim__perm_apply(&d.perm, 0));
        int same = 0;
        for (int k = 0; k < 100; k++) {
            uint8_t op;
            uint64_t oa, ob;
            uint32_t len;
            ck_assert(ssdsim__gen_next(&a, &op, &oa, &len));
            ck_assert(ssdsim__gen_next(&b, &op, &ob, &len));
            same += oa == ob;
        }
        ck_assert_msg(same < 100, "%s: the two runs drew the same sequence", dists[i]);
    }
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
    tcase_add_test(tc, test_workload_opt_bsrange);
    tcase_add_test(tc, test_workload_opt_bssplit);
    tcase_add_test(tc, test_workload_opt_rwmix);
    tcase_add_test(tc, test_workload_opt_iodepth_numjobs_loops);
    tcase_add_test(tc, test_workload_opt_size);
    tcase_add_test(tc, test_workload_opt_offset);
    tcase_add_test(tc, test_workload_opt_io_size);
    tcase_add_test(tc, test_workload_opt_counts_and_times);
    tcase_add_test(tc, test_workload_opt_flags_and_bools);
    tcase_add_test(tc, test_workload_opt_random_distribution);
    tcase_add_test(tc, test_workload_hot_set_of_the_workload);
    tcase_add_test(tc, test_workload_opt_percentage_random_and_rates);
    tcase_add_test(tc, test_workload_opt_steadystate);
    tcase_add_test(tc, test_workload_opt_strings);
    tcase_add_test(tc, test_workload_opt_ignored);
    tcase_add_test(tc, test_workload_opt_refused);
    tcase_add_test(tc, test_workload_opt_unknown_suggests);
    tcase_add_test(tc, test_workload_option_lookup);
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
    tcase_add_test(tc, test_workload_region_percent_aligned);
    tcase_add_test(tc, test_workload_check_region_outside_device);
    tcase_add_test(tc, test_workload_check_block_larger_than_region);
    tcase_add_test(tc, test_workload_check_zones);
    tcase_add_test(tc, test_workload_check_cross_options);
    suite_add_tcase(s, tc);

    tc = tcase_create("set");
    tcase_add_test(tc, test_workload_set_commits_only_on_success);
    tcase_add_test(tc, test_workload_set_bogus_args);
    tcase_add_test(tc, test_workload_blockalign);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return test_run_suite(workload_suite());
}
