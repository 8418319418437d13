/* q8 bilinear resize, portable C: one channel at a time. */
#include "kernels/q8-resize/resize.h"

TFCC_Q8_RESIZE_DECL(tfcc_q8_resize_scalar) {
  const size_t d = (size_t)s->depth;
  for (int32_t r = row0; r < row1; r++) {
    const int32_t b = r / s->out_h, oy = r % s->out_h;
    const size_t base = (size_t)b * s->in_h * s->in_w;
    const size_t row_t = base + (size_t)yt[3 * oy] * s->in_w,
                 row_b = base + (size_t)yt[3 * oy + 1] * s->in_w;
    const int32_t wy = yt[3 * oy + 2];
    for (int32_t ox = 0; ox < s->out_w; ox++) {
      const size_t o = ((size_t)r * s->out_w + ox) * d;
      const size_t i00 = (row_t + (size_t)xt[3 * ox]) * d,
                   i01 = (row_t + (size_t)xt[3 * ox + 1]) * d;
      const size_t i10 = (row_b + (size_t)xt[3 * ox]) * d,
                   i11 = (row_b + (size_t)xt[3 * ox + 1]) * d;
      const int32_t wx = xt[3 * ox + 2];
      if (is_signed) {
        const int8_t *p = in;
        int8_t *q = out;
        for (size_t c = 0; c < d; c++)
          q[o + c] =
              (int8_t)tfcc_xnn_ibilinear(p[i00 + c], p[i01 + c], p[i10 + c], p[i11 + c], wx, wy);
      } else {
        const uint8_t *p = in;
        uint8_t *q = out;
        for (size_t c = 0; c < d; c++)
          q[o + c] =
              (uint8_t)tfcc_xnn_ibilinear(p[i00 + c], p[i01 + c], p[i10 + c], p[i11 + c], wx, wy);
      }
    }
  }
}
