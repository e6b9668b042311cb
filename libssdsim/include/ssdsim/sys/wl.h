/* ssdsim/sys/wl.h: wear-leveling policies.
 *
 * A wear leveler may (1) choose which free block a plane opens next (dynamic wear leveling:
 * the least worn), and (2) after each erase, ask for a closed block to be relocated (static wear
 * leveling: cold data sitting on little-worn blocks is moved so those blocks get used). The FTL
 * relocates such a block like a GC victim; its page copies count in write amplification and are
 * reported separately. Both methods see the device through the ssdsim_view functions of
 * ssdsim/sys/gc.h.
 */
#ifndef SSDSIM_SYS_WL_H
#define SSDSIM_SYS_WL_H

#include "ssdsim/sys/gc.h"

#ifdef __cplusplus
extern "C" {
#endif

/** A wear-leveling policy. */
typedef struct ssdsim_wl_ops {
    SSDSIM_PLUGIN_HEADER;
    /** Optional; as ssdsim_gc_ops.init. */
    int (*init)(void *state, const ssdsim_view *view, const double *params, char *errbuf,
                size_t errlen);
    /** Optional; called exactly once. */
    void (*fini)(void *state);
    /** Optional: the free block of `plane` to open next, or SSDSIM_NO_BLOCK for the default
     * (the one freed longest ago). Must return a block on the plane's free list. */
    uint32_t (*pick_free)(void *state, const ssdsim_view *view, uint32_t plane);
    /** Optional: called after `block` was erased; return a candidate block (any plane) whose
     * valid data should be moved, or SSDSIM_NO_BLOCK. */
    uint32_t (*after_erase)(void *state, const ssdsim_view *view, uint32_t block);
} ssdsim_wl_ops;

/** Register a wear leveler; same rules and return codes as ssdsim_gc_register (a wear leveler
 * needs no method: a table with none behaves like "none"). */
SSDSIM_API int ssdsim_wl_register(const ssdsim_wl_ops *ops, ssdsim_error *err);

#ifdef __cplusplus
}
#endif

#endif /* SSDSIM_SYS_WL_H */
