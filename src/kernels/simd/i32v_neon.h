/* Int32 vector primitives, NEON on aarch64: the int32 arithmetic subset of i32v.h (it lists
 * them). A shift count is the vector of the count (SSHL by it, or by its negation to the right:
 * a count past 31 gives 0, or the sign in every bit, as on x86). */
#ifndef TFCC_KERNELS_SIMD_I32V_NEON_H
#define TFCC_KERNELS_SIMD_I32V_NEON_H

#include <arm_neon.h>
#include <stdint.h>

#include "kernels/simd/i32v.h"

typedef int32x4_t i32v;
typedef int32x4_t i32v_shc;
#define I32V_N 4

static inline i32v i32v_set(int32_t x) { return vdupq_n_s32(x); }
static inline i32v i32v_add(i32v a, i32v b) { return vaddq_s32(a, b); }
static inline i32v i32v_sub(i32v a, i32v b) { return vsubq_s32(a, b); }
static inline i32v i32v_mullo(i32v a, i32v b) { return vmulq_s32(a, b); }
static inline i32v i32v_min(i32v a, i32v b) { return vminq_s32(a, b); }
static inline i32v i32v_max(i32v a, i32v b) { return vmaxq_s32(a, b); }
static inline i32v i32v_and(i32v a, i32v b) { return vandq_s32(a, b); }
#define i32v_slli(x, k) vshlq_n_s32((x), (k))
#define i32v_srai(x, k) vshrq_n_s32((x), (k))
static inline i32v_shc i32v_shc_make(int k) { return vdupq_n_s32(k > 63 ? 63 : k); }
static inline i32v i32v_sll(i32v x, i32v_shc c) { return vshlq_s32(x, c); }
static inline i32v i32v_sra(i32v x, i32v_shc c) { return vshlq_s32(x, vnegq_s32(c)); }
static inline i32v i32v_inc_gt(i32v q, i32v a, i32v b) {
  return vsubq_s32(q, vreinterpretq_s32_u32(vcgtq_s32(a, b))); /* the comparison's true is -1 */
}
/* SQRDMULH: (2 x m + 2^31) >> 32, saturated only for x = m = INT32_MIN */
static inline i32v i32v_srdhm(i32v x, i32v m) { return vqrdmulhq_s32(x, m); }
static inline i32v i32v_ld(const void *p) { return vld1q_s32((const int32_t *)p); }
static inline void i32v_st(int32_t *p, i32v x) { vst1q_s32(p, x); }

#endif
