/* The AMX-INT8 q8 GEMM micro-kernel (q8-gemm-16x64-amxint8), checked on a machine without AMX.
 *
 * The kernel's own source is compiled here with the seven tile intrinsics it uses replaced by a
 * C model of them (Intel SDM semantics: 8 tiles of rows x colsb bytes from the palette-1
 * configuration, TILELOADD / TILESTORED of the configured rows, TDPBSSD / TDPBUUD adding the
 * four-byte dot products into wrapping int32 lanes), checking what the hardware would fault on
 * (use before LDTILECFG or after TILERELEASE, reserved configuration bytes, shapes that do not
 * chain: C rows != A rows, A colsb / 4 != B rows, C colsb != B colsb, aliased operands). The
 * kernel then runs through the real q8 packing (depth padded to 64) and driver (row pointers,
 * im2col, 1x1 in place, threads) and must give the reference conv / FC kernels' bytes exactly,
 * in both quantization modes (XNNPACK fp32 and TFLite fixed point), int8 and uint8, with
 * extreme zero points and scales, on depths around the 64-byte tile step, 1..33 rows, 1..130
 * columns, and rows that are not equally spaced (1x1 stride-2 convolution: the staging path).
 * What this cannot check is the hardware itself (encoding, OS permission, speed): see
 * docs/kernels.md, "AMX-INT8". Also checks that dispatch never picks the kernel where the CPU
 * or the OS does not allow it, at every ISA cap. Needs AVX512-VNNI for the kernel's epilogue
 * and row sums; skipped (77) without it. */
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cpu/cpu_info.h"
#include "kernels/q8-gemm/gemm.h"
#include "kernels/ref/conv.h"
#include "kernels/ref/fully_connected.h"
#include "base/threadpool.h"
#include "q8_conv_test_util.h"
#include "test_harness.h"

#if defined(__x86_64__) && defined(__GNUC__)
#define TFCC_AMX_EMULATED 1

/* ---- the C model of the tile unit (one per thread, like the hardware's) ---- */
typedef struct emu_tiles {
  int configured;
  uint8_t rows[8];
  uint16_t colsb[8];
  uint8_t data[8][16][64];
} emu_tiles;
static _Thread_local emu_tiles g_emu;
static atomic_int g_emu_configs, g_emu_dps, g_emu_faults;

static void fault(const char *what) {
  if (atomic_fetch_add(&g_emu_faults, 1) < 5) fprintf(stderr, "tile fault: %s\n", what);
}

static void emu_loadconfig(const void *cfg) {
  const uint8_t *b = cfg;
  if (b[0] != 1) fault("palette is not 1");
  if (b[1] != 0) fault("start_row is not 0");
  for (int i = 2; i < 16; i++)
    if (b[i]) fault("reserved configuration byte set");
  for (int t = 0; t < 16; t++) {
    uint16_t cb;
    memcpy(&cb, b + 16 + 2 * t, 2);
    const uint8_t r = b[48 + t];
    if (t >= 8) {
      if (cb || r) fault("tile 8..15 configured (palette 1 has 8)");
      continue;
    }
    if (r > 16 || cb > 64 || (!r) != (!cb)) fault("tile shape out of palette 1");
    g_emu.rows[t] = r;
    g_emu.colsb[t] = cb;
  }
  memset(g_emu.data, 0, sizeof g_emu.data); /* LDTILECFG zeroes the tiles */
  g_emu.configured = 1;
  atomic_fetch_add(&g_emu_configs, 1);
}
static void emu_release(void) {
  if (!g_emu.configured) fault("TILERELEASE without a configuration");
  g_emu.configured = 0;
}
static int usable(int t) {
  if (!g_emu.configured) {
    fault("tile instruction without LDTILECFG (or after TILERELEASE)");
    return 0;
  }
  if (t < 0 || t > 7 || !g_emu.rows[t]) {
    fault("tile not configured");
    return 0;
  }
  return 1;
}
static void emu_zero(int t) {
  if (usable(t)) memset(g_emu.data[t], 0, sizeof g_emu.data[t]);
}
/* Rows past the configured ones and bytes past colsb read as zero. */
static void emu_loadd(int t, const void *base, long stride) {
  if (!usable(t)) return;
  memset(g_emu.data[t], 0, sizeof g_emu.data[t]);
  for (int r = 0; r < g_emu.rows[t]; r++)
    memcpy(g_emu.data[t][r], (const uint8_t *)base + (long)r * stride, g_emu.colsb[t]);
}
static void emu_stored(int t, void *base, long stride) {
  if (!usable(t)) return;
  for (int r = 0; r < g_emu.rows[t]; r++)
    memcpy((uint8_t *)base + (long)r * stride, g_emu.data[t][r], g_emu.colsb[t]);
}
/* C[m][n] += sum over k < A.colsb / 4 and b < 4 of A[m][4k+b] * B[k][4n+b] (int32, wrapping). */
static void emu_dp(int c, int a, int b, int a_signed, int b_signed) {
  if (!usable(c) || !usable(a) || !usable(b)) return;
  if (c == a || c == b || a == b) fault("aliased tile operands");
  if (g_emu.colsb[c] % 4 || g_emu.colsb[a] % 4) fault("colsb not a multiple of 4");
  if (g_emu.rows[c] != g_emu.rows[a]) fault("C rows != A rows");
  if (g_emu.colsb[a] / 4 != g_emu.rows[b]) fault("A colsb / 4 != B rows");
  if (g_emu.colsb[c] != g_emu.colsb[b]) fault("C colsb != B colsb");
  atomic_fetch_add(&g_emu_dps, 1);
  for (int m = 0; m < g_emu.rows[c]; m++)
    for (int n = 0; n < g_emu.colsb[c] / 4; n++) {
      uint32_t acc;
      memcpy(&acc, &g_emu.data[c][m][4 * n], 4);
      for (int k = 0; k < g_emu.colsb[a] / 4; k++)
        for (int e = 0; e < 4; e++) {
          const uint8_t x = g_emu.data[a][m][4 * k + e], y = g_emu.data[b][k][4 * n + e];
          const int32_t xv = a_signed ? (int8_t)x : x, yv = b_signed ? (int8_t)y : y;
          acc += (uint32_t)(xv * yv);
        }
      memcpy(&g_emu.data[c][m][4 * n], &acc, 4);
    }
}

#if defined(__clang__)
#pragma clang attribute push( \
    __attribute__((target("avx512f,avx512bw,avx512vl,avx512dq,avx512vnni"))), apply_to = function)
#else
#pragma GCC push_options
#pragma GCC target("avx512f,avx512bw,avx512vl,avx512dq,avx512vnni")
#endif
#include <immintrin.h>
#undef _tile_loadd
#undef _tile_stored
#undef _tile_zero
#undef _tile_dpbssd
#undef _tile_dpbuud
#define _tile_loadconfig(cfg) emu_loadconfig(cfg)
#define _tile_release() emu_release()
#define _tile_zero(t) emu_zero(t)
#define _tile_loadd(t, base, stride) emu_loadd(t, base, stride)
#define _tile_stored(t, base, stride) emu_stored(t, base, stride)
#define _tile_dpbssd(c, a, b) emu_dp(c, a, b, 1, 1)
#define _tile_dpbuud(c, a, b) emu_dp(c, a, b, 0, 0)
/* The kernel as shipped; this definition replaces the library's in this test program. */
#include "../../src/kernels/q8-gemm/q8-gemm-16x64-amxint8.c"
#if defined(__clang__)
#pragma clang attribute pop
#else
#pragma GCC pop_options
#endif

/* The AMX layout: depth padded to 64 bytes, weights stored as they are (no row sums for
 * int8). */
static void check_amx_packed(const tfcc_q8_packed *p, int K, const tfcc_conv_requant *r) {
  CHECK(p->kpad % 64 == 0 && p->kpad >= K && p->kpad < K + 64);
  CHECK(p->kz == r->filter_offset);
}

/* One convolution through the AMX kernel (packing, driver, emulated tiles) against the
 * reference, and as a plain GEMM (FULLY_CONNECTED) when it is 1x1 stride 1 unpadded. Buffers
 * are allocated to the byte, so that ASan sees any read past a row. */
static void test_conv(const tfcc_q8_gemm_kernel *k, tfcc_threadpool *pool, const qcase *q,
                      int batches, int ih, int iw, int ic, int oc, int fh, int fw, int sh, int sw,
                      int dh, int dw, bool same, bool with_bias) {
  q8_check_conv("emulated AMX", k, pool, q, 0, check_amx_packed, batches, ih, iw, ic, oc, fh, fw,
                sh, sw, dh, dw, same, with_bias);
}
#endif

/* Dispatch: the AMX kernel only where the CPU and the OS allow it, never under an ISA cap
 * below avx512; its reason names the missing piece. */
static const tfcc_q8_gemm_kernel *check_dispatch(void) {
  const tfcc_cpu_info *ci = tfcc_cpu();
  const tfcc_q8_gemm_kernel *amx = NULL;
  for (int i = 0; i < tfcc_q8_gemm_kernel_count(); i++)
    if (tfcc_q8_gemm_is_amx(tfcc_q8_gemm_kernel_at(i))) amx = tfcc_q8_gemm_kernel_at(i);
#if defined(__x86_64__)
  CHECK(amx != NULL);
#endif
  if (!amx) return NULL;
  CHECK(strcmp(amx->name, "q8-gemm-16x64-amxint8") == 0 && amx->mr == 16 && amx->nr == 64);
  CHECK(amx->w_xor == 0 && amx->fixed_epilogue && tfcc_q8_gemm_k_block(amx) == 64);
  const bool allowed = ci->amx_permitted && tfcc_cpu_has(ci, TFCC_CPU_AMXTILE) &&
                       tfcc_cpu_has(ci, TFCC_CPU_AMXINT8) && tfcc_cpu_has(ci, TFCC_CPU_AVX512VNNI);
  for (int isa = 0; isa < TFCC_ISA_COUNT_; isa++) {
    const tfcc_isa level = tfcc_cpu_dispatch_isa((tfcc_isa)isa);
    const bool want = allowed && level == TFCC_ISA_AVX512;
    CHECKF(tfcc_q8_gemm_usable(amx, level) == want, "AMX usable at %s", tfcc_isa_name(level));
    CHECKF((tfcc_q8_gemm_select(level) == amx) == want, "AMX selected at %s", tfcc_isa_name(level));
    const char *why = tfcc_q8_gemm_unavailable(amx, level);
    CHECKF((why == NULL) == want, "reason at %s: %s", tfcc_isa_name(level), why ? why : "(none)");
    if (why && level != TFCC_ISA_AVX512) CHECK(strstr(why, "avx512") != NULL);
  }
  const char *why = tfcc_q8_gemm_unavailable(amx, tfcc_cpu_dispatch_isa(TFCC_ISA_COUNT_));
  printf("%s: %s\n", amx->name,
         why ? why
             : "available: runs on this machine's AMX tiles (the real kernel; "
               "tests/ops/test_q8_gemm.c checks it too)");
  /* without AMX tiles: the first thing missing is named, the dispatch level below avx512 on a
     CPU without AVX-512, else AMX */
  if (!tfcc_cpu_has(ci, TFCC_CPU_AMXTILE))
    CHECK(why != NULL &&
          strstr(why, tfcc_cpu_dispatch_isa(TFCC_ISA_COUNT_) < TFCC_ISA_AVX512 ? "avx512" : "AMX"));
  return amx;
}

int main(void) {
  const tfcc_q8_gemm_kernel *amx = check_dispatch();
#ifdef TFCC_AMX_EMULATED
  const tfcc_cpu_info *ci = tfcc_cpu();
  if (!amx || !tfcc_cpu_has(ci, TFCC_CPU_AVX512VNNI) || ci->best_isa != TFCC_ISA_AVX512) {
    printf("SKIP: the emulated AMX kernel's epilogue and row sums need AVX512-VNNI\n");
    tfcc_test_finish("test_q8_amx_emulated");
    return tfcc_test_failures ? 1 : TFCC_TEST_SKIP;
  }
  tfcc_threadpool *pool2 = NULL;
  tfcc_err err = {0};
  CHECK(tfcc_threadpool_create(2, NULL, 0, &pool2, &err) == TFCC_OK);
  const qcase cases[] = {
      /* signed, fp32, in_zp, w_zp, out_zp, scales, act range */
      {true, true, 0, 0, 0, 1e-4f, 2e-2f, -128, 127},
      {true, true, -128, 0, 127, 1e-3f, 5e-2f, -128, 127},
      {true, true, 127, 0, -128, 1e-5f, 1e-3f, -128, 127},
      {true, true, -7, 0, 10, 1e-3f, 3e-3f, 10, 70},
      {true, false, 3, 0, -5, 1e-4f, 2e-2f, -128, 127},
      {true, false, -128, 0, 127, 1e-3f, 5e-1f, -128, 127},
      {true, false, 127, 0, 0, 1e-6f, 1e-5f, -1, 1},
      {false, true, 128, 128, 128, 1e-4f, 1e-4f, 0, 255},
      {false, true, 0, 255, 255, 2e-3f, 2e-3f, 0, 255},
      {false, true, 255, 0, 0, 3e-5f, 3e-5f, 0, 255},
      {false, false, 128, 128, 128, 1e-4f, 1e-4f, 0, 255},
      {false, false, 0, 255, 255, 2e-3f, 2e-3f, 0, 255},
      {false, false, 255, 0, 0, 7e-2f, 7e-2f, 0, 255},
      {false, false, 100, 37, 60, 4e-4f, 4e-4f, 60, 255},
      /* scales above 1: left shifts in fixed point, float products beyond the int32 range */
      {true, false, -3, 0, 4, 1.5f, 6.0f, -128, 127},
      {true, true, 9, 0, -9, 1e3f, 1e5f, -128, 127},
      {false, false, 77, 200, 19, 3.0f, 3.0f, 0, 255},
      {false, true, 200, 3, 250, 2e4f, 2e4f, 10, 255},
  };
  for (size_t ci2 = 0; ci2 < sizeof cases / sizeof cases[0]; ci2++) {
    const qcase *q = &cases[ci2];
    tfcc_threadpool *pl = ci2 % 2 ? pool2 : NULL;
    /* 1x1, rows in place: depth below, at, around and over the 64-byte tile step */
    test_conv(amx, pl, q, 1, 4, 4, 64, 64, 1, 1, 1, 1, 1, 1, false, true); /* one full tile */
    test_conv(amx, pl, q, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, false, true);   /* 1 x 1 x 1 */
    test_conv(amx, pl, q, 1, 3, 5, 63, 65, 1, 1, 1, 1, 1, 1, false, ci2 % 3 == 0);
    test_conv(amx, pl, q, 2, 3, 3, 65, 63, 1, 1, 1, 1, 1, 1, false, true);   /* 18 rows */
    test_conv(amx, pl, q, 1, 5, 7, 129, 130, 1, 1, 1, 1, 1, 1, false, true); /* 35 rows */
    test_conv(amx, pl, q, 1, 1, 17, 128, 33, 1, 1, 1, 1, 1, 1, false, true);
    test_conv(amx, pl, q, 1, 2, 8, 3, 5, 1, 1, 1, 1, 1, 1, false, true); /* 16 rows, K 3 */
    /* rows not equally spaced (stride 2, tiles across image rows): staged */
    test_conv(amx, pl, q, 1, 9, 6, 64, 70, 1, 1, 2, 2, 1, 1, false, true);
    test_conv(amx, pl, q, 2, 7, 9, 100, 17, 1, 1, 2, 3, 1, 1, false, true);
    /* im2col: KxK, padding, strides, dilation, batches */
    test_conv(amx, pl, q, 1, 8, 8, 3, 16, 3, 3, 2, 2, 1, 1, true, true); /* K 27 */
    test_conv(amx, pl, q, 1, 11, 13, 5, 37, 3, 3, 1, 1, 1, 1, true, false);
    test_conv(amx, pl, q, 2, 10, 9, 4, 7, 3, 3, 1, 2, 2, 1, false, true);
    test_conv(amx, pl, q, 1, 6, 6, 16, 64, 2, 2, 1, 1, 1, 1, true, true); /* K 64 */
    test_conv(amx, pl, q, 1, 7, 7, 15, 20, 3, 3, 1, 1, 1, 1, true, true); /* K 135 */
    test_conv(amx, pl, q, 1, 3, 3, 8, 40, 3, 3, 1, 1, 1, 1, true, true);  /* 9 rows */
    /* several N blocks of the driver (weights over its cache block) */
    if (ci2 % 6 == 0) test_conv(amx, pl, q, 1, 1, 3, 1101, 1000, 1, 1, 1, 1, 1, 1, false, true);
  }
  CHECK(atomic_load(&g_emu_configs) > 0 && atomic_load(&g_emu_dps) > 0);
  CHECKF(atomic_load(&g_emu_faults) == 0, "%d tile faults", atomic_load(&g_emu_faults));
  printf("emulated AMX-INT8 kernel: %d tile programs, %d tile dot products, %d faults\n",
         atomic_load(&g_emu_configs), atomic_load(&g_emu_dps), atomic_load(&g_emu_faults));
  tfcc_threadpool_destroy(pool2);
  return tfcc_test_finish("test_q8_amx_emulated");
#else
  (void)amx;
  printf("SKIP: the tile emulation needs x86-64 GCC/clang\n");
  tfcc_test_finish("test_q8_amx_emulated");
  return tfcc_test_failures ? 1 : TFCC_TEST_SKIP;
#endif
}
