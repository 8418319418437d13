/* int8 BATCH_MATMUL output requantization, AVX2 build of req8_i32v.h: 8 lanes. */
#include <immintrin.h>

#include "kernels/simd/i32v_avx2.h"

static inline i32v ld64(const int64_t *p) {
  const __m256i idx = _mm256_setr_epi32(0, 2, 4, 6, 0, 2, 4, 6);
  const __m256i a = _mm256_permutevar8x32_epi32(_mm256_loadu_si256((const __m256i *)p), idx);
  const __m256i b = _mm256_permutevar8x32_epi32(_mm256_loadu_si256((const __m256i *)(p + 4)), idx);
  return _mm256_inserti128_si256(a, _mm256_castsi256_si128(b), 1);
}

#define TFCC_Q16_BMM_REQ8_FN tfcc_q16_bmm_req8_avx2
#include "kernels/q16-bmm/req8_i32v.h"
