/* Float32 vector primitives, portable C with one lane (f32v.h lists them): a body written over
 * the f32v names builds as the family's scalar kernel from the same source as the SIMD ones.
 * One lane, so the partial loads and stores see n = 0 only. Plain C operators: one IEEE
 * operation each, as the reference kernels (the including file switches contraction off where
 * the compiler could fuse a multiply and an add). */
#ifndef TFCC_KERNELS_SIMD_F32V_SCALAR_H
#define TFCC_KERNELS_SIMD_F32V_SCALAR_H

#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "kernels/simd/f32v.h"

typedef float f32v;
typedef int f32m;
#define F32V_N 1

static inline f32v f32v_ld(const float *p) { return *p; }
static inline void f32v_st(float *p, f32v v) { *p = v; }
static inline f32v f32v_ld_n(const float *p, size_t n) { return n ? *p : 0.f; }
static inline void f32v_st_n(float *p, f32v v, size_t n) {
  if (n) *p = v;
}
static inline f32v f32v_set(float x) { return x; }
static inline f32v f32v_zero(void) { return 0.f; }
static inline f32v f32v_add(f32v a, f32v b) { return a + b; }
static inline f32v f32v_sub(f32v a, f32v b) { return a - b; }
static inline f32v f32v_mul(f32v a, f32v b) { return a * b; }
static inline f32v f32v_div(f32v a, f32v b) { return a / b; }
static inline f32v f32v_fma(f32v a, f32v b, f32v c) { return fmaf(a, b, c); }
static inline f32v f32v_fnma(f32v a, f32v b, f32v c) { return fmaf(-a, b, c); }
static inline f32v f32v_max(f32v x, f32v y) { return x > y ? x : y; }
static inline f32v f32v_min(f32v x, f32v y) { return x < y ? x : y; }
static inline f32m f32v_gt(f32v x, f32v y) { return x > y; }
static inline f32m f32v_ge(f32v x, f32v y) { return x >= y; }
static inline f32m f32v_lt(f32v x, f32v y) { return x < y; }
static inline f32v f32v_sel(f32m m, f32v a, f32v b) { return m ? a : b; }
static inline f32v f32v_abs(f32v x) { return fabsf(x); }
static inline f32v f32v_neg_abs(f32v x) { return -fabsf(x); }
static inline f32v f32v_copysign(f32v t, f32v x) {
  uint32_t tb, xb;
  memcpy(&tb, &t, sizeof tb);
  memcpy(&xb, &x, sizeof xb);
  tb |= xb & 0x80000000u;
  memcpy(&t, &tb, sizeof t);
  return t;
}
static inline f32v f32v_round(f32v x) { return nearbyintf(x); }
static inline f32v f32v_exp2i(f32v n) {
  const uint32_t b = (uint32_t)((int32_t)n + 127) << 23;
  float r;
  memcpy(&r, &b, sizeof r);
  return r;
}
static inline float f32v_hsum(f32v v) { return v; }
static inline float f32v_hmax(f32v v) { return v; }

#endif
