/* The 8-bit bilinear resize walk (resize.h), written once: per output row its two source rows
 * and wy, per output pixel its four source pixels and wx, the channels in vectors by the ISA's
 * step and the rest one at a time (tfcc_xnn_ibilinear). Each ISA file defines, then includes
 * this body:
 *   TFCC_Q8_RESIZE_FN      the kernel's name
 *   size_t q8r_channels(int8_t *o, const int8_t *const *p, int32_t wx, int32_t wy,
 *                       bool is_signed, size_t d)
 *       writes the first channels of the pixel o (of d) from its four sources p (top-left,
 *       top-right, bottom-left, bottom-right) and returns how many it wrote. */
#include "kernels/q8-resize/resize.h"

TFCC_Q8_RESIZE_DECL(TFCC_Q8_RESIZE_FN) {
  const size_t d = (size_t)s->depth;
  const int8_t *p = in;
  int8_t *q = out;
  for (int32_t r = row0; r < row1; r++) {
    const int32_t b = r / s->out_h, oy = r % s->out_h;
    const size_t base = (size_t)b * s->in_h * s->in_w;
    const size_t row_t = base + (size_t)yt[3 * oy] * s->in_w,
                 row_b = base + (size_t)yt[3 * oy + 1] * s->in_w;
    const int32_t wy = yt[3 * oy + 2];
    for (int32_t ox = 0; ox < s->out_w; ox++) {
      int8_t *o = q + ((size_t)r * s->out_w + ox) * d;
      const int8_t *const src[4] = {
          p + (row_t + (size_t)xt[3 * ox]) * d, p + (row_t + (size_t)xt[3 * ox + 1]) * d,
          p + (row_b + (size_t)xt[3 * ox]) * d, p + (row_b + (size_t)xt[3 * ox + 1]) * d};
      const int32_t wx = xt[3 * ox + 2];
      for (size_t c = q8r_channels(o, src, wx, wy, is_signed, d); c < d; c++) {
        const int32_t v =
            is_signed ? tfcc_xnn_ibilinear(src[0][c], src[1][c], src[2][c], src[3][c], wx, wy)
                      : tfcc_xnn_ibilinear((uint8_t)src[0][c], (uint8_t)src[1][c],
                                           (uint8_t)src[2][c], (uint8_t)src[3][c], wx, wy);
        o[c] = (int8_t)v;
      }
    }
  }
}
