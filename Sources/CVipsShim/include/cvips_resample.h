#ifndef CVIPS_RESAMPLE_H
#define CVIPS_RESAMPLE_H

#include <stddef.h>

/* The two passes of QuireImaging's Lanczos3 `Resampler` for one output row, with AVX2: the
 * same float operations in the same order as its Swift loops, so both give the same bytes
 * (no FMA: a fused multiply-add rounds once where the Swift loop rounds twice).
 *
 * 1 when this CPU runs them (x86-64 with AVX2, checked once), 0 when the caller must use its
 * own loops; the two functions below do nothing and return 0 then. */
int cvips_resample_available(void);

/* Vertical pass: `line[i]` = the `taps` rows from `rows` (`stride` bytes apart) weighted by
 * `weights`, for i in 0 ..< length. The first one or two taps (one when `taps` is odd) start
 * the sum; the rest are added in pairs, `line += (wa a + wb b)`. Returns 1 when done. */
int cvips_resample_vertical(const unsigned char *rows, size_t stride, const float *weights, int taps, int length,
                            float *line);

/* Horizontal pass of a 3-band row: output pixel x is the sum over its taps k of
 * line[3 (first[x] + k) + band] x its weight k, started at 0 and added in k order, clamped to
 * 0 ... 255 and rounded to the nearest, ties to even. Every pixel has `taps` weights, zeros
 * after its own (they leave its sum unchanged), laid out for pairs of pixels: the 8 floats at
 * pair_weights[((x / 2) taps + k) 8] are (x's weight k) x 4 then (x + 1's weight k) x 4, the
 * second four 0 for an odd last pixel; `pair_weights` is 32-byte aligned. Reads up to
 * 3 taps + 4 floats from each pixel's first tap: the caller pads `line` with zeros that far.
 * Returns 1 when done. */
int cvips_resample_horizontal3(const float *line, const ptrdiff_t *first, const float *pair_weights, int taps,
                               int out_width, unsigned char *out);

/* Horizontal pass of a 1-band (grey) row: output pixel x is the sum over its taps k of
 * line[first[x] + k] x its weight k, started at 0 and added in k order, clamped and rounded as
 * above. The weights are laid out for groups of eight pixels: the 8 floats at
 * oct_weights[((x / 8) taps + k) 8] are the weights k of pixels 8 (x / 8) ... + 7 (0 after a
 * pixel's own taps and for pixels past the last); `oct_weights` is 32-byte aligned. Reads up
 * to `taps` floats from each pixel's first tap (`first` values below 2^31): the caller pads
 * `line` with zeros that far. Returns 1 when done. */
int cvips_resample_horizontal1(const float *line, const ptrdiff_t *first, const float *oct_weights, int taps,
                               int out_width, unsigned char *out);

/* The grey horizontal pass of up to eight rows at once: output row r (r < rows, 1 ... 8) is
 * `cvips_resample_horizontal1` of lines[r] into outs[r], the same bytes. Each line holds
 * `length` floats followed by zeros up to length + taps + 7; `scratch` holds
 * (length + taps + 8) x 8 floats, 32-byte aligned, and is overwritten. Returns 1 when done. */
int cvips_resample_horizontal1_rows(const float *const *lines, int rows, int length, const ptrdiff_t *first,
                                    const float *oct_weights, int taps, int out_width, unsigned char *const *outs,
                                    float *scratch);

#endif
