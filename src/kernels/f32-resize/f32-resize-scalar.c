/* f32 bilinear resize, portable C: the reference arithmetic over table coordinates. */
#include "kernels/f32-resize/resize.h"

#if defined(__clang__)
#pragma STDC FP_CONTRACT OFF /* separately rounded multiply and add, as the reference */
#endif

static inline size_t off4(const tfcc_resize_shape *s, int32_t b, int32_t y, int32_t x) {
  return (((size_t)b * (size_t)s->in_h + (size_t)y) * (size_t)s->in_w + (size_t)x) *
         (size_t)s->depth;
}

TFCC_F32_RESIZE_DECL(tfcc_f32_resize_scalar) {
  const size_t D = (size_t)s->depth;
  if (!xt) { /* 2x upsampling: input row r -> output rows 2y, 2y + 1 */
    for (int32_t r = row0; r < row1; r++) {
      const int32_t b = r / s->in_h, y0 = r % s->in_h;
      const int32_t y1 = y0 + 1 < s->in_h - 1 ? y0 + 1 : s->in_h - 1;
      for (int32_t x0 = 0; x0 < s->in_w; x0++) {
        const int32_t x1 = x0 + 1 < s->in_w - 1 ? x0 + 1 : s->in_w - 1;
        const float *p00 = in + off4(s, b, y0, x0), *p01 = in + off4(s, b, y0, x1);
        const float *p10 = in + off4(s, b, y1, x0), *p11 = in + off4(s, b, y1, x1);
        float *o = out + (((size_t)b * s->out_h + 2 * (size_t)y0) * s->out_w + 2 * (size_t)x0) * D;
        const size_t oyo = D * (size_t)s->out_w;
        for (size_t c = 0; c < D; c++) {
          const float a = p00[c], bb = p01[c], cc = p10[c], d = p11[c];
          o[c] = a;
          o[c + D] = (a + bb) / 2;
          const float bl = (a + cc) / 2;
          o[c + oyo] = bl;
          o[c + D + oyo] = (bl + ((bb + d) / 2)) / 2;
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
      const float w[4] = {(1 - dy) * (1 - dx), (1 - dy) * dx, dy * (1 - dx), dy * dx};
      const float *p[4] = {in + off4(s, b, yt[y].lo, xt[x].lo), in + off4(s, b, yt[y].lo, xt[x].hi),
                           in + off4(s, b, yt[y].hi, xt[x].lo),
                           in + off4(s, b, yt[y].hi, xt[x].hi)};
      for (size_t c = 0; c < D; c++) o[c] = 0.0f;
      for (int k = 0; k < 4; k++)
        for (size_t c = 0; c < D; c++) o[c] += p[k][c] * w[k];
    }
  }
}
