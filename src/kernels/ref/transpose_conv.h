/* Reference transposed convolution (NHWC input, [out_c, H, W, in_c] filter), matching
 * TensorFlow Lite's reference TransposeConv: every input pixel scatters filter * value into
 * the output window; bias and activation are applied after accumulation. Integer variants
 * accumulate into `acc` scratch (int32 for 8-bit, int64 for 16x8) of out elements.
 * Geometry: g->filter_in_c = g->in_c; pad_h/pad_w as TFLite's transpose padding. */
#ifndef TFCC_KERNELS_REF_TRANSPOSE_CONV_H
#define TFCC_KERNELS_REF_TRANSPOSE_CONV_H

#include <stdint.h>

#include "kernels/ref/conv.h"

void tfcc_tconv_f32(const tfcc_conv_geom *g, const float *in, const float *filter,
                    const float *bias, float act_min, float act_max, float *out);
void tfcc_tconv_u8(const tfcc_conv_geom *g, const tfcc_conv_requant *q, const uint8_t *in,
                   const uint8_t *filter, const int32_t *bias, int64_t *acc, uint8_t *out);
void tfcc_tconv_i8(const tfcc_conv_geom *g, const tfcc_conv_requant *q, const int8_t *in,
                   const int8_t *filter, const int32_t *bias, int64_t *acc, int8_t *out);
void tfcc_tconv_i16(const tfcc_conv_geom *g, const tfcc_conv_requant *q, const int16_t *in,
                    const int8_t *filter, const int64_t *bias64, const int32_t *bias32,
                    int64_t *acc, int16_t *out);

#endif
