/* int16 x int8 GEMM with packed weights and a register tile (the 16x8 quantized CONV_2D:
 * int16 activations, int8 weights with zero point 0): tfcc_conv_i16's results bit for bit
 * (kernels/ref/conv.c), much faster than the per-output dot products of q16-dot.
 *
 * The micro-kernel (gemm_body.h, one portable body built per ISA on the small vector
 * primitives of q16v_<isa>.h) computes an MR x NR tile of exact int64 sums: MR output pixels
 * (rows of an implicit im2col: per filter tap one input row of in_c int16 per pixel, or a row
 * of zeros outside the image) against NR output channels, whose weights the driver packs as
 * int16 pairs, [tap][pair][NR][2], so that one multiply-add of pairs (x86 VPMADDWD, NEON
 * SMULL + ADDP, SIMD128 i32x4.dot_i16x8_s) adds two products into each channel's int32 lane.
 * A lane takes at most TFCC_Q16_GEMM_FLUSH pairs (|x| <= 2^15, |w| <= 2^7: a product is at
 * most 2^22 in size, 2 * 128 of them at most 2^30) before it is added into the tile's int64
 * sums, so every sum equals the reference kernel's int64 accumulator: integer sums are exact
 * in any order. The driver (dispatch.c) requantizes each sum with the reference kernel's own
 * function (tfcc_requant64 / tfcc_requant16_b32), so the outputs are the reference's bits. */
#ifndef TFCC_KERNELS_Q16_GEMM_GEMM_H
#define TFCC_KERNELS_Q16_GEMM_GEMM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/threadpool.h"
#include "kernels/dispatch_table.h"
#include "kernels/q16-dwconv/dwconv.h"
#include "kernels/ref/conv.h"
#include "tfcc/tfcc.h"

/* Pairs of products per int32 lane between two flushes to int64. */
#define TFCC_Q16_GEMM_FLUSH 128
/* The largest tile of any variant (scratch sizes). */
#define TFCC_Q16_GEMM_MAX_MR 8
#define TFCC_Q16_GEMM_MAX_NR 32

/* acc[m * NR + n] = sum over taps t < ks and k < kc of a[t * MR + m][k] * w(t, k, n), in
 * int64, for m < MR, n < NR; w packed as above ([ks][(kc + 1) / 2][NR][2] int16, zero past
 * kc). a holds MR row pointers per tap (the driver repeats the last pixel's rows in a partial
 * tile); a row is read for kc elements only (an odd kc's last pair reads one). */
typedef void (*tfcc_q16_gemm_fn)(size_t ks, size_t kc, const int16_t *const *a, const int16_t *w,
                                 int64_t *acc);

typedef struct tfcc_q16_gemm_kernel {
  const char *name;
  tfcc_isa isa;
  tfcc_q16_gemm_fn fn;
  int mr, nr;
} tfcc_q16_gemm_kernel;

TFCC_DISPATCH_TABLE_DECL(tfcc_q16_gemm, tfcc_q16_gemm_kernel);

#define TFCC_Q16_GEMM_DECL(name) \
  void name(size_t ks, size_t kc, const int16_t *const *a, const int16_t *w, int64_t *acc)
TFCC_Q16_GEMM_DECL(tfcc_q16_gemm_avx512);
TFCC_Q16_GEMM_DECL(tfcc_q16_gemm_avx2);
TFCC_Q16_GEMM_DECL(tfcc_q16_gemm_neon);
TFCC_Q16_GEMM_DECL(tfcc_q16_gemm_wasmsimd);
TFCC_Q16_GEMM_DECL(tfcc_q16_gemm_scalar);

/* Tiles per variant (gemm_body.h builds MR x NR; dispatch.c lists them). */
enum {
  TFCC_Q16_GEMM_MR_avx512 = 6,
  TFCC_Q16_GEMM_NR_avx512 = 32,
  TFCC_Q16_GEMM_MR_avx2 = 4,
  TFCC_Q16_GEMM_NR_avx2 = 16,
  TFCC_Q16_GEMM_MR_neon = 6,
  TFCC_Q16_GEMM_NR_neon = 8,
  TFCC_Q16_GEMM_MR_wasmsimd = 4,
  TFCC_Q16_GEMM_NR_wasmsimd = 8,
  TFCC_Q16_GEMM_MR_scalar = 2,
  TFCC_Q16_GEMM_NR_scalar = 8
};

/* tfcc_conv_i16's results (kernels/ref/conv.h) on k, for ungrouped convolutions with input
 * offset 0 and a filter of int8 (zero point 0); scratch of tfcc_q16_gemm_conv_scratch bytes
 * (64-byte aligned) for `threads` threads; pool may be NULL. req: q16-dwconv's requantization
 * of a row of channels at the same level (tfcc_requant64's bits), or NULL (the scalar
 * reference functions); an int32 bias always runs tfcc_requant16_b32. */
bool tfcc_q16_gemm_conv_fits(const tfcc_conv_geom *g, const tfcc_conv_requant *q);
size_t tfcc_q16_gemm_conv_scratch(const tfcc_conv_geom *g, int threads);
void tfcc_q16_gemm_conv(tfcc_threadpool *pool, const tfcc_q16_gemm_kernel *k,
                        const tfcc_conv_geom *g, const tfcc_conv_requant *q, const int16_t *in,
                        const int8_t *filter, const int64_t *bias64, const int32_t *bias32,
                        tfcc_q16_dw_req_fn req, int16_t *out, void *scratch);

#endif
