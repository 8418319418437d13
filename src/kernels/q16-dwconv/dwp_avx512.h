/* q16-dwconv tap-pair primitives (dwpair_body.h lists them), AVX-512BW: two taps' inputs
 * interleaved per 128-bit lane and VPMADDWD against the packed int16 weight pairs, 32
 * channels a block in two int32 vectors. */
#ifndef TFCC_KERNELS_Q16_DWCONV_DWP_AVX512_H
#define TFCC_KERNELS_Q16_DWCONV_DWP_AVX512_H

#include "kernels/q16-dwconv/dwconv.h"
#include <immintrin.h>

#include "kernels/q16-dwconv/dwp_x86_pack.h"
#include "kernels/simd/q16rqi_avx512.h"

#define DWP_B TFCC_Q16_DWP_B_avx512
typedef struct dwp_acc {
  __m512i lo, hi;
} dwp_acc;

static inline dwp_acc dwp_zero(void) {
  const dwp_acc a = {_mm512_setzero_si512(), _mm512_setzero_si512()};
  return a;
}
static inline dwp_acc dwp_step(dwp_acc a, const int16_t *xa, const int16_t *xb, const int16_t *w) {
  const __m512i va = _mm512_loadu_si512((const void *)xa);
  const __m512i vb = _mm512_loadu_si512((const void *)xb);
  const __m512i w0 = _mm512_loadu_si512((const void *)w);
  const __m512i w1 = _mm512_loadu_si512((const void *)(w + 32));
  a.lo = _mm512_add_epi32(a.lo, _mm512_madd_epi16(_mm512_unpacklo_epi16(va, vb), w0));
  a.hi = _mm512_add_epi32(a.hi, _mm512_madd_epi16(_mm512_unpackhi_epi16(va, vb), w1));
  return a;
}
/* dwp_step on the first n < DWP_B channels, the others read as 0 (masked loads: nothing past
 * channel n - 1 is touched) */
#define DWP_STEP_N 1
static inline dwp_acc dwp_step_n(dwp_acc a, const int16_t *xa, const int16_t *xb, const int16_t *w,
                                 size_t n) {
  const __mmask32 m = (__mmask32)((1u << n) - 1);
  const __m512i va = _mm512_maskz_loadu_epi16(m, (const void *)xa);
  const __m512i vb = _mm512_maskz_loadu_epi16(m, (const void *)xb);
  const __m512i w0 = _mm512_loadu_si512((const void *)w);
  const __m512i w1 = _mm512_loadu_si512((const void *)(w + 32));
  a.lo = _mm512_add_epi32(a.lo, _mm512_madd_epi16(_mm512_unpacklo_epi16(va, vb), w0));
  a.hi = _mm512_add_epi32(a.hi, _mm512_madd_epi16(_mm512_unpackhi_epi16(va, vb), w1));
  return a;
}
/* lo: channels 0-3, 8-11, 16-19, 24-27; hi: 4-7, 12-15, 20-23, 28-31 */
static inline void dwp_store64(int64_t *acc, dwp_acc a) {
  const __m512i i0 = _mm512_setr_epi32(0, 1, 2, 3, 16, 17, 18, 19, 4, 5, 6, 7, 20, 21, 22, 23);
  const __m512i i1 =
      _mm512_setr_epi32(8, 9, 10, 11, 24, 25, 26, 27, 12, 13, 14, 15, 28, 29, 30, 31);
  const __m512i c0 = _mm512_permutex2var_epi32(a.lo, i0, a.hi);
  const __m512i c1 = _mm512_permutex2var_epi32(a.lo, i1, a.hi);
  _mm512_storeu_si512((void *)acc, _mm512_cvtepi32_epi64(_mm512_castsi512_si256(c0)));
  _mm512_storeu_si512((void *)(acc + 8), _mm512_cvtepi32_epi64(_mm512_extracti64x4_epi64(c0, 1)));
  _mm512_storeu_si512((void *)(acc + 16), _mm512_cvtepi32_epi64(_mm512_castsi512_si256(c1)));
  _mm512_storeu_si512((void *)(acc + 24), _mm512_cvtepi32_epi64(_mm512_extracti64x4_epi64(c1, 1)));
}
static inline void dwp_pack(const int8_t *wa, const int8_t *wb, int16_t *dst) {
  dwp_pack_lanes(DWP_B, wa, wb, dst);
}

/* 16 positions at j (q16rqi_avx512.h) */
static inline __m512i dwp_rqi16(__m512i s, const tfcc_q16_dw_rq *r, size_t j) {
  return tfcc_q16rq_end(tfcc_q16rqi(s, r->mult + j, r->bm + j, r->shift + j), r->offset, r->act_min,
                        r->act_max);
}
/* lo and hi requantized (in int16 range), then VPACKSSDW puts each 128-bit lane's channels
 * 0-3 (lo) and 4-7 (hi) in order */
static inline void dwp_rq_store(int16_t *out, dwp_acc a, const tfcc_q16_dw_rq *r, size_t j0,
                                size_t n) {
  const __m512i v = _mm512_packs_epi32(dwp_rqi16(a.lo, r, j0), dwp_rqi16(a.hi, r, j0 + 16));
  if (n == DWP_B)
    _mm512_storeu_si512((void *)out, v);
  else
    _mm512_mask_storeu_epi16(out, (__mmask32)((1u << n) - 1), v);
}

#endif
