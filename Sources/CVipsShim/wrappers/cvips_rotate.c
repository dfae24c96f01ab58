/*
 * CVipsShim rotate facet: vips_rotate with an interpolator and a background fill, for deskew,
 * and the cheap shrink that makes deskew's analysis copies.
 */
#include "cvips_rotate.h"

int cvips_rotate(VipsImage *in, double degrees, const double *background, int n_background,
                 cvips_interpolate_kind interpolate, VipsImage **out) {
    const char *name = interpolate == CVIPS_INTERPOLATE_BICUBIC   ? "bicubic"
                       : interpolate == CVIPS_INTERPOLATE_NEAREST ? "nearest"
                                                                  : "bilinear";
    VipsInterpolate *interp = vips_interpolate_new(name);
    if (!interp) return -1;
    VipsArrayDouble *bg = NULL;
    if (background && n_background > 0) bg = vips_array_double_new(background, n_background);
    int status = bg ? vips_rotate(in, out, degrees, "interpolate", interp, "background", bg, NULL)
                    : vips_rotate(in, out, degrees, "interpolate", interp, NULL);
    if (bg) vips_area_unref(VIPS_AREA(bg));
    g_object_unref(interp);
    return status;
}

int cvips_analysis_shrink(VipsImage *in, double factor, VipsImage **out) {
    *out = NULL;
    if (factor < 1) factor = 1;
    int whole = (int) factor;
    double rest = factor / whole;
    VipsImage *t = in;
    g_object_ref(t);
    if (whole > 1) {
        VipsImage *n = NULL;
        if (vips_shrink(t, &n, (double) whole, (double) whole, NULL)) {
            g_object_unref(t);
            return -1;
        }
        g_object_unref(t);
        t = n;
    }
    if (rest > 1.001) {
        VipsImage *n = NULL;
        if (vips_reduce(t, &n, rest, rest, "kernel", VIPS_KERNEL_LINEAR, NULL)) {
            g_object_unref(t);
            return -1;
        }
        g_object_unref(t);
        t = n;
    }
    *out = t;
    return 0;
}
