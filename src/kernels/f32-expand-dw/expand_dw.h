/* Fused float32 inverted-residual pair: a 1x1 stride-1 "expand" convolution whose output feeds
 * only a depthwise convolution (MobileNetV2). The expanded tensor (6x the block's channels)
 * never exists whole: for a strip of output rows the driver computes just the expanded input
 * rows that strip reads (packed f32 GEMM, tfcc_f32_gemm on the NHWC rows in place) into a
 * per-thread window of whole expanded rows, then runs the depthwise row kernel on the window
 * (a geometry whose input is the window's rows), straight into the output. The rows the next
 * strip shares stay in the window (moved to its front); each thread's first strip recomputes
 * the 1-2 halo rows above it. Rows and columns outside the image are zeros of the expanded
 * tensor (the kernels skip them), as in the unfused graph: the expand's activation is not
 * applied to padding. Same bits as the unfused pair run by the same GEMM and depthwise
 * kernels (each expanded value and each depthwise sum is computed the same way). */
#ifndef TFCC_KERNELS_F32_EXPAND_DW_EXPAND_DW_H
#define TFCC_KERNELS_F32_EXPAND_DW_EXPAND_DW_H

#include <stddef.h>
#include <stdint.h>

#include "kernels/f32-dwconv/dwconv.h"
#include "kernels/f32-gemm/gemm.h"
#include "kernels/ref/conv.h"

struct tfcc_threadpool;

typedef struct tfcc_f32_expand_dw {
  const tfcc_f32_packed *expand;    /* N = expanded channels, K = input channels, bias packed */
  float expand_lo, expand_hi;       /* expand's activation clamp */
  const tfcc_f32_dwconv_kernel *dw; /* depthwise row kernel */
  const float *dw_filter;           /* [KH][KW][C] */
  const float *dw_bias;             /* [C] or NULL */
  float lo, hi;                     /* depthwise activation clamp */
} tfcc_f32_expand_dw;

/* Kernel name for the profile: "f32-expand-dw-avx512" from the depthwise kernel's ISA. */
const char *tfcc_f32_expand_dw_name(const tfcc_f32_dwconv_kernel *dw);

/* g: the depthwise geometry (in_h/in_w the input image's, in_c == out_c the expanded channels,
 * dilation 1, depth multiplier 1). Bytes of scratch for `threads` threads. */
size_t tfcc_f32_expand_dw_scratch_bytes(const tfcc_conv_geom *g, int threads);

/* x: NHWC [batches][in_h][in_w][x_c] with x_c == k->expand->kdim; out: [batches][out_h][out_w]
 * [C]. scratch: tfcc_f32_expand_dw_scratch_bytes(g, tfcc_threadpool_size(pool)), 64-byte
 * aligned. */
void tfcc_f32_expand_dw_run(struct tfcc_threadpool *pool, const tfcc_f32_expand_dw *k,
                            const tfcc_conv_geom *g, const float *x, float *out, void *scratch);

#endif
