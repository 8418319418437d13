/* Winograd tile transforms of one ISA variant (see winograd.h). Tiles are NHWC: a pixel's
 * channels are contiguous, so every transform runs across channels, VW at a time.
 *
 * input:  d points at the tile's top-left input pixel (n x n pixels, row_stride floats between
 *         rows, C floats between pixels); writes v[p * pos_stride + c] = (B^T d B)[p][c] for the
 *         n*n positions p = row * n + col.
 * output: m[p * pos_stride + c] holds the n*n products of C channels; writes the m x m output
 *         pixels y[r * row_stride + x * col_stride + c] = clamp((A^T m A)[r][x][c] + bias[c],
 *         lo, hi) (col_stride >= C: a slice of the output's channels).
 * filter: row a of U = G g G^T (n = 4 or 6) of one GEMM panel, NR output channels wide, for
 *         `count` input channels: taps[t] (t = ky * 3 + kx) points at count rows of NR floats
 *         (row c: tap t of input channel c, one float per output channel: the im2col GEMM's
 *         packed layout); writes u[b * pos_stride + c * NR + o] for the n positions a * n + b
 *         (the packed layout of the GEMM on that position's K = input channels). */
#ifndef TFCC_KERNELS_F32_WINOGRAD_TRANSFORMS_H
#define TFCC_KERNELS_F32_WINOGRAD_TRANSFORMS_H

#include <stddef.h>

typedef void (*tfcc_wino_in_fn)(const float *d, size_t row_stride, size_t C, float *v,
                                size_t pos_stride);
typedef void (*tfcc_wino_out_fn)(const float *m, size_t pos_stride, size_t C, const float *bias,
                                 float lo, float hi, float *y, size_t row_stride,
                                 size_t col_stride);
typedef void (*tfcc_wino_filt_fn)(const float *const *taps, size_t count, size_t NR, int n, int a,
                                  float *u, size_t pos_stride);

#define TFCC_WINO_DECL(isa) \
  void tfcc_wino_in_f2_##isa(const float *d, size_t row_stride, size_t C, float *v, \
                             size_t pos_stride); \
  void tfcc_wino_out_f2_##isa(const float *m, size_t pos_stride, size_t C, const float *bias, \
                              float lo, float hi, float *y, size_t row_stride, size_t col_stride); \
  void tfcc_wino_filt_##isa(const float *const *taps, size_t count, size_t NR, int n, int a, \
                            float *u, size_t pos_stride); \
  void tfcc_wino_in_f4_##isa(const float *d, size_t row_stride, size_t C, float *v, \
                             size_t pos_stride); \
  void tfcc_wino_out_f4_##isa(const float *m, size_t pos_stride, size_t C, const float *bias, \
                              float lo, float hi, float *y, size_t row_stride, size_t col_stride)

TFCC_WINO_DECL(avx512);
TFCC_WINO_DECL(avx2);
TFCC_WINO_DECL(sse4);
TFCC_WINO_DECL(neon);
TFCC_WINO_DECL(wasmsimd);
TFCC_WINO_DECL(scalar);

#endif
