/* page_int.h: internals shared by the files of the page FTL and DFTL (not by policies or the
 * library): the cookie tags, the mapping primitives (inline: they run for every page written),
 * and the functions each file offers the others.
 *
 *   page.c          the plugin tables, host read/write/trim entry points, completions, set-up
 *   page_place.c    write frontiers, write allocation over dies and planes (where host, GC and
 *                   translation-page programs are submitted), the stall queue
 *   page_gc.c       garbage collection and wear-leveling relocation (GC reads and erases are
 *                   submitted here), background GC when idle
 *   page_dftl.c     DFTL's cached mapping table and translation pages
 *   page_slc.c      the SLC cache: host writes in SLC mode, folding in idle time
 *   page_parity.c   RAIN: a parity page for every stripe of data pages across dies
 *   page_super.c    RAIN's superblocks: stripes written across the dies, collected whole
 *   page_install.c  fast preconditioning (install)
 *   page_check.c    consistency checks
 */
#ifndef SSDSIM_FTL_PAGE_INT_H
#define SSDSIM_FTL_PAGE_INT_H

#include "ftl/page.h"

#include <assert.h>

#define NONE SSDSIM__NONE32

enum op_tag {
    TAG_HOST_READ = SSDSIM__PTAG_HOST_READ,
    TAG_HOST_PROG = SSDSIM__PTAG_HOST_PROG,
    TAG_RMW_READ = SSDSIM__PTAG_RMW_READ,
    TAG_GC_READ = SSDSIM__PTAG_GC_READ,
    TAG_GC_PROG = SSDSIM__PTAG_GC_PROG,
    TAG_GC_ERASE = SSDSIM__PTAG_GC_ERASE,
    TAG_MAP_READ = SSDSIM__PTAG_MAP_READ,
    TAG_MAP_PROG = SSDSIM__PTAG_MAP_PROG,
    TAG_SLC_READ = SSDSIM__PTAG_SLC_READ,
    TAG_SLC_PROG = SSDSIM__PTAG_SLC_PROG,
    TAG_SLC_ERASE = SSDSIM__PTAG_SLC_ERASE,
    TAG_PARITY_PROG = SSDSIM__PTAG_PARITY_PROG,
    TAG_RECON_READ = SSDSIM__PTAG_RECON_READ,
    TAG_REBUILD_PROG = SSDSIM__PTAG_REBUILD_PROG,
    TAG_GC_BATCH = SSDSIM__PTAG_GC_BATCH,
};

/* The "frontier" choose_plane is asked about for a host page the SLC cache may take (beyond
 * the planes' frontier arrays, FDP's included, and never an index: SLC blocks are page_slc.c's,
 * and the SLC cache needs units of a whole page). */
#define FR_SLC 0xff

static inline uint64_t cookie(enum op_tag tag, uint32_t mid, uint32_t low)
{
    return ssdsim__cookie(tag, mid, low);
}

/* A die's place in the striping order of ftl.placement "stripe" (every channel in turn, then
 * the next die of each: the inverse of page_place.c's stripe_die). */
static inline uint32_t ssdsim__page_stripe_index(const struct ssdsim__ftl *f, uint32_t die)
{
    uint32_t dpc = f->n_dies / f->n_channels;
    return die % dpc * f->n_channels + die / dpc;
}

/* gc.throttle: set a plane's GC debt, keeping choose_stripe's summary of the dies whose planes
 * owe nothing in step (page_place.c). */
void ssdsim__page_debt_flip(struct ssdsim__ftl *f, uint32_t plane, bool owes);
static inline void ssdsim__page_set_debt(struct ssdsim__ftl *f, uint32_t plane, double debt)
{
    struct ssdsim__plane *pl = &f->planes[plane];
    bool owed = pl->gc_debt > 0, owes = debt > 0;
    pl->gc_debt = debt;
    if (owed != owes && f->die_nodebt)
        ssdsim__page_debt_flip(f, plane, owes);
}

/* Stall entries whose io is NONE are translation-page writes (DFTL), not host writes. */
#define STALL_MAP NONE

/* ---------------------------------------------------------------- blocks and mapping */

/* page_super.c: a superblock's valid count follows its members' (map, invalidate) */
void ssdsim__page_sb_mapped(struct ssdsim__ftl *f, uint32_t b);
void ssdsim__page_sb_invalidated(struct ssdsim__ftl *f, uint32_t b);
static inline uint32_t block_plane(const struct ssdsim__ftl *f, uint32_t b)
{
    return ssdsim__udiv_q(&f->div_bpp, b);
}

/* flash.multiplane_same_block: block b is free now; its index joins its die's list of indices
 * free on every plane when it is (page_place.c). */
#define SSDSIM__PAIR_OFF (NONE - 1)
void ssdsim__page_pair_freed(struct ssdsim__ftl *f, uint32_t b);

static inline void put_free_block(struct ssdsim__ftl *f, uint32_t b)
{
    struct ssdsim__plane *pl = &f->planes[block_plane(f, b)];
    f->free_next[b] = NONE;
    if (f->free_prev)
        f->free_prev[b] = pl->free_tail;
    if (pl->free_tail == NONE)
        pl->free_head = b;
    else
        f->free_next[pl->free_tail] = b;
    pl->free_tail = b;
    pl->n_free++;
    f->n_free_blocks++;
    f->state[b] = SSDSIM__BLK_FREE;
    if (f->free_prev)
        ssdsim__page_pair_freed(f, b);
}

/* A frontier block got its last page: it becomes a GC candidate. */
static inline void close_block(struct ssdsim__ftl *f, uint32_t b)
{
    f->state[b] = SSDSIM__BLK_CLOSED;
    f->closed_at[b] = f->modified_at[b] = f->env->programs_total;
    ssdsim__cands_insert(&f->cands, b, f->valid[b]);
}

/* Physical page ppn holds logical page lpn / holds nothing valid (page.h, `live`). */
static inline void p2l_set(struct ssdsim__ftl *f, uint64_t ppn, uint32_t lpn)
{
    f->p2l[ppn] = lpn;
    f->live[ppn >> 6] |= 1ULL << (ppn & 63);
}

static inline void p2l_clear(struct ssdsim__ftl *f, uint64_t ppn)
{
    f->live[ppn >> 6] &= ~(1ULL << (ppn & 63));
}

#define p2l_get ssdsim__page_p2l

static SSDSIM__INLINE void invalidate(struct ssdsim__ftl *f, uint32_t ppn)
{
    uint32_t b = ssdsim__udiv_q(&f->div_ppb, ppn);
    p2l_clear(f, ppn);
    f->valid[b]--;
    f->n_valid--;
    if (f->state[b] == SSDSIM__BLK_CLOSED) {
        f->modified_at[b] = f->env->programs_total;
        ssdsim__cands_dec(&f->cands, b, f->valid[b]);
    } else if (f->state[b] == SSDSIM__BLK_SLC) {
        f->slc->valid--;
    }
    if (f->sb)
        ssdsim__page_sb_invalidated(f, b);
}

/* Block b was just erased: when its program/erase cycle failed it (rel/badblock.c), retire it
 * (it stays out of the free lists for good) and say so; GC moved its valid data off before the
 * erase. */
static inline bool ssdsim__page_retire(struct ssdsim__ftl *f, uint32_t b)
{
    struct ssdsim__fault *fault = f->env->fault;
    if (!fault ||
        !ssdsim__fault_erased(fault, b, f->env->erase_count[b], ssdsim__engine_now(f->env->engine)))
        return false;
    f->state[b] = SSDSIM__BLK_BAD;
    f->valid[b] = 0;
    return true;
}

/* Map lpn to ppn. `old` is the current location when the caller knows it (a GC copy, checked
 * through p2l), which spares a load from l2p: that array is far larger than the caches, and the
 * load was the single most expensive instruction of a GC copy. NONE means "look it up". */
static SSDSIM__INLINE void map(struct ssdsim__ftl *f, uint32_t lpn, uint32_t ppn, uint32_t old)
{
    if (old == NONE)
        old = f->l2p[lpn];
    if (old != NONE)
        invalidate(f, old);
    f->l2p[lpn] = ppn;
    p2l_set(f, ppn, lpn);
    f->valid[ssdsim__udiv_q(&f->div_ppb, ppn)]++;
    f->n_valid++;
    if (f->sb)
        ssdsim__page_sb_mapped(f, ssdsim__udiv_q(&f->div_ppb, ppn));
}

/* Free blocks a plane keeps back for GC: one per frontier GC copies may open (with hot/cold
 * separation, copies go to two). */
static inline uint32_t gc_reserve(const struct ssdsim__ftl *f)
{
    return f->gc_reserve;
}

static inline uint32_t tpage_of(const struct ssdsim__ftl *f, uint32_t lpn)
{
    return lpn / f->cmt.epp;
}

/* page.c */
int ssdsim__page_do_read(struct ssdsim__ftl *f, uint32_t io, uint32_t lpn, uint32_t bytes);
int ssdsim__page_do_write(struct ssdsim__ftl *f, uint32_t io, uint32_t lpn, uint32_t bytes);

/* page_place.c */
uint32_t ssdsim__page_take_free_block(struct ssdsim__ftl *f, uint32_t plane);
/* take free block b (of any plane) off its plane's free list and open it */
void ssdsim__page_unlink_free(struct ssdsim__ftl *f, uint32_t b);
uint32_t ssdsim__page_choose_plane(struct ssdsim__ftl *f, int fr, uint32_t lpn);
uint32_t ssdsim__page_stream_plane(const struct ssdsim__ftl *f, uint64_t s);
void ssdsim__page_program(struct ssdsim__ftl *f, uint32_t plane, int fr, uint32_t lpn, uint32_t old,
                          ssdsim_flash_purpose why, uint64_t ck);
int ssdsim__page_gc_frontier(const struct ssdsim__ftl *f, uint32_t lpn);
/* GC's copy of valid page `old` (of lpn) of plane's victim, its copy read done: programmed to
 * its GC frontier (its copy counted by the caller), then DFTL's note and gc.throttle's debt */
void ssdsim__page_gc_copy(struct ssdsim__ftl *f, uint32_t plane, uint32_t lpn, uint32_t old);
/* fast-forward: every page of plane's victim still valid, counted and copied in page order, as
 * the copy reads of a TAG_GC_BATCH would end one after another (ssdsim__page_gc_read_done) */
void ssdsim__page_gc_copy_victim(struct ssdsim__ftl *f, uint32_t plane);
/* A plane for a host (or rebuilt) page of frontier fr meant for reclaim group *group (FDP with
 * reclaim groups; else choose_plane): one of the group's, or when the group has no room and GC
 * cannot make any, another group's (*group then names it); NONE: wait. */
uint32_t ssdsim__page_place(struct ssdsim__ftl *f, int fr, uint32_t lpn, uint32_t *group);
bool ssdsim__page_stall_push(struct ssdsim__ftl *f, uint32_t io, uint32_t lpn, uint8_t fr);
int ssdsim__page_host_program(struct ssdsim__ftl *f, uint32_t io, uint32_t lpn);
/* The same into frontier `fr`, decided when the write arrived (FDP's read-modify-write). */
int ssdsim__page_host_program_fr(struct ssdsim__ftl *f, uint32_t io, uint32_t lpn, int fr,
                                 uint32_t group);
void ssdsim__page_unstall(struct ssdsim__ftl *f);

/* page_gc.c */
void ssdsim__page_gc_start(struct ssdsim__ftl *f, uint32_t plane, enum ssdsim__reclaim why);
/* Start foreground GC on the starved planes (gc_starved) that an overwrite or a trim has since
 * given a candidate with garbage. Called where pages are invalidated, when f->n_starved. */
void ssdsim__page_gc_kick_starved(struct ssdsim__ftl *f);
void ssdsim__page_gc_read_done(struct ssdsim__ftl *f, uint32_t old);
/* fast-forward: the copy reads of plane's victim, queued as one (TAG_GC_BATCH), end */
void ssdsim__page_gc_batch_done(struct ssdsim__ftl *f, uint32_t plane);
/* paced GC (page_gc.c): issue plane's next copy read once the firmware ends at fw_end */
void ssdsim__page_gc_next(struct ssdsim__ftl *f, uint32_t plane, uint64_t fw_end);
/* paced GC: submit the read of the next valid page of plane's victim from its gc_scan on (true),
 * or end the scan (false: gc_scan = pages per block) */
bool ssdsim__page_gc_read_next(struct ssdsim__ftl *f, uint32_t plane);
/* gc.bg_preempt: plane's background victim, paused while the host was active, goes on; as
 * foreground GC's (`fg`: foreground GC needs the plane), which does not yield */
void ssdsim__page_gc_resume(struct ssdsim__ftl *f, uint32_t plane, bool fg);

/* gc.bg_preempt: should the background victim of `pl` wait before its next copy? While the
 * host is active (the device not idle) and foreground GC is not needed (`n_free`, the plane's
 * free blocks or the superblocks', at or above the low watermark), as long as the victim still
 * holds pages to copy: idle-time collection yields to host commands between page moves (the
 * semi-preemptive GC of Lee et al., ISPASS 2011). */
static inline bool ssdsim__page_bg_yields(const struct ssdsim__ftl *f,
                                          const struct ssdsim__plane *pl, uint32_t n_free)
{
    return f->bg_preempt && pl->reclaim == SSDSIM__RECLAIM_BG && !f->idle &&
           n_free >= f->gc_min && f->valid[pl->victim] > 0;
}
/* block b was erased: retire it or free it, then the block the wear leveler asks to move (a
 * closed block), or NONE */
uint32_t ssdsim__page_block_erased(struct ssdsim__ftl *f, uint32_t b);
/* Bytes a GC read moves to the controller: none with copyback (flash.copyback), where the page
 * waits in its plane's register for the copy's program (hw/hw.c), else the page. */
static inline uint32_t ssdsim__page_gc_read_bytes(const struct ssdsim__ftl *f)
{
    return f->gc_read_bytes; /* (set at create from the model) */
}
void ssdsim__page_gc_erase_done(struct ssdsim__ftl *f, uint32_t plane);
void ssdsim__page_idle(void *state, int idle);

/* page_dftl.c */
bool ssdsim__page_dftl_ready(struct ssdsim__ftl *f, uint32_t io, uint32_t lpn, uint32_t bytes,
                             bool write);
void ssdsim__page_dftl_mapped(struct ssdsim__ftl *f, uint32_t lpn, uint32_t gc_plane);
void ssdsim__page_dftl_writeback(struct ssdsim__ftl *f, uint32_t t);
void ssdsim__page_dftl_map_read_done(struct ssdsim__ftl *f, uint32_t t, bool writeback);
void ssdsim__page_dftl_map_prog(struct ssdsim__ftl *f, uint32_t t, uint32_t plane);
int ssdsim__page_dftl_setup(struct ssdsim__ftl *f, uint32_t cmt_entries);
void ssdsim__page_dftl_free(struct ssdsim__cmt *c);

/* page_slc.c */
int ssdsim__page_slc_setup(struct ssdsim__ftl *f, char *errbuf, size_t errlen);
void ssdsim__page_slc_free(struct ssdsim__ftl *f);
/* the host page in SLC mode if the cache has room (counted there); false: nothing done. In two
 * steps: the plane whose SLC block takes it now (NONE: the cache is full), then the program. */
bool ssdsim__page_slc_write(struct ssdsim__ftl *f, uint32_t io, uint32_t lpn);
uint32_t ssdsim__page_slc_plane(struct ssdsim__ftl *f, uint32_t lpn);
void ssdsim__page_slc_program(struct ssdsim__ftl *f, uint32_t io, uint32_t lpn, uint32_t plane);
void ssdsim__page_slc_bypassed(struct ssdsim__ftl *f);
void ssdsim__page_slc_done(struct ssdsim__ftl *f, enum op_tag tag, uint32_t low);
bool ssdsim__page_slc_fold_fg(struct ssdsim__ftl *f, uint32_t plane);

/* Can `plane` take a host page in SLC mode now: its open SLC block has room, or it has a static
 * block ready, or the dynamic cache may grow (dyn_ok) and the plane has a free block beyond
 * the GC watermark. */
static inline bool ssdsim__page_slc_accepts(const struct ssdsim__ftl *f, uint32_t plane)
{
    const struct ssdsim__slc_plane *sp = &f->slc->pl[plane];
    return sp->blk != NONE || sp->n_st_free ||
           (f->slc->dyn_ok && f->planes[plane].n_free > f->gc_min);
}
/* page_parity.c (RAIN; f->parity NULL: off, and none of these is called). The stripes as
 * recorded (rel/diefail.c reads them): per physical page the next page of its stripe, and the
 * stripe's serial (NONE: no stripe, or its block was erased since; top bit: sealed). */
struct ssdsim__stripe;
struct ssdsim__parity {
    uint32_t group;
    struct ssdsim__stripe *s; /* the open stripe of each writer (one per frontier) */
    uint32_t n_s;             /* writers: the FTL's frontiers (f->n_fr) */
    uint8_t *rec;             /* per physical page, 2 bits: its place in a sealed stripe */
    bool dry; /* fast preconditioning lays stripes out: recorded, not programmed */
};
int ssdsim__page_parity_setup(struct ssdsim__ftl *f, uint32_t group);
void ssdsim__page_parity_free(struct ssdsim__ftl *f);
/* data pages in writer fr's open stripe; does the stripe hold a page on `die` */
uint32_t ssdsim__page_parity_open(const struct ssdsim__ftl *f, int fr);
bool ssdsim__page_parity_holds(const struct ssdsim__ftl *f, int fr, uint32_t die);
/* a data page of writer fr's stripe programmed at ppn, on `die` */
void ssdsim__page_parity_data(struct ssdsim__ftl *f, int fr, uint32_t ppn, uint32_t die);
/* program the parity page of writer fr's open stripe at pp, which seals the stripe */
void ssdsim__page_parity_write(struct ssdsim__ftl *f, int fr, uint32_t pp);
/* give up writer fr's open stripe without parity (its pages cannot be given back) */
void ssdsim__page_parity_abandon(struct ssdsim__ftl *f, int fr);
/* the other pages of ppn's stripe (at most max), when it is sealed and whole on live dies:
 * their count, else 0 */
uint32_t ssdsim__page_parity_mates(const struct ssdsim__ftl *f, uint32_t ppn, uint32_t *out,
                                   uint32_t max);
void ssdsim__page_parity_erased(struct ssdsim__ftl *f, uint32_t b);
int ssdsim__page_parity_check(const struct ssdsim__ftl *f, char *why, size_t len);

/* page_super.c (superblocks, with parity only; f->sb NULL: off, and none is called but
 * setup and free). */
int ssdsim__page_sb_setup(struct ssdsim__ftl *f);
void ssdsim__page_sb_free(struct ssdsim__ftl *f);
bool ssdsim__page_sb_accepts(const struct ssdsim__ftl *f, int fr);
void ssdsim__page_sb_program(struct ssdsim__ftl *f, int fr, uint32_t lpn, uint32_t old,
                             ssdsim_flash_purpose why, uint64_t ck);
void ssdsim__page_sb_gc_start(struct ssdsim__ftl *f, enum ssdsim__reclaim why);
void ssdsim__page_sb_read_done(struct ssdsim__ftl *f, uint32_t old);
void ssdsim__page_sb_issue(struct ssdsim__ftl *f, uint32_t plane); /* paced: next read */
void ssdsim__page_sb_rebuilt(struct ssdsim__ftl *f, uint32_t old, uint32_t lpn);
void ssdsim__page_sb_erase_done(struct ssdsim__ftl *f, uint32_t plane);
void ssdsim__page_sb_idle(struct ssdsim__ftl *f);
int ssdsim__page_sb_read_reclaim(struct ssdsim__ftl *f, uint32_t b);
void ssdsim__page_sb_die_failed(struct ssdsim__ftl *f);
/* ppn's place in its superblock's slot order (pages x planes slots), and the page at a place */
uint32_t ssdsim__page_sb_slot(const struct ssdsim__ftl *f, uint32_t ppn);
uint32_t ssdsim__page_sb_slot_ppn(const struct ssdsim__ftl *f, uint32_t s, uint32_t slot);
int ssdsim__page_sb_install(struct ssdsim__ftl *f, const ssdsim_ftl_image *img, char *errbuf,
                            size_t errlen);

/* page_fdp.c (FDP placement handles; f->fdp NULL: off, and only setup and free are called).
 * Handle 0 writes to FR_HOST (and GC copies to FR_GC), handle h > 0 to the pair of frontiers
 * after the fixed ones (page.h). */
#define FR_FDP SSDSIM__N_FRONTIERS
#define FDP_NO_HANDLE 0xff /* a block opened by a frontier of no handle (page_fdp.c's owner) */
static inline int ssdsim__fdp_host_fr(uint32_t h)
{
    return h ? FR_FDP + 2 * (int)(h - 1) : SSDSIM__FR_HOST;
}
static inline int ssdsim__fdp_gc_fr(uint32_t h)
{
    return h ? FR_FDP + 2 * (int)(h - 1) + 1 : SSDSIM__FR_GC;
}
/* The handle a frontier writes for, or FDP_NO_HANDLE (the hot/cold and translation ones). */
static inline uint32_t ssdsim__fdp_fr_handle(int fr)
{
    if (fr >= FR_FDP)
        return (uint32_t)(fr - FR_FDP) / 2 + 1;
    return fr == SSDSIM__FR_HOST || fr == SSDSIM__FR_GC ? 0 : FDP_NO_HANDLE;
}
int ssdsim__page_fdp_setup(struct ssdsim__ftl *f);
void ssdsim__page_fdp_free(struct ssdsim__ftl *f);
int ssdsim__page_fdp_host_frontier(const struct ssdsim__ftl *f);
int ssdsim__page_fdp_gc_frontier(const struct ssdsim__ftl *f, uint32_t lpn);
int ssdsim__page_fdp_rebuild_frontier(const struct ssdsim__ftl *f, uint32_t lpn);
bool ssdsim__page_fdp_gc_shares(const struct ssdsim__ftl *f, int fr);
int ssdsim__page_fdp_mate(const struct ssdsim__ftl *f, int fr);
void ssdsim__page_fdp_opened(struct ssdsim__ftl *f, uint32_t b, int fr);
/* reclaim groups: the write's group, the count, a group's dies (and its search cursor), a
 * plane's group, the group the next program is meant for (host and rebuilt pages), whether GC
 * can make room in a group, a block erased, and the host's Reclaim Unit Handle Update */
uint32_t ssdsim__page_fdp_host_group(const struct ssdsim__ftl *f);
uint32_t ssdsim__page_fdp_groups(const struct ssdsim__ftl *f);
const uint32_t *ssdsim__page_fdp_group_dies(const struct ssdsim__ftl *f, uint32_t g,
                                            uint32_t *n, uint32_t **cursor);
uint32_t ssdsim__page_fdp_plane_group(const struct ssdsim__ftl *f, uint32_t plane);
void ssdsim__page_fdp_name_group(struct ssdsim__ftl *f, uint32_t g);
bool ssdsim__page_fdp_group_can_reclaim(struct ssdsim__ftl *f, uint32_t g);
void ssdsim__page_fdp_erased(struct ssdsim__ftl *f, uint32_t b);
uint32_t ssdsim__page_fdp_ruh_update(struct ssdsim__ftl *f, uint32_t placement);
void ssdsim__page_fdp_programmed(struct ssdsim__ftl *f, int fr, uint32_t lpn, uint32_t ppn,
                                 ssdsim_flash_purpose why);
/* rel/diefail.c (f->df NULL: no die failed, and only the test of it is made) */
bool ssdsim__diefail_plane_dead(const struct ssdsim__ftl *f, uint32_t plane);
int ssdsim__diefail_read(struct ssdsim__ftl *f, uint32_t io, uint32_t ppn, uint32_t bytes);
/* GC of a superblock: reconstruct the valid page ppn (of lpn) of a failed die, then
 * ssdsim__page_sb_rebuilt; false when its stripe cannot give it back */
bool ssdsim__diefail_gc_page(struct ssdsim__ftl *f, uint32_t ppn, uint32_t lpn);
void ssdsim__diefail_flash_done(struct ssdsim__ftl *f, enum op_tag tag, uint32_t low);
void ssdsim__diefail_free(struct ssdsim__ftl *f);
static inline bool ssdsim__page_on_dead_die(const struct ssdsim__ftl *f, uint32_t ppn)
{
    return f->df && ssdsim__diefail_plane_dead(f, ppn / f->ppb / f->bpp);
}

/* page_install.c */
int ssdsim__page_install(void *state, const ssdsim_ftl_image *img, char *errbuf, size_t errlen);

#endif /* SSDSIM_FTL_PAGE_INT_H */
