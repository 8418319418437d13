/* Micro-kernel entry points (one file per ISA variant; see gemm.h for the contract). */
#ifndef TFCC_KERNELS_F32_GEMM_UKERNELS_H
#define TFCC_KERNELS_F32_GEMM_UKERNELS_H

#include <stddef.h>

#define TFCC_F32_GEMM_DECL(name)                                                          \
  void name(size_t mr, size_t nc, size_t kc, const float *const *a, const float *w, float *c, \
            size_t c_stride, float lo, float hi)

TFCC_F32_GEMM_DECL(tfcc_f32_gemm_8x32_avx512);
TFCC_F32_GEMM_DECL(tfcc_f32_gemm_1x32_avx512);
TFCC_F32_GEMM_DECL(tfcc_f32_gemm_8x16_avx512);
TFCC_F32_GEMM_DECL(tfcc_f32_gemm_6x16_avx2);
TFCC_F32_GEMM_DECL(tfcc_f32_gemm_1x16_avx2);
TFCC_F32_GEMM_DECL(tfcc_f32_gemm_4x8_sse4);
TFCC_F32_GEMM_DECL(tfcc_f32_gemm_1x8_sse4);
TFCC_F32_GEMM_DECL(tfcc_f32_gemm_8x8_neon);
TFCC_F32_GEMM_DECL(tfcc_f32_gemm_1x8_neon);
TFCC_F32_GEMM_DECL(tfcc_f32_gemm_4x8_scalar);
TFCC_F32_GEMM_DECL(tfcc_f32_gemm_1x8_scalar);

#endif
