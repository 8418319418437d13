/* Float32 vector primitives, AVX2 + FMA (f32v.h lists them). */
#ifndef TFCC_KERNELS_SIMD_F32V_AVX2_H
#define TFCC_KERNELS_SIMD_F32V_AVX2_H

#include <immintrin.h>
#include <stddef.h>

#include "kernels/simd/f32v.h"

typedef __m256 f32v;
typedef __m256 f32m;
#define F32V_N 8

static inline f32v f32v_ld(const float *p) { return _mm256_loadu_ps(p); }
static inline void f32v_st(float *p, f32v v) { _mm256_storeu_ps(p, v); }
static inline __m256i f32v_first_(size_t n) {
  return _mm256_cmpgt_epi32(_mm256_set1_epi32((int)n), _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
}
static inline f32v f32v_ld_n(const float *p, size_t n) {
  return _mm256_maskload_ps(p, f32v_first_(n));
}
static inline void f32v_st_n(float *p, f32v v, size_t n) {
  _mm256_maskstore_ps(p, f32v_first_(n), v);
}
static inline f32v f32v_set(float x) { return _mm256_set1_ps(x); }
/* p[0..3] in every group of four lanes (lane i = p[i % 4]) */
static inline f32v f32v_ld_x4(const float *p) { return _mm256_broadcast_ps((const __m128 *)p); }
static inline f32v f32v_zero(void) { return _mm256_setzero_ps(); }
static inline f32v f32v_add(f32v a, f32v b) { return _mm256_add_ps(a, b); }
static inline f32v f32v_sub(f32v a, f32v b) { return _mm256_sub_ps(a, b); }
static inline f32v f32v_mul(f32v a, f32v b) { return _mm256_mul_ps(a, b); }
static inline f32v f32v_div(f32v a, f32v b) { return _mm256_div_ps(a, b); }
static inline f32v f32v_fma(f32v a, f32v b, f32v c) { return _mm256_fmadd_ps(a, b, c); }
static inline f32v f32v_fnma(f32v a, f32v b, f32v c) { return _mm256_fnmadd_ps(a, b, c); }
static inline f32v f32v_max(f32v x, f32v y) { return _mm256_max_ps(x, y); }
static inline f32v f32v_min(f32v x, f32v y) { return _mm256_min_ps(x, y); }
static inline f32m f32v_gt(f32v x, f32v y) { return _mm256_cmp_ps(x, y, _CMP_GT_OQ); }
static inline f32m f32v_ge(f32v x, f32v y) { return _mm256_cmp_ps(x, y, _CMP_GE_OQ); }
static inline f32m f32v_lt(f32v x, f32v y) { return _mm256_cmp_ps(x, y, _CMP_LT_OQ); }
static inline f32v f32v_sel(f32m m, f32v a, f32v b) { return _mm256_blendv_ps(b, a, m); }
static inline f32v f32v_abs(f32v x) {
  return _mm256_castsi256_ps(
      _mm256_and_si256(_mm256_castps_si256(x), _mm256_set1_epi32(0x7FFFFFFF)));
}
static inline f32v f32v_neg_abs(f32v x) { return _mm256_sub_ps(_mm256_setzero_ps(), f32v_abs(x)); }
static inline f32v f32v_copysign(f32v t, f32v x) {
  return _mm256_castsi256_ps(_mm256_or_si256(
      _mm256_castps_si256(t),
      _mm256_and_si256(_mm256_castps_si256(x), _mm256_set1_epi32((int)0x80000000u))));
}
static inline f32v f32v_round(f32v x) {
  return _mm256_round_ps(x, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
}
static inline f32v f32v_exp2i(f32v n) {
  return _mm256_castsi256_ps(
      _mm256_slli_epi32(_mm256_add_epi32(_mm256_cvtps_epi32(n), _mm256_set1_epi32(127)), 23));
}
static inline float f32v_hsum(f32v v) {
  const __m128 s = _mm_add_ps(_mm256_castps256_ps128(v), _mm256_extractf128_ps(v, 1));
  const __m128 t = _mm_add_ps(s, _mm_movehl_ps(s, s));
  return _mm_cvtss_f32(_mm_add_ss(t, _mm_movehdup_ps(t)));
}
static inline float f32v_hmax(f32v v) {
  const __m128 s = _mm_max_ps(_mm256_castps256_ps128(v), _mm256_extractf128_ps(v, 1));
  const __m128 t = _mm_max_ps(s, _mm_movehl_ps(s, s));
  return _mm_cvtss_f32(_mm_max_ss(t, _mm_movehdup_ps(t)));
}

#endif
