/* The AMX-BF16 micro-kernel's logic (tile configuration, A/B/C strides, K padded to 32, the
 * shared panel layout, bias, clamp, partial tiles), checked on a machine without AMX: the
 * kernel's source is compiled here with the six tile intrinsics replaced by a C model of them
 * (Intel SDM semantics: tiles of rows x colsb bytes, TDPBF16PS adding pair products into float32
 * lanes), then run through the real bf16 driver and packing against the bf16-input reference.
 * What this cannot check is the hardware itself (encoding, OS tile permission): see
 * docs/kernels.md, "Precision bf16". Needs AVX512-BF16 for the kernel's epilogue and the
 * driver's conversion; skipped (77) without it. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cpu/cpu_info.h"
#include "kernels/bf16-gemm/conv.h"
#include "kernels/bf16-gemm/gemm.h"
#include "kernels/ref/conv.h"
#include "test_harness.h"

#if defined(__x86_64__) && defined(__GNUC__)
#define TFCC_AMX_EMULATED 1

/* ---- the C model of the tile unit ---- */
typedef struct emu_tiles {
  int configured;
  uint8_t rows[8];
  uint16_t colsb[8];
  uint8_t data[8][16][64];
} emu_tiles;
static emu_tiles g_emu;
static int g_emu_calls, g_emu_faults;

static void emu_loadconfig(const void *cfg) {
  const uint8_t *b = cfg;
  g_emu.configured = b[0] == 1; /* palette 1 */
  for (int t = 0; t < 8; t++) {
    memcpy(&g_emu.colsb[t], b + 16 + 2 * t, 2);
    g_emu.rows[t] = b[48 + t];
    if (g_emu.rows[t] > 16 || g_emu.colsb[t] > 64) g_emu_faults++;
  }
  g_emu_calls++;
}
static void emu_release(void) { g_emu.configured = 0; }
static void emu_zero(int t) {
  if (!g_emu.configured) g_emu_faults++;
  memset(g_emu.data[t], 0, sizeof g_emu.data[t]);
}
static void emu_loadd(int t, const void *base, long stride) {
  if (!g_emu.configured) g_emu_faults++;
  for (int r = 0; r < g_emu.rows[t]; r++)
    memcpy(g_emu.data[t][r], (const uint8_t *)base + (long)r * stride, g_emu.colsb[t]);
}
static void emu_stored(int t, void *base, long stride) {
  if (!g_emu.configured) g_emu_faults++;
  for (int r = 0; r < g_emu.rows[t]; r++)
    memcpy((uint8_t *)base + (long)r * stride, g_emu.data[t][r], g_emu.colsb[t]);
}
static float bf(const uint8_t *p) {
  uint16_t h;
  memcpy(&h, p, 2);
  return tfcc_bf16_to_f32(h);
}
/* C[m][n] += sum_k A[m][2k+1] B[k][2n+1] + A[m][2k] B[k][2n] (float32, SDM order). GCC 12.2's
 * -O3 loop vectorizer miscompiles this loop nest (see bf16-gemm-4x16-scalar.c): off for it. */
#if !defined(__clang__)
__attribute__((optimize("no-tree-loop-vectorize")))
#endif
static void
emu_dpbf16ps(int c, int a, int b) {
  if (!g_emu.configured || g_emu.colsb[a] / 4 != g_emu.rows[b] || g_emu.rows[c] != g_emu.rows[a] ||
      g_emu.colsb[c] != g_emu.colsb[b])
    g_emu_faults++;
  for (int m = 0; m < g_emu.rows[c]; m++)
    for (int n = 0; n < g_emu.colsb[c] / 4; n++) {
      float acc;
      memcpy(&acc, &g_emu.data[c][m][4 * n], 4);
      for (int k = 0; k < g_emu.colsb[a] / 4; k++) {
        acc += bf(&g_emu.data[a][m][4 * k + 2]) * bf(&g_emu.data[b][k][4 * n + 2]);
        acc += bf(&g_emu.data[a][m][4 * k]) * bf(&g_emu.data[b][k][4 * n]);
      }
      memcpy(&g_emu.data[c][m][4 * n], &acc, 4);
    }
}

#if defined(__clang__)
#pragma clang attribute push( \
    __attribute__((target("avx512f,avx512bw,avx512vl,avx512dq,avx512bf16"))), apply_to = function)
#else
#pragma GCC push_options
#pragma GCC target("avx512f,avx512bw,avx512vl,avx512dq,avx512bf16")
#endif
#include <immintrin.h>
#undef _tile_loadd
#undef _tile_stored
#undef _tile_zero
#undef _tile_dpbf16ps
#define _tile_loadconfig(cfg) emu_loadconfig(cfg)
#define _tile_release() emu_release()
#define _tile_zero(t) emu_zero(t)
#define _tile_loadd(t, base, stride) emu_loadd(t, base, stride)
#define _tile_stored(t, base, stride) emu_stored(t, base, stride)
#define _tile_dpbf16ps(c, a, b) emu_dpbf16ps(c, a, b)
/* The kernel as shipped; this definition replaces the library's in this test program. */
#include "../../src/kernels/bf16-gemm/bf16-gemm-16x32-amxbf16.c"
#if defined(__clang__)
#pragma clang attribute pop
#else
#pragma GCC pop_options
#endif
#endif

static uint32_t rng = 777u;
static float frand(void) {
  rng = rng * 1664525u + 1013904223u;
  return (float)((rng >> 8) & 0xFFFFFF) / 8388608.0f - 1.0f;
}
static float r16(float x) { return tfcc_bf16_to_f32(tfcc_bf16_from_f32(x)); }

#ifdef TFCC_AMX_EMULATED
static void test_gemm(const tfcc_bf16_gemm_kernel *k, int M, int N, int K, float lo, float hi) {
  float *a = malloc(sizeof(float) * (size_t)M * K + 4),
        *w = malloc(sizeof(float) * (size_t)N * K + 4);
  float *bias = malloc(sizeof(float) * (size_t)N + 4);
  const size_t cs = (size_t)N + 5;
  float *c = malloc(sizeof(float) * (size_t)M * cs + 4);
  for (size_t i = 0; i < (size_t)M * K; i++) a[i] = frand();
  for (size_t i = 0; i < (size_t)N * K; i++) w[i] = frand();
  for (int i = 0; i < N; i++) bias[i] = frand();
  for (size_t i = 0; i < (size_t)M * cs; i++) c[i] = 555.0f;
  tfcc_bf16_packed p;
  CHECK(tfcc_bf16_pack(k, N, K, w, (size_t)K, 1, bias, &p));
  CHECK(p.kpad % 32 == 0 && p.kpad >= K);
  const size_t sb = tfcc_bf16_gemm_scratch_bytes(&p, M, 1);
  void *scratch = aligned_alloc(64, sb);
  memset(scratch, 0x7F, sb); /* rows past M hold NaN-like garbage: must not leak into C */
  tfcc_bf16_gemm(NULL, &p, M, a, (size_t)K, c, cs, lo, hi, scratch);
  int bad = 0;
  for (int m = 0; m < M; m++) {
    for (int n = 0; n < N; n++) {
      double s = bias[n], mag = fabs(bias[n]);
      for (int kk = 0; kk < K; kk++) {
        s += (double)r16(a[m * K + kk]) * r16(w[n * K + kk]);
        mag += fabs((double)a[m * K + kk] * w[n * K + kk]);
      }
      s = s < lo ? lo : s > hi ? hi : s;
      const float got = c[(size_t)m * cs + (size_t)n];
      if (!(fabs(got - s) <= 1e-5 * mag + 1e-6) && bad++ < 3)
        fprintf(stderr, "emulated AMX M=%d N=%d K=%d: c[%d][%d] = %.8g, want %.8g\n", M, N, K, m, n,
                got, s);
    }
    for (size_t n = (size_t)N; n < cs; n++)
      if (c[(size_t)m * cs + n] != 555.0f && bad++ < 3) fprintf(stderr, "wrote past column N\n");
  }
  CHECKF(bad == 0, "emulated AMX M=%d N=%d K=%d: %d wrong", M, N, K, bad);
  free(scratch);
  tfcc_bf16_packed_free(&p);
  free(a);
  free(w);
  free(bias);
  free(c);
}

static void test_conv(const tfcc_bf16_gemm_kernel *k, int ih, int iw, int ic, int oc, int f,
                      int s) {
  tfcc_conv_geom g;
  memset(&g, 0, sizeof g);
  g.batches = 1;
  g.in_h = ih;
  g.in_w = iw;
  g.in_c = g.filter_in_c = ic;
  g.out_c = oc;
  g.filter_h = g.filter_w = f;
  g.stride_h = g.stride_w = s;
  g.dil_h = g.dil_w = 1;
  g.out_h = (ih + s - 1) / s;
  g.out_w = (iw + s - 1) / s;
  const int ph = ((g.out_h - 1) * s + f - ih) / 2, pw = ((g.out_w - 1) * s + f - iw) / 2;
  g.pad_h = ph > 0 ? ph : 0;
  g.pad_w = pw > 0 ? pw : 0;
  const size_t nin = (size_t)ih * iw * ic, nf = (size_t)oc * f * f * ic;
  const size_t nout = (size_t)g.out_h * g.out_w * oc;
  float *in = malloc(sizeof(float) * nin), *fl = malloc(sizeof(float) * nf);
  float *in16 = malloc(sizeof(float) * nin), *f16 = malloc(sizeof(float) * nf);
  float *b = malloc(sizeof(float) * (size_t)oc), *want = malloc(sizeof(float) * nout);
  float *got = malloc(sizeof(float) * nout);
  for (size_t i = 0; i < nin; i++) in16[i] = r16(in[i] = frand());
  for (size_t i = 0; i < nf; i++) f16[i] = r16(fl[i] = frand());
  for (int i = 0; i < oc; i++) b[i] = frand();
  tfcc_conv_f32(&g, in16, f16, b, 0.0f, 6.0f, want);
  const int K = f * f * ic;
  tfcc_bf16_packed p;
  CHECK(tfcc_bf16_pack(k, oc, K, fl, (size_t)K, 1, b, &p));
  const size_t sb = tfcc_bf16_conv_scratch_bytes(&g, &p, 1);
  void *scratch = aligned_alloc(64, sb);
  memset(scratch, 0x7F, sb);
  tfcc_bf16_conv(NULL, &g, &p, in, got, 0.0f, 6.0f, scratch);
  int bad = 0;
  for (size_t i = 0; i < nout; i++)
    if (!(fabs((double)got[i] - want[i]) <= 2e-5 * (K + 1) + 1e-5) && bad++ < 3)
      fprintf(stderr, "emulated AMX conv %dx%dx%d->%d f%d s%d: out[%zu] = %g, want %g\n", ih, iw,
              ic, oc, f, s, i, got[i], want[i]);
  CHECKF(bad == 0, "emulated AMX conv %dx%dx%d->%d f%d s%d: %d wrong", ih, iw, ic, oc, f, s, bad);
  free(scratch);
  tfcc_bf16_packed_free(&p);
  free(in);
  free(fl);
  free(in16);
  free(f16);
  free(b);
  free(want);
  free(got);
}
#endif

int main(void) {
#ifdef TFCC_AMX_EMULATED
  const tfcc_cpu_info *ci = tfcc_cpu();
  if (!tfcc_cpu_has(ci, TFCC_CPU_AVX512BF16) || ci->best_isa != TFCC_ISA_AVX512) {
    printf("SKIP: the emulated AMX kernel's epilogue needs AVX512-BF16\n");
    return TFCC_TEST_SKIP;
  }
  const tfcc_bf16_gemm_kernel *amx = NULL;
  for (int i = 0; i < tfcc_bf16_gemm_kernel_count(); i++)
    if (tfcc_bf16_gemm_kernel_at(i)->amx) amx = tfcc_bf16_gemm_kernel_at(i);
  CHECK(amx != NULL && amx->mr == 16 && amx->nr == 32 && amx->kalign == 32);
  if (amx) {
    static const int sizes[][3] = {{2, 5, 3},      {16, 32, 32}, {17, 33, 31},  {40, 100, 70},
                                   {61, 129, 131}, {5, 16, 64},  {33, 48, 100}, {16, 1, 1}};
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
      test_gemm(amx, sizes[s][0], sizes[s][1], sizes[s][2], -INFINITY, INFINITY);
      test_gemm(amx, sizes[s][0], sizes[s][1], sizes[s][2], 0.0f, 6.0f);
    }
    test_conv(amx, 9, 11, 5, 37, 3, 1);
    test_conv(amx, 12, 12, 16, 40, 3, 2);
    test_conv(amx, 7, 7, 33, 20, 1, 1);
    CHECK(g_emu_calls > 0);
    CHECKF(g_emu_faults == 0, "%d tile faults (unconfigured use, bad shapes)", g_emu_faults);
    printf("emulated AMX kernel: %d calls, %d tile faults\n", g_emu_calls, g_emu_faults);
  }
  return tfcc_test_finish("test_bf16_amx_emulated");
#else
  printf("SKIP: x86-64 GCC/clang only\n");
  return TFCC_TEST_SKIP;
#endif
}
