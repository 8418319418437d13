/* q8 GEMM micro-kernel, aarch64 NEON dot product (sdot / udot, ARMv8.2-A DotProd): 8 rows x
 * 8 columns, 16 int32x4 accumulators. Weights stored unchanged (both operands of one
 * signedness; kz = fo). Per group of 4 depth bytes: two panel loads (columns 0-3, 4-7), one
 * 4-byte broadcast per row, two dot products per row. Output stage: requant-neon.h. */
#include <arm_neon.h>
#include <string.h>

#include "kernels/q8-gemm/requant-neon.h"
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

#define TILE(SIGNED) \
  const uint8_t *pw = (const uint8_t *)w + NR * 8; \
  const int32_t *bias = w; \
  const float *scale = (const float *)(const void *)((const uint8_t *)w + NR * 4); \
  int32x4_t acc[8][2]; \
  for (int i = 0; i < 8; i++) acc[i][0] = acc[i][1] = vdupq_n_s32(0); \
  for (size_t k = 0; k < kc; k += 4, pw += 32) { \
    const size_t n = kc - k; \
    if (SIGNED) { \
      const int8x16_t w0 = vld1q_s8((const int8_t *)pw), w1 = vld1q_s8((const int8_t *)pw + 16); \
      for (int i = 0; i < 8; i++) { \
        const int8x16_t x = vreinterpretq_s8_u32(vdupq_n_u32(ld4((const uint8_t *)a[i] + k, n))); \
        acc[i][0] = vdotq_s32(acc[i][0], x, w0); \
        acc[i][1] = vdotq_s32(acc[i][1], x, w1); \
      } \
    } else { \
      const uint8x16_t w0 = vld1q_u8(pw), w1 = vld1q_u8(pw + 16); \
      for (int i = 0; i < 8; i++) { \
        const uint8x16_t x = vreinterpretq_u8_u32(vdupq_n_u32(ld4((const uint8_t *)a[i] + k, n))); \
        acc[i][0] = vreinterpretq_s32_u32(vdotq_u32(vreinterpretq_u32_s32(acc[i][0]), x, w0)); \
        acc[i][1] = vreinterpretq_s32_u32(vdotq_u32(vreinterpretq_u32_s32(acc[i][1]), x, w1)); \
      } \
    } \
  } \
  for (size_t i = 0; i < mr; i++) \
    tfcc_q8_neon_store_row8(i, nc, acc[i][0], acc[i][1], bias, row_add, scale, o);

TFCC_Q8_GEMM_DECL(tfcc_q8_gemm_s_8x8_neondot){
    TILE(1)} TFCC_Q8_GEMM_DECL(tfcc_q8_gemm_u_8x8_neondot) {
  TILE(0)
}
