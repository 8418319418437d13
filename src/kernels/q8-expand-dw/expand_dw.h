/* Fused 8-bit inverted-residual pair: a 1x1 stride-1 "expand" convolution whose output feeds
 * only a depthwise convolution (MobileNetV2 int8), the 8-bit twin of f32-expand-dw. For a strip
 * of output rows the driver computes just the expanded rows that strip reads (tfcc_q8_gemm on
 * the NHWC rows in place, requantized to the expanded tensor's bytes) into a per-thread window
 * of whole expanded rows, then runs the packed depthwise (tfcc_q8_dwconv, inline) on a
 * geometry whose input is the window's rows, straight into the output. Rows the next strip
 * shares stay in the window (moved to its front); each thread's first strip recomputes the
 * 1-2 halo rows above it. Rows outside the image are the depthwise's padding as in the
 * unfused graph. Same bytes as the unfused pair (each expanded byte and each depthwise sum is
 * computed by the same kernels with the same requantization), so the expanded tensor (up to
 * 112x112x96 bytes) never goes through memory: the depthwise reads rows the GEMM has just
 * stored. */
#ifndef TFCC_KERNELS_Q8_EXPAND_DW_EXPAND_DW_H
#define TFCC_KERNELS_Q8_EXPAND_DW_EXPAND_DW_H

#include <stddef.h>
#include <stdint.h>

#include "kernels/q8-dwconv/dwconv.h"
#include "kernels/q8-gemm/gemm.h"
#include "kernels/ref/conv.h"

struct tfcc_threadpool;

typedef struct tfcc_q8_expand_dw {
  const tfcc_q8_packed *expand;      /* N = expanded channels, K = input channels */
  const tfcc_conv_requant *expand_r; /* requantization to the expanded tensor */
  const tfcc_q8_dw_packed *dw;       /* depthwise packing (depth multiplier 1) */
  const tfcc_conv_requant *dw_r;     /* depthwise requantization */
  size_t window_bytes;               /* expanded rows per thread, in bytes (0: the default) */
} tfcc_q8_expand_dw;

/* Kernel name for the profile: "q8-expand-dw-wasmsimd" from the depthwise kernel's ISA. */
const char *tfcc_q8_expand_dw_name(const tfcc_q8_dw_kernel *dw);

/* g: the depthwise geometry (in_h/in_w the input image's, in_c == out_c the expanded channels,
 * depth multiplier 1). Bytes of scratch for `threads` threads. */
size_t tfcc_q8_expand_dw_scratch_bytes(const tfcc_q8_expand_dw *k, const tfcc_conv_geom *g,
                                       int threads);

/* x: NHWC [batches][in_h][in_w][x_c] bytes with x_c == k->expand->kdim; out: [batches][out_h]
 * [out_w][C]. scratch: tfcc_q8_expand_dw_scratch_bytes(k, g, tfcc_threadpool_size(pool)),
 * 64-byte aligned. */
void tfcc_q8_expand_dw_run(struct tfcc_threadpool *pool, const tfcc_q8_expand_dw *k,
                           const tfcc_conv_geom *g, const void *x, void *out, void *scratch);

#endif
