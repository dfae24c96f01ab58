/*
 * CVipsShim: zlib deflate and libvips's named ICC profiles, for the PDF writer.
 */
#include "cvips_deflate.h"

#include <string.h>
#include <vips/vips.h>
#include <zlib.h>

unsigned char *cvips_deflate(const unsigned char *bytes, size_t length, int level, size_t *out_length) {
    uLongf bound = compressBound((uLong) length);
    unsigned char *out = g_try_malloc(bound > 0 ? bound : 1);
    if (!out) return NULL;
    if (compress2(out, &bound, bytes, (uLong) length, level < 0 || level > 9 ? 6 : level) != Z_OK) {
        g_free(out);
        return NULL;
    }
    *out_length = bound;
    return out;
}

unsigned char *cvips_profile_bytes(const char *name, size_t *out_length) {
    VipsBlob *blob = NULL;
    if (vips_profile_load(name, &blob, NULL) || !blob) return NULL;
    size_t length = 0;
    const void *data = vips_blob_get(blob, &length);
    unsigned char *copy = length > 0 ? g_try_malloc(length) : NULL;
    if (copy) {
        memcpy(copy, data, length);
        *out_length = length;
    } else {
        vips_error("profile", "%s", "empty profile or out of memory");
    }
    vips_area_unref(VIPS_AREA(blob));
    return copy;
}
