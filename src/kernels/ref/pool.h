/* Reference 2-D pooling kernels (NHWC), matching TensorFlow Lite's reference AveragePool /
 * MaxPool / L2Pool: the window is clipped to the image and the average divides by the number
 * of taps inside it. Geometry: tfcc_conv_geom with out_c = in_c, dilation unused. */
#ifndef TFCC_KERNELS_REF_POOL_H
#define TFCC_KERNELS_REF_POOL_H

#include <stdint.h>

#include "kernels/ref/conv.h"

void tfcc_avgpool_f32(const tfcc_conv_geom *g, const float *in, float lo, float hi, float *out);
/* Quantized average: (sum +- count/2) / count rounding half away from zero, then clamp. */
void tfcc_avgpool_u8(const tfcc_conv_geom *g, const uint8_t *in, int32_t lo, int32_t hi,
                     uint8_t *out);
void tfcc_avgpool_i8(const tfcc_conv_geom *g, const int8_t *in, int32_t lo, int32_t hi,
                     int8_t *out);
void tfcc_avgpool_i16(const tfcc_conv_geom *g, const int16_t *in, int32_t lo, int32_t hi,
                      int16_t *out);

void tfcc_maxpool_f32(const tfcc_conv_geom *g, const float *in, float lo, float hi, float *out);
void tfcc_maxpool_u8(const tfcc_conv_geom *g, const uint8_t *in, int32_t lo, int32_t hi,
                     uint8_t *out);
void tfcc_maxpool_i8(const tfcc_conv_geom *g, const int8_t *in, int32_t lo, int32_t hi,
                     int8_t *out);
void tfcc_maxpool_i16(const tfcc_conv_geom *g, const int16_t *in, int32_t lo, int32_t hi,
                      int16_t *out);

/* sqrt(sum of squares / count). */
void tfcc_l2pool_f32(const tfcc_conv_geom *g, const float *in, float lo, float hi, float *out);

#endif
