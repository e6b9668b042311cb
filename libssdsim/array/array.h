/* array.h: the system under test: one device, or several (a JBOD, a RAID-0/1/5 array, the
 * devices of a multi-controller card), and the volumes the host addresses on them.
 *
 * The host hands each request to ssdsim__sys_submit with the volume it addresses. A single
 * device, a JBOD volume: one command to one device. RAID-0 splits a request at strip boundaries
 * and sends one command per device (the strips a request covers on one device are contiguous
 * there). RAID-1 writes every mirror and reads the least busy one. RAID-5 (left-symmetric
 * parity rotation, as Linux md's default) reads strips to the devices that hold them; a write
 * that covers whole stripe rows writes their data and parity; any other write is a
 * read-modify-write: it first reads the old data and the old parity of the part of each row it
 * touches, then writes the new data and the new parity. A request of a system model pays the
 * RAID layer's time before its first command; every command pays the platform path.
 *
 * When the last command of a request is done the host hears (ssdsim__sys_io_done_fn) with the
 * latency breakdown of the command that finished last.
 */
#ifndef SSDSIM_ARRAY_H
#define SSDSIM_ARRAY_H

#include "common.h"
#include "dev/dev.h"

/* Where the time of a request went (taken from its last command). */
struct ssdsim__breakdown {
    uint64_t admit_ns, ftl_ns, flash_done_ns, wait_ns;
};

typedef void (*ssdsim__sys_io_done_fn)(void *ctx, uint32_t io, const struct ssdsim__breakdown *b);

/* Per host request: what the array still waits for. */
struct ssdsim__sysio {
    uint64_t offset;
    uint32_t len;
    uint32_t volume;
    uint32_t pending; /* commands outstanding */
    uint8_t op;
    uint8_t phase;    /* RAID-5 read-modify-write: 0 reading old data and parity, 1 writing */
    struct ssdsim__breakdown last;
    uint64_t last_done_ns;
};

struct ssdsim__sys {
    const struct ssdsim_model *model;     /* as given: a device or a system */
    const struct ssdsim_model *dev_model; /* each device's */
    struct ssdsim__engine *engine;
    struct ssdsim__dev *devs;
    uint32_t n_devs;
    struct ssdsim__ctrl *ctrls;
    uint32_t n_ctrls;
    struct ssdsim__link uplink;
    bool have_uplink;
    struct ssdsim__cmdpool pool;
    struct ssdsim__sysio *ios; /* indexed by the host's request index */
    uint32_t n_ios;
    bool is_system;
    enum ssdsim__layout layout;
    uint32_t stripe;
    uint64_t raid_ns;
    uint32_t n_volumes;
    uint64_t volume_bytes;
    ssdsim__sys_io_done_fn io_done;
    void *io_ctx;
    int fail_code; /* out of memory inside the array */
    /* RAID-5 content tags (consistency checks only, ssdsim__sys_check_start): per device, a
     * 32-bit version per tag_unit bytes, new at each write of it; the parity device's tags are
     * updated as parity is (old ^ old data ^ new data, over the parity ranges the array
     * writes), so the tags of each row XOR to zero on every granule. NULL when not kept. */
    uint32_t **tags;
    uint32_t *tag_delta; /* per granule of a strip: old ^ new of the row being written */
    uint32_t tag_unit, tag_clock;
};

/* Build the devices of `model` (a device or a system model). */
int ssdsim__sys_init(struct ssdsim__sys *s, const struct ssdsim_model *model,
                     struct ssdsim__engine *e, uint64_t seed, ssdsim_error *err);
void ssdsim__sys_fini(struct ssdsim__sys *s);
/* Who hears about finished requests (the host). */
void ssdsim__sys_set_done(struct ssdsim__sys *s, ssdsim__sys_io_done_fn fn, void *ctx);

/* Host request `io` (the host's index) for `len` bytes at `offset` of volume `volume` enters
 * the system now. Returns 0 or SSDSIM_ENOMEM. */
int ssdsim__sys_submit(struct ssdsim__sys *s, uint32_t io, uint32_t volume, uint8_t op,
                       uint64_t offset, uint32_t len);
/* Prefetch hint for a request about to be issued. */
void ssdsim__sys_prefetch(struct ssdsim__sys *s, uint32_t volume, uint64_t offset);

/* The first failure of a device's FTL (its code, message in *msg), or of the array; 0 if none. */
int ssdsim__sys_failure(const struct ssdsim__sys *s, const char **msg);
/* Consistency check (ssdsim_check) of every device (dev/dev.h), naming the device in `why`
 * when there are several. 0 or SSDSIM_ESTATE. */
int ssdsim__sys_check(struct ssdsim__sys *s, char *why, size_t len);
/* Checks are enabled (ssdsim_set_check_period): keep RAID-5's content tags from now on, when
 * nothing was written yet (else parity cannot be followed and is not checked), the strip is a
 * multiple of 512 bytes and a member has at most 2^22 tag units (4 bytes each). */
void ssdsim__sys_check_start(struct ssdsim__sys *s);
/* Anything still moving inside a device. */
bool ssdsim__sys_busy(const struct ssdsim__sys *s);
/* After a secure erase: timelines to now. */
void ssdsim__sys_reset(struct ssdsim__sys *s, uint64_t now);

/* Figures over every solid-state device (hard disks count nothing). */
void ssdsim__sys_counters(const struct ssdsim__sys *s, struct ssdsim__env_counters *out);
uint32_t ssdsim__sys_ec_min(const struct ssdsim__sys *s);
uint32_t ssdsim__sys_ec_max(const struct ssdsim__sys *s);
double ssdsim__sys_erase_mean(const struct ssdsim__sys *s);
uint64_t ssdsim__sys_ec_blocks(const struct ssdsim__sys *s, uint32_t erase_count);
uint64_t ssdsim__sys_free_blocks(const struct ssdsim__sys *s);
uint64_t ssdsim__sys_blocks(const struct ssdsim__sys *s);
uint64_t ssdsim__sys_flash_bytes(const struct ssdsim__sys *s); /* physical, all SSDs */
uint64_t ssdsim__sys_flash_pages(const struct ssdsim__sys *s); /* physical pages, all SSDs */
uint64_t ssdsim__sys_device_bytes(const struct ssdsim__sys *s); /* logical, all devices */
/* Whether every device is preconditioned (ssdsim__dev_preconditioned); when not and `why` is
 * not NULL, the first one's reason, naming the device in a system. */
bool ssdsim__sys_preconditioned(const struct ssdsim__sys *s, char *why, size_t len);
/* Whether every device is a solid-state device with an FTL. */
bool ssdsim__sys_all_ssd(const struct ssdsim__sys *s);

/* RAID address mapping, exposed for tests: where byte `offset` of a striped volume lies.
 * RAID-0: device and device offset. RAID-5: the data device and offset, and the parity device
 * of that row. */
void ssdsim__raid0_map(uint32_t n, uint32_t stripe, uint64_t offset, uint32_t *dev,
                       uint64_t *dev_offset);
void ssdsim__raid5_map(uint32_t n, uint32_t stripe, uint64_t offset, uint32_t *dev,
                       uint64_t *dev_offset, uint32_t *parity_dev);

#endif /* SSDSIM_ARRAY_H */
