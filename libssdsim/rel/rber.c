/* rber.c: the raw bit error rate of a page (issue 16, item 1), the per-cell-type defaults of the
 * reliability keys, and each block's state behind the rate: its variation factor, the time of
 * its first program since its erase, its reads since the erase (read disturb), and the
 * coefficients that depend only on its erase count (recomputed when that count changes).
 *
 *   RBER = v_b (base + wear k^a + ret (1+k)^b d^g + rd (1+k)^e (r/1000)^h), at most 0.5
 *
 * with k the block's P/E cycles / 1000, d the retention age in days (now - first program since
 * the erase, plus any aging), r the block's reads since its erase, v_b log-normal with mean 1
 * and sigma `variation`, drawn per block from the run's seed. doc/models.md, "Reliability", cites
 * where each default comes from.
 */
#include "rel/rel.h"

#include "config/model.h"
#include "engine/rng.h"
#include "hw/hw.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define EMPTY INT64_MAX
#define NS_PER_DAY 86400e9

/* Defaults per cell type, index SSDSIM__CELL_SLC..QLC (1..4). doc/models.md gives the source
 * or marks the estimate of each. */
static const struct ssdsim__errmodel defaults[5] = {
    [SSDSIM__CELL_SLC] = {.base = 1e-9, .wear = 1e-9, .wear_exp = 2, .ret = 5e-9,
                          .ret_wear_exp = 1.5, .ret_exp = 0.5, .rd = 1e-9, .rd_wear_exp = 1,
                          .rd_exp = 1, .variation = 0.3, .codeword = 1024, .t = 8,
                          .decode_ns = 0, .retry_max = 3, .retry_factor = 0.7, .soft_reads = 2,
                          .soft_t = 16, .soft_decode_ns = 20000, .reclaim_at = 0.75,
                          .reclaim_max = 1, .reclaim_period_ns = 100000000,
                          .patrol_ns = 0},
    [SSDSIM__CELL_MLC] = {.base = 1e-7, .wear = 3e-6, .wear_exp = 2, .ret = 6.5e-6,
                          .ret_wear_exp = 1.5, .ret_exp = 0.5, .rd = 5e-7, .rd_wear_exp = 1,
                          .rd_exp = 1, .variation = 0.3, .codeword = 1024, .t = 40,
                          .decode_ns = 0, .retry_max = 5, .retry_factor = 0.7, .soft_reads = 2,
                          .soft_t = 80, .soft_decode_ns = 20000, .reclaim_at = 0.75,
                          .reclaim_max = 1, .reclaim_period_ns = 100000000,
                          .patrol_ns = 0},
    [SSDSIM__CELL_TLC] = {.base = 1e-6, .wear = 3e-4, .wear_exp = 1.8, .ret = 6.5e-5,
                          .ret_wear_exp = 1.5, .ret_exp = 0.5, .rd = 5e-6, .rd_wear_exp = 1,
                          .rd_exp = 1, .variation = 0.3, .codeword = 2048, .t = 120,
                          .decode_ns = 0, .retry_max = 8, .retry_factor = 0.7, .soft_reads = 4,
                          .soft_t = 240, .soft_decode_ns = 20000, .reclaim_at = 0.75,
                          .reclaim_max = 1, .reclaim_period_ns = 100000000,
                          .patrol_ns = 0},
    [SSDSIM__CELL_QLC] = {.base = 5e-6, .wear = 2e-3, .wear_exp = 1.8, .ret = 1.8e-4,
                          .ret_wear_exp = 1.5, .ret_exp = 0.5, .rd = 1e-5, .rd_wear_exp = 1,
                          .rd_exp = 1, .variation = 0.3, .codeword = 2048, .t = 160,
                          .decode_ns = 0, .retry_max = 10, .retry_factor = 0.7, .soft_reads = 6,
                          .soft_t = 320, .soft_decode_ns = 20000, .reclaim_at = 0.75,
                          .reclaim_max = 1, .reclaim_period_ns = 100000000,
                          .patrol_ns = 0},
};

bool ssdsim__rel_on(const struct ssdsim_model *m)
{
    return m->errors.model != SSDSIM__REL_OFF;
}

int ssdsim__rel_cell(const struct ssdsim_model *m)
{
    int c = m->errors.model == SSDSIM__REL_CELL ? (int)m->flash.cell : m->errors.model;
    return c >= SSDSIM__CELL_SLC && c <= SSDSIM__CELL_QLC ? c : SSDSIM__CELL_TLC;
}

void ssdsim__rel_defaults(struct ssdsim_model *m, const char *key)
{
    const struct ssdsim__errmodel *d = &defaults[ssdsim__rel_cell(m)];
    struct ssdsim__errmodel *e = &m->errors;
    static const struct {
        const char *key;
        size_t off, size;
    } fields[] = {
#define F(k, f) {#k, offsetof(struct ssdsim__errmodel, f), sizeof(((struct ssdsim__errmodel *)0)->f)}
        F(base, base),           F(wear, wear),           F(wear_exp, wear_exp),
        F(ret, ret),             F(ret_wear_exp, ret_wear_exp), F(ret_exp, ret_exp),
        F(rd, rd),               F(rd_wear_exp, rd_wear_exp), F(rd_exp, rd_exp),
        F(variation, variation), F(codeword, codeword),   F(t, t),
        F(decode, decode_ns),    F(retry_max, retry_max), F(retry_factor, retry_factor),
        F(soft_reads, soft_reads), F(soft_t, soft_t),     F(soft_decode, soft_decode_ns),
        F(reclaim, reclaim_at),  F(patrol, patrol_ns),
        F(reclaim_max, reclaim_max), F(reclaim_period, reclaim_period_ns),
#undef F
    };
    for (size_t i = 0; i < sizeof fields / sizeof fields[0]; i++)
        if (!strcmp(fields[i].key, key))
            memcpy((char *)e + fields[i].off, (const char *)d + fields[i].off, fields[i].size);
    if (!strcmp(key, "codeword")) { /* at most the page (or the unit, when smaller) */
        uint32_t unit = m->ftl.mapping_unit ? m->ftl.mapping_unit : m->geometry.page_size;
        uint32_t page = SSDSIM__MIN(unit, m->geometry.page_size);
        if (page && e->codeword > page)
            e->codeword = page;
    } else if (!strcmp(key, "soft_t")) { /* twice the hard decision's, below the bits */
        uint64_t bits = (uint64_t)e->codeword * 8, s = 2 * (uint64_t)e->t;
        e->soft_t = (uint32_t)(s < bits ? s : bits - 1);
    }
}

const char *ssdsim__rel_check(const struct ssdsim_model *m, char *msg, size_t len)
{
    const struct ssdsim__errmodel *e = &m->errors;
    if (!ssdsim__rel_on(m))
        return NULL;
    if (m->flash.cell == SSDSIM__CELL_XPOINT) {
        snprintf(msg, len, "media without erase (flash.cell \"xpoint\") has no NAND bit-error "
                           "model");
        return "reliability.rber_model";
    }
    uint32_t unit = m->ftl.mapping_unit ? m->ftl.mapping_unit : m->geometry.page_size;
    uint32_t page = SSDSIM__MIN(unit, m->geometry.page_size);
    if (e->codeword > page) {
        snprintf(msg, len, "expected at most the page or mapping unit (%u bytes), got %u",
                 page, e->codeword);
        return "reliability.ecc_codeword";
    }
    uint64_t bits = (uint64_t)e->codeword * 8;
    if (e->t >= bits) {
        snprintf(msg, len, "expected fewer bit errors than the codeword's %llu bits, got %u",
                 (unsigned long long)bits, e->t);
        return "reliability.ecc_t";
    }
    if (e->soft_reads && (e->soft_t >= bits || e->soft_t < e->t)) {
        snprintf(msg, len, "expected from ecc_t (%u) to below the codeword's %llu bits, got %u",
                 e->t, (unsigned long long)bits, e->soft_t);
        return "reliability.soft_t";
    }
    if (e->retry_max > 0 && !(e->retry_factor > 0)) {
        snprintf(msg, len, "expected a factor above 0 when retry_max > 0, got 0");
        return "reliability.retry_factor";
    }
    return NULL;
}

double ssdsim__rel_formula(const struct ssdsim__errmodel *p, double pe, double days, double reads)
{
    double k = pe / 1000;
    double r = p->base + p->wear * pow(k, p->wear_exp) +
               p->ret * pow(1 + k, p->ret_wear_exp) * pow(days, p->ret_exp) +
               p->rd * pow(1 + k, p->rd_wear_exp) * pow(reads / 1000, p->rd_exp);
    return r < 0.5 ? r : 0.5;
}

/* A standard normal from two uniforms (Box-Muller). */
static double normal(struct ssdsim__rng *g)
{
    double u = (double)((ssdsim__rng_next(g) >> 11) + 1) * 0x1.0p-53; /* (0, 1] */
    double v = ssdsim__rng_double(g);
    return sqrt(-2 * log(u)) * cos(6.283185307179586 * v);
}

int ssdsim__rel_new(struct ssdsim__hw *hw, const struct ssdsim_model *m, uint64_t seed,
                    uint32_t device_index)
{
    hw->rel = NULL;
    if (!ssdsim__rel_on(m))
        return 0;
    struct ssdsim__rel *r = calloc(1, sizeof *r);
    if (!r)
        return SSDSIM_ENOMEM;
    r->p = &m->errors;
    r->hw = hw;
    r->n_blocks = hw->n_blocks;
    r->blk = malloc(sizeof *r->blk * hw->n_blocks);
    if (!r->blk) {
        free(r);
        return SSDSIM_ENOMEM;
    }
    struct ssdsim__rng g;
    ssdsim__rng_seed(&g, seed, "rel-variation", device_index);
    double s = m->errors.variation;
    for (uint64_t b = 0; b < hw->n_blocks; b++) {
        struct ssdsim__rel_blk *k = &r->blk[b];
        memset(k, 0, sizeof *k);
        k->prog_ns = EMPTY;
        k->pe = UINT32_MAX;
        k->v = s > 0 ? (float)exp(s * normal(&g) - s * s / 2) : 1.0f;
    }
    ssdsim__rng_seed((struct ssdsim__rng *)r->rng, seed, "rel-reads", device_index);
    _Static_assert(sizeof r->rng == sizeof(struct ssdsim__rng), "rng state");
    r->bits = m->errors.codeword * 8;
    uint32_t unit = m->ftl.mapping_unit ? m->ftl.mapping_unit : m->geometry.page_size;
    r->unit_bytes = unit;
    r->cw_page = (unit + m->errors.codeword - 1) / m->errors.codeword;
    r->group = m->ftl.parity_group > 1 ? m->ftl.parity_group : 0;
    /* The fast path: the largest RBER (within 1%) at which a whole unit's codewords fail hard
     * decision with probability below 1e-9; reads at or below it draw w, and w >= eps_clean
     * settles them without summing the binomial. */
    double lo = 0, hi = 0.5;
    for (int i = 0; i < 60; i++) {
        double mid = (lo + hi) / 2;
        if (ssdsim__rel_fail_prob(m->errors.t, r->bits, mid, r->cw_page) < 1e-9)
            lo = mid;
        else
            hi = mid;
    }
    r->p_clean = lo;
    r->eps_clean = ssdsim__rel_fail_prob(m->errors.t, r->bits, lo, r->cw_page);
    if (ssdsim__rel_tables(r)) {
        ssdsim__rel_free(r);
        return SSDSIM_ENOMEM;
    }
    hw->rel = r;
    hw->plain = false; /* its reads and completions take the hardware's other paths */
    return 0;
}

void ssdsim__rel_free(struct ssdsim__rel *r)
{
    if (!r)
        return;
    free(r->blk);
    free(r->rc);
    free(r->tab_hard);
    free(r->tab_soft);
    free(r);
}

void ssdsim__rel_attach(struct ssdsim__rel *r, const uint32_t *erase_count, const uint32_t *busy)
{
    r->erase_count = erase_count;
    r->busy = busy;
}

void ssdsim__rel_programmed(struct ssdsim__rel *r, uint32_t block, uint64_t now)
{
    struct ssdsim__rel_blk *k = &r->blk[block];
    if (k->prog_ns == EMPTY)
        k->prog_ns = (int64_t)now;
}

void ssdsim__rel_erased(struct ssdsim__rel *r, uint32_t block)
{
    struct ssdsim__rel_blk *k = &r->blk[block];
    k->prog_ns = EMPTY;
    k->reads = 0;
    k->asked = false;
}

void ssdsim__rel_reset(struct ssdsim__rel *r)
{
    for (uint64_t b = 0; b < r->n_blocks; b++)
        ssdsim__rel_erased(r, (uint32_t)b);
}

void ssdsim__rel_age(struct ssdsim__rel *r, uint64_t ns)
{
    int64_t d = ns > (uint64_t)INT64_MAX / 4 ? INT64_MAX / 4 : (int64_t)ns;
    for (uint64_t b = 0; b < r->n_blocks; b++)
        if (r->blk[b].prog_ns != EMPTY)
            r->blk[b].prog_ns = r->blk[b].prog_ns < INT64_MIN / 2 + d ? INT64_MIN / 2
                                                                        : r->blk[b].prog_ns - d;
}

double ssdsim__rel_rber(struct ssdsim__rel *r, uint32_t block, uint64_t now)
{
    struct ssdsim__rel_blk *k = &r->blk[block];
    const struct ssdsim__errmodel *p = r->p;
    uint32_t pe = r->erase_count ? r->erase_count[block] : 0;
    if (k->pe != pe) {
        double kc = pe / 1000.0;
        k->pe = pe;
        k->c_wear = k->v * (p->base + p->wear * pow(kc, p->wear_exp));
        k->c_ret = k->v * p->ret * pow(1 + kc, p->ret_wear_exp);
        k->c_rd = k->v * p->rd * pow(1 + kc, p->rd_wear_exp);
    }
    double x = k->c_wear;
    if (k->c_ret > 0) {
        double days = k->prog_ns != EMPTY && (int64_t)now > k->prog_ns
                          ? (double)((int64_t)now - k->prog_ns) / NS_PER_DAY
                          : 0;
        x += k->c_ret * (p->ret_exp == 0.5 ? sqrt(days) : pow(days, p->ret_exp));
    }
    if (k->c_rd > 0) {
        double kr = k->reads / 1000.0;
        x += k->c_rd * (p->rd_exp == 1 ? kr : pow(kr, p->rd_exp));
    }
    return x < 0.5 ? x : 0.5;
}
