/* sim.h: the simulation object (struct ssdsim) that ties the modules together. Private. */
#ifndef SSDSIM_SIM_H
#define SSDSIM_SIM_H

#include "common.h"
#include "config/model.h"
#include "engine/engine.h"
#include "ftl/env.h"
#include "host/host.h"
#include "hw/hw.h"
#include "stats/stats.h"

struct ssdsim {
    struct ssdsim_model *model;
    uint64_t seed;
    uint64_t n_runs;
    struct ssdsim__engine engine;
    struct ssdsim__hw hw;
    struct ssdsim_ftl_env env; /* the FTL and the library's side of it */
    struct ssdsim__stats stats;
    struct ssdsim__host host;
    ssdsim_progress_fn progress;
    void *progress_ud;
    uint64_t interval_ns;
    uint64_t next_tick_ns;
    ssdsim__event_id tick;
    ssdsim_interval_fn interval_fn; /* ssdsim_set_interval_callback */
    uint64_t cb_interval_ns;        /* its interval (a workload run uses its own meanwhile) */
    void *interval_ud;
    bool broken; /* a run failed half-way: the device state cannot be trusted */
    /* what the last run was: its label, and the options its workload accepted without effect
     * or skipped (lenient); owned copies, for the results */
    char *run_label;
    char **ignored, **skipped;
    uint32_t n_ignored, n_skipped;
    char errmsg[512];
};

/* Fill op stats from a histogram, a byte count and the duration they cover (results.c). */
void ssdsim__op_stats_fill(ssdsim_op_stats *out, const struct ssdsim__hist *h, uint64_t bytes,
                           uint64_t dur_ns);

void ssdsim__set_errmsg(struct ssdsim *sim, const char *fmt, ...) SSDSIM__PRINTF(2, 3);

#endif /* SSDSIM_SIM_H */
