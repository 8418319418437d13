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

#ifdef TFCC_DC_F32V
/* Explicit vectors (the ISA file includes its kernels/simd/f32v_<isa>.h, defines TFCC_DC_F32V
 * and TFCC_DC_NR = 2 * F32V_N, for targets where the compiler keeps the portable tile's
 * accumulator in memory: wasm32): 4 pixels x 2 vectors in named variables, the same sums in
 * the same order (bias, then each tap's product), stored by f32v_st2_clamp (its f32v_clamp
 * lets NaN pass, as dc_clamp). */
#include "kernels/simd/f32v_row.h"

static void dc_tile(const float *const *px, size_t mr, size_t ky_stride, int32_t KH, int32_t KWC,
                    const float *w, int32_t N, float *out, float lo, float hi) {
  const size_t NR = 2 * F32V_N;
  const size_t panel = NR * (size_t)KH * (size_t)KWC;
  const float *a0 = px[0], *a1 = px[mr > 1 ? 1 : 0], *a2 = px[mr > 2 ? 2 : 0],
              *a3 = px[mr > 3 ? 3 : 0];
  const float *wp = w + ((size_t)N + NR - 1) / NR * NR;
  const f32v vlo = f32v_set(lo), vhi = f32v_set(hi);
  for (size_t n0 = 0; n0 < (size_t)N; n0 += NR, wp += panel) {
    const size_t nc = (size_t)N - n0 < NR ? (size_t)N - n0 : NR;
    const f32v b0 = f32v_ld(w + n0), b1 = f32v_ld(w + n0 + F32V_N);
    f32v c00 = b0, c01 = b1, c10 = b0, c11 = b1, c20 = b0, c21 = b1, c30 = b0, c31 = b1;
    const float *wk = wp;
    for (int32_t ky = 0; ky < KH; ky++) {
      const size_t off = (size_t)ky * ky_stride;
      for (int32_t j = 0; j < KWC; j++, wk += NR) {
        const f32v w0 = f32v_ld(wk), w1 = f32v_ld(wk + F32V_N);
        const size_t o = off + (size_t)j;
        f32v x = DC_BCAST(a0 + o);
        c00 = f32v_add(c00, f32v_mul(x, w0));
        c01 = f32v_add(c01, f32v_mul(x, w1));
        x = DC_BCAST(a1 + o);
        c10 = f32v_add(c10, f32v_mul(x, w0));
        c11 = f32v_add(c11, f32v_mul(x, w1));
        x = DC_BCAST(a2 + o);
        c20 = f32v_add(c20, f32v_mul(x, w0));
        c21 = f32v_add(c21, f32v_mul(x, w1));
        x = DC_BCAST(a3 + o);
        c30 = f32v_add(c30, f32v_mul(x, w0));
        c31 = f32v_add(c31, f32v_mul(x, w1));
      }
    }
    float *o = out + n0;
    f32v_st2_clamp(o, nc, c00, c01, vlo, vhi);
    if (mr > 1) f32v_st2_clamp(o + (size_t)N, nc, c10, c11, vlo, vhi);
    if (mr > 2) f32v_st2_clamp(o + 2 * (size_t)N, nc, c20, c21, vlo, vhi);
    if (mr > 3) f32v_st2_clamp(o + 3 * (size_t)N, nc, c30, c31, vlo, vhi);
  }
}
#else
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
#endif

#define TFCC_DC_MR 4
#include "kernels/f32-conv-direct/direct_conv_rows.h"

TFCC_F32_DIRECT_CONV_DECL(TFCC_DC_FN) { dc_rows(g, in, w, lo, hi, out, row0, row1); }
