/* onoff_source.h: the "onoff" request source's ops table (onoff_source.c). */
#ifndef ONOFF_SOURCE_H
#define ONOFF_SOURCE_H

#include <ssdsim/sys/plugin.h>

#define ONOFF_BURSTS 8      /* bursts without ARGS */
#define ONOFF_MAX_BURSTS 64 /* most bursts ARGS may ask for */

extern const ssdsim_source_ops onoff_source_ops;

#endif
