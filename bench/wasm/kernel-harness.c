/* Kernel-level timing of tfcc's int8 WebAssembly kernels in a browser (bench/wasm/kernel-bench.mjs
 * builds this against a build's libtfcc.a and runs it in headless Chromium): one q8 depthwise
 * (3x3, SAME) or q8 GEMM layer through the family's driver on one thread, a chosen table row,
 * random int8 data with fixed seeds, the minimum over repetitions of the mean per call (robust on
 * a loaded machine), and a checksum of the output bytes (equal across builds and kernels when
 * they compute the same bytes); also an expand 1x1 + 3x3 depthwise pair, unfused (two driver calls
 * over the whole expanded tensor) or fused (q8-expand-dw). Not a test: the exactness of the kernels is browser_exact's. */
#include <emscripten.h>
#include <wasm_simd128.h>
#include <stdlib.h>
#include <string.h>

#include "kernels/q8-dwconv/dwconv.h"
#include "kernels/q8-expand-dw/expand_dw.h"
#include "kernels/q8-gemm/gemm.h"
#include "kernels/q8-gemm/ukernels.h"

static uint32_t seed;
static uint8_t rnd(void) {
  seed = seed * 1664525u + 1013904223u;
  return (uint8_t)(seed >> 24);
}

static uint32_t checksum(const uint8_t *p, size_t n) {
  uint32_t s = 0;
  for (size_t i = 0; i < n; i++) s = s * 31u + p[i];
  return s;
}

/* 1 where the engine's relaxed dot product passes the q8 GEMM's self-check */
EMSCRIPTEN_KEEPALIVE int kh_rdot_exact(void) { return tfcc_q8_gemm_wasm_rdot_exact(); }

/* ns per relaxed dot product (i32x4.relaxed_dot_i8x16_i7x16_add_s: this file is built with
 * -mrelaxed-simd and the placeholder rewritten) with `chains` independent accumulators, each
 * taking one product per step (1: the instruction's latency; more: until its throughput
 * bounds), n steps. */
static inline v128_t kh_rdot(v128_t a, v128_t b, v128_t c) {
  return (v128_t)__builtin_wasm_fma_f64x2((__f64x2)a, (__f64x2)b, (__f64x2)c);
}
#define KH_CHAINS(K) \
  { \
    v128_t acc[K]; \
    for (int k = 0; k < K; k++) acc[k] = wasm_i32x4_splat(k); \
    const double t0 = emscripten_get_now(); \
    for (int i = 0; i < n; i++) { \
      _Pragma("clang loop unroll(full)") for (int k = 0; k < K; k++) acc[k] = \
          kh_rdot(a, b, acc[k]); \
    } \
    const double t = emscripten_get_now() - t0; \
    v128_t s = acc[0]; \
    for (int k = 1; k < K; k++) s = wasm_v128_xor(s, acc[k]); \
    *sum = (uint32_t)wasm_i32x4_extract_lane(s, 0); \
    return t * 1e6 / ((double)n * K); \
  }
EMSCRIPTEN_KEEPALIVE double kh_dot_chain(int chains, int n, uint32_t seed0, uint32_t *sum) {
  const v128_t a = wasm_i32x4_splat((int32_t)(seed0 * 2654435761u) & 0x0f0f0f0f);
  const v128_t b = wasm_i32x4_splat((int32_t)(seed0 * 40503u) & 0x0f0f0f0f);
  switch (chains) {
    case 1: KH_CHAINS(1)
    case 2: KH_CHAINS(2)
    case 4: KH_CHAINS(4)
    case 8: KH_CHAINS(8)
    case 12: KH_CHAINS(12)
    default: return -1;
  }
}

/* family 0: q8 depthwise, 1: q8 GEMM; "" past the table */
EMSCRIPTEN_KEEPALIVE const char *kh_kernel_name(int family, int i) {
  if (family == 0) {
    const tfcc_q8_dw_kernel *k = tfcc_q8_dw_kernel_at(i);
    return k ? k->name : "";
  }
  const tfcc_q8_gemm_kernel *k = tfcc_q8_gemm_kernel_at(i);
  return k ? k->name : "";
}

static tfcc_conv_requant requant(const float *scale) {
  tfcc_conv_requant r;
  memset(&r, 0, sizeof r);
  r.input_offset = 5;
  r.output_offset = -3;
  r.mult_stride = 1;
  r.act_min = -128;
  r.act_max = 127;
  r.scale = scale;
  return r;
}

/* ms per call of a 3x3 int8 depthwise (SAME padding) on h x w x c at stride s with kernel row ki
 * (-1: -2 pack failed, -3 no memory); *sum: the output's checksum */
EMSCRIPTEN_KEEPALIVE double kh_dw(int ki, int h, int w, int c, int s, int iters, int reps,
                                  uint32_t *sum) {
  const tfcc_q8_dw_kernel *k = tfcc_q8_dw_kernel_at(ki);
  if (!k) return -1;
  tfcc_conv_geom g;
  memset(&g, 0, sizeof g);
  g.batches = 1, g.in_h = h, g.in_w = w, g.in_c = c, g.out_c = c;
  g.filter_h = 3, g.filter_w = 3, g.filter_in_c = 1;
  g.stride_h = g.stride_w = s, g.dil_h = g.dil_w = 1;
  g.out_h = (h + s - 1) / s, g.out_w = (w + s - 1) / s;
  const int pad = (g.out_h - 1) * s + 3 - h;
  g.pad_h = g.pad_w = pad > 0 ? pad / 2 : 0;
  const size_t in_n = (size_t)h * (size_t)w * (size_t)c;
  const size_t out_n = (size_t)g.out_h * (size_t)g.out_w * (size_t)c;
  uint8_t *f = malloc(9 * (size_t)c), *in = malloc(in_n), *out = malloc(out_n);
  int32_t *bias = malloc(4 * (size_t)c);
  float *scale = malloc(4 * (size_t)c);
  if (!f || !in || !out || !bias || !scale) return -3;
  seed = 777;
  for (size_t i = 0; i < 9 * (size_t)c; i++) {
    const uint8_t b = rnd();
    f[i] = b == 0x80 ? 0x81 : b; /* symmetric int8 weights */
  }
  for (size_t i = 0; i < in_n; i++) in[i] = rnd();
  for (int i = 0; i < c; i++) {
    bias[i] = (int32_t)rnd() * 37 - 4000;
    scale[i] = 0.0005f + (float)rnd() * 0.00001f;
  }
  const tfcc_conv_requant r = requant(scale);
  tfcc_q8_dw_packed p;
  if (!tfcc_q8_dw_pack(k, true, c, 3, 3, f, bias, &r, &p)) return -2;
  void *scratch = aligned_alloc(64, (tfcc_q8_dw_scratch_bytes(&p, &g, 1) + 127) & ~(size_t)63);
  double best = 1e30;
  for (int rep = 0; rep < reps; rep++) {
    const double t0 = emscripten_get_now();
    for (int it = 0; it < iters; it++) tfcc_q8_dwconv(NULL, &g, &p, &r, in, out, scratch);
    const double t = (emscripten_get_now() - t0) / iters;
    best = t < best ? t : best;
  }
  *sum = checksum(out, out_n);
  tfcc_q8_dw_packed_free(&p);
  free(f), free(in), free(out), free(bias), free(scale), free(scratch);
  return best;
}

/* ms per call of an int8 convolution (SAME padding) of an h x w x cin image into cout channels,
 * fh x fh filter at stride s, through the GEMM driver (im2col) with kernel row ki */
EMSCRIPTEN_KEEPALIVE double kh_conv(int ki, int h, int w, int cin, int cout, int fh, int s,
                                    int iters, int reps, uint32_t *sum) {
  const tfcc_q8_gemm_kernel *k = tfcc_q8_gemm_kernel_at(ki);
  if (!k) return -1;
  tfcc_conv_geom g;
  memset(&g, 0, sizeof g);
  g.batches = 1, g.in_h = h, g.in_w = w, g.in_c = cin, g.out_c = cout;
  g.filter_h = fh, g.filter_w = fh, g.filter_in_c = cin;
  g.stride_h = g.stride_w = s, g.dil_h = g.dil_w = 1;
  g.out_h = (h + s - 1) / s, g.out_w = (w + s - 1) / s;
  const int pad = (g.out_h - 1) * s + fh - h;
  g.pad_h = g.pad_w = pad > 0 ? pad / 2 : 0;
  const int kdim = fh * fh * cin;
  const size_t in_n = (size_t)h * (size_t)w * (size_t)cin;
  const size_t out_n = (size_t)g.out_h * (size_t)g.out_w * (size_t)cout;
  const size_t w_n = (size_t)cout * (size_t)kdim;
  uint8_t *f = malloc(w_n), *in = malloc(in_n + 64), *out = malloc(out_n);
  int32_t *bias = malloc(4 * (size_t)cout);
  float *scale = malloc(4 * (size_t)cout);
  if (!f || !in || !out || !bias || !scale) return -3;
  seed = 4242;
  for (size_t i = 0; i < w_n; i++) {
    const uint8_t b = rnd();
    f[i] = b == 0x80 ? 0x81 : b;
  }
  for (size_t i = 0; i < in_n; i++) in[i] = rnd();
  for (int i = 0; i < cout; i++) {
    bias[i] = (int32_t)rnd() * 37 - 4000;
    scale[i] = 0.0003f + (float)rnd() * 0.00001f;
  }
  const tfcc_conv_requant r = requant(scale);
  tfcc_q8_packed p;
  if (!tfcc_q8_pack(k, true, cout, kdim, f, bias, &r, &p)) return -2;
  void *scratch = aligned_alloc(64, (tfcc_q8_scratch_bytes(&g, &p, 1) + 127) & ~(size_t)63);
  double best = 1e30;
  for (int rep = 0; rep < reps; rep++) {
    const double t0 = emscripten_get_now();
    for (int it = 0; it < iters; it++) tfcc_q8_conv(NULL, &g, &p, &r, in, out, scratch);
    const double t = (emscripten_get_now() - t0) / iters;
    best = t < best ? t : best;
  }
  *sum = checksum(out, out_n);
  tfcc_q8_packed_free(&p);
  free(f), free(in), free(out), free(bias), free(scale), free(scratch);
  return best;
}

/* ms per call of an int8 GEMM m x n x k (rows k bytes apart) with kernel row ki */
EMSCRIPTEN_KEEPALIVE double kh_gemm(int ki, int m, int n, int kdim, int iters, int reps,
                                    uint32_t *sum) {
  const tfcc_q8_gemm_kernel *k = tfcc_q8_gemm_kernel_at(ki);
  if (!k) return -1;
  const size_t a_n = (size_t)m * (size_t)kdim, w_n = (size_t)n * (size_t)kdim;
  uint8_t *w = malloc(w_n), *a = malloc(a_n + 64), *c = malloc((size_t)m * (size_t)n);
  int32_t *bias = malloc(4 * (size_t)n);
  float *scale = malloc(4 * (size_t)n);
  if (!w || !a || !c || !bias || !scale) return -3;
  seed = 99;
  for (size_t i = 0; i < w_n; i++) {
    const uint8_t b = rnd();
    w[i] = b == 0x80 ? 0x81 : b;
  }
  for (size_t i = 0; i < a_n; i++) a[i] = rnd();
  for (int i = 0; i < n; i++) {
    bias[i] = (int32_t)rnd() * 37 - 4000;
    scale[i] = 0.0003f + (float)rnd() * 0.00001f;
  }
  const tfcc_conv_requant r = requant(scale);
  tfcc_q8_packed p;
  if (!tfcc_q8_pack(k, true, n, kdim, w, bias, &r, &p)) return -2;
  void *scratch = aligned_alloc(64, (tfcc_q8_scratch_bytes(NULL, &p, 1) + 127) & ~(size_t)63);
  double best = 1e30;
  for (int rep = 0; rep < reps; rep++) {
    const double t0 = emscripten_get_now();
    for (int it = 0; it < iters; it++)
      tfcc_q8_gemm(NULL, &p, &r, m, a, (size_t)kdim, c, (size_t)n, scratch);
    const double t = (emscripten_get_now() - t0) / iters;
    best = t < best ? t : best;
  }
  *sum = checksum(c, (size_t)m * (size_t)n);
  tfcc_q8_packed_free(&p);
  free(w), free(a), free(c), free(bias), free(scale), free(scratch);
  return best;
}

/* ms per call of an int8 expand 1x1 (cin -> c) + 3x3 depthwise (SAME, stride s) pair on h x w,
 * fused (q8-expand-dw's driver, fused != 0) or unfused (tfcc_q8_gemm over the whole image, then
 * tfcc_q8_dwconv on the whole expanded tensor), with the kernels the dispatch takes here;
 * window_kib: the fused driver's window (0: its default) */
EMSCRIPTEN_KEEPALIVE double kh_xdw(int fused, int window_kib, int h, int w, int cin, int c, int s,
                                   int iters, int reps, uint32_t *sum) {
  const tfcc_q8_gemm_kernel *gk =
      tfcc_q8_gemm_select_for(TFCC_ISA_WASMSIMD, (int64_t)h * w, cin, c);
  const tfcc_q8_dw_kernel *dk = tfcc_q8_dw_select(TFCC_ISA_WASMSIMD);
  tfcc_conv_geom g;
  memset(&g, 0, sizeof g);
  g.batches = 1, g.in_h = h, g.in_w = w, g.in_c = c, g.out_c = c;
  g.filter_h = 3, g.filter_w = 3, g.filter_in_c = 1;
  g.stride_h = g.stride_w = s, g.dil_h = g.dil_w = 1;
  g.out_h = (h + s - 1) / s, g.out_w = (w + s - 1) / s;
  const int pad = (g.out_h - 1) * s + 3 - h;
  g.pad_h = g.pad_w = pad > 0 ? pad / 2 : 0;
  const size_t x_n = (size_t)h * (size_t)w * (size_t)cin, e_n = (size_t)h * (size_t)w * (size_t)c;
  const size_t out_n = (size_t)g.out_h * (size_t)g.out_w * (size_t)c;
  uint8_t *f1 = malloc((size_t)c * (size_t)cin), *f2 = malloc(9 * (size_t)c), *x = malloc(x_n);
  uint8_t *e = malloc(e_n), *out = malloc(out_n);
  int32_t *b1 = malloc(4 * (size_t)c), *b2 = malloc(4 * (size_t)c);
  float *s1 = malloc(4 * (size_t)c), *s2 = malloc(4 * (size_t)c);
  if (!f1 || !f2 || !x || !e || !out || !b1 || !b2 || !s1 || !s2) return -3;
  seed = 4242;
  for (size_t i = 0; i < (size_t)c * (size_t)cin; i++) f1[i] = rnd() | 1; /* never 0x80 */
  for (size_t i = 0; i < 9 * (size_t)c; i++) f2[i] = rnd() | 1;
  for (size_t i = 0; i < x_n; i++) x[i] = rnd();
  for (int i = 0; i < c; i++) {
    b1[i] = (int32_t)rnd() * 37 - 4000;
    b2[i] = (int32_t)rnd() * 37 - 4000;
    s1[i] = 0.0003f + (float)rnd() * 0.00001f;
    s2[i] = 0.0005f + (float)rnd() * 0.00001f;
  }
  tfcc_conv_requant r1 = requant(s1), r2 = requant(s2);
  r1.output_offset = -128, r1.act_min = -128, r1.act_max = 20; /* RELU6-like expand */
  r2.input_offset = 128;
  tfcc_q8_packed p1;
  tfcc_q8_dw_packed p2;
  if (!tfcc_q8_pack(gk, true, c, cin, f1, b1, &r1, &p1)) return -2;
  if (!tfcc_q8_dw_pack(dk, true, c, 3, 3, f2, b2, &r2, &p2)) return -2;
  const tfcc_q8_expand_dw k = {&p1, &r1, &p2, &r2, (size_t)window_kib * 1024u};
  size_t sb = tfcc_q8_expand_dw_scratch_bytes(&k, &g, 1);
  const size_t sg = tfcc_q8_scratch_bytes(NULL, &p1, 1), sd = tfcc_q8_dw_scratch_bytes(&p2, &g, 1);
  if (sg > sb) sb = sg;
  if (sd > sb) sb = sd;
  void *scratch = aligned_alloc(64, (sb + 127) & ~(size_t)63);
  double best = 1e30;
  for (int rep = 0; rep < reps; rep++) {
    const double t0 = emscripten_get_now();
    for (int it = 0; it < iters; it++) {
      if (fused) {
        tfcc_q8_expand_dw_run(NULL, &k, &g, x, out, scratch);
      } else {
        tfcc_q8_gemm(NULL, &p1, &r1, h * w, x, (size_t)cin, e, (size_t)c, scratch);
        tfcc_q8_dwconv(NULL, &g, &p2, &r2, e, out, scratch);
      }
    }
    const double t = (emscripten_get_now() - t0) / iters;
    best = t < best ? t : best;
  }
  *sum = checksum(out, out_n);
  tfcc_q8_packed_free(&p1);
  tfcc_q8_dw_packed_free(&p2);
  free(f1), free(f2), free(x), free(e), free(out), free(b1), free(b2), free(s1), free(s2);
  free(scratch);
  return best;
}
