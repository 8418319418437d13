/* q16-gemm vector primitives (gemm_body.h lists them), AVX-512BW: VPMADDWD on 16 lanes (built
 * with AVX512-VNNI: VPDPWSSD, the multiply-add and the sum in one; no lane can wrap, as in
 * gemm.h). */
#ifndef TFCC_KERNELS_Q16_GEMM_Q16V_AVX512_H
#define TFCC_KERNELS_Q16_GEMM_Q16V_AVX512_H

#include <immintrin.h>
#include <stdint.h>
#include <string.h>

#include "kernels/q16-gemm/gemm.h"
#include "kernels/simd/q16rqi_avx512.h"

typedef __m512i q16v;
typedef __m512i q16x;
typedef __m512i q16w;
#define Q16V_N 16

static inline q16v q16v_zero(void) { return _mm512_setzero_si512(); }
static inline q16w q16v_ldw(const int16_t *p) { return _mm512_loadu_si512((const void *)p); }
static inline q16x q16x_pair(const int16_t *p) {
  int32_t v;
  memcpy(&v, p, sizeof v);
  return _mm512_set1_epi32(v);
}
static inline q16x q16x_one(const int16_t *p) { return _mm512_set1_epi32((int32_t)(uint16_t)*p); }
static inline q16v q16v_madd(q16v acc, q16x x, q16w w) {
#if defined(__AVX512VNNI__)
  return _mm512_dpwssd_epi32(acc, x, w); /* the avx512vnni build: VPDPWSSD, one instruction */
#else
  return _mm512_add_epi32(acc, _mm512_madd_epi16(x, w));
#endif
}
static inline void q16v_st(int32_t *p, q16v v) { _mm512_storeu_si512((void *)p, v); }
static inline q16v q16v_ld32(const int32_t *p) { return _mm512_loadu_si512((const void *)p); }
static inline void q16v_st16(int16_t *p, q16v v, int n) {
  if (n == 16)
    _mm256_storeu_si256((__m256i *)(void *)p, _mm512_cvtepi32_epi16(v));
  else
    _mm512_mask_cvtepi32_storeu_epi16(p, (__mmask16)((1u << n) - 1), v);
}
/* + offset, the activation clamp */
static inline q16v q16v_rq_end(q16v v, const tfcc_q16_gemm_rq *r) {
  return tfcc_q16rq_end(v, r->offset, r->act_min, r->act_max);
}
/* the integer mode (q16rqi_avx512.h) */
static inline q16v q16v_rqi(q16v s, const tfcc_q16_gemm_rq *r, int n0) {
  return q16v_rq_end(tfcc_q16rqi(s, r->mult + n0, r->bm + n0, r->shift + n0), r);
}
/* the real mode on 8 channels at n0 (a = s + b32 wrapped): round half away from zero as the
 * truncation plus one away from zero where the dropped part is at least 1/2 (exact in double) */
static inline __m256i q16v_rqr8(__m256i a, const tfcc_q16_gemm_rq *r, int n0) {
  __m512d x = _mm512_add_pd(_mm512_cvtepi32_pd(a), _mm512_loadu_pd(r->bias + n0));
  x = _mm512_mul_pd(x, _mm512_loadu_pd(r->rscale + n0));
  __m512d t = _mm512_roundscale_pd(x, _MM_FROUND_TO_ZERO | _MM_FROUND_NO_EXC);
  const __mmask8 up =
      _mm512_cmp_pd_mask(_mm512_abs_pd(_mm512_sub_pd(x, t)), _mm512_set1_pd(0.5), _CMP_GE_OQ);
  const __m512i one = _mm512_castpd_si512(_mm512_set1_pd(1.0));
  const __m512i sign = _mm512_and_si512(_mm512_castpd_si512(x), _mm512_set1_epi64(INT64_MIN));
  t = _mm512_mask_add_pd(t, up, t, _mm512_castsi512_pd(_mm512_or_si512(one, sign)));
  t = _mm512_min_pd(_mm512_max_pd(t, _mm512_set1_pd(-2147483648.0)), _mm512_set1_pd(2147483647.0));
  return _mm512_cvttpd_epi32(t);
}
static inline q16v q16v_rqr(q16v s, const tfcc_q16_gemm_rq *r, int n0) {
  const __m512i a = _mm512_add_epi32(s, _mm512_loadu_si512(r->b32 + n0));
  const __m256i lo = q16v_rqr8(_mm512_castsi512_si256(a), r, n0);
  const __m256i hi = q16v_rqr8(_mm512_extracti64x4_epi64(a, 1), r, n0 + 8);
  return q16v_rq_end(_mm512_inserti64x4(_mm512_castsi256_si512(lo), hi, 1), r);
}

#endif
