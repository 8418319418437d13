/* q16-dot GEMV primitives (gemv_body.h lists them), AVX2: VPMADDWD on 16 int16. */
#ifndef TFCC_KERNELS_Q16_DOT_Q16D_AVX2_H
#define TFCC_KERNELS_Q16_DOT_Q16D_AVX2_H

#include <immintrin.h>
#include <stdint.h>

typedef __m256i q16dv;
typedef __m256i q16dx;
#define Q16D_N 16

static inline q16dv q16d_zero(void) { return _mm256_setzero_si256(); }
static inline q16dx q16d_ldx(const int16_t *p) {
  return _mm256_loadu_si256((const __m256i *)(const void *)p);
}
static inline q16dx q16d_ldw(const int8_t *p) {
  return _mm256_cvtepi8_epi16(_mm_loadu_si128((const __m128i *)(const void *)p));
}
static inline q16dv q16d_madd(q16dv acc, q16dx x, q16dx w) {
  return _mm256_add_epi32(acc, _mm256_madd_epi16(x, w));
}
static inline int64_t q16d_sum(q16dv v) {
  const __m256i s = _mm256_add_epi64(_mm256_cvtepi32_epi64(_mm256_castsi256_si128(v)),
                                     _mm256_cvtepi32_epi64(_mm256_extracti128_si256(v, 1)));
  const __m128i h = _mm_add_epi64(_mm256_castsi256_si128(s), _mm256_extracti128_si256(s, 1));
  return _mm_cvtsi128_si64(h) + _mm_extract_epi64(h, 1);
}

#endif
