/* gen.h: the request stream of one synthetic job clone (the host asks for the next request when
 * the job may issue one).
 *
 * Directions follow rw and rwmixread; block sizes come from the direction's bs, bssplit or
 * bsrange. Sequential jobs walk their region (each direction on its own, with the rw=...:N gap)
 * and wrap. Random offsets are aligned to the smallest block size and drawn from the
 * random_distribution; uniform ones, unless norandommap, follow a random permutation of the
 * region's blocks (every block once per pass, as fio's random map does), held in O(1) memory (a
 * keyed Feistel network). Non-uniform ranks (zipf, pareto, normal) are scattered over the region
 * by a fixed permutation, so the hot blocks are spread as in fio. percentage_random and
 * rw=rand...:N mix sequential runs into random patterns.
 */
#ifndef SSDSIM_GEN_H
#define SSDSIM_GEN_H

#include "common.h"
#include "engine/rng.h"
#include "workload/workload.h"

/* Internal ops. FLUSH (no data) is not a statistics direction: arrays indexed by op hold 3.
 * SSDSIM__IO_FUA is a flag or-ed into a write's op where it crosses into the system
 * (ssdsim__sys_submit), which keeps it per command (ssdsim__cmd.fua). */
enum ssdsim__io_op {
    SSDSIM__IO_READ = 0,
    SSDSIM__IO_WRITE = 1,
    SSDSIM__IO_TRIM = 2,
    SSDSIM__IO_FLUSH = 3
};
#define SSDSIM__IO_FUA 0x80u

/* The public op of an internal one (SSDSIM__IO_FLUSH is SSDSIM_OP_FLUSH). */
static inline enum ssdsim_op ssdsim__io_public_op(uint8_t op)
{
    return op == SSDSIM__IO_FLUSH ? SSDSIM_OP_FLUSH : (enum ssdsim_op)op;
}

/* A bijection of [0, n) (n >= 1): a balanced Feistel network over the smallest even number of
 * bits covering n, with cycle walking. */
struct ssdsim__perm {
    uint64_t n;
    uint32_t half_bits;
    uint64_t half_mask;
    uint64_t key[4];
};
void ssdsim__perm_init(struct ssdsim__perm *p, uint64_t n, struct ssdsim__rng *rng);
uint64_t ssdsim__perm_apply(const struct ssdsim__perm *p, uint64_t x);

struct ssdsim__gen {
    struct ssdsim__rng rng;
    /* fio's rate_ddir: in a read/write mix with a rate per direction, a drawn direction that
     * must wait for its rate while the other may go now gives way to it (both waiting: the one
     * that may go first). The host points rate_next at its job's next allowed times per
     * direction and sets rate_now before each draw; NULL: no switching. */
    const uint64_t *rate_next;
    uint64_t rate_now;
    enum ssdsim__rw rw;
    bool random; /* a random pattern */
    uint64_t rw_suffix;
    uint32_t rwmixread;
    uint32_t pct_random[SSDSIM__N_DIRS];
    /* block sizes per direction: entries with cumulative percent, or a range */
    uint32_t n_bs[SSDSIM__N_DIRS];
    uint32_t bs_bytes[SSDSIM__N_DIRS][SSDSIM__BSSPLIT_MAX];
    uint32_t bs_cum[SSDSIM__N_DIRS][SSDSIM__BSSPLIT_MAX];
    uint32_t range_min[SSDSIM__N_DIRS], range_max[SSDSIM__N_DIRS];
    uint32_t align; /* random offsets: multiples of the smallest block size in use (or ba) */
    uint64_t region_start, region_len;
    uint64_t seq_pos[SSDSIM__N_DIRS];  /* sequential: next offset per direction */
    /* fio's zoneskip with zonemode=zbd (set by the host after ssdsim__gen_init; 0 = none): a
     * sequential job moves on to zone_base + zone_size + zone_skip once it has moved zone_size
     * bytes or reached the end of the zone at zone_base (offsets in the region) */
    uint64_t zone_size, zone_skip, zone_base, zone_bytes;
    /* zonemode=zbd on zones whose capacity is below their size (set by the host; 0 = none): a
     * sequential job that reaches a zone's capacity jumps to the zone's end, as fio's zbd.c
     * does ("Jump from zone capacity limit to zone end"), instead of writing into the zone's
     * unwritable rest (which sent the writes to the full zone and reset it) */
    uint64_t zone_cap;
    uint64_t run_pos[SSDSIM__N_DIRS];  /* random patterns: end of the last I/O (sequential runs) */
    uint64_t run_left[SSDSIM__N_DIRS]; /* rw=rand...:N: I/Os left at consecutive offsets */
    /* stop: number_ios, or bytes (io_size, loops x region); 0 = none (time-based) */
    uint64_t io_limit;
    uint64_t byte_limit;
    uint64_t issued, bytes_issued;
    /* random offsets */
    enum ssdsim__dist dist;
    uint64_t n_slots; /* region_len / align */
    bool randommap;
    struct ssdsim__perm perm; /* randommap pass order, or the scatter of non-uniform ranks */
    uint64_t perm_pos;        /* randommap: position in the current pass */
    /* zipf (rejection-inversion), pareto, normal */
    double zipf_s, zipf_hx1, zipf_hn, zipf_sval;
    double pareto_pow;
    double normal_dev; /* standard deviation in slots */
    /* zoned: cumulative access percent and each zone's [start, start + len) */
    uint32_t n_zones;
    uint32_t zone_cum[SSDSIM__ZONES_MAX];
    uint64_t zone_start[SSDSIM__ZONES_MAX], zone_len[SSDSIM__ZONES_MAX];
    /* uniform random requests of one direction and one block size (no randommap, runs or
     * sequential share): ssdsim__gen_next's short path, which draws what the long one draws */
    bool uniform;
    uint8_t uniform_dir;
    uint32_t uniform_bs;
    /* what ssdsim__gen_ahead_next can foresee: 0 nothing, 1 the uniform short path, 2 a uniform
     * read/write mix (rw=randrw, one block size per direction, every request at a random
     * offset, no randommap: a draw for the direction, then one for the offset) */
    uint8_t ahead_kind;
};

/* The seeds of job `s` (its index in the workload) in a run: its streams take `run_seed` (the
 * simulation's seed and the run's number, so that each run draws anew), the scatter of its
 * skewed distributions takes the simulation's seed `sim_seed` (ssdsim__gen_init). */
#define SSDSIM__GEN_JOB_SEED(run_seed, s) ((run_seed) ^ (0x9e3779b97f4a7c15ULL * (uint64_t)(s)))

/* Set up clone `clone` of job `spec` on a device of `logical_bytes` (the workload must have
 * passed ssdsim__workload_check for this size). Its random streams are seeded from `seed`; the
 * addresses its zipf, pareto and normal ranks fall on (which blocks are hot) from `scatter_seed`,
 * which callers derive from the simulation's seed and the job, never the run: a hot set is the
 * workload's, as in fio, whose default (randrepeat) seeds it from the file and the job's thread
 * number in every invocation, so that a drive preconditioned with a skewed job is measured with
 * the same hot blocks, and fast-forward's rounds and a timed run's windows write the same ones.
 * `randseed` seeds both. */
void ssdsim__gen_init(struct ssdsim__gen *g, const struct ssdsim__jobspec *spec, uint32_t clone,
                      uint64_t seed, uint64_t scatter_seed, uint64_t logical_bytes);

/* The next request, or false when the job has issued all it should (ssdsim__gen_next's long
 * path, for any generator). */
bool ssdsim__gen_next_any(struct ssdsim__gen *g, uint8_t *op, uint64_t *offset, uint32_t *len);

/* The offset in the region of random slot `slot` for a request of `bs` bytes: a request that
 * would run past the region's end starts at its last aligned offset that fits. */
static inline uint64_t ssdsim__gen_slot_offset(const struct ssdsim__gen *g, uint64_t slot,
                                               uint32_t bs)
{
    uint64_t off = slot * g->align;
    if (off + bs > g->region_len)
        off = (g->region_len - bs) / g->align * g->align;
    return off;
}

/* The next request, or false when the job has issued all it should: the short path of uniform
 * random requests (g->uniform) inline, the steps and the draw ssdsim__gen_next_any takes for
 * them, and ssdsim__gen_next_any for the others. */
static inline bool ssdsim__gen_next(struct ssdsim__gen *g, uint8_t *op, uint64_t *offset,
                                    uint32_t *len)
{
    if (!g->uniform || g->byte_limit || (g->io_limit && g->issued >= g->io_limit))
        return ssdsim__gen_next_any(g, op, offset, len);
    uint32_t bs = g->uniform_bs;
    uint64_t off = ssdsim__gen_slot_offset(g, ssdsim__rng_below(&g->rng, g->n_slots), bs);
    *op = g->uniform_dir;
    g->run_pos[g->uniform_dir] = off + bs;
    *offset = g->region_start + off;
    *len = bs;
    g->issued++;
    g->bytes_issued += bs;
    return true;
}

/* Hints of requests to come (host.c): a copy of a job's random stream run `n` requests ahead
 * of it draws, request by request, what the job will draw n requests later, so that the device
 * loads their mapping entries long before they arrive (a prefetch issued with the request came
 * too late: the request reaches the FTL a few hundred nanoseconds of CPU later, less than a miss
 * takes). Only hints: when something else draws from the job's stream (rate_process=poisson, a
 * placement list), the copy falls out of step and its hints are wrong, which costs time, not
 * results. */
struct ssdsim__gen_ahead {
    struct ssdsim__rng rng;
    bool on;
};

/* Start `a` n requests ahead of g (off when g's requests cannot be foreseen). */
void ssdsim__gen_ahead_init(const struct ssdsim__gen *g, struct ssdsim__gen_ahead *a, uint32_t n);

/* The direction and offset of the request n ahead (as the generator would draw them; `a` must
 * be on). */
static inline void ssdsim__gen_ahead_next(const struct ssdsim__gen *g, struct ssdsim__gen_ahead *a,
                                          uint8_t *op, uint64_t *offset)
{
    uint8_t d = g->uniform_dir;
    uint32_t bs = g->uniform_bs;
    if (g->ahead_kind == 2) {
        d = ssdsim__rng_below(&a->rng, 100) < g->rwmixread ? SSDSIM__DIR_READ : SSDSIM__DIR_WRITE;
        bs = g->bs_bytes[d][0];
    }
    uint64_t slot = ssdsim__rng_below(&a->rng, g->n_slots);
    *op = d;
    *offset = g->region_start + ssdsim__gen_slot_offset(g, slot, bs);
}

/* Requests the job will issue in all (for progress), 0 when it is bounded by time only. */
uint64_t ssdsim__gen_planned(const struct ssdsim__gen *g);

#endif /* SSDSIM_GEN_H */
