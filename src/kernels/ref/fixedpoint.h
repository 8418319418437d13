/* gemmlowp-style fixed-point math (Q formats on int32 and int16 raw values), written to give
 * exactly the results of gemmlowp's fixedpoint.h scalar code, which TensorFlow Lite uses for
 * its integer logistic/tanh/softmax kernels. Only what our kernels call is here: int32 primitives
 * (wrapping add/sub, RoundingDivideByPOT, clz) and the int16 family behind int16 LOGISTIC/TANH.
 *
 * A value in format Fk ("k integer bits") on a B-bit raw type represents raw / 2^(B-1-k).
 * Functions take the integer-bit count as a runtime argument where gemmlowp has a template
 * parameter. Every add/sub/negate wraps like the two's-complement hardware gemmlowp relies on
 * (computed through unsigned arithmetic, so no C undefined behaviour). The 16-bit variants
 * (suffix _16) follow gemmlowp's int16 specialisations: 16-bit SaturatingRoundingDoublingHighMul,
 * saturating AddSaturatingIf16Bit, constants rounded from their 32-bit encodings. */
#ifndef TFCC_KERNELS_REF_FIXEDPOINT_H
#define TFCC_KERNELS_REF_FIXEDPOINT_H

#include <stdint.h>

#include "kernels/ref/quant_util.h"

/* ------------------------------------------------------------------ int32 primitives */

static inline int32_t tfcc_fp_add(int32_t a, int32_t b) {
  return (int32_t)((uint32_t)a + (uint32_t)b);
}
static inline int32_t tfcc_fp_sub(int32_t a, int32_t b) {
  return (int32_t)((uint32_t)a - (uint32_t)b);
}

/* Arithmetic shift right without relying on implementation-defined behaviour. */
static inline int32_t tfcc_asr32(int32_t x, int s) {
  return x >= 0 ? (int32_t)((uint32_t)x >> s) : (int32_t) ~(~(uint32_t)x >> s);
}

/* gemmlowp RoundingDivideByPOT (exponent 0..31). */
static inline int32_t tfcc_fp_rdbpot(int32_t x, int exponent) {
  if (exponent <= 0) return x;
  int32_t mask = (int32_t)((1LL << exponent) - 1);
  int32_t remainder = x & mask;
  int32_t threshold = (mask >> 1) + (x < 0 ? 1 : 0);
  return tfcc_asr32(x, exponent) + (remainder > threshold ? 1 : 0);
}

/* Count of leading zero bits of a 32-bit value (32 for 0). */
static inline int tfcc_clz32(uint32_t x) {
  int n = 0;
  if (x == 0) return 32;
  while (!(x & 0x80000000u)) {
    x <<= 1;
    n++;
  }
  return n;
}

/* ------------------------------------------------------------------ int16 primitives */

static inline int16_t tfcc_fp16_wrap(int32_t v) { return (int16_t)(uint16_t)(uint32_t)v; }
static inline int16_t tfcc_fp16_add(int16_t a, int16_t b) { return tfcc_fp16_wrap((int32_t)a + b); }
static inline int16_t tfcc_fp16_sub(int16_t a, int16_t b) { return tfcc_fp16_wrap((int32_t)a - b); }
static inline int16_t tfcc_fp16_neg(int16_t a) { return tfcc_fp16_wrap(-(int32_t)a); }
static inline int16_t tfcc_fp16_sat_add(int16_t a, int16_t b) {
  return (int16_t)tfcc_clamp_i32((int32_t)a + b, INT16_MIN, INT16_MAX);
}

/* 16-bit SaturatingRoundingDoublingHighMul (ARM VQRDMULH.S16). */
static inline int16_t tfcc_fp16_mul(int16_t a, int16_t b) {
  if (a == INT16_MIN && b == INT16_MIN) return INT16_MAX;
  int32_t ab = (int32_t)a * (int32_t)b;
  int32_t nudge = ab >= 0 ? (1 << 14) : (1 - (1 << 14));
  return (int16_t)((ab + nudge) / (1 << 15));
}

static inline int16_t tfcc_fp16_rdbpot(int16_t x, int exponent) {
  return (int16_t)tfcc_fp_rdbpot(x, exponent);
}

static inline int16_t tfcc_fp16_mul_pot(int16_t x, int exponent) {
  if (exponent == 0) return x;
  if (exponent < 0) return tfcc_fp16_rdbpot(x, -exponent);
  if (exponent >= 15) return x > 0 ? INT16_MAX : (x < 0 ? INT16_MIN : 0);
  const int32_t threshold = (1 << (15 - exponent)) - 1;
  if (x > threshold) return INT16_MAX;
  if (x < -threshold) return INT16_MIN;
  return tfcc_fp16_wrap((int32_t)x * (1 << exponent));
}

static inline int16_t tfcc_fp16_rescale(int16_t x, int src_bits, int dst_bits) {
  return tfcc_fp16_mul_pot(x, src_bits - dst_bits);
}

static inline int16_t tfcc_fp16_rounding_half_sum(int16_t a, int16_t b) {
  int32_t sum = (int32_t)a + b;
  int32_t sign = sum >= 0 ? 1 : -1;
  return (int16_t)((sum + sign) / 2);
}

static inline int16_t tfcc_fp16_one(int bits) {
  return bits == 0 ? INT16_MAX : (int16_t)(1 << (15 - bits));
}
static inline int16_t tfcc_fp16_const_pot(int bits, int exponent) {
  return (int16_t)(1 << (15 - bits + exponent));
}
/* gemmlowp RescaleConstantInitializer: a 32-bit constant encoding rounded to 16 bits. */
static inline int16_t tfcc_fp16_const(int32_t raw32) { return (int16_t)tfcc_fp_rdbpot(raw32, 16); }

/* ------------------------------------------------------------------ int16 functions */

static inline int16_t tfcc_fp16_exp_quarter(int16_t a) {
  const int16_t constant_term = tfcc_fp16_const(1895147668);
  const int16_t constant_1_over_3 = tfcc_fp16_const(715827883);
  int16_t x = tfcc_fp16_add(a, tfcc_fp16_const_pot(0, -3));
  int16_t x2 = tfcc_fp16_mul(x, x);
  int16_t x3 = tfcc_fp16_mul(x2, x);
  int16_t x4 = tfcc_fp16_mul(x2, x2);
  int16_t x4_over_4 = tfcc_fp16_mul_pot(x4, -2);
  int16_t poly = tfcc_fp16_mul_pot(
      tfcc_fp16_add(tfcc_fp16_mul(tfcc_fp16_add(x4_over_4, x3), constant_1_over_3), x2), -1);
  return tfcc_fp16_sat_add(constant_term, tfcc_fp16_mul(constant_term, tfcc_fp16_add(x, poly)));
}

static inline int16_t tfcc_fp16_exp_on_negative_values(int16_t a, int bits) {
  static const int32_t multipliers[7] = {1672461947, 1302514674, 790015084, 290630308,
                                         39332535,   720401,     242};
  const int frac = 15 - bits;
  const int16_t one_quarter = tfcc_fp16_const_pot(bits, -2);
  const int16_t mask = (int16_t)(one_quarter - 1);
  const int16_t a_mod = tfcc_fp16_sub((int16_t)(a & mask), one_quarter);
  int16_t result = tfcc_fp16_exp_quarter(tfcc_fp16_rescale(a_mod, bits, 0));
  const int16_t remainder = tfcc_fp16_sub(a_mod, a);
  for (int e = -2; e <= 4; e++) {
    if (bits > e) {
      const int shift = frac + e;
      if (shift < 16 && (remainder & (1 << shift)))
        result = tfcc_fp16_mul(result, tfcc_fp16_const(multipliers[e + 2]));
    }
  }
  if (bits > 5) {
    const int16_t clamp = tfcc_fp16_const(-(int32_t)(1 << (36 - bits)));
    if (a < clamp) result = 0;
  }
  if (a == 0) result = tfcc_fp16_one(0);
  return result;
}

static inline int16_t tfcc_fp16_nr_reciprocal_f2_(int16_t half_denominator) {
  const int16_t c48_over_17 = tfcc_fp16_const(1515870810);
  const int16_t c_neg32_over_17 = tfcc_fp16_const(-1010580540);
  int16_t x = tfcc_fp16_add(c48_over_17, tfcc_fp16_mul(half_denominator, c_neg32_over_17));
  for (int i = 0; i < 3; i++) {
    int16_t hdx = tfcc_fp16_mul(half_denominator, x);
    int16_t one_minus = tfcc_fp16_sub(tfcc_fp16_one(2), hdx);
    x = tfcc_fp16_add(x, tfcc_fp16_rescale(tfcc_fp16_mul(x, one_minus), 4, 2));
  }
  return x;
}

static inline int16_t tfcc_fp16_one_over_one_plus_x_for_x_in_0_1(int16_t a) {
  int16_t half_denominator = tfcc_fp16_rounding_half_sum(a, tfcc_fp16_one(0));
  return tfcc_fp16_rescale(tfcc_fp16_nr_reciprocal_f2_(half_denominator), 1, 0);
}

static inline int16_t tfcc_fp16_one_minus_x_over_one_plus_x_for_x_in_0_1(int16_t a) {
  int16_t half_denominator = tfcc_fp16_rounding_half_sum(a, tfcc_fp16_one(0));
  int16_t x = tfcc_fp16_nr_reciprocal_f2_(half_denominator);
  return tfcc_fp16_rescale(tfcc_fp16_sub(x, tfcc_fp16_one(2)), 2, 0);
}

static inline int16_t tfcc_fp16_tanh(int16_t a, int bits) {
  const int negative = a < 0;
  const int16_t n = negative ? a : tfcc_fp16_neg(a);
  const int16_t t = tfcc_fp16_one_minus_x_over_one_plus_x_for_x_in_0_1(
      tfcc_fp16_exp_on_negative_values(n, bits + 1));
  if (a == 0) return 0;
  return negative ? tfcc_fp16_neg(t) : t;
}

static inline int16_t tfcc_fp16_logistic(int16_t a, int bits) {
  const int positive = a > 0;
  const int16_t abs_a = positive ? a : tfcc_fp16_neg(a);
  const int16_t r_pos = tfcc_fp16_one_over_one_plus_x_for_x_in_0_1(
      tfcc_fp16_exp_on_negative_values(tfcc_fp16_neg(abs_a), bits));
  const int16_t r_neg = tfcc_fp16_sub(tfcc_fp16_one(0), r_pos);
  if (a == 0) return tfcc_fp16_const(1 << 30);
  return positive ? r_pos : r_neg;
}

#endif
