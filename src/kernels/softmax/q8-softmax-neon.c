/* 8-bit softmax rows, NEON (aarch64) build of the shared body (q8_softmax_body.h): 4 rows /
 * elements a step, the table entries loaded lane by lane (no gather). */
#include <arm_neon.h>
#include <stdbool.h>
#include <string.h>

#include "kernels/simd/f32v_neon.h"

typedef uint8x16_t q8b;
static inline q8b q8b_ld(const uint8_t *p) { return vld1q_u8(p); }
static inline q8b q8b_set(int x) { return vdupq_n_u8((uint8_t)x); }
static inline q8b q8b_xor(q8b a, q8b b) { return veorq_u8(a, b); }
static inline q8b q8b_max(q8b a, q8b b) { return vmaxq_u8(a, b); }
static inline q8b q8b_min(q8b a, q8b b) { return vminq_u8(a, b); }
static inline int q8b_hmax(q8b v) { return vmaxvq_u8(v); }
static inline void q8sm_st8(uint8_t *p, f32v v, bool u8) {
  (void)u8; /* the low bytes of the integral lanes */
  const int16x4_t h = vmovn_s32(vcvtnq_s32_f32(v));
  const uint32_t w = vget_lane_u32(vreinterpret_u32_s8(vmovn_s16(vcombine_s16(h, h))), 0);
  memcpy(p, &w, 4);
}

#define TFCC_Q8_SOFTMAX_FN tfcc_q8_softmax_neon
#include "kernels/softmax/q8_softmax_body.h"
