/* q8 depthwise micro-kernel, AVX2 (dwconv_body.h): 8 channels per step, int32 lanes, one
 * widening load and one vpmaddwd per tap (see the AVX-512 file), taps in two interleaved
 * accumulators; the channel tail goes through a small zero-padded copy. Epilogue as
 * tfcc_requant_fp32 (cvtps2dq rounds half to even). */
#include <immintrin.h>
#include <string.h>

#include "kernels/q8-dwconv/ukernels.h"
#include "kernels/simd/q8_requant_avx2.h"

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

#define Q8DW_N 8
typedef __m256i q8dw_acc;

static inline __m256i q8dw_sum(const int32_t *bias, const uint8_t *const *taps, size_t ntaps,
                               size_t ch, size_t n, const int32_t *w, size_t c16, bool is_signed) {
  __m256i acc = _mm256_loadu_si256((const __m256i *)(const void *)bias);
  __m256i acc2 = _mm256_setzero_si256();
  size_t t = 0;
  for (; t + 2 <= ntaps; t += 2) {
    const __m256i x0 = widen(taps[t] + ch, n, is_signed);
    const __m256i x1 = widen(taps[t + 1] + ch, n, is_signed);
    acc = _mm256_add_epi32(
        acc,
        _mm256_madd_epi16(x0, _mm256_loadu_si256((const __m256i *)(const void *)(w + t * c16))));
    acc2 = _mm256_add_epi32(
        acc2, _mm256_madd_epi16(
                  x1, _mm256_loadu_si256((const __m256i *)(const void *)(w + (t + 1) * c16))));
  }
  if (t < ntaps) {
    const __m256i x0 = widen(taps[t] + ch, n, is_signed);
    acc = _mm256_add_epi32(
        acc,
        _mm256_madd_epi16(x0, _mm256_loadu_si256((const __m256i *)(const void *)(w + t * c16))));
  }
  return _mm256_add_epi32(acc, acc2);
}

static inline void q8dw_store32(int32_t *c32, __m256i acc) {
  _mm256_storeu_si256((__m256i *)(void *)c32, acc);
}

#define q8dw_requant tfcc_q8_requant8_avx2

#define Q8DW_FN_S tfcc_q8_dw_s_avx2
#define Q8DW_FN_U tfcc_q8_dw_u_avx2
#include "kernels/q8-dwconv/dwconv_body.h"
