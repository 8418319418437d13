/* q16-dwconv tap-pair primitives (dwpair_body.h lists them), AVX2: two taps' inputs
 * interleaved per 128-bit lane and VPMADDWD against the packed int16 weight pairs, 16
 * channels a block in two int32 vectors. */
#ifndef TFCC_KERNELS_Q16_DWCONV_DWP_AVX2_H
#define TFCC_KERNELS_Q16_DWCONV_DWP_AVX2_H

#include "kernels/q16-dwconv/dwconv.h"
#include <string.h>
#include <immintrin.h>

#include "kernels/q16-dwconv/dwp_x86_pack.h"
#include "kernels/simd/q16rqi_avx2.h"

#define DWP_B TFCC_Q16_DWP_B_avx2
typedef struct dwp_acc {
  __m256i lo, hi;
} dwp_acc;

static inline dwp_acc dwp_zero(void) {
  const dwp_acc a = {_mm256_setzero_si256(), _mm256_setzero_si256()};
  return a;
}
static inline dwp_acc dwp_step(dwp_acc a, const int16_t *xa, const int16_t *xb, const int16_t *w) {
  const __m256i va = _mm256_loadu_si256((const __m256i *)(const void *)xa);
  const __m256i vb = _mm256_loadu_si256((const __m256i *)(const void *)xb);
  const __m256i w0 = _mm256_loadu_si256((const __m256i *)(const void *)w);
  const __m256i w1 = _mm256_loadu_si256((const __m256i *)(const void *)(w + 16));
  a.lo = _mm256_add_epi32(a.lo, _mm256_madd_epi16(_mm256_unpacklo_epi16(va, vb), w0));
  a.hi = _mm256_add_epi32(a.hi, _mm256_madd_epi16(_mm256_unpackhi_epi16(va, vb), w1));
  return a;
}
/* lo: channels 0-3, 8-11; hi: 4-7, 12-15 */
static inline void dwp_store64(int64_t *acc, dwp_acc a) {
  const __m256i c0 = _mm256_permute2x128_si256(a.lo, a.hi, 0x20);
  const __m256i c1 = _mm256_permute2x128_si256(a.lo, a.hi, 0x31);
  __m256i *p = (__m256i *)(void *)acc;
  _mm256_storeu_si256(p, _mm256_cvtepi32_epi64(_mm256_castsi256_si128(c0)));
  _mm256_storeu_si256(p + 1, _mm256_cvtepi32_epi64(_mm256_extracti128_si256(c0, 1)));
  _mm256_storeu_si256(p + 2, _mm256_cvtepi32_epi64(_mm256_castsi256_si128(c1)));
  _mm256_storeu_si256(p + 3, _mm256_cvtepi32_epi64(_mm256_extracti128_si256(c1, 1)));
}
static inline void dwp_pack(const int8_t *wa, const int8_t *wb, int16_t *dst) {
  dwp_pack_lanes(DWP_B, wa, wb, dst);
}

/* 8 positions at j (q16rqi_avx2.h) */
static inline __m256i dwp_rqi8(__m256i s, const tfcc_q16_dw_rq *r, size_t j) {
  return tfcc_q16rq_end(tfcc_q16rqi(s, r->mult + j, r->bm + j, r->shift + j), r->offset, r->act_min,
                        r->act_max);
}
/* lo and hi requantized (in int16 range), then VPACKSSDW puts each 128-bit lane's channels
 * 0-3 (lo) and 4-7 (hi) in order */
static inline void dwp_rq_store(int16_t *out, dwp_acc a, const tfcc_q16_dw_rq *r, size_t j0,
                                size_t n) {
  const __m256i v = _mm256_packs_epi32(dwp_rqi8(a.lo, r, j0), dwp_rqi8(a.hi, r, j0 + 8));
  if (n == DWP_B) {
    _mm256_storeu_si256((__m256i *)(void *)out, v);
  } else {
    _Alignas(32) int16_t t[DWP_B];
    _mm256_store_si256((__m256i *)(void *)t, v);
    memcpy(out, t, n * sizeof(int16_t));
  }
}

#endif
