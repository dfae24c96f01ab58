#include "cvips_jpeg.h"
#include "cvips_jpeg_source.h"
#include "cvips_frame.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <jpeglib.h>

int cvips_jpeg_write_pixels(const char *path, const unsigned char *pixels, int width, int height, int bands,
                            size_t stride, int quality, int optimize, double xdpi, double ydpi) {
    if (width <= 0 || height <= 0 || (bands != 1 && bands != 3) || stride < (size_t) width * bands) {
        vips_error("jpegsave", "%s: cannot encode %dx%d pixels of %d bands", path, width, height, bands);
        return -1;
    }
    /* Everything the jump back must see is volatile or set before setjmp. */
    FILE *volatile file = fopen(path, "wb");
    if (!file) {
        vips_error("jpegsave", "%s: %s", path, strerror(errno));
        return -1;
    }
    struct jpeg_compress_struct cinfo;
    cvips_jpeg_error error;
    cinfo.err = jpeg_std_error(&error.pub);
    error.pub.error_exit = cvips_jpeg_on_error_exit;
    error.pub.emit_message = cvips_jpeg_on_message;
    error.message[0] = '\0';
    jpeg_create_compress(&cinfo);
    if (setjmp(error.escape)) {
        jpeg_destroy_compress(&cinfo);
        fclose(file);
        vips_error("jpegsave", "%s: %s", path, error.message);
        return -1;
    }
    jpeg_stdio_dest(&cinfo, file);
    cinfo.image_width = (JDIMENSION) width;
    cinfo.image_height = (JDIMENSION) height;
    cinfo.input_components = bands;
    cinfo.in_color_space = bands == 3 ? JCS_RGB : JCS_GRAYSCALE;

    /* vips2jpeg.c's order: defaults, Huffman optimisation, quality, then subsampling. */
    jpeg_set_defaults(&cinfo);
    cinfo.optimize_coding = optimize ? TRUE : FALSE;
    jpeg_set_quality(&cinfo, quality, TRUE);
    if (quality >= 90)
        for (int i = 0; i < bands; i++) {
            cinfo.comp_info[i].h_samp_factor = 1;
            cinfo.comp_info[i].v_samp_factor = 1;
        }
    if (xdpi > 0 && ydpi > 0) {
        /* JFIF density in dots per inch: what img2pdf, OCR engines and viewers read. */
        cinfo.write_JFIF_header = TRUE;
        cinfo.density_unit = 1;
        cinfo.X_density = (UINT16) (xdpi > 65535 ? 65535 : xdpi + 0.5);
        cinfo.Y_density = (UINT16) (ydpi > 65535 ? 65535 : ydpi + 0.5);
    } else {
        cinfo.write_JFIF_header = FALSE;
    }
    jpeg_start_compress(&cinfo, TRUE);

    enum { ROWS = 16 };
    JSAMPROW rows[ROWS];
    while (cinfo.next_scanline < cinfo.image_height) {
        JDIMENSION n = 0;
        for (; n < ROWS && cinfo.next_scanline + n < cinfo.image_height; n++)
            rows[n] = (JSAMPROW) (pixels + (size_t) (cinfo.next_scanline + n) * stride);
        jpeg_write_scanlines(&cinfo, rows, n);
    }
    jpeg_finish_compress(&cinfo);
    jpeg_destroy_compress(&cinfo);

    /* A full disc shows up at the flush or the close, not in libjpeg's fwrite calls. */
    int failed = fflush(file) != 0 || ferror(file);
    int saved = errno;
    if (fclose(file) != 0 && !failed) {
        failed = 1;
        saved = errno;
    }
    if (failed) {
        vips_error("jpegsave", "%s: %s", path, strerror(saved));
        return -1;
    }
    return 0;
}

int cvips_jpeg_save_in_thread(VipsImage *in, const char *path, int quality, int optimize, double xdpi, double ydpi) {
    int plain = cvips_is_memory(in) && in->BandFmt == VIPS_FORMAT_UCHAR && in->Coding == VIPS_CODING_NONE &&
                ((in->Bands == 3 && in->Type == VIPS_INTERPRETATION_sRGB) ||
                 (in->Bands == 1 && in->Type == VIPS_INTERPRETATION_B_W));
    if (!plain) return 1;
    const unsigned char *pixels = cvips_memory_pixels(in);
    if (!pixels) return -1;
    return cvips_jpeg_write_pixels(path, pixels, in->Xsize, in->Ysize, in->Bands, (size_t) VIPS_IMAGE_SIZEOF_LINE(in),
                                   quality, optimize, xdpi, ydpi);
}
