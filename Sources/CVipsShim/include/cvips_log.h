#ifndef QUIRE_CVIPS_LOG_H
#define QUIRE_CVIPS_LOG_H

/* ---- logging ---------------------------------------------------------------------- */

/* Drops (1) or restores (0) libvips's warnings ("VIPS-WARNING **: not enough data"), which
 * GLib prints on stderr from worker threads; a caller that reports failures itself turns
 * them off so each failure is one clean line. */
void cvips_set_warnings_silenced(int silenced);
/* The last warning silenced on the calling thread since cvips_thread_warning_clear ("" when
 * none): the only reason some loaders give when they fail (libvips's PNG header read on a bad
 * CRC leaves its error buffer empty). */
const char *cvips_thread_warning(void);
void cvips_thread_warning_clear(void);

#endif
