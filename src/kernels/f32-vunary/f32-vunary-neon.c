/* f32 activations, NEON (aarch64): 4 elements per step, scalar reference tails; the same
 * approximations as the x86 variants (vunary.h); selects written as the reference's
 * conditionals. */
#include <arm_neon.h>

#include "kernels/f32-vunary/vunary.h"
#include "kernels/ref/activation.h"

static inline float32x4_t exp_neg(float32x4_t z) {
  const float32x4_t lim = vdupq_n_f32(-87.5f);
  const float32x4_t zc = vbslq_f32(vcgtq_f32(lim, z), lim, z); /* NaN stays NaN */
  const float32x4_t n = vrndnq_f32(vmulq_f32(zc, vdupq_n_f32(1.44269504088896341f)));
  float32x4_t r = vfmsq_f32(zc, n, vdupq_n_f32(0.693359375f));
  r = vfmsq_f32(r, n, vdupq_n_f32(-2.12194440e-4f));
  float32x4_t p = vdupq_n_f32(1.9875691500e-4f);
  p = vfmaq_f32(vdupq_n_f32(1.3981999507e-3f), p, r);
  p = vfmaq_f32(vdupq_n_f32(8.3334519073e-3f), p, r);
  p = vfmaq_f32(vdupq_n_f32(4.1665795894e-2f), p, r);
  p = vfmaq_f32(vdupq_n_f32(1.6666665459e-1f), p, r);
  p = vfmaq_f32(vdupq_n_f32(5.0000001201e-1f), p, r);
  p = vfmaq_f32(vaddq_f32(r, vdupq_n_f32(1.0f)), p, vmulq_f32(r, r));
  const int32x4_t bits = vshlq_n_s32(vaddq_s32(vcvtq_s32_f32(n), vdupq_n_s32(127)), 23);
  const float32x4_t res = vmulq_f32(p, vreinterpretq_f32_s32(bits));
  const uint32x4_t tiny = vcltq_f32(z, vdupq_n_f32(-87.0f));
  return vreinterpretq_f32_u32(vbicq_u32(vreinterpretq_u32_f32(res), tiny));
}

static inline float32x4_t logistic(float32x4_t x) {
  const float32x4_t e = exp_neg(vnegq_f32(vabsq_f32(x)));
  const float32x4_t d = vaddq_f32(vdupq_n_f32(1.0f), e);
  return vbslq_f32(vcgeq_f32(x, vdupq_n_f32(0.f)), vdivq_f32(vdupq_n_f32(1.0f), d), vdivq_f32(e, d));
}

static inline float32x4_t tanh_(float32x4_t x) {
  const float32x4_t ax = vabsq_f32(x);
  const float32x4_t u = vmulq_f32(x, x);
  float32x4_t p = vdupq_n_f32(-929569.0f / 638512875.0f);
  p = vfmaq_f32(vdupq_n_f32(21844.0f / 6081075.0f), p, u);
  p = vfmaq_f32(vdupq_n_f32(-1382.0f / 155925.0f), p, u);
  p = vfmaq_f32(vdupq_n_f32(62.0f / 2835.0f), p, u);
  p = vfmaq_f32(vdupq_n_f32(-17.0f / 315.0f), p, u);
  p = vfmaq_f32(vdupq_n_f32(2.0f / 15.0f), p, u);
  p = vfmaq_f32(vdupq_n_f32(-1.0f / 3.0f), p, u);
  const float32x4_t small = vfmaq_f32(x, vmulq_f32(x, u), p);
  const float32x4_t e = exp_neg(vmulq_f32(vdupq_n_f32(-2.0f), ax));
  const float32x4_t one = vdupq_n_f32(1.0f);
  const float32x4_t t = vdivq_f32(vsubq_f32(one, e), vaddq_f32(one, e));
  const uint32x4_t sign = vandq_u32(vreinterpretq_u32_f32(x), vdupq_n_u32(0x80000000u));
  const float32x4_t large = vreinterpretq_f32_u32(vorrq_u32(vreinterpretq_u32_f32(t), sign));
  return vbslq_f32(vcltq_f32(ax, vdupq_n_f32(0.5f)), small, large);
}

static inline float32x4_t apply(const tfcc_f32_vunary_params *p, float32x4_t x) {
  switch (p->op) {
    case TFCC_F32VU_CLAMP: { /* lo < x ? x : lo, then hi < v ? hi : v */
      const float32x4_t lo = vdupq_n_f32(p->lo), hi = vdupq_n_f32(p->hi);
      const float32x4_t v = vbslq_f32(vcltq_f32(lo, x), x, lo);
      return vbslq_f32(vcltq_f32(hi, v), hi, v);
    }
    case TFCC_F32VU_LEAKY_RELU:
      return vbslq_f32(vcgtq_f32(x, vdupq_n_f32(0.f)), x, vmulq_f32(x, vdupq_n_f32(p->alpha)));
    case TFCC_F32VU_HARD_SWISH: {
      float32x4_t r = vaddq_f32(x, vdupq_n_f32(3.0f));
      r = vbslq_f32(vcltq_f32(vdupq_n_f32(0.f), r), r, vdupq_n_f32(0.f));
      r = vbslq_f32(vcltq_f32(vdupq_n_f32(6.f), r), vdupq_n_f32(6.f), r);
      return vdivq_f32(vmulq_f32(x, r), vdupq_n_f32(6.0f));
    }
    case TFCC_F32VU_LOGISTIC: return logistic(x);
    default: return tanh_(x);
  }
}

TFCC_F32_VUNARY_DECL(tfcc_f32_vunary_neon) {
  size_t i = 0;
  for (; i + 4 <= n; i += 4) vst1q_f32(out + i, apply(p, vld1q_f32(in + i)));
  if (i < n) {
    float buf[4] = {0.f, 0.f, 0.f, 0.f};
    for (size_t k = 0; k < n - i; k++) buf[k] = in[i + k];
    vst1q_f32(buf, apply(p, vld1q_f32(buf)));
    for (size_t k = 0; k < n - i; k++) out[i + k] = buf[k];
  }
}
