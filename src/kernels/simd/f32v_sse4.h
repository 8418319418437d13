/* Float32 vector primitives, SSE4.1 (f32v.h lists them): four lanes, for the x86-64 CPUs
 * (or TFCC_ISA=sse4 caps) below AVX2. Maximum and minimum are maxps / minps (x > y ? x : y,
 * x < y ? x : y: NaN in x gives y), as the AVX2 header's. SSE4.1 has no fused multiply-add:
 * f32v_fma and f32v_fnma keep the contract (one rounding) through fmaf lane by lane, correct but
 * slow; the bodies built for SSE4 (kernels/hybrid) use separate products and sums only. */
#ifndef TFCC_KERNELS_SIMD_F32V_SSE4_H
#define TFCC_KERNELS_SIMD_F32V_SSE4_H

#include <math.h>
#include <smmintrin.h>
#include <stddef.h>
#include <string.h>

#include "kernels/simd/f32v.h"

typedef __m128 f32v;
typedef __m128 f32m;
#define F32V_N 4

static inline f32v f32v_ld(const float *p) { return _mm_loadu_ps(p); }
static inline void f32v_st(float *p, f32v v) { _mm_storeu_ps(p, v); }
static inline f32v f32v_ld_n(const float *p, size_t n) {
  float buf[4] = {0.f, 0.f, 0.f, 0.f};
  memcpy(buf, p, n * sizeof(float));
  return _mm_loadu_ps(buf);
}
static inline void f32v_st_n(float *p, f32v v, size_t n) {
  float buf[4];
  _mm_storeu_ps(buf, v);
  memcpy(p, buf, n * sizeof(float));
}
static inline f32v f32v_set(float x) { return _mm_set1_ps(x); }
static inline f32v f32v_zero(void) { return _mm_setzero_ps(); }
static inline f32v f32v_add(f32v a, f32v b) { return _mm_add_ps(a, b); }
static inline f32v f32v_sub(f32v a, f32v b) { return _mm_sub_ps(a, b); }
static inline f32v f32v_mul(f32v a, f32v b) { return _mm_mul_ps(a, b); }
static inline f32v f32v_div(f32v a, f32v b) { return _mm_div_ps(a, b); }
static inline f32v f32v_fma(f32v a, f32v b, f32v c) {
  float x[4], y[4], z[4];
  _mm_storeu_ps(x, a), _mm_storeu_ps(y, b), _mm_storeu_ps(z, c);
  for (int i = 0; i < 4; i++) z[i] = fmaf(x[i], y[i], z[i]);
  return _mm_loadu_ps(z);
}
static inline f32v f32v_fnma(f32v a, f32v b, f32v c) {
  return f32v_fma(_mm_xor_ps(a, _mm_set1_ps(-0.0f)), b, c);
}
static inline f32v f32v_max(f32v x, f32v y) { return _mm_max_ps(x, y); }
static inline f32v f32v_min(f32v x, f32v y) { return _mm_min_ps(x, y); }
static inline f32m f32v_gt(f32v x, f32v y) { return _mm_cmpgt_ps(x, y); }
static inline f32m f32v_ge(f32v x, f32v y) { return _mm_cmpge_ps(x, y); }
static inline f32m f32v_lt(f32v x, f32v y) { return _mm_cmplt_ps(x, y); }
static inline f32v f32v_sel(f32m m, f32v a, f32v b) { return _mm_blendv_ps(b, a, m); }
static inline f32v f32v_abs(f32v x) {
  return _mm_castsi128_ps(_mm_and_si128(_mm_castps_si128(x), _mm_set1_epi32(0x7FFFFFFF)));
}
static inline f32v f32v_neg_abs(f32v x) { return _mm_sub_ps(_mm_setzero_ps(), f32v_abs(x)); }
static inline f32v f32v_copysign(f32v t, f32v x) {
  return _mm_castsi128_ps(_mm_or_si128(
      _mm_castps_si128(t), _mm_and_si128(_mm_castps_si128(x), _mm_set1_epi32((int)0x80000000u))));
}
static inline f32v f32v_round(f32v x) {
  return _mm_round_ps(x, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
}
static inline f32v f32v_exp2i(f32v n) {
  return _mm_castsi128_ps(
      _mm_slli_epi32(_mm_add_epi32(_mm_cvtps_epi32(n), _mm_set1_epi32(127)), 23));
}
/* (0 + 2) + (1 + 3), as the AVX2 header's last steps */
static inline float f32v_hsum(f32v v) {
  const __m128 t = _mm_add_ps(v, _mm_movehl_ps(v, v));
  return _mm_cvtss_f32(_mm_add_ss(t, _mm_movehdup_ps(t)));
}
static inline float f32v_hmax(f32v v) {
  const __m128 t = _mm_max_ps(v, _mm_movehl_ps(v, v));
  return _mm_cvtss_f32(_mm_max_ss(t, _mm_movehdup_ps(t)));
}

#endif
