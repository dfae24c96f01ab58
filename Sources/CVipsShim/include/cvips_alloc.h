#ifndef CVIPS_ALLOC_H
#define CVIPS_ALLOC_H

/* Tunes glibc's allocator for long batches of large image buffers: a fixed mmap threshold
 * (so freed multi-megabyte buffers go back to the kernel and the threshold does not grow)
 * and at most `arenas` malloc arenas; either left as it is when 0 (a later call may move the
 * threshold alone). 0 = applied, -1 = not available (not glibc) or refused. */
int cvips_limit_allocator_growth(int mmap_threshold_bytes, int arenas);

/* How much free memory at the top of a heap glibc keeps rather than giving back to the kernel
 * (M_TRIM_THRESHOLD; its default, 128 KiB, hands back every page-sized block freed at the top,
 * which the next page then faults in and the kernel zero-fills again). 0 = applied, -1 = not
 * available (not glibc) or refused. */
int cvips_set_heap_trim_threshold(int trim_threshold_bytes);

#endif
