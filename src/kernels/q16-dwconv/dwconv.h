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
#include "kernels/simd/q16rqi.h"
#include "tfcc/tfcc.h"

#define TFCC_Q16_DW_MAX_TAPS 32
/* The fused kernel's int32 runs: 255 tap pairs (510 taps) of products |x w| <= 2^22 stay within
 * int32 (510 x 2^22 < 2^31); a window of more pairs adds its runs in int64. */
#define TFCC_Q16_DWF_RUN_PAIRS 255
/* The fused kernel's and the layer packing's taps (tfcc_q16_dwf_fn): a bound on the tap arrays
 * and the packing the operator plans (16 bytes of pointers and up to 64 of tail rows a tap and
 * thread in scratch, 2 x out_c bytes a tap of packing), far past any real window (256 x 256). */
#define TFCC_Q16_DWF_MAX_TAPS 65536

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

/* The fused requantization of tfcc_q16_dwf_fn, per position j of a block (the lane order of the
 * variant's int32 sums: channel tfcc_q16_dwf_chan(block, j) of the block):
 *   x = s * mult[j] + bm[j] in int64, (int32)(x >> shift[j]), + offset (wrapping), clamped to
 *   [act_min, act_max] (within int16).
 * That is tfcc_requant64 of the int32 sum s bit for bit where bm = bias * mult + 2^(shift - 1),
 * |bias| <= 2^47 - 2^31 (the reference's clamps to +-2^47 then change nothing) and shift is
 * 1..62 (tfcc_q16_dw_rq_init checks it). */
typedef struct tfcc_q16_dw_rq {
  const int64_t *mult, *bm, *shift;
  int32_t offset, act_min, act_max;
} tfcc_q16_dw_rq;

/* Position j's int32 sum s requantized by r as above, in scalar arithmetic (the lanes of the
 * variants without 64-bit vector shifts by lane: scalar, SIMD128). */
static inline int16_t tfcc_q16_dw_rq_lane(int32_t s, const tfcc_q16_dw_rq *r, size_t j) {
  return (int16_t)tfcc_q16rq_end_lane(tfcc_q16rqi_lane(s, r->mult[j], r->bm[j], r->shift[j]),
                                      r->offset, r->act_min, r->act_max);
}

/* Position j (< block) of a block's int32 sums holds channel tfcc_q16_dwf_chan(block, j): the
 * sums are two vectors of block / 2 lanes, per 128-bit lane the first with channels 0-3, the
 * second 4-7 (dwp_x86_pack.h; NEON's and the scalar body's 8 lanes are in channel order, which
 * this gives for block 8). */
static inline size_t tfcc_q16_dwf_chan(size_t block, size_t j) {
  const size_t h = block / 2, v = j / h, e = j % h;
  return e / 4 * 8 + v * 4 + e % 4;
}

/* The fused tap-pair kernel (dwpair_body.h): for each of npix pixels, for channels c < nc, the
 * sum over t < 2 * npairs of (int32)x_t[c] * w_t[c], requantized by r into out[c]: in int32 from
 * the registers for up to TFCC_Q16_DWF_RUN_PAIRS pairs (at most 510 products of |x w| <= 2^22,
 * < 2^31); past that in runs of TFCC_Q16_DWF_RUN_PAIRS pairs whose int32 sums are added in
 * int64 (P) and folded into the bias term: x = (P + s) * mult + bm = s * mult + (bm + P * mult),
 * which is tfcc_requant64 of the whole sum where |bias| + |sum| < 2^47 (the driver's bound).
 * x: 2 * npairs pointers of the first pixel (a padding tap a zero row of nc int16), which the
 * kernel advances: pixel i reads x[t] + i * xstep[t] and writes out + i * ostep. w: the layer's
 * weights as tfcc_q16_dw_pack packs them (whole blocks, zero past nc), r: ceil(nc / block) *
 * block terms in lane order. Channels past the last whole block are read by masked loads where
 * the variant has them, else copied to zero-padded rows in ws (tfcc_q16_dwf_ws_bytes(block,
 * npairs) bytes; no load past x_t[nc - 1]) and stored partially. */
typedef void (*tfcc_q16_dwf_fn)(size_t npairs, const int16_t **x, const ptrdiff_t *xstep,
                                size_t npix, const int16_t *w, size_t nc, const tfcc_q16_dw_rq *r,
                                int16_t *out, size_t ostep, void *ws);
static inline size_t tfcc_q16_dwf_ws_bytes(size_t block, size_t npairs) {
  return 2 * npairs * (block * sizeof(int16_t) + sizeof(const int16_t *));
}

typedef struct tfcc_q16_dw_kernel {
  const char *name;
  tfcc_isa isa;
  tfcc_q16_dw_fn fn;
  tfcc_q16_dw_req_fn req;
  tfcc_q16_dwp_fn pairs;
  tfcc_q16_dwp_pack_fn pack;
  tfcc_q16_dwf_fn fused;
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
#define TFCC_Q16_DWF_DECL(name) \
  void name(size_t npairs, const int16_t **x, const ptrdiff_t *xstep, size_t npix, \
            const int16_t *w, size_t nc, const tfcc_q16_dw_rq *r, int16_t *out, size_t ostep, \
            void *ws)
#define TFCC_Q16_DW_VARIANT(sfx) \
  TFCC_Q16_DWF_DECL(tfcc_q16_dwf_##sfx); \
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

/* The layer packing of the fused kernel (taps <= TFCC_Q16_DWF_MAX_TAPS; c output channels, any
 * depth multiplier): a filter [taps][c] of int8 as ceil(c / block) blocks of ceil(taps / 2) pairs of 2 * block
 * int16 (k->pack's layout; zero past c and for an odd tap count's last tap). Its size in bytes
 * (0: not packable on k); the packing depends on the filter, k's block and lane order only
 * (a weights-cache block would be keyed by k->name). */
size_t tfcc_q16_dw_packed_bytes(const tfcc_q16_dw_kernel *k, int32_t c, int32_t taps);
void tfcc_q16_dw_pack(const tfcc_q16_dw_kernel *k, int32_t c, int32_t taps, const int8_t *filter,
                      int16_t *dst);

/* tfcc_dwconv_i16's results (kernels/ref/depthwise_conv.h) on k: input offset 0 (the 16x8
 * kernels' zero point) and out_c a multiple of in_c (tfcc_q16_dwconv_fits); pool may be NULL.
 * packed: NULL, or the filter as tfcc_q16_dw_pack packed it for k (out_c channels): whole
 * pixels run on the fused kernel where the requantization allows, given scratch of
 * tfcc_q16_dwconv_scratch_bytes(g, tfcc_threadpool_size(pool)) bytes (NULL: none, the per-tap
 * path): each thread's tap pointers and tail rows, and for a depth multiplier above 1 the input
 * spread once to out_c channels (x'[c] = x[c / multiplier]), which then run as a depth
 * multiplier of 1. */
bool tfcc_q16_dwconv_fits(const tfcc_conv_geom *g, const tfcc_conv_requant *q);
/* the spread input for a depth multiplier above 1 (batches x in_h x in_w x out_c int16) is left
 * out past TFCC_Q16_DW_SPREAD_MAX bytes (that multiplier then runs the per-tap path) */
#define TFCC_Q16_DW_SPREAD_MAX ((size_t)64 << 20)
size_t tfcc_q16_dwconv_scratch_bytes(const tfcc_conv_geom *g, int threads);
void tfcc_q16_dwconv(tfcc_threadpool *pool, const tfcc_q16_dw_kernel *k, const tfcc_conv_geom *g,
                     const tfcc_conv_requant *q, const int16_t *in, const int8_t *filter,
                     const int16_t *packed, const int64_t *bias64, const int32_t *bias32,
                     int16_t *out, void *scratch);

#endif
