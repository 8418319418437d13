/* uint8 bilinear resize in TFLite's builtin float arithmetic (see bilinear_u8.h). */
#include "kernels/q8-resize/bilinear_u8.h"

#include <string.h>

#if defined(__clang__)
#pragma STDC FP_CONTRACT OFF /* separately rounded multiplies and adds, as the reference */
#endif

/* One column of the table: the two source columns (element offsets in a row) and the fraction. */
typedef struct bu_col {
  int64_t x0, x1;
  float dx;
} bu_col;

size_t tfcc_q8_resize_bilinear_u8_scratch_bytes(const tfcc_resize_shape *s) {
  return sizeof(bu_col) * (size_t)(s->out_w > 0 ? s->out_w : 0);
}

void tfcc_q8_resize_bilinear_u8_float(const tfcc_resize_shape *s, bool align_corners,
                                      bool half_pixel, const uint8_t *in, uint8_t *out,
                                      void *scratch) {
  if (s->batch <= 0 || s->out_h <= 0 || s->out_w <= 0 || s->depth <= 0) return;
  const size_t D = (size_t)s->depth;
  float hs, ws;
  tfcc_ref_resize_scales_f32(s, align_corners, &hs, &ws);
  bu_col *cols = scratch;
  for (int32_t x = 0; x < s->out_w; x++) {
    float ix;
    int32_t x0, x1;
    tfcc_ref_resize_interp_f32(x, ws, half_pixel, s->in_w, &ix, &x0, &x1);
    cols[x].x0 = (int64_t)x0 * s->depth;
    cols[x].x1 = (int64_t)x1 * s->depth;
    cols[x].dx = ix - (float)x0;
  }
  const size_t row_elems = (size_t)s->in_w * D;
  uint8_t *o = out;
  for (int32_t b = 0; b < s->batch; b++) {
    const uint8_t *img = in + (size_t)b * (size_t)s->in_h * row_elems;
    for (int32_t y = 0; y < s->out_h; y++) {
      float iy;
      int32_t y0, y1;
      tfcc_ref_resize_interp_f32(y, hs, half_pixel, s->in_h, &iy, &y0, &y1);
      const float dy = iy - (float)y0;
      const uint8_t *r0 = img + (size_t)y0 * row_elems, *r1 = img + (size_t)y1 * row_elems;
      for (int32_t x = 0; x < s->out_w; x++, o += D) {
        const float dx = cols[x].dx;
        const float w[4] = {(1 - dy) * (1 - dx), (1 - dy) * dx, dy * (1 - dx), dy * dx};
        const uint8_t *p0 = r0 + cols[x].x0, *p1 = r0 + cols[x].x1;
        const uint8_t *p2 = r1 + cols[x].x0, *p3 = r1 + cols[x].x1;
        /* the reference's expression per channel (the compiler vectorises this loop) */
        for (size_t k = 0; k < D; k++) {
          float v = (float)p0[k] * w[0];
          v = v + (float)p1[k] * w[1];
          v = v + (float)p2[k] * w[2];
          v = v + (float)p3[k] * w[3];
          v = v + 0.5f;
          o[k] = (uint8_t)v;
        }
      }
    }
  }
}
