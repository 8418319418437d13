/* f32 activations, WebAssembly SIMD128 build of the shared body (vunary_body.h). */
#include "kernels/simd/f32v_wasmsimd.h"
#define TFCC_F32_VUNARY_FN tfcc_f32_vunary_wasmsimd
#include "kernels/f32-vunary/vunary_body.h"
