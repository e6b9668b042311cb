/* steady.c: bringing a drive to a workload's steady state (ssdsim_reach_steady) and settling
 * after fast preconditioning (ssdsim_settle, ssdsim_settle_adaptive).
 *
 * Fast preconditioning installs the state a long run leaves, with the planes' frontiers at
 * random points of their blocks as a long run's drift leaves them (ftl/page_install.c), so the
 * planes do not call for garbage collection in lockstep: generic-mlc at 16T/16Q swings 9,600 to
 * 11,100 IOPS in 2 s intervals right after it, as at the end of a 1,500 s timed run (9,700 to
 * 11,100); before the frontiers were dephased, 8,600 to 11,700. What it cannot install is the
 * level at which garbage collection holds the free blocks: functional GC collects each plane up
 * to its target before the next write, a timed run's foreground GC runs beside a saturating
 * host and holds the planes near the reserve, so the first second or so after installing runs
 * faster (generic-mlc at 16T/16Q: 12,078 IOPS in the first second against about 10,300).
 *
 * Settling writes more of the same workload until the free blocks come down to the level GC
 * holds: in rounds of one block per plane of host writes (on every SSD of a system), it stops
 * after the first round, from the second on, that took less than a quarter of a block per
 * plane net from the free blocks. Before the level is reached a round takes a whole block per
 * plane (the host's writes fill them and GC does not run yet); at the level GC gives back what
 * the host takes, and the rounds' net change only wanders by a few blocks over the device.
 * The workload's tenth of a drive write (SSDSIM_SETTLE_DRIVE_WRITES), the fixed amount settling
 * wrote before, bounds it. The rule holds for RAIN's superblocks and FDP's reclaim units too,
 * although their install does not dephase the planes: a superblock is one frontier over every
 * plane, collected whole, so a timed run's GC comes in step there as well, and the free blocks
 * reach GC's level in the same few rounds (the P320h, 128 blocks per plane: settled adaptively
 * or by the whole tenth, its first 1 GiB of 4 KiB random writes runs 147k or 186k IOPS, where a
 * timed run's steady 1 GiB intervals range over 150k to 227k in a cycle of about 3 GiB, and
 * 5 GiB intervals after either settle average 171k, as the timed run's do). ssdsim_settle writes
 * a fixed amount.
 *
 * A system behind a RAID card with a battery-backed write-back cache (system.cache) holds one
 * more state that writes change: the cache's dirty bytes. Hours of writes leave it at the level
 * the workload holds it at (full, where the devices drain it slower than the host fills it);
 * a drive just preconditioned or settled, or disks left as they are, start with it empty, and a
 * window of seconds then measures the cache's DRAM: on the lab's RAID-5 of four 15K disks the
 * review's 4K random-write matrix read 181,380 to 486,680 IOPS at its first three points and
 * 260 at the fourth. So reaching steady state ends by filling it with the workload itself
 * (ssdsim_fill_card_cache): rounds of an eighth of the cache of host writes, until a round,
 * from the second on, added less than a quarter of a round to the dirty bytes, at most 4
 * caches of writes.
 */
#include "common.h"

#include <math.h>
#include <stdio.h>

#include "abi.h"
#include "methods/methods.h"
#include "sim.h"

/* Write `dw` drive writes more of `wl` (its write share counted) as one run with options `ro`
 * (may be NULL). `dw` > 0 and `wl` writes. */
static int settle_run(ssdsim *sim, const ssdsim_workload *wl, double dw, const ssdsim_run_opts *ro)
{
    ssdsim_device_stats d;
    ssdsim_get_device_stats(sim, &d);
    struct ssdsim__methods_len len = {.io_size_bytes =
                                          ssdsim__methods_io_size(wl, dw, d.logical_bytes)};
    return ssdsim__methods_run(sim, wl, &len, ro);
}

static int settle(ssdsim *sim, const ssdsim_workload *wl, double dw, double *written)
{
    if (written)
        *written = 0;
    if (dw <= 0 || ssdsim__methods_write_share(wl) <= 0)
        return 0;
    int rc = settle_run(sim, wl, dw, NULL);
    if (rc == 0 && written)
        *written = dw;
    return rc;
}

/* The adaptive settle's stop rule (sim->round_stop), asked at each closed round. */
struct settle_rule {
    uint64_t planes; /* of every SSD of the system */
};

static bool free_level_held(const struct ssdsim *sim, void *ctx)
{
    const struct settle_rule *r = ctx;
    size_t n = sim->stats.n_series;
    if (n < 2)
        return false;
    int64_t drop = (int64_t)sim->stats.series[n - 2].free_blocks -
                   (int64_t)sim->stats.series[n - 1].free_blocks;
    return drop * 4 < (int64_t)r->planes;
}

/* The drive writes the last run's host writes made (0 when nothing was written). */
static double run_drive_writes(const ssdsim *sim)
{
    ssdsim_op_stats w;
    ssdsim_device_stats d;
    if (ssdsim_get_op_stats(sim, SSDSIM_OP_WRITE, &w) || ssdsim_get_device_stats(sim, &d) ||
        !d.logical_bytes)
        return 0;
    return (double)w.bytes / (double)d.logical_bytes;
}

/* settle_run of `dw` drive writes in rounds of `round_bytes` of host writes, stopped early at
 * the first closed round `stop` (sim->round_stop) says so. */
static int run_rounds(ssdsim *sim, const ssdsim_workload *wl, double dw, uint64_t round_bytes,
                      bool (*stop)(const struct ssdsim *sim, void *ctx), void *ctx)
{
    ssdsim_run_opts ro = SSDSIM_RUN_OPTS_INIT;
    ro.interval_bytes = round_bytes;
    sim->round_stop = stop;
    sim->round_stop_ctx = ctx;
    int rc = settle_run(sim, wl, dw, &ro);
    sim->round_stop = NULL;
    sim->round_stop_ctx = NULL;
    return rc;
}

static int settle_adaptive(ssdsim *sim, const ssdsim_workload *wl, double max_dw, double *written)
{
    if (written)
        *written = 0;
    if (max_dw <= 0 || ssdsim__methods_write_share(wl) <= 0)
        return 0;
    struct settle_rule rule = {0};
    uint64_t round_bytes = 0;
    for (uint32_t k = 0; k < sim->sys.n_devs; k++) {
        const struct ssdsim__dev *dv = &sim->sys.devs[k];
        if (!dv->ssd)
            continue;
        const ssdsim_geometry *g = &dv->env.geo;
        rule.planes += g->n_planes;
        round_bytes += (uint64_t)g->n_planes * g->pages_per_block * g->page_size;
    }
    if (!round_bytes)
        return 0; /* hard disks only: no free blocks to bring down */
    int rc = run_rounds(sim, wl, max_dw, round_bytes, free_level_held, &rule);
    if (rc == 0 && written)
        *written = run_drive_writes(sim);
    return rc;
}

/* ssdsim_fill_card_cache's stop rule (sim->round_stop), asked at each closed round. */
struct cache_rule {
    uint64_t round_bytes, last_dirty;
    bool first; /* no round closed yet */
};

static bool cache_level_held(const struct ssdsim *sim, void *ctx)
{
    struct cache_rule *r = ctx;
    uint64_t dirty = sim->sys.wc.dirty;
    bool held = !r->first && dirty < r->last_dirty + r->round_bytes / 4;
    r->first = false;
    r->last_dirty = dirty;
    return held;
}

/* Declared in ssdsim/measure.h; its rule is the one the comment at the top explains. */
int ssdsim_fill_card_cache(ssdsim *sim, const ssdsim_workload *wl)
{
    SSDSIM__CHECK_HANDLE(sim, SSDSIM__MAGIC_SIM, "ssdsim");
    if (!sim || !wl)
        return ssdsim__fail(sim, SSDSIM_EINVAL, "ssdsim_fill_card_cache: sim and wl are needed");
    uint64_t size = sim->sys.wc.size;
    if (!size || ssdsim__methods_write_share(wl) <= 0)
        return 0;
    ssdsim_device_stats d;
    ssdsim_get_device_stats(sim, &d);
    if (!d.logical_bytes)
        return 0;
    struct cache_rule rule = {.round_bytes = size / 8 ? size / 8 : 1, .first = true};
    return run_rounds(sim, wl, 4.0 * (double)size / (double)d.logical_bytes, rule.round_bytes,
                      cache_level_held, &rule);
}

/* The arguments of ssdsim_settle and ssdsim_settle_adaptive (`fn`), whose amount is called
 * `what`: *written zeroed, 0 or SSDSIM_EINVAL with the message set. */
/* Most rounds per drive write and drive writes a curve or a settle is let run: far beyond any use
 * (a drive reaches its steady state within a few drive writes), short of a run that never ends. */
#define CURVE_MAX_ROUNDS_PER_DW 1000000u
#define CURVE_MAX_DRIVE_WRITES 1e6

static int settle_args(ssdsim *sim, const ssdsim_workload *wl, double dw, double *written,
                       const char *fn, const char *what)
{
    if (written)
        *written = 0;
    if (!sim || !wl)
        return ssdsim__fail(sim, SSDSIM_EINVAL, "%s: sim and wl are needed", fn);
    if (!(dw >= 0 && dw <= CURVE_MAX_DRIVE_WRITES))
        return ssdsim__fail(sim, SSDSIM_EINVAL,
                            "%s: %s: expected drive writes from 0 to %g, got %g", fn, what,
                            CURVE_MAX_DRIVE_WRITES, dw);
    return 0;
}

int ssdsim_settle_adaptive(ssdsim *sim, const ssdsim_workload *wl, double max_drive_writes,
                           double *written)
{
    SSDSIM__CHECK_HANDLE(sim, SSDSIM__MAGIC_SIM, "ssdsim");
    int rc = settle_args(sim, wl, max_drive_writes, written, "ssdsim_settle_adaptive",
                         "max_drive_writes");
    return rc ? rc : settle_adaptive(sim, wl, max_drive_writes, written);
}

/* Settling as curve options say: `dw` 0 adaptive, positive that amount, negative none; then,
 * unless none, a RAID card's write-back cache filled. */
int ssdsim__settle_opts(ssdsim *sim, const ssdsim_workload *wl, double dw)
{
    if (dw < 0)
        return 0;
    int rc = dw == 0 ? settle_adaptive(sim, wl, SSDSIM_SETTLE_DRIVE_WRITES, NULL)
                     : settle(sim, wl, dw, NULL);
    return rc ? rc : ssdsim_fill_card_cache(sim, wl);
}

int ssdsim_settle(ssdsim *sim, const ssdsim_workload *wl, double drive_writes, double *written)
{
    SSDSIM__CHECK_HANDLE(sim, SSDSIM__MAGIC_SIM, "ssdsim");
    int rc = settle_args(sim, wl, drive_writes, written, "ssdsim_settle", "drive_writes");
    return rc ? rc : settle(sim, wl, drive_writes, written);
}

int ssdsim__curve_opts_check(const ssdsim_curve_opts *o, char *why, size_t len)
{
    if (o->rounds_per_drive_write > CURVE_MAX_ROUNDS_PER_DW) {
        snprintf(why, len, "rounds_per_drive_write: expected 0 (20) to %u, got %u",
                 CURVE_MAX_ROUNDS_PER_DW, o->rounds_per_drive_write);
        return SSDSIM_EINVAL;
    }
    if (!(o->max_drive_writes >= 0 && o->max_drive_writes <= CURVE_MAX_DRIVE_WRITES)) {
        snprintf(why, len, "max_drive_writes: expected 0 (10) or a number of drive writes up to "
                           "%g, got %g", CURVE_MAX_DRIVE_WRITES, o->max_drive_writes);
        return SSDSIM_EINVAL;
    }
    if (isnan(o->settle_drive_writes) || o->settle_drive_writes > CURVE_MAX_DRIVE_WRITES) {
        snprintf(why, len, "settle_drive_writes: expected a negative number (none), 0 "
                           "(adaptive) or drive writes up to %g, got %g",
                 CURVE_MAX_DRIVE_WRITES, o->settle_drive_writes);
        return SSDSIM_EINVAL;
    }
    return 0;
}

void ssdsim__curve_opts_resolve(ssdsim_curve_opts *o)
{
    if (!o->rounds_per_drive_write)
        o->rounds_per_drive_write = 20;
    if (!(o->max_drive_writes > 0))
        o->max_drive_writes = 10;
}

/* `o` resolved. On the long way (an FTL without fast preconditioning) a sequential fill of the
 * whole drive comes before the workload's runs, so that no logical unit is left unwritten, as
 * none is on a drive preconditioned for hours (uniform random writes leave about e^-k of them
 * after k drive writes, which a read then answers without flash). */
static int reach_steady(ssdsim *sim, const ssdsim_workload *wl, const ssdsim_curve_opts *o,
                        ssdsim_steady_method *how)
{
    if (ssdsim_model_get_device_kind(sim->model) == SSDSIM_MODEL_HDD) {
        *how = SSDSIM_STEADY_BY_NOTHING;
        return ssdsim_fill_card_cache(sim, wl); /* the disks as they are, their card's cache not */
    }
    int rc = ssdsim_secure_erase(sim);
    if (rc)
        return rc;
    rc = ssdsim_precondition_fast(sim, wl, NULL);
    if (rc == 0) {
        *how = SSDSIM_STEADY_BY_FAST;
        return ssdsim__settle_opts(sim, wl, o->settle_drive_writes);
    }
    if (rc != SSDSIM_ENOTFOUND)
        return rc;
    /* The FTL cannot install a state: write the drive to steady state the long way. */
    *how = SSDSIM_STEADY_BY_RUN;
    rc = ssdsim_secure_erase(sim);
    if (rc == 0)
        rc = ssdsim_precondition_seq_fills(sim, 1);
    if (rc)
        return rc;
    ssdsim_curve_summary sum;
    return ssdsim__curve_runs(sim, wl, o, 1.0, NULL, &sum);
}

int ssdsim_reach_steady(ssdsim *sim, const ssdsim_workload *wl, const ssdsim_curve_opts *opts,
                        ssdsim_steady_method *how)
{
    SSDSIM__CHECK_HANDLE(sim, SSDSIM__MAGIC_SIM, "ssdsim");
    ssdsim_steady_method h = SSDSIM_STEADY_BY_NOTHING;
    if (how)
        *how = h;
    if (!sim || !wl)
        return ssdsim__fail(sim, SSDSIM_EINVAL, "ssdsim_reach_steady: sim and wl are needed");
    ssdsim_curve_opts o;
    char why[256];
    if (ssdsim__curve_opts_read(&o, opts, why, sizeof why) ||
        ssdsim__curve_opts_check(&o, why, sizeof why))
        return ssdsim__fail(sim, SSDSIM_EINVAL, "ssdsim_reach_steady: %s", why);
    ssdsim__curve_opts_resolve(&o);
    int rc = reach_steady(sim, wl, &o, &h);
    if (how)
        *how = h;
    return rc;
}
