/* test_jobfile.c: the fio job-file reader (libssdsim/workload/jobfile.c) and fio's syntax of
 * option values in job files.
 *
 * The fixtures in tests/data/fio are also given to fio itself by test_fio_agree.sh; here their
 * contents are checked field by field, with expected values taken from fio's HOWTO where it
 * gives them (the bs and bssplit examples, globals, include, ${VAR}). Bogus input: every error
 * names its file and line, and random bytes never crash the reader.
 *
 * Run with --check FILE... it loads each file as the library does (lenient with --lenient),
 * checks it against a 1 TiB device as a run would, and exits 0 when all are valid: the helper
 * test_fio_agree.sh compares with fio.
 */
#include "common.h"
#include "trace/trace.h"
#include "workload/workload.h"

#include <errno.h>
#include <glib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "testutil.h"

#define KiB 1024ULL
#define MiB (1024ULL * KiB)
#define GiB (1024ULL * MiB)
#define TiB (1024ULL * GiB)

/* ------------------------------------------------------------------------------------------ */
/* Helpers                                                                                     */

static char path_buf[1024];

static const char *fixture(const char *name)
{
    char rel[256];
    snprintf(rel, sizeof rel, "tests/data/fio/%s", name);
    return test_src_path(path_buf, sizeof path_buf, rel);
}

static ssdsim_workload *load_fixture(const char *name)
{
    ssdsim_error err;
    ssdsim_workload *wl = NULL;
    int rc = ssdsim_workload_load_file(&wl, fixture(name), &err);
    ck_assert_msg(rc == 0, "%s: %s", name, err.message);
    ck_assert_ptr_nonnull(wl);
    return wl;
}

/* A fixture that must fail with `code`; its message must end with `tail` (after the path). */
static ssdsim_error fixture_bad(const char *name, int code, const char *tail)
{
    ssdsim_error err;
    ssdsim_workload *wl = (ssdsim_workload *)(uintptr_t)1;
    int rc = ssdsim_workload_load_file(&wl, fixture(name), &err);
    ck_assert_msg(rc == code, "%s: expected %s, got %s (%s)", name, ssdsim_errname(code),
                  ssdsim_errname(rc), err.message);
    ck_assert_ptr_null(wl);
    ck_assert_int_eq(err.code, code);
    size_t n = strlen(err.message), t = strlen(tail);
    ck_assert_msg(n >= t && !strcmp(err.message + n - t, tail),
                  "%s: message '%s' does not end "
                  "with '%s'",
                  name, err.message, tail);
    return err;
}

static ssdsim_workload *load_text(const char *text)
{
    ssdsim_error err;
    ssdsim_workload *wl = NULL;
    int rc = ssdsim_workload_load_string(&wl, text, "t.fio", &err);
    ck_assert_msg(rc == 0, "'%s': %s", text, err.message);
    return wl;
}

/* A text that must fail with SSDSIM_ECONFIG (or `code`) and exactly `message`. */
static ssdsim_error text_bad(const char *text, int code, const char *message)
{
    ssdsim_error err;
    ssdsim_workload *wl = (ssdsim_workload *)(uintptr_t)1;
    int rc = ssdsim_workload_load_string(&wl, text, "t.fio", &err);
    ck_assert_msg(rc == code, "'%s': expected %s, got %s (%s)", text, ssdsim_errname(code),
                  ssdsim_errname(rc), rc ? err.message : "");
    ck_assert_ptr_null(wl);
    if (message)
        ck_assert_str_eq(err.message, message);
    ck_assert_str_eq(err.file, "t.fio");
    return err;
}

static const struct ssdsim__jobspec *job_named(const ssdsim_workload *wl, const char *name)
{
    for (uint32_t i = 0; i < wl->n_jobs; i++)
        if (wl->jobs[i].name && !strcmp(wl->jobs[i].name, name))
            return &wl->jobs[i];
    ck_abort_msg("no job '%s'", name);
    return NULL;
}

static void assert_single(const struct ssdsim__bsdist *b, uint32_t bytes)
{
    ck_assert_uint_eq(b->n, 1);
    ck_assert_uint_eq(b->e[0].bytes, bytes);
    ck_assert_uint_eq(b->e[0].percent, 100);
    ck_assert_uint_eq(b->range_max, 0);
}

static bool listed(const char *const *list, uint32_t n, const char *name)
{
    for (uint32_t i = 0; i < n; i++)
        if (!strcmp(list[i], name))
            return true;
    return false;
}

/* Write a file into the build tree (tests/out/jobfile/NAME) and return its path. */
static const char *scratch_file(char *buf, size_t len, const char *name, const char *text)
{
    char dir[900];
    snprintf(dir, sizeof dir, "%s/tests", BUILDDIR);
    mkdir(dir, 0777);
    snprintf(dir, sizeof dir, "%s/tests/out", BUILDDIR);
    mkdir(dir, 0777);
    snprintf(dir, sizeof dir, "%s/tests/out/jobfile", BUILDDIR);
    mkdir(dir, 0777);
    snprintf(buf, len, "%s/%s", dir, name);
    FILE *f = fopen(buf, "w");
    ck_assert_msg(f != NULL, "cannot write %s: %s", buf, strerror(errno));
    fputs(text, f);
    fclose(f);
    return buf;
}

/* ------------------------------------------------------------------------------------------ */
/* The fixtures                                                                                */

START_TEST(test_jobfile_basic)
{
    ssdsim_workload *wl = load_fixture("basic.fio");
    ck_assert_str_eq(wl->label, fixture("basic.fio"));
    ck_assert_uint_eq(wl->n_jobs, 2);
    const struct ssdsim__jobspec *w = &wl->jobs[0], *r = &wl->jobs[1];
    ck_assert_str_eq(w->name, "seq-write");
    ck_assert_uint_eq(w->line, 12);
    ck_assert_str_eq(r->name, "rand-read");
    ck_assert_uint_eq(r->line, 17);
    ck_assert_int_eq(w->rw, SSDSIM__RW_WRITE);
    assert_single(&w->bs[SSDSIM__DIR_WRITE], 128 * KiB);
    ck_assert_uint_eq(w->iodepth, 32); /* blanks around '=' and a trailing '#' comment */
    ck_assert_uint_eq(w->size_bytes, GiB);
    ck_assert_uint_eq(w->numjobs, 1);
    ck_assert_int_eq(r->rw, SSDSIM__RW_RANDREAD);
    assert_single(&r->bs[SSDSIM__DIR_READ], 4 * KiB);
    ck_assert_uint_eq(r->iodepth, 16);
    ck_assert_uint_eq(r->numjobs, 4);
    ck_assert_uint_eq(r->size_bytes, GiB); /* from [global] */
    /* The options as written: globals first, values without comments or blanks. */
    ck_assert_uint_eq(w->n_raw, 7);
    ck_assert_str_eq(w->raw_keys[0], "ioengine");
    ck_assert_str_eq(w->raw_values[0], "libaio");
    ck_assert_str_eq(w->raw_keys[2], "filename");
    ck_assert_str_eq(w->raw_values[2], "/dev/nvme0n1");
    ck_assert_str_eq(w->raw_keys[6], "iodepth");
    ck_assert_str_eq(w->raw_values[6], "32");
    /* Ignored options, once each, in first-seen order. */
    ck_assert_uint_eq(ssdsim_workload_n_ignored(wl), 3);
    ck_assert_str_eq(ssdsim_workload_ignored(wl, 0), "ioengine");
    ck_assert_str_eq(ssdsim_workload_ignored(wl, 1), "direct");
    ck_assert_str_eq(ssdsim_workload_ignored(wl, 2), "filename");
    ck_assert_uint_eq(ssdsim_workload_n_jobs(wl), 2);
    ck_assert_str_eq(ssdsim_workload_job_name(wl, 1), "rand-read");
    ssdsim_workload_free(wl);
}
END_TEST

/* HOWTO: "a job file may even have several global sections ... A job is only affected by a
 * global section residing above it." */
START_TEST(test_jobfile_globals)
{
    ssdsim_workload *wl = load_fixture("globals.fio");
    ck_assert_uint_eq(wl->n_jobs, 3);
    const struct ssdsim__jobspec *first = job_named(wl, "first");
    const struct ssdsim__jobspec *second = job_named(wl, "second");
    const struct ssdsim__jobspec *third = job_named(wl, "third");
    ck_assert_int_eq(first->rw, SSDSIM__RW_RANDREAD);
    assert_single(&first->bs[SSDSIM__DIR_READ], 8 * KiB);
    ck_assert_uint_eq(first->iodepth_asked, 4);
    ck_assert_uint_eq(first->iodepth, 1); /* no ioengine: fio's psync caps it */
    ck_assert_int_eq(second->rw, SSDSIM__RW_WRITE);
    assert_single(&second->bs[SSDSIM__DIR_WRITE], 64 * KiB);
    ck_assert_uint_eq(second->iodepth_asked, 4); /* from the first [global] still */
    ck_assert_int_eq(third->rw, SSDSIM__RW_WRITE);
    ck_assert_uint_eq(third->iodepth_asked, 8);
    ck_assert_uint_eq(first->n_raw, 4); /* filename, bs, iodepth, rw */
    /* The globals as written are kept once per option, with the first place and the last value
     * (what results show), so their list stays as long as the option table at most. */
    ck_assert_uint_eq(second->n_raw, 4); /* filename, bs=64k, iodepth, rw=write */
    ck_assert_str_eq(second->raw_keys[1], "bs");
    ck_assert_str_eq(second->raw_values[1], "64k");
    ck_assert_str_eq(second->raw_keys[3], "rw");
    ck_assert_str_eq(second->raw_values[3], "write");
    ck_assert_uint_eq(third->n_raw, 5); /* + its own iodepth */
    ssdsim_workload_free(wl);
}
END_TEST

START_TEST(test_jobfile_include)
{
    ssdsim_workload *wl = load_fixture("include.fio");
    ck_assert_uint_eq(wl->n_jobs, 1);
    const struct ssdsim__jobspec *j = &wl->jobs[0];
    assert_single(&j->bs[SSDSIM__DIR_WRITE], 8 * KiB); /* included in [global] */
    ck_assert_uint_eq(j->iodepth_asked, 4);
    ck_assert_uint_eq(j->numjobs, 2); /* included in [job] */
    ck_assert_int_eq(j->rw, SSDSIM__RW_RANDWRITE);
    ck_assert_uint_eq(j->line, 7);
    ssdsim_workload_free(wl);
}
END_TEST

/* The HOWTO's per-direction rules (bs, bsrange, bssplit, rate). */
START_TEST(test_jobfile_per_direction)
{
    ssdsim_workload *wl = load_fixture("per-direction.fio");
    const struct ssdsim__jobspec *j = job_named(wl, "bs");
    ck_assert_int_eq(j->rw, SSDSIM__RW_RANDRW);
    ck_assert_uint_eq(j->rwmixread, 70);
    assert_single(&j->bs[SSDSIM__DIR_READ], 4 * KiB);
    assert_single(&j->bs[SSDSIM__DIR_WRITE], 64 * KiB);
    assert_single(&j->bs[SSDSIM__DIR_TRIM], 64 * KiB);
    j = job_named(wl, "bs-reads-only");
    assert_single(&j->bs[SSDSIM__DIR_READ], 8 * KiB);
    assert_single(&j->bs[SSDSIM__DIR_WRITE], 4 * KiB);
    j = job_named(wl, "bsrange");
    ck_assert_uint_eq(j->bs[SSDSIM__DIR_READ].range_min, 1024);
    ck_assert_uint_eq(j->bs[SSDSIM__DIR_READ].range_max, 4096);
    ck_assert_uint_eq(j->bs[SSDSIM__DIR_WRITE].range_min, 2048);
    ck_assert_uint_eq(j->bs[SSDSIM__DIR_WRITE].range_max, 8192);
    j = job_named(wl, "bssplit");
    ck_assert_uint_eq(j->bs[SSDSIM__DIR_READ].n, 2);
    ck_assert_uint_eq(j->bs[SSDSIM__DIR_READ].e[1].percent, 50);
    assert_single(&j->bs[SSDSIM__DIR_WRITE], 16 * KiB);
    j = job_named(wl, "rate");
    ck_assert_uint_eq(j->rate_bytes[SSDSIM__DIR_READ], MiB);
    ck_assert_uint_eq(j->rate_bytes[SSDSIM__DIR_WRITE], 500 * KiB);
    ssdsim_workload_free(wl);
}
END_TEST

START_TEST(test_jobfile_flags)
{
    ssdsim_workload *wl = load_fixture("flags.fio");
    const struct ssdsim__jobspec *a = job_named(wl, "first"), *b = job_named(wl, "second");
    ck_assert(a->time_based);
    ck_assert_uint_eq(a->runtime_ns, 30 * SSDSIM__NS_PER_S);
    ck_assert(a->group_reporting && b->group_reporting);
    ck_assert(a->norandommap);
    ck_assert(!a->randrepeat);
    ck_assert(!a->stonewall && !a->new_group);
    /* write_bw_log without a value: the log is named after the job (HOWTO). */
    ck_assert_str_eq(a->write_bw_log, "first");
    ck_assert_str_eq(a->write_lat_log, "lat");
    ck_assert_ptr_null(a->write_iops_log);
    ck_assert_uint_eq(a->log_avg_msec, 1000);
    ck_assert(b->stonewall && b->new_group);
    ck_assert(!b->time_based); /* time_based=0 after the global's time_based */
    ck_assert_ptr_null(b->write_bw_log);
    ssdsim_workload_free(wl);
}
END_TEST

START_TEST(test_jobfile_more_fixtures)
{
    ssdsim_workload *wl = load_fixture("distributions.fio");
    ck_assert_int_eq(job_named(wl, "zipf")->dist, SSDSIM__DIST_ZIPF);
    ck_assert(job_named(wl, "zipf")->dist_param == 1.2);
    ck_assert(job_named(wl, "pareto")->dist_param == 0.5);
    ck_assert_int_eq(job_named(wl, "normal")->dist, SSDSIM__DIST_NORMAL);
    ck_assert_uint_eq(job_named(wl, "zoned")->n_zones, 4);
    ck_assert_uint_eq(job_named(wl, "zoned-abs")->zone_bytes[1], 100 * GiB);
    ck_assert_uint_eq(job_named(wl, "zoned-abs")->size_bytes, TiB);
    ssdsim_workload_free(wl);

    wl = load_fixture("steadystate.fio");
    const struct ssdsim__jobspec *j = &wl->jobs[0];
    ck_assert_int_eq(j->ss, SSDSIM__SS_IOPS_SLOPE);
    ck_assert(j->ss_limit == 0.3 && j->ss_limit_percent);
    ck_assert_uint_eq(j->ss_dur_ns, 1800 * SSDSIM__NS_PER_S);
    ck_assert_uint_eq(j->ss_ramp_ns, 600 * SSDSIM__NS_PER_S);
    ck_assert_uint_eq(j->runtime_ns, 6 * 3600 * SSDSIM__NS_PER_S);
    ck_assert_uint_eq(j->ramp_time_ns, 5 * SSDSIM__NS_PER_S);
    ck_assert_uint_eq(j->numjobs, 16);
    ssdsim_workload_free(wl);

    wl = load_fixture("ignored.fio");
    const char *const want[] = {"ioengine",
                                "hipri",
                                "fixedbufs",
                                "direct",
                                "thread",
                                "cpus_allowed",
                                "iodepth_batch_submit",
                                "refill_buffers",
                                "description",
                                "filename"};
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++)
        ck_assert_msg(listed((const char *const *)wl->ignored, wl->n_ignored, want[i]),
                      "%s not listed as ignored", want[i]);
    ck_assert_uint_eq(wl->n_ignored, 16);
    ssdsim_workload_free(wl);

    wl = load_fixture("noop-refused.fio");
    ck_assert(listed((const char *const *)wl->ignored, wl->n_ignored, "end_fsync"));
    ck_assert(listed((const char *const *)wl->ignored, wl->n_ignored, "kb_base"));
    ssdsim_workload_free(wl);

    wl = load_fixture("rw-suffix.fio");
    ck_assert_uint_eq(job_named(wl, "random-runs")->rw_suffix, 8);
    ck_assert_uint_eq(job_named(wl, "holes")->rw_suffix, 4096);
    ssdsim_workload_free(wl);

    wl = load_fixture("regions.fio");
    j = &wl->jobs[0];
    ck_assert(j->size_percent == 10 && j->offset_percent == 5);
    ck_assert(j->offset_increment_percent == 10);
    ck_assert_uint_eq(j->io_size_bytes, 20 * GiB);
    ck_assert_uint_eq(j->loops, 2);
    ck_assert_uint_eq(j->number_ios, 1000000);
    ck_assert_int_eq(ssdsim__workload_check(wl, TiB, path_buf, sizeof path_buf), 0);
    ssdsim_workload_free(wl);

    wl = load_fixture("pacing.fio");
    ck_assert_uint_eq(job_named(wl, "thinker")->thinktime_ns, 100 * SSDSIM__NS_PER_US);
    ck_assert_uint_eq(job_named(wl, "thinker")->thinktime_blocks, 4);
    ck_assert_uint_eq(job_named(wl, "paced")->rate_iops[SSDSIM__DIR_WRITE], 2000);
    ck_assert_int_eq(job_named(wl, "paced")->rate_process, SSDSIM__RATE_POISSON);
    ssdsim_workload_free(wl);

    wl = load_fixture("replay.fio");
    ck_assert_str_eq(wl->jobs[0].read_iolog, "trace.log");
    ck_assert(wl->jobs[0].replay_no_stall);
    ssdsim_workload_free(wl);
}
END_TEST

/* HOWTO, "Environment variables": ${VARNAME} on the right of '=' is replaced by its value. */
START_TEST(test_jobfile_env_and_keywords)
{
    ck_assert_int_eq(setenv("SSDSIM_TEST_BS", "8k", 1), 0);
    ssdsim_workload *wl = load_fixture("env.fio");
    assert_single(&wl->jobs[0].bs[SSDSIM__DIR_READ], 8 * KiB);
    ck_assert_str_eq(wl->jobs[0].raw_values[2], "8k"); /* as expanded */
    ssdsim_workload_free(wl);

    unsetenv("SSDSIM_TEST_UNSET");
    ssdsim_error err = fixture_bad("env-unset.fio", SSDSIM_ECONFIG,
                                   "env-unset.fio:4: size: environment variable "
                                   "'SSDSIM_TEST_UNSET' is not set (fio would put an empty "
                                   "string in its place)");
    ck_assert_int_eq(err.line, 4);
    ck_assert_str_eq(err.path, "size");

    /* Reserved keywords: this machine's values (HOWTO, "Reserved keywords"). */
    wl = load_fixture("keywords.fio");
    ck_assert_uint_eq(wl->jobs[0].numjobs, (uint64_t)sysconf(_SC_NPROCESSORS_ONLN));
    ssdsim_workload_free(wl);
    wl = load_text("[j]\nbs=$pagesize\nrandseed=$mb_memory\n");
    assert_single(&wl->jobs[0].bs[0], (uint32_t)sysconf(_SC_PAGESIZE));
    ck_assert_uint_eq(wl->jobs[0].randseed,
                      ((uint64_t)sysconf(_SC_PHYS_PAGES) * (uint64_t)sysconf(_SC_PAGESIZE)) >> 20);
    ssdsim_workload_free(wl);
    ck_assert_int_eq(setenv("SSDSIM_TEST_PAIR", "4k,8k", 1), 0);
    wl = load_text("[j]\nbs=${SSDSIM_TEST_PAIR}\n");
    assert_single(&wl->jobs[0].bs[SSDSIM__DIR_WRITE], 8 * KiB);
    ssdsim_workload_free(wl);

    text_bad("[j]\nsize=8*$mb_memory\n", SSDSIM_ECONFIG, NULL);
    text_bad("[j]\nbs=${SSDSIM_TEST_BS\n", SSDSIM_ECONFIG,
             "t.fio:2: bs: '${' without its '}' (a variable is written ${NAME})");
    text_bad("[j]\nbs=${}\n", SSDSIM_ECONFIG, "t.fio:2: bs: '${}' names no environment variable");
    text_bad("[j]\nsize=(1+2)*4k\n", SSDSIM_ECONFIG,
             "t.fio:2: size: fio's arithmetic expressions ('(1+2)*4k') are not supported: write "
             "the value");
}
END_TEST

/* ------------------------------------------------------------------------------------------ */
/* Syntax                                                                                      */

START_TEST(test_jobfile_comments_and_blanks)
{
    /* fio cuts a line at its first ';' or '#', wherever it is (parse.c, strip_blank_end): in a
     * value too. */
    ssdsim_workload *wl = load_text("\xEF\xBB\xBF; comment\r\n"
                                    "   # indented comment\r\n"
                                    "[job] ; the job\r\n"
                                    "filename=/dev/a#b\r\n"
                                    "description=one;two\r\n"
                                    "\t bs \t=\t 8k \t\r\n"
                                    "rw=randread;comment\r\n");
    const struct ssdsim__jobspec *j = &wl->jobs[0];
    ck_assert_str_eq(j->name, "job");
    ck_assert_uint_eq(j->line, 3);
    ck_assert_str_eq(j->raw_values[0], "/dev/a");
    ck_assert_str_eq(j->raw_values[1], "one");
    ck_assert_str_eq(j->raw_keys[2], "bs");
    ck_assert_str_eq(j->raw_values[2], "8k");
    assert_single(&j->bs[0], 8 * KiB);
    ck_assert_int_eq(j->rw, SSDSIM__RW_RANDREAD);
    ssdsim_workload_free(wl);

    /* A last line without a newline, empty lines, and spaces in a section name (kept). */
    wl = load_text("\n\n[ my job ]\niodepth=2");
    ck_assert_str_eq(wl->jobs[0].name, " my job ");
    ck_assert_uint_eq(wl->jobs[0].line, 3);
    ck_assert_uint_eq(wl->jobs[0].iodepth_asked, 2);
    ssdsim_workload_free(wl);
}
END_TEST

START_TEST(test_jobfile_sections)
{
    /* fio: a section whose name starts with "global" is a global one. */
    ssdsim_workload *wl = load_text("[global-settings]\nbs=16k\n[a]\n[b]\nbs=4k\n[a]\n");
    ck_assert_uint_eq(wl->n_jobs, 3);
    assert_single(&wl->jobs[0].bs[0], 16 * KiB);
    assert_single(&wl->jobs[1].bs[0], 4 * KiB);
    ck_assert_str_eq(wl->jobs[2].name, "a"); /* names may repeat, as in fio */
    ck_assert_uint_eq(wl->jobs[2].line, 6);
    ssdsim_workload_free(wl);

    /* stonewall in [global] makes every later job wait; name= overrides the section name, but
     * not from [global] (fio names each job after copying the defaults). */
    wl = load_text("[global]\nstonewall\nname=ignored\n[a]\n[b]\nname=renamed\n");
    ck_assert(wl->jobs[0].stonewall && wl->jobs[1].stonewall);
    ck_assert_str_eq(wl->jobs[0].name, "a");
    ck_assert_str_eq(wl->jobs[1].name, "renamed");
    ssdsim_workload_free(wl);

    /* A [global] after the last job changes no job. */
    wl = load_text("[a]\n[global]\nbs=64k\n");
    ck_assert_uint_eq(wl->n_jobs, 1);
    assert_single(&wl->jobs[0].bs[0], 4 * KiB);
    ssdsim_workload_free(wl);
}
END_TEST

/* fio keeps bs, bsrange and bssplit apart and uses bssplit if set, else bsrange, else bs,
 * whatever their order: a job's bs does not undo a global bssplit. */
START_TEST(test_jobfile_block_size_precedence)
{
    ssdsim_workload *wl = load_text("[global]\nbssplit=4k/50:8k/50\n[a]\nbs=16k\n"
                                    "[b]\nbsrange=8k-32k\nbs=16k\n"
                                    "[global]\nbssplit=,64k/100\n[c]\nbs=16k\n");
    ck_assert_uint_eq(wl->jobs[0].bs[SSDSIM__DIR_READ].n, 2);
    ck_assert_uint_eq(wl->jobs[1].bs[SSDSIM__DIR_WRITE].n, 2); /* bssplit over bsrange */
    /* [c]: reads keep the first split, writes and trims take the second. */
    ck_assert_uint_eq(wl->jobs[2].bs[SSDSIM__DIR_READ].n, 2);
    assert_single(&wl->jobs[2].bs[SSDSIM__DIR_WRITE], 64 * KiB);
    ssdsim_workload_free(wl);
    wl = load_text("[a]\nbsrange=8k-32k\nbs=16k\n");
    ck_assert_uint_eq(wl->jobs[0].bs[0].range_max, 32 * KiB);
    ssdsim_workload_free(wl);
    /* The options as written keep the file's order. */
    wl = load_text("[a]\nbssplit=4k/100\nbs=8k\n");
    ck_assert_str_eq(wl->jobs[0].raw_keys[0], "bssplit");
    ck_assert_str_eq(wl->jobs[0].raw_keys[1], "bs");
    ssdsim_workload_free(wl);
}
END_TEST

START_TEST(test_jobfile_syntax_errors)
{
    text_bad("bs=4k\n[job]\n", SSDSIM_ECONFIG,
             "t.fio:1: option 'bs' is outside of any section: put it under [global] or a job's "
             "[name]");
    text_bad("[job]\n[]\n", SSDSIM_ECONFIG, "t.fio:2: a section needs a name: '[]'");
    text_bad("[job\n", SSDSIM_ECONFIG, "t.fio:1: section header '[job' has no closing ']'");
    text_bad("[job] x\n", SSDSIM_ECONFIG, "t.fio:1: section header '[job] x' has no closing ']'");
    text_bad("[job]\n=4k\n", SSDSIM_ECONFIG, "t.fio:2: an option name is missing before '='");
    text_bad("; only comments\n\n", SSDSIM_ECONFIG,
             "t.fio: no job section: a job file needs a [name] section besides [global]");
    text_bad("[global]\nbs=4k\n", SSDSIM_ECONFIG, NULL);
    text_bad("[job]\nbs\n", SSDSIM_ECONFIG, "t.fio:2: bs: a value is required");
    text_bad("[job]\nbs==4k\n", SSDSIM_ECONFIG,
             "t.fio:2: bs: expected a size like 4k or 1m, got '=4k'");
    text_bad("[job]\ninclude\n", SSDSIM_ECONFIG, "t.fio:2: 'include' needs a file name");
    text_bad("include x.fio\n", SSDSIM_ECONFIG,
             "t.fio:1: 'include' outside of any section (fio reads include lines inside a "
             "[global] or job section)");
    /* An error in a [global] after the last job is still found. */
    text_bad("[a]\n[global]\niodepth=0\n", SSDSIM_ECONFIG,
             "t.fio:3: iodepth: expected an integer in [1, 65536], got '0'");
    /* A NUL byte. */
    ssdsim_error err;
    ssdsim_workload *wl = NULL;
    ck_assert_int_eq(
        ssdsim__workload_load_jobfile(&wl, "n.fio", "[a]\nbs=4k\0x\n", 12, false, &err),
        SSDSIM_EPARSE);
    ck_assert_str_eq(err.message, "n.fio:2: a NUL byte: this is not a text file");
    ck_assert_ptr_null(wl);
}
END_TEST

START_TEST(test_jobfile_option_errors)
{
    ssdsim_error err = fixture_bad("bad-size.fio", SSDSIM_ECONFIG,
                                   "bad-size.fio:3: bs: expected a size like 4k or 1m, got "
                                   "'four'");
    ck_assert_str_eq(err.file, fixture("bad-size.fio"));
    ck_assert_int_eq(err.line, 3);
    ck_assert_str_eq(err.path, "bs");
    err = fixture_bad("unknown-option.fio", SSDSIM_ECONFIG,
                      "unknown-option.fio:3: unknown option 'blocksie' (did you mean "
                      "'blocksize'?)");
    ck_assert_str_eq(err.path, "blocksie");
    ck_assert_int_eq(err.line, 3);
    fixture_bad("option-outside.fio", SSDSIM_ECONFIG,
                "option-outside.fio:2: option 'bs' is "
                "outside of any section: put it under "
                "[global] or a job's [name]");
    fixture_bad("bool-without-value.fio", SSDSIM_ECONFIG,
                "bool-without-value.fio:4: randrepeat: a value is required");
    fixture_bad("flag-word.fio", SSDSIM_ECONFIG,
                "flag-word.fio:3: time_based: expected no value, or an integer (0 = off), got "
                "'yes'");
    fixture_bad("uppercase-option.fio", SSDSIM_ECONFIG,
                "uppercase-option.fio:4: unknown option 'BS' (did you mean 'bs'?)");
    fixture_bad("fsync.fio", SSDSIM_ECONFIG,
                "fsync.fio:4: end_fsync: not supported: the simulator does not model cache "
                "flushes (only end_fsync=0 is accepted)");
    fixture_bad("iec-size.fio", SSDSIM_ECONFIG,
                "iec-size.fio:3: bs: fio reads '4KiB' in powers of 1000 (with its default "
                "kb_base=1024 the IEC prefixes mean 10^3, 10^6, ...): write 4k for powers of "
                "1024");
    fixture_bad("fraction-size.fio", SSDSIM_ECONFIG,
                "fraction-size.fio:3: size: fio drops the fraction of '1.5g' (it reads 1.5g as 1 "
                "byte, 1.5s as 1 s): write a whole number, with a smaller unit if needed");
    fixture_bad("no-job.fio", SSDSIM_ECONFIG,
                "no-job.fio: no job section: a job file needs a [name] section besides "
                "[global]");
    fixture_bad("empty-section-name.fio", SSDSIM_ECONFIG,
                "empty-section-name.fio:2: a section needs a name: '[]'");
    /* Times: units fio does not know are refused in job files (JSON takes them). */
    text_bad("[j]\nruntime=5min\n", SSDSIM_ECONFIG,
             "t.fio:2: runtime: fio does not know the unit of '5min' (it knows us, ms, s, m, h, "
             "d)");
    text_bad("[j]\nthinktime=100ns\n", SSDSIM_ECONFIG, NULL);
    text_bad("[j]\nsize=12.5%\n", SSDSIM_ECONFIG, NULL);
    /* ... while fractions stay fine where fio reads decimals. */
    ssdsim_workload *wl = load_text("[j]\nrandom_distribution=zipf:1.2\nss=iops_slope:0.5%\n");
    ck_assert(wl->jobs[0].dist_param == 1.2);
    ssdsim_workload_free(wl);
    wl = load_text("[j]\nfilename=/dev/nvme0n1p1\nbs=0x1000\n");
    assert_single(&wl->jobs[0].bs[0], 4096);
    ssdsim_workload_free(wl);
}
END_TEST

START_TEST(test_jobfile_include_errors)
{
    fixture_bad("include-missing.fio", SSDSIM_EIO,
                "include-missing.fio:3: cannot include 'inc/no-such-file.inc': No such file or "
                "directory");
    ssdsim_error err = fixture_bad("include-section.fio", SSDSIM_ECONFIG,
                                   "section.inc:2: an included file cannot open a section "
                                   "('[other]')");
    ck_assert_int_eq(err.line, 2);
    ck_assert_ptr_nonnull(strstr(err.file, "inc/section.inc"));

    /* A file that includes itself, two that include each other, and a deep chain. */
    char a[1024], b[1024];
    scratch_file(a, sizeof a, "self.fio", "[job]\ninclude self.fio\n");
    ssdsim_workload *wl = (ssdsim_workload *)(uintptr_t)1;
    ck_assert_int_eq(ssdsim_workload_load_file(&wl, a, &err), SSDSIM_ECONFIG);
    ck_assert_ptr_nonnull(strstr(err.message, "self.fio:2: include cycle: 'self.fio' is already "
                                              "being read"));
    scratch_file(a, sizeof a, "ping.fio", "[job]\ninclude pong.inc\n");
    scratch_file(b, sizeof b, "pong.inc", "bs=4k\ninclude ping.inc\n");
    scratch_file(b, sizeof b, "ping.inc", "iodepth=2\ninclude pong.inc\n");
    ck_assert_int_eq(ssdsim_workload_load_file(&wl, a, &err), SSDSIM_ECONFIG);
    ck_assert_ptr_nonnull(strstr(err.message, "ping.inc:2: include cycle: 'pong.inc'"));
    ck_assert_ptr_null(wl);
    /* 17 nested includes: deeper than 16. */
    for (int i = 0; i <= 17; i++) {
        char name[32], text[64];
        snprintf(name, sizeof name, "deep%d.inc", i);
        snprintf(text, sizeof text, "include deep%d.inc\n", i + 1);
        scratch_file(b, sizeof b, name, i == 17 ? "bs=4k\n" : text);
    }
    scratch_file(a, sizeof a, "deep.fio", "[job]\ninclude deep0.inc\n");
    ck_assert_int_eq(ssdsim_workload_load_file(&wl, a, &err), SSDSIM_ECONFIG);
    ck_assert_ptr_nonnull(strstr(err.message, "deep15.inc:1: includes nest more than 16 deep"));
    /* 16 are fine. */
    scratch_file(b, sizeof b, "deep15.inc", "bs=8k\n");
    ck_assert_int_eq(ssdsim_workload_load_file(&wl, a, &err), 0);
    assert_single(&wl->jobs[0].bs[0], 8 * KiB);
    ssdsim_workload_free(wl);
    /* An absolute include path. */
    char text[1200];
    snprintf(text, sizeof text, "[job]\ninclude %s\n", b);
    wl = load_text(text);
    assert_single(&wl->jobs[0].bs[0], 8 * KiB);
    ssdsim_workload_free(wl);
    /* A device without end is refused before it is read (test_jobfile_limits has the rest). */
    scratch_file(a, sizeof a, "zero.fio", "[job]\ninclude /dev/zero\n");
    ck_assert_int_eq(ssdsim_workload_load_file(&wl, a, &err), SSDSIM_ECONFIG);
    ck_assert_msg(strstr(err.message, "zero.fio:2: cannot include '/dev/zero': not a regular "
                                      "file") != NULL,
                  "%s", err.message);
    ck_assert_ptr_null(wl);
}
END_TEST

/* An include of a device, a FIFO or a directory is refused before reading it (a device or a
 * FIFO could be endless); so is a file larger than a job file may be, and a longer line than a
 * trace may have. */
START_TEST(test_jobfile_limits)
{
    ssdsim_error err;
    ssdsim_workload *wl = (ssdsim_workload *)(uintptr_t)1;
    text_bad("[job]\ninclude /dev/null\n", SSDSIM_ECONFIG,
             "t.fio:2: cannot include '/dev/null': not a regular file (a device)");
    text_bad("[job]\ninclude /\n", SSDSIM_ECONFIG,
             "t.fio:2: cannot include '/': not a regular file (a directory)");

    /* A sparse file one byte larger than SSDSIM__WORKLOAD_MAX_BYTES, as an include and as the
     * job file itself. */
    char big[1024], a[1024], want[1400];
    scratch_file(big, sizeof big, "big.inc", "");
    ck_assert_int_eq(truncate(big, (off_t)SSDSIM__WORKLOAD_MAX_BYTES + 1), 0);
    scratch_file(a, sizeof a, "big.fio", "[job]\ninclude big.inc\n");
    ck_assert_int_eq(ssdsim_workload_load_file(&wl, a, &err), SSDSIM_ERANGE);
    ck_assert_ptr_null(wl);
    snprintf(want, sizeof want,
             "%s:2: cannot include 'big.inc': a job file and what it includes may hold at most "
             "67108864 bytes together, and 67108842 are left",
             a);
    ck_assert_str_eq(err.message, want);
    wl = (ssdsim_workload *)(uintptr_t)1;
    ck_assert_int_eq(ssdsim_workload_load_file(&wl, big, &err), SSDSIM_ERANGE);
    ck_assert_ptr_null(wl);
    snprintf(want, sizeof want, "%s: larger than 67108864 bytes", big);
    ck_assert_str_eq(err.message, want);
    ck_assert_int_eq(truncate(big, 0), 0);

    /* A line of SSDSIM__TRACE_MAX_LINE bytes is read; one more is refused. */
    size_t n = SSDSIM__TRACE_MAX_LINE;
    char *text = malloc(n + 32);
    ck_assert_ptr_nonnull(text);
    strcpy(text, "[job]\n");
    memset(text + 6, ' ', n);
    strcpy(text + 6 + n, "\n");
    wl = load_text(text);
    ssdsim_workload_free(wl);
    memset(text + 6, ' ', n + 1);
    strcpy(text + 6 + n + 1, "\n");
    text_bad(text, SSDSIM_EPARSE, "t.fio:2: line longer than 16777216 bytes (the limit of job "
                                  "files and traces)");
    free(text);
}
END_TEST

/* Reading is linear in the sections: 20,000 jobs, each under a [global] of its own, load (in
 * about a second; this was quadratic in time and memory and never finished), and each job has
 * the globals above it, the last value of an option winning. */
START_TEST(test_jobfile_many_sections)
{
    enum { N = 20000 };
    GString *g = g_string_new(NULL);
    for (int i = 0; i < N; i++)
        g_string_append_printf(g, "[global]\niodepth=%d\nbs=%dk\n[job%d]\nrw=randwrite\n",
                               i % 32 + 1, 4 << (i % 3), i);
    ssdsim_workload *wl = load_text(g->str);
    g_string_free(g, TRUE);
    ck_assert_uint_eq(wl->n_jobs, N);
    for (int i = 0; i < N; i += 997) {
        const struct ssdsim__jobspec *j = &wl->jobs[i];
        ck_assert_uint_eq(j->iodepth_asked, (uint32_t)(i % 32 + 1));
        assert_single(&j->bs[SSDSIM__DIR_WRITE], (uint32_t)(4 << (i % 3)) * KiB);
        /* iodepth and bs once each, with the last value, then the job's rw. */
        ck_assert_uint_eq(j->n_raw, 3);
        ck_assert_str_eq(j->raw_keys[0], "iodepth");
        char want[16];
        snprintf(want, sizeof want, "%d", i % 32 + 1);
        ck_assert_str_eq(j->raw_values[0], want);
        ck_assert_str_eq(j->raw_keys[2], "rw");
    }
    ssdsim_workload_free(wl);

    /* Block sizes of several globals: a later one replaces only the directions it sets; an
     * alias is the same option (the value last written wins, in the first one's place); an
     * option without a value gives way to one with. */
    wl = load_text("[global]\nbs=4k,8k\nwrite_bw_log\nrw=write\n[global]\nbs=,16k\n"
                   "blocksize=32k,,\nbs=,,512\nwrite_bw_log=x\n[a]\n");
    const struct ssdsim__jobspec *j = &wl->jobs[0];
    assert_single(&j->bs[SSDSIM__DIR_READ], 32 * KiB);
    assert_single(&j->bs[SSDSIM__DIR_WRITE], 16 * KiB);
    assert_single(&j->bs[SSDSIM__DIR_TRIM], 512);
    ck_assert_uint_eq(j->n_raw, 3);
    ck_assert_str_eq(j->raw_keys[0], "bs");
    ck_assert_str_eq(j->raw_values[0], ",,512");
    ck_assert_str_eq(j->raw_keys[1], "rw");
    ck_assert_str_eq(j->raw_keys[2], "write_bw_log");
    ck_assert_str_eq(j->raw_values[2], "x");
    ssdsim_workload_free(wl);
}
END_TEST

START_TEST(test_jobfile_lenient)
{
    ssdsim_error err;
    ssdsim_workload *wl = NULL;
    const char *text = "[global]\nfrobnicate=1\nioengine=libaio\n[a]\nblocksie=8k\nbs=16k\n"
                       "frobnicate\n";
    ck_assert_int_eq(ssdsim__workload_load_jobfile(&wl, "l.fio", text, strlen(text), true, &err),
                     0);
    ck_assert_uint_eq(ssdsim_workload_n_skipped(wl), 2);
    ck_assert_str_eq(ssdsim_workload_skipped(wl, 0), "frobnicate");
    ck_assert_str_eq(ssdsim_workload_skipped(wl, 1), "blocksie");
    ck_assert_str_eq(ssdsim_workload_ignored(wl, 0), "ioengine");
    assert_single(&wl->jobs[0].bs[0], 16 * KiB);
    ck_assert_uint_eq(wl->jobs[0].n_raw, 2); /* skipped options are not "as written" */
    ssdsim_workload_free(wl);
    /* Bad values and refused options still fail. */
    text = "[a]\nfrobnicate=1\nbs=four\n";
    ck_assert_int_eq(ssdsim__workload_load_jobfile(&wl, "l.fio", text, strlen(text), true, &err),
                     SSDSIM_ECONFIG);
    ck_assert_str_eq(err.message, "l.fio:3: bs: expected a size like 4k or 1m, got 'four'");
    text = "[a]\nend_fsync=1\n";
    ck_assert_int_eq(ssdsim__workload_load_jobfile(&wl, "l.fio", text, strlen(text), true, &err),
                     SSDSIM_ECONFIG);
    /* The public variant, on a file. */
    ck_assert_int_eq(ssdsim_workload_load_file_ex(&wl, fixture("unknown-option.fio"),
                                                  SSDSIM_WORKLOAD_LENIENT, &err),
                     0);
    ck_assert_str_eq(ssdsim_workload_skipped(wl, 0), "blocksie");
    ssdsim_workload_free(wl);
}
END_TEST

/* How a text is recognised: a job file by its name or its first '['. */
START_TEST(test_jobfile_detection)
{
    ck_assert(ssdsim__workload_is_jobfile(NULL, "[job]", 5));
    ck_assert(ssdsim__workload_is_jobfile(NULL, "; c\n# c\n  \n[job]", 17));
    ck_assert(!ssdsim__workload_is_jobfile(NULL, "{\"bs\": 1}", 9));
    ck_assert(!ssdsim__workload_is_jobfile(NULL, "", 0));
    ck_assert(ssdsim__workload_is_jobfile("x.fio", "bs=4k", 5));
    ck_assert(ssdsim__workload_is_jobfile("x.ini", "", 0));
    ck_assert(ssdsim__workload_is_jobfile("dir/x.job", "{", 1));
    ck_assert(!ssdsim__workload_is_jobfile("x.json", "[1, 2]", 6));
    ck_assert(!ssdsim__workload_is_jobfile(NULL, "[1, 2]", 6)); /* valid JSON: an array */
    ck_assert(ssdsim__workload_is_jobfile("x.fio", "[1, 2]", 6));
    ck_assert(!ssdsim__workload_is_jobfile("fio", "bs=4k", 5));
    /* Through the public functions: JSON and job files side by side. */
    ssdsim_workload *wl = NULL;
    ssdsim_error err;
    ck_assert_int_eq(ssdsim_workload_load_string(&wl, "[a]\n[b]\n", NULL, &err), 0);
    ck_assert_uint_eq(wl->n_jobs, 2);
    ssdsim_workload_free(wl);
    ck_assert_int_eq(ssdsim_workload_load_string(&wl, "{\"bs\": \"8k\"}", "x.fio", &err),
                     SSDSIM_ECONFIG); /* the name says job file: '{...}' is outside a section */
    ck_assert_int_eq(ssdsim__workload_load_jobfile(NULL, "x", "", 0, false, &err), SSDSIM_EINVAL);
    ck_assert_int_eq(ssdsim__workload_load_jobfile(&wl, "x", NULL, 0, false, NULL), SSDSIM_EINVAL);
}
END_TEST

/* Random bytes and mangled fixtures: the reader may refuse them but must not crash or leak (a
 * sanitizer build checks). A fixed seed keeps the inputs the same on every run. */
START_TEST(test_jobfile_fuzz)
{
    static const char alphabet[] = "[]=;#$ {}\n\t,:/%-.0123456789kmgKMiGbsrwandomzxe_";
    uint64_t state = 0x9e3779b97f4a7c15ULL;
    char text[512];
    int ok = 0;
    ck_assert_int_eq(setenv("SSDSIM_TEST_BS", "8k", 1), 0);
    for (int round = 0; round < 4000; round++) {
        size_t len = 0, want = 1 + (size_t)(state % (sizeof text - 1));
        for (; len < want; len++) {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            text[len] = round % 2 ? (char)(state & 0xff) : alphabet[state % (sizeof alphabet - 1)];
        }
        if (round % 4 == 0 && len > 6)
            memcpy(text, "[job]\n", 6);
        ssdsim_workload *wl = NULL;
        ssdsim_error err;
        int rc = ssdsim__workload_load_jobfile(&wl, "fuzz.fio", text, len, round % 3 == 0, &err);
        if (rc == 0) {
            ok++;
            ssdsim__workload_check(wl, TiB, path_buf, sizeof path_buf);
            ssdsim_workload_free(wl);
        } else {
            ck_assert_ptr_null(wl);
            ck_assert(err.message[0] != '\0');
        }
    }
    /* Every fixture cut short at every length. */
    static const char *const names[] = {"basic.fio", "per-direction.fio", "distributions.fio",
                                        "flags.fio"};
    for (size_t f = 0; f < sizeof names / sizeof names[0]; f++) {
        FILE *in = fopen(fixture(names[f]), "rb");
        ck_assert_ptr_nonnull(in);
        char buf[2048];
        size_t n = fread(buf, 1, sizeof buf, in);
        fclose(in);
        for (size_t cut = 0; cut <= n; cut++) {
            ssdsim_workload *wl = NULL;
            ssdsim_error err;
            if (ssdsim__workload_load_jobfile(&wl, "cut.fio", buf, cut, false, &err) == 0)
                ssdsim_workload_free(wl);
        }
    }
    ck_assert_int_gt(ok, 0);
}
END_TEST

/* The library's log lines, kept for the test to read. */
static char logged[2048];

static void keep_log(enum ssdsim_log_level level, const char *message, void *userdata)
{
    (void)level;
    (void)userdata;
    size_t n = strlen(logged);
    snprintf(logged + n, sizeof logged - n, "%s\n", message);
}

static bool ignored(const ssdsim_workload *wl, const char *key)
{
    for (size_t i = 0; i < ssdsim_workload_n_ignored(wl); i++)
        if (!strcmp(ssdsim_workload_ignored(wl, i), key))
            return true;
    return false;
}

/* fio caps iodepth at 1 for a synchronous engine, its default psync included, and notes it
 * ("note: both iodepth >= 1 and synchronous I/O engine are selected, queue depth will be capped
 * at 1", fio 3.33): a job file means the same to ssdsim. An asynchronous engine changes nothing
 * (listed as ignored); a JSON workload has no default engine; the order of the options does
 * not matter, and changing the engine later gives back the depth asked. */
START_TEST(test_jobfile_sync_engine)
{
    ssdsim_set_log_handler(keep_log, NULL);
    logged[0] = '\0';
    ssdsim_workload *wl = load_text("[a]\nrw=randread\niodepth=32\n");
    ck_assert_uint_eq(wl->jobs[0].iodepth_asked, 32);
    ck_assert_uint_eq(wl->jobs[0].iodepth, 1);
    ck_assert_str_eq(wl->jobs[0].sync_engine, "psync");
    ck_assert(wl->jobs[0].sync_engine_default);
    ck_assert_msg(strstr(logged, "t.fio:1: job 'a': ioengine=psync (fio's default: no ioengine "
                                 "given) is synchronous: iodepth=32 runs as 1"),
                  "%s", logged);
    ck_assert(!ignored(wl, "ioengine"));
    /* ioengine=libaio through the API: the depth asked, and no note */
    logged[0] = '\0';
    ck_assert_int_eq(ssdsim_workload_set(wl, "ioengine", "libaio", NULL), 0);
    ck_assert_uint_eq(wl->jobs[0].iodepth, 32);
    ck_assert_ptr_null(wl->jobs[0].sync_engine);
    ck_assert(ignored(wl, "ioengine"));
    ck_assert_str_eq(logged, "");
    ssdsim_workload_free(wl);

    wl = load_text("[a]\nioengine=libaio\niodepth=32\n[b]\niodepth=8\nioengine=io_uring\n"
                   "[c]\nioengine=psync\n");
    ck_assert_uint_eq(wl->jobs[0].iodepth, 32);
    ck_assert_uint_eq(wl->jobs[1].iodepth, 8);
    ck_assert_uint_eq(wl->jobs[2].iodepth, 1);
    ck_assert(ignored(wl, "ioengine"));
    ck_assert_str_eq(logged, ""); /* [c] asks for 1: nothing is capped */
    ssdsim_workload_free(wl);

    wl = load_text("[global]\nioengine=pvsync2\n[a]\niodepth=8\n");
    ck_assert_uint_eq(wl->jobs[0].iodepth, 1);
    ck_assert_str_eq(wl->jobs[0].sync_engine, "pvsync2");
    ck_assert(!wl->jobs[0].sync_engine_default);
    ck_assert_ptr_nonnull(strstr(logged, "t.fio:3: job 'a': ioengine=pvsync2 is synchronous"));
    ssdsim_workload_free(wl);

    logged[0] = '\0';
    ssdsim_error err;
    wl = NULL;
    ck_assert_int_eq(
        ssdsim_workload_load_string(&wl, "{\"rw\": \"randread\", \"iodepth\": 16}", "w.json", &err),
        0);
    ck_assert_uint_eq(wl->jobs[0].iodepth, 16);
    ck_assert_str_eq(logged, "");
    ssdsim_workload_free(wl);
    wl = NULL;
    ck_assert_int_eq(ssdsim_workload_load_string(&wl, "{\"iodepth\": 16, \"ioengine\": \"sync\"}",
                                                 "w.json", &err),
                     0);
    ck_assert_uint_eq(wl->jobs[0].iodepth, 1);
    ck_assert_ptr_nonnull(strstr(logged, "w.json: job 'job': ioengine=sync is synchronous"));
    ssdsim_workload_free(wl);
    text_bad("[a]\nioengine=\n", SSDSIM_ECONFIG,
             "t.fio:2: ioengine: expected an I/O engine name like libaio");
    ssdsim_set_log_handler(NULL, NULL);
}
END_TEST

/* ------------------------------------------------------------------------------------------ */

static Suite *jobfile_suite(void)
{
    Suite *s = suite_create("jobfile");
    TCase *tc = tcase_create("fixtures");
    tcase_add_test(tc, test_jobfile_basic);
    tcase_add_test(tc, test_jobfile_globals);
    tcase_add_test(tc, test_jobfile_include);
    tcase_add_test(tc, test_jobfile_per_direction);
    tcase_add_test(tc, test_jobfile_flags);
    tcase_add_test(tc, test_jobfile_more_fixtures);
    tcase_add_test(tc, test_jobfile_env_and_keywords);
    tcase_add_test(tc, test_jobfile_sync_engine);
    suite_add_tcase(s, tc);

    tc = tcase_create("syntax");
    tcase_add_test(tc, test_jobfile_comments_and_blanks);
    tcase_add_test(tc, test_jobfile_sections);
    tcase_add_test(tc, test_jobfile_block_size_precedence);
    tcase_add_test(tc, test_jobfile_syntax_errors);
    tcase_add_test(tc, test_jobfile_option_errors);
    tcase_add_test(tc, test_jobfile_include_errors);
    tcase_add_test(tc, test_jobfile_lenient);
    tcase_add_test(tc, test_jobfile_detection);
    tcase_add_test(tc, test_jobfile_fuzz);
    suite_add_tcase(s, tc);

    /* Large inputs (a 16 MiB line, a 64 MiB file, 20,000 sections): a second here, several
     * under ASan. The timeout only guards against a hang; nothing is timed. */
    tc = tcase_create("limits");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_jobfile_limits);
    tcase_add_test(tc, test_jobfile_many_sections);
    suite_add_tcase(s, tc);
    return s;
}

/* --check [--lenient] FILE...: the verdict test_fio_agree.sh compares with fio's. */
static int check_files(int argc, char **argv)
{
    unsigned flags = 0;
    int status = 0;
    for (int i = 2; i < argc; i++) {
        if (!strcmp(argv[i], "--lenient")) {
            flags |= SSDSIM_WORKLOAD_LENIENT;
            continue;
        }
        ssdsim_error err;
        ssdsim_workload *wl = NULL;
        char why[512];
        if (ssdsim_workload_load_file_ex(&wl, argv[i], flags, &err)) {
            fprintf(stderr, "%s\n", err.message);
            status = 1;
        } else if (ssdsim__workload_check(wl, TiB, why, sizeof why)) {
            fprintf(stderr, "%s: %s\n", argv[i], why);
            status = 1;
        } else {
            printf("%s: %zu job(s)\n", argv[i], ssdsim_workload_n_jobs(wl));
        }
        ssdsim_workload_free(wl);
    }
    return status;
}

int main(int argc, char **argv)
{
    if (argc > 1 && !strcmp(argv[1], "--check"))
        return check_files(argc, argv);
    return test_run_suite(jobfile_suite());
}
