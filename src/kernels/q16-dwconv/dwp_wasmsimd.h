/* q16-dwconv tap-pair primitives (dwpair_body.h lists them), WebAssembly SIMD128: two taps'
 * inputs interleaved (i8x16.shuffle) and i32x4.dot_i16x8_s against the packed int16 weight
 * pairs, 8 channels a block in two int32 vectors (channels 0-3, 4-7: the x86 layout of one
 * 128-bit lane). */
#ifndef TFCC_KERNELS_Q16_DWCONV_DWP_WASMSIMD_H
#define TFCC_KERNELS_Q16_DWCONV_DWP_WASMSIMD_H

#include "kernels/q16-dwconv/dwconv.h"
#include <wasm_simd128.h>

#include "kernels/q16-dwconv/dwp_x86_pack.h"

#define DWP_B TFCC_Q16_DWP_B_wasmsimd
typedef struct dwp_acc {
  v128_t lo, hi;
} dwp_acc;

static inline dwp_acc dwp_zero(void) {
  const dwp_acc a = {wasm_i32x4_splat(0), wasm_i32x4_splat(0)};
  return a;
}
static inline dwp_acc dwp_step(dwp_acc a, const int16_t *xa, const int16_t *xb, const int16_t *w) {
  const v128_t va = wasm_v128_load(xa), vb = wasm_v128_load(xb);
  const v128_t lo = wasm_i16x8_shuffle(va, vb, 0, 8, 1, 9, 2, 10, 3, 11);
  const v128_t hi = wasm_i16x8_shuffle(va, vb, 4, 12, 5, 13, 6, 14, 7, 15);
  a.lo = wasm_i32x4_add(a.lo, wasm_i32x4_dot_i16x8(lo, wasm_v128_load(w)));
  a.hi = wasm_i32x4_add(a.hi, wasm_i32x4_dot_i16x8(hi, wasm_v128_load(w + 8)));
  return a;
}
static inline void dwp_store64(int64_t *acc, dwp_acc a) {
  wasm_v128_store(acc, wasm_i64x2_extend_low_i32x4(a.lo));
  wasm_v128_store(acc + 2, wasm_i64x2_extend_high_i32x4(a.lo));
  wasm_v128_store(acc + 4, wasm_i64x2_extend_low_i32x4(a.hi));
  wasm_v128_store(acc + 6, wasm_i64x2_extend_high_i32x4(a.hi));
}
static inline void dwp_pack(const int8_t *wa, const int8_t *wb, int16_t *dst) {
  dwp_pack_lanes(DWP_B, wa, wb, dst);
}

/* lo: channels 0-3, hi: 4-7 (SIMD128 has no 64-bit lane shift by lane: per lane) */
static inline void dwp_rq_store(int16_t *out, dwp_acc a, const tfcc_q16_dw_rq *r, size_t j0,
                                size_t n) {
  int32_t s[DWP_B];
  wasm_v128_store(s, a.lo);
  wasm_v128_store(s + 4, a.hi);
  for (size_t c = 0; c < n; c++) out[c] = tfcc_q16_dw_rq_lane(s[c], r, j0 + c);
}

#endif
