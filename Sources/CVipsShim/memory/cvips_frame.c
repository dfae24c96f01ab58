#include "cvips_frame.h"
#include "cvips_hugemap.h"

#include <stdint.h>
#include <sys/mman.h>
#include <unistd.h>

static void cvips_unmap_frame(VipsImage *image, void *length) {
    (void) image;
    /* The mapping's address is the image's data; its length travels as the callback data. */
    cvips_hugeunmap(image->data, (size_t) length);
}

int cvips_new_frame(int width, int height, int bands, void **data, VipsImage **out) {
    *out = NULL;
    if (width <= 0 || height <= 0 || bands <= 0) {
        vips_error("cvips_new_frame", "bad size %dx%dx%d", width, height, bands);
        return -1;
    }
    size_t length = (size_t) width * (size_t) height * (size_t) bands;
    /* Large pages: a 36 MB frame takes 18 faults instead of 9000 as the decoder fills it. */
    void *buffer = cvips_hugemap(length);
    if (!buffer) {
        vips_error("cvips_new_frame", "out of memory (%zu bytes)", length);
        return -1;
    }
    *out = vips_image_new_from_memory(buffer, length, width, height, bands, VIPS_FORMAT_UCHAR);
    if (!*out) {
        cvips_hugeunmap(buffer, length);
        return -1;
    }
    (*out)->Type = bands >= 3 ? VIPS_INTERPRETATION_sRGB : VIPS_INTERPRETATION_B_W;
    g_signal_connect(*out, "postclose", G_CALLBACK(cvips_unmap_frame), (void *) length);
    *data = buffer;
    return 0;
}

int cvips_frame_release(void *data, size_t offset, size_t length) {
    long page = sysconf(_SC_PAGESIZE);
    uintptr_t start = (uintptr_t) data + offset;
    uintptr_t end = start + length;
    uintptr_t first = (start + (uintptr_t) page - 1) & ~((uintptr_t) page - 1);
    uintptr_t last = end & ~((uintptr_t) page - 1);
    if (last <= first) return 0;
    return madvise((void *) first, last - first, MADV_DONTNEED) == 0 ? 0 : -1;
}

int cvips_streamed(VipsImage *in, VipsImage **out) {
    if (vips_copy(in, out, NULL)) return -1;
    vips_image_set_int(*out, VIPS_META_SEQUENTIAL, 1);
    return 0;
}

void *cvips_memory_pixels(VipsImage *in) {
    if (vips_image_wio_input(in)) return NULL;
    return VIPS_IMAGE_ADDR(in, 0, 0);
}

int cvips_is_memory(const VipsImage *in) {
    return in->dtype == VIPS_IMAGE_SETBUF || in->dtype == VIPS_IMAGE_SETBUF_FOREIGN || in->dtype == VIPS_IMAGE_MMAPIN;
}
