/*
 * Kernel: box averages of YCbCr planes into the small RGB detection copy (plain C loops the
 * compiler vectorises; no intrinsics).
 *   Computes: each output pixel = the mean of a factor x factor luma block and of the chroma
 *             samples under it (multiply-shift reciprocal), converted to RGB.
 *   Must equal byte for byte: the portable loop of `DetectionCopy.init(planes:orientation:
 *             longSide:portable: true)` in Sources/QuireImaging/Detect/DetectionCopy+Frame.swift.
 *             Made a band of rows at a time inside the plane decode (cvips_box_rows_*), the
 *             same bytes as over the whole planes.
 *   Checked by: YCbCrFrameTests.cBoxAveragesEqualTheSwiftLoop and, for the rows made inside
 *             the decode, YCbCrFrameTests.copyAveragedWhileDecodingIsTheCopyOfThePlanes
 *             (Tests/QuireImagingTests/Decode/YCbCrFrameTests.swift).
 *   Swift entry: VipsBridge's PlaneBoxAverage.
 */
#include "cvips_box.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* Means scaled by 2^16 as a multiply and a shift: (sum * round(2^32 / n)) >> 16. */
static inline int64_t multiplier(int64_t n) { return (((int64_t) 1 << 32) + n / 2) / n; }

/* Vertical sums of `rows` rows of `n` bytes, `stride` apart (plain loops the compiler
 * vectorises: 16-bit lanes). */
static void column_sums(uint16_t *sums, const unsigned char *row, size_t stride, int rows, int n) {
    memset(sums, 0, (size_t) n * sizeof *sums);
    for (int r = 0; r < rows; r++, row += stride)
        for (int i = 0; i < n; i++) sums[i] = (uint16_t) (sums[i] + row[i]);
}

/* Sums of `f` consecutive values, `n` of them (f = 4 and 2, the usual factors, unrolled so
 * the compiler vectorises them). */
static void block_sums(uint32_t *out, const uint16_t *sums, int f, int n) {
    if (f == 4) {
        for (int i = 0; i < n; i++)
            out[i] = (uint32_t) sums[4 * i] + sums[4 * i + 1] + sums[4 * i + 2] + sums[4 * i + 3];
    } else if (f == 2) {
        for (int i = 0; i < n; i++) out[i] = (uint32_t) sums[2 * i] + sums[2 * i + 1];
    } else {
        for (int i = 0; i < n; i++) {
            uint32_t s = 0;
            for (int k = 0; k < f; k++) s += sums[i * f + k];
            out[i] = s;
        }
    }
}

static inline unsigned char clamp_byte(int32_t x) { return (unsigned char) (x < 0 ? 0 : x > 255 ? 255 : x); }

/* The averaging's state between bands of rows: the planes, the block geometry, its row sums
 * and how many output rows are written. */
struct cvips_box_rows {
    const unsigned char *luma, *cb, *cr;
    size_t luma_stride, chroma_stride;
    int chroma_width, chroma_height, h_shift, v_shift, factor, out_width, out_height;
    int bw, bh, regular, next;
    uint64_t y_mul;
    uint16_t *sums;
    uint32_t *blocks;
    unsigned char *rgb; /* 3 * out_width: the converted row as three planes (lanes) */
    unsigned char *out;
};

/* Factors up to this keep every block sum below 2^16 (luma: f * f * 255; chroma: at most
 * 16 x 8 samples), so the conversion can run in 32-bit lanes with each multiplier split into
 * 16-bit halves and still give exactly the 64-bit products' results (lanes_row). */
enum { LANE_FACTOR = 16 };

cvips_box_rows *cvips_box_rows_new(const unsigned char *luma, size_t luma_stride, const unsigned char *cb,
                                   const unsigned char *cr, size_t chroma_stride, int chroma_width, int chroma_height,
                                   int h_shift, int v_shift, int factor, int out_width, int out_height,
                                   unsigned char *out) {
    cvips_box_rows *b = malloc(sizeof *b);
    if (!b) return NULL;
    const int f = factor, n = out_width;
    *b = (cvips_box_rows){.luma = luma,
                          .cb = cb,
                          .cr = cr,
                          .luma_stride = luma_stride,
                          .chroma_stride = chroma_stride,
                          .chroma_width = chroma_width,
                          .chroma_height = chroma_height,
                          .h_shift = h_shift,
                          .v_shift = v_shift,
                          .factor = f,
                          .out_width = n,
                          .out_height = out_height,
                          .bw = (f + (1 << h_shift) - 1) >> h_shift,
                          .bh = (f + (1 << v_shift) - 1) >> v_shift,
                          .next = 0,
                          .y_mul = (uint64_t) multiplier((int64_t) f * f),
                          .out = out};
    /* Chroma blocks start at (i f) >> h_shift; with f even that is i (f >> h_shift), and the
     * block sums are sums of bw consecutive chroma sums: the regular case. */
    b->regular = (f & 1) == 0 && h_shift == 1 && b->bw * n <= chroma_width;
    b->sums = malloc(((size_t) n * f + 2 * (size_t) chroma_width) * sizeof *b->sums);
    b->blocks = malloc(3 * (size_t) n * sizeof *b->blocks);
    b->rgb = malloc(3 * (size_t) n);
    if (!b->sums || !b->blocks || !b->rgb) {
        cvips_box_rows_free(b);
        return NULL;
    }
    return b;
}

void cvips_box_rows_free(cvips_box_rows *b) {
    if (!b) return;
    free(b->sums);
    free(b->blocks);
    free(b->rgb);
    free(b);
}

/* The first chroma row under output row j, and how many chroma rows its blocks take. */
static inline int chroma_rows(const cvips_box_rows *b, int j, int *rows) {
    int cy0 = (j * b->factor) >> b->v_shift;
    if (cy0 > b->chroma_height - 1) cy0 = b->chroma_height - 1;
    *rows = b->bh < b->chroma_height - cy0 ? b->bh : b->chroma_height - cy0;
    return cy0;
}

/* The regular case's conversion for factors up to LANE_FACTOR in 32-bit lanes the compiler
 * vectorises: (s * m) >> 16 == s * (m >> 16) + ((s * (m & 0xFFFF)) >> 16) for whole numbers,
 * and every product here stays below 2^31. The same bytes as the 64-bit loop in box_row. */
static void lanes_row(const cvips_box_rows *b, int64_t c_mul, unsigned char *out) {
    const int n = b->out_width;
    const uint32_t *y_blocks = b->blocks, *b_blocks = b->blocks + n, *r_blocks = b_blocks + n;
    const uint32_t yh = (uint32_t) (b->y_mul >> 16), yl = (uint32_t) (b->y_mul & 0xFFFF);
    const uint32_t ch = (uint32_t) ((uint64_t) c_mul >> 16), cl = (uint32_t) ((uint64_t) c_mul & 0xFFFF);
    unsigned char *red = b->rgb, *green = red + n, *blue = green + n;
    for (int i = 0; i < n; i++) {
        const uint32_t ys = y_blocks[i], bs = b_blocks[i], rs = r_blocks[i];
        const int32_t l = (int32_t) (ys * yh + ((ys * yl) >> 16));
        const int32_t b0 = (int32_t) ((bs * ch + ((bs * cl) >> 16)) >> 8) - 32768;
        const int32_t r0 = (int32_t) ((rs * ch + ((rs * cl) >> 16)) >> 8) - 32768;
        red[i] = clamp_byte((l + ((22970 * r0) >> 6) + 32768) >> 16);
        green[i] = clamp_byte((l + 32768 - ((5638 * b0 + 11700 * r0) >> 6)) >> 16);
        blue[i] = clamp_byte((l + ((29032 * b0) >> 6) + 32768) >> 16);
    }
    for (int i = 0; i < n; i++) {
        out[3 * i] = red[i];
        out[3 * i + 1] = green[i];
        out[3 * i + 2] = blue[i];
    }
}

/* Output row j: its column sums, block sums and conversion. */
static void box_row(cvips_box_rows *b, int j) {
    const int f = b->factor, n = b->out_width, used = n * f, chroma_width = b->chroma_width;
    uint16_t *y_sums = b->sums, *b_sums = b->sums + used, *r_sums = b_sums + chroma_width;
    uint32_t *y_blocks = b->blocks, *b_blocks = b->blocks + n, *r_blocks = b_blocks + n;
    column_sums(y_sums, b->luma + (size_t) j * f * b->luma_stride, b->luma_stride, f, used);
    int rows;
    const int cy0 = chroma_rows(b, j, &rows);
    column_sums(b_sums, b->cb + (size_t) cy0 * b->chroma_stride, b->chroma_stride, rows, chroma_width);
    column_sums(r_sums, b->cr + (size_t) cy0 * b->chroma_stride, b->chroma_stride, rows, chroma_width);
    const int64_t whole_mul = multiplier((int64_t) rows * b->bw);
    block_sums(y_blocks, y_sums, f, n);
    if (b->regular) {
        block_sums(b_blocks, b_sums, b->bw, n);
        block_sums(r_blocks, r_sums, b->bw, n);
    }
    unsigned char *out = b->out + (size_t) j * n * 3;
    if (b->regular && f <= LANE_FACTOR) {
        lanes_row(b, whole_mul, out);
        return;
    }
    for (int i = 0; i < n; i++) {
        int64_t bs, rs, c_mul = whole_mul;
        if (b->regular) {
            bs = b_blocks[i];
            rs = r_blocks[i];
        } else {
            int cx0 = (i * f) >> b->h_shift;
            if (cx0 > chroma_width - 1) cx0 = chroma_width - 1;
            const int columns = b->bw < chroma_width - cx0 ? b->bw : chroma_width - cx0;
            bs = 0;
            rs = 0;
            for (int k = cx0; k < cx0 + columns; k++) {
                bs += b_sums[k];
                rs += r_sums[k];
            }
            if (columns != b->bw) c_mul = multiplier((int64_t) rows * columns);
        }
        /* PlanarPixels.rgb(y:cb:cr:) on the means scaled by 2^16; every value below fits
         * 32 bits (luma < 2^24, chroma offsets < 2^30). */
        const int32_t l = (int32_t) ((y_blocks[i] * b->y_mul) >> 16);
        const int32_t b0 = (int32_t) ((((uint64_t) bs * (uint64_t) c_mul) >> 16) >> 8) - 32768;
        const int32_t r0 = (int32_t) ((((uint64_t) rs * (uint64_t) c_mul) >> 16) >> 8) - 32768;
        out[0] = clamp_byte((l + ((22970 * r0) >> 6) + 32768) >> 16);
        out[1] = clamp_byte((l + 32768 - ((5638 * b0 + 11700 * r0) >> 6)) >> 16);
        out[2] = clamp_byte((l + ((29032 * b0) >> 6) + 32768) >> 16);
        out += 3;
    }
}

int cvips_box_rows_ready(cvips_box_rows *b, long luma_rows, long chroma_rows_ready) {
    while (b->next < b->out_height) {
        int rows;
        const int cy0 = chroma_rows(b, b->next, &rows);
        if ((long) (b->next + 1) * b->factor > luma_rows || (long) cy0 + rows > chroma_rows_ready) break;
        box_row(b, b->next++);
    }
    return b->next;
}

int cvips_box_rgb_planes(const unsigned char *luma, size_t luma_stride, const unsigned char *cb,
                         const unsigned char *cr, size_t chroma_stride, int chroma_width, int chroma_height,
                         int h_shift, int v_shift, int factor, int out_width, int out_height, unsigned char *out) {
    cvips_box_rows *b = cvips_box_rows_new(luma, luma_stride, cb, cr, chroma_stride, chroma_width, chroma_height,
                                           h_shift, v_shift, factor, out_width, out_height, out);
    if (!b) return -1;
    cvips_box_rows_ready(b, (long) out_height * factor, chroma_height);
    cvips_box_rows_free(b);
    return 0;
}

/*
 * Kernel: `vips_shrink` by a whole factor on 8-bit pixels (plain C loops the compiler
 * vectorises).
 *   Computes: the mean of `factor` rows, rounded, then of `factor` of those columns, rounded
 *             (libvips's vips_shrinkv then vips_shrinkh), edges repeated.
 *   Must equal byte for byte: libvips's own `vips_shrink` (its twin here, not a Swift loop).
 *   Checked by: VIPSImageRotateTests.analysisShrinkOwnLoopEqualsLibvips
 *             (Tests/VipsBridgeTests/VIPSImageRotateTests.swift).
 *   Swift entry: VIPSImage.analysisShrunk(by:) through cvips_analysis_shrink (the tests reach
 *             the libvips twin through the internal analysisShrunk(by:ownLoop:)).
 */
int cvips_box_shrink(const unsigned char *src, int width, int height, int bands, size_t stride, int factor,
                     int out_width, int out_height, unsigned char *dst) {
    const int f = factor;
    if (width < 1 || height < 1 || bands < 1 || f < 1 || f > 257 || out_width < 1 || out_height < 1 ||
        (size_t) width * bands > stride || out_width > width / f + 1 || out_height > height / f + 1)
        return -1;
    /* Row means are kept for `padded` columns: the last one repeated up to out_width * f. */
    const int padded = out_width * f > width ? out_width * f : width;
    const size_t n = (size_t) width * bands, np = (size_t) padded * bands;
    uint16_t *sums = malloc(n * sizeof *sums);
    unsigned char *means = malloc(np);
    if (!sums || !means) {
        free(sums);
        free(means);
        return -1;
    }
    /* (s + f / 2) / f as a multiply and a shift: exact for s < 2^32 / f (s < 2^17 here). */
    const uint64_t mul = (((uint64_t) 1 << 32) + f - 1) / f;
    const uint32_t half = (uint32_t) f / 2;
    for (int j = 0; j < out_height; j++) {
        memset(sums, 0, n * sizeof *sums);
        for (int r = 0; r < f; r++) {
            const int y = j * f + r < height ? j * f + r : height - 1;
            const unsigned char *row = src + (size_t) y * stride;
            for (size_t i = 0; i < n; i++) sums[i] = (uint16_t) (sums[i] + row[i]);
        }
        for (size_t i = 0; i < n; i++) means[i] = (unsigned char) (((sums[i] + half) * mul) >> 32);
        for (size_t i = n; i < np; i++) means[i] = means[i - (size_t) bands];
        unsigned char *out = dst + (size_t) j * out_width * bands;
        for (int x = 0; x < out_width; x++) {
            const unsigned char *block = means + (size_t) x * f * bands;
            for (int b = 0; b < bands; b++) {
                uint32_t s = 0;
                for (int k = 0; k < f; k++) s += block[k * bands + b];
                out[x * bands + b] = (unsigned char) (((s + half) * mul) >> 32);
            }
        }
    }
    free(sums);
    free(means);
    return 0;
}
