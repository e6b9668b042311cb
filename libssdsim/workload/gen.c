/* gen.c: synthetic request streams: direction mix, block sizes, sequential and random offsets
 * inside the job's region, and the job's stop condition (number_ios, io_size, or loops passes
 * over its region, as fio does without time_based). See gen.h for the model. */
#include "workload/gen.h"

#include <math.h>
#include <string.h>

/* ------------------------------------------------------------------------------------------ */
/* Permutation                                                                                 */

static uint64_t mix64(uint64_t x)
{
    x ^= x >> 30;
    x *= 0xbf58476d1ce4e5b9ULL;
    x ^= x >> 27;
    x *= 0x94d049bb133111ebULL;
    x ^= x >> 31;
    return x;
}

void ssdsim__perm_init(struct ssdsim__perm *p, uint64_t n, struct ssdsim__rng *rng)
{
    p->n = n ? n : 1;
    uint32_t bits = 2;
    while (bits < 64 && (1ULL << bits) < p->n)
        bits += 2;
    p->half_bits = bits / 2;
    p->half_mask = (1ULL << p->half_bits) - 1;
    for (int i = 0; i < 4; i++)
        p->key[i] = ssdsim__rng_next(rng);
}

static uint64_t feistel(const struct ssdsim__perm *p, uint64_t x)
{
    uint64_t l = x >> p->half_bits, r = x & p->half_mask;
    for (int i = 0; i < 4; i++) {
        uint64_t t = l ^ (mix64(r ^ p->key[i]) & p->half_mask);
        l = r;
        r = t;
    }
    return (l << p->half_bits) | r;
}

uint64_t ssdsim__perm_apply(const struct ssdsim__perm *p, uint64_t x)
{
    /* The domain is at most 4n, so the walk takes under 4 steps on average. */
    do
        x = feistel(p, x);
    while (x >= p->n);
    return x;
}

/* ------------------------------------------------------------------------------------------ */
/* Non-uniform ranks                                                                           */

/* Zipf over ranks 1..n with exponent s by rejection-inversion (Hörmann and Derflinger, "Rejection-
 * inversion to generate variates from monotone discrete distributions", 1996): O(1) per draw,
 * no table. */
static double helper1(double x) /* log1p(x) / x, -> 1 at 0 */
{
    return fabs(x) > 1e-8 ? log1p(x) / x : 1 - x / 2 + x * x / 3;
}

static double helper2(double x) /* expm1(x) / x, -> 1 at 0 */
{
    return fabs(x) > 1e-8 ? expm1(x) / x : 1 + x / 2 + x * x / 6;
}

static double zipf_h(double s, double x)
{
    return exp(-s * log(x));
}

static double zipf_hint(double s, double x)
{
    double lx = log(x);
    return helper2((1 - s) * lx) * lx;
}

static double zipf_hint_inv(double s, double x)
{
    double t = x * (1 - s);
    if (t < -1)
        t = -1;
    return exp(helper1(t) * x);
}

static void zipf_init(struct ssdsim__gen *g, double s)
{
    g->zipf_s = s;
    g->zipf_hx1 = zipf_hint(s, 1.5) - 1;
    g->zipf_hn = zipf_hint(s, (double)g->n_slots + 0.5);
    g->zipf_sval = 2 - zipf_hint_inv(s, zipf_hint(s, 2.5) - zipf_h(s, 2));
}

static uint64_t zipf_rank(struct ssdsim__gen *g) /* 0-based */
{
    double s = g->zipf_s, n = (double)g->n_slots;
    for (;;) {
        double u = g->zipf_hn + ssdsim__rng_double(&g->rng) * (g->zipf_hx1 - g->zipf_hn);
        double x = zipf_hint_inv(s, u);
        double k = floor(x + 0.5);
        if (k < 1)
            k = 1;
        else if (k > n)
            k = n;
        if (k - x <= g->zipf_sval || u >= zipf_hint(s, k + 0.5) - zipf_h(s, k))
            return (uint64_t)k - 1;
    }
}

/* fio's pareto:h: rank = (n - 1) * u^(log h / log(1 - h)). */
static uint64_t pareto_rank(struct ssdsim__gen *g)
{
    double u = ssdsim__rng_double(&g->rng);
    double v = (double)(g->n_slots - 1) * pow(u, g->pareto_pow);
    uint64_t r = (uint64_t)v;
    return r < g->n_slots ? r : g->n_slots - 1;
}

/* normal:dev: ranks around the middle with a standard deviation of dev percent of the region;
 * draws outside it are drawn again (Box-Muller). */
static uint64_t normal_rank(struct ssdsim__gen *g)
{
    double mid = (double)g->n_slots / 2;
    for (;;) {
        double u1 = ssdsim__rng_double(&g->rng), u2 = ssdsim__rng_double(&g->rng);
        double z = sqrt(-2 * log1p(-u1)) * cos(6.283185307179586 * u2);
        double v = floor(mid + z * g->normal_dev);
        if (v >= 0 && v < (double)g->n_slots)
            return (uint64_t)v;
    }
}

/* ------------------------------------------------------------------------------------------ */
/* Set-up                                                                                      */

/* The one direction a pattern issues, or -1 for a mix of reads and writes (rw, randrw). */
static inline int sole_dir(enum ssdsim__rw rw)
{
    switch (rw) {
    case SSDSIM__RW_READ:
    case SSDSIM__RW_RANDREAD:
        return SSDSIM__DIR_READ;
    case SSDSIM__RW_WRITE:
    case SSDSIM__RW_RANDWRITE:
        return SSDSIM__DIR_WRITE;
    case SSDSIM__RW_TRIM:
    case SSDSIM__RW_RANDTRIM:
        return SSDSIM__DIR_TRIM;
    default:
        return -1;
    }
}

static bool dir_used(enum ssdsim__rw rw, int d)
{
    int sole = sole_dir(rw);
    return sole >= 0 ? d == sole : d != SSDSIM__DIR_TRIM;
}

void ssdsim__gen_init(struct ssdsim__gen *g, const struct ssdsim__jobspec *spec, uint32_t clone,
                      uint64_t seed, uint64_t scatter_seed, uint64_t logical_bytes)
{
    memset(g, 0, sizeof *g);
    ssdsim__rng_seed(&g->rng, spec->has_randseed ? spec->randseed : seed, "job", clone);
    struct ssdsim__rng scatter; /* the hot set's stream: the workload's, not the run's */
    ssdsim__rng_seed(&scatter, spec->has_randseed ? spec->randseed : scatter_seed, "scatter",
                     clone);
    g->rw = spec->rw;
    g->random = spec->rw == SSDSIM__RW_RANDREAD || spec->rw == SSDSIM__RW_RANDWRITE ||
                spec->rw == SSDSIM__RW_RANDRW || spec->rw == SSDSIM__RW_RANDTRIM;
    g->rw_suffix = spec->rw_suffix;
    g->rwmixread = spec->rwmixread;
    uint32_t min_bs = UINT32_MAX;
    for (int d = 0; d < SSDSIM__N_DIRS; d++) {
        const struct ssdsim__bsdist *b = &spec->bs[d];
        g->pct_random[d] = spec->percentage_random[d];
        g->range_min[d] = b->range_min;
        g->range_max[d] = b->range_max;
        uint32_t cum = 0, dmin = UINT32_MAX;
        if (b->range_max) {
            dmin = b->range_min;
        } else {
            g->n_bs[d] = b->n;
            for (uint32_t i = 0; i < b->n; i++) {
                g->bs_bytes[d][i] = b->e[i].bytes;
                cum += b->e[i].percent;
                g->bs_cum[d][i] = cum;
                if (b->e[i].percent > 0 && b->e[i].bytes < dmin)
                    dmin = b->e[i].bytes;
            }
        }
        if (spec->blockalign[d])
            dmin = spec->blockalign[d]; /* ba: the direction's alignment */
        if (dir_used(spec->rw, d) && dmin < min_bs)
            min_bs = dmin;
    }
    g->align = min_bs == UINT32_MAX || min_bs == 0 ? 512 : min_bs;
    ssdsim__jobspec_region(spec, clone, logical_bytes, &g->region_start, &g->region_len);
    g->n_slots = g->region_len / g->align;
    if (g->n_slots == 0)
        g->n_slots = 1;

    g->dist = spec->dist;
    if (g->dist == SSDSIM__DIST_NORMAL && spec->dist_param <= 0)
        g->dist = SSDSIM__DIST_RANDOM; /* normal:0 is uniform, as in fio */
    switch (g->dist) {
    case SSDSIM__DIST_RANDOM:
        g->randommap = !spec->norandommap;
        ssdsim__perm_init(&g->perm, g->n_slots, &g->rng);
        break;
    case SSDSIM__DIST_ZIPF:
        ssdsim__perm_init(&g->perm, g->n_slots, &scatter);
        zipf_init(g, spec->dist_param);
        break;
    case SSDSIM__DIST_PARETO:
        ssdsim__perm_init(&g->perm, g->n_slots, &scatter);
        g->pareto_pow = log(spec->dist_param) / log(1 - spec->dist_param);
        break;
    case SSDSIM__DIST_NORMAL:
        ssdsim__perm_init(&g->perm, g->n_slots, &scatter);
        g->normal_dev = (double)g->n_slots * spec->dist_param / 100;
        if (g->normal_dev < 1)
            g->normal_dev = 1;
        break;
    case SSDSIM__DIST_ZONED:
    case SSDSIM__DIST_ZONED_ABS: {
        uint32_t access_cum = 0;
        uint64_t at = 0; /* in units of the alignment */
        uint32_t range_cum = 0;
        for (uint32_t i = 0; i < spec->n_zones; i++) {
            access_cum += spec->zone_access[i];
            g->zone_cum[i] = access_cum;
            uint64_t lo, hi;
            if (spec->dist == SSDSIM__DIST_ZONED) {
                lo = g->n_slots * range_cum / 100;
                range_cum += spec->zone_range[i];
                hi = g->n_slots * range_cum / 100;
            } else {
                lo = at;
                hi = at + spec->zone_bytes[i] / g->align;
                if (hi > g->n_slots)
                    hi = g->n_slots;
                at = hi;
            }
            g->zone_start[i] = lo * g->align;
            g->zone_len[i] = (hi - lo) * g->align;
        }
        g->n_zones = spec->n_zones;
        break;
    }
    }

    /* the short path of ssdsim__gen_next: the direction of a rw without a mix, a single block
     * size not above the region, every request at a random offset, uniform without randommap */
    int d = g->rw == SSDSIM__RW_RANDREAD    ? SSDSIM__DIR_READ
            : g->rw == SSDSIM__RW_RANDWRITE ? SSDSIM__DIR_WRITE
            : g->rw == SSDSIM__RW_RANDTRIM  ? SSDSIM__DIR_TRIM
                                            : -1;
    if (d >= 0 && !g->range_max[d] && g->n_bs[d] == 1 && g->bs_bytes[d][0] <= g->region_len &&
        g->pct_random[d] >= 100 && g->rw_suffix <= 1 && g->dist == SSDSIM__DIST_RANDOM &&
        !g->randommap) {
        g->uniform = true;
        g->uniform_dir = (uint8_t)d;
        g->uniform_bs = g->bs_bytes[d][0];
        g->ahead_kind = 1;
    }
    bool mix_ok = g->rw == SSDSIM__RW_RANDRW && g->random && g->rw_suffix <= 1 &&
                  g->dist == SSDSIM__DIST_RANDOM && !g->randommap;
    for (int k = SSDSIM__DIR_READ; k <= SSDSIM__DIR_WRITE; k++)
        mix_ok = mix_ok && !g->range_max[k] && g->n_bs[k] == 1 &&
                 g->bs_bytes[k][0] <= g->region_len && g->pct_random[k] >= 100;
    if (mix_ok)
        g->ahead_kind = 2;

    if (spec->number_ios) {
        g->io_limit = spec->number_ios;
    } else if (!spec->time_based) {
        if (spec->io_size_percent > 0)
            g->byte_limit = ssdsim__percent_bytes(g->region_len, spec->io_size_percent);
        else if (spec->io_size_bytes)
            g->byte_limit = spec->io_size_bytes;
        else
            g->byte_limit = g->region_len * (spec->loops ? spec->loops : 1);
        /* A sequential pattern with holes (rw=write:N) makes one pass over the region per
         * loop, as fio's does: floor((region - bs) / (bs + N)) + 1 blocks (fio 3.33, size=1m
         * bs=4k rw=write:8k: 86 writes), not the region's bytes (which wrapped around it). */
        int sd = g->random ? -1 : sole_dir(g->rw);
        if (sd >= 0 && g->rw_suffix && !spec->io_size_percent && !spec->io_size_bytes &&
            !g->range_max[sd] && g->n_bs[sd] == 1 && !g->zone_skip && !g->zone_cap &&
            g->bs_bytes[sd][0] <= g->region_len) {
            uint64_t bs = g->bs_bytes[sd][0];
            uint64_t per_pass = ((g->region_len - bs) / (bs + g->rw_suffix) + 1) * bs;
            g->byte_limit = per_pass * (spec->loops ? spec->loops : 1);
        }
    }
}

/* ------------------------------------------------------------------------------------------ */
/* Requests                                                                                    */

static uint32_t pick_bs(struct ssdsim__gen *g, int d)
{
    if (g->range_max[d]) {
        uint32_t k = g->range_max[d] / g->range_min[d];
        return g->range_min[d] * (uint32_t)(1 + ssdsim__rng_below(&g->rng, k));
    }
    if (g->n_bs[d] == 1)
        return g->bs_bytes[d][0];
    uint32_t r = (uint32_t)ssdsim__rng_below(&g->rng, 100);
    for (uint32_t i = 0; i < g->n_bs[d]; i++)
        if (r < g->bs_cum[d][i])
            return g->bs_bytes[d][i];
    return g->bs_bytes[d][g->n_bs[d] - 1];
}

/* A random slot (in units of the alignment) from the distribution. */
static uint64_t random_slot(struct ssdsim__gen *g)
{
    switch (g->dist) {
    case SSDSIM__DIST_RANDOM:
        if (g->randommap) {
            if (g->perm_pos == g->n_slots) {
                /* a new pass, in a new order */
                ssdsim__perm_init(&g->perm, g->n_slots, &g->rng);
                g->perm_pos = 0;
            }
            return ssdsim__perm_apply(&g->perm, g->perm_pos++);
        }
        return ssdsim__rng_below(&g->rng, g->n_slots);
    case SSDSIM__DIST_ZIPF:
        return ssdsim__perm_apply(&g->perm, zipf_rank(g));
    case SSDSIM__DIST_PARETO:
        return ssdsim__perm_apply(&g->perm, pareto_rank(g));
    case SSDSIM__DIST_NORMAL:
        return ssdsim__perm_apply(&g->perm, normal_rank(g));
    case SSDSIM__DIST_ZONED:
    case SSDSIM__DIST_ZONED_ABS:
    default: {
        uint32_t r = (uint32_t)ssdsim__rng_below(&g->rng, 100), z = 0;
        while (z + 1 < g->n_zones && r >= g->zone_cum[z])
            z++;
        uint64_t slots = g->zone_len[z] / g->align;
        return g->zone_start[z] / g->align + ssdsim__rng_below(&g->rng, slots ? slots : 1);
    }
    }
}

/* fio's rate_ddir (io_u.c): direction d as drawn, or the other one of the mix when d must wait
 * for its rate and the other need not wait as long. */
static int rate_ddir(const struct ssdsim__gen *g, int d)
{
    int o = d ^ 1;
    if (g->rate_next[d] <= g->rate_now)
        return d;
    if (g->rate_next[o] <= g->rate_now)
        return o;
    return g->rate_next[d] <= g->rate_next[o] ? d : o;
}

bool ssdsim__gen_next_any(struct ssdsim__gen *g, uint8_t *op, uint64_t *offset, uint32_t *len)
{
    if (g->io_limit && g->issued >= g->io_limit)
        return false;
    if (g->byte_limit && g->bytes_issued >= g->byte_limit)
        return false;
    int d = sole_dir(g->rw);
    if (d < 0) {
        d = ssdsim__rng_below(&g->rng, 100) < g->rwmixread ? SSDSIM__DIR_READ : SSDSIM__DIR_WRITE;
        if (g->rate_next && g->rwmixread > 0 && g->rwmixread < 100)
            d = rate_ddir(g, d);
    }
    *op = (uint8_t)d; /* SSDSIM__IO_* share the direction numbering */
    uint32_t bs = pick_bs(g, d);
    if (bs > g->region_len)
        bs = (uint32_t)g->region_len;
    uint64_t off;
    bool random = g->random;
    if (random && g->run_left[d] > 0) {
        g->run_left[d]--; /* rw=rand...:N: continue at the next offset */
        random = false;
    } else if (random && g->pct_random[d] < 100 &&
               ssdsim__rng_below(&g->rng, 100) >= g->pct_random[d]) {
        random = false;
    }
    if (random) {
        off = ssdsim__gen_slot_offset(g, random_slot(g), bs);
        if (g->rw_suffix > 1)
            g->run_left[d] = g->rw_suffix - 1;
    } else if (g->random) {
        /* the sequential part of a random pattern continues after the last I/O */
        off = g->run_pos[d];
        if (off + bs > g->region_len)
            off = 0;
    } else {
        /* Like fio, each direction of a sequential mix walks the region on its own. */
        uint64_t *pos = &g->seq_pos[d];
        if (g->zone_skip &&
            (g->zone_bytes >= g->zone_size || *pos >= g->zone_base + g->zone_size)) {
            /* fio's zoneskip (zbd.c, setup_zbd_zone_mode): the next zone is zone_skip bytes
             * past the end of this one, back to the start past the end of the region */
            g->zone_bytes = 0;
            g->zone_base += g->zone_size + g->zone_skip;
            if (g->zone_base >= g->region_len)
                g->zone_base = 0;
            *pos = g->zone_base;
        }
        if (g->zone_cap) {
            uint64_t in_zone = (g->region_start + *pos) % g->zone_size;
            if (in_zone >= g->zone_cap)
                *pos += g->zone_size - in_zone; /* past the capacity: the next zone */
        }
        if (*pos + bs > g->region_len) {
            *pos = 0;
            g->zone_base = g->zone_bytes = 0;
        }
        off = *pos;
        *pos += bs + g->rw_suffix;
        g->zone_bytes += bs;
    }
    g->run_pos[d] = off + bs;
    if (g->byte_limit && g->bytes_issued + bs > g->byte_limit)
        bs = (uint32_t)(g->byte_limit - g->bytes_issued);
    *offset = g->region_start + off;
    *len = bs;
    g->issued++;
    g->bytes_issued += bs;
    return true;
}

void ssdsim__gen_ahead_init(const struct ssdsim__gen *g, struct ssdsim__gen_ahead *a, uint32_t n)
{
    a->rng = g->rng;
    a->on = g->ahead_kind != 0;
    uint8_t op;
    uint64_t off;
    for (uint32_t k = 0; a->on && k < n; k++)
        ssdsim__gen_ahead_next(g, a, &op, &off);
}

uint64_t ssdsim__gen_planned(const struct ssdsim__gen *g)
{
    if (g->io_limit)
        return g->io_limit;
    if (!g->byte_limit)
        return 0;
    /* mean block size of the directions in use, weighted by the mix */
    double mean = 0, wsum = 0;
    for (int d = 0; d < SSDSIM__N_DIRS; d++) {
        if (!dir_used(g->rw, d))
            continue;
        double w = g->rw == SSDSIM__RW_RW || g->rw == SSDSIM__RW_RANDRW
                       ? (d == SSDSIM__DIR_READ ? g->rwmixread : 100 - g->rwmixread)
                       : 100;
        double m = 0;
        if (g->range_max[d]) {
            m = (g->range_min[d] + (double)(g->range_max[d] / g->range_min[d]) * g->range_min[d]) /
                2;
        } else {
            uint32_t prev = 0;
            for (uint32_t i = 0; i < g->n_bs[d]; i++) {
                m += (double)g->bs_bytes[d][i] * (g->bs_cum[d][i] - prev) / 100;
                prev = g->bs_cum[d][i];
            }
        }
        mean += w * m;
        wsum += w;
    }
    if (wsum <= 0 || mean <= 0)
        return 0;
    mean /= wsum;
    return (uint64_t)ceil((double)g->byte_limit / mean);
}
