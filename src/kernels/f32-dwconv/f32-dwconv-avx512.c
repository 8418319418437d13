/* f32 depthwise kernel, AVX-512F. For each output row and each 16-channel block (masked
 * tail), the filter taps stay in zmm registers while the row's interior pixels are computed
 * four at a time (four independent FMA chains); 3x3 and 5x5 are unrolled at compile time,
 * any stride. Border pixels (taps outside the image) take a per-pixel loop over the valid
 * taps. */
#include <immintrin.h>
#include <stdbool.h>
#include <stddef.h>

#include "kernels/f32-dwconv/dwconv.h"

typedef struct dw_row {
  const float *img;   /* image of this batch */
  const float *filter;
  const float *bias;
  float *orow;
  int32_t C, iy0, ky0, ky1;
  __m512 lo, hi;
} dw_row;

static inline __mmask16 tail_mask(int32_t n) {
  return n >= 16 ? (__mmask16)0xFFFF : (__mmask16)((1u << n) - 1u);
}

/* One pixel, one channel block, taps clipped to the image. */
static inline void dw_pixel_clipped(const tfcc_conv_geom *g, const dw_row *r, int32_t KH,
                                    int32_t KW, int32_t ox, int32_t c0, __mmask16 m) {
  const int32_t C = r->C, ix0 = ox * g->stride_w - g->pad_w;
  __m512 acc = r->bias ? _mm512_maskz_loadu_ps(m, r->bias + c0) : _mm512_setzero_ps();
  for (int32_t ky = r->ky0; ky < r->ky1; ky++) {
    const int32_t iy = r->iy0 + ky * g->dil_h;
    for (int32_t kx = 0; kx < KW; kx++) {
      const int32_t ix = ix0 + kx * g->dil_w;
      if (ix < 0 || ix >= g->in_w) continue;
      const __m512 x =
          _mm512_maskz_loadu_ps(m, r->img + ((size_t)iy * (size_t)g->in_w + (size_t)ix) * (size_t)C + c0);
      const __m512 w = _mm512_maskz_loadu_ps(m, r->filter + ((size_t)ky * (size_t)KW + (size_t)kx) * (size_t)C + c0);
      acc = _mm512_fmadd_ps(x, w, acc);
    }
  }
  (void)KH;
  acc = _mm512_min_ps(_mm512_max_ps(acc, r->lo), r->hi);
  _mm512_mask_storeu_ps(r->orow + (size_t)ox * (size_t)C + c0, m, acc);
}

/* A full output row for fixed KH x KW (constants in the callers). */
static inline void dw_row_fixed(const tfcc_conv_geom *g, const dw_row *r, const int32_t KH,
                                const int32_t KW) {
  const int32_t C = r->C, sw = g->stride_w;
  const bool rows_ok = r->ky0 == 0 && r->ky1 == KH;
  /* interior columns: every tap inside the image */
  int32_t ox_lo = 0, ox_hi = g->out_w;
  while (ox_lo < g->out_w && ox_lo * sw - g->pad_w < 0) ox_lo++;
  while (ox_hi > ox_lo && (ox_hi - 1) * sw - g->pad_w + (KW - 1) * g->dil_w >= g->in_w) ox_hi--;
  const size_t xs = (size_t)sw * (size_t)C;                 /* next output pixel's input */
  const size_t col = (size_t)g->dil_w * (size_t)C;          /* next tap along x */
  const size_t row = (size_t)g->dil_h * (size_t)g->in_w * (size_t)C; /* next tap along y */
  for (int32_t c0 = 0; c0 < C; c0 += 16) {
    const __mmask16 m = tail_mask(C - c0);
    if (!rows_ok || KH * KW > 25) {
      for (int32_t ox = 0; ox < g->out_w; ox++) dw_pixel_clipped(g, r, KH, KW, ox, c0, m);
      continue;
    }
    __m512 w[25];
    for (int32_t t = 0; t < KH * KW; t++)
      w[t] = _mm512_maskz_loadu_ps(m, r->filter + (size_t)t * (size_t)C + c0);
    const __m512 b = r->bias ? _mm512_maskz_loadu_ps(m, r->bias + c0) : _mm512_setzero_ps();
    int32_t ox = 0;
    for (; ox < ox_lo; ox++) dw_pixel_clipped(g, r, KH, KW, ox, c0, m);
    const float *base = r->img + (size_t)r->iy0 * (size_t)g->in_w * (size_t)C + c0;
    for (; ox + 4 <= ox_hi; ox += 4) {
      const float *x0 = base + ((size_t)ox * (size_t)sw - (size_t)g->pad_w) * (size_t)C;
      __m512 a0 = b, a1 = b, a2 = b, a3 = b;
      for (int32_t ky = 0; ky < KH; ky++)
        for (int32_t kx = 0; kx < KW; kx++) {
          const float *x = x0 + (size_t)ky * row + (size_t)kx * col;
          const __m512 wt = w[ky * KW + kx];
          a0 = _mm512_fmadd_ps(_mm512_maskz_loadu_ps(m, x), wt, a0);
          a1 = _mm512_fmadd_ps(_mm512_maskz_loadu_ps(m, x + xs), wt, a1);
          a2 = _mm512_fmadd_ps(_mm512_maskz_loadu_ps(m, x + 2 * xs), wt, a2);
          a3 = _mm512_fmadd_ps(_mm512_maskz_loadu_ps(m, x + 3 * xs), wt, a3);
        }
      float *o = r->orow + (size_t)ox * (size_t)C + c0;
      _mm512_mask_storeu_ps(o, m, _mm512_min_ps(_mm512_max_ps(a0, r->lo), r->hi));
      _mm512_mask_storeu_ps(o + C, m, _mm512_min_ps(_mm512_max_ps(a1, r->lo), r->hi));
      _mm512_mask_storeu_ps(o + 2 * C, m, _mm512_min_ps(_mm512_max_ps(a2, r->lo), r->hi));
      _mm512_mask_storeu_ps(o + 3 * C, m, _mm512_min_ps(_mm512_max_ps(a3, r->lo), r->hi));
    }
    for (; ox < ox_hi; ox++) {
      const float *x0 = base + ((size_t)ox * (size_t)sw - (size_t)g->pad_w) * (size_t)C;
      __m512 a0 = b;
      for (int32_t ky = 0; ky < KH; ky++)
        for (int32_t kx = 0; kx < KW; kx++)
          a0 = _mm512_fmadd_ps(_mm512_maskz_loadu_ps(m, x0 + (size_t)ky * row + (size_t)kx * col),
                               w[ky * KW + kx], a0);
      _mm512_mask_storeu_ps(r->orow + (size_t)ox * (size_t)C + c0, m,
                            _mm512_min_ps(_mm512_max_ps(a0, r->lo), r->hi));
    }
    for (; ox < g->out_w; ox++) dw_pixel_clipped(g, r, KH, KW, ox, c0, m);
  }
}

TFCC_F32_DWCONV_DECL(tfcc_f32_dwconv_avx512) {
  const int32_t C = g->in_c, KH = g->filter_h, KW = g->filter_w;
  dw_row r;
  r.filter = filter;
  r.bias = bias;
  r.C = C;
  r.lo = _mm512_set1_ps(lo);
  r.hi = _mm512_set1_ps(hi);
  for (int32_t rw = row0; rw < row1; rw++) {
    const int32_t b = rw / g->out_h, oy = rw % g->out_h;
    r.img = in + (size_t)b * (size_t)g->in_h * (size_t)g->in_w * (size_t)C;
    r.orow = out + (size_t)rw * (size_t)g->out_w * (size_t)C;
    r.iy0 = oy * g->stride_h - g->pad_h;
    r.ky0 = 0;
    r.ky1 = KH;
    while (r.ky0 < KH && r.iy0 + r.ky0 * g->dil_h < 0) r.ky0++;
    while (r.ky1 > r.ky0 && r.iy0 + (r.ky1 - 1) * g->dil_h >= g->in_h) r.ky1--;
    if (KH == 3 && KW == 3)
      dw_row_fixed(g, &r, 3, 3);
    else if (KH == 5 && KW == 5)
      dw_row_fixed(g, &r, 5, 5);
    else
      dw_row_fixed(g, &r, KH, KW);
  }
}
