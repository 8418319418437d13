/* TensorFlow Lite float arithmetic (tflite_f32.h): dispatch table, weight packing, threaded
 * drivers. */
#include <stdlib.h>
#include <string.h>

#include "kernels/dispatch_table.h"
#include "kernels/tflite-f32/tflite_f32.h"

#include "base/threadpool.h"
#include "kernels/gemm_split.h"

#define K(isa, lvl) \
  { \
    "tflite-f32-" #isa, lvl, tfcc_xnn_sigmoid_f32_##isa, tfcc_xnn_conv_f32_rows_##isa, \
        tfcc_xnn_dwconv_f32_rows_##isa, tfcc_xnn_conv_c4_f32_rows_##isa, \
        tfcc_xnn_softmax_f32_##isa, tfcc_xnn_fc_f32_##isa, tfcc_xnn_fc_row_f32_##isa, \
        tfcc_xnn_fc_row_pack_##isa, tfcc_xnn_bmm_f32_##isa, tfcc_xnn_gelu_f32_##isa, \
        tfcc_xnn_tanh_f32_##isa, tfcc_tanh_eigen_f32_##isa, tfcc_expf_f32_##isa, \
        tfcc_logistic_eigen_f32_##isa, tfcc_eigen_gemm_f32_##isa, tfcc_xnn_fc_tail_floats_##isa, \
        tfcc_xnn_fc_tail_pack_##isa, tfcc_xnn_fc_row_block_##isa \
  }
#define R(name, fn, isa, lvl) K(isa, lvl)
static const tfcc_tflite_f32_kernel kernels[] = {TFCC_KERNEL_ROWS_SSE4(R, , )};
#undef R
#undef K

TFCC_DISPATCH_TABLE_FNS(tfcc_tflite_f32, tfcc_tflite_f32_kernel)

int32_t tfcc_xnn_conv_ocp(int32_t out_c) { return (out_c + 15) & ~15; /* any kernel width */ }

size_t tfcc_xnn_conv_packed_bytes(int32_t out_c, int32_t kdim) {
  if (out_c <= 0 || kdim <= 0) return 0;
  return (size_t)kdim * (size_t)tfcc_xnn_conv_ocp(out_c) * sizeof(float);
}

void tfcc_xnn_conv_pack_into(const float *w_ohwi, int32_t out_c, int32_t kdim, float *wp) {
  const size_t o4 = (size_t)tfcc_xnn_conv_ocp(out_c);
  memset(wp, 0, tfcc_xnn_conv_packed_bytes(out_c, kdim));
  for (int32_t oc = 0; oc < out_c; oc++)
    for (int32_t k = 0; k < kdim; k++)
      wp[(size_t)k * o4 + (size_t)oc] = w_ohwi[(size_t)oc * (size_t)kdim + (size_t)k];
}

void tfcc_xnn_conv_pack_ko_into(const float *w_ko, int32_t out_c, int32_t kdim, float *wp) {
  const size_t o4 = (size_t)tfcc_xnn_conv_ocp(out_c);
  memset(wp, 0, tfcc_xnn_conv_packed_bytes(out_c, kdim));
  for (int32_t k = 0; k < kdim; k++)
    memcpy(wp + (size_t)k * o4, w_ko + (size_t)k * (size_t)out_c, sizeof(float) * (size_t)out_c);
}

float *tfcc_xnn_conv_pack(const float *w_ohwi, int32_t out_c, int32_t kdim, int32_t *ocp) {
  const size_t bytes = tfcc_xnn_conv_packed_bytes(out_c, kdim);
  float *wp = bytes ? malloc(bytes) : NULL;
  if (!wp) return NULL;
  tfcc_xnn_conv_pack_into(w_ohwi, out_c, kdim, wp);
  *ocp = tfcc_xnn_conv_ocp(out_c);
  return wp;
}

size_t tfcc_xnn_fc_packed_bytes(int32_t units, int32_t accum) {
  if (units <= 0 || accum < 0) return 0;
  const size_t P = TFCC_XNN_FC_PANEL, up = ((size_t)units + P - 1) / P * P;
  return (up * (size_t)accum + 1) * sizeof(float); /* + 1: accum 0 still gives a block */
}

/* w [units][accum] into blocks of P units, [accum][P] each (wp zeroed by the caller) */
static void pack_blocks(const float *w, int32_t units, int32_t accum, size_t P, float *wp) {
  const size_t K = (size_t)accum;
  for (size_t u = 0; u < (size_t)units; u++)
    for (size_t k = 0; k < K; k++) wp[(u / P) * P * K + k * P + u % P] = w[u * K + k];
}

void tfcc_xnn_fc_pack_into(const float *w, int32_t units, int32_t accum, float *wp) {
  memset(wp, 0, tfcc_xnn_fc_packed_bytes(units, accum));
  pack_blocks(w, units, accum, TFCC_XNN_FC_PANEL, wp);
}

size_t tfcc_xnn_fc_blocks_bytes(int32_t units, int32_t accum, int32_t block) {
  if (units <= 0 || accum < 0 || block <= 0) return 0;
  const size_t B = (size_t)block, up = ((size_t)units + B - 1) / B * B;
  return (up * (size_t)accum + 1) * sizeof(float);
}

void tfcc_xnn_fc_pack_blocks_into(const float *w, int32_t units, int32_t accum, int32_t block,
                                  float *wp) {
  const size_t bytes = tfcc_xnn_fc_blocks_bytes(units, accum, block);
  if (!bytes) return;
  memset(wp, 0, bytes);
  pack_blocks(w, units, accum, (size_t)block, wp);
}

float *tfcc_xnn_fc_pack_blocks(const float *w, int32_t units, int32_t accum, int32_t block) {
  if (units <= 0 || accum < 0 || block <= 0) return NULL;
  const size_t B = (size_t)block, up = ((size_t)units + B - 1) / B * B;
  float *wp = calloc(up * (size_t)accum + 1, sizeof(float)); /* + 1: accum 0 */
  if (wp) pack_blocks(w, units, accum, B, wp);
  return wp;
}

float *tfcc_xnn_fc_pack(const float *w, int32_t units, int32_t accum) {
  const size_t bytes = tfcc_xnn_fc_packed_bytes(units, accum);
  float *wp = bytes ? malloc(bytes) : NULL;
  if (wp) tfcc_xnn_fc_pack_into(w, units, accum, wp);
  return wp;
}

void tfcc_xnn_conv_c4_f32_rows(const tfcc_conv_geom *g, const float *in, const float *wp,
                               int32_t ocp, const float *bias, float lo, float hi, float *out,
                               int32_t r0, int32_t r1) {
  const size_t ic_n = (size_t)g->in_c;
  for (int32_t r = r0; r < r1; r++) {
    const int32_t b = r / g->out_h, oy = r % g->out_h;
    for (int32_t ox = 0; ox < g->out_w; ox++) {
      /* lane l of output channel o: lane[l][o]; the columns past out_c have zero weights */
      float lane[4][TFCC_XNN_NR2_COLS];
      for (int32_t o = 0; o < TFCC_XNN_NR2_COLS; o++) {
        lane[0][o] = bias && o < g->out_c ? bias[o] : 0.0f;
        lane[1][o] = lane[2][o] = lane[3][o] = 0.0f;
      }
      const float *w = wp;
      for (int32_t ky = 0; ky < g->filter_h; ky++)
        for (int32_t kx = 0; kx < g->filter_w; kx++) {
          const float *x = tfcc_xnn_tap(g, in, b, oy, ox, ky, kx);
          for (size_t c = 0; c < ic_n; c++, w += ocp) {
            const float xv = x ? x[c] : 0.0f;
            float *l = lane[c & 3];
            for (int32_t o = 0; o < TFCC_XNN_NR2_COLS; o++) {
              const float p = xv * w[o];
              l[o] = l[o] + p;
            }
          }
        }
      float *y = out + ((size_t)r * (size_t)g->out_w + (size_t)ox) * (size_t)g->out_c;
      for (int32_t o = 0; o < g->out_c; o++) {
        const float s02 = lane[0][o] + lane[2][o], s13 = lane[1][o] + lane[3][o];
        float v = s02 + s13;
        v = lo < v ? v : lo;
        v = v < hi ? v : hi;
        y[o] = v;
      }
    }
  }
}

/* Depth multiplier > 1: XNNPACK's grouped IGEMM (in_c groups of 1 -> mult): acc = bias, then
 * the taps row by row (ky outer, kx inner; a padding tap adds 0 * w); where xnn_use_nr2 picks
 * the nr2 kernel for mult columns, its lanes 1-3 hold +0 (the group's one input channel is lane
 * 0), so the output is acc + 0 (a -0 sum becomes +0); clamp as below. */
static void xnn_dwconv_mult_rows(const tfcc_conv_geom *g, const float *in, const float *filter,
                                 const float *bias, float lo, float hi, float *out, int32_t r0,
                                 int32_t r1, int32_t mult) {
  const int32_t oc_n = g->out_c;
  const bool nr2 = tfcc_xnn_fc_uses_nr2(mult);
  for (int32_t r = r0; r < r1; r++) {
    const int32_t b = r / g->out_h, oy = r % g->out_h;
    for (int32_t ox = 0; ox < g->out_w; ox++) {
      float *o = out + ((size_t)r * (size_t)g->out_w + (size_t)ox) * (size_t)oc_n;
      for (int32_t c = 0; c < oc_n; c++) o[c] = bias ? bias[c] : 0.0f;
      for (int32_t ky = 0; ky < g->filter_h; ky++)
        for (int32_t kx = 0; kx < g->filter_w; kx++) {
          const float *x = tfcc_xnn_tap(g, in, b, oy, ox, ky, kx);
          const float *w = filter + ((size_t)ky * (size_t)g->filter_w + (size_t)kx) * (size_t)oc_n;
          for (int32_t c = 0; c < oc_n; c++) {
            const float p = (x ? x[c / mult] : 0.0f) * w[c];
            o[c] = o[c] + p;
          }
        }
      for (int32_t c = 0; c < oc_n; c++) {
        float v = o[c];
        if (nr2) v = v + 0.0f;
        v = lo < v ? v : lo;
        v = v < hi ? v : hi;
        o[c] = v;
      }
    }
  }
}

void tfcc_xnn_dwconv_f32_rows(const tfcc_conv_geom *g, const float *in, const float *filter,
                              const float *bias, float lo, float hi, float *out, int32_t r0,
                              int32_t r1) {
  const int32_t oc_n = g->out_c, mult = g->in_c > 0 ? g->out_c / g->in_c : 1;
  if (mult > 1) {
    xnn_dwconv_mult_rows(g, in, filter, bias, lo, hi, out, r0, r1, mult);
    return;
  }
  for (int32_t r = r0; r < r1; r++) {
    const int32_t b = r / g->out_h, oy = r % g->out_h;
    for (int32_t ox = 0; ox < g->out_w; ox++) {
      float *o = out + ((size_t)r * (size_t)g->out_w + (size_t)ox) * (size_t)oc_n;
      for (int32_t c = 0; c < oc_n; c++) o[c] = bias ? bias[c] : 0.0f;
      for (int32_t kx = 0; kx < g->filter_w; kx++)
        for (int32_t ky = 0; ky < g->filter_h; ky++) {
          const int32_t iy = oy * g->stride_h - g->pad_h + ky * g->dil_h;
          const int32_t ix = ox * g->stride_w - g->pad_w + kx * g->dil_w;
          const float *w = filter + ((size_t)ky * (size_t)g->filter_w + (size_t)kx) * (size_t)oc_n;
          if (iy < 0 || iy >= g->in_h || ix < 0 || ix >= g->in_w) {
            for (int32_t c = 0; c < oc_n; c++) {
              const float p = 0.0f * w[c];
              o[c] = o[c] + p;
            }
            continue;
          }
          const float *x =
              in + (((size_t)b * (size_t)g->in_h + (size_t)iy) * (size_t)g->in_w + (size_t)ix) *
                       (size_t)g->in_c;
          for (int32_t c = 0; c < oc_n; c++) { /* depth multiplier 1 here */
            const float p = x[c] * w[c];
            o[c] = o[c] + p;
          }
        }
      for (int32_t c = 0; c < oc_n; c++) {
        float v = o[c];
        v = lo < v ? v : lo;
        v = v < hi ? v : hi;
        o[c] = v;
      }
    }
  }
}

void tfcc_xnn_hswish_f32(const float *x, float *y, size_t n) {
  const float sixth = 0x1.555556p-3f; /* 1.0f / 6.0f */
  for (size_t i = 0; i < n; i++) {
    const float v = x[i];
    float a = v * sixth;
    a = a + 0.5f;
    a = 0.0f < a ? a : 0.0f;
    a = a < 1.0f ? a : 1.0f;
    y[i] = a * v;
  }
}

void tfcc_xnn_hswish_f32_old(const float *x, float *y, size_t n) {
  const float sixth = 0x1.555556p-3f; /* 1.0f / 6.0f */
  for (size_t i = 0; i < n; i++) {
    const float v = x[i];
    float a = v + 3.0f;
    const float s = v * sixth;
    uint32_t bits;
    memcpy(&bits, &a, sizeof bits);
    /* i32x4 max with 0, min with 6.0f's bits: a negative sign bit is below both */
    if ((int32_t)bits < 0)
      a = 0.0f;
    else if (bits > 0x40c00000u)
      a = 6.0f;
    y[i] = a * s;
  }
}

void tfcc_xnn_gavgpool_f32_old(const float *x, size_t outer, size_t rows, size_t inner, float lo,
                               float hi, float *y) {
  const float scale = 1.0f / (float)rows;
  for (size_t b = 0; b < outer; b++) {
    const float *xb = x + b * rows * inner;
    for (size_t c = 0; c < inner; c++) {
      float t[7];
      for (size_t j = 0; j < 7; j++) t[j] = j < rows ? xb[j * inner + c] : 0.0f;
      const float s01 = t[0] + t[1], s23 = t[2] + t[3], s45 = t[4] + t[5];
      const float s016 = s01 + t[6], s2345 = s23 + s45;
      float acc = s016 + s2345;
      for (size_t r0 = 7; r0 < rows; r0 += 7) {
        for (size_t j = 0; j < 7; j++) t[j] = r0 + j < rows ? xb[(r0 + j) * inner + c] : 0.0f;
        const float p01 = t[0] + t[1], p23 = t[2] + t[3], p45 = t[4] + t[5];
        const float p6a = t[6] + acc;
        const float p0123 = p01 + p23, p456a = p45 + p6a;
        acc = p0123 + p456a;
      }
      float v = acc * scale;
      v = v < lo ? lo : v;
      y[b * inner + c] = v > hi ? hi : v;
    }
  }
}

float tfcc_xnn_rsum_f32(const float *x, size_t n) {
  float acc[4][4] = {{0.f}};
  size_t i = 0;
  for (; i + 16 <= n; i += 16)
    for (int v = 0; v < 4; v++)
      for (int l = 0; l < 4; l++) acc[v][l] = acc[v][l] + x[i + 4 * v + l];
  for (int v = 0; v < 3 && i + 4 <= n; v++, i += 4)
    for (int l = 0; l < 4; l++) acc[v][l] = acc[v][l] + x[i + l];
  float a[4];
  for (int l = 0; l < 4; l++) {
    const float lo = acc[0][l] + acc[2][l], hi = acc[1][l] + acc[3][l];
    a[l] = lo + hi;
  }
  return tfcc_xnn_rsum_end(a, x, i, n);
}

bool tfcc_xnn_fc_uses_nr2(int32_t units) {
  if (units < 8) return true;
  const int32_t over8 = (8 - units % 8) % 8, over2 = units % 2;
  return over2 < over8 && over8 * 100 > units;
}

void tfcc_xnn_fc_f32(const float *x, int32_t batches, int32_t accum, const float *w,
                     const float *bias, int32_t units, float lo, float hi, float *out) {
  tfcc_xnn_fc_f32_order(x, batches, accum, w, bias, units, lo, hi, tfcc_xnn_fc_uses_nr2(units),
                        out);
}

void tfcc_xnn_fc_f32_order(const float *x, int32_t batches, int32_t accum, const float *w,
                           const float *bias, int32_t units, float lo, float hi, bool nr2,
                           float *out) {
  for (int32_t b = 0; b < batches; b++) {
    const float *xb = x + (size_t)b * (size_t)accum;
    float *yb = out + (size_t)b * (size_t)units;
    for (int32_t n = 0; n < units; n++) {
      const float *wn = w + (size_t)n * (size_t)accum;
      float acc;
      if (nr2) {
        float l[4] = {bias ? bias[n] : 0.f, 0.f, 0.f, 0.f};
        for (int32_t k = 0; k < accum; k++) {
          const float prod = xb[k] * wn[k];
          l[k & 3] = l[k & 3] + prod;
        }
        const float s02 = l[0] + l[2], s13 = l[1] + l[3];
        acc = s02 + s13;
      } else {
        acc = bias ? bias[n] : 0.f;
        for (int32_t k = 0; k < accum; k++) {
          const float prod = xb[k] * wn[k];
          acc = acc + prod;
        }
      }
      acc = acc < lo ? lo : acc;
      yb[n] = acc > hi ? hi : acc;
    }
  }
}

/* ---------------------------------------------------------------- threaded drivers */

/* Below these many multiply-adds a product runs inline (as the f32 GEMM driver's limit). */
#define XNN_MIN_PARALLEL_MACS (128.0 * 1024.0)
#define XNN_FC_MR 4 /* the kernels' row tile (a split need not follow it: rows are independent) */

typedef struct xnn_fc_job {
  const tfcc_tflite_f32_kernel *k;
  tfcc_gemm_split s;
  size_t m_tiles, n_panels;
  const float *x, *wp, *wt, *bias;
  int32_t batches, accum, units;
  float lo, hi;
  float *out;
} xnn_fc_job;

static void xnn_fc_task(void *ctx, size_t t, int thread) {
  (void)thread;
  const xnn_fc_job *j = ctx;
  const tfcc_gemm_range r = tfcc_gemm_task_range(&j->s, j->m_tiles, j->n_panels, t);
  const size_t b0 = r.t0 * XNN_FC_MR, b1m = r.t1 * XNN_FC_MR;
  const size_t b1 = b1m < (size_t)j->batches ? b1m : (size_t)j->batches;
  const size_t K = (size_t)j->accum, U = (size_t)j->units;
  j->k->fc(j->x + b0 * K, (int32_t)(b1 - b0), j->accum, j->wp, j->wt, j->bias, j->units, j->lo,
           j->hi, j->out + b0 * U, (int32_t)(r.p0 * TFCC_XNN_FC_PANEL),
           (int32_t)(r.p1 * TFCC_XNN_FC_PANEL));
}

void tfcc_xnn_fc_run(struct tfcc_threadpool *pool, const tfcc_tflite_f32_kernel *k, const float *x,
                     int32_t batches, int32_t accum, const float *wp, const float *wt,
                     const float *bias, int32_t units, float lo, float hi, float *out) {
  if (batches <= 0 || units <= 0) return;
  const size_t K = accum > 0 ? (size_t)accum : 1;
  const size_t threads =
      tfcc_gemm_threads(&pool, (size_t)batches, (size_t)units, K, XNN_MIN_PARALLEL_MACS);
  if (threads <= 1) {
    k->fc(x, batches, accum, wp, wt, bias, units, lo, hi, out, 0, units);
    return;
  }
  xnn_fc_job j;
  j.k = k;
  j.m_tiles = ((size_t)batches + XNN_FC_MR - 1) / XNN_FC_MR;
  j.n_panels = ((size_t)units + TFCC_XNN_FC_PANEL - 1) / TFCC_XNN_FC_PANEL;
  /* whole rows of units per task where the rows are many (each task streams the weights once),
   * finer column blocks where they are few */
  j.s = tfcc_gemm_split_blocks(j.m_tiles, j.n_panels, j.n_panels, threads);
  j.x = x, j.wp = wp, j.wt = wt, j.bias = bias;
  j.batches = batches, j.accum = accum, j.units = units;
  j.lo = lo, j.hi = hi;
  j.out = out;
  tfcc_threadpool_run(pool, tfcc_gemm_split_tasks(&j.s), xnn_fc_task, &j);
}

/* Matrices in the rhs operand (the product of its batch dimensions). */
static size_t xnn_bmm_rhs_count(const tfcc_bmm_dims *d) {
  size_t nb = 1;
  for (int32_t i = 0; i < d->nbd; i++) nb *= (size_t)d->rhs_b[i];
  return nb;
}

size_t tfcc_xnn_bmm_scratch_bytes(const tfcc_bmm_dims *d) {
  return d->adj_y ? xnn_bmm_rhs_count(d) * (size_t)d->k * (size_t)d->n * sizeof(float) : 0;
}

typedef struct xnn_bmm_job {
  const tfcc_tflite_f32_kernel *k;
  const tfcc_bmm_dims *d;
  tfcc_gemm_split s; /* of one output matrix */
  size_t m_tiles, n_panels, per_batch;
  const float *lhs, *rhs; /* rhs: [k][n] matrices (the scratch where adj_y) */
  float *out;
  const float *trans_src; /* adj_y: the [n][k] matrices transposed into trans_dst */
  float *trans_dst;
} xnn_bmm_job;

/* rhs matrices [b0, b1) from [n][k] to [k][n] */
static void xnn_bmm_transpose(void *ctx, size_t b0, size_t b1) {
  const xnn_bmm_job *j = ctx;
  const size_t N = (size_t)j->d->n, K = (size_t)j->d->k;
  for (size_t b = b0; b < b1; b++) {
    const float *r = j->trans_src + b * N * K;
    float *t = j->trans_dst + b * N * K;
    for (size_t jj = 0; jj < N; jj++)
      for (size_t p = 0; p < K; p++) t[p * N + jj] = r[jj * K + p];
  }
}

static void xnn_bmm_task(void *ctx, size_t t, int thread) {
  (void)thread;
  const xnn_bmm_job *j = ctx;
  const tfcc_bmm_dims *d = j->d;
  const int64_t ob = (int64_t)(t / j->per_batch);
  const tfcc_gemm_range g = tfcc_gemm_task_range(&j->s, j->m_tiles, j->n_panels, t % j->per_batch);
  size_t loff, roff;
  tfcc_bmm_batch_offsets(d, ob, &loff, &roff);
  const size_t M = (size_t)d->m, N = (size_t)d->n, K = (size_t)d->k;
  const size_t lsm = d->adj_x ? 1 : K, lsk = d->adj_x ? M : 1;
  const size_t i0 = g.t0 * XNN_FC_MR, i1 = g.t1 * XNN_FC_MR < M ? g.t1 * XNN_FC_MR : M;
  const size_t j0 = g.p0 * TFCC_XNN_FC_PANEL;
  const size_t j1 = g.p1 * TFCC_XNN_FC_PANEL < N ? g.p1 * TFCC_XNN_FC_PANEL : N;
  j->k->bmm(j->lhs + loff + i0 * lsm, lsm, lsk, j->rhs + roff + j0, N, (int32_t)(i1 - i0),
            (int32_t)K, (int32_t)(j1 - j0), j->out + (size_t)ob * M * N + i0 * N + j0, N);
}

void tfcc_xnn_bmm_run(struct tfcc_threadpool *pool, const tfcc_tflite_f32_kernel *k,
                      const tfcc_bmm_dims *d, const float *lhs, const float *rhs, float *out,
                      float *scratch) {
  size_t nb = 1;
  for (int32_t i = 0; i < d->nbd; i++) nb *= (size_t)d->out_b[i];
  if (nb == 0 || d->m <= 0 || d->n <= 0) return;
  const size_t M = (size_t)d->m, N = (size_t)d->n, K = d->k > 0 ? (size_t)d->k : 1;
  const size_t threads = tfcc_gemm_threads(&pool, M * nb, N, K, XNN_MIN_PARALLEL_MACS);
  xnn_bmm_job j;
  j.k = k, j.d = d, j.lhs = lhs, j.rhs = rhs, j.out = out;
  if (d->adj_y) { /* every rhs matrix to [k][n] once (the sums do not depend on this layout) */
    const size_t nr = xnn_bmm_rhs_count(d);
    j.trans_src = rhs, j.trans_dst = scratch, j.rhs = scratch;
    if (threads > 1 && nr > 1)
      tfcc_threadpool_run_split(pool, nr, 4 * threads, xnn_bmm_transpose, &j);
    else
      xnn_bmm_transpose(&j, 0, nr);
  }
  j.m_tiles = (M + XNN_FC_MR - 1) / XNN_FC_MR;
  j.n_panels = (N + TFCC_XNN_FC_PANEL - 1) / TFCC_XNN_FC_PANEL;
  /* about 4 tasks per thread over all output matrices: whole matrices where they are enough,
   * else each cut into row chunks, then (few rows) column blocks */
  const size_t target = threads > 1 ? (4 * threads + nb - 1) / nb : 1;
  const size_t mc = target < j.m_tiles ? target : j.m_tiles;
  size_t nbk = (target + mc - 1) / mc;
  if (nbk > j.n_panels) nbk = j.n_panels;
  j.s = tfcc_gemm_split_counts(j.m_tiles, j.n_panels, mc, nbk);
  j.per_batch = tfcc_gemm_split_tasks(&j.s);
  if (threads <= 1) {
    for (size_t t = 0; t < nb * j.per_batch; t++) xnn_bmm_task(&j, t, 0);
    return;
  }
  tfcc_threadpool_run(pool, nb * j.per_batch, xnn_bmm_task, &j);
}

typedef struct xnn_ew_job {
  const tfcc_tflite_f32_kernel *k;
  const float *x;
  float *y;
  size_t depth;
  const tfcc_gelu_rational *c;
  tfcc_f32_unary_fn unary; /* xnn_unary_run's kernel */
  tfcc_xnn_softmax_order softmax_order;
} xnn_ew_job;

static void xnn_gelu_range(void *ctx, size_t i0, size_t i1) {
  const xnn_ew_job *j = ctx;
  j->k->gelu(j->x + i0, j->y + i0, i1 - i0, j->c);
}

void tfcc_xnn_gelu_run(struct tfcc_threadpool *pool, const tfcc_tflite_f32_kernel *k,
                       const float *x, float *y, size_t n, const tfcc_gelu_rational *c) {
  xnn_ew_job j = {k, x, y, 0, c, NULL, TFCC_XNN_SOFTMAX_PAIR};
  /* ~25 flops and a division per element (as LOGISTIC's pieces in f32-vunary) */
  tfcc_threadpool_run_elementwise(pool, n, 8 * 1024, 16, xnn_gelu_range, &j);
}

static void xnn_unary_range(void *ctx, size_t i0, size_t i1) {
  const xnn_ew_job *j = ctx;
  j->unary(j->x + i0, j->y + i0, i1 - i0);
}

/* One elementwise float kernel over n elements, threaded by elements (the same bits at any
 * thread count): ~20 flops and a division per element, as GELU's. */
static void xnn_unary_run(struct tfcc_threadpool *pool, tfcc_f32_unary_fn fn, const float *x,
                          float *y, size_t n) {
  xnn_ew_job j = {NULL, x, y, 0, NULL, fn, TFCC_XNN_SOFTMAX_PAIR};
  tfcc_threadpool_run_elementwise(pool, n, 8 * 1024, 16, xnn_unary_range, &j);
}

void tfcc_xnn_tanh_run(struct tfcc_threadpool *pool, const tfcc_tflite_f32_kernel *k,
                       const float *x, float *y, size_t n) {
  xnn_unary_run(pool, k->tanh, x, y, n);
}

void tfcc_xnn_sigmoid_run(struct tfcc_threadpool *pool, const tfcc_tflite_f32_kernel *k,
                          const float *x, float *y, size_t n) {
  xnn_unary_run(pool, k->sigmoid, x, y, n);
}

static void xnn_softmax_range(void *ctx, size_t r0, size_t r1) {
  const xnn_ew_job *j = ctx;
  j->k->softmax(j->x + r0 * j->depth, j->y + r0 * j->depth, r1 - r0, j->depth, j->softmax_order);
}

void tfcc_xnn_softmax_run(struct tfcc_threadpool *pool, const tfcc_tflite_f32_kernel *k,
                          const float *x, float *y, size_t outer, size_t depth,
                          tfcc_xnn_softmax_order order) {
  if (outer == 0 || depth == 0) return;
  const size_t n = outer * depth, min_task = 16 * 1024; /* as the f32 softmax driver's */
  const int threads = tfcc_threadpool_size(pool);
  xnn_ew_job j = {k, x, y, depth, NULL, NULL, order};
  if (threads <= 1 || outer < 2 || n < 2 * min_task) {
    k->softmax(x, y, outer, depth, order);
    return;
  }
  size_t tasks = n / min_task;
  if (tasks > 4 * (size_t)threads) tasks = 4 * (size_t)threads;
  tfcc_threadpool_run_split(pool, outer, tasks, xnn_softmax_range, &j);
}
