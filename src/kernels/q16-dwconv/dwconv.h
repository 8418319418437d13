/* int16 x int8 depthwise convolution (the 16x8 quantized DEPTHWISE_CONV_2D: int16 activations,
 * int8 weights), one file per ISA variant of one portable body (dwconv_body.h), vectorised by
 * the compiler across channels.
 *
 * A variant adds to acc[c], for c < n, sum over t < taps of (int32)x[t][c] * w[t][c], in int64.
 * taps <= TFCC_Q16_DW_MAX_TAPS, so that every product (|x w| <= 2^22) summed over the taps stays
 * within int32 (2^30); the int64 add after that makes every acc the reference kernel's int64
 * sum (kernels/ref/depthwise_conv.c, tfcc_dwconv_i16): integer sums are exact in any order.
 * The driver (dispatch.c) walks the window as the reference kernel does (rows of output pixels
 * split over the pool) and requantizes with its function's arithmetic (tfcc_requant64, its
 * per-channel terms made once per pass of channels), so the outputs are the reference
 * kernel's bit for bit. */
#ifndef TFCC_KERNELS_Q16_DWCONV_DWCONV_H
#define TFCC_KERNELS_Q16_DWCONV_DWCONV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/threadpool.h"
#include "kernels/dispatch_table.h"
#include "kernels/ref/conv.h"
#include "tfcc/tfcc.h"

#define TFCC_Q16_DW_MAX_TAPS 32

typedef void (*tfcc_q16_dw_fn)(size_t taps, const int16_t *const *x, const int8_t *const *w,
                               size_t n, int64_t *acc);

/* tfcc_requant64 (kernels/ref/conv_acc.h) taken apart per channel j: the bias clamped to
 * +-2^47, the multiplier reduced to 16 bits, the rounding 2^(s - 1) and the right shift
 * s = 15 - shift (1..62). */
typedef struct tfcc_q16_dw_req_terms {
  const int64_t *bias, *mult, *round, *shift;
  int32_t offset, act_min, act_max;
} tfcc_q16_dw_req_terms;

/* out[j] = tfcc_requant64(acc[j], ...) by the terms of channel j, for j < n: the reference
 * kernel's requantization. */
typedef void (*tfcc_q16_dw_req_fn)(size_t n, const int64_t *acc, const tfcc_q16_dw_req_terms *r,
                                   int16_t *out);

/* The tap-pair kernel (dwpair_body.h): for each block b < nblocks of `block` channels,
 * acc[b * block + c] = sum over t < 2 * npairs of (int32)x[t][b * block + c] * w_t[...], the
 * int32 sums of the block kept in registers over all taps (npairs <= TFCC_Q16_DW_MAX_TAPS / 2),
 * stored (not added) as int64; w: the weights packed by `pack` (npairs pairs of tap pointers
 * w[2p], w[2p + 1], the second NULL for zeros; 2 * block int16 per pair and block, blocks
 * outermost). A padding tap is a zero row: every pixel runs the same pairs. */
typedef void (*tfcc_q16_dwp_fn)(size_t npairs, const int16_t *const *x, const int16_t *w,
                                size_t nblocks, int64_t *acc);
typedef void (*tfcc_q16_dwp_pack_fn)(size_t npairs, const int8_t *const *w, size_t nblocks,
                                     int16_t *dst);

typedef struct tfcc_q16_dw_kernel {
  const char *name;
  tfcc_isa isa;
  tfcc_q16_dw_fn fn;
  tfcc_q16_dw_req_fn req;
  tfcc_q16_dwp_fn pairs;
  tfcc_q16_dwp_pack_fn pack;
  size_t block;
} tfcc_q16_dw_kernel;

TFCC_DISPATCH_TABLE_DECL(tfcc_q16_dw, tfcc_q16_dw_kernel);

#define TFCC_Q16_DW_DECL(name) \
  void name(size_t taps, const int16_t *const *x, const int8_t *const *w, size_t n, int64_t *acc)
#define TFCC_Q16_DW_REQ_DECL(name) \
  void name(size_t n, const int64_t *acc, const tfcc_q16_dw_req_terms *r, int16_t *out)
#define TFCC_Q16_DWP_DECL(name) \
  void name(size_t npairs, const int16_t *const *x, const int16_t *w, size_t nblocks, int64_t *acc)
#define TFCC_Q16_DWP_PACK_DECL(name) \
  void name(size_t npairs, const int8_t *const *w, size_t nblocks, int16_t *dst)
#define TFCC_Q16_DW_VARIANT(sfx) \
  TFCC_Q16_DW_DECL(tfcc_q16_dw_##sfx); \
  TFCC_Q16_DW_REQ_DECL(tfcc_q16_dw_req_##sfx); \
  TFCC_Q16_DWP_DECL(tfcc_q16_dwp_##sfx); \
  TFCC_Q16_DWP_PACK_DECL(tfcc_q16_dwp_pack_##sfx)
/* channels a block of each variant's tap-pair kernel (dwp_<isa>.h) */
#define TFCC_Q16_DWP_B_avx512 32
#define TFCC_Q16_DWP_B_avx2 16
#define TFCC_Q16_DWP_B_neon 8
#define TFCC_Q16_DWP_B_wasmsimd 8
#define TFCC_Q16_DWP_B_scalar 8
TFCC_Q16_DW_VARIANT(avx512);
TFCC_Q16_DW_VARIANT(avx2);
TFCC_Q16_DW_VARIANT(neon);
TFCC_Q16_DW_VARIANT(wasmsimd);
TFCC_Q16_DW_VARIANT(scalar);

/* tfcc_dwconv_i16's results (kernels/ref/depthwise_conv.h) on k: input offset 0 (the 16x8
 * kernels' zero point) and out_c a multiple of in_c (tfcc_q16_dwconv_fits); pool may be NULL. */
bool tfcc_q16_dwconv_fits(const tfcc_conv_geom *g, const tfcc_conv_requant *q);
void tfcc_q16_dwconv(tfcc_threadpool *pool, const tfcc_q16_dw_kernel *k, const tfcc_conv_geom *g,
                     const tfcc_conv_requant *q, const int16_t *in, const int8_t *filter,
                     const int64_t *bias64, const int32_t *bias32, int16_t *out);

#endif
