#ifndef QUIRE_CVIPS_LOG_H
#define QUIRE_CVIPS_LOG_H

/* ---- logging ---------------------------------------------------------------------- */

/* Drops (1) or restores (0) libvips's warnings ("VIPS-WARNING **: not enough data"), which
 * GLib prints on stderr from worker threads; a caller that reports failures itself turns
 * them off so each failure is one clean line. */
void cvips_set_warnings_silenced(int silenced);

#endif
