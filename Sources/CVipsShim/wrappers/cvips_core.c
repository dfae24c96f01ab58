/*
 * CVipsShim core: runtime, loading, header access, colour, resizing, memory and saving.
 * Each wrapper takes plain arguments and forwards them to one libvips call; the shim owns no
 * policy (that lives in Swift), only the calling convention.
 */
#include "cvips_core.h"
#include "cvips_log.h"

#include <string.h>

/* ---- runtime ---------------------------------------------------------------------- */

/* Where the thread's current file's messages start in the error buffer (0: at the start). */
static _Thread_local size_t error_mark;

/* A buffer longer than this is cleared when a file begins: libvips stops appending when its
   fixed-size buffer is full, which would lose the next failure's reason. */
enum { ERROR_BUFFER_CLEAR_AT = 4096 };

void cvips_error_begin(void) {
    size_t length = strlen(vips_error_buffer());
    if (length > ERROR_BUFFER_CLEAR_AT) {
        vips_error_clear();
        length = 0;
    }
    error_mark = length;
    cvips_thread_warning_clear();
}

char *cvips_error_take(void) {
    char *text = vips_error_buffer_copy();
    size_t mark = error_mark;
    error_mark = 0;
    size_t length = text ? strlen(text) : 0;
    if (mark > 0 && mark <= length) memmove(text, text + mark, length - mark + 1);
    if (text && text[0] == '\0' && cvips_thread_warning()[0] != '\0') {
        g_free(text);
        text = g_strdup(cvips_thread_warning());
    }
    return text;
}

void cvips_free(void *pointer) { g_free(pointer); }

void cvips_unref(VipsImage *image) {
    if (image) g_object_unref(image);
}

void cvips_concurrency_set(int threads) { vips_concurrency_set(threads); }
int cvips_concurrency_get(void) { return vips_concurrency_get(); }
void cvips_cache_set_max(int operations) { vips_cache_set_max(operations); }

static void *count_image(VipsObject *object, void *a, void *b) {
    (void) b;
    if (VIPS_IS_IMAGE(object)) (*(int *) a)++;
    return NULL;
}

int cvips_live_image_count(void) {
    int count = 0;
    vips_object_map((VipsSListMap2Fn) count_image, &count, NULL);
    return count;
}

size_t cvips_tracked_mem(void) { return vips_tracked_get_mem(); }
size_t cvips_tracked_mem_highwater(void) { return vips_tracked_get_mem_highwater(); }

/* ---- loading ---------------------------------------------------------------------- */

static int has_property(VipsOperation *op, const char *name) {
    return g_object_class_find_property(G_OBJECT_GET_CLASS(op), name) != NULL;
}

/* Sets the options a loader has; a loader without "dpi" (JPEG) simply skips it. */
static void apply_load_options(VipsOperation *op, const cvips_load_options *options) {
    if (!options) return;
    if (options->page >= 0 && has_property(op, "page")) g_object_set(op, "page", options->page, NULL);
    if (options->n != 0 && has_property(op, "n")) g_object_set(op, "n", options->n, NULL);
    if (options->dpi > 0 && has_property(op, "dpi")) g_object_set(op, "dpi", options->dpi, NULL);
    if (options->sequential && has_property(op, "access")) g_object_set(op, "access", VIPS_ACCESS_SEQUENTIAL, NULL);
    if (options->fail_on > 0 && has_property(op, "fail_on"))
        g_object_set(op, "fail_on", (VipsFailOn) options->fail_on, NULL);
    if (options->shrink > 1 && has_property(op, "shrink")) g_object_set(op, "shrink", options->shrink, NULL);
}

void cvips_apply_load_options(VipsOperation *op, const cvips_load_options *options) { apply_load_options(op, options); }

/* ---- failed pixel reads ------------------------------------------------------------ */

/* The mark a loader's image gets when its pixels could not be read (cvips_watch_loader). */
static GQuark pixels_failed_quark(void) {
    static gsize quark = 0;
    if (g_once_init_enter(&quark)) g_once_init_leave(&quark, g_quark_from_static_string("cvips-pixels-failed"));
    return (GQuark) quark;
}

/* libvips calls vips_foreign_load_invalidate, which emits "invalidate" on the loader, when a
   read of its pixels fails (before it returns the failure). */
static void loader_invalidated(VipsOperation *op, gpointer data) {
    (void) data;
    VipsForeignLoad *load = VIPS_FOREIGN_LOAD(op);
    if (load->fail_on >= VIPS_FAIL_ON_TRUNCATED && load->out)
        g_object_set_qdata(G_OBJECT(load->out), pixels_failed_quark(), GINT_TO_POINTER(1));
}

void cvips_watch_loader(VipsOperation *op) {
    if (VIPS_IS_FOREIGN_LOAD(op)) g_signal_connect(op, "invalidate", G_CALLBACK(loader_invalidated), NULL);
}

void cvips_mark_pixels_failed(VipsImage *image) {
    g_object_set_qdata(G_OBJECT(image), pixels_failed_quark(), GINT_TO_POINTER(1));
}

static int marked_upstream(VipsImage *image, GHashTable *seen) {
    if (!g_hash_table_add(seen, image)) return 0;
    if (g_object_get_qdata(G_OBJECT(image), pixels_failed_quark())) return 1;
    for (GSList *p = image->upstream; p; p = p->next)
        if (marked_upstream(VIPS_IMAGE(p->data), seen)) return 1;
    return 0;
}

int cvips_pixels_failed(VipsImage *image) {
    GHashTable *seen = g_hash_table_new(g_direct_hash, g_direct_equal);
    int failed = marked_upstream(image, seen);
    g_hash_table_destroy(seen);
    return failed;
}

int cvips_refuse_failed_pixels(VipsImage *image) {
    if (!cvips_pixels_failed(image)) return 0;
    /* The loader's own message (libvips adds it on the worker thread) is normally there. */
    if (vips_error_buffer()[0] == '\0') vips_error("cvips", "%s", "the loader could not read the pixels");
    return -1;
}

/* Builds a configured loader through the operation cache and takes its "out" image. */
static int build_loader(VipsOperation *op, VipsImage **out) {
    if (vips_cache_operation_buildp(&op)) {
        vips_object_unref_outputs(VIPS_OBJECT(op));
        g_object_unref(op);
        return -1;
    }
    cvips_watch_loader(op);
    g_object_get(op, "out", out, NULL);
    vips_object_unref_outputs(VIPS_OBJECT(op));
    g_object_unref(op);
    return *out ? 0 : -1;
}

/* The loader's type name for a file; when no loader libvips has open knows it, the deferred
   modules are opened and asked too. */
static const char *find_load(const char *filename) {
    const char *type_name = vips_foreign_find_load(filename);
    if (!type_name && cvips_open_modules()) {
        vips_error_clear();
        type_name = vips_foreign_find_load(filename);
    }
    return type_name;
}

const char *cvips_find_loader(const char *filename) {
    const char *type_name = find_load(filename);
    if (!type_name) return NULL;
    return vips_nickname_find(g_type_from_name(type_name));
}

int cvips_load(const char *filename, const cvips_load_options *options, VipsImage **out) {
    *out = NULL;
    const char *nickname = cvips_find_loader(filename);
    if (!nickname) return -1;
    VipsOperation *op = vips_operation_new(nickname);
    if (!op) return -1;
    g_object_set(op, "filename", filename, NULL);
    apply_load_options(op, options);
    return build_loader(op, out);
}

int cvips_load_buffer(const void *data, size_t length, const cvips_load_options *options, VipsImage **out) {
    *out = NULL;
    const char *type_name = vips_foreign_find_load_buffer(data, length);
    if (!type_name && cvips_open_modules()) {
        vips_error_clear();
        type_name = vips_foreign_find_load_buffer(data, length);
    }
    if (!type_name) return -1;
    const char *nickname = vips_nickname_find(g_type_from_name(type_name));
    VipsOperation *op = vips_operation_new(nickname);
    if (!op) return -1;
    VipsBlob *blob = vips_blob_copy(data, length);
    g_object_set(op, "buffer", blob, NULL);
    vips_area_unref(VIPS_AREA(blob));
    apply_load_options(op, options);
    return build_loader(op, out);
}

/* ---- header ----------------------------------------------------------------------- */

int cvips_width(const VipsImage *image) { return vips_image_get_width(image); }
int cvips_height(const VipsImage *image) { return vips_image_get_height(image); }
int cvips_bands(const VipsImage *image) { return vips_image_get_bands(image); }
int cvips_format(const VipsImage *image) { return (int) vips_image_get_format(image); }
int cvips_interpretation(const VipsImage *image) { return (int) vips_image_get_interpretation(image); }

int cvips_orientation(VipsImage *image) {
    int value = 1;
    if (vips_image_get_typeof(image, VIPS_META_ORIENTATION) &&
        vips_image_get_int(image, VIPS_META_ORIENTATION, &value) == 0 && value >= 1 && value <= 8)
        return value;
    return 1;
}

int cvips_n_pages(VipsImage *image) { return vips_image_get_n_pages(image); }
int cvips_page_height(VipsImage *image) { return vips_image_get_page_height(image); }
int cvips_has_alpha(VipsImage *image) { return vips_image_hasalpha(image) ? 1 : 0; }

const char *cvips_loader_name(VipsImage *image) {
    const char *name = NULL;
    if (vips_image_get_typeof(image, VIPS_META_LOADER) && vips_image_get_string(image, VIPS_META_LOADER, &name) == 0)
        return name;
    return NULL;
}

/* ---- colour and geometry ---------------------------------------------------------- */

int cvips_autorot(VipsImage *in, VipsImage **out) { return vips_autorot(in, out, NULL); }

static int swap(VipsImage **current, VipsImage *next) {
    g_object_unref(*current);
    *current = next;
    return 0;
}

int cvips_to_display(VipsImage *in, int keep_gray, double background, VipsImage **out) {
    *out = NULL;
    VipsImage *t = in;
    g_object_ref(t);
    VipsImage *n = NULL;
    int bands = vips_image_get_bands(in);
    int alpha = vips_image_hasalpha(in);
    int colour_bands = bands - (alpha ? 1 : 0);
    VipsInterpretation target = (keep_gray && colour_bands == 1) ? VIPS_INTERPRETATION_B_W : VIPS_INTERPRETATION_sRGB;

    /* Embedded profiles (Display P3 phone photos, Adobe RGB scans, CMYK) go through lcms;
     * a broken profile falls back to the plain colourspace conversion below. */
    if (target == VIPS_INTERPRETATION_sRGB && vips_image_get_typeof(in, VIPS_META_ICC_NAME)) {
        if (vips_icc_transform(t, &n, "srgb", "embedded", TRUE, "intent", VIPS_INTENT_RELATIVE, NULL) == 0) {
            swap(&t, n);
        } else {
            vips_error_clear();
        }
    }
    if (vips_colourspace(t, &n, target, NULL)) {
        g_object_unref(t);
        return -1;
    }
    swap(&t, n);
    if (vips_image_get_format(t) != VIPS_FORMAT_UCHAR) {
        if (vips_cast(t, &n, VIPS_FORMAT_UCHAR, NULL)) {
            g_object_unref(t);
            return -1;
        }
        swap(&t, n);
    }
    if (vips_image_hasalpha(t)) {
        double bg[3] = {background, background, background};
        VipsArrayDouble *array = vips_array_double_new(bg, 3);
        int rc = vips_flatten(t, &n, "background", array, NULL);
        vips_area_unref(VIPS_AREA(array));
        if (rc) {
            g_object_unref(t);
            return -1;
        }
        swap(&t, n);
        if (vips_image_get_format(t) != VIPS_FORMAT_UCHAR) {
            if (vips_cast(t, &n, VIPS_FORMAT_UCHAR, NULL)) {
                g_object_unref(t);
                return -1;
            }
            swap(&t, n);
        }
    }
    *out = t;
    return 0;
}

int cvips_resize(VipsImage *in, double hscale, double vscale, VipsImage **out) {
    return vips_resize(in, out, hscale, "vscale", vscale, NULL);
}

int cvips_crop(VipsImage *in, int left, int top, int width, int height, VipsImage **out) {
    return vips_crop(in, out, left, top, width, height, NULL);
}

int cvips_rot90(VipsImage *in, int quarter_turns, VipsImage **out) {
    static const VipsAngle angles[4] = {VIPS_ANGLE_D0, VIPS_ANGLE_D90, VIPS_ANGLE_D180, VIPS_ANGLE_D270};
    return vips_rot(in, out, angles[((quarter_turns % 4) + 4) % 4], NULL);
}

int cvips_flip(VipsImage *in, int horizontal, VipsImage **out) {
    return vips_flip(in, out, horizontal ? VIPS_DIRECTION_HORIZONTAL : VIPS_DIRECTION_VERTICAL, NULL);
}

int cvips_copy_memory(VipsImage *in, VipsImage **out) {
    *out = vips_image_copy_memory(in);
    if (*out && cvips_refuse_failed_pixels(in)) {
        g_object_unref(*out);
        *out = NULL;
    }
    return *out ? 0 : -1;
}

int cvips_cast_uchar(VipsImage *in, VipsImage **out) { return vips_cast(in, out, VIPS_FORMAT_UCHAR, NULL); }

int cvips_extract_band(VipsImage *in, int band, int n, VipsImage **out) {
    return vips_extract_band(in, out, band, "n", n, NULL);
}

int cvips_average(VipsImage *in, double *out) { return vips_avg(in, out, NULL); }

/* ---- thumbnails ------------------------------------------------------------------- */

/* Marks the image of any loader whose pixel read failed, as cvips_watch_loader does for the
   loaders the shim builds: vips_thumbnail builds its own, out of reach of a connection. */
static gboolean any_loader_invalidated(GSignalInvocationHint *hint, guint n_params, const GValue *params,
                                       gpointer data) {
    (void) hint;
    (void) data;
    GObject *instance = n_params > 0 ? g_value_get_object(&params[0]) : NULL;
    if (instance && VIPS_IS_FOREIGN_LOAD(instance)) loader_invalidated(VIPS_OPERATION(instance), NULL);
    return TRUE; /* stay installed */
}

static void watch_every_loader(void) {
    static gsize installed = 0;
    if (g_once_init_enter(&installed)) {
        guint signal = g_signal_lookup("invalidate", VIPS_TYPE_OPERATION);
        if (signal) g_signal_add_emission_hook(signal, 0, any_loader_invalidated, NULL, NULL);
        g_once_init_leave(&installed, 1);
    }
}

int cvips_thumbnail(const char *filename, int width, int height, const char *option_string, VipsImage **out) {
    /* vips_thumbnail finds its loader itself: make sure the modules are open if it needs one. */
    if (!cvips_modules_open() && !find_load(filename)) vips_error_clear();
    /* Its loader fails on truncation, as a full run's does (the default, none, makes grey or
       black rows of what it cannot read), and is watched for failed reads. */
    watch_every_loader();
    if (option_string && *option_string) {
        /* libvips 8.14's vips_thumbnail has no "option_string" argument (it came in 8.15):
         * loader options travel in the filename, "file.pdf[page=2,dpi=200]". */
        char *name = g_strdup_printf("%s[%s]", filename, option_string);
        int rc = vips_thumbnail(name, out, width, "height", height, "size", VIPS_SIZE_DOWN, "fail_on",
                                VIPS_FAIL_ON_TRUNCATED, NULL);
        g_free(name);
        return rc;
    }
    return vips_thumbnail(filename, out, width, "height", height, "size", VIPS_SIZE_DOWN, "fail_on",
                          VIPS_FAIL_ON_TRUNCATED, NULL);
}

int cvips_thumbnail_image(VipsImage *in, int width, int height, VipsImage **out) {
    return vips_thumbnail_image(in, out, width, "height", height, "size", VIPS_SIZE_DOWN, "no_rotate", TRUE, NULL);
}

/* ---- memory ----------------------------------------------------------------------- */

void *cvips_write_to_memory(VipsImage *in, size_t *length) {
    void *data = vips_image_write_to_memory(in, length);
    if (data && cvips_refuse_failed_pixels(in)) {
        g_free(data);
        data = NULL;
    }
    return data;
}

int cvips_black(int width, int height, int bands, VipsImage **out) {
    return vips_black(out, width, height, "bands", bands, NULL);
}

int cvips_set_interpretation(VipsImage *in, int interpretation, VipsImage **out) {
    return vips_copy(in, out, "interpretation", (VipsInterpretation) interpretation, NULL);
}

/* ---- saving ----------------------------------------------------------------------- */

/* The image as it is saved: its resolution set (the page's, or 72 dpi, what readers assume,
 * when unknown: libvips's own images say 1 pixel/mm, which would claim 25.4 dpi).
 *
 * A stripped JPEG gets no JFIF density from vips_jpegsave, so a JPEG with a known resolution
 * has its metadata removed here instead and is saved unstripped: JFIF density plus the small
 * EXIF block libvips makes (resolution, orientation 1), and nothing of the source. */
static int cvips_prepare_save(VipsImage *in, const cvips_save_options *o, VipsImage **out, int *strip) {
    int known = o->xdpi > 0 && o->ydpi > 0;
    double xres = (known ? o->xdpi : 72.0) / 25.4, yres = (known ? o->ydpi : 72.0) / 25.4;
    *strip = o->strip ? TRUE : FALSE;
    if (vips_copy(in, out, "xres", xres, "yres", yres, NULL)) return -1;
    if (o->format == CVIPS_SAVE_JPEG && known && o->strip) {
        gchar **fields = vips_image_get_fields(*out);
        for (int i = 0; fields[i]; i++) (void) vips_image_remove(*out, fields[i]);
        g_strfreev(fields);
        *strip = FALSE;
    }
    return 0;
}

static int cvips_save_prepared(VipsImage *in, const char *filename, const cvips_save_options *o, int strip) {
    switch (o->format) {
    case CVIPS_SAVE_JPEG:
        return vips_jpegsave(in, filename, "Q", o->quality, "strip", strip, "optimize_coding",
                             o->optimize ? TRUE : FALSE, NULL);
    case CVIPS_SAVE_PNG:
        if (o->bitdepth == 1)
            return vips_pngsave(in, filename, "bitdepth", 1, "strip", strip, "compression",
                                o->compression >= 0 ? o->compression : 6, NULL);
        if (o->compression >= 0) return vips_pngsave(in, filename, "compression", o->compression, "strip", strip, NULL);
        return vips_pngsave(in, filename, "strip", strip, NULL);
    case CVIPS_SAVE_WEBP:
        return vips_webpsave(in, filename, "Q", o->quality, "strip", strip, NULL);
    case CVIPS_SAVE_TIFF:
        return vips_tiffsave(in, filename, "compression", VIPS_FOREIGN_TIFF_COMPRESSION_DEFLATE, "strip", strip, NULL);
    case CVIPS_SAVE_GIF:
        return vips_gifsave(in, filename, NULL);
    }
    vips_error("cvips_save", "unknown format %d", (int) o->format);
    return -1;
}

int cvips_save(VipsImage *in, const char *filename, const cvips_save_options *o) {
    VipsImage *ready;
    int strip;
    if (cvips_prepare_save(in, o, &ready, &strip)) return -1;
    int rc = cvips_save_prepared(ready, filename, o, strip);
    g_object_unref(ready);
    return rc;
}

void *cvips_save_buffer(VipsImage *in, const cvips_save_options *o, size_t *length) {
    void *buffer = NULL;
    VipsImage *ready;
    int strip;
    if (cvips_prepare_save(in, o, &ready, &strip)) return NULL;
    int rc = -1;
    switch (o->format) {
    case CVIPS_SAVE_JPEG:
        rc = vips_jpegsave_buffer(ready, &buffer, length, "Q", o->quality, "strip", strip, "optimize_coding",
                                  o->optimize ? TRUE : FALSE, NULL);
        break;
    case CVIPS_SAVE_PNG:
        rc = o->bitdepth == 1 ? vips_pngsave_buffer(ready, &buffer, length, "strip", strip, "bitdepth", 1, NULL)
                              : vips_pngsave_buffer(ready, &buffer, length, "strip", strip, NULL);
        break;
    case CVIPS_SAVE_WEBP:
        rc = vips_webpsave_buffer(ready, &buffer, length, "Q", o->quality, "strip", strip, NULL);
        break;
    case CVIPS_SAVE_TIFF:
        rc = vips_tiffsave_buffer(ready, &buffer, length, "strip", strip, NULL);
        break;
    case CVIPS_SAVE_GIF:
        rc = vips_gifsave_buffer(ready, &buffer, length, NULL);
        break;
    }
    g_object_unref(ready);
    return rc == 0 ? buffer : NULL;
}
