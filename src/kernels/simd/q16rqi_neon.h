/* The q16 integer-mode requantization (q16rqi.h lists it), NEON: SMULL, + bm, SSHL by -shift
 * (an arithmetic right shift), the low halves. */
#ifndef TFCC_KERNELS_SIMD_Q16RQI_NEON_H
#define TFCC_KERNELS_SIMD_Q16RQI_NEON_H

#include <arm_neon.h>
#include <stdint.h>

#include "kernels/simd/q16rqi.h"

static inline int32x2_t tfcc_q16rqi2(int32x2_t s, const int64_t *mult, const int64_t *bm,
                                     const int64_t *shift) {
  int64x2_t x = vmull_s32(s, vmovn_s64(vld1q_s64(mult)));
  x = vaddq_s64(x, vld1q_s64(bm));
  return vmovn_s64(vshlq_s64(x, vnegq_s64(vld1q_s64(shift))));
}
/* 4 int32 sums */
static inline int32x4_t tfcc_q16rqi(int32x4_t s, const int64_t *mult, const int64_t *bm,
                                    const int64_t *shift) {
  return vcombine_s32(tfcc_q16rqi2(vget_low_s32(s), mult, bm, shift),
                      tfcc_q16rqi2(vget_high_s32(s), mult + 2, bm + 2, shift + 2));
}
static inline int32x4_t tfcc_q16rq_end(int32x4_t v, int32_t offset, int32_t act_min,
                                       int32_t act_max) {
  v = vaddq_s32(v, vdupq_n_s32(offset));
  return vminq_s32(vmaxq_s32(v, vdupq_n_s32(act_min)), vdupq_n_s32(act_max));
}

#endif
