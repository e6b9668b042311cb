/* bigmem.h: memory for the large flat arrays a device indexes at random on every I/O (the
 * mapping tables, l2p and p2l), on transparent huge pages where the system offers them.
 *
 * A random access to an array of tens of megabytes misses the TLB on nearly every lookup with
 * 4 KiB pages; with 2 MiB pages the TLB covers the whole array. An allocation of at least
 * 2 MiB is aligned to 2 MiB and advised (Linux madvise MADV_HUGEPAGE, which is what
 * transparent_hugepage=madvise systems ask for); smaller ones, or systems without the advice,
 * get plain malloc. Nothing simulated depends on it: only the speed of the simulator.
 */
#ifndef SSDSIM_BIGMEM_H
#define SSDSIM_BIGMEM_H

#include <stddef.h>

/* `bytes` of uninitialised memory, released with free(); NULL when out of memory. */
void *ssdsim__big_alloc(size_t bytes);

#endif /* SSDSIM_BIGMEM_H */
