/* bigmem.c: large arrays on transparent huge pages (see bigmem.h). */
#define _DEFAULT_SOURCE 1 /* madvise and MADV_HUGEPAGE are not POSIX */
#include "bigmem.h"

#include <stdlib.h>

#if defined(__linux__)
#include <sys/mman.h>
#endif

#define HUGE_BYTES ((size_t)2 << 20)

void *ssdsim__big_alloc(size_t bytes)
{
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    if (bytes >= HUGE_BYTES) {
        void *p = NULL;
        if (posix_memalign(&p, HUGE_BYTES, bytes) != 0)
            return NULL;
        /* Advice only: where huge pages are off or unavailable the array stays on small ones. */
        (void)madvise(p, bytes & ~(HUGE_BYTES - 1), MADV_HUGEPAGE);
        return p;
    }
#endif
    return malloc(bytes ? bytes : 1);
}
