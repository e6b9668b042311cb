/* env.h: the FTL environment: what the library gives an FTL plugin (ssdsim/sys/ftl.h) and what
 * it keeps for itself around it: the flash-op path to the hardware model, program and erase
 * counting, erase counts per block and their distribution, the FTL's counters.
 *
 * Counting programs here, when they are submitted, for every FTL alike, is what makes write
 * amplification comparable between mapping schemes: programs = host + GC + WL + mapping pages,
 * at every instant.
 */
#ifndef SSDSIM_FTL_ENV_H
#define SSDSIM_FTL_ENV_H

#include "common.h"
#include "config/model.h"
#include "engine/rng.h"
#include "hw/hw.h"
#include "plugin.h"
#include "rel/fault.h"

#define SSDSIM__N_PURPOSES 6

/* Counters of the built-in FTLs beyond the public ones (ssdsim_ftl_counter): the SLC cache of
 * the page FTL (ftl/page_slc.c). Kept in the same array, so that every per-run difference and
 * every sum over devices covers them. */
enum ssdsim__counter {
    SSDSIM__CNT_SLC_WRITES = SSDSIM_N_COUNTERS, /* host pages programmed in SLC mode */
    SSDSIM__CNT_SLC_FOLDS,   /* pages folded from SLC blocks to native ones (programs, FOR_GC) */
    SSDSIM__CNT_SLC_FULL,    /* times a host write found the cache full (a cliff episode) */
    SSDSIM__CNT_SLC_BYPASS,  /* host pages written natively because the cache was full */
    SSDSIM__CNT_SLC_FULL_NS, /* ns from each episode's first such write to its last */
    SSDSIM__CNT_SLC_FG_FOLDS, /* SLC blocks foreground GC folded (dynamic ones, under writes) */
    /* Flexible Data Placement (ftl/page_fdp.c), per placement handle: host units written, and
     * units programmed (host units plus GC and wear-leveling copies of the handle's data) */
    SSDSIM__CNT_FDP_HOST,
    SSDSIM__CNT_FDP_MEDIA = SSDSIM__CNT_FDP_HOST + SSDSIM__FDP_MAX_HANDLES,
    /* per reclaim group: host units written with a placement id naming it, units programmed
     * on its dies, blocks erased on its dies, and host units naming it that the drive wrote
     * to another group (Media Reallocated) */
    SSDSIM__CNT_FDP_RG_HOST = SSDSIM__CNT_FDP_MEDIA + SSDSIM__FDP_MAX_HANDLES,
    SSDSIM__CNT_FDP_RG_MEDIA = SSDSIM__CNT_FDP_RG_HOST + SSDSIM__FDP_MAX_GROUPS,
    SSDSIM__CNT_FDP_RG_ERASED = SSDSIM__CNT_FDP_RG_MEDIA + SSDSIM__FDP_MAX_GROUPS,
    SSDSIM__CNT_FDP_RG_REALLOC = SSDSIM__CNT_FDP_RG_ERASED + SSDSIM__FDP_MAX_GROUPS,
    /* FDP events: reclaim units ended before they were full (Reclaim Unit Not Fully Written),
     * and the host's Reclaim Unit Handle Updates */
    SSDSIM__CNT_FDP_EV_RUNFW = SSDSIM__CNT_FDP_RG_REALLOC + SSDSIM__FDP_MAX_GROUPS,
    SSDSIM__CNT_FDP_RUH_UPDATES,
    SSDSIM__N_COUNTERS
};

/* Called when the flash part of one unit of a host request is done. */
typedef void (*ssdsim__unit_done_fn)(void *ctx, uint32_t io, uint32_t bytes);

/* Fast-forward (fastfwd.c): while an environment's `ff` is set, the flash operations its FTL
 * submits do not reach the hardware model: each is queued here, in submission order, and ends
 * (the FTL's flash_done) when ssdsim__env_ff_drain runs, without simulated time passing. */
struct ssdsim__ff_op {
    uint64_t cookie;
    uint64_t addr;
    uint8_t kind;
};
struct ssdsim__ff_queue {
    struct ssdsim__ff_op *v;
    uint32_t cap, head, n; /* a ring: cap a power of two */
};

struct ssdsim__env_counters {
    uint64_t c[SSDSIM__N_COUNTERS];           /* reported by the FTL (and SSDSIM__CNT_*) */
    uint64_t programs[SSDSIM__N_PURPOSES];    /* pages programmed, by purpose */
    uint64_t reads[SSDSIM__N_PURPOSES];       /* pages read, by purpose */
    uint64_t erases;
};

struct ssdsim_ftl_env {
    const struct ssdsim_model *model;
    struct ssdsim__hw *hw;
    struct ssdsim__engine *engine;
    ssdsim_geometry geo;
    ssdsim_ftl_policies pol;
    const ssdsim_ftl_ops *ops;
    void *state;
    struct ssdsim__rng rng;
    struct ssdsim__env_counters n;
    uint64_t seed;           /* of the FTL's random stream (ssdsim__env_reset_ftl reseeds it) */
    uint64_t programs_total; /* the write clock */
    uint32_t *erase_count;   /* per block */
    uint64_t *ec_hist;       /* blocks per erase count, index 0 .. ec_max */
    uint32_t ec_cap;         /* entries in ec_hist */
    uint32_t ec_min, ec_max;
    int64_t ec_installed;    /* erase counts installed minus those they replaced (fast
                                preconditioning): the counts add up to erases + this */
    ssdsim__unit_done_fn unit_done;
    void (*unit_waited)(void *ctx, uint32_t io, uint64_t ns); /* same ctx; may be NULL */
    void *unit_done_ctx;
    int fail_code;
    char fail_msg[256];
    /* idleness, for background work: host commands inside the device, the pending "idle for
     * long enough" event, and whether the FTL was told it is idle */
    uint32_t busy;
    uint64_t idle_timer;
    bool idle_told;
    /* firmware time per unit of each counter (dev/fw.c; 0: none), booked through fw_run with
     * unit_done_ctx when the FTL counts the work */
    uint64_t fw_ns[SSDSIM__N_COUNTERS];
    uint64_t (*fw_run)(void *ctx, uint64_t ns); /* returns when the work ends (0: untimed) */
    /* A second idle threshold a built-in FTL may ask for at create (the SLC cache's folding,
     * ftl/page_slc.c): fold_idle(state, 1) when no command has been inside for fold_idle_ns,
     * fold_idle(state, 0) when the next one enters. 0 / NULL: none. */
    uint64_t fold_idle_ns;
    void (*fold_idle)(void *state, int idle);
    uint64_t fold_timer;
    bool fold_told;
    struct ssdsim__ff_queue *ff; /* NULL: flash operations go to the hardware model */
    struct ssdsim__ff_queue *ff_direct; /* `ff` when no reliability model notes programs (the
                                           built-in FTLs' inline path, ssdsim__env_submit_ftl) */
    uint8_t placement; /* the FDP placement of the host writes being handed to the FTL: group
                          x handles + handle (config/fdp_pid.h; dev.c sets it before each write
                          command's units; 0 without FDP) */
    struct ssdsim__fault *fault; /* bad blocks (rel/fault.h); NULL when the model has none */
    /* the prefetch hints of the run's host lead their requests by many (its generated jobs draw
     * ahead, host/host.h's SSDSIM__HOST_LEAD), not by one (a hint as a request is issued) */
    bool hints_lead;
    /* the hint being given (ssdsim__dev_prefetch sets it around its call) is of a read: the page
     * FTL loads its l2p entry but gives it no second stage, which is for an overwrite */
    bool pf_read;
};

/* ssdsim_ftl_count for the library's own counters too (SSDSIM__CNT_*). */
static inline void ssdsim__env_count(ssdsim_ftl_env *env, int counter, uint64_t n)
{
    env->n.c[counter] += n;
    if (env->fw_ns[counter])
        env->fw_run(env->unit_done_ctx, n * env->fw_ns[counter]);
}

/* The same for one counter whose firmware work the caller waits for: returns the time the
 * firmware ends it, or 0 when the counter costs no firmware time (or nothing is timed). */
static inline uint64_t ssdsim__env_count_end(ssdsim_ftl_env *env, int counter, uint64_t n)
{
    env->n.c[counter] += n;
    return env->fw_ns[counter] ? env->fw_run(env->unit_done_ctx, n * env->fw_ns[counter]) : 0;
}

/* Fast-forward: end the queued flash operations in order (the operations their completions
 * submit join the queue and end too) until none is left, as the hardware model's completions
 * would (erase counts, the FTL's flash_done), at no simulated time. Returns 0, or the FTL's
 * failure code (ssdsim_ftl_fail) or SSDSIM_ENOMEM. */
int ssdsim__env_ff_drain(struct ssdsim_ftl_env *env);

/* ssdsim_ftl_submit, with `in_order` true: a host read joins its die's queue in arrival order
 * (behind the programs, GC work and erases queued before it) instead of going first; the page
 * FTL does this while the die collects a foreground GC victim (gc.fg_blocks_die). */
int ssdsim__env_submit(ssdsim_ftl_env *env, ssdsim_flash_kind kind, uint64_t addr, uint32_t bytes,
                       ssdsim_flash_purpose purpose, uint64_t cookie, bool in_order);

/* Fast-forward: count a flash operation as the hardware path does and queue it (the queue
 * having room). */
static inline void ssdsim__env_ff_push(ssdsim_ftl_env *env, ssdsim_flash_kind kind, uint64_t addr,
                                       ssdsim_flash_purpose purpose, uint64_t cookie)
{
    struct ssdsim__ff_queue *q = env->ff;
    q->v[(q->head + q->n++) & (q->cap - 1)] =
        (struct ssdsim__ff_op){.cookie = cookie, .addr = addr, .kind = (uint8_t)kind};
    if (kind == SSDSIM_FLASH_PROGRAM) {
        env->n.programs[purpose]++;
        env->programs_total++;
    } else if (kind == SSDSIM_FLASH_READ) {
        env->n.reads[purpose]++;
    }
}

/* ssdsim__env_submit of an operation that goes to the hardware model (no fast-forward; a
 * reliability model has noted a program first), whose arguments are right: without the
 * checks. */
int ssdsim__env_submit_hw(ssdsim_ftl_env *env, ssdsim_flash_kind kind, uint64_t addr,
                          uint32_t bytes, ssdsim_flash_purpose purpose, uint64_t cookie,
                          bool in_order);

/* ssdsim_ftl_submit for the built-in FTLs' hot paths (GC reads, programs, erases), whose
 * arguments are right by construction: during fast-forward the operation joins the queue here,
 * without a call and without the checks a plugin's submission gets; in a timed run without a
 * reliability model it goes to the hardware model without them too (ssdsim__env_submit_hw);
 * otherwise, or when the queue is full, ssdsim__env_submit. The same counts either way. */
static inline int ssdsim__env_submit_ftl(ssdsim_ftl_env *env, ssdsim_flash_kind kind,
                                         uint64_t addr, uint32_t bytes,
                                         ssdsim_flash_purpose purpose, uint64_t cookie)
{
    struct ssdsim__ff_queue *q = env->ff_direct;
    assert((unsigned)purpose < SSDSIM__N_PURPOSES && (unsigned)kind <= SSDSIM_FLASH_ERASE &&
           addr < (kind == SSDSIM_FLASH_ERASE ? env->geo.n_blocks : env->geo.n_pages) &&
           bytes <= env->geo.page_size);
    if (!q) {
        if (!env->ff && !env->hw->rel)
            return ssdsim__env_submit_hw(env, kind, addr, bytes, purpose, cookie, false);
        return ssdsim__env_submit(env, kind, addr, bytes, purpose, cookie, false);
    }
    if (SSDSIM__UNLIKELY(q->n == q->cap))
        return ssdsim__env_submit(env, kind, addr, bytes, purpose, cookie, false);
    ssdsim__env_ff_push(env, kind, addr, purpose, cookie);
    return 0;
}

/* Fast-forward without a reliability model (`ff_direct` set): a program whose completion the
 * FTL has nothing to do at (the page FTL's GC copies, and its host pages, whose unit the caller
 * tells done itself) is counted as ssdsim__env_ff_push counts it and not queued, which leaves the
 * order of the completions that change the FTL's state as it was. False (nothing counted) on any
 * other path: the caller submits the program. */
static inline bool ssdsim__env_ff_program(ssdsim_ftl_env *env, ssdsim_flash_purpose purpose)
{
    if (!env->ff_direct)
        return false;
    env->n.programs[purpose]++;
    env->programs_total++;
    return true;
}

/* Fast-forward without a reliability model: `n` reads of `purpose`, counted each as
 * ssdsim__env_ff_push counts one, queued as a single operation (kind SSDSIM_FLASH_READ) whose
 * completion is that of all of them, for reads submitted back to back whose completions would
 * have followed one another in the queue (the copy reads of a GC victim). 0, or SSDSIM_ENOMEM
 * with the FTL failed. */
int ssdsim__env_ff_reads(ssdsim_ftl_env *env, uint32_t n, uint64_t addr,
                         ssdsim_flash_purpose purpose, uint64_t cookie);

/* Build the FTL named by the model on `hw`. On failure fills err and returns a negative code;
 * ssdsim__env_fini must still be called. */
int ssdsim__env_init(struct ssdsim_ftl_env *env, const struct ssdsim_model *m,
                     struct ssdsim__hw *hw, uint64_t seed, ssdsim__unit_done_fn unit_done,
                     void *ctx, ssdsim_error *err);
void ssdsim__env_fini(struct ssdsim_ftl_env *env);

/* Secure erase: destroy the FTL's state and create it again from the model, as ssdsim_new did
 * (the FTL's random stream reseeded the same way), so every block is free and nothing mapped.
 * Erase counts and their histogram, the cumulative counters and the write clock are kept: wear
 * is never undone, and the counters and the clock only move forward. No flash operation may be
 * in flight and no host command inside. On failure (only ENOMEM, the model built the same FTL
 * before) the reason is in errbuf; the FTL's destroy is still called once by
 * ssdsim__env_fini. */
int ssdsim__env_reset_ftl(struct ssdsim_ftl_env *env, char *errbuf, size_t errlen);

/* Fast preconditioning: install `img` through the FTL's install method (which the caller has
 * checked exists), on an FTL just reset by ssdsim__env_reset_ftl. The write clock first moves
 * forward to at least the pages the image implies were programmed (every erase of the image's
 * erase counts was preceded by a block of programs, and every written block is one more block
 * of them), so that the FTL can date the image's blocks in the past. Then, when the FTL accepts
 * the image, the erase counts and their histogram become img->erase_count (when not NULL).
 * Returns 0, SSDSIM_ENOMEM, or the FTL's code with its reason in errbuf (the clock is then put
 * back and the FTL state is unchanged). */
int ssdsim__env_install(struct ssdsim_ftl_env *env, const ssdsim_ftl_image *img, char *errbuf,
                        size_t errlen);

/* Wear every block by `cycles` more P/E cycles at once (ssdsim_wear): the erase counts and
 * their histogram move up, counted as installed (not as erases done). The data and the
 * mapping are untouched. 0, SSDSIM_ENOMEM or SSDSIM_EINVAL (counts near 2^31). */
int ssdsim__env_add_wear(struct ssdsim_ftl_env *env, uint32_t cycles);

/* hw's completion callback (ctx is the env). */
void ssdsim__env_flash_done(void *ctx, uint32_t op);


uint64_t ssdsim__env_free_blocks(const struct ssdsim_ftl_env *env);

/* Consistency check (ssdsim_check): the erase counts add up to the erases done (and those
 * installed), their histogram and extremes agree with them, every page programmed is counted
 * once by purpose (host pages + GC copies + WL copies + mapping pages; `absorbed` host pages
 * were overwritten in a write buffer and never programmed), then the FTL's own check method
 * when it has one. 0, or SSDSIM_ESTATE with the first broken invariant in why. */
int ssdsim__env_check(struct ssdsim_ftl_env *env, uint64_t absorbed, char *why, size_t len);

/* A host command enters / leaves the device. When none is left inside for gc.bg_idle_us, the
 * FTL is told the device is idle; the next command tells it it is busy again. */
void ssdsim__env_cmd_enter(struct ssdsim_ftl_env *env);
void ssdsim__env_cmd_leave(struct ssdsim_ftl_env *env);

#endif /* SSDSIM_FTL_ENV_H */
