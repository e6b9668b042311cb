/* memest.h: the memory a model's simulation needs, estimated before anything is allocated,
 * and the refusal of a model that would need more than the machine has.
 *
 * The estimate counts the arrays whose size grows with the drive: per mapping unit (the page FTL's
 * l2p, and hot/cold's write clock or DFTL's cache index when on), per physical unit (p2l, its bit
 * saying the unit holds valid data, RAIN's stripe records when on), per translation page (DFTL) and
 * per block (the FTL's block table and the hardware model's). Everything else a simulation holds
 * (queues, pools, stats) does not grow with capacity and is a few megabytes; the estimate leaves it
 * out, so it is a lower bound. ssdsim_new compares it with the limit: SSDSIM_MEMORY_LIMIT when set
 * (a size, "16GiB"), else the machine's physical memory.
 *
 * The host's outstanding requests do not grow with the drive but with the workload (numjobs x
 * iodepth, up to 4096 x 65536 in fio): they have a fixed limit of their own, checked with every
 * workload before its run and with every spec figure when a model is read.
 */
#ifndef SSDSIM_MEMEST_H
#define SSDSIM_MEMEST_H

#include "config/model.h"
#include "ssdsim/ssdsim.h"

#include <stdint.h>

/* The most requests a workload's jobs may keep outstanding at once (the sum of numjobs x iodepth
 * over the jobs that run together). fio accepts up to 4096 x 65536; the host model holds every
 * outstanding request (about SSDSIM__REQUEST_BYTES each, however small the drive) and issues
 * them all at the start, so 1024 x 65535 took 13 GB and minutes before the first simulated
 * millisecond. 2^22 is 4096 jobs at depth 1024, or 64 at 65536: beyond any device's queues. */
#define SSDSIM__OUTSTANDING_MAX (UINT64_C(1) << 22)
/* Host memory per outstanding request: the request, its I/O record and its place in the device's
 * queues (the growth of the maximum resident size from 1 x 65535 to 16 x 65535 outstanding
 * writes on a small model, 203 bytes a request, rounded). */
#define SSDSIM__REQUEST_BYTES 200u

/* 0 when `total` outstanding requests (numjobs x iodepth of the largest job, `numjobs` and
 * `iodepth`, and others with it) are at most SSDSIM__OUTSTANDING_MAX; else 1 with one line in
 * `why` naming them and the memory they would take. */
int ssdsim__outstanding_check(uint64_t numjobs, uint64_t iodepth, uint64_t total, char *why,
                              size_t len);

/* Bytes of the capacity-sized arrays of one simulation of model `m` (an SSD, an HDD or a
 * system of them; a system counts every member). */
uint64_t ssdsim__model_memory(const struct ssdsim_model *m);

/* 0 when the estimate fits the limit; else SSDSIM_ENOMEM (or SSDSIM_EINVAL for a malformed
 * SSDSIM_MEMORY_LIMIT) with one line in `err` naming the bytes needed and the limit. */
int ssdsim__memory_check(const struct ssdsim_model *m, ssdsim_error *err);

#endif /* SSDSIM_MEMEST_H */
