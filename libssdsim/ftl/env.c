/* env.c: the library side of the FTL plugin interface (see env.h and ssdsim/sys/ftl.h). */
#include "ftl/env.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int ssdsim__env_init(struct ssdsim_ftl_env *env, const struct ssdsim_model *m,
                     struct ssdsim__hw *hw, uint64_t seed, ssdsim__unit_done_fn unit_done,
                     void *ctx, ssdsim_error *err)
{
    memset(env, 0, sizeof *env);
    env->model = m;
    env->hw = hw;
    env->engine = hw->engine;
    env->unit_done = unit_done;
    env->unit_done_ctx = ctx;
    const struct ssdsim__geometry *g = &m->geometry;
    env->geo = (ssdsim_geometry){
        .channels = g->channels,
        .chips_per_channel = g->chips_per_channel,
        .dies_per_chip = g->dies_per_chip,
        .planes_per_die = g->planes_per_die,
        .blocks_per_plane = g->blocks_per_plane,
        /* the FTL's pages are mapping units (slots, hw/unit.c) */
        .pages_per_block = hw->pages_per_block,
        .page_size = m->ftl.mapping_unit ? m->ftl.mapping_unit : g->page_size,
        .n_dies = hw->n_dies,
        .n_planes = hw->n_planes,
        .n_blocks = hw->n_blocks,
        .n_pages = hw->n_pages,
        .logical_pages = ssdsim__model_logical_pages(m),
        .op = m->ftl.op,
    };
    env->pol = (ssdsim_ftl_policies){
        .gc_policy = m->gc.policy,
        .gc_params = m->gc.params,
        .wl_policy = m->wl.policy,
        .wl_params = m->wl.params,
        .free_blocks_min = m->gc.free_blocks_min,
        .free_blocks_target = m->gc.free_blocks_target,
        .bg_idle_ns = m->gc.bg_idle_ns,
        .gc_separate = m->gc.separate,
        .hot_cold = m->ftl.hot_cold,
        .hot_window = m->ftl.hot_window,
    };
    env->seed = seed;
    ssdsim__rng_seed(&env->rng, seed, m->ftl.type, 0);
    env->erase_count = calloc(hw->n_blocks, sizeof *env->erase_count);
    env->ec_cap = 64;
    env->ec_hist = calloc(env->ec_cap, sizeof *env->ec_hist);
    if (!env->erase_count || !env->ec_hist)
        return ssdsim__error_set(err, SSDSIM_ENOMEM, m->label, NULL, "out of memory");
    env->ec_hist[0] = hw->n_blocks;
    /* resident now, not as blocks are first erased: memory stays flat during a run (memest.h) */
    memset(env->erase_count, 0, sizeof *env->erase_count * hw->n_blocks);
    if (ssdsim__fault_on(m) &&
        !(env->fault = ssdsim__fault_new(m, hw->n_blocks, hw->n_planes, seed)))
        return ssdsim__error_set(err, SSDSIM_ENOMEM, m->label, NULL, "out of memory");

    const struct ssdsim__plugin_header *p = ssdsim__plugin_find(SSDSIM_PLUGIN_FTL, m->ftl.type);
    if (!p)
        return ssdsim__error_set(err, SSDSIM_ECONFIG, m->label, "ftl.type",
                                 "no FTL named '%s' is registered", m->ftl.type);
    env->ops = (const ssdsim_ftl_ops *)p;
    env->state = calloc(1, env->ops->state_size ? env->ops->state_size : 1);
    if (!env->state)
        return ssdsim__error_set(err, SSDSIM_ENOMEM, m->label, NULL, "out of memory");
    char why[256] = "";
    int rc = env->ops->create(env->state, env, m->ftl.params, why, sizeof why);
    if (rc)
        return ssdsim__error_set(err, rc < 0 ? rc : SSDSIM_ECONFIG, m->label, "ftl.type",
                                 "FTL '%s' could not be set up: %s", m->ftl.type,
                                 why[0] ? why : ssdsim_strerror(rc));
    return 0;
}

void ssdsim__env_fini(struct ssdsim_ftl_env *env)
{
    if (env->ops && env->ops->destroy && env->state)
        env->ops->destroy(env->state);
    free(env->state);
    free(env->erase_count);
    free(env->ec_hist);
    ssdsim__fault_free(env->fault);
    memset(env, 0, sizeof *env);
}

int ssdsim__env_reset_ftl(struct ssdsim_ftl_env *env, char *errbuf, size_t errlen)
{
    assert(env->busy == 0);
    if (env->ops->destroy)
        env->ops->destroy(env->state);
    free(env->state);
    ssdsim__engine_cancel(env->engine, env->idle_timer);
    env->idle_timer = 0;
    env->idle_told = false;
    ssdsim__engine_cancel(env->engine, env->fold_timer);
    env->fold_timer = 0;
    env->fold_told = false;
    env->fold_idle_ns = 0; /* the FTL's create asks again */
    env->fold_idle = NULL;
    /* The same stream as ssdsim_new gave the FTL, so the FTL and its policies draw what a new
     * device's would. */
    ssdsim__rng_seed(&env->rng, env->seed, env->model->ftl.type, 0);
    env->state = calloc(1, env->ops->state_size ? env->ops->state_size : 1);
    if (!env->state) {
        snprintf(errbuf, errlen, "out of memory");
        return SSDSIM_ENOMEM;
    }
    int rc = env->ops->create(env->state, env, env->model->ftl.params, errbuf, errlen);
    return rc == 0 ? 0 : rc < 0 ? rc : SSDSIM_ECONFIG;
}

/* The histogram of `counts` (blocks per erase count), with room above the maximum as
 * note_erase expects (ec_max < ec_cap). NULL when out of memory. */
static uint64_t *hist_of(const struct ssdsim_ftl_env *env, const uint32_t *counts, uint32_t *cap,
                         uint32_t *min, uint32_t *max)
{
    uint32_t hi = 0, lo = UINT32_MAX;
    for (uint64_t b = 0; b < env->geo.n_blocks; b++) {
        hi = SSDSIM__MAX(hi, counts[b]);
        lo = SSDSIM__MIN(lo, counts[b]);
    }
    if (hi >= UINT32_MAX / 2)
        return NULL;
    uint32_t c = 64;
    while (c <= hi)
        c *= 2;
    uint64_t *h = calloc(c, sizeof *h);
    if (!h)
        return NULL;
    for (uint64_t b = 0; b < env->geo.n_blocks; b++)
        h[counts[b]]++;
    *cap = c;
    *min = lo;
    *max = hi;
    return h;
}

/* Make `counts` the erase counts, with their histogram `h` from hist_of. */
static void commit_counts(struct ssdsim_ftl_env *env, const uint32_t *counts, uint64_t *h,
                          uint32_t cap, uint32_t min, uint32_t max)
{
    for (uint64_t b = 0; b < env->geo.n_blocks; b++)
        env->ec_installed += (int64_t)counts[b] - (int64_t)env->erase_count[b];
    memcpy(env->erase_count, counts, sizeof *counts * env->geo.n_blocks);
    free(env->ec_hist);
    env->ec_hist = h;
    env->ec_cap = cap;
    env->ec_min = min;
    env->ec_max = max;
}

int ssdsim__env_install(struct ssdsim_ftl_env *env, const ssdsim_ftl_image *img, char *errbuf,
                        size_t errlen)
{
    const ssdsim_geometry *g = &env->geo;
    uint32_t cap = 0, min = 0, max = 0;
    uint64_t *h = NULL;
    if (img->erase_count && !(h = hist_of(env, img->erase_count, &cap, &min, &max))) {
        snprintf(errbuf, errlen, "out of memory (or erase counts near 2^32)");
        return SSDSIM_ENOMEM;
    }
    uint64_t implied = 0;
    for (uint64_t b = 0; b < g->n_blocks; b++) {
        if (img->erase_count)
            implied += (uint64_t)img->erase_count[b] * g->pages_per_block;
        if (img->valid[b] != SSDSIM_IMAGE_FREE)
            implied += g->pages_per_block;
    }
    uint64_t clock = env->programs_total;
    env->programs_total = SSDSIM__MAX(clock, implied);
    int rc = env->ops->install(env->state, img, errbuf, errlen);
    if (rc) {
        env->programs_total = clock;
        free(h);
        return rc < 0 ? rc : SSDSIM_EINVAL;
    }
    if (h)
        commit_counts(env, img->erase_count, h, cap, min, max);
    for (uint64_t b = 0; env->hw->rel && b < g->n_blocks; b++)
        if (img->valid[b] != SSDSIM_IMAGE_FREE) /* installed data: written now */
            ssdsim__rel_programmed(env->hw->rel, (uint32_t)b, ssdsim__engine_now(env->engine));
    return 0;
}

int ssdsim__env_add_wear(struct ssdsim_ftl_env *env, uint32_t cycles)
{
    uint64_t n = env->geo.n_blocks;
    if ((uint64_t)env->ec_max + cycles >= UINT32_MAX / 2)
        return SSDSIM_EINVAL;
    uint32_t cap = 64;
    while (cap <= env->ec_max + cycles)
        cap *= 2;
    uint64_t *h = calloc(cap, sizeof *h);
    if (!h)
        return SSDSIM_ENOMEM;
    for (uint32_t e = env->ec_min; e <= env->ec_max; e++)
        h[e + cycles] = env->ec_hist[e];
    for (uint64_t b = 0; b < n; b++)
        env->erase_count[b] += cycles;
    free(env->ec_hist);
    env->ec_hist = h;
    env->ec_cap = cap;
    env->ec_min += cycles;
    env->ec_max += cycles;
    env->ec_installed += (int64_t)cycles * (int64_t)n;
    return 0;
}

static void note_erase(struct ssdsim_ftl_env *env, uint32_t block)
{
    uint32_t e = env->erase_count[block]++;
    env->n.erases++;
    if (env->hw->rel)
        ssdsim__rel_erased(env->hw->rel, block);
    if (e + 1 >= env->ec_cap) {
        uint32_t ncap = env->ec_cap * 2;
        uint64_t *p = realloc(env->ec_hist, sizeof *p * ncap);
        if (!p) {
            ssdsim_ftl_fail(env, SSDSIM_ENOMEM, "out of memory counting erases");
            return;
        }
        memset(p + env->ec_cap, 0, sizeof *p * (ncap - env->ec_cap));
        env->ec_hist = p;
        env->ec_cap = ncap;
    }
    env->ec_hist[e]--;
    env->ec_hist[e + 1]++;
    if (e + 1 > env->ec_max)
        env->ec_max = e + 1;
    while (env->ec_hist[env->ec_min] == 0)
        env->ec_min++;
}

/* ssdsim__env_flash_done of an erase: counted first. */
static SSDSIM__NOINLINE void erase_done(struct ssdsim_ftl_env *env, uint32_t op_i)
{
    struct ssdsim__flash_op *op = ssdsim__hw_op(env->hw, op_i);
    uint64_t cookie = op->cookie;
    note_erase(env, op->addr);
    ssdsim__hw_op_free(env->hw, op_i);
    env->ops->flash_done(env->state, cookie);
}

/* The erase's count out of line, so that the other ops' path ends in a tail call with no
 * register to save (it saved two and kept a frame for the erases' call). */
void ssdsim__env_flash_done(void *ctx, uint32_t op_i)
{
    struct ssdsim_ftl_env *env = ctx;
    struct ssdsim__flash_op *op = ssdsim__hw_op(env->hw, op_i);
    uint64_t cookie = op->cookie;
    if (SSDSIM__UNLIKELY(op->kind == SSDSIM__FLASH_ERASE)) {
        erase_done(env, op_i);
        return;
    }
    ssdsim__hw_op_free(env->hw, op_i);
    env->ops->flash_done(env->state, cookie);
}

uint64_t ssdsim__env_free_blocks(const struct ssdsim_ftl_env *env)
{
    return env->ops && env->ops->free_blocks ? env->ops->free_blocks(env->state) : 0;
}

static void idle_event(void *ctx, uint32_t arg)
{
    struct ssdsim_ftl_env *env = ctx;
    env->idle_timer = 0;
    if (env->busy == 0 && env->ops->idle) {
        env->idle_told = true;
        env->ops->idle(env->state, 1);
    }
}

static void fold_event(void *ctx, uint32_t arg)
{
    struct ssdsim_ftl_env *env = ctx;
    env->fold_timer = 0;
    if (env->busy == 0) {
        env->fold_told = true;
        env->fold_idle(env->state, 1);
    }
}

void ssdsim__env_cmd_enter(struct ssdsim_ftl_env *env)
{
    if (env->busy++ > 0)
        return;
    if (env->hw->rel)
        ssdsim__rel_idle(env->hw->rel, false);
    if (env->fold_idle) {
        ssdsim__engine_cancel(env->engine, env->fold_timer);
        env->fold_timer = 0;
        if (env->fold_told) {
            env->fold_told = false;
            env->fold_idle(env->state, 0);
        }
    }
    ssdsim__engine_cancel(env->engine, env->idle_timer);
    env->idle_timer = 0;
    if (env->idle_told) {
        env->idle_told = false;
        env->ops->idle(env->state, 0);
    }
}

void ssdsim__env_cmd_leave(struct ssdsim_ftl_env *env)
{
    if (--env->busy > 0)
        return;
    if (env->hw->rel)
        ssdsim__rel_idle(env->hw->rel, true);
    if (env->fold_idle && env->fold_idle_ns)
        env->fold_timer = ssdsim__engine_schedule_cancellable(
            env->engine, ssdsim__engine_now(env->engine) + env->fold_idle_ns, fold_event, env, 0);
    if (!env->pol.bg_idle_ns || !env->ops->idle)
        return;
    env->idle_timer = ssdsim__engine_schedule_cancellable(
        env->engine, ssdsim__engine_now(env->engine) + env->pol.bg_idle_ns, idle_event, env, 0);
}

/* ------------------------------------------------------------------ public services */

/* The services take no env on trust: a plugin's NULL gets a neutral answer, not a crash. */

const ssdsim_geometry *ssdsim_ftl_geometry(const ssdsim_ftl_env *env)
{
    return env ? &env->geo : NULL;
}

int ssdsim_ftl_submit(ssdsim_ftl_env *env, ssdsim_flash_kind kind, uint64_t addr, uint32_t bytes,
                      ssdsim_flash_purpose purpose, uint64_t cookie)
{
    if (!env)
        return SSDSIM_EINVAL;
    return ssdsim__env_submit(env, kind, addr, bytes, purpose, cookie, false);
}

/* Double the fast-forward queue (its ring keeps its order). 0, or ENOMEM with the FTL failed. */
static int ff_grow(ssdsim_ftl_env *env)
{
    struct ssdsim__ff_queue *q = env->ff;
    uint32_t ncap = q->cap ? q->cap * 2 : 1024;
    struct ssdsim__ff_op *v = malloc(sizeof *v * ncap);
    if (!v || ncap < q->cap) {
        free(v);
        ssdsim_ftl_fail(env, SSDSIM_ENOMEM, "out of memory for flash operations");
        return SSDSIM_ENOMEM;
    }
    for (uint32_t k = 0; k < q->n; k++)
        v[k] = q->v[(q->head + k) & (q->cap - 1)];
    free(q->v);
    q->v = v;
    q->cap = ncap;
    q->head = 0;
    return 0;
}

/* The same when the queue is full: grown first. Out of line (and so is every call on the slow
 * paths of ssdsim__env_submit), so that the fast-forward path makes no call and saves no
 * registers. */
static SSDSIM__NOINLINE int ff_push_grown(ssdsim_ftl_env *env, ssdsim_flash_kind kind,
                                          uint64_t addr, ssdsim_flash_purpose purpose,
                                          uint64_t cookie)
{
    int rc = ff_grow(env);
    if (rc == 0)
        ssdsim__env_ff_push(env, kind, addr, purpose, cookie);
    return rc;
}

static inline int ff_submit(ssdsim_ftl_env *env, ssdsim_flash_kind kind, uint64_t addr,
                            ssdsim_flash_purpose purpose, uint64_t cookie)
{
    struct ssdsim__ff_queue *q = env->ff;
    if (SSDSIM__UNLIKELY(q->n == q->cap))
        return ff_push_grown(env, kind, addr, purpose, cookie);
    ssdsim__env_ff_push(env, kind, addr, purpose, cookie);
    return 0;
}

int ssdsim__env_ff_reads(ssdsim_ftl_env *env, uint32_t n, uint64_t addr,
                         ssdsim_flash_purpose purpose, uint64_t cookie)
{
    assert(env->ff_direct && n > 0);
    int rc = ff_submit(env, SSDSIM_FLASH_READ, addr, purpose, cookie);
    if (rc == 0)
        env->n.reads[purpose] += n - 1; /* (ff_submit counted one) */
    return rc;
}

int ssdsim__env_ff_drain(struct ssdsim_ftl_env *env)
{
    struct ssdsim__ff_queue *q = env->ff;
    while (q->n && !env->fail_code) {
        struct ssdsim__ff_op op = q->v[q->head];
        q->head = (q->head + 1) & (q->cap - 1);
        q->n--;
        if (op.kind == SSDSIM_FLASH_ERASE)
            note_erase(env, (uint32_t)op.addr);
        env->ops->flash_done(env->state, op.cookie);
    }
    return env->fail_code;
}

/* Fill in op i of the pool for ssdsim__env_submit_hw (every field: a slot taken as it is) and
 * count it. */
static inline void hw_op_set(ssdsim_ftl_env *env, uint32_t i, ssdsim_flash_kind kind,
                             uint64_t addr, uint32_t bytes, ssdsim_flash_purpose purpose,
                             uint64_t cookie, bool in_order)
{
    struct ssdsim__flash_op *op = ssdsim__hw_op(env->hw, i);
    op->next = SSDSIM__NONE;
    op->kind = (uint8_t)kind;
    op->cls = (purpose == SSDSIM_FOR_HOST || purpose == SSDSIM_FOR_HOST_RMW) && !in_order
                  ? (kind == SSDSIM_FLASH_READ ? SSDSIM__CLASS_READ : SSDSIM__CLASS_WRITE)
                  : SSDSIM__CLASS_WRITE;
    op->purpose = (uint8_t)purpose;
    op->phase = 0;
    op->addr = (uint32_t)addr;
    op->bytes = bytes;
    op->cookie = cookie;
    if (kind == SSDSIM_FLASH_PROGRAM) {
        env->n.programs[purpose]++;
        env->programs_total++;
    } else if (kind == SSDSIM_FLASH_READ) {
        env->n.reads[purpose]++;
    }
}

/* ssdsim__env_submit_hw when the pool has no free slot to take as it is: it grows (or keeps
 * an array beside it) through ssdsim__hw_op_alloc. */
static SSDSIM__NOINLINE int submit_hw_alloc(ssdsim_ftl_env *env, ssdsim_flash_kind kind,
                                            uint64_t addr, uint32_t bytes,
                                            ssdsim_flash_purpose purpose, uint64_t cookie,
                                            bool in_order)
{
    uint32_t i = ssdsim__hw_op_alloc(env->hw);
    if (i == SSDSIM__NONE) {
        ssdsim_ftl_fail(env, SSDSIM_ENOMEM, "out of memory for flash operations");
        return SSDSIM_ENOMEM;
    }
    hw_op_set(env, i, kind, addr, bytes, purpose, cookie, in_order);
    return ssdsim__hw_submit(env->hw, i);
}

/* To the hardware model (out of line: see ff_push_grown). The op's every field is set here, so
 * a free slot of the pool is taken as it is (ssdsim__hw_op_take), without the zeroing of
 * ssdsim__hw_op_alloc, which takes the pool's slow paths (growth, the array beside it). Its
 * calls are tail calls, so nothing lives across a call and no register is saved: that was a
 * fifth of the function's instructions. Without hw/unit.c's packing (hw->plain) the op is
 * queued here, inline, without ssdsim__hw_submit's call. */
SSDSIM__NOINLINE int ssdsim__env_submit_hw(ssdsim_ftl_env *env, ssdsim_flash_kind kind,
                                           uint64_t addr, uint32_t bytes,
                                           ssdsim_flash_purpose purpose, uint64_t cookie,
                                           bool in_order)
{
    uint32_t i = ssdsim__hw_op_take(env->hw);
    if (SSDSIM__UNLIKELY(i == SSDSIM__NONE))
        return submit_hw_alloc(env, kind, addr, bytes, purpose, cookie, in_order);
    hw_op_set(env, i, kind, addr, bytes, purpose, cookie, in_order);
    struct ssdsim__hw *hw = env->hw;
    if (SSDSIM__UNLIKELY(!hw->plain))
        return ssdsim__hw_submit(hw, i);
    return ssdsim__hw_queue_op(hw, i);
}

/* With a reliability model: its note of a program (the block's retention clock) first. */
static SSDSIM__NOINLINE int submit_rel(ssdsim_ftl_env *env, ssdsim_flash_kind kind,
                                       uint64_t addr, uint32_t bytes,
                                       ssdsim_flash_purpose purpose, uint64_t cookie,
                                       bool in_order)
{
    if (kind == SSDSIM_FLASH_PROGRAM)
        ssdsim__rel_programmed(env->hw->rel, (uint32_t)(addr / env->geo.pages_per_block),
                               ssdsim__engine_now(env->engine));
    if (env->ff)
        return ff_submit(env, kind, addr, purpose, cookie);
    return ssdsim__env_submit_hw(env, kind, addr, bytes, purpose, cookie, in_order);
}

int ssdsim__env_submit(ssdsim_ftl_env *env, ssdsim_flash_kind kind, uint64_t addr, uint32_t bytes,
                       ssdsim_flash_purpose purpose, uint64_t cookie, bool in_order)
{
    if ((unsigned)purpose >= SSDSIM__N_PURPOSES || (unsigned)kind > SSDSIM_FLASH_ERASE ||
        addr >= (kind == SSDSIM_FLASH_ERASE ? env->geo.n_blocks : env->geo.n_pages) ||
        bytes > env->geo.page_size)
        return SSDSIM_EINVAL;
    if (SSDSIM__UNLIKELY(env->hw->rel != NULL))
        return submit_rel(env, kind, addr, bytes, purpose, cookie, in_order);
    if (env->ff)
        return ff_submit(env, kind, addr, purpose, cookie);
    return ssdsim__env_submit_hw(env, kind, addr, bytes, purpose, cookie, in_order);
}

void ssdsim_ftl_unit_done(ssdsim_ftl_env *env, uint32_t io, uint32_t bytes)
{
    if (env)
        env->unit_done(env->unit_done_ctx, io, bytes);
}

void ssdsim_ftl_unit_waited(ssdsim_ftl_env *env, uint32_t io, uint64_t ns)
{
    if (env && env->unit_waited)
        env->unit_waited(env->unit_done_ctx, io, ns);
}

void ssdsim_ftl_count(ssdsim_ftl_env *env, ssdsim_ftl_counter counter, uint64_t n)
{
    if (env && (unsigned)counter < SSDSIM_N_COUNTERS) {
        env->n.c[counter] += n;
        if (env->fw_ns[counter]) /* firmware time of the work (dev/fw.c) */
            env->fw_run(env->unit_done_ctx, n * env->fw_ns[counter]);
    }
}

uint64_t ssdsim_ftl_now(const ssdsim_ftl_env *env)
{
    return env ? ssdsim__engine_now(env->engine) : 0;
}

uint32_t ssdsim_ftl_erase_count(const ssdsim_ftl_env *env, uint64_t block)
{
    return env && block < env->geo.n_blocks ? env->erase_count[block] : 0;
}

uint64_t ssdsim_ftl_random(ssdsim_ftl_env *env)
{
    return env ? ssdsim__rng_next(&env->rng) : 0;
}

void ssdsim_ftl_fail(ssdsim_ftl_env *env, int code, const char *message)
{
    if (!env) {
        ssdsim__log(SSDSIM_LOG_ERROR, "ssdsim_ftl_fail without an FTL environment: %s",
                    message ? message : "FTL failure");
        return;
    }
    if (env->fail_code)
        return; /* keep the first failure */
    env->fail_code = code < 0 ? code : SSDSIM_ESTATE;
    snprintf(env->fail_msg, sizeof env->fail_msg, "%s", message ? message : "FTL failure");
    ssdsim__log(SSDSIM_LOG_ERROR, "%s", env->fail_msg);
    ssdsim__engine_stop(env->engine);
}

const ssdsim_ftl_policies *ssdsim_ftl_policy_settings(const ssdsim_ftl_env *env)
{
    return &env->pol;
}

/* ------------------------------------------------------------------ consistency */

int ssdsim__env_check(struct ssdsim_ftl_env *env, uint64_t absorbed, char *why, size_t len)
{
    const ssdsim_geometry *g = &env->geo;
    uint64_t sum = 0;
    uint32_t lo = UINT32_MAX, hi = 0;
    for (uint64_t b = 0; b < g->n_blocks; b++) {
        sum += env->erase_count[b];
        lo = SSDSIM__MIN(lo, env->erase_count[b]);
        hi = SSDSIM__MAX(hi, env->erase_count[b]);
    }
    if ((int64_t)sum != (int64_t)env->n.erases + env->ec_installed) {
        snprintf(why, len, "the erase counts add up to %llu; %llu erases were done (%lld "
                 "installed)",
                 (unsigned long long)sum, (unsigned long long)env->n.erases,
                 (long long)env->ec_installed);
        return SSDSIM_ESTATE;
    }
    if (lo != env->ec_min || hi != env->ec_max || hi >= env->ec_cap) {
        snprintf(why, len, "erase counts range %u..%u; the histogram says %u..%u", lo, hi,
                 env->ec_min, env->ec_max);
        return SSDSIM_ESTATE;
    }
    uint64_t *h = calloc(env->ec_cap, sizeof *h);
    if (!h) {
        snprintf(why, len, "out of memory");
        return SSDSIM_ENOMEM;
    }
    for (uint64_t b = 0; b < g->n_blocks; b++)
        h[env->erase_count[b]]++;
    for (uint32_t e = 0; e < env->ec_cap; e++) {
        if (h[e] != env->ec_hist[e]) {
            snprintf(why, len, "%llu blocks have erase count %u; the histogram says %llu",
                     (unsigned long long)h[e], e, (unsigned long long)env->ec_hist[e]);
            free(h);
            return SSDSIM_ESTATE;
        }
    }
    free(h);
    static const struct {
        int purpose, counter;
        const char *what;
    } kinds[] = {
        {SSDSIM_FOR_HOST, SSDSIM_CNT_HOST_PAGES, "host pages"},
        {SSDSIM_FOR_GC, SSDSIM_CNT_GC_COPIES, "GC copies and SLC folds"},
        {SSDSIM_FOR_WL, SSDSIM_CNT_WL_COPIES, "wear-leveling copies"},
        {SSDSIM_FOR_MAPPING, SSDSIM_CNT_MAP_WRITES, "mapping pages written"},
        {SSDSIM_FOR_PARITY, SSDSIM_CNT_PARITY_PAGES, "parity pages"},
    };
    for (size_t i = 0; i < SSDSIM__ARRAY_LEN(kinds); i++) {
        uint64_t counted = env->n.c[kinds[i].counter] - (i == 0 ? absorbed : 0);
        if (kinds[i].purpose == SSDSIM_FOR_GC)
            counted += env->n.c[SSDSIM__CNT_SLC_FOLDS]; /* folds are programmed FOR_GC */
        if (env->n.programs[kinds[i].purpose] != counted) {
            snprintf(why, len, "%llu pages programmed for %s; the FTL counted %llu%s",
                     (unsigned long long)env->n.programs[kinds[i].purpose], kinds[i].what,
                     (unsigned long long)counted,
                     i == 0 && absorbed ? " (less those the write buffer absorbed)" : "");
            return SSDSIM_ESTATE;
        }
    }
    if (env->n.programs[SSDSIM_FOR_HOST_RMW]) {
        snprintf(why, len, "%llu pages programmed for read-modify-write reads",
                 (unsigned long long)env->n.programs[SSDSIM_FOR_HOST_RMW]);
        return SSDSIM_ESTATE;
    }
    if (SSDSIM__HAS_METHOD(env->ops, ssdsim_ftl_ops, check))
        return env->ops->check(env->state, why, len) ? SSDSIM_ESTATE : 0;
    return 0;
}
