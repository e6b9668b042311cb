/* version.c: the library's version at run time (ssdsim_version, ssdsim_version_number) and the
 * check a program makes that the library it runs with serves the headers it was compiled
 * against. configure checks that the SSDSIM_VERSION_* macros of ssdsim.h match the package. */
#include "common.h"

#if SSDSIM_VERSION_NUMBER != SSDSIM__PACKAGE_NUMBER
#error "the SSDSIM_VERSION_* macros of ssdsim.h differ from the package version of configure.ac"
#endif

const char *ssdsim_version(void)
{
    return PACKAGE_VERSION;
}

int ssdsim_version_number(void)
{
    return SSDSIM_VERSION_NUMBER;
}

int ssdsim_version_check(int number)
{
    return number >= 0 && number / 10000 == SSDSIM_VERSION_MAJOR && number <= SSDSIM_VERSION_NUMBER;
}
