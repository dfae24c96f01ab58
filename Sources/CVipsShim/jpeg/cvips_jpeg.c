#include "cvips_jpeg.h"
#include "cvips_jpeg_skip.h"
#include "cvips_jpeg_source.h"

#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <jpeglib.h>

void cvips_jpeg_on_error_exit(j_common_ptr cinfo) {
    cvips_jpeg_error *error = (cvips_jpeg_error *) cinfo->err;
    (*cinfo->err->format_message)(cinfo, error->message);
    longjmp(error->escape, 1);
}

/* Warnings (corrupt data the decoder can step over) are not errors, as with libvips's
 * fail_on=truncated; running out of data is noticed by the source below. */
void cvips_jpeg_on_message(j_common_ptr cinfo, int level) {
    (void) cinfo;
    (void) level;
}

void cvips_jpeg_source_init(j_decompress_ptr cinfo) { (void) cinfo; }

boolean cvips_jpeg_source_fill(j_decompress_ptr cinfo) {
    cvips_jpeg_source *src = (cvips_jpeg_source *) cinfo->src;
    ssize_t n;
    do {
        n = read(src->fd, src->buffer, SOURCE_BUFFER);
    } while (n < 0 && errno == EINTR);
    if (n <= 0) {
        /* Out of data before the end of the image: insert an EOI so libjpeg stops cleanly,
         * and remember, so the image is refused as truncated. */
        static const JOCTET eoi[2] = {0xFF, JPEG_EOI};
        src->truncated = 1;
        src->pub.next_input_byte = eoi;
        src->pub.bytes_in_buffer = 2;
        return TRUE;
    }
    src->pub.next_input_byte = src->buffer;
    src->pub.bytes_in_buffer = (size_t) n;
    return TRUE;
}

void cvips_jpeg_source_skip(j_decompress_ptr cinfo, long count) {
    cvips_jpeg_source *src = (cvips_jpeg_source *) cinfo->src;
    while (count > 0) {
        if ((size_t) count <= src->pub.bytes_in_buffer) {
            src->pub.next_input_byte += count;
            src->pub.bytes_in_buffer -= (size_t) count;
            return;
        }
        count -= (long) src->pub.bytes_in_buffer;
        src->pub.bytes_in_buffer = 0;
        cvips_jpeg_source_fill(cinfo);
        if (src->truncated) return;
    }
}

void cvips_jpeg_source_term(j_decompress_ptr cinfo) { (void) cinfo; }

cvips_jpeg_source *cvips_jpeg_open_source(const char *path) {
    cvips_jpeg_source *src = g_try_malloc(sizeof(cvips_jpeg_source));
    if (!src) {
        vips_error("cvips_jpeg", "out of memory");
        return NULL;
    }
    src->fd = open(path, O_RDONLY | O_CLOEXEC);
    if (src->fd < 0) {
        vips_error("cvips_jpeg", "cannot open: %s", strerror(errno));
        g_free(src);
        return NULL;
    }
    src->truncated = 0;
    return src;
}

void cvips_jpeg_init_error(j_decompress_ptr cinfo, cvips_jpeg_error *error) {
    cinfo->err = jpeg_std_error(&error->pub);
    error->pub.error_exit = cvips_jpeg_on_error_exit;
    error->pub.emit_message = cvips_jpeg_on_message;
}

void cvips_jpeg_attach_source(j_decompress_ptr cinfo, cvips_jpeg_source *src) {
    src->pub.init_source = cvips_jpeg_source_init;
    src->pub.fill_input_buffer = cvips_jpeg_source_fill;
    src->pub.skip_input_data = cvips_jpeg_source_skip;
    src->pub.resync_to_restart = jpeg_resync_to_restart;
    src->pub.term_source = cvips_jpeg_source_term;
    src->pub.bytes_in_buffer = 0;
    src->pub.next_input_byte = NULL;
    cinfo->src = &src->pub;
}

/* 1 when an APP2 marker carries (a chunk of) an ICC profile. */
int cvips_jpeg_has_icc_profile(j_decompress_ptr cinfo) {
    for (jpeg_saved_marker_ptr m = cinfo->marker_list; m; m = m->next) {
        if (m->marker == JPEG_APP0 + 2 && m->data_length >= 12 && memcmp(m->data, "ICC_PROFILE", 12) == 0) return 1;
    }
    return 0;
}

/* The one decoder behind both entry points: into a new memory image (`out`), or into the
 * caller's `into` buffer of `into_width` x `into_height` x `into_bands` bytes, in which case a
 * file that is not exactly that (another size, an ICC profile to honour) is declined. */
static int decode(const char *path, int shrink, int *skipped, VipsImage **out, unsigned char *into, int into_width,
                  int into_height, int into_bands) {
    if (out) *out = NULL;
    if (shrink != 1 && shrink != 2 && shrink != 4 && shrink != 8) {
        vips_error("cvips_jpeg", "shrink %d is not 1, 2, 4 or 8", shrink);
        return -1;
    }
    cvips_jpeg_source *src = cvips_jpeg_open_source(path);
    if (!src) return -1;

    struct jpeg_decompress_struct cinfo;
    cvips_jpeg_error error;
    cvips_jpeg_init_error(&cinfo, &error);
    /* Everything the jump may skip over is declared before setjmp. */
    VipsImage *volatile image = NULL;
    skipper *volatile skipping = NULL;
    volatile int status = -1;
    jpeg_create_decompress(&cinfo);
    if (setjmp(error.escape)) {
        vips_error("cvips_jpeg", "%s", error.message);
        goto done;
    }
    cvips_jpeg_attach_source(&cinfo, src);
    jpeg_save_markers(&cinfo, JPEG_APP0 + 2, 0xFFFF);
    jpeg_read_header(&cinfo, TRUE);

    int bands;
    switch (cinfo.jpeg_color_space) {
    case JCS_GRAYSCALE:
        cinfo.out_color_space = JCS_GRAYSCALE;
        bands = 1;
        break;
    case JCS_YCbCr:
    case JCS_RGB:
        cinfo.out_color_space = JCS_RGB;
        bands = 3;
        break;
    default:
        status = 1;
        goto done; /* CMYK, YCCK: libvips inverts and transforms them */
    }
    if (into && cvips_jpeg_has_icc_profile(&cinfo)) {
        status = 1;
        goto done;
    }
    cinfo.scale_num = 1;
    cinfo.scale_denom = (unsigned int) shrink;
    jpeg_calc_output_dimensions(&cinfo);
    if (into &&
        ((int) cinfo.output_width != into_width || (int) cinfo.output_height != into_height || bands != into_bands)) {
        status = 1;
        goto done;
    }
    jpeg_start_decompress(&cinfo);
    if (skipped && shrink == 8 && cvips_jpeg_skip_plain(&cinfo)) skipping = cvips_jpeg_skip_install(&cinfo);

    unsigned char *pixels;
    if (into) {
        pixels = into;
    } else {
        image = vips_image_new_memory();
        vips_image_init_fields(image, (int) cinfo.output_width, (int) cinfo.output_height, bands, VIPS_FORMAT_UCHAR,
                               VIPS_CODING_NONE, bands == 1 ? VIPS_INTERPRETATION_B_W : VIPS_INTERPRETATION_sRGB, 1.0,
                               1.0);
        if (vips_image_write_prepare(image)) goto done;
        pixels = VIPS_IMAGE_ADDR(image, 0, 0);
        /* The profile travels with the pixels: the caller converts them to sRGB through it. */
        if (cvips_jpeg_has_icc_profile(&cinfo)) {
            JOCTET *profile = NULL;
            unsigned int length = 0;
            if (jpeg_read_icc_profile(&cinfo, &profile, &length) && profile) {
                vips_image_set_blob_copy(image, VIPS_META_ICC_NAME, profile, length);
                free(profile);
            }
        }
    }
    /* Whole row groups at a time (an MCU row is up to 16 lines): fewer passes through
     * libjpeg's output buffering than a line per call. */
    size_t stride = (size_t) cinfo.output_width * (size_t) bands;
    while (cinfo.output_scanline < cinfo.output_height && !src->truncated &&
           !(skipping && cvips_jpeg_skip_failed(skipping))) {
        JSAMPROW rows[16];
        unsigned int count = cinfo.output_height - cinfo.output_scanline;
        if (count > 16) count = 16;
        for (unsigned int i = 0; i < count; i++) rows[i] = pixels + (size_t) (cinfo.output_scanline + i) * stride;
        jpeg_read_scanlines(&cinfo, rows, count);
    }
    /* The skipper tops its bits up at other moments than libjpeg's decoder, so on a file that
     * ends early (its EOI missing, say) one of them can run out of data where the other has
     * every block: any end of data met with the skipper is left to libjpeg alone to judge. */
    if (skipping && (cvips_jpeg_skip_failed(skipping) || src->truncated)) {
        status = 2;
        goto done;
    }
    if (src->truncated) {
        vips_error("cvips_jpeg", "premature end of JPEG image (the file is truncated)");
        goto done;
    }
    jpeg_finish_decompress(&cinfo);
    if (skipping && src->truncated) {
        status = 2;
        goto done;
    }
    if (skipping) *skipped = 1;
    status = 0;
done:
    jpeg_destroy_decompress(&cinfo);
    g_free(skipping);
    close(src->fd);
    g_free(src);
    if (status == 0 && out)
        *out = image;
    else if (image)
        g_object_unref(image);
    return status;
}

int cvips_jpeg_load_scaled(const char *path, int shrink, VipsImage **out) {
    int skipped = 0;
    return cvips_jpeg_load_scaled_by(path, shrink, &skipped, out);
}

int cvips_jpeg_load_scaled_by(const char *path, int shrink, int *skipped, VipsImage **out) {
    if (skipped) *skipped = 0;
    /* At 1/8 the skipper decodes; a file it gives up on is decoded again by libjpeg alone. */
    int status = decode(path, shrink, skipped, out, NULL, 0, 0, 0);
    return status == 2 ? decode(path, shrink, NULL, out, NULL, 0, 0, 0) : status;
}

int cvips_jpeg_source_buffer_bytes(void) { return SOURCE_BUFFER; }

int cvips_jpeg_decode_into(const char *path, unsigned char *data, int width, int height, int bands) {
    return decode(path, 1, NULL, NULL, data, width, height, bands);
}
