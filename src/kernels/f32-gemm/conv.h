/* Float32 convolution on the packed GEMM: a 1x1 stride-s unpadded convolution reads NHWC rows
 * in place; any other (dilation, padding, KxK) packs MR im2col rows per tile into per-thread
 * scratch. Groups are not handled here (callers fall back to the reference kernel). */
#ifndef TFCC_KERNELS_F32_GEMM_CONV_H
#define TFCC_KERNELS_F32_GEMM_CONV_H

#include "kernels/f32-gemm/gemm.h"
#include "kernels/ref/conv.h"

struct tfcc_threadpool;

/* True when the convolution reads its input rows in place (no scratch). */
bool tfcc_f32_conv_direct(const tfcc_conv_geom *g);
/* Scratch bytes for tfcc_f32_conv with `threads` threads (0 when direct). */
size_t tfcc_f32_conv_scratch_bytes(const tfcc_conv_geom *g, const tfcc_f32_packed *p, int threads);
/* p packs the OHWI filter as N = out_c, K = filter_h * filter_w * in_c (groups == 1). */
void tfcc_f32_conv(struct tfcc_threadpool *pool, const tfcc_conv_geom *g, const tfcc_f32_packed *p,
                   const float *in, float *out, float lo, float hi, void *scratch);
/* The same plus a residual: out = clamp((bias + sum_k) + res, lo, hi), res row m (output
 * pixel m, out_c floats) at res + m * res_stride; res NULL: tfcc_f32_conv. The residual is
 * added to each tile of the last K block while the tile is in L1 (the kernel's epilogue):
 * the same bits as the convolution without clamp followed by ADD with the clamp. res may not
 * overlap out. */
void tfcc_f32_conv_residual(struct tfcc_threadpool *pool, const tfcc_conv_geom *g,
                            const tfcc_f32_packed *p, const float *in, const float *res,
                            size_t res_stride, float *out, float lo, float hi, void *scratch);

#endif
