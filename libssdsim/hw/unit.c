/* unit.c: mapping units other than the flash page, in the hardware layer.
 *
 * The FTL always works on *slots* of one mapping unit (ftl.mapping_unit) each: a block holds
 * pages_per_block x page_size / mapping_unit of them, and every address the FTL submits is a
 * slot. This file turns slot operations into page operations, so that no FTL needs to know.
 *
 * Units smaller than the page (k = page_size / mapping_unit slots per page, hw->spp):
 *  - Packing. A program of a slot is held in the controller until the other k - 1 slots of its
 *    page are programmed too (the FTL fills a block's slots in order); the page is then one
 *    program: its k units cross the bus (k x unit bytes), then one tPROG, and the k slot
 *    programs complete together when it ends.
 *  - Padding. A page still partial when its die has nothing else to do is programmed as it is,
 *    padded: the units it holds cross the bus, one tPROG, and its empty slots can never be
 *    written (the page FTL skips them, ssdsim__hw_slot_next). "Nothing else to do" is checked
 *    at the end of the instant the die's queue ran empty (an event at the same time, after the
 *    others already due), so that the units written at one instant (a write buffer's flush, a
 *    host command's units) pack together first. That is what a write-through drive (no buffer,
 *    or its volatile cache off) does with a lone 4 KiB write: it must be durable, so it pays a
 *    whole page program and wastes the rest of the page (counted in n_pad_slots).
 *  - The page register. A read of a slot pays tR unless the die's previous operation was a
 *    read of the same page (the page is still in the page register); either way only the
 *    read's bytes cross the bus. So the slots of one page read back to back (GC reading a
 *    victim's valid units, a sequential reader) pay one tR per page; a read of another page, a
 *    program or an erase on the die in between loses the register (one register per die, an
 *    approximation for dies of several planes).
 *
 * Units larger than the page (m = mapping_unit / page_size pages per slot, hw->ppu): a slot is
 * m consecutive pages of its block. A program moves the unit over the bus and then programs its
 * m pages one after the other (the sum of their tPROG); a read senses the pages that hold its
 * bytes (ceil(bytes / page_size) of them, from the unit's first page: the offset inside the unit
 * is not passed down) and moves its bytes. A write smaller than the unit is the FTL's
 * read-modify-write of the whole unit, as for any partial unit.
 *
 * Nothing here allocates after the device is built: held programs are linked through the
 * ops' own fields, blocks with a held page through one array of the blocks.
 */
#include "hw/hw.h"

/* Physical page of a block's slot s (unit < page). */
static inline uint32_t page_of(const struct ssdsim__hw *hw, uint32_t slot)
{
    return slot >> hw->slot_shift;
}

uint64_t ssdsim__unit_program_ns(const struct ssdsim__hw *hw, const struct ssdsim__flash_op *op)
{
    const struct ssdsim__flash *f = &hw->model->flash;
    uint32_t first = (op->addr % hw->pages_per_block) * hw->ppu;
    uint64_t t = 0;
    for (uint32_t j = 0; j < hw->ppu; j++)
        t += f->program_ns[(first + j) % f->n_page_types];
    return t;
}

uint64_t ssdsim__unit_read_ns(const struct ssdsim__hw *hw, const struct ssdsim__flash_op *op)
{
    const struct ssdsim__flash *f = &hw->model->flash;
    uint32_t page = hw->model->geometry.page_size;
    uint32_t n = op->bytes ? (op->bytes + page - 1) / page : 1;
    n = SSDSIM__MIN(n, hw->ppu);
    uint32_t first = (op->addr % hw->pages_per_block) * hw->ppu;
    uint64_t t = 0;
    for (uint32_t j = 0; j < n; j++)
        t += f->read_ns[(first + j) % f->n_page_types];
    return t;
}

/* Take block b off its die's list of blocks with a held page. */
static void unlist(struct ssdsim__hw *hw, struct ssdsim__die *die, uint32_t b)
{
    uint32_t *p = &die->held_blk;
    while (*p != b)
        p = &hw->held_next[*p];
    *p = hw->held_next[b];
    hw->held_next[b] = SSDSIM__NONE;
}

/* The held programs of block b become mates of its program `last` (the page's last slot, or
 * its last held one when padding); returns the bytes they carry. */
static uint32_t gather_mates(struct ssdsim__hw *hw, uint32_t b, uint32_t last)
{
    uint32_t bytes = 0, head = SSDSIM__NONE, *tail = &head;
    for (uint32_t j = hw->held[b]; j != SSDSIM__NONE; j = hw->ops[j].next) {
        if (j == last)
            break;
        bytes += hw->ops[j].bytes;
        *tail = j;
        tail = &hw->ops[j].next;
    }
    *tail = SSDSIM__NONE;
    hw->held[b] = SSDSIM__NONE;
    hw->mate[last] = head;
    return bytes;
}

/* Program block b's partial page as it is, padded (b is off its die's held list): the units it
 * holds cross the bus, one tPROG, and its empty slots are lost until the block is erased. */
static void pad_page(struct ssdsim__hw *hw, uint32_t b)
{
    uint32_t last = hw->held[b], n = 1;
    while (hw->ops[last].next != SSDSIM__NONE) {
        last = hw->ops[last].next;
        n++;
    }
    hw->held_next[b] = SSDSIM__NONE;
    struct ssdsim__flash_op *op = &hw->ops[last];
    op->bytes += gather_mates(hw, b, last);
    op->next = SSDSIM__NONE;
    uint32_t slot = op->addr % hw->pages_per_block;
    hw->blk_wp[b] = (page_of(hw, slot) + 1) << hw->slot_shift;
    hw->n_pad_slots += hw->spp - n;
    hw->n_page_programs++;
    ssdsim__hw_queue(hw, last);
}

/* Whether block b's partial page holds only GC or wear-leveling copies. */
static bool held_copies_only(const struct ssdsim__hw *hw, uint32_t b)
{
    for (uint32_t j = hw->held[b]; j != SSDSIM__NONE; j = hw->ops[j].next)
        if (!ssdsim__hw_for_gc(&hw->ops[j]))
            return false;
    return true;
}

static void pad_event(void *ctx, uint32_t d)
{
    struct ssdsim__hw *hw = ctx;
    struct ssdsim__die *die = &hw->dies[d];
    die->pad_armed = false;
    if (die->cur != SSDSIM__NONE || die->queued > 0 || die->susp != SSDSIM__NONE || die->cb_hold)
        return; /* busy again: padding waits until its queue runs empty again */
    uint32_t keep = SSDSIM__NONE; /* held pages of GC copies whose plane still collects */
    while (die->held_blk != SSDSIM__NONE) {
        uint32_t b = die->held_blk;
        die->held_blk = hw->held_next[b];
        if (hw->gc_keep[ssdsim__hw_block_plane(hw, b)] && held_copies_only(hw, b)) {
            hw->held_next[b] = keep;
            keep = b;
            continue;
        }
        pad_page(hw, b);
    }
    while (keep != SSDSIM__NONE) { /* back on the die's list, to be filled or padded later */
        uint32_t b = keep;
        keep = hw->held_next[b];
        hw->held_next[b] = die->held_blk;
        die->held_blk = b;
    }
}

/* A page with a host unit does not wait for the die to run empty: a die that collects garbage
 * may not for seconds, and a write acknowledged only once programmed (no write buffer, or its
 * cache off) would wait as long. It waits for the operation the die was doing when the page
 * was begun and for one more whole operation, time for the next units of a host stream to
 * reach it (a saturating host fills it first), then it is programmed padded. */
void ssdsim__unit_dispatch(struct ssdsim__hw *hw, uint32_t d)
{
    struct ssdsim__die *die = &hw->dies[d];
    uint32_t n = die->n_disp++;
    uint32_t *p = &die->held_blk;
    die->padding = true; /* the caller dispatches what pad_page queues */
    while (*p != SSDSIM__NONE) {
        uint32_t b = *p;
        if (n - hw->held_mark[b] >= 1 && !held_copies_only(hw, b)) {
            *p = hw->held_next[b];
            pad_page(hw, b);
        } else {
            p = &hw->held_next[b];
        }
    }
    die->padding = false;
}

void ssdsim__unit_gc_keep(struct ssdsim__hw *hw, uint32_t plane, bool keep)
{
    if (hw->spp <= 1 || hw->gc_keep[plane] == keep)
        return;
    hw->gc_keep[plane] = keep;
    uint32_t d = ssdsim__hw_plane_die(hw, plane);
    struct ssdsim__die *die = &hw->dies[d];
    if (!keep && die->held_blk != SSDSIM__NONE && die->cur == SSDSIM__NONE && die->queued == 0)
        ssdsim__unit_die_empty(hw, d);
}

void ssdsim__unit_die_empty(struct ssdsim__hw *hw, uint32_t d)
{
    struct ssdsim__die *die = &hw->dies[d];
    if (die->pad_armed)
        return;
    die->pad_armed = true;
    ssdsim__engine_schedule(hw->engine, ssdsim__engine_now(hw->engine), pad_event, hw, d);
}

uint32_t ssdsim__unit_submit(struct ssdsim__hw *hw, uint32_t i)
{
    struct ssdsim__flash_op *op = &hw->ops[i];
    if (op->kind == SSDSIM__FLASH_ERASE) {
        assert(hw->held[op->addr] == SSDSIM__NONE);
        hw->blk_wp[op->addr] = 0;
        return i;
    }
    if (op->kind != SSDSIM__FLASH_PROGRAM)
        return i;
    uint32_t b = ssdsim__hw_ppn_block(hw, op->addr);
    uint32_t slot = op->addr % hw->pages_per_block;
    /* The FTL fills a block's slots in order and skips those of padded pages. */
    assert(slot >= hw->blk_wp[b]);
    hw->blk_wp[b] = slot + 1;
    uint32_t pos = slot & (hw->spp - 1);
    if (pos == hw->spp - 1) {
        if (hw->held[b] != SSDSIM__NONE) {
            op->bytes += gather_mates(hw, b, i);
            unlist(hw, &hw->dies[ssdsim__hw_block_die(hw, b)], b);
        }
        hw->n_page_programs++;
        return i;
    }
    /* Held: appended to the block's partial page. */
    op->next = SSDSIM__NONE;
    uint32_t d = ssdsim__hw_block_die(hw, b);
    struct ssdsim__die *die = &hw->dies[d];
    if (hw->held[b] == SSDSIM__NONE) {
        hw->held[b] = i;
        hw->held_mark[b] = die->n_disp;
        hw->held_next[b] = die->held_blk;
        die->held_blk = b;
    } else {
        uint32_t j = hw->held[b];
        while (hw->ops[j].next != SSDSIM__NONE)
            j = hw->ops[j].next;
        hw->ops[j].next = i;
    }
    if (die->cur == SSDSIM__NONE && die->queued == 0)
        ssdsim__unit_die_empty(hw, d);
    return SSDSIM__NONE;
}

uint32_t ssdsim__hw_slot_next(const struct ssdsim__hw *hw, uint32_t block)
{
    return hw->spp > 1 ? hw->blk_wp[block] : 0;
}

void ssdsim__hw_slot_set(struct ssdsim__hw *hw, uint32_t block, uint32_t slot)
{
    if (hw->spp > 1) {
        assert(slot % hw->spp == 0 && hw->held[block] == SSDSIM__NONE);
        hw->blk_wp[block] = slot;
    }
}
