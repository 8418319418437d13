/* int16 softmax rows, AVX-512 build of the shared body (q16_softmax_body.h): 16 lanes. */
#include <immintrin.h>

#include "kernels/simd/i32v_avx512.h"

static inline i32v ld16(const int16_t *p) {
  return _mm512_cvtepi16_epi32(_mm256_loadu_si256((const __m256i *)p));
}
static inline void st16(int16_t *p, i32v x) {
  _mm256_storeu_si256((__m256i *)(void *)p, _mm512_cvtsepi32_epi16(x));
}
static inline i32v lut_pair(const int16_t *lut, i32v idx) {
  return _mm512_i32gather_epi32(idx, (const void *)lut, 2);
}

#define TFCC_Q16_SOFTMAX_FN tfcc_q16_softmax_avx512
#include "kernels/softmax/q16_softmax_body.h"
