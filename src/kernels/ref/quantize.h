/* QUANTIZE / DEQUANTIZE kernels with TensorFlow Lite's exact arithmetic:
 *   quantize    q = clamp(round(x / scale) + zp), x / scale and round in float (half away
 *               from zero), the sum and clamp in double (reference_ops::AffineQuantize)
 *   requantize  q = clamp(MultiplyByQuantizedMultiplier(x - in_zp, m, s) + out_zp)
 *   dequantize  x = (float)(scale * (q - zp)) in double for per-tensor (reference Dequantize),
 *               float for per-channel (PerChannelDequantize); IEEE half decoded exactly. */
#ifndef TFCC_KERNELS_REF_QUANTIZE_H
#define TFCC_KERNELS_REF_QUANTIZE_H

#include <stddef.h>
#include <stdint.h>

#include "tfcc/tfcc.h"

/* out_type uint8|int8|int16|int4|uint4 (int4 / uint4: one value per byte, clamped to [-8, 7] /
 * [0, 15], as quantize.cc's AffineQuantizeToInt4 / ToUInt4 before they pack). */
void tfcc_affine_quantize(const float *in, tfcc_dtype out_type, void *out, size_t n, float scale,
                          int32_t zp);
/* Per-channel along one axis: the tensor is viewed as [outer, channels, inner]. */
void tfcc_affine_quantize_pc(const float *in, tfcc_dtype out_type, void *out, size_t outer,
                             size_t channels, size_t inner, const float *scales,
                             const int32_t *zps);

/* in_type uint8|int8|int16|int32, out_type uint8|int8|int16|int32; x - in_zp and the sum
 * with out_zp in wrapping int32 arithmetic (TFLite's int32 math). */
void tfcc_requantize(tfcc_dtype in_type, const void *in, tfcc_dtype out_type, void *out, size_t n,
                     int32_t multiplier, int shift, int32_t in_zp, int32_t out_zp);

/* XNNPACK's convert kernels (TFCC_QUANT_COMPAT_TFLITE):
 *   f32 -> q8: q = lrintf(clamp(x * inv_scale, qmin - zp, qmax - zp)) + zp, inv_scale = 1/scale
 *              in float (f32-qs8-vcvt / f32-qu8-vcvt);
 *   q8 -> q8:  (bias + x * mult) >> 8 (arithmetic), mult = lrintf(256 * in_scale / out_scale),
 *              bias = (out_zp << 8) - mult * in_zp + 0x80, clamped (qs8-vcvt / qu8-vcvt).
 * type uint8|int8 (the same on both sides for q8 -> q8). */
void tfcc_xnn_quantize_f32(const float *in, tfcc_dtype out_type, void *out, size_t n,
                           float inv_scale, int32_t zp);
void tfcc_xnn_requantize_q8(tfcc_dtype type, const void *in, void *out, size_t n, int32_t mult,
                            int32_t in_zp, int32_t out_zp);
/* The q8 -> q8 element, exposed for tests. */
int32_t tfcc_xnn_requant_elem(int32_t x, int32_t mult, int32_t in_zp, int32_t out_zp, int32_t qmin,
                              int32_t qmax);

/* in_type uint8|int8|int16|int4|int2|uint4 (one value per byte)|float16|float8. For float16 and
 * float8 (decoded exactly, DEQUANTIZE v9), scale and zp are ignored. */
void tfcc_dequantize(tfcc_dtype in_type, const void *in, float *out, size_t n, float scale,
                     int32_t zp);
void tfcc_dequantize_pc(tfcc_dtype in_type, const void *in, float *out, size_t outer,
                        size_t channels, size_t inner, const float *scales, const int32_t *zps);

/* IEEE 754 binary16 -> binary32, exact (subnormals, infinities, NaN payloads). */
float tfcc_half_to_float(uint16_t h);

#endif
