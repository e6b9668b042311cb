/* scaled.c: the one rule for scaled copies of a model, which fast preconditioning
 * (ssdsim_precondition_fast) and preconditioning curves (ssdsim_curve_run) run on: the same
 * geometry, timing and FTL with fewer blocks per plane, so the same parallelism, and an
 * over-provisioning that keeps the space garbage collection works with in the model's
 * proportion, so the same steady state. doc/design.md, "Fast preconditioning", says how it was
 * measured.
 *
 * The blocks every plane keeps free or open (the GC watermarks, the victim being collected, the
 * write frontiers) are a fixed number per plane, a larger share of a small plane's spare: with
 * the model's over-provisioning fraction the copy would run at a higher utilisation of the space
 * GC works with, hence a higher WAF. So the copy keeps the model's ratio of logical pages to the
 * blocks that are none of those. Free blocks: halfway between the low watermark less one and the
 * high one (as the page FTL raises them), plus half a block for the victim; open blocks: half
 * written (their written half valid). Measured on generic-mlc (greedy, 4 KiB random writes, a
 * 1024-block device scaled to 128 and 256 blocks per plane, and 256 to 64), the scaled copy's
 * WAF matches the device's for 1.75 to 2.3 such free blocks at 7% and 28% over-provisioning;
 * this estimate gives 2.
 */
#include "common.h"

#include <math.h>
#include <stdio.h>

#include "config/model.h"
#include "ftl/reserve.h"
#include "methods/scaled.h"
#include "ssdsim/measure.h"

static uint64_t n_planes(const struct ssdsim_model *m)
{
    return ssdsim__geometry_planes(&m->geometry);
}

/* Blocks per plane at least 256, and enough that the blocks every plane keeps free or open,
 * which do not scale, are at most a quarter of its spare blocks; never more than the device
 * has. On generic-mlc (1024 blocks per plane) 256 gives the device's steady WAF and IOPS within
 * 0.5% at 7% and 28% over-provisioning, 128 within 1%. */
uint32_t ssdsim__scaled_bpp(const struct ssdsim_model *m)
{
    /* logical pages are mapping units: compare them with the physical units */
    double spare_fraction =
        1.0 - (double)ssdsim__model_logical_pages(m) * m->ftl.mapping_unit /
                  ((double)ssdsim__model_physical_pages(m) * m->geometry.page_size);
    uint32_t fixed = SSDSIM__MAX(m->gc.free_blocks_target, m->gc.free_blocks_min) + 2 +
                     (m->ftl.hot_cold ? 2 : 0);
    if (m->fdp.handles) { /* every placement handle's open blocks */
        struct ssdsim__page_reserve r;
        ssdsim__model_page_reserve(m, &r);
        fixed = r.gc_target + r.open;
    }
    double want = 4.0 * fixed / fmax(spare_fraction, 1e-3);
    uint32_t bpp = (uint32_t)fmin(ceil(want), 1e6);
    bpp = SSDSIM__MAX(bpp, 256u);
    return SSDSIM__MIN(bpp, m->geometry.blocks_per_plane);
}

struct ssdsim_model *ssdsim__scaled_copy(const struct ssdsim_model *m, uint32_t bpp_s,
                                         ssdsim_error *err)
{
    struct ssdsim_model *ms = ssdsim__model_copy(m);
    if (!ms) {
        ssdsim__error_set(err, SSDSIM_ENOMEM, NULL, NULL, "out of memory");
        return NULL;
    }
    /* the page FTL's watermarks and open blocks (ftl/reserve.c; DFTL's translation frontier
     * left out) */
    struct ssdsim__page_reserve r;
    ssdsim__page_reserve(m->gc.free_blocks_min, m->gc.free_blocks_target, m->ftl.hot_cold,
                         m->gc.separate != 0, false, m->fdp.handles,
                         m->fdp.isolation == SSDSIM__FDP_PERSISTENT, m->ftl.parity_group > 1,
                         &r);
    double lo = r.gc_min;
    double hi = r.gc_target;
    double free_avg = (lo - 1 + hi) / 2 + 0.5;
    double open = r.open;
    double planes = (double)n_planes(m);
    /* in mapping units (slots, hw/unit.c) per block */
    double ppb = (double)m->geometry.pages_per_block * m->geometry.page_size / m->ftl.mapping_unit;
    double lp_b = (double)ssdsim__model_logical_pages(m) / planes; /* per plane */
    double v_open = open * ppb / 2;
    double lp_s = v_open + (lp_b - v_open) * ((double)bpp_s - free_avg - open) /
                               ((double)m->geometry.blocks_per_plane - free_avg - open);
    double units_s = planes * bpp_s * ppb;
    double op_s = units_s / (lp_s * planes) - 1;
    ssdsim_error e;
    int rc = ssdsim_model_set_int(ms, "geometry.blocks_per_plane", bpp_s, &e);
    if (rc == 0 && (op_s <= 0 || !isfinite(op_s))) {
        snprintf(e.message, sizeof e.message,
                 "a scaled copy with %u blocks per plane has no spare blocks", bpp_s);
        rc = SSDSIM_ECONFIG;
    }
    if (rc == 0) {
        /* The text ssdsim_model_set has always been given: 17 significant digits. */
        char val[64];
        snprintf(val, sizeof val, "%.17g", op_s);
        rc = ssdsim_model_set(ms, "ftl.op", val, &e);
    }
    if (rc) {
        e.code = rc;
        if (err)
            *err = e;
        ssdsim_model_free(ms);
        return NULL;
    }
    ms->reserve_warned = true; /* the model's own warning stands for its copy */
    return ms;
}

/* The solid-state device model a scaled copy of `m` scales: m itself, or a system's member;
 * NULL for a hard disk or an array of them. */
static const struct ssdsim_model *flash_model(const struct ssdsim_model *m)
{
    if (m && m->kind == SSDSIM__KIND_SYSTEM)
        m = m->system.member;
    return m && m->kind == SSDSIM__KIND_SSD ? m : NULL;
}

uint32_t ssdsim_model_scaled_blocks_per_plane(const ssdsim_model *model)
{
    SSDSIM__CHECK_HANDLE(model, SSDSIM__MAGIC_MODEL, "ssdsim_model");
    const struct ssdsim_model *f = flash_model(model);
    return f ? ssdsim__scaled_bpp(f) : 0;
}

uint32_t ssdsim__model_blocks_per_plane(const struct ssdsim_model *model)
{
    const struct ssdsim_model *f = flash_model(model);
    return f ? f->geometry.blocks_per_plane : 0;
}

int ssdsim_model_scaled_copy(ssdsim_model **out, const ssdsim_model *model,
                             uint32_t blocks_per_plane, ssdsim_error *err)
{
    SSDSIM__CHECK_HANDLE(model, SSDSIM__MAGIC_MODEL, "ssdsim_model");
    if (out)
        *out = NULL;
    const struct ssdsim_model *f = flash_model(model);
    if (!out || !model || !f)
        return ssdsim__error_set(err, SSDSIM_EINVAL, model ? model->label : NULL, NULL,
                                 "ssdsim_model_scaled_copy: %s",
                                 !out || !model ? "out and model are needed"
                                                : "a scaled copy needs a solid-state device "
                                                  "model or a system of them");
    uint32_t bpp = blocks_per_plane ? blocks_per_plane : ssdsim__scaled_bpp(f);
    if (bpp > f->geometry.blocks_per_plane)
        return ssdsim__error_set(err, SSDSIM_ECONFIG, f->label, "geometry.blocks_per_plane",
                                 "a scaled copy of %u blocks per plane is not smaller than the "
                                 "model (%u)",
                                 bpp, f->geometry.blocks_per_plane);
    ssdsim_error e;
    struct ssdsim_model *ms = ssdsim__scaled_copy(f, bpp, &e);
    if (!ms)
        return ssdsim__error_set(err, e.code ? e.code : SSDSIM_ECONFIG, f->label, NULL,
                                 "scaled copy (%u blocks per plane): %s", bpp, e.message);
    ms->magic = SSDSIM__MAGIC_MODEL;
    if (f != model) {
        /* A system of the scaled member: the same layout, strips, card and cache over devices
         * each as the member's scaled copy (each sees the volume's uniform random writes cut
         * by the layout, as fast preconditioning assumes). */
        struct ssdsim_model *sys = ssdsim__model_copy(model);
        if (!sys) {
            ssdsim_model_free(ms);
            return ssdsim__error_set(err, SSDSIM_ENOMEM, model->label, NULL, "out of memory");
        }
        sys->magic = SSDSIM__MAGIC_MODEL;
        ssdsim_model_free(sys->system.member);
        sys->system.member = ms;
        if (ssdsim_model_logical_bytes(ms) < sys->system.stripe) {
            ssdsim_model_free(sys);
            return ssdsim__error_set(err, SSDSIM_ECONFIG, model->label, "system.stripe",
                                     "a scaled copy of %u blocks per plane holds less than one "
                                     "strip",
                                     bpp);
        }
        ms = sys;
    }
    *out = ms;
    return 0;
}
