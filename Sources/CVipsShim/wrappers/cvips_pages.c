/*
 * CVipsShim pages: building multi-page images (a vertical strip of equal pages with
 * "page-height" set), the layout libvips uses for multi-page TIFF, GIF and WebP.
 */
#include "cvips_pages.h"

int cvips_join_pages(VipsImage **pages, int n, VipsImage **out) {
    *out = NULL;
    if (n < 1) {
        vips_error("cvips_join_pages", "no pages");
        return -1;
    }
    int width = vips_image_get_width(pages[0]), height = vips_image_get_height(pages[0]);
    for (int i = 1; i < n; i++) {
        if (vips_image_get_width(pages[i]) != width || vips_image_get_height(pages[i]) != height) {
            vips_error("cvips_join_pages", "page %d is %dx%d, page 1 is %dx%d", i + 1, vips_image_get_width(pages[i]),
                       vips_image_get_height(pages[i]), width, height);
            return -1;
        }
    }
    VipsImage *joined = NULL;
    if (vips_arrayjoin(pages, &joined, n, "across", 1, NULL)) return -1;
    /* Metadata must be set on a private copy, never on an image others may share. */
    if (vips_copy(joined, out, NULL)) {
        g_object_unref(joined);
        return -1;
    }
    g_object_unref(joined);
    vips_image_set_int(*out, VIPS_META_PAGE_HEIGHT, height);
    vips_image_set_int(*out, VIPS_META_N_PAGES, n);
    return 0;
}
