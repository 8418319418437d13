/* tfcc_requant64 (kernels/ref/conv_acc.h) on x86 vectors, for a group of int64 sums whose sums
 * and biases all lie within +-2^30 (the usual case; the caller runs its scalar loop on any
 * other group): then the clamps to +-2^47 change nothing, a = acc + bias fits int32 and so does
 * the reduced multiplier (|m| <= 2^15), so a * m is one signed 32 x 32 -> 64-bit multiply
 * (VPMULDQ), exact; + 2^(s - 1), the arithmetic right shift by s (1..62), the int32 truncation,
 * + the output offset in int32 (wrapping as the reference's truncation does), the activation
 * clamp and the int16 store: the reference's value in every lane. Per channel j: bias[j]
 * (clamped), mult[j], round[j], shift[j] as the q16 kernels precompute them. Shared by the
 * q16-gemm and q16-dwconv AVX2 / AVX-512 builds (compile with those flags); the multiply, shift
 * and clamp are q16rqi_<isa>.h's. */
#ifndef TFCC_KERNELS_SIMD_Q16_REQUANT_X86_H
#define TFCC_KERNELS_SIMD_Q16_REQUANT_X86_H

#include <immintrin.h>
#include <stdbool.h>
#include <stdint.h>

#if defined(__AVX512F__) && defined(__AVX512BW__)
#include "kernels/simd/q16rqi_avx512.h"
/* 32 channels: false (nothing written) where a sum or bias is outside +-2^30 (or the clamp
 * range outside int16) */
#define TFCC_Q16RQ_W 32
static inline __attribute__((always_inline)) bool tfcc_q16rq(
    const int64_t *acc, const int64_t *bias, const int64_t *mult, const int64_t *round,
    const int64_t *shift, int32_t offset, int32_t act_min, int32_t act_max, int16_t *out) {
  if (act_min < -32768 || act_max > 32767) return false;
  const __m512i k30 = _mm512_set1_epi64((int64_t)1 << 30);
  __m512i a[4], t = _mm512_setzero_si512();
  for (int i = 0; i < 4; i++) {
    const __m512i s = _mm512_loadu_si512((const void *)(acc + 8 * i));
    const __m512i b = _mm512_loadu_si512((const void *)(bias + 8 * i));
    t = _mm512_or_si512(t, _mm512_or_si512(_mm512_add_epi64(s, k30), _mm512_add_epi64(b, k30)));
    a[i] = _mm512_add_epi64(s, b);
  }
  if (_mm512_test_epi64_mask(t, _mm512_set1_epi64(~(((int64_t)1 << 31) - 1)))) return false;
  for (int h = 0; h < 2; h++) {
    __m256i r[2];
    for (int i = 0; i < 2; i++) {
      const int k = 2 * h + i;
      r[i] = _mm512_cvtepi64_epi32(tfcc_q16rqi64(a[k], mult + 8 * k, round + 8 * k, shift + 8 * k));
    }
    const __m512i v = tfcc_q16rq_end(_mm512_inserti64x4(_mm512_castsi256_si512(r[0]), r[1], 1),
                                     offset, act_min, act_max);
    _mm256_storeu_si256((__m256i *)(void *)(out + 16 * h), _mm512_cvtepi32_epi16(v));
  }
  return true;
}
#else
#include "kernels/simd/q16rqi_avx2.h"
/* 16 channels: false (nothing written) where a sum or bias is outside +-2^30 (or the clamp
 * range outside int16) */
#define TFCC_Q16RQ_W 16
static inline __attribute__((always_inline)) bool tfcc_q16rq(
    const int64_t *acc, const int64_t *bias, const int64_t *mult, const int64_t *round,
    const int64_t *shift, int32_t offset, int32_t act_min, int32_t act_max, int16_t *out) {
  if (act_min < -32768 || act_max > 32767) return false; /* the int16 pack below saturates */
  const __m256i k30 = _mm256_set1_epi64x((int64_t)1 << 30);
  __m256i a[4], t = _mm256_setzero_si256();
  for (int i = 0; i < 4; i++) {
    const __m256i s = _mm256_loadu_si256((const __m256i *)(const void *)(acc + 4 * i));
    const __m256i b = _mm256_loadu_si256((const __m256i *)(const void *)(bias + 4 * i));
    t = _mm256_or_si256(t, _mm256_or_si256(_mm256_add_epi64(s, k30), _mm256_add_epi64(b, k30)));
    a[i] = _mm256_add_epi64(s, b);
  }
  if (!_mm256_testz_si256(t, _mm256_set1_epi64x(~(((int64_t)1 << 31) - 1)))) return false;
  __m256i r[4];
  for (int i = 0; i < 4; i++)
    r[i] = tfcc_q16rqi64(a[i], mult + 4 * i, round + 4 * i, shift + 4 * i);
  __m256i v[2];
  for (int h = 0; h < 2; h++)
    v[h] = tfcc_q16rq_end(tfcc_q16rq_join(r[2 * h], r[2 * h + 1]), offset, act_min, act_max);
  /* every value within [act_min, act_max], inside int16: the saturating pack is exact */
  const __m256i o = _mm256_permute4x64_epi64(_mm256_packs_epi32(v[0], v[1]), 0xD8);
  _mm256_storeu_si256((__m256i *)(void *)out, o);
  return true;
}
#endif

#endif
