/* f32 GEMM micro-kernels, WebAssembly SIMD128: 4 rows x 8 columns (8 v128 accumulators, two
 * weight vectors and the broadcast: V8 on x86-64 keeps them in the xmm registers it allocates,
 * where 6 rows spilled) and 1 x 8 (gemm_body.h). Separate multiply and add (plain SIMD128 has
 * no FMA). The clamp lets NaN through, as the portable kernel does: v < lo ? lo : v, then
 * hi < v ? hi : v. Built only with -msimd128 (CMake keeps *-wasmsimd.c to wasm). */
#include "kernels/simd/f32v_wasmsimd.h"
#define GEMM_BCAST(p) wasm_v128_load32_splat(p)
#define GEMM_CLAMP(v, lo, hi) f32v_min(hi, f32v_max(lo, v))
#define GEMM_FN tfcc_f32_gemm_4x8_wasmsimd
#define GEMM_FN1 tfcc_f32_gemm_1x8_wasmsimd
#define GEMM_ROWS(X) X(0) X(1) X(2) X(3)
#include "kernels/f32-gemm/gemm_body.h"
