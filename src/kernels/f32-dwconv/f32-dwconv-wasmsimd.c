/* f32 depthwise kernel, wasm SIMD128: the portable body (dwconv_body.h) on explicit SIMD128
 * vectors (TFCC_DW_F32V; clang does not keep the portable block in v128 registers for wasm32). */
#include "kernels/simd/f32v_wasmsimd.h"
#define TFCC_DW_F32V
#define TFCC_DW_FN tfcc_f32_dwconv_wasmsimd
#include "kernels/f32-dwconv/dwconv_body.h"
