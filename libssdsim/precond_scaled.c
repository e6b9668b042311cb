/* precond_scaled.c: fast preconditioning on a scaled copy of the model.
 *
 * For uniform random writes, the workload runs on a scaled copy of the model (the same geometry
 * with fewer blocks per plane) until its write amplification is steady; what its blocks hold
 * (valid pages, age, erase count) is scaled up to the real device block for block by age
 * quantile and installed through the FTL's install method: the device starts at the steady
 * state a long run would have reached, in seconds instead of hours of simulation. How the scaled
 * copy is sized and why the image is built this way is in doc/design.md, "Fast
 * preconditioning"; it is checked against full preconditioning in tests/test_precond.c.
 */
#include "precond_int.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "abi.h"
#include "config/fdp_pid.h"
#include "ftl/reserve.h"
#include "layout.h"
#include "methods/scaled.h"
#include "workload/workload.h"

/* Why fast preconditioning cannot represent job `j` on a device of `logical_bytes`, or NULL.
 * The image deals the logical pages to the valid slots at random, which is the state uniform
 * random writes over the whole device leave and no other: under sequential writes, a skewed
 * distribution or writes confined to a region, which pages share a block depends on the
 * addresses (hot with hot, consecutive with consecutive), and a random placement is a different
 * device (zipf:1.2 on generic-mlc measured a WAF of 1.74 after it against 1.06 after a full
 * preconditioning). Reads are no obstacle: they change nothing and are left out. */
static const char *unsupported(const struct ssdsim__jobspec *j, uint64_t logical_bytes)
{
    if (j->read_iolog)
        return "replays a log (fast preconditioning needs a generated workload)";
    if (j->rw == SSDSIM__RW_TRIM || j->rw == SSDSIM__RW_RANDTRIM)
        return "trims (the installed state maps every logical page)";
    if (j->rw == SSDSIM__RW_READ || j->rw == SSDSIM__RW_RANDREAD)
        return NULL;
    if (j->rw == SSDSIM__RW_WRITE || j->rw == SSDSIM__RW_RW)
        return "writes sequentially (fast preconditioning represents uniform random writes; use "
               "sequential preconditioning)";
    if (!(j->dist == SSDSIM__DIST_RANDOM || (j->dist == SSDSIM__DIST_NORMAL && j->dist_param == 0)))
        return "has a non-uniform random_distribution (fast preconditioning places data as "
               "uniform random writes leave it)";
    if (j->percentage_random[SSDSIM__DIR_WRITE] < 100 || j->rw_suffix)
        return "writes partly sequentially (percentage_random or rw=...:N)";
    /* The job's clones must each write the whole device, or split it between them in equal
     * parts (offset_increment): at equal rates, either is uniform over the device. */
    uint32_t k_n = j->numjobs ? j->numjobs : 1;
    uint64_t end = 0, lo = UINT64_MAX, hi = 0, covered = 0;
    bool whole = true, tiled = true;
    for (uint32_t k = 0; k < k_n; k++) {
        uint64_t off, size;
        ssdsim__jobspec_region(j, k, logical_bytes, &off, &size);
        whole = whole && off == 0 && size == logical_bytes;
        tiled = tiled && off >= end && off - end < 65536; /* in order, rounding gaps only */
        end = off + size;
        covered += size;
        lo = SSDSIM__MIN(lo, size);
        hi = SSDSIM__MAX(hi, size);
    }
    tiled = tiled && covered + (uint64_t)k_n * 65536 >= logical_bytes && hi <= lo + lo / 100;
    if (!whole && !tiled)
        return "writes to part of the device (fast preconditioning needs writes spread "
               "uniformly over the whole logical space: every clone over all of it, or the "
               "clones over equal parts of it)";
    return NULL;
}

/* The workload as the scaled copy runs it: its write jobs only (reads change no state), mixed
 * jobs as their write part, all started together, unpaced, without logs or steady-state stops.
 * The jobs are shallow copies: they borrow the original's strings and own nothing. */
static int scaled_workload(struct ssdsim *sim, const struct ssdsim_workload *wl,
                           uint64_t logical_bytes, struct ssdsim__jobspec **out, uint32_t *n_out)
{
    *out = NULL;
    *n_out = 0;
    const char *label = wl->label ? wl->label : "workload";
    struct ssdsim__jobspec *jobs = calloc(wl->n_jobs ? wl->n_jobs : 1, sizeof *jobs);
    if (!jobs) {
        ssdsim__set_errmsg(sim, "out of memory");
        return SSDSIM_ENOMEM;
    }
    uint32_t n = 0;
    for (uint32_t i = 0; i < wl->n_jobs; i++) {
        const struct ssdsim__jobspec *src = &wl->jobs[i];
        const char *why = unsupported(src, logical_bytes);
        if (why) {
            ssdsim__set_errmsg(sim,
                               "fast preconditioning: %s: job %u%s%s%s %s; precondition it with "
                               "--precondition seq, or by running the workload itself",
                               label, i + 1, src->name ? " ('" : "", src->name ? src->name : "",
                               src->name ? "')" : "", why);
            free(jobs);
            return SSDSIM_ECONFIG;
        }
        if (src->rw == SSDSIM__RW_READ || src->rw == SSDSIM__RW_RANDREAD)
            continue;
        struct ssdsim__jobspec *j = &jobs[n++];
        *j = *src;
        j->read_iolog = j->write_iops_log = j->write_lat_log = j->write_bw_log = NULL;
        j->raw_keys = j->raw_values = NULL;
        j->n_raw = 0;
        j->rw = SSDSIM__RW_RANDWRITE;
        /* the copy's rounds are a drive write each, which with the random map are whole
         * passes: a job of partial passes is run with replacement, as its runs leave it */
        if (ssdsim__precond_partial_passes(src, logical_bytes))
            j->norandommap = true;
        j->number_ios = 0;
        j->io_size_percent = 0;
        j->loops = 1;
        j->runtime_ns = 0;
        j->time_based = false;
        j->ramp_time_ns = 0;
        j->ss = SSDSIM__SS_NONE;
        j->thinktime_ns = 0;
        memset(j->rate_iops, 0, sizeof j->rate_iops);
        memset(j->rate_bytes, 0, sizeof j->rate_bytes);
        j->stonewall = false;
        j->new_group = false;
        j->group_reporting = true;
        /* regions as fractions of the device, so that they split the scaled copy alike */
        if (j->size_bytes) {
            j->size_percent = 100.0 * (double)j->size_bytes / (double)logical_bytes;
            j->size_bytes = 0;
        }
        if (j->offset_bytes) {
            j->offset_percent = 100.0 * (double)j->offset_bytes / (double)logical_bytes;
            j->offset_bytes = 0;
        }
        if (j->offset_increment_bytes) {
            j->offset_increment_percent =
                100.0 * (double)j->offset_increment_bytes / (double)logical_bytes;
            j->offset_increment_bytes = 0;
        }
    }
    if (n == 0) {
        ssdsim__set_errmsg(sim, "fast preconditioning: %s writes nothing%s", label,
                           SSDSIM__PRECOND_NOTHING_WRITTEN);
        free(jobs);
        return SSDSIM_ECONFIG;
    }
    *out = jobs;
    *n_out = n;
    return 0;
}

/* Set how much each clone writes per run of the scaled copy (a round): one pass over its region,
 * or, when the clones' regions add up to more than the device, the same fraction of a pass for
 * each, so that a round is about one drive write. Whole passes matter: with fio's random map a
 * job writes every block of its region once per pass, and a run that stopped part-way through a
 * pass and started a new permutation in the next would write a different sequence (the blocks
 * of a pass live about one pass each; cut passes give them far more varied lifetimes and greedy
 * GC a WAF higher by half at 28% over-provisioning). Returns the bytes of a round. */
static uint64_t set_round_bytes(struct ssdsim__jobspec *jobs, uint32_t n, uint64_t logical_bytes,
                                uint32_t page_size)
{
    double regions = 0;
    for (uint32_t i = 0; i < n; i++) {
        uint64_t off, size;
        ssdsim__jobspec_region(&jobs[i], 0, logical_bytes, &off, &size);
        regions += (double)size * (jobs[i].numjobs ? jobs[i].numjobs : 1);
    }
    double f = regions > (double)logical_bytes ? (double)logical_bytes / regions : 1.0;
    uint64_t round = 0;
    for (uint32_t i = 0; i < n; i++) {
        uint64_t off, size;
        ssdsim__jobspec_region(&jobs[i], 0, logical_bytes, &off, &size);
        uint64_t b = (uint64_t)((double)size * f) / page_size * page_size;
        jobs[i].io_size_bytes = SSDSIM__MAX(b, page_size);
        round += jobs[i].io_size_bytes * (jobs[i].numjobs ? jobs[i].numjobs : 1);
    }
    return round;
}

/* What the scaled copy's blocks hold, pooled over its planes and sorted oldest first. */
struct pooled {
    uint64_t order;
    uint32_t valid, erases;
};

static int pooled_cmp(const void *a, const void *b)
{
    const struct pooled *x = a, *y = b;
    return x->order < y->order ? -1 : x->order > y->order;
}

/* Add `d` (positive or negative) pages to the valid counts of the image's written blocks, a page
 * at a time spread evenly over the blocks that can take one (below pages_per_block to add, above
 * 0 to remove), keeping each in [0, ppb]. Returns false if they cannot absorb it. */
static bool spread_adjust(uint32_t *valid, uint64_t n, int64_t d, uint32_t ppb)
{
    while (d != 0) {
        bool add = d > 0;
        uint64_t need = (uint64_t)(add ? d : -d), able = 0, moved = 0;
        for (uint64_t i = 0; i < n; i++)
            able += valid[i] != SSDSIM_IMAGE_FREE && (add ? valid[i] < ppb : valid[i] > 0);
        if (able == 0)
            return false;
        /* need / able pages each, plus one for an evenly spread need % able of them */
        uint64_t per = need / able, rem = need % able, k = 0;
        for (uint64_t i = 0; i < n && moved < need; i++) {
            if (valid[i] == SSDSIM_IMAGE_FREE || (add ? valid[i] >= ppb : valid[i] == 0))
                continue;
            uint64_t m = per + ((k + 1) * rem / able - k * rem / able);
            k++;
            m = SSDSIM__MIN(SSDSIM__MIN(m, add ? ppb - valid[i] : valid[i]), need - moved);
            valid[i] = add ? valid[i] + (uint32_t)m : valid[i] - (uint32_t)m;
            moved += m;
        }
        d += add ? -(int64_t)moved : (int64_t)moved;
    }
    return true;
}

/* Keep every plane of the image within what the FTL lets a plane hold: its blocks less those
 * it keeps free or open (ssdsim__model_reserve), in pages. The device-wide spread above gives
 * each plane pages in proportion to its written blocks, and a plane that took one written block
 * more than the average (one free block fewer in the scaled copy's plane) gets most of a block
 * more: on a small plane whose spare is little more than the reserve, more than fits. The
 * excess moves, a page at a time spread evenly, to the planes below their limit. Returns false
 * if the planes together cannot hold the pages. */
bool ssdsim__precond_plane_caps(const struct ssdsim *sim, uint32_t *valid)
{
    const ssdsim_geometry *g = &sim->sys.devs[0].env.geo;
    struct ssdsim__reserve r;
    ssdsim__model_reserve(sim->sys.dev_model, &r);
    if (!r.known)
        return true; /* a plugin FTL: its install method judges */
    const uint32_t bpp = g->blocks_per_plane, ppb = g->pages_per_block;
    if (r.blocks >= bpp)
        return false;
    uint64_t room = (uint64_t)(bpp - r.blocks) * ppb, excess = 0;
    uint64_t *cap = malloc(sizeof *cap * g->n_planes), *sum = malloc(sizeof *sum * g->n_planes);
    if (!cap || !sum) {
        free(cap);
        free(sum);
        return false;
    }
    for (uint32_t p = 0; p < g->n_planes; p++) {
        uint32_t *v = valid + (uint64_t)p * bpp;
        uint64_t written = 0;
        sum[p] = 0;
        for (uint32_t i = 0; i < bpp; i++) {
            if (v[i] != SSDSIM_IMAGE_FREE) {
                written++;
                sum[p] += v[i];
            }
        }
        cap[p] = SSDSIM__MIN(room, written * ppb);
        if (sum[p] > cap[p]) {
            spread_adjust(v, bpp, -(int64_t)(sum[p] - cap[p]), ppb);
            excess += sum[p] - cap[p];
            sum[p] = cap[p];
        }
    }
    bool ok = true;
    while (excess > 0 && ok) {
        uint64_t n = 0;
        for (uint32_t p = 0; p < g->n_planes; p++)
            n += sum[p] < cap[p];
        if (n == 0) {
            ok = false;
            break;
        }
        uint64_t per = (excess + n - 1) / n;
        for (uint32_t p = 0; p < g->n_planes && excess > 0; p++) {
            if (sum[p] >= cap[p])
                continue;
            uint64_t d = SSDSIM__MIN(SSDSIM__MIN(per, cap[p] - sum[p]), excess);
            spread_adjust(valid + (uint64_t)p * bpp, bpp, (int64_t)d, ppb);
            sum[p] += d;
            excess -= d;
        }
    }
    free(cap);
    free(sum);
    return ok;
}

struct scaled_run {
    struct ssdsim *s;
    uint32_t bpp;
    double drive_writes, waf;
    bool steady;
};

/* Build the scaled copy and run the workload on it until its WAF is steady and at least
 * `min_dw` drive writes are done. */
static int run_scaled(struct ssdsim *sim, struct ssdsim__jobspec *jobs, uint32_t n_jobs,
                      uint32_t bpp_s, double min_dw, struct scaled_run *out)
{
    const struct ssdsim_model *m = sim->sys.dev_model; /* a system's member */
    const ssdsim_geometry *g = &sim->sys.devs[0].env.geo;
    int rc;
    ssdsim_error err;
    /* The one scaled-copy rule (methods/scaled.c). */
    struct ssdsim_model *ms = ssdsim__scaled_copy(m, bpp_s, &err);
    rc = ms ? 0 : err.code;
    struct ssdsim *s = NULL;
    if (rc == 0)
        rc = ssdsim_new(&s, ms, sim->seed ^ 0x5ca1ed5ca1ed5ca1ULL, &err);
    ssdsim_model_free(ms);
    if (rc) {
        ssdsim__set_errmsg(sim, "fast preconditioning: the scaled copy (%u blocks per plane): %s",
                           bpp_s, err.message);
        return rc;
    }
    ssdsim_set_progress(s, sim->progress, sim->progress_ud);
    s->precond_method = sim->precond_method;
    bool ff = sim->precond_method == SSDSIM_PRECONDITION_METHOD_FUNCTIONAL &&
              !ssdsim__ff_unsupported(s, NULL);

    uint64_t lp = s->sys.devs[0].env.geo.logical_pages, bytes_s = lp * g->page_size;
    uint64_t round = set_round_bytes(jobs, n_jobs, bytes_s, g->page_size);
    struct ssdsim_workload w = {.magic = SSDSIM__MAGIC_WORKLOAD,
                                .label = (char *)"fast preconditioning",
                                .jobs = jobs,
                                .n_jobs = n_jobs};
    struct ssdsim__waf_rounds r = {
        .lp = lp, .min_dw = min_dw, .max_dw = fmax(SSDSIM__PRECOND_MAX_DW, 4 * min_dw)};
    r.cap = (size_t)(r.max_dw * (double)bytes_s / (double)round) + 2;
    r.waf = calloc(r.cap, sizeof *r.waf);
    if (!r.waf) {
        rc = SSDSIM_ENOMEM;
        ssdsim__set_errmsg(sim, "out of memory");
    }
    while (rc == 0 && r.n < r.cap) {
        s->progress_span =
            ssdsim__waf_rounds_span(&r, sim->progress_span, (double)round / (double)bytes_s);
        if (ff) { /* the same rounds fast-forwarded */
            uint64_t written;
            ssdsim_reset_stats(s);
            rc = ssdsim__ff_run(s, &w, 0, &written);
        } else {
            rc = ssdsim_run(s, &w, NULL);
        }
        if (rc) {
            ssdsim__set_errmsg(sim, "fast preconditioning: the scaled copy's run: %s",
                               ssdsim_errmsg(s));
            break;
        }
        if (ssdsim__waf_rounds_add(&r, s))
            break;
    }
    free(r.waf);
    if (rc == 0)
        rc = ssdsim__precond_settle(s);
    if (rc && !sim->errmsg[0])
        ssdsim__set_errmsg(sim, "fast preconditioning: the scaled copy: %s", ssdsim_errmsg(s));
    if (rc) {
        ssdsim_free(s);
        return rc;
    }
    if (!r.steady)
        ssdsim__log(SSDSIM_LOG_WARNING,
                    "fast preconditioning: the scaled copy's WAF was not steady after %.1f drive "
                    "writes; installing its state anyway",
                    ssdsim__waf_rounds_drive_writes(&r));
    *out = (struct scaled_run){.s = s,
                               .bpp = bpp_s,
                               .drive_writes = ssdsim__waf_rounds_drive_writes(&r),
                               .waf = r.mean,
                               .steady = r.steady};
    return 0;
}

/* The image of the real device from the scaled copy `s`.
 *
 * Per plane, as many free blocks as the same plane of the scaled copy has blocks not closed
 * (free, its frontiers, a victim): free blocks sit at the GC watermarks, an absolute number per
 * plane whatever its size, and the frontiers' unwritten room stays free too (their data goes to
 * the closed blocks with the rest of the adjustment below). Every other block is
 * written and closed, and gets, in age order, the valid count and erase count of the scaled
 * block at the same age quantile among the scaled copy's closed blocks (all planes pooled: more
 * samples than one plane has). Each plane samples the quantiles at its own offset, so that the
 * planes together take every scaled block about equally often: with one set of quantiles for all
 * planes, a state where valid counts alternate between full and empty blocks (a random-map
 * workload at the end of a pass) aliases and every plane gets the same skewed sample.
 *
 * The valid counts then add up to the logical pages within about a block per plane (the scaled
 * copy's half-written frontiers are full closed blocks in the image); that difference is spread
 * a page at a time over the device's written blocks. The page FTL places logical pages on any
 * plane, so only the device's total must match; each plane's stays within a few pages of an
 * equal share. Erase counts are added to the device's own. */
static int build_image(struct ssdsim *sim, const struct ssdsim *s, uint32_t *valid, uint64_t *order,
                       uint32_t *erases)
{
    const ssdsim_geometry *g = &sim->sys.devs[0].env.geo, *gs = &s->sys.devs[0].env.geo;
    const ssdsim_ftl_ops *ops_s = s->sys.devs[0].env.ops;
    struct pooled *closed = malloc(sizeof *closed * gs->n_blocks);
    uint32_t *other = malloc(sizeof *other * gs->n_blocks); /* erase counts of free and open */
    if (!closed || !other) {
        free(closed);
        free(other);
        ssdsim__set_errmsg(sim, "out of memory");
        return SSDSIM_ENOMEM;
    }
    /* per plane, the scaled copy's blocks that are not closed: free, and the frontiers (open)
     * and a victim being collected, whose room the image keeps free (below) */
    uint32_t *not_closed = calloc(gs->n_planes, sizeof *not_closed);
    if (!not_closed) {
        free(closed);
        free(other);
        ssdsim__set_errmsg(sim, "out of memory");
        return SSDSIM_ENOMEM;
    }
    uint64_t n_closed = 0, n_other = 0;
    for (uint64_t b = 0; b < gs->n_blocks; b++) {
        uint64_t ord;
        if (ops_s->block_closed(s->sys.devs[0].env.state, b, &ord)) {
            closed[n_closed++] =
                (struct pooled){ord, ops_s->block_valid(s->sys.devs[0].env.state, b),
                                s->sys.devs[0].env.erase_count[b]};
        } else {
            other[n_other++] = s->sys.devs[0].env.erase_count[b];
            not_closed[b / gs->blocks_per_plane]++;
        }
    }
    qsort(closed, n_closed, sizeof *closed, pooled_cmp);
    if (n_closed == 0) {
        free(closed);
        free(other);
        ssdsim__set_errmsg(sim, "fast preconditioning: the scaled copy has no written block");
        return SSDSIM_ESTATE;
    }
    const uint32_t bpp = g->blocks_per_plane, ppb = g->pages_per_block;
    int64_t sum = 0;
    for (uint32_t p = 0; p < g->n_planes; p++) {
        uint64_t first = (uint64_t)p * bpp;
        /* Every block the copy's plane has not closed is free in the image: its free blocks
         * and its frontiers, whose data the closed blocks take (spread_adjust). A frontier
         * made a full closed block would lose its unwritten room, and the image would be
         * tighter than the copy: with parity superblocks and GC at 2 / 3, too tight for its
         * data (the writers then take a free superblock, leaving GC none to copy into). */
        uint32_t n_free = not_closed[p];
        n_free = SSDSIM__MIN(n_free, bpp - 1);
        uint32_t c = bpp - n_free;
        double offset = ((double)p + 0.5) / g->n_planes;
        for (uint32_t i = 0; i < c; i++) {
            uint64_t j = (uint64_t)(((double)i + offset) / c * (double)n_closed);
            j = SSDSIM__MIN(j, n_closed - 1);
            valid[first + i] = closed[j].valid;
            erases[first + i] = closed[j].erases;
            /* quantile order: the planes' blocks interleave evenly in age */
            order[first + i] = (uint64_t)(((double)i + offset) / c * 0x1p40);
            sum += closed[j].valid;
        }
        for (uint32_t i = c; i < bpp; i++) {
            valid[first + i] = SSDSIM_IMAGE_FREE;
            order[first + i] = 0;
            uint64_t j = (uint64_t)(((double)(i - c) + offset) / n_free * (double)n_other);
            erases[first + i] = n_other ? other[SSDSIM__MIN(j, n_other - 1)] : 0;
        }
    }
    free(closed);
    free(other);
    free(not_closed);
    if (!spread_adjust(valid, g->n_blocks, (int64_t)g->logical_pages - sum, ppb)) {
        ssdsim__set_errmsg(sim,
                           "fast preconditioning: the device's written blocks cannot hold "
                           "its %llu logical pages",
                           (unsigned long long)g->logical_pages);
        return SSDSIM_ESTATE;
    }
    if (!ssdsim__precond_plane_caps(sim, valid)) {
        ssdsim__set_errmsg(sim,
                           "fast preconditioning: the device's planes cannot hold its %llu "
                           "logical pages beside the FTL's reserve",
                           (unsigned long long)g->logical_pages);
        return SSDSIM_ESTATE;
    }
    for (uint64_t b = 0; b < g->n_blocks; b++) {
        uint64_t e = (uint64_t)erases[b] + sim->sys.devs[0].env.erase_count[b];
        erases[b] = (uint32_t)SSDSIM__MIN(e, UINT32_MAX / 4);
    }
    return 0;
}

/* Does job `j` write through an FDP placement other than 0 on a drive of `fdp`? */
static bool other_placements(const struct ssdsim__jobspec *j, const struct ssdsim__fdp_cfg *fdp)
{
    if (!fdp->handles)
        return false;
    for (uint32_t k = 0; k < j->n_placements; k++)
        if (j->placements[k] != 0) /* an id, or fdp_pli's index: 0 is placement 0 both ways */
            return true;
    return j->fdp && !j->n_placements && fdp->handles * ssdsim__fdp_groups(fdp) > 1;
}

/* Whether the scaled copy represents `wl` (every job one it can, unsupported() NULL) and the
 * FTL can install its state. The installed image holds placement handle 0's data spread over
 * every die (ftl/page_fdp.c): not what writes through other placements leave, nor writes
 * through placement 0 with several reclaim groups (they stay in group 0's dies while it has
 * room); those are fast-forwarded on the drive itself. */
bool ssdsim__precond_scaled_represents(const struct ssdsim *sim, const ssdsim_workload *wl)
{
    const struct ssdsim__fdp_cfg *fdp = &sim->sys.dev_model->fdp;
    if (fdp->handles && ssdsim__fdp_groups(fdp) > 1)
        return false;
    const ssdsim_ftl_ops *ops = sim->sys.devs[0].env.ops;
    if (!SSDSIM__HAS_METHOD(ops, ssdsim_ftl_ops, install) ||
        !SSDSIM__HAS_METHOD(ops, ssdsim_ftl_ops, block_closed) ||
        !SSDSIM__HAS_METHOD(ops, ssdsim_ftl_ops, block_valid))
        return false;
    bool writes = false;
    for (uint32_t i = 0; i < wl->n_jobs; i++) {
        if (unsupported(&wl->jobs[i], sim->sys.volume_bytes) || other_placements(&wl->jobs[i], fdp))
            return false;
        writes |= wl->jobs[i].rw != SSDSIM__RW_READ && wl->jobs[i].rw != SSDSIM__RW_RANDREAD;
    }
    return writes;
}

/* The runs of logical units the write jobs `jobs` leave side by side (layout.c) on the single
 * solid-state device of `sim`, into *runs (NULL: none, or a system of devices, whose members see
 * the volume's requests cut by its layout). 0 or a code with the message set. */
static int layout_runs(struct ssdsim *sim, const struct ssdsim__jobspec *jobs, uint32_t n_jobs,
                       uint8_t **runs, uint64_t *period)
{
    *runs = NULL;
    *period = 0;
    if (sim->sys.n_devs != 1 || sim->sys.is_system || !sim->sys.devs[0].ssd)
        return 0;
    const ssdsim_geometry *g = &sim->sys.devs[0].env.geo;
    int rc = ssdsim__layout_runs(jobs, n_jobs, sim->sys.volume_bytes, g->page_size,
                                 sim->sys.dev_model->geometry.page_size, sim->seed, runs, period);
    if (rc)
        ssdsim__set_errmsg(sim, "fast preconditioning: out of memory");
    return rc;
}

/* Build the image of `sim` from the scaled copy `s` (settled) and install it on every device of
 * `sim`, which is settled and reset first, with the runs of layout_runs. 0 or a code with the
 * message set. */
static int install_from(struct ssdsim *sim, const struct ssdsim *s, const uint8_t *runs,
                        uint64_t period)
{
    uint64_t nb = sim->sys.devs[0].env.geo.n_blocks;
    uint32_t *valid = malloc(sizeof *valid * nb);
    uint64_t *order = malloc(sizeof *order * nb);
    uint32_t *erases = malloc(sizeof *erases * nb);
    int rc = 0;
    char why[512];
    if (!valid || !order || !erases) {
        ssdsim__set_errmsg(sim, "out of memory");
        rc = SSDSIM_ENOMEM;
    }
    if (rc == 0)
        rc = build_image(sim, s, valid, order, erases);
    if (rc == 0)
        rc = ssdsim__precond_settle(sim);
    if (rc == 0)
        rc = ssdsim__precond_reset_device(sim);
    if (rc == 0) {
        ssdsim_ftl_image img = {.valid = valid,
                                .closed_order = order,
                                .erase_count = erases,
                                .run_len = runs,
                                .run_period = period};
        for (uint32_t k = 0; rc == 0 && k < sim->sys.n_devs; k++) {
            rc = ssdsim__env_install(&sim->sys.devs[k].env, &img, why, sizeof why);
            if (rc)
                ssdsim__set_errmsg(sim, "fast preconditioning: device %u: %s", k, why);
            else
                sim->sys.devs[k].installed = true; /* a steady state: preconditioned */
            if (rc == 0) /* a cancel asked here is seen by the settling run that follows */
                (void)ssdsim__progress_call(sim, (double)(k + 1) / sim->sys.n_devs);
        }
    }
    free(valid);
    free(order);
    free(erases);
    return rc;
}

/* ssdsim_precondition_fast on a scaled copy: the workload's write jobs run on a copy of
 * `bpp_s` blocks per plane (0: the model's rule, methods/scaled.c) for at least `dw` drive writes
 * until steady, then its state installed. Called with the options read and the device quiet. */
int ssdsim__precond_scaled(struct ssdsim *sim, const ssdsim_workload *wl, uint32_t bpp_s, double dw)
{
    int rc;
    bool slc = ssdsim__slc_on(&sim->sys.dev_model->slc);
    if (!sim->sys.devs[0].ssd) {
        ssdsim__set_errmsg(sim, "fast preconditioning: a hard disk has no flash state to "
                                "install (run the workload instead)");
        return SSDSIM_ENOTFOUND;
    }
    if (slc) {
        ssdsim__set_errmsg(sim, "fast preconditioning: a drive with an SLC cache (slc.static, "
                                "slc.dynamic) is preconditioned by functional fast-forward "
                                "only (not with --precondition-method timed, whose scaled copy "
                                "cannot carry the cache), or by writing");
        return SSDSIM_ENOTFOUND;
    }
    const ssdsim_ftl_ops *ops = sim->sys.devs[0].env.ops;
    if (!SSDSIM__HAS_METHOD(ops, ssdsim_ftl_ops, install) ||
        !SSDSIM__HAS_METHOD(ops, ssdsim_ftl_ops, block_closed) ||
        !SSDSIM__HAS_METHOD(ops, ssdsim_ftl_ops, block_valid)) {
        ssdsim__set_errmsg(sim,
                           "fast preconditioning: FTL '%s' cannot install a device state (it "
                           "needs the install, block_closed and block_valid methods; the page "
                           "FTL has them)",
                           ops->name);
        return SSDSIM_ENOTFOUND;
    }
    /* The workload is checked against the volume it addresses. Every device of a system is the
     * same model and, under uniform random writes over the volume (RAID-0/1/5) or over each
     * device (JBOD), each sees uniform random writes: one scaled run of the member gives the
     * state installed on every device. */
    uint64_t logical = sim->sys.volume_bytes;
    if ((rc = ssdsim__check_workload(sim, wl)) != 0)
        return rc;
    struct ssdsim__jobspec *jobs = NULL;
    uint32_t n_jobs = 0;
    rc = scaled_workload(sim, wl, logical, &jobs, &n_jobs);
    if (rc)
        return rc;
    if (bpp_s == 0)
        bpp_s = ssdsim__scaled_bpp(sim->sys.dev_model);
    /* For progress, the rounds on the copy and the install on each device in proportion to
     * their work: the copy's units times the drive writes asked, and each device's units at a
     * quarter of a fast-forwarded write each (18 against 83 ns measured on generic-mlc at 1 TiB;
     * the rounds stand for less when they take more drive writes to be steady) */
    const ssdsim_geometry *g = &sim->sys.devs[0].env.geo;
    double lp = (double)g->logical_pages;
    double work_r = lp * bpp_s / g->blocks_per_plane * dw, work_i = 0.25 * lp * sim->sys.n_devs;
    struct ssdsim__span base = sim->progress_span;
    sim->progress_span = ssdsim__span_part(base, 0, work_r / (work_r + work_i));
    struct scaled_run sr;
    rc = run_scaled(sim, jobs, n_jobs, bpp_s, dw, &sr);
    sim->progress_span = ssdsim__span_part(base, work_r / (work_r + work_i), 1);
    uint8_t *runs = NULL;
    uint64_t period = 0;
    if (rc == 0 && (rc = layout_runs(sim, jobs, n_jobs, &runs, &period)) != 0)
        ssdsim_free(sr.s);
    free(jobs);
    if (rc) {
        sim->progress_span = base;
        return rc;
    }
    rc = install_from(sim, sr.s, runs, period);
    sim->progress_span = base;
    free(runs);
    ssdsim_free(sr.s);
    if (rc)
        return rc;
    sim->precond = (struct ssdsim__precond){.mode = "fast",
                                            .scaled_blocks_per_plane = sr.bpp,
                                            .drive_writes = sr.drive_writes,
                                            .waf = sr.waf,
                                            .steady = sr.steady};
    ssdsim_reset_stats(sim);
    return 0;
}

int ssdsim__precondition_from_copy(struct ssdsim *sim, struct ssdsim *copy,
                                   const ssdsim_workload *wl, double drive_writes, double waf,
                                   bool steady)
{
    /* Only where ssdsim_precondition_fast would install a scaled copy's state itself: one
     * solid-state device without an SLC cache, a workload the copy represents, and a copy of
     * the same planes and blocks but for their number. */
    if (sim->sys.n_devs != 1 || !sim->sys.devs[0].ssd || sim->sys.is_system ||
        copy->sys.n_devs != 1 || !copy->sys.devs[0].ssd || copy->sys.is_system ||
        ssdsim__slc_on(&sim->sys.dev_model->slc) || !ssdsim__precond_scaled_represents(sim, wl))
        return SSDSIM_ENOTFOUND;
    const ssdsim_geometry *g = &sim->sys.devs[0].env.geo, *gs = &copy->sys.devs[0].env.geo;
    if (gs->n_planes != g->n_planes || gs->pages_per_block != g->pages_per_block ||
        gs->page_size != g->page_size || gs->blocks_per_plane > g->blocks_per_plane)
        return SSDSIM_ENOTFOUND;
    sim->errmsg[0] = 0;
    int rc = ssdsim__precond_check_quiet(sim, "fast preconditioning");
    if (rc)
        return rc;
    if ((rc = ssdsim__check_workload(sim, wl)) != 0)
        return rc;
    /* what the copy's buffer holds goes to its flash, and its flash work ends */
    if ((rc = ssdsim__precond_drain(copy)) != 0)
        return ssdsim__fail(sim, rc, "fast preconditioning: the scaled copy: %s",
                            ssdsim_errmsg(copy));
    struct ssdsim__jobspec *jobs = NULL;
    uint32_t n_jobs = 0;
    uint8_t *runs = NULL;
    uint64_t period = 0;
    if ((rc = scaled_workload(sim, wl, sim->sys.volume_bytes, &jobs, &n_jobs)) != 0)
        return rc;
    rc = layout_runs(sim, jobs, n_jobs, &runs, &period);
    free(jobs);
    if (rc == 0)
        rc = install_from(sim, copy, runs, period);
    free(runs);
    if (rc)
        return rc;
    sim->precond = (struct ssdsim__precond){.mode = "fast",
                                            .scaled_blocks_per_plane = gs->blocks_per_plane,
                                            .drive_writes = drive_writes,
                                            .waf = waf,
                                            .steady = steady};
    ssdsim_reset_stats(sim);
    return 0;
}
