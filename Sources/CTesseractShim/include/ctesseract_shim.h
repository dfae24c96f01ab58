#ifndef QUIRE_CTESSERACT_SHIM_H
#define QUIRE_CTESSERACT_SHIM_H
/* What Tesseract's C API cannot do without repeating work: the hOCR and the plain text of a
   recognised page in one pass over its words, and line images kept without a PNG round trip.
   Only TesseractBridge imports this. */
#include <tesseract/capi.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Makes the parallel regions the calling thread opens from now on run on it alone (OpenMP's
   max-active-levels-var 0; a per-thread setting, see openmp_threads.c): pages already run in
   parallel, so Tesseract's own OpenMP threads would only oversubscribe the cores and spin. */
void ctess_openmp_one_thread(void);
/* The calling thread's max-active-levels-var, or -1 when libgomp is not loaded. */
int ctess_openmp_max_active_levels(void);

/* One orientation and script detection, as TessBaseAPIDetectOrientationScript makes it. */
typedef struct {
    /* How far the text is turned counter-clockwise: 0, 90, 180 or 270. */
    int counter_clockwise;
    /* The best orientation's score less the second's, and the script confidence: the C API's. */
    float confidence;
    float script_confidence;
    /* Each orientation's score, by counter-clockwise quarter (0, 90, 180, 270): the sum over the
       characters read of the log of that orientation's share of the character's fit. */
    float scores[4];
    /* How many characters were read. */
    int characters;
} CTessOrientation;

/* Detects the orientation of the image set on `api` (an engine loaded with osd, its page
   segmentation mode PSM_OSD_ONLY) into `out`, as TessBaseAPIDetectOrientationScript does, once,
   keeping what that drops. Returns 1, or 0 with too few characters (Tesseract's "Too few
   characters") or no engine. */
int ctess_detect_orientation(TessBaseAPI *api, CTessOrientation *out);

/* What ctess_page_text did. */
enum {
    /* Both texts written. */
    CTESS_WRITTEN = 1,
    /* Not written: the page has right-to-left or mixed-direction words, or the engine is set to
       write more than words (font, character boxes, LSTM choices, kept spaces); Tesseract's own
       TessBaseAPIGetHOCRText and TessBaseAPIGetUTF8Text write those. */
    CTESS_NEEDS_TESSERACT = 0,
    /* Not written: out of memory, or no recognised page. */
    CTESS_FAILED = -1
};

/* The hOCR `ocr_page` element and the plain text of the page `api` last recognised, byte for byte
   as TessBaseAPIGetHOCRText(api, 0) and TessBaseAPIGetUTF8Text(api) give them, from one walk over
   its words in reading order. Those two start Tesseract's ResultIterator over from the top of the
   page for every word (PAGE_RES_IT::restart_row), so their time grows with the square of the words;
   on pages whose words all read left to right, reading order is the page iterator's own order.
   `width` and `height`: the image's size as given to TessBaseAPISetImage (the page's bbox).
   On CTESS_WRITTEN, `*hocr` and `*text` are malloc'd strings for the caller to free. */
int ctess_page_text(TessBaseAPI *api, int width, int height, char **hocr, char **text);

/* Tesseract keeps each text line's image PNG-compressed between cutting it out and reading it
   (ImageData::SetPixInternal), deflate and inflate that change no pixel (line_images.c). With
   `on`, the calling thread's line images are kept uncompressed instead, until called with 0. */
void ctess_raw_line_images(int on);

/* How many line images have been kept uncompressed in this process (for tests). */
long ctess_raw_line_image_count(void);

/* For tests: `pixels`, a `width` x `height` image of 32-bit leptonica pixels (red in the top
   byte, the alpha byte in the lowest), stored as Tesseract stores a colour line image
   (pixWriteMem as PNG, with ctess_raw_line_images(`raw`) on this thread) and read back
   (pixReadMem) into `out`. Returns 0, or 1 when it could not be written or read. */
int ctess_line_image_round_trip(const unsigned int *pixels, int width, int height, int raw, unsigned int *out);

/* Tesseract opens an OpenMP region for every LSTM time step; on a thread whose regions are teams
   of one (OpenMP's thread limit 1, or the thread's max-active-levels-var 0 as
   ctess_openmp_one_thread sets it) libgomp still starts and ends each team with a futex system
   call. The calling thread's regions, until called again: `mode` 1, as plain calls, the body once,
   as a team of one runs it (omp_inline.c), when they are teams of one as this is called, and
   libgomp's otherwise; 2, as plain calls whatever the limit (for tests); 0, libgomp's. */
void ctess_inline_openmp(int mode);

/* How many OpenMP regions have run inline in this process (for tests). */
long ctess_inline_openmp_count(void);

/* For tests: runs a `sections` region of `count` sections inline, section 1 opening a region of
   two sections of its own, and writes the sections in the order they ran (the inner ones as 101,
   102) to `out` (at most `capacity`). Returns how many ran: count + 2 when every one ran once. */
int ctess_inline_sections_trace(unsigned count, unsigned *out, int capacity);

#ifdef __cplusplus
}
#endif
#endif
