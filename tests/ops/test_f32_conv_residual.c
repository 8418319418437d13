/* Float32 convolution with a fused residual (tfcc_f32_conv_residual, the GEMM epilogue that
 * pass fuse_residual_add uses): for every micro-kernel this CPU runs, the result is the same
 * bits as the convolution on the same kernel without clamp followed by ADD with the clamp
 * (one IEEE add, then max(lo, v), min(hi, v)), on odd M, N, K (several K blocks, tile order
 * and K-block order, one-row, half-panel and short last tiles), 1x1 in place and im2col,
 * each activation, a residual row stride wider than the output's, NaN passing through,
 * single-threaded and on a 2-thread pool; and within rounding of the reference conv + add.
 * The kernels' residual epilogues are also checked directly against the portable one. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cpu/cpu_info.h"
#include "kernels/f32-gemm/conv.h"
#include "kernels/f32-gemm/gemm.h"
#include "kernels/ref/conv.h"
#include "base/threadpool.h"
#include "kernel_test_main.h"
#include "test_harness.h"

static uint32_t rng = 4242u;
static float frand(void) {
  rng = rng * 1664525u + 1013904223u;
  return (float)((rng >> 8) & 0xFFFF) / 32768.0f - 1.0f;
}
static void fill(float *p, size_t n) {
  for (size_t i = 0; i < n; i++) p[i] = frand();
}

/* The f32-vbinary ADD of one element with the clamp (kernels/ref/binary.c order). */
static float add_clamp(float x, float r, float lo, float hi) {
  float v = x + r;
  v = v < lo ? lo : v;
  return hi < v ? hi : v;
}

static bool same_bits(float a, float b) { return memcmp(&a, &b, sizeof a) == 0; }

static void test_conv(const tfcc_f32_gemm_kernel *k, tfcc_threadpool *pool, int ih, int iw, int ic,
                      int oc, int fh, int sh, bool same, float lo, float hi) {
  tfcc_conv_geom g;
  memset(&g, 0, sizeof g);
  g.batches = 1;
  g.in_h = ih;
  g.in_w = iw;
  g.in_c = g.filter_in_c = ic;
  g.out_c = oc;
  g.filter_h = g.filter_w = fh;
  g.stride_h = g.stride_w = sh;
  g.dil_h = g.dil_w = 1;
  g.out_h = same ? (ih + sh - 1) / sh : (ih - fh + sh) / sh;
  g.out_w = same ? (iw + sh - 1) / sh : (iw - fh + sh) / sh;
  const int ph = ((g.out_h - 1) * sh + fh - ih) / 2, pw = ((g.out_w - 1) * sh + fh - iw) / 2;
  g.pad_h = same && ph > 0 ? ph : 0;
  g.pad_w = same && pw > 0 ? pw : 0;
  const int K = fh * fh * ic;
  const size_t M = (size_t)g.out_h * g.out_w, nin = (size_t)ih * iw * ic;
  const size_t nf = (size_t)oc * K, nout = M * oc, rs = (size_t)oc + 5;
  float *in = malloc(sizeof(float) * nin), *f = malloc(sizeof(float) * nf);
  float *b = malloc(sizeof(float) * (size_t)oc), *res = malloc(sizeof(float) * M * rs);
  float *plain = malloc(sizeof(float) * nout), *got = malloc(sizeof(float) * nout);
  float *ref = malloc(sizeof(float) * nout);
  fill(in, nin);
  fill(f, nf);
  fill(b, (size_t)oc);
  fill(res, M * rs);
  for (size_t i = 0; i < M * rs; i++) res[i] *= 4.0f;
  res[0] = NAN; /* passes through the clamp as in the ADD kernels */
  tfcc_f32_packed p;
  CHECK(tfcc_f32_pack(k, oc, K, f, (size_t)K, 1, b, &p));
  const size_t sb = tfcc_f32_conv_scratch_bytes(&g, &p, tfcc_threadpool_size(pool));
  void *scratch = sb ? aligned_alloc(64, sb) : NULL;
  tfcc_f32_conv(pool, &g, &p, in, plain, -INFINITY, INFINITY, scratch);
  memset(got, 0x5A, sizeof(float) * nout);
  tfcc_f32_conv_residual(pool, &g, &p, in, res, rs, got, lo, hi, scratch);
  tfcc_conv_f32(&g, in, f, b, -INFINITY, INFINITY, ref);
  int bad = 0, far = 0;
  for (size_t m = 0; m < M; m++)
    for (size_t n = 0; n < (size_t)oc; n++) {
      const size_t i = m * oc + n;
      const float r = res[m * rs + n];
      if (!same_bits(got[i], add_clamp(plain[i], r, lo, hi)) && bad++ < 3)
        fprintf(stderr, "%s %dx%dx%d->%d f%d s%d: out[%zu] = %a, conv then add %a\n", k->name, ih,
                iw, ic, oc, fh, sh, i, got[i], add_clamp(plain[i], r, lo, hi));
      const float want = add_clamp(ref[i], r, lo, hi);
      if (isnan(want) ? !isnan(got[i]) : fabs((double)got[i] - want) > 1e-5 * (K + 1) * 2.0 + 1e-5)
        far++;
    }
  CHECKF(bad == 0, "%s %dx%dx%d->%d f%d s%d [%g, %g]: %d not conv-then-add bits", k->name, ih, iw,
         ic, oc, fh, sh, lo, hi, bad);
  CHECKF(far == 0, "%s %dx%dx%d->%d f%d s%d: %d far from the reference", k->name, ih, iw, ic, oc,
         fh, sh, far);
  free(scratch);
  tfcc_f32_packed_free(&p);
  free(in);
  free(f);
  free(b);
  free(res);
  free(plain);
  free(got);
  free(ref);
}

/* A kernel's own epilogue against the portable one on every tile shape it gets. */
static void test_epilogue(const tfcc_f32_gemm_kernel *k) {
  if (!k->res) return;
  enum { S = 40 };
  float c0[16 * S], c1[16 * S], r[16 * S];
  for (int mr = 1; mr <= k->mr; mr++)
    for (int nc = 1; nc <= k->nr; nc++) {
      fill(c0, sizeof c0 / sizeof c0[0]);
      fill(r, sizeof r / sizeof r[0]);
      c0[3] = NAN;
      r[S + 1] = INFINITY;
      memcpy(c1, c0, sizeof c0);
      k->res((size_t)mr, (size_t)nc, c0, S, r, S - 3, -0.5f, 0.75f);
      tfcc_f32_gemm_res_generic((size_t)mr, (size_t)nc, c1, S, r, S - 3, -0.5f, 0.75f);
      CHECKF(memcmp(c0, c1, sizeof c0) == 0, "%s epilogue %dx%d", k->name, mr, nc);
    }
}

int main(void) {
  const tfcc_isa best = tfcc_cpu_dispatch_isa(TFCC_ISA_COUNT_);
  tfcc_threadpool *pool2 = tfcc_test_pool(2);
  int tested = 0;
  TFCC_EACH_VARIANT(tfcc_f32_gemm, k, best) {
    tested++;
    test_epilogue(k);
    const float lo[3] = {-INFINITY, 0.0f, 0.0f}, hi[3] = {INFINITY, INFINITY, 6.0f};
    for (int a = 0; a < 3; a++) {
      tfcc_threadpool *pool = a == 1 ? pool2 : NULL;
      /* 1x1 in place: ResNet's conv3 shape scaled down (odd M = 49, N = 37, K = 64), stride 2,
       * one output pixel (GEMV), N = 16 tail, M = 12q + 3 */
      test_conv(k, pool, 7, 7, 64, 37, 1, 1, false, lo[a], hi[a]);
      test_conv(k, pool2, 9, 9, 29, 70, 1, 2, false, lo[a], hi[a]);
      test_conv(k, pool, 1, 1, 13, 11, 1, 1, false, lo[a], hi[a]);
      test_conv(k, pool, 5, 3, 20, 48, 1, 1, false, lo[a], hi[a]);
      /* several K blocks, tile order (weights in L2) and K-block order (weights > 1 MiB) */
      test_conv(k, pool, 5, 5, 600, 20, 1, 1, false, lo[a], hi[a]);
      test_conv(k, pool2, 7, 9, 1100, 300, 1, 1, false, lo[a], hi[a]);
      /* im2col: 3x3 SAME, odd sizes, one row group and several */
      test_conv(k, pool, 6, 7, 5, 37, 3, 1, true, lo[a], hi[a]);
      test_conv(k, pool2, 20, 21, 64, 40, 3, 1, true, lo[a], hi[a]);
    }
  }
  CHECK(tested >= 1);
  printf("%d f32 GEMM kernels tested with a residual at CPU level %s\n", tested,
         tfcc_isa_name(best));
  tfcc_threadpool_destroy(pool2);
  return tfcc_test_finish("test_f32_conv_residual");
}
