/* The WebAssembly SIMD128 depthwise kernels' float requantization of 4 int32 sums
 * (q8-dwconv-wasmsimd.c, q8-dwconv-cols-wasmsimd.c), tfcc_requant_fp32's arithmetic. */
#ifndef TFCC_KERNELS_Q8_DWCONV_WASMSIMD_REQUANT_H
#define TFCC_KERNELS_Q8_DWCONV_WASMSIMD_REQUANT_H

#include <stdint.h>
#include <wasm_simd128.h>

/* f + 1.5 * 2^23 (|f| < 2^22) has the integer nearest f, ties to even, in its low mantissa bits:
 * the bits minus those of 1.5 * 2^23 are f rounded as f32x4.nearest, exactly (no
 * i32x4.trunc_sat_f32x4, several instructions on x86-64 engines). The bits are monotone in f
 * over all finite f (negative sums: negative as int32), so the lower clamp is an i32x4.max on
 * them (magic_min: the bits of lo); minus zp folded into the one subtraction. */
static inline v128_t tfcc_q8dw_requant4(v128_t acc, const float *scale, v128_t magic_min,
                                        v128_t magic_zp) {
  const v128_t f = wasm_f32x4_mul(wasm_f32x4_convert_i32x4(acc), wasm_v128_load(scale));
  return wasm_i32x4_sub(wasm_i32x4_max(wasm_f32x4_add(f, wasm_f32x4_splat(12582912.0f)), magic_min),
                        magic_zp);
}

/* magic_min and magic_zp of tfcc_q8dw_requant4 for lo = act_min - zp and zp */
static inline v128_t tfcc_q8dw_magic_min(float lo) {
  return wasm_i32x4_splat((int32_t)(0x4B400000u + (uint32_t)(int32_t)lo));
}
static inline v128_t tfcc_q8dw_magic_zp(int32_t zp) {
  return wasm_i32x4_splat((int32_t)(0x4B400000u - (uint32_t)zp));
}

#endif
