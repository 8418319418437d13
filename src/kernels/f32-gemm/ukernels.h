/* Micro-kernel entry points (one file per ISA variant; see gemm.h for the contract). */
#ifndef TFCC_KERNELS_F32_GEMM_UKERNELS_H
#define TFCC_KERNELS_F32_GEMM_UKERNELS_H

#include <stddef.h>

#define TFCC_F32_GEMM_DECL(name) \
  void name(size_t mr, size_t nc, size_t kc, const float *const *a, size_t a_off, const float *w, \
            const float *bias, float *c, size_t c_stride, float lo, float hi, const float *pf, \
            size_t pf_lines)

TFCC_F32_GEMM_DECL(tfcc_f32_gemm_12x32_avx512);
TFCC_F32_GEMM_DECL(tfcc_f32_gemm_1x32_avx512);
TFCC_F32_GEMM_DECL(tfcc_f32_gemm_12x16_avx512);
TFCC_F32_GEMM_DECL(tfcc_f32_gemm_4x32_avx512);
TFCC_F32_GEMM_DECL(tfcc_f32_gemm_6x16_avx2);
TFCC_F32_GEMM_DECL(tfcc_f32_gemm_1x16_avx2);
TFCC_F32_GEMM_DECL(tfcc_f32_gemm_4x8_sse4);
TFCC_F32_GEMM_DECL(tfcc_f32_gemm_1x8_sse4);
TFCC_F32_GEMM_DECL(tfcc_f32_gemm_8x8_neon);
TFCC_F32_GEMM_DECL(tfcc_f32_gemm_1x8_neon);
TFCC_F32_GEMM_DECL(tfcc_f32_gemm_5x8_wasmsimd);
TFCC_F32_GEMM_DECL(tfcc_f32_gemm_1x8_wasmsimd);
TFCC_F32_GEMM_DECL(tfcc_f32_gemm_4x8_scalar);
TFCC_F32_GEMM_DECL(tfcc_f32_gemm_1x8_scalar);

#define TFCC_F32_GEMM_RES_DECL(name) \
  void name(size_t mr, size_t nc, float *c, size_t c_stride, const float *r, size_t r_stride, \
            float lo, float hi)

TFCC_F32_GEMM_RES_DECL(tfcc_f32_gemm_res_avx512);

#define TFCC_F32_GEMM_RES_KERNEL_DECL(name) \
  void name(size_t mr, size_t nc, size_t kc, const float *const *a, size_t a_off, const float *w, \
            const float *bias, float *c, size_t c_stride, float lo, float hi, const float *pf, \
            size_t pf_lines, const float *res, size_t res_stride)

TFCC_F32_GEMM_RES_KERNEL_DECL(tfcc_f32_gemm_12x32_res_avx512);
TFCC_F32_GEMM_RES_KERNEL_DECL(tfcc_f32_gemm_1x32_res_avx512);
TFCC_F32_GEMM_RES_KERNEL_DECL(tfcc_f32_gemm_12x16_res_avx512);
TFCC_F32_GEMM_RES_KERNEL_DECL(tfcc_f32_gemm_4x32_res_avx512);
TFCC_F32_GEMM_RES_DECL(tfcc_f32_gemm_res_avx2);

/* Initial accumulators of one row of nr columns: the panel's bias, or (bias == NULL, a later
 * K block) the row's current C values (columns < nc; zeros past them and for rows >= mr,
 * which pass crow == NULL). Returns where to load them from (bias, or tmp filled here). */
static inline const float *tfcc_f32_gemm_row_init(float *tmp, size_t nr, const float *bias,
                                                  const float *crow, size_t nc) {
  if (bias) return bias;
  for (size_t j = 0; j < nr; j++) tmp[j] = crow && j < nc ? crow[j] : 0.0f;
  return tmp;
}

#endif
