/* Row stores over the f32v primitives, for GEMM tiles two vectors wide: include after the
 * ISA's f32v header. */
#ifndef TFCC_KERNELS_SIMD_F32V_ROW_H
#define TFCC_KERNELS_SIMD_F32V_ROW_H

#include <stddef.h>

/* v0, v1 clamped to [lo, hi] and stored to the first nc floats of c (nc >= 1; at most
 * 2 * F32V_N written). */
static inline void f32v_st2_clamp(float *c, size_t nc, f32v v0, f32v v1, f32v lo, f32v hi) {
  v0 = f32v_clamp(v0, lo, hi);
  v1 = f32v_clamp(v1, lo, hi);
  if (nc >= 2 * F32V_N) {
    f32v_st(c, v0);
    f32v_st(c + F32V_N, v1);
  } else if (nc >= F32V_N) {
    f32v_st(c, v0);
    f32v_st_n(c + F32V_N, v1, nc - F32V_N);
  } else {
    f32v_st_n(c, v0, nc);
  }
}

#endif
