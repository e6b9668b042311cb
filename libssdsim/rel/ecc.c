/* ecc.c: what a flash read costs once its bits may be wrong (issue 16, item 2).
 *
 * A read of c codewords of n bits each at RBER p: codeword j has X_j ~ Binomial(n, p) errors.
 * Hard decision corrects up to t. Each read-retry step reads the page again (a further tR and
 * decode) with shifted read voltages, which multiply the effective RBER by f; after retry_max
 * steps, soft decoding senses soft_reads more times (tR each) and decodes (soft_decode) up to
 * soft_t errors. What fails that is uncorrectable: rebuilt from its RAIN stripe when the model
 * has parity (rel/reclaim.c), else counted as lost.
 *
 * The draws are coupled: one uniform w in (0, 1] per read decides every step, the read
 * succeeding at the first step s whose failure probability P_s = 1 - (1 - P(X > t | p f^s))^c
 * is at most w. P_s falls with s, so P(steps <= s) = 1 - P_s exactly: the distribution of steps
 * is the binomial tails' and nothing else (tests/test_rel.c checks it). Equivalently, each
 * codeword's errors at step s are its errors at step 0 thinned by f^s, comonotonically.
 *
 * The latency of a read is the sum of its steps: tR + decode, then (tR + decode) per retry,
 * then soft_reads x tR + soft_decode; on the die's time line, as the die holds the page (the
 * data of a retry does not cross the channel again in this model).
 *
 * Most reads settle at step 0 without any sum: below p_clean (rel/rber.c) the failure
 * probability is below eps_clean, and w >= eps_clean decides. The rest sum the binomial.
 */
#include "rel/rel.h"

#include "engine/rng.h"
#include "hw/hw.h"

#include <math.h>
#include <stdlib.h>

double ssdsim__rel_binom_tail(uint32_t k, uint32_t n, double p)
{
    if (!(p > 0) || k >= n)
        return 0;
    if (p >= 1)
        return 1;
    double lr = p / (1 - p);
    double mode = (n + 1.0) * p;
    if ((double)k + 1 >= mode) {
        /* the upper tail from k + 1: terms fall from the first */
        uint32_t j = k + 1;
        double lp = lgamma(n + 1.0) - lgamma(j + 1.0) - lgamma((double)(n - j) + 1) +
                    j * log(p) + (n - j) * log1p(-p);
        if (lp < -745)
            return 0;
        double term = 1, sum = 1;
        for (uint32_t i = j; i < n; i++) {
            term *= (double)(n - i) / (i + 1) * lr;
            sum += term;
            if (term < 1e-17 * sum)
                break;
        }
        double v = exp(lp) * sum;
        return v < 1 ? v : 1;
    }
    /* below the mode: 1 - the lower tail up to k, summed down from k */
    double lp = lgamma(n + 1.0) - lgamma(k + 1.0) - lgamma((double)(n - k) + 1) + k * log(p) +
                (n - k) * log1p(-p);
    if (lp < -745)
        return 1;
    double term = 1, sum = 1;
    for (uint32_t i = k; i > 0; i--) {
        term *= (double)i / (n - i + 1) / lr;
        sum += term;
        if (term < 1e-17 * sum)
            break;
    }
    double f = exp(lp) * sum;
    return f < 1 ? 1 - f : 0;
}

double ssdsim__rel_fail_prob(uint32_t k, uint32_t n, double p, uint32_t c)
{
    double q = ssdsim__rel_binom_tail(k, n, p);
    if (q >= 1)
        return 1;
    return -expm1((double)c * log1p(-q));
}

/* The tables: TAB_N + 1 RBERs from TAB_LO, TAB_PER_LN per unit of ln p (up to 0.5). */
#define TAB_LO 1e-7
#define TAB_PER_LN 40.0
#define TAB_N 617 /* ln(0.5 / 1e-7) x 40 = 616.9 */

int ssdsim__rel_tables(struct ssdsim__rel *r)
{
    r->tab_hard = malloc(sizeof(double) * (TAB_N + 1));
    r->tab_soft = malloc(sizeof(double) * (TAB_N + 1));
    if (!r->tab_hard || !r->tab_soft)
        return SSDSIM_ENOMEM;
    for (int j = 0; j <= TAB_N; j++) {
        double p = TAB_LO * exp(j / TAB_PER_LN);
        r->tab_hard[j] = ssdsim__rel_fail_prob(r->p->t, r->bits, p, r->cw_page);
        r->tab_soft[j] = ssdsim__rel_fail_prob(r->p->soft_t, r->bits, p, r->cw_page);
    }
    return 0;
}

/* Whether draw w passes decoding (w >= the failure probability of c codewords correcting k
 * errors at RBER p): from the table when it brackets the answer, else summed. */
static bool passes(const struct ssdsim__rel *r, const double *tab, uint32_t k, double p,
                   uint32_t c, double w)
{
    if (c == r->cw_page && p >= TAB_LO) {
        /* p lies between entries j and j + 1; one more entry on each side keeps the bracket
         * whatever the rounding of log and exp */
        double x = log(p / TAB_LO) * TAB_PER_LN;
        if (x >= 1 && x < TAB_N - 1) {
            int j = (int)x;
            if (w >= tab[j + 2])
                return true; /* the probability rises with p */
            if (w < tab[j - 1])
                return false;
        }
    }
    return w >= ssdsim__rel_fail_prob(k, r->bits, p, c);
}

/* Failed codewords of a failed read: K ~ Binomial(c, q) given K >= 1. */
static uint32_t failed_codewords(struct ssdsim__rng *g, uint32_t c, double q)
{
    if (c <= 1 || !(q > 0))
        return 1;
    if (q >= 1)
        return c;
    double all = -expm1((double)c * log1p(-q)); /* P(K >= 1) */
    double u = ssdsim__rng_double(g) * all;
    double pk = c * q * pow(1 - q, c - 1); /* P(K = 1) */
    uint32_t k = 1;
    double acc = pk;
    while (u >= acc && k < c) {
        pk *= (double)(c - k) / (k + 1) * q / (1 - q);
        k++;
        acc += pk;
    }
    return k;
}

uint64_t ssdsim__rel_read(struct ssdsim__rel *r, struct ssdsim__flash_op *op, uint32_t oi,
                          uint64_t tr, uint64_t now)
{
    struct ssdsim__hw *hw = r->hw;
    if (op->purpose == SSDSIM__FOR_REL_RECON)
        return tr; /* a stripe member read for a reconstruction (rel/reclaim.c) */
    uint32_t block = op->addr / hw->pages_per_block;
    struct ssdsim__rel_blk *k = &r->blk[block];
    if (op->bytes == 0) {
        k->reads++; /* a copyback read: the page stays in the die, undecoded */
        return tr;
    }
    const struct ssdsim__errmodel *e = r->p;
    double p = ssdsim__rel_rber(r, block, now);
    k->reads++;
    uint32_t c = (op->bytes + e->codeword - 1) / e->codeword;
    struct ssdsim__rel_counts *n = &r->n;
    n->reads++;
    n->rber_sum += p;
    n->cw_read += c;
    n->bits_read += (uint64_t)c * r->bits;
    struct ssdsim__rng *g = (struct ssdsim__rng *)r->rng;
    double w = (double)((ssdsim__rng_next(g) >> 11) + 1) * 0x1.0p-53; /* (0, 1] */
    /* read reclaim: retention and disturb, which a move undoes, bring the block near the limit
     * (wear alone, which it does not undo, is left alone) */
    if (e->reclaim_at > 0 && !k->asked && p * r->bits >= e->reclaim_at * e->t &&
        k->c_wear * r->bits < e->reclaim_at * e->t)
        ssdsim__rel_ask_reclaim(r, block, now);
    uint64_t step = tr + e->decode_ns;
    if (p <= r->p_clean && w >= r->eps_clean) {
        n->by_steps[0]++;
        n->extra_ns += e->decode_ns;
        return step;
    }
    double ps = p;
    for (uint32_t s = 0;; s++) {
        if (passes(r, r->tab_hard, e->t, ps, c, w)) {
            n->by_steps[s]++;
            n->retries += s;
            n->extra_ns += (uint64_t)(s + 1) * step - tr;
            return (uint64_t)(s + 1) * step;
        }
        if (s == e->retry_max)
            break;
        ps *= e->retry_factor;
    }
    uint64_t total = (uint64_t)(e->retry_max + 1) * step;
    n->retries += e->retry_max;
    uint32_t limit = e->t;
    if (e->soft_reads) {
        total += e->soft_reads * tr + e->soft_decode_ns;
        n->soft++;
        limit = e->soft_t;
        if (passes(r, r->tab_soft, e->soft_t, ps, c, w)) {
            n->by_steps[e->retry_max + 1]++;
            n->extra_ns += total - tr;
            return total;
        }
    }
    n->by_steps[e->retry_max + 2]++;
    n->uncorrectable++;
    n->cw_failed += failed_codewords(g, c, ssdsim__rel_binom_tail(limit, r->bits, ps));
    n->extra_ns += total - tr;
    if (r->group)
        ssdsim__rel_want_recon(r, oi);
    return total;
}
