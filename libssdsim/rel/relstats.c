/* relstats.c: the reliability figures of a run (issue 16, item 8): the public getter
 * ssdsim_get_reliability, the "reliability" object of the device results (doc/results.md),
 * and ssdsim_age, which ages the data of every device without simulating the time.
 *
 * The counters are cumulative in each device's state (rel/rel.h); a run's figures are their
 * growth since the run started, through the snapshot the statistics take of the devices'
 * mechanisms (array.h's ssdsim__sys_mech, stats/stats.c).
 */
#include "rel/rel.h"

#include "abi.h"
#include "config/jsonutil.h"
#include "sim.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

void ssdsim__rel_sum(struct ssdsim__rel_counts *a, const struct ssdsim__rel_counts *b)
{
    a->reads += b->reads;
    a->rber_sum += b->rber_sum;
    a->retries += b->retries;
    for (int i = 0; i < SSDSIM__REL_STEPS; i++)
        a->by_steps[i] += b->by_steps[i];
    a->soft += b->soft;
    a->uncorrectable += b->uncorrectable;
    a->cw_read += b->cw_read;
    a->cw_failed += b->cw_failed;
    a->bits_read += b->bits_read;
    a->reconstructed += b->reconstructed;
    a->recon_reads += b->recon_reads;
    a->reclaim_asked += b->reclaim_asked;
    a->reclaimed += b->reclaimed;
    a->patrol_reads += b->patrol_reads;
    a->extra_ns += b->extra_ns;
}

_Static_assert(SSDSIM_REL_STEPS == SSDSIM__REL_STEPS, "reads_by_steps entries");

static int get_full(const ssdsim *sim, ssdsim_reliability_stats *out)
{
    if (!sim || !out)
        return ssdsim__fail(sim, SSDSIM_EINVAL, "ssdsim_get_reliability: no output");
    memset(out, 0, sizeof *out);
    const struct ssdsim_model *dm = sim->sys.dev_model;
    if (dm->kind != SSDSIM__KIND_SSD || !ssdsim__rel_on(dm))
        return 0;
    struct ssdsim__sys_mech m;
    ssdsim__sys_mech(&sim->sys, ssdsim__engine_now(&sim->engine), &m);
    const struct ssdsim__rel_counts *b = &sim->stats.base_mech.rel, *c = &m.rel;
    out->on = true;
    out->retry_max = dm->errors.retry_max;
    out->reads = c->reads - b->reads;
    out->rber_mean = out->reads ? (c->rber_sum - b->rber_sum) / (double)out->reads : 0;
    out->retries = c->retries - b->retries;
    out->retries_per_read = out->reads ? (double)out->retries / (double)out->reads : 0;
    for (int i = 0; i < SSDSIM__REL_STEPS; i++)
        out->reads_by_steps[i] = c->by_steps[i] - b->by_steps[i];
    out->soft_decodes = c->soft - b->soft;
    out->uncorrectable = c->uncorrectable - b->uncorrectable;
    out->codewords_read = c->cw_read - b->cw_read;
    out->codewords_failed = c->cw_failed - b->cw_failed;
    out->bits_read = c->bits_read - b->bits_read;
    out->uber = out->bits_read ? (double)out->codewords_failed / (double)out->bits_read : 0;
    out->reconstructed = c->reconstructed - b->reconstructed;
    out->reconstruction_reads = c->recon_reads - b->recon_reads;
    out->reclaim_requests = c->reclaim_asked - b->reclaim_asked;
    out->reclaimed_blocks = c->reclaimed - b->reclaimed;
    out->patrol_reads = c->patrol_reads - b->patrol_reads;
    out->error_ns = c->extra_ns - b->extra_ns;
    return 0;
}

int ssdsim_get_reliability_sized(const ssdsim *sim, ssdsim_reliability_stats *out, size_t size)
{
    ssdsim_reliability_stats full;
    memset(&full, 0, sizeof full);
    int rc = get_full(sim, out ? &full : NULL);
    return ssdsim__result_give(out, size, &full, sizeof full, rc, false);
}

/* The layout it was introduced with, for callers that bypass the macro. */
int(ssdsim_get_reliability)(const ssdsim *sim, ssdsim_reliability_stats *out)
{
    return ssdsim_get_reliability_sized(sim, out, sizeof *out);
}

int ssdsim_age(ssdsim *sim, double seconds)
{
    if (!sim)
        return SSDSIM_EINVAL;
    if (!(seconds >= 0) || seconds > 1e12)
        return ssdsim__fail(sim, SSDSIM_EINVAL,
                            "ssdsim_age: expected from 0 to 1e12 seconds, got %g", seconds);
    uint64_t ns = (uint64_t)llround(seconds * 1e9);
    for (uint32_t k = 0; k < sim->sys.n_devs; k++)
        if (sim->sys.devs[k].ssd && sim->sys.devs[k].hw.rel)
            ssdsim__rel_age(sim->sys.devs[k].hw.rel, ns);
    return 0;
}

/* As results.c writes its doubles: 6 significant digits, null when not finite. */
int ssdsim_wear(ssdsim *sim, uint32_t cycles)
{
    if (!sim)
        return SSDSIM_EINVAL;
    for (uint32_t k = 0; k < sim->sys.n_devs; k++) {
        if (!sim->sys.devs[k].ssd)
            continue;
        int rc = ssdsim__env_add_wear(&sim->sys.devs[k].env, cycles);
        if (rc)
            return ssdsim__fail(sim, rc, "ssdsim_wear: %s",
                                rc == SSDSIM_ENOMEM ? "out of memory"
                                                    : "erase counts would pass 2^31");
    }
    return 0;
}

static void add_f(cJSON *o, const char *key, double v)
{
    char buf[64];
    if (!isfinite(v)) {
        cJSON_AddItemToObject(o, key, cJSON_CreateNull());
        return;
    }
    snprintf(buf, sizeof buf, "%.6g", v);
    cJSON_AddItemToObject(o, key, cJSON_CreateRaw(buf));
}

void ssdsim__rel_results_json(const ssdsim *sim, void *dev_json)
{
    ssdsim_reliability_stats r;
    if (get_full(sim, &r) || !r.on)
        return;
    cJSON *o = cJSON_AddObjectToObject(dev_json, "reliability");
    ssdsim__json_add_u64(o, "reads", r.reads);
    add_f(o, "rber_mean", r.rber_mean);
    ssdsim__json_add_u64(o, "retries", r.retries);
    add_f(o, "retries_per_read", r.retries_per_read);
    cJSON *by = cJSON_AddArrayToObject(o, "reads_by_retries");
    for (uint32_t s = 0; s <= r.retry_max; s++)
        cJSON_AddItemToArray(by, cJSON_CreateNumber((double)r.reads_by_steps[s]));
    ssdsim__json_add_u64(o, "soft_decoded", r.reads_by_steps[r.retry_max + 1]);
    ssdsim__json_add_u64(o, "soft_decodes", r.soft_decodes);
    ssdsim__json_add_u64(o, "uncorrectable", r.uncorrectable);
    ssdsim__json_add_u64(o, "codewords_read", r.codewords_read);
    ssdsim__json_add_u64(o, "codewords_failed", r.codewords_failed);
    ssdsim__json_add_u64(o, "bits_read", r.bits_read);
    add_f(o, "uber", r.uber);
    ssdsim__json_add_u64(o, "reconstructed", r.reconstructed);
    ssdsim__json_add_u64(o, "reconstruction_reads", r.reconstruction_reads);
    ssdsim__json_add_u64(o, "reclaim_requests", r.reclaim_requests);
    ssdsim__json_add_u64(o, "reclaimed_blocks", r.reclaimed_blocks);
    ssdsim__json_add_u64(o, "patrol_reads", r.patrol_reads);
    ssdsim__json_add_u64(o, "error_ns", r.error_ns);
}
