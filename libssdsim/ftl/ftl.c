/* ftl.c: page-mapped FTL: mapping updates, write allocation over dies and planes, foreground
 * greedy garbage collection, TRIM, read-modify-write of partial units.
 *
 * The mapping changes when a write is allocated, not when its program completes: a read that
 * arrives in between is served from the new location's die, which is where a controller with
 * the data still in its buffers would find it first. GC checks, when each copy's read returns,
 * that the page is still valid, so data overwritten meanwhile is not copied.
 */
#include "ftl/ftl.h"

#include <stdlib.h>
#include <string.h>

#define NONE SSDSIM__NONE

static void gc_start(struct ssdsim__ftl *ftl, uint32_t plane);

int ssdsim__ftl_init(struct ssdsim__ftl *ftl, const struct ssdsim_model *m, struct ssdsim__hw *hw,
                     ssdsim__unit_done_fn unit_done, void *ctx)
{
    memset(ftl, 0, sizeof *ftl);
    ftl->model = m;
    ftl->hw = hw;
    ftl->engine = hw->engine;
    ftl->unit_done = unit_done;
    ftl->unit_done_ctx = ctx;
    ftl->ppb = m->geometry.pages_per_block;
    ftl->page_size = m->geometry.page_size;
    ftl->n_ppn = hw->n_pages;
    ftl->n_lpn = ssdsim__model_logical_pages(m);
    ftl->gc_min = m->gc.free_blocks_min;
    ftl->stall_head = ftl->stall_tail = NONE;

    uint64_t nb = hw->n_blocks;
    ftl->l2p = malloc(sizeof *ftl->l2p * ftl->n_lpn);
    ftl->p2l = malloc(sizeof *ftl->p2l * ftl->n_ppn);
    ftl->valid = calloc(nb, sizeof *ftl->valid);
    ftl->erase_count = calloc(nb, sizeof *ftl->erase_count);
    ftl->state = calloc(nb, sizeof *ftl->state);
    ftl->free_next = malloc(sizeof *ftl->free_next * nb);
    ftl->planes = calloc(hw->n_planes, sizeof *ftl->planes);
    ftl->die_plane_cursor = calloc(hw->n_dies, sizeof *ftl->die_plane_cursor);
    if (!ftl->l2p || !ftl->p2l || !ftl->valid || !ftl->erase_count || !ftl->state ||
        !ftl->free_next || !ftl->planes || !ftl->die_plane_cursor)
        goto fail;
    if (ssdsim__gc_buckets_init(&ftl->buckets, hw->n_planes, hw->blocks_per_plane, ftl->ppb))
        goto fail;
    memset(ftl->l2p, 0xff, sizeof *ftl->l2p * ftl->n_lpn);
    memset(ftl->p2l, 0xff, sizeof *ftl->p2l * ftl->n_ppn);

    /* Secure-erased: every block free, in address order on its plane's free list. */
    for (uint32_t p = 0; p < hw->n_planes; p++) {
        struct ssdsim__plane *pl = &ftl->planes[p];
        uint32_t first = p * hw->blocks_per_plane;
        for (uint32_t b = 0; b < hw->blocks_per_plane; b++)
            ftl->free_next[first + b] = b + 1 < hw->blocks_per_plane ? first + b + 1 : NONE;
        pl->free_head = first;
        pl->free_tail = first + hw->blocks_per_plane - 1;
        pl->n_free = hw->blocks_per_plane;
        pl->host_blk = pl->gc_blk = pl->victim = NONE;
        pl->host_ptr = pl->gc_ptr = ftl->ppb;
    }
    ftl->n_free_blocks = nb;
    return 0;
fail:
    ssdsim__ftl_fini(ftl);
    return SSDSIM_ENOMEM;
}

void ssdsim__ftl_fini(struct ssdsim__ftl *ftl)
{
    free(ftl->l2p);
    free(ftl->p2l);
    free(ftl->valid);
    free(ftl->erase_count);
    free(ftl->state);
    free(ftl->free_next);
    free(ftl->planes);
    free(ftl->die_plane_cursor);
    ssdsim__gc_buckets_fini(&ftl->buckets);
    memset(ftl, 0, sizeof *ftl);
}

/* ---------------------------------------------------------------- blocks and mapping */

static uint32_t take_free_block(struct ssdsim__ftl *ftl, uint32_t plane)
{
    struct ssdsim__plane *pl = &ftl->planes[plane];
    uint32_t b = pl->free_head;
    assert(b != NONE);
    pl->free_head = ftl->free_next[b];
    if (pl->free_head == NONE)
        pl->free_tail = NONE;
    pl->n_free--;
    ftl->n_free_blocks--;
    ftl->state[b] = SSDSIM__BLK_OPEN;
    return b;
}

static void put_free_block(struct ssdsim__ftl *ftl, uint32_t b)
{
    struct ssdsim__plane *pl = &ftl->planes[ssdsim__hw_block_plane(ftl->hw, b)];
    ftl->free_next[b] = NONE;
    if (pl->free_tail == NONE)
        pl->free_head = b;
    else
        ftl->free_next[pl->free_tail] = b;
    pl->free_tail = b;
    pl->n_free++;
    ftl->n_free_blocks++;
    ftl->state[b] = SSDSIM__BLK_FREE;
}

/* A frontier block got its last page: it becomes a GC candidate. */
static void close_block(struct ssdsim__ftl *ftl, uint32_t b)
{
    ftl->state[b] = SSDSIM__BLK_CLOSED;
    ssdsim__gc_buckets_insert(&ftl->buckets, b, ftl->valid[b]);
}

static void invalidate(struct ssdsim__ftl *ftl, uint32_t ppn)
{
    uint32_t b = ppn / ftl->ppb;
    ftl->p2l[ppn] = NONE;
    ftl->valid[b]--;
    if (ftl->state[b] == SSDSIM__BLK_CLOSED)
        ssdsim__gc_buckets_dec(&ftl->buckets, b, ftl->valid[b]);
}

/* Map lpn to ppn. `old` is the current location when the caller knows it (a GC copy, checked
 * through p2l), which spares a load from l2p: that array is far larger than the caches, and the
 * load was the single most expensive instruction of a GC copy. NONE means "look it up". */
static void map(struct ssdsim__ftl *ftl, uint32_t lpn, uint32_t ppn, uint32_t old)
{
    if (old == NONE)
        old = ftl->l2p[lpn];
    if (old != NONE)
        invalidate(ftl, old);
    ftl->l2p[lpn] = ppn;
    ftl->p2l[ppn] = lpn;
    ftl->valid[ppn / ftl->ppb]++;
}

/* Can `plane` take a host page now? One free block stays reserved for GC. */
static inline bool plane_accepts_host(const struct ssdsim__ftl *ftl, uint32_t plane)
{
    const struct ssdsim__plane *pl = &ftl->planes[plane];
    return pl->host_ptr < ftl->ppb || pl->n_free > 1;
}

/* Take the next page of a plane's host or GC frontier, opening a free block when it is full. */
static uint32_t frontier_page(struct ssdsim__ftl *ftl, uint32_t plane, bool gc)
{
    struct ssdsim__plane *pl = &ftl->planes[plane];
    uint32_t *blk = gc ? &pl->gc_blk : &pl->host_blk;
    uint32_t *ptr = gc ? &pl->gc_ptr : &pl->host_ptr;
    if (*ptr >= ftl->ppb) {
        *blk = take_free_block(ftl, plane);
        *ptr = 0;
    }
    return *blk * ftl->ppb + (*ptr)++;
}

static uint32_t try_die(struct ssdsim__ftl *ftl, uint32_t die)
{
    uint32_t ppd = ftl->hw->planes_per_die;
    for (uint32_t j = 0; j < ppd; j++) {
        uint32_t p = die * ppd + (ftl->die_plane_cursor[die] + j) % ppd;
        if (plane_accepts_host(ftl, p)) {
            ftl->die_plane_cursor[die] = (p % ppd + 1) % ppd;
            ftl->die_cursor = (die + 1) % ftl->hw->n_dies;
            return p;
        }
    }
    return NONE;
}

/* Choose a plane for a host page: an idle die first (in turn from the cursor), else the next
 * die in turn that has a plane with room; planes of a die in turn. NONE when no plane can take
 * it now. Finding idle dies is a bitmap scan, not a walk over all dies. */
static uint32_t choose_plane(struct ssdsim__ftl *ftl)
{
    struct ssdsim__hw *hw = ftl->hw;
    uint32_t n = hw->n_dies, start = ftl->die_cursor;
    uint32_t d = ssdsim__hw_next_idle_die(hw, start);
    uint32_t dist = d == NONE ? 0 : (d + n - start) % n;
    while (d != NONE) {
        uint32_t p = try_die(ftl, d);
        if (p != NONE)
            return p;
        uint32_t nd = ssdsim__hw_next_idle_die(hw, (d + 1) % n);
        uint32_t ndist = nd == NONE ? 0 : (nd + n - start) % n;
        if (nd == NONE || ndist <= dist)
            break; /* wrapped around */
        d = nd;
        dist = ndist;
    }
    for (uint32_t k = 0; k < n; k++) {
        uint32_t p = try_die(ftl, (start + k) % n);
        if (p != NONE)
            return p;
    }
    return NONE;
}

/* ---------------------------------------------------------------- host operations */

static void issue_program(struct ssdsim__ftl *ftl, uint32_t op_i, uint32_t plane, bool gc)
{
    struct ssdsim__flash_op *op = ssdsim__hw_op(ftl->hw, op_i);
    uint32_t ppn = frontier_page(ftl, plane, gc);
    /* A GC copy's owner is the page it was read from, still valid (gc_read_done checked). */
    map(ftl, op->lpn, ppn, gc ? op->owner : NONE);
    /* Counted when the page is allocated, like host pages and GC copies, so that
     * programmed = host + copied holds at every instant, in-flight programs included. */
    ftl->c.flash_pages_programmed++;
    /* Close the block only after its last page is mapped, so it enters the bucket of its
     * true valid count. */
    if (ppn % ftl->ppb == ftl->ppb - 1)
        close_block(ftl, ppn / ftl->ppb);
    op->kind = SSDSIM__FLASH_PROGRAM;
    op->cls = SSDSIM__CLASS_WRITE;
    op->addr = ppn;
    op->bytes = ftl->page_size;
    ssdsim__hw_submit(ftl->hw, op_i);
    struct ssdsim__plane *pl = &ftl->planes[plane];
    if (pl->n_free < ftl->gc_min && pl->victim == NONE)
        gc_start(ftl, plane);
}

/* Place a host program, or park it until GC frees a block. */
static void host_program(struct ssdsim__ftl *ftl, uint32_t op_i)
{
    uint32_t plane = ftl->n_stalled ? NONE : choose_plane(ftl);
    if (plane == NONE) {
        struct ssdsim__flash_op *op = ssdsim__hw_op(ftl->hw, op_i);
        op->next = NONE;
        if (ftl->stall_tail == NONE)
            ftl->stall_head = op_i;
        else
            ssdsim__hw_op(ftl->hw, ftl->stall_tail)->next = op_i;
        ftl->stall_tail = op_i;
        ftl->n_stalled++;
        return;
    }
    ftl->c.host_pages_written++;
    issue_program(ftl, op_i, plane, false);
}

static void unstall(struct ssdsim__ftl *ftl)
{
    while (ftl->stall_head != NONE) {
        uint32_t plane = choose_plane(ftl);
        if (plane == NONE)
            return;
        uint32_t op_i = ftl->stall_head;
        ftl->stall_head = ssdsim__hw_op(ftl->hw, op_i)->next;
        if (ftl->stall_head == NONE)
            ftl->stall_tail = NONE;
        ftl->n_stalled--;
        ftl->c.host_pages_written++;
        issue_program(ftl, op_i, plane, false);
    }
}

static uint32_t new_op(struct ssdsim__ftl *ftl, uint8_t purpose, uint32_t lpn, uint32_t owner,
                       uint32_t bytes)
{
    uint32_t i = ssdsim__hw_op_alloc(ftl->hw);
    if (i == NONE)
        return NONE;
    struct ssdsim__flash_op *op = ssdsim__hw_op(ftl->hw, i);
    op->purpose = purpose;
    op->lpn = lpn;
    op->owner = owner;
    op->bytes = bytes;
    return i;
}

static void submit_read(struct ssdsim__ftl *ftl, uint32_t op_i, uint32_t ppn, uint8_t cls)
{
    struct ssdsim__flash_op *op = ssdsim__hw_op(ftl->hw, op_i);
    op->kind = SSDSIM__FLASH_READ;
    op->cls = cls;
    op->addr = ppn;
    ftl->c.flash_reads++;
    ssdsim__hw_submit(ftl->hw, op_i);
}

int ssdsim__ftl_read(struct ssdsim__ftl *ftl, uint32_t io, uint64_t lpn, uint32_t bytes)
{
    uint32_t ppn = ftl->l2p[lpn];
    if (ppn == NONE) {
        /* Never written (or trimmed): the controller answers zeros without touching flash. */
        ftl->c.unmapped_reads++;
        ftl->unit_done(ftl->unit_done_ctx, io, bytes);
        return 0;
    }
    uint32_t op = new_op(ftl, SSDSIM__P_HOST_READ, (uint32_t)lpn, io, bytes);
    if (op == NONE)
        return SSDSIM_ENOMEM;
    submit_read(ftl, op, ppn, SSDSIM__CLASS_READ);
    return 0;
}

int ssdsim__ftl_write(struct ssdsim__ftl *ftl, uint32_t io, uint64_t lpn, uint32_t bytes)
{
    uint32_t ppn = ftl->l2p[lpn];
    bool partial = bytes < ftl->page_size;
    uint32_t op = new_op(ftl, partial && ppn != NONE ? SSDSIM__P_RMW_READ : SSDSIM__P_HOST_PROG,
                         (uint32_t)lpn, io, bytes);
    if (op == NONE)
        return SSDSIM_ENOMEM;
    if (partial && ppn != NONE) {
        /* The rest of the unit must be read before the whole unit is programmed again. */
        ssdsim__hw_op(ftl->hw, op)->bytes = ftl->page_size;
        submit_read(ftl, op, ppn, SSDSIM__CLASS_READ);
    } else {
        host_program(ftl, op);
    }
    return 0;
}

void ssdsim__ftl_trim(struct ssdsim__ftl *ftl, uint64_t lpn)
{
    uint32_t ppn = ftl->l2p[lpn];
    if (ppn != NONE) {
        invalidate(ftl, ppn);
        ftl->l2p[lpn] = NONE;
    }
}

/* ---------------------------------------------------------------- garbage collection */

static void gc_erase(struct ssdsim__ftl *ftl, uint32_t plane)
{
    struct ssdsim__plane *pl = &ftl->planes[plane];
    uint32_t op = new_op(ftl, SSDSIM__P_GC_ERASE, NONE, plane, 0);
    assert(op != NONE); /* pool growth failure is handled by the engine's oom flag below */
    if (op == NONE) {
        ftl->engine->oom = ftl->engine->stopped = true;
        return;
    }
    struct ssdsim__flash_op *o = ssdsim__hw_op(ftl->hw, op);
    o->kind = SSDSIM__FLASH_ERASE;
    o->cls = SSDSIM__CLASS_WRITE;
    o->addr = pl->victim;
    ssdsim__hw_submit(ftl->hw, op);
}

static void gc_start(struct ssdsim__ftl *ftl, uint32_t plane)
{
    struct ssdsim__plane *pl = &ftl->planes[plane];
    uint32_t valid;
    uint32_t b = ssdsim__gc_greedy_victim(&ftl->buckets, plane, &valid);
    if (b == NONE || valid >= ftl->ppb)
        return; /* nothing to gain on this plane now */
    ssdsim__gc_buckets_remove(&ftl->buckets, b, valid);
    ftl->state[b] = SSDSIM__BLK_VICTIM;
    pl->victim = b;
    pl->gc_reads = 0;
    ftl->c.gc_victims++;
    uint32_t first = b * ftl->ppb;
    for (uint32_t i = 0; i < ftl->ppb && pl->gc_reads < valid; i++) {
        uint32_t lpn = ftl->p2l[first + i];
        if (lpn == NONE)
            continue;
        uint32_t op = new_op(ftl, SSDSIM__P_GC_READ, lpn, first + i, ftl->page_size);
        if (op == NONE) {
            ftl->engine->oom = ftl->engine->stopped = true;
            return;
        }
        pl->gc_reads++;
        submit_read(ftl, op, first + i, SSDSIM__CLASS_WRITE);
    }
    if (pl->gc_reads == 0)
        gc_erase(ftl, plane);
}

static void gc_read_done(struct ssdsim__ftl *ftl, uint32_t op_i)
{
    struct ssdsim__flash_op *op = ssdsim__hw_op(ftl->hw, op_i);
    uint32_t old = op->owner;
    uint32_t plane = ssdsim__hw_block_plane(ftl->hw, old / ftl->ppb);
    struct ssdsim__plane *pl = &ftl->planes[plane];
    if (ftl->p2l[old] == op->lpn) {
        /* Still valid: write it to the GC frontier of the same plane. */
        op->purpose = SSDSIM__P_GC_PROG;
        ftl->c.gc_pages_copied++;
        issue_program(ftl, op_i, plane, true);
    } else {
        ssdsim__hw_op_free(ftl->hw, op_i);
    }
    if (--pl->gc_reads == 0) {
        assert(ftl->valid[pl->victim] == 0);
        gc_erase(ftl, plane);
    }
}

static void gc_erase_done(struct ssdsim__ftl *ftl, uint32_t plane)
{
    struct ssdsim__plane *pl = &ftl->planes[plane];
    uint32_t b = pl->victim;
    ftl->erase_count[b]++;
    ftl->c.blocks_erased++;
    put_free_block(ftl, b);
    pl->victim = NONE;
    unstall(ftl);
    if (pl->n_free < ftl->gc_min && pl->victim == NONE)
        gc_start(ftl, plane);
}

void ssdsim__ftl_flash_done(void *ctx, uint32_t op_i)
{
    struct ssdsim__ftl *ftl = ctx;
    struct ssdsim__flash_op *op = ssdsim__hw_op(ftl->hw, op_i);
    switch (op->purpose) {
    case SSDSIM__P_HOST_READ: {
        uint32_t io = op->owner, bytes = op->bytes;
        ssdsim__hw_op_free(ftl->hw, op_i);
        ftl->unit_done(ftl->unit_done_ctx, io, bytes);
        break;
    }
    case SSDSIM__P_HOST_PROG: {
        uint32_t io = op->owner;
        ssdsim__hw_op_free(ftl->hw, op_i);
        ftl->unit_done(ftl->unit_done_ctx, io, 0);
        break;
    }
    case SSDSIM__P_RMW_READ:
        op->purpose = SSDSIM__P_HOST_PROG;
        host_program(ftl, op_i);
        break;
    case SSDSIM__P_GC_READ:
        gc_read_done(ftl, op_i);
        break;
    case SSDSIM__P_GC_PROG:
        ssdsim__hw_op_free(ftl->hw, op_i);
        break;
    case SSDSIM__P_GC_ERASE: {
        uint32_t plane = op->owner;
        ssdsim__hw_op_free(ftl->hw, op_i);
        gc_erase_done(ftl, plane);
        break;
    }
    default:
        assert(!"unknown flash op purpose");
    }
}

/* ---------------------------------------------------------------- inspection */

void ssdsim__ftl_erase_summary(const struct ssdsim__ftl *ftl, uint64_t *min, double *mean,
                               uint64_t *max)
{
    uint64_t lo = UINT64_MAX, hi = 0, sum = 0, n = ftl->hw->n_blocks;
    for (uint64_t b = 0; b < n; b++) {
        uint64_t e = ftl->erase_count[b];
        lo = e < lo ? e : lo;
        hi = e > hi ? e : hi;
        sum += e;
    }
    *min = n ? lo : 0;
    *max = hi;
    *mean = n ? (double)sum / (double)n : 0.0;
}

int ssdsim__ftl_check(const struct ssdsim__ftl *ftl)
{
    uint64_t nb = ftl->hw->n_blocks, n_free = 0;
    for (uint64_t lpn = 0; lpn < ftl->n_lpn; lpn++) {
        uint32_t ppn = ftl->l2p[lpn];
        if (ppn != NONE && (ppn >= ftl->n_ppn || ftl->p2l[ppn] != lpn))
            return -1;
    }
    for (uint64_t b = 0; b < nb; b++) {
        uint32_t v = 0;
        for (uint32_t i = 0; i < ftl->ppb; i++) {
            uint32_t lpn = ftl->p2l[b * ftl->ppb + i];
            if (lpn != NONE) {
                if (lpn >= ftl->n_lpn || ftl->l2p[lpn] != b * ftl->ppb + i)
                    return -2;
                v++;
            }
        }
        if (v != ftl->valid[b])
            return -3;
        if (ftl->state[b] == SSDSIM__BLK_FREE) {
            if (v)
                return -4;
            n_free++;
        }
    }
    if (n_free != ftl->n_free_blocks)
        return -5;
    return 0;
}
