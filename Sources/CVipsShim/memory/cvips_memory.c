#include "cvips_memory.h"

#include "cvips_core.h"

int cvips_write_into(VipsImage *in, void *buffer, size_t length) {
    size_t need = VIPS_IMAGE_SIZEOF_IMAGE(in);
    if (length != need) {
        vips_error("cvips_write_into", "buffer of %zu bytes for an image of %zu", length, need);
        return -1;
    }
    VipsImage *wrap = vips_image_new_from_memory(buffer, length, in->Xsize, in->Ysize, in->Bands, in->BandFmt);
    if (!wrap) return -1;
    int result = vips_image_write(in, wrap);
    g_object_unref(wrap);
    if (result == 0) result = cvips_refuse_failed_pixels(in);
    return result;
}

static void cvips_free_buffer(VipsImage *image, void *buffer) {
    (void) image;
    g_free(buffer);
}

int cvips_new_owned_uchar(int width, int height, int bands, void **data, VipsImage **out) {
    if (width <= 0 || height <= 0 || bands <= 0) {
        vips_error("cvips_new_owned_uchar", "bad size %dx%dx%d", width, height, bands);
        return -1;
    }
    size_t length = (size_t) width * (size_t) height * (size_t) bands;
    void *buffer = g_try_malloc(length);
    if (!buffer) {
        vips_error("cvips_new_owned_uchar", "out of memory (%zu bytes)", length);
        return -1;
    }
    *out = vips_image_new_from_memory(buffer, length, width, height, bands, VIPS_FORMAT_UCHAR);
    if (!*out) {
        g_free(buffer);
        return -1;
    }
    g_signal_connect(*out, "postclose", G_CALLBACK(cvips_free_buffer), buffer);
    *data = buffer;
    return 0;
}
