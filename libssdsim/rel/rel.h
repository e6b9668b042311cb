/* rel.h: bit errors and what the controller does about them (issue 16, items 1 to 3): the raw
 * bit error rate of each page from the wear, retention age and read-disturb count of its block
 * (rel/rber.c), hard-decision ECC, read retry and soft decoding with the latency each read
 * needs (rel/ecc.c), parity reconstruction of uncorrectable reads, read reclaim and patrol
 * reads (rel/reclaim.c), and the figures (rel/relstats.c). The model's `reliability.rber_*`,
 * `ecc_*`, `retry_*`, `soft_*`, `reclaim_*` and `patrol_*` keys fill struct ssdsim__errmodel
 * (config/model.c); doc/models.md, "Reliability", gives the formulas and their sources.
 *
 * A device whose model leaves reliability.rber_model "off" (the default) has no state here
 * (hw->rel NULL) and pays one pointer test per flash read and completion.
 */
#ifndef SSDSIM_REL_H
#define SSDSIM_REL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* ---------------------------------------------------------------- the model's parameters */

/* reliability.rber_model: off, the model's own cell type ("cell"), or a given one. */
enum { SSDSIM__REL_OFF = 0, SSDSIM__REL_CELL = -1 };

struct ssdsim__errmodel {
    int model; /* SSDSIM__REL_OFF, SSDSIM__REL_CELL or an enum ssdsim__cell (1..4) */
    /* RBER = v_b (base + wear k^wear_exp + ret (1+k)^ret_wear_exp d^ret_exp
     *             + rd (1+k)^rd_wear_exp (r/1000)^rd_exp), k = P/E cycles / 1000,
     * d = retention age in days, r = reads of the block since its erase; at most 0.5 */
    double base, wear, wear_exp;
    double ret, ret_wear_exp, ret_exp;
    double rd, rd_wear_exp, rd_exp;
    double variation; /* sigma of ln v_b (v_b log-normal with mean 1, per block) */
    uint32_t codeword; /* bytes of data per ECC codeword */
    uint32_t t;        /* bits per codeword hard decision corrects */
    uint64_t decode_ns;      /* per hard decode attempt */
    uint32_t retry_max;      /* read-retry steps before soft decoding */
    double retry_factor;     /* each step multiplies the effective RBER by this */
    uint32_t soft_reads;     /* extra sensing reads of soft decoding (0: no soft decoding) */
    uint32_t soft_t;         /* bits per codeword soft decoding corrects */
    uint64_t soft_decode_ns; /* the soft decode */
    double reclaim_at;       /* relocate a block when expected errors per codeword reach this
                                fraction of t (0: no read reclaim) */
    uint32_t reclaim_max;       /* at most this many blocks asked to move per period (0: no limit) */
    uint64_t reclaim_period_ns; /* the period of that limit */
    uint64_t patrol_ns;      /* one patrol read per this much idle time (0: none) */
};

struct ssdsim_model;
/* Whether the model turns bit errors on. */
bool ssdsim__rel_on(const struct ssdsim_model *m);
/* The cell type whose defaults apply (1..4). */
int ssdsim__rel_cell(const struct ssdsim_model *m);
/* Defaults of each key for the model's cell type (config/model.c derives them). */
void ssdsim__rel_defaults(struct ssdsim_model *m, const char *key);
/* Checks across keys: NULL, or the key at fault with the reason in msg. */
const char *ssdsim__rel_check(const struct ssdsim_model *m, char *msg, size_t len);

/* ---------------------------------------------------------------- state of one device */

struct ssdsim__hw;
struct ssdsim__flash_op;

/* Counters, cumulative (results take differences over a run). */
#define SSDSIM__REL_STEPS 35 /* reads by steps: 0 retries .. retry_max, soft, failed (<= 32 retries) */

/* Purposes of the flash reads rel submits itself (beside ssdsim_flash_purpose's). */
#define SSDSIM__FOR_REL_PATROL 0xF0u
#define SSDSIM__FOR_REL_RECON 0xF1u
struct ssdsim__rel_counts {
    uint64_t reads;                  /* flash reads decoded (with data to the controller) */
    double rber_sum;                 /* the RBER of each, summed */
    uint64_t retries;                /* read-retry steps, summed */
    uint64_t by_steps[SSDSIM__REL_STEPS]; /* [s]: s retries then success by hard decision;
                                        [retry_max + 1]: soft decoded; [retry_max + 2]: failed */
    uint64_t soft;                   /* soft decodes */
    uint64_t uncorrectable;          /* reads failing every step */
    uint64_t cw_read, cw_failed;     /* codewords decoded, and failed */
    uint64_t bits_read;              /* data bits of the codewords decoded */
    uint64_t reconstructed;          /* uncorrectable reads rebuilt from RAIN parity */
    uint64_t recon_reads;            /* the reads of the stripe's other members */
    uint64_t reclaim_asked, reclaimed; /* blocks read reclaim asked to move, and moved */
    uint64_t patrol_reads;
    uint64_t extra_ns;               /* die time of retries, soft decoding and decodes */
};

struct ssdsim__rel_blk {
    int64_t prog_ns;  /* first program since the erase (INT64_MAX: none) */
    uint32_t reads;   /* since the erase */
    uint32_t pe;      /* erase count the coefficients below are for (UINT32_MAX: none) */
    float v;          /* variation factor */
    bool asked;       /* reclaim asked since the erase */
    double c_wear, c_ret, c_rd; /* v (base + wear), v ret (1+k)^.., v rd (1+k)^.. */
};

struct ssdsim__rel_recon {
    uint32_t op;      /* the uncorrectable read, waiting */
    uint32_t left;    /* member reads in flight */
};

struct ssdsim__rel {
    const struct ssdsim__errmodel *p;
    struct ssdsim__hw *hw;
    const uint32_t *erase_count; /* the FTL environment's, per block */
    struct ssdsim__rel_blk *blk;
    uint64_t n_blocks;
    uint64_t rng[4];             /* struct ssdsim__rng (engine/rng.h) */
    uint32_t bits;               /* codeword bits */
    uint32_t cw_page;            /* codewords in a flash page (unit) */
    double p_clean, eps_clean;   /* fast path: p <= p_clean and w >= eps_clean: no retry */
    /* the failure probability of a whole unit's codewords (cw_page) at RBERs p_j spaced
     * evenly in log p, for hard (t) and soft (soft_t) decoding: between two entries a draw
     * above the upper one passes and one below the lower fails, exactly (ecc.c) */
    double *tab_hard, *tab_soft;
    uint32_t group;              /* RAIN parity group (0, 1: none) */
    /* reclaim: the FTL's hook (NULL: the FTL cannot move a given block) */
    int (*reclaim)(void *ftl_state, uint32_t block);
    void **ftl_state; /* where the FTL environment keeps the FTL's state */
    uint32_t unit_bytes;    /* bytes of a mapping unit: what a patrol read moves */
    bool patrol_inflight;
    /* reconstructions waiting (rare: grown on demand) */
    struct ssdsim__rel_recon *rc;
    uint32_t n_rc, cap_rc;
    /* patrol */
    const uint32_t *busy;   /* host commands inside the device (the FTL environment's) */
    uint64_t patrol_timer;  /* pending patrol event, or 0 */
    bool patrol_idle;       /* idle and patrolling */
    uint64_t patrol_next;   /* block the next patrol read visits */
    uint64_t rc_window;     /* read reclaim's rate limit: the period now, and the blocks */
    uint32_t rc_used;       /* asked to move in it */
    struct ssdsim__rel_counts n;
};

/* rber.c: build the state (hw->rel) for model m, or leave hw->rel NULL when errors are off.
 * 0 or SSDSIM_ENOMEM. */
int ssdsim__rel_new(struct ssdsim__hw *hw, const struct ssdsim_model *m, uint64_t seed,
                    uint32_t device_index);
void ssdsim__rel_free(struct ssdsim__rel *r);
/* The FTL environment's erase counts and busy counter (after it is built). */
void ssdsim__rel_attach(struct ssdsim__rel *r, const uint32_t *erase_count, const uint32_t *busy);
/* A page of `block` is programmed / the block is erased, at simulated time now. */
void ssdsim__rel_programmed(struct ssdsim__rel *r, uint32_t block, uint64_t now);
void ssdsim__rel_erased(struct ssdsim__rel *r, uint32_t block);
/* A secure erase: every block erased (no data, no reads since). */
void ssdsim__rel_reset(struct ssdsim__rel *r);
/* Age every written block's data by `ns` (the drive powered off that long). */
void ssdsim__rel_age(struct ssdsim__rel *r, uint64_t ns);
/* The RBER of a page of `block` at time now (counts nothing). */
double ssdsim__rel_rber(struct ssdsim__rel *r, uint32_t block, uint64_t now);
/* The formula with explicit inputs (tests, doc): v = 1. */
double ssdsim__rel_formula(const struct ssdsim__errmodel *p, double pe, double days, double reads);

/* relstats.c: add counts `b` to `a`. */
void ssdsim__rel_sum(struct ssdsim__rel_counts *a, const struct ssdsim__rel_counts *b);

/* relstats.c: the "reliability" object of the device results (a cJSON object), when on. */
struct ssdsim;
void ssdsim__rel_results_json(const struct ssdsim *sim, void *dev_json);

/* ecc.c: the array time of read op `op` whose plain array time is `tr` ns, with the retries and
 * soft decoding its codewords need; counts them, the block's read disturb, and may ask for the
 * block's reclaim or the read's reconstruction. */
uint64_t ssdsim__rel_read(struct ssdsim__rel *r, struct ssdsim__flash_op *op, uint32_t op_index,
                          uint64_t tr, uint64_t now);
/* P(X > k) for X ~ Binomial(n, p). */
double ssdsim__rel_binom_tail(uint32_t k, uint32_t n, double p);
/* The tables of struct ssdsim__rel (0 or SSDSIM_ENOMEM). */
int ssdsim__rel_tables(struct ssdsim__rel *r);
/* P(one of c codewords has more than k errors) at RBER p. */
double ssdsim__rel_fail_prob(uint32_t k, uint32_t n, double p, uint32_t c);

/* reclaim.c: op `i` completes on hw: true when rel took it (an internal read, or a read waiting
 * for its reconstruction). */
bool ssdsim__rel_complete(struct ssdsim__hw *hw, uint32_t i);
/* Mark read `op` uncorrectable: its completion waits for the reads of its stripe. */
void ssdsim__rel_want_recon(struct ssdsim__rel *r, uint32_t op);
/* Ask the FTL to move `block`. */
void ssdsim__rel_ask_reclaim(struct ssdsim__rel *r, uint32_t block, uint64_t now);
/* The FTL moved a block read reclaim asked for. */
void ssdsim__rel_reclaim_started(struct ssdsim__rel *r);
/* The device turns idle (no host command inside) or busy: patrol reads. */
void ssdsim__rel_idle(struct ssdsim__rel *r, bool idle);

#endif /* SSDSIM_REL_H */
