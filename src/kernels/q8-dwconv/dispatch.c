/* q8 depthwise dispatch table: the best micro-kernel at or below the model's ISA level. */
#include "kernels/dispatch_table.h"
#include "kernels/q8-dwconv/dwconv.h"
#include "kernels/q8-dwconv/ukernels.h"
#include "kernels/q8-gemm/ukernels.h"

/* q8-dwconv-8-wasmrdot: both WebAssembly binaries hold it (their static data lie alike), taken
 * where the relaxed dot product passes the q8 GEMM's self-check (the relaxed binary on an engine
 * with the exact u8 x s8 dot, e.g. AVX-VNNI). */
static const tfcc_q8_dw_kernel kernels[] = {
    TFCC_KERNELS_X86(
        {"q8-dwconv-64-avx512vnni", TFCC_ISA_AVX512, TFCC_CPU_AVX512VNNI, NULL, NULL,
         tfcc_q8_dw_row_s_avx512vnni, tfcc_q8_dw_row_u_avx512vnni, NULL, NULL, NULL, NULL, NULL},
        {"q8-dwconv-16-avx512", TFCC_ISA_AVX512, -1, tfcc_q8_dw_s_avx512, tfcc_q8_dw_u_avx512, NULL,
         NULL, NULL, NULL, NULL, NULL, tfcc_q8_dw_rq_fixed_avx2},
        {"q8-dwconv-16-avx2", TFCC_ISA_AVX2, -1, tfcc_q8_dw_s_avx2, tfcc_q8_dw_u_avx2, NULL, NULL,
         tfcc_q8_dw_run_s_avx2, tfcc_q8_dw_run_u_avx2, NULL, NULL, tfcc_q8_dw_rq_fixed_avx2})
        TFCC_KERNELS_ARM64({"q8-dwconv-8-neon", TFCC_ISA_NEON, -1, tfcc_q8_dw_s_neon,
                            tfcc_q8_dw_u_neon, NULL, NULL, NULL, NULL, NULL, NULL, NULL})
            TFCC_KERNELS_WASMSIMD(
                {"q8-dwconv-8-wasmrdot", TFCC_ISA_WASMSIMD, -1, NULL, NULL, NULL, NULL, NULL, NULL,
                 tfcc_q8_dw_cols_s_wasmsimd, tfcc_q8_dw_cols_u_wasmsimd, NULL},
                {"q8-dwconv-16-wasmsimd", TFCC_ISA_WASMSIMD, -1, tfcc_q8_dw_s_wasmsimd,
                 tfcc_q8_dw_u_wasmsimd, NULL, NULL, tfcc_q8_dw_run_s_wasmsimd,
                 tfcc_q8_dw_run_u_wasmsimd, NULL, NULL, NULL}){
                "q8-dwconv-scalar", TFCC_ISA_GENERIC, -1, tfcc_q8_dw_s_scalar, tfcc_q8_dw_u_scalar,
                NULL, NULL, NULL, NULL, NULL, NULL, NULL},
};
TFCC_DISPATCH_TABLE_FNS_USABLE(tfcc_q8_dw, tfcc_q8_dw_kernel, tfcc_q8_dw_usable)
#define N_KERNELS tfcc_q8_dw_n_kernels_

bool tfcc_q8_dw_usable(const tfcc_q8_dw_kernel *k, tfcc_isa isa) {
  if (!tfcc_isa_level_fits(k->isa, isa)) return false;
#if defined(__wasm_simd128__)
  if (k->cols_s && !tfcc_q8_gemm_wasm_rdot_exact()) return false;
#endif
  return k->isa == TFCC_ISA_GENERIC || k->feature < 0 ||
         tfcc_cpu_has(tfcc_cpu(), (tfcc_cpu_feature)k->feature);
}

bool tfcc_q8_dw_w16(const tfcc_q8_dw_kernel *k) {
  return k->isa == TFCC_ISA_WASMSIMD || k->isa == TFCC_ISA_AVX2;
}

/* The next usable per-pixel kernel after k (for filters a row kernel cannot take). */
const tfcc_q8_dw_kernel *tfcc_q8_dw_pixel_fallback(const tfcc_q8_dw_kernel *k, tfcc_isa isa) {
  int i = 0;
  while (i < N_KERNELS && &kernels[i] != k) i++;
  for (; i < N_KERNELS; i++)
    if (kernels[i].fn_s && tfcc_q8_dw_usable(&kernels[i], isa)) return &kernels[i];
  return &kernels[N_KERNELS - 1];
}
