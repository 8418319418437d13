/* 8-bit softmax rows, AVX2 build of the shared body (q8_softmax_body.h): 8 rows / elements a
 * step, the table entries by 8-lane gathers. */
#include <immintrin.h>
#include <stdbool.h>

#include "kernels/simd/f32v_avx2.h"
#include "kernels/softmax/q8_softmax_x86.h"

#define Q8SM_GATHER 1
typedef struct q8sm_rows {
  __m256i roff, toff, flip4;
} q8sm_rows;
static inline q8sm_rows q8sm_rows_make(const int32_t *roff, const int32_t *toff, uint8_t flip) {
  const q8sm_rows r = {_mm256_loadu_si256((const __m256i *)roff),
                       _mm256_loadu_si256((const __m256i *)toff), _mm256_set1_epi8((char)flip)};
  return r;
}
static inline void q8sm_gather4(const float *table, const uint8_t *p, const q8sm_rows *r,
                                f32v e[4]) {
  const __m256i w =
      _mm256_xor_si256(_mm256_i32gather_epi32((const int *)(const void *)p, r->roff, 1), r->flip4);
  const __m256i m = _mm256_set1_epi32(0xff);
  e[0] = _mm256_i32gather_ps(table, _mm256_add_epi32(r->toff, _mm256_and_si256(w, m)), 4);
  e[1] = _mm256_i32gather_ps(
      table, _mm256_add_epi32(r->toff, _mm256_and_si256(_mm256_srli_epi32(w, 8), m)), 4);
  e[2] = _mm256_i32gather_ps(
      table, _mm256_add_epi32(r->toff, _mm256_and_si256(_mm256_srli_epi32(w, 16), m)), 4);
  e[3] = _mm256_i32gather_ps(table, _mm256_add_epi32(r->toff, _mm256_srli_epi32(w, 24)), 4);
}
static inline f32v q8sm_gather(const float *t, const uint8_t *p, uint8_t flip) {
  const __m128i b = _mm_xor_si128(_mm_loadl_epi64((const __m128i *)p), _mm_set1_epi8((char)flip));
  return _mm256_i32gather_ps(t, _mm256_cvtepu8_epi32(b), 4);
}
static inline void q8sm_st8(uint8_t *p, f32v v, bool u8) {
  const __m256i i = _mm256_cvtps_epi32(v);
  const __m128i h = _mm_packs_epi32(_mm256_castsi256_si128(i), _mm256_extracti128_si256(i, 1));
  _mm_storel_epi64((__m128i *)(void *)p, u8 ? _mm_packus_epi16(h, h) : _mm_packs_epi16(h, h));
}

#define TFCC_Q8_SOFTMAX_FN tfcc_q8_softmax_avx2
#include "kernels/softmax/q8_softmax_body.h"
