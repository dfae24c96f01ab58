/*
 * Kernel: the two passes of the Lanczos3 resampler (previews, thumbnails), AVX2.
 *   Computes: vertical pass = one float row, the weighted sum of `taps` source rows;
 *             horizontal pass = each 3-band (or 1-band) output pixel, the weighted sum of its
 *             taps in that row, clamped to 0...255 and rounded half to even.
 *   Must equal byte for byte: `ResampleJob.vertical`, `.horizontal3` and `.horizontal` in
 *             Sources/QuireImaging/Resample/Resampler.swift (same float operations in the same
 *             order; FP_CONTRACT off so no fused multiply-add rounds differently).
 *   Checked by: ResamplerTests.vectorizedEqualsTheSwiftLoops and, for grey rows eight at a
 *             time, ResamplerTests.greyRowsEightAtATimeEqualTheirTapSums
 *             (Tests/QuireImagingTests/Resample/ResamplerTests.swift).
 *   Swift entry: VipsBridge's SIMDResample. Without AVX2 the Swift loops run.
 */
#include "cvips_resample.h"
#include "cvips_cpu.h"

#include <stdint.h>
#include <string.h>

/* Separate multiplies and adds, as in the Swift loops (see the header). */
#pragma STDC FP_CONTRACT OFF

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>

int cvips_resample_available(void) { return cvips_cpu_has_avx2(); }

/* 8 bytes as 8 floats. */
__attribute__((target("avx2"))) static inline __m256 floats8(const unsigned char *p) {
    return _mm256_cvtepi32_ps(_mm256_cvtepu8_epi32(_mm_loadl_epi64((const __m128i *) p)));
}

__attribute__((target("avx2"))) static void vertical_avx2(const unsigned char *rows, size_t stride, const float *w,
                                                          int taps, int length, float *line) {
    int i = 0;
    /* 32 columns at a time, every tap summed in registers: the row is written once, not once
     * per pair of taps as the Swift loop does, and four independent sums hide the adds' latency. */
    for (; i + 32 <= length; i += 32) {
        const unsigned char *p = rows + i;
        __m256 acc[4];
        int k;
        if (taps & 1) {
            __m256 w0 = _mm256_set1_ps(w[0]);
            for (int j = 0; j < 4; j++) acc[j] = _mm256_mul_ps(w0, floats8(p + 8 * j));
            k = 1;
        } else {
            __m256 w0 = _mm256_set1_ps(w[0]), w1 = _mm256_set1_ps(w[1]);
            for (int j = 0; j < 4; j++)
                acc[j] = _mm256_add_ps(_mm256_mul_ps(w0, floats8(p + 8 * j)),
                                       _mm256_mul_ps(w1, floats8(p + stride + 8 * j)));
            k = 2;
        }
        for (; k < taps; k += 2) {
            const unsigned char *a = p + (size_t) k * stride, *b = a + stride;
            __m256 wa = _mm256_set1_ps(w[k]), wb = _mm256_set1_ps(w[k + 1]);
            for (int j = 0; j < 4; j++)
                acc[j] = _mm256_add_ps(acc[j], _mm256_add_ps(_mm256_mul_ps(wa, floats8(a + 8 * j)),
                                                             _mm256_mul_ps(wb, floats8(b + 8 * j))));
        }
        for (int j = 0; j < 4; j++) _mm256_storeu_ps(line + i + 8 * j, acc[j]);
    }
    for (; i + 8 <= length; i += 8) {
        const unsigned char *p = rows + i;
        __m256 acc;
        int k;
        if (taps & 1) {
            acc = _mm256_mul_ps(_mm256_set1_ps(w[0]), floats8(p));
            k = 1;
        } else {
            acc = _mm256_add_ps(_mm256_mul_ps(_mm256_set1_ps(w[0]), floats8(p)),
                                _mm256_mul_ps(_mm256_set1_ps(w[1]), floats8(p + stride)));
            k = 2;
        }
        for (; k < taps; k += 2) {
            const unsigned char *a = p + (size_t) k * stride;
            __m256 pair = _mm256_add_ps(_mm256_mul_ps(_mm256_set1_ps(w[k]), floats8(a)),
                                        _mm256_mul_ps(_mm256_set1_ps(w[k + 1]), floats8(a + stride)));
            acc = _mm256_add_ps(acc, pair);
        }
        _mm256_storeu_ps(line + i, acc);
    }
    for (; i < length; i++) {
        const unsigned char *p = rows + i;
        float acc;
        int k;
        if (taps & 1) {
            acc = w[0] * (float) p[0];
            k = 1;
        } else {
            acc = w[0] * (float) p[0] + w[1] * (float) p[stride];
            k = 2;
        }
        for (; k < taps; k += 2) {
            const unsigned char *a = p + (size_t) k * stride;
            acc += w[k] * (float) a[0] + w[k + 1] * (float) a[stride];
        }
        line[i] = acc;
    }
}

/* Clamped to 0 ... 255, rounded to the nearest (ties to even: the default rounding mode). */
__attribute__((target("avx2"))) static inline __m128i bytes4(__m128 v) {
    return _mm_cvtps_epi32(_mm_min_ps(_mm_max_ps(v, _mm_setzero_ps()), _mm_set1_ps(255)));
}

__attribute__((target("avx2"))) static void horizontal3_avx2(const float *line, const ptrdiff_t *first,
                                                             const float *pair_weights, int taps, int out_width,
                                                             unsigned char *out) {
    const __m128i pick = _mm_setr_epi8(0, 1, 2, 4, 5, 6, 8, 9, 10, 12, 13, 14, -1, -1, -1, -1);
    int x = 0;
    /* Eight output pixels a step, two to a register, one in each 128-bit half: (r, g, b,
     * ignored); the four registers are four independent sums, which hide the adds' latency. */
    for (; x + 8 <= out_width; x += 8) {
        const float *p[8];
        for (int j = 0; j < 8; j++) p[j] = line + 3 * first[x + j];
        const float *w = pair_weights + (size_t) (x / 2) * taps * 8;
        __m256 total[4] = {_mm256_setzero_ps(), _mm256_setzero_ps(), _mm256_setzero_ps(), _mm256_setzero_ps()};
        for (int k = 0; k < taps; k++) {
            for (int j = 0; j < 4; j++) {
                __m256 v = _mm256_loadu2_m128(p[2 * j + 1] + 3 * k, p[2 * j] + 3 * k);
                total[j] = _mm256_add_ps(total[j], _mm256_mul_ps(v, _mm256_load_ps(w + ((size_t) j * taps + k) * 8)));
            }
        }
        for (int j = 0; j < 4; j += 2) {
            __m128i a = bytes4(_mm256_castps256_ps128(total[j])), b = bytes4(_mm256_extractf128_ps(total[j], 1));
            __m128i c = bytes4(_mm256_castps256_ps128(total[j + 1])),
                    d = bytes4(_mm256_extractf128_ps(total[j + 1], 1));
            unsigned char twelve[16];
            _mm_storeu_si128((__m128i *) twelve,
                             _mm_shuffle_epi8(_mm_packus_epi16(_mm_packus_epi32(a, b), _mm_packus_epi32(c, d)), pick));
            memcpy(out + 3 * (x + 2 * j), twelve, 12);
        }
    }
    /* The last pairs one at a time (an odd last pixel pairs with zero weights). */
    for (; x < out_width; x += 2) {
        const float *pa = line + 3 * first[x], *pb = x + 1 < out_width ? line + 3 * first[x + 1] : pa;
        const float *w = pair_weights + (size_t) (x / 2) * taps * 8;
        __m256 total = _mm256_setzero_ps();
        for (int k = 0; k < taps; k++)
            total = _mm256_add_ps(total,
                                  _mm256_mul_ps(_mm256_loadu2_m128(pb + 3 * k, pa + 3 * k), _mm256_load_ps(w + k * 8)));
        int32_t v[8];
        _mm_storeu_si128((__m128i *) v, bytes4(_mm256_castps256_ps128(total)));
        _mm_storeu_si128((__m128i *) (v + 4), bytes4(_mm256_extractf128_ps(total, 1)));
        for (int j = 0; j < (x + 1 < out_width ? 2 : 1); j++) {
            out[3 * (x + j)] = (unsigned char) v[4 * j];
            out[3 * (x + j) + 1] = (unsigned char) v[4 * j + 1];
            out[3 * (x + j) + 2] = (unsigned char) v[4 * j + 2];
        }
    }
}

/* Grey rows (scans): eight output pixels a step, one to a lane; each tap gathers the eight
 * pixels' samples (their first taps differ), so every lane adds its own taps in k order as
 * the Swift loop does. */
__attribute__((target("avx2"))) static void horizontal1_avx2(const float *line, const ptrdiff_t *first,
                                                             const float *oct_weights, int taps, int out_width,
                                                             unsigned char *out) {
    for (int x = 0; x < out_width; x += 8) {
        int n = out_width - x < 8 ? out_width - x : 8;
        int start[8];
        /* Lanes past the last pixel read the last pixel's taps, with zero weights. */
        for (int j = 0; j < 8; j++) start[j] = (int) first[x + (j < n ? j : n - 1)];
        __m256i index = _mm256_loadu_si256((const __m256i *) start);
        const __m256i one = _mm256_set1_epi32(1);
        const float *w = oct_weights + (size_t) (x / 8) * taps * 8;
        __m256 total = _mm256_setzero_ps();
        for (int k = 0; k < taps; k++) {
            __m256 v = _mm256_i32gather_ps(line, index, 4);
            total = _mm256_add_ps(total, _mm256_mul_ps(v, _mm256_load_ps(w + (size_t) k * 8)));
            index = _mm256_add_epi32(index, one);
        }
        __m256i ints =
            _mm256_cvtps_epi32(_mm256_min_ps(_mm256_max_ps(total, _mm256_setzero_ps()), _mm256_set1_ps(255)));
        int32_t v[8];
        _mm256_storeu_si256((__m256i *) v, ints);
        for (int j = 0; j < n; j++) out[x + j] = (unsigned char) v[j];
    }
}

/* The 8 x 8 floats in r transposed: r[i] lane j becomes r[j] lane i. */
__attribute__((target("avx2"))) static inline void transpose8(__m256 r[8]) {
    __m256 t[8], u[8];
    for (int i = 0; i < 8; i += 2) {
        t[i] = _mm256_unpacklo_ps(r[i], r[i + 1]);
        t[i + 1] = _mm256_unpackhi_ps(r[i], r[i + 1]);
    }
    for (int i = 0; i < 8; i += 4) {
        u[i] = _mm256_shuffle_ps(t[i], t[i + 2], _MM_SHUFFLE(1, 0, 1, 0));
        u[i + 1] = _mm256_shuffle_ps(t[i], t[i + 2], _MM_SHUFFLE(3, 2, 3, 2));
        u[i + 2] = _mm256_shuffle_ps(t[i + 1], t[i + 3], _MM_SHUFFLE(1, 0, 1, 0));
        u[i + 3] = _mm256_shuffle_ps(t[i + 1], t[i + 3], _MM_SHUFFLE(3, 2, 3, 2));
    }
    for (int i = 0; i < 4; i++) {
        r[i] = _mm256_permute2f128_ps(u[i], u[i + 4], 0x20);
        r[i + 4] = _mm256_permute2f128_ps(u[i], u[i + 4], 0x31);
    }
}

/* Grey rows eight at a time (scans' previews): the rows' lines are interleaved, one row to a
 * lane, so a tap of one output pixel is one load for all eight rows where the one-row loop
 * above gathers eight scattered floats per tap. Each lane still adds its own pixel's taps in
 * k order, from 0: the same sums. */
__attribute__((target("avx2"))) static void horizontal1_rows8_avx2(const float *const *lines, int rows, int length,
                                                                   const ptrdiff_t *first, const float *oct_weights,
                                                                   int taps, int out_width, unsigned char *const *outs,
                                                                   float *scratch) {
    const float *in[8];
    for (int r = 0; r < 8; r++) in[r] = lines[r < rows ? r : 0];
    /* scratch[8 i + r] = lines[r][i], for every float a tap can read (the lines' zeros too). */
    for (int i = 0; i < length + taps; i += 8) {
        __m256 block[8];
        for (int r = 0; r < 8; r++) block[r] = _mm256_loadu_ps(in[r] + i);
        transpose8(block);
        for (int c = 0; c < 8; c++) _mm256_store_ps(scratch + (size_t) (i + c) * 8, block[c]);
    }
    for (int x = 0; x < out_width; x += 8) {
        int n = out_width - x < 8 ? out_width - x : 8;
        const float *at[8];
        /* Pixels past the last read the last pixel's taps, with zero weights. */
        for (int j = 0; j < 8; j++) at[j] = scratch + (size_t) first[x + (j < n ? j : n - 1)] * 8;
        const float *w = oct_weights + (size_t) (x / 8) * taps * 8;
        __m256 total[8];
        for (int j = 0; j < 8; j++) total[j] = _mm256_setzero_ps();
        for (int k = 0; k < taps; k++)
            for (int j = 0; j < 8; j++)
                total[j] = _mm256_add_ps(total[j], _mm256_mul_ps(_mm256_load_ps(at[j] + (size_t) k * 8),
                                                                 _mm256_broadcast_ss(w + (size_t) k * 8 + j)));
        transpose8(total); /* now total[r] holds row r's eight pixels */
        for (int r = 0; r < rows; r++) {
            __m256i ints =
                _mm256_cvtps_epi32(_mm256_min_ps(_mm256_max_ps(total[r], _mm256_setzero_ps()), _mm256_set1_ps(255)));
            __m128i words = _mm_packus_epi32(_mm256_castsi256_si128(ints), _mm256_extracti128_si256(ints, 1));
            unsigned char eight[16];
            _mm_storeu_si128((__m128i *) eight, _mm_packus_epi16(words, words));
            memcpy(outs[r] + x, eight, (size_t) n);
        }
    }
}

int cvips_resample_vertical(const unsigned char *rows, size_t stride, const float *weights, int taps, int length,
                            float *line) {
    if (!cvips_resample_available() || taps < 1) return 0;
    vertical_avx2(rows, stride, weights, taps, length, line);
    return 1;
}

int cvips_resample_horizontal3(const float *line, const ptrdiff_t *first, const float *pair_weights, int taps,
                               int out_width, unsigned char *out) {
    if (!cvips_resample_available() || taps < 1 || ((size_t) pair_weights & 31) != 0) return 0;
    horizontal3_avx2(line, first, pair_weights, taps, out_width, out);
    return 1;
}

int cvips_resample_horizontal1(const float *line, const ptrdiff_t *first, const float *oct_weights, int taps,
                               int out_width, unsigned char *out) {
    if (!cvips_resample_available() || taps < 1 || out_width < 1 || ((size_t) oct_weights & 31) != 0) return 0;
    horizontal1_avx2(line, first, oct_weights, taps, out_width, out);
    return 1;
}

int cvips_resample_horizontal1_rows(const float *const *lines, int rows, int length, const ptrdiff_t *first,
                                    const float *oct_weights, int taps, int out_width, unsigned char *const *outs,
                                    float *scratch) {
    if (!cvips_resample_available() || rows < 1 || rows > 8 || length < 1 || taps < 1 || out_width < 1 ||
        ((size_t) oct_weights & 31) != 0 || ((size_t) scratch & 31) != 0)
        return 0;
    horizontal1_rows8_avx2(lines, rows, length, first, oct_weights, taps, out_width, outs, scratch);
    return 1;
}

#else

int cvips_resample_available(void) { return 0; }

int cvips_resample_vertical(const unsigned char *rows, size_t stride, const float *weights, int taps, int length,
                            float *line) {
    (void) rows;
    (void) stride;
    (void) weights;
    (void) taps;
    (void) length;
    (void) line;
    return 0;
}

int cvips_resample_horizontal3(const float *line, const ptrdiff_t *first, const float *pair_weights, int taps,
                               int out_width, unsigned char *out) {
    (void) line;
    (void) first;
    (void) pair_weights;
    (void) taps;
    (void) out_width;
    (void) out;
    return 0;
}

int cvips_resample_horizontal1(const float *line, const ptrdiff_t *first, const float *oct_weights, int taps,
                               int out_width, unsigned char *out) {
    (void) line;
    (void) first;
    (void) oct_weights;
    (void) taps;
    (void) out_width;
    (void) out;
    return 0;
}

int cvips_resample_horizontal1_rows(const float *const *lines, int rows, int length, const ptrdiff_t *first,
                                    const float *oct_weights, int taps, int out_width, unsigned char *const *outs,
                                    float *scratch) {
    (void) lines;
    (void) rows;
    (void) length;
    (void) first;
    (void) oct_weights;
    (void) taps;
    (void) out_width;
    (void) outs;
    (void) scratch;
    return 0;
}

#endif
