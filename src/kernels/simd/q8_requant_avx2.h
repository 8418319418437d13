/* AVX2: 8 int32 sums requantized as tfcc_requant_fp32 (float product with the per-channel
 * scale, clamp to [lo, hi], cvtps2dq rounding half to even, + zp) and the low byte of each
 * (the values are in [0, 255] or [-128, 127]) stored, min(n, 8) of them. Shared by the AVX2
 * q8 GEMM and depthwise kernels. */
#ifndef TFCC_KERNELS_SIMD_Q8_REQUANT_AVX2_H
#define TFCC_KERNELS_SIMD_Q8_REQUANT_AVX2_H

#include <immintrin.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

static inline void tfcc_q8_requant8_avx2(uint8_t *c, __m256i acc, const float *scale, float lo,
                                         float hi, int32_t zp, size_t n) {
  __m256 f = _mm256_mul_ps(_mm256_cvtepi32_ps(acc), _mm256_loadu_ps(scale));
  f = _mm256_min_ps(_mm256_max_ps(f, _mm256_set1_ps(lo)), _mm256_set1_ps(hi));
  const __m256i v = _mm256_add_epi32(_mm256_cvtps_epi32(f), _mm256_set1_epi32(zp));
  const __m256i bytes = _mm256_shuffle_epi8(
      v, _mm256_setr_epi8(0, 4, 8, 12, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, 0, 4, 8, 12,
                          -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1));
  uint8_t tmp[8];
  const uint32_t lo4 = (uint32_t)_mm256_extract_epi32(bytes, 0);
  const uint32_t hi4 = (uint32_t)_mm256_extract_epi32(bytes, 4);
  memcpy(tmp, &lo4, 4);
  memcpy(tmp + 4, &hi4, 4);
  memcpy(c, tmp, n < 8 ? n : 8);
}

#endif
