/* cvips_iiif.c: IIIF level-0 tiles with vips_dzsave (see cvips_iiif.h). */
#include "cvips_iiif.h"

#include <stdio.h>

int cvips_dzsave_iiif3(VipsImage *in, const char *dirname, const char *id, int tile_size, int quality) {
    if (tile_size < 64 || tile_size > 8192 || quality < 1 || quality > 100) {
        vips_error("dzsave", "%s: tile size %d or quality %d out of range", dirname, tile_size, quality);
        return -1;
    }
    char suffix[32];
    snprintf(suffix, sizeof suffix, ".jpg[Q=%d]", quality);
    return vips_dzsave(in, dirname, "layout", VIPS_FOREIGN_DZ_LAYOUT_IIIF3, "id", id, "tile_size", tile_size, "overlap",
                       0, "suffix", suffix, "strip", TRUE, NULL);
}
