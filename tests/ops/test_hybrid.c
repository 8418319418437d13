/* Dynamic-range ("hybrid") quantization (docs/quantization.md "Hybrid"):
 * - run-time activation quantization (kernels/hybrid/quantize.h): the three schemes on
 *   hand-checked values, and the vectorised qd8 path equal to the portable one on every
 *   QUANTIZE kernel this CPU runs;
 * - the q8 GEMM's hybrid output stage (tfcc_q8_gemm_hybrid, tfcc_q8_conv_hybrid) against a
 *   straightforward int32 reference with the same float steps, bit for bit, on every usable
 *   q8 GEMM kernel, 1 and 2 threads;
 * - the vectorised sym / asym element (centered int16 output too) and the fast depthwise
 *   kernels equal to the portable ones, bit for bit, on every build this CPU runs;
 * - TFCC_QUANT_COMPAT_REFERENCE against TensorFlow Lite's builtin hybrid kernels (outputs of
 *   the classic interpreter, tests/ops/hybrid_builtin, on the conformance models), and the
 *   default mode bit for bit against LiteRT on the small hybrid networks hybrid_net_* (the
 *   single-op cases *_hybrid_* run in ops_test_conformance);
 * - the vector Eigen-order float FULLY_CONNECTED (kernels/hybrid/fc_eigen.h) equal to the
 *   reference loop (tfcc_fc_f32_eigen), bit for bit, on every variant this CPU runs;
 * - the vector XNNPACK-order float FULLY_CONNECTED (both kernels), BATCH_MATMUL, GELU and
 *   SOFTMAX (kernels/tflite-f32/tflite_f32.h) equal to the portable loops (tfcc_xnn_fc_f32,
 *   tfcc_bmm_f32_xnn, tfcc_gelu_f32_xnn; softmax: the generic build), bit for bit, on every
 *   variant this CPU runs, tails and NaN / -0 / infinities included. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cpu/cpu_info.h"
#include "kernels/hybrid/dwconv.h"
#include "kernels/hybrid/fc_eigen.h"
#include "kernels/hybrid/hyb_out.h"
#include "kernels/hybrid/quantize.h"
#include "kernels/tflite-f32/eigen_f32.h"
#include "kernels/tflite-f32/tflite_f32.h"
#include "kernels/tflite-f32/xnn_exp.h"
#include "kernels/ref/activation.h"
#include "kernels/ref/xnn_log.h"
#include "kernels/q8-dwconv/dwconv.h"
#include "kernels/q8-gemm/gemm.h"
#include "npy_load.h"
#include "base/threadpool.h"
#include "kernel_variants.h"
#include "test_harness.h"
#include "tfcc/tfcc.h"

static uint64_t g_seed = 0x9e3779b97f4a7c15ull;
static uint32_t rnd(void) {
  g_seed ^= g_seed << 13;
  g_seed ^= g_seed >> 7;
  g_seed ^= g_seed << 17;
  return (uint32_t)(g_seed >> 11);
}
static float frand(float lo, float hi) { return lo + (hi - lo) * (float)(rnd() % 1000001) / 1e6f; }

/* ---- quantization schemes */

static void test_schemes(void) {
  const float x[5] = {-1.0f, 0.0f, 0.5f, 2.0f, 3.0f};
  int8_t q[5];
  float scale;
  int32_t zp;
  /* qd8: range [-1, 3], inv = 255 / 4 = 63.75, zero point: -128 + 63.75 = -64.25 -> -64 */
  tfcc_hyb_quantize(TFCC_HYB_QD8, x, 5, q, &scale, &zp, NULL, NULL);
  CHECK(zp == -64);
  CHECK(scale == 1.0f / 63.75f);
  const int8_t want_qd8[5] = {-128, -64, -32, 64, 127}; /* rint(x * 63.75) - 64 (31.875 -> 32) */
  CHECK(memcmp(q, want_qd8, 5) == 0);
  /* sym: r = 3, q = round(x * 127 / 3), half away from zero */
  tfcc_hyb_quantize(TFCC_HYB_SYM, x, 5, q, &scale, &zp, NULL, NULL);
  CHECK(zp == 0 && scale == 3.0f / 127.0f);
  const int8_t want_sym[5] = {-42, 0, 21, 85, 127};
  CHECK(memcmp(q, want_sym, 5) == 0);
  /* asym: scale = 4 / 255 (double), zero point -128 + 63.75 -> -64 (round), half away */
  tfcc_hyb_quantize(TFCC_HYB_ASYM, x, 5, q, &scale, &zp, NULL, NULL);
  CHECK(zp == -64 && scale == (float)(4.0 / 255.0));
  CHECK(q[0] == -128 && q[1] == -64 && q[4] == 127);
  /* all zeros: every q is the zero point, the accumulator stays 0 */
  const float z[3] = {0.0f, 0.0f, 0.0f};
  for (int s = 0; s <= 2; s++) {
    tfcc_hyb_quantize((tfcc_hyb_scheme)s, z, 3, q, &scale, &zp, NULL, NULL);
    CHECK(scale == 1.0f && q[0] == zp && q[1] == zp && q[2] == zp);
  }
  /* NaN and infinite activations (a hostile or broken model): every scheme gives defined
   * values (UBSan checks the conversions), NaN at the low bound as TFLite's x86 conversion */
  const float nf[4] = {NAN, 1.0f, -INFINITY, INFINITY};
  for (int s = 0; s <= 2; s++) {
    tfcc_hyb_quantize((tfcc_hyb_scheme)s, nf, 4, q, &scale, &zp, NULL, NULL);
    CHECKF(zp >= -128 && zp <= 127, "scheme %d zp %d", s, (int)zp);
    tfcc_hyb_quantize((tfcc_hyb_scheme)s, nf, 1, q, &scale, &zp, NULL, NULL);
    CHECKF(zp >= -128 && zp <= 127, "scheme %d NaN alone zp %d", s, (int)zp);
  }
  tfcc_hyb_quantize(TFCC_HYB_SYM, (const float[2]){2.0f, NAN}, 2, q, &scale, &zp, NULL, NULL);
  CHECK(q[0] == 127 && q[1] == -127);
  tfcc_hyb_quantize(TFCC_HYB_ASYM, (const float[2]){2.0f, NAN}, 2, q, &scale, &zp, NULL, NULL);
  CHECK(q[0] == 127 && q[1] == -128);
  /* all positive: the range still includes 0 (zero point -128) */
  const float p[2] = {1.0f, 2.0f};
  tfcc_hyb_quantize(TFCC_HYB_QD8, p, 2, q, &scale, &zp, NULL, NULL);
  CHECK(zp == -128 && q[1] == 127);
  /* the vectorised element is the portable one */
  enum { N = 1003 };
  float *v = malloc(N * sizeof(float));
  int8_t *a = malloc(N), *b = malloc(N);
  CHECK(v && a && b);
  if (!v || !a || !b) goto out;
  for (int i = 0; i < N; i++) v[i] = frand(-3.7f, 11.0f);
  v[17] = 0.5f; /* ties */
  v[18] = -0.5f;
  TFCC_EACH_VARIANT_IF(tfcc_qz, k, tfcc_cpu_dispatch_isa(TFCC_ISA_COUNT_),
                       tfcc_qz_usable(k, tfcc_cpu_dispatch_isa(TFCC_ISA_COUNT_))) {
    for (size_t n = 1; n <= N; n += 97) {
      float s1, s2;
      int32_t z1, z2;
      tfcc_hyb_quantize(TFCC_HYB_QD8, v, n, a, &s1, &z1, NULL, NULL);
      tfcc_hyb_quantize(TFCC_HYB_QD8, v, n, b, &s2, &z2, k, NULL);
      CHECKF(s1 == s2 && z1 == z2 && memcmp(a, b, n) == 0, "%s n=%zu", k->name, n);
      const tfcc_hyb_minmax_fn mms[3] = {
          tfcc_hyb_minmax_scalar, tfcc_hyb_minmax_select(tfcc_cpu_dispatch_isa(TFCC_ISA_COUNT_)),
          tfcc_isa_level_fits(TFCC_ISA_AVX2, tfcc_cpu_dispatch_isa(TFCC_ISA_COUNT_))
              ? tfcc_hyb_minmax_select(TFCC_ISA_AVX2)
              : tfcc_hyb_minmax_scalar};
      for (int m = 0; m < 3; m++) {
        tfcc_hyb_quantize(TFCC_HYB_QD8, v, n, b, &s2, &z2, k, mms[m]);
        CHECKF(s1 == s2 && z1 == z2 && memcmp(a, b, n) == 0, "%s minmax %d n=%zu", k->name, m, n);
      }
    }
  }
out:
  free(v);
  free(a);
  free(b);
}

/* ---- hybrid GEMM output stage */

static tfcc_q8_hybrid_row_fn g_row;   /* the row function under test (NULL: the driver's own) */
static tfcc_q8_hybrid_tile_fn g_tile; /* the tile function under test (NULL: row by row) */
static int g_stream;                  /* tfcc_q8_hybrid.stream of the cases */
static size_t g_out_off;              /* the output this many floats past a 64-byte boundary */

/* Room for n output floats at g_out_off (< 16) floats past a 64-byte boundary, every byte
 * 0xFF (a NaN no arithmetic makes): the output goes at the pointer returned + g_out_off. */
static float *out_alloc(size_t n) {
  const size_t bytes = ((n + 16) * sizeof(float) + 63) & ~(size_t)63;
  float *b = aligned_alloc(64, bytes);
  if (b) memset(b, 0xFF, bytes);
  return b;
}

/* Whether nothing was written around the n output floats of out_alloc(n)'s b. */
static bool out_guard_ok(const float *b, size_t n) {
  const size_t bytes = ((n + 16) * sizeof(float) + 63) & ~(size_t)63;
  const unsigned char *u = (const unsigned char *)b;
  for (size_t i = 0; i < bytes; i++)
    if ((i < g_out_off * sizeof(float) || i >= (g_out_off + n) * sizeof(float)) && u[i] != 0xFF)
      return false;
  return true;
}

static float ref_out(int32_t acc, float s, float fs, const float *bias, int n, bool combined,
                     float lo, float hi) {
  float v;
  if (combined) {
    const float m = s * fs;
    v = (float)acc * m;
  } else {
    const float t = (float)acc * s;
    v = t * fs;
  }
  if (bias) v = v + bias[n];
  return v < lo ? lo : v > hi ? hi : v;
}

/* One conv case: in [B, H, W, C] int8 (quantized per image), filter [N, kh, kw, C]. */
static void conv_case(const tfcc_q8_gemm_kernel *k, tfcc_threadpool *pool, int B, int H, int W,
                      int C, int N, int kh, int kw, int stride, int pad, bool per_channel,
                      bool combined, bool with_bias) {
  tfcc_conv_geom g = {0};
  g.batches = B;
  g.in_h = H;
  g.in_w = W;
  g.in_c = C;
  g.out_c = N;
  g.filter_h = kh;
  g.filter_w = kw;
  g.filter_in_c = C;
  g.stride_h = g.stride_w = stride;
  g.dil_h = g.dil_w = 1;
  g.pad_h = g.pad_w = pad;
  g.out_h = (H + 2 * pad - kh) / stride + 1;
  g.out_w = (W + 2 * pad - kw) / stride + 1;
  const int K = kh * kw * C;
  const size_t rows = (size_t)g.out_h * g.out_w, in_img = (size_t)H * W * C;
  int8_t *x = malloc((size_t)B * in_img), *w = malloc((size_t)N * K);
  float *fs = malloc(N * sizeof(float)), *bias = malloc(N * sizeof(float));
  float *out_buf = out_alloc((size_t)B * rows * N), *out = out_buf ? out_buf + g_out_off : NULL;
  float scale[4];
  int32_t zp[4], *wsum = malloc(N * sizeof(int32_t));
  CHECK(x && w && fs && bias && out && wsum && B <= 4);
  for (size_t i = 0; i < (size_t)B * in_img; i++) x[i] = (int8_t)(rnd() % 256 - 128);
  for (int i = 0; i < N * K; i++) w[i] = (int8_t)(rnd() % 255 - 127);
  for (int n = 0; n < N; n++) {
    fs[n] = frand(0.001f, 0.02f);
    bias[n] = frand(-1.0f, 1.0f);
    int32_t s = 0;
    for (int kk = 0; kk < K; kk++) s += w[n * K + kk];
    wsum[n] = s;
  }
  for (int b = 0; b < B; b++) {
    zp[b] = (int32_t)(rnd() % 256) - 128;
    scale[b] = frand(0.001f, 0.1f);
  }
  tfcc_conv_requant r;
  memset(&r, 0, sizeof r);
  tfcc_q8_packed p;
  if (!tfcc_q8_pack(k, true, N, K, w, NULL, &r, &p)) {
    CHECK(!"pack");
    return;
  }
  tfcc_q8_hybrid h = {out,
                      (size_t)N,
                      zp,
                      scale,
                      1,
                      wsum,
                      fs,
                      per_channel ? 1u : 0u,
                      with_bias ? bias : NULL,
                      -INFINITY,
                      INFINITY,
                      combined,
                      g_row,
                      g_tile,
                      g_stream,
                      NULL};
  if (N % 3 == 0) h.lo = -0.5f, h.hi = 6.0f;
  void *scratch = malloc(tfcc_q8_hybrid_scratch_bytes(&g, &p, tfcc_threadpool_size(pool)) + 64);
  tfcc_q8_conv_hybrid(pool, &g, &p, &h, x, scratch);
  int bad = 0;
  for (int b = 0; b < B && bad < 3; b++)
    for (int oy = 0; oy < g.out_h; oy++)
      for (int ox = 0; ox < g.out_w; ox++)
        for (int n = 0; n < N; n++) {
          int32_t acc = 0;
          for (int ky = 0; ky < kh; ky++)
            for (int kx = 0; kx < kw; kx++) {
              const int iy = oy * stride - pad + ky, ix = ox * stride - pad + kx;
              if (iy < 0 || iy >= H || ix < 0 || ix >= W) continue; /* zero point: adds 0 */
              for (int c = 0; c < C; c++)
                acc += (x[b * in_img + ((size_t)iy * W + ix) * C + c] - zp[b]) *
                       w[((n * kh + ky) * kw + kx) * C + c];
            }
          const float want = ref_out(acc, scale[b], fs[per_channel ? n : 0],
                                     with_bias ? bias : NULL, n, combined, h.lo, h.hi);
          const float got = out[((size_t)b * rows + (size_t)oy * g.out_w + ox) * N + n];
          if (got != want && bad++ < 3)
            CHECKF(got == want, "%s conv B%d %dx%dx%d N%d k%dx%d s%d p%d: [%d,%d,%d,%d] %g vs %g",
                   k->name, B, H, W, C, N, kh, kw, stride, pad, b, oy, ox, n, got, want);
        }
  CHECK(bad == 0);
  CHECKF(out_guard_ok(out_buf, (size_t)B * rows * N), "%s conv: written outside the output",
         k->name);
  free(scratch);
  tfcc_q8_packed_free(&p);
  free(x);
  free(w);
  free(fs);
  free(bias);
  free(out_buf);
  free(wsum);
}

/* Plain GEMM, one quantization group per row. */
static void gemm_case(const tfcc_q8_gemm_kernel *k, tfcc_threadpool *pool, int M, int K, int N,
                      bool per_channel, bool combined) {
  int8_t *x = malloc((size_t)M * K), *w = malloc((size_t)N * K);
  float *fs = malloc(N * sizeof(float)), *out_buf = out_alloc((size_t)M * N);
  float *out = out_buf ? out_buf + g_out_off : NULL, *scale = malloc(M * sizeof(float));
  int32_t *zp = malloc(M * sizeof(int32_t)), *wsum = malloc(N * sizeof(int32_t));
  CHECK(x && w && fs && out && scale && zp && wsum);
  for (size_t i = 0; i < (size_t)M * K; i++) x[i] = (int8_t)(rnd() % 256 - 128);
  for (int i = 0; i < N * K; i++) w[i] = (int8_t)(rnd() % 255 - 127);
  for (int n = 0; n < N; n++) {
    fs[n] = frand(0.001f, 0.02f);
    int32_t s = 0;
    for (int kk = 0; kk < K; kk++) s += w[n * K + kk];
    wsum[n] = s;
  }
  for (int m = 0; m < M; m++) {
    zp[m] = (int32_t)(rnd() % 256) - 128;
    scale[m] = frand(0.001f, 0.1f);
  }
  /* rows whose outputs are NaN and +-inf (an input with NaN or inf gives such scales): a
     linear layer's output stage passes them as the portable clamps do (bits compared) */
  if (M >= 3) scale[0] = NAN, scale[1] = INFINITY;
  tfcc_conv_requant r;
  memset(&r, 0, sizeof r);
  tfcc_q8_packed p;
  if (!tfcc_q8_pack(k, true, N, K, w, NULL, &r, &p)) {
    CHECK(!"pack");
    return;
  }
  tfcc_q8_hybrid h = {
      out,  (size_t)N, zp,       scale,    1,     wsum,   fs,       per_channel ? 1u : 0u,
      NULL, -INFINITY, INFINITY, combined, g_row, g_tile, g_stream, NULL};
  void *scratch = malloc(tfcc_q8_hybrid_scratch_bytes(NULL, &p, tfcc_threadpool_size(pool)) + 64);
  tfcc_q8_gemm_hybrid(pool, &p, &h, M, x, (size_t)K, scratch);
  int bad = 0;
  for (int m = 0; m < M; m++)
    for (int n = 0; n < N; n++) {
      int32_t acc = 0;
      for (int kk = 0; kk < K; kk++) acc += (x[(size_t)m * K + kk] - zp[m]) * w[n * K + kk];
      const float want =
          ref_out(acc, scale[m], fs[per_channel ? n : 0], NULL, n, combined, -INFINITY, INFINITY);
      if (memcmp(&out[(size_t)m * N + n], &want, sizeof want) != 0 && bad++ < 3)
        CHECKF(0, "%s gemm %dx%dx%d: [%d,%d] %g vs %g", k->name, M, K, N, m, n,
               out[(size_t)m * N + n], want);
    }
  CHECK(bad == 0);
  CHECKF(out_guard_ok(out_buf, (size_t)M * N), "%s gemm %dx%dx%d: written outside the output",
         k->name, M, K, N);
  /* as ops/hybrid.c feeds it: uint8 x + 128 against uint8 w + 128 with filter offset -128,
     zero points + 128 (no row term on x86); the same outputs */
  {
    uint8_t *xu = malloc((size_t)M * K), *wu = malloc((size_t)N * K);
    int32_t *zpu = malloc(M * sizeof(int32_t));
    float *out2_buf = out_alloc((size_t)M * N), *out2 = out2_buf ? out2_buf + g_out_off : NULL;
    CHECK(xu && wu && zpu && out2);
    for (size_t i = 0; i < (size_t)M * K; i++) xu[i] = (uint8_t)x[i] ^ 0x80u;
    for (size_t i = 0; i < (size_t)N * K; i++) wu[i] = (uint8_t)w[i] ^ 0x80u;
    for (int m = 0; m < M; m++) zpu[m] = zp[m] + 128;
    tfcc_conv_requant ru;
    memset(&ru, 0, sizeof ru);
    ru.filter_offset = -128;
    tfcc_q8_packed pu;
    CHECK(tfcc_q8_pack(k, false, N, K, wu, NULL, &ru, &pu));
    tfcc_q8_hybrid hu = h;
    hu.c = out2;
    hu.zp = zpu;
    void *su = malloc(tfcc_q8_hybrid_scratch_bytes(NULL, &pu, tfcc_threadpool_size(pool)) + 64);
    tfcc_q8_gemm_hybrid(pool, &pu, &hu, M, xu, (size_t)K, su);
    CHECKF(memcmp(out, out2, (size_t)M * N * sizeof(float)) == 0,
           "%s gemm %dx%dx%d: uint8 activations differ from int8", k->name, M, K, N);
    /* the float column sums (wsumf, as ops/hybrid.c sets them for such kernels and depths):
       the same outputs */
    float *wf = malloc(N * sizeof(float));
    CHECK(wf);
    if (wf && K <= TFCC_Q8_HYB_FMA_MAX_K && k->w_xor == 0x80u && k->x_xor == 0) {
      for (int n = 0; n < N; n++) wf[n] = (float)wsum[n];
      memset(out2, 0, (size_t)M * N * sizeof(float));
      hu.wsumf = wf;
      tfcc_q8_gemm_hybrid(pool, &pu, &hu, M, xu, (size_t)K, su);
      CHECKF(memcmp(out, out2, (size_t)M * N * sizeof(float)) == 0,
             "%s gemm %dx%dx%d: float column sums differ", k->name, M, K, N);
    }
    free(wf);
    free(su);
    tfcc_q8_packed_free(&pu);
    free(xu), free(wu), free(zpu), free(out2_buf);
  }
  free(scratch);
  tfcc_q8_packed_free(&p);
  free(x);
  free(w);
  free(fs);
  free(out_buf);
  free(scale);
  free(zp);
  free(wsum);
}

static void test_gemm(void) {
  tfcc_threadpool *pool2 = NULL;
  tfcc_err err = {0};
  CHECK(tfcc_threadpool_create(2, NULL, 0, &pool2, &err) == TFCC_OK);
  const tfcc_isa best = tfcc_cpu_dispatch_isa(TFCC_ISA_COUNT_);
  (void)best; /* only the x86 variants below read it */
  /* variants 0-3: row functions (driver's, scalar, avx2, avx512); 4-6: tile functions */
  tfcc_q8_hybrid_row_fn rows[4] = {NULL, tfcc_hyb_out_row_scalar, NULL, NULL};
  tfcc_q8_hybrid_tile_fn tiles[3] = {tfcc_hyb_out_tile_scalar, NULL, NULL};
#if defined(__x86_64__) || defined(__i386__)
  if (tfcc_isa_level_fits(TFCC_ISA_AVX2, best)) rows[2] = tfcc_hyb_out_row_avx2;
  if (tfcc_isa_level_fits(TFCC_ISA_AVX512, best)) rows[3] = tfcc_hyb_out_row_avx512;
  if (tfcc_isa_level_fits(TFCC_ISA_AVX2, best)) tiles[1] = tfcc_hyb_out_tile_avx2;
  if (tfcc_isa_level_fits(TFCC_ISA_AVX512, best)) tiles[2] = tfcc_hyb_out_tile_avx512;
#endif
  for (int ri = 0; ri < 7; ri++) {
    if (ri < 4 ? ri > 1 && !rows[ri] : !tiles[ri - 4]) continue;
    g_row = ri < 4 ? rows[ri] : NULL;
    g_tile = ri < 4 ? NULL : tiles[ri - 4];
    for (int i = 0; i < tfcc_q8_gemm_kernel_count(); i++) {
      const tfcc_q8_gemm_kernel *k = tfcc_q8_gemm_kernel_at(i);
      /* AMX panels are 64 columns, wider than the c32 tile the hybrid stage reads; the
       hybrid operators never select them */
      if (!tfcc_q8_gemm_usable(k, tfcc_cpu_dispatch_isa(TFCC_ISA_COUNT_)) || tfcc_q8_gemm_is_amx(k))
        continue;
      for (int t = 0; t < 2; t++) {
        tfcc_threadpool *pool = t ? pool2 : NULL;
        gemm_case(k, pool, 1, 7, 5, false, false);
        gemm_case(k, pool, 37, 70, 45, true, false);
        gemm_case(k, pool, 200, 129, 67, true, true);
        gemm_case(k, pool, 3, 1000, 300, false, true); /* panels outer */
        conv_case(k, pool, 1, 9, 8, 5, 7, 3, 3, 1, 1, false, false, true);
        conv_case(k, pool, 2, 9, 11, 3, 12, 3, 3, 2, 1, true, false, true);
        conv_case(k, pool, 2, 6, 5, 16, 33, 3, 3, 1, 1, true, true, false);
        conv_case(k, pool, 1, 5, 6, 9, 6, 1, 1, 1, 0, true, false, true); /* 1x1: rows in place */
        conv_case(k, pool, 3, 4, 4, 40, 8, 2, 2, 2, 0, false, false, true);
        conv_case(k, pool, 1, 40, 40, 8, 16, 3, 3, 1, 1, true, false, true);
      }
    }
  }
  tfcc_threadpool_destroy(pool2);
}

/* The float column sums (tfcc_q8_hybrid.wsumf) at the largest accumulators they allow: depth
 * TFCC_Q8_HYB_FMA_MAX_K and one less, activation bytes 255 and 0 against weights -128 and
 * 127 (|acc| up to 514 * 255 * 128, one below 2^24), zero points at both ends, and random
 * rows; every output against the integer reference, on every u8 x s8 kernel with the
 * register stage and on the others (which ignore wsumf). */
static void test_wsumf_extremes(void) {
  g_row = NULL;
  g_tile = NULL;
  g_stream = TFCC_Q8_STREAM_AUTO;
  g_out_off = 0;
  const int M = 19, N = 37;
  for (int i = 0; i < tfcc_q8_gemm_kernel_count(); i++) {
    const tfcc_q8_gemm_kernel *k = tfcc_q8_gemm_kernel_at(i);
    if (!tfcc_q8_gemm_usable(k, tfcc_cpu_dispatch_isa(TFCC_ISA_COUNT_)) || tfcc_q8_gemm_is_amx(k) ||
        k->w_xor != 0x80u || k->x_xor != 0)
      continue;
    for (int K = TFCC_Q8_HYB_FMA_MAX_K - 1; K <= TFCC_Q8_HYB_FMA_MAX_K; K++) {
      uint8_t *xu = malloc((size_t)M * K), *wu = malloc((size_t)N * K);
      int32_t *zp = malloc(M * sizeof(int32_t)), *wsum = malloc(N * sizeof(int32_t));
      float *wf = malloc(N * sizeof(float)), *fs = malloc(N * sizeof(float));
      float *scale = malloc(M * sizeof(float)), *out = malloc((size_t)M * N * sizeof(float));
      CHECK(xu && wu && zp && wsum && wf && fs && scale && out);
      if (!(xu && wu && zp && wsum && wf && fs && scale && out)) return;
      for (int m = 0; m < M; m++) {
        const int kind = m % 4; /* 255s, 0s, alternating, random */
        for (int kk = 0; kk < K; kk++)
          xu[(size_t)m * K + kk] = (uint8_t)(kind == 0   ? 255
                                             : kind == 1 ? 0
                                             : kind == 2 ? (kk & 1 ? 255 : 0)
                                                         : rnd() % 256);
        zp[m] = m % 3 == 0 ? 0 : m % 3 == 1 ? 255 : (int32_t)(rnd() % 256);
        scale[m] = frand(0.001f, 0.1f);
      }
      for (int n = 0; n < N; n++) {
        const int kind = n % 4; /* -128s, 127s, alternating, random */
        int32_t sum = 0;
        for (int kk = 0; kk < K; kk++) {
          const int32_t v = kind == 0   ? -128
                            : kind == 1 ? 127
                            : kind == 2 ? (kk & 1 ? -128 : 127)
                                        : (int32_t)(rnd() % 256) - 128;
          wu[(size_t)n * K + kk] = (uint8_t)v ^ 0x80u;
          sum += v;
        }
        wsum[n] = sum;
        wf[n] = (float)sum;
        fs[n] = frand(0.001f, 0.02f);
      }
      tfcc_conv_requant r;
      memset(&r, 0, sizeof r);
      r.filter_offset = -128;
      tfcc_q8_packed p;
      CHECK(tfcc_q8_pack(k, false, N, K, wu, NULL, &r, &p));
      tfcc_q8_hybrid h;
      memset(&h, 0, sizeof h);
      h.c = out;
      h.c_stride = (size_t)N;
      h.zp = zp;
      h.scale = scale;
      h.rows_per_group = 1;
      h.wsum = wsum;
      h.wsumf = wf;
      h.fscale = fs;
      h.fscale_stride = 1;
      h.lo = -INFINITY;
      h.hi = INFINITY;
      void *scratch = malloc(tfcc_q8_hybrid_scratch_bytes(NULL, &p, 1) + 64);
      CHECK(scratch);
      tfcc_q8_gemm_hybrid(NULL, &p, &h, M, xu, (size_t)K, scratch);
      int bad = 0;
      for (int m = 0; m < M; m++)
        for (int n = 0; n < N; n++) {
          int32_t acc = 0;
          for (int kk = 0; kk < K; kk++)
            acc += ((int32_t)xu[(size_t)m * K + kk] - zp[m]) *
                   (int32_t)(int8_t)(wu[(size_t)n * K + kk] ^ 0x80u);
          const float want = ref_out(acc, scale[m], fs[n], NULL, n, false, -INFINITY, INFINITY);
          if (memcmp(&out[(size_t)m * N + n], &want, sizeof want) != 0 && bad++ < 3)
            CHECKF(0, "%s wsumf K=%d: [%d,%d] %g vs %g", k->name, K, m, n, out[(size_t)m * N + n],
                   want);
        }
      CHECK(bad == 0);
      free(scratch);
      tfcc_q8_packed_free(&p);
      free(xu), free(wu), free(zp), free(wsum), free(wf), free(fs), free(scale), free(out);
    }
  }
}

/* Streamed float stores (tfcc_q8_hybrid.stream): forced on and off and left to the size
 * rule, outputs aligned and one to fifteen floats past a 64-byte boundary, row lengths that
 * are and are not whole vectors (unaligned heads and masked tails in every row), the
 * convolution's per-image output, 1 and 2 threads; every value against the reference and
 * nothing written around the output. Then the rule's two sides: an output one float short of
 * the threshold and one of exactly the threshold. */
static void test_stream(void) {
  tfcc_threadpool *pool2 = NULL;
  tfcc_err err = {0};
  CHECK(tfcc_threadpool_create(2, NULL, 0, &pool2, &err) == TFCC_OK);
  const int modes[3] = {TFCC_Q8_STREAM_OFF, TFCC_Q8_STREAM_ON, TFCC_Q8_STREAM_AUTO};
  const size_t offs[3] = {0, 1, 15};
  const tfcc_cpu_info *ci = tfcc_cpu();
  const size_t thr = ci && ci->l3_bytes ? ci->l3_bytes : TFCC_Q8_STREAM_MIN_BYTES;
  g_row = NULL;
  g_tile = NULL;
  for (int i = 0; i < tfcc_q8_gemm_kernel_count(); i++) {
    const tfcc_q8_gemm_kernel *k = tfcc_q8_gemm_kernel_at(i);
    if (!tfcc_q8_gemm_usable(k, tfcc_cpu_dispatch_isa(TFCC_ISA_COUNT_)) || tfcc_q8_gemm_is_amx(k))
      continue;
    for (int mi = 0; mi < 3; mi++)
      for (int oi = 0; oi < 3; oi++)
        for (int t = 0; t < 2; t++) {
          tfcc_threadpool *pool = t ? pool2 : NULL;
          g_stream = modes[mi];
          g_out_off = offs[oi];
          gemm_case(k, pool, 31, 64, 64, true, false);  /* whole vectors */
          gemm_case(k, pool, 29, 40, 45, false, true);  /* rows of 45 floats */
          gemm_case(k, pool, 3, 1000, 80, true, false); /* panels outer */
          conv_case(k, pool, 2, 9, 8, 5, 48, 3, 3, 1, 1, true, false, true);
        }
    /* the size rule: an output of thr bytes streams, one float less does not */
    g_stream = TFCC_Q8_STREAM_AUTO;
    g_out_off = 0;
    tfcc_q8_packed p;
    tfcc_conv_requant r;
    memset(&r, 0, sizeof r);
    int8_t w[16 * 8];
    for (int j = 0; j < 16 * 8; j++) w[j] = (int8_t)(rnd() % 255 - 127);
    CHECK(tfcc_q8_pack(k, true, 16, 8, w, NULL, &r, &p));
    tfcc_q8_hybrid h;
    memset(&h, 0, sizeof h);
    const bool kernel_streams = tfcc_q8_gemm_hybrid_epilogue(k);
    CHECKF(tfcc_q8_hybrid_streams(&p, &h, thr) == kernel_streams, "%s: %zu bytes", k->name, thr);
    CHECKF(!tfcc_q8_hybrid_streams(&p, &h, thr - 4), "%s: %zu bytes", k->name, thr - 4);
    h.stream = TFCC_Q8_STREAM_ON;
    CHECK(tfcc_q8_hybrid_streams(&p, &h, 64) == kernel_streams);
    h.stream = TFCC_Q8_STREAM_OFF;
    CHECK(!tfcc_q8_hybrid_streams(&p, &h, thr * 4));
    tfcc_q8_packed_free(&p);
    /* run on both sides (64 columns; a row short) where that is not too large */
    for (int side = 0; side < 2 && kernel_streams && thr <= 64u * 1024u * 1024u; side++)
      gemm_case(k, pool2, (int)(thr / 256) - (side ? 0 : 1), 4, 64, false, false);
  }
  g_stream = TFCC_Q8_STREAM_AUTO;
  g_out_off = 0;
  tfcc_threadpool_destroy(pool2);
}

/* ---- XNNPACK's float LOG (kernels/ref/xnn_log.h) against LiteRT's values (the conformance
   case hybrid_net_log_fc: 4096 inputs in (0, 90]) and on special values */

static void test_xnn_log(void) {
  test_npy in, ref;
  char path[4096], rpath[4096];
  const char *src = tfcc_test_source_dir();
  snprintf(path, sizeof path, "%s/tests/ops/conformance/hybrid_net_log_fc.in0.npy", src);
  snprintf(rpath, sizeof rpath, "%s/tests/ops/conformance/hybrid_net_log_fc.out0.npy", src);
  if (test_npy_load(path, &in) != 0 || test_npy_load(rpath, &ref) != 0) {
    CHECK(!"hybrid_net_log_fc data");
    return;
  }
  const size_t n = in.bytes / sizeof(float);
  float *y = malloc(n * sizeof(float));
  CHECK(y != NULL && ref.bytes == in.bytes);
  if (y && ref.bytes == in.bytes) {
    tfcc_xnn_log_f32((const float *)in.data, y, n);
    size_t bad = 0;
    for (size_t i = 0; i < n; i++) bad += memcmp(&y[i], (const float *)ref.data + i, 4) != 0;
    CHECKF(bad == 0, "xnn log: %zu of %zu differ from LiteRT", bad, n);
  }
  free(y);
  test_npy_free(&in);
  test_npy_free(&ref);
  /* special values, against LiteRT's outputs for them (run_ref.mjs on hybrid_net_log_fc with
     these inputs in front): 0, -0, inf, -inf, NaN, a denormal, its negative, -2, 1, 2, the
     largest float's neighbourhood, the smallest normal. Zeros and negative denormals give -inf,
     other negatives NaN; infinity and NaN give finite values (exponent field read as 128) */
  static const uint32_t sx_bits[12] = {0x00000000u, 0x80000000u, 0x7f800000u, 0xff800000u,
                                       0x7fc00000u, 0x000116c2u, 0x800116c2u, 0xc0000000u,
                                       0x3f800000u, 0x40000000u, 0x7f7fc99eu, 0x00800000u};
  static const uint32_t sy_bits[12] = {0xff800000u, 0xff800000u, 0x42b0c0a6u, 0xffff8000u,
                                       0x42b1903fu, 0xc2b0ba87u, 0xff800000u, 0xffc00000u,
                                       0x00000000u, 0x3f317218u, 0x42b0c0a6u, 0xc2aeac50u};
  float sx[12], sy[12], want[12];
  memcpy(sx, sx_bits, sizeof sx);
  memcpy(want, sy_bits, sizeof want);
  tfcc_xnn_log_f32(sx, sy, 12);
  for (int i = 0; i < 12; i++)
    CHECKF(isnan(want[i]) ? isnan(sy[i]) : memcmp(&sy[i], &want[i], 4) == 0,
           "xnn log special value %d: %g, LiteRT %g", i, (double)sy[i], (double)want[i]);
}

/* ---- XNNPACK-exact float kernels: every variant against LiteRT's sigmoid values (the
   conformance case hybrid_net_logistic_fc: 4096 inputs in [-20, 20]) plus special values, and
   every conv variant against the generic one */

static void test_tflite_f32(void) {
  test_npy in, ref;
  char path[4096], rpath[4096];
  const char *src = tfcc_test_source_dir();
  snprintf(path, sizeof path, "%s/tests/ops/conformance/hybrid_net_logistic_fc.in0.npy", src);
  snprintf(rpath, sizeof rpath, "%s/tests/ops/conformance/hybrid_net_logistic_fc.out0.npy", src);
  if (test_npy_load(path, &in) != 0 || test_npy_load(rpath, &ref) != 0) {
    CHECK(!"hybrid_net_logistic_fc data");
    return;
  }
  const size_t n = in.bytes / sizeof(float);
  float *y = malloc(in.bytes);
  const tfcc_tflite_f32_kernel *g = tfcc_tflite_f32_kernel_at(tfcc_tflite_f32_kernel_count() - 1);
  const float special[] = {0.0f,  -0.0f,  1e-30f, -1e-30f, 87.0f,    -87.0f,
                           88.7f, -88.7f, 200.0f, -200.0f, INFINITY, -INFINITY};
  float ys[12], yg[12];
  g->sigmoid(special, yg, 12);
  CHECK(yg[0] == 0.5f && yg[1] == 0.5f && yg[8] == 1.0f && yg[9] == 0.0f && yg[10] == 1.0f &&
        yg[11] == 0.0f);
  TFCC_EACH_VARIANT(tfcc_tflite_f32, k, tfcc_cpu_dispatch_isa(TFCC_ISA_COUNT_)) {
    for (size_t len = n; len + 13 > n; len--) { /* tails */
      k->sigmoid(in.data, y, len);
      CHECKF(memcmp(y, ref.data, len * sizeof(float)) == 0, "%s sigmoid n=%zu", k->name, len);
    }
    k->sigmoid(special, ys, 12);
    CHECKF(memcmp(ys, yg, sizeof ys) == 0, "%s sigmoid special values", k->name);
    /* conv: 2 images 7x6x5, 19 output channels (a tail at every width), 3x3 stride 2 pad 1 */
    tfcc_conv_geom cg = {2, 7, 6, 5, 4, 3, 19, 3, 3, 5, 2, 2, 1, 1, 1, 1};
    float x[2 * 7 * 6 * 5], w[19 * 45], b[19], o1[2 * 4 * 3 * 19], o2[2 * 4 * 3 * 19];
    for (size_t j = 0; j < sizeof x / sizeof x[0]; j++) x[j] = frand(-2.0f, 2.0f);
    for (size_t j = 0; j < sizeof w / sizeof w[0]; j++) w[j] = frand(-1.0f, 1.0f);
    for (size_t j = 0; j < 19; j++) b[j] = frand(-1.0f, 1.0f);
    int32_t ocp = 0;
    float *wp = tfcc_xnn_conv_pack(w, 19, 45, &ocp);
    CHECK(wp && ocp == 32);
    if (!wp) continue;
    g->conv_rows(&cg, x, wp, ocp, b, -1.5f, INFINITY, o1, 0, 8);
    k->conv_rows(&cg, x, wp, ocp, b, -1.5f, INFINITY, o2, 0, 8);
    CHECKF(memcmp(o1, o2, sizeof o1) == 0, "%s conv", k->name);
    /* the generic one is the XNNPACK order: bias, taps, channels, rounded steps */
    float want = b[7];
    for (int ky = 0; ky < 3; ky++)
      for (int kx = 0; kx < 3; kx++)
        for (int c = 0; c < 5; c++) {
          const int iy = 2 * 1 - 1 + ky, ix = 2 * 2 - 1 + kx;
          const float xv = iy < 7 && ix < 6 ? x[((7 * 6) + iy * 6 + ix) * 5 + c] : 0.0f;
          const float prod = xv * w[(7 * 9 + ky * 3 + kx) * 5 + c];
          want = want + prod;
        }
    want = want < -1.5f ? -1.5f : want;
    CHECKF(o2[((1 * 4 + 1) * 3 + 2) * 19 + 7] == want, "%s conv order", k->name);
    free(wp);
  }
  free(y);
  test_npy_free(&in);
  test_npy_free(&ref);
}

/* A square-filter geometry of dilation 1 (out_h / out_w from the padding and stride). */
static tfcc_conv_geom square_geom(int batches, int H, int W, int C, int filter_in_c, int OC, int k,
                                  int stride, int pad) {
  tfcc_conv_geom cg;
  memset(&cg, 0, sizeof cg);
  cg.batches = batches, cg.in_h = H, cg.in_w = W, cg.in_c = C, cg.filter_in_c = filter_in_c;
  cg.out_c = OC, cg.filter_h = cg.filter_w = k, cg.stride_h = cg.stride_w = stride;
  cg.pad_h = cg.pad_w = pad, cg.dil_h = cg.dil_w = 1;
  cg.out_h = (H + 2 * pad - k) / stride + 1, cg.out_w = (W + 2 * pad - k) / stride + 1;
  return cg;
}

/* The XNNPACK-order float conv on wider rows (interior pixel groups, a short last group, two
 * channel blocks at once and a tail block) against the order written out: bias, taps,
 * channels, each product and sum rounded. N images, dilation dil. */
static void xnn_conv_wide_case_nd(int N, int H, int W, int C, int OC, int k, int stride, int pad,
                                  int dil) {
  tfcc_conv_geom cg = square_geom(N, H, W, C, C, OC, k, stride, pad);
  cg.dil_h = cg.dil_w = dil;
  cg.out_h = (H + 2 * pad - dil * (k - 1) - 1) / stride + 1;
  cg.out_w = (W + 2 * pad - dil * (k - 1) - 1) / stride + 1;
  const int K = k * k * C;
  const size_t on = (size_t)N * cg.out_h * cg.out_w * OC;
  float *x = malloc((size_t)N * H * W * C * sizeof(float));
  float *w = malloc((size_t)OC * K * sizeof(float));
  float *b = malloc((size_t)OC * sizeof(float)), *want = malloc(on * sizeof(float));
  float *o = malloc(on * sizeof(float));
  CHECK(x && w && b && want && o);
  for (int j = 0; j < N * H * W * C; j++) x[j] = frand(-2.0f, 2.0f);
  for (int j = 0; j < OC * K; j++) w[j] = frand(-1.0f, 1.0f);
  for (int j = 0; j < OC; j++) b[j] = frand(-1.0f, 1.0f);
  for (int n = 0; n < N; n++)
    for (int oy = 0; oy < cg.out_h; oy++)
      for (int ox = 0; ox < cg.out_w; ox++)
        for (int oc = 0; oc < OC; oc++) {
          float a = b[oc];
          for (int ky = 0; ky < k; ky++)
            for (int kx = 0; kx < k; kx++)
              for (int c = 0; c < C; c++) {
                const int iy = oy * stride - pad + ky * dil, ix = ox * stride - pad + kx * dil;
                const bool in = iy >= 0 && iy < H && ix >= 0 && ix < W;
                const float prod = (in ? x[(((size_t)n * H + iy) * W + ix) * C + c] : 0.0f) *
                                   w[oc * K + (ky * k + kx) * C + c];
                a = a + prod;
              }
          a = a < -1.0f ? -1.0f : a;
          want[(((size_t)n * cg.out_h + oy) * cg.out_w + ox) * OC + oc] = a > 3.0f ? 3.0f : a;
        }
  const int rows = N * cg.out_h;
  int32_t ocp = 0;
  float *wp = tfcc_xnn_conv_pack(w, OC, K, &ocp);
  CHECK(wp);
  for (int i = 0; wp && i < tfcc_tflite_f32_kernel_count(); i++) {
    const tfcc_tflite_f32_kernel *kk = tfcc_tflite_f32_kernel_at(i);
    if (!tfcc_isa_level_fits(kk->isa, tfcc_cpu_dispatch_isa(TFCC_ISA_COUNT_))) continue;
    memset(o, 0, on * sizeof(float));
    kk->conv_rows(&cg, x, wp, ocp, b, -1.0f, 3.0f, o, 0, rows / 2);
    kk->conv_rows(&cg, x, wp, ocp, b, -1.0f, 3.0f, o, rows / 2, rows);
    CHECKF(memcmp(o, want, on * sizeof(float)) == 0, "%s conv %dx%dx%dx%d -> %d k%d s%d p%d d%d",
           kk->name, N, H, W, C, OC, k, stride, pad, dil);
  }
  free(wp), free(x), free(w), free(b), free(want), free(o);
}

static void xnn_conv_wide_case(int H, int W, int C, int OC, int k, int stride, int pad) {
  tfcc_conv_geom cg = square_geom(1, H, W, C, C, OC, k, stride, pad);
  const int K = k * k * C;
  const size_t on = (size_t)cg.out_h * cg.out_w * OC;
  float *x = malloc((size_t)H * W * C * sizeof(float)), *w = malloc((size_t)OC * K * sizeof(float));
  float *b = malloc((size_t)OC * sizeof(float)), *want = malloc(on * sizeof(float));
  float *o = malloc(on * sizeof(float));
  CHECK(x && w && b && want && o);
  for (int j = 0; j < H * W * C; j++) x[j] = frand(-2.0f, 2.0f);
  for (int j = 0; j < OC * K; j++) w[j] = frand(-1.0f, 1.0f);
  for (int j = 0; j < OC; j++) b[j] = frand(-1.0f, 1.0f);
  for (int oy = 0; oy < cg.out_h; oy++)
    for (int ox = 0; ox < cg.out_w; ox++)
      for (int oc = 0; oc < OC; oc++) {
        float a = b[oc];
        for (int ky = 0; ky < k; ky++)
          for (int kx = 0; kx < k; kx++)
            for (int c = 0; c < C; c++) {
              const int iy = oy * stride - pad + ky, ix = ox * stride - pad + kx;
              const bool in = iy >= 0 && iy < H && ix >= 0 && ix < W;
              const float prod =
                  (in ? x[(iy * W + ix) * C + c] : 0.0f) * w[oc * K + (ky * k + kx) * C + c];
              a = a + prod;
            }
        a = a < -1.0f ? -1.0f : a;
        want[((size_t)oy * cg.out_w + ox) * OC + oc] = a > 3.0f ? 3.0f : a;
      }
  int32_t ocp = 0;
  float *wp = tfcc_xnn_conv_pack(w, OC, K, &ocp);
  CHECK(wp);
  for (int i = 0; wp && i < tfcc_tflite_f32_kernel_count(); i++) {
    const tfcc_tflite_f32_kernel *kk = tfcc_tflite_f32_kernel_at(i);
    if (!tfcc_isa_level_fits(kk->isa, tfcc_cpu_dispatch_isa(TFCC_ISA_COUNT_))) continue;
    memset(o, 0, on * sizeof(float));
    kk->conv_rows(&cg, x, wp, ocp, b, -1.0f, 3.0f, o, 0, cg.out_h / 2);
    kk->conv_rows(&cg, x, wp, ocp, b, -1.0f, 3.0f, o, cg.out_h / 2, cg.out_h);
    CHECKF(memcmp(o, want, on * sizeof(float)) == 0, "%s conv %dx%dx%d -> %d k%d s%d p%d", kk->name,
           H, W, C, OC, k, stride, pad);
  }
  free(wp), free(x), free(w), free(b), free(want), free(o);
}

/* The XNNPACK-order float depthwise (depth multiplier 1): every variant's vector kernel
 * against the portable loop (tfcc_xnn_dwconv_f32_rows) and the order written out (bias, then
 * kx outer, ky inner, padding taps adding 0 * w, each product and sum rounded), with NaN / -0
 * inputs (the clamp's selects). Rows split in two calls. */
static void xnn_dwconv_case_d(int H, int W, int C, int k, int stride, int pad, int dil,
                              bool with_bias) {
  tfcc_conv_geom cg = square_geom(2, H, W, C, 1, C, k, stride, pad);
  cg.dil_h = cg.dil_w = dil;
  cg.out_h = (H + 2 * pad - dil * (k - 1) - 1) / stride + 1;
  cg.out_w = (W + 2 * pad - dil * (k - 1) - 1) / stride + 1;
  const size_t in_n = (size_t)2 * H * W * C, on = (size_t)2 * cg.out_h * cg.out_w * C;
  float *x = malloc(in_n * sizeof(float)), *w = malloc((size_t)k * k * C * sizeof(float));
  float *b = malloc((size_t)C * sizeof(float)), *want = malloc(on * sizeof(float));
  float *o = malloc(on * sizeof(float)), *o1 = malloc(on * sizeof(float));
  CHECK(x && w && b && want && o && o1);
  for (size_t j = 0; j < in_n; j++) x[j] = frand(-2.0f, 2.0f);
  x[3] = NAN, x[in_n / 2] = -0.0f;
  for (int j = 0; j < k * k * C; j++) w[j] = frand(-1.0f, 1.0f);
  for (int j = 0; j < C; j++) b[j] = frand(-1.0f, 1.0f);
  const float lo = -1.0f, hi = 3.0f;
  for (int n = 0; n < 2; n++)
    for (int oy = 0; oy < cg.out_h; oy++)
      for (int ox = 0; ox < cg.out_w; ox++)
        for (int c = 0; c < C; c++) {
          float a = with_bias ? b[c] : 0.0f;
          for (int kx = 0; kx < k; kx++)
            for (int ky = 0; ky < k; ky++) {
              const int iy = oy * stride - pad + ky * dil, ix = ox * stride - pad + kx * dil;
              const bool in = iy >= 0 && iy < H && ix >= 0 && ix < W;
              const float prod = (in ? x[(((size_t)n * H + iy) * W + ix) * C + c] : 0.0f) *
                                 w[(ky * k + kx) * C + c];
              a = a + prod;
            }
          a = lo < a ? a : lo;
          want[(((size_t)n * cg.out_h + oy) * cg.out_w + ox) * C + c] = a < hi ? a : hi;
        }
  const int rows = 2 * cg.out_h;
  tfcc_xnn_dwconv_f32_rows(&cg, x, w, with_bias ? b : NULL, lo, hi, o1, 0, rows);
  CHECKF(memcmp(o1, want, on * sizeof(float)) == 0, "portable dwconv %dx%dx%d k%d s%d p%d", H, W, C,
         k, stride, pad);
  TFCC_EACH_VARIANT(tfcc_tflite_f32, kk, tfcc_cpu_dispatch_isa(TFCC_ISA_COUNT_)) {
    memset(o, 0, on * sizeof(float));
    kk->dwconv_rows(&cg, x, w, with_bias ? b : NULL, lo, hi, o, 0, rows / 2 + 1);
    kk->dwconv_rows(&cg, x, w, with_bias ? b : NULL, lo, hi, o, rows / 2 + 1, rows);
    CHECKF(memcmp(o, want, on * sizeof(float)) == 0, "%s dwconv %dx%dx%d k%d s%d p%d d%d", kk->name,
           H, W, C, k, stride, pad, dil);
  }
  free(x), free(w), free(b), free(want), free(o), free(o1);
}

static void xnn_dwconv_case(int H, int W, int C, int k, int stride, int pad, bool with_bias) {
  xnn_dwconv_case_d(H, W, C, k, stride, pad, 1, with_bias);
}

/* ---- small hybrid networks and hybrid conformance cases against TensorFlow Lite, one table */

#define REF TFCC_QUANT_COMPAT_REFERENCE
#define TFL TFCC_QUANT_COMPAT_TFLITE

/* One conformance model checked against TensorFlow Lite's outputs: tests/ops/conformance/
 * <name>.tflite and .in<i>.npy, references tests/ops/<dir>/<name>.out<o>.npy for o < outputs. */
typedef struct hybrid_case {
  const char *name;
  const char *dir; /* "conformance" (LiteRT's outputs) or "hybrid_builtin" (tfweb's) */
  tfcc_quant_compat compat;
  int outputs;  /* outputs 0 .. outputs - 1 are checked */
  float tol;    /* 0: bit for bit; else |d| <= tol + tol * |ref| */
  bool threads; /* also on 2, 3 and 4 threads (the float operators split across the pool) */
} hybrid_case;

static const hybrid_case k_hybrid_cases[] = {
    /* REFERENCE mode against the classic interpreter's builtin hybrid kernels */
    {"conv_2d_hybrid_pt_3x3_same", "hybrid_builtin", REF, 1, 0, false},
    {"conv_2d_hybrid_pt_3x3_valid_s2_b2", "hybrid_builtin", REF, 1, 0, false},
    {"conv_2d_hybrid_pt_1x1", "hybrid_builtin", REF, 1, 0, false},
    {"conv_2d_hybrid_pt_1x1_s2", "hybrid_builtin", REF, 1, 0, false},
    {"fully_connected_hybrid_pt", "hybrid_builtin", REF, 1, 0, false},
    {"fully_connected_hybrid_pt_asym", "hybrid_builtin", REF, 1, 0, false},
    {"fully_connected_hybrid_pt_keep_dims", "hybrid_builtin", REF, 1, 0, false},
    /* ops: input elements not a multiple of the weights columns: batches rounded down */
    {"fully_connected_hybrid_input_remainder_pt", "hybrid_builtin", REF, 1, 0, false},
    /* sphy61: int8 weights a DENSIFY produces are a run-time tensor to the delegate (LiteRT.js
     * fails to delegate the node, tfweb runs its builtin kernel): builtin arithmetic in both modes */
    {"densify_i8_b1x16_hybrid_fc", "hybrid_builtin", REF, 1, 0, false},
    {"densify_i8_b1x16_hybrid_fc", "hybrid_builtin", TFL, 1, 0, false},
    {"densify_i8_b1x16_hybrid_asym_fc", "hybrid_builtin", REF, 1, 0, false},
    {"densify_i8_b1x16_hybrid_asym_fc", "hybrid_builtin", TFL, 1, 0, false},
    {"fully_connected_hybrid_input_remainder_pt_asym", "hybrid_builtin", REF, 1, 0, false},
    {"depthwise_conv_2d_hybrid_pc_3x3_same", "hybrid_builtin", REF, 1, 0, false},
    {"depthwise_conv_2d_hybrid_pc_3x3_valid_m2_s2", "hybrid_builtin", REF, 1, 0, false},
    {"batch_matmul_hybrid_pt", "hybrid_builtin", REF, 1, 0, false},
    {"batch_matmul_hybrid_pt_asym", "hybrid_builtin", REF, 1, 0, false},
    {"batch_matmul_hybrid_pt_adj_y_rank3", "hybrid_builtin", REF, 1, 0, false},
    /* an rhs with batches: one matrix product per (broadcast) batch, the lhs quantized per
     * row; the builtin kernel (sym / asym) here, XNNPACK's qd8 in LiteRT below (the two
     * engines differ by up to 0.017 on these) */
    {"batch_matmul_hybrid_pt_asym_rhs_batched", "hybrid_builtin", REF, 1, 0, false},
    {"batch_matmul_hybrid_pt_rhs_batched_lhs_bcast", "hybrid_builtin", REF, 1, 0, false},
    {"batch_matmul_hybrid_pt_rhs_batched_adj_y_lhs_2d", "hybrid_builtin", REF, 1, 0, false},
    /* TRANSPOSE_CONV: LiteRT's qd8 deconvolution (the input quantized per image, XNNPACK's
     * output order), bit for bit; the builtin EvalHybrid order was up to 7e-7 off here */
    {"transpose_conv_hybrid_pc_same_s2_b2_relu", "conformance", TFL, 1, 0, false},
    {"transpose_conv_hybrid_pc_valid_s1", "conformance", TFL, 1, 0, false},
    {"transpose_conv_hybrid_pt_same_s2", "conformance", TFL, 1, 0, false},
    {"transpose_conv_hybrid_pt_valid_s2", "conformance", TFL, 1, 0, false},
    {"batch_matmul_hybrid_pt_asym_rhs_batched", "conformance", TFL, 1, 0, true},
    {"batch_matmul_hybrid_pt_rhs_batched_lhs_bcast", "conformance", TFL, 1, 0, true},
    {"batch_matmul_hybrid_pt_rhs_batched_adj_y_lhs_2d", "conformance", TFL, 1, 0, true},
    /* sweep18: float TANH before a hybrid FULLY_CONNECTED: Eigen's fast rational tanh (the
     * builtin kernel's), then the builtin hybrid FULLY_CONNECTED */
    {"hybrid_net_tanh_fc_builtin", "hybrid_builtin", REF, 2, 0, false},
    /* exact3: float LOGISTIC: XNNPACK's sigmoid (the classic interpreter's delegate takes it) */
    {"hybrid_net_logistic_fc_builtin", "hybrid_builtin", REF, 2, 0, false},
    /* sweep20: float AVERAGE_POOL_2D: XNNPACK's unipass average pooling */
    {"hybrid_net_avgpool_conv_builtin", "hybrid_builtin", REF, 2, 0, false},
    /* float CONV_2D (IGEMM and nr2 orders) before a hybrid CONV_2D: the classic interpreter's
     * delegate takes the float convolutions, the builtin kernel the hybrid one */
    {"hybrid_net_conv_f32_conv_builtin", "hybrid_builtin", REF, 3, 0, false},
    /* ref9: float 1x1 CONV_2D -> (PAD ->) float DEPTHWISE_CONV_2D pairs, not fused in REFERENCE
     * mode (the delegate's IGEMM and dwconv orders; semantic_segmentation_distillation) */
    {"hybrid_net_expand_dw_conv_builtin", "hybrid_builtin", REF, 3, 0, false},
    /* ref9: a graph the classic interpreter leaves to its builtin kernels (FILL of computed
     * dims): float CONV_2D as im2col + Eigen's GEMM, Eigen's SOFTMAX, and a hybrid CONV_2D with
     * equal per-channel scales run as per-tensor with scale 0 (mit-bih's pq_model) */
    {"hybrid_net_conv_eigen_builtin", "hybrid_builtin", REF, 4, 0, false},
    /* ref9: a WHILE whose loop variable grows: no subgraph delegated, the float LOGISTIC of the
     * primary subgraph and of the loop body both Eigen's (DPCRN's GRU loops) */
    {"hybrid_net_while_logistic_builtin", "hybrid_builtin", REF, 3, 0, false},
    /* gtcrn57: a hybrid node in one subgraph puts the float nodes of every subgraph in the
     * delegate's order (GTCRN-Micro's float-only LSTM bodies): a float-only WHILE body before a
     * hybrid FULLY_CONNECTED, and a float FULLY_CONNECTED of the primary subgraph before a
     * body holding the hybrid node; both modes (before: 121 / 160 and 102 / 160 values apart) */
    {"hybrid_net_while_float_body", "conformance", TFL, 3, 0, false},
    {"hybrid_net_while_hybrid_body", "conformance", TFL, 2, 0, false},
    {"hybrid_net_while_float_body_builtin", "hybrid_builtin", REF, 3, 0, false},
    {"hybrid_net_while_hybrid_body_builtin", "hybrid_builtin", REF, 2, 0, false},
    /* ref9: POW by a one-element integer exponent: TFLite's IntegerPower, not powf */
    /* lead49: a RESHAPE by a computed shape leaves the classic interpreter's subgraph
       undelegated (Eigen's logistic, also on a node no path from the RESHAPE reaches) */
    {"reshape_dyn_pack_logistic_builtin", "hybrid_builtin", REF, 2, 0, false},
    {"reshape_dyn_shape_slice_logistic_builtin", "hybrid_builtin", REF, 1, 0, false},
    {"reshape_const_logistic_builtin", "hybrid_builtin", REF, 1, 0, false},
    /* ref10: the rest of the rule (ops/classic_dynamic.c): STRIDED_SLICE, PAD, TRANSPOSE, MEAN,
       BROADCAST_TO, EXPAND_DIMS, SPLIT, TILE by a computed or model-input shape / axis leave the
       subgraph undelegated (Eigen's logistic; a hybrid subgraph's float CONV_2D in Eigen's
       im2col order); a SLICE by a computed begin does not (the delegate's sigmoid) */
    {"dyn_strided_slice_shape_end_logistic_builtin", "hybrid_builtin", REF, 2, 0, false},
    {"dyn_pad_pack_logistic_builtin", "hybrid_builtin", REF, 2, 0, false},
    {"dyn_transpose_pack_logistic_builtin", "hybrid_builtin", REF, 2, 0, false},
    {"dyn_mean_shape_axis_logistic_builtin", "hybrid_builtin", REF, 2, 0, false},
    {"dyn_broadcast_to_shape_logistic_builtin", "hybrid_builtin", REF, 2, 0, false},
    {"dyn_expand_dims_input_axis_logistic_builtin", "hybrid_builtin", REF, 2, 0, false},
    {"dyn_split_input_axis_logistic_builtin", "hybrid_builtin", REF, 3, 0, false},
    {"dyn_tile_input_logistic_builtin", "hybrid_builtin", REF, 2, 0, false},
    {"slice_dyn_begin_logistic_builtin", "hybrid_builtin", REF, 2, 0, false},
    {"hybrid_net_dyn_transpose_conv_builtin", "hybrid_builtin", REF, 2, 0, false},
    /* ref10: float FULLY_CONNECTED where the classic interpreter's builtin kernel runs it:
       Eigen's GEBP / GEMV order in an undelegated hybrid subgraph (nutls_lstm), and the
       activation range [-FLT_MAX, FLT_MAX] (an overflow is FLT_MAX, NaN passes) */
    {"hybrid_net_dyn_fc_f32_builtin", "hybrid_builtin", REF, 4, 0, false},
    {"float_fc_overflow_dynres_builtin", "hybrid_builtin", REF, 3, 0, false},
    /* ref11: float operators of a float model whose subgraph the classic interpreter delegates
       nothing of (a RESIZE to a size that is a model input): its builtin kernels, REFERENCE
       mode (the RESIZE's output last) */
    {"float_dyn_conv_builtin", "hybrid_builtin", REF, 4, 0, false},
    {"float_dyn_dwconv_builtin", "hybrid_builtin", REF, 3, 0, false},
    {"float_dyn_fc_builtin", "hybrid_builtin", REF, 3, 0, false},
    {"float_dyn_tanh_builtin", "hybrid_builtin", REF, 2, 0, false},
    {"float_dyn_mean_builtin", "hybrid_builtin", REF, 3, 0, false},
    {"float_dyn_avgpool_builtin", "hybrid_builtin", REF, 3, 0, false},
    {"float_dyn_hswish_builtin", "hybrid_builtin", REF, 2, 0, false},
    {"float_dyn_bmm_builtin", "hybrid_builtin", REF, 2, 0, false},
    {"float_dyn_gelu_builtin", "hybrid_builtin", REF, 3, 0, false},
    {"float_dyn_resize_bilinear_builtin", "hybrid_builtin", REF, 3, 0, false},
    {"float_dyn_softmax_builtin", "hybrid_builtin", REF, 2, 0, false},
    {"float_dyn_exp_log_builtin", "hybrid_builtin", REF, 3, 0, false},
    {"float_dyn_sum_l2_builtin", "hybrid_builtin", REF, 3, 0, false},
    /* DEPTHWISE_CONV_2D's builtin range (3e38 * 2 is FLT_MAX) and store clamp (NaN becomes the
       upper bound); TRANSPOSE_CONV's builtin kernel does not clamp (inf stays) */
    {"float_dyn_overflow_builtin", "hybrid_builtin", REF, 3, 0, false},
    /* the graph passes leave such a subgraph's float nodes alone in REFERENCE mode: a 1x1
       CONV_2D -> DEPTHWISE_CONV_2D pair not fused, a CONV_2D -> MUL -> ADD chain not folded */
    {"float_dyn_passes_builtin", "hybrid_builtin", REF, 3, 0, false},
    /* ref10: run-time float weights: the classic interpreter's delegate leaves the node to the
       builtin kernel (Eigen's GEBP order) in a delegated subgraph too */
    {"hybrid_net_fc_runtime_weights_builtin", "hybrid_builtin", REF, 2, 0, false},
    {"hybrid_net_fc_runtime_weights_deep_builtin", "hybrid_builtin", REF, 2, 0, false},
    {"float_pow_int", "conformance", TFL, 3, 0, false},
    {"float_pow_int_builtin", "hybrid_builtin", REF, 3, 0, false},
    /* default mode, small hybrid networks: XNNPACK-exact float CONV_2D and LOGISTIC before the
       hybrid nodes, then the hybrid nodes themselves, all bit for bit with LiteRT */
    {"hybrid_net_conv_silu_conv", "conformance", TFL, 3, 0, false},
    {"hybrid_net_logistic_fc", "conformance", TFL, 2, 0, false},
    /* ops: XNNPACK's float LOG (a log-mel front end) before a hybrid FULLY_CONNECTED */
    {"hybrid_net_log_fc", "conformance", TFL, 2, 0, false},
    /* ops: XNNPACK-exact float DEPTHWISE_CONV_2D before a hybrid 1x1 CONV_2D */
    {"hybrid_net_dw_f32_conv", "conformance", TFL, 2, 0, false},
    /* ops: float 1x1 CONV_2D -> float DEPTHWISE_CONV_2D -> hybrid CONV_2D: not fused into
       EXPAND_DEPTHWISE_CONV_2D, each float node in XNNPACK's order */
    {"hybrid_net_expand_dw_conv", "conformance", TFL, 2, 0, false},
    /* ops: float CONV_2D of one input and one output channel: XNNPACK's dwconv order (YOLO26) */
    {"hybrid_net_conv1x1ch_conv", "conformance", TFL, 3, 0, false},
    /* ops: float CONV_2D of fewer than 8 output channels: XNNPACK's nr2 kernel (4x2c4) */
    {"hybrid_net_conv_nr2_conv", "conformance", TFL, 3, 0, false},
    /* exact1: float FULLY_CONNECTED with run-time weights: TFLite's builtin kernel (Eigen's
     * order), as LiteRT runs it; sweep10: one unit or one batch: Eigen's matrix-vector product;
     * float SOFTMAX in XNNPACK's order (YOLO26's attention) */
    {"hybrid_net_fc_runtime_weights", "conformance", TFL, 2, 0, false},
    {"hybrid_net_fc_runtime_weights_deep", "conformance", TFL, 2, 0, false},
    {"hybrid_net_fc_runtime_weights_gemv_unit", "conformance", TFL, 2, 0, false},
    {"hybrid_net_fc_runtime_weights_gemv_unit_deep", "conformance", TFL, 2, 0, false},
    {"hybrid_net_fc_runtime_weights_gemv_batch", "conformance", TFL, 2, 0, false},
    {"hybrid_net_fc_runtime_weights_gemv_batch_deep", "conformance", TFL, 2, 0, false},
    {"hybrid_net_softmax_fc", "conformance", TFL, 2, 0, false},
    {"hybrid_net_softmax_fc_wide", "conformance", TFL, 2, 0, false},
    /* exact2: the float operators of a hybrid transformer as XNNPACK runs them: MEAN over
     * trailing axes (f32-rsum, every tail width), BATCH_MATMUL (GEMM order, adj and broadcast),
     * GELU (rational 12/10, both forms), FULLY_CONNECTED with constant float weights (default
     * and nr2 GEMM kernels), DEPTHWISE_CONV_2D of one input channel and a depth multiplier
     * (XNNPACK's IGEMM / nr2, not its dwconv); hybrid4: several input channels and a depth
     * multiplier (XNNPACK's grouped IGEMM: taps row by row); hybrid5: also on 2, 3 and 4
     * threads (the *_mt cases are over the drivers' inline limits): LiteRT's bits at every count */
    {"hybrid_net_mean_last_fc", "conformance", TFL, 2, 0, true},
    {"hybrid_net_mean_last_fc_w102", "conformance", TFL, 2, 0, true},
    {"hybrid_net_mean_last_fc_w37", "conformance", TFL, 2, 0, true},
    {"hybrid_net_mean_last_fc_w23", "conformance", TFL, 2, 0, true},
    {"hybrid_net_mean_last_fc_w7", "conformance", TFL, 2, 0, true},
    {"hybrid_net_mean_last2_fc", "conformance", TFL, 2, 0, true},
    {"hybrid_net_bmm_fc", "conformance", TFL, 2, 0, true},
    {"hybrid_net_bmm_fc_adj_y", "conformance", TFL, 2, 0, true},
    {"hybrid_net_bmm_fc_adj_x", "conformance", TFL, 2, 0, true},
    {"hybrid_net_bmm_fc_bcast", "conformance", TFL, 2, 0, true},
    {"hybrid_net_bmm_fc_deep", "conformance", TFL, 2, 0, true},
    {"hybrid_net_gelu_fc", "conformance", TFL, 2, 0, true},
    {"hybrid_net_gelu_fc_approx", "conformance", TFL, 2, 0, true},
    {"hybrid_net_fc_f32w_u6", "conformance", TFL, 2, 0, true},
    {"hybrid_net_fc_f32w_u10", "conformance", TFL, 2, 0, true},
    {"hybrid_net_fc_f32w_u17", "conformance", TFL, 2, 0, true},
    {"hybrid_net_fc_f32w_u8", "conformance", TFL, 2, 0, true},
    {"hybrid_net_fc_f32w_u15", "conformance", TFL, 2, 0, true},
    {"hybrid_net_fc_f32w_u16", "conformance", TFL, 2, 0, true},
    {"hybrid_net_dw_mult8_conv", "conformance", TFL, 2, 0, true},
    {"hybrid_net_dw_mult4_conv", "conformance", TFL, 2, 0, true},
    {"hybrid_net_dw_mult12_conv", "conformance", TFL, 2, 0, true},
    {"hybrid_net_dw_c3m4_conv", "conformance", TFL, 2, 0, true},
    {"hybrid_net_dw_c5m2_conv", "conformance", TFL, 2, 0, true},
    {"hybrid_net_dw_c2m8_conv", "conformance", TFL, 2, 0, true},
    {"hybrid_net_bmm_fc_mt", "conformance", TFL, 2, 0, true},
    {"hybrid_net_bmm_fc_mt_adj_y", "conformance", TFL, 2, 0, true},
    {"hybrid_net_bmm_fc_mt_bcast", "conformance", TFL, 2, 0, true},
    {"hybrid_net_fc_f32w_mt", "conformance", TFL, 2, 0, true},
    {"hybrid_net_fc_f32w_mt_nr2", "conformance", TFL, 2, 0, true},
    {"hybrid_net_gelu_fc_mt", "conformance", TFL, 2, 0, true},
    {"hybrid_net_softmax_fc_mt", "conformance", TFL, 2, 0, true},
    {"hybrid_net_tanh_fc", "conformance", TFL, 2, 0, true},
    {"hybrid_net_tanh_fc_mt", "conformance", TFL, 2, 0, true},
    {"hybrid_net_avgpool_conv", "conformance", TFL, 2, 0, true},
    /* ops: blockwise int4 FULLY_CONNECTED, XNNPACK's qd8 x qb4w and the builtin kernel */
    {"fully_connected_blockwise_i4_bs32", "conformance", TFL, 1, 0, false},
    {"fully_connected_blockwise_i4_bs32_relu_nobias_rank3", "conformance", TFL, 1, 0, false},
    {"fully_connected_blockwise_i4_bs16_builtin", "conformance", TFL, 1, 0, false},
    /* ops: XNNPACK's float MEAN before a hybrid CONV_2D */
    {"hybrid_net_mean_conv", "conformance", TFL, 2, 0, false},
    /* ops: XNNPACK's float HARD_SWISH before a hybrid CONV_2D (MobileNetV3) */
    {"hybrid_net_hswish_conv", "conformance", TFL, 2, 0, false},
    /* sweep20: XNNPACK's float AVERAGE_POOL_2D (unipass tree, 1 / taps inside) before a hybrid
       CONV_2D; SAME and VALID windows, a fused RELU6 */
    {"hybrid_net_avgpool_conv", "conformance", TFL, 4, 0, false},
    /* ops: XNNPACK's float RESIZE_BILINEAR (three coordinate modes) before a hybrid CONV_2D */
    {"hybrid_net_resize_bilinear_conv", "conformance", TFL, 4, 0, false},
    /* ops: grouped hybrid CONV_2D, as XNNPACK runs it (TFLITE mode; REFERENCE mode refuses it,
       test_grouped_reference_refused) */
    {"conv_2d_hybrid_grouped_pc_g4", "conformance", TFL, 1, 0, false},
    {"conv_2d_hybrid_grouped_pt_g2", "conformance", TFL, 1, 0, false},
    /* ops: a hybrid CONV_2D on a tensor TFLite sizes while running: builtin arithmetic */
    {"hybrid_net_dynamic_resize_conv", "conformance", TFL, 2, 0, false},
    /* exact5 probes: each float operator of hybrid models feeding a hybrid FULLY_CONNECTED, in
     * TFLITE mode against LiteRT and (_builtin) REFERENCE mode against the classic interpreter,
     * all bit for bit (exact6 made the last three REFERENCE-mode rows exact: SOFTMAX with the
     * older XNNPACK's tail sum, BATCH_MATMUL in Eigen's GEBP order, GELU with Eigen's erf;
     * docs/quantization.md) */
    {"hybrid_probe_dw3_s1_m1", "conformance", TFL, 2, 0, false},
    {"hybrid_probe_dw3_s1_m1_builtin", "hybrid_builtin", REF, 2, 0, false},
    {"hybrid_probe_dw3_s2_m1", "conformance", TFL, 2, 0, false},
    {"hybrid_probe_dw3_s2_m1_builtin", "hybrid_builtin", REF, 2, 0, false},
    {"hybrid_probe_dw3_s2_m1_valid", "conformance", TFL, 2, 0, false},
    {"hybrid_probe_dw3_s2_m1_valid_builtin", "hybrid_builtin", REF, 2, 0, false},
    {"hybrid_probe_dw5_s1_m1", "conformance", TFL, 2, 0, false},
    {"hybrid_probe_dw5_s1_m1_builtin", "hybrid_builtin", REF, 2, 0, false},
    {"hybrid_probe_dw5_s2_m1", "conformance", TFL, 2, 0, false},
    {"hybrid_probe_dw5_s2_m1_builtin", "hybrid_builtin", REF, 2, 0, false},
    {"hybrid_probe_dw3_s1_m2", "conformance", TFL, 2, 0, false},
    {"hybrid_probe_dw3_s1_m2_builtin", "hybrid_builtin", REF, 2, 0, false},
    {"hybrid_probe_dw5_s2_m2", "conformance", TFL, 2, 0, false},
    {"hybrid_probe_dw5_s2_m2_builtin", "hybrid_builtin", REF, 2, 0, false},
    /* exact9: float CONV_2D. LiteRT's XNNPACK defines a 1x1 stride-1 one (in + out > 2) as a
       FULLY_CONNECTED: the GEMM's nr2 order at its overcompute widths (12, 10, 20, 36 outputs;
       main ran the IGEMM order: 785 of 2688, 558, 879, 435 outputs apart); stride 2 and 3x3
       keep the IGEMM, 16 outputs the default order either way */
    {"hybrid_probe_conv1_o12_i12", "conformance", TFL, 2, 0, false},
    {"hybrid_probe_conv1_o12_i12_builtin", "hybrid_builtin", REF, 2, 0, false},
    {"hybrid_probe_conv1_o10_i7", "conformance", TFL, 2, 0, false},
    {"hybrid_probe_conv1_o10_i7_builtin", "hybrid_builtin", REF, 2, 0, false},
    {"hybrid_probe_conv1_o20_i33", "conformance", TFL, 2, 0, false},
    {"hybrid_probe_conv1_o20_i33_builtin", "hybrid_builtin", REF, 2, 0, false},
    {"hybrid_probe_conv1_o36_i9", "conformance", TFL, 2, 0, false},
    {"hybrid_probe_conv1_o36_i9_builtin", "hybrid_builtin", REF, 2, 0, false},
    {"hybrid_probe_conv1_o16_i12", "conformance", TFL, 2, 0, false},
    {"hybrid_probe_conv1_o16_i12_builtin", "hybrid_builtin", REF, 2, 0, false},
    {"hybrid_probe_conv1_o6_i5", "conformance", TFL, 2, 0, false},
    {"hybrid_probe_conv1_o6_i5_builtin", "hybrid_builtin", REF, 2, 0, false},
    {"hybrid_probe_conv1_o12_i1", "conformance", TFL, 2, 0, false},
    {"hybrid_probe_conv1_o12_i1_builtin", "hybrid_builtin", REF, 2, 0, false},
    {"hybrid_probe_conv1_o1_i9", "conformance", TFL, 2, 0, false},
    {"hybrid_probe_conv1_o1_i9_builtin", "hybrid_builtin", REF, 2, 0, false},
    {"hybrid_probe_conv1_o12_i12_s2", "conformance", TFL, 2, 0, false},
    {"hybrid_probe_conv1_o12_i12_s2_builtin", "hybrid_builtin", REF, 2, 0, false},
    {"hybrid_probe_conv3_o12_i5", "conformance", TFL, 2, 0, false},
    {"hybrid_probe_conv3_o12_i5_builtin", "hybrid_builtin", REF, 2, 0, false},
    /* sweep24: the filter a DEQUANTIZE of uint8 weights makes: no XNNPACK build takes the
       node, both run the builtin kernel (bias first, taps row by row) */
    {"hybrid_probe_dw3_u8deq", "conformance", TFL, 2, 0, false},
    {"hybrid_probe_dw3_u8deq_builtin", "hybrid_builtin", REF, 2, 0, false},
    {"hybrid_probe_dw3_s2_u8deq", "conformance", TFL, 2, 0, false},
    {"hybrid_probe_dw3_s2_u8deq_builtin", "hybrid_builtin", REF, 2, 0, false},
    {"hybrid_probe_fc_f32w_u6", "conformance", TFL, 2, 0, false},
    {"hybrid_probe_fc_f32w_u6_builtin", "hybrid_builtin", REF, 2, 0, false},
    {"hybrid_probe_fc_f32w_u16", "conformance", TFL, 2, 0, false},
    {"hybrid_probe_fc_f32w_u16_builtin", "hybrid_builtin", REF, 2, 0, false},
    {"hybrid_probe_bmm", "conformance", TFL, 2, 0, false},
    {"hybrid_probe_bmm_builtin", "hybrid_builtin", REF, 2, 0, false},
    {"hybrid_probe_softmax", "conformance", TFL, 2, 0, false},
    {"hybrid_probe_softmax_builtin", "hybrid_builtin", REF, 2, 0, false},
    {"hybrid_probe_mean_hw", "conformance", TFL, 2, 0, false},
    {"hybrid_probe_mean_hw_builtin", "hybrid_builtin", REF, 2, 0, false},
    /* sweep23: a RESIZE to a computed size beside it: the classic interpreter's delegate takes
       no node, its MEAN is the builtin's (REFERENCE mode); LiteRT's still XNNPACK's */
    {"hybrid_probe_mean_hw_dynres", "conformance", TFL, 3, 0, false},
    {"hybrid_probe_mean_hw_dynres_builtin", "hybrid_builtin", REF, 3, 0, false},
    {"hybrid_probe_mean_last", "conformance", TFL, 3, 0, false},
    {"hybrid_probe_mean_last_builtin", "hybrid_builtin", REF, 3, 0, false},
    {"hybrid_probe_tanh", "conformance", TFL, 2, 0, false},
    {"hybrid_probe_tanh_builtin", "hybrid_builtin", REF, 2, 0, false},
    {"hybrid_probe_hswish", "conformance", TFL, 2, 0, false},
    {"hybrid_probe_hswish_builtin", "hybrid_builtin", REF, 2, 0, false},
    {"hybrid_probe_gelu", "conformance", TFL, 2, 0, false},
    {"hybrid_probe_gelu_builtin", "hybrid_builtin", REF, 2, 0, false},
    {"hybrid_probe_add_bcast", "conformance", TFL, 3, 0, false},
    {"hybrid_probe_add_bcast_builtin", "hybrid_builtin", REF, 3, 0, false},
    {"hybrid_probe_mul_bcast", "conformance", TFL, 3, 0, false},
    {"hybrid_probe_mul_bcast_builtin", "hybrid_builtin", REF, 3, 0, false},
    {"hybrid_probe_resize_bilinear", "conformance", TFL, 5, 0, false},
    {"hybrid_probe_resize_bilinear_builtin", "hybrid_builtin", REF, 5, 0, false},
    {"hybrid_probe_tconv_k3_s2", "conformance", TFL, 2, 0, false},
    {"hybrid_probe_tconv_k3_s2_builtin", "hybrid_builtin", REF, 2, 0, false},
    {"hybrid_probe_tconv_k2_s2_c5", "conformance", TFL, 2, 0, false},
    {"hybrid_probe_tconv_k2_s2_c5_builtin", "hybrid_builtin", REF, 2, 0, false},
    {"hybrid_probe_concat", "conformance", TFL, 2, 0, false},
    {"hybrid_probe_concat_builtin", "hybrid_builtin", REF, 2, 0, false},
    {"hybrid_probe_avgpool5_same", "conformance", TFL, 2, 0, false},
    {"hybrid_probe_avgpool5_same_builtin", "hybrid_builtin", REF, 2, 0, false},
    {"hybrid_probe_avgpool5_s2_valid", "conformance", TFL, 2, 0, false},
    {"hybrid_probe_avgpool5_s2_valid_builtin", "hybrid_builtin", REF, 2, 0, false},
    {"hybrid_probe_avgpool7_same", "conformance", TFL, 2, 0, false},
    {"hybrid_probe_avgpool7_same_builtin", "hybrid_builtin", REF, 2, 0, false},
    {"hybrid_probe_avgpool7_valid", "conformance", TFL, 2, 0, false},
    {"hybrid_probe_avgpool7_valid_builtin", "hybrid_builtin", REF, 2, 0, false},
    {"hybrid_probe_avgpool_global7", "conformance", TFL, 2, 0, false},
    {"hybrid_probe_avgpool_global7_builtin", "hybrid_builtin", REF, 2, 0, false},
    {"hybrid_probe_avgpool_global3_same", "conformance", TFL, 2, 0, false},
    {"hybrid_probe_avgpool_global3_same_builtin", "hybrid_builtin", REF, 2, 0, false},
    /* exact7 probes: the float unaries, binaries and reductions not probed before, and
     * BATCH_MATMUL over Eigen's kc panels (K 817, 1024, 2000) */
    {"hybrid_probe_log", "conformance", TFL, 2, 0, false},
    {"hybrid_probe_log_builtin", "hybrid_builtin", REF, 2, 0, false},
    {"hybrid_probe_exp", "conformance", TFL, 2, 0, false},
    {"hybrid_probe_exp_builtin", "hybrid_builtin", REF, 2, 0, false},
    {"hybrid_probe_sqrt", "conformance", TFL, 2, 0, false},
    {"hybrid_probe_sqrt_builtin", "hybrid_builtin", REF, 2, 0, false},
    {"hybrid_probe_rsqrt", "conformance", TFL, 2, 0, false},
    {"hybrid_probe_rsqrt_builtin", "hybrid_builtin", REF, 2, 0, false},
    {"hybrid_probe_leaky_relu", "conformance", TFL, 2, 0, false},
    {"hybrid_probe_leaky_relu_builtin", "hybrid_builtin", REF, 2, 0, false},
    {"hybrid_probe_gelu_approx", "conformance", TFL, 2, 0, false},
    {"hybrid_probe_gelu_approx_builtin", "hybrid_builtin", REF, 2, 0, false},
    {"hybrid_probe_pow", "conformance", TFL, 2, 0, false},
    {"hybrid_probe_pow_builtin", "hybrid_builtin", REF, 2, 0, false},
    {"hybrid_probe_div", "conformance", TFL, 2, 0, false},
    {"hybrid_probe_div_builtin", "hybrid_builtin", REF, 2, 0, false},
    {"hybrid_probe_prelu", "conformance", TFL, 2, 0, false},
    {"hybrid_probe_prelu_builtin", "hybrid_builtin", REF, 2, 0, false},
    {"hybrid_probe_l2norm", "conformance", TFL, 2, 0, false},
    {"hybrid_probe_l2norm_builtin", "hybrid_builtin", REF, 2, 0, false},
    {"hybrid_probe_sum_last", "conformance", TFL, 3, 0, false},
    {"hybrid_probe_sum_last_builtin", "hybrid_builtin", REF, 3, 0, false},
    {"hybrid_probe_sum_mid", "conformance", TFL, 2, 0, false},
    {"hybrid_probe_sum_mid_builtin", "hybrid_builtin", REF, 2, 0, false},
    {"hybrid_probe_mean_mid", "conformance", TFL, 2, 0, false},
    {"hybrid_probe_mean_mid_builtin", "hybrid_builtin", REF, 2, 0, false},
    {"hybrid_probe_sum_hw", "conformance", TFL, 2, 0, false},
    {"hybrid_probe_sum_hw_builtin", "hybrid_builtin", REF, 2, 0, false},
    {"hybrid_probe_bmm_k817", "conformance", TFL, 2, 0, false},
    {"hybrid_probe_bmm_k817_builtin", "hybrid_builtin", REF, 2, 0, false},
    {"hybrid_probe_bmm_k1024", "conformance", TFL, 2, 0, false},
    {"hybrid_probe_bmm_k1024_builtin", "hybrid_builtin", REF, 2, 0, false},
    {"hybrid_probe_bmm_k2000", "conformance", TFL, 2, 0, false},
    {"hybrid_probe_bmm_k2000_builtin", "hybrid_builtin", REF, 2, 0, false},
    /* exact8: float models too. TFLITE mode: LOG is XNNPACK's f32-vlog over the whole float range
       (88.37627 for inf and above 2^127.5), ADD keeps inf; REFERENCE mode: logf, a delegated ADD
       keeps inf, but where the classic interpreter delegates nothing (a computed-size RESIZE)
       ADD / SUB / MUL / DIV clamp to [-FLT_MAX, FLT_MAX] */
    {"float_log_range", "conformance", TFL, 1, 0, false},
    {"float_log_range_builtin", "hybrid_builtin", REF, 1, 0, false},
    /* lead49: EXP too (XNNPACK's exp in TFLITE mode: inf from 88.7, -NaN for NaN, denormal
       results 0; std::exp in REFERENCE mode), and the softplus twin over every probe value */
    {"exp_f32_expf_probe", "conformance", TFL, 1, 0, false},
    {"exp_f32_expf_probe_builtin", "hybrid_builtin", REF, 1, 0, false},
    {"float_exp_range", "conformance", TFL, 1, 0, false},
    {"float_exp_range_builtin", "hybrid_builtin", REF, 1, 0, false},
    {"float_softplus_overflow", "conformance", TFL, 3, 0, false},
    {"float_softplus_overflow_builtin", "hybrid_builtin", REF, 3, 0, false},
    {"float_arith_overflow", "conformance", TFL, 5, 0, false},
    /* its fifth output (ADD with RELU) is not checked: the older delegate's RELU clamp turns NaN
       into 0 there (2 of 16), tfcc keeps NaN, as the builtin kernel (the dynres row) */
    {"float_arith_overflow_builtin", "hybrid_builtin", REF, 4, 0, false},
    {"float_arith_overflow_dynres_builtin", "hybrid_builtin", REF, 6, 0, false},
    /* exact53: float GELU and RESIZE_BILINEAR in every model (TFLITE mode): XNNPACK's
       interpolant over [-12, 12], its clamps and the whole float range; an int16x8 twin's GELU
       -> QUANTIZE; XNNPACK's ibilinear in each coordinate mode, up / down / 2x / 1x1 / same
       size; a size the graph computes keeps the builtin kernel (LiteRT's delegate declines) */
    {"float_gelu_range", "conformance", TFL, 2, 0, true},
    {"gelu_f32_quantize_i16", "conformance", TFL, 2, 0, true},
    {"float_resize_bilinear_xnn_half_pixel", "conformance", TFL, 6, 0, false},
    {"float_resize_bilinear_xnn_align_corners", "conformance", TFL, 6, 0, false},
    {"float_resize_bilinear_xnn_legacy", "conformance", TFL, 6, 0, false},
    {"float_resize_bilinear_xnn_align_half", "conformance", TFL, 6, 0, false},
    {"float_resize_bilinear_xnn_c1", "conformance", TFL, 2, 0, false},
    {"float_resize_bilinear_computed_size", "conformance", TFL, 2, 0, false},
    /* exact53: a constant rhs of a float BATCH_MATMUL (XNNPACK's order, a hybrid model) packed
       (adj_y: transposed) once at load */
    {"hybrid_net_bmm_const_rhs_fc", "conformance", TFL, 2, 0, false},
    {"hybrid_net_bmm_const_rhs_fc_adj_y", "conformance", TFL, 2, 0, true},
    {"hybrid_net_bmm_const_rhs_fc_bcast_adj_y", "conformance", TFL, 2, 0, true},
};

/* Runs conformance model c->name in mode c->compat and requires output out_i to equal
 * tests/ops/<c->dir>/<name>.out<out_i>.npy bit for bit (c->tol 0) or within c->tol. */
static void run_hybrid_case(tfcc_runtime *rt, const char *src, const hybrid_case *c, int out_i) {
  const char *name = c->name;
  char path[4096], ref_path[4096];
  snprintf(path, sizeof path, "%s/tests/ops/conformance/%s.tflite", src, name);
  tfcc_model_options mo;
  tfcc_model_options_default(&mo);
  mo.quant_compat = c->compat;
  tfcc_model *m = NULL;
  tfcc_status st = tfcc_model_load_file(rt, path, &mo, &m);
  CHECKF(st == TFCC_OK, "%s: %s", name, tfcc_last_error());
  if (st != TFCC_OK) return;
  tfcc_session *s = NULL;
  st = tfcc_session_create(m, NULL, &s);
  tfcc_model_release(m);
  CHECKF(st == TFCC_OK, "%s: %s", name, tfcc_last_error());
  if (st != TFCC_OK) return;
  test_npy in, ref;
  snprintf(path, sizeof path, "%s/tests/ops/conformance/%s.in0.npy", src, name);
  snprintf(ref_path, sizeof ref_path, "%s/tests/ops/%s/%s.out%d.npy", src, c->dir, name, out_i);
  if (test_npy_load(path, &in) != 0 || test_npy_load(ref_path, &ref) != 0) {
    CHECKF(0, "%s: data missing", name);
    tfcc_session_destroy(s);
    return;
  }
  const int n_out = tfcc_session_output_count(s);
  CHECK(n_out > out_i && n_out <= 8);
  tfcc_tensor_info oi;
  void *outs[8] = {NULL};
  for (int i = 0; i < n_out && i < 8; i++) {
    tfcc_session_output_info(s, i, &oi);
    outs[i] = malloc(oi.bytes ? oi.bytes : 1);
  }
  tfcc_session_output_info(s, out_i, &oi);
  float *out = outs[out_i];
  /* exact2: more inputs where the case has them (BATCH_MATMUL of two run-time operands; ref10:
     up to 4, in<i>.npy each) */
  enum { MAX_IN = 4 };
  test_npy more[MAX_IN];
  const void *ins[MAX_IN] = {in.data, NULL, NULL, NULL};
  const int n_in = tfcc_session_input_count(s);
  CHECKF(n_in >= 1 && n_in <= MAX_IN, "%s: %d inputs", name, n_in);
  bool loaded = true;
  int n_more = 0;
  for (int i = 1; i < n_in && i < MAX_IN && loaded; i++) {
    snprintf(path, sizeof path, "%s/tests/ops/conformance/%s.in%d.npy", src, name, i);
    loaded = test_npy_load(path, &more[i]) == 0;
    CHECKF(loaded, "%s: input %d missing", name, i);
    if (loaded) ins[i] = more[i].data, n_more = i;
  }
  st = loaded && n_in <= MAX_IN ? tfcc_session_run(s, ins, outs) : TFCC_ERR_INVALID_ARG;
  for (int i = 1; i <= n_more; i++) test_npy_free(&more[i]);
  CHECKF(st == TFCC_OK, "%s: run: %s", name, tfcc_last_error());
  CHECKF(oi.bytes == ref.bytes, "%s: %zu output bytes, reference %zu", name, oi.bytes, ref.bytes);
  if (st == TFCC_OK && oi.bytes == ref.bytes) {
    const float *r = ref.data;
    size_t n = oi.bytes / sizeof(float), diff = 0, over = 0;
    float worst = 0.0f;
    for (size_t i = 0; i < n; i++) {
      const float d = fabsf(out[i] - r[i]);
      /* exact8: an infinity or NaN on one side only, or infinities of opposite signs */
      bool special =
          isnan(out[i]) != isnan(r[i]) || ((isinf(out[i]) || isinf(r[i])) && out[i] != r[i]);
      if (c->tol == 0.0f && !(isnan(out[i]) && isnan(r[i]))) { /* bit for bit: -0 too */
        uint32_t a, b;
        memcpy(&a, &out[i], sizeof a);
        memcpy(&b, &r[i], sizeof b);
        special = special || a != b;
      }
      diff += d > 0.0f || special;
      over += d > c->tol + c->tol * fabsf(r[i]) || special;
      worst = d > worst ? d : worst;
    }
    /* tol 0: TensorFlow Lite's arithmetic, bit for bit */
    CHECKF(over == 0, "%s: out%d: %zu of %zu differ (max %g, tolerance %g)", name, out_i, diff, n,
           worst, (double)c->tol);
    printf("  %-46s out%d %s: %zu of %zu differ\n", name, out_i,
           c->compat == TFCC_QUANT_COMPAT_REFERENCE ? "REFERENCE vs classic TFLite"
                                                    : "TFLITE vs LiteRT",
           diff, n);
  }
  for (int i = 0; i < 8; i++) free(outs[i]);
  test_npy_free(&in);
  test_npy_free(&ref);
  tfcc_session_destroy(s);
}

/* Every row of k_hybrid_cases on one thread, the rows marked `threads` on 2, 3 and 4 too. */
static void test_hybrid_cases(void) {
  const char *src = tfcc_test_source_dir();
  const size_t n = sizeof k_hybrid_cases / sizeof k_hybrid_cases[0];
  for (int th = 1; th <= 4; th++) {
    tfcc_runtime_options ro;
    tfcc_runtime_options_default(&ro);
    if (th > 1) ro.num_threads = th;
    tfcc_runtime *rt = NULL;
    CHECK(tfcc_runtime_create(th > 1 ? &ro : NULL, &rt) == TFCC_OK);
    if (!rt) continue;
    if (th > 1) printf("  on %d threads:\n", th);
    for (size_t i = 0; i < n; i++) {
      const hybrid_case *c = &k_hybrid_cases[i];
      if (th > 1 && !c->threads) continue;
      for (int o = 0; o < c->outputs; o++) run_hybrid_case(rt, src, c, o);
    }
    tfcc_runtime_destroy(rt);
  }
}

/* ops: a grouped hybrid CONV_2D: REFERENCE mode refuses it (the classic interpreter's builtin
   kernel was 4.8 off LiteRT on the g2 case); TFLITE mode runs it (a row of the table) */
static void test_grouped_reference_refused(void) {
  static const char *grouped[] = {"conv_2d_hybrid_grouped_pc_g4", "conv_2d_hybrid_grouped_pt_g2"};
  tfcc_runtime *rt = NULL;
  CHECK(tfcc_runtime_create(NULL, &rt) == TFCC_OK);
  if (!rt) return;
  const char *src = tfcc_test_source_dir();
  for (size_t i = 0; i < sizeof grouped / sizeof grouped[0]; i++) {
    char path[4096];
    snprintf(path, sizeof path, "%s/tests/ops/conformance/%s.tflite", src, grouped[i]);
    tfcc_model_options mo;
    tfcc_model_options_default(&mo);
    mo.quant_compat = TFCC_QUANT_COMPAT_REFERENCE;
    tfcc_model *m = NULL;
    CHECK(tfcc_model_load_file(rt, path, &mo, &m) == TFCC_ERR_UNSUPPORTED);
    CHECKF(strstr(tfcc_last_error(), "grouped convolution") != NULL, "%s", tfcc_last_error());
    if (m) tfcc_model_release(m);
  }
  tfcc_runtime_destroy(rt);
}

#undef REF
#undef TFL

/* ---- vectorised sym / asym element and fast depthwise kernels against the portable ones */

static void fill_activations(float *x, size_t n) {
  for (size_t i = 0; i < n; i++) x[i] = frand(-3.0f, 5.0f);
  if (n > 7) {
    x[1] = 0.0f, x[2] = -0.0f, x[3] = 1e30f, x[4] = -1e30f; /* clamps */
    x[5] = 0.5f, x[6] = -2.5f;                              /* ties once scaled by 1 */
  }
}

static void test_vector_quantizers(void) {
  const tfcc_isa best = tfcc_cpu_dispatch_isa(TFCC_ISA_COUNT_);
  (void)best; /* only the x86 variants below read it */
  tfcc_hyb_round_fn rnds[3] = {tfcc_hyb_round_scalar, NULL, NULL};
  tfcc_hyb_minmax_fn mms[3] = {tfcc_hyb_minmax_scalar, NULL, NULL};
  tfcc_hyb_qd8_rows_fn qd8s[3] = {tfcc_hyb_qd8_rows_scalar, NULL, NULL};
#if defined(__x86_64__) || defined(__i386__)
  if (tfcc_isa_level_fits(TFCC_ISA_AVX2, best))
    rnds[1] = tfcc_hyb_round_avx2, mms[1] = tfcc_hyb_minmax_avx2, qd8s[1] = tfcc_hyb_qd8_rows_avx2;
  if (tfcc_isa_level_fits(TFCC_ISA_AVX512, best))
    rnds[2] = tfcc_hyb_round_avx512, mms[2] = tfcc_hyb_minmax_avx512,
    qd8s[2] = tfcc_hyb_qd8_rows_avx512;
#endif
  /* the element alone on every quarter step in [-260, 260] (halves: ties), the floats next to
     each, NaN, infinities and zeros, for two zero points and both clamps: clamp(roundf(v)) of
     v = zp + x * inv as the portable loop forms it */
  for (int v = 0; v < 3; v++) {
    if (!rnds[v]) continue;
    enum { NQ = 2081 * 3 + 16 };
    static float xs[NQ];
    static int8_t qs[NQ];
    size_t n = 0;
    /* the special values first, so that the vector loops meet them (not only the scalar tail),
       with values far outside int8 and int32 (the clamps, or the store's saturation, must
       give the bounds) */
    xs[n++] = NAN, xs[n++] = -NAN, xs[n++] = INFINITY, xs[n++] = -INFINITY, xs[n++] = 0.0f;
    xs[n++] = -0.0f;
    xs[n++] = -1e10f, xs[n++] = 1e10f, xs[n++] = -3e9f, xs[n++] = 3e9f, xs[n++] = -2147483648.0f;
    xs[n++] = -300.5f;
    for (int k = -1040; k <= 1040; k++) {
      const float f = (float)k * 0.25f;
      xs[n++] = f, xs[n++] = nextafterf(f, -INFINITY), xs[n++] = nextafterf(f, INFINITY);
    }
    /* and again in the scalar tail */
    xs[n++] = NAN, xs[n++] = -INFINITY, xs[n++] = -1e10f, xs[n++] = 1e10f;
    static const int32_t zps[2] = {0, -37};
    for (int z = 0; z < 2; z++)
      for (int lim = 0; lim < 2; lim++) {
        const int32_t qmin = lim ? -127 : -128, qmax = 127;
        rnds[v](xs, n, 1.0f, zps[z], qmin, qmax, qs, false);
        int bad = 0;
        for (size_t i = 0; i < n; i++) {
          const float p = xs[i] * 1.0f;
          float t = p + (float)zps[z];
          t = t > -256.0f ? t : -256.0f; /* NaN: -256 */
          t = t < 256.0f ? t : 256.0f;
          int32_t r = (int32_t)roundf(t);
          r = r < qmin ? qmin : r > qmax ? qmax : r;
          bad += qs[i] != r;
        }
        CHECKF(bad == 0, "round element %d zp %d qmin %d: %d of %zu differ", v, (int)zps[z],
               (int)qmin, bad, n);
      }
  }
  static const size_t lens[] = {1, 3, 16, 17, 40, 64, 100, 1000};
  float x[1000];
  int8_t q0[1000], q1[1000];
  int16_t c1[1000];
  for (int v = 0; v < 3; v++) {
    if (!rnds[v]) continue;
    for (size_t li = 0; li < sizeof lens / sizeof lens[0]; li++) {
      const size_t n = lens[li];
      fill_activations(x, n);
      {
        /* qd8 rows: the whole array as one row, and as rows of n / 2 (n even) */
        float s0, s1[2];
        int32_t z0, z1[2];
        tfcc_hyb_quantize(TFCC_HYB_QD8, x, n, q0, &s0, &z0, NULL, NULL);
        qd8s[v](x, n, 1, q1, s1, z1, 0);
        CHECKF(s0 == s1[0] && z0 == z1[0] && memcmp(q0, q1, n) == 0, "qd8 rows %d n %zu", v, n);
        /* the GEMM's bytes: q + 128 and zero point + 128 */
        qd8s[v](x, n, 1, q1, s1, z1, 128);
        int flipped = 0;
        for (size_t i = 0; i < n; i++) flipped += (uint8_t)q1[i] != ((uint8_t)q0[i] ^ 0x80u);
        CHECKF(s0 == s1[0] && z0 + 128 == z1[0] && flipped == 0, "qd8 rows +128 %d n %zu", v, n);
        if (n % 2 == 0) {
          qd8s[v](x, n / 2, 2, q1, s1, z1, 0);
          for (int r = 0; r < 2; r++) {
            tfcc_hyb_quantize(TFCC_HYB_QD8, x + r * (n / 2), n / 2, q0, &s0, &z0, NULL, NULL);
            CHECKF(s0 == s1[r] && z0 == z1[r] && memcmp(q0, q1 + r * (n / 2), n / 2) == 0,
                   "qd8 rows %d n %zu row %d", v, n / 2, r);
          }
        }
      }
      if (n == 1000) {
        /* many rows (blocks of rows share the parameter vectors): an all-zero row, rows of
         * one sign, rows shorter and longer than a vector */
        static const size_t row_lens[] = {3, 8, 16, 24, 32, 40, 64, 79, 80, 96};
        for (size_t k = 0; k < sizeof row_lens / sizeof row_lens[0]; k++) {
          const size_t len = row_lens[k], rows = n / len;
          float s1[334];
          int32_t z1[334];
          for (size_t i = 0; i < len; i++) x[3 * len + i] = 0.0f;
          for (size_t i = 0; i < len; i++) x[5 * len + i] = 0.25f + (float)i;
          for (size_t i = 0; i < len; i++) x[7 * len + i] = -0.75f - (float)i;
          /* in a copy: NaN first, in the middle and last in a row (where a NaN wins depends on
             the order in which the values meet), and a row of zeros of both signs */
          float xr[1000];
          memcpy(xr, x, sizeof xr);
          xr[0] = NAN, xr[len + len / 2] = NAN, xr[2 * len + len - 1] = NAN;
          for (size_t i = 0; i < len; i++) xr[8 * len + i] = i % 3 ? 0.0f : -0.0f;
          qd8s[v](xr, len, rows, q1, s1, z1, 0);
          int bad = 0;
          for (size_t r = 0; r < rows; r++) {
            float s0;
            int32_t z0;
            tfcc_hyb_quantize(TFCC_HYB_QD8, xr + r * len, len, q0, &s0, &z0, NULL, NULL);
            bad += memcmp(&s0, &s1[r], sizeof s0) != 0 || z0 != z1[r] ||
                   memcmp(q0, q1 + r * len, len) != 0;
          }
          CHECKF(bad == 0, "qd8 rows %d: %d of %zu rows of %zu differ", v, bad, rows, len);
        }
      }
      for (int sch = TFCC_HYB_SYM; sch <= TFCC_HYB_ASYM; sch++) {
        float s0, s1, s2;
        int32_t z0, z1, z2;
        tfcc_hyb_quantize((tfcc_hyb_scheme)sch, x, n, q0, &s0, &z0, NULL, NULL);
        tfcc_hyb_quantize_vec((tfcc_hyb_scheme)sch, x, n, q1, &s1, &z1, NULL, mms[v], rnds[v]);
        CHECKF(s0 == s1 && z0 == z1 && memcmp(q0, q1, n) == 0,
               "vector quantizer %d scheme %d n %zu differs", v, sch, n);
        if (sch != TFCC_HYB_ASYM) continue;
        tfcc_hyb_quantize_asym_centered(x, n, c1, &s2, &z2, mms[v], rnds[v]);
        int bad = 0;
        for (size_t i = 0; i < n; i++) bad += c1[i] != (int32_t)q0[i] - z0;
        CHECKF(s0 == s2 && z0 == z2 && bad == 0, "centered asym %d n %zu: %d differ", v, n, bad);
      }
    }
  }
}

/* Depth multiplier M: the portable kernel on C input channels against the fast kernels on the
 * input expanded to C * M channels (tfcc_hyb_dwconv_expand), bit for bit. */
static void dw_case_m(int H, int W, int C, int M, int kh, int kw, int stride, int pad, int dil,
                      bool per_channel, bool with_bias) {
  const tfcc_isa best = tfcc_cpu_dispatch_isa(TFCC_ISA_COUNT_);
  (void)best; /* only the x86 variants below read it */
  tfcc_hyb_dwconv_fn fns[3] = {tfcc_hyb_dwconv_fast_scalar, NULL, NULL};
#if defined(__x86_64__) || defined(__i386__)
  if (tfcc_isa_level_fits(TFCC_ISA_AVX2, best)) fns[1] = tfcc_hyb_dwconv_fast_avx2;
  if (tfcc_isa_level_fits(TFCC_ISA_AVX512, best)) fns[2] = tfcc_hyb_dwconv_fast_avx512;
#endif
  tfcc_conv_geom g;
  memset(&g, 0, sizeof g);
  g.batches = 1, g.in_h = H, g.in_w = W, g.in_c = C, g.filter_in_c = 1;
  g.filter_h = kh, g.filter_w = kw, g.stride_h = g.stride_w = stride;
  g.pad_h = g.pad_w = pad, g.dil_h = g.dil_w = dil, g.out_c = C * M;
  const int OC = C * M;
  g.out_h = (H + 2 * pad - dil * (kh - 1) - 1) / stride + 1;
  g.out_w = (W + 2 * pad - dil * (kw - 1) - 1) / stride + 1;
  CHECK(tfcc_hyb_dwconv_fast_applies(&g));
  const size_t in_n = (size_t)H * W * C, out_n = (size_t)g.out_h * g.out_w * OC;
  const size_t ex = tfcc_hyb_dwconv_expanded_elems(&g);
  CHECK(ex == (M > 1 ? (size_t)H * W * OC : 0));
  float *x = malloc(in_n * sizeof(float)), *fs = malloc((size_t)OC * sizeof(float));
  float *bias = malloc((size_t)OC * sizeof(float)), *o0 = malloc(out_n * sizeof(float));
  float *o1 = malloc(out_n * sizeof(float));
  int8_t *q = malloc(in_n), *w = malloc((size_t)kh * kw * OC);
  int16_t *qc = malloc(in_n * sizeof(int16_t)), *qe = malloc((ex ? ex : 1) * sizeof(int16_t));
  int32_t *w32 = malloc((size_t)kh * kw * OC * sizeof(int32_t));
  CHECK(x && fs && bias && o0 && o1 && q && w && qc && qe && w32);
  fill_activations(x, in_n);
  x[3] = 4.0f, x[4] = -2.0f; /* a usable range, not the clamp tests' extremes */
  for (int i = 0; i < kh * kw * OC; i++) w32[i] = w[i] = (int8_t)(rnd() % 255 - 127);
  for (int c = 0; c < OC; c++) fs[c] = frand(0.001f, 0.02f), bias[c] = frand(-1.0f, 1.0f);
  float scale, s2;
  int32_t zp, z2;
  tfcc_hyb_quantize(TFCC_HYB_ASYM, x, in_n, q, &scale, &zp, NULL, NULL);
  tfcc_hyb_quantize_asym_centered(x, in_n, qc, &s2, &z2, NULL, NULL);
  CHECK(scale == s2 && zp == z2);
  const tfcc_conv_geom gk = tfcc_hyb_dwconv_expanded_geom(&g);
  CHECK(gk.in_c == OC && gk.out_c == OC);
  if (ex) tfcc_hyb_dwconv_expand(NULL, &g, qc, qe);
  const int16_t *xk = ex ? qe : qc;
  const float lo = C % 2 ? 0.0f : -INFINITY, hi = C % 2 ? 6.0f : INFINITY;
  tfcc_hyb_dwconv_rows(&g, q, zp, scale, w, fs, per_channel ? 1 : 0, with_bias ? bias : NULL, lo,
                       hi, o0, 0, g.out_h);
  for (int v = 0; v < 3; v++) {
    if (!fns[v]) continue;
    memset(o1, 0, out_n * sizeof(float));
    /* two row ranges, as two tasks would */
    const int32_t mid = g.out_h / 2;
    fns[v](&gk, xk, scale, w32, fs, per_channel ? 1 : 0, with_bias ? bias : NULL, lo, hi, o1, 0,
           mid);
    fns[v](&gk, xk, scale, w32, fs, per_channel ? 1 : 0, with_bias ? bias : NULL, lo, hi, o1, mid,
           g.out_h);
    CHECKF(memcmp(o0, o1, out_n * sizeof(float)) == 0,
           "fast depthwise %d %dx%dx%d m%d k%dx%d s%d p%d d%d differs from the portable kernel", v,
           H, W, C, M, kh, kw, stride, pad, dil);
  }
  /* the q8 depthwise row kernel's hybrid output (AVX512-VNNI), on the same int8 q */
  const tfcc_q8_dw_kernel *dk = tfcc_q8_dw_select(best);
  if (M == 1 && dk && dk->row_s) {
    tfcc_q8_dw_packed p;
    tfcc_conv_requant r;
    memset(&r, 0, sizeof r);
    CHECK(tfcc_q8_dw_pack(dk, true, C, kh, kw, w, NULL, &r, &p) && p.rows);
    void *scratch = malloc(tfcc_q8_dw_scratch_bytes(&p, &g, 1) + 64);
    CHECK(scratch != NULL);
    const tfcc_q8_dw_hyb hy = {scale, fs, per_channel ? 1 : 0, with_bias ? bias : NULL, lo, hi, zp};
    memset(o1, 0, out_n * sizeof(float));
    tfcc_q8_dwconv_hybrid(NULL, &g, &p, &hy, q, o1, scratch);
    CHECKF(memcmp(o0, o1, out_n * sizeof(float)) == 0,
           "q8 row-kernel hybrid depthwise %dx%dx%d k%dx%d s%d p%d d%d differs from the portable "
           "kernel",
           H, W, C, kh, kw, stride, pad, dil);
    free(scratch);
    tfcc_q8_dw_packed_free(&p);
  }
  free(x), free(fs), free(bias), free(o0), free(o1), free(q), free(w), free(qc), free(qe),
      free(w32);
}

static void dw_case(int H, int W, int C, int kh, int kw, int stride, int pad, int dil,
                    bool per_channel, bool with_bias) {
  dw_case_m(H, W, C, 1, kh, kw, stride, pad, dil, per_channel, with_bias);
}

/* qd8 rows (hybrid55): the AVX-512 element narrows with saturation instead of clamping in
 * float, for rows whose max(|lo|, |hi|) * inv is at most 2^30; the others keep the clamps.
 * Rows on both sides of that guard, each variant against tfcc_hyb_quantize row by row, at
 * off 0 and 128: ordinary rows of many lengths and block fills, values on half steps of the
 * scale (ties), a denormal range (inv = +inf: x * inv = +inf, which converts to INT32_MIN
 * where the clamp gives 127), infinities (inv = 0), a range overflowing to +inf, NaN hidden
 * from the min/max trees, all zeros. */
static void test_qd8_rows_sat(void) {
  const tfcc_isa best = tfcc_cpu_dispatch_isa(TFCC_ISA_COUNT_);
  (void)best;
  tfcc_hyb_qd8_rows_fn qd8s[3] = {tfcc_hyb_qd8_rows_scalar, NULL, NULL};
#if defined(__x86_64__) || defined(__i386__)
  if (tfcc_isa_level_fits(TFCC_ISA_AVX2, best)) qd8s[1] = tfcc_hyb_qd8_rows_avx2;
  if (tfcc_isa_level_fits(TFCC_ISA_AVX512, best)) qd8s[2] = tfcc_hyb_qd8_rows_avx512;
#endif
  enum { MAXN = 40 * 100 };
  static float x[MAXN];
  static int8_t q0[100], q1[MAXN];
  static float s1[40];
  static int32_t z1[40];
  static const size_t lens[] = {16, 17, 24, 31, 32, 48, 96, 100};
  static const size_t nrows[] = {1, 5, 16, 17, 40};
  uint32_t seed = 12345u;
  for (int v = 0; v < 3; v++) {
    if (!qd8s[v]) continue;
    for (size_t li = 0; li < sizeof lens / sizeof lens[0]; li++)
      for (size_t ri = 0; ri < sizeof nrows / sizeof nrows[0]; ri++) {
        const size_t len = lens[li], rows = nrows[ri];
        for (size_t r = 0; r < rows; r++) {
          float *xr = x + r * len;
          const int kind = (int)((r + li) % 9);
          for (size_t i = 0; i < len; i++) {
            seed = seed * 1664525u + 1013904223u;
            const float u = (float)(seed >> 8) / 16777216.0f; /* [0, 1) */
            switch (kind) {
              case 0: xr[i] = (u - 0.3f) * 7.0f; break;
              case 1: xr[i] = u * 6.0f; break;                                /* one sign */
              case 2: xr[i] = (float)((int)(u * 511.0f) - 255) * 0.5f; break; /* ties */
              case 3: xr[i] = i % 2 ? 1e-45f : 0.0f; break;                   /* denormal range */
              case 4: xr[i] = i == len / 2 ? INFINITY : u; break;
              case 5: xr[i] = i % 3 == 0 ? -3e38f : i % 3 == 1 ? 3e38f : u; break; /* range inf */
              case 6: xr[i] = i == len - 1 ? NAN : u - 0.5f; break;                /* NaN last */
              case 7: xr[i] = 0.0f; break;
              default: xr[i] = i == 0 ? -INFINITY : -u; break;
            }
          }
        }
        for (int off = 0; off <= 128; off += 128) {
          memset(q1, 0x55, rows * len);
          qd8s[v](x, len, rows, q1, s1, z1, off);
          int bad = 0;
          for (size_t r = 0; r < rows; r++) {
            float s0;
            int32_t z0;
            tfcc_hyb_quantize(TFCC_HYB_QD8, x + r * len, len, q0, &s0, &z0, NULL, NULL);
            int b = memcmp(&s0, &s1[r], sizeof s0) != 0 || z0 + off != z1[r];
            for (size_t i = 0; i < len; i++)
              b |= (uint8_t)q1[r * len + i] != (uint8_t)((uint8_t)q0[i] ^ (off ? 0x80u : 0u));
            bad += b;
          }
          CHECKF(bad == 0, "qd8 rows %d len %zu rows %zu off %d: %d rows differ", v, len, rows, off,
                 bad);
        }
      }
  }
}

static void test_dwconv(void) {
  dw_case(9, 7, 5, 3, 3, 1, 1, 1, true, true);     /* channels < 16 */
  dw_case(8, 8, 16, 3, 3, 2, 1, 1, false, true);   /* one block of 16, per-tensor */
  dw_case(12, 10, 96, 3, 3, 1, 1, 1, true, false); /* 64 + 32 */
  dw_case(11, 11, 149, 5, 5, 2, 2, 1, true, true); /* 2 x 64 + 16 + 5 */
  dw_case(10, 9, 33, 3, 3, 1, 2, 2, true, true);   /* dilation */
  dw_case(5, 37, 40, 3, 3, 1, 1, 1, true, true);   /* long rows: groups of pixels, 16 + 16 + 8 */
  dw_case(7, 9, 16, 3, 3, 1, 1, 1, true, true);    /* 16 divides 64 (no multi-pixel vectors) */
  dw_case(15, 14, 144, 3, 3, 2, 1, 1, true, true); /* MobileNetV2's 2 x 64 + 16, stride 2 */
  dw_case(6, 9, 44, 3, 3, 1, 1, 1, false, false);  /* AVX2: 32 + 8 + 4, per-tensor, no bias */
  /* depth multiplier > 1: the input expanded to one channel per output channel */
  dw_case_m(84, 145, 1, 16, 5, 5, 2, 0, 1, true, true); /* bcresnet's first layer (rows s2) */
  dw_case_m(9, 11, 1, 16, 5, 5, 1, 2, 1, true, true);   /* 1 -> 16, padding */
  dw_case_m(7, 8, 3, 2, 3, 3, 1, 1, 1, false, true);    /* 6 channels: tail only */
  dw_case_m(10, 9, 5, 7, 3, 3, 2, 1, 1, true, false);   /* 35 = 2 x 16 + 3 */
  dw_case_m(8, 13, 24, 3, 3, 3, 1, 1, 2, true, true);   /* 72 = 64 + 8, dilation */
  dw_case_m(6, 40, 2, 40, 1, 3, 1, 0, 1, true, true);   /* 80 = 64 + 16, 1x3, pixel groups */
}

/* The nr2 convolution (fewer than 8 output channels): every variant's vector kernel against the
 * portable loop, bit for bit (channel counts around the multiples of 4, padding, stride 2). */
static void xnn_conv_c4_case(int H, int W, int C, int OC, int k, int stride, int pad, bool bias) {
  tfcc_conv_geom cg = square_geom(2, H, W, C, C, OC, k, stride, pad);
  const int32_t K = k * k * C;
  const size_t in_n = (size_t)2 * H * W * C, on = (size_t)2 * cg.out_h * cg.out_w * OC;
  float *x = malloc(in_n * sizeof(float)), *w = malloc((size_t)K * OC * sizeof(float));
  float *b = malloc((size_t)OC * sizeof(float)), *want = malloc(on * sizeof(float));
  float *o = malloc(on * sizeof(float) + 64);
  int32_t ocp = 0;
  float *wp = NULL;
  CHECK(x && w && b && want && o);
  if (x && w && b && want && o) {
    for (size_t j = 0; j < in_n; j++) x[j] = frand(-2.0f, 2.0f) * (float)(1u << (rnd() % 8));
    for (int j = 0; j < K * OC; j++) w[j] = frand(-1.0f, 1.0f);
    for (int j = 0; j < OC; j++) b[j] = frand(-1.0f, 1.0f);
    wp = tfcc_xnn_conv_pack(w, OC, K, &ocp);
  }
  CHECK(wp != NULL);
  if (wp) {
    const int rows = 2 * cg.out_h;
    tfcc_xnn_conv_c4_f32_rows(&cg, x, wp, ocp, bias ? b : NULL, -3.0f, 5.0f, want, 0, rows);
    TFCC_EACH_VARIANT(tfcc_tflite_f32, kk, tfcc_cpu_dispatch_isa(TFCC_ISA_COUNT_)) {
      for (size_t j = 0; j < on + 16; j++) o[j] = 1234.5f;
      kk->conv_c4_rows(&cg, x, wp, ocp, bias ? b : NULL, -3.0f, 5.0f, o, 0, rows / 2);
      kk->conv_c4_rows(&cg, x, wp, ocp, bias ? b : NULL, -3.0f, 5.0f, o, rows / 2, rows);
      CHECKF(memcmp(o, want, on * sizeof(float)) == 0 && o[on] == 1234.5f,
             "%s nr2 conv %dx%dx%d -> %d k%d s%d p%d", kk->name, H, W, C, OC, k, stride, pad);
    }
  }
  free(x), free(w), free(b), free(want), free(o), free(wp);
}

/* ---- Eigen-order float FULLY_CONNECTED: every variant against the reference loop, bit for
   bit: batches around the groups of 4, depths around the pair / 8 / 816 boundaries (820, 1000,
   1632, 2000 split in blocks), units around every vector width; values spread over many
   binades so that any change of order shows. */

static void fc_eigen_case(int B, int K, int U, bool with_bias, float lo, float hi) {
  const tfcc_fc_dims d = {B, K, U};
  float *x = malloc((size_t)B * (size_t)K * sizeof(float));
  float *w = malloc((size_t)U * (size_t)K * sizeof(float));
  float *bias = malloc((size_t)U * sizeof(float));
  float *want = malloc((size_t)B * (size_t)U * sizeof(float));
  float *got = malloc((size_t)B * (size_t)U * sizeof(float) + 64);
  float *scratch = malloc(tfcc_fc_eigen_scratch_bytes(K) + 64);
  float *wp = malloc((tfcc_fc_eigen_packed_floats(U, K) + 1) * sizeof(float));
  if (!x || !w || !bias || !want || !got || !scratch || !wp) {
    CHECK(!"fc_eigen_case memory");
    goto done;
  }
  for (size_t i = 0; i < (size_t)B * (size_t)K; i++)
    x[i] = frand(-2.0f, 2.0f) * (float)(1u << (rnd() % 12));
  for (size_t i = 0; i < (size_t)U * (size_t)K; i++) w[i] = frand(-1.0f, 1.0f);
  for (int i = 0; i < U; i++) bias[i] = frand(-4.0f, 4.0f);
  tfcc_fc_f32_eigen(&d, x, w, with_bias ? bias : NULL, lo, hi, want);
  tfcc_fc_eigen_pack(w, U, K, wp);
  TFCC_EACH_VARIANT(tfcc_fc_eigen, k, tfcc_cpu_dispatch_isa(TFCC_ISA_COUNT_)) {
    const size_t n = (size_t)B * (size_t)U;
    for (size_t j = 0; j < n + 16; j++) got[j] = 1234.5f; /* guard past the output */
    k->fn(&d, false, x, w, NULL, with_bias ? bias : NULL, lo, hi, got, scratch, 0, U);
    CHECKF(memcmp(got, want, n * sizeof(float)) == 0 && got[n] == 1234.5f,
           "%s B=%d K=%d U=%d bias=%d", k->name, B, K, U, (int)with_bias);
    /* in two unit ranges (the threaded driver's pieces), the second not on a panel boundary */
    for (size_t j = 0; j < n + 16; j++) got[j] = 1234.5f;
    k->fn(&d, false, x, w, NULL, with_bias ? bias : NULL, lo, hi, got, scratch, U / 3, U);
    k->fn(&d, false, x, w, NULL, with_bias ? bias : NULL, lo, hi, got, scratch, 0, U / 3);
    CHECKF(memcmp(got, want, n * sizeof(float)) == 0 && got[n] == 1234.5f,
           "%s B=%d K=%d U=%d in two ranges", k->name, B, K, U);
    /* exact11: on the weights packed once (no scratch), whole and from a panel boundary, and
     * from a unit off the boundary (there the per-call transpose) */
    for (size_t j = 0; j < n + 16; j++) got[j] = 1234.5f;
    k->fn(&d, false, x, w, wp, with_bias ? bias : NULL, lo, hi, got, NULL, 0, U);
    CHECKF(memcmp(got, want, n * sizeof(float)) == 0 && got[n] == 1234.5f,
           "%s B=%d K=%d U=%d on packed weights", k->name, B, K, U);
    const int32_t u16 = U / 32 * 16;
    for (size_t j = 0; j < n + 16; j++) got[j] = 1234.5f;
    k->fn(&d, false, x, w, wp, with_bias ? bias : NULL, lo, hi, got, scratch, u16, U);
    k->fn(&d, false, x, w, wp, with_bias ? bias : NULL, lo, hi, got, scratch, U / 3,
          u16 > U / 3 ? u16 : U / 3);
    k->fn(&d, false, x, w, wp, with_bias ? bias : NULL, lo, hi, got, scratch, 0,
          U / 3 < u16 ? U / 3 : u16);
    CHECKF(memcmp(got, want, n * sizeof(float)) == 0 && got[n] == 1234.5f,
           "%s B=%d K=%d U=%d on packed weights in three ranges", k->name, B, K, U);
  }
done:
  free(x);
  free(w);
  free(bias);
  free(want);
  free(got);
  free(scratch);
  free(wp);
}

/* ref12: the GEMV order (gemv true) of every variant against the scalar tfcc_fc_f32_eigen_gemv,
   bit for bit: one batch (the operator's case, on the weights packed once: four columns side by
   side) and a few batches (the per-panel path, packed or transposed per call), depths not a
   multiple of any vector width and past a GEBP block (1000: no depth blocks), units 1..40, whole
   and in unit ranges; values over many binades, -0, +-inf and products that overflow. */
static void fc_gemv_case(int B, int K, int U, bool with_bias, float lo, float hi) {
  const tfcc_fc_dims d = {B, K, U};
  const size_t n = (size_t)B * (size_t)U;
  float *x = malloc((size_t)B * (size_t)K * sizeof(float));
  float *w = malloc((size_t)U * (size_t)K * sizeof(float));
  float *bias = malloc((size_t)U * sizeof(float)), *want = malloc(n * sizeof(float));
  float *got = malloc((n + 16) * sizeof(float));
  float *scratch = malloc(tfcc_fc_eigen_scratch_bytes(K) + 64);
  float *wp = malloc((tfcc_fc_eigen_packed_floats(U, K) + 1) * sizeof(float));
  if (!x || !w || !bias || !want || !got || !scratch || !wp) {
    CHECK(!"fc_gemv_case memory");
    goto done;
  }
  for (size_t i = 0; i < (size_t)B * (size_t)K; i++)
    x[i] = frand(-2.0f, 2.0f) * (float)(1u << (rnd() % 12));
  for (size_t i = 0; i < (size_t)U * (size_t)K; i++) w[i] = frand(-1.0f, 1.0f);
  for (int i = 0; i < U; i++) bias[i] = frand(-4.0f, 4.0f);
  if (K >= 7 && (B + K + U) % 3 == 0) { /* specials: -0, an infinity, an overflowing product */
    x[0] = -0.0f, x[K - 1] = INFINITY, x[K / 2] = 3e38f;
    w[K / 2] = 8.0f;
  }
  tfcc_fc_f32_eigen_gemv(&d, x, w, with_bias ? bias : NULL, lo, hi, want);
  tfcc_fc_eigen_pack(w, U, K, wp);
  const int32_t u16 = U / 32 * 16;
  TFCC_EACH_VARIANT(tfcc_fc_eigen, k, tfcc_cpu_dispatch_isa(TFCC_ISA_COUNT_)) {
    const float *b = with_bias ? bias : NULL;
    for (size_t j = 0; j < n + 16; j++) got[j] = 1234.5f; /* guard past the output */
    k->fn(&d, true, x, w, wp, b, lo, hi, got, NULL, 0, U);
    CHECKF(memcmp(got, want, n * sizeof(float)) == 0 && got[n] == 1234.5f,
           "%s gemv B=%d K=%d U=%d bias=%d on packed weights", k->name, B, K, U, (int)with_bias);
    for (size_t j = 0; j < n + 16; j++) got[j] = 1234.5f;
    k->fn(&d, true, x, w, NULL, b, lo, hi, got, scratch, 0, U);
    CHECKF(memcmp(got, want, n * sizeof(float)) == 0 && got[n] == 1234.5f,
           "%s gemv B=%d K=%d U=%d transposed per call", k->name, B, K, U);
    for (size_t j = 0; j < n + 16; j++)
      got[j] = 1234.5f; /* packed from a panel boundary, and
                                                             off one (the per-call transpose) */
    k->fn(&d, true, x, w, wp, b, lo, hi, got, scratch, u16, U);
    k->fn(&d, true, x, w, wp, b, lo, hi, got, scratch, U / 3, u16 > U / 3 ? u16 : U / 3);
    k->fn(&d, true, x, w, wp, b, lo, hi, got, scratch, 0, U / 3 < u16 ? U / 3 : u16);
    CHECKF(memcmp(got, want, n * sizeof(float)) == 0 && got[n] == 1234.5f,
           "%s gemv B=%d K=%d U=%d in three ranges", k->name, B, K, U);
  }
done:
  free(x), free(w), free(bias), free(want), free(got), free(scratch), free(wp);
}

static void test_fc_gemv(void) {
  static const int ks[] = {1, 2, 3, 5, 7, 9, 15, 17, 31, 33, 63, 100, 257, 817, 1000};
  int c = 0;
  for (int U = 1; U <= 40; U++)
    for (size_t ki = 0; ki < sizeof ks / sizeof ks[0]; ki++, c++) {
      const bool relu = c % 3 == 1;
      fc_gemv_case(1, ks[ki], U, c % 2 == 0, relu ? 0.0f : -INFINITY, relu ? 6.0f : INFINITY);
    }
  for (int B = 2; B <= 6; B++) /* several batches (one unit's GEMV shape too) */
    for (size_t ki = 0; ki < sizeof ks / sizeof ks[0]; ki += 3)
      fc_gemv_case(B, ks[ki], 1 + (B * 7 + (int)ki) % 40, ki % 2 == 0, -INFINITY, INFINITY);
  fc_gemv_case(1, 1000, 600, true, -INFINITY, INFINITY); /* the driver on 3 threads */
  tfcc_threadpool *pool = NULL;
  tfcc_err e;
  CHECK(tfcc_threadpool_create(3, NULL, 0, &pool, &e) == TFCC_OK);
  const tfcc_fc_dims d = {1, 1000, 600}; /* over the driver's inline limit (256 K MACs) */
  float *x = malloc(1000 * sizeof(float)), *w = malloc(600 * 1000 * sizeof(float));
  float *want = malloc(600 * sizeof(float)), *got = malloc(600 * sizeof(float));
  float *wp = malloc(tfcc_fc_eigen_packed_floats(600, 1000) * sizeof(float));
  if (pool && x && w && want && got && wp) {
    for (int i = 0; i < 1000; i++) x[i] = frand(-2.0f, 2.0f);
    for (int i = 0; i < 600 * 1000; i++) w[i] = frand(-1.0f, 1.0f);
    tfcc_fc_f32_eigen_gemv(&d, x, w, NULL, -INFINITY, INFINITY, want);
    tfcc_fc_eigen_pack(w, 600, 1000, wp);
    const tfcc_fc_eigen_kernel *k = tfcc_fc_eigen_select(tfcc_cpu_dispatch_isa(TFCC_ISA_COUNT_));
    tfcc_fc_eigen_run(pool, k, &d, true, x, w, wp, NULL, -INFINITY, INFINITY, got, NULL);
    CHECKF(memcmp(got, want, 600 * sizeof(float)) == 0, "%s gemv packed on 3 threads", k->name);
  }
  free(x), free(w), free(want), free(got), free(wp);
  tfcc_threadpool_destroy(pool);
}

static void test_fc_eigen(void) {
  static const int bs[] = {1, 2, 3, 4, 5, 7, 8, 9, 13};
  static const int ks[] = {1, 2, 7, 8, 9, 15, 17, 64, 100, 816, 820, 1000, 1632, 2000};
  static const int us[] = {1, 3, 8, 15, 16, 17, 33, 40};
  int c = 0;
  for (size_t bi = 0; bi < sizeof bs / sizeof bs[0]; bi++)
    for (size_t ki = 0; ki < sizeof ks / sizeof ks[0]; ki++, c++) {
      const int U = us[(size_t)c % (sizeof us / sizeof us[0])];
      const bool relu = c % 3 == 1;
      fc_eigen_case(bs[bi], ks[ki], U, c % 2 == 0, relu ? 0.0f : -INFINITY, relu ? 6.0f : INFINITY);
    }
  fc_eigen_case(400, 32, 400, false, -INFINITY, INFINITY); /* YOLO26n-like attention, Q x K^T */
  fc_eigen_case(37, 400, 32, true, -INFINITY, INFINITY);
  /* the threaded driver on 3 threads: pieces of whole panels, a scratch per thread */
  tfcc_threadpool *pool = NULL;
  tfcc_err e;
  CHECK(tfcc_threadpool_create(3, NULL, 0, &pool, &e) == TFCC_OK);
  const tfcc_fc_dims d = {9, 300, 200}; /* over the driver's inline limit (256 K MACs) */
  float *x = malloc(9 * 300 * sizeof(float)), *w = malloc(200 * 300 * sizeof(float));
  float *want = malloc(9 * 200 * sizeof(float)), *got = malloc(9 * 200 * sizeof(float));
  float *scratch = malloc(3 * tfcc_fc_eigen_scratch_bytes(300));
  if (pool && x && w && want && got && scratch) {
    for (int i = 0; i < 9 * 300; i++) x[i] = frand(-2.0f, 2.0f);
    for (int i = 0; i < 200 * 300; i++) w[i] = frand(-1.0f, 1.0f);
    tfcc_fc_f32_eigen(&d, x, w, NULL, -INFINITY, INFINITY, want);
    const tfcc_fc_eigen_kernel *k = tfcc_fc_eigen_select(tfcc_cpu_dispatch_isa(TFCC_ISA_COUNT_));
    tfcc_fc_eigen_run(pool, k, &d, false, x, w, NULL, NULL, -INFINITY, INFINITY, got, scratch);
    CHECKF(memcmp(got, want, 9 * 200 * sizeof(float)) == 0, "%s on 3 threads", k->name);
    float *wp = malloc(tfcc_fc_eigen_packed_floats(200, 300) * sizeof(float));
    CHECK(wp);
    if (wp) { /* exact11: the packed weights, no scratch */
      tfcc_fc_eigen_pack(w, 200, 300, wp);
      memset(got, 0, 9 * 200 * sizeof(float));
      tfcc_fc_eigen_run(pool, k, &d, false, x, w, wp, NULL, -INFINITY, INFINITY, got, NULL);
      CHECKF(memcmp(got, want, 9 * 200 * sizeof(float)) == 0, "%s packed on 3 threads", k->name);
    }
    free(wp);
  }
  free(x), free(w), free(want), free(got), free(scratch);
  tfcc_threadpool_destroy(pool);
}

/* ---- XNNPACK-order float FULLY_CONNECTED / BATCH_MATMUL / GELU / SOFTMAX vector kernels */

/* hybrid5: pools of 1 (NULL: inline), 2, 3 and 4 threads for the threaded drivers */
#define XNN_POOLS 4
static tfcc_threadpool *g_pools[XNN_POOLS];

static bool xnn_k_runs(const tfcc_tflite_f32_kernel *k) {
  return tfcc_isa_level_fits(k->isa, tfcc_cpu_dispatch_isa(TFCC_ISA_COUNT_));
}

static int g_xnn_tail_cases; /* exact11: cases run with the last block packed */

static void xnn_fc_case(int B, int K, int U, bool with_bias, float lo, float hi) {
  const size_t n = (size_t)B * (size_t)U;
  float *x = malloc(((size_t)B * (size_t)K + 1) * sizeof(float));
  float *w = malloc(((size_t)U * (size_t)K + 1) * sizeof(float));
  float *bias = malloc((size_t)U * sizeof(float)), *want = malloc(n * sizeof(float));
  float *got = malloc((n + 16) * sizeof(float));
  float *wp = NULL;
  if (!x || !w || !bias || !want || !got) {
    CHECK(!"xnn_fc_case memory");
    goto done;
  }
  for (size_t i = 0; i < (size_t)B * (size_t)K; i++)
    x[i] = frand(-2.0f, 2.0f) * (float)(1u << (rnd() % 12));
  if (B * K > 5) x[3] = -0.0f, x[B * K - 2] = NAN;
  for (size_t i = 0; i < (size_t)U * (size_t)K; i++) w[i] = frand(-1.0f, 1.0f);
  for (int i = 0; i < U; i++) bias[i] = frand(-4.0f, 4.0f);
  tfcc_xnn_fc_f32(x, B, K, w, with_bias ? bias : NULL, U, lo, hi, want);
  wp = tfcc_xnn_fc_pack(w, U, K);
  CHECK(wp);
  for (int i = 0; wp && i < tfcc_tflite_f32_kernel_count(); i++) {
    const tfcc_tflite_f32_kernel *k = tfcc_tflite_f32_kernel_at(i);
    if (!xnn_k_runs(k)) continue;
    for (size_t j = 0; j < n + 16; j++) got[j] = 1234.5f; /* guard past the output */
    k->fc(x, B, K, wp, NULL, with_bias ? bias : NULL, U, lo, hi, got, 0, U);
    CHECKF(memcmp(got, want, n * sizeof(float)) == 0 && got[n] == 1234.5f,
           "%s fc B=%d K=%d U=%d bias=%d nr2=%d", k->name, B, K, U, (int)with_bias,
           (int)tfcc_xnn_fc_uses_nr2(U));
    /* exact11: the narrow last block's layout packed once (any row count, any K), inline and
     * through the threaded driver */
    const size_t tail_n = k->fc_tail_floats(U, K);
    if (tail_n) {
      float *wt = malloc(tail_n * sizeof(float));
      CHECK(wt);
      if (wt) {
        k->fc_tail_pack(wp, U, K, wt);
        for (size_t j = 0; j < n + 16; j++) got[j] = 1234.5f;
        k->fc(x, B, K, wp, wt, with_bias ? bias : NULL, U, lo, hi, got, 0, U);
        CHECKF(memcmp(got, want, n * sizeof(float)) == 0 && got[n] == 1234.5f,
               "%s fc, last block packed, B=%d K=%d U=%d bias=%d", k->name, B, K, U,
               (int)with_bias);
        for (int t = 0; t < XNN_POOLS; t++) {
          for (size_t j = 0; j < n + 16; j++) got[j] = 1234.5f;
          tfcc_xnn_fc_run(g_pools[t], k, x, B, K, wp, wt, with_bias ? bias : NULL, U, lo, hi, got);
          CHECKF(memcmp(got, want, n * sizeof(float)) == 0 && got[n] == 1234.5f,
                 "%s fc, last block packed, B=%d K=%d U=%d on %d threads", k->name, B, K, U, t + 1);
        }
      }
      free(wt);
      g_xnn_tail_cases++;
    }
    /* mend44: one batch row on fc_row's contiguous blocks (the float LSTM plan's recurrent
     * products): the same bits where the width does not pick nr2 */
    if (B == 1 && !tfcc_xnn_fc_uses_nr2(U)) {
      float *wr = k->fc_row_pack(w, U, K);
      CHECKF(wr != NULL, "%s fc_row_pack U=%d K=%d", k->name, U, K);
      for (size_t j = 0; j < n + 16; j++) got[j] = 1234.5f;
      if (wr) k->fc_row(x, K, wr, with_bias ? bias : NULL, U, lo, hi, got);
      CHECKF(wr && memcmp(got, want, n * sizeof(float)) == 0 && got[n] == 1234.5f,
             "%s fc_row K=%d U=%d bias=%d", k->name, K, U, (int)with_bias);
      /* cache56: the same packing into caller memory (the float LSTM plan's cache block), its
       * size from fc_row_block */
      const size_t rb_bytes = tfcc_xnn_fc_blocks_bytes(U, K, k->fc_row_block());
      float *wi = rb_bytes ? malloc(rb_bytes) : NULL;
      if (wi) tfcc_xnn_fc_pack_blocks_into(w, U, K, k->fc_row_block(), wi);
      CHECKF(wr && wi && memcmp(wi, wr, rb_bytes) == 0,
             "%s fc_row_pack into caller memory U=%d K=%d", k->name, U, K);
      free(wi);
      free(wr);
    }
    /* hybrid5: the threaded driver at 1-4 threads (pieces of batch rows x unit panels) */
    for (int t = 0; t < XNN_POOLS; t++) {
      for (size_t j = 0; j < n + 16; j++) got[j] = 1234.5f;
      tfcc_xnn_fc_run(g_pools[t], k, x, B, K, wp, NULL, with_bias ? bias : NULL, U, lo, hi, got);
      CHECKF(memcmp(got, want, n * sizeof(float)) == 0 && got[n] == 1234.5f,
             "%s fc B=%d K=%d U=%d bias=%d on %d threads", k->name, B, K, U, (int)with_bias, t + 1);
    }
  }
done:
  free(x), free(w), free(bias), free(want), free(got), free(wp);
}

/* hybrid5: GELU through the threaded driver at 1-4 threads (pieces of elements) on an input
 * over its inline limit, against the portable loop */
static void xnn_gelu_threads(const tfcc_tflite_f32_kernel *k, int ap) {
  enum { NG = 40 * 1024 + 5 };
  float *x = malloc(NG * sizeof(float)), *want = malloc(NG * sizeof(float));
  float *got = malloc((NG + 16) * sizeof(float));
  if (x && want && got) {
    for (int i = 0; i < NG; i++) x[i] = frand(-8.0f, 8.0f);
    x[NG / 2] = NAN, x[NG - 1] = -0.0f;
    tfcc_gelu_f32_xnn(x, want, NG, ap);
    for (int t = 0; t < XNN_POOLS; t++) {
      for (int j = 0; j < NG + 16; j++) got[j] = 1234.5f;
      tfcc_xnn_gelu_run(g_pools[t], k, x, got, NG, tfcc_gelu_xnn_rational(ap));
      CHECKF(memcmp(got, want, NG * sizeof(float)) == 0 && got[NG] == 1234.5f,
             "%s gelu approximate=%d on %d threads", k->name, ap, t + 1);
    }
  } else {
    CHECK(!"xnn_gelu_threads memory");
  }
  free(x), free(want), free(got);
}

/* sweep18: TANH through the threaded driver at 1-4 threads against the portable loop */
static void xnn_tanh_threads(const tfcc_tflite_f32_kernel *k) {
  enum { NT = 40 * 1024 + 7 };
  float *x = malloc(NT * sizeof(float)), *want = malloc(NT * sizeof(float));
  float *got = malloc((NT + 16) * sizeof(float));
  if (x && want && got) {
    for (int i = 0; i < NT; i++) x[i] = frand(-9.0f, 9.0f);
    x[NT / 2] = NAN, x[NT - 1] = -0.0f;
    tfcc_tanh_f32_xnn(x, want, NT);
    for (int t = 0; t < XNN_POOLS; t++) {
      for (int j = 0; j < NT + 16; j++) got[j] = 1234.5f;
      tfcc_xnn_tanh_run(g_pools[t], k, x, got, NT);
      CHECKF(memcmp(got, want, NT * sizeof(float)) == 0 && got[NT] == 1234.5f,
             "%s tanh on %d threads", k->name, t + 1);
    }
  } else {
    CHECK(!"xnn_tanh_threads memory");
  }
  free(x), free(want), free(got);
}

/* exact3: LOGISTIC (XNNPACK's sigmoid) through the threaded driver at 1-4 threads against one
 * call of the kernel (elements split: the same bits), over the driver's inline limit */
static void xnn_sigmoid_threads(const tfcc_tflite_f32_kernel *k) {
  enum { NT = 40 * 1024 + 7 };
  float *x = malloc(NT * sizeof(float)), *want = malloc(NT * sizeof(float));
  float *got = malloc((NT + 16) * sizeof(float));
  if (x && want && got) {
    for (int i = 0; i < NT; i++) x[i] = frand(-30.0f, 30.0f);
    x[NT / 2] = NAN, x[NT - 1] = -0.0f;
    k->sigmoid(x, want, NT);
    for (int t = 0; t < XNN_POOLS; t++) {
      for (int j = 0; j < NT + 16; j++) got[j] = 1234.5f;
      tfcc_xnn_sigmoid_run(g_pools[t], k, x, got, NT);
      CHECKF(memcmp(got, want, NT * sizeof(float)) == 0 && got[NT] == 1234.5f,
             "%s sigmoid on %d threads", k->name, t + 1);
    }
  } else {
    CHECK(!"xnn_sigmoid_threads memory");
  }
  free(x), free(want), free(got);
}

/* hybrid5: SOFTMAX through the threaded driver at 1-4 threads (pieces of rows) against one
 * call of the kernel, rows of 301 (every tail) over the driver's inline limit */
static void xnn_softmax_threads(const tfcc_tflite_f32_kernel *k) {
  enum { OUT = 130, DEPTH = 301 };
  const size_t n = (size_t)OUT * DEPTH;
  float *x = malloc(n * sizeof(float)), *want = malloc(n * sizeof(float));
  float *got = malloc((n + 16) * sizeof(float));
  if (x && want && got) {
    for (size_t i = 0; i < n; i++) x[i] = frand(-12.0f, 6.0f);
    k->softmax(x, want, OUT, DEPTH, TFCC_XNN_SOFTMAX_PAIR);
    for (int t = 0; t < XNN_POOLS; t++) {
      for (size_t j = 0; j < n + 16; j++) got[j] = 1234.5f;
      tfcc_xnn_softmax_run(g_pools[t], k, x, got, OUT, DEPTH, TFCC_XNN_SOFTMAX_PAIR);
      CHECKF(memcmp(got, want, n * sizeof(float)) == 0 && got[n] == 1234.5f,
             "%s softmax on %d threads", k->name, t + 1);
    }
  } else {
    CHECK(!"xnn_softmax_threads memory");
  }
  free(x), free(want), free(got);
}

/* A product's operands: lhs over 12 binades with a -0 and an inf, rhs in [-1, 1]. */
static void bmm_operands(float *l, size_t ln, float *r, size_t rn) {
  for (size_t i = 0; i < ln; i++) l[i] = frand(-2.0f, 2.0f) * (float)(1u << (rnd() % 12));
  for (size_t i = 0; i < rn; i++) r[i] = frand(-1.0f, 1.0f);
  if (ln > 4) l[ln / 2] = -0.0f, l[1] = INFINITY;
}

static void xnn_bmm_case(int nb_l, int nb_r, int M, int K, int N, bool adj_x, bool adj_y) {
  tfcc_bmm_dims d;
  memset(&d, 0, sizeof d);
  d.nbd = 1, d.lhs_b[0] = nb_l, d.rhs_b[0] = nb_r, d.out_b[0] = nb_l > nb_r ? nb_l : nb_r;
  d.m = M, d.k = K, d.n = N, d.adj_x = adj_x, d.adj_y = adj_y;
  const size_t ln = (size_t)nb_l * M * K, rn = (size_t)nb_r * K * N;
  const size_t on = (size_t)d.out_b[0] * M * N;
  float *l = malloc(ln * sizeof(float)), *r = malloc(rn * sizeof(float));
  float *want = malloc(on * sizeof(float)), *got = malloc((on + 16) * sizeof(float));
  float *scratch = malloc(tfcc_xnn_bmm_scratch_bytes(&d) + sizeof(float));
  CHECK(tfcc_xnn_bmm_scratch_bytes(&d) ==
        (adj_y ? (size_t)nb_r * (size_t)K * (size_t)N * sizeof(float) : 0));
  if (!l || !r || !want || !got || !scratch) {
    CHECK(!"xnn_bmm_case memory");
    goto done;
  }
  bmm_operands(l, ln, r, rn);
  tfcc_bmm_f32_xnn(&d, l, r, want);
  TFCC_EACH_VARIANT(tfcc_tflite_f32, k, tfcc_cpu_dispatch_isa(TFCC_ISA_COUNT_)) {
    for (int t = 0; t < XNN_POOLS; t++) { /* 1-4 threads */
      for (size_t j = 0; j < on + 16; j++) got[j] = 1234.5f;
      tfcc_xnn_bmm_run(g_pools[t], k, &d, l, r, got, scratch);
      CHECKF(memcmp(got, want, on * sizeof(float)) == 0 && got[on] == 1234.5f,
             "%s bmm %dx%d M=%d K=%d N=%d adj %d %d on %d threads", k->name, nb_l, nb_r, M, K, N,
             (int)adj_x, (int)adj_y, t + 1);
    }
  }
done:
  free(l), free(r), free(want), free(got), free(scratch);
}

/* exact10: the vector kernels' Eigen GEBP (the output columns in the lanes) against
 * tfcc_eigen_bmm_f32's scalar loops, bit for bit: GEBP and not, rows in groups of 4 and the last
 * M % 4, column tails, K over 816 (panels), K 0 */
static void eigen_gemm_case(int M, int K, int N) {
  tfcc_bmm_dims d;
  memset(&d, 0, sizeof d);
  d.m = M, d.k = K, d.n = N;
  const size_t ln = (size_t)M * K, rn = (size_t)K * N, on = (size_t)M * N;
  float *l = malloc((ln + 1) * sizeof(float)), *r = malloc((rn + 1) * sizeof(float));
  float *want = malloc(on * sizeof(float)), *got = malloc((on + 16) * sizeof(float));
  float *bias = malloc((size_t)N * sizeof(float));
  if (!l || !r || !want || !got || !bias) {
    CHECK(!"eigen_gemm_case memory");
    goto done;
  }
  bmm_operands(l, ln, r, rn);
  for (int j = 0; j < N; j++) bias[j] = frand(-1.0f, 1.0f);
  tfcc_eigen_bmm_f32(&d, l, r, want);
  TFCC_EACH_VARIANT(tfcc_tflite_f32, k, tfcc_cpu_dispatch_isa(TFCC_ISA_COUNT_)) {
    for (size_t j = 0; j < on + 16; j++) got[j] = 1234.5f;
    tfcc_eigen_gemm_kn_f32(k->eigen_gemm, l, r, M, K, N, NULL, -INFINITY, INFINITY, got);
    CHECKF(memcmp(got, want, on * sizeof(float)) == 0 && got[on] == 1234.5f,
           "%s eigen_gemm M=%d K=%d N=%d", k->name, M, K, N);
    /* the convolution's bias and clamp after the sums (tfcc_eigen_conv_f32's scalar loop) */
    for (size_t j = 0; j < on + 16; j++) got[j] = 1234.5f;
    tfcc_eigen_gemm_kn_f32(k->eigen_gemm, l, r, M, K, N, bias, -1.5f, 2.0f, got);
    bool ok = got[on] == 1234.5f;
    for (size_t j = 0; j < on; j++) {
      float v = want[j] + bias[j % (size_t)N];
      v = v < -1.5f ? -1.5f : v;
      v = v > 2.0f ? 2.0f : v;
      ok = ok && memcmp(&v, &got[j], sizeof v) == 0;
    }
    CHECKF(ok, "%s eigen_gemm M=%d K=%d N=%d bias, clamp", k->name, M, K, N);
  }
done:
  free(l), free(r), free(want), free(got), free(bias);
}

/* exact10: Eigen's softmax with a vector kernel's expf against the scalar one, bit for bit
 * (rows of every length to 2 vectors and past, beta 1 and not, +-inf, -0, a NaN row) */
static void eigen_softmax_case(size_t outer, size_t depth, float beta) {
  const size_t n = outer * depth;
  float *x = malloc(n * sizeof(float)), *want = malloc(n * sizeof(float));
  float *got = malloc((n + 16) * sizeof(float));
  if (!x || !want || !got) {
    CHECK(!"eigen_softmax_case memory");
    goto done;
  }
  for (size_t i = 0; i < n; i++) x[i] = frand(-30.0f, 30.0f);
  if (n > 8) x[1] = -INFINITY, x[2] = -0.0f, x[n - 1] = NAN;
  tfcc_eigen_softmax_f32(x, want, outer, depth, beta, NULL);
  TFCC_EACH_VARIANT(tfcc_tflite_f32, k, tfcc_cpu_dispatch_isa(TFCC_ISA_COUNT_)) {
    for (size_t j = 0; j < n + 16; j++) got[j] = 1234.5f;
    tfcc_eigen_softmax_f32(x, got, outer, depth, beta, k->expf);
    CHECKF(memcmp(got, want, n * sizeof(float)) == 0 && got[n] == 1234.5f,
           "%s eigen softmax %zux%zu beta %g", k->name, outer, depth, (double)beta);
  }
done:
  free(x), free(want), free(got);
}

static void test_tflite_f32_vec(void) {
  tfcc_err pe;
  for (int t = 1; t < XNN_POOLS; t++)
    CHECK(tfcc_threadpool_create(t + 1, NULL, 0, &g_pools[t], &pe) == TFCC_OK);
  static const int bs[] = {1, 2, 3, 4, 5, 9};
  static const int ks[] = {0, 1, 3, 4, 5, 7, 8, 64, 101, 258};
  static const int us[] = {1, 2, 3, 7, 8, 9, 15, 16, 17, 31, 33, 40, 64, 100, 101};
  int c = 0;
  for (size_t bi = 0; bi < sizeof bs / sizeof bs[0]; bi++)
    for (size_t ki = 0; ki < sizeof ks / sizeof ks[0]; ki++)
      for (size_t ui = 0; ui < sizeof us / sizeof us[0]; ui++, c++) {
        const bool relu = c % 3 == 1;
        xnn_fc_case(bs[bi], ks[ki], us[ui], c % 2 == 0, relu ? 0.0f : -INFINITY,
                    relu ? 6.0f : INFINITY);
      }
  /* hybrid5: over the threaded driver's inline limit (128 K multiply-adds): many rows (row
   * chunks), one row (column blocks), nr2 (units 7 and 101: rows only / both), every tail */
  xnn_fc_case(37, 300, 200, true, -INFINITY, INFINITY);
  xnn_fc_case(1, 2000, 300, true, 0.0f, 6.0f);
  /* mend44: fc_row's blocks (16-64 units by ISA): partial blocks, several, the LSTM plan's
   * widths (gate rows and projections, multiples of 16) */
  xnn_fc_case(1, 128, 1024, false, -INFINITY, INFINITY);
  xnn_fc_case(1, 37, 136, true, 0.0f, 6.0f);
  xnn_fc_case(1, 256, 128, false, -INFINITY, INFINITY);
  xnn_fc_case(1, 19, 24, true, -INFINITY, INFINITY);
  xnn_fc_case(1, 65, 200, false, -1.0f, 1.0f);
  xnn_fc_case(1, 3, 80, true, -INFINITY, INFINITY);
  xnn_fc_case(1, 5, 56, false, -INFINITY, INFINITY); /* a last block of 1-4 FC blocks */
  xnn_fc_case(1, 9, 120, true, -INFINITY, INFINITY);
  xnn_fc_case(1, 33, 1023, true, -INFINITY, INFINITY);
  xnn_fc_case(2, 700, 129, false, -INFINITY, INFINITY);
  xnn_fc_case(100, 300, 7, true, -INFINITY, INFINITY);
  xnn_fc_case(9, 300, 101, true, -1.0f, 1.0f);
  xnn_fc_case(49, 64, 256, true, -INFINITY, INFINITY); /* keyword spotting's sizes */
  /* exact9: nr2 widths of 8+ units on many rows (1x1 convolutions' pixels): the rows 4 or 2 a
   * step, then the last ones one at a time */
  xnn_fc_case(203, 33, 20, true, 0.0f, 6.0f);
  xnn_fc_case(66, 12, 12, false, -INFINITY, INFINITY);
  xnn_fc_case(31, 9, 36, true, -INFINITY, INFINITY);
  /* exact10: the nr2 kernel's narrow last block with (unit, k % 4) lanes (8+ rows; AVX2 and
   * AVX-512; where K is long enough to pay): every last-block width 1-15 at a long K and a
   * short one, K % 4 of 0-3, a row count of every remainder, the 64 -> 36 probe's shape,
   * ReLU6, and K over the stack copy's limit (the old path) */
  for (int u = 17; u < 32; u++)
    for (int kl = 0; kl < 2; kl++)
      xnn_fc_case(8 + u % 5, (kl ? 283 : 9) + u % 4, u, u % 2 == 0, u % 3 ? -INFINITY : 0.0f,
                  u % 3 ? INFINITY : 6.0f);
  xnn_fc_case(57, 64, 36, true, 0.0f, 6.0f);
  xnn_fc_case(13, 3, 10, false, -INFINITY, INFINITY);
  xnn_fc_case(12, 2100, 36, true, -INFINITY, INFINITY);
  xnn_fc_case(12, 1025, 44, true, -1.0f, 1.0f);
  /* exact11: the packed last block below the stack copy's 8 rows (1-7) and over its 8,192
   * floats (K 2100, 4 vectors) */
  for (int b = 1; b < 8; b++) xnn_fc_case(b, 64 + b, 36 + b % 4, b % 2 == 0, -INFINITY, INFINITY);
  xnn_fc_case(3, 2100, 31, true, 0.0f, 6.0f);
  bool wide = false; /* an 8- or 16-lane variant runs here: it packs last blocks */
  for (int i = 0; i < tfcc_tflite_f32_kernel_count(); i++) {
    const tfcc_tflite_f32_kernel *k = tfcc_tflite_f32_kernel_at(i);
    wide |= xnn_k_runs(k) && (k->isa == TFCC_ISA_AVX2 || k->isa == TFCC_ISA_AVX512);
  }
  CHECKF(g_xnn_tail_cases > 0 || !wide, "no case ran the packed last block");
  static const int em[] = {1, 3, 4, 7, 64, 319}, ek[] = {0, 1, 7, 8, 9, 16, 40, 817},
                   en[] = {1, 2, 8, 16, 17, 33};
  for (size_t mi = 0; mi < sizeof em / sizeof em[0]; mi++)
    for (size_t ki = 0; ki < sizeof ek / sizeof ek[0]; ki++)
      for (size_t ni = 0; ni < sizeof en / sizeof en[0]; ni++)
        eigen_gemm_case(em[mi], ek[ki], en[ni]);
  eigen_gemm_case(40, 2000, 24);
  for (size_t dep = 1; dep <= 40; dep += 3) eigen_softmax_case(3, dep, dep % 2 ? 1.0f : 0.37f);
  eigen_softmax_case(2, 1000, 1.0f);
  for (int a = 0; a < 4; a++) {
    const bool ax = a & 1, ay = a & 2;
    xnn_bmm_case(4, 4, 49, 16, 49, ax, ay);  /* hybrid5: attention heads, threaded */
    xnn_bmm_case(4, 1, 50, 32, 50, ax, ay);  /* broadcast rhs (transposed once) */
    xnn_bmm_case(1, 1, 3, 500, 300, ax, ay); /* few rows: column blocks */
    xnn_bmm_case(9, 9, 21, 40, 37, ax, ay);  /* more matrices than tasks */
    xnn_bmm_case(2, 2, 101, 16, 101, ax, ay);
    xnn_bmm_case(3, 1, 7, 5, 33, ax, ay);
    xnn_bmm_case(1, 2, 1, 1, 1, ax, ay);
    xnn_bmm_case(2, 2, 6, 40, 17, ax, ay);
    xnn_bmm_case(1, 1, 4, 3, 64, ax, ay);
  }
  /* GELU (both interpolants) and SOFTMAX on special values and every tail */
  enum { N = 203 };
  float x[N], want[N], got[N + 16];
  for (int i = 0; i < N; i++) x[i] = frand(-8.0f, 8.0f) * (float)(1u << (rnd() % 4));
  const float special[] = {0.0f, -0.0f, NAN, -NAN, INFINITY, -INFINITY, 1e-30f, -1e-30f, 5.2f};
  memcpy(x, special, sizeof special);
  const tfcc_tflite_f32_kernel *g = tfcc_tflite_f32_kernel_at(tfcc_tflite_f32_kernel_count() - 1);
  for (int ap = 0; ap < 2; ap++) {
    tfcc_gelu_f32_xnn(x, want, N, ap);
    TFCC_EACH_VARIANT(tfcc_tflite_f32, k, tfcc_cpu_dispatch_isa(TFCC_ISA_COUNT_)) {
      for (size_t len = N; len + 20 > N; len--) {
        for (int j = 0; j < N + 16; j++) got[j] = 1234.5f;
        k->gelu(x, got, len, tfcc_gelu_xnn_rational(ap));
        CHECKF(memcmp(got, want, len * sizeof(float)) == 0 && got[len] == 1234.5f,
               "%s gelu approximate=%d n=%zu", k->name, ap, len);
      }
      xnn_gelu_threads(k, ap);
    }
  }
  /* sweep18: TANH (XNNPACK's rational 9/8, LiteRT's): every variant the portable loop's bits,
   * every tail, special values and both clamps */
  tfcc_tanh_f32_xnn(x, want, N);
  TFCC_EACH_VARIANT(tfcc_tflite_f32, k, tfcc_cpu_dispatch_isa(TFCC_ISA_COUNT_)) {
    for (size_t len = N; len + 20 > N; len--) {
      for (int j = 0; j < N + 16; j++) got[j] = 1234.5f;
      k->tanh(x, got, len);
      CHECKF(memcmp(got, want, len * sizeof(float)) == 0 && got[len] == 1234.5f, "%s tanh n=%zu",
             k->name, len);
    }
    xnn_tanh_threads(k);
    xnn_sigmoid_threads(k);
  }
  /* exact3: Eigen's tanh (the builtin kernels', the float LSTM cells'): every variant the
   * portable loop's bits, every tail; values at its 0.0004 branch and both clamps */
  float xe[N];
  memcpy(xe, x, sizeof xe);
  const float near[] = {3.9999e-4f, -3.9999e-4f, 4e-4f,    -4e-4f,
                        4.0001e-4f, 7.9053f,     -7.9054f, 1e-3f};
  memcpy(xe + 20, near, sizeof near);
  tfcc_tanh_f32_eigen(xe, want, N);
  TFCC_EACH_VARIANT(tfcc_tflite_f32, k, tfcc_cpu_dispatch_isa(TFCC_ISA_COUNT_)) {
    for (size_t len = N; len + 20 > N; len--) {
      for (int j = 0; j < N + 16; j++) got[j] = 1234.5f;
      k->tanh_eigen(xe, got, len);
      CHECKF(memcmp(got, want, len * sizeof(float)) == 0 && got[len] == 1234.5f,
             "%s tanh_eigen n=%zu", k->name, len);
    }
  }
  float xs[N];
  for (int i = 0; i < N; i++) xs[i] = frand(-8.0f, 8.0f);
  xs[N - 1] = -200.0f, xs[5] = -0.0f;
  /* both tail orders (exact6: the older XNNPACK adds the last depth % 4 exps one by one) */
  for (size_t depth = 1; depth <= 41; depth++)
    for (int o = 0; o < 2; o++) {
      const tfcc_xnn_softmax_order order = o ? TFCC_XNN_SOFTMAX_SEQ : TFCC_XNN_SOFTMAX_PAIR;
      const size_t outer = N / depth;
      g->softmax(xs, want, outer, depth, order);
      float s = 0.0f;
      for (size_t j = 0; j < depth; j++) s += want[j];
      CHECKF(fabsf(s - 1.0f) < 1e-5f, "softmax depth %zu sums to %g", depth, (double)s);
      TFCC_EACH_VARIANT(tfcc_tflite_f32, k, tfcc_cpu_dispatch_isa(TFCC_ISA_COUNT_)) {
        for (int j = 0; j < N + 16; j++) got[j] = 1234.5f;
        k->softmax(xs, got, outer, depth, order);
        CHECKF(
            memcmp(got, want, outer * depth * sizeof(float)) == 0 && got[outer * depth] == 1234.5f,
            "%s softmax depth %zu order %d", k->name, depth, o);
      }
    }
  /* hybrid5: the row maximum (vector lanes, then the first zero where it is 0): rows of 37
   * (a tail at every width) and 64 with a NaN first (all NaN out) or later, a zero maximum with
   * -0 or +0 first, +inf, all -inf but one -0; every variant equal to the generic build */
  for (int dp = 0; dp < 2; dp++) {
    const size_t depth = dp ? 64 : 37, outer = 6;
    float xm[6 * 64], wm[6 * 64], gm[6 * 64];
    for (size_t i = 0; i < outer * depth; i++) xm[i] = -fabsf(frand(-8.0f, 8.0f)) - 0.5f;
    xm[0] = NAN;                                          /* row 0: NaN first */
    xm[depth + 5] = NAN, xm[depth + 9] = 3.0f;            /* row 1: NaN later */
    xm[2 * depth + 7] = -0.0f, xm[2 * depth + 20] = 0.0f; /* row 2: -0 first */
    xm[3 * depth + 1] = 0.0f, xm[3 * depth + 33] = -0.0f; /* row 3: +0 first */
    xm[4 * depth + depth - 1] = INFINITY;                 /* row 4: +inf in the tail */
    for (size_t i = 0; i < depth; i++) xm[5 * depth + i] = -INFINITY;
    xm[5 * depth + depth - 2] = -0.0f; /* row 5: one -0 among -inf */
    g->softmax(xm, wm, outer, depth, TFCC_XNN_SOFTMAX_PAIR);
    for (size_t i = 0; i < depth; i++) CHECKF(isnan(wm[i]), "softmax NaN-first row, %zu", i);
    CHECK(wm[5 * depth + depth - 2] == 1.0f);
    TFCC_EACH_VARIANT(tfcc_tflite_f32, k, tfcc_cpu_dispatch_isa(TFCC_ISA_COUNT_)) {
      for (size_t j = 0; j < outer * depth; j++) gm[j] = 1234.5f;
      k->softmax(xm, gm, outer, depth, TFCC_XNN_SOFTMAX_PAIR);
      CHECKF(memcmp(gm, wm, outer * depth * sizeof(float)) == 0, "%s softmax special rows %zu",
             k->name, depth);
    }
  }
  for (int i = 0; i < tfcc_tflite_f32_kernel_count(); i++)
    if (xnn_k_runs(tfcc_tflite_f32_kernel_at(i))) xnn_softmax_threads(tfcc_tflite_f32_kernel_at(i));
  for (int t = 1; t < XNN_POOLS; t++) tfcc_threadpool_destroy(g_pools[t]), g_pools[t] = NULL;
}

/* sweep18: the two TANH functions of hybrid models (kernels/ref/activation.h) against tanh in
 * double: within their stated ulp bounds on every 37th float in [0, 10] (ulp of the float
 * nearest the true value), odd (f(-x) == -f(x) bit for bit), x for tiny x, +-1 at and past the
 * clamps, NaN for NaN */
static double tanh_ulps(float got, double want) {
  const float w = fabsf((float)want);
  const double ulp = (double)nextafterf(w, INFINITY) - (double)w;
  return fabs((double)got - want) / ulp;
}

static void test_tanh_accuracy(void) {
  enum { B = 4096 };
  static float x[B], nx[B], y[B], ny[B];
  double worst[2] = {0.0, 0.0};
  const uint32_t top = 0x41200000u; /* 10.0f */
  uint32_t u = 0;
  while (u < top) {
    int n = 0;
    for (; n < B && u < top; n++, u += 37) {
      memcpy(&x[n], &u, sizeof x[n]);
      nx[n] = -x[n];
    }
    for (int f = 0; f < 2; f++) {
      void (*fn)(const float *, float *, size_t) = f ? tfcc_tanh_f32_eigen : tfcc_tanh_f32_xnn;
      fn(x, y, (size_t)n);
      fn(nx, ny, (size_t)n);
      for (int i = 0; i < n; i++) {
        const double e = tanh_ulps(y[i], tanh((double)x[i]));
        if (e > worst[f]) worst[f] = e;
        const float m = -y[i];
        if (memcmp(&m, &ny[i], sizeof m) != 0) {
          CHECKF(0, "tanh %s not odd at %a", f ? "eigen" : "xnn", (double)x[i]);
          break;
        }
      }
    }
  }
  printf("  tanh max ulp: xnn %.2f (bound %d), eigen %.2f (bound %d)\n", worst[0],
         TFCC_TANH_XNN_ULP, worst[1], TFCC_TANH_EIGEN_ULP);
  CHECKF(worst[0] <= TFCC_TANH_XNN_ULP, "xnn tanh %.2f ulp", worst[0]);
  CHECKF(worst[1] <= TFCC_TANH_EIGEN_ULP, "eigen tanh %.2f ulp", worst[1]);
  const float sp[] = {7.8522667885e+00f, 7.90531110763549805f, 9.0f, INFINITY, 1e-30f, -0.0f, NAN};
  float ys[2][7];
  tfcc_tanh_f32_xnn(sp, ys[0], 7);
  tfcc_tanh_f32_eigen(sp, ys[1], 7);
  for (int f = 0; f < 2; f++) {
    CHECKF(ys[f][1] == 1.0f && ys[f][2] == 1.0f && ys[f][3] == 1.0f, "tanh %d at the clamp", f);
    CHECKF(ys[f][4] == 1e-30f && ys[f][5] == 0.0f && signbit(ys[f][5]), "tanh %d tiny", f);
    CHECKF(isnan(ys[f][6]), "tanh %d NaN", f);
  }
  CHECK(ys[0][0] == 1.0f); /* XNNPACK's clamp: the first input whose interpolant gives 1 */
}

/* exact4: the vector expf against the C library's expf, and the vector Eigen logistic against
 * tfcc_act_logistic_eigen, every variant: the threshold floats and their neighbours, 0, +-0,
 * +-inf, NaNs, subnormals, every tail length, and every 257th bit pattern of the 2^32
 * (TFCC_EXPF_ALL=1: every float, a few seconds a variant). mend44: the kernels against
 * tfcc_expf_ref (the plain build's expf in C, which tfcc_act_logistic_eigen calls) bit for bit
 * everywhere, and tfcc_expf_ref against the host's expf, which may be the FMA build at two
 * floats. */
static bool expf_same(float a, float b) {
  uint32_t ua, ub;
  memcpy(&ua, &a, 4);
  memcpy(&ub, &b, 4);
  return ua == ub || (a != a && b != b);
}

/* The two floats where the C library's FMA build (glibc on x86-64 with FMA, where GCC fuses
 * r = z - k into fma(32 / ln2, x, -k)) rounds differently from its plain build (musl, glibc
 * without FMA, Emscripten's musl: tfweb), found over all 2^32 floats: x's bits and the plain
 * build's e^x bits. The kernels give the plain build's (one algorithm at every ISA). */
static const uint32_t expf_fma_points[2][2] = {{0x4202422fu, 0x56fc9f1bu},
                                               {0xc27c65d9u, 0x11fa2992u}};

/* got matches want (the C library's), or x is one of the two points and got is the plain
 * build's value (for the logistic: that e^x through e / (1 + e)) */
static bool expf_ok(float x, float got, float want, bool logistic) {
  if (expf_same(got, want)) return true;
  uint32_t xb;
  memcpy(&xb, &x, 4);
  for (int i = 0; i < 2; i++)
    if (xb == expf_fma_points[i][0]) {
      float e;
      memcpy(&e, &expf_fma_points[i][1], 4);
      const float d = 1.f + e;
      return expf_same(got, logistic ? e / d : e);
    }
  return false;
}

/* tfcc_expf_ref gives the plain build's bits at the two points on every host, and
 * tfcc_act_logistic_eigen its e / (1 + e) (the classic interpreter's LSTM cell at
 * -0x1.f8cbb2p+5: conformance case unidirectional_sequence_lstm_f32_act_probe_expf_ref) */
static void test_expf_ref_points(void) {
  for (int i = 0; i < 2; i++) {
    float x, e;
    memcpy(&x, &expf_fma_points[i][0], 4);
    memcpy(&e, &expf_fma_points[i][1], 4);
    const float d = 1.f + e, l = e / d;
    CHECKF(expf_same(tfcc_expf_ref(x), e), "tfcc_expf_ref(%a) = %a, the plain build's %a",
           (double)x, (double)tfcc_expf_ref(x), (double)e);
    CHECKF(expf_same(tfcc_act_logistic_eigen(x), l), "tfcc_act_logistic_eigen(%a) = %a, want %a",
           (double)x, (double)tfcc_act_logistic_eigen(x), (double)l);
  }
  float lo;
  memcpy(&lo, &expf_fma_points[1][0], 4);
  CHECK(tfcc_act_logistic_eigen(lo) == 0x1.f45324p-92f);
}

static void test_xnn_expf(void) {
  enum { C = 4096 };
  float *x = malloc(C * sizeof(float)), *got = malloc((C + 16) * sizeof(float));
  float *want = malloc(C * sizeof(float));
  const float edge[] = {0x1.62e42ep6f,
                        0x1.62e430p6f,
                        0x1.62e42cp6f,
                        -0x1.9fe368p6f,
                        -0x1.9fe36ap6f,
                        -0x1.9fe366p6f,
                        -0x1.9d1d9ep6f,
                        88.0f,
                        -88.0f,
                        0.0f,
                        -0.0f,
                        INFINITY,
                        -INFINITY,
                        NAN,
                        -NAN,
                        0x1p-149f,
                        -0x1p-149f,
                        0x1p-126f,
                        1e-30f,
                        -1e-7f,
                        0x1.fffffep127f,
                        -0x1.fffffep127f,
                        1.0f,
                        -1.0f,
                        0.5f,
                        -103.0f,
                        -87.5f,
                        87.9f,
                        0x1.04845ep+5f,
                        -0x1.f8cbb2p+5f};
  const size_t ne = sizeof edge / sizeof edge[0];
  const bool all = getenv("TFCC_EXPF_ALL") && atoi(getenv("TFCC_EXPF_ALL")) == 1;
  const uint64_t stride = all ? 1 : 257;
  TFCC_EACH_VARIANT(tfcc_tflite_f32, k, tfcc_cpu_dispatch_isa(TFCC_ISA_COUNT_)) {
    /* the edges, every tail length, and the stores stop at n */
    for (size_t len = ne; len > 0; len--) {
      for (int j = 0; j < C + 16; j++) got[j] = 1234.5f;
      k->expf(edge, got, len);
      bool ok = got[len] == 1234.5f;
      for (size_t j = 0; j < len; j++)
        ok = ok && expf_same(got[j], tfcc_expf_ref(edge[j])) &&
             expf_ok(edge[j], got[j], expf(edge[j]), false);
      CHECKF(ok, "%s expf edges n=%zu", k->name, len);
      k->logistic_eigen(edge, got, len);
      ok = got[len] == 1234.5f;
      for (size_t j = 0; j < len; j++)
        ok = ok && expf_same(got[j], tfcc_act_logistic_eigen(edge[j]));
      CHECKF(ok, "%s logistic_eigen edges n=%zu", k->name, len);
    }
    uint64_t bad_e = 0, bad_l = 0, first_e = 0, first_l = 0;
    for (uint64_t u0 = 0; u0 < (1ull << 32); u0 += (uint64_t)C * stride) {
      size_t n = 0;
      for (uint64_t u = u0; n < C && u < (1ull << 32); u += stride, n++) {
        const uint32_t b = (uint32_t)u;
        memcpy(&x[n], &b, 4);
      }
      k->expf(x, got, n);
      for (size_t j = 0; j < n; j++)
        if (!expf_same(got[j], tfcc_expf_ref(x[j])) && bad_e++ == 0) memcpy(&first_e, &x[j], 4);
      k->logistic_eigen(x, got, n);
      for (size_t j = 0; j < n; j++)
        if (!expf_same(got[j], tfcc_act_logistic_eigen(x[j])) && bad_l++ == 0)
          memcpy(&first_l, &x[j], 4);
    }
    CHECKF(bad_e == 0, "%s expf: %llu floats differ from tfcc_expf_ref (first bits 0x%08llx)",
           k->name, (unsigned long long)bad_e, (unsigned long long)first_e);
    CHECKF(bad_l == 0, "%s logistic_eigen: %llu floats differ (first bits 0x%08llx)", k->name,
           (unsigned long long)bad_l, (unsigned long long)first_l);
  }
  /* the reference against the host's expf (the plain build's value at the two points) */
  uint64_t bad = 0, first = 0;
  for (uint64_t u = 0; u < (1ull << 32); u += stride) {
    const uint32_t b = (uint32_t)u;
    float v;
    memcpy(&v, &b, 4);
    if (!expf_ok(v, tfcc_expf_ref(v), expf(v), false) && bad++ == 0) first = b;
  }
  for (size_t j = 0; j < ne; j++)
    if (!expf_ok(edge[j], tfcc_expf_ref(edge[j]), expf(edge[j]), false) && bad++ == 0)
      memcpy(&first, &edge[j], 4);
  CHECKF(bad == 0, "tfcc_expf_ref: %llu floats differ from libm's (first bits 0x%08llx)",
         (unsigned long long)bad, (unsigned long long)first);
  free(x);
  free(got);
  free(want);
}

/* exact7: XNNPACK's f32-vexp (rational 3/2, TFLITE-mode EXP of hybrid subgraphs) at its edges,
 * as LiteRT.js computes it (docs/kernels.md "The vector expf": 0x11fa2a39 at -0x1.f8cbaep+5,
 * inf from 0x1.62e42ep6 on, subnormal results flushed to 0), and the classic interpreter's
 * approximate GELU (Eigen's tanh) cancelling to -0 for large negative x. */
static void test_xnn_exp_points(void) {
  float v = tfcc_xnn_exp_f32_one(-0x1.f8cbaep+5f);
  uint32_t b;
  memcpy(&b, &v, 4);
  CHECKF(b == 0x11fa2a39u, "xnn exp(-0x1.f8cbaep+5) bits 0x%08x, want 0x11fa2a39", (unsigned)b);
  CHECK(isinf(tfcc_xnn_exp_f32_one(0x1.62e42ep6f)) && tfcc_xnn_exp_f32_one(0x1.62e42ep6f) > 0.f);
  CHECK(isinf(tfcc_xnn_exp_f32_one(INFINITY)));
  CHECK(tfcc_xnn_exp_f32_one(-INFINITY) == 0.f);
  CHECK(tfcc_xnn_exp_f32_one(-88.0f) == 0.f); /* exp(-88) is subnormal: flushed */
  CHECK(isnan(tfcc_xnn_exp_f32_one(NAN)));
  CHECK(tfcc_xnn_exp_f32_one(0.f) == 1.f);
  float x[5] = {-1.0f, 0.5f, 2.0f, -7.25f, 3.0f}, y[5];
  tfcc_xnn_exp_f32(x, y, 5);
  for (int i = 0; i < 5; i++) {
    CHECKF(memcmp(&y[i], &(float){tfcc_xnn_exp_f32_one(x[i])}, 4) == 0, "xnn exp array %d", i);
    /* a low-degree rational: a few ulp, up to about 40 (the point above) */
    CHECKF(fabsf(y[i] - expf(x[i])) <= 5e-6f * expf(x[i]), "xnn exp(%g) = %a", (double)x[i],
           (double)y[i]);
  }
  float g[3] = {-12.0f, 0.0f, 3.0f}, gy[3];
  tfcc_eigen_gelu_tanh_f32(g, gy, 3);
  CHECK(gy[0] == 0.f && signbit(gy[0]));
  CHECK(gy[1] == 0.f);
  CHECK(fabsf(gy[2] - 2.9963627f) < 1e-6f);
}

int main(void) {
  test_tanh_accuracy();
  test_xnn_exp_points();
  test_schemes();
  test_fc_eigen();
  test_fc_gemv();
  test_gemm();
  test_stream();
  test_wsumf_extremes();
  test_vector_quantizers();
  test_qd8_rows_sat();
  test_dwconv();
  test_tflite_f32();
  test_xnn_log();
  test_tflite_f32_vec();
  test_expf_ref_points();
  test_xnn_expf();
  xnn_conv_wide_case(11, 23, 3, 32, 3, 2, 1);
  xnn_conv_wide_case(9, 21, 3, 40, 3, 1, 1);
  xnn_conv_wide_case(6, 19, 5, 16, 1, 1, 0);
  xnn_conv_wide_case(7, 12, 4, 72, 3, 1, 0);
  /* the one-loop interior path (xf_flat): MobileNetV2's first layer (stride 2, no leading
   * padding: a right column and a bottom row with padding taps), 2 images, dilation 2, a
   * tail block of 8 past two whole blocks, and K = 1089 taps (over the listed 1024: every group
   * by the per-tap path) */
  xnn_conv_wide_case_nd(1, 18, 36, 3, 32, 3, 2, 0, 1);
  xnn_conv_wide_case_nd(2, 9, 19, 5, 40, 3, 1, 1, 1);
  xnn_conv_wide_case_nd(1, 13, 22, 3, 24, 3, 1, 2, 2);
  xnn_conv_wide_case_nd(1, 4, 11, 121, 20, 3, 1, 1, 1);
  xnn_conv_wide_case_nd(1, 5, 20, 32, 16, 1, 1, 0, 1);
  xnn_dwconv_case(13, 11, 32, 3, 1, 1, true); /* MobileNetV2's first depthwise, smaller */
  xnn_dwconv_case(14, 13, 96, 3, 2, 1, true); /* its second (stride 2) */
  xnn_dwconv_case(9, 21, 96, 3, 2, 1, true);  /* stride 2 with interior pixel groups */
  xnn_dwconv_case(5, 30, 48, 3, 1, 1, false); /* 1.5 blocks pairs on AVX-512, interior */
  xnn_dwconv_case(6, 7, 19, 3, 1, 0, false);  /* a channel tail at every width, no bias */
  xnn_dwconv_case(9, 5, 3, 5, 2, 2, true);    /* fewer channels than a vector, 5x5 */
  xnn_dwconv_case(20, 20, 1, 3, 1, 1, true);  /* one channel (YOLO26's per-channel convs) */
  xnn_dwconv_case(21, 37, 1, 3, 2, 1, false); /* one channel, stride 2, gathered lanes */
  xnn_dwconv_case(9, 5, 1, 5, 1, 2, true);    /* one channel, narrower than a vector */
  xnn_dwconv_case(6, 40, 1, 3, 1, 0, false);  /* one channel, no padding, a short tail */
  /* the 3x3 runs (xf_dw3_run): two whole blocks and a tail of 8 on AVX-512, stride 2 without
   * leading padding (a right column with padding taps), dilation 2, padding 2 on a row shorter
   * than a group of 4, a run of one pixel */
  xnn_dwconv_case_d(7, 23, 40, 3, 2, 0, 1, true);
  xnn_dwconv_case_d(8, 17, 32, 3, 1, 2, 2, false);
  xnn_dwconv_case_d(6, 3, 16, 3, 1, 2, 1, true);
  xnn_dwconv_case_d(5, 3, 48, 3, 1, 0, 1, true);
  xnn_conv_c4_case(9, 11, 3, 6, 3, 1, 1, true); /* OCR's first layer: 3 -> 6 */
  xnn_conv_c4_case(5, 7, 16, 1, 1, 1, 0, true); /* YOLO's DFL: 16 -> 1 */
  xnn_conv_c4_case(8, 9, 5, 7, 3, 2, 1, false); /* a channel tail, stride 2 */
  xnn_conv_c4_case(6, 6, 64, 4, 3, 1, 1, true); /* deep */
  test_hybrid_cases();
  test_grouped_reference_refused();
  return tfcc_test_finish("hybrid");
}
