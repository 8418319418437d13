/* q8 bilinear resize, NEON (aarch64): 8 channels per step in two int32x4 halves, scalar
 * channel tails. */
#include <arm_neon.h>

#include "kernels/q8-resize/resize.h"
#include "kernels/simd/q8_widen_neon.h"

/* tfcc_xnn_ibilinear on 4 lanes (every intermediate inside int32 for 8-bit inputs). */
static inline int32x4_t lerp(int32x4_t tl, int32x4_t tr, int32x4_t bl, int32x4_t br, int32x4_t wx,
                             int32x4_t wy) {
  const int32x4_t t = vmlaq_s32(vshlq_n_s32(tl, 11), vsubq_s32(tr, tl), wx);
  const int32x4_t b = vmlaq_s32(vshlq_n_s32(bl, 11), vsubq_s32(br, bl), wx);
  const int32x4_t acc =
      vaddq_s32(vmlaq_s32(vshlq_n_s32(t, 11), vsubq_s32(b, t), wy), vdupq_n_s32(1 << 21));
  return vshrq_n_s32(acc, 22);
}

/* 8 channels per step, the rest to the body's scalar loop */
static inline size_t q8r_channels(int8_t *o, const int8_t *const *p, int32_t wx_s, int32_t wy_s,
                                  bool is_signed, size_t d) {
  const int32x4_t wx = vdupq_n_s32(wx_s), wy = vdupq_n_s32(wy_s);
  const size_t full = d & ~(size_t)7;
  for (size_t c = 0; c < full; c += 8) {
    int32x4_t a0, a1, b0, b1, c0, c1, d0, d1;
    tfcc_q8_widen_neon(p[0] + c, is_signed, &a0, &a1);
    tfcc_q8_widen_neon(p[1] + c, is_signed, &b0, &b1);
    tfcc_q8_widen_neon(p[2] + c, is_signed, &c0, &c1);
    tfcc_q8_widen_neon(p[3] + c, is_signed, &d0, &d1);
    const int16x8_t w = vcombine_s16(vqmovn_s32(lerp(a0, b0, c0, d0, wx, wy)),
                                     vqmovn_s32(lerp(a1, b1, c1, d1, wx, wy)));
    if (is_signed)
      vst1_s8(o + c, vqmovn_s16(w));
    else
      vst1_u8((uint8_t *)(o + c), vqmovun_s16(w));
  }
  return full;
}

#define TFCC_Q8_RESIZE_FN tfcc_q8_resize_neon
#include "kernels/q8-resize/resize_body.h"
