#ifndef CVIPS_HUGEMAP_H
#define CVIPS_HUGEMAP_H

#include <stddef.h>

/* Internal to the shim: anonymous private memory for whole frames (decoded planes, a warped
 * page), its start aligned to 2 MiB and its length rounded up to 2 MiB, asked for as large
 * pages (MADV_HUGEPAGE).
 *
 * Why aligned: the kernel backs only whole aligned 2 MiB pieces of a mapping with large pages,
 * and places a mapping whose length is not a multiple of 2 MiB on a 4 KiB boundary, so up to
 * 2 MiB at each end of a frame was faulted in 4 KiB at a time (about 600 faults for a 10 MB
 * page, aligned 5) and read through 4 KiB TLB entries. On the 50 bench captures, aligning
 * took faults from 222k to 141k and user time from 7.4 to 6.3 s (the warp's gathers and the
 * decoder's writes miss the TLB far less). Over-mapping makes it hold on every kernel.
 * NULL when the memory cannot be had. */
void *cvips_hugemap(size_t length);
/* Unmaps what cvips_hugemap(length) returned (the same length). */
void cvips_hugeunmap(void *data, size_t length);

#endif
