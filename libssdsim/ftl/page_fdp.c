/* page_fdp.c: Flexible Data Placement in the page FTL (NVMe TP4146, model keys fdp.*). Each
 * placement handle (a reclaim unit handle) has its own host write frontier on every plane, so
 * the reclaim units it fills (here: the open block of that frontier on each plane, one erase
 * block) hold only its data: handle 0 writes to the host frontier, handle 1 to the one hot/cold
 * separation would use. The device is one reclaim group. A write's handle comes with it
 * (ssdsim_ftl_env.placement, set by the device from the command's placement id).
 *
 * Garbage collection picks its victims over all blocks (the model's GC policy), and where the
 * copies go is the handle's isolation: "initial" (initially isolated) copies every handle's data
 * to the one GC frontier, mixing handles there, as the specification allows; "persistent"
 * (persistently isolated) copies a handle's data to that handle's own GC frontier (or its host
 * frontier with gc.separate off), so a reclaim unit never holds another handle's data. The
 * handle of each logical unit is what its last host write named (one byte per unit).
 *
 * The statistics the specification defines per handle: Host Bytes with Metadata Written (host
 * units) and Media Bytes with Metadata Written (units programmed for the handle's data: its
 * host units and every GC or wear-leveling copy of them), as library counters
 * (SSDSIM__CNT_FDP_HOST + h, SSDSIM__CNT_FDP_MEDIA + h), so each run reports its own.
 */
#include "ftl/page_int.h"

#include <stdlib.h>

struct ssdsim__fdp {
    uint32_t handles;
    bool persistent;
    uint8_t *handle_of; /* per logical unit: the handle of its last host write */
};

static const int host_fr[SSDSIM__FDP_MAX_HANDLES] = {SSDSIM__FR_HOST, SSDSIM__FR_HOT};
static const int gc_fr[SSDSIM__FDP_MAX_HANDLES] = {SSDSIM__FR_GC, SSDSIM__FR_GC_HOT};

int ssdsim__page_fdp_setup(struct ssdsim__ftl *f)
{
    const struct ssdsim_model *m = f->env->model;
    if (!m || !m->fdp.handles || f->dftl)
        return 0;
    struct ssdsim__fdp *p = calloc(1, sizeof *p);
    if (!p)
        return SSDSIM_ENOMEM;
    f->fdp = p;
    p->handles = m->fdp.handles;
    p->persistent = m->fdp.isolation == SSDSIM__FDP_PERSISTENT;
    p->handle_of = calloc(f->n_lpn ? f->n_lpn : 1, 1);
    return p->handle_of ? 0 : SSDSIM_ENOMEM;
}

void ssdsim__page_fdp_free(struct ssdsim__ftl *f)
{
    if (!f->fdp)
        return;
    free(f->fdp->handle_of);
    free(f->fdp);
    f->fdp = NULL;
}

/* A host write of `lpn` with the environment's current placement handle. */
int ssdsim__page_fdp_host_frontier(struct ssdsim__ftl *f, uint32_t lpn)
{
    struct ssdsim__fdp *p = f->fdp;
    uint32_t h = f->env->placement < p->handles ? f->env->placement : 0;
    if (lpn < f->n_lpn)
        p->handle_of[lpn] = (uint8_t)h;
    ssdsim__env_count(f->env, SSDSIM__CNT_FDP_HOST + (int)h, 1);
    ssdsim__env_count(f->env, SSDSIM__CNT_FDP_MEDIA + (int)h, 1);
    return host_fr[h];
}

/* A GC (or wear-leveling) copy of `lpn`: counted for its handle, placed by the isolation. */
int ssdsim__page_fdp_gc_frontier(const struct ssdsim__ftl *f, uint32_t lpn)
{
    const struct ssdsim__fdp *p = f->fdp;
    uint32_t h = lpn < f->n_lpn ? p->handle_of[lpn] : 0;
    ssdsim__env_count(f->env, SSDSIM__CNT_FDP_MEDIA + (int)h, 1);
    if (!p->persistent)
        return f->separate ? SSDSIM__FR_GC : SSDSIM__FR_HOST;
    return f->separate ? gc_fr[h] : host_fr[h];
}
