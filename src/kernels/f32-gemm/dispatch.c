/* f32 GEMM dispatch table: the best micro-kernel at or below the model's ISA level. */
#include "kernels/f32-gemm/gemm.h"
#include "kernels/dispatch_table.h"
#include "kernels/f32-gemm/ukernels.h"
#if defined(__wasm_simd128__)
#include "kernels/f32-gemm/gemm-wasmsimd.h"
#endif

/* name, GEMV name, level, tile, full-tile and one-row kernels; the rest by name where a
 * variant has them. */
#define ROW(nm, nm1, lvl, m, n, f, f1) \
  .name = nm, .name1 = nm1, .isa = lvl, .mr = m, .nr = n, .fn = f, .fn1 = f1
static const tfcc_f32_gemm_kernel kernels[] = {
#if defined(__x86_64__) || defined(__i386__)
    {ROW("f32-gemm-12x32-avx512", "f32-gemv-32-avx512", TFCC_ISA_AVX512, 12, 32,
         tfcc_f32_gemm_12x32_avx512, tfcc_f32_gemm_1x32_avx512),
     .fn_half = tfcc_f32_gemm_12x16_avx512, .small_mr = 4, .fn_small = tfcc_f32_gemm_4x32_avx512,
     .res = tfcc_f32_gemm_res_avx512, .fn_res = tfcc_f32_gemm_12x32_res_avx512,
     .fn1_res = tfcc_f32_gemm_1x32_res_avx512, .fn_half_res = tfcc_f32_gemm_12x16_res_avx512,
     .fn_small_res = tfcc_f32_gemm_4x32_res_avx512},
    {ROW("f32-gemm-6x16-avx2", "f32-gemv-16-avx2", TFCC_ISA_AVX2, 6, 16, tfcc_f32_gemm_6x16_avx2,
         tfcc_f32_gemm_1x16_avx2),
     .res = tfcc_f32_gemm_res_avx2},
    {ROW("f32-gemm-4x8-sse4", "f32-gemv-8-sse4", TFCC_ISA_SSE4, 4, 8, tfcc_f32_gemm_4x8_sse4,
         tfcc_f32_gemm_1x8_sse4)},
#endif
#if defined(__aarch64__)
    {ROW("f32-gemm-8x8-neon", "f32-gemv-8-neon", TFCC_ISA_NEON, 8, 8, tfcc_f32_gemm_8x8_neon,
         tfcc_f32_gemm_1x8_neon)},
#endif
#if defined(__wasm_simd128__)
    {ROW(TFCC_F32_GEMM_WASM_NAME, "f32-gemv-8-wasmsimd", TFCC_ISA_WASMSIMD, TFCC_F32_GEMM_WASM_MR,
         8, tfcc_f32_gemm_5x8_wasmsimd, tfcc_f32_gemm_1x8_wasmsimd)},
#endif
    {ROW("f32-gemm-4x8-scalar", "f32-gemv-8-scalar", TFCC_ISA_GENERIC, 4, 8,
         tfcc_f32_gemm_4x8_scalar, tfcc_f32_gemm_1x8_scalar)},
};
#undef ROW
/* tfcc_isa_level_fits: NEON is its own level (aarch64), not above AVX-512. */
TFCC_DISPATCH_TABLE_FNS(tfcc_f32_gemm, tfcc_f32_gemm_kernel)

bool tfcc_f32_gemm_multi_panel(const tfcc_f32_gemm_kernel *k) {
  return k->isa == TFCC_ISA_WASMSIMD;
}
