/* f32 GEMM micro-kernels in portable C (the generic level): 4 rows x 8 columns and 1 x 8.
 * Accumulators start from the bias, or from C (bias == NULL: a later K block). */
#include <stdint.h>

#include "kernels/f32-gemm/ukernels.h"

static inline float clampf(float v, float lo, float hi) {
  v = v < lo ? lo : v;
  return v > hi ? hi : v;
}

TFCC_F32_GEMM_DECL(tfcc_f32_gemm_4x8_scalar) {
  (void)pf;
  (void)pf_lines;
  float acc[4][8];
  for (size_t i = 0; i < 4; i++)
    for (size_t j = 0; j < 8; j++)
      acc[i][j] = bias ? bias[j] : i < mr && j < nc ? c[i * c_stride + j] : 0.0f;
  const float *a0 = a[0] + a_off, *a1 = a[1] + a_off, *a2 = a[2] + a_off, *a3 = a[3] + a_off;
  for (size_t k = 0; k < kc; k++) {
    const float v0 = a0[k], v1 = a1[k], v2 = a2[k], v3 = a3[k];
    for (int j = 0; j < 8; j++) {
      const float b = w[j];
      acc[0][j] += v0 * b;
      acc[1][j] += v1 * b;
      acc[2][j] += v2 * b;
      acc[3][j] += v3 * b;
    }
    w += 8;
  }
  for (size_t i = 0; i < mr && i < 4; i++)
    for (size_t j = 0; j < nc && j < 8; j++) c[i * c_stride + j] = clampf(acc[i][j], lo, hi);
}

TFCC_F32_GEMM_DECL(tfcc_f32_gemm_1x8_scalar) {
  (void)pf;
  (void)pf_lines;
  (void)mr;
  (void)c_stride;
  float acc[8];
  for (size_t j = 0; j < 8; j++) acc[j] = bias ? bias[j] : j < nc ? c[j] : 0.0f;
  const float *a0 = a[0] + a_off;
  for (size_t k = 0; k < kc; k++) {
    const float v = a0[k];
    for (int j = 0; j < 8; j++) acc[j] += v * w[j];
    w += 8;
  }
  for (size_t j = 0; j < nc && j < 8; j++) c[j] = clampf(acc[j], lo, hi);
}
