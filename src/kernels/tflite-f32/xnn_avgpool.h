/* Float32 AVERAGE_POOL_2D as TensorFlow Lite's default build (LiteRT, XNNPACK delegate) runs
 * it, bit for bit, for windows of up to 9 taps: XNNPACK's unipass average pooling kernel
 * (f32-avgpool 9x / pavgpool 9x, scalar and SIMD alike). The taps are taken in its indirection
 * order, column by column (kx outer, ky inner); taps outside the image and the unused slots
 * of a smaller window read zeros; the sum is the kernel's fixed tree
 * ((t2 + t3) + (t4 + t5)) + (((t0 + t1) + t8) + (t6 + t7)), then multiplied by
 * 1.0f / (number of taps inside the image) and clamped. A hybrid model quantizes activations
 * at run time, so the 1-ulp differences of a sequential sum grow into quantization steps
 * (ops/pool_common.c uses this in TFLITE mode in a subgraph with hybrid nodes).
 *
 * Larger windows run XNNPACK's multipass kernels, whose order differs between the
 * XNNPACK of LiteRT 2.5 and the older one of the classic interpreter's delegate:
 * - TFCC_XNN_AVGPOOL_9P (f32-avgpool 9p, LiteRT): passes of 9 taps while more than 9 remain,
 *   acc = acc + tree9 (acc starts at 0), then a last pass of the remaining 1-9 taps (zeros for
 *   the rest) added the same way, multiplied and clamped;
 * - TFCC_XNN_AVGPOOL_9P8X (f32-avgpool / pavgpool 9p8x, older XNNPACK): a first pass of 9
 *   taps (tree9), then passes of 8 while more than 8 remain and a last one of the remaining
 *   1-8 (zeros for the rest), each ((t2 + t3) + (t4 + t5)) + (((t0 + t1) + acc) + (t6 + t7)).
 * Up to 9 taps both are the unipass tree above. */
#ifndef TFCC_KERNELS_TFLITE_F32_XNN_AVGPOOL_H
#define TFCC_KERNELS_TFLITE_F32_XNN_AVGPOOL_H

#include <stdbool.h>
#include <stdint.h>

#include "kernels/ref/conv.h"

/* The most taps (filter_h * filter_w) the unipass kernel takes. */
#define TFCC_XNN_AVGPOOL_MAX_TAPS 9

/* The multipass order of windows over 9 taps (above). */
typedef enum tfcc_xnn_avgpool_order {
  TFCC_XNN_AVGPOOL_9P = 0, /* LiteRT 2.5's XNNPACK */
  TFCC_XNN_AVGPOOL_9P8X,   /* the classic interpreter's older XNNPACK */
} tfcc_xnn_avgpool_order;

/* Whether g's window is one XNNPACK's kernels take (a window of at least one tap). */
bool tfcc_xnn_avgpool_fits(const tfcc_conv_geom *g);

/* Output rows [r0, r1) of the batch-flattened output (row = b * out_h + oy) of a float NHWC
 * average pooling of geometry g (out_c = in_c channels, dilation 1), clamped to [lo, hi];
 * windows over 9 taps in multipass order `order`. */
void tfcc_xnn_avgpool_f32_rows(const tfcc_conv_geom *g, const float *in, float lo, float hi,
                               tfcc_xnn_avgpool_order order, float *out, int32_t r0, int32_t r1);

#endif
