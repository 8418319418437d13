/* f32 GEMM micro-kernels, aarch64 NEON: 8 rows x 8 columns (16 q accumulators) and 1 x 8.
 * Built only for aarch64 (CMake drops *-neon.c elsewhere). Accumulators start from the bias,
 * or from C (bias == NULL: a later K block). */
#include <arm_neon.h>
#include <stdint.h>
#include <string.h>

#include "kernels/f32-gemm/ukernels.h"

static inline void store_row(float *c, size_t nc, float32x4_t v0, float32x4_t v1, float32x4_t lo,
                             float32x4_t hi) {
  v0 = vminq_f32(vmaxq_f32(v0, lo), hi);
  v1 = vminq_f32(vmaxq_f32(v1, lo), hi);
  if (nc >= 8) {
    vst1q_f32(c, v0);
    vst1q_f32(c + 4, v1);
    return;
  }
  float t[8];
  vst1q_f32(t, v0);
  vst1q_f32(t + 4, v1);
  memcpy(c, t, nc * sizeof(float));
}

TFCC_F32_GEMM_DECL(tfcc_f32_gemm_8x8_neon) {
  (void)pf;
  (void)pf_lines;
  float32x4_t acc[8][2];
  for (size_t i = 0; i < 8; i++) {
    float t[8];
    const float *r = tfcc_f32_gemm_row_init(t, 8, bias, i < mr ? c + i * c_stride : NULL, nc);
    acc[i][0] = vld1q_f32(r);
    acc[i][1] = vld1q_f32(r + 4);
  }
  for (size_t k = 0; k < kc; k++) {
    const float32x4_t b0 = vld1q_f32(w), b1 = vld1q_f32(w + 4);
    w += 8;
    for (int i = 0; i < 8; i++) {
      const float32x4_t v = vdupq_n_f32(a[i][a_off + k]);
      acc[i][0] = vfmaq_f32(acc[i][0], v, b0);
      acc[i][1] = vfmaq_f32(acc[i][1], v, b1);
    }
  }
  const float32x4_t vlo = vdupq_n_f32(lo), vhi = vdupq_n_f32(hi);
  for (size_t i = 0; i < mr && i < 8; i++)
    store_row(c + i * c_stride, nc, acc[i][0], acc[i][1], vlo, vhi);
}

TFCC_F32_GEMM_DECL(tfcc_f32_gemm_1x8_neon) {
  (void)pf;
  (void)pf_lines;
  (void)mr;
  (void)c_stride;
  float t[8];
  const float *r = tfcc_f32_gemm_row_init(t, 8, bias, c, nc);
  float32x4_t c0 = vld1q_f32(r), c1 = vld1q_f32(r + 4);
  for (size_t k = 0; k < kc; k++) {
    const float32x4_t v = vdupq_n_f32(a[0][a_off + k]);
    c0 = vfmaq_f32(c0, v, vld1q_f32(w));
    c1 = vfmaq_f32(c1, v, vld1q_f32(w + 4));
    w += 8;
  }
  store_row(c, nc, c0, c1, vdupq_n_f32(lo), vdupq_n_f32(hi));
}
