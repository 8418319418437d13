/* f32 direct convolution, wasm SIMD128 build of the portable body (direct_conv_body.h; no
 * FMA in plain SIMD128: multiply then add, as at sse4). */
#define TFCC_DC_FN tfcc_f32_direct_conv_8_wasmsimd
#define TFCC_DC_NR 8
#include "kernels/f32-conv-direct/direct_conv_body.h"
