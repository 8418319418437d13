/* q16-gemm vector primitives (gemm_body.h lists them), NEON: SMULL / SMULL2 of the pairs and
 * ADDP of neighbouring products on 4 lanes. */
#ifndef TFCC_KERNELS_Q16_GEMM_Q16V_NEON_H
#define TFCC_KERNELS_Q16_GEMM_Q16V_NEON_H

#include <arm_neon.h>
#include <stdint.h>
#include <string.h>

#include "kernels/q16-gemm/gemm.h"
#include "kernels/simd/q16rqi_neon.h"

typedef int32x4_t q16v;
typedef int16x8_t q16x;
typedef int16x8_t q16w;
#define Q16V_N 4

static inline q16v q16v_zero(void) { return vdupq_n_s32(0); }
static inline q16w q16v_ldw(const int16_t *p) { return vld1q_s16(p); }
static inline q16x q16x_pair(const int16_t *p) {
  int32_t v;
  memcpy(&v, p, sizeof v);
  return vreinterpretq_s16_s32(vdupq_n_s32(v));
}
static inline q16x q16x_one(const int16_t *p) {
  return vreinterpretq_s16_s32(vdupq_n_s32((int32_t)(uint16_t)*p));
}
static inline q16v q16v_madd(q16v acc, q16x x, q16w w) {
  const int32x4_t lo = vmull_s16(vget_low_s16(x), vget_low_s16(w));
  const int32x4_t hi = vmull_high_s16(x, w);
  return vaddq_s32(acc, vpaddq_s32(lo, hi));
}
static inline void q16v_st(int32_t *p, q16v v) { vst1q_s32(p, v); }
static inline q16v q16v_ld32(const int32_t *p) { return vld1q_s32(p); }
/* every lane within int16 (the clamp range is): the narrowing is exact */
static inline void q16v_st16(int16_t *p, q16v v, int n) {
  const int16x4_t h = vmovn_s32(v);
  if (n == 4) {
    vst1_s16(p, h);
  } else {
    int16_t t[4];
    vst1_s16(t, h);
    memcpy(p, t, (size_t)n * sizeof(int16_t));
  }
}
/* + offset, the activation clamp */
static inline q16v q16v_rq_end(q16v v, const tfcc_q16_gemm_rq *r) {
  return tfcc_q16rq_end(v, r->offset, r->act_min, r->act_max);
}
/* the integer mode (q16rqi_neon.h) */
static inline q16v q16v_rqi(q16v s, const tfcc_q16_gemm_rq *r, int n0) {
  return q16v_rq_end(tfcc_q16rqi(s, r->mult + n0, r->bm + n0, r->shift + n0), r);
}
/* the real mode on 2 channels at n0: FRINTA rounds half away from zero */
static inline int32x2_t q16v_rqr2(int32x2_t a, const tfcc_q16_gemm_rq *r, int n0) {
  float64x2_t x = vaddq_f64(vcvtq_f64_s64(vmovl_s32(a)), vld1q_f64(r->bias + n0));
  x = vrndaq_f64(vmulq_f64(x, vld1q_f64(r->rscale + n0)));
  x = vminq_f64(vmaxq_f64(x, vdupq_n_f64(-2147483648.0)), vdupq_n_f64(2147483647.0));
  return vmovn_s64(vcvtq_s64_f64(x));
}
static inline q16v q16v_rqr(q16v s, const tfcc_q16_gemm_rq *r, int n0) {
  const int32x4_t a = vaddq_s32(s, vld1q_s32(r->b32 + n0));
  return q16v_rq_end(
      vcombine_s32(q16v_rqr2(vget_low_s32(a), r, n0), q16v_rqr2(vget_high_s32(a), r, n0 + 2)), r);
}

#endif
