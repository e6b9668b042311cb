/* precond_int.h: what preconditioning's two files share. precond.c puts a device into a known
 * state by writing (sequential fills, fast-forward, fast preconditioning by fast-forward on the
 * device) or by erasing it; precond_scaled.c installs the steady state of uniform random writes
 * found on a scaled copy of the model. Both run rounds of a drive write until the WAF is steady,
 * judged by one rule (precond.c), and need the device quiet, settled, drained or rebuilt in the
 * same ways. */
#ifndef SSDSIM_PRECOND_INT_H
#define SSDSIM_PRECOND_INT_H

#include "sim.h"

/* Rounds stop waiting for a steady WAF after this many drive writes (or 4 x the requested drive
 * writes, if more): the state they reached is then used as it is, marked not steady. */
#define SSDSIM__PRECOND_MAX_DW 40.0
/* What a workload that writes nothing should be preconditioned with instead. */
#define SSDSIM__PRECOND_NOTHING_WRITTEN                                                            \
    " (reads leave the drive as it was: write it full first with --precondition seq, or "          \
    "precondition with the writes that come before the reads)"

/* The rounds of a preconditioning run until steady: each round's WAF, judged by the steady rule
 * (precond.c) over the last few of them; done once steady after min_dw drive writes, or after
 * max_dw drive writes. */
struct ssdsim__waf_rounds {
    double *waf; /* cap rounds at most */
    size_t n, cap;
    uint64_t host, lp; /* host pages written in all rounds; logical pages of the device */
    double min_dw, max_dw;
    bool steady;
    double mean; /* average WAF of the last window */
};

double ssdsim__waf_rounds_drive_writes(const struct ssdsim__waf_rounds *r);
/* The part of `base` (a progress span, sim.h) that a round of `round_dw` drive writes, begun
 * now, stands for among the rounds. */
struct ssdsim__span ssdsim__waf_rounds_span(const struct ssdsim__waf_rounds *r,
                                            struct ssdsim__span base, double round_dw);
/* Count the round `s` just ran (its device statistics since they were last reset). True when
 * the rounds are done. */
bool ssdsim__waf_rounds_add(struct ssdsim__waf_rounds *r, const struct ssdsim *s);

/* Refuse a broken simulation, a run in progress and submitted requests still in flight. */
int ssdsim__precond_check_quiet(struct ssdsim *sim, const char *what);
/* Let the flash work still queued or running finish, without starting more. */
int ssdsim__precond_settle(struct ssdsim *sim);
/* Flush every write buffer and settle. */
int ssdsim__precond_drain(struct ssdsim *sim);
/* Rebuild the FTL as new (keeping wear), the timelines idle from now, the run count at zero. */
int ssdsim__precond_reset_device(struct ssdsim *sim);
/* Whether uniform random write job `j` ends its runs inside a pass of fio's random map. */
bool ssdsim__precond_partial_passes(const struct ssdsim__jobspec *j, uint64_t logical_bytes);

/* precond_scaled.c: whether the scaled copy represents `wl` and the FTL can install its state;
 * and fast preconditioning that way (ssdsim_precondition_fast past its checks and the
 * fast-forward branch: `bpp_s` 0 for the model's scaled size, `dw` drive writes at least). */
bool ssdsim__precond_scaled_represents(const struct ssdsim *sim, const ssdsim_workload *wl);
int ssdsim__precond_scaled(struct ssdsim *sim, const ssdsim_workload *wl, uint32_t bpp_s,
                           double dw);

#endif /* SSDSIM_PRECOND_INT_H */
