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
 */
#ifndef SSDSIM_MEMEST_H
#define SSDSIM_MEMEST_H

#include "config/model.h"
#include "ssdsim/ssdsim.h"

#include <stdint.h>

/* Bytes of the capacity-sized arrays of one simulation of model `m` (an SSD, an HDD or a
 * system of them; a system counts every member). */
uint64_t ssdsim__model_memory(const struct ssdsim_model *m);

/* 0 when the estimate fits the limit; else SSDSIM_ENOMEM (or SSDSIM_EINVAL for a malformed
 * SSDSIM_MEMORY_LIMIT) with one line in `err` naming the bytes needed and the limit. */
int ssdsim__memory_check(const struct ssdsim_model *m, ssdsim_error *err);

#endif /* SSDSIM_MEMEST_H */
