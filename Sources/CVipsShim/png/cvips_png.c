#include "cvips_png.h"

#include <errno.h>
#include <png.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
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
 * does not take the file (see cvips_png_decode_into). Sets `*bilevel` for a one-bit grey image
 * read row by row: its packed rows are left for `bilevel_row` to expand. */
static int png_expand(png_structp png, png_infop info, int width, int height, int bands, int *bilevel) {
    png_uint_32 w, h;
    int depth, colour, interlace;
    png_get_IHDR(png, info, &w, &h, &depth, &colour, &interlace, NULL, NULL);
    *bilevel = 0;
    if ((int) w != width || (int) h != height || depth > 8) return 1;
    if (png_get_valid(png, info, PNG_INFO_tRNS) || png_get_valid(png, info, PNG_INFO_iCCP)) return 1;
    if (colour == PNG_COLOR_TYPE_GRAY && bands == 1) {
        *bilevel = depth == 1 && interlace == PNG_INTERLACE_NONE;
        if (depth < 8 && !*bilevel) png_set_expand_gray_1_2_4_to_8(png);
    } else if (colour == PNG_COLOR_TYPE_PALETTE && bands == 3) {
        png_set_palette_to_rgb(png);
    } else if (colour != PNG_COLOR_TYPE_RGB || bands != 3) {
        return 1;
    }
    return 0;
}

/* One packed one-bit row (most significant bit first) as 8-bit grey, 0 or 255, the bytes
 * png_set_expand_gray_1_2_4_to_8 gives: libpng expands a pixel at a time, this eight at a time
 * from a table of each byte's eight pixels. */
static void bilevel_row(const unsigned char *packed, unsigned char *row, int width, const unsigned char (*pixels)[8]) {
    int x = 0;
    for (; x + 8 <= width; x += 8) memcpy(row + x, pixels[packed[x >> 3]], 8);
    for (; x < width; x++) row[x] = pixels[packed[x >> 3]][x & 7];
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
    unsigned char *volatile packed = NULL;
    if (!info) {
        vips_error("cvips_png", "out of memory");
        goto done;
    }
    if (setjmp(png_jmpbuf(png))) goto done;
    png_init_io(png, file);
    png_read_info(png, info);
    int bilevel;
    if (png_expand(png, info, width, height, bands, &bilevel)) {
        status = 1;
        goto done;
    }
    int passes = png_set_interlace_handling(png);
    png_read_update_info(png, info);
    size_t row_bytes = (size_t) width * (size_t) bands;
    if (png_get_rowbytes(png, info) != (bilevel ? ((size_t) width + 7) / 8 : row_bytes)) {
        status = 1;
        goto done;
    }
    if (bilevel) {
        unsigned char pixels[256][8];
        for (int byte = 0; byte < 256; byte++)
            for (int bit = 0; bit < 8; bit++) pixels[byte][bit] = (byte >> (7 - bit)) & 1 ? 255 : 0;
        packed = malloc(((size_t) width + 7) / 8);
        if (!packed) {
            vips_error("cvips_png", "out of memory");
            goto done;
        }
        for (int y = 0; y < height; y++) {
            png_read_row(png, packed, NULL);
            bilevel_row(packed, data + (size_t) y * row_bytes, width, (const unsigned char(*)[8]) pixels);
        }
    } else {
        /* Interlaced passes each add their pixels to the rows already written. */
        for (int pass = 0; pass < passes; pass++)
            for (int y = 0; y < height; y++) png_read_row(png, data + (size_t) y * row_bytes, NULL);
    }
    png_read_end(png, NULL);
    status = 0;
done:
    free(packed);
    png_destroy_read_struct(png ? &png : NULL, info ? &info : NULL, NULL);
    fclose(file);
    return status;
}
