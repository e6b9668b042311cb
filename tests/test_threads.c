/* test_threads.c: simulations share nothing, so one simulation per thread works: four threads
 * each build a device and run a workload at the same time (a fio job file and a trace replay
 * among them), and every thread's results are byte-identical to the same simulation run alone
 * on the main thread. Uses only the public headers and the shared library. */
#include <check.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ssdsim/ssdsim.h"
#include "ssdsim/trace.h"
#include "testutil.h"

#define N_THREADS 4

struct job {
    int kind; /* 0, 1: JSON workloads; 2: a job file; 3: a trace replay */
    uint64_t seed;
    char *json; /* results */
    int rc;
};

static const char *const workloads[] = {
    "{\"rw\": \"randwrite\", \"bs\": \"4k\", \"iodepth\": 8, \"numjobs\": 2, \"number_ios\": 6000}",
    "{\"rw\": \"randrw\", \"rwmixread\": 70, \"bssplit\": \"4k/50:16k/50\", \"iodepth\": 4, "
    "\"number_ios\": 5000}",
    "[global]\nrw=randwrite\nbs=4k\niodepth=4\nnumber_ios=2000\n[a]\n[b]\nstonewall\nrw=randread\n",
};

static void *run_one(void *arg)
{
    struct job *j = arg;
    ssdsim_error err;
    ssdsim_model *m = NULL;
    ssdsim *sim = NULL;
    ssdsim_workload *wl = NULL;
    ssdsim_trace *t = NULL;
    j->rc = ssdsim_model_default(&m, &err);
    if (!j->rc)
        j->rc = ssdsim_model_set(m, "geometry.blocks_per_plane", "128", &err);
    if (!j->rc)
        j->rc = ssdsim_new(&sim, m, j->seed, &err);
    if (j->rc)
        goto out;
    if (j->kind < 3) {
        j->rc = ssdsim_workload_load_string(&wl, workloads[j->kind], "w", &err);
        if (!j->rc)
            j->rc = ssdsim_run(sim, wl, NULL);
    } else {
        j->rc = ssdsim_trace_open(&t, SRCDIR "/traces/sample.msr.csv", NULL, &err);
        if (!j->rc) {
            ssdsim_source src;
            ssdsim_trace_as_source(t, &src);
            ssdsim_replay_opts ro = {.wrap = 1};
            j->rc = ssdsim_run_source(sim, &src, &ro, NULL);
        }
    }
    if (!j->rc)
        j->json = ssdsim_results_json(sim);
out:
    ssdsim_trace_close(t);
    ssdsim_workload_free(wl);
    ssdsim_free(sim);
    ssdsim_model_free(m);
    return NULL;
}

START_TEST(test_threads_match_sequential_runs)
{
    struct job alone[N_THREADS], par[N_THREADS];
    for (int i = 0; i < N_THREADS; i++) {
        alone[i] = (struct job){.kind = i, .seed = 100 + (uint64_t)i};
        par[i] = alone[i];
        run_one(&alone[i]);
        ck_assert_msg(alone[i].rc == 0 && alone[i].json, "job %d failed", i);
    }
    pthread_t th[N_THREADS];
    for (int i = 0; i < N_THREADS; i++)
        ck_assert_int_eq(pthread_create(&th[i], NULL, run_one, &par[i]), 0);
    for (int i = 0; i < N_THREADS; i++)
        ck_assert_int_eq(pthread_join(th[i], NULL), 0);
    for (int i = 0; i < N_THREADS; i++) {
        ck_assert_int_eq(par[i].rc, 0);
        ck_assert_str_eq(par[i].json, alone[i].json);
        free(par[i].json);
        free(alone[i].json);
    }
}
END_TEST

int main(void)
{
    Suite *s = suite_create("threads");
    TCase *tc = tcase_create("threads");
    tcase_set_timeout(tc, 600);
    tcase_add_test(tc, test_threads_match_sequential_runs);
    suite_add_tcase(s, tc);
    return test_run_suite(s);
}
