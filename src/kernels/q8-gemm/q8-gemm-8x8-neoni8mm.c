/* q8 GEMM micro-kernel, aarch64 NEON matrix multiply-accumulate (SMMLA / UMMLA, Armv8.6-A I8MM):
 * 8 rows x 8 columns as 4 x 4 blocks of 2 rows x 2 columns, 16 int32x4 accumulators (each
 * holds [r0c0 r0c1 r1c0 r1c1] of its block). One MMLA multiplies a 2 x 8 block of A (rows r,
 * r+1: 8 depth bytes each) by an 8 x 2 block of B (columns c, c+1) and adds the 2 x 2 result.
 * Weights stored unchanged (w_xor 0): SMMLA (s8 x s8) for int8 models, UMMLA (u8 x u8) for
 * uint8 ones, kz = fo as for the sdot kernel.
 * Panels (tfcc_q8_pack, tfcc_q8_gemm_pair_layout): depth zero-padded to 8; per group of 8 depth
 * bytes 64 bytes = 4 column pairs x [8 bytes of column 2p, 8 bytes of column 2p+1].
 * A: row pointers, exactly kc bytes read per row (the last kc % 8 staged zero-padded; the
 * panel is zero there, so the padding adds nothing). Per group: 4 panel loads, 8 row loads,
 * 16 MMLAs (256 multiply-adds, against 128 for the sdot kernel's 16 dot products per 4 bytes).
 * Output stage: requant-neon.h. Checked under qemu-aarch64 only (no I8MM hardware here). */
#include <arm_neon.h>
#include <string.h>

#include "kernels/q8-gemm/requant-neon.h"
#include "kernels/q8-gemm/ukernels.h"

#define NR 8

/* Rows 2r and 2r+1 of one depth group as one vector (ld8: a full group; stage: the last n < 8
 * bytes, zero-padded). */
static inline uint8x16_t ld8(const uint8_t *r0, const uint8_t *r1) {
  return vcombine_u8(vld1_u8(r0), vld1_u8(r1));
}
static inline uint8x16_t stage(const uint8_t *r0, const uint8_t *r1, size_t n) {
  uint8_t t[16] = {0};
  memcpy(t, r0, n);
  memcpy(t + 8, r1, n);
  return vld1q_u8(t);
}

#define MMLA_S(acc, x, b) acc = vmmlaq_s32(acc, vreinterpretq_s8_u8(x), vreinterpretq_s8_u8(b))
#define MMLA_U(acc, x, b) acc = vreinterpretq_s32_u32(vmmlaq_u32(vreinterpretq_u32_s32(acc), x, b))

#define GROUP(MMLA, LOAD) \
  do { \
    const uint8x16_t b0 = vld1q_u8(pw), b1 = vld1q_u8(pw + 16), b2 = vld1q_u8(pw + 32), \
                     b3 = vld1q_u8(pw + 48); \
    for (int r = 0; r < 4; r++) { \
      const uint8x16_t x = LOAD; \
      MMLA(acc[r][0], x, b0); \
      MMLA(acc[r][1], x, b1); \
      MMLA(acc[r][2], x, b2); \
      MMLA(acc[r][3], x, b3); \
    } \
    pw += 64; \
  } while (0)

#define TILE(MMLA) \
  const uint8_t *pw = (const uint8_t *)w + NR * 8; \
  const int32_t *bias = w; \
  const float *scale = (const float *)(const void *)((const uint8_t *)w + NR * 4); \
  const uint8_t *const *ar = (const uint8_t *const *)a; \
  int32x4_t acc[4][4]; \
  for (int r = 0; r < 4; r++) \
    for (int c = 0; c < 4; c++) acc[r][c] = vdupq_n_s32(0); \
  size_t k = 0; \
  for (; k + 8 <= kc; k += 8) GROUP(MMLA, ld8(ar[2 * r] + k, ar[2 * r + 1] + k)); \
  if (k < kc) GROUP(MMLA, stage(ar[2 * r] + k, ar[2 * r + 1] + k, kc - k)); \
  for (size_t r = 0; r < 4 && 2 * r < mr; r++) { \
    const int32x4_t *v = acc[r]; \
    tfcc_q8_neon_store_row8(2 * r, nc, vcombine_s32(vget_low_s32(v[0]), vget_low_s32(v[1])), \
                            vcombine_s32(vget_low_s32(v[2]), vget_low_s32(v[3])), bias, row_add, \
                            scale, o); \
    if (2 * r + 1 < mr) \
      tfcc_q8_neon_store_row8( \
          2 * r + 1, nc, vcombine_s32(vget_high_s32(v[0]), vget_high_s32(v[1])), \
          vcombine_s32(vget_high_s32(v[2]), vget_high_s32(v[3])), bias, row_add, scale, o); \
  }

TFCC_Q8_GEMM_DECL(tfcc_q8_gemm_s_8x8_neoni8mm){
    TILE(MMLA_S)} TFCC_Q8_GEMM_DECL(tfcc_q8_gemm_u_8x8_neoni8mm) {
  TILE(MMLA_U)
}
