/* f32 GEMV kernel, WebAssembly SIMD128 (gemv_body.h): four 8-column panels at once. The
 * panel-by-panel one-row kernel runs one stream whose two accumulator chains bound it at one
 * add latency per k; four streams keep more of the weights' reads in flight (MobileNetV2's
 * 5 MB classifier, read once per run). f32v_madd as the one-row kernel (f32v_fma's separate
 * multiply and add, relaxed_madd in the relaxed-SIMD binary): the same sums, bit for bit. */
#include "kernels/simd/f32v_wasmsimd.h"
#define GEMV_MADD(a, b, c) f32v_madd(a, b, c)
#define GEMV_FN tfcc_f32_gemv_4x8_wasmsimd
#include "kernels/f32-gemm/gemv_body.h"
