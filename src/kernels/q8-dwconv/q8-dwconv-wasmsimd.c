/* q8 depthwise micro-kernel, WebAssembly SIMD128 (dwconv_body.h): 8 channels per step; each
 * tap widens 8 input bytes to int32 and multiplies them with the packed int32 weights (w' in
 * the low 16 bits) in i32x4.dot_i16x8, an exact product. The channel tail goes through a
 * zero-padded copy. Requantization as tfcc_requant_fp32 (f32x4.nearest rounds half to even).
 * The layout is that of the NEON kernel (q8-dwconv-neon.c). */
#include <string.h>
#include <wasm_simd128.h>

#include "kernels/q8-dwconv/ukernels.h"

static inline v128_t widen(const uint8_t *p, size_t n, bool is_signed) {
  if (n >= 8) return is_signed ? wasm_i16x8_load8x8(p) : wasm_u16x8_load8x8(p);
  uint8_t tmp[8] = {0};
  memcpy(tmp, p, n);
  return is_signed ? wasm_i16x8_load8x8(tmp) : wasm_u16x8_load8x8(tmp);
}

#define Q8DW_N 8
typedef struct q8dw_acc {
  v128_t a0, a1;
} q8dw_acc;

static inline q8dw_acc q8dw_sum(const int32_t *bias, const uint8_t *const *taps, size_t ntaps,
                                size_t ch, size_t n, const int32_t *w, size_t c16, bool is_signed) {
  v128_t a0 = wasm_v128_load(bias), a1 = wasm_v128_load(bias + 4);
  for (size_t t = 0; t < ntaps; t++) {
    const v128_t x = widen(taps[t] + ch, n, is_signed);
    const int32_t *wt = w + t * c16;
    /* Each weight int32 is (w', 0) as two int16 (w' in its low 16 bits, high bits zero), and
       each input widened to int32 is (x, sign) as two int16: their i32x4.dot_i16x8 is
       x * w' + sign * 0, the exact product, with no shuffle of the weights. */
    a0 = wasm_i32x4_add(a0,
                        wasm_i32x4_dot_i16x8(wasm_i32x4_extend_low_i16x8(x), wasm_v128_load(wt)));
    a1 = wasm_i32x4_add(
        a1, wasm_i32x4_dot_i16x8(wasm_i32x4_extend_high_i16x8(x), wasm_v128_load(wt + 4)));
  }
  const q8dw_acc r = {a0, a1};
  return r;
}

static inline void q8dw_store32(int32_t *c32, q8dw_acc acc) {
  wasm_v128_store(c32, acc.a0);
  wasm_v128_store(c32 + 4, acc.a1);
}

static inline void q8dw_requant(uint8_t *c, q8dw_acc acc, const float *scale, float lo, float hi,
                                int32_t zp, size_t n) {
  const v128_t vlo = wasm_f32x4_splat(lo), vhi = wasm_f32x4_splat(hi);
  const v128_t vzp = wasm_i32x4_splat(zp);
  v128_t f0 = wasm_f32x4_mul(wasm_f32x4_convert_i32x4(acc.a0), wasm_v128_load(scale));
  v128_t f1 = wasm_f32x4_mul(wasm_f32x4_convert_i32x4(acc.a1), wasm_v128_load(scale + 4));
  f0 = wasm_f32x4_pmin(wasm_f32x4_pmax(f0, vlo), vhi);
  f1 = wasm_f32x4_pmin(wasm_f32x4_pmax(f1, vlo), vhi);
  const v128_t q0 = wasm_i32x4_add(wasm_i32x4_trunc_sat_f32x4(wasm_f32x4_nearest(f0)), vzp);
  const v128_t q1 = wasm_i32x4_add(wasm_i32x4_trunc_sat_f32x4(wasm_f32x4_nearest(f1)), vzp);
  const v128_t b =
      wasm_i8x16_shuffle(q0, q1, 0, 4, 8, 12, 16, 20, 24, 28, 0, 4, 8, 12, 16, 20, 24, 28);
  if (n >= 8) {
    wasm_v128_store64_lane(c, b, 0);
    return;
  }
  uint8_t tmp[16];
  wasm_v128_store(tmp, b);
  memcpy(c, tmp, n);
}

#define Q8DW_FN_S tfcc_q8_dw_s_wasmsimd
#define Q8DW_FN_U tfcc_q8_dw_u_wasmsimd
#include "kernels/q8-dwconv/dwconv_body.h"
