/* Float32 vector primitives, AVX-512F (f32v.h lists them). */
#ifndef TFCC_KERNELS_SIMD_F32V_AVX512_H
#define TFCC_KERNELS_SIMD_F32V_AVX512_H

#include <immintrin.h>
#include <stddef.h>

#include "kernels/simd/f32v.h"

typedef __m512 f32v;
typedef __mmask16 f32m;
#define F32V_N 16

static inline f32v f32v_ld(const float *p) { return _mm512_loadu_ps(p); }
static inline void f32v_st(float *p, f32v v) { _mm512_storeu_ps(p, v); }
static inline __mmask16 f32v_first_(size_t n) { return (__mmask16)((1u << n) - 1u); }
static inline f32v f32v_ld_n(const float *p, size_t n) {
  return _mm512_maskz_loadu_ps(f32v_first_(n), p);
}
static inline void f32v_st_n(float *p, f32v v, size_t n) {
  _mm512_mask_storeu_ps(p, f32v_first_(n), v);
}
static inline f32v f32v_set(float x) { return _mm512_set1_ps(x); }
/* p[0..3] in every group of four lanes (lane i = p[i % 4]) */
static inline f32v f32v_ld_x4(const float *p) { return _mm512_broadcast_f32x4(_mm_loadu_ps(p)); }
static inline f32v f32v_zero(void) { return _mm512_setzero_ps(); }
static inline f32v f32v_add(f32v a, f32v b) { return _mm512_add_ps(a, b); }
static inline f32v f32v_sub(f32v a, f32v b) { return _mm512_sub_ps(a, b); }
static inline f32v f32v_mul(f32v a, f32v b) { return _mm512_mul_ps(a, b); }
static inline f32v f32v_div(f32v a, f32v b) { return _mm512_div_ps(a, b); }
static inline f32v f32v_fma(f32v a, f32v b, f32v c) { return _mm512_fmadd_ps(a, b, c); }
static inline f32v f32v_fnma(f32v a, f32v b, f32v c) { return _mm512_fnmadd_ps(a, b, c); }
static inline f32v f32v_max(f32v x, f32v y) { return _mm512_max_ps(x, y); }
static inline f32v f32v_min(f32v x, f32v y) { return _mm512_min_ps(x, y); }
static inline f32m f32v_gt(f32v x, f32v y) { return _mm512_cmp_ps_mask(x, y, _CMP_GT_OQ); }
static inline f32m f32v_ge(f32v x, f32v y) { return _mm512_cmp_ps_mask(x, y, _CMP_GE_OQ); }
static inline f32m f32v_lt(f32v x, f32v y) { return _mm512_cmp_ps_mask(x, y, _CMP_LT_OQ); }
static inline f32v f32v_sel(f32m m, f32v a, f32v b) { return _mm512_mask_blend_ps(m, b, a); }
static inline f32v f32v_abs(f32v x) {
  return _mm512_castsi512_ps(
      _mm512_and_si512(_mm512_castps_si512(x), _mm512_set1_epi32(0x7FFFFFFF)));
}
static inline f32v f32v_neg_abs(f32v x) { return _mm512_sub_ps(_mm512_setzero_ps(), f32v_abs(x)); }
static inline f32v f32v_copysign(f32v t, f32v x) {
  return _mm512_castsi512_ps(_mm512_or_si512(
      _mm512_castps_si512(t),
      _mm512_and_si512(_mm512_castps_si512(x), _mm512_set1_epi32((int)0x80000000u))));
}
static inline f32v f32v_round(f32v x) {
  return _mm512_roundscale_ps(x, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
}
static inline f32v f32v_exp2i(f32v n) {
  return _mm512_castsi512_ps(
      _mm512_slli_epi32(_mm512_add_epi32(_mm512_cvtps_epi32(n), _mm512_set1_epi32(127)), 23));
}
static inline float f32v_hsum(f32v v) { return _mm512_reduce_add_ps(v); }
static inline float f32v_hmax(f32v v) { return _mm512_reduce_max_ps(v); }

#endif
