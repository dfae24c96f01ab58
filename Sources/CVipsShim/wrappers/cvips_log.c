/*
 * CVipsShim log: control of libvips's GLib warnings (log domain "VIPS").
 */
#include "cvips_log.h"

#include <vips/vips.h>

static void drop_message(const gchar *domain, GLogLevelFlags level, const gchar *message, gpointer data) {
    (void) domain;
    (void) level;
    (void) message;
    (void) data;
}

static guint handler_id = 0;
static GMutex handler_lock;

void cvips_set_warnings_silenced(int silenced) {
    g_mutex_lock(&handler_lock);
    if (silenced && handler_id == 0) {
        handler_id =
            g_log_set_handler("VIPS", G_LOG_LEVEL_WARNING | G_LOG_LEVEL_MESSAGE | G_LOG_LEVEL_INFO, drop_message, NULL);
    } else if (!silenced && handler_id != 0) {
        g_log_remove_handler("VIPS", handler_id);
        handler_id = 0;
    }
    g_mutex_unlock(&handler_lock);
}
