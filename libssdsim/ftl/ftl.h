/* ftl.h: the flash translation layer: page-level mapping, write allocation, garbage collection.
 *
 * All mapping metadata is in flat arrays: l2p (uint32 per logical page), p2l (uint32 per
 * physical page; SSDSIM__NONE = not valid), and per block its valid count, erase count and state.
 * At 4 KiB pages and op 0.28 that is about 9.3 bytes per logical page. Host writes go to a write
 * frontier (open block) per plane, GC copies to a separate frontier per plane, so hot host data
 * and colder relocated data do not share blocks.
 *
 * Allocation stripes writes over dies, idle dies first. GC is per plane and foreground: when a
 * plane's free blocks drop below gc.free_blocks_min, it collects greedy victims (reads, programs,
 * erase on that plane's die, in the die's write queue, so host writes queued behind them wait)
 * until the plane is back at the threshold. One free block per plane is held back for GC; when
 * no plane can take a host write, the write waits until an erase frees a block.
 */
#ifndef SSDSIM_FTL_H
#define SSDSIM_FTL_H

#include "common.h"
#include "gc/gc.h"
#include "hw/hw.h"

enum ssdsim__purpose {
    SSDSIM__P_HOST_READ,
    SSDSIM__P_HOST_PROG,
    SSDSIM__P_RMW_READ,
    SSDSIM__P_GC_READ,
    SSDSIM__P_GC_PROG,
    SSDSIM__P_GC_ERASE,
};

enum ssdsim__block_state { SSDSIM__BLK_FREE, SSDSIM__BLK_OPEN, SSDSIM__BLK_CLOSED,
                           SSDSIM__BLK_VICTIM };

struct ssdsim__plane {
    uint32_t free_head, free_tail, n_free;
    uint32_t host_blk, host_ptr; /* host write frontier; ptr = next page index */
    uint32_t gc_blk, gc_ptr;     /* GC frontier */
    uint32_t victim;             /* block being collected, or SSDSIM__NONE */
    uint32_t gc_reads;           /* GC reads in flight for the victim */
};

/* Pages are counted when they are allocated (the program is then certain to happen), so the
 * counters obey flash_pages_programmed == host_pages_written + gc_pages_copied at any instant. */
struct ssdsim__ftl_counters {
    uint64_t host_pages_written;     /* units allocated for host writes */
    uint64_t flash_pages_programmed; /* all units allocated for programs (host + GC) */
    uint64_t gc_pages_copied;
    uint64_t blocks_erased;
    uint64_t flash_reads;            /* host + RMW + GC page reads */
    uint64_t unmapped_reads;         /* reads answered without flash */
    uint64_t gc_victims;
};

/* Called when the flash part of one unit of host I/O `io` is done (read data in the
 * controller, or program complete). `bytes` is what the host asked of this unit. */
typedef void (*ssdsim__unit_done_fn)(void *ctx, uint32_t io, uint32_t bytes);

struct ssdsim__ftl {
    const struct ssdsim_model *model;
    struct ssdsim__hw *hw;
    struct ssdsim__engine *engine;
    uint64_t n_lpn;   /* logical pages */
    uint64_t n_ppn;   /* physical pages */
    uint32_t ppb;
    uint32_t page_size;
    uint32_t *l2p;
    uint32_t *p2l;
    uint16_t *valid;   /* per block */
    uint32_t *erase_count;
    uint8_t *state;
    uint32_t *free_next; /* free-list link per block */
    struct ssdsim__plane *planes;
    uint32_t *die_plane_cursor;
    uint32_t die_cursor;
    uint32_t gc_min;
    struct ssdsim__gc_buckets buckets;
    uint64_t n_free_blocks;
    uint32_t stall_head, stall_tail; /* host programs waiting for a free block */
    uint32_t n_stalled;
    struct ssdsim__ftl_counters c;
    ssdsim__unit_done_fn unit_done;
    void *unit_done_ctx;
};

int ssdsim__ftl_init(struct ssdsim__ftl *ftl, const struct ssdsim_model *m, struct ssdsim__hw *hw,
                     ssdsim__unit_done_fn unit_done, void *ctx);
void ssdsim__ftl_fini(struct ssdsim__ftl *ftl);

/* hw's completion callback (ctx is the ftl). */
void ssdsim__ftl_flash_done(void *ctx, uint32_t op);

/* One mapping unit of a host I/O. Reads of never-written units complete at once (unit_done is
 * called before returning). A write of part of a unit that holds data reads it first
 * (read-modify-write). Returns 0 or SSDSIM_ENOMEM. */
int ssdsim__ftl_read(struct ssdsim__ftl *ftl, uint32_t io, uint64_t lpn, uint32_t bytes);
int ssdsim__ftl_write(struct ssdsim__ftl *ftl, uint32_t io, uint64_t lpn, uint32_t bytes);
void ssdsim__ftl_trim(struct ssdsim__ftl *ftl, uint64_t lpn);

/* Ask the CPU to start loading the mapping entry of `lpn`: the host calls this when it issues a
 * request, some microseconds of wall time before the FTL reads the entry. The l2p array is far
 * larger than the caches and random workloads miss on it every time. */
static inline void ssdsim__ftl_prefetch(const struct ssdsim__ftl *ftl, uint64_t lpn)
{
    __builtin_prefetch(&ftl->l2p[lpn], 1, 3);
}

/* Erase-count summary over all blocks. */
void ssdsim__ftl_erase_summary(const struct ssdsim__ftl *ftl, uint64_t *min, double *mean,
                               uint64_t *max);

/* Consistency check of every array (tests and --enable-debug): 0 when consistent. */
int ssdsim__ftl_check(const struct ssdsim__ftl *ftl);

#endif /* SSDSIM_FTL_H */
