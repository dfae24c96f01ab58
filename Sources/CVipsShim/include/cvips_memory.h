#ifndef CVIPS_MEMORY_H
#define CVIPS_MEMORY_H

#include <stddef.h>
#include <vips/vips.h>

/* Renders `in` straight into the caller's buffer of `length` bytes (which must be exactly
 * width * height * bands * sizeof(format)): no intermediate libvips buffer, no second copy. */
int cvips_write_into(VipsImage *in, void *buffer, size_t length);

/* A new 8-bit image whose pixel buffer (width * height * bands bytes, uninitialised) is
 * returned in `data` for the caller to fill before the image is read; the buffer is freed
 * with the image. */
int cvips_new_owned_uchar(int width, int height, int bands, void **data, VipsImage **out);

#endif
