/* f32 GEMM micro-kernels, AVX-512F: 8 rows x 32 columns (16 zmm accumulators) and 1 x 32.
 * Per k: two panel loads, eight broadcasts from A, sixteen FMAs. Bias, clamp and masked
 * stores in the epilogue. */
#include <immintrin.h>
#include <stdint.h>

#include "kernels/f32-gemm/ukernels.h"

static inline void store_row(float *c, size_t nc, __m512 v0, __m512 v1, __m512 lo, __m512 hi) {
  v0 = _mm512_min_ps(_mm512_max_ps(v0, lo), hi);
  v1 = _mm512_min_ps(_mm512_max_ps(v1, lo), hi);
  if (nc >= 32) {
    _mm512_storeu_ps(c, v0);
    _mm512_storeu_ps(c + 16, v1);
  } else if (nc >= 16) {
    _mm512_storeu_ps(c, v0);
    _mm512_mask_storeu_ps(c + 16, (__mmask16)((1u << (nc - 16)) - 1u), v1);
  } else {
    _mm512_mask_storeu_ps(c, (__mmask16)((1u << nc) - 1u), v0);
  }
}

TFCC_F32_GEMM_DECL(tfcc_f32_gemm_8x32_avx512) {
  const float *a0 = a[0], *a1 = a[1], *a2 = a[2], *a3 = a[3];
  const float *a4 = a[4], *a5 = a[5], *a6 = a[6], *a7 = a[7];
  __m512 c00 = _mm512_load_ps(w), c01 = _mm512_load_ps(w + 16);
  __m512 c10 = c00, c11 = c01, c20 = c00, c21 = c01, c30 = c00, c31 = c01;
  __m512 c40 = c00, c41 = c01, c50 = c00, c51 = c01, c60 = c00, c61 = c01;
  __m512 c70 = c00, c71 = c01;
  w += 32;
#define STEP(k)                                                                  \
  do {                                                                           \
    const __m512 b0 = _mm512_load_ps(w + (k) * 32), b1 = _mm512_load_ps(w + (k) * 32 + 16); \
    __m512 v = _mm512_set1_ps(a0[k]);                                            \
    c00 = _mm512_fmadd_ps(v, b0, c00); c01 = _mm512_fmadd_ps(v, b1, c01);        \
    v = _mm512_set1_ps(a1[k]);                                                   \
    c10 = _mm512_fmadd_ps(v, b0, c10); c11 = _mm512_fmadd_ps(v, b1, c11);        \
    v = _mm512_set1_ps(a2[k]);                                                   \
    c20 = _mm512_fmadd_ps(v, b0, c20); c21 = _mm512_fmadd_ps(v, b1, c21);        \
    v = _mm512_set1_ps(a3[k]);                                                   \
    c30 = _mm512_fmadd_ps(v, b0, c30); c31 = _mm512_fmadd_ps(v, b1, c31);        \
    v = _mm512_set1_ps(a4[k]);                                                   \
    c40 = _mm512_fmadd_ps(v, b0, c40); c41 = _mm512_fmadd_ps(v, b1, c41);        \
    v = _mm512_set1_ps(a5[k]);                                                   \
    c50 = _mm512_fmadd_ps(v, b0, c50); c51 = _mm512_fmadd_ps(v, b1, c51);        \
    v = _mm512_set1_ps(a6[k]);                                                   \
    c60 = _mm512_fmadd_ps(v, b0, c60); c61 = _mm512_fmadd_ps(v, b1, c61);        \
    v = _mm512_set1_ps(a7[k]);                                                   \
    c70 = _mm512_fmadd_ps(v, b0, c70); c71 = _mm512_fmadd_ps(v, b1, c71);        \
  } while (0)
  size_t k = 0;
  for (; k + 4 <= kc; k += 4) {
    STEP(0);
    STEP(1);
    STEP(2);
    STEP(3);
    a0 += 4; a1 += 4; a2 += 4; a3 += 4; a4 += 4; a5 += 4; a6 += 4; a7 += 4;
    w += 128;
  }
  for (; k < kc; k++) {
    STEP(0);
    a0++; a1++; a2++; a3++; a4++; a5++; a6++; a7++;
    w += 32;
  }
#undef STEP
  const __m512 vlo = _mm512_set1_ps(lo), vhi = _mm512_set1_ps(hi);
  store_row(c, nc, c00, c01, vlo, vhi);
  if (mr > 1) store_row(c + c_stride, nc, c10, c11, vlo, vhi);
  if (mr > 2) store_row(c + 2 * c_stride, nc, c20, c21, vlo, vhi);
  if (mr > 3) store_row(c + 3 * c_stride, nc, c30, c31, vlo, vhi);
  if (mr > 4) store_row(c + 4 * c_stride, nc, c40, c41, vlo, vhi);
  if (mr > 5) store_row(c + 5 * c_stride, nc, c50, c51, vlo, vhi);
  if (mr > 6) store_row(c + 6 * c_stride, nc, c60, c61, vlo, vhi);
  if (mr > 7) store_row(c + 7 * c_stride, nc, c70, c71, vlo, vhi);
}

TFCC_F32_GEMM_DECL(tfcc_f32_gemm_1x32_avx512) {
  (void)mr;
  (void)c_stride;
  const float *a0 = a[0];
  __m512 c00 = _mm512_load_ps(w), c01 = _mm512_load_ps(w + 16);
  __m512 d00 = _mm512_setzero_ps(), d01 = _mm512_setzero_ps();
  w += 32;
  size_t k = 0;
  for (; k + 2 <= kc; k += 2) {
    __m512 v = _mm512_set1_ps(a0[k]);
    c00 = _mm512_fmadd_ps(v, _mm512_load_ps(w), c00);
    c01 = _mm512_fmadd_ps(v, _mm512_load_ps(w + 16), c01);
    v = _mm512_set1_ps(a0[k + 1]);
    d00 = _mm512_fmadd_ps(v, _mm512_load_ps(w + 32), d00);
    d01 = _mm512_fmadd_ps(v, _mm512_load_ps(w + 48), d01);
    w += 64;
  }
  if (k < kc) {
    const __m512 v = _mm512_set1_ps(a0[k]);
    c00 = _mm512_fmadd_ps(v, _mm512_load_ps(w), c00);
    c01 = _mm512_fmadd_ps(v, _mm512_load_ps(w + 16), c01);
  }
  store_row(c, nc, _mm512_add_ps(c00, d00), _mm512_add_ps(c01, d01), _mm512_set1_ps(lo),
            _mm512_set1_ps(hi));
}

/* 8 rows x the first 16 columns of a 32-column panel (nc <= 16): eight accumulators, one
 * panel load and eight broadcasts per k; half the FMAs of the 8x32 tile on half-empty panels
 * (N = 16 layers, N tails of 16 or fewer). */
TFCC_F32_GEMM_DECL(tfcc_f32_gemm_8x16_avx512) {
  const float *a0 = a[0], *a1 = a[1], *a2 = a[2], *a3 = a[3];
  const float *a4 = a[4], *a5 = a[5], *a6 = a[6], *a7 = a[7];
  __m512 c0 = _mm512_load_ps(w);
  __m512 c1 = c0, c2 = c0, c3 = c0, c4 = c0, c5 = c0, c6 = c0, c7 = c0;
  w += 32;
#define STEP(k)                                                  \
  do {                                                           \
    const __m512 b = _mm512_load_ps(w + (k) * 32);               \
    c0 = _mm512_fmadd_ps(_mm512_set1_ps(a0[k]), b, c0);          \
    c1 = _mm512_fmadd_ps(_mm512_set1_ps(a1[k]), b, c1);          \
    c2 = _mm512_fmadd_ps(_mm512_set1_ps(a2[k]), b, c2);          \
    c3 = _mm512_fmadd_ps(_mm512_set1_ps(a3[k]), b, c3);          \
    c4 = _mm512_fmadd_ps(_mm512_set1_ps(a4[k]), b, c4);          \
    c5 = _mm512_fmadd_ps(_mm512_set1_ps(a5[k]), b, c5);          \
    c6 = _mm512_fmadd_ps(_mm512_set1_ps(a6[k]), b, c6);          \
    c7 = _mm512_fmadd_ps(_mm512_set1_ps(a7[k]), b, c7);          \
  } while (0)
  size_t k = 0;
  for (; k + 4 <= kc; k += 4) {
    STEP(0);
    STEP(1);
    STEP(2);
    STEP(3);
    a0 += 4; a1 += 4; a2 += 4; a3 += 4; a4 += 4; a5 += 4; a6 += 4; a7 += 4;
    w += 128;
  }
  for (; k < kc; k++) {
    STEP(0);
    a0++; a1++; a2++; a3++; a4++; a5++; a6++; a7++;
    w += 32;
  }
#undef STEP
  const __m512 vlo = _mm512_set1_ps(lo), vhi = _mm512_set1_ps(hi);
  const __mmask16 m = (__mmask16)(nc >= 16 ? 0xFFFFu : (1u << nc) - 1u);
#define ST(r, v) _mm512_mask_storeu_ps(c + (r) * c_stride, m, _mm512_min_ps(_mm512_max_ps(v, vlo), vhi))
  ST(0, c0);
  if (mr > 1) ST(1, c1);
  if (mr > 2) ST(2, c2);
  if (mr > 3) ST(3, c3);
  if (mr > 4) ST(4, c4);
  if (mr > 5) ST(5, c5);
  if (mr > 6) ST(6, c6);
  if (mr > 7) ST(7, c7);
#undef ST
}
