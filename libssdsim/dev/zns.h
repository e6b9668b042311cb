/* zns.h: the zones of a zoned-namespace drive as the host sees them (dev/zns.c): their states
 * and write pointers, the open and active limits, and the zone management commands. The zoned
 * FTL (ftl/zoned.c) maps them to flash; this part decides which requests the drive accepts.
 */
#ifndef SSDSIM_DEV_ZNS_H
#define SSDSIM_DEV_ZNS_H

#include "common.h"
#include "config/model.h"

/* Zone commands beyond read, write and trim, carried in an internal op code above its bits
 * (SSDSIM__IO_ZOP_SHIFT), below SSDSIM__IO_FUA. */
enum ssdsim__zop {
    SSDSIM__ZOP_NONE = 0,
    SSDSIM__ZOP_APPEND = 1,
    SSDSIM__ZOP_RESET = 2,
    SSDSIM__ZOP_FINISH = 3,
    SSDSIM__ZOP_OPEN = 4,
    SSDSIM__ZOP_CLOSE = 5,
};
#define SSDSIM__IO_ZOP_SHIFT 3
#define SSDSIM__IO_ZOP_MASK (7u << SSDSIM__IO_ZOP_SHIFT)

struct ssdsim__zone {
    uint64_t wp;     /* bytes written from the zone's start (the write pointer) */
    uint64_t high;   /* bytes programmed from its start (a finish moves wp, not this) */
    uint64_t opened; /* order of its last implicit open (the oldest is closed first) */
    uint8_t state;   /* SSDSIM_ZONE_* */
};

struct ssdsim__zns {
    uint64_t zone_size, capacity, n_zones, unit;
    uint32_t max_open, max_active, n_open, n_active;
    uint64_t open_seq;
    struct ssdsim__zone *z;
    ssdsim_zns_stats st; /* cumulative */
};

int ssdsim__zns_new(struct ssdsim__zns **out, const struct ssdsim_model *m);
void ssdsim__zns_free(struct ssdsim__zns *z);
/* Secure erase: every zone empty (the counters are kept). */
void ssdsim__zns_reset(struct ssdsim__zns *z);

/* A request (internal op `op` without FUA: SSDSIM__IO_READ / WRITE / TRIM, and `zop`) at the
 * host's side of the drive, in the order the drive receives them. Returns 1 when it goes to the
 * device as *op, *offset, *len (an append is a write at the write pointer; a reset the trim of
 * what the zone holds), 0 when it completes at once, with *status 0 (done: open, close, finish,
 * a reset of an empty zone) or the NVMe status of its failure (SSDSIM_ZS_*). */
int ssdsim__zns_apply(struct ssdsim__zns *z, uint8_t *op, uint8_t zop, uint64_t *offset,
                      uint32_t *len, uint16_t *status);

/* fio's zonemode=zbd for a write a job generated at *offset of *len bytes: it is moved to the
 * write pointer of its zone and cut at the zone's capacity. When the job may write no more
 * zones at once (max_open, or the drive's zns.max_open / max_active, the smallest that is set)
 * and its zone is neither open nor closed, it goes to one of those instead (the (zone mod
 * count)-th in zone order), as fio keeps writing the zones it has open. Returns 0, or 1 when
 * the zone is full: *offset is then the zone's start, to be reset before the write. */
int ssdsim__zns_zbd_write(const struct ssdsim__zns *z, uint32_t max_open, uint64_t *offset,
                          uint32_t *len);

/* One line on why a failed request (status) was refused, for messages. */
const char *ssdsim__zns_status_name(uint16_t status);

#endif /* SSDSIM_DEV_ZNS_H */
