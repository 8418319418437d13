/* q8 depthwise micro-kernel, AVX2: 8 channels per step, int32 lanes, one widening load and
 * one vpmaddwd per tap (see the AVX-512 file); the channel tail goes through a small
 * zero-padded copy. Epilogue as tfcc_requant_fp32 (cvtps2dq rounds half to even). */
#include <immintrin.h>
#include <string.h>

#include "kernels/q8-dwconv/ukernels.h"

static inline __m256i widen(const uint8_t *p, size_t n, bool is_signed) {
  __m128i b;
  if (n >= 8) {
    b = _mm_loadl_epi64((const __m128i *)(const void *)p);
  } else {
    uint8_t tmp[8] = {0};
    memcpy(tmp, p, n);
    b = _mm_loadl_epi64((const __m128i *)(const void *)tmp);
  }
  return is_signed ? _mm256_cvtepi8_epi32(b) : _mm256_cvtepu8_epi32(b);
}

static inline void pixel(size_t c, size_t ntaps, const uint8_t *const *taps, const int32_t *pw,
                         const tfcc_q8_out *o, bool is_signed) {
  const size_t c16 = (c + 15) & ~(size_t)15;
  const float *scale = (const float *)(const void *)(pw + c16);
  const int32_t *w = pw + 2 * c16;
  const __m256 lo = _mm256_set1_ps(o->lo), hi = _mm256_set1_ps(o->hi);
  const __m256i zp = _mm256_set1_epi32(o->zp);
  for (size_t ch = 0; ch < c; ch += 8) {
    const size_t n = c - ch;
    __m256i acc = _mm256_loadu_si256((const __m256i *)(const void *)(pw + ch));
    __m256i acc2 = _mm256_setzero_si256();
    size_t t = 0;
    for (; t + 2 <= ntaps; t += 2) {
      const __m256i x0 = widen(taps[t] + ch, n, is_signed);
      const __m256i x1 = widen(taps[t + 1] + ch, n, is_signed);
      acc = _mm256_add_epi32(
          acc, _mm256_madd_epi16(
                   x0, _mm256_loadu_si256((const __m256i *)(const void *)(w + t * c16 + ch))));
      acc2 = _mm256_add_epi32(
          acc2,
          _mm256_madd_epi16(
              x1, _mm256_loadu_si256((const __m256i *)(const void *)(w + (t + 1) * c16 + ch))));
    }
    if (t < ntaps) {
      const __m256i x0 = widen(taps[t] + ch, n, is_signed);
      acc = _mm256_add_epi32(
          acc, _mm256_madd_epi16(
                   x0, _mm256_loadu_si256((const __m256i *)(const void *)(w + t * c16 + ch))));
    }
    acc = _mm256_add_epi32(acc, acc2);
    if (o->c32) {
      _mm256_storeu_si256((__m256i *)(void *)(o->c32 + ch), acc);
      continue;
    }
    __m256 f = _mm256_mul_ps(_mm256_cvtepi32_ps(acc), _mm256_loadu_ps(scale + ch));
    f = _mm256_min_ps(_mm256_max_ps(f, lo), hi);
    const __m256i v = _mm256_add_epi32(_mm256_cvtps_epi32(f), zp);
    /* values are in [0, 255] or [-128, 127]: keep the low byte of each lane */
    const __m256i bytes = _mm256_shuffle_epi8(
        v, _mm256_setr_epi8(0, 4, 8, 12, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, 0, 4, 8,
                            12, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1));
    uint8_t tmp[8];
    const uint32_t lo4 = (uint32_t)_mm256_extract_epi32(bytes, 0);
    const uint32_t hi4 = (uint32_t)_mm256_extract_epi32(bytes, 4);
    memcpy(tmp, &lo4, 4);
    memcpy(tmp + 4, &hi4, 4);
    memcpy(o->c + ch, tmp, n < 8 ? n : 8);
  }
}

TFCC_Q8_DW_DECL(tfcc_q8_dw_s_avx2) { pixel(c, ntaps, taps, pw, o, true); }
TFCC_Q8_DW_DECL(tfcc_q8_dw_u_avx2) { pixel(c, ntaps, taps, pw, o, false); }
