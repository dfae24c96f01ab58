/* One OpenMP thread for the Tesseract calls of the calling thread, set at run time.

   OMP_THREAD_LIMIT is read once, when libgomp loads with the program, so setting it takes a
   second start of the program. max-active-levels-var is a per-thread setting in libgomp (GCC 11
   and later): at 0, every parallel region the thread opens runs on that thread alone, whatever
   its num_threads clause, and no OpenMP threads are started. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* RTLD_DEFAULT */
#endif
#include <dlfcn.h>

#include "ctesseract_shim.h"

void ctess_openmp_one_thread(void) {
    /* Looked up, not linked: libgomp comes with libtesseract, not with this object. */
    void (*set_levels)(int) = (void (*)(int)) dlsym(RTLD_DEFAULT, "omp_set_max_active_levels");
    if (set_levels) set_levels(0);
}

int ctess_openmp_max_active_levels(void) {
    int (*get_levels)(void) = (int (*)(void)) dlsym(RTLD_DEFAULT, "omp_get_max_active_levels");
    return get_levels ? get_levels() : -1;
}
