#ifndef QUIRE_CVIPS_IIIF_H
#define QUIRE_CVIPS_IIIF_H

#include <vips/vips.h>

/* ---- IIIF tiles ------------------------------------------------------------------------- */

/* Writes `in` as IIIF Image API 3.0 level-0 static tiles with libvips's dzsave (layout iiif3):
 * the folder `dirname` (created; its last component is the image's name) holds info.json, whose
 * id is `id`/<name>, and one JPEG of quality `quality` per tile of `tile_size` pixels at each
 * scale factor, under {x},{y},{w},{h}/{sw},{sh}/0/default.jpg. */
int cvips_dzsave_iiif3(VipsImage *in, const char *dirname, const char *id, int tile_size, int quality);

#endif
