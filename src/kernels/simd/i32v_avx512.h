/* Int32 vector primitives, AVX-512 F/BW (i32v.h lists them). */
#ifndef TFCC_KERNELS_SIMD_I32V_AVX512_H
#define TFCC_KERNELS_SIMD_I32V_AVX512_H

#include <immintrin.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "kernels/simd/f32v_avx512.h"
#include "kernels/simd/i32v.h"

typedef __m512i i32v;
#define I32V_N 16

static inline i32v i32v_set(int32_t x) { return _mm512_set1_epi32(x); }
static inline i32v i32v_add(i32v a, i32v b) { return _mm512_add_epi32(a, b); }
static inline i32v i32v_sub(i32v a, i32v b) { return _mm512_sub_epi32(a, b); }
static inline i32v i32v_mullo(i32v a, i32v b) { return _mm512_mullo_epi32(a, b); }
static inline i32v i32v_min(i32v a, i32v b) { return _mm512_min_epi32(a, b); }
static inline i32v i32v_max(i32v a, i32v b) { return _mm512_max_epi32(a, b); }
static inline i32v i32v_and(i32v a, i32v b) { return _mm512_and_si512(a, b); }
#define i32v_slli(x, k) _mm512_slli_epi32((x), (k))
#define i32v_srai(x, k) _mm512_srai_epi32((x), (k))
typedef __m128i i32v_shc;
static inline i32v_shc i32v_shc_make(int k) { return _mm_cvtsi32_si128(k); }
static inline i32v i32v_sll(i32v x, i32v_shc c) { return _mm512_sll_epi32(x, c); }
static inline i32v i32v_sra(i32v x, i32v_shc c) { return _mm512_sra_epi32(x, c); }
static inline i32v i32v_inc_gt(i32v q, i32v a, i32v b) {
  return _mm512_mask_add_epi32(q, _mm512_cmpgt_epi32_mask(a, b), q, _mm512_set1_epi32(1));
}
/* bits 31..62 of each 64-bit sum (even lanes, then the odd lanes shifted down) */
static inline i32v i32v_srdhm(i32v x, i32v m) {
  const __m512i half = _mm512_set1_epi64(1LL << 30);
  const __m512i pe = _mm512_add_epi64(_mm512_mul_epi32(x, m), half);
  const __m512i po = _mm512_add_epi64(_mm512_mul_epi32(_mm512_srli_epi64(x, 32), m), half);
  return _mm512_mask_blend_epi32(0xAAAA, _mm512_srli_epi64(pe, 31), _mm512_slli_epi64(po, 1));
}
static inline f32v i32v_to_f32(i32v x) { return _mm512_cvtepi32_ps(x); }
static inline i32v i32v_from_f32(f32v f) { return _mm512_cvtps_epi32(f); }
static inline i32v i32v_widen8(__m128i b, bool s) {
  return s ? _mm512_cvtepi8_epi32(b) : _mm512_cvtepu8_epi32(b);
}
static inline __mmask16 i32v_first_(size_t n) { return (__mmask16)((1u << n) - 1u); }
static inline i32v i32v_ld_i8(const int8_t *p, bool s) {
  return i32v_widen8(_mm_loadu_si128((const __m128i *)p), s);
}
static inline i32v i32v_ld_i8_n(const int8_t *p, size_t n, bool s) {
  return i32v_widen8(_mm_maskz_loadu_epi8(i32v_first_(n), p), s);
}
/* the lanes hold values of the byte type already: truncating is exact */
static inline void i32v_st_i8(int8_t *p, i32v x, bool s) {
  (void)s;
  _mm_storeu_si128((__m128i *)p, _mm512_cvtepi32_epi8(x));
}
static inline void i32v_st_i8_n(int8_t *p, i32v x, size_t n, bool s) {
  (void)s;
  _mm_mask_storeu_epi8(p, i32v_first_(n), _mm512_cvtepi32_epi8(x));
}
static inline i32v i32v_ld(const void *p) { return _mm512_loadu_si512(p); }
static inline i32v i32v_lda(const void *p) { return _mm512_load_si512(p); }
static inline void i32v_st(int32_t *p, i32v x) { _mm512_storeu_si512(p, x); }
static inline i32v i32v_packs16(i32v a, i32v b) { return _mm512_packs_epi32(a, b); }
static inline i32v i32v_set16(int16_t x) { return _mm512_set1_epi16(x); }
static inline i32v i32v_adds16(i32v a, i32v b) { return _mm512_adds_epi16(a, b); }
static inline i32v i32v_packs8(i32v a, i32v b, bool s) {
  return s ? _mm512_packs_epi16(a, b) : _mm512_packus_epi16(a, b);
}
static inline i32v i32v_set8(int8_t x) { return _mm512_set1_epi8(x); }
static inline i32v i32v_max8(i32v a, i32v b, bool s) {
  return s ? _mm512_max_epi8(a, b) : _mm512_max_epu8(a, b);
}
static inline i32v i32v_unblock(i32v x) {
  return _mm512_permutexvar_epi32(
      _mm512_setr_epi32(0, 4, 8, 12, 1, 5, 9, 13, 2, 6, 10, 14, 3, 7, 11, 15), x);
}
static inline void i32v_st_u8_half(uint8_t *p, i32v x, int h, size_t n) {
  const __m256i v = h ? _mm512_extracti64x4_epi64(x, 1) : _mm512_castsi512_si256(x);
  if (n >= 32)
    _mm256_storeu_si256((__m256i *)(void *)p, v);
  else
    _mm256_mask_storeu_epi8(p, (__mmask32)((1u << n) - 1u), v);
}

#endif
