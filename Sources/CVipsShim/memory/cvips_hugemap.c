#include "cvips_hugemap.h"

#include <stdint.h>
#include <sys/mman.h>

enum { HUGE = 2 << 20 };

static size_t rounded(size_t length) { return (length + HUGE - 1) & ~(size_t) (HUGE - 1); }

void *cvips_hugemap(size_t length) {
    if (length == 0) return NULL;
    size_t size = rounded(length);
    /* Over-map by one large page, then give back the unaligned head and the tail. */
    unsigned char *raw = mmap(NULL, size + HUGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (raw == MAP_FAILED) return NULL;
    uintptr_t start = ((uintptr_t) raw + HUGE - 1) & ~(uintptr_t) (HUGE - 1);
    size_t head = start - (uintptr_t) raw;
    if (head) munmap(raw, head);
    munmap((unsigned char *) start + size, HUGE - head);
#ifdef MADV_HUGEPAGE
    madvise((void *) start, size, MADV_HUGEPAGE);
#endif
    return (void *) start;
}

void cvips_hugeunmap(void *data, size_t length) {
    if (data) munmap(data, rounded(length));
}
