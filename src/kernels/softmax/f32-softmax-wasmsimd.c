/* float32 softmax rows, WebAssembly SIMD128 build of the shared body (f32_softmax_body.h). */
#include "kernels/simd/f32v_wasmsimd.h"
#define TFCC_F32_SOFTMAX_FN tfcc_f32_softmax_wasmsimd
#define TFCC_F32_SOFTMAX_EXPF tfcc_expf_f32_wasmsimd
#include "kernels/softmax/f32_softmax_body.h"
