/* test_header.c: the public headers (the umbrella header, the trace and point headers, the plugin
 * headers of ssdsim/sys/) compile as strict C99 with every warning an error. Built with
 * -std=c99 -pedantic -Wall -Wextra -Werror; it includes nothing else, so a header that leans on
 * glib, cJSON, C11 features or a missing standard header fails here. Running it also checks that
 * the library links and answers. test_header_cxx.cc does the same as C++11. */
#include "ssdsim/point.h"
#include "ssdsim/ssdsim.h"
#include "ssdsim/sys/ftl.h"
#include "ssdsim/sys/gc.h"
#include "ssdsim/sys/plugin.h"
#include "ssdsim/sys/wl.h"
#include "ssdsim/measure.h"
#include "ssdsim/theory.h"
#include "ssdsim/trace.h"
#include "ssdsim/suite.h"
#include "ssdsim/validate.h"

static int count_errors(void)
{
    int n = 0;
    int code;
    for (code = 0; code > -SSDSIM_N_ERRORS; code--)
        n += ssdsim_strerror(code) != 0 && ssdsim_errname(code) != 0;
    return n;
}

int main(void)
{
    const char *version = ssdsim_version();
    ssdsim_error err = {0, {0}, {0}, 0, 0, {0}};
    ssdsim_run_opts opts = SSDSIM_RUN_OPTS_INIT;
    ssdsim_op_stats op_stats;
    ssdsim_device_stats device_stats;
    ssdsim_interval interval;
    ssdsim_model *model = 0;
    ssdsim_workload *workload = 0;
    ssdsim *sim = 0;
    ssdsim_progress_fn progress = 0;
    enum ssdsim_op op = SSDSIM_OP_ALL;
    enum ssdsim_errcode code = SSDSIM_EOK;
    uint64_t ns = 0;
    size_t size = sizeof op_stats + sizeof device_stats + sizeof interval;

    (void)err;
    (void)opts;
    (void)model;
    (void)workload;
    (void)sim;
    (void)progress;
    (void)op;
    (void)size;
    if (!version || !version[0])
        return 1;
    if (ssdsim_parse_time_ns("50us", &ns) != (int)code || ns != 50000)
        return 1;
    if (count_errors() != SSDSIM_N_ERRORS)
        return 1;
    if (ssdsim_plugin_count(SSDSIM_PLUGIN_FTL) == 0 || ssdsim_plugin_count(SSDSIM_PLUGIN_GC) == 0 ||
        ssdsim_plugin_count(SSDSIM_PLUGIN_WL) == 0)
        return 1;
    if (sizeof(ssdsim_ftl_ops) == 0 || sizeof(ssdsim_gc_ops) == 0 || sizeof(ssdsim_wl_ops) == 0)
        return 1;
    {
        ssdsim_trace_format format = SSDSIM_TRACE_AUTO;
        ssdsim_trace_info info;
        ssdsim_trace_req req;
        if (ssdsim_trace_format_parse("fio-iolog3", &format) != 0 ||
            format != SSDSIM_TRACE_FIO_IOLOG3 || sizeof info == 0 || sizeof req == 0)
            return 1;
        ssdsim_trace_close(0);
    }
    {
        ssdsim_point_opts point = SSDSIM_POINT_OPTS_INIT;
        uint64_t seed = 0;
        if (ssdsim_point_get_seed(&point, &seed) != 0 || seed != 0)
            return 1;
    }
    {
        ssdsim_snia_opts snia = SSDSIM_SNIA_OPTS_INIT;
        ssdsim_suite_wl wl = SSDSIM_SUITE_WL_INIT;
        if (ssdsim_snia_cell(SSDSIM_SNIA_IOPS, 0, &wl, 0, 0) != 0 || snia.version == 0)
            return 1;
    }
    ssdsim_model_free(model);
    ssdsim_workload_free(workload);
    ssdsim_free(sim);
    return 0;
}
