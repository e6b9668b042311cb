/* workload.h: synthetic closed-loop workloads described with fio's option names and values.
 *
 * fioopt.c parses fio option values ("4k", "512/10:4k/60:64k/30", "50%", "10m") and applies one
 * option to a workload; the JSON workload loader (workload.c) and, later, the fio job-file reader
 * share it. gen.c turns a workload into a stream of requests for one job.
 */
#ifndef SSDSIM_WORKLOAD_H
#define SSDSIM_WORKLOAD_H

#include "common.h"

enum ssdsim__rw {
    SSDSIM__RW_READ,      /* sequential read */
    SSDSIM__RW_WRITE,     /* sequential write */
    SSDSIM__RW_RANDREAD,
    SSDSIM__RW_RANDWRITE,
    SSDSIM__RW_RANDRW,    /* random mixed, rwmixread % reads */
    SSDSIM__RW_RW,        /* sequential mixed ("rw" or "readwrite") */
    SSDSIM__RW_TRIM,      /* sequential trim */
    SSDSIM__RW_RANDTRIM,
};

#define SSDSIM__BSSPLIT_MAX 64
#define SSDSIM__ZONES_MAX 64

struct ssdsim__bs_entry {
    uint32_t bytes;
    uint32_t percent; /* 0..100; entries sum to 100 */
};

struct ssdsim_workload {
    char *label;
    enum ssdsim__rw rw;
    uint32_t n_bs; /* >= 1: from bs (one entry, 100%) or bssplit */
    struct ssdsim__bs_entry bs[SSDSIM__BSSPLIT_MAX];
    uint32_t rwmixread; /* percent of reads in mixed workloads (default 50) */
    uint32_t iodepth;   /* outstanding I/Os per job (default 1) */
    uint32_t numjobs;   /* default 1 */
    /* Region each job works on: [offset, offset + size) of the device. A percentage is resolved
     * against the device's logical capacity when the run starts. size 0 = to the end. */
    uint64_t size_bytes;
    double size_percent; /* > 0 when size was given as a percentage */
    uint64_t offset_bytes;
    double offset_percent; /* > 0 when offset was given as a percentage */
    uint64_t number_ios; /* per job; 0 = not set */
    uint64_t runtime_ns; /* simulated; 0 = not set */
    uint64_t randseed;
    bool has_randseed;
    /* random_distribution: uniform, or zoned (fio's "zoned:60/10:30/20:..."): zone i takes
     * zone_access[i] percent of the random offsets, spread uniformly over the next
     * zone_range[i] percent of the region. */
    uint32_t n_zones; /* 0 = uniform */
    uint32_t zone_access[SSDSIM__ZONES_MAX];
    uint32_t zone_range[SSDSIM__ZONES_MAX];
};

/* Initialise a workload with fio's defaults (rw=read, bs=4k, iodepth=1, numjobs=1,
 * rwmixread=50). */
void ssdsim__workload_defaults(struct ssdsim_workload *wl);

/* Apply one fio option ("bs", "4k") to `wl`. On failure writes a one-line reason (without file
 * or key) into errbuf and returns SSDSIM_ECONFIG; SSDSIM_ENOTFOUND if the option is unknown. */
int ssdsim__workload_apply(struct ssdsim_workload *wl, const char *key, const char *value,
                           char *errbuf, size_t errlen);

/* fio value syntax, shared with the job-file reader. Each returns 0, or SSDSIM_ECONFIG with a
 * reason in errbuf. */
int ssdsim__fio_parse_size(const char *s, uint64_t *out, char *errbuf, size_t errlen);
int ssdsim__fio_parse_time_ns(const char *s, uint64_t default_unit_ns, uint64_t *out,
                              char *errbuf, size_t errlen);
int ssdsim__fio_parse_bssplit(const char *s, struct ssdsim__bs_entry *out, uint32_t *n_out,
                              char *errbuf, size_t errlen);

/* The region [*offset, *offset + *size) a job of `wl` works on, on a device of `logical_bytes`
 * (percentages resolved, rounded down to 512 bytes; size 0 means "to the end"). */
void ssdsim__workload_region(const struct ssdsim_workload *wl, uint64_t logical_bytes,
                             uint64_t *offset, uint64_t *size);

/* Check that a workload fits a device of `logical_bytes` with mapping unit `unit_bytes`
 * (region inside the device, sizes multiples of 512, ...). Returns 0 or SSDSIM_ECONFIG with a
 * reason in errbuf. */
int ssdsim__workload_check(const struct ssdsim_workload *wl, uint64_t logical_bytes,
                           char *errbuf, size_t errlen);

#endif /* SSDSIM_WORKLOAD_H */
