/* Float32 vector primitives, WebAssembly SIMD128 (f32v.h lists them). Maximum and minimum are
 * f32x4.pmax / pmin with the operands swapped: pmax(y, x) = y < x ? x : y, which is
 * x > y ? x : y, the reference's conditional (NaN in x gives y). Partial loads and stores go
 * through a lane buffer. No fused multiply-add in plain SIMD128: f32v_fma rounds twice. */
#ifndef TFCC_KERNELS_SIMD_F32V_WASMSIMD_H
#define TFCC_KERNELS_SIMD_F32V_WASMSIMD_H

#include <stddef.h>
#include <wasm_simd128.h>

#include "kernels/simd/f32v.h"

typedef v128_t f32v;
typedef v128_t f32m;
#define F32V_N 4

static inline f32v f32v_ld(const float *p) { return wasm_v128_load(p); }
static inline void f32v_st(float *p, f32v v) { wasm_v128_store(p, v); }
static inline f32v f32v_ld_n(const float *p, size_t n) {
  float buf[4] = {0.f, 0.f, 0.f, 0.f};
  for (size_t k = 0; k < n; k++) buf[k] = p[k];
  return wasm_v128_load(buf);
}
static inline void f32v_st_n(float *p, f32v v, size_t n) {
  float buf[4];
  wasm_v128_store(buf, v);
  for (size_t k = 0; k < n; k++) p[k] = buf[k];
}
static inline f32v f32v_set(float x) { return wasm_f32x4_splat(x); }
static inline f32v f32v_zero(void) { return wasm_f32x4_splat(0.f); }
static inline f32v f32v_add(f32v a, f32v b) { return wasm_f32x4_add(a, b); }
static inline f32v f32v_sub(f32v a, f32v b) { return wasm_f32x4_sub(a, b); }
static inline f32v f32v_mul(f32v a, f32v b) { return wasm_f32x4_mul(a, b); }
static inline f32v f32v_div(f32v a, f32v b) { return wasm_f32x4_div(a, b); }
static inline f32v f32v_fma(f32v a, f32v b, f32v c) {
  return wasm_f32x4_add(wasm_f32x4_mul(a, b), c);
}
/* a * b + c for the kernels that the package's relaxed-SIMD binary builds with
 * TFCC_WASM_RELAXED_MADD (CMakeLists.txt, TFCC_WASM_RELAXED; js/lib/index.mjs loads that binary
 * where relaxed SIMD validates): one f32x4.relaxed_madd, which x86-64 and arm64 engines run as
 * an FMA (one rounding: the sums differ from f32v_fma's in the last bits, within the float
 * tests' tolerances). Elsewhere f32v_fma. Emscripten 3.1.6's clang 14 encodes its fma builtin
 * with the proposal's early opcode (0xfd 0xaf 0x01), which engines reject; scripts/wasm-relaxed.mjs
 * rewrites it to relaxed_madd's (0xfd 0x85 0x02, the same operands) after the link. */
static inline f32v f32v_madd(f32v a, f32v b, f32v c) {
#ifdef TFCC_WASM_RELAXED_MADD
  return (v128_t)__builtin_wasm_fma_f32x4((__f32x4)a, (__f32x4)b, (__f32x4)c);
#else
  return f32v_fma(a, b, c);
#endif
}
static inline f32v f32v_fnma(f32v a, f32v b, f32v c) {
  return wasm_f32x4_sub(c, wasm_f32x4_mul(a, b));
}
static inline f32v f32v_max(f32v x, f32v y) { return wasm_f32x4_pmax(y, x); }
static inline f32v f32v_min(f32v x, f32v y) { return wasm_f32x4_pmin(y, x); }
static inline f32m f32v_gt(f32v x, f32v y) { return wasm_f32x4_gt(x, y); }
static inline f32m f32v_ge(f32v x, f32v y) { return wasm_f32x4_ge(x, y); }
static inline f32m f32v_lt(f32v x, f32v y) { return wasm_f32x4_lt(x, y); }
static inline f32v f32v_sel(f32m m, f32v a, f32v b) { return wasm_v128_bitselect(a, b, m); }
static inline f32v f32v_abs(f32v x) { return wasm_f32x4_abs(x); }
static inline f32v f32v_neg_abs(f32v x) { return wasm_f32x4_neg(wasm_f32x4_abs(x)); }
static inline f32v f32v_copysign(f32v t, f32v x) {
  return wasm_v128_or(t, wasm_v128_and(x, wasm_i32x4_splat((int32_t)0x80000000u)));
}
static inline f32v f32v_round(f32v x) { return wasm_f32x4_nearest(x); }
static inline f32v f32v_exp2i(f32v n) {
  return wasm_i32x4_shl(wasm_i32x4_add(wasm_i32x4_trunc_sat_f32x4(n), wasm_i32x4_splat(127)), 23);
}
static inline float f32v_hsum(f32v v) {
  return (wasm_f32x4_extract_lane(v, 0) + wasm_f32x4_extract_lane(v, 2)) +
         (wasm_f32x4_extract_lane(v, 1) + wasm_f32x4_extract_lane(v, 3));
}
static inline float f32v_hmax(f32v v) {
  float m = wasm_f32x4_extract_lane(v, 0);
  const float l1 = wasm_f32x4_extract_lane(v, 1), l2 = wasm_f32x4_extract_lane(v, 2),
              l3 = wasm_f32x4_extract_lane(v, 3);
  m = l1 > m ? l1 : m;
  m = l2 > m ? l2 : m;
  return l3 > m ? l3 : m;
}

#endif
