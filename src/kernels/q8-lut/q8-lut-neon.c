/* q8 table lookup, NEON (aarch64): TBL over the first 64 table bytes, then TBX (which leaves
 * lanes whose index is out of range unchanged) over the next three quarters with the index
 * lowered by 64 each time; 16 bytes per step. */
#include <arm_neon.h>
#include <string.h>

#include "kernels/q8-lut/lut.h"

TFCC_Q8_LUT_DECL(tfcc_q8_lut_neon) {
  const uint8x16x4_t t0 = vld1q_u8_x4(table), t1 = vld1q_u8_x4(table + 64);
  const uint8x16x4_t t2 = vld1q_u8_x4(table + 128), t3 = vld1q_u8_x4(table + 192);
  const uint8x16_t k64 = vdupq_n_u8(64);
  size_t i = 0;
  uint8_t buf[16];
  while (i < n) {
    const size_t m = n - i < 16 ? n - i : 16;
    uint8x16_t x;
    if (m == 16) {
      x = vld1q_u8(in + i);
    } else {
      memset(buf, 0, sizeof buf);
      memcpy(buf, in + i, m);
      x = vld1q_u8(buf);
    }
    uint8x16_t y = vqtbl4q_u8(t0, x);
    x = vsubq_u8(x, k64);
    y = vqtbx4q_u8(y, t1, x);
    x = vsubq_u8(x, k64);
    y = vqtbx4q_u8(y, t2, x);
    x = vsubq_u8(x, k64);
    y = vqtbx4q_u8(y, t3, x);
    if (m == 16) {
      vst1q_u8(out + i, y);
    } else {
      vst1q_u8(buf, y);
      memcpy(out + i, buf, m);
    }
    i += m;
  }
}
