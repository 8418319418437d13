/* Micro-kernel entry points (one file per ISA variant; see gemm.h for the contract). */
#ifndef TFCC_KERNELS_BF16_GEMM_UKERNELS_H
#define TFCC_KERNELS_BF16_GEMM_UKERNELS_H

#include <stddef.h>
#include <stdint.h>

#define TFCC_BF16_GEMM_DECL(name) \
  void name(size_t mr, size_t nc, size_t kp, const uint16_t *a, size_t a_stride, const void *w, \
            float *c, size_t c_stride, float lo, float hi)

TFCC_BF16_GEMM_DECL(tfcc_bf16_gemm_16x32_amxbf16);
TFCC_BF16_GEMM_DECL(tfcc_bf16_gemm_8x32_avx512bf16);
TFCC_BF16_GEMM_DECL(tfcc_bf16_gemm_1x32_avx512bf16);
TFCC_BF16_GEMM_DECL(tfcc_bf16_gemm_8x16_avx512bf16);
TFCC_BF16_GEMM_DECL(tfcc_bf16_gemm_4x16_scalar);
TFCC_BF16_GEMM_DECL(tfcc_bf16_gemm_1x16_scalar);

void tfcc_bf16_cvt_avx512bf16(const float *src, uint16_t *dst, size_t n);

#endif
