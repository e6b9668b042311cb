/* reclaim.c: what the controller does about bit errors beyond decoding one read (issue 16,
 * items 2 and 3): rebuilding an uncorrectable read from its RAIN stripe, read reclaim and patrol
 * reads.
 *
 * Reconstruction (ftl.parity_group = g > 1): the uncorrectable read's completion waits for the
 * reads of the stripe's other g - 1 members (g - 2 data pages and the parity page), which run
 * on the g - 1 dies after the read's, at the same plane, block and page offset of each: close to
 * where the page FTL puts them (ftl/page_super.c: the same block of other dies, the same or a
 * neighbouring page row), so this is where their reads are timed, not their exact pages. Each member read is a
 * full tR and data out, queued with host reads; its own errors are not drawn. When the last is
 * out the read completes as rebuilt.
 *
 * Read reclaim: a read whose RBER gives more than reliability.reclaim_threshold x ecc_t expected
 * errors per codeword asks the FTL to move the block (the page FTL and DFTL: their GC collects
 * it next on its plane, ftl/page_gc.c, or with RAIN its superblock next, ftl/page_super.c; its
 * copies are programs, so in WAF). Asked once per
 * block between erases; an FTL without the hook is never asked. Rate limit: at most
 * reliability.reclaim_max_blocks blocks asked per reliability.reclaim_period_us of simulated time
 * (fixed periods from time 0); a block the limit turns away is asked again by a later read of it
 * (so a worn, aged drive refreshes its data over time instead of all at once, a refresh storm).
 *
 * Patrol reads (reliability.patrol_interval_us): while no host command is inside the device,
 * one page read per interval, each the first page of the next block holding data (in block
 * order, wrapping). A patrol read is decoded like any read (its retries are counted) and so may
 * ask for its block's reclaim; it is queued behind host reads, and the next is due an interval
 * after it completes.
 */
#include "rel/rel.h"

#include "hw/hw.h"

#include <stdlib.h>

static void patrol_event(void *ctx, uint32_t arg);

void ssdsim__rel_want_recon(struct ssdsim__rel *r, uint32_t op)
{
    uint32_t slot = 0;
    while (slot < r->n_rc && r->rc[slot].op != SSDSIM__NONE)
        slot++;
    if (slot == r->n_rc) {
        if (r->n_rc == r->cap_rc) {
            uint32_t cap = r->cap_rc ? r->cap_rc * 2 : 16;
            struct ssdsim__rel_recon *v = realloc(r->rc, sizeof *v * cap);
            if (!v)
                return; /* out of memory: the read completes unrebuilt, counted uncorrectable */
            r->rc = v;
            r->cap_rc = cap;
        }
        r->n_rc++;
    }
    r->rc[slot] = (struct ssdsim__rel_recon){.op = op, .left = 0};
}

/* Start the member reads of reconstruction `slot`, whose read `i` has just finished. */
static void recon_start(struct ssdsim__rel *r, uint32_t slot, uint32_t i)
{
    struct ssdsim__hw *hw = r->hw;
    uint32_t ppb = hw->pages_per_block;
    uint32_t addr = hw->ops[i].addr, bytes = hw->ops[i].bytes;
    uint32_t block = addr / ppb, page = addr % ppb;
    uint32_t plane = block / hw->blocks_per_plane, bip = block % hw->blocks_per_plane;
    uint32_t die = plane / hw->planes_per_die, pid = plane % hw->planes_per_die;
    uint32_t members = r->group - 1, started = 0;
    r->rc[slot].left = members;
    for (uint32_t k = 1; k <= members; k++) {
        uint32_t d = (die + k) % hw->n_dies;
        uint32_t b = (d * hw->planes_per_die + pid) * hw->blocks_per_plane + bip;
        uint32_t j = ssdsim__hw_op_alloc(hw);
        if (j == SSDSIM__NONE)
            break;
        struct ssdsim__flash_op *o = &hw->ops[j];
        o->kind = SSDSIM__FLASH_READ;
        o->cls = SSDSIM__CLASS_READ;
        o->purpose = (uint8_t)SSDSIM__FOR_REL_RECON;
        o->addr = b * ppb + page;
        o->bytes = bytes;
        o->cookie = slot;
        r->n.recon_reads++;
        started++;
        ssdsim__hw_submit(hw, j);
    }
    r->rc[slot].left -= members - started; /* those that could not start (out of memory) */
    if (r->rc[slot].left == 0) {
        r->rc[slot].op = SSDSIM__NONE;
        hw->on_done(hw->on_done_ctx, i);
    }
}

static void patrol_done(struct ssdsim__rel *r)
{
    r->patrol_inflight = false;
    if (r->patrol_idle && !r->patrol_timer)
        r->patrol_timer = ssdsim__engine_schedule_cancellable(
            r->hw->engine, ssdsim__engine_now(r->hw->engine) + r->p->patrol_ns, patrol_event, r,
            0);
}

bool ssdsim__rel_complete(struct ssdsim__hw *hw, uint32_t i)
{
    struct ssdsim__rel *r = hw->rel;
    struct ssdsim__flash_op *op = &hw->ops[i];
    if (op->purpose == SSDSIM__FOR_REL_PATROL) {
        ssdsim__hw_op_free(hw, i);
        patrol_done(r);
        return true;
    }
    if (op->purpose == SSDSIM__FOR_REL_RECON) {
        uint32_t slot = (uint32_t)op->cookie;
        ssdsim__hw_op_free(hw, i);
        if (--r->rc[slot].left == 0) {
            uint32_t orig = r->rc[slot].op;
            r->rc[slot].op = SSDSIM__NONE;
            r->n.reconstructed++;
            hw->on_done(hw->on_done_ctx, orig);
        }
        return true;
    }
    for (uint32_t s = 0; s < r->n_rc; s++) {
        if (r->rc[s].op == i && r->rc[s].left == 0) {
            recon_start(r, s, i);
            return true;
        }
    }
    return false;
}

void ssdsim__rel_ask_reclaim(struct ssdsim__rel *r, uint32_t block, uint64_t now)
{
    if (!r->reclaim || !r->ftl_state || !*r->ftl_state)
        return;
    const struct ssdsim__errmodel *e = r->p;
    if (e->reclaim_max && e->reclaim_period_ns) {
        uint64_t w = now / e->reclaim_period_ns;
        if (w != r->rc_window) {
            r->rc_window = w;
            r->rc_used = 0;
        }
        if (r->rc_used >= e->reclaim_max)
            return; /* over the rate limit: a later read of the block asks again */
    }
    if (r->reclaim(*r->ftl_state, block) == 0) {
        r->blk[block].asked = true;
        r->n.reclaim_asked++;
        r->rc_used++;
    }
}

void ssdsim__rel_reclaim_started(struct ssdsim__rel *r)
{
    r->n.reclaimed++;
}

static void patrol_event(void *ctx, uint32_t arg)
{
    (void)arg;
    struct ssdsim__rel *r = ctx;
    struct ssdsim__hw *hw = r->hw;
    r->patrol_timer = 0;
    if (!r->patrol_idle || r->patrol_inflight)
        return;
    uint64_t b = r->patrol_next;
    for (uint64_t k = 0; k < r->n_blocks; k++, b = (b + 1) % r->n_blocks) {
        if (r->blk[b].prog_ns == INT64_MAX)
            continue;
        uint32_t j = ssdsim__hw_op_alloc(hw);
        if (j == SSDSIM__NONE)
            return;
        struct ssdsim__flash_op *o = &hw->ops[j];
        o->kind = SSDSIM__FLASH_READ;
        o->cls = SSDSIM__CLASS_WRITE; /* behind host reads */
        o->purpose = (uint8_t)SSDSIM__FOR_REL_PATROL;
        o->addr = (uint32_t)(b * hw->pages_per_block);
        o->bytes = r->unit_bytes;
        r->patrol_next = (b + 1) % r->n_blocks;
        r->patrol_inflight = true;
        r->n.patrol_reads++;
        ssdsim__hw_submit(hw, j);
        return;
    }
}

void ssdsim__rel_idle(struct ssdsim__rel *r, bool idle)
{
    if (!r->p->patrol_ns)
        return;
    r->patrol_idle = idle;
    if (!idle) {
        if (r->patrol_timer)
            ssdsim__engine_cancel(r->hw->engine, r->patrol_timer);
        r->patrol_timer = 0;
    } else if (!r->patrol_timer && !r->patrol_inflight) {
        r->patrol_timer = ssdsim__engine_schedule_cancellable(
            r->hw->engine, ssdsim__engine_now(r->hw->engine) + r->p->patrol_ns, patrol_event, r,
            0);
    }
}
