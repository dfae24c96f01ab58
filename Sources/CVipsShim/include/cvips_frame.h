#ifndef CVIPS_FRAME_H
#define CVIPS_FRAME_H

#include <stddef.h>
#include <vips/vips.h>

/* A new 8-bit image over a private anonymous memory mapping of width * height * bands bytes,
 * returned in `data` for the caller to fill (and read) directly. The mapping is unmapped when
 * the image closes. Being a mapping of its own (not heap memory), parts of it can be handed
 * back to the kernel while the image lives (cvips_frame_release). */
int cvips_new_frame(int width, int height, int bands, void **data, VipsImage **out);

/* Returns the whole memory pages inside [data + offset, data + offset + length) to the kernel
 * (madvise MADV_DONTNEED): they read as zero afterwards. Partial pages at either end are kept. */
int cvips_frame_release(void *data, size_t offset, size_t length);

/* A view of `in` marked as read top to bottom ("vips-sequential"), so resampling operations
 * put line caches in their pipeline and the sink computes strips, not tiles that recompute
 * their overlaps (3-5x faster for vips_resize on memory images in 8.14). Only for pipelines
 * that end in a sink (save, copy to memory). */
int cvips_streamed(VipsImage *in, VipsImage **out);

/* The pixel address of a memory image (row-major, band-interleaved), computing it into memory
 * first when it is a pipeline; NULL with the error buffer set on failure. */
void *cvips_memory_pixels(VipsImage *in);

/* 1 when `in` already holds its pixels in memory (a frame, a copy_memory result, a buffer
 * wrapped or owned), so cvips_memory_pixels returns them without computing anything. */
int cvips_is_memory(const VipsImage *in);

#endif
