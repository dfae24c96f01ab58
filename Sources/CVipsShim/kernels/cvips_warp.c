/*
 * Kernel: the inner loop of the perspective warp of a capture held as YCbCr planes, AVX2,
 * 16 (then 8) output pixels at a time: row loads and byte shuffles where a run of taps lies
 * within a few source rows and 15 columns, gathers elsewhere.
 *   Computes: bilinear luma at 16.16 positions (u + k du, v + k dv), one chroma tap per pixel
 *             pair, converted to RGB bytes.
 *   Must equal byte for byte: `PlanarWarpJob.span` in
 *             Sources/QuireImaging/Correct/PerspectiveWarp+Planar.swift (same integer steps).
 *   Checked by: YCbCrFrameTests.vectorizedWarpEqualsThePortableLoop
 *             (Tests/QuireImagingTests/Decode/YCbCrFrameTests.swift) and
 *             PlanarWarpKernelTests (Tests/QuireImagingTests/Correct/, noise planes, each tap path).
 *   Swift entry: VipsBridge's SIMDWarp. Without AVX2 the Swift loop runs.
 */
#include "cvips_warp.h"
#include "cvips_cpu.h"

#include <stdint.h>
#include <string.h>

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>

/* Rows beyond the first that the load path of taps8 takes (one load and two blends each): 8
 * covers a run going straight down a source column (a page stored sideways: 8 taps at scale 1
 * or a little less, 8 chroma pair-taps of 4:2:0) as well as every turn of a page stored
 * upright; a run over more rows, or wider than 15 columns, uses the gathers. Sideways pages'
 * warp: 60.6 -> 55.4 CPU ms a page against 3 (docs/benchmarks.md). */
enum { ROW_LOAD_ROWS = 8 };

int cvips_warp_planar_available(void) { return cvips_cpu_has_avx2(); }

/* The bilinear blend of 8 taps: `top` and `bottom` hold each tap's left and right samples in
 * bytes 0 and 1 of its lane (the rest ignored); the values scaled by 2^16. */
__attribute__((target("avx2"))) static inline __m256i blend8(__m256i top, __m256i bottom, __m256i u, __m256i v) {
    const __m256i byte = _mm256_set1_epi32(255);
    __m256i ax = _mm256_and_si256(_mm256_srai_epi32(u, 8), byte);
    __m256i ay = _mm256_and_si256(_mm256_srai_epi32(v, 8), byte);
    __m256i p0 = _mm256_and_si256(top, byte), p1 = _mm256_and_si256(_mm256_srli_epi32(top, 8), byte);
    __m256i q0 = _mm256_and_si256(bottom, byte), q1 = _mm256_and_si256(_mm256_srli_epi32(bottom, 8), byte);
    __m256i t = _mm256_add_epi32(_mm256_slli_epi32(p0, 8), _mm256_mullo_epi32(_mm256_sub_epi32(p1, p0), ax));
    __m256i b = _mm256_add_epi32(_mm256_slli_epi32(q0, 8), _mm256_mullo_epi32(_mm256_sub_epi32(q1, q0), ax));
    return _mm256_add_epi32(_mm256_slli_epi32(t, 8), _mm256_mullo_epi32(_mm256_sub_epi32(b, t), ay));
}

/* Bilinear taps of 8 positions (16.16) in one plane, lane 0 at (u0, v0) and lane 7 at (u7, v7)
 * (evenly spaced positions, so every lane's lies between those two): the values scaled by 2^16.
 *
 * When the 8 taps fall within ROW_LOAD_ROWS + 1 rows and 15 columns (a page stored upright
 * or upside down, or sideways, at about its source's scale), their samples come from one
 * 16-byte load per row they touch (plus the row below)
 * and byte shuffles, each lane's row picked by compare and blend. Else each tap reads 4 bytes
 * at its top-left and its lower-left sample with two gathers (the two used, two ignored). The
 * same samples either way, so the same values; the loads cost about half the gathers (on this
 * project's Xeon a gather of 8 took 9-11 ns, docs/benchmarks.md). */
__attribute__((target("avx2"))) static inline __m256i taps8(const unsigned char *plane, int stride, __m256i u,
                                                            __m256i v, int u0, int v0, int u7, int v7) {
    int r0 = v0 >> 16, r7 = v7 >> 16, c0 = u0 >> 16, c7 = u7 >> 16;
    int row = r0 < r7 ? r0 : r7, col = c0 < c7 ? c0 : c7;
    int rows = (r0 < r7 ? r7 : r0) - row, cols = (c0 < c7 ? c7 : c0) - col;
    __m256i top, bottom;
    if (rows <= ROW_LOAD_ROWS && cols <= 14 && col + 16 <= stride) {
        const unsigned char *p = plane + (size_t) row * (size_t) stride + col;
        /* Lane k takes bytes i and i + 1 of the row (i = its column - col), zeros above. */
        __m256i i = _mm256_sub_epi32(_mm256_srai_epi32(u, 16), _mm256_set1_epi32(col));
        __m256i pick =
            _mm256_add_epi32(_mm256_or_si256(i, _mm256_slli_epi32(i, 8)), _mm256_set1_epi32((int) 0x80800100));
        top = _mm256_shuffle_epi8(_mm256_broadcastsi128_si256(_mm_loadu_si128((const __m128i *) p)), pick);
        bottom =
            _mm256_shuffle_epi8(_mm256_broadcastsi128_si256(_mm_loadu_si128((const __m128i *) (p + stride))), pick);
        __m256i r = _mm256_srai_epi32(v, 16);
        for (int k = 1; k <= rows; k++) {
            p += stride;
            __m256i next =
                _mm256_shuffle_epi8(_mm256_broadcastsi128_si256(_mm_loadu_si128((const __m128i *) (p + stride))), pick);
            __m256i lower = _mm256_cmpgt_epi32(r, _mm256_set1_epi32(row + k - 1));
            top = _mm256_blendv_epi8(top, bottom, lower);
            bottom = _mm256_blendv_epi8(bottom, next, lower);
        }
    } else {
        __m256i offset = _mm256_add_epi32(_mm256_mullo_epi32(_mm256_srai_epi32(v, 16), _mm256_set1_epi32(stride)),
                                          _mm256_srai_epi32(u, 16));
        top = _mm256_i32gather_epi32((const int *) plane, offset, 1);
        bottom = _mm256_i32gather_epi32((const int *) (plane + stride), offset, 1);
    }
    return blend8(top, bottom, u, v);
}

/* One pair-tap per two output pixels: the chroma offsets of 8 pairs (at each pair's first
 * pixel's position plus half a step), as PlanarPixels.rgbOffsets computes them. */
__attribute__((target("avx2"))) static inline void offsets8(const unsigned char *cb, const unsigned char *cr, int cs,
                                                            __m256i mu, __m256i mv, __m128i hshift, __m128i vshift,
                                                            int hs, int vs, int u0, int v0, int u7, int v7, __m256i *dr,
                                                            __m256i *dg, __m256i *db) {
    const __m256i half = _mm256_set1_epi32(32768);
    __m256i cu = _mm256_sub_epi32(_mm256_sra_epi32(_mm256_add_epi32(mu, half), hshift), half);
    __m256i cv = _mm256_sub_epi32(_mm256_sra_epi32(_mm256_add_epi32(mv, half), vshift), half);
    int cu0 = ((u0 + 32768) >> hs) - 32768, cv0 = ((v0 + 32768) >> vs) - 32768;
    int cu7 = ((u7 + 32768) >> hs) - 32768, cv7 = ((v7 + 32768) >> vs) - 32768;
    __m256i b0 = _mm256_sub_epi32(_mm256_srai_epi32(taps8(cb, cs, cu, cv, cu0, cv0, cu7, cv7), 8), half);
    __m256i r0 = _mm256_sub_epi32(_mm256_srai_epi32(taps8(cr, cs, cu, cv, cu0, cv0, cu7, cv7), 8), half);
    *dr = _mm256_add_epi32(_mm256_srai_epi32(_mm256_mullo_epi32(r0, _mm256_set1_epi32(22970)), 6), half);
    *dg = _mm256_sub_epi32(half, _mm256_srai_epi32(_mm256_add_epi32(_mm256_mullo_epi32(b0, _mm256_set1_epi32(5638)),
                                                                    _mm256_mullo_epi32(r0, _mm256_set1_epi32(11700))),
                                                   6));
    *db = _mm256_add_epi32(_mm256_srai_epi32(_mm256_mullo_epi32(b0, _mm256_set1_epi32(29032)), 6), half);
}

/* Writes 8 pixels' RGB (luma l, offsets d*) as 24 bytes: two saturating packs (int32 to
 * int16 to 0...255) clamp exactly as PlanarPixels.channel does, and a byte shuffle
 * interleaves them (storing byte by byte was a fifth of the loop's time). */
__attribute__((target("avx2"))) static inline void store8(unsigned char *out, __m256i l, __m256i dr, __m256i dg,
                                                          __m256i db) {
    __m256i r = _mm256_srai_epi32(_mm256_add_epi32(l, dr), 16);
    __m256i g = _mm256_srai_epi32(_mm256_add_epi32(l, dg), 16);
    __m256i b = _mm256_srai_epi32(_mm256_add_epi32(l, db), 16);
    /* Per 128-bit lane (4 pixels): r0-3 g0-3 b0-3, then 4 zero bytes. */
    __m256i rg = _mm256_packs_epi32(r, g), bz = _mm256_packs_epi32(b, _mm256_setzero_si256());
    __m256i bytes = _mm256_packus_epi16(rg, bz);
    const __m256i order = _mm256_setr_epi8(0, 4, 8, 1, 5, 9, 2, 6, 10, 3, 7, 11, -1, -1, -1, -1, 0, 4, 8, 1, 5, 9, 2, 6,
                                           10, 3, 7, 11, -1, -1, -1, -1);
    __m256i rgb = _mm256_shuffle_epi8(bytes, order);
    __m128i lo = _mm256_castsi256_si128(rgb), hi = _mm256_extracti128_si256(rgb, 1);
    _mm_storeu_si128((__m128i *) out, lo); /* 12 bytes used; the next store covers the rest */
    _mm_storel_epi64((__m128i *) (out + 12), hi);
    int last = _mm_extract_epi32(hi, 2);
    memcpy(out + 20, &last, 4);
}

__attribute__((target("avx2"))) static int run_avx2(const unsigned char *luma, int ls, const unsigned char *cb,
                                                    const unsigned char *cr, int cs, int hs, int vs, int u, int v,
                                                    int du, int dv, int count, unsigned char *out) {
    const __m256i lane = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
    const __m256i pair = _mm256_setr_epi32(0, 0, 2, 2, 4, 4, 6, 6);
    const __m256i first = _mm256_setr_epi32(0, 0, 1, 1, 2, 2, 3, 3), second = _mm256_setr_epi32(4, 4, 5, 5, 6, 6, 7, 7);
    __m256i uu = _mm256_add_epi32(_mm256_set1_epi32(u), _mm256_mullo_epi32(lane, _mm256_set1_epi32(du)));
    __m256i vv = _mm256_add_epi32(_mm256_set1_epi32(v), _mm256_mullo_epi32(lane, _mm256_set1_epi32(dv)));
    const __m256i step_u = _mm256_set1_epi32(8 * du), step_v = _mm256_set1_epi32(8 * dv);
    const __m256i mid_u = _mm256_set1_epi32(du >> 1), mid_v = _mm256_set1_epi32(dv >> 1);
    const __m128i hshift = _mm_cvtsi32_si128(hs), vshift = _mm_cvtsi32_si128(vs);
    /* Pair j's first pixel is 2j: its position, as the 8-pixel loop reaches it. */
    const __m256i lane2 = _mm256_slli_epi32(lane, 1);
    __m256i pu = _mm256_add_epi32(
        _mm256_add_epi32(_mm256_set1_epi32(u), _mm256_mullo_epi32(lane2, _mm256_set1_epi32(du))), mid_u);
    __m256i pv = _mm256_add_epi32(
        _mm256_add_epi32(_mm256_set1_epi32(v), _mm256_mullo_epi32(lane2, _mm256_set1_epi32(dv))), mid_v);
    const __m256i step2_u = _mm256_set1_epi32(16 * du), step2_v = _mm256_set1_epi32(16 * dv);
    int made = 0;
    __m256i dr, dg, db;
    /* 16 pixels a step: 8 pairs share one set of chroma gathers (4 gathers, where two 8-pixel
     * steps make 8 with each pair's taps computed twice). */
    /* Lane 0's position, in step with the vectors (for each group's first and last lanes). */
    unsigned su = (unsigned) u, sv = (unsigned) v;
    const unsigned udu = (unsigned) du, udv = (unsigned) dv, hu = (unsigned) (du >> 1), hv = (unsigned) (dv >> 1);
    for (; made + 16 <= count; made += 16) {
        __m256i la = taps8(luma, ls, uu, vv, (int) su, (int) sv, (int) (su + 7 * udu), (int) (sv + 7 * udv));
        __m256i lb = taps8(luma, ls, _mm256_add_epi32(uu, step_u), _mm256_add_epi32(vv, step_v), (int) (su + 8 * udu),
                           (int) (sv + 8 * udv), (int) (su + 15 * udu), (int) (sv + 15 * udv));
        offsets8(cb, cr, cs, pu, pv, hshift, vshift, hs, vs, (int) (su + hu), (int) (sv + hv),
                 (int) (su + 14 * udu + hu), (int) (sv + 14 * udv + hv), &dr, &dg, &db);
        su += 16 * udu;
        sv += 16 * udv;
        store8(out, la, _mm256_permutevar8x32_epi32(dr, first), _mm256_permutevar8x32_epi32(dg, first),
               _mm256_permutevar8x32_epi32(db, first));
        store8(out + 24, lb, _mm256_permutevar8x32_epi32(dr, second), _mm256_permutevar8x32_epi32(dg, second),
               _mm256_permutevar8x32_epi32(db, second));
        out += 48;
        uu = _mm256_add_epi32(uu, step2_u);
        vv = _mm256_add_epi32(vv, step2_v);
        pu = _mm256_add_epi32(pu, step2_u);
        pv = _mm256_add_epi32(pv, step2_v);
    }
    /* Then 8 (4 pairs, each tap computed twice as the lanes pair up). */
    for (; made + 8 <= count; made += 8) {
        __m256i l = taps8(luma, ls, uu, vv, (int) su, (int) sv, (int) (su + 7 * udu), (int) (sv + 7 * udv));
        __m256i mu = _mm256_add_epi32(_mm256_permutevar8x32_epi32(uu, pair), mid_u);
        __m256i mv = _mm256_add_epi32(_mm256_permutevar8x32_epi32(vv, pair), mid_v);
        offsets8(cb, cr, cs, mu, mv, hshift, vshift, hs, vs, (int) (su + hu), (int) (sv + hv),
                 (int) (su + 6 * udu + hu), (int) (sv + 6 * udv + hv), &dr, &dg, &db);
        su += 8 * udu;
        sv += 8 * udv;
        store8(out, l, dr, dg, db);
        out += 24;
        uu = _mm256_add_epi32(uu, step_u);
        vv = _mm256_add_epi32(vv, step_v);
    }
    return made;
}

int cvips_warp_planar_pairs(const unsigned char *luma, size_t luma_stride, const unsigned char *cb,
                            const unsigned char *cr, size_t chroma_stride, int h_shift, int v_shift, int u, int v,
                            int du, int dv, int count, unsigned char *out) {
    if (!cvips_warp_planar_available() || luma_stride > (1u << 20) || chroma_stride > (1u << 20)) return 0;
    return run_avx2(luma, (int) luma_stride, cb, cr, (int) chroma_stride, h_shift, v_shift, u, v, du, dv, count, out);
}

#else

int cvips_warp_planar_available(void) { return 0; }

int cvips_warp_planar_pairs(const unsigned char *luma, size_t luma_stride, const unsigned char *cb,
                            const unsigned char *cr, size_t chroma_stride, int h_shift, int v_shift, int u, int v,
                            int du, int dv, int count, unsigned char *out) {
    (void) luma;
    (void) luma_stride;
    (void) cb;
    (void) cr;
    (void) chroma_stride;
    (void) h_shift;
    (void) v_shift;
    (void) u;
    (void) v;
    (void) du;
    (void) dv;
    (void) count;
    (void) out;
    return 0;
}

#endif
