/* q16-dot GEMV primitives (gemv_body.h lists them), WebAssembly SIMD128: i32x4.dot_i16x8_s on
 * 8 int16. */
#ifndef TFCC_KERNELS_Q16_DOT_Q16D_WASMSIMD_H
#define TFCC_KERNELS_Q16_DOT_Q16D_WASMSIMD_H

#include <stdint.h>
#include <wasm_simd128.h>

typedef v128_t q16dv;
typedef v128_t q16dx;
#define Q16D_N 8

static inline q16dv q16d_zero(void) { return wasm_i32x4_splat(0); }
static inline q16dx q16d_ldx(const int16_t *p) { return wasm_v128_load(p); }
static inline q16dx q16d_ldw(const int8_t *p) { return wasm_i16x8_load8x8(p); }
static inline q16dv q16d_madd(q16dv acc, q16dx x, q16dx w) {
  return wasm_i32x4_add(acc, wasm_i32x4_dot_i16x8(x, w));
}
static inline int64_t q16d_sum(q16dv v) {
  const v128_t s = wasm_i64x2_add(wasm_i64x2_extend_low_i32x4(v), wasm_i64x2_extend_high_i32x4(v));
  return wasm_i64x2_extract_lane(s, 0) + wasm_i64x2_extract_lane(s, 1);
}

#endif
