#ifndef CVIPS_PNG_H
#define CVIPS_PNG_H

/* Decodes a PNG file at full size into `data` (width * height * bands bytes, rows packed,
 * stored orientation) with libpng on the calling thread: the pixels vips_pngload gives for
 * the files it takes, 8-bit grey (1, 2 and 4-bit grey expanded to 0...255), RGB, or a palette
 * expanded to RGB, interlaced or not.
 *
 * Why not vips_pngload: libpng hands libvips each row, libvips copies it into its region and
 * its sink copies the region into the frame, on a worker thread the caller waits for
 * (docs/benchmarks.md, "Scans: the decode against the floor's, format by format").
 *
 * Returns 0 on success; 1 when the file is not one it takes (another size or band count,
 * 16 bits, an alpha channel or transparency, an ICC profile), nothing decoded; -1 when libpng
 * reports any error or warning (a truncated or damaged file), with `data` partly written and
 * the reason in libvips's error buffer: libvips's loader then decides about the file. */
int cvips_png_decode_into(const char *path, unsigned char *data, int width, int height, int bands);

#endif
