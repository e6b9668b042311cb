/* results.c: the figures of the last run, as structs, as JSON (keys documented in
 * doc/results.md) and as CSV time series. */
#include "config/jsonutil.h"
#include "sim.h"
#include "abi.h"
#include "ftl/reserve.h"
#include "ftl/page.h"
#include "config/fdp_pid.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

void ssdsim__op_stats_fill(ssdsim_op_stats *out, const struct ssdsim__hist *h, uint64_t bytes,
                           uint64_t dur_ns)
{
    double t = (double)dur_ns / 1e9;
    memset(out, 0, sizeof *out);
    out->count = h->count;
    out->bytes = bytes;
    out->iops = t > 0 ? (double)h->count / t : 0;
    out->bw_bytes = t > 0 ? (double)out->bytes / t : 0;
    out->lat_min_ns = h->count ? h->min : 0;
    out->lat_max_ns = h->max;
    out->lat_mean_ns = ssdsim__hist_mean(h);
    out->lat_stddev_ns = ssdsim__hist_stddev(h);
    out->lat_p50_ns = ssdsim__hist_quantile(h, 0.50);
    out->lat_p90_ns = ssdsim__hist_quantile(h, 0.90);
    out->lat_p99_ns = ssdsim__hist_quantile(h, 0.99);
    out->lat_p99_9_ns = ssdsim__hist_quantile(h, 0.999);
    out->lat_p99_99_ns = ssdsim__hist_quantile(h, 0.9999);
}

static int get_op_stats_full(const ssdsim *sim, enum ssdsim_op op, ssdsim_op_stats *out)
{
    if (!sim || !out || (unsigned)op > SSDSIM_OP_ALL)
        return !out ? ssdsim__fail(sim, SSDSIM_EINVAL, "ssdsim_get_op_stats: no output")
                    : ssdsim__fail(sim, SSDSIM_EINVAL,
                                   "ssdsim_get_op_stats: op %d is not an ssdsim_op", (int)op);
    struct ssdsim__hist scratch;
    ssdsim__op_stats_fill(out, ssdsim__stats_hist(&sim->stats, (uint32_t)op, &scratch),
                          sim->stats.bytes[op], sim->stats.end_ns - sim->stats.start_ns);
    return 0;
}

/* The caller's struct may be of an older, smaller layout: write `size` bytes of it at most. */
int ssdsim_get_op_stats_sized(const ssdsim *sim, enum ssdsim_op op, ssdsim_op_stats *out,
                              size_t size)
{
    ssdsim_op_stats full;
    memset(&full, 0, sizeof full);
    int rc = get_op_stats_full(sim, op, out ? &full : NULL);
    return ssdsim__result_give(out, size, &full, sizeof full, rc, false);
}

/* The 1.0 layout, for callers that bypass the macro (ctypes, function pointers). */
int (ssdsim_get_op_stats)(const ssdsim *sim, enum ssdsim_op op, ssdsim_op_stats *out)
{
    return ssdsim_get_op_stats_sized(sim, op, out, SSDSIM__OP_STATS_SIZE_1);
}

/* Bytes the devices took in write commands during the run, all of them together. */
static uint64_t devices_bytes_written(const ssdsim *sim)
{
    const struct ssdsim__sys *sys = &sim->sys;
    uint64_t bytes = 0;
    for (uint32_t k = 0; k < sys->n_devs; k++) {
        struct ssdsim__devbase now;
        ssdsim__stats_dev_now(sys, k, &now);
        bytes += now.bytes[SSDSIM_OP_WRITE] - sim->stats.dev_base[k].bytes[SSDSIM_OP_WRITE];
    }
    return bytes;
}

/* Bytes the devices were given per byte the host wrote to the volume(s): 1 for one device, a
 * JBOD or RAID-0; for a RAID-5 (parity, read-modify-writes) or a mirror (copies), the run's
 * ratio, but at least the layout's own (n / (n - 1) of a RAID-5 written in whole stripe rows, n
 * copies of a mirror), which holds for every byte in the end: a write-back cache that still
 * holds data when the run ends has given the devices less so far. */
static double array_write_factor(const ssdsim *sim)
{
    const struct ssdsim__sys *sys = &sim->sys;
    if (!sys->is_system || sys->n_devs < 2 ||
        (sys->layout != SSDSIM__LAYOUT_RAID5 && sys->layout != SSDSIM__LAYOUT_RAID1))
        return 1.0;
    double least = sys->layout == SSDSIM__LAYOUT_RAID1
                       ? (double)sys->n_devs
                       : (double)sys->n_devs / (double)(sys->n_devs - 1);
    uint64_t host = sim->stats.bytes[SSDSIM_OP_WRITE], devs = devices_bytes_written(sim);
    double run = host > 0 ? (double)devs / (double)host : 0.0;
    return run > least ? run : least;
}

/* Slots a zone written to its capacity wears per unit written: the zoned FTL (ftl/zoned.c)
 * puts unit `off` of a zone on page off / P of plane `off % P`'s stripe (P planes, one unit a
 * page), and a reset erases every block holding a written unit, so a zone whose capacity is
 * below its size gives back whole blocks whose last pages it never wrote (a block past the
 * capacity on every plane is never written, nor erased). 1 for a drive without zones. */
static double zone_wear(const struct ssdsim_model *dm)
{
    const struct ssdsim__zns_cfg *z = &dm->zns;
    const struct ssdsim__geometry *g = &dm->geometry;
    uint64_t cap = z->zone_capacity / dm->ftl.mapping_unit;
    uint64_t planes = ssdsim__geometry_planes(g);
    if (!z->zone_size || !z->zone_capacity || z->zone_capacity >= z->zone_size || cap == 0)
        return 1.0;
    uint64_t touched = 0;
    for (uint64_t s = 0; s < planes && s < cap; s++) {
        uint64_t pages = (cap - 1 - s) / planes + 1; /* units with off % P == s */
        touched += (pages + g->pages_per_block - 1) / g->pages_per_block * g->pages_per_block;
    }
    return (double)touched / (double)cap;
}

/* Flash wear per byte the host wrote to the devices: what each erase gives back is a block of
 * page slots, so the wear of a run is the slots its programs used up, whether they hold data
 * or not. WAF counts mapping units programmed per unit the host touched, which is that only
 * when every write fills whole units and every program whole pages: a unit larger than the
 * write programs all of it (the read-modify-write), a padded page leaves slots empty until the
 * erase, an SLC-mode page takes a word line that holds bits-per-cell native pages, and a zone
 * whose capacity is below its size may be erased with slots past its capacity never written.
 * Each counts here; the bytes written are those the devices took (a write buffer's overwrites
 * of data not yet flushed wear nothing). */
static double wear_factor(const ssdsim *sim, const ssdsim_device_stats *d,
                          const struct ssdsim__sys_mech *m, const struct ssdsim__sys_mech *b)
{
    const struct ssdsim__sys *sys = &sim->sys;
    const struct ssdsim_model *dm = sys->dev_model;
    if (dm->kind != SSDSIM__KIND_SSD)
        return 0.0;
    uint64_t written = devices_bytes_written(sim);
    if (written == 0)
        return 0.0;
    double slots = (double)d->flash_pages_programmed + (double)(m->pad_slots - b->pad_slots) +
                   (double)d->slc_pages_written * (double)(dm->flash.n_page_types - 1);
    return slots * zone_wear(dm) * (double)dm->ftl.mapping_unit / (double)written;
}

/* a - b, or 0: a window's busy time is the difference of two counts each exact to within the
 * microseconds a firmware core can be booked ahead (array.h), which an idle window could turn
 * negative */
static uint64_t sub0(uint64_t a, uint64_t b)
{
    return a > b ? a - b : 0;
}

static int get_device_stats_full(const ssdsim *sim, ssdsim_device_stats *out)
{
    if (!sim || !out)
        return ssdsim__fail(sim, SSDSIM_EINVAL, "ssdsim_get_device_stats: no output");
    struct ssdsim__env_counters c;
    ssdsim__stats_counters(&sim->stats, &c);
    const struct ssdsim__sys *sys = &sim->sys;
    memset(out, 0, sizeof *out);
    out->host_pages_written = ssdsim__host_pages(&c);
    out->flash_pages_programmed = ssdsim__programs(&c);
    out->gc_pages_copied = c.c[SSDSIM_CNT_GC_COPIES];
    out->blocks_erased = c.erases;
    out->waf = out->host_pages_written
                   ? (double)out->flash_pages_programmed / (double)out->host_pages_written
                   : 0.0;
    out->erase_count_min = ssdsim__sys_ec_min(sys);
    out->erase_count_max = ssdsim__sys_ec_max(sys);
    out->erase_count_mean = ssdsim__sys_erase_mean(sys);
    /* what the host can address (a RAID volume, or every device of a JBOD); the flash of every
     * device against what their FTLs map, which in a RAID-5 or a mirror is more than the
     * volume (parity, copies: data to the devices, not spare); a hard disk has no flash (and
     * no spare) */
    out->logical_bytes = sys->volume_bytes * sys->n_volumes;
    out->devices_logical_bytes = ssdsim__sys_mapped_bytes(sys);
    out->physical_bytes = ssdsim__sys_flash_bytes(sys);
    double l = (double)out->logical_bytes, p = (double)out->physical_bytes;
    double dl = (double)out->devices_logical_bytes;
    out->op = p > 0 ? (p - dl) / dl : 0;
    out->spare_factor = p > 0 ? (p - dl) / p : 0;
    /* less the share of the flash each device's FTL keeps free or open (ftl/reserve.c) */
    out->spare_factor_effective = 0;
    if (p > 0) {
        struct ssdsim__reserve r;
        ssdsim__model_reserve(sys->dev_model, &r);
        out->spare_factor_effective =
            r.known ? out->spare_factor - (r.spare_factor - r.spare_factor_effective) : NAN;
    }
    out->free_blocks = ssdsim__sys_free_blocks(sys);
    out->gc_fg_victims = c.c[SSDSIM_CNT_GC_VICTIMS];
    out->gc_bg_victims = c.c[SSDSIM_CNT_GC_BG_VICTIMS];
    out->gc_bg_pages_copied = c.c[SSDSIM_CNT_GC_BG_COPIES];
    out->wl_pages_copied = c.c[SSDSIM_CNT_WL_COPIES];
    out->map_pages_read = c.c[SSDSIM_CNT_MAP_READS];
    out->map_pages_written = c.c[SSDSIM_CNT_MAP_WRITES];
    out->merges = c.c[SSDSIM_CNT_MERGES];
    for (int i = 0; i < SSDSIM__N_PURPOSES; i++)
        out->flash_pages_read += c.reads[i];
    out->unmapped_reads = c.c[SSDSIM_CNT_UNMAPPED_READS];
    if (sys->dev_model->kind == SSDSIM__KIND_SSD) {
        out->parity_group = sys->dev_model->ftl.parity_group;
        out->parity_pages_written = c.c[SSDSIM_CNT_PARITY_PAGES];
        if (sys->dev_model->read_ahead.window > 0)
            out->readahead_streams = sys->dev_model->read_ahead.streams;
        out->readahead_units = c.c[SSDSIM_CNT_RA_UNITS];
        out->readahead_hits = c.c[SSDSIM_CNT_RA_HITS];
        out->readahead_wasted = c.c[SSDSIM_CNT_RA_WASTED];
    }

    /* Firmware and NAND operations: the growth of the cumulative counters over the run, read
     * now as the counters above are (right after a run, now is its end; after idle time or
     * requests submitted since, they include that work, and the busy times' span runs to now
     * too, so that a utilisation stays a share of the time it covers; but not through the flush
     * and mount of a power loss that ended the run, which came after the statistics closed and
     * are not in sim_time_ns: 0.839 for 0.99999 busy over a run cut at 500 ms on the 960 PRO). */
    const struct ssdsim_model *dm = sys->dev_model;
    uint64_t now = ssdsim__engine_now(&sim->engine);
    struct ssdsim__sys_mech m;
    ssdsim__sys_mech(sys, now, &m);
    const struct ssdsim__sys_mech *b = &sim->stats.base_mech;
    const struct ssdsim__controller_cfg *k = &dm->controller;
    uint64_t measured = now - SSDSIM__MIN(now - sim->stats.start_ns, sim->stats.unmeasured_ns);
    double span = (double)(SSDSIM__MAX(measured, sim->stats.end_ns) - sim->stats.start_ns);
    if (dm->kind == SSDSIM__KIND_SSD && (k->fw_read_ns || k->fw_write_ns || k->fw_gc_victim_ns ||
                                         k->fw_gc_page_ns || k->fw_map_ns || k->fw_wl_page_ns)) {
        out->fw_busy_ns = sub0(m.fw_busy_ns, b->fw_busy_ns);
        out->fw_cores = m.fw_cores;
        out->fw_utilization = span > 0 ? (double)out->fw_busy_ns / ((double)m.fw_cores * span) : 0;
    }
    if (m.wpath_devs) { /* devices whose model sets controller.program_bw */
        out->wpath_busy_ns = sub0(m.wpath_busy_ns, b->wpath_busy_ns);
        out->wpath_bytes_per_s = k->program_bytes_per_s;
        out->wpath_utilization =
            span > 0 ? (double)out->wpath_busy_ns / ((double)m.wpath_devs * span) : 0;
    }
    if (dm->kind == SSDSIM__KIND_SSD) {
        const struct ssdsim__flash *f = &dm->flash;
        out->multiplane_on = f->multiplane;
        out->cache_read_on = f->cache_read;
        out->cache_program_on = f->cache_program;
        out->suspend_on = f->suspend;
        out->copyback_on = f->copyback;
        out->nand_multiplane_ops = m.multiplane - b->multiplane;
        out->nand_multiplane_planes = m.multiplane_planes - b->multiplane_planes;
        out->nand_cache_reads = m.cache_reads - b->cache_reads;
        out->nand_cache_programs = m.cache_programs - b->cache_programs;
        out->nand_suspends = m.suspends - b->suspends;
        out->nand_copybacks = m.copybacks - b->copybacks;
        out->units_packed = dm->ftl.mapping_unit < dm->geometry.page_size;
        if (out->units_packed) {
            out->nand_page_programs = m.page_programs - b->page_programs;
            out->nand_padded_units = m.pad_slots - b->pad_slots;
            out->nand_register_hits = m.reg_hits - b->reg_hits;
        }
    }
    if (dm->kind == SSDSIM__KIND_SSD && ssdsim__slc_on(&dm->slc)) {
        out->slc_on = true;
        out->slc_pages_written = c.c[SSDSIM__CNT_SLC_WRITES];
        out->slc_pages_folded = c.c[SSDSIM__CNT_SLC_FOLDS];
        out->slc_full_events = c.c[SSDSIM__CNT_SLC_FULL];
        out->slc_fg_fold_blocks = c.c[SSDSIM__CNT_SLC_FG_FOLDS];
        out->slc_pages_bypassed = c.c[SSDSIM__CNT_SLC_BYPASS];
        out->slc_full_ns = c.c[SSDSIM__CNT_SLC_FULL_NS];
        for (uint32_t i = 0; i < sys->n_devs; i++) {
            uint64_t used, cap;
            if (sys->devs[i].ssd && ssdsim__page_slc_usage(&sys->devs[i].env, &used, &cap)) {
                out->slc_used_pages += used;
                out->slc_capacity_pages += cap;
            }
        }
    }

    /* Endurance: the flash can absorb rated x physical bytes of programs; at the run's wear
     * per host byte the host gets 1/wear of that before the average block wears out, and of a
     * RAID-5 or a mirror 1/(wear x the array's own factor). The most-worn block gets there
     * earlier by the ratio of its erase count to the mean. */
    out->rated_pe_cycles = sys->dev_model->flash.rated_pe_cycles;
    out->array_write_factor = array_write_factor(sim);
    out->wear_factor = wear_factor(sim, out, &m, b);
    if (out->wear_factor > 0 && p > 0) {
        out->tbw_mean_bytes =
            (double)out->rated_pe_cycles * p / (out->wear_factor * out->array_write_factor);
        double ratio = out->erase_count_max > 0 && out->erase_count_mean > 0
                           ? out->erase_count_mean / (double)out->erase_count_max
                           : 1.0;
        out->tbw_first_bytes = out->tbw_mean_bytes * ratio;
        double days = 5.0 * 365.0;
        out->dwpd_5y_mean = out->tbw_mean_bytes / (l * days);
        out->dwpd_5y_first = out->tbw_first_bytes / (l * days);
    }
    return 0;
}

/* The caller's struct may be of an older, smaller layout: write `size` bytes of it at most. */
int ssdsim_get_device_stats_sized(const ssdsim *sim, ssdsim_device_stats *out, size_t size)
{
    ssdsim_device_stats full;
    memset(&full, 0, sizeof full);
    int rc = get_device_stats_full(sim, out ? &full : NULL);
    return ssdsim__result_give(out, size, &full, sizeof full, rc, false);
}

/* The 1.0 layout, for callers that bypass the macro (ctypes, function pointers). */
int (ssdsim_get_device_stats)(const ssdsim *sim, ssdsim_device_stats *out)
{
    return ssdsim_get_device_stats_sized(sim, out, SSDSIM__DEVICE_STATS_SIZE_1);
}

uint32_t ssdsim_n_devices(const ssdsim *sim)
{
    return sim ? sim->sys.n_devs : 0;
}

static int get_device_io_full(const ssdsim *sim, uint32_t k, ssdsim_device_io *out)
{
    if (!sim || !out || k >= sim->sys.n_devs)
        return !out ? ssdsim__fail(sim, SSDSIM_EINVAL, "ssdsim_get_device_io: no output")
                    : ssdsim__fail(sim, SSDSIM_EINVAL,
                                   "ssdsim_get_device_io: device %u does not exist (there are "
                                   "%u)",
                                   k, sim ? sim->sys.n_devs : 0);
    struct ssdsim__devbase now;
    const struct ssdsim__devbase *b = &sim->stats.dev_base[k];
    ssdsim__stats_dev_now(&sim->sys, k, &now);
    memset(out, 0, sizeof *out);
    for (int op = 0; op < 3; op++) {
        out->commands[op] = now.cmds[op] - b->cmds[op];
        out->bytes[op] = now.bytes[op] - b->bytes[op];
    }
    out->host_pages_written = ssdsim__host_pages(&now.n) - ssdsim__host_pages(&b->n);
    out->flash_pages_programmed = ssdsim__programs(&now.n) - ssdsim__programs(&b->n);
    out->gc_pages_copied = now.n.c[SSDSIM_CNT_GC_COPIES] - b->n.c[SSDSIM_CNT_GC_COPIES];
    out->blocks_erased = now.n.erases - b->n.erases;
    out->waf = out->host_pages_written
                   ? (double)out->flash_pages_programmed / (double)out->host_pages_written
                   : 0.0;
    const struct ssdsim__dev *d = &sim->sys.devs[k];
    out->free_blocks = d->ssd ? ssdsim__env_free_blocks(&d->env) : 0;
    out->buffer_read_hits = now.hits - b->hits;
    out->buffer_absorbed = now.absorbed - b->absorbed;
    return 0;
}

/* The caller's struct may be of an older, smaller layout: write `size` bytes of it at most. */
int ssdsim_get_device_io_sized(const ssdsim *sim, uint32_t k, ssdsim_device_io *out, size_t size)
{
    ssdsim_device_io full;
    memset(&full, 0, sizeof full);
    int rc = get_device_io_full(sim, k, out ? &full : NULL);
    return ssdsim__result_give(out, size, &full, sizeof full, rc, false);
}

/* The 1.0 layout, for callers that bypass the macro (ctypes, function pointers). */
int (ssdsim_get_device_io)(const ssdsim *sim, uint32_t k, ssdsim_device_io *out)
{
    return ssdsim_get_device_io_sized(sim, k, out, SSDSIM__DEVICE_IO_SIZE_1);
}

size_t ssdsim_erase_histogram(const ssdsim *sim, uint32_t *counts, uint64_t *blocks, size_t max)
{
    if (!sim)
        return 0;
    const struct ssdsim__sys *sys = &sim->sys;
    size_t n = 0;
    uint32_t hi = ssdsim__sys_ec_max(sys);
    for (uint32_t e = ssdsim__sys_ec_min(sys); e <= hi; e++) {
        uint64_t nb = ssdsim__sys_ec_blocks(sys, e);
        if (!nb)
            continue;
        if (n < max && counts && blocks) {
            counts[n] = e;
            blocks[n] = nb;
        }
        n++;
    }
    return n;
}

size_t ssdsim_latency_histogram(const ssdsim *sim, enum ssdsim_op op, uint64_t *upper_ns,
                                uint64_t *counts, size_t max)
{
    if (!sim || (unsigned)op > SSDSIM_OP_ALL)
        return 0;
    struct ssdsim__hist scratch;
    const struct ssdsim__hist *h = ssdsim__stats_hist(&sim->stats, (uint32_t)op, &scratch);
    size_t n = 0;
    for (uint32_t b = 0; b < SSDSIM__HIST_N_BUCKETS; b++) {
        if (!h->buckets[b])
            continue;
        if (n < max && upper_ns && counts) {
            uint64_t lo, hi;
            ssdsim__hist_bucket_range(b, &lo, &hi);
            upper_ns[n] = hi;
            counts[n] = h->buckets[b];
        }
        n++;
    }
    return n;
}

size_t ssdsim_n_intervals(const ssdsim *sim)
{
    return sim ? sim->stats.n_series : 0;
}

static int get_interval_full(const ssdsim *sim, size_t i, ssdsim_interval *out)
{
    if (!sim || !out || i >= sim->stats.n_series)
        return !out ? ssdsim__fail(sim, SSDSIM_EINVAL, "ssdsim_get_interval: no output")
                    : ssdsim__fail(sim, SSDSIM_EINVAL,
                                   "ssdsim_get_interval: interval %zu does not exist (there are "
                                   "%zu)",
                                   i, sim ? sim->stats.n_series : 0);
    *out = sim->stats.series[i];
    return 0;
}

/* The caller's struct may be of an older, smaller layout: write `size` bytes of it at most. */
int ssdsim_get_interval_sized(const ssdsim *sim, size_t i, ssdsim_interval *out, size_t size)
{
    ssdsim_interval full;
    memset(&full, 0, sizeof full);
    int rc = get_interval_full(sim, i, out ? &full : NULL);
    return ssdsim__result_give(out, size, &full, sizeof full, rc, false);
}

/* The 1.0 layout, for callers that bypass the macro (ctypes, function pointers). */
int (ssdsim_get_interval)(const ssdsim *sim, size_t i, ssdsim_interval *out)
{
    return ssdsim_get_interval_sized(sim, i, out, SSDSIM__INTERVAL_SIZE_1);
}

/* A steady window that the run later left (get_steady_full). */
struct left {
    bool left;
    size_t end, window, tail; /* the window's last round; its length; the rounds averaged after */
    double average, tail_avg;
};

/* Whether the run left the steady window `r` (ending at round `end`) before the end of its
 * stretch of rounds (`to`, exclusive): the average of the stretch's last rounds, as many as the
 * window holds and all after it (fewer rounds after it judge nothing), is off the window's
 * average by more than the rule's excursion limit. A drive still drifting (its WAF climbing
 * while spare space it had never been given fills) can meet the rule over a short window and
 * then fall far below it; one round off its band (a collection burst) cannot move the tail's
 * average so far. With until_steady the run ends at the window: nothing after it. Records the
 * window in *l. */
static bool steady_left(const ssdsim *sim, size_t end, size_t to, const ssdsim_steady_result *r,
                        struct left *l)
{
    /* judged by a whole window's worth of rounds after it, never by one or two */
    if (to - end - 1 < r->window)
        return false;
    size_t k = r->window;
    size_t off = ssdsim__steady_var_offset(sim->steady_var);
    double sum = 0;
    for (size_t j = to - k; j < to; j++)
        sum += *(const double *)(const void *)((const char *)&sim->stats.series[j] + off);
    double tail = sum / (double)k;
    /* a tail without a value (WAF over rounds that wrote nothing) says nothing either way */
    if (!isfinite(tail) ||
        fabs(tail - r->average) <= sim->steady_opts.max_excursion * fabs(r->average))
        return false;
    *l = (struct left){true, end, r->window, k, r->average, tail};
    return true;
}

static int get_steady_full(const ssdsim *sim, ssdsim_steady_result *out)
{
    if (!sim || !out)
        return ssdsim__fail(sim, SSDSIM_EINVAL, "ssdsim_get_steady: no output");
    /* The rule over the whole rounds of the series that began on a preconditioned device: the
     * partial row the end of a run adds is not a round, and the fresh drive's plateau before
     * garbage collection is not steady state. Recomputed on each call: O(rounds x window). */
    const struct ssdsim__stats *s = &sim->stats;
    size_t n = ssdsim__stats_full_rounds(s);
    size_t first = s->first_round < n ? s->first_round : n;
    /* A round in which no request completed (the host idle: a pause before a delayed job, a
     * quiet stretch of a trace) measures nothing: the rule judges only the stretches of rounds
     * between such rounds, the earliest steady window winning that the stretch's last rounds
     * still agree with (steady_left). */
    size_t from = first, idle = 0;
    int rc = 0;
    struct left left = {0};
    for (;;) {
        size_t to = from;
        while (to < n && s->series[to].n_ios > 0)
            to++;
        const char *x = to > from ? (const char *)&s->series[from] +
                                        ssdsim__steady_var_offset(sim->steady_var)
                                  : NULL;
        rc = ssdsim__steady_series((const double *)(const void *)x, sizeof *s->series, to - from,
                                   &sim->steady_opts, out);
        if (rc == 0 && out->steady && steady_left(sim, from + out->round, to, out, &left)) {
            /* the run moved away from this window: judge the windows after its first round */
            from += out->round - out->window + 2;
            continue;
        }
        if (rc || out->steady || to >= n) {
            out->round = from + out->round; /* rounds count from the first row */
            break;
        }
        while (to < n && s->series[to].n_ios == 0) {
            to++;
            idle++;
        }
        from = to;
    }
    if (rc)
        return ssdsim__fail(sim, rc, "ssdsim_get_steady: %s", ssdsim_strerror(rc));
    if (!out->steady && left.left) {
        snprintf(out->why_not, sizeof out->why_not,
                 "rounds %zu-%zu met the rule (average %.6g), but the run then left them: its "
                 "last %zu whole rounds average %.6g, %.0f%% off, and no window since is steady",
                 left.end + 2 - left.window, left.end + 1, left.average, left.tail, left.tail_avg,
                 100 * fabs(left.tail_avg - left.average) / fabs(left.average));
    } else if (!out->steady && idle > 0 && n > first) {
        char rule[sizeof out->why_not];
        memcpy(rule, out->why_not, sizeof rule);
        snprintf(out->why_not, sizeof out->why_not,
                 "%.150s (after %zu idle round%s, in which nothing completed: those are not "
                 "judged)",
                 rule, idle, idle == 1 ? "" : "s");
    }
    if (!n)
        out->round = 0;
    if (out->round >= n && n)
        out->round = n - 1; /* no round judged: the last whole round */
    out->first_round = first;
    if (out->steady || n == 0)
        return 0;
    char why[200];
    if (s->first_round == SIZE_MAX && !ssdsim__sys_preconditioned(s->sys, why, sizeof why)) {
        snprintf(out->why_not, sizeof out->why_not, "not preconditioned: %s", why);
    } else if (first == n) {
        snprintf(out->why_not, sizeof out->why_not,
                 "not preconditioned until the end of the run: no whole round began on a "
                 "preconditioned device");
    } else if (first > 0) {
        /* the rule's own reason, about the rounds since preconditioning */
        char rule[sizeof out->why_not];
        memcpy(rule, out->why_not, sizeof rule);
        snprintf(out->why_not, sizeof out->why_not, "since preconditioning: %.200s", rule);
    }
    return 0;
}

/* The caller's struct may be of an older, smaller layout: write `size` bytes of it at most. */
int ssdsim_get_steady_sized(const ssdsim *sim, ssdsim_steady_result *out, size_t size)
{
    ssdsim_steady_result full;
    memset(&full, 0, sizeof full);
    int rc = get_steady_full(sim, out ? &full : NULL);
    return ssdsim__result_give(out, size, &full, sizeof full, rc, true);
}

/* The 1.0 layout, for callers that bypass the macro (ctypes, function pointers). */
int (ssdsim_get_steady)(const ssdsim *sim, ssdsim_steady_result *out)
{
    return ssdsim_get_steady_sized(sim, out, SSDSIM__STEADY_RESULT_SIZE_1);
}

/* The timeseries key of a tracked variable. */
static const char *steady_var_key(ssdsim_steady_var v)
{
    switch (v) {
    case SSDSIM_STEADY_BW:
        return "bw_bytes";
    case SSDSIM_STEADY_LAT_MEAN:
        return "lat_ns_mean";
    case SSDSIM_STEADY_WAF:
        return "waf";
    case SSDSIM_STEADY_IOPS:
    default:
        return "iops";
    }
}

uint64_t ssdsim_sim_time_ns(const ssdsim *sim)
{
    return sim ? sim->stats.end_ns - sim->stats.start_ns : 0;
}

uint64_t ssdsim_events_executed(const ssdsim *sim)
{
    return sim ? sim->engine.n_executed : 0;
}

/* Doubles are printed with 6 significant digits (%.6g), so the text is byte-identical across
 * runs and platforms with the same arithmetic. A value that is not a number (an interval WAF
 * with no host write) is written as null. */
static void add_f(cJSON *o, const char *k, double v)
{
    char buf[64];
    if (!isfinite(v)) {
        cJSON_AddItemToObject(o, k, cJSON_CreateNull());
        return;
    }
    snprintf(buf, sizeof buf, "%.6g", v);
    cJSON_AddItemToObject(o, k, cJSON_CreateRaw(buf));
}

/* An unsigned figure, or null where it does not exist. */
static void add_u64_or_null(cJSON *o, const char *k, uint64_t v, bool exists)
{
    if (exists)
        ssdsim__json_add_u64(o, k, v);
    else
        cJSON_AddItemToObject(o, k, cJSON_CreateNull());
}

/* The firmware and NAND-operation groups of the device object, each only when its mechanism
 * is on (so a model without them writes the JSON it always did). */
static void add_mech(cJSON *dev, const ssdsim_device_stats *d)
{
    if (d->fw_cores) {
        cJSON *fw = cJSON_AddObjectToObject(dev, "firmware");
        ssdsim__json_add_u64(fw, "busy_ns", d->fw_busy_ns);
        ssdsim__json_add_u64(fw, "cores", d->fw_cores);
        add_f(fw, "utilization", d->fw_utilization);
    }
    if (d->wpath_bytes_per_s) {
        cJSON *wp = cJSON_AddObjectToObject(dev, "write_path");
        ssdsim__json_add_u64(wp, "busy_ns", d->wpath_busy_ns);
        ssdsim__json_add_u64(wp, "bytes_per_s", d->wpath_bytes_per_s);
        add_f(wp, "utilization", d->wpath_utilization);
    }
    if (d->slc_on) {
        cJSON *slc = cJSON_AddObjectToObject(dev, "slc");
        ssdsim__json_add_u64(slc, "pages_written", d->slc_pages_written);
        ssdsim__json_add_u64(slc, "pages_folded", d->slc_pages_folded);
        ssdsim__json_add_u64(slc, "full_events", d->slc_full_events);
        ssdsim__json_add_u64(slc, "pages_bypassed", d->slc_pages_bypassed);
        ssdsim__json_add_u64(slc, "full_ns", d->slc_full_ns);
        ssdsim__json_add_u64(slc, "used_pages", d->slc_used_pages);
        ssdsim__json_add_u64(slc, "capacity_pages", d->slc_capacity_pages);
        ssdsim__json_add_u64(slc, "fg_fold_blocks", d->slc_fg_fold_blocks);
    }
    if (!(d->multiplane_on || d->cache_read_on || d->cache_program_on || d->suspend_on ||
          d->copyback_on || d->units_packed))
        return;
    cJSON *n = cJSON_AddObjectToObject(dev, "nand");
    if (d->multiplane_on) {
        ssdsim__json_add_u64(n, "multiplane_ops", d->nand_multiplane_ops);
        ssdsim__json_add_u64(n, "multiplane_planes", d->nand_multiplane_planes);
    }
    if (d->cache_read_on)
        ssdsim__json_add_u64(n, "cache_reads", d->nand_cache_reads);
    if (d->cache_program_on)
        ssdsim__json_add_u64(n, "cache_programs", d->nand_cache_programs);
    if (d->suspend_on)
        ssdsim__json_add_u64(n, "suspends", d->nand_suspends);
    if (d->copyback_on)
        ssdsim__json_add_u64(n, "copybacks", d->nand_copybacks);
    if (d->units_packed) {
        ssdsim__json_add_u64(n, "page_programs", d->nand_page_programs);
        ssdsim__json_add_u64(n, "padded_units", d->nand_padded_units);
        ssdsim__json_add_u64(n, "register_hits", d->nand_register_hits);
    }
}

static cJSON *op_stats_json(const ssdsim_op_stats *sp)
{
    ssdsim_op_stats s = *sp;
    cJSON *o = cJSON_CreateObject();
    ssdsim__json_add_u64(o, "count", s.count);
    ssdsim__json_add_u64(o, "bytes", s.bytes);
    add_f(o, "iops", s.iops);
    add_f(o, "bw_bytes", s.bw_bytes);
    cJSON *l = cJSON_AddObjectToObject(o, "lat_ns");
    ssdsim__json_add_u64(l, "min", s.lat_min_ns);
    add_f(l, "mean", s.lat_mean_ns);
    ssdsim__json_add_u64(l, "max", s.lat_max_ns);
    add_f(l, "stddev", s.lat_stddev_ns);
    ssdsim__json_add_u64(l, "p50", s.lat_p50_ns);
    ssdsim__json_add_u64(l, "p90", s.lat_p90_ns);
    ssdsim__json_add_u64(l, "p99", s.lat_p99_ns);
    ssdsim__json_add_u64(l, "p99_9", s.lat_p99_9_ns);
    ssdsim__json_add_u64(l, "p99_99", s.lat_p99_99_ns);
    return o;
}

static cJSON *op_json(const ssdsim *sim, enum ssdsim_op op)
{
    ssdsim_op_stats s;
    ssdsim_get_op_stats(sim, op, &s);
    return op_stats_json(&s);
}

static void add_names(cJSON *o, const char *k, char *const *v, uint32_t n)
{
    cJSON *a = cJSON_AddArrayToObject(o, k);
    for (uint32_t i = 0; i < n; i++)
        cJSON_AddItemToArray(a, cJSON_CreateString(v[i]));
}

/* How the drive was brought to its state before the run (the last preconditioning since it
 * was new or secure-erased), or null. */
static void add_precondition(cJSON *root, const ssdsim *sim)
{
    const struct ssdsim__precond *p = &sim->precond;
    if (!p->mode) {
        cJSON_AddNullToObject(root, "precondition");
        return;
    }
    cJSON *o = cJSON_AddObjectToObject(root, "precondition");
    cJSON_AddStringToObject(o, "mode", p->mode);
    if (!strcmp(p->mode, "seq")) {
        ssdsim__json_add_u64(o, "fills", p->fills);
        return;
    }
    if (strcmp(p->mode, "functional"))
        ssdsim__json_add_u64(o, "scaled_blocks_per_plane", p->scaled_blocks_per_plane);
    add_f(o, "drive_writes", p->drive_writes);
    add_f(o, "waf", p->waf);
    cJSON_AddBoolToObject(o, "steady", p->steady);
}

/* What ran, and each reported job (a clone, or a group with group_reporting) with its own
 * figures over its own runtime. */
static void add_jobs(cJSON *root, const ssdsim *sim)
{
    cJSON *w = cJSON_AddObjectToObject(root, "workload");
    cJSON_AddStringToObject(w, "label", sim->run_label ? sim->run_label : "");
    add_names(w, "ignored_options", sim->ignored, sim->n_ignored);
    add_names(w, "skipped_options", sim->skipped, sim->n_skipped);
    cJSON *jobs = cJSON_AddArrayToObject(root, "jobs");
    static const char *names[4] = {"read", "write", "trim", "all"};
    for (size_t i = 0; i < ssdsim_n_jobs(sim); i++) {
        ssdsim_job_info ji;
        ssdsim_get_job(sim, i, &ji);
        cJSON *j = cJSON_CreateObject();
        cJSON_AddStringToObject(j, "name", ji.name);
        ssdsim__json_add_u64(j, "group", ji.group);
        ssdsim__json_add_u64(j, "first_clone", ji.first_clone);
        ssdsim__json_add_u64(j, "clones", ji.n_clones);
        ssdsim__json_add_u64(j, "start_ns", ji.start_ns);
        ssdsim__json_add_u64(j, "end_ns", ji.end_ns);
        ssdsim__json_add_u64(j, "ramp_ns", ji.ramp_ns);
        if (ji.replay) {
            cJSON *rp = cJSON_AddObjectToObject(j, "replay");
            cJSON_AddStringToObject(rp, "mode", ji.replay_iodepth ? "closed loop" : "open loop");
            ssdsim__json_add_u64(rp, "iodepth", ji.replay_iodepth);
            add_f(rp, "time_scale", ji.time_scale);
            cJSON_AddBoolToObject(rp, "wrap", ji.wrap);
            ssdsim__json_add_u64(rp, "wrapped_requests", ji.wrapped_requests);
            if (!ji.replay_iodepth)
                ssdsim__json_add_u64(rp, "last_arrival_ns", ji.last_arrival_ns);
        }
        if (ji.ss_set) {
            cJSON *ss = cJSON_AddObjectToObject(j, "steady_state");
            cJSON_AddBoolToObject(ss, "attained", ji.ss_attained);
            add_f(ss, "value", ji.ss_value);
            if (ji.ss_attained) {
                cJSON_AddBoolToObject(ss, "preconditioned", ji.ss_preconditioned);
                if (!ji.ss_preconditioned)
                    cJSON_AddStringToObject(ss, "not_preconditioned", ji.ss_why);
            }
        }
        cJSON *ops = cJSON_AddObjectToObject(j, "ops");
        for (int op = 0; op < 4; op++) {
            ssdsim_op_stats s;
            ssdsim_get_job_op_stats(sim, i, (enum ssdsim_op)op, &s);
            if (s.count || op == SSDSIM_OP_ALL)
                cJSON_AddItemToObject(ops, names[op], op_stats_json(&s));
        }
        cJSON_AddItemToArray(jobs, j);
    }
}

/* The system (a device model is a system of one) and what each device did. */
static void add_system(cJSON *root, const ssdsim *sim)
{
    const struct ssdsim__sys *sys = &sim->sys;
    static const char *const layouts[] = {"jbod", "raid0", "raid1", "raid5"};
    cJSON *so = cJSON_AddObjectToObject(root, "system");
    cJSON_AddStringToObject(so, "layout", sys->is_system ? layouts[sys->layout] : "single");
    ssdsim__json_add_u64(so, "devices", sys->n_devs);
    ssdsim__json_add_u64(so, "controllers", sys->n_ctrls);
    ssdsim__json_add_u64(so, "volumes", sys->n_volumes);
    ssdsim__json_add_u64(so, "volume_bytes", sys->volume_bytes);
    if (sys->is_system && (sys->layout == SSDSIM__LAYOUT_RAID0 || sys->layout == SSDSIM__LAYOUT_RAID5))
        ssdsim__json_add_u64(so, "stripe", sys->stripe);
    cJSON *arr = cJSON_AddArrayToObject(root, "devices");
    static const char *const ops[3] = {"read", "write", "trim"};
    for (uint32_t k = 0; k < sys->n_devs; k++) {
        ssdsim_device_io io;
        ssdsim_get_device_io(sim, k, &io);
        cJSON *d = cJSON_CreateObject();
        ssdsim__json_add_u64(d, "index", k);
        ssdsim__json_add_u64(d, "controller", k / (sys->n_devs / sys->n_ctrls));
        ssdsim__json_add_u64(d, "bytes", sys->devs[k].bytes);
        cJSON *c = cJSON_AddObjectToObject(d, "commands");
        cJSON *b = cJSON_AddObjectToObject(d, "bytes_moved");
        for (int op = 0; op < 3; op++) {
            ssdsim__json_add_u64(c, ops[op], io.commands[op]);
            ssdsim__json_add_u64(b, ops[op], io.bytes[op]);
        }
        if (sys->devs[k].ssd) {
            ssdsim__json_add_u64(d, "host_pages_written", io.host_pages_written);
            ssdsim__json_add_u64(d, "flash_pages_programmed", io.flash_pages_programmed);
            ssdsim__json_add_u64(d, "gc_pages_copied", io.gc_pages_copied);
            ssdsim__json_add_u64(d, "blocks_erased", io.blocks_erased);
            add_f(d, "waf", io.waf);
            ssdsim__json_add_u64(d, "free_blocks", io.free_blocks);
        }
        if (sys->devs[k].buf) {
            cJSON *bf = cJSON_AddObjectToObject(d, "buffer");
            ssdsim__json_add_u64(bf, "read_hits", io.buffer_read_hits);
            ssdsim__json_add_u64(bf, "absorbed_writes", io.buffer_absorbed);
        }
        cJSON_AddItemToArray(arr, d);
    }
}

char *ssdsim_results_json(const ssdsim *sim)
{
    if (!sim)
        return NULL;
    cJSON *root = cJSON_CreateObject();
    if (!root)
        return NULL;
    cJSON_AddStringToObject(root, "ssdsim_version", PACKAGE_VERSION);
    cJSON_AddStringToObject(root, "model", sim->model->label ? sim->model->label : "");
    char caveat[4096]; /* what the model says it gets wrong against its drive */
    if (ssdsim_model_get_string(sim->model, "caveat", caveat, sizeof caveat, NULL) == 0 &&
        caveat[0])
        cJSON_AddStringToObject(root, "model_caveat", caveat);
    ssdsim__json_add_u64(root, "seed", sim->seed);
    ssdsim__json_add_u64(root, "sim_time_ns", ssdsim_sim_time_ns(sim));
    if (sim->interrupted)
        cJSON_AddBoolToObject(root, "interrupted", true);
    cJSON *ops = cJSON_AddObjectToObject(root, "ops");
    static const char *names[4] = {"read", "write", "trim", "all"};
    for (int i = 0; i < 4; i++)
        cJSON_AddItemToObject(ops, names[i], op_json(sim, (enum ssdsim_op)i));

    ssdsim_device_stats d;
    ssdsim_get_device_stats(sim, &d);
    cJSON *dev = cJSON_AddObjectToObject(root, "device");
    ssdsim__json_add_u64(dev, "host_pages_written", d.host_pages_written);
    ssdsim__json_add_u64(dev, "flash_pages_programmed", d.flash_pages_programmed);
    ssdsim__json_add_u64(dev, "gc_pages_copied", d.gc_pages_copied);
    ssdsim__json_add_u64(dev, "blocks_erased", d.blocks_erased);
    add_f(dev, "waf", d.waf);
    cJSON *ec = cJSON_AddObjectToObject(dev, "erase_count");
    ssdsim__json_add_u64(ec, "min", d.erase_count_min);
    add_f(ec, "mean", d.erase_count_mean);
    ssdsim__json_add_u64(ec, "max", d.erase_count_max);
    /* The distribution as [erase count, blocks] pairs, one per distinct count. */
    cJSON *hist = cJSON_AddArrayToObject(ec, "histogram");
    const struct ssdsim__sys *sys = &sim->sys;
    uint32_t ec_hi = ssdsim__sys_ec_max(sys);
    for (uint32_t e = ssdsim__sys_ec_min(sys); e <= ec_hi && ssdsim__sys_blocks(sys); e++) {
        uint64_t nb = ssdsim__sys_ec_blocks(sys, e);
        if (!nb)
            continue;
        cJSON *pair = cJSON_CreateArray();
        char buf[32];
        snprintf(buf, sizeof buf, "%u", e);
        cJSON_AddItemToArray(pair, cJSON_CreateRaw(buf));
        snprintf(buf, sizeof buf, "%llu", (unsigned long long)nb);
        cJSON_AddItemToArray(pair, cJSON_CreateRaw(buf));
        cJSON_AddItemToArray(hist, pair);
    }
    ssdsim__json_add_u64(dev, "logical_bytes", d.logical_bytes);
    ssdsim__json_add_u64(dev, "physical_bytes", d.physical_bytes);
    if (sys->is_system) /* a RAID-5's or a mirror's devices hold more than its volume */
        ssdsim__json_add_u64(dev, "devices_logical_bytes", d.devices_logical_bytes);
    add_f(dev, "op", d.op);
    add_f(dev, "spare_factor", d.spare_factor);
    add_f(dev, "spare_factor_effective", d.spare_factor_effective);
    ssdsim__json_add_u64(dev, "free_blocks", d.free_blocks);
    ssdsim__json_add_u64(dev, "page_size",
                         sys->devs[0].ssd ? sys->dev_model->geometry.page_size : 512);
    ssdsim__json_add_u64(dev, "flash_pages_read", d.flash_pages_read);
    ssdsim__json_add_u64(dev, "unmapped_reads", d.unmapped_reads);
    cJSON *gc = cJSON_AddObjectToObject(dev, "gc");
    ssdsim__json_add_u64(gc, "fg_victims", d.gc_fg_victims);
    ssdsim__json_add_u64(gc, "bg_victims", d.gc_bg_victims);
    ssdsim__json_add_u64(gc, "fg_pages_copied", d.gc_pages_copied - d.gc_bg_pages_copied);
    ssdsim__json_add_u64(gc, "bg_pages_copied", d.gc_bg_pages_copied);
    ssdsim__json_add_u64(dev, "wl_pages_copied", d.wl_pages_copied);
    ssdsim__json_add_u64(dev, "map_pages_read", d.map_pages_read);
    ssdsim__json_add_u64(dev, "map_pages_written", d.map_pages_written);
    ssdsim__json_add_u64(dev, "merges", d.merges);
    add_mech(dev, &d);
    ssdsim__rel_results_json(sim, dev);
    if (d.parity_group) {
        cJSON *par = cJSON_AddObjectToObject(dev, "parity");
        ssdsim__json_add_u64(par, "group", d.parity_group);
        ssdsim__json_add_u64(par, "pages_written", d.parity_pages_written);
    }
    if (d.readahead_streams) {
        cJSON *ra = cJSON_AddObjectToObject(dev, "read_ahead");
        ssdsim__json_add_u64(ra, "streams", d.readahead_streams);
        ssdsim__json_add_u64(ra, "units_prefetched", d.readahead_units);
        ssdsim__json_add_u64(ra, "hits", d.readahead_hits);
        ssdsim__json_add_u64(ra, "wasted", d.readahead_wasted);
    }
    ssdsim_zns_stats zs;
    if (sim->sys.dev_model->zns.zone_size && ssdsim_get_zns_stats(sim, &zs) == 0) {
        cJSON *z = cJSON_AddObjectToObject(dev, "zones");
        ssdsim__json_add_u64(z, "zones", zs.zones);
        ssdsim__json_add_u64(z, "open", zs.open);
        ssdsim__json_add_u64(z, "active", zs.active);
        ssdsim__json_add_u64(z, "resets", zs.resets);
        ssdsim__json_add_u64(z, "finishes", zs.finishes);
        ssdsim__json_add_u64(z, "opens", zs.opens);
        ssdsim__json_add_u64(z, "closes", zs.closes);
        ssdsim__json_add_u64(z, "implicit_closes", zs.implicit_closes);
        ssdsim__json_add_u64(z, "appends", zs.appends);
        ssdsim__json_add_u64(z, "refused", zs.errors);
    }
    if (sim->sys.dev_model->fdp.handles) {
        cJSON *fa = cJSON_AddArrayToObject(dev, "fdp");
        ssdsim_fdp_stats fs;
        for (uint32_t h = 0; h < sim->sys.dev_model->fdp.handles; h++) {
            ssdsim_get_fdp_stats(sim, h, &fs);
            cJSON *o = cJSON_CreateObject();
            cJSON_AddItemToArray(fa, o);
            ssdsim__json_add_u64(o, "handle", h);
            ssdsim__json_add_u64(o, "host_bytes", fs.host_bytes);
            ssdsim__json_add_u64(o, "media_bytes", fs.media_bytes);
            add_f(o, "waf", fs.waf);
        }
        /* the statistics and event logs, and each reclaim group's figures */
        ssdsim_fdp_log lg;
        ssdsim_get_fdp_log(sim, &lg);
        cJSON *lo = cJSON_AddObjectToObject(dev, "fdp_log");
        ssdsim__json_add_u64(lo, "host_bytes", lg.host_bytes);
        ssdsim__json_add_u64(lo, "media_bytes", lg.media_bytes);
        ssdsim__json_add_u64(lo, "media_bytes_erased", lg.media_bytes_erased);
        ssdsim__json_add_u64(lo, "ruh_updates", lg.ruh_updates);
        cJSON *ev = cJSON_AddObjectToObject(lo, "events");
        ssdsim__json_add_u64(ev, "reclaim_unit_not_fully_written", lg.ru_not_fully_written);
        ssdsim__json_add_u64(ev, "media_reallocated", lg.media_reallocated);
        cJSON *ga = cJSON_AddArrayToObject(dev, "fdp_groups");
        uint32_t groups = ssdsim__fdp_groups(&sim->sys.dev_model->fdp);
        ssdsim_fdp_group_stats gs;
        for (uint32_t g = 0; g < groups; g++) {
            ssdsim_get_fdp_group_stats(sim, g, &gs);
            cJSON *o = cJSON_CreateObject();
            cJSON_AddItemToArray(ga, o);
            ssdsim__json_add_u64(o, "group", g);
            ssdsim__json_add_u64(o, "host_bytes", gs.host_bytes);
            ssdsim__json_add_u64(o, "media_bytes", gs.media_bytes);
            ssdsim__json_add_u64(o, "media_bytes_erased", gs.media_bytes_erased);
            ssdsim__json_add_u64(o, "reallocated_bytes", gs.reallocated_bytes);
        }
    }
    cJSON *life = cJSON_AddObjectToObject(dev, "lifetime");
    ssdsim__json_add_u64(life, "rated_pe_cycles", d.rated_pe_cycles);
    add_f(life, "wear_factor", d.wear_factor);
    add_f(life, "tbw_mean_bytes", d.tbw_mean_bytes);
    add_f(life, "tbw_first_bytes", d.tbw_first_bytes);
    add_f(life, "dwpd_5y_mean", d.dwpd_5y_mean);
    add_f(life, "dwpd_5y_first", d.dwpd_5y_first);
    if (sys->is_system)
        add_f(life, "array_write_factor", d.array_write_factor);
    const struct ssdsim_model *dm = sys->dev_model;
    static const char *const kinds[] = {"ssd", "hdd", "system"};
    cJSON_AddStringToObject(dev, "kind", kinds[dm->kind]);
    if (dm->kind == SSDSIM__KIND_SSD) {
        cJSON_AddStringToObject(dev, "ftl", dm->ftl.type);
        cJSON_AddStringToObject(dev, "gc_policy", dm->gc.policy);
        cJSON_AddStringToObject(dev, "wl_policy", dm->wl.policy);
    }
    add_system(root, sim);
    ssdsim__fault_json(root, sim);
    add_jobs(root, sim);
    add_precondition(root, sim);

    if (sim->stats.series_on) {
        ssdsim_steady_result r;
        ssdsim_get_steady(sim, &r);
        cJSON *ss = cJSON_AddObjectToObject(root, "steady_state");
        cJSON_AddStringToObject(ss, "variable", steady_var_key(sim->steady_var));
        cJSON_AddBoolToObject(ss, "steady", r.steady);
        ssdsim__json_add_u64(ss, "round", r.round);
        ssdsim__json_add_u64(ss, "window", r.window);
        add_f(ss, "average", r.average);
        add_f(ss, "min", r.min);
        add_f(ss, "max", r.max);
        add_f(ss, "slope", r.slope);
        add_f(ss, "excursion", r.excursion);
        add_f(ss, "slope_excursion", r.slope_excursion);
        cJSON_AddBoolToObject(ss, "stopped_run", sim->steady_stopped);
        ssdsim__json_add_u64(ss, "first_round", r.first_round);
        cJSON_AddBoolToObject(ss, "preconditioned", sim->stats.first_round != SIZE_MAX);
        if (r.steady)
            cJSON_AddNullToObject(ss, "why_not");
        else
            cJSON_AddStringToObject(ss, "why_not", r.why_not);
        cJSON *ts = cJSON_AddArrayToObject(root, "timeseries");
        for (size_t i = 0; i < sim->stats.n_series; i++) {
            const ssdsim_interval *iv = &sim->stats.series[i];
            cJSON *o = cJSON_CreateObject();
            ssdsim__json_add_u64(o, "t_ns", iv->t_ns);
            ssdsim__json_add_u64(o, "n_ios", iv->n_ios);
            add_f(o, "iops", iv->iops);
            add_f(o, "bw_bytes", iv->bw_bytes);
            /* an interval in which nothing completed has no latencies: null, not 0 */
            bool lat = iv->n_ios > 0;
            add_f(o, "lat_ns_mean", lat ? iv->lat_ns_mean : NAN);
            add_u64_or_null(o, "lat_ns_max", iv->lat_ns_max, lat);
            add_f(o, "lat_ns_stddev", lat ? iv->lat_ns_stddev : NAN);
            add_f(o, "waf", iv->waf);
            ssdsim__json_add_u64(o, "host_pages_written", iv->host_pages_written);
            ssdsim__json_add_u64(o, "flash_pages_programmed", iv->flash_pages_programmed);
            ssdsim__json_add_u64(o, "free_blocks", iv->free_blocks);
            add_u64_or_null(o, "lat_ns_p99", iv->lat_ns_p99, lat);
            add_f(o, "waf_cumulative", iv->waf_cumulative);
            ssdsim__json_add_u64(o, "gc_pages_copied", iv->gc_pages_copied);
            ssdsim__json_add_u64(o, "blocks_erased", iv->blocks_erased);
            ssdsim__json_add_u64(o, "host_bytes_written", iv->host_bytes_written);
            cJSON_AddBoolToObject(o, "partial", iv->partial);
            cJSON_AddItemToArray(ts, o);
        }
    }
    char *s = cJSON_Print(root);
    cJSON_Delete(root);
    return s;
}

int ssdsim_write_timeseries_csv(ssdsim *sim, const char *path)
{
    if (!sim || !path)
        return ssdsim__fail(sim, SSDSIM_EINVAL, "ssdsim_write_timeseries_csv: no file name");
    FILE *f = fopen(path, "w");
    if (!f) {
        ssdsim__set_errmsg(sim, "%s: cannot write: %s", path, strerror(errno));
        return SSDSIM_EIO;
    }
    fprintf(f, "t_ns,n_ios,iops,bw_bytes,lat_ns_mean,lat_ns_max,lat_ns_stddev,waf,"
               "host_pages_written,flash_pages_programmed,free_blocks,lat_ns_p99,waf_cumulative,"
               "gc_pages_copied,blocks_erased,host_bytes_written,partial\n");
    for (size_t i = 0; i < sim->stats.n_series; i++) {
        const ssdsim_interval *iv = &sim->stats.series[i];
        /* a ratio that is not a number (no host write yet) is an empty field */
        char waf[32] = "", wafc[32] = "";
        if (isfinite(iv->waf))
            snprintf(waf, sizeof waf, "%.6g", iv->waf);
        if (isfinite(iv->waf_cumulative))
            snprintf(wafc, sizeof wafc, "%.6g", iv->waf_cumulative);
        /* and so are the latencies of an interval in which nothing completed */
        char mean[32] = "", max[32] = "", sd[32] = "", p99[32] = "";
        if (iv->n_ios > 0) {
            snprintf(mean, sizeof mean, "%.6g", iv->lat_ns_mean);
            snprintf(max, sizeof max, "%llu", (unsigned long long)iv->lat_ns_max);
            snprintf(sd, sizeof sd, "%.6g", iv->lat_ns_stddev);
            snprintf(p99, sizeof p99, "%llu", (unsigned long long)iv->lat_ns_p99);
        }
        fprintf(f,
                "%llu,%llu,%.6g,%.6g,%s,%s,%s,%s,%llu,%llu,%llu,%s,%s,%llu,%llu,%llu,%d\n",
                (unsigned long long)iv->t_ns, (unsigned long long)iv->n_ios, iv->iops, iv->bw_bytes,
                mean, max, sd, waf, (unsigned long long)iv->host_pages_written,
                (unsigned long long)iv->flash_pages_programmed, (unsigned long long)iv->free_blocks,
                p99, wafc, (unsigned long long)iv->gc_pages_copied,
                (unsigned long long)iv->blocks_erased, (unsigned long long)iv->host_bytes_written,
                iv->partial ? 1 : 0);
    }
    if (fclose(f) != 0) {
        ssdsim__set_errmsg(sim, "%s: write failed: %s", path, strerror(errno));
        return SSDSIM_EIO;
    }
    return 0;
}
