#ifndef QUIRE_CVIPS_TURN_H
#define QUIRE_CVIPS_TURN_H

/* ---- deskew rotation on 8-bit pixels in memory (vips_rotate's geometry, our loop) ---- */

/* The canvas `vips_rotate(in, degrees)` gives a `width` x `height` image: the turned image's
 * bounding box, `left` and `top` in turned coordinates (libvips's oarea), and its size. */
void cvips_turn_canvas(int width, int height, double degrees, int *left, int *top, int *out_width, int *out_height);

/* The ink `vips_rotate` fills with for `background` (`n_background` values: 1, or one per
 * band; none means black): each value clipped to 0...255 and truncated, as libvips casts it.
 * Writes `bands` bytes. */
void cvips_turn_ink(const double *background, int n_background, int bands, unsigned char *ink);

/* Rows `y0 ..< y0 + rows` (all `out_width` columns) of the canvas of `cvips_turn_canvas`,
 * starting at column `x0`, of `src` (`width` x `height`, `bands` 1...4 interleaved, rows
 * `stride` bytes apart) turned clockwise by `degrees`, written to `dst` (rows `dst_stride`
 * bytes apart). Bilinear with the fixed-point weights and edge handling of libvips 8.14's
 * `vips_rotate` (`vips_affine` with the "bilinear" interpolator and a background fill): the
 * same pixels but where a sample position lies within about 1e-12 of a 1/4096 step (libvips
 * accumulates positions along a tile row, this computes each one from the row start).
 * `vectorized` 0 runs the portable loop alone (for comparing the two; both give the same bytes).
 * Returns 0, or -1 for arguments out of range. */
int cvips_turn_rows(const unsigned char *src, int width, int height, int bands, long stride, double degrees,
                    const unsigned char *ink, int x0, int y0, int out_width, int rows, unsigned char *dst,
                    long dst_stride, int vectorized);

/* The source rows `cvips_turn_rows` reads for canvas rows `y0 ..< y0 + rows`, columns
 * `x0 ..< x0 + out_width`, written to `*first ..< *last` (clamped to the source, with a row
 * to spare each side for rounding): rows outside it are never read for those canvas rows, so a
 * caller making the canvas top to bottom can hand back the source rows above `*first`. */
void cvips_turn_source_rows(int width, int height, double degrees, int x0, int y0, int out_width, int rows, int *first,
                            int *last);

/* 1 when `cvips_turn_rows` has an AVX2 loop on this CPU (grey and RGB), 0 otherwise. */
int cvips_turn_vectorized_available(void);

#endif
