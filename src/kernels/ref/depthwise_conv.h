/* Reference depthwise convolution kernels (NHWC input, [1, H, W, in_c * multiplier] filter),
 * as TensorFlow Lite's reference DepthwiseConv (float, uint8 with rounding away from zero)
 * and reference_integer_ops::DepthwiseConvPerChannel (int8, 16x8).
 * Output channel oc = ic * depth_multiplier + m reads input channel ic. */
#ifndef TFCC_KERNELS_REF_DEPTHWISE_CONV_H
#define TFCC_KERNELS_REF_DEPTHWISE_CONV_H

#include <stdbool.h>
#include <stdint.h>

#include "kernels/ref/conv.h"

/* g->out_c = g->in_c * depth_multiplier; g->filter_in_c is unused. */
void tfcc_dwconv_f32(const tfcc_conv_geom *g, const float *in, const float *filter,
                     const float *bias, float act_min, float act_max, float *out);
/* Float in TFLite's builtin order (optimized DepthwiseConv: each accumulator starts at the
 * bias, then the taps row by row, every product rounded before it is added): the order a hybrid
 * model's TFLite runs where XNNPACK declines the node. The clamp: NaN passes (nan_to_hi false);
 * nan_to_hi true: the store's std::max(act_min, std::min(act_max, acc)), which makes a NaN
 * act_max (the classic interpreter's, REFERENCE mode where it delegates nothing). */
void tfcc_dwconv_f32_bias_first(const tfcc_conv_geom *g, const float *in, const float *filter,
                                const float *bias, float act_min, float act_max, bool nan_to_hi,
                                float *out);
void tfcc_dwconv_u8(const tfcc_conv_geom *g, const tfcc_conv_requant *q, const uint8_t *in,
                    const uint8_t *filter, const int32_t *bias, uint8_t *out);
void tfcc_dwconv_i8(const tfcc_conv_geom *g, const tfcc_conv_requant *q, const int8_t *in,
                    const int8_t *filter, const int32_t *bias, int8_t *out);
void tfcc_dwconv_i16(const tfcc_conv_geom *g, const tfcc_conv_requant *q, const int16_t *in,
                     const int8_t *filter, const int64_t *bias64, const int32_t *bias32,
                     int16_t *out);

#endif
