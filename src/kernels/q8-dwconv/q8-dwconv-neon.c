/* q8 depthwise micro-kernel, aarch64 NEON: 8 channels per step; each tap widens 8 input
 * bytes to int16 and multiply-accumulates with the int16 weights into int32 (vmlal_s16, an
 * exact product). The channel tail goes through a zero-padded copy. Requantization as
 * tfcc_requant_fp32 (fcvtns rounds half to even). */
#include <arm_neon.h>
#include <string.h>

#include "kernels/q8-dwconv/ukernels.h"

static inline int16x8_t widen(const uint8_t *p, size_t n, bool is_signed) {
  uint8_t tmp[8] = {0};
  const uint8_t *src = p;
  if (n < 8) {
    memcpy(tmp, p, n);
    src = tmp;
  }
  const uint8x8_t b = vld1_u8(src);
  return is_signed ? vmovl_s8(vreinterpret_s8_u8(b)) : vreinterpretq_s16_u16(vmovl_u8(b));
}

static inline void pixel(size_t c, size_t ntaps, const uint8_t *const *taps, const int32_t *pw,
                         const tfcc_q8_out *o, bool is_signed) {
  const size_t c16 = (c + 15) & ~(size_t)15;
  const float *scale = (const float *)(const void *)(pw + c16);
  const int32_t *w = pw + 2 * c16;
  const float32x4_t lo = vdupq_n_f32(o->lo), hi = vdupq_n_f32(o->hi);
  const int32x4_t zp = vdupq_n_s32(o->zp);
  for (size_t ch = 0; ch < c; ch += 8) {
    const size_t n = c - ch;
    int32x4_t a0 = vld1q_s32(pw + ch), a1 = vld1q_s32(pw + ch + 4);
    for (size_t t = 0; t < ntaps; t++) {
      const int16x8_t x = widen(taps[t] + ch, n, is_signed);
      const int32_t *wt = w + t * c16 + ch;
      const int16x4_t w0 = vmovn_s32(vld1q_s32(wt)), w1 = vmovn_s32(vld1q_s32(wt + 4));
      a0 = vmlal_s16(a0, vget_low_s16(x), w0);
      a1 = vmlal_s16(a1, vget_high_s16(x), w1);
    }
    if (o->c32) {
      vst1q_s32(o->c32 + ch, a0);
      vst1q_s32(o->c32 + ch + 4, a1);
      continue;
    }
    float32x4_t f0 = vmulq_f32(vcvtq_f32_s32(a0), vld1q_f32(scale + ch));
    float32x4_t f1 = vmulq_f32(vcvtq_f32_s32(a1), vld1q_f32(scale + ch + 4));
    f0 = vminq_f32(vmaxq_f32(f0, lo), hi);
    f1 = vminq_f32(vmaxq_f32(f1, lo), hi);
    const int32x4_t q0 = vaddq_s32(vcvtnq_s32_f32(f0), zp), q1 = vaddq_s32(vcvtnq_s32_f32(f1), zp);
    const uint8x8_t b = vmovn_u16(
        vcombine_u16(vmovn_u32(vreinterpretq_u32_s32(q0)), vmovn_u32(vreinterpretq_u32_s32(q1))));
    uint8_t tmp[8];
    vst1_u8(tmp, b);
    memcpy(o->c + ch, tmp, n < 8 ? n : 8);
  }
}

TFCC_Q8_DW_DECL(tfcc_q8_dw_s_neon) { pixel(c, ntaps, taps, pw, o, true); }
TFCC_Q8_DW_DECL(tfcc_q8_dw_u_neon) { pixel(c, ntaps, taps, pw, o, false); }
