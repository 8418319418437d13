/* q16-dot GEMV primitives (gemv_body.h lists them), AVX-512BW: VPMADDWD on 32 int16. */
#ifndef TFCC_KERNELS_Q16_DOT_Q16D_AVX512_H
#define TFCC_KERNELS_Q16_DOT_Q16D_AVX512_H

#include <immintrin.h>
#include <stdint.h>

typedef __m512i q16dv;
typedef __m512i q16dx;
#define Q16D_N 32

static inline q16dv q16d_zero(void) { return _mm512_setzero_si512(); }
static inline q16dx q16d_ldx(const int16_t *p) { return _mm512_loadu_si512((const void *)p); }
static inline q16dx q16d_ldw(const int8_t *p) {
  return _mm512_cvtepi8_epi16(_mm256_loadu_si256((const __m256i *)(const void *)p));
}
static inline q16dv q16d_madd(q16dv acc, q16dx x, q16dx w) {
  return _mm512_add_epi32(acc, _mm512_madd_epi16(x, w));
}
static inline int64_t q16d_sum(q16dv v) {
  const __m512i s = _mm512_add_epi64(_mm512_cvtepi32_epi64(_mm512_castsi512_si256(v)),
                                     _mm512_cvtepi32_epi64(_mm512_extracti64x4_epi64(v, 1)));
  return _mm512_reduce_add_epi64(s);
}
/* The dot product of the first n < Q16D_N elements (masked loads: nothing read past them). */
#define Q16D_HAS_DOT_N 1
static inline int64_t q16d_dot_n(const int16_t *x, const int8_t *w, size_t n) {
  const __mmask32 m = (__mmask32)((1u << n) - 1u);
  const __m512i xv = _mm512_maskz_loadu_epi16(m, (const void *)x);
  const __m512i wv = _mm512_cvtepi8_epi16(_mm256_maskz_loadu_epi8(m, (const void *)w));
  return q16d_sum(_mm512_madd_epi16(xv, wv));
}

#endif
