/* RESIZE_BILINEAR on 8-bit tensors as TFLite's XNNPACK delegate computes it: per output pixel
 * float source coordinates and 11-bit weights (xnn_indirection_init_resize_bilinear2d_hwc_q11),
 * then the s8/u8 ibilinear kernel (two 11-bit lerps, + 2^21, arithmetic shift right 22); and
 * on float32 (hybrid models, TFLITE mode) with float weights, the f32 ibilinear lerps. */
#include <math.h>

#include "kernels/ref/resize.h"

float tfcc_xnn_resize_coord_f32(int32_t o, int32_t in, int32_t out, bool align, bool half,
                                int32_t *lo, int32_t *hi) {
  const int32_t adj = (align && out != 1) ? 1 : 0;
  const float scale = (float)(in - adj) / (float)(out - adj);
  const int32_t max = in - 1;
  float x;
  if (align || !half) { /* align_corners, or TensorFlow's legacy mode */
    x = (float)o * scale;
  } else {
    const float offset = 0.5f * scale - 0.5f;
    x = (float)o * scale + offset;
    x = fminf(fmaxf(x, 0.0f), (float)max);
  }
  *lo = (int32_t)x;
  *hi = *lo + 1 < max ? *lo + 1 : max;
  return x;
}

void tfcc_xnn_resize_axis(int32_t o, int32_t in, int32_t out, bool align, bool half, int32_t *lo,
                          int32_t *hi, int32_t *w) {
  const float x = tfcc_xnn_resize_coord_f32(o, in, out, align, half, lo, hi);
  *w = (int32_t)(int16_t)lrintf((x - (float)*lo) * 0x1.0p+11f);
}

void tfcc_xnn_resize_bilinear_f32(const tfcc_resize_shape *s, bool align_corners, bool half_pixel,
                                  const float *in, float *out) {
  if (tfcc_resize_empty(s)) return;
  for (int32_t b = 0; b < s->batch; b++)
    for (int32_t oy = 0; oy < s->out_h; oy++) {
      int32_t y0, y1;
      const float fy =
          tfcc_xnn_resize_coord_f32(oy, s->in_h, s->out_h, align_corners, half_pixel, &y0, &y1);
      const float ay = fy - (float)y0;
      for (int32_t ox = 0; ox < s->out_w; ox++) {
        int32_t x0, x1;
        const float fx =
            tfcc_xnn_resize_coord_f32(ox, s->in_w, s->out_w, align_corners, half_pixel, &x0, &x1);
        const float ax = fx - (float)x0;
        const float *base = in + (size_t)b * s->in_h * s->in_w * s->depth;
        const float *p00 = base + ((size_t)y0 * s->in_w + x0) * s->depth;
        const float *p01 = base + ((size_t)y0 * s->in_w + x1) * s->depth;
        const float *p10 = base + ((size_t)y1 * s->in_w + x0) * s->depth;
        const float *p11 = base + ((size_t)y1 * s->in_w + x1) * s->depth;
        float *o = out + (((size_t)b * s->out_h + oy) * s->out_w + ox) * s->depth;
        for (int32_t c = 0; c < s->depth; c++) { /* f32-ibilinear: one rounding per step */
          const float td = p01[c] - p00[c], bd = p11[c] - p10[c];
          const float tp = td * ax, bp = bd * ax;
          const float t = p00[c] + tp, bo = p10[c] + bp;
          const float d = bo - t;
          const float dp = d * ay;
          o[c] = t + dp;
        }
      }
    }
}

int32_t tfcc_xnn_ibilinear(int32_t tl, int32_t tr, int32_t bl, int32_t br, int32_t wh, int32_t wv) {
  const int32_t t = (int32_t)((uint32_t)tl << 11) + (tr - tl) * wh;
  const int32_t b = (int32_t)((uint32_t)bl << 11) + (br - bl) * wh;
  const int32_t acc = (int32_t)((uint32_t)t << 11) + (b - t) * wv + (1 << 21);
  /* arithmetic shift right by 22 (floor) */
  return acc >= 0 ? acc >> 22 : -(int32_t)(~(uint32_t)acc >> 22) - 1;
}

#define XNN_RESIZE_BODY(T) \
  if (tfcc_resize_empty(s)) return; \
  for (int32_t b = 0; b < s->batch; b++) \
    for (int32_t oy = 0; oy < s->out_h; oy++) { \
      int32_t y0, y1, wy; \
      tfcc_xnn_resize_axis(oy, s->in_h, s->out_h, align_corners, half_pixel, &y0, &y1, &wy); \
      for (int32_t ox = 0; ox < s->out_w; ox++) { \
        int32_t x0, x1, wx; \
        tfcc_xnn_resize_axis(ox, s->in_w, s->out_w, align_corners, half_pixel, &x0, &x1, &wx); \
        const T *base = in + (size_t)b * s->in_h * s->in_w * s->depth; \
        const T *p00 = base + ((size_t)y0 * s->in_w + x0) * s->depth; \
        const T *p01 = base + ((size_t)y0 * s->in_w + x1) * s->depth; \
        const T *p10 = base + ((size_t)y1 * s->in_w + x0) * s->depth; \
        const T *p11 = base + ((size_t)y1 * s->in_w + x1) * s->depth; \
        T *o = out + (((size_t)b * s->out_h + oy) * s->out_w + ox) * s->depth; \
        for (int32_t c = 0; c < s->depth; c++) \
          o[c] = (T)tfcc_xnn_ibilinear(p00[c], p01[c], p10[c], p11[c], wx, wy); \
      } \
    }

void tfcc_xnn_resize_bilinear_u8(const tfcc_resize_shape *s, bool align_corners, bool half_pixel,
                                 const uint8_t *in, uint8_t *out) {
  XNN_RESIZE_BODY(uint8_t)
}

void tfcc_xnn_resize_bilinear_i8(const tfcc_resize_shape *s, bool align_corners, bool half_pixel,
                                 const int8_t *in, int8_t *out) {
  XNN_RESIZE_BODY(int8_t)
}
