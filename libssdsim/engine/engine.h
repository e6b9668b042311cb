/* engine.h: the discrete-event core. Components schedule callbacks at simulated times (ns);
 * nothing sleeps and nothing reads the wall clock.
 *
 * Events run in (time, scheduling order): events at the same time run in the order they were
 * scheduled, which makes every run deterministic.
 *
 * In front of everything, a ring of 2,048 buckets of 2,048 ns each (4.2 ms: a device's delays,
 * 1 us to an erase's few ms) holds every pending event whose time falls in the buckets from the
 * current one (`cur`, that of the last event run) on; each bucket is a FIFO list of 40-byte
 * nodes from an index pool (ipool.h), and a bitmap with a summary word finds the first
 * non-empty bucket after cur with two count-trailing-zeros. Scheduling appends to the
 * bucket's list; popping takes the first event of least time from the first non-empty bucket
 * (most hold one event).
 * Later events go to the radix heap below; when cur moves on, those that the window now covers
 * move from it to the ring, earliest first (they were scheduled before any event of their time
 * that the ring took directly, so each bucket stays in scheduling order). When the ring would
 * hold more than SSDSIM__EV_RING_MAX events (bench_engine's 100,000 pending: buckets of
 * hundreds, each scanned), it empties into the radix heap and stays off until fewer than
 * SSDSIM__EV_RING_LO are pending. Measured (2026-12-07) against the radix heap alone, under
 * callgrind on generic-mlc at 128 blocks per plane: the timed 4 KiB random writes 3.82 against
 * 3.94 billion instructions, the random reads 0.965 against 1.026, the 70/30 mix 1.302 against
 * 1.341 (a pop ran the radix heap's refill, a bucket scan and moves, for every event);
 * bench_engine, which runs on the radix heap with the ring off (a call more per schedule),
 * 0.8 to 0.9 of its rate.
 *
 * The pending set behind the ring is a radix heap with 6-bit digits. A discrete-event clock never
 * goes backwards, so every pending time is >= the last popped time `last`. An event whose time
 * equals `last` sits in bucket 0 (FIFO); any other sits in the bucket named by the highest 6-bit
 * digit where its time differs from `last` (level) and its own value of that digit: all events of a
 * lower bucket are earlier than all events of a higher one. Popping takes from bucket 0; when it is
 * empty, the lowest non-empty bucket (a count-trailing-zeros over a 704-bit occupancy mask) is
 * scanned for its minimum, which becomes `last`, and its events move to lower levels. An event
 * moves at most once per level it falls through (a few times for the delays a device model
 * schedules), always by sequential copies of 32-byte records with the callback inline, so a pop
 * touches no random memory. Events with equal times always share a bucket and moves keep their
 * order, which is what makes ties FIFO. The argument is 32 bits so that an event is 32 bytes;
 * callers pass an index, never a pointer, in it. Buckets are growable arrays that keep their
 * capacity: once they have grown to the run's peak nothing is allocated.
 *
 * Tried and dropped, measured in tests/bench_sim against this: a 4-ary heap of (time, sequence)
 * keys (a device keeps about 30 events pending, so it is two or three levels deep): writes no
 * faster, reads 13% slower, and 4 times slower with bench_engine's 100,000 pending events; each
 * bucket's first event kept in the bucket itself
 * (64-byte buckets on their own cache lines, the rest in an array beside), so that an event
 * alone in its bucket shares the line of its count: no faster, in tests/bench_compare.sh's
 * alternated pairs 0.97 of this on generic-mlc's writes and 0.96 on the ioDrive2 device's;
 * 16-byte events (time, argument and a handler id; the callback and context interned once in a
 * hash table, cancellable events through a trampoline whose record holds the rest): bench_engine
 * 1.13 times faster, but bench_sim the same (6 alternated pairs: writes 1.03, reads 1.00, 70/30
 * 0.99, within noise), because what an event costs there is the store into a bucket's cold
 * tail line, which a smaller event does not make warm.
 *
 * Kept (2026-12-07): a summary word of the non-empty levels (`levels`), so that a refill finds
 * the lowest non-empty bucket with two count-trailing-zeros instead of a scan of the mask's
 * words, and scheduling inline with its growth path out of line (as a call it saved and
 * restored six registers for it): 3.4% fewer instructions in bench_sim's writes on a quarter-size
 * generic-mlc (4.31 against 4.46 billion), and in tests/bench_compare.sh's alternated pairs (3)
 * writes 1.04, reads 1.04, 70/30 1.06 of the commit before. An earlier try of the summary word
 * with scheduling inline (its growth path inline too) had run 2% fewer instructions, writes no
 * faster, reads 4% slower.
 *
 * Cancel is O(1) and lazy: only events scheduled with schedule_cancellable() get a record (with a
 * generation counter, so a stale handle cancels nothing); pop skips events whose record says
 * cancelled.
 */
#ifndef SSDSIM_ENGINE_H
#define SSDSIM_ENGINE_H

#include "common.h"
#include "ipool.h"

typedef void (*ssdsim__event_fn)(void *ctx, uint32_t arg);

/* Handle of a cancellable event: record index + 1 in the low 32 bits, the record's generation
 * in the high 32 bits. 0 is "no event". */
typedef uint64_t ssdsim__event_id;

struct ssdsim__event {
    uint64_t time;
    ssdsim__event_fn fn;
    void *ctx;
    uint32_t arg;
    uint32_t rec; /* cancel record + 1, or 0 */
}; /* 32 bytes: two per cache line */

struct ssdsim__ev_bucket {
    struct ssdsim__event *v;
    uint32_t n, cap, head; /* head: next to pop (bucket 0 only) */
};

/* Digit width: 6 bits (11 levels x 64 values) moves an event about half as often as 4 bits
 * did, for the delays a device schedules (1 us to a few ms: 10 to 22 bits), and ran writes
 * 5-7% faster in tests/bench_sim; 5, 7 and 8 bits measured no better. */
#define SSDSIM__EV_DIGIT 6
#define SSDSIM__EV_RADIX (1 << SSDSIM__EV_DIGIT)
#define SSDSIM__EV_LEVELS ((64 + SSDSIM__EV_DIGIT - 1) / SSDSIM__EV_DIGIT)
/* bucket 0, then levels x digit values */
#define SSDSIM__EV_BUCKETS (1 + SSDSIM__EV_LEVELS * SSDSIM__EV_RADIX)
#define SSDSIM__EV_MASKW ((SSDSIM__EV_BUCKETS - 1 + 63) / 64)

/* The ring in front of the radix heap: events within SSDSIM__EV_RING_N buckets of
 * 2^SSDSIM__EV_RING_SHIFT ns from the current one, each bucket a FIFO list of nodes. */
#define SSDSIM__EV_RING_SHIFT 11
#define SSDSIM__EV_RING_N 2048
#define SSDSIM__EV_RING_W (SSDSIM__EV_RING_N / 64)
/* Events the ring holds at most: past it, the ring's events go to the radix heap and every
 * event goes there until fewer than SSDSIM__EV_RING_LO are pending (a ring bucket is a list
 * scanned for its minimum, which only pays while buckets hold one or two events). */
#define SSDSIM__EV_RING_MAX 8192
#define SSDSIM__EV_RING_LO 2048
#define SSDSIM__EV_NONE UINT32_MAX

struct ssdsim__ev_node {
    uint64_t time;
    ssdsim__event_fn fn;
    void *ctx;
    uint32_t arg;
    uint32_t rec;
    uint32_t next; /* the next of its bucket, or the pool's next free node */
};

struct ssdsim__ev_rec {
    uint32_t gen;
    uint32_t next_free;
    bool cancelled;
};

struct ssdsim__engine {
    uint64_t now;
    uint64_t last; /* radix heap reference: every pending time >= last */
    struct ssdsim__ev_bucket b[SSDSIM__EV_BUCKETS];
    uint64_t mask[SSDSIM__EV_MASKW]; /* bit i set when bucket i + 1 holds events: word L is
                                        level L, bit v its digit value v */
    uint32_t levels; /* bit L set when mask[L] is not 0 (the refill's scan starts there) */
    uint32_t n_live;    /* scheduled, not yet run, not cancelled */
    struct ssdsim__ev_rec *recs; /* slots of the index pool rec_pool (ipool.h) */
    struct ssdsim__ipool rec_pool;
    bool stopped;
    bool running;        /* events are being run: a callback of one is on the stack */
    bool oom;            /* a schedule failed for lack of memory: the run must stop */
    uint64_t n_executed; /* events executed since init */
    /* The ring (see the top): bucket cur (time >> SSDSIM__EV_RING_SHIFT, at most now's) to
     * cur + ring_n - 1 hold every pending event of their times, the radix heap the later ones;
     * ring_n is 0 while the ring is off. */
    uint64_t cur;
    uint32_t ring_n;
    struct ssdsim__ipool node_pool; /* the free nodes (ipool.h, linked through `next`) */
    struct ssdsim__ev_node *nodes;
    uint64_t rnext; /* no event of the radix heap is earlier (UINT64_MAX: it is empty) */
    uint64_t occ_sum; /* bit w set when occ[w] is not 0 */
    uint64_t occ[SSDSIM__EV_RING_W]; /* bit s set when bucket s is not empty */
    uint32_t rhead[SSDSIM__EV_RING_N], rtail[SSDSIM__EV_RING_N];
};

int ssdsim__engine_init(struct ssdsim__engine *e, uint32_t initial_capacity);
void ssdsim__engine_fini(struct ssdsim__engine *e);

static inline uint64_t ssdsim__engine_now(const struct ssdsim__engine *e)
{
    return e->now;
}

/* The out-of-line part of ssdsim__engine_schedule: an event for the radix heap (past the
 * ring's window, or the ring off; a full bucket grows), or the ring out of free nodes (they
 * grow, or the ring turns off when full). */
int ssdsim__engine_schedule_slow(struct ssdsim__engine *e, uint64_t time, ssdsim__event_fn fn,
                                 void *ctx, uint32_t arg);

static_assert(SSDSIM__EV_RADIX == 64 && SSDSIM__EV_LEVELS <= 32,
              "a level is one word of the mask and one bit of `levels`");
static_assert(SSDSIM__EV_RING_W <= 64, "a word of the ring's bitmap is one bit of occ_sum");

/* Append node n, taken from the pool and filled in, to the end of ring bucket b. */
static inline void ssdsim__engine_ring_link(struct ssdsim__engine *e, uint32_t n, uint32_t b)
{
    if (e->rhead[b] == SSDSIM__EV_NONE) {
        e->rhead[b] = n;
        e->occ[b >> 6] |= 1ULL << (b & 63);
        e->occ_sum |= 1ULL << (b >> 6);
    } else {
        e->nodes[e->rtail[b]].next = n;
    }
    e->rtail[b] = n;
}

/* Schedule fn(ctx, arg) at absolute time `time` (>= now). Returns 0, or SSDSIM_ENOMEM (the
 * engine's oom flag is then set and run() returns SSDSIM_ENOMEM). Inline: it runs for every
 * event; an event within the ring's window (a device's delays, 1 us to a few ms) is appended
 * to its bucket's list here. */
static inline int ssdsim__engine_schedule(struct ssdsim__engine *e, uint64_t time,
                                          ssdsim__event_fn fn, void *ctx, uint32_t arg)
{
    assert(time >= e->now && "an event cannot be scheduled in the past");
    uint64_t idx = time >> SSDSIM__EV_RING_SHIFT;
    if (SSDSIM__UNLIKELY(idx - e->cur >= e->ring_n)) /* past the window, or the ring off */
        return ssdsim__engine_schedule_slow(e, time, fn, ctx, arg);
    if (SSDSIM__UNLIKELY(ssdsim__ipool_empty(&e->node_pool)))
        return ssdsim__engine_schedule_slow(e, time, fn, ctx, arg);
    uint32_t n = ssdsim__ipool_take(&e->node_pool, e->nodes, sizeof *e->nodes,
                                    offsetof(struct ssdsim__ev_node, next));
    struct ssdsim__ev_node *nd = &e->nodes[n];
    nd->time = time;
    nd->fn = fn;
    nd->ctx = ctx;
    nd->arg = arg;
    nd->rec = 0;
    nd->next = SSDSIM__EV_NONE;
    ssdsim__engine_ring_link(e, n, (uint32_t)idx & (SSDSIM__EV_RING_N - 1));
    e->n_live++;
    return 0;
}

/* The same, for an event that may be cancelled: returns its handle, or 0 when out of memory. */
ssdsim__event_id ssdsim__engine_schedule_cancellable(struct ssdsim__engine *e, uint64_t time,
                                                     ssdsim__event_fn fn, void *ctx,
                                                     uint32_t arg);

/* Cancel a pending event; a handle of an event that already ran (or 0) is ignored. */
void ssdsim__engine_cancel(struct ssdsim__engine *e, ssdsim__event_id id);

/* Run events in order until none is left, stop() is called, or `max_events` have run
 * (0 = no limit). Returns 0, or SSDSIM_ENOMEM. */
int ssdsim__engine_run(struct ssdsim__engine *e, uint64_t max_events);

/* Run every event with time <= t, then set the clock to t (unless stopped earlier). */
int ssdsim__engine_run_until(struct ssdsim__engine *e, uint64_t t);

/* Make the current run() return after the event that is running. */
static inline void ssdsim__engine_stop(struct ssdsim__engine *e)
{
    e->stopped = true;
}

/* Events scheduled and neither run nor cancelled. */
static inline uint32_t ssdsim__engine_pending(const struct ssdsim__engine *e)
{
    return e->n_live;
}

#endif /* SSDSIM_ENGINE_H */
