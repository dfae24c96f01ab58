#ifndef QUIRE_CVIPS_DEFLATE_H
#define QUIRE_CVIPS_DEFLATE_H

#include <stddef.h>

/* ---- zlib streams and ICC profiles for PDF writing -----------------------------------------
 *
 * The PDF writer (Swift, QuireKit) needs two things only C libraries give: zlib's deflate
 * (PDF's FlateDecode, for lossless page pixels, fonts and text) and the sRGB ICC profile that
 * libvips ships (a PDF/A output intent). */

/* Compresses `length` bytes into a zlib stream (RFC 1950, what FlateDecode reads) at `level`
 * 0-9. Returns a g_malloc'ed buffer (free with cvips_free) and its size in *out_length, or NULL
 * when out of memory. */
unsigned char *cvips_deflate(const unsigned char *bytes, size_t length, int level, size_t *out_length);

/* The bytes of the ICC profile libvips knows by `name` ("srgb", "cmyk", "p3"), g_malloc'ed (free
 * with cvips_free), size in *out_length; NULL with libvips's error buffer set when unknown. */
unsigned char *cvips_profile_bytes(const char *name, size_t *out_length);

#endif
