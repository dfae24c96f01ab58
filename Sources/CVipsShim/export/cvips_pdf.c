/* cvips_pdf.c: PDF documents with cairo's PDF surface (see cvips_pdf.h).
 *
 * Why cairo: libvips already links it (its PDF and SVG loaders and text rendering use it), so it
 * adds no new library; it streams pages to the file as they are finished; and it embeds a JPEG's
 * own bytes when the image surface carries them as CAIRO_MIME_TYPE_JPEG. The pixels of such a
 * surface are never read: they stay the untouched zero pages of calloc, so a page costs its JPEG's
 * size in memory, not its pixel count. */
#include "cvips_pdf.h"

#include <cairo.h>
#include <cairo-pdf.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct cvips_pdf {
    cairo_surface_t *surface;
    cairo_t *cr;
    int pages;
    int failed;
};

/* Records cairo's status in libvips's error buffer; returns -1 when it is an error. */
static int check_cairo(cvips_pdf *pdf, cairo_status_t status, const char *what) {
    if (status == CAIRO_STATUS_SUCCESS) return 0;
    vips_error("pdf", "%s: %s", what, cairo_status_to_string(status));
    if (pdf) pdf->failed = 1;
    return -1;
}

cvips_pdf *cvips_pdf_open(const char *path) {
    /* The size is set again for every page (cairo_pdf_surface_set_size). */
    cairo_surface_t *surface = cairo_pdf_surface_create(path, 595.0, 842.0);
    if (check_cairo(NULL, cairo_surface_status(surface), path)) {
        cairo_surface_destroy(surface);
        return NULL;
    }
    cairo_pdf_surface_restrict_to_version(surface, CAIRO_PDF_VERSION_1_5);
    cvips_pdf *pdf = calloc(1, sizeof(*pdf));
    if (!pdf) {
        cairo_surface_destroy(surface);
        vips_error("pdf", "%s: out of memory", path);
        return NULL;
    }
    pdf->surface = surface;
    pdf->cr = cairo_create(surface);
    if (check_cairo(pdf, cairo_status(pdf->cr), path)) {
        cairo_destroy(pdf->cr);
        cairo_surface_destroy(surface);
        free(pdf);
        return NULL;
    }
    return pdf;
}

int cvips_pdf_set_info(cvips_pdf *pdf, const char *title, const char *author, const char *subject,
                       const char *creator, const char *create_date) {
    if (title) cairo_pdf_surface_set_metadata(pdf->surface, CAIRO_PDF_METADATA_TITLE, title);
    if (author) cairo_pdf_surface_set_metadata(pdf->surface, CAIRO_PDF_METADATA_AUTHOR, author);
    if (subject) cairo_pdf_surface_set_metadata(pdf->surface, CAIRO_PDF_METADATA_SUBJECT, subject);
    if (creator) cairo_pdf_surface_set_metadata(pdf->surface, CAIRO_PDF_METADATA_CREATOR, creator);
    /* cairo stamps every file with the current time; a date it cannot parse ("") clears it
     * (cairo-pdf-interchange.c: iso8601_to_pdf_date_string returns NULL, and a NULL date is
     * not written), so the default file holds no date and two runs are byte-identical. */
    cairo_pdf_surface_set_metadata(pdf->surface, CAIRO_PDF_METADATA_CREATE_DATE, create_date ? create_date : "");
    return check_cairo(pdf, cairo_surface_status(pdf->surface), "document information");
}

/* Paints `image` (pixel_width x pixel_height) into the placement rect and finishes the page. */
static int paint_page(cvips_pdf *pdf, cairo_surface_t *image, int pixel_width, int pixel_height,
                      const cvips_pdf_placement *p) {
    cairo_pdf_surface_set_size(pdf->surface, p->page_width, p->page_height);
    cairo_t *cr = pdf->cr;
    cairo_save(cr);
    /* White paper where the image does not cover the page (a fitted page's margins). */
    if (p->x > 0 || p->y > 0 || p->x + p->width < p->page_width || p->y + p->height < p->page_height) {
        cairo_set_source_rgb(cr, 1, 1, 1);
        cairo_paint(cr);
    }
    cairo_translate(cr, p->x, p->y);
    cairo_scale(cr, p->width / pixel_width, p->height / pixel_height);
    cairo_set_source_surface(cr, image, 0, 0);
    cairo_paint(cr);
    cairo_restore(cr);
    cairo_show_page(cr);
    pdf->pages += 1;
    return check_cairo(pdf, cairo_status(cr), "page");
}

static int bad_placement(const cvips_pdf_placement *p, int pixel_width, int pixel_height) {
    return pixel_width <= 0 || pixel_height <= 0 || !(p->page_width > 0) || !(p->page_height > 0)
        || !(p->width > 0) || !(p->height > 0) || p->page_width > 14400 || p->page_height > 14400;
}

int cvips_pdf_add_jpeg_page(cvips_pdf *pdf, const char *path, int pixel_width, int pixel_height,
                            const cvips_pdf_placement *placement) {
    if (bad_placement(placement, pixel_width, pixel_height)) {
        vips_error("pdf", "%s: no page size for %dx%d pixels", path, pixel_width, pixel_height);
        return -1;
    }
    FILE *file = fopen(path, "rb");
    if (!file) {
        vips_error("pdf", "%s: %s", path, strerror(errno));
        return -1;
    }
    unsigned char *bytes = NULL;
    long length = -1;
    if (fseek(file, 0, SEEK_END) == 0 && (length = ftell(file)) > 0 && fseek(file, 0, SEEK_SET) == 0
        && (bytes = malloc((size_t) length)) && fread(bytes, 1, (size_t) length, file) != (size_t) length) {
        free(bytes);
        bytes = NULL;
    }
    fclose(file);
    if (!bytes) {
        vips_error("pdf", "%s: cannot be read", path);
        return -1;
    }
    cairo_surface_t *image = cairo_image_surface_create(CAIRO_FORMAT_RGB24, pixel_width, pixel_height);
    if (check_cairo(pdf, cairo_surface_status(image), path)) {
        free(bytes);
        cairo_surface_destroy(image);
        return -1;
    }
    /* cairo owns `bytes` from here and frees them with the surface, after the page is written. */
    cairo_status_t status = cairo_surface_set_mime_data(image, CAIRO_MIME_TYPE_JPEG, bytes,
                                                        (unsigned long) length, free, bytes);
    if (status != CAIRO_STATUS_SUCCESS) {
        free(bytes);
        cairo_surface_destroy(image);
        return check_cairo(pdf, status, path);
    }
    int result = paint_page(pdf, image, pixel_width, pixel_height, placement);
    cairo_surface_destroy(image);
    return result;
}

int cvips_pdf_add_image_page(cvips_pdf *pdf, VipsImage *in, const cvips_pdf_placement *placement) {
    int width = in->Xsize, height = in->Ysize, bands = in->Bands;
    if (bad_placement(placement, width, height)) {
        vips_error("pdf", "no page size for %dx%d pixels", width, height);
        return -1;
    }
    if (in->BandFmt != VIPS_FORMAT_UCHAR || (bands != 1 && bands != 3)) {
        vips_error("pdf", "a page image must be 8-bit grey or RGB, not %d bands of format %d", bands, in->BandFmt);
        return -1;
    }
    cairo_surface_t *image = cairo_image_surface_create(CAIRO_FORMAT_RGB24, width, height);
    if (check_cairo(pdf, cairo_surface_status(image), "page image")) {
        cairo_surface_destroy(image);
        return -1;
    }
    cairo_surface_flush(image);
    unsigned char *data = cairo_image_surface_get_data(image);
    int stride = cairo_image_surface_get_stride(image);
    /* Strips of rows through a region, so the libvips pipeline streams into cairo's pixels. */
    VipsRegion *region = vips_region_new(in);
    int failed = region == NULL;
    enum { STRIP = 128 };
    for (int top = 0; !failed && top < height; top += STRIP) {
        VipsRect rect = { 0, top, width, VIPS_MIN(STRIP, height - top) };
        if (vips_region_prepare(region, &rect)) { failed = 1; break; }
        for (int y = rect.top; y < rect.top + rect.height; y++) {
            const unsigned char *src = (const unsigned char *) VIPS_REGION_ADDR(region, 0, y);
            uint32_t *dst = (uint32_t *) (data + (size_t) y * stride);
            if (bands == 3)
                for (int x = 0; x < width; x++, src += 3)
                    dst[x] = ((uint32_t) src[0] << 16) | ((uint32_t) src[1] << 8) | src[2];
            else
                for (int x = 0; x < width; x++)
                    dst[x] = ((uint32_t) src[x] << 16) | ((uint32_t) src[x] << 8) | src[x];
        }
    }
    if (region) g_object_unref(region);
    if (failed) {
        cairo_surface_destroy(image);
        return -1;
    }
    cairo_surface_mark_dirty(image);
    int result = paint_page(pdf, image, width, height, placement);
    cairo_surface_destroy(image);
    return result;
}

int cvips_pdf_add_outline(cvips_pdf *pdf, const char *title, int page) {
    char link[48];
    snprintf(link, sizeof link, "page=%d pos=[0 0]", page);
    cairo_pdf_surface_add_outline(pdf->surface, CAIRO_PDF_OUTLINE_ROOT, title, link, 0);
    return check_cairo(pdf, cairo_surface_status(pdf->surface), "bookmark");
}

int cvips_pdf_close(cvips_pdf *pdf) {
    if (!pdf) return -1;
    cairo_destroy(pdf->cr);
    cairo_surface_finish(pdf->surface);
    int failed = pdf->failed | check_cairo(pdf, cairo_surface_status(pdf->surface), "finishing the PDF");
    cairo_surface_destroy(pdf->surface);
    free(pdf);
    return failed ? -1 : 0;
}
