/* Hybrid depthwise convolution (float32 input quantized to int8 per image, int8 filter
 * [1, fh, fw, out_c], int32 accumulation), as TFLite's builtin DEPTHWISE_CONV_2D
 * EvalHybridPerChannel computes it (XNNPACK does not take hybrid depthwise nodes, so this is
 * the arithmetic of both modes):
 *   acc = sum over taps inside the image of (q - zp) * w        (padding adds nothing)
 *   out = clamp(((float)acc * scale) * fscale[c] + bias[c], lo, hi) */
#ifndef TFCC_KERNELS_HYBRID_DWCONV_H
#define TFCC_KERNELS_HYBRID_DWCONV_H

#include <stddef.h>
#include <stdint.h>

#include "kernels/ref/conv.h"

/* Image b of g (g->out_c = in_c * multiplier): q is that image's int8 input, zp and scale its
 * quantization; fscale[c * fscale_stride]; bias may be NULL; out is that image's output.
 * Rows [oy0, oy1) of the output only (threads split the rows). */
void tfcc_hyb_dwconv_rows(const tfcc_conv_geom *g, const int8_t *q, int32_t zp, float scale,
                          const int8_t *w, const float *fscale, size_t fscale_stride,
                          const float *bias, float lo, float hi, float *out, int32_t oy0,
                          int32_t oy1);

#endif
