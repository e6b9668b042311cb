/* power.c: power loss and the next power-up (ssdsim_power_loss; doc/models.md, "Faults"), and
 * the fault figures (ssdsim_get_fault_stats, the results' "faults" object).
 *
 * What is lost. A power loss is taken with no host request inside (the run options stop the
 * host and let the requests in flight end first), so every write is either acknowledged or was
 * never issued. A volatile write buffer (buffer.write_cache without buffer.plp) loses every
 * unit it acknowledged and has not handed to the flash; a protected one (buffer.plp) writes
 * its dirty units on its capacitors, oldest first, as many as reliability.plp_energy_mj /
 * reliability.plp_page_uj page programs (0 mJ: all of them), and loses the rest. Programs the
 * controller had handed to the flash (running, or queued on their die) end: a page program
 * takes well under a millisecond, within the hold-up of the supply rails themselves, so what
 * the flash was given is on the flash (an estimate that favours the drive a little when a die's
 * queue is long). A flush (or FUA)
 * completes only once the data it covers is programmed, so nothing a completed flush covered
 * can be lost. The lost writes are listed per host write (its latest data in the buffer, as
 * a write overwritten in DRAM by a later one lost nothing the host still expects).
 *
 * Power-up. The FTL rebuilds its mapping table in DRAM (reliability.mount_mode):
 *   checkpoint  read the last checkpoint of the table (4 bytes per mapping entry) and replay
 *               the journal written since (8 bytes per mapping update; a checkpoint every
 *               reliability.mount_checkpoint_pages updates, so the journal holds the write
 *               clock modulo that);
 *   scan        read the metadata of every page of every block in use (good blocks not free).
 * The reads are dealt round robin over channels, then over the dies of a channel; each is a
 * tR of the fastest page type and a page transfer on its channel, pipelined: the mount takes
 *     max(ceil(n / dies) x tR + t_xfer, tR + ceil(n / channels) x t_xfer)
 * for n reads, and devices mount in parallel. The simulated clock moves on by it. For the page
 * FTL and DFTL the rebuilt table is compared, entry by entry, with the one the FTL held: the
 * table a scan of the pages' metadata (their logical page, in p2l) yields must equal it, or
 * the simulation fails with the first difference.
 */
#include "sim.h"

#include <glib.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "abi.h"
#include "config/jsonutil.h"
#include "ftl/page.h"
#include "rel/diefail.h"

struct ssdsim__power {
    uint32_t n_losses;
    uint64_t last_ns;
    uint64_t lost_units, lost_bytes, plp_units_flushed;
    uint64_t mount_ns, mount_pages;
    GArray *lost;       /* ssdsim_lost_request */
    GHashTable *by_seq; /* during one loss: (device, seq) -> index in lost + 1 */
    uint32_t dev;       /* the device being handled */
    uint64_t first_of_loss;
};

void ssdsim__power_free(struct ssdsim__power *p)
{
    if (!p)
        return;
    if (p->lost)
        g_array_free(p->lost, TRUE);
    free(p);
}

static void lost_unit(void *ctx, uint64_t seq, uint64_t offset, uint32_t len, uint32_t bytes)
{
    struct ssdsim__power *p = ctx;
    p->lost_units++;
    p->lost_bytes += bytes;
    /* seq numbers are per buffer: the key mixes in the device */
    uint64_t key = (uint64_t)p->dev << 48 | seq;
    gpointer v = g_hash_table_lookup(p->by_seq, &key);
    if (v) {
        g_array_index(p->lost, ssdsim_lost_request, GPOINTER_TO_SIZE(v) - 1).lost_bytes += bytes;
        return;
    }
    ssdsim_lost_request r = {.offset = offset, .length = len, .lost_bytes = bytes,
                             .device = p->dev};
    g_array_append_val(p->lost, r);
    uint64_t *k = g_new(uint64_t, 1);
    *k = key;
    g_hash_table_insert(p->by_seq, k, GSIZE_TO_POINTER((gsize)p->lost->len));
}

/* Flash reads the mount of device d takes, and its time. */
static uint64_t mount_reads(const struct ssdsim__dev *d)
{
    const struct ssdsim_ftl_env *env = &d->env;
    const struct ssdsim_model *m = d->model;
    uint32_t page = m->geometry.page_size;
    if (m->fault.mount_mode == SSDSIM__MOUNT_SCAN) {
        uint64_t free_blocks = ssdsim__env_free_blocks(env);
        uint64_t bad = env->fault ? env->fault->factory_bad + env->fault->grown_bad : 0;
        uint64_t used = env->geo.n_blocks - free_blocks - bad;
        return used * env->geo.pages_per_block;
    }
    uint64_t table = (env->geo.logical_pages * 4 + page - 1) / page;
    uint64_t journal_entries = env->programs_total % m->fault.mount_checkpoint_pages;
    return table + (journal_entries * 8 + page - 1) / page;
}

static uint64_t mount_ns(const struct ssdsim__dev *d, uint64_t n)
{
    if (n == 0)
        return 0;
    const struct ssdsim__hw *hw = &d->hw;
    uint64_t t_r = UINT64_MAX;
    for (uint32_t k = 0; k < d->model->flash.n_page_types; k++)
        t_r = SSDSIM__MIN(t_r, d->model->flash.read_ns[k]);
    uint64_t xfer = hw->page_xfer_ns;
    uint64_t per_die = (n + hw->n_dies - 1) / hw->n_dies;
    uint64_t per_channel = (n + hw->n_channels - 1) / hw->n_channels;
    return SSDSIM__MAX(per_die * t_r + xfer, t_r + per_channel * xfer);
}

/* The page FTL's table against the one its pages' metadata gives: 0, or SSDSIM_ESTATE with the
 * first difference in why. */
static int rebuild_check(struct ssdsim_ftl_env *env, char *why, size_t len)
{
    if (!ssdsim__page_runs(env))
        return 0;
    const struct ssdsim__ftl *f = env->state;
    uint32_t *t = malloc(sizeof *t * f->n_map);
    if (!t)
        return SSDSIM_ENOMEM;
    memset(t, 0xff, sizeof *t * f->n_map);
    int rc = 0;
    for (uint64_t ppn = 0; ppn < f->n_ppn && rc == 0; ppn++) {
        uint32_t lpn = ssdsim__page_p2l(f, ppn);
        if (lpn == SSDSIM__NONE32)
            continue;
        if (lpn >= f->n_map || t[lpn] != SSDSIM__NONE32) {
            snprintf(why, len, "power-up: page %llu claims logical page %u, %s",
                     (unsigned long long)ppn, lpn,
                     lpn >= f->n_map ? "beyond the table" : "claimed by another page too");
            rc = SSDSIM_ESTATE;
        } else {
            t[lpn] = (uint32_t)ppn;
        }
    }
    for (uint64_t l = 0; l < f->n_map && rc == 0; l++)
        if (t[l] != f->l2p[l]) {
            snprintf(why, len,
                     "power-up: the rebuilt mapping of logical page %llu is %u; the FTL held %u",
                     (unsigned long long)l, t[l], f->l2p[l]);
            rc = SSDSIM_ESTATE;
        }
    free(t);
    return rc;
}

static bool buffers_pending(const struct ssdsim *sim)
{
    for (uint32_t k = 0; k < sim->sys.n_devs; k++)
        if (sim->sys.devs[k].buf && ssdsim__buf_pending(sim->sys.devs[k].buf))
            return true;
    return false;
}

int ssdsim__power_loss(struct ssdsim *sim)
{
    if (sim->host.active || sim->host.submitted_inflight)
        return ssdsim__fail(sim, SSDSIM_ESTATE,
                            "ssdsim_power_loss: requests are in flight (ssdsim_drain first)");
    if (!sim->power) {
        sim->power = calloc(1, sizeof *sim->power);
        if (!sim->power || !(sim->power->lost = g_array_new(FALSE, FALSE,
                                                            sizeof(ssdsim_lost_request))))
            return ssdsim__fail(sim, SSDSIM_ENOMEM, "out of memory");
    }
    struct ssdsim__power *p = sim->power;
    p->n_losses++;
    p->last_ns = ssdsim__engine_now(&sim->engine);
    p->by_seq = g_hash_table_new_full(g_int64_hash, g_int64_equal, g_free, NULL);
    for (uint32_t k = 0; k < sim->sys.n_devs; k++) {
        struct ssdsim__dev *d = &sim->sys.devs[k];
        if (!d->buf)
            continue;
        const struct ssdsim_model *m = d->model;
        uint64_t keep = 0;
        if (m->buffer.plp) {
            keep = UINT64_MAX;
            if (m->fault.plp_energy_mj > 0)
                keep = (uint64_t)floor(m->fault.plp_energy_mj * 1000 / m->fault.plp_page_uj) *
                       d->hw.spp;
        }
        p->dev = k;
        p->plp_units_flushed += ssdsim__buf_power_loss(d->buf, keep, lost_unit, p);
    }
    g_hash_table_destroy(p->by_seq);
    p->by_seq = NULL;
    /* what is kept, and the programs started, reach the flash */
    while (buffers_pending(sim)) {
        int rc = ssdsim__engine_run(&sim->engine, 1 << 16);
        const char *msg = NULL;
        if (rc == 0 && ssdsim__sys_failure(&sim->sys, &msg))
            return ssdsim__fail(sim, ssdsim__sys_failure(&sim->sys, &msg), "%s", msg);
        if (rc)
            return ssdsim__fail(sim, rc, "out of memory while flushing at power loss");
    }
    /* power-up */
    uint64_t mount = 0, pages = 0;
    for (uint32_t k = 0; k < sim->sys.n_devs; k++) {
        struct ssdsim__dev *d = &sim->sys.devs[k];
        if (!d->ssd)
            continue;
        char why[256];
        int rc = rebuild_check(&d->env, why, sizeof why);
        if (rc) {
            sim->broken = true;
            return ssdsim__fail(sim, rc, "%s", rc == SSDSIM_ENOMEM ? "out of memory" : why);
        }
        uint64_t n = mount_reads(d);
        pages += n;
        mount = SSDSIM__MAX(mount, mount_ns(d, n));
    }
    p->mount_ns = mount;
    p->mount_pages = pages;
    int rc = ssdsim__engine_run_until(&sim->engine, ssdsim__engine_now(&sim->engine) + mount);
    if (rc)
        return ssdsim__fail(sim, rc, "out of memory while mounting");
    return 0;
}

int ssdsim_power_loss(ssdsim *sim)
{
    SSDSIM__CHECK_HANDLE(sim, SSDSIM__MAGIC_SIM, "ssdsim");
    if (!sim)
        return SSDSIM_EINVAL;
    if (sim->broken)
        return ssdsim__fail(sim, SSDSIM_ESTATE, "an earlier run on this simulation failed");
    if (ssdsim__refuse_in_events(sim, "ssdsim_power_loss"))
        return SSDSIM_ESTATE;
    sim->power_loss_at_end = false; /* this one is where it was asked */
    ssdsim__call_enter(sim);
    return ssdsim__call_leave(sim, ssdsim__power_loss(sim));
}

size_t ssdsim_lost_requests(const ssdsim *sim, ssdsim_lost_request *out, size_t max)
{
    if (!sim || !sim->power)
        return 0;
    size_t n = sim->power->lost->len;
    for (size_t i = 0; out && i < n && i < max; i++)
        out[i] = g_array_index(sim->power->lost, ssdsim_lost_request, i);
    return n;
}

/* The die (index on its device) and plane (UINT32_MAX: the whole die) a failure's event
 * argument names: a plane failure sets the top bit, with the die above the plane's 8 bits. */
static void fail_arg_decode(uint32_t arg, uint32_t *die, uint32_t *plane)
{
    bool one_plane = (arg & 0x80000000u) != 0;
    *die = one_plane ? (arg & 0x7fffffffu) >> 8 : arg;
    *plane = one_plane ? arg & 0xffu : UINT32_MAX;
}

static int get_fault_stats_full(const ssdsim *sim, ssdsim_fault_stats *out)
{
    if (!sim || !out)
        return ssdsim__fail(sim, SSDSIM_EINVAL, "ssdsim_get_fault_stats: no output");
    memset(out, 0, sizeof *out);
    uint64_t bad_pages = 0;
    bool ro_seen = false;
    for (uint32_t k = 0; k < sim->sys.n_devs; k++) {
        const struct ssdsim__fault *f = sim->sys.devs[k].env.fault;
        if (!f)
            continue;
        out->factory_bad_blocks += f->factory_bad;
        out->grown_bad_blocks += f->grown_bad;
        bad_pages += (f->factory_bad + f->grown_bad) * f->ppb;
        out->writes_refused += f->refused_writes;
        out->bytes_refused += f->refused_bytes;
        if (f->read_only && (!ro_seen || f->ro_ns < out->read_only_ns)) {
            out->read_only_ns = f->ro_ns;
            out->read_only_host_bytes = f->ro_host_bytes;
            out->read_only_bad_blocks = f->ro_bad;
            ro_seen = true;
        }
    }
    out->read_only = ro_seen;
    for (uint32_t k = 0; k < sim->sys.n_devs; k++) {
        struct ssdsim__diefail_stats ds;
        if (!sim->sys.devs[k].ssd || !ssdsim__diefail_stats(&sim->sys.devs[k].env, &ds))
            continue;
        const struct ssdsim__geometry *g = &sim->sys.dev_model->geometry;
        uint32_t per_channel = g->chips_per_channel * g->dies_per_chip;
        out->die_failed = true;
        out->failed_channel = ds.die / per_channel;
        out->failed_chip = ds.die % per_channel / g->dies_per_chip;
        out->failed_die = ds.die % g->dies_per_chip;
        out->plane_failed = ds.plane != UINT32_MAX;
        out->failed_plane = out->plane_failed ? ds.plane : 0;
        out->die_failed_ns = ds.failed_ns;
        out->die_pages = ds.pages_on_die;
        out->die_lost_pages = ds.lost_pages;
        out->reconstructed_reads = ds.reconstructed_reads;
        out->reconstruct_pages_read = ds.reconstruct_pages_read;
        out->unrecoverable_reads = ds.unrecoverable_reads;
        out->rebuild_done = ds.rebuild_done;
        out->rebuild_ns = ds.rebuild_done ? ds.rebuild_end_ns - ds.failed_ns : 0;
        out->rebuild_pages = ds.rebuild_pages;
        out->rebuild_pages_read = ds.rebuild_pages_read;
        out->rebuild_lost = ds.rebuild_lost;
        break;
    }
    if (sim->die_fail_armed && !out->die_failed) {
        /* set, not reached yet: where and when (die_fails's argument) */
        const struct ssdsim__geometry *g = &sim->sys.dev_model->geometry;
        uint32_t die, plane, per_channel = g->chips_per_channel * g->dies_per_chip;
        fail_arg_decode(sim->die_fail_arg, &die, &plane);
        out->die_fail_pending = true;
        out->failed_channel = die / per_channel;
        out->failed_chip = die % per_channel / g->dies_per_chip;
        out->failed_die = die % g->dies_per_chip;
        out->plane_failed = plane != UINT32_MAX;
        out->failed_plane = out->plane_failed ? plane : 0;
        out->die_failed_ns = sim->die_fail_at_ns;
    }
    out->run_start_ns = sim->stats.start_ns;
    out->power_loss_at_end = sim->power && sim->power_loss_at_end;
    ssdsim_device_stats d;
    ssdsim_get_device_stats(sim, &d);
    uint64_t pages = ssdsim__sys_flash_pages(&sim->sys);
    out->spare_factor_effective =
        d.spare_factor_effective - (pages ? (double)bad_pages / (double)pages : 0);
    const struct ssdsim__power *p = sim->power;
    if (p) {
        out->power_losses = p->n_losses;
        out->power_loss_ns = p->last_ns;
        out->lost_requests = p->lost->len;
        out->lost_units = p->lost_units;
        out->lost_bytes = p->lost_bytes;
        out->plp_units_flushed = p->plp_units_flushed;
        out->mount_ns = p->mount_ns;
        out->mount_pages_read = p->mount_pages;
    }
    return 0;
}

int ssdsim_get_fault_stats_sized(const ssdsim *sim, ssdsim_fault_stats *out, size_t size)
{
    ssdsim_fault_stats full;
    memset(&full, 0, sizeof full);
    int rc = get_fault_stats_full(sim, out ? &full : NULL);
    return ssdsim__result_give(out, size, &full, sizeof full, rc, false);
}

/* The failed (or still to fail) die of a die failure: its address, device, plane and time. */
static void die_json(cJSON *o, const ssdsim_fault_stats *s, uint32_t n_devs)
{
    char addr[48];
    snprintf(addr, sizeof addr, "%u/%u/%u", s->failed_channel, s->failed_chip, s->failed_die);
    cJSON_AddStringToObject(o, "die", addr);
    if (n_devs > 1)
        ssdsim__json_add_u64(o, "device", s->failed_device);
    if (s->plane_failed)
        ssdsim__json_add_u64(o, "plane", s->failed_plane);
    ssdsim__json_add_u64(o, "at_ns", s->die_failed_ns);
    if (s->die_failed_ns >= s->run_start_ns)
        ssdsim__json_add_u64(o, "run_ns", s->die_failed_ns - s->run_start_ns);
}

/* The results' "faults" object: only when the model has bad blocks or power was lost, so
 * that other results stay as they were. */
void ssdsim__fault_json(cJSON *root, const struct ssdsim *sim)
{
    bool any = sim->power != NULL || sim->die_fail_armed;
    for (uint32_t k = 0; k < sim->sys.n_devs; k++)
        any = any || sim->sys.devs[k].env.fault;
    if (!any)
        return;
    ssdsim_fault_stats s;
    ssdsim_get_fault_stats(sim, &s);
    if (s.die_failed) {
        cJSON *df = cJSON_AddObjectToObject(root, "die_failure");
        die_json(df, &s, sim->sys.n_devs);
        ssdsim__json_add_u64(df, "pages_on_die", s.die_pages);
        ssdsim__json_add_u64(df, "lost_pages", s.die_lost_pages);
        ssdsim__json_add_u64(df, "reconstructed_reads", s.reconstructed_reads);
        ssdsim__json_add_u64(df, "reconstruct_pages_read", s.reconstruct_pages_read);
        ssdsim__json_add_u64(df, "unrecoverable_reads", s.unrecoverable_reads);
        cJSON_AddBoolToObject(df, "rebuild_done", s.rebuild_done);
        if (s.rebuild_done)
            ssdsim__json_add_u64(df, "rebuild_ns", s.rebuild_ns);
        ssdsim__json_add_u64(df, "rebuild_pages", s.rebuild_pages);
        ssdsim__json_add_u64(df, "rebuild_pages_read", s.rebuild_pages_read);
        ssdsim__json_add_u64(df, "rebuild_lost", s.rebuild_lost);
    }
    cJSON *o = cJSON_AddObjectToObject(root, "faults");
    cJSON *dfo = cJSON_DetachItemFromObject(root, "die_failure");
    if (dfo)
        cJSON_AddItemToObject(o, "die_failure", dfo);
    if (s.die_fail_pending) {
        /* set for a time the run did not reach: nothing failed, and the results say so */
        cJSON *nr = cJSON_AddObjectToObject(o, "die_failure_not_reached");
        die_json(nr, &s, sim->sys.n_devs);
    }
    ssdsim__json_add_u64(o, "factory_bad_blocks", s.factory_bad_blocks);
    ssdsim__json_add_u64(o, "grown_bad_blocks", s.grown_bad_blocks);
    if (isfinite(s.spare_factor_effective))
        cJSON_AddNumberToObject(o, "spare_factor_effective", s.spare_factor_effective);
    cJSON_AddBoolToObject(o, "read_only", s.read_only);
    if (s.read_only) {
        ssdsim__json_add_u64(o, "read_only_ns", s.read_only_ns);
        ssdsim__json_add_u64(o, "read_only_host_bytes", s.read_only_host_bytes);
        ssdsim__json_add_u64(o, "read_only_bad_blocks", s.read_only_bad_blocks);
    }
    ssdsim__json_add_u64(o, "writes_refused", s.writes_refused);
    ssdsim__json_add_u64(o, "bytes_refused", s.bytes_refused);
    if (!sim->power)
        return;
    cJSON *pl = cJSON_AddObjectToObject(o, "power_loss");
    ssdsim__json_add_u64(pl, "count", s.power_losses);
    ssdsim__json_add_u64(pl, "at_ns", s.power_loss_ns);
    if (s.power_loss_ns >= s.run_start_ns)
        ssdsim__json_add_u64(pl, "run_ns", s.power_loss_ns - s.run_start_ns);
    cJSON_AddBoolToObject(pl, "at_end", s.power_loss_at_end);
    ssdsim__json_add_u64(pl, "lost_requests", s.lost_requests);
    ssdsim__json_add_u64(pl, "lost_units", s.lost_units);
    ssdsim__json_add_u64(pl, "lost_bytes", s.lost_bytes);
    ssdsim__json_add_u64(pl, "plp_units_flushed", s.plp_units_flushed);
    ssdsim__json_add_u64(pl, "mount_ns", s.mount_ns);
    ssdsim__json_add_u64(pl, "mount_pages_read", s.mount_pages_read);
    cJSON *list = cJSON_AddArrayToObject(pl, "lost");
    size_t n = sim->power->lost->len;
    for (size_t i = 0; i < n; i++) {
        const ssdsim_lost_request *r = &g_array_index(sim->power->lost, ssdsim_lost_request, i);
        cJSON *e = cJSON_CreateObject();
        ssdsim__json_add_u64(e, "device", r->device);
        ssdsim__json_add_u64(e, "offset", r->offset);
        ssdsim__json_add_u64(e, "length", r->length);
        ssdsim__json_add_u64(e, "lost_bytes", r->lost_bytes);
        cJSON_AddItemToArray(list, e);
    }
}

int ssdsim_set_power_loss(ssdsim *sim, uint64_t after_ns, uint64_t after_requests)
{
    SSDSIM__CHECK_HANDLE(sim, SSDSIM__MAGIC_SIM, "ssdsim");
    if (!sim)
        return SSDSIM_EINVAL;
    sim->power_loss_ns = after_ns;
    sim->power_loss_after = after_requests;
    return 0;
}

/* The event of ssdsim_fail_die (arg: the die) or ssdsim_fail_plane (arg: the top bit set, the
 * die times 256 plus the plane). */
static void die_fails(void *ctx, uint32_t arg)
{
    struct ssdsim *sim = ctx;
    struct ssdsim_ftl_env *env = &sim->sys.devs[0].env;
    char why[200];
    uint32_t die, plane;
    fail_arg_decode(arg, &die, &plane);
    int rc = ssdsim__diefail_start(env, die, plane, why, sizeof why);
    if (rc)
        ssdsim_ftl_fail(env, rc, rc == SSDSIM_ENOMEM ? "out of memory failing a die" : why);
}

static int fail_at(ssdsim *sim, uint32_t channel, uint32_t chip, uint32_t die, uint32_t plane,
                   uint64_t at_ns);

int ssdsim_fail_die(ssdsim *sim, uint32_t channel, uint32_t chip, uint32_t die, uint64_t at_ns)
{
    return fail_at(sim, channel, chip, die, UINT32_MAX, at_ns);
}

int ssdsim_fail_plane(ssdsim *sim, uint32_t channel, uint32_t chip, uint32_t die, uint32_t plane,
                      uint64_t at_ns)
{
    return fail_at(sim, channel, chip, die, plane, at_ns);
}

static int fail_at(ssdsim *sim, uint32_t channel, uint32_t chip, uint32_t die, uint32_t plane,
                   uint64_t at_ns)
{
    SSDSIM__CHECK_HANDLE(sim, SSDSIM__MAGIC_SIM, "ssdsim");
    if (!sim)
        return SSDSIM_EINVAL;
    const struct ssdsim__dev *d = &sim->sys.devs[0];
    if (!d->ssd)
        return ssdsim__fail(sim, SSDSIM_EINVAL, "ssdsim_fail_die: device 0 is not a solid-state "
                                                "drive");
    const struct ssdsim__geometry *g = &d->model->geometry;
    if (channel >= g->channels || chip >= g->chips_per_channel || die >= g->dies_per_chip)
        return ssdsim__fail(sim, SSDSIM_EINVAL,
                            "ssdsim_fail_die: die %u/%u/%u is outside the geometry (%u channels, "
                            "%u chips per channel, %u dies per chip)",
                            channel, chip, die, g->channels, g->chips_per_channel,
                            g->dies_per_chip);
    if (plane != UINT32_MAX && (plane >= g->planes_per_die || plane > 255))
        return ssdsim__fail(sim, SSDSIM_EINVAL,
                            "ssdsim_fail_plane: plane %u is outside the geometry (%u planes per "
                            "die)",
                            plane, g->planes_per_die);
    uint64_t now = ssdsim__engine_now(&sim->engine);
    if (at_ns < now)
        return ssdsim__fail(sim, SSDSIM_EINVAL,
                            "ssdsim_fail_die: %llu ns is before now (%llu ns)",
                            (unsigned long long)at_ns, (unsigned long long)now);
    char why[200];
    if (sim->die_fail_armed)
        return ssdsim__fail(sim, SSDSIM_EINVAL, "ssdsim_fail_die: a die failure is set already "
                                                "(one failed die is modelled)");
    if (ssdsim__diefail_can(&d->env, why, sizeof why))
        return ssdsim__fail(sim, SSDSIM_EINVAL, "ssdsim_fail_die: %s", why);
    uint32_t index = (channel * g->chips_per_channel + chip) * g->dies_per_chip + die;
    if (plane != UINT32_MAX)
        index = 0x80000000u | index << 8 | plane;
    if (ssdsim__engine_schedule(&sim->engine, at_ns, die_fails, sim, index))
        return ssdsim__fail(sim, SSDSIM_ENOMEM, "out of memory");
    sim->die_fail_armed = true;
    sim->die_fail_at_ns = at_ns;
    sim->die_fail_arg = index;
    return 0;
}
