/* Bilinear resize, TFLite reference_ops::ResizeBilinear (float path) with half-pixel centers:
 *   scale = (float)in / out;  src = (dst + 0.5f) * scale - 0.5f;
 *   lo = max((int)floor(src), 0);  hi = min((int)ceil(src), in - 1);
 *   v = p(y0,x0)*(1-dy)*(1-dx) + p(y1,x0)*dy*(1-dx) + p(y0,x1)*(1-dy)*dx + p(y1,x1)*dy*dx
 * with dy = src_y - y0 (which may be negative at the top/left border: TFLite does not clamp
 * it), every product and sum in float32 in that order, then truncated toward zero.
 * The operation order is kept exactly so results are bit-identical. */
#include "resize.h"

#include <math.h>
#include <stddef.h>

typedef struct axis_sample {
  float src;
  int32_t lo;
  int32_t hi;
} axis_sample;

static axis_sample sample_axis(int32_t dst, float scale, int32_t in_size) {
  axis_sample s;
  s.src = ((float)dst + 0.5f) * scale - 0.5f;
  int32_t f = (int32_t)floorf(s.src);
  int32_t c = (int32_t)ceilf(s.src);
  s.lo = f > 0 ? f : 0;
  s.hi = c < in_size - 1 ? c : in_size - 1;
  return s;
}

void resize_bilinear_u8(const uint8_t *in, int32_t ih, int32_t iw, int32_t channels, uint8_t *out,
                        int32_t oh, int32_t ow) {
  const float hscale = (float)ih / (float)oh;
  const float wscale = (float)iw / (float)ow;
  const size_t in_row = (size_t)iw * (size_t)channels;
  for (int32_t y = 0; y < oh; y++) {
    const axis_sample sy = sample_axis(y, hscale, ih);
    /* Each step is a separate statement so no compiler contracts it into an FMA. */
    const float dy = sy.src - (float)sy.lo;
    const float wy0 = 1.0f - dy;
    const uint8_t *r0 = in + (size_t)sy.lo * in_row;
    const uint8_t *r1 = in + (size_t)sy.hi * in_row;
    for (int32_t x = 0; x < ow; x++) {
      const axis_sample sx = sample_axis(x, wscale, iw);
      const float dx = sx.src - (float)sx.lo;
      const float wx0 = 1.0f - dx;
      const size_t c0 = (size_t)sx.lo * (size_t)channels;
      const size_t c1 = (size_t)sx.hi * (size_t)channels;
      uint8_t *dst = out + ((size_t)y * (size_t)ow + (size_t)x) * (size_t)channels;
      for (int32_t c = 0; c < channels; c++) {
        float a = (float)r0[c0 + (size_t)c] * wy0;
        a = a * wx0;
        float b = (float)r1[c0 + (size_t)c] * dy;
        b = b * wx0;
        float d = (float)r0[c1 + (size_t)c] * wy0;
        d = d * dx;
        float e = (float)r1[c1 + (size_t)c] * dy;
        e = e * dx;
        float v = a + b;
        v = v + d;
        v = v + e;
        /* Results lie in [0, 255] up to float rounding; clamp so the cast is defined. */
        if (!(v > 0.0f)) v = 0.0f;
        if (v > 255.0f) v = 255.0f;
        dst[c] = (uint8_t)v;
      }
    }
  }
}

void pixels_to_input(const uint8_t *px, size_t count, tfcc_dtype dtype, double mean, double std,
                     void *dst) {
  for (size_t i = 0; i < count; i++) {
    if (dtype == TFCC_UINT8)
      ((uint8_t *)dst)[i] = px[i];
    else if (dtype == TFCC_INT8)
      ((int8_t *)dst)[i] = (int8_t)((int)px[i] - 128);
    else if (dtype == TFCC_FLOAT32)
      ((float *)dst)[i] = (float)(((double)px[i] - mean) / std);
  }
}
