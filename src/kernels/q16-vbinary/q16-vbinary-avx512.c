/* int16 elementwise ADD, AVX-512: 16 int16 per step widened to int32 lanes (row_i32v.h). */
#include <immintrin.h>

#include "kernels/simd/i32v_avx512.h"

static inline i32v ld16(const int16_t *p) {
  return _mm512_cvtepi16_epi32(_mm256_loadu_si256((const __m256i *)p));
}
static inline void st16(int16_t *p, i32v x) {
  _mm256_storeu_si256((__m256i *)(void *)p, _mm512_cvtsepi32_epi16(x));
}

#define TFCC_Q16_VBINARY_FN tfcc_q16_vbinary_avx512
#include "kernels/q16-vbinary/row_i32v.h"
