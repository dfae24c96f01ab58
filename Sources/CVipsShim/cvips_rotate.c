/*
 * CVipsShim rotate facet: vips_rotate with an interpolator and a background fill, for deskew.
 */
#include "cvips_rotate.h"

int cvips_rotate(VipsImage *in, double degrees, const double *background, int n_background,
                 cvips_interpolate_kind interpolate, VipsImage **out) {
    const char *name = interpolate == CVIPS_INTERPOLATE_BICUBIC ? "bicubic"
        : interpolate == CVIPS_INTERPOLATE_NEAREST ? "nearest" : "bilinear";
    VipsInterpolate *interp = vips_interpolate_new(name);
    if (!interp) return -1;
    VipsArrayDouble *bg = NULL;
    if (background && n_background > 0) bg = vips_array_double_new(background, n_background);
    int status = bg
        ? vips_rotate(in, out, degrees, "interpolate", interp, "background", bg, NULL)
        : vips_rotate(in, out, degrees, "interpolate", interp, NULL);
    if (bg) vips_area_unref(VIPS_AREA(bg));
    g_object_unref(interp);
    return status;
}
