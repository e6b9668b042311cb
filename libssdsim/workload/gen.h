/* gen.h: the request stream of one synthetic job (closed loop: the host asks for the next
 * request when a slot frees up). Random offsets are independent uniform draws aligned to the
 * smallest block size (fio's norandommap behaviour); sequential jobs walk their region and wrap.
 */
#ifndef SSDSIM_GEN_H
#define SSDSIM_GEN_H

#include "common.h"
#include "engine/rng.h"
#include "workload/workload.h"

enum ssdsim__io_op { SSDSIM__IO_READ = 0, SSDSIM__IO_WRITE = 1, SSDSIM__IO_TRIM = 2 };

struct ssdsim__gen {
    struct ssdsim__rng rng;
    enum ssdsim__rw rw;
    uint32_t n_bs;
    uint32_t bs_bytes[SSDSIM__BSSPLIT_MAX];
    uint32_t bs_cum[SSDSIM__BSSPLIT_MAX]; /* cumulative percent */
    uint32_t rwmixread;
    uint32_t align;
    uint64_t region_start, region_len;
    uint64_t seq_pos[3]; /* next sequential offset per direction (read, write, trim) */
    uint64_t io_limit;   /* 0 = none */
    uint64_t byte_limit; /* 0 = none */
    uint64_t issued, bytes_issued;
    /* zoned random offsets: cumulative access percent, and each zone's [start, start + len) */
    uint32_t n_zones;
    uint32_t zone_cum[SSDSIM__ZONES_MAX];
    uint64_t zone_start[SSDSIM__ZONES_MAX], zone_len[SSDSIM__ZONES_MAX];
};

/* Set up job `job` of workload `wl` on a device of `logical_bytes` (the workload must have
 * passed ssdsim__workload_check for this size). */
void ssdsim__gen_init(struct ssdsim__gen *g, const struct ssdsim_workload *wl, uint32_t job,
                      uint64_t seed, uint64_t logical_bytes);

/* The next request, or false when the job has issued all it should. */
bool ssdsim__gen_next(struct ssdsim__gen *g, uint8_t *op, uint64_t *offset, uint32_t *len);

/* Requests the job will issue in all (for progress), 0 when it is bounded by time only. */
uint64_t ssdsim__gen_planned(const struct ssdsim__gen *g);

#endif /* SSDSIM_GEN_H */
