/* q8 depthwise micro-kernel, WebAssembly SIMD128: 8 channels per step; each tap widens 8 input
 * bytes to int32 and multiplies them with the packed int32 weights (w' in the low 16 bits) in
 * i32x4.dot_i16x8, an exact product. The channel tail goes through a zero-padded copy.
 * Requantization as tfcc_requant_fp32 (f32x4.nearest rounds half to even). The layout is that of
 * the NEON kernel (q8-dwconv-neon.c). */
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
      /* Each weight int32 is (w', 0) as two int16 (w' in its low 16 bits, high bits zero), and
         each input widened to int32 is (x, sign) as two int16: their i32x4.dot_i16x8 is
         x * w' + sign * 0, the exact product, with no shuffle of the weights. */
      a0 = wasm_i32x4_add(a0,
                          wasm_i32x4_dot_i16x8(wasm_i32x4_extend_low_i16x8(x), wasm_v128_load(wt)));
      a1 = wasm_i32x4_add(
          a1, wasm_i32x4_dot_i16x8(wasm_i32x4_extend_high_i16x8(x), wasm_v128_load(wt + 4)));
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
    const v128_t b =
        wasm_i8x16_shuffle(q0, q1, 0, 4, 8, 12, 16, 20, 24, 28, 0, 4, 8, 12, 16, 20, 24, 28);
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
