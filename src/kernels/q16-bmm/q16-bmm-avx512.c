/* int8 BATCH_MATMUL output requantization, AVX-512 build of req8_i32v.h: 16 lanes. */
#include <immintrin.h>

#include "kernels/simd/i32v_avx512.h"

static inline i32v ld64(const int64_t *p) {
  const __m256i a = _mm512_cvtepi64_epi32(_mm512_loadu_si512((const void *)p));
  const __m256i b = _mm512_cvtepi64_epi32(_mm512_loadu_si512((const void *)(p + 8)));
  return _mm512_inserti64x4(_mm512_castsi256_si512(a), b, 1);
}

#define TFCC_Q16_BMM_REQ8_FN tfcc_q16_bmm_req8_avx512
#include "kernels/q16-bmm/req8_i32v.h"
