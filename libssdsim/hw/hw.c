/* hw.c: channel buses and dies.
 *
 * Buses are FCFS timelines ("busy until"): a reservation starts at max(request time, free
 * time). Reservations are made at the simulated time the resource is requested, so none can
 * leave a gap another request could have used. A die runs one op at a time; reads take two
 * steps (array read, then data out on the bus
 * when the bus is free) and hold the die until the data is out, as a page register would.
 *
 * This is the whole path of a model without NAND operations. A model that turns any on
 * (flash.multiplane, cache_read, cache_program, suspend, copyback, cmd_cycle_us) has every op
 * run by hw/nand.c instead (hw->nand), so the one-page path keeps its cost.
 */
#include "hw/hw.h"

#include <stdlib.h>
#include <string.h>

static void die_event(void *ctx, uint32_t arg);
static inline void program_start(struct ssdsim__hw *hw, uint32_t d, uint64_t now, bool plain);

#define set_idle ssdsim__hw_set_idle

#define OP_LINK offsetof(struct ssdsim__flash_op, next)

int ssdsim__hw_init(struct ssdsim__hw *hw, const struct ssdsim_model *m, struct ssdsim__engine *e,
                    ssdsim__flash_done_fn on_done, void *ctx)
{
    memset(hw, 0, sizeof *hw);
    const struct ssdsim__geometry *g = &m->geometry;
    hw->model = m;
    hw->engine = e;
    hw->on_done = on_done;
    hw->on_done_ctx = ctx;
    hw->n_channels = g->channels;
    hw->dies_per_channel = g->chips_per_channel * g->dies_per_chip;
    hw->n_dies = g->channels * hw->dies_per_channel;
    hw->planes_per_die = g->planes_per_die;
    hw->n_planes = hw->n_dies * g->planes_per_die;
    hw->blocks_per_plane = g->blocks_per_plane;
    /* Slots of one mapping unit each (hw/unit.c); pages when the unit is the page. */
    uint32_t unit = m->ftl.mapping_unit ? m->ftl.mapping_unit : g->page_size;
    hw->spp = unit < g->page_size ? g->page_size / unit : 1;
    hw->ppu = unit > g->page_size ? unit / g->page_size : 1;
    while ((1u << hw->slot_shift) < hw->spp)
        hw->slot_shift++;
    hw->pages_per_block = g->pages_per_block * hw->spp / hw->ppu;
    hw->n_blocks = (uint64_t)hw->n_planes * g->blocks_per_plane;
    hw->n_pages = hw->n_blocks * hw->pages_per_block;
    hw->wpath_bw = m->controller.program_bytes_per_s;

    hw->dies = calloc(hw->n_dies, sizeof *hw->dies);
    hw->bus_free = calloc(hw->n_channels, sizeof *hw->bus_free);
    hw->n_idle_words = (hw->n_dies + 63) / 64;
    hw->idle_bits = calloc(hw->n_idle_words, sizeof *hw->idle_bits);
    ssdsim__ipool_init(&hw->op_pool);
    hw->ops = ssdsim__ipool_grow(&hw->op_pool, NULL, sizeof *hw->ops, OP_LINK, 1024);
    if (!hw->dies || !hw->bus_free || !hw->idle_bits || !hw->ops)
        goto fail;
    if (hw->wpath_bw && !(hw->wpath_q = malloc(sizeof *hw->wpath_q * hw->n_dies)))
        goto fail;
    if (ssdsim__slc_on(&m->slc) && !(hw->slc_block = calloc(hw->n_blocks, 1)))
        goto fail;
    /* host reads go first, a write waits for them at most a mean program time */
    uint64_t prog = 0;
    for (uint32_t k = 0; k < m->flash.n_page_types; k++)
        prog += m->flash.program_ns[k];
    hw->write_due_ns = m->flash.n_page_types ? prog / m->flash.n_page_types : 0;
    if (hw->spp > 1) {
        hw->held = malloc(sizeof *hw->held * hw->n_blocks);
        hw->held_next = malloc(sizeof *hw->held_next * hw->n_blocks);
        hw->held_mark = calloc(hw->n_blocks, sizeof *hw->held_mark);
        hw->blk_wp = calloc(hw->n_blocks, sizeof *hw->blk_wp);
        hw->mate = malloc(sizeof *hw->mate * hw->op_pool.cap);
        hw->mate_cap = hw->op_pool.cap;
        hw->gc_keep = calloc(hw->n_planes, 1);
        if (!hw->held || !hw->held_next || !hw->held_mark || !hw->blk_wp || !hw->mate ||
            !hw->gc_keep)
            goto fail;
        for (uint64_t b = 0; b < hw->n_blocks; b++)
            hw->held[b] = hw->held_next[b] = SSDSIM__NONE;
    }
    for (uint32_t d = 0; d < hw->n_dies; d++) {
        struct ssdsim__die *die = &hw->dies[d];
        die->head[0] = die->head[1] = die->tail[0] = die->tail[1] = SSDSIM__NONE;
        die->cur = die->susp = die->cb_src = SSDSIM__NONE;
        die->reg_page = die->cache_page = die->held_blk = SSDSIM__NONE;
        die->channel = d / hw->dies_per_channel;
        set_idle(hw, d, true);
    }
    ssdsim__udiv_init(&hw->div_ppb, hw->pages_per_block);
    ssdsim__udiv_init(&hw->div_bpp, hw->blocks_per_plane);
    ssdsim__udiv_init(&hw->div_ppd, hw->planes_per_die);
    ssdsim__udiv_init(&hw->div_types, m->flash.n_page_types);
    hw->type_mask = hw->slot_shift == 0 && hw->div_ppb.pow2 && hw->div_types.pow2 &&
                            hw->div_types.d <= hw->div_ppb.d
                        ? hw->div_types.d - 1
                        : SSDSIM__NONE;
    ssdsim__udiv_init(&hw->div_bpdie, hw->blocks_per_plane * hw->planes_per_die);
    ssdsim__udiv_init(&hw->div_ppdie, hw->blocks_per_plane * hw->planes_per_die *
                                          hw->pages_per_block);
    hw->page_xfer_ns = ssdsim__hw_bus_ns_div(hw, g->page_size);
    hw->xfer_bytes = unit < g->page_size ? unit : g->page_size;
    hw->xfer_ns = ssdsim__hw_bus_ns_div(hw, hw->xfer_bytes);
    const struct ssdsim__flash *f = &m->flash;
    hw->nand = f->cmd_cycle_ns || f->multiplane || f->cache_read || f->cache_program ||
               f->suspend || f->copyback;
    hw->plain = !hw->nand && hw->spp == 1 && hw->ppu == 1 && !hw->wpath_bw;
    if (f->multiplane &&
        !(hw->pq = calloc((size_t)hw->n_dies * 2 * hw->planes_per_die, sizeof *hw->pq)))
        goto fail;
    if (f->multiplane && hw->spp > 1) {
        size_t n = (size_t)hw->n_dies * hw->planes_per_die;
        if (!(hw->plane_reg = malloc(n * sizeof *hw->plane_reg)))
            goto fail;
        for (size_t k = 0; k < n; k++)
            hw->plane_reg[k] = SSDSIM__NONE;
    }
    return 0;
fail:
    ssdsim__hw_fini(hw);
    return SSDSIM_ENOMEM;
}

void ssdsim__hw_fini(struct ssdsim__hw *hw)
{
    free(hw->dies);
    free(hw->bus_free);
    free(hw->wpath_q);
    free(hw->idle_bits);
    free(hw->ops);
    free(hw->slc_block);
    free(hw->held);
    free(hw->held_next);
    free(hw->held_mark);
    free(hw->gc_keep);
    free(hw->blk_wp);
    free(hw->mate);
    ssdsim__rel_free(hw->rel);
    if (hw->pq)
        for (size_t k = 0; k < (size_t)hw->n_dies * 2 * hw->planes_per_die; k++)
            free(hw->pq[k].v);
    free(hw->pq);
    free(hw->plane_reg);
    memset(hw, 0, sizeof *hw);
}

uint32_t ssdsim__hw_op_alloc(struct ssdsim__hw *hw)
{
    if (ssdsim__ipool_empty(&hw->op_pool)) {
        struct ssdsim__flash_op *p = ssdsim__ipool_grow(&hw->op_pool, hw->ops, sizeof *p, OP_LINK, 1024);
        if (!p)
            return SSDSIM__NONE;
        hw->ops = p;
    }
    uint32_t i = ssdsim__ipool_take(&hw->op_pool, hw->ops, sizeof *hw->ops, OP_LINK);
    hw->n_live++;
    memset(&hw->ops[i], 0, sizeof hw->ops[i]);
    hw->ops[i].next = SSDSIM__NONE;
    if (hw->mate) {
        if (i >= hw->mate_cap) { /* the pool grew: so does the array beside it */
            uint32_t *mt = realloc(hw->mate, sizeof *mt * hw->op_pool.cap);
            if (!mt) {
                ssdsim__hw_op_free(hw, i);
                return SSDSIM__NONE;
            }
            hw->mate = mt;
            hw->mate_cap = hw->op_pool.cap;
        }
        hw->mate[i] = SSDSIM__NONE;
    }
    return i;
}

int ssdsim__hw_each_op(const struct ssdsim__hw *hw,
                       void (*fn)(void *ctx, const struct ssdsim__flash_op *op), void *ctx)
{
    uint32_t n = hw->op_pool.cap;
    uint8_t *is_free = calloc(n ? n : 1, 1);
    if (!is_free)
        return SSDSIM_ENOMEM;
    for (uint32_t i = hw->op_pool.free, k = 0; i != SSDSIM__NONE && k < n;
         i = hw->ops[i].next, k++)
        is_free[i] = 1;
    for (uint32_t i = 0; i < n; i++)
        if (!is_free[i])
            fn(ctx, &hw->ops[i]);
    free(is_free);
    return 0;
}

uint32_t ssdsim__hw_next_idle_die(const struct ssdsim__hw *hw, uint32_t from)
{
    if (from >= hw->n_dies)
        from = 0;
    uint32_t w = from >> 6;
    uint64_t word = hw->idle_bits[w] & (~0ULL << (from & 63));
    for (uint32_t k = 0; k <= hw->n_idle_words; k++) {
        if (word) {
            uint32_t d = (w << 6) + (uint32_t)__builtin_ctzll(word);
            if (d < hw->n_dies)
                return d;
        }
        w = w + 1 == hw->n_idle_words ? 0 : w + 1;
        word = hw->idle_bits[w];
    }
    return SSDSIM__NONE;
}

void ssdsim__hw_reset_timelines(struct ssdsim__hw *hw, uint64_t now)
{
    for (uint32_t c = 0; c < hw->n_channels; c++)
        hw->bus_free[c] = now;
    hw->wpath_free = now;
    /* a secure erase: every block erased (no op may be in flight, so nothing is held) */
    if (hw->blk_wp)
        memset(hw->blk_wp, 0, sizeof *hw->blk_wp * hw->n_blocks);
    for (uint32_t d = 0; d < hw->n_dies; d++)
        hw->dies[d].reg_page = hw->dies[d].cache_page = SSDSIM__NONE;
    if (hw->plane_reg)
        for (size_t k = 0; k < (size_t)hw->n_dies * hw->planes_per_die; k++)
            hw->plane_reg[k] = SSDSIM__NONE;
    if (hw->rel)
        ssdsim__rel_reset(hw->rel);
}

/* Start the next queued op on an idle die, reads first. `plain`, a constant: the die needs
 * none of the calls of slots smaller than the page (hw/unit.c), of a reliability model (rel)
 * or of the write path (controller.program_bw), so that the only call left is the engine's
 * out-of-line schedule at the end, and the path keeps few values in saved registers (see
 * dispatch). `busy`, a constant: the die's idle bit is clear already (die_event's die ran an
 * op), so it is not cleared again. */
static SSDSIM__INLINE void dispatch_at(struct ssdsim__hw *hw, uint32_t d, bool plain,
                                       bool busy)
{
    struct ssdsim__die *die = &hw->dies[d];
    if (!plain && SSDSIM__UNLIKELY(die->held_blk != SSDSIM__NONE))
        ssdsim__unit_dispatch(hw, d);
    uint64_t now = ssdsim__engine_now(hw->engine);
    ssdsim__hw_w_start(die, now);
    uint32_t cls = ssdsim__hw_first_class(hw, die, die->head[SSDSIM__CLASS_READ] != SSDSIM__NONE,
                                          die->head[SSDSIM__CLASS_WRITE] != SSDSIM__NONE, now);
    uint32_t i = ssdsim__hw_die_pop(hw, die, cls);
    if (i == SSDSIM__NONE) {
        set_idle(hw, d, true);
        if (!plain && die->held_blk != SSDSIM__NONE)
            ssdsim__unit_die_empty(hw, d);
        return;
    }
    struct ssdsim__flash_op *op = &hw->ops[i];
    if (!busy)
        set_idle(hw, d, false);

    const struct ssdsim__flash *f = &hw->model->flash;
    uint64_t done;
    switch (op->kind) {
    case SSDSIM__FLASH_READ:
        op->phase = 0;
        if (plain)
            done = now + f->read_ns[ssdsim__hw_page_type(hw, op->addr)];
        else if (hw->spp > 1 && ssdsim__unit_reg_hit(hw, die, op->addr))
            done = now;
        else if (hw->rel)
            done = now + ssdsim__rel_read(hw->rel, op, i, ssdsim__hw_read_ns(hw, op), now);
        else
            done = now + ssdsim__hw_read_ns(hw, op);
        break;
    case SSDSIM__FLASH_PROGRAM:
        if (!plain && SSDSIM__UNLIKELY(hw->wpath_bw) && ssdsim__hw_wpath_defer(hw, d, now))
            return; /* it holds the program until the write path is free */
        program_start(hw, d, now, plain);
        return;
    default:
        done = now + f->erase_ns;
        die->reg_page = SSDSIM__NONE;
        break;
    }
    hw->die_busy_ns += done - now;
    ssdsim__engine_schedule(hw->engine, done, die_event, hw, d);
}

/* Every case dispatch_at(plain) leaves out. */
static SSDSIM__NOINLINE void dispatch_full(struct ssdsim__hw *hw, uint32_t d)
{
    dispatch_at(hw, d, false, false);
}

/* Whether a die of hw can be dispatched by dispatch_at(plain): hw->plain says it for every die
 * (no partial pages are held without slots smaller than the page, and rel/rber.c clears it when
 * it attaches a reliability model). */
static inline bool plain_die(const struct ssdsim__hw *hw, uint32_t d)
{
    assert(!hw->plain || (!hw->rel && hw->dies[d].held_blk == SSDSIM__NONE));
    (void)d;
    return hw->plain;
}

/* Inline in die_event, whose tail it is (an op's end starts the die's next), and a call from
 * queue (ssdsim__hw_die_dispatch). The plain path apart: with the rare calls inline,
 * die_event and die_dispatch each saved six registers and kept a stack frame; now four and three
 * (2026-12-07, callgrind, bench_sim's timed writes at 128 blocks per plane: 4,309 -> 4,220
 * instructions per host write). `busy` as for dispatch_at. */
static SSDSIM__INLINE void dispatch(struct ssdsim__hw *hw, uint32_t d, bool busy)
{
    if (SSDSIM__LIKELY(plain_die(hw, d)))
        dispatch_at(hw, d, true, busy);
    else
        dispatch_full(hw, d);
}

/* Program cur of die d: its data in over the bus (through the write path), then the array.
 * Inline: dispatch starts every program through it, and as a call it saved and restored
 * registers of its own. `plain` as for dispatch_at (a slot of one page: its tPROG from the
 * table). */
static SSDSIM__INLINE void program_start(struct ssdsim__hw *hw, uint32_t d, uint64_t now,
                                         bool plain)
{
    struct ssdsim__die *die = &hw->dies[d];
    struct ssdsim__flash_op *op = &hw->ops[die->cur];
    if (!plain)
        ssdsim__hw_wpath_take(hw, now, op->bytes);
    uint64_t *bus = &hw->bus_free[die->channel];
    uint64_t start = SSDSIM__MAX(now, *bus);
    uint64_t xfer =
        plain ? ssdsim__hw_bus_ns(hw, op->bytes) : ssdsim__hw_data_in_ns(hw, op->bytes);
    *bus = start + xfer;
    hw->bus_busy_ns += xfer;
    const uint64_t *tprog = hw->model->flash.program_ns;
    uint64_t done = *bus + (plain ? tprog[ssdsim__hw_page_type(hw, op->addr)]
                                  : ssdsim__hw_program_ns(hw, op));
    die->reg_page = SSDSIM__NONE;
    hw->die_busy_ns += done - now;
    ssdsim__engine_schedule(hw->engine, done, die_event, hw, d);
}

int ssdsim__hw_die_dispatch(struct ssdsim__hw *hw, uint32_t d)
{
    dispatch(hw, d, false);
    return 0;
}

/* The write path is free: the first waiting die starts its program, and the next waiter is
 * woken when the path is free again. */
static void wpath_event(void *ctx, uint32_t arg)
{
    struct ssdsim__hw *hw = ctx;
    (void)arg;
    uint64_t now = ssdsim__engine_now(hw->engine);
    if (hw->wpath_free > now) { /* a copyback's data took it meanwhile (hw/nand.c) */
        ssdsim__engine_schedule(hw->engine, hw->wpath_free, wpath_event, hw, 0);
        return;
    }
    uint32_t d = hw->wpath_q[hw->wpath_head];
    hw->wpath_head = hw->wpath_head + 1 == hw->n_dies ? 0 : hw->wpath_head + 1;
    hw->wpath_n--;
    if (hw->nand)
        ssdsim__nand_start_held(hw, d);
    else
        program_start(hw, d, now, false);
    if (hw->wpath_n)
        ssdsim__engine_schedule(hw->engine, SSDSIM__MAX(now, hw->wpath_free), wpath_event, hw, 0);
}

bool ssdsim__hw_wpath_defer(struct ssdsim__hw *hw, uint32_t d, uint64_t now)
{
    if (hw->wpath_free <= now && hw->wpath_n == 0)
        return false;
    uint32_t k = hw->wpath_head + hw->wpath_n;
    hw->wpath_q[k >= hw->n_dies ? k - hw->n_dies : k] = d;
    if (hw->wpath_n++ == 0)
        ssdsim__engine_schedule(hw->engine, hw->wpath_free, wpath_event, hw, 0);
    return true;
}

/* ssdsim__hw_complete with a reliability model or mates (slots smaller than the page), out of
 * line: die_event keeps only the one call of the others, so that it saves fewer registers. */
static SSDSIM__NOINLINE void complete_full(struct ssdsim__hw *hw, uint32_t i)
{
    ssdsim__hw_complete(hw, i);
}

static void die_event(void *ctx, uint32_t arg)
{
    struct ssdsim__hw *hw = ctx;
    uint32_t d = (uint32_t)arg;
    struct ssdsim__die *die = &hw->dies[d];
    uint32_t i = die->cur;
    struct ssdsim__flash_op *op = &hw->ops[i];
    uint64_t now = ssdsim__engine_now(hw->engine);
    if (op->kind == SSDSIM__FLASH_READ && op->phase == 0 && op->bytes > 0) {
        /* The page is in the register: move the requested bytes out over the bus. */
        uint64_t *bus = &hw->bus_free[die->channel];
        uint64_t start = SSDSIM__MAX(now, *bus);
        uint64_t xfer = ssdsim__hw_bus_ns(hw, op->bytes);
        *bus = start + xfer;
        hw->bus_busy_ns += xfer;
        op->phase = 1;
        hw->die_busy_ns += *bus - now;
        ssdsim__engine_schedule(hw->engine, *bus, die_event, hw, d);
        return;
    }
    /* The op the die takes next was queued long ago and its record has left the caches: load
     * it while the completion runs. */
    uint32_t nx = die->head[SSDSIM__CLASS_READ] != SSDSIM__NONE ? die->head[SSDSIM__CLASS_READ]
                                                                 : die->head[SSDSIM__CLASS_WRITE];
    if (nx != SSDSIM__NONE)
        __builtin_prefetch(&hw->ops[nx], 1, 3);
    die->cur = SSDSIM__NONE;
    if (SSDSIM__LIKELY(hw->plain)) /* no rel, no mates */
        hw->on_done(hw->on_done_ctx, i);
    else
        complete_full(hw, i);
    if (die->cur == SSDSIM__NONE)
        dispatch(hw, d, true); /* (its idle bit is clear: it ran an op) */
}

static inline int queue(struct ssdsim__hw *hw, uint32_t i)
{
    if (hw->nand) {
        ssdsim__nand_submit(hw, i);
        return 0;
    }
    return ssdsim__hw_queue_op(hw, i);
}

void ssdsim__hw_queue(struct ssdsim__hw *hw, uint32_t i)
{
    queue(hw, i);
}

int ssdsim__hw_submit(struct ssdsim__hw *hw, uint32_t i)
{
    if (hw->spp > 1 && (i = ssdsim__unit_submit(hw, i)) == SSDSIM__NONE)
        return 0; /* held until its page is complete */
    return queue(hw, i);
}
