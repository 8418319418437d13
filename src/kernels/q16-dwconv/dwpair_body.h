/* Portable body of the q16-dwconv tap-pair kernels (dwconv.h: tfcc_q16_dwp_fn and
 * tfcc_q16_dwp_pack_fn), included by the per-ISA files with TFCC_Q16_DWP_FN,
 * TFCC_Q16_DWP_PACK_FN and their primitives (dwp_<isa>.h) defined:
 *   DWP_B               channels a block
 *   dwp_acc             the int32 sums of one block (in registers)
 *   dwp_zero()          sums 0
 *   dwp_step(a, xa, xb, w)  a + xa[c] * wa[c] + xb[c] * wb[c] per channel c of the block,
 *                       w: the block's pair as dwp_pack wrote it
 *   dwp_store64(acc, a) acc[c] = the sum of channel c, c < DWP_B
 *   dwp_pack(wa, wb, dst)   2 * DWP_B int16 of the pair (wb NULL: zeros)
 * Every sum stays within int32: at most TFCC_Q16_DW_MAX_TAPS products of |x w| <= 2^22. */
#include "kernels/q16-dwconv/dwconv.h"

void TFCC_Q16_DWP_FN(size_t npairs, const int16_t *const *x, const int16_t *w, size_t nblocks,
                     int64_t *acc) {
  for (size_t b = 0; b < nblocks; b++) {
    const size_t off = b * DWP_B;
    const int16_t *wb = w + b * npairs * 2 * DWP_B;
    dwp_acc a = dwp_zero();
    for (size_t p = 0; p < npairs; p++)
      a = dwp_step(a, x[2 * p] + off, x[2 * p + 1] + off, wb + p * 2 * DWP_B);
    dwp_store64(acc + off, a);
  }
}

void TFCC_Q16_DWP_PACK_FN(size_t npairs, const int8_t *const *w, size_t nblocks, int16_t *dst) {
  for (size_t b = 0; b < nblocks; b++)
    for (size_t p = 0; p < npairs; p++) {
      const int8_t *wb = w[2 * p + 1];
      dwp_pack(w[2 * p] + b * DWP_B, wb ? wb + b * DWP_B : NULL,
               dst + (b * npairs + p) * 2 * DWP_B);
    }
}
