/*
 * CVipsShim log: control of libvips's GLib warnings (log domain "VIPS").
 */
#include "cvips_log.h"

#include <vips/vips.h>

/* Room for one warning line; a longer one is cut (it is a reason, not a log). */
enum { WARNING_ROOM = 256 };
static _Thread_local char thread_warning[WARNING_ROOM];

/* Drops a warning from stderr but keeps the thread's last one (cvips_thread_warning). */
static void drop_message(const gchar *domain, GLogLevelFlags level, const gchar *message, gpointer data) {
    (void) domain;
    (void) data;
    if ((level & G_LOG_LEVEL_WARNING) && message) g_strlcpy(thread_warning, message, WARNING_ROOM);
}

const char *cvips_thread_warning(void) { return thread_warning; }

void cvips_thread_warning_clear(void) { thread_warning[0] = '\0'; }

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
