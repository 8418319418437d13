/* f32 GEMM micro-kernels, WebAssembly SIMD128: 5 rows x 8 columns (10 v128 accumulators, two
 * weight vectors and the broadcast: V8 on x86-64 keeps them in the xmm registers it allocates,
 * with no spill in the depth loop; 6 rows spilled) and 1 x 8 (gemm_body.h). A depth step is
 * 39 x86 instructions for 40 products against 33 for 32 at 4 rows: the loop's stack check,
 * counter and weight pointer are shared by more rows. Separate multiply and add (plain SIMD128
 * has no FMA). The clamp lets NaN through, as the portable kernel does: v < lo ? lo : v, then
 * hi < v ? hi : v. Built only with -msimd128 (CMake keeps *-wasmsimd.c to wasm). */
#include "kernels/simd/f32v_wasmsimd.h"
#define GEMM_BCAST(p) wasm_v128_load32_splat(p)
#define GEMM_CLAMP(v, lo, hi) f32v_min(hi, f32v_max(lo, v))
#define GEMM_FN tfcc_f32_gemm_5x8_wasmsimd
#define GEMM_FN1 tfcc_f32_gemm_1x8_wasmsimd
#define GEMM_ROWS(X) X(0) X(1) X(2) X(3) X(4)
/* one call runs a row tile's panels (the call and the driver's per-tile work cost as much as
   several depth steps of the short-K layers) */
#define GEMM_MULTI_PANEL
#include "kernels/f32-gemm/gemm_body.h"
