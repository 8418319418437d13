/* The q16 integer-mode requantization (q16rqi.h lists it), AVX-512F: VPMULDQ, + bm, VPSRAVQ. */
#ifndef TFCC_KERNELS_SIMD_Q16RQI_AVX512_H
#define TFCC_KERNELS_SIMD_Q16RQI_AVX512_H

#include <immintrin.h>
#include <stdint.h>

#include "kernels/simd/q16rqi.h"

/* 8 int64 lanes */
static inline __m512i tfcc_q16rqi64(__m512i a, const int64_t *mult, const int64_t *bm,
                                    const int64_t *shift) {
  const __m512i x = _mm512_add_epi64(_mm512_mul_epi32(a, _mm512_loadu_si512((const void *)mult)),
                                     _mm512_loadu_si512((const void *)bm));
  return _mm512_srav_epi64(x, _mm512_loadu_si512((const void *)shift));
}
/* 16 int32 sums */
static inline __m512i tfcc_q16rqi(__m512i s, const int64_t *mult, const int64_t *bm,
                                  const int64_t *shift) {
  const __m256i lo = _mm512_cvtepi64_epi32(
      tfcc_q16rqi64(_mm512_cvtepi32_epi64(_mm512_castsi512_si256(s)), mult, bm, shift));
  const __m256i hi = _mm512_cvtepi64_epi32(tfcc_q16rqi64(
      _mm512_cvtepi32_epi64(_mm512_extracti64x4_epi64(s, 1)), mult + 8, bm + 8, shift + 8));
  return _mm512_inserti64x4(_mm512_castsi256_si512(lo), hi, 1);
}
static inline __m512i tfcc_q16rq_end(__m512i v, int32_t offset, int32_t act_min, int32_t act_max) {
  v = _mm512_add_epi32(v, _mm512_set1_epi32(offset));
  return _mm512_min_epi32(_mm512_max_epi32(v, _mm512_set1_epi32(act_min)),
                          _mm512_set1_epi32(act_max));
}

#endif
