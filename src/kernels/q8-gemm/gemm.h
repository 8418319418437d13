/* Fast 8-bit GEMM (int8 and uint8 conv-family operators), bit-exact with the reference kernels.
 *
 *   acc[m][n] = sum_k (x[m][k] + io) * (w[n][k] + fo) + bias[n]       (int32, wrapping)
 *   out[m][n] = requant(acc[m][n], n)                                 (mode of the model)
 *
 * The micro-kernels multiply activation bytes in place (row pointers, like f32-gemm) with
 * weight bytes stored xor 0x80 on x86, so that one operand of the dot product instruction is
 * unsigned and the other signed (vpdpbusd, u8 x s8):
 *   int8 activations (S):  x as s8, weights stored as w + 128 (u8), kz = fo - 128
 *   uint8 activations (U): x as u8, weights stored as w - 128 (s8), kz = fo + 128
 * NEON's sdot / udot take two operands of one signedness: weights stored as they are, kz = fo.
 * With s[n] the sum of the stored weights of column n and K the depth:
 *   acc = dot(x, stored) + kz * rowsum(x) + (bias + io * s[n] + K * io * kz)
 * The last term is folded into the packed bias at packing; the row term is computed per
 * tile. Everything is modulo 2^32, which is what the reference's int32 wrap gives.
 *
 * Packed weights: panels of NR columns, each [NR int32 bias'][NR float scale]
 * [kpad/4 groups x NR columns x 4 bytes], zero past N and past K; kpad is K rounded up to the
 * kernel's depth block (tfcc_q8_gemm_k_block: 4, or 64 for AMX tile kernels); the I8MM kernel
 * has 8-byte groups of column pairs instead (tfcc_q8_gemm_pair_layout), the WebAssembly and
 * AVX2 kernels groups of 2 elements (tfcc_q8_gemm_c2_layout: int16 for WebAssembly, twice the
 * bytes; int8 for AVX2). The AVX2 one (tfcc_q8_gemm_rows16) multiplies int16 rows that the
 * driver widens by the int8 weights it widens (vpmovsxbw), stored as they are for int8 (kz =
 * fo: 0 in TFLite's int8 models, so no row term) and w - 128 for uint8 (kz = fo + 128;
 * tfcc_q8_gemm_stored_xor). */
#ifndef TFCC_KERNELS_Q8_GEMM_GEMM_H
#define TFCC_KERNELS_Q8_GEMM_GEMM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "kernels/ref/conv.h"
#include "tfcc/tfcc.h"
#include "kernels/dispatch_table.h"

/* Output stage of one tile. c32 != NULL: store the int32 accumulators there (row i at
 * c32 + i * NR) and nothing else (the driver requantizes with the fixed-point reference);
 * mult != NULL: requantize in fixed point in the kernel; else requantize in float (XNNPACK's
 * fp32 arithmetic) with the panel's scales and store bytes: clamp((float)acc * scale, lo,
 * hi), round half to even, + zp. */
typedef struct tfcc_q8_out {
  uint8_t *c; /* int8 or uint8 bytes, row i at c + i * c_stride */
  size_t c_stride;
  int32_t *c32;
  float lo, hi; /* act_min - zp, act_max - zp */
  int32_t zp;
  /* Fixed-point requantization in the kernel (kernels with fixed_epilogue, c32 NULL): the
     panel's first column's multiplier and shift (column j at j * mult_stride, j < nc), the
     exact tflite::MultiplyByQuantizedMultiplier, + zp, clamp to [act_min, act_max]. NULL:
     float requantization as above. */
  const int32_t *mult, *shift;
  int32_t mult_stride;
  int32_t act_min, act_max;
  /* Software prefetch into L2 while the tile runs (kernels may ignore it): the lines of
     [pf, pf_end), pf_step bytes (64 or 128) per group of 4 depth bytes; pf NULL: none. The
     driver points it at the weight panel that comes next, so that weights coming from memory
     stream in during the compute instead of stalling the first tile that reads them. */
  const uint8_t *pf, *pf_end;
  size_t pf_step, pf_skip;
  /* Software prefetch into L1 of the panel being read, this many bytes ahead of the depth loop
     (0: none; kernels may ignore it). The driver sets it for deep panels that row tiles read
     from L2 (or further: the first tile), where the hardware prefetcher falls behind. */
  size_t pf_ahead;
  /* The rows may be read up to kc rounded up to 8 bytes, zero past kc (im2col rows; kernels
     may ignore it): the WebAssembly kernel then widens them without depth-tail copies. */
  bool rows_pad8;
  /* Hybrid float output stage in the kernel (kernels with hybrid_epilogue; NULL: none): the
     driver's tile stage (struct tfcc_q8_hybrid below) on the accumulators in registers, the
     same operations in the same order (kernels where tfcc_q8_gemm_hybrid_epilogue). Row i's zero point and scale at hyb_zp[i * hyb_step] /
     hyb_scale[i * hyb_step] (step 1: a group per row; 0: one group for the tile), its floats
     at hyb_c + i * hyb->c_stride; columns from hyb_n0 of the weight sums, scales, biases. */
  const struct tfcc_q8_hybrid *hyb;
  const int32_t *hyb_zp;
  const float *hyb_scale;
  size_t hyb_step, hyb_n0;
  float *hyb_c;
} tfcc_q8_out;

/* One tile: rows i < mr (a[i] valid for i < MR; rows >= mr alias row 0 and are not
 * stored), columns j < nc <= NR of panel w (more: tfcc_q8_gemm_multi_panel), depth kc bytes per row (any kc, rows are read
 * exactly kc bytes). row_add[i] (MR entries) is added to row i. */
typedef void (*tfcc_q8_gemm_fn)(size_t mr, size_t nc, size_t kc, const void *const *a,
                                const void *w, const int32_t *row_add, const tfcc_q8_out *o);

typedef struct tfcc_q8_gemm_kernel {
  const char *name; /* "q8-gemm-14x32-avx512vnni" */
  tfcc_isa isa;     /* level the kernel needs */
  int feature;      /* tfcc_cpu_feature it also needs (AVX512VNNI, DOTPROD), or -1 */
  uint8_t w_xor;    /* weights are stored w ^ w_xor (0x80 for u8 x s8 products, 0 for s8 x s8
                       or u8 x u8 dot products) */
  int mr, nr;
  tfcc_q8_gemm_fn fn_s; /* int8 activations (signed) */
  tfcc_q8_gemm_fn fn_u; /* uint8 activations (unsigned) */
  /* Sum of n activation bytes (int8 when is_signed, else uint8) modulo 2^32, for the row
     term; NULL: the driver's portable loop. */
  uint32_t (*row_sum)(const uint8_t *x, size_t n, bool is_signed);
  bool fixed_epilogue; /* requantizes in fixed point itself (tfcc_q8_out.mult); else the
                          driver does it on the c32 tile */
  /* 0x80: the kernel multiplies the activations xor 0x80 (int8 x as the byte x + 128, uint8
     x as the int8 x - 128: WebAssembly's relaxed dot product, q8-gemm-4x8-wasmrdot, whose
     second operand is the unsigned one), the weights stored as they are (w_xor 0); the
     packed bias takes -128 (int8) or +128 (uint8) times the column's weight sum, so that the
     accumulator is the same. 0: the activations as they are. */
  uint8_t x_xor;
} tfcc_q8_gemm_kernel;

/* Best kernel usable at `isa` on this CPU (never NULL: the generic C kernel); every kernel
 * this build has (tests, benchmarks): count, then entry i. */
TFCC_DISPATCH_TABLE_DECL(tfcc_q8_gemm, tfcc_q8_gemm_kernel);
/* The same for one GEMM of `rows` x `kdim` -> n: the AMX kernel only where it beats AVX512-VNNI,
 * i.e. depth >= TFCC_Q8_AMX_MIN_K and rows >= TFCC_Q8_AMX_MIN_ROWS (measured on a 16-core
 * Xeon with AMX, docs/kernels.md "AMX-INT8": below that, the depth padded to a 64-byte tile row
 * and the per-call tile configuration cost more than the tiles gain); else tfcc_q8_gemm_select's
 * choice among the others. */
#define TFCC_Q8_AMX_MIN_K 256
#define TFCC_Q8_AMX_MIN_ROWS 16
const tfcc_q8_gemm_kernel *tfcc_q8_gemm_select_for(tfcc_isa isa, int64_t rows, int32_t kdim,
                                                   int32_t n);
/* Whether this CPU can run k at isa. */
bool tfcc_q8_gemm_usable(const tfcc_q8_gemm_kernel *k, tfcc_isa isa);
/* NULL when k is usable at isa, else why not (static text, for `tfcc cpu-info`). */
const char *tfcc_q8_gemm_unavailable(const tfcc_q8_gemm_kernel *k, tfcc_isa isa);
/* AMX tile kernels (feature AMX-INT8): they also need AMX-TILE, AVX512-VNNI and the OS's tile
 * permission, and their panels' depth is padded to a tile row. */
bool tfcc_q8_gemm_is_amx(const tfcc_q8_gemm_kernel *k);
/* Panels of 8-byte depth groups with column pairs interleaved (the I8MM kernel's SMMLA /
 * UMMLA operands): group g, column j at g * NR * 8 + (j / 2) * 16 + (j % 2) * 8; depth
 * padded to 8. Every other kernel: the 4-byte groups of the layout above. */
bool tfcc_q8_gemm_pair_layout(const tfcc_q8_gemm_kernel *k);
/* Panels of 2-element depth groups (the WebAssembly kernel's i32x4.dot_i16x8 operands, the
 * AVX2 kernel's vpmaddwd ones): pair g, column j at element g * NR * 2 + j * 2; depth padded
 * to 8 (the WebAssembly kernel widens 8 bytes of a row at a time). The WebAssembly kernel's
 * elements are int16, the stored bytes widened at packing as it reads them (sign-extended for
 * int8, zero-extended for uint8); the AVX2 kernel's (tfcc_q8_gemm_rows16) are the int8 stored
 * bytes (tfcc_q8_gemm_stored_xor), widened in the kernel. Not the relaxed-dot one (x_xor):
 * 4-byte groups. */
bool tfcc_q8_gemm_c2_layout(const tfcc_q8_gemm_kernel *k);
/* Kernels whose rows are int16 (the AVX2 vpmaddwd kernel): the driver widens each row tile's
 * bytes once (sign-extended for int8, zero-extended for uint8; depth rounded up to a pair,
 * zero there) and passes pointers to the int16 rows, kc their bytes (4 per depth pair); the
 * panels are tfcc_q8_gemm_c2_layout's int8 pairs (see the top). */
bool tfcc_q8_gemm_rows16(const tfcc_q8_gemm_kernel *k);
/* The xor the packing stores the weights of k with: k->w_xor; for rows16 kernels 0x80 for
 * uint8 weights (w - 128, int8, with kz = fo + 128) and 0 for int8 (kz = fo). */
uint8_t tfcc_q8_gemm_stored_xor(const tfcc_q8_gemm_kernel *k, bool is_signed);
/* Kernels that run several panels in one call (the WebAssembly kernel, where the call and
 * the driver's per-tile work cost as much as a few depth steps): with o->c32 NULL, nc may
 * exceed NR, and the kernel runs the ceil(nc / NR) consecutive panels from w (columns
 * NR * i .. of the rows, panel i at w + i * tfcc_q8_panel_bytes). Else nc <= NR. */
bool tfcc_q8_gemm_multi_panel(const tfcc_q8_gemm_kernel *k);
/* Kernels that run the hybrid float output stage themselves (tfcc_q8_out.hyb): the
 * AVX512-VNNI one; the others store the int32 tile for the driver's stage. */
bool tfcc_q8_gemm_hybrid_epilogue(const tfcc_q8_gemm_kernel *k);
/* Depth block the packed panels are padded to: 4 (one dword of the dot product), 8 (I8MM,
 * WebAssembly's pairs), 64 (AMX). */
int32_t tfcc_q8_gemm_k_block(const tfcc_q8_gemm_kernel *k);

typedef struct tfcc_q8_packed {
  const tfcc_q8_gemm_kernel *k;
  int32_t n, kdim;
  int32_t kpad;   /* kdim rounded up to tfcc_q8_gemm_k_block(k) */
  bool is_signed; /* int8 activations (fn_s) */
  int32_t kz;     /* row-sum factor (see above) */
  bool fp32;      /* requantize in float (panel scales); else fixed point (requant below) */
  uint8_t *w;     /* 64-byte aligned panels */
} tfcc_q8_packed;

/* Packs src[n * kdim + k] (OHWI filter / FC weights; dtype int8 when is_signed, else uint8)
 * with int32 bias (NULL: zero) for requantization r (offsets, float scales when r->scale).
 * False when out of memory or a size overflows. */
bool tfcc_q8_pack(const tfcc_q8_gemm_kernel *k, bool is_signed, int32_t n, int32_t kdim,
                  const void *src, const int32_t *bias, const tfcc_conv_requant *r,
                  tfcc_q8_packed *out);
struct tfcc_threadpool;
/* tfcc_q8_pack with the panels split over pool's threads (NULL or one thread: the caller). */
bool tfcc_q8_pack_pool(struct tfcc_threadpool *pool, const tfcc_q8_gemm_kernel *k, bool is_signed,
                       int32_t n, int32_t kdim, const void *src, const int32_t *bias,
                       const tfcc_conv_requant *r, tfcc_q8_packed *out);
void tfcc_q8_packed_free(tfcc_q8_packed *p);
/* tfcc_q8_pack in two steps, for packings kept elsewhere (a weights cache): the layout (every
 * field but w) and its bytes (a multiple of 64; 0 when a size overflows or n, kdim <= 0), then
 * the fill of w (64-byte aligned, `bytes` long) from the weights (out->w = w). */
size_t tfcc_q8_pack_layout(const tfcc_q8_gemm_kernel *k, bool is_signed, int32_t n, int32_t kdim,
                           const tfcc_conv_requant *r, tfcc_q8_packed *out);
void tfcc_q8_pack_fill(tfcc_q8_packed *out, const void *src, const int32_t *bias,
                       const tfcc_conv_requant *r, uint8_t *w, size_t bytes);
/* tfcc_q8_pack_fill of panels [p0, p1) only (no bias), from src holding just their rows (row
 * p0 * NR first): a packing made a slice at a time from weights converted a slice at a time.
 * The same bytes once every panel is filled (the last call also zeroes w's padding up to
 * `bytes`). False: an empty or out-of-range panel range. */
bool tfcc_q8_pack_fill_rows(tfcc_q8_packed *out, const void *src, size_t p0, size_t p1,
                            const tfcc_conv_requant *r, uint8_t *w, size_t bytes);
static inline size_t tfcc_q8_panel_bytes(const tfcc_q8_packed *p) {
  /* the SIMD128 WebAssembly kernel's weights are int16 (tfcc_q8_gemm_c2_layout; the AVX2
     kernel's int8: tfcc_q8_gemm_rows16) */
  const size_t wb = tfcc_q8_gemm_c2_layout(p->k) && !tfcc_q8_gemm_rows16(p->k) ? 2u : 1u;
  return (size_t)p->k->nr * (8u + wb * (size_t)p->kpad);
}

struct tfcc_threadpool;

/* out = requant(A x B) for m rows of A (row i at a + i * a_stride, kdim bytes). */
void tfcc_q8_gemm(struct tfcc_threadpool *pool, const tfcc_q8_packed *p, const tfcc_conv_requant *r,
                  int32_t m, const void *a, size_t a_stride, void *c, size_t c_stride,
                  void *scratch);
/* Convolution (groups == 1; p packs the OHWI filter, K = filter_h * filter_w * in_c). */
void tfcc_q8_conv(struct tfcc_threadpool *pool, const tfcc_conv_geom *g, const tfcc_q8_packed *p,
                  const tfcc_conv_requant *r, const void *in, void *out, void *scratch);
/* Scratch bytes of the two calls above with `threads` threads (g NULL: plain GEMM). */
size_t tfcc_q8_scratch_bytes(const tfcc_conv_geom *g, const tfcc_q8_packed *p, int threads);

/* Hybrid (dynamic-range) output stage: float32 out from the int32 accumulators of 8-bit
 * activations quantized at run time (kernels/hybrid) and weights packed with no bias and no
 * input offset (tfcc_q8_pack with bias NULL), so that the kernel's accumulator is exactly
 * sum_k x[m][k] * w[n][k]: int8 x and int8 w with an all-zero requantization, or (what
 * ops/hybrid.c does) uint8 x = q + 128 against the int8 w given as uint8 w + 128 with filter
 * offset -128, zero points + 128 (no row term on x86). Row m belongs to quantization
 * group m / rows_per_group (zero point zp[g], dequantization scale scale[g]):
 *   acc  = kernel accumulator - zp[g] * wsum[n]                 (int32, exact)
 *   out  = ((float)acc * scale[g]) * fscale[n] + bias[n]        (XNNPACK qd8 GEMM, builtin
 *                                                                depthwise order)
 *   out  = (float)acc * (scale[g] * fscale[n]) + bias[n]        (combined: TFLite builtin
 *                                                                conv / FC)
 * then clamped to [lo, hi]. */
struct tfcc_q8_hybrid;
/* One row of the hybrid output stage, columns n0 .. n0+nc-1 (kernels/hybrid/hyb_out.h). */
typedef void (*tfcc_q8_hybrid_row_fn)(const struct tfcc_q8_hybrid *h, const int32_t *acc, size_t n0,
                                      size_t nc, uint32_t zp, float s, float *out);
/* A whole c32 tile: rows r < mr at c32 + r * NR, output rows m0 + r, columns n0 .. n0+nc-1. */
typedef void (*tfcc_q8_hybrid_tile_fn)(const struct tfcc_q8_hybrid *h, const int32_t *c32,
                                       size_t NR, size_t m0, size_t mr, size_t n0, size_t nc);
typedef struct tfcc_q8_hybrid {
  float *c;
  size_t c_stride; /* floats between output rows */
  const int32_t *zp;
  const float *scale;
  size_t rows_per_group;
  const int32_t *wsum;  /* [n] sum of each column's int8 weights */
  const float *fscale;  /* filter scale of column n at n * fscale_stride */
  size_t fscale_stride; /* 1 per-channel, 0 per-tensor */
  const float *bias;    /* [n] or NULL */
  float lo, hi;
  bool combined;
  tfcc_q8_hybrid_row_fn row;   /* vectorised row function, or NULL (the driver's portable one) */
  tfcc_q8_hybrid_tile_fn tile; /* vectorised tile function (NULL: row by row) */
  /* Float stores (TFCC_Q8_STREAM_*): AUTO (0) streams them past the caches (non-temporal
     stores of whole aligned 64-byte vectors, the rest as before; a store fence at the end of
     each task) when the output is at least the last-level cache (TFCC_Q8_STREAM_MIN_BYTES
     where its size is unknown) and the kernel runs the output stage itself: written through
     the cache, every line of such an output is first read for ownership, and it is read back
     from memory anyway. ON and OFF force the choice for such kernels (tests, benchmarks); the
     others always store through the cache. The same values either way. */
  int stream;
  /* [n] the same sums as floats, or NULL. Set only where every kernel accumulator and wsum
     are integers of magnitude <= 2^24 (TFCC_Q8_HYB_FMA_MAX_K): the register stage of the
     AVX-512 kernels then takes (float)(acc - zp * wsum) as fma(-zp, wsumf, (float)acc), the
     exact value rounded once, i.e. the same float (no vpmulld, no integer subtract). */
  const float *wsumf;
} tfcc_q8_hybrid;
/* Deepest K for wsumf with u8 activations (q + 128, 0..255) against s8 weights and no row
 * term (x86): |acc| <= K * 255 * 128 <= 2^24. */
#define TFCC_Q8_HYB_FMA_MAX_K 514
enum { TFCC_Q8_STREAM_OFF = -1, TFCC_Q8_STREAM_AUTO = 0, TFCC_Q8_STREAM_ON = 1 };
#define TFCC_Q8_STREAM_MIN_BYTES (32u * 1024u * 1024u)

/* out = hybrid(A x B) for m rows of A (row i at a + i * a_stride; int8 or uint8 as p packs). */
void tfcc_q8_gemm_hybrid(struct tfcc_threadpool *pool, const tfcc_q8_packed *p,
                         const tfcc_q8_hybrid *h, int32_t m, const void *a, size_t a_stride,
                         void *scratch);
/* Convolution of 8-bit input in (one quantization group per image: padding taps are the
 * group's zero point; g->batches images, group b = zp[b], scale[b]); h->rows_per_group is
 * set from g. */
void tfcc_q8_conv_hybrid(struct tfcc_threadpool *pool, const tfcc_conv_geom *g,
                         const tfcc_q8_packed *p, const tfcc_q8_hybrid *h, const void *in,
                         void *scratch);
/* Scratch bytes of the two calls above with `threads` threads (g NULL: plain GEMM). */
size_t tfcc_q8_hybrid_scratch_bytes(const tfcc_conv_geom *g, const tfcc_q8_packed *p, int threads);
/* Whether the two calls above stream an output of `bytes` (per image for the convolution)
 * with h->stream as given (tfcc_q8_hybrid.stream; tests). */
bool tfcc_q8_hybrid_streams(const tfcc_q8_packed *p, const tfcc_q8_hybrid *h, size_t bytes);

#endif
