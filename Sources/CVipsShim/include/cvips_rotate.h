#ifndef QUIRE_CVIPS_ROTATE_H
#define QUIRE_CVIPS_ROTATE_H

#include <vips/vips.h>

/* ---- arbitrary-angle rotation (deskew) -------------------------------------------- */

typedef enum {
    CVIPS_INTERPOLATE_NEAREST = 0,
    CVIPS_INTERPOLATE_BILINEAR = 1,
    CVIPS_INTERPOLATE_BICUBIC = 2,
} cvips_interpolate_kind;

/* Rotates `in` by `degrees` clockwise as displayed (libvips's vips_rotate convention with y
 * down), growing the canvas to hold the whole rotated image; uncovered corners are filled
 * with `background` (`n_background` values: 1, or one per band). */
int cvips_rotate(VipsImage *in, double degrees, const double *background, int n_background,
                 cvips_interpolate_kind interpolate, VipsImage **out);

/* Shrinks by `factor` (>= 1) cheaply for analysis copies: a box filter by the integer part
 * (vips_shrink), then the remainder with a linear vips_reduce on the already small image.
 * About ten times cheaper than vips_resize on a large page; not for output quality.
 * `own_loop` 1 runs the box filter of 8-bit images in memory in `cvips_box_shrink` (the same
 * bytes, several times cheaper); 0 always uses vips_shrink (for comparing the two). */
int cvips_analysis_shrink(VipsImage *in, double factor, int own_loop, VipsImage **out);

#endif
