/* q8 depthwise micro-kernel, AVX-512 (F+BW+VL): 16 channels per step, int32 lanes; each
 * tap is one widening load and one vpmaddwd against the weight (low 16 bits of each lane,
 * high half zero: an exact 16x16 -> 32 product), summed in int32. Epilogue as
 * tfcc_requant_fp32: cvtdq2ps, mul, max/min, cvtps2dq (half to even), + zp, vpmovdb. */
#include <immintrin.h>

#include "kernels/q8-dwconv/ukernels.h"

static inline void pixel(size_t c, size_t ntaps, const uint8_t *const *taps, const int32_t *pw,
                         const tfcc_q8_out *o, bool is_signed) {
  const size_t c16 = (c + 15) & ~(size_t)15;
  const float *scale = (const float *)(const void *)(pw + c16);
  const int32_t *w = pw + 2 * c16;
  const __m512 lo = _mm512_set1_ps(o->lo), hi = _mm512_set1_ps(o->hi);
  const __m512i zp = _mm512_set1_epi32(o->zp);
  for (size_t ch = 0; ch < c; ch += 16) {
    const __mmask16 m = c - ch >= 16 ? (__mmask16)0xFFFF : (__mmask16)((1u << (c - ch)) - 1u);
    __m512i acc = _mm512_loadu_si512(pw + ch);
    __m512i acc2 = _mm512_setzero_si512();
    size_t t = 0;
    for (; t + 2 <= ntaps; t += 2) {
      const __m128i b0 = _mm_maskz_loadu_epi8(m, taps[t] + ch);
      const __m128i b1 = _mm_maskz_loadu_epi8(m, taps[t + 1] + ch);
      const __m512i x0 = is_signed ? _mm512_cvtepi8_epi32(b0) : _mm512_cvtepu8_epi32(b0);
      const __m512i x1 = is_signed ? _mm512_cvtepi8_epi32(b1) : _mm512_cvtepu8_epi32(b1);
      acc = _mm512_add_epi32(acc, _mm512_madd_epi16(x0, _mm512_loadu_si512(w + t * c16 + ch)));
      acc2 =
          _mm512_add_epi32(acc2, _mm512_madd_epi16(x1, _mm512_loadu_si512(w + (t + 1) * c16 + ch)));
    }
    if (t < ntaps) {
      const __m128i b0 = _mm_maskz_loadu_epi8(m, taps[t] + ch);
      const __m512i x0 = is_signed ? _mm512_cvtepi8_epi32(b0) : _mm512_cvtepu8_epi32(b0);
      acc = _mm512_add_epi32(acc, _mm512_madd_epi16(x0, _mm512_loadu_si512(w + t * c16 + ch)));
    }
    acc = _mm512_add_epi32(acc, acc2);
    if (o->c32) {
      _mm512_storeu_si512(o->c32 + ch, acc);
      continue;
    }
    __m512 f = _mm512_mul_ps(_mm512_cvtepi32_ps(acc), _mm512_loadu_ps(scale + ch));
    f = _mm512_min_ps(_mm512_max_ps(f, lo), hi);
    const __m128i q = _mm512_cvtepi32_epi8(_mm512_add_epi32(_mm512_cvtps_epi32(f), zp));
    _mm_mask_storeu_epi8(o->c + ch, m, q);
  }
}

TFCC_Q8_DW_DECL(tfcc_q8_dw_s_avx512) { pixel(c, ntaps, taps, pw, o, true); }
TFCC_Q8_DW_DECL(tfcc_q8_dw_u_avx512) { pixel(c, ntaps, taps, pw, o, false); }
