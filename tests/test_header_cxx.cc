/* test_header_cxx.cc: every public header (the umbrella header, the trace header and the plugin
 * headers of ssdsim/sys/) compiles as C++11, with -pedantic -Wall -Wextra -Werror, and the
 * declarations link from C++ (the extern "C" guards are right). It includes nothing else, so a
 * header that leans on glib, cJSON, a C-only construct or a missing standard header fails here.
 * Running it checks that the library answers through those declarations. test_header.c does the
 * same as strict C99. */
#include <ssdsim/point.h>
#include <ssdsim/ssdsim.h>
#include <ssdsim/sys/ftl.h>
#include <ssdsim/sys/gc.h>
#include <ssdsim/sys/plugin.h>
#include <ssdsim/sys/wl.h>
#include <ssdsim/measure.h>
#include <ssdsim/theory.h>
#include <ssdsim/trace.h>
#include <ssdsim/suite.h>
#include <ssdsim/validate.h>

int main()
{
    const char *version = ssdsim_version();
    if (!version || !version[0])
        return 1;
    for (int code = 0; code > -SSDSIM_N_ERRORS; code--)
        if (!ssdsim_strerror(code) || !ssdsim_errname(code))
            return 1;
    uint64_t ns = 0;
    if (ssdsim_parse_time_ns("50us", &ns) != SSDSIM_EOK || ns != 50000)
        return 1;
    /* Every kind has built-in plugins, and each describes itself. */
    const ssdsim_plugin_kind kinds[] = {SSDSIM_PLUGIN_FTL, SSDSIM_PLUGIN_GC, SSDSIM_PLUGIN_WL};
    for (ssdsim_plugin_kind kind : kinds) {
        if (ssdsim_plugin_count(kind) == 0)
            return 1;
        const char *name = 0;
        if (ssdsim_plugin_describe(kind, 0, &name, 0, 0) != 0 || !name)
            return 1;
    }
    ssdsim_trace_format format = SSDSIM_TRACE_AUTO;
    if (ssdsim_trace_format_parse("csv", &format) != 0 || format != SSDSIM_TRACE_CSV)
        return 1;
    ssdsim_trace_close(0);
    ssdsim_point_opts point;
    uint64_t seed = 1;
    if (ssdsim_point_opts_init(&point, 0) != 0 || ssdsim_point_get_seed(&point, &seed) != 0 ||
        seed != 0)
        return 1;
    double waf = 0;
    if (ssdsim_theory_waf("greedy", 64, 0.2, 0, &waf) != 0 || !(waf > 1.0))
        return 1;
    /* The ops tables are usable types in C++ too. */
    return sizeof(ssdsim_ftl_ops) && sizeof(ssdsim_gc_ops) && sizeof(ssdsim_wl_ops) ? 0 : 1;
}
