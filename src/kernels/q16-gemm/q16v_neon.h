/* q16-gemm vector primitives (gemm_body.h lists them), NEON: SMULL / SMULL2 of the pairs and
 * ADDP of neighbouring products on 4 lanes. */
#ifndef TFCC_KERNELS_Q16_GEMM_Q16V_NEON_H
#define TFCC_KERNELS_Q16_GEMM_Q16V_NEON_H

#include <arm_neon.h>
#include <stdint.h>
#include <string.h>

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

#endif
