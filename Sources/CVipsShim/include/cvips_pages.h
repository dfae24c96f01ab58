#ifndef QUIRE_CVIPS_PAGES_H
#define QUIRE_CVIPS_PAGES_H

#include <vips/vips.h>

/* ---- multi-page images ------------------------------------------------------------ */

/* Stacks `n` pages of equal size top to bottom and sets "page-height", the form libvips
 * writes as a multi-page TIFF (or an animated GIF/WebP). */
int cvips_join_pages(VipsImage **pages, int n, VipsImage **out);

#endif
