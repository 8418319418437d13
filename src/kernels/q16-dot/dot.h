/* int16 x int8 dot products with exact int64 sums: the 16x8 quantized CONV_2D and
 * FULLY_CONNECTED (int16 activations, int8 weights), one file per ISA variant of one portable
 * body (dot_body.h), vectorised by the compiler (x86: VPMADDWD; NEON: SMLAL; SIMD128:
 * i32x4.dot_i16x8_s).
 *
 * A variant adds to acc[u], for u < units, sum over k < K of (int32)(w[u * w_stride + k] + fo)
 * * x[k], in int64. Products are summed in int32 over blocks of TFCC_Q16_DOT_BLOCK elements
 * (|x| <= 2^15, |w + fo| <= 256 for an int8 zero point: a block's sum stays within 2^30) and each block's sum added in
 * int64, so every acc equals the reference kernels' int64 sum (kernels/ref/conv.c,
 * fully_connected.c) in any order: integer sums are exact. The drivers (dispatch.c) then
 * requantize with the reference kernels' functions, so the outputs are theirs bit for bit. */
#ifndef TFCC_KERNELS_Q16_DOT_DOT_H
#define TFCC_KERNELS_Q16_DOT_DOT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "kernels/dispatch_table.h"
#include "kernels/ref/conv.h"
#include "kernels/ref/fully_connected.h"
#include "tfcc/tfcc.h"

#define TFCC_Q16_DOT_BLOCK 128

typedef void (*tfcc_q16_dot_fn)(const int16_t *x, const int8_t *w, size_t K, size_t units,
                                size_t w_stride, int32_t fo, int64_t *acc);

/* the same sums for filter offset 0 (the 16x8 FULLY_CONNECTED's) on hand-written
 * vectors (gemv_body.h: x loaded once for four units, each lane's pairs multiply-added, no
 * offset add): acc[u] += sum over k < K of x[k] * w[u * w_stride + k], in int64. */
typedef void (*tfcc_q16_gemv_fn)(const int16_t *x, const int8_t *w, size_t K, size_t units,
                                 size_t w_stride, int64_t *acc);

typedef struct tfcc_q16_dot_kernel {
  const char *name;
  tfcc_isa isa;
  tfcc_q16_dot_fn fn;
  tfcc_q16_gemv_fn gemv;
} tfcc_q16_dot_kernel;

TFCC_DISPATCH_TABLE_DECL(tfcc_q16_dot, tfcc_q16_dot_kernel);

#define TFCC_Q16_DOT_DECL(sfx) \
  void tfcc_q16_dot_##sfx(const int16_t *x, const int8_t *w, size_t K, size_t units, \
                          size_t w_stride, int32_t fo, int64_t *acc); \
  void tfcc_q16_gemv_##sfx(const int16_t *x, const int8_t *w, size_t K, size_t units, \
                           size_t w_stride, int64_t *acc)
TFCC_Q16_DOT_DECL(avx512);
TFCC_Q16_DOT_DECL(avx2);
TFCC_Q16_DOT_DECL(neon);
TFCC_Q16_DOT_DECL(wasmsimd);
TFCC_Q16_DOT_DECL(scalar);

/* tfcc_conv_i16's results (kernels/ref/conv.h) on k: ungrouped convolutions with input
 * offset 0 (the 16x8 kernels' zero point; tfcc_q16_conv_fits). */
bool tfcc_q16_conv_fits(const tfcc_conv_geom *g, const tfcc_conv_requant *q);
void tfcc_q16_conv(const tfcc_q16_dot_kernel *k, const tfcc_conv_geom *g,
                   const tfcc_conv_requant *q, const int16_t *in, const int8_t *filter,
                   const int64_t *bias64, const int32_t *bias32, int16_t *out);

/* tfcc_fc_i16's results (kernels/ref/fully_connected.h; real: its double rescale, or NULL);
 * filter offset 0 on k->gemv. */
void tfcc_q16_fc(const tfcc_q16_dot_kernel *k, const tfcc_fc_dims *d, const tfcc_conv_requant *q,
                 const int16_t *in, const int8_t *w, const int64_t *bias64, const int32_t *bias32,
                 const double *real, int16_t *out);

#endif
