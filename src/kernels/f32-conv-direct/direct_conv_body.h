/* Portable body of the direct convolution, included by the per-ISA files that let the
 * compiler vectorise it for their instruction set (define TFCC_DC_FN and TFCC_DC_NR first):
 * tiles of up to 4 pixels x one panel of TFCC_DC_NR channels in a local accumulator the
 * compiler keeps in vector registers. Same sums, in the same order, as the GEMM kernel of
 * its level. */
#include <stddef.h>

#include "kernels/f32-conv-direct/direct_conv.h"

/* The GEMM kernel's multiply-add at this level: FMA (TFCC_DC_FMA, compiled with -mfma) or a
 * rounded multiply then add (C11 mode does not contract). */
#ifdef TFCC_DC_FMA
#define TFCC_DC_MADD(x, w, acc) __builtin_fmaf((x), (w), (acc))
#else
#define TFCC_DC_MADD(x, w, acc) ((acc) + (x) * (w))
#endif

static inline float dc_clamp(float v, float lo, float hi) {
  v = v < lo ? lo : v;
  return v > hi ? hi : v;
}

static void dc_tile(const float *const *px, size_t mr, size_t ky_stride, int32_t KH, int32_t KWC,
                    const float *w, int32_t N, float *out, float lo, float hi) {
  const size_t NR = TFCC_DC_NR;
  /* the packed layout with one K block: all panels' bias, then each panel's K x NR */
  const size_t panel = NR * (size_t)KH * (size_t)KWC;
  const float *a[4];
  for (size_t p = 0; p < 4; p++) a[p] = px[p < mr ? p : 0];
  const float *wp = w + ((size_t)N + NR - 1) / NR * NR;
  for (size_t n0 = 0; n0 < (size_t)N; n0 += NR, wp += panel) {
    const size_t nc = (size_t)N - n0 < NR ? (size_t)N - n0 : NR;
    float acc[4][TFCC_DC_NR];
    for (size_t p = 0; p < 4; p++)
      for (size_t i = 0; i < NR; i++) acc[p][i] = w[n0 + i];
    const float *wk = wp;
    for (int32_t ky = 0; ky < KH; ky++) {
      const size_t off = (size_t)ky * ky_stride;
      for (int32_t j = 0; j < KWC; j++, wk += NR)
        for (size_t p = 0; p < 4; p++) {
          const float x = a[p][off + (size_t)j];
          for (size_t i = 0; i < NR; i++) acc[p][i] = TFCC_DC_MADD(x, wk[i], acc[p][i]);
        }
    }
    for (size_t p = 0; p < mr; p++)
      for (size_t i = 0; i < nc; i++) out[p * (size_t)N + n0 + i] = dc_clamp(acc[p][i], lo, hi);
  }
}

#define TFCC_DC_MR 4
#include "kernels/f32-conv-direct/direct_conv_rows.h"

TFCC_F32_DIRECT_CONV_DECL(TFCC_DC_FN) { dc_rows(g, in, w, lo, hi, out, row0, row1); }
