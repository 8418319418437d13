/* f32 GEMM micro-kernels, AVX2 + FMA: 6 rows x 16 columns (12 ymm accumulators) and 1 x 16
 * (gemm_body.h), and the residual epilogue. */
#include "kernels/simd/f32v_avx2.h"
#define GEMM_FN tfcc_f32_gemm_6x16_avx2
#define GEMM_FN1 tfcc_f32_gemm_1x16_avx2
#define GEMM_ROWS(X) X(0) X(1) X(2) X(3) X(4) X(5)
#include "kernels/f32-gemm/gemm_body.h"

/* Residual epilogue (gemm.h): 8 columns per vector, the tail in scalars; the clamp as the
 * f32-vbinary kernels do it, min(hi, max(lo, v)) (MAXPS/MINPS return v when it is NaN). */
TFCC_F32_GEMM_RES_DECL(tfcc_f32_gemm_res_avx2) {
  const __m256 vlo = _mm256_set1_ps(lo), vhi = _mm256_set1_ps(hi);
  for (size_t i = 0; i < mr; i++, c += c_stride, r += r_stride) {
    size_t j = 0;
    for (; j + 8 <= nc; j += 8) {
      const __m256 v = _mm256_add_ps(_mm256_loadu_ps(c + j), _mm256_loadu_ps(r + j));
      _mm256_storeu_ps(c + j, f32v_clamp(v, vlo, vhi));
    }
    for (; j < nc; j++) {
      float v = c[j] + r[j];
      v = v < lo ? lo : v;
      c[j] = hi < v ? hi : v;
    }
  }
}
