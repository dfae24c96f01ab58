#ifndef CVIPS_JPEG_SKIP_H
#define CVIPS_JPEG_SKIP_H

/* A baseline Huffman decoder for libjpeg's 1/8-scale decode (private to CVipsShim): it walks
 * past the AC coefficients of blocks that become one pixel instead of decoding them, and
 * otherwise hands libjpeg the same coefficients its own decoder would, so the pixels are
 * libjpeg's (its IDCT, colour conversion and upsampling are untouched).
 *
 * Why: at 1/8 libjpeg-turbo 2.1 still looks every AC code up one at a time, one dependent
 * table load after another, and that is almost all of a --thumbnails-only page's CPU. Walking
 * past coefficients needs only how many bits and zigzag positions they take, so one look-up
 * (see `group` in the .c) covers every code that starts in the next few bits. */

#include <glib.h>
#include <stdio.h>

#include <jpeglib.h>

typedef struct skipper skipper;

/* 1 when the file (its header read) is the plain case the skipper takes: baseline Huffman,
 * 8-bit, one interleaved scan (restart markers followed), and the skipper is available (see
 * cvips_jpeg_skip_available in cvips_jpeg.h). */
int cvips_jpeg_skip_plain(j_decompress_ptr cinfo);

/* After jpeg_start_decompress: puts the skipper in place of libjpeg's entropy decoder.
 * NULL (nothing changed) when a Huffman table is missing or malformed. g_free it after
 * jpeg_destroy_decompress. */
skipper *cvips_jpeg_skip_install(j_decompress_ptr cinfo);

/* 1 when the skipper met something other than the plain case (a bad code, data running into
 * a marker, a restart marker out of sequence): the pixels are not libjpeg's, and the file
 * must be decoded again without it. */
int cvips_jpeg_skip_failed(const skipper *s);

#endif
