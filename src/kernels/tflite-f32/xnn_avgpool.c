/* XNNPACK's unipass float average pooling (xnn_avgpool.h). */
#include "kernels/tflite-f32/xnn_avgpool.h"

#include <stddef.h>

bool tfcc_xnn_avgpool_fits(const tfcc_conv_geom *g) {
  return g->filter_h > 0 && g->filter_w > 0 &&
         (int64_t)g->filter_h * g->filter_w <= TFCC_XNN_AVGPOOL_MAX_TAPS;
}

void tfcc_xnn_avgpool_f32_rows(const tfcc_conv_geom *g, const float *in, float lo, float hi,
                               float *out, int32_t r0, int32_t r1) {
  static const float zero = 0.f;
  const int32_t c_n = g->out_c;
  for (int32_t r = r0; r < r1; r++) {
    const int32_t b = r / g->out_h, oy = r % g->out_h;
    for (int32_t ox = 0; ox < g->out_w; ox++) {
      const int32_t iy0 = oy * g->stride_h - g->pad_h, ix0 = ox * g->stride_w - g->pad_w;
      /* the indirection: tap k = kx * filter_h + ky, a pixel's channels or the zero row */
      const float *tap[TFCC_XNN_AVGPOOL_MAX_TAPS];
      size_t step[TFCC_XNN_AVGPOOL_MAX_TAPS];
      int32_t k = 0, inside = 0;
      for (int32_t kx = 0; kx < g->filter_w; kx++)
        for (int32_t ky = 0; ky < g->filter_h; ky++, k++) {
          const int32_t iy = iy0 + ky, ix = ix0 + kx;
          if (iy < 0 || iy >= g->in_h || ix < 0 || ix >= g->in_w) {
            tap[k] = &zero;
            step[k] = 0;
          } else {
            tap[k] = in + (((size_t)b * g->in_h + (size_t)iy) * g->in_w + (size_t)ix) * c_n;
            step[k] = 1;
            inside++;
          }
        }
      for (; k < TFCC_XNN_AVGPOOL_MAX_TAPS; k++) {
        tap[k] = &zero;
        step[k] = 0;
      }
      /* an empty window (a filter smaller than the padding) gives 0, as tfcc_avgpool_f32 */
      const float scale = inside ? 1.0f / (float)inside : 0.f;
      float *o = out + (((size_t)b * g->out_h + (size_t)oy) * g->out_w + (size_t)ox) * c_n;
      for (int32_t c = 0; c < c_n; c++) {
        const float t0 = tap[0][step[0] * c], t1 = tap[1][step[1] * c], t2 = tap[2][step[2] * c];
        const float t3 = tap[3][step[3] * c], t4 = tap[4][step[4] * c], t5 = tap[5][step[5] * c];
        const float t6 = tap[6][step[6] * c], t7 = tap[7][step[7] * c], t8 = tap[8][step[8] * c];
        const float s01 = t0 + t1, s23 = t2 + t3, s45 = t4 + t5, s67 = t6 + t7;
        const float s018 = s01 + t8, s2345 = s23 + s45;
        const float s01678 = s018 + s67;
        float v = s2345 + s01678;
        v = inside ? v * scale : 0.f;
        o[c] = v < lo ? lo : (v > hi ? hi : v);
      }
    }
  }
}
