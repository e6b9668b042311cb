/* testutil.h: small helpers shared by the Check test programs. */
#ifndef SSDSIM_TESTUTIL_H
#define SSDSIM_TESTUTIL_H

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

/* A small drive of media written in place (cell xpoint, the direct FTL: no state to install,
 * so preconditioning writes it), as a JSON model named NAME (a string literal). */
#define TEST_SMALL_XPOINT_JSON(NAME)                                                               \
    "{\"name\": \"" NAME "\","                                                                 \
    " \"geometry\": {\"channels\": 2, \"chips_per_channel\": 1, \"dies_per_chip\": 2,"     \
    "  \"planes_per_die\": 1, \"blocks_per_plane\": 64, \"pages_per_block\": 64,"            \
    "  \"page_size\": \"4KiB\"},"                                                              \
    " \"flash\": {\"cell\": \"xpoint\", \"read_us\": 20, \"program_us\": 200,"           \
    "  \"bus_mts\": 100, \"bus_width\": 8},"                                                   \
    " \"controller\": {\"cmd_overhead_us\": 2, \"cores\": 1, \"queue_depth\": 32},"        \
    " \"host\": {\"interface\": \"custom\", \"link_bw\": \"100MB/s\", \"cmd_overhead_us\": 1}," \
    " \"ftl\": {\"type\": \"direct\"}}"

/* Path of a file in the source tree (tests read only from there). */
static inline const char *test_src_path(char *buf, size_t len, const char *rel)
{
    snprintf(buf, len, "%s/%s", SRCDIR, rel);
    return buf;
}

/* Run one suite; return the process exit status. */
static inline int test_run_suite(Suite *s)
{
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}

/* The folder of the real trace excerpts: $SSDSIM_SHARED_TRACES, else SRCDIR/../shared/traces.
 * NULL (and a message) when it is absent: the checks on them are then skipped. */
static inline const char *shared_traces_dir(void)
{
    static char buf[1024];
    const char *env = getenv("SSDSIM_SHARED_TRACES");
    if (env && *env)
        snprintf(buf, sizeof buf, "%s", env);
    else
        snprintf(buf, sizeof buf, "%s/../shared/traces", SRCDIR);
    if (access(buf, R_OK) != 0) {
        fprintf(stderr,
                "SKIP: %s is absent: the checks on real trace excerpts are skipped (set "
                "SSDSIM_SHARED_TRACES to the folder to run them)\n",
                buf);
        return NULL;
    }
    return buf;
}

#endif /* SSDSIM_TESTUTIL_H */
