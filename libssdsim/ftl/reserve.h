/* The blocks each built-in FTL keeps in reserve, and the spare space left after them: the one
 * owner of that arithmetic, asked by the FTLs themselves (page_setup, page_install), fast
 * preconditioning, the scaled copies and the results. */
#ifndef SSDSIM_FTL_RESERVE_H
#define SSDSIM_FTL_RESERVE_H

#include <stdbool.h>
#include <stdint.h>

struct ssdsim_model;

/* The page FTL's (and DFTL's) watermarks and open blocks per plane. GC starts below gc_min and
 * goes on to gc_target; gc_min is raised to the GC reserve (free blocks kept for copies: 1, or
 * 2 with hot/cold separation) plus one, gc_target to at least gc_min. Open blocks: the host
 * frontier, the hot one (hot_cold), GC's own (separate, two with hot_cold), DFTL's translation
 * frontier. With FDP (fdp_handles > 0; ftl/page_fdp.c) a host frontier per handle, and with
 * gc.separate one GC frontier per handle (persistent isolation) or one for all (initial), and
 * with RAIN (parity) one for the parity pages, which belong to no handle; a victim's copies
 * still go to one frontier (a persistently isolated block holds one handle's data), so the GC
 * reserve stays 1. */
struct ssdsim__page_reserve {
    uint32_t gc_reserve; /* free blocks host writes never take */
    uint32_t gc_min, gc_target;
    uint32_t open;
};
void ssdsim__page_reserve(uint32_t free_blocks_min, uint32_t free_blocks_target, bool hot_cold,
                          bool separate, bool dftl, uint32_t fdp_handles, bool fdp_persistent,
                          bool parity, struct ssdsim__page_reserve *out);
/* The same for a model's keys (ftl.hot_cold, gc.*, fdp.*; dftl from ftl.type). */
void ssdsim__model_page_reserve(const struct ssdsim_model *m, struct ssdsim__page_reserve *out);

/* The SLC cache's blocks (ftl/page_slc.c): a block in SLC mode holds pages_per_block / bits
 * per cell pages; the static region is rounded up to whole blocks per plane, the dynamic cap
 * down to whole blocks. All 0 when the model has no SLC cache. */
struct ssdsim__slc_geom {
    uint32_t pages;            /* pages a block holds in SLC mode */
    uint32_t static_per_plane; /* static SLC blocks each plane reserves */
    uint64_t dyn_max_blocks;   /* the dynamic cache's cap, blocks of the device */
};
void ssdsim__slc_geometry(const struct ssdsim_model *m, struct ssdsim__slc_geom *out);

/* A model's spare space per plane and what the FTL keeps of it. */
struct ssdsim__reserve {
    bool known;            /* false: an FTL whose reserve the library does not know (a plugin) */
    uint32_t blocks;       /* blocks per plane the FTL keeps free or open (and the static SLC
                              cache's) */
    double map_blocks;     /* translation pages per plane, in blocks (DFTL) */
    double parity_blocks;  /* RAIN parity pages per plane, in blocks: one page in
                              ftl.parity_group of the physical pages (page FTL) */
    double spare_blocks;   /* (physical - logical pages) per plane, in blocks */
    double spare_factor;   /* (physical - logical) / physical */
    double spare_factor_effective; /* (physical - logical - reserve - parity) / physical */
};

/* Fill `out` for a validated single-device model (SSD; an HDD or in-place media has no spare
 * and no reserve: known, zero). */
void ssdsim__model_reserve(const struct ssdsim_model *m, struct ssdsim__reserve *out);

/* Log a warning when the reserve is more than 5% of the spare space. */
void ssdsim__reserve_warn(const struct ssdsim_model *m);

#endif /* SSDSIM_FTL_RESERVE_H */
