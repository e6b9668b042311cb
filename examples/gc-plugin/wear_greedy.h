/* wear_greedy.h: the "wear-greedy" GC policy's ops table (wear_greedy_policy.c). */
#ifndef WEAR_GREEDY_H
#define WEAR_GREEDY_H

#include <ssdsim/sys/gc.h>

extern const ssdsim_gc_ops wear_greedy_ops;

#endif
