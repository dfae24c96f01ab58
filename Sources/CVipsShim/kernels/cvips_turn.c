/*
 * Kernel: the deskew rotation of an 8-bit page in memory, vips_rotate's geometry and bilinear
 * weights in a dedicated loop (AVX2 gathers for grey and RGB, 8 output pixels a step; grey
 * groups whose taps lie in one pair of rows read those rows once instead of gathering; a grey
 * group of blank paper and a group wholly in the fill are written with no weights computed;
 * sample positions walked in fixed point, checked against the doubles' floors; the source
 * rows the slanted walk will read asked for ahead of it).
 *   Computes: what libvips 8.14's vips_rotate(in, degrees, "interpolate" bilinear,
 *             "background" ...) gives (vips_affine: the canvas of the turned bounding box,
 *             input embedded in one pixel of background, 12-bit fixed-point weights).
 *   Why: libvips samples through a per-pixel interpolator call on small tiles; the deskew
 *             rotation was the largest single cost of a scan (181 of about 680 CPU ms).
 *   Checked by: TurnTests (Tests/QuireImagingTests/Deskew/TurnTests.swift): against
 *             vips_rotate itself, and the AVX2 loop against the portable one.
 *   Swift entry: VipsBridge's PageTurn.
 */
#include "cvips_turn.h"
#include "cvips_cpu.h"

#include <math.h>
#include <stdint.h>
#include <string.h>

/* libvips's VIPS_PI and VIPS_RAD, spelt out so the angle's bits are the same. */
#define TURN_PI (3.14159265358979323846)
#define TURN_RAD(R) (((R) / 360.0) * 2.0 * TURN_PI)
/* libvips's VIPS_INTERPOLATE_SHIFT: weights in 1/4096. */
#define TURN_SHIFT 12
#define TURN_SCALE (1 << TURN_SHIFT)

typedef struct {
    double ia, ib, ic, id; /* output -> input, as vips__transform_calc_inverse makes it */
    int left, top, width, height;
} turn_map;

static int round_int(double r) { return (int) (r > 0 ? r + 0.5 : r - 0.5); }

static void turn_map_make(int width, int height, double degrees, turn_map *m) {
    double a = 1.0 * cos(TURN_RAD(degrees));
    double b = 1.0 * -sin(TURN_RAD(degrees));
    double c = -b, d = a;
    double tmp = 1.0 / (a * d - b * c);
    m->ia = tmp * d;
    m->ib = -tmp * b;
    m->ic = -tmp * c;
    m->id = tmp * a;
    /* vips__transform_set_area: the corners' bounding box, rounded to nearest. */
    double xs[4] = {0, 0, width, width}, ys[4] = {0, height, 0, height};
    double l = 1e300, r = -1e300, t = 1e300, bo = -1e300;
    for (int i = 0; i < 4; i++) {
        double ox = a * xs[i] + b * ys[i] + 0.0, oy = c * xs[i] + d * ys[i] + 0.0;
        l = ox < l ? ox : l;
        r = ox > r ? ox : r;
        t = oy < t ? oy : t;
        bo = oy > bo ? oy : bo;
    }
    m->left = round_int(l);
    m->top = round_int(t);
    m->width = round_int(r - l);
    m->height = round_int(bo - t);
}

void cvips_turn_canvas(int width, int height, double degrees, int *left, int *top, int *out_width, int *out_height) {
    turn_map m;
    turn_map_make(width, height, degrees, &m);
    *left = m.left;
    *top = m.top;
    *out_width = m.width;
    *out_height = m.height;
}

void cvips_turn_source_rows(int width, int height, double degrees, int x0, int y0, int out_width, int rows, int *first,
                            int *last) {
    turn_map m;
    turn_map_make(width, height, degrees, &m);
    /* The input row is linear in the canvas position: its extremes lie at the region's corners. */
    double lo = 1e300, hi = -1e300;
    for (int k = 0; k < 4; k++) {
        double ox = x0 + m.left + ((k & 1) ? out_width - 1 : 0);
        double oy = y0 + m.top + ((k >> 1) ? rows - 1 : 0);
        double v = m.ic * ox + m.id * oy + 1.0; /* as cvips_turn_rows: the one-pixel border */
        lo = v < lo ? v : lo;
        hi = v > hi ? v : hi;
    }
    /* turn_pixel reads embedded rows floor(v) and floor(v) + 1: source rows floor(v) - 1 and
     * floor(v); one more each side for the positions the AVX2 loop accumulates. */
    double a = floor(lo) - 2, b = floor(hi) + 2;
    *first = a < 0 ? 0 : a > height ? height : (int) a;
    *last = b < *first ? *first : b > height ? height : (int) b;
}

void cvips_turn_ink(const double *background, int n_background, int bands, unsigned char *ink) {
    for (int z = 0; z < bands; z++) {
        /* vips_linear makes the value in float, vips_cast clips it and truncates. */
        double v = n_background <= 0 ? 0 : (float) background[n_background == 1 ? 0 : z < n_background ? z : 0];
        v = v < 0 ? 0 : v > 255 ? 255 : v;
        ink[z] = (unsigned char) v;
    }
}

/* One output pixel at input position (ix, iy) in the embedded input (source pixel (i, j) at
 * (i + 1, j + 1), background around it): vips_affine_gen's clip, then the bilinear taps. */
static inline void turn_pixel(const unsigned char *src, int w, int h, int bands, long stride, const unsigned char *ink,
                              double ix, double iy, unsigned char *q) {
    double ffx = floor(ix), ffy = floor(iy);
    if (ffx < 0 || ffx > w || ffy < 0 || ffy > h) {
        memcpy(q, ink, (size_t) bands);
        return;
    }
    int fx = (int) ffx, fy = (int) ffy;
    int X = (int) ((ix - fx) * TURN_SCALE), Y = (int) ((iy - fy) * TURN_SCALE);
    int Yd = TURN_SCALE - Y;
    int c4 = (Y * X) >> TURN_SHIFT, c2 = (Yd * X) >> TURN_SHIFT;
    int c3 = Y - c4, c1 = Yd - c2;
    const unsigned char *p[4];
    for (int k = 0; k < 4; k++) {
        int i = fx + (k & 1), j = fy + (k >> 1);
        p[k] = (i >= 1 && i <= w && j >= 1 && j <= h) ? src + (long) (j - 1) * stride + (long) (i - 1) * bands : ink;
    }
    for (int z = 0; z < bands; z++)
        q[z] = (unsigned char) ((c1 * p[0][z] + c2 * p[1][z] + c3 * p[2][z] + c4 * p[3][z] + TURN_SCALE / 2) >>
                                TURN_SHIFT);
}

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>

int cvips_turn_vectorized_available(void) { return cvips_cpu_has_avx2(); }

/* 8 positions rowu + k ia (k = first ... first + 7), with the same multiply and add as the
 * portable loop, split into whole parts and 12-bit fractions. */
__attribute__((target("avx2"))) static inline void positions8(double row, double step, int first, __m256i *whole,
                                                              __m256i *frac) {
    const __m256d lane = _mm256_setr_pd(0, 1, 2, 3), scale = _mm256_set1_pd(TURN_SCALE);
    __m256d k0 = _mm256_add_pd(_mm256_set1_pd((double) first), lane);
    __m256d k1 = _mm256_add_pd(k0, _mm256_set1_pd(4));
    __m256d p0 = _mm256_add_pd(_mm256_set1_pd(row), _mm256_mul_pd(k0, _mm256_set1_pd(step)));
    __m256d p1 = _mm256_add_pd(_mm256_set1_pd(row), _mm256_mul_pd(k1, _mm256_set1_pd(step)));
    __m256d f0 = _mm256_floor_pd(p0), f1 = _mm256_floor_pd(p1);
    *whole = _mm256_set_m128i(_mm256_cvttpd_epi32(f1), _mm256_cvttpd_epi32(f0));
    *frac = _mm256_set_m128i(_mm256_cvttpd_epi32(_mm256_mul_pd(_mm256_sub_pd(p1, f1), scale)),
                             _mm256_cvttpd_epi32(_mm256_mul_pd(_mm256_sub_pd(p0, f0), scale)));
}

/* The fixed-point walk along a span: a position p (source pixels) held as p 2^44 in 64 bits, so
 * that a lane's high 32 bits are floor(4096 p) (the whole part and the 12-bit fraction
 * positions8 makes) and its low 32 bits what lies below a 1/4096 step. Each step adds the
 * step's own p 2^44, rounded: after k steps the walk is within (k + 1) 2^-33 of a 1/4096 step
 * of the exact rowu + k du, and the doubles positions8 computes are within 2^-22 of a step of
 * it (positions below FIXED_MAX_POSITION). FIXED_BITS: the fraction's 12 bits and 32 below. */
#define FIXED_BITS 44
/* Spans longer than this fall back to positions8 for good: the walk's error bound above, with
 * k below 2^16, stays under 2^-16 of a step, far inside FIXED_MARGIN. */
#define FIXED_MAX_SPAN 65536
/* Positions at least this large (source pixels) are left to positions8: p 2^44 must fit in 63
 * bits, and 4096 p in the 32-bit lanes. */
#define FIXED_MAX_POSITION 262144.0
/* How close (in 2^-32 of a 1/4096 step) the walk may come to a step before the group is worked
 * out again in doubles by positions8: 2^-12 of a step, sixteen times the walk's worst error, so
 * a group that passes has the exact floors of positions8's doubles. */
#define FIXED_MARGIN (1u << 20)

/* p 2^44 for |p| < FIXED_MAX_POSITION, rounded to nearest. */
static inline long long fixed_of(double p) { return llround(ldexp(p, FIXED_BITS)); }

/* Whether a span of `count` positions from `row` by `step` can be walked in fixed point. */
static inline int fixed_walks(double row, double step, int count) {
    double end = row + (double) count * step;
    return count <= FIXED_MAX_SPAN && fabs(row) < FIXED_MAX_POSITION && fabs(end) < FIXED_MAX_POSITION &&
           fabs(step) < FIXED_MAX_POSITION;
}

/* The whole parts and 12-bit fractions of the 8 walked positions in `lo` (lanes 0-3) and `hi`
 * (lanes 4-7), as positions8 makes them; 0 (nothing written) when a lane lies within
 * FIXED_MARGIN of a 1/4096 step, where only the doubles can tell which side it falls. */
__attribute__((target("avx2"))) static inline int fixed8(__m256i lo, __m256i hi, __m256i *whole, __m256i *frac) {
    const __m256i odd_first = _mm256_setr_epi32(1, 3, 5, 7, 0, 2, 4, 6);
    __m256i a = _mm256_permutevar8x32_epi32(lo, odd_first), b = _mm256_permutevar8x32_epi32(hi, odd_first);
    __m256i steps = _mm256_permute2x128_si256(a, b, 0x20), below = _mm256_permute2x128_si256(a, b, 0x31);
    /* below + margin (mod 2^32) under 2 margins: below lies within a margin of 0 or of 2^32. */
    __m256i shifted = _mm256_add_epi32(below, _mm256_set1_epi32((int) FIXED_MARGIN));
    __m256i near = _mm256_cmpeq_epi32(_mm256_srli_epi32(shifted, 21), _mm256_setzero_si256());
    if (!_mm256_testz_si256(near, near)) return 0;
    *whole = _mm256_srai_epi32(steps, TURN_SHIFT);
    *frac = _mm256_and_si256(steps, _mm256_set1_epi32(TURN_SCALE - 1));
    return 1;
}

/* How far ahead along a canvas row (pixels) the source rows are asked for (prefetch_ahead). A
 * deskew walks the source on a slant: a row is read for a few dozen pixels before the walk
 * steps to the next, too short a run for the hardware to see a stream, so each step's first
 * read waited for memory. Far enough ahead for the rows to arrive before the walk gets there,
 * near enough to stay in the first-level cache (TurnTests pins the bytes, not the speed). */
#define TURN_AHEAD 128

/* Most source rows prefetch_ahead asks for at one position (a steep turn's group of 8 steps
 * through this many less two). */
#define TURN_AHEAD_ROWS 6

/* How many source rows to ask for at each step of a walk whose rows advance by `dv` a pixel:
 * the two a position samples and one more for every row a group of 8 steps through (at
 * least one: the row a group at the step reads next), up to TURN_AHEAD_ROWS. */
static inline int ahead_rows(double dv) {
    double steps = ceil(8.0 * fabs(dv));
    return steps < 1 ? 3 : steps > TURN_AHEAD_ROWS - 2 ? TURN_AHEAD_ROWS : 2 + (int) steps;
}

/* Asks for the cache lines of `rows` (at least 3) source rows from the upper one the walked
 * position (u, v) (p 2^44, in the embedded source, as fixed8 reads them) samples, those that
 * lie in the source; nothing when the position lies outside it or within 3 rows of its end. */
static inline void prefetch_ahead(const unsigned char *src, int w, int h, int bands, long stride, long long u,
                                  long long v, int rows) {
    long long x = u >> FIXED_BITS, y = v >> FIXED_BITS;
    if (x < 1 || x > w || y < 1 || y > h - 2) return;
    const unsigned char *at = src + (y - 1) * stride + (x - 1) * bands;
    /* The three every walk asks for, written out; a steep walk's further rows in a loop. */
    __builtin_prefetch(at, 0, 3);
    __builtin_prefetch(at + stride, 0, 3);
    __builtin_prefetch(at + 2 * stride, 0, 3);
    for (long long r = 3; r < rows && y + r <= h; r++) __builtin_prefetch(at + r * stride, 0, 3);
}

/* (c1 a + c2 b + c3 c + c4 d + 2048) >> 12 on 32-bit lanes. */
__attribute__((target("avx2"))) static inline __m256i blend8(__m256i c1, __m256i c2, __m256i c3, __m256i c4, __m256i a,
                                                             __m256i b, __m256i c, __m256i d) {
    __m256i s = _mm256_add_epi32(_mm256_mullo_epi32(c1, a), _mm256_mullo_epi32(c2, b));
    s = _mm256_add_epi32(s, _mm256_add_epi32(_mm256_mullo_epi32(c3, c), _mm256_mullo_epi32(c4, d)));
    return _mm256_srli_epi32(_mm256_add_epi32(s, _mm256_set1_epi32(TURN_SCALE / 2)), TURN_SHIFT);
}

/* The 8 lanes' values (0-255) as 8 bytes at `o`. */
__attribute__((target("avx2"))) static inline void store8(__m256i v, unsigned char *o) {
    __m256i bytes = _mm256_packus_epi16(_mm256_packs_epi32(v, v), _mm256_setzero_si256());
    int lo = _mm_cvtsi128_si32(_mm256_castsi256_si128(bytes));
    int hi = _mm_cvtsi128_si32(_mm256_extracti128_si256(bytes, 1));
    memcpy(o, &lo, 4);
    memcpy(o + 4, &hi, 4);
}

/* Byte `shift / 8` of each lane. */
#define TURN_BYTE(v, shift) _mm256_and_si256(_mm256_srli_epi32((v), (shift)), _mm256_set1_epi32(255))

/* The bilinear weights of 8 lanes from their 12-bit fractions, as turn_pixel makes them. */
__attribute__((target("avx2"))) static inline void weights8(__m256i X, __m256i Y, __m256i *c1, __m256i *c2, __m256i *c3,
                                                            __m256i *c4) {
    __m256i Yd = _mm256_sub_epi32(_mm256_set1_epi32(TURN_SCALE), Y);
    *c4 = _mm256_srli_epi32(_mm256_mullo_epi32(Y, X), TURN_SHIFT);
    *c2 = _mm256_srli_epi32(_mm256_mullo_epi32(Yd, X), TURN_SHIFT);
    *c3 = _mm256_sub_epi32(Y, *c4);
    *c1 = _mm256_sub_epi32(Yd, *c2);
}

/* 8 grey output pixels whose taps lie in one pair of source rows, within 16 bytes (a small
 * deskew angle: all but the groups where the row steps): the two rows' bytes are loaded once
 * and each pixel's pair picked out with a byte shuffle instead of two gathers. The pixels and
 * weights are the gather path's; 0 (nothing written) when the taps do not fit.
 * When all 32 loaded bytes hold one value v (blank paper, a solid bar), every pixel is v: the
 * four weights sum to exactly 4096, so (4096 v + 2048) >> 12 = v, and no weight is computed. */
__attribute__((target("avx2"))) static inline int grey_row8(const unsigned char *src, int w, int h, long stride,
                                                            __m256i fx, __m256i fy, __m256i X, __m256i Y,
                                                            unsigned char *o) {
    const __m256i fy0 = _mm256_permutevar8x32_epi32(fy, _mm256_setzero_si256());
    const __m256i fx0 = _mm256_permutevar8x32_epi32(fx, _mm256_setzero_si256());
    __m256i d = _mm256_sub_epi32(fx, fx0);
    __m256i misfit =
        _mm256_or_si256(_mm256_cmpgt_epi32(_mm256_setzero_si256(), d), _mm256_cmpgt_epi32(d, _mm256_set1_epi32(14)));
    misfit = _mm256_or_si256(misfit, _mm256_xor_si256(_mm256_cmpeq_epi32(fy, fy0), _mm256_set1_epi32(-1)));
    if (!_mm256_testz_si256(misfit, misfit)) return 0;
    long off = (long) (_mm256_cvtsi256_si32(fy0) - 1) * stride + (_mm256_cvtsi256_si32(fx0) - 1);
    /* The 16 bytes of the lower row must lie in the source (its last row is `w` bytes). */
    if (off + stride + 16 > (long) (h - 1) * stride + w) return 0;
    __m128i up = _mm_loadu_si128((const __m128i *) (src + off));
    __m128i down = _mm_loadu_si128((const __m128i *) (src + off + stride));
    __m128i v = _mm_set1_epi8((char) src[off]);
    if (_mm_movemask_epi8(_mm_and_si128(_mm_cmpeq_epi8(up, v), _mm_cmpeq_epi8(down, v))) == 0xFFFF) {
        memset(o, src[off], 8);
        return 1;
    }
    __m256i c1, c2, c3, c4;
    weights8(X, Y, &c1, &c2, &c3, &c4);
    __m256i upper = _mm256_broadcastsi128_si256(up);
    __m256i lower = _mm256_broadcastsi128_si256(down);
    /* Lane j: bytes d_j and d_j + 1, then zeros (a gathered 4-byte read's two low bytes). */
    __m256i pick = _mm256_or_si256(_mm256_or_si256(d, _mm256_slli_epi32(_mm256_add_epi32(d, _mm256_set1_epi32(1)), 8)),
                                   _mm256_set1_epi32((int) 0x80800000u));
    __m256i a = _mm256_shuffle_epi8(upper, pick), c = _mm256_shuffle_epi8(lower, pick);
    store8(blend8(c1, c2, c3, c4, TURN_BYTE(a, 0), TURN_BYTE(a, 8), TURN_BYTE(c, 0), TURN_BYTE(c, 8)), o);
    return 1;
}

/* The 4 lanes of one 128-bit half of a group (pixels 4 half ... 4 half + 3) as 8 RGB bytes
 * pairs: lane j of `up` and `down` holds, for channel `c`, bytes 3 d_j + c and 3 d_j + 3 + c
 * of the 16 loaded (the left and right taps), then zeros. */
__attribute__((target("avx2"))) static inline __m256i rgb_pick(__m256i d3, int c) {
    __m256i lo = _mm256_add_epi32(d3, _mm256_set1_epi32(c));
    __m256i hi = _mm256_add_epi32(lo, _mm256_set1_epi32(3));
    return _mm256_or_si256(_mm256_or_si256(lo, _mm256_slli_epi32(hi, 8)), _mm256_set1_epi32((int) 0x80800000u));
}

/* The 12 RGB bytes of each 128-bit half of `r`, `g`, `bl` (one channel a 32-bit lane), to `o`. */
__attribute__((target("avx2"))) static inline void store_rgb8(__m256i r, __m256i g, __m256i bl, unsigned char *o) {
    /* Per 128-bit lane (4 pixels): r0-3 g0-3 b0-3, then 4 zero bytes; shuffled to RGB. */
    __m256i bytes = _mm256_packus_epi16(_mm256_packs_epi32(r, g), _mm256_packs_epi32(bl, _mm256_setzero_si256()));
    const __m256i order = _mm256_setr_epi8(0, 4, 8, 1, 5, 9, 2, 6, 10, 3, 7, 11, -1, -1, -1, -1, 0, 4, 8, 1, 5, 9, 2, 6,
                                           10, 3, 7, 11, -1, -1, -1, -1);
    __m256i rgb = _mm256_shuffle_epi8(bytes, order);
    __m128i lo = _mm256_castsi256_si128(rgb), hi = _mm256_extracti128_si256(rgb, 1);
    unsigned char tmp[16];
    _mm_storeu_si128((__m128i *) tmp, lo);
    memcpy(o, tmp, 12);
    _mm_storeu_si128((__m128i *) tmp, hi);
    memcpy(o + 12, tmp, 12);
}

/* 8 RGB output pixels, as two halves of 4 whose taps lie in one pair of source rows within 16
 * bytes (a small deskew angle: all but the groups where the row steps): each half's two rows
 * are loaded once and every channel's tap pair picked out with a byte shuffle, where the
 * gather path makes four gathers. The pixels and weights are the gather path's; 0 (nothing
 * written) when the taps do not fit. A half whose 16 bytes repeat one pixel in both rows is
 * that pixel (the weights sum to 4096, as in grey_row8), with no weight computed. */
__attribute__((target("avx2"))) static inline int rgb_row8(const unsigned char *src, int w, int h, long stride,
                                                           __m256i fx, __m256i fy, __m256i X, __m256i Y,
                                                           unsigned char *o) {
    /* Each half's first lane, broadcast within its half. */
    const __m256i fx0 = _mm256_shuffle_epi32(fx, 0), fy0 = _mm256_shuffle_epi32(fy, 0);
    __m256i d = _mm256_sub_epi32(fx, fx0);
    /* 3 d + 5 (the right tap's last byte) must be at most 15. */
    __m256i misfit =
        _mm256_or_si256(_mm256_cmpgt_epi32(_mm256_setzero_si256(), d), _mm256_cmpgt_epi32(d, _mm256_set1_epi32(3)));
    misfit = _mm256_or_si256(misfit, _mm256_xor_si256(_mm256_cmpeq_epi32(fy, fy0), _mm256_set1_epi32(-1)));
    if (!_mm256_testz_si256(misfit, misfit)) return 0;
    const long last = (long) (h - 1) * stride + (long) w * 3;
    long off[2];
    __m128i up[2], down[2];
    int flat[2];
    int xs[8], ys[8];
    _mm256_storeu_si256((__m256i *) xs, fx);
    _mm256_storeu_si256((__m256i *) ys, fy);
    for (int half = 0; half < 2; half++) {
        const int x = xs[4 * half], y = ys[4 * half];
        off[half] = (long) (y - 1) * stride + (long) (x - 1) * 3;
        /* The 16 bytes of the lower row must lie in the source (its last row is `3 w` bytes). */
        if (off[half] + stride + 16 > last) return 0;
        up[half] = _mm_loadu_si128((const __m128i *) (src + off[half]));
        down[half] = _mm_loadu_si128((const __m128i *) (src + off[half] + stride));
        /* One pixel repeated: bytes 0-12 equal bytes 3-15, and the rows equal. */
        int same = _mm_movemask_epi8(_mm_cmpeq_epi8(up[half], down[half]));
        int repeat = _mm_movemask_epi8(_mm_cmpeq_epi8(up[half], _mm_srli_si128(up[half], 3)));
        flat[half] = same == 0xFFFF && (repeat & 0x1FFF) == 0x1FFF;
    }
    if (flat[0] && flat[1]) {
        for (int j = 0; j < 8; j++) memcpy(o + 3 * j, src + off[j / 4], 3);
        return 1;
    }
    __m256i c1, c2, c3, c4;
    weights8(X, Y, &c1, &c2, &c3, &c4);
    const __m256i upper = _mm256_set_m128i(up[1], up[0]), lower = _mm256_set_m128i(down[1], down[0]);
    const __m256i d3 = _mm256_add_epi32(d, _mm256_add_epi32(d, d));
    __m256i v[3];
    for (int c = 0; c < 3; c++) {
        __m256i pick = rgb_pick(d3, c);
        __m256i a = _mm256_shuffle_epi8(upper, pick), b = _mm256_shuffle_epi8(lower, pick);
        v[c] = blend8(c1, c2, c3, c4, TURN_BYTE(a, 0), TURN_BYTE(a, 8), TURN_BYTE(b, 0), TURN_BYTE(b, 8));
    }
    store_rgb8(v[0], v[1], v[2], o);
    return 1;
}

/* One row span of `count` pixels for grey (bands 1) or RGB (bands 3). Groups of 8 whose taps
 * all lie inside the source (and whose 4-byte reads stay in the buffer) are gathered; the
 * others, and the tail, go through turn_pixel. */
__attribute__((target("avx2"))) static void turn_span_avx2(const unsigned char *src, int w, int h, int bands,
                                                           long stride, const unsigned char *ink, double rowu,
                                                           double rowv, double du, double dv, int count,
                                                           unsigned char *q) {
    const __m256i one = _mm256_set1_epi32(1), wm1 = _mm256_set1_epi32(w - 1), hm1 = _mm256_set1_epi32(h - 1);
    const __m256i wm3 = _mm256_set1_epi32(w - 3), hm2 = _mm256_set1_epi32(h - 2);
    const __m256i vstride = _mm256_set1_epi32((int) stride), vbands = _mm256_set1_epi32(bands);
    const __m256i zero = _mm256_setzero_si256(), vw = _mm256_set1_epi32(w), vh = _mm256_set1_epi32(h);
    const int *top = (const int *) src, *bottom = (const int *) (src + stride);
    /* The positions walked in fixed point (fixed8) where the span allows, else in doubles. */
    const int walk = fixed_walks(rowu, du, count) && fixed_walks(rowv, dv, count);
    const long long u0 = walk ? fixed_of(rowu) : 0, su = walk ? fixed_of(du) : 0;
    const long long v0 = walk ? fixed_of(rowv) : 0, sv = walk ? fixed_of(dv) : 0;
    __m256i ulo = _mm256_setr_epi64x(u0, u0 + su, u0 + 2 * su, u0 + 3 * su);
    __m256i uhi = _mm256_add_epi64(ulo, _mm256_set1_epi64x(4 * su));
    __m256i vlo = _mm256_setr_epi64x(v0, v0 + sv, v0 + 2 * sv, v0 + 3 * sv);
    __m256i vhi = _mm256_add_epi64(vlo, _mm256_set1_epi64x(4 * sv));
    const __m256i su8 = _mm256_set1_epi64x(8 * su), sv8 = _mm256_set1_epi64x(8 * sv);
    const int ahead = ahead_rows(dv);
    int k = 0;
    for (; k + 8 <= count; k += 8) {
        __m256i fx, fy, X, Y;
        if (!walk || !fixed8(ulo, uhi, &fx, &X) || !fixed8(vlo, vhi, &fy, &Y)) {
            positions8(rowu, du, k, &fx, &X);
            positions8(rowv, dv, k, &fy, &Y);
        }
        if (walk)
            prefetch_ahead(src, w, h, bands, stride, u0 + (k + TURN_AHEAD) * su, v0 + (k + TURN_AHEAD) * sv, ahead);
        ulo = _mm256_add_epi64(ulo, su8);
        uhi = _mm256_add_epi64(uhi, su8);
        vlo = _mm256_add_epi64(vlo, sv8);
        vhi = _mm256_add_epi64(vhi, sv8);
        /* Inside: 1 <= fx <= w - 1, 1 <= fy <= h - 1, and not the last row's last pixels. */
        __m256i out = _mm256_or_si256(_mm256_cmpgt_epi32(one, fx), _mm256_cmpgt_epi32(fx, wm1));
        out = _mm256_or_si256(out, _mm256_or_si256(_mm256_cmpgt_epi32(one, fy), _mm256_cmpgt_epi32(fy, hm1)));
        out = _mm256_or_si256(out, _mm256_and_si256(_mm256_cmpgt_epi32(fy, hm2), _mm256_cmpgt_epi32(fx, wm3)));
        if (!_mm256_testz_si256(out, out)) {
            unsigned char *o = q + (long) k * bands;
            /* All 8 off the embedded source (turn_pixel's clip, a corner the turn brings in):
             * the fill, with no position worked out again. */
            __m256i clear = _mm256_or_si256(_mm256_cmpgt_epi32(zero, fx), _mm256_cmpgt_epi32(fx, vw));
            clear = _mm256_or_si256(clear, _mm256_or_si256(_mm256_cmpgt_epi32(zero, fy), _mm256_cmpgt_epi32(fy, vh)));
            if (_mm256_movemask_epi8(clear) == -1) {
                for (int j = 0; j < 8; j++) memcpy(o + j * bands, ink, (size_t) bands);
                continue;
            }
            for (int j = 0; j < 8; j++)
                turn_pixel(src, w, h, bands, stride, ink, rowu + (double) (k + j) * du, rowv + (double) (k + j) * dv,
                           o + (long) j * bands);
            continue;
        }
        unsigned char *o = q + (long) k * bands;
        if (bands == 1 && grey_row8(src, w, h, stride, fx, fy, X, Y, o)) continue;
        if (bands == 3 && rgb_row8(src, w, h, stride, fx, fy, X, Y, o)) continue;
        __m256i c1, c2, c3, c4;
        weights8(X, Y, &c1, &c2, &c3, &c4);
        __m256i off = _mm256_add_epi32(_mm256_mullo_epi32(_mm256_sub_epi32(fy, one), vstride),
                                       _mm256_mullo_epi32(_mm256_sub_epi32(fx, one), vbands));
        __m256i a = _mm256_i32gather_epi32(top, off, 1), c = _mm256_i32gather_epi32(bottom, off, 1);
        if (bands == 1) {
            store8(blend8(c1, c2, c3, c4, TURN_BYTE(a, 0), TURN_BYTE(a, 8), TURN_BYTE(c, 0), TURN_BYTE(c, 8)), o);
            continue;
        }
        __m256i off2 = _mm256_add_epi32(off, vbands);
        __m256i b = _mm256_i32gather_epi32(top, off2, 1), d = _mm256_i32gather_epi32(bottom, off2, 1);
        __m256i r = blend8(c1, c2, c3, c4, TURN_BYTE(a, 0), TURN_BYTE(b, 0), TURN_BYTE(c, 0), TURN_BYTE(d, 0));
        __m256i g = blend8(c1, c2, c3, c4, TURN_BYTE(a, 8), TURN_BYTE(b, 8), TURN_BYTE(c, 8), TURN_BYTE(d, 8));
        __m256i bl = blend8(c1, c2, c3, c4, TURN_BYTE(a, 16), TURN_BYTE(b, 16), TURN_BYTE(c, 16), TURN_BYTE(d, 16));
        store_rgb8(r, g, bl, o);
    }
    for (; k < count; k++)
        turn_pixel(src, w, h, bands, stride, ink, rowu + (double) k * du, rowv + (double) k * dv, q + (long) k * bands);
}

#else

int cvips_turn_vectorized_available(void) { return 0; }

#endif

int cvips_turn_rows(const unsigned char *src, int width, int height, int bands, long stride, double degrees,
                    const unsigned char *ink, int x0, int y0, int out_width, int rows, unsigned char *dst,
                    long dst_stride, int vectorized) {
    if (!src || !dst || !ink || width < 1 || height < 1 || bands < 1 || bands > 4 || stride < (long) width * bands ||
        out_width < 0 || rows < 0 || dst_stride < (long) out_width * bands)
        return -1;
    turn_map m;
    turn_map_make(width, height, degrees, &m);
    if (x0 < 0 || y0 < 0 || x0 + out_width > m.width || y0 + rows > m.height) return -1;
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
    /* Gather offsets are 32-bit. */
    int gather = vectorized && (bands == 1 || bands == 3) && cvips_turn_vectorized_available() &&
                 stride * (long) height < INT32_MAX - 64 && width >= 4 && height >= 3;
#else
    int gather = 0;
    (void) vectorized;
#endif
    for (int r = 0; r < rows; r++) {
        /* vips_affine_gen: continuous output position, to input space, then the one-pixel
         * border (idx = -1) and the window offset (0 for bilinear). */
        double ox = (x0 + m.left) - 0.0, oy = (y0 + r + m.top) - 0.0;
        double rowu = m.ia * ox + m.ib * oy, rowv = m.ic * ox + m.id * oy;
        rowu -= -1.0;
        rowv -= -1.0;
        unsigned char *q = dst + (long) r * dst_stride;
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
        if (gather) {
            turn_span_avx2(src, width, height, bands, stride, ink, rowu, rowv, m.ia, m.ic, out_width, q);
            continue;
        }
#endif
        for (int k = 0; k < out_width; k++)
            turn_pixel(src, width, height, bands, stride, ink, rowu + (double) k * m.ia, rowv + (double) k * m.ic,
                       q + (long) k * bands);
    }
    return 0;
}
