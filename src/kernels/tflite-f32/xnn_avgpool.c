/* XNNPACK's float average pooling, unipass and multipass (xnn_avgpool.h). */
#include "kernels/tflite-f32/xnn_avgpool.h"

#include <stddef.h>

/* the multipass loops step their int32 tap index 8 or 9 past the last pass */
bool tfcc_xnn_avgpool_fits(const tfcc_conv_geom *g) {
  return g->filter_h > 0 && g->filter_w > 0 &&
         (int64_t)g->filter_h * g->filter_w <= (int64_t)INT32_MAX - 9;
}

/* The taps [k0, k0 + n) of the window at (b, iy0, ix0) in indirection order (tap k: kx = k /
 * filter_h, ky = k % filter_h), a pixel's channels or the zero row (step 0); slots n..8 read
 * the zero row. Returns how many of them lie inside the image. */
static int32_t window_taps(const tfcc_conv_geom *g, const float *in, int32_t b, int32_t iy0,
                           int32_t ix0, int32_t k0, int32_t n, const float *tap[9],
                           size_t step[9]) {
  static const float zero = 0.f;
  int32_t inside = 0;
  for (int32_t j = 0; j < 9; j++) {
    tap[j] = &zero;
    step[j] = 0;
    if (j >= n) continue;
    const int32_t k = k0 + j, iy = iy0 + k % g->filter_h, ix = ix0 + k / g->filter_h;
    if (iy < 0 || iy >= g->in_h || ix < 0 || ix >= g->in_w) continue;
    tap[j] = in + (((size_t)b * g->in_h + (size_t)iy) * g->in_w + (size_t)ix) * g->out_c;
    step[j] = 1;
    inside++;
  }
  return inside;
}

#define TAP(j) (tap[j][step[j] * c])

/* XNNPACK's nine-tap tree: ((t2 + t3) + (t4 + t5)) + (((t0 + t1) + t8) + (t6 + t7)). */
static inline float tree9(const float *const tap[9], const size_t step[9], int32_t c) {
  const float s01 = TAP(0) + TAP(1), s23 = TAP(2) + TAP(3), s45 = TAP(4) + TAP(5);
  const float s67 = TAP(6) + TAP(7);
  const float s018 = s01 + TAP(8), s2345 = s23 + s45;
  const float s01678 = s018 + s67;
  return s2345 + s01678;
}

/* The older kernel's eight-tap pass: ((t2 + t3) + (t4 + t5)) + (((t0 + t1) + acc) + (t6 + t7)). */
static inline float tree8_acc(const float *const tap[9], const size_t step[9], int32_t c,
                              float acc) {
  const float s01 = TAP(0) + TAP(1), s23 = TAP(2) + TAP(3), s45 = TAP(4) + TAP(5);
  const float s67 = TAP(6) + TAP(7);
  const float s01a = s01 + acc, s2345 = s23 + s45;
  const float s0167a = s01a + s67;
  return s2345 + s0167a;
}

#undef TAP

/* One output pixel's channels o[0, c_n) of a window over 9 taps, summed into o. */
static int32_t multipass_sum(const tfcc_conv_geom *g, const float *in, int32_t b, int32_t iy0,
                             int32_t ix0, tfcc_xnn_avgpool_order order, float *o) {
  const int32_t c_n = g->out_c, taps = g->filter_h * g->filter_w;
  const float *tap[9];
  size_t step[9];
  int32_t inside = 0, k0 = 0;
  if (order == TFCC_XNN_AVGPOOL_9P) {
    for (int32_t c = 0; c < c_n; c++) o[c] = 0.f;
    for (; k0 < taps; k0 += 9) { /* passes of 9, the last of the remaining 1-9 */
      const int32_t n = taps - k0 < 9 ? taps - k0 : 9;
      inside += window_taps(g, in, b, iy0, ix0, k0, n, tap, step);
      for (int32_t c = 0; c < c_n; c++) o[c] = o[c] + tree9(tap, step, c);
    }
    return inside;
  }
  inside = window_taps(g, in, b, iy0, ix0, 0, 9, tap, step);
  for (int32_t c = 0; c < c_n; c++) o[c] = tree9(tap, step, c);
  for (k0 = 9; k0 < taps; k0 += 8) { /* passes of 8, the last of the remaining 1-8 */
    const int32_t n = taps - k0 < 8 ? taps - k0 : 8;
    inside += window_taps(g, in, b, iy0, ix0, k0, n, tap, step);
    for (int32_t c = 0; c < c_n; c++) o[c] = tree8_acc(tap, step, c, o[c]);
  }
  return inside;
}

void tfcc_xnn_avgpool_f32_rows(const tfcc_conv_geom *g, const float *in, float lo, float hi,
                               tfcc_xnn_avgpool_order order, float *out, int32_t r0, int32_t r1) {
  const int32_t c_n = g->out_c;
  const bool multipass = (int64_t)g->filter_h * g->filter_w > TFCC_XNN_AVGPOOL_MAX_TAPS;
  for (int32_t r = r0; r < r1; r++) {
    const int32_t b = r / g->out_h, oy = r % g->out_h;
    for (int32_t ox = 0; ox < g->out_w; ox++) {
      const int32_t iy0 = oy * g->stride_h - g->pad_h, ix0 = ox * g->stride_w - g->pad_w;
      float *o = out + (((size_t)b * g->out_h + (size_t)oy) * g->out_w + (size_t)ox) * c_n;
      const float *tap[9];
      size_t step[9];
      const int32_t inside =
          multipass ? multipass_sum(g, in, b, iy0, ix0, order, o)
                    : window_taps(g, in, b, iy0, ix0, 0, g->filter_h * g->filter_w, tap, step);
      /* an empty window (a filter smaller than the padding) gives 0, as tfcc_avgpool_f32 */
      const float scale = inside ? 1.0f / (float)inside : 0.f;
      for (int32_t c = 0; c < c_n; c++) {
        float v = multipass ? o[c] : tree9(tap, step, c);
        v = inside ? v * scale : 0.f;
        o[c] = v < lo ? lo : (v > hi ? hi : v);
      }
    }
  }
}
