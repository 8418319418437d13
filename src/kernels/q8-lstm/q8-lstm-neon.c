/* Fast LSTM, NEON (aarch64): 8 int16 lanes (activations), 4 rows per accumulator. Vectors are
 * int16x8_t; 32-bit lane operations reinterpret them. SQRDMULH is gemmlowp's
 * SaturatingRoundingDoublingHighMul itself (16 and 32 bits), saturation included. */
#include <arm_neon.h>
#include <string.h>

#define S32(v) vreinterpretq_s32_s16(v)
#define S16(v) vreinterpretq_s16_s32(v)

#define V int16x8_t
#define M uint16x8_t
#define VL 8
#define LD(p) vld1q_s16((const int16_t *)(const void *)(p))
#define ST(p, v) vst1q_s16((int16_t *)(void *)(p), (v))
#define SET1(x) vdupq_n_s16((int16_t)(x))
#define ZERO() vdupq_n_s16(0)
#define ADD vaddq_s16
#define SUB vsubq_s16
#define ADDS vqaddq_s16
#define AND vandq_s16
#define MULHRS vqrdmulhq_s16
#define SRA(v, n) vshlq_s16((v), vdupq_n_s16((int16_t) - (n)))
#define SRL(v, n) \
  vreinterpretq_s16_u16(vshlq_u16(vreinterpretq_u16_s16(v), vdupq_n_s16((int16_t) - (n))))
#define SLL(v, n) vshlq_s16((v), vdupq_n_s16((int16_t)(n)))
#define CMPEQ vceqq_s16
#define CMPGT vcgtq_s16
#define BLEND(a, b, m) vbslq_s16((m), (b), (a))
#define GEMV_LANES 4
#define GEMV_LOAD(p) vmovl_s8(vld1_s8((const int8_t *)(p)))
static inline int16x8_t madd16(int16x8_t a, int16x8_t b) {
  const int32x4_t lo = vmull_s16(vget_low_s16(a), vget_low_s16(b));
  const int32x4_t hi = vmull_s16(vget_high_s16(a), vget_high_s16(b));
  return S16(vpaddq_s32(lo, hi));
}
#define MADD madd16
#define ADD32(a, b) S16(vaddq_s32(S32(a), S32(b)))
#define SET1_32(x) S16(vdupq_n_s32(x))
#define ST32(p, v) vst1q_s32((int32_t *)(p), S32(v))
#define M32 uint32x4_t
#define CMPGT32(a, b) vcgtq_s32(S32(a), S32(b))
#define INC_IF(v, m) S16(vsubq_s32(S32(v), vreinterpretq_s32_u32(m)))
#define SUB32(a, b) S16(vsubq_s32(S32(a), S32(b)))
#define SLL32(v, n) S16(vshlq_s32(S32(v), vdupq_n_s32(n)))
#define SRA32(v, n) S16(vshlq_s32(S32(v), vdupq_n_s32(-(n))))
#define SRL32(v, n) \
  S16(vreinterpretq_s32_u32(vshlq_u32(vreinterpretq_u32_s16(v), vdupq_n_s32(-(n)))))
#define MULLO32(a, b) S16(vmulq_s32(S32(a), S32(b)))
#define MIN32(a, b) S16(vminq_s32(S32(a), S32(b)))
#define MAX32(a, b) S16(vmaxq_s32(S32(a), S32(b)))
#define SRDHM32(a, m) S16(vqrdmulhq_s32(S32(a), vdupq_n_s32(m)))
#define LD16_32(p) S16(vmovl_s16(vld1_s16((const int16_t *)(p))))
#define ST16_32(p, v) vst1_s16((int16_t *)(p), vmovn_s32(S32(v)))
static inline void st8_32(void *p, int16x8_t v) {
  const int8x8_t b = vmovn_s16(vcombine_s16(vmovn_s32(S32(v)), vdup_n_s16(0)));
  memcpy(p, &b, 4);
}
#define ST8_32(p, v) st8_32((p), (v))
#define SFX neon

#include "kernels/q8-lstm/q8-lstm-impl.h"
