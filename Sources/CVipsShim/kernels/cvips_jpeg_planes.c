/*
 * Kernel: a JPEG decoded straight to its own YCbCr planes with libjpeg-turbo's raw-data mode
 * (its SIMD IDCT), into 2 MiB-aligned large pages: half the bytes of an RGB frame.
 *   Computes: the luma plane at full size and the two chroma planes at their stored size.
 *   Must equal byte for byte: libvips's own decode of the same file once the planes are
 *             converted to RGB (`PlanarPixels.rgb(y:cb:cr:)`, Sources/QuireImaging/Correct/PlanarPixels.swift);
 *             there is no separate Swift decoder.
 *   Checked by: YCbCrFrameTests.planesConvertToLibvipsBytes420 / ...422
 *             (Tests/QuireImagingTests/Decode/YCbCrFrameTests.swift).
 *   Swift entry: VipsBridge's YCbCrFrame.
 */
#include "cvips_box.h"
#include "cvips_jpeg.h"
#include "../jpeg/cvips_jpeg_source.h"
#include "../memory/cvips_hugemap.h"

#include <sys/mman.h>
#include <unistd.h>

/* An opened decoder between cvips_jpeg_planar_open and _decode. The error manager's jump
 * buffer is armed anew by each call that enters libjpeg. */
struct cvips_jpeg_planar {
    struct jpeg_decompress_struct cinfo;
    cvips_jpeg_error error;
    cvips_jpeg_source *src;
};

void cvips_jpeg_planar_close(cvips_jpeg_planar *d) {
    if (!d) return;
    jpeg_destroy_decompress(&d->cinfo);
    if (d->src) {
        close(d->src->fd);
        g_free(d->src);
    }
    g_free(d);
}

int cvips_jpeg_planar_open(const char *path, int width, int height, cvips_jpeg_planar **out,
                           cvips_jpeg_planes *layout) {
    *out = NULL;
    cvips_jpeg_planar *d = g_try_malloc0(sizeof(cvips_jpeg_planar));
    if (!d) {
        vips_error("cvips_jpeg", "out of memory");
        return -1;
    }
    d->src = cvips_jpeg_open_source(path);
    if (!d->src) {
        g_free(d);
        return -1;
    }
    cvips_jpeg_init_error(&d->cinfo, &d->error);
    jpeg_create_decompress(&d->cinfo);
    if (setjmp(d->error.escape)) {
        vips_error("cvips_jpeg", "%s", d->error.message);
        cvips_jpeg_planar_close(d);
        return -1;
    }
    j_decompress_ptr cinfo = &d->cinfo;
    cvips_jpeg_attach_source(cinfo, d->src);
    jpeg_save_markers(cinfo, JPEG_APP0 + 2, 0xFFFF);
    jpeg_read_header(cinfo, TRUE);

    jpeg_component_info *c = cinfo->comp_info;
    int h = cinfo->num_components == 3 ? c[0].h_samp_factor : 0;
    int v = cinfo->num_components == 3 ? c[0].v_samp_factor : 0;
    int usable = cinfo->jpeg_color_space == JCS_YCbCr && cinfo->num_components == 3 && !cinfo->CCIR601_sampling &&
                 !cvips_jpeg_has_icc_profile(cinfo) && h == 2 && (v == 1 || v == 2) && c[1].h_samp_factor == 1 &&
                 c[1].v_samp_factor == 1 && c[2].h_samp_factor == 1 && c[2].v_samp_factor == 1 &&
                 (int) cinfo->image_width == width && (int) cinfo->image_height == height;
    if (!usable) {
        cvips_jpeg_planar_close(d);
        return 1;
    }
    cinfo->raw_data_out = TRUE;
    cinfo->out_color_space = JCS_YCbCr;
    jpeg_start_decompress(cinfo);
    /* libjpeg's rounding of the chroma plane's size (jdinput.c), and the planes as
     * jpeg_read_raw_data fills them: whole blocks wide, whole iMCU rows deep. */
    int chroma_width = (int) ((cinfo->image_width + (unsigned) h - 1) / (unsigned) h);
    int chroma_height = (int) ((cinfo->image_height + (unsigned) v - 1) / (unsigned) v);
    if (chroma_width < 3 || chroma_height < 3) {
        /* libjpeg upsamples planes this thin by replication, not the triangle filter. */
        cvips_jpeg_planar_close(d);
        return 1;
    }
    layout->width = width;
    layout->height = height;
    layout->chroma_width = chroma_width;
    layout->chroma_height = chroma_height;
    layout->h_factor = h;
    layout->v_factor = v;
    layout->y_stride = (size_t) c[0].width_in_blocks * DCTSIZE;
    layout->c_stride = (size_t) c[1].width_in_blocks * DCTSIZE;
    layout->y_rows = (size_t) cinfo->total_iMCU_rows * (size_t) v * DCTSIZE;
    layout->c_rows = (size_t) cinfo->total_iMCU_rows * DCTSIZE;
    *out = d;
    return 0;
}

int cvips_jpeg_planar_decode(cvips_jpeg_planar *d, unsigned char *y, unsigned char *cb, unsigned char *cr) {
    return cvips_jpeg_planar_decode_averaging(d, y, cb, cr, NULL);
}

int cvips_jpeg_planar_decode_averaging(cvips_jpeg_planar *d, unsigned char *y, unsigned char *cb, unsigned char *cr,
                                       cvips_box_rows *box) {
    j_decompress_ptr cinfo = &d->cinfo;
    volatile int status = -1;
    if (setjmp(d->error.escape)) {
        vips_error("cvips_jpeg", "%s", d->error.message);
        goto done;
    }
    jpeg_component_info *c = cinfo->comp_info;
    size_t y_stride = (size_t) c[0].width_in_blocks * DCTSIZE, c_stride = (size_t) c[1].width_in_blocks * DCTSIZE;
    int luma_rows = c[0].v_samp_factor * DCTSIZE;
    /* One iMCU row per call: 16 (or 8) luma rows and 8 rows of each chroma plane. */
    while (cinfo->output_scanline < cinfo->output_height && !d->src->truncated) {
        size_t row = cinfo->output_scanline, crow = row / (size_t) c[0].v_samp_factor;
        JSAMPROW yr[16], cbr[DCTSIZE], crr[DCTSIZE];
        for (int i = 0; i < luma_rows; i++) yr[i] = y + (row + (size_t) i) * y_stride;
        for (int i = 0; i < DCTSIZE; i++) {
            cbr[i] = cb + (crow + (size_t) i) * c_stride;
            crr[i] = cr + (crow + (size_t) i) * c_stride;
        }
        JSAMPARRAY planes[3] = {yr, cbr, crr};
        if (jpeg_read_raw_data(cinfo, planes, (JDIMENSION) luma_rows) == 0) break;
        /* The rows just decoded are still in cache: average the ones they complete. */
        if (box) cvips_box_rows_ready(box, (long) cinfo->output_scanline, (long) (crow + DCTSIZE));
    }
    if (d->src->truncated || cinfo->output_scanline < cinfo->output_height) {
        vips_error("cvips_jpeg", "premature end of JPEG image (the file is truncated)");
        goto done;
    }
    jpeg_finish_decompress(cinfo);
    status = 0;
done:
    cvips_jpeg_planar_close(d);
    return status;
}

/* libjpeg's YCbCr -> RGB tables (jdcolor.c, build_ycc_rgb_table): 16-bit fixed point. */
enum { SCALEBITS = 16 };
#define ONE_HALF ((int32_t) 1 << (SCALEBITS - 1))
#define FIX(x) ((int32_t) ((x) * (1L << SCALEBITS) + 0.5))

typedef struct {
    int cr_r[256], cb_b[256];
    int32_t cr_g[256], cb_g[256];
} ycc_tables;

static ycc_tables tables;
static GOnce tables_once = G_ONCE_INIT;

static gpointer build_tables(gpointer unused) {
    (void) unused;
    for (int i = 0; i < 256; i++) {
        int32_t x = i - 128;
        tables.cr_r[i] = (int) ((FIX(1.40200) * x + ONE_HALF) >> SCALEBITS);
        tables.cb_b[i] = (int) ((FIX(1.77200) * x + ONE_HALF) >> SCALEBITS);
        tables.cr_g[i] = -FIX(0.71414) * x;
        tables.cb_g[i] = -FIX(0.34414) * x + ONE_HALF;
    }
    return NULL;
}

static inline unsigned char clamp255(int v) { return (unsigned char) (v < 0 ? 0 : v > 255 ? 255 : v); }

/* One chroma plane's samples for output row `row`, upsampled to full width into `out`
 * (2 * chroma_width samples): libjpeg's h2v2 / h2v1 "fancy" triangle filter (jdsample.c),
 * edges replicated as its context rows and end columns do. */
static void upsample_row(const cvips_jpeg_planes *l, const unsigned char *plane, int row, int *colsum,
                         unsigned char *out) {
    int cw = l->chroma_width;
    if (l->v_factor == 2) {
        /* Vertical: 3/4 of the nearer chroma row, 1/4 of the next nearest. */
        int near = row / 2;
        int far = (row & 1) ? near + 1 : near - 1;
        if (far < 0) far = 0;
        if (far > l->chroma_height - 1) far = l->chroma_height - 1;
        const unsigned char *a = plane + (size_t) near * l->c_stride, *b = plane + (size_t) far * l->c_stride;
        for (int j = 0; j < cw; j++) colsum[j] = a[j] * 3 + b[j];
        /* Horizontal on the column sums, with libjpeg's biases (8 and 7, over 16). */
        for (int j = 0; j < cw; j++) {
            int this = colsum[j], last = colsum[j > 0 ? j - 1 : 0], next = colsum[j < cw - 1 ? j + 1 : cw - 1];
            out[2 * j] = (unsigned char) ((this * 3 + last + 8) >> 4);
            out[2 * j + 1] = (unsigned char) ((this * 3 + next + 7) >> 4);
        }
    } else {
        const unsigned char *a = plane + (size_t) row * l->c_stride;
        for (int j = 0; j < cw; j++) {
            int this = a[j] * 3, last = a[j > 0 ? j - 1 : 0], next = a[j < cw - 1 ? j + 1 : cw - 1];
            out[2 * j] = (unsigned char) ((this + last + 1) >> 2);
            out[2 * j + 1] = (unsigned char) ((this + next + 2) >> 2);
        }
    }
}

void cvips_jpeg_planes_to_rgb(const cvips_jpeg_planes *l, const unsigned char *y, const unsigned char *cb,
                              const unsigned char *cr, int row0, int row1, unsigned char *rgb) {
    g_once(&tables_once, build_tables, NULL);
    int cw = l->chroma_width, w = l->width;
    int *colsum = g_malloc(sizeof(int) * (size_t) cw);
    unsigned char *ucb = g_malloc(2 * (size_t) cw), *ucr = g_malloc(2 * (size_t) cw);
    for (int row = row0; row < row1; row++) {
        upsample_row(l, cb, row, colsum, ucb);
        upsample_row(l, cr, row, colsum, ucr);
        const unsigned char *yr = y + (size_t) row * l->y_stride;
        unsigned char *o = rgb + (size_t) (row - row0) * (size_t) w * 3;
        for (int x = 0; x < w; x++) {
            int luma = yr[x], b = ucb[x], r = ucr[x];
            o[0] = clamp255(luma + tables.cr_r[r]);
            o[1] = clamp255(luma + (int) ((tables.cb_g[b] + tables.cr_g[r]) >> SCALEBITS));
            o[2] = clamp255(luma + tables.cb_b[b]);
            o += 3;
        }
    }
    g_free(colsum);
    g_free(ucb);
    g_free(ucr);
}

void *cvips_map_pixels(size_t length) { return cvips_hugemap(length); }

void cvips_unmap_pixels(void *data, size_t length) { cvips_hugeunmap(data, length); }
