/* f32 Winograd dispatch table: the best tile transforms at or below the model's ISA level. */
#include "kernels/f32-winograd/winograd.h"
#include "kernels/dispatch_table.h"

#define K(isa, level)                                                                   \
  {"f32-winograd-" #isa, "f32-winograd-f2-" #isa, "f32-winograd-f4-" #isa, level,      \
   tfcc_wino_in_f2_##isa,                                                              \
   tfcc_wino_out_f2_##isa, tfcc_wino_in_f4_##isa, tfcc_wino_out_f4_##isa}

static const tfcc_f32_wino_kernel kernels[] = {
    TFCC_KERNELS_X86(K(avx512, TFCC_ISA_AVX512),
                     K(avx2, TFCC_ISA_AVX2),
                     K(sse4, TFCC_ISA_SSE4))
    TFCC_KERNELS_ARM64(K(neon, TFCC_ISA_NEON))
    TFCC_KERNELS_WASMSIMD(K(wasmsimd, TFCC_ISA_WASMSIMD))
    K(scalar, TFCC_ISA_GENERIC),
};
TFCC_DISPATCH_TABLE_FNS(tfcc_f32_wino, tfcc_f32_wino_kernel)
