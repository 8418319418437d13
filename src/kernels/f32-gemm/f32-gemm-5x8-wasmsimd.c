/* f32 GEMM micro-kernels, WebAssembly SIMD128: 5 rows x 8 columns (6 rows with relaxed_madd in
 * the relaxed-SIMD binary: gemm-wasmsimd.h) (10 v128 accumulators, two
 * weight vectors and the broadcast: V8 on x86-64 keeps them in the xmm registers it allocates,
 * with no spill in the depth loop; 6 rows spilled) and 1 x 8 (gemm_body.h). A depth step is
 * 39 x86 instructions for 40 products against 33 for 32 at 4 rows: the loop's stack check,
 * counter and weight pointer are shared by more rows. Separate multiply and add (plain SIMD128
 * has no FMA). The clamp lets NaN through, as the portable kernel does: v < lo ? lo : v, then
 * hi < v ? hi : v. Built only with -msimd128 (CMake keeps *-wasmsimd.c to wasm). */
#include "kernels/f32-gemm/gemm-wasmsimd.h"
#include "kernels/simd/f32v_wasmsimd.h"
#define GEMM_BCAST(p) wasm_v128_load32_splat(p)
#define GEMM_CLAMP(v, lo, hi) f32v_min(hi, f32v_max(lo, v))
#define GEMM_FN tfcc_f32_gemm_5x8_wasmsimd
#define GEMM_FN1 tfcc_f32_gemm_1x8_wasmsimd
/* 5 rows, 6 in the relaxed-SIMD binary (gemm-wasmsimd.h) */
#define GEMM_ROWS(X) TFCC_F32_GEMM_WASM_ROWS(X)
/* one call runs a row tile's panels (the call and the driver's per-tile work cost as much as
   several depth steps of the short-K layers) */
#define GEMM_MULTI_PANEL
/* the tile out of line, so that the depth loop is the outermost loop of its function: V8
   (TurboFan) unrolls a small innermost wasm loop 2-5 times, by how deep it is nested ((depth + 1)
   x 50 graph nodes / the loop's nodes), and inside the panel loop it unrolled this one twice,
   scheduling the first copy's seven loads ahead of its arithmetic: 17 live vectors, two
   accumulators and a broadcast spilled and reloaded every other step (42.5 x86 instructions a
   step on average). Nested once, it is not unrolled and keeps the order of the wasm: 38
   instructions, no stack traffic. One call per 8-column panel. MobileNetV2 fp32 0.96 (ab.mjs,
   both orders), ResNet-18 fp32 ~1.00. */
#define GEMM_TILE_ATTR __attribute__((noinline))
/* f32v_madd: relaxed_madd (FMA) in the relaxed-SIMD binary (f32v_wasmsimd.h); the kernel alone,
   Node 20 --experimental-wasm-relaxed-simd, x86-64: 0.58-0.75 of the time (K = 16-960) */
#define GEMM_MADD(a, b, c) f32v_madd(a, b, c)
#include "kernels/f32-gemm/gemm_body.h"
