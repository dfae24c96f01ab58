/*
 * CVipsShim rotate facet: vips_rotate with an interpolator and a background fill, for deskew,
 * and the cheap shrink that makes deskew's analysis copies.
 */
#include "cvips_rotate.h"
#include "cvips_box.h"
#include "cvips_frame.h"

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

/* `vips_shrink(in, whole, whole)` of an 8-bit image whose pixels are in memory, by
 * `cvips_box_shrink` (the same bytes and header); NULL when `in` is not such an image. */
static VipsImage *own_box_shrink(VipsImage *in, int whole) {
    if (vips_image_get_format(in) != VIPS_FORMAT_UCHAR || in->Coding != VIPS_CODING_NONE || !in->data ||
        !cvips_is_memory(in))
        return NULL;
    const int width = in->Xsize, height = in->Ysize, bands = in->Bands;
    /* libvips's size: the nearest whole number, halves up, at least 1. */
    const int out_width = VIPS_MAX(1, (int) ((double) width / whole + 0.5));
    const int out_height = VIPS_MAX(1, (int) ((double) height / whole + 0.5));
    VipsImage *out = vips_image_new_memory();
    if (vips_image_pipelinev(out, VIPS_DEMAND_STYLE_ANY, in, NULL)) {
        g_object_unref(out);
        vips_error_clear();
        return NULL;
    }
    out->Xsize = out_width;
    out->Ysize = out_height;
    if (vips_image_write_prepare(out) ||
        cvips_box_shrink(VIPS_IMAGE_ADDR(in, 0, 0), width, height, bands, VIPS_IMAGE_SIZEOF_LINE(in), whole, out_width,
                         out_height, VIPS_IMAGE_ADDR(out, 0, 0))) {
        g_object_unref(out);
        vips_error_clear();
        return NULL;
    }
    return out;
}

int cvips_analysis_shrink(VipsImage *in, double factor, int own_loop, VipsImage **out) {
    *out = NULL;
    if (factor < 1) factor = 1;
    int whole = (int) factor;
    double rest = factor / whole;
    VipsImage *t = in;
    g_object_ref(t);
    if (whole > 1) {
        /* libvips's vips_shrink on a memory image: 66 CPU ms for a 2550 x 3300 RGB scan
         * against about 10 in our loop (docs/benchmarks.md, "The trim copy in our loop"). */
        VipsImage *n = own_loop && whole <= 257 ? own_box_shrink(t, whole) : NULL;
        if (!n && vips_shrink(t, &n, (double) whole, (double) whole, NULL)) {
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
