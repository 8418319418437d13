/* gemmlowp RoundingDivideByPOT (half away from zero) over the i32v primitives
 * (kernels/simd/i32v.h): the file that includes it first includes its ISA's i32v_<isa>.h. */
#ifndef TFCC_KERNELS_SIMD_I32V_RDIV_H
#define TFCC_KERNELS_SIMD_I32V_RDIV_H

#include <stdint.h>

/* division by 2^e, e in [0, 31] */
typedef struct rdiv {
  i32v_shc e;
  i32v mask, thr;
} rdiv;

static inline rdiv rdiv_make(int32_t e) {
  const uint32_t mask = (uint32_t)((1ull << e) - 1u);
  rdiv r = {i32v_shc_make(e), i32v_set((int32_t)mask), i32v_set((int32_t)(mask >> 1))};
  return r;
}

static inline i32v rdbpot(i32v x, const rdiv *d) {
  const i32v rem = i32v_and(x, d->mask);
  const i32v thr = i32v_sub(d->thr, i32v_srai(x, 31));
  return i32v_inc_gt(i32v_sra(x, d->e), rem, thr);
}

#endif
