/* WebAssembly's i32x4.relaxed_dot_i8x16_i7x16_add_s for the relaxed-SIMD binary's int8
 * kernels (q8-gemm-4x8-wasmrdot, q8-dwconv-8-wasmrdot; docs/kernels.md "WebAssembly int8
 * relaxed dot product"): lane j = c[j] + a[4j] b[4j] + ... + a[4j+3] b[4j+3], a signed. Clang 14
 * (Emscripten 3.1.6) has no builtin for it: the f64x2 relaxed fma stands in (three v128 operands
 * in the same order, one v128 result; tfcc emits it nowhere else), rewritten after the link by
 * scripts/wasm-relaxed.mjs. Both binaries hold the kernels that use it and the self-check, so
 * that their static data, whose addresses the shared glue (tfcc-core.mjs of a threads build)
 * holds, lie alike; the plain binary's (no TFCC_WASM_RELAXED_DOT) is a SIMD128 stand-in that is
 * no such dot product, which fails the check, so dispatch never takes those kernels there. */
#ifndef TFCC_KERNELS_SIMD_WASM_RDOT_H
#define TFCC_KERNELS_SIMD_WASM_RDOT_H

#include <wasm_simd128.h>

static inline v128_t tfcc_wasm_rdot(v128_t a, v128_t b, v128_t c) {
#ifdef TFCC_WASM_RELAXED_DOT
  return (v128_t)__builtin_wasm_fma_f64x2((__f64x2)a, (__f64x2)b, (__f64x2)c);
#else
  return wasm_i32x4_add(c, wasm_i32x4_dot_i16x8(a, b));
#endif
}

#endif
