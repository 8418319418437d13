/* f32 GEMV kernel, WebAssembly SIMD128: four 8-column panels at once (eight accumulators,
 * four load streams), groups of fewer panels at the end. The panel-by-panel one-row kernel
 * runs one stream whose two accumulator chains bound it at one add latency per k; four
 * streams keep more of the weights' reads in flight (MobileNetV2's 5 MB classifier, read once
 * per run). Per k: one broadcast of a[k], then per panel two loads, two multiplies and two
 * adds onto that column's single chain (bias, then k in order, the multiply and the add
 * rounded separately as the one-row kernel does: the GEMM tile's sums, bit for bit). */
#include <string.h>

#include "kernels/f32-gemm/gemv.h"
#include "kernels/simd/f32v_wasmsimd.h"

static inline __attribute__((always_inline)) void panels_t(const tfcc_f32_packed *p, size_t pi0,
                                                           size_t nc, const float *a, float *c,
                                                           v128_t lo, v128_t hi, const int NP) {
  const size_t K = (size_t)p->kdim, kc = (size_t)p->kc;
  v128_t acc[4][2];
  for (int i = 0; i < NP; i++) {
    const float *b = tfcc_f32_panel_bias(p, pi0 + (size_t)i);
    acc[i][0] = wasm_v128_load(b);
    acc[i][1] = wasm_v128_load(b + 4);
  }
  for (size_t k0 = 0; k0 < K; k0 += kc) {
    const size_t kn = K - k0 < kc ? K - k0 : kc;
    const float *ak = a + k0;
    const float *q[4];
    for (int i = 0; i < NP; i++) q[i] = tfcc_f32_panel_block(p, pi0 + (size_t)i, k0);
    for (size_t k = 0; k < kn; k++) {
      const v128_t v = wasm_v128_load32_splat(ak + k);
      for (int i = 0; i < NP; i++) {
        acc[i][0] = f32v_fma(v, wasm_v128_load(q[i]), acc[i][0]);
        acc[i][1] = f32v_fma(v, wasm_v128_load(q[i] + 4), acc[i][1]);
        q[i] += 8;
      }
    }
  }
  for (int i = 0; i < NP; i++) {
    const size_t n0 = (size_t)i * 8;
    if (n0 >= nc) break;
    /* the one-row kernel's clamp (NaN passes) */
    const v128_t r0 = f32v_min(hi, f32v_max(lo, acc[i][0]));
    const v128_t r1 = f32v_min(hi, f32v_max(lo, acc[i][1]));
    if (nc - n0 >= 8) {
      wasm_v128_store(c + n0, r0);
      wasm_v128_store(c + n0 + 4, r1);
      continue;
    }
    float t[8];
    wasm_v128_store(t, r0);
    wasm_v128_store(t + 4, r1);
    memcpy(c + n0, t, (nc - n0) * sizeof(float));
  }
}

void tfcc_f32_gemv_4x8_wasmsimd(const tfcc_f32_packed *p, size_t p0, size_t np, size_t nc,
                                const float *a, float *c, float lo, float hi) {
  const v128_t vlo = wasm_f32x4_splat(lo), vhi = wasm_f32x4_splat(hi);
  size_t i = 0;
  for (; i + 4 <= np; i += 4) panels_t(p, p0 + i, nc - i * 8, a, c + i * 8, vlo, vhi, 4);
  const size_t rest = np - i;
  if (rest == 3)
    panels_t(p, p0 + i, nc - i * 8, a, c + i * 8, vlo, vhi, 3);
  else if (rest == 2)
    panels_t(p, p0 + i, nc - i * 8, a, c + i * 8, vlo, vhi, 2);
  else if (rest == 1)
    panels_t(p, p0 + i, nc - i * 8, a, c + i * 8, vlo, vhi, 1);
}
