/* host.h: the host side of a run: the jobs of a workload (synthetic generators or request
 * sources such as traces), their pacing (queue depth, arrival times, rate limits, think time,
 * runtime, steady-state stop), stonewalled waves of jobs, per-job statistics, and completion
 * bookkeeping. Requests go to the system (array/array.h), which queues them at its devices.
 *
 * Requests live in a pool that grows to the peak number outstanding (numjobs x iodepth for a
 * closed-loop workload, known at the start); after that nothing is allocated per request.
 */
#ifndef SSDSIM_HOST_H
#define SSDSIM_HOST_H

#include "common.h"
#include "engine/engine.h"
#include "ipool.h"
#include "array/array.h"
#include "stats/stats.h"
#include "workload/gen.h"

struct ssdsim_trace;

struct ssdsim__io {
    uint64_t submit_ns; /* when the job issued it (latency starts here) */
    uint64_t done_ns;   /* latest completion of its units */
    uint64_t offset;
    uint32_t len;
    uint32_t volume;  /* the volume it addresses (a JBOD's device) */
    uint32_t job;     /* SSDSIM__NONE for a request the program submitted */
    uint32_t next;    /* free list / wait queue link */
    uint8_t op;   /* SSDSIM__IO_*, FLUSH included */
    bool fua;     /* a write with Force Unit Access */
    uint16_t queue; /* its NVMe queue pair */
    bool counted; /* recorded in the statistics (issued after the job's ramp) */
    uint8_t zop;     /* a zone command (dev/zns.h SSDSIM__ZOP_*), or 0 */
    uint16_t status; /* a zoned drive's refusal (SSDSIM_ZS_*), or 0 */
    uint8_t placement; /* its FDP placement handle */
    /* the latency breakdown (ssdsim_completion) */
    uint64_t admit_ns, ftl_ns, flash_done_ns, wait_ns;
    uint64_t id; /* the caller's id, or a source request's id */
    /* submitted requests: the caller's callback */
    ssdsim_complete_fn cb;
    void *userdata;
};

/* What a reported job (a clone, or a group with group_reporting) accumulated. */
struct ssdsim__unit {
    char *name; /* owned */
    uint32_t group, first_clone, n_clones, n_running;
    uint64_t start_ns, end_ns, ramp_ns;
    struct ssdsim__hist hist[3]; /* latency per op */
    uint64_t bytes[3];
    struct ssdsim__hist *flush; /* latency of its flushes; NULL until the first (fio's "sync") */
    /* steady state (fio's ss): one sample per simulated second */
    uint8_t ss;
    bool ss_attained, ss_percent;
    double ss_limit, ss_value;
    /* when the criterion was met: whether the device was preconditioned, and if not why
     * (ssdsim__sys_preconditioned) */
    bool ss_precond;
    char ss_why[200];
    uint32_t ss_window; /* samples in the window (ss_dur in seconds) */
    uint64_t ss_ramp_ns;
    double *ss_iops, *ss_bw; /* rings of ss_window samples */
    uint32_t ss_n, ss_head;
    uint64_t ss_last_count, ss_last_bytes, ss_count, ss_bytes_all;
    ssdsim__event_id ss_timer;
    /* a replayed source's: how it was replayed (ssdsim_job_info), the requests whose addresses
     * wrapped, and open loop, the last arrival issued, from the job's start (scaled) */
    bool replay;
    uint32_t replay_depth; /* 0: open loop */
    double time_scale;
    uint64_t wrapped, last_arrival_ns;
};

/* About how many host requests a job's prefetch hints lead the requests they are for (struct
 * ssdsim__job's `ahead`): each job runs ceil(this / jobs) of its own requests ahead, and as each
 * issues a request when one of its own completes, the jobs' requests interleave. Far enough for
 * the mapping entry and the second stage of the FTL's prefetch (ftl/page.c) to arrive, near
 * enough for them to stay in the caches. */
#define SSDSIM__HOST_LEAD 64

struct ssdsim__job {
    const struct ssdsim__jobspec *spec; /* NULL for a source run */
    uint32_t unit;                      /* reported as unit `unit` */
    uint32_t volume;                    /* addresses this volume (job index mod volumes) */
    uint32_t wave;                      /* stonewall wave */
    struct ssdsim__gen gen;
    /* its requests a few ahead (SSDSIM__HOST_LEAD), whose mapping entries the device is told
     * to load when gen draws a request (workload/gen.h; off for a replay) */
    struct ssdsim__gen_ahead ahead;
    /* replay: requests from a source (a trace for read_iolog, or the program's) */
    bool replay, timed;
    double time_scale;
    ssdsim_source src;
    struct ssdsim_trace *trace; /* owned (read_iolog) */
    const char *label;          /* the source's name in messages (a trace's path), or NULL */
    bool have_pending;
    ssdsim_request pending;
    uint64_t pending_at; /* earliest issue time of the pending request */
    uint32_t depth;      /* most outstanding; UINT32_MAX = open loop */
    uint32_t inflight;
    uint64_t start_ns, stop_ns, ramp_end_ns;
    uint64_t issued, max_requests;
    /* pacing */
    uint64_t rate_next_ns[3];
    double rate_interval_ns[3]; /* rate_iops: ns between I/Os of a direction; 0 = none */
    uint64_t rate_bytes[3];     /* rate: bytes per second of a direction; 0 = none */
    bool poisson;
    uint64_t think_ns;
    uint32_t think_blocks, since_think;
    /* flush and FUA (fio's fsync, fdatasync, write_barrier, sync): writes generated so far, a
     * flush to issue next, a barrier write held back behind its flush */
    uint64_t writes;
    bool flush_due, have_held, flush_after_held;
    uint16_t queue; /* NVMe queue pair of its requests */
    uint8_t placement; /* FDP placement handle of its writes (fixed, or the next of its list) */
    uint32_t pli_next; /* fio's fdp_pli_select=roundrobin: index of the next in the list */
    /* replay of a trace whose pending record carries its own placement id (ssdsim CSV's sixth
     * column, ssdsim_trace_get_placement): its handle for that record's writes */
    bool rec_has_placement;
    uint8_t rec_placement;
    ssdsim_request held;
    bool waiting; /* a wake-up event is scheduled */
    ssdsim__event_id wake_event;
    uint64_t start_at_ns;          /* when its wave began: when it starts (startdelay) */
    ssdsim__event_id start_event;  /* a delayed start is scheduled (startdelay) */
    bool started, exhausted, finished;
};

struct ssdsim__host {
    struct ssdsim__engine *engine;
    struct ssdsim__sys *sys;
    struct ssdsim__stats *stats;
    struct ssdsim__job *jobs;
    uint32_t n_jobs;
    struct ssdsim__unit *units;
    uint32_t n_units;
    uint32_t n_waves, wave, wave_left; /* current wave and its jobs not yet finished */
    struct ssdsim__io *ios; /* the requests, slots of the index pool io_pool */
    struct ssdsim__ipool io_pool;
    uint64_t logical_bytes; /* of one volume */
    bool wrap; /* replay: wrap addresses beyond the device */
    uint64_t run_start_ns;
    uint64_t planned, completed, inflight;
    uint64_t max_runtime_ns; /* for progress: the longest job runtime, 0 = none */
    bool active;
    bool stopping; /* ssdsim__host_stop_all: no job issues more, no later wave starts */
    int error;
    char errmsg[512];
    uint64_t ramp_reset_ns; /* a uniform ramp_time: statistics restart then (0 = none) */
    ssdsim__event_id ramp_event;
    uint64_t submitted_inflight; /* requests the program submitted, not yet complete */
    bool stop_when_drained;      /* ssdsim_drain: stop the engine at the last completion */
    ssdsim_observer obs;
    bool have_obs;
    uint64_t stop_after; /* stop issuing once this many requests completed (0: never; a run's
                            power_loss_after, rel/power.c) */
    /* Asked every SSDSIM__HOST_POLL_REQUESTS requests a wave's start issues at one moment
     * (NULL: never); non-zero cancels the run with SSDSIM_ECANCELLED. Kept across runs, as
     * obs is. The simulation's progress callback: the run loop asks it only between events,
     * and a start of millions of requests is one event. */
    int (*cancel)(void *ctx);
    void *cancel_ctx;
};

/* Requests issued between two calls of a host's cancel hook while a wave starts. */
#define SSDSIM__HOST_POLL_REQUESTS 65536u

/* Prepare a run of `wl` (already checked against the device) starting at the engine's now,
 * and start its first wave of jobs: the run's streams from `seed`, the hot sets of skewed
 * distributions from the simulation's `sim_seed` (ssdsim__gen_init). On failure (a read_iolog
 * that cannot be opened, no memory) returns the code with the reason in h->errmsg. */
int ssdsim__host_start(struct ssdsim__host *h, const struct ssdsim_workload *wl, uint64_t seed,
                       uint64_t sim_seed, struct ssdsim__engine *e, struct ssdsim__sys *sys,
                       struct ssdsim__stats *stats);

/* Prepare a replay of a source (one job, addressing volume 0). */
/* Several sources at once, source k as job k (its own reporting unit, queue ros[k]->queue);
 * ros may be NULL, or hold NULL entries (defaults). */
/* A replay's queue, volume and placement against the system: 0 (*placement, may be NULL, the
 * decoded placement), or SSDSIM_ECONFIG with a line naming the option in `why`. Checked before a
 * run starts, so that a bad option leaves the simulation as it was. */
int ssdsim__host_check_replay(const struct ssdsim__sys *sys, const ssdsim_replay_opts *ro,
                              char *why, size_t len, uint32_t *placement);
int ssdsim__host_start_sources(struct ssdsim__host *h, const ssdsim_source *srcs,
                               const ssdsim_replay_opts *const *ros, size_t n,
                               struct ssdsim__engine *e, struct ssdsim__sys *sys,
                               struct ssdsim__stats *stats);
int ssdsim__host_start_source(struct ssdsim__host *h, const ssdsim_source *src,
                              const ssdsim_replay_opts *ro, struct ssdsim__engine *e,
                              struct ssdsim__sys *sys, struct ssdsim__stats *stats);

/* Free the jobs and units of the last run (the host keeps its observer). */
void ssdsim__host_fini(struct ssdsim__host *h);

/* A request from the embedding program, arriving at `at_ns` (>= now), for volume 0, on NVMe
 * queue pair `queue` & 0xffff with FDP placement handle `queue` >> 16. `op` may carry
 * SSDSIM__IO_FUA and a zone command (dev/zns.h). The host is set up for submissions on first
 * use (no job, a pool that grows). Returns 0 or SSDSIM_ENOMEM. */
int ssdsim__host_submit(struct ssdsim__host *h, struct ssdsim__engine *e, struct ssdsim__sys *sys,
                        struct ssdsim__stats *stats, uint8_t op, uint64_t offset, uint32_t len,
                        uint64_t at_ns, uint64_t id, ssdsim_complete_fn cb, void *userdata, uint32_t queue);

/* The system finished request `io` (ctx is the host). */
void ssdsim__host_io_done(void *ctx, uint32_t io, const struct ssdsim__breakdown *b);

/* Fraction of the run done, from completed requests or elapsed simulated time. */
double ssdsim__host_progress(const struct ssdsim__host *h);

/* Stop the run early: every job stops issuing (jobs asleep on a wake-up stop now), later waves
 * do not start; the run ends when the requests outstanding complete. */
void ssdsim__host_stop_all(struct ssdsim__host *h);

/* End of a run: close the units' end times of jobs still running (a failed run). */
void ssdsim__host_finish(struct ssdsim__host *h);

#endif /* SSDSIM_HOST_H */
