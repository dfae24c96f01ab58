#ifndef CVIPS_JPEG_H
#define CVIPS_JPEG_H

#include <vips/vips.h>

/* Decodes a JPEG file at 1/shrink of its stored size (shrink 1, 2, 4 or 8: libjpeg's DCT
 * scaling, so at 1/8 only the DC coefficients are transformed) straight into a new memory
 * image: 8-bit RGB, or 8-bit grey for grey files, in stored orientation (EXIF ignored), with
 * the file's ICC profile attached as VIPS_META_ICC_NAME when it has one.
 *
 * Why not vips_jpegload(shrink=): this reads the file through a 1 MiB buffer so libjpeg-turbo
 * stays on its fast Huffman path, and runs on the calling thread with no pipeline around it;
 * on 10 MP phone captures at 1/8 it takes 38 ms where vips_jpegload takes 48 ms and
 * vips_thumbnail 60 ms of one core.
 *
 * Returns 0 on success; 1 when the file is fine but wants libvips's loader (CMYK or YCCK,
 * which it inverts and transforms); -1 on any decoding failure, truncation included, with the
 * reason in libvips's error buffer. */
int cvips_jpeg_load_scaled(const char *path, int shrink, VipsImage **out);

/* Decodes a JPEG file at full size into `data` (width * height * bands bytes, 8-bit RGB or
 * grey, stored orientation), the same pixels vips_jpegload gives (libjpeg's defaults: exact
 * integer IDCT, fancy upsampling) in about 60% of its time: libvips's reads in 4 KiB pieces
 * keep libjpeg-turbo off its fast Huffman path for part of every buffer, and its pipeline adds
 * copies. Returns 0 on success; 1 when the file is not exactly that (another size or band
 * count, CMYK, an ICC profile whose colours need transforming), nothing decoded; -1 on a
 * decoding failure (truncation included), with `data` partly written. */
int cvips_jpeg_decode_into(const char *path, unsigned char *data, int width, int height, int bands);

#endif
