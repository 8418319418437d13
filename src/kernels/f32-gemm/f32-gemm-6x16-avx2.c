/* f32 GEMM micro-kernels, AVX2 + FMA: 6 rows x 16 columns (12 ymm accumulators) and 1 x 16.
 * Accumulators start from the bias, or from C (bias == NULL: a later K block). */
#include <immintrin.h>
#include <stdint.h>
#include <string.h>

#include "kernels/f32-gemm/ukernels.h"

static inline void store_row(float *c, size_t nc, __m256 v0, __m256 v1, __m256 lo, __m256 hi) {
  v0 = _mm256_min_ps(_mm256_max_ps(v0, lo), hi);
  v1 = _mm256_min_ps(_mm256_max_ps(v1, lo), hi);
  if (nc >= 16) {
    _mm256_storeu_ps(c, v0);
    _mm256_storeu_ps(c + 8, v1);
    return;
  }
  float t[16];
  _mm256_storeu_ps(t, v0);
  _mm256_storeu_ps(t + 8, v1);
  memcpy(c, t, nc * sizeof(float));
}

TFCC_F32_GEMM_DECL(tfcc_f32_gemm_6x16_avx2) {
  (void)pf;
  (void)pf_lines;
  const float *a0 = a[0] + a_off, *a1 = a[1] + a_off, *a2 = a[2] + a_off;
  const float *a3 = a[3] + a_off, *a4 = a[4] + a_off, *a5 = a[5] + a_off;
  float t[6][16];
  const float *i0 = tfcc_f32_gemm_row_init(t[0], 16, bias, c, nc);
  const float *i1 = tfcc_f32_gemm_row_init(t[1], 16, bias, mr > 1 ? c + c_stride : NULL, nc);
  const float *i2 = tfcc_f32_gemm_row_init(t[2], 16, bias, mr > 2 ? c + 2 * c_stride : NULL, nc);
  const float *i3 = tfcc_f32_gemm_row_init(t[3], 16, bias, mr > 3 ? c + 3 * c_stride : NULL, nc);
  const float *i4 = tfcc_f32_gemm_row_init(t[4], 16, bias, mr > 4 ? c + 4 * c_stride : NULL, nc);
  const float *i5 = tfcc_f32_gemm_row_init(t[5], 16, bias, mr > 5 ? c + 5 * c_stride : NULL, nc);
  __m256 c00 = _mm256_loadu_ps(i0), c01 = _mm256_loadu_ps(i0 + 8);
  __m256 c10 = _mm256_loadu_ps(i1), c11 = _mm256_loadu_ps(i1 + 8);
  __m256 c20 = _mm256_loadu_ps(i2), c21 = _mm256_loadu_ps(i2 + 8);
  __m256 c30 = _mm256_loadu_ps(i3), c31 = _mm256_loadu_ps(i3 + 8);
  __m256 c40 = _mm256_loadu_ps(i4), c41 = _mm256_loadu_ps(i4 + 8);
  __m256 c50 = _mm256_loadu_ps(i5), c51 = _mm256_loadu_ps(i5 + 8);
  for (size_t k = 0; k < kc; k++) {
    const __m256 b0 = _mm256_load_ps(w), b1 = _mm256_load_ps(w + 8);
    w += 16;
    __m256 v = _mm256_broadcast_ss(a0 + k);
    c00 = _mm256_fmadd_ps(v, b0, c00);
    c01 = _mm256_fmadd_ps(v, b1, c01);
    v = _mm256_broadcast_ss(a1 + k);
    c10 = _mm256_fmadd_ps(v, b0, c10);
    c11 = _mm256_fmadd_ps(v, b1, c11);
    v = _mm256_broadcast_ss(a2 + k);
    c20 = _mm256_fmadd_ps(v, b0, c20);
    c21 = _mm256_fmadd_ps(v, b1, c21);
    v = _mm256_broadcast_ss(a3 + k);
    c30 = _mm256_fmadd_ps(v, b0, c30);
    c31 = _mm256_fmadd_ps(v, b1, c31);
    v = _mm256_broadcast_ss(a4 + k);
    c40 = _mm256_fmadd_ps(v, b0, c40);
    c41 = _mm256_fmadd_ps(v, b1, c41);
    v = _mm256_broadcast_ss(a5 + k);
    c50 = _mm256_fmadd_ps(v, b0, c50);
    c51 = _mm256_fmadd_ps(v, b1, c51);
  }
  const __m256 vlo = _mm256_set1_ps(lo), vhi = _mm256_set1_ps(hi);
  store_row(c, nc, c00, c01, vlo, vhi);
  if (mr > 1) store_row(c + c_stride, nc, c10, c11, vlo, vhi);
  if (mr > 2) store_row(c + 2 * c_stride, nc, c20, c21, vlo, vhi);
  if (mr > 3) store_row(c + 3 * c_stride, nc, c30, c31, vlo, vhi);
  if (mr > 4) store_row(c + 4 * c_stride, nc, c40, c41, vlo, vhi);
  if (mr > 5) store_row(c + 5 * c_stride, nc, c50, c51, vlo, vhi);
}

TFCC_F32_GEMM_DECL(tfcc_f32_gemm_1x16_avx2) {
  (void)pf;
  (void)pf_lines;
  (void)mr;
  (void)c_stride;
  const float *a0 = a[0] + a_off;
  float t[16];
  const float *i0 = tfcc_f32_gemm_row_init(t, 16, bias, c, nc);
  __m256 c00 = _mm256_loadu_ps(i0), c01 = _mm256_loadu_ps(i0 + 8);
  /* one chain per column vector, k in order: the same sums, bit for bit, as the 6-row tile
   * (a row's result does not depend on how many rows run with it) */
  for (size_t k = 0; k < kc; k++) {
    const __m256 v = _mm256_broadcast_ss(a0 + k);
    c00 = _mm256_fmadd_ps(v, _mm256_load_ps(w), c00);
    c01 = _mm256_fmadd_ps(v, _mm256_load_ps(w + 8), c01);
    w += 16;
  }
  store_row(c, nc, c00, c01, _mm256_set1_ps(lo), _mm256_set1_ps(hi));
}

/* Residual epilogue (gemm.h): 8 columns per vector, the tail in scalars; the clamp as the
 * f32-vbinary kernels do it, min(hi, max(lo, v)) (MAXPS/MINPS return v when it is NaN). */
TFCC_F32_GEMM_RES_DECL(tfcc_f32_gemm_res_avx2) {
  const __m256 vlo = _mm256_set1_ps(lo), vhi = _mm256_set1_ps(hi);
  for (size_t i = 0; i < mr; i++, c += c_stride, r += r_stride) {
    size_t j = 0;
    for (; j + 8 <= nc; j += 8) {
      const __m256 v = _mm256_add_ps(_mm256_loadu_ps(c + j), _mm256_loadu_ps(r + j));
      _mm256_storeu_ps(c + j, _mm256_min_ps(vhi, _mm256_max_ps(vlo, v)));
    }
    for (; j < nc; j++) {
      float v = c[j] + r[j];
      v = v < lo ? lo : v;
      c[j] = hi < v ? hi : v;
    }
  }
}
