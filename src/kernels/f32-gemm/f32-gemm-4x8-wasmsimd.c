/* f32 GEMM micro-kernels, WebAssembly SIMD128: 4 rows x 8 columns (8 v128 accumulators, two
 * weight vectors and the broadcast: V8 on x86-64 keeps them in the xmm registers it allocates,
 * where 6 rows spilled) and 1 x 8. Separate multiply and add (plain SIMD128 has no FMA).
 * Accumulators start from the bias, or from C (bias == NULL: a later K block); the clamp lets
 * NaN through, as the portable kernel does. Built only with -msimd128 (CMake keeps *-wasmsimd.c to wasm). */
#include <stdint.h>
#include <string.h>
#include <wasm_simd128.h>

#include "kernels/f32-gemm/ukernels.h"

static inline v128_t clamp(v128_t v, v128_t lo, v128_t hi) {
  return wasm_f32x4_pmin(wasm_f32x4_pmax(v, lo), hi); /* v < lo ? lo : v, then hi < v ? hi : v */
}

static inline void store_row(float *c, size_t nc, v128_t v0, v128_t v1, v128_t lo, v128_t hi) {
  v0 = clamp(v0, lo, hi);
  v1 = clamp(v1, lo, hi);
  if (nc >= 8) {
    wasm_v128_store(c, v0);
    wasm_v128_store(c + 4, v1);
    return;
  }
  float t[8];
  wasm_v128_store(t, v0);
  wasm_v128_store(t + 4, v1);
  memcpy(c, t, nc * sizeof(float));
}

/* Row r: its accumulators c<r>0, c<r>1 (named variables, not an array: an array indexed by the
 * run-time row count is kept in linear memory, not in registers) and its A pointer. */
#define ROW_INIT(r) \
  v128_t c##r##0, c##r##1; \
  const float *a##r = a[r] + a_off; \
  { \
    float t[8]; \
    const float *p = tfcc_f32_gemm_row_init(t, 8, bias, (r) < mr ? c + (r)*c_stride : NULL, nc); \
    c##r##0 = wasm_v128_load(p); \
    c##r##1 = wasm_v128_load(p + 4); \
  }
#define ROW_STEP(r) \
  { \
    const v128_t v = wasm_v128_load32_splat(a##r + k); \
    c##r##0 = wasm_f32x4_add(c##r##0, wasm_f32x4_mul(v, b0)); \
    c##r##1 = wasm_f32x4_add(c##r##1, wasm_f32x4_mul(v, b1)); \
  }
#define ROW_STORE(r) \
  if ((r) < mr) store_row(c + (r)*c_stride, nc, c##r##0, c##r##1, vlo, vhi)

TFCC_F32_GEMM_DECL(tfcc_f32_gemm_4x8_wasmsimd) {
  (void)pf;
  (void)pf_lines;
  ROW_INIT(0)
  ROW_INIT(1)
  ROW_INIT(2)
  ROW_INIT(3)
  for (size_t k = 0; k < kc; k++) {
    const v128_t b0 = wasm_v128_load(w), b1 = wasm_v128_load(w + 4);
    w += 8;
    ROW_STEP(0)
    ROW_STEP(1)
    ROW_STEP(2)
    ROW_STEP(3)
  }
  const v128_t vlo = wasm_f32x4_splat(lo), vhi = wasm_f32x4_splat(hi);
  ROW_STORE(0);
  ROW_STORE(1);
  ROW_STORE(2);
  ROW_STORE(3);
}

TFCC_F32_GEMM_DECL(tfcc_f32_gemm_1x8_wasmsimd) {
  (void)pf;
  (void)pf_lines;
  (void)mr;
  (void)c_stride;
  float t[8];
  const float *r = tfcc_f32_gemm_row_init(t, 8, bias, c, nc);
  v128_t c0 = wasm_v128_load(r), c1 = wasm_v128_load(r + 4);
  const float *a0 = a[0] + a_off;
  for (size_t k = 0; k < kc; k++) {
    const v128_t v = wasm_v128_load32_splat(a0 + k);
    c0 = wasm_f32x4_add(c0, wasm_f32x4_mul(v, wasm_v128_load(w)));
    c1 = wasm_f32x4_add(c1, wasm_f32x4_mul(v, wasm_v128_load(w + 4)));
    w += 8;
  }
  store_row(c, nc, c0, c1, wasm_f32x4_splat(lo), wasm_f32x4_splat(hi));
}
