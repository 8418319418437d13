/* Micro-kernel entry points (one file per ISA variant; see gemm.h for the contract). */
#ifndef TFCC_KERNELS_Q8_GEMM_UKERNELS_H
#define TFCC_KERNELS_Q8_GEMM_UKERNELS_H

#include "kernels/q8-gemm/gemm.h"

#define TFCC_Q8_GEMM_DECL(name)                                                        \
  void name(size_t mr, size_t nc, size_t kc, const void *const *a, const void *w,      \
            const int32_t *row_add, const tfcc_q8_out *o)

TFCC_Q8_GEMM_DECL(tfcc_q8_gemm_s_14x32_avx512vnni);
TFCC_Q8_GEMM_DECL(tfcc_q8_gemm_u_14x32_avx512vnni);
TFCC_Q8_GEMM_DECL(tfcc_q8_gemm_s_6x16_avxvnni);
TFCC_Q8_GEMM_DECL(tfcc_q8_gemm_u_6x16_avxvnni);
TFCC_Q8_GEMM_DECL(tfcc_q8_gemm_s_4x8_avx2);
TFCC_Q8_GEMM_DECL(tfcc_q8_gemm_u_4x8_avx2);
TFCC_Q8_GEMM_DECL(tfcc_q8_gemm_s_8x8_neondot);
TFCC_Q8_GEMM_DECL(tfcc_q8_gemm_u_8x8_neondot);
TFCC_Q8_GEMM_DECL(tfcc_q8_gemm_s_4x16_scalar);
TFCC_Q8_GEMM_DECL(tfcc_q8_gemm_u_4x16_scalar);

uint32_t tfcc_q8_row_sum_avx512vnni(const uint8_t *x, size_t n, bool is_signed);
uint32_t tfcc_q8_row_sum_avxvnni(const uint8_t *x, size_t n, bool is_signed);

#endif
