/* Float32 Winograd convolution for 3x3, stride 1, dilation 1, ungrouped CONV_2D (NHWC input,
 * OHWI filter), F(2x2,3x3) and F(4x4,3x3) (Lavin & Gray, "Fast Algorithms for Convolutional
 * Neural Networks").
 *
 * The output is cut into m x m tiles (m = 2 or 4), each read from an n x n input patch
 * (n = m + 2, zero outside the image). Per block of tiles:
 *   1. input transform V[p][t][ci] = (B^T d_t B)[p] per position p < n*n (per-thread scratch);
 *   2. n*n GEMMs M[p] (tiles x out_c) = V[p] (tiles x in_c) x U[p] (in_c x out_c), U[p] the
 *      filter transformed (G g G^T) in the packed layout of the f32 GEMM micro-kernel: either
 *      once per model and stored ("stored"), or per GEMM panel of each block, into per-thread
 *      scratch, from the im2col GEMM's packing of the 3x3 filter ("on the fly": the filter's
 *      memory only, no 16/9 or 36/9 copy);
 *   3. output transform y = A^T M A + bias, clamped, straight into the output (partial tiles
 *      at the right and bottom edges go through a small buffer).
 * Blocks hold as many tiles as keep V and M in about 2 MiB of L2 (whole MR-row GEMM tiles);
 * blocks split over threads, or, with fewer blocks than threads, output channels do.
 * The result differs from direct summation by rounding only (tests: tests/ops/
 * test_f32_winograd.c; docs/kernels.md, "Winograd"). */
#ifndef TFCC_KERNELS_F32_WINOGRAD_WINOGRAD_H
#define TFCC_KERNELS_F32_WINOGRAD_WINOGRAD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "kernels/f32-gemm/gemm.h"
#include "kernels/f32-winograd/transforms.h"
#include "kernels/ref/conv.h"
#include "kernels/dispatch_table.h"

typedef struct tfcc_f32_wino_kernel {
  const char *name;    /* "f32-winograd-avx512" (the family's variant) */
  const char *name_f2; /* "f32-winograd-f2-avx512" */
  const char *name_f4; /* "f32-winograd-f4-avx512" */
  tfcc_isa isa;        /* level the transforms need */
  tfcc_wino_in_fn in_f2;
  tfcc_wino_out_fn out_f2;
  tfcc_wino_in_fn in_f4;
  tfcc_wino_out_fn out_f4;
  tfcc_wino_filt_fn filt; /* both tile sizes */
} tfcc_f32_wino_kernel;

/* Best transforms at or below `isa` (never NULL). */
TFCC_DISPATCH_TABLE_DECL(tfcc_f32_wino, tfcc_f32_wino_kernel);

#define TFCC_WINO_MAX_POS 36

/* Transformed, packed filter of one convolution (model-level, shared by sessions), or (src
 * set, mem NULL) the im2col GEMM's packing it is transformed from on the fly. */
typedef struct tfcc_f32_wino_weights {
  const tfcc_f32_wino_kernel *k;
  const tfcc_f32_gemm_kernel *gk;
  const char *name; /* kernel name for profiles */
  int m, n;         /* output tile m x m, input tile n x n (n = m + 2) */
  int32_t in_c, out_c;
  tfcc_f32_packed pos[TFCC_WINO_MAX_POS]; /* U[p], N = out_c, K = in_c (zero bias) */
  float *mem;                             /* one block holding every pos[p].w, then the bias */
  float *bias; /* out_c floats (zeros when the conv has none), in mem's block or src's */
  const tfcc_f32_packed *src; /* on the fly: N = out_c, K = 9 in_c (OHWI order), else NULL */
} tfcc_f32_wino_weights;

/* True for what the kernel computes: 3x3 window, stride 1, dilation 1, groups 1. */
bool tfcc_f32_wino_fits(const tfcc_conv_geom *g);
/* Output tile size worth using for this geometry: 4, 2, or 0 when the im2col GEMM is faster
 * (measured on ResNet-50's stages, docs/kernels.md). */
int tfcc_f32_wino_choose(const tfcc_conv_geom *g);
/* The same for the transform on the fly, which reads only the filter per block (as the GEMM
 * does): where tfcc_f32_wino_choose keeps the GEMM for the transformed weights' reads, F2
 * when its blocks hold at least 8 tiles (ResNet-18's 7x7x512 stage: the whole model 0.94x of
 * on the fly with the GEMM there, bench/README.md). */
int tfcc_f32_wino_choose_otf(const tfcc_conv_geom *g);

/* Transforms the OHWI 3x3 filter (out_c x 3 x 3 x in_c) for tile size m (2 or 4) and packs it
 * for gk; bias may be NULL. false: out of memory or bad arguments (*w zeroed). */
bool tfcc_f32_wino_pack(const tfcc_f32_wino_kernel *k, const tfcc_f32_gemm_kernel *gk, int m,
                        int32_t out_c, int32_t in_c, const float *filter, const float *bias,
                        tfcc_f32_wino_weights *w);
void tfcc_f32_wino_free(tfcc_f32_wino_weights *w);
/* For weights kept elsewhere (a weights cache): the layout tfcc_f32_wino_pack makes (every
 * field but the pointers) and the bytes of its one block (0 on bad arguments); bind points
 * mem, pos[] and bias into such a block (64-byte aligned, filled by tfcc_f32_wino_pack). */
size_t tfcc_f32_wino_layout(const tfcc_f32_wino_kernel *k, const tfcc_f32_gemm_kernel *gk, int m,
                            int32_t out_c, int32_t in_c, tfcc_f32_wino_weights *w);
void tfcc_f32_wino_bind(tfcc_f32_wino_weights *w, const void *block);
/* On-the-fly weights for tile size m (2 or 4) on src, the im2col GEMM's packing of the OHWI
 * 3x3 filter with its bias (N = out_c, K = 9 in_c; not copied: must outlive w). false on bad
 * arguments (*w zeroed). */
bool tfcc_f32_wino_otf(const tfcc_f32_wino_kernel *k, int m, int32_t out_c, int32_t in_c,
                       const tfcc_f32_packed *src, tfcc_f32_wino_weights *w);
/* Bytes the weights hold (0 on the fly: the packing is src's owner's). */
size_t tfcc_f32_wino_weight_bytes(const tfcc_f32_wino_weights *w);

struct tfcc_threadpool;
/* Scratch for tfcc_f32_wino_conv with `threads` threads. */
size_t tfcc_f32_wino_scratch_bytes(const tfcc_conv_geom *g, const tfcc_f32_wino_weights *w,
                                   int threads);
/* out = clamp(conv(in, filter) + bias, lo, hi); g must fit (tfcc_f32_wino_fits) and match w's
 * channels; scratch: tfcc_f32_wino_scratch_bytes(g, w, threads of pool), 64-byte aligned. */
void tfcc_f32_wino_conv(struct tfcc_threadpool *pool, const tfcc_conv_geom *g,
                        const tfcc_f32_wino_weights *w, const float *in, float *out, float lo,
                        float hi, void *scratch);

#endif
