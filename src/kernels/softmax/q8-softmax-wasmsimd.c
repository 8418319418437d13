/* 8-bit softmax rows, WebAssembly SIMD128 build of the shared body (q8_softmax_body.h): 4 rows /
 * elements a step, the table entries loaded lane by lane (no gather). */
#include <stdbool.h>
#include <string.h>
#include <wasm_simd128.h>

#include "kernels/simd/f32v_wasmsimd.h"

typedef v128_t q8b;
static inline q8b q8b_ld(const uint8_t *p) { return wasm_v128_load(p); }
static inline q8b q8b_set(int x) { return wasm_i8x16_splat((int8_t)x); }
static inline q8b q8b_xor(q8b a, q8b b) { return wasm_v128_xor(a, b); }
static inline q8b q8b_max(q8b a, q8b b) { return wasm_u8x16_max(a, b); }
static inline q8b q8b_min(q8b a, q8b b) { return wasm_u8x16_min(a, b); }
static inline int q8b_hmax(q8b v) {
  v = wasm_u8x16_max(v, wasm_i64x2_shuffle(v, v, 1, 0));
  v = wasm_u8x16_max(v, wasm_i32x4_shuffle(v, v, 1, 0, 3, 2));
  v = wasm_u8x16_max(v, wasm_i16x8_shuffle(v, v, 1, 0, 3, 2, 5, 4, 7, 6));
  v = wasm_u8x16_max(v, wasm_u16x8_shr(v, 8));
  return wasm_u8x16_extract_lane(v, 0);
}
static inline void q8sm_st8(uint8_t *p, f32v v, bool u8) {
  const v128_t h = wasm_i16x8_narrow_i32x4(wasm_i32x4_trunc_sat_f32x4(v), wasm_i32x4_splat(0));
  const v128_t b = u8 ? wasm_u8x16_narrow_i16x8(h, h) : wasm_i8x16_narrow_i16x8(h, h);
  const uint32_t w = (uint32_t)wasm_i32x4_extract_lane(b, 0);
  memcpy(p, &w, 4);
}

#define TFCC_Q8_SOFTMAX_FN tfcc_q8_softmax_wasmsimd
#include "kernels/softmax/q8_softmax_body.h"
