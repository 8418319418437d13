/* f32 GEMV kernel, AVX-512F: four 32-column panels at once (eight zmm accumulators, eight
 * independent load streams), prefetching each stream a fixed distance ahead; groups of
 * fewer panels at the end. Per k: one broadcast of a[k], then per panel two loads and two
 * FMAs onto that column's single chain (bias, then k in order: the GEMM tile's sums). */
#include <immintrin.h>

#include "kernels/f32-gemm/gemv.h"
#include "kernels/simd/f32v_avx512.h"

/* Prefetch distance in k steps (x 128 bytes per panel): 4 KB ahead per stream. From memory
 * (MobileNetV2 1280 x 1000, weights not in cache, as in a model run) 8: 10.6 GB/s, 32: 13.4,
 * 64: 10.5; 8 panels at once instead of 4: no better. */
#define PF_K 32

static inline __mmask16 mask_lo(size_t nc) {
  return (__mmask16)(nc >= 16 ? 0xFFFFu : (1u << nc) - 1u);
}

static inline __attribute__((always_inline)) void panels_t(const tfcc_f32_packed *p, size_t pi0,
                                                           size_t nc, const float *a, float *c,
                                                           __m512 lo, __m512 hi, const int NP) {
  const size_t K = (size_t)p->kdim, kc = (size_t)p->kc;
  __m512 acc[4][2];
  for (int i = 0; i < NP; i++) {
    const float *b = tfcc_f32_panel_bias(p, pi0 + (size_t)i);
    acc[i][0] = _mm512_load_ps(b);
    acc[i][1] = _mm512_load_ps(b + 16);
  }
  for (size_t k0 = 0; k0 < K; k0 += kc) {
    const size_t kn = K - k0 < kc ? K - k0 : kc;
    const float *ak = a + k0;
    const float *q[4];
    for (int i = 0; i < NP; i++) q[i] = tfcc_f32_panel_block(p, pi0 + (size_t)i, k0);
    size_t k = 0;
    for (; k + PF_K < kn; k++) {
      const __m512 v = _mm512_set1_ps(ak[k]);
      for (int i = 0; i < NP; i++) {
        _mm_prefetch((const char *)(q[i] + PF_K * 32), _MM_HINT_T0);
        _mm_prefetch((const char *)(q[i] + PF_K * 32 + 16), _MM_HINT_T0);
        acc[i][0] = _mm512_fmadd_ps(v, _mm512_load_ps(q[i]), acc[i][0]);
        acc[i][1] = _mm512_fmadd_ps(v, _mm512_load_ps(q[i] + 16), acc[i][1]);
        q[i] += 32;
      }
    }
    for (; k < kn; k++) {
      const __m512 v = _mm512_set1_ps(ak[k]);
      for (int i = 0; i < NP; i++) {
        acc[i][0] = _mm512_fmadd_ps(v, _mm512_load_ps(q[i]), acc[i][0]);
        acc[i][1] = _mm512_fmadd_ps(v, _mm512_load_ps(q[i] + 16), acc[i][1]);
        q[i] += 32;
      }
    }
  }
  for (int i = 0; i < NP; i++) {
    const size_t n0 = (size_t)i * 32;
    if (n0 >= nc) break;
    const size_t left = nc - n0;
    const __mmask16 m0 = mask_lo(left), m1 = left > 16 ? mask_lo(left - 16) : 0;
    _mm512_mask_storeu_ps(c + n0, m0, f32v_clamp(acc[i][0], lo, hi));
    _mm512_mask_storeu_ps(c + n0 + 16, m1, f32v_clamp(acc[i][1], lo, hi));
  }
}

void tfcc_f32_gemv_4x32_avx512(const tfcc_f32_packed *p, size_t p0, size_t np, size_t nc,
                               const float *a, float *c, float lo, float hi) {
  const __m512 vlo = _mm512_set1_ps(lo), vhi = _mm512_set1_ps(hi);
  size_t i = 0;
  for (; i + 4 <= np; i += 4) panels_t(p, p0 + i, nc - i * 32, a, c + i * 32, vlo, vhi, 4);
  const size_t rest = np - i;
  if (rest == 3)
    panels_t(p, p0 + i, nc - i * 32, a, c + i * 32, vlo, vhi, 3);
  else if (rest == 2)
    panels_t(p, p0 + i, nc - i * 32, a, c + i * 32, vlo, vhi, 2);
  else if (rest == 1)
    panels_t(p, p0 + i, nc - i * 32, a, c + i * 32, vlo, vhi, 1);
}
