/* bf16 GEMM micro-kernels, AVX512-BF16: 8 rows x 32 columns (16 zmm accumulators), 8 x 16 for
 * half-empty panels, 1 x 32 (GEMV). Per k pair: two panel loads (32 columns x 2 bf16), eight
 * 32-bit broadcasts of A pairs (embedded in vdpbf16ps), sixteen vdpbf16ps. Bias initialises
 * the accumulators; clamp and masked stores in the epilogue. Also the vector float32 -> bf16
 * conversion (vcvtne2ps2bf16: round to nearest even, subnormals to zero). */
#include <immintrin.h>
#include <stdint.h>
#include <string.h>

#include "kernels/bf16-gemm/ukernels.h"

static inline __m512bh pair(const uint16_t *p) {
  int32_t v;
  memcpy(&v, p, sizeof v);
  return (__m512bh)_mm512_set1_epi32(v);
}

static inline __m512bh ld(const uint16_t *p) { return (__m512bh)_mm512_load_si512(p); }

static inline __m512 clamp(__m512 v, __m512 lo, __m512 hi) {
  return _mm512_min_ps(_mm512_max_ps(v, lo), hi);
}

static inline void store_row(float *c, size_t nc, __m512 v0, __m512 v1, __m512 lo, __m512 hi) {
  v0 = clamp(v0, lo, hi);
  v1 = clamp(v1, lo, hi);
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

TFCC_BF16_GEMM_DECL(tfcc_bf16_gemm_8x32_avx512bf16) {
  const float *bias = w;
  const uint16_t *b = (const uint16_t *)(const void *)(bias + 32);
  const uint16_t *a0 = a;
  const uint16_t *a1 = mr > 1 ? a0 + a_stride : a0, *a2 = mr > 2 ? a1 + a_stride : a0;
  const uint16_t *a3 = mr > 3 ? a2 + a_stride : a0, *a4 = mr > 4 ? a3 + a_stride : a0;
  const uint16_t *a5 = mr > 5 ? a4 + a_stride : a0, *a6 = mr > 6 ? a5 + a_stride : a0;
  const uint16_t *a7 = mr > 7 ? a6 + a_stride : a0;
  __m512 c00 = _mm512_load_ps(bias), c01 = _mm512_load_ps(bias + 16);
  __m512 c10 = c00, c11 = c01, c20 = c00, c21 = c01, c30 = c00, c31 = c01;
  __m512 c40 = c00, c41 = c01, c50 = c00, c51 = c01, c60 = c00, c61 = c01;
  __m512 c70 = c00, c71 = c01;
  for (size_t k = 0; k < kp; k++, b += 64) {
    const __m512bh b0 = ld(b), b1 = ld(b + 32);
    const size_t o = 2 * k;
    __m512bh v = pair(a0 + o);
    c00 = _mm512_dpbf16_ps(c00, v, b0);
    c01 = _mm512_dpbf16_ps(c01, v, b1);
    v = pair(a1 + o);
    c10 = _mm512_dpbf16_ps(c10, v, b0);
    c11 = _mm512_dpbf16_ps(c11, v, b1);
    v = pair(a2 + o);
    c20 = _mm512_dpbf16_ps(c20, v, b0);
    c21 = _mm512_dpbf16_ps(c21, v, b1);
    v = pair(a3 + o);
    c30 = _mm512_dpbf16_ps(c30, v, b0);
    c31 = _mm512_dpbf16_ps(c31, v, b1);
    v = pair(a4 + o);
    c40 = _mm512_dpbf16_ps(c40, v, b0);
    c41 = _mm512_dpbf16_ps(c41, v, b1);
    v = pair(a5 + o);
    c50 = _mm512_dpbf16_ps(c50, v, b0);
    c51 = _mm512_dpbf16_ps(c51, v, b1);
    v = pair(a6 + o);
    c60 = _mm512_dpbf16_ps(c60, v, b0);
    c61 = _mm512_dpbf16_ps(c61, v, b1);
    v = pair(a7 + o);
    c70 = _mm512_dpbf16_ps(c70, v, b0);
    c71 = _mm512_dpbf16_ps(c71, v, b1);
  }
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

/* 8 rows x the first 16 columns of a 32-column panel (nc <= 16). */
TFCC_BF16_GEMM_DECL(tfcc_bf16_gemm_8x16_avx512bf16) {
  const float *bias = w;
  const uint16_t *b = (const uint16_t *)(const void *)(bias + 32);
  const uint16_t *a0 = a;
  const uint16_t *a1 = mr > 1 ? a0 + a_stride : a0, *a2 = mr > 2 ? a1 + a_stride : a0;
  const uint16_t *a3 = mr > 3 ? a2 + a_stride : a0, *a4 = mr > 4 ? a3 + a_stride : a0;
  const uint16_t *a5 = mr > 5 ? a4 + a_stride : a0, *a6 = mr > 6 ? a5 + a_stride : a0;
  const uint16_t *a7 = mr > 7 ? a6 + a_stride : a0;
  __m512 c0 = _mm512_load_ps(bias);
  __m512 c1 = c0, c2 = c0, c3 = c0, c4 = c0, c5 = c0, c6 = c0, c7 = c0;
  for (size_t k = 0; k < kp; k++, b += 64) {
    const __m512bh b0 = ld(b);
    const size_t o = 2 * k;
    c0 = _mm512_dpbf16_ps(c0, pair(a0 + o), b0);
    c1 = _mm512_dpbf16_ps(c1, pair(a1 + o), b0);
    c2 = _mm512_dpbf16_ps(c2, pair(a2 + o), b0);
    c3 = _mm512_dpbf16_ps(c3, pair(a3 + o), b0);
    c4 = _mm512_dpbf16_ps(c4, pair(a4 + o), b0);
    c5 = _mm512_dpbf16_ps(c5, pair(a5 + o), b0);
    c6 = _mm512_dpbf16_ps(c6, pair(a6 + o), b0);
    c7 = _mm512_dpbf16_ps(c7, pair(a7 + o), b0);
  }
  const __m512 vlo = _mm512_set1_ps(lo), vhi = _mm512_set1_ps(hi);
  const __mmask16 m = (__mmask16)(nc >= 16 ? 0xFFFFu : (1u << nc) - 1u);
  _mm512_mask_storeu_ps(c, m, clamp(c0, vlo, vhi));
  if (mr > 1) _mm512_mask_storeu_ps(c + c_stride, m, clamp(c1, vlo, vhi));
  if (mr > 2) _mm512_mask_storeu_ps(c + 2 * c_stride, m, clamp(c2, vlo, vhi));
  if (mr > 3) _mm512_mask_storeu_ps(c + 3 * c_stride, m, clamp(c3, vlo, vhi));
  if (mr > 4) _mm512_mask_storeu_ps(c + 4 * c_stride, m, clamp(c4, vlo, vhi));
  if (mr > 5) _mm512_mask_storeu_ps(c + 5 * c_stride, m, clamp(c5, vlo, vhi));
  if (mr > 6) _mm512_mask_storeu_ps(c + 6 * c_stride, m, clamp(c6, vlo, vhi));
  if (mr > 7) _mm512_mask_storeu_ps(c + 7 * c_stride, m, clamp(c7, vlo, vhi));
}

/* One row (GEMV: FULLY_CONNECTED at batch 1): weight-bandwidth bound, so two accumulator
 * pairs over alternate k pairs keep the loads going. */
TFCC_BF16_GEMM_DECL(tfcc_bf16_gemm_1x32_avx512bf16) {
  (void)mr;
  (void)a_stride;
  (void)c_stride;
  const float *bias = w;
  const uint16_t *b = (const uint16_t *)(const void *)(bias + 32);
  __m512 c0 = _mm512_load_ps(bias), c1 = _mm512_load_ps(bias + 16);
  __m512 d0 = _mm512_setzero_ps(), d1 = _mm512_setzero_ps();
  size_t k = 0;
  for (; k + 2 <= kp; k += 2, b += 128) {
    __m512bh v = pair(a + 2 * k);
    c0 = _mm512_dpbf16_ps(c0, v, ld(b));
    c1 = _mm512_dpbf16_ps(c1, v, ld(b + 32));
    v = pair(a + 2 * k + 2);
    d0 = _mm512_dpbf16_ps(d0, v, ld(b + 64));
    d1 = _mm512_dpbf16_ps(d1, v, ld(b + 96));
  }
  if (k < kp) {
    const __m512bh v = pair(a + 2 * k);
    c0 = _mm512_dpbf16_ps(c0, v, ld(b));
    c1 = _mm512_dpbf16_ps(c1, v, ld(b + 32));
  }
  store_row(c, nc, _mm512_add_ps(c0, d0), _mm512_add_ps(c1, d1), _mm512_set1_ps(lo),
            _mm512_set1_ps(hi));
}

void tfcc_bf16_cvt_avx512bf16(const float *src, uint16_t *dst, size_t n) {
  size_t i = 0;
  for (; i + 32 <= n; i += 32) {
    const __m512bh v = _mm512_cvtne2ps_pbh(_mm512_loadu_ps(src + i + 16), _mm512_loadu_ps(src + i));
    _mm512_storeu_si512(dst + i, (__m512i)v);
  }
  if (i + 16 <= n) {
    _mm256_storeu_si256((__m256i *)(void *)(dst + i),
                        (__m256i)_mm512_cvtneps_pbh(_mm512_loadu_ps(src + i)));
    i += 16;
  }
  if (i < n) {
    const __mmask16 m = (__mmask16)((1u << (n - i)) - 1u);
    const __m256i v = (__m256i)_mm512_cvtneps_pbh(_mm512_maskz_loadu_ps(m, src + i));
    _mm256_mask_storeu_epi16(dst + i, m, v);
  }
}
