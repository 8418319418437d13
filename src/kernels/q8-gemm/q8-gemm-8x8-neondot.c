/* q8 GEMM micro-kernel, aarch64 NEON dot product (sdot / udot, ARMv8.2-A DotProd): 8 rows x
 * 8 columns, 16 int32x4 accumulators. Weights stored unchanged (both operands of one
 * signedness; kz = fo). Per group of 4 depth bytes: two panel loads (columns 0-3, 4-7), one
 * 4-byte broadcast per row, two dot products per row. Requantization as tfcc_requant_fp32
 * (fcvtns rounds half to even). */
#include <arm_neon.h>
#include <string.h>

#include "kernels/q8-gemm/ukernels.h"

#define NR 8

static inline uint32_t ld4(const uint8_t *p, size_t n) {
  uint32_t v = 0;
  if (n >= 4)
    memcpy(&v, p, 4);
  else
    for (size_t i = 0; i < n; i++) v |= (uint32_t)p[i] << (8 * i);
  return v;
}

static inline void store_row(size_t i, size_t nc, int32x4_t v0, int32x4_t v1, const int32_t *bias,
                             const int32_t *row_add, const float *scale, const tfcc_q8_out *o) {
  const int32x4_t ra = vdupq_n_s32(row_add[i]);
  v0 = vaddq_s32(vaddq_s32(v0, vld1q_s32(bias)), ra);
  v1 = vaddq_s32(vaddq_s32(v1, vld1q_s32(bias + 4)), ra);
  if (o->c32) {
    vst1q_s32(o->c32 + i * NR, v0);
    vst1q_s32(o->c32 + i * NR + 4, v1);
    return;
  }
  const float32x4_t lo = vdupq_n_f32(o->lo), hi = vdupq_n_f32(o->hi);
  float32x4_t f0 = vmulq_f32(vcvtq_f32_s32(v0), vld1q_f32(scale));
  float32x4_t f1 = vmulq_f32(vcvtq_f32_s32(v1), vld1q_f32(scale + 4));
  f0 = vminq_f32(vmaxq_f32(f0, lo), hi);
  f1 = vminq_f32(vmaxq_f32(f1, lo), hi);
  const int32x4_t zp = vdupq_n_s32(o->zp);
  const int32x4_t q0 = vaddq_s32(vcvtnq_s32_f32(f0), zp), q1 = vaddq_s32(vcvtnq_s32_f32(f1), zp);
  const uint8x8_t b = vmovn_u16(vcombine_u16(vmovn_u32(vreinterpretq_u32_s32(q0)),
                                             vmovn_u32(vreinterpretq_u32_s32(q1))));
  uint8_t tmp[8];
  vst1_u8(tmp, b);
  memcpy(o->c + i * o->c_stride, tmp, nc < 8 ? nc : 8);
}

#define TILE(SIGNED)                                                                          \
  const uint8_t *pw = (const uint8_t *)w + NR * 8;                                            \
  const int32_t *bias = w;                                                                    \
  const float *scale = (const float *)(const void *)((const uint8_t *)w + NR * 4);            \
  int32x4_t acc[8][2];                                                                        \
  for (int i = 0; i < 8; i++) acc[i][0] = acc[i][1] = vdupq_n_s32(0);                         \
  for (size_t k = 0; k < kc; k += 4, pw += 32) {                                              \
    const size_t n = kc - k;                                                                  \
    if (SIGNED) {                                                                             \
      const int8x16_t w0 = vld1q_s8((const int8_t *)pw), w1 = vld1q_s8((const int8_t *)pw + 16); \
      for (int i = 0; i < 8; i++) {                                                           \
        const int8x16_t x =                                                                   \
            vreinterpretq_s8_u32(vdupq_n_u32(ld4((const uint8_t *)a[i] + k, n)));            \
        acc[i][0] = vdotq_s32(acc[i][0], x, w0);                                              \
        acc[i][1] = vdotq_s32(acc[i][1], x, w1);                                              \
      }                                                                                       \
    } else {                                                                                  \
      const uint8x16_t w0 = vld1q_u8(pw), w1 = vld1q_u8(pw + 16);                             \
      for (int i = 0; i < 8; i++) {                                                           \
        const uint8x16_t x = vreinterpretq_u8_u32(vdupq_n_u32(ld4((const uint8_t *)a[i] + k, n))); \
        acc[i][0] = vreinterpretq_s32_u32(vdotq_u32(vreinterpretq_u32_s32(acc[i][0]), x, w0)); \
        acc[i][1] = vreinterpretq_s32_u32(vdotq_u32(vreinterpretq_u32_s32(acc[i][1]), x, w1)); \
      }                                                                                       \
    }                                                                                         \
  }                                                                                           \
  for (size_t i = 0; i < mr; i++) store_row(i, nc, acc[i][0], acc[i][1], bias, row_add, scale, o);

TFCC_Q8_GEMM_DECL(tfcc_q8_gemm_s_8x8_neondot) { TILE(1) }
TFCC_Q8_GEMM_DECL(tfcc_q8_gemm_u_8x8_neondot) { TILE(0) }
