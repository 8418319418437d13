/* q16-gemm vector primitives (gemm_body.h lists them), AVX2: VPMADDWD on 8 lanes. */
#ifndef TFCC_KERNELS_Q16_GEMM_Q16V_AVX2_H
#define TFCC_KERNELS_Q16_GEMM_Q16V_AVX2_H

#include <immintrin.h>
#include <stdint.h>
#include <string.h>

#include "kernels/q16-gemm/gemm.h"
#include "kernels/simd/q16rqi_avx2.h"

typedef __m256i q16v;
typedef __m256i q16x;
typedef __m256i q16w;
#define Q16V_N 8

static inline q16v q16v_zero(void) { return _mm256_setzero_si256(); }
static inline q16w q16v_ldw(const int16_t *p) {
  return _mm256_loadu_si256((const __m256i *)(const void *)p);
}
static inline q16x q16x_pair(const int16_t *p) {
  int32_t v;
  memcpy(&v, p, sizeof v);
  return _mm256_set1_epi32(v);
}
static inline q16x q16x_one(const int16_t *p) { return _mm256_set1_epi32((int32_t)(uint16_t)*p); }
static inline q16v q16v_madd(q16v acc, q16x x, q16w w) {
  return _mm256_add_epi32(acc, _mm256_madd_epi16(x, w));
}
static inline void q16v_st(int32_t *p, q16v v) { _mm256_storeu_si256((__m256i *)(void *)p, v); }
static inline q16v q16v_ld32(const int32_t *p) {
  return _mm256_loadu_si256((const __m256i *)(const void *)p);
}
/* every lane within int16 (the clamp range is): the saturating pack is exact */
static inline void q16v_st16(int16_t *p, q16v v, int n) {
  const __m128i h = _mm_packs_epi32(_mm256_castsi256_si128(v), _mm256_extracti128_si256(v, 1));
  if (n == 8) {
    _mm_storeu_si128((__m128i *)(void *)p, h);
  } else {
    int16_t t[8];
    _mm_storeu_si128((__m128i *)(void *)t, h);
    memcpy(p, t, (size_t)n * sizeof(int16_t));
  }
}
/* + offset, the activation clamp */
static inline q16v q16v_rq_end(q16v v, const tfcc_q16_gemm_rq *r) {
  return tfcc_q16rq_end(v, r->offset, r->act_min, r->act_max);
}
/* the integer mode (q16rqi_avx2.h) */
static inline q16v q16v_rqi(q16v s, const tfcc_q16_gemm_rq *r, int n0) {
  return q16v_rq_end(tfcc_q16rqi(s, r->mult + n0, r->bm + n0, r->shift + n0), r);
}
/* the real mode on 4 channels at n0 (a = s + b32 wrapped): round half away from zero as the
 * truncation plus one away from zero where the dropped part is at least 1/2 (exact in double) */
static inline __m128i q16v_rqr4(__m128i a, const tfcc_q16_gemm_rq *r, int n0) {
  __m256d x = _mm256_add_pd(_mm256_cvtepi32_pd(a), _mm256_loadu_pd(r->bias + n0));
  x = _mm256_mul_pd(x, _mm256_loadu_pd(r->rscale + n0));
  const __m256d t = _mm256_round_pd(x, _MM_FROUND_TO_ZERO | _MM_FROUND_NO_EXC);
  const __m256d sgn = _mm256_set1_pd(-0.0);
  const __m256d d = _mm256_andnot_pd(sgn, _mm256_sub_pd(x, t));
  const __m256d up = _mm256_cmp_pd(d, _mm256_set1_pd(0.5), _CMP_GE_OQ);
  const __m256d away = _mm256_or_pd(_mm256_set1_pd(1.0), _mm256_and_pd(sgn, x));
  __m256d v = _mm256_add_pd(t, _mm256_and_pd(up, away));
  v = _mm256_min_pd(_mm256_max_pd(v, _mm256_set1_pd(-2147483648.0)), _mm256_set1_pd(2147483647.0));
  return _mm256_cvttpd_epi32(v);
}
static inline q16v q16v_rqr(q16v s, const tfcc_q16_gemm_rq *r, int n0) {
  const __m256i a =
      _mm256_add_epi32(s, _mm256_loadu_si256((const __m256i *)(const void *)(r->b32 + n0)));
  const __m128i lo = q16v_rqr4(_mm256_castsi256_si128(a), r, n0);
  const __m128i hi = q16v_rqr4(_mm256_extracti128_si256(a, 1), r, n0 + 4);
  return q16v_rq_end(_mm256_inserti128_si256(_mm256_castsi128_si256(lo), hi, 1), r);
}

#endif
