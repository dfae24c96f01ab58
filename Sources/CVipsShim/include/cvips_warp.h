#ifndef CVIPS_WARP_H
#define CVIPS_WARP_H

#include <stddef.h>

/* 1 when this CPU runs cvips_warp_planar_pairs with AVX2 (x86-64 with AVX2), 0 when the
 * caller must use its own loop (checked once). */
int cvips_warp_planar_available(void);

/* The inner loop of the YCbCr-plane perspective warp (QuireImaging's PlanarWarpJob), 16
 * output pixels at a time (then 8) with AVX2 (taps from row loads when a run's lie within
 * 9 source rows and 15 columns, gathers elsewhere): the same arithmetic as its Swift loop, so both give the
 * same bytes.
 *
 * Output pixel k of the run (k = 0 ..< count) samples luma at 16.16 position
 * (u + k du, v + k dv); pixels 2j and 2j+1 share one chroma tap at the first one's position
 * plus (du >> 1, dv >> 1), in chroma coordinates ((x + 0.5) / 2^shift - 0.5). The caller
 * guarantees every tap and its right and lower neighbours, read as 4 bytes, lie inside the
 * planes. Writes RGB bytes to `out`, and returns how many pixels it made: a multiple of 8
 * (the caller finishes the run), 0 without AVX2. */
int cvips_warp_planar_pairs(const unsigned char *luma, size_t luma_stride, const unsigned char *cb,
                            const unsigned char *cr, size_t chroma_stride, int h_shift, int v_shift, int u, int v,
                            int du, int dv, int count, unsigned char *out);

#endif
