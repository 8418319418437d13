/* Fast QUANTIZE / DEQUANTIZE kernels (src/kernels/quantize): every variant this CPU can run
 * produces exactly the reference kernels' bytes (kernels/ref/quantize.c):
 *   f32 -> uint8/int8 with XNNPACK's arithmetic (tfcc_xnn_quantize_f32),
 *   f32 -> uint8/int8/int16 with TFLite's builtin arithmetic (tfcc_affine_quantize),
 *   uint8/int8/int16 -> f32 (tfcc_dequantize),
 * on values exactly half-way between two quantized steps, NaN, infinities, -0, huge values,
 * tiny and large scales, extreme zero points, odd lengths (vector tails), on one thread and
 * split over a 2-thread pool; and the 8-bit requantization tables (tfcc_qz_lut_*) against
 * tfcc_requantize / tfcc_xnn_requantize_q8 for every input byte. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cpu/cpu_info.h"
#include "kernels/quantize/quantize.h"
#include "kernels/ref/quant_util.h"
#include "kernels/ref/quantize.h"
#include "base/threadpool.h"
#include "kernel_test_main.h"
#include "test_harness.h"

static uint32_t rng = 99u;
static uint32_t urand(void) {
  rng = rng * 1664525u + 1013904223u;
  return rng >> 8;
}

static size_t qsize(tfcc_dtype t) { return t == TFCC_INT16 ? 2 : 1; }
static int32_t qmin(tfcc_dtype t) { return t == TFCC_UINT8 ? 0 : (t == TFCC_INT8 ? -128 : -32768); }
static int32_t qmax(tfcc_dtype t) { return t == TFCC_UINT8 ? 255 : (t == TFCC_INT8 ? 127 : 32767); }

/* Floats around the quantization grid of scale: exact half steps, near-halves, specials. */
static void fill_f32(float *x, size_t n, float scale, int32_t zp, tfcc_dtype t) {
  const float span = (float)(qmax(t) - qmin(t) + 8);
  for (size_t i = 0; i < n; i++) {
    const uint32_t r = urand() % 12;
    const float k = (float)((int32_t)(urand() % (uint32_t)span) - (int32_t)(span / 2)) - (float)zp;
    float v;
    if (r < 4)
      v = (k + 0.5f) * scale; /* half step (exact when scale is a power of two) */
    else if (r < 5)
      v = nextafterf((k + 0.5f) * scale, INFINITY);
    else if (r < 6)
      v = nextafterf((k + 0.5f) * scale, -INFINITY);
    else if (r < 9)
      v = ((float)(urand() % 2000001) / 1e6f - 1.f) * span * scale;
    else {
      const float sp[] = {NAN,    INFINITY, -INFINITY, -0.0f, 0.0f, 3e38f,
                          -3e38f, 1e-40f,   0.5f,      -0.5f, 1.5f, -2.5f};
      v = sp[urand() % (sizeof sp / sizeof sp[0])];
    }
    x[i] = v;
  }
}

static int n_cases = 0;

static void check_bytes(const char *what, const tfcc_qz_kernel *k, const void *got,
                        const void *want, size_t bytes, float scale, int32_t zp, size_t n,
                        tfcc_dtype t) {
  size_t bad = 0, first = 0;
  for (size_t i = 0; i < bytes; i++)
    if (((const uint8_t *)got)[i] != ((const uint8_t *)want)[i] && bad++ == 0) first = i;
  CHECKF(bad == 0, "%s %s %s n=%zu scale %a zp %d: %zu bytes differ (first at byte %zu)", k->name,
         what, tfcc_dtype_name(t), n, (double)scale, (int)zp, bad, first);
  n_cases++;
}

static void test_quantize(const tfcc_qz_kernel *k, tfcc_threadpool *pool, tfcc_dtype t, size_t n,
                          float scale, int32_t zp) {
  float *x = malloc(n * 4 + 4);
  const size_t qs = qsize(t);
  uint8_t *want = malloc(n * qs + 1), *got = malloc(n * qs + 1);
  fill_f32(x, n, scale, zp, t);
  if (t != TFCC_INT16) {
    const float inv = 1.0f / scale;
    memset(got, 0xEE, n * qs + 1);
    tfcc_xnn_quantize_f32(x, t, want, n, inv, zp);
    tfcc_qz_quantize_xnn(pool, k, x, got, n, inv, zp, t);
    check_bytes("xnn quantize", k, got, want, n * qs, scale, zp, n, t);
    CHECK(got[n * qs] == 0xEE);
  }
  memset(got, 0xEE, n * qs + 1);
  tfcc_affine_quantize(x, t, want, n, scale, zp);
  tfcc_qz_quantize_ref(pool, k, x, got, n, scale, zp, t);
  check_bytes("quantize", k, got, want, n * qs, scale, zp, n, t);
  CHECK(got[n * qs] == 0xEE);
  free(x);
  free(want);
  free(got);
}

static void test_dequantize(const tfcc_qz_kernel *k, tfcc_threadpool *pool, tfcc_dtype t, size_t n,
                            float scale, int32_t zp) {
  const size_t qs = qsize(t);
  uint8_t *q = malloc(n * qs + 1);
  for (size_t i = 0; i < n * qs; i++) q[i] = (uint8_t)urand();
  for (size_t i = 0; i < n * qs && i < 4; i++) q[i] = i % 2 ? 0x80 : 0x7F;
  float *want = malloc(n * 4 + 4), *got = malloc(n * 4 + 4);
  tfcc_dequantize(t, q, want, n, scale, zp);
  memset(got, 0xEE, n * 4 + 4);
  tfcc_qz_dequantize(pool, k, q, got, n, scale, zp, t);
  check_bytes("dequantize", k, got, want, n * 4, scale, zp, n, t);
  CHECK(((uint8_t *)got)[n * 4] == 0xEE);
  free(q);
  free(want);
  free(got);
}

static void test_requant_xnn(const tfcc_qz_kernel *k, tfcc_threadpool *pool, tfcc_dtype t, size_t n,
                             float s_in, float s_out, int32_t in_zp, int32_t out_zp) {
  const int32_t mult = (int32_t)lrintf(256.0f * (s_in / s_out));
  uint8_t *in = malloc(n + 256), *want = malloc(n), *got = malloc(n + 1);
  for (size_t i = 0; i < n; i++) in[i] = i < 256 ? (uint8_t)i : (uint8_t)urand();
  tfcc_xnn_requantize_q8(t, in, want, n, mult, in_zp, out_zp);
  memset(got, 0xEE, n + 1);
  tfcc_qz_requantize_xnn(pool, k, in, got, n, mult, in_zp, out_zp, t);
  check_bytes("xnn requantize", k, got, want, n, s_in / s_out, in_zp, n, t);
  CHECK(got[n] == 0xEE);
  free(in);
  free(want);
  free(got);
}

static void test_lut(tfcc_dtype it, tfcc_dtype ot, bool xnn, float s_in, float s_out, int32_t in_zp,
                     int32_t out_zp) {
  int32_t mult;
  int shift;
  tfcc_quantize_multiplier((double)s_in / (double)s_out, &mult, &shift);
  if (xnn) mult = (int32_t)lrintf(256.0f * (s_in / s_out));
  tfcc_qz_lut lut;
  tfcc_qz_lut_build(&lut, it, ot, xnn, mult, shift, in_zp, out_zp);
  const size_t n = 1000 + 256, qs = qsize(ot);
  uint8_t in[1256], want[2512], got[2513];
  for (size_t i = 0; i < n; i++) in[i] = i < 256 ? (uint8_t)i : (uint8_t)urand();
  if (xnn)
    tfcc_xnn_requantize_q8(it, in, want, n, mult, in_zp, out_zp);
  else
    tfcc_requantize(it, in, ot, want, n, mult, shift, in_zp, out_zp);
  memset(got, 0xEE, sizeof got);
  tfcc_qz_lut_apply(&lut, in, got, n);
  size_t bad = 0;
  for (size_t i = 0; i < n * qs; i++) bad += got[i] != want[i];
  CHECKF(bad == 0 && got[n * qs] == 0xEE, "lut %s -> %s %s %g/%g zp %d/%d: %zu bytes differ",
         tfcc_dtype_name(it), tfcc_dtype_name(ot), xnn ? "xnn" : "fixed", (double)s_in,
         (double)s_out, (int)in_zp, (int)out_zp, bad);
}

/* Multipliers no real model has (scale ratios from a hostile file's inf / NaN / huge scales)
 * give defined values that every kernel's shifts accept (UBSan checks), and the ordinary range
 * is unchanged. */
static void test_multiplier_edges(void) {
  int32_t m = 1;
  int sh = 1;
  tfcc_quantize_multiplier(NAN, &m, &sh);
  CHECK(m == 0 && sh == 0);
  tfcc_quantize_multiplier(INFINITY, &m, &sh);
  CHECK(m == INT32_MAX && sh == 31);
  CHECK(tfcc_mbqm(-5, m, sh) == -INT32_MAX); /* -5 << 31 wraps to INT32_MIN, then x ~1 */
  tfcc_quantize_multiplier(-INFINITY, &m, &sh);
  CHECK(m == -INT32_MAX && sh == 31);
  tfcc_quantize_multiplier(0x1p40, &m, &sh);
  CHECK(m == INT32_MAX && sh == 31);
  tfcc_quantize_multiplier(0x1p30, &m, &sh); /* the largest kept exactly: 0.5 x 2^31 */
  CHECK(m == (1 << 30) && sh == 31);
  tfcc_quantize_multiplier(0.5, &m, &sh);
  CHECK(m == (1 << 30) && sh == 0);
  CHECK(tfcc_mbqm(1000, m, sh) == 500);
  tfcc_quantize_multiplier(0x1p-40, &m, &sh); /* below 2^-31: zero, as TFLite */
  CHECK(m == 0 && sh == 0);
}

int main(void) {
  test_multiplier_edges();
  const tfcc_isa best = tfcc_cpu_dispatch_isa(TFCC_ISA_COUNT_);
  tfcc_threadpool *pool2 = tfcc_test_pool(2);
  TFCC_CHECK_SELECTS_USABLE(tfcc_qz, tfcc_qz_usable);
  const float scales[] = {1.0f, 0.5f, 0.0078125f, 0.0235294f, 3.1e-5f, 7.5f, 1e-9f, 1234.5f};
  const tfcc_dtype types[] = {TFCC_UINT8, TFCC_INT8, TFCC_INT16};
  const size_t lens[] = {1, 7, 16, 63, 64, 65, 1000, 4099};
  int tested = 0;
  TFCC_EACH_VARIANT_IF(tfcc_qz, k, best, tfcc_qz_usable(k, best)) {
    tested++;
    for (int ti = 0; ti < 3; ti++) {
      const tfcc_dtype t = types[ti];
      const int32_t zps[] = {qmin(t), qmax(t), 0, t == TFCC_UINT8 ? 128 : (t == TFCC_INT8 ? -3 : 0),
                             t == TFCC_INT16 ? 0 : qmin(t) + 77};
      for (size_t si = 0; si < sizeof scales / sizeof scales[0]; si++)
        for (size_t zi = 0; zi < 5; zi++) {
          const int32_t zp = t == TFCC_INT16 ? 0 : zps[zi];
          const size_t n = lens[(si + zi) % 8];
          test_quantize(k, NULL, t, n, scales[si], zp);
          test_dequantize(k, NULL, t, n, scales[si], zp);
        }
      /* large: split over the pool in chunks */
      test_quantize(k, pool2, t, 600011, 0.0078125f, t == TFCC_INT16 ? 0 : zps[3]);
      test_dequantize(k, pool2, t, 600011, 0.02f, t == TFCC_INT16 ? 0 : zps[4]);
    }
    /* XNNPACK same-type requantization, ratios over XNNPACK's whole [2^-8, 2^7] */
    const float rq[][2] = {{0.5f, 0.25f}, {0.01f, 0.013f}, {1.0f, 0.0079f}, {0.003f, 0.7f},
                           {0.1f, 0.1f},  {1.0f, 256.0f},  {128.0f, 1.0f}};
    for (int ti = 0; ti < 2; ti++)
      for (size_t r = 0; r < sizeof rq / sizeof rq[0]; r++)
        for (int zi = 0; zi < 3; zi++) {
          const tfcc_dtype t = types[ti];
          const int32_t in_zp = zi == 0 ? qmin(t) : (zi == 1 ? qmax(t) : 5);
          const int32_t out_zp = zi == 0 ? qmax(t) : (zi == 1 ? qmin(t) : 9);
          test_requant_xnn(k, NULL, t, lens[(r + zi) % 8] + 256, rq[r][0], rq[r][1], in_zp, out_zp);
        }
    test_requant_xnn(k, pool2, TFCC_INT8, 700001, 0.02f, 0.03f, -7, 12);
    /* subnormal products */
    test_dequantize(k, NULL, TFCC_INT8, 1000, 1e-40f, 3);
  }
  CHECK(tested >= 1);
  /* requantization tables */
  const struct {
    tfcc_dtype it, ot;
  } pairs[] = {{TFCC_UINT8, TFCC_UINT8},
               {TFCC_UINT8, TFCC_INT8},
               {TFCC_INT8, TFCC_UINT8},
               {TFCC_INT8, TFCC_INT8},
               {TFCC_INT8, TFCC_INT16}};
  const float ratios[][2] = {
      {0.5f, 0.25f}, {0.01f, 0.013f}, {1.0f, 0.0079f}, {0.003f, 0.2f}, {0.1f, 0.1f}};
  for (size_t p = 0; p < sizeof pairs / sizeof pairs[0]; p++)
    for (size_t r = 0; r < 5; r++)
      for (int zi = 0; zi < 3; zi++) {
        const tfcc_dtype it = pairs[p].it, ot = pairs[p].ot;
        const int32_t in_zp = zi == 0 ? qmin(it) : (zi == 1 ? qmax(it) : 5);
        const int32_t out_zp =
            ot == TFCC_INT16 ? 0 : (zi == 0 ? qmax(ot) : (zi == 1 ? qmin(ot) : 9));
        test_lut(it, ot, false, ratios[r][0], ratios[r][1], in_zp, out_zp);
        if (it == ot) test_lut(it, ot, true, ratios[r][0], ratios[r][1], in_zp, out_zp);
      }
  printf("%d quantize kernels tested at CPU level %s, %d cases\n", tested, tfcc_isa_name(best),
         n_cases);
  tfcc_threadpool_destroy(pool2);
  return tfcc_test_finish("test_quantize_fast");
}
