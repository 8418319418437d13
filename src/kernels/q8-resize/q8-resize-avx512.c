/* q8 bilinear resize, AVX-512: 16 channels per step in int32 lanes, masked channel tails. */
#include <immintrin.h>

#include "kernels/q8-resize/resize.h"

static inline __m512i widen(__m128i x, bool s) {
  return s ? _mm512_cvtepi8_epi32(x) : _mm512_cvtepu8_epi32(x);
}

/* tfcc_xnn_ibilinear on 16 lanes: t = tl<<11 + (tr-tl)*wx, b likewise, (t<<11 + (b-t)*wy +
 * 2^21) >> 22 arithmetic; every intermediate stays inside int32 for 8-bit inputs. */
static inline __m128i lerp(__m128i p00, __m128i p01, __m128i p10, __m128i p11, __m512i wx,
                           __m512i wy, bool s) {
  const __m512i tl = widen(p00, s), tr = widen(p01, s), bl = widen(p10, s), br = widen(p11, s);
  const __m512i t =
      _mm512_add_epi32(_mm512_slli_epi32(tl, 11), _mm512_mullo_epi32(_mm512_sub_epi32(tr, tl), wx));
  const __m512i b =
      _mm512_add_epi32(_mm512_slli_epi32(bl, 11), _mm512_mullo_epi32(_mm512_sub_epi32(br, bl), wx));
  const __m512i acc = _mm512_add_epi32(
      _mm512_add_epi32(_mm512_slli_epi32(t, 11), _mm512_mullo_epi32(_mm512_sub_epi32(b, t), wy)),
      _mm512_set1_epi32(1 << 21));
  return _mm512_cvtepi32_epi8(_mm512_srai_epi32(acc, 22));
}

TFCC_Q8_RESIZE_DECL(tfcc_q8_resize_avx512) {
  const size_t d = (size_t)s->depth;
  const int8_t *p = in;
  int8_t *q = out;
  const size_t full = d & ~(size_t)15;
  const __mmask16 tail = (__mmask16)((1u << (d - full)) - 1u);
  for (int32_t r = row0; r < row1; r++) {
    const int32_t b = r / s->out_h, oy = r % s->out_h;
    const size_t base = (size_t)b * s->in_h * s->in_w;
    const size_t row_t = base + (size_t)yt[3 * oy] * s->in_w,
                 row_b = base + (size_t)yt[3 * oy + 1] * s->in_w;
    const __m512i wy = _mm512_set1_epi32(yt[3 * oy + 2]);
    for (int32_t ox = 0; ox < s->out_w; ox++) {
      int8_t *o = q + ((size_t)r * s->out_w + ox) * d;
      const int8_t *p00 = p + (row_t + (size_t)xt[3 * ox]) * d,
                   *p01 = p + (row_t + (size_t)xt[3 * ox + 1]) * d;
      const int8_t *p10 = p + (row_b + (size_t)xt[3 * ox]) * d,
                   *p11 = p + (row_b + (size_t)xt[3 * ox + 1]) * d;
      const __m512i wx = _mm512_set1_epi32(xt[3 * ox + 2]);
      size_t c = 0;
      for (; c < full; c += 16)
        _mm_storeu_si128((__m128i *)(o + c),
                         lerp(_mm_loadu_si128((const __m128i *)(p00 + c)),
                              _mm_loadu_si128((const __m128i *)(p01 + c)),
                              _mm_loadu_si128((const __m128i *)(p10 + c)),
                              _mm_loadu_si128((const __m128i *)(p11 + c)), wx, wy, is_signed));
      if (tail)
        _mm_mask_storeu_epi8(
            o + c, tail,
            lerp(_mm_maskz_loadu_epi8(tail, p00 + c), _mm_maskz_loadu_epi8(tail, p01 + c),
                 _mm_maskz_loadu_epi8(tail, p10 + c), _mm_maskz_loadu_epi8(tail, p11 + c), wx, wy,
                 is_signed));
    }
  }
}
