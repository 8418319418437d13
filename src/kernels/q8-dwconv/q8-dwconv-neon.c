/* q8 depthwise micro-kernel, aarch64 NEON (dwconv_body.h): 8 channels per step; each tap
 * widens 8 input bytes to int16 and multiply-accumulates with the int16 weights into int32
 * (vmlal_s16, an exact product). The channel tail goes through a zero-padded copy.
 * Requantization as tfcc_requant_fp32 (fcvtns rounds half to even). */
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

#define Q8DW_N 8
typedef struct q8dw_acc {
  int32x4_t a0, a1;
} q8dw_acc;

static inline q8dw_acc q8dw_sum(const int32_t *bias, const uint8_t *const *taps, size_t ntaps,
                                size_t ch, size_t n, const int32_t *w, size_t c16, bool is_signed) {
  int32x4_t a0 = vld1q_s32(bias), a1 = vld1q_s32(bias + 4);
  for (size_t t = 0; t < ntaps; t++) {
    const int16x8_t x = widen(taps[t] + ch, n, is_signed);
    const int32_t *wt = w + t * c16;
    const int16x4_t w0 = vmovn_s32(vld1q_s32(wt)), w1 = vmovn_s32(vld1q_s32(wt + 4));
    a0 = vmlal_s16(a0, vget_low_s16(x), w0);
    a1 = vmlal_s16(a1, vget_high_s16(x), w1);
  }
  const q8dw_acc r = {a0, a1};
  return r;
}

static inline void q8dw_store32(int32_t *c32, q8dw_acc acc) {
  vst1q_s32(c32, acc.a0);
  vst1q_s32(c32 + 4, acc.a1);
}

static inline void q8dw_requant(uint8_t *c, q8dw_acc acc, const float *scale, float lo, float hi,
                                int32_t zp, size_t n) {
  const float32x4_t vlo = vdupq_n_f32(lo), vhi = vdupq_n_f32(hi);
  const int32x4_t vzp = vdupq_n_s32(zp);
  float32x4_t f0 = vmulq_f32(vcvtq_f32_s32(acc.a0), vld1q_f32(scale));
  float32x4_t f1 = vmulq_f32(vcvtq_f32_s32(acc.a1), vld1q_f32(scale + 4));
  f0 = vminq_f32(vmaxq_f32(f0, vlo), vhi);
  f1 = vminq_f32(vmaxq_f32(f1, vlo), vhi);
  const int32x4_t q0 = vaddq_s32(vcvtnq_s32_f32(f0), vzp), q1 = vaddq_s32(vcvtnq_s32_f32(f1), vzp);
  const uint8x8_t b = vmovn_u16(
      vcombine_u16(vmovn_u32(vreinterpretq_u32_s32(q0)), vmovn_u32(vreinterpretq_u32_s32(q1))));
  uint8_t tmp[8];
  vst1_u8(tmp, b);
  memcpy(c, tmp, n < 8 ? n : 8);
}

#define Q8DW_FN_S tfcc_q8_dw_s_neon
#define Q8DW_FN_U tfcc_q8_dw_u_neon
#include "kernels/q8-dwconv/dwconv_body.h"
