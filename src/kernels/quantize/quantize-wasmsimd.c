/* Quantize kernels, wasm SIMD128 build of the portable body (quantize_body.h), with an explicit
 * vector part for XNNPACK's f32 -> q8 (clang's code for the portable loop converts with
 * i32x4.trunc_sat_f32x4_s, several instructions on x86-64 engines, and narrows lane by lane).
 * 16 elements a step: the body's clamp (f >= lo ? f : lo, then f <= hi ? f : hi: NaN gives lo)
 * as pmax / pmin, the rounding by the 1.5 * 2^23 addition read as bits (the integer nearest f,
 * ties to even: the body's (f + 2^23 * 1.5) - 2^23 * 1.5), + zp folded into the subtraction, then
 * the saturating narrowings (the values are in the type's range already). */
#include <wasm_simd128.h>

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

static inline v128_t qz4(const float *p, v128_t s, v128_t lo, v128_t hi, v128_t magic,
                         v128_t bias) {
  v128_t f = wasm_f32x4_mul(wasm_v128_load(p), s);
  f = wasm_f32x4_pmax(lo, f);
  f = wasm_f32x4_pmin(hi, f);
  return wasm_i32x4_sub(wasm_f32x4_add(f, magic), bias);
}

static size_t qz_xnn_head(const float *in, void *out, size_t n, float inv_scale, int32_t zp,
                          float flo, float fhi, bool is_u8) {
  const v128_t s = wasm_f32x4_splat(inv_scale), lo = wasm_f32x4_splat(flo);
  const v128_t hi = wasm_f32x4_splat(fhi), magic = wasm_f32x4_splat(12582912.0f);
  const v128_t bias = wasm_i32x4_splat((int32_t)(0x4B400000u - (uint32_t)zp));
  uint8_t *o = out;
  size_t i = 0;
  for (; i + 16 <= n; i += 16) {
    const v128_t a = wasm_i16x8_narrow_i32x4(qz4(in + i, s, lo, hi, magic, bias),
                                             qz4(in + i + 4, s, lo, hi, magic, bias));
    const v128_t b = wasm_i16x8_narrow_i32x4(qz4(in + i + 8, s, lo, hi, magic, bias),
                                             qz4(in + i + 12, s, lo, hi, magic, bias));
    wasm_v128_store(o + i, is_u8 ? wasm_u8x16_narrow_i16x8(a, b) : wasm_i8x16_narrow_i16x8(a, b));
  }
  return i;
}

#define QZ_XNN_HEAD qz_xnn_head
#define TFCC_QZ_ISA wasmsimd
#include "kernels/quantize/quantize_body.h"
