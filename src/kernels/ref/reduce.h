/* Reference reductions (SUM/PROD/MAX/MIN/MEAN) and ARG_MAX/ARG_MIN, with TensorFlow Lite's
 * reference semantics (tensorflow/lite/kernels/internal/reference/reduce.h, integer_ops/mean.h,
 * arg_min_max.h). Kernels see pointers, a resolved shape and parameters only. */
#ifndef TFCC_KERNELS_REF_REDUCE_H
#define TFCC_KERNELS_REF_REDUCE_H

#include <stdbool.h>
#include <stdint.h>

#include "tfcc/tfcc.h"

#define TFCC_REDUCE_MAX_RANK TFCC_MAX_DIMS

/* Input shape plus, per input axis, the stride of the output element it maps to
 * (0 for a reduced axis). Output elements are laid out in input order of kept axes. */
typedef struct tfcc_reduce_shape {
  int32_t rank;
  int32_t dims[TFCC_REDUCE_MAX_RANK];
  int64_t out_stride[TFCC_REDUCE_MAX_RANK];
  bool reduced[TFCC_REDUCE_MAX_RANK];
  int64_t in_count;     /* input elements */
  int64_t out_count;    /* output elements */
  int64_t reduce_count; /* input elements per output element (product of reduced dims) */
} tfcc_reduce_shape;

/* Fills strides and counts from rank, dims and reduced[]. */
void tfcc_reduce_shape_finish(tfcc_reduce_shape *s);

typedef enum tfcc_reduce_kind {
  TFCC_REDUCE_SUM = 0,
  TFCC_REDUCE_PROD = 1,
  TFCC_REDUCE_MAX = 2,
  TFCC_REDUCE_MIN = 3
} tfcc_reduce_kind;

/* out[o] = reduce over its input elements, starting from the kind's initial value (0, 1,
 * lowest, max) and arithmetic in the element type itself (integer sums/products wrap, as
 * TFLite's `T reducer(T, T)` does). When every axis is reduced the first element seeds the
 * result, as TFLite's ReduceAllDims. dt: float32, int32, int64, uint8, int8, int16, bool
 * (bool: MAX/MIN only). Returns false for an unsupported dtype. */
bool tfcc_reduce_generic(const tfcc_reduce_shape *s, tfcc_reduce_kind kind, tfcc_dtype dt,
                         const void *in, void *out);

/* Float mean: float sums in input order, then divided by the element count (as float). */
void tfcc_reduce_mean_f32(const tfcc_reduce_shape *s, const float *in, float *out);
/* Integer mean of int32/int64 (dt) with int64 sums and C (truncating) division. acc holds
 * out_count int64 values. */
bool tfcc_reduce_mean_int(const tfcc_reduce_shape *s, tfcc_dtype dt, const void *in, void *out,
                          int64_t *acc);
/* Mean of uint8/int8/int16 with equal input and output quantization: raw values summed in
 * int32, then truncating division (reference_ops::Mean<T, int>). */
bool tfcc_reduce_mean_q_same(const tfcc_reduce_shape *s, tfcc_dtype dt, const void *in, void *out,
                             int32_t *acc);
/* reference_ops::QuantizedMeanOrSum<T, int32_t>: float rescale with TFLite's float formula.
 * compute_sum: SUM (result wraps to T like TFLite, no clamp); else MEAN (clamped). */
/* Quantized SUM as LiteRT's optimized QuantizedMeanOrSum computes it (every uint8/int8/int16
 * SUM, equal scales included): clamp(round(acc * s - in_zp * s * n) + out_zp) with
 * s = in_scale / out_scale in float, saturating to the output type. */
bool tfcc_reduce_sum_q_rescaled(const tfcc_reduce_shape *s, tfcc_dtype dt, const void *in,
                                int32_t in_zp, float in_scale, void *out, int32_t out_zp,
                                float out_scale, int32_t *acc);
/* Quantized REDUCE_PROD of int8 / int16 (reference_ops::QuantizedReduceProd): each output
 * starts from its first (q - in_zp); every further factor multiplies in int64 and rescales by
 * MultiplyByQuantizedMultiplier(int64, mult, shift), with mult/shift from
 * in_scale / out_scale^(1/n); the product is rescaled once more, offset by out_zp and clamped.
 * acc holds out_count int32 values. An empty input leaves out untouched, as TFLite. */
bool tfcc_reduce_prod_q(const tfcc_reduce_shape *s, tfcc_dtype dt, const void *in, int32_t in_zp,
                        void *out, int32_t out_zp, int32_t mult, int shift, int32_t *acc);
bool tfcc_reduce_quantized_mean_or_sum(const tfcc_reduce_shape *s, tfcc_dtype dt, const void *in,
                                       int32_t in_zp, float in_scale, void *out, int32_t out_zp,
                                       float out_scale, int32_t *acc, bool compute_sum);

/* MEAN / SUM of uint8/int8 as TFLite's XNNPACK delegate computes them (TFCC_QUANT_COMPAT_TFLITE):
 * raw values summed in int32, minus n * in_zp, then as float times
 * scale = in_scale / out_scale (MEAN: scale *= 1 / (float)n), plus out_zp (in float, before
 * the rounding: an odd zero point moves the ties), clamped, rounded half to even. acc holds
 * out_count int32 values. */
bool tfcc_xnn_reduce_q8(const tfcc_reduce_shape *s, tfcc_dtype dt, const void *in, int32_t in_zp,
                        float in_scale, void *out, int32_t out_zp, float out_scale, int32_t *acc,
                        bool is_mean);

/* MEAN of int16 over any axes as current TFLite's builtin kernel (reference_ops::
 * QuantizedMeanOrSum with an integer multiplier): multiplier/shift of in_scale/out_scale
 * (double), the division by n folded into it (shift by floor(log2 n), capped at 32 and at
 * 31 + shift), raw sum minus n * in_zp (int32) through the int32
 * MultiplyByQuantizedMultiplier (doubling high multiply, then rounding shift), + out_zp,
 * clamped; H,W means too (int16 has no H,W special case in current TFLite). acc holds out_count int32 values. */
bool tfcc_reduce_mean_i16_mult(const tfcc_reduce_shape *s, const int16_t *in, int32_t in_zp,
                               float in_scale, int16_t *out, int32_t out_zp, float out_scale,
                               int32_t *acc);

/* 4-D mean over height and width (axes 1 and 2) of NHWC data, output [n,1,1,c].
 * uint8 / int8: TFLite's builtin kernels (optimized_ops::Mean, optimized_integer_ops::Mean):
 * raw sums times the multiplier of in_scale / (n * out_scale), plus out_zp minus the input zero
 * point's share rounded in float; false for other dtypes. */
bool tfcc_mean_hw_q8(const int32_t dims[4], tfcc_dtype dt, const void *in, int32_t in_zp,
                     float in_scale, void *out, int32_t out_zp, float out_scale);
/* int16 (and int8 as reference_integer_ops::Mean): multiplier/shift of in_scale/out_scale. */
bool tfcc_mean_hw_int(const int32_t dims[4], tfcc_dtype dt, const void *in, int32_t in_zp,
                      int32_t multiplier, int shift, void *out, int32_t out_zp);

/* The epilogues of the quantized means and sums above, from the raw int32 sums acc
 * (out_count values, as tfcc_reduce_sum_q_raw computes them): what an optimised summation
 * calls to produce exactly the reference's bytes. mean_hw_*: acc[b * c + d]. */
bool tfcc_reduce_sum_q_raw(const tfcc_reduce_shape *s, tfcc_dtype dt, const void *in, int32_t *acc);
void tfcc_reduce_mean_q_same_finish(const tfcc_reduce_shape *s, tfcc_dtype dt, const int32_t *acc,
                                    void *out);
void tfcc_reduce_quantized_mean_or_sum_finish(const tfcc_reduce_shape *s, tfcc_dtype dt,
                                              const int32_t *acc, int32_t in_zp, float in_scale,
                                              void *out, int32_t out_zp, float out_scale,
                                              bool compute_sum);
void tfcc_reduce_sum_q_rescaled_finish(const tfcc_reduce_shape *s, tfcc_dtype dt,
                                       const int32_t *acc, int32_t in_zp, float in_scale, void *out,
                                       int32_t out_zp, float out_scale);
/* The finish of tfcc_reduce_mean_i16_mult (QuantizedMeanOrSum's folded integer multiplier) for
 * int8, uint8 or int16 (dt): LiteRT's builtin MEAN of int16, and of an 8-bit input other than the
 * 4-D H,W mean where its XNNPACK delegate leaves the node to it (a 2-D or empty axis tensor,
 * act59); false for an empty reduction. */
bool tfcc_reduce_mean_q_mult_finish(const tfcc_reduce_shape *s, tfcc_dtype dt, const int32_t *acc,
                                    int32_t in_zp, float in_scale, void *out, int32_t out_zp,
                                    float out_scale);
/* The float scale of tfcc_xnn_reduce_q8: in_scale / out_scale (MEAN: times 1 / (float)n). */
float tfcc_xnn_reduce_scale(const tfcc_reduce_shape *s, float in_scale, float out_scale,
                            bool is_mean);
/* Its float bias: out_zp - (float)(n * in_zp) * scale (LiteRT.js's XNNPACK MEAN / SUM add it to
 * the raw sum times the scale, then round half to even). */
float tfcc_xnn_reduce_bias(int32_t n, int32_t in_zp, float scale, int32_t out_zp);
bool tfcc_xnn_reduce_q8_finish(const tfcc_reduce_shape *s, tfcc_dtype dt, const int32_t *acc,
                               int32_t in_zp, float in_scale, void *out, int32_t out_zp,
                               float out_scale, bool is_mean);
bool tfcc_mean_hw_q8_finish(const int32_t dims[4], tfcc_dtype dt, const int32_t *acc, int32_t in_zp,
                            float in_scale, void *out, int32_t out_zp, float out_scale);
bool tfcc_mean_hw_int_finish(const int32_t dims[4], tfcc_dtype dt, const int32_t *acc,
                             int32_t in_zp, int32_t multiplier, int shift, void *out,
                             int32_t out_zp);

/* ARG_MAX (is_max) / ARG_MIN over the middle dimension of [outer, axis_size, inner]; ties keep
 * the first index (strict comparison, as TFLite's std::greater / std::less). axis_size >= 1.
 * in_dt: float32, uint8, int8, int16, int32, int64, bool; out_dt: int32 or int64. */
bool tfcc_arg_min_max(tfcc_dtype in_dt, const void *in, int64_t outer, int32_t axis_size,
                      int64_t inner, bool is_max, tfcc_dtype out_dt, void *out);

#endif
