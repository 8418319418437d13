/* int16 elementwise ADD, AVX2: 8 int16 per step widened to int32 lanes (row_i32v.h). */
#include <immintrin.h>

#include "kernels/simd/i32v_avx2.h"

static inline i32v ld16(const int16_t *p) {
  return _mm256_cvtepi16_epi32(_mm_loadu_si128((const __m128i *)p));
}
static inline void st16(int16_t *p, i32v x) {
  _mm_storeu_si128((__m128i *)(void *)p,
                   _mm_packs_epi32(_mm256_castsi256_si128(x), _mm256_extracti128_si256(x, 1)));
}

#define TFCC_Q16_VBINARY_FN tfcc_q16_vbinary_avx2
#include "kernels/q16-vbinary/row_i32v.h"
