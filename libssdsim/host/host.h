/* host.h: the host side of a run: jobs in a closed loop (each keeps iodepth requests
 * outstanding), the device's command-queue limit (requests beyond it wait on the host), the
 * splitting of requests into mapping units, and completion bookkeeping.
 *
 * Requests live in a pool sized numjobs x iodepth when the run starts; nothing is allocated
 * per request. Requests the embedding program submits itself (ssdsim_submit) use the same pool,
 * which then grows to the peak number outstanding.
 */
#ifndef SSDSIM_HOST_H
#define SSDSIM_HOST_H

#include "common.h"
#include "engine/engine.h"
#include "ftl/env.h"
#include "hw/hw.h"
#include "stats/stats.h"
#include "workload/gen.h"

struct ssdsim__io {
    uint64_t submit_ns; /* when the job issued it (latency starts here) */
    uint64_t done_ns;   /* latest completion of its units */
    uint64_t offset;
    uint32_t len;
    uint32_t pending; /* units not yet done */
    uint32_t job;     /* SSDSIM__NONE for a request the program submitted */
    uint32_t next;    /* free list / wait queue link */
    uint8_t op;
    /* the latency breakdown (ssdsim_completion) */
    uint64_t admit_ns, ftl_ns, flash_done_ns, wait_ns;
    /* submitted requests: the caller's id and callback */
    uint64_t id;
    ssdsim_complete_fn cb;
    void *userdata;
};

struct ssdsim__job {
    struct ssdsim__gen gen;
    uint32_t inflight;
    bool exhausted; /* issued all it should */
};

struct ssdsim__host {
    struct ssdsim__engine *engine;
    struct ssdsim__hw *hw;
    struct ssdsim_ftl_env *env;
    struct ssdsim__stats *stats;
    struct ssdsim__job *jobs;
    uint32_t n_jobs;
    struct ssdsim__io *ios;
    uint32_t n_ios;
    uint32_t free_ios;
    uint32_t wait_head, wait_tail; /* admitted to the host queue, not yet to the device */
    uint32_t at_device;            /* commands inside the device */
    uint32_t qd_limit;
    uint32_t unit;                 /* mapping unit, bytes */
    uint64_t run_start_ns, runtime_ns;
    uint64_t planned, completed, inflight;
    bool active;
    int error;
    uint64_t submitted_inflight; /* requests the program submitted, not yet complete */
    bool stop_when_drained;      /* ssdsim_drain: stop the engine at the last completion */
};

/* Prepare a run of `wl` (already checked against the device) starting at the engine's now,
 * and issue every job's first requests. */
int ssdsim__host_start(struct ssdsim__host *h, const struct ssdsim_workload *wl, uint64_t seed,
                       struct ssdsim__engine *e, struct ssdsim__hw *hw, struct ssdsim_ftl_env *env,
                       struct ssdsim__stats *stats);
void ssdsim__host_fini(struct ssdsim__host *h);

/* A request from the embedding program, arriving at `at_ns` (>= now). The host is set up for
 * submissions on first use (no job, a pool that grows). Returns 0 or SSDSIM_ENOMEM. */
int ssdsim__host_submit(struct ssdsim__host *h, struct ssdsim__engine *e, struct ssdsim__hw *hw,
                        struct ssdsim_ftl_env *env, struct ssdsim__stats *stats, uint8_t op,
                        uint64_t offset, uint32_t len, uint64_t at_ns, uint64_t id,
                        ssdsim_complete_fn cb, void *userdata);

/* The FTL made unit(s) of request `io` wait `ns` for a free block (foreground GC). */
void ssdsim__host_unit_waited(void *ctx, uint32_t io, uint64_t ns);

/* The FTL's unit-completion callback (ctx is the host). */
void ssdsim__host_unit_done(void *ctx, uint32_t io, uint32_t bytes);

/* Fraction of the run done, from completed requests or elapsed simulated time. */
double ssdsim__host_progress(const struct ssdsim__host *h);

#endif /* SSDSIM_HOST_H */
