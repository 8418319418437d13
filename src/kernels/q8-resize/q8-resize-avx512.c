/* q8 bilinear resize, AVX-512: 16 channels per step in int32 lanes, masked channel tails. */
#include <immintrin.h>

#include "kernels/q8-resize/resize.h"

static inline __m512i widen(__m128i x, bool s) {
  return s ? _mm512_cvtepi8_epi32(x) : _mm512_cvtepu8_epi32(x);
}

static inline __m128i ld16(const int8_t *p) { return _mm_loadu_si128((const __m128i *)p); }

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

/* every channel: 16 per step, the tail with masked loads and stores */
static inline size_t q8r_channels(int8_t *o, const int8_t *const *p, int32_t wx, int32_t wy,
                                  bool is_signed, size_t d) {
  const __m512i vx = _mm512_set1_epi32(wx), vy = _mm512_set1_epi32(wy);
  const size_t full = d & ~(size_t)15;
  size_t c = 0;
  for (; c < full; c += 16)
    _mm_storeu_si128((__m128i *)(o + c), lerp(ld16(p[0] + c), ld16(p[1] + c), ld16(p[2] + c),
                                              ld16(p[3] + c), vx, vy, is_signed));
  const __mmask16 tail = (__mmask16)((1u << (d - full)) - 1u);
  if (tail)
    _mm_mask_storeu_epi8(
        o + c, tail,
        lerp(_mm_maskz_loadu_epi8(tail, p[0] + c), _mm_maskz_loadu_epi8(tail, p[1] + c),
             _mm_maskz_loadu_epi8(tail, p[2] + c), _mm_maskz_loadu_epi8(tail, p[3] + c), vx, vy,
             is_signed));
  return d;
}

#define TFCC_Q8_RESIZE_FN tfcc_q8_resize_avx512
#include "kernels/q8-resize/resize_body.h"
