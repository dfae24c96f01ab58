#include "cvips_alloc.h"

/* <stdlib.h> first: __GLIBC__ is defined by <features.h>, which only arrives with a libc
 * header; testing it before one is included silently compiled the limits out. */
#include <stdlib.h>

#if defined(__GLIBC__)
#include <malloc.h>
#endif

int cvips_limit_allocator_growth(int mmap_threshold_bytes, int arenas) {
#if defined(__GLIBC__)
    int ok = 1;
    if (mmap_threshold_bytes > 0) ok &= mallopt(M_MMAP_THRESHOLD, mmap_threshold_bytes);
    if (arenas > 0) ok &= mallopt(M_ARENA_MAX, arenas);
    return ok ? 0 : -1;
#else
    (void) mmap_threshold_bytes;
    (void) arenas;
    return -1;
#endif
}

int cvips_set_heap_trim_threshold(int trim_threshold_bytes) {
#if defined(__GLIBC__)
    return trim_threshold_bytes > 0 && mallopt(M_TRIM_THRESHOLD, trim_threshold_bytes) ? 0 : -1;
#else
    (void) trim_threshold_bytes;
    return -1;
#endif
}
