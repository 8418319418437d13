/* Row walker shared by the direct convolution variants (included by each ISA file after it
 * defines dc_tile). Per output row: pixels whose whole window lies inside the image read it in
 * place (pixel p's tap row ky at px[p] + ky * in_w * Cin, KW * Cin contiguous floats); the
 * others (padding) first gather their K taps, zeros for padding, into a stack patch (tap row
 * ky at patch + ky * KW * Cin). Tiles of up to TFCC_DC_MR consecutive pixels. Requires
 *
 *   static void dc_tile(const float *const *px, size_t mr, size_t ky_stride, int32_t KH,
 *                       int32_t KWC, const float *w, int32_t N, float *out, float lo, float hi);
 *
 * computing pixels p < mr (px[p] valid for p < mr) for every panel of w, pixel p's outputs
 * at out + p * N. */
#include <string.h>

#include "kernels/f32-conv-direct/direct_conv.h"

#ifndef TFCC_DC_MR
#define TFCC_DC_MR 12
#endif

/* Gathers pixel (img, oy, ox)'s K taps into dst (zeros outside the image). */
static void dc_patch(const tfcc_conv_geom *g, const float *img, int32_t oy, int32_t ox,
                     float *dst) {
  const int32_t C = g->in_c, KW = g->filter_w;
  const int32_t iy0 = oy * g->stride_h - g->pad_h, ix0 = ox * g->stride_w - g->pad_w;
  for (int32_t ky = 0; ky < g->filter_h; ky++) {
    const int32_t iy = iy0 + ky;
    for (int32_t kx = 0; kx < KW; kx++, dst += C) {
      const int32_t ix = ix0 + kx;
      if (iy < 0 || iy >= g->in_h || ix < 0 || ix >= g->in_w) {
        for (int32_t c = 0; c < C; c++) dst[c] = 0.0f;
      } else {
        const float *s = img + ((size_t)iy * (size_t)g->in_w + (size_t)ix) * (size_t)C;
        for (int32_t c = 0; c < C; c++) dst[c] = s[c];
      }
    }
  }
}

/* Pixels [ox0, ox1) of one output row through patches. */
static void dc_patched(const tfcc_conv_geom *g, const float *img, int32_t oy, int32_t ox0,
                       int32_t ox1, const float *w, float *orow, float lo, float hi) {
  float patch[TFCC_DC_MR][TFCC_F32_DIRECT_CONV_MAX_K];
  const float *px[TFCC_DC_MR];
  const int32_t KWC = g->filter_w * g->in_c;
  while (ox0 < ox1) {
    const int32_t n = ox1 - ox0 < TFCC_DC_MR ? ox1 - ox0 : TFCC_DC_MR;
    for (int32_t p = 0; p < n; p++) {
      dc_patch(g, img, oy, ox0 + p, patch[p]);
      px[p] = patch[p];
    }
    dc_tile(px, (size_t)n, (size_t)KWC, g->filter_h, KWC, w, g->out_c,
            orow + (size_t)ox0 * (size_t)g->out_c, lo, hi);
    ox0 += n;
  }
}

static void dc_rows(const tfcc_conv_geom *g, const float *in, const float *w, float lo, float hi,
                    float *out, int32_t row0, int32_t row1) {
  const int32_t C = g->in_c, KH = g->filter_h, KW = g->filter_w, N = g->out_c;
  const int32_t sw = g->stride_w;
  const size_t row_floats = (size_t)g->in_w * (size_t)C;
  /* columns whose window lies inside the image: [ox_lo, ox_hi) */
  int32_t ox_lo = 0, ox_hi = g->out_w;
  while (ox_lo < g->out_w && ox_lo * sw - g->pad_w < 0) ox_lo++;
  while (ox_hi > ox_lo && (ox_hi - 1) * sw - g->pad_w + KW > g->in_w) ox_hi--;
  for (int32_t row = row0; row < row1; row++) {
    const int32_t b = row / g->out_h, oy = row % g->out_h;
    const float *img = in + (size_t)b * (size_t)g->in_h * row_floats;
    float *orow = out + (size_t)row * (size_t)g->out_w * (size_t)N;
    const int32_t iy0 = oy * g->stride_h - g->pad_h;
    if (iy0 < 0 || iy0 + KH > g->in_h || ox_lo >= ox_hi) {
      dc_patched(g, img, oy, 0, g->out_w, w, orow, lo, hi);
      continue;
    }
    dc_patched(g, img, oy, 0, ox_lo, w, orow, lo, hi);
    const float *px[TFCC_DC_MR];
    const float *p0 = img + (size_t)iy0 * row_floats;
    for (int32_t ox = ox_lo; ox < ox_hi;) {
      const int32_t n = ox_hi - ox < TFCC_DC_MR ? ox_hi - ox : TFCC_DC_MR;
      for (int32_t p = 0; p < n; p++) px[p] = p0 + (size_t)((ox + p) * sw - g->pad_w) * (size_t)C;
      dc_tile(px, (size_t)n, row_floats, KH, KW * C, w, N, orow + (size_t)ox * (size_t)N, lo, hi);
      ox += n;
    }
    dc_patched(g, img, oy, ox_hi, g->out_w, w, orow, lo, hi);
  }
}
