#ifndef CVIPS_TIFF_DECODE_H
#define CVIPS_TIFF_DECODE_H

/* Decodes directory `page` of a TIFF file at full size into `data` (width * height * bands
 * bytes, rows packed, stored orientation) with libtiff on the calling thread: the pixels
 * vips_tiffload gives for the files it takes, strips of one-bit grey (min-is-white or
 * min-is-black, expanded to 0 or 255), 8-bit min-is-black grey or 8-bit RGB, in any
 * compression libtiff decodes but JPEG.
 *
 * Why not vips_tiffload: libtiff hands libvips each strip, libvips expands or copies it into
 * its region and its sink copies the region into the frame, on a worker thread the caller
 * waits for (docs/benchmarks.md, "Scans: TIFFs from libtiff, RGB turns without gathers").
 *
 * Returns 0 on success; 1 when the file is not one it takes (tiles, planes, another size,
 * depth or band count, extra samples, a palette, signed or float samples, an ICC profile,
 * JPEG compression), nothing decoded; -1 when libtiff reports any error or warning (a
 * truncated or damaged file), with `data` partly written and the reason in libvips's error
 * buffer: libvips's loader then decides about the file. */
int cvips_tiff_decode_into(const char *path, int page, unsigned char *data, int width, int height, int bands);

#endif
