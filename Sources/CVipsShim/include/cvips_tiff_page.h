#ifndef QUIRE_CVIPS_TIFF_PAGE_H
#define QUIRE_CVIPS_TIFF_PAGE_H

#include "cvips_core.h"

/* ---- one page of a multi-page TIFF ---------------------------------------------------- */

/* Opens the page whose directory (IFD) starts at byte `ifd_offset` of a TIFF file as a
 * one-page TIFF: the file is mapped privately, its header made to point at that directory and
 * the directory's link to the next one cleared. libvips counts a TIFF's pages on every load
 * (walking every directory), so `page=k` costs grow with the file's page count; this one does
 * not. `options` are applied as for cvips_load, with page 0 and one page. */
int cvips_load_tiff_page(const char *filename, guint64 ifd_offset, const cvips_load_options *options, VipsImage **out);

#endif
