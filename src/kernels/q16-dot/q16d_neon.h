/* q16-dot GEMV primitives (gemv_body.h lists them), NEON: SMLAL / SMLAL2 on 8 int16 (each
 * int32 lane takes two products a step, as a pair multiply-add's). */
#ifndef TFCC_KERNELS_Q16_DOT_Q16D_NEON_H
#define TFCC_KERNELS_Q16_DOT_Q16D_NEON_H

#include <arm_neon.h>
#include <stdint.h>

typedef int32x4_t q16dv;
typedef int16x8_t q16dx;
#define Q16D_N 8

static inline q16dv q16d_zero(void) { return vdupq_n_s32(0); }
static inline q16dx q16d_ldx(const int16_t *p) { return vld1q_s16(p); }
static inline q16dx q16d_ldw(const int8_t *p) { return vmovl_s8(vld1_s8(p)); }
static inline q16dv q16d_madd(q16dv acc, q16dx x, q16dx w) {
  return vmlal_high_s16(vmlal_s16(acc, vget_low_s16(x), vget_low_s16(w)), x, w);
}
static inline int64_t q16d_sum(q16dv v) { return vaddvq_s64(vpaddlq_s32(v)); }

#endif
