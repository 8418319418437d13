/* f32 bilinear resize, AVX-512: 16 channels per step, masked channel tails; multiplies and adds
 * as separate instructions (no FMA), in the reference's order. */
#include <immintrin.h>

#include "kernels/f32-resize/resize.h"

static inline size_t off4(const tfcc_resize_shape *s, int32_t b, int32_t y, int32_t x) {
  return (((size_t)b * (size_t)s->in_h + (size_t)y) * (size_t)s->in_w + (size_t)x) * (size_t)s->depth;
}

static inline __m512 lerp4(const float *const *p, const __m512 *w, size_t c, __mmask16 m) {
  __m512 acc = _mm512_add_ps(_mm512_setzero_ps(), _mm512_mul_ps(_mm512_maskz_loadu_ps(m, p[0] + c), w[0]));
  acc = _mm512_add_ps(acc, _mm512_mul_ps(_mm512_maskz_loadu_ps(m, p[1] + c), w[1]));
  acc = _mm512_add_ps(acc, _mm512_mul_ps(_mm512_maskz_loadu_ps(m, p[2] + c), w[2]));
  return _mm512_add_ps(acc, _mm512_mul_ps(_mm512_maskz_loadu_ps(m, p[3] + c), w[3]));
}

TFCC_F32_RESIZE_DECL(tfcc_f32_resize_avx512) {
  const size_t D = (size_t)s->depth;
  const __m512 half = _mm512_set1_ps(0.5f); /* x / 2 and x * 0.5 round identically */
  if (!xt) {
    for (int32_t r = row0; r < row1; r++) {
      const int32_t b = r / s->in_h, y0 = r % s->in_h;
      const int32_t y1 = y0 + 1 < s->in_h - 1 ? y0 + 1 : s->in_h - 1;
      for (int32_t x0 = 0; x0 < s->in_w; x0++) {
        const int32_t x1 = x0 + 1 < s->in_w - 1 ? x0 + 1 : s->in_w - 1;
        const float *p00 = in + off4(s, b, y0, x0), *p01 = in + off4(s, b, y0, x1);
        const float *p10 = in + off4(s, b, y1, x0), *p11 = in + off4(s, b, y1, x1);
        float *o = out + (((size_t)b * s->out_h + 2 * (size_t)y0) * s->out_w + 2 * (size_t)x0) * D;
        const size_t oyo = D * (size_t)s->out_w;
        for (size_t c = 0; c < D; c += 16) {
          const __mmask16 m = D - c >= 16 ? (__mmask16)0xFFFF : (__mmask16)((1u << (D - c)) - 1u);
          const __m512 a = _mm512_maskz_loadu_ps(m, p00 + c), bb = _mm512_maskz_loadu_ps(m, p01 + c);
          const __m512 cc = _mm512_maskz_loadu_ps(m, p10 + c), d = _mm512_maskz_loadu_ps(m, p11 + c);
          const __m512 bl = _mm512_mul_ps(_mm512_add_ps(a, cc), half);
          _mm512_mask_storeu_ps(o + c, m, a);
          _mm512_mask_storeu_ps(o + c + D, m, _mm512_mul_ps(_mm512_add_ps(a, bb), half));
          _mm512_mask_storeu_ps(o + c + oyo, m, bl);
          _mm512_mask_storeu_ps(o + c + D + oyo, m,
                                _mm512_mul_ps(_mm512_add_ps(bl, _mm512_mul_ps(_mm512_add_ps(bb, d), half)), half));
        }
      }
    }
    return;
  }
  for (int32_t r = row0; r < row1; r++) {
    const int32_t b = r / s->out_h, y = r % s->out_h;
    const float dy = yt[y].frac;
    float *o = out + (size_t)r * s->out_w * D;
    for (int32_t x = 0; x < s->out_w; x++, o += D) {
      const float dx = xt[x].frac;
      const float ws[4] = {(1 - dy) * (1 - dx), (1 - dy) * dx, dy * (1 - dx), dy * dx};
      const __m512 w[4] = {_mm512_set1_ps(ws[0]), _mm512_set1_ps(ws[1]), _mm512_set1_ps(ws[2]),
                           _mm512_set1_ps(ws[3])};
      const float *p[4] = {in + off4(s, b, yt[y].lo, xt[x].lo), in + off4(s, b, yt[y].lo, xt[x].hi),
                           in + off4(s, b, yt[y].hi, xt[x].lo), in + off4(s, b, yt[y].hi, xt[x].hi)};
      size_t c = 0;
      for (; c + 16 <= D; c += 16) _mm512_storeu_ps(o + c, lerp4(p, w, c, (__mmask16)0xFFFF));
      if (c < D) {
        const __mmask16 m = (__mmask16)((1u << (D - c)) - 1u);
        _mm512_mask_storeu_ps(o + c, m, lerp4(p, w, c, m));
      }
    }
  }
}
