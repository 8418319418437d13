/* q8 depthwise micro-kernel, WebAssembly SIMD128: 8 channels per step; each tap widens 8 input
 * bytes to int16 and multiplies them with the int16 weights into int32 (i32x4.extmul, an exact
 * product). The channel tail goes through a zero-padded copy. Requantization as
 * tfcc_requant_fp32 (f32x4.nearest rounds half to even). The layout and arithmetic are those of
 * the NEON kernel (q8-dwconv-neon.c) in SIMD128 operations. */
#include <string.h>
#include <wasm_simd128.h>

#include "kernels/q8-dwconv/ukernels.h"

static inline v128_t widen(const uint8_t *p, size_t n, bool is_signed) {
  if (n >= 8) return is_signed ? wasm_i16x8_load8x8(p) : wasm_u16x8_load8x8(p);
  uint8_t tmp[8] = {0};
  memcpy(tmp, p, n);
  return is_signed ? wasm_i16x8_load8x8(tmp) : wasm_u16x8_load8x8(tmp);
}

static inline void pixel(size_t c, size_t ntaps, const uint8_t *const *taps, const int32_t *pw,
                         const tfcc_q8_out *o, bool is_signed) {
  const size_t c16 = (c + 15) & ~(size_t)15;
  const float *scale = (const float *)(const void *)(pw + c16);
  const int32_t *w = pw + 2 * c16;
  const v128_t lo = wasm_f32x4_splat(o->lo), hi = wasm_f32x4_splat(o->hi);
  const v128_t zp = wasm_i32x4_splat(o->zp);
  for (size_t ch = 0; ch < c; ch += 8) {
    const size_t n = c - ch;
    v128_t a0 = wasm_v128_load(pw + ch), a1 = wasm_v128_load(pw + ch + 4);
    for (size_t t = 0; t < ntaps; t++) {
      const v128_t x = widen(taps[t] + ch, n, is_signed);
      const int32_t *wt = w + t * c16 + ch;
      /* w' is the low 16 bits of each int32 (high bits zero): keep them, no saturation */
      const v128_t w16 = wasm_i8x16_shuffle(wasm_v128_load(wt), wasm_v128_load(wt + 4), 0, 1, 4, 5, 8, 9,
                                            12, 13, 16, 17, 20, 21, 24, 25, 28, 29);
      a0 = wasm_i32x4_add(a0, wasm_i32x4_extmul_low_i16x8(x, w16));
      a1 = wasm_i32x4_add(a1, wasm_i32x4_extmul_high_i16x8(x, w16));
    }
    if (o->c32) {
      wasm_v128_store(o->c32 + ch, a0);
      wasm_v128_store(o->c32 + ch + 4, a1);
      continue;
    }
    v128_t f0 = wasm_f32x4_mul(wasm_f32x4_convert_i32x4(a0), wasm_v128_load(scale + ch));
    v128_t f1 = wasm_f32x4_mul(wasm_f32x4_convert_i32x4(a1), wasm_v128_load(scale + ch + 4));
    f0 = wasm_f32x4_pmin(wasm_f32x4_pmax(f0, lo), hi);
    f1 = wasm_f32x4_pmin(wasm_f32x4_pmax(f1, lo), hi);
    const v128_t q0 = wasm_i32x4_add(wasm_i32x4_trunc_sat_f32x4(wasm_f32x4_nearest(f0)), zp);
    const v128_t q1 = wasm_i32x4_add(wasm_i32x4_trunc_sat_f32x4(wasm_f32x4_nearest(f1)), zp);
    const v128_t b = wasm_i8x16_shuffle(q0, q1, 0, 4, 8, 12, 16, 20, 24, 28, 0, 4, 8, 12, 16, 20, 24, 28);
    if (n >= 8) {
      wasm_v128_store64_lane(o->c + ch, b, 0);
      continue;
    }
    uint8_t tmp[16];
    wasm_v128_store(tmp, b);
    memcpy(o->c + ch, tmp, n);
  }
}

TFCC_Q8_DW_DECL(tfcc_q8_dw_s_wasmsimd) { pixel(c, ntaps, taps, pw, o, true); }
TFCC_Q8_DW_DECL(tfcc_q8_dw_u_wasmsimd) { pixel(c, ntaps, taps, pw, o, false); }
