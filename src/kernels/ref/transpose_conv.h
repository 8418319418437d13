/* Reference transposed convolution (NHWC input, [out_c, H, W, in_c] filter). Integer variants
 * match TensorFlow Lite's reference TransposeConv: every input pixel scatters filter * value
 * into the output window; bias and activation are applied after accumulation. They
 * accumulate into `acc` scratch (int32 for 8-bit, int64 for 16x8) of out elements.
 * Geometry: g->filter_in_c = g->in_c; pad_h/pad_w as TFLite's transpose padding. */
#ifndef TFCC_KERNELS_REF_TRANSPOSE_CONV_H
#define TFCC_KERNELS_REF_TRANSPOSE_CONV_H

#include <stdbool.h>
#include <stdint.h>

#include <stddef.h>

#include "kernels/ref/conv.h"

/* Float32, in the order of the TensorFlow Lite kernel that runs it:
 * - TFCC_TCONV_F32_XNNPACK: XNNPACK's deconvolution (LiteRT's delegate): per output, the bias,
 *   then the taps in filter order, each tap's input channels in order; with fewer than 8 output
 *   channels its 4x2c4 micro-kernel: four lanes by channel % 4, added (0 + 2) + (1 + 3).
 * - TFCC_TCONV_F32_BUILTIN: the builtin (optimized) kernel, TransposeConvV2: a GEMM makes each
 *   (input pixel, tap) dot product over the input channels (Eigen's GEBP order, checked bit
 *   for bit up to 512 input channels), Col2im adds them to the zeroed output pixel by pixel,
 *   tap by tap, then the bias.
 * Both match their TFLite runtime bit for bit (docs/quantization.md). */
typedef enum tfcc_tconv_f32_order {
  TFCC_TCONV_F32_XNNPACK,
  TFCC_TCONV_F32_BUILTIN
} tfcc_tconv_f32_order;
/* packed: NULL, or the weights as tfcc_tconv_f32_pack lays them out ([H][W][in_c][out_c],
 * out_c * H * W * in_c floats), which the XNNPACK order runs faster from (8 or more output
 * channels: vectorized across them; the same sums). filter: the weights as stored, or NULL when
 * packed is given: every order then reads the packing (the same sums; the builtin order and the
 * XNNPACK one under 8 output channels read it with a stride of out_c), so that an operator
 * that packed them need not keep the stored weights (ops/transpose_conv.c). */
void tfcc_tconv_f32(const tfcc_conv_geom *g, const float *in, const float *filter,
                    const float *packed, const float *bias, float act_min, float act_max,
                    tfcc_tconv_f32_order order, float *out);
void tfcc_tconv_f32_pack(const float *filter, int32_t out_c, int32_t filter_h, int32_t filter_w,
                         int32_t in_c, float *packed);
void tfcc_tconv_u8(const tfcc_conv_geom *g, const tfcc_conv_requant *q, const uint8_t *in,
                   const uint8_t *filter, const int32_t *bias, int64_t *acc, uint8_t *out);
void tfcc_tconv_i8(const tfcc_conv_geom *g, const tfcc_conv_requant *q, const int8_t *in,
                   const int8_t *filter, const int32_t *bias, int64_t *acc, int8_t *out);
void tfcc_tconv_i16(const tfcc_conv_geom *g, const tfcc_conv_requant *q, const int16_t *in,
                    const int8_t *filter, const int64_t *bias64, const int32_t *bias32,
                    int64_t *acc, int16_t *out);

/* Hybrid (dynamic-range) TRANSPOSE_CONV, as TensorFlow Lite's builtin EvalHybrid: float input
 * quantized per image with the asymmetric scheme (kernels/hybrid/quantize.h), int8 weights with
 * per-tensor (w_scale_stride 0) or per-output-channel scales, int32 sums of (q - zp) * w, then
 * out = sum * (input scale * weight scale) + bias, clamped. qd8: as LiteRT's XNNPACK delegate
 * runs it instead (its qd8 deconvolution): the input quantized per image with XNNPACK's qd8
 * scheme and out = (sum * input scale) * weight scale + bias. scratch:
 * tfcc_tconv_hybrid_scratch bytes. */
size_t tfcc_tconv_hybrid_scratch(const tfcc_conv_geom *g);
void tfcc_tconv_hybrid(const tfcc_conv_geom *g, const float *in, const int8_t *filter,
                       const float *w_scale, int32_t w_scale_stride, const float *bias,
                       float act_min, float act_max, void *scratch, float *out, bool qd8);

#endif
