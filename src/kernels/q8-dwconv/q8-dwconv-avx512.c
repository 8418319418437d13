/* q8 depthwise micro-kernel, AVX-512 (F+BW+VL) (dwconv_body.h): 16 channels per step, int32
 * lanes; each tap is one widening load and one vpmaddwd against the weight (low 16 bits of
 * each lane, high half zero: an exact 16x16 -> 32 product), summed in int32 in two interleaved
 * accumulators. Epilogue as tfcc_requant_fp32: cvtdq2ps, mul, max/min, cvtps2dq (half to even),
 * + zp, vpmovdb. */
#include <immintrin.h>

#include "kernels/q8-dwconv/ukernels.h"

static inline __mmask16 first(size_t n) {
  return n >= 16 ? (__mmask16)0xFFFF : (__mmask16)((1u << n) - 1u);
}

static inline __m512i widen(const uint8_t *p, __mmask16 m, bool is_signed) {
  const __m128i b = _mm_maskz_loadu_epi8(m, p);
  return is_signed ? _mm512_cvtepi8_epi32(b) : _mm512_cvtepu8_epi32(b);
}

#define Q8DW_N 16
typedef __m512i q8dw_acc;

static inline __m512i q8dw_sum(const int32_t *bias, const uint8_t *const *taps, size_t ntaps,
                               size_t ch, size_t n, const int32_t *w, size_t c16, bool is_signed) {
  const __mmask16 m = first(n);
  __m512i acc = _mm512_loadu_si512(bias);
  __m512i acc2 = _mm512_setzero_si512();
  size_t t = 0;
  for (; t + 2 <= ntaps; t += 2) {
    const __m512i x0 = widen(taps[t] + ch, m, is_signed);
    const __m512i x1 = widen(taps[t + 1] + ch, m, is_signed);
    acc = _mm512_add_epi32(acc, _mm512_madd_epi16(x0, _mm512_loadu_si512(w + t * c16)));
    acc2 = _mm512_add_epi32(acc2, _mm512_madd_epi16(x1, _mm512_loadu_si512(w + (t + 1) * c16)));
  }
  if (t < ntaps) {
    const __m512i x0 = widen(taps[t] + ch, m, is_signed);
    acc = _mm512_add_epi32(acc, _mm512_madd_epi16(x0, _mm512_loadu_si512(w + t * c16)));
  }
  return _mm512_add_epi32(acc, acc2);
}

static inline void q8dw_store32(int32_t *c32, __m512i acc) { _mm512_storeu_si512(c32, acc); }

static inline void q8dw_requant(uint8_t *c, __m512i acc, const float *scale, float lo, float hi,
                                int32_t zp, size_t n) {
  __m512 f = _mm512_mul_ps(_mm512_cvtepi32_ps(acc), _mm512_loadu_ps(scale));
  f = _mm512_min_ps(_mm512_max_ps(f, _mm512_set1_ps(lo)), _mm512_set1_ps(hi));
  const __m128i q =
      _mm512_cvtepi32_epi8(_mm512_add_epi32(_mm512_cvtps_epi32(f), _mm512_set1_epi32(zp)));
  _mm_mask_storeu_epi8(c, first(n), q);
}

#define Q8DW_FN_S tfcc_q8_dw_s_avx512
#define Q8DW_FN_U tfcc_q8_dw_u_avx512
#include "kernels/q8-dwconv/dwconv_body.h"
