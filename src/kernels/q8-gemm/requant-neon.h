/* Output stage of the aarch64 q8 GEMM kernels (sdot and i8mm): one row of 8 int32 accumulators
 * (two int32x4) + bias + row term, then either the int32 tile (o->c32) or float
 * requantization as tfcc_requant_fp32 (fcvtns rounds half to even), nc bytes stored. */
#ifndef TFCC_KERNELS_Q8_GEMM_REQUANT_NEON_H
#define TFCC_KERNELS_Q8_GEMM_REQUANT_NEON_H

#include <arm_neon.h>
#include <string.h>

#include "kernels/q8-gemm/gemm.h"

static inline void tfcc_q8_neon_store_row8(size_t i, size_t nc, int32x4_t v0, int32x4_t v1,
                                           const int32_t *bias, const int32_t *row_add,
                                           const float *scale, const tfcc_q8_out *o) {
  const int32x4_t ra = vdupq_n_s32(row_add[i]);
  v0 = vaddq_s32(vaddq_s32(v0, vld1q_s32(bias)), ra);
  v1 = vaddq_s32(vaddq_s32(v1, vld1q_s32(bias + 4)), ra);
  if (o->c32) {
    vst1q_s32(o->c32 + i * 8, v0);
    vst1q_s32(o->c32 + i * 8 + 4, v1);
    return;
  }
  const float32x4_t lo = vdupq_n_f32(o->lo), hi = vdupq_n_f32(o->hi);
  float32x4_t f0 = vmulq_f32(vcvtq_f32_s32(v0), vld1q_f32(scale));
  float32x4_t f1 = vmulq_f32(vcvtq_f32_s32(v1), vld1q_f32(scale + 4));
  f0 = vminq_f32(vmaxq_f32(f0, lo), hi);
  f1 = vminq_f32(vmaxq_f32(f1, lo), hi);
  const int32x4_t zp = vdupq_n_s32(o->zp);
  const int32x4_t q0 = vaddq_s32(vcvtnq_s32_f32(f0), zp), q1 = vaddq_s32(vcvtnq_s32_f32(f1), zp);
  const uint8x8_t b = vmovn_u16(
      vcombine_u16(vmovn_u32(vreinterpretq_u32_s32(q0)), vmovn_u32(vreinterpretq_u32_s32(q1))));
  uint8_t tmp[8];
  vst1_u8(tmp, b);
  memcpy(o->c + i * o->c_stride, tmp, nc < 8 ? nc : 8);
}

#endif
