/* TensorFlow Lite's float32 arithmetic, bit for bit, where tfcc must reproduce it rather than
 * compute the same function its own way: XNNPACK's kernels as TensorFlow Lite's default build
 * runs them (WebAssembly SIMD without relaxed instructions, i.e. no fused multiply-add: CONV_2D,
 * DEPTHWISE_CONV_2D, FULLY_CONNECTED, BATCH_MATMUL, SOFTMAX, LOGISTIC, TANH, GELU, HARD_SWISH,
 * MEAN; AVERAGE_POOL_2D in xnn_avgpool.h) and the builtin kernels' float helpers (Eigen's tanh and logistic, the C library's expf:
 * the float LSTM cells, kernels/f32-lstm). A hybrid network quantizes float activations at run
 * time, so a 1-ulp difference in a float operator before a hybrid node moves values across
 * rounding boundaries and grows into whole quantization steps downstream; ops/hybrid.c's TFLITE
 * mode therefore runs the float operators of hybrid models that are not exact anyway through
 * these (docs/quantization.md "Hybrid"), and TANH in float models too. Portable loops here (the
 * references), vector kernels per ISA from two bodies (tflite_f32_body.h: GCC / Clang vectors;
 * tflite_f32v_body.h: the f32v primitives); every product and sum is its own operation (no
 * contraction). Functions named tfcc_xnn_* compute XNNPACK's order. */
#ifndef TFCC_KERNELS_TFLITE_F32_TFLITE_F32_H
#define TFCC_KERNELS_TFLITE_F32_TFLITE_F32_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "kernels/ref/activation.h"
#include "kernels/ref/batch_matmul.h"
#include "kernels/ref/conv.h"
#include "kernels/ref/expf.h"

#include "tfcc/tfcc.h"
#include "kernels/dispatch_table.h"

/* An elementwise kernel: y[i] = f(x[i]) for i < n (x == y allowed). */
typedef void (*tfcc_f32_unary_fn)(const float *x, float *y, size_t n);

/* CONV_2D (groups 1): XNNPACK's f32 IGEMM order: acc = bias, then for each filter tap (ky, kx;
 * padding taps add 0 * w) and each input channel c, acc = acc + x * w (rounded product, rounded
 * sum); clamp to [lo, hi]. Weights packed once: [K][ocp] (k = (ky * fw + kx) * in_c + c,
 * ocp = out_c rounded up to 16, zero past out_c). */
float *tfcc_xnn_conv_pack(const float *w_ohwi, int32_t out_c, int32_t kdim, int32_t *ocp);
/* The same packing into caller memory (a weights-cache block): its ocp and size in bytes (0:
 * out_c or kdim <= 0), the fill of all of it from [out_c][kdim], and from a filter laid out
 * [kdim][out_c] (a depthwise filter [1][fh][fw][out_c] of one input channel, whose taps are
 * the convolution's k). */
int32_t tfcc_xnn_conv_ocp(int32_t out_c);
size_t tfcc_xnn_conv_packed_bytes(int32_t out_c, int32_t kdim);
void tfcc_xnn_conv_pack_into(const float *w_ohwi, int32_t out_c, int32_t kdim, float *wp);
void tfcc_xnn_conv_pack_ko_into(const float *w_ko, int32_t out_c, int32_t kdim, float *wp);
/* Output rows [r0, r1) of the batch-flattened output (row = b * out_h + oy). */
typedef void (*tfcc_xnn_conv_rows_fn)(const tfcc_conv_geom *g, const float *in, const float *wp,
                                      int32_t ocp, const float *bias, float lo, float hi,
                                      float *out, int32_t r0, int32_t r1);

/* CONV_2D (groups 1) of fewer output channels than the IGEMM's 8 columns: XNNPACK's "nr2"
 * kernel (4x2c4), which keeps four partial sums per output, one per input channel modulo 4:
 * lane 0 starts at the bias, lanes 1-3 at 0; for each filter tap (ky, kx; padding taps add
 * 0 * w) and each input channel c, lane c % 4 = lane + x * w (rounded product, rounded sum);
 * the output is (lane 0 + lane 2) + (lane 1 + lane 3), clamped to [lo, hi]. Output rows [r0, r1)
 * of the batch-flattened output; weights packed by tfcc_xnn_conv_pack (ocp >= 8 columns, zero
 * past out_c < 8). */
#define TFCC_XNN_NR2_COLS 8
/* The input pixel of filter tap (ky, kx) for output pixel (b, oy, ox): its in_c channels, or
 * NULL for a padding tap. */
static inline const float *tfcc_xnn_tap(const tfcc_conv_geom *g, const float *in, int32_t b,
                                        int32_t oy, int32_t ox, int32_t ky, int32_t kx) {
  const int32_t iy = oy * g->stride_h - g->pad_h + ky * g->dil_h;
  const int32_t ix = ox * g->stride_w - g->pad_w + kx * g->dil_w;
  if (iy < 0 || iy >= g->in_h || ix < 0 || ix >= g->in_w) return NULL;
  return in + (((size_t)b * (size_t)g->in_h + (size_t)iy) * (size_t)g->in_w + (size_t)ix) *
                  (size_t)g->in_c;
}
void tfcc_xnn_conv_c4_f32_rows(const tfcc_conv_geom *g, const float *in, const float *wp,
                               int32_t ocp, const float *bias, float lo, float hi, float *out,
                               int32_t r0, int32_t r1);

/* DEPTHWISE_CONV_2D (ops): depth multiplier 1: XNNPACK's f32 dwconv order: acc = bias (0
 * without one), then the filter taps column by column (kx outer, ky inner; padding taps add
 * 0 * w), acc = acc + x * w (rounded product, rounded sum); clamp as wasm pmax / pmin (lo, then
 * hi). Depth multiplier M > 1: XNNPACK runs in_c groups of 1 -> M by its IGEMM: the
 * taps row by row (ky outer, kx inner), then + 0 where xnn_use_nr2 picks its nr2 kernel for M
 * columns (conformance hybrid_net_dw_c*m*_conv). Output rows [r0, r1) of the batch-flattened
 * output; filter [1, fh, fw, out_c], out channel o reads input channel o / M. One portable loop
 * over channels (the compiler vectorises it). */
void tfcc_xnn_dwconv_f32_rows(const tfcc_conv_geom *g, const float *in, const float *filter,
                              const float *bias, float lo, float hi, float *out, int32_t r0,
                              int32_t r1);
/* The same with depth multiplier 1 (out_c == in_c), vectorised over channels (the same bits). */
typedef void (*tfcc_xnn_dwconv_rows_fn)(const tfcc_conv_geom *g, const float *in,
                                        const float *filter, const float *bias, float lo, float hi,
                                        float *out, int32_t r0, int32_t r1);

/* SOFTMAX (beta 1) over rows of depth values: XNNPACK's f32 softmax on WebAssembly SIMD: the row
 * maximum, exp(x - max) by f32-raddstoreexpminusmax rr2-p5 (degree-5 polynomial; the same exp
 * as the sigmoid's), summed in one 4-lane accumulator, the lanes added (0 + 2) + (1 + 3), then
 * the last depth % 4 exps, then every exp times 1 / sum. The last ones are added as the order
 * says:
 * - TFCC_XNN_SOFTMAX_PAIR (LiteRT's XNNPACK): a remaining pair summed first, that sum added,
 *   then a remaining single;
 * - TFCC_XNN_SOFTMAX_SEQ (the classic interpreter's older XNNPACK, f32-raddstoreexpminusmax
 *   wasmsimd p5: exact6): each added to the sum in turn. */
typedef enum tfcc_xnn_softmax_order {
  TFCC_XNN_SOFTMAX_PAIR = 0,
  TFCC_XNN_SOFTMAX_SEQ,
} tfcc_xnn_softmax_order;
typedef void (*tfcc_xnn_softmax_fn)(const float *x, float *y, size_t outer, size_t depth,
                                    tfcc_xnn_softmax_order order);
/* HARD_SWISH: XNNPACK's f32-vhswish as LiteRT's WebAssembly build runs it: a = x * (1/6)
 * (rounded), a = a + 0.5 (rounded), clamped to [0, 1], times x; TFLite's builtin kernel
 * computes x * relu6(x + 3) / 6, which differs by an ulp on about 30% of inputs. One portable
 * loop (the compiler vectorises it; separate statements, no contraction). */
void tfcc_xnn_hswish_f32(const float *x, float *y, size_t n);
/* The older XNNPACK of the classic interpreter's delegate: a = x + 3 clamped to
 * [0, 6], times x * (1/6) (each rounded), the wasm SIMD kernel's integer max / min on the
 * float bits (x + 3 negative or a negative NaN: 0; a positive NaN: 6). */
void tfcc_xnn_hswish_f32_old(const float *x, float *y, size_t n);

/* The classic interpreter's older XNNPACK's global average pooling (f32-gavgpool 7x / 7p7x), as
 * it runs a MEAN over the axes {1, 2} of a 4-D NHWC input and an AVERAGE_POOL_2D whose
 * window is the whole input: x [outer][rows][inner], per (outer, inner) the rows in passes of
 * 7: the first ((t0 + t1) + t6) + ((t2 + t3) + (t4 + t5)), each further one (while more than 7
 * remain, then the last 1-7 with zeros) ((t0 + t1) + (t2 + t3)) + ((t4 + t5) + (t6 + acc));
 * times 1.0f / rows, then its output clamp: max with lo, min with hi (-INFINITY / INFINITY for
 * none). */
void tfcc_xnn_gavgpool_f32_old(const float *x, size_t outer, size_t rows, size_t inner, float lo,
                               float hi, float *y);

/* MEAN / SUM over the last axis, one row of n values: XNNPACK's f32-rsum (WebAssembly SIMD,
 * 16 elements a step into four 4-lane accumulators; up to three more 4-element groups into
 * accumulators 0, 1, 2; folded (acc0 + acc2) + (acc1 + acc3); the lanes (0 + 2), (1 + 3); a
 * remaining pair added to those two; their sum; a remaining single added last). The caller
 * multiplies by 1.0f / n for MEAN. */
float tfcc_xnn_rsum_f32(const float *x, size_t n);
/* Its end, shared with the vector sums of kernels/reduce (reduce_body.h): the folded lanes
 * a[0..3], then the lanes (0 + 2), (1 + 3), a remaining pair of x[i..n) added to those two,
 * their sum, a remaining single added last (n - i < 4). */
static inline float tfcc_xnn_rsum_end(const float a[4], const float *x, size_t i, size_t n) {
  float s0 = a[0] + a[2], s1 = a[1] + a[3];
  if ((n - i) & 2) {
    s0 = s0 + x[i];
    s1 = s1 + x[i + 1];
    i += 2;
  }
  float s = s0 + s1;
  if ((n - i) & 1) s = s + x[i];
  return s;
}

/* FULLY_CONNECTED with constant float32 weights w [units][accum]: XNNPACK's f32 GEMM as
 * xnn_create_fully_connected_nc_f32 picks it. tfcc_xnn_fc_uses_nr2 is its xnn_use_nr2(8, 2,
 * units): fewer than 8 units, or padding to a multiple of 2 wastes fewer columns than to a
 * multiple of 8 and the latter over 1% of units. Default kernel: acc = bias, then
 * acc + x[k] * w[k] for k in order; nr2 kernel (4x2c4): four partial sums by k % 4, the bias in
 * the first, (s0 + s2) + (s1 + s3). Products and sums rounded apart; then max(lo), min(hi). */
bool tfcc_xnn_fc_uses_nr2(int32_t units);
/* The portable loop (the reference the vector kernels are checked against), w unpacked. */
void tfcc_xnn_fc_f32(const float *x, int32_t batches, int32_t accum, const float *w,
                     const float *bias, int32_t units, float lo, float hi, float *out);
/* The same with the kernel named: nr2 true its nr2 order, false the default order at any
 * width (the classic interpreter's older XNNPACK has no nr2 GEMM kernel). */
void tfcc_xnn_fc_f32_order(const float *x, int32_t batches, int32_t accum, const float *w,
                           const float *bias, int32_t units, float lo, float hi, bool nr2,
                           float *out);
/* The vector kernels read w packed once by tfcc_xnn_fc_pack: panels of TFCC_XNN_FC_PANEL units,
 * each [accum][TFCC_XNN_FC_PANEL] (zero past the last unit); NULL when out of memory. */
#define TFCC_XNN_FC_PANEL 16
float *tfcc_xnn_fc_pack(const float *w, int32_t units, int32_t accum);
/* The same packing into caller memory (a weights-cache block): its size in bytes (0: units <= 0
 * or accum < 0), and the fill of all of it. */
size_t tfcc_xnn_fc_packed_bytes(int32_t units, int32_t accum);
void tfcc_xnn_fc_pack_into(const float *w, int32_t units, int32_t accum, float *wp);
/* Output units [u0, u1) of every batch row (u0 a multiple of TFCC_XNN_FC_PANEL; u1 a multiple of
 * it or units); units, the layer's width, picks the kernel (tfcc_xnn_fc_uses_nr2) and is the
 * output row's length. wt: the nr2 kernel's narrow last block in the variant's lane-pair layout,
 * packed once by fc_tail_pack where fc_tail_floats is not 0, or NULL: the kernel copies
 * it onto the stack per call where that pays (the same bits either way). */
typedef void (*tfcc_xnn_fc_fn)(const float *x, int32_t batches, int32_t accum, const float *wp,
                               const float *wt, const float *bias, int32_t units, float lo,
                               float hi, float *out, int32_t u0, int32_t u1);
/* The floats of that last-block layout for a layer of units x accum (0: the variant never takes
 * it at this shape: no layout to pack, pass NULL), and its fill from the panels wp. */
typedef size_t (*tfcc_xnn_fc_tail_floats_fn)(int32_t units, int32_t accum);
typedef void (*tfcc_xnn_fc_tail_pack_fn)(const float *wp, int32_t units, int32_t accum, float *wt);

/* The default kernel's order for one batch row (the recurrent and projection products of the
 * float LSTM plan, one step at a time) on weights packed by the variant's fc_row_pack: blocks of
 * as many units as the variant runs side by side (4 x its FC block), [accum][block] each, zero
 * past the last unit, so that a block's independent sums read one contiguous stretch per k
 * instead of one stream per 16-unit panel (the one-lane build: fc's panels, fc's one-row path;
 * docs/kernels.md). The same bits as
 * fc with batches 1 where tfcc_xnn_fc_uses_nr2(units) is false (callers with nr2 widths use
 * fc). */
typedef void (*tfcc_xnn_fc_row_fn)(const float *x, int32_t accum, const float *wp,
                                   const float *bias, int32_t units, float lo, float hi,
                                   float *out);
typedef float *(*tfcc_xnn_fc_row_pack_fn)(const float *w, int32_t units, int32_t accum);
/* w [units][accum] packed in blocks of `block` units (the variants' fc_row_pack); NULL when out
 * of memory or units <= 0. */
float *tfcc_xnn_fc_pack_blocks(const float *w, int32_t units, int32_t accum, int32_t block);
/* The same packing into caller memory (a weights-cache block): its size in bytes (0: units <= 0,
 * accum < 0 or block <= 0; one float more than the blocks, as tfcc_xnn_fc_packed_bytes, which
 * it equals for block TFCC_XNN_FC_PANEL), and the fill of all of it. */
size_t tfcc_xnn_fc_blocks_bytes(int32_t units, int32_t accum, int32_t block);
void tfcc_xnn_fc_pack_blocks_into(const float *w, int32_t units, int32_t accum, int32_t block,
                                  float *wp);
/* Units per block of the variant's fc_row_pack (its packing is tfcc_xnn_fc_pack_blocks with it). */
typedef int32_t (*tfcc_xnn_fc_row_block_fn)(void);

/* BATCH_MATMUL (float32, tfcc_bmm_f32_xnn's order: each output 0 + lhs * rhs for k in order,
 * products and sums rounded apart), vectorised over output columns: one matrix product, M rows of
 * a (row i's element p at a[i * as + p * ap]) times the K x N matrix r (row p at r + p * rs) into
 * y (rows ys apart). */
typedef void (*tfcc_xnn_bmm_fn)(const float *a, size_t as, size_t ap, const float *r, size_t rs,
                                int32_t M, int32_t K, int32_t N, float *y, size_t ys);
/* The driver's scratch: every rhs matrix transposed to [k][n] where d->adj_y, else none. */
size_t tfcc_xnn_bmm_scratch_bytes(const tfcc_bmm_dims *d);

/* GELU: XNNPACK's rational interpolant (tfcc_gelu_f32_xnn's steps), c from
 * tfcc_gelu_xnn_rational. */
typedef void (*tfcc_xnn_gelu_fn)(const float *x, float *y, size_t n, const tfcc_gelu_rational *c);

/* One variant per instruction set (the same bits from each: lanes only change the width). */
/* Eigen's GEBP product as the classic interpreter's builtin kernels run it (tfcc_eigen_bmm_f32's
 * order, kernels/tflite-f32/eigen_f32.h): y[i][j] (rows N apart) = the sum over p of a[i * as +
 * p] * r[p * N + j] (r: [K][N], columns contiguous), k in panels of kc, rows i < m4 (a multiple
 * of 4) with the even and odd k of a panel's part peeled by 8 summed apart; then + bias[j]
 * (bias NULL: none) and clamped to [lo, hi] (v < lo ? lo : v, then v > hi ? hi : v). */
typedef void (*tfcc_eigen_gemm_fn)(const float *a, size_t as, const float *r, int32_t M, int32_t K,
                                   int32_t N, int32_t kc, int32_t m4, const float *bias, float lo,
                                   float hi, float *y);

typedef struct tfcc_tflite_f32_kernel {
  const char *name;
  tfcc_isa isa;
  /* LOGISTIC: XNNPACK's f32-vsigmoid rr2-p5-div (range reduction with ln2 in two parts,
   * degree-5 polynomial, e / (e + 1), reflected for x >= 0, 0 below the denormal cutoff) */
  tfcc_f32_unary_fn sigmoid;
  tfcc_xnn_conv_rows_fn conv_rows;
  tfcc_xnn_dwconv_rows_fn dwconv_rows;
  /* tfcc_xnn_conv_c4_f32_rows with the 8 columns in the lanes of a vector (the same bits) */
  tfcc_xnn_conv_rows_fn conv_c4_rows;
  tfcc_xnn_softmax_fn softmax;
  tfcc_xnn_fc_fn fc;
  tfcc_xnn_fc_row_fn fc_row;
  tfcc_xnn_fc_row_pack_fn fc_row_pack;
  tfcc_xnn_bmm_fn bmm;
  tfcc_xnn_gelu_fn gelu;
  /* TANH: XNNPACK's f32-vtanh rational_9_8_div as LiteRT's WebAssembly build runs it (no FMA;
   * tfcc_tanh_f32_xnn's steps, kernels/ref/activation.h) */
  tfcc_f32_unary_fn tanh;
  /* TANH as TensorFlow Lite's builtin kernels compute it (Eigen's fast rational tanh,
   * tfcc_tanh_f32_eigen's steps: the same bits; the float LSTM cells, kernels/f32-lstm) */
  tfcc_f32_unary_fn tanh_eigen;
  /* e^x with the C library's expf bits (glibc's and musl's: ARM's optimized-routines
   * algorithm, in double lanes; tfcc_expf_ref's bits) */
  tfcc_f32_unary_fn expf;
  /* Eigen's logistic over that expf (tfcc_logistic_f32_eigen's bits: the float LSTM cells'
   * sigmoid) */
  tfcc_f32_unary_fn logistic_eigen;
  /* Eigen's unvectorized GEBP order (tfcc_eigen_bmm_f32's, eigen_f32.h) with the output
   * columns in the lanes (exact10; the same bits) */
  tfcc_eigen_gemm_fn eigen_gemm;
  /* fc's narrow last block packed once: size, fill */
  tfcc_xnn_fc_tail_floats_fn fc_tail_floats;
  tfcc_xnn_fc_tail_pack_fn fc_tail_pack;
  /* fc_row_pack's units per block: its packing's size and fill without a call to it */
  tfcc_xnn_fc_row_block_fn fc_row_block;
} tfcc_tflite_f32_kernel;

TFCC_DISPATCH_TABLE_DECL(tfcc_tflite_f32, tfcc_tflite_f32_kernel);

/* Threaded drivers (pool may be NULL: inline). Tasks split outputs only (FULLY_CONNECTED: batch
 * rows x panels of units; BATCH_MATMUL: output batches x rows x columns; GELU: elements; SOFTMAX:
 * rows), so every output's sum is formed in the kernel's order and the results are the same bits
 * at every thread count. Below a size where waking workers costs more than it saves, inline. */
struct tfcc_threadpool;
void tfcc_xnn_fc_run(struct tfcc_threadpool *pool, const tfcc_tflite_f32_kernel *k, const float *x,
                     int32_t batches, int32_t accum, const float *wp, const float *wt,
                     const float *bias, int32_t units, float lo, float hi, float *out);
/* scratch: tfcc_xnn_bmm_scratch_bytes(d) */
void tfcc_xnn_bmm_run(struct tfcc_threadpool *pool, const tfcc_tflite_f32_kernel *k,
                      const tfcc_bmm_dims *d, const float *lhs, const float *rhs, float *out,
                      float *scratch);
void tfcc_xnn_gelu_run(struct tfcc_threadpool *pool, const tfcc_tflite_f32_kernel *k,
                       const float *x, float *y, size_t n, const tfcc_gelu_rational *c);
void tfcc_xnn_softmax_run(struct tfcc_threadpool *pool, const tfcc_tflite_f32_kernel *k,
                          const float *x, float *y, size_t outer, size_t depth,
                          tfcc_xnn_softmax_order order);
void tfcc_xnn_tanh_run(struct tfcc_threadpool *pool, const tfcc_tflite_f32_kernel *k,
                       const float *x, float *y, size_t n);
void tfcc_xnn_sigmoid_run(struct tfcc_threadpool *pool, const tfcc_tflite_f32_kernel *k,
                          const float *x, float *y, size_t n);

#define TFCC_TFLITE_F32_DECL(isa) \
  void tfcc_xnn_sigmoid_f32_##isa(const float *x, float *y, size_t n); \
  void tfcc_xnn_conv_f32_rows_##isa(const tfcc_conv_geom *g, const float *in, const float *wp, \
                                    int32_t ocp, const float *bias, float lo, float hi, \
                                    float *out, int32_t r0, int32_t r1); \
  void tfcc_xnn_dwconv_f32_rows_##isa(const tfcc_conv_geom *g, const float *in, \
                                      const float *filter, const float *bias, float lo, float hi, \
                                      float *out, int32_t r0, int32_t r1); \
  void tfcc_xnn_conv_c4_f32_rows_##isa(const tfcc_conv_geom *g, const float *in, const float *wp, \
                                       int32_t ocp, const float *bias, float lo, float hi, \
                                       float *out, int32_t r0, int32_t r1); \
  void tfcc_xnn_softmax_f32_##isa(const float *x, float *y, size_t outer, size_t depth, \
                                  tfcc_xnn_softmax_order order); \
  void tfcc_xnn_fc_f32_##isa(const float *x, int32_t batches, int32_t accum, const float *wp, \
                             const float *wt, const float *bias, int32_t units, float lo, \
                             float hi, float *out, int32_t u0, int32_t u1); \
  size_t tfcc_xnn_fc_tail_floats_##isa(int32_t units, int32_t accum); \
  void tfcc_xnn_fc_tail_pack_##isa(const float *wp, int32_t units, int32_t accum, float *wt); \
  void tfcc_xnn_fc_row_f32_##isa(const float *x, int32_t accum, const float *wp, \
                                 const float *bias, int32_t units, float lo, float hi, \
                                 float *out); \
  float *tfcc_xnn_fc_row_pack_##isa(const float *w, int32_t units, int32_t accum); \
  int32_t tfcc_xnn_fc_row_block_##isa(void); \
  void tfcc_xnn_bmm_f32_##isa(const float *a, size_t as, size_t ap, const float *r, size_t rs, \
                              int32_t M, int32_t K, int32_t N, float *y, size_t ys); \
  void tfcc_xnn_gelu_f32_##isa(const float *x, float *y, size_t n, const tfcc_gelu_rational *c); \
  void tfcc_xnn_tanh_f32_##isa(const float *x, float *y, size_t n); \
  void tfcc_tanh_eigen_f32_##isa(const float *x, float *y, size_t n); \
  void tfcc_expf_f32_##isa(const float *x, float *y, size_t n); \
  void tfcc_logistic_eigen_f32_##isa(const float *x, float *y, size_t n); \
  void tfcc_eigen_gemm_f32_##isa(const float *a, size_t as, const float *r, int32_t M, int32_t K, \
                                 int32_t N, int32_t kc, int32_t m4, const float *bias, float lo, \
                                 float hi, float *y);
TFCC_TFLITE_F32_DECL(avx512)
TFCC_TFLITE_F32_DECL(avx2)
TFCC_TFLITE_F32_DECL(sse4)
TFCC_TFLITE_F32_DECL(neon)
TFCC_TFLITE_F32_DECL(wasmsimd)
TFCC_TFLITE_F32_DECL(scalar)

#endif
