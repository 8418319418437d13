/* bf16 GEMM micro-kernels, AVX512-BF16: 8 rows x 32 columns (16 zmm accumulators), 8 x 16 for
 * half-empty panels, 1 x 32 (GEMV). Per k pair: two panel loads (32 columns x 2 bf16), eight
 * 32-bit broadcasts of A pairs (embedded in vdpbf16ps), sixteen vdpbf16ps. Bias initialises
 * the accumulators; clamp and masked stores in the epilogue. Also the vector float32 -> bf16
 * conversion (vcvtne2ps2bf16: round to nearest even, subnormals to zero). */
#include <immintrin.h>
#include <stdint.h>
#include <string.h>

#include "kernels/bf16-gemm/ukernels.h"
#include "kernels/simd/f32v_avx512.h"
#include "kernels/simd/f32v_row.h"

static inline __m512bh pair(const uint16_t *p) {
  int32_t v;
  memcpy(&v, p, sizeof v);
  return (__m512bh)_mm512_set1_epi32(v);
}

static inline __m512bh ld(const uint16_t *p) { return (__m512bh)_mm512_load_si512(p); }

/* Rows 1..7 of a tile (row 0 is always there): X(r) per row. Row r reads A at a<r> (row 0's
 * when r >= mr, so that every load stays inside A), its accumulators are named variables. */
#define ROWS_1_7(X) X(1) X(2) X(3) X(4) X(5) X(6) X(7)
#define A_ROW(r) const uint16_t *a##r = mr > (r) ? a0 + (r)*a_stride : a0;

#define INIT32(r) __m512 c##r##0 = c00, c##r##1 = c01;
#define STEP32(r) \
  { \
    const __m512bh v = pair(a##r + o); \
    c##r##0 = _mm512_dpbf16_ps(c##r##0, v, b0); \
    c##r##1 = _mm512_dpbf16_ps(c##r##1, v, b1); \
  }
#define STORE32(r) \
  if (mr > (r)) f32v_st2_clamp(c + (r)*c_stride, nc, c##r##0, c##r##1, vlo, vhi);

TFCC_BF16_GEMM_DECL(tfcc_bf16_gemm_8x32_avx512bf16) {
  const float *bias = w;
  const uint16_t *b = (const uint16_t *)(const void *)(bias + 32);
  const uint16_t *a0 = a;
  ROWS_1_7(A_ROW)
  __m512 c00 = _mm512_load_ps(bias), c01 = _mm512_load_ps(bias + 16);
  ROWS_1_7(INIT32)
  for (size_t k = 0; k < kp; k++, b += 64) {
    const __m512bh b0 = ld(b), b1 = ld(b + 32);
    const size_t o = 2 * k;
    STEP32(0)
    ROWS_1_7(STEP32)
  }
  const __m512 vlo = _mm512_set1_ps(lo), vhi = _mm512_set1_ps(hi);
  f32v_st2_clamp(c, nc, c00, c01, vlo, vhi);
  ROWS_1_7(STORE32)
}

#define INIT16(r) __m512 c##r = c0;
#define STEP16(r) c##r = _mm512_dpbf16_ps(c##r, pair(a##r + o), b0);
#define STORE16(r) \
  if (mr > (r)) _mm512_mask_storeu_ps(c + (r)*c_stride, m, f32v_clamp(c##r, vlo, vhi));

/* 8 rows x the first 16 columns of a 32-column panel (nc <= 16). */
TFCC_BF16_GEMM_DECL(tfcc_bf16_gemm_8x16_avx512bf16) {
  const float *bias = w;
  const uint16_t *b = (const uint16_t *)(const void *)(bias + 32);
  const uint16_t *a0 = a;
  ROWS_1_7(A_ROW)
  __m512 c0 = _mm512_load_ps(bias);
  ROWS_1_7(INIT16)
  for (size_t k = 0; k < kp; k++, b += 64) {
    const __m512bh b0 = ld(b);
    const size_t o = 2 * k;
    STEP16(0)
    ROWS_1_7(STEP16)
  }
  const __m512 vlo = _mm512_set1_ps(lo), vhi = _mm512_set1_ps(hi);
  const __mmask16 m = (__mmask16)(nc >= 16 ? 0xFFFFu : (1u << nc) - 1u);
  _mm512_mask_storeu_ps(c, m, f32v_clamp(c0, vlo, vhi));
  ROWS_1_7(STORE16)
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
  f32v_st2_clamp(c, nc, _mm512_add_ps(c0, d0), _mm512_add_ps(c1, d1), _mm512_set1_ps(lo),
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
