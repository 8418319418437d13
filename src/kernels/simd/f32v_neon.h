/* Float32 vector primitives, NEON on aarch64 (f32v.h lists them). Maximum, minimum and the
 * selects are written as the reference's conditionals: NEON's FMAX/FMIN treat NaN otherwise.
 * Partial loads and stores go through a lane buffer. */
#ifndef TFCC_KERNELS_SIMD_F32V_NEON_H
#define TFCC_KERNELS_SIMD_F32V_NEON_H

#include <arm_neon.h>
#include <stddef.h>

#include "kernels/simd/f32v.h"

typedef float32x4_t f32v;
typedef uint32x4_t f32m;
#define F32V_N 4

static inline f32v f32v_ld(const float *p) { return vld1q_f32(p); }
static inline void f32v_st(float *p, f32v v) { vst1q_f32(p, v); }
static inline f32v f32v_ld_n(const float *p, size_t n) {
  float buf[4] = {0.f, 0.f, 0.f, 0.f};
  for (size_t k = 0; k < n; k++) buf[k] = p[k];
  return vld1q_f32(buf);
}
static inline void f32v_st_n(float *p, f32v v, size_t n) {
  float buf[4];
  vst1q_f32(buf, v);
  for (size_t k = 0; k < n; k++) p[k] = buf[k];
}
static inline f32v f32v_set(float x) { return vdupq_n_f32(x); }
static inline f32v f32v_zero(void) { return vdupq_n_f32(0.f); }
static inline f32v f32v_add(f32v a, f32v b) { return vaddq_f32(a, b); }
static inline f32v f32v_sub(f32v a, f32v b) { return vsubq_f32(a, b); }
static inline f32v f32v_mul(f32v a, f32v b) { return vmulq_f32(a, b); }
static inline f32v f32v_div(f32v a, f32v b) { return vdivq_f32(a, b); }
static inline f32v f32v_fma(f32v a, f32v b, f32v c) { return vfmaq_f32(c, a, b); }
static inline f32v f32v_fnma(f32v a, f32v b, f32v c) { return vfmsq_f32(c, a, b); }
static inline f32v f32v_max(f32v x, f32v y) { return vbslq_f32(vcgtq_f32(x, y), x, y); }
static inline f32v f32v_min(f32v x, f32v y) { return vbslq_f32(vcltq_f32(x, y), x, y); }
static inline f32m f32v_gt(f32v x, f32v y) { return vcgtq_f32(x, y); }
static inline f32m f32v_ge(f32v x, f32v y) { return vcgeq_f32(x, y); }
static inline f32m f32v_lt(f32v x, f32v y) { return vcltq_f32(x, y); }
static inline f32v f32v_sel(f32m m, f32v a, f32v b) { return vbslq_f32(m, a, b); }
static inline f32v f32v_abs(f32v x) { return vabsq_f32(x); }
static inline f32v f32v_neg_abs(f32v x) { return vnegq_f32(vabsq_f32(x)); }
static inline f32v f32v_copysign(f32v t, f32v x) {
  const uint32x4_t sign = vandq_u32(vreinterpretq_u32_f32(x), vdupq_n_u32(0x80000000u));
  return vreinterpretq_f32_u32(vorrq_u32(vreinterpretq_u32_f32(t), sign));
}
static inline f32v f32v_round(f32v x) { return vrndnq_f32(x); }
static inline f32v f32v_exp2i(f32v n) {
  return vreinterpretq_f32_s32(vshlq_n_s32(vaddq_s32(vcvtq_s32_f32(n), vdupq_n_s32(127)), 23));
}
static inline float f32v_hsum(f32v v) { return vaddvq_f32(v); }
static inline float f32v_hmax(f32v v) {
  float buf[4];
  vst1q_f32(buf, v);
  float m = buf[0];
  for (int k = 1; k < 4; k++) m = buf[k] > m ? buf[k] : m;
  return m;
}

#endif
