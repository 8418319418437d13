/* The classic interpreter's Eigen float kernels (eigen_f32.h). */
#include "kernels/tflite-f32/eigen_f32.h"

#include <math.h>
#include <string.h>

#include "kernels/ref/activation.h"
#include "kernels/ref/expf.h"

int32_t tfcc_eigen_gemm_kc(int32_t k, int32_t m, int32_t n) {
  /* evaluateProductBlockingSizesHeuristic, one thread: L1 16 KiB; k_div = mr * 4 + nr * 4 =
   * 20 bytes, k_sub = mr * nr * 4 = 16 bytes, kc a multiple of the peeling 8 */
  enum { L1 = 16 * 1024, K_DIV = 20, K_SUB = 16, PEEL = 8 };
  const int32_t max_kc = ((L1 - K_SUB) / K_DIV) & ~(PEEL - 1);
  if (k <= max_kc || (k < 48 && m < 48 && n < 48)) return k;
  if (k % max_kc == 0) return max_kc;
  return max_kc - PEEL * ((max_kc - 1 - k % max_kc) / (PEEL * (k / max_kc + 1)));
}

enum { EIGEN_COLS = 64 }; /* output columns summed side by side */

/* One output row's columns [j0, j0 + nj) of a batch: a (element p at a[p * ap]) times rhs
 * (row p at r + p * rs, column j at j * rn). */
static void eigen_row(const float *a, size_t ap, const float *r, size_t rs, size_t rn, int32_t k,
                      int32_t kc, int gebp_group, int32_t j0, int32_t nj, float *y) {
  float tot[EIGEN_COLS], c[EIGEN_COLS], e[EIGEN_COLS];
  for (int32_t j = 0; j < nj; j++) tot[j] = 0.f;
  for (int32_t k0 = 0; k0 < k; k0 += kc) {
    const int32_t k1 = k - k0 < kc ? k : k0 + kc;
    const int32_t peel = gebp_group ? k0 + ((k1 - k0) & ~7) : k0;
    for (int32_t j = 0; j < nj; j++) c[j] = 0.f, e[j] = 0.f;
    int32_t p = k0;
    for (; p < peel; p += 2) {
      const float a0 = a[(size_t)p * ap], a1 = a[(size_t)(p + 1) * ap];
      const float *r0 = r + (size_t)p * rs + (size_t)j0 * rn, *r1 = r0 + rs;
      for (int32_t j = 0; j < nj; j++) {
        const float p0 = a0 * r0[(size_t)j * rn];
        c[j] = c[j] + p0;
        const float p1 = a1 * r1[(size_t)j * rn];
        e[j] = e[j] + p1;
      }
    }
    if (gebp_group)
      for (int32_t j = 0; j < nj; j++) c[j] = c[j] + e[j];
    for (; p < k1; p++) {
      const float a0 = a[(size_t)p * ap];
      const float *r0 = r + (size_t)p * rs + (size_t)j0 * rn;
      for (int32_t j = 0; j < nj; j++) {
        const float p0 = a0 * r0[(size_t)j * rn];
        c[j] = c[j] + p0;
      }
    }
    for (int32_t j = 0; j < nj; j++) tot[j] = tot[j] + c[j];
  }
  for (int32_t j = 0; j < nj; j++) y[j] = tot[j];
}

/* Which of Eigen's products an M x K x N one takes: the panel depth (all of K outside GEBP) and
 * the rows below which rows go in GEBP's groups of 4 (0 outside it). */
static int32_t eigen_plan(int32_t m, int32_t k, int32_t n, int32_t *m4) {
  const int gebp = m > 1 && n > 1 && (int64_t)k + m + n >= 20;
  *m4 = gebp ? m / 4 * 4 : 0;
  return gebp ? tfcc_eigen_gemm_kc(k, m, n) : k;
}

void tfcc_eigen_bmm_f32(const tfcc_bmm_dims *d, const float *lhs, const float *rhs, float *out) {
  int64_t nb = 1;
  for (int32_t i = 0; i < d->nbd; i++) nb *= d->out_b[i];
  const size_t lsm = d->adj_x ? 1 : (size_t)d->k, lsk = d->adj_x ? (size_t)d->m : 1;
  const size_t rsk = d->adj_y ? 1 : (size_t)d->n, rsn = d->adj_y ? (size_t)d->k : 1;
  int32_t m4;
  const int32_t kc = eigen_plan(d->m, d->k, d->n, &m4);
  for (int64_t b = 0; b < nb; b++) {
    size_t lo, ro;
    tfcc_bmm_batch_offsets(d, b, &lo, &ro);
    for (int32_t i = 0; i < d->m; i++) {
      float *y = out + ((size_t)b * (size_t)d->m + (size_t)i) * (size_t)d->n;
      for (int32_t j0 = 0; j0 < d->n; j0 += EIGEN_COLS) {
        const int32_t nj = d->n - j0 < EIGEN_COLS ? d->n - j0 : EIGEN_COLS;
        eigen_row(lhs + lo + (size_t)i * lsm, lsk, rhs + ro, rsk, rsn, d->k, kc > 0 ? kc : 1,
                  i < m4, j0, nj, y + j0);
      }
    }
  }
}

void tfcc_eigen_gemm_kn_f32(tfcc_eigen_gemm_fn gemm, const float *a, const float *r, int32_t m,
                            int32_t k, int32_t n, const float *bias, float lo, float hi, float *y) {
  int32_t m4;
  const int32_t kc = eigen_plan(m, k, n, &m4);
  gemm(a, k > 0 ? (size_t)k : 0, r, m, k, n, kc, m4, bias, lo, hi, y);
}

static bool eigen_conv_direct(const tfcc_conv_geom *g) {
  return g->filter_h == 1 && g->filter_w == 1 && g->stride_h == 1 && g->stride_w == 1 &&
         g->pad_h == 0 && g->pad_w == 0 && g->out_h == g->in_h && g->out_w == g->in_w;
}

static size_t eigen_conv_k(const tfcc_conv_geom *g) {
  return (size_t)g->filter_h * (size_t)g->filter_w * (size_t)g->in_c;
}

size_t tfcc_eigen_conv_f32_scratch(const tfcc_conv_geom *g, bool filter_packed) {
  /* the vector GEMM's [K][N], unless packed once */
  const size_t filter_t = filter_packed ? 0 : eigen_conv_k(g) * (size_t)g->out_c;
  if (eigen_conv_direct(g)) return filter_t * sizeof(float);
  return ((size_t)g->batches * (size_t)g->out_h * (size_t)g->out_w * eigen_conv_k(g) + filter_t) *
         sizeof(float);
}

/* TFLite's Im2col: each output pixel's window, ky, kx, c, zeros outside the image. */
static void eigen_im2col(const tfcc_conv_geom *g, const float *in, float *col) {
  const size_t c = (size_t)g->in_c;
  for (int32_t b = 0; b < g->batches; b++)
    for (int32_t oy = 0; oy < g->out_h; oy++)
      for (int32_t ox = 0; ox < g->out_w; ox++)
        for (int32_t ky = 0; ky < g->filter_h; ky++) {
          const int32_t iy = oy * g->stride_h - g->pad_h + ky * g->dil_h;
          for (int32_t kx = 0; kx < g->filter_w; kx++, col += c) {
            const int32_t ix = ox * g->stride_w - g->pad_w + kx * g->dil_w;
            if (iy < 0 || iy >= g->in_h || ix < 0 || ix >= g->in_w) {
              for (size_t i = 0; i < c; i++) col[i] = 0.f;
              continue;
            }
            const float *x = in + (((size_t)b * g->in_h + (size_t)iy) * g->in_w + (size_t)ix) * c;
            for (size_t i = 0; i < c; i++) col[i] = x[i];
          }
        }
}

void tfcc_eigen_conv_f32(const tfcc_conv_geom *g, const float *in, const float *filter,
                         const float *filter_kn, const float *bias, float lo, float hi, float *out,
                         float *scratch, tfcc_eigen_gemm_fn gemm) {
  const int64_t pixels = (int64_t)g->batches * g->out_h * g->out_w;
  tfcc_bmm_dims d = {0};
  d.nbd = 0;
  d.m = (int32_t)pixels;
  d.k = g->filter_h * g->filter_w * g->in_c;
  d.n = g->out_c;
  d.adj_y = true;
  const float *lhs = in;
  float *filter_t = scratch;
  if (!eigen_conv_direct(g)) {
    eigen_im2col(g, in, scratch);
    lhs = scratch;
    filter_t = scratch + (size_t)pixels * eigen_conv_k(g);
  }
  if (gemm && d.m > 0 && d.n > 0) { /* the filter as [K][N], then the same sums lane by lane */
    const size_t K = (size_t)d.k, N = (size_t)d.n;
    if (!filter_kn) {
      for (size_t j = 0; j < N; j++)
        for (size_t p = 0; p < K; p++) filter_t[p * N + j] = filter[j * K + p];
      filter_kn = filter_t;
    }
    tfcc_eigen_gemm_kn_f32(gemm, lhs, filter_kn, d.m, d.k, d.n, bias, lo, hi, out);
    return;
  }
  tfcc_eigen_bmm_f32(&d, lhs, filter, out);
  const size_t n = (size_t)g->out_c;
  for (size_t i = 0; i < (size_t)pixels; i++, out += n)
    for (size_t j = 0; j < n; j++) {
      float v = bias ? out[j] + bias[j] : out[j];
      v = v < lo ? lo : v;
      out[j] = v > hi ? hi : v;
    }
}

/* TRANSPOSE_CONV: the GEMM's column buffer holds this many floats (whole groups of 4 pixels,
   at least one group), so that it stays in L1 / L2 while Col2im reads it back */
enum { TCONV_COL_FLOATS = 8192 };

static int32_t tconv_chunk(const tfcc_conv_geom *g, size_t n) {
  const int32_t pixels = g->in_h * g->in_w;
  size_t r = n > 0 ? TCONV_COL_FLOATS / n : (size_t)pixels;
  r = r < 4 ? 4 : r / 4 * 4;
  return r < (size_t)pixels ? (int32_t)r : pixels;
}

size_t tfcc_eigen_tconv_f32_scratch(const tfcc_conv_geom *g) {
  const size_t n = (size_t)g->filter_h * (size_t)g->filter_w * (size_t)g->out_c;
  return ((size_t)g->in_c * n + (size_t)tconv_chunk(g, n) * n) * sizeof(float);
}

/* The weights as the GEMM's rhs [in_c][taps * out_c]: from the stored [out_c][taps][in_c] or
   the packing [taps][in_c][out_c] (tfcc_tconv_f32_pack) */
static void tconv_weights_kn(const tfcc_conv_geom *g, const float *filter, const float *packed,
                             float *restrict wt) {
  const size_t k_n = (size_t)g->in_c, taps = (size_t)g->filter_h * (size_t)g->filter_w;
  const size_t oc_n = (size_t)g->out_c, n = taps * oc_n;
  if (filter) {
    for (size_t oc = 0; oc < oc_n; oc++)
      for (size_t t = 0; t < taps; t++) {
        const float *f = filter + (oc * taps + t) * k_n;
        for (size_t k = 0; k < k_n; k++) wt[k * n + t * oc_n + oc] = f[k];
      }
    return;
  }
  for (size_t t = 0; t < taps; t++)
    for (size_t k = 0; k < k_n; k++)
      memcpy(wt + k * n + t * oc_n, packed + (t * k_n + k) * oc_n, oc_n * sizeof(float));
}

/* Col2im of rows pixels from p0 of image b: each (pixel, tap) row of col added to its output
   pixel's channels, pixel by pixel, tap by tap (TransposeConvV2's order) */
static void tconv_col2im(const tfcc_conv_geom *g, int32_t b, int32_t p0, int32_t rows,
                         const float *col, float *out) {
  const size_t oc_n = (size_t)g->out_c, n = (size_t)g->filter_h * (size_t)g->filter_w * oc_n;
  for (int32_t r = 0; r < rows; r++) {
    const int32_t iy = (p0 + r) / g->in_w, ix = (p0 + r) % g->in_w;
    const int32_t oy0 = iy * g->stride_h - g->pad_h, ox0 = ix * g->stride_w - g->pad_w;
    for (int32_t fy = 0; fy < g->filter_h; fy++) {
      const int32_t oy = oy0 + fy;
      if (oy < 0 || oy >= g->out_h) continue;
      for (int32_t fx = 0; fx < g->filter_w; fx++) {
        const int32_t ox = ox0 + fx;
        if (ox < 0 || ox >= g->out_w) continue;
        float *restrict op =
            out +
            (((size_t)b * (size_t)g->out_h + (size_t)oy) * (size_t)g->out_w + (size_t)ox) * oc_n;
        const float *restrict cp = col + (size_t)r * n + ((size_t)fy * g->filter_w + fx) * oc_n;
        for (size_t oc = 0; oc < oc_n; oc++) op[oc] = op[oc] + cp[oc];
      }
    }
  }
}

void tfcc_eigen_tconv_f32(const tfcc_conv_geom *g, const float *in, const float *filter,
                          const float *packed, const float *bias, float lo, float hi, float *out,
                          float *scratch, tfcc_eigen_gemm_fn gemm) {
  const int32_t pixels = g->in_h * g->in_w, k_n = g->in_c;
  const int32_t n = g->filter_h * g->filter_w * g->out_c;
  const size_t oc_n = (size_t)g->out_c;
  const size_t n_out = (size_t)g->batches * (size_t)g->out_h * (size_t)g->out_w * oc_n;
  memset(out, 0, n_out * sizeof(float));
  if (pixels > 0 && n > 0) {
    float *wt = scratch, *col = scratch + (size_t)k_n * (size_t)n;
    tconv_weights_kn(g, filter, packed, wt);
    int32_t m4;
    const int32_t kc = eigen_plan(pixels, k_n, n, &m4), chunk = tconv_chunk(g, (size_t)n);
    for (int32_t b = 0; b < g->batches; b++)
      for (int32_t p0 = 0; p0 < pixels; p0 += chunk) {
        const int32_t rows = pixels - p0 < chunk ? pixels - p0 : chunk;
        const int32_t m4c = m4 <= p0 ? 0 : (m4 - p0 < rows ? m4 - p0 : rows);
        gemm(in + ((size_t)b * (size_t)pixels + (size_t)p0) * (size_t)k_n, (size_t)k_n, wt, rows,
             k_n, n, kc > 0 ? kc : 1, m4c, NULL, -INFINITY, INFINITY, col);
        tconv_col2im(g, b, p0, rows, col, out);
      }
  }
  for (size_t i = 0; i < n_out; i++) {
    float v = out[i] + (bias ? bias[i % oc_n] : 0.f);
    v = v < lo ? lo : v;
    out[i] = v > hi ? hi : v;
  }
}

void tfcc_eigen_softmax_f32(const float *x, float *y, size_t outer, size_t depth, float beta,
                            tfcc_f32_unary_fn expf_v) {
  for (size_t r = 0; r < outer; r++, x += depth, y += depth) {
    float m = x[0];
    for (size_t i = 1; i < depth; i++) m = x[i] > m ? x[i] : m;
    float sum = 0.f;
    if (expf_v) { /* the exps a vector at a time (the same bits), then summed in order */
      for (size_t i = 0; i < depth; i++) {
        const float d = x[i] - m;
        y[i] = d * beta;
      }
      expf_v(y, y, depth);
      for (size_t i = 0; i < depth; i++) sum = sum + y[i];
    } else {
      for (size_t i = 0; i < depth; i++) {
        const float d = x[i] - m;
        y[i] = tfcc_expf_ref(d * beta);
        sum = sum + y[i];
      }
    }
    const float s = 1.f / sum;
    for (size_t i = 0; i < depth; i++) y[i] = y[i] * s;
  }
}

float tfcc_eigen_erf_f32(float a) {
  const float x = a > 4.f ? 4.f : (a < -4.f ? -4.f : a); /* pmin, pmax: a NaN stays */
  const float x2 = x * x;
  float p = x2 * -2.72614225801306e-10f;
  p = p + 2.77068142495902e-08f;
  p = x2 * p, p = p + -2.10102402082508e-06f;
  p = x2 * p, p = p + -5.69250639462346e-05f;
  p = x2 * p, p = p + -7.34990630326855e-04f;
  p = x2 * p, p = p + -2.95459980854025e-03f;
  p = x2 * p, p = p + -1.60960333262415e-02f;
  p = x * p;
  float q = x2 * -1.45660718464996e-05f;
  q = q + -2.13374055278905e-04f;
  q = x2 * q, q = q + -1.68282697438203e-03f;
  q = x2 * q, q = q + -7.37332916720468e-03f;
  q = x2 * q, q = q + -1.42647390514189e-02f;
  return p / q;
}

void tfcc_eigen_gelu_f32(const float *x, float *y, size_t n) {
  for (size_t i = 0; i < n; i++) {
    const float v = x[i];
    const float h = 0.5f * v;
    const float s = v * 0.70710678118654752440f;
    const float e = 1.0f + tfcc_eigen_erf_f32(s);
    y[i] = h * e;
  }
}

void tfcc_eigen_gelu_tanh_f32(const float *x, float *y, size_t n) {
  const float k = (float)(1.12837916709551257390 * 0.70710678118654752440); /* sqrt(2 / pi) */
  for (size_t i = 0; i < n; i++) {
    const float v = x[i];
    const float h = 0.5f * v;
    float c = v * v;
    c = c * v;
    c = 0.044715f * c;
    c = v + c;
    c = k * c;
    const float e = 1.0f + tfcc_act_tanh_eigen(c);
    y[i] = h * e;
  }
}
