/* fault.h: faults of a solid-state device (doc/models.md, "Faults"): bad blocks (factory and
 * grown, rel/badblock.c), the read-only state they may lead to, and power loss (rel/power.c).
 *
 * The state lives in the FTL environment (env->fault, NULL when the model's reliability
 * section sets no fault key), not in the FTL: a secure erase rebuilds the FTL, but a block that
 * went bad stays bad. The page FTL (and DFTL) consult it when they build their free lists, and
 * at every erase; other FTLs ignore it (the model refuses fault keys with them).
 *
 * Cost: one byte per block, plus a few counters per plane.
 */
#ifndef SSDSIM_REL_FAULT_H
#define SSDSIM_REL_FAULT_H

#include "common.h"
#include "config/model.h"
#include "engine/rng.h"

enum ssdsim__bad_kind { SSDSIM__GOOD = 0, SSDSIM__BAD_FACTORY = 1, SSDSIM__BAD_GROWN = 2 };

struct ssdsim__fault {
    const struct ssdsim__fault_cfg *cfg;
    uint32_t rated_pe;           /* flash.rated_pe_cycles */
    uint64_t n_blocks;
    uint32_t bpp, n_planes, ppb;
    uint8_t *bad;                /* per block: enum ssdsim__bad_kind */
    uint32_t *seen;              /* per block: the erase count its last failure draw covered
                                    (wear installed or added at once is drawn for at the next
                                    erase) */
    uint32_t *bad_in_plane;      /* per plane: bad blocks, both kinds */
    uint64_t factory_bad, grown_bad;
    struct ssdsim__rng rng;      /* grown failures: a stream of their own, so that turning them
                                    on changes no other random draw */
    /* Read-only (set by the FTL at create): the drive stops accepting host writes once its
     * good pages fall below need_good_pages (the logical space, the FTL's extra pages and the
     * GC reserve and open blocks of every plane, as at set-up). */
    uint64_t need_good_pages;
    bool read_only;
    uint64_t ro_ns;              /* simulated time it turned read-only */
    uint64_t ro_host_bytes;      /* host bytes the drive had accepted by then (cumulative) */
    uint64_t ro_bad;             /* bad blocks by then */
    uint64_t host_bytes;         /* host bytes accepted for writing (cumulative) */
    uint64_t refused_writes, refused_bytes; /* host writes refused since then */
};

/* Does the model have bad blocks (so that the environment keeps a fault state)? */
bool ssdsim__fault_on(const struct ssdsim_model *m);

/* Build the fault state of a device: the factory bad blocks are placed here, from `seed`
 * (round(bad_fraction x blocks per plane) on every plane, uniformly without replacement).
 * NULL when out of memory. */
struct ssdsim__fault *ssdsim__fault_new(const struct ssdsim_model *m, uint64_t n_blocks,
                                        uint32_t n_planes, uint64_t seed);
void ssdsim__fault_free(struct ssdsim__fault *f);

static inline bool ssdsim__fault_is_bad(const struct ssdsim__fault *f, uint64_t block)
{
    return f && f->bad[block] != SSDSIM__GOOD;
}

/* The probability that a program/erase cycle fails a block whose erase count is now
 * `erase_count`: grown_prob_rated x (erase_count / rated)^grown_exponent, at most 1. */
double ssdsim__fault_grown_prob(const struct ssdsim__fault *f, uint32_t erase_count);

/* Block `block` was just erased (its erase count now `erase_count`): does it fail? A failed
 * block is recorded as grown bad; the caller retires it (never puts it back in service). The
 * read-only state is updated at `now`. */
bool ssdsim__fault_erased(struct ssdsim__fault *f, uint64_t block, uint32_t erase_count,
                          uint64_t now);

/* A host write of `len` bytes reaches the back end: false (and its bytes counted) when the
 * drive accepts it, true (counted as refused) when it is read-only. */
static inline bool ssdsim__fault_refuse_write(struct ssdsim__fault *f, uint32_t len)
{
    if (!f)
        return false;
    if (f->read_only) {
        f->refused_writes++;
        f->refused_bytes += len;
        return true;
    }
    f->host_bytes += len;
    return false;
}

/* Good pages of the device. */
static inline uint64_t ssdsim__fault_good_pages(const struct ssdsim__fault *f)
{
    return (f->n_blocks - f->factory_bad - f->grown_bad) * f->ppb;
}

#endif /* SSDSIM_REL_FAULT_H */
