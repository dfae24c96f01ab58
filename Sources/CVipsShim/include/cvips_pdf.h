#ifndef QUIRE_CVIPS_PDF_H
#define QUIRE_CVIPS_PDF_H

#include <stddef.h>
#include <vips/vips.h>

/* ---- PDF documents with cairo ------------------------------------------------------------
 *
 * A PDF written one page at a time with cairo's PDF surface: each page's image is written to
 * the file when the page is finished, so memory holds one page, whatever the page count.
 * JPEG pages keep their bytes (cairo's CAIRO_MIME_TYPE_JPEG pass-through: a DCTDecode stream
 * that is the file itself); other images are embedded losslessly (Flate). */

typedef struct cvips_pdf cvips_pdf;

/* Where one page's image goes: the page size and the image's rect on it, in PDF points
 * (1/72 inch), y down from the top-left corner. */
typedef struct {
    double page_width, page_height;
    double x, y, width, height;
} cvips_pdf_placement;

/* Starts a PDF at `path` (created or truncated). NULL on failure, with the reason in
 * libvips's error buffer. */
cvips_pdf *cvips_pdf_open(const char *path);

/* Document information: any argument may be NULL. `create_date` is ISO 8601
 * ("2026-11-24T21:00:00Z"); when NULL the file has no creation date at all, so two runs over the
 * same pages give identical bytes. Call before the first page. */
int cvips_pdf_set_info(cvips_pdf *pdf, const char *title, const char *author, const char *subject,
                       const char *creator, const char *create_date);

/* Adds a page showing the JPEG file at `path`, whose pixel size is `pixel_width` x
 * `pixel_height`, embedded byte for byte. The file's bytes are read here and released when the
 * page is finished. */
int cvips_pdf_add_jpeg_page(cvips_pdf *pdf, const char *path, int pixel_width, int pixel_height,
                            const cvips_pdf_placement *placement);

/* Adds a page showing `image` (8-bit, 1 or 3 bands, no alpha), embedded losslessly. */
int cvips_pdf_add_image_page(cvips_pdf *pdf, VipsImage *image, const cvips_pdf_placement *placement);

/* A top-level bookmark titled `title` (UTF-8) that opens page `page` (from 1). */
int cvips_pdf_add_outline(cvips_pdf *pdf, const char *title, int page);

/* Finishes the file and frees `pdf`; -1 when anything failed on the way (the file is then
 * incomplete: the caller writes to a temporary name and removes it). */
int cvips_pdf_close(cvips_pdf *pdf);

#endif
