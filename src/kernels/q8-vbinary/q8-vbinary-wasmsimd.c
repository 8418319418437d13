/* q8 elementwise, WebAssembly SIMD128: ADD in XNNPACK's arithmetic (TFCC_Q8VB_ADD_XNN, the
 * mode int8 models run in), 16 elements per step: bytes widened to four i32x4, acc = bias +
 * a * a_mult + b * b_mult (int32, wrapping as the portable kernel's uint32 arithmetic), >> shift
 * (arithmetic, i32x4.shr_s), + zp, then narrowed to int16 with saturation, clamped there and
 * narrowed to bytes (exact: the clamp bounds lie inside both ranges, and a value saturated to
 * int16 clamps to the same bound). Broadcast operands are splat once; the tail goes through a
 * zero-padded copy. The other operations run the portable kernel (tfcc_q8_vbinary_scalar). */
#include <string.h>
#include <wasm_simd128.h>

#include "kernels/q8-vbinary/vbinary.h"

typedef struct addk {
  v128_t bias, am, bm, zo, lo, hi;
  uint32_t sh;
  bool s;
} addk;

static inline v128_t add4(const addk *k, v128_t a, v128_t b) {
  const v128_t acc =
      wasm_i32x4_add(k->bias, wasm_i32x4_add(wasm_i32x4_mul(a, k->am), wasm_i32x4_mul(b, k->bm)));
  return wasm_i32x4_add(wasm_i32x4_shr(acc, k->sh), k->zo);
}

/* 16 bytes widened to int32: lanes 0-3, 4-7, 8-11, 12-15 */
typedef struct w16 {
  v128_t q0, q1, q2, q3;
} w16;

static inline w16 widen16(v128_t x, bool s) {
  const v128_t l = s ? wasm_i16x8_extend_low_i8x16(x) : wasm_u16x8_extend_low_u8x16(x);
  const v128_t h = s ? wasm_i16x8_extend_high_i8x16(x) : wasm_u16x8_extend_high_u8x16(x);
  const w16 r = {s ? wasm_i32x4_extend_low_i16x8(l) : wasm_u32x4_extend_low_u16x8(l),
                 s ? wasm_i32x4_extend_high_i16x8(l) : wasm_u32x4_extend_high_u16x8(l),
                 s ? wasm_i32x4_extend_low_i16x8(h) : wasm_u32x4_extend_low_u16x8(h),
                 s ? wasm_i32x4_extend_high_i16x8(h) : wasm_u32x4_extend_high_u16x8(h)};
  return r;
}

static inline v128_t add16(const addk *k, v128_t va, v128_t vb) {
  const w16 a = widen16(va, k->s), b = widen16(vb, k->s);
  v128_t l = wasm_i16x8_narrow_i32x4(add4(k, a.q0, b.q0), add4(k, a.q1, b.q1));
  v128_t h = wasm_i16x8_narrow_i32x4(add4(k, a.q2, b.q2), add4(k, a.q3, b.q3));
  l = wasm_i16x8_min(wasm_i16x8_max(l, k->lo), k->hi);
  h = wasm_i16x8_min(wasm_i16x8_max(h, k->lo), k->hi);
  return k->s ? wasm_i8x16_narrow_i16x8(l, h) : wasm_u8x16_narrow_i16x8(l, h);
}

static void add_xnn(const tfcc_q8_vbinary_params *p, const uint8_t *a, const uint8_t *b, uint8_t *o,
                    size_t n, int a_step, int b_step) {
  const addk k = {wasm_i32x4_splat(p->bias),
                  wasm_i32x4_splat(p->a_mult),
                  wasm_i32x4_splat(p->b_mult),
                  wasm_i32x4_splat(p->out_zp),
                  wasm_i16x8_splat((int16_t)p->qmin),
                  wasm_i16x8_splat((int16_t)p->qmax),
                  (uint32_t)p->shift,
                  p->is_signed};
  const v128_t ca = wasm_i8x16_splat((int8_t)a[0]), cb = wasm_i8x16_splat((int8_t)b[0]);
  size_t i = 0;
  for (; i + 16 <= n; i += 16) {
    const v128_t va = a_step ? wasm_v128_load(a + i) : ca;
    const v128_t vb = b_step ? wasm_v128_load(b + i) : cb;
    wasm_v128_store(o + i, add16(&k, va, vb));
  }
  if (i < n) {
    uint8_t ta[16] = {0}, tb[16] = {0}, to[16];
    if (a_step) memcpy(ta, a + i, n - i);
    if (b_step) memcpy(tb, b + i, n - i);
    const v128_t va = a_step ? wasm_v128_load(ta) : ca;
    const v128_t vb = b_step ? wasm_v128_load(tb) : cb;
    wasm_v128_store(to, add16(&k, va, vb));
    memcpy(o + i, to, n - i);
  }
}

TFCC_Q8_VBINARY_DECL(tfcc_q8_vbinary_wasmsimd) {
  const tfcc_q8_vbinary_params *p = params;
  if (p->op == TFCC_Q8VB_ADD_XNN)
    add_xnn(p, a, b, out, n, a_step, b_step);
  else
    tfcc_q8_vbinary_scalar(params, a, b, out, n, a_step, b_step);
}
