/* q16-gemm vector primitives (gemm_body.h lists them), WebAssembly SIMD128: i32x4.dot_i16x8_s
 * on 4 lanes. */
#ifndef TFCC_KERNELS_Q16_GEMM_Q16V_WASMSIMD_H
#define TFCC_KERNELS_Q16_GEMM_Q16V_WASMSIMD_H

#include <stdint.h>
#include <string.h>
#include <wasm_simd128.h>

typedef v128_t q16v;
typedef v128_t q16x;
typedef v128_t q16w;
#define Q16V_N 4

static inline q16v q16v_zero(void) { return wasm_i32x4_splat(0); }
static inline q16w q16v_ldw(const int16_t *p) { return wasm_v128_load(p); }
static inline q16x q16x_pair(const int16_t *p) {
  int32_t v;
  memcpy(&v, p, sizeof v);
  return wasm_i32x4_splat(v);
}
static inline q16x q16x_one(const int16_t *p) { return wasm_i32x4_splat((int32_t)(uint16_t)*p); }
static inline q16v q16v_madd(q16v acc, q16x x, q16w w) {
  return wasm_i32x4_add(acc, wasm_i32x4_dot_i16x8(x, w));
}
static inline void q16v_st(int32_t *p, q16v v) { wasm_v128_store(p, v); }
static inline q16v q16v_ld32(const int32_t *p) { return wasm_v128_load(p); }
/* every lane within int16 (the clamp range is): the saturating narrowing is exact */
static inline void q16v_st16(int16_t *p, q16v v, int n) {
  int16_t t[8];
  wasm_v128_store(t, wasm_i16x8_narrow_i32x4(v, v));
  memcpy(p, t, (size_t)n * sizeof(int16_t));
}
/* the requantization lane by lane (SIMD128 has no per-lane 64-bit shift) */
#define Q16V_RQ_LANES 1

#endif
