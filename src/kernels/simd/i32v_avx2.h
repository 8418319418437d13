/* Int32 vector primitives, AVX2 (i32v.h lists them). */
#ifndef TFCC_KERNELS_SIMD_I32V_AVX2_H
#define TFCC_KERNELS_SIMD_I32V_AVX2_H

#include <immintrin.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "kernels/simd/f32v_avx2.h"
#include "kernels/simd/i32v.h"

typedef __m256i i32v;
#define I32V_N 8

static inline i32v i32v_set(int32_t x) { return _mm256_set1_epi32(x); }
static inline i32v i32v_add(i32v a, i32v b) { return _mm256_add_epi32(a, b); }
static inline i32v i32v_sub(i32v a, i32v b) { return _mm256_sub_epi32(a, b); }
static inline i32v i32v_mullo(i32v a, i32v b) { return _mm256_mullo_epi32(a, b); }
static inline i32v i32v_min(i32v a, i32v b) { return _mm256_min_epi32(a, b); }
static inline i32v i32v_max(i32v a, i32v b) { return _mm256_max_epi32(a, b); }
static inline i32v i32v_and(i32v a, i32v b) { return _mm256_and_si256(a, b); }
#define i32v_slli(x, k) _mm256_slli_epi32((x), (k))
#define i32v_srai(x, k) _mm256_srai_epi32((x), (k))
typedef __m128i i32v_shc;
static inline i32v_shc i32v_shc_make(int k) { return _mm_cvtsi32_si128(k); }
static inline i32v i32v_sll(i32v x, i32v_shc c) { return _mm256_sll_epi32(x, c); }
static inline i32v i32v_sra(i32v x, i32v_shc c) { return _mm256_sra_epi32(x, c); }
static inline i32v i32v_inc_gt(i32v q, i32v a, i32v b) {
  return _mm256_sub_epi32(q, _mm256_cmpgt_epi32(a, b)); /* the comparison's true is -1 */
}
/* bits 31..62 of each 64-bit sum (even lanes, then the odd lanes shifted down) */
static inline i32v i32v_srdhm(i32v x, i32v m) {
  const __m256i half = _mm256_set1_epi64x(1LL << 30);
  const __m256i pe = _mm256_add_epi64(_mm256_mul_epi32(x, m), half);
  const __m256i po = _mm256_add_epi64(_mm256_mul_epi32(_mm256_srli_epi64(x, 32), m), half);
  return _mm256_blend_epi32(_mm256_srli_epi64(pe, 31), _mm256_slli_epi64(po, 1), 0xAA);
}
static inline f32v i32v_to_f32(i32v x) { return _mm256_cvtepi32_ps(x); }
static inline i32v i32v_from_f32(f32v f) { return _mm256_cvtps_epi32(f); }
static inline i32v i32v_widen8(__m128i b, bool s) {
  return s ? _mm256_cvtepi8_epi32(b) : _mm256_cvtepu8_epi32(b);
}
static inline i32v i32v_ld_i8(const int8_t *p, bool s) {
  return i32v_widen8(_mm_loadl_epi64((const __m128i *)p), s);
}
static inline i32v i32v_ld_i8_n(const int8_t *p, size_t n, bool s) {
  int8_t t[8] = {0};
  memcpy(t, p, n);
  return i32v_ld_i8(t, s);
}
static inline void i32v_st_i8(int8_t *p, i32v x, bool s) {
  const __m128i w = _mm_packs_epi32(_mm256_castsi256_si128(x), _mm256_extracti128_si256(x, 1));
  _mm_storel_epi64((__m128i *)p, s ? _mm_packs_epi16(w, w) : _mm_packus_epi16(w, w));
}
static inline void i32v_st_i8_n(int8_t *p, i32v x, size_t n, bool s) {
  int8_t t[8];
  i32v_st_i8(t, x, s);
  memcpy(p, t, n);
}
static inline i32v i32v_ld(const void *p) { return _mm256_loadu_si256((const __m256i *)p); }
static inline i32v i32v_lda(const void *p) { return _mm256_load_si256((const __m256i *)p); }
static inline void i32v_st(int32_t *p, i32v x) { _mm256_storeu_si256((__m256i *)(void *)p, x); }
static inline i32v i32v_packs16(i32v a, i32v b) { return _mm256_packs_epi32(a, b); }
static inline i32v i32v_set16(int16_t x) { return _mm256_set1_epi16(x); }
static inline i32v i32v_adds16(i32v a, i32v b) { return _mm256_adds_epi16(a, b); }
static inline i32v i32v_packs8(i32v a, i32v b, bool s) {
  return s ? _mm256_packs_epi16(a, b) : _mm256_packus_epi16(a, b);
}
static inline i32v i32v_set8(int8_t x) { return _mm256_set1_epi8(x); }
static inline i32v i32v_max8(i32v a, i32v b, bool s) {
  return s ? _mm256_max_epi8(a, b) : _mm256_max_epu8(a, b);
}
static inline i32v i32v_unblock(i32v x) {
  return _mm256_permutevar8x32_epi32(x, _mm256_setr_epi32(0, 4, 1, 5, 2, 6, 3, 7));
}
static inline void i32v_st_u8_half(uint8_t *p, i32v x, int h, size_t n) {
  const __m128i v = h ? _mm256_extracti128_si256(x, 1) : _mm256_castsi256_si128(x);
  if (n >= 16) {
    _mm_storeu_si128((__m128i *)(void *)p, v);
  } else {
    uint8_t t[16];
    _mm_storeu_si128((__m128i *)(void *)t, v);
    memcpy(p, t, n);
  }
}

#endif
