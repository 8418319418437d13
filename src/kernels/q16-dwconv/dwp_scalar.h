/* q16-dwconv tap-pair primitives (dwpair_body.h lists them), portable C: 8 channels a block,
 * the x86 layout of one 128-bit lane (dwp_x86_pack.h), int32 sums. */
#ifndef TFCC_KERNELS_Q16_DWCONV_DWP_SCALAR_H
#define TFCC_KERNELS_Q16_DWCONV_DWP_SCALAR_H

#include "kernels/q16-dwconv/dwconv.h"
#include "kernels/q16-dwconv/dwp_x86_pack.h"

#define DWP_B TFCC_Q16_DWP_B_scalar
typedef struct dwp_acc {
  int32_t v[DWP_B];
} dwp_acc;

static inline dwp_acc dwp_zero(void) {
  const dwp_acc a = {{0}};
  return a;
}
static inline dwp_acc dwp_step(dwp_acc a, const int16_t *xa, const int16_t *xb, const int16_t *w) {
  for (size_t c = 0; c < DWP_B; c++) {
    const int16_t *p = w + c / 4 * 8 + c % 4 * 2; /* channel c's pair (dwp_pack_lanes) */
    a.v[c] += (int32_t)xa[c] * p[0] + (int32_t)xb[c] * p[1];
  }
  return a;
}
static inline void dwp_store64(int64_t *acc, dwp_acc a) {
  for (size_t c = 0; c < DWP_B; c++) acc[c] = a.v[c];
}
static inline void dwp_pack(const int8_t *wa, const int8_t *wb, int16_t *dst) {
  dwp_pack_lanes(DWP_B, wa, wb, dst);
}

static inline void dwp_rq_store(int16_t *out, dwp_acc a, const tfcc_q16_dw_rq *r, size_t j0,
                                size_t n) {
  for (size_t c = 0; c < n; c++) out[c] = tfcc_q16_dw_rq_lane(a.v[c], r, j0 + c);
}

#endif
