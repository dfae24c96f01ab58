#ifndef QUIRE_CVIPS_CORE_H
#define QUIRE_CVIPS_CORE_H

#include <stddef.h>
#include <stdint.h>
#include <vips/vips.h>

/* ---- runtime ---------------------------------------------------------------------- */

/* Starts libvips once per process (VIPS_INIT is a macro and does not import). With
   `defer_modules`, libvips's loadable modules (PDF, HEIF, JPEG XL, ImageMagick, OpenSlide) are
   opened only when a file first needs one (cvips_modules.c), unless VIPSHOME is set. */
int cvips_init(const char *argv0, int defer_modules);
/* Opens the deferred modules now (once; later calls wait for the first). Returns 1 when they
   were deferred, 0 when vips_init opened them. */
int cvips_open_modules(void);
/* 1 when the modules are open (or were never deferred), 0 while they wait for a file. */
int cvips_modules_open(void);
/* Marks where the calling thread's messages start in libvips's process-wide error buffer:
   call it when work on a new file begins, so that messages an earlier file left behind (a
   warning on a page that still loaded, a fallback's first try) are not read as this file's. */
void cvips_error_begin(void);
/* Copies and clears libvips's error buffer under one lock and returns the part written since
   the thread's cvips_error_begin (all of it when none, or when another thread cleared it
   since); free with cvips_free. */
char *cvips_error_take(void);
void cvips_free(void *pointer);
void cvips_unref(VipsImage *image);
void cvips_concurrency_set(int threads);
int cvips_concurrency_get(void);
void cvips_cache_set_max(int operations);
/* Blocks (or unblocks) a class of operations by name, e.g. "VipsForeignLoadSvg"; kept and
   applied again when deferred modules register their classes. */
void cvips_operation_block(const char *name, int blocked);
/* Number of VipsImage objects alive in the process; used by leak tests. */
int cvips_live_image_count(void);
/* Bytes of pixel memory libvips currently tracks, and the high-water mark. */
size_t cvips_tracked_mem(void);
size_t cvips_tracked_mem_highwater(void);

/* ---- loading ---------------------------------------------------------------------- */

typedef struct {
    int page;       /* first page for multi-page loaders; -1 = loader default */
    int n;          /* number of pages; 0 = loader default, -1 = all */
    double dpi;     /* PDF/SVG render resolution; <= 0 = loader default */
    int sequential; /* 1 = VIPS_ACCESS_SEQUENTIAL (streaming, read once) */
    int fail_on;    /* VipsFailOn: 0 none, 1 truncated, 2 error, 3 warning */
    int shrink;     /* > 1: decode at 1/shrink where the loader can (JPEG DCT scaling) */
} cvips_load_options;

/* Loader nickname libvips would pick for a file ("jpegload", "pdfload", ...), or NULL.
 * The string is owned by libvips: do not free. Reads only the header bytes. */
const char *cvips_find_loader(const char *filename);
/* Opens a file lazily (header only until pixels are needed) with the loader's own options;
 * options a loader does not have are skipped. */
int cvips_load(const char *filename, const cvips_load_options *options, VipsImage **out);
int cvips_load_buffer(const void *data, size_t length, const cvips_load_options *options, VipsImage **out);
/* Sets the options of `options` that loader `op` has (as cvips_load does). */
void cvips_apply_load_options(VipsOperation *op, const cvips_load_options *options);
/* Watches a built loader (cvips_load does it): when a read of its pixels fails, its image is
   marked, whether or not the failure reaches the caller. libvips 8.14 can lose a worker
   thread's failure, and a render then succeeds with pixels never decoded; the renders below
   and cvips_write_into check the mark (cvips_pixels_failed). Only loaders that fail on
   truncation mark: with fail_on none a failed read is libvips's documented recovery. */
void cvips_watch_loader(VipsOperation *op);
/* 1 when the pixels of `image` come from a loader whose pixel read failed; 0 otherwise. */
int cvips_pixels_failed(VipsImage *image);
/* -1 (with a message in the error buffer when it has none) when cvips_pixels_failed; else 0. */
int cvips_refuse_failed_pixels(VipsImage *image);
/* Marks `image` as if its loader had failed to read its pixels (tests). */
void cvips_mark_pixels_failed(VipsImage *image);

/* ---- header ----------------------------------------------------------------------- */

int cvips_width(const VipsImage *image);
int cvips_height(const VipsImage *image);
int cvips_bands(const VipsImage *image);
/* VipsBandFormat as an int (0 = uchar, 2 = ushort, 8 = float ...). */
int cvips_format(const VipsImage *image);
/* VipsInterpretation as an int. */
int cvips_interpretation(const VipsImage *image);
/* EXIF orientation 1-8 (1 when absent or out of range). */
int cvips_orientation(VipsImage *image);
/* Pages in the file ("n-pages"), 1 when absent. */
int cvips_n_pages(VipsImage *image);
/* Height of one page in a multi-page strip ("page-height"), or the image height. */
int cvips_page_height(VipsImage *image);
int cvips_has_alpha(VipsImage *image);
/* Nickname of the loader that made this image ("vips-loader"), or NULL. */
const char *cvips_loader_name(VipsImage *image);

/* ---- colour and geometry ---------------------------------------------------------- */

int cvips_autorot(VipsImage *in, VipsImage **out);
/* Flattens alpha onto a grey level, converts to 8-bit sRGB, or 8-bit B_W when `keep_gray`
 * and the input is one-band (or grey+alpha). */
int cvips_to_display(VipsImage *in, int keep_gray, double background, VipsImage **out);
int cvips_resize(VipsImage *in, double hscale, double vscale, VipsImage **out);
int cvips_crop(VipsImage *in, int left, int top, int width, int height, VipsImage **out);
int cvips_rot90(VipsImage *in, int quarter_turns, VipsImage **out);
int cvips_flip(VipsImage *in, int horizontal, VipsImage **out);
int cvips_copy_memory(VipsImage *in, VipsImage **out);
int cvips_cast_uchar(VipsImage *in, VipsImage **out);
int cvips_extract_band(VipsImage *in, int band, int n, VipsImage **out);
int cvips_average(VipsImage *in, double *out);

/* ---- thumbnails ------------------------------------------------------------------- */

/* Shrink-on-load thumbnail fitting inside width x height (never upsizing); `option_string`
 * goes to the loader (e.g. "page=2,dpi=200"), NULL for none. Applies EXIF orientation. The
 * loader fails on truncation and, like every loader once this has run, is watched for failed
 * reads (cvips_watch_loader). */
int cvips_thumbnail(const char *filename, int width, int height, const char *option_string, VipsImage **out);
int cvips_thumbnail_image(VipsImage *in, int width, int height, VipsImage **out);

/* ---- memory ----------------------------------------------------------------------- */

/* Renders the image into a new 8-bit buffer (free with cvips_free). */
void *cvips_write_to_memory(VipsImage *in, size_t *length);
int cvips_black(int width, int height, int bands, VipsImage **out);
int cvips_set_interpretation(VipsImage *in, int interpretation, VipsImage **out);

/* ---- saving ----------------------------------------------------------------------- */

typedef enum {
    CVIPS_SAVE_JPEG = 0,
    CVIPS_SAVE_PNG = 1,
    CVIPS_SAVE_WEBP = 2,
    CVIPS_SAVE_TIFF = 3,
    CVIPS_SAVE_GIF = 4,
} cvips_save_format;

typedef struct {
    cvips_save_format format;
    int quality;       /* 1-100 for JPEG/WebP; ignored otherwise */
    int strip;         /* 1 = drop metadata */
    int compression;   /* PNG zlib level 0-9; -1 = default */
    int optimize;      /* JPEG: optimised Huffman tables (smaller, slower, buffers the image) */
    double xdpi, ydpi; /* the page's resolution in dots per inch; 0 = unknown. Written as JFIF
                           * density (JPEG), pHYs (PNG), EXIF resolution (WebP), TIFF tags. */
    int bitdepth;      /* PNG: 1 for black and white pages (one bit a pixel); 0 = 8 or 16 */
} cvips_save_options;

int cvips_save(VipsImage *in, const char *filename, const cvips_save_options *options);
/* Encodes into a new buffer (free with cvips_free). */
void *cvips_save_buffer(VipsImage *in, const cvips_save_options *options, size_t *length);

#endif
