/* q8 GEMM micro-kernel, portable C: 4 rows x 16 columns, the exact arithmetic of gemm.h. */
#include "kernels/q8-gemm/ukernels.h"
#include "kernels/ref/xnn_quant.h"

#define MR 4
#define NR 16

static inline void tile(size_t mr, size_t nc, size_t kc, const void *const *a, const void *w,
                        const int32_t *row_add, const tfcc_q8_out *o, bool is_signed) {
  const int32_t *bias = w;
  const float *scale = (const float *)((const uint8_t *)w + NR * 4);
  const uint8_t *pw = (const uint8_t *)w + NR * 8;
  uint32_t acc[MR][NR];
  for (size_t i = 0; i < MR; i++)
    for (size_t j = 0; j < NR; j++) acc[i][j] = (uint32_t)bias[j] + (uint32_t)row_add[i];
  for (size_t i = 0; i < mr; i++) {
    const uint8_t *x = a[i];
    for (size_t k = 0; k < kc; k++) {
      const uint8_t *wk = pw + (k / 4) * NR * 4 + k % 4;
      if (is_signed) {
        const int32_t xv = (int8_t)x[k];
        for (size_t j = 0; j < NR; j++) acc[i][j] += (uint32_t)(xv * (int32_t)wk[j * 4]);
      } else {
        const int32_t xv = x[k];
        for (size_t j = 0; j < NR; j++) acc[i][j] += (uint32_t)(xv * (int32_t)(int8_t)wk[j * 4]);
      }
    }
  }
  for (size_t i = 0; i < mr; i++) {
    for (size_t j = 0; j < nc; j++) {
      const int32_t v = (int32_t)acc[i][j];
      if (o->c32) {
        o->c32[i * NR + j] = v;
        continue;
      }
      const float lo = o->lo, hi = o->hi;
      float f = (float)v * scale[j];
      f = f < lo ? lo : f;
      f = f > hi ? hi : f;
      o->c[i * o->c_stride + j] = (uint8_t)((int32_t)lrintf(f) + o->zp);
    }
  }
}

TFCC_Q8_GEMM_DECL(tfcc_q8_gemm_s_4x16_scalar) { tile(mr, nc, kc, a, w, row_add, o, true); }
TFCC_Q8_GEMM_DECL(tfcc_q8_gemm_u_4x16_scalar) { tile(mr, nc, kc, a, w, row_add, o, false); }
