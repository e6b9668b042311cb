/* model_fdp.c: the Flexible Data Placement keys (fdp.*) checked against the rest of the model.
 * Placement handles are write frontiers of the page FTL (ftl/page_fdp.c): two handles take the
 * frontiers hot/cold separation would use, so the two cannot be on together; a write's handle
 * must reach the FTL with the write, which a write cache that acknowledges writes and flushes
 * them later, or an SLC cache that folds them later, would lose.
 */
#include "config/model_int.h"

#include <string.h>

int ssdsim__model_check_fdp(struct ctx *c)
{
    struct ssdsim_model *m = c->m;
    if (strcmp(m->ftl.type, "page") != 0)
        return ssdsim__model_error(c, "fdp.handles",
                                   "placement handles are write frontiers of the \"page\" FTL "
                                   "(ftl.type is \"%s\")",
                                   m->ftl.type);
    if (m->ftl.hot_cold)
        return ssdsim__model_error(c, "fdp.handles",
                                   "placement handles use the frontiers of hot/cold separation: "
                                   "turn ftl.hot_cold off");
    if (m->zns.zone_size)
        return ssdsim__model_error(c, "fdp.handles",
                                   "a zoned namespace (zns.zone_size) has no placement handles");
    if (m->buffer.size > 0 && (m->buffer.write_cache || m->buffer.plp))
        return ssdsim__model_error(c, "fdp.handles",
                                   "placement through a write buffer that acknowledges writes "
                                   "(buffer.write_cache, buffer.plp) is not modelled");
    if (ssdsim__slc_on(&m->slc))
        return ssdsim__model_error(c, "fdp.handles",
                                   "placement through an SLC cache (slc.*) is not modelled");
    return 0;
}
