/* f32 elementwise, WebAssembly SIMD128 build of the shared body (vbinary_body.h). */
#include "kernels/simd/f32v_wasmsimd.h"
#define TFCC_F32_VBINARY_FN tfcc_f32_vbinary_wasmsimd
#include "kernels/f32-vbinary/vbinary_body.h"
