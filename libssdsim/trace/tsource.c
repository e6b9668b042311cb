/* tsource.c: a trace reader as a request source. */
#include "trace/tsource.h"

#include <stdio.h>
#include <string.h>

#include "ssdsim/trace.h"

int ssdsim__trace_source_next(void *trace, ssdsim_request *req, char *msg, size_t msglen)
{
    ssdsim_trace_req tr;
    ssdsim_error err;
    memset(&err, 0, sizeof err);
    int rc = ssdsim_trace_next(trace, &tr, &err);
    if (rc < 0) {
        snprintf(msg, msglen, "%s", err.message[0] ? err.message : ssdsim_strerror(rc));
        return rc;
    }
    if (rc == 0)
        return 0;
    req->time_ns = tr.time_ns;
    req->op = tr.op;
    req->offset = tr.offset;
    req->length = tr.length;
    req->id = tr.line;
    return 1;
}

void ssdsim_trace_as_source(ssdsim_trace *t, ssdsim_source *out)
{
    if (!out)
        return; /* nowhere to write: nothing to do */
    if (!t) {
        /* a source with no next function, which ssdsim_run_source refuses */
        *out = (ssdsim_source){0};
        return;
    }
    out->next = ssdsim__trace_source_next;
    out->userdata = t;
}
