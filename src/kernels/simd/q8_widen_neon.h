/* aarch64 NEON: 8 int8 (s) or uint8 values widened to int32, as two int32x4 halves. Shared by
 * the 8-bit kernels that compute in int32 lanes (q8-resize, q8-vbinary). */
#ifndef TFCC_KERNELS_SIMD_Q8_WIDEN_NEON_H
#define TFCC_KERNELS_SIMD_Q8_WIDEN_NEON_H

#include <arm_neon.h>
#include <stdbool.h>
#include <stdint.h>

static inline void tfcc_q8_widen_neon(const int8_t *p, bool s, int32x4_t *lo, int32x4_t *hi) {
  int16x8_t w;
  if (s)
    w = vmovl_s8(vld1_s8(p));
  else
    w = vreinterpretq_s16_u16(vmovl_u8(vld1_u8((const uint8_t *)p)));
  *lo = vmovl_s16(vget_low_s16(w));
  *hi = vmovl_s16(vget_high_s16(w));
}

#endif
