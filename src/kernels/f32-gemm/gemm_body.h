/* f32 GEMM micro-kernels (gemm.h's contract), written once and built per ISA by a file that
 * includes the ISA's kernels/simd/f32v_<isa>.h (or defines the names used here: f32v, F32V_N,
 * f32v_ld, f32v_st, f32v_set, f32v_fma) and then defines
 *   GEMM_FN, GEMM_FN1   the names of the MR-row kernel and of the 1-row kernel
 *   GEMM_ROWS(X)        X(0) X(1) ... X(MR - 1)
 * and where the default does not fit
 *   GEMM_LDW(p)         a vector of packed weights (16-byte aligned; default f32v_ld)
 *   GEMM_BCAST(p)       *p in every lane (default f32v_set(*p))
 *   GEMM_CLAMP(v, lo, hi)  the output clamp (default f32v_clamp: NaN passes, as the scalar
 *                          kernel's clampf and TFLite)
 *   GEMM_MULTI_PANEL       nc may exceed NR (several panels per call: tfcc_f32_gemm_multi_panel)
 *   GEMM_MADD(a, b, c)     a * b + c per step (default f32v_fma)
 *   GEMM_TILE_ATTR         with GEMM_MULTI_PANEL: how the one-panel tile is declared (default
 *                          inline, always_inline: the panel loop holds the depth loop)
 * before including this file. A tile is MR rows x NR = 2 * F32V_N columns, one accumulator
 * vector pair per row, each a chain of f32v_fma over k in order: a row's sums do not depend
 * on how many rows run with it (the 1-row kernel gives the same bits). Accumulators start
 * from the bias, or from C (bias == NULL: a later K block). */
#include <stdint.h>
#include <string.h>

#include "kernels/f32-gemm/ukernels.h"

#ifndef GEMM_LDW
#define GEMM_LDW(p) f32v_ld(p)
#endif
#ifndef GEMM_BCAST
#define GEMM_BCAST(p) f32v_set(*(p))
#endif
#ifndef GEMM_MADD
#define GEMM_MADD(a, b, c) f32v_fma(a, b, c)
#endif
#ifndef GEMM_CLAMP
#define GEMM_CLAMP(v, lo, hi) f32v_clamp(v, lo, hi)
#endif

#define GEMM_NR (2 * F32V_N)

static inline void store_row(float *c, size_t nc, f32v v0, f32v v1, f32v lo, f32v hi) {
  v0 = GEMM_CLAMP(v0, lo, hi);
  v1 = GEMM_CLAMP(v1, lo, hi);
  if (nc >= GEMM_NR) {
    f32v_st(c, v0);
    f32v_st(c + F32V_N, v1);
    return;
  }
  float t[GEMM_NR];
  f32v_st(t, v0);
  f32v_st(t + F32V_N, v1);
  memcpy(c, t, nc * sizeof(float));
}

/* Row r: its accumulators c<r>0, c<r>1 (named variables, not an array: an array indexed by
 * the run-time row count is kept in memory, in wasm's linear memory for one) and its A
 * pointer. */
#define ROW_INIT(r) \
  f32v c##r##0, c##r##1; \
  const float *a##r = a[r] + a_off; \
  { \
    float t[GEMM_NR]; \
    const float *p = \
        tfcc_f32_gemm_row_init(t, GEMM_NR, bias, (r) < mr ? c + (r)*c_stride : NULL, nc); \
    c##r##0 = f32v_ld(p); \
    c##r##1 = f32v_ld(p + F32V_N); \
  }
#define ROW_STEP(r) \
  { \
    const f32v v = GEMM_BCAST(a##r + k); \
    c##r##0 = GEMM_MADD(v, b0, c##r##0); \
    c##r##1 = GEMM_MADD(v, b1, c##r##1); \
  }
#define ROW_STORE(r) \
  if ((r) < mr) store_row(c + (r)*c_stride, nc, c##r##0, c##r##1, vlo, vhi);

#define GEMM_TILE(ROWS) \
  (void)pf; \
  (void)pf_lines; \
  ROWS(ROW_INIT) \
  for (size_t k = 0; k < kc; k++) { \
    const f32v b0 = GEMM_LDW(w), b1 = GEMM_LDW(w + F32V_N); \
    w += GEMM_NR; \
    ROWS(ROW_STEP) \
  } \
  const f32v vlo = f32v_set(lo), vhi = f32v_set(hi); \
  ROWS(ROW_STORE)

#define GEMM_ROW0(X) X(0)

#ifdef GEMM_MULTI_PANEL
#ifndef GEMM_TILE_ATTR
#define GEMM_TILE_ATTR inline __attribute__((always_inline))
#endif
/* tfcc_f32_gemm_multi_panel kernels: nc > NR runs the consecutive panels of one K block
 * (weights kc x NR floats apart, biases NR apart), each the tile above. */
static GEMM_TILE_ATTR TFCC_F32_GEMM_DECL(gemm_tile_mr) { GEMM_TILE(GEMM_ROWS) }
static GEMM_TILE_ATTR TFCC_F32_GEMM_DECL(gemm_tile_1){GEMM_TILE(GEMM_ROW0)}
#define GEMM_PANELS(TILE) \
  for (; nc > GEMM_NR; nc -= GEMM_NR, w += kc * GEMM_NR, c += GEMM_NR) { \
    TILE(mr, GEMM_NR, kc, a, a_off, w, bias, c, c_stride, lo, hi, pf, pf_lines); \
    if (bias) bias += GEMM_NR; \
  } \
  TILE(mr, nc, kc, a, a_off, w, bias, c, c_stride, lo, hi, pf, pf_lines);

TFCC_F32_GEMM_DECL(GEMM_FN){GEMM_PANELS(gemm_tile_mr)}

TFCC_F32_GEMM_DECL(GEMM_FN1){GEMM_PANELS(gemm_tile_1)}
#else
TFCC_F32_GEMM_DECL(GEMM_FN){GEMM_TILE(GEMM_ROWS)}

TFCC_F32_GEMM_DECL(GEMM_FN1) {
  GEMM_TILE(GEMM_ROW0)
}
#endif
