/* nand.c: the NAND operations of a die beyond one page at a time, for models that turn any of
 * them on (hw->nand; hw.c hands every op to ssdsim__nand_submit then, and keeps its own
 * one-page path for the others, which so pay nothing for these).
 *
 * The operations (flash.* keys, each off unless the model gives it; ONFI command names):
 *  - command and address cycles (flash.cmd_cycle_us = c): 7 cycles on the bus before a read
 *    (00h, 5 address, 30h) or a program (80h, 5 address, data, 10h), 5 before an erase (60h,
 *    3 address, D0h), 7 before each plane's data out of a multi-plane read (06h, 5 address,
 *    E0h, change read column) and before a copyback program (85h, 5 address, 10h).
 *  - multi-plane (flash.multiplane): when a die starts an op it takes along the first queued
 *    op of the same class and kind on each other plane, if it addresses the same page offset
 *    (and, with flash.multiplane_same_block, the same block) and no op queued before it on its
 *    plane is left behind. The planes' command sequences run one after the other, each but the
 *    last followed by tDBSY; then one array time, the longest of the planes' (tR, tPROG, tBERS);
 *    a read's pages then go out one by one.
 *  - cache program (flash.cache_program): data in goes to the cache register; the page moves
 *    to the data register once the array has finished the previous program (tCBSY) and is
 *    programmed from there, while the die takes its next command.
 *  - cache read (flash.cache_read): at the end of tR, when another read is queued (31h) or this
 *    one ends a sequence of them (3Fh), the page moves to the cache register once the previous
 *    page is out of it (tRCBSY), the die takes its next command, and the data goes out from the
 *    cache register meanwhile; a read with none before or after it is a plain page read
 *    (00h-30h), its data out without tRCBSY, the die held until it is out. With mapping units
 *    smaller than the page, a read of another unit of the page the cache register holds takes
 *    no tR and does not hold the die: its column change and data go out over the bus (after
 *    what is already going out of the register) while the die senses its next page, as a
 *    controller reads a page's columns out of the cache register with random data output.
 *  - suspend (flash.suspend, Wu and He, FAST 2012): a host read queued while a program or erase
 *    runs in the array suspends it flash.suspend_us later (unless it ends sooner, or has been
 *    suspended flash.max_suspends times); the die serves every queued host read, then resumes
 *    the op: resume overhead + the time it had left.
 *  - copyback (flash.copyback): a GC read of 0 bytes leaves its page in the page register; if
 *    the FTL answers its completion with a GC program to the same plane, that program runs at
 *    once from the register, without data on the channel (with flash.copyback_parity, pages of
 *    different parity cross the channel out and back in instead).
 *
 * A die's state is more than "one op in progress" here: `step` says what its next event ends,
 * a multi-plane group is the ops linked through `next` from `cur`, and die busy time counts
 * the union of the intervals booked (cache operations overlap them).
 */
#include "hw/hw.h"

#include "ssdsim/sys/ftl.h"

#include <stdlib.h>

static void nand_event(void *ctx, uint32_t arg);

/* What a die's next event ends. */
enum step {
    STEP_ARRAY,   /* cur's command sequence and array operation */
    STEP_OUT,     /* a single read's data out: cur is done */
    STEP_RELEASE, /* the die is free again; cur's ops complete by their own events */
    STEP_SUSPEND, /* the suspend latency of cur, a program or erase */
    STEP_CACHE,   /* cache read: the page moves to the cache register */
    STEP_WPATH,   /* cur, a program group, waits for the write path (no event of its own) */
};

/* ONFI command and address cycles of each sequence (top of this file). */
enum { CYC_READ = 7, CYC_PROGRAM = 7, CYC_ERASE = 5, CYC_COLUMN = 7, CYC_COPYBACK = 7 };

/* Count [from, to) as die busy time, once where intervals overlap (cache operations, a
 * suspended op's booked end). Intervals of one die start in time order. */
static void die_busy(struct ssdsim__hw *hw, struct ssdsim__die *die, uint64_t from, uint64_t to)
{
    uint64_t s = SSDSIM__MAX(from, die->busy_until_ns);
    if (to > s)
        hw->die_busy_ns += to - s;
    if (to > die->busy_until_ns)
        die->busy_until_ns = to;
}

static inline uint32_t op_block(const struct ssdsim__hw *hw, const struct ssdsim__flash_op *op)
{
    return op->kind == SSDSIM__FLASH_ERASE ? op->addr : ssdsim__hw_ppn_block(hw, op->addr);
}

/* A GC read that leaves its page in the register for a copyback program. */
static inline bool copyback_read(const struct ssdsim__hw *hw, const struct ssdsim__flash_op *op)
{
    return hw->model->flash.copyback && op->kind == SSDSIM__FLASH_READ && op->bytes == 0 &&
           ssdsim__hw_for_gc(op);
}

/* Whether queued op `o` can run in one multi-plane operation with `h` (another plane). */
static bool mp_compatible(const struct ssdsim__hw *hw, const struct ssdsim__flash_op *h,
                          const struct ssdsim__flash_op *o)
{
    if (o->kind != h->kind || copyback_read(hw, o))
        return false;
    /* the same page offset: of the flash page that holds the slot (hw/unit.c) */
    if (h->kind != SSDSIM__FLASH_ERASE &&
        (h->addr % hw->pages_per_block) >> hw->slot_shift !=
            (o->addr % hw->pages_per_block) >> hw->slot_shift)
        return false;
    return !hw->model->flash.multiplane_same_block ||
           op_block(hw, h) % hw->blocks_per_plane == op_block(hw, o) % hw->blocks_per_plane;
}

/* ---------------------------------------------------------------- plane queues
 * With flash.multiplane a die's queue of each class is kept as one ring per plane (hw->pq),
 * each op numbered in order of arrival at the die's queue of its class: the die's queue is the
 * rings merged by that number. Every op leaves its queue from the front of its plane's ring (a
 * die takes the earliest op of the class, a multi-plane group the first op of each other plane),
 * so finding the partners of a group takes a look at each plane's first op instead of a walk
 * along one list of the die's ops. */

static inline bool seq_before(uint32_t a, uint32_t b)
{
    return (int32_t)(a - b) < 0; /* arrival numbers wrap; a queue spans far less than 2^31 */
}

static inline uint32_t op_plane(const struct ssdsim__hw *hw, const struct ssdsim__flash_op *op)
{
    return ssdsim__udiv_r(&hw->div_ppd, ssdsim__hw_block_plane(hw, op_block(hw, op)));
}

/* Multi-plane with units smaller than the page (hw->plane_reg): the register of op's plane, and
 * whether it holds op's page, so that a read of it needs no tR. */
static inline uint32_t *plane_reg(const struct ssdsim__hw *hw, uint32_t d,
                                  const struct ssdsim__flash_op *op)
{
    return &hw->plane_reg[(size_t)d * hw->planes_per_die + op_plane(hw, op)];
}

static inline bool plane_reg_holds(const struct ssdsim__hw *hw, uint32_t d,
                                   const struct ssdsim__flash_op *op)
{
    return hw->plane_reg && op->kind == SSDSIM__FLASH_READ && !copyback_read(hw, op) &&
           *plane_reg(hw, d, op) == op->addr >> hw->slot_shift;
}

/* A program or erase on the die: its page registers hold no page to read any more. */
static inline void plane_reg_clear(struct ssdsim__hw *hw, uint32_t d)
{
    if (hw->plane_reg)
        for (uint32_t p = 0; p < hw->planes_per_die; p++)
            hw->plane_reg[(size_t)d * hw->planes_per_die + p] = SSDSIM__NONE;
}

static inline struct ssdsim__pq *plane_q(const struct ssdsim__hw *hw, uint32_t d, uint32_t cls,
                                         uint32_t p)
{
    return &hw->pq[((size_t)d * 2 + cls) * hw->planes_per_die + p];
}

static inline struct ssdsim__pq_ent *pq_at(const struct ssdsim__pq *q, uint32_t k)
{
    return &q->v[(q->head + k) & (q->cap - 1)];
}

/* Append op i to its plane's queue on die d. False when out of memory: the engine is then
 * stopped as for a failed schedule, and the run returns SSDSIM_ENOMEM. */
static bool pq_push(struct ssdsim__hw *hw, uint32_t d, uint32_t cls, uint32_t i)
{
    struct ssdsim__die *die = &hw->dies[d];
    struct ssdsim__pq *q = plane_q(hw, d, cls, op_plane(hw, &hw->ops[i]));
    if (q->n == q->cap) {
        uint32_t cap = q->cap ? q->cap * 2 : 16;
        struct ssdsim__pq_ent *v = malloc(sizeof *v * cap);
        if (!v) {
            hw->engine->oom = hw->engine->stopped = true;
            return false;
        }
        for (uint32_t k = 0; k < q->n; k++)
            v[k] = *pq_at(q, k);
        free(q->v);
        q->v = v;
        q->cap = cap;
        q->head = 0;
    }
    *pq_at(q, q->n) = (struct ssdsim__pq_ent){i, die->qseq[cls]++};
    q->n++;
    if (cls == SSDSIM__CLASS_WRITE && die->n_q[cls] == 0)
        die->w_since = ssdsim__engine_now(hw->engine); /* the first write */
    die->n_q[cls]++;
    die->queued++;
    return true;
}

/* Take the first op of plane p's queue (which has one). */
static inline uint32_t pq_take(struct ssdsim__hw *hw, struct ssdsim__die *die,
                               struct ssdsim__pq *q, uint32_t cls)
{
    uint32_t i = q->v[q->head].op;
    q->head = (q->head + 1) & (q->cap - 1);
    q->n--;
    if (q->n) /* the plane's next op (the die's, or a partner's): queued long ago */
        __builtin_prefetch(&hw->ops[q->v[q->head].op], 1, 3);
    die->n_q[cls]--;
    die->queued--;
    return i;
}

/* Ops of queue q that arrived before arrival number s, counting at most `limit`. */
static uint32_t pq_before(const struct ssdsim__pq *q, uint32_t s, uint32_t limit)
{
    uint32_t lo = 0, hi = SSDSIM__MIN(q->n, limit);
    while (lo < hi) {
        uint32_t mid = (lo + hi) / 2;
        if (seq_before(pq_at(q, mid)->seq, s))
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* Whether die d has ops of class cls queued. */
static inline bool q_any(const struct ssdsim__hw *hw, const struct ssdsim__die *die, uint32_t cls)
{
    return hw->pq ? die->n_q[cls] > 0 : die->head[cls] != SSDSIM__NONE;
}

/* ssdsim__hw_die_pop: the die's earliest op of class cls becomes cur (NONE when none). */
static uint32_t die_pop(struct ssdsim__hw *hw, uint32_t d, uint32_t cls)
{
    struct ssdsim__die *die = &hw->dies[d];
    if (!hw->pq)
        return ssdsim__hw_die_pop(hw, die, cls);
    if (die->n_q[cls] == 0)
        return SSDSIM__NONE;
    struct ssdsim__pq *best = NULL;
    for (uint32_t p = 0; p < hw->planes_per_die; p++) {
        struct ssdsim__pq *q = plane_q(hw, d, cls, p);
        if (q->n && (!best || seq_before(q->v[q->head].seq, best->v[best->head].seq)))
            best = q;
    }
    uint32_t i = pq_take(hw, die, best, cls);
    if (cls == SSDSIM__CLASS_WRITE && die->n_q[cls] > 0)
        die->w_since = SSDSIM__W_AFTER; /* the next write waits from this one's end */
    die->cur = i;
    return i;
}

/* The queue scan of a multi-plane group looks at most this many queued ops. */
#define GATHER_SCAN 64

/* Multi-plane: link to `head` (already off the queue) the first op of queue `cls` on each other
 * plane of the die that can run with it, skipping none of that plane's earlier ops, among the
 * first GATHER_SCAN ops of the die's queue (what a controller's look-ahead would see). Returns
 * the number of ops in the group. Plane queues make this one look at each plane's first op and
 * a count of the ops queued before it (a binary search of each plane's ring). */
static uint32_t gather(struct ssdsim__hw *hw, uint32_t d, uint32_t cls, uint32_t head)
{
    struct ssdsim__die *die = &hw->dies[d];
    const struct ssdsim__flash_op *h = &hw->ops[head];
    uint32_t ppd = hw->planes_per_die;
    /* a read of the page its plane's register holds goes alone, without tR */
    if (copyback_read(hw, h) || plane_reg_holds(hw, d, h))
        return 1;
    uint32_t hp = op_plane(hw, h);
    /* Each other plane's first op, if it is among the first GATHER_SCAN of the die's queue
     * and can run with head, joins the group; in the order of the queue. */
    struct ssdsim__pq *take[16];
    uint32_t n_take = 0;
    for (uint32_t p = 0; p < ppd; p++) {
        struct ssdsim__pq *q = plane_q(hw, d, cls, p);
        if (p == hp || q->n == 0)
            continue;
        const struct ssdsim__pq_ent *first = &q->v[q->head];
        if (!mp_compatible(hw, h, &hw->ops[first->op]) ||
            plane_reg_holds(hw, d, &hw->ops[first->op]))
            continue;
        uint32_t before = 0;
        for (uint32_t r = 0; r < ppd && before < GATHER_SCAN; r++)
            if (r != p)
                before += pq_before(plane_q(hw, d, cls, r), first->seq, GATHER_SCAN - before);
        if (before >= GATHER_SCAN)
            continue;
        uint32_t k = n_take++;
        while (k > 0 && seq_before(first->seq, take[k - 1]->v[take[k - 1]->head].seq)) {
            take[k] = take[k - 1];
            k--;
        }
        take[k] = q;
    }
    uint32_t last = head;
    for (uint32_t k = 0; k < n_take; k++) {
        uint32_t j = pq_take(hw, die, take[k], cls);
        hw->ops[last].next = j;
        hw->ops[j].next = SSDSIM__NONE;
        last = j;
    }
    uint32_t n = 1 + n_take;
    if (n > 1) {
        hw->n_multiplane++;
        hw->n_multiplane_planes += n;
    }
    return n;
}

/* Schedule the end of cur's array operation at `done`: cancellable when suspend is on. */
static void schedule_end(struct ssdsim__hw *hw, uint32_t d, uint64_t done, bool suspendable)
{
    struct ssdsim__die *die = &hw->dies[d];
    die->step = STEP_ARRAY;
    if (suspendable && hw->model->flash.suspend)
        die->timer = ssdsim__engine_schedule_cancellable(hw->engine, done, nand_event, hw, d);
    else
        ssdsim__engine_schedule(hw->engine, done, nand_event, hw, d);
}

static void op_event(void *ctx, uint32_t op)
{
    struct ssdsim__hw *hw = ctx;
    ssdsim__hw_complete(hw, op);
}

/* Start group `i` (die->cur, `n` ops linked by next) on die d. */
static void die_start(struct ssdsim__hw *hw, uint32_t d, uint32_t i, uint32_t n, bool granted)
{
    struct ssdsim__die *die = &hw->dies[d];
    struct ssdsim__flash_op *op = &hw->ops[i];
    uint64_t now = ssdsim__engine_now(hw->engine);
    const struct ssdsim__flash *f = &hw->model->flash;
    uint64_t c = f->cmd_cycle_ns;
    uint32_t ch = die->channel;
    uint64_t t, done;
    if (op->kind != SSDSIM__FLASH_READ)
        die->cache_seq = false;
    switch (op->kind) {
    case SSDSIM__FLASH_READ: {
        /* The array may still be programming a cached page. */
        t = SSDSIM__MAX(now, die->array_free_ns);
        uint64_t tr = 0;
        for (uint32_t j = i, k = 1; j != SSDSIM__NONE; j = hw->ops[j].next, k++) {
            if (c)
                t = ssdsim__hw_bus_book(hw, ch, t, CYC_READ * c);
            if (k < n)
                t += f->dbsy_ns;
            tr = SSDSIM__MAX(tr, ssdsim__hw_read_ns(hw, &hw->ops[j]));
        }
        /* the page register (mapping units smaller than the page): a single read of the page
         * the die's last operation read needs no tR (with cache read, see cache_hit) */
        bool hit = false;
        if (hw->spp > 1 && !f->cache_read) {
            if (hw->plane_reg) {
                /* each plane's register keeps the page it read (gather sends a hit alone) */
                if (n == 1 && plane_reg_holds(hw, d, op)) {
                    tr = 0, hit = true;
                    hw->n_reg_hits++;
                } else {
                    for (uint32_t j = i; j != SSDSIM__NONE; j = hw->ops[j].next)
                        *plane_reg(hw, d, &hw->ops[j]) = copyback_read(hw, &hw->ops[j])
                                                             ? SSDSIM__NONE
                                                             : hw->ops[j].addr >> hw->slot_shift;
                }
            } else if (n == 1 && ssdsim__unit_reg_hit(hw, die, op->addr)) {
                tr = 0, hit = true;
            } else if (n > 1) {
                die->reg_page = SSDSIM__NONE;
            }
        }
        /* bit errors: each plane's page may need retries; the group takes the longest */
        if (hw->rel && !hit) {
            tr = 0;
            for (uint32_t j = i; j != SSDSIM__NONE; j = hw->ops[j].next)
                tr = SSDSIM__MAX(tr, ssdsim__rel_read(hw->rel, &hw->ops[j], j,
                                                      ssdsim__hw_read_ns(hw, &hw->ops[j]), now));
        }
        done = t + tr;
        break;
    }
    case SSDSIM__FLASH_PROGRAM: {
        /* Data in over the bus first (each plane's in turn), then the die programs; the
         * group's data through the controller's write path (hw.h), waiting for it if taken. */
        if (SSDSIM__UNLIKELY(hw->wpath_bw)) {
            if (!granted && ssdsim__hw_wpath_defer(hw, d, now)) {
                die->step = STEP_WPATH;
                return;
            }
            uint32_t bytes = 0;
            for (uint32_t j = i; j != SSDSIM__NONE; j = hw->ops[j].next)
                bytes += hw->ops[j].bytes;
            ssdsim__hw_wpath_take(hw, now, bytes);
        }
        t = now;
        uint64_t tp = 0;
        for (uint32_t j = i, k = 1; j != SSDSIM__NONE; j = hw->ops[j].next, k++) {
            t = ssdsim__hw_bus_book(hw, ch, t,
                                    CYC_PROGRAM * c + ssdsim__hw_data_in_ns(hw, hw->ops[j].bytes));
            if (k < n)
                t += f->dbsy_ns;
            tp = SSDSIM__MAX(tp, ssdsim__hw_program_ns(hw, &hw->ops[j]));
        }
        die->reg_page = die->cache_page = SSDSIM__NONE;
        plane_reg_clear(hw, d);
        if (f->cache_program) {
            /* The pages wait in the cache register until the array is done with the previous
             * program; the die takes its next command tCBSY after they move on. */
            uint64_t a = SSDSIM__MAX(t, die->array_free_ns) + f->cbsy_ns;
            die->array_free_ns = a + tp;
            die_busy(hw, die, now, die->array_free_ns);
            hw->n_cache_programs += n;
            for (uint32_t j = i; j != SSDSIM__NONE; j = hw->ops[j].next)
                ssdsim__engine_schedule(hw->engine, die->array_free_ns, op_event, hw, j);
            die->step = STEP_RELEASE;
            ssdsim__engine_schedule(hw->engine, a, nand_event, hw, d);
            return;
        }
        done = t + tp;
        break;
    }
    default:
        die->reg_page = die->cache_page = SSDSIM__NONE;
        plane_reg_clear(hw, d);
        t = SSDSIM__MAX(now, die->array_free_ns);
        for (uint32_t k = 1; k <= n; k++) {
            if (c)
                t = ssdsim__hw_bus_book(hw, ch, t, CYC_ERASE * c);
            if (k < n)
                t += f->dbsy_ns;
        }
        done = t + f->erase_ns;
        break;
    }
    bool pe = op->kind != SSDSIM__FLASH_READ;
    if (pe)
        die->n_suspends = 0;
    die->arr_start_ns = t;
    die->done_ns = done;
    die_busy(hw, die, now, done);
    schedule_end(hw, d, done, pe);
}

/* Resume the suspended program or erase: resume overhead, then the time it had left. */
static void die_resume(struct ssdsim__hw *hw, uint32_t d)
{
    struct ssdsim__die *die = &hw->dies[d];
    uint64_t now = ssdsim__engine_now(hw->engine);
    die->cur = die->susp;
    die->susp = SSDSIM__NONE;
    die->w_since = SSDSIM__W_AFTER; /* the first queued write waits from the resumed one's end */
    ssdsim__hw_set_idle(hw, d, false);
    die->arr_start_ns = now + hw->model->flash.resume_ns;
    die->done_ns = die->arr_start_ns + die->remaining_ns;
    die_busy(hw, die, now, die->done_ns);
    schedule_end(hw, d, die->done_ns, true);
}

/* Cache read with units smaller than the page: read `i` is of the page in the cache register.
 * Its column change and bytes go out over the bus, after the register's earlier data; the die
 * stays free. */
static bool cache_hit(struct ssdsim__hw *hw, struct ssdsim__die *die, uint32_t i)
{
    const struct ssdsim__flash_op *op = &hw->ops[i];
    if (die->cache_page == SSDSIM__NONE || op->kind != SSDSIM__FLASH_READ ||
        (op->addr >> hw->slot_shift) != die->cache_page || copyback_read(hw, op))
        return false;
    uint64_t now = ssdsim__engine_now(hw->engine);
    uint64_t t = ssdsim__hw_bus_book(hw, die->channel, SSDSIM__MAX(now, die->cache_free_ns),
                                     CYC_COLUMN * hw->model->flash.cmd_cycle_ns +
                                         ssdsim__hw_bus_ns(hw, op->bytes));
    die->cache_free_ns = t;
    die->cur = SSDSIM__NONE;
    hw->n_reg_hits++;
    hw->n_cache_reads++;
    die_busy(hw, die, now, t);
    ssdsim__engine_schedule(hw->engine, t, op_event, hw, i);
    return true;
}

/* The class die d serves next (ssdsim__hw_first_class): a suspended program or erase counts as
 * a write waiting. */
static inline uint32_t next_class(const struct ssdsim__hw *hw, const struct ssdsim__die *die)
{
    return ssdsim__hw_first_class(hw, die, q_any(hw, die, SSDSIM__CLASS_READ),
                                  die->susp != SSDSIM__NONE || q_any(hw, die, SSDSIM__CLASS_WRITE),
                                  ssdsim__engine_now(hw->engine));
}

/* Start the next queued op on an idle die, reads first (not for ever: next_class). */
static void nand_dispatch(struct ssdsim__hw *hw, uint32_t d)
{
    struct ssdsim__die *die = &hw->dies[d];
    if (SSDSIM__UNLIKELY(die->held_blk != SSDSIM__NONE))
        ssdsim__unit_dispatch(hw, d);
    ssdsim__hw_w_start(die, ssdsim__engine_now(hw->engine));
    uint32_t cls = next_class(hw, die);
    if (cls == SSDSIM__CLASS_WRITE && die->susp != SSDSIM__NONE) {
        die_resume(hw, d); /* every host read served */
        return;
    }
    uint32_t i = die_pop(hw, d, cls);
    while (i != SSDSIM__NONE && cls == SSDSIM__CLASS_READ && cache_hit(hw, die, i)) {
        cls = next_class(hw, die);
        if (cls == SSDSIM__CLASS_WRITE && die->susp != SSDSIM__NONE) {
            die_resume(hw, d);
            return;
        }
        i = die_pop(hw, d, cls);
    }
    if (i == SSDSIM__NONE) {
        die->cache_seq = false;
        ssdsim__hw_set_idle(hw, d, true);
        if (die->held_blk != SSDSIM__NONE)
            ssdsim__unit_die_empty(hw, d);
        return;
    }
    struct ssdsim__flash_op *op = &hw->ops[i];
    op->next = SSDSIM__NONE;
    ssdsim__hw_set_idle(hw, d, false);
    uint32_t n = hw->pq ? gather(hw, d, cls, i) : 1;
    die_start(hw, d, i, n, false);
}

void ssdsim__nand_start_held(struct ssdsim__hw *hw, uint32_t d)
{
    uint32_t i = hw->dies[d].cur, n = 0;
    for (uint32_t j = i; j != SSDSIM__NONE; j = hw->ops[j].next)
        n++;
    die_start(hw, d, i, n, true);
}

/* The pages of read group cur go out over the bus one after the other, each completing when it
 * is out. From the cache register (cached), the die is free at once; otherwise when the last
 * page is out. */
static void die_data_out(struct ssdsim__hw *hw, uint32_t d, bool cached)
{
    struct ssdsim__die *die = &hw->dies[d];
    uint64_t now = ssdsim__engine_now(hw->engine);
    uint32_t i = die->cur;
    uint64_t col = hw->ops[i].next != SSDSIM__NONE ? CYC_COLUMN * hw->model->flash.cmd_cycle_ns : 0;
    uint64_t last = now;
    for (uint32_t j = i; j != SSDSIM__NONE;) {
        struct ssdsim__flash_op *o = &hw->ops[j];
        uint32_t nx = o->next;
        uint64_t end = o->bytes ? ssdsim__hw_bus_book(hw, die->channel, now,
                                                      col + ssdsim__hw_bus_ns(hw, o->bytes))
                                : now;
        last = SSDSIM__MAX(last, end);
        ssdsim__engine_schedule(hw->engine, end, op_event, hw, j);
        j = nx;
    }
    die_busy(hw, die, now, last);
    if (cached) {
        die->cache_free_ns = last;
        die->cur = SSDSIM__NONE;
        die->cache_seq = true; /* a read started now is a cache read (31h) */
        nand_dispatch(hw, d);
    } else {
        die->step = STEP_RELEASE;
        ssdsim__engine_schedule(hw->engine, last, nand_event, hw, d);
    }
}

/* The suspend latency is over: park cur and serve the host reads. */
static void die_suspend(struct ssdsim__hw *hw, uint32_t d)
{
    struct ssdsim__die *die = &hw->dies[d];
    uint64_t now = ssdsim__engine_now(hw->engine);
    die->remaining_ns = die->done_ns - now;
    die->susp = die->cur;
    die->cur = SSDSIM__NONE;
    die->w_since = now; /* it waits from now, as a write first in the queue would */
    die->n_suspends++;
    hw->n_suspends++;
    nand_dispatch(hw, d);
}

/* A host read was queued on die d while cur runs: suspend cur if it is a program or erase in
 * its array time that would still run past the suspend latency. */
static void try_suspend(struct ssdsim__hw *hw, uint32_t d)
{
    struct ssdsim__die *die = &hw->dies[d];
    const struct ssdsim__flash *f = &hw->model->flash;
    if (die->step != STEP_ARRAY || hw->ops[die->cur].kind == SSDSIM__FLASH_READ ||
        die->n_suspends >= f->max_suspends)
        return;
    uint64_t at = SSDSIM__MAX(ssdsim__engine_now(hw->engine), die->arr_start_ns) + f->suspend_ns;
    if (at >= die->done_ns)
        return;
    ssdsim__engine_cancel(hw->engine, die->timer);
    die->timer = 0;
    die->step = STEP_SUSPEND;
    ssdsim__engine_schedule(hw->engine, at, nand_event, hw, d);
}

/* Copyback: GC program `i` of the page die->cb_src holds, to the same plane. */
static void copyback_program(struct ssdsim__hw *hw, uint32_t d, uint32_t i)
{
    struct ssdsim__die *die = &hw->dies[d];
    struct ssdsim__flash_op *op = &hw->ops[i];
    const struct ssdsim__flash *f = &hw->model->flash;
    uint64_t now = ssdsim__engine_now(hw->engine);
    die->cb_hold = false;
    op->next = SSDSIM__NONE;
    die->cur = i;
    uint64_t t = now;
    uint32_t ppb = hw->pages_per_block;
    if (f->copyback_parity && (die->cb_src % ppb) % 2 != (op->addr % ppb) % 2) {
        /* Not allowed between these pages: out to the controller and back in, the data
         * passing its write path again (its time taken from when the path is free, without
         * waiting for it: the die holds the page meanwhile) */
        ssdsim__hw_wpath_take(hw, SSDSIM__MAX(now, hw->wpath_free), op->bytes);
        t = ssdsim__hw_bus_book(hw, die->channel, t, ssdsim__hw_bus_ns(hw, op->bytes));
        t = ssdsim__hw_bus_book(hw, die->channel, t,
                                CYC_PROGRAM * f->cmd_cycle_ns +
                                    ssdsim__hw_data_in_ns(hw, op->bytes));
    } else {
        if (f->cmd_cycle_ns)
            t = ssdsim__hw_bus_book(hw, die->channel, t, CYC_COPYBACK * f->cmd_cycle_ns);
        hw->n_copybacks++;
    }
    die->n_suspends = 0;
    die->arr_start_ns = t;
    die->done_ns = t + ssdsim__hw_program_ns(hw, op);
    die_busy(hw, die, now, die->done_ns);
    schedule_end(hw, d, die->done_ns, true);
}

/* Cache read: read group i's page is in the cache register now (by tRCBSY, or as a plain
 * read's data goes out of it): a later read of another of its units finds it there (one page;
 * not a multi-plane group's). */
static void cache_holds(struct ssdsim__hw *hw, struct ssdsim__die *die, uint32_t i)
{
    if (hw->spp > 1)
        die->cache_page = hw->ops[i].next == SSDSIM__NONE && !copyback_read(hw, &hw->ops[i])
                              ? hw->ops[i].addr >> hw->slot_shift
                              : SSDSIM__NONE;
}

static void nand_event(void *ctx, uint32_t arg)
{
    struct ssdsim__hw *hw = ctx;
    uint32_t d = (uint32_t)arg;
    struct ssdsim__die *die = &hw->dies[d];
    uint32_t i = die->cur;
    uint64_t now = ssdsim__engine_now(hw->engine);
    switch (die->step) {
    case STEP_RELEASE:
        die->cur = SSDSIM__NONE;
        nand_dispatch(hw, d);
        return;
    case STEP_SUSPEND:
        die_suspend(hw, d);
        return;
    case STEP_CACHE:
        cache_holds(hw, die, i);
        die_data_out(hw, d, true);
        return;
    default:
        break;
    }
    struct ssdsim__flash_op *op = &hw->ops[i];
    if (die->step == STEP_ARRAY && op->kind == SSDSIM__FLASH_READ) {
        const struct ssdsim__flash *f = &hw->model->flash;
        if (f->cache_read && !copyback_read(hw, op) &&
            (die->cache_seq || q_any(hw, die, SSDSIM__CLASS_READ))) {
            /* To the cache register once the previous page is out of it: the next read
             * starts meanwhile (31h), or this one ends a sequence of cache reads (3Fh). A
             * read with none before or after it is a plain page read (00h-30h): its data
             * goes out of the register without tRCBSY, and the die is free after it. */
            uint64_t at = SSDSIM__MAX(now, die->cache_free_ns) + f->rcbsy_ns;
            die_busy(hw, die, now, at);
            for (uint32_t j = i; j != SSDSIM__NONE; j = hw->ops[j].next)
                hw->n_cache_reads++;
            die->step = STEP_CACHE;
            ssdsim__engine_schedule(hw->engine, at, nand_event, hw, d);
            return;
        }
        if (f->cache_read && !copyback_read(hw, op))
            cache_holds(hw, die, i);
        if (op->next != SSDSIM__NONE) {
            die_data_out(hw, d, false);
            return;
        }
        if (copyback_read(hw, op)) {
            /* The page stays in the register while the FTL answers (ssdsim__hw_submit). */
            die->cur = SSDSIM__NONE;
            die->cb_hold = true;
            die->cb_src = op->addr;
            ssdsim__hw_complete(hw, i);
            if (die->cb_hold) {
                die->cb_hold = false;
                nand_dispatch(hw, d);
            }
            return;
        }
        if (op->bytes > 0) {
            /* The page is in the register: move the requested bytes out over the bus. */
            uint64_t end =
                ssdsim__hw_bus_book(hw, die->channel, now, ssdsim__hw_bus_ns(hw, op->bytes));
            die->step = STEP_OUT;
            die_busy(hw, die, now, end);
            ssdsim__engine_schedule(hw->engine, end, nand_event, hw, d);
            return;
        }
    }
    die->cur = SSDSIM__NONE;
    for (uint32_t j = i; j != SSDSIM__NONE;) {
        uint32_t nx = hw->ops[j].next;
        ssdsim__hw_complete(hw, j);
        j = nx;
    }
    if (die->cur == SSDSIM__NONE && !die->cb_hold)
        nand_dispatch(hw, d);
}

void ssdsim__nand_submit(struct ssdsim__hw *hw, uint32_t i)
{
    struct ssdsim__flash_op *op = &hw->ops[i];
    uint32_t block = op_block(hw, op);
    uint32_t plane = ssdsim__hw_block_plane(hw, block);
    uint32_t d = ssdsim__hw_plane_die(hw, plane);
    struct ssdsim__die *die = &hw->dies[d];
    if (die->cb_hold && op->kind == SSDSIM__FLASH_PROGRAM && ssdsim__hw_for_gc(op) &&
        ssdsim__hw_block_plane(hw, die->cb_src / hw->pages_per_block) == plane) {
        copyback_program(hw, d, i);
        return;
    }
    uint32_t cls = op->cls;
    op->next = SSDSIM__NONE;
    if (hw->pq) {
        if (!pq_push(hw, d, cls, i))
            return;
    } else {
        ssdsim__hw_die_append(hw, die, cls, i);
    }
    if (die->cur == SSDSIM__NONE) {
        if (!die->cb_hold && !die->padding)
            nand_dispatch(hw, d);
    } else if (cls == SSDSIM__CLASS_READ && hw->model->flash.suspend) {
        try_suspend(hw, d);
    }
}
