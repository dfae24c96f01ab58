/*
 * CVipsShim: non-variadic wrappers around libvips for Swift.
 *
 * Swift cannot call C variadic functions, and libvips passes optional arguments as
 * NULL-terminated varargs. Each facet of the shim lives in its own header/source pair
 * (cvips_core, ...) so that work on one facet does not touch another; this umbrella header
 * includes them all. Every function is prefixed `cvips_` and returns 0 on success, -1 on
 * failure with the reason in libvips's error buffer (see cvips_error_take).
 */
#ifndef QUIRE_CVIPS_SHIM_H
#define QUIRE_CVIPS_SHIM_H

#include "cvips_core.h"
#include "cvips_pages.h"
#include "cvips_tiff_page.h"
#include "cvips_log.h"
#include "cvips_compose.h"
#include "cvips_rotate.h"
#include "cvips_alloc.h"
#include "cvips_memory.h"
#include "cvips_frame.h"
#include "cvips_jpeg.h"
#include "cvips_png.h"
#include "cvips_tiff_decode.h"
#include "cvips_resample.h"
#include "cvips_warp.h"
#include "cvips_turn.h"
#include "cvips_box.h"
#include "cvips_deflate.h"
#include "cvips_iiif.h"

#endif
