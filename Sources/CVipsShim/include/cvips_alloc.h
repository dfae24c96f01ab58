#ifndef CVIPS_ALLOC_H
#define CVIPS_ALLOC_H

/* Tunes glibc's allocator for long batches of large image buffers: a fixed mmap threshold
 * (so freed multi-megabyte buffers go back to the kernel and the threshold does not grow)
 * and at most `arenas` malloc arenas. 0 = applied, -1 = not available (not glibc) or refused. */
int cvips_limit_allocator_growth(int mmap_threshold_bytes, int arenas);

/* Moves glibc's mmap threshold (set by cvips_limit_allocator_growth) to `bytes`; safe while
 * other threads allocate. 0 = applied, -1 = not available (not glibc) or refused. */
int cvips_set_mmap_threshold(int bytes);

#endif
