/* Int32 vector primitives, WebAssembly SIMD128: the int32 arithmetic subset of i32v.h (it lists
 * them). SIMD128 shifts take their count modulo 32, so a count past 31 is handled here: 0 for
 * the left shift, 31 (the sign in every bit) for the arithmetic right shift, as on x86. */
#ifndef TFCC_KERNELS_SIMD_I32V_WASMSIMD_H
#define TFCC_KERNELS_SIMD_I32V_WASMSIMD_H

#include <stdint.h>
#include <wasm_simd128.h>

#include "kernels/simd/i32v.h"

typedef v128_t i32v;
typedef uint32_t i32v_shc;
#define I32V_N 4

static inline i32v i32v_set(int32_t x) { return wasm_i32x4_splat(x); }
static inline i32v i32v_add(i32v a, i32v b) { return wasm_i32x4_add(a, b); }
static inline i32v i32v_sub(i32v a, i32v b) { return wasm_i32x4_sub(a, b); }
static inline i32v i32v_mullo(i32v a, i32v b) { return wasm_i32x4_mul(a, b); }
static inline i32v i32v_min(i32v a, i32v b) { return wasm_i32x4_min(a, b); }
static inline i32v i32v_max(i32v a, i32v b) { return wasm_i32x4_max(a, b); }
static inline i32v i32v_and(i32v a, i32v b) { return wasm_v128_and(a, b); }
#define i32v_slli(x, k) wasm_i32x4_shl((x), (k))
#define i32v_srai(x, k) wasm_i32x4_shr((x), (k))
static inline i32v_shc i32v_shc_make(int k) { return (uint32_t)k; }
static inline i32v i32v_sll(i32v x, i32v_shc c) {
  return c > 31 ? wasm_i32x4_splat(0) : wasm_i32x4_shl(x, c);
}
static inline i32v i32v_sra(i32v x, i32v_shc c) { return wasm_i32x4_shr(x, c > 31 ? 31 : c); }
static inline i32v i32v_inc_gt(i32v q, i32v a, i32v b) {
  return wasm_i32x4_sub(q, wasm_i32x4_gt(a, b)); /* the comparison's true is -1 */
}
/* (x * m + 2^30) >> 31 per lane from the two 64-bit products of each half */
static inline i32v i32v_srdhm(i32v x, i32v m) {
  const v128_t half = wasm_i64x2_splat((int64_t)1 << 30);
  const v128_t lo = wasm_i64x2_shr(wasm_i64x2_add(wasm_i64x2_extmul_low_i32x4(x, m), half), 31);
  const v128_t hi = wasm_i64x2_shr(wasm_i64x2_add(wasm_i64x2_extmul_high_i32x4(x, m), half), 31);
  return wasm_i32x4_shuffle(lo, hi, 0, 2, 4, 6);
}
static inline i32v i32v_ld(const void *p) { return wasm_v128_load(p); }
static inline void i32v_st(int32_t *p, i32v x) { wasm_v128_store(p, x); }

#endif
