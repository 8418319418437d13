/* f32 bilinear resize, WebAssembly SIMD128 build of the shared body (resize_body.h). */
#include "kernels/simd/f32v_wasmsimd.h"
#define TFCC_F32_RESIZE_FN tfcc_f32_resize_wasmsimd
#define TFCC_F32_RESIZE_XNN_FN tfcc_f32_resize_xnn_wasmsimd
#include "kernels/f32-resize/resize_body.h"
