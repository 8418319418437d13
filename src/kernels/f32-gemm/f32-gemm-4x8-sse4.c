/* f32 GEMM micro-kernels, SSE4.1: 4 rows x 8 columns (8 xmm accumulators) and 1 x 8.
 * Separate multiply and add (no FMA at this level). */
#include <smmintrin.h>
#include <stdint.h>
#include <string.h>

#include "kernels/f32-gemm/ukernels.h"

static inline void store_row(float *c, size_t nc, __m128 v0, __m128 v1, __m128 lo, __m128 hi) {
  v0 = _mm_min_ps(_mm_max_ps(v0, lo), hi);
  v1 = _mm_min_ps(_mm_max_ps(v1, lo), hi);
  if (nc >= 8) {
    _mm_storeu_ps(c, v0);
    _mm_storeu_ps(c + 4, v1);
    return;
  }
  float t[8];
  _mm_storeu_ps(t, v0);
  _mm_storeu_ps(t + 4, v1);
  memcpy(c, t, nc * sizeof(float));
}

TFCC_F32_GEMM_DECL(tfcc_f32_gemm_4x8_sse4) {
  const float *a0 = a[0], *a1 = a[1], *a2 = a[2], *a3 = a[3];
  __m128 c00 = _mm_load_ps(w), c01 = _mm_load_ps(w + 4);
  __m128 c10 = c00, c11 = c01, c20 = c00, c21 = c01, c30 = c00, c31 = c01;
  w += 8;
  for (size_t k = 0; k < kc; k++) {
    const __m128 b0 = _mm_load_ps(w), b1 = _mm_load_ps(w + 4);
    w += 8;
    __m128 v = _mm_load1_ps(a0 + k);
    c00 = _mm_add_ps(c00, _mm_mul_ps(v, b0)); c01 = _mm_add_ps(c01, _mm_mul_ps(v, b1));
    v = _mm_load1_ps(a1 + k);
    c10 = _mm_add_ps(c10, _mm_mul_ps(v, b0)); c11 = _mm_add_ps(c11, _mm_mul_ps(v, b1));
    v = _mm_load1_ps(a2 + k);
    c20 = _mm_add_ps(c20, _mm_mul_ps(v, b0)); c21 = _mm_add_ps(c21, _mm_mul_ps(v, b1));
    v = _mm_load1_ps(a3 + k);
    c30 = _mm_add_ps(c30, _mm_mul_ps(v, b0)); c31 = _mm_add_ps(c31, _mm_mul_ps(v, b1));
  }
  const __m128 vlo = _mm_set1_ps(lo), vhi = _mm_set1_ps(hi);
  store_row(c, nc, c00, c01, vlo, vhi);
  if (mr > 1) store_row(c + c_stride, nc, c10, c11, vlo, vhi);
  if (mr > 2) store_row(c + 2 * c_stride, nc, c20, c21, vlo, vhi);
  if (mr > 3) store_row(c + 3 * c_stride, nc, c30, c31, vlo, vhi);
}

TFCC_F32_GEMM_DECL(tfcc_f32_gemm_1x8_sse4) {
  (void)mr;
  (void)c_stride;
  const float *a0 = a[0];
  __m128 c00 = _mm_load_ps(w), c01 = _mm_load_ps(w + 4);
  w += 8;
  for (size_t k = 0; k < kc; k++) {
    const __m128 v = _mm_load1_ps(a0 + k);
    c00 = _mm_add_ps(c00, _mm_mul_ps(v, _mm_load_ps(w)));
    c01 = _mm_add_ps(c01, _mm_mul_ps(v, _mm_load_ps(w + 4)));
    w += 8;
  }
  store_row(c, nc, c00, c01, _mm_set1_ps(lo), _mm_set1_ps(hi));
}
