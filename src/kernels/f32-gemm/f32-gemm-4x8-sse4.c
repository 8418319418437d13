/* f32 GEMM micro-kernels, SSE4.1: 4 rows x 8 columns (8 xmm accumulators) and 1 x 8.
 * Separate multiply and add (no FMA at this level). Accumulators start from the bias, or
 * from C (bias == NULL: a later K block). */
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
  (void)pf;
  (void)pf_lines;
  const float *a0 = a[0] + a_off, *a1 = a[1] + a_off, *a2 = a[2] + a_off, *a3 = a[3] + a_off;
  float t[4][8];
  const float *i0 = tfcc_f32_gemm_row_init(t[0], 8, bias, c, nc);
  const float *i1 = tfcc_f32_gemm_row_init(t[1], 8, bias, mr > 1 ? c + c_stride : NULL, nc);
  const float *i2 = tfcc_f32_gemm_row_init(t[2], 8, bias, mr > 2 ? c + 2 * c_stride : NULL, nc);
  const float *i3 = tfcc_f32_gemm_row_init(t[3], 8, bias, mr > 3 ? c + 3 * c_stride : NULL, nc);
  __m128 c00 = _mm_loadu_ps(i0), c01 = _mm_loadu_ps(i0 + 4);
  __m128 c10 = _mm_loadu_ps(i1), c11 = _mm_loadu_ps(i1 + 4);
  __m128 c20 = _mm_loadu_ps(i2), c21 = _mm_loadu_ps(i2 + 4);
  __m128 c30 = _mm_loadu_ps(i3), c31 = _mm_loadu_ps(i3 + 4);
  for (size_t k = 0; k < kc; k++) {
    const __m128 b0 = _mm_load_ps(w), b1 = _mm_load_ps(w + 4);
    w += 8;
    __m128 v = _mm_load1_ps(a0 + k);
    c00 = _mm_add_ps(c00, _mm_mul_ps(v, b0));
    c01 = _mm_add_ps(c01, _mm_mul_ps(v, b1));
    v = _mm_load1_ps(a1 + k);
    c10 = _mm_add_ps(c10, _mm_mul_ps(v, b0));
    c11 = _mm_add_ps(c11, _mm_mul_ps(v, b1));
    v = _mm_load1_ps(a2 + k);
    c20 = _mm_add_ps(c20, _mm_mul_ps(v, b0));
    c21 = _mm_add_ps(c21, _mm_mul_ps(v, b1));
    v = _mm_load1_ps(a3 + k);
    c30 = _mm_add_ps(c30, _mm_mul_ps(v, b0));
    c31 = _mm_add_ps(c31, _mm_mul_ps(v, b1));
  }
  const __m128 vlo = _mm_set1_ps(lo), vhi = _mm_set1_ps(hi);
  store_row(c, nc, c00, c01, vlo, vhi);
  if (mr > 1) store_row(c + c_stride, nc, c10, c11, vlo, vhi);
  if (mr > 2) store_row(c + 2 * c_stride, nc, c20, c21, vlo, vhi);
  if (mr > 3) store_row(c + 3 * c_stride, nc, c30, c31, vlo, vhi);
}

TFCC_F32_GEMM_DECL(tfcc_f32_gemm_1x8_sse4) {
  (void)pf;
  (void)pf_lines;
  (void)mr;
  (void)c_stride;
  const float *a0 = a[0] + a_off;
  float t[8];
  const float *i0 = tfcc_f32_gemm_row_init(t, 8, bias, c, nc);
  __m128 c00 = _mm_loadu_ps(i0), c01 = _mm_loadu_ps(i0 + 4);
  for (size_t k = 0; k < kc; k++) {
    const __m128 v = _mm_load1_ps(a0 + k);
    c00 = _mm_add_ps(c00, _mm_mul_ps(v, _mm_load_ps(w)));
    c01 = _mm_add_ps(c01, _mm_mul_ps(v, _mm_load_ps(w + 4)));
    w += 8;
  }
  store_row(c, nc, c00, c01, _mm_set1_ps(lo), _mm_set1_ps(hi));
}
