/* Reference L2 normalization along the last dimension (float, uint8, int8);
 * the contract is in l2norm.h. */
#include "kernels/ref/l2norm.h"

#include <math.h>
#include <stdbool.h>
#include <stddef.h>

#include "kernels/ref/quant_util.h"

void tfcc_l2norm_f32(int32_t outer, int32_t depth, const float *in, float *out) {
  const float epsilon = 1e-6f;
  for (int32_t i = 0; i < outer; i++) {
    const float *x = in + (size_t)i * depth;
    float sq = 0.f;
    for (int32_t c = 0; c < depth; c++) sq += x[c] * x[c];
    float norm = sqrtf(sq);
    if (norm < epsilon) norm = epsilon;
    for (int32_t c = 0; c < depth; c++) out[(size_t)i * depth + c] = x[c] / norm;
  }
}

/* gemmlowp SaturatingRoundingMultiplyByPOT<e> for e > 0 (saturating left shift). */
static int32_t sat_shl(int32_t x, int e) {
  const int32_t threshold = (int32_t)((1u << (31 - e)) - 1);
  if (x > threshold) return INT32_MAX;
  if (x < -threshold) return INT32_MIN;
  return tfcc_shl_wrap(x, e);
}

void tfcc_inv_sqrt_multiplier_exp(int32_t input, int reverse_shift, int32_t *mult, int *shift) {
  if (input <= 1) { /* 0 and 1 both give the largest multiplier, as TFLite */
    *mult = INT32_MAX;
    *shift = 0;
    return;
  }
  int s = 11;
  while (input >= (1 << 29)) {
    input /= 4;
    ++s;
  }
  const unsigned max_left_shift_bits = (unsigned)__builtin_clz((uint32_t)input) - 1;
  const unsigned max_left_shift_bit_pairs = max_left_shift_bits / 2;
  const unsigned left_shift_bit_pairs = max_left_shift_bit_pairs - 1;
  s -= (int)left_shift_bit_pairs;
  input = tfcc_shl_wrap(input, (int)(2 * left_shift_bit_pairs));
  /* Fixed point with 3 integer bits (F3); products of two F3 are F6, of three F9. */
  const int32_t fp_input = input >> 1;
  const int32_t fp_half_input = tfcc_rdbpot(fp_input, 1);
  const int32_t fp_half_three = (1 << 28) + (1 << 27); /* 1.5 in F3 */
  int32_t x = 1 << 28;                                 /* 1.0 in F3 */
  for (int i = 0; i < 5; i++) {
    const int32_t x3 = sat_shl(tfcc_srdhm(tfcc_srdhm(x, x), x), 6); /* Rescale<3>(F9) */
    const int32_t a = tfcc_srdhm(fp_half_three, x);                 /* F6 */
    const int32_t b = tfcc_srdhm(fp_half_input, x3);                /* F6 */
    x = sat_shl((int32_t)((uint32_t)a - (uint32_t)b), 3);           /* Rescale<3>(F6) */
  }
  x = tfcc_srdhm(x, 1518500250); /* * sqrt(2)/2 in F0 -> F3 */
  if (s < 0) {
    x = tfcc_shl_wrap(x, -s);
    s = 0;
  }
  *mult = x;
  *shift = s * reverse_shift;
}

/* The multiplier and shift of 1 / sqrt(sum of the row's squared values less the zero point)
 * (the 8-bit kernels' per-row step; int8 when s8, else uint8). */
static void row_inv_sqrt(const void *row, bool s8, int32_t depth, int32_t zp, int32_t *m, int *s) {
  int64_t sq = 0;
  for (int32_t c = 0; c < depth; c++) {
    int32_t d = (s8 ? (int32_t)((const int8_t *)row)[c] : (int32_t)((const uint8_t *)row)[c]) - zp;
    sq += (int64_t)d * d;
  }
  tfcc_inv_sqrt_multiplier_exp((int32_t)(uint32_t)(uint64_t)sq, -1, m, s);
}

/* Both 8-bit kernels: each row scaled by row_inv_sqrt's multiplier; the output scale is 1/128,
 * folded into the shift for int8, zero point 128 for uint8 (l2norm.cc's two reference paths). */
static void l2norm_q8(int32_t outer, int32_t depth, int32_t in_zp, const void *in, void *out,
                      bool s8) {
  for (int32_t i = 0; i < outer; i++) {
    const size_t row = (size_t)i * depth;
    int32_t m;
    int s;
    row_inv_sqrt((const uint8_t *)in + row, s8, depth, in_zp, &m, &s);
    for (int32_t c = 0; c < depth; c++) {
      if (s8) {
        const int32_t d = (int32_t)((const int8_t *)in)[row + c] - in_zp;
        ((int8_t *)out)[row + c] = (int8_t)tfcc_clamp_i32(tfcc_mbqm(d, m, s + 7), -128, 127);
      } else {
        const int32_t d = (int32_t)((const uint8_t *)in)[row + c] - in_zp;
        const int32_t v = 128 + tfcc_mbqm_lt1(128 * d, m, s);
        ((uint8_t *)out)[row + c] = (uint8_t)tfcc_clamp_i32(v, 0, 255);
      }
    }
  }
}

void tfcc_l2norm_u8(int32_t outer, int32_t depth, int32_t in_zp, const uint8_t *in, uint8_t *out) {
  l2norm_q8(outer, depth, in_zp, in, out, false);
}

void tfcc_l2norm_i8(int32_t outer, int32_t depth, int32_t in_zp, const int8_t *in, int8_t *out) {
  l2norm_q8(outer, depth, in_zp, in, out, true);
}
