/* bf16 GEMM and convolution (precision bf16): the float32 -> bf16 rounding, dispatch (never
 * above the cap, never AMX without AMX and the OS's permission, never the emulation), and every
 * kernel this CPU can run against
 *   - a reference computing with bf16-rounded inputs in double precision (tight: 1e-5 of the
 *     sum of |products|, float32 accumulation order), and
 *   - the float32 result on the unrounded inputs (loose: each product carries two roundings to
 *     8 significant bits, each at most 2^-8 relative, so |error| <= ~7.8e-3 * sum |products|;
 *     checked at 8e-3),
 * on odd sizes, half-empty panels, GEMV rows, 1x1 / KxK / strided / dilated / padded
 * convolutions, im2col groups, inline and on a 2-thread pool. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cpu/cpu_info.h"
#include "kernels/bf16-gemm/conv.h"
#include "kernels/bf16-gemm/gemm.h"
#include "kernels/ref/conv.h"
#include "base/threadpool.h"
#include "kernel_test_main.h"
#include "test_harness.h"

static uint32_t rng = 4242u;
static float frand(void) {
  rng = rng * 1664525u + 1013904223u;
  return (float)((rng >> 8) & 0xFFFFFF) / 8388608.0f - 1.0f; /* 24 random bits: not bf16 */
}
static void fill(float *p, size_t n) {
  for (size_t i = 0; i < n; i++) p[i] = frand();
}
static float r16(float x) { return tfcc_bf16_to_f32(tfcc_bf16_from_f32(x)); }
static float from_bits(uint32_t b) {
  float f;
  memcpy(&f, &b, sizeof f);
  return f;
}

static void test_rounding(void) {
  CHECK(tfcc_bf16_from_f32(1.0f) == 0x3f80);
  CHECK(tfcc_bf16_from_f32(-2.0f) == 0xc000);
  CHECK(tfcc_bf16_from_f32(from_bits(0x3f808000u)) == 0x3f80); /* tie: to even (down) */
  CHECK(tfcc_bf16_from_f32(from_bits(0x3f818000u)) == 0x3f82); /* tie: to even (up) */
  CHECK(tfcc_bf16_from_f32(from_bits(0x3f808001u)) == 0x3f81); /* above the tie */
  CHECK(tfcc_bf16_from_f32(from_bits(0x3f807fffu)) == 0x3f80);
  CHECK(tfcc_bf16_from_f32(from_bits(0x7f7fffffu)) == 0x7f80); /* FLT_MAX rounds to inf */
  CHECK(tfcc_bf16_from_f32(INFINITY) == 0x7f80);
  CHECK(tfcc_bf16_from_f32(-INFINITY) == 0xff80);
  CHECK((tfcc_bf16_from_f32(NAN) & 0x7fc0) == 0x7fc0);         /* quiet NaN */
  CHECK(tfcc_bf16_from_f32(from_bits(0x7f800001u)) == 0x7fc0); /* signalling NaN: quieted */
  CHECK(tfcc_bf16_from_f32(from_bits(0x00400000u)) == 0x0000); /* subnormal: zero */
  CHECK(tfcc_bf16_from_f32(from_bits(0x807fffffu)) == 0x8000);
  CHECK(tfcc_bf16_from_f32(from_bits(0x00800000u)) == 0x0080); /* smallest normal stays */
  CHECK(tfcc_bf16_to_f32(0x3f80) == 1.0f);
  /* every kernel's vector conversion equals the scalar one, any length (tails) */
  enum { N = 1000 };
  float src[N];
  uint16_t want[N], got[N + 1];
  uint32_t x = 99u;
  for (int i = 0; i < N; i++) {
    x = x * 1664525u + 1013904223u;
    src[i] = from_bits(i % 7 == 0 ? (x & 0x807fffffu) : x); /* every 7th subnormal */
  }
  tfcc_bf16_cvt_scalar(src, want, N);
  TFCC_EACH_VARIANT_IF(tfcc_bf16_gemm, k, tfcc_cpu_dispatch_isa(TFCC_ISA_COUNT_),
                       tfcc_bf16_gemm_runnable(k)) {
    for (int n = 0; n <= 70; n++) {
      got[n] = 0xABCD;
      k->cvt(src + 3, got, (size_t)n);
      int bad = 0;
      for (int i = 0; i < n; i++) bad += got[i] != want[i + 3];
      CHECKF(bad == 0 && got[n] == 0xABCD, "%s cvt n=%d: %d differ or wrote past", k->name, n, bad);
    }
    k->cvt(src, got, N);
    CHECKF(memcmp(got, want, sizeof want) == 0, "%s cvt 1000 values", k->name);
  }
}

static void test_dispatch(void) {
  const tfcc_cpu_info *c = tfcc_cpu();
  const bool has_bf16 = tfcc_cpu_has(c, TFCC_CPU_AVX512BF16) && c->best_isa == TFCC_ISA_AVX512;
  const bool has_amx =
      tfcc_cpu_has(c, TFCC_CPU_AMXTILE) && tfcc_cpu_has(c, TFCC_CPU_AMXBF16) && c->amx_permitted;
  for (int cap = 0; cap <= TFCC_ISA_COUNT_; cap++) {
    const tfcc_isa level = tfcc_cpu_dispatch_isa((tfcc_isa)cap);
    const tfcc_bf16_gemm_kernel *k = tfcc_bf16_gemm_select(level);
    const char *why = tfcc_bf16_gemm_unavailable(level);
    CHECKF((k == NULL) == (why != NULL), "cap %d: select and unavailable disagree", cap);
    if (level != TFCC_ISA_AVX512 || !has_bf16) {
      CHECKF(k == NULL, "cap %s: bf16 kernel %s chosen below avx512 / without AVX512-BF16",
             tfcc_isa_name(level), k ? k->name : "");
      continue;
    }
    CHECKF(k != NULL, "AVX512-BF16 CPU at avx512: no bf16 kernel");
    if (!k) continue;
    CHECK(!k->test_only);
    CHECK(tfcc_bf16_gemm_runnable(k));
    CHECKF(!k->amx || has_amx, "%s chosen without AMX-BF16 and the OS's permission", k->name);
    if (has_amx) CHECKF(k->amx, "AMX available but %s chosen", k->name);
    printf("cap %s: %s\n", tfcc_isa_name(level), k->name);
  }
  for (int ki = 0; ki < tfcc_bf16_gemm_kernel_count(); ki++) {
    const tfcc_bf16_gemm_kernel *k = tfcc_bf16_gemm_kernel_at(ki);
    CHECK(k->kalign % 2 == 0 && k->nr % 16 == 0);
    if (k->amx && !has_amx)
      printf("%s: compiled, NOT executed (this CPU/OS has no AMX-BF16 tile permission)\n", k->name);
  }
}

/* C = A x B + bias with bf16 inputs: checks against both references (see the file comment). */
static void test_gemm(const tfcc_bf16_gemm_kernel *k, tfcc_threadpool *pool, int M, int N, int K,
                      bool with_bias, float lo, float hi, double *max_rel16) {
  float *a = malloc(sizeof(float) * (size_t)(M * K + 1));
  float *w = malloc(sizeof(float) * (size_t)(N * K + 1));
  float *bias = malloc(sizeof(float) * (size_t)(N + 1));
  const size_t c_stride = (size_t)N + 3; /* output rows wider than N: columns past N untouched */
  float *c = malloc(sizeof(float) * ((size_t)M * c_stride + 1));
  fill(a, (size_t)M * K);
  fill(w, (size_t)N * K);
  fill(bias, (size_t)N);
  for (size_t i = 0; i < (size_t)M * c_stride; i++) c[i] = 777.0f;
  tfcc_bf16_packed p;
  CHECK(tfcc_bf16_pack(k, N, K, w, (size_t)K, 1, with_bias ? bias : NULL, &p));
  const size_t sb = tfcc_bf16_gemm_scratch_bytes(&p, M, tfcc_threadpool_size(pool));
  void *scratch = aligned_alloc(64, sb ? sb : 64);
  memset(scratch, 0x5A, sb);
  tfcc_bf16_gemm(pool, &p, M, a, (size_t)K, c, c_stride, lo, hi, scratch);
  int bad = 0;
  for (int m = 0; m < M; m++) {
    for (int n = 0; n < N; n++) {
      double s16 = with_bias ? bias[n] : 0.0, s32 = s16, mag = fabs(s16);
      for (int kk = 0; kk < K; kk++) {
        const float x = a[m * K + kk], y = w[n * K + kk];
        s16 += (double)r16(x) * r16(y);
        s32 += (double)x * y;
        mag += fabs((double)x * y);
      }
      s16 = s16 < lo ? lo : s16 > hi ? hi : s16;
      s32 = s32 < lo ? lo : s32 > hi ? hi : s32;
      const float got = c[(size_t)m * c_stride + (size_t)n];
      const double e16 = fabs(got - s16), e32 = fabs(got - s32);
      if (e16 / (mag + 1e-30) > *max_rel16) *max_rel16 = e16 / (mag + 1e-30);
      if ((e16 > 1e-5 * mag + 1e-6 || e32 > 8e-3 * mag + 1e-6) && bad++ < 3)
        fprintf(stderr,
                "%s M=%d N=%d K=%d: c[%d][%d] = %.8g, want %.8g (bf16 inputs), %.8g (f32)\n",
                k->name, M, N, K, m, n, got, s16, s32);
    }
    for (size_t n = (size_t)N; n < c_stride; n++)
      if (c[(size_t)m * c_stride + n] != 777.0f && bad++ < 3)
        fprintf(stderr, "%s M=%d N=%d K=%d: wrote past column N\n", k->name, M, N, K);
  }
  CHECKF(bad == 0, "%s M=%d N=%d K=%d: %d wrong", k->name, M, N, K, bad);
  free(scratch);
  tfcc_bf16_packed_free(&p);
  free(a);
  free(w);
  free(bias);
  free(c);
}

static void round_all(float *p, size_t n) {
  for (size_t i = 0; i < n; i++) p[i] = r16(p[i]);
}

static void test_conv(const tfcc_bf16_gemm_kernel *k, tfcc_threadpool *pool, int batches, int ih,
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
  float *in16 = malloc(sizeof(float) * nin), *f16 = malloc(sizeof(float) * nf);
  float *b = malloc(sizeof(float) * (size_t)oc);
  float *want16 = malloc(sizeof(float) * (nout + 1)), *want32 = malloc(sizeof(float) * (nout + 1));
  float *got = malloc(sizeof(float) * (nout + 1));
  fill(in, nin);
  fill(f, nf);
  fill(b, (size_t)oc);
  memcpy(in16, in, sizeof(float) * nin);
  memcpy(f16, f, sizeof(float) * nf);
  round_all(in16, nin);
  round_all(f16, nf);
  tfcc_conv_f32(&g, in16, f16, b, lo, hi, want16);
  tfcc_conv_f32(&g, in, f, b, lo, hi, want32);
  tfcc_bf16_packed p;
  const int K = fh * fw * ic;
  CHECK(tfcc_bf16_pack(k, oc, K, f, (size_t)K, 1, b, &p));
  const size_t sb = tfcc_bf16_conv_scratch_bytes(&g, &p, tfcc_threadpool_size(pool));
  void *scratch = aligned_alloc(64, sb ? sb : 64);
  memset(scratch, 0x5A, sb);
  tfcc_bf16_conv(pool, &g, &p, in, got, lo, hi, scratch);
  int bad = 0;
  for (size_t i = 0; i < nout; i++) {
    /* values in [-1, 1): sum |products| <= K + 1; float32 accumulation in both */
    const double tol16 = 1e-5 * (K + 1) * 2.0 + 1e-5, tol32 = 8e-3 * (K + 1);
    if ((fabs((double)got[i] - want16[i]) > tol16 || fabs((double)got[i] - want32[i]) > tol32) &&
        bad++ < 3)
      fprintf(stderr,
              "%s conv %dx%dx%d->%d f%dx%d s%d,%d d%d,%d: out[%zu] = %g, want %g (f32 %g)\n",
              k->name, ih, iw, ic, oc, fh, fw, sh, sw, dh, dw, i, got[i], want16[i], want32[i]);
  }
  CHECKF(bad == 0, "%s conv %dx%dx%d->%d f%dx%d s%d,%d d%d,%d %s: %d wrong", k->name, ih, iw, ic,
         oc, fh, fw, sh, sw, dh, dw, same ? "SAME" : "VALID", bad);
  free(scratch);
  tfcc_bf16_packed_free(&p);
  free(in);
  free(f);
  free(in16);
  free(f16);
  free(b);
  free(want16);
  free(want32);
  free(got);
}

int main(void) {
  tfcc_threadpool *pool2 = tfcc_test_pool(2);
  test_rounding();
  test_dispatch();
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
                                 {16, 48, 64},
                                 {33, 40, 100},
                                 /* half-full panels: N = 16 and a 16-column tail */
                                 {12, 16, 32},
                                 {20, 144, 24},
                                 {9, 40, 7}};
  int tested = 0;
  TFCC_EACH_VARIANT_IF(tfcc_bf16_gemm, k, tfcc_cpu_dispatch_isa(TFCC_ISA_COUNT_),
                       tfcc_bf16_gemm_runnable(k)) {
    tested++;
    double max_rel16 = 0.0;
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
      const int M = sizes[s][0], N = sizes[s][1], K = sizes[s][2];
      test_gemm(k, NULL, M, N, K, true, -INFINITY, INFINITY, &max_rel16);
      test_gemm(k, pool2, M, N, K, s % 2 == 0, 0.0f, 6.0f, &max_rel16);
      test_gemm(k, NULL, M, N, K, false, -1.0f, 1.0f, &max_rel16);
    }
    printf("%s: GEMM max |error| vs bf16-input reference = %.3g of sum |products|\n", k->name,
           max_rel16);
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
    if (k->test_only) continue; /* the emulation is slow: the large cases run on SIMD kernels */
    /* weights over one L2 column block (K = 2700, N = 200: 1.08 MB of bf16): im2col groups
     * of 96 rows (121 rows: a full group and a partial one), inline and threaded */
    test_conv(k, NULL, 1, 11, 11, 300, 200, 3, 3, 1, 1, 1, 1, true, 0.0f, 6.0f);
    test_conv(k, pool2, 1, 11, 11, 300, 200, 3, 3, 1, 1, 1, 1, true, -INFINITY, INFINITY);
    test_conv(k, pool2, 1, 20, 21, 64, 40, 3, 3, 1, 1, 1, 1, true, -INFINITY, INFINITY);
  }
  CHECK(tested >= 1);
  printf("%d bf16 GEMM kernels tested\n", tested);
  tfcc_threadpool_destroy(pool2);
  return tfcc_test_finish("test_bf16_gemm");
}
