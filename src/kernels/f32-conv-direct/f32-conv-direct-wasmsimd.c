/* f32 direct convolution, wasm SIMD128: the portable body (direct_conv_body.h) on explicit
 * SIMD128 vectors (TFCC_DC_F32V: clang kept the portable tile's accumulator in linear memory;
 * no FMA in plain SIMD128: multiply then add, as at sse4). */
#include "kernels/simd/f32v_wasmsimd.h"
#define TFCC_DC_F32V
#define DC_BCAST(p) wasm_v128_load32_splat(p)
#define TFCC_DC_FN tfcc_f32_direct_conv_8_wasmsimd
#define TFCC_DC_NR 8
#include "kernels/f32-conv-direct/direct_conv_body.h"
