/* f32 GEMM dispatch table: the best micro-kernel at or below the model's ISA level. */
#include "kernels/f32-gemm/gemm.h"
#include "kernels/dispatch_table.h"
#include "kernels/f32-gemm/ukernels.h"

static const tfcc_f32_gemm_kernel kernels[] = {
#if defined(__x86_64__) || defined(__i386__)
    {"f32-gemm-12x32-avx512", "f32-gemv-32-avx512", TFCC_ISA_AVX512, 12, 32,
     tfcc_f32_gemm_12x32_avx512, tfcc_f32_gemm_1x32_avx512, tfcc_f32_gemm_12x16_avx512, 4,
     tfcc_f32_gemm_4x32_avx512, tfcc_f32_gemm_res_avx512, tfcc_f32_gemm_12x32_res_avx512,
     tfcc_f32_gemm_1x32_res_avx512, tfcc_f32_gemm_12x16_res_avx512, tfcc_f32_gemm_4x32_res_avx512},
    {"f32-gemm-6x16-avx2", "f32-gemv-16-avx2", TFCC_ISA_AVX2, 6, 16, tfcc_f32_gemm_6x16_avx2,
     tfcc_f32_gemm_1x16_avx2, NULL, 0, NULL, tfcc_f32_gemm_res_avx2},
    {"f32-gemm-4x8-sse4", "f32-gemv-8-sse4", TFCC_ISA_SSE4, 4, 8, tfcc_f32_gemm_4x8_sse4, tfcc_f32_gemm_1x8_sse4},
#endif
#if defined(__aarch64__)
    {"f32-gemm-8x8-neon", "f32-gemv-8-neon", TFCC_ISA_NEON, 8, 8, tfcc_f32_gemm_8x8_neon, tfcc_f32_gemm_1x8_neon},
#endif
#if defined(__wasm_simd128__)
    {"f32-gemm-6x8-wasmsimd", "f32-gemv-8-wasmsimd", TFCC_ISA_WASMSIMD, 6, 8, tfcc_f32_gemm_6x8_wasmsimd,
     tfcc_f32_gemm_1x8_wasmsimd},
#endif
    {"f32-gemm-4x8-scalar", "f32-gemv-8-scalar", TFCC_ISA_GENERIC, 4, 8, tfcc_f32_gemm_4x8_scalar,
     tfcc_f32_gemm_1x8_scalar},
};
/* tfcc_isa_level_fits: NEON is its own level (aarch64), not above AVX-512. */
TFCC_DISPATCH_TABLE_FNS(tfcc_f32_gemm, tfcc_f32_gemm_kernel)
