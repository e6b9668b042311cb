/* simtest.h: helpers for tests that build small devices and run workloads through the public
 * API (and, where a test needs it, look inside through the private sim.h). */
#ifndef SSDSIM_SIMTEST_H
#define SSDSIM_SIMTEST_H

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "ssdsim/ssdsim.h"
#include "testutil.h"

/* Load models/NAME.json from the source tree and apply "key=value" overrides (NULL-ended). */
static inline ssdsim_model *st_model(const char *name, ...)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/models/%s.json", SRCDIR, name);
    ssdsim_model *m = NULL;
    ssdsim_error err;
    int rc = ssdsim_model_load_file(&m, path, &err);
    ck_assert_msg(rc == 0, "%s", err.message);
    va_list ap;
    va_start(ap, name);
    const char *kv;
    while ((kv = va_arg(ap, const char *)) != NULL) {
        char key[128];
        const char *eq = strchr(kv, '=');
        ck_assert(eq != NULL);
        snprintf(key, sizeof key, "%.*s", (int)(eq - kv), kv);
        rc = ssdsim_model_set(m, key, eq + 1, &err);
        ck_assert_msg(rc == 0, "%s", err.message);
    }
    va_end(ap);
    return m;
}

static inline ssdsim_workload *st_workload(const char *json)
{
    ssdsim_workload *wl = NULL;
    ssdsim_error err;
    int rc = ssdsim_workload_load_string(&wl, json, "test workload", &err);
    ck_assert_msg(rc == 0, "%s", err.message);
    return wl;
}

static inline ssdsim *st_sim(const ssdsim_model *m, uint64_t seed)
{
    ssdsim *sim = NULL;
    ssdsim_error err;
    int rc = ssdsim_new(&sim, m, seed, &err);
    ck_assert_msg(rc == 0, "%s", err.message);
    return sim;
}

/* Run a workload given as JSON text; fails the test on error. */
static inline void st_run(ssdsim *sim, const char *json, const ssdsim_run_opts *opts)
{
    ssdsim_workload *wl = st_workload(json);
    int rc = ssdsim_run(sim, wl, opts);
    ck_assert_msg(rc == 0, "run failed: %s", ssdsim_errmsg(sim));
    ssdsim_workload_free(wl);
}

/* The results of a finished run as JSON text (the caller frees it); frees `sim` and `m`. */
static inline char *st_results_json(ssdsim *sim, ssdsim_model *m)
{
    char *json = ssdsim_results_json(sim);
    ck_assert_ptr_nonnull(json);
    ssdsim_free(sim);
    ssdsim_model_free(m);
    return json;
}

/* Determinism: `a` and `b`, the results of two runs with one seed, are the same text; `c`, with
 * another seed, differs. Frees all three. */
static inline void st_assert_seeded(char *a, char *b, char *c)
{
    ck_assert_str_eq(a, b);
    ck_assert_str_ne(a, c);
    free(a);
    free(b);
    free(c);
}

/* A completion callback that copies the completion into `ud` (an ssdsim_completion). */
static inline void st_grab(const ssdsim_completion *c, void *ud)
{
    *(ssdsim_completion *)ud = *c;
}

/* Submit one request now on an idle device or system, run it to its end, return its latency. */
static inline uint64_t st_one(ssdsim *sim, enum ssdsim_op op, uint64_t offset, uint64_t length)
{
    ssdsim_completion c = {0};
    ck_assert_int_eq(ssdsim_submit(sim, op, offset, length, ssdsim_now(sim), 7, st_grab, &c), 0);
    ck_assert_int_eq(ssdsim_drain(sim), 0);
    ck_assert_uint_eq(c.id, 7);
    return c.complete_ns - c.submit_ns;
}

/* The simulator's consistency check (ssdsim_check) passes, or the test fails with its reason. */
static inline void st_check(const ssdsim *sim)
{
    char why[512] = "";
    ck_assert_msg(ssdsim_check(sim, why, sizeof why) == 0, "%s", why);
}

/* `got` is within the fraction `rel` of `want`. */
static inline void st_within(double got, double want, double rel, const char *what)
{
    ck_assert_msg(fabs(got - want) <= rel * want, "%s: %.6g, expected %.6g within %.2g%%", what,
                  got, want, rel * 100);
}

#endif /* SSDSIM_SIMTEST_H */
