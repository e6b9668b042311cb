/* testutil.h: small helpers shared by the Check test programs. */
#ifndef SSDSIM_TESTUTIL_H
#define SSDSIM_TESTUTIL_H

#include <check.h>
#include <stdio.h>
#include <stdlib.h>

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

#endif /* SSDSIM_TESTUTIL_H */
