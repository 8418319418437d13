/* Accumulator finishing shared by the convolution-family integer kernels.
 *
 * 8-bit kernels: TFLite accumulates in int32 (wrapping on overflow in practice). We sum in
 * int64 and wrap to int32 once, which gives the same bits without signed-overflow UB.
 * 16x8 kernels: int64 accumulator and the int64 MultiplyByQuantizedMultiplier; the
 * accumulator is clamped to +-2^47 (TFLite's documented input range) so that the product
 * inside stays defined. */
#ifndef TFCC_KERNELS_REF_CONV_ACC_H
#define TFCC_KERNELS_REF_CONV_ACC_H

#include <stdint.h>

#include "kernels/ref/conv.h"
#include "kernels/ref/conv_walk.h"
#include "kernels/ref/quant_util.h"
#include "kernels/ref/xnn_quant.h"

static inline int32_t tfcc_wrap_i32(int64_t v) { return (int32_t)(uint32_t)(uint64_t)v; }

/* acc (sum of products) + bias, scaled by channel c's multiplier (or float scale in XNNPACK
 * mode), offset and clamped. */
static inline int32_t tfcc_requant32(int64_t acc, int32_t bias, const tfcc_conv_requant *q,
                                     int32_t c) {
  int32_t a = tfcc_wrap_i32(acc + bias);
  const int32_t k = c * q->mult_stride;
  if (q->scale) return tfcc_requant_fp32(a, q->scale[k], q->output_offset, q->act_min, q->act_max);
  int32_t v;
  if (q->single_round) {
    const int t = 31 - q->shift[k]; /* >= 1: the multiplier is below 2^30 (shift <= 30) */
    v = (int32_t)(((int64_t)a * q->mult[k] + ((int64_t)1 << (t - 1))) >> t);
  } else {
    v = tfcc_mbqm(a, q->mult[k], q->shift[k]);
  }
  v = (int32_t)((int64_t)v + q->output_offset);
  return tfcc_clamp_i32(v, q->act_min, q->act_max);
}

/* tfcc_requant32 with the bias of channel c from an optional bias array. */
static inline int32_t tfcc_requant32_b(int64_t acc, const int32_t *bias, const tfcc_conv_requant *q,
                                       int32_t c) {
  return tfcc_requant32(acc, bias ? bias[c] : 0, q, c);
}

/* The float kernels' output: acc + bias[c] (bias optional), clamped to [lo, hi] (NaN passes). */
static inline float tfcc_bias_act_f32(float acc, const float *bias, size_t c, float lo, float hi) {
  float v = acc + (bias ? bias[c] : 0.f);
  v = v < lo ? lo : v;
  return v > hi ? hi : v;
}

static inline int64_t tfcc_clamp_acc48(int64_t v) {
  const int64_t lim = (int64_t)1 << 47;
  return v < -lim ? -lim : (v > lim - 1 ? lim - 1 : v);
}

/* int16 activations with an int32 bias (quantized_bias_type INT32): TFLite's 16x8 reference
 * kernels then accumulate in int32 (AccumScalar = int32_t) and requantize with the int32
 * MultiplyByQuantizedMultiplier (two roundings), not the int64 one. q->single_round: the
 * optimized CONV_2D kernel TFLite runs for an ungrouped convolution (cpu_backend_gemm on ruy,
 * which alone takes int16), whose multiplier rounds once, the result clamped to int32. */
static inline int32_t tfcc_requant16_b32(int64_t acc, int32_t bias, const tfcc_conv_requant *q,
                                         int32_t c) {
  const int32_t a = tfcc_wrap_i32(acc + bias);
  const int32_t k = c * q->mult_stride;
  int32_t m;
  if (q->single_round) {
    /* t in [1, 62] (shift in [-31, 30]): |a * mult| < 2^62, the sum below 2^63 */
    const int t = 31 - q->shift[k];
    const int64_t r = ((int64_t)a * q->mult[k] + ((int64_t)1 << (t - 1))) >> t;
    m = r > INT32_MAX ? INT32_MAX : r < INT32_MIN ? INT32_MIN : (int32_t)r;
  } else {
    m = tfcc_mbqm(a, q->mult[k], q->shift[k]);
  }
  const int32_t v = (int32_t)((int64_t)m + q->output_offset);
  return tfcc_clamp_i32(v, q->act_min, q->act_max);
}

static inline int32_t tfcc_requant64(int64_t acc, int64_t bias, const tfcc_conv_requant *q,
                                     int32_t c) {
  const int64_t lim = (int64_t)1 << 47;
  if (bias > lim) bias = lim;
  if (bias < -lim) bias = -lim;
  int64_t a = tfcc_clamp_acc48(tfcc_clamp_acc48(acc) + bias);
  const int32_t k = c * q->mult_stride;
  int32_t v = tfcc_mbqm64(a, q->mult[k], q->shift[k]);
  v = (int32_t)((int64_t)v + q->output_offset);
  return tfcc_clamp_i32(v, q->act_min, q->act_max);
}

#endif
