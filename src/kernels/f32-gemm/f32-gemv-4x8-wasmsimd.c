/* f32 GEMV kernel, WebAssembly SIMD128 (gemv_body.h): four 8-column panels at once. The
 * panel-by-panel one-row kernel runs one stream whose two accumulator chains bound it at one
 * add latency per k; four streams keep more of the weights' reads in flight (MobileNetV2's
 * 5 MB classifier, read once per run). f32v_fma rounds the multiply and the add separately,
 * as the one-row kernel does: the same sums, bit for bit. */
#include "kernels/simd/f32v_wasmsimd.h"
#define GEMV_FN tfcc_f32_gemv_4x8_wasmsimd
#include "kernels/f32-gemm/gemv_body.h"
