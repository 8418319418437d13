/* Fast float32 GEMM and convolution: every micro-kernel this CPU can run, against a double
 * precision reference (GEMM) and the reference convolution kernel, on odd sizes (1, primes,
 * not multiples of the tile), strides, dilations, padding, batches and activations; single
 * threaded and on a 2-thread pool. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cpu/cpu_info.h"
#include "kernels/f32-gemm/conv.h"
#include "kernels/f32-gemm/gemm.h"
#include "kernels/f32-gemm/gemv.h"
#include "kernels/ref/conv.h"
#include "base/threadpool.h"
#include "kernel_test_main.h"
#include "test_harness.h"

static uint32_t rng = 12345u;
static float frand(void) {
  rng = rng * 1664525u + 1013904223u;
  return (float)((rng >> 8) & 0xFFFF) / 32768.0f - 1.0f;
}
static void fill(float *p, size_t n) {
  for (size_t i = 0; i < n; i++) p[i] = frand();
}

/* Relative-to-magnitude tolerance: |got - want| <= 1e-5 * (sum |a*b| + |bias|) + 1e-6. */
static void test_gemm(const tfcc_f32_gemm_kernel *k, tfcc_threadpool *pool, int M, int N, int K,
                      bool with_bias, float lo, float hi) {
  float *a = malloc(sizeof(float) * (size_t)(M * K + 1));
  float *w = malloc(sizeof(float) * (size_t)(N * K + 1));
  float *bias = malloc(sizeof(float) * (size_t)(N + 1));
  const size_t c_stride = (size_t)N + 3; /* output rows wider than N: columns past N untouched */
  float *c = malloc(sizeof(float) * ((size_t)M * c_stride + 1));
  fill(a, (size_t)M * K);
  fill(w, (size_t)N * K);
  fill(bias, (size_t)N);
  for (size_t i = 0; i < (size_t)M * c_stride; i++) c[i] = 777.0f;
  tfcc_f32_packed p;
  CHECK(tfcc_f32_pack(k, N, K, w, (size_t)K, 1, with_bias ? bias : NULL, &p));
  tfcc_f32_gemm(pool, &p, M, a, (size_t)K, c, c_stride, lo, hi);
  int bad = 0;
  for (int m = 0; m < M; m++) {
    for (int n = 0; n < N; n++) {
      double s = with_bias ? bias[n] : 0.0, mag = fabs(s);
      for (int kk = 0; kk < K; kk++) {
        s += (double)a[m * K + kk] * w[n * K + kk];
        mag += fabs((double)a[m * K + kk] * w[n * K + kk]);
      }
      s = s < lo ? lo : s > hi ? hi : s;
      float got = c[(size_t)m * c_stride + (size_t)n];
      if (fabs(got - s) > 1e-5 * mag + 1e-6 && bad++ < 3)
        fprintf(stderr, "%s M=%d N=%d K=%d: c[%d][%d] = %g, want %g\n", k->name, M, N, K, m, n, got,
                s);
    }
    for (size_t n = (size_t)N; n < c_stride; n++)
      if (c[(size_t)m * c_stride + n] != 777.0f && bad++ < 3)
        fprintf(stderr, "%s M=%d N=%d K=%d: wrote past column N\n", k->name, M, N, K);
  }
  CHECKF(bad == 0, "%s M=%d N=%d K=%d: %d wrong", k->name, M, N, K, bad);
  tfcc_f32_packed_free(&p);
  free(a);
  free(w);
  free(bias);
  free(c);
}

/* A NaN in the input row or the bias passes the activation clamp, as the scalar kernel's
 * clampf and TFLite's min(max(v, lo), hi) (f32v_clamp's order), in the tiles, the one-row
 * kernel and the GEMV path: every output that sums a NaN is NaN, the others are exact. */
static void test_nan(const tfcc_f32_gemm_kernel *k, tfcc_threadpool *pool, int M, int N, int K,
                     float lo, float hi) {
  float *a = malloc(sizeof(float) * (size_t)(M * K)), *w = malloc(sizeof(float) * (size_t)(N * K));
  float *bias = malloc(sizeof(float) * (size_t)N), *c = malloc(sizeof(float) * (size_t)(M * N));
  float *g = malloc(sizeof(float) * (size_t)N);
  CHECK(a && w && bias && c && g);
  fill(a, (size_t)M * K);
  fill(w, (size_t)N * K);
  fill(bias, (size_t)N);
  const int nan_row = M / 2, nan_col = N - 1;
  a[(size_t)nan_row * K + (size_t)(K / 2)] = NAN;
  bias[nan_col] = NAN;
  tfcc_f32_packed p;
  CHECK(tfcc_f32_pack(k, N, K, w, (size_t)K, 1, bias, &p));
  tfcc_f32_gemm(pool, &p, M, a, (size_t)K, c, (size_t)N, lo, hi);
  tfcc_f32_gemv(pool, &p, a + (size_t)nan_row * K, g, lo, hi);
  int bad = 0;
  for (int m = 0; m < M; m++)
    for (int n = 0; n < N; n++) {
      double s = bias[n], mag = fabs(s);
      for (int kk = 0; kk < K; kk++) {
        s += (double)a[m * K + kk] * w[n * K + kk];
        mag += fabs((double)a[m * K + kk] * w[n * K + kk]);
      }
      s = s < lo ? lo : s > hi ? hi : s; /* NaN stays NaN */
      const float got = c[(size_t)m * N + (size_t)n];
      const bool ok = isnan(s) ? isnan(got) : !isnan(got) && fabs(got - s) <= 1e-5 * mag + 1e-6;
      if (!ok && bad++ < 3)
        fprintf(stderr, "%s NaN M=%d N=%d K=%d [%g, %g]: c[%d][%d] = %g, want %g\n", k->name, M, N,
                K, lo, hi, m, n, got, s);
      if (m == nan_row && !isnan(g[n]) && bad++ < 3)
        fprintf(stderr, "%s NaN GEMV N=%d K=%d: c[%d] = %g, want NaN\n", k->name, N, K, n, g[n]);
    }
  CHECKF(bad == 0, "%s NaN M=%d N=%d K=%d [%g, %g]: %d wrong", k->name, M, N, K, lo, hi, bad);
  tfcc_f32_packed_free(&p);
  free(a);
  free(w);
  free(bias);
  free(c);
  free(g);
}

/* A row's result is bit-identical whether it runs alone (the GEMV kernel) or inside a tile
 * with other rows, over one K block or several (dynamic batching relies on it). */
static void test_row_invariance(const tfcc_f32_gemm_kernel *k, int M, int N, int K) {
  float *a = malloc(sizeof(float) * (size_t)M * (size_t)K);
  float *w = malloc(sizeof(float) * (size_t)N * (size_t)K);
  float *bias = malloc(sizeof(float) * (size_t)N);
  float *c = malloc(sizeof(float) * (size_t)M * (size_t)N), *c1 = malloc(sizeof(float) * (size_t)N);
  fill(a, (size_t)M * K);
  fill(w, (size_t)N * K);
  fill(bias, (size_t)N);
  tfcc_f32_packed p;
  CHECK(tfcc_f32_pack(k, N, K, w, (size_t)K, 1, bias, &p));
  tfcc_f32_gemm(NULL, &p, M, a, (size_t)K, c, (size_t)N, -INFINITY, INFINITY);
  int bad = 0;
  for (int m = 0; m < M; m++) {
    tfcc_f32_gemm(NULL, &p, 1, a + (size_t)m * K, (size_t)K, c1, (size_t)N, -INFINITY, INFINITY);
    bad += memcmp(c1, c + (size_t)m * N, sizeof(float) * (size_t)N) != 0;
  }
  CHECKF(bad == 0, "%s M=%d N=%d K=%d: %d rows differ alone vs batched", k->name, M, N, K, bad);
  tfcc_f32_packed_free(&p);
  free(a);
  free(w);
  free(bias);
  free(c);
  free(c1);
}

static void ref_conv(const tfcc_conv_geom *g, const float *in, const float *f, const float *b,
                     float lo, float hi, float *out) {
  tfcc_conv_f32(g, in, f, b, lo, hi, out);
}

static void test_conv(const tfcc_f32_gemm_kernel *k, tfcc_threadpool *pool, int batches, int ih,
                      int iw, int ic, int oc, int fh, int fw, int sh, int sw, int dh, int dw,
                      bool same, float lo, float hi) {
  tfcc_conv_geom g;
  memset(&g, 0, sizeof g);
  g.batches = batches;
  g.in_h = ih;
  g.in_w = iw;
  g.in_c = ic;
  g.out_c = oc;
  g.filter_h = fh;
  g.filter_w = fw;
  g.filter_in_c = ic;
  g.stride_h = sh;
  g.stride_w = sw;
  g.dil_h = dh;
  g.dil_w = dw;
  const int eh = (fh - 1) * dh + 1, ew = (fw - 1) * dw + 1;
  if (same) {
    g.out_h = (ih + sh - 1) / sh;
    g.out_w = (iw + sw - 1) / sw;
  } else {
    g.out_h = (ih - eh + sh) / sh;
    g.out_w = (iw - ew + sw) / sw;
  }
  int ph = ((g.out_h - 1) * sh + eh - ih) / 2, pw = ((g.out_w - 1) * sw + ew - iw) / 2;
  g.pad_h = ph > 0 ? ph : 0;
  g.pad_w = pw > 0 ? pw : 0;
  const size_t nin = (size_t)batches * ih * iw * ic, nf = (size_t)oc * fh * fw * ic;
  const size_t nout = (size_t)batches * g.out_h * g.out_w * oc;
  float *in = malloc(sizeof(float) * nin), *f = malloc(sizeof(float) * nf);
  float *b = malloc(sizeof(float) * (size_t)oc);
  float *want = malloc(sizeof(float) * (nout + 1)), *got = malloc(sizeof(float) * (nout + 1));
  fill(in, nin);
  fill(f, nf);
  fill(b, (size_t)oc);
  ref_conv(&g, in, f, b, lo, hi, want);
  tfcc_f32_packed p;
  const int K = fh * fw * ic;
  CHECK(tfcc_f32_pack(k, oc, K, f, (size_t)K, 1, b, &p));
  size_t sb = tfcc_f32_conv_scratch_bytes(&g, &p, tfcc_threadpool_size(pool));
  void *scratch = sb ? aligned_alloc(64, sb) : NULL;
  if (scratch) memset(scratch, 0x5A, sb);
  tfcc_f32_conv(pool, &g, &p, in, got, lo, hi, scratch);
  int bad = 0;
  for (size_t i = 0; i < nout; i++) {
    double tol = 1e-5 * (K + 1) * 2.0 + 1e-5;
    if (fabs((double)got[i] - want[i]) > tol && bad++ < 3)
      fprintf(stderr, "%s conv %dx%dx%d->%d f%dx%d s%d,%d d%d,%d: out[%zu] = %g, want %g\n",
              k->name, ih, iw, ic, oc, fh, fw, sh, sw, dh, dw, i, got[i], want[i]);
  }
  CHECKF(bad == 0, "%s conv %dx%dx%d->%d f%dx%d s%d,%d d%d,%d %s: %d wrong", k->name, ih, iw, ic,
         oc, fh, fw, sh, sw, dh, dw, same ? "SAME" : "VALID", bad);
  free(scratch);
  tfcc_f32_packed_free(&p);
  free(in);
  free(f);
  free(b);
  free(want);
  free(got);
}

/* The packed bytes against the layout written out element by element (gemm.h): the bias row,
 * then per K block of kc and per panel of NR columns, kn rows of NR floats, zero past N. From
 * B stored N x K (ld_n = K, ld_k = 1: a filter), K x N (ld_n = 1) and strided, packed inline
 * (tfcc_f32_pack_into) and split across a pool (tfcc_f32_pack_pool: the same bytes). */
static void test_pack_layout(const tfcc_f32_gemm_kernel *k, tfcc_threadpool *pool, int N, int K,
                             int layout) {
  const size_t nr = (size_t)k->nr, n = (size_t)N, kd = (size_t)K;
  const size_t ld_n = layout == 0 ? kd : layout == 1 ? 1 : 2 * kd + 3;
  const size_t ld_k = layout == 0 ? 1 : layout == 1 ? n : 2;
  const size_t span = (n - 1) * ld_n + (kd - 1) * ld_k + 1;
  float *src = malloc(span * sizeof(float)), *bias = malloc(n * sizeof(float));
  const size_t bytes = tfcc_f32_packed_bytes(k, N, K), floats = bytes / sizeof(float);
  float *want = calloc(floats, sizeof(float)), *got = aligned_alloc(64, bytes);
  CHECK(src && bias && want && got);
  fill(src, span);
  fill(bias, n);
  const size_t panels = (n + nr - 1) / nr, row = panels * nr, kc = tfcc_f32_pack_kc(k, kd);
  for (size_t j = 0; j < n; j++) want[j] = bias[j];
  for (size_t c = 0; c < n; c++)
    for (size_t kk = 0; kk < kd; kk++) {
      const size_t k0 = kk / kc * kc, kn = kd - k0 < kc ? kd - k0 : kc;
      want[row * (1 + k0) + c / nr * kn * nr + (kk - k0) * nr + c % nr] = src[c * ld_n + kk * ld_k];
    }
  tfcc_f32_packed p, q;
  memset(got, 0xff, bytes);
  tfcc_f32_pack_into(k, N, K, src, ld_n, ld_k, bias, got, &p);
  CHECKF(memcmp(got, want, row * (1 + kd) * sizeof(float)) == 0,
         "%s pack_into N %d K %d layout %d: bytes differ", k->name, N, K, layout);
  CHECK(tfcc_f32_pack_pool(pool, k, N, K, src, ld_n, ld_k, bias, &q));
  CHECKF(memcmp(q.w, want, row * (1 + kd) * sizeof(float)) == 0,
         "%s pack_pool N %d K %d layout %d threads %d: bytes differ", k->name, N, K, layout,
         tfcc_threadpool_size(pool));
  CHECK(q.kc == p.kc && q.n == N && q.kdim == K);
  tfcc_f32_packed_free(&q);
  free(src);
  free(bias);
  free(want);
  free(got);
}

int main(void) {
  const tfcc_isa best = tfcc_cpu_dispatch_isa(TFCC_ISA_COUNT_);
  tfcc_threadpool *pool2 = tfcc_test_pool(2);
  /* dispatch never picks above the cap or the CPU */
  for (int isa = 0; isa < TFCC_ISA_COUNT_; isa++) {
    const tfcc_f32_gemm_kernel *k = tfcc_f32_gemm_select((tfcc_isa)isa);
    CHECK(k != NULL);
    CHECK(k->isa == TFCC_ISA_GENERIC || k->isa == (tfcc_isa)isa ||
          (k->isa < (tfcc_isa)isa && k->isa != TFCC_ISA_NEON));
  }
  CHECK(tfcc_f32_gemm_select(TFCC_ISA_GENERIC)->isa == TFCC_ISA_GENERIC);
  static const int sizes[][3] = {{1, 1, 1},
                                 {1, 7, 3},
                                 {2, 33, 5},
                                 {3, 17, 64},
                                 {7, 31, 13},
                                 {8, 32, 16},
                                 {9, 47, 29},
                                 {13, 64, 37},
                                 {17, 100, 1},
                                 {31, 97, 53},
                                 {64, 1, 8},
                                 {1, 1000, 1280},
                                 {5, 257, 130},
                                 {61, 129, 131},
                                 /* half-full panels: N = 16 and a 16-column tail */
                                 {12, 16, 32},
                                 {20, 144, 24},
                                 {9, 40, 7},
                                 /* long K, several row groups; weights over 1 MiB (several
                                  * K blocks at every kernel's kc), with several row groups */
                                 {29, 70, 600},
                                 {13, 40, 1030},
                                 {9, 37, 2100},
                                 {500, 20, 40},
                                 {1000, 9, 300},
                                 {13, 130, 2100},
                                 /* weights over 1 MiB swept by several tiles (the next
                                  * block's prefetch shared by two) and a one-row last tile */
                                 {49, 520, 600},
                                 /* short last tiles of 2, 3, 4 rows */
                                 {14, 70, 9},
                                 {27, 45, 300},
                                 {196, 40, 64}};
  int tested = 0;
  TFCC_EACH_VARIANT(tfcc_f32_gemm, k, best) {
    tested++;
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
      const int M = sizes[s][0], N = sizes[s][1], K = sizes[s][2];
      test_gemm(k, NULL, M, N, K, true, -INFINITY, INFINITY);
      test_gemm(k, pool2, M, N, K, s % 2 == 0, 0.0f, 6.0f);
      test_gemm(k, NULL, M, N, K, false, -1.0f, 1.0f);
    }
    /* NaN through the clamp: one row, short and full tiles, column tails, a 2-thread pool */
    test_nan(k, NULL, 1, 37, 9, 0.0f, 6.0f);
    test_nan(k, NULL, 5, 37, 9, -1.0f, 1.0f);
    test_nan(k, pool2, 13, 70, 33, 0.0f, INFINITY);
    test_nan(k, NULL, 29, 97, 20, -INFINITY, INFINITY);
    /* packing: tails, K blocks, over 256 KiB (split across the pool), every source layout */
    for (int layout = 0; layout < 3; layout++) {
      test_pack_layout(k, NULL, 7, 5, layout);
      test_pack_layout(k, pool2, 33, 70, layout);
      test_pack_layout(k, pool2, 300, 600, layout);
      test_pack_layout(k, pool2, 97, 2100, layout);
    }
    test_row_invariance(k, 7, 40, 33);
    test_row_invariance(k, 25, 300, 1000); /* weights over 1 MiB: K blocks when batched */
    test_row_invariance(k, 30, 40, 600);   /* weights in L2: tile by tile over the K blocks */
    /* short last tiles (M = 12q + 2..4: the few-row kernel where there is one) */
    test_row_invariance(k, 28, 70, 300);
    test_row_invariance(k, 14, 33, 20);
    test_row_invariance(k, 27, 290, 1000);
    /* convolution: 1x1 in place (stride 1, 2), KxK with padding, strides, dilation */
    test_conv(k, NULL, 1, 5, 7, 3, 5, 1, 1, 1, 1, 1, 1, false, -INFINITY, INFINITY);
    test_conv(k, pool2, 2, 9, 6, 17, 33, 1, 1, 2, 2, 1, 1, false, 0.0f, INFINITY);
    test_conv(k, NULL, 1, 8, 8, 3, 16, 3, 3, 2, 2, 1, 1, true, 0.0f, 6.0f);
    test_conv(k, pool2, 1, 11, 13, 5, 37, 3, 3, 1, 1, 1, 1, true, -INFINITY, INFINITY);
    test_conv(k, NULL, 2, 10, 9, 4, 7, 3, 3, 1, 2, 2, 1, false, -1.0f, 1.0f);
    test_conv(k, pool2, 1, 12, 12, 6, 9, 5, 5, 2, 2, 1, 1, true, -INFINITY, INFINITY);
    test_conv(k, NULL, 1, 7, 7, 2, 3, 3, 2, 1, 1, 2, 3, true, -INFINITY, INFINITY);
    test_conv(k, pool2, 1, 1, 1, 13, 11, 1, 1, 1, 1, 1, 1, true, 0.0f, INFINITY);
    test_conv(k, NULL, 1, 4, 4, 1, 1, 4, 4, 1, 1, 1, 1, false, -INFINITY, INFINITY);
    test_conv(k, pool2, 1, 3, 3, 8, 40, 3, 3, 1, 1, 1, 1, true, -INFINITY, INFINITY);
    /* several im2col groups with a partial last one (K = 576), and K too large for a group
     * (K = 2700: one tile at a time under an L2 column block), inline and threaded */
    test_conv(k, NULL, 1, 20, 21, 64, 40, 3, 3, 1, 1, 1, 1, true, 0.0f, 6.0f);
    test_conv(k, pool2, 1, 20, 21, 64, 40, 3, 3, 1, 1, 1, 1, true, -INFINITY, INFINITY);
    test_conv(k, NULL, 1, 9, 9, 300, 70, 3, 3, 1, 1, 1, 1, true, -INFINITY, INFINITY);
    test_conv(k, pool2, 1, 9, 9, 300, 70, 3, 3, 2, 2, 1, 1, false, 0.0f, INFINITY);
    /* K blocks over NHWC pixels read in place (1x1, stride 1 and 2), and im2col slices whose
     * K blocks start inside a tap (in_c not a multiple of kc), with padding and dilation */
    test_conv(k, NULL, 1, 6, 5, 600, 20, 1, 1, 1, 1, 1, 1, false, 0.0f, 6.0f);
    test_conv(k, pool2, 1, 7, 9, 1100, 300, 1, 1, 2, 2, 1, 1, false, -INFINITY, INFINITY);
    test_conv(k, NULL, 1, 6, 6, 130, 250, 3, 3, 1, 1, 2, 2, true, -INFINITY, INFINITY);
    test_conv(k, pool2, 1, 5, 5, 250, 130, 3, 3, 1, 1, 1, 1, true, 0.0f, INFINITY);
  }
  /* K blocks over several row groups (M > one group of 384 rows), with the best kernel only
   * (the reference product is large) */
  test_gemm(tfcc_f32_gemm_select(best), pool2, 400, 270, 1000, true, 0.0f, 6.0f);
  CHECK(tested >= 1);
  printf("%d f32 GEMM kernels tested at CPU level %s\n", tested, tfcc_isa_name(best));
  tfcc_threadpool_destroy(pool2);
  return tfcc_test_finish("test_f32_gemm");
}
