/* q16-dwconv tap-pair primitives (dwpair_body.h lists them), NEON: SMLAL / SMLAL2 of each
 * tap's inputs against its int16 weights (no interleave: a block's pair is tap a's 8 weights,
 * then tap b's), 8 channels a block in two int32 vectors. */
#ifndef TFCC_KERNELS_Q16_DWCONV_DWP_NEON_H
#define TFCC_KERNELS_Q16_DWCONV_DWP_NEON_H

#include "kernels/q16-dwconv/dwconv.h"
#include <string.h>
#include <arm_neon.h>
#include <stddef.h>
#include <stdint.h>

#include "kernels/simd/q16rqi_neon.h"

#define DWP_B TFCC_Q16_DWP_B_neon
typedef struct dwp_acc {
  int32x4_t lo, hi;
} dwp_acc;

static inline dwp_acc dwp_zero(void) {
  const dwp_acc a = {vdupq_n_s32(0), vdupq_n_s32(0)};
  return a;
}
static inline dwp_acc dwp_step(dwp_acc a, const int16_t *xa, const int16_t *xb, const int16_t *w) {
  const int16x8_t va = vld1q_s16(xa), vb = vld1q_s16(xb);
  const int16x8_t wa = vld1q_s16(w), wb = vld1q_s16(w + 8);
  a.lo = vmlal_s16(a.lo, vget_low_s16(va), vget_low_s16(wa));
  a.hi = vmlal_high_s16(a.hi, va, wa);
  a.lo = vmlal_s16(a.lo, vget_low_s16(vb), vget_low_s16(wb));
  a.hi = vmlal_high_s16(a.hi, vb, wb);
  return a;
}
static inline void dwp_store64(int64_t *acc, dwp_acc a) {
  vst1q_s64(acc, vmovl_s32(vget_low_s32(a.lo)));
  vst1q_s64(acc + 2, vmovl_high_s32(a.lo));
  vst1q_s64(acc + 4, vmovl_s32(vget_low_s32(a.hi)));
  vst1q_s64(acc + 6, vmovl_high_s32(a.hi));
}
static inline void dwp_pack(const int8_t *wa, const int8_t *wb, int16_t *dst) {
  for (size_t c = 0; c < DWP_B; c++) dst[c] = wa[c], dst[DWP_B + c] = (int16_t)(wb ? wb[c] : 0);
}

/* 4 positions at j (q16rqi_neon.h), narrowed to int16 (within the clamp range) */
static inline int16x4_t dwp_rqi4(int32x4_t s, const tfcc_q16_dw_rq *r, size_t j) {
  return vmovn_s32(tfcc_q16rq_end(tfcc_q16rqi(s, r->mult + j, r->bm + j, r->shift + j), r->offset,
                                  r->act_min, r->act_max));
}
/* lo: channels 0-3, hi: 4-7 */
static inline void dwp_rq_store(int16_t *out, dwp_acc a, const tfcc_q16_dw_rq *r, size_t j0,
                                size_t n) {
  const int16x8_t v = vcombine_s16(dwp_rqi4(a.lo, r, j0), dwp_rqi4(a.hi, r, j0 + 4));
  if (n == DWP_B) {
    vst1q_s16(out, v);
  } else {
    int16_t t[DWP_B];
    vst1q_s16(t, v);
    memcpy(out, t, n * sizeof(int16_t));
  }
}

#endif
