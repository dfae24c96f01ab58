/* libFuzzer target for the 1/8-scale entropy skipper (Sources/CVipsShim/jpeg/cvips_jpeg_skip.c).
 *
 * Each input is decoded at 1/8 twice, as cvips_jpeg.c's decode() does: once with the skipper in
 * place of libjpeg's entropy decoder, once with libjpeg alone. The sanitizers (address,
 * undefined) catch memory errors; the harness aborts when the skipper did not give up yet its
 * outcome (success or refusal, and the pixels) differs from libjpeg's. The input arrives
 * through a source that hands it over in small, separately allocated chunks (the chunk size
 * picked from the input's length), so reads past a chunk are seen and the skipper's refills
 * meet buffer ends at every offset.
 *
 * Build and run: `make fuzz-jpeg` (Tools/fuzz/README.md). */

#include <setjmp.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jpeglib.h>

#include "cvips_jpeg_skip.h"

/* Bigger pictures only slow the fuzzer down; their code paths are the same. */
enum { MAX_PIXELS = 4 << 20 };

typedef struct {
    struct jpeg_error_mgr pub;
    jmp_buf escape;
} fuzz_error;

static void on_error_exit(j_common_ptr cinfo) { longjmp(((fuzz_error *) cinfo->err)->escape, 1); }
static void on_message(j_common_ptr cinfo, int level) {
    (void) cinfo;
    (void) level;
}

/* The input in chunks of `chunk` bytes, each in its own allocation; at the end an EOI and
 * `truncated` set, as cvips_jpeg_source_fill does. */
typedef struct {
    struct jpeg_source_mgr pub;
    const uint8_t *data;
    size_t size, offset, chunk;
    uint8_t *copy;
    int truncated;
} chunk_source;

static void source_init(j_decompress_ptr cinfo) { (void) cinfo; }
static void source_term(j_decompress_ptr cinfo) { (void) cinfo; }

static boolean source_fill(j_decompress_ptr cinfo) {
    chunk_source *src = (chunk_source *) cinfo->src;
    static const JOCTET eoi[2] = {0xFF, JPEG_EOI};
    free(src->copy);
    src->copy = NULL;
    if (src->offset >= src->size) {
        src->truncated = 1;
        src->pub.next_input_byte = eoi;
        src->pub.bytes_in_buffer = 2;
        return TRUE;
    }
    size_t n = src->size - src->offset;
    if (n > src->chunk) n = src->chunk;
    src->copy = malloc(n);
    if (!src->copy) abort();
    memcpy(src->copy, src->data + src->offset, n);
    src->offset += n;
    src->pub.next_input_byte = src->copy;
    src->pub.bytes_in_buffer = n;
    return TRUE;
}

static void source_skip(j_decompress_ptr cinfo, long count) {
    chunk_source *src = (chunk_source *) cinfo->src;
    while (count > 0) {
        if ((size_t) count <= src->pub.bytes_in_buffer) {
            src->pub.next_input_byte += count;
            src->pub.bytes_in_buffer -= (size_t) count;
            return;
        }
        count -= (long) src->pub.bytes_in_buffer;
        src->pub.bytes_in_buffer = 0;
        source_fill(cinfo);
        if (src->truncated) return;
    }
}

enum { DECLINED = 1, GAVE_UP = 2, FAILED = -1 };

typedef struct {
    int status; /* 0 decoded, DECLINED, GAVE_UP, FAILED (libjpeg error or truncated) */
    int skipped;
    unsigned int width, height, bands;
    uint8_t *pixels;
} result;

/* cvips_jpeg.c's decode() at shrink 8, from memory. */
static void decode(const uint8_t *data, size_t size, size_t chunk, int use_skipper, result *r) {
    struct jpeg_decompress_struct cinfo;
    fuzz_error error;
    chunk_source src = {.data = data, .size = size, .chunk = chunk};
    uint8_t *volatile pixels = NULL;
    skipper *volatile skipping = NULL;
    memset(r, 0, sizeof *r);
    r->status = FAILED;
    cinfo.err = jpeg_std_error(&error.pub);
    error.pub.error_exit = on_error_exit;
    error.pub.emit_message = on_message;
    jpeg_create_decompress(&cinfo);
    if (setjmp(error.escape)) goto done;
    src.pub.init_source = source_init;
    src.pub.fill_input_buffer = source_fill;
    src.pub.skip_input_data = source_skip;
    src.pub.resync_to_restart = jpeg_resync_to_restart;
    src.pub.term_source = source_term;
    cinfo.src = &src.pub;
    jpeg_read_header(&cinfo, TRUE);
    int bands;
    switch (cinfo.jpeg_color_space) {
    case JCS_GRAYSCALE:
        cinfo.out_color_space = JCS_GRAYSCALE;
        bands = 1;
        break;
    case JCS_YCbCr:
    case JCS_RGB:
        cinfo.out_color_space = JCS_RGB;
        bands = 3;
        break;
    default:
        r->status = DECLINED;
        goto done;
    }
    if ((uint64_t) cinfo.image_width * cinfo.image_height > MAX_PIXELS) {
        r->status = DECLINED;
        goto done;
    }
    cinfo.scale_num = 1;
    cinfo.scale_denom = 8;
    jpeg_start_decompress(&cinfo);
    if (use_skipper && cvips_jpeg_skip_plain(&cinfo)) skipping = cvips_jpeg_skip_install(&cinfo);
    size_t stride = (size_t) cinfo.output_width * (size_t) bands;
    pixels = malloc(stride * cinfo.output_height + 1);
    if (!pixels) abort();
    while (cinfo.output_scanline < cinfo.output_height && !src.truncated &&
           !(skipping && cvips_jpeg_skip_failed(skipping))) {
        JSAMPROW rows[16];
        unsigned int count = cinfo.output_height - cinfo.output_scanline;
        if (count > 16) count = 16;
        for (unsigned int i = 0; i < count; i++) rows[i] = pixels + (size_t) (cinfo.output_scanline + i) * stride;
        jpeg_read_scanlines(&cinfo, rows, count);
    }
    if (skipping && (cvips_jpeg_skip_failed(skipping) || src.truncated)) {
        r->status = GAVE_UP;
        goto done;
    }
    if (src.truncated) goto done;
    jpeg_finish_decompress(&cinfo);
    if (skipping && src.truncated) {
        r->status = GAVE_UP;
        goto done;
    }
    r->status = 0;
    r->skipped = skipping != NULL;
    r->width = cinfo.output_width;
    r->height = cinfo.output_height;
    r->bands = (unsigned int) bands;
    r->pixels = pixels;
    pixels = NULL;
done:
    jpeg_destroy_decompress(&cinfo);
    g_free(skipping);
    free(pixels);
    free(src.copy);
}

/* Chunk sizes the source hands the input over in: the skipper's 8-byte refill at and around
 * a buffer's end, and cvips_jpeg's 256 KiB. */
static const size_t chunks[] = {1, 7, 8, 9, 61, 512, 4096, 256 << 10};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    size_t chunk = chunks[size % (sizeof chunks / sizeof chunks[0])];
    result with, alone;
    decode(data, size, chunk, 1, &with);
    static int verbose = -1;
    if (verbose < 0) verbose = getenv("JPEG_SKIP_FUZZ_VERBOSE") != NULL;
    /* With JPEG_SKIP_FUZZ_VERBOSE set, one line an input: decoded by the skipper (skipped),
     * decoded without it (not plain), the skipper gave up, declined, or failed. */
    if (verbose)
        fprintf(stderr, "outcome: %s\n",
                with.status == 0          ? (with.skipped ? "skipped" : "not-plain")
                : with.status == GAVE_UP  ? "gave-up"
                : with.status == DECLINED ? "declined"
                                          : "failed");
    /* What Quire makes of the file is `with`, or libjpeg alone's result when the skipper gave
     * up: it must be libjpeg alone's, the same refusal or the same pixels. */
    if (with.status == 0 || with.status == FAILED) {
        decode(data, size, chunk, 0, &alone);
        if ((alone.status == 0) != (with.status == 0)) {
            fprintf(stderr, "the skipper's decode %s where libjpeg alone %s (status %d)\n",
                    with.status == 0 ? "succeeded" : "failed", alone.status == 0 ? "succeeds" : "fails", alone.status);
            abort();
        }
        if (with.status == 0 &&
            (alone.width != with.width || alone.height != with.height || alone.bands != with.bands ||
             memcmp(alone.pixels, with.pixels, (size_t) with.width * with.height * with.bands) != 0)) {
            fprintf(stderr, "skipper pixels differ from libjpeg's (%ux%ux%u)\n", with.width, with.height, with.bands);
            abort();
        }
        free(alone.pixels);
    }
    free(with.pixels);
    return 0;
}
