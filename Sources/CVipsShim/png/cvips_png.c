#include "cvips_png.h"

#include <errno.h>
#include <png.h>
#include <setjmp.h>
#include <stdio.h>
#include <vips/vips.h>

/* The file's stdio buffer: a few reads for a whole scan, and below the allocator's mmap
 * threshold (VIPSRuntime.defaultMmapThreshold) so it comes from the heap. */
enum { READ_BUFFER = 64 << 10 };

/* libpng's error and warning handlers: the message goes to libvips's error buffer, not to
 * stderr, and any warning fails the decode too (libvips's loader then decides). */
static void png_failed(png_structp png, png_const_charp message) {
    vips_error("cvips_png", "%s", message);
    png_longjmp(png, 1);
}

static void png_warned(png_structp png, png_const_charp message) { png_failed(png, message); }

/* Sets up `png` to expand the image to `bands` 8-bit bands as vips_pngload does; 1 when it
 * does not take the file (see cvips_png_decode_into). */
static int png_expand(png_structp png, png_infop info, int width, int height, int bands) {
    png_uint_32 w, h;
    int depth, colour, interlace;
    png_get_IHDR(png, info, &w, &h, &depth, &colour, &interlace, NULL, NULL);
    if ((int) w != width || (int) h != height || depth > 8) return 1;
    if (png_get_valid(png, info, PNG_INFO_tRNS) || png_get_valid(png, info, PNG_INFO_iCCP)) return 1;
    if (colour == PNG_COLOR_TYPE_GRAY && bands == 1) {
        if (depth < 8) png_set_expand_gray_1_2_4_to_8(png);
    } else if (colour == PNG_COLOR_TYPE_PALETTE && bands == 3) {
        png_set_palette_to_rgb(png);
    } else if (colour != PNG_COLOR_TYPE_RGB || bands != 3) {
        return 1;
    }
    return 0;
}

int cvips_png_decode_into(const char *path, unsigned char *data, int width, int height, int bands) {
    FILE *file = fopen(path, "rb");
    if (!file) {
        vips_error_system(errno, "cvips_png", "cannot open %s", path);
        return -1;
    }
    setvbuf(file, NULL, _IOFBF, READ_BUFFER);
    png_structp png = png_create_read_struct(PNG_LIBPNG_VER_STRING, NULL, png_failed, png_warned);
    png_infop info = png ? png_create_info_struct(png) : NULL;
    volatile int status = -1;
    if (!info) {
        vips_error("cvips_png", "out of memory");
        goto done;
    }
    if (setjmp(png_jmpbuf(png))) goto done;
    png_init_io(png, file);
    png_read_info(png, info);
    if (png_expand(png, info, width, height, bands)) {
        status = 1;
        goto done;
    }
    int passes = png_set_interlace_handling(png);
    png_read_update_info(png, info);
    size_t row_bytes = (size_t) width * (size_t) bands;
    if (png_get_rowbytes(png, info) != row_bytes) {
        status = 1;
        goto done;
    }
    /* Interlaced passes each add their pixels to the rows already written. */
    for (int pass = 0; pass < passes; pass++)
        for (int y = 0; y < height; y++) png_read_row(png, data + (size_t) y * row_bytes, NULL);
    png_read_end(png, NULL);
    status = 0;
done:
    png_destroy_read_struct(png ? &png : NULL, info ? &info : NULL, NULL);
    fclose(file);
    return status;
}
