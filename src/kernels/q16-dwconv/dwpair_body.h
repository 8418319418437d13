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
 *   dwp_rq_store(out, a, r, j0, n)  the sums requantized by r's terms at positions
 *                       [j0, j0 + DWP_B) (lane order), channels c < n stored to out[c]
 *   DWP_STEP_N, dwp_step_n(a, xa, xb, w, n)  optional: dwp_step on channels c < n < DWP_B
 *                       only, nothing past them read (else the tail is copied to a zero row)
 * Every sum stays within int32: at most TFCC_Q16_DWF_MAX_TAPS products of |x w| <= 2^22. */
#include <string.h>

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

/* GCC 12's out-of-SSA coalescing copies the two accumulators once per pair (as in q16-gemm's
 * gemm_body.h); without it the pair loop is loads, unpacks, multiply-adds and adds only */
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC push_options
#pragma GCC optimize("no-tree-coalesce-vars")
#endif
void TFCC_Q16_DWF_FN(size_t npairs, const int16_t *const *x, const ptrdiff_t *xstep, size_t npix,
                     const int16_t *w, size_t nc, const tfcc_q16_dw_rq *r, int16_t *out,
                     size_t ostep) {
  const size_t nt = 2 * npairs, nfull = nc / DWP_B, tail = nc % DWP_B;
  const size_t wstep = npairs * 2 * DWP_B;
  const int16_t *xp[TFCC_Q16_DWF_MAX_TAPS];
#ifndef DWP_STEP_N
  /* the channels past the last whole block, zero-padded to a block (zeroed once) */
  _Alignas(64) int16_t xt[TFCC_Q16_DWF_MAX_TAPS][DWP_B];
#endif
  for (size_t t = 0; t < nt; t++) xp[t] = x[t];
#ifndef DWP_STEP_N
  if (tail) memset(xt, 0, nt * sizeof xt[0]);
#endif
  for (size_t i = 0; i < npix; i++) {
    if (i) { /* the next pixel (no pointer past the last one is formed) */
      for (size_t t = 0; t < nt; t++) xp[t] += xstep[t];
      out += ostep;
    }
    for (size_t b = 0; b < nfull; b++) {
      const size_t off = b * DWP_B;
      const int16_t *wb = w + b * wstep;
      dwp_acc a = dwp_zero();
      for (size_t p = 0; p < npairs; p++)
        a = dwp_step(a, xp[2 * p] + off, xp[2 * p + 1] + off, wb + p * 2 * DWP_B);
      dwp_rq_store(out + off, a, r, off, DWP_B);
    }
    if (tail) {
      const size_t off = nfull * DWP_B;
      const int16_t *wb = w + nfull * wstep;
      dwp_acc a = dwp_zero();
#ifdef DWP_STEP_N
      for (size_t p = 0; p < npairs; p++)
        a = dwp_step_n(a, xp[2 * p] + off, xp[2 * p + 1] + off, wb + p * 2 * DWP_B, tail);
#else
      for (size_t t = 0; t < nt; t++) memcpy(xt[t], xp[t] + off, tail * sizeof(int16_t));
      for (size_t p = 0; p < npairs; p++)
        a = dwp_step(a, xt[2 * p], xt[2 * p + 1], wb + p * 2 * DWP_B);
#endif
      dwp_rq_store(out + off, a, r, off, tail);
    }
  }
}
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC pop_options
#endif
