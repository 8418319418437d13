/* Fused hybrid inverted-residual pair (TFLITE mode, XNNPACK's arithmetic): a 1x1 stride-1
 * CONV_2D with float32 input and int8 weights (qd8: each input pixel quantized on its own, the
 * q8 GEMM with the hybrid float output stage) whose output feeds only a float-weight
 * DEPTHWISE_CONV_2D run in XNNPACK's order (kernels/tflite-f32/tflite_f32.h). Neither half needs more
 * than the expanded rows under a strip of output rows (the expand's quantization groups are
 * its input pixels, the depthwise has float weights: nothing is quantized per image), so the
 * strip walk of the other fused families (kernels/expand_dw_strips.h) runs them: the expanded
 * tensor never exists whole. Each expanded value is the unfused GEMM's (qd8 of the same pixel,
 * the same sums and output stage), each depthwise sum the unfused depthwise's (padding taps
 * only at the image's borders, as there): the same bits. */
#ifndef TFCC_KERNELS_HYBRID_EXPAND_DW_H
#define TFCC_KERNELS_HYBRID_EXPAND_DW_H

#include <stddef.h>
#include <stdint.h>

#include "kernels/hybrid/quantize.h"
#include "kernels/tflite-f32/tflite_f32.h"
#include "kernels/q8-gemm/gemm.h"
#include "kernels/ref/conv.h"

struct tfcc_threadpool;

typedef struct tfcc_hyb_expand_dw {
  const tfcc_q8_packed *packed; /* the expand weights as the hybrid GEMM takes them (uint8 w +
                                   128, filter offset -128; ops/hybrid.c) */
  tfcc_q8_hybrid stage;         /* the expand's output stage: wsum, fscale, bias, clamp, row and
                                   tile functions (c, c_stride, zp, scale set per strip) */
  tfcc_hyb_qd8_rows_fn qd8_rows;
  tfcc_xnn_dwconv_rows_fn dw; /* the vector depthwise rows, or NULL: tfcc_xnn_dwconv_f32_rows */
  const float *dw_filter;     /* [KH][KW][C] */
  const float *dw_bias;       /* [C] or NULL */
  float lo, hi;               /* depthwise activation clamp */
} tfcc_hyb_expand_dw;

/* g: the depthwise geometry (in_h / in_w the input image's, in_c == out_c the expanded channels,
 * depth multiplier 1), cin: the expand's input channels. Bytes of scratch for `threads`
 * threads. */
size_t tfcc_hyb_expand_dw_scratch_bytes(const tfcc_hyb_expand_dw *k, const tfcc_conv_geom *g,
                                        int32_t cin, int threads);

/* x: NHWC [batches][in_h][in_w][cin]; out: [batches][out_h][out_w][C]. scratch:
 * tfcc_hyb_expand_dw_scratch_bytes(k, g, cin, tfcc_threadpool_size(pool)), 64-byte aligned. */
void tfcc_hyb_expand_dw_run(struct tfcc_threadpool *pool, const tfcc_hyb_expand_dw *k,
                            const tfcc_conv_geom *g, int32_t cin, const float *x, float *out,
                            void *scratch);

#endif
