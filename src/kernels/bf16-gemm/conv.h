/* Float32 convolution on the bf16 GEMM (precision bf16): every output pixel's im2col row
 * (1x1: the input pixel itself, any stride) is converted to bf16 into per-thread scratch, a
 * tile or a group of tiles at a time. Groups are not handled here (callers use float32). */
#ifndef TFCC_KERNELS_BF16_GEMM_CONV_H
#define TFCC_KERNELS_BF16_GEMM_CONV_H

#include "kernels/bf16-gemm/gemm.h"
#include "kernels/ref/conv.h"

struct tfcc_threadpool;

/* Scratch bytes for tfcc_bf16_conv with `threads` threads. */
size_t tfcc_bf16_conv_scratch_bytes(const tfcc_conv_geom *g, const tfcc_bf16_packed *p,
                                    int threads);
/* p packs the OHWI filter as N = out_c, K = filter_h * filter_w * in_c (groups == 1). */
void tfcc_bf16_conv(struct tfcc_threadpool *pool, const tfcc_conv_geom *g,
                    const tfcc_bf16_packed *p, const float *in, float *out, float lo, float hi,
                    void *scratch);

#endif
