/* watchdog.h: the progress watchdog of a run (watchdog.c). */
#ifndef SSDSIM_WATCHDOG_H
#define SSDSIM_WATCHDOG_H

#include "common.h"

struct ssdsim__sys;

/* Simulated time a run may go with requests outstanding and not one unit of host data moved
 * (no request completed, no host page read or written) before the watchdog stops it. No drive
 * or disk holds every outstanding command for an hour: Linux gives up on a command after 30 s
 * (nvme io_timeout, the SCSI disk timeout). */
#define SSDSIM__WATCHDOG_STALL_NS (3600ull * 1000000000ull)

/* GC and wear-leveling relocations (and mapping-page writes) without host progress, in drive
 * rewrites: relocating more than twice everything the flash holds without one host page written
 * means the relocations gain nothing (a victim's copies and the writes they cause take as much
 * room as the victim frees). A working drive frees a block by relocating less than a block. */
#define SSDSIM__WATCHDOG_RELOC_DRIVES 2

/* Engine events at one simulated instant, with requests outstanding and no progress, that mean
 * the model loops without time passing. */
#define SSDSIM__WATCHDOG_ZERO_TIME_EVENTS (1ull << 27)

struct ssdsim__watchdog {
    uint64_t completed;  /* host completions at the last progress */
    uint64_t host_units; /* host pages written and read at the last progress */
    uint64_t at_ns;      /* simulated time of the last progress */
    uint64_t events;     /* engine events executed at the last progress */
    uint64_t relocs;     /* relocations and mapping writes at the last progress */
    uint64_t erases;     /* blocks erased at the last progress */
    uint64_t free_blocks;/* free blocks at the last progress */
    uint64_t time_ns;    /* simulated time at the last check (for the zero-time rule) */
    uint64_t time_events;/* engine events when the clock last moved */
};

/* Start watching a run from now. */
void ssdsim__watchdog_start(struct ssdsim__watchdog *w, const struct ssdsim__sys *sys,
                            uint64_t completed, uint64_t now_ns, uint64_t events);

/* Called between batches of events while requests are outstanding (`inflight` of them): 0 while
 * the run progresses, else SSDSIM_ESTALL with the diagnosis in msg. */
int ssdsim__watchdog_check(struct ssdsim__watchdog *w, const struct ssdsim__sys *sys,
                           uint64_t completed, uint64_t inflight, uint64_t now_ns,
                           uint64_t events, char *msg, size_t len);

#endif /* SSDSIM_WATCHDOG_H */
