/* tfcc_requant64 (kernels/ref/conv_acc.h) on x86 vectors, for a group of int64 sums whose sums
 * and biases all lie within +-2^30 (the usual case; the caller runs its scalar loop on any
 * other group): then the clamps to +-2^47 change nothing, a = acc + bias fits int32 and so does
 * the reduced multiplier (|m| <= 2^15), so a * m is one signed 32 x 32 -> 64-bit multiply
 * (VPMULDQ), exact; + 2^(s - 1), the arithmetic right shift by s (1..62), the int32 truncation,
 * + the output offset in int32 (wrapping as the reference's truncation does), the activation
 * clamp and the int16 store: the reference's value in every lane. Per channel j: bias[j]
 * (clamped), mult[j], round[j], shift[j] as the q16 kernels precompute them. Shared by the
 * q16-gemm and q16-dwconv AVX2 / AVX-512 builds (compile with those flags). */
#ifndef TFCC_KERNELS_SIMD_Q16_REQUANT_X86_H
#define TFCC_KERNELS_SIMD_Q16_REQUANT_X86_H

#include <immintrin.h>
#include <stdbool.h>
#include <stdint.h>

#if defined(__AVX512F__) && defined(__AVX512BW__)
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
  const __m512i off = _mm512_set1_epi32(offset), lo = _mm512_set1_epi32(act_min);
  const __m512i hi = _mm512_set1_epi32(act_max);
  for (int h = 0; h < 2; h++) {
    __m256i r[2];
    for (int i = 0; i < 2; i++) {
      const int k = 2 * h + i;
      __m512i x = _mm512_mul_epi32(a[k], _mm512_loadu_si512((const void *)(mult + 8 * k)));
      x = _mm512_add_epi64(x, _mm512_loadu_si512((const void *)(round + 8 * k)));
      x = _mm512_srav_epi64(x, _mm512_loadu_si512((const void *)(shift + 8 * k)));
      r[i] = _mm512_cvtepi64_epi32(x);
    }
    __m512i v = _mm512_inserti64x4(_mm512_castsi256_si512(r[0]), r[1], 1);
    v = _mm512_min_epi32(_mm512_max_epi32(_mm512_add_epi32(v, off), lo), hi);
    _mm256_storeu_si256((__m256i *)(void *)(out + 16 * h), _mm512_cvtepi32_epi16(v));
  }
  return true;
}
#else
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
  const __m256i zero = _mm256_setzero_si256();
  __m256i r[4];
  for (int i = 0; i < 4; i++) {
    const __m256i m = _mm256_loadu_si256((const __m256i *)(const void *)(mult + 4 * i));
    const __m256i rd = _mm256_loadu_si256((const __m256i *)(const void *)(round + 4 * i));
    const __m256i sh = _mm256_loadu_si256((const __m256i *)(const void *)(shift + 4 * i));
    const __m256i x = _mm256_add_epi64(_mm256_mul_epi32(a[i], m), rd);
    const __m256i sg = _mm256_cmpgt_epi64(zero, x); /* x >> s = ~(~x >>> s) where x < 0 */
    r[i] = _mm256_xor_si256(_mm256_srlv_epi64(_mm256_xor_si256(x, sg), sh), sg);
  }
  const __m256i off = _mm256_set1_epi32(offset), lo = _mm256_set1_epi32(act_min);
  const __m256i hi = _mm256_set1_epi32(act_max);
  __m256i v[2];
  for (int h = 0; h < 2; h++) {
    /* the low halves of r[2h] (lanes 0-3) and r[2h + 1] (lanes 4-7), in order */
    const __m256 p = _mm256_shuffle_ps(_mm256_castsi256_ps(r[2 * h]),
                                       _mm256_castsi256_ps(r[2 * h + 1]), _MM_SHUFFLE(2, 0, 2, 0));
    v[h] = _mm256_permute4x64_epi64(_mm256_castps_si256(p), 0xD8);
    v[h] = _mm256_min_epi32(_mm256_max_epi32(_mm256_add_epi32(v[h], off), lo), hi);
  }
  /* every value within [act_min, act_max], inside int16: the saturating pack is exact */
  const __m256i o = _mm256_permute4x64_epi64(_mm256_packs_epi32(v[0], v[1]), 0xD8);
  _mm256_storeu_si256((__m256i *)(void *)out, o);
  return true;
}
#endif

#endif
