/* Reference 2-D convolution kernels (NHWC input, OHWI filter), matching TensorFlow Lite's
 * reference_ops::Conv / reference_integer_ops::ConvPerChannel bit for bit (integer paths).
 * Grouped convolution: input channels = groups * filter input channels, as TFLite. */
#ifndef TFCC_KERNELS_REF_CONV_H
#define TFCC_KERNELS_REF_CONV_H

#include <stdbool.h>
#include <stdint.h>

/* Geometry shared by the convolution-family kernels. */
typedef struct tfcc_conv_geom {
  int32_t batches;
  int32_t in_h, in_w, in_c;
  int32_t out_h, out_w, out_c;
  int32_t filter_h, filter_w;
  int32_t filter_in_c; /* conv: filter's input channels (in_c / groups) */
  int32_t stride_h, stride_w;
  int32_t dil_h, dil_w;
  int32_t pad_h, pad_w; /* leading padding */
} tfcc_conv_geom;

/* Requantization of integer kernels: per output channel multiplier and shift (the arrays hold
 * one entry when mult_stride is 0). */
typedef struct tfcc_conv_requant {
  int32_t input_offset;  /* added to every input value (-zero point) */
  int32_t filter_offset; /* added to every filter value (uint8 only; 0 otherwise) */
  int32_t output_offset;
  const int32_t *mult;
  const int32_t *shift;
  int32_t mult_stride; /* 0: per-tensor, 1: per-channel */
  int32_t act_min, act_max;
  /* Non-NULL: XNNPACK arithmetic (TFCC_QUANT_COMPAT_TFLITE) with these float scales (indexed
   * like mult); mult/shift are then unused by 8-bit kernels. */
  const float *scale;
  /* mult/shift applied with one rounding, half up: (acc * mult + 2^(t-1)) >> t, t = 31 - shift
   * (ruy's MultiplyByQuantizedMultiplier, which TFLite's builtin int8 FULLY_CONNECTED runs),
   * instead of gemmlowp's two roundings. Read by tfcc_requant32 (conv_acc.h). */
  bool single_round;
} tfcc_conv_requant;

void tfcc_conv_f32(const tfcc_conv_geom *g, const float *in, const float *filter, const float *bias,
                   float act_min, float act_max, float *out);
/* uint8 input and filter with zero points (TF1 asymmetric). */
void tfcc_conv_u8(const tfcc_conv_geom *g, const tfcc_conv_requant *q, const uint8_t *in,
                  const uint8_t *filter, const int32_t *bias, uint8_t *out);
/* int8 input, int8 filter (filter zero point ignored, as TFLite's per-channel kernel). */
void tfcc_conv_i8(const tfcc_conv_geom *g, const tfcc_conv_requant *q, const int8_t *in,
                  const int8_t *filter, const int32_t *bias, int8_t *out);
/* int16 input, int8 filter, 64-bit accumulator; bias is int64 (bias64) or int32 (bias32)
 * or absent (both NULL). */
void tfcc_conv_i16(const tfcc_conv_geom *g, const tfcc_conv_requant *q, const int16_t *in,
                   const int8_t *filter, const int64_t *bias64, const int32_t *bias32,
                   int16_t *out);

#endif
