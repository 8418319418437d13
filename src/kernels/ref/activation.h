/* Element-wise activation kernels (float and quantized), matching TensorFlow Lite's default
 * builtin kernels bit for bit on quantized data. No knowledge of tensors or models: pointers,
 * element counts and precomputed parameters only. Quantized element types are given as
 * tfcc_dtype (TFCC_UINT8, TFCC_INT8, TFCC_INT16); callers validate them. */
#ifndef TFCC_KERNELS_REF_ACTIVATION_H
#define TFCC_KERNELS_REF_ACTIVATION_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tfcc/tfcc.h"

/* ---------------------------------------------------------------- float */

/* out = min(max(in, lo), hi); NaN maps to lo (as std::min(std::max(lo, x), hi)). */
void tfcc_clamp_f32(const float *in, float *out, size_t n, float lo, float hi);
void tfcc_leaky_relu_f32(const float *in, float *out, size_t n, float alpha);
void tfcc_logistic_f32(const float *in, float *out, size_t n);
void tfcc_tanh_f32(const float *in, float *out, size_t n);
/* TANH as TensorFlow Lite's default build runs a float node (LiteRT, XNNPACK's f32-vtanh
 * rational_9_8_div as its WebAssembly SIMD kernel computes it, no fused multiply-add): x clamped
 * to +-7.8522667885 (NaN passes), x2 = x * x, p = x (1 + x2 (a3 + x2 (a5 + x2 (a7 + x2 a9)))),
 * q = 1 + x2 (b2 + x2 (b4 + x2 (b6 + x2 b8))), p / q, every product and sum rounded apart.
 * Identified against LiteRT.js: 0 of 80,000 probe values different (NaN's sign aside). Within
 * TFCC_TANH_XNN_ULP ulp of tanh (6.82 at most over every float). The portable loop; the vector kernels are the tanh of the
 * tflite_f32 family (the same bits). */
void tfcc_tanh_f32_xnn(const float *in, float *out, size_t n);
#define TFCC_TANH_XNN_ULP 7
/* TANH as TensorFlow Lite's builtin kernel runs it (the classic interpreter: Eigen's fast
 * rational tanh): |x| < 0.0004 gives x; else x clamped to +-7.90531110763549805, numerator to
 * x^13 (odd), denominator to x^6 (even), p / q, products and sums rounded apart. Matches the
 * classic TFLite Web interpreter on 80,000 probe values (NaN's sign aside). Within
 * TFCC_TANH_EIGEN_ULP ulp of tanh (6.88 at most over every float). */
void tfcc_tanh_f32_eigen(const float *in, float *out, size_t n);
#define TFCC_TANH_EIGEN_ULP 7
float tfcc_act_tanh_eigen(float x); /* one element of tfcc_tanh_f32_eigen */
/* LOGISTIC as TensorFlow Lite's builtin kernels compute it (the classic interpreter without its
 * XNNPACK delegate: optimized_ops::Logistic, and tensor_utils::ApplySigmoidToVector, which every
 * float / hybrid LSTM and RNN cell calls; both Eigen's generic logistic): e = expf(x), 1 where e
 * overflows to inf, else e / (1 + e), rounded apart. Matches the classic TFLite Web interpreter on
 * 44,000 probe values through LSTM cells and 40,000 through a LOGISTIC the delegate leaves (NaN
 * aside). expf is the C library's in its plain build (tfcc_expf_ref, kernels/ref/expf.h: the
 * reference interpreter's Emscripten musl; x86-64 glibc's FMA build is 1 ulp off at one float
 * that matters here, -0x1.f8cbb2p+5, so the host's expf is not called). */
float tfcc_act_logistic_eigen(float x);
void tfcc_logistic_f32_eigen(const float *in, float *out, size_t n);
void tfcc_elu_f32(const float *in, float *out, size_t n);
void tfcc_gelu_f32(const float *in, float *out, size_t n, bool approximate);
/* float16 (IEEE binary16 bits) as LiteRT's default build: XNNPACK's float32 rational
 * interpolant, rounded to half once. */
void tfcc_gelu_f16(const uint16_t *in, uint16_t *out, size_t n, bool approximate);
/* float32 as XNNPACK computes it (the same interpolant, no rounding to half): TFLite's
 * delegate runs a float GELU of a hybrid model. */
void tfcc_gelu_f32_xnn(const float *in, float *out, size_t n, bool approximate);
/* XNNPACK's GELU interpolants: numerator alpha (x^1..x^11, odd), denominator beta (x^2..x^10),
 * x clamped to +-max_abs; gelu (erf) or approximate (tanh form). */
typedef struct tfcc_gelu_rational {
  float max_abs, alpha[6], beta[5];
} tfcc_gelu_rational;
const tfcc_gelu_rational *tfcc_gelu_xnn_rational(bool approximate);
void tfcc_hard_swish_f32(const float *in, float *out, size_t n);
/* HARD_SWISH as the classic interpreter's builtin kernel computes it (tfweb, ref11): (x *
 * min(max(x + 3, 0), 6)) * (1.0f / 6), each step rounded (the division by 6 of the line above is
 * an ulp apart on ~25% of inputs there). */
void tfcc_hard_swish_f32_builtin(const float *in, float *out, size_t n);

/* Scalar transforms exactly as TFLite's LUT generators evaluate them (float math). */
float tfcc_act_logistic(float x);
float tfcc_act_tanh(float x);
float tfcc_act_elu(float x);
float tfcc_act_gelu(float x);
float tfcc_act_gelu_approx(float x);
/* XNNPACK's reference sigmoid (the one its 8-bit lookup tables are built from): exp and
 * e / (1 + e) in double, 0 below -100 and 1 above 100, rounded to float once. */
float tfcc_act_logistic_xnn(float x);

/* ---------------------------------------------------------------- 8-bit lookup tables */

/* tflite LUTPopulate<uint8_t|int8_t>: table indexed by the raw input byte (int8 values cast to
 * uint8), entry = clamp(round(f(in_scale * (q - in_zp)) / out_scale) + out_zp), float math. */
void tfcc_lut8_build(tfcc_dtype type, float in_scale, int32_t in_zp, float out_scale,
                     int32_t out_zp, float (*f)(float), uint8_t lut[256]);
/* XNNPACK's 8-bit lookup tables of unary operators (qs8 / qu8 LOGISTIC, TANH, ELU as the TFLite
 * delegate runs them): entry = saturate(nearbyint(f((float)(q - in_zp) * in_scale)
 * * (1 / out_scale) + out_zp)), float math, ties to even, NaN to 0. */
void tfcc_lut8_build_xnn(tfcc_dtype type, float in_scale, int32_t in_zp, float out_scale,
                         int32_t out_zp, float (*f)(float), uint8_t lut[256]);
void tfcc_lut8_apply(const uint8_t *in, uint8_t *out, size_t n, const uint8_t lut[256]);

/* ---------------------------------------------------------------- requantize + clamp */

/* RELU / RELU6 / RELU_N1_TO_1 on quantized data (tflite ReluX):
 * out = clamp(out_zp + MultiplyByQuantizedMultiplier(q - in_zp, mult, shift), act_min, act_max). */
typedef struct tfcc_relux_params {
  int32_t in_zp, out_zp;
  int32_t mult;
  int shift;
  int32_t act_min, act_max;
} tfcc_relux_params;
void tfcc_relux_q(tfcc_dtype type, const void *in, void *out, size_t n, const tfcc_relux_params *p);

/* LEAKY_RELU on quantized data (tflite QuantizeLeakyRelu): identity multiplier for q >= in_zp,
 * alpha multiplier below. */
typedef struct tfcc_leaky_relu_params {
  int32_t in_zp, out_zp;
  int32_t mult_identity, mult_alpha;
  int shift_identity, shift_alpha;
  /* XNNPACK qs8/qu8 vlrelu (TFCC_QUANT_COMPAT_TFLITE): 8.8 fixed-point multipliers
   * lrintf(256 * scale) for x - zp >= 0 and below; out = ((zp_out << 8) + 0x80 + d * m) >> 8. */
  bool xnn;
  int32_t xnn_pos_mult, xnn_neg_mult;
} tfcc_leaky_relu_params;
/* The XNNPACK vlrelu element (x - in_zp = d), exposed for tests. */
int32_t tfcc_xnn_lrelu_elem(int32_t d, const tfcc_leaky_relu_params *p, int32_t qmin, int32_t qmax);
void tfcc_leaky_relu_q(tfcc_dtype type, const void *in, void *out, size_t n,
                       const tfcc_leaky_relu_params *p);

/* ---------------------------------------------------------------- hard swish */

typedef struct tfcc_hard_swish_params {
  int32_t in_zp, out_zp;
  int16_t output_multiplier; /* Q0.15 */
  int output_exponent;       /* <= 0 */
  int16_t reluish_multiplier;
  int reluish_exponent;
} tfcc_hard_swish_params;
/* As HardSwishPrepare; false if the output exponent is positive (TFLite rejects that). */
bool tfcc_hard_swish_params_init(float in_scale, int32_t in_zp, float out_scale, int32_t out_zp,
                                 tfcc_hard_swish_params *p);
/* reference_ops::HardSwish (quantized) for uint8 / int8. */
void tfcc_hard_swish_q(tfcc_dtype type, const void *in, void *out, size_t n,
                       const tfcc_hard_swish_params *p);

/* ---------------------------------------------------------------- int16 logistic / tanh */

/* Power-of-two scales use gemmlowp fixed point (input F3, left shift 0 for logistic, 0 or 1 for
 * tanh); other scales use TFLite's sigmoid table with interpolation and input_multiplier. */
void tfcc_logistic_i16_fixed(const int16_t *in, int16_t *out, size_t n);
void tfcc_tanh_i16_fixed(const int16_t *in, int16_t *out, size_t n, int input_left_shift);
void tfcc_logistic_i16_lut(const int16_t *in, int16_t *out, size_t n, int32_t input_multiplier,
                           int input_left_shift);
void tfcc_tanh_i16_lut(const int16_t *in, int16_t *out, size_t n, int32_t input_multiplier,
                       int input_left_shift);

/* ---------------------------------------------------------------- prelu */

/* out[i] = in[i] >= 0 ? in[i] : in[i] * alpha[a(i)], where a(i) walks alpha with the given
 * element strides over the input's dims (stride 0 on broadcast dims). */
void tfcc_prelu_f32(const float *in, const float *alpha, float *out, int32_t rank,
                    const int32_t *dims, const int64_t *alpha_strides);

typedef struct tfcc_prelu_params {
  int32_t in_zp, alpha_zp, out_zp;
  int32_t mult_pos, mult_neg;
  int shift_pos, shift_neg;
} tfcc_prelu_params;
/* reference_ops::Prelu / BroadcastPrelu4DSlow for uint8 / int8, and int16 input with int8 alpha
 * (LiteRT's 16x8 PRELU). */
void tfcc_prelu_q(tfcc_dtype type, const void *in, const void *alpha, void *out, int32_t rank,
                  const int32_t *dims, const int64_t *alpha_strides, const tfcc_prelu_params *p);

#endif
