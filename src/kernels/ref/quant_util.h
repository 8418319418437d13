/* Fixed-point arithmetic with exactly TensorFlow Lite's rounding and saturation, shared by
 * every quantized kernel (reference and optimised). */
#ifndef TFCC_KERNELS_REF_QUANT_UTIL_H
#define TFCC_KERNELS_REF_QUANT_UTIL_H

#include <float.h>
#include <math.h>
#include <stdint.h>

/* Splits a real multiplier into a Q0.31 fixed-point multiplier and a power-of-two shift
 * (positive = left), as tflite::QuantizeMultiplier. */
static inline void tfcc_quantize_multiplier(double m, int32_t *qm, int *shift) {
  if (m == 0.0 || m != m) { /* NaN: only a hostile file's scales give one; as zero */
    *qm = 0;
    *shift = 0;
    return;
  }
  if (!(fabs(m) < 0x1p31)) { /* infinite or >= 2^31 (TFLite's conversion is undefined): saturate */
    *qm = m > 0.0 ? INT32_MAX : -INT32_MAX;
    *shift = 31;
    return;
  }
  int e = 0;
  double q = frexp(m, &e);
  int64_t q_fixed = (int64_t)round(q * (double)(1LL << 31));
  if (q_fixed == (1LL << 31)) {
    q_fixed /= 2;
    ++e;
  }
  if (e < -31) {
    e = 0;
    q_fixed = 0;
  }
  *qm = (int32_t)q_fixed;
  *shift = e;
}

/* gemmlowp SaturatingRoundingDoublingHighMul. */
static inline int32_t tfcc_srdhm(int32_t a, int32_t b) {
  if (a == b && a == INT32_MIN) return INT32_MAX;
  int64_t ab = (int64_t)a * (int64_t)b;
  int32_t nudge = ab >= 0 ? (1 << 30) : (1 - (1 << 30));
  return (int32_t)((ab + nudge) / (1LL << 31));
}

/* gemmlowp RoundingDivideByPOT (round half away from zero). */
static inline int32_t tfcc_rdbpot(int32_t x, int exponent) {
  int32_t mask = (int32_t)((1LL << exponent) - 1);
  int32_t remainder = x & mask;
  int32_t threshold = (mask >> 1) + (x < 0 ? 1 : 0);
  return (x >> exponent) + (remainder > threshold ? 1 : 0);
}

/* Left shift with wrap-around like TFLite's int32 `x * (1 << s)` without C UB. */
static inline int32_t tfcc_shl_wrap(int32_t x, int s) { return (int32_t)((uint32_t)x << s); }
/* a + b as two's complement hardware adds (TFLite's int32 accumulations wrap in practice). */
static inline int32_t tfcc_add_wrap(int32_t a, int32_t b) {
  return (int32_t)((uint32_t)a + (uint32_t)b);
}

/* tflite::MultiplyByQuantizedMultiplier(int32 x, int32 qm, int shift). */
static inline int32_t tfcc_mbqm(int32_t x, int32_t qm, int shift) {
  int left = shift > 0 ? shift : 0;
  int right = shift > 0 ? 0 : -shift;
  return tfcc_rdbpot(tfcc_srdhm(tfcc_shl_wrap(x, left), qm), right);
}

/* tflite::MultiplyByQuantizedMultiplierSmallerThanOneExp (shift <= 0). */
static inline int32_t tfcc_mbqm_lt1(int32_t x, int32_t qm, int left_shift) {
  return tfcc_rdbpot(tfcc_srdhm(x, qm), -left_shift);
}

/* tflite::MultiplyByQuantizedMultiplier(int64 x, int32 qm, int shift), used by int16
 * activations (16x8 kernels): reduces qm to 16 bits and rounds once. */
static inline int32_t tfcc_mbqm64(int64_t x, int32_t qm, int shift) {
  int32_t reduced = qm < 0x7FFF0000 ? (qm + (1 << 15)) >> 16 : 0x7FFF;
  int total_shift = 15 - shift;
  x = x * (int64_t)reduced + ((int64_t)1 << (total_shift - 1));
  return (int32_t)(x >> total_shift);
}

static inline int32_t tfcc_clamp_i32(int32_t v, int32_t lo, int32_t hi) {
  return v < lo ? lo : (v > hi ? hi : v);
}

/* Fused activation codes (schema ActivationFunctionType). */
enum {
  TFCC_ACT_NONE = 0,
  TFCC_ACT_RELU = 1,
  TFCC_ACT_RELU_N1_TO_1 = 2,
  TFCC_ACT_RELU6 = 3,
  TFCC_ACT_TANH = 4,
  TFCC_ACT_SIGN_BIT = 5
};

/* Float activation range as XNNPACK (TensorFlow Lite's delegate) clamps: +-INFINITY where the
 * activation has no bound, so an overflow stays inf. */
static inline void tfcc_act_range_f32(int act, float *lo, float *hi) {
  *lo = -INFINITY;
  *hi = INFINITY;
  if (act == TFCC_ACT_RELU)
    *lo = 0.f;
  else if (act == TFCC_ACT_RELU6) {
    *lo = 0.f;
    *hi = 6.f;
  } else if (act == TFCC_ACT_RELU_N1_TO_1) {
    *lo = -1.f;
    *hi = 1.f;
  }
}

/* The builtin kernels' float activation range (tflite::CalculateActivationRange: NONE is
 * [lowest(), max()], RELU [0, max()]): an overflow becomes +-FLT_MAX (inf + 1 = 3.4028235e38);
 * NaN passes. REFERENCE mode where the classic interpreter runs no delegate. */
static inline void tfcc_act_range_f32_builtin(int act, float *lo, float *hi) {
  tfcc_act_range_f32(act, lo, hi);
  if (*lo == -INFINITY) *lo = -FLT_MAX;
  if (*hi == INFINITY) *hi = FLT_MAX;
}

/* Quantized activation range (tflite::CalculateActivationRangeQuantized), for an output with
 * the given scale/zero point and the storage range [qmin, qmax]. */
/* zp + round(f / scale) as TFLite computes it, saturated to int32 where a tiny scale puts it
 * out of range (TFLite's int conversion is undefined there; the result is clamped to the
 * storage range after, so saturating gives that clamp). */
static inline int32_t tfcc_act_bound_q_(float f, float scale, int32_t zp) {
  const double v = (double)roundf(f / scale) + (double)zp;
  if (v != v) return zp;
  return v <= (double)INT32_MIN ? INT32_MIN : v >= (double)INT32_MAX ? INT32_MAX : (int32_t)v;
}

static inline void tfcc_act_range_q(int act, float scale, int32_t zp, int32_t qmin, int32_t qmax,
                                    int32_t *lo, int32_t *hi) {
#define TFCC_QUANTIZE_(f) tfcc_act_bound_q_((float)(f), scale, zp)
  int32_t a = qmin, b = qmax;
  if (act == TFCC_ACT_RELU) {
    int32_t z = TFCC_QUANTIZE_(0.0f);
    a = z > qmin ? z : qmin;
  } else if (act == TFCC_ACT_RELU6) {
    int32_t z = TFCC_QUANTIZE_(0.0f), s = TFCC_QUANTIZE_(6.0f);
    a = z > qmin ? z : qmin;
    b = s < qmax ? s : qmax;
  } else if (act == TFCC_ACT_RELU_N1_TO_1) {
    int32_t n = TFCC_QUANTIZE_(-1.0f), p = TFCC_QUANTIZE_(1.0f);
    a = n > qmin ? n : qmin;
    b = p < qmax ? p : qmax;
  }
#undef TFCC_QUANTIZE_
  *lo = a;
  *hi = b;
}

#endif
