/* gen.c: synthetic request streams: direction mix, block-size split, sequential or uniform
 * random offsets inside the job's region, and the job's stop condition (number_ios, or the
 * region's size in bytes, as fio does without time_based). */
#include "workload/gen.h"

#include <string.h>

void ssdsim__gen_init(struct ssdsim__gen *g, const struct ssdsim_workload *wl, uint32_t job,
                      uint64_t seed, uint64_t logical_bytes)
{
    memset(g, 0, sizeof *g);
    ssdsim__rng_seed(&g->rng, wl->has_randseed ? wl->randseed : seed, "job", job);
    g->rw = wl->rw;
    g->n_bs = wl->n_bs;
    uint32_t cum = 0, min_bs = UINT32_MAX;
    for (uint32_t i = 0; i < wl->n_bs; i++) {
        g->bs_bytes[i] = wl->bs[i].bytes;
        cum += wl->bs[i].percent;
        g->bs_cum[i] = cum;
        if (wl->bs[i].bytes < min_bs && wl->bs[i].percent > 0)
            min_bs = wl->bs[i].bytes;
    }
    g->align = min_bs == UINT32_MAX ? 512 : min_bs;
    g->rwmixread = wl->rwmixread;
    uint64_t size;
    ssdsim__workload_region(wl, logical_bytes, &g->region_start, &size);
    g->region_len = size;
    uint32_t access_cum = 0, range_cum = 0;
    for (uint32_t i = 0; i < wl->n_zones; i++) {
        access_cum += wl->zone_access[i];
        g->zone_cum[i] = access_cum;
        /* zone bounds in units of the alignment, so every zone holds whole blocks */
        uint64_t units = size / g->align;
        uint64_t lo = units * range_cum / 100;
        range_cum += wl->zone_range[i];
        uint64_t hi = units * range_cum / 100;
        g->zone_start[i] = lo * g->align;
        g->zone_len[i] = (hi - lo) * g->align;
    }
    g->n_zones = wl->n_zones;
    g->io_limit = wl->number_ios;
    g->byte_limit = wl->number_ios ? 0 : size;
}

bool ssdsim__gen_next(struct ssdsim__gen *g, uint8_t *op, uint64_t *offset, uint32_t *len)
{
    if (g->io_limit && g->issued >= g->io_limit)
        return false;
    if (g->byte_limit && g->bytes_issued >= g->byte_limit)
        return false;
    uint32_t bs = g->bs_bytes[0];
    if (g->n_bs > 1) {
        uint32_t r = (uint32_t)ssdsim__rng_below(&g->rng, 100);
        for (uint32_t i = 0; i < g->n_bs; i++) {
            if (r < g->bs_cum[i]) {
                bs = g->bs_bytes[i];
                break;
            }
        }
    }
    bool random;
    switch (g->rw) {
    case SSDSIM__RW_READ: *op = SSDSIM__IO_READ; random = false; break;
    case SSDSIM__RW_WRITE: *op = SSDSIM__IO_WRITE; random = false; break;
    case SSDSIM__RW_RANDREAD: *op = SSDSIM__IO_READ; random = true; break;
    case SSDSIM__RW_RANDWRITE: *op = SSDSIM__IO_WRITE; random = true; break;
    case SSDSIM__RW_TRIM: *op = SSDSIM__IO_TRIM; random = false; break;
    case SSDSIM__RW_RANDTRIM: *op = SSDSIM__IO_TRIM; random = true; break;
    case SSDSIM__RW_RANDRW:
    case SSDSIM__RW_RW:
    default:
        *op = ssdsim__rng_below(&g->rng, 100) < g->rwmixread ? SSDSIM__IO_READ : SSDSIM__IO_WRITE;
        random = g->rw == SSDSIM__RW_RANDRW;
        break;
    }
    if (bs > g->region_len)
        bs = (uint32_t)g->region_len;
    uint64_t off;
    if (random && g->n_zones) {
        uint32_t r = (uint32_t)ssdsim__rng_below(&g->rng, 100), z = 0;
        while (z + 1 < g->n_zones && r >= g->zone_cum[z])
            z++;
        uint64_t zlen = g->zone_len[z] >= bs ? g->zone_len[z] : bs;
        uint64_t start = g->zone_start[z];
        if (start + zlen > g->region_len)
            start = g->region_len - zlen;
        uint64_t slots = (zlen - bs) / g->align + 1;
        off = start + ssdsim__rng_below(&g->rng, slots) * g->align;
    } else if (random) {
        uint64_t slots = (g->region_len - bs) / g->align + 1;
        off = ssdsim__rng_below(&g->rng, slots) * g->align;
    } else {
        /* Like fio, each direction of a sequential mix walks the region on its own. */
        uint64_t *pos = &g->seq_pos[*op];
        if (*pos + bs > g->region_len)
            *pos = 0;
        off = *pos;
        *pos += bs;
    }
    if (g->byte_limit && g->bytes_issued + bs > g->byte_limit)
        bs = (uint32_t)(g->byte_limit - g->bytes_issued);
    *offset = g->region_start + off;
    *len = bs;
    g->issued++;
    g->bytes_issued += bs;
    return true;
}

uint64_t ssdsim__gen_planned(const struct ssdsim__gen *g)
{
    if (g->io_limit)
        return g->io_limit;
    uint64_t mean = 0;
    uint32_t prev = 0;
    for (uint32_t i = 0; i < g->n_bs; i++) {
        mean += (uint64_t)g->bs_bytes[i] * (g->bs_cum[i] - prev);
        prev = g->bs_cum[i];
    }
    mean /= 100;
    return mean ? (g->byte_limit + mean - 1) / mean : 0;
}
