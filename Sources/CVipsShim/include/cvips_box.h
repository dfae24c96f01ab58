#ifndef CVIPS_BOX_H
#define CVIPS_BOX_H

#include <stddef.h>

/* The detection copy of a capture held as YCbCr planes (QuireImaging's
 * DetectionCopy(planes:)): `out_width` x `out_height` RGB pixels, each the mean of a
 * `factor` x `factor` block of luma and of the chroma samples under it (factor / 2^shift
 * rounded up across and down, cut at the plane's edge), converted as PlanarPixels.rgb does.
 * The same integer arithmetic as the Swift loop, so both give the same bytes; the block sums
 * and the conversion run as separate loops the compiler vectorises (the detection-copy stage:
 * 12.6 -> 9.9 CPU ms a 10 MP capture).
 *
 * `out_width * factor` must not exceed the luma width, `out_height * factor` its height;
 * factor <= 257 (sums of `factor` rows fit 16 bits). Returns 0, or -1 when memory for the
 * row sums cannot be had (nothing written). */
int cvips_box_rgb_planes(const unsigned char *luma, size_t luma_stride, const unsigned char *cb,
                         const unsigned char *cr, size_t chroma_stride, int chroma_width, int chroma_height,
                         int h_shift, int v_shift, int factor, int out_width, int out_height, unsigned char *out);

/* cvips_box_rgb_planes a band of rows at a time, while a decoder fills the planes top to
 * bottom (cvips_jpeg_planar_decode_averaging): the same rows, sums and bytes, each output row
 * made as soon as the rows it reads are decoded, while they are still in cache.
 *
 * _new takes cvips_box_rgb_planes's arguments (the planes need not be filled yet) and returns
 * NULL when memory for the row sums cannot be had. _ready writes every output row not yet
 * written whose luma rows lie below `luma_rows` and chroma rows below `chroma_rows`, in order,
 * and returns how many output rows are written in all (out_height when the copy is whole). */
typedef struct cvips_box_rows cvips_box_rows;
cvips_box_rows *cvips_box_rows_new(const unsigned char *luma, size_t luma_stride, const unsigned char *cb,
                                   const unsigned char *cr, size_t chroma_stride, int chroma_width, int chroma_height,
                                   int h_shift, int v_shift, int factor, int out_width, int out_height,
                                   unsigned char *out);
int cvips_box_rows_ready(cvips_box_rows *rows, long luma_rows, long chroma_rows);
void cvips_box_rows_free(cvips_box_rows *rows);

/* `vips_shrink(in, factor, factor)` of 8-bit pixels in memory (the analysis copies' box
 * filter, QuireImaging's trim and skew copies): rows averaged first, (sum + factor / 2) /
 * factor, then columns the same way; the last row and column repeated past the edge; an
 * `out_width` x `out_height` result where libvips gives floor(size / factor + 0.5). The same
 * bytes as libvips 8.14 in one pass over the rows, several times cheaper.
 *
 * `src` is `width` x `height` x `bands` bytes, rows `stride` bytes apart; `dst` rows are
 * `out_width * bands` bytes apart. Returns 0, or -1 for arguments out of range or when
 * memory for the row sums cannot be had (nothing written). */
int cvips_box_shrink(const unsigned char *src, int width, int height, int bands, size_t stride, int factor,
                     int out_width, int out_height, unsigned char *dst);

#endif
