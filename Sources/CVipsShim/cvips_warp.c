#include "cvips_warp.h"

#include <stdint.h>

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>

int cvips_warp_planar_available(void) {
    static int available = -1;
    if (available < 0) {
        __builtin_cpu_init();
        available = __builtin_cpu_supports("avx2") ? 1 : 0;
    }
    return available;
}

/* Bilinear taps of 8 positions (16.16) in one plane: the values scaled by 2^16. Each tap
 * reads 4 bytes at its top-left and its lower-left sample (the two used, two ignored). */
__attribute__((target("avx2")))
static inline __m256i taps8(const unsigned char *plane, int stride, __m256i u, __m256i v) {
    const __m256i byte = _mm256_set1_epi32(255);
    __m256i ax = _mm256_and_si256(_mm256_srai_epi32(u, 8), byte);
    __m256i ay = _mm256_and_si256(_mm256_srai_epi32(v, 8), byte);
    __m256i offset = _mm256_add_epi32(_mm256_mullo_epi32(_mm256_srai_epi32(v, 16), _mm256_set1_epi32(stride)),
                                      _mm256_srai_epi32(u, 16));
    __m256i top = _mm256_i32gather_epi32((const int *) plane, offset, 1);
    __m256i bottom = _mm256_i32gather_epi32((const int *) (plane + stride), offset, 1);
    __m256i p0 = _mm256_and_si256(top, byte), p1 = _mm256_and_si256(_mm256_srli_epi32(top, 8), byte);
    __m256i q0 = _mm256_and_si256(bottom, byte), q1 = _mm256_and_si256(_mm256_srli_epi32(bottom, 8), byte);
    __m256i t = _mm256_add_epi32(_mm256_slli_epi32(p0, 8), _mm256_mullo_epi32(_mm256_sub_epi32(p1, p0), ax));
    __m256i b = _mm256_add_epi32(_mm256_slli_epi32(q0, 8), _mm256_mullo_epi32(_mm256_sub_epi32(q1, q0), ax));
    return _mm256_add_epi32(_mm256_slli_epi32(t, 8), _mm256_mullo_epi32(_mm256_sub_epi32(b, t), ay));
}

__attribute__((target("avx2")))
static inline __m256i to_byte(__m256i l, __m256i d) {
    __m256i x = _mm256_srai_epi32(_mm256_add_epi32(l, d), 16);
    return _mm256_min_epi32(_mm256_max_epi32(x, _mm256_setzero_si256()), _mm256_set1_epi32(255));
}

__attribute__((target("avx2")))
static int run_avx2(const unsigned char *luma, int ls, const unsigned char *cb, const unsigned char *cr, int cs,
                    int hs, int vs, int u, int v, int du, int dv, int count, unsigned char *out) {
    const __m256i lane = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
    const __m256i pair = _mm256_setr_epi32(0, 0, 2, 2, 4, 4, 6, 6);
    const __m256i half = _mm256_set1_epi32(32768);
    __m256i uu = _mm256_add_epi32(_mm256_set1_epi32(u), _mm256_mullo_epi32(lane, _mm256_set1_epi32(du)));
    __m256i vv = _mm256_add_epi32(_mm256_set1_epi32(v), _mm256_mullo_epi32(lane, _mm256_set1_epi32(dv)));
    const __m256i step_u = _mm256_set1_epi32(8 * du), step_v = _mm256_set1_epi32(8 * dv);
    const __m256i mid_u = _mm256_set1_epi32(du >> 1), mid_v = _mm256_set1_epi32(dv >> 1);
    const __m128i hshift = _mm_cvtsi32_si128(hs), vshift = _mm_cvtsi32_si128(vs);
    int made = 0;
    for (; made + 8 <= count; made += 8) {
        __m256i l = taps8(luma, ls, uu, vv);
        /* Each pair's chroma position: its first pixel's, plus half a step. */
        __m256i mu = _mm256_add_epi32(_mm256_permutevar8x32_epi32(uu, pair), mid_u);
        __m256i mv = _mm256_add_epi32(_mm256_permutevar8x32_epi32(vv, pair), mid_v);
        __m256i cu = _mm256_sub_epi32(_mm256_sra_epi32(_mm256_add_epi32(mu, half), hshift), half);
        __m256i cv = _mm256_sub_epi32(_mm256_sra_epi32(_mm256_add_epi32(mv, half), vshift), half);
        __m256i b0 = _mm256_sub_epi32(_mm256_srai_epi32(taps8(cb, cs, cu, cv), 8), half);
        __m256i r0 = _mm256_sub_epi32(_mm256_srai_epi32(taps8(cr, cs, cu, cv), 8), half);
        /* The conversion of PlanarPixels.rgb(y:cbScaled:crScaled:). */
        __m256i dr = _mm256_add_epi32(_mm256_srai_epi32(_mm256_mullo_epi32(r0, _mm256_set1_epi32(22970)), 6), half);
        __m256i dg = _mm256_sub_epi32(half, _mm256_srai_epi32(
            _mm256_add_epi32(_mm256_mullo_epi32(b0, _mm256_set1_epi32(5638)), _mm256_mullo_epi32(r0, _mm256_set1_epi32(11700))), 6));
        __m256i db = _mm256_add_epi32(_mm256_srai_epi32(_mm256_mullo_epi32(b0, _mm256_set1_epi32(29032)), 6), half);
        int32_t r[8], g[8], b[8];
        _mm256_storeu_si256((__m256i *) r, to_byte(l, dr));
        _mm256_storeu_si256((__m256i *) g, to_byte(l, dg));
        _mm256_storeu_si256((__m256i *) b, to_byte(l, db));
        for (int k = 0; k < 8; k++) {
            out[3 * k] = (unsigned char) r[k];
            out[3 * k + 1] = (unsigned char) g[k];
            out[3 * k + 2] = (unsigned char) b[k];
        }
        out += 24;
        uu = _mm256_add_epi32(uu, step_u);
        vv = _mm256_add_epi32(vv, step_v);
    }
    return made;
}

int cvips_warp_planar_pairs(const unsigned char *luma, size_t luma_stride,
                            const unsigned char *cb, const unsigned char *cr, size_t chroma_stride,
                            int h_shift, int v_shift, int u, int v, int du, int dv, int count,
                            unsigned char *out) {
    if (!cvips_warp_planar_available() || luma_stride > (1u << 20) || chroma_stride > (1u << 20)) return 0;
    return run_avx2(luma, (int) luma_stride, cb, cr, (int) chroma_stride, h_shift, v_shift, u, v, du, dv, count, out);
}

#else

int cvips_warp_planar_available(void) { return 0; }

int cvips_warp_planar_pairs(const unsigned char *luma, size_t luma_stride,
                            const unsigned char *cb, const unsigned char *cr, size_t chroma_stride,
                            int h_shift, int v_shift, int u, int v, int du, int dv, int count,
                            unsigned char *out) {
    (void) luma; (void) luma_stride; (void) cb; (void) cr; (void) chroma_stride; (void) h_shift; (void) v_shift;
    (void) u; (void) v; (void) du; (void) dv; (void) count; (void) out;
    return 0;
}

#endif
