/* q8 bilinear resize, NEON (aarch64): 8 channels per step in two int32x4 halves, scalar
 * channel tails. */
#include <arm_neon.h>

#include "kernels/q8-resize/resize.h"

static inline void widen(const int8_t *p, bool s, int32x4_t *lo, int32x4_t *hi) {
  int16x8_t w;
  if (s)
    w = vmovl_s8(vld1_s8(p));
  else
    w = vreinterpretq_s16_u16(vmovl_u8(vld1_u8((const uint8_t *)p)));
  *lo = vmovl_s16(vget_low_s16(w));
  *hi = vmovl_s16(vget_high_s16(w));
}

/* tfcc_xnn_ibilinear on 4 lanes (every intermediate inside int32 for 8-bit inputs). */
static inline int32x4_t lerp(int32x4_t tl, int32x4_t tr, int32x4_t bl, int32x4_t br, int32x4_t wx,
                             int32x4_t wy) {
  const int32x4_t t = vmlaq_s32(vshlq_n_s32(tl, 11), vsubq_s32(tr, tl), wx);
  const int32x4_t b = vmlaq_s32(vshlq_n_s32(bl, 11), vsubq_s32(br, bl), wx);
  const int32x4_t acc =
      vaddq_s32(vmlaq_s32(vshlq_n_s32(t, 11), vsubq_s32(b, t), wy), vdupq_n_s32(1 << 21));
  return vshrq_n_s32(acc, 22);
}

TFCC_Q8_RESIZE_DECL(tfcc_q8_resize_neon) {
  const size_t d = (size_t)s->depth;
  const int8_t *p = in;
  int8_t *q = out;
  const size_t full = d & ~(size_t)7;
  for (int32_t r = row0; r < row1; r++) {
    const int32_t b = r / s->out_h, oy = r % s->out_h;
    const size_t base = (size_t)b * s->in_h * s->in_w;
    const size_t row_t = base + (size_t)yt[3 * oy] * s->in_w,
                 row_b = base + (size_t)yt[3 * oy + 1] * s->in_w;
    const int32_t wy_s = yt[3 * oy + 2];
    const int32x4_t wy = vdupq_n_s32(wy_s);
    for (int32_t ox = 0; ox < s->out_w; ox++) {
      int8_t *o = q + ((size_t)r * s->out_w + ox) * d;
      const int8_t *p00 = p + (row_t + (size_t)xt[3 * ox]) * d,
                   *p01 = p + (row_t + (size_t)xt[3 * ox + 1]) * d;
      const int8_t *p10 = p + (row_b + (size_t)xt[3 * ox]) * d,
                   *p11 = p + (row_b + (size_t)xt[3 * ox + 1]) * d;
      const int32_t wx_s = xt[3 * ox + 2];
      const int32x4_t wx = vdupq_n_s32(wx_s);
      size_t c = 0;
      for (; c < full; c += 8) {
        int32x4_t a0, a1, b0, b1, c0, c1, d0, d1;
        widen(p00 + c, is_signed, &a0, &a1);
        widen(p01 + c, is_signed, &b0, &b1);
        widen(p10 + c, is_signed, &c0, &c1);
        widen(p11 + c, is_signed, &d0, &d1);
        const int16x8_t w = vcombine_s16(vqmovn_s32(lerp(a0, b0, c0, d0, wx, wy)),
                                         vqmovn_s32(lerp(a1, b1, c1, d1, wx, wy)));
        if (is_signed)
          vst1_s8(o + c, vqmovn_s16(w));
        else
          vst1_u8((uint8_t *)(o + c), vqmovun_s16(w));
      }
      for (; c < d; c++) {
        const int32_t v = is_signed
                              ? tfcc_xnn_ibilinear(p00[c], p01[c], p10[c], p11[c], wx_s, wy_s)
                              : tfcc_xnn_ibilinear((uint8_t)p00[c], (uint8_t)p01[c],
                                                   (uint8_t)p10[c], (uint8_t)p11[c], wx_s, wy_s);
        o[c] = (int8_t)v;
      }
    }
  }
}
