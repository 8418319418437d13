/* int16 x int8 GEMM with packed weights and a register tile (the 16x8 quantized CONV_2D:
 * int16 activations, int8 weights with zero point 0): tfcc_conv_i16's results bit for bit
 * (kernels/ref/conv.c), much faster than the per-output dot products of q16-dot.
 *
 * The micro-kernel (gemm_body.h, one portable body built per ISA on the small vector
 * primitives of q16v_<isa>.h) computes an MR x NR tile of exact int64 sums: MR output pixels
 * (rows of an implicit im2col: per filter tap one input row of in_c int16 per pixel, or a row
 * of zeros outside the image) against NR output channels, whose weights are packed once (at
 * the operator's init) as pairs, [tap][pair][NR][2] int8; the driver widens one panel at a
 * time to int16 in its thread's scratch (then reused by every tile of a block, so
 * that the inner loop is loads and multiply-adds only, and the packing keeps its int8 size),
 * and one multiply-add of pairs (x86 VPMADDWD / AVX512-VNNI VPDPWSSD, NEON SMULL + ADDP,
 * SIMD128 i32x4.dot_i16x8_s) adds two products into each channel's int32 lane. A lane takes at
 * most TFCC_Q16_GEMM_FLUSH pairs before it is added into the tile's int64 sums: |x| <= 2^15,
 * |w| <= 2^7, so a pair's two products add to at most 2^23 in size and 255 pairs to at most
 * 2^31 - 2^23 (x = -32768, w = -128 throughout), which int32 holds; every sum therefore
 * equals the reference kernel's int64 accumulator: integer sums are exact in any order. The
 * requantization (tfcc_requant64's arithmetic taken apart per channel, vectorised by the
 * compiler; with an int32 bias tfcc_requant16_b32 itself) gives the reference's bits. */
#ifndef TFCC_KERNELS_Q16_GEMM_GEMM_H
#define TFCC_KERNELS_Q16_GEMM_GEMM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/threadpool.h"
#include "kernels/dispatch_table.h"
#include "kernels/ref/conv.h"
#include "tfcc/tfcc.h"

/* Pairs of products per int32 lane between two flushes to int64 (255 x 2^23 < 2^31). */
#define TFCC_Q16_GEMM_FLUSH 255
/* The largest tile of any variant. */
#define TFCC_Q16_GEMM_MAX_MR 8
#define TFCC_Q16_GEMM_MAX_NR 32

/* acc[m * NR + n] = sum over taps t < ks and k < kc of a[t * MR + m][k] * w(t, k, n), in
 * int64, for m < MR, n < NR; w is one panel of the packing (tfcc_q16_gemm_pack: [ks][(kc + 1)
 * / 2][NR][2] int8, zero past kc) widened to int16 (tfcc_q16_gemm_widen_fn). a holds MR row
 * pointers per tap (the driver repeats the last pixel's rows in a partial tile); a row is read
 * for kc elements only (an odd kc's last pair reads one). */
typedef void (*tfcc_q16_gemm_fn)(size_t ks, size_t kc, const int16_t *const *a, const int16_t *w,
                                 int64_t *acc);
/* d[i] = s[i] for i < n (a panel's int8 weights as int16). */
typedef void (*tfcc_q16_gemm_widen_fn)(size_t n, const int8_t *s, int16_t *d);

/* tfcc_requant64 (kernels/ref/conv_acc.h) of NR channels, taken apart per channel: the bias
 * clamped to +-2^47, the multiplier reduced to 16 bits, the rounding 2^(s - 1) and the right
 * shift s = 15 - shift (1..62). */
typedef struct tfcc_q16_gemm_req {
  int64_t bias[TFCC_Q16_GEMM_MAX_NR], mult[TFCC_Q16_GEMM_MAX_NR];
  int64_t round[TFCC_Q16_GEMM_MAX_NR], shift[TFCC_Q16_GEMM_MAX_NR];
  int32_t offset, act_min, act_max;
} tfcc_q16_gemm_req;

/* out[i * out_stride + n] = tfcc_requant64(acc[i * NR + n], ...) by r, for i < rows, n < nc. */
typedef void (*tfcc_q16_gemm_req_fn)(size_t rows, size_t nc, const int64_t *acc,
                                     const tfcc_q16_gemm_req *r, int16_t *out, size_t out_stride);

/* The requantization of a tile whose sums fit int32 (a depth without a flush, ks * ((kc + 1) / 2)
 * <= TFCC_Q16_GEMM_FLUSH, straight from the micro-kernel's registers; or an int64 tile whose
 * sums all fit int32), per channel n, of an int32 sum s:
 *   integer (real 0): x = s * mult[n] + bm[n] in int64, (int32)(x >> shift[n]): tfcc_requant64
 *     exactly where bm = bias * mult + 2^(shift - 1) with |bias| <= 2^47 - 2^31 (then neither
 *     of the reference's clamps to +-2^47 changes anything) and shift 1..62;
 *   real (real 1, the FULLY_CONNECTED double rescale of tfcc_fc_i16_out): a = (double)(int32)(s
 *     + b32[n]) (wrapping) + bias[n], round(a * rscale[n]) (half away from zero) saturated to
 *     int32: exact where the int64 bias is within 2^52 (b32 0; an int32 bias: bias 0);
 * then + offset (wrapping in int32), clamped to [act_min, act_max] within int16. */
typedef struct tfcc_q16_gemm_rq {
  int64_t mult[TFCC_Q16_GEMM_MAX_NR], bm[TFCC_Q16_GEMM_MAX_NR], shift[TFCC_Q16_GEMM_MAX_NR];
  double rscale[TFCC_Q16_GEMM_MAX_NR], bias[TFCC_Q16_GEMM_MAX_NR];
  int32_t b32[TFCC_Q16_GEMM_MAX_NR];
  int32_t offset, act_min, act_max;
  int real;
} tfcc_q16_gemm_rq;

/* The micro-kernel's sums (as tfcc_q16_gemm_fn, with no flush: ks * ((kc + 1) / 2) <=
 * TFCC_Q16_GEMM_FLUSH) requantized by r from its int32 registers into out[i * out_stride + n],
 * i < rows, n < nc. */
typedef void (*tfcc_q16_gemm_fused_fn)(size_t ks, size_t kc, const int16_t *const *a,
                                       const int16_t *w, const tfcc_q16_gemm_rq *r, size_t rows,
                                       size_t nc, int16_t *out, size_t out_stride);
/* r on an int64 tile acc (as tfcc_q16_gemm_req_fn): false, with some rows perhaps written, where
 * a sum is outside int32 (the caller then writes the tile by the scalar function). */
typedef bool (*tfcc_q16_gemm_req32_fn)(size_t rows, size_t nc, const int64_t *acc,
                                       const tfcc_q16_gemm_rq *r, int16_t *out, size_t out_stride);

typedef struct tfcc_q16_gemm_kernel {
  const char *name;
  tfcc_isa isa;
  tfcc_q16_gemm_fn fn;
  tfcc_q16_gemm_req_fn req;
  tfcc_q16_gemm_widen_fn widen;
  tfcc_q16_gemm_fused_fn fused;
  tfcc_q16_gemm_req32_fn req32;
  int mr, nr;
  int feature; /* tfcc_cpu_feature needed besides the ISA level, or -1 */
} tfcc_q16_gemm_kernel;

TFCC_DISPATCH_TABLE_DECL(tfcc_q16_gemm, tfcc_q16_gemm_kernel);
/* Whether k runs at dispatch level isa on this CPU (level and extra feature). */
bool tfcc_q16_gemm_usable(const tfcc_q16_gemm_kernel *k, tfcc_isa isa);

#define TFCC_Q16_GEMM_VARIANT(sfx) \
  void tfcc_q16_gemm_##sfx(size_t ks, size_t kc, const int16_t *const *a, const int16_t *w, \
                           int64_t *acc); \
  void tfcc_q16_gemm_widen_##sfx(size_t n, const int8_t *s, int16_t *d); \
  void tfcc_q16_gemm_req_##sfx(size_t rows, size_t nc, const int64_t *acc, \
                               const tfcc_q16_gemm_req *r, int16_t *out, size_t out_stride); \
  void tfcc_q16_gemm_fused_##sfx(size_t ks, size_t kc, const int16_t *const *a, const int16_t *w, \
                                 const tfcc_q16_gemm_rq *r, size_t rows, size_t nc, int16_t *out, \
                                 size_t out_stride); \
  bool tfcc_q16_gemm_req32_##sfx(size_t rows, size_t nc, const int64_t *acc, \
                                 const tfcc_q16_gemm_rq *r, int16_t *out, size_t out_stride)
TFCC_Q16_GEMM_VARIANT(avx512vnni);
TFCC_Q16_GEMM_VARIANT(avx512);
TFCC_Q16_GEMM_VARIANT(avx2);
TFCC_Q16_GEMM_VARIANT(neon);
TFCC_Q16_GEMM_VARIANT(wasmsimd);
TFCC_Q16_GEMM_VARIANT(scalar);

/* Tiles per variant (gemm_body.h builds MR x NR; dispatch.c lists them). */
enum {
  TFCC_Q16_GEMM_MR_avx512vnni = 6, /* the avx512 tile: the same packing */
  TFCC_Q16_GEMM_NR_avx512vnni = 32,
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

/* Shallow inputs (kc < TFCC_Q16_GEMM_FLAT_KC, more than one tap, ks * kc at most
 * TFCC_Q16_GEMM_FLAT_K) run as one tap of depth ks * kc: the driver copies the im2col rows into
 * its scratch and the packing is made for that depth. */
#define TFCC_Q16_GEMM_FLAT_KC 16
#define TFCC_Q16_GEMM_FLAT_K 4096
bool tfcc_q16_gemm_flat(int32_t ks, int32_t kc);

/* The packing of an OHWI filter [oc][ks][kc] (int8, zero point 0) for k: its size in bytes
 * (0: too large), then the panels of NR output channels into w (that many bytes). Made once
 * from constant weights (the operator's init). */
size_t tfcc_q16_gemm_packed_bytes(const tfcc_q16_gemm_kernel *k, int32_t oc, int32_t ks,
                                  int32_t kc);
void tfcc_q16_gemm_pack(const tfcc_q16_gemm_kernel *k, int32_t oc, int32_t ks, int32_t kc,
                        const int8_t *filter, int8_t *w);

/* tfcc_conv_i16's results (kernels/ref/conv.h) on k and its packing w of the filter, for
 * ungrouped convolutions with input offset 0 (tfcc_q16_gemm_conv_fits); scratch of
 * tfcc_q16_gemm_conv_scratch bytes (64-byte aligned) for `threads` threads; pool may be NULL.
 * An int32 bias runs tfcc_requant16_b32 per output. */
bool tfcc_q16_gemm_conv_fits(const tfcc_conv_geom *g, const tfcc_conv_requant *q);
size_t tfcc_q16_gemm_conv_scratch(const tfcc_conv_geom *g, int threads);
void tfcc_q16_gemm_conv(tfcc_threadpool *pool, const tfcc_q16_gemm_kernel *k,
                        const tfcc_conv_geom *g, const tfcc_conv_requant *q, const int16_t *in,
                        const int8_t *w, const int64_t *bias64, const int32_t *bias32, int16_t *out,
                        void *scratch);

/* The 16x8 FULLY_CONNECTED of d->batches rows (tfcc_fc_i16's results, kernels/ref/
 * fully_connected.h) on k and its packing w of the [units][accum] weights (ks 1): the GEMM of a
 * 1 x batches "image" of accum channels, each output through tfcc_fc_i16_out (the double
 * rescale `real` where given, an int32 bias wrapped as TFLite's, else tfcc_requant64, the
 * vector path's arithmetic). Weight offset 0 (tfcc_q16_gemm_fc_fits); scratch of
 * tfcc_q16_gemm_fc_scratch bytes. */
bool tfcc_q16_gemm_fc_fits(const tfcc_conv_requant *q);
size_t tfcc_q16_gemm_fc_scratch(int32_t batches, int32_t units, int32_t accum, int threads);
void tfcc_q16_gemm_fc(tfcc_threadpool *pool, const tfcc_q16_gemm_kernel *k, int32_t batches,
                      int32_t units, int32_t accum, const tfcc_conv_requant *q, const int16_t *in,
                      const int8_t *w, const int64_t *bias64, const int32_t *bias32,
                      const double *real, int16_t *out, void *scratch);

#endif
