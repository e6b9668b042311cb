/* watchdog.c: the progress watchdog of a run. A model can reach a state in which requests are
 * outstanding and the simulation goes on forever without serving them: garbage collection whose
 * relocations (and the mapping writes they cause) take as much room as each victim frees, a
 * policy that keeps choosing blocks that free nothing, or events that reschedule each other
 * without the clock moving. Between batches of events the run asks the watchdog whether host
 * data still moves; when it has not for long enough by one of three rules (see watchdog.h), the
 * run stops with SSDSIM_ESTALL and a diagnosis that says which rule fired and what the device
 * was doing (relocations, erases, free blocks, outstanding requests) since the last progress.
 *
 * Progress is any host request completing or any host page written to or read from flash, so a
 * single huge request that takes long to serve is progress all along. The checks read counters
 * the devices keep anyway: nothing is added to the per-request path.
 */
#include "watchdog.h"

#include <stdio.h>

#include "array/array.h"

struct progress {
    uint64_t host_units, relocs, erases, free_blocks;
};

static struct progress read_progress(const struct ssdsim__sys *sys)
{
    struct ssdsim__env_counters c;
    ssdsim__sys_counters(sys, &c);
    struct progress p = {
        .host_units = c.c[SSDSIM_CNT_HOST_PAGES] + c.reads[SSDSIM_FOR_HOST],
        .relocs = c.c[SSDSIM_CNT_GC_COPIES] + c.c[SSDSIM_CNT_WL_COPIES] +
                  c.c[SSDSIM_CNT_MAP_WRITES],
        .erases = c.erases,
        .free_blocks = ssdsim__sys_free_blocks(sys),
    };
    return p;
}

static void mark(struct ssdsim__watchdog *w, const struct progress *p, uint64_t completed,
                 uint64_t now_ns, uint64_t events)
{
    w->completed = completed;
    w->host_units = p->host_units;
    w->relocs = p->relocs;
    w->erases = p->erases;
    w->free_blocks = p->free_blocks;
    w->at_ns = now_ns;
    w->events = events;
}

void ssdsim__watchdog_start(struct ssdsim__watchdog *w, const struct ssdsim__sys *sys,
                            uint64_t completed, uint64_t now_ns, uint64_t events)
{
    struct progress p = read_progress(sys);
    mark(w, &p, completed, now_ns, events);
    w->time_ns = now_ns;
    w->time_events = events;
}

int ssdsim__watchdog_check(struct ssdsim__watchdog *w, const struct ssdsim__sys *sys,
                           uint64_t completed, uint64_t inflight, uint64_t now_ns,
                           uint64_t events, char *msg, size_t len)
{
    if (now_ns != w->time_ns) {
        w->time_ns = now_ns;
        w->time_events = events;
    }
    struct progress p = read_progress(sys);
    if (inflight == 0 || completed != w->completed || p.host_units != w->host_units) {
        mark(w, &p, completed, now_ns, events);
        return 0;
    }
    uint64_t relocs = p.relocs - w->relocs, erases = p.erases - w->erases;
    uint64_t flash_pages = ssdsim__sys_flash_pages(sys);
    const char *rule = NULL;
    char what[200];
    if (flash_pages && relocs > SSDSIM__WATCHDOG_RELOC_DRIVES * flash_pages) {
        snprintf(what, sizeof what,
                 "garbage collection relocated %llu pages (%.1f times the flash) without "
                 "freeing room for one host write",
                 (unsigned long long)relocs, (double)relocs / (double)flash_pages);
        rule = what;
    } else if (now_ns - w->at_ns > SSDSIM__WATCHDOG_STALL_NS) {
        snprintf(what, sizeof what,
                 "no request completed and no host data moved for %.0f simulated seconds",
                 (double)(now_ns - w->at_ns) / 1e9);
        rule = what;
    } else if (events - w->time_events > SSDSIM__WATCHDOG_ZERO_TIME_EVENTS) {
        snprintf(what, sizeof what,
                 "%llu events ran at simulated time %.9f s without the clock moving",
                 (unsigned long long)(events - w->time_events), (double)now_ns / 1e9);
        rule = what;
    }
    if (!rule)
        return 0;
    snprintf(msg, len,
             "the simulation stopped making progress: %s (%llu requests outstanding since "
             "%.6f s; since then %llu relocations, %llu erases, free blocks %llu -> %llu)",
             rule, (unsigned long long)inflight, (double)w->at_ns / 1e9,
             (unsigned long long)relocs, (unsigned long long)erases,
             (unsigned long long)w->free_blocks, (unsigned long long)p.free_blocks);
    return SSDSIM_ESTALL;
}
