/* Fast 8-bit depthwise convolution (depth multiplier 1), bit-exact with the reference
 * kernels. Every tap of the window is read, the taps outside the image from a row of input
 * zero points, so that with the weights w' = w + fo the sum is
 *   acc[c] = bias[c] + io * sum_t w'_t[c] + sum_t x_t[c] * w'_t[c]       (int32, wrapping)
 * and the taps outside the image add (zp + io) * w' = 0 exactly as the reference skips them.
 * The first two terms are folded into the packed bias. Requantization: XNNPACK fp32
 * (vectorised) or the reference's fixed point on the int32 sums.
 *
 * Packed (int32 units, C16 = channels rounded up to 16): [C16 bias'][C16 float scale]
 * [taps x C16 weights w' in the low 16 bits, high 16 bits zero; or, tfcc_q8_dw_w16, the taps in
 * int16 pairs], then C16 zero-point bytes.
 *
 * Row kernels (AVX512-VNNI, `rows` set) compute a whole output row per call, 64 channels at
 * a time. For each input column of the row's window they interleave the bytes of filter rows
 * 4q..4q+3 (column "quads", one int32 lane per channel: rows in its 4 bytes), so one
 * vpdpbusd multiplies 4 filter rows of one filter column for 16 channels; the quads are built
 * once per input column and reused by every output pixel that reads the column. vpdpbusd
 * takes unsigned activations: int8 ones are flipped (x ^ 0x80 = x + 128, -128 * sum w'
 * folded in the bias). Weights must be signed bytes: uint8 filters store s = w' - kz with a
 * per-tensor kz that brings every s into [-128, 127]; kz * (sum of the window's inputs) is
 * added by a second vpdpbusd against a kz quad. Packed per 64-channel block:
 * [64 bias'][64 float scale][64 fixed-point multiplier][64 shift]
 * [filter_h/4 quads x filter_w x 64 weight quads], each vector in
 * the lane order the interleave produces (acc j, 128-bit lane L, element i <-> channel
 * 16 L + 4 j + i); the saturating packs of the epilogue restore channel order. Channel
 * counts dividing 64 (8, 16, 32...) at stride_w 1 run 64 / c pixels per vector from one extra
 * block packed with lane byte b as channel b % c (no idle lanes). Both
 * requantizations are vectorised (fixed point: tfcc_mbqm lane by lane, 64-bit products). */
#ifndef TFCC_KERNELS_Q8_DWCONV_DWCONV_H
#define TFCC_KERNELS_Q8_DWCONV_DWCONV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "kernels/q8-gemm/gemm.h"
#include "kernels/ref/conv.h"
#include "kernels/dispatch_table.h"

#define TFCC_Q8_DW_MAX_TAPS 128

/* One output pixel: channels c, taps pointers (each c bytes). */
typedef void (*tfcc_q8_dw_fn)(size_t c, size_t ntaps, const uint8_t *const *taps, const int32_t *pw,
                              const tfcc_q8_out *o);

/* A run of n interior output pixels of one row (every tap inside the image), float
 * requantization: pixel i's taps are taps[t] + i * step, its output o->c + i * c. */
typedef void (*tfcc_q8_dw_run_fn)(size_t c, size_t ntaps, const uint8_t *const *taps,
                                  const int32_t *pw, const tfcc_q8_out *o, size_t n, size_t step);

/* A run of n output pixels of one row on a column-quad kernel (float requantization; the
 * WebAssembly relaxed-dot one): filter fh x fw, its taps in row-major order (pixel i's tap t at
 * taps[t] + i * step; step 0 for a single pixel), output o->c + i * c. Packed (int32 units):
 * [C16 bias'][C16 float scale][ceil(fh / 4) x fw groups of C16 weight quads: channel ch's
 * int32 holds the signed bytes w' of filter rows 4q..4q+3 (zero past fh) at column fx, group
 * q * fw + fx][taps - that x C16 unused][C16 zero-point bytes]. For int8 activations the kernel
 * reads x ^ 0x80 = x + 128 as unsigned bytes, so bias' also takes -128 * sum w'. */
typedef void (*tfcc_q8_dw_cols_fn)(size_t c, int32_t fh, int32_t fw, const uint8_t *const *taps,
                                   const int32_t *pw, const tfcc_q8_out *o, size_t n, size_t step);

struct tfcc_q8_dw_packed;

/* Hybrid output (float32 DEPTHWISE_CONV_2D with int8 weights, ops/hybrid.c): int8 input q of
 * one image with zero point zp (the bytes outside the image read as zp), weights packed with
 * no offsets and no bias, so the row kernel's sums are sum over all taps of q * w and
 * acc = that - zp * sum(w) is sum over the taps inside of (q - zp) * w (int32, exact). Written
 * as clamp(((float)acc * scale) * fscale[c * fscale_stride] + bias[c], lo, hi) (bias may be
 * NULL), the operations and order of kernels/hybrid/dwconv.h. */
typedef struct tfcc_q8_dw_hyb {
  float scale;
  const float *fscale;
  size_t fscale_stride;
  const float *bias;
  float lo, hi;
  int32_t zp;
} tfcc_q8_dw_hyb;

/* One output row for a row kernel (see above). */
typedef struct tfcc_q8_dw_row {
  const tfcc_conv_geom *g;
  const struct tfcc_q8_dw_packed *p;
  const tfcc_conv_requant *r; /* fixed-point requantization when !p->fp32 */
  const uint8_t *const *rows; /* filter_h input rows, NULL outside the image */
  uint8_t *out;               /* out_w x c bytes */
  void *cols;                 /* per-thread column buffer (tfcc_q8_dw_scratch_bytes) */
  float lo, hi;               /* act_min - zp, act_max - zp */
  int32_t zp;
  uint8_t zp_byte;           /* the input byte of taps outside the image */
  const tfcc_q8_dw_hyb *hyb; /* hybrid output (then fout, out_w x c floats), else NULL */
  float *fout;
} tfcc_q8_dw_row;
typedef void (*tfcc_q8_dw_row_fn)(const tfcc_q8_dw_row *a);

/* The fixed-point requantization of one pixel's c int32 sums acc (bias included) into out:
 * tfcc_requant32(acc[ch], 0, r, ch) for each channel. */
typedef void (*tfcc_q8_dw_rq_fixed_fn)(const int32_t *acc, size_t c, const tfcc_conv_requant *r,
                                       uint8_t *out);

typedef struct tfcc_q8_dw_kernel {
  const char *name;
  tfcc_isa isa;
  int feature;                       /* tfcc_cpu_feature the kernel needs besides isa, or -1 */
  tfcc_q8_dw_fn fn_s, fn_u;          /* per-pixel kernels, int8 / uint8 activations (or NULL) */
  tfcc_q8_dw_row_fn row_s, row_u;    /* row kernels (or NULL) */
  tfcc_q8_dw_run_fn run_s, run_u;    /* runs of interior pixels, per-pixel layout (or NULL) */
  tfcc_q8_dw_cols_fn cols_s, cols_u; /* column-quad kernels (or NULL): filters whose w' are
                                        signed bytes, float requantization; else the next
                                        per-pixel kernel packs */
  tfcc_q8_dw_rq_fixed_fn rq_fixed;   /* the per-pixel kernels' fixed-point requantization
                                        (or NULL: tfcc_requant32 channel by channel) */
} tfcc_q8_dw_kernel;

TFCC_DISPATCH_TABLE_DECL(tfcc_q8_dw, tfcc_q8_dw_kernel);
bool tfcc_q8_dw_usable(const tfcc_q8_dw_kernel *k, tfcc_isa isa);
/* Tap weights packed as int16 pairs (taps 2p and 2p + 1 of channel ch at int16 2 ch and
 * 2 ch + 1 of c16-int32 row p, zero for a missing last partner; the operands of the
 * WebAssembly kernel's i32x4.dot_i16x8 and of the AVX2 kernel's vpmaddwd), not as one int32
 * per tap. */
bool tfcc_q8_dw_w16(const tfcc_q8_dw_kernel *k);
/* The best per-pixel kernel at or after k usable at isa (for filters a row kernel cannot
 * take). */
const tfcc_q8_dw_kernel *tfcc_q8_dw_pixel_fallback(const tfcc_q8_dw_kernel *k, tfcc_isa isa);

typedef struct tfcc_q8_dw_packed {
  const tfcc_q8_dw_kernel *k; /* the kernel packed for (a per-pixel one when a row kernel
                                 cannot take the filter) */
  int32_t c, taps, fh, fw;
  bool is_signed, fp32;
  bool rows;       /* row-kernel layout */
  bool cols;       /* column-quad layout (k->cols_s) */
  int32_t kz;      /* row kernels: weight offset kz (0: none) */
  bool scale_lt1;  /* every fp32 requantization scale below 1 in magnitude */
  bool rep;        /* row kernels, c dividing 64: an extra block packs 64 / c pixels per
                     vector (lane byte b is channel b % c), used at stride_w 1 */
  uint8_t zp_byte; /* input zero point as stored (before any flip) */
  int32_t *w;
  void *mem;          /* the block w lies in, from tfcc_wmem_alloc (NULL: adopted, not owned) */
  size_t block_bytes; /* bytes of the block (tfcc_q8_dw_block_bytes) */
} tfcc_q8_dw_packed;

/* The packing is one self-describing block: a 64-byte header (the layout: row kernels or per
 * pixel, the row kernels' weight offset kz, channels, filter size, signedness), then the packed
 * weights above, zeros to the end. Its size depends on the arguments only, never on the filter's
 * values (which pick the layout): a block of the larger layout where the values could pick
 * either, so that a weights cache can be asked for it by size before the filter is read.
 * 0: arguments no packing takes. */
size_t tfcc_q8_dw_block_bytes(const tfcc_q8_dw_kernel *k, bool is_signed, int32_t c, int32_t fh,
                              int32_t fw, const tfcc_conv_requant *r);
/* filter [1, fh, fw, c] (int8 when is_signed, else uint8), bias (NULL: zero). c is the
 * number of output channels (input channels x depth multiplier). The block is cut from the
 * packed-weights memory (base/weights_mem.h: huge pages). */
bool tfcc_q8_dw_pack(const tfcc_q8_dw_kernel *k, bool is_signed, int32_t c, int32_t fh, int32_t fw,
                     const void *filter, const int32_t *bias, const tfcc_conv_requant *r,
                     tfcc_q8_dw_packed *out);
/* out describes a block that tfcc_q8_dw_pack made with the same arguments (k, signedness,
 * shape, requantization) and that lives as long as out (a weights cache's copy, read only; 64-byte
 * aligned): nothing is packed and the filter is not read. false when the block's size or header
 * does not fit the arguments (out is then empty). */
bool tfcc_q8_dw_adopt(const tfcc_q8_dw_kernel *k, bool is_signed, int32_t c, int32_t fh, int32_t fw,
                      const tfcc_conv_requant *r, const void *block, size_t bytes,
                      tfcc_q8_dw_packed *out);
/* The block of p (p->block_bytes bytes; NULL: none), for a copy kept elsewhere. */
const void *tfcc_q8_dw_block(const tfcc_q8_dw_packed *p);
/* Frees the block if p owns it (an adopted one is the caller's). */
void tfcc_q8_dw_packed_free(tfcc_q8_dw_packed *p);

/* Whether the q8 depthwise kernels take geometry g (else the reference kernel runs it): at most
 * TFCC_Q8_DW_MAX_TAPS taps, and the windows of an output row span at most 16 x the row's taps
 * (out_w x filter_w) + 256 input columns. The row kernels build the column quads of every input
 * column a row's windows span, and size their per-thread buffer by that span; a span that
 * dwarfs the taps (a fuzzed file: dilation 258 at filter width 3 and stride 1536, 517 columns
 * for 3 taps, 35 s under ASan) costs that many columns per row, far past the work estimate, and
 * a dilation of 2^20 would ask a buffer of 512 MiB per thread. The reference walks the taps
 * only. No real network comes near: a 3x3 window at dilation d and stride s spans
 * (out_w - 1) s + 2 d + 1 columns for 3 out_w taps. Every caller of the row kernels asks it:
 * DEPTHWISE_CONV_2D 8-bit (ops/depthwise_conv_2d.c), the hybrid depthwise's row path
 * (ops/hybrid.c), EXPAND_DEPTHWISE_CONV_2D int8 (whose fusion admits dilation 1 and strides
 * 1 and 2 only, always inside the bound). */
bool tfcc_q8_dw_fits(const tfcc_conv_geom *g);
/* Whether tfcc_q8_dw_fits holds at every output width for this filter, stride and dilation
 * (an op that decides at init what a later resize may run): the span bound's margin shrinks
 * with out_w only when the stride passes 16 filter columns, so out_w = 1 decides the rest. */
bool tfcc_q8_dw_fits_any_width(int32_t filter_h, int32_t filter_w, int32_t stride_w, int32_t dil_w);

struct tfcc_threadpool;
/* Scratch for this geometry: per-thread buffers, and the input expanded to out_c channels
 * when the depth multiplier is not 1. */
size_t tfcc_q8_dw_scratch_bytes(const tfcc_q8_dw_packed *p, const tfcc_conv_geom *g, int threads);
/* g->out_c == p->c (a multiple of g->in_c), filter_h * filter_w == p->taps. */
void tfcc_q8_dwconv(struct tfcc_threadpool *pool, const tfcc_conv_geom *g,
                    const tfcc_q8_dw_packed *p, const tfcc_conv_requant *r, const void *in,
                    void *out, void *scratch);
/* Hybrid (tfcc_q8_dw_hyb): one image (g->batches 1, depth multiplier 1) of int8 input in,
 * float32 output out; p packed by a row kernel (p->rows) from the int8 filter with a zero
 * tfcc_conv_requant (no offsets, no scales) and no bias. */
void tfcc_q8_dwconv_hybrid(struct tfcc_threadpool *pool, const tfcc_conv_geom *g,
                           const tfcc_q8_dw_packed *p, const tfcc_q8_dw_hyb *h, const int8_t *in,
                           float *out, void *scratch);

#endif
