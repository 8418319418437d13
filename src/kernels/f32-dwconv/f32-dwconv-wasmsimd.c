/* f32 depthwise kernel, wasm SIMD128 build of the portable body (dwconv_body.h). */
#define TFCC_DW_FN tfcc_f32_dwconv_wasmsimd
#include "kernels/f32-dwconv/dwconv_body.h"
