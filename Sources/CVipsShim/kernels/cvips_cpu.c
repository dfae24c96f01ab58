/* Kernels' CPU check: whether this x86-64 CPU has AVX2 (asked once). */
#include "cvips_cpu.h"

int cvips_cpu_has_avx2(void) {
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
    /* Racing first callers store the same value. */
    static int available = -1;
    if (available < 0) {
        __builtin_cpu_init();
        available = __builtin_cpu_supports("avx2") ? 1 : 0;
    }
    return available;
#else
    return 0;
#endif
}
