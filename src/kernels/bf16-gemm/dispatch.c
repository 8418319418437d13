/* bf16 GEMM dispatch: AMX-BF16 tiles where the CPU and the OS allow, else AVX512-BF16
 * (vdpbf16ps), else none (precision bf16 then runs the float32 kernels). The scalar
 * emulation is listed for tests and never dispatched. */
#include "cpu/cpu_info.h"
#include "kernels/dispatch_table.h"
#include "kernels/bf16-gemm/gemm.h"
#include "kernels/bf16-gemm/ukernels.h"

#define F(x) (1ull << TFCC_CPU_##x)
#define AVX512BF16_FEATURES (F(AVX512F) | F(AVX512BW) | F(AVX512VL) | F(AVX512DQ) | F(AVX512BF16))

static const tfcc_bf16_gemm_kernel kernels[] = {
#if defined(__x86_64__)
    {"bf16-gemm-16x32-amxbf16", "bf16-gemv-32-avx512bf16", TFCC_ISA_AVX512,
     AVX512BF16_FEATURES | F(AMXTILE) | F(AMXBF16), true, false, 16, 32, 32,
     tfcc_bf16_gemm_16x32_amxbf16, tfcc_bf16_gemm_1x32_avx512bf16, NULL, tfcc_bf16_cvt_avx512bf16},
    {"bf16-gemm-8x32-avx512bf16", "bf16-gemv-32-avx512bf16", TFCC_ISA_AVX512, AVX512BF16_FEATURES,
     false, false, 8, 32, 2, tfcc_bf16_gemm_8x32_avx512bf16, tfcc_bf16_gemm_1x32_avx512bf16,
     tfcc_bf16_gemm_8x16_avx512bf16, tfcc_bf16_cvt_avx512bf16},
#endif
    {"bf16-gemm-4x16-scalar", "bf16-gemv-16-scalar", TFCC_ISA_GENERIC, 0, false, true, 4, 16, 2,
     tfcc_bf16_gemm_4x16_scalar, tfcc_bf16_gemm_1x16_scalar, NULL, tfcc_bf16_cvt_scalar},
};
TFCC_DISPATCH_TABLE_ACCESS_FNS(tfcc_bf16_gemm, tfcc_bf16_gemm_kernel)
#define N_KERNELS tfcc_bf16_gemm_n_kernels_

bool tfcc_bf16_gemm_runnable(const tfcc_bf16_gemm_kernel *k) {
  const tfcc_cpu_info *c = tfcc_cpu();
  if (!k || (c->flags & k->features) != k->features) return false;
  return !k->amx || c->amx_permitted;
}

/* tfcc_isa_level_fits, and never at an out-of-range level. */
static bool level_fits(tfcc_isa need, tfcc_isa isa) {
  return isa < TFCC_ISA_COUNT_ && tfcc_isa_level_fits(need, isa);
}

TFCC_SELECT_FN const tfcc_bf16_gemm_kernel *tfcc_bf16_gemm_select(tfcc_isa isa) {
  for (int i = 0; i < N_KERNELS; i++) {
    const tfcc_bf16_gemm_kernel *k = &kernels[i];
    if (!k->test_only && level_fits(k->isa, isa) && tfcc_bf16_gemm_runnable(k)) return k;
  }
  return NULL;
}

const char *tfcc_bf16_gemm_unavailable(tfcc_isa isa) {
  if (tfcc_bf16_gemm_select(isa)) return NULL;
#if defined(__x86_64__)
  const tfcc_cpu_info *c = tfcc_cpu();
  if ((c->flags & AVX512BF16_FEATURES) != AVX512BF16_FEATURES)
    return "the CPU has no AVX512-BF16 (vdpbf16ps)";
  return "the kernel dispatch level is capped below avx512 (TFCC_ISA or the runtime's isa "
         "option)";
#else
  (void)isa;
  return "bf16 kernels exist for x86-64 (AVX512-BF16, AMX-BF16) only";
#endif
}
