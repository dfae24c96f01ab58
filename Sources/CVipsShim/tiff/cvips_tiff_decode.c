#include "cvips_tiff_decode.h"

#include <stdlib.h>
#include <string.h>
#include <tiffio.h>
#include <vips/vips.h>

/* libtiff's error and warning handlers for this decode alone (not libvips's global ones):
 * the message goes to libvips's error buffer, and any warning fails the decode too (libvips's
 * loader then decides). `user_data` counts the reports. */
static int tiff_reported(TIFF *tif, void *user_data, const char *module, const char *format, va_list ap) {
    (void) tif;
    char message[256];
    vsnprintf(message, sizeof message, format, ap);
    vips_error("cvips_tiff", "%s: %s", module ? module : "libtiff", message);
    (*(int *) user_data)++;
    return 1;
}

/* The layout of the current directory when it is one this decode takes: `*bilevel` for one
 * bit a sample; 1 when it is not (see cvips_tiff_decode_into). */
static int tiff_layout(TIFF *tif, int width, int height, int bands, int *bilevel) {
    uint32_t w = 0, h = 0, icc_size = 0;
    uint16_t depth = 1, samples = 1, photometric = 0, planar = PLANARCONFIG_CONTIG, format = SAMPLEFORMAT_UINT;
    uint16_t compression = COMPRESSION_NONE, extra = 0, *extra_types = NULL;
    void *icc = NULL;
    if (TIFFIsTiled(tif) || !TIFFGetField(tif, TIFFTAG_IMAGEWIDTH, &w) || !TIFFGetField(tif, TIFFTAG_IMAGELENGTH, &h) ||
        !TIFFGetField(tif, TIFFTAG_PHOTOMETRIC, &photometric))
        return 1;
    TIFFGetFieldDefaulted(tif, TIFFTAG_BITSPERSAMPLE, &depth);
    TIFFGetFieldDefaulted(tif, TIFFTAG_SAMPLESPERPIXEL, &samples);
    TIFFGetFieldDefaulted(tif, TIFFTAG_PLANARCONFIG, &planar);
    TIFFGetFieldDefaulted(tif, TIFFTAG_SAMPLEFORMAT, &format);
    TIFFGetFieldDefaulted(tif, TIFFTAG_COMPRESSION, &compression);
    TIFFGetFieldDefaulted(tif, TIFFTAG_EXTRASAMPLES, &extra, &extra_types);
    if ((int) w != width || (int) h != height || format != SAMPLEFORMAT_UINT || extra != 0 ||
        compression == COMPRESSION_JPEG || compression == COMPRESSION_OJPEG ||
        TIFFGetField(tif, TIFFTAG_ICCPROFILE, &icc_size, &icc))
        return 1;
    if (planar != PLANARCONFIG_CONTIG && samples > 1) return 1;
    *bilevel = depth == 1;
    if (bands == 1 && samples == 1 && depth == 1)
        return photometric == PHOTOMETRIC_MINISWHITE || photometric == PHOTOMETRIC_MINISBLACK ? 0 : 1;
    if (bands == 1 && samples == 1 && depth == 8) return photometric == PHOTOMETRIC_MINISBLACK ? 0 : 1;
    if (bands == 3 && samples == 3 && depth == 8) return photometric == PHOTOMETRIC_RGB ? 0 : 1;
    return 1;
}

/* One packed one-bit row (most significant bit first) as 8-bit grey from a table of each
 * byte's eight pixels (vips_tiffload's rtiff_onebit_line, a pixel at a time there). */
static void bilevel_row(const unsigned char *packed, unsigned char *row, int width, const unsigned char (*pixels)[8]) {
    int x = 0;
    for (; x + 8 <= width; x += 8) memcpy(row + x, pixels[packed[x >> 3]], 8);
    for (; x < width; x++) row[x] = pixels[packed[x >> 3]][x & 7];
}

/* Reads every strip of the current directory into `data`; one-bit strips through `packed`
 * (a strip's bytes), expanded with `pixels`. -1 when a strip comes short. */
static int tiff_strips(TIFF *tif, unsigned char *data, int width, int height, int bands, int bilevel,
                       unsigned char *packed, const unsigned char (*pixels)[8]) {
    const size_t row_bytes = (size_t) width * (size_t) bands, packed_row = ((size_t) width + 7) / 8;
    uint32_t rows_per_strip = 0;
    TIFFGetFieldDefaulted(tif, TIFFTAG_ROWSPERSTRIP, &rows_per_strip);
    if (rows_per_strip == 0 || rows_per_strip > (uint32_t) height) rows_per_strip = (uint32_t) height;
    for (uint32_t y = 0, strip = 0; y < (uint32_t) height; y += rows_per_strip, strip++) {
        const uint32_t rows = VIPS_MIN(rows_per_strip, (uint32_t) height - y);
        const tmsize_t want = (tmsize_t) ((bilevel ? packed_row : row_bytes) * rows);
        unsigned char *to = bilevel ? packed : data + (size_t) y * row_bytes;
        /* The whole strip (size -1), as libvips reads it: with a size, libtiff reads an
         * uncompressed strip straight from its offset and ignores a StripByteCounts that says
         * the strip is shorter or lies beyond the end of the file, where libvips fails. The
         * strip is `want` bytes (the scanline size was checked), so it fits in `to`. */
        if (TIFFVStripSize(tif, rows) != want) {
            vips_error("cvips_tiff", "strip %u has an unexpected size", strip);
            return -1;
        }
        if (TIFFReadEncodedStrip(tif, strip, to, (tmsize_t) -1) != want) {
            vips_error("cvips_tiff", "strip %u is short", strip);
            return -1;
        }
        if (bilevel)
            for (uint32_t r = 0; r < rows; r++)
                bilevel_row(packed + r * packed_row, data + (size_t) (y + r) * row_bytes, width, pixels);
    }
    return 0;
}

int cvips_tiff_decode_into(const char *path, int page, unsigned char *data, int width, int height, int bands) {
    int reports = 0;
    TIFFOpenOptions *options = TIFFOpenOptionsAlloc();
    if (!options) {
        vips_error("cvips_tiff", "out of memory");
        return -1;
    }
    TIFFOpenOptionsSetErrorHandlerExtR(options, tiff_reported, &reports);
    TIFFOpenOptionsSetWarningHandlerExtR(options, tiff_reported, &reports);
    TIFF *tif = TIFFOpenExt(path, "rm", options);
    TIFFOpenOptionsFree(options);
    if (!tif) {
        if (!reports) vips_error("cvips_tiff", "cannot open %s", path);
        return -1;
    }
    int status = -1, bilevel = 0;
    unsigned char *packed = NULL;
    if (page < 0 || !TIFFSetDirectory(tif, (tdir_t) page) || reports) goto done;
    if (tiff_layout(tif, width, height, bands, &bilevel)) {
        status = reports ? -1 : 1;
        goto done;
    }
    if (TIFFScanlineSize(tif) != (tmsize_t) (bilevel ? ((size_t) width + 7) / 8 : (size_t) width * bands)) {
        status = reports ? -1 : 1;
        goto done;
    }
    /* MINISWHITE: a set bit is black. */
    uint16_t photometric = 0;
    TIFFGetField(tif, TIFFTAG_PHOTOMETRIC, &photometric);
    const unsigned char one = photometric == PHOTOMETRIC_MINISBLACK ? 255 : 0;
    unsigned char pixels[256][8];
    for (int byte = 0; byte < 256; byte++)
        for (int bit = 0; bit < 8; bit++) pixels[byte][bit] = (byte >> (7 - bit)) & 1 ? one : (unsigned char) ~one;
    if (bilevel) {
        tmsize_t strip = TIFFStripSize(tif);
        /* Zeroed: a deflate strip whose data inflates to more than the strip decodes without
         * an error yet leaves the strip's tail unwritten, and that tail must not be the heap's
         * leftovers. It reads as zero in the first strip and as the previous strip's bytes
         * after, as libvips's reused strip buffer gives (the frame itself comes zeroed). */
        packed = strip > 0 ? calloc(1, (size_t) strip) : NULL;
        if (!packed) {
            vips_error("cvips_tiff", "out of memory");
            goto done;
        }
    }
    status = tiff_strips(tif, data, width, height, bands, bilevel, packed, (const unsigned char(*)[8]) pixels);
    if (reports) status = -1;
done:
    free(packed);
    TIFFClose(tif);
    return status;
}
