/* q8-fc-small, AVX2: 8 columns per step (broadcast pair + VPMADDWD + VPADDD, wrapping);
 * float requantization in vector (XNNPACK fp32: multiply, clamp in float, round half to even,
 * + zp), fixed point per element through the reference's MultiplyByQuantizedMultiplier. */
#include <immintrin.h>
#include <string.h>

#include "kernels/q8-fc-small/fc_small.h"
#include "kernels/ref/conv_acc.h"

static inline void widen_row(const uint8_t *xr, size_t K, bool is_signed, int32_t *xp) {
  size_t k = 0;
  for (; k + 16 <= K; k += 16) {
    const __m128i v = _mm_loadu_si128((const __m128i *)(const void *)(xr + k));
    _mm256_storeu_si256((__m256i *)(void *)(xp + k / 2),
                        is_signed ? _mm256_cvtepi8_epi16(v) : _mm256_cvtepu8_epi16(v));
  }
  for (; k < K; k += 2) {
    const int32_t a = is_signed ? (int32_t)(int8_t)xr[k] : (int32_t)xr[k];
    const int32_t c = k + 1 < K ? (is_signed ? (int32_t)(int8_t)xr[k + 1] : (int32_t)xr[k + 1]) : 0;
    xp[k / 2] = (int32_t)(((uint32_t)c << 16) | ((uint32_t)a & 0xFFFFu));
  }
}

void tfcc_q8_fcs_avx2(const tfcc_q8_fcs_packed *p, size_t batches, const void *x, void *y) {
  _Alignas(32) int32_t xp[TFCC_Q8_FCS_MAX_K / 2 + 8];
  const size_t K = (size_t)p->kdim, N = (size_t)p->n, npad = (size_t)p->npad;
  const size_t kpairs = (size_t)p->kpairs, wstride = npad * 2;
  const __m256i zp = _mm256_set1_epi32(p->zp);
  const __m256 lo = _mm256_set1_ps(p->lo), hi = _mm256_set1_ps(p->hi);
  for (size_t b = 0; b < batches; b++) {
    widen_row((const uint8_t *)x + b * K, K, p->is_signed, xp);
    uint8_t *yr = (uint8_t *)y + b * N;
    for (size_t j = 0; j < N; j += 8) {
      const int16_t *w = p->w + j * 2;
      __m256i acc = _mm256_load_si256((const __m256i *)(const void *)(p->bias + j));
      for (size_t q = 0; q < kpairs; q++, w += wstride)
        acc = _mm256_add_epi32(
            acc, _mm256_madd_epi16(_mm256_set1_epi32(xp[q]),
                                   _mm256_load_si256((const __m256i *)(const void *)w)));
      _Alignas(32) int32_t v[8];
      const size_t nc = N - j < 8 ? N - j : 8;
      if (p->fp32) {
        __m256 f = _mm256_mul_ps(_mm256_cvtepi32_ps(acc), _mm256_load_ps(p->scale + j));
        f = _mm256_min_ps(_mm256_max_ps(f, lo), hi);
        _mm256_store_si256((__m256i *)(void *)v, _mm256_add_epi32(_mm256_cvtps_epi32(f), zp));
      } else {
        _mm256_store_si256((__m256i *)(void *)v, acc);
        for (size_t c = 0; c < nc; c++) {
          const int32_t m = tfcc_mbqm(v[c], p->mult[j + c], p->shift[j + c]);
          v[c] = tfcc_clamp_i32((int32_t)((int64_t)m + p->zp), p->act_min, p->act_max);
        }
      }
      for (size_t c = 0; c < nc; c++) yr[j + c] = (uint8_t)v[c];
    }
  }
}
