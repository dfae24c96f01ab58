/*
 * CVipsShim compose facet: the wrappers strips, contact sheets and layout pictures need.
 * Like the core facet, each function forwards to libvips with plain arguments and owns no
 * policy; intermediate images are released on every path.
 */
#include "cvips_compose.h"

static VipsArrayDouble *colour_array(const double *values, int n) { return vips_array_double_new(values, n); }

int cvips_solid(int width, int height, const double *ink, int n, VipsImage **out) {
    *out = NULL;
    if (n < 1 || n > 4) {
        vips_error("cvips_solid", "%d colour values (1-4 expected)", n);
        return -1;
    }
    VipsImage *black = NULL, *lin = NULL, *cast = NULL;
    int rc = -1;
    double a[4] = {1, 1, 1, 1};
    if (vips_black(&black, width, height, "bands", n, NULL)) goto done;
    if (vips_linear(black, &lin, a, (double *) ink, n, NULL)) goto done;
    if (vips_cast(lin, &cast, VIPS_FORMAT_UCHAR, NULL)) goto done;
    rc = vips_copy(cast, out, "interpretation", n >= 3 ? VIPS_INTERPRETATION_sRGB : VIPS_INTERPRETATION_B_W, NULL);
done:
    if (black) g_object_unref(black);
    if (lin) g_object_unref(lin);
    if (cast) g_object_unref(cast);
    return rc;
}

int cvips_to_rgba(VipsImage *in, VipsImage **out) {
    *out = NULL;
    VipsImage *t = in, *n = NULL;
    g_object_ref(t);
    if (vips_image_get_interpretation(t) != VIPS_INTERPRETATION_sRGB || vips_image_get_bands(t) < 3) {
        if (vips_colourspace(t, &n, VIPS_INTERPRETATION_sRGB, NULL)) goto fail;
        g_object_unref(t);
        t = n;
    }
    if (vips_image_get_format(t) != VIPS_FORMAT_UCHAR) {
        if (vips_cast(t, &n, VIPS_FORMAT_UCHAR, NULL)) goto fail;
        g_object_unref(t);
        t = n;
    }
    if (!vips_image_hasalpha(t)) {
        if (vips_addalpha(t, &n, NULL)) goto fail;
        g_object_unref(t);
        t = n;
    }
    *out = t;
    return 0;
fail:
    g_object_unref(t);
    return -1;
}

int cvips_scale_alpha(VipsImage *in, double factor, VipsImage **out) {
    *out = NULL;
    int bands = vips_image_get_bands(in);
    if (bands < 2 || bands > 4) {
        vips_error("cvips_scale_alpha", "image has %d bands, no alpha to scale", bands);
        return -1;
    }
    double a[4] = {1, 1, 1, 1}, b[4] = {0, 0, 0, 0};
    a[bands - 1] = factor;
    VipsImage *lin = NULL;
    if (vips_linear(in, &lin, a, b, bands, "uchar", TRUE, NULL)) return -1;
    int rc = vips_copy(lin, out, "interpretation", vips_image_get_interpretation(in), NULL);
    g_object_unref(lin);
    return rc;
}

int cvips_composite_over(VipsImage *base, VipsImage **layers, int n, const int *x, const int *y, VipsImage **out) {
    *out = NULL;
    if (n <= 0) {
        g_object_ref(base);
        *out = base;
        return 0;
    }
    VipsImage **all = g_new(VipsImage *, n + 1);
    int *modes = g_new(int, n);
    all[0] = base;
    for (int i = 0; i < n; i++) {
        all[i + 1] = layers[i];
        modes[i] = VIPS_BLEND_MODE_OVER;
    }
    VipsArrayInt *xs = vips_array_int_new(x, n);
    VipsArrayInt *ys = vips_array_int_new(y, n);
    int rc = vips_composite(all, out, n + 1, modes, "x", xs, "y", ys, NULL);
    vips_area_unref(VIPS_AREA(xs));
    vips_area_unref(VIPS_AREA(ys));
    g_free(modes);
    g_free(all);
    return rc;
}

static int join_range(VipsImage **in, int n, int shim, VipsArrayDouble *bg, VipsImage **out) {
    if (n == 1) {
        g_object_ref(in[0]);
        *out = in[0];
        return 0;
    }
    int half = n / 2;
    VipsImage *left = NULL, *right = NULL;
    int rc = -1;
    if (join_range(in, half, shim, bg, &left)) goto done;
    if (join_range(in + half, n - half, shim, bg, &right)) goto done;
    rc = vips_join(left, right, out, VIPS_DIRECTION_HORIZONTAL, "expand", TRUE, "shim", shim, "background", bg, "align",
                   VIPS_ALIGN_LOW, NULL);
done:
    if (left) g_object_unref(left);
    if (right) g_object_unref(right);
    return rc;
}

int cvips_join_row(VipsImage **in, int n, int shim, const double *background, int nbg, VipsImage **out) {
    *out = NULL;
    if (n <= 0) {
        vips_error("cvips_join_row", "no images to join");
        return -1;
    }
    VipsArrayDouble *bg = colour_array(background, nbg);
    int rc = join_range(in, n, shim, bg, out);
    vips_area_unref(VIPS_AREA(bg));
    return rc;
}

int cvips_arrayjoin(VipsImage **in, int n, int across, int shim, const double *background, int nbg, int halign,
                    int valign, VipsImage **out) {
    VipsArrayDouble *bg = colour_array(background, nbg);
    int rc = vips_arrayjoin(in, out, n, "across", across, "shim", shim, "background", bg, "halign", (VipsAlign) halign,
                            "valign", (VipsAlign) valign, NULL);
    vips_area_unref(VIPS_AREA(bg));
    return rc;
}

int cvips_embed(VipsImage *in, int x, int y, int width, int height, const double *background, int nbg,
                VipsImage **out) {
    VipsArrayDouble *bg = colour_array(background, nbg);
    int rc = vips_embed(in, out, x, y, width, height, "extend", VIPS_EXTEND_BACKGROUND, "background", bg, NULL);
    vips_area_unref(VIPS_AREA(bg));
    return rc;
}

int cvips_flatten_rgb(VipsImage *in, const double *background, VipsImage **out) {
    *out = NULL;
    if (!vips_image_hasalpha(in)) {
        g_object_ref(in);
        *out = in;
        return 0;
    }
    VipsArrayDouble *bg = colour_array(background, 3);
    VipsImage *flat = NULL;
    int rc = vips_flatten(in, &flat, "background", bg, NULL);
    vips_area_unref(VIPS_AREA(bg));
    if (rc) return -1;
    if (vips_image_get_format(flat) != VIPS_FORMAT_UCHAR) {
        VipsImage *cast = NULL;
        rc = vips_cast(flat, &cast, VIPS_FORMAT_UCHAR, NULL);
        g_object_unref(flat);
        if (rc) return -1;
        flat = cast;
    }
    *out = flat;
    return 0;
}

int cvips_text_rgba(const char *text, const char *font, int dpi, const double *ink, VipsImage **out) {
    *out = NULL;
    VipsImage *mask = NULL, *colour = NULL, *joined = NULL;
    int rc = -1;
    if (vips_text(&mask, text, "font", font, "dpi", dpi, NULL)) goto done;
    if (cvips_solid(vips_image_get_width(mask), vips_image_get_height(mask), ink, 3, &colour)) goto done;
    if (vips_bandjoin2(colour, mask, &joined, NULL)) goto done;
    rc = vips_copy(joined, out, "interpretation", VIPS_INTERPRETATION_sRGB, NULL);
done:
    if (mask) g_object_unref(mask);
    if (colour) g_object_unref(colour);
    if (joined) g_object_unref(joined);
    return rc;
}

int cvips_with_rect(VipsImage *in, const double *ink, int n, int x, int y, int width, int height, int fill,
                    VipsImage **out) {
    *out = vips_image_copy_memory(in);
    if (!*out) return -1;
    if (vips_draw_rect(*out, (double *) ink, n, x, y, width, height, "fill", fill ? TRUE : FALSE, NULL)) {
        g_object_unref(*out);
        *out = NULL;
        return -1;
    }
    return 0;
}

int cvips_save_animated(VipsImage **frames, int n, int delay_ms, int loop, int format, int quality,
                        const char *filename) {
    if (n <= 0) {
        vips_error("cvips_save_animated", "no frames");
        return -1;
    }
    int height = vips_image_get_height(frames[0]);
    VipsImage *joined = NULL, *tagged = NULL;
    int rc = -1;
    if (vips_arrayjoin(frames, &joined, n, "across", 1, NULL)) goto done;
    if (vips_copy(joined, &tagged, NULL)) goto done;
    vips_image_set_int(tagged, "page-height", height);
    vips_image_set_int(tagged, "loop", loop);
    int *delays = g_new(int, n);
    for (int i = 0; i < n; i++) delays[i] = delay_ms;
    vips_image_set_array_int(tagged, "delay", delays, n);
    g_free(delays);
    if (format == 2)
        rc = vips_webpsave(tagged, filename, "Q", quality, "strip", TRUE, NULL);
    else if (format == 4)
        rc = vips_gifsave(tagged, filename, NULL);
    else
        vips_error("cvips_save_animated", "format %d cannot be animated", format);
done:
    if (joined) g_object_unref(joined);
    if (tagged) g_object_unref(tagged);
    return rc;
}
