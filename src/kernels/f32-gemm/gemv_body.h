/* The multi-panel f32 GEMV kernel (gemv.h), written once: four panels of NR = 2 * F32V_N
 * columns at once (eight accumulators, four load streams), groups of fewer panels at the
 * end. Per k: one broadcast of a[k], then per panel two loads and two f32v_fma onto that
 * column's single chain (bias, then k in order: the GEMM tile's sums). Each ISA file includes
 * its f32v header, defines GEMV_FN (the entry point) and optionally GEMV_PF_K and
 * GEMV_PREFETCH(p) (prefetch each stream GEMV_PF_K k steps ahead) and GEMV_MADD(a, b, c) (the
 * step's a * b + c where its GEMM kernel has another: default f32v_fma), then includes this
 * body. */
#include "kernels/f32-gemm/gemv.h"

#ifndef GEMV_MADD
#define GEMV_MADD(a, b, c) f32v_fma(a, b, c)
#endif

#define GEMV_NR (2 * F32V_N)

static inline __attribute__((always_inline)) void gemv_panels(const tfcc_f32_packed *p, size_t pi0,
                                                              size_t nc, const float *a, float *c,
                                                              f32v lo, f32v hi, const int NP) {
  const size_t K = (size_t)p->kdim, kc = (size_t)p->kc;
  f32v acc[4][2];
  for (int i = 0; i < NP; i++) {
    const float *b = tfcc_f32_panel_bias(p, pi0 + (size_t)i);
    acc[i][0] = f32v_ld(b);
    acc[i][1] = f32v_ld(b + F32V_N);
  }
  for (size_t k0 = 0; k0 < K; k0 += kc) {
    const size_t kn = K - k0 < kc ? K - k0 : kc;
    const float *ak = a + k0;
    const float *q[4];
    for (int i = 0; i < NP; i++) q[i] = tfcc_f32_panel_block(p, pi0 + (size_t)i, k0);
    size_t k = 0;
#ifdef GEMV_PF_K
    for (; k + GEMV_PF_K < kn; k++) {
      const f32v v = f32v_set(ak[k]);
      for (int i = 0; i < NP; i++) {
        GEMV_PREFETCH(q[i] + GEMV_PF_K * GEMV_NR);
        GEMV_PREFETCH(q[i] + GEMV_PF_K * GEMV_NR + F32V_N);
        acc[i][0] = GEMV_MADD(v, f32v_ld(q[i]), acc[i][0]);
        acc[i][1] = GEMV_MADD(v, f32v_ld(q[i] + F32V_N), acc[i][1]);
        q[i] += GEMV_NR;
      }
    }
#endif
    for (; k < kn; k++) {
      const f32v v = f32v_set(ak[k]);
      for (int i = 0; i < NP; i++) {
        acc[i][0] = GEMV_MADD(v, f32v_ld(q[i]), acc[i][0]);
        acc[i][1] = GEMV_MADD(v, f32v_ld(q[i] + F32V_N), acc[i][1]);
        q[i] += GEMV_NR;
      }
    }
  }
  for (int i = 0; i < NP; i++) {
    const size_t n0 = (size_t)i * GEMV_NR;
    if (n0 >= nc) break;
    const size_t left = nc - n0;
    const f32v r0 = f32v_clamp(acc[i][0], lo, hi), r1 = f32v_clamp(acc[i][1], lo, hi);
    if (left >= GEMV_NR) {
      f32v_st(c + n0, r0);
      f32v_st(c + n0 + F32V_N, r1);
      continue;
    }
    f32v_st_n(c + n0, r0, left < F32V_N ? left : F32V_N);
    if (left > F32V_N) f32v_st_n(c + n0 + F32V_N, r1, left - F32V_N);
  }
}

void GEMV_FN(const tfcc_f32_packed *p, size_t p0, size_t np, size_t nc, const float *a, float *c,
             float lo, float hi) {
  const f32v vlo = f32v_set(lo), vhi = f32v_set(hi);
  size_t i = 0;
  for (; i + 4 <= np; i += 4)
    gemv_panels(p, p0 + i, nc - i * GEMV_NR, a, c + i * GEMV_NR, vlo, vhi, 4);
  const size_t rest = np - i;
  if (rest == 3)
    gemv_panels(p, p0 + i, nc - i * GEMV_NR, a, c + i * GEMV_NR, vlo, vhi, 3);
  else if (rest == 2)
    gemv_panels(p, p0 + i, nc - i * GEMV_NR, a, c + i * GEMV_NR, vlo, vhi, 2);
  else if (rest == 1)
    gemv_panels(p, p0 + i, nc - i * GEMV_NR, a, c + i * GEMV_NR, vlo, vhi, 1);
}
