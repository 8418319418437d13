/* Float32 AVERAGE_POOL_2D as TensorFlow Lite's default build (LiteRT, XNNPACK delegate) runs
 * it, bit for bit, for windows of up to 9 taps: XNNPACK's unipass average pooling kernel
 * (f32-avgpool 9x / pavgpool 9x, scalar and SIMD alike). The taps are taken in its indirection
 * order, column by column (kx outer, ky inner); taps outside the image and the unused slots
 * of a smaller window read zeros; the sum is the kernel's fixed tree
 * ((t2 + t3) + (t4 + t5)) + (((t0 + t1) + t8) + (t6 + t7)), then multiplied by
 * 1.0f / (number of taps inside the image) and clamped. A hybrid model quantizes activations
 * at run time, so the 1-ulp differences of a sequential sum grow into quantization steps
 * (ops/pool_common.c uses this in TFLITE mode in a subgraph with hybrid nodes). */
#ifndef TFCC_KERNELS_TFLITE_F32_XNN_AVGPOOL_H
#define TFCC_KERNELS_TFLITE_F32_XNN_AVGPOOL_H

#include <stdbool.h>
#include <stdint.h>

#include "kernels/ref/conv.h"

/* The most taps (filter_h * filter_w) the unipass kernel takes. */
#define TFCC_XNN_AVGPOOL_MAX_TAPS 9

/* Whether g's window fits the unipass kernel (filter_h * filter_w <= 9). */
bool tfcc_xnn_avgpool_fits(const tfcc_conv_geom *g);

/* Output rows [r0, r1) of the batch-flattened output (row = b * out_h + oy) of a float NHWC
 * average pooling of geometry g (out_c = in_c channels, dilation 1), clamped to [lo, hi]. */
void tfcc_xnn_avgpool_f32_rows(const tfcc_conv_geom *g, const float *in, float lo, float hi,
                               float *out, int32_t r0, int32_t r1);

#endif
