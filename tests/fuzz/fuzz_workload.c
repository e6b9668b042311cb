/* fuzz_workload.c: libFuzzer harness of the workload loaders: ssdsim_workload_load_string (a
 * JSON object of fio options, or a fio job file, told apart by content) and the fio job-file
 * parser itself (ssdsim__workload_load_jobfile, libssdsim/workload/jobfile.c), strict and
 * lenient.
 *
 * Whatever the bytes, a load succeeds or fails with a negative code and one line naming the
 * input; never a crash, hang or leak. Invariants: what loads strictly also loads leniently, with
 * the same jobs and nothing skipped; every job has a name and its log settings; the device
 * checks of a run (ssdsim__workload_check) judge it on a small and a large device without
 * crashing; setting an option afterwards (ssdsim_workload_set) keeps the workload usable.
 */
#include "common.h"
#include "workload/workload.h"

#include <stdlib.h>
#include <string.h>

#include "fuzz.h"

static void check_error(int rc, const ssdsim_error *err, const char *label)
{
    FUZZ_CHECK(rc < 0 && rc >= -(SSDSIM_N_ERRORS - 1), "code %d", rc);
    FUZZ_CHECK(err->message[0] != '\0', "empty message");
    FUZZ_CHECK(strchr(err->message, '\n') == NULL, "message on several lines: %s", err->message);
    FUZZ_CHECK(strstr(err->message, label) != NULL || rc == SSDSIM_ENOMEM,
               "message does not name %s: %s", label, err->message);
}

static void check_workload(ssdsim_workload *wl)
{
    size_t n = ssdsim_workload_n_jobs(wl);
    FUZZ_CHECK(n >= 1, "a workload without jobs");
    for (size_t i = 0; i < n; i++) {
        FUZZ_CHECK(ssdsim_workload_job_name(wl, i) != NULL, "job %zu has no name", i);
        uint32_t numjobs = 0;
        uint64_t avg = 0;
        FUZZ_CHECK(ssdsim_workload_job_logs(wl, i, NULL, NULL, NULL, &avg, &numjobs) == 0,
                   "job %zu logs", i);
        FUZZ_CHECK(numjobs >= 1, "job %zu: numjobs %u", i, numjobs);
    }
    FUZZ_CHECK(ssdsim_workload_job_name(wl, n) == NULL, "a name past the last job");
    for (size_t i = 0; i < ssdsim_workload_n_ignored(wl); i++)
        FUZZ_CHECK(ssdsim_workload_ignored(wl, i) != NULL, "ignored option %zu", i);
    for (size_t i = 0; i < ssdsim_workload_n_skipped(wl); i++)
        FUZZ_CHECK(ssdsim_workload_skipped(wl, i) != NULL, "skipped option %zu", i);
    char why[512];
    static const uint64_t sizes[] = {1ULL << 20, 1ULL << 40};
    for (size_t i = 0; i < 2; i++) {
        why[0] = '\0';
        int rc = ssdsim__workload_check(wl, sizes[i], why, sizeof why);
        FUZZ_CHECK(rc == 0 || (rc < 0 && why[0] != '\0'), "check: %d without a reason", rc);
    }
    /* An option set after loading: the workload stays whole either way. */
    ssdsim_error err;
    memset(&err, 0, sizeof err);
    if (ssdsim_workload_set(wl, "bs", "4k", &err) == 0)
        FUZZ_CHECK(ssdsim_workload_n_jobs(wl) == n, "set changed the jobs");
    (void)ssdsim__workload_check(wl, 1ULL << 30, why, sizeof why);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = fuzz_string(data, size);
    size_t len = strlen(text);
    ssdsim_workload *wl = NULL;
    ssdsim_error err;
    memset(&err, 0, sizeof err);
    int rc = ssdsim_workload_load_string(&wl, text, "fuzz-input", &err);
    if (rc == 0)
        check_workload(wl);
    else
        check_error(rc, &err, "fuzz-input");
    ssdsim_workload_free(wl);

    /* The job-file reader on the same text, strict then lenient. */
    ssdsim_workload *strict = NULL, *lenient = NULL;
    memset(&err, 0, sizeof err);
    int rs = ssdsim__workload_load_jobfile(&strict, "fuzz-job.fio", text, len, false, &err);
    if (rs != 0) {
        FUZZ_CHECK(strict == NULL, "failure left a workload");
        check_error(rs, &err, "fuzz-job.fio");
    }
    memset(&err, 0, sizeof err);
    int rl = ssdsim__workload_load_jobfile(&lenient, "fuzz-job.fio", text, len, true, &err);
    if (rl != 0) {
        FUZZ_CHECK(lenient == NULL, "failure left a workload");
        check_error(rl, &err, "fuzz-job.fio");
    }
    if (rs == 0) {
        FUZZ_CHECK(rl == 0, "loads strictly but not leniently: %s", err.message);
        FUZZ_CHECK(ssdsim_workload_n_jobs(strict) == ssdsim_workload_n_jobs(lenient),
                   "strict and lenient loads differ in jobs");
        FUZZ_CHECK(ssdsim_workload_n_skipped(lenient) == 0, "a strict load skipped nothing");
        check_workload(strict);
    }
    if (rl == 0)
        check_workload(lenient);
    ssdsim_workload_free(strict);
    ssdsim_workload_free(lenient);
    free(text);
    return 0;
}
