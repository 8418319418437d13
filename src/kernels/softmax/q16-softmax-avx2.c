/* int16 softmax rows, AVX2 build of the shared body (q16_softmax_body.h): 8 lanes. */
#include <immintrin.h>

#include "kernels/simd/i32v_avx2.h"

static inline i32v ld16(const int16_t *p) {
  return _mm256_cvtepi16_epi32(_mm_loadu_si128((const __m128i *)p));
}
static inline void st16(int16_t *p, i32v x) {
  _mm_storeu_si128((__m128i *)(void *)p,
                   _mm_packs_epi32(_mm256_castsi256_si128(x), _mm256_extracti128_si256(x, 1)));
}
static inline i32v lut_pair(const int16_t *lut, i32v idx) {
  return _mm256_i32gather_epi32((const int *)(const void *)lut, idx, 2);
}

#define TFCC_Q16_SOFTMAX_FN tfcc_q16_softmax_avx2
#include "kernels/softmax/q16_softmax_body.h"
