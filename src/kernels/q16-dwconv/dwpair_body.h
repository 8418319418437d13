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
 * Every int32 sum stays exact: at most 2 x TFCC_Q16_DWF_RUN_PAIRS products of |x w| <= 2^22
 * (the fused kernel adds longer windows' runs in int64). */
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

/* dwp_step on the n channels of a block (n == DWP_B: all; a shorter tail by dwp_step_n where the
 * variant has it, else from zero-padded rows) */
#ifdef DWP_STEP_N
#define DWF_STEP(a, xa, xb, w, n) \
  ((n) == DWP_B ? dwp_step(a, xa, xb, w) : dwp_step_n(a, xa, xb, w, n))
#else
#define DWF_STEP(a, xa, xb, w, n) ((void)(n), dwp_step(a, xa, xb, w))
#endif

/* GCC 12's out-of-SSA coalescing copies the two accumulators once per pair (as in q16-gemm's
 * gemm_body.h); without it the pair loop is loads, unpacks, multiply-adds and adds only */
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC push_options
#pragma GCC optimize("no-tree-coalesce-vars")
#endif
/* Pairs [0, p1) of the block at xs[t] + xoff (p1 a multiple of TFCC_Q16_DWF_RUN_PAIRS) in runs
 * of int32 sums, each added in int64 to the block's sums so far; rx: r's terms of positions
 * [j0, j0 + DWP_B) with that int64 sum P folded into the bias term, bmx[j] = bm[j] + P * mult[j],
 * so that the last run's int32 sum s requantized by rx is x = (P + s) * mult + bm (dwconv.h). */
static void dwf_head(const int16_t *const *xs, size_t xoff, const int16_t *wb, size_t p1, size_t n,
                     const tfcc_q16_dw_rq *r, size_t j0, int64_t *bmx, tfcc_q16_dw_rq *rx) {
  int64_t part[DWP_B] = {0}, run[DWP_B]; /* channel order */
  for (size_t p0 = 0; p0 < p1; p0 += TFCC_Q16_DWF_RUN_PAIRS) {
    dwp_acc a = dwp_zero();
    for (size_t p = p0; p < p0 + TFCC_Q16_DWF_RUN_PAIRS; p++)
      a = DWF_STEP(a, xs[2 * p] + xoff, xs[2 * p + 1] + xoff, wb + p * 2 * DWP_B, n);
    dwp_store64(run, a);
    for (size_t c = 0; c < DWP_B; c++) part[c] += run[c];
  }
  *rx = *r;
  rx->mult = r->mult + j0, rx->shift = r->shift + j0, rx->bm = bmx;
  for (size_t j = 0; j < DWP_B; j++)
    bmx[j] = r->bm[j0 + j] + part[tfcc_q16_dwf_chan(DWP_B, j)] * r->mult[j0 + j];
}

/* One block of one pixel: the sums of its n channels over all pairs, requantized by r's terms at
 * positions [j0, j0 + DWP_B) into out[c], c < n. Past TFCC_Q16_DWF_RUN_PAIRS pairs the runs
 * before the last go through dwf_head. */
static inline void dwf_block(const int16_t *const *xs, size_t xoff, const int16_t *wb,
                             size_t npairs, size_t n, const tfcc_q16_dw_rq *r, size_t j0,
                             int16_t *out) {
  const size_t p1 = npairs > TFCC_Q16_DWF_RUN_PAIRS
                        ? (npairs - 1) / TFCC_Q16_DWF_RUN_PAIRS * TFCC_Q16_DWF_RUN_PAIRS
                        : 0;
  int64_t bmx[DWP_B];
  tfcc_q16_dw_rq rx;
  if (p1) dwf_head(xs, xoff, wb, p1, n, r, j0, bmx, &rx);
  dwp_acc a = dwp_zero();
  for (size_t p = p1; p < npairs; p++)
    a = DWF_STEP(a, xs[2 * p] + xoff, xs[2 * p + 1] + xoff, wb + p * 2 * DWP_B, n);
  dwp_rq_store(out, a, p1 ? &rx : r, p1 ? 0 : j0, n);
}

void TFCC_Q16_DWF_FN(size_t npairs, const int16_t **x, const ptrdiff_t *xstep, size_t npix,
                     const int16_t *w, size_t nc, const tfcc_q16_dw_rq *r, int16_t *out,
                     size_t ostep, void *ws) {
  const size_t nt = 2 * npairs, nfull = nc / DWP_B, tail = nc % DWP_B;
  const size_t wstep = npairs * 2 * DWP_B;
#ifndef DWP_STEP_N
  /* the channels past the last whole block, zero-padded to a block (zeroed once), and their
   * row pointers (ws: tfcc_q16_dwf_ws_bytes) */
  int16_t *xt = ws;
  const int16_t **xtp = (const int16_t **)(void *)(xt + nt * DWP_B);
  if (tail) {
    memset(xt, 0, nt * DWP_B * sizeof(int16_t));
    for (size_t t = 0; t < nt; t++) xtp[t] = xt + t * DWP_B;
  }
#else
  (void)ws;
#endif
  for (size_t i = 0; i < npix; i++) {
    if (i) { /* the next pixel (no pointer past the last one is formed) */
      for (size_t t = 0; t < nt; t++) x[t] += xstep[t];
      out += ostep;
    }
    for (size_t b = 0; b < nfull; b++)
      dwf_block(x, b * DWP_B, w + b * wstep, npairs, DWP_B, r, b * DWP_B, out + b * DWP_B);
    if (tail) {
      const size_t off = nfull * DWP_B;
#ifdef DWP_STEP_N
      dwf_block(x, off, w + nfull * wstep, npairs, tail, r, off, out + off);
#else
      for (size_t t = 0; t < nt; t++) memcpy(xt + t * DWP_B, x[t] + off, tail * sizeof(int16_t));
      dwf_block(xtp, 0, w + nfull * wstep, npairs, tail, r, off, out + off);
#endif
    }
  }
}
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC pop_options
#endif
