/* The q16 integer-mode requantization (q16rqi.h lists it), AVX2: VPMULDQ, + bm, the arithmetic
 * shift as ~(~x >>> s) where x < 0 (AVX2 has no VPSRAVQ). */
#ifndef TFCC_KERNELS_SIMD_Q16RQI_AVX2_H
#define TFCC_KERNELS_SIMD_Q16RQI_AVX2_H

#include <immintrin.h>
#include <stdint.h>

#include "kernels/simd/q16rqi.h"

/* 4 int64 lanes */
static inline __m256i tfcc_q16rqi64(__m256i a, const int64_t *mult, const int64_t *bm,
                                    const int64_t *shift) {
  const __m256i m = _mm256_loadu_si256((const __m256i *)(const void *)mult);
  const __m256i b = _mm256_loadu_si256((const __m256i *)(const void *)bm);
  const __m256i sh = _mm256_loadu_si256((const __m256i *)(const void *)shift);
  const __m256i x = _mm256_add_epi64(_mm256_mul_epi32(a, m), b);
  const __m256i sg = _mm256_cmpgt_epi64(_mm256_setzero_si256(), x);
  return _mm256_xor_si256(_mm256_srlv_epi64(_mm256_xor_si256(x, sg), sh), sg);
}
/* the low int32 halves of lo's 4 int64 lanes, then hi's, in order */
static inline __m256i tfcc_q16rq_join(__m256i lo, __m256i hi) {
  const __m256 p =
      _mm256_shuffle_ps(_mm256_castsi256_ps(lo), _mm256_castsi256_ps(hi), _MM_SHUFFLE(2, 0, 2, 0));
  return _mm256_permute4x64_epi64(_mm256_castps_si256(p), 0xD8);
}
/* 8 int32 sums */
static inline __m256i tfcc_q16rqi(__m256i s, const int64_t *mult, const int64_t *bm,
                                  const int64_t *shift) {
  const __m256i lo =
      tfcc_q16rqi64(_mm256_cvtepi32_epi64(_mm256_castsi256_si128(s)), mult, bm, shift);
  const __m256i hi = tfcc_q16rqi64(_mm256_cvtepi32_epi64(_mm256_extracti128_si256(s, 1)), mult + 4,
                                   bm + 4, shift + 4);
  return tfcc_q16rq_join(lo, hi);
}
static inline __m256i tfcc_q16rq_end(__m256i v, int32_t offset, int32_t act_min, int32_t act_max) {
  v = _mm256_add_epi32(v, _mm256_set1_epi32(offset));
  return _mm256_min_epi32(_mm256_max_epi32(v, _mm256_set1_epi32(act_min)),
                          _mm256_set1_epi32(act_max));
}

#endif
