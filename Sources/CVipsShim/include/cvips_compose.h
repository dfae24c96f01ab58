#ifndef QUIRE_CVIPS_COMPOSE_H
#define QUIRE_CVIPS_COMPOSE_H

#include <stddef.h>
#include <vips/vips.h>

/* ---- compositing: strips, contact sheets and pictures of layouts ------------------- *
 * Colours are arrays of `n` 8-bit channel values (one per band, sRGB order, alpha last).
 * Every function returns 0 on success, -1 with libvips's error buffer set. */

/* A width x height 8-bit sRGB image of one colour (3 values = RGB, 4 = RGBA). */
int cvips_solid(int width, int height, const double *ink, int n, VipsImage **out);
/* 4-band 8-bit sRGB with alpha: converts colour space, casts, adds an opaque alpha if none. */
int cvips_to_rgba(VipsImage *in, VipsImage **out);
/* Multiplies the alpha band (the last band) by `factor` in [0, 1]. */
int cvips_scale_alpha(VipsImage *in, double factor, VipsImage **out);
/* Draws `n` RGBA layers over `base` with the Porter-Duff "over" operator, layer i with its
 * top-left at (x[i], y[i]); later layers are on top. One vips_composite call. */
int cvips_composite_over(VipsImage *base, VipsImage **layers, int n, const int *x, const int *y, VipsImage **out);
/* Joins images left to right (top-aligned) with `shim` pixels between them, filling gaps with
 * `background`; a balanced tree of vips_join, so the pipeline depth is log2(n). */
int cvips_join_row(VipsImage **in, int n, int shim, const double *background, int nbg, VipsImage **out);
/* vips_arrayjoin: a grid `across` images wide; cells are as large as the largest image, which
 * sits in its cell by halign/valign (0 low, 1 centre, 2 high); gaps filled with background. */
int cvips_arrayjoin(VipsImage **in, int n, int across, int shim, const double *background, int nbg, int halign,
                    int valign, VipsImage **out);
/* Places `in` at (x, y) inside a width x height image filled with `background`. */
int cvips_embed(VipsImage *in, int x, int y, int width, int height, const double *background, int nbg, VipsImage **out);
/* Flattens alpha onto an RGB background (3 values); keeps 8-bit sRGB. */
int cvips_flatten_rgb(VipsImage *in, const double *background, VipsImage **out);
/* Renders `text` with Pango (font e.g. "sans 12") as an RGBA image in colour ink[0..2]. */
int cvips_text_rgba(const char *text, const char *font, int dpi, const double *ink, VipsImage **out);
/* A copy of `in` (rendered to memory) with a rectangle drawn on it, filled or 1 px outline. */
int cvips_with_rect(VipsImage *in, const double *ink, int n, int x, int y, int width, int height, int fill,
                    VipsImage **out);
/* Writes equally sized frames as one animated file: frames are joined vertically and tagged
 * with "page-height", "delay" (ms per frame) and "loop" (0 = forever).
 * format: 2 = WebP (quality 1-100), 4 = GIF. */
int cvips_save_animated(VipsImage **frames, int n, int delay_ms, int loop, int format, int quality,
                        const char *filename);

#endif
