/* tsource.h: a trace reader as a request source (ssdsim_source), for trace replay and fio's
 * read_iolog. */
#ifndef SSDSIM_TRACE_TSOURCE_H
#define SSDSIM_TRACE_TSOURCE_H

#include "common.h"

/* ssdsim_source.next over an ssdsim_trace (userdata): request ids are trace line numbers. */
int ssdsim__trace_source_next(void *trace, ssdsim_request *req, char *msg, size_t msglen);

#endif /* SSDSIM_TRACE_TSOURCE_H */
